//! How much of a job is left, before it is all searched: a sample of cubes drawn evenly over
//! the order of their split bounds, and the time of the cubes not yet searched projected from
//! the searched cubes nearest to each in bound.
//!
//! A placement cube's tree grows steeply with the gap between its split bound and the cost it
//! must refute, so a cube left is compared with searched cubes of about its bound, not with the
//! mean of them all: a sample drawn from the lowest bounds alone would overstate the job, one
//! from the highest understate it. Times of cubes of the same bound still differ severalfold
//! (knight domination 20x20, split into 208 cubes: 117 to 447 s for bounds 56.25 to 56.53), so a
//! projection is as good as its sample is large, and says how many cubes it rests on.

/// How many searched cubes, the nearest in bound, make up the projected time of one cube left.
pub const NEAREST: usize = 3;

/// Up to `k` of the cubes `candidates` (index, split bound), spread evenly over the order of
/// their bounds — the middle cube of each of `k` equal slices of that order — lowest bound
/// first, so that the heaviest cubes start first; cubes without a bound follow the others, by
/// index. All of them when `k` is not smaller than their number.
pub fn spread(candidates: &[(usize, Option<f64>)], k: usize) -> Vec<usize> {
    let mut order = candidates.to_vec();
    order.sort_by(|a, b| match (a.1, b.1) {
        (Some(x), Some(y)) => x.total_cmp(&y).then(a.0.cmp(&b.0)),
        (Some(_), None) => std::cmp::Ordering::Less,
        (None, Some(_)) => std::cmp::Ordering::Greater,
        (None, None) => a.0.cmp(&b.0),
    });
    if k >= order.len() {
        return order.into_iter().map(|c| c.0).collect();
    }
    (0..k).map(|i| order[(2 * i + 1) * order.len() / (2 * k)].0).collect()
}

/// The seconds the cubes left (their split bounds, `left`) would take together, projected
/// from the cubes searched (`searched`: split bound and seconds): each cube left takes the mean
/// time of the [`NEAREST`] searched cubes whose bounds are nearest to its own. `None` when no
/// cube was searched, or a cube left has no bound to compare.
pub fn project(searched: &[(f64, f64)], left: &[Option<f64>]) -> Option<f64> {
    if searched.is_empty() {
        return None;
    }
    let mut total = 0.0;
    let mut distances: Vec<(f64, f64)> = Vec::with_capacity(searched.len());
    for bound in left {
        let bound = (*bound)?;
        distances.clear();
        distances.extend(searched.iter().map(|&(b, seconds)| ((b - bound).abs(), seconds)));
        distances.sort_by(|a, b| a.0.total_cmp(&b.0));
        let nearest = &distances[..NEAREST.min(distances.len())];
        total += nearest.iter().map(|d| d.1).sum::<f64>() / nearest.len() as f64;
    }
    Some(total)
}

#[cfg(test)]
mod tests {
    use super::{project, spread, NEAREST};

    #[test]
    fn a_sample_takes_the_middle_of_equal_slices_of_the_bound_order() {
        // Ten cubes whose bounds run against their indices: cube 9 has the lowest bound.
        let cubes: Vec<(usize, Option<f64>)> = (0..10).map(|i| (i, Some(60.0 - i as f64))).collect();
        assert_eq!(spread(&cubes, 2), vec![7, 2]);
        assert_eq!(spread(&cubes, 5), vec![8, 6, 4, 2, 0]);
        assert_eq!(spread(&cubes, 1), vec![4]);
        assert_eq!(spread(&cubes, 0), Vec::<usize>::new());
        // Asked for as many or more: every cube, lowest bound first.
        assert_eq!(spread(&cubes, 10), (0..10).rev().collect::<Vec<_>>());
        assert_eq!(spread(&cubes[..3], 7), vec![2, 1, 0]);
    }

    #[test]
    fn cubes_without_a_bound_come_last() {
        let cubes = [(4, None), (1, Some(57.5)), (0, None), (3, Some(56.0))];
        assert_eq!(spread(&cubes, 4), vec![3, 1, 0, 4]);
        assert_eq!(spread(&cubes, 2), vec![1, 4]);
    }

    #[test]
    fn a_cube_left_takes_the_time_of_the_searched_cubes_nearest_in_bound() {
        assert_eq!(NEAREST, 3);
        // Low bounds take long, high bounds little.
        let searched = [(56.0, 400.0), (56.1, 200.0), (56.2, 300.0), (60.0, 2.0), (60.1, 4.0), (60.2, 6.0)];
        let low = project(&searched, &[Some(56.05)]).unwrap();
        assert!((low - 300.0).abs() < 1e-9, "{low}");
        let high = project(&searched, &[Some(60.5)]).unwrap();
        assert!((high - 4.0).abs() < 1e-9, "{high}");
        let both = project(&searched, &[Some(56.05), Some(60.5), Some(59.9)]).unwrap();
        assert!((both - 308.0).abs() < 1e-9, "{both}");
        // Fewer searched cubes than NEAREST: the mean of them all.
        let two = project(&searched[..2], &[Some(58.0)]).unwrap();
        assert!((two - 300.0).abs() < 1e-9, "{two}");
        // Nothing left: nothing to do.
        assert_eq!(project(&searched, &[]), Some(0.0));
    }

    #[test]
    fn no_projection_without_a_searched_cube_or_a_bound() {
        assert_eq!(project(&[], &[Some(56.0)]), None);
        assert_eq!(project(&[(56.0, 10.0)], &[Some(56.0), None]), None);
    }
}

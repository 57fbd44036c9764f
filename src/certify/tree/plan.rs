//! The order in which a node's orbital fixings are stated, and how: each emptied square by one
//! `red` step where a witness fits, by a replay of the candidate's child where none does, with
//! as few replays as there can be.
//!
//! A `red` step for the image `o` needs a symmetry `σ` that keeps the node's decisions, maps
//! `o` onto a square already emptied (`done`), and maps every square emptied by `red` at this
//! node (`core`) into `done` too. Which images are possible depends on the order: stating the
//! images of a quarter turn one after the other, each by the inverse turn, leaves nothing to
//! replay in an orbit of four, where taking them as they come may replay one; in an orbit of
//! eight, one replay (of the mirror image) lets every other image follow by `red`, where
//! taking them as they come replayed three. A replay costs the candidate's whole subtree, so
//! the plan is the one with the fewest, found by a breadth-first search over which images are
//! done and which of them by `red` (3⁷ states for the seven images of an orbit of eight).

use std::collections::{HashSet, VecDeque};

/// How one image is stated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Step {
    /// By `red`, with the symmetry of this index as the witness.
    Red { image: usize, witness: usize },
    /// By replaying the candidate's child renamed.
    Replay { image: usize },
}

/// Images beyond this many are planned as they come (no board group gives more than seven).
const MOST_PLANNED: usize = 8;

/// Where a symmetry sends an image: onto another image (by index), into the squares emptied
/// before this plan, or anywhere else.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Target {
    Image(usize),
    Done,
    Elsewhere,
}

/// The steps that state every square of `images` (none of them in `done`), given the squares
/// `done` already emptied at the node (its candidates among them) and those of them emptied
/// by `red` (`core`), with the symmetries `keeps` (indices into `perms`) that keep the node's
/// decisions: the fewest replays, in the order they must be written.
pub(super) fn plan(
    images: &[usize],
    done: &HashSet<usize>,
    core: &[usize],
    keeps: &[usize],
    perms: &[Vec<usize>],
) -> Vec<Step> {
    let n = images.len();
    let target = |s: usize, square: usize| {
        let image = perms[s][square];
        match images.iter().position(|&o| o == image) {
            Some(j) => Target::Image(j),
            None if done.contains(&image) => Target::Done,
            None => Target::Elsewhere,
        }
    };
    // For each symmetry: where it sends each image, and the images that must be done before
    // it can serve (those the earlier `red` squares of the node map onto); `None` if it never can.
    let mut witnesses = Vec::new();
    for &s in keeps {
        let mut needed = 0u32;
        let mut usable = true;
        for &c in core {
            match target(s, c) {
                Target::Done => {}
                Target::Image(j) => needed |= 1 << j,
                Target::Elsewhere => usable = false,
            }
        }
        if usable {
            witnesses.push((s, needed, (0..n).map(|i| target(s, images[i])).collect::<Vec<_>>()));
        }
    }
    let fits = |done: u32, core: u32, i: usize| {
        witnesses.iter().find_map(|(s, needed, targets)| {
            let lands = |t: Target| match t {
                Target::Done => true,
                Target::Image(j) => done & (1 << j) != 0,
                Target::Elsewhere => false,
            };
            let ok = needed & !done == 0
                && lands(targets[i])
                && (0..n).filter(|&x| core & (1 << x) != 0).all(|x| lands(targets[x]));
            ok.then_some(*s)
        })
    };
    if n > MOST_PLANNED {
        return as_they_come(n, images, fits);
    }
    // 0-1 breadth-first search over (done, core), core ⊆ done, indexed `done | core << n`.
    let full = (1u32 << n) - 1;
    let states = 1usize << (2 * n);
    let mut cost = vec![u32::MAX; states];
    let mut from: Vec<Option<(usize, Step)>> = vec![None; states];
    let mut queue = VecDeque::from([0usize]);
    cost[0] = 0;
    let mut goal = None;
    while let Some(state) = queue.pop_front() {
        let (d, c) = (state as u32 & full, (state >> n) as u32);
        if d == full {
            goal = Some(state);
            break;
        }
        for i in (0..n).filter(|&i| d & (1 << i) == 0) {
            let mut moves = vec![(d | 1 << i, c, 1, Step::Replay { image: images[i] })];
            if let Some(witness) = fits(d, c, i) {
                moves.push((d | 1 << i, c | 1 << i, 0, Step::Red { image: images[i], witness }));
            }
            for (nd, nc, extra, step) in moves {
                let next = nd as usize | (nc as usize) << n;
                let through = cost[state] + extra;
                if through < cost[next] {
                    cost[next] = through;
                    from[next] = Some((state, step));
                    if extra == 0 {
                        queue.push_front(next);
                    } else {
                        queue.push_back(next);
                    }
                }
            }
        }
    }
    let mut steps = Vec::with_capacity(n);
    let mut at = goal.unwrap_or(0);
    while let Some((before, step)) = from[at] {
        steps.push(step);
        at = before;
    }
    steps.reverse();
    steps
}

/// The images in their order, each by `red` where a witness fits.
fn as_they_come(n: usize, images: &[usize], fits: impl Fn(u32, u32, usize) -> Option<usize>) -> Vec<Step> {
    let (mut done, mut core) = (0u32, 0u32);
    let mut steps = Vec::with_capacity(n);
    while done != (1u32 << n) - 1 {
        let reach = (0..n).filter(|&i| done & (1 << i) == 0).find_map(|i| fits(done, core, i).map(|w| (i, w)));
        let step = match reach {
            Some((i, witness)) => {
                core |= 1 << i;
                done |= 1 << i;
                Step::Red { image: images[i], witness }
            }
            None => {
                let i = (0..n).find(|&i| done & (1 << i) == 0).unwrap_or(0);
                done |= 1 << i;
                Step::Replay { image: images[i] }
            }
        };
        steps.push(step);
    }
    steps
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A map of `(file, rank)` on a board of this side.
    type Square = fn(usize, usize, usize) -> (usize, usize);

    /// The dihedral group of a square `side × side` board acting on its squares (index
    /// `rank * side + file`), element 0 the identity.
    fn dihedral(side: usize) -> Vec<Vec<usize>> {
        let maps: [Square; 8] = [
            |f, r, _| (f, r),
            |f, r, s| (s - 1 - r, f),
            |f, r, s| (s - 1 - f, s - 1 - r),
            |f, r, s| (r, s - 1 - f),
            |f, r, s| (s - 1 - f, r),
            |f, r, s| (f, s - 1 - r),
            |f, r, _| (r, f),
            |f, r, s| (s - 1 - r, s - 1 - f),
        ];
        maps.iter()
            .map(|m| {
                (0..side * side)
                    .map(|v| {
                        let (f, r) = m(v % side, v / side, side);
                        r * side + f
                    })
                    .collect()
            })
            .collect()
    }

    /// Checks every `red` step of `steps` as VeriPB would need it, and returns the replays.
    fn replays(candidate: usize, steps: &[Step], perms: &[Vec<usize>]) -> usize {
        let mut done = HashSet::from([candidate]);
        let mut core = Vec::new();
        let mut replays = 0;
        for step in steps {
            match *step {
                Step::Red { image, witness } => {
                    let perm = &perms[witness];
                    assert!(done.contains(&perm[image]), "{image} is not sent into the done squares");
                    assert!(core.iter().all(|c: &usize| done.contains(&perm[*c])), "a red square is sent out");
                    core.push(image);
                    done.insert(image);
                }
                Step::Replay { image } => {
                    replays += 1;
                    done.insert(image);
                }
            }
        }
        replays
    }

    fn orbit(candidate: usize, perms: &[Vec<usize>]) -> Vec<usize> {
        let mut images: Vec<usize> = perms.iter().map(|p| p[candidate]).filter(|&v| v != candidate).collect();
        images.sort_unstable();
        images.dedup();
        images
    }

    #[test]
    fn an_orbit_of_eight_needs_one_replay_and_one_of_four_none() {
        let perms = dihedral(5);
        let keeps: Vec<usize> = (1..8).collect();
        // b1 (file 1, rank 0): an orbit of eight; c1 (the middle of an edge) and b2 (on a
        // diagonal): orbits of four.
        for (candidate, size, least) in [(1, 7, 1), (2, 3, 0), (6, 3, 0)] {
            let images = orbit(candidate, &perms);
            assert_eq!(images.len(), size);
            let steps = plan(&images, &HashSet::from([candidate]), &[], &keeps, &perms);
            let mut stated: Vec<usize> = steps
                .iter()
                .map(|s| match *s {
                    Step::Red { image, .. } | Step::Replay { image } => image,
                })
                .collect();
            stated.sort_unstable();
            assert_eq!(stated, images, "every image stated once");
            assert_eq!(replays(candidate, &steps, &perms), least, "candidate {candidate}");
        }
    }

    #[test]
    fn with_no_symmetry_every_image_is_replayed() {
        let perms = dihedral(4);
        let steps = plan(&[3, 12, 15], &HashSet::from([0]), &[], &[], &perms);
        assert_eq!(steps.len(), 3);
        assert!(steps.iter().all(|s| matches!(s, Step::Replay { .. })));
    }
}

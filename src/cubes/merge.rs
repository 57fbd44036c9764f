//! Reading a job directory's results back into one answer.

use std::path::Path;

use super::estimate;
use super::job::{read_text, CubeResult, Job, JobCubes, JobDir, JobError, OpenJob};
use crate::certify::read_solution;
use crate::driver::{Event, Knowledge, Outcome, Query, Solution, StepStats};
use crate::encodings::puzzle::tour::TourObjective;
use crate::encodings::puzzle::Puzzle;
use crate::family;

/// What the results of a job directory add up to.
#[derive(Debug)]
pub struct MergeReport {
    /// The job.
    pub job: Job,
    /// The puzzle.
    pub puzzle: Puzzle,
    /// The results of the cubes searched to the end, by index.
    pub searched: Vec<CubeResult>,
    /// Cubes whose search failed, with why.
    pub failed: Vec<(usize, String)>,
    /// Cubes with no result (or a result of another job).
    pub missing: Vec<usize>,
    /// Those of [`MergeReport::missing`] whose result file is of another job, or names
    /// another cube (copied in from elsewhere): not counted, and replaced when searched.
    pub foreign: Vec<usize>,
    /// The best solution found, its value, and the cube that found it (`None`: the split).
    pub best: Option<(usize, Solution, Option<usize>)>,
    /// A placement job with cubes left: the bound their split bounds prove on the objective
    /// (every placement better than the best found lies in a cube not yet searched, whose
    /// bound it cannot beat), if each of them has one.
    pub open_bound: Option<usize>,
    /// A placement job whose cubes state their shares of the tree: the share the split and
    /// the cubes searched closed together (1 once every cube is searched).
    pub closed: Option<f64>,
    /// A placement job with cubes left and some searched: the seconds the cubes left would
    /// take on one core, projected from the searched cubes nearest to each in split bound
    /// ([`estimate::project`]).
    pub left_seconds: Option<f64>,
    /// Several knights for the fewest time steps: every cube asked the best route's steps, so
    /// its moves are the fewest in as many steps (each cube that found a route that short
    /// took the fewest moves it holds). A cube asks no horizon another cube has announced, so
    /// this holds when the cubes that hold routes that short were searched before the others
    /// skipped it, or not at all.
    pub fewest_moves: bool,
}

impl MergeReport {
    /// Whether every cube was searched: the best solution is then optimal.
    pub fn complete(&self) -> bool {
        self.failed.is_empty() && self.missing.is_empty()
    }

    /// The cubes to search again: the missing and the failed, in order.
    pub fn to_redo(&self) -> Vec<usize> {
        let mut ids: Vec<usize> = self.missing.iter().copied().chain(self.failed.iter().map(|f| f.0)).collect();
        ids.sort_unstable();
        ids
    }

    /// The answer as a search's outcome: optimal once complete, else the best solution found
    /// with the bound of the cubes left ([`MergeReport::open_bound`]), if any.
    pub fn outcome(&self) -> Outcome {
        let minimise = self.puzzle.placement().is_none_or(|p| p.goal.minimises());
        let mut knowledge = if minimise { Knowledge::minimising() } else { Knowledge::maximising() };
        match &self.best {
            Some((value, solution, _)) => {
                knowledge.observe(&Event::Solution { value: *value, solution: solution.clone() });
                if self.complete() {
                    knowledge.observe(&Event::Bound(*value));
                }
                if let Some(bound) = self.open_bound {
                    knowledge.observe(&Event::Bound(bound));
                }
                if let (true, Solution::Route(route)) = (self.complete() && self.fewest_moves, solution) {
                    // What the cubes proved together, as the single search states it: no route
                    // of one move fewer in as many steps.
                    knowledge
                        .observe(&Event::Step(StepStats::proved_unsat(route.moves().saturating_sub(1), Query::Moves)));
                }
            }
            None if self.complete() && self.job.horizon.is_none() => {
                knowledge.observe(&Event::Infeasible("no placement satisfies the rules".to_string()));
            }
            None => {}
        }
        let seconds = self.job.split_seconds + self.searched.iter().map(|r| r.seconds).sum::<f64>();
        // An exchange with no route in any cube has none within the job's horizon.
        let exhausted = self.job.horizon.filter(|_| self.complete() && self.best.is_none());
        knowledge.outcome(std::time::Duration::from_secs_f64(seconds), exhausted)
    }
}

/// Reads every result of the job directory `dir`. Every solution in it (the split's and the
/// cubes') is checked again by the rules checker; a result of another job counts as missing.
pub fn merge(dir: &Path) -> Result<MergeReport, JobError> {
    let jobs = JobDir::at(dir);
    // The cubes must still be those the job's id names.
    let OpenJob { job, puzzle, cubes, .. } = jobs.open()?;
    let minimise = puzzle.placement().is_none_or(|p| p.goal.minimises());
    // The `steps` objective of several knights: the fewest moves among the fewest steps.
    let tie = |solution: &Solution| match (solution, &puzzle) {
        (Solution::Route(route), Puzzle::Tour(tour)) if tour.objective == TourObjective::Steps => route.moves(),
        _ => 0,
    };
    let better = |(a, x): (usize, &Solution), (b, y): (usize, &Solution)| {
        if minimise {
            (a, tie(x)) < (b, tie(y))
        } else {
            a > b
        }
    };
    let read = |path: &Path, text: &str, stated: usize| -> Result<Solution, JobError> {
        let malformed = |why: String| JobError::Malformed { path: path.to_path_buf(), why };
        let solution = read_solution(&puzzle, text).map_err(malformed)?;
        let (value, _) = family::of(&puzzle).replay(&solution).map_err(|why| malformed(format!("rejected: {why}")))?;
        if value != stated {
            return Err(malformed(format!("the solution's value is {value}, not the {stated} stated")));
        }
        Ok(solution)
    };
    let mut best = None;
    if let Some(value) = job.incumbent_value {
        let path = jobs.file("best.txt");
        best = Some((value, read(&path, &read_text(&path)?, value)?, None));
    }
    let (mut searched, mut failed, mut missing, mut foreign) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for id in 0..job.cubes {
        let Some(result) = jobs.result(id)? else {
            missing.push(id);
            continue;
        };
        if !result.is_of(&job.id, id) {
            missing.push(id);
            foreign.push(id);
            continue;
        }
        if let Some(error) = &result.error {
            failed.push((id, error.clone()));
            continue;
        }
        if let (Some(value), Some(text)) = (result.value, &result.solution) {
            let solution = read(&jobs.result_path(id), text, value)?;
            if best.as_ref().is_none_or(|b: &(usize, Solution, Option<usize>)| better((value, &solution), (b.0, &b.1)))
            {
                best = Some((value, solution, Some(id)));
            }
        }
        searched.push(result);
    }
    if let Some(horizon) = job.horizon {
        // A cube stopped short of the job's horizon once a route as short as its next horizon
        // was announced: its refutation must reach one move below the shortest route merged.
        let needed = best.as_ref().map_or(horizon, |b: &(usize, Solution, Option<usize>)| b.0.saturating_sub(1));
        let (short, whole): (Vec<CubeResult>, Vec<CubeResult>) = searched.into_iter().partition(|r| {
            r.value.is_none() && needed >= job.depth && r.refuted_to.is_none_or(|refuted| refuted < needed)
        });
        for result in short {
            let to = result.refuted_to.map_or("no horizon".to_string(), |r| format!("up to {r} moves"));
            failed.push((result.cube, format!("refuted {to}, short of the {needed} the answer needs")));
        }
        failed.sort_unstable_by_key(|f| f.0);
        searched = whole;
    }
    let several_by_steps =
        matches!(&puzzle, Puzzle::Tour(tour) if tour.objective == TourObjective::Steps && tour.knights.len() > 1);
    let fewest_moves = several_by_steps
        && best.as_ref().is_some_and(|(steps, _, _)| {
            searched.iter().all(|r| r.value == Some(*steps) || r.refuted_to.is_some_and(|to| to >= *steps))
        });
    let mut report = MergeReport {
        job,
        puzzle,
        searched,
        failed,
        missing,
        foreign,
        best,
        open_bound: None,
        closed: None,
        left_seconds: None,
        fewest_moves,
    };
    if let JobCubes::Placement(placement_cubes) = &cubes {
        let bounds: Vec<Option<f64>> = report.to_redo().into_iter().map(|id| cubes.bound(id)).collect();
        if !bounds.is_empty() {
            report.open_bound = open_bound(bounds.iter().copied(), report.best.as_ref().map(|b| b.0), minimise);
            let searched: Vec<(f64, f64)> =
                report.searched.iter().filter_map(|r| cubes.bound(r.cube).map(|bound| (bound, r.seconds))).collect();
            report.left_seconds = estimate::project(&searched, &bounds);
        }
        let open: Option<f64> = report.to_redo().iter().map(|&id| placement_cubes.get(id).and_then(|c| c.share)).sum();
        report.closed =
            open.map(|open| (1.0 - open).clamp(0.0, 1.0)).filter(|_| placement_cubes.iter().all(|c| c.share.is_some()));
    }
    Ok(report)
}

/// The bound on a placement's value that cubes not yet searched leave, from their split
/// bounds on the cost (`None` for a cube without one; a maximisation's cost is its value
/// negated) and the best value found: a better placement lies in one of them, and costs at
/// least its bound.
fn open_bound(bounds: impl Iterator<Item = Option<f64>>, best: Option<usize>, minimise: bool) -> Option<usize> {
    let mut least = f64::INFINITY;
    for bound in bounds {
        least = least.min(bound?);
    }
    if !least.is_finite() {
        return None;
    }
    let cost = (least - 1e-6).ceil() as i64;
    let value = (if minimise { cost } else { -cost }).max(0) as usize;
    Some(match best {
        Some(best) if minimise => value.min(best),
        Some(best) => value.max(best),
        None => value,
    })
}

#[cfg(test)]
mod tests {
    use super::open_bound;

    #[test]
    fn the_cubes_left_bound_the_objective_by_their_least_bound() {
        // Minimising: the least bound rounds up, and never passes the best known.
        assert_eq!(open_bound([Some(53.2), Some(54.9)].into_iter(), Some(57), true), Some(54));
        assert_eq!(open_bound([Some(56.0000001), Some(58.5)].into_iter(), Some(57), true), Some(56));
        assert_eq!(open_bound([Some(58.5)].into_iter(), Some(57), true), Some(57));
        // Maximising: the cost is the value negated, so -35.5 leaves at most 35.
        assert_eq!(open_bound([Some(-35.5), Some(-34.0)].into_iter(), Some(30), false), Some(35));
        assert_eq!(open_bound([Some(-29.5)].into_iter(), Some(30), false), Some(30));
        // A cube without a relaxation bound proves nothing.
        assert_eq!(open_bound([Some(53.2), None].into_iter(), Some(57), true), None);
    }
}

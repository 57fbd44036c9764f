//! Cube and conquer through a job directory, for many cores and many machines.
//!
//! [`split_into`] searches a placement's branch-and-bound tree to a depth and writes the open
//! nodes there as cubes into a directory (an exchange: the positions it reaches in exactly a
//! number of moves, [`split_exchange`]; a tour: the paths of its knights' first steps,
//! [`split_tour`]), with a Slurm job array that solves one cube per
//! task; [`solve_cube_in`] solves one cube of such a directory and writes its result
//! atomically; [`merge()`] reads the results back: the optimum with its proof (every cube
//! searched), or the cubes still missing, with the time the cubes left would take
//! ([`estimate`], from the cubes searched so far). The directory needs nothing but the `knights-sat`
//! binary to run: Slurm, a shell loop or `knights-sat cube DIR --all` solve it alike.
//!
//! ```text
//! DIR/puzzle.toml          the puzzle
//! DIR/job.json             the split: its id, cube count, depth and best cost so far
//! DIR/best.txt             the best solution the split found (a solution file)
//! DIR/cubes.json           the cubes, in the order of the job array's indices
//! DIR/cuts.json            the cuts the split added at the root, for every cube's search
//!                          (a placement's; an exchange's is empty)
//! DIR/pseudocosts.json     what a placement split's branching measured, which the cubes'
//!                          searches start from
//! DIR/run.sbatch           the job array: `sbatch DIR/run.sbatch`
//! DIR/results/cube-N.json  what cube N's search found, written by renaming a finished file
//! DIR/results/cube-N.open.json
//!                          a placement's cube N whose search was stopped: the nodes it
//!                          left open, from which the next search of the cube goes on
//! DIR/logs/                the array tasks' output
//! DIR/found/V-cube-N       an exchange's or a tour's cube N found a route of V moves
//!                          (an empty file): the other cubes ask no horizon from V on
//! DIR/tree.json            a certified placement's split (`split --certify`): its
//!                          branch-and-bound tree
//! DIR/proofs/cube-N/       a certified exchange's or tour's cube N: its part of the
//!                          certificate, the refutation of what it refuted
//! DIR/certificate/         a certified job's certificate, written by the merge
//! ```

mod certify;
pub mod estimate;
mod exchange;
mod job;
mod merge;
mod sbatch;
mod solve;
mod tour;

pub use certify::{certify_job, JobCertificate, CERTIFICATE_DIR};
pub use exchange::{solve_position_cube, split_exchange, ExchangeSplit, PositionCube};
pub use job::{CubeProgress, CubeResult, Job, JobCubes, JobDir, JobError, OpenJob, PSEUDOCOSTS};
pub use merge::{merge, MergeReport};
pub use sbatch::follow_move;
pub use solve::{solve_cube_in, split_into, CubeRun, SplitRequest};
pub use tour::{solve_path_cube, split_tour, tour_splittable, PathCube, TourSplit};

/// The array indices `ids` as Slurm writes them: `0-3,7,9-10`.
pub fn array_ranges(ids: &[usize]) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut i = 0;
    while i < ids.len() {
        let start = ids[i];
        let mut end = start;
        while i + 1 < ids.len() && ids[i + 1] == end + 1 {
            i += 1;
            end += 1;
        }
        parts.push(if start == end { start.to_string() } else { format!("{start}-{end}") });
        i += 1;
    }
    parts.join(",")
}

#[cfg(test)]
mod tests {
    use super::array_ranges;

    #[test]
    fn array_ranges_join_runs_of_indices() {
        assert_eq!(array_ranges(&[]), "");
        assert_eq!(array_ranges(&[4]), "4");
        assert_eq!(array_ranges(&[0, 1, 2, 3, 7, 9, 10]), "0-3,7,9-10");
    }
}

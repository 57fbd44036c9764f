//! Writing a job directory from a split, and solving one of its cubes.

use std::fs;
use std::path::Path;
use std::time::Instant;

use super::exchange::{solve_position_cube, split_exchange};
use super::job::{digest, json_lines, write_atomically, CubeResult, Job, JobCubes, JobDir, JobError, OpenJob, FORMAT};
use super::sbatch::script;
use crate::certify::write_solution;
use crate::driver::{self, Event, Ingredients, Solution};
use crate::encodings::puzzle::placement::PlacementPuzzle;
use crate::encodings::puzzle::{self, ExchangePuzzle, Puzzle};

/// What a split asks for besides the puzzle.
#[derive(Clone, Copy, Debug)]
pub struct SplitRequest<'a> {
    /// At least this many cubes.
    pub wanted: usize,
    /// Threads for the split's own search.
    pub threads: usize,
    /// An exchange: the most moves the cubes search.
    pub max_horizon: Option<usize>,
    /// The `knights-sat` that the job array runs.
    pub binary: &'a Path,
}

/// Splits `puzzle` into at least `request.wanted` cubes and writes the job directory `dir`
/// (which must not exist, or be empty). The split's solutions and progress go to `emit` as a
/// search's do.
pub fn split_into(
    puzzle: &Puzzle,
    source: &str,
    dir: &Path,
    request: SplitRequest,
    emit: &mut dyn FnMut(&Event),
) -> Result<Job, JobError> {
    let kind = splittable(puzzle, request.max_horizon)?;
    let occupied = fs::read_dir(dir).map(|mut entries| entries.next().is_some()).unwrap_or(false);
    if occupied {
        return Err(JobError::Refused(format!(
            "{} exists and is not empty; choose another directory or remove it",
            dir.display()
        )));
    }
    for sub in ["", "results", "logs"] {
        let path = dir.join(sub);
        fs::create_dir_all(&path).map_err(|source| JobError::Io { path, source })?;
    }
    let started = Instant::now();
    let mut best: Option<(usize, Solution)> = None;
    let mut keep = |event: &Event| {
        if let Event::Solution { value, solution } = event {
            best = Some((*value, solution.clone()));
        }
        emit(event);
    };
    let (cubes_text, count, cuts_text, depth, incumbent_cost, description) = match kind {
        Splittable::Placement(placement) => {
            let split =
                driver::split(placement, Ingredients::default(), request.threads, request.wanted, &mut |e| keep(&e))?;
            let board = &placement.board;
            let kinds: String = placement.kinds.iter().map(|r| r.kind.letter()).collect();
            let description = format!("{} of {}x{} by {kinds}", placement.goal, board.width(), board.height());
            let cubes = json_lines(&split.cubes);
            (cubes, split.cubes.len(), json_lines(&split.cuts), split.depth, split.incumbent_cost, description)
        }
        Splittable::Exchange(exchange, horizon) => {
            let split = split_exchange(exchange, request.wanted, horizon, &mut keep)?;
            let board = &exchange.board;
            let description = format!("exchange on {}x{} in at most {horizon} moves", board.width(), board.height());
            (json_lines(&split.cubes), split.cubes.len(), json_lines::<()>(&[]), split.depth, None, description)
        }
    };
    let jobs = JobDir::at(dir);
    let puzzle_text = puzzle::to_toml(puzzle);
    let job = Job {
        format: FORMAT,
        id: digest(&[&puzzle_text, &cubes_text, &cuts_text]),
        source: source.to_string(),
        cubes: count,
        depth,
        symmetry: matches!(kind, Splittable::Placement(_)),
        incumbent_cost,
        incumbent_value: best.as_ref().map(|b| b.0),
        horizon: request.max_horizon.filter(|_| matches!(kind, Splittable::Exchange(..))),
        split_seconds: started.elapsed().as_secs_f64(),
    };
    write_atomically(&jobs.file("puzzle.toml"), &puzzle_text)?;
    write_atomically(&jobs.file("cubes.json"), &cubes_text)?;
    write_atomically(&jobs.file("cuts.json"), &cuts_text)?;
    if let Some((value, solution)) = &best {
        write_atomically(&jobs.file("best.txt"), &write_solution(puzzle, solution, *value))?;
    }
    let root = fs::canonicalize(dir).map_err(|source| JobError::Io { path: dir.to_path_buf(), source })?;
    write_atomically(&jobs.file("run.sbatch"), &script(&root, request.binary, &job, &description))?;
    // Last: a directory with job.json is a whole split.
    let text = serde_json::to_string_pretty(&job).expect("the job serialises");
    write_atomically(&jobs.file("job.json"), &(text + "\n"))?;
    Ok(job)
}

/// A puzzle whose hard question can be split.
#[derive(Clone, Copy)]
enum Splittable<'a> {
    /// A placement with a branch-and-bound tree.
    Placement(&'a PlacementPuzzle),
    /// An exchange, searched up to a horizon.
    Exchange(&'a ExchangePuzzle, usize),
}

/// How `puzzle` is split, or why it cannot be.
fn splittable(puzzle: &Puzzle, max_horizon: Option<usize>) -> Result<Splittable<'_>, JobError> {
    match puzzle {
        Puzzle::Placement(placement) if driver::placement_has_tree(placement) => Ok(Splittable::Placement(placement)),
        Puzzle::Placement(_) => Err(JobError::Refused(
            "this placement has no linear model (pieces that block lines), so no tree to split".into(),
        )),
        Puzzle::Exchange(exchange) => match max_horizon {
            Some(horizon) => Ok(Splittable::Exchange(exchange, horizon)),
            None => Err(JobError::Refused(
                "an exchange is split up to a number of moves: give --horizon H, the most moves the cubes \
                 search (the length of a known solution, from `knights-sat solve --timeout` for instance)"
                    .into(),
            )),
        },
        Puzzle::Tour(_) => Err(JobError::Refused(
            "cubes split a placement's tree or an exchange's horizons; a tour cannot be split yet".into(),
        )),
    }
}

/// What [`solve_cube_in`] did.
#[derive(Clone, Debug)]
pub enum CubeRun {
    /// The cube was searched now.
    Searched(CubeResult),
    /// The cube had a result already (not searched again).
    Done(CubeResult),
}

/// Searches cube `id` of the job `open` on `threads` threads and writes its result, unless
/// it has one already (or `again`). A search that fails writes a result saying why and
/// returns the error.
pub fn solve_cube_in(
    open: &OpenJob,
    id: usize,
    threads: usize,
    again: bool,
    emit: &mut dyn FnMut(&Event),
) -> Result<CubeRun, JobError> {
    let OpenJob { dir: jobs, job, puzzle, cubes, cuts } = open;
    if id >= job.cubes {
        return Err(JobError::Refused(format!(
            "{}: there is no cube {id}: the job has {} (0 to {})",
            jobs.root.display(),
            job.cubes,
            job.cubes.saturating_sub(1)
        )));
    }
    if !again {
        if let Some(result) = jobs.result(id)?.filter(|r| r.job == job.id && r.error.is_none()) {
            return Ok(CubeRun::Done(result));
        }
    }
    let started = Instant::now();
    let mut best: Option<(usize, Solution)> = None;
    let mut calls = 0;
    let mut keep = |event: &Event| {
        match event {
            Event::Solution { value, solution } => best = Some((*value, solution.clone())),
            Event::Step(_) => calls += 1,
            _ => {}
        }
        emit(event);
    };
    let searched = match (cubes, puzzle) {
        (JobCubes::Placement(cubes), Puzzle::Placement(placement)) => {
            let ingredients = Ingredients { symmetry: job.symmetry, ..Ingredients::default() };
            let cube = (&cubes[id], Some(&cuts[..]));
            driver::solve_cube(placement, ingredients, threads, cube, job.incumbent_cost, &mut |e| keep(&e))
                .map(|stats| stats.nodes)
                .map_err(JobError::from)
        }
        (JobCubes::Exchange(cubes), Puzzle::Exchange(exchange)) => {
            let horizon = job.horizon.ok_or_else(|| JobError::Malformed {
                path: jobs.file("job.json"),
                why: "an exchange's job names no horizon".into(),
            })?;
            let position = cubes[id].position(exchange).map_err(|why| JobError::Malformed {
                path: jobs.file("cubes.json"),
                why: format!("cube {id}: {why}"),
            })?;
            solve_position_cube(exchange, &position, job.depth, horizon, &mut keep)
                .map(|moves| {
                    if let Some(moves) = moves {
                        keep(&Event::Solution { value: moves.len(), solution: Solution::Moves(moves) });
                    }
                    0
                })
                .map_err(JobError::from)
        }
        _ => return Err(JobError::Refused("the job's cubes are not of its puzzle's family".into())),
    };
    let exchange = matches!(cubes, JobCubes::Exchange(_));
    let searched = searched.map(|nodes| if exchange { calls } else { nodes });
    let mut result = CubeResult {
        job: job.id.clone(),
        cube: id,
        seconds: started.elapsed().as_secs_f64(),
        nodes: 0,
        value: None,
        solution: None,
        error: None,
    };
    match searched {
        Ok(nodes) => {
            result.nodes = nodes;
            if let Some((value, solution)) = best {
                result.value = Some(value);
                result.solution = Some(write_solution(puzzle, &solution, value));
            }
            jobs.write_result(&result)?;
            Ok(CubeRun::Searched(result))
        }
        Err(error) => {
            result.error = Some(error.to_string());
            jobs.write_result(&result)?;
            Err(error)
        }
    }
}

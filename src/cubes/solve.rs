//! Writing a job directory from a split, and solving one of its cubes.

use std::fs;
use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Instant;

use super::exchange::{solve_position_cube, split_exchange};
use super::job::{
    digest, json_lines, write_atomically, CubeProgress, CubeResult, CubeTree, Job, JobCubes, JobDir, JobError, OpenJob,
    FORMAT, PSEUDOCOSTS,
};
use super::sbatch::script;
use super::tour::{solve_path_cube, split_tour, tour_splittable};
use crate::certify::split::{prove_cube, CubeClaim};
use crate::certify::{write_solution, ProofCompression};
use crate::driver::{self, Event, Ingredients, PlacementCubeSearch, Solution};
use crate::encodings::puzzle::placement::PlacementPuzzle;
use crate::encodings::puzzle::tour::{TourObjective, TourPuzzle};
use crate::encodings::puzzle::{self, ExchangePuzzle, Puzzle};

/// What a split asks for besides the puzzle.
#[derive(Clone, Copy, Debug)]
pub struct SplitRequest<'a> {
    /// At least this many cubes.
    pub wanted: usize,
    /// Threads for the split's own search.
    pub threads: usize,
    /// An exchange or a tour: the most moves the cubes search.
    pub max_horizon: Option<usize>,
    /// The `knights-sat` that the job array runs.
    pub binary: &'a Path,
    /// Certify the job: a placement records the split's tree and the cubes'; an exchange's or a
    /// tour's cubes each write the refutation of their cube. The merge then certifies.
    pub certify: bool,
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
    let mut tree_text = None;
    let mut pseudocosts_text = None;
    let (cubes_text, count, cuts_text, depth, incumbent_cost, description) = match kind {
        Splittable::Placement(placement) => {
            let ingredients = Ingredients { certify: request.certify, ..Ingredients::default() };
            let split = driver::split(placement, ingredients, request.threads, request.wanted, &mut |e| keep(&e))?;
            tree_text = split.tree.as_ref().map(|tree| serde_json::to_string(tree).expect("the tree serialises"));
            pseudocosts_text = Some(serde_json::to_string(&split.pseudocosts).expect("the pseudocosts serialise"));
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
        Splittable::Tour(tour, horizon) => {
            let split = split_tour(tour, request.wanted, horizon, &mut keep)?;
            let board = &tour.board;
            let unit = if tour.objective == TourObjective::Steps { "time steps" } else { "moves" };
            let description = format!("tour on {}x{} in at most {horizon} {unit}", board.width(), board.height());
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
        horizon: request.max_horizon.filter(|_| !matches!(kind, Splittable::Placement(_))),
        split_seconds: started.elapsed().as_secs_f64(),
        // A placement's certificate is its tree; an exchange's or a tour's, its cubes' parts.
        certify: tree_text.is_some() || (request.certify && !matches!(kind, Splittable::Placement(_))),
    };
    if let Some(text) = &tree_text {
        write_atomically(&jobs.file("tree.json"), &(text.clone() + "\n"))?;
    }
    write_atomically(&jobs.file("puzzle.toml"), &puzzle_text)?;
    write_atomically(&jobs.file("cubes.json"), &cubes_text)?;
    write_atomically(&jobs.file("cuts.json"), &cuts_text)?;
    if let Some(text) = &pseudocosts_text {
        write_atomically(&jobs.file(PSEUDOCOSTS), &(text.clone() + "\n"))?;
    }
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
    /// A tour in any order, searched up to a horizon.
    Tour(&'a TourPuzzle, usize),
}

/// How `puzzle` is split, or why it cannot be.
fn splittable(puzzle: &Puzzle, max_horizon: Option<usize>) -> Result<Splittable<'_>, JobError> {
    match puzzle {
        Puzzle::Placement(placement) if driver::placement_has_tree(placement) => Ok(Splittable::Placement(placement)),
        Puzzle::Placement(_) => Err(JobError::Refused(
            "this placement has no linear model (pieces that block lines), so no tree to split".into(),
        )),
        Puzzle::Exchange(exchange) => Ok(Splittable::Exchange(exchange, horizon(max_horizon)?)),
        Puzzle::Tour(tour) => {
            tour_splittable(tour).map_err(JobError::Refused)?;
            Ok(Splittable::Tour(tour, horizon(max_horizon)?))
        }
    }
}

/// The most moves the cubes of an exchange or a tour search, which the user gives.
fn horizon(max_horizon: Option<usize>) -> Result<usize, JobError> {
    max_horizon.ok_or_else(|| {
        JobError::Refused(
            "an exchange or a tour is split up to a number of moves: give --horizon H, the most moves the \
             cubes search (the length of a known solution, from `knights-sat solve --timeout` for instance)"
                .into(),
        )
    })
}

/// What [`solve_cube_in`] did.
#[derive(Clone, Debug)]
pub enum CubeRun {
    /// The cube was searched now.
    Searched(CubeResult),
    /// The cube had a result already (not searched again).
    Done(CubeResult),
    /// A placement's cube was stopped: how far its searches came, written for the next.
    Stopped(CubeProgress),
}

/// Searches cube `id` of the job `open` on `threads` threads and writes its result, unless
/// it has one already (or `again`). A search that fails writes a result saying why and
/// returns the error.
///
/// A placement's cube whose searches were stopped before goes on from the nodes they left
/// open (unless `again`), even beside an earlier result (their search was started again).
/// Once `stop` is set, the search of a placement's cube of a job that is not certified stops
/// at its next nodes and writes those it left open ([`CubeProgress`]); other searches do not
/// watch it.
pub fn solve_cube_in(
    open: &OpenJob,
    id: usize,
    threads: usize,
    (again, stop): (bool, Option<&Arc<AtomicBool>>),
    emit: &mut dyn FnMut(&Event),
) -> Result<CubeRun, JobError> {
    let OpenJob { dir: jobs, job, puzzle, cubes, cuts } = open;
    if id >= job.cubes {
        let root = jobs.root.display();
        let why = match job.cubes {
            0 => format!("the split decided the puzzle by itself (`knights-sat merge {root}` gives the answer)"),
            n => format!("the job has {n} (0 to {})", n - 1),
        };
        return Err(JobError::Refused(format!("{root}: there is no cube {id}: {why}")));
    }
    if !again {
        if let Some(result) = jobs.result(id)?.filter(|r| r.is_of(&job.id, id) && r.error.is_none()) {
            // Beside a result, a stopped search's record is that of a search started again
            // (`again`) and stopped part way: it goes on.
            if jobs.progress(id).ok().flatten().is_none_or(|p| p.job != job.id) {
                return Ok(CubeRun::Done(result));
            }
        }
    }
    let started = Instant::now();
    let mut best: Option<(usize, Solution)> = None;
    let mut earlier: Option<(usize, String)> = None;
    let mut calls = 0;
    let mut tree = None;
    let mut keep = |event: &Event| {
        match event {
            Event::Solution { value, solution } => best = Some((*value, solution.clone())),
            Event::Step(_) => calls += 1,
            Event::TreeProof(logged) => {
                let (combinations, orbits, leaves) =
                    (logged.combinations.clone(), logged.orbits.clone(), logged.leaves.clone());
                tree = Some(CubeTree { combinations, orbits, leaves });
            }
            _ => {}
        }
        emit(event);
    };
    // A horizon cube asks no horizon that another cube's route already matches or beats. (With
    // several knights for the fewest steps, asking the one it matches too would let the merge
    // state the fewest moves, but that call is the hard one: knights around the queen on d5 in
    // 22 steps took 338 s in all where the cubes that skip it take 3 s.)
    let worth_asking = |horizon: usize| jobs.shortest_found(id).is_none_or(|shortest| horizon < shortest);
    let malformed =
        |why: String| JobError::Malformed { path: jobs.file("cubes.json"), why: format!("cube {id}: {why}") };
    let no_horizon = || JobError::Malformed { path: jobs.file("job.json"), why: "the job names no horizon".into() };
    let mut refuted_to = None;
    let mut before: Option<CubeProgress> = None;
    let searched = match (cubes, puzzle) {
        (JobCubes::Placement(cubes), Puzzle::Placement(placement)) => {
            let ingredients = Ingredients { symmetry: job.symmetry, certify: job.certify, ..Ingredients::default() };
            if again {
                jobs.forget_progress(id)?;
            }
            before = jobs.progress(id)?.filter(|p| p.job == job.id && !job.certify);
            let whole = std::slice::from_ref(&cubes[id]);
            let subtrees = before.as_ref().map_or(whole, |p| &p.open[..]);
            let incumbent = match (job.incumbent_cost, before.as_ref().and_then(|p| p.incumbent_cost)) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            };
            let stop = stop.filter(|_| !job.certify).cloned();
            // Branching starts from what the last search of the cube measured, or the split.
            let (seeds, seeds_path) = match before.as_ref().and_then(|p| p.pseudocosts.clone()) {
                Some(table) => (Some(table), jobs.progress_path(id)),
                None => (jobs.pseudocosts()?, jobs.file(PSEUDOCOSTS)),
            };
            let search = driver::solve_cube(
                placement,
                ingredients,
                threads,
                (subtrees, Some(&cuts[..])),
                (incumbent, seeds.as_ref()),
                stop,
                &mut |e| keep(&e),
            );
            match search {
                Ok(search) if !search.open.is_empty() => {
                    let progress = stopped(open, id, (before, &search), started.elapsed().as_secs_f64(), best.take())?;
                    return Ok(CubeRun::Stopped(progress));
                }
                Ok(search) => Ok(search.stats.nodes),
                // Pseudocosts of another program, or open nodes that name what the puzzle
                // has not: the file, not the search.
                Err(crate::Error::Unsupported(why))
                    if seeds.is_some() && why.starts_with(driver::PSEUDOCOSTS_REFUSED) =>
                {
                    Err(JobError::Malformed { path: seeds_path, why })
                }
                Err(crate::Error::Unsupported(why)) if before.is_some() => Err(JobError::Malformed {
                    path: jobs.progress_path(id),
                    why: format!("{why} (`cube --again` searches the cube from its start)"),
                }),
                Err(error) => Err(JobError::from(error)),
            }
        }
        (JobCubes::Exchange(cubes), Puzzle::Exchange(exchange)) => {
            let position = cubes[id].position(exchange).map_err(malformed)?;
            let horizon = job.horizon.ok_or_else(no_horizon)?;
            solve_position_cube(exchange, (job.depth, &position), horizon, &worth_asking, &mut keep)
                .map(|searched| {
                    refuted_to = searched.refuted_to;
                    if let Some(moves) = searched.found {
                        keep(&Event::Solution { value: moves.len(), solution: Solution::Moves(moves) });
                    }
                })
                .map_err(JobError::from)
                .map(|()| 0)
        }
        (JobCubes::Tour(cubes), Puzzle::Tour(tour)) => {
            let path = cubes[id].squares(tour).map_err(malformed)?;
            let horizon = job.horizon.ok_or_else(no_horizon)?;
            solve_path_cube(tour, &path, horizon, &worth_asking, &mut keep)
                .map(|searched| {
                    refuted_to = searched.refuted_to;
                    if let Some(route) = searched.found {
                        let value = route.value(tour.objective);
                        keep(&Event::Solution { value, solution: Solution::Route(route) });
                    }
                })
                .map_err(JobError::from)
                .map(|()| 0)
        }
        _ => return Err(JobError::Refused("the job's cubes are not of its puzzle's family".into())),
    };
    let horizons = !matches!(cubes, JobCubes::Placement(_));
    let searched = searched.map(|nodes| if horizons { calls } else { nodes });
    let mut seconds = started.elapsed().as_secs_f64();
    // A cube whose searches were stopped before: their time, nodes and best placement count.
    let mut earlier_nodes = 0;
    if let Some(progress) = &before {
        seconds += progress.seconds;
        earlier_nodes = progress.nodes;
        if best.is_none() {
            if let (Some(value), Some(text)) = (progress.value, &progress.solution) {
                earlier = Some((value, text.clone()));
            }
        }
    }
    // A certified exchange or tour: the cube's part of the certificate, of what it refuted.
    let mut proof_seconds = None;
    let searched = match (searched, refuted_to) {
        (Ok(nodes), Some(refuted)) if horizons && job.certify => {
            let proving = Instant::now();
            prove_route_cube(open, id, refuted).map(|()| {
                proof_seconds = Some(proving.elapsed().as_secs_f64());
                nodes
            })
        }
        (searched, _) => searched,
    };
    let mut result = CubeResult {
        job: job.id.clone(),
        cube: id,
        seconds,
        proof_seconds,
        nodes: 0,
        value: None,
        solution: None,
        refuted_to,
        error: None,
        tree: None,
    };
    match searched {
        Ok(nodes) => {
            result.nodes = nodes + earlier_nodes;
            result.tree = tree;
            if let Some((value, solution)) = best {
                result.value = Some(value);
                result.solution = Some(write_solution(puzzle, &solution, value));
            } else if let Some((value, text)) = earlier {
                result.value = Some(value);
                result.solution = Some(text);
            }
            jobs.write_result(&result)?;
            jobs.forget_progress(id)?;
            if let (true, Some(value)) = (horizons, result.value) {
                // After the result, so that a value announced is a value merged.
                jobs.announce_found(value, id)?;
            }
            Ok(CubeRun::Searched(result))
        }
        Err(error) => {
            result.error = Some(error.to_string());
            jobs.write_result(&result)?;
            Err(error)
        }
    }
}

/// Writes how far the searches of placement cube `id` came, the last one stopped after
/// `seconds` by `search` (with `best`, the placement it found if any), after those `before`.
fn stopped(
    open: &OpenJob,
    id: usize,
    (before, search): (Option<CubeProgress>, &PlacementCubeSearch),
    seconds: f64,
    best: Option<(usize, Solution)>,
) -> Result<CubeProgress, JobError> {
    let mut progress = before.unwrap_or(CubeProgress {
        job: open.job.id.clone(),
        cube: id,
        seconds: 0.0,
        nodes: 0,
        runs: 0,
        incumbent_cost: None,
        value: None,
        solution: None,
        open: Vec::new(),
        pseudocosts: None,
    });
    progress.seconds += seconds;
    progress.nodes += search.stats.nodes;
    progress.runs += 1;
    progress.open.clone_from(&search.open);
    progress.pseudocosts = Some(search.pseudocosts.clone());
    if let Some((value, solution)) = best {
        progress.incumbent_cost = search.incumbent_cost;
        progress.value = Some(value);
        progress.solution = Some(write_solution(&open.puzzle, &solution, value));
    }
    open.dir.write_progress(&progress)?;
    Ok(progress)
}

/// Writes the part of cube `id` of the certified exchange or tour job `open` into its
/// directory ([`JobDir::proof_dir`]): the proof that no route of at most `refuted` moves lies in
/// it. Written beside it and renamed into place, so a task killed on the way leaves none.
fn prove_route_cube(open: &OpenJob, id: usize, refuted: usize) -> Result<(), JobError> {
    let OpenJob { dir: jobs, job, puzzle, cubes, .. } = open;
    let malformed = |why| JobError::Malformed { path: jobs.file("cubes.json"), why: format!("cube {id}: {why}") };
    let cube = cubes.route_cube(id, puzzle).map_err(malformed)?;
    let horizon = job
        .horizon
        .ok_or_else(|| JobError::Malformed { path: jobs.file("job.json"), why: "the job names no horizon".into() })?;
    let place = jobs.proof_dir(id);
    let parent = place.parent().expect("a cube's part lies in the job directory").to_path_buf();
    let temporary = parent.join(format!(".cube-{id}.{}.tmp", std::process::id()));
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |source| JobError::Io { path, source }
    };
    if temporary.exists() {
        fs::remove_dir_all(&temporary).map_err(io(&temporary))?;
    }
    let claim = CubeClaim { cube, refuted };
    prove_cube(puzzle, (horizon, job.depth), &claim, &temporary, ProofCompression::Auto)
        .map_err(|e| JobError::Refused(format!("cube {id}'s part of the certificate: {e}")))?;
    if place.exists() {
        fs::remove_dir_all(&place).map_err(io(&place))?;
    }
    fs::rename(&temporary, &place).map_err(io(&place))
}

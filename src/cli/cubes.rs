//! `knights-sat split` and `cube`: cube and conquer through a job directory (`merge` adds up
//! its results).

use std::io::Write as _;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use knights_sat::cubes::{self, estimate, CubeRun, JobDir, SplitRequest};
use knights_sat::driver::{default_threads, Event, MAX_HORIZON};
use knights_sat::encodings::puzzle;
use knights_sat::family;

use super::args::{CubeArgs, SplitArgs};
use super::cube_threads::CubeThreads;
use super::progress::{count, Group, Progress, Shown};
use super::{CliError, Exit};

/// The most cubes `split` is asked for: the split keeps every open node in memory, and a
/// job array of more is sliced anyway (Slurm's MaxArraySize).
const MAX_CUBES: usize = 1_000_000;

/// Splits a puzzle into a job directory and says how to run it.
pub fn split(args: SplitArgs) -> Result<Exit, CliError> {
    if !(1..=MAX_CUBES).contains(&args.cubes) {
        return Err(CliError::Usage(format!("--cubes {}: ask for 1 to {MAX_CUBES} cubes", args.cubes)));
    }
    if let Some(horizon) = args.horizon.filter(|&h| h == 0 || h > MAX_HORIZON) {
        return Err(CliError::Usage(format!("--horizon {horizon}: give 1 to {MAX_HORIZON} moves")));
    }
    let threads = threads(args.threads)?;
    let puzzle = puzzle::load(&args.puzzle)?;
    if args.horizon.is_some() && puzzle.placement().is_some() {
        let why = format!("--horizon is for exchanges and tours; {} is a placement", args.puzzle.display());
        return Err(CliError::Usage(why));
    }
    let binary = std::env::current_exe()?;
    let progress = Progress::new(Shown::new(args.quiet, args.lines.progress_every)?, family::of(&puzzle).step_unit());
    let source = args.puzzle.display().to_string();
    let request =
        SplitRequest { wanted: args.cubes, threads, max_horizon: args.horizon, binary: &binary, certify: args.certify };
    let job = cubes::split_into(&puzzle, &source, &args.out, request, &mut |event| progress.observe(event));
    progress.finish();
    let job = job?;
    let dir = args.out.display();
    let mut out = std::io::stdout().lock();
    let best = job.incumbent_value.map_or("none".to_string(), |v| v.to_string());
    writeln!(
        out,
        "{dir}: {} cubes at depth {}, split in {:.2} s; best solution so far: {best}",
        job.cubes, job.depth, job.split_seconds
    )?;
    if job.cubes == 0 {
        writeln!(out, "the split decided the puzzle by itself: `knights-sat merge {dir}` gives the answer")?;
    } else {
        writeln!(out, "run:   sbatch {dir}/run.sbatch          (a Slurm job array, one task per cube)")?;
        writeln!(out, "   or: knights-sat cube {dir} --all    (here, one cube per core)")?;
        writeln!(out, "then:  knights-sat merge {dir}")?;
    }
    Ok(Exit::Solved)
}

/// Searches the cubes asked for, one thread each when several (the threads of the cubes
/// done join the last ones: [`CubeThreads`]), and reports each.
pub fn cube(args: CubeArgs) -> Result<Exit, CliError> {
    let open = JobDir::at(&args.dir).open()?;
    let job = &open.job;
    // The cubes left, lowest split bound first (for a placement): the heaviest start first.
    let left = || -> Result<Vec<(usize, Option<f64>)>, CliError> {
        Ok(cubes::merge(&args.dir)?.to_redo().into_iter().map(|id| (id, open.cubes.bound(id))).collect())
    };
    let ids: Vec<usize> = if args.all || args.sample.is_some() {
        let k = args.sample.unwrap_or(usize::MAX);
        if k == 0 {
            return Err(CliError::Usage("--sample 0: give at least one cube".into()));
        }
        let ids = estimate::spread(&left()?, k);
        if ids.is_empty() {
            if !args.quiet {
                eprintln!("every cube of {} has a result", args.dir.display());
            }
            return Ok(Exit::Solved);
        }
        ids
    } else if args.ids.is_empty() {
        return Err(CliError::Usage("name the cubes to search (their indices), give --all or --sample K".into()));
    } else {
        // A cube named twice is searched once: two searches of one cube at a time would race
        // for its files.
        let mut named = std::collections::HashSet::new();
        args.ids.iter().copied().filter(|id| named.insert(*id)).collect()
    };
    let threads = threads(args.threads)?;
    let horizons = open.puzzle.placement().is_none();
    let stop = stop_on_signal_or_time(args.time_limit, !horizons && !job.certify)?;
    let unit = family::of(&open.puzzle).step_unit();
    let group = Group::new(Shown::new(args.quiet, args.lines.progress_every)?);
    let finished = AtomicUsize::new(0);
    // Searches cube `id` on `threads` threads until `flag`, its progress drawn in the group
    // (`again`: from its start); a search stopped only to go on with more threads says so.
    let search = |id: usize, threads: usize, flag: &Arc<AtomicBool>, again: bool| {
        let progress = group.progress(&format!("cube {id}"), unit);
        let run =
            cubes::solve_cube_in(&open, id, threads, (again, Some(flag)), &mut |event: &Event| progress.observe(event));
        progress.finish();
        if let Ok(CubeRun::Searched(_) | CubeRun::Done(_)) = &run {
            finished.fetch_add(1, Ordering::Relaxed);
        }
        let handed = flag.load(Ordering::SeqCst) && !stop.load(Ordering::SeqCst);
        if let (Ok(run), false) = (&run, args.quiet) {
            match run {
                CubeRun::Stopped(progress) if handed => group.println(&format!(
                    "cube {id} of {}: goes on from {} on more threads, after {:.2} s",
                    job.cubes,
                    count(progress.open.len(), "open node"),
                    progress.seconds
                )),
                run => group.println(&line(run, job.cubes, horizons)),
            }
        }
        run
    };
    // Stopped: a cube kept its open nodes, or cubes asked for were never started.
    let ended = || if finished.load(Ordering::Relaxed) < ids.len() { Exit::Unknown } else { Exit::Solved };
    if ids.len() == 1 {
        search(ids[0], threads, &stop, args.again)?;
        return Ok(ended());
    }
    // Several cubes: each thread takes the next one, and once none is left to start, joins
    // one still running.
    let workers = threads.min(ids.len());
    let shared = CubeThreads::new(workers, Arc::clone(&stop), !horizons && !job.certify);
    let next = AtomicUsize::new(0);
    let failure: Mutex<Option<CliError>> = Mutex::new(None);
    let failed = |error: CliError| {
        if let Ok(mut slot) = failure.lock() {
            slot.get_or_insert(error);
        }
    };
    std::thread::scope(|scope| {
        scope.spawn(|| shared.watch_stop());
        for _ in 0..workers {
            scope.spawn(|| {
                let _handed_over_at_the_end = shared.worker();
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&id) = ids.get(i) else { break };
                    if failure.lock().map_or(true, |f| f.is_some()) || shared.stopped() {
                        break;
                    }
                    let (mut threads, mut again) = (1, args.again);
                    loop {
                        let flag = shared.start(threads);
                        let run = search(id, threads, &flag, again);
                        shared.end(&flag);
                        match run {
                            // Stopped for a thread handed to it: on from its open nodes.
                            Ok(CubeRun::Stopped(_)) if !shared.stopped() => {
                                threads += shared.take_spare();
                                again = false;
                            }
                            Ok(_) => break,
                            Err(error) => {
                                failed(error.into());
                                break;
                            }
                        }
                    }
                }
            });
        }
    });
    match failure.into_inner().ok().flatten() {
        Some(error) => Err(error),
        None => Ok(ended()),
    }
}

/// The flag that stops the cubes' searches: set by the first SIGINT or SIGTERM, or after
/// `time_limit` seconds ([`super::stop`]). Where the searches cannot keep their open nodes
/// (`keeps` false: an exchange's or a tour's cubes, a certified job's), nothing is caught, and a
/// signal ends the process as it always did.
fn stop_on_signal_or_time(time_limit: Option<f64>, keeps: bool) -> Result<Arc<AtomicBool>, CliError> {
    if let Some(seconds) = time_limit.filter(|s| !(s.is_finite() && *s >= 0.0)) {
        return Err(CliError::Usage(format!("--time-limit {seconds}: give a number of seconds, 0 or more")));
    }
    if !keeps {
        if time_limit.is_some() {
            let why = "--time-limit: only a placement's cubes keep their open nodes, and not a certified job's \
                       (its certificate states each cube's tree searched in one run)";
            return Err(CliError::Usage(why.into()));
        }
        return Ok(Arc::new(AtomicBool::new(false)));
    }
    Ok(super::stop::on_signal_or_time(time_limit.map(|seconds| Duration::from_secs_f64(seconds.min(1e9)))))
}

/// One line about a cube's search.
fn line(run: &CubeRun, cubes: usize, horizons: bool) -> String {
    let (result, done) = match run {
        CubeRun::Searched(result) => (result, ""),
        CubeRun::Done(result) => (result, " (done before)"),
        CubeRun::Stopped(progress) => {
            let open = count(progress.open.len(), "open node");
            let nodes = count(progress.nodes as usize, "node");
            let found = progress.value.map(|v| format!("; found {v}")).unwrap_or_default();
            return format!(
                "cube {} of {cubes}: stopped after {:.2} s, {nodes}{found}; {open} kept, from which its next search goes on",
                progress.cube, progress.seconds
            );
        }
    };
    let found = result.value.map(|v| format!("; found {v}")).unwrap_or_default();
    let work = count(result.nodes as usize, if horizons { "solver call" } else { "node" });
    format!("cube {} of {cubes}: searched in {:.2} s, {work}{found}{done}", result.cube, result.seconds)
}

/// `--threads`, checked.
fn threads(asked: Option<usize>) -> Result<usize, CliError> {
    match asked {
        Some(0) => Err(CliError::Usage("--threads 0: give at least one thread".into())),
        Some(n) if n > 1024 => Err(CliError::Usage(format!("--threads {n}: give at most 1024"))),
        Some(n) => Ok(n),
        None => Ok(default_threads()),
    }
}

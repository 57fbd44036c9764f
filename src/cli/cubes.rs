//! `knights-sat split`, `cube` and `merge`: cube and conquer through a job directory.

use std::io::Write as _;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use knights_sat::cubes::{self, estimate, CubeRun, JobDir, MergeReport, SplitRequest};
use knights_sat::driver::{default_threads, Event, PlacementSearch, Strategy, MAX_HORIZON};
use knights_sat::encodings::puzzle;
use knights_sat::family;
use knights_sat::render::{self, Report};
use knights_sat::solver::SolverKind;

use super::args::{CubeArgs, MergeArgs, SplitArgs};
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

/// Searches the cubes asked for, one thread each when several, and reports each.
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
        args.ids.clone()
    };
    let threads = threads(args.threads)?;
    let horizons = open.puzzle.placement().is_none();
    let stop = stop_on_signal_or_time(args.time_limit, !horizons && !job.certify)?;
    let unit = family::of(&open.puzzle).step_unit();
    let group = Group::new(Shown::new(args.quiet, args.lines.progress_every)?);
    let finished = AtomicUsize::new(0);
    // Searches cube `id` on `threads` threads, its progress drawn in the group.
    let search = |id: usize, threads: usize| {
        let progress = group.progress(&format!("cube {id}"), unit);
        let run = cubes::solve_cube_in(&open, id, threads, (args.again, Some(&stop)), &mut |event: &Event| {
            progress.observe(event)
        });
        progress.finish();
        if let Ok(CubeRun::Searched(_) | CubeRun::Done(_)) = &run {
            finished.fetch_add(1, Ordering::Relaxed);
        }
        if let (Ok(run), false) = (&run, args.quiet) {
            group.println(&line(run, job.cubes, horizons));
        }
        run
    };
    // Stopped: a cube kept its open nodes, or cubes asked for were never started.
    let ended = || if finished.load(Ordering::Relaxed) < ids.len() { Exit::Unknown } else { Exit::Solved };
    if ids.len() == 1 {
        search(ids[0], threads)?;
        return Ok(ended());
    }
    // Several cubes: each thread takes the next one.
    let next = AtomicUsize::new(0);
    let failure: Mutex<Option<CliError>> = Mutex::new(None);
    std::thread::scope(|scope| {
        for _ in 0..threads.min(ids.len()) {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(&id) = ids.get(i) else { break };
                if failure.lock().map_or(true, |f| f.is_some()) || stop.load(Ordering::Relaxed) {
                    break;
                }
                match search(id, 1) {
                    Ok(_) => {}
                    Err(error) => {
                        if let Ok(mut slot) = failure.lock() {
                            slot.get_or_insert(error.into());
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

/// Prints what the job directory's results add up to.
pub fn merge(args: MergeArgs) -> Result<Exit, CliError> {
    let report = cubes::merge(&args.dir)?;
    // A script that cannot be rewritten (a directory read-only here) costs the merge nothing.
    match cubes::follow_move(&JobDir::at(&args.dir)) {
        Ok(Some(old)) => {
            eprintln!("knights-sat: the job was at {old} when split: its run.sbatch now names {}", args.dir.display())
        }
        Ok(None) => {}
        Err(e) => eprintln!("knights-sat: run.sbatch may name the job's old directory: {e}"),
    }
    let mut out = std::io::stdout().lock();
    if args.missing {
        writeln!(out, "{}", cubes::array_ranges(&report.to_redo()))?;
        return Ok(Exit::Solved);
    }
    summary(&args, &report, &mut out)?;
    let outcome = report.outcome();
    let search = PlacementSearch { strategy: Strategy::BranchAndBound, ..PlacementSearch::default() };
    let source = report.job.source.clone();
    let stopped = (!report.complete()).then_some("some cubes have no result");
    let text = Report {
        puzzle: &report.puzzle,
        source: &source,
        solver: SolverKind::Cadical,
        mip: None,
        incremental: true,
        placement: report.puzzle.placement().map(|_| search),
        outcome: &outcome,
        stopped,
    };
    render::text(&text, &mut out)?;
    if report.complete() && report.job.certify && report.best.is_some() {
        let jobs = JobDir::at(&args.dir);
        let cubes::JobCertificate { dir, summary, verification } = cubes::certify_job(&jobs, &report)?;
        writeln!(out, "certificate: {} ({summary})", dir.display())?;
        for line in super::verify::check_lines(&verification) {
            writeln!(out, "{line}")?;
        }
        if !verification.passed() {
            return Err(CliError::Search(knights_sat::Error::Internal(format!(
                "the job's certificate in {} does not verify",
                dir.display()
            ))));
        }
        writeln!(out, "verified: {} is optimal", verification.value)?;
    }
    if report.complete() {
        Ok(if outcome.value.is_some() { Exit::Solved } else { Exit::Infeasible })
    } else {
        let dir = args.dir.display();
        let redo = cubes::array_ranges(&report.to_redo());
        eprintln!("knights-sat: {} of {} cubes have no result: {redo}", report.to_redo().len(), report.job.cubes);
        let jobs = JobDir::at(&args.dir);
        let part_way: Vec<_> = report.to_redo().into_iter().filter_map(|id| jobs.progress(id).ok().flatten()).collect();
        if !part_way.is_empty() {
            let seconds: f64 = part_way.iter().map(|p| p.seconds).sum();
            let cubes: Vec<usize> = part_way.iter().map(|p| p.cube).collect();
            eprintln!(
                "  {} of them stopped part way ({seconds:.0} s searched): {}; their next searches go on from the nodes \
                 they left open",
                part_way.len(),
                cubes::array_ranges(&cubes)
            );
        }
        eprintln!("  search them again: sbatch --array={redo} {dir}/run.sbatch");
        eprintln!("                 or: knights-sat cube {dir} --all");
        Ok(Exit::Unknown)
    }
}

/// The cubes' figures: how many were searched, their time in all and the longest.
fn summary(args: &MergeArgs, report: &MergeReport, out: &mut dyn std::io::Write) -> std::io::Result<()> {
    let job = &report.job;
    let times: Vec<f64> = report.searched.iter().map(|r| r.seconds).collect();
    let sum: f64 = times.iter().sum();
    let longest = report.searched.iter().max_by(|a, b| a.seconds.total_cmp(&b.seconds));
    let nodes: u64 = report.searched.iter().map(|r| r.nodes).sum();
    let unit = if report.puzzle.placement().is_some() { "nodes" } else { "solver calls" };
    writeln!(
        out,
        "{}: {} of {} cubes searched (split at depth {} in {:.2} s)",
        args.dir.display(),
        times.len(),
        job.cubes,
        job.depth,
        job.split_seconds
    )?;
    if let Some(longest) = longest {
        writeln!(
            out,
            "  cube times: {sum:.2} s in all, {:.2} s the longest (cube {}), {:.3} s the mean; {nodes} {unit}",
            longest.seconds,
            longest.cube,
            sum / times.len() as f64
        )?;
    }
    if let Some(closed) = report.closed {
        let share = render::percent(closed);
        writeln!(out, "  the tree closed: {share} by share (the nodes the split closed, and the cubes searched)")?;
    }
    if let Some(left) = report.left_seconds {
        let cores = default_threads();
        writeln!(
            out,
            "  the cubes left: about {} on one core, {} on {cores} cores (each as the {} searched cubes \
             nearest in bound; {} searched)",
            duration(left),
            duration(left / cores as f64),
            estimate::NEAREST,
            report.searched.len()
        )?;
    }
    for (id, why) in &report.failed {
        writeln!(out, "  cube {id} failed: {why}")?;
    }
    match &report.best {
        Some((value, _, Some(cube))) => writeln!(out, "  best solution: {value}, found in cube {cube}")?,
        Some((value, _, None)) => writeln!(out, "  best solution: {value}, found by the split")?,
        None => writeln!(out, "  no solution found")?,
    }
    Ok(())
}

/// Seconds as a person reads them: seconds, minutes or hours.
fn duration(seconds: f64) -> String {
    if seconds < 120.0 {
        format!("{seconds:.0} s")
    } else if seconds < 7_200.0 {
        format!("{:.0} min", seconds / 60.0)
    } else {
        format!("{:.1} h", seconds / 3_600.0)
    }
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

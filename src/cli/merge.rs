//! `knights-sat merge`: what a job directory's results add up to, as text, JSON or a picture.

use std::io::Write as _;
use std::path::Path;

use knights_sat::cubes::{self, estimate, JobDir, MergeReport};
use knights_sat::driver::{default_threads, PlacementSearch, Strategy};
use knights_sat::render::{self, Report};
use knights_sat::solver::SolverKind;
use serde::Serialize;

use super::args::MergeArgs;
use super::{CliError, Exit};

/// Prints what the job directory's results add up to.
pub fn merge(args: MergeArgs) -> Result<Exit, CliError> {
    let svg = super::settings::output_file("--svg", args.svg.clone())?;
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
    if !args.json {
        summary(&args.dir, &report, &mut out)?;
    }
    let outcome = report.outcome();
    let search = PlacementSearch { strategy: Strategy::BranchAndBound, ..PlacementSearch::default() };
    let source = report.job.source.clone();
    let stopped = (!report.complete()).then_some("some cubes have no result");
    let answer = Report {
        puzzle: &report.puzzle,
        source: &source,
        solver: SolverKind::Cadical,
        mip: None,
        incremental: true,
        placement: report.puzzle.placement().map(|_| search),
        outcome: &outcome,
        stopped,
    };
    if !args.json {
        render::text(&answer, &mut out)?;
    }
    // The job's certificate, once every cube is searched: its lines go to stderr under
    // `--json`, so that standard output stays one JSON object.
    let mut certificate = None;
    if report.complete() && report.job.certify && report.best.is_some() {
        let cubes::JobCertificate { dir, summary, verification } = cubes::certify_job(&JobDir::at(&args.dir), &report)?;
        let mut lines = vec![format!("certificate: {} ({summary})", dir.display())];
        lines.extend(super::verify::check_lines(&verification));
        if verification.passed() {
            lines.push(format!("verified: {} is optimal", verification.value));
        }
        for line in &lines {
            if args.json {
                eprintln!("{line}");
            } else {
                writeln!(out, "{line}")?;
            }
        }
        if !verification.passed() {
            return Err(CliError::Search(knights_sat::Error::Internal(format!(
                "the job's certificate in {} does not verify",
                dir.display()
            ))));
        }
        certificate = Some(dir.display().to_string());
    }
    // The cubes stopped part way, read once for the JSON object and the lines on stderr.
    let part_way = if report.complete() { Vec::new() } else { part_way(&args.dir, &report) };
    if args.json {
        let job = JsonJob::of(&args.dir, &report, &part_way, certificate);
        render::json_with_job(&answer, &job, &mut out)?;
    }
    out.flush()?;
    if let Some(path) = &svg {
        super::solve::draw(&report.puzzle, outcome.solution.as_ref(), path, args.svg_attacks)?;
    }
    if report.complete() {
        Ok(if outcome.value.is_some() { Exit::Solved } else { Exit::Infeasible })
    } else {
        left(&args.dir, &report, &part_way);
        Ok(Exit::Unknown)
    }
}

/// Says on stderr which cubes have no result and how to search them.
fn left(dir: &Path, report: &MergeReport, part_way: &[(usize, f64)]) {
    let redo = cubes::array_ranges(&report.to_redo());
    eprintln!("knights-sat: {} of {} cubes have no result: {redo}", report.to_redo().len(), report.job.cubes);
    if let Some(&first) = report.foreign.first() {
        eprintln!(
            "  a result of another job (or of another cube), not counted, in {} of them: {}; the first is {}",
            report.foreign.len(),
            cubes::array_ranges(&report.foreign),
            JobDir::at(dir).result_path(first).display()
        );
    }
    if !part_way.is_empty() {
        let seconds: f64 = part_way.iter().map(|p| p.1).sum();
        let cubes: Vec<usize> = part_way.iter().map(|p| p.0).collect();
        eprintln!(
            "  {} of them stopped part way ({seconds:.0} s searched): {}; their next searches go on from the nodes \
             they left open",
            part_way.len(),
            cubes::array_ranges(&cubes)
        );
    }
    let dir = dir.display();
    eprintln!("  search them again: sbatch --array={redo} {dir}/run.sbatch");
    eprintln!("                 or: knights-sat cube {dir} --all");
}

/// The cubes without a result that were stopped part way, with the seconds searched so far.
fn part_way(dir: &Path, report: &MergeReport) -> Vec<(usize, f64)> {
    let jobs = JobDir::at(dir);
    report
        .to_redo()
        .into_iter()
        .filter_map(|id| jobs.progress(id).ok().flatten())
        .map(|p| (p.cube, p.seconds))
        .collect()
}

/// The cubes' figures: how many were searched, their time in all and the longest.
fn summary(dir: &Path, report: &MergeReport, out: &mut dyn std::io::Write) -> std::io::Result<()> {
    let job = &report.job;
    let figures = Figures::of(report);
    let unit = if report.puzzle.placement().is_some() { "nodes" } else { "solver calls" };
    writeln!(
        out,
        "{}: {} of {} cubes searched (split at depth {} in {:.2} s)",
        dir.display(),
        report.searched.len(),
        job.cubes,
        job.depth,
        job.split_seconds
    )?;
    if let Some(longest) = &figures.longest {
        writeln!(
            out,
            "  cube times: {:.2} s in all, {:.2} s the longest (cube {}), {:.3} s the mean; {} {unit}",
            figures.seconds,
            longest.seconds,
            longest.cube,
            figures.seconds / report.searched.len() as f64,
            figures.work
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

/// The searched cubes' time and work in all, and the longest of them.
struct Figures {
    seconds: f64,
    work: u64,
    longest: Option<JsonCube>,
}

impl Figures {
    fn of(report: &MergeReport) -> Figures {
        let longest = report.searched.iter().max_by(|a, b| a.seconds.total_cmp(&b.seconds));
        Figures {
            seconds: report.searched.iter().map(|r| r.seconds).sum(),
            work: report.searched.iter().map(|r| r.nodes).sum(),
            longest: longest.map(|r| JsonCube { cube: r.cube, seconds: r.seconds }),
        }
    }
}

/// The `job` object of `merge --json`: the cubes' figures, documented in the README.
#[derive(Serialize)]
struct JsonJob {
    dir: String,
    cubes: usize,
    depth: usize,
    split_seconds: f64,
    searched: usize,
    missing: Vec<usize>,
    foreign: Vec<usize>,
    part_way: Vec<usize>,
    failed: Vec<JsonFailure>,
    seconds: f64,
    work: u64,
    longest: Option<JsonCube>,
    closed: Option<f64>,
    left_seconds: Option<f64>,
    best_cube: Option<usize>,
    certificate: Option<String>,
}

/// A cube and its seconds.
#[derive(Serialize)]
struct JsonCube {
    cube: usize,
    seconds: f64,
}

/// A cube whose search failed, and why.
#[derive(Serialize)]
struct JsonFailure {
    cube: usize,
    reason: String,
}

impl JsonJob {
    fn of(dir: &Path, report: &MergeReport, part_way: &[(usize, f64)], certificate: Option<String>) -> JsonJob {
        let figures = Figures::of(report);
        JsonJob {
            dir: dir.display().to_string(),
            cubes: report.job.cubes,
            depth: report.job.depth,
            split_seconds: report.job.split_seconds,
            searched: report.searched.len(),
            missing: report.missing.clone(),
            foreign: report.foreign.clone(),
            part_way: part_way.iter().map(|p| p.0).collect(),
            failed: report.failed.iter().map(|(cube, why)| JsonFailure { cube: *cube, reason: why.clone() }).collect(),
            seconds: figures.seconds,
            work: figures.work,
            longest: figures.longest,
            closed: report.closed,
            left_seconds: report.left_seconds,
            best_cube: report.best.as_ref().and_then(|b| b.2),
            certificate,
        }
    }
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

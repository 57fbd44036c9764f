//! The answer for programs: one JSON object, documented field by field in the README.

use std::io::{self, Write};

use serde::Serialize;

use super::json_parts::JsonSolution;
use super::Report;
use crate::driver::{SearchStats, Status, StepStats};
use crate::family;
use crate::solver::highs::Formulation;

#[derive(Serialize)]
struct JsonReport<'a> {
    puzzle: JsonPuzzle<'a>,
    backend: &'static str,
    solver: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    mip_model: Option<Formulation>,
    incremental: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    search: Option<JsonSearch>,
    status: Status,
    value: Option<usize>,
    bound: usize,
    within: Option<usize>,
    reason: Option<&'a str>,
    stopped: Option<&'a str>,
    solution: Option<JsonSolution>,
    /// Every optimal choice the search was asked to list (a tour's starts), each a solution.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    alternatives: Vec<JsonSolution>,
    stats: &'a [StepStats],
    /// Branch and bound: its progress over time.
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    progress: &'a [SearchStats],
    seconds: f64,
}

/// Placements: the strategy, the bound encoding and whether symmetries were broken.
#[derive(Serialize)]
struct JsonSearch {
    strategy: &'static str,
    encoding: &'static str,
    symmetry: bool,
}

#[derive(Serialize)]
struct JsonPuzzle<'a> {
    source: &'a str,
    kind: &'static str,
    name: Option<&'a str>,
    board: String,
    removed: Vec<String>,
    /// Exchanges: the number of pieces. Placements: the kinds that may be placed (`"NB"`).
    /// Tours: the number of knights.
    pieces: serde_json::Value,
    /// Placements: `minimise` or `maximise`. Tours: `moves`, `steps` or `feasible`.
    #[serde(skip_serializing_if = "Option::is_none")]
    objective: Option<&'static str>,
    /// Placements: `empty-board` or `blocked`.
    #[serde(skip_serializing_if = "Option::is_none")]
    attacks: Option<&'static str>,
}

/// Writes the report as one JSON object followed by a newline.
pub fn json(report: &Report, out: &mut dyn Write) -> io::Result<()> {
    serde_json::to_writer_pretty(&mut *out, &json_report(report))?;
    writeln!(out)
}

/// Writes the report as [`json`] does, with `job` as its last field (`merge --json`: the
/// figures of the job's cubes).
pub fn json_with_job(report: &Report, job: &impl Serialize, out: &mut dyn Write) -> io::Result<()> {
    #[derive(Serialize)]
    struct WithJob<'a, J: Serialize> {
        #[serde(flatten)]
        report: JsonReport<'a>,
        job: &'a J,
    }
    serde_json::to_writer_pretty(&mut *out, &WithJob { report: json_report(report), job })?;
    writeln!(out)
}

/// The fields of the report's JSON object.
fn json_report<'a>(report: &Report<'a>) -> JsonReport<'a> {
    let outcome = report.outcome;
    let family = family::of(report.puzzle);
    let board = family.board();
    let solution = outcome.solution.as_ref().and_then(|s| family.json_solution(s));
    let facts = family.json_facts();
    JsonReport {
        puzzle: JsonPuzzle {
            source: report.source,
            kind: report.puzzle.kind(),
            name: report.puzzle.name(),
            board: format!("{}x{}", board.width(), board.height()),
            removed: board.removed_squares().map(|s| board.name(s)).collect(),
            pieces: facts.pieces,
            objective: facts.objective,
            attacks: facts.attacks,
        },
        backend: if report.mip.is_some() { "mip" } else { "sat" },
        solver: if report.mip.is_some() { "highs" } else { report.solver.name() },
        mip_model: report.mip,
        incremental: report.incremental,
        search: report.placement.map(|p| JsonSearch {
            strategy: p.strategy.name(),
            encoding: p.encoding.name(),
            symmetry: p.symmetry,
        }),
        status: outcome.status,
        value: outcome.value,
        bound: outcome.bound,
        within: outcome.within,
        reason: outcome.reason.as_deref(),
        stopped: report.stopped,
        solution,
        alternatives: outcome.alternatives.iter().filter_map(|s| family.json_solution(s)).collect(),
        stats: &outcome.stats,
        progress: &outcome.search,
        seconds: outcome.seconds,
    }
}

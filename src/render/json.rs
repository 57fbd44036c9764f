//! The answer for programs: one JSON object, documented field by field in the README.

use std::io::{self, Write};

use knights_sat_encodings::puzzle::Puzzle;
use serde::Serialize;

use super::Report;
use crate::driver::{SearchStats, Solution, Status, StepStats};
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

#[derive(Serialize)]
#[serde(untagged)]
enum JsonSolution {
    Moves { moves: Vec<JsonMove> },
    Placement { pieces: Vec<JsonPlaced> },
    Route { starts: Vec<String>, moves: usize, time_steps: usize, steps: Vec<Vec<JsonJump>> },
}

#[derive(Serialize)]
struct JsonJump {
    /// Knight number from 1, in the puzzle's order.
    knight: usize,
    from: String,
    to: String,
}

#[derive(Serialize)]
struct JsonPlaced {
    piece: &'static str,
    square: String,
}

#[derive(Serialize)]
struct JsonMove {
    side: String,
    piece: &'static str,
    from: String,
    to: String,
    notation: String,
}

/// Writes the report as one JSON object followed by a newline.
pub fn json(report: &Report, out: &mut dyn Write) -> io::Result<()> {
    let outcome = report.outcome;
    let board = match report.puzzle {
        Puzzle::Exchange(p) => &p.board,
        Puzzle::Placement(p) => &p.board,
        Puzzle::Tour(p) => &p.board,
    };
    let solution = match (&outcome.solution, report.puzzle) {
        (Some(Solution::Moves(moves)), Puzzle::Exchange(puzzle)) => Some(JsonSolution::Moves {
            moves: moves
                .iter()
                .map(|m| JsonMove {
                    side: puzzle.sides[m.piece.side].name.clone(),
                    piece: m.piece.kind.name(),
                    from: board.name(m.from),
                    to: board.name(m.to),
                    notation: m.notation(board),
                })
                .collect(),
        }),
        (Some(Solution::Placement(placement)), _) => Some(JsonSolution::Placement {
            pieces: placement.iter().map(|&(s, k)| JsonPlaced { piece: k.name(), square: board.name(s) }).collect(),
        }),
        (Some(Solution::Route(route)), _) => Some(JsonSolution::Route {
            starts: route.starts.iter().map(|&s| board.name(s)).collect(),
            moves: route.moves(),
            time_steps: route.time_steps(),
            steps: route
                .steps
                .iter()
                .map(|step| {
                    step.iter()
                        .map(|j| JsonJump { knight: j.knight + 1, from: board.name(j.from), to: board.name(j.to) })
                        .collect()
                })
                .collect(),
        }),
        _ => None,
    };
    let (pieces, objective, attacks) = match report.puzzle {
        Puzzle::Exchange(p) => (serde_json::Value::from(p.piece_count()), None, None),
        Puzzle::Placement(p) => {
            let kinds: String = p.kinds.iter().map(|r| r.kind.letter()).collect();
            let objective = if p.goal.minimises() { "minimise" } else { "maximise" };
            (serde_json::Value::from(kinds), Some(objective), Some(p.line_of_sight.name()))
        }
        Puzzle::Tour(p) => (serde_json::Value::from(p.knights.len()), Some(p.objective.name()), None),
    };
    let value = JsonReport {
        puzzle: JsonPuzzle {
            source: report.source,
            kind: report.puzzle.kind(),
            name: report.puzzle.name(),
            board: format!("{}x{}", board.width(), board.height()),
            removed: board.removed_squares().map(|s| board.name(s)).collect(),
            pieces,
            objective,
            attacks,
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
        stats: &outcome.stats,
        progress: &outcome.search,
        seconds: outcome.seconds,
    };
    serde_json::to_writer_pretty(&mut *out, &value)?;
    writeln!(out)
}

//! The answer for programs: one JSON object, documented field by field in the README.

use std::io::{self, Write};

use knights_sat_encodings::puzzle::Puzzle;
use serde::Serialize;

use super::Report;
use crate::driver::{Status, StepStats};
use crate::solver::SolverKind;

#[derive(Serialize)]
struct JsonReport<'a> {
    puzzle: JsonPuzzle<'a>,
    solver: SolverKind,
    incremental: bool,
    status: Status,
    value: Option<usize>,
    bound: usize,
    within: Option<usize>,
    reason: Option<&'a str>,
    stopped: Option<&'a str>,
    solution: Option<JsonSolution>,
    stats: &'a [StepStats],
    seconds: f64,
}

#[derive(Serialize)]
struct JsonPuzzle<'a> {
    source: &'a str,
    kind: &'static str,
    name: Option<&'a str>,
    board: String,
    removed: Vec<String>,
    pieces: usize,
}

#[derive(Serialize)]
struct JsonSolution {
    moves: Vec<JsonMove>,
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
    let Puzzle::Exchange(puzzle) = report.puzzle;
    let board = &puzzle.board;
    let outcome = report.outcome;
    let solution = outcome.solution.as_ref().map(|moves| JsonSolution {
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
    });
    let value = JsonReport {
        puzzle: JsonPuzzle {
            source: report.source,
            kind: report.puzzle.kind(),
            name: report.puzzle.name(),
            board: format!("{}x{}", board.width(), board.height()),
            removed: board.removed_squares().map(|s| board.name(s)).collect(),
            pieces: puzzle.piece_count(),
        },
        solver: report.solver,
        incremental: report.incremental,
        status: outcome.status,
        value: outcome.value,
        bound: outcome.bound,
        within: outcome.within,
        reason: outcome.reason.as_deref(),
        stopped: report.stopped,
        solution,
        stats: &outcome.stats,
        seconds: outcome.seconds,
    };
    serde_json::to_writer_pretty(&mut *out, &value)?;
    writeln!(out)
}

//! Exchanges as text: the verdict, the moves in algebraic notation, and every position.

use std::io::{self, Write};

use knights_sat_encodings::check::replay_exchange;
use knights_sat_encodings::puzzle::ExchangePuzzle;

use super::diagram::{board_diagram, side_by_side};
use super::verdict::{verdict, MOVES, WIDTH};
use super::Report;
use crate::driver::{Solution, Status};

/// Writes the title, verdict, moves and positions of an exchange.
pub fn exchange_text(report: &Report, puzzle: &ExchangePuzzle, out: &mut dyn Write) -> io::Result<()> {
    writeln!(out, "{}", title(report, puzzle))?;
    writeln!(out, "{}", verdict(report.outcome, report.stopped, &MOVES))?;
    if let Some(Solution::Moves(moves)) = &report.outcome.solution {
        writeln!(out)?;
        writeln!(out, "Moves")?;
        let notation: Vec<String> =
            moves.iter().enumerate().map(|(i, m)| format!("{:>3}. {}", i + 1, m.notation(&puzzle.board))).collect();
        let width = notation.iter().map(String::len).max().unwrap_or(0) + 2;
        for row in notation.chunks((WIDTH / width).max(1)) {
            let line: String = row.iter().map(|n| format!("{n:<width$}")).collect();
            writeln!(out, "{}", line.trim_end())?;
        }
        writeln!(out)?;
        writeln!(out, "Positions ({})", legend(puzzle))?;
        // The driver only reports replayed solutions, so this replay cannot fail.
        if let Ok(positions) = replay_exchange(puzzle, moves) {
            let blocks: Vec<(String, Vec<String>)> = positions
                .iter()
                .enumerate()
                .map(|(i, p)| {
                    let title = if i == 0 {
                        "start".to_string()
                    } else {
                        format!("{i}. {}", moves[i - 1].notation(&puzzle.board))
                    };
                    (title, board_diagram(&puzzle.board, p, puzzle.sides.len()))
                })
                .collect();
            write!(out, "{}", side_by_side(&blocks, WIDTH))?;
        }
    } else if report.outcome.status != Status::Optimal {
        writeln!(out)?;
        let blocks = [
            ("start".to_string(), board_diagram(&puzzle.board, &puzzle.start, puzzle.sides.len())),
            ("goal".to_string(), board_diagram(&puzzle.board, &puzzle.goal, puzzle.sides.len())),
        ];
        write!(out, "{}", side_by_side(&blocks, WIDTH))?;
    }
    Ok(())
}

/// Which letters stand for which side, e.g. `upper case: white; lower case: black`.
fn legend(puzzle: &ExchangePuzzle) -> String {
    let parts: Vec<String> = puzzle
        .sides
        .iter()
        .enumerate()
        .map(|(i, side)| match i {
            0 => format!("upper case: {}", side.name),
            1 => format!("lower case: {}", side.name),
            n => format!("letter and {}: {}", n + 1, side.name),
        })
        .collect();
    parts.join("; ")
}

fn title(report: &Report, puzzle: &ExchangePuzzle) -> String {
    let name = puzzle.name.as_deref().map(|n| format!(" {n}:")).unwrap_or_default();
    let removed = puzzle.board.removed_squares().count();
    let removed = match removed {
        0 => String::new(),
        1 => ", 1 square removed".to_string(),
        n => format!(", {n} squares removed"),
    };
    format!(
        "{}:{name} exchange on {}x{}{removed}, {} pieces",
        report.source,
        puzzle.board.width(),
        puzzle.board.height(),
        puzzle.piece_count()
    )
}

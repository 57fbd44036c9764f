//! Placements as text: the verdict and the board with its pieces.

use std::io::{self, Write};

use knights_sat_encodings::geometry::Square;
use knights_sat_encodings::puzzle::placement::{LineOfSight, PlacementPuzzle};

use super::verdict::{verdict, Units};
use super::Report;
use crate::driver::Solution;

/// Writes the title, verdict and board of a placement.
pub fn placement_text(report: &Report, puzzle: &PlacementPuzzle, out: &mut dyn Write) -> io::Result<()> {
    let board = &puzzle.board;
    let name = puzzle.name.as_deref().map(|n| format!(" {n}:")).unwrap_or_default();
    let kinds: String = puzzle.kinds.iter().map(|r| r.kind.letter()).collect();
    let blocked = match puzzle.line_of_sight {
        LineOfSight::EmptyBoard => "",
        LineOfSight::Blocked => ", sliders blocked by placed pieces",
    };
    writeln!(
        out,
        "{}:{name} {} on {}x{} with {kinds}{blocked}",
        report.source,
        puzzle.goal,
        board.width(),
        board.height()
    )?;
    writeln!(out, "{}", verdict(report.outcome, report.stopped, &units(puzzle)))?;
    if let Some(Solution::Placement(placement)) = &report.outcome.solution {
        writeln!(out)?;
        let label = board.height().to_string().len();
        for rank in (0..board.height()).rev() {
            let mut line = format!("{:>label$} ", rank + 1);
            for file in 0..board.width() {
                let square = Square((rank * board.width() + file) as u16);
                let glyph = match placement.iter().find(|p| p.0 == square) {
                    Some(&(_, kind)) => kind.letter(),
                    None if board.is_removed(square) => '#',
                    None => '.',
                };
                line.push(glyph);
                line.push(' ');
            }
            writeln!(out, "{}", line.trim_end())?;
        }
        let files: String = (0..board.width()).map(|f| format!("{:<2}", board.file_name(f))).collect();
        writeln!(out, "{} {}", " ".repeat(label), files.trim_end())?;
    }
    Ok(())
}

/// Pieces, or weight when some kind weighs more than one.
pub(super) fn units(puzzle: &PlacementPuzzle) -> Units {
    let maximise = !puzzle.goal.minimises();
    if puzzle.kinds.iter().all(|r| r.weight == 1) {
        Units { one: "piece", many: "pieces", maximise }
    } else {
        Units { one: "unit of weight", many: "units of weight", maximise }
    }
}

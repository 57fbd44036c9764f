//! Tours as text: the verdict, the moves in algebraic notation, and the board with every
//! square numbered by the time step of its first visit.

use std::io::{self, Write};

use knights_sat_encodings::check::replay_tour;
use knights_sat_encodings::geometry::Square;
use knights_sat_encodings::puzzle::tour::{Route, TourObjective, TourPuzzle, VisitOrder};

use super::verdict::{verdict, Units, MOVES, WIDTH};
use super::Report;
use crate::driver::{Query, Solution};
use crate::solver::Answer;

const STEPS: Units = Units { one: "time step", many: "time steps", maximise: false };

/// Writes the title, verdict, moves and board of a tour.
pub fn tour_text(report: &Report, puzzle: &TourPuzzle, out: &mut dyn Write) -> io::Result<()> {
    writeln!(out, "{}", title(report, puzzle))?;
    let units = if puzzle.objective == TourObjective::Steps { &STEPS } else { &MOVES };
    writeln!(out, "{}", verdict(report.outcome, report.stopped, units))?;
    let Some(Solution::Route(route)) = &report.outcome.solution else {
        return Ok(());
    };
    if puzzle.objective == TourObjective::Steps && puzzle.knights.len() > 1 {
        let proved = report.outcome.stats.iter().rev().find(|s| s.query == Query::Moves);
        let fewer = match proved {
            Some(s) if s.result == Answer::Unsat => {
                format!("; {} in as many steps proved impossible", MOVES.count(route.moves().saturating_sub(1)))
            }
            _ if route.moves() == 0 => String::new(),
            _ if report.mip.is_some() => "; the fewest in as many steps (the MIP's optimum)".to_string(),
            _ => "; fewer moves not proved impossible".to_string(),
        };
        writeln!(out, "{} moves in {} time steps{fewer}", route.moves(), route.time_steps())?;
    }
    if !report.outcome.alternatives.is_empty() {
        let mut starts: Vec<Vec<Square>> = report
            .outcome
            .alternatives
            .iter()
            .filter_map(|s| match s {
                Solution::Route(r) => Some(r.starts.clone()),
                _ => None,
            })
            .collect();
        starts.sort_by_key(|squares| {
            squares.iter().map(|s| (puzzle.board.file(*s), puzzle.board.rank(*s))).collect::<Vec<_>>()
        });
        let names: Vec<String> = starts
            .iter()
            .map(|squares| squares.iter().map(|&s| puzzle.board.name(s)).collect::<Vec<_>>().join("+"))
            .collect();
        let choices = if names.len() == 1 { "choice" } else { "choices" };
        writeln!(out, "Optimal starts ({} {choices}, every one listed): {}", names.len(), names.join(", "))?;
    }
    writeln!(out)?;
    writeln!(out, "Moves")?;
    let notation = notation(puzzle, route);
    let width = notation.iter().map(String::len).max().unwrap_or(0) + 2;
    for row in notation.chunks((WIDTH / width).max(1)) {
        let line: String = row.iter().map(|n| format!("{n:<width$}")).collect();
        writeln!(out, "{}", line.trim_end())?;
    }
    // The driver only reports replayed routes, so this replay cannot fail.
    let Ok(replay) = replay_tour(puzzle, route) else { return Ok(()) };
    if puzzle.order == VisitOrder::Listed && puzzle.knights.len() == 1 {
        writeln!(out)?;
        writeln!(out, "Legs (target: moves from the previous one)")?;
        let mut before = 0;
        let legs: Vec<String> = puzzle
            .targets
            .iter()
            .zip(&replay.touched_at)
            .map(|(&target, &at)| {
                let leg = format!("{} {}", puzzle.board.name(target), at - before);
                before = at;
                leg
            })
            .collect();
        for row in legs.chunks(12) {
            writeln!(out, "{}", row.join(", "))?;
        }
    }
    writeln!(out)?;
    writeln!(
        out,
        "Board (first visit by time step; {} static, x attacked, . never visited)",
        attacker_letters(puzzle)
    )?;
    let mut first_visit: Vec<Option<usize>> = vec![None; puzzle.board.area()];
    for (t, squares) in replay.positions.iter().enumerate() {
        for square in squares {
            first_visit[square.index()].get_or_insert(t);
        }
    }
    write!(out, "{}", board_with_visits(puzzle, &first_visit))
}

fn title(report: &Report, puzzle: &TourPuzzle) -> String {
    let name = puzzle.name.as_deref().map(|n| format!(" {n}:")).unwrap_or_default();
    let board = &puzzle.board;
    let knights = match puzzle.knights.len() {
        1 => "1 knight".to_string(),
        n => format!("{n} knights"),
    };
    let attackers: Vec<String> =
        puzzle.attackers.iter().map(|&(k, s)| format!("{}{}", k.letter(), board.name(s))).collect();
    let attackers = if attackers.is_empty() { "no static pieces".to_string() } else { attackers.join(" ") };
    let order = match puzzle.order {
        VisitOrder::Any => "in any order",
        VisitOrder::Listed => "in the listed order",
    };
    let objective = match puzzle.objective {
        TourObjective::Moves => "fewest moves",
        TourObjective::Steps => "fewest time steps, then fewest moves",
        TourObjective::Feasible => "any route",
    };
    format!(
        "{}:{name} tour on {}x{}, {knights} among {attackers}; {} targets {order}; {objective}",
        report.source,
        board.width(),
        board.height(),
        puzzle.targets.len()
    )
}

/// The moves as `1. Nh8-g6`, or per time step `1. N1 h8-g6 N2 a1-b3` with several knights.
fn notation(puzzle: &TourPuzzle, route: &Route) -> Vec<String> {
    let board = &puzzle.board;
    let several = puzzle.knights.len() > 1;
    if !several {
        return route
            .jumps()
            .enumerate()
            .map(|(i, j)| format!("{:>3}. N{}-{}", i + 1, board.name(j.from), board.name(j.to)))
            .collect();
    }
    route
        .steps
        .iter()
        .enumerate()
        .map(|(i, step)| {
            let jumps: Vec<String> =
                step.iter().map(|j| format!("N{} {}-{}", j.knight + 1, board.name(j.from), board.name(j.to))).collect();
            let jumps = if jumps.is_empty() { "(wait)".to_string() } else { jumps.join(" ") };
            format!("{:>3}. {jumps}", i + 1)
        })
        .collect()
}

fn attacker_letters(puzzle: &TourPuzzle) -> String {
    let mut letters: Vec<char> = puzzle.attackers.iter().map(|a| a.0.letter()).collect();
    letters.sort();
    letters.dedup();
    if letters.is_empty() {
        return "no pieces".to_string();
    }
    letters.iter().map(char::to_string).collect::<Vec<_>>().join("/")
}

/// The board, each square showing its first visit, its static piece, `x` when attacked, `.`
/// when never visited and `#` when removed.
fn board_with_visits(puzzle: &TourPuzzle, first_visit: &[Option<usize>]) -> String {
    let board = &puzzle.board;
    let cell = first_visit.iter().flatten().max().map_or(1, |t| t.to_string().len()).max(2);
    let label = board.height().to_string().len();
    let mut text = String::new();
    for rank in (0..board.height()).rev() {
        let mut line = format!("{:>label$}", rank + 1);
        for file in 0..board.width() {
            let square = Square((rank * board.width() + file) as u16);
            let mark = match (first_visit[square.index()], puzzle.attackers.iter().find(|a| a.1 == square)) {
                (_, Some(&(kind, _))) => kind.letter().to_string(),
                (Some(t), None) => t.to_string(),
                (None, None) if board.is_removed(square) => "#".to_string(),
                (None, None) if puzzle.is_safe(square) => ".".to_string(),
                (None, None) => "x".to_string(),
            };
            line.push_str(&format!(" {mark:>cell$}"));
        }
        text.push_str(&line);
        text.push('\n');
    }
    let files: String = (0..board.width()).map(|f| format!(" {:>cell$}", board.file_name(f))).collect();
    text.push_str(&format!("{}{files}\n", " ".repeat(label)));
    text
}

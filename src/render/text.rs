//! The answer for people: the verdict first, then the moves, the positions and the work done.

use std::io::{self, Write};

use knights_sat_encodings::check::replay_exchange;
use knights_sat_encodings::puzzle::{ExchangePuzzle, Puzzle};

use super::diagram::{board_diagram, side_by_side};
use super::Report;
use crate::driver::{Outcome, Query, Solution, Status, Strategy};
use crate::solver::Answer;

/// Columns the diagrams may fill.
pub(super) const WIDTH: usize = 100;

/// Writes the report as text.
pub fn text(report: &Report, out: &mut dyn Write) -> io::Result<()> {
    match report.puzzle {
        Puzzle::Exchange(puzzle) => exchange(report, puzzle, out)?,
        Puzzle::Placement(puzzle) => super::placement::text(report, puzzle, out)?,
        Puzzle::Tour(puzzle) => super::tour::text(report, puzzle, out)?,
    }
    if !report.outcome.stats.is_empty() {
        writeln!(out)?;
        let mode = match report.placement {
            Some(search) => {
                let bound = match search.strategy {
                    Strategy::CoreGuided => String::new(),
                    _ => format!(" over the {}", search.encoding),
                };
                let symmetry = if search.symmetry { "symmetries broken" } else { "no symmetry breaking" };
                format!("{}{bound}, {symmetry}", search.strategy)
            }
            None if report.incremental => "incremental".to_string(),
            None => "rebuilt at each step".to_string(),
        };
        match report.mip {
            Some(formulation) => writeln!(out, "Work per model (HiGHS, {formulation} model)")?,
            None => writeln!(out, "Work per solver call ({}, {mode})", report.solver)?,
        }
        writeln!(out, "{}", stats_table(report.outcome, report.mip.is_some()))?;
    }
    if !report.outcome.search.is_empty() {
        writeln!(out)?;
        writeln!(out, "Work of the branch and bound over time")?;
        writeln!(out, "{}", search_table(report.outcome))?;
    }
    Ok(())
}

/// The branch-and-bound progress rows as an aligned table; on several threads, with each
/// thread's nodes and the subtrees handed between them.
fn search_table(outcome: &Outcome) -> String {
    let threaded = outcome.search.iter().any(|s| !s.thread_nodes.is_empty());
    let mut header = vec![
        "seconds",
        "nodes",
        "LP solves",
        "pivots",
        "strong br.",
        "sb fixed",
        "rc fixed",
        "orbit fixed",
        "bound",
        "best",
    ];
    if threaded {
        header.extend(["nodes per thread", "handed over"]);
    }
    let mut rows: Vec<Vec<String>> = vec![header.into_iter().map(String::from).collect()];
    let or_dash = |v: Option<usize>| v.map_or("-".to_string(), |v| v.to_string());
    for s in &outcome.search {
        let mut row = vec![
            format!("{:.3}", s.seconds),
            s.nodes.to_string(),
            s.lp_solves.to_string(),
            s.pivots.to_string(),
            s.strong_branchings.to_string(),
            s.fixed_by_strong_branching.to_string(),
            s.fixed_by_reduced_cost.to_string(),
            s.orbit_fixings.to_string(),
            or_dash(s.bound),
            or_dash(s.incumbent),
        ];
        if threaded {
            row.push(s.thread_nodes.iter().map(u64::to_string).collect::<Vec<_>>().join("/"));
            row.push(s.subtrees_shared.to_string());
        }
        rows.push(row);
    }
    let widths: Vec<usize> = (0..rows[0].len()).map(|c| rows.iter().map(|r| r[c].len()).max().unwrap_or(0)).collect();
    let lines: Vec<String> = rows
        .iter()
        .map(|row| {
            row.iter().enumerate().map(|(c, v)| format!("{v:>w$}", w = widths[c])).collect::<Vec<_>>().join("  ")
        })
        .collect();
    let (symmetries, cuts) = outcome.search.last().map_or((0, 0), |s| (s.symmetries, s.cuts));
    format!("{}\nsymmetries used: {symmetries}; cuts at the root: {cuts}", lines.join("\n"))
}

/// The words for the objective of a puzzle: what is counted and in which direction.
pub(super) struct Units {
    /// One of them (`move`, `piece`).
    pub one: &'static str,
    /// Several (`moves`, `pieces`).
    pub many: &'static str,
    /// Whether more is better.
    pub maximise: bool,
}

impl Units {
    pub(super) fn count(&self, n: usize) -> String {
        format!("{n} {}", if n == 1 { self.one } else { self.many })
    }
}

pub(super) const MOVES: Units = Units { one: "move", many: "moves", maximise: false };

fn exchange(report: &Report, puzzle: &ExchangePuzzle, out: &mut dyn Write) -> io::Result<()> {
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

/// One line: the status, the value, the bound, and why the search ended.
pub(super) fn verdict(outcome: &Outcome, stopped: Option<&str>, units: &Units) -> String {
    let impossible = match (units.maximise, outcome.bound) {
        (false, 0) | (true, usize::MAX) => None,
        (false, b) => Some(b - 1),
        (true, b) => Some(b + 1),
    };
    let proved = impossible.map(|n| format!("{} proved impossible", units.count(n))).unwrap_or_default();
    let mut line = match (outcome.status, outcome.value) {
        (Status::Optimal, Some(v)) => {
            let proof = if proved.is_empty() { "nothing better exists".to_string() } else { proved };
            format!("optimal: {}; {proof}", units.count(v))
        }
        (Status::Feasible, Some(v)) => format!("feasible: {} found; {}", units.count(v), or_nothing(&proved)),
        (Status::Infeasible, _) => match (&outcome.reason, outcome.within) {
            (Some(reason), _) => format!("infeasible: {reason}"),
            (None, Some(h)) => format!(
                "infeasible within {}: no solution has {h} moves or fewer (raise --max-horizon to search further)",
                MOVES.count(h)
            ),
            (None, None) => "infeasible".to_string(),
        },
        _ => format!("unknown: no solution found; {}", or_nothing(&proved)),
    };
    if let Some(why) = stopped {
        line.push_str(&format!(" ({why})"));
    }
    line
}

fn or_nothing(proved: &str) -> String {
    if proved.is_empty() {
        "no bound proved yet".to_string()
    } else {
        proved.to_string()
    }
}

/// The statistics of every solver call as an aligned table (a MIP's constraints are rows).
fn stats_table(outcome: &Outcome, mip: bool) -> String {
    let constraints = if mip { "rows" } else { "clauses" };
    let header = ["horizon", "query", "variables", constraints, "conflicts", "seconds", "result"];
    let mut rows: Vec<[String; 7]> = vec![header.map(String::from)];
    for s in &outcome.stats {
        rows.push([
            s.horizon.to_string(),
            match s.query {
                Query::Goal => "goal".to_string(),
                Query::Completeness => "all reached".to_string(),
                Query::Invariant => "invariant".to_string(),
                Query::Bound => "bound".to_string(),
                Query::Leg => "leg".to_string(),
                Query::Moves => "moves".to_string(),
                Query::Optimise => "optimise".to_string(),
            },
            s.variables.to_string(),
            s.clauses.to_string(),
            s.conflicts.map_or("-".to_string(), |c| c.to_string()),
            format!("{:.3}", s.seconds),
            match s.result {
                Answer::Sat => "SAT".to_string(),
                Answer::Unsat => "UNSAT".to_string(),
            },
        ]);
    }
    let widths: Vec<usize> = (0..7).map(|c| rows.iter().map(|r| r[c].len()).max().unwrap_or(0)).collect();
    let mut text = String::new();
    for (i, row) in rows.iter().enumerate() {
        let cells: Vec<String> =
            row.iter()
                .enumerate()
                .map(|(c, v)| {
                    if c == 1 || c == 6 {
                        format!("{v:<w$}", w = widths[c])
                    } else {
                        format!("{v:>w$}", w = widths[c])
                    }
                })
                .collect();
        if i > 0 {
            text.push('\n');
        }
        text.push_str(cells.join("  ").trim_end());
    }
    text.push_str(&format!("\ntotal {:.3} s", outcome.seconds));
    text
}

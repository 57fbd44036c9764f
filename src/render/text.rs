//! The answer for people: the verdict first, then the moves, the positions and the work done.

use std::io::{self, Write};

use super::Report;
use crate::driver::{Outcome, Query, SearchStats, Strategy};
use crate::family;
use crate::solver::Answer;

/// Writes the report as text: the family's title, verdict and solution, then the work done.
pub fn text(report: &Report, out: &mut dyn Write) -> io::Result<()> {
    family::of(report.puzzle).write_text(report, out)?;
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
        "lex fixed",
        "bound",
        "best",
        "closed",
        "open subtrees",
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
            s.lex_fixings.to_string(),
            or_dash(s.bound),
            or_dash(s.incumbent),
            closed(s),
            s.open_subtrees.to_string(),
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
    let (symmetries, cuts, in_cubes, deferred) =
        outcome.search.last().map_or((0, 0, 0, 0), |s| (s.symmetries, s.cuts, s.subtree_cuts, s.deferred));
    let in_cubes = if in_cubes > 0 { format!("; cuts at the tops of cubes: {in_cubes}") } else { String::new() };
    let in_cubes = match deferred {
        0 => in_cubes,
        _ => format!("{in_cubes}; nodes that waited for their level: {deferred}"),
    };
    let passes = if outcome.search.iter().any(|s| s.split_depth.is_some()) {
        "\n(split dN: a pass that searches the tree again from the root to split it at depth N; \
         its share closed is that pass's)"
    } else {
        ""
    };
    format!("{}\nsymmetries used: {symmetries}; cuts at the root: {cuts}{in_cubes}{passes}", lines.join("\n"))
}

/// The share of the tree closed; during a pass that splits the tree, that pass's share and its
/// depth.
fn closed(s: &SearchStats) -> String {
    match s.split_depth {
        Some(depth) => format!("{} (split d{depth})", percent(s.done)),
        None => percent(s.done),
    }
}

/// Several horizons at once: each thread's calls and seconds (nothing on one thread).
fn thread_shares(outcome: &Outcome) -> String {
    let mut shares: std::collections::BTreeMap<usize, (usize, f64)> = Default::default();
    for s in &outcome.stats {
        if let Some(t) = s.thread {
            let share = shares.entry(t).or_default();
            share.0 += 1;
            share.1 += s.seconds;
        }
    }
    if shares.is_empty() {
        return String::new();
    }
    let parts: Vec<String> =
        shares.iter().map(|(t, (calls, seconds))| format!("thread {t}: {calls} calls, {seconds:.3} s")).collect();
    format!("\n{}", parts.join("; "))
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
                Query::Starts => "starts".to_string(),
            },
            s.variables.to_string(),
            s.clauses.to_string(),
            s.conflicts.map_or("-".to_string(), |c| c.to_string()),
            format!("{:.3}", s.seconds),
            {
                let result = if s.result == Answer::Sat { "SAT" } else { "UNSAT" };
                match (s.answered_by, s.thread) {
                    (None, None) => result.to_string(),
                    (Some(by), None) => format!("{result} ({by})"),
                    (None, Some(t)) => format!("{result} (thread {t})"),
                    (Some(by), Some(t)) => format!("{result} ({by}, thread {t})"),
                }
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
    text.push_str(&thread_shares(outcome));
    text.push_str(&format!("\ntotal {:.3} s", outcome.seconds));
    text
}

/// A share as a percentage: whole percents from 10% on, two significant digits below, so
/// that a small share shows it is moving (`37%`, `1.2%`, `0.042%`). A share short of the
/// whole never shows as `100%`.
pub fn percent(share: f64) -> String {
    const WHOLE: f64 = 1.0 - 1e-9;
    let p = share * 100.0;
    if share >= WHOLE {
        "100%".to_string()
    } else if p >= 10.0 || p <= 0.0 {
        format!("{:.0}%", p.floor())
    } else {
        // Two significant digits.
        let digits = (1 - p.log10().floor() as i32).max(0) as usize;
        format!("{p:.digits$}%")
    }
}

#[cfg(test)]
mod tests {
    use super::percent;

    #[test]
    fn percentages_keep_two_digits_and_never_round_up_to_the_whole() {
        assert_eq!(percent(0.0), "0%");
        assert_eq!(percent(0.000_423), "0.042%");
        assert_eq!(percent(0.0123), "1.2%");
        assert_eq!(percent(0.37), "37%");
        assert_eq!(percent(0.9999), "99%");
        assert_eq!(percent(1.0 - 1e-12), "100%");
    }
}

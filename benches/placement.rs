//! The domination suite: time to prove optimality of knight domination (n = 8..20) and queen
//! domination (n = 8..16) for branch and bound (with each of its ingredients switched off in
//! turn, and on one thread) and every SAT strategy, bound encoding and symmetry setting:
//!
//! ```text
//! cargo bench --bench placement
//! ```
//!
//! Each run is the `knights-sat` binary with `--json --timeout`, so a run that passes the time
//! limit is stopped for good. Environment: `KNIGHTS_SAT_BENCH_TIMEOUT` (seconds per run, default
//! 60), `KNIGHTS_SAT_BENCH_SOLVER` (default `cadical`), `KNIGHTS_SAT_BENCH_CONFIGS` (a
//! comma-separated subset of the configuration names in the first column),
//! `KNIGHTS_SAT_BENCH_FAMILY` (`knight` or `queen`: one family only). Once a configuration
//! passes the limit on one board, its larger boards of that family are not run ("-").
//! Every answer is compared with the published optimum; a mismatch is printed as `WRONG`.

mod common;

/// A family of boards and their published optima.
struct Family {
    name: &'static str,
    piece: &'static str,
    optima: &'static [(usize, usize)],
}

const FAMILIES: [Family; 2] = [
    Family {
        name: "knight domination",
        piece: "N",
        // OEIS A006075.
        optima: &[
            (8, 12),
            (9, 14),
            (10, 16),
            (11, 21),
            (12, 24),
            (13, 28),
            (14, 32),
            (15, 36),
            (16, 40),
            (17, 46),
            (18, 52),
            (19, 57),
            (20, 62),
        ],
    },
    Family {
        name: "queen domination",
        piece: "Q",
        // OEIS A075458.
        optima: &[(8, 5), (9, 5), (10, 5), (11, 5), (12, 6), (13, 7), (14, 8), (15, 9), (16, 9)],
    },
];

fn configurations() -> Vec<(String, Vec<String>)> {
    let mut configs = Vec::new();
    let bnb = |flag: &str| {
        let mut args = vec!["--strategy".to_string(), "branch-and-bound".to_string()];
        args.extend((!flag.is_empty()).then(|| flag.to_string()));
        args
    };
    configs.push(("branch-and-bound".to_string(), bnb("")));
    for flag in ["--no-symmetry", "--no-reduced-costs", "--no-local-search", "--no-row-branching", "--no-cuts"] {
        configs.push((format!("branch-and-bound {flag}"), bnb(flag)));
    }
    let mut one_thread = bnb("");
    one_thread.extend(["--threads".to_string(), "1".to_string()]);
    configs.push(("branch-and-bound --threads 1".to_string(), one_thread));
    for symmetry in [false, true] {
        let suffix = if symmetry { " +sym" } else { "" };
        let extra: Vec<String> = vec![if symmetry { "--symmetry" } else { "--no-symmetry" }.into()];
        let mut args = vec!["--strategy".to_string(), "core-guided".to_string()];
        args.extend(extra.clone());
        configs.push((format!("core-guided{suffix}"), args));
        for strategy in ["sat-unsat", "unsat-sat", "binary"] {
            for encoding in ["totalizer", "gte", "dpw", "adder"] {
                let mut args = vec!["--strategy".into(), strategy.into(), "--encoding".into(), encoding.into()];
                args.extend(extra.clone());
                configs.push((format!("{strategy}/{encoding}{suffix}"), args));
            }
        }
    }
    configs
}

fn main() {
    // `cargo bench` passes `--bench`; a filter argument is not supported.
    let (timeout, solver, only) = (common::timeout(), common::solver(), common::only_configs());
    let family_filter = std::env::var("KNIGHTS_SAT_BENCH_FAMILY").ok();
    for family in
        FAMILIES.iter().filter(|f| family_filter.as_ref().is_none_or(|only| f.name.starts_with(only.as_str())))
    {
        println!("\n{} ({solver}, seconds to prove optimality, limit {timeout} s)\n", family.name);
        let header: Vec<String> = family.optima.iter().map(|(n, v)| format!("n={n} ({v})")).collect();
        println!("| configuration | {} |", header.join(" | "));
        println!("|---|{}", "---|".repeat(header.len()));
        for (name, args) in configurations() {
            if only.as_ref().is_some_and(|o| !o.contains(&name)) {
                continue;
            }
            let mut cells = Vec::new();
            let mut gave_up = false;
            for &(n, optimum) in family.optima {
                if gave_up {
                    cells.push("-".to_string());
                    continue;
                }
                let mut run = args.clone();
                run.extend(["domination", "--board", &format!("{n}x{n}"), "--pieces", family.piece].map(String::from));
                let (cell, proved) = common::timed_cell(&run, optimum);
                gave_up = !proved;
                cells.push(cell);
            }
            println!("| {name} | {} |", cells.join(" | "));
        }
    }
}

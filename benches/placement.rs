//! Time to prove optimality of knight domination (n = 8..14) and queen domination (n = 8..12)
//! for every placement strategy, bound encoding and symmetry setting:
//!
//! ```text
//! cargo bench --bench placement --features cadical
//! ```
//!
//! Each run is the `knights-sat` binary with `--json --timeout`, so a run that passes the time
//! limit is stopped for good. Environment: `KNIGHTS_SAT_BENCH_TIMEOUT` (seconds per run, default
//! 60), `KNIGHTS_SAT_BENCH_SOLVER` (default `cadical`), `KNIGHTS_SAT_BENCH_CONFIGS` (a
//! comma-separated subset of the configuration names in the first column),
//! `KNIGHTS_SAT_BENCH_FAMILY` (`knight` or `queen`: one family only). Once a configuration
//! passes the limit on one board, its larger boards of that family are not run ("-").
//! Every answer is compared with the published optimum; a mismatch is printed as `WRONG`.

use std::process::Command;
use std::time::Instant;

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
        optima: &[(8, 12), (9, 14), (10, 16), (11, 21), (12, 24), (13, 28), (14, 32)],
    },
    Family { name: "queen domination", piece: "Q", optima: &[(8, 5), (9, 5), (10, 5), (11, 5), (12, 6)] },
];

fn configurations() -> Vec<(String, Vec<String>)> {
    let mut configs = Vec::new();
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
    let timeout: f64 = std::env::var("KNIGHTS_SAT_BENCH_TIMEOUT").ok().and_then(|t| t.parse().ok()).unwrap_or(60.0);
    let solver = std::env::var("KNIGHTS_SAT_BENCH_SOLVER").unwrap_or_else(|_| "cadical".to_string());
    let only: Option<Vec<String>> =
        std::env::var("KNIGHTS_SAT_BENCH_CONFIGS").ok().map(|c| c.split(',').map(|s| s.trim().to_string()).collect());
    let binary = env!("CARGO_BIN_EXE_knights-sat");
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
                let clock = Instant::now();
                let output = Command::new(binary)
                    .args(["solve", "--json", "--quiet", "--solver", &solver, "--timeout", &timeout.to_string()])
                    .args(&args)
                    .args(["domination", "--board", &format!("{n}x{n}"), "--pieces", family.piece])
                    .output()
                    .expect("the knights-sat binary runs");
                let seconds = clock.elapsed().as_secs_f64();
                let json = String::from_utf8_lossy(&output.stdout);
                let optimal = json.contains("\"status\": \"optimal\"");
                let value_ok = json.contains(&format!("\"value\": {optimum},"));
                cells.push(match (optimal, value_ok) {
                    (true, true) => format!("{seconds:.2}"),
                    (true, false) => "WRONG".to_string(),
                    (false, _) => {
                        gave_up = true;
                        format!("> {timeout:.0}")
                    }
                });
            }
            println!("| {name} | {} |", cells.join(" | "));
        }
    }
}

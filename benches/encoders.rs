//! The encoders alone, with no solver: how long building the CNF formula (and the 0-1 linear
//! model) of one question takes as the board and the horizon grow, with the formula's size as
//! criterion's throughput, so that a change that makes formulas larger or slower to build shows
//! (`cargo bench --bench encoders`).
//!
//! The sizes are also printed once, before the timings, as a table.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use knights_sat::encodings::encode::AtMostOne;
use knights_sat::encodings::puzzle::{self, Puzzle};
use knights_sat::export::{formula, linear_model, Question};

fn parse(text: &str) -> Puzzle {
    puzzle::parse(text, "bench").expect("the benchmark's puzzles parse")
}

/// Knights dominating an `n`x`n` board.
fn domination(n: usize) -> Puzzle {
    parse(&format!("kind = \"domination\"\nboard = \"{n}x{n}\"\npieces = \"N\"\n"))
}

/// A knight from the corner touching every square a queen in the middle leaves safe.
fn tour(n: usize) -> Puzzle {
    let file = (b'a' + (n / 2) as u8) as char;
    let rank = n / 2 + 1;
    parse(&format!("kind = \"tour\"\nboard = \"{n}x{n}\"\nattackers = [\"Q{file}{rank}\"]\nknights = [\"a1\"]\n"))
}

/// Guarini's knights on 3x3.
fn guarini() -> Puzzle {
    parse(
        "kind = \"exchange\"\nboard = \"3x3\"\nswap = true\n[[side]]\nname = \"white\"\nstart = [\"Na1\", \"Nc1\"]\n\
         [[side]]\nname = \"black\"\nstart = [\"Na3\", \"Nc3\"]\n",
    )
}

/// The questions measured: a label, the puzzle and the question.
fn cases() -> Vec<(String, Puzzle, Question)> {
    let mut cases = Vec::new();
    for n in [8, 12, 16, 24, 32] {
        cases.push((format!("domination {n}x{n}, bound {}", n * n / 5), domination(n), Question::Bound(n * n / 5)));
    }
    for (n, horizon) in [(6, 20), (8, 30), (8, 46), (10, 60)] {
        cases.push((format!("tour {n}x{n}, horizon {horizon}"), tour(n), Question::Horizon(horizon)));
    }
    for horizon in [8, 16, 32] {
        cases.push((format!("guarini, horizon {horizon}"), guarini(), Question::Horizon(horizon)));
    }
    cases
}

fn encoders(c: &mut Criterion) {
    let cases = cases();
    eprintln!("{:<32} {:>10} {:>10} {:>12} {:>12}", "question", "variables", "clauses", "0-1 vars", "0-1 rows");
    for (label, puzzle, question) in &cases {
        let cnf = formula(puzzle, *question, AtMostOne::default()).expect("a formula");
        let model = linear_model(puzzle, Some(*question)).expect("a linear model");
        eprintln!(
            "{label:<32} {:>10} {:>10} {:>12} {:>12}",
            cnf.n_vars,
            cnf.cnf.len(),
            model.variables.len(),
            model.constraints.len()
        );
    }
    let mut group = c.benchmark_group("cnf");
    for (label, puzzle, question) in &cases {
        let size = formula(puzzle, *question, AtMostOne::default()).expect("a formula").cnf.len();
        group.throughput(Throughput::Elements(size as u64));
        group.bench_function(BenchmarkId::from_parameter(label), |b| {
            b.iter(|| formula(puzzle, *question, AtMostOne::default()).expect("a formula").cnf.len())
        });
    }
    group.finish();
    let mut group = c.benchmark_group("linear");
    for (label, puzzle, question) in &cases {
        let rows = linear_model(puzzle, Some(*question)).expect("a linear model").constraints.len();
        group.throughput(Throughput::Elements(rows as u64));
        group.bench_function(BenchmarkId::from_parameter(label), |b| {
            b.iter(|| linear_model(puzzle, Some(*question)).expect("a linear model").constraints.len())
        });
    }
    group.finish();
}

criterion_group!(benches, encoders);
criterion_main!(benches);

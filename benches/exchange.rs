//! Incremental versus non-incremental solving of the shipped exchange puzzles, with every
//! solver built in (`cargo bench --bench exchange`).
//!
//! Incremental: one solver serves every horizon, learnt clauses are kept, time layers are
//! appended and the goal is switched on by an assumption literal. Non-incremental: the formula
//! and the solver are rebuilt at every horizon.

use std::path::Path;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, SamplingMode};
use knights_sat::driver::{solve_exchange, ExchangeSearch, Status};
use knights_sat::encodings::puzzle::{self, ExchangePuzzle};
use knights_sat::solver::SolverKind;

fn load(name: &str) -> ExchangePuzzle {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles").join(name);
    puzzle::load(&path).expect("shipped puzzles parse").exchange().expect("an exchange").clone()
}

fn incremental_versus_rebuilt(c: &mut Criterion) {
    let mut group = c.benchmark_group("exchange");
    // Each run takes up to seconds: one run per sample, ten samples.
    group
        .sampling_mode(SamplingMode::Flat)
        .sample_size(10)
        .measurement_time(Duration::from_secs(20))
        .warm_up_time(Duration::from_millis(100));
    for name in ["guarini.toml", "guarini-3x4.toml"] {
        let puzzle = load(name);
        for solver in SolverKind::ALL {
            for incremental in [true, false] {
                let mode = if incremental { "incremental" } else { "rebuilt" };
                let id = BenchmarkId::new(format!("{solver}/{mode}"), name.trim_end_matches(".toml"));
                let search = ExchangeSearch { solver, incremental, ..ExchangeSearch::default() };
                group.bench_function(id, |b| {
                    b.iter(|| {
                        let outcome = solve_exchange(&puzzle, &search, &mut |_| {}).expect("the search runs");
                        assert_eq!(outcome.status, Status::Optimal);
                        outcome.value
                    })
                });
            }
        }
    }
    group.finish();
}

criterion_group!(benches, incremental_versus_rebuilt);
criterion_main!(benches);

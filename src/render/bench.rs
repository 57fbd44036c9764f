//! The results of `knights-sat bench`, one row per run, as a Markdown table and as CSV (the
//! chart is [`super::bench_chart`]).

use serde::Serialize;

/// The result of one run.
#[derive(Clone, Debug, Serialize)]
pub struct BenchRow {
    /// The puzzle file.
    pub puzzle: String,
    /// The configuration's label.
    pub configuration: String,
    /// `optimal`, `feasible`, `infeasible`, `unknown`, or `error` when the run failed.
    pub status: String,
    /// The best value found.
    pub value: Option<u64>,
    /// The proven bound.
    pub bound: Option<u64>,
    /// Wall-clock seconds of the run.
    pub seconds: f64,
    /// The most variables of any solver call.
    pub variables: u64,
    /// The most clauses of any solver call.
    pub clauses: u64,
}

/// The rows as a Markdown table.
pub fn markdown(rows: &[BenchRow], timeout: f64) -> String {
    let mut out = format!(
        "| puzzle | configuration | status | value | bound | seconds (limit {timeout}) | variables | clauses |\n\
         |---|---|---|---|---|---|---|---|\n"
    );
    for r in rows {
        out += &format!("| {} |\n", r.fields("-", 2, |s| s.to_string()).join(" | "));
    }
    out
}

/// The rows as CSV with a header line.
pub fn csv(rows: &[BenchRow]) -> String {
    let mut out = "puzzle,configuration,status,value,bound,seconds,variables,clauses\n".to_string();
    for r in rows {
        out += &format!("{}\n", r.fields("", 3, |s| format!("\"{}\"", s.replace('"', "\"\""))).join(","));
    }
    out
}

impl BenchRow {
    /// The row's eight fields: names through `quote`, a missing number as `missing`, seconds
    /// with `decimals` decimals.
    fn fields(&self, missing: &str, decimals: usize, quote: impl Fn(&str) -> String) -> [String; 8] {
        let number = |n: Option<u64>| n.map_or(missing.to_string(), |n| n.to_string());
        [
            quote(&self.puzzle),
            quote(&self.configuration),
            self.status.clone(),
            number(self.value),
            number(self.bound),
            format!("{:.*}", decimals, self.seconds),
            self.variables.to_string(),
            self.clauses.to_string(),
        ]
    }
}

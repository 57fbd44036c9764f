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
    /// With `bench --certify`: the same run with `--certify`, and `verify` on its certificate.
    pub certificate: Option<CertifiedRun>,
}

/// A run with `--certify` and the check of its certificate.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct CertifiedRun {
    /// Wall-clock seconds of `solve --certify` (search and proof); `None` if it wrote no
    /// certificate within the limit.
    pub seconds: Option<f64>,
    /// Wall-clock seconds of `verify`; `None` if it failed or passed the limit.
    pub verify_seconds: Option<f64>,
    /// Bytes of the proof file as stored.
    pub proof_bytes: Option<u64>,
    /// Whether the proof is the search's own tree (else a refutation of its own).
    pub from_search: bool,
    /// The SAT solver whose refutation the proof holds, when the answer names it.
    pub refuter: Option<String>,
    /// The argument that decided the bound with no refutation (`colour argument`, `distance
    /// argument`), if one did.
    pub decided_by: Option<String>,
}

/// The rows as a Markdown table.
pub fn markdown(rows: &[BenchRow], timeout: f64) -> String {
    let certified = rows.iter().any(|r| r.certificate.is_some());
    let mut out = format!(
        "| puzzle | configuration | status | value | bound | seconds (limit {timeout}) | variables | clauses |"
    );
    let mut rule = "|---|---|---|---|---|---|---|---|".to_string();
    if certified {
        out += " --certify s | verify s | proof MiB | proof from |";
        rule += "---|---|---|---|";
    }
    out += &format!("\n{rule}\n");
    for r in rows {
        let mut fields = r.fields("-", 2, |s| s.to_string()).to_vec();
        if certified {
            fields.extend(r.certificate_fields("-", 2));
        }
        out += &format!("| {} |\n", fields.join(" | "));
    }
    out
}

/// The rows as CSV with a header line.
pub fn csv(rows: &[BenchRow]) -> String {
    let certified = rows.iter().any(|r| r.certificate.is_some());
    let mut out = "puzzle,configuration,status,value,bound,seconds,variables,clauses".to_string();
    if certified {
        out += ",certify_seconds,verify_seconds,proof_mib,proof_from";
    }
    out += "\n";
    for r in rows {
        let mut fields = r.fields("", 3, |s| format!("\"{}\"", s.replace('"', "\"\""))).to_vec();
        if certified {
            fields.extend(r.certificate_fields("", 3));
        }
        out += &format!("{}\n", fields.join(","));
    }
    out
}

impl BenchRow {
    /// The four certificate fields: seconds of `--certify` and of `verify`, the proof's MiB and
    /// where the proof came from (`search`, or `refutation by` its solver); `missing` where
    /// there is none.
    fn certificate_fields(&self, missing: &str, decimals: usize) -> [String; 4] {
        let Some(c) = &self.certificate else { return std::array::from_fn(|_| missing.to_string()) };
        let seconds = |s: Option<f64>| s.map_or(missing.to_string(), |s| format!("{s:.decimals$}"));
        let mib = c.proof_bytes.map_or(missing.to_string(), |b| format!("{:.2}", b as f64 / (1024.0 * 1024.0)));
        let from = match (c.seconds, c.from_search) {
            (None, _) => missing.to_string(),
            (Some(_), true) => "search".to_string(),
            (Some(_), false) if let Some(argument) = &c.decided_by => argument.clone(),
            (Some(_), false) => match &c.refuter {
                Some(refuter) => format!("refutation by {refuter}"),
                None => "refutation".to_string(),
            },
        };
        [seconds(c.seconds), seconds(c.verify_seconds), mib, from]
    }

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

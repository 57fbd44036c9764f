//! What every family's export builds on: the questions, the formula of a horizon encoding, the
//! size limits and the DIMACS writer.

use std::io::{self, Write};

use knights_sat_encodings::encode::{HorizonEncoding, MAX_SWITCH_LITERALS};
use rustsat::instances::Cnf;

pub use knights_sat_encodings::linear::{check_model_size, FLOW_POSITIONS, MAX_EXPORT_TERMS};

/// What the exported formula asks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Question {
    /// Move puzzles: is the goal reached after exactly this many time steps?
    Horizon(usize),
    /// Placements: is there a placement with this value or better (at most this many pieces
    /// when minimising, at least when maximising)?
    Bound(usize),
}

/// Why a formula cannot be exported.
#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    /// The question does not fit the puzzle's family.
    #[error("{0}")]
    Question(String),
    /// Writing failed.
    #[error(transparent)]
    Io(#[from] io::Error),
}

/// A formula and what it says.
#[derive(Debug)]
pub struct Formula {
    /// The clauses.
    pub cnf: Cnf,
    /// Variables used (DIMACS numbers them `1..=n_vars`).
    pub n_vars: u32,
    /// One line on what a model of the formula is.
    pub meaning: String,
}

/// The error of a question that does not fit the family: `family` puzzles take `flag`.
pub fn wrong_question(family: &str, flag: &str) -> ExportError {
    ExportError::Question(format!("{family} puzzles are exported at a horizon or bound given by `{flag}`"))
}

/// The formula of a horizon encoding at `horizon`, its goal switch a unit clause; `cnf` holds
/// what the encoding wrote when it was made.
pub fn at_horizon(
    mut encoding: impl HorizonEncoding,
    mut cnf: Cnf,
    horizon: usize,
    meaning: String,
) -> Result<Formula, ExportError> {
    // A step is never smaller than the one before (the positions reachable only grow), so the
    // last step times the steps to go tells early that a formula is too big to write; where
    // the encoding can tell the next step's size before building it, that tells earlier still
    // (one step of a queen on a large board can take gigabytes).
    while encoding.horizon() < horizon {
        if let Some(size) = encoding.next_step_size() {
            let projected = cnf.len().saturating_add(size.saturating_mul(horizon - encoding.horizon()));
            if projected > MAX_EXPORT_CLAUSES {
                return Err(ExportError::Question(format!(
                    "a horizon of {horizon} needs about {projected} clauses (about {size} at step {}), more \
                     than the {MAX_EXPORT_CLAUSES} an export writes",
                    encoding.horizon() + 1
                )));
            }
        }
        let before = cnf.len();
        encoding.extend(&mut cnf);
        let step = cnf.len() - before;
        let projected = cnf.len().saturating_add(step.saturating_mul(horizon - encoding.horizon()));
        if projected > MAX_EXPORT_CLAUSES {
            return Err(ExportError::Question(format!(
                "a horizon of {horizon} needs at least {projected} clauses ({step} at step {}), more than \
                 the {MAX_EXPORT_CLAUSES} an export writes",
                encoding.horizon()
            )));
        }
    }
    if let Some(size) = encoding.goal_switch_too_big(horizon) {
        return Err(ExportError::Question(format!(
            "the goal at horizon {horizon} needs about {size} literals, more than the {MAX_SWITCH_LITERALS} \
             an export writes"
        )));
    }
    let switch = encoding.goal_switch(horizon, &mut cnf);
    cnf.add_unit(switch);
    Ok(Formula { cnf, n_vars: encoding.n_vars(), meaning })
}

/// The most clauses an exported formula may have: it is built in memory before it is written,
/// and ten million clauses take about a gigabyte there (and some 200 MB of DIMACS).
pub const MAX_EXPORT_CLAUSES: usize = 10_000_000;

/// Writes `formula` as DIMACS CNF, with `source` and its meaning in comment lines.
pub fn write_dimacs(formula: &Formula, source: &str, out: &mut dyn Write) -> Result<(), ExportError> {
    writeln!(out, "c knights-sat export of {source}")?;
    writeln!(out, "c {}", formula.meaning)?;
    let mut out = io::BufWriter::new(out);
    formula.cnf.write_dimacs(&mut out, formula.n_vars)?;
    out.flush()?;
    Ok(())
}

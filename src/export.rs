//! The formula of one question about a puzzle, as DIMACS CNF for any external SAT solver.
//!
//! A move puzzle (exchange or tour) is asked "is the goal reached after exactly `T` time
//! steps?"; a placement "is there a placement whose value is `K` or better?". The clauses are
//! the ones the solver receives in `solve` at that horizon or bound, with the goal switch or
//! the bound's output literals written as unit clauses instead of assumptions. Symmetry
//! breaking is left out of placements, so that every placement of the puzzle is a model.
//!
//! The same questions are also written as 0-1 linear models ([`linear_model`], OPB or LP): the
//! placement's covering and conflict model with its objective (given `--bound`, the bound as
//! one more constraint), and the time-indexed models of exchanges and tours at a horizon.

use std::io::{self, Write};

use knights_sat_encodings::encode::bound::{BoundEncoding, ObjectiveBound};
use knights_sat_encodings::encode::exchange::{full_step_size, ExchangeEncoding, ExchangeOptions};
use knights_sat_encodings::encode::placement::PlacementEncoding;
use knights_sat_encodings::encode::tour::{TourEncoding, TourOptions};
use knights_sat_encodings::encode::{AtMostOne, HorizonEncoding, MAX_SWITCH_LITERALS};
use knights_sat_encodings::linear::{
    exchange_model, flow_model, placement_model, tour_model, LinearModel, Relation, Sense,
};
use knights_sat_encodings::puzzle::Puzzle;
use rustsat::instances::Cnf;
use rustsat::types::{Clause, Lit};

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

/// Builds the formula of `question` about `puzzle`.
pub fn formula(puzzle: &Puzzle, question: Question, at_most_one: AtMostOne) -> Result<Formula, ExportError> {
    let mut cnf = Cnf::new();
    let wrong = |family: &str, flag: &str| {
        ExportError::Question(format!("{family} puzzles are exported at a horizon or bound given by `{flag}`"))
    };
    match (puzzle, question) {
        (Puzzle::Exchange(p), Question::Horizon(horizon)) => {
            let options = ExchangeOptions { at_most_one, ..ExchangeOptions::default() };
            let encoding = ExchangeEncoding::new(p, options, &mut cnf);
            let meaning = format!("a model is a solution of exactly {horizon} moves");
            at_horizon(encoding, cnf, horizon, meaning)
        }
        (Puzzle::Tour(p), Question::Horizon(horizon)) => {
            let options = TourOptions { at_most_one, ..TourOptions::default() };
            let encoding = TourEncoding::new(p, options, &mut cnf);
            let meaning = format!("a model is a route touching every target within {horizon} time steps");
            at_horizon(encoding, cnf, horizon, meaning)
        }
        (Puzzle::Placement(p), Question::Bound(bound)) => {
            let mut encoding = PlacementEncoding::new(p, at_most_one, &mut cnf);
            let minimise = p.goal.minimises();
            // The bound is on the cost: the objective when minimising, what is left out of
            // the greatest possible value when maximising.
            let costs: Vec<(Lit, usize)> =
                encoding.objective().iter().map(|&(lit, w)| if minimise { (lit, w) } else { (!lit, w) }).collect();
            let total: usize = costs.iter().map(|t| t.1).sum();
            let cost = if minimise { Some(bound) } else { total.checked_sub(bound) };
            match cost {
                Some(cost) => {
                    if let Some(why) = BoundEncoding::Totalizer.refusal(&costs) {
                        return Err(ExportError::Question(why));
                    }
                    let mut objective = ObjectiveBound::new(BoundEncoding::Totalizer, &costs);
                    objective.encode_ub(cost, &mut cnf, encoding.vars());
                    for lit in objective.enforce_ub(cost) {
                        cnf.add_unit(lit);
                    }
                }
                // More than every square can hold: nothing satisfies it.
                None => cnf.add_clause(Clause::new()),
            }
            let direction = if minimise { "at most" } else { "at least" };
            let meaning = format!("a model is a placement of value {direction} {bound}");
            Ok(Formula { cnf, n_vars: encoding.n_vars(), meaning })
        }
        (Puzzle::Exchange(_), Question::Bound(_)) => Err(wrong("exchange", "--horizon")),
        (Puzzle::Tour(_), Question::Bound(_)) => Err(wrong("tour", "--horizon")),
        (Puzzle::Placement(_), Question::Horizon(_)) => Err(wrong("placement", "--bound")),
    }
}

/// The formula of a horizon encoding at `horizon`, its goal switch a unit clause.
fn at_horizon(
    mut encoding: impl HorizonEncoding,
    mut cnf: Cnf,
    horizon: usize,
    meaning: String,
) -> Result<Formula, ExportError> {
    // A step is never smaller than the one before (the positions reachable only grow), so the
    // last step times the steps to go tells early that a formula is too big to write.
    while encoding.horizon() < horizon {
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

/// The most terms (non-zero coefficients) a time-indexed linear model may have, written or
/// handed to HiGHS, for the same reason.
pub const MAX_EXPORT_TERMS: usize = 10_000_000;

/// The terms of the time-indexed linear model of an exchange or a tour at `horizon`, told
/// before it is built (0 for a placement, whose model has no horizon). An exchange's step is
/// about as large as its CNF step; a tour's is what its model grows by from horizon 1 to 2,
/// and every later step adds as much.
pub fn time_indexed_terms(puzzle: &Puzzle, horizon: usize) -> usize {
    let terms = |model: LinearModel| model.constraints.iter().map(|c| c.terms.len()).sum::<usize>();
    match puzzle {
        Puzzle::Placement(_) => 0,
        Puzzle::Exchange(p) => full_step_size(p).saturating_mul(horizon),
        Puzzle::Tour(_) if horizon <= 2 => 0,
        Puzzle::Tour(p) => {
            let (one, two) = (terms(tour_model(p, 1).model), terms(tour_model(p, 2).model));
            two.saturating_add(two.saturating_sub(one).saturating_mul(horizon - 2))
        }
    }
}

/// Refuses a time-indexed linear model past [`MAX_EXPORT_TERMS`] before it is built.
pub fn check_model_size(puzzle: &Puzzle, horizon: usize, who: &str) -> Result<(), String> {
    let projected = time_indexed_terms(puzzle, horizon);
    if projected > MAX_EXPORT_TERMS {
        return Err(format!(
            "a horizon of {horizon} needs about {projected} terms in the linear model, more than the \
             {MAX_EXPORT_TERMS} {who}"
        ));
    }
    Ok(())
}

/// Writes `formula` as DIMACS CNF, with `source` and its meaning in comment lines.
pub fn write_dimacs(formula: &Formula, source: &str, out: &mut dyn Write) -> Result<(), ExportError> {
    writeln!(out, "c knights-sat export of {source}")?;
    writeln!(out, "c {}", formula.meaning)?;
    let mut out = io::BufWriter::new(out);
    formula.cnf.write_dimacs(&mut out, formula.n_vars)?;
    out.flush()?;
    Ok(())
}

/// The most positions the network-flow model of an exchange may list.
pub const FLOW_POSITIONS: usize = 1_000_000;

/// The 0-1 linear model of `puzzle`; with a question, the model of that question (for a
/// placement, the objective bounded by `K` as one more constraint). An exchange without a
/// horizon gets its network-flow model (a shortest path over positions).
pub fn linear_model(puzzle: &Puzzle, question: Option<Question>) -> Result<LinearModel, ExportError> {
    match (puzzle, question) {
        (Puzzle::Placement(p), question) => {
            let mut model = placement_model(p).map_err(|e| ExportError::Question(e.to_string()))?.model;
            if let Some(Question::Bound(bound)) = question {
                let (sense, terms) = model.objective.clone().expect("placements have an objective");
                let relation = if sense == Sense::Minimise { Relation::AtMost } else { Relation::AtLeast };
                model.constrain("bound", terms, relation, bound as i64);
                model.title.push_str(&format!("; objective {relation} {bound}"));
            }
            if let Some(Question::Horizon(_)) = question {
                return Err(ExportError::Question("placement puzzles take `--bound`, not `--horizon`".into()));
            }
            Ok(model)
        }
        (Puzzle::Tour(p), Some(Question::Horizon(horizon))) => match p.obstruction() {
            Some(reason) => Err(ExportError::Question(format!("the tour is infeasible: {reason}"))),
            None => {
                check_model_size(puzzle, horizon, "an export writes").map_err(ExportError::Question)?;
                Ok(tour_model(p, horizon).model)
            }
        },
        (Puzzle::Exchange(p), Some(Question::Horizon(horizon))) => {
            check_model_size(puzzle, horizon, "an export writes").map_err(ExportError::Question)?;
            Ok(exchange_model(p, horizon).model)
        }
        (Puzzle::Exchange(p), None) => match flow_model(p, FLOW_POSITIONS) {
            Ok(flow) => Ok(flow.model),
            Err(why) => Err(ExportError::Question(format!("{why}: give `--horizon T`"))),
        },
        (Puzzle::Tour(_), _) => {
            Err(ExportError::Question("tour puzzles are modelled at a horizon: give `--horizon T`".into()))
        }
        (Puzzle::Exchange(_), Some(Question::Bound(_))) => {
            Err(ExportError::Question("exchange puzzles take `--horizon`, not `--bound`".into()))
        }
    }
}

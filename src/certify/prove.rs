//! The certified optimisation of a 0-1 linear model, given a solution believed optimal:
//!
//! 1. `soli`: the solution is logged; VeriPB checks it against every row and records its
//!    objective value `v`, and adds the objective-improving constraint `objective <= v - 1`;
//! 2. the model's rows become clauses ([`super::derive`]), and the improving constraint becomes
//!    clauses through RustSAT's certified totalizer (the generalized totalizer when the
//!    objective has other weights than 1), derived from it in the proof;
//! 3. CaDiCaL ([`super::lrat`]) or varisat ([`super::trace`]) refutes these clauses, and each
//!    clause it learns becomes a `rup` step with hints, ending with the empty clause;
//! 4. `conclusion BOUNDS v v`: no solution is better than `v`, and one has `v`.
//!
//! The SAT variables are the model's variables (`x{i+1}` is variable `i`); the totalizer's
//! auxiliary variables come after them, introduced in the proof by their definitions.

use std::io::Write;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use pigeons::{AbsConstraintId, Conclusion, ConstraintId, OutputGuarantee, Proof, VarLike};
use rustsat::instances::{BasicVarManager, ManageVars};
use rustsat::types::{Clause, Var};

use super::argument::Argument;
use super::derive::{self, Clauses};
use super::trace;
use super::CertifyError;
use crate::encodings::linear::{LinearModel, Relation, Sense};

/// Figures of one certified proof.
#[derive(Clone, Copy, Debug, Default)]
pub struct ProofFigures {
    /// The objective value proved optimal, as OPB states it (a maximised objective negated).
    pub opb_value: i64,
    /// Rows of the model.
    pub rows: usize,
    /// Clauses given to the SAT solver.
    pub clauses: usize,
    /// Variables, the totalizers' included.
    pub variables: u32,
    /// Lemmas of the refutation.
    pub lemmas: usize,
    /// Seconds in the SAT solver.
    pub solve_seconds: f64,
    /// Seconds for everything.
    pub seconds: f64,
    /// The proof states the search's own tree ([`super::prove_tree`]); `lemmas` counts its
    /// steps.
    pub from_search: bool,
    /// The proof traces the core-guided search as it ran: the cores it logged.
    pub cores: Option<usize>,
    /// The proof traces the horizon search of a tour as it ran ([`super::traced_tour`]): the
    /// horizons it refuted.
    pub horizons: Option<usize>,
    /// Subtrees of the search's tree that the proof came to again under a symmetry it had
    /// closed them under, and took the clause of instead of writing them again.
    pub reused: usize,
    /// The SAT solver whose refutation the proof holds, if it holds one.
    pub refuter: Option<Refuter>,
    /// The family's argument that decided the bound, by [`Argument::name`]: no refutation
    /// followed.
    pub decided_by: Option<&'static str>,
    /// Pairs of moves ruled out by dominance before the refutation ([`super::swaps`]).
    pub swaps: usize,
    /// The lower bound was proved while the search ran, before its solution was known
    /// ([`super::ahead`]).
    pub ahead: bool,
}

/// The objective as OPB minimises it: a maximised objective negated.
pub fn opb_objective(model: &LinearModel) -> Result<Vec<(i64, usize)>, CertifyError> {
    let (sense, terms) =
        model.objective.as_ref().ok_or_else(|| CertifyError::Internal("the model has no objective".into()))?;
    let sign = if *sense == Sense::Maximise { -1 } else { 1 };
    Ok(terms.iter().map(|&(c, v)| (sign * c, v)).collect())
}

/// An objective as `(coefficient, variable)` terms.
pub type Objective = Vec<(i64, usize)>;

/// Checks that `solution` satisfies `model`; the objective as OPB minimises it, the
/// solution's value and the number of constraints VeriPB counts in the model.
pub fn measure(model: &LinearModel, solution: &[bool]) -> Result<(Objective, i64, usize), CertifyError> {
    if solution.len() != model.variables.len() || !model.satisfied_by(solution) {
        return Err(CertifyError::Internal("the solution does not satisfy the model".into()));
    }
    let objective = opb_objective(model)?;
    let value: i64 = objective.iter().filter(|t| solution[t.1]).map(|t| t.0).sum();
    let rows: usize = model.constraints.iter().map(derive::row_count).sum();
    Ok((objective, value, rows))
}

/// The SAT solver whose traced refutation becomes the proof.
///
/// Neither is faster on every model certified here (Guarini 3x4 about the same; Finegold's
/// puzzle and 14 bishops slower with CaDiCaL, with more lemmas; a lone knight around a queen on
/// b2 of a 7x7 board ten times faster with it), so with two cores a certificate races both
/// (`race.rs`); varisat, the default, refutes alone on one core.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Refuter {
    /// CaDiCaL, traced in LRAT (on Unix, where its trace comes through a pipe).
    Cadical,
    /// varisat, traced by its own proof checker.
    #[default]
    Varisat,
}

impl Refuter {
    /// The solver's name, as `--solver` spells it.
    pub fn name(self) -> &'static str {
        match self {
            Refuter::Cadical => "cadical",
            Refuter::Varisat => "varisat",
        }
    }
}

/// Writes the proof that `solution` is optimal for `model` into `writer`; `argument`, the
/// family's, comes before the search ([`Argument`]), and `refuter` refutes what is left.
pub fn prove_optimal<W: Write>(
    model: &LinearModel,
    solution: &[bool],
    argument: Option<&Argument>,
    refuter: Refuter,
    writer: W,
) -> Result<ProofFigures, CertifyError> {
    prove_optimal_until(model, solution, argument, refuter, writer, &AtomicBool::new(false))
}

/// [`prove_optimal`], stopped with [`CertifyError::Stopped`] once `stop` is set (by a
/// refutation racing this one that finished first).
pub fn prove_optimal_until<W: Write>(
    model: &LinearModel,
    solution: &[bool],
    argument: Option<&Argument>,
    refuter: Refuter,
    writer: W,
    stop: &AtomicBool,
) -> Result<ProofFigures, CertifyError> {
    let started = Instant::now();
    let (objective, value, rows) = measure(model, solution)?;
    let mut proof = Proof::new(writer, rows, true)?;
    proof.comment(&model.title)?;
    proof.comment(&format!("the solution below has objective value {value}"))?;
    let improving = proof.improve_solution((0..solution.len()).map(|i| derive::var(i).axiom(!solution[i])))?;

    let n = u32::try_from(model.variables.len()).map_err(|_| CertifyError::Internal("too many variables".into()))?;
    let mut vars = BasicVarManager::from_next_free(Var::new(n));
    let mut clauses = Clauses::default();
    let bound = value - 1;
    let alone = argument.is_some_and(Argument::decides_alone);
    // The least value any solution could have, weighed against the bound.
    let least: i64 = objective.iter().map(|&(c, _)| c.min(0)).sum();
    if !alone {
        proof.comment(&"the objective-improving constraint as clauses (certified totalizer)")?;
    }
    let contradiction = match derive::cardinality(&objective, Relation::AtMost, bound) {
        // An argument that decides alone reads the improving constraint itself.
        _ if alone => least > bound,
        Some((lits, k)) if k > lits.len() as i64 => true,
        Some((lits, k)) => {
            derive::at_least(lits, k, improving, &mut clauses, &mut vars, &mut proof)?;
            false
        }
        None => {
            // Weights other than 1: the generalized totalizer, unless the bound is out of reach.
            if least > bound {
                true
            } else {
                derive::weighted_at_most(&objective, bound, improving, &mut clauses, &mut vars, &mut proof)?;
                false
            }
        }
    };
    let swaps = swaps_before_rows(argument, &mut proof, &mut vars, &mut clauses)?;
    let row_ids = if alone { row_numbers(model) } else { rows_as_clauses(model, &mut clauses, &mut vars, &mut proof)? };
    let mut figures = ProofFigures { opb_value: value, rows, swaps, ..ProofFigures::default() };
    let empty = if contradiction {
        figures.clauses = clauses.clauses.len();
        figures.variables = vars.n_used();
        proof.reverse_unit_prop(&Clause::new(), [ConstraintId::from(improving)])?
    } else {
        let objective = Some((improving, bound));
        refute(clauses, &mut vars, (argument, objective, &row_ids), (refuter, stop), &mut proof, &mut figures)?
    };
    let range = isize::try_from(value).map_err(|_| CertifyError::Internal("value out of range".into()))?;
    let conclusion = Conclusion::<Var>::Bounds { range: range..range + 1, lb_id: Some(empty.into()), ub_sol: None };
    let mut writer = proof.conclude(OutputGuarantee::None, &conclusion)?;
    writer.flush()?;
    figures.seconds = started.elapsed().as_secs_f64();
    Ok(figures)
}

/// Writes the proof that `model` has no solution at all into `writer`: its rows as clauses,
/// `argument`, the family's, the refutation by `refuter`, and
/// `conclusion UNSAT`. The model's objective, if any, plays no part.
pub fn prove_refuted<W: Write>(
    model: &LinearModel,
    argument: Option<&Argument>,
    refuter: Refuter,
    writer: W,
) -> Result<ProofFigures, CertifyError> {
    let started = Instant::now();
    let rows: usize = model.constraints.iter().map(derive::row_count).sum();
    let mut proof = Proof::new(writer, rows, false)?;
    proof.comment(&model.title)?;
    let n = u32::try_from(model.variables.len()).map_err(|_| CertifyError::Internal("too many variables".into()))?;
    let mut vars = BasicVarManager::from_next_free(Var::new(n));
    let mut clauses = Clauses::default();
    let swaps = swaps_before_rows(argument, &mut proof, &mut vars, &mut clauses)?;
    let row_ids = rows_as_clauses(model, &mut clauses, &mut vars, &mut proof)?;
    let mut figures = ProofFigures { rows, swaps, ..ProofFigures::default() };
    let search = (refuter, &AtomicBool::new(false));
    let empty = refute(clauses, &mut vars, (argument, None, &row_ids), search, &mut proof, &mut figures)?;
    let mut writer = proof.conclude(OutputGuarantee::None, &Conclusion::<Var>::Unsat(Some(empty.into())))?;
    writer.flush()?;
    figures.seconds = started.elapsed().as_secs_f64();
    Ok(figures)
}

/// The canonical order of moves, if `argument` is one, stated before the rows become clauses:
/// loading the order moves every constraint derived so far into VeriPB's core, and a swap's
/// witness must then satisfy them, which the definitions of a totalizer over the moves of a
/// step would not be. The number of swaps.
pub(super) fn swaps_before_rows<W: Write>(
    argument: Option<&Argument>,
    proof: &mut Proof<W>,
    vars: &mut BasicVarManager,
    clauses: &mut Clauses,
) -> Result<usize, CertifyError> {
    match argument {
        Some(Argument::Swaps(order)) => super::swaps::derive(order, proof, vars, clauses),
        _ => Ok(0),
    }
}

/// The rows of `model` as clauses for the solver, derived where they must be; the number of
/// each row in VeriPB's database.
pub(super) fn rows_as_clauses<W: Write>(
    model: &LinearModel,
    clauses: &mut Clauses,
    vars: &mut BasicVarManager,
    proof: &mut Proof<W>,
) -> Result<Vec<usize>, CertifyError> {
    proof.comment(&"the model's rows as clauses: clause rows and \"at most one\" rows need no steps; others by the certified totalizer")?;
    let row_ids = row_numbers(model);
    for (row, &id) in model.constraints.iter().zip(&row_ids) {
        derive::derive_row(row, id, clauses, vars, proof)?;
    }
    Ok(row_ids)
}

/// The number of each row of `model` in VeriPB's database: an equality counts twice.
fn row_numbers(model: &LinearModel) -> Vec<usize> {
    let mut id = 1;
    let mut row_ids = Vec::with_capacity(model.constraints.len());
    for row in &model.constraints {
        row_ids.push(id);
        id += derive::row_count(row);
    }
    row_ids
}

/// The family's argument if there is one (`argument`, with the objective-improving constraint and
/// the value it bounds, if any, and the rows' numbers), then the refutation of what is left by
/// `refuter`, until `stop` is set; the number of the empty clause. The figures of the formula
/// and of the refutation go into `figures`.
fn refute<W: Write>(
    clauses: Clauses,
    vars: &mut BasicVarManager,
    (argument, objective, row_ids): (Option<&Argument>, Option<(AbsConstraintId, i64)>, &[usize]),
    (refuter, stop): (Refuter, &AtomicBool),
    proof: &mut Proof<W>,
    figures: &mut ProofFigures,
) -> Result<AbsConstraintId, CertifyError> {
    let mut clauses = clauses;
    let decided = match (argument, objective) {
        (Some(Argument::Lone(argument)), _) => super::colour::derive(argument, row_ids, proof, &mut clauses)?,
        (Some(Argument::Swaps(_)), _) => None,
        (Some(Argument::Distances(argument)), Some(objective)) => {
            Some(super::distances::derive(argument, row_ids, objective, proof)?)
        }
        (Some(Argument::Landings(argument)), Some((improving, bound))) => match argument.deciding_colour(bound) {
            Some(x) => Some(super::landings::derive(argument, x, (row_ids, improving, bound), proof, vars)?),
            None => None,
        },
        _ => None,
    };
    let (formula, origins): (Vec<Clause>, Vec<Option<AbsConstraintId>>) = clauses.clauses.into_iter().unzip();
    figures.clauses = formula.len();
    figures.variables = vars.n_used();
    if let Some(empty) = decided {
        figures.decided_by = argument.map(Argument::name);
        return Ok(empty);
    }
    let (empty, refutation) = match refuter {
        #[cfg(unix)]
        Refuter::Cadical => {
            proof.comment(&"the refutation by CaDiCaL: every LRAT lemma by reverse unit propagation, with hints")?;
            super::lrat::refute(&formula, &origins, proof, stop)?
        }
        #[cfg(not(unix))]
        Refuter::Cadical => return Err(CertifyError::Unsupported("CaDiCaL's proof trace needs Unix".into())),
        Refuter::Varisat => {
            proof
                .comment(&"the refutation by varisat: every learned clause by reverse unit propagation, with hints")?;
            trace::refute(&formula, &origins, proof, stop)?
        }
    };
    figures.lemmas = refutation.lemmas;
    figures.solve_seconds = refutation.seconds;
    figures.refuter = Some(refuter);
    Ok(empty)
}

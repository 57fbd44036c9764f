//! The core-guided search certified as it runs: the search of
//! [`crate::driver::run_core_guided`] on the clauses of the 0-1 model, with CaDiCaL
//! tracing every clause it learns (in LRAT, [`super::lrat::Traced`]) and every step of the
//! search written into the VeriPB proof as it is taken:
//!
//! - the model's rows become clauses as for a refutation ([`super::derive`]);
//! - independence: a kind an optimal placement never needs on a square is ruled out there by
//!   `red`, with the trade for the kind that dominates it as the witness;
//! - each core (the failed assumptions of an unsatisfiable call) is a `rup` clause;
//! - a core is relaxed by RustSAT's certified totalizer, whose outputs are defined in the proof
//!   by their two half-reifications ("output `k` exactly when `k` inputs are true");
//! - a group of softs of which at most one holds gets a new variable defined by `red`, and its
//!   count "all but one of them cost" is derived by `pol` from the rules' pairwise clauses.
//!
//! At the end one `pol` step adds up each reason the lower bound rose, times its weight: each
//! core clause, each group's count, each ruled-out kind, and each totalizer's inputs counted
//! against its outputs (`inputs >= outputs`, derived by `pol` and division from the outputs'
//! definitions). The weights never exceed what the search took from each soft, so the sum
//! bounds the cost; with the auxiliary variables weakened out of it and every other derived
//! constraint deleted, the best placement is logged (`soli`), and its objective-improving
//! constraint contradicts the sum: `conclusion BOUNDS v v`.

use std::collections::HashMap;
use std::io::Write;
use std::time::Instant;

use knights_sat_encodings::check::check_placement;
use knights_sat_encodings::linear::{placement_model, PlacementModel};
use knights_sat_encodings::puzzle::placement::{PlacementGoal, PlacementPuzzle};
use pigeons::{AbsConstraintId, Conclusion, ConstraintId, OperationSequence, OutputGuarantee, Proof, VarLike};
use rustsat::encodings::card::cert::BoundUpperIncremental as _;
use rustsat::encodings::card::{BoundUpper as _, Totalizer};
use rustsat::instances::{BasicVarManager, ManageVars};
use rustsat::types::constraints::PbConstraint;
use rustsat::types::{Clause, Lit, Var};

use super::derive::{self, Clauses};
use super::lrat::{Traced, Translator};
use super::prove::ProofFigures;
use super::CertifyError;
use crate::driver::{run_core_guided, CoreOracle, Counted, PlacementSearch, Strategy};
use crate::driver::{Event, Query, Solution, StepStats};
use crate::encodings::linear::Relation;
use crate::solver::{Answer, SolverKind};
use crate::Error;

/// Whether `search` on `puzzle` runs as the certified core-guided search: the strategy is the
/// core-guided one, on CaDiCaL, and every row of the model is a cardinality row.
pub fn applies(puzzle: &PlacementPuzzle, search: &PlacementSearch) -> bool {
    cfg!(unix)
        && search.strategy.resolve(puzzle) == Strategy::CoreGuided
        && search.solver == SolverKind::Cadical
        && placement_model(puzzle).is_ok_and(|m| m.model.constraints.iter().all(cardinality))
}

/// Whether `row` is a cardinality row ([`derive::at_least`] takes it).
fn cardinality(row: &crate::encodings::linear::Constraint) -> bool {
    derive::halves(row, 0).into_iter().all(|(relation, _)| derive::cardinality(&row.terms, relation, row.rhs).is_some())
}

/// What a certified core-guided search ended with.
pub struct Certified {
    /// The best placement and its objective value, if any.
    pub best: Option<(Solution, usize)>,
    /// The proof's figures; `None` unless the search ended with the optimum proved.
    pub figures: Option<ProofFigures>,
}

/// A reason the lower bound rose, as the final sum takes it.
enum Reason {
    /// A constraint of the database, `sum of literals >= k`: a core clause, a group's count, a
    /// ruled-out kind.
    Constraint(AbsConstraintId, Vec<Lit>),
    /// A totalizer: its inputs counted against its outputs, and its first output true.
    Totalizer(usize),
}

/// A totalizer of the certified search.
struct CertifiedTotalizer {
    encoding: Totalizer,
    inputs: Vec<Lit>,
}

/// The best placement found so far.
#[derive(Clone)]
struct Best {
    /// A value per model variable.
    values: Vec<bool>,
    cost: usize,
    /// The objective value as OPB states it.
    opb_value: i64,
    /// The placement and its objective value.
    found: (Solution, usize),
}

/// The core-guided search's oracle that proves as it goes.
struct Oracle<'a, W: Write> {
    puzzle: &'a PlacementPuzzle,
    model: &'a PlacementModel,
    proof: Proof<W>,
    solver: Traced,
    translator: Translator,
    vars: BasicVarManager,
    clauses: usize,
    costs: Vec<(Lit, usize)>,
    /// The summed weight of the costs.
    total: usize,
    minimise: bool,
    exclusive: Vec<(Lit, Lit)>,
    assumed: Vec<Lit>,
    cores: HashMap<Vec<Lit>, AbsConstraintId>,
    /// Each group's count and its literals, by the new soft's literal.
    groups: HashMap<Lit, (AbsConstraintId, Vec<Lit>)>,
    totalizers: Vec<CertifiedTotalizer>,
    reasons: Vec<(Reason, usize)>,
    /// The objective as OPB minimises it.
    objective: super::prove::Objective,
    best: Option<Best>,
    emit: &'a mut dyn FnMut(Event),
    failure: Option<CertifyError>,
}

/// The error a proof step's failure becomes inside the search.
fn internal(e: impl std::fmt::Display) -> Error {
    Error::Internal(format!("certifying the core-guided search: {e}"))
}

impl<W: Write> Oracle<'_, W> {
    /// Hands `clause` to the solver, named in the proof by `origin`.
    fn add(&mut self, clause: &[Lit], origin: Option<AbsConstraintId>) -> Result<(), CertifyError> {
        self.solver.add(clause)?;
        self.translator.origins.push(origin);
        self.clauses += 1;
        Ok(())
    }

    /// Hands every clause of `clauses` to the solver.
    fn add_all(&mut self, clauses: Clauses) -> Result<(), CertifyError> {
        for (clause, origin) in clauses.clauses {
            let lits: Vec<Lit> = clause.iter().copied().collect();
            self.add(&lits, origin)?;
        }
        Ok(())
    }

    fn value_of(&self, cost: usize) -> usize {
        if self.minimise {
            cost
        } else {
            self.total.saturating_sub(cost)
        }
    }

    /// `sum of literals >= k` as a constraint.
    fn at_least(lits: impl IntoIterator<Item = (Lit, usize)>, k: usize) -> PbConstraint {
        PbConstraint::new_lb_unsigned(lits, k as isize)
    }

    /// The count of totalizer `t`: its inputs minus its outputs `1..=m`, at least 0, derived
    /// from each output's "only if" definition, `m` times the count up to `m` plus the
    /// definition of `m + 1`, divided by `m + 1`; with the outputs.
    fn count(&mut self, t: usize) -> Result<(AbsConstraintId, Vec<Lit>), CertifyError> {
        let totalizer = &self.totalizers[t].encoding;
        let defined = totalizer.n_output_lits().min(self.totalizers[t].inputs.len());
        let mut definitions = Vec::new();
        let mut outputs = Vec::new();
        for value in 1..=defined {
            match totalizer.output_proof_details(value) {
                Ok((output, semantics)) => match semantics.only_if_def {
                    Some(id) => {
                        definitions.push(id);
                        outputs.push(output);
                    }
                    None => break,
                },
                Err(_) => break,
            }
        }
        let Some((&first, rest)) = definitions.split_first() else {
            return Err(CertifyError::Internal(format!("totalizer {t} has no output defined")));
        };
        let mut count = first;
        for (m, &next) in rest.iter().enumerate() {
            let m = m + 1;
            count = self.proof.operations::<Var>(&((OperationSequence::from(count) * m + next) / (m + 1)))?;
        }
        Ok((count, outputs))
    }

    /// The end of the proof. The reasons, each times its weight, add up to "the cost is at least
    /// the bound"; the auxiliary variables are weakened out of that sum, every other derived
    /// constraint is deleted, and only then is the best placement logged (`soli` checks a
    /// placement against every constraint, and the auxiliary variables are not the
    /// placement's), whose objective-improving constraint the sum contradicts. The number of
    /// the empty clause and the OPB value.
    fn conclude(&mut self) -> Result<(AbsConstraintId, i64), CertifyError> {
        let Some(Best { values, opb_value, .. }) = self.best.clone() else {
            return Err(CertifyError::Internal("the certified search logged no placement".into()));
        };
        let mut parts: Vec<(AbsConstraintId, Vec<Lit>, usize)> = Vec::new();
        let reasons = std::mem::take(&mut self.reasons);
        for (reason, weight) in reasons {
            match reason {
                Reason::Constraint(id, lits) => parts.push((id, lits, weight)),
                Reason::Totalizer(t) => {
                    let (count, outputs) = self.count(t)?;
                    let first = *outputs
                        .first()
                        .ok_or_else(|| CertifyError::Internal(format!("totalizer {t} has no first output")))?;
                    let unit: Clause = [first].into_iter().collect();
                    let first_true = self.proof.reverse_unit_prop(&unit, std::iter::empty::<ConstraintId>())?;
                    let mut lits = self.totalizers[t].inputs.clone();
                    lits.extend(outputs.iter().map(|&o| !o));
                    parts.push((count, lits, weight));
                    parts.push((first_true, vec![first], weight));
                }
            }
        }
        let n = self.model.model.variables.len();
        let bound = if parts.is_empty() {
            None
        } else {
            // The sum, and each auxiliary variable's coefficient in it (on its positive literal).
            let mut sum = OperationSequence::<Var>::empty();
            let mut coefficients: HashMap<Var, i64> = HashMap::new();
            for (id, lits, weight) in &parts {
                let term = OperationSequence::<Var>::from(*id) * *weight;
                sum = if sum.is_empty() { term } else { sum + term };
                for lit in lits {
                    let signed = if lit.is_pos() { *weight as i64 } else { -(*weight as i64) };
                    *coefficients.entry(lit.var()).or_default() += signed;
                }
            }
            let mut auxiliary: Vec<(Var, i64)> =
                coefficients.into_iter().filter(|&(v, c)| v.idx() >= n && c != 0).collect();
            auxiliary.sort_unstable();
            for (var, c) in auxiliary {
                // `c x` (or `-c x`, that is `c ~x - c`) cancelled by the axiom of the other
                // literal, `~x >= 0` (or `x >= 0`), times `|c|`.
                sum += var.axiom(c > 0) * c.unsigned_abs() as usize;
            }
            Some(self.proof.operations::<Var>(&sum)?)
        };
        let first = self.proof.first_proof_id();
        let end = bound.unwrap_or_else(|| self.proof.next_id());
        if first < end {
            self.proof.delete_id_range(ConstraintId::from(first)..ConstraintId::from(end))?;
        }
        self.proof.comment(&"the best placement, checked against the model and the bound above")?;
        let improving = self.proof.improve_solution((0..values.len()).map(|i| derive::var(i).axiom(!values[i])))?;
        let contradiction = match bound {
            Some(bound) => self.proof.operations::<Var>(&(OperationSequence::from(improving) + bound))?,
            None => improving,
        };
        let empty = self.proof.reverse_unit_prop(&Clause::new(), [ConstraintId::from(contradiction)])?;
        Ok((empty, opb_value))
    }

    fn fail(&mut self, e: CertifyError) -> Error {
        let error = internal(&e);
        self.failure.get_or_insert(e);
        error
    }
}

impl<W: Write> CoreOracle for Oracle<'_, W> {
    fn costs(&self) -> Vec<(Lit, usize)> {
        self.costs.clone()
    }

    fn solve(&mut self, asked: Option<usize>, assumptions: &[Lit]) -> Result<Answer, Error> {
        let horizon = asked.map_or(0, |cost| self.value_of(cost.min(self.total)));
        (self.emit)(Event::Trying { horizon, query: Query::Bound });
        let clock = Instant::now();
        let satisfiable = self.solver.solve(assumptions).map_err(|e| self.fail(e))?;
        let drained = self.solver.drain(&mut self.translator, &mut self.proof);
        drained.map_err(|e| self.fail(e))?;
        if !satisfiable && !assumptions.is_empty() {
            self.translator.skip_untraced();
        }
        self.assumed = assumptions.to_vec();
        let result = if satisfiable { Answer::Sat } else { Answer::Unsat };
        (self.emit)(Event::Step(StepStats {
            horizon,
            query: Query::Bound,
            variables: self.vars.n_used(),
            clauses: self.clauses,
            conflicts: None,
            seconds: clock.elapsed().as_secs_f64(),
            result,
            answered_by: None,
            thread: None,
        }));
        Ok(result)
    }

    fn failed_assumptions(&mut self) -> Vec<Lit> {
        let mut core: Vec<Lit> = self.assumed.iter().copied().filter(|&l| self.solver.failed(l)).collect();
        core.sort_unstable();
        core.dedup();
        if !self.cores.contains_key(&core) {
            let clause: Clause = core.iter().map(|&l| !l).collect();
            match self.proof.reverse_unit_prop(&clause, std::iter::empty::<ConstraintId>()) {
                Ok(id) => {
                    self.cores.insert(core.clone(), id);
                }
                Err(e) => {
                    self.failure.get_or_insert(e.into());
                }
            }
        }
        core
    }

    fn record_solution(&mut self) -> Result<usize, Error> {
        let values: Vec<bool> =
            (0..self.model.model.variables.len()).map(|i| self.solver.value(derive::var(i).pos_lit())).collect();
        let placement = self.model.placement(&values);
        let value = check_placement(self.puzzle, &placement)?;
        let cost = if self.minimise { value } else { self.total.saturating_sub(value) };
        if self.best.as_ref().is_none_or(|b| cost < b.cost) {
            let opb_value: i64 = self.objective.iter().filter(|t| values[t.1]).map(|t| t.0).sum();
            let found = (Solution::Placement(placement.clone()), value);
            self.best = Some(Best { values, cost, opb_value, found });
        }
        (self.emit)(Event::Solution { value, solution: Solution::Placement(placement) });
        Ok(cost)
    }

    fn exclusive_pairs(&self) -> Vec<(Lit, Lit)> {
        self.exclusive.clone()
    }

    fn prove_at_least(&mut self, cost: usize) {
        let bound = self.value_of(cost.min(self.total));
        (self.emit)(Event::Bound(bound));
    }

    fn prove_infeasible(&mut self) {
        (self.emit)(Event::Infeasible("no placement satisfies the rules".to_string()));
    }

    fn one_of(&mut self, softs: &[Lit]) -> Result<Lit, Error> {
        let proved = (|| -> Result<Lit, CertifyError> {
            let one_holds = self.vars.new_lit();
            let n = softs.len();
            self.proof.comment(&format_args!("a group of {n} softs of which at most one holds"))?;
            // one_holds -> some soft holds; some soft holds -> one_holds.
            let clause: Clause = std::iter::once(!one_holds).chain(softs.iter().copied()).collect();
            let upward = self.proof.redundant(&clause, [one_holds.var().substitute_fixed(false)], None)?;
            let weighted = std::iter::once((one_holds, n)).chain(softs.iter().map(|&s| (!s, 1)));
            let downward =
                self.proof.redundant(&Self::at_least(weighted, n), [one_holds.var().substitute_fixed(true)], None)?;
            // At most one soft holds, from the pairwise clauses, one soft at a time.
            let mut pairs = Vec::with_capacity(n);
            for (i, &b) in softs.iter().enumerate() {
                let mut row = Vec::with_capacity(i);
                for &a in &softs[..i] {
                    let pair: Clause = [!a, !b].into_iter().collect();
                    row.push(self.proof.reverse_unit_prop(&pair, std::iter::empty::<ConstraintId>())?);
                }
                pairs.push(row);
            }
            let mut at_most_one = pairs[1][0];
            for (m, row) in pairs.iter().enumerate().skip(2) {
                let mut sum = OperationSequence::<Var>::from(at_most_one) * (m - 1);
                for &pair in row {
                    sum += pair;
                }
                at_most_one = self.proof.operations::<Var>(&(sum / m))?;
            }
            // All but one of them cost, or one_holds is false.
            let count =
                self.proof.operations::<Var>(&((OperationSequence::from(at_most_one) * (n - 1) + downward) / n))?;
            let counted = softs.iter().map(|&s| !s).chain(std::iter::once(one_holds)).collect();
            self.groups.insert(one_holds, (count, counted));
            let lits: Vec<Lit> = clause.iter().copied().collect();
            self.add(&lits, Some(upward))?;
            Ok(one_holds)
        })();
        proved.map_err(|e| self.fail(e))
    }

    fn refute(&mut self, assume: Lit) -> Result<(), Error> {
        let core = self.cores.get(&vec![assume]).copied();
        self.add(&[!assume], core).map_err(|e| self.fail(e))
    }

    fn totalizer(&mut self, inputs: Vec<Lit>) -> usize {
        self.totalizers.push(CertifiedTotalizer { encoding: inputs.iter().copied().collect(), inputs });
        self.totalizers.len() - 1
    }

    fn bound_literal(&mut self, t: usize, k: usize) -> Result<Option<Lit>, Error> {
        let proved = (|| -> Result<Option<Lit>, CertifyError> {
            if k >= self.totalizers[t].inputs.len() {
                return Ok(None);
            }
            let mut clauses = Clauses::default();
            if self.totalizers[t].encoding.n_output_lits() == 0 {
                self.proof.comment(&format_args!("a totalizer over a core of {}", self.totalizers[t].inputs.len()))?;
            }
            self.totalizers[t]
                .encoding
                .encode_ub_change_cert(0..=k, &mut clauses, &mut self.vars, &mut self.proof)
                .map_err(|e| CertifyError::Internal(format!("certified totalizer: {e}")))?;
            self.add_all(clauses)?;
            let lits = self.totalizers[t]
                .encoding
                .enforce_ub(k)
                .map_err(|_| CertifyError::Internal("a bound not encoded".into()))?;
            match lits[..] {
                [] => Ok(None),
                [lit] => Ok(Some(lit)),
                _ => Err(CertifyError::Unsupported("a totalizer bound of several literals".into())),
            }
        })();
        proved.map_err(|e| self.fail(e))
    }

    fn counted(&mut self, why: Counted, weight: usize) -> Result<(), Error> {
        let reason = match why {
            Counted::Group { one_holds, .. } => {
                self.groups.get(&one_holds).map(|(id, lits)| Reason::Constraint(*id, lits.clone()))
            }
            Counted::Core { mut core, totalizer } => {
                core.sort_unstable();
                let id = self.cores.get(&core).copied();
                match totalizer {
                    Some(t) => id.map(|_| Reason::Totalizer(t)),
                    None => id.map(|id| Reason::Constraint(id, core.iter().map(|&a| !a).collect())),
                }
            }
        };
        let reason =
            reason.ok_or_else(|| self.fail(CertifyError::Internal("a bound rose without its proof".into())))?;
        self.reasons.push((reason, weight));
        Ok(())
    }
}

/// For each square, the kind that an optimal placement never needs there and the kind that
/// takes its place ([`PlacementPuzzle::dominating_kinds`]), when no kind has count limits
/// (whose rows the trade would have to be shown to keep).
fn dominated(puzzle: &PlacementPuzzle) -> Vec<(usize, usize, usize)> {
    if puzzle.goal != PlacementGoal::Independence || puzzle.kinds.iter().any(|r| r.min > 0 || r.max.is_some()) {
        return Vec::new();
    }
    let takers = puzzle.dominating_kinds().into_iter().enumerate();
    takers.flat_map(|(s, row)| row.into_iter().enumerate().filter_map(move |(b, a)| Some((s, b, a?)))).collect()
}

/// Runs the certified core-guided search on `puzzle` and writes its proof into `writer`;
/// every call, placement and bound is reported to `on_event` as the plain search reports them.
pub fn search<W: Write>(
    puzzle: &PlacementPuzzle,
    writer: W,
    on_event: &mut dyn FnMut(Event),
) -> Result<Certified, CertifyError> {
    let started = Instant::now();
    let model = placement_model(puzzle).map_err(|e| CertifyError::Unsupported(e.to_string()))?;
    let rows: usize = model.model.constraints.iter().map(derive::row_count).sum();
    let mut proof = Proof::new(writer, rows, true)?;
    proof.comment(&model.model.title)?;
    proof.comment(&"the core-guided search, certified as it runs")?;
    // Derived constraints stay apart from the model's (not moved to the core), so that they
    // may be deleted freely before the best placement is logged at the end.
    proof.strengthening_to_core(false)?;
    let n =
        u32::try_from(model.model.variables.len()).map_err(|_| CertifyError::Internal("too many variables".into()))?;
    let mut vars = BasicVarManager::from_next_free(Var::new(n));
    let index: HashMap<&str, usize> =
        model.model.variables.iter().enumerate().map(|(i, name)| (name.as_str(), i)).collect();
    let variable = |s: usize, k: usize| {
        let name = format!(
            "{}_{}",
            puzzle.kinds[k].kind.letter(),
            puzzle.board.name(knights_sat_encodings::geometry::Square(s as u16))
        );
        index.get(name.as_str()).copied()
    };
    // Kinds ruled out by dominance.
    let mut ruled_out: HashMap<usize, AbsConstraintId> = HashMap::new();
    let trades = dominated(puzzle);
    if !trades.is_empty() {
        proof.comment(&"kinds an optimal placement never needs, each traded for one that attacks less")?;
    }
    for (s, b, a) in trades {
        let (Some(xb), Some(xa)) = (variable(s, b), variable(s, a)) else { continue };
        let unit: Clause = [derive::var(xb).neg_lit()].into_iter().collect();
        let witness = [derive::var(xb).substitute_fixed(false), derive::var(xa).substitute_fixed(true)];
        ruled_out.insert(xb, proof.redundant(&unit, witness, None)?);
    }
    let mut clauses = Clauses::default();
    let mut id = 1;
    for row in &model.model.constraints {
        derive::derive_row(row, id, &mut clauses, &mut vars, &mut proof)?;
        id += derive::row_count(row);
    }
    let mut exclusive = Vec::new();
    for row in &model.model.constraints {
        if row.relation == Relation::AtMost && row.rhs == 1 && row.terms.iter().all(|t| t.0 == 1) {
            let members: Vec<usize> = row.terms.iter().map(|t| t.1).filter(|v| !ruled_out.contains_key(v)).collect();
            for (i, &a) in members.iter().enumerate() {
                exclusive
                    .extend(members[i + 1..].iter().map(|&b| (derive::var(a).pos_lit(), derive::var(b).pos_lit())));
            }
        }
    }
    let objective = super::prove::opb_objective(&model.model)?;
    let mut costs = Vec::new();
    let mut reasons = Vec::new();
    for &(c, v) in &objective {
        let weight = c.unsigned_abs() as usize;
        let cost = if c > 0 { derive::var(v).pos_lit() } else { derive::var(v).neg_lit() };
        match ruled_out.get(&v) {
            // Ruled out: it costs its weight in every placement, a reason of its own.
            Some(&unit) if c < 0 => reasons.push((Reason::Constraint(unit, vec![cost]), weight)),
            Some(_) => {}
            None if c != 0 => costs.push((cost, weight)),
            None => {}
        }
    }
    let total = costs.iter().map(|c| c.1).sum();
    let solver = Traced::new()?;
    let mut oracle = Oracle {
        puzzle,
        model: &model,
        proof,
        solver,
        translator: Translator::default(),
        vars,
        clauses: 0,
        costs,
        total,
        minimise: puzzle.goal.minimises(),
        exclusive,
        assumed: Vec::new(),
        cores: HashMap::new(),
        groups: HashMap::new(),
        totalizers: Vec::new(),
        reasons,
        objective,
        best: None,
        emit: on_event,
        failure: None,
    };
    oracle.add_all(clauses)?;
    for (&v, &unit) in &ruled_out {
        oracle.add(&[derive::var(v).neg_lit()], Some(unit))?;
    }
    let searched = run_core_guided(&mut oracle);
    if let Some(failure) = oracle.failure.take() {
        return Err(failure);
    }
    searched?;
    let best = oracle.best.as_ref().map(|b| b.found.clone());
    if best.is_none() {
        return Ok(Certified { best, figures: None });
    }
    let (empty, opb_value) = oracle.conclude()?;
    let range = isize::try_from(opb_value).map_err(|_| CertifyError::Internal("value out of range".into()))?;
    let conclusion = Conclusion::<Var>::Bounds { range: range..range + 1, lb_id: Some(empty.into()), ub_sol: None };
    let figures = ProofFigures {
        opb_value,
        rows,
        clauses: oracle.clauses,
        variables: oracle.vars.n_used(),
        lemmas: oracle.translator.count,
        solve_seconds: 0.0,
        seconds: started.elapsed().as_secs_f64(),
        from_search: true,
        cores: Some(oracle.cores.len()),
        reused: 0,
        refuter: Some(super::Refuter::Cadical),
        decided_by: None,
        swaps: 0,
        ahead: false,
        horizons: None,
    };
    let mut writer = oracle.proof.conclude(OutputGuarantee::None, &conclusion)?;
    writer.flush()?;
    Ok(Certified { best, figures: Some(figures) })
}

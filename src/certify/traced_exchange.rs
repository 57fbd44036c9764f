//! The certified horizon search of an exchange: the search is its own certificate.
//!
//! The search runs on the certified model itself, the model of at most `T` moves
//! ([`exchange_model_at_most`]), with `T` chosen before it starts ([`first_horizon`]). In that
//! model "at most `k` moves" is the single literal `~moved_{k+1}` (steps without a move come
//! only after the last move), so one CaDiCaL, traced in LRAT ([`super::lrat::Traced`]), asks
//! `k = 0, 1, …` in turn under that assumption, and the proof is written as it goes:
//!
//! 1. with the canonical order, its swaps of independent moves by dominance ([`super::swaps`]);
//! 2. the model's rows as clauses ([`super::prove`]);
//! 3. clauses that spare the solver hopeless positions, each by `rup`: a piece cannot stand
//!    on a square farther from its start than the time (in the order of time), and a piece
//!    farther from its goal than the moves left before step `k + 1` makes none means
//!    `moved_{k+1}` (in the reverse order of time, from `k` down);
//! 4. CaDiCaL's lemmas, call by call, each a `rup` step with its hints; after the call that
//!    refutes "at most `k` moves", the unit `moved_{k+1}`, which the solver then keeps;
//! 5. at the first `k` with a solution: the solution, logged, and the empty clause from the
//!    unit `moved_k` and the improving constraint "at most `k - 1` moves".
//!
//! The certificate's model is the model of `T` moves, which speaks of every sequence of at
//! most `T` moves; `solution.txt` states its horizon. If no sequence of `T` moves or fewer
//! exists, the search ends without a certificate, and `solve` hands the puzzle to the plain
//! search (whose invariants also prove an exchange impossible, which this search cannot).

use std::io::Write;
use std::time::Instant;

use pigeons::{Conclusion, ConstraintId, OutputGuarantee, Proof, VarLike};
use rustsat::instances::{BasicVarManager, ManageVars};
use rustsat::types::{Clause, Lit, Var};

use super::derive::{self, Clauses};
use super::lrat::Translator;
use super::prove::{self, ProofFigures, Refuter};
use super::streamed::Streamed;
use super::swaps::{self, CanonicalOrder};
use super::CertifyError;
use crate::driver::{Event, Query, Solution, StepStats};
use crate::encodings::check::replay_exchange;
use crate::encodings::linear::{exchange_model_at_most, ExchangeModel};
use crate::encodings::puzzle::{ExchangePuzzle, Move};

/// Whether the search of `puzzle` certifies itself as it runs: unless the canonical order is
/// left to `auto` (`order_auto`) on a board of more than nine squares, which a certificate
/// begun beside the search handles better ([`super::Speculation`]). Measured on Guarini's
/// 3x4: this search with the order certified in 0.7 times the plain search but its check took
/// 1.4 times; without the order the search took 2.7 times. On boards of nine squares the
/// order costs the check more than it saves the search.
pub fn applies(puzzle: &ExchangePuzzle, order_auto: bool) -> bool {
    !order_auto || puzzle.board.squares().count() <= 9
}

/// The horizon of the first model: the pieces' summed distance to their nearest goal squares
/// on an empty board, and 8 more. Steps after the last move cost the search little (they are
/// fixed by propagation) but the proof and its check a share each.
pub fn first_horizon(puzzle: &ExchangePuzzle) -> usize {
    let model = exchange_model_at_most(puzzle, 1);
    let to_goal = model.reach(&puzzle.goal, true);
    let groups = puzzle.groups();
    let distance: usize = puzzle
        .start
        .pieces()
        .filter_map(|(square, piece)| {
            let g = groups.iter().position(|&p| p == piece)?;
            to_goal[g][square.index()]
        })
        .sum();
    distance + 8
}

/// How the search of one model ended.
pub enum Searched {
    /// The fewest moves, found and proved optimal: the moves and the proof's figures.
    Optimal(Vec<Move>, ProofFigures),
    /// No sequence of at most the model's horizon of moves: the proof is incomplete.
    Beyond,
}

fn internal(message: impl Into<String>) -> CertifyError {
    CertifyError::Internal(message.into())
}

/// Searches `puzzle` in the model of at most `horizon` moves, stating the canonical order of
/// independent moves if `order`, and writes the proof into `writer`, reporting every horizon
/// to `on_event` as the plain search does.
pub fn search<W: Write>(
    puzzle: &ExchangePuzzle,
    horizon: usize,
    order: bool,
    writer: W,
    on_event: &mut dyn FnMut(Event),
) -> Result<Searched, CertifyError> {
    let started = Instant::now();
    let modelled = exchange_model_at_most(puzzle, horizon);
    let model = &modelled.model;
    let rows: usize = model.constraints.iter().map(derive::row_count).sum();
    let mut proof = Proof::new(writer, rows, true)?;
    proof.comment(&model.title)?;
    proof.comment(&"the search's own trace: every horizon asked in this model, under `~moved` of the step after it")?;
    let n = u32::try_from(model.variables.len()).map_err(|_| internal("too many variables"))?;
    let mut vars = BasicVarManager::from_next_free(Var::new(n));
    let mut clauses = Clauses::default();
    // The order is loaded before the rows, and each step's swaps stated when the search
    // reaches it: steps after the last move are empty, and their swaps would cost the check
    // without sparing the solver anything.
    let canonical = order.then(|| CanonicalOrder::of(puzzle, &modelled)).filter(|c| !c.swaps.is_empty());
    let bits = match &canonical {
        Some(canonical) => Some(swaps::state_order(canonical, &mut proof, &mut vars)?),
        None => None,
    };
    let mut pending_swaps = canonical.iter().flat_map(|c| c.swaps.iter()).peekable();
    let mut swaps = 0;
    prove::rows_as_clauses(model, &mut clauses, &mut vars, &mut proof)?;
    hopeless(puzzle, &modelled, &mut proof, &mut clauses)?;

    let mut solver = Streamed::new()?;
    let mut translator = Translator::default();
    for (clause, origin) in &clauses.clauses {
        let lits: Vec<Lit> = clause.iter().copied().collect();
        solver.add(&lits)?;
        translator.origins.push(*origin);
    }
    let mut given = clauses.clauses.len();
    let moved = modelled.moved();
    for k in 0..=horizon {
        // The swaps of steps k - 1 and k (the swap of steps `s + 1` and `s + 2` has step `s`).
        while let (Some(swap), Some(bits)) = (pending_swaps.next_if(|swap| swap.step + 2 <= k), &bits) {
            let (clause, id) = swaps::rule_out(swap, bits, &mut proof)?;
            let lits: Vec<Lit> = clause.iter().copied().collect();
            solver.add(&lits)?;
            translator.origins.push(Some(id));
            swaps += 1;
            given += 1;
        }
        let assumed: Vec<Lit> = moved.get(k).map(|&m| derive::var(m).neg_lit()).into_iter().collect();
        on_event(Event::Trying { horizon: k, query: Query::Goal });
        let clock = Instant::now();
        let reachable = solver.solve(&assumed, &mut translator, &mut proof)?;
        let seconds = clock.elapsed().as_secs_f64();
        on_event(Event::Step(StepStats::goal(k, (vars.n_used(), given), seconds, reachable)));
        if reachable {
            let values: Vec<bool> =
                (0..model.variables.len()).map(|i| solver.value(derive::var(i).pos_lit())).collect();
            let moves = modelled.moves(&values);
            replay_exchange(puzzle, &moves).map_err(|e| internal(format!("the certified search's moves: {e}")))?;
            if moves.len() != k {
                return Err(internal(format!("the certified search found {} moves at horizon {k}", moves.len())));
            }
            on_event(Event::Solution { value: k, solution: Solution::Moves(moves.clone()) });
            let figures = ProofFigures {
                rows,
                clauses: given,
                swaps,
                lemmas: translator.count,
                from_search: true,
                horizons: Some(k),
                refuter: Some(Refuter::Cadical),
                ..ProofFigures::default()
            };
            let figures = conclude(proof, &modelled, puzzle, &moves, figures)?;
            let figures =
                ProofFigures { variables: vars.n_used(), seconds: started.elapsed().as_secs_f64(), ..figures };
            return Ok(Searched::Optimal(moves, figures));
        }
        let Some(&next) = moved.get(k) else { return Ok(Searched::Beyond) };
        translator.skip_untraced();
        let unit: Clause = [derive::var(next).pos_lit()].into_iter().collect();
        let id = proof.reverse_unit_prop(&unit, std::iter::empty::<ConstraintId>())?;
        solver.add(&[derive::var(next).pos_lit()])?;
        translator.origins.push(Some(id));
        given += 1;
    }
    Ok(Searched::Beyond)
}

/// Step 5: the solution `moves` logged, the empty clause (the unit "the last step of the
/// solution makes a move", from the last refuted horizon, against the improving constraint),
/// and the conclusion.
fn conclude<W: Write>(
    mut proof: Proof<W>,
    modelled: &ExchangeModel,
    puzzle: &ExchangePuzzle,
    moves: &[Move],
    figures: ProofFigures,
) -> Result<ProofFigures, CertifyError> {
    let solution = modelled.assignment(puzzle, moves).map_err(internal)?;
    let (_, value, _) = prove::measure(&modelled.model, &solution)?;
    proof.comment(&format!("the solution below has objective value {value}"))?;
    proof.improve_solution((0..solution.len()).map(|i| derive::var(i).axiom(!solution[i])))?;
    // The unit "the solution's last step makes a move" (from the last refuted horizon; none for
    // a solution of no moves) sets a move in every step before it, by the `after` rows: one
    // too many for the improving constraint. Propagation finds the rows without hints.
    let empty = proof.reverse_unit_prop(&Clause::new(), std::iter::empty::<ConstraintId>())?;
    let range = isize::try_from(value).map_err(|_| internal("value out of range"))?;
    let conclusion = Conclusion::<Var>::Bounds { range: range..range + 1, lb_id: Some(empty.into()), ub_sol: None };
    let mut writer = proof.conclude(OutputGuarantee::None, &conclusion)?;
    writer.flush()?;
    Ok(ProofFigures { opb_value: value, ..figures })
}

/// Step 3: the clauses about hopeless positions, each by `rup`, added to `clauses`.
///
/// Forward, in the order of time: a piece of group `g` on square `s` at time `t` farther than
/// `t` moves from every start square of `g` is impossible (the unit `~x`; its square was
/// empty before, and every move into it came from a square as hopeless a step earlier).
/// Backward, for each `k` and from time `k` down: a piece farther than `k - t` moves from its
/// goal squares gives `moved_{k+1} \/ ~x` (no move in step `k + 1` leaves the position of time
/// `k` to the end, the goal; and a piece there a step earlier stays or moves to a square as
/// far). For `k = T` the clause is the unit `~x`.
fn hopeless<W: Write>(
    puzzle: &ExchangePuzzle,
    modelled: &ExchangeModel,
    proof: &mut Proof<W>,
    clauses: &mut Clauses,
) -> Result<(), CertifyError> {
    let horizon = modelled.moved().len();
    let from_start = modelled.reach(&puzzle.start, false);
    let to_goal = modelled.reach(&puzzle.goal, true);
    let groups = puzzle.groups();
    let squares: Vec<_> = puzzle.board.squares().collect();
    let mut rup = |proof: &mut Proof<W>, lits: Vec<Lit>| -> Result<(), CertifyError> {
        let clause: Clause = lits.into_iter().collect();
        let id = proof.reverse_unit_prop(&clause, std::iter::empty::<ConstraintId>())?;
        clauses.clauses.push((clause, Some(id)));
        Ok(())
    };
    proof.comment(&"squares a piece cannot have reached by then, and squares too far from its goal")?;
    let unreached = |g: usize, s: usize, t: usize| from_start[g][s].is_none_or(|d| d > t);
    for t in 0..=horizon {
        for (g, &group) in groups.iter().enumerate() {
            for &square in &squares {
                let Some(x) = modelled.occupied(t, group, square) else { continue };
                if unreached(g, square.index(), t) {
                    rup(proof, vec![derive::var(x).neg_lit()])?;
                }
            }
        }
    }
    for k in 0..=horizon {
        let guard = modelled.moved().get(k).map(|&m| derive::var(m).pos_lit());
        for t in (0..=k).rev() {
            for (g, &group) in groups.iter().enumerate() {
                for &square in &squares {
                    let Some(x) = modelled.occupied(t, group, square) else { continue };
                    let far = to_goal[g][square.index()].is_none_or(|d| d > k - t);
                    if far && !unreached(g, square.index(), t) {
                        rup(proof, guard.into_iter().chain([derive::var(x).neg_lit()]).collect())?;
                    }
                }
            }
        }
    }
    Ok(())
}

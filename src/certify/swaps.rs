//! The canonical order of independent moves, stated in the proof by dominance.
//!
//! Two consecutive moves that touch disjoint squares can be swapped without changing anything
//! else ([`crate::encodings::linear::MoveSwap`]). The proof orders sequences by a potential,
//! the sum over steps of `(T + 1 - t)` times the key of the move made in step `t` (the square it
//! starts on), which every swap out of canonical order lowers:
//!
//! 1. the key of each step is spelled in bits: a fresh variable per step and bit, "the move of
//!    this step starts on a square whose number has this bit", defined by `red` from the move
//!    variables (`~b + moves with the bit >= 1`, and `n b + ~each of those n moves >= n`);
//! 2. `def_order potential` over those bits (one linear definition, whose transitivity is the
//!    sum of two), then `load_order`;
//! 3. `dom ~first \/ ~second` for every pair of moves made in the order that a canonical
//!    sequence never takes, with the swap as the witness: the moves and the squares between
//!    them swapped, and the two steps' bits set to the keys they then have. VeriPB checks that
//!    the swapped sequence satisfies every constraint the swap touches and has a lower
//!    potential; the objective (the number of moves) does not change.
//!
//! The order is over the bits rather than the move variables because VeriPB substitutes the
//! whole definition at every `dom` step: with one term per move variable that was most of the
//! check. The clauses go to the refuter, which is then spared every reordering of the same
//! moves.

use std::io::Write;

use pigeons::{
    AbsConstraintId, Axiom, ConstraintId, ConstraintLike, Derivation, OperationSequence, Order, OrderVar, Proof,
    VarLike,
};
use rustsat::instances::{BasicVarManager, ManageVars};
use rustsat::types::constraints::PbConstraint;
use rustsat::types::{Clause, Lit, Var};

use super::derive::{self, Clauses};
use super::CertifyError;
use crate::encodings::linear::{ExchangeModel, MoveSwap};
use crate::encodings::puzzle::ExchangePuzzle;

/// What the proof needs to sort the moves of an exchange.
#[derive(Clone, Debug)]
pub struct CanonicalOrder {
    /// Every step's move variables with their keys.
    pub keys: Vec<Vec<(usize, usize)>>,
    /// The pairs of moves that the proof rules out.
    pub swaps: Vec<MoveSwap>,
}

impl CanonicalOrder {
    /// The order of `puzzle`'s moves in `model`, its at-most model.
    pub fn of(puzzle: &ExchangePuzzle, model: &ExchangeModel) -> Self {
        CanonicalOrder { keys: model.move_keys(), swaps: model.canonical_swaps(puzzle) }
    }
}

/// The order's name in the proof.
const ORDER: &str = "potential";

/// A linear constraint over the order's variables: `sum >= rhs`.
struct Linear {
    terms: Vec<(isize, Axiom<OrderVar<Var>>)>,
    rhs: isize,
}

impl ConstraintLike<OrderVar<Var>> for Linear {
    fn rhs(&self) -> isize {
        self.rhs
    }

    fn sum_iter(&self) -> impl Iterator<Item = (isize, Axiom<OrderVar<Var>>)> {
        self.terms.iter().copied()
    }
}

/// The bits of one step's key: `(bit, variable)` for every bit that some move's key has.
type StepBits = Vec<(usize, Var)>;

/// Writes the bits, the order and the dominance steps, taking fresh variables from `vars`;
/// adds each derived clause to `out`. Returns the number of swaps.
pub fn derive<W: Write>(
    argument: &CanonicalOrder,
    proof: &mut Proof<W>,
    vars: &mut BasicVarManager,
    out: &mut Clauses,
) -> Result<usize, CertifyError> {
    if argument.swaps.is_empty() {
        return Ok(0);
    }
    let bits = state_order(argument, proof, vars)?;
    for swap in &argument.swaps {
        let (clause, id) = rule_out(swap, &bits, proof)?;
        out.clauses.push((clause, Some(id)));
    }
    Ok(argument.swaps.len())
}

/// The bits of every step's key, as the loaded order names them.
pub struct KeyBits(Vec<StepBits>);

/// Steps 1 and 2: writes the bits of the keys of the steps that some swap of `argument` uses,
/// and defines and loads the order over them. Constraints derived after this stay out of
/// VeriPB's core, so [`rule_out`] may follow them.
pub fn state_order<W: Write>(
    argument: &CanonicalOrder,
    proof: &mut Proof<W>,
    vars: &mut BasicVarManager,
) -> Result<KeyBits, CertifyError> {
    let steps = argument.keys.len();
    let mut used = vec![false; steps];
    for swap in &argument.swaps {
        for step in [swap.step, swap.step + 1] {
            *used.get_mut(step).ok_or_else(|| CertifyError::Internal("a swap past the last step".into()))? = true;
        }
    }
    proof.comment(&"independent moves come in one order: each step's key in bits, a potential over them")?;
    let mut bits: Vec<StepBits> = vec![Vec::new(); steps];
    for (step, moves) in argument.keys.iter().enumerate().filter(|(step, _)| used[*step]) {
        let widest = moves.iter().map(|m| m.1).max().unwrap_or(0);
        for bit in 0..usize::BITS - widest.leading_zeros() {
            let with: Vec<Lit> =
                moves.iter().filter(|m| m.1 >> bit & 1 == 1).map(|m| derive::var(m.0).pos_lit()).collect();
            if with.is_empty() {
                continue;
            }
            let b = vars.new_var();
            // b only if a move with the bit is made; then every move with the bit sets b.
            let only_if: Clause = with.iter().copied().chain([b.neg_lit()]).collect();
            proof.redundant(&only_if, [b.substitute_fixed(false)], None)?;
            let n = with.len();
            let every =
                PbConstraint::new_lb_unsigned(with.iter().map(|&l| (!l, 1)).chain([(b.pos_lit(), n)]), n as isize);
            proof.redundant(&every, [b.substitute_fixed(true)], None)?;
            bits[step].push((bit as usize, b));
        }
    }
    let mut order: Order<Var, Linear> = Order::new(ORDER.to_string());
    let mut terms = Vec::new();
    for (step, step_bits) in bits.iter().enumerate() {
        let weight = (steps - step) as isize;
        for &(bit, b) in step_bits {
            let weight = weight
                .checked_mul(1 << bit)
                .ok_or_else(|| CertifyError::Internal("a weight of the potential out of range".into()))?;
            let (left, right) = order.use_var(b);
            // left <= right: sum of weight * (right - left) >= 0.
            terms.push((weight, right.pos_axiom()));
            terms.push((-weight, left.pos_axiom()));
        }
    }
    // def(u, v) is 1, def(v, w) is 2, the negated goal def(u, w) is 3: their sum is 0 >= 1.
    let transitivity = OperationSequence::from(ConstraintId::abs(1)) + ConstraintId::abs(2) + ConstraintId::abs(3);
    order.add_definition_constraint(Linear { terms, rhs: 0 }, vec![Derivation::Operations(transitivity)], None);
    proof.define_order(&order)?;
    let order_vars: Vec<Var> = order.used_vars().collect();
    proof.load_order(ORDER, order_vars)?;
    Ok(KeyBits(bits))
}

/// Step 3 for one swap: the clause `~first \/ ~second` by dominance, and its number.
pub fn rule_out<W: Write>(
    swap: &MoveSwap,
    bits: &KeyBits,
    proof: &mut Proof<W>,
) -> Result<(Clause, AbsConstraintId), CertifyError> {
    let clause: Clause = [derive::var(swap.first).neg_lit(), derive::var(swap.second).neg_lit()].into_iter().collect();
    let mut witness: Vec<_> =
        swap.witness.iter().map(|&(var, value)| derive::var(var).substitute_fixed(value)).collect();
    // Swapped, the earlier step makes the second move and the later one the first.
    for (step, key) in [(swap.step, swap.keys.1), (swap.step + 1, swap.keys.0)] {
        let step_bits = bits.0.get(step).ok_or_else(|| CertifyError::Internal("a swap past the last step".into()))?;
        witness.extend(step_bits.iter().map(|&(bit, b)| b.substitute_fixed(key >> bit & 1 == 1)));
    }
    let id = proof.dominated(&clause, witness, std::iter::empty::<pigeons::SubproofElement<Var, Clause>>())?;
    Ok((clause, id))
}

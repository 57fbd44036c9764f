//! The canonical order of independent moves, stated in the proof by dominance.
//!
//! Two consecutive moves that touch disjoint squares can be swapped without changing anything
//! else ([`crate::encodings::linear::MoveSwap`]). The proof defines the preorder "potential at
//! most" over the move variables (`def_order`, whose transitivity is the sum of two
//! definitions), loads it, and then rules out every pair of such moves made in the order that
//! a canonical sequence never takes: `dom ~first \/ ~second`, with the swap as the witness.
//! VeriPB checks that the swapped sequence satisfies every constraint the swap touches and has
//! a strictly lower potential; the objective (the number of moves) does not change.
//!
//! The clauses go to the refuter, which is then spared every reordering of the same moves.

use std::io::Write;

use pigeons::{Axiom, ConstraintLike, Order, OrderVar, Proof, VarLike};
use rustsat::types::{Clause, Var};

use super::derive::{self, Clauses};
use super::CertifyError;
use crate::encodings::linear::MoveSwap;

/// What the proof needs to sort the moves of an exchange: the potential and the swaps.
#[derive(Clone, Debug)]
pub struct CanonicalOrder {
    /// The weight of every move variable in the potential.
    pub potential: Vec<(i64, usize)>,
    /// The pairs of moves that the proof rules out.
    pub swaps: Vec<MoveSwap>,
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

/// Writes the order and the dominance steps; adds each derived clause to `out`. Returns the
/// number of clauses derived.
pub fn derive<W: Write>(
    argument: &CanonicalOrder,
    proof: &mut Proof<W>,
    out: &mut Clauses,
) -> Result<usize, CertifyError> {
    if argument.swaps.is_empty() {
        return Ok(0);
    }
    let mut order: Order<Var, Linear> = Order::new(ORDER.to_string());
    let mut terms = Vec::with_capacity(2 * argument.potential.len());
    for &(weight, var) in &argument.potential {
        let weight = isize::try_from(weight).map_err(|_| CertifyError::Internal("a weight out of range".into()))?;
        let (left, right) = order.use_var(derive::var(var));
        // left <= right: sum of weight * (right - left) >= 0.
        terms.push((weight, right.pos_axiom()));
        terms.push((-weight, left.pos_axiom()));
    }
    // def(u, v) is 1, def(v, w) is 2, the negated goal def(u, w) is 3: their sum is 0 >= 1.
    let transitivity = pigeons::OperationSequence::from(pigeons::ConstraintId::abs(1))
        + pigeons::ConstraintId::abs(2)
        + pigeons::ConstraintId::abs(3);
    order.add_definition_constraint(
        Linear { terms, rhs: 0 },
        vec![pigeons::Derivation::Operations(transitivity)],
        None,
    );
    proof.comment(&"independent moves come in one order: a swap out of it lowers this potential")?;
    proof.define_order(&order)?;
    let vars: Vec<Var> = order.used_vars().collect();
    proof.load_order(ORDER, vars)?;
    for swap in &argument.swaps {
        let clause: Clause =
            [derive::var(swap.first).neg_lit(), derive::var(swap.second).neg_lit()].into_iter().collect();
        let witness = swap.witness.iter().map(|&(var, value)| derive::var(var).substitute_fixed(value));
        let id = proof.dominated(&clause, witness, std::iter::empty::<pigeons::SubproofElement<Var, Clause>>())?;
        out.clauses.push((clause, Some(id)));
    }
    Ok(argument.swaps.len())
}

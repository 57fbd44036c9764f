//! Upper bounds on a weighted sum of literals — the objective of a placement — through one of
//! RustSAT's incremental cardinality and pseudo-Boolean encodings.
//!
//! The bound is never fixed in the clauses: [`ObjectiveBound::encode_ub`] adds the clauses a
//! bound needs, and [`ObjectiveBound::enforce_ub`] returns the literals that, assumed, impose it.
//! One solver can therefore be asked "cost at most 11?", then "at most 13?", then "at most 12?"
//! without ever being rebuilt.

use rustsat::encodings::card::{self, BoundUpper as _, BoundUpperIncremental as _};
use rustsat::encodings::pb::{self, BoundUpper as _, BoundUpperIncremental as _};
use rustsat::encodings::CollectClauses;
use rustsat::instances::ManageVars;
use rustsat::types::Lit;

/// Which RustSAT encoding bounds the objective.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum BoundEncoding {
    /// The totalizer of Bailleux and Boufkhad (a weighted term counts as that many copies of
    /// its literal). The fastest on the knight-domination benchmark.
    #[default]
    Totalizer,
    /// The generalized totalizer of Joshi, Martins and Manquinho.
    GeneralizedTotalizer,
    /// The dynamic polynomial watchdog of Paxian, Reimer and Becker.
    DynamicPolyWatchdog,
    /// A binary adder network (Warners; Eén and Sörensson).
    BinaryAdder,
}

crate::named_values!(BoundEncoding {
    Totalizer => "totalizer",
    GeneralizedTotalizer => "gte",
    DynamicPolyWatchdog => "dpw",
    BinaryAdder => "adder",
});

/// The most inputs a totalizer takes, a weighted term counting once per unit of its weight:
/// beyond it the encoding alone would take gigabytes.
pub const MAX_TOTALIZER_INPUTS: usize = 1 << 18;

impl BoundEncoding {
    /// Why this encoding cannot bound the sum of `terms`, if it cannot: the totalizer copies
    /// each literal once per unit of its weight.
    pub fn refusal(self, terms: &[(Lit, usize)]) -> Option<String> {
        let copies = terms.iter().fold(0usize, |sum, t| sum.saturating_add(t.1));
        (self == BoundEncoding::Totalizer && copies > MAX_TOTALIZER_INPUTS).then(|| {
            format!(
                "the totalizer would count {copies} inputs (a piece counts once per unit of its weight), \
                 more than the {MAX_TOTALIZER_INPUTS} it takes"
            )
        })
    }
}

#[derive(Debug)]
enum Inner {
    Totalizer(card::Totalizer),
    GeneralizedTotalizer(pb::GeneralizedTotalizer),
    DynamicPolyWatchdog(pb::DynamicPolyWatchdog),
    BinaryAdder(pb::BinaryAdder),
}

/// An incremental upper bound on `sum of weight * [literal]`.
#[derive(Debug)]
pub struct ObjectiveBound {
    inner: Inner,
    /// The sum of all weights: the largest value the sum can take.
    weight_sum: usize,
}

impl ObjectiveBound {
    /// A bound over `terms`, each a literal and its (positive) weight.
    pub fn new(encoding: BoundEncoding, terms: &[(Lit, usize)]) -> ObjectiveBound {
        let weight_sum = terms.iter().map(|t| t.1).sum();
        let inner = match encoding {
            BoundEncoding::Totalizer => {
                Inner::Totalizer(terms.iter().flat_map(|&(lit, weight)| std::iter::repeat_n(lit, weight)).collect())
            }
            BoundEncoding::GeneralizedTotalizer => Inner::GeneralizedTotalizer(terms.iter().copied().collect()),
            BoundEncoding::DynamicPolyWatchdog => Inner::DynamicPolyWatchdog(terms.iter().copied().collect()),
            BoundEncoding::BinaryAdder => Inner::BinaryAdder(terms.iter().copied().collect()),
        };
        ObjectiveBound { inner, weight_sum }
    }

    /// Adds to `clauses` what is needed to impose `sum <= ub` (nothing when it is already there).
    pub fn encode_ub<C: CollectClauses>(&mut self, ub: usize, clauses: &mut C, vars: &mut dyn ManageVars) {
        let range = ub..=ub;
        let result = match &mut self.inner {
            Inner::Totalizer(e) => e.encode_ub_change(range, clauses, vars),
            Inner::GeneralizedTotalizer(e) => e.encode_ub_change(range, clauses, vars),
            Inner::DynamicPolyWatchdog(e) => e.encode_ub_change(range, clauses, vars),
            Inner::BinaryAdder(e) => e.encode_ub_change(range, clauses, vars),
        };
        // Collecting into memory cannot fail short of an allocation failure.
        result.expect("clause collector out of memory");
    }

    /// The assumptions that impose `sum <= ub`, after [`ObjectiveBound::encode_ub`] for `ub`.
    pub fn enforce_ub(&self, ub: usize) -> Vec<Lit> {
        if ub >= self.weight_sum {
            return Vec::new();
        }
        let result = match &self.inner {
            Inner::Totalizer(e) => e.enforce_ub(ub).map_err(|e| e.to_string()),
            Inner::GeneralizedTotalizer(e) => e.enforce_ub(ub).map_err(|e| e.to_string()),
            Inner::DynamicPolyWatchdog(e) => e.enforce_ub(ub).map_err(|e| e.to_string()),
            Inner::BinaryAdder(e) => e.enforce_ub(ub).map_err(|e| e.to_string()),
        };
        result.unwrap_or_else(|why| panic!("bound {ub} enforced before it was encoded: {why}"))
    }
}

#[cfg(test)]
mod tests {
    use rustsat::types::Lit;

    use super::{BoundEncoding, MAX_TOTALIZER_INPUTS};

    /// The totalizer takes exactly [`MAX_TOTALIZER_INPUTS`] copies and refuses one more; the
    /// encodings that keep weights whole take any weight.
    #[test]
    fn the_totalizer_refuses_past_its_input_limit_and_no_sooner() {
        let terms = |last: usize| vec![(Lit::positive(0), MAX_TOTALIZER_INPUTS - 7), (Lit::positive(1), last)];
        assert_eq!(BoundEncoding::Totalizer.refusal(&terms(7)), None);
        let refused = BoundEncoding::Totalizer.refusal(&terms(8)).expect("one copy too many is refused");
        assert!(refused.contains(&(MAX_TOTALIZER_INPUTS + 1).to_string()), "{refused}");
        assert_eq!(
            BoundEncoding::Totalizer.refusal(&terms(usize::MAX)).map(|why| why.contains("18446744073709551615")),
            Some(true)
        );
        for other in
            [BoundEncoding::GeneralizedTotalizer, BoundEncoding::DynamicPolyWatchdog, BoundEncoding::BinaryAdder]
        {
            assert_eq!(other.refusal(&terms(usize::MAX)), None, "{other:?}");
        }
    }
}

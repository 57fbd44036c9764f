//! Core-guided search (OLL, as in the MaxSAT solver RC2): assume every cost literal false; each
//! unsatisfiable core raises the lower bound by its least weight and is relaxed by a totalizer
//! over its literals, whose output "at most one of these" becomes a new assumption. When the
//! assumptions are satisfiable, the model costs exactly the lower bound, proved by the cores.
//!
//! Refinements from RC2: weights are taken in strata, heaviest first; each core is trimmed by
//! solving again under it alone; and a new totalizer's bound is *exhausted* — raised while
//! "at most `k` of the core" alone is unsatisfiable — before the search goes on. Before the
//! first core, groups of softs of which at most one can hold (queens on one rank, kings in a
//! 2x2 block) are found among the pairs the rules exclude and relaxed at once, each a core
//! known without a solver call.

use std::collections::{HashMap, HashSet};

use rustsat::encodings::card::{BoundUpper as _, BoundUpperIncremental as _, Totalizer};
use rustsat::instances::{BasicVarManager, Cnf, ManageVars as _};
use rustsat::types::Lit;

use crate::solver::Answer;
use crate::Error;

/// How often a core is shrunk by solving again under it alone.
const TRIM_ROUNDS: usize = 3;

/// Why the core-guided search raised its lower bound, for an oracle that proves it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Counted {
    /// Of these softs (their assumptions), pairwise excluded by the rules, at most one holds;
    /// `one_holds` is the soft that asks for one of them.
    Group {
        /// The assumptions of the group's softs.
        softs: Vec<Lit>,
        /// The new soft.
        one_holds: Lit,
    },
    /// The assumptions of the last unsatisfiable call that failed; `totalizer`, the totalizer
    /// that relaxes them when there are several.
    Core {
        /// The failed assumptions.
        core: Vec<Lit>,
        /// The totalizer over their costs, if any.
        totalizer: Option<usize>,
    },
}

/// What the core-guided search asks of the formula it runs on: the plain search's
/// session, or an oracle that proves each answer as it goes.
pub trait CoreOracle {
    /// The cost to minimise: each literal, when true, costs its weight.
    fn costs(&self) -> Vec<(Lit, usize)>;
    /// Asks for a placement under `assumptions`, of cost at most `asked` (for the report).
    fn solve(&mut self, asked: Option<usize>, assumptions: &[Lit]) -> Result<Answer, Error>;
    /// After an UNSAT answer: assumptions that already contradict the formula.
    fn failed_assumptions(&mut self) -> Vec<Lit>;
    /// After a SAT answer: reports the placement; its cost.
    fn record_solution(&mut self) -> Result<usize, Error>;
    /// Pairs of literals that no placement sets both.
    fn exclusive_pairs(&self) -> Vec<(Lit, Lit)>;
    /// Reports that every placement costs at least `cost`.
    fn prove_at_least(&mut self, cost: usize);
    /// Reports that no placement satisfies the rules.
    fn prove_infeasible(&mut self);
    /// A new literal that, true, makes one of the softs `softs` (assumptions) hold.
    fn one_of(&mut self, softs: &[Lit]) -> Result<Lit, Error>;
    /// The soft `assume` is refuted by the formula alone (the last core): it is made false
    /// for good.
    fn refute(&mut self, assume: Lit) -> Result<(), Error>;
    /// A new totalizer over `inputs`; its number.
    fn totalizer(&mut self, inputs: Vec<Lit>) -> usize;
    /// One literal that, assumed, imposes "at most `k` inputs of totalizer `t` are true";
    /// `None` when that holds anyway.
    fn bound_literal(&mut self, t: usize, k: usize) -> Result<Option<Lit>, Error>;
    /// The lower bound rose by `weight`, for `why`.
    fn counted(&mut self, why: Counted, weight: usize) -> Result<(), Error>;
}

/// One soft constraint: the assumption that makes it hold, its remaining weight, and, for a
/// totalizer output, which totalizer and which bound.
struct Soft {
    assume: Lit,
    weight: usize,
    sum: Option<(usize, usize)>,
}

struct Oll {
    softs: Vec<Soft>,
    by_lit: HashMap<Lit, usize>,
    /// The inputs of each totalizer.
    sizes: Vec<usize>,
    /// The cost proven unavoidable.
    lower: usize,
}

impl Oll {
    fn add_soft(&mut self, assume: Lit, weight: usize, sum: Option<(usize, usize)>) {
        match self.by_lit.get(&assume) {
            Some(&i) => self.softs[i].weight += weight,
            None => {
                self.by_lit.insert(assume, self.softs.len());
                self.softs.push(Soft { assume, weight, sum });
            }
        }
    }

    /// The assumptions of the softs of weight at least `stratum`.
    fn assumptions(&self, stratum: usize) -> Vec<Lit> {
        self.softs.iter().filter(|s| s.weight > 0 && s.weight >= stratum).map(|s| s.assume).collect()
    }
}

/// Runs the core-guided search on `oracle`.
pub fn run(oracle: &mut dyn CoreOracle) -> Result<(), Error> {
    if oracle.solve(None, &[])? == Answer::Unsat {
        oracle.prove_infeasible();
        return Ok(());
    }
    let mut best = oracle.record_solution()?;
    let mut oll = Oll { softs: Vec::new(), by_lit: HashMap::new(), sizes: Vec::new(), lower: 0 };
    for (cost, weight) in oracle.costs() {
        oll.add_soft(!cost, weight, None);
    }
    relax_exclusive_groups(oracle, &mut oll)?;
    // Strata: first only the heaviest softs are assumed, then down to the next weight left.
    let mut stratum = oll.softs.iter().map(|s| s.weight).max().unwrap_or(1);
    while oll.lower < best {
        let assumptions = oll.assumptions(stratum);
        match oracle.solve(Some(oll.lower), &assumptions)? {
            Answer::Sat => {
                best = best.min(oracle.record_solution()?);
                let lighter = oll.softs.iter().map(|s| s.weight).filter(|&w| w > 0 && w < stratum).max();
                match lighter {
                    Some(weight) => stratum = weight,
                    None if best == oll.lower => break,
                    None => {
                        return Err(Error::Internal(format!(
                            "the core-guided search ended at cost {best}, above its proven bound {}",
                            oll.lower
                        )))
                    }
                }
            }
            Answer::Unsat => {
                let failed = oracle.failed_assumptions();
                let core = trim(oracle, &oll, failed)?;
                if core.is_empty() {
                    return Err(Error::Internal("an empty core after a satisfiable start".to_string()));
                }
                relax(oracle, &mut oll, &core)?;
                oracle.prove_at_least(oll.lower);
            }
        }
    }
    if best == 0 {
        oracle.prove_at_least(0);
    }
    Ok(())
}

/// Finds groups of softs of which the rules let at most one hold, greedily as RC2 does (the
/// softs with the fewest exclusions first, each group grown by the excluded softs that exclude
/// every member so far), and relaxes each: if `k` softs of least weight `w` can't hold
/// together, `(k - 1) * w` of their weight is lost for sure, and a new soft of weight `w`
/// asks for one of them to hold.
fn relax_exclusive_groups(oracle: &mut dyn CoreOracle, oll: &mut Oll) -> Result<(), Error> {
    let index = &oll.by_lit;
    let mut excludes: Vec<HashSet<usize>> = vec![HashSet::new(); oll.softs.len()];
    for (a, b) in oracle.exclusive_pairs() {
        if let (Some(&i), Some(&j)) = (index.get(&a), index.get(&b)) {
            if i != j {
                excludes[i].insert(j);
                excludes[j].insert(i);
            }
        }
    }
    let mut order: Vec<usize> = (0..excludes.len()).filter(|&i| !excludes[i].is_empty()).collect();
    order.sort_by_key(|&i| (excludes[i].len(), i));
    let mut grouped = vec![false; excludes.len()];
    for &first in &order {
        if grouped[first] {
            continue;
        }
        let mut candidates: Vec<usize> = excludes[first].iter().copied().filter(|&j| !grouped[j]).collect();
        candidates.sort_by_key(|&j| (excludes[j].len(), j));
        let mut group = vec![first];
        for j in candidates {
            if group.iter().all(|g| excludes[j].contains(g)) {
                group.push(j);
            }
        }
        if group.len() < 2 {
            continue;
        }
        for &g in &group {
            grouped[g] = true;
        }
        let least = group.iter().map(|&g| oll.softs[g].weight).min().unwrap_or(0);
        oll.lower += (group.len() - 1) * least;
        let softs: Vec<Lit> = group.iter().map(|&g| oll.softs[g].assume).collect();
        let one_holds = oracle.one_of(&softs)?;
        for &g in &group {
            oll.softs[g].weight -= least;
        }
        oracle.counted(Counted::Group { softs, one_holds }, least)?;
        oll.add_soft(one_holds, least, None);
    }
    if oll.lower > 0 {
        oracle.prove_at_least(oll.lower);
    }
    Ok(())
}

/// Shrinks a core by solving under it alone while that makes it smaller.
fn trim(oracle: &mut dyn CoreOracle, oll: &Oll, mut core: Vec<Lit>) -> Result<Vec<Lit>, Error> {
    for _ in 0..TRIM_ROUNDS {
        if core.len() <= 1 || oracle.solve(Some(oll.lower), &core)? == Answer::Sat {
            break;
        }
        let smaller = oracle.failed_assumptions();
        if smaller.len() >= core.len() {
            break;
        }
        core = smaller;
    }
    Ok(core)
}

/// Takes one core into account: raises the bound, lowers the weights of its softs, advances
/// the totalizers among them and relaxes the core with a new totalizer.
fn relax(oracle: &mut dyn CoreOracle, oll: &mut Oll, core: &[Lit]) -> Result<(), Error> {
    let members: Vec<usize> = core.iter().filter_map(|lit| oll.by_lit.get(lit).copied()).collect();
    let least = members.iter().map(|&i| oll.softs[i].weight).min().unwrap_or(0);
    if members.len() != core.len() || least == 0 {
        return Err(Error::Internal("a core with literals that are not assumed softs".to_string()));
    }
    oll.lower += least;
    for &i in &members {
        oll.softs[i].weight -= least;
        if let Some((t, k)) = oll.softs[i].sum {
            if let Some(next) = next_bound(oracle, oll, t, k + 1)? {
                oll.add_soft(next, least, Some((t, k + 1)));
            }
        }
    }
    if let [only] = members[..] {
        // The formula itself refutes this soft: make that a clause.
        oracle.counted(Counted::Core { core: core.to_vec(), totalizer: None }, least)?;
        return oracle.refute(oll.softs[only].assume);
    }
    let inputs: Vec<Lit> = members.iter().map(|&i| !oll.softs[i].assume).collect();
    let n = inputs.len();
    let t = oracle.totalizer(inputs);
    oll.sizes.push(n);
    oracle.counted(Counted::Core { core: core.to_vec(), totalizer: Some(t) }, least)?;
    let mut k = 1;
    // Exhaust: while even "at most k of the core" alone is refuted, the bound goes up.
    while k < n {
        let Some(lit) = next_bound(oracle, oll, t, k)? else { break };
        if oracle.solve(Some(oll.lower), &[lit])? == Answer::Sat {
            break;
        }
        let core = oracle.failed_assumptions();
        oll.lower += least;
        oracle.counted(Counted::Core { core, totalizer: None }, least)?;
        oracle.prove_at_least(oll.lower);
        k += 1;
    }
    if let Some(lit) = next_bound(oracle, oll, t, k)? {
        oll.add_soft(lit, least, Some((t, k)));
    }
    Ok(())
}

/// The literal imposing "at most `k` inputs of totalizer `t`"; `None` past its inputs.
fn next_bound(oracle: &mut dyn CoreOracle, oll: &Oll, t: usize, k: usize) -> Result<Option<Lit>, Error> {
    if k >= oll.sizes[t] {
        return Ok(None);
    }
    oracle.bound_literal(t, k)
}

/// The plain session's totalizers: each with its number of inputs.
#[derive(Default)]
pub(super) struct Totalizers(Vec<(Totalizer, usize)>);

impl Totalizers {
    /// A new totalizer over `inputs`; its number.
    pub fn add(&mut self, inputs: Vec<Lit>) -> usize {
        let n = inputs.len();
        self.0.push((inputs.into_iter().collect(), n));
        self.0.len() - 1
    }

    /// One literal that, assumed, imposes "at most `k` inputs of totalizer `t` are true", its
    /// clauses added to `cnf`; `None` when that holds anyway.
    pub fn bound_literal(&mut self, t: usize, k: usize, cnf: &mut Cnf, vars: &mut BasicVarManager) -> Option<Lit> {
        let (totalizer, n) = &mut self.0[t];
        if k >= *n {
            return None;
        }
        totalizer.encode_ub_change(k..=k, cnf, vars).expect("clause collector out of memory");
        let lits = totalizer.enforce_ub(k).expect("the bound was just encoded");
        all_of(cnf, vars, lits)
    }
}

/// One literal that, assumed, imposes all of `lits`: the literal itself when there is one, else
/// a fresh literal implying each (RustSAT's totalizer gives one literal a bound today, but its
/// interface allows several). `None` when there is nothing to impose.
fn all_of(cnf: &mut Cnf, vars: &mut BasicVarManager, lits: Vec<Lit>) -> Option<Lit> {
    match lits[..] {
        [] => None,
        [lit] => Some(lit),
        _ => {
            let joint = vars.new_lit();
            for lit in lits {
                cnf.add_clause([!joint, lit].into_iter().collect());
            }
            Some(joint)
        }
    }
}

#[cfg(test)]
mod tests {
    use knights_sat_encodings::geometry::{Board, PawnDirection};
    use knights_sat_encodings::puzzle::placement::{KindRule, PlacementGoal, PlacementPuzzle};

    use crate::driver::placement::{solve_placement, PlacementSearch, Strategy};
    use crate::driver::Event;

    /// The events of a core-guided search of independence of `letter` on `n`x`n`: its value,
    /// and for each proven bound, how many solver calls came before it.
    fn bounds_after_calls(n: usize, letter: &str) -> (Option<usize>, Vec<(usize, usize)>) {
        let puzzle = PlacementPuzzle::new(
            None,
            Board::new(n, n).unwrap(),
            PlacementGoal::Independence,
            KindRule::parse_letters(letter).unwrap(),
            PawnDirection::Up,
            Vec::new(),
            Vec::new(),
        )
        .unwrap();
        let search = PlacementSearch { strategy: Strategy::CoreGuided, ..PlacementSearch::default() };
        let (mut calls, mut bounds, mut best) = (0, Vec::new(), None);
        solve_placement(&puzzle, &search, &mut |event| match event {
            Event::Step(_) => calls += 1,
            Event::Bound(value) => bounds.push((*value, calls)),
            Event::Solution { value, .. } => best = Some(*value),
            _ => {}
        })
        .unwrap();
        (best, bounds)
    }

    /// Kings that exclude one another come in 2x2 blocks: the groups found before the first
    /// core prove the bound n²/4 with no solver call beyond the first, which asks for nothing.
    #[test]
    fn exclusive_groups_prove_the_kings_bound_before_any_core() {
        for n in [4, 6, 8] {
            let (best, bounds) = bounds_after_calls(n, "K");
            assert_eq!(best, Some(n * n / 4), "{n}x{n}");
            assert_eq!(bounds.first(), Some(&(n * n / 4, 1)), "{n}x{n}: {bounds:?}");
        }
    }

    /// The cores climb down to the published knight independence numbers (n²/2 for even
    /// n ≥ 4, 5 on 3x3), and the last bound proven is the value found.
    #[test]
    fn cores_reach_the_published_knight_independence_numbers() {
        for (n, value) in [(3, 5), (4, 8), (6, 18)] {
            let (best, bounds) = bounds_after_calls(n, "N");
            assert_eq!((best, bounds.last().map(|b| b.0)), (Some(value), Some(value)), "{n}x{n}");
        }
    }

    /// Several literals of one bound become one assumption that imposes each: with it true,
    /// the clauses added hold exactly when every literal does.
    #[test]
    fn one_assumption_imposes_every_literal_of_a_bound() {
        use rustsat::instances::{BasicVarManager, Cnf, ManageVars as _};

        let (mut cnf, mut vars) = (Cnf::new(), BasicVarManager::default());
        let lits: Vec<_> = (0..3).map(|_| vars.new_lit()).collect();
        assert_eq!(super::all_of(&mut cnf, &mut vars, Vec::new()), None);
        assert_eq!(super::all_of(&mut cnf, &mut vars, vec![!lits[0]]), Some(!lits[0]));
        assert_eq!(cnf.len(), 0, "one literal needs no clause");
        let joint = super::all_of(&mut cnf, &mut vars, lits.clone()).unwrap();
        for values in 0..8u32 {
            let holds = |lit: rustsat::types::Lit| {
                let value = match lits.iter().position(|l| l.var() == lit.var()) {
                    Some(i) => values >> i & 1 == 1,
                    None => true, // the joint literal, assumed
                };
                value != lit.is_neg()
            };
            let satisfied = cnf.iter().all(|clause| clause.iter().any(|&lit| holds(lit)));
            assert_eq!(satisfied, values == 7, "values {values:03b} with {joint:?} assumed");
        }
    }
}

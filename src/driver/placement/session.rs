//! What every placement strategy shares: the encoding, one solver fed from it, the cost
//! literals, and the reporting of calls, placements and bounds.

use std::time::Instant;

use knights_sat_encodings::check::check_placement;
use knights_sat_encodings::encode::placement::PlacementEncoding;
use knights_sat_encodings::encode::symmetry::{break_symmetries, puzzle_symmetries};
use knights_sat_encodings::geometry::Square;
use knights_sat_encodings::puzzle::placement::{PlacementGoal, PlacementPuzzle};
use rustsat::instances::{BasicVarManager, Cnf, ManageVars as _};
use rustsat::types::Lit;

use super::core_guided::{CoreOracle, Counted, Totalizers};
use super::fill::fill;
use super::settings::PlacementSearch;
use crate::driver::fed_solver::FedSolver;
use crate::driver::{Event, Query, Solution};
use crate::solver::Answer;
use crate::Error;

/// One search in progress.
pub(super) struct Session<'a> {
    puzzle: &'a PlacementPuzzle,
    encoding: PlacementEncoding,
    solver: FedSolver,
    minimise: bool,
    /// The cost to minimise: each literal, when true, costs its weight.
    pub costs: Vec<(Lit, usize)>,
    total: usize,
    totalizers: Totalizers,
    emit: &'a mut dyn FnMut(Event),
}

impl<'a> Session<'a> {
    pub fn new(
        puzzle: &'a PlacementPuzzle,
        search: &PlacementSearch,
        emit: &'a mut dyn FnMut(Event),
    ) -> Result<Session<'a>, Error> {
        let mut solver = FedSolver::new(search.solver)?;
        let cnf = solver.pending();
        let mut encoding = if search.dominance {
            PlacementEncoding::without_dominated(puzzle, search.at_most_one, cnf)
        } else {
            PlacementEncoding::new(puzzle, search.at_most_one, cnf)
        };
        if search.symmetry {
            let symmetries = puzzle_symmetries(puzzle);
            let x = encoding.placement_vars().to_vec();
            break_symmetries(&x, &symmetries, cnf, encoding.vars());
        }
        let minimise = puzzle.goal.minimises();
        let costs: Vec<(Lit, usize)> =
            encoding.objective().iter().map(|&(lit, w)| if minimise { (lit, w) } else { (!lit, w) }).collect();
        let total = costs.iter().map(|t| t.1).sum();
        Ok(Session { puzzle, encoding, solver, minimise, costs, total, totalizers: Totalizers::default(), emit })
    }

    /// The clauses waiting for the solver and the variable manager, for encodings layered on top.
    pub fn parts(&mut self) -> (&mut Cnf, &mut BasicVarManager) {
        (self.solver.pending(), self.encoding.vars())
    }

    /// The objective value of a placement of this cost.
    pub fn value_of(&self, cost: usize) -> usize {
        if self.minimise {
            cost
        } else {
            self.total - cost
        }
    }

    /// A cost no placement can go below, found without the solver: for domination, the
    /// squares to cover divided by the most one piece can cover, times the least weight.
    pub fn cost_lower_bound(&self) -> usize {
        let puzzle = self.puzzle;
        if !puzzle.goal.covers() {
            return 0;
        }
        let board = &puzzle.board;
        let own = usize::from(puzzle.goal != PlacementGoal::TotalDomination);
        let reach = |s: Square| puzzle.kinds.iter().map(|r| puzzle.attacks(r.kind, s).len() + own).max().unwrap_or(0);
        let most = board.squares().map(reach).max().unwrap_or(0);
        let to_cover = board.squares().count();
        let least_weight = puzzle.kinds.iter().map(|r| r.weight).min().unwrap_or(1);
        if most == 0 {
            return 0;
        }
        to_cover.div_ceil(most) * least_weight
    }

    /// Asks the solver, under `assumptions`, for a placement of cost at most `asked` (`None`:
    /// any placement), reporting the call.
    pub fn solve(&mut self, asked: Option<usize>, assumptions: &[Lit]) -> Result<Answer, Error> {
        let horizon = asked.map_or(0, |cost| self.value_of(cost.min(self.total)));
        (self.emit)(Event::Trying { horizon, query: Query::Bound });
        let clock = Instant::now();
        let variables = self.encoding.n_vars();
        Ok(self.solver.ask(assumptions, (horizon, Query::Bound), variables, clock, &mut *self.emit)?)
    }

    /// Pairs of placement literals that no placement sets both.
    pub fn exclusive_pairs(&self) -> &[(Lit, Lit)] {
        self.encoding.exclusive_pairs()
    }

    /// Adds a clause for good.
    pub fn add_clause(&mut self, clause: &[Lit]) {
        self.solver.pending().add_clause(clause.iter().copied().collect());
    }

    /// After an UNSAT answer: assumptions that already contradict the formula.
    pub fn failed_assumptions(&mut self) -> Vec<Lit> {
        self.solver.failed_assumptions()
    }

    /// After a SAT answer: checks the model's placement with the rules checker, fills it with
    /// what more pieces fit ([`fill`]), reports it, and returns its cost.
    pub fn record_solution(&mut self) -> Result<usize, Error> {
        let solver = &self.solver;
        let placement = self.encoding.decode(|lit| solver.value(lit));
        let value = check_placement(self.puzzle, &placement)?;
        let (placement, value) = fill(self.puzzle, &placement, value).unwrap_or((placement, value));
        (self.emit)(Event::Solution { value, solution: Solution::Placement(placement) });
        Ok(if self.minimise { value } else { self.total - value })
    }

    /// Reports the proof that every placement costs at least `cost`.
    pub fn prove_at_least(&mut self, cost: usize) {
        let bound = self.value_of(cost.min(self.total));
        (self.emit)(Event::Bound(bound));
    }

    /// Reports the proof that no placement satisfies the rules.
    pub fn prove_infeasible(&mut self) {
        (self.emit)(Event::Infeasible("no placement satisfies the rules".to_string()));
    }
}

impl CoreOracle for Session<'_> {
    fn costs(&self) -> Vec<(Lit, usize)> {
        self.costs.clone()
    }

    fn solve(&mut self, asked: Option<usize>, assumptions: &[Lit]) -> Result<Answer, Error> {
        Session::solve(self, asked, assumptions)
    }

    fn failed_assumptions(&mut self) -> Vec<Lit> {
        Session::failed_assumptions(self)
    }

    fn record_solution(&mut self) -> Result<usize, Error> {
        Session::record_solution(self)
    }

    fn exclusive_pairs(&self) -> Vec<(Lit, Lit)> {
        Session::exclusive_pairs(self).to_vec()
    }

    fn prove_at_least(&mut self, cost: usize) {
        Session::prove_at_least(self, cost);
    }

    fn prove_infeasible(&mut self) {
        Session::prove_infeasible(self);
    }

    fn one_of(&mut self, softs: &[Lit]) -> Result<Lit, Error> {
        let one_holds = self.encoding.vars().new_lit();
        let clause: Vec<Lit> = std::iter::once(!one_holds).chain(softs.iter().copied()).collect();
        self.add_clause(&clause);
        Ok(one_holds)
    }

    fn refute(&mut self, assume: Lit) -> Result<(), Error> {
        self.add_clause(&[!assume]);
        Ok(())
    }

    fn totalizer(&mut self, inputs: Vec<Lit>) -> usize {
        self.totalizers.add(inputs)
    }

    fn bound_literal(&mut self, t: usize, k: usize) -> Result<Option<Lit>, Error> {
        let (cnf, vars) = (self.solver.pending(), self.encoding.vars());
        Ok(self.totalizers.bound_literal(t, k, cnf, vars))
    }

    fn counted(&mut self, _why: Counted, _weight: usize) -> Result<(), Error> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use knights_sat_encodings::geometry::{Board, PawnDirection};
    use knights_sat_encodings::puzzle::placement::{KindRule, PlacementGoal, PlacementPuzzle};

    use super::Session;
    use crate::driver::placement::PlacementSearch;

    /// The clauses a session hands its solver before the first call, with or without symmetry
    /// breaking, for `letter` pieces on `n`x`n` and `goal`.
    fn clauses(n: usize, letter: &str, goal: PlacementGoal, symmetry: bool) -> usize {
        let kinds = KindRule::parse_letters(letter).unwrap();
        let board = Board::new(n, n).unwrap();
        let puzzle = PlacementPuzzle::new(None, board, goal, kinds, PawnDirection::Up, Vec::new(), Vec::new());
        let puzzle = puzzle.unwrap();
        let search = PlacementSearch { symmetry, ..PlacementSearch::default() };
        let mut emit = |_| {};
        let mut session = Session::new(&puzzle, &search, &mut emit).unwrap();
        session.parts().0.len()
    }

    /// Symmetry breaking, when asked, reaches the solver: the lex-leader constraints over the
    /// placement variables are clauses the session adds (a session that handed them no
    /// variables would add none and answer the same, only slower).
    #[test]
    fn symmetry_breaking_adds_its_clauses_to_the_session() {
        for (n, letter, goal) in [
            (4, "N", PlacementGoal::Domination),
            (5, "Q", PlacementGoal::Independence),
            (3, "NK", PlacementGoal::Independence),
        ] {
            let (with, without) = (clauses(n, letter, goal, true), clauses(n, letter, goal, false));
            assert!(with > without, "{letter} on {n}x{n}: {with} clauses with symmetry breaking, {without} without");
        }
    }
}

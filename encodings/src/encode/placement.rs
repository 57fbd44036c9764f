//! The CNF encoding of placement puzzles.
//!
//! When placed pieces block sliders ([`LineOfSight::Blocked`]), sliders cover squares through
//! chains of auxiliary variables, one per square and direction (see `line_of_sight.rs`); kings,
//! knights and pawns cover as on an empty board, and independence needs no change.
//!
//! Variables: `x[s][k]` — a piece of kind `k` stands on square `s`. Clauses: at most one piece
//! per square (a RustSAT at-most-one encoding); for domination, every square is occupied or
//! attacked (one clause per square over the pieces that could cover it); for independence, no
//! two pieces attack each other (a binary clause per attacking pair); per-kind minimum and
//! maximum counts through RustSAT's totalizer; fixed pieces and empty squares as units. The
//! objective is only described — weighted literals, the `x` variables or one "occupied" literal
//! per square — and left to the driver, which bounds it (a [`super::bound`] encoding or
//! core-guided totalizers) on the same variable numbering.

use rustsat::encodings::card::{BoundBoth, Totalizer};
use rustsat::encodings::CollectClauses;

use super::add;
use rustsat::instances::{BasicVarManager, ManageVars};
use rustsat::types::constraints::CardConstraint;
use rustsat::types::Lit;

use super::line_of_sight::slider_cover;
use super::AtMostOne;
use crate::geometry::{PieceKind, Square};
use crate::puzzle::placement::{LineOfSight, Placement, PlacementGoal, PlacementPuzzle};

/// The encoding of one placement puzzle.
#[derive(Debug)]
pub struct PlacementEncoding {
    kinds: Vec<PieceKind>,
    objective: Vec<(Lit, usize)>,
    /// `x[s][k]`, `None` where no piece of kind `k` may stand on `s`.
    x: Vec<Vec<Option<Lit>>>,
    /// Pairs of placement literals that the rules forbid together.
    exclusive: Vec<(Lit, Lit)>,
    vars: BasicVarManager,
}

impl PlacementEncoding {
    /// Encodes the rules of `puzzle` (not its objective) into `clauses`.
    pub fn new<C: CollectClauses>(puzzle: &PlacementPuzzle, at_most_one: AtMostOne, clauses: &mut C) -> Self {
        Self::build(puzzle, at_most_one, clauses, false)
    }

    /// Encodes a puzzle with the same optimum: without the variables of the kinds that an
    /// optimal placement never needs on a square ([`PlacementPuzzle::dominated_kinds`]). Its
    /// placements are placements of `puzzle`, but not all of them (so not for certificates).
    pub fn without_dominated<C: CollectClauses>(
        puzzle: &PlacementPuzzle,
        at_most_one: AtMostOne,
        clauses: &mut C,
    ) -> Self {
        Self::build(puzzle, at_most_one, clauses, true)
    }

    fn build<C: CollectClauses>(
        puzzle: &PlacementPuzzle,
        at_most_one: AtMostOne,
        clauses: &mut C,
        drop_dominated: bool,
    ) -> Self {
        let board = &puzzle.board;
        let kinds: Vec<PieceKind> = puzzle.kinds.iter().map(|r| r.kind).collect();
        let mut vars = BasicVarManager::default();
        let dominated = drop_dominated.then(|| puzzle.dominated_kinds());
        let x: Vec<Vec<Option<Lit>>> = (0..board.area())
            .map(|s| {
                let square = Square(s as u16);
                let usable = !board.is_removed(square) && !puzzle.empty.contains(&square);
                let fixed = puzzle.fixed.iter().find(|f| f.0 == square).map(|f| f.1);
                let needed = |k: usize| dominated.as_ref().is_none_or(|d| !d[s][k]);
                (0..kinds.len())
                    .map(|k| (usable && needed(k) && fixed.is_none_or(|f| f == kinds[k])).then(|| vars.new_lit()))
                    .collect()
            })
            .collect();
        for &(square, kind) in &puzzle.fixed {
            let k = kinds.iter().position(|&j| j == kind).expect("fixed kinds are allowed kinds");
            add(clauses, [x[square.index()][k].expect("a fixed piece has its variable")]);
        }
        let mut exclusive = Vec::new();
        for row in &x {
            let lits: Vec<Lit> = row.iter().flatten().copied().collect();
            at_most_one.encode(&lits, clauses, &mut vars);
            for (i, &a) in lits.iter().enumerate() {
                exclusive.extend(lits[i + 1..].iter().map(|&b| (a, b)));
            }
        }
        let attacks: Vec<Vec<Vec<Square>>> = kinds
            .iter()
            .map(|&k| {
                (0..board.area())
                    .map(|s| {
                        let square = Square(s as u16);
                        if board.is_removed(square) {
                            Vec::new()
                        } else {
                            puzzle.attacks(k, square)
                        }
                    })
                    .collect()
            })
            .collect();
        if puzzle.goal.covers() {
            let total = puzzle.goal == PlacementGoal::TotalDomination;
            let blocked = puzzle.line_of_sight == LineOfSight::Blocked;
            let mut coverers: Vec<Vec<Lit>> = if blocked {
                slider_cover(board, &kinds, &x, &mut vars, clauses)
            } else {
                vec![Vec::new(); board.area()]
            };
            for (k, per_square) in attacks.iter().enumerate() {
                if blocked && kinds[k].slides() {
                    continue;
                }
                for (s, targets) in per_square.iter().enumerate() {
                    let Some(lit) = x[s][k] else { continue };
                    for t in targets {
                        coverers[t.index()].push(lit);
                    }
                }
            }
            for square in board.squares() {
                let mut clause = coverers[square.index()].clone();
                if !total {
                    clause.extend(x[square.index()].iter().flatten());
                }
                add(clauses, clause);
            }
        }
        // Independence reads attacks on an empty board whatever the line of sight, for the two
        // models have the same independent placements. Blocking only takes attacks away, so a
        // placement independent on an empty board stays so. Conversely, if a slider on s attacks
        // an occupied t on an empty board, passing over b1, …, bm, then the first occupied square
        // among b1, …, bm, t is attacked by s with blocked lines too: nothing stands before it.
        if puzzle.goal.independent() {
            for (k, per_square) in attacks.iter().enumerate() {
                for (s, targets) in per_square.iter().enumerate() {
                    let Some(attacker) = x[s][k] else { continue };
                    for t in targets {
                        for &victim in x[t.index()].iter().flatten() {
                            add(clauses, [!attacker, !victim]);
                            exclusive.push((attacker, victim));
                        }
                    }
                }
            }
        }
        for (k, rule) in puzzle.kinds.iter().enumerate() {
            let lits: Vec<Lit> = x.iter().filter_map(|row| row[k]).collect();
            let mut bound = |constraint: CardConstraint| {
                if Totalizer::encode_constr(constraint, clauses, &mut vars).is_err() {
                    add(clauses, []);
                }
            };
            if rule.min > 0 {
                bound(CardConstraint::new_lb(lits.clone(), rule.min));
            }
            if let Some(max) = rule.max.filter(|&m| m < lits.len()) {
                bound(CardConstraint::new_ub(lits, max));
            }
        }
        let weights: Vec<usize> = puzzle.kinds.iter().map(|r| r.weight).collect();
        let objective = objective_terms(&x, &weights, clauses, &mut vars);
        PlacementEncoding { kinds, objective, x, exclusive, vars }
    }

    /// The objective as weighted literals: its value is the summed weight of the true ones.
    pub fn objective(&self) -> &[(Lit, usize)] {
        &self.objective
    }

    /// The placement variables: `x[s][k]` is true when a piece of the `k`-th kind stands on
    /// square `s`; `None` where none may stand.
    pub fn placement_vars(&self) -> &[Vec<Option<Lit>>] {
        &self.x
    }

    /// Pairs of placement literals that no placement sets both: two pieces on one square, and
    /// for independence two pieces that attack each other (a pair may appear twice).
    pub fn exclusive_pairs(&self) -> &[(Lit, Lit)] {
        &self.exclusive
    }

    /// The variable manager, for encodings layered on top (the objective bound).
    pub fn vars(&mut self) -> &mut BasicVarManager {
        &mut self.vars
    }

    /// The number of variables used so far.
    pub fn n_vars(&self) -> u32 {
        self.vars.n_used()
    }

    /// Reads the placement out of a satisfying assignment.
    pub fn decode(&self, value: impl Fn(Lit) -> bool) -> Placement {
        let mut placement = Vec::new();
        for (s, row) in self.x.iter().enumerate() {
            for (k, lit) in row.iter().enumerate() {
                if lit.is_some_and(&value) {
                    placement.push((Square(s as u16), self.kinds[k]));
                }
            }
        }
        placement
    }
}

/// The objective's terms. When every kind weighs the same, one literal per square says "this
/// square is occupied" (equivalent under at most one piece per square), which gives the bound
/// encodings and the core-guided search one literal per square instead of one per kind.
fn objective_terms<C: CollectClauses>(
    x: &[Vec<Option<Lit>>],
    weights: &[usize],
    clauses: &mut C,
    vars: &mut BasicVarManager,
) -> Vec<(Lit, usize)> {
    let uniform = weights.iter().all(|&w| w == weights[0]);
    let mut terms = Vec::new();
    for row in x {
        let lits: Vec<(Lit, usize)> = row.iter().zip(weights).filter_map(|(l, &w)| l.map(|l| (l, w))).collect();
        if !uniform || lits.len() < 2 {
            terms.extend(lits);
            continue;
        }
        let occupied = vars.new_lit();
        add(clauses, std::iter::once(!occupied).chain(lits.iter().map(|t| t.0)));
        for &(lit, _) in &lits {
            add(clauses, [!lit, occupied]);
        }
        terms.push((occupied, weights[0]));
    }
    terms
}

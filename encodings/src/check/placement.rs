//! Checks a placement against its puzzle's rules, recomputing every attack from the geometry.

use crate::puzzle::placement::{Placement, PlacementPuzzle};

/// Why a claimed placement breaks the rules.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlacementViolation {
    /// A piece off the board, on a removed square, or on a square that must stay empty.
    #[error("a {kind} stands on {square}, where no piece may stand")]
    ForbiddenSquare {
        /// The kind.
        kind: String,
        /// The square's name.
        square: String,
    },
    /// Two pieces on one square.
    #[error("two pieces on {0}")]
    Crowded(String),
    /// A kind placed that the puzzle does not allow, or too few or too many of one.
    #[error("{0}")]
    Count(String),
    /// A piece fixed in advance is missing.
    #[error("the {kind} fixed on {square} is missing")]
    FixedMissing {
        /// The kind.
        kind: String,
        /// The square's name.
        square: String,
    },
    /// A square left uncovered.
    #[error("square {0} is neither occupied nor attacked")]
    Uncovered(String),
    /// A square that total domination needs attacked is not.
    #[error("square {0} is not attacked")]
    Unattacked(String),
    /// Two pieces attack each other.
    #[error("the {attacker} on {from} attacks the piece on {to}")]
    Attack {
        /// The attacking kind.
        attacker: String,
        /// Its square.
        from: String,
        /// The attacked square.
        to: String,
    },
}

/// Checks every rule of `puzzle` on `placement`; returns its objective value.
pub fn check_placement(puzzle: &PlacementPuzzle, placement: &Placement) -> Result<usize, PlacementViolation> {
    let board = &puzzle.board;
    let mut on = vec![None; board.area()];
    for &(square, kind) in placement {
        if square.index() >= board.area() || board.is_removed(square) || puzzle.empty.contains(&square) {
            let square = if square.index() < board.area() { board.name(square) } else { format!("#{}", square.0) };
            return Err(PlacementViolation::ForbiddenSquare { kind: kind.to_string(), square });
        }
        if on[square.index()].replace(kind).is_some() {
            return Err(PlacementViolation::Crowded(board.name(square)));
        }
    }
    for &(square, kind) in &puzzle.fixed {
        if on[square.index()] != Some(kind) {
            return Err(PlacementViolation::FixedMissing { kind: kind.to_string(), square: board.name(square) });
        }
    }
    for &(_, kind) in placement {
        if puzzle.rule(kind).is_none() {
            return Err(PlacementViolation::Count(format!("{kind}s may not be placed")));
        }
    }
    for rule in &puzzle.kinds {
        let n = placement.iter().filter(|p| p.1 == rule.kind).count();
        if n < rule.min || rule.max.is_some_and(|max| n > max) {
            return Err(PlacementViolation::Count(format!(
                "{n} {}s placed, outside {}..={}",
                rule.kind,
                rule.min,
                rule.max.map_or("any".to_string(), |m| m.to_string())
            )));
        }
    }
    let mut attacked = vec![false; board.area()];
    for &(square, kind) in placement {
        for target in puzzle.attacks(kind, square) {
            attacked[target.index()] = true;
            if puzzle.goal.independent() && on[target.index()].is_some() {
                return Err(PlacementViolation::Attack {
                    attacker: kind.to_string(),
                    from: board.name(square),
                    to: board.name(target),
                });
            }
        }
    }
    if puzzle.goal.covers() {
        let total = puzzle.goal == crate::puzzle::placement::PlacementGoal::TotalDomination;
        for square in board.squares() {
            let i = square.index();
            if total && !attacked[i] {
                return Err(PlacementViolation::Unattacked(board.name(square)));
            }
            if !attacked[i] && on[i].is_none() {
                return Err(PlacementViolation::Uncovered(board.name(square)));
            }
        }
    }
    Ok(puzzle.value(placement))
}

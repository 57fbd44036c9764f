//! Checks a placement against its puzzle's rules, recomputing every attack from the geometry:
//! with [`LineOfSight::Blocked`] a slider's attack counts only when every square it passes over
//! is unoccupied.

use crate::geometry::attack_steps;
use crate::puzzle::placement::{LineOfSight, Placement, PlacementGoal, PlacementPuzzle};

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
    let blocked = puzzle.line_of_sight == LineOfSight::Blocked;
    let mut attacked = vec![false; board.area()];
    for &(square, kind) in placement {
        for step in attack_steps(board, kind, square, puzzle.pawns) {
            if blocked && step.between.iter().any(|b| on[b.index()].is_some()) {
                continue;
            }
            let target = step.to;
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
        let total = puzzle.goal == PlacementGoal::TotalDomination;
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::{Board, PawnDirection, PieceKind, Square};
    use crate::puzzle::placement::KindRule;

    /// A queen on a1 and a knight on b1 of a 4x1 board: the knight stands in the queen's line.
    fn queen_behind_knight(goal: PlacementGoal, line_of_sight: LineOfSight) -> Result<usize, PlacementViolation> {
        let kinds = [PieceKind::Queen, PieceKind::Knight].map(|kind| KindRule { kind, min: 0, max: None, weight: 1 });
        let board = Board::new(4, 1).unwrap();
        let puzzle = PlacementPuzzle::new(None, board, goal, kinds.to_vec(), PawnDirection::Up, vec![], vec![])
            .unwrap()
            .with_line_of_sight(line_of_sight);
        check_placement(&puzzle, &vec![(Square(0), PieceKind::Queen), (Square(1), PieceKind::Knight)])
    }

    #[test]
    fn a_piece_in_the_line_stops_a_slider_only_when_blocked() {
        assert_eq!(queen_behind_knight(PlacementGoal::Domination, LineOfSight::EmptyBoard), Ok(2));
        let uncovered = Err(PlacementViolation::Uncovered("c1".to_string()));
        assert_eq!(queen_behind_knight(PlacementGoal::Domination, LineOfSight::Blocked), uncovered);
        for line_of_sight in LineOfSight::ALL {
            let attack = PlacementViolation::Attack {
                attacker: "queen".to_string(),
                from: "a1".to_string(),
                to: "b1".to_string(),
            };
            assert_eq!(queen_behind_knight(PlacementGoal::Independence, line_of_sight), Err(attack));
        }
    }

    /// Rooks on a 3x1 board with c1 cut out and b1 kept empty, at least one and at most two.
    fn rooks_on_a_short_rank(placement: &[(u16, PieceKind)]) -> Result<usize, PlacementViolation> {
        let mut board = Board::new(3, 1).unwrap();
        board.remove(Square(2));
        let kinds = vec![KindRule { kind: PieceKind::Rook, min: 1, max: Some(2), weight: 1 }];
        let goal = PlacementGoal::Independence;
        let puzzle =
            PlacementPuzzle::new(None, board, goal, kinds, PawnDirection::Up, vec![Square(1)], vec![]).unwrap();
        let placement: Vec<(Square, PieceKind)> = placement.iter().map(|&(s, kind)| (Square(s), kind)).collect();
        check_placement(&puzzle, &placement)
    }

    #[test]
    fn squares_cut_out_kept_empty_or_off_the_board_and_counts_out_of_range_are_refused() {
        let rook = PieceKind::Rook;
        assert_eq!(rooks_on_a_short_rank(&[(0, rook)]), Ok(1));
        let forbidden =
            |square: &str| Err(PlacementViolation::ForbiddenSquare { kind: "rook".into(), square: square.into() });
        assert_eq!(rooks_on_a_short_rank(&[(1, rook)]), forbidden("b1"), "kept empty");
        assert_eq!(rooks_on_a_short_rank(&[(2, rook)]), forbidden("c1"), "cut out");
        assert_eq!(rooks_on_a_short_rank(&[(7, rook)]), forbidden("#7"), "off the board");
        let too_few = Err(PlacementViolation::Count("0 rooks placed, outside 1..=2".into()));
        assert_eq!(rooks_on_a_short_rank(&[]), too_few, "below the minimum");
        assert_eq!(
            rooks_on_a_short_rank(&[(0, PieceKind::Knight)]),
            Err(PlacementViolation::Count("knights may not be placed".into()))
        );
    }
}

//! Replays a tour: every jump a knight's move onto a safe square, no two knights on a square,
//! and every target touched (in the listed order when the puzzle asks for one).

use crate::geometry::{move_steps, PawnDirection, PieceKind, Square};
use crate::puzzle::tour::{Route, TourPuzzle, VisitOrder};

/// Why a claimed tour breaks the rules.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TourViolation {
    /// The starting squares do not fit the puzzle.
    #[error("bad start: {0}")]
    Start(String),
    /// A jump that the rules forbid.
    #[error("step {step}: {why}")]
    Jump {
        /// Time step from 1.
        step: usize,
        /// What is wrong.
        why: String,
    },
    /// More than one knight moved in a step of a one-at-a-time puzzle, or none moved.
    #[error("step {step}: {count} knights moved; this puzzle moves exactly one knight per step")]
    NotOneAtATime {
        /// Time step from 1.
        step: usize,
        /// How many moved.
        count: usize,
    },
    /// Some target was never touched (in order, for a listed order).
    #[error("target {0} is never touched{1}")]
    Untouched(String, &'static str),
}

/// What a legal route did: the knights' squares after every step and when each target was
/// first touched (in the puzzle's order).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TourReplay {
    /// `positions[t][k]`: knight `k`'s square after `t` steps.
    pub positions: Vec<Vec<Square>>,
    /// For each target, the time step at which it counted as touched.
    pub touched_at: Vec<usize>,
}

/// Replays `route` on `puzzle` with the rules alone.
pub fn replay_tour(puzzle: &TourPuzzle, route: &Route) -> Result<TourReplay, TourViolation> {
    let board = &puzzle.board;
    if route.starts.len() != puzzle.knights.len() {
        return Err(TourViolation::Start(format!(
            "{} starting squares for {} knights",
            route.starts.len(),
            puzzle.knights.len()
        )));
    }
    for (k, &square) in route.starts.iter().enumerate() {
        if !puzzle.knights[k].candidates().contains(&square) || !puzzle.is_safe(square) {
            return Err(TourViolation::Start(format!("knight {} may not start on {}", k + 1, board.name(square))));
        }
        if route.starts[..k].contains(&square) {
            return Err(TourViolation::Start(format!("two knights start on {}", board.name(square))));
        }
    }
    let mut positions = vec![route.starts.clone()];
    let mut touched_at: Vec<Option<usize>> = vec![None; puzzle.targets.len()];
    let mut next_in_order = 0;
    touch(puzzle, &route.starts, 0, &mut touched_at, &mut next_in_order);
    for (i, jumps) in route.steps.iter().enumerate() {
        let step = i + 1;
        if !puzzle.objective.parallel() && jumps.len() != 1 {
            return Err(TourViolation::NotOneAtATime { step, count: jumps.len() });
        }
        let mut now = positions.last().expect("the start is a position").clone();
        let mut moved = vec![false; now.len()];
        for jump in jumps {
            let bad = |why: String| TourViolation::Jump { step, why };
            let name = format!("{}-{}", board.name(jump.from), board.name(jump.to));
            if jump.knight >= now.len() {
                return Err(bad(format!("{name}: there is no knight {}", jump.knight + 1)));
            }
            if std::mem::replace(&mut moved[jump.knight], true) {
                return Err(bad(format!("knight {} jumps twice", jump.knight + 1)));
            }
            if now[jump.knight] != jump.from {
                return Err(bad(format!(
                    "{name}: knight {} stands on {}",
                    jump.knight + 1,
                    board.name(now[jump.knight])
                )));
            }
            let legal =
                move_steps(board, PieceKind::Knight, jump.from, PawnDirection::Up).iter().any(|s| s.to == jump.to);
            if !legal {
                return Err(bad(format!("{name} is not a knight's move")));
            }
            if let Some(why) = puzzle.danger(jump.to) {
                return Err(bad(format!("{name} lands on a square that is {why}")));
            }
            now[jump.knight] = jump.to;
        }
        for (k, square) in now.iter().enumerate() {
            if now[..k].contains(square) {
                return Err(TourViolation::Jump { step, why: format!("two knights on {}", board.name(*square)) });
            }
        }
        touch(puzzle, &now, step, &mut touched_at, &mut next_in_order);
        positions.push(now);
    }
    let order_note = match puzzle.order {
        VisitOrder::Any => "",
        VisitOrder::Listed => " in the listed order",
    };
    let touched_at = touched_at
        .iter()
        .zip(&puzzle.targets)
        .map(|(t, &square)| t.ok_or_else(|| TourViolation::Untouched(board.name(square), order_note)))
        .collect::<Result<Vec<usize>, _>>()?;
    Ok(TourReplay { positions, touched_at })
}

/// Marks the targets the knights on `squares` touch at time `t`.
fn touch(puzzle: &TourPuzzle, squares: &[Square], t: usize, touched_at: &mut [Option<usize>], next: &mut usize) {
    match puzzle.order {
        VisitOrder::Any => {
            for (i, target) in puzzle.targets.iter().enumerate() {
                if touched_at[i].is_none() && squares.contains(target) {
                    touched_at[i] = Some(t);
                }
            }
        }
        VisitOrder::Listed => {
            while *next < puzzle.targets.len() && squares.contains(&puzzle.targets[*next]) {
                touched_at[*next] = Some(t);
                *next += 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::Board;
    use crate::puzzle::tour::{Jump, KnightStart, TourObjective};

    /// A knight from h8 beside a queen on d5, with h7 (safe) its one target.
    fn puzzle() -> (TourPuzzle, Square, Square) {
        let board = Board::new(8, 8).unwrap();
        let (h8, h7) = (board.parse_square("h8").unwrap(), board.parse_square("h7").unwrap());
        let queen = (PieceKind::Queen, board.parse_square("d5").unwrap());
        let knights = vec![KnightStart::At(h8)];
        let puzzle =
            TourPuzzle::new(None, board, vec![queen], knights, Some(vec![h7]), VisitOrder::Any, TourObjective::Moves)
                .unwrap();
        (puzzle, h8, h7)
    }

    #[test]
    fn a_start_the_puzzle_does_not_give_is_refused_even_on_a_safe_target() {
        let (puzzle, _, h7) = puzzle();
        let route = Route { starts: vec![h7], steps: Vec::new() };
        assert!(matches!(replay_tour(&puzzle, &route), Err(TourViolation::Start(_))));
    }

    #[test]
    fn a_step_that_is_no_knight_move_is_refused() {
        let (puzzle, h8, h7) = puzzle();
        let route = Route { starts: vec![h8], steps: vec![vec![Jump { knight: 0, from: h8, to: h7 }]] };
        let refused = replay_tour(&puzzle, &route);
        assert!(
            matches!(&refused, Err(TourViolation::Jump { step: 1, why }) if why.contains("not a knight's move")),
            "{refused:?}"
        );
    }
}

//! Greedy filling of an independent placement: a SAT model of an independence puzzle is often
//! far from maximal (the solver is asked for "any placement" first, and many pieces are left
//! off that fit), so before it is reported every empty square that no piece attacks takes the
//! heaviest kind whose attacks hit no piece, as long as its count allows. The result goes
//! through the rules checker like any other placement; a better placement reported early makes
//! a search stopped by its time limit answer with it, and the bound searches start lower.

use knights_sat_encodings::check::check_placement;
use knights_sat_encodings::geometry::{attack_steps, PieceKind, Square};
use knights_sat_encodings::puzzle::placement::{LineOfSight, Placement, PlacementGoal, PlacementPuzzle};

/// `placement` (of value `value`) with pieces added greedily, if that is a legal placement of
/// higher value; `None` when nothing fits, or for puzzles other than independence with attacks
/// measured on an empty board (where a new piece could unblock or block a line).
pub(super) fn fill(puzzle: &PlacementPuzzle, placement: &Placement, value: usize) -> Option<(Placement, usize)> {
    if puzzle.goal != PlacementGoal::Independence || puzzle.line_of_sight != LineOfSight::EmptyBoard {
        return None;
    }
    let board = &puzzle.board;
    let attacks = |kind: PieceKind, square: Square| attack_steps(board, kind, square, puzzle.pawns);
    let mut occupied = vec![false; board.area()];
    let mut attacked = vec![false; board.area()];
    let mut placed = vec![0usize; puzzle.kinds.len()];
    for &(square, kind) in placement {
        occupied[square.index()] = true;
        for step in attacks(kind, square) {
            attacked[step.to.index()] = true;
        }
        if let Some(k) = puzzle.kinds.iter().position(|rule| rule.kind == kind) {
            placed[k] += 1;
        }
    }
    for &square in &puzzle.empty {
        // Never to be occupied: as good as taken for the search below.
        attacked[square.index()] = true;
    }
    // Heaviest first; of equal weight, the kind that attacks less.
    let mut order: Vec<usize> = (0..puzzle.kinds.len()).collect();
    order.sort_by_cached_key(|&k| {
        (std::cmp::Reverse(puzzle.kinds[k].weight), attack_reach(puzzle, puzzle.kinds[k].kind))
    });
    let mut filled = placement.clone();
    for square in board.squares() {
        if occupied[square.index()] || attacked[square.index()] {
            continue;
        }
        for &k in &order {
            let rule = &puzzle.kinds[k];
            if rule.max.is_some_and(|max| placed[k] >= max) {
                continue;
            }
            let steps = attacks(rule.kind, square);
            if steps.iter().any(|step| occupied[step.to.index()]) {
                continue;
            }
            occupied[square.index()] = true;
            for step in steps {
                attacked[step.to.index()] = true;
            }
            placed[k] += 1;
            filled.push((square, rule.kind));
            break;
        }
    }
    let better = check_placement(puzzle, &filled).ok().filter(|&better| better > value)?;
    Some((filled, better))
}

/// How many squares `kind` attacks from the middle of the board: its reach, to rank kinds.
fn attack_reach(puzzle: &PlacementPuzzle, kind: PieceKind) -> usize {
    let board = &puzzle.board;
    board
        .square(board.width() as i64 / 2, board.height() as i64 / 2)
        .map_or(0, |middle| attack_steps(board, kind, middle, puzzle.pawns).len())
}

#[cfg(test)]
mod tests {
    use knights_sat_encodings::check::check_placement;
    use knights_sat_encodings::geometry::{Board, PawnDirection};
    use knights_sat_encodings::puzzle::placement::{KindRule, PlacementGoal, PlacementPuzzle};

    use super::fill;

    fn independence(n: usize, letters: &str) -> PlacementPuzzle {
        let board = Board::new(n, n).unwrap();
        let kinds = KindRule::parse_letters(letters).unwrap();
        PlacementPuzzle::new(None, board, PlacementGoal::Independence, kinds, PawnDirection::Up, Vec::new(), Vec::new())
            .unwrap()
    }

    /// From nothing, the fill is a maximal independent placement: legal, and no empty square
    /// can take another piece of any kind (checked by adding each in turn).
    #[test]
    fn an_empty_placement_fills_to_a_maximal_one() {
        for (n, letters) in [(8, "Q"), (8, "B"), (8, "N"), (8, "K"), (8, "R"), (8, "QRBNKP"), (16, "K")] {
            let puzzle = independence(n, letters);
            let (filled, value) = fill(&puzzle, &Vec::new(), 0).expect("pieces fit on an empty board");
            assert_eq!(check_placement(&puzzle, &filled).ok(), Some(value), "{letters} on {n}x{n}");
            for square in puzzle.board.squares().filter(|s| filled.iter().all(|p| p.0 != *s)) {
                for rule in &puzzle.kinds {
                    let mut more = filled.clone();
                    more.push((square, rule.kind));
                    assert!(check_placement(&puzzle, &more).is_err(), "{letters} on {n}x{n}: {} fits too", rule.kind);
                }
            }
        }
    }

    /// Nothing to add to an optimal placement (eight queens), and other goals are left alone.
    #[test]
    fn a_full_placement_and_other_goals_are_left_alone() {
        let puzzle = independence(8, "Q");
        let (queens, eight) = fill(&puzzle, &Vec::new(), 0).unwrap();
        assert!(eight <= 8);
        if eight == 8 {
            assert_eq!(fill(&puzzle, &queens, eight), None);
        }
        let mut domination = independence(8, "N");
        domination.goal = PlacementGoal::Domination;
        assert_eq!(fill(&domination, &Vec::new(), 0), None);
    }
}

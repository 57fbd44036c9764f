//! Puzzles given by flags instead of a file. Errors name the flag at fault.

use knights_sat::encodings::geometry::{Board, PawnDirection, Piece};
use knights_sat::encodings::puzzle::placement::{KindRule, LineOfSight, PlacementGoal, PlacementPuzzle};
use knights_sat::encodings::puzzle::{parse_piece, ExchangePuzzle, Position, Puzzle, PuzzleError, Side};

use knights_sat::encodings::puzzle::tour::{KnightStart, TourObjective, TourPuzzle, VisitOrder};

use super::args::{InlineExchange, InlinePlacement, InlinePuzzle, InlineTour};

/// What error messages call an inline puzzle's source.
pub const SOURCE: &str = "command line";

/// Builds the puzzle described by the flags.
pub fn build(inline: InlinePuzzle) -> Result<Puzzle, PuzzleError> {
    let placement = |goal, flags| placement(goal, flags).map(Puzzle::Placement);
    match inline {
        InlinePuzzle::Exchange(flags) => exchange(flags).map(Puzzle::Exchange),
        InlinePuzzle::Domination(flags) => placement(PlacementGoal::Domination, flags),
        InlinePuzzle::IndependentDomination(flags) => placement(PlacementGoal::IndependentDomination, flags),
        InlinePuzzle::TotalDomination(flags) => placement(PlacementGoal::TotalDomination, flags),
        InlinePuzzle::Independence(flags) => placement(PlacementGoal::Independence, flags),
        InlinePuzzle::Tour(flags) => tour(flags).map(Puzzle::Tour),
    }
}

fn tour(flags: InlineTour) -> Result<TourPuzzle, PuzzleError> {
    let bad = |flag: &str, message: String| PuzzleError::unlocated(SOURCE, flag, message);
    let board = board(&flags.board, &flags.removed)?;
    let mut attackers = Vec::new();
    for token in &flags.attackers {
        attackers.push(parse_piece(&board, token).map_err(|why| bad("--attackers", why))?);
    }
    let mut knights = Vec::new();
    for token in &flags.knights {
        knights.push(KnightStart::parse(&board, token).map_err(|why| bad("--knights", why))?);
    }
    let targets = if flags.targets.is_empty() {
        None
    } else {
        let mut squares = Vec::new();
        for name in &flags.targets {
            squares.push(board.parse_square(name.trim()).map_err(|e| bad("--targets", e.to_string()))?);
        }
        Some(squares)
    };
    let order = VisitOrder::from_name(&flags.order)
        .ok_or_else(|| bad("--order", format!("`any` or `listed`, not `{}`", flags.order)))?;
    if order == VisitOrder::Listed && targets.is_none() {
        return Err(bad("--order", "`--order listed` needs `--targets` to give the order".into()));
    }
    let objective = TourObjective::from_name(&flags.objective)
        .ok_or_else(|| bad("--objective", format!("`moves`, `steps` or `feasible`, not `{}`", flags.objective)))?;
    TourPuzzle::new(None, board, attackers, knights, targets, order, objective)
        .map_err(|e| bad("--knights", e.to_string()))
}

fn placement(goal: PlacementGoal, flags: InlinePlacement) -> Result<PlacementPuzzle, PuzzleError> {
    let bad = |flag: &str, message: String| PuzzleError::unlocated(SOURCE, flag, message);
    let board = board(&flags.board, &flags.removed)?;
    let kinds = KindRule::parse_letters(&flags.pieces).map_err(|why| bad("--pieces", why))?;
    let pawns = PawnDirection::from_name(&flags.pawns)
        .ok_or_else(|| bad("--pawns", format!("pawns attack `up` or `down`, not `{}`", flags.pawns)))?;
    let line_of_sight = LineOfSight::from_name(&flags.attacks).ok_or_else(|| {
        let why = "`empty-board` (sliders pass placed pieces) or `blocked` (placed pieces stop sliders)";
        bad("--attacks", format!("{why}, not `{}`", flags.attacks))
    })?;
    let mut empty = Vec::new();
    for name in &flags.empty {
        empty.push(board.parse_square(name.trim()).map_err(|e| bad("--empty", e.to_string()))?);
    }
    let mut fixed = Vec::new();
    for token in &flags.fixed {
        let (kind, square) = parse_piece(&board, token).map_err(|why| bad("--fixed", why))?;
        fixed.push((square, kind));
    }
    let puzzle = PlacementPuzzle::new(None, board, goal, kinds, pawns, empty, fixed)
        .map_err(|e| bad("--pieces", e.to_string()))?;
    Ok(puzzle.with_line_of_sight(line_of_sight))
}

/// The board of `--board` with the `--removed` squares cut out.
fn board(size: &str, removed: &[String]) -> Result<Board, PuzzleError> {
    let bad = |flag: &str, message: String| PuzzleError::unlocated(SOURCE, flag, message);
    let mut board = Board::parse_size(size).map_err(|e| bad("--board", e.to_string()))?;
    for name in removed {
        let square = board.parse_square(name.trim()).map_err(|e| bad("--removed", e.to_string()))?;
        board.remove(square);
    }
    if board.squares().next().is_none() {
        return Err(bad("--removed", "every square of the board is removed".to_string()));
    }
    Ok(board)
}

fn exchange(flags: InlineExchange) -> Result<ExchangePuzzle, PuzzleError> {
    let bad = |flag: &str, message: String| PuzzleError::unlocated(SOURCE, flag, message);
    let board = board(&flags.board, &flags.removed)?;
    let sides = vec![
        Side { name: "white".to_string(), pawns: PawnDirection::Up },
        Side { name: "black".to_string(), pawns: PawnDirection::Down },
    ];
    if flags.white.is_empty() && flags.black.is_empty() {
        return Err(bad("--white", "no pieces: give --white and/or --black, e.g. --white Na1,Nc1".to_string()));
    }
    let mut start = Position::empty(board.area());
    place(&board, &mut start, 0, &flags.white, "--white")?;
    place(&board, &mut start, 1, &flags.black, "--black")?;
    let goal = if flags.swap {
        start.swap_sides()
    } else {
        if flags.goal_white.is_empty() && flags.goal_black.is_empty() {
            return Err(bad("--goal-white", "no goal: give --swap, or --goal-white and --goal-black".to_string()));
        }
        let mut goal = Position::empty(board.area());
        place(&board, &mut goal, 0, &flags.goal_white, "--goal-white")?;
        place(&board, &mut goal, 1, &flags.goal_black, "--goal-black")?;
        goal
    };
    ExchangePuzzle::new(None, board, sides, start, goal).map_err(|e| bad("--goal-white/--goal-black", e.to_string()))
}

fn place(
    board: &Board,
    position: &mut Position,
    side: usize,
    tokens: &[String],
    flag: &str,
) -> Result<(), PuzzleError> {
    for token in tokens {
        let (kind, square) = parse_piece(board, token).map_err(|why| PuzzleError::unlocated(SOURCE, flag, why))?;
        if position.place(square, Piece { side, kind }).is_err() {
            let why = format!("two pieces on {} (`{}`)", board.name(square), token.trim());
            return Err(PuzzleError::unlocated(SOURCE, flag, why));
        }
    }
    Ok(())
}

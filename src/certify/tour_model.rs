//! The certified model of a tour: [`tour_model_at_most`], at most `cap` moves with one knight
//! jumping at a time (or `cap` time steps of knights jumping together, for the `steps`
//! objective), their number minimised.

use super::colour::ColourArgument;
use super::CertifyError;
use crate::encodings::geometry::Square;
use crate::encodings::linear::{tour_model_at_most, TourModel};
use crate::encodings::puzzle::tour::{TourObjective, TourPuzzle, VisitOrder};

/// The model of `puzzle` with at most `cap` moves (time steps for the `steps` objective); a
/// tour that is only asked to be feasible has no optimum to certify.
pub fn tour_cap_model(puzzle: &TourPuzzle, cap: usize) -> Result<TourModel, CertifyError> {
    if puzzle.objective == TourObjective::Feasible {
        return Err(CertifyError::Unsupported(
            "this tour asks for any route (`objective = \"feasible\"`), not an optimum".into(),
        ));
    }
    Ok(tour_model_at_most(puzzle, cap))
}

/// The colour argument ([`super::colour`]) for a lone knight touching its targets in any
/// order, on its at-most model (a free start or alternatives split by the start's colour);
/// `None` for other tours.
pub fn colour_argument(model: &TourModel, puzzle: &TourPuzzle) -> Option<ColourArgument> {
    if puzzle.knights.len() != 1 || puzzle.order != VisitOrder::Any || puzzle.objective != TourObjective::Moves {
        return None;
    }
    let board = &puzzle.board;
    Some(ColourArgument {
        at: model.knight_at(0),
        moved: model.moved_of(0),
        colour: (0..board.area()).map(|s| (board.file(Square(s as u16)) + board.rank(Square(s as u16))) % 2).collect(),
        targets: puzzle.targets.iter().map(|t| t.index()).collect(),
        one_rows: model.one_rows().to_vec(),
    })
}

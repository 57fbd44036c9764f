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

/// The colour argument ([`super::colour`]) for a lone knight with one starting square touching
/// its targets in any order, on its at-most model; `None` for other tours.
pub fn colour_argument(model: &TourModel, puzzle: &TourPuzzle) -> Option<ColourArgument> {
    let [knight] = puzzle.knights.as_slice() else { return None };
    let [start] = knight.candidates() else { return None };
    if puzzle.order != VisitOrder::Any || puzzle.objective != TourObjective::Moves {
        return None;
    }
    let board = &puzzle.board;
    let colour = |s: Square| (board.file(s) + board.rank(s)) % 2;
    Some(ColourArgument {
        at: model.knight_at(0),
        moved: model.moved_of(0),
        even: (0..board.area()).map(|s| colour(Square(s as u16)) == colour(*start)).collect(),
        targets: puzzle.targets.iter().filter(|&t| t != start).map(|t| t.index()).collect(),
        one_rows: model.one_rows().to_vec(),
    })
}

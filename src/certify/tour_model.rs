//! The certified model of a tour: for knights touching their targets in a listed order for
//! the fewest moves, the route model ([`route_model`]), with no time index, where it is not too
//! large; otherwise
//! [`tour_model_at_most`], at most `cap` moves with one knight jumping at a time (or `cap` time
//! steps of knights jumping together, for the `steps` objective), their number minimised.

use super::argument::Argument;
use super::colour::LoneKnight;
use super::distances::Distances;
use super::landings::Landings;
use super::CertifyError;
use crate::encodings::geometry::Square;
use crate::encodings::linear::{route_model, tour_model_at_most, LinearModel, TourModel};
use crate::encodings::puzzle::tour::{Route, TourObjective, TourPuzzle, VisitOrder};

/// The model a tour's certificate states for the value `value`: the route model where it
/// applies, else the time-indexed model of at most `value` moves ([`tour_cap_model`]).
pub fn tour_certified_model(puzzle: &TourPuzzle, value: usize) -> Result<LinearModel, CertifyError> {
    match route_model(puzzle) {
        Some(route) => Ok(route.model),
        None => Ok(tour_cap_model(puzzle, value)?.model),
    }
}

/// The certified model of `puzzle` for the value `value` ([`tour_certified_model`]), the values
/// `route` gives its variables, and the argument for its bound, if any: the distance argument
/// on the route model, else [`colour_argument`].
pub fn tour_certified(
    puzzle: &TourPuzzle,
    route: &Route,
    value: usize,
) -> Result<(LinearModel, Vec<bool>, Option<Argument>), CertifyError> {
    if let Some(model) = route_model(puzzle) {
        let values = model.assignment(puzzle, route).map_err(CertifyError::Internal)?;
        let argument = Distances::of(&model).map(|d| Argument::Distances(Box::new(d)));
        return Ok((model.model, values, argument));
    }
    let cap = tour_cap_model(puzzle, value)?;
    let values = cap.assignment(puzzle, route).map_err(CertifyError::Internal)?;
    let argument = colour_argument(&cap, puzzle);
    Ok((cap.model, values, argument))
}

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

/// The argument for a tour in any order on its at-most model: the colour argument for a lone
/// knight counting its moves ([`super::colour`]; a free start or alternatives split by the
/// start's colour), or for several knights whose starts each have one colour
/// ([`super::landings`]). `None` for other tours.
pub fn colour_argument(model: &TourModel, puzzle: &TourPuzzle) -> Option<Argument> {
    if puzzle.objective == TourObjective::Feasible || puzzle.order == VisitOrder::Listed {
        return None;
    }
    let board = &puzzle.board;
    let colour: Vec<usize> = (0..board.area()).map(|s| board.colour(Square(s as u16))).collect();
    let knights = puzzle.knights.len();
    if knights == 1 {
        return (puzzle.objective == TourObjective::Moves).then(|| {
            Argument::Lone(LoneKnight {
                at: model.knight_at(0),
                moved: model.moved_of(0),
                colour,
                targets: puzzle.targets.iter().map(|t| t.index()).collect(),
                one_rows: model.one_rows(),
            })
        });
    }
    let mut start_colour = Vec::with_capacity(knights);
    for knight in &puzzle.knights {
        let first = *knight.candidates().first()?;
        let own = colour[first.index()];
        if knight.candidates().iter().any(|s| colour[s.index()] != own) {
            return None;
        }
        start_colour.push(own);
    }
    let may_start = |s: usize| puzzle.knights.iter().any(|k| k.candidates().iter().any(|c| c.index() == s));
    let jump_rows = match puzzle.objective {
        TourObjective::Steps => Some((0..knights).map(|k| model.jump_rows_of(k)).collect::<Option<Vec<_>>>()?),
        _ => None,
    };
    Some(Argument::Landings(Landings {
        at: (0..knights).map(|k| model.knight_at(k)).collect(),
        moved: (0..knights).map(|k| model.moved_of(k)).collect(),
        colour,
        start_colour,
        targets: puzzle.targets.iter().map(|t| t.index()).filter(|&s| !may_start(s)).collect(),
        one_rows: (0..knights).map(|k| model.one_rows_of(k)).collect(),
        jump_rows,
    }))
}

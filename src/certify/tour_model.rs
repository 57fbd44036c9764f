//! The certified model of a tour: [`tour_model_at_most`], at most `cap` moves with one knight
//! jumping at a time (or `cap` time steps of knights jumping together, for the `steps`
//! objective), their number minimised.

use super::argument::Argument;
use super::colour::LoneKnight;
use super::landings::Landings;
use super::waypoints::Waypoints;
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

/// The argument for a tour on its at-most model. In any order: the colour argument for a
/// lone knight counting its moves ([`super::colour`]; a free start or alternatives split by the
/// start's colour), or for several knights whose starts each have one colour
/// ([`super::landings`]). In a listed order: the distances between the targets, for a lone
/// knight counting its moves ([`super::waypoints`]). `None` for other tours.
pub fn colour_argument(model: &TourModel, puzzle: &TourPuzzle) -> Option<Argument> {
    if puzzle.objective == TourObjective::Feasible {
        return None;
    }
    if puzzle.order == VisitOrder::Listed {
        return waypoints(model, puzzle).map(|w| Argument::Waypoints(Box::new(w)));
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

/// The distance argument for a lone knight touching its targets in a listed order for the
/// fewest moves; `None` for several knights, another objective or a target out of reach.
fn waypoints(model: &TourModel, puzzle: &TourPuzzle) -> Option<Waypoints> {
    let [knight] = puzzle.knights.as_slice() else { return None };
    if puzzle.objective != TourObjective::Moves {
        return None;
    }
    let reach: Vec<Vec<Option<usize>>> = puzzle.targets.iter().map(|&t| puzzle.distances_from(&[t])).collect();
    let first = puzzle.targets.first()?;
    let mut shortest = vec![puzzle.distances_from(knight.candidates())[first.index()]?];
    for (i, target) in puzzle.targets.iter().enumerate().skip(1) {
        shortest.push(shortest[i - 1] + reach[i - 1][target.index()]?);
    }
    let board = &puzzle.board;
    let jumps = (0..board.area()).map(|s| puzzle.knight_moves(Square(s as u16)).iter().map(|m| m.index()).collect());
    Some(Waypoints {
        at: model.knight_at(0),
        moved: model.moved_of(0),
        progress: model.progress().to_vec(),
        jumps: jumps.collect(),
        reach,
        shortest,
        targets: puzzle.targets.iter().map(|t| t.index()).collect(),
        one_rows: model.one_rows(),
        rows: model.rows().clone(),
    })
}

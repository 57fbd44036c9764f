//! The covering and conflict model of a placement puzzle, as in the MIP write-ups: a 0-1
//! variable per (square, kind), at most one piece per square, every square covered (domination)
//! and no two pieces in conflict (independence), per-kind limits and a weighted objective.

use super::{LinearModel, Relation, Sense, Unsupported};
use crate::geometry::{PieceKind, Square};
use crate::puzzle::placement::{LineOfSight, Placement, PlacementGoal, PlacementPuzzle};

/// The linear model of a placement and the piece each of its variables stands for.
#[derive(Clone, Debug)]
pub struct PlacementModel {
    /// The model.
    pub model: LinearModel,
    /// `(variable, square, kind)` for every variable.
    pieces: Vec<(usize, Square, PieceKind)>,
}

impl PlacementModel {
    /// The square of `variable`'s piece, if it is a variable of the model.
    pub fn square_of(&self, variable: usize) -> Option<Square> {
        self.pieces.iter().find(|p| p.0 == variable).map(|p| p.1)
    }

    /// The placement that `values` (one per variable) describe.
    pub fn placement(&self, values: &[bool]) -> Placement {
        self.pieces.iter().filter(|p| values[p.0]).map(|&(_, square, kind)| (square, kind)).collect()
    }
}

/// The 0-1 linear model of `puzzle`. Attacks are measured on an empty board; a puzzle whose
/// placed pieces block lines has no model here.
pub fn placement_model(puzzle: &PlacementPuzzle) -> Result<PlacementModel, Unsupported> {
    if puzzle.line_of_sight == LineOfSight::Blocked {
        return Err(Unsupported(
            "the linear model measures attacks on an empty board; this puzzle has placed pieces block lines".into(),
        ));
    }
    let board = &puzzle.board;
    let name = puzzle.name.as_deref().unwrap_or("placement");
    let mut model = LinearModel {
        title: format!("{name}: {} on {}x{}", puzzle.goal, board.width(), board.height()),
        ..LinearModel::default()
    };
    // x[s][k]: a piece of the k-th kind on square s, where one may stand.
    let x: Vec<Vec<Option<usize>>> = (0..board.area())
        .map(|s| {
            let square = Square(s as u16);
            let usable = !board.is_removed(square) && !puzzle.empty.contains(&square);
            puzzle
                .kinds
                .iter()
                .map(|rule| usable.then(|| model.variable(format!("{}_{}", rule.kind.letter(), board.name(square)))))
                .collect()
        })
        .collect();
    for square in board.squares() {
        let here: Vec<(i64, usize)> = x[square.index()].iter().flatten().map(|&v| (1, v)).collect();
        if here.len() > 1 {
            model.constrain(format!("one_{}", board.name(square)), here, Relation::AtMost, 1);
        }
    }
    for &(square, kind) in &puzzle.fixed {
        let k = puzzle.kinds.iter().position(|r| r.kind == kind).expect("fixed kinds are allowed kinds");
        let v = x[square.index()][k].expect("a fixed piece stands on a usable square");
        model.constrain(format!("fixed_{}{}", kind.letter(), board.name(square)), vec![(1, v)], Relation::Equal, 1);
    }
    for (k, rule) in puzzle.kinds.iter().enumerate() {
        let all: Vec<(i64, usize)> = x.iter().filter_map(|row| row[k]).map(|v| (1, v)).collect();
        if rule.min > 0 {
            model.constrain(format!("min_{}", rule.kind.letter()), all.clone(), Relation::AtLeast, rule.min as i64);
        }
        if let Some(max) = rule.max {
            model.constrain(format!("max_{}", rule.kind.letter()), all, Relation::AtMost, max as i64);
        }
    }
    // attackers[t]: the variables of pieces that attack square t.
    let mut attackers: Vec<Vec<usize>> = vec![Vec::new(); board.area()];
    for from in board.squares() {
        for (k, rule) in puzzle.kinds.iter().enumerate() {
            let Some(v) = x[from.index()][k] else { continue };
            for target in puzzle.attacks(rule.kind, from) {
                attackers[target.index()].push(v);
            }
        }
    }
    if puzzle.goal.covers() {
        let total = puzzle.goal == PlacementGoal::TotalDomination;
        for square in board.squares() {
            let mut terms: Vec<usize> = attackers[square.index()].clone();
            if !total {
                terms.extend(x[square.index()].iter().flatten());
            }
            let terms = terms.into_iter().map(|v| (1, v)).collect();
            model.constrain(format!("cover_{}", board.name(square)), terms, Relation::AtLeast, 1);
        }
    }
    if puzzle.goal.independent() {
        for from in board.squares() {
            for (k, rule) in puzzle.kinds.iter().enumerate() {
                let Some(v) = x[from.index()][k] else { continue };
                for target in puzzle.attacks(rule.kind, from) {
                    for (j, w) in x[target.index()].iter().enumerate() {
                        let Some(w) = *w else { continue };
                        // One row per unordered pair of conflicting pieces.
                        let mutual = puzzle.attacks(puzzle.kinds[j].kind, target).contains(&from);
                        if mutual && w < v {
                            continue;
                        }
                        let name = format!(
                            "conflict_{}{}_{}{}",
                            rule.kind.letter(),
                            board.name(from),
                            puzzle.kinds[j].kind.letter(),
                            board.name(target)
                        );
                        model.constrain(name, vec![(1, v), (1, w)], Relation::AtMost, 1);
                    }
                }
            }
        }
    }
    let objective: Vec<(i64, usize)> = x
        .iter()
        .flat_map(|row| row.iter().enumerate().filter_map(|(k, v)| v.map(|v| (puzzle.kinds[k].weight as i64, v))))
        .collect();
    let sense = if puzzle.goal.minimises() { Sense::Minimise } else { Sense::Maximise };
    model.objective = Some((sense, objective));
    let pieces = x
        .iter()
        .enumerate()
        .flat_map(|(s, row)| {
            row.iter().enumerate().filter_map(move |(k, v)| v.map(|v| (v, Square(s as u16), puzzle.kinds[k].kind)))
        })
        .collect();
    Ok(PlacementModel { model, pieces })
}

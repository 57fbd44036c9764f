//! The certified model of a tour whose objective is the number of moves (knights moving one at
//! a time): at most `cap` moves, their number minimised.
//!
//! As for exchanges ([`crate::encodings::linear::exchange_model_at_most`]), one model covers
//! every horizon up to `cap`:
//! in step `t` knight `k` jumps (`moved_k{k}_t{t}`) or stays; at most one knight jumps per
//! step; a step with a jump follows a step with a jump (`after`), so the steps without one
//! come last; the objective counts the jumps. The rows are those of
//! [`crate::encodings::linear::tour_model`] with staying allowed: each knight on one safe
//! square at every time, where it can be by then; a square is reached from a knight's move
//! away or by staying; arriving somewhere new is a jump, and a jump leaves its square; the
//! targets are touched (in the listed order, through `p{i}_t{t}`: the first `i` targets
//! touched in order by time `t`).

use super::colour::ColourArgument;
use super::CertifyError;
use crate::encodings::check::replay_tour;
use crate::encodings::geometry::Square;
use crate::encodings::linear::{LinearModel, Relation, Sense};
use crate::encodings::puzzle::tour::{Route, TourObjective, TourPuzzle, VisitOrder};

/// The model and where its variables are.
pub struct TourCap {
    /// The 0-1 model.
    pub model: LinearModel,
    /// at[t][k][s]: knight k on square s after step t.
    at: Vec<Vec<Vec<Option<usize>>>>,
    /// moved[t - 1][k]: knight k jumps in step t.
    moved: Vec<Vec<usize>>,
    /// p[t][i]: the first i + 1 targets touched in order by time t (listed order only).
    p: Vec<Vec<usize>>,
    /// one_rows[t]: the row "knight 1 on one square after step t".
    one_rows: Vec<usize>,
}

/// The model of `puzzle` with at most `cap` moves; only for the `moves` objective.
pub fn tour_cap_model(puzzle: &TourPuzzle, cap: usize) -> Result<TourCap, CertifyError> {
    if puzzle.objective != TourObjective::Moves {
        return Err(CertifyError::Unsupported(format!(
            "certificates for tours cover the `moves` objective; this tour minimises {}",
            puzzle.objective
        )));
    }
    let board = &puzzle.board;
    let knights = puzzle.knights.len();
    let name = puzzle.name.as_deref().unwrap_or("tour");
    let mut model = LinearModel {
        title: format!(
            "{name}: {} targets ({} order) by {knights} knight(s) on {}x{} in at most {cap} moves, moves minimised",
            puzzle.targets.len(),
            puzzle.order.name(),
            board.width(),
            board.height(),
        ),
        ..LinearModel::default()
    };
    let distance: Vec<Vec<Option<usize>>> =
        puzzle.knights.iter().map(|k| puzzle.distances_from(k.candidates())).collect();
    let mut at: Vec<Vec<Vec<Option<usize>>>> = Vec::new();
    let mut one_rows = Vec::new();
    for t in 0..=cap {
        let layer = (0..knights)
            .map(|k| {
                // Indexed by square index, removed squares included (they get no variable).
                (0..board.area())
                    .map(|s| {
                        let square = Square(s as u16);
                        let near = distance[k][s].is_some_and(|d| d <= t) && puzzle.is_safe(square);
                        near.then(|| model.variable(format!("at_k{}_{}_t{t}", k + 1, board.name(square))))
                    })
                    .collect()
            })
            .collect();
        at.push(layer);
    }
    let ones = |vars: &mut dyn Iterator<Item = usize>| -> Vec<(i64, usize)> { vars.map(|v| (1, v)).collect() };
    for (t, layer) in at.iter().enumerate() {
        for (k, row) in layer.iter().enumerate() {
            let label = if t == 0 { format!("start_k{}", k + 1) } else { format!("one_k{}_t{t}", k + 1) };
            if k == 0 {
                one_rows.push(model.constraints.len());
            }
            model.constrain(label, ones(&mut row.iter().flatten().copied()), Relation::Equal, 1);
        }
        if knights > 1 {
            for square in board.squares() {
                let here = ones(&mut layer.iter().filter_map(|row| row[square.index()]));
                if here.len() > 1 {
                    model.constrain(format!("share_{}_t{t}", board.name(square)), here, Relation::AtMost, 1);
                }
            }
        }
    }
    let jumps: Vec<Vec<usize>> =
        (0..board.area()).map(|s| puzzle.knight_moves(Square(s as u16)).iter().map(|m| m.index()).collect()).collect();
    let mut moved: Vec<Vec<usize>> = Vec::new();
    for t in 1..=cap {
        let step: Vec<usize> = (0..knights).map(|k| model.variable(format!("moved_k{}_t{t}", k + 1))).collect();
        for (k, (now_row, was_row)) in at[t].iter().zip(&at[t - 1]).enumerate() {
            for square in board.squares() {
                let s = square.index();
                let what = format!("k{}_{}_t{t}", k + 1, board.name(square));
                if let Some(now) = now_row[s] {
                    let mut terms = vec![(1, now)];
                    terms.extend(jumps[s].iter().filter_map(|&from| was_row[from]).map(|v| (-1, v)));
                    terms.extend(was_row[s].map(|v| (-1, v)));
                    model.constrain(format!("reach_{what}"), terms, Relation::AtMost, 0);
                    // Arriving on a square it did not stand on is a jump.
                    let mut terms = vec![(1, step[k]), (-1, now)];
                    terms.extend(was_row[s].map(|v| (1, v)));
                    model.constrain(format!("arrive_{what}"), terms, Relation::AtLeast, 0);
                    if let Some(was) = was_row[s] {
                        // A jump leaves the square.
                        model.constrain(
                            format!("stay_{what}"),
                            vec![(1, step[k]), (1, was), (1, now)],
                            Relation::AtMost,
                            2,
                        );
                    }
                }
            }
        }
        if knights > 1 {
            model.constrain(format!("one_move_t{t}"), ones(&mut step.iter().copied()), Relation::AtMost, 1);
        }
        if let Some(before) = moved.last() {
            for (k, &m) in step.iter().enumerate() {
                let mut terms = vec![(1, m)];
                terms.extend(before.iter().map(|&b| (-1, b)));
                model.constrain(format!("after_k{}_t{t}", k + 1), terms, Relation::AtMost, 0);
            }
        }
        moved.push(step);
    }
    let on = |i: usize, t: usize| -> Vec<usize> {
        let s = puzzle.targets[i].index();
        at[t].iter().filter_map(|row| row[s]).collect()
    };
    let mut p: Vec<Vec<usize>> = Vec::new();
    match puzzle.order {
        VisitOrder::Any => {
            for (i, &target) in puzzle.targets.iter().enumerate() {
                let all = ones(&mut (0..=cap).flat_map(|t| on(i, t)));
                model.constrain(format!("touch_{}", board.name(target)), all, Relation::AtLeast, 1);
            }
        }
        VisitOrder::Listed => {
            p = (0..=cap)
                .map(|t| (0..puzzle.targets.len()).map(|i| model.variable(format!("p{}_t{t}", i + 1))).collect())
                .collect();
            for t in 0..=cap {
                for i in 0..puzzle.targets.len() {
                    if i > 0 {
                        let terms = vec![(1, p[t][i]), (-1, p[t][i - 1])];
                        model.constrain(format!("after_p{}_t{t}", i + 1), terms, Relation::AtMost, 0);
                    }
                    let mut terms = vec![(1, p[t][i])];
                    if t > 0 {
                        terms.push((-1, p[t - 1][i]));
                    }
                    terms.extend(on(i, t).into_iter().map(|v| (-1, v)));
                    model.constrain(format!("touch_p{}_t{t}", i + 1), terms, Relation::AtMost, 0);
                }
            }
            if let Some(&last) = p[cap].last() {
                model.constrain("all_touched", vec![(1, last)], Relation::Equal, 1);
            }
        }
    }
    model.objective = Some((Sense::Minimise, ones(&mut moved.iter().flatten().copied())));
    Ok(TourCap { model, at, moved, p, one_rows })
}

impl TourCap {
    /// The colour argument ([`super::colour`]) for a lone knight with one starting square
    /// touching its targets in any order; `None` for other tours.
    pub fn colour_argument(&self, puzzle: &TourPuzzle) -> Option<ColourArgument> {
        let [knight] = puzzle.knights.as_slice() else { return None };
        let [start] = knight.candidates() else { return None };
        if puzzle.order != VisitOrder::Any {
            return None;
        }
        let board = &puzzle.board;
        let colour = |s: Square| (board.file(s) + board.rank(s)) % 2;
        Some(ColourArgument {
            at: self.at.iter().map(|layer| layer[0].clone()).collect(),
            moved: self.moved.iter().map(|step| step[0]).collect(),
            even: (0..board.area()).map(|s| colour(Square(s as u16)) == colour(*start)).collect(),
            targets: puzzle.targets.iter().filter(|&t| t != start).map(|t| t.index()).collect(),
            one_rows: self.one_rows.clone(),
        })
    }

    /// The values a legal route of at most `cap` moves, one jump per step, gives the variables.
    pub fn assignment(&self, puzzle: &TourPuzzle, route: &Route) -> Result<Vec<bool>, CertifyError> {
        let cap = self.moved.len();
        let replay = replay_tour(puzzle, route)
            .map_err(|e| CertifyError::Internal(format!("the solution breaks the rules: {e}")))?;
        if route.steps.len() > cap || route.steps.iter().any(|s| s.len() != 1) {
            return Err(CertifyError::Internal("the route does not make one jump per step within the cap".into()));
        }
        let last = route.steps.len();
        let mut values = vec![false; self.model.variables.len()];
        let missing = || CertifyError::Internal("a knight where the model has no variable".into());
        for t in 0..=cap {
            for (k, square) in replay.positions[t.min(last)].iter().enumerate() {
                let var: Option<usize> = self.at[t][k][Square::index(*square)];
                values[var.ok_or_else(missing)?] = true;
            }
            for (i, &first) in replay.touched_at.iter().enumerate() {
                if puzzle.order == VisitOrder::Listed && first <= t {
                    values[self.p[t][i]] = true;
                }
            }
        }
        for (t, step) in route.steps.iter().enumerate() {
            for jump in step {
                values[self.moved[t][jump.knight]] = true;
            }
        }
        Ok(values)
    }
}

//! The time-indexed model of a tour, as in the MIP write-ups: a 0-1 variable
//! `at_k{k}_{square}_t{t}` per knight, safe square and time (only where the knight can be by
//! then), each knight on one square and no two on one square at every time, every square
//! reached by a wait or a knight's move, and the targets touched by the last time.
//!
//! `moved_k{k}_t{t}` says that knight `k` changed squares in step `t`. Two forms, by
//! [`Horizon`]:
//!
//! - **exactly `T` steps** ([`tour_model`], for `export` and the MIP backend): a lone knight
//!   jumps at every step (as in the CNF encoding), so its model has no moved variables and no
//!   objective; several knights may wait, exactly one jumps per step when they move one at a
//!   time (the number of moves is then the horizon, so there is no objective), and the jumps
//!   are minimised for [`TourObjective::Steps`].
//! - **at most `T` moves, their number minimised** ([`tour_model_at_most`], the model of a
//!   certificate): every knight may stay, at most one jumps per step, a step with a jump
//!   follows a step with a jump (`after_k{k}_t{t}`), so the steps without one come last, and
//!   the objective counts the jumps. Every route of at most `T` moves is one solution, so one
//!   bound on this model speaks of every shorter horizon. For the `steps` objective, knights
//!   jump together instead: `step_t{t}` says some knight jumps in step `t`, steps without a
//!   jump come last (`after_t{t}`), and the objective counts the steps.
//!
//! In the listed order, `p{i}_t{t}` says the first `i` targets have been touched in order by
//! time `t`: `p{i}_t{t} <= p{i-1}_t{t}` and `p{i}_t{t} <= p{i}_t{t-1} + (knights on target i
//! at t)`, and the last one must hold at the last time.

use super::{Horizon, LinearModel, Relation, Sense};
use crate::check::replay_tour;
use crate::geometry::Square;
use crate::puzzle::tour::{Jump, Route, TourObjective, TourPuzzle, VisitOrder};

/// The time-indexed model of a tour and where its variables are.
#[derive(Clone, Debug)]
pub struct TourModel {
    /// The model.
    pub model: LinearModel,
    /// `at[t][k][s]`: the variable of knight `k` on square `s` after `t` steps, if any.
    at: Vec<Vec<Vec<Option<usize>>>>,
    /// `moved[t - 1][k]`: knight `k` jumps in step `t` (none for a lone knight's exact model).
    moved: Vec<Vec<usize>>,
    /// `stepped[t - 1]`: some knight jumps in step `t` (at-most models of the `steps` objective).
    stepped: Vec<usize>,
    /// `p[t][i]`: the first `i + 1` targets touched in order by time `t` (listed order only).
    p: Vec<Vec<usize>>,
    /// Whether the model takes routes of up to its horizon rather than exactly that long.
    at_most: bool,
    /// `one_rows[t][k]`: the index of the row "knight `k` on one square after step `t`".
    one_rows: Vec<Vec<usize>>,
    /// `jump_rows[t - 1][k]`: the index of the row "knight `k` jumps in step `t` only if the
    /// step counts" (at-most models of the `steps` objective; empty otherwise).
    jump_rows: Vec<Vec<usize>>,
    /// Where the rows of the moves and of the listed order are.
    rows: TourRows,
}

/// Where some rows of a [`TourModel`] are, for proofs that name them (indices into the
/// model's rows).
#[derive(Clone, Debug, Default)]
pub struct TourRows {
    /// `reach[t - 1][k][s]`: knight `k` on square `s` after step `t` stood there or on a
    /// square a jump away after step `t - 1`.
    pub reach: Vec<Vec<Vec<Option<usize>>>>,
    /// `arrive[t - 1][k][s]`: knight `k` arriving on square `s` in step `t` jumped (models where
    /// knights may stay).
    pub arrive: Vec<Vec<Vec<Option<usize>>>>,
    /// `touch[t][i]`: targets `0..=i` touched in order by time `t` only if so by time `t - 1`
    /// or a knight stands on target `i` at `t` (listed order).
    pub touch: Vec<Vec<usize>>,
    /// `order[t][i - 1]`: targets `0..=i` touched in order by time `t` only if targets
    /// `0..i` are (listed order).
    pub order: Vec<Vec<usize>>,
    /// Every target touched in order by the last time (listed order).
    pub all_touched: Option<usize>,
    /// `stay[t - 1][k][s]`: knight `k` standing on square `s` after steps `t - 1` and `t` did
    /// not jump in step `t` (models where knights may stay).
    pub stay: Vec<Vec<Vec<Option<usize>>>>,
    /// `after[t - 2][k]`: knight `k` jumps in step `t` only if it jumped in step `t - 1`
    /// (at-most models of one knight jumping at a time, from `t = 2`).
    pub after: Vec<Vec<usize>>,
    /// `reached[i]`: target `i` is stood on at some time (any order).
    pub reached: Vec<usize>,
}

impl TourModel {
    /// The route that `values` (one per variable) describe: where each knight stands at each
    /// time, and a jump wherever it changed squares (a step in which every knight waits is dropped).
    pub fn route(&self, values: &[bool]) -> Route {
        let squares: Vec<Vec<Square>> = self
            .at
            .iter()
            .map(|layer| {
                layer
                    .iter()
                    .map(|row| {
                        let s = row.iter().position(|v| v.is_some_and(|v| values[v]));
                        Square(s.unwrap_or(0) as u16)
                    })
                    .collect()
            })
            .collect();
        let steps = squares
            .windows(2)
            .map(|pair| {
                (pair[0].iter().zip(&pair[1]).enumerate())
                    .filter(|(_, (from, to))| from != to)
                    .map(|(knight, (&from, &to))| Jump { knight, from, to })
                    .collect::<Vec<Jump>>()
            })
            .filter(|jumps| !jumps.is_empty())
            .collect();
        Route { starts: squares[0].clone(), steps }
    }

    /// The variables of knight `k` on each square, by time (`None` where it cannot be).
    pub fn knight_at(&self, k: usize) -> Vec<Vec<Option<usize>>> {
        self.at.iter().map(|layer| layer[k].clone()).collect()
    }

    /// The variables "knight `k` jumps in step `t`", for `t` from 1 (empty without them).
    pub fn moved_of(&self, k: usize) -> Vec<usize> {
        self.moved.iter().map(|step| step[k]).collect()
    }

    /// `progress()[t][i]`: targets `0..=i` touched in order by time `t` (empty unless the order
    /// is listed).
    pub fn progress(&self) -> &[Vec<usize>] {
        &self.p
    }

    /// Where the rows of the moves and of the listed order are.
    pub fn rows(&self) -> &TourRows {
        &self.rows
    }

    /// The indices of the rows "knight 1 on one square", by time.
    pub fn one_rows(&self) -> Vec<usize> {
        self.one_rows_of(0)
    }

    /// The indices of the rows "knight `k` on one square", by time.
    pub fn one_rows_of(&self, k: usize) -> Vec<usize> {
        self.one_rows.iter().map(|layer| layer[k]).collect()
    }

    /// The indices of the rows "knight `k` jumps in step `t` only if step `t` counts", for `t`
    /// from 1: at-most models of the `steps` objective; `None` for others.
    pub fn jump_rows_of(&self, k: usize) -> Option<Vec<usize>> {
        (!self.jump_rows.is_empty()).then(|| self.jump_rows.iter().map(|step| step[k]).collect())
    }

    /// The values that a legal route within the horizon gives the variables of an at-most
    /// model (one jump per step, or several for the `steps` objective); why not otherwise.
    pub fn assignment(&self, puzzle: &TourPuzzle, route: &Route) -> Result<Vec<bool>, String> {
        let cap = self.at.len() - 1;
        if !self.at_most {
            return Err("only a model of at most so many moves takes a route of fewer".into());
        }
        let replay = replay_tour(puzzle, route).map_err(|e| format!("the route breaks the rules: {e}"))?;
        let together = puzzle.objective == TourObjective::Steps;
        if route.steps.len() > cap || route.steps.iter().any(|s| s.is_empty() || (s.len() > 1 && !together)) {
            return Err("the route does not fit the horizon, one jump per step unless knights jump together".into());
        }
        let last = route.steps.len();
        let mut values = vec![false; self.model.variables.len()];
        for t in 0..=cap {
            for (k, square) in replay.positions[t.min(last)].iter().enumerate() {
                values[self.at[t][k][square.index()].ok_or("a knight where the model has no variable")?] = true;
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
            if let Some(&any) = self.stepped.get(t) {
                values[any] = true;
            }
        }
        Ok(values)
    }
}

/// The 0-1 linear model of `puzzle` with exactly `horizon` time steps.
pub fn tour_model(puzzle: &TourPuzzle, horizon: usize) -> TourModel {
    tour_model_for(puzzle, Horizon::Exactly(horizon))
}

/// The terms of a tour's time-indexed linear model at `horizon`, told before it is built: what
/// the model grows by from horizon 1 to 2, every later step adds as much.
pub fn tour_model_terms(puzzle: &TourPuzzle, horizon: usize) -> usize {
    if horizon <= 2 {
        return 0;
    }
    let terms = |model: TourModel| model.model.constraints.iter().map(|c| c.terms.len()).sum::<usize>();
    let (one, two) = (terms(tour_model(puzzle, 1)), terms(tour_model(puzzle, 2)));
    two.saturating_add(two.saturating_sub(one).saturating_mul(horizon - 2))
}

/// The 0-1 linear model of `puzzle` in at most `cap` moves, one knight at a time, their number
/// minimised; for the `steps` objective, at most `cap` time steps of knights jumping together,
/// their number minimised.
pub fn tour_model_at_most(puzzle: &TourPuzzle, cap: usize) -> TourModel {
    tour_model_for(puzzle, Horizon::AtMost(cap))
}

/// The 0-1 linear model of `puzzle` in the form that `horizon` asks for.
pub fn tour_model_for(puzzle: &TourPuzzle, horizon: Horizon) -> TourModel {
    let board = &puzzle.board;
    let knights = puzzle.knights.len();
    let several = knights > 1;
    let (last, at_most) = match horizon {
        Horizon::Exactly(t) => (t, false),
        Horizon::AtMost(t) => (t, true),
    };
    // Knights may stay where they are: several knights, or an at-most model.
    let staying = several || at_most;
    let name = puzzle.name.as_deref().unwrap_or("tour");
    let what = format!(
        "{name}: {} targets ({} order) by {knights} knight(s) on {}x{}",
        puzzle.targets.len(),
        puzzle.order.name(),
        board.width(),
        board.height()
    );
    let title = if at_most {
        format!("{what} in at most {last} moves, moves minimised")
    } else {
        format!("{what}, objective {}, horizon {last}", puzzle.objective)
    };
    let mut model = LinearModel { title, ..LinearModel::default() };
    // Square names, made once: the model names a variable or row after a square many times.
    let names: Vec<String> = (0..board.area()).map(|s| board.name(Square(s as u16))).collect();
    let distance: Vec<Vec<Option<usize>>> =
        puzzle.knights.iter().map(|k| puzzle.distances_from(k.candidates())).collect();
    // at[t][k][s]: knight k on square s after t steps, where it can be by then.
    let mut at: Vec<Vec<Vec<Option<usize>>>> = Vec::new();
    for t in 0..=last {
        let layer = (0..knights)
            .map(|k| {
                (0..board.area())
                    .map(|s| {
                        let square = Square(s as u16);
                        let near = distance[k][s].is_some_and(|d| d <= t) && puzzle.is_safe(square);
                        near.then(|| model.variable(format!("at_k{}_{}_t{t}", k + 1, names[s])))
                    })
                    .collect()
            })
            .collect();
        at.push(layer);
    }
    let ones = |vars: &mut dyn Iterator<Item = usize>| -> Vec<(i64, usize)> { vars.map(|v| (1, v)).collect() };
    let mut one_rows = Vec::new();
    for (t, layer) in at.iter().enumerate() {
        let mut rows = Vec::new();
        for (k, row) in layer.iter().enumerate() {
            let label = if t == 0 { format!("start_k{}", k + 1) } else { format!("one_k{}_t{t}", k + 1) };
            rows.push(model.constraints.len());
            model.constrain(label, ones(&mut row.iter().flatten().copied()), Relation::Equal, 1);
        }
        one_rows.push(rows);
        if several {
            for square in board.squares() {
                let here = ones(&mut layer.iter().filter_map(|row| row[square.index()]));
                if here.len() > 1 {
                    model.constrain(format!("share_{}_t{t}", names[square.index()]), here, Relation::AtMost, 1);
                }
            }
        }
    }
    // Every square a knight stands on it stood on (staying) or reached by a knight's move.
    let moves: Vec<Vec<usize>> =
        (0..board.area()).map(|s| puzzle.knight_moves(Square(s as u16)).iter().map(|m| m.index()).collect()).collect();
    let mut rows = TourRows::default();
    for t in 1..=last {
        let mut layer = vec![vec![None; board.area()]; knights];
        for (k, (now_row, was_row)) in at[t].iter().zip(&at[t - 1]).enumerate() {
            for square in board.squares() {
                let s = square.index();
                let Some(now) = now_row[s] else { continue };
                layer[k][s] = Some(model.constraints.len());
                let mut terms = vec![(1, now)];
                terms.extend(moves[s].iter().filter_map(|&from| was_row[from]).map(|v| (-1, v)));
                if staying {
                    terms.extend(was_row[s].map(|v| (-1, v)));
                }
                model.constrain(format!("reach_k{}_{}_t{t}", k + 1, names[s]), terms, Relation::AtMost, 0);
            }
        }
        rows.reach.push(layer);
    }
    // moved[t-1][k]: knight k changed squares in step t.
    let mut moved: Vec<Vec<usize>> = Vec::new();
    // stepped[t-1]: some knight jumps in step t (at-most models of the `steps` objective).
    let mut stepped: Vec<usize> = Vec::new();
    let mut jump_rows: Vec<Vec<usize>> = Vec::new();
    if staying {
        for t in 1..=last {
            let mut step = Vec::new();
            let mut arrive = vec![vec![None; board.area()]; knights];
            let mut stay = vec![vec![None; board.area()]; knights];
            for (k, (now_row, was_row)) in at[t].iter().zip(&at[t - 1]).enumerate() {
                let m = model.variable(format!("moved_k{}_t{t}", k + 1));
                for square in board.squares() {
                    let s = square.index();
                    let (was, now) = (was_row[s], now_row[s]);
                    if now.is_none() {
                        continue;
                    }
                    let at_name = format!("k{}_{}_t{t}", k + 1, names[s]);
                    if let Some(now) = now {
                        // Arriving on a square it did not stand on is a move.
                        let mut terms = vec![(1, m), (-1, now)];
                        terms.extend(was.map(|v| (1, v)));
                        arrive[k][s] = Some(model.constraints.len());
                        model.constrain(format!("arrive_{at_name}"), terms, Relation::AtLeast, 0);
                    }
                    if let (Some(was), Some(now)) = (was, now) {
                        // Staying on a square is no move.
                        let terms = vec![(1, m), (1, was), (1, now)];
                        stay[k][s] = Some(model.constraints.len());
                        model.constrain(format!("stay_{at_name}"), terms, Relation::AtMost, 2);
                    }
                }
                step.push(m);
            }
            rows.arrive.push(arrive);
            rows.stay.push(stay);
            if at_most && puzzle.objective == TourObjective::Steps {
                // Knights jump together; `step_t{t}`: some knight jumps in step t.
                let any = model.variable(format!("step_t{t}"));
                let mut rows = Vec::new();
                for (k, &m) in step.iter().enumerate() {
                    rows.push(model.constraints.len());
                    model.constrain(format!("jump_k{}_t{t}", k + 1), vec![(1, m), (-1, any)], Relation::AtMost, 0);
                }
                jump_rows.push(rows);
                let mut terms = vec![(1, any)];
                terms.extend(step.iter().map(|&m| (-1, m)));
                model.constrain(format!("step_t{t}"), terms, Relation::AtMost, 0);
                if let Some(&before) = stepped.last() {
                    model.constrain(format!("after_t{t}"), vec![(1, any), (-1, before)], Relation::AtMost, 0);
                }
                stepped.push(any);
            } else if at_most {
                if several {
                    model.constrain(format!("one_move_t{t}"), ones(&mut step.iter().copied()), Relation::AtMost, 1);
                }
                if let Some(before) = moved.last() {
                    let mut after = Vec::new();
                    for (k, &m) in step.iter().enumerate() {
                        let mut terms = vec![(1, m)];
                        terms.extend(before.iter().map(|&b| (-1, b)));
                        after.push(model.constraints.len());
                        model.constrain(format!("after_k{}_t{t}", k + 1), terms, Relation::AtMost, 0);
                    }
                    rows.after.push(after);
                }
            } else if !puzzle.objective.parallel() {
                model.constrain(format!("one_move_t{t}"), ones(&mut step.iter().copied()), Relation::Equal, 1);
            }
            moved.push(step);
        }
    }
    // Knights standing on target i at time t.
    let on = |i: usize, t: usize| -> Vec<usize> {
        let s = puzzle.targets[i].index();
        at[t].iter().filter_map(|row| row[s]).collect()
    };
    let mut p: Vec<Vec<usize>> = Vec::new();
    match puzzle.order {
        VisitOrder::Any => {
            for (i, &target) in puzzle.targets.iter().enumerate() {
                let all = ones(&mut (0..=last).flat_map(|t| on(i, t)));
                rows.reached.push(model.constraints.len());
                model.constrain(format!("touch_{}", board.name(target)), all, Relation::AtLeast, 1);
            }
        }
        VisitOrder::Listed => {
            p = (0..=last)
                .map(|t| (0..puzzle.targets.len()).map(|i| model.variable(format!("p{}_t{t}", i + 1))).collect())
                .collect();
            for t in 0..=last {
                let (mut touch, mut order) = (Vec::new(), Vec::new());
                for i in 0..puzzle.targets.len() {
                    if i > 0 {
                        order.push(model.constraints.len());
                        let terms = vec![(1, p[t][i]), (-1, p[t][i - 1])];
                        model.constrain(format!("after_p{}_t{t}", i + 1), terms, Relation::AtMost, 0);
                    }
                    let mut terms = vec![(1, p[t][i])];
                    if t > 0 {
                        terms.push((-1, p[t - 1][i]));
                    }
                    terms.extend(on(i, t).into_iter().map(|v| (-1, v)));
                    touch.push(model.constraints.len());
                    model.constrain(format!("touch_p{}_t{t}", i + 1), terms, Relation::AtMost, 0);
                }
                rows.touch.push(touch);
                rows.order.push(order);
            }
            if let Some(&last) = p[last].last() {
                rows.all_touched = Some(model.constraints.len());
                model.constrain("all_touched", vec![(1, last)], Relation::Equal, 1);
            }
        }
    }
    if at_most && puzzle.objective == TourObjective::Steps {
        model.objective = Some((Sense::Minimise, ones(&mut stepped.iter().copied())));
    } else if at_most || (several && puzzle.objective == TourObjective::Steps) {
        model.objective = Some((Sense::Minimise, ones(&mut moved.iter().flatten().copied())));
    }
    TourModel { model, at, moved, stepped, p, at_most, one_rows, jump_rows, rows }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::replay_tour;
    use crate::geometry::Board;
    use crate::linear::{satisfying, write_opb};
    use crate::puzzle::tour::{Jump, KnightStart, Route};

    fn puzzle(starts: &[&str], targets: &[&str], order: VisitOrder, objective: TourObjective) -> TourPuzzle {
        let board = Board::new(3, 3).unwrap();
        let sq = |n: &&str| board.parse_square(n).unwrap();
        let knights = starts.iter().map(|s| KnightStart::At(sq(s))).collect();
        let targets = Some(targets.iter().map(sq).collect());
        TourPuzzle::new(None, board.clone(), Vec::new(), knights, targets, order, objective).unwrap()
    }

    /// A route of one-knight steps `(knight, from, to)`, or several jumps per step.
    fn route(puzzle: &TourPuzzle, steps: &[&[(usize, &str, &str)]]) -> Route {
        let sq = |n: &str| puzzle.board.parse_square(n).unwrap();
        let starts = puzzle.knights.iter().map(|k| k.candidates()[0]).collect();
        let steps = steps
            .iter()
            .map(|jumps| jumps.iter().map(|&(knight, from, to)| Jump { knight, from: sq(from), to: sq(to) }).collect())
            .collect();
        Route { starts, steps }
    }

    /// The values a legal route gives the model's variables, found by name.
    fn assignment(model: &LinearModel, puzzle: &TourPuzzle, route: &Route) -> Vec<bool> {
        let replay = replay_tour(puzzle, route).expect("a legal route");
        let mut values = vec![false; model.variables.len()];
        let mut set = |name: String| values[model.variables.iter().position(|v| *v == name).unwrap()] = true;
        for (t, squares) in replay.positions.iter().enumerate() {
            for (k, &s) in squares.iter().enumerate() {
                set(format!("at_k{}_{}_t{t}", k + 1, puzzle.board.name(s)));
                if t > 0 && replay.positions[t - 1][k] != s && puzzle.knights.len() > 1 {
                    set(format!("moved_k{}_t{t}", k + 1));
                }
            }
            for (i, &first) in replay.touched_at.iter().enumerate() {
                if puzzle.order == VisitOrder::Listed && first <= t {
                    set(format!("p{}_t{t}", i + 1));
                }
            }
        }
        values
    }

    #[test]
    fn a_lone_knight_touches_b3_and_c1_in_two_jumps_and_not_in_one() {
        let tour = puzzle(&["a1"], &["b3", "c1"], VisitOrder::Any, TourObjective::Moves);
        let model = tour_model(&tour, 2).model;
        assert!(model.objective.is_none());
        let a1b3c1 = route(&tour, &[&[(0, "a1", "b3")], &[(0, "b3", "c1")]]);
        let values = assignment(&model, &tour, &a1b3c1);
        assert!(model.satisfied_by(&values));
        assert_eq!(satisfying(&model), vec![values]);
        assert!(satisfying(&tour_model(&tour, 1).model).is_empty());
    }

    #[test]
    fn the_listed_order_is_kept() {
        let tour = puzzle(&["a1"], &["b3", "c1"], VisitOrder::Listed, TourObjective::Moves);
        let model = tour_model(&tour, 2).model;
        let a1b3c1 = route(&tour, &[&[(0, "a1", "b3")], &[(0, "b3", "c1")]]);
        assert_eq!(satisfying(&model), vec![assignment(&model, &tour, &a1b3c1)]);
        let reversed = puzzle(&["a1"], &["c1", "b3"], VisitOrder::Listed, TourObjective::Moves);
        assert!(satisfying(&tour_model(&reversed, 2).model).is_empty());
        let back = route(&reversed, &[&[(0, "a1", "b3")], &[(0, "b3", "c1")], &[(0, "c1", "b3")]]);
        let model = tour_model(&reversed, 3).model;
        assert!(model.satisfied_by(&assignment(&model, &reversed, &back)));
    }

    #[test]
    fn several_knights_move_one_at_a_time_or_together() {
        let tour = puzzle(&["a1", "c3"], &["b3"], VisitOrder::Any, TourObjective::Moves);
        let model = tour_model(&tour, 1).model;
        let jump = route(&tour, &[&[(0, "a1", "b3")]]);
        assert_eq!(satisfying(&model), vec![assignment(&model, &tour, &jump)]);
        // Together: the second knight may also jump to a2 or b1 or wait; one move is best.
        let tour = puzzle(&["a1", "c3"], &["b3"], VisitOrder::Any, TourObjective::Steps);
        let model = tour_model(&tour, 1).model;
        let all = satisfying(&model);
        assert_eq!(all.len(), 3);
        assert_eq!(all.iter().filter_map(|v| model.objective_value(v)).min(), Some(1));
        let both = route(&tour, &[&[(0, "a1", "b3"), (1, "c3", "a2")]]);
        assert!(model.satisfied_by(&assignment(&model, &tour, &both)));
    }

    #[test]
    fn knights_never_share_a_square() {
        // Knights on a1 and a3 can both jump to c2, but not in the same step.
        let tour = puzzle(&["a1", "a3"], &["c2"], VisitOrder::Any, TourObjective::Steps);
        let model = tour_model(&tour, 1).model;
        let all = satisfying(&model);
        // One knight jumps to c2, the other waits or jumps elsewhere.
        assert_eq!(all.len(), 4);
        for values in all {
            let on_c2 = model.variables.iter().zip(&values).filter(|(n, &v)| v && n.contains("_c2_t1")).count();
            assert_eq!(on_c2, 1);
        }
    }

    #[test]
    fn the_opb_form_parses() {
        let tour = puzzle(&["a1", "c3"], &["b3", "a2"], VisitOrder::Listed, TourObjective::Steps);
        let model = tour_model(&tour, 3).model;
        let mut text = Vec::new();
        write_opb(&model, &mut text).unwrap();
        let instance: rustsat::instances::OptInstance =
            rustsat::instances::OptInstance::from_opb(&mut text.as_slice(), Default::default()).unwrap();
        assert_eq!(instance.constraints_ref().n_vars() as usize, model.variables.len());
        assert!(instance.objective_ref().n_lits() > 0);
    }
}

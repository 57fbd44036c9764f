//! The certified model of an exchange: at most `cap` moves, the number of moves minimised.
//!
//! The time-indexed model of [`crate::encodings::linear::exchange_model`] asks for exactly `T`
//! moves and has no objective, so "16 is optimal" would take one refutation for every horizon
//! below 16. Here one model covers them all: step `t` either makes one move (`moved_t{t}`) or
//! none, steps without a move come only after the last move (`after_t{t}`: a move in step `t`
//! needs one in step `t - 1`), and the objective counts the moves. Every sequence of at most
//! `cap` moves is exactly one solution of the model, padded with empty steps, so the bound
//! `moves >= cap` proved on it says that no shorter sequence exists.
//!
//! Every row is a clause or "at most one"/"exactly one" (the frame axiom is written as four
//! clauses per piece group, square and step), so the SAT encoding is the rows themselves.

use std::collections::HashMap;

use super::CertifyError;
use crate::encodings::geometry::{move_steps, Piece, Square};
use crate::encodings::linear::{LinearModel, Relation, Sense};
use crate::encodings::puzzle::{ExchangePuzzle, Move};

/// The model and where its variables are.
pub struct ExchangeCap {
    /// The 0-1 model.
    pub model: LinearModel,
    /// x[t][g][s]: a piece of group g on square s after step t.
    x: Vec<Vec<Vec<Option<usize>>>>,
    /// The move variables by step (from 1), group, origin and destination.
    moves: HashMap<(usize, usize, Square, Square), usize>,
    /// moved[t - 1]: step t makes a move.
    moved: Vec<usize>,
    /// The piece groups, as [`ExchangePuzzle::groups`] lists them.
    groups: Vec<Piece>,
}

/// One move variable while the model is built.
struct MoveVar {
    group: usize,
    from: Square,
    to: Square,
    between: Vec<Square>,
    var: usize,
}

/// The model of `puzzle` with at most `cap` moves.
pub fn exchange_cap_model(puzzle: &ExchangePuzzle, cap: usize) -> ExchangeCap {
    let board = &puzzle.board;
    let groups = puzzle.groups();
    let name = puzzle.name.as_deref().unwrap_or("exchange");
    let mut model = LinearModel {
        title: format!(
            "{name}: exchange of {} pieces on {}x{} in at most {cap} moves, moves minimised",
            puzzle.piece_count(),
            board.width(),
            board.height()
        ),
        ..LinearModel::default()
    };
    let labels: Vec<String> = groups.iter().map(|&g| label(puzzle, g)).collect();
    let x: Vec<Vec<Vec<Option<usize>>>> = (0..=cap)
        .map(|t| {
            (0..groups.len())
                .map(|g| {
                    board
                        .squares()
                        .map(|s| {
                            (!board.is_removed(s))
                                .then(|| model.variable(format!("x_{}_{}_t{t}", labels[g], board.name(s))))
                        })
                        .collect()
                })
                .collect()
        })
        .collect();
    let at = |t: usize, g: usize, s: Square| x[t][g][s.index()].expect("usable squares have variables");
    let occupied = |t: usize, s: Square| -> Vec<usize> { (0..groups.len()).map(|g| at(t, g, s)).collect() };
    let ones = |vars: Vec<usize>| -> Vec<(i64, usize)> { vars.into_iter().map(|v| (1, v)).collect() };
    for t in 0..=cap {
        if groups.len() > 1 {
            for s in board.squares().filter(|&s| !board.is_removed(s)) {
                model.constrain(format!("one_{}_t{t}", board.name(s)), ones(occupied(t, s)), Relation::AtMost, 1);
            }
        }
    }
    for (t, position, what) in [(0, &puzzle.start, "start"), (cap, &puzzle.goal, "goal")] {
        for (g, &group) in groups.iter().enumerate() {
            for s in board.squares().filter(|&s| !board.is_removed(s)) {
                let there = i64::from(position.get(s) == Some(group));
                let row = format!("{what}_{}_{}", labels[g], board.name(s));
                model.constrain(row, vec![(1, at(t, g, s))], Relation::Equal, there);
            }
        }
    }
    let mut index = HashMap::new();
    let mut moved = Vec::new();
    for t in 1..=cap {
        let mut moves: Vec<MoveVar> = Vec::new();
        for (g, &group) in groups.iter().enumerate() {
            for from in board.squares() {
                for step in move_steps(board, group.kind, from, puzzle.pawns(group)) {
                    let var =
                        model.variable(format!("mv_{}_{}_{}_t{t}", labels[g], board.name(from), board.name(step.to)));
                    index.insert((t, g, from, step.to), var);
                    moves.push(MoveVar { group: g, from, to: step.to, between: step.between, var });
                }
            }
        }
        let step = model.variable(format!("moved_t{t}"));
        let mut terms = ones(moves.iter().map(|m| m.var).collect());
        terms.push((-1, step));
        model.constrain(format!("step_t{t}"), terms, Relation::Equal, 0);
        if let Some(&before) = moved.last() {
            model.constrain(format!("after_t{t}"), vec![(1, step), (-1, before)], Relation::AtMost, 0);
        }
        moved.push(step);
        for m in &moves {
            let what = format!("{}_{}_{}_t{t}", labels[m.group], board.name(m.from), board.name(m.to));
            model.constrain(
                format!("from_{what}"),
                vec![(1, m.var), (-1, at(t - 1, m.group, m.from))],
                Relation::AtMost,
                0,
            );
            for (role, &square) in std::iter::once(("to", &m.to)).chain(m.between.iter().map(|b| ("via", b))) {
                let mut terms = vec![(1, m.var)];
                terms.extend(ones(occupied(t - 1, square)));
                model.constrain(format!("{role}_{}_{what}", board.name(square)), terms, Relation::AtMost, 1);
            }
            model.constrain(
                format!("arrive_{what}"),
                vec![(1, m.var), (-1, at(t, m.group, m.to))],
                Relation::AtMost,
                0,
            );
            model.constrain(
                format!("leave_{what}"),
                vec![(1, m.var), (1, at(t, m.group, m.from))],
                Relation::AtMost,
                1,
            );
        }
        for (g, label) in labels.iter().enumerate() {
            for s in board.squares().filter(|&s| !board.is_removed(s)) {
                let (now, was) = (at(t, g, s), at(t - 1, g, s));
                let into: Vec<usize> = moves.iter().filter(|m| m.group == g && m.to == s).map(|m| m.var).collect();
                let out: Vec<usize> = moves.iter().filter(|m| m.group == g && m.from == s).map(|m| m.var).collect();
                let what = format!("{label}_{}_t{t}", board.name(s));
                // A piece stays unless it moves away; none appears unless one moves in.
                let mut stay = vec![(1, was), (-1, now)];
                stay.extend(out.iter().map(|&v| (-1, v)));
                model.constrain(format!("stay_{what}"), stay, Relation::AtMost, 0);
                let mut keep = vec![(1, now), (-1, was)];
                keep.extend(into.iter().map(|&v| (-1, v)));
                model.constrain(format!("keep_{what}"), keep, Relation::AtMost, 0);
            }
        }
    }
    model.objective = Some((Sense::Minimise, moved.iter().map(|&v| (1, v)).collect()));
    ExchangeCap { model, x, moves: index, moved, groups }
}

impl ExchangeCap {
    /// The values a legal sequence of at most `cap` moves gives the variables.
    pub fn assignment(&self, puzzle: &ExchangePuzzle, moves: &[Move]) -> Result<Vec<bool>, CertifyError> {
        let cap = self.moved.len();
        let positions = crate::encodings::check::replay_exchange(puzzle, moves)
            .map_err(|e| CertifyError::Internal(format!("the solution breaks the rules: {e}")))?;
        if moves.len() > cap {
            return Err(CertifyError::Internal(format!("{} moves are more than the cap {cap}", moves.len())));
        }
        let mut values = vec![false; self.model.variables.len()];
        for t in 0..=cap {
            let position = &positions[t.min(moves.len())];
            for (square, piece) in position.pieces() {
                let g = self.group(piece)?;
                let var = self.x[t][g][square.index()].ok_or_else(|| CertifyError::Internal("no variable".into()))?;
                values[var] = true;
            }
        }
        for (i, m) in moves.iter().enumerate() {
            let key = (i + 1, self.group(m.piece)?, m.from, m.to);
            let var = self.moves.get(&key).ok_or_else(|| CertifyError::Internal("a move without a variable".into()))?;
            values[*var] = true;
            values[self.moved[i]] = true;
        }
        Ok(values)
    }

    fn group(&self, piece: Piece) -> Result<usize, CertifyError> {
        self.groups.iter().position(|&g| g == piece).ok_or_else(|| CertifyError::Internal("an unknown piece".into()))
    }
}

/// A group's name in variable names: the side's name and the kind's letter, e.g. `whiteN`.
fn label(puzzle: &ExchangePuzzle, group: Piece) -> String {
    let side: String = puzzle.sides[group.side]
        .name
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() || c == '_' { c } else { '_' })
        .collect();
    format!("{side}{}", group.kind.letter())
}

//! The time-indexed model of an exchange, as in the planning-as-MIP write-ups: occupancy
//! `x_{group}_{square}_t{t}` per piece group (side and kind, whose pieces are
//! interchangeable), square and time, and a move variable `mv_{group}_{from}_{to}_t{t}` per
//! step of the group's kind in each time step.
//!
//! Constraints: at most one piece per square; the start at `t = 0` and the goal at the last
//! time; a move needs its group on the origin and the destination and every square passed over
//! empty before it. Two forms, by [`Horizon`]:
//!
//! - **exactly `T` moves** ([`exchange_model`], for `export` and the MIP backend): one move per
//!   step and the frame axiom `x(g, s, t) - x(g, s, t-1) = moves of g into s - moves of g out
//!   of s`. There is no objective: the model asks whether `T` moves suffice.
//! - **at most `T` moves, their number minimised** ([`exchange_model_at_most`], the model of a
//!   certificate): step `t` makes one move or none (`moved_t{t}`), steps without a move come
//!   only after the last move (`after_t{t}`), and the objective counts the moves. Every
//!   sequence of at most `T` moves is exactly one solution, padded with empty steps, so one
//!   bound on this model speaks of every horizon below `T` at once. Every row is a clause or
//!   an "at most one"/"exactly one" row (the frame axiom is four clauses per group, square and
//!   step: `arrive`, `leave`, `stay`, `keep`), so a SAT solver can take the rows as they are.

mod swaps;

pub use swaps::MoveSwap;

use super::{Horizon, LinearModel, Relation, Sense};
use crate::check::replay_exchange;
use crate::geometry::{move_steps, Piece, Square};
use crate::puzzle::{ExchangePuzzle, Move};

/// One move variable: its group (index into [`ExchangePuzzle::groups`]), squares and index.
struct MoveVar {
    group: usize,
    from: Square,
    to: Square,
    between: Vec<Square>,
    var: usize,
}

/// The time-indexed model of an exchange and where its variables are.
#[derive(Clone, Debug)]
pub struct ExchangeModel {
    /// The model.
    pub model: LinearModel,
    /// `x[t][g][s]`: a piece of group `g` on square `s` after step `t` (`None` on removed squares).
    x: Vec<Vec<Vec<Option<usize>>>>,
    /// `(variable, move)` for every move variable, by time step.
    moves: Vec<Vec<(usize, Move)>>,
    /// The squares each move passes over, as `moves` lists them.
    between: Vec<Vec<Vec<Square>>>,
    /// `moved[t - 1]`: step `t` makes a move (at-most models only).
    moved: Vec<usize>,
    /// Whether the model takes up to its horizon of moves rather than exactly that many.
    at_most: bool,
    /// The piece groups, as [`ExchangePuzzle::groups`] lists them.
    groups: Vec<Piece>,
}

impl ExchangeModel {
    /// The variable "a piece like `piece` stands on `square` after step `t`", if the model has
    /// it (a usable square, a piece of the puzzle, `t` within the horizon).
    pub fn occupied(&self, t: usize, piece: Piece, square: Square) -> Option<usize> {
        let group = self.groups.iter().position(|&g| g == piece)?;
        *self.x.get(t)?.get(group)?.get(square.index())?
    }

    /// The variable "the last step makes a move" of an at-most model (`None` for a model of
    /// exactly its horizon, or of no steps): false exactly when fewer moves than the horizon
    /// are made, since steps without a move come only after the last move.
    pub fn last_moved(&self) -> Option<usize> {
        self.moved.last().copied()
    }

    /// `moved[t - 1]`: the variable "step `t` makes a move" of an at-most model (empty for a
    /// model of exactly its horizon).
    pub fn moved(&self) -> &[usize] {
        &self.moved
    }

    /// The moves that `values` (one per variable) describe, in order.
    pub fn moves(&self, values: &[bool]) -> Vec<Move> {
        self.moves.iter().filter_map(|step| step.iter().find(|m| values[m.0]).map(|m| m.1)).collect()
    }

    /// The values that a legal sequence of moves gives the variables: exactly as many moves as
    /// the horizon, or at most as many for an at-most model; why not otherwise.
    pub fn assignment(&self, puzzle: &ExchangePuzzle, moves: &[Move]) -> Result<Vec<bool>, String> {
        let horizon = self.moves.len();
        if moves.len() > horizon || (!self.at_most && moves.len() != horizon) {
            return Err(format!("{} moves do not fit a model of {horizon}", moves.len()));
        }
        let positions = replay_exchange(puzzle, moves).map_err(|e| format!("the moves break the rules: {e}"))?;
        let group = |piece: Piece| self.groups.iter().position(|&g| g == piece).ok_or("an unknown piece");
        let mut values = vec![false; self.model.variables.len()];
        for (t, layer) in self.x.iter().enumerate() {
            for (square, piece) in positions[t.min(moves.len())].pieces() {
                values[layer[group(piece)?][square.index()].ok_or("a piece on a removed square")?] = true;
            }
        }
        for (i, m) in moves.iter().enumerate() {
            let &(var, _) = self.moves[i].iter().find(|(_, known)| known == m).ok_or("a move without a variable")?;
            values[var] = true;
            if let Some(&step) = self.moved.get(i) {
                values[step] = true;
            }
        }
        Ok(values)
    }
}

/// The 0-1 linear model of `puzzle` solved in exactly `horizon` moves.
pub fn exchange_model(puzzle: &ExchangePuzzle, horizon: usize) -> ExchangeModel {
    exchange_model_for(puzzle, Horizon::Exactly(horizon))
}

/// The 0-1 linear model of `puzzle` solved in at most `cap` moves, their number minimised.
pub fn exchange_model_at_most(puzzle: &ExchangePuzzle, cap: usize) -> ExchangeModel {
    exchange_model_for(puzzle, Horizon::AtMost(cap))
}

/// The 0-1 linear model of `puzzle` in the form that `horizon` asks for.
pub fn exchange_model_for(puzzle: &ExchangePuzzle, horizon: Horizon) -> ExchangeModel {
    let board = &puzzle.board;
    let groups = puzzle.groups();
    let name = puzzle.name.as_deref().unwrap_or("exchange");
    let (last, at_most) = match horizon {
        Horizon::Exactly(t) => (t, false),
        Horizon::AtMost(t) => (t, true),
    };
    let moves_phrase =
        if at_most { format!("in at most {last} moves, moves minimised") } else { format!("in {last} moves") };
    let mut model = LinearModel {
        title: format!(
            "{name}: exchange of {} pieces on {}x{} {moves_phrase}",
            puzzle.piece_count(),
            board.width(),
            board.height()
        ),
        ..LinearModel::default()
    };
    let labels: Vec<String> = groups.iter().map(|&g| label(puzzle, g)).collect();
    let x: Vec<Vec<Vec<Option<usize>>>> = (0..=last)
        .map(|t| {
            (0..groups.len())
                .map(|g| {
                    (0..board.area())
                        .map(|s| {
                            let square = Square(s as u16);
                            let usable = !board.is_removed(square);
                            usable.then(|| model.variable(format!("x_{}_{}_t{t}", labels[g], board.name(square))))
                        })
                        .collect()
                })
                .collect()
        })
        .collect();
    let at = |t: usize, g: usize, s: Square| x[t][g][s.index()].expect("usable squares have variables");
    let occupied = |t: usize, s: Square| -> Vec<usize> { x[t].iter().filter_map(|row| row[s.index()]).collect() };
    let ones = |vars: Vec<usize>| -> Vec<(i64, usize)> { vars.into_iter().map(|v| (1, v)).collect() };
    for t in 0..=last {
        if groups.len() > 1 {
            for square in board.squares() {
                model.constrain(
                    format!("one_{}_t{t}", board.name(square)),
                    ones(occupied(t, square)),
                    Relation::AtMost,
                    1,
                );
            }
        }
    }
    for (t, position, what) in [(0, &puzzle.start, "start"), (last, &puzzle.goal, "goal")] {
        for (g, &group) in groups.iter().enumerate() {
            for square in board.squares() {
                let there = i64::from(position.get(square) == Some(group));
                let row = format!("{what}_{}_{}", labels[g], board.name(square));
                model.constrain(row, vec![(1, at(t, g, square))], Relation::Equal, there);
            }
        }
    }
    let mut decoded = Vec::new();
    let mut passed = Vec::new();
    let mut moved = Vec::new();
    for t in 1..=last {
        let mut moves: Vec<MoveVar> = Vec::new();
        for (g, &group) in groups.iter().enumerate() {
            for from in board.squares() {
                for step in move_steps(board, group.kind, from, puzzle.pawns(group)) {
                    let var =
                        model.variable(format!("mv_{}_{}_{}_t{t}", labels[g], board.name(from), board.name(step.to)));
                    moves.push(MoveVar { group: g, from, to: step.to, between: step.between, var });
                }
            }
        }
        let all = ones(moves.iter().map(|m| m.var).collect());
        if at_most {
            let step = model.variable(format!("moved_t{t}"));
            let mut terms = all;
            terms.push((-1, step));
            model.constrain(format!("step_t{t}"), terms, Relation::Equal, 0);
            if let Some(&before) = moved.last() {
                model.constrain(format!("after_t{t}"), vec![(1, step), (-1, before)], Relation::AtMost, 0);
            }
            moved.push(step);
        } else {
            model.constrain(format!("one_move_t{t}"), all, Relation::Equal, 1);
        }
        for m in &moves {
            let what = format!("{}_{}_{}_t{t}", labels[m.group], board.name(m.from), board.name(m.to));
            let origin = at(t - 1, m.group, m.from);
            model.constrain(format!("from_{what}"), vec![(1, m.var), (-1, origin)], Relation::AtMost, 0);
            for (role, &square) in std::iter::once(("to", &m.to)).chain(m.between.iter().map(|b| ("via", b))) {
                let mut terms = vec![(1, m.var)];
                terms.extend(ones(occupied(t - 1, square)));
                model.constrain(format!("{role}_{}_{what}", board.name(square)), terms, Relation::AtMost, 1);
            }
            if at_most {
                let (arrival, origin) = (at(t, m.group, m.to), at(t, m.group, m.from));
                model.constrain(format!("arrive_{what}"), vec![(1, m.var), (-1, arrival)], Relation::AtMost, 0);
                model.constrain(format!("leave_{what}"), vec![(1, m.var), (1, origin)], Relation::AtMost, 1);
            }
        }
        for (g, label) in labels.iter().enumerate() {
            for square in board.squares() {
                let (now, was) = (at(t, g, square), at(t - 1, g, square));
                let what = format!("{label}_{}_t{t}", board.name(square));
                let into = moves.iter().filter(|m| m.group == g && m.to == square).map(|m| m.var);
                let out = moves.iter().filter(|m| m.group == g && m.from == square).map(|m| m.var);
                if at_most {
                    // A piece stays unless it moves away; none appears unless one moves in.
                    let mut stay = vec![(1, was), (-1, now)];
                    stay.extend(out.map(|v| (-1, v)));
                    model.constrain(format!("stay_{what}"), stay, Relation::AtMost, 0);
                    let mut keep = vec![(1, now), (-1, was)];
                    keep.extend(into.map(|v| (-1, v)));
                    model.constrain(format!("keep_{what}"), keep, Relation::AtMost, 0);
                } else {
                    let mut terms = vec![(1, now), (-1, was)];
                    for m in moves.iter().filter(|m| m.group == g) {
                        if m.to == square {
                            terms.push((-1, m.var));
                        } else if m.from == square {
                            terms.push((1, m.var));
                        }
                    }
                    model.constrain(format!("frame_{what}"), terms, Relation::Equal, 0);
                }
            }
        }
        decoded.push(moves.iter().map(|m| (m.var, Move { piece: groups[m.group], from: m.from, to: m.to })).collect());
        passed.push(moves.into_iter().map(|m| m.between).collect());
    }
    if at_most {
        model.objective = Some((Sense::Minimise, ones(moved.clone())));
    }
    ExchangeModel { model, x, moves: decoded, between: passed, moved, at_most, groups }
}

/// A group's name in variable names: the side's name (letters, digits and `_`) and the kind's
/// letter, e.g. `whiteN`.
fn label(puzzle: &ExchangePuzzle, group: Piece) -> String {
    let side: String = puzzle.sides[group.side]
        .name
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() || c == '_' { c } else { '_' })
        .collect();
    format!("{side}{}", group.kind.letter())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::replay_exchange;
    use crate::geometry::{Board, PawnDirection, PieceKind};
    use crate::linear::{satisfying, write_opb};
    use crate::puzzle::{Move, Position, Side};

    fn side(name: &str) -> Side {
        Side { name: name.to_string(), pawns: PawnDirection::Up }
    }

    /// A white rook from a1 to c1 on a 3x1 board, with a black bishop (which cannot move there)
    /// on b1 if `blocked`.
    fn rook_puzzle(blocked: bool) -> ExchangePuzzle {
        let board = Board::new(3, 1).unwrap();
        let rook = Piece { side: 0, kind: PieceKind::Rook };
        let (mut start, mut goal) = (Position::empty(3), Position::empty(3));
        start.place(Square(0), rook).unwrap();
        goal.place(Square(2), rook).unwrap();
        if blocked {
            let bishop = Piece { side: 1, kind: PieceKind::Bishop };
            start.place(Square(1), bishop).unwrap();
            goal.place(Square(1), bishop).unwrap();
        }
        ExchangePuzzle::new(None, board, vec![side("white"), side("black")], start, goal).unwrap()
    }

    /// The values a legal solution gives the model's variables, found by name.
    fn assignment(model: &LinearModel, puzzle: &ExchangePuzzle, moves: &[Move]) -> Vec<bool> {
        let positions = replay_exchange(puzzle, moves).expect("a legal solution");
        let mut values = vec![false; model.variables.len()];
        let mut set = |name: String| values[model.variables.iter().position(|v| *v == name).unwrap()] = true;
        let board = &puzzle.board;
        for (t, position) in positions.iter().enumerate() {
            for (square, piece) in position.pieces() {
                set(format!("x_{}_{}_t{t}", label(puzzle, piece), board.name(square)));
            }
        }
        for (i, m) in moves.iter().enumerate() {
            set(format!("mv_{}_{}_{}_t{}", label(puzzle, m.piece), board.name(m.from), board.name(m.to), i + 1));
        }
        values
    }

    #[test]
    fn a_rook_slides_a1_c1_in_one_move_and_not_in_none() {
        let puzzle = rook_puzzle(false);
        let rook = Piece { side: 0, kind: PieceKind::Rook };
        let model = exchange_model(&puzzle, 1).model;
        assert!(model.objective.is_none());
        let slide = assignment(&model, &puzzle, &[Move { piece: rook, from: Square(0), to: Square(2) }]);
        assert_eq!(satisfying(&model), vec![slide]);
        assert!(satisfying(&exchange_model(&puzzle, 0).model).is_empty());
        let model = exchange_model(&puzzle, 2).model;
        let walk = [
            Move { piece: rook, from: Square(0), to: Square(1) },
            Move { piece: rook, from: Square(1), to: Square(2) },
        ];
        assert!(model.satisfied_by(&assignment(&model, &puzzle, &walk)));
    }

    #[test]
    fn the_at_most_model_has_every_shorter_solution_once_and_counts_its_moves() {
        let puzzle = rook_puzzle(false);
        let rook = Piece { side: 0, kind: PieceKind::Rook };
        let modelled = exchange_model_at_most(&puzzle, 2);
        let slide = [Move { piece: rook, from: Square(0), to: Square(2) }];
        let walk = [
            Move { piece: rook, from: Square(0), to: Square(1) },
            Move { piece: rook, from: Square(1), to: Square(2) },
        ];
        let mut expected =
            vec![modelled.assignment(&puzzle, &slide).unwrap(), modelled.assignment(&puzzle, &walk).unwrap()];
        let mut found = satisfying(&modelled.model);
        expected.sort();
        found.sort();
        assert_eq!(found, expected);
        let (_, objective) = modelled.model.objective.clone().unwrap();
        let value = |values: &[bool]| objective.iter().filter(|t| values[t.1]).map(|t| t.0).sum::<i64>();
        assert_eq!(value(&modelled.assignment(&puzzle, &slide).unwrap()), 1);
        assert_eq!(modelled.moves(&modelled.assignment(&puzzle, &walk).unwrap()), walk);
        // The exact model takes only sequences of its length.
        assert!(exchange_model(&puzzle, 2).assignment(&puzzle, &slide).is_err());
    }

    #[test]
    fn a_removed_square_has_no_variable_and_is_not_passed() {
        let mut puzzle = rook_puzzle(false);
        puzzle.board.remove(Square(1));
        assert!(satisfying(&exchange_model_at_most(&puzzle, 2).model).is_empty());
    }

    #[test]
    fn a_rook_does_not_slide_through_a_piece() {
        let model = exchange_model(&rook_puzzle(true), 1).model;
        assert_eq!(model.variables.len(), 18);
        assert!(satisfying(&model).is_empty());
    }

    #[test]
    fn the_opb_form_parses() {
        let text = "kind = \"exchange\"\nboard = \"3x3\"\nswap = true\n[[side]]\nname = \"white\"\n\
                    start = [\"Na1\", \"Nc1\"]\n[[side]]\nname = \"black\"\nstart = [\"Na3\", \"Nc3\"]\n";
        let parsed = crate::puzzle::parse(text, "guarini.toml").unwrap();
        let model = exchange_model(parsed.exchange().unwrap(), 4).model;
        let mut opb = Vec::new();
        write_opb(&model, &mut opb).unwrap();
        let instance: rustsat::instances::SatInstance =
            rustsat::instances::SatInstance::from_opb(&mut opb.as_slice(), Default::default()).unwrap();
        assert_eq!(instance.n_vars() as usize, model.variables.len());
    }
}

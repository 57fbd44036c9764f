//! The time-indexed model of an exchange at a fixed horizon `T` (exactly `T` moves), as in the
//! planning-as-MIP write-ups: occupancy `x_{group}_{square}_t{t}` per piece group (side and
//! kind, whose pieces are interchangeable), square and time, and a move variable
//! `mv_{group}_{from}_{to}_t{t}` per step of the group's kind in each time step.
//!
//! Constraints: exactly one move per step; at most one piece per square; the start at `t = 0`
//! and the goal at `t = T`; a move needs its group on the origin and the destination and every
//! square passed over empty before it; and the frame axiom
//! `x(g, s, t) - x(g, s, t-1) = moves of g into s - moves of g out of s` in step `t`. There is
//! no objective: the model asks whether `T` moves suffice.

use super::{LinearModel, Relation};
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

/// The time-indexed model of an exchange and the move each move variable stands for.
#[derive(Clone, Debug)]
pub struct ExchangeModel {
    /// The model.
    pub model: LinearModel,
    /// `(variable, move)` for every move variable, by time step.
    moves: Vec<Vec<(usize, Move)>>,
}

impl ExchangeModel {
    /// The moves that `values` (one per variable) describe, one per time step.
    pub fn moves(&self, values: &[bool]) -> Vec<Move> {
        self.moves.iter().filter_map(|step| step.iter().find(|m| values[m.0]).map(|m| m.1)).collect()
    }
}

/// The 0-1 linear model of `puzzle` solved in exactly `horizon` moves.
pub fn exchange_model(puzzle: &ExchangePuzzle, horizon: usize) -> ExchangeModel {
    let board = &puzzle.board;
    let groups = puzzle.groups();
    let name = puzzle.name.as_deref().unwrap_or("exchange");
    let mut model = LinearModel {
        title: format!(
            "{name}: exchange of {} pieces on {}x{} in {horizon} moves",
            puzzle.piece_count(),
            board.width(),
            board.height()
        ),
        ..LinearModel::default()
    };
    let labels: Vec<String> = groups.iter().map(|&g| label(puzzle, g)).collect();
    // x[t][g][s]: a piece of group g on square s after t moves (None on removed squares).
    let x: Vec<Vec<Vec<Option<usize>>>> = (0..=horizon)
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
    let occupied = |t: usize, s: Square| -> Vec<usize> { x[t].iter().filter_map(|row| row[s.index()]).collect() };
    for t in 0..=horizon {
        if groups.len() > 1 {
            for square in board.squares() {
                let terms = occupied(t, square).into_iter().map(|v| (1, v)).collect();
                model.constrain(format!("one_{}_t{t}", board.name(square)), terms, Relation::AtMost, 1);
            }
        }
    }
    for (t, position, what) in [(0, &puzzle.start, "start"), (horizon, &puzzle.goal, "goal")] {
        for (g, &group) in groups.iter().enumerate() {
            for square in board.squares() {
                let v = x[t][g][square.index()].expect("usable squares have variables");
                let there = i64::from(position.get(square) == Some(group));
                let label = format!("{what}_{}_{}", labels[g], board.name(square));
                model.constrain(label, vec![(1, v)], Relation::Equal, there);
            }
        }
    }
    let mut decoded = Vec::new();
    for t in 1..=horizon {
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
        let all = moves.iter().map(|m| (1, m.var)).collect();
        model.constrain(format!("one_move_t{t}"), all, Relation::Equal, 1);
        for m in &moves {
            let what = format!("{}_{}_{}_t{t}", labels[m.group], board.name(m.from), board.name(m.to));
            let origin = x[t - 1][m.group][m.from.index()].expect("moves start on usable squares");
            model.constrain(format!("from_{what}"), vec![(1, m.var), (-1, origin)], Relation::AtMost, 0);
            for (role, &square) in std::iter::once(("to", &m.to)).chain(m.between.iter().map(|b| ("via", b))) {
                let mut terms = vec![(1, m.var)];
                terms.extend(occupied(t - 1, square).into_iter().map(|v| (1, v)));
                let label = format!("{role}_{}_{what}", board.name(square));
                model.constrain(label, terms, Relation::AtMost, 1);
            }
        }
        for g in 0..groups.len() {
            for square in board.squares() {
                let s = square.index();
                let (now, was) = (x[t][g][s].expect("usable"), x[t - 1][g][s].expect("usable"));
                let mut terms = vec![(1, now), (-1, was)];
                for m in moves.iter().filter(|m| m.group == g) {
                    if m.to == square {
                        terms.push((-1, m.var));
                    } else if m.from == square {
                        terms.push((1, m.var));
                    }
                }
                model.constrain(format!("frame_{}_{}_t{t}", labels[g], board.name(square)), terms, Relation::Equal, 0);
            }
        }
        decoded.push(moves.iter().map(|m| (m.var, Move { piece: groups[m.group], from: m.from, to: m.to })).collect());
    }
    ExchangeModel { model, moves: decoded }
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

//! The exchange family's file fields: the board, and each side's start, goal and pawns.

use serde::Deserialize;
use toml::Spanned;

use super::context::{parse_piece, Context, Text, TextList};
use super::{ExchangePuzzle, Position, PuzzleError, Side};
use crate::geometry::{Board, PawnDirection, Piece};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawExchange {
    #[allow(dead_code)]
    kind: Text,
    name: Option<String>,
    board: Text,
    #[serde(default)]
    removed: Vec<Text>,
    swap: Option<Spanned<bool>>,
    side: Spanned<Vec<RawSide>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSide {
    name: Text,
    start: TextList,
    goal: Option<TextList>,
    pawns: Option<Text>,
}

impl Context<'_> {
    pub(super) fn exchange(&self, raw: RawExchange) -> Result<ExchangePuzzle, PuzzleError> {
        let board = self.board(&raw.board, &raw.removed)?;
        let mut sides = Vec::new();
        for (i, side) in raw.side.get_ref().iter().enumerate() {
            let name = side.name.get_ref().trim().to_string();
            if name.is_empty() || sides.iter().any(|s: &Side| s.name == name) {
                let why = if name.is_empty() {
                    "a side needs a name".to_string()
                } else {
                    format!("two sides are named `{name}`")
                };
                return Err(self.error(side.name.span(), &format!("side[{i}].name"), why));
            }
            let pawns = match &side.pawns {
                None if i == 1 => PawnDirection::Down,
                None => PawnDirection::Up,
                Some(text) => PawnDirection::from_name(text.get_ref()).ok_or_else(|| {
                    let why = format!("pawns move `up` or `down`, not `{}`", text.get_ref());
                    self.error(text.span(), &format!("side[{i}].pawns"), why)
                })?,
            };
            sides.push(Side { name, pawns });
        }
        if sides.is_empty() {
            return Err(self.error(raw.side.span(), "side", "a puzzle needs at least one [[side]] with pieces"));
        }
        let mut start = Position::empty(board.area());
        let mut goal = Position::empty(board.area());
        let swap = raw.swap.as_ref().is_some_and(|s| *s.get_ref());
        for (i, side) in raw.side.get_ref().iter().enumerate() {
            self.place_all(&board, &mut start, i, &side.start, &format!("side[{i}].start"))?;
            match (&side.goal, swap) {
                (Some(list), false) => self.place_all(&board, &mut goal, i, list, &format!("side[{i}].goal"))?,
                (Some(list), true) => {
                    return Err(self.error(
                        list.span(),
                        &format!("side[{i}].goal"),
                        "give either `swap = true` or a goal for every side, not both",
                    ));
                }
                (None, true) => {}
                (None, false) => {
                    let why =
                        "missing field `goal`: list where this side's pieces must end, or set `swap = true` at the top";
                    return Err(self.error(side.name.span(), &format!("side[{i}]"), why));
                }
            }
        }
        if swap {
            let span = raw.swap.as_ref().map_or(0..0, |s| s.span());
            if sides.len() != 2 {
                return Err(self.error(
                    span,
                    "swap",
                    format!("`swap = true` needs exactly two sides, not {}", sides.len()),
                ));
            }
            goal = start.swap_sides();
        }
        let name = raw.name.clone();
        ExchangePuzzle::new(name, board, sides, start, goal).map_err(|mismatch| {
            let i = raw.side.get_ref().iter().position(|s| s.name.get_ref().trim() == mismatch.side).unwrap_or(0);
            let side = &raw.side.get_ref()[i];
            let span = side.goal.as_ref().map_or(side.start.span(), |g| g.span());
            self.error(span, &format!("side[{i}].goal"), mismatch.to_string())
        })
    }

    fn place_all(
        &self,
        board: &Board,
        position: &mut Position,
        side: usize,
        list: &TextList,
        field: &str,
    ) -> Result<(), PuzzleError> {
        for (j, token) in list.get_ref().iter().enumerate() {
            let field = format!("{field}[{j}]");
            let (kind, square) =
                parse_piece(board, token.get_ref()).map_err(|why| self.error(token.span(), &field, why))?;
            if let Err(other) = position.place(square, Piece { side, kind }) {
                let why = format!(
                    "two pieces on {}: `{}` and a {} placed before it",
                    board.name(square),
                    token.get_ref(),
                    other.kind
                );
                return Err(self.error(token.span(), &field, why));
            }
        }
        Ok(())
    }
}

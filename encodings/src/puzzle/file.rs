//! The TOML puzzle format. `puzzles/README.md` documents it field by field.
//!
//! Parsing is two-staged: serde reads the raw fields with their spans, then each value is
//! checked against the board and the rules, so that every error names the line and field.

use std::ops::Range;

use serde::Deserialize;
use toml::Spanned;

use super::{ExchangePuzzle, Position, Puzzle, PuzzleError, Side};
use crate::geometry::{Board, PawnDirection, Piece, PieceKind, Square};

/// The puzzle families this version understands, as written after `kind =`.
const KINDS: &str = "`exchange`, `domination`, `independent-domination`, `total-domination`, `independence`, `tour`";

#[derive(Deserialize)]
struct Header {
    kind: Option<Spanned<String>>,
}

pub(super) type Text = Spanned<String>;
pub(super) type TextList = Spanned<Vec<Text>>;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawExchange {
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

/// Reads TOML text into a puzzle, reporting problems against `file`.
pub(super) fn parse(text: &str, file: &str) -> Result<Puzzle, PuzzleError> {
    let ctx = Context { file, text };
    let header: Header = toml::from_str(text).map_err(|e| ctx.toml_error(&e))?;
    let kind = header
        .kind
        .ok_or_else(|| ctx.error(0..0, "kind", format!("missing field `kind`; say which puzzle this is: {KINDS}")))?;
    match kind.get_ref().as_str() {
        "exchange" => {
            let raw: RawExchange = toml::from_str(text).map_err(|e| ctx.toml_error(&e))?;
            ctx.exchange(raw).map(Puzzle::Exchange)
        }
        "domination" | "independent-domination" | "total-domination" | "independence" => {
            let raw: super::placement_file::RawPlacement = toml::from_str(text).map_err(|e| ctx.toml_error(&e))?;
            ctx.placement(raw).map(Puzzle::Placement)
        }
        "tour" => {
            let raw: super::tour_file::RawTour = toml::from_str(text).map_err(|e| ctx.toml_error(&e))?;
            ctx.tour(raw).map(Puzzle::Tour)
        }
        other => Err(ctx.error(kind.span(), "kind", format!("unknown puzzle kind `{other}`; known kinds: {KINDS}"))),
    }
}

/// A file being parsed: its name and text, for locating errors.
pub(super) struct Context<'a> {
    pub(super) file: &'a str,
    pub(super) text: &'a str,
}

impl Context<'_> {
    pub(super) fn error(&self, span: Range<usize>, field: &str, message: impl Into<String>) -> PuzzleError {
        PuzzleError::at(self.file, self.text, span.start, field, message)
    }

    pub(super) fn toml_error(&self, error: &toml::de::Error) -> PuzzleError {
        let span = error.span().unwrap_or(0..0);
        let message = error.message().trim().replace('\n', " ");
        let mut field = field_of_message(&message);
        if field.is_empty() {
            field = self.key_on_line(span.start);
        }
        self.error(span, &field, message)
    }

    /// The key assigned on the line holding `offset` (`board` in `board = 3x3`), if any.
    fn key_on_line(&self, offset: usize) -> String {
        let start = self.text[..offset.min(self.text.len())].rfind('\n').map_or(0, |i| i + 1);
        let line = self.text[start..].lines().next().unwrap_or_default();
        match line.split_once('=') {
            Some((key, _)) if !key.trim().is_empty() && !key.contains(['[', '"', '#']) => key.trim().to_string(),
            _ => String::new(),
        }
    }

    /// The board of `board = "WxH"` with the `removed` squares cut out.
    pub(super) fn board(&self, size: &Text, removed: &[Text]) -> Result<Board, PuzzleError> {
        let mut board =
            Board::parse_size(size.get_ref()).map_err(|e| self.error(size.span(), "board", e.to_string()))?;
        for (i, name) in removed.iter().enumerate() {
            let square = board.parse_square(name.get_ref());
            let square = square.map_err(|e| self.error(name.span(), &format!("removed[{i}]"), e.to_string()))?;
            board.remove(square);
        }
        if board.squares().next().is_none() {
            return Err(self.error(size.span(), "removed", "every square of the board is removed"));
        }
        Ok(board)
    }

    fn exchange(&self, raw: RawExchange) -> Result<ExchangePuzzle, PuzzleError> {
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

/// Parses `Na1` (a kind letter and a square) or `a2` (a pawn).
pub fn parse_piece(board: &Board, token: &str) -> Result<(PieceKind, Square), String> {
    let token = token.trim();
    let mut chars = token.chars();
    let (kind, square) = match chars.next() {
        Some(c) if c.is_ascii_uppercase() => {
            let kind = PieceKind::from_letter(c).ok_or_else(|| {
                format!(
                    "unknown piece letter `{c}` in `{token}`; use K, Q, R, B, N or P followed by a square, e.g. Nc3"
                )
            })?;
            (kind, chars.as_str())
        }
        Some(_) => (PieceKind::Pawn, token),
        None => return Err("empty piece; write a kind letter and a square, e.g. Nc3".to_string()),
    };
    let square = board.parse_square(square).map_err(|e| format!("in `{token}`: {e}"))?;
    Ok((kind, square))
}

/// Guesses the field a serde message is about (`unknown field `x``, `missing field `x``).
fn field_of_message(message: &str) -> String {
    for prefix in ["unknown field `", "missing field `", "duplicate key `"] {
        if let Some(rest) = message.split(prefix).nth(1) {
            return rest.split('`').next().unwrap_or_default().to_string();
        }
    }
    String::new()
}

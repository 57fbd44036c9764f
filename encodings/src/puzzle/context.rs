//! A puzzle file being parsed: its name and text, for errors that name the line and field,
//! and the readers every family shares (the board, a piece token).

use std::ops::Range;

use toml::Spanned;

use super::PuzzleError;
use crate::geometry::{Board, PieceKind, Square};

/// A string of the file with where it stands.
pub(super) type Text = Spanned<String>;
/// A list of strings of the file with where it stands.
pub(super) type TextList = Spanned<Vec<Text>>;

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

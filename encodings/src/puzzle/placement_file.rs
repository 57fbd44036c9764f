//! The TOML form of placement puzzles (`kind = "domination"`, `"independence"`, …); see
//! `puzzles/README.md`.

use std::collections::BTreeMap;

use serde::Deserialize;
use toml::Spanned;

use super::context::{Context, Text};
use super::placement::{KindRule, LineOfSight, PlacementGoal, PlacementPuzzle};
use super::PuzzleError;
use crate::geometry::PawnDirection;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawPlacement {
    kind: Text,
    name: Option<String>,
    board: Text,
    #[serde(default)]
    removed: Vec<Text>,
    pieces: Text,
    pawns: Option<Text>,
    attacks: Option<Text>,
    #[serde(default)]
    empty: Vec<Text>,
    #[serde(default)]
    fixed: Vec<Text>,
    #[serde(default)]
    limits: BTreeMap<String, Spanned<RawLimit>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawLimit {
    min: Option<usize>,
    max: Option<usize>,
    weight: Option<usize>,
}

impl Context<'_> {
    pub(super) fn placement(&self, raw: RawPlacement) -> Result<PlacementPuzzle, PuzzleError> {
        let goal = PlacementGoal::from_name(raw.kind.get_ref()).expect("the caller matched the kind");
        let board = self.board(&raw.board, &raw.removed)?;
        let mut kinds = KindRule::parse_letters(raw.pieces.get_ref())
            .map_err(|why| self.error(raw.pieces.span(), "pieces", why))?;
        for (letter, limit) in &raw.limits {
            let field = format!("limits.{letter}");
            let rule = kinds.iter_mut().find(|r| r.kind.letter().to_string() == *letter).ok_or_else(|| {
                self.error(
                    limit.span(),
                    &field,
                    format!("`{letter}` is not one of the pieces `{}`", raw.pieces.get_ref()),
                )
            })?;
            let limit = limit.get_ref();
            rule.min = limit.min.unwrap_or(0);
            rule.max = limit.max;
            rule.weight = limit.weight.unwrap_or(1);
        }
        let pawns = match &raw.pawns {
            None => PawnDirection::Up,
            Some(text) => PawnDirection::from_name(text.get_ref()).ok_or_else(|| {
                self.error(text.span(), "pawns", format!("pawns attack `up` or `down`, not `{}`", text.get_ref()))
            })?,
        };
        let line_of_sight = match &raw.attacks {
            None => LineOfSight::EmptyBoard,
            Some(text) => LineOfSight::from_name(text.get_ref()).ok_or_else(|| {
                let why = format!(
                    "`empty-board` (sliders pass placed pieces) or `blocked` (placed pieces stop sliders), not `{}`",
                    text.get_ref()
                );
                self.error(text.span(), "attacks", why)
            })?,
        };
        let mut empty = Vec::new();
        for (i, name) in raw.empty.iter().enumerate() {
            let square = board.parse_square(name.get_ref().trim());
            empty.push(square.map_err(|e| self.error(name.span(), &format!("empty[{i}]"), e.to_string()))?);
        }
        let mut fixed = Vec::new();
        for (i, token) in raw.fixed.iter().enumerate() {
            let piece = super::parse_piece(&board, token.get_ref());
            fixed
                .push(piece.map(|(k, s)| (s, k)).map_err(|why| self.error(token.span(), &format!("fixed[{i}]"), why))?);
        }
        let span = raw.limits.values().next().map_or(raw.pieces.span(), |l| l.span());
        let puzzle = PlacementPuzzle::new(raw.name, board, goal, kinds, pawns, empty, fixed)
            .map_err(|e| self.error(span, "pieces", e.to_string()))?;
        Ok(puzzle.with_line_of_sight(line_of_sight))
    }
}

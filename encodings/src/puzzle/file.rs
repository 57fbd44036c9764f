//! The TOML puzzle format. `puzzles/README.md` documents it field by field.
//!
//! Parsing is two-staged: serde reads the raw fields with their spans, then each value is
//! checked against the board and the rules, so that every error names the line and field.

use serde::Deserialize;
use toml::Spanned;

use super::context::Context;
use super::exchange_file::RawExchange;
use super::placement_file::RawPlacement;
use super::tour_file::RawTour;
use super::{Puzzle, PuzzleError};

/// The puzzle families this version understands, as written after `kind =`.
const KINDS: &str = "`exchange`, `domination`, `independent-domination`, `total-domination`, `independence`, `tour`";

#[derive(Deserialize)]
struct Header {
    kind: Option<Spanned<String>>,
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
            let raw: RawPlacement = toml::from_str(text).map_err(|e| ctx.toml_error(&e))?;
            ctx.placement(raw).map(Puzzle::Placement)
        }
        "tour" => {
            let raw: RawTour = toml::from_str(text).map_err(|e| ctx.toml_error(&e))?;
            ctx.tour(raw).map(Puzzle::Tour)
        }
        other => Err(ctx.error(kind.span(), "kind", format!("unknown puzzle kind `{other}`; known kinds: {KINDS}"))),
    }
}

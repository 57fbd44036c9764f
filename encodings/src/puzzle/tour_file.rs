//! The TOML form of tour puzzles (`kind = "tour"`); see `puzzles/README.md`.

use serde::Deserialize;

use super::context::{Context, Text};
use super::tour::{KnightStart, TourError, TourObjective, TourPuzzle, VisitOrder};
use super::PuzzleError;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawTour {
    #[allow(dead_code)]
    kind: Text,
    name: Option<String>,
    board: Text,
    #[serde(default)]
    removed: Vec<Text>,
    #[serde(default)]
    attackers: Vec<Text>,
    knights: toml::Spanned<Vec<Text>>,
    targets: Option<toml::Spanned<Vec<Text>>>,
    order: Option<Text>,
    objective: Option<Text>,
}

impl Context<'_> {
    pub(super) fn tour(&self, raw: RawTour) -> Result<TourPuzzle, PuzzleError> {
        let board = self.board(&raw.board, &raw.removed)?;
        let mut attackers = Vec::new();
        for (i, token) in raw.attackers.iter().enumerate() {
            let piece = super::parse_piece(&board, token.get_ref());
            attackers.push(piece.map_err(|why| self.error(token.span(), &format!("attackers[{i}]"), why))?);
        }
        let mut knights = Vec::new();
        for (i, token) in raw.knights.get_ref().iter().enumerate() {
            let start = KnightStart::parse(&board, token.get_ref());
            knights.push(start.map_err(|why| self.error(token.span(), &format!("knights[{i}]"), why))?);
        }
        let targets = match &raw.targets {
            None => None,
            Some(list) => {
                let mut squares = Vec::new();
                for (i, name) in list.get_ref().iter().enumerate() {
                    let square = board.parse_square(name.get_ref().trim());
                    squares.push(square.map_err(|e| self.error(name.span(), &format!("targets[{i}]"), e.to_string()))?);
                }
                Some(squares)
            }
        };
        let order = match &raw.order {
            None => VisitOrder::Any,
            Some(text) => VisitOrder::from_name(text.get_ref()).ok_or_else(|| {
                let why = format!("`any` or `listed` (the order of `targets`), not `{}`", text.get_ref());
                self.error(text.span(), "order", why)
            })?,
        };
        if order == VisitOrder::Listed && raw.targets.is_none() {
            let span = raw.order.as_ref().map_or(0..0, |o| o.span());
            return Err(self.error(span, "order", "`order = \"listed\"` needs a `targets` list to give the order"));
        }
        let objective = match &raw.objective {
            None => TourObjective::Moves,
            Some(text) => TourObjective::from_name(text.get_ref()).ok_or_else(|| {
                let why = format!("`moves`, `steps` or `feasible`, not `{}`", text.get_ref());
                self.error(text.span(), "objective", why)
            })?,
        };
        TourPuzzle::new(raw.name.clone(), board, attackers, knights, targets, order, objective).map_err(|e| {
            let (field, span) = self.locate(&raw, &e);
            self.error(span, &field, e.to_string())
        })
    }

    /// The field and span of the file that a model error is about.
    fn locate(&self, raw: &RawTour, error: &TourError) -> (String, std::ops::Range<usize>) {
        // A token names `square` if, without its kind letter, it is the square's name.
        let names = |token: &Text, square: &str| {
            token.get_ref().split('|').any(|t| t.trim().trim_start_matches(|c: char| c.is_ascii_uppercase()) == square)
        };
        let at = |name: &str, list: &[Text], i: usize| (format!("{name}[{i}]"), list[i].span());
        let in_list = |name: &str, list: &[Text], square: &str| {
            list.iter().position(|t| names(t, square)).map(|i| at(name, list, i))
        };
        let knights = raw.knights.get_ref();
        let whole_knights = ("knights".to_string(), raw.knights.span());
        let targets = raw.targets.as_ref().map(|t| t.get_ref().as_slice()).unwrap_or_default();
        let found = match error {
            TourError::UnsafeStart { knight, .. }
                if *knight <= knights.len() && !knights[*knight - 1].get_ref().contains("any") =>
            {
                Some((format!("knights[{}]", knight - 1), knights[*knight - 1].span()))
            }
            TourError::SharedStart { second, .. } => {
                Some((format!("knights[{}]", second - 1), knights[*second - 1].span()))
            }
            TourError::UnsafeTarget { square, .. } => {
                in_list("targets", targets, square).or_else(|| Some(("targets".into(), raw.board.span())))
            }
            TourError::RepeatedTarget(square) => {
                targets.iter().rposition(|t| names(t, square)).map(|i| at("targets", targets, i))
            }
            TourError::SharedAttacker(square) => in_list("attackers", &raw.attackers, square),
            _ => None,
        };
        found.unwrap_or(whole_knights)
    }
}

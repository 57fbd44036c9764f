//! Puzzles written back as TOML, in the format that [`super::parse`] reads: every field spelt
//! out, so that the text names the puzzle on its own (a puzzle given by command-line flags gets
//! a file this way, and a certificate a copy of its puzzle).

use std::fmt::Write;

use super::exchange::{ExchangePuzzle, Position};
use super::placement::{LineOfSight, PlacementPuzzle};
use super::tour::{KnightStart, TourPuzzle};
use super::Puzzle;
use crate::geometry::{Board, Square};

/// The puzzle as the text of a puzzle file; parsing it gives the same puzzle back.
pub fn to_toml(puzzle: &Puzzle) -> String {
    let mut out = String::new();
    match puzzle {
        Puzzle::Exchange(p) => exchange(&mut out, p),
        Puzzle::Placement(p) => placement(&mut out, p),
        Puzzle::Tour(p) => tour(&mut out, p),
    }
    out
}

/// A TOML string literal.
fn quoted(text: &str) -> String {
    toml::Value::String(text.to_string()).to_string()
}

/// A TOML array of string literals.
fn list(items: impl IntoIterator<Item = String>) -> String {
    let items: Vec<String> = items.into_iter().map(|i| quoted(&i)).collect();
    format!("[{}]", items.join(", "))
}

/// `kind`, `name`, `board` and `removed`, the fields every family starts with.
fn header(out: &mut String, kind: &str, name: Option<&str>, board: &Board) {
    let _ = writeln!(out, "kind = {}", quoted(kind));
    if let Some(name) = name {
        let _ = writeln!(out, "name = {}", quoted(name));
    }
    let _ = writeln!(out, "board = {}", quoted(&format!("{}x{}", board.width(), board.height())));
    let removed: Vec<Square> = board.removed_squares().collect();
    if !removed.is_empty() {
        let _ = writeln!(out, "removed = {}", list(removed.into_iter().map(|s| board.name(s))));
    }
}

fn exchange(out: &mut String, p: &ExchangePuzzle) {
    header(out, "exchange", p.name.as_deref(), &p.board);
    let pieces = |position: &Position, side: usize| {
        let mut tokens: Vec<(Square, String)> = position
            .pieces()
            .filter(|(_, piece)| piece.side == side)
            .map(|(square, piece)| (square, format!("{}{}", piece.kind.letter(), p.board.name(square))))
            .collect();
        tokens.sort();
        list(tokens.into_iter().map(|(_, token)| token))
    };
    for (i, side) in p.sides.iter().enumerate() {
        let _ = writeln!(out, "\n[[side]]\nname = {}", quoted(&side.name));
        let _ = writeln!(out, "pawns = {}", quoted(side.pawns.name()));
        let _ = writeln!(out, "start = {}", pieces(&p.start, i));
        let _ = writeln!(out, "goal = {}", pieces(&p.goal, i));
    }
}

fn placement(out: &mut String, p: &PlacementPuzzle) {
    header(out, p.goal.name(), p.name.as_deref(), &p.board);
    let letters: String = p.kinds.iter().map(|rule| rule.kind.letter()).collect();
    let _ = writeln!(out, "pieces = {}", quoted(&letters));
    let _ = writeln!(out, "pawns = {}", quoted(p.pawns.name()));
    let attacks = match p.line_of_sight {
        LineOfSight::EmptyBoard => "empty-board",
        LineOfSight::Blocked => "blocked",
    };
    let _ = writeln!(out, "attacks = {}", quoted(attacks));
    if !p.empty.is_empty() {
        let _ = writeln!(out, "empty = {}", list(p.empty.iter().map(|&s| p.board.name(s))));
    }
    if !p.fixed.is_empty() {
        let _ = writeln!(
            out,
            "fixed = {}",
            list(p.fixed.iter().map(|&(s, k)| format!("{}{}", k.letter(), p.board.name(s))))
        );
    }
    for rule in &p.kinds {
        let mut fields = vec![format!("min = {}", rule.min)];
        if let Some(max) = rule.max {
            fields.push(format!("max = {max}"));
        }
        fields.push(format!("weight = {}", rule.weight));
        let _ = writeln!(out, "limits.{} = {{ {} }}", rule.kind.letter(), fields.join(", "));
    }
}

fn tour(out: &mut String, p: &TourPuzzle) {
    header(out, "tour", p.name.as_deref(), &p.board);
    let attackers = p.attackers.iter().map(|&(k, s)| format!("{}{}", k.letter(), p.board.name(s)));
    let _ = writeln!(out, "attackers = {}", list(attackers));
    let knights = p.knights.iter().map(|start| match start {
        KnightStart::At(square) => p.board.name(*square),
        KnightStart::OneOf(squares) if squares.is_empty() => "any".to_string(),
        KnightStart::OneOf(squares) => squares.iter().map(|&s| p.board.name(s)).collect::<Vec<_>>().join("|"),
    });
    let _ = writeln!(out, "knights = {}", list(knights));
    let _ = writeln!(out, "targets = {}", list(p.targets.iter().map(|&s| p.board.name(s))));
    let _ = writeln!(out, "order = {}", quoted(p.order.name()));
    let _ = writeln!(out, "objective = {}", quoted(p.objective.name()));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::parse;

    /// Parses `text`, writes the puzzle back, and checks that the text parses to the same puzzle.
    fn round_trip(text: &str) -> String {
        let puzzle = parse(text, "original.toml").unwrap();
        let written = to_toml(&puzzle);
        let again = parse(&written, "written.toml").unwrap_or_else(|e| panic!("{e}\n{written}"));
        assert_eq!(again, puzzle, "{written}");
        written
    }

    #[test]
    fn every_shipped_puzzle_survives_the_round_trip() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../puzzles");
        let mut seen = 0;
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "toml") {
                round_trip(&std::fs::read_to_string(&path).unwrap());
                seen += 1;
            }
        }
        assert!(seen >= 9, "only {seen} puzzles");
    }

    #[test]
    fn every_field_survives_the_round_trip() {
        let written = round_trip(
            "kind = \"total-domination\"\nname = \"a \\\"quoted\\\" name\"\nboard = \"6x5\"\nremoved = [\"a1\", \"f5\"]\n\
             pieces = \"QNP\"\npawns = \"down\"\nattacks = \"blocked\"\nempty = [\"c3\"]\nfixed = [\"Nb2\"]\n\
             limits.Q = { max = 1, weight = 3 }\nlimits.P = { min = 2 }\n",
        );
        assert!(written.contains("limits.Q = { min = 0, max = 1, weight = 3 }"), "{written}");
        round_trip(
            "kind = \"tour\"\nboard = \"6x6\"\nattackers = [\"Qc3\", \"b5\"]\nknights = [\"a4|f1\", \"any\"]\n\
             objective = \"steps\"\n",
        );
        round_trip(
            "kind = \"tour\"\nboard = \"5x5\"\nknights = [\"a1\"]\norder = \"listed\"\ntargets = [\"e5\", \"a5\"]\n",
        );
        round_trip(
            "kind = \"exchange\"\nboard = \"4x3\"\nremoved = [\"d3\"]\n[[side]]\nname = \"w\"\npawns = \"down\"\n\
             start = [\"Na1\", \"c1\"]\ngoal = [\"Nc3\", \"c1\"]\n[[side]]\nname = \"b\"\nstart = [\"Kd1\"]\n\
             goal = [\"Kd2\"]\n",
        );
    }
}

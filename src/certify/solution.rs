//! The certificate's `solution.txt`: the solution in a line-based format that a person can
//! read and the rules checker can replay.
//!
//! ```text
//! knights-sat solution
//! value 12
//! piece Nb2              (placements: one line per piece)
//! move Na1-b3            (exchanges: one line per move, in order)
//! start k1 h8            (tours: each knight's start)
//! step k1 h8-g6          (tours: one line per time step, its jumps)
//! ```

use std::fmt::Write as _;

use crate::driver::Solution;
use crate::encodings::geometry::{Board, Piece};
use crate::encodings::puzzle::tour::{Jump, Route};
use crate::encodings::puzzle::{parse_piece, Move, Puzzle};

/// The first line of every solution file.
pub const HEADER: &str = "knights-sat solution";

/// The text of `solution`, whose objective value is `value`.
pub fn write_solution(puzzle: &Puzzle, solution: &Solution, value: usize) -> String {
    let mut text = format!("{HEADER}\nvalue {value}\n");
    match (puzzle, solution) {
        (Puzzle::Placement(p), Solution::Placement(pieces)) => {
            for &(square, kind) in pieces {
                let _ = writeln!(text, "piece {}{}", kind.letter(), p.board.name(square));
            }
        }
        (Puzzle::Exchange(p), Solution::Moves(moves)) => {
            for m in moves {
                let _ = writeln!(text, "move {}", m.notation(&p.board));
            }
        }
        (Puzzle::Tour(p), Solution::Route(route)) => {
            for (k, &square) in route.starts.iter().enumerate() {
                let _ = writeln!(text, "start k{} {}", k + 1, p.board.name(square));
            }
            for step in &route.steps {
                let jumps: Vec<String> = step
                    .iter()
                    .map(|j| format!("k{} {}-{}", j.knight + 1, p.board.name(j.from), p.board.name(j.to)))
                    .collect();
                let _ = writeln!(text, "step {}", jumps.join(" "));
            }
        }
        _ => {}
    }
    text
}

/// The stated value of a solution file, or `None` if it lacks the header or the value line.
pub fn stated_value(text: &str) -> Option<usize> {
    let mut lines = text.lines();
    if lines.next()?.trim() != HEADER {
        return None;
    }
    lines.next()?.trim().strip_prefix("value ")?.trim().parse().ok()
}

/// Reads the solution of a file for `puzzle`; why not, if a line cannot be read.
pub fn read_solution(puzzle: &Puzzle, text: &str) -> Result<Solution, String> {
    let lines = text.lines().skip(2).map(str::trim).filter(|l| !l.is_empty());
    let mut pieces = Vec::new();
    let mut moves = Vec::new();
    let mut route = Route::default();
    let mut position = puzzle.exchange().map(|p| p.start.clone());
    for (number, line) in lines.enumerate() {
        let at = |e: String| format!("solution line {}: {e}", number + 3);
        let (word, rest) = line.split_once(' ').ok_or_else(|| at(format!("cannot read `{line}`")))?;
        match (puzzle, word) {
            (Puzzle::Placement(p), "piece") => {
                let (kind, square) = parse_piece(&p.board, rest).map_err(at)?;
                pieces.push((square, kind));
            }
            (Puzzle::Exchange(p), "move") => {
                let board = &p.board;
                let (from, to) =
                    squares(board, rest.trim_start_matches(|c: char| c.is_ascii_uppercase())).map_err(at)?;
                let current = position.as_mut().ok_or_else(|| at("no position".into()))?;
                let piece: Piece =
                    current.take(from).ok_or_else(|| at(format!("no piece stands on {}", board.name(from))))?;
                // An occupied destination is for the rules checker to reject.
                let _ = current.place(to, piece);
                moves.push(Move { piece, from, to });
            }
            (Puzzle::Tour(p), "start") => {
                let (knight, square) = rest.split_once(' ').ok_or_else(|| at(format!("cannot read `{line}`")))?;
                knight_number(knight).map_err(at)?;
                route.starts.push(p.board.parse_square(square.trim()).map_err(|e| at(e.to_string()))?);
            }
            (Puzzle::Tour(p), "step") => {
                let words: Vec<&str> = rest.split_whitespace().collect();
                if words.len() % 2 != 0 {
                    return Err(at(format!("cannot read `{line}`")));
                }
                let mut step = Vec::new();
                for pair in words.chunks(2) {
                    let knight = knight_number(pair[0]).map_err(at)?;
                    let (from, to) = squares(&p.board, pair[1]).map_err(at)?;
                    step.push(Jump { knight, from, to });
                }
                route.steps.push(step);
            }
            _ => return Err(at(format!("`{word}` lines do not belong in the solution of a {}", puzzle.kind()))),
        }
    }
    Ok(match puzzle {
        Puzzle::Placement(_) => Solution::Placement(pieces),
        Puzzle::Exchange(_) => Solution::Moves(moves),
        Puzzle::Tour(_) => Solution::Route(route),
    })
}

/// `a1-b3` as two squares.
fn squares(
    board: &Board,
    text: &str,
) -> Result<(crate::encodings::geometry::Square, crate::encodings::geometry::Square), String> {
    let (from, to) = text.split_once('-').ok_or_else(|| format!("`{text}` is not of the form a1-b3"))?;
    let square = |s: &str| board.parse_square(s).map_err(|e| e.to_string());
    Ok((square(from)?, square(to)?))
}

/// `k3` as knight index 2.
fn knight_number(text: &str) -> Result<usize, String> {
    text.strip_prefix('k')
        .and_then(|n| n.parse::<usize>().ok())
        .filter(|&n| n >= 1)
        .map(|n| n - 1)
        .ok_or_else(|| format!("`{text}` is not a knight (k1, k2, …)"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encodings::puzzle::parse;

    fn round_trip(puzzle_text: &str, solution_text: &str) {
        let puzzle = parse(puzzle_text, "test.toml").unwrap();
        let solution = read_solution(&puzzle, solution_text).unwrap();
        let value = stated_value(solution_text).unwrap();
        assert_eq!(write_solution(&puzzle, &solution, value), solution_text);
    }

    #[test]
    fn every_family_reads_back_what_it_writes() {
        round_trip(
            "kind = \"domination\"\nboard = \"3x3\"\npieces = \"NP\"\n",
            "knights-sat solution\nvalue 2\npiece Nb2\npiece Pa1\n",
        );
        round_trip(
            "kind = \"exchange\"\nboard = \"3x3\"\nswap = true\n[[side]]\nname = \"white\"\nstart = [\"Na1\"]\n\
             [[side]]\nname = \"black\"\nstart = [\"Nc3\"]\n",
            "knights-sat solution\nvalue 2\nmove Na1-b3\nmove Nc3-a2\n",
        );
        round_trip(
            "kind = \"tour\"\nboard = \"4x4\"\nknights = [\"a1\", \"d4\"]\nobjective = \"steps\"\n",
            "knights-sat solution\nvalue 1\nstart k1 a1\nstart k2 d4\nstep k1 a1-b3 k2 d4-c2\n",
        );
    }

    #[test]
    fn unreadable_lines_are_named() {
        let puzzle = parse("kind = \"domination\"\nboard = \"3x3\"\npieces = \"N\"\n", "test.toml").unwrap();
        let error = read_solution(&puzzle, "knights-sat solution\nvalue 1\nmove Na1-b3\n").unwrap_err();
        assert!(error.contains("solution line 3") && error.contains("`move` lines"), "{error}");
        assert_eq!(stated_value("knights-sat solution\nvalue twelve\n"), None);
        assert_eq!(stated_value("a solution\nvalue 12\n"), None);
    }
}

//! The certificate's `solution.txt`: the solution in a line-based format that a person can
//! read and the rules checker can replay.
//!
//! ```text
//! knights-sat solution
//! value 12
//! horizon 24             (only where the model's horizon is not the value)
//! piece Nb2              (placements: one line per piece)
//! move Na1-b3            (exchanges: one line per move, in order)
//! start k1 h8            (tours: each knight's start)
//! step k1 h8-g6          (tours: one line per time step, its jumps)
//! ```
//!
//! Each family writes and reads its own lines ([`crate::family::Family::solution_lines`]).

use std::fmt::Write as _;

use crate::driver::Solution;
use crate::encodings::puzzle::Puzzle;
use crate::family;

/// The first line of every solution file.
pub const HEADER: &str = "knights-sat solution";

/// The text of `solution`, whose objective value is `value`.
pub fn write_solution(puzzle: &Puzzle, solution: &Solution, value: usize) -> String {
    write_solution_in(puzzle, solution, value, None)
}

/// The text of `solution`, whose objective value is `value`, for a certificate whose model has
/// the horizon `horizon` when that is not the value (an exchange's model of at most `horizon`
/// moves, from the search that certifies itself).
pub fn write_solution_in(puzzle: &Puzzle, solution: &Solution, value: usize, horizon: Option<usize>) -> String {
    let mut text = format!("{HEADER}\nvalue {value}\n");
    if let Some(horizon) = horizon {
        let _ = writeln!(text, "{HORIZON}{horizon}");
    }
    for line in family::of(puzzle).solution_lines(solution) {
        let _ = writeln!(text, "{line}");
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

/// The start of the line that states the model's horizon.
const HORIZON: &str = "horizon ";

/// The model's horizon that a solution file states on its third line, if it states one: `Ok(None)`
/// without the line, an error if the line cannot be read.
pub fn stated_horizon(text: &str) -> Result<Option<usize>, String> {
    let Some(line) = text.lines().nth(2).map(str::trim) else { return Ok(None) };
    let Some(number) = line.strip_prefix(HORIZON) else { return Ok(None) };
    number.trim().parse().map(Some).map_err(|_| format!("line 3: `{line}` is not `horizon` and a number"))
}

/// Reads the solution of a file for `puzzle`; why not, if a line cannot be read.
pub fn read_solution(puzzle: &Puzzle, text: &str) -> Result<Solution, String> {
    let lines: Vec<(usize, &str)> = text
        .lines()
        .enumerate()
        .skip(2)
        .map(|(i, l)| (i + 1, l.trim()))
        .filter(|(i, l)| !(l.is_empty() || *i == 3 && l.starts_with(HORIZON)))
        .collect();
    family::of(puzzle).read_solution(&lines)
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

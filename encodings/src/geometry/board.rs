//! Rectangular boards, optionally with removed squares, and square names (`a1` is bottom left).

use std::fmt;

/// The largest number of files or ranks a board may have.
pub const MAX_SIDE: usize = 64;

/// A square of a board, as an index `rank * width + file`.
///
/// A square only has meaning together with the [`Board`] that made it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Square(pub u16);

impl Square {
    /// The index of the square in its board's row-major numbering.
    pub fn index(self) -> usize {
        usize::from(self.0)
    }
}

/// Why a board or a square name was rejected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GeometryError {
    /// Width or height outside `1..=MAX_SIDE`.
    #[error("a board must have 1 to {MAX_SIDE} files and ranks, not {width}x{height}")]
    BadSize {
        /// Requested number of files.
        width: usize,
        /// Requested number of ranks.
        height: usize,
    },
    /// A size written other than `WIDTHxHEIGHT`.
    #[error("`{0}` is not a board size; write WIDTHxHEIGHT, e.g. 8x8")]
    BadSizeSyntax(String),
    /// A square name that does not parse.
    #[error("`{0}` is not a square name; write a file letter and a rank number, e.g. c3")]
    BadSquareName(String),
    /// A well-formed square name beyond the board's edge.
    #[error("square {name} is off the {width}x{height} board")]
    OffBoard {
        /// The square as written.
        name: String,
        /// Board width.
        width: usize,
        /// Board height.
        height: usize,
    },
    /// A square that exists on the rectangle but was removed from the board.
    #[error("square {0} is removed from the board")]
    Removed(String),
}

/// A rectangular board of `width` files and `height` ranks, some squares possibly removed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    width: usize,
    height: usize,
    removed: Vec<bool>,
}

impl Board {
    /// A full board of the given size.
    pub fn new(width: usize, height: usize) -> Result<Board, GeometryError> {
        if !(1..=MAX_SIDE).contains(&width) || !(1..=MAX_SIDE).contains(&height) {
            return Err(GeometryError::BadSize { width, height });
        }
        Ok(Board { width, height, removed: vec![false; width * height] })
    }

    /// Parses `WIDTHxHEIGHT`, e.g. `8x8` or `3x4` (3 files, 4 ranks).
    pub fn parse_size(text: &str) -> Result<Board, GeometryError> {
        let bad = || GeometryError::BadSizeSyntax(text.to_string());
        let (w, h) = text.trim().split_once(['x', 'X']).ok_or_else(bad)?;
        let width = w.trim().parse().map_err(|_| bad())?;
        let height = h.trim().parse().map_err(|_| bad())?;
        Board::new(width, height)
    }

    /// Removes a square from the board: no piece may stand on it or pass over it.
    pub fn remove(&mut self, square: Square) {
        self.removed[square.index()] = true;
    }

    /// Number of files.
    pub fn width(&self) -> usize {
        self.width
    }

    /// Number of ranks.
    pub fn height(&self) -> usize {
        self.height
    }

    /// Number of squares of the rectangle, removed ones included (the range of square indices).
    pub fn area(&self) -> usize {
        self.width * self.height
    }

    /// The square on `file` and `rank` (both from 0), if it lies on the board and is not removed.
    pub fn square(&self, file: i64, rank: i64) -> Option<Square> {
        if file < 0 || rank < 0 || file >= self.width as i64 || rank >= self.height as i64 {
            return None;
        }
        let index = rank as usize * self.width + file as usize;
        (!self.removed[index]).then_some(Square(index as u16))
    }

    /// File (from 0) of a square.
    pub fn file(&self, square: Square) -> usize {
        square.index() % self.width
    }

    /// Rank (from 0) of a square.
    pub fn rank(&self, square: Square) -> usize {
        square.index() / self.width
    }

    /// The colour of a square: 0 for a1's, 1 for the other. A knight's jump always changes it.
    pub fn colour(&self, square: Square) -> usize {
        (self.file(square) + self.rank(square)) % 2
    }

    /// Whether a square was removed from the board.
    pub fn is_removed(&self, square: Square) -> bool {
        self.removed[square.index()]
    }

    /// The squares that pieces may use, in index order (a1, b1, …, a2, …).
    pub fn squares(&self) -> impl Iterator<Item = Square> + '_ {
        (0..self.area()).filter(|&i| !self.removed[i]).map(|i| Square(i as u16))
    }

    /// The removed squares.
    pub fn removed_squares(&self) -> impl Iterator<Item = Square> + '_ {
        (0..self.area()).filter(|&i| self.removed[i]).map(|i| Square(i as u16))
    }

    /// Chess name of a square: file letters (`a`…`z`, then `aa`, `ab`, …) and rank from 1.
    pub fn name(&self, square: Square) -> String {
        format!("{}{}", file_name(self.file(square)), self.rank(square) + 1)
    }

    /// The file letters of a file index (`0` is `a`, `26` is `aa`).
    pub fn file_name(&self, file: usize) -> String {
        file_name(file)
    }

    /// Parses a square name such as `c3` and checks that it is a usable square of this board.
    pub fn parse_square(&self, text: &str) -> Result<Square, GeometryError> {
        let bad = || GeometryError::BadSquareName(text.to_string());
        let split = text.find(|c: char| !c.is_ascii_lowercase()).ok_or_else(bad)?;
        let (letters, digits) = text.split_at(split);
        if letters.is_empty() || digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad());
        }
        let mut file = 0usize;
        for b in letters.bytes() {
            file = file.checked_mul(26).and_then(|f| f.checked_add(usize::from(b - b'a') + 1)).ok_or_else(bad)?;
        }
        let file = file - 1;
        let rank: usize = digits.parse().map_err(|_| bad())?;
        if rank == 0 || digits.starts_with('0') {
            return Err(bad());
        }
        let off = || GeometryError::OffBoard { name: text.to_string(), width: self.width, height: self.height };
        if file >= self.width || rank > self.height {
            return Err(off());
        }
        let index = (rank - 1) * self.width + file;
        if self.removed[index] {
            return Err(GeometryError::Removed(text.to_string()));
        }
        Ok(Square(index as u16))
    }
}

impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.width, self.height)?;
        let removed = self.removed_squares().count();
        if removed > 0 {
            write!(f, " ({removed} squares removed)")?;
        }
        Ok(())
    }
}

fn file_name(mut file: usize) -> String {
    let mut letters = Vec::new();
    loop {
        letters.push(b'a' + (file % 26) as u8);
        if file < 26 {
            break;
        }
        file = file / 26 - 1;
    }
    letters.reverse();
    String::from_utf8(letters).expect("ascii letters")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_on_a_wide_board() {
        let board = Board::new(40, 32).unwrap();
        for square in board.squares() {
            let name = board.name(square);
            assert_eq!(board.parse_square(&name), Ok(square), "{name}");
        }
        assert_eq!(board.name(Square(26)), "aa1");
        assert_eq!(board.name(Square(0)), "a1");
    }

    #[test]
    fn rejects_bad_names_and_sizes() {
        let board = Board::new(8, 8).unwrap();
        for bad in ["", "a", "1", "A1", "a0", "a01", "a1x", "é1"] {
            assert!(matches!(board.parse_square(bad), Err(GeometryError::BadSquareName(_))), "{bad}");
        }
        assert!(matches!(board.parse_square("i1"), Err(GeometryError::OffBoard { .. })));
        assert!(matches!(board.parse_square("a9"), Err(GeometryError::OffBoard { .. })));
        assert!(Board::parse_size("0x3").is_err());
        assert!(Board::parse_size("3 by 3").is_err());
        assert_eq!(Board::parse_size("3x4").unwrap().height(), 4);
    }
}

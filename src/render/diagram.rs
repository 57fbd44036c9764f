//! Boards drawn in plain text: ranks top to bottom, files labelled below, two characters per
//! square, so that several boards can be laid side by side.

use knights_sat_encodings::geometry::{Board, Piece, PieceKind, Square};
use knights_sat_encodings::puzzle::Position;

/// What is drawn for a square, padded to `width`: `.` empty, `#` removed, a piece letter
/// otherwise — upper case for the first side, lower case for the second, and the letter followed
/// by the side's number for any further side.
fn cell(board: &Board, position: &Position, square: Square, width: usize) -> String {
    let text = if board.is_removed(square) {
        "#".to_string()
    } else {
        match position.get(square) {
            None => ".".to_string(),
            Some(Piece { side, kind }) => piece_glyph(side, kind),
        }
    };
    format!("{text:<width$}")
}

/// The letters for a piece of `side`: `N`, `n`, `N3`, `N4`, …
pub fn piece_glyph(side: usize, kind: PieceKind) -> String {
    let letter = kind.letter();
    match side {
        0 => letter.to_ascii_uppercase().to_string(),
        1 => letter.to_ascii_lowercase().to_string(),
        n => format!("{}{}", letter.to_ascii_uppercase(), n + 1),
    }
}

/// A board with its pieces, one string per line, rank numbers on the left and file letters
/// below. Squares are two characters wide, three when a third side takes part (`sides`).
pub fn board_diagram(board: &Board, position: &Position, sides: usize) -> Vec<String> {
    let width = if sides > 2 { 3 } else { 2 };
    let label_width = board.height().to_string().len();
    let mut lines = Vec::with_capacity(board.height() + 1);
    for rank in (0..board.height()).rev() {
        let mut line = format!("{:>label_width$} ", rank + 1);
        for file in 0..board.width() {
            let square = Square((rank * board.width() + file) as u16);
            line.push_str(&cell(board, position, square, width));
        }
        lines.push(line.trim_end().to_string());
    }
    let mut files = " ".repeat(label_width + 1);
    for file in 0..board.width() {
        files.push_str(&format!("{:<width$}", board.file_name(file)));
    }
    lines.push(files.trim_end().to_string());
    lines
}

/// Lays titled blocks of lines side by side, wrapping to a new row of blocks so that no line
/// is wider than `width` characters.
pub fn side_by_side(blocks: &[(String, Vec<String>)], width: usize) -> String {
    let column = blocks
        .iter()
        .flat_map(|(title, lines)| std::iter::once(title).chain(lines))
        .map(|l| l.chars().count())
        .max()
        .unwrap_or(0)
        + 3;
    let per_row = (width / column).max(1);
    let mut out = String::new();
    for (row, chunk) in blocks.chunks(per_row).enumerate() {
        if row > 0 {
            out.push('\n');
        }
        let height = chunk.iter().map(|(_, lines)| lines.len()).max().unwrap_or(0);
        for line in 0..=height {
            let mut text = String::new();
            for (title, lines) in chunk {
                let piece = if line == 0 { title.as_str() } else { lines.get(line - 1).map_or("", String::as_str) };
                text.push_str(&format!("{piece:<column$}"));
            }
            out.push_str(text.trim_end());
            out.push('\n');
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_ranks_from_the_top_with_labels() {
        let board = Board::new(3, 2).unwrap();
        let mut position = Position::empty(board.area());
        position.place(board.square(0, 0).unwrap(), Piece { side: 0, kind: PieceKind::Knight }).unwrap();
        position.place(board.square(2, 1).unwrap(), Piece { side: 1, kind: PieceKind::Knight }).unwrap();
        assert_eq!(board_diagram(&board, &position, 2), vec!["2 . . n", "1 N . .", "  a b c"]);
    }

    #[test]
    fn wraps_blocks_into_rows() {
        let block = |t: &str| (t.to_string(), vec!["xx".to_string()]);
        let text = side_by_side(&[block("a"), block("b"), block("c")], 10);
        assert_eq!(text, "a    b\nxx   xx\n\nc\nxx\n");
    }
}

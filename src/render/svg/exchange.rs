//! Exchanges as SVG: a grid of small boards, one per position, each titled with the move that
//! led to it.

use knights_sat_encodings::check::replay_exchange;
use knights_sat_encodings::geometry::Square;
use knights_sat_encodings::puzzle::{ExchangePuzzle, Move, Position};

use super::{circle, rect, shorten, text, DARK, LIGHT};

/// The widest the grid may be, in pixels.
const GRID_PX: f64 = 880.0;

/// Every position of the solution as a small board (class `frame`), in rows of up to four (or
/// more for long solutions), titled `start` and `1. Na1-b3`, …; the first side's pieces as white
/// discs, the second's as dark discs, further sides numbered. A sequence that breaks the rules
/// is drawn up to the start only, with the reason in the header.
pub fn exchange_svg(puzzle: &ExchangePuzzle, moves: &[Move]) -> String {
    let board = &puzzle.board;
    let (positions, problem) = match replay_exchange(puzzle, moves) {
        Ok(positions) => (positions, None),
        Err(why) => (vec![puzzle.start.clone()], Some(why.to_string())),
    };
    let columns = match positions.len() {
        n if n <= 8 => n.min(4),
        n if n <= 30 => 5,
        _ => 6,
    };
    let rows = positions.len().div_ceil(columns);
    let gap = 18.0;
    let frame = (GRID_PX / columns as f64 - gap).min(200.0);
    let size = (frame / board.width().max(board.height()) as f64).floor();
    // Room around each frame: its title above, rank numbers at the left, file letters below.
    let (label_w, title_h, files_h) = (12.0, 16.0, 12.0);
    let (cell_w, cell_h) =
        (label_w + size * board.width() as f64 + gap, title_h + size * board.height() as f64 + files_h + gap);
    let (width, height) = ((12.0 + columns as f64 * cell_w).max(640.0), 70.0 + rows as f64 * cell_h);
    let mut svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width:.0}\" height=\"{height:.0}\" \
         viewBox=\"0 0 {width:.0} {height:.0}\" font-family=\"sans-serif\">\n\
         <rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>\n"
    );
    let title = puzzle.name.clone().unwrap_or_else(|| format!("exchange on {}x{}", board.width(), board.height()));
    svg += &text(12.0, 26.0, "font-size=\"20\" font-weight=\"bold\"", &shorten(&title, 50));
    let sides: Vec<String> = puzzle.sides.iter().enumerate().map(|(i, s)| format!("{}: {}", key(i), s.name)).collect();
    let line = match &problem {
        Some(why) => format!("moves do not replay: {why}"),
        None => format!("{} moves; {}", moves.len(), sides.join(", ")),
    };
    svg += &text(12.0, 48.0, "font-size=\"13\"", &shorten(&line, 100));
    for (i, position) in positions.iter().enumerate() {
        let (x, y) = (12.0 + (i % columns) as f64 * cell_w, 70.0 + (i / columns) as f64 * cell_h);
        let label = if i == 0 { "start".to_string() } else { format!("{i}. {}", moves[i - 1].notation(board)) };
        svg += &text(x, y + 12.0, "font-size=\"12\"", &label);
        svg += &board_frame(puzzle, position, (x + label_w, y + title_h), size);
    }
    svg + "</svg>\n"
}

/// How a side's pieces look, for the key.
fn key(side: usize) -> String {
    match side {
        0 => "white discs".to_string(),
        1 => "dark discs".to_string(),
        n => format!("discs marked {}", n + 1),
    }
}

/// One small board with its pieces, top-left corner at `origin`.
fn board_frame(puzzle: &ExchangePuzzle, position: &Position, origin: (f64, f64), size: f64) -> String {
    let board = &puzzle.board;
    let mut out = String::from("<g class=\"frame\">\n");
    for index in 0..board.area() {
        let square = Square(index as u16);
        let (file, rank) = (board.file(square), board.rank(square));
        let (x, y) = (origin.0 + file as f64 * size, origin.1 + (board.height() - 1 - rank) as f64 * size);
        if board.is_removed(square) {
            out += &rect(x, y, size, size, "fill=\"#fff\" stroke=\"#999\" stroke-dasharray=\"2 2\"");
            continue;
        }
        let dark = (file + rank) % 2 == 0;
        out += &rect(x, y, size, size, &format!("fill=\"{}\"", if dark { DARK } else { LIGHT }));
        let Some(piece) = position.get(square) else { continue };
        let (fill, ink) = if piece.side == 1 { ("#222", "#fff") } else { ("#fff", "#111") };
        let centre = (x + size / 2.0, y + size / 2.0);
        out += &circle(centre, 0.38 * size, &format!("class=\"piece\" fill=\"{fill}\" stroke=\"#111\""));
        let mut letter = piece.kind.letter().to_string();
        if piece.side > 1 {
            letter.push_str(&(piece.side + 1).to_string());
        }
        let attrs =
            format!("font-size=\"{:.1}\" font-weight=\"bold\" fill=\"{ink}\" text-anchor=\"middle\"", 0.42 * size);
        out += &text(centre.0, centre.1 + 0.15 * size, &attrs, &letter);
    }
    let (w, h) = (size * board.width() as f64, size * board.height() as f64);
    out += &rect(origin.0, origin.1, w, h, "fill=\"none\" stroke=\"#444\"");
    let font = (size * 0.3).clamp(7.0, 10.0);
    let attrs = format!("font-size=\"{font:.1}\" fill=\"#333\" text-anchor=\"middle\"");
    for file in 0..board.width() {
        let x = origin.0 + (file as f64 + 0.5) * size;
        out += &text(x, origin.1 + h + font + 1.0, &attrs, &board.file_name(file));
    }
    for rank in 0..board.height() {
        let y = origin.1 + ((board.height() - rank) as f64 - 0.5) * size + font * 0.35;
        out += &text(origin.0 - 6.0, y, &attrs, &(rank + 1).to_string());
    }
    out + "</g>\n"
}

#[cfg(test)]
mod tests {
    use knights_sat_encodings::puzzle;

    use super::*;

    #[test]
    fn one_frame_per_position() {
        let text =
            "kind = \"exchange\"\nboard = \"3x1\"\n[[side]]\nname = \"white\"\nstart = [\"Ra1\"]\ngoal = [\"Rc1\"]\n";
        let puzzle = puzzle::parse(text, "rook.toml").unwrap().exchange().unwrap().clone();
        let square = |name: &str| puzzle.board.parse_square(name).unwrap();
        let rook = puzzle.start.get(square("a1")).unwrap();
        let moves = vec![Move { piece: rook, from: square("a1"), to: square("c1") }];
        let svg = exchange_svg(&puzzle, &moves);
        let document = roxmltree::Document::parse(&svg).expect("the picture is XML");
        let count = |c: &str| document.descendants().filter(|n| n.attribute("class") == Some(c)).count();
        assert_eq!((count("frame"), count("piece")), (2, 2));
        // A sequence that misses the goal is drawn up to the start, with the reason.
        let svg = exchange_svg(&puzzle, &[]);
        assert!(svg.contains("moves do not replay"));
    }
}

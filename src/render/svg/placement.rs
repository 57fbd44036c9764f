//! Placements as SVG: the board with one glyph per piece and, on request, the squares the
//! pieces attack hatched.

use knights_sat_encodings::geometry::{attack_steps, Square};
use knights_sat_encodings::puzzle::placement::{LineOfSight, Placement, PlacementPuzzle};

use super::{circle, coordinates, defs, shorten, squares, text, Layout};

/// The placement as a standalone SVG document (sized like the tour pictures, so boards up to
/// 32x32 stay legible): the title, the number of pieces and their value, then the board with a
/// disc and letter per piece (class `piece`), squares that must stay empty crossed, and with
/// `show_attacks` every square some piece attacks hatched.
pub fn placement_svg(puzzle: &PlacementPuzzle, placement: &Placement, show_attacks: bool) -> String {
    let board = &puzzle.board;
    let layout = Layout::new(board.width(), board.height(), 0);
    let (w, h) = (layout.width, layout.height);
    let mut svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" \
         font-family=\"sans-serif\">\n<rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>\n"
    );
    svg += &defs(&layout);
    let title =
        puzzle.name.clone().unwrap_or_else(|| format!("{} on {}x{}", puzzle.goal, board.width(), board.height()));
    svg += &text(12.0, 26.0, "font-size=\"20\" font-weight=\"bold\"", &shorten(&title, 50));
    let count = placement.len();
    let mut line = format!("{count} piece{}, value {}", if count == 1 { "" } else { "s" }, puzzle.value(placement));
    if show_attacks {
        line.push_str("; hatched: attacked by a placed piece");
    }
    if !puzzle.empty.is_empty() {
        line.push_str("; crossed: kept empty");
    }
    svg += &text(12.0, 48.0, "font-size=\"13\"", &shorten(&line, 90));
    let attacked = if show_attacks { attacked_squares(puzzle, placement) } else { vec![false; board.area()] };
    svg += &squares(board, &layout, |square| attacked[square.index()]);
    let s = layout.size;
    for &square in &puzzle.empty {
        let Some((x, y)) = layout.corner(square) else { continue };
        let (a, b) = (s * 0.3, s * 0.7);
        svg += &format!(
            "<path class=\"empty\" d=\"M{:.1},{:.1} L{:.1},{:.1} M{:.1},{:.1} L{:.1},{:.1}\" stroke=\"#555\" \
             stroke-width=\"{:.1}\"/>\n",
            x + a,
            y + a,
            x + b,
            y + b,
            x + b,
            y + a,
            x + a,
            y + b,
            layout.stroke
        );
    }
    for &(square, kind) in placement {
        let Some(centre) = layout.centre(square) else { continue };
        let letter = format!("font-size=\"{:.1}\" font-weight=\"bold\" fill=\"#111\" text-anchor=\"middle\"", 0.42 * s);
        svg += "<g class=\"piece\">";
        svg +=
            &circle(centre, 0.36 * s, &format!("fill=\"#fff\" stroke=\"#111\" stroke-width=\"{:.1}\"", layout.stroke));
        svg += &text(centre.0, centre.1 + 0.15 * s, &letter, &kind.letter().to_string());
        svg += "</g>\n";
    }
    svg += &coordinates(board, &layout);
    svg + "</svg>\n"
}

/// For every square, whether a placed piece attacks it (lines blocked by placed pieces when the
/// puzzle says so).
fn attacked_squares(puzzle: &PlacementPuzzle, placement: &Placement) -> Vec<bool> {
    let board = &puzzle.board;
    let mut occupied = vec![false; board.area()];
    for &(square, _) in placement {
        occupied[square.index()] = true;
    }
    let mut attacked = vec![false; board.area()];
    for &(from, kind) in placement {
        for step in attack_steps(board, kind, from, puzzle.pawns) {
            let blocked = puzzle.line_of_sight == LineOfSight::Blocked
                && step.between.iter().any(|b: &Square| occupied[b.index()]);
            if !blocked {
                attacked[step.to.index()] = true;
            }
        }
    }
    attacked
}

#[cfg(test)]
mod tests {
    use knights_sat_encodings::geometry::{Board, PawnDirection, PieceKind};
    use knights_sat_encodings::puzzle::placement::{KindRule, PlacementGoal};

    use super::*;

    #[test]
    fn one_glyph_per_piece_and_hatching_on_request() {
        let board = Board::new(4, 4).unwrap();
        let kinds = KindRule::parse_letters("NQ").unwrap();
        let puzzle =
            PlacementPuzzle::new(None, board, PlacementGoal::Domination, kinds, PawnDirection::Up, vec![], vec![])
                .unwrap();
        let placement = vec![(Square(0), PieceKind::Queen), (Square(10), PieceKind::Knight)];
        for show in [false, true] {
            let svg = placement_svg(&puzzle, &placement, show);
            let document = roxmltree::Document::parse(&svg).expect("the picture is XML");
            let class = |c: &str| document.descendants().filter(|n| n.attribute("class") == Some(c)).count();
            assert_eq!(class("piece"), 2);
            assert_eq!(class("attacked") > 0, show);
        }
    }
}

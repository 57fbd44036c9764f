//! Tours as SVG: the board in greys, the static attackers and the squares they attack, and
//! each knight's path as numbered arrows, drawn so that a black-and-white print still tells the
//! knights apart (each has its own dash pattern as well as its own colour).

use knights_sat_encodings::check::replay_tour;
use knights_sat_encodings::geometry::Square;
use knights_sat_encodings::puzzle::tour::{Route, TourPuzzle};

use super::{circle, coordinates, defs, rect, shorten, squares, text, Layout, STYLES};

/// The tour as a standalone SVG document between 640 and 900 px wide (the board takes at most
/// 720 px in its larger direction, so boards up to 32x32 stay legible): the title, the number of
/// moves and time steps, a key to the knights' line styles, then the board with its attackers,
/// attacked squares (hatched), removed squares (blank), start squares (ringed), numbered jump
/// arrows and, in a corner of each visited square, the time step of its first visit. A route
/// that breaks the rules is still drawn, jump by jump, with the reason in the header.
pub fn tour_svg(puzzle: &TourPuzzle, route: &Route) -> String {
    let knights = route.starts.len().max(puzzle.knights.len());
    let layout = Layout::new(puzzle.board.width(), puzzle.board.height(), knights.div_ceil(5));
    let (positions, problem) = match replay_tour(puzzle, route) {
        Ok(replay) => (replay.positions, None),
        Err(why) => (blind_positions(route), Some(why.to_string())),
    };
    let (w, h) = (layout.width, layout.height);
    let mut svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" \
         font-family=\"sans-serif\">\n<rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>\n"
    );
    svg += &defs(&layout);
    svg += &header(puzzle, route, problem.as_deref(), knights);
    let attacked = |square: Square| puzzle.danger(square).is_some() && !puzzle.attackers.iter().any(|a| a.1 == square);
    svg += &squares(&puzzle.board, &layout, attacked);
    for (k, &square) in route.starts.iter().enumerate() {
        let attrs = format!("class=\"start\" fill=\"none\" {}", stroke_attrs(k, 1.6 * layout.stroke));
        svg += &layout.centre(square).map(|c| circle(c, 0.34 * layout.size, &attrs)).unwrap_or_default();
    }
    let (visits, mut taken) = visit_numbers(&positions, puzzle.board.area(), &layout);
    svg += &arrows(route, &layout, &mut taken);
    svg += &attackers(puzzle, &layout);
    svg += &visits;
    svg += &coordinates(&puzzle.board, &layout);
    svg + "</svg>\n"
}

/// The knights' squares after every step, applying the jumps without checking them.
fn blind_positions(route: &Route) -> Vec<Vec<Square>> {
    let mut now = route.starts.clone();
    let mut positions = vec![now.clone()];
    for jumps in &route.steps {
        for jump in jumps {
            if let Some(square) = now.get_mut(jump.knight) {
                *square = jump.to;
            }
        }
        positions.push(now.clone());
    }
    positions
}

fn style(knight: usize) -> (&'static str, &'static [f64]) {
    STYLES[knight % STYLES.len()]
}

/// Stroke attributes for a knight's line: colour, width and dash pattern.
fn stroke_attrs(knight: usize, width: f64) -> String {
    let (colour, dashes) = style(knight);
    let dashes: Vec<String> = dashes.iter().map(|d| format!("{:.1}", d * width)).collect();
    let dashes = if dashes.is_empty() { String::new() } else { format!(" stroke-dasharray=\"{}\"", dashes.join(" ")) };
    format!("stroke=\"{colour}\" stroke-width=\"{width:.1}\"{dashes}")
}

/// The most jumps whose arrows carry their step numbers; beyond it the labels would pile up
/// on the edges a long route uses again and again.
const MOST_NUMBERED: usize = 64;

/// Whether the arrows carry their step numbers.
fn numbered_arrows(route: &Route) -> bool {
    route.moves() <= MOST_NUMBERED
}

/// The title, the counts and a key to the knights' line styles.
fn header(puzzle: &TourPuzzle, route: &Route, problem: Option<&str>, knights: usize) -> String {
    let title = shorten(puzzle.name.as_deref().unwrap_or("tour"), 50);
    let plural = |n: usize, one: &str| format!("{n} {one}{}", if n == 1 { "" } else { "s" });
    let counts = match problem {
        Some(why) => format!("route does not replay: {why}"),
        None => format!(
            "{}, {}; hatched: attacked, ring: start, corner: step of first visit{}",
            plural(route.moves(), "move"),
            plural(route.time_steps(), "time step"),
            if numbered_arrows(route) { "" } else { "; arrows unnumbered" }
        ),
    };
    let mut out = text(12.0, 26.0, "font-size=\"20\" font-weight=\"bold\"", &title);
    out += &text(12.0, 48.0, "font-size=\"13\"", &shorten(&counts, 90));
    for k in 0..knights {
        let (x, y) = (12.0 + (k % 5) as f64 * 120.0, 66.0 + (k / 5) as f64 * 22.0);
        let start = route.starts.get(k).map(|&s| puzzle.board.name(s)).unwrap_or_default();
        out += &format!("<line x1=\"{x}\" y1=\"{y}\" x2=\"{}\" y2=\"{y}\" {}/>\n", x + 40.0, stroke_attrs(k, 3.0));
        out += &text(x + 46.0, y + 4.0, "font-size=\"13\"", &format!("N{} {start}", k + 1));
    }
    out
}

/// A label's box: centre x and y, half width and half height.
type Label = [f64; 4];

/// Where along its arrow a step label goes: the first of a few places near the middle that
/// overlaps no label placed so far, else the one that overlaps least (by area).
fn place(from: (f64, f64), to: (f64, f64), (w, h): (f64, f64), taken: &[Label]) -> Label {
    let overlap = |a: &Label, b: &Label| {
        (a[2] + b[2] - (a[0] - b[0]).abs()).max(0.0) * (a[3] + b[3] - (a[1] - b[1]).abs()).max(0.0)
    };
    let mut best = ([0.0; 4], f64::INFINITY);
    for t in [0.5, 0.38, 0.62, 0.3, 0.7, 0.22, 0.78] {
        let label = [from.0 + (to.0 - from.0) * t, from.1 + (to.1 - from.1) * t, w / 2.0, h / 2.0];
        let cost: f64 = taken.iter().map(|other| overlap(&label, other)).sum();
        if cost < best.1 {
            best = (label, cost);
        }
        if cost == 0.0 {
            break;
        }
    }
    best.0
}

/// One arrow per jump, from centre towards centre, and its time step in a box along it, placed
/// clear of the labels in `taken` where it can be. Arrows sit a little to the right of their
/// direction, so that a jump back does not hide the jump there.
fn arrows(route: &Route, layout: &Layout, taken: &mut Vec<Label>) -> String {
    let numbered = numbered_arrows(route);
    let (mut lines, mut labels) = (String::new(), String::new());
    let (s, font, edge) = (layout.size, (layout.size * 0.22).max(8.0), (0.6 * layout.stroke).max(1.0));
    for (i, jumps) in route.steps.iter().enumerate() {
        for jump in jumps {
            let (Some(from), Some(to)) = (layout.centre(jump.from), layout.centre(jump.to)) else { continue };
            let length = (to.0 - from.0).hypot(to.1 - from.1).max(1.0);
            let (ux, uy) = ((to.0 - from.0) / length, (to.1 - from.1) / length);
            let (from, to) =
                ((from.0 - uy * s * 0.06, from.1 + ux * s * 0.06), (to.0 - uy * s * 0.06, to.1 + ux * s * 0.06));
            let (x1, y1, x2, y2) =
                (from.0 + ux * s * 0.08, from.1 + uy * s * 0.08, to.0 - ux * s * 0.16, to.1 - uy * s * 0.16);
            let (k, stroke) = (jump.knight, stroke_attrs(jump.knight, layout.stroke));
            lines += &format!(
                "<line class=\"jump\" x1=\"{x1:.1}\" y1=\"{y1:.1}\" x2=\"{x2:.1}\" y2=\"{y2:.1}\" {stroke} \
                 marker-end=\"url(#arrow-{})\"/>\n",
                k % STYLES.len()
            );
            if !numbered {
                continue;
            }
            let number = (i + 1).to_string();
            let size = (font * (0.62 * number.len() as f64 + 0.5), font * 1.25);
            let label @ [mx, my, hw, hh] = place(from, to, size, taken);
            taken.push(label);
            let frame =
                format!("rx=\"{:.1}\" fill=\"#fff\" stroke=\"{}\" stroke-width=\"{edge:.1}\"", hh / 1.5, style(k).0);
            labels += &rect(mx - hw, my - hh, size.0, size.1, &frame);
            labels += &text(mx, my + font * 0.35, &format!("font-size=\"{font:.1}\" text-anchor=\"middle\""), &number);
        }
    }
    lines + labels.as_str()
}

/// Each static piece as a dark disc with its letter in white.
fn attackers(puzzle: &TourPuzzle, layout: &Layout) -> String {
    let mut out = String::new();
    for &(kind, square) in &puzzle.attackers {
        let Some((cx, cy)) = layout.centre(square) else { continue };
        let attrs = format!(
            "font-size=\"{:.1}\" font-weight=\"bold\" fill=\"#fff\" text-anchor=\"middle\"",
            0.42 * layout.size
        );
        out += "<g class=\"attacker\">";
        out += &circle((cx, cy), 0.36 * layout.size, "fill=\"#222\"");
        out += &text(cx, cy + 0.15 * layout.size, &attrs, &kind.letter().to_string());
        out += "</g>\n";
    }
    out
}

/// In the top-left corner of each visited square, small, the time step of its first visit;
/// also the boxes these numbers take.
fn visit_numbers(positions: &[Vec<Square>], area: usize, layout: &Layout) -> (String, Vec<Label>) {
    let mut first: Vec<Option<usize>> = vec![None; area];
    for (t, squares) in positions.iter().enumerate() {
        for square in squares {
            if let Some(slot) = first.get_mut(square.index()) {
                slot.get_or_insert(t);
            }
        }
    }
    let font = (layout.size * 0.2).max(7.0);
    let attrs = format!(
        "class=\"visit\" font-size=\"{font:.1}\" stroke=\"#fff\" stroke-width=\"{:.1}\" paint-order=\"stroke\"",
        font / 5.0
    );
    let (mut out, mut boxes) = (String::new(), Vec::new());
    for (index, t) in first.iter().enumerate() {
        let (Some(t), Some((x, y))) = (t, layout.corner(Square(index as u16))) else { continue };
        let (x, y, half_width) = (x + layout.size * 0.05, y + font, font * 0.31 * t.to_string().len() as f64);
        boxes.push([x + half_width, y - font * 0.35, half_width, font * 0.5]);
        out += &text(x, y, &attrs, &t.to_string());
    }
    (out, boxes)
}

#[cfg(test)]
mod tests {
    use knights_sat_encodings::geometry::{Board, PieceKind};
    use knights_sat_encodings::puzzle::tour::{Jump, KnightStart, TourObjective, VisitOrder};

    use super::*;

    type Result<T> = std::result::Result<T, Box<dyn std::error::Error>>;

    /// A queen on d5 with the targets `targets`, and a route whose time steps are lists of jumps
    /// `(knight, from, to)`; each knight starts where it first jumps from.
    fn tour(size: usize, targets: &[&str], steps: &[&[(usize, &str, &str)]]) -> Result<(TourPuzzle, Route)> {
        let board = Board::new(size, size)?;
        let square = |name: &str| board.parse_square(name);
        let mut route = Route::default();
        for step in steps {
            let jumps =
                step.iter().map(|&(knight, from, to)| Ok(Jump { knight, from: square(from)?, to: square(to)? }));
            route.steps.push(jumps.collect::<Result<Vec<_>>>()?);
        }
        route.starts = (0..).map_while(|k| route.jumps().find(|j| j.knight == k).map(|j| j.from)).collect();
        let knights = route.starts.iter().map(|&s| KnightStart::At(s)).collect();
        let targets = targets.iter().map(|t| square(t)).collect::<std::result::Result<_, _>>()?;
        let objective = if steps.iter().any(|s| s.len() > 1) { TourObjective::Steps } else { TourObjective::Moves };
        let attackers = vec![(PieceKind::Queen, square("d5")?)];
        Ok((TourPuzzle::new(None, board, attackers, knights, Some(targets), VisitOrder::Any, objective)?, route))
    }

    /// Renders and parses the picture; checks the arrows, the attacker glyphs and the width.
    fn check(puzzle: &TourPuzzle, route: &Route) -> Result<String> {
        let svg = tour_svg(puzzle, route);
        let doc = roxmltree::Document::parse(&svg)?;
        let class = |c: &str| doc.descendants().filter(|n| n.attribute("class") == Some(c)).count();
        let marked = doc.descendants().filter(|n| n.has_tag_name("line") && n.has_attribute("marker-end")).count();
        assert_eq!((class("jump"), marked), (route.moves(), route.moves()));
        assert_eq!(class("attacker"), puzzle.attackers.len());
        let width: f64 = doc.root_element().attribute("width").ok_or("no width")?.parse()?;
        assert!((640.0..=900.0).contains(&width), "width {width}");
        Ok(svg)
    }

    #[test]
    fn one_knight_from_h8() -> Result<()> {
        let (puzzle, route) = tour(8, &["h8", "g6", "h4"], &[&[(0, "h8", "g6")], &[(0, "g6", "h4")]])?;
        replay_tour(&puzzle, &route)?;
        let svg = check(&puzzle, &route)?;
        assert!(svg.contains(">tour</text>") && svg.contains("2 moves, 2 time steps"));
        Ok(())
    }

    #[test]
    fn two_knights_moving_together() -> Result<()> {
        let steps: &[&[_]] = &[&[(0, "h8", "g6"), (1, "a1", "c2")], &[(0, "g6", "h4")]];
        let (puzzle, route) = tour(8, &["h8", "g6", "h4", "a1", "c2"], steps)?;
        replay_tour(&puzzle, &route)?;
        assert!(check(&puzzle, &route)?.contains("3 moves, 2 time steps"));
        Ok(())
    }

    #[test]
    fn a_32_by_32_board_stays_within_bounds() -> Result<()> {
        let squares = ["k2", "m1", "o2", "q1", "s2", "u1", "w2"];
        let jumps: Vec<[(usize, &str, &str); 1]> = squares.windows(2).map(|w| [(0, w[0], w[1])]).collect();
        let steps: Vec<&[_]> = jumps.iter().map(|j| &j[..]).collect();
        let (mut puzzle, route) = tour(32, &squares, &steps)?;
        replay_tour(&puzzle, &route)?;
        puzzle.name = Some("big <&> \"board\"".to_string());
        assert!(check(&puzzle, &route)?.contains("big &lt;&amp;&gt; &quot;board&quot;"));
        Ok(())
    }

    #[test]
    fn a_route_that_breaks_the_rules_is_still_drawn() -> Result<()> {
        let (puzzle, route) = tour(8, &["h8", "g6", "h4", "a1"], &[&[(0, "h8", "g6")], &[(0, "g6", "h4")]])?;
        assert!(check(&puzzle, &route)?.contains("route does not replay"));
        Ok(())
    }
}

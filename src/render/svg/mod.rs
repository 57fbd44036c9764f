//! Solutions as SVG pictures, drawn with no plotting library: one module per family
//! ([`tour_svg`], [`placement_svg`], [`exchange_svg`]) and the benchmark chart, on the shared
//! layout, squares, coordinates and line styles of this module.

mod chart;
mod exchange;
mod placement;

mod tour;

pub use chart::bench_chart;
pub use exchange::exchange_svg;
pub use placement::placement_svg;
pub use tour::tour_svg;

use knights_sat_encodings::geometry::{Board, Square};

/// Each knight's stroke colour and dash pattern (in stroke widths; empty for a solid line).
const STYLES: [(&str, &[f64]); 6] = [
    ("#1b4f9c", &[]),
    ("#c0392b", &[4.0, 2.0]),
    ("#1e8449", &[1.0, 1.0]),
    ("#7d3c98", &[6.0, 2.0, 1.0, 2.0]),
    ("#b9770e", &[8.0, 3.0]),
    ("#17202a", &[3.0, 1.0, 1.0, 1.0, 1.0, 1.0]),
];
/// The most pixels the board may take in its larger direction.
const BOARD_PX: f64 = 720.0;
/// The narrowest picture, so that the title has room.
const MIN_WIDTH: f64 = 640.0;
const LIGHT: &str = "#e4e4e4";
const DARK: &str = "#b0b0b0";

/// Where things go: the square size and the board's top-left corner.
struct Layout {
    size: f64,
    left: f64,
    top: f64,
    files: usize,
    ranks: usize,
    width: f64,
    height: f64,
    stroke: f64,
}

impl Layout {
    fn new(files: usize, ranks: usize, legend_rows: usize) -> Layout {
        let size = (BOARD_PX / files.max(ranks).max(1) as f64).min(90.0).floor();
        let left = (size * 0.7).max(24.0);
        let top = 70.0 + 22.0 * legend_rows as f64;
        let width = (left + files as f64 * size + (size * 0.25).max(12.0)).max(MIN_WIDTH).round();
        let height = (top + ranks as f64 * size + (size * 0.6).max(20.0)).round();
        Layout { size, left, top, files, ranks, width, height, stroke: (size * 0.05).max(1.5) }
    }

    /// The top-left corner of a square, or `None` off the board.
    fn corner(&self, square: Square) -> Option<(f64, f64)> {
        let (file, rank) = (square.index() % self.files.max(1), square.index() / self.files.max(1));
        (rank < self.ranks)
            .then(|| (self.left + file as f64 * self.size, self.top + (self.ranks - 1 - rank) as f64 * self.size))
    }

    fn centre(&self, square: Square) -> Option<(f64, f64)> {
        self.corner(square).map(|(x, y)| (x + self.size / 2.0, y + self.size / 2.0))
    }
}

fn rect(x: f64, y: f64, w: f64, h: f64, attrs: &str) -> String {
    format!("<rect x=\"{x:.1}\" y=\"{y:.1}\" width=\"{w:.1}\" height=\"{h:.1}\" {attrs}/>\n")
}

fn circle((cx, cy): (f64, f64), r: f64, attrs: &str) -> String {
    format!("<circle cx=\"{cx:.1}\" cy=\"{cy:.1}\" r=\"{r:.1}\" {attrs}/>\n")
}

/// A text element; `content` is escaped here.
fn text(x: f64, y: f64, attrs: &str, content: &str) -> String {
    format!("<text x=\"{x:.1}\" y=\"{y:.1}\" {attrs}>{}</text>\n", escape(content))
}

/// The hatch pattern for attacked squares and one arrowhead per knight colour.
fn defs(layout: &Layout) -> String {
    let (gap, width) = ((layout.size / 6.0).max(4.0), (layout.size / 40.0).max(0.8));
    let mut defs = format!(
        "<defs>\n<pattern id=\"attacked\" patternUnits=\"userSpaceOnUse\" width=\"{gap:.1}\" height=\"{gap:.1}\" \
         patternTransform=\"rotate(45)\"><line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"{gap:.1}\" stroke=\"#333\" \
         stroke-width=\"{width:.1}\"/></pattern>\n"
    );
    for (k, (colour, _)) in STYLES.iter().enumerate() {
        defs += &format!(
            "<marker id=\"arrow-{k}\" viewBox=\"0 0 10 10\" refX=\"8\" refY=\"5\" markerWidth=\"4\" \
             markerHeight=\"4\" markerUnits=\"strokeWidth\" orient=\"auto\"><path d=\"M0,0 L10,5 L0,10 z\" \
             fill=\"{colour}\"/></marker>\n"
        );
    }
    defs + "</defs>\n"
}

/// The squares in light and dark grey, `hatched` ones hatched, removed ones left blank.
fn squares(board: &Board, layout: &Layout, hatched: impl Fn(Square) -> bool) -> String {
    let s = layout.size;
    let mut out = String::new();
    for square in (0..board.area()).map(|i| Square(i as u16)) {
        let Some((x, y)) = layout.corner(square) else { continue };
        if board.is_removed(square) {
            out += &rect(x, y, s, s, "fill=\"#fff\" stroke=\"#999\" stroke-dasharray=\"2 2\"");
            continue;
        }
        let dark = (board.file(square) + board.rank(square)) % 2 == 0;
        out += &rect(x, y, s, s, &format!("fill=\"{}\"", if dark { DARK } else { LIGHT }));
        if hatched(square) {
            out += &rect(x, y, s, s, "class=\"attacked\" fill=\"url(#attacked)\"");
        }
    }
    let (w, h) = (layout.files as f64 * s, layout.ranks as f64 * s);
    out + rect(layout.left, layout.top, w, h, "fill=\"none\" stroke=\"#444\"").as_str()
}

/// File letters under the board and rank numbers at its left.
fn coordinates(board: &Board, layout: &Layout) -> String {
    let (font, s) = ((layout.size * 0.3).clamp(9.0, 18.0), layout.size);
    let mut out = format!("<g font-size=\"{font:.1}\" fill=\"#333\" text-anchor=\"middle\">\n");
    let below = layout.top + layout.ranks as f64 * s + font * 1.2;
    for file in 0..layout.files {
        out += &text(layout.left + (file as f64 + 0.5) * s, below, "", &board.file_name(file));
    }
    for rank in 0..layout.ranks {
        let y = layout.top + ((layout.ranks - rank) as f64 - 0.5) * s + font * 0.35;
        out += &text(layout.left / 2.0, y, "", &(rank + 1).to_string());
    }
    out + "</g>\n"
}

/// At most `max` characters of `text`, with an ellipsis when cut.
fn shorten(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text.to_string(),
    }
}

/// `text` with the XML special characters escaped.
fn escape(text: &str) -> String {
    let pairs = [('&', "&amp;"), ('<', "&lt;"), ('>', "&gt;"), ('"', "&quot;"), ('\'', "&apos;")];
    text.chars().fold(String::with_capacity(text.len()), |mut out, c| {
        match pairs.iter().find(|p| p.0 == c) {
            Some((_, entity)) => out.push_str(entity),
            None => out.push(c),
        }
        out
    })
}

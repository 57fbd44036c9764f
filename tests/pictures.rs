//! Every picture the tool writes parses as SVG, rasterises to something that is not blank, and
//! shows what the solution holds: one glyph per placed piece, one arrow per jump, one frame per
//! position, one bar per benchmark run.

mod common;

use common::{knights_sat, Scratch};
use serde_json::Value;

/// Parses `svg`, rasterises it, checks that at least `ink` of its pixels are dark, and returns
/// the number of elements of each class asked for.
fn check(svg: &str, ink: f64, classes: &[&str]) -> Vec<usize> {
    let document = roxmltree::Document::parse(svg).expect("the picture is XML");
    assert_eq!(document.root_element().tag_name().name(), "svg");
    let tree = resvg::usvg::Tree::from_str(svg, &resvg::usvg::Options::default()).expect("the picture is SVG");
    let size = tree.size().to_int_size();
    let mut pixmap = resvg::tiny_skia::Pixmap::new(size.width(), size.height()).expect("a non-empty picture");
    resvg::render(&tree, resvg::tiny_skia::Transform::default(), &mut pixmap.as_mut());
    let inked = pixmap.pixels().iter().filter(|p| p.alpha() > 0 && (p.red() < 200 || p.green() < 200)).count();
    let share = inked as f64 / pixmap.pixels().len() as f64;
    assert!(share > ink, "the picture is not blank ({:.1}% inked)", share * 100.0);
    classes.iter().map(|c| document.descendants().filter(|n| n.attribute("class") == Some(*c)).count()).collect()
}

/// Solves with `--json --svg` and returns the JSON answer and the picture (written to a path
/// of its own, as tests run in parallel).
fn solve_and_draw(args: &[&str]) -> (Value, String) {
    static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = Scratch::new("pictures", &format!("picture-{n}"));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("picture.svg");
    let mut all = vec!["solve", "--json", "--svg", path.to_str().unwrap()];
    all.extend_from_slice(args);
    let run = knights_sat(&all);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let svg = std::fs::read_to_string(&path).expect("the picture is written");
    (serde_json::from_str(&run.stdout).expect("JSON"), svg)
}

#[test]
fn placements_show_one_glyph_per_piece() {
    for (args, pieces) in [
        (vec!["puzzles/knights-domination-8x8.toml", "--svg-attacks"], 12),
        (vec!["puzzles/independence-mixed-8x8.toml"], 36),
        (vec!["independence", "--board", "32x32", "--pieces", "R"], 32),
    ] {
        let (answer, svg) = solve_and_draw(&args);
        assert_eq!(answer["solution"]["pieces"].as_array().unwrap().len(), pieces);
        assert_eq!(check(&svg, 0.05, &["piece"]), [pieces], "{args:?}");
    }
}

#[test]
fn tours_show_one_arrow_per_jump_and_exchanges_one_frame_per_position() {
    let (answer, svg) = solve_and_draw(&["puzzles/two-knights-two-queens.toml"]);
    assert_eq!(check(&svg, 0.05, &["jump", "attacker"]), [answer["solution"]["moves"].as_u64().unwrap() as usize, 2]);
    let (answer, svg) = solve_and_draw(&["puzzles/guarini.toml"]);
    let moves = answer["solution"]["moves"].as_array().unwrap().len();
    assert_eq!(check(&svg, 0.05, &["frame"]), [moves + 1]);
}

#[test]
fn the_benchmark_chart_has_one_bar_per_run() {
    let out = Scratch::new("pictures", "chart");
    let suite = "puzzles/bench/independence-bishops-knights-8x8.toml";
    let run = knights_sat(&["bench", suite, "--solvers", "varisat", "--timeout", "30", "--out", out.to_str().unwrap()]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let chart = std::fs::read_to_string(out.join("chart.svg")).unwrap();
    assert_eq!(check(&chart, 0.01, &["bar"]), [4], "one bar per placement strategy");
}

//! The benchmark chart: per puzzle, one horizontal bar per configuration, seconds on a log
//! scale up to the time limit, runs that proved nothing within the limit hatched; for a large
//! suite, a cactus plot instead (per configuration, the puzzles it proved, sorted by time).

use super::{escape, rect, shorten, text, STYLES};
use crate::render::BenchRow;

/// The most puzzles drawn as grouped bars; a larger suite gets a cactus plot.
const MOST_BARRED: usize = 12;

/// Shades of one hue per solver (the first word of a configuration's label), dark to light.
const SHADES: [[&str; 4]; 4] = [
    ["#08306b", "#2171b5", "#6baed6", "#9ecae1"],
    ["#7f2704", "#d94801", "#fd8d3c", "#fdae6b"],
    ["#00441b", "#238b45", "#74c476", "#a1d99b"],
    ["#3f007d", "#6a51a3", "#9e9ac8", "#bcbddc"],
];

/// The colour of configuration `c`: its solver's hue, and a shade for its place among that
/// solver's configurations, so that bars of one solver look alike in the chart and its legend.
fn bar_colour(configs: &[&str], c: usize) -> &'static str {
    let solver = |label: &str| label.split(' ').next().unwrap_or("").to_string();
    let mut solvers: Vec<String> = Vec::new();
    for label in configs {
        if !solvers.contains(&solver(label)) {
            solvers.push(solver(label));
        }
    }
    let mine = solver(configs[c]);
    let hue = solvers.iter().position(|s| *s == mine).unwrap_or(0) % SHADES.len();
    let shade = configs[..c].iter().filter(|l| solver(l) == mine).count() % SHADES[hue].len();
    SHADES[hue][shade]
}

/// The chart of `rows` (in suite order) with runs limited to `timeout` seconds.
pub fn bench_chart(rows: &[BenchRow], timeout: f64) -> String {
    let mut puzzles: Vec<&str> = Vec::new();
    let mut configs: Vec<&str> = Vec::new();
    for r in rows {
        if !puzzles.contains(&r.puzzle.as_str()) {
            puzzles.push(&r.puzzle);
        }
        if !configs.contains(&r.configuration.as_str()) {
            configs.push(&r.configuration);
        }
    }
    if puzzles.len() > MOST_BARRED {
        return cactus(rows, &configs, timeout);
    }
    let (bar, gap, left, plot) = (14.0, 14.0, 230.0, 500.0);
    let legend_rows = configs.len().div_ceil(3);
    let top = 74.0 + 20.0 * legend_rows as f64;
    // Each puzzle's group holds a bar for each configuration it was run with.
    let runs = |puzzle: &str| rows.iter().filter(|r| r.puzzle == puzzle).count();
    let groups: f64 = puzzles.iter().map(|p| runs(p) as f64 * bar + gap).sum();
    let (width, height) = (left + plot + 200.0, top + groups + 60.0);
    let (low, high) = (0.01f64.log10(), timeout.max(0.1).log10());
    let x = |seconds: f64| left + plot * ((seconds.max(0.01).log10() - low) / (high - low)).clamp(0.0, 1.0);
    let mut svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width:.0}\" height=\"{height:.0}\" \
         viewBox=\"0 0 {width:.0} {height:.0}\" font-family=\"sans-serif\">\n\
         <rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>\n\
         <defs><pattern id=\"open\" patternUnits=\"userSpaceOnUse\" width=\"6\" height=\"6\" \
         patternTransform=\"rotate(45)\"><line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"6\" stroke=\"#333\" \
         stroke-width=\"1.5\"/></pattern></defs>\n"
    );
    svg += &text(12.0, 26.0, "font-size=\"18\" font-weight=\"bold\"", "knights-sat bench: seconds to prove optimality");
    svg += &text(12.0, 46.0, "font-size=\"12\"", &format!("log scale; hatched: nothing proved within {timeout} s"));
    for (c, config) in configs.iter().enumerate() {
        let (lx, ly) = (12.0 + (c % 3) as f64 * 260.0, 58.0 + (c / 3) as f64 * 20.0);
        svg += &rect(lx, ly, 14.0, 12.0, &format!("fill=\"{}\"", bar_colour(&configs, c)));
        svg += &text(lx + 20.0, ly + 11.0, "font-size=\"12\"", config);
    }
    let bottom = top + groups;
    let mut tick = 0.01;
    while tick <= timeout * 1.0001 {
        let tx = x(tick);
        svg += &format!("<line x1=\"{tx:.1}\" y1=\"{top:.1}\" x2=\"{tx:.1}\" y2=\"{bottom:.1}\" stroke=\"#ddd\"/>\n");
        svg += &text(tx, bottom + 16.0, "font-size=\"11\" text-anchor=\"middle\"", &format!("{tick}"));
        tick *= 10.0;
    }
    svg += &text(left + plot / 2.0, bottom + 36.0, "font-size=\"12\" text-anchor=\"middle\"", "seconds");
    let mut y0 = top;
    for puzzle in &puzzles {
        let group = runs(puzzle) as f64 * bar + gap;
        let name = std::path::Path::new(puzzle).file_stem().map_or(puzzle.to_string(), |s| s.to_string_lossy().into());
        svg += &text(12.0, y0 + group / 2.0, "font-size=\"12\"", &shorten(&name, 30));
        let mut y = y0 + gap / 2.0;
        for (c, config) in configs.iter().enumerate() {
            let Some(row) = rows.iter().find(|r| r.puzzle == *puzzle && r.configuration == *config) else { continue };
            let colour = bar_colour(&configs, c);
            let (end, fill, label) = if proved(row) {
                (x(row.seconds), format!("fill=\"{colour}\""), format!("{config}: {:.2} s", row.seconds))
            } else {
                (x(timeout), format!("fill=\"url(#open)\" stroke=\"{colour}\""), format!("{config}: > {timeout} s"))
            };
            svg += &format!(
                "<g class=\"bar\"><title>{}</title>",
                escape(&format!("{name}, {config}: {} in {:.2} s", row.status, row.seconds))
            );
            svg += &rect(left, y + 1.0, (end - left).max(1.0), bar - 2.0, &fill);
            svg += "</g>\n";
            svg += &text(end + 4.0, y + bar - 3.0, "font-size=\"10\"", &label);
            y += bar;
        }
        y0 += group;
    }
    svg + "</svg>\n"
}

/// Whether a run proved its answer (an optimum, or infeasibility).
fn proved(row: &BenchRow) -> bool {
    row.status == "optimal" || row.status == "infeasible"
}

/// The cactus plot: x the number of puzzles proved, y the seconds the slowest of them took (log
/// scale), one line per configuration (class `series`).
fn cactus(rows: &[BenchRow], configs: &[&str], timeout: f64) -> String {
    let n = rows.iter().map(|r| r.puzzle.as_str()).collect::<std::collections::BTreeSet<_>>().len();
    let (left, top, plot_w, plot_h) = (70.0, 74.0 + 20.0 * configs.len().div_ceil(3) as f64, 640.0, 380.0);
    let (width, height) = (left + plot_w + 40.0, top + plot_h + 60.0);
    let (low, high) = (0.01f64.log10(), timeout.max(0.1).log10());
    let x = |count: usize| left + plot_w * count as f64 / n.max(1) as f64;
    let y = |seconds: f64| top + plot_h * (1.0 - ((seconds.max(0.01).log10() - low) / (high - low)).clamp(0.0, 1.0));
    let mut svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width:.0}\" height=\"{height:.0}\" \
         viewBox=\"0 0 {width:.0} {height:.0}\" font-family=\"sans-serif\">\n\
         <rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>\n"
    );
    svg +=
        &text(12.0, 26.0, "font-size=\"18\" font-weight=\"bold\"", "knights-sat bench: puzzles proved within a time");
    svg += &text(
        12.0,
        46.0,
        "font-size=\"12\"",
        &format!("{n} puzzles, limit {timeout} s per run; further right and lower is better"),
    );
    for (c, config) in configs.iter().enumerate() {
        let (lx, ly) = (12.0 + (c % 3) as f64 * 260.0, 58.0 + (c / 3) as f64 * 20.0);
        svg += &rect(lx, ly, 14.0, 12.0, &format!("fill=\"{}\"", STYLES[c % STYLES.len()].0));
        svg += &text(lx + 20.0, ly + 11.0, "font-size=\"12\"", config);
    }
    let mut tick = 0.01;
    while tick <= timeout * 1.0001 {
        let ty = y(tick);
        svg += &format!(
            "<line x1=\"{left}\" y1=\"{ty:.1}\" x2=\"{:.1}\" y2=\"{ty:.1}\" stroke=\"#ddd\"/>\n",
            left + plot_w
        );
        svg += &text(left - 6.0, ty + 4.0, "font-size=\"11\" text-anchor=\"end\"", &format!("{tick}"));
        tick *= 10.0;
    }
    let bottom = top + plot_h;
    svg += &format!(
        "<rect x=\"{left}\" y=\"{top:.1}\" width=\"{plot_w}\" height=\"{plot_h}\" fill=\"none\" stroke=\"#444\"/>\n"
    );
    for count in (0..=n).step_by(n.div_ceil(10).max(1)) {
        svg += &text(x(count), bottom + 16.0, "font-size=\"11\" text-anchor=\"middle\"", &count.to_string());
    }
    svg += &text(left + plot_w / 2.0, bottom + 36.0, "font-size=\"12\" text-anchor=\"middle\"", "puzzles proved");
    svg += &text(14.0, top + plot_h / 2.0, "font-size=\"12\"", "seconds");
    for (c, config) in configs.iter().enumerate() {
        let mut times: Vec<f64> =
            rows.iter().filter(|r| r.configuration == *config && proved(r)).map(|r| r.seconds).collect();
        times.sort_by(f64::total_cmp);
        let points: Vec<String> =
            times.iter().enumerate().map(|(i, &t)| format!("{:.1},{:.1}", x(i + 1), y(t))).collect();
        let (colour, dashes) = STYLES[c % STYLES.len()];
        let dash = dashes.iter().map(|d| format!("{:.1}", d * 2.0)).collect::<Vec<_>>().join(" ");
        svg += &format!(
            "<polyline class=\"series\" points=\"{}\" fill=\"none\" stroke=\"{colour}\" stroke-width=\"2\" \
             stroke-dasharray=\"{}\"><title>{}</title></polyline>\n",
            points.join(" "),
            if dash.is_empty() { "none".to_string() } else { dash },
            escape(config)
        );
    }
    svg + "</svg>\n"
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(puzzle: &str, configuration: &str, status: &str, seconds: f64) -> BenchRow {
        BenchRow {
            puzzle: puzzle.into(),
            configuration: configuration.into(),
            status: status.into(),
            value: None,
            bound: None,
            seconds,
            variables: 0,
            clauses: 0,
            certificate: None,
        }
    }

    #[test]
    fn one_bar_per_run() {
        let rows = [
            row("a.toml", "x", "optimal", 0.3),
            row("a.toml", "y", "unknown", 20.0),
            row("b.toml", "x", "optimal", 3.0),
        ];
        let svg = bench_chart(&rows, 20.0);
        let document = roxmltree::Document::parse(&svg).expect("the chart is XML");
        assert_eq!(document.descendants().filter(|n| n.attribute("class") == Some("bar")).count(), 3);
        assert!(svg.contains("y: &gt; 20 s"));
    }

    #[test]
    fn a_large_suite_is_a_cactus_plot() {
        let rows: Vec<BenchRow> = (0..20)
            .flat_map(|i| {
                [
                    row(&format!("{i}.toml"), "x", "optimal", 0.1 * i as f64),
                    row(&format!("{i}.toml"), "y", "unknown", 9.0),
                ]
            })
            .collect();
        let svg = bench_chart(&rows, 10.0);
        let document = roxmltree::Document::parse(&svg).expect("the chart is XML");
        assert_eq!(document.descendants().filter(|n| n.attribute("class") == Some("series")).count(), 2);
        assert!(svg.contains("20 puzzles"));
    }
}

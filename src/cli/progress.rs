//! The progress display on stderr: a spinner with the elapsed time and the horizon being tried,
//! or a branch and bound's nodes, bounds and open subtrees; a line each for the cubes that
//! `cube` searches side by side.
//! It draws nothing when stderr is not a terminal or with `--quiet`.

use std::io::{IsTerminal, Write as _};
use std::time::Duration;

use indicatif::{MultiProgress, ProgressBar, ProgressDrawTarget, ProgressStyle};
use knights_sat::driver::{Event, Query, SearchStats};
use knights_sat::render::percent;
use knights_sat::solver::Answer;

/// A live view of a running search.
pub struct Progress {
    bar: ProgressBar,
    /// The largest horizon refuted so far.
    refuted: std::cell::Cell<Option<usize>>,
    /// What a horizon counts: `move` or `time step`.
    unit: &'static str,
}

impl Progress {
    /// A spinner on stderr if `wanted` and stderr is a terminal; otherwise a hidden one. A
    /// horizon counts `unit`s (`move`, or `time step` for tours that minimise time steps).
    pub fn new(wanted: bool, unit: &'static str) -> Progress {
        Progress::on(ProgressBar::with_draw_target(None, target(wanted)), "", unit)
    }

    /// A spinner drawn on `bar`, its message after `label`.
    fn on(bar: ProgressBar, label: &str, unit: &'static str) -> Progress {
        let style = ProgressStyle::with_template("{spinner} [{elapsed_precise}] {prefix}{msg}")
            .unwrap_or_else(|_| ProgressStyle::default_spinner());
        bar.set_style(style);
        bar.set_prefix(label.to_string());
        bar.set_message("encoding");
        bar.enable_steady_tick(Duration::from_millis(120));
        Progress { bar, refuted: std::cell::Cell::new(None), unit }
    }

    /// A spinner for one long step after the search, showing `message` and the time it has
    /// taken, drawn as [`Progress::new`] draws.
    pub fn step(wanted: bool, message: String) -> Progress {
        let progress = Progress::new(wanted, "move");
        progress.bar.set_message(message);
        progress
    }

    /// Shows what the search is doing now.
    pub fn observe(&self, event: &Event) {
        match event {
            Event::Trying { horizon, query: Query::Goal } => {
                let known = match self.refuted.get() {
                    Some(h) => format!(" ({} proved impossible)", count(h, self.unit)),
                    None => String::new(),
                };
                self.bar.set_message(format!("trying {}{known}", count(*horizon, self.unit)));
            }
            Event::Trying { horizon, query: Query::Completeness } => {
                self.bar
                    .set_message(format!("checking whether every position is reachable in fewer than {horizon} moves"));
            }
            Event::Trying { horizon, query: Query::Bound } => {
                let message = if *horizon == 0 { "solving".to_string() } else { format!("demanding {horizon}") };
                self.bar.set_message(message);
            }
            Event::Trying { horizon, query: Query::Leg } => {
                self.bar.set_message(format!("next leg: trying {}", moves(*horizon)));
            }
            Event::Trying { horizon, query: Query::Moves } => {
                self.bar.set_message(format!("fewer moves in as many time steps: demanding {}", moves(*horizon)));
            }
            Event::Trying { query: Query::Optimise, .. } => {
                self.bar.set_message("HiGHS: solving the model with its objective".to_string());
            }
            Event::Trying { query: Query::Starts, .. } => {
                self.bar.set_message("listing every choice of starting squares that reaches the optimum".to_string());
            }
            Event::Trying { horizon, query: Query::Invariant } => {
                self.bar.set_message(format!("searching an invariant that excludes the goal ({horizon} frames)"));
            }
            Event::Search(search) => self.bar.set_message(search_message(search)),
            Event::Step(step) if step.query == Query::Goal && step.result == Answer::Unsat => {
                self.refuted.set(Some(step.horizon));
            }
            _ => {}
        }
    }

    /// Removes the display before the answer is printed.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

/// Where a display draws: stderr if `wanted` and stderr is a terminal, else nowhere.
fn target(wanted: bool) -> ProgressDrawTarget {
    if wanted && std::io::stderr().is_terminal() {
        ProgressDrawTarget::stderr()
    } else {
        ProgressDrawTarget::hidden()
    }
}

/// Several searches displayed at once, a line each (the cubes that `cube` searches side by
/// side), drawn as [`Progress::new`] draws; lines printed through it go above the displays.
pub struct Group {
    multi: MultiProgress,
}

impl Group {
    /// A group drawn on stderr if `wanted` and stderr is a terminal.
    pub fn new(wanted: bool) -> Group {
        Group { multi: MultiProgress::with_draw_target(target(wanted)) }
    }

    /// A display in the group for the search of `label` (a search counting `unit`s).
    pub fn progress(&self, label: &str, unit: &'static str) -> Progress {
        Progress::on(self.multi.add(ProgressBar::new_spinner()), &format!("{label}: "), unit)
    }

    /// Prints `line` on stderr, above the displays while they are drawn. A stderr that can no
    /// longer be written (its reader gone) loses the line, not the search.
    pub fn println(&self, line: &str) {
        self.multi.suspend(|| {
            let _ = writeln!(std::io::stderr().lock(), "{line}");
        });
    }
}

/// A branch and bound's progress: nodes, the proven bound, the best placement, the share of
/// the tree closed and the subtrees still open.
fn search_message(search: &SearchStats) -> String {
    let or_dash = |v: Option<usize>| v.map_or("-".to_string(), |v| v.to_string());
    format!(
        "branch and bound: {} nodes, bound {}, best {}, {} of the tree closed, {} open",
        search.nodes,
        or_dash(search.bound),
        or_dash(search.incumbent),
        percent(search.done),
        count(search.open_subtrees as usize, "subtree"),
    )
}

fn moves(n: usize) -> String {
    count(n, "move")
}

/// `1 move`, `2 moves`.
pub(super) fn count(n: usize, unit: &str) -> String {
    if n == 1 {
        format!("1 {unit}")
    } else {
        format!("{n} {unit}s")
    }
}

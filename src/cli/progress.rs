//! The progress display on stderr: a spinner with the elapsed time and the horizon being tried,
//! or a branch and bound's nodes, bounds and open subtrees; a line each for the cubes that
//! `cube` searches side by side.
//! When stderr is not a terminal (a log file, a Slurm task's output) it draws nothing, and
//! writes instead a plain line with the same words every `--progress-every` seconds; with
//! `--quiet`, nothing at all.

use std::cell::Cell;
use std::io::{IsTerminal, Write as _};
use std::time::{Duration, Instant};

use indicatif::{MultiProgress, ProgressBar, ProgressDrawTarget, ProgressStyle};
use knights_sat::driver::{Event, Query, SearchStats};
use knights_sat::render::percent;
use knights_sat::solver::Answer;

use super::error::CliError;

/// Whether and how a command shows its progress on stderr.
#[derive(Clone, Copy, Debug)]
pub struct Shown {
    /// Anything at all: not with `--quiet` (nor `solve --json`).
    wanted: bool,
    /// When stderr is not a terminal: a line of progress this often (`None`: no lines).
    lines_every: Option<Duration>,
}

impl Shown {
    /// Progress shown unless `quiet`: live on a terminal, else a line every `seconds`
    /// (`--progress-every`; 0 for none), which must be finite and not negative.
    pub fn new(quiet: bool, seconds: f64) -> Result<Shown, CliError> {
        if !(seconds.is_finite() && (0.0..=MAX_LINE_SECONDS).contains(&seconds)) {
            return Err(CliError::Usage(format!(
                "--progress-every {seconds}: give a number of seconds from 0 (no lines) to {MAX_LINE_SECONDS}"
            )));
        }
        let lines_every = (seconds > 0.0).then(|| Duration::from_secs_f64(seconds));
        Ok(Shown { wanted: !quiet, lines_every })
    }

    /// As `self`, but nothing unless `also` holds (not for `--json`, whose reader wants the
    /// answer alone).
    pub fn only_if(self, also: bool) -> Shown {
        Shown { wanted: self.wanted && also, ..self }
    }

    /// The lines to write when stderr is not a terminal.
    fn lines(self) -> Option<Lines> {
        let every = self.lines_every.filter(|_| writes_lines(self.wanted))?;
        Some(Lines { every, last: Cell::new(Instant::now()) })
    }
}

/// The longest `--progress-every`: a day.
const MAX_LINE_SECONDS: f64 = 86_400.0;

/// The plain lines of progress written where nothing is drawn.
struct Lines {
    every: Duration,
    /// When the last line was written (or the search started).
    last: Cell<Instant>,
}

/// A live view of a running search.
pub struct Progress {
    bar: ProgressBar,
    /// A line every so often when the bar is not drawn.
    lines: Option<Lines>,
    /// The largest horizon refuted so far.
    refuted: Cell<Option<usize>>,
    /// What a horizon counts: `move` or `time step`.
    unit: &'static str,
}

impl Progress {
    /// A spinner on stderr if it is shown and stderr is a terminal; otherwise a hidden one, and
    /// lines as `shown` asks. A horizon counts `unit`s (`move`, or `time step` for tours that
    /// minimise time steps).
    pub fn new(shown: Shown, unit: &'static str) -> Progress {
        Progress::on(ProgressBar::with_draw_target(None, target(shown.wanted)), shown, "", unit)
    }

    /// A spinner drawn on `bar`, its message after `label`.
    fn on(bar: ProgressBar, shown: Shown, label: &str, unit: &'static str) -> Progress {
        let style = ProgressStyle::with_template("{spinner} [{elapsed_precise}] {prefix}{msg}")
            .unwrap_or_else(|_| ProgressStyle::default_spinner());
        bar.set_style(style);
        bar.set_prefix(label.to_string());
        bar.set_message("encoding");
        bar.enable_steady_tick(Duration::from_millis(120));
        Progress { bar, lines: shown.lines(), refuted: Cell::new(None), unit }
    }

    /// A spinner for one long step after the search, showing `message` and the time it has
    /// taken, drawn as [`Progress::new`] draws (no lines: it has no news to tell).
    pub fn step(shown: Shown, message: String) -> Progress {
        let progress = Progress::new(Shown { lines_every: None, ..shown }, "move");
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
            // Before a search reports its figures (a placement's local search and cuts, the
            // first seconds of a large split), its placements say that it is under way.
            Event::Solution { value, .. } => self.bar.set_message(format!("best {value} so far")),
            Event::Step(step) if step.query == Query::Goal && step.result == Answer::Unsat => {
                self.refuted.set(Some(step.horizon));
            }
            _ => {}
        }
        self.write_line_if_due();
    }

    /// Writes the display's words as a line, `[elapsed] label: message`, when lines are
    /// written and the last was `every` ago. A stderr that can no longer be written loses the
    /// line, not the search.
    fn write_line_if_due(&self) {
        let Some(lines) = &self.lines else { return };
        if lines.last.get().elapsed() < lines.every {
            return;
        }
        lines.last.set(Instant::now());
        let elapsed = clock(self.bar.elapsed());
        let _ = writeln!(std::io::stderr().lock(), "[{elapsed}] {}{}", self.bar.prefix(), self.bar.message());
    }

    /// Removes the display before the answer is printed.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

/// Whether progress, if `wanted`, goes as plain lines: stderr is not a terminal (a log).
pub(super) fn writes_lines(wanted: bool) -> bool {
    wanted && !std::io::stderr().is_terminal()
}

/// Where a display draws: stderr if `wanted` and stderr is a terminal, else nowhere.
pub(super) fn target(wanted: bool) -> ProgressDrawTarget {
    if wanted && std::io::stderr().is_terminal() {
        ProgressDrawTarget::stderr()
    } else {
        ProgressDrawTarget::hidden()
    }
}

/// `hh:mm:ss`, as the live display shows the time elapsed.
fn clock(elapsed: Duration) -> String {
    let s = elapsed.as_secs();
    format!("{:02}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
}

/// Several searches displayed at once, a line each (the cubes that `cube` searches side by
/// side), drawn as [`Progress::new`] draws; lines printed through it go above the displays.
pub struct Group {
    multi: MultiProgress,
    shown: Shown,
}

impl Group {
    /// A group drawn on stderr if it is shown and stderr is a terminal, else written as
    /// `shown` asks.
    pub fn new(shown: Shown) -> Group {
        Group { multi: MultiProgress::with_draw_target(target(shown.wanted)), shown }
    }

    /// A display in the group for the search of `label` (a search counting `unit`s).
    pub fn progress(&self, label: &str, unit: &'static str) -> Progress {
        Progress::on(self.multi.add(ProgressBar::new_spinner()), self.shown, &format!("{label}: "), unit)
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
/// the tree closed and the subtrees still open (during a pass that splits the tree: its depth
/// and the share that pass closed).
fn search_message(search: &SearchStats) -> String {
    let or_dash = |v: Option<usize>| v.map_or("-".to_string(), |v| v.to_string());
    let done = percent(search.done);
    let state = match search.split_depth {
        Some(depth) => format!("splitting the tree at depth {depth} ({done} of this pass closed)"),
        None => format!("{done} of the tree closed, {} open", count(search.open_subtrees as usize, "subtree")),
    };
    format!(
        "branch and bound: {} nodes, bound {}, best {}, {state}",
        search.nodes,
        or_dash(search.bound),
        or_dash(search.incumbent),
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

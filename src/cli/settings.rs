//! Validated settings: the raw flags checked and combined, and the puzzle loaded, before any
//! search starts.

use std::path::{Path, PathBuf};
use std::time::Duration;

use knights_sat::certify::{CanonicalOrderUse, ProofCompression};
use knights_sat::driver::{
    default_threads, ExchangeSearch, Ingredients, PlacementSearch, Strategy, TourSearch, MAX_HORIZON,
};
use knights_sat::encodings::encode::bound::BoundEncoding;
use knights_sat::encodings::encode::exchange::ExchangeOptions;
use knights_sat::encodings::encode::tour::TourOptions;
use knights_sat::encodings::encode::AtMostOne;
use knights_sat::encodings::puzzle::{self, Puzzle};
use knights_sat::family;
use knights_sat::solver::highs::{self, Formulation};

use knights_sat::solver::SolverKind;

/// The most threads `--threads` accepts.
const MAX_THREADS: usize = 1024;
/// The longest `--timeout` accepted: a year, in seconds.
const MAX_TIMEOUT_SECONDS: f64 = 365.0 * 24.0 * 3600.0;

use super::args::SolveArgs;
use super::progress::Shown;
use super::{inline, CliError};

/// Everything `solve` needs, checked.
pub struct SolveSettings {
    /// The puzzle to solve.
    pub puzzle: Puzzle,
    /// Where it came from: a file path or "command line".
    pub source: String,
    /// The puzzle file, or `None` for a puzzle given by flags.
    pub file: Option<PathBuf>,
    /// How to search an exchange.
    pub search: ExchangeSearch,
    /// How to search a placement.
    pub placement: PlacementSearch,
    /// How to search a tour.
    pub tour: TourSearch,
    /// `Some` when HiGHS solves the linear models instead: which model of an exchange.
    pub mip: Option<Formulation>,
    /// When to give up.
    pub timeout: Option<Duration>,
    /// Where to draw the solution as SVG.
    pub svg: Option<PathBuf>,
    /// Hatch the attacked squares in a placement's picture.
    pub svg_attacks: bool,
    /// JSON output instead of text.
    pub json: bool,
    /// Where to write a certificate of optimality.
    pub certify: Option<PathBuf>,
    /// How the certificate's proof is stored.
    pub proof_compression: ProofCompression,
    /// When the certificate's proof states an exchange's canonical order of moves.
    pub certify_canonical_order: CanonicalOrderUse,
    /// How progress is shown on stderr: drawn on a terminal, else a line now and then.
    pub progress: Shown,
}

impl SolveSettings {
    /// Checks the flags and loads the puzzle.
    pub fn from_args(args: SolveArgs) -> Result<SolveSettings, CliError> {
        let options = args.options;
        // One naming of solvers, as `bench` has it: highs is the MIP backend.
        let is_highs = options.solver == highs::NAME;
        let solver: SolverKind = match is_highs {
            true => SolverKind::default(),
            false => options.solver.parse().map_err(|e| CliError::Usage(format!("{e} (or {})", highs::NAME)))?,
        };
        solver.create().map_err(|e| CliError::Usage(e.to_string()))?;
        let unknown = |what: &str, given: &str, names: &[&str]| {
            CliError::Usage(format!("unknown {what} `{given}`; choose one of {}", names.join(", ")))
        };
        let at_most_one = AtMostOne::from_name(&options.at_most_one)
            .ok_or_else(|| unknown("at-most-one encoding", &options.at_most_one, &AtMostOne::NAMES))?;
        let strategy: Strategy = options.strategy.parse().map_err(CliError::Usage)?;
        let encoding = BoundEncoding::from_name(&options.encoding)
            .ok_or_else(|| unknown("bound encoding", &options.encoding, &BoundEncoding::NAMES))?;
        let formulation: Formulation = options.mip_model.parse().map_err(CliError::Usage)?;
        let backend = if is_highs { "mip" } else { options.backend.as_str() };
        let mip = match backend {
            "mip" if !highs::is_available() => return Err(CliError::Usage(highs::NOT_BUILT.into())),
            "mip" => Some(formulation),
            _ if formulation != Formulation::default() => {
                return Err(CliError::Usage("`--mip-model` needs `--backend mip` (or `--solver highs`)".into()))
            }
            _ => None,
        };
        let timeout = options.timeout.map(timeout).transpose()?;
        let proof_compression: ProofCompression = options.proof_compression.parse().map_err(CliError::Usage)?;
        let certify_canonical_order: CanonicalOrderUse =
            options.certify_canonical_order.parse().map_err(CliError::Usage)?;
        let file = args.puzzle.clone();
        let (puzzle, source) = match (args.inline, args.puzzle) {
            (Some(_), Some(path)) => {
                return Err(CliError::Usage(format!(
                    "give either a puzzle file or an inline puzzle, not both (`{}` and an inline puzzle)",
                    path.display()
                )))
            }
            (Some(inline), None) => (inline::build(inline)?, inline::SOURCE.to_string()),
            (None, Some(path)) => (load(&path)?, path.display().to_string()),
            (None, None) => {
                return Err(CliError::Usage(
                    "give a puzzle file, or a puzzle inline such as `exchange --board 3x3 …`".into(),
                ))
            }
        };
        if mip == Some(Formulation::NetworkFlow) && !family::of(&puzzle).has_flow_model() {
            let why = format!("the network-flow model is for exchanges; {source} is a {} puzzle", puzzle.kind());
            return Err(CliError::Usage(why));
        }
        if options.list_starts && !family::of(&puzzle).lists_starts() {
            let why = format!("--list-starts is for tours; {source} is a puzzle of kind `{}`", puzzle.kind());
            return Err(CliError::Usage(why));
        }
        if options.list_starts && mip.is_some() {
            return Err(CliError::Usage("--list-starts asks a SAT solver, not HiGHS (--backend mip)".into()));
        }
        if options.max_horizon > MAX_HORIZON {
            let why = format!("--max-horizon {}: give at most {MAX_HORIZON} moves", options.max_horizon);
            return Err(CliError::Usage(why));
        }
        // Placements search one tree on every core unless told; a horizon search asks one
        // horizon at a time unless told (asking several at once wins where several hard
        // refutations lie below the optimum, and loses where one hard call at the optimum
        // dominates, as the README's figures show).
        let (threads, horizon_threads) = match options.threads {
            None => (default_threads(), 1),
            Some(n @ 1..=MAX_THREADS) => (n, n),
            Some(n) => {
                return Err(CliError::Usage(format!("--threads {n}: give between 1 and {MAX_THREADS} threads")));
            }
        };
        let search = ExchangeSearch {
            solver,
            incremental: !options.no_incremental || options.incremental,
            max_horizon: options.max_horizon,
            encoding: ExchangeOptions {
                at_most_one,
                canonical_order: !options.no_canonical_order,
                distance_sum: !options.no_distance_sum,
                ..ExchangeOptions::default()
            },
            list_starts: false,
            threads: horizon_threads,
        };
        let placement = PlacementSearch {
            solver,
            at_most_one,
            strategy,
            encoding,
            symmetry: !options.no_symmetry || options.symmetry,
            ingredients: Ingredients {
                symmetry: true,
                reduced_costs: !options.no_reduced_costs,
                local_search: !options.no_local_search,
                row_branching: !options.no_row_branching,
                cuts: !options.no_cuts,
                ring_cut: options.ring_cut,
                strong_branching: !options.no_strong_branching,
                strong_at_top: !options.no_strong_at_top,
                cubes: !options.no_cubes,
                subtree_cuts: !options.no_cube_cuts,
                levels: options.levels,
                lex_reduction: !options.no_lex_reduction,
                certify: options.certify.is_some(),
            },
            dominance: !options.no_dominance,
            threads,
        };
        let tour = TourSearch {
            solver,
            incremental: search.incremental,
            max_horizon: options.max_horizon,
            encoding: TourOptions {
                at_most_one,
                distance_to_go: !options.no_distance_to_go,
                count_to_go: !options.no_count_to_go,
                colour_count: !options.no_colour_count,
                canonical_order: !options.no_canonical_order,
            },
            list_starts: options.list_starts,
            threads: horizon_threads,
        };
        Ok(SolveSettings {
            puzzle,
            source,
            file,
            search,
            placement,
            tour,
            mip,
            timeout,
            svg: output_file("--svg", options.svg)?,
            svg_attacks: options.svg_attacks,
            json: options.json,
            certify: options.certify,
            proof_compression,
            certify_canonical_order,
            progress: Shown::new(options.quiet, options.lines.progress_every)?,
        })
    }
}

/// The file a flag (`--svg`, `export --output`) names, checked before any work: its
/// directory must exist and it must not name a directory, so a long search does not end in
/// an output that cannot be written.
pub fn output_file(flag: &str, path: Option<PathBuf>) -> Result<Option<PathBuf>, CliError> {
    let Some(path) = path else { return Ok(None) };
    let refuse = |why: String| Err(CliError::Usage(format!("{flag} {}: {why}", path.display())));
    if path.is_dir() {
        return refuse("is a directory; give the file to write".into());
    }
    match path.parent().filter(|dir| !dir.as_os_str().is_empty()) {
        Some(dir) if !dir.is_dir() => refuse(format!("the directory {} does not exist", dir.display())),
        _ => Ok(Some(path)),
    }
}

fn load(path: &Path) -> Result<Puzzle, CliError> {
    Ok(puzzle::load(path)?)
}

/// The `--timeout` of `seconds`, checked: positive, finite and at most a year.
pub fn timeout(seconds: f64) -> Result<Duration, CliError> {
    if seconds.is_finite() && seconds > 0.0 && seconds <= MAX_TIMEOUT_SECONDS {
        Ok(Duration::from_secs_f64(seconds))
    } else {
        Err(CliError::Usage(format!(
            "--timeout {seconds}: give a positive number of seconds, at most {MAX_TIMEOUT_SECONDS} (a year)"
        )))
    }
}

//! Raw command-line flags, as clap reads them. Nothing here is validated beyond syntax; see
//! [`super::settings`].

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

/// Solve chess-board puzzles exactly with incremental SAT, and prove the answers optimal.
#[derive(Debug, Parser)]
#[command(name = "knights-sat", version, about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Solve a puzzle file (or a puzzle given inline) to proven optimality.
    #[command(
        subcommand_negates_reqs = true,
        subcommand_precedence_over_arg = true,
        override_usage = "knights-sat solve [OPTIONS] <PUZZLE>\n       knights-sat solve [OPTIONS] exchange|domination|independence|… [PUZZLE FLAGS]"
    )]
    Solve(Box<SolveArgs>),
    /// Write the formula of one horizon or bound as DIMACS CNF, for any external SAT solver.
    Export(ExportArgs),
    /// Solve a suite of puzzles with every backend and strategy; write a table and a chart.
    Bench(BenchArgs),
    /// Check a certificate written by `solve --certify`: the solution, the model and the proof.
    Verify(VerifyArgs),
    /// Split a placement's search into cubes: a job directory with a Slurm job array.
    Split(SplitArgs),
    /// Search cubes of a job directory and write their results (what each array task runs).
    Cube(CubeArgs),
    /// Add up a job directory's results: the optimum once every cube is searched.
    Merge(MergeArgs),
}

#[derive(Debug, Args)]
pub struct SplitArgs {
    /// The puzzle file: a placement whose pieces do not block lines, an exchange, or a tour
    /// (targets in any order, for the fewest moves or time steps).
    pub puzzle: PathBuf,

    /// The job directory to write (must not exist, or be empty).
    #[arg(long, short, value_name = "DIR")]
    pub out: PathBuf,

    /// At least this many cubes: the tree (or the first moves of an exchange or a tour) is
    /// split at the least depth that gives them.
    #[arg(long, value_name = "N", default_value_t = 64)]
    pub cubes: usize,

    /// An exchange or a tour: the most moves the cubes search (the length of a known solution).
    #[arg(long, value_name = "H")]
    pub horizon: Option<usize>,

    /// Threads for the split's own search (default: one per core).
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,

    /// Certify the job: `merge` writes a certificate of optimality into DIR/certificate and
    /// checks it. A placement records the split's branch-and-bound tree and every cube's; an
    /// exchange's or a tour's cubes each write the refutation of their cube into DIR/proofs.
    #[arg(long)]
    pub certify: bool,

    /// No progress display on stderr.
    #[arg(long, short)]
    pub quiet: bool,

    #[command(flatten)]
    pub lines: ProgressLines,
}

#[derive(Debug, Args)]
pub struct CubeArgs {
    /// The job directory.
    pub dir: PathBuf,

    /// The cubes to search, by index (a job array task passes its own).
    pub ids: Vec<usize>,

    /// Search every cube that has no result yet, lowest split bound first (a placement's
    /// heaviest cubes start first).
    #[arg(long, conflicts_with = "ids")]
    pub all: bool,

    /// Search K of the cubes that have no result yet, spread evenly over the order of their
    /// split bounds, lowest first (an exchange's or a tour's: over their indices); `merge` then
    /// projects a placement's time for the cubes left from them.
    #[arg(long, value_name = "K", conflicts_with_all = ["ids", "all"])]
    pub sample: Option<usize>,

    /// Threads: for one cube of a placement, threads that search its tree together (a cube of
    /// an exchange or a tour runs on one); with several cubes, cubes searched at once, one
    /// thread each (default: one per core).
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,

    /// Search a cube again even if it has a result (a placement's: from its start, not from
    /// where a stopped search left it).
    #[arg(long)]
    pub again: bool,

    /// Stop after this many seconds, as on SIGINT or SIGTERM (which Slurm sends at a task's
    /// time limit): a placement's cube keeps the nodes its search left open, and the next
    /// search of the cube goes on from them (not for a certified job, whose certificate states
    /// each cube's tree searched in one run).
    #[arg(long, value_name = "SECONDS")]
    pub time_limit: Option<f64>,

    /// No line per cube, nor of progress, on stderr.
    #[arg(long, short)]
    pub quiet: bool,

    #[command(flatten)]
    pub lines: ProgressLines,
}

#[derive(Debug, Args)]
pub struct MergeArgs {
    /// The job directory.
    pub dir: PathBuf,

    /// Print only the indices of the cubes to search again (missing or failed), as Slurm's
    /// `--array` takes them, e.g. `3,17-19`; nothing if none.
    #[arg(long, conflicts_with_all = ["json", "svg"])]
    pub missing: bool,

    /// Print one JSON object: the answer as `solve --json` gives it, with the cubes' figures
    /// under `job`.
    #[arg(long)]
    pub json: bool,

    /// Also draw the best solution as an SVG picture into this file.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,

    /// Placements: hatch the squares the pieces attack in the `--svg` picture.
    #[arg(long, requires = "svg")]
    pub svg_attacks: bool,
}

#[derive(Debug, Args)]
pub struct VerifyArgs {
    /// The certificate's directory.
    pub dir: PathBuf,
}

#[derive(Debug, Args)]
pub struct BenchArgs {
    /// A directory of puzzle files, or one file.
    #[arg(default_value = "puzzles/bench")]
    pub suite: PathBuf,

    /// Seconds per run.
    #[arg(long, value_name = "SECONDS", default_value_t = 20.0)]
    pub timeout: f64,

    /// The solvers to compare, comma-separated: cadical, varisat, portfolio, highs (default:
    /// cadical, varisat and highs where built; highs is the MIP backend, built with the `mip`
    /// feature).
    #[arg(long, value_name = "NAMES", value_delimiter = ',')]
    pub solvers: Vec<String>,

    /// Also write results.md, results.csv and chart.svg into this directory.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,

    /// Also run every optimum again with `--certify` and `verify` its certificate: their
    /// seconds, the proof's size and where the proof came from (the search's own tree, or a
    /// refutation of its own) in four more columns.
    #[arg(long)]
    pub certify: bool,

    /// No progress display on stderr.
    #[arg(long, short)]
    pub quiet: bool,
}

#[derive(Debug, Args)]
pub struct ExportArgs {
    /// The puzzle file (TOML; see puzzles/README.md).
    pub puzzle: PathBuf,

    /// The output format: dimacs (CNF), opb (pseudo-Boolean) or lp (CPLEX LP, for MIP solvers).
    #[arg(long, value_name = "FORMAT", default_value = "dimacs", value_parser = ["dimacs", "opb", "lp"])]
    pub format: String,

    /// Exchanges and tours: ask for the goal after exactly this many time steps.
    #[arg(long, value_name = "T", conflicts_with = "bound")]
    pub horizon: Option<usize>,

    /// Placements: ask for a placement of this value or better.
    #[arg(long, value_name = "K")]
    pub bound: Option<usize>,

    /// At-most-one encoding: pairwise, ladder, bimander, commander or bitwise.
    #[arg(long, value_name = "ENCODING", default_value = "ladder")]
    pub at_most_one: String,

    /// Write to this file instead of standard output.
    #[arg(long, short, value_name = "FILE")]
    pub output: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct SolveArgs {
    /// The puzzle file (TOML; see puzzles/README.md).
    #[arg(required = true)]
    pub puzzle: Option<PathBuf>,

    #[command(flatten)]
    pub options: SolveOptions,

    #[command(subcommand)]
    pub inline: Option<InlinePuzzle>,
}

/// How to search and what to print; valid before or after an inline puzzle.
#[derive(Debug, Args)]
pub struct SolveOptions {
    /// Keep one solver across horizons, adding time layers and switching the goal on by an
    /// assumption literal (the default).
    #[arg(long, global = true, overrides_with = "no_incremental")]
    pub incremental: bool,

    /// Rebuild the formula and the solver at every horizon.
    #[arg(long, global = true)]
    pub no_incremental: bool,

    /// The solver: cadical (SAT, the default), varisat (SAT, pure Rust), portfolio (one CaDiCaL
    /// per core in different configurations, racing on every call) or highs (MIP, needs the
    /// `mip` feature; the same as `--backend mip`). The names `bench` takes.
    #[arg(long, global = true, value_name = "NAME", default_value = "cadical")]
    pub solver: String,

    /// sat (the default: the CNF encodings and a SAT solver) or mip (the 0-1 linear models
    /// solved by HiGHS; needs the `mip` feature; the same as `--solver highs`).
    #[arg(long, global = true, value_name = "BACKEND", default_value = "sat", value_parser = ["sat", "mip"])]
    pub backend: String,

    /// With `--backend mip`: the model of an exchange, time-indexed (one per horizon) or
    /// network-flow (a shortest path over every reachable position).
    #[arg(long, global = true, value_name = "MODEL", default_value = "time-indexed")]
    pub mip_model: String,

    /// Try at most this many moves.
    #[arg(long, global = true, value_name = "N", default_value_t = 1000)]
    pub max_horizon: usize,

    /// Stop after this many seconds and report what is known.
    #[arg(long, global = true, value_name = "SECONDS")]
    pub timeout: Option<f64>,

    /// At-most-one encoding: pairwise, ladder, bimander, commander or bitwise.
    #[arg(long, global = true, value_name = "ENCODING", default_value = "ladder")]
    pub at_most_one: String,

    /// Placements: how the optimum is found and proved: branch-and-bound (over the linear
    /// relaxation, no SAT solver), a SAT solver's count bound tightened by sat-unsat,
    /// unsat-sat, binary or core-guided, or auto (branch-and-bound for domination goals,
    /// core-guided for independence).
    #[arg(long, global = true, value_name = "STRATEGY", default_value = "auto")]
    pub strategy: String,

    /// Placements: the bound encoding for sat-unsat, unsat-sat and binary: totalizer, gte, dpw
    /// or adder.
    #[arg(long, global = true, value_name = "ENCODING", default_value = "totalizer")]
    pub encoding: String,

    /// Placements: lex-leader constraints for the board symmetries that map the puzzle onto
    /// itself (the default).
    #[arg(long, global = true, overrides_with = "no_symmetry")]
    pub symmetry: bool,

    /// Placements: no symmetry breaking (to measure it; optima never change).
    #[arg(long, global = true)]
    pub no_symmetry: bool,

    /// Threads: for placements, threads that search the tree together (default: one per
    /// core); for exchanges and tours, horizons asked at once, one SAT solver each (default 1).
    #[arg(long, global = true, value_name = "N")]
    pub threads: Option<usize>,

    /// Independence: keep the kinds an optimal placement never needs on a square (those that
    /// attack a superset of another kind's squares from there; for measuring).
    #[arg(long, global = true)]
    pub no_dominance: bool,

    /// Placements, branch and bound: no fixing by reduced costs (for measuring).
    #[arg(long, global = true)]
    pub no_reduced_costs: bool,

    /// Placements, branch and bound: no local search before the tree (for measuring).
    #[arg(long, global = true)]
    pub no_local_search: bool,

    /// Placements, branch and bound: branch on fractional variables, never on covering rows
    /// (which it does where they are long, as a queen's; for measuring).
    #[arg(long, global = true)]
    pub no_row_branching: bool,

    /// Placements, branch and bound: no zero-half cuts at the root (for measuring).
    #[arg(long, global = true)]
    pub no_cuts: bool,

    /// Placements, branch and bound: branch on the most fractional variable instead of
    /// reliability branching (for measuring).
    #[arg(long, global = true)]
    pub no_strong_branching: bool,

    /// Placements, branch and bound: in the first levels below each cube's root, trust
    /// reliable pseudocosts instead of measuring every candidate (for measuring).
    #[arg(long, global = true)]
    pub no_strong_at_top: bool,

    /// Placements, branch and bound: never start a long search again from its tree's open
    /// nodes at a shallow depth (for measuring).
    #[arg(long, global = true)]
    pub no_cubes: bool,

    /// Placements, branch and bound: the cubes of a long search add no zero-half cuts of
    /// their own at their tops, and a long cube hands no work on to get them (for measuring).
    #[arg(long, global = true)]
    pub no_cube_cuts: bool,

    /// Placements, branch and bound: a long search, once started again from its open nodes,
    /// goes a level of the bound at a time, so that its proven bound rises early (the proof
    /// takes longer).
    #[arg(long, global = true)]
    pub levels: bool,

    /// Placements, branch and bound: no lexicographic reduction over the branching decisions
    /// (orbital fixing alone handles the board symmetries; for measuring).
    #[arg(long, global = true)]
    pub no_lex_reduction: bool,

    /// Placements, branch and bound: add the ring cut at the root, one row that carries the
    /// integrality of the covering rows near the edge into the relaxation (a stronger root
    /// bound, found by column generation in up to 30 s; the tree below it is often larger).
    #[arg(long, global = true)]
    pub ring_cut: bool,

    /// Do not restrict consecutive independent moves to one canonical order (for measuring).
    #[arg(long, global = true)]
    pub no_canonical_order: bool,

    /// Do not bound the pieces' summed distance to the goal by the moves left (for measuring).
    #[arg(long, global = true)]
    pub no_distance_sum: bool,

    /// Tours: do not demand every untouched target within reach in the steps left (for
    /// measuring).
    #[arg(long, global = true)]
    pub no_distance_to_go: bool,

    /// Tours: do not bound the untouched targets by the moves left (for measuring).
    #[arg(long, global = true)]
    pub no_count_to_go: bool,

    /// Tours: count the untouched targets all together, not per colour against the jumps that
    /// can land on that colour (for measuring).
    #[arg(long, global = true)]
    pub no_colour_count: bool,

    /// Tours: once the optimum is proved, list every choice of starting squares that reaches
    /// it (for knights given `any` or alternatives).
    #[arg(long, global = true)]
    pub list_starts: bool,

    /// Tours and placements: also draw the solution as an SVG picture into this file.
    #[arg(long, global = true, value_name = "FILE")]
    pub svg: Option<std::path::PathBuf>,

    /// Placements: hatch the squares the pieces attack in the `--svg` picture.
    #[arg(long, global = true, requires = "svg")]
    pub svg_attacks: bool,

    /// Print one JSON object (documented in the README) instead of text.
    #[arg(long, global = true)]
    pub json: bool,

    /// Also write a certificate of optimality into this directory: the puzzle, its 0-1 model,
    /// the solution and a VeriPB proof (check it with `knights-sat verify DIR`).
    #[arg(long, global = true, value_name = "DIR")]
    pub certify: Option<PathBuf>,

    /// How the certificate stores its proof: `auto` (text, gzip once it passes 64 MiB), `none`
    /// (always text, proof.pbp) or `gzip` (always proof.pbp.gz). `verify` reads either.
    #[arg(long, global = true, value_name = "HOW", default_value = "auto", requires = "certify")]
    pub proof_compression: String,

    /// Exchanges: when the certificate's proof states, by dominance, that independent moves
    /// come in one order, and gives the solver those clauses (a shorter search, a longer
    /// check): `auto` (never on a board of at most nine squares, where the search certifies
    /// itself; on larger boards the proof is begun beside the search, with the order once the
    /// search has spent a quarter of a second on one horizon), `always` or `never` (the search
    /// certifies itself, with or without the order).
    #[arg(long, global = true, value_name = "WHEN", default_value = "auto", requires = "certify")]
    pub certify_canonical_order: String,

    /// No progress display on stderr.
    #[arg(long, short, global = true)]
    pub quiet: bool,

    #[command(flatten)]
    pub lines: ProgressLines,
}

/// How often a long command writes its progress where it cannot draw it.
#[derive(Debug, Args)]
pub struct ProgressLines {
    /// When stderr is not a terminal (a log file, a Slurm task's output): a line of progress
    /// every SECONDS, 0 for none. A terminal gets the live display instead.
    #[arg(long, value_name = "SECONDS", default_value_t = 60.0, global = true)]
    pub progress_every: f64,
}

#[derive(Debug, Subcommand)]
pub enum InlinePuzzle {
    /// An exchange puzzle given by flags, e.g. `exchange --board 3x3 --white Na1,Nc1 --black Na3,Nc3 --swap`.
    Exchange(InlineExchange),
    /// Fewest pieces occupying or attacking every square, e.g. `domination --board 8x8 --pieces N`.
    Domination(InlinePlacement),
    /// Fewest pieces dominating the board, none attacking another.
    IndependentDomination(InlinePlacement),
    /// Fewest pieces attacking every square, occupied ones too.
    TotalDomination(InlinePlacement),
    /// Most pieces of which none attacks another, e.g. `independence --board 8x8 --pieces Q`.
    Independence(InlinePlacement),
    /// Knights touring the squares static pieces leave safe, e.g. `tour --board 8x8 --attackers Qd5
    /// --knights h8`.
    Tour(InlineTour),
}

#[derive(Debug, Args)]
pub struct InlineTour {
    /// Board size, e.g. 8x8.
    #[arg(long, value_name = "WxH")]
    pub board: String,
    /// Squares cut out of the board, e.g. a1,h8.
    #[arg(long, value_name = "SQUARES", value_delimiter = ',')]
    pub removed: Vec<String>,
    /// Static pieces, e.g. Qd5,Qe2 (a kind letter and a square; pawns attack up the board).
    #[arg(long, value_name = "PIECES", value_delimiter = ',')]
    pub attackers: Vec<String>,
    /// Each knight's start: a square, `any`, or alternatives such as a1|c3.
    #[arg(long, value_name = "STARTS", value_delimiter = ',', required = true)]
    pub knights: Vec<String>,
    /// The squares to touch (default: every safe square).
    #[arg(long, value_name = "SQUARES", value_delimiter = ',')]
    pub targets: Vec<String>,
    /// `any`, or `listed` to touch the targets in the order given.
    #[arg(long, value_name = "ORDER", default_value = "any")]
    pub order: String,
    /// `moves`, `steps` (knights move together; then fewest moves) or `feasible`.
    #[arg(long, value_name = "OBJECTIVE", default_value = "moves")]
    pub objective: String,
}

#[derive(Debug, Args)]
pub struct InlinePlacement {
    /// Board size, WIDTHxHEIGHT (files x ranks).
    #[arg(long, value_name = "WxH")]
    pub board: String,
    /// The kinds that may be placed, as letters, e.g. N or PNBRQK.
    #[arg(long, value_name = "LETTERS")]
    pub pieces: String,
    /// Squares removed from the board, comma-separated.
    #[arg(long, value_name = "SQUARES", value_delimiter = ',')]
    pub removed: Vec<String>,
    /// Squares that must stay empty, comma-separated.
    #[arg(long, value_name = "SQUARES", value_delimiter = ',')]
    pub empty: Vec<String>,
    /// Pieces placed in advance, e.g. Nd5,Qa1.
    #[arg(long, value_name = "PIECES", value_delimiter = ',')]
    pub fixed: Vec<String>,
    /// Pawns attack diagonally `up` or `down` the board.
    #[arg(long, value_name = "DIRECTION", default_value = "up")]
    pub pawns: String,
    /// `empty-board`: sliders attack through placed pieces, as in the classical problems;
    /// `blocked`: placed pieces stop them.
    #[arg(long, value_name = "MODEL", default_value = "empty-board")]
    pub attacks: String,
}

#[derive(Debug, Args)]
pub struct InlineExchange {
    /// Board size, WIDTHxHEIGHT (files x ranks).
    #[arg(long, value_name = "WxH")]
    pub board: String,
    /// Squares removed from the board, comma-separated.
    #[arg(long, value_name = "SQUARES", value_delimiter = ',')]
    pub removed: Vec<String>,
    /// White's pieces at the start, e.g. Na1,Nc1 (pawns: a2 or Pa2).
    #[arg(long, value_name = "PIECES", value_delimiter = ',')]
    pub white: Vec<String>,
    /// Black's pieces at the start.
    #[arg(long, value_name = "PIECES", value_delimiter = ',')]
    pub black: Vec<String>,
    /// White's pieces in the goal.
    #[arg(long, value_name = "PIECES", value_delimiter = ',', conflicts_with = "swap")]
    pub goal_white: Vec<String>,
    /// Black's pieces in the goal.
    #[arg(long, value_name = "PIECES", value_delimiter = ',', conflicts_with = "swap")]
    pub goal_black: Vec<String>,
    /// The goal is the start with the colours swapped.
    #[arg(long)]
    pub swap: bool,
}

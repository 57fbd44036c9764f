//! Writing a certificate directory, and checking one.

use std::io::Write;
use std::path::{Path, PathBuf};

use super::parts::{same_model, Check, Part, FILES};
use super::proof_file::{self, ProofCompression, ProofWriter, StoredProof, PROOF, PROOF_GZ};
use super::{checker, prove, race, solution, CertifyError};
use crate::driver::Solution;
use crate::driver::TreeProof;
use crate::encodings::linear::{write_opb, LinearModel};
use crate::encodings::puzzle::{self, Puzzle};
use crate::family;

/// A certificate just written, with the figures of its proof.
#[derive(Clone, Debug)]
pub struct Certificate {
    /// Its directory.
    pub dir: PathBuf,
    /// The value certified optimal.
    pub value: usize,
    /// Variables of `model.opb`.
    pub model_variables: usize,
    /// The proof file and its sizes.
    pub proof: StoredProof,
    /// The figures of the proof.
    pub figures: prove::ProofFigures,
}

/// The model that a certificate for `puzzle` with objective value `value` states: the
/// placement model, or for exchanges and tours the model with at most `value` moves.
pub fn certified_model(puzzle: &Puzzle, value: usize) -> Result<LinearModel, CertifyError> {
    family::of(puzzle).certified_model(value)
}

/// The objective value as `model.opb` states it: negated when the puzzle maximises.
pub fn opb_value(puzzle: &Puzzle, value: usize) -> i64 {
    let value = value as i64;
    if family::of(puzzle).maximises() {
        -value
    } else {
        value
    }
}

/// Writes the certificate of `solution` (objective value `value`, believed optimal) for
/// `puzzle`, whose file text is `puzzle_text`, into `dir`, the proof stored as `compression`
/// says.
pub fn certify(
    puzzle: &Puzzle,
    puzzle_text: &str,
    solution: &Solution,
    value: usize,
    dir: &Path,
    options: impl Into<ProofOptions>,
) -> Result<Certificate, CertifyError> {
    certify_with(puzzle, puzzle_text, solution, value, dir, options, None)
}

/// How a certificate's proof is written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ProofOptions {
    /// How the proof is stored.
    pub compression: ProofCompression,
    /// When to state the canonical order of an exchange's independent moves by dominance and
    /// give it to the refuter ([`super::swaps`]): a shorter refutation, a longer check.
    pub canonical_order: CanonicalOrderUse,
}

impl From<ProofCompression> for ProofOptions {
    fn from(compression: ProofCompression) -> Self {
        ProofOptions { compression, canonical_order: CanonicalOrderUse::default() }
    }
}

/// When a certificate states the canonical order of an exchange's moves.
///
/// Checking it costs about the same for every swap of moves (VeriPB checks each against the
/// rows it touches), while what it saves grows with the refutation: on Guarini's 3x4 it made the
/// certificate twice as fast and its check twice as slow; on Guarini's 3x3, whose refutation
/// takes a fifth of a second, it saved nothing and made the check seven times as slow.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum CanonicalOrderUse {
    /// When the search has spent [`HARD_HORIZON_SECONDS`] on one horizon before the lower
    /// bound's proof begins (in a proof begun during the search; never after it).
    #[default]
    Auto,
    /// Always.
    Always,
    /// Never.
    Never,
}

/// The time on one horizon after which `auto` states the canonical order.
pub const HARD_HORIZON_SECONDS: f64 = 0.25;

impl std::str::FromStr for CanonicalOrderUse {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        match text {
            "auto" => Ok(CanonicalOrderUse::Auto),
            "always" => Ok(CanonicalOrderUse::Always),
            "never" => Ok(CanonicalOrderUse::Never),
            other => Err(format!("`--certify-canonical-order {other}`: give auto, always or never")),
        }
    }
}

/// [`certify`], with the proof written from the tree of the branch-and-bound search that
/// found `solution` if `tree` is given ([`super::prove_tree`]), else by a refutation of its own.
pub fn certify_with(
    puzzle: &Puzzle,
    puzzle_text: &str,
    solution: &Solution,
    value: usize,
    dir: &Path,
    options: impl Into<ProofOptions>,
    tree: Option<&TreeProof>,
) -> Result<Certificate, CertifyError> {
    let ProofOptions { compression, canonical_order } = options.into();
    let (model, assignment, mut argument) = write_files(puzzle, puzzle_text, solution, value, dir)?;
    if canonical_order == CanonicalOrderUse::Always && argument.is_none() {
        argument = family::of(puzzle).canonical_order(value).map(super::Argument::Swaps);
    }
    let (proof, figures) = match tree {
        Some(tree) => {
            let mut proof = ProofWriter::create(dir, compression)?;
            let figures = super::tree::prove_tree(&model, &assignment, tree, proof.writer())?;
            (proof.finish()?, figures)
        }
        None => {
            let threads = crate::driver::default_threads();
            race::prove_optimal(&model, &assignment, argument.as_ref(), dir, compression, threads)?
        }
    };
    Ok(Certificate { dir: dir.to_path_buf(), value, model_variables: model.variables.len(), proof, figures })
}

/// Writes the certificate of `solution` (objective value `value`) for `puzzle` into `dir`, whose
/// proof a [`super::Speculation`] wrote while the search ran (`finished`, already in `dir`):
/// the other files, as [`certify`] writes them.
pub fn certify_begun(
    puzzle: &Puzzle,
    puzzle_text: &str,
    solution: &Solution,
    value: usize,
    dir: &Path,
    finished: (StoredProof, prove::ProofFigures),
) -> Result<Certificate, CertifyError> {
    let (model, _, _) = write_files(puzzle, puzzle_text, solution, value, dir)?;
    let (proof, figures) = finished;
    Ok(Certificate { dir: dir.to_path_buf(), value, model_variables: model.variables.len(), proof, figures })
}

/// Writes the certificate's files besides its proof ([`FILES`]) into `dir`: the model and the
/// solution as a 0-1 assignment of its variables, with the colour argument of a lone knight's
/// tour.
fn write_files(
    puzzle: &Puzzle,
    puzzle_text: &str,
    solution: &Solution,
    value: usize,
    dir: &Path,
) -> Result<(LinearModel, Vec<bool>, Option<super::Argument>), CertifyError> {
    let (model, assignment, colour) = family::of(puzzle).certified_assignment(solution, value)?;
    write_texts(puzzle_text, &model, &solution::write_solution(puzzle, solution, value), dir)?;
    Ok((model, assignment, colour))
}

/// Writes the puzzle's text, `model` and the solution's text into `dir`.
fn write_texts(puzzle_text: &str, model: &LinearModel, solution_text: &str, dir: &Path) -> Result<(), CertifyError> {
    std::fs::create_dir_all(dir)?;
    std::fs::write(dir.join(FILES[0]), puzzle_text)?;
    let mut opb = Vec::new();
    write_opb(model, &mut opb)?;
    std::fs::write(dir.join(FILES[1]), opb)?;
    std::fs::write(dir.join(FILES[2]), solution_text)?;
    Ok(())
}

/// Runs the certified core-guided search on a placement `puzzle` (whose file text is
/// `puzzle_text`), reporting it to `on_event` as the plain search does, and writes the
/// certificate of the optimum it proves into `dir` ([`super::core_guided`]); the certificate,
/// or `None` when no placement exists.
#[cfg(unix)]
pub fn certify_core_guided(
    puzzle: &Puzzle,
    puzzle_text: &str,
    dir: &Path,
    compression: ProofCompression,
    on_event: &mut dyn FnMut(crate::driver::Event),
) -> Result<Option<Certificate>, CertifyError> {
    let placement =
        puzzle.placement().ok_or_else(|| CertifyError::Unsupported("only placements are searched this way".into()))?;
    as_it_runs(puzzle, puzzle_text, dir, compression, |writer| {
        let certified = super::core_guided::search(placement, writer, on_event)?;
        Ok(certified.best.zip(certified.figures).map(|(best, figures)| Found { best, figures, horizon: None }))
    })
}

/// What a search that certifies itself found: the solution and its value, the proof's figures,
/// and the horizon of the model the proof speaks of when that is not the value.
#[cfg(unix)]
struct Found {
    best: (Solution, usize),
    figures: prove::ProofFigures,
    horizon: Option<usize>,
}

/// Runs `search`, which writes the proof of its optimum into the writer it is given, and
/// writes the rest of the certificate into `dir`: the certificate, or `None` when the search
/// finds no solution (and writes no proof).
#[cfg(unix)]
fn as_it_runs(
    puzzle: &Puzzle,
    puzzle_text: &str,
    dir: &Path,
    compression: ProofCompression,
    search: impl FnOnce(&mut dyn Write) -> Result<Option<Found>, CertifyError>,
) -> Result<Option<Certificate>, CertifyError> {
    std::fs::create_dir_all(dir)?;
    let mut proof = ProofWriter::create(dir, compression)?;
    let found = search(proof.writer())?;
    let stored = proof.finish()?;
    let Some(Found { best: (solution, value), figures, horizon }) = found else {
        std::fs::remove_file(&stored.path)?;
        return Ok(None);
    };
    let model_variables = match horizon {
        None => write_files(puzzle, puzzle_text, &solution, value, dir)?.0.variables.len(),
        Some(horizon) => {
            let model = certified_model(puzzle, horizon)?;
            let text = solution::write_solution_in(puzzle, &solution, value, Some(horizon));
            write_texts(puzzle_text, &model, &text, dir)?;
            model.variables.len()
        }
    };
    Ok(Some(Certificate { dir: dir.to_path_buf(), value, model_variables, proof: stored, figures }))
}

/// Runs the certified horizon search on a tour `puzzle` of a lone knight from any square
/// ([`super::traced_tour::applies`]; its file text is `puzzle_text`), asking horizons up to
/// `max_horizon` and reporting to `on_event` as the plain search does, and writes the
/// certificate of the optimum it finds into `dir` ([`super::traced_tour`]); the certificate, or
/// `None` when no route is found.
#[cfg(unix)]
pub fn certify_traced_tour(
    puzzle: &Puzzle,
    puzzle_text: &str,
    max_horizon: usize,
    dir: &Path,
    compression: ProofCompression,
    on_event: &mut dyn FnMut(crate::driver::Event),
) -> Result<Option<Certificate>, CertifyError> {
    let Puzzle::Tour(tour) = puzzle else {
        return Err(CertifyError::Unsupported("only tours are searched this way".into()));
    };
    as_it_runs(puzzle, puzzle_text, dir, compression, |writer| {
        let certified = super::traced_tour::search(tour, max_horizon, writer, on_event)?;
        let best = certified.best.map(|(route, value)| (Solution::Route(route), value));
        Ok(best.zip(certified.figures).map(|(best, figures)| Found { best, figures, horizon: None }))
    })
}

/// Runs the certified horizon search on an exchange `puzzle` (whose file text is
/// `puzzle_text`) in the model of at most `horizon` moves, reporting to `on_event` as the plain
/// search does, and writes the certificate of the optimum it finds into `dir`
/// ([`super::traced_exchange`]), stating the canonical order of moves if `order`; the
/// certificate, or `None` when no sequence of at most `horizon` moves exists (and nothing is
/// left in `dir`).
#[cfg(unix)]
pub fn certify_traced_exchange(
    puzzle: &Puzzle,
    puzzle_text: &str,
    horizon: usize,
    dir: &Path,
    (compression, order): (ProofCompression, bool),
    on_event: &mut dyn FnMut(crate::driver::Event),
) -> Result<Option<Certificate>, CertifyError> {
    use super::traced_exchange::{search, Searched};
    let Puzzle::Exchange(exchange) = puzzle else {
        return Err(CertifyError::Unsupported("only exchanges are searched this way".into()));
    };
    as_it_runs(puzzle, puzzle_text, dir, compression, |writer| {
        Ok(match search(exchange, horizon, order, writer, on_event)? {
            Searched::Optimal(moves, figures) => {
                let value = moves.len();
                Some(Found { best: (Solution::Moves(moves), value), figures, horizon: Some(horizon) })
            }
            Searched::Beyond => None,
        })
    })
}

/// The verdicts on a certificate.
#[derive(Clone, Debug)]
pub struct Verification {
    /// The value the certificate states.
    pub value: usize,
    /// One verdict per part, in order a, b, c.
    pub checks: Vec<Check>,
}

impl Verification {
    /// Whether every part passed.
    pub fn passed(&self) -> bool {
        self.checks.iter().all(|c| c.passed)
    }
}

/// Why a directory is not a certificate at all.
#[derive(Debug, thiserror::Error)]
pub enum VerifyError {
    /// A missing directory or file, or a puzzle or solution file that cannot be read.
    #[error("{0}")]
    Malformed(String),
}

/// Where a certificate's proof is.
enum Proofs {
    /// One model and its proof.
    Single(PathBuf),
    /// A split's parts ([`super::split`]).
    Split,
}
use Proofs::{Single, Split};

/// Checks the certificate in `dir`: parts a, b and c, each on its own. A certificate of a split
/// job ([`super::split`]) has its parts' models and proofs checked in b and c.
pub fn verify(dir: &Path) -> Result<Verification, VerifyError> {
    let malformed = |m: String| VerifyError::Malformed(m);
    if !dir.is_dir() {
        return Err(malformed(format!("{} is not a directory", dir.display())));
    }
    let read = |name: &str| {
        std::fs::read_to_string(dir.join(name)).map_err(|e| malformed(format!("{}: {e}", dir.join(name).display())))
    };
    let split = dir.join(super::split::SPLIT_FILE).is_file();
    let needed = if split { vec![FILES[0], FILES[2]] } else { FILES.to_vec() };
    for name in needed {
        if !dir.join(name).is_file() {
            return Err(malformed(format!(
                "{} has no {name}; a certificate holds {} and {PROOF} (or {PROOF_GZ})",
                dir.display(),
                FILES.join(", ")
            )));
        }
    }
    let proof = if split { Split } else { Single(proof_file::find(dir).map_err(malformed)?) };
    let puzzle = puzzle::parse(&read(FILES[0])?, "puzzle.toml").map_err(|e| malformed(e.to_string()))?;
    let solution_text = read(FILES[2])?;
    let value = solution::stated_value(&solution_text).ok_or_else(|| {
        malformed(format!("solution.txt does not start with `{}` and a `value N` line", solution::HEADER))
    })?;
    // The value sizes the model of part b: one out of every puzzle's reach is refused first.
    let (limit, of_what) = family::of(&puzzle).value_limit();
    if value > limit {
        return Err(malformed(format!(
            "solution.txt: value {value} is out of range: this {} puzzle's value is at most {limit} ({of_what})",
            puzzle.kind()
        )));
    }
    // The model may be longer than the value: an exchange's model of at most `horizon` moves.
    let horizon = solution::stated_horizon(&solution_text).map_err(|e| malformed(format!("solution.txt: {e}")))?;
    let model_size = horizon.unwrap_or(value);
    if model_size < value || model_size > limit {
        return Err(malformed(format!(
            "solution.txt: horizon {model_size} is out of range: from the value {value} to {limit} ({of_what})"
        )));
    }
    let solution = verdict(Part::Solution, check_solution(&puzzle, &solution_text, value));
    let checks = match proof {
        Split => {
            let (models, proofs) = super::split::verify_split(dir, &puzzle, value);
            vec![solution, models, proofs]
        }
        Single(proof) => vec![
            solution,
            verdict(Part::Model, check_model(&puzzle, model_size, &dir.join(FILES[1]))),
            verdict(Part::Proof, check_proof(&puzzle, value, &dir.join(FILES[1]), &proof)),
        ],
    };
    Ok(Verification { value, checks })
}

fn verdict(part: Part, result: Result<String, String>) -> Check {
    match result {
        Ok(message) => Check { part, passed: true, message },
        Err(message) => Check { part, passed: false, message },
    }
}

/// a. Replays the solution with the rules checker.
fn check_solution(puzzle: &Puzzle, text: &str, value: usize) -> Result<String, String> {
    let solution = solution::read_solution(puzzle, text)?;
    let (replayed, unit) =
        family::of(puzzle).replay(&solution).map_err(|e| format!("the rules checker rejects it: {e}"))?;
    if replayed != value {
        return Err(format!("replayed by the rules checker it has value {replayed}{unit}, not the stated {value}"));
    }
    Ok(format!("replayed by the rules checker: legal, value {value}{unit}"))
}

/// b. Regenerates the model and compares it with `model.opb`.
fn check_model(puzzle: &Puzzle, value: usize, path: &Path) -> Result<String, String> {
    let model = certified_model(puzzle, value).map_err(|e| e.to_string())?;
    same_model(&model, path)
}

/// c. Checks the proof with VeriPB and compares its bounds with the stated value.
fn check_proof(puzzle: &Puzzle, value: usize, model: &Path, proof: &Path) -> Result<String, String> {
    let started = std::time::Instant::now();
    let name = proof.file_name().map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    let bounds = checker::check(model, proof).map_err(|e| format!("VeriPB rejects {name}: {e}"))?;
    let stated = opb_value(puzzle, value);
    if bounds.lower != stated || bounds.upper != stated {
        return Err(format!(
            "VeriPB verified BOUNDS {} <= obj <= {}, but the stated value means {stated} <= obj <= {stated}",
            bounds.lower, bounds.upper
        ));
    }
    let negated = if stated < 0 { " (the objective maximised, negated in OPB)" } else { "" };
    Ok(format!(
        "VeriPB verified BOUNDS {stated} <= obj <= {stated}{negated} in {:.2} s: the solution is optimal",
        started.elapsed().as_secs_f64()
    ))
}

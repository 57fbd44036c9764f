//! The certificate of a horizon search split into cubes: an exchange's positions after the
//! job's depth of moves, or a lone knight's square and the targets it has touched by then.
//!
//! Every model here is the puzzle's at-most model ([`super::certified_model`]) with
//! `horizon + 1` steps, its objective taken out and its moves bounded by a row instead, so that
//! all of them have the same variables and rows but one or two:
//!
//! - **a cube's part**, the moves bounded by `refuted` (what the cube's search refuted) and the
//!   cube's literals as rows of one variable: no route of at most `refuted` moves stands in the
//!   cube after `depth` moves;
//! - **the cover**, the moves bounded by `value - 1` and every cube negated as a clause: every
//!   route of at most `value - 1` moves stands in one of the cubes after `depth` moves (routes
//!   shorter than `depth` are refuted here too).
//!
//! VeriPB checks that each of them has no solution. With every cube's `refuted` at least
//! `value - 1`, a route of at most `value - 1` moves would be a solution of the cover's model
//! with its cube's literals, so of that cube's model: there is none, and the solution of
//! `value` moves is optimal. A tour's cube names the targets touched by `depth` moves through
//! one variable each (`touched_{square}_t{depth}`, touched by any knight), defined by rows in
//! every model, and the knights' squares; an exchange's names the occupancy after `depth`
//! moves, as its model has it.

use std::path::Path;

use serde::{Deserialize, Serialize};

use super::argument::Argument;
use super::parts::{same_model, Check, Part, FILES};
use super::proof_file::{self, ProofCompression, ProofWriter, StoredProof};
use super::prove::{self, ProofFigures, Refuter};
use super::{checker, tour_model, CertifyError};
use crate::driver::MAX_HORIZON;
use crate::encodings::geometry::{Piece, PieceKind, Square};
use crate::encodings::linear::{exchange_model_at_most, write_opb, LinearModel, Relation};
use crate::encodings::puzzle::tour::{TourObjective, TourPuzzle, VisitOrder};
use crate::encodings::puzzle::{ExchangePuzzle, Position, Puzzle};

/// The file of a split certificate that lists its cubes (its presence makes a certificate
/// directory one of a split).
pub const SPLIT_FILE: &str = "split.json";
/// The directory of the cover's model and proof, in a split certificate.
pub const COVER_DIR: &str = "cover";
/// The directory of the cubes' parts (`cube-N`), in a split certificate.
pub const CUBES_DIR: &str = "cubes";

/// One cube of a horizon search, as a certificate names it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RouteCube {
    /// An exchange's position: a token per piece, its side, a colon, its letter and its
    /// square (`1:Nb3`).
    Position(Vec<String>),
    /// A tour's knights on `squares` having touched the targets `touched` (and no other).
    Reached {
        /// The knights' squares, knight by knight.
        squares: Vec<String>,
        /// The targets touched, by name.
        touched: Vec<String>,
    },
}

/// `split.json`: what a split certificate claims besides its solution.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SplitClaims {
    /// The most moves the job searched: the models have one step more.
    pub horizon: usize,
    /// The moves after which the cubes stand.
    pub depth: usize,
    /// The cubes with what each refuted (none when the optimum is below `depth + 1`).
    pub cubes: Vec<CubeClaim>,
}

/// One cube of a split certificate and the most moves its part refutes.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct CubeClaim {
    /// The cube.
    pub cube: RouteCube,
    /// No route in the cube has at most this many moves.
    pub refuted: usize,
}

/// The position that the tokens `pieces` name on `puzzle`'s board, checked: every piece on a
/// square of the board, one a square, and the pieces of the puzzle, no more and no fewer.
pub fn parse_position(pieces: &[String], puzzle: &ExchangePuzzle) -> Result<Position, String> {
    let mut position = Position::empty(puzzle.board.area());
    for token in pieces {
        let bad = || format!("`{token}` is not a piece token such as `0:Na1`");
        let (side, rest) = token.split_once(':').ok_or_else(bad)?;
        let side: usize = side.parse().map_err(|_| bad())?;
        let mut chars = rest.chars();
        let kind = chars.next().and_then(PieceKind::from_letter).ok_or_else(bad)?;
        let square = puzzle.board.parse_square(chars.as_str()).map_err(|e| format!("`{token}`: {e}"))?;
        if side >= puzzle.sides.len() {
            return Err(format!("`{token}`: the puzzle has {} sides", puzzle.sides.len()));
        }
        position.place(square, Piece { side, kind }).map_err(|_| format!("`{token}`: the square is taken twice"))?;
    }
    if position.counts() != puzzle.start.counts() {
        return Err("the cube's pieces are not the puzzle's".to_string());
    }
    Ok(position)
}

/// The models' common part: the at-most model without its objective, the moves' terms, and how
/// a cube becomes literals.
struct Base {
    /// What the model counts: "moves", or "time steps" for a tour's `steps` objective.
    unit: &'static str,
    model: LinearModel,
    moves: Vec<(i64, usize)>,
    cubes: CubeLiterals,
    colour: Option<Argument>,
}

/// How the cubes of a family become literals of the model.
enum CubeLiterals {
    /// `x[(piece, square)]` after `depth` moves.
    Exchange(ExchangePuzzle, crate::encodings::linear::ExchangeModel, usize),
    /// Each knight's square variables after `depth` steps, and the targets' `touched` variables.
    Tour(TourPuzzle, Vec<Vec<Option<usize>>>, Vec<usize>),
}

impl Base {
    /// The base for `puzzle` searched to `horizon` moves and split after `depth`.
    fn of(puzzle: &Puzzle, horizon: usize, depth: usize) -> Result<Base, String> {
        if depth > horizon {
            return Err(format!("the depth {depth} is past the horizon {horizon}"));
        }
        let cap = horizon + 1;
        let (mut model, cubes, colour) = match puzzle {
            Puzzle::Exchange(exchange) => {
                let full = exchange_model_at_most(exchange, cap);
                (full.model.clone(), CubeLiterals::Exchange(exchange.clone(), full, depth), None)
            }
            Puzzle::Tour(tour) => {
                if tour.order != VisitOrder::Any || tour.objective == TourObjective::Feasible {
                    return Err("only a tour in any order, for the fewest moves or time steps, is split".into());
                }
                let full = tour_model::tour_cap_model(tour, cap).map_err(|e| e.to_string())?;
                // A lone knight's for the fewest moves; none otherwise.
                let colour = tour_model::colour_argument(&full, tour);
                let at: Vec<Vec<Vec<Option<usize>>>> = (0..tour.knights.len()).map(|k| full.knight_at(k)).collect();
                let mut model = full.model.clone();
                let mut touched = Vec::new();
                for &target in &tour.targets {
                    let name = tour.board.name(target);
                    let u = model.variable(format!("touched_{name}_t{depth}"));
                    let times: Vec<usize> = at
                        .iter()
                        .flat_map(|knight| &knight[..=depth])
                        .filter_map(|layer| layer[target.index()])
                        .collect();
                    for (i, &v) in times.iter().enumerate() {
                        let row = format!("touched_{name}_t{depth}_{i}");
                        model.constrain(row, vec![(1, v), (-1, u)], Relation::AtMost, 0);
                    }
                    let mut terms = vec![(1, u)];
                    terms.extend(times.iter().map(|&v| (-1, v)));
                    model.constrain(format!("touched_{name}_t{depth}"), terms, Relation::AtMost, 0);
                    touched.push(u);
                }
                let last = at.iter().map(|knight| knight[depth].clone()).collect();
                (model, CubeLiterals::Tour(tour.clone(), last, touched), colour)
            }
            Puzzle::Placement(_) => return Err("a placement's split is certified by its tree".into()),
        };
        let (_, moves) = model.objective.take().ok_or("the at-most model has an objective")?;
        let unit = match puzzle {
            Puzzle::Tour(tour) if tour.objective == TourObjective::Steps => "time steps",
            _ => "moves",
        };
        Ok(Base { unit, model, moves, cubes, colour })
    }

    /// The literals of `cube`: `(variable, value)`.
    fn literals(&self, cube: &RouteCube) -> Result<Vec<(usize, bool)>, String> {
        match (&self.cubes, cube) {
            (CubeLiterals::Exchange(puzzle, model, depth), RouteCube::Position(pieces)) => {
                let position = parse_position(pieces, puzzle)?;
                position
                    .pieces()
                    .map(|(square, piece)| {
                        let var = model.occupied(*depth, piece, square);
                        var.map(|v| (v, true))
                            .ok_or_else(|| format!("{} is not a square of the board", puzzle.board.name(square)))
                    })
                    .collect()
            }
            (CubeLiterals::Tour(puzzle, at, touched), RouteCube::Reached { squares, touched: names }) => {
                let board = &puzzle.board;
                if squares.len() != at.len() {
                    return Err(format!("{} squares for {} knights", squares.len(), at.len()));
                }
                let mut literals = Vec::new();
                for (k, name) in squares.iter().enumerate() {
                    let square: Square = board.parse_square(name).map_err(|e| format!("`{name}`: {e}"))?;
                    let here =
                        at[k][square.index()].ok_or_else(|| format!("knight {} cannot stand on {name} then", k + 1))?;
                    literals.push((here, true));
                }
                let mut marked = vec![false; puzzle.targets.len()];
                for name in names {
                    let target = board.parse_square(name).map_err(|e| format!("`{name}`: {e}"))?;
                    let j = puzzle
                        .targets
                        .iter()
                        .position(|&t| t == target)
                        .ok_or_else(|| format!("{name} is not a target"))?;
                    if std::mem::replace(&mut marked[j], true) {
                        return Err(format!("{name} is named twice"));
                    }
                }
                literals.extend(touched.iter().copied().zip(marked));
                Ok(literals)
            }
            _ => Err("the cube is not of the puzzle's family".into()),
        }
    }

    /// The model with the moves bounded by `bound`.
    fn bounded(&self, bound: usize, title: String) -> LinearModel {
        let mut model = self.model.clone();
        model.title = title;
        model.constrain("moves", self.moves.clone(), Relation::AtMost, bound as i64);
        model
    }

    /// The colour argument up to `bound` moves, for a lone knight's tour.
    fn colour_to(&self, bound: usize) -> Option<Argument> {
        let Some(Argument::Lone(mut argument)) = self.colour.clone() else { return None };
        let steps = bound + 1;
        argument.at.truncate(steps + 1);
        argument.moved.truncate(steps);
        argument.one_rows.truncate(steps + 1);
        Some(Argument::Lone(argument))
    }
}

/// The model of one cube's part: no route of at most `refuted` moves in `cube`.
pub fn cube_model(puzzle: &Puzzle, horizon: usize, depth: usize, cube: &CubeClaim) -> Result<LinearModel, String> {
    cube_part(&Base::of(puzzle, horizon, depth)?, (horizon, depth), cube).map(|(model, _)| model)
}

fn cube_part(
    base: &Base,
    (horizon, depth): (usize, usize),
    cube: &CubeClaim,
) -> Result<(LinearModel, Option<Argument>), String> {
    if cube.refuted > horizon {
        return Err(format!("a cube refuted to {} {}, past the horizon {horizon}", cube.refuted, base.unit));
    }
    let literals = base.literals(&cube.cube)?;
    let (title, unit) = (&base.model.title, base.unit);
    let title = format!("{title}, in one cube after {depth} {unit}, at most {} {unit}", cube.refuted);
    let mut model = base.bounded(cube.refuted, title);
    for (i, (var, value)) in literals.into_iter().enumerate() {
        model.constrain(format!("cube_{i}"), vec![(1, var)], Relation::Equal, i64::from(value));
    }
    Ok((model, base.colour_to(cube.refuted)))
}

/// The model of the cover: no route of at most `value - 1` moves outside every cube of `claims`.
pub fn cover_model(puzzle: &Puzzle, claims: &SplitClaims, value: usize) -> Result<LinearModel, String> {
    cover_part(&Base::of(puzzle, claims.horizon, claims.depth)?, claims, value).map(|(model, _)| model)
}

fn cover_part(base: &Base, claims: &SplitClaims, value: usize) -> Result<(LinearModel, Option<Argument>), String> {
    if value == 0 || value > claims.horizon {
        return Err(format!("the value {value} is not within the horizon of 1 to {} {}", claims.horizon, base.unit));
    }
    let (title, unit, depth) = (&base.model.title, base.unit, claims.depth);
    let title = format!("{title}, outside every cube after {depth} {unit}, at most {} {unit}", value - 1);
    let mut model = base.bounded(value - 1, title);
    for (i, claim) in claims.cubes.iter().enumerate() {
        // Not every literal of the cube: at most all but one.
        let literals = base.literals(&claim.cube).map_err(|e| format!("cube {i}: {e}"))?;
        let mut rhs = literals.len() as i64 - 1;
        let terms = literals
            .into_iter()
            .map(|(var, value)| {
                if value {
                    (1, var)
                } else {
                    rhs -= 1;
                    (-1, var)
                }
            })
            .collect();
        model.constrain(format!("not_cube_{i}"), terms, Relation::AtMost, rhs);
    }
    Ok((model, base.colour_to(value - 1)))
}

/// The solver that refutes each part: CaDiCaL where its trace can be read (Unix). On the cubes
/// of Guarini's 3x4 exchange its refutations took 68 s against varisat's 108 s, their proofs
/// half the size, checked in half the time.
#[cfg(unix)]
const PART_REFUTER: Refuter = Refuter::Cadical;
#[cfg(not(unix))]
const PART_REFUTER: Refuter = Refuter::Varisat;

/// What a part of a split certificate took to write.
#[derive(Clone, Debug)]
pub struct PartFigures {
    /// The proof file and its sizes.
    pub proof: StoredProof,
    /// Its figures.
    pub figures: ProofFigures,
}

/// Writes one part, `model` and its refutation, into `dir`.
fn write_part(
    model: &LinearModel,
    colour: Option<&Argument>,
    dir: &Path,
    compression: ProofCompression,
) -> Result<PartFigures, CertifyError> {
    std::fs::create_dir_all(dir)?;
    let mut opb = Vec::new();
    write_opb(model, &mut opb)?;
    std::fs::write(dir.join(FILES[1]), opb)?;
    let mut proof = ProofWriter::create(dir, compression)?;
    let figures = prove::prove_refuted(model, colour, PART_REFUTER, proof.writer())?;
    Ok(PartFigures { proof: proof.finish()?, figures })
}

/// Writes the part of `cube` into `dir`: its model and the proof that no route of at most
/// `cube.refuted` moves lies in it.
pub fn prove_cube(
    puzzle: &Puzzle,
    (horizon, depth): (usize, usize),
    cube: &CubeClaim,
    dir: &Path,
    compression: ProofCompression,
) -> Result<PartFigures, CertifyError> {
    let base = Base::of(puzzle, horizon, depth).map_err(CertifyError::Unsupported)?;
    let (model, colour) = cube_part(&base, (horizon, depth), cube).map_err(CertifyError::Unsupported)?;
    write_part(&model, colour.as_ref(), dir, compression)
}

/// Writes the cover of `claims` for a solution of `value` moves into `dir`.
pub fn prove_cover(
    puzzle: &Puzzle,
    claims: &SplitClaims,
    value: usize,
    dir: &Path,
    compression: ProofCompression,
) -> Result<PartFigures, CertifyError> {
    let base = Base::of(puzzle, claims.horizon, claims.depth).map_err(CertifyError::Unsupported)?;
    let (model, colour) = cover_part(&base, claims, value).map_err(CertifyError::Unsupported)?;
    write_part(&model, colour.as_ref(), dir, compression)
}

/// The directory of cube `i`'s part in the split certificate `dir`.
pub fn cube_dir(dir: &Path, i: usize) -> std::path::PathBuf {
    dir.join(CUBES_DIR).join(format!("cube-{i}"))
}

/// Checks parts b and c of the split certificate in `dir` for a solution of `value` moves:
/// every model is the one its claims generate, every cube refutes enough, and VeriPB checks
/// that none of the models has a solution.
pub fn verify_split(dir: &Path, puzzle: &Puzzle, value: usize) -> (Check, Check) {
    let failed = |part, message: String| Check { part, passed: false, message };
    let claims: SplitClaims = match std::fs::read_to_string(dir.join(SPLIT_FILE))
        .map_err(|e| e.to_string())
        .and_then(|text| serde_json::from_str(&text).map_err(|e| e.to_string()))
    {
        Ok(claims) => claims,
        Err(e) => {
            let message = format!("{SPLIT_FILE}: {e}");
            return (failed(Part::Model, message.clone()), failed(Part::Proof, message));
        }
    };
    let not_checked = || failed(Part::Proof, "not checked".into());
    // The horizon sizes every model: one out of every puzzle's reach is refused first.
    if claims.horizon > MAX_HORIZON {
        let message =
            format!("{SPLIT_FILE}: the horizon {} is past {MAX_HORIZON} (the longest horizon)", claims.horizon);
        return (failed(Part::Model, message), not_checked());
    }
    let base = match Base::of(puzzle, claims.horizon, claims.depth) {
        Ok(base) => base,
        Err(e) => return (failed(Part::Model, format!("{SPLIT_FILE}: {e}")), not_checked()),
    };
    // Each model is compared with its file as it is made, and dropped.
    let mut rows = 0;
    let mut proofs = vec![(dir.join(COVER_DIR), "the cover".to_string())];
    proofs.extend((0..claims.cubes.len()).map(|i| (cube_dir(dir, i), format!("cube {i}"))));
    for (i, (part_dir, name)) in proofs.iter().enumerate() {
        let model = match i.checked_sub(1).map(|c| &claims.cubes[c]) {
            None => cover_part(&base, &claims, value),
            Some(claim) if claim.refuted.saturating_add(1) < value => Err(format!(
                "refutes routes of at most {} {}, short of the {} the value needs",
                claim.refuted,
                base.unit,
                value - 1
            )),
            Some(claim) => cube_part(&base, (claims.horizon, claims.depth), claim),
        };
        let checked = model.and_then(|(model, _)| {
            rows += model.constraints.len();
            same_model(&model, &part_dir.join(FILES[1]))
        });
        if let Err(e) = checked {
            return (failed(Part::Model, format!("{name}: {e}")), not_checked());
        }
    }
    let models = Check {
        part: Part::Model,
        passed: true,
        message: format!(
            "the cover's model and {} cubes' are those the puzzle and {SPLIT_FILE} generate ({rows} rows)",
            claims.cubes.len()
        ),
    };
    let started = std::time::Instant::now();
    let check = |(part_dir, _): &(std::path::PathBuf, String)| {
        proof_file::find(part_dir).and_then(|proof| checker::check_unsat(&part_dir.join(FILES[1]), &proof))
    };
    let verdicts = in_parallel(&proofs, check);
    if let Some(((_, name), Err(e))) = proofs.iter().zip(verdicts).find(|(_, verdict)| verdict.is_err()) {
        return (models, failed(Part::Proof, format!("VeriPB rejects the proof of {name}: {e}")));
    }
    let proof = Check {
        part: Part::Proof,
        passed: true,
        message: format!(
            "VeriPB verified that the cover and {} cubes hold no route of at most {} {} in {:.2} s: the solution is optimal",
            claims.cubes.len(),
            value - 1,
            base.unit,
            started.elapsed().as_secs_f64()
        ),
    };
    (models, proof)
}

/// `f` of every item, on as many threads as the machine has cores, in the items' order.
fn in_parallel<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let threads = crate::driver::default_threads().min(items.len()).max(1);
    let next = std::sync::atomic::AtomicUsize::new(0);
    let mut done: Vec<(usize, R)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut mine = Vec::new();
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some(item) = items.get(i) else { break mine };
                        mine.push((i, f(item)));
                    }
                })
            })
            .collect();
        workers.into_iter().flat_map(|w| w.join().expect("a checking thread panicked")).collect()
    });
    done.sort_by_key(|d| d.0);
    done.into_iter().map(|d| d.1).collect()
}

/// Writes the split certificate of a solution of `value` moves (its file text `solution_text`)
/// into `dir`: the puzzle (its file text `puzzle_text`), the solution, `claims`, the cover with
/// its proof, and the part of every cube of `claims`, copied from `part_of(i)`, where the
/// cube's search wrote it ([`prove_cube`]). The cover's figures.
pub fn certify_split(
    (puzzle, puzzle_text): (&Puzzle, &str),
    (solution_text, value): (&str, usize),
    claims: &SplitClaims,
    part_of: &dyn Fn(usize) -> std::path::PathBuf,
    dir: &Path,
    compression: ProofCompression,
) -> Result<PartFigures, CertifyError> {
    if dir.exists() {
        std::fs::remove_dir_all(dir)?;
    }
    std::fs::create_dir_all(dir)?;
    std::fs::write(dir.join(FILES[0]), puzzle_text)?;
    std::fs::write(dir.join(FILES[2]), solution_text)?;
    let text = serde_json::to_string_pretty(claims).map_err(|e| CertifyError::Internal(e.to_string()))?;
    std::fs::write(dir.join(SPLIT_FILE), text + "\n")?;
    for i in 0..claims.cubes.len() {
        let (from, to) = (part_of(i), cube_dir(dir, i));
        std::fs::create_dir_all(&to)?;
        let proof = proof_file::find(&from).map_err(|e| CertifyError::Unsupported(format!("cube {i}: {e}")))?;
        for file in [from.join(FILES[1]), proof] {
            let target = to.join(file.file_name().unwrap_or_default());
            if std::fs::hard_link(&file, &target).is_err() {
                std::fs::copy(&file, &target)?;
            }
        }
    }
    prove_cover(puzzle, claims, value, &dir.join(COVER_DIR), compression)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encodings::ground_truth::exchange::positions_after;
    use crate::encodings::puzzle;

    fn guarini() -> Puzzle {
        let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/puzzles/guarini.toml")).unwrap();
        puzzle::parse(&text, "guarini.toml").unwrap()
    }

    fn refuted(model: &LinearModel) -> bool {
        prove::prove_refuted(model, None, PART_REFUTER, std::io::sink()).is_ok()
    }

    /// Guarini's exchange takes 16 moves (the published answer). The positions after two moves,
    /// from breadth-first search, cover every route of 16 moves, so the cover of "at most 16"
    /// has no solution; left without one of the positions that a 16-move route passes, it has.
    #[test]
    fn a_cover_holds_every_route_only_with_all_its_cubes() {
        let p = guarini();
        let Puzzle::Exchange(exchange) = &p else { unreachable!() };
        let depth = 2;
        let layer = positions_after(exchange, depth, 1000).unwrap();
        let cube = |position: &Position| CubeClaim {
            cube: crate::cubes::PositionCube::of(position, exchange).route_cube(),
            refuted: 16,
        };
        let all = SplitClaims { horizon: 17, depth, cubes: layer.iter().map(cube).collect() };
        assert!(refuted(&cover_model(&p, &all, 17).unwrap()), "every 16-move route stands in a cube");
        let mut missing = 0;
        for skipped in 0..all.cubes.len() {
            let mut fewer = all.clone();
            fewer.cubes.remove(skipped);
            // The cube's own model: whether a 16-move route stands in it.
            let lone = CubeClaim { refuted: 16, ..all.cubes[skipped].clone() };
            let empty = refuted(&cube_model(&p, 17, depth, &lone).unwrap());
            assert_eq!(refuted(&cover_model(&p, &fewer, 17).unwrap()), empty, "cube {skipped}");
            missing += usize::from(!empty);
        }
        assert!(missing > 0, "some position after two moves lies on a 16-move route");
    }

    /// Two knights among two queens take 10 time steps (checked against a search over their
    /// joint positions in `tests/tour_seeds.rs`). The cover of "at most 10 steps" has no
    /// solution with every cube of the split, and has one without the cube that a 10-step
    /// route passes.
    #[test]
    fn a_tour_cover_needs_the_cube_of_every_route() {
        let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/puzzles/two-knights-two-queens.toml"))
            .unwrap();
        let p = puzzle::parse(&text, "two-knights-two-queens.toml").unwrap();
        let Puzzle::Tour(tour) = &p else { unreachable!() };
        let split = crate::cubes::split_tour(tour, 16, 10, &mut |_| {}).unwrap();
        assert!(!split.cubes.is_empty());
        let cubes: Vec<CubeClaim> =
            split.cubes.iter().map(|cube| CubeClaim { cube: cube.route_cube(tour).unwrap(), refuted: 10 }).collect();
        let all = SplitClaims { horizon: 11, depth: split.depth, cubes };
        assert!(refuted(&cover_model(&p, &all, 11).unwrap()), "every 10-step route stands in a cube");
        let outcome = crate::driver::solve_tour(tour, &crate::driver::TourSearch::default(), &mut |_| {}).unwrap();
        let Some(crate::driver::Solution::Route(route)) = outcome.solution else { panic!("a route exists") };
        let mut squares = route.starts.clone();
        let mut touched: Vec<Square> = squares.clone();
        for step in route.steps.iter().take(split.depth) {
            for jump in step {
                squares[jump.knight] = jump.to;
            }
            touched.extend(&squares);
        }
        let board = &tour.board;
        let its = RouteCube::Reached {
            squares: squares.iter().map(|&s| board.name(s)).collect(),
            touched: tour.targets.iter().filter(|t| touched.contains(t)).map(|&t| board.name(t)).collect(),
        };
        let mut fewer = all.clone();
        fewer.cubes.retain(|claim| claim.cube != its);
        assert_eq!(fewer.cubes.len() + 1, all.cubes.len(), "the route's cube is one of the split's");
        assert!(!refuted(&cover_model(&p, &fewer, 11).unwrap()), "the route stands outside the cubes left");
    }

    #[test]
    fn a_cube_of_another_family_or_off_the_board_is_refused() {
        let p = guarini();
        let reached = RouteCube::Reached { squares: vec!["a1".into()], touched: vec![] };
        assert!(cube_model(&p, 16, 1, &CubeClaim { cube: reached, refuted: 15 }).is_err());
        let off = RouteCube::Position(vec!["0:Na9".into(), "0:Nc1".into(), "1:Na3".into(), "1:Nc3".into()]);
        assert!(cube_model(&p, 16, 1, &CubeClaim { cube: off, refuted: 15 }).is_err());
        let past = SplitClaims { horizon: 16, depth: 1, cubes: vec![] };
        assert!(cover_model(&p, &past, 17).is_err(), "a value past the horizon");
        assert!(cover_model(&p, &SplitClaims { depth: 17, ..past }, 16).is_err(), "a depth past the horizon");
    }
}

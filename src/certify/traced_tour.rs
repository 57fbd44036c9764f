//! The certified horizon search of a lone knight's tour from any square, targets in any order,
//! fewest moves: the search is its own certificate.
//!
//! The search asks horizon `h = 0, 1, …` on one CaDiCaL whose every learned clause is traced
//! in LRAT ([`super::lrat::Traced`]), over an encoding that notes why each of its clauses holds
//! ([`TourEncoding::logged`]; at-most-one pairwise, no distance-to-go and no count-to-go, whose
//! derivations are still to come). Once horizon `v` is reachable, the proof is written against
//! the certified model of at most `v` moves ([`crate::encodings::linear::tour_model_at_most`]):
//!
//! 1. the route, logged as the solution, and the objective-improving constraint;
//! 2. the search's variables: a square at a time is the model's variable; "target `j` touched
//!    by `t`", "the knight starts on colour 1" and each horizon's goal switch ("every target
//!    touched by `h`") are defined by `red` steps;
//! 3. each clause of the search, in the order the solver took it: a row of the model, a
//!    definition, or a `rup` step with the rows as hints. A clause of step `t`'s jumps holds
//!    once the knight has jumped in every step up to `t`, so it is stated with `~moved_t`;
//! 4. CaDiCaL's lemmas, call by call, each weakened by the highest `~moved_t` among its hints
//!    ([`super::lrat::Weakening`]); after the call that refutes horizon `h`, the clause
//!    `~switch_h \/ ~moved_h` by unit propagation;
//! 5. the chain: a knight that does not jump in step `h + 1` never jumps again, so by the
//!    model's rows every target it touches is touched by `h`, and `moved_{h+1} \/ switch_h`
//!    follows; with step 4, `~moved_{h+1}` gives `~moved_h`, from `~moved_v` (the improving
//!    constraint) down to the empty clause.

use std::io::Write;
use std::time::Instant;

use pigeons::{AbsConstraintId, Conclusion, ConstraintId, OutputGuarantee, Proof, VarLike};
use rustsat::instances::{BasicVarManager, Cnf, ManageVars};
use rustsat::types::{Clause, Lit, Var};

use super::lrat::{Traced, Translator, Weakening};
use super::prove::{measure, ProofFigures, Refuter};
use super::CertifyError;
use crate::driver::{Event, Query, Solution, StepStats};
use crate::encodings::check::replay_tour;
use crate::encodings::encode::tour::{TourClause, TourEncoding, TourOptions};
use crate::encodings::encode::{AtMostOne, HorizonEncoding as _};
use crate::encodings::geometry::Square;
use crate::encodings::linear::{tour_model_at_most, Relation, TourModel};
use crate::encodings::puzzle::tour::{Route, TourObjective, TourPuzzle, VisitOrder};
use crate::solver::Answer;

/// Whether the search of `puzzle` is certified as it runs: a lone knight that may start on any
/// safe square (of both colours), targets in any order, fewest moves.
pub fn applies(puzzle: &TourPuzzle) -> bool {
    let [knight] = puzzle.knights.as_slice() else { return false };
    let candidates = knight.candidates();
    let colours = |c: usize| candidates.iter().any(|&s| colour(puzzle, s) == c);
    puzzle.order == VisitOrder::Any
        && puzzle.objective == TourObjective::Moves
        && !puzzle.targets.is_empty()
        && candidates.len() == puzzle.safe_squares().len()
        && colours(0)
        && colours(1)
}

/// The fewest moves the colour argument allows ([`super::colour`]): a knight starting on colour
/// `X` stands on `X` at even times and on the other colour at odd ones, so the targets of each
/// kind need as many times of theirs, the start's time 0 included; the knight starts on the
/// colour that needs fewer moves.
pub fn colour_bound(puzzle: &TourPuzzle) -> usize {
    let targets: Vec<usize> = puzzle.targets.iter().map(|&s| colour(puzzle, s)).collect();
    let starts = puzzle.knights.first().map(|k| k.candidates()).unwrap_or_default();
    let mut best = usize::MAX;
    for start in [0, 1] {
        if !starts.iter().any(|&s| colour(puzzle, s) == start) {
            continue;
        }
        // In m moves the knight stands on its start's colour at the m / 2 + 1 even times and on
        // the other at the (m + 1) / 2 odd ones.
        let even = targets.iter().filter(|&&c| c == start).count();
        let odd = targets.len() - even;
        let moves = (2 * even).saturating_sub(2).max((2 * odd).saturating_sub(1));
        best = best.min(moves);
    }
    best
}

/// What the certified search ended with.
pub struct CertifiedTour {
    /// The shortest route and its moves, if one was found within the horizons asked.
    pub best: Option<(Route, usize)>,
    /// The proof's figures, once it is written.
    pub figures: Option<ProofFigures>,
}

/// What the solver took, in order: a clause of the encoding, or the negation of a refuted
/// horizon's switch; and where the trace of each call refuting a horizon ends.
enum Taken {
    /// A clause of the encoding (the solver's literals) and why it holds.
    Encoded(Vec<Lit>, TourClause),
    /// The call refuting horizon `h` ended at this byte of the trace; then `~switch_h` was added.
    Refuted(usize, u64),
}

/// The options of the run whose trace the proof reads: every family whose clauses the proof
/// derives, and only those.
fn options() -> TourOptions {
    TourOptions {
        at_most_one: AtMostOne::Pairwise,
        distance_to_go: false,
        count_to_go: false,
        colour_count: false,
        canonical_order: false,
    }
}

/// One run of the search: a traced solver, the encoding, and what the solver took.
struct Run {
    solver: Traced,
    pending: Cnf,
    encoding: TourEncoding,
    taken: Vec<Taken>,
    /// The encoding's clauses given to the solver so far, and the solver's clauses in all.
    logged: usize,
    clauses: usize,
}

impl Run {
    fn new(puzzle: &TourPuzzle, options: TourOptions) -> Result<Run, CertifyError> {
        let mut pending = Cnf::new();
        let encoding = TourEncoding::logged(puzzle, options, &mut pending);
        Ok(Run { solver: Traced::new()?, pending, encoding, taken: Vec::new(), logged: 0, clauses: 0 })
    }

    /// Asks horizon `h` (at least the horizon encoded so far), reporting the call to
    /// `on_event`: the route if one reaches every target in `h` moves.
    fn ask(
        &mut self,
        puzzle: &TourPuzzle,
        h: usize,
        on_event: &mut dyn FnMut(Event),
    ) -> Result<Option<Route>, CertifyError> {
        let clock = Instant::now();
        while self.encoding.horizon() < h {
            self.encoding.extend(&mut self.pending);
        }
        let switch = self.encoding.goal_switch(h, &mut self.pending);
        let log = self.encoding.log();
        for clause in std::mem::take(&mut self.pending).iter() {
            let why = *log.get(self.logged).ok_or_else(|| internal("a clause of the search without its reason"))?;
            self.logged += 1;
            self.solver.add(&clause[..])?;
            self.clauses += 1;
            self.taken.push(Taken::Encoded(clause.iter().copied().collect(), why));
        }
        on_event(Event::Trying { horizon: h, query: Query::Goal });
        let reachable = self.solver.solve(&[switch])?;
        on_event(Event::Step(StepStats {
            horizon: h,
            query: Query::Goal,
            variables: self.encoding.n_vars(),
            clauses: self.clauses,
            conflicts: None,
            seconds: clock.elapsed().as_secs_f64(),
            result: if reachable { Answer::Sat } else { Answer::Unsat },
            answered_by: None,
            thread: None,
        }));
        if reachable {
            let route = self.encoding.decode(h, |lit| self.solver.value(lit));
            replay_tour(puzzle, &route).map_err(|e| internal(format!("the certified search's route: {e}")))?;
            return Ok(Some(route));
        }
        self.taken.push(Taken::Refuted(h, self.solver.position()?));
        self.solver.add(&[!switch])?;
        self.clauses += 1;
        Ok(None)
    }
}

/// Searches `puzzle` ([`applies`]) horizon by horizon up to `max_horizon`, reporting to
/// `on_event` as the plain search does, and writes the proof of the optimum into `writer`.
///
/// The colour argument's bound ([`colour_bound`]) is asked first: if a route reaches it, that
/// argument is the whole proof. Otherwise a second run asks every horizon from 0 in turn, as
/// the plain search does (a refutation of horizon `h` holds for a knight that stops after `h`
/// moves only if the solver held no step beyond `h`).
pub fn search<W: Write>(
    puzzle: &TourPuzzle,
    max_horizon: usize,
    writer: W,
    on_event: &mut dyn FnMut(Event),
) -> Result<CertifiedTour, CertifyError> {
    let started = Instant::now();
    if let Some(reason) = puzzle.obstruction() {
        on_event(Event::Infeasible(reason));
        return Ok(CertifiedTour { best: None, figures: None });
    }
    let bound = colour_bound(puzzle).min(max_horizon);
    on_event(Event::Bound(bound));
    // Its trace is never read, but the plain search's encoding was slower to reach this
    // horizon at once (queen e5, 9x9: 18 s against 5.5 s).
    if let Some(route) = Run::new(puzzle, options())?.ask(puzzle, bound, on_event)? {
        on_event(Event::Solution { value: bound, solution: Solution::Route(route.clone()) });
        // The colour argument alone proves it: the proof needs no trace.
        let model = tour_model_at_most(puzzle, bound);
        let argument = super::tour_model::colour_argument(&model, puzzle);
        let solution = model.assignment(puzzle, &route).map_err(internal)?;
        let mut figures =
            super::prove::prove_optimal(&model.model, &solution, argument.as_ref(), Refuter::Cadical, writer)?;
        if figures.decided_by.is_none() {
            return Err(internal("the colour argument did not decide its own bound"));
        }
        figures.seconds = started.elapsed().as_secs_f64();
        return Ok(CertifiedTour { best: Some((route, bound)), figures: Some(figures) });
    }
    let mut run = Run::new(puzzle, options())?;
    let mut found = None;
    for h in 0..=max_horizon {
        if let Some(route) = run.ask(puzzle, h, on_event)? {
            found = Some((route, h));
            break;
        }
    }
    let Some((route, value)) = found else { return Ok(CertifiedTour { best: None, figures: None }) };
    on_event(Event::Solution { value, solution: Solution::Route(route.clone()) });
    let model = tour_model_at_most(puzzle, value);
    let mut writing = Writing::start(puzzle, &model, &route, &run.encoding, writer)?;
    // What the solver took after the last refutation serves no lemma the proof reads.
    let read = run.taken.iter().rposition(|step| matches!(step, Taken::Refuted(..))).map_or(0, |last| last + 1);
    for step in &run.taken[..read] {
        match step {
            Taken::Encoded(clause, why) => writing.derive(clause, *why)?,
            Taken::Refuted(h, end) => writing.refuted(*h, *end, &mut run.solver)?,
        }
    }
    let empty = writing.chain(value)?;
    let range = isize::try_from(writing.opb_value).map_err(|_| internal("value out of range"))?;
    let conclusion = Conclusion::<Var>::Bounds { range: range..range + 1, lb_id: Some(empty.into()), ub_sol: None };
    let figures = ProofFigures {
        opb_value: writing.opb_value,
        rows: writing.rows,
        clauses: run.clauses,
        variables: writing.vars.n_used(),
        lemmas: writing.translator.count,
        seconds: started.elapsed().as_secs_f64(),
        from_search: true,
        horizons: Some(value),
        refuter: Some(Refuter::Cadical),
        ..ProofFigures::default()
    };
    let mut writer = writing.proof.conclude(OutputGuarantee::None, &conclusion)?;
    writer.flush()?;
    Ok(CertifiedTour { best: Some((route, value)), figures: Some(figures) })
}

fn internal(message: impl std::fmt::Display) -> CertifyError {
    CertifyError::Internal(format!("certifying the tour search: {message}"))
}

/// The colour of a square: 0 for the colour of a1.
fn colour(puzzle: &TourPuzzle, square: Square) -> usize {
    (puzzle.board.file(square) + puzzle.board.rank(square)) % 2
}

/// The variable "a target touched by time `t`" and its definitions.
#[derive(Clone, Copy)]
struct Touched {
    lit: Lit,
    /// `T(t) -> T(t-1) \/ at(target, t)`.
    first: AbsConstraintId,
    /// `T(t-1) -> T(t)` (none at `t = 0`).
    kept: Option<AbsConstraintId>,
    /// `at(target, t) -> T(t)`.
    stood: Option<AbsConstraintId>,
}

/// The proof being written, and what it has defined so far.
struct Writing<'a, W: Write> {
    proof: Proof<W>,
    translator: Translator,
    vars: BasicVarManager,
    puzzle: &'a TourPuzzle,
    model: &'a TourModel,
    /// The model's variable of the knight on each square, by time.
    at: Vec<Vec<Option<usize>>>,
    /// The encoding's safe cells, as square indices.
    cells: Vec<usize>,
    /// Each cell's neighbours a jump away, as cells.
    neighbours: Vec<Vec<usize>>,
    /// The number of each row in VeriPB's database (an equality's `<=` half one more).
    row_ids: Vec<usize>,
    rows: usize,
    opb_value: i64,
    improving: AbsConstraintId,
    /// "The knight starts on colour 1": its variable and definition, `~D \/ (starts on a
    /// square of colour 1)` and, per square of colour 1, `D \/ ~at(s, 0)`.
    dark: Option<(Lit, AbsConstraintId, Vec<Option<AbsConstraintId>>)>,
    /// `touched[t][j]`: "target `j` touched by `t`".
    touched: Vec<Vec<Touched>>,
    /// `switches[h]`: the goal switch of horizon `h`, its definition `switch \/ (a target not
    /// touched by h)`, and per target `~switch \/ T(h, j)`.
    switches: Vec<Option<(Lit, AbsConstraintId, Vec<AbsConstraintId>)>>,
    /// `colours[t][cell]`: the clause tying the knight on `cell` after step `t` to its start colour.
    colours: Vec<Vec<Option<AbsConstraintId>>>,
    /// `refuted[h]`: the clause `~switch_h \/ ~moved_h`.
    refuted: Vec<Option<AbsConstraintId>>,
}

impl<'a, W: Write> Writing<'a, W> {
    /// Starts the proof: the route as the solution, and the search's literals of squares named.
    fn start(
        puzzle: &'a TourPuzzle,
        model: &'a TourModel,
        route: &Route,
        encoding: &TourEncoding,
        writer: W,
    ) -> Result<Self, CertifyError> {
        let solution = model.assignment(puzzle, route).map_err(internal)?;
        let (_, opb_value, rows) = measure(&model.model, &solution)?;
        let mut proof = Proof::new(writer, rows, true)?;
        proof.comment(&model.model.title)?;
        proof.comment(&"the certified horizon search: its route, its clauses derived, its trace")?;
        let improving =
            proof.improve_solution((0..solution.len()).map(|i| super::derive::var(i).axiom(!solution[i])))?;
        let n = u32::try_from(model.model.variables.len()).map_err(|_| internal("too many variables"))?;
        let mut row_ids = Vec::with_capacity(model.model.constraints.len());
        let mut id = 1;
        for row in &model.model.constraints {
            row_ids.push(id);
            id += if row.relation == Relation::Equal { 2 } else { 1 };
        }
        let cells: Vec<usize> = encoding.cells().iter().map(|s| s.index()).collect();
        let mut cell_of = vec![None; puzzle.board.area()];
        for (c, &s) in cells.iter().enumerate() {
            cell_of[s] = Some(c);
        }
        let neighbours = cells
            .iter()
            .map(|&s| puzzle.knight_moves(Square(s as u16)).iter().filter_map(|m| cell_of[m.index()]).collect())
            .collect();
        let at = model.knight_at(0);
        let moved: Vec<Lit> = model.moved_of(0).iter().map(|&v| super::derive::var(v).pos_lit()).collect();
        let after = model.rows().after.iter().map(|row| AbsConstraintId::new(row_ids[row[0]])).collect();
        // The search's literals of squares are the model's variables.
        let mut rename = vec![None; encoding.n_vars() as usize];
        for (t, layer) in at.iter().enumerate() {
            for (c, &s) in cells.iter().enumerate() {
                if let (Some(lit), Some(var)) = (encoding.cell_literal(t, 0, c), layer[s]) {
                    rename[lit.var().idx()] = Some(super::derive::var(var).pos_lit());
                }
            }
        }
        let mut weakening = Weakening::default();
        (weakening.rename, weakening.moved, weakening.after) = (rename, moved, after);
        Ok(Writing {
            proof,
            translator: Translator::weakened(weakening),
            vars: BasicVarManager::from_next_free(Var::new(n)),
            puzzle,
            model,
            at,
            cells,
            neighbours,
            row_ids,
            rows,
            opb_value,
            improving,
            dark: None,
            touched: Vec::new(),
            switches: Vec::new(),
            colours: Vec::new(),
            refuted: Vec::new(),
        })
    }

    fn weakening(&mut self) -> &mut Weakening {
        self.translator.weakening.get_or_insert_with(Weakening::default)
    }

    /// The model's literal "the knight on `cell` after step `t`".
    fn at(&self, t: usize, cell: usize) -> Result<Lit, CertifyError> {
        let var = self.at.get(t).and_then(|layer| layer[self.cells[cell]]);
        var.map(|v| super::derive::var(v).pos_lit()).ok_or_else(|| internal(format!("no square {cell} at time {t}")))
    }

    fn moved(&self, t: usize) -> Lit {
        super::derive::var(self.model.moved_of(0)[t - 1]).pos_lit()
    }

    /// Row `i`'s number (its `>=` half for an equality).
    fn row(&self, i: usize) -> ConstraintId {
        AbsConstraintId::new(self.row_ids[i]).into()
    }

    /// The `<=` half of equality row `i`.
    fn row_at_most(&self, i: usize) -> ConstraintId {
        AbsConstraintId::new(self.row_ids[i] + 1).into()
    }

    fn name(&mut self, solver: Lit, proof: Lit) {
        let rename = &mut self.weakening().rename;
        if rename.len() <= solver.var().idx() {
            rename.resize(solver.var().idx() + 1, None);
        }
        rename[solver.var().idx()] = Some(if solver.is_pos() { proof } else { !proof });
    }

    fn rup(&mut self, lits: &[Lit], hints: &[ConstraintId]) -> Result<AbsConstraintId, CertifyError> {
        let clause: Clause = lits.iter().copied().collect();
        Ok(self.proof.reverse_unit_prop(&clause, hints.iter().copied())?)
    }

    fn define(&mut self, lits: &[Lit], var: Lit, value: bool) -> Result<AbsConstraintId, CertifyError> {
        let clause: Clause = lits.iter().copied().collect();
        Ok(self.proof.redundant(&clause, [var.var().substitute_fixed(value)], None)?)
    }

    /// The clause the search took, `clause`, from the model; checked against the clause its
    /// reason `why` names.
    fn derive(&mut self, clause: &[Lit], why: TourClause) -> Result<(), CertifyError> {
        let (origin, level, expected) = match why {
            TourClause::SomeCell(t) => {
                let lits = (0..self.cells.len()).map(|c| self.at(t, c)).collect::<Result<Vec<_>, _>>()?;
                (AbsConstraintId::new(self.row_ids[self.model.one_rows()[t]]), 0, lits)
            }
            TourClause::OneCell(t) => {
                let row = AbsConstraintId::new(self.row_ids[self.model.one_rows()[t]] + 1);
                let lits: Vec<Lit> = clause.iter().map(|&l| self.renamed(l)).collect::<Result<_, _>>()?;
                (row, 0, lits)
            }
            TourClause::Colour(t, cell) => self.colour(t, cell, clause)?,
            TourClause::Came(t, cell) => {
                let here = self.at(t, cell)?;
                let mut lits = vec![!here];
                for &d in &self.neighbours[cell] {
                    lits.push(self.at(t - 1, d)?);
                }
                let s = self.cells[cell];
                let rows = &self.model.rows();
                let (stay, reach) = (rows.stay[t - 1][0][s], rows.reach[t - 1][0][s]);
                let hints: Vec<ConstraintId> = [stay, reach].into_iter().flatten().map(|i| self.row(i)).collect();
                let mut weakened = vec![!self.moved(t)];
                weakened.extend(&lits);
                (self.rup(&weakened, &hints)?, t, lits)
            }
            TourClause::Goes(t, cell) => {
                let was = self.at(t - 1, cell)?;
                let mut lits = vec![!was];
                for &d in &self.neighbours[cell] {
                    lits.push(self.at(t, d)?);
                }
                let one = self.model.one_rows();
                let rows = self.model.rows();
                let s = self.cells[cell];
                let mut hints = vec![self.row_at_most(one[t - 1])];
                hints.extend(rows.stay[t - 1][0][s].map(|i| self.row(i)));
                for (e, &square) in self.cells.iter().enumerate() {
                    if e != cell && !self.neighbours[cell].contains(&e) {
                        hints.extend(rows.reach[t - 1][0][square].map(|i| self.row(i)));
                    }
                }
                hints.push(self.row(one[t]));
                let mut weakened = vec![!self.moved(t)];
                weakened.extend(&lits);
                (self.rup(&weakened, &hints)?, t, lits)
            }
            TourClause::Touched(t, j) => {
                let Touched { lit, first, .. } = self.touch(t, j, clause)?;
                let target = self.target_cell(j)?;
                let mut lits = vec![!lit];
                if t > 0 {
                    lits.push(self.touched[t - 1][j].lit);
                }
                lits.push(self.at(t, target)?);
                (first, 0, lits)
            }
            TourClause::Kept(t, j) => {
                let Touched { lit, kept, .. } = self.touched[t][j];
                let kept = kept.ok_or_else(|| internal("a target kept touched at the start"))?;
                (kept, 0, vec![!self.touched[t - 1][j].lit, lit])
            }
            TourClause::Goal(h, j) => {
                if self.switches.get(h).is_none_or(Option::is_none) {
                    self.switch(h, clause)?;
                }
                let (switch, _, each) = self.switches[h].as_ref().ok_or_else(|| internal("no switch"))?;
                (each[j], 0, vec![!*switch, self.touched[h][j].lit])
            }
            TourClause::Other => return Err(internal("a clause whose reason the proof cannot state")),
        };
        let mut renamed: Vec<Lit> = clause.iter().map(|&l| self.renamed(l)).collect::<Result<_, _>>()?;
        let mut expected = expected;
        renamed.sort_unstable();
        expected.sort_unstable();
        if renamed != expected {
            return Err(internal(format!("the search's clause {clause:?} is not the one {why:?} states")));
        }
        self.translator.origins.push(Some(origin));
        let weakening = self.weakening();
        weakening.levels.push(level);
        weakening.ceiling = weakening.ceiling.max(level);
        Ok(())
    }

    /// The proof's literal for the search's literal `lit`.
    fn renamed(&self, lit: Lit) -> Result<Lit, CertifyError> {
        let rename = self.translator.weakening.as_ref().map(|w| &w.rename);
        let proof = rename.and_then(|r| r.get(lit.var().idx()).copied().flatten());
        let proof = proof.ok_or_else(|| internal(format!("the search's variable {} has no name", lit.var())))?;
        Ok(if lit.is_pos() { proof } else { !proof })
    }

    fn target_cell(&self, j: usize) -> Result<usize, CertifyError> {
        let square = self.puzzle.targets[j].index();
        self.cells.iter().position(|&s| s == square).ok_or_else(|| internal("a target off the safe squares"))
    }

    /// Defines "target `j` touched by `t`" as `T(t-1) \/ at(target, t)`, named after the
    /// search's literal in `clause` (its first).
    fn touch(&mut self, t: usize, j: usize, clause: &[Lit]) -> Result<Touched, CertifyError> {
        while self.touched.len() <= t {
            self.touched.push(Vec::new());
        }
        if self.touched[t].len() != j {
            return Err(internal("targets touched out of order"));
        }
        let lit = self.vars.new_var().pos_lit();
        let searched = !*clause.first().ok_or_else(|| internal("an empty clause"))?;
        self.name(searched, lit);
        let here = self.at(t, self.target_cell(j)?)?;
        let earlier = (t > 0).then(|| self.touched[t - 1][j].lit);
        let mut first = vec![!lit];
        first.extend(earlier);
        first.push(here);
        let first = self.define(&first, lit, false)?;
        let kept = match earlier {
            Some(earlier) => Some(self.define(&[!earlier, lit], lit, true)?),
            None => None,
        };
        let stood = Some(self.define(&[!here, lit], lit, true)?);
        self.touched[t].push(Touched { lit, first, kept, stood });
        Ok(self.touched[t][j])
    }

    /// Defines the goal switch of horizon `h` as "every target touched by `h`", named after the
    /// search's literal in `clause` (its first, negated).
    fn switch(&mut self, h: usize, clause: &[Lit]) -> Result<(), CertifyError> {
        let lit = self.vars.new_var().pos_lit();
        let searched = !*clause.first().ok_or_else(|| internal("an empty clause"))?;
        self.name(searched, lit);
        let touched: Vec<Lit> = self.touched[h].iter().map(|t| t.lit).collect();
        let mut some_not = vec![lit];
        some_not.extend(touched.iter().map(|&t| !t));
        let all = self.define(&some_not, lit, true)?;
        let mut each = Vec::with_capacity(touched.len());
        for &t in &touched {
            each.push(self.define(&[!lit, t], lit, false)?);
        }
        if self.switches.len() <= h {
            self.switches.resize(h + 1, None);
        }
        self.switches[h] = Some((lit, all, each));
        Ok(())
    }

    /// The clause "on `cell` after step `t`, the start had the colour parity gives", weakened
    /// by `~moved_t`: from the definition of the start's colour at `t = 0`, else from the
    /// same clauses of step `t - 1` for the cells it came from.
    fn colour(&mut self, t: usize, cell: usize, clause: &[Lit]) -> Result<(AbsConstraintId, usize, Vec<Lit>), CertifyError> {
        if self.dark.is_none() {
            let lit = self.vars.new_var().pos_lit();
            let searched = clause.get(1).ok_or_else(|| internal("a colour clause of one literal"))?;
            self.name(searched.var().pos_lit(), lit);
            let dark_cells: Vec<usize> =
                (0..self.cells.len()).filter(|&c| colour(self.puzzle, Square(self.cells[c] as u16)) == 1).collect();
            let mut some = vec![!lit];
            for &c in &dark_cells {
                some.push(self.at(0, c)?);
            }
            let some = self.define(&some, lit, false)?;
            let mut each = vec![None; self.cells.len()];
            for &c in &dark_cells {
                let here = self.at(0, c)?;
                each[c] = Some(self.define(&[lit, !here], lit, true)?);
            }
            self.dark = Some((lit, some, each));
        }
        let (dark, some, ref each) = *self.dark.as_ref().ok_or_else(|| internal("no start colour"))?;
        let square = Square(self.cells[cell] as u16);
        let started_dark = (colour(self.puzzle, square) + t) % 2 == 1;
        let here = self.at(t, cell)?;
        let lits = vec![!here, if started_dark { dark } else { !dark }];
        let origin = if t == 0 {
            match each[cell] {
                Some(id) if started_dark => id,
                _ => self.rup(&lits, &[self.row_at_most(self.model.one_rows()[0]), some.into()])?,
            }
        } else {
            let rows = self.model.rows();
            let s = self.cells[cell];
            let mut hints: Vec<ConstraintId> = rows.stay[t - 1][0][s].map(|i| self.row(i)).into_iter().collect();
            if t >= 2 {
                hints.push(self.row(rows.after[t - 2][0]));
            }
            for &d in &self.neighbours[cell] {
                let id = self.colours.get(t - 1).and_then(|layer| layer[d]);
                hints.push(id.ok_or_else(|| internal("a colour clause before its predecessors"))?.into());
            }
            hints.extend(rows.reach[t - 1][0][s].map(|i| self.row(i)));
            let mut weakened = vec![!self.moved(t)];
            weakened.extend(&lits);
            self.rup(&weakened, &hints)?
        };
        while self.colours.len() <= t {
            self.colours.push(vec![None; self.cells.len()]);
        }
        self.colours[t][cell] = Some(origin);
        Ok((origin, t, lits))
    }

    /// The call refuting horizon `h`, traced up to byte `end`: its lemmas, then `~switch_h \/
    /// ~moved_h` by unit propagation, which also stands for the clause `~switch_h` the search
    /// added after it.
    fn refuted(&mut self, h: usize, end: u64, solver: &mut Traced) -> Result<(), CertifyError> {
        self.proof.comment(&format!("CaDiCaL's lemmas up to the refutation of horizon {h}"))?;
        solver.drain_to(end, &mut self.translator, &mut self.proof)?;
        self.translator.skip_untraced();
        let switch = self.switches.get(h).and_then(|s| s.as_ref()).map(|s| s.0);
        let switch = switch.ok_or_else(|| internal("a horizon refuted without its switch"))?;
        let mut lits = vec![!switch];
        if h > 0 {
            lits.push(!self.moved(h));
        }
        let id = self.rup(&lits, &[])?;
        if self.refuted.len() <= h {
            self.refuted.resize(h + 1, None);
        }
        self.refuted[h] = Some(id);
        self.translator.origins.push(Some(id));
        let weakening = self.weakening();
        weakening.levels.push(h);
        weakening.ceiling = weakening.ceiling.max(h);
        Ok(())
    }

    /// Step 5: from `~moved_v` down to the empty clause.
    fn chain(&mut self, value: usize) -> Result<AbsConstraintId, CertifyError> {
        self.proof.comment(&"the horizons refuted, chained: a knight that stops has touched all it touches")?;
        if value == 0 {
            return self.rup(&[], &[self.improving.into()]);
        }
        let rows = self.model.rows().clone();
        let after = |t: usize| rows.after[t - 2][0];
        let mut hints: Vec<ConstraintId> = (2..=value).rev().map(|t| self.row(after(t))).collect();
        hints.push(self.improving.into());
        let mut stopped = self.rup(&[!self.moved(value)], &hints)?;
        for h in (0..value).rev() {
            // Every target touched by h, or the knight jumps in step h + 1.
            let mut touched = Vec::new();
            for j in 0..self.puzzle.targets.len() {
                let target = self.cells[self.target_cell(j)?];
                let mut hints = Vec::new();
                for t in (0..=h).rev() {
                    let Touched { kept, stood, .. } = self.touched[t][j];
                    hints.extend(stood.map(ConstraintId::from));
                    hints.extend(kept.map(ConstraintId::from));
                }
                for t in h + 2..=value {
                    hints.push(self.row(after(t)));
                }
                for t in h + 1..=value {
                    hints.extend(rows.arrive[t - 1][0][target].map(|i| self.row(i)));
                }
                hints.push(self.row(rows.reached[j]));
                let lits = [self.moved(h + 1), self.touched[h][j].lit];
                touched.push(ConstraintId::from(self.rup(&lits, &hints)?));
            }
            let (switch, all) = self.switches[h].as_ref().map(|s| (s.0, s.1)).ok_or_else(|| internal("no switch"))?;
            touched.push(all.into());
            let stops = self.rup(&[self.moved(h + 1), switch], &touched)?;
            let refuted = self.refuted.get(h).copied().flatten();
            let refuted = refuted.ok_or_else(|| internal(format!("horizon {h} was never refuted")))?;
            let hints = [stopped.into(), stops.into(), refuted.into()];
            stopped = if h == 0 { self.rup(&[], &hints)? } else { self.rup(&[!self.moved(h)], &hints)? };
        }
        Ok(stopped)
    }
}

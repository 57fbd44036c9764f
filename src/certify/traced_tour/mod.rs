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

use pigeons::{Conclusion, OutputGuarantee};
use rustsat::instances::{Cnf, ManageVars};
use rustsat::types::{Lit, Var};

use super::lrat::Traced;
use super::prove::{ProofFigures, Refuter};
use super::CertifyError;
use crate::driver::{solve_tour, Event, Query, Solution, Status, StepStats, TourSearch};
use crate::encodings::check::replay_tour;

use crate::encodings::encode::tour::{TourClause, TourEncoding, TourOptions};
use crate::encodings::encode::{AtMostOne, HorizonEncoding as _};
use crate::encodings::linear::tour_model_at_most;
use crate::encodings::puzzle::tour::{Route, TourObjective, TourPuzzle, VisitOrder};

mod writing;

use writing::{internal, Writing};

/// Whether the search of `puzzle` is certified as it runs: a lone knight that may start on any
/// safe square (of both colours), targets in any order, fewest moves.
pub fn applies(puzzle: &TourPuzzle) -> bool {
    let [knight] = puzzle.knights.as_slice() else { return false };
    let candidates = knight.candidates();
    let colours = |c: usize| candidates.iter().any(|&s| puzzle.board.colour(s) == c);
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
    let targets: Vec<usize> = puzzle.targets.iter().map(|&s| puzzle.board.colour(s)).collect();
    let starts = puzzle.knights.first().map(|k| k.candidates()).unwrap_or_default();
    let mut best = usize::MAX;
    for start in [0, 1] {
        if !starts.iter().any(|&s| puzzle.board.colour(s) == start) {
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
    fn new(puzzle: &TourPuzzle) -> Result<Run, CertifyError> {
        let mut pending = Cnf::new();
        let encoding = TourEncoding::logged(puzzle, options(), &mut pending);
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
        let (figures, seconds) = ((self.encoding.n_vars(), self.clauses), clock.elapsed().as_secs_f64());
        on_event(Event::Step(StepStats::goal(h, figures, seconds, reachable)));
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
/// The plain search first asks the horizons up to the colour argument's bound
/// ([`colour_bound`]): if a route reaches it, that argument is the whole proof. Otherwise a second run, with the encoding the proof derives, asks every horizon from
/// 0 in turn, and its trace is the proof (a refutation of horizon `h` holds for a knight that
/// stops after `h` moves only if the solver held no step beyond `h`, so the second run cannot
/// start where the first stopped).
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
    // The plain search up to the bound. (Asked at once on the traced solver, the bound took
    // queen e5, 9x9, 5.5 s and 18 s by the two encodings, and 15 s horizon by horizon, where the
    // plain search reaches it in under 4.)
    let plain = TourSearch { max_horizon: bound, ..TourSearch::default() };
    let outcome = solve_tour(puzzle, &plain, &mut |event: &Event| on_event(event.clone()))?;
    let reached = match (outcome.status, outcome.solution) {
        (Status::Optimal, Some(Solution::Route(route))) if route.moves() == bound => Some(route),
        (Status::Infeasible | Status::Unknown, None) => None,
        (status, _) => {
            return Err(internal(format!("the plain search up to the colour bound {bound} ended {status:?}")))
        }
    };
    if let Some(route) = reached {
        // The colour argument alone proves it: the proof needs no trace.
        let model = tour_model_at_most(puzzle, bound);
        let argument = crate::certify::tour_model::colour_argument(&model, puzzle);
        let solution = model.assignment(puzzle, &route).map_err(internal)?;
        let mut figures =
            crate::certify::prove::prove_optimal(&model.model, &solution, argument.as_ref(), Refuter::Cadical, writer)?;
        if figures.decided_by.is_none() {
            return Err(internal("the colour argument did not decide its own bound"));
        }
        figures.seconds = started.elapsed().as_secs_f64();
        return Ok(CertifiedTour { best: Some((route, bound)), figures: Some(figures) });
    }
    let mut run = Run::new(puzzle)?;
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

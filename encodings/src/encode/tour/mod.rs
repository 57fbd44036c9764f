//! The time-indexed encoding of tour puzzles.
//!
//! Variables: `at[t][k][c]` — knight `k` stands on safe cell `c` after `t` time steps;
//! `moved[t][k]` — knight `k` jumped in step `t` (only with several knights); `touched[t][j]` —
//! target `j` has been touched by time `t` (any order), or `progress[t][i]` — targets `0..=i` have
//! been touched in the listed order by time `t`.
//!
//! Constraints for each step `t`:
//! * each knight stands on exactly one cell (a clause and a RustSAT at-most-one encoding), and
//!   no two knights share one;
//! * a knight on `c` at `t` stood on `c` (with several knights: it waited) or a knight's move
//!   away at `t - 1`, and the converse;
//! * with one-at-a-time moves and several knights, exactly one knight moves per step, and two
//!   consecutive jumps by different knights come in one canonical order unless the second
//!   knight lands where the first one stood (swapping two such jumps changes neither the squares
//!   each knight visits nor the number of moves, so every route can be sorted that way);
//! * `touched` and `progress` only become true when a knight stands on the target.
//!
//! Variables that can never be true are not created: a knight stands on a cell at time `t` only
//! if the cell is at most `t` moves from its start over safe squares, and a lone knight, which
//! jumps at every step, only on cells of the colour it has after `t` jumps (when all its
//! candidate starts have one colour).
//!
//! The goal "every target touched by time `T`" is attached to `T` by an assumption literal
//! ([`TourEncoding::goal_switch`]), so one solver instance serves every horizon. Under the same
//! literal two redundant families, each switchable in [`TourOptions`], cut off hopeless routes:
//! an untouched target must be within reach of some knight in the steps left
//! (`distance_to_go`), and the untouched targets may not outnumber the moves left
//! (`count_to_go`; with `colour_count`, per colour against the jumps left that can land on that
//! colour: a knight changes colour at every jump, so a lone knight's colour at every time follows
//! from its start's, given or chosen, and several knights' colours are tracked by a literal per
//! knight and time). With the same colours, [`TourEncoding::moves_colour_bounds`] counts moves
//! for the fewer-moves stage of the `steps` objective.

use rustsat::encodings::CollectClauses;
use rustsat::instances::{BasicVarManager, ManageVars};
use rustsat::types::Lit;

use super::bound::ObjectiveBound;
use super::horizon::HorizonEncoding;
pub use super::tour_clause::TourClause;
use super::tour_clause::{add_as, note};

mod colours;
use super::AtMostOne;
use crate::geometry::Square;
use crate::puzzle::tour::{Jump, Route, TourPuzzle, VisitOrder};

/// Choices that change the formula but never the answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TourOptions {
    /// Encoding of "a knight stands on one cell" and "one knight per cell".
    pub at_most_one: AtMostOne,
    /// Under the goal switch: every untouched target is within reach of a knight in the steps
    /// left.
    pub distance_to_go: bool,
    /// Under the goal switch: the untouched targets are no more than the jumps left.
    pub count_to_go: bool,
    /// With `count_to_go`: count the targets of each colour against the jumps left that can
    /// land on that colour (and, for several knights, the moves of the fewer-moves stage).
    pub colour_count: bool,
    /// Several knights moving one at a time, targets in any order: of two consecutive jumps
    /// by different knights that commute, allow only the one with the lower knight first.
    pub canonical_order: bool,
}

impl Default for TourOptions {
    fn default() -> Self {
        TourOptions {
            at_most_one: AtMostOne::default(),
            distance_to_go: true,
            count_to_go: true,
            colour_count: true,
            canonical_order: true,
        }
    }
}

/// The incremental time-indexed encoding of one tour puzzle.
#[derive(Debug)]
pub struct TourEncoding {
    puzzle: TourPuzzle,
    options: TourOptions,
    /// The safe squares, indexed by cell.
    cells: Vec<Square>,
    /// Knight moves between cells.
    neighbours: Vec<Vec<usize>>,
    /// `reach[k][c]`: moves from knight `k`'s start candidates to cell `c`.
    reach: Vec<Vec<Option<usize>>>,
    /// The cell of each target.
    target_cells: Vec<usize>,
    /// `to_target[j][c]`: moves from cell `c` to target `j` (a target per cell of a 64x64
    /// board makes this table 16 million entries: kept small).
    to_target: Vec<Vec<Option<u16>>>,
    /// `within[j][d]`: cells at most `d` moves from target `j` (the last entry for any more).
    within: Vec<Vec<usize>>,
    /// Whether knights may stand still in a step (several knights).
    waits: bool,
    at: Vec<Vec<Vec<Option<Lit>>>>,
    moved: Vec<Vec<Lit>>,
    touched: Vec<Vec<Lit>>,
    /// The targets whose untouched count is bounded together: all of them, or for a lone
    /// knight on squares of one colour, those of each colour (the light ones first).
    count_classes: Vec<Vec<usize>>,
    /// A lone knight's start colour (see [`Board::colour`](crate::geometry::Board::colour)), if all its candidate starts share it: then
    /// its colour at every time is known.
    start_colour: Option<usize>,
    /// A lone knight whose candidate starts have both colours: the literal "it starts on colour
    /// 1", which decides its colour at every time.
    start_dark: Option<Lit>,
    /// Several knights, with the colour count: `on_dark[t][k]`, knight `k` stands on colour 1
    /// at time `t`.
    on_dark: Vec<Vec<Lit>>,
    /// `count_bounds[t][2 * class + with_colours]`: the totalizer over the untouched targets of
    /// the class at `t`, and (`with_colours`) over those and the knights standing on its colour.
    count_bounds: Vec<Vec<Option<ObjectiveBound>>>,
    /// `moves_bounds[t][class]`: the totalizer of [`TourEncoding::moves_colour_bounds`].
    moves_bounds: Vec<[Option<ObjectiveBound>; 2]>,
    vars: BasicVarManager,
    /// With [`TourEncoding::logged`]: why each clause written so far holds, in order.
    log: Option<Vec<TourClause>>,
}

impl TourEncoding {
    /// Starts the encoding of `puzzle` at horizon 0, writing the start into `clauses`.
    pub fn new<C: CollectClauses>(puzzle: &TourPuzzle, options: TourOptions, clauses: &mut C) -> Self {
        Self::started(puzzle, options, clauses, None)
    }

    /// [`TourEncoding::new`], noting why each clause holds ([`TourEncoding::log`]).
    pub fn logged<C: CollectClauses>(puzzle: &TourPuzzle, options: TourOptions, clauses: &mut C) -> Self {
        Self::started(puzzle, options, clauses, Some(Vec::new()))
    }

    /// Why each clause written so far holds, in the order written (empty unless
    /// [`TourEncoding::logged`]).
    pub fn log(&self) -> &[TourClause] {
        self.log.as_deref().unwrap_or_default()
    }

    /// The safe cells, in the order the clauses number them.
    pub fn cells(&self) -> &[Square] {
        &self.cells
    }

    /// The literal "the knight `k` stands on cell `cell` after step `t`", if the encoding has it.
    pub fn cell_literal(&self, t: usize, k: usize, cell: usize) -> Option<Lit> {
        *self.at.get(t)?.get(k)?.get(cell)?
    }

    /// The literal "target `j` touched by time `t`" (in order, for a listed order).
    pub fn touched_literal(&self, t: usize, j: usize) -> Option<Lit> {
        self.touched.get(t)?.get(j).copied()
    }

    /// A lone knight whose candidate starts have both colours: the literal "it starts on
    /// colour 1".
    pub fn start_dark(&self) -> Option<Lit> {
        self.start_dark
    }

    fn started<C: CollectClauses>(
        puzzle: &TourPuzzle,
        options: TourOptions,
        clauses: &mut C,
        log: Option<Vec<TourClause>>,
    ) -> Self {
        let cells = puzzle.safe_squares();
        let mut cell_of = vec![None; puzzle.board.area()];
        for (c, s) in cells.iter().enumerate() {
            cell_of[s.index()] = Some(c);
        }
        let neighbours =
            cells.iter().map(|&s| puzzle.knight_moves(s).iter().filter_map(|t| cell_of[t.index()]).collect()).collect();
        let by_cell = |distance: Vec<Option<usize>>| cells.iter().map(|s| distance[s.index()]).collect::<Vec<_>>();
        let reach = puzzle.knights.iter().map(|k| by_cell(puzzle.distances_from(k.candidates()))).collect();
        let target_cells = puzzle.targets.iter().map(|t| cell_of[t.index()].expect("targets are safe")).collect();
        let to_target: Vec<Vec<Option<u16>>> = puzzle
            .targets
            .iter()
            .map(|&t| by_cell(puzzle.distances_from(&[t])).into_iter().map(|d| d.map(saturate_u16)).collect())
            .collect();
        let within = to_target.iter().map(|distances| cumulative(distances)).collect();
        let mut encoding = TourEncoding {
            puzzle: puzzle.clone(),
            options,
            cells,
            neighbours,
            reach,
            target_cells,
            to_target,
            within,
            waits: puzzle.knights.len() > 1,
            at: Vec::new(),
            moved: Vec::new(),
            touched: Vec::new(),
            count_classes: Vec::new(),
            start_colour: None,
            start_dark: None,
            on_dark: Vec::new(),
            count_bounds: Vec::new(),
            moves_bounds: Vec::new(),
            vars: BasicVarManager::default(),
            log,
        };
        let colours: Vec<usize> = puzzle.knights[0].candidates().iter().map(|&s| puzzle.board.colour(s)).collect();
        if puzzle.knights.len() == 1 && colours.iter().all(|&c| c == colours[0]) {
            encoding.start_colour = Some(colours[0]);
        } else if puzzle.knights.len() == 1 {
            encoding.start_dark = Some(encoding.vars.new_lit());
        }
        // Counting per colour needs each knight's colour: known, decided by the start's colour
        // (a lone knight), or a literal per knight and time (several).
        if options.colour_count && puzzle.order == VisitOrder::Any {
            encoding.count_classes = (0..2)
                .map(|class| {
                    (0..puzzle.targets.len()).filter(|&j| puzzle.board.colour(puzzle.targets[j]) == class).collect()
                })
                .collect();
        } else {
            encoding.count_classes = vec![(0..puzzle.targets.len()).collect()];
        }
        encoding.add_layer(clauses);
        // Knights with the same start candidates are interchangeable: order their starts.
        for k in 1..puzzle.knights.len() {
            if puzzle.knights[k] != puzzle.knights[k - 1] || puzzle.knights[k].candidates().len() < 2 {
                continue;
            }
            let earlier: Vec<Option<Lit>> = encoding.at[0][k - 1].clone();
            for (c, lit) in encoding.at[0][k].iter().enumerate() {
                let Some(lit) = *lit else { continue };
                add_as(
                    &mut encoding.log,
                    clauses,
                    std::iter::once(!lit).chain(earlier[..c].iter().flatten().copied()),
                    TourClause::Other,
                );
            }
        }
        encoding
    }

    /// The variable manager, for encodings built on top (such as a bound on the moves).
    pub fn vars(&mut self) -> &mut BasicVarManager {
        &mut self.vars
    }

    /// The literal "knight `k` stands on `square` at time `t`" (`t` up to the horizon built),
    /// or `None` where the encoding has none: the knight cannot stand there then.
    pub fn position(&self, t: usize, k: usize, square: Square) -> Option<Lit> {
        let cell = self.cells.iter().position(|&s| s == square)?;
        *self.at.get(t)?.get(k)?.get(cell)?
    }

    /// The literals "knight `k` starts on `starts[k]`", one per knight (a route's starts);
    /// `None` if a knight may not start there.
    pub fn start_literals(&self, starts: &[Square]) -> Option<Vec<Lit>> {
        let lit = |k: usize, square: &Square| {
            let cell = self.cells.iter().position(|s| s == square)?;
            self.at[0].get(k)?[cell]
        };
        starts.iter().enumerate().map(|(k, square)| lit(k, square)).collect()
    }

    /// The literals "knight `k` jumped in step `t`" for every step up to `horizon`; their count
    /// is the number of moves. Empty for a lone knight, which jumps at every step.
    pub fn move_literals(&self, horizon: usize) -> Vec<Lit> {
        self.moved.iter().take(horizon + 1).flatten().copied().collect()
    }

    /// Creates the variables and clauses of time `t = horizon + 1` (or 0 for the first layer).
    fn add_layer<C: CollectClauses>(&mut self, clauses: &mut C) {
        let t = self.at.len();
        let knights = self.puzzle.knights.len();
        // A lone knight whose colour at time `t` is known stands only on cells of that colour.
        let lone = !self.waits && self.start_colour.is_some();
        let layer: Vec<Vec<Option<Lit>>> = (0..knights)
            .map(|k| {
                (0..self.cells.len())
                    .map(|c| match self.reach[k][c] {
                        Some(d) if d <= t && (!lone || (t - d) % 2 == 0) => Some(self.vars.new_lit()),
                        _ => None,
                    })
                    .collect()
            })
            .collect();
        for lits in &layer {
            let lits: Vec<Lit> = lits.iter().flatten().copied().collect();
            add_as(&mut self.log, clauses, lits.iter().copied(), TourClause::SomeCell(t));
            let before = clauses.n_clauses();
            self.options.at_most_one.encode(&lits, clauses, &mut self.vars);
            note(&mut self.log, clauses, before, TourClause::OneCell(t));
        }
        if knights > 1 {
            for c in 0..self.cells.len() {
                let lits: Vec<Lit> = layer.iter().filter_map(|l| l[c]).collect();
                let before = clauses.n_clauses();
                self.options.at_most_one.encode(&lits, clauses, &mut self.vars);
                note(&mut self.log, clauses, before, TourClause::Other);
            }
        }
        self.colour_layer(t, &layer, clauses);
        if t > 0 {
            self.link(&layer, clauses);
        }
        self.at.push(layer);
        self.count_bounds.push(vec![None, None, None, None]);
        let touched = self.touch(clauses);
        self.touched.push(touched);
    }

    /// The transition from the last layer to `next`: jumps, waits and the move counters.
    fn link<C: CollectClauses>(&mut self, next: &[Vec<Option<Lit>>], clauses: &mut C) {
        let t = self.at.len();
        let before = self.at.last().expect("a layer to link to");
        let log = &mut self.log;
        let mut moved = Vec::new();
        for (k, now) in next.iter().enumerate() {
            let was = &before[k];
            for c in 0..self.cells.len() {
                // Forward: where the knight is now, it was (or came from) a move away.
                if let Some(lit) = now[c] {
                    let mut clause = vec![!lit];
                    clause.extend(self.neighbours[c].iter().filter_map(|&d| was[d]));
                    if self.waits {
                        clause.extend(was[c]);
                    }
                    add_as(log, clauses, clause, TourClause::Came(t, c));
                }
                // Backward: where the knight was, it stays or jumps a move away.
                if let Some(lit) = was[c] {
                    let mut clause = vec![!lit];
                    clause.extend(self.neighbours[c].iter().filter_map(|&d| now[d]));
                    if self.waits {
                        clause.extend(now[c]);
                    }
                    add_as(log, clauses, clause, TourClause::Goes(t, c));
                }
            }
            if self.waits {
                let m = self.vars.new_lit();
                for c in 0..self.cells.len() {
                    match (was[c], now[c]) {
                        (Some(a), Some(b)) => {
                            add_as(log, clauses, [!m, !a, !b], TourClause::Other);
                            add_as(log, clauses, [m, !a, b], TourClause::Other);
                            add_as(log, clauses, [m, a, !b], TourClause::Other);
                        }
                        (Some(a), None) => add_as(log, clauses, [m, !a], TourClause::Other),
                        (None, Some(b)) => add_as(log, clauses, [m, !b], TourClause::Other),
                        (None, None) => {}
                    }
                }
                moved.push(m);
            }
        }
        if self.waits && !self.puzzle.objective.parallel() {
            add_as(&mut self.log, clauses, moved.iter().copied(), TourClause::Other);
            let before = clauses.n_clauses();
            self.options.at_most_one.encode(&moved, clauses, &mut self.vars);
            note(&mut self.log, clauses, before, TourClause::Other);
        }
        if self.moved.is_empty() {
            self.moved.push(Vec::new());
        }
        let t = self.moved.len();
        let sorted = self.options.canonical_order && self.puzzle.order == VisitOrder::Any;
        if sorted && self.waits && !self.puzzle.objective.parallel() && t >= 2 {
            // Knight `b` jumps in step t-1, then knight `a < b` in step t: allowed only if `a`
            // lands where `b` stood before its jump (otherwise the two jumps commute).
            for b in 1..moved.len() {
                for (a, &jumped) in moved.iter().enumerate().take(b) {
                    for (c, lit) in next[a].iter().enumerate() {
                        let Some(lit) = *lit else { continue };
                        let mut clause = vec![!self.moved[t - 1][b], !jumped, !lit];
                        clause.extend(self.at[t - 2][b][c]);
                        add_as(&mut self.log, clauses, clause, TourClause::Other);
                    }
                }
            }
        }
        self.moved.push(moved);
    }

    /// The `touched` (or `progress`) literals of the newest layer.
    fn touch<C: CollectClauses>(&mut self, clauses: &mut C) -> Vec<Lit> {
        let t = self.at.len() - 1;
        let mut lits = Vec::with_capacity(self.target_cells.len());
        for (j, &cell) in self.target_cells.iter().enumerate() {
            let lit = self.vars.new_lit();
            let here: Vec<Lit> = self.at[t].iter().filter_map(|l| l[cell]).collect();
            let earlier = t.checked_sub(1).map(|p| self.touched[p][j]);
            match self.puzzle.order {
                VisitOrder::Any => {
                    let clause = std::iter::once(!lit).chain(earlier).chain(here.iter().copied());
                    add_as(&mut self.log, clauses, clause, TourClause::Touched(t, j));
                }
                VisitOrder::Listed => {
                    // progress[t][j] -> progress[t-1][j] or (progress[t][j-1] and a knight on j).
                    if let Some(&previous) = lits.last() {
                        add_as(&mut self.log, clauses, [!lit, previous], TourClause::Other);
                    }
                    let clause = std::iter::once(!lit).chain(earlier).chain(here.iter().copied());
                    add_as(&mut self.log, clauses, clause, TourClause::Other);
                }
            }
            if let Some(earlier) = earlier {
                // Once touched, touched for good (true in every model, and it helps propagation).
                let why = if self.puzzle.order == VisitOrder::Any { TourClause::Kept(t, j) } else { TourClause::Other };
                add_as(&mut self.log, clauses, [!earlier, lit], why);
            }
            lits.push(lit);
        }
        lits
    }
}

impl HorizonEncoding for TourEncoding {
    type Solution = Route;

    /// The number of time steps encoded.
    fn horizon(&self) -> usize {
        self.at.len() - 1
    }

    /// The number of variables used so far.
    fn n_vars(&self) -> u32 {
        self.vars.n_used()
    }

    /// Appends time step `horizon + 1`.
    fn extend<C: CollectClauses>(&mut self, clauses: &mut C) {
        self.add_layer(clauses);
    }

    /// A fresh literal that, assumed true, demands every target touched by time `horizon`
    /// (in the listed order if the puzzle has one) and adds the redundant constraints that
    /// depend on the steps left.
    fn goal_switch<C: CollectClauses>(&mut self, horizon: usize, clauses: &mut C) -> Lit {
        let switch = self.vars.new_lit();
        let last = self.touched[horizon].len() - 1;
        match self.puzzle.order {
            VisitOrder::Any => {
                for (j, &lit) in self.touched[horizon].iter().enumerate() {
                    add_as(&mut self.log, clauses, [!switch, lit], TourClause::Goal(horizon, j));
                }
            }
            VisitOrder::Listed => {
                add_as(&mut self.log, clauses, [!switch, self.touched[horizon][last]], TourClause::Other)
            }
        }
        for t in 0..horizon {
            let left = horizon - t;
            if self.options.distance_to_go {
                for j in 0..self.target_cells.len() {
                    let mut clause = vec![!switch, self.touched[t][j]];
                    for layer in &self.at[t] {
                        for (c, lit) in layer.iter().enumerate() {
                            if lit.is_some() && self.to_target[j][c].is_some_and(|d| usize::from(d) <= left) {
                                clause.extend(*lit);
                            }
                        }
                    }
                    add_as(&mut self.log, clauses, clause, TourClause::Other);
                }
            }
            if self.options.count_to_go && self.puzzle.order == VisitOrder::Any {
                for class in 0..self.count_classes.len() {
                    self.count_left(switch, t, horizon, class, clauses);
                }
            }
        }
        switch
    }

    /// The distance-to-go clauses dominate: one per target and earlier time, each up to every
    /// cell of every knight.
    fn goal_switch_size(&self, horizon: usize) -> Option<usize> {
        let knights = self.puzzle.knights.len();
        let mut literals = self.target_cells.len() + 1;
        if self.options.distance_to_go {
            for within in &self.within {
                for left in 1..=horizon {
                    let cells = within[left.min(within.len() - 1)];
                    literals = literals.saturating_add(2 + knights * cells);
                }
            }
        }
        Some(literals)
    }

    /// The route of a model up to `horizon`; `value` tells a literal's value in the model.
    fn decode(&self, horizon: usize, value: impl Fn(Lit) -> bool) -> Route {
        let square_at = |t: usize, k: usize| {
            let cell = self.at[t][k].iter().position(|lit| lit.is_some_and(&value));
            self.cells[cell.expect("every knight stands on a cell")]
        };
        let knights = self.puzzle.knights.len();
        let starts: Vec<Square> = (0..knights).map(|k| square_at(0, k)).collect();
        let mut now = starts.clone();
        let mut steps = Vec::new();
        for t in 1..=horizon {
            let mut jumps = Vec::new();
            for (k, from) in now.iter_mut().enumerate() {
                let to = square_at(t, k);
                if to != *from {
                    jumps.push(Jump { knight: k, from: *from, to });
                    *from = to;
                }
            }
            steps.push(jumps);
        }
        Route { starts, steps }
    }
}

/// `counts[d]`: the entries of `distances` at most `d`, for `d` up to the largest.
fn cumulative(distances: &[Option<u16>]) -> Vec<usize> {
    let largest = distances.iter().flatten().copied().max().unwrap_or(0);
    let mut counts = vec![0; usize::from(largest) + 1];
    for &d in distances.iter().flatten() {
        counts[usize::from(d)] += 1;
    }
    for d in 1..counts.len() {
        counts[d] += counts[d - 1];
    }
    counts
}

/// A distance as 16 bits: no board has a path of more moves than it has squares (at most
/// 4,096), so nothing is cut.
fn saturate_u16(distance: usize) -> u16 {
    u16::try_from(distance).unwrap_or(u16::MAX)
}

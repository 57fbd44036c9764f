//! Proving a goal unreachable with SAT: property-directed reachability (IC3) over the one-move
//! transition relation of an exchange puzzle.
//!
//! Frame `F_i` over-approximates the positions reachable in at most `i` moves; `F_0` is the
//! start. Each frame is a set of lemmas — clauses over the occupancy variables, each saying
//! "not all of these pieces on these squares" — held by its own solver together with the
//! transition relation. The goal is excluded from the newest frame by blocking it and,
//! recursively, its predecessors; every blocked set of squares is generalised through the
//! solver's failed assumptions. When a lemma set stops changing from one frame to the next, that
//! frame is an inductive invariant: it holds at the start, is kept by every move, and excludes
//! the goal — a proof that the goal is unreachable no matter how many moves are made.
//!
//! Positions are written as cubes: the sorted indices of the occupied `(group, cell)` state
//! variables. Because the transition relation fixes every group's count, the occupied
//! variables of a position determine it.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use knights_sat_encodings::encode::exchange::{ExchangeEncoding, ExchangeOptions};
use knights_sat_encodings::encode::HorizonEncoding as _;
use knights_sat_encodings::puzzle::ExchangePuzzle;
use rustsat::instances::Cnf;
use rustsat::types::Lit;

use crate::solver::{Answer, SatSolver, SolverError, SolverKind};

/// The sorted indices of occupied state variables.
type Cube = Vec<usize>;

/// What a search for an invariant has established.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reachability {
    /// An inductive invariant excludes the goal: it is unreachable.
    Unreachable {
        /// The frame that became inductive.
        frame: usize,
        /// The number of lemmas in the invariant.
        lemmas: usize,
    },
    /// No path of at most this many moves reaches the goal; nothing more is known yet.
    NotWithin(usize),
    /// A path from the start reaches the goal (possibly longer than the level searched).
    Reachable,
}

/// An IC3 search, advanced level by level.
pub struct InvariantSearch {
    solver: SolverKind,
    transition: Cnf,
    n_vars: u32,
    /// `(now, next)` literals of every state variable.
    state: Vec<(Lit, Lit)>,
    start: Cube,
    goal: Cube,
    /// `frames[0]` holds the start; `frames[i]` the lemmas of levels `i` and above.
    frames: Vec<Frame>,
    /// `lemmas[i]`: the cubes blocked up to level `i` exactly (index 0 unused).
    lemmas: Vec<Vec<Cube>>,
    level: usize,
    calls: usize,
}

struct Frame {
    solver: Box<dyn SatSolver>,
    next_var: u32,
    clauses: usize,
}

impl InvariantSearch {
    /// Prepares the search; no solver is called yet.
    pub fn new(puzzle: &ExchangePuzzle, solver: SolverKind, options: ExchangeOptions) -> Result<Self, SolverError> {
        let mut transition = Cnf::new();
        let mut encoding = ExchangeEncoding::transition(puzzle, options, &mut transition);
        encoding.extend(&mut transition);
        let mut state = Vec::new();
        let mut index = vec![vec![usize::MAX; encoding.n_cells()]; encoding.n_groups()];
        for (g, row) in index.iter_mut().enumerate() {
            for (c, slot) in row.iter_mut().enumerate() {
                if let (Some(now), Some(next)) = (encoding.occupancy(0, g, c), encoding.occupancy(1, g, c)) {
                    *slot = state.len();
                    state.push((now, next));
                }
            }
        }
        let cube = |cells: Vec<(usize, usize)>| -> Cube {
            let mut cube: Cube = cells.into_iter().map(|(g, c)| index[g][c]).collect();
            cube.sort_unstable();
            cube
        };
        let start = cube(encoding.cells_of(&puzzle.start));
        let goal = cube(encoding.cells_of(&puzzle.goal));
        let mut search = InvariantSearch {
            solver,
            n_vars: encoding.n_vars(),
            transition,
            state,
            start,
            goal,
            frames: Vec::new(),
            lemmas: vec![Vec::new()],
            level: 0,
            calls: 0,
        };
        let mut init = search.new_frame()?;
        for &s in &search.start {
            init.solver.add_clause(&[search.state[s].0])?;
        }
        search.frames.push(init);
        search.frames.push(search.new_frame()?);
        search.lemmas.push(Vec::new());
        Ok(search)
    }

    /// Solver calls made so far.
    pub fn calls(&self) -> usize {
        self.calls
    }

    /// Variables of one frame's formula.
    pub fn variables(&self) -> u32 {
        self.frames.iter().map(|f| f.next_var).max().unwrap_or(self.n_vars)
    }

    /// Clauses over all frames.
    pub fn clauses(&self) -> usize {
        self.frames.iter().map(|f| f.clauses).sum()
    }

    /// Conflicts over all frames, if the backend tells.
    pub fn conflicts(&self) -> Option<u64> {
        self.frames.iter().map(|f| f.solver.conflicts()).sum()
    }

    /// Runs IC3 until level `target` is complete or an invariant is found.
    pub fn advance_to(&mut self, target: usize) -> Result<Reachability, SolverError> {
        if self.start == self.goal {
            return Ok(Reachability::Reachable);
        }
        while self.level < target {
            let k = self.level + 1;
            if !self.block_goal(k)? {
                return Ok(Reachability::Reachable);
            }
            self.frames.push(self.new_frame()?);
            self.lemmas.push(Vec::new());
            self.level = k;
            if let Some(frame) = self.propagate(k)? {
                let lemmas = self.lemmas[frame + 1..].iter().map(Vec::len).sum();
                return Ok(Reachability::Unreachable { frame, lemmas });
            }
        }
        Ok(Reachability::NotWithin(self.level))
    }

    fn new_frame(&self) -> Result<Frame, SolverError> {
        let mut solver = self.solver.create()?;
        for clause in self.transition.iter() {
            solver.add_clause(&clause[..])?;
        }
        Ok(Frame { solver, next_var: self.n_vars, clauses: self.transition.len() })
    }

    fn solve(&mut self, frame: usize, assumptions: &[Lit]) -> Result<Answer, SolverError> {
        self.calls += 1;
        self.frames[frame].solver.solve(assumptions)
    }

    fn now(&self, cube: &[usize]) -> Vec<Lit> {
        cube.iter().map(|&s| self.state[s].0).collect()
    }

    fn next(&self, cube: &[usize]) -> Vec<Lit> {
        cube.iter().map(|&s| self.state[s].1).collect()
    }

    /// Excludes the goal from frame `k`; false if a path from the start reaches it.
    fn block_goal(&mut self, k: usize) -> Result<bool, SolverError> {
        let mut obligations = BinaryHeap::new();
        loop {
            let goal = self.now(&self.goal);
            if self.solve(k, &goal)? == Answer::Unsat {
                return Ok(true);
            }
            obligations.push(Reverse((k, self.goal.clone())));
            while let Some(Reverse((i, cube))) = obligations.pop() {
                if cube == self.start {
                    return Ok(false);
                }
                let present = self.now(&cube);
                if self.solve(i, &present)? == Answer::Unsat {
                    continue;
                }
                match self.predecessor(i, &cube)? {
                    Step::From(previous) => {
                        obligations.push(Reverse((i, cube)));
                        obligations.push(Reverse((i - 1, previous)));
                    }
                    Step::Blocked(core) => {
                        let lemma = self.generalise(&cube, core);
                        self.add_lemma(i, lemma)?;
                        if i < k {
                            obligations.push(Reverse((i + 1, cube)));
                        }
                    }
                }
            }
        }
    }

    /// A position of frame `i - 1` outside `cube` from which one move (or none) leads into
    /// `cube`, or the part of `cube` that no such position can lead into.
    fn predecessor(&mut self, i: usize, cube: &Cube) -> Result<Step, SolverError> {
        let frame = i - 1;
        let mut assumptions = self.next(cube);
        let mut switch = None;
        if frame > 0 {
            // Relative induction: ask from outside the cube, through a clause switched on by an
            // activation literal and retired after the call.
            let f = &mut self.frames[frame];
            let lit = Lit::positive(f.next_var);
            f.next_var += 1;
            let clause: Vec<Lit> = std::iter::once(!lit).chain(cube.iter().map(|&s| !self.state[s].0)).collect();
            f.solver.add_clause(&clause)?;
            f.clauses += 1;
            assumptions.push(lit);
            switch = Some(lit);
        }
        let answer = self.solve(frame, &assumptions)?;
        let result = match answer {
            Answer::Sat => {
                let solver = &self.frames[frame].solver;
                Step::From((0..self.state.len()).filter(|&s| solver.value(self.state[s].0)).collect())
            }
            Answer::Unsat => {
                let failed = self.frames[frame].solver.failed_assumptions();
                Step::Blocked(cube.iter().copied().filter(|&s| failed.contains(&self.state[s].1)).collect())
            }
        };
        if let Some(lit) = switch {
            let f = &mut self.frames[frame];
            f.solver.add_clause(&[!lit])?;
            f.clauses += 1;
        }
        Ok(result)
    }

    /// The lemma for a blocked cube: the part the solver needed, widened again by a square of
    /// the cube that the start leaves empty if the part alone would exclude the start.
    fn generalise(&self, cube: &Cube, core: Cube) -> Cube {
        let mut lemma = core;
        if lemma.iter().all(|s| self.start.contains(s)) {
            // The cube is not the start, and holds as many pieces as the start: some of its
            // occupied variables are empty at the start.
            let outside = cube.iter().find(|s| !self.start.contains(s)).expect("the cube differs from the start");
            lemma.push(*outside);
            lemma.sort_unstable();
        }
        lemma
    }

    /// Records "not all of `cube`" in frames `1..=level`.
    fn add_lemma(&mut self, level: usize, cube: Cube) -> Result<(), SolverError> {
        let clause: Vec<Lit> = cube.iter().map(|&s| !self.state[s].0).collect();
        for frame in &mut self.frames[1..=level] {
            frame.solver.add_clause(&clause)?;
            frame.clauses += 1;
        }
        self.lemmas[level].push(cube);
        Ok(())
    }

    /// Pushes every lemma of levels `1..=k` that the next frame keeps. Returns the level whose
    /// lemmas all moved on — its frame is then inductive — if there is one.
    fn propagate(&mut self, k: usize) -> Result<Option<usize>, SolverError> {
        for i in 1..=k {
            for cube in std::mem::take(&mut self.lemmas[i]) {
                let next = self.next(&cube);
                if self.solve(i, &next)? == Answer::Unsat {
                    let clause: Vec<Lit> = cube.iter().map(|&s| !self.state[s].0).collect();
                    let frame = &mut self.frames[i + 1];
                    frame.solver.add_clause(&clause)?;
                    frame.clauses += 1;
                    self.lemmas[i + 1].push(cube);
                } else {
                    self.lemmas[i].push(cube);
                }
            }
            if self.lemmas[i].is_empty() {
                return Ok(Some(i));
            }
        }
        Ok(None)
    }
}

/// What a predecessor query found.
enum Step {
    /// A position one move (or none) before the cube.
    From(Cube),
    /// No such position: the state variables of the cube that the refutation used.
    Blocked(Cube),
}

#[cfg(test)]
mod tests {
    use super::*;
    use knights_sat_encodings::puzzle;

    fn exchange(text: &str) -> ExchangePuzzle {
        puzzle::parse(text, "test.toml").unwrap().exchange().unwrap().clone()
    }

    fn ic3(text: &str, solver: SolverKind, levels: usize) -> Reachability {
        let mut search = InvariantSearch::new(&exchange(text), solver, ExchangeOptions::default()).unwrap();
        search.advance_to(levels).unwrap()
    }

    const ROOKS_CANNOT_PASS: &str = "kind = \"exchange\"\nboard = \"3x1\"\nswap = true\n\
        [[side]]\nname = \"w\"\nstart = [\"Ra1\"]\n[[side]]\nname = \"b\"\nstart = [\"Rc1\"]\n";

    /// Knights and kings on 4x2: 30 reachable positions, none of them the swap.
    const KNIGHTS_AND_KINGS: &str = "kind = \"exchange\"\nboard = \"4x2\"\nswap = true\n\
        [[side]]\nname = \"w\"\nstart = [\"Nc2\", \"Kd2\"]\n[[side]]\nname = \"b\"\nstart = [\"Na1\", \"Kb2\"]\n";

    const GUARINI: &str = "kind = \"exchange\"\nboard = \"3x3\"\nswap = true\n\
        [[side]]\nname = \"w\"\nstart = [\"Na1\", \"Nc1\"]\n[[side]]\nname = \"b\"\nstart = [\"Na3\", \"Nc3\"]\n";

    #[test]
    fn finds_invariants_that_exclude_unreachable_goals() {
        for solver in SolverKind::ALL {
            for text in [ROOKS_CANNOT_PASS, KNIGHTS_AND_KINGS] {
                assert!(matches!(ic3(text, solver, 64), Reachability::Unreachable { .. }), "{solver}: {text}");
            }
        }
    }

    #[test]
    fn never_excludes_a_reachable_goal() {
        for solver in SolverKind::ALL {
            for levels in [1, 4, 16, 64] {
                assert!(!matches!(ic3(GUARINI, solver, levels), Reachability::Unreachable { .. }), "{solver}");
            }
        }
    }
}

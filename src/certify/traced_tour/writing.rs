//! The proof of a certified tour search, written once the search has its optimum: the search's
//! variables defined, its clauses derived from the model, its trace read, the horizons chained
//! (steps 1 to 5 of [`super`]).

use std::io::Write;

use pigeons::{AbsConstraintId, ConstraintId, Proof, VarLike};
use rustsat::instances::{BasicVarManager, ManageVars};
use rustsat::types::{Clause, Lit, Var};

use crate::certify::derive;
use crate::certify::lrat::{Traced, Translator, Weakening};
use crate::certify::prove::measure;
use crate::certify::CertifyError;
use crate::encodings::encode::tour::{TourClause, TourEncoding};
use crate::encodings::encode::HorizonEncoding as _;
use crate::encodings::geometry::Square;
use crate::encodings::linear::{Relation, TourModel};
use crate::encodings::puzzle::tour::{Route, TourPuzzle};

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
pub(super) struct Writing<'a, W: Write> {
    pub(super) proof: Proof<W>,
    pub(super) translator: Translator,
    pub(super) vars: BasicVarManager,
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
    pub(super) rows: usize,
    pub(super) opb_value: i64,
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
    pub(super) fn start(
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
        let improving = proof.improve_solution((0..solution.len()).map(|i| derive::var(i).axiom(!solution[i])))?;
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
        let moved: Vec<Lit> = model.moved_of(0).iter().map(|&v| derive::var(v).pos_lit()).collect();
        let after = model.rows().after.iter().map(|row| AbsConstraintId::new(row_ids[row[0]])).collect();
        // The search's literals of squares are the model's variables.
        let mut rename = vec![None; encoding.n_vars() as usize];
        for (t, layer) in at.iter().enumerate() {
            for (c, &s) in cells.iter().enumerate() {
                if let (Some(lit), Some(var)) = (encoding.cell_literal(t, 0, c), layer[s]) {
                    rename[lit.var().idx()] = Some(derive::var(var).pos_lit());
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
        var.map(|v| derive::var(v).pos_lit()).ok_or_else(|| internal(format!("no square {cell} at time {t}")))
    }

    fn moved(&self, t: usize) -> Lit {
        derive::var(self.model.moved_of(0)[t - 1]).pos_lit()
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
    pub(super) fn derive(&mut self, clause: &[Lit], why: TourClause) -> Result<(), CertifyError> {
        let (origin, level, expected) = match why {
            TourClause::SomeCell(t) => {
                self.proof.comment(&format!("the search's clauses of time {t}"))?;
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
    fn colour(
        &mut self,
        t: usize,
        cell: usize,
        clause: &[Lit],
    ) -> Result<(AbsConstraintId, usize, Vec<Lit>), CertifyError> {
        if self.dark.is_none() {
            let lit = self.vars.new_var().pos_lit();
            let searched = clause.get(1).ok_or_else(|| internal("a colour clause of one literal"))?;
            self.name(searched.var().pos_lit(), lit);
            let dark_cells: Vec<usize> = (0..self.cells.len())
                .filter(|&c| self.puzzle.board.colour(Square(self.cells[c] as u16)) == 1)
                .collect();
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
        let started_dark = (self.puzzle.board.colour(square) + t) % 2 == 1;
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
    pub(super) fn refuted(&mut self, h: usize, end: u64, solver: &mut Traced) -> Result<(), CertifyError> {
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
    pub(super) fn chain(&mut self, value: usize) -> Result<AbsConstraintId, CertifyError> {
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

/// An internal error of the certified tour search.
pub(super) fn internal(message: impl std::fmt::Display) -> CertifyError {
    CertifyError::Internal(format!("certifying the tour search: {message}"))
}

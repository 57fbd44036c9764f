//! The counts by colour of a tour's encoding: a knight changes colour at every jump, so the
//! targets of a colour still untouched are bounded by the jumps left that can land on that
//! colour, and the moves of the fewer-moves stage by the colours' counts.

use rustsat::encodings::CollectClauses;
use rustsat::instances::ManageVars;
use rustsat::types::Lit;

use super::TourEncoding;
use crate::encode::bound::{BoundEncoding, ObjectiveBound};
use crate::encode::tour_clause::{add_as, note, TourClause};

/// One bound of [`TourEncoding::count_left`]: the totalizer's slot, its terms, the bound, and
/// the literal under which it holds (besides the goal switch).
type CountBound = (usize, Vec<(Lit, usize)>, usize, Option<Lit>);

impl TourEncoding {
    /// Several knights, with the colour count: literals that, assumed, demand at most `ub`
    /// moves in the steps up to `horizon` as the colours count them. A knight lands on a
    /// colour at most every other jump, and on its own colour only after leaving it, so at
    /// every time `t` the jumps made so far, twice the targets of a colour still untouched and
    /// the knights standing on that colour add up to at most `ub` + knights. (Empty where the
    /// colours are not tracked.)
    pub fn moves_colour_bounds<C: CollectClauses>(&mut self, horizon: usize, ub: usize, clauses: &mut C) -> Vec<Lit> {
        let knights = self.puzzle.knights.len();
        let mut assumptions = Vec::new();
        if self.on_dark.is_empty() {
            return assumptions;
        }
        while self.moves_bounds.len() <= horizon {
            self.moves_bounds.push([None, None]);
        }
        for t in 0..=horizon {
            for class in 0..2 {
                let Some(on) = self.on_class(t, class) else { continue };
                let mut terms: Vec<(Lit, usize)> =
                    self.moved.iter().skip(1).take(t).flatten().map(|&m| (m, 1)).collect();
                terms.extend(self.count_classes[class].iter().map(|&j| (!self.touched[t][j], 2)));
                terms.extend(on.into_iter().map(|lit| (lit, 1)));
                let room = ub + knights;
                if terms.iter().map(|term| term.1).sum::<usize>() <= room {
                    continue;
                }
                let bound = self.moves_bounds[t][class]
                    .get_or_insert_with(|| ObjectiveBound::new(BoundEncoding::Totalizer, &terms));
                let before = clauses.n_clauses();
                bound.encode_ub(room, clauses, &mut self.vars);
                note(&mut self.log, clauses, before, TourClause::Other);
                assumptions.extend(bound.enforce_ub(room));
            }
        }
        assumptions
    }

    /// Ties the knights' squares at time `t` to their colour: a lone knight of unknown start
    /// colour stands at `t` on the start's colour when `t` is even, the other one when odd;
    /// several knights get a literal each, "on colour 1 now", for the colour count.
    pub(super) fn colour_layer<C: CollectClauses>(&mut self, t: usize, layer: &[Vec<Option<Lit>>], clauses: &mut C) {
        let colour_of = |cell: usize, this: &Self| this.puzzle.board.colour(this.cells[cell]);
        if let Some(dark) = self.start_dark {
            for (c, lit) in layer[0].iter().enumerate() {
                let Some(lit) = *lit else { continue };
                // Dark now after t jumps: the start was dark when t is even.
                let start_dark = (colour_of(c, self) + t) % 2 == 1;
                let why = TourClause::Colour(t, c);
                add_as(&mut self.log, clauses, [!lit, if start_dark { dark } else { !dark }], why);
            }
        } else if self.waits && self.count_classes.len() == 2 {
            let mut now = Vec::with_capacity(layer.len());
            for lits in layer {
                let dark = self.vars.new_lit();
                for (c, lit) in lits.iter().enumerate() {
                    let Some(lit) = *lit else { continue };
                    let clause = [!lit, if colour_of(c, self) == 1 { dark } else { !dark }];
                    add_as(&mut self.log, clauses, clause, TourClause::Other);
                }
                now.push(dark);
            }
            self.on_dark.push(now);
        }
    }

    /// Several knights: the literals "knight `k` stands on `class`'s colour at time `t`", one
    /// per knight, or `None` when the knights' colours are not tracked (a lone knight's colour
    /// is known, or follows from its start's by the time's parity, and is used as such).
    fn on_class(&self, t: usize, class: usize) -> Option<Vec<Lit>> {
        let now = self.on_dark.get(t)?;
        Some(now.iter().map(|&dark| if class == 1 { dark } else { !dark }).collect())
    }

    /// Under `switch`: the untouched targets of count class `class` at time `t` are no more
    /// than the jumps in steps `t + 1..=horizon` that can land on them.
    ///
    /// Without colours, every jump can (one per knight and step). A knight changes colour at
    /// every jump, so in `L` steps one lands at most `ceil(L / 2)` times on a colour it does not
    /// stand on and `floor(L / 2)` times on its own: a lone knight's colour is known or decided
    /// by its start's colour; several knights moving together add the knights standing on the
    /// class's colour to the count when `L` is odd, and knights moving one at a time (`L`
    /// jumps in all) bound twice the untouched targets plus those knights by `L` + knights.
    pub(super) fn count_left<C: CollectClauses>(
        &mut self,
        switch: Lit,
        t: usize,
        horizon: usize,
        class: usize,
        clauses: &mut C,
    ) {
        let left = horizon - t;
        let knights = self.puzzle.knights.len();
        let targets = self.count_classes[class].clone();
        let untouched = |weight: usize, this: &Self| -> Vec<(Lit, usize)> {
            targets.iter().map(|&j| (!this.touched[t][j], weight)).collect()
        };
        let mut bounds: Vec<CountBound> = Vec::new();
        let colour_room = |start: usize| (t + 1..=horizon).filter(|s| (start + s) % 2 == class).count();
        match (self.count_classes.len(), self.start_colour, self.start_dark) {
            (1, _, _) => {
                let per_step = if self.puzzle.objective.parallel() { knights } else { 1 };
                bounds.push((0, untouched(1, self), left * per_step, None));
            }
            (_, Some(start), _) => bounds.push((2 * class, untouched(1, self), colour_room(start), None)),
            (_, None, Some(dark)) => {
                for (start, holds) in [(0, !dark), (1, dark)] {
                    bounds.push((2 * class, untouched(1, self), colour_room(start), Some(holds)));
                }
            }
            _ => {
                // Several knights: their colours are tracked whenever the targets are counted by
                // colour.
                let Some(on) = self.on_class(t, class) else { return };
                let on_terms = on.iter().map(|&lit| (lit, 1));
                if self.puzzle.objective.parallel() && left % 2 == 0 {
                    bounds.push((2 * class, untouched(1, self), knights * left / 2, None));
                } else if self.puzzle.objective.parallel() {
                    let terms = untouched(1, self).into_iter().chain(on_terms).collect();
                    bounds.push((2 * class + 1, terms, knights * (left + 1) / 2, None));
                } else {
                    let terms = untouched(2, self).into_iter().chain(on_terms).collect();
                    bounds.push((2 * class + 1, terms, left + knights, None));
                }
            }
        }
        for (slot, terms, room, holds) in bounds {
            if terms.iter().map(|term| term.1).sum::<usize>() <= room {
                continue;
            }
            let bound =
                self.count_bounds[t][slot].get_or_insert_with(|| ObjectiveBound::new(BoundEncoding::Totalizer, &terms));
            let before = clauses.n_clauses();
            bound.encode_ub(room, clauses, &mut self.vars);
            note(&mut self.log, clauses, before, TourClause::Other);
            for lit in bound.enforce_ub(room) {
                let mut clause = vec![!switch, lit];
                clause.extend(holds.map(|holds| !holds));
                add_as(&mut self.log, clauses, clause, TourClause::Other);
            }
        }
    }
}

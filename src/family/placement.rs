//! Placements: the fewest pieces that dominate a board, or the most that attack no other.

use std::collections::HashMap;
use std::io::{self, Write};

use knights_sat_encodings::check::check_placement;
use knights_sat_encodings::encode::bound::{BoundEncoding, ObjectiveBound};
use knights_sat_encodings::encode::placement::PlacementEncoding;
use knights_sat_encodings::encode::AtMostOne;
use knights_sat_encodings::geometry::Board;
use knights_sat_encodings::linear::{placement_model, LinearModel, Relation, Sense};
use knights_sat_encodings::puzzle::parse_piece;
use knights_sat_encodings::puzzle::placement::{LineOfSight, PlacementPuzzle, MAX_WEIGHT};
use rustsat::instances::Cnf;
use rustsat::types::{Clause, Lit};

use super::{at_line, foreign_line, solution_word, wrong_family, BenchRun, Family, Searches};
use crate::certify::{Argument, CertifyError};
use crate::driver::{solve_placement, Event, Outcome, Solution};
#[cfg(feature = "mip")]
use crate::driver::{solve_placement_mip, MipSearch};
use crate::export::parts::{wrong_question, ExportError, Formula, Question};
use crate::render::{placement_svg, placement_text, JsonPlaced, JsonPuzzleFacts, JsonSolution, Report};
use crate::solver::SolverKind;
use crate::Error;

impl Family for PlacementPuzzle {
    fn board(&self) -> &Board {
        &self.board
    }

    fn maximises(&self) -> bool {
        !self.goal.minimises()
    }

    fn solve(&self, searches: &Searches, on_event: &mut dyn FnMut(&Event)) -> Result<Outcome, Error> {
        solve_placement(self, &searches.placement, on_event)
    }

    #[cfg(feature = "mip")]
    fn solve_mip(&self, _search: &MipSearch, on_event: &mut dyn FnMut(&Event)) -> Result<Outcome, Error> {
        solve_placement_mip(self, on_event)
    }

    fn write_text(&self, report: &Report, out: &mut dyn Write) -> io::Result<()> {
        placement_text(report, self, out)
    }

    fn svg(&self, solution: &Solution, attacks: bool) -> Option<String> {
        let Solution::Placement(placement) = solution else { return None };
        Some(placement_svg(self, placement, attacks))
    }

    fn json_solution(&self, solution: &Solution) -> Option<JsonSolution> {
        let Solution::Placement(placement) = solution else { return None };
        let pieces = placement.iter().map(|&(s, k)| JsonPlaced { piece: k.name(), square: self.board.name(s) });
        Some(JsonSolution::Placement { pieces: pieces.collect() })
    }

    fn json_facts(&self) -> JsonPuzzleFacts {
        let kinds: String = self.kinds.iter().map(|r| r.kind.letter()).collect();
        let objective = if self.goal.minimises() { "minimise" } else { "maximise" };
        JsonPuzzleFacts { pieces: kinds.into(), objective: Some(objective), attacks: Some(self.line_of_sight.name()) }
    }

    fn formula(&self, question: Question, at_most_one: AtMostOne) -> Result<Formula, ExportError> {
        let Question::Bound(bound) = question else { return Err(wrong_question("placement", "--bound")) };
        let mut cnf = Cnf::new();
        let mut encoding = PlacementEncoding::new(self, at_most_one, &mut cnf);
        let minimise = self.goal.minimises();
        // The bound is on the cost: the objective when minimising, what is left out of the
        // greatest possible value when maximising.
        let costs: Vec<(Lit, usize)> =
            encoding.objective().iter().map(|&(lit, w)| if minimise { (lit, w) } else { (!lit, w) }).collect();
        let total: usize = costs.iter().map(|t| t.1).sum();
        let cost = if minimise { Some(bound) } else { total.checked_sub(bound) };
        match cost {
            Some(cost) => {
                if let Some(why) = BoundEncoding::Totalizer.refusal(&costs) {
                    return Err(ExportError::Question(why));
                }
                let mut objective = ObjectiveBound::new(BoundEncoding::Totalizer, &costs);
                objective.encode_ub(cost, &mut cnf, encoding.vars());
                for lit in objective.enforce_ub(cost) {
                    cnf.add_unit(lit);
                }
            }
            // More than every square can hold: nothing satisfies it.
            None => cnf.add_clause(Clause::new()),
        }
        let direction = if minimise { "at most" } else { "at least" };
        let meaning = format!("a model is a placement of value {direction} {bound}");
        Ok(Formula { cnf, n_vars: encoding.n_vars(), meaning })
    }

    fn linear_model(&self, question: Option<Question>) -> Result<LinearModel, ExportError> {
        let mut model = placement_model(self).map_err(|e| ExportError::Question(e.to_string()))?.model;
        if let Some(Question::Bound(bound)) = question {
            let (sense, terms) = model.objective.clone().expect("placements have an objective");
            let relation = if sense == Sense::Minimise { Relation::AtMost } else { Relation::AtLeast };
            model.constrain("bound", terms, relation, bound as i64);
            model.title.push_str(&format!("; objective {relation} {bound}"));
        }
        if let Some(Question::Horizon(_)) = question {
            return Err(ExportError::Question("placement puzzles take `--bound`, not `--horizon`".into()));
        }
        Ok(model)
    }

    fn certified_model(&self, _value: usize) -> Result<LinearModel, CertifyError> {
        Ok(placement_model(self).map_err(|e| CertifyError::Unsupported(e.to_string()))?.model)
    }

    fn certified_assignment(
        &self,
        solution: &Solution,
        value: usize,
    ) -> Result<(LinearModel, Vec<bool>, Option<Argument>), CertifyError> {
        let Solution::Placement(pieces) = solution else { return Err(CertifyError::Internal(wrong_family())) };
        let model = self.certified_model(value)?;
        let index: HashMap<&str, usize> =
            model.variables.iter().enumerate().map(|(i, name)| (name.as_str(), i)).collect();
        let mut values = vec![false; model.variables.len()];
        for &(square, kind) in pieces {
            let name = format!("{}_{}", kind.letter(), self.board.name(square));
            let var = index.get(name.as_str()).ok_or_else(|| CertifyError::Internal(format!("no variable {name}")))?;
            values[*var] = true;
        }
        Ok((model, values, None))
    }

    fn value_limit(&self) -> (usize, &'static str) {
        (self.board.area() * MAX_WEIGHT, "the squares times the largest weight")
    }

    fn solution_lines(&self, solution: &Solution) -> Vec<String> {
        let Solution::Placement(pieces) = solution else { return Vec::new() };
        pieces.iter().map(|&(square, kind)| format!("piece {}{}", kind.letter(), self.board.name(square))).collect()
    }

    fn read_solution(&self, lines: &[(usize, &str)]) -> Result<Solution, String> {
        let mut pieces = Vec::new();
        for &(number, line) in lines {
            let (word, rest) = solution_word(number, line)?;
            if word != "piece" {
                return Err(foreign_line(number, word, self.goal.name()));
            }
            let (kind, square) = parse_piece(&self.board, rest).map_err(|why| at_line(number, why))?;
            pieces.push((square, kind));
        }
        Ok(Solution::Placement(pieces))
    }

    fn replay(&self, solution: &Solution) -> Result<(usize, &'static str), String> {
        let Solution::Placement(pieces) = solution else { return Err(wrong_family()) };
        Ok((check_placement(self, pieces).map_err(|e| e.to_string())?, ""))
    }

    fn bench_runs(&self, solvers: &[SolverKind], mip: bool) -> Vec<BenchRun> {
        let mut runs = Vec::new();
        for solver in solvers {
            for strategy in ["core-guided", "sat-unsat", "unsat-sat", "binary"] {
                let (name, flags) = (solver.name(), ["--solver", solver.name(), "--strategy", strategy]);
                runs.push(BenchRun::new(format!("{name} {strategy}"), &flags));
            }
        }
        let linear = self.line_of_sight != LineOfSight::Blocked;
        if self.goal.covers() && linear {
            // No SAT solver: one run whatever the solvers (independence relaxes too weakly
            // for it to be worth a run).
            runs.push(BenchRun::new("branch-and-bound", &["--strategy", "branch-and-bound"]));
        }
        if mip && linear {
            runs.push(BenchRun::new("highs time-indexed", &["--backend", "mip"]));
        }
        runs
    }
}

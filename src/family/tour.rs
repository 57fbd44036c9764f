//! Tours: knights touring the squares that static attackers leave safe.

use std::io::{self, Write};

use knights_sat_encodings::check::replay_tour;
use knights_sat_encodings::encode::tour::{TourEncoding, TourOptions};
use knights_sat_encodings::encode::AtMostOne;
use knights_sat_encodings::geometry::Board;
use knights_sat_encodings::linear::{tour_model, tour_model_terms, LinearModel};
use knights_sat_encodings::puzzle::tour::{Jump, Route, TourObjective, TourPuzzle};
use rustsat::instances::Cnf;

use super::{at_line, foreign_line, horizon_bench_runs, solution_word, squares, wrong_family};
use super::{BenchRun, Family, Searches};
use crate::certify::{tour_certified, tour_certified_model, Argument, CertifyError};
use crate::driver::{solve_tour, Event, Outcome, Solution, MAX_HORIZON};
#[cfg(feature = "mip")]
use crate::driver::{solve_tour_mip, MipSearch};
use crate::export::parts::{at_horizon, check_model_size, wrong_question, ExportError, Formula, Question};
use crate::render::{tour_svg, tour_text, JsonJump, JsonPuzzleFacts, JsonSolution, Report};
use crate::solver::SolverKind;
use crate::Error;

impl Family for TourPuzzle {
    fn board(&self) -> &Board {
        &self.board
    }

    fn step_unit(&self) -> &'static str {
        match self.objective {
            TourObjective::Steps => "time step",
            _ => "move",
        }
    }

    fn solve(&self, searches: &Searches, on_event: &mut dyn FnMut(&Event)) -> Result<Outcome, Error> {
        solve_tour(self, &searches.tour, on_event)
    }

    fn lists_starts(&self) -> bool {
        true
    }

    #[cfg(feature = "mip")]
    fn solve_mip(&self, search: &MipSearch, on_event: &mut dyn FnMut(&Event)) -> Result<Outcome, Error> {
        solve_tour_mip(self, search, on_event)
    }

    fn write_text(&self, report: &Report, out: &mut dyn Write) -> io::Result<()> {
        tour_text(report, self, out)
    }

    fn svg(&self, solution: &Solution, _attacks: bool) -> Option<String> {
        let Solution::Route(route) = solution else { return None };
        Some(tour_svg(self, route))
    }

    fn json_solution(&self, solution: &Solution) -> Option<JsonSolution> {
        let Solution::Route(route) = solution else { return None };
        let board = &self.board;
        Some(JsonSolution::Route {
            starts: route.starts.iter().map(|&s| board.name(s)).collect(),
            moves: route.moves(),
            time_steps: route.time_steps(),
            steps: route
                .steps
                .iter()
                .map(|step| {
                    step.iter()
                        .map(|j| JsonJump { knight: j.knight + 1, from: board.name(j.from), to: board.name(j.to) })
                        .collect()
                })
                .collect(),
        })
    }

    fn json_facts(&self) -> JsonPuzzleFacts {
        JsonPuzzleFacts { pieces: self.knights.len().into(), objective: Some(self.objective.name()), attacks: None }
    }

    fn formula(&self, question: Question, at_most_one: AtMostOne) -> Result<Formula, ExportError> {
        let Question::Horizon(horizon) = question else { return Err(wrong_question("tour", "--horizon")) };
        let mut cnf = Cnf::new();
        let options = TourOptions { at_most_one, ..TourOptions::default() };
        let encoding = TourEncoding::new(self, options, &mut cnf);
        let meaning = format!("a model is a route touching every target within {horizon} time steps");
        at_horizon(encoding, cnf, horizon, meaning)
    }

    fn linear_model(&self, question: Option<Question>) -> Result<LinearModel, ExportError> {
        let Some(Question::Horizon(horizon)) = question else {
            return Err(ExportError::Question("tour puzzles are modelled at a horizon: give `--horizon T`".into()));
        };
        if let Some(reason) = self.obstruction() {
            return Err(ExportError::Question(format!("the tour is infeasible: {reason}")));
        }
        check_model_size(self.time_indexed_terms(horizon), horizon, "an export writes")
            .map_err(ExportError::Question)?;
        Ok(tour_model(self, horizon).model)
    }

    fn time_indexed_terms(&self, horizon: usize) -> usize {
        tour_model_terms(self, horizon)
    }

    fn certified_model(&self, value: usize) -> Result<LinearModel, CertifyError> {
        tour_certified_model(self, value)
    }

    fn certified_assignment(
        &self,
        solution: &Solution,
        value: usize,
    ) -> Result<(LinearModel, Vec<bool>, Option<Argument>), CertifyError> {
        let Solution::Route(route) = solution else { return Err(CertifyError::Internal(wrong_family())) };
        tour_certified(self, route, value)
    }

    fn value_limit(&self) -> (usize, &'static str) {
        (MAX_HORIZON, "the longest horizon")
    }

    fn solution_lines(&self, solution: &Solution) -> Vec<String> {
        let Solution::Route(route) = solution else { return Vec::new() };
        let board = &self.board;
        let starts =
            route.starts.iter().enumerate().map(|(k, &square)| format!("start k{} {}", k + 1, board.name(square)));
        let steps = route.steps.iter().map(|step| {
            let jumps: Vec<String> =
                step.iter().map(|j| format!("k{} {}-{}", j.knight + 1, board.name(j.from), board.name(j.to))).collect();
            format!("step {}", jumps.join(" "))
        });
        starts.chain(steps).collect()
    }

    fn read_solution(&self, lines: &[(usize, &str)]) -> Result<Solution, String> {
        let mut route = Route::default();
        for &(number, line) in lines {
            let at = |why: String| at_line(number, why);
            let (word, rest) = solution_word(number, line)?;
            match word {
                "start" => {
                    let (knight, square) = rest.split_once(' ').ok_or_else(|| at(format!("cannot read `{line}`")))?;
                    knight_number(knight).map_err(at)?;
                    route.starts.push(self.board.parse_square(square.trim()).map_err(|e| at(e.to_string()))?);
                }
                "step" => {
                    let words: Vec<&str> = rest.split_whitespace().collect();
                    if words.len() % 2 != 0 {
                        return Err(at(format!("cannot read `{line}`")));
                    }
                    let mut step = Vec::new();
                    for pair in words.chunks(2) {
                        let knight = knight_number(pair[0]).map_err(at)?;
                        let (from, to) = squares(&self.board, pair[1]).map_err(at)?;
                        step.push(Jump { knight, from, to });
                    }
                    route.steps.push(step);
                }
                _ => return Err(foreign_line(number, word, "tour")),
            }
        }
        Ok(Solution::Route(route))
    }

    fn replay(&self, solution: &Solution) -> Result<(usize, &'static str), String> {
        let Solution::Route(route) = solution else { return Err(wrong_family()) };
        replay_tour(self, route).map_err(|e| e.to_string())?;
        let unit = if self.objective == TourObjective::Steps { " time steps" } else { " moves" };
        Ok((route.value(self.objective), unit))
    }

    fn bench_runs(&self, solvers: &[SolverKind], mip: bool) -> Vec<BenchRun> {
        let mut runs = horizon_bench_runs(solvers);
        if mip {
            runs.push(BenchRun::new("highs time-indexed", &["--backend", "mip"]));
        }
        runs
    }
}

/// `k3` as knight index 2.
fn knight_number(text: &str) -> Result<usize, String> {
    text.strip_prefix('k')
        .and_then(|n| n.parse::<usize>().ok())
        .filter(|&n| n >= 1)
        .map(|n| n - 1)
        .ok_or_else(|| format!("`{text}` is not a knight (k1, k2, …)"))
}

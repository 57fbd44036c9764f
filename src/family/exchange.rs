//! Exchanges: move pieces from a start position to a goal position in the fewest moves.

use std::io::{self, Write};

use knights_sat_encodings::check::replay_exchange;
use knights_sat_encodings::encode::exchange::{full_step_size, ExchangeEncoding, ExchangeOptions};
use knights_sat_encodings::encode::AtMostOne;
use knights_sat_encodings::geometry::{Board, Piece};
use knights_sat_encodings::linear::{exchange_model, exchange_model_at_most, flow_model, LinearModel};
use knights_sat_encodings::puzzle::{ExchangePuzzle, Move};
use rustsat::instances::Cnf;

use super::{at_line, foreign_line, horizon_bench_runs, solution_word, squares, wrong_family};
use super::{BenchRun, Family, Searches};
use crate::certify::{Argument, CanonicalOrder, CertifyError};
use crate::driver::{solve_exchange, Event, Outcome, Solution, MAX_HORIZON};
#[cfg(feature = "mip")]
use crate::driver::{solve_exchange_mip, MipSearch};
use crate::export::parts::{
    at_horizon, check_model_size, wrong_question, ExportError, Formula, Question, FLOW_POSITIONS,
};
use crate::render::{exchange_svg, exchange_text, JsonMove, JsonPuzzleFacts, JsonSolution, Report};
use crate::solver::SolverKind;
use crate::Error;

impl Family for ExchangePuzzle {
    fn board(&self) -> &Board {
        &self.board
    }

    fn solve(&self, searches: &Searches, on_event: &mut dyn FnMut(&Event)) -> Result<Outcome, Error> {
        solve_exchange(self, &searches.exchange, on_event)
    }

    #[cfg(feature = "mip")]
    fn solve_mip(&self, search: &MipSearch, on_event: &mut dyn FnMut(&Event)) -> Result<Outcome, Error> {
        solve_exchange_mip(self, search, on_event)
    }

    fn has_flow_model(&self) -> bool {
        true
    }

    fn write_text(&self, report: &Report, out: &mut dyn Write) -> io::Result<()> {
        exchange_text(report, self, out)
    }

    fn svg(&self, solution: &Solution, _attacks: bool) -> Option<String> {
        let Solution::Moves(moves) = solution else { return None };
        Some(exchange_svg(self, moves))
    }

    fn json_solution(&self, solution: &Solution) -> Option<JsonSolution> {
        let Solution::Moves(moves) = solution else { return None };
        let board = &self.board;
        let moves = moves
            .iter()
            .map(|m| JsonMove {
                side: self.sides[m.piece.side].name.clone(),
                piece: m.piece.kind.name(),
                from: board.name(m.from),
                to: board.name(m.to),
                notation: m.notation(board),
            })
            .collect();
        Some(JsonSolution::Moves { moves })
    }

    fn json_facts(&self) -> JsonPuzzleFacts {
        JsonPuzzleFacts { pieces: self.piece_count().into(), objective: None, attacks: None }
    }

    fn formula(&self, question: Question, at_most_one: AtMostOne) -> Result<Formula, ExportError> {
        let Question::Horizon(horizon) = question else { return Err(wrong_question("exchange", "--horizon")) };
        let mut cnf = Cnf::new();
        let options = ExchangeOptions { at_most_one, ..ExchangeOptions::default() };
        let encoding = ExchangeEncoding::new(self, options, &mut cnf);
        let meaning = format!("a model is a solution of exactly {horizon} moves");
        at_horizon(encoding, cnf, horizon, meaning)
    }

    fn linear_model(&self, question: Option<Question>) -> Result<LinearModel, ExportError> {
        match question {
            Some(Question::Horizon(horizon)) => {
                check_model_size(self.time_indexed_terms(horizon), horizon, "an export writes")
                    .map_err(ExportError::Question)?;
                Ok(exchange_model(self, horizon).model)
            }
            None => match flow_model(self, FLOW_POSITIONS) {
                Ok(flow) => Ok(flow.model),
                Err(why) => Err(ExportError::Question(format!("{why}: give `--horizon T`"))),
            },
            Some(Question::Bound(_)) => {
                Err(ExportError::Question("exchange puzzles take `--horizon`, not `--bound`".into()))
            }
        }
    }

    fn time_indexed_terms(&self, horizon: usize) -> usize {
        // A step of the linear model is about as large as a step of the CNF.
        full_step_size(self).saturating_mul(horizon)
    }

    fn certified_model(&self, value: usize) -> Result<LinearModel, CertifyError> {
        Ok(exchange_model_at_most(self, value).model)
    }

    fn certified_assignment(
        &self,
        solution: &Solution,
        value: usize,
    ) -> Result<(LinearModel, Vec<bool>, Option<Argument>), CertifyError> {
        let Solution::Moves(moves) = solution else { return Err(CertifyError::Internal(wrong_family())) };
        let cap = exchange_model_at_most(self, value);
        let values = cap.assignment(self, moves).map_err(CertifyError::Internal)?;
        Ok((cap.model, values, None))
    }

    fn bound_ahead(&self, value: usize) -> Option<(LinearModel, usize)> {
        let cap = exchange_model_at_most(self, value);
        let last = cap.last_moved()?;
        Some((cap.model, last))
    }

    fn canonical_order(&self, value: usize) -> Option<CanonicalOrder> {
        Some(CanonicalOrder::of(self, &exchange_model_at_most(self, value)))
    }

    fn value_limit(&self) -> (usize, &'static str) {
        (MAX_HORIZON, "the longest horizon")
    }

    fn solution_lines(&self, solution: &Solution) -> Vec<String> {
        let Solution::Moves(moves) = solution else { return Vec::new() };
        moves.iter().map(|m| format!("move {}", m.notation(&self.board))).collect()
    }

    fn read_solution(&self, lines: &[(usize, &str)]) -> Result<Solution, String> {
        let board = &self.board;
        let mut position = self.start.clone();
        let mut moves = Vec::new();
        for &(number, line) in lines {
            let (word, rest) = solution_word(number, line)?;
            if word != "move" {
                return Err(foreign_line(number, word, "exchange"));
            }
            let at = |why: String| at_line(number, why);
            let (from, to) = squares(board, rest.trim_start_matches(|c: char| c.is_ascii_uppercase())).map_err(at)?;
            let piece: Piece =
                position.take(from).ok_or_else(|| at(format!("no piece stands on {}", board.name(from))))?;
            // An occupied destination is for the rules checker to reject.
            let _ = position.place(to, piece);
            moves.push(Move { piece, from, to });
        }
        Ok(Solution::Moves(moves))
    }

    fn replay(&self, solution: &Solution) -> Result<(usize, &'static str), String> {
        let Solution::Moves(moves) = solution else { return Err(wrong_family()) };
        replay_exchange(self, moves).map_err(|e| e.to_string())?;
        Ok((moves.len(), " moves"))
    }

    fn bench_runs(&self, solvers: &[SolverKind], mip: bool) -> Vec<BenchRun> {
        let mut runs = horizon_bench_runs(solvers);
        if mip {
            runs.push(BenchRun::new("highs time-indexed", &["--backend", "mip"]));
            runs.push(BenchRun::new("highs network-flow", &["--backend", "mip", "--mip-model", "network-flow"]));
        }
        runs
    }
}

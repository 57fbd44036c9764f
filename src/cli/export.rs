//! `knights-sat export`: the formula of one horizon or bound (DIMACS), or the 0-1 linear model
//! (OPB, LP), for an external solver.

use std::io::Write;

use knights_sat::driver::MAX_HORIZON;
use knights_sat::encodings::encode::AtMostOne;
use knights_sat::encodings::linear::{write_lp, write_opb};
use knights_sat::encodings::puzzle;
use knights_sat::export::{formula, linear_model, write_dimacs, ExportError, Question};

use super::args::ExportArgs;
use super::{CliError, Exit};

/// Writes the chosen form of the puzzle to an output.
type WriteOut = Box<dyn Fn(&mut dyn Write) -> std::io::Result<()>>;

/// Writes the formula and returns the exit code.
pub fn run(args: ExportArgs) -> Result<Exit, CliError> {
    let at_most_one = AtMostOne::from_name(&args.at_most_one).ok_or_else(|| {
        let names = AtMostOne::NAMES.join(", ");
        CliError::Usage(format!("unknown at-most-one encoding `{}`; choose one of {names}", args.at_most_one))
    })?;
    let output = super::settings::output_file("--output", args.output.clone())?;
    let puzzle = puzzle::load(&args.puzzle)?;
    let question = match (args.horizon, args.bound) {
        (Some(horizon), _) if horizon > MAX_HORIZON => {
            return Err(CliError::Usage(format!("--horizon {horizon}: give at most {MAX_HORIZON} moves")));
        }
        (Some(horizon), _) => Some(Question::Horizon(horizon)),
        (None, Some(bound)) => Some(Question::Bound(bound)),
        (None, None) => None,
    };
    let source = args.puzzle.display().to_string();
    let usage = |e: ExportError| match e {
        ExportError::Question(why) => CliError::Usage(format!("{source}: {why}")),
        ExportError::Io(e) => CliError::Output(e),
    };
    let write: WriteOut = match args.format.as_str() {
        "opb" | "lp" => {
            let model = linear_model(&puzzle, question).map_err(usage)?;
            let lp = args.format == "lp";
            Box::new(move |out| if lp { write_lp(&model, out) } else { write_opb(&model, out) })
        }
        _ => {
            let question = question.ok_or_else(|| {
                CliError::Usage("DIMACS holds one question: give `--horizon T` or `--bound K`".into())
            })?;
            let formula = formula(&puzzle, question, at_most_one).map_err(usage)?;
            let source = source.clone();
            Box::new(move |out| write_dimacs(&formula, &source, out).map_err(into_io))
        }
    };
    let written = match &output {
        Some(path) => std::fs::File::create(path).and_then(|mut file| {
            write(&mut file)?;
            file.flush()
        }),
        None => write(&mut std::io::stdout().lock()),
    };
    written.map_err(|e| match &output {
        Some(path) => CliError::Output(std::io::Error::new(e.kind(), format!("{}: {e}", path.display()))),
        None => CliError::Output(e),
    })?;
    Ok(Exit::Solved)
}

fn into_io(error: ExportError) -> std::io::Error {
    match error {
        ExportError::Io(e) => e,
        ExportError::Question(why) => std::io::Error::other(why),
    }
}

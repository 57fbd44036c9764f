//! `knights-sat export`: the formula of one horizon or bound, for an external solver.

use std::io::Write;

use knights_sat::encodings::encode::AtMostOne;
use knights_sat::encodings::puzzle;
use knights_sat::export::{formula, write_dimacs, ExportError, Question};

use super::args::ExportArgs;
use super::{CliError, Exit};

/// Writes the formula and returns the exit code.
pub fn run(args: ExportArgs) -> Result<Exit, CliError> {
    let at_most_one = AtMostOne::from_name(&args.at_most_one).ok_or_else(|| {
        let names = AtMostOne::NAMES.join(", ");
        CliError::Usage(format!("unknown at-most-one encoding `{}`; choose one of {names}", args.at_most_one))
    })?;
    let puzzle = puzzle::load(&args.puzzle)?;
    let question = match (args.horizon, args.bound) {
        (Some(horizon), _) => Question::Horizon(horizon),
        (None, Some(bound)) => Question::Bound(bound),
        (None, None) => return Err(CliError::Usage("give `--horizon T` or `--bound K`".into())),
    };
    let source = args.puzzle.display().to_string();
    let formula = formula(&puzzle, question, at_most_one).map_err(|e| match e {
        ExportError::Question(why) => CliError::Usage(format!("{source}: {why}")),
        ExportError::Io(e) => CliError::Output(e),
    })?;
    let written = match &args.output {
        Some(path) => std::fs::File::create(path).and_then(|mut file| {
            write_dimacs(&formula, &source, &mut file).map_err(into_io)?;
            file.flush()
        }),
        None => write_dimacs(&formula, &source, &mut std::io::stdout().lock()).map_err(into_io),
    };
    written.map_err(|e| match &args.output {
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

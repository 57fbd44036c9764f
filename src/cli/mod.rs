//! Command-line parsing, in two stages: clap reads raw flags ([`args`]), which are turned into
//! validated settings and a puzzle before any work starts ([`settings`]); [`solve`] then runs
//! the search with progress, timeout, Ctrl-C and SIGTERM handling and prints the outcome; [`export`]
//! writes the formula of one question for external solvers; [`verify`] checks a certificate;
//! [`cubes`] splits a placement into a job directory, searches its cubes and merges them.

mod args;
mod bench;
mod cube_threads;
mod cubes;
mod error;
mod export;
mod inline;
mod merge;
mod progress;
mod settings;
mod solve;
mod stop;
mod verify;

use clap::Parser;

pub use error::{CliError, Exit};

/// Parses the command line and runs the command.
pub fn run() -> Result<Exit, CliError> {
    let args = args::Cli::parse();
    match args.command {
        args::Command::Solve(solve) => {
            let settings = settings::SolveSettings::from_args(*solve)?;
            solve::run(settings)
        }
        args::Command::Export(export) => export::run(export),
        args::Command::Bench(bench) => bench::run(bench),
        args::Command::Verify(verify) => verify::run(&verify.dir),
        args::Command::Split(split) => cubes::split(split),
        args::Command::Cube(cube) => cubes::cube(cube),
        args::Command::Merge(args) => merge::merge(args),
    }
}

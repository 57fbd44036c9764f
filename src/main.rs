//! The `knights-sat` command. All work happens in [`cli`]; `main` only maps the result to an
//! exit code (documented in the README) and treats a closed pipe as success.

mod cli;

use std::process::ExitCode;

fn main() -> ExitCode {
    match cli::run() {
        Ok(code) => code.into(),
        Err(error) => {
            if error.is_broken_pipe() {
                return ExitCode::SUCCESS;
            }
            eprintln!("knights-sat: {error}");
            error.exit_code().into()
        }
    }
}

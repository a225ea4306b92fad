//! The `wuerfelglueck` command: parses arguments, calls the library, prints.

use std::io::Write;
use std::process::ExitCode;
use wuerfelglueck::cli::{Cli, run};

fn main() -> ExitCode {
    let cli = Cli::try_parse_args(std::env::args_os()).unwrap_or_else(|e| e.exit());
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let result = run(cli, &mut out);
    // What was printed before a failure (results whose plot then failed, the pairs solved
    // before one failed) reaches the reader before the error.
    let flushed = out.flush();
    let result = result.and_then(|()| flushed.map_err(Into::into));
    match result {
        Ok(()) => ExitCode::SUCCESS,
        // A closed pipe (`| head`) is the reader's choice, not a failure.
        Err(e) if e.message.contains("Broken pipe") => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(e.code as u8)
        }
    }
}

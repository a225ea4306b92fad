//! `serve`: the web app and the HTTP API ([`crate::web`]).

use super::CliError;
use crate::web::ServeOptions;
use clap::Args;

/// Serve the pages and the HTTP API on this machine (see the book's chapter "In the browser and over HTTP").
#[derive(Args, Debug)]
pub struct ServeArgs {
    /// The server's options.
    #[command(flatten)]
    pub options: ServeOptions,
}

/// Runs `serve` until Ctrl-C.
pub fn run(args: ServeArgs) -> Result<(), CliError> {
    crate::web::serve(&args.options, |address| {
        if !address.ip().is_loopback() {
            eprintln!(
                "warning: serving on {address}, which other machines can reach: anyone who can \
                 connect may run jobs here (bounded by --max-jobs, --job-seconds, --max-games \
                 and --max-memory)"
            );
        }
        eprintln!("wuerfelglueck serves on http://{address}/ (Ctrl-C stops it)");
    })
}

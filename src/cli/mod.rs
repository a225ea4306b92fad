//! The command line: argument structs (clap) and the glue that calls the library and
//! prints. No game logic lives here.
//!
//! Each subcommand has its own file with an `Args` struct and a `run` function.

pub mod advise;
pub mod converge;
pub mod duel;
pub mod grade;
pub mod play;
pub mod progress;
pub mod rank;
pub mod search;
#[cfg(feature = "server")]
pub mod serve;
pub mod solve;
pub mod table;
pub mod train;
pub mod wubbel;

/// The library's options and checks, and the terminal's progress, as the subcommands use
/// them.
pub mod common {
    pub use super::progress::{progress_bar, status_line};
    pub use crate::api::options::*;
}

use clap::{Parser, Subcommand};

/// Which die gives the best chance to win "Mensch ärgere Dich nicht"?
#[derive(Parser, Debug)]
#[command(name = "wuerfelglueck", version, about, long_about = None)]
pub struct Cli {
    /// The subcommand to run.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
    // Subcommand variants; keep one line each, in the order of `docs/src/cli.md`.
    /// Rank the dice of a BwInf dice file: every pair, the matrix, the ranking, cycles.
    Rank(rank::RankArgs),
    /// Simulate one die against another, each starting half the games.
    Duel(duel::DuelArgs),
    /// Simulate 2 to 4 dice at one table of as many players, every seating equally often.
    Table(table::TableArgs),
    /// Solve one die against another exactly, with certified intervals (reduced boards).
    Solve(solve::SolveArgs),
    /// Under --profile choice: every legal move of a roll in a position, with its value.
    Advise(advise::AdviseArgs),
    /// Grade strategies decision by decision against the exact values of a layered solve.
    Grade(grade::GradeArgs),
    /// Play one game and print it roll by roll.
    Play(play::PlayArgs),
    /// Wubbel (goal 50, bust face 6): optimal play, decision map, comparison with hold-at-n.
    Wubbel(wubbel::WubbelArgs),
    /// Pig (goal 100, bust face 1): the same as wubbel with Pig's defaults.
    Pig(wubbel::WubbelArgs),
    /// The simulation against the exact solver: error, interval coverage, stopping rules.
    Converge(converge::ConvergeArgs),
    /// Search a family of dice (e.g. all six-sided dice with faces 1..6) for the best die.
    Search(search::SearchArgs),
    /// Train a strong player (under --profile choice) by self-play and write its player file.
    Train(train::TrainArgs),
    /// Serve the web app and the HTTP API: pages for the dice and the board, games for bots.
    #[cfg(feature = "server")]
    Serve(serve::ServeArgs),
}

impl Cli {
    /// The command line's definition: the derived one, with negative numbers taken as
    /// values in every subcommand (so that `--face -1` is refused by the option's own
    /// check, not as an unknown argument `-1`).
    pub fn definition() -> clap::Command {
        let mut command = <Cli as clap::CommandFactory>::command();
        let names: Vec<String> = command
            .get_subcommands()
            .map(|s| s.get_name().to_string())
            .collect();
        for name in names {
            command = command.mut_subcommand(name, |s| s.allow_negative_numbers(true));
        }
        command
    }

    /// Parses a command line (the program name first) as [`Cli::definition`] defines it.
    pub fn try_parse_args<I, T>(args: I) -> Result<Cli, clap::Error>
    where
        I: IntoIterator<Item = T>,
        T: Into<std::ffi::OsString> + Clone,
    {
        let mut matches = Self::definition().try_get_matches_from(args)?;
        <Cli as clap::FromArgMatches>::from_arg_matches_mut(&mut matches)
    }
}

pub use crate::report::Format;

/// An error for the user, with the process exit code it maps to (the library's).
pub use crate::api::Error as CliError;
pub use crate::api::{check_plot, plot_error, rule_error};

/// Runs a parsed command line; output goes to `out`.
pub fn run(cli: Cli, out: &mut dyn std::io::Write) -> Result<(), CliError> {
    // Before any work, for every command alike.
    let threads = match &cli.command {
        Command::Rank(args) => args.options.sim.threads,
        Command::Duel(args) => args.options.sim.threads,
        Command::Table(args) => args.options.sim.threads,
        Command::Solve(args) => args.options.threads,
        Command::Converge(args) => args.options.threads,
        Command::Search(args) => args.options.threads,
        Command::Grade(args) => args.options.threads,
        Command::Advise(_)
        | Command::Play(_)
        | Command::Wubbel(_)
        | Command::Pig(_)
        | Command::Train(_) => None,
        #[cfg(feature = "server")]
        Command::Serve(_) => None,
    };
    common::check_threads(threads)?;
    // A path the environment forces that names none, or that this processor cannot run.
    crate::sim::LanesPath::from_environment().map_err(CliError::input)?;
    match cli.command {
        Command::Rank(args) => rank::run(args, out),
        Command::Duel(args) => duel::run(args, out),
        Command::Table(args) => table::run(args, out),
        Command::Solve(args) => solve::run(args, out),
        Command::Advise(args) => advise::run(args, out),
        Command::Grade(args) => grade::run(args, out),
        Command::Play(args) => play::run(args, out),
        Command::Wubbel(args) => wubbel::run(args, out),
        Command::Pig(args) => wubbel::run_pig(args, out),
        Command::Converge(args) => converge::run(args, out),
        Command::Search(args) => search::run(args, out),
        Command::Train(args) => train::run(args, out),
        #[cfg(feature = "server")]
        Command::Serve(args) => serve::run(args),
    }
}

//! `advise`: the legal moves of one roll in a position, each with its value.

use super::common::{RulesOptions, memory_limit, parse_die};
use super::{CliError, Format};
use crate::exact::game::advise::{advise_exact, advise_simulated};
use crate::exact::game::position::parse_position;
use crate::exact::{ExactError, SolveOptions};
use crate::report::{self, AdviseReport};
use crate::strategy::Strategy;
use clap::Args;
use std::io::Write;

/// Every legal move of a roll under --profile choice, with its value P(A wins) - P(B wins):
/// exact where the game fits in --max-memory, else simulated.
#[derive(Args, Debug)]
pub struct AdviseArgs {
    /// Die A.
    #[arg(long = "a", value_name = "FACES")]
    pub die_a: String,
    /// Die B.
    #[arg(long = "b", value_name = "FACES")]
    pub die_b: String,
    /// Board and rule profile (default `choice`; a profile without `choice` is refused: it
    /// leaves the mover one move, the frontmost).
    #[command(flatten)]
    pub rules: RulesOptions,
    /// The position, e.g. `A:0,17,c B:A,5 turn:A`: each player's pieces on the board in
    /// its own numbering (a track number, A for the start field, goal letters a, b, ...;
    /// the rest wait in B) and who rolls (`turn:A` when not given).
    #[arg(long)]
    pub position: String,
    /// The face rolled.
    #[arg(long)]
    pub face: u32,
    /// Exact: the solver's stopping tolerance (the certified intervals printed are as wide
    /// as the solve reached, which is usually narrower).
    #[arg(long, default_value_t = 1e-9)]
    pub tolerance: f64,
    /// Solve exactly only if this much memory suffices (default: 80 % of the RAM); `0`
    /// forces the simulation.
    #[arg(long = "max-memory", value_name = "SIZE")]
    pub max_memory: Option<String>,
    /// Simulation: A's strategy after the move.
    #[arg(long = "strategy-a", default_value = "frontmost")]
    pub strategy_a: String,
    /// Simulation: B's strategy after the move.
    #[arg(long = "strategy-b", default_value = "frontmost")]
    pub strategy_b: String,
    /// Simulation: games per move.
    #[arg(long, default_value_t = 20_000)]
    pub games: u64,
    /// Simulation: seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Simulation: a game reaching this many rolls counts 0.
    #[arg(long = "max-rolls", default_value_t = 100_000)]
    pub max_rolls: u64,
    /// Output format.
    #[arg(long, default_value_t = Format::Table, value_parser = Format::parser(&Format::ALL))]
    pub format: Format,
}

/// Runs `advise`.
pub fn run(args: AdviseArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let rules = args.rules.rules_with_default_profile("choice")?;
    if !rules.profile().choice {
        return Err(CliError::input(format!(
            "--profile {}: advise compares the moves a player may choose among, and without \
             `choice` rule 3 leaves one (the frontmost piece that can move); use --profile \
             choice or add +choice",
            rules.profile()
        )));
    }
    let a = parse_die("--a", &args.die_a)?;
    let b = parse_die("--b", &args.die_b)?;
    let position = parse_position(&rules, &args.position)
        .map_err(|e| CliError::input(format!("--position: {e}")))?;
    let mover = position.mover();
    if ![&a, &b][mover].faces().contains(&args.face) {
        return Err(CliError::input(format!(
            "--face {}: the die of {} has no such face",
            args.face,
            if mover == 0 { "A" } else { "B" }
        )));
    }
    if args.games < 2 {
        return Err(CliError::input("--games: expected at least 2"));
    }
    let max_memory = memory_limit(args.max_memory.as_deref())?;
    let options = SolveOptions::new(args.tolerance, 100_000, max_memory)
        .map_err(|e| super::rule_error(e.0))?;
    let exact = advise_exact(&rules, [&a, &b], &position, args.face, &options);
    let (moves, method, strategies, note) = match exact {
        Ok(moves) => (
            moves,
            "exact",
            ["optimal".to_string(), "optimal".to_string()],
            String::new(),
        ),
        Err(ExactError::Memory { bytes, .. }) => {
            let parse = |option: &str, text: &str| -> Result<Strategy, CliError> {
                text.parse()
                    .map_err(|e| CliError::input(format!("{option}: {e}")))
            };
            let sa = parse("--strategy-a", &args.strategy_a)?;
            let sb = parse("--strategy-b", &args.strategy_b)?;
            for s in [&sa, &sb] {
                if let Strategy::Table(t) = s {
                    t.check_game(&rules, [&a, &b]).map_err(CliError::input)?;
                }
            }
            let moves = advise_simulated(
                &rules,
                [&a, &b],
                [&sa, &sb],
                &position,
                args.face,
                args.games,
                args.seed,
                args.max_rolls,
            );
            (
                moves,
                "simulated",
                [sa.name(), sb.name()],
                format!(
                    "The exact solve would need about {}, more than --max-memory allows.",
                    crate::exact::memory::format_bytes(bytes)
                ),
            )
        }
        Err(e @ (ExactError::Profile(_) | ExactError::Options(_) | ExactError::RollOff)) => {
            return Err(CliError::input(e));
        }
        Err(e) => return Err(CliError::failure(e)),
    };
    let report = AdviseReport::new(
        &rules,
        args.position.clone(),
        mover,
        args.face,
        method,
        strategies,
        &moves,
        note,
    );
    report::write(out, &report, args.format)?;
    Ok(())
}

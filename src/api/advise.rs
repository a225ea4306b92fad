//! `advise`: the legal moves of one roll in a position, each with its value.

use super::options::{RulesOptions, memory_limit, parse_die};
use super::{Error, Progress, run_in_pool};
use crate::dice::Die;
use crate::exact::game::advise::{advise_exact, advise_simulated};
use crate::exact::game::position::parse_position;
use crate::exact::{ExactError, SolveOptions};
use crate::report::AdviseReport;
use crate::rules::{GameState, Rules};
use crate::strategy::Strategy;
use clap::Args;

/// The options of `advise`: every legal move of a roll under --profile choice, with its
/// value P(A wins) - P(B wins): exact where the game fits in --max-memory, else simulated.
#[derive(Args, Debug, Clone)]
pub struct AdviseOptions {
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
    /// Simulation: A's strategy after the move [default: strong where a learned player was
    /// trained for the board and profile, else frontmost].
    #[arg(long = "strategy-a")]
    pub strategy_a: Option<String>,
    /// Simulation: B's strategy after the move [default: as for --strategy-a].
    #[arg(long = "strategy-b")]
    pub strategy_b: Option<String>,
    /// Simulation: games per move.
    #[arg(long, default_value_t = 20_000)]
    pub games: u64,
    /// Simulation: seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Simulation: a game reaching this many rolls counts 0.
    #[arg(long = "max-rolls", default_value_t = 100_000)]
    pub max_rolls: u64,
}

/// The profile `advise` plays when `--profile` is not given.
pub const ADVISE_PROFILE: &str = "choice";

/// An advice's options, checked. The simulation's strategies are read only when the exact
/// solve does not fit (as the command line always has: an exact advice ignores them).
#[derive(Debug, Clone)]
pub struct AdviseSettings {
    rules: Rules,
    dice: [Die; 2],
    position_text: String,
    position: GameState,
    face: u32,
    solve: SolveOptions,
    strategies: [Option<String>; 2],
    games: u64,
    seed: u64,
    max_rolls: u64,
}

impl AdviseSettings {
    /// Checks `options`; the first bad value is refused with a message naming its option.
    pub fn new(options: &AdviseOptions) -> Result<AdviseSettings, Error> {
        let o = options;
        let rules = o.rules.rules_with_default_profile(ADVISE_PROFILE)?;
        if !rules.profile().choice {
            return Err(Error::input(format!(
                "--profile {}: advise compares the moves a player may choose among, and without \
                 `choice` rule 3 leaves one (the frontmost piece that can move); use --profile \
                 choice or add +choice",
                rules.profile()
            )));
        }
        let a = parse_die("--a", &o.die_a)?;
        let b = parse_die("--b", &o.die_b)?;
        let position = parse_position(&rules, &o.position)
            .map_err(|e| Error::input(format!("--position: {e}")))?;
        let mover = position.mover();
        if ![&a, &b][mover].faces().contains(&o.face) {
            return Err(Error::input(format!(
                "--face {}: the die of {} has no such face",
                o.face,
                if mover == 0 { "A" } else { "B" }
            )));
        }
        if o.games < 2 {
            return Err(Error::input("--games: expected at least 2"));
        }
        let max_memory = memory_limit(o.max_memory.as_deref())?;
        let solve = SolveOptions::new(o.tolerance, 100_000, max_memory)
            .map_err(|e| super::rule_error(e.0))?;
        Ok(AdviseSettings {
            rules,
            dice: [a, b],
            position_text: o.position.clone(),
            position,
            face: o.face,
            solve,
            strategies: [o.strategy_a.clone(), o.strategy_b.clone()],
            games: o.games,
            seed: o.seed,
            max_rolls: o.max_rolls,
        })
    }
}

/// Runs `advise`: every legal move with its value, solved exactly where the game fits in
/// `--max-memory`, else simulated.
pub fn advise(settings: &AdviseSettings, progress: &dyn Progress) -> Result<AdviseReport, Error> {
    let s = settings;
    let rules = &s.rules;
    let [a, b] = &s.dice;
    let mover = s.position.mover();
    let (moves, method, strategies, note) = run_in_pool(None, progress, |_| {
        let exact = advise_exact(rules, [a, b], &s.position, s.face, &s.solve);
        Ok(match exact {
            Ok(moves) => (
                moves,
                "exact",
                ["optimal".to_string(), "optimal".to_string()],
                String::new(),
            ),
            Err(ExactError::Memory { bytes, .. }) => {
                let parse = |option: &str, text: &str| -> Result<Strategy, Error> {
                    text.parse()
                        .map_err(|e| Error::input(format!("{option}: {e}")))
                };
                // Both players go on as well as the program can play: the learned player where
                // one was trained for this game.
                let default = if crate::strategy::Strong::shipped().for_game(rules).is_some() {
                    "strong"
                } else {
                    "frontmost"
                };
                let sa = parse(
                    "--strategy-a",
                    s.strategies[0].as_deref().unwrap_or(default),
                )?;
                let sb = parse(
                    "--strategy-b",
                    s.strategies[1].as_deref().unwrap_or(default),
                )?;
                for st in [&sa, &sb] {
                    st.check_game(rules, [a, b]).map_err(Error::input)?;
                }
                let moves = advise_simulated(
                    rules,
                    [a, b],
                    [&sa, &sb],
                    &s.position,
                    s.face,
                    s.games,
                    s.seed,
                    s.max_rolls,
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
                return Err(Error::input(e));
            }
            Err(e) => return Err(Error::failure(e)),
        })
    })?;
    Ok(AdviseReport::new(
        rules,
        s.position_text.clone(),
        mover,
        s.face,
        method,
        strategies,
        &moves,
        note,
    ))
}

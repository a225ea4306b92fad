//! `advise`: the legal moves of one roll in a position, each with its value.

use super::options::{RulesOptions, memory_limit, parse_die};
use super::{Error, Progress, run_in_pool};
use crate::dice::Die;
use crate::exact::game::advise::{
    MoveValue, advise_by_evaluator, advise_exact, advise_from_values, advise_simulated_with,
};
use crate::exact::game::layered::LayeredValues;
use crate::exact::game::position::parse_position;
use crate::exact::{Bounds, ExactError, SolveOptions};
use crate::report::{AdviseReport, EvaluatorScores};
use crate::rules::{GameState, Rules};
use crate::strategy::{Strategy, Strong};
use crate::work::notes::GameSolveNotes;
use std::sync::Arc;

/// The options of `advise`: every legal move of a roll under --profile choice, with its
/// value P(A wins) - P(B wins): exact where the game fits in --max-memory, else simulated.
#[derive(Debug, Clone)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
pub struct AdviseOptions {
    /// Die A.
    #[cfg_attr(feature = "clap", arg(long = "a", value_name = "FACES"))]
    pub die_a: String,
    /// Die B.
    #[cfg_attr(feature = "clap", arg(long = "b", value_name = "FACES"))]
    pub die_b: String,
    /// Board and rule profile (default `choice`; a profile without `choice` is refused: it
    /// leaves the mover one move, the frontmost).
    #[cfg_attr(feature = "clap", command(flatten))]
    pub rules: RulesOptions,
    /// The position, e.g. `A:0,17,c B:A,5 turn:A`: each player's pieces on the board in
    /// its own numbering (a track number, A for the start field, goal letters a, b, ...;
    /// the rest wait in B) and who rolls (`turn:A` when not given).
    #[cfg_attr(feature = "clap", arg(long))]
    pub position: String,
    /// The face rolled.
    #[cfg_attr(feature = "clap", arg(long))]
    pub face: u32,
    /// Exact values from the group files of a layered solve (`solve --layered
    /// --values-out DIR`) for this game: used where every move leads into a group they
    /// hold (on 40/20/4/4, outside the core), without solving; elsewhere the advice is
    /// solved or simulated as without it.
    #[cfg_attr(feature = "clap", arg(long, value_name = "DIR"))]
    pub values: Option<std::path::PathBuf>,
    /// Exact: the solver's stopping tolerance (the certified intervals printed are as wide
    /// as the solve reached, which is usually narrower).
    #[cfg_attr(feature = "clap", arg(long, default_value_t = 1e-9))]
    pub tolerance: f64,
    /// Solve exactly only if this much memory suffices (default: 80 % of the RAM); `0`
    /// forces the simulation.
    #[cfg_attr(feature = "clap", arg(long = "max-memory", value_name = "SIZE"))]
    pub max_memory: Option<String>,
    /// Simulation: A's strategy after the move [default: strong where a learned player was
    /// trained for the board and profile, else frontmost].
    #[cfg_attr(feature = "clap", arg(long = "strategy-a"))]
    pub strategy_a: Option<String>,
    /// Simulation: B's strategy after the move [default: as for --strategy-a].
    #[cfg_attr(feature = "clap", arg(long = "strategy-b"))]
    pub strategy_b: Option<String>,
    /// Where the game does not fit: games played on from each move with the strategies
    /// above, for a value with a 95 % interval; `0` scores the moves with the learned
    /// player's evaluator alone (an estimate without an interval, instant).
    #[cfg_attr(
        feature = "clap",
        arg(
            long,
            visible_alias = "games",
            value_name = "N",
            default_value_t = 20_000
        )
    )]
    pub rollouts: u64,
    /// Simulation: seed.
    #[cfg_attr(feature = "clap", arg(long, default_value_t = 1))]
    pub seed: u64,
    /// Simulation: a game reaching this many rolls counts 0.
    #[cfg_attr(feature = "clap", arg(long = "max-rolls", default_value_t = 100_000))]
    pub max_rolls: u64,
    /// Simulation: subtract from each game's result the luck of its rolls as the learned
    /// player's evaluator judges it (variance reduction, as backgammon rollouts do): the same
    /// values with less noise, each roll costing an evaluation of every face. `on` (the
    /// option alone) refuses a game no learned player was trained for, `auto` simulates it
    /// plainly then; exact advice ignores it.
    #[cfg_attr(feature = "clap", arg(
        long = "variance-reduction",
        value_enum,
        value_name = "WHEN",
        default_value = "off",
        num_args = 0..=1,
        default_missing_value = "on"
    ))]
    pub variance_reduction: VarianceReduction,
}

/// When simulated advice reduces its noise by the luck of the rolls (`--variance-reduction`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
pub enum VarianceReduction {
    /// Plain rollouts.
    #[default]
    Off,
    /// With the learned player's evaluator; refused where none was trained for the game.
    On,
    /// Where a learned player was trained for the game, else plain rollouts.
    Auto,
}

/// The profile `advise` plays when `--profile` is not given.
pub const ADVISE_PROFILE: &str = "choice";

/// Where an advice reads exact values from.
#[derive(Clone)]
enum ValuesSource {
    /// `--values DIR`, opened for this advice; another game's folder is refused.
    Folder(std::path::PathBuf),
    /// Values opened by the caller (the web server's `--values`), used where the advice's
    /// game is theirs.
    Open(Arc<LayeredValues>),
}

impl std::fmt::Debug for ValuesSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ValuesSource::Folder(dir) => write!(f, "Folder({})", dir.display()),
            ValuesSource::Open(v) => write!(f, "Open({})", v.game()),
        }
    }
}

/// An advice's options, checked. The simulation's strategies are read only when the exact
/// solve does not fit (as the command line always has: an exact advice ignores them).
#[derive(Debug, Clone)]
pub struct AdviseSettings {
    rules: Rules,
    dice: [Die; 2],
    position_text: String,
    position: GameState,
    face: u32,
    values: Option<ValuesSource>,
    solve: SolveOptions,
    strategies: [Option<String>; 2],
    rollouts: u64,
    seed: u64,
    max_rolls: u64,
    variance_reduction: VarianceReduction,
}

impl AdviseSettings {
    /// The same advice reading `values` (opened once by the caller, e.g. a server) where
    /// they are of its game; otherwise as it was.
    pub fn with_values_of_its_game(mut self, values: &Arc<LayeredValues>) -> AdviseSettings {
        let [a, b] = &self.dice;
        if self.values.is_none() && values.check_game(&self.rules, [a, b]).is_ok() {
            self.values = Some(ValuesSource::Open(Arc::clone(values)));
        }
        self
    }

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
        if o.rollouts == 1 {
            return Err(Error::input(
                "--rollouts 1: expected 0 (the learned player's scores alone) or at least 2 \
                 (one game gives no interval)",
            ));
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
            values: o.values.clone().map(ValuesSource::Folder),
            solve,
            strategies: [o.strategy_a.clone(), o.strategy_b.clone()],
            rollouts: o.rollouts,
            seed: o.seed,
            max_rolls: o.max_rolls,
            variance_reduction: o.variance_reduction,
        })
    }
}

/// Runs `advise`: every legal move with its value, solved exactly where the game fits in
/// `--max-memory`, else simulated (or, with `--rollouts 0`, scored by the learned player
/// alone). Each move also carries the learned player's score where one plays this game.
pub fn advise(settings: &AdviseSettings, progress: &dyn Progress) -> Result<AdviseReport, Error> {
    let s = settings;
    let rules = &s.rules;
    let [a, b] = &s.dice;
    let mover = s.position.mover();
    // The learned player whose scores are shown: the mover's own if it plays one, else the
    // shipped one for this game.
    let mut scorer: Option<(String, Arc<Strong>)> = Strong::shipped()
        .for_game(rules)
        .map(|_| ("strong".to_string(), Strong::shipped()));
    // A board like 40/20/3/4 takes minutes to solve: the solver's usual lines.
    let notes = GameSolveNotes::new(
        s.solve.tolerance,
        rules.board().pieces(),
        "advise: solving the game",
        progress,
    );
    let from_values = match &s.values {
        Some(ValuesSource::Folder(dir)) => {
            let values =
                LayeredValues::open_dir(dir).map_err(|e| Error::input(format!("--values: {e}")))?;
            let [a, b] = &s.dice;
            values
                .check_game(&s.rules, [a, b])
                .map_err(|e| Error::input(format!("--values {}: {e}", dir.display())))?;
            advise_with_values(s, &values, &dir.display().to_string())?
        }
        Some(ValuesSource::Open(values)) => advise_with_values(s, values, "the server's values")?,
        None => Err(String::new()),
    };
    let (moves, method, strategies, note, reduced) = run_in_pool(None, progress, |_| {
        let fallback_note = match from_values {
            Ok((moves, note)) => {
                return Ok((
                    moves,
                    "exact",
                    ["optimal".to_string(), "optimal".to_string()],
                    note,
                    false,
                ));
            }
            Err(note) => note,
        };
        let exact = advise_exact(rules, [a, b], &s.position, s.face, &s.solve, &|p| {
            notes.report(p)
        });
        Ok(match exact {
            Ok(moves) => (
                moves,
                "exact",
                ["optimal".to_string(), "optimal".to_string()],
                fallback_note.trim_end().to_string(),
                false,
            ),
            Err(ExactError::Memory { bytes, .. }) => {
                let parse = |option: &str, text: &str| -> Result<Strategy, Error> {
                    text.parse()
                        .map_err(|e| Error::input(format!("{option}: {e}")))
                };
                // Both players go on as well as the program can play: the learned player where
                // one was trained for this game.
                let default = if scorer.is_some() {
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
                for (st, option) in [(&sa, "--strategy-a"), (&sb, "--strategy-b")] {
                    st.check_game(rules, [a, b])
                        .map_err(|e| Error::input(format!("{option}: {e}")))?;
                }
                if let Some(learned) = [&sa, &sb][mover].learned() {
                    // The moves are scored by the network itself, named as `strong`.
                    let name = Strategy::Strong(Arc::clone(learned)).name();
                    scorer = Some((name, Arc::clone(learned)));
                }
                let note = format!(
                    "{fallback_note}The exact solve would need about {}, more than --max-memory \
                     allows.",
                    crate::exact::memory::format_bytes(bytes)
                );
                if s.rollouts == 0 {
                    let Some((name, learned)) = &scorer else {
                        return Err(Error::input(format!(
                            "--rollouts 0 scores the moves with a learned player, and none plays \
                             board {} with profile {}: give --rollouts N (at least 2) to simulate, \
                             or a player trained for this game as --strategy-{} strong:FILE",
                            rules.board(),
                            rules.profile(),
                            ["a", "b"][mover]
                        )));
                    };
                    let moves = scores_of(rules, learned, &s.position, s.face)
                        .into_iter()
                        .map(|(movement, score)| MoveValue {
                            movement,
                            value: Bounds {
                                lo: score,
                                hi: score,
                            },
                            games: 0,
                            gap: None,
                        })
                        .collect();
                    (
                        moves,
                        "evaluator",
                        [name.clone(), name.clone()],
                        note,
                        false,
                    )
                } else {
                    // The luck of the rolls judged by the learned player whose scores are
                    // shown: the mover's own where it plays one, else the shipped one.
                    let luck = match (s.variance_reduction, &scorer) {
                        (VarianceReduction::Off, _) => None,
                        (_, Some((_, learned))) => Some(Arc::clone(learned)),
                        (VarianceReduction::Auto, None) => None,
                        (VarianceReduction::On, None) => {
                            return Err(Error::input(format!(
                                "--variance-reduction: the luck of the rolls is judged by a \
                                 learned player's evaluator, and none was trained for board {} \
                                 with profile {} ({}): use --variance-reduction auto (plain \
                                 rollouts where none plays) or a player trained for this game \
                                 as --strategy-{} strong:FILE",
                                rules.board(),
                                rules.profile(),
                                Strong::shipped().trained_for(),
                                ["a", "b"][mover]
                            )));
                        }
                    };
                    let evaluator = luck.as_ref().map(|l| {
                        l.for_game(rules)
                            .expect("a player for this game")
                            .evaluator()
                    });
                    let moves = advise_simulated_with(
                        rules,
                        [a, b],
                        [&sa, &sb],
                        &s.position,
                        s.face,
                        s.rollouts,
                        s.seed,
                        s.max_rolls,
                        evaluator,
                    );
                    let note = match &scorer {
                        Some((name, _)) if evaluator.is_some() => format!(
                            "{note} Variance-reduced: each game's result less the luck of its \
                             rolls as {name}'s evaluator judges it."
                        ),
                        _ if s.variance_reduction == VarianceReduction::Auto => format!(
                            "{note} Not variance-reduced: no learned player plays this game."
                        ),
                        _ => note,
                    };
                    (
                        moves,
                        "simulated",
                        [sa.name(), sb.name()],
                        note,
                        evaluator.is_some(),
                    )
                }
            }
            Err(e @ (ExactError::Profile(_) | ExactError::Options(_) | ExactError::RollOff)) => {
                return Err(Error::input(e));
            }
            Err(e) => return Err(Error::failure(e)),
        })
    })?;
    let scores = scorer.map(|(player, learned)| EvaluatorScores {
        player,
        scores: scores_of(rules, &learned, &s.position, s.face)
            .into_iter()
            .map(|(_, score)| score)
            .collect(),
    });
    let mut report = AdviseReport::new(
        rules,
        s.position_text.clone(),
        mover,
        s.face,
        method,
        strategies,
        &moves,
        scores,
        note,
    );
    report.variance_reduced = reduced;
    Ok(report)
}

/// The moves valued from `values` (of this advice's game, named `name` in the note), or,
/// where a move leads into a group they do not hold, the sentence that says so (the advice
/// goes on without them). Unreadable or damaged files are an error.
fn advise_with_values(
    s: &AdviseSettings,
    values: &LayeredValues,
    name: &str,
) -> Result<Result<(Vec<MoveValue>, String), String>, Error> {
    match advise_from_values(values, &s.position, s.face) {
        Ok(Some(moves)) => Ok(Ok((
            moves,
            format!(
                "Values read from {name} (groups solved to {:e}).",
                values.tolerance()
            ),
        ))),
        Ok(None) => Ok(Err(format!(
            "{name}: no values for a group a move leads into (the core, where neither side \
             has a piece home, or a group not solved). "
        ))),
        Err(e @ ExactError::Profile(_)) => Err(Error::input(format!("--position: {e}"))),
        Err(e) => Err(Error::input(format!("--values: {e}"))),
    }
}

/// The scores of `learned`'s player for this game (one plays it: checked by the caller).
fn scores_of(
    rules: &Rules,
    learned: &Strong,
    position: &GameState,
    face: u32,
) -> Vec<(crate::rules::PieceMove, f64)> {
    let player = learned.for_game(rules).expect("a player for this game");
    advise_by_evaluator(rules, player.evaluator(), position, face)
}

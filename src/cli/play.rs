//! `play`: one game, roll by roll, for checking the rules by eye.

use super::CliError;
use super::common::{RulesArgs, matchup, parse_die};
use crate::rules::{GameState, MoveRule, RollOutcome, Rules};
use crate::sim::StreamKey;
use clap::Args;
use std::io::Write;

/// Play one game and print every roll.
#[derive(Args, Debug)]
pub struct PlayArgs {
    /// Die A (player 1), e.g. `1..6`.
    #[arg(long = "a", value_name = "FACES")]
    pub die_a: String,
    /// Die B (player 2).
    #[arg(long = "b", value_name = "FACES")]
    pub die_b: String,
    /// Seed of the game's random stream.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Who starts: `a` or `b` (ignored under roll-off).
    #[arg(long, default_value = "a", value_parser = ["a", "b"])]
    pub first: String,
    /// Stop after this many rolls if nobody has won.
    #[arg(long = "max-rolls", default_value_t = 10_000)]
    pub max_rolls: u64,
    /// Players at the table, 2 to 4: seats A (moves first), B, then one `--die` each.
    #[arg(long, default_value_t = 2)]
    pub players: usize,
    /// The dice of seats C and D with `--players 3` or `4`.
    #[arg(long = "die", value_name = "FACES")]
    pub more_dice: Vec<String>,
    /// Board and rule profile.
    #[command(flatten)]
    pub rules: RulesArgs,
}

const NAMES: [&str; 2] = ["A", "B"];

/// Runs `play`.
pub fn run(args: PlayArgs, out: &mut dyn Write) -> Result<(), CliError> {
    if args.players != 2 || !args.more_dice.is_empty() {
        return super::table::play_at_table(&args, out);
    }
    let rules = args.rules.rules()?;
    let a = parse_die("--a", &args.die_a)?;
    let b = parse_die("--b", &args.die_b)?;
    let matchup = matchup(&rules, &a, &b, args.max_rolls, "--max-rolls")?;
    let mut rng = StreamKey::new(args.seed).rng(0);
    let default_first = usize::from(args.first == "b");
    let first = matchup.first_player(default_first, &mut rng);
    let board = rules.board();
    writeln!(
        out,
        "A = {a} (player 1), B = {b} (player 2); rules {} on board {board}; seed {}",
        rules.profile(),
        args.seed
    )?;
    writeln!(
        out,
        "Fields from each owner's view: A = start field, 1..{} track, {}.. goal; B's field r is A's field (r + {}) mod {}.",
        board.track_len() - 1,
        board.field_name(board.track_len()),
        board.offset(),
        board.track_len()
    )?;
    writeln!(
        out,
        "{} starts.   A: {}   B: {}",
        NAMES[first],
        describe(&rules, &GameState::start(first), 0),
        describe(&rules, &GameState::start(first), 1)
    )?;
    let mut state = GameState::start(first);
    for roll in 1..=args.max_rolls {
        let mover = state.mover();
        let face = matchup.dice()[mover].roll(&mut rng);
        let outcome = rules.play_roll(&mut state, face);
        writeln!(
            out,
            "{roll:>5}  {} rolls {face:>2}: {:<52} A: {}   B: {}",
            NAMES[mover],
            narrate(&rules, &outcome),
            describe(&rules, &state, 0),
            describe(&rules, &state, 1)
        )?;
        if let Some(w) = outcome.winner {
            writeln!(out, "{} wins after {roll} rolls.", NAMES[w])?;
            return Ok(());
        }
        if crate::sim::never_ends(&rules, matchup.dice(), &state) {
            writeln!(out, "Nobody can ever move again: the game never ends.")?;
            return Ok(());
        }
    }
    writeln!(
        out,
        "No winner after {} rolls (--max-rolls).",
        args.max_rolls
    )?;
    Ok(())
}

fn describe(rules: &Rules, state: &GameState, player: usize) -> String {
    state.describe(rules.board(), player)
}

/// One roll in words: the move, the rule that chose it, a capture, who is next.
fn narrate(rules: &Rules, o: &RollOutcome) -> String {
    let board = rules.board();
    let mut text = match o.movement {
        None => "no piece can move".to_string(),
        Some(m) => {
            let from = m.from.map_or("B".to_string(), |f| board.field_name(f));
            let why = match m.rule {
                MoveRule::BringIn => "brought in",
                MoveRule::ClearStart => "clears the start field",
                MoveRule::Frontmost => "frontmost that can move",
                MoveRule::Chosen => "chosen",
            };
            format!("{from} -> {} ({why})", board.field_name(m.to))
        }
    };
    if let Some(f) = o.captured {
        text += &format!(
            ", captures {}'s piece on {}",
            NAMES[1 - o.mover],
            board.field_name(f)
        );
    }
    if o.winner.is_none() {
        text += if o.rolls_again { "; rolls again" } else { "" };
    }
    text
}

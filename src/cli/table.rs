//! `table`: three or four dice (or two) at one table, simulated.

use super::common::{DEFAULT_PRECISION, RulesArgs, SimArgs, parse_die, progress_bar};
use super::{CliError, Format};
use crate::dice::Die;
use crate::report::{TableReport, TableSettings};
use crate::rules::{Rules, Seats};
use crate::sim::{Seating, StreamKey, Table, TableError, TableStop};
use clap::Args;
use std::io::Write;

/// Simulate N dice at one table of N players (N = 2, 3 or 4), every seating equally often.
#[derive(Args, Debug)]
pub struct TableArgs {
    /// A die per seat, 2 to 4 times, e.g. `--die 1..6 --die 0..9 --die 1,1,1,6,6,6`.
    #[arg(long = "die", value_name = "FACES", required = true, num_args = 1)]
    pub dice: Vec<String>,
    /// `all`: every assignment of the dice to the seats equally often (the fair comparison);
    /// `fixed`: the dice in the seats in the order given (the first die moves first).
    #[arg(long, value_enum, default_value_t = Seating::All)]
    pub seating: Seating,
    /// Games, seed, threads (`--games` must be a multiple of N!, the seatings, under `all`).
    #[command(flatten)]
    pub sim: SimArgs,
    /// Board and rule profile (with 3 or 4 players seat s starts at s * track / 4).
    #[command(flatten)]
    pub rules: RulesArgs,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Table)]
    pub format: Format,
}

/// The table of `players` seats under the command line's rules, refusals as input errors.
pub fn seats(rules: &Rules, players: usize, option: &str) -> Result<Seats, CliError> {
    Seats::new(*rules, players).map_err(|e| match e {
        crate::rules::SeatsError::Players(_) => CliError::input(format!("{option}: {e}")),
        crate::rules::SeatsError::Switch { .. } => CliError::input(format!("--profile: {e}")),
        crate::rules::SeatsError::Offset { .. } => CliError::input(format!("--offset: {e}")),
    })
}

/// Maps a table error to the option at fault (input) or a failure while running.
pub fn table_error(e: TableError) -> CliError {
    match e {
        TableError::DiceCount { .. } => CliError::input(format!("--die: {e}")),
        TableError::NoRolls => CliError::input("--max-rolls 0: expected at least 1 roll"),
        TableError::Games { .. } => CliError::input(format!("--games: {e}")),
        TableError::Plan(crate::sim::PlanError::TooManyGames(_)) => {
            CliError::input(format!("--games: {e}"))
        }
        TableError::Plan(_) => CliError::input(format!("--precision: {e}")),
        TableError::PrecisionNotReached { .. } => CliError::failure(e),
    }
}

/// Runs `table`.
pub fn run(args: TableArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let rules = args.rules.rules()?;
    let dice: Vec<Die> = args
        .dice
        .iter()
        .map(|text| parse_die("--die", text))
        .collect::<Result<_, _>>()?;
    let seats = seats(&rules, dice.len(), "--die (one per player)")?;
    let refs: Vec<&Die> = dice.iter().collect();
    let table =
        Table::new(&seats, &refs, args.sim.max_rolls()?, args.seating).map_err(table_error)?;
    let precision = args.sim.precision.unwrap_or(DEFAULT_PRECISION);
    let stop = table
        .stopping(args.sim.games, precision)
        .map_err(table_error)?;
    let total = match stop {
        TableStop::Games(n) => Some(n),
        TableStop::Precision(_) => None,
    };
    let names: Vec<String> = dice.iter().map(|d| d.to_string()).collect();
    let bar = progress_bar(total, &names.join(" | "));
    let key = StreamKey::new(args.sim.seed);
    let counts = args
        .sim
        .in_pool(|| table.run(key, stop, &|n| bar.inc(n)))?
        .map_err(table_error)?;
    bar.finish_and_clear();
    let report = TableReport::new(
        &refs,
        &counts,
        args.seating,
        TableSettings {
            seed: args.sim.seed,
            profile: rules.profile().to_string(),
            board: rules.board().to_string(),
            max_rolls: table.max_rolls(),
            precision: match stop {
                TableStop::Precision(h) => Some(h),
                TableStop::Games(_) => None,
            },
        },
    );
    crate::report::write(out, &report, args.format)?;
    Ok(())
}

/// Runs `rank --players N`: every N-subset of `dice` at a table, and the pairwise ranking.
pub fn rank_at_tables(
    args: &super::rank::RankArgs,
    rules: &Rules,
    dice: &[Die],
    players: usize,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    if !(3..=4).contains(&players) {
        return Err(CliError::input(format!(
            "--players {players}: expected 3 or 4 (rank without --players is the two-player ranking)"
        )));
    }
    if dice.len() < players {
        return Err(CliError::input(format!(
            "--players {players}: the list has only {} dice, too few for one table",
            dice.len()
        )));
    }
    let seats = seats(rules, players, "--players")?;
    let max_rolls = args.sim.max_rolls()?;
    let precision = args.sim.precision.unwrap_or(DEFAULT_PRECISION);
    let plan = crate::rank::SimulationPlan {
        stopping: args.sim.stopping()?,
        seed: args.sim.seed,
        max_rolls,
    };
    let bar = progress_bar(None, &format!("tables of {players}"));
    let (tables, pairwise) = args.sim.in_pool(|| {
        let tables = crate::rank::table::simulate_tables(
            &seats,
            dice,
            args.sim.games,
            precision,
            args.sim.seed,
            max_rolls,
            &|n| bar.inc(n),
        );
        let pairwise =
            crate::rank::simulate_tournament(rules, dice, &plan, &|n| bar.inc(n), &|_, _| {});
        (tables, pairwise)
    })?;
    bar.finish_and_clear();
    let tables = tables.map_err(table_error)?;
    let pairwise = pairwise.map_err(CliError::failure)?;
    let report = crate::report::TableRankReport {
        players,
        fair_share: 1.0 / players as f64,
        dice: dice.to_vec(),
        ranking: tables.ranking,
        pairwise: pairwise.ranking(),
        tables: tables.tables,
        profile: rules.profile().to_string(),
        board: rules.board().to_string(),
        seed: args.sim.seed,
        precision: args.sim.games.is_none().then_some(precision),
        games: args.sim.games,
    };
    crate::report::write(out, &report, args.format)?;
    Ok(())
}

/// The seats' names in `play --players N`.
const SEAT_NAMES: [&str; crate::rules::MAX_SEATS] = ["A", "B", "C", "D"];

/// Runs `play --players N`: one table game, roll by roll, every seat's pieces after each.
pub fn play_at_table(args: &super::play::PlayArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let rules = args.rules.rules()?;
    let players = args.players;
    if args.more_dice.len() + 2 != players {
        return Err(CliError::input(format!(
            "--players {players}: expected --a, --b and {} --die (one die per seat), got {} --die",
            players.saturating_sub(2),
            args.more_dice.len()
        )));
    }
    if args.first != "a" {
        return Err(CliError::input(
            "--first b: at a table of 3 or 4 seat A always moves first (seat the dice in another order instead)",
        ));
    }
    let mut dice = vec![
        parse_die("--a", &args.die_a)?,
        parse_die("--b", &args.die_b)?,
    ];
    for text in &args.more_dice {
        dice.push(parse_die("--die", text)?);
    }
    let seats = seats(&rules, players, "--players")?;
    if args.max_rolls == 0 {
        return Err(CliError::input("--max-rolls 0: expected at least 1 roll"));
    }
    let mut seated = [&dice[0]; crate::rules::MAX_SEATS];
    for (slot, die) in seated.iter_mut().zip(&dice) {
        *slot = die;
    }
    let board = rules.board();
    let names: Vec<String> = (0..players)
        .map(|s| format!("{} = {} (seat {s})", SEAT_NAMES[s], dice[s]))
        .collect();
    writeln!(
        out,
        "{}; rules {} on board {board}; seed {}",
        names.join(", "),
        rules.profile(),
        args.seed
    )?;
    let starts: Vec<String> = (0..players)
        .map(|s| {
            format!(
                "{}'s A is A's field {}",
                SEAT_NAMES[s],
                seats.start_field(s)
            )
        })
        .collect();
    writeln!(
        out,
        "Fields from each owner's view: A = start field, 1..{} track, {}.. goal; {}.",
        board.track_len() - 1,
        board.field_name(board.track_len()),
        starts.join(", ")
    )?;
    let mut rng = StreamKey::new(args.seed).rng(0);
    let mut state = seats.start();
    let show = |state: &crate::rules::SeatState| {
        (0..players)
            .map(|s| format!("{}: {}", SEAT_NAMES[s], seats.describe(state, s)))
            .collect::<Vec<_>>()
            .join("   ")
    };
    writeln!(out, "A starts.   {}", show(&state))?;
    for roll in 1..=args.max_rolls {
        let mover = usize::from(state.to_move);
        let face = seated[mover].roll(&mut rng);
        let movement = rules.choose_move(state.pieces[mover], face);
        let turn = seats.play_roll(&mut state, face);
        let mut text = match movement {
            None => "no piece can move".to_string(),
            Some(m) => format!(
                "{} -> {}",
                m.from.map_or("B".to_string(), |f| board.field_name(f)),
                board.field_name(m.to)
            ),
        };
        if let Some((seat, field)) = turn.captured {
            text += &format!(
                ", captures {}'s piece on {}",
                SEAT_NAMES[seat],
                board.field_name(field)
            );
        }
        if !turn.won && !turn.passes {
            text += "; rolls again";
        }
        writeln!(
            out,
            "{roll:>5}  {} rolls {face:>2}: {text:<40} {}",
            SEAT_NAMES[mover],
            show(&state)
        )?;
        if turn.won {
            writeln!(out, "{} wins after {roll} rolls.", SEAT_NAMES[mover])?;
            return Ok(());
        }
        if crate::sim::table_never_ends(&seats, &seated, &state.pieces, state.to_move) {
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

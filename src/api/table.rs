//! `table`: two to four dice at one table, simulated, every seating equally often.

use super::options::{DEFAULT_PRECISION, RulesOptions, SimOptions, parse_die, seats, table_error};
use super::{Error, Progress, run_in_pool};
use crate::dice::Die;
use crate::report::{TableReport, TableSettings as TableFigures};
use crate::rules::Seats;
use crate::sim::{Seating, StreamKey, Table, TableStop, table_style};
use crate::strategy::Strategy;

/// The options of `table`: N dice at one table of N players (N = 2, 3 or 4).
#[derive(Debug, Clone)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
pub struct TableOptions {
    /// A die per seat, 2 to 4 times, e.g. `--die 1..6 --die 0..9 --die 1,1,1,6,6,6`.
    #[cfg_attr(
        feature = "clap",
        arg(long = "die", value_name = "FACES", required = true, num_args = 1)
    )]
    pub dice: Vec<String>,
    /// `all`: every assignment of the dice to the seats equally often (the fair comparison);
    /// `fixed`: the dice in the seats in the order given (the first die moves first).
    #[cfg_attr(feature = "clap", arg(long, value_enum, default_value_t = Seating::All))]
    pub seating: Seating,
    /// Games, seed, threads (`--games` must be a multiple of N!, the seatings, under `all`).
    #[cfg_attr(feature = "clap", command(flatten))]
    pub sim: SimOptions,
    /// Board and rule profile (with 3 or 4 players seat s starts at s * track / 4).
    #[cfg_attr(feature = "clap", command(flatten))]
    pub rules: RulesOptions,
    /// Under --profile choice: the strategy of every die (given once) or of each die (once
    /// per --die, in the same order), whatever seat it sits in: frontmost, rearmost,
    /// capture (captures a piece of any other seat when it can), safe (leaves the fewest
    /// pieces within reach of any other seat's next roll), random, or strong (a learned
    /// player trained for this table: shipped for 40/20/4/4 at three and four, or
    /// strong:FILE from `train --players N`). Each seat maximises its own chance by its own
    /// rule; no equilibrium is claimed.
    #[cfg_attr(
        feature = "clap",
        arg(long = "strategy", value_name = "NAME", num_args = 1)
    )]
    pub strategies: Vec<String>,
    /// Under --profile choice: also count how each die decided in these games (captures on
    /// offer, moves into the goal, exposure, frontmost), by replaying the same games.
    #[cfg_attr(feature = "clap", arg(long))]
    pub style: bool,
}

/// A table's options, checked.
#[derive(Debug, Clone)]
pub struct TableSettings {
    seats: Seats,
    dice: Vec<Die>,
    strategies: Vec<Strategy>,
    seating: Seating,
    stop: TableStop,
    seed: u64,
    max_rolls: u64,
    threads: Option<usize>,
    style: bool,
}

impl TableSettings {
    /// Checks `options`; the first bad value is refused with a message naming its option.
    pub fn new(options: &TableOptions) -> Result<TableSettings, Error> {
        let rules = options.rules.rules()?;
        let dice: Vec<Die> = options
            .dice
            .iter()
            .map(|text| parse_die("--die", text))
            .collect::<Result<_, _>>()?;
        let seats = seats(&rules, dice.len(), "--die (one per player)")?;
        super::options::check_style(options.style, &rules)?;
        options.sim.check_threads()?;
        let max_rolls = options.sim.max_rolls()?;
        let refs: Vec<&Die> = dice.iter().collect();
        let parsed: Vec<Strategy> = options
            .strategies
            .iter()
            .map(|text| {
                text.parse::<Strategy>()
                    .map_err(|e| Error::input(format!("--strategy: {e}")))
            })
            .collect::<Result<_, _>>()?;
        // One strategy stands for every die.
        let strategies = match parsed.as_slice() {
            [] => vec![Strategy::Frontmost; dice.len()],
            [one] => vec![one.clone(); dice.len()],
            _ => parsed,
        };
        let table = Table::new(&seats, &refs, max_rolls, options.seating)
            .and_then(|t| t.playing(strategies.clone()))
            .map_err(table_error)?;
        let precision = options.sim.precision.unwrap_or(DEFAULT_PRECISION);
        let stop = table
            .stopping(options.sim.games, precision)
            .map_err(table_error)?;
        Ok(TableSettings {
            seats,
            dice,
            strategies,
            seating: options.seating,
            stop,
            seed: options.sim.seed,
            max_rolls,
            threads: options.sim.threads,
            style: options.style,
        })
    }
}

/// Runs `table`: every die's wins at the table.
pub fn table(settings: &TableSettings, progress: &dyn Progress) -> Result<TableReport, Error> {
    let s = settings;
    let refs: Vec<&Die> = s.dice.iter().collect();
    let table = Table::new(&s.seats, &refs, s.max_rolls, s.seating)
        .and_then(|t| t.playing(s.strategies.clone()))
        .map_err(table_error)?;
    let total = match s.stop {
        TableStop::Games(n) => Some(n),
        TableStop::Precision(_) => None,
    };
    let names: Vec<String> = s.dice.iter().map(|d| d.to_string()).collect();
    let key = StreamKey::new(s.seed);
    let (counts, style) = run_in_pool(s.threads, progress, |watch| {
        watch.begin(&names.join(" | "), total);
        let counts = table
            .run(key, s.stop, &|n| watch.games(n))
            .map_err(table_error)?;
        let style = if s.style {
            watch.begin("style: the same games again", Some(counts.games));
            Some(table_style(&table, key, &counts, &|n| watch.games(n)).map_err(Error::failure)?)
        } else {
            None
        };
        Ok((counts, style))
    })?;
    let report = TableReport::new(
        &refs,
        table.strategies(),
        &counts,
        s.seating,
        TableFigures::new(s.seats.rules(), s.seed, table.max_rolls(), s.stop),
    );
    Ok(match style {
        Some(style) => report.with_style(style),
        None => report,
    })
}

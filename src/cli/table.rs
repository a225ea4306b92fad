//! `table`: three or four dice (or two) at one table, simulated.

use super::common::{
    DEFAULT_PRECISION, RulesArgs, SimArgs, parse_die, progress_bar, seats, table_error,
};
use super::{CliError, Format};
use crate::dice::Die;
use crate::report::{TableReport, TableSettings};
use crate::sim::{Seating, StreamKey, Table, TableStop};
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
        TableSettings::new(&rules, args.sim.seed, table.max_rolls(), stop),
    );
    crate::report::write(out, &report, args.format)?;
    Ok(())
}

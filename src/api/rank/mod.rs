//! `rank`: every pair of a list of dice, the matrix and the ranking; or every table of
//! three or four of them. Also the pieces of a ranking spread over processes: the plan of
//! its pairs ([`plan`]), one pair ([`rank_pair`]) and the ranking assembled from the pairs
//! ([`assemble`]), exactly as the local ranking computes them ([`spread`]).

mod spread;

pub use spread::{PairPayload, PlannedPair, assemble, plan, rank_pair};

use super::options::{
    DEFAULT_PRECISION, RulesOptions, SimOptions, StrategyOptions, check_roll_off, memory_limit,
    parse_die, plan_line, read_dice, seats, table_error,
};
use super::{Error, PendingPlot, Plotted, Progress, check_plot, run_in_pool};
use crate::dice::Die;
use crate::rank::store::PairStore;
use crate::rank::{
    ExactListeners, SimulationPlan, SolvedGames, Tournament, exact_strategy_name,
    simulate_tournament_playing, solve_tournament,
};
use crate::report::plot::heatmap_svg;
use crate::report::{OutputFile, RankReport, TableRankReport};
use crate::rules::{Rules, Seats};
use crate::sim::{DuelPlan, Seating, StoppingRule, Table};
use crate::strategy::Strategy;
use crate::work::notes::SolveNotes;
use serde::Serialize;
use std::path::PathBuf;
use web_time::Instant;

/// The options of `rank`: the dice of a BwInf dice file (first line n, then n lines
/// `m f1 .. fm`), or dice given with --die.
#[derive(Debug, Clone)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
pub struct RankOptions {
    /// The dice file, e.g. data/wuerfel0.txt.
    #[cfg_attr(
        feature = "clap",
        arg(required_unless_present = "die", conflicts_with = "die")
    )]
    pub file: Option<PathBuf>,
    /// A die, e.g. `--die 1..6 --die 1,1,1,6,6,6` (repeat for each die, instead of a file).
    #[cfg_attr(feature = "clap", arg(long, value_name = "FACES"))]
    pub die: Vec<String>,
    /// Games, seed, threads.
    #[cfg_attr(feature = "clap", command(flatten))]
    pub sim: SimOptions,
    /// Board and rule profile.
    #[cfg_attr(feature = "clap", command(flatten))]
    pub rules: RulesOptions,
    /// Strategies under --profile choice: a ranking plays every die with --strategy
    /// (--strategy-a / --strategy-b are refused).
    #[cfg_attr(feature = "clap", command(flatten))]
    pub strategy: StrategyOptions,
    /// Solve every pair exactly (value iteration); pairs too large for memory are simulated
    /// and marked.
    #[cfg_attr(feature = "clap", arg(long))]
    pub exact: bool,
    /// With --exact: width of the certified interval at which to stop.
    #[cfg_attr(
        feature = "clap",
        arg(long, default_value_t = 1e-9, requires = "exact")
    )]
    pub tolerance: f64,
    /// With --exact: solve a pair exactly only if its estimated memory stays below this
    /// (larger pairs are simulated and marked); with --players: the most the tables and
    /// pairs may keep, checked before any game. Bytes, or e.g. `16GiB` (default: 80 % of
    /// the machine's RAM).
    #[cfg_attr(feature = "clap", arg(long = "max-memory", value_name = "SIZE"))]
    pub max_memory: Option<String>,
    /// With --exact: keep every solved pair in DIR (one JSON file per pair, created if
    /// missing; refused before any work if DIR cannot be written) and read pairs solved
    /// there before whose certified intervals are at most --tolerance wide, so an
    /// interrupted ranking resumes and rankings that share a pair solve it once. A record
    /// that fails its checks is moved aside (NAME.json.rejected), named in a note, and
    /// its pair solved again.
    #[cfg_attr(feature = "clap", arg(long, value_name = "DIR", requires = "exact"))]
    pub store: Option<PathBuf>,
    /// With --exact: the values folders of whole games solved before (`solve --layered
    /// --values-out DIR`, without --part), one or more: a pair whose game one of them holds
    /// (its dice either way round) is read at its openings there instead of solved, so
    /// pairs whose core was solved elsewhere (e.g. on MPI ranks) are ranked exactly. Each
    /// folder's files are checked; a folder of other rules, of a die not ranked, or a
    /// second folder for one pair is refused before any work.
    #[cfg_attr(
        feature = "clap",
        arg(long, value_name = "DIR", num_args = 1.., requires = "exact")
    )]
    pub values: Vec<PathBuf>,
    /// Also play every N-subset of the dice at a table of N = 3 or 4 players and rank the
    /// dice by their mean P(win) there, beside the pairwise ranking.
    #[cfg_attr(feature = "clap", arg(long, value_name = "N", conflicts_with_all = ["exact", "plot"]))]
    pub players: Option<usize>,
    /// Also draw the matrix as a heat map into FILE (SVG; refused if FILE exists, unless
    /// --overwrite is given).
    #[cfg_attr(feature = "clap", arg(long, value_name = "FILE"))]
    pub plot: Option<PathBuf>,
    /// Allow --plot to replace an existing file.
    #[cfg_attr(feature = "clap", arg(long, requires = "plot"))]
    pub overwrite: bool,
}

/// How a ranking gets its figures.
// One value per ranking: the variants' sizes do not matter.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone)]
enum Mode {
    /// Every pair simulated.
    Simulated,
    /// Every pair solved where it fits, the rest simulated and marked.
    Exact {
        solve: crate::exact::SolveOptions,
        store: Option<PairStore>,
        solved: SolvedGames,
    },
    /// Every table of `players` dice simulated, beside the simulated pairs.
    Tables {
        seats: Seats,
        games: Option<u64>,
        precision: f64,
    },
}

/// A ranking's options, checked; the dice file read.
#[derive(Debug, Clone)]
pub struct RankSettings {
    rules: Rules,
    dice: Vec<Die>,
    strategy: Strategy,
    plan: SimulationPlan,
    threads: Option<usize>,
    mode: Mode,
    plot: Option<OutputFile>,
    store_dir: Option<PathBuf>,
}

impl RankSettings {
    /// Checks `options` and reads the dice; the first bad value is refused with a message
    /// naming its option (or the dice file, its line and what was expected).
    pub fn new(options: &RankOptions) -> Result<RankSettings, Error> {
        let o = options;
        o.sim.check_threads()?;
        let rules = o.rules.rules()?;
        let strategy = ranking_strategy(&o.strategy, &rules, o.exact)?;
        let plot = check_plot(o.plot.as_deref(), o.overwrite)?;
        let (dice, source) = match &o.file {
            Some(file) => (read_dice(file)?, file.display().to_string()),
            None => (
                o.die
                    .iter()
                    .map(|d| parse_die("--die", d))
                    .collect::<Result<Vec<_>, _>>()?,
                "--die".to_string(),
            ),
        };
        if dice.len() < 2 {
            return Err(Error::input(format!(
                "{source}: rank needs at least two dice, found {}",
                dice.len()
            )));
        }
        if o.max_memory.is_some() && !o.exact && o.players.is_none() {
            return Err(Error::input(
                "--max-memory bounds the exact solves of --exact or the tables of --players; \
                 a simulated ranking of pairs keeps little",
            ));
        }
        if let Some(players) = o.players {
            if !(3..=4).contains(&players) {
                return Err(Error::input(format!(
                    "--players {players}: expected 3 or 4 (rank without --players is the \
                     two-player ranking)"
                )));
            }
            if dice.len() < players {
                return Err(Error::input(format!(
                    "--players {players}: the list has only {} dice, too few for one table",
                    dice.len()
                )));
            }
        }
        // What the ranking keeps, before anything is built: with --players against
        // --max-memory, else against the default limit.
        let limit = match o.players {
            Some(_) => memory_limit(o.max_memory.as_deref())?,
            None => crate::exact::memory::default_limit(),
        };
        check_ranking_memory(dice.len(), o.players, limit)?;
        let plan = SimulationPlan {
            stopping: o.sim.stopping()?,
            seed: o.sim.seed,
            max_rolls: o.sim.max_rolls()?,
        };
        // Every pair as the ranking will play it (roll-off, the strategy with both dice):
        // refused here, not when its turn comes.
        for (i, a) in dice.iter().enumerate() {
            for b in &dice[i + 1..] {
                if o.exact {
                    check_roll_off(&rules, a, b)?;
                } else {
                    super::options::matchup(&rules, a, b, plan.max_rolls, "--max-rolls")?
                        .playing([strategy.clone(), strategy.clone()])
                        .map_err(|e| Error::input(format!("--strategy: {a} vs {b}: {e}")))?;
                }
            }
        }
        let mode = match o.players {
            Some(players) => {
                let seats = seats(&rules, players, "--players")?;
                let games = o.sim.games;
                let precision = o.sim.precision.unwrap_or(DEFAULT_PRECISION);
                // Every table has the same seats, strategies and stopping rule: the first
                // one's checks are every table's.
                let first: Vec<&Die> = dice[..players].iter().collect();
                Table::new(&seats, &first, plan.max_rolls, Seating::All)
                    .and_then(|t| t.playing(vec![strategy.clone(); players]))
                    .and_then(|t| t.stopping(games, precision))
                    .map_err(table_error)?;
                Mode::Tables {
                    seats,
                    games,
                    precision,
                }
            }
            None => Mode::Simulated,
        };
        let mode = if o.exact {
            // The library's one rule for every solver.
            let solve = crate::exact::SolveOptions::new(
                o.tolerance,
                crate::exact::SolveOptions::default().max_sweeps,
                memory_limit(o.max_memory.as_deref())?,
            )
            .map_err(|e| super::rule_error(e.0))?;
            // Refused here, before any pair is solved, if DIR cannot be written.
            let store = o
                .store
                .as_deref()
                .map(|dir| PairStore::open(dir).map_err(|e| Error::input(format!("--store {e}"))))
                .transpose()?;
            let solved = SolvedGames::open(&o.values, &rules, &dice)
                .map_err(|e| Error::input(format!("--values {e}")))?;
            Mode::Exact {
                solve,
                store,
                solved,
            }
        } else {
            mode
        };
        Ok(RankSettings {
            rules,
            dice,
            strategy,
            plan,
            threads: o.sim.threads,
            mode,
            plot,
            store_dir: o.store.clone(),
        })
    }

    /// The dice ranked, in their order.
    pub fn dice(&self) -> &[Die] {
        &self.dice
    }
}

/// What `rank` reports: the pairwise ranking, or with `--players` the ranking at tables.
// One value per ranking: the variants' sizes do not matter.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, Serialize)]
#[serde(untagged)]
pub enum RankOutput {
    /// Every pair, the matrix and the ranking.
    Pairs(RankReport),
    /// Every table of three or four dice, beside the pairwise ranking.
    Tables(TableRankReport),
}

impl crate::report::Report for RankOutput {
    fn write_table(&self, out: &mut dyn std::io::Write) -> std::io::Result<()> {
        match self {
            RankOutput::Pairs(r) => r.write_table(out),
            RankOutput::Tables(r) => r.write_table(out),
        }
    }

    fn csv(&self) -> Option<crate::report::CsvTable> {
        match self {
            RankOutput::Pairs(r) => r.csv(),
            RankOutput::Tables(r) => r.csv(),
        }
    }
}

/// A ranking and its heat map (with `--plot`).
pub type Ranked = Plotted<RankOutput>;

/// Runs `rank`.
pub fn rank(settings: &RankSettings, progress: &dyn Progress) -> Result<Ranked, Error> {
    let s = settings;
    let started = Instant::now();
    let pairs = (s.dice.len() * (s.dice.len() - 1) / 2) as u64;
    let (tournament, notes) = match &s.mode {
        Mode::Tables {
            seats,
            games,
            precision,
        } => return rank_at_tables(s, seats, *games, *precision, progress),
        Mode::Exact {
            solve,
            store,
            solved,
        } => run_in_pool(s.threads, progress, |watch| {
            // One exact solve can take minutes: say which pair is being solved, and what a
            // large solve does, as `solve` does.
            watch.status("exact");
            let solve_notes = SolveNotes::new(solve.tolerance, progress);
            solve_tournament(
                &s.rules,
                &s.dice,
                solve,
                &s.plan,
                (store.as_ref(), solved),
                &|pair: &str| {
                    let subject = format!("exact {pair}");
                    solve_notes.name_next(&subject);
                    watch.status(&subject);
                },
                ExactListeners {
                    solve: &|p| solve_notes.report(p),
                    games: &|n| watch.games(n),
                },
            )
            .map_err(Error::failure)
        })?,
        Mode::Simulated => {
            let total = match s.plan.stopping.rule() {
                StoppingRule::Games(n) => n.checked_mul(pairs),
                StoppingRule::Precision(_) => None,
            };
            let t = run_in_pool(s.threads, progress, |watch| {
                watch.begin(&format!("{pairs} pairs"), total);
                // A pair that will take long says so up front, as `duel` does.
                let announce = |pair: &str, p: &DuelPlan| {
                    if let Some(line) = plan_line(&format!("rank, {pair}"), p) {
                        watch.note(&line);
                    }
                };
                simulate_tournament_playing(
                    &s.rules,
                    &s.dice,
                    &s.strategy,
                    &s.plan,
                    &|n| watch.games(n),
                    &announce,
                )
                .map_err(super::options::sim_error)
            })?;
            (t, Vec::new())
        }
    };
    let report = ranking_report(s, &tournament, started.elapsed().as_secs_f64(), notes);
    Ok(Plotted {
        report: RankOutput::Pairs(report),
        plot: heatmap(s, &tournament)?,
    })
}

/// The report of a ranking's tournament, naming the strategy played.
fn ranking_report(
    s: &RankSettings,
    tournament: &Tournament,
    seconds: f64,
    notes: Vec<String>,
) -> RankReport {
    let strategy = match s.mode {
        Mode::Exact { .. } => exact_strategy_name(&s.rules),
        _ => s.strategy.name(),
    };
    RankReport::new(
        tournament,
        s.rules.profile().to_string(),
        s.rules.board().to_string(),
        Some(s.plan.seed),
        seconds,
        notes,
    )
    .with_strategy(&strategy)
}

/// The heat map of `tournament`, if `--plot` asked for one.
fn heatmap(s: &RankSettings, tournament: &Tournament) -> Result<Option<PendingPlot>, Error> {
    PendingPlot::drawn(s.plot.as_ref(), || heatmap_svg(tournament))
}

/// `rank --players N`: every N-subset of the dice at a table, and the pairwise ranking.
fn rank_at_tables(
    s: &RankSettings,
    seats: &Seats,
    games: Option<u64>,
    precision: f64,
    progress: &dyn Progress,
) -> Result<Ranked, Error> {
    let players = seats.players();
    let (tables, pairwise) = run_in_pool(s.threads, progress, |watch| {
        watch.begin(&format!("tables of {players}"), None);
        // A table that fails ends the ranking before the pairs are played.
        let tables = crate::rank::table::simulate_tables(
            seats,
            &s.dice,
            &s.strategy,
            games,
            precision,
            s.plan.seed,
            s.plan.max_rolls,
            &|n| watch.games(n),
        )
        .map_err(table_error)?;
        let pairwise = simulate_tournament_playing(
            &s.rules,
            &s.dice,
            &s.strategy,
            &s.plan,
            &|n| watch.games(n),
            &|_, _| {},
        )
        .map_err(super::options::sim_error)?;
        Ok((tables, pairwise))
    })?;
    Ok(Plotted {
        report: RankOutput::Tables(TableRankReport {
            players,
            fair_share: 1.0 / players as f64,
            dice: s.dice.clone(),
            ranking: tables.ranking,
            pairwise: pairwise.ranking(),
            tables: tables.tables,
            profile: s.rules.profile().to_string(),
            board: s.rules.board().to_string(),
            seed: s.plan.seed,
            precision: games.is_none().then_some(precision),
            games,
        }),
        plot: None,
    })
}

/// Refuses a ranking of `dice` dice (at tables of `players`, if given) whose matrix and
/// tables need more than `limit` bytes ([`crate::rank::table::ranking_memory`]), with the
/// figures, before anything is built; no limit where the machine's memory is unknown.
fn check_ranking_memory(
    dice: usize,
    players: Option<usize>,
    limit: Option<u64>,
) -> Result<(), Error> {
    use crate::exact::memory::format_bytes;
    use crate::rank::table::{ranking_memory, table_count};
    use crate::report::thousands;
    let Some(limit) = limit else {
        return Ok(());
    };
    let bytes = ranking_memory(dice, players);
    if bytes.is_some_and(|b| b <= limit) {
        return Ok(());
    }
    let need = bytes.map_or("more than 2^64 bytes".to_string(), format_bytes);
    let pairs = thousands(dice as u64 * (dice as u64 - 1) / 2);
    Err(Error::input(match players {
        Some(p) => format!(
            "--players {p}: the ranking of {dice} dice needs about {need} for its {} tables \
             of {p} and its {pairs} pairs, more than the limit of {}; raise --max-memory or \
             rank fewer dice",
            table_count(dice, p).map_or("more than 2^64".to_string(), thousands),
            format_bytes(limit)
        ),
        None => format!(
            "the ranking of {dice} dice needs about {need} for its {pairs} pairs, more than \
             the limit of {} (80 % of this machine's memory); rank fewer dice",
            format_bytes(limit)
        ),
    }))
}

/// The one strategy every die plays in a ranking, checked as `rank` checks it (also by the
/// Python package): under `exact` the strategies are the solver's (the rules' own moves, or
/// under choice optimal play on both sides), so `--strategy` is refused there.
pub fn ranking_strategy(
    args: &StrategyOptions,
    rules: &Rules,
    exact: bool,
) -> Result<Strategy, Error> {
    let strategy = rank_strategy(args, rules)?;
    // A heuristic is only simulated.
    if exact && args.strategy.is_some() {
        return Err(Error::input(format!(
            "--strategy {strategy} with --exact: the exact ranking solves {}; leave out \
             --exact to simulate a strategy",
            if rules.profile().choice {
                "optimal play on both sides"
            } else {
                "the rules' own moves"
            }
        )));
    }
    Ok(strategy)
}

/// The one strategy every die plays in a ranking (or a search).
pub(crate) fn rank_strategy(
    args: &StrategyOptions,
    rules: &crate::rules::Rules,
) -> Result<Strategy, Error> {
    for (given, option) in [
        (&args.strategy_a, "--strategy-a"),
        (&args.strategy_b, "--strategy-b"),
    ] {
        if given.is_some() {
            return Err(Error::input(format!(
                "{option}: a ranking (or a search) plays every die with the same strategy; use \
                 --strategy (duel plays two different ones)"
            )));
        }
    }
    let [strategy, _] = args.strategies(rules)?;
    Ok(strategy)
}

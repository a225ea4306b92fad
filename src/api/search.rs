//! `search`: the best die of a family, by racing with anytime-valid confidence sequences,
//! confirmed exactly where the pairs fit.

use super::options::{RulesOptions, StrategyOptions, check_threads, memory_limit, read_dice};
use super::rank::rank_strategy;
use super::{Error, PendingPlot, Plotted, Progress, check_plot, run_in_pool};
use crate::dice::excerpt;
use crate::dice_search::{
    Checkpoint, CheckpointError, DEFAULT_DIE_GAMES, Design, Family, RaceConfig, RaceState,
    RunOptions, SearchError, confirm, confirmation_dice, race_from,
};
use crate::exact::SolveOptions;
use crate::rank::store::PairStore;
use crate::report::plot::landscape_svg;
use crate::report::{OutputFile, SearchReport};
use crate::rules::Rules;
use std::path::PathBuf;

/// The options of `search`: a family of dice searched for the best one: every die with --faces K faces from
/// --values A..B (e.g. --faces 6 --values 1..6, the 462 six-sided dice), or the dice of a
/// BwInf dice file.
#[derive(Debug, Clone)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
pub struct SearchOptions {
    /// A dice file (instead of --faces and --values).
    #[cfg_attr(feature = "clap", arg(conflicts_with_all = ["faces", "values"]))]
    pub file: Option<PathBuf>,
    /// Faces per die of the family.
    #[cfg_attr(feature = "clap", arg(long, requires = "values"))]
    pub faces: Option<u32>,
    /// The values the faces are drawn from, `A..B` (e.g. `1..6`, `0..9`).
    #[cfg_attr(feature = "clap", arg(long, value_name = "A..B", requires = "faces"))]
    pub values: Option<String>,
    /// Every statement of the answer holds together with at least 1 minus this
    /// probability.
    #[cfg_attr(
        feature = "clap",
        arg(
            long = "error-probability",
            default_value_t = 0.01,
            value_name = "DELTA"
        )
    )]
    pub error_probability: f64,
    /// Indifference: the best-mean and maximin races stop once the leader is provably
    /// within this of every other candidate (0: only when one candidate is left).
    #[cfg_attr(feature = "clap", arg(long, default_value_t = 0.001))]
    pub epsilon: f64,
    /// The most games a pair may play (a multiple of 1024); a question still open when its
    /// pairs reach it is reported as undecided.
    #[cfg_attr(
        feature = "clap",
        arg(long = "max-games", default_value_t = 262_144, value_name = "N")
    )]
    pub max_games: u64,
    /// How many dice of highest mean are checked for intransitive cycles.
    #[cfg_attr(feature = "clap", arg(long, default_value_t = 6))]
    pub top: usize,
    /// `racing` (games go to undecided pairs), `round-robin` (every pair plays until all
    /// is decided, for comparison) or `screening` (for large families: the best mean on
    /// games against opponents drawn from the family, the other questions on the pairs of
    /// the --top dice; no first round over all pairs).
    #[cfg_attr(feature = "clap", arg(long, default_value = "racing", value_parser = ["racing", "round-robin", "screening"]))]
    pub design: String,
    /// With --design screening: the most games a die plays against sampled opponents (a
    /// multiple of 1024); the best-mean race is undecided if its candidates reach it.
    #[cfg_attr(feature = "clap", arg(long = "max-die-games", value_name = "N"))]
    pub max_die_games: Option<u64>,
    /// Seed of the random streams.
    #[cfg_attr(feature = "clap", arg(long, default_value_t = 1))]
    pub seed: u64,
    /// A game reaching this many rolls is counted as unfinished.
    #[cfg_attr(feature = "clap", arg(long = "max-rolls", default_value_t = 100_000))]
    pub max_rolls: u64,
    /// Worker threads (default: all cores).
    #[cfg_attr(feature = "clap", arg(long))]
    pub threads: Option<usize>,
    /// Board and rule profile.
    #[cfg_attr(feature = "clap", command(flatten))]
    pub rules: RulesOptions,
    /// Under --profile choice: the strategy every die plays (as `rank --strategy`;
    /// --strategy-a / --strategy-b and table:FILE are refused).
    #[cfg_attr(feature = "clap", command(flatten))]
    pub strategy: StrategyOptions,
    /// Dice among which every pair is solved exactly (the top candidates and their
    /// closest rivals); 0 for none.
    #[cfg_attr(feature = "clap", arg(long, default_value_t = 4, value_name = "K"))]
    pub confirm: usize,
    /// Width of the certified intervals of the exact confirmation.
    #[cfg_attr(feature = "clap", arg(long, default_value_t = 1e-9))]
    pub tolerance: f64,
    /// Solve a pair exactly only if its estimated memory stays below this (bytes, or e.g.
    /// `2GiB`; default 80 % of the RAM); larger pairs are marked "not solved".
    #[cfg_attr(feature = "clap", arg(long = "max-memory", value_name = "SIZE"))]
    pub max_memory: Option<String>,
    /// Keep the search in DIR (created if missing): the racing state after every round
    /// (DIR/search-state.json; a rerun of the same search resumes from it, and reaches
    /// the same answer and counts as a run never interrupted; a state of another search, or
    /// a damaged one, is refused and left alone) and the exactly solved pairs (as `rank
    /// --exact --store`). One search per directory.
    #[cfg_attr(feature = "clap", arg(long, value_name = "DIR"))]
    pub store: Option<PathBuf>,
    /// For tests of --store: stop after round K, leaving the state to resume from.
    #[cfg_attr(
        feature = "clap",
        arg(
            long = "stop-after-round",
            value_name = "K",
            requires = "store",
            hide = true
        )
    )]
    pub stop_after_round: Option<u32>,
    /// Draw the landscape (mean P(win) against the number of 6s, the smallest face and
    /// the mean face) into FILE (SVG).
    #[cfg_attr(feature = "clap", arg(long, value_name = "FILE"))]
    pub plot: Option<PathBuf>,
    /// Allow --plot to replace an existing file.
    #[cfg_attr(feature = "clap", arg(long, requires = "plot"))]
    pub overwrite: bool,
}

/// Parses `A..B` of `--values`.
fn parse_values(text: &str) -> Result<(u32, u32), Error> {
    let bad = || {
        Error::input(format!(
            "--values {}: expected a range A..B of faces, e.g. 1..6",
            excerpt(text)
        ))
    };
    let (lo, hi) = text.trim().split_once("..").ok_or_else(bad)?;
    let lo: u32 = lo.trim().parse().map_err(|_| bad())?;
    let hi: u32 = hi.trim().parse().map_err(|_| bad())?;
    Ok((lo, hi))
}

fn input(option: &str) -> impl Fn(SearchError) -> Error + '_ {
    move |e| Error::input(format!("{option}: {e}"))
}

/// A state file of another search, or a damaged one, is the user's to sort out (exit 2);
/// a file that cannot be read or written is a failure.
fn checkpoint_error(e: CheckpointError) -> Error {
    match e {
        CheckpointError::Io { .. } => Error::failure(format!("--store: {e}")),
        _ => Error::input(format!("--store: {e}")),
    }
}

/// A search's options, checked; the family of dice built.
#[derive(Debug, Clone)]
pub struct SearchSettings {
    rules: Rules,
    family: Family,
    config: RaceConfig,
    solve: SolveOptions,
    store: Option<PairStore>,
    store_dir: Option<PathBuf>,
    stop_after_round: Option<u32>,
    confirm: usize,
    threads: Option<usize>,
    plot: Option<OutputFile>,
}

impl SearchSettings {
    /// Checks `options` and builds the family (reading a dice file); the first bad value is
    /// refused with a message naming its option. A `--store` DIR is created here, before
    /// any work, or refused if it cannot be written.
    pub fn new(options: &SearchOptions) -> Result<SearchSettings, Error> {
        let args = options;
        check_threads(args.threads)?;
        let rules = args.rules.rules()?;
        let strategy = rank_strategy(&args.strategy, &rules)?;
        let plot = check_plot(args.plot.as_deref(), args.overwrite)?;
        let design = match args.design.as_str() {
            "round-robin" => Design::RoundRobin,
            "screening" => Design::Screening,
            _ => Design::Racing,
        };
        // The family is sized for what its design plays: every pair, or under screening
        // games per die and the pairs of the top dice.
        let family = match (&args.file, args.faces, &args.values) {
            (Some(file), _, _) => {
                let dice = read_dice(file)?;
                let description = format!("the {} dice of {}", dice.len(), file.display());
                Family::from_dice_for(dice, description, design, args.top)
                    .map_err(|e| Error::input(format!("{}: {e}", file.display())))?
            }
            (None, Some(faces), Some(values)) => {
                let (lo, hi) = parse_values(values)?;
                Family::multisets_for(faces, lo, hi, design, args.top)
                    .map_err(|e| Error::input(format!("--faces {faces} --values {values}: {e}")))?
            }
            _ => {
                return Err(Error::input(
                    "search needs a family of dice: a dice FILE, or --faces K with --values A..B \
                     (e.g. --faces 6 --values 1..6)",
                ));
            }
        };
        if args.max_die_games.is_some() && design != Design::Screening {
            return Err(Error::input(
                "--max-die-games caps the sampled games of --design screening; the other designs \
                 play pairs only (--max-games)",
            ));
        }
        let config = RaceConfig::new(
            args.error_probability,
            args.epsilon,
            args.max_games,
            args.top,
            args.seed,
            args.max_rolls,
            design,
        )
        .map_err(|e| {
            let option = match e {
                SearchError::ErrorProbability(_) => "--error-probability",
                SearchError::Epsilon(_) => "--epsilon",
                SearchError::GamesPerPair(_) => "--max-games",
                SearchError::Top(_) => "--top",
                _ => "--max-rolls",
            };
            input(option)(e)
        })?
        .playing(strategy)
        .map_err(input("--strategy"))?
        .with_die_cap(args.max_die_games.unwrap_or(DEFAULT_DIE_GAMES))
        .map_err(input("--max-die-games"))?;
        let solve = SolveOptions::new(
            args.tolerance,
            SolveOptions::default().max_sweeps,
            memory_limit(args.max_memory.as_deref())?,
        )
        .map_err(|e| super::rule_error(e.0))?;
        let store = match &args.store {
            Some(dir) => {
                Some(PairStore::open(dir).map_err(|e| Error::input(format!("--store {e}")))?)
            }
            None => None,
        };
        Ok(SearchSettings {
            rules,
            family,
            config,
            solve,
            store,
            store_dir: args.store.clone(),
            stop_after_round: args.stop_after_round,
            confirm: args.confirm,
            threads: args.threads,
            plot,
        })
    }
}

/// A search's answer and its landscape (with `--plot`); the report is `None` when the
/// search stopped early (`--stop-after-round`), its state kept in the store to resume from
/// (a note says so).
pub type Searched = Plotted<Option<SearchReport>>;

/// Runs `search`: the race (resumed from the store's state where there is one, the state
/// saved after every round), then the exact confirmation of the top dice.
pub fn search(settings: &SearchSettings, progress: &dyn Progress) -> Result<Searched, Error> {
    let s = settings;
    let (rules, family, config) = (&s.rules, &s.family, &s.config);
    // The racing state: read back (and checked) before any game.
    let checkpoint = s
        .store_dir
        .as_deref()
        .map(|dir| Checkpoint::new(dir, RunOptions::new(rules, family, config)));
    let resumed = match &checkpoint {
        Some(c) => c.load(config).map_err(checkpoint_error)?,
        None => None,
    };
    let resumed_at = resumed
        .as_ref()
        .map(|state| (state.outcome.rounds, state.outcome.games));
    if let (Some(c), Some((rounds, games))) = (&checkpoint, resumed_at) {
        progress.note(&format!(
            "search: resuming from {} after round {rounds} ({} games played)",
            c.path().display(),
            crate::report::thousands(games)
        ));
    }
    let started = web_time::Instant::now();
    let search_error = |e: SearchError| match e {
        SearchError::Matchup {
            error: crate::sim::MatchupError::NotForThisGame { .. },
            ..
        } => input("--strategy")(e),
        SearchError::Matchup { .. } => Error::input(format!("--profile {}: {e}", rules.profile())),
        SearchError::GamesPerPair(_) => input("--max-games")(e),
        SearchError::Checkpoint(e) => checkpoint_error(e),
        other => Error::failure(other),
    };
    let finished = run_in_pool(s.threads, progress, |watch| {
        watch.begin(
            &format!(
                "search, {} dice",
                crate::report::thousands(family.len() as u64)
            ),
            None,
        );
        // Where a bar shows, it shows the round; otherwise (a long run in the background)
        // each round is one line.
        let round = |r: &crate::dice_search::RoundInfo| {
            let playing = if r.screened_dice > 0 {
                format!(
                    "{} dice against sampled opponents",
                    crate::report::thousands(r.screened_dice as u64)
                )
            } else {
                format!("{} pairs", crate::report::thousands(r.live_pairs as u64))
            };
            let line = format!(
                "search round {}: {playing}, {} best-mean candidates, {} games so far",
                r.round,
                r.mean_candidates,
                crate::report::thousands(r.games_so_far)
            );
            watch.round(&line, started.elapsed().as_secs_f64());
        };
        let start = resumed.unwrap_or_else(|| RaceState::start(family, config));
        let mut after_round = |state: &RaceState| {
            if let Some(c) = &checkpoint {
                c.save(state).map_err(SearchError::Checkpoint)?;
            }
            Ok(s.stop_after_round.is_none_or(|k| state.outcome.rounds < k))
        };
        let state = race_from(
            rules,
            family,
            config,
            start,
            &|n| watch.games(n),
            &round,
            &mut after_round,
        )
        .map_err(search_error)?;
        if !state.finished {
            return Ok(None);
        }
        let outcome = state.outcome;
        let dice = confirmation_dice(&outcome, s.confirm);
        watch.status("exact");
        let confirmations = confirm(
            rules,
            family,
            &outcome,
            &dice,
            &config.strategy,
            &s.solve,
            s.store.as_ref(),
            &|pair| watch.status(&format!("exact {pair}")),
        )
        .map_err(search_error)?;
        Ok(Some((outcome, confirmations)))
    })?;
    let Some((outcome, confirmations)) = finished else {
        let path = checkpoint.as_ref().map(|c| c.path().display().to_string());
        progress.note(&format!(
            "search: stopped after round {} (--stop-after-round); run the same command again \
             to resume from {}",
            s.stop_after_round.unwrap_or(0),
            path.unwrap_or_default()
        ));
        return Ok(Plotted {
            report: None,
            plot: None,
        });
    };
    let mut notes = vec![match (&checkpoint, resumed_at) {
        (Some(c), Some((rounds, _))) => format!(
            "resumed from {} after round {rounds}; the state is kept there",
            c.path().display()
        ),
        (Some(c), None) => format!("the racing state is kept in {}", c.path().display()),
        (None, _) => "the racing is not stored: --store DIR keeps it after every round (and \
                      the exact confirmations), so an interrupted search resumes"
            .to_string(),
    }];
    if confirmations.iter().any(|c| c.exact.is_none()) {
        notes.push(
            "pairs marked \"not solved\" do not fit in --max-memory; the book's chapter on the \
             dice search (docs/src/search.md) shows the full-board command"
                .to_string(),
        );
    }
    if confirmations
        .iter()
        .any(|c| c.exact.as_ref().is_some_and(|e| !e.agrees))
    {
        notes.push(
            "an exact figure lies outside the search's interval: an event of probability at \
             most the error probability, or a bug"
                .to_string(),
        );
    }
    let report = SearchReport::new(
        family,
        &outcome,
        config,
        &confirmations,
        rules.profile().to_string(),
        rules.board().to_string(),
        started.elapsed().as_secs_f64(),
        notes,
    );
    let plot = PendingPlot::drawn(s.plot.as_ref(), || {
        let title = if rules.profile().choice {
            format!(
                "{}, {} board, {}, every die {}",
                family.description(),
                report.board,
                report.profile,
                report.strategy
            )
        } else {
            format!(
                "{}, {} board, {}",
                family.description(),
                report.board,
                report.profile
            )
        };
        landscape_svg(&report.dice, &report.best_mean.die, &title)
    })?;
    Ok(Plotted {
        report: Some(report),
        plot,
    })
}

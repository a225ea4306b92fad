//! `train`: trains a `strong` player by self-play and writes its player file.

use super::options::{RulesOptions, parse_die};
use super::{Error, Progress, file_error};
use crate::learn::exact_targets::{ExactTargets, Positions};
use crate::learn::{TrainSettings as Run, TrainingCounts, train as self_play};
use crate::report::{CsvTable, Format, OutputFile, Report};
use crate::strategy::network::MAX_HIDDEN;
use std::io::{self, Write};
use std::path::PathBuf;
use web_time::Instant;

/// The options of `train`.
#[derive(Debug, Clone)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
pub struct TrainOptions {
    /// The player file to write (refused if it exists, unless --overwrite is given).
    #[cfg_attr(feature = "clap", arg(long, value_name = "FILE.json"))]
    pub out: PathBuf,
    /// Allow --out to replace an existing file.
    #[cfg_attr(feature = "clap", arg(long))]
    pub overwrite: bool,
    /// Games of self-play.
    #[cfg_attr(feature = "clap", arg(long, default_value_t = 1_000_000))]
    pub games: u64,
    /// Seed of the training (initial weights and every roll).
    #[cfg_attr(feature = "clap", arg(long, default_value_t = 1))]
    pub seed: u64,
    /// Hidden units of the network.
    #[cfg_attr(feature = "clap", arg(long, default_value_t = 64))]
    pub hidden: usize,
    /// Step size at the first and at the last game, lowered linearly in between.
    #[cfg_attr(
        feature = "clap",
        arg(long, value_name = "FIRST,LAST", default_value = "0.02,0.002")
    )]
    pub rate: String,
    /// The λ of the TD(λ) returns, from 0 (TD(0)) to 1 (the game's result).
    #[cfg_attr(feature = "clap", arg(long, default_value_t = 0.7))]
    pub lambda: f32,
    /// The die both sides roll in training.
    #[cfg_attr(
        feature = "clap",
        arg(long, value_name = "FACES", default_value = "1..6")
    )]
    pub die: String,
    /// A game reaching this many rolls is abandoned.
    #[cfg_attr(feature = "clap", arg(long = "max-rolls", default_value_t = 10_000))]
    pub max_rolls: u64,
    /// Seats: 2, or a table of 3 or 4 (seats as `table` places them; the board's offset
    /// must then be half the track).
    #[cfg_attr(feature = "clap", arg(long, default_value_t = 2))]
    pub players: usize,
    /// What the network learns: `self-play` (TD(λ) returns of its own games) or `exact`
    /// (the solved game's exact values, on a board the exact solver holds in memory; the
    /// game is solved first).
    #[cfg_attr(feature = "clap", arg(long, value_name = "SOURCE", default_value = "self-play", value_parser = ["self-play", "exact"]))]
    pub targets: String,
    /// With `--targets exact`: the solve's tolerance (the width of the value bracket at
    /// the openings) [default: 1e-6].
    #[cfg_attr(feature = "clap", arg(long = "exact-tolerance"))]
    pub exact_tolerance: Option<f64>,
    /// With `--targets exact`: the probability that a move of a training game is a random
    /// legal one [default: 0.05].
    #[cfg_attr(feature = "clap", arg(long))]
    pub explore: Option<f32>,
    /// With `--targets exact`: which positions of the training games are learnt:
    /// `after-moves` (at each decision every legal move's next position) or `every-roll`
    /// (those and the position before every roll, which `strong-search` needs)
    /// [default: after-moves].
    #[cfg_attr(feature = "clap", arg(long, value_name = "WHICH", value_parser = ["after-moves", "every-roll"]))]
    pub positions: Option<String>,
    /// With `--targets exact`: read the exact values from this folder of `solve --layered
    /// --values-out DIR` (the same board, profile and die on both sides) instead of solving
    /// the game; positions of the groups it does not hold, such as the core after `--part
    /// outside-core`, learn their TD(λ) returns (`--lambda`), which end in the exact values
    /// where the game enters the groups it holds.
    #[cfg_attr(feature = "clap", arg(long, value_name = "DIR"))]
    pub values: Option<std::path::PathBuf>,
    /// With `--targets exact`: refuse when the solve's estimated memory exceeds this:
    /// bytes, or e.g. `12GiB` (default: 80 % of the machine's RAM).
    #[cfg_attr(feature = "clap", arg(long = "max-memory", value_name = "SIZE"))]
    pub max_memory: Option<String>,
    /// Threads of the exact targets' solve (the training itself runs on one): default all
    /// cores, or RAYON_NUM_THREADS if set. The order in which several threads meet the
    /// states can change the last bits of the solved values; on one thread the same command
    /// writes the same file, byte for byte.
    #[cfg_attr(feature = "clap", arg(long))]
    pub threads: Option<usize>,
    /// Board and rule profile (default profile: `choice`).
    #[cfg_attr(feature = "clap", command(flatten))]
    pub rules: RulesOptions,
}

/// `train`'s options, checked.
#[derive(Debug, Clone)]
pub struct TrainSettings {
    run: Run,
    out: OutputFile,
    threads: Option<usize>,
}

impl TrainSettings {
    /// Checks the options: a profile with `choice`, a hidden layer of 1 to [`MAX_HIDDEN`]
    /// units, at least one game and one roll, positive finite step sizes, and a file that
    /// may be written.
    pub fn new(options: &TrainOptions) -> Result<TrainSettings, Error> {
        let rules = options.rules.rules_with_default_profile("choice")?;
        if !rules.profile().choice {
            return Err(Error::input(format!(
                "--profile {}: a player is trained for a game with choices: expected choice or choice+capture-duty",
                rules.profile()
            )));
        }
        if !(1..=MAX_HIDDEN).contains(&options.hidden) {
            return Err(Error::input(format!(
                "--hidden {}: expected 1 to {MAX_HIDDEN} units",
                options.hidden
            )));
        }
        if options.games == 0 {
            return Err(Error::input("--games 0: expected at least 1 game"));
        }
        if options.max_rolls == 0 {
            return Err(Error::input("--max-rolls 0: expected at least 1 roll"));
        }
        let rate = parse_rates(&options.rate)?;
        if !(0.0..=1.0).contains(&options.lambda) {
            return Err(Error::input(format!(
                "--lambda {}: expected a number from 0 to 1",
                options.lambda
            )));
        }
        if options.players != 2 {
            crate::rules::Seats::new(rules, options.players)
                .map_err(|e| Error::input(format!("--players {}: {e}", options.players)))?;
        }
        let die = parse_die("--die", &options.die)?;
        // A game nobody can win teaches nothing: refused before any game, at two seats as
        // at a table (every seat rolls this die).
        let waiting = rules.board().pieces() - 1;
        let never = if waiting > 0 && !die.faces().contains(&6) {
            Some(format!(
                "without a 6 this die never brings in the {waiting} of {} pieces that wait in B \
                 from the start",
                rules.board().pieces()
            ))
        } else if crate::sim::never_ends(&rules, [&die, &die], &crate::rules::GameState::start(0)) {
            Some("this die never moves a piece from the opening".to_string())
        } else {
            None
        };
        if let Some(why) = never {
            return Err(Error::input(format!(
                "--die {}: no game of self-play can end: {why}, so training would learn nothing",
                crate::dice::excerpt(&options.die)
            )));
        }
        let exact = exact_targets(options)?;
        super::options::check_threads(options.threads)?;
        let out = OutputFile::check(&options.out, options.overwrite)
            .map_err(|e| file_error("--out", e))?;
        let mut command = format!(
            "wuerfelglueck train --track {} --offset {} --pieces {} --goal-fields {} --profile {} \
             --games {} --seed {} --hidden {} --rate {},{} --lambda {} --die {} --max-rolls {}",
            rules.board().track_len(),
            rules.board().offset(),
            rules.board().pieces(),
            rules.board().goal_len(),
            rules.profile(),
            options.games,
            options.seed,
            options.hidden,
            rate[0],
            rate[1],
            options.lambda,
            die,
            options.max_rolls
        );
        if options.players != 2 {
            command.push_str(&format!(" --players {}", options.players));
        }
        if let Some(exact) = &exact {
            match &exact.values {
                Some(dir) => command.push_str(&format!(
                    " --targets exact --values {} --explore {}",
                    dir.display(),
                    exact.explore
                )),
                None => command.push_str(&format!(
                    " --targets exact --exact-tolerance {:e} --explore {}",
                    exact.tolerance, exact.explore
                )),
            }
            // Named only when not the default, so that the commands recorded before the
            // option existed stay the commands that train their files again.
            if exact.positions != Positions::AfterMoves {
                command.push_str(&format!(" --positions {}", exact.positions.name()));
            }
        }
        command.push_str(" --out FILE");
        Ok(TrainSettings {
            run: Run {
                rules,
                players: options.players,
                die,
                hidden: options.hidden,
                games: options.games,
                seed: options.seed,
                rate,
                lambda: options.lambda,
                max_rolls: options.max_rolls,
                command,
                exact,
            },
            out,
            threads: options.threads,
        })
    }
}

/// The exact targets of `--targets exact`, checked: two players, a tolerance the solver
/// accepts, a share of random moves from 0 to 1; `None` for self-play (whose options must
/// then not name exact targets' settings: they would be silently ignored).
fn exact_targets(options: &TrainOptions) -> Result<Option<ExactTargets>, Error> {
    if options.targets != "exact" {
        return match (
            options.exact_tolerance,
            options.explore,
            &options.positions,
            &options.max_memory,
            &options.values,
        ) {
            (None, None, None, None, None) => Ok(None),
            _ => Err(Error::input(
                "--exact-tolerance, --explore, --positions, --values and --max-memory belong to --targets exact; self-play would ignore them",
            )),
        };
    }
    if options.values.is_some()
        && (options.exact_tolerance.is_some() || options.max_memory.is_some())
    {
        return Err(Error::input(
            "--exact-tolerance and --max-memory set the solve of --targets exact; with --values the values are read from the folder, solved to its own tolerance",
        ));
    }
    if let Some(dir) = &options.values
        && !dir.is_dir()
    {
        return Err(Error::input(format!(
            "--values {}: expected the folder of `solve --layered --values-out DIR`, found no folder there",
            dir.display()
        )));
    }
    let tolerance = options.exact_tolerance.unwrap_or(1e-6);
    let explore = options.explore.unwrap_or(0.05);
    if options.players != 2 {
        return Err(Error::input(format!(
            "--targets exact with --players {}: the game is solved for two players only; a table player learns by self-play",
            options.players
        )));
    }
    crate::exact::SolveOptions::new(tolerance, 1, None)
        .map_err(|e| Error::input(format!("--exact-tolerance {tolerance}: {e}")))?;
    if !(0.0..=1.0).contains(&explore) {
        return Err(Error::input(format!(
            "--explore {explore}: expected a probability from 0 to 1"
        )));
    }
    let positions = match options.positions.as_deref() {
        None | Some("after-moves") => Positions::AfterMoves,
        Some("every-roll") => Positions::EveryRoll,
        Some(other) => {
            return Err(Error::input(format!(
                "--positions {other}: expected after-moves or every-roll"
            )));
        }
    };
    let max_memory = super::options::memory_limit(options.max_memory.as_deref())?;
    Ok(Some(ExactTargets {
        tolerance,
        values: options.values.clone(),
        explore,
        positions,
        max_memory,
    }))
}

fn parse_rates(text: &str) -> Result<[f32; 2], Error> {
    let bad = || {
        Error::input(format!(
            "--rate {}: expected FIRST,LAST, two step sizes above 0 and at most 1, e.g. 0.02,0.002",
            crate::dice::excerpt(text)
        ))
    };
    let (first, last) = text.split_once(',').ok_or_else(bad)?;
    let parse = |t: &str| -> Result<f32, Error> {
        let x: f32 = t.trim().parse().map_err(|_| bad())?;
        if x.is_finite() && x > 0.0 && x <= 1.0 {
            Ok(x)
        } else {
            Err(bad())
        }
    };
    Ok([parse(first)?, parse(last)?])
}

/// What `train` reports.
#[derive(Debug, Clone, serde::Serialize)]
pub struct TrainReport {
    /// The board trained for.
    pub board: String,
    /// The profile trained for.
    pub profile: String,
    /// The seats trained for.
    pub players: usize,
    /// The file written.
    pub file: String,
    /// The file's checksum.
    pub checksum: String,
    /// What the network learnt: `self-play` or `exact` (the solved game's values).
    pub targets: String,
    /// Games asked for (of self-play, or played to find positions for the exact targets).
    pub games: u64,
    /// Seed.
    pub seed: u64,
    /// Hidden units.
    pub hidden: usize,
    /// What the games did.
    pub counts: TrainingCounts,
    /// Wall-clock seconds of the training.
    pub seconds: f64,
}

impl Report for TrainReport {
    const FORMATS: &'static [Format] = &[Format::Table, Format::Json];

    fn write_table(&self, out: &mut dyn Write) -> io::Result<()> {
        writeln!(
            out,
            "trained a strong player for board {} with profile {}{}: {} games {} (seed {}, {} hidden units) in {:.1} s",
            self.board,
            self.profile,
            if self.players == 2 {
                String::new()
            } else {
                format!(" at a table of {}", self.players)
            },
            self.games,
            if self.targets == "exact" {
                "learning the solved game's exact values"
            } else {
                "of self-play"
            },
            self.seed,
            self.hidden,
            self.seconds
        )?;
        writeln!(
            out,
            "  {} games finished, {} abandoned at the roll cap, {} rolls, {} decisions among two or more moves",
            self.counts.games_finished,
            self.counts.games_capped,
            self.counts.rolls,
            self.counts.decisions
        )?;
        if self.counts.targets > 0 {
            writeln!(
                out,
                "  {} positions learnt from their exact values",
                self.counts.targets
            )?;
        }
        if self.counts.returns > 0 {
            writeln!(
                out,
                "  {} positions without exact values learnt from their TD(lambda) returns",
                self.counts.returns
            )?;
        }
        writeln!(out, "written to {} ({})", self.file, self.checksum)
    }

    fn csv(&self) -> Option<CsvTable> {
        None
    }
}

/// Trains the player and writes its file.
pub fn train(settings: &TrainSettings, progress: &dyn Progress) -> Result<TrainReport, Error> {
    let started = Instant::now();
    let (player, counts) =
        super::options::in_thread_pool(settings.threads, || self_play(&settings.run, progress))??;
    let seconds = started.elapsed().as_secs_f64();
    let text = player.to_json();
    // Read back what is written: the file must load as it will be loaded when played.
    let checked = crate::strategy::Trained::from_json(&text)
        .map_err(|e| Error::input(format!("the trained player does not read back: {e}")))?;
    settings
        .out
        .write(&text)
        .map_err(|e| file_error("--out", e))?;
    Ok(TrainReport {
        board: checked.board().to_string(),
        profile: checked.profile().to_string(),
        players: checked.players(),
        file: settings.out.path().display().to_string(),
        checksum: checked.checksum(),
        targets: if settings.run.exact.is_some() {
            "exact"
        } else {
            "self-play"
        }
        .to_string(),
        games: settings.run.games,
        seed: settings.run.seed,
        hidden: settings.run.hidden,
        counts,
        seconds,
    })
}

//! `grade`: strategies graded decision by decision against the exact values of a layered
//! solve ([`crate::experiments::grading`]).

use super::{Error, Progress, run_in_pool};
use crate::exact::game::layered::{LayeredValues, Part};
use crate::experiments::grading::{
    BestResponseValues, Grading, GradingError, grade as grade_games,
};
use crate::report::GradeReport;
use crate::sim::StreamKey;
use crate::strategy::Strategy;
use std::path::PathBuf;

/// The strategies graded when `--graded` is not given.
pub const GRADED_BY_DEFAULT: &str = "strong,strong-search,strong-search-2,safe,capture,frontmost";

/// The options of `grade`.
#[derive(Debug, Clone)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
pub struct GradeOptions {
    /// The group files of a layered solve (`solve --layered --values-out DIR`); their game
    /// (board, profile, dice) is the one played.
    #[cfg_attr(feature = "clap", arg(long, value_name = "DIR"))]
    pub values: PathBuf,
    /// Games, each side starting half (an even number).
    #[cfg_attr(feature = "clap", arg(long, default_value_t = 10_000))]
    pub games: u64,
    /// The strategy both sides play the games with.
    #[cfg_attr(
        feature = "clap",
        arg(long, default_value = "strong", value_name = "NAME")
    )]
    pub played: String,
    /// The strategies asked at every decision, comma-separated.
    #[cfg_attr(feature = "clap", arg(long, default_value = GRADED_BY_DEFAULT, value_name = "NAMES"))]
    pub graded: String,
    /// Seed of the games' random streams (the same figures on any number of threads).
    #[cfg_attr(feature = "clap", arg(long, default_value_t = 1))]
    pub seed: u64,
    /// A game reaching this many rolls ends unfinished.
    #[cfg_attr(feature = "clap", arg(long = "max-rolls", default_value_t = 100_000))]
    pub max_rolls: u64,
    /// Worker threads (default: all cores, or RAYON_NUM_THREADS if set).
    #[cfg_attr(feature = "clap", arg(long))]
    pub threads: Option<usize>,
    /// Also play every graded strategy from each game's first graded decision to the end,
    /// as A and as B, against the optimal opponent: what it gives away over the rest of the
    /// game, its errors exact, its games sampled. The values must hold every group after
    /// the entries' (e.g. all of --part both-home).
    #[cfg_attr(feature = "clap", arg(long = "against-optimal"))]
    pub against_optimal: bool,
    /// The values of a graded strategy against its best response, read at each game's
    /// first graded decision: a layered solve of the same game and part with that strategy
    /// on one side and the other optimal (`solve --layered --part both-home --strategy-a
    /// NAME --values-out DIR`, or `--strategy-b`). What it gives away over the rest of the
    /// game to an opponent who knows its every move, exactly per entry. Where both sides
    /// roll the same die, one side's pair also gives the other side's figures, by the
    /// mirror (for every strategy but a policy file or exact values). Repeat for more.
    #[cfg_attr(feature = "clap", arg(long = "best-response", value_name = "DIR"))]
    pub best_response: Vec<PathBuf>,
    /// Grade only the decisions whose every move lies in this part of the game
    /// (`outside-core`, `both-home`), the values of other groups in --values set aside: to
    /// read best responses of the part where both sides have a piece home beside a folder
    /// that holds more (default: every group --values holds).
    #[cfg_attr(feature = "clap", arg(long, value_name = "PART", value_parser = ["all", "outside-core", "both-home"]))]
    pub part: Option<String>,
}

/// Runs `grade`: opens the values (each group file read when first needed), plays the
/// games and grades every decision the values cover.
pub fn grade(options: &GradeOptions, progress: &dyn Progress) -> Result<GradeReport, Error> {
    let o = options;
    super::options::check_threads(o.threads)?;
    let parse = |option: &str, name: &str| -> Result<Strategy, Error> {
        name.trim()
            .parse()
            .map_err(|e| Error::input(format!("{option}: {e}")))
    };
    let played = parse("--played", &o.played)?;
    let graded = o
        .graded
        .split(',')
        .map(|name| parse("--graded", name))
        .collect::<Result<Vec<_>, _>>()?;
    // Each strategy once: its rows, and the best responses found by its name, are one.
    for (k, s) in graded.iter().enumerate() {
        if graded[..k].iter().any(|t| t.name() == s.name()) {
            return Err(Error::input(format!(
                "--graded {}: {} named twice",
                o.graded,
                s.name()
            )));
        }
    }
    let mut values =
        LayeredValues::open_dir(&o.values).map_err(|e| Error::input(format!("--values: {e}")))?;
    if let Some(name) = &o.part {
        let part = Part::named(name).ok_or_else(|| {
            Error::input(format!(
                "--part {name}: expected one of all, outside-core, both-home"
            ))
        })?;
        values = values.restricted_to(part);
        if values.groups_held().0 == 0 {
            return Err(Error::input(format!(
                "--values {}: holds no group of --part {name}",
                o.values.display()
            )));
        }
    }
    let pairs = o
        .best_response
        .iter()
        .map(|dir| {
            let refuse =
                |e: String| Error::input(format!("--best-response {}: {e}", dir.display()));
            let (pair, names) = LayeredValues::open_pair(dir).map_err(|e| refuse(e.to_string()))?;
            pair.check_game(values.rules(), values.dice())
                .map_err(|e| refuse(format!("not the game of --values: {e}")))?;
            let seat = match [names[0].as_str(), names[1].as_str()] {
                [_, "optimal"] => 0,
                ["optimal", _] => 1,
                [a, b] => {
                    return Err(refuse(format!(
                        "A playing {a}, B playing {b}: expected one side optimal, the best \
                         response to the other"
                    )));
                }
            };
            let name = &names[seat];
            let player = graded
                .iter()
                .position(|s| s.name() == *name)
                .ok_or_else(|| {
                    refuse(format!(
                        "its strategy {name} is not among --graded ({})",
                        o.graded
                    ))
                })?;
            if crate::strategy::names_a_file(name) {
                return Err(refuse(format!(
                    "its strategy {name} is read from a file, which may have changed since the \
                     solve: grade it against a strategy without a file"
                )));
            }
            Ok((pair, player, seat))
        })
        .collect::<Result<Vec<_>, Error>>()?;
    let grading = Grading {
        values: &values,
        played: [played.clone(), played],
        graded,
        games: o.games,
        key: StreamKey::new(o.seed),
        max_rolls: o.max_rolls,
        against_optimal: o.against_optimal,
        best_responses: pairs
            .iter()
            .map(|(values, player, seat)| BestResponseValues {
                values,
                player: *player,
                seat: *seat,
            })
            .collect(),
    };
    let [a, b] = values.dice();
    progress.begin(&format!("grading {a} vs {b}"), Some(o.games));
    let outcome = run_in_pool(o.threads, progress, |_| {
        grade_games(&grading, &|n| progress.games(n)).map_err(|e| match e {
            GradingError::Input(e) => Error::input(format!("grade: {e}")),
            GradingError::Values(e) => Error::input(format!("--values: {e}")),
        })
    })?;
    Ok(GradeReport {
        a: a.to_string(),
        b: b.to_string(),
        board: values.rules().board().to_string(),
        profile: values.rules().profile().to_string(),
        values: o.values.display().to_string(),
        tolerance: values.tolerance(),
        groups_held: {
            let (held, all) = values.groups_held();
            [held, all]
        },
        part: o.part.clone(),
        played: grading.played[0].name(),
        seed: o.seed,
        outcome,
    })
}

//! The racing state of a search kept on disk (`search --store DIR`), so that an interrupted
//! search resumes where it stopped.
//!
//! After every round the state ([`RaceState`]: every pair's and die's counts, who is still
//! in which race, the round and batch numbers) is written with the options that define the
//! run ([`RunOptions`]: family, board, profile, strategy, seed, error probability,
//! indifference, caps, design, roll cap) to `DIR/search-state.json`, through a temporary
//! file that is flushed to disk and renamed, so the file is always a complete round. A
//! rerun reads it back and goes on from there; since every chunk's games come from its own
//! stream, it plays exactly the games, and reaches exactly the counts and the answer, of a
//! run never interrupted. A round cut off in the middle is played again from its start.
//!
//! Read back, a file is used only if it is a search state of this program's format whose
//! options are the run's own, whose counts are consistent (every figure a whole number
//! of chunks within its cap, wins within games, the totals adding up), whose answers are
//! the ones its counts give (derived again on reading; a race that closed in an earlier
//! round keeps the answer of that round, which the counts of later rounds cannot give
//! again), and whose checksum (FNV-1a over its content) is its content's. The checksum
//! catches a damaged file or an edit by hand; it is not a signature. Anything else is
//! refused with an error naming the file and what differs or is wrong, and the file is
//! left as it is: the user decides whether to delete it or use another directory. One
//! directory holds one search; its exact confirmations share the pair records of `rank
//! --exact --store` in the same directory.

use super::config::{Design, RaceConfig};
use super::family::Family;
use super::racing::{RaceState, Stage, settle};
use crate::rules::Rules;
use crate::sim::CHUNK_GAMES;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::path::{Path, PathBuf};

/// The name of the state file in the store directory.
pub const STATE_FILE: &str = "search-state.json";

/// What the file says it is.
const FORMAT: &str = "wuerfelglueck search state";
/// The layout of the file; a file of another version is refused. (Version 1 stored the
/// answers of the counts before the last round, which cannot be checked against its counts.)
const VERSION: u32 = 2;

/// The options that define a search: two runs with the same options play the same games.
/// (Threads do not change any count; the exact confirmation's options do not touch the race.)
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunOptions {
    /// The dice, in family order.
    pub family: Vec<String>,
    /// Board.
    pub board: String,
    /// Rule profile.
    pub profile: String,
    /// The strategy every die plays.
    pub strategy: String,
    /// `racing`, `round-robin` or `screening`.
    pub design: Design,
    /// Seed.
    pub seed: u64,
    /// Overall error probability.
    pub error_probability: f64,
    /// Indifference.
    pub epsilon: f64,
    /// Cap on a pair's games.
    pub max_games_per_pair: u64,
    /// Cap on a die's sampled games (screening).
    pub max_games_per_die: u64,
    /// Dice checked for cycles (anchors under screening).
    pub top: usize,
    /// Roll cap of a game.
    pub max_rolls: u64,
}

impl RunOptions {
    /// The options of a search of `family` under `rules` and `config`.
    pub fn new(rules: &Rules, family: &Family, config: &RaceConfig) -> RunOptions {
        RunOptions {
            family: family.dice().iter().map(ToString::to_string).collect(),
            board: rules.board().to_string(),
            profile: rules.profile().to_string(),
            strategy: config.strategy.name(),
            design: config.design,
            seed: config.seed,
            error_probability: config.error_probability,
            epsilon: config.epsilon,
            max_games_per_pair: config.max_games_per_pair,
            max_games_per_die: config.max_games_per_die,
            top: config.top,
            max_rolls: config.max_rolls,
        }
    }

    /// The first option in which `self` (the file's) differs from `run` (this run's), as
    /// "what: X there, Y here"; `None` if they agree.
    fn difference(&self, run: &RunOptions) -> Option<String> {
        let differs = |what: &str, there: String, here: String| {
            (there != here).then(|| format!("{what}: {there} there, {here} here"))
        };
        let family = if self.family == run.family {
            None
        } else {
            let first = self
                .family
                .iter()
                .zip(&run.family)
                .position(|(a, b)| a != b)
                .unwrap_or(self.family.len().min(run.family.len()));
            let at = |f: &[String]| f.get(first).map_or("none".to_string(), Clone::clone);
            Some(format!(
                "the family: {} dice there, {} here (die {}: {} there, {} here)",
                self.family.len(),
                run.family.len(),
                first + 1,
                at(&self.family),
                at(&run.family)
            ))
        };
        family
            .or_else(|| differs("the board", self.board.clone(), run.board.clone()))
            .or_else(|| differs("--profile", self.profile.clone(), run.profile.clone()))
            .or_else(|| differs("--strategy", self.strategy.clone(), run.strategy.clone()))
            .or_else(|| {
                differs(
                    "--design",
                    self.design.name().to_string(),
                    run.design.name().to_string(),
                )
            })
            .or_else(|| differs("--seed", self.seed.to_string(), run.seed.to_string()))
            .or_else(|| {
                differs(
                    "--error-probability",
                    self.error_probability.to_string(),
                    run.error_probability.to_string(),
                )
            })
            .or_else(|| {
                differs(
                    "--epsilon",
                    self.epsilon.to_string(),
                    run.epsilon.to_string(),
                )
            })
            .or_else(|| {
                differs(
                    "--max-games",
                    self.max_games_per_pair.to_string(),
                    run.max_games_per_pair.to_string(),
                )
            })
            .or_else(|| {
                differs(
                    "--max-die-games",
                    self.max_games_per_die.to_string(),
                    run.max_games_per_die.to_string(),
                )
            })
            .or_else(|| differs("--top", self.top.to_string(), run.top.to_string()))
            .or_else(|| {
                differs(
                    "--max-rolls",
                    self.max_rolls.to_string(),
                    run.max_rolls.to_string(),
                )
            })
    }
}

/// The file's contents.
#[derive(Serialize, Deserialize)]
struct StateFile {
    format: String,
    version: u32,
    options: RunOptions,
    state: RaceState,
    /// FNV-1a (64 bit, hexadecimal) of the file's JSON without this field.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    checksum: Option<String>,
}

impl StateFile {
    /// FNV-1a of the JSON of everything but the checksum.
    fn content_checksum(&self) -> String {
        crate::files::json_checksum(&StateFile {
            format: self.format.clone(),
            version: self.version,
            options: self.options.clone(),
            state: self.state.clone(),
            checksum: None,
        })
    }
}

/// Why a state file cannot be used or written.
#[derive(Debug)]
pub enum CheckpointError {
    /// The file holds the state of a search with other options.
    OtherSearch {
        /// The file.
        path: PathBuf,
        /// The first option that differs.
        difference: String,
    },
    /// The file is not a complete, consistent search state.
    Damaged {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        why: String,
    },
    /// The file cannot be read or written.
    Io {
        /// The file.
        path: PathBuf,
        /// The error.
        error: std::io::Error,
    },
}

impl fmt::Display for CheckpointError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CheckpointError::OtherSearch { path, difference } => write!(
                f,
                "{} holds the state of another search ({difference}); it is left as it is: \
                 use another --store directory for this search, or delete the file to start \
                 afresh",
                path.display()
            ),
            CheckpointError::Damaged { path, why } => write!(
                f,
                "{} is not a usable search state ({why}); it is left as it is: delete it to \
                 start afresh, or use another --store directory",
                path.display()
            ),
            CheckpointError::Io { path, error } => write!(f, "{}: {error}", path.display()),
        }
    }
}

impl std::error::Error for CheckpointError {}

/// The state file of a search in a store directory.
#[derive(Clone, Debug)]
pub struct Checkpoint {
    path: PathBuf,
    options: RunOptions,
}

impl Checkpoint {
    /// The state file in `dir` for the run with `options`.
    pub fn new(dir: &Path, options: RunOptions) -> Checkpoint {
        Checkpoint {
            path: dir.join(STATE_FILE),
            options,
        }
    }

    /// The file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The state saved by an earlier run of the same search, `None` if there is no file;
    /// an error if the file is for another search, damaged or unreadable. `config` gives the
    /// caps the counts are checked against.
    pub fn load(&self, config: &RaceConfig) -> Result<Option<RaceState>, CheckpointError> {
        // Only a regular file is read: a FIFO would make the reading wait forever.
        let bytes = match crate::files::read_regular(&self.path, None) {
            Ok(bytes) => bytes,
            Err(e)
                if e.kind() == std::io::ErrorKind::NotFound
                    && std::fs::symlink_metadata(&self.path).is_err() =>
            {
                return Ok(None);
            }
            Err(e) if crate::files::is_not_regular(&e) => {
                return Err(CheckpointError::Damaged {
                    path: self.path.clone(),
                    why: e.to_string(),
                });
            }
            Err(error) => {
                return Err(CheckpointError::Io {
                    path: self.path.clone(),
                    error,
                });
            }
        };
        let damaged = |why: String| CheckpointError::Damaged {
            path: self.path.clone(),
            why,
        };
        // The header first, so a file of another kind is named as such.
        #[derive(Deserialize)]
        struct Header {
            format: String,
            version: u32,
        }
        let header: Header = serde_json::from_slice(&bytes)
            .map_err(|e| damaged(format!("not a search state: {e}")))?;
        if header.format != FORMAT || header.version != VERSION {
            return Err(damaged(format!(
                "\"{}\" version {}, expected \"{FORMAT}\" version {VERSION}",
                crate::dice::excerpt(&header.format),
                header.version
            )));
        }
        let file: StateFile = serde_json::from_slice(&bytes).map_err(|e| damaged(e.to_string()))?;
        if let Some(difference) = file.options.difference(&self.options) {
            return Err(CheckpointError::OtherSearch {
                path: self.path.clone(),
                difference,
            });
        }
        check_state(&file.state, config).map_err(damaged)?;
        check_answers(&file.state, config).map_err(damaged)?;
        let content = file.content_checksum();
        if file.checksum.as_deref() != Some(content.as_str()) {
            return Err(damaged(format!(
                "its checksum is {}, its content's {content}: it was changed after it was \
                 written",
                file.checksum
                    .as_deref()
                    .map_or("missing".to_string(), crate::dice::excerpt)
            )));
        }
        Ok(Some(file.state))
    }

    /// Writes `state` (after a round), whole or not at all ([`crate::files::write_atomic`]:
    /// a temporary file in the same directory, flushed to disk, renamed over the state
    /// file), so the file is always a complete round.
    pub fn save(&self, state: &RaceState) -> Result<(), CheckpointError> {
        let mut file = StateFile {
            format: FORMAT.to_string(),
            version: VERSION,
            options: self.options.clone(),
            state: state.clone(),
            checksum: None,
        };
        file.checksum = Some(file.content_checksum());
        let text = serde_json::to_vec(&file).map_err(|e| CheckpointError::Io {
            path: self.path.clone(),
            error: std::io::Error::other(e),
        })?;
        crate::files::write_atomic(&self.path, true, |f| {
            f.write_all(&text)?;
            f.write_all(b"\n")
        })
        .map_err(|e| match e {
            crate::files::WriteError::Target(e) => CheckpointError::Damaged {
                path: self.path.clone(),
                why: e.to_string(),
            },
            crate::files::WriteError::Io { path, error } => CheckpointError::Io { path, error },
        })
    }
}

/// Whether a state read back is one a race could have reached: sizes that fit the family
/// and the design, whole chunks within the caps, wins within games, totals that add up.
fn check_state(state: &RaceState, config: &RaceConfig) -> Result<(), String> {
    let o = &state.outcome;
    let n = o.n;
    let screening = config.design == Design::Screening;
    if o.pairs.dice() != n
        || state.mean_active.len() != n
        || state.maximin_active.len() != n
        || o.counts.len() != o.pairs.len()
    {
        return Err("its sizes do not fit together".into());
    }
    if o.screened.as_ref().map(Vec::len) != screening.then_some(n)
        || (o.pairs.anchors().is_some() != screening)
        || (!screening && state.stage != Stage::Pairs)
    {
        return Err(format!(
            "not the state of a {} search",
            config.design.name()
        ));
    }
    let whole = |games: u64, cap: u64| games.is_multiple_of(CHUNK_GAMES) && games <= cap;
    let mut total = 0u64;
    for c in &o.counts {
        let wins = c.a_wins.checked_add(c.b_wins);
        if !whole(c.games, config.max_games_per_pair) || wins.is_none_or(|w| w > c.games) {
            return Err(format!("a pair's counts are impossible: {c:?}"));
        }
        total = total.checked_add(c.games).ok_or("its games overflow")?;
    }
    for c in o.screened.iter().flatten() {
        if !whole(c.games, config.max_games_per_die) || c.wins > c.games {
            return Err(format!("a die's counts are impossible: {c:?}"));
        }
        total = total.checked_add(c.games).ok_or("its games overflow")?;
    }
    // Every counter is kept (stage 1's too, under screening): they add up to every game.
    if total != o.games {
        return Err(format!(
            "its counters add up to {total} games, but it says {} were played",
            o.games
        ));
    }
    let delta = config.error_probability;
    let pair_alpha_ok = if o.pairs.anchors().is_some_and(<[usize]>::is_empty) {
        o.pair_alpha.is_nan()
    } else {
        o.pair_alpha == delta / 2.0 / (2 * o.pairs.len()) as f64
    };
    if o.mean_alpha != delta / 2.0 / n as f64 || !pair_alpha_ok {
        return Err("its risks are not those of its error probability".into());
    }
    let in_range = |v: &[usize]| v.iter().all(|&i| i < n);
    let condorcet_ok = match &o.condorcet {
        super::Condorcet::Winner(c) => *c < n,
        super::Condorcet::None => true,
        super::Condorcet::Undecided(c) => in_range(c),
    };
    if !(o.best_mean.leader < n
        && o.maximin.leader < n
        && in_range(&o.best_mean.candidates)
        && in_range(&o.maximin.candidates)
        && in_range(&o.top)
        && condorcet_ok)
    {
        return Err("it names a die outside the family".into());
    }
    Ok(())
}

/// Whether the answers stored with the counts (leaders, candidates, Condorcet, top dice)
/// are the ones the counts give: a state is written with its answers settled on its
/// counts, so a difference means the file was changed. The answers are derived again, and
/// the first one that differs is named.
fn check_answers(state: &RaceState, config: &RaceConfig) -> Result<(), String> {
    let mut derived = state.clone();
    settle(&mut derived, config)?;
    let stored = serde_json::to_value(state).map_err(|e| e.to_string())?;
    let derived = serde_json::to_value(&derived).map_err(|e| e.to_string())?;
    match first_difference(&stored, &derived, String::new()) {
        None => Ok(()),
        Some((path, here, there)) => Err(format!(
            "its answers disagree with its counts: {path} is {here} in the file, but the \
             counts give {there}"
        )),
    }
}

/// The first place where two JSON values differ: its path and both values.
fn first_difference(
    a: &serde_json::Value,
    b: &serde_json::Value,
    path: String,
) -> Option<(String, String, String)> {
    use serde_json::Value;
    match (a, b) {
        (Value::Object(x), Value::Object(y)) if x.len() == y.len() => {
            x.iter().find_map(|(k, v)| {
                let inner = if path.is_empty() {
                    k.clone()
                } else {
                    format!("{path}.{k}")
                };
                match y.get(k) {
                    Some(w) => first_difference(v, w, inner),
                    None => Some((inner, v.to_string(), "nothing".into())),
                }
            })
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => x
            .iter()
            .zip(y)
            .enumerate()
            .find_map(|(i, (v, w))| first_difference(v, w, format!("{path}[{i}]"))),
        _ if a == b => None,
        _ => Some((
            path,
            crate::dice::excerpt(&a.to_string()),
            crate::dice::excerpt(&b.to_string()),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice_search::Condorcet;
    use crate::dice_search::outcome::PairCounts;

    /// One way to damage a state.
    type Damage = Box<dyn Fn(&mut RaceState)>;

    fn setup(design: Design) -> (Rules, Family, RaceConfig) {
        let rules = Rules::bwinf();
        let family = Family::multisets(2, 5, 6).unwrap();
        let config = RaceConfig::new(0.01, 0.0, 4096, 3, 1, 1000, design).unwrap();
        (rules, family, config)
    }

    #[test]
    fn the_first_differing_option_is_named() {
        let (rules, family, config) = setup(Design::Racing);
        let here = RunOptions::new(&rules, &family, &config);
        assert_eq!(here.difference(&here.clone()), None);
        let mut there = here.clone();
        there.seed = 2;
        there.top = 4;
        assert_eq!(
            there.difference(&here).as_deref(),
            Some("--seed: 2 there, 1 here")
        );
        let mut there = here.clone();
        there.family.pop();
        let d = there.difference(&here).unwrap();
        assert!(
            d.starts_with("the family: 2 dice there, 3 here (die 3: none there"),
            "{d}"
        );
        let mut there = here.clone();
        there.design = Design::Screening;
        assert_eq!(
            there.difference(&here).as_deref(),
            Some("--design: screening there, racing here")
        );
    }

    #[test]
    fn impossible_counts_are_refused() {
        for design in [Design::Racing, Design::Screening] {
            let (_, family, config) = setup(design);
            let start = RaceState::start(&family, &config);
            assert_eq!(check_state(&start, &config), Ok(()));
            let mut played = start.clone();
            if design == Design::Screening {
                let s = played.outcome.screened.as_mut().unwrap();
                s[0].games = CHUNK_GAMES;
                s[0].wins = 3;
            } else {
                played.outcome.counts[0] = PairCounts {
                    games: CHUNK_GAMES,
                    a_wins: 500,
                    b_wins: 500,
                };
            }
            played.outcome.games = CHUNK_GAMES;
            assert_eq!(check_state(&played, &config), Ok(()));
            let broken: Vec<(&str, Damage)> = vec![
                ("games", Box::new(|s| s.outcome.games += CHUNK_GAMES)),
                ("sizes", Box::new(|s| s.mean_active.push(true))),
                ("risks", Box::new(|s| s.outcome.mean_alpha *= 2.0)),
                ("outside", Box::new(|s| s.outcome.best_mean.leader = 99)),
                (
                    "counts",
                    Box::new(move |s| {
                        if let Some(d) = s.outcome.screened.as_mut() {
                            d[0].wins = 2 * CHUNK_GAMES;
                        } else {
                            s.outcome.counts[0].a_wins = CHUNK_GAMES;
                        }
                    }),
                ),
                (
                    "chunks",
                    Box::new(move |s| {
                        if let Some(d) = s.outcome.screened.as_mut() {
                            d[0].games += 1;
                        } else {
                            s.outcome.counts[0].games += 1;
                        }
                        s.outcome.games += 1;
                    }),
                ),
            ];
            for (what, damage) in broken {
                let mut s = played.clone();
                damage(&mut s);
                assert!(check_state(&s, &config).is_err(), "{design:?}: {what}");
            }
        }
    }

    /// The states a race saves after each round, for both designs.
    fn saved_states(design: Design) -> (RaceConfig, Vec<RaceState>) {
        let (rules, family, config) = setup(design);
        let mut saved = Vec::new();
        crate::dice_search::racing::race_from(
            &rules,
            &family,
            &config,
            RaceState::start(&family, &config),
            &|_| {},
            &|_| {},
            &mut |s| {
                saved.push(s.clone());
                Ok(true)
            },
        )
        .unwrap();
        (config, saved)
    }

    #[test]
    fn a_changed_answer_is_refused_however_consistent_it_looks() {
        for design in [Design::Racing, Design::Screening] {
            let (config, saved) = saved_states(design);
            assert!(saved.len() >= 2, "{design:?}: {} rounds", saved.len());
            assert!(saved.last().unwrap().finished);
            for state in &saved {
                assert_eq!(check_answers(state, &config), Ok(()), "{design:?}");
            }
            let last = saved.last().unwrap();
            let mut condorcet = last.clone();
            condorcet.outcome.condorcet = match &last.outcome.condorcet {
                Condorcet::Winner(c) => Condorcet::Winner((c + 1) % last.outcome.n),
                _ => Condorcet::Winner(0),
            };
            let why = check_answers(&condorcet, &config).unwrap_err();
            assert!(why.contains("outcome.condorcet"), "{why}");
            let mut top = last.clone();
            top.outcome.top.reverse();
            assert!(check_answers(&top, &config).is_err(), "{design:?}");
        }
    }

    #[test]
    fn an_edited_state_file_is_refused_and_left_as_it_is() {
        let (rules, family, config) = setup(Design::Racing);
        let (_, saved) = saved_states(Design::Racing);
        let last = saved.last().unwrap();
        let dir = std::env::temp_dir().join(format!("wg-checkpoint-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let checkpoint = Checkpoint::new(&dir, RunOptions::new(&rules, &family, &config));
        checkpoint.save(last).unwrap();
        assert_eq!(checkpoint.load(&config).unwrap().as_ref(), Some(last));
        let written = std::fs::read_to_string(checkpoint.path()).unwrap();
        let edit = |change: &dyn Fn(&mut serde_json::Value), fresh_checksum: bool| {
            let mut json: serde_json::Value = serde_json::from_str(&written).unwrap();
            change(&mut json);
            let mut file: StateFile = serde_json::from_value(json).unwrap();
            if fresh_checksum {
                file.checksum = Some(file.content_checksum());
            }
            let text = serde_json::to_string(&file).unwrap();
            std::fs::write(checkpoint.path(), &text).unwrap();
            let e = checkpoint.load(&config).unwrap_err().to_string();
            assert_eq!(std::fs::read_to_string(checkpoint.path()).unwrap(), text);
            e
        };
        let n = last.outcome.n;
        let other = (last.outcome.best_mean.leader + 1) % n;
        // Another leader: refused, by the counts where the race is still open, by the
        // checksum where it closed in an earlier round.
        let e = edit(
            &|j| j["state"]["outcome"]["best_mean"]["leader"] = other.into(),
            false,
        );
        assert!(
            e.contains("changed after it was written") || e.contains("answers disagree"),
            "{e}"
        );
        // Another Condorcet winner, with the checksum made anew: the counts tell.
        let winner = match last.outcome.condorcet {
            Condorcet::Winner(c) => (c + 1) % n,
            _ => 0,
        };
        let e = edit(
            &|j| j["state"]["outcome"]["condorcet"] = serde_json::json!({ "winner": winner }),
            true,
        );
        assert!(e.contains("answers disagree with its counts"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_state_file_that_is_not_a_regular_file_is_refused_without_waiting() {
        let (rules, family, config) = setup(Design::Racing);
        let dir = std::env::temp_dir().join(format!("wg-checkpoint-fifo-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let checkpoint = Checkpoint::new(&dir, RunOptions::new(&rules, &family, &config));
        crate::files::mkfifo(checkpoint.path());
        let (loading, config_copy) = (checkpoint.clone(), config.clone());
        let e = crate::files::within_seconds(move || loading.load(&config_copy).map(|_| ()))
            .unwrap_err()
            .to_string();
        assert!(
            e.contains(STATE_FILE) && e.contains("not a regular file (it is a FIFO)"),
            "{e}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_state_file_is_replaced_whole_never_written_into() {
        use std::os::unix::fs::MetadataExt;
        let (rules, family, config) = setup(Design::Racing);
        let (_, saved) = saved_states(Design::Racing);
        let dir = std::env::temp_dir().join(format!("wg-checkpoint-whole-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let checkpoint = Checkpoint::new(&dir, RunOptions::new(&rules, &family, &config));
        checkpoint.save(&saved[0]).unwrap();
        let before = std::fs::read(checkpoint.path()).unwrap();
        let inode = std::fs::metadata(checkpoint.path()).unwrap().ino();
        checkpoint.save(saved.last().unwrap()).unwrap();
        assert_ne!(std::fs::metadata(checkpoint.path()).unwrap().ino(), inode);
        assert_ne!(std::fs::read(checkpoint.path()).unwrap(), before);
        let names: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
        assert_eq!(names.len(), 1, "no temporary file left");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

//! Strategies: which of the legal moves a player picks under the `choice` profile.
//!
//! Under `choice` (`docs/src/rules.md`) rules 1 and 2 stay compulsory, but rule 3 lets the player
//! pick any piece that can move the face rolled. A [`Strategy`] makes that pick from the position
//! (both players' pieces) and the list [`Rules::legal_moves`] gives. When the list holds one move
//! (rules 1 and 2, rule 3 with one movable piece, every roll outside `choice`) every strategy plays
//! it; with an empty list (rule 4) there is nothing to pick.
//!
//! The game under `choice` is a two-player zero-sum stochastic game: A maximises
//! P(A wins) - P(B wins), a never-ending game counting 0, and B minimises it. The
//! strategies here are fixed heuristics, not solutions of that game.
//!
//! # The opponent's die
//! `safe` measures danger with the faces of the *opponent's* die, which a strategy parsed
//! from a name does not know: `"safe".parse()` gives [`Strategy::Safe`] holding
//! [`Threats::unresolved`]. [`Strategy::seated`] turns it into the per-matchup form, and
//! [`Matchup::new`](crate::sim::Matchup::new) does so for both players, so the simulator and
//! the commands never see an unresolved `safe`. Every other strategy ignores the dice.

pub mod network;
pub mod strong;
pub mod style;
mod table;
mod threats;

pub use strong::{Strong, StrongPlayer, TablePlayer, Trained};
pub use table::MoveTable;

pub use threats::Threats;

use crate::dice::{Die, excerpt};
use crate::rules::{LegalMoves, MAX_SEATS, PieceMove, Player, Rules, Seats};
use std::fmt;
use std::path::Path;
use std::sync::Arc;

/// How a player picks among the legal moves of a roll.
///
/// Every strategy returns one of the moves in `legal`; the list is ordered frontmost piece
/// first (see [`Rules::legal_moves`]), and "frontmost" below means "earliest in that list".
///
/// Not `Copy`, so that a variant holding a policy table (written by the exact solver) can
/// join the built-in heuristics.
#[derive(Clone, Debug, PartialEq)]
pub enum Strategy {
    /// `frontmost`: the frontmost piece that can move, moves (rule 3 of `bwinf`), i.e.
    /// [`LegalMoves::frontmost`]. The only strategy outside `choice`.
    Frontmost,
    /// `rearmost`: the rearmost piece that can move, moves (the last of the list).
    Rearmost,
    /// `capture`: the frontmost move that captures an opponent piece; when none captures,
    /// the frontmost move.
    Capture,
    /// `safe`: the move after which the fewest of the mover's pieces stand where one roll of
    /// the opponent's die could hit them ([`Threats`] states exactly what counts as a
    /// threat, measured with the opponent's pieces after the move, so a captured piece no
    /// longer threatens). Ties go to a move that captures, then to the frontmost move.
    /// Holds the opponent's die's reach; see the module docs for how it gets it.
    Safe(Threats),
    /// `random`: uniform among the legal moves, drawn from the caller's random stream.
    /// One draw (Lemire's unbiased multiply-and-reject on 32-bit words) is made only when
    /// there are at least two moves, so rolls with a single move consume nothing.
    ///
    /// The exact solver treats `random` as the uniform mix over the legal moves (each with
    /// probability `1 / len`), which is what the simulation samples.
    Random,
    /// `table:FILE`: the moves of a policy file written by the exact solver (`solve
    /// --profile choice --policy-out FILE`), read and validated when parsed; playable only
    /// in the game it was solved for ([`MoveTable::check_game`]).
    Table(std::sync::Arc<dyn MoveTable>),
    /// `strong` (the players shipped with the library, one per board) or `strong:FILE` (a
    /// player file written by `train`): the learned player of [`strong`], which plays the
    /// legal move whose next position its trained evaluator values highest. Playable only
    /// in a game a player was trained for ([`Strong::check_game`]).
    Strong(Arc<Strong>),
    /// `strong-search` or `strong-search:FILE`: the same evaluator with one roll of
    /// look-ahead: each legal move's next position is valued by the mean, over the faces of
    /// whoever rolls there, of the best move's value ([`network::Evaluator::best_move_searching`]);
    /// `strong-search-2` and `strong-search-3` (also `:FILE`) look two and three rolls
    /// ahead, each roll the mean over the faces of the best move's value one roll further.
    /// Holds both dice (own first) once seated ([`Strategy::seated`]), and the rolls.
    StrongSearch(Arc<Strong>, Option<Arc<[Die; 2]>>, u32),
    /// `exact:DIR` or `exact+FALLBACK:DIR`: the optimal move read from the values of a
    /// layered solve (`solve --layered --values-out DIR`, read and checked when parsed),
    /// wherever every move leads into a group the folder holds; elsewhere the fallback
    /// (a strategy name without a file, not `random`; `strong` when not given) plays.
    /// Playable only in the game the values were solved for.
    Exact(Arc<dyn MoveTable>, Box<Strategy>),
}

/// The strategy names [`Strategy::from_str`](std::str::FromStr) accepts.
pub const STRATEGY_NAMES: [&str; 7] = [
    "frontmost",
    "rearmost",
    "capture",
    "safe",
    "random",
    "strong",
    "strong-search",
];

/// The most rolls of look-ahead `strong-search-N` takes: each roll more costs about twenty
/// times the evaluations of a decision (six faces, a few moves each).
pub const MAX_SEARCH_ROLLS: u32 = 3;

/// The most faces a die may have where `strong-search` looks ahead: 64. Each roll of
/// look-ahead takes the mean over the die's faces (a repeated face as often as the die
/// has it) of the best move's value, so a decision of `strong-search-N` costs about
/// (faces times moves)^N evaluations; and the exact solver's table of a searching player
/// keeps one value per distinct face on the stack. The one bound of every place a
/// searching player is seated or tabulated ([`Strategy::check_game`]).
pub const MAX_SEARCH_FACES: usize = 64;

/// `strong-search`, `strong-search-N` (N from 2 to [`MAX_SEARCH_ROLLS`]), each optionally
/// followed by `:FILE`: the rolls of look-ahead and the file, if any. `None` for any other
/// name.
fn parse_search(name: &str) -> Option<(u32, Option<&str>)> {
    let rest = name.strip_prefix("strong-search")?;
    let (rolls, file) = match rest.split_once(':') {
        Some((rolls, file)) => (rolls, Some(file)),
        None => (rest, None),
    };
    let rolls = match rolls {
        "" => 1,
        n => n
            .strip_prefix('-')?
            .parse::<u32>()
            .ok()
            .filter(|r| (2..=MAX_SEARCH_ROLLS).contains(r))?,
    };
    Some((rolls, file))
}

/// Whether a strategy name reads a file when parsed (`table:FILE`, `strong:FILE`,
/// `strong-search:FILE`, `strong-search-N:FILE`): every such name, and no other, has a
/// colon. For callers that must not open files (the web server).
pub fn names_a_file(name: &str) -> bool {
    name.contains(':')
}

/// Why a strategy name was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StrategyError {
    /// Not a strategy name; holds a short, escaped excerpt of what was given.
    Unknown(String),
    /// `table:FILE`: the policy file could not be read or is not valid; holds the file name
    /// (a short, escaped excerpt) and what is wrong.
    Table(String, String),
    /// `strong:FILE`: the player file could not be read or is not valid; holds the file
    /// name (a short, escaped excerpt) and what is wrong.
    Strong(String, String),
    /// `exact:DIR`: the values folder could not be read or is not valid, or the fallback
    /// is not a strategy without a file; holds the name (a short, escaped excerpt) and
    /// what is wrong.
    Exact(String, String),
}

impl fmt::Display for StrategyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StrategyError::Unknown(given) => write!(
                f,
                "unknown strategy {given}: expected one of {}, strong-search-2, strong-search-3 (or \
                 table:FILE, strong:FILE, strong-search:FILE, strong-search-2:FILE, \
                 strong-search-3:FILE, exact:DIR, exact+FALLBACK:DIR)",
                STRATEGY_NAMES.join(", ")
            ),
            StrategyError::Table(file, why) => write!(f, "strategy table:{file}: {why}"),
            StrategyError::Strong(file, why) => write!(f, "strategy strong:{file}: {why}"),
            StrategyError::Exact(name, why) => write!(f, "strategy {name}: {why}"),
        }
    }
}

impl std::error::Error for StrategyError {}

/// Reads the file of `table:FILE` (or the folder of `exact:DIR`) for [`parse_with`]: the
/// table, or why it cannot be played.
pub type LoadTable = dyn Fn(&Path) -> Result<Arc<dyn MoveTable>, String>;

/// What [`parse_with`] reads files with: policy files (`table:FILE`) and values folders
/// (`exact:DIR`).
pub struct Loaders<'a> {
    /// Reads `table:FILE`.
    pub table: &'a LoadTable,
    /// Reads `exact:DIR`.
    pub exact: &'a LoadTable,
}

/// Parses a strategy name (see [`STRATEGY_NAMES`]), ignoring case and surrounding blanks,
/// or `table:FILE` or `exact:DIR`, which `load` reads (its error, the reason, is reported
/// with the file's name). `safe` comes back unresolved (see the module docs).
///
/// [`Strategy::from_str`](std::str::FromStr) is this with the policy-file reader of the
/// exact solver (`exact::game::TableStrategy`).
pub fn parse_with(s: &str, load: &Loaders<'_>) -> Result<Strategy, StrategyError> {
    let name = s.trim().to_ascii_lowercase();
    match name.as_str() {
        "frontmost" => Ok(Strategy::Frontmost),
        "rearmost" => Ok(Strategy::Rearmost),
        "capture" => Ok(Strategy::Capture),
        "safe" => Ok(Strategy::Safe(Threats::unresolved())),
        "random" => Ok(Strategy::Random),
        "strong" => Ok(Strategy::Strong(Strong::shipped())),
        _ => {
            if let Some(rest) = s.trim().strip_prefix("exact") {
                parse_exact(s.trim(), rest, load)
            } else if let Some(file) = s.trim().strip_prefix("table:") {
                (load.table)(Path::new(file))
                    .map(Strategy::Table)
                    .map_err(|e| StrategyError::Table(excerpt(file), e))
            } else if let Some(file) = s.trim().strip_prefix("strong:") {
                Strong::from_file(Path::new(file))
                    .map(|player| Strategy::Strong(Arc::new(player)))
                    .map_err(|e| StrategyError::Strong(excerpt(file), e))
            } else if let Some((rolls, Some(file))) = parse_search(s.trim()) {
                Strong::from_file(Path::new(file))
                    .map(|player| Strategy::StrongSearch(Arc::new(player), None, rolls))
                    .map_err(|e| StrategyError::Strong(excerpt(file), e))
            } else if let Some((rolls, None)) = parse_search(&name) {
                Ok(Strategy::StrongSearch(Strong::shipped(), None, rolls))
            } else {
                Err(StrategyError::Unknown(excerpt(s)))
            }
        }
    }
}

/// [`Strategy::choose`] of `exact:DIR`: the values' move, else the fallback's.
#[inline(never)]
#[allow(clippy::too_many_arguments)]
fn choose_exact<R: rand::Rng + ?Sized>(
    values: &dyn MoveTable,
    fallback: &Strategy,
    rules: &Rules,
    own: u64,
    other: u64,
    mover: Player,
    legal: &LegalMoves,
    rng: &mut R,
) -> Option<PieceMove> {
    values
        .choose(own, other, mover, legal)
        .or_else(|| fallback.choose(rules, own, other, mover, legal, rng))
}

/// `exact:DIR` or `exact+FALLBACK:DIR` (`rest`: what follows `exact`).
fn parse_exact(whole: &str, rest: &str, load: &Loaders<'_>) -> Result<Strategy, StrategyError> {
    let refuse = |why: String| StrategyError::Exact(excerpt(whole), why);
    let (fallback, dir) = if let Some(dir) = rest.strip_prefix(':') {
        (Strategy::Strong(Strong::shipped()), dir)
    } else if let Some((name, dir)) = rest.strip_prefix('+').and_then(|r| r.split_once(':')) {
        let fallback = parse_with(name, load).map_err(|e| refuse(e.to_string()))?;
        match fallback {
            Strategy::Exact(..) => {
                return Err(refuse("the fallback cannot be exact itself".into()));
            }
            // The exact solver reads every other strategy as one pick per decision.
            Strategy::Random => {
                return Err(refuse(
                    "the fallback must pick one move per decision; random draws".into(),
                ));
            }
            _ => {}
        }
        (fallback, dir)
    } else {
        return Err(refuse(
            "expected exact:DIR or exact+FALLBACK:DIR (FALLBACK a strategy name without a file, \
             e.g. exact+frontmost:DIR)"
                .into(),
        ));
    };
    let values = (load.exact)(Path::new(dir)).map_err(refuse)?;
    Ok(Strategy::Exact(values, Box::new(fallback)))
}

impl fmt::Display for Strategy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

impl serde::Serialize for Strategy {
    /// As its [`Strategy::name`].
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.name())
    }
}

impl Default for Strategy {
    /// `frontmost`, rule 3 of `bwinf`.
    fn default() -> Self {
        Strategy::Frontmost
    }
}

impl Strategy {
    /// The learned players behind `strong` and `strong-search` (shipped or from a file);
    /// `None` for the other strategies.
    pub fn learned(&self) -> Option<&Arc<Strong>> {
        match self {
            Strategy::Strong(s) | Strategy::StrongSearch(s, ..) => Some(s),
            _ => None,
        }
    }

    /// The name the strategy is parsed from and reported as (`strategy_a` / `strategy_b`
    /// in JSON).
    pub fn name(&self) -> String {
        match self {
            Strategy::Frontmost => "frontmost",
            Strategy::Rearmost => "rearmost",
            Strategy::Capture => "capture",
            Strategy::Safe(_) => "safe",
            Strategy::Random => "random",
            Strategy::Table(t) => return t.name(),
            Strategy::Exact(t, fallback) => {
                return match **fallback {
                    Strategy::Strong(ref s) if s.path().is_none() => t.name(),
                    _ => format!("exact+{}:{}", fallback.name(), t.path().display()),
                };
            }
            Strategy::Strong(s) => match s.path() {
                Some(path) => return format!("strong:{}", path.display()),
                None => "strong",
            },
            Strategy::StrongSearch(s, _, rolls) => {
                let name = match rolls {
                    1 => "strong-search".to_string(),
                    n => format!("strong-search-{n}"),
                };
                return match s.path() {
                    Some(path) => format!("{name}:{}", path.display()),
                    None => name,
                };
            }
        }
        .to_string()
    }

    /// Refuses a game the strategy cannot play: a `table:FILE` policy solved for another game
    /// ([`MoveTable::check_game`]), a `strong` player trained for another board or profile
    /// ([`Strong::check_game`]), a `strong-search` with a die of more than
    /// [`MAX_SEARCH_FACES`] faces. Every other strategy plays any game.
    pub fn check_game(&self, rules: &Rules, dice: [&Die; 2]) -> Result<(), String> {
        match self {
            Strategy::Table(t) => t.check_game(rules, dice),
            Strategy::Exact(t, fallback) => {
                t.check_game(rules, dice)?;
                fallback
                    .check_game(rules, dice)
                    .map_err(|e| format!("the fallback of {}: {e}", self.name()))
            }
            Strategy::Strong(s) => s.check_game(rules),
            Strategy::StrongSearch(s, ..) => {
                s.check_game(rules)?;
                match dice.iter().find(|d| d.faces().len() > MAX_SEARCH_FACES) {
                    Some(die) => Err(format!(
                        "{} looks ahead over every face of both dice, at most \
                         {MAX_SEARCH_FACES} faces a die; {} has {}",
                        self.name(),
                        crate::dice::excerpt(&die.to_string()),
                        die.faces().len()
                    )),
                    None => Ok(()),
                }
            }
            _ => Ok(()),
        }
    }

    /// Whether the strategy's pick depends on the position alone (`random` draws).
    pub fn is_deterministic(&self) -> bool {
        match self {
            Strategy::Random => false,
            Strategy::Exact(_, fallback) => fallback.is_deterministic(),
            _ => true,
        }
    }

    /// Whether this is `frontmost`, the rules' own pick: the simulator's fast path.
    pub fn is_frontmost(&self) -> bool {
        matches!(self, Strategy::Frontmost)
    }

    /// The strategy as played in seat `seat` with the dice `dice` (die A, die B): resolves
    /// [`Strategy::Safe`]'s threats from the opponent's die and gives
    /// [`Strategy::StrongSearch`] both dice; every other strategy is returned as it is.
    pub fn seated(&self, dice: [&Die; 2], seat: Player) -> Strategy {
        match self {
            Strategy::Safe(_) => Strategy::Safe(Threats::of_die(dice[1 - seat])),
            Strategy::StrongSearch(s, _, rolls) => Strategy::StrongSearch(
                s.clone(),
                Some(Arc::new([dice[seat].clone(), dice[1 - seat].clone()])),
                *rolls,
            ),
            Strategy::Exact(t, fallback) => {
                Strategy::Exact(Arc::clone(t), Box::new(fallback.seated(dice, seat)))
            }
            other => other.clone(),
        }
    }

    /// Picks one of `legal`, the moves [`Rules::legal_moves`] gives for `mover`, whose pieces
    /// are `own`, against the opponent's pieces `other` (in the opponent's numbering).
    /// `None` only when `legal` is empty. Only [`Strategy::Random`] uses `rng`.
    ///
    /// # Panics
    /// On a [`Strategy::Safe`] not resolved with [`Strategy::seated`] (a programming
    /// error: its pick would depend on a die nobody gave it), and on a [`Strategy::Strong`]
    /// in a game it was not trained for (check with [`Strategy::check_game`] first).
    ///
    /// The heuristics are compiled into the caller's game loop (each roll of a simulated
    /// game asks); the learned players and policy files, whose decision costs far more than
    /// a call, are called out of line so that the loop stays small.
    #[inline(always)]
    pub fn choose<R: rand::Rng + ?Sized>(
        &self,
        rules: &Rules,
        own: u64,
        other: u64,
        mover: Player,
        legal: &LegalMoves,
        rng: &mut R,
    ) -> Option<PieceMove> {
        if legal.len() <= 1 {
            return legal.frontmost();
        }
        match self {
            Strategy::Frontmost => legal.frontmost(),
            Strategy::Rearmost => legal.iter().last(),
            Strategy::Capture => pick_capturing(legal, |m| captures(rules, other, mover, m)),
            Strategy::Safe(threats) => pick_safe(threats, rules, own, other, mover, legal),
            Strategy::Random => pick_at_random(legal, rng),
            Strategy::Exact(t, fallback) => {
                choose_exact(t.as_ref(), fallback, rules, own, other, mover, legal, rng)
            }
            evaluated => evaluated.choose_by_evaluator(rules, own, other, mover, legal),
        }
    }

    /// [`Strategy::choose`] for the strategies that evaluate positions: a policy file,
    /// `strong` and `strong-search`.
    #[inline(never)]
    fn choose_by_evaluator(
        &self,
        rules: &Rules,
        own: u64,
        other: u64,
        mover: Player,
        legal: &LegalMoves,
    ) -> Option<PieceMove> {
        match self {
            Strategy::Table(t) => t
                .choose(own, other, mover, legal)
                .or_else(|| legal.frontmost()),
            Strategy::Strong(s) => s
                .for_game(rules)
                .expect("Strategy::Strong is checked with Strategy::check_game before it chooses")
                .choose(rules, own, other, mover, legal),
            Strategy::StrongSearch(s, dice, rolls) => {
                let [mine, theirs] = dice.as_deref().expect(
                    "Strategy::StrongSearch must be seated (Strategy::seated) before it chooses",
                );
                let by_player = if mover == 0 {
                    [mine, theirs]
                } else {
                    [theirs, mine]
                };
                s.for_game(rules)
                    .expect("Strategy::StrongSearch is checked with Strategy::check_game before it chooses")
                    .evaluator()
                    .best_move_searching(
                        rules,
                        own,
                        other,
                        mover,
                        legal,
                        network::LookAhead {
                            dice: by_player,
                            rolls: *rolls,
                        },
                    )
            }
            heuristic => unreachable!("{} is chosen in Strategy::choose itself", heuristic.name()),
        }
    }

    /// Whether the strategy plays B's side as the mirror image of A's where both sides roll
    /// the same die: its choice depends only on the position seen from the mover. Every
    /// strategy that can sit at a table of several does, and so do the learned players
    /// with search; a policy file or exact values are tables that may answer the two sides
    /// differently.
    pub fn plays_sides_alike(&self) -> bool {
        self.plays_at_tables() || matches!(self, Strategy::StrongSearch(..))
    }

    /// Whether the strategy can play at a table of three or four: the heuristics can
    /// (`frontmost`, `rearmost`, `capture`, `safe`, `random`), and `strong` where a player
    /// was trained for the table ([`Strong::plays_at`]); a policy file and
    /// `strong-search` were made for two players.
    pub fn plays_at_tables(&self) -> bool {
        matches!(
            self,
            Strategy::Frontmost
                | Strategy::Rearmost
                | Strategy::Capture
                | Strategy::Safe(_)
                | Strategy::Random
                | Strategy::Strong(_)
        )
    }

    /// [`Strategy::choose`] at a table: seat `mover` picks one of `legal` with every seat's
    /// `pieces` on the board (each in its own numbering). `capture` captures a piece of any
    /// other seat when it can; `safe` leaves the fewest of its pieces within reach of any
    /// other seat's next roll, `reach[j]` being seat `j`'s die ([`exposed_at_table`]);
    /// `strong` plays the move after which its table player gives its own seat the highest
    /// chance to win (at a table of two, the two-player player's move).
    ///
    /// # Panics
    /// On a strategy that does not [`Strategy::plays_at_tables`], and on a `strong` without a
    /// player for this table (both checked when the table is set up).
    #[inline]
    pub fn choose_at_table<const N: usize, R: rand::Rng + ?Sized>(
        &self,
        seats: &Seats,
        pieces: &[u64; N],
        mover: usize,
        legal: &LegalMoves,
        reach: &[Threats; MAX_SEATS],
        rng: &mut R,
    ) -> Option<PieceMove> {
        if legal.len() <= 1 {
            return legal.frontmost();
        }
        match self {
            Strategy::Frontmost => legal.frontmost(),
            Strategy::Rearmost => legal.iter().last(),
            Strategy::Capture => {
                let others = seats.others_in_view(pieces, mover);
                let track = seats.board().track_len();
                pick_capturing(legal, |m| m.to < track && others >> m.to & 1 == 1)
            }
            Strategy::Safe(_) => pick_safest(legal, |m| {
                let mut after = *pieces;
                let turn = seats.roll_with_move(&mut after, mover, 0, legal.face(), Some(m));
                (
                    exposed_at_table(seats, &after, mover, reach),
                    turn.captured.is_some(),
                )
            }),
            Strategy::Random => pick_at_random(legal, rng),
            // At a table of two the seats are the duel's players: the two-player player.
            Strategy::Strong(s) if seats.players() == 2 => s
                .for_game(seats.rules())
                .expect("Strategy::Strong at a table is checked with Strong::plays_at when it is set up")
                .choose(seats.rules(), pieces[mover], pieces[1 - mover], mover, legal),
            Strategy::Strong(s) => s
                .for_table(seats)
                .expect("Strategy::Strong at a table is checked with Strong::plays_at when it is set up")
                .evaluator()
                .best_move(seats, pieces, mover, legal),
            other => panic!(
                "strategy {} cannot play at a table (checked with Strategy::plays_at_tables)",
                other.name()
            ),
        }
    }
}

/// `safe`'s pick in a duel: the rule of [`pick_safest`], with the danger of every move that
/// captures nothing read off bit masks at once.
///
/// Such a move leaves the opponent's reach as it is, and changes the mover's pieces on two
/// fields only: its danger is the danger before the move, one less if the piece leaves a
/// field within reach, one more if it lands on one. So the quiet moves fall into three
/// classes of danger, and the best of them is the frontmost of the lowest class; a move
/// that captures sends an opponent piece home, which changes the reach, and is counted
/// out in full (captures are a few in a hundred decisions).
#[inline(always)]
fn pick_safe(
    threats: &Threats,
    rules: &Rules,
    own: u64,
    other: u64,
    mover: Player,
    legal: &LegalMoves,
) -> Option<PieceMove> {
    assert!(
        threats.is_resolved(),
        "Strategy::Safe must be resolved with the opponent's die (Strategy::seated) before it chooses"
    );
    let board = rules.board();
    let face = legal.face();
    let sources = legal.sources();
    debug_assert_eq!(
        legal.len(),
        sources.count_ones() as usize,
        "a piece brought in is always the only move"
    );
    // The opponent's reach and its track pieces in the mover's numbering (track bits only:
    // the mover's goal fields are never within reach).
    let in_my_view = |mask| board.track_in_other_view(1 - mover, mask);
    let reach = in_my_view(threats.reach(rules, other));
    let theirs = in_my_view(other);
    let capturing = (theirs >> face) & sources;
    let quiet = sources & !capturing;
    let leaves = quiet & reach;
    let lands = quiet & (reach >> face);
    let danger_before = (own & reach).count_ones();
    let (class, danger) = if leaves & !lands != 0 {
        (leaves & !lands, danger_before - 1)
    } else if quiet & !(leaves ^ lands) != 0 {
        (quiet & !(leaves ^ lands), danger_before)
    } else {
        (lands & !leaves, danger_before + 1)
    };
    // `pick_safest`'s key `(danger, !captured)` as one number: 2 * danger, plus 1 for a
    // move that captures nothing. Quiet and capturing keys differ in parity, so no tie
    // crosses the classes, and within each the frontmost comes first.
    let mut best = (class != 0).then(|| 63 - class.leading_zeros());
    let mut best_key = if class != 0 { 2 * danger + 1 } else { u32::MAX };
    let mut rest = capturing;
    while rest != 0 {
        let from = 63 - rest.leading_zeros();
        rest &= !(1u64 << from);
        let to = from + face;
        let own_after = own ^ (1u64 << from) ^ (1u64 << to);
        let other_after = other & !(1u64 << board.opponent_field(mover, to));
        let key = 2 * (own_after & in_my_view(threats.reach(rules, other_after))).count_ones();
        if key < best_key {
            best = Some(from);
            best_key = key;
        }
    }
    best.and_then(|from| legal.get(Some(from)))
}

/// `capture`'s pick: the frontmost capturing move, else the frontmost.
#[inline(always)]
fn pick_capturing(legal: &LegalMoves, captures: impl Fn(&PieceMove) -> bool) -> Option<PieceMove> {
    legal
        .iter()
        .find(|m| captures(m))
        .or_else(|| legal.frontmost())
}

/// `safe`'s pick: the move after which the fewest of the mover's pieces stand within reach
/// (`danger_after` gives that count and whether the move captured); among equals a capturing
/// move, then the frontmost (`min_by_key` keeps the first of equal keys).
#[inline(always)]
fn pick_safest(
    legal: &LegalMoves,
    danger_after: impl Fn(PieceMove) -> (u32, bool),
) -> Option<PieceMove> {
    legal.iter().min_by_key(|&m| {
        let (danger, captured) = danger_after(m);
        (danger, !captured)
    })
}

/// `random`'s pick: uniform over the legal moves (one draw, made only with two or more).
#[inline(always)]
fn pick_at_random<R: rand::Rng + ?Sized>(legal: &LegalMoves, rng: &mut R) -> Option<PieceMove> {
    let pick = uniform_below(rng, legal.len() as u32);
    legal.iter().nth(pick as usize)
}

/// How many of seat `mover`'s pieces stand where one roll of another seat can land a piece:
/// `reach[j]` is seat `j`'s die ([`Threats`], as `safe` measures the danger of one
/// opponent), each seat's reach turned into the mover's numbering. A piece within reach of
/// two seats counts once.
pub fn exposed_at_table<const N: usize>(
    seats: &Seats,
    pieces: &[u64; N],
    mover: usize,
    reach: &[Threats; MAX_SEATS],
) -> u32 {
    let rules = seats.rules();
    let own = pieces[mover] & seats.board().track_mask();
    let hit = (0..seats.players().min(N))
        .filter(|&j| j != mover)
        .fold(0, |hit, j| {
            hit | seats.track_for(j, mover, reach[j].reach(rules, pieces[j]))
        });
    (own & hit).count_ones()
}

/// Whether `movement` of `mover` captures one of the opponent's pieces `other` (in the
/// opponent's numbering): it lands on a track field where an opponent piece stands.
pub fn captures(rules: &Rules, other: u64, mover: Player, movement: &PieceMove) -> bool {
    let board = rules.board();
    movement.to < board.track_len() && other >> board.opponent_field(mover, movement.to) & 1 == 1
}

/// A uniform index in `0..n` (`n >= 1`): Lemire's multiply-and-reject, as [`Die::roll`].
#[inline]
pub(crate) fn uniform_below<R: rand::Rng + ?Sized>(rng: &mut R, n: u32) -> u32 {
    let reject_below = n.wrapping_neg() % n;
    loop {
        let product = u64::from(rng.next_u32()) * u64::from(n);
        if (product as u32) >= reject_below {
            return (product >> 32) as u32;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Board;
    use proptest::prelude::{ProptestConfig, prop_assert_eq, proptest};
    use proptest::strategy::Strategy as Generator;

    /// `safe`'s rule as written: every legal move played out, the mover's track pieces
    /// turned into the opponent's numbering and counted against the opponent's reach after
    /// the move.
    fn safe_by_definition(
        threats: &Threats,
        rules: &Rules,
        own: u64,
        other: u64,
        mover: Player,
        legal: &LegalMoves,
    ) -> Option<PieceMove> {
        let board = rules.board();
        pick_safest(legal, |m| {
            let own_after = own ^ m.from.map_or(0, |f| 1u64 << f) ^ (1u64 << m.to);
            let targets = board.track_in_other_view(mover, own_after);
            let captured = captures(rules, other, mover, &m);
            let other_after = if captured {
                other & !(1u64 << board.opponent_field(mover, m.to))
            } else {
                other
            };
            let danger = (targets & threats.reach(rules, other_after)).count_ones();
            (danger, captured)
        })
    }

    /// At most `pieces` pieces on the fields `0..fields`, as a mask.
    fn pieces_on(fields: u32, pieces: usize) -> impl Generator<Value = u64> {
        proptest::collection::btree_set(0..fields, 0..=pieces)
            .prop_map(|set| set.iter().fold(0u64, |mask, &f| mask | 1u64 << f))
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(20000))]

        /// The masks' shortcut picks the move the definition picks, on boards and dice
        /// where captures, bringing in and moves into the goal all happen (most positions
        /// drawn have two or more moves to choose from).
        #[test]
        fn safe_picks_what_its_definition_picks(
            board in proptest::sample::select(vec![(40, 20, 4, 4), (20, 10, 4, 4), (16, 8, 2, 2), (22, 11, 3, 4)]),
            die in proptest::sample::select(vec!["1..6", "0..9", "1,1,1,6,6,6", "2..7", "1..20"]),
            own in pieces_on(44, 4),
            other in pieces_on(44, 4),
            mover in 0..2usize,
            face_index in 0..20usize,
        ) {
            let (track, offset, pieces, goal) = board;
            let board = Board::new(track, offset, pieces, goal).unwrap();
            let keep = board.field_mask();
            let pieces_kept = |mask: u64| {
                let mut mask = mask & keep;
                while mask.count_ones() > pieces {
                    mask &= mask - 1;
                }
                mask
            };
            let (own, other) = (pieces_kept(own), pieces_kept(other));
            let rules = Rules::new(board, "choice".parse().unwrap());
            let die: Die = die.parse().unwrap();
            let threats = Threats::of_die(&die);
            let face = die.faces()[face_index % die.faces().len()];
            let legal = rules.legal_moves(own, other, mover, face);
            let safe = Strategy::Safe(threats);
            let mut unused = crate::sim::StreamKey::new(0).rng(0);
            prop_assert_eq!(
                safe.choose(&rules, own, other, mover, &legal, &mut unused),
                safe_by_definition(&threats, &rules, own, other, mover, &legal)
            );
        }
    }
}

//! How the players of a duel or a table decide, counted over the decisions its games
//! actually met (the counts of [`Style`], which `solve --style` takes over every reachable
//! state once, here weighted by how often play reaches each decision).

use super::counts::{CHUNK_PAIRS, DuelCounts};
use super::game::{self, Matchup, Watcher};
use super::stream::StreamKey;
use super::table::{Table, TableCounts, TableWatcher};
use crate::rules::{LegalMoves, MAX_SEATS, PieceMove, Player, Rules, Seats};
use crate::strategy::Threats;
use crate::strategy::style::Style;
use rayon::prelude::*;

/// Each player's [`Style`] over a duel's decisions (A first).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct DuelStyle {
    /// Games whose decisions were counted: all of the duel's.
    pub games: u64,
    /// Die A's decisions, then die B's.
    pub players: [Style; 2],
}

/// Counts the decisions of the games it watches.
struct Counting<'a> {
    rules: &'a Rules,
    /// Per mover: the reach of the opponent's next roll.
    threats: &'a [Threats; 2],
    players: [Style; 2],
}

impl Watcher for Counting<'_> {
    fn decision(
        &mut self,
        own: u64,
        other: u64,
        mover: Player,
        face: u32,
        legal: &LegalMoves,
        movement: Option<PieceMove>,
    ) {
        let Some(movement) = movement else { return };
        let rules = self.rules;
        self.players[mover].record(
            rules,
            &self.threats[mover],
            own,
            other,
            mover,
            face,
            legal,
            || {
                legal
                    .iter()
                    .position(|m| m == movement)
                    .expect("strategies pick legal moves")
            },
        );
    }
}

/// The decisions of the duel of `matchup` seeded by `key` that gave `counts`: its games are
/// played again, from the same streams in the same chunks, by the strategies' loop, which
/// plays the same games as every faster loop (tested in `game`) while it watches the
/// decisions. The replay's outcomes are compared with `counts`, and a difference is an
/// error, never a style of other games. `progress` as in [`super::play_chunks`].
pub fn duel_style(
    matchup: &Matchup,
    key: StreamKey,
    counts: &DuelCounts,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<DuelStyle, String> {
    let dice = matchup.dice();
    let threats = [Threats::of_die(dice[1]), Threats::of_die(dice[0])];
    let total_pairs = counts.total().games / 2;
    let (replayed, players) = (0..total_pairs.div_ceil(CHUNK_PAIRS))
        .into_par_iter()
        .map(|chunk| {
            progress(0);
            let pairs = CHUNK_PAIRS.min(total_pairs - chunk * CHUNK_PAIRS);
            let mut rng = key.rng(chunk);
            let mut watcher = Counting {
                rules: matchup.rules(),
                threats: &threats,
                players: Default::default(),
            };
            let mut counts = DuelCounts::default();
            for _ in 0..pairs {
                // The strategies' games are slow: a caller may give up within a chunk.
                progress(0);
                for default_first in [0 as Player, 1] {
                    let first = matchup.first_player(default_first, &mut rng);
                    let end = matchup.play_game_watched::<{ game::CHOOSING }, _, _>(
                        first,
                        &mut rng,
                        &mut watcher,
                    );
                    if first == 0 {
                        counts.a_started.record(end);
                    } else {
                        counts.b_started.record(end);
                    }
                }
            }
            progress(2 * pairs);
            (counts, watcher.players)
        })
        .panic_fuse()
        .reduce(
            || (DuelCounts::default(), [Style::default(); 2]),
            |(c, [a, b]), (d, [x, y])| (c + d, [a.merge(x), b.merge(y)]),
        );
    if replayed != *counts {
        return Err(format!(
            "the replay of the duel's games for the style counts ended otherwise than the duel \
             ({:?} against {:?}): no style is reported for games that were not the duel's",
            replayed.total(),
            counts.total()
        ));
    }
    Ok(DuelStyle {
        games: counts.total().games,
        players,
    })
}

/// Each die's [`Style`] over a table's decisions.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct TableStyle {
    /// Games whose decisions were counted: all of the table's.
    pub games: u64,
    /// The decisions of each die (in the order of the dice), from whatever seat it sat in.
    pub dice: Vec<Style>,
}

/// Counts the decisions of the table games it watches, by die.
struct CountingAtTable<'a> {
    seats: &'a Seats,
    /// Each die's reach (what `safe` fears from the seat it sits in).
    reach_of_die: Vec<Threats>,
    /// The current game's seating and each seat's reach.
    seating: [usize; MAX_SEATS],
    reach: [Threats; MAX_SEATS],
    dice: [Style; MAX_SEATS],
}

impl TableWatcher for CountingAtTable<'_> {
    fn seated(&mut self, seating: &[usize; MAX_SEATS]) {
        self.seating = *seating;
        for (s, &die) in seating.iter().enumerate().take(self.seats.players()) {
            self.reach[s] = self.reach_of_die[die];
        }
    }

    fn decision<const N: usize>(
        &mut self,
        pieces: &[u64; N],
        mover: usize,
        legal: &LegalMoves,
        movement: Option<PieceMove>,
    ) {
        let Some(movement) = movement else { return };
        self.dice[self.seating[mover]].record_at_table(
            self.seats,
            pieces,
            mover,
            legal,
            &self.reach,
            || {
                legal
                    .iter()
                    .position(|m| m == movement)
                    .expect("strategies pick legal moves")
            },
        );
    }
}

/// The decisions of the table games seeded by `key` that gave `counts`: the games are played
/// again, from the same streams in the same chunks, by the strategies' loop while it watches
/// the decisions, and the replay's outcomes are compared with `counts` (a difference is an
/// error, never a style of other games). `progress` as in [`Table::play_chunks`].
pub fn table_style(
    table: &Table,
    key: StreamKey,
    counts: &TableCounts,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<TableStyle, String> {
    let table = table.choosing_loop();
    let players = table.seats().players();
    let total_rounds = counts.games / table.round_games();
    let chunk_rounds = table.chunk_games() / table.round_games();
    let reach_of_die: Vec<Threats> = table.dice().iter().map(|d| Threats::of_die(d)).collect();
    let (replayed, dice) = (0..total_rounds.div_ceil(chunk_rounds))
        .into_par_iter()
        .map(|chunk| {
            progress(0);
            let rounds = table.rounds_of_chunk(chunk, total_rounds);
            let mut watcher = CountingAtTable {
                seats: table.seats(),
                reach_of_die: reach_of_die.clone(),
                seating: [0; MAX_SEATS],
                reach: [Threats::unresolved(); MAX_SEATS],
                dice: Default::default(),
            };
            let counts = table.play_chunk_watched(key, chunk, rounds, &mut watcher);
            progress(rounds * table.round_games());
            (counts, watcher.dice)
        })
        .panic_fuse()
        .reduce(
            || (TableCounts::new(players), [Style::default(); MAX_SEATS]),
            |(c, x), (d, y)| (c + d, std::array::from_fn(|i| x[i].merge(y[i]))),
        );
    if replayed != *counts {
        return Err(format!(
            "the replay of the table's games for the style counts ended otherwise than the table \
             ({} games, {} unfinished, against {} and {}): no style is reported for games that \
             were not the table's",
            replayed.games, replayed.unfinished, counts.games, counts.unfinished
        ));
    }
    Ok(TableStyle {
        games: counts.games,
        dice: dice[..players].to_vec(),
    })
}

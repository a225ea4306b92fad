//! How the players of a duel decide, counted over the decisions its games actually met
//! (the counts of [`Style`], which `solve --style` takes over every reachable state once, here
//! weighted by how often play reaches each decision).

use super::counts::{CHUNK_PAIRS, DuelCounts};
use super::game::{self, Matchup, Watcher};
use super::stream::StreamKey;
use crate::exact::game::style::Style;
use crate::rules::{LegalMoves, PieceMove, Player, Rules};
use crate::strategy::Threats;
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

//! Two players, eight games at once (see [`super`]).

use super::path::{Kernel, LanesPath};
use super::vector::{Mask, Vector};
use super::{Generators, LANES, LaneDice, LaneRules, distinct, seed_lane};
use crate::rules::{GameState, Player};
use crate::sim::counts::DuelCounts;
use crate::sim::game::{Clock, Matchup, PLAIN};
use crate::sim::stream::StreamKey;

/// Whether [`play`] plays `matchup` (on a path with lanes).
pub(crate) fn available(matchup: &Matchup) -> bool {
    matchup.how() == PLAIN && !matchup.rules().profile().roll_off
}

/// One lane's bookkeeping: the counts of its chunks and where its current game stands.
struct Lane {
    counts: DuelCounts,
    /// Games of the current chunk not started yet.
    games_left: u64,
    /// Games of the current chunk started so far: game `k` is started by player `k % 2`, the
    /// order of [`play_chunk`](crate::sim::play_chunk)'s pairs.
    started: u64,
    /// Who started the current game.
    first: Player,
    clock: Clock,
}

/// The state of all lanes, out of the vectors for [`Lane::settle`], and the chunks not
/// dealt to a lane yet.
struct Spilled<'a> {
    /// The generators' four words.
    rng: [[u64; LANES]; 4],
    /// The pieces of the player to move, then of the other.
    own: [u64; LANES],
    other: [u64; LANES],
    /// Rolls left until each lane's next check ([`Clock`]'s `left`).
    left: [u64; LANES],
    /// Bit `l`: in lane `l` die B is to move.
    b_moves: u8,
    /// Bit `l`: lane `l` still plays.
    active: u8,
    /// Chunks and their pairs of games, each dealt to the next lane that is free.
    undealt: std::slice::Iter<'a, (u64, u64)>,
    key: StreamKey,
}

impl Lane {
    /// Starts the lane's next game (`own`, `other`, `left` and the mover's bit of lane `l`
    /// in `spilled`), from the next chunk when its chunk is played (with the chunk's own
    /// generator), or retires the lane when no chunk is left.
    fn start_next(&mut self, l: usize, spilled: &mut Spilled, max_rolls: u64) {
        while self.games_left == 0 {
            let Some(&(chunk, pairs)) = spilled.undealt.next() else {
                spilled.active &= !(1 << l);
                return;
            };
            seed_lane(&mut spilled.rng, l, spilled.key.rng(chunk).state());
            self.games_left = 2 * pairs;
            self.started = 0;
        }
        self.games_left -= 1;
        self.first = (self.started % 2) as Player;
        self.started += 1;
        let pieces = GameState::start(self.first).pieces;
        spilled.own[l] = pieces[self.first];
        spilled.other[l] = pieces[1 - self.first];
        spilled.b_moves = (spilled.b_moves & !(1 << l)) | ((self.first as u8) << l);
        self.clock = Clock::new(max_rolls);
        spilled.left[l] = self.clock.left;
    }

    /// Lane `l` after a roll that won (`won`) or used up its clock: records a finished
    /// game and starts the next, or winds the clock on, as
    /// [`Matchup::play`] does after the same roll.
    fn settle(
        &mut self,
        l: usize,
        spilled: &mut Spilled,
        matchup: &Matchup,
        won: bool,
        moved: bool,
    ) {
        self.clock.left = spilled.left[l];
        let rolls = self.clock.rolls();
        let mover = usize::from((spilled.b_moves >> l) & 1);
        let mut pieces = [spilled.own[l], spilled.other[l]];
        if mover == 1 {
            pieces.swap(0, 1);
        }
        // After a win the turn does not pass, so the lane's mover is the winner; after any
        // other roll it is the player to roll next, as the scalar loop's state says.
        let state = GameState {
            pieces,
            to_move: mover as u8,
            tries: 0,
        };
        match matchup.ending(&state, won, moved, mover, rolls) {
            Some(end) => {
                self.counts.record(self.first, end);
                self.start_next(l, spilled, matchup.max_rolls());
            }
            None => {
                self.clock.wind(rolls, matchup.max_rolls());
                spilled.left[l] = self.clock.left;
            }
        }
    }
}

/// Plays chunks `chunks[i].0`, each with `chunks[i].1` pairs of games, eight at a time on
/// `path`, each in the next lane that is free, and returns the counts of all of them: those
/// [`play_chunk`](crate::sim::play_chunk) gives for each chunk, added up. `None` on the
/// path without lanes.
///
/// Only for a matchup [`available`] says it plays, on a path that runs here.
pub(crate) fn play(
    path: LanesPath,
    matchup: &Matchup,
    key: StreamKey,
    chunks: &[(u64, u64)],
) -> Option<DuelCounts> {
    assert!(available(matchup));
    path.run(Duel {
        matchup,
        key,
        chunks,
    })
}

/// [`play`]'s games, for [`LanesPath::run`].
struct Duel<'m, 'a, 'c> {
    matchup: &'m Matchup<'a>,
    key: StreamKey,
    chunks: &'c [(u64, u64)],
}

impl Kernel for Duel<'_, '_, '_> {
    type Output = DuelCounts;

    #[inline(always)]
    fn run<V: Vector>(self) -> DuelCounts {
        play_on::<V>(self.matchup, self.key, self.chunks)
    }
}

/// [`play`] on `V`.
#[inline(always)]
fn play_on<V: Vector>(matchup: &Matchup, key: StreamKey, chunks: &[(u64, u64)]) -> DuelCounts {
    let board = matchup.rules().board();
    let max_rolls = matchup.max_rolls();
    let rules = LaneRules::<V>::new(board);
    // A's die is die 0; B's is die 1 unless both dice are the same.
    let (dice, _) = distinct(&matchup.dice());
    let dice = LaneDice::<V>::new(&dice);
    // A's track field `f` is B's field `f - offset` (mod the track), B's is A's `f + offset`:
    // the landing field turned into the opponent's numbering.
    let (to_b, to_a) = (
        V::splat(u64::from(board.track_len() - board.offset())),
        V::splat(u64::from(board.offset())),
    );

    let mut lanes: Vec<Lane> = (0..LANES)
        .map(|_| Lane {
            counts: DuelCounts::default(),
            games_left: 0,
            started: 0,
            first: 0,
            clock: Clock::new(max_rolls),
        })
        .collect();
    let mut spilled = Spilled {
        rng: [[0; LANES]; 4],
        own: [0; LANES],
        other: [0; LANES],
        left: [0; LANES],
        b_moves: 0,
        active: u8::MAX,
        undealt: chunks.iter(),
        key,
    };
    for (l, lane) in lanes.iter_mut().enumerate() {
        lane.start_next(l, &mut spilled, max_rolls);
    }

    let (zero, one) = (V::splat(0), V::splat(1));
    let no_lane = V::Mask::from_bits(0);
    let mut generators = Generators::<V>::load(&spilled.rng);
    let (mut own, mut other, mut left) = (
        V::load(&spilled.own),
        V::load(&spilled.other),
        V::load(&spilled.left),
    );
    let mut b_moves = V::Mask::from_bits(spilled.b_moves);
    let mut active = V::Mask::from_bits(spilled.active);

    while spilled.active != 0 {
        let (face, rolled) = dice.roll(generators.next(), &[!b_moves, b_moves, no_lane, no_lane]);
        let step = rules.step(own, face);
        let new_own = own.xor(step);
        let on_track = rules.landing_on_track(step, new_own);
        let theirs = rules.turn_track(on_track, to_b.select(b_moves, to_a));
        let new_other = other.and_not(theirs);
        let won = rules.won(new_own);

        // Lanes that rolled take the roll's result; the turn passing swaps the players.
        let swap = rolled & rules.passes(face, won);
        own = own.select(rolled, new_own).select(swap, new_other);
        other = other.select(rolled, new_other).select(swap, new_own);
        b_moves = b_moves ^ swap;
        left = left.select(rolled, left.sub(one));
        let due = (active & rolled & (won | left.eq(zero))).bits();
        if due != 0 {
            let (won, moved) = (won.bits(), step.nonzero().bits());
            spilled.rng = generators.store();
            spilled.own = own.store();
            spilled.other = other.store();
            spilled.left = left.store();
            spilled.b_moves = b_moves.bits();
            for (l, lane) in lanes
                .iter_mut()
                .enumerate()
                .filter(|(l, _)| due >> l & 1 == 1)
            {
                lane.settle(
                    l,
                    &mut spilled,
                    matchup,
                    won >> l & 1 == 1,
                    moved >> l & 1 == 1,
                );
            }
            generators = Generators::load(&spilled.rng);
            own = V::load(&spilled.own);
            other = V::load(&spilled.other);
            left = V::load(&spilled.left);
            b_moves = V::Mask::from_bits(spilled.b_moves);
            active = V::Mask::from_bits(spilled.active);
        }
    }
    lanes
        .iter()
        .fold(DuelCounts::default(), |sum, lane| sum + lane.counts)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::Die;
    use crate::rules::Rules;
    use crate::sim::lanes::tests::lanes_here;
    use crate::sim::{CHUNK_PAIRS, play_chunk};

    /// The lanes give every chunk the counts the one-game loop gives it (compared as sums
    /// over chunks of different lengths, and chunk by chunk in lanes of their own).
    fn assert_same_counts(
        board: &str,
        profile: &str,
        a: &str,
        b: &str,
        max_rolls: u64,
        chunks: &[(u64, u64)],
    ) {
        let rules = Rules::new(board.parse().unwrap(), profile.parse().unwrap());
        let (a, b): (Die, Die) = (a.parse().unwrap(), b.parse().unwrap());
        let matchup = Matchup::new(&rules, [&a, &b], max_rolls).unwrap();
        assert!(available(&matchup));
        let key = StreamKey::new(11).with_stream(3);
        let one_by_one = chunks
            .iter()
            .fold(DuelCounts::default(), |sum, &(chunk, pairs)| {
                sum + play_chunk(&matchup, key, chunk, pairs)
            });
        for path in lanes_here() {
            assert_eq!(
                play(path, &matchup, key, chunks),
                Some(one_by_one),
                "{path:?}: {board} {profile} {a} vs {b}, cap {max_rolls}"
            );
            for &(chunk, pairs) in chunks {
                assert_eq!(
                    play(path, &matchup, key, &[(chunk, pairs)]),
                    Some(play_chunk(&matchup, key, chunk, pairs)),
                    "{path:?}: chunk {chunk} alone"
                );
            }
        }
    }

    /// `play_chunks`, which deals groups of chunks to the lanes (and a group of one chunk
    /// to the one-game loop), gives the counts of the chunks played one by one, the last
    /// one cut to the total.
    #[test]
    fn play_chunks_in_groups_counts_as_one_by_one() {
        let rules = Rules::bwinf();
        let (a, b): (Die, Die) = ("1..6".parse().unwrap(), "0..9".parse().unwrap());
        let matchup = Matchup::new(&rules, [&a, &b], 100_000).unwrap();
        let key = StreamKey::new(2);
        for (chunks, total_pairs) in [
            (0..1, 100),
            (3..5, u64::MAX),
            (0..9, 8 * CHUNK_PAIRS + 7),
            (5..38, u64::MAX),
        ] {
            let one_by_one = chunks.clone().fold(DuelCounts::default(), |sum, chunk| {
                let pairs = CHUNK_PAIRS.min(total_pairs.saturating_sub(chunk * CHUNK_PAIRS));
                sum + play_chunk(&matchup, key, chunk, pairs)
            });
            assert_eq!(
                crate::sim::play_chunks(&matchup, key, chunks.clone(), total_pairs, &|_| {}),
                one_by_one,
                "{chunks:?}"
            );
        }
    }

    #[test]
    fn eight_full_chunks_of_the_bwinf_game_count_as_one_by_one() {
        let chunks: Vec<(u64, u64)> = (40..48).map(|c| (c, CHUNK_PAIRS)).collect();
        assert_same_counts("40/20/4/4", "bwinf", "1..6", "1..6", 100_000, &chunks);
        assert_same_counts(
            "40/20/4/4",
            "bwinf",
            "1..20",
            "1,1,1,6,6,6",
            100_000,
            &chunks,
        );
    }

    /// More chunks than lanes, of unequal length, some empty; a cap that ends games (and one below the
    /// 64 rolls between checks); dice whose games get stuck; other boards and `choice` with
    /// both players on `frontmost`.
    #[test]
    fn uneven_chunks_caps_stuck_games_and_other_boards_count_as_one_by_one() {
        let chunks = [
            (0, 5),
            (1, 0),
            (7, 100),
            (2, 17),
            (3, 1),
            (4, 0),
            (5, 3),
            (6, 9),
            (8, 2),
            (9, 1),
            (10, 4),
            (12, 0),
        ];
        for cap in [30, 64, 65, 150] {
            assert_same_counts("40/20/4/4", "bwinf", "0..9", "1,1,1,6,6,6", cap, &chunks);
        }
        for (a, b) in [
            ("7", "7"),
            ("6,7", "5"),
            ("1,2", "6,6,6,0"),
            ("0..9", "1..12"),
        ] {
            assert_same_counts("40/20/4/4", "bwinf", a, b, 2_000, &chunks);
        }
        for board in [
            "16/8/2/2",
            "20/10/4/4",
            "22/11/3/4",
            "48/24/4/4",
            "30/7/3/3",
            "24/17/4/4",
        ] {
            assert_same_counts(board, "bwinf", "1..6", "2..7", 100_000, &chunks);
        }
        assert_same_counts("40/20/4/4", "choice", "1..6", "1..6", 100_000, &chunks);
    }

    /// A die of 3 * 2^18 faces rejects a draw in about 16,000 (`2^32 mod n`): the lane that
    /// rejects draws again and counts no roll, as `Die::roll` does.
    #[test]
    fn rejected_draws_are_drawn_again_as_in_the_one_game_loop() {
        let many: Vec<String> = std::iter::repeat_n("1,2,3,4,5,6", 1 << 17)
            .map(String::from)
            .collect();
        let die: Die = many.join(",").parse().unwrap();
        assert_eq!(die.faces().len(), 3 << 18);
        assert!(die.reject_below() > 0);
        let chunks: Vec<(u64, u64)> = (0..8).map(|c| (c, 64)).collect();
        assert_same_counts(
            "40/20/4/4",
            "bwinf",
            &many.join(","),
            "1..6",
            100_000,
            &chunks,
        );
    }

    #[test]
    fn roll_off_and_the_strategies_stay_on_the_one_game_loop() {
        let die = Die::standard();
        let rules = Rules::new("40/20/4/4".parse().unwrap(), "roll-off".parse().unwrap());
        assert!(!available(
            &Matchup::new(&rules, [&die, &die], 1000).unwrap()
        ));
        let rules = Rules::new("40/20/4/4".parse().unwrap(), "choice".parse().unwrap());
        let safe = Matchup::with_strategies(
            &rules,
            [&die, &die],
            ["safe".parse().unwrap(), "safe".parse().unwrap()],
            1000,
        );
        assert!(!available(&safe.unwrap()));
    }
}

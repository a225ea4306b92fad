//! Three and four players (and two at a table), eight games at once (see [`super`]).
//!
//! A lane keeps every seat's pieces in the seat's own numbering, as the one-game loop does,
//! and the seat to move as a number: the mover's pieces are picked by lane masks, and the
//! capture turns the landing field into each other seat's numbering.

use super::path::{Kernel, LanesPath};
use super::vector::{Mask, Vector};
use super::{Generators, LANES, LaneDice, LaneRules, distinct, seed_lane};
use crate::rules::MAX_SEATS;
use crate::sim::stream::StreamKey;
use crate::sim::table::{Table, TableCounts};

/// Whether [`play`] plays `table` (on a path with lanes).
pub(crate) fn available(table: &Table) -> bool {
    table.rules_pick_plainly()
}

/// One lane's bookkeeping: the counts of its chunks and which game it plays.
struct Lane {
    counts: TableCounts,
    /// Games of the current chunk not started yet.
    games_left: u64,
    /// Games of the current chunk started so far: game `g` sits in seating `g % N!` (the
    /// order of the one-game loop's rounds).
    started: u64,
    /// The seating of the current game.
    seating: usize,
}

/// The state of all lanes, out of the vectors for [`Lane::settle`], and the chunks not
/// dealt to a lane yet.
struct Spilled<'a> {
    rng: [[u64; LANES]; 4],
    /// `pieces[s][l]`: seat `s`'s pieces in lane `l`.
    pieces: [[u64; LANES]; MAX_SEATS],
    /// The seat to move.
    mover: [u64; LANES],
    /// The seat that rolled last (before the turn passed).
    rolled_by: [u64; LANES],
    /// Bits `8 s ..`: the (distinct) die in seat `s`.
    seat_dice: [u64; LANES],
    /// Rolls so far, and rolls in a row that moved nothing (the one-game loop's clock).
    rolls: [u64; LANES],
    idle: [u64; LANES],
    /// Bit `l`: lane `l` still plays.
    active: u8,
    undealt: std::slice::Iter<'a, (u64, u64)>,
    key: StreamKey,
}

/// What lanes need of the table: the table, its seatings' dice as the lanes number them.
struct Setting<'t, 'a> {
    table: &'t Table<'a>,
    /// `die_in_seat[k]`: bits `8 s ..` hold the distinct die in seat `s` in seating `k`.
    die_in_seat: Vec<u64>,
}

impl Lane {
    /// Starts the lane's next game, from the next chunk when its chunk is played, or retires
    /// the lane when no chunk is left.
    fn start_next(&mut self, l: usize, spilled: &mut Spilled, setting: &Setting) {
        let table = setting.table;
        let seatings = table.seatings().len() as u64;
        while self.games_left == 0 {
            let Some(&(chunk, rounds)) = spilled.undealt.next() else {
                spilled.active &= !(1 << l);
                return;
            };
            seed_lane(&mut spilled.rng, l, spilled.key.rng(chunk).state());
            self.games_left = rounds * seatings;
            self.started = 0;
        }
        self.games_left -= 1;
        self.seating = (self.started % seatings) as usize;
        self.started += 1;
        let players = table.seats().players();
        for (s, seat) in spilled.pieces.iter_mut().enumerate() {
            // The one-game loop's start: a piece on `A` in every seat.
            seat[l] = u64::from(s < players);
        }
        spilled.mover[l] = 0;
        spilled.seat_dice[l] = setting.die_in_seat[self.seating];
        spilled.rolls[l] = 0;
        spilled.idle[l] = 0;
    }

    /// Lane `l` after a roll that won, may have got stuck or reached the cap: records a
    /// finished game and starts the next, as the one-game loop's ending does.
    fn settle(&mut self, l: usize, spilled: &mut Spilled, setting: &Setting, flags: [bool; 3]) {
        let [won, passes, check_stuck] = flags;
        let table = setting.table;
        let pieces: [u64; MAX_SEATS] = std::array::from_fn(|s| spilled.pieces[s][l]);
        let end = table.ending(
            &table.seated_dice(self.seating),
            &pieces,
            spilled.rolled_by[l] as usize,
            won,
            passes,
            spilled.rolls[l],
            check_stuck,
        );
        if let Some(end) = end {
            self.counts.record(&table.seatings()[self.seating], end);
            self.start_next(l, spilled, setting);
        }
    }
}

/// Plays chunks `chunks[i].0`, each with `chunks[i].1` rounds, eight at a time on `path`,
/// each in the next lane that is free, and returns the counts of all of them: those
/// [`Table::play_chunk`] gives for each chunk, added up. `None` on the path without lanes.
///
/// Only for a table [`available`] says it plays, on a path that runs here.
pub(crate) fn play(
    path: LanesPath,
    table: &Table,
    key: StreamKey,
    chunks: &[(u64, u64)],
) -> Option<TableCounts> {
    assert!(available(table));
    path.run(Tables { table, key, chunks })
}

/// [`play`]'s games, for [`LanesPath::run`].
struct Tables<'t, 'a, 'c> {
    table: &'t Table<'a>,
    key: StreamKey,
    chunks: &'c [(u64, u64)],
}

impl Kernel for Tables<'_, '_, '_> {
    type Output = TableCounts;

    #[inline(always)]
    fn run<V: Vector>(self) -> TableCounts {
        let (table, key, chunks) = (self.table, self.key, self.chunks);
        match table.seats().players() {
            2 => play_seats::<V, 2>(table, key, chunks),
            3 => play_seats::<V, 3>(table, key, chunks),
            _ => play_seats::<V, 4>(table, key, chunks),
        }
    }
}

/// [`play`] for `N` players on `V`: the seats' loops unrolled, their vectors in registers.
#[inline(always)]
fn play_seats<V: Vector, const N: usize>(
    table: &Table,
    key: StreamKey,
    chunks: &[(u64, u64)],
) -> TableCounts {
    let seats = table.seats();
    let players = N;
    let board = seats.board();
    let rules = LaneRules::<V>::new(board);
    let (dice, die_index) = distinct(table.dice());
    let dice = LaneDice::<V>::new(&dice);
    let setting = Setting {
        table,
        die_in_seat: table
            .seatings()
            .iter()
            .map(|seating| {
                (0..players).fold(0, |packed, s| {
                    packed | (die_index[seating[s]] as u64) << (8 * s)
                })
            })
            .collect(),
    };
    // `shift_to[j]`, lane `m`: what turns seat `m`'s track fields into seat `j`'s numbering.
    let shift_to: [V::Table; N] = std::array::from_fn(|j| {
        let mut shifts = [0u64; 16];
        for (m, shift) in shifts.iter_mut().enumerate().take(players) {
            *shift = u64::from(seats.shift(m, j));
        }
        V::table(&shifts)
    });
    let seat_numbers: [V; N] = std::array::from_fn(|s| V::splat(s as u64));
    let die_numbers: [V; MAX_SEATS] = std::array::from_fn(|d| V::splat(d as u64));
    let (zero, one, byte, last_field_of_idle) =
        (V::splat(0), V::splat(1), V::splat(0xff), V::splat(63));
    let (player_count, max_rolls) = (V::splat(players as u64), V::splat(table.max_rolls()));

    let mut lanes: Vec<Lane> = (0..LANES)
        .map(|_| Lane {
            counts: TableCounts::new(players),
            games_left: 0,
            started: 0,
            seating: 0,
        })
        .collect();
    let mut spilled = Spilled {
        rng: [[0; LANES]; 4],
        pieces: [[0; LANES]; MAX_SEATS],
        mover: [0; LANES],
        rolled_by: [0; LANES],
        seat_dice: [0; LANES],
        rolls: [0; LANES],
        idle: [0; LANES],
        active: u8::MAX,
        undealt: chunks.iter(),
        key,
    };
    for (l, lane) in lanes.iter_mut().enumerate() {
        lane.start_next(l, &mut spilled, &setting);
    }
    let mut generators = Generators::<V>::load(&spilled.rng);
    let mut pieces: [V; N] = std::array::from_fn(|s| V::load(&spilled.pieces[s]));
    let mut mover = V::load(&spilled.mover);
    let mut seat_dice = V::load(&spilled.seat_dice);
    let mut rolls = V::load(&spilled.rolls);
    let mut idle = V::load(&spilled.idle);
    let mut active = V::Mask::from_bits(spilled.active);

    while spilled.active != 0 {
        let moving: [V::Mask; N] = std::array::from_fn(|s| mover.eq(seat_numbers[s]));
        let own = (1..players).fold(pieces[0], |own, s| own.select(moving[s], pieces[s]));
        let die = seat_dice.shr(mover.shl_by::<3>()).and(byte);
        let rolling: [V::Mask; MAX_SEATS] = std::array::from_fn(|d| die.eq(die_numbers[d]));
        let (face, rolled) = dice.roll(generators.next(), &rolling);
        let step = rules.step(own, face);
        let new_own = own.xor(step);
        let on_track = rules.landing_on_track(step, new_own);
        let won = rules.won(new_own);
        let passes = rules.passes(face, won);
        let moved = step.nonzero();

        // The mover's pieces, then the capture of whatever stands on the landing field in
        // every other seat.
        for (j, seat) in pieces.iter_mut().enumerate() {
            *seat = seat.select(rolled & moving[j], new_own);
            let hit = rules.turn_track(on_track, V::look_up(&shift_to[j], mover));
            *seat = seat.select(rolled & !moving[j], seat.and_not(hit));
        }
        let rolled_by = mover;
        let next = mover.add(one);
        let next = next.select(next.eq(player_count), zero);
        mover = mover.select(rolled & passes, next);
        rolls = rolls.select(rolled, rolls.add(one));
        idle = idle
            .select(rolled & !moved, idle.add(one))
            .select(rolled & moved, zero);
        // As the one-game loop: after every 64 rolls in a row without a move, a check.
        let check_stuck = rolled & !moved & !idle.and(last_field_of_idle).nonzero();
        let capped = !rolls.lt(max_rolls);
        let due = (active & rolled & (won | check_stuck | capped)).bits();
        if due != 0 {
            let [won, passes, check_stuck] = [won, passes, check_stuck].map(Mask::bits);
            spilled.rng = generators.store();
            for (s, seat) in pieces.iter().enumerate() {
                spilled.pieces[s] = seat.store();
            }
            spilled.mover = mover.store();
            spilled.rolled_by = rolled_by.store();
            spilled.seat_dice = seat_dice.store();
            spilled.rolls = rolls.store();
            spilled.idle = idle.store();
            for (l, lane) in lanes
                .iter_mut()
                .enumerate()
                .filter(|(l, _)| due >> l & 1 == 1)
            {
                let flag = |mask: u8| mask >> l & 1 == 1;
                lane.settle(
                    l,
                    &mut spilled,
                    &setting,
                    [flag(won), flag(passes), flag(check_stuck)],
                );
            }
            generators = Generators::load(&spilled.rng);
            for (s, seat) in pieces.iter_mut().enumerate() {
                *seat = V::load(&spilled.pieces[s]);
            }
            mover = V::load(&spilled.mover);
            seat_dice = V::load(&spilled.seat_dice);
            rolls = V::load(&spilled.rolls);
            idle = V::load(&spilled.idle);
            active = V::Mask::from_bits(spilled.active);
        }
    }
    lanes
        .iter()
        .fold(TableCounts::new(players), |sum, lane| sum + lane.counts)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::Die;
    use crate::rules::{Rules, Seats};
    use crate::sim::Seating;
    use crate::sim::lanes::tests::lanes_here;

    /// The lanes give every chunk the counts the one-game loop gives it (as sums over
    /// chunks of different lengths, more than there are lanes, and chunk by chunk alone).
    fn assert_same_counts(board: &str, dice: &[&str], seating: Seating, max_rolls: u64) {
        let rules = Rules::new(board.parse().unwrap(), "bwinf".parse().unwrap());
        let seats = Seats::new(rules, dice.len()).unwrap();
        let dice: Vec<Die> = dice.iter().map(|d| d.parse().unwrap()).collect();
        let refs: Vec<&Die> = dice.iter().collect();
        let table = Table::new(&seats, &refs, max_rolls, seating).unwrap();
        assert!(available(&table));
        let key = StreamKey::new(5).with_stream(9);
        let chunks = [
            (0, 3),
            (1, 0),
            (4, 1),
            (2, 2),
            (3, 1),
            (5, 4),
            (6, 1),
            (7, 2),
            (8, 1),
            (9, 3),
        ];
        let one_by_one = chunks.iter().fold(
            TableCounts::new(seats.players()),
            |sum, &(chunk, rounds)| sum + table.play_chunk(key, chunk, rounds),
        );
        for path in lanes_here() {
            assert_eq!(
                play(path, &table, key, &chunks).as_ref(),
                Some(&one_by_one),
                "{path:?}: {board} {dice:?} {seating:?} cap {max_rolls}"
            );
            for &(chunk, rounds) in &chunks[..3] {
                assert_eq!(
                    play(path, &table, key, &[(chunk, rounds)]),
                    Some(table.play_chunk(key, chunk, rounds)),
                    "{path:?}: chunk {chunk} alone"
                );
            }
        }
    }

    /// `Table::play_chunks` in groups gives the counts of the chunks one by one, the last
    /// one cut to the total.
    #[test]
    fn play_chunks_in_groups_counts_as_one_by_one() {
        let seats = Seats::new(Rules::bwinf(), 3).unwrap();
        let dice: Vec<Die> = ["1..6", "2..7", "0..9"]
            .iter()
            .map(|d| d.parse().unwrap())
            .collect();
        let refs: Vec<&Die> = dice.iter().collect();
        let table = Table::new(&seats, &refs, 100_000, Seating::All).unwrap();
        let key = StreamKey::new(8);
        let chunk_rounds = table.chunk_games() / table.round_games();
        for (chunks, total_rounds) in [(0..1, 3), (2..4, u64::MAX), (0..9, 8 * chunk_rounds + 5)] {
            let one_by_one = chunks.clone().fold(TableCounts::new(3), |sum, chunk| {
                sum + table.play_chunk(key, chunk, table.rounds_of_chunk(chunk, total_rounds))
            });
            assert_eq!(
                table.play_chunks(key, chunks.clone(), total_rounds, &|_| {}),
                one_by_one,
                "{chunks:?}"
            );
        }
    }

    #[test]
    fn tables_of_two_three_and_four_count_as_one_by_one() {
        assert_same_counts("40/20/4/4", &["1..6"; 4], Seating::All, 100_000);
        assert_same_counts(
            "40/20/4/4",
            &["1..6", "0..9", "1,1,1,6,6,6"],
            Seating::All,
            100_000,
        );
        assert_same_counts("40/20/4/4", &["1..6", "2..7"], Seating::All, 100_000);
        assert_same_counts(
            "40/20/4/4",
            &["1..6", "0..9", "1..6", "2,3,4,6"],
            Seating::Fixed,
            100_000,
        );
        // A die of more than 16 faces: the faces are gathered from memory.
        assert_same_counts(
            "40/20/4/4",
            &["1..20", "1..6", "1..6"],
            Seating::All,
            100_000,
        );
    }

    /// Caps that end games, dice whose games get stuck (checked after 64 idle rolls), other
    /// boards.
    #[test]
    fn caps_stuck_games_and_other_boards_count_as_one_by_one() {
        for cap in [40, 64, 200] {
            assert_same_counts(
                "40/20/4/4",
                &["1..6", "0..9", "1,1,1,6,6,6", "2..7"],
                Seating::All,
                cap,
            );
        }
        assert_same_counts("40/20/4/4", &["7", "7", "5"], Seating::All, 3_000);
        assert_same_counts(
            "40/20/4/4",
            &["1,2", "6,6,6,0", "7", "3"],
            Seating::All,
            3_000,
        );
        for board in ["20/10/2/2", "24/12/3/3", "16/8/4/4", "48/24/4/4"] {
            assert_same_counts(
                board,
                &["1..6", "1..6", "2..7", "1..6"],
                Seating::All,
                100_000,
            );
        }
    }
}

//! Games at a table of N players (the book's rules chapter, `docs/src/rules.md`, "Three and
//! four players"), in parallel chunks with reproducible streams, like [`super::duel`].
//!
//! # Fair seating
//! Under [`Seating::All`] every chunk plays whole *rounds*: one game in each of the N!
//! assignments of the dice to the seats. Every die then sits in every seat, and so starts
//! and has every pair of neighbours, equally often, and the headline figure (a die's wins
//! over all games) is the mean over the seatings. [`Seating::Fixed`] plays die `i` in seat
//! `i` only (die 1 moves first), for studying one table. Either way the counts are kept per
//! seat and die, so both the mean and the figures per seat come from the same games.

use super::game::Unwatched;
use super::plan::PlanError;
use super::stream::StreamKey;
use crate::dice::Die;
use crate::rules::{LegalMoves, MAX_SEATS, PieceMove, Seats};
use crate::stats::{self, Interval};
use crate::strategy::{Strategy, Threats};
use rand::Rng;
use std::fmt;
use std::ops::Add;

/// Games per chunk aimed at: each chunk is the fewest whole rounds that reach it.
const CHUNK_TARGET: u64 = 1024;

/// After this many rolls in a row without a move the game checks whether it is stuck (as
/// in a duel: idle streaks this long are rare in live games).
const IDLE_CHECK_INTERVAL: u32 = 64;

/// A table game's rolls so far, and how many rolls in a row moved nothing.
struct TableClock {
    rolls: u64,
    idle: u32,
}

/// Is told every decision of a table game played by the strategies' loop, and the seating
/// of every game before it starts (see [`Table::play_chunk_watched`]).
pub(crate) trait TableWatcher {
    /// The next game seats die `seating[s]` in seat `s`.
    fn seated(&mut self, _seating: &[usize; MAX_SEATS]) {}

    /// Seat `mover`, with every seat's `pieces` on the board, had the moves `legal` and
    /// played `movement`.
    fn decision<const N: usize>(
        &mut self,
        pieces: &[u64; N],
        mover: usize,
        legal: &LegalMoves,
        movement: Option<PieceMove>,
    );
}

impl TableWatcher for Unwatched {
    #[inline(always)]
    fn decision<const N: usize>(
        &mut self,
        _: &[u64; N],
        _: usize,
        _: &LegalMoves,
        _: Option<PieceMove>,
    ) {
    }
}

/// How dice are assigned to seats.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[serde(rename_all = "kebab-case")]
pub enum Seating {
    /// Every assignment of the dice to the seats equally often (the fair comparison).
    #[default]
    All,
    /// Die `i` in seat `i` (die 1 in seat 0, which moves first).
    Fixed,
}

impl Seating {
    /// The name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Seating::All => "all",
            Seating::Fixed => "fixed",
        }
    }
}

/// Why a table cannot be played.
#[derive(Clone, Debug, PartialEq)]
pub enum TableError {
    /// Not one die per seat.
    DiceCount {
        /// Dice given.
        dice: usize,
        /// Seats at the table.
        players: usize,
    },
    /// A roll cap of 0.
    NoRolls,
    /// A game count that is not a positive multiple of the seatings played.
    Games {
        /// The games asked for.
        games: u64,
        /// The number of seatings every round plays (N! or 1).
        seatings: u64,
    },
    /// The plan exceeds the game cap or the precision cannot be reached within it.
    Plan(PlanError),
    /// The games played did not reach the half-width promised (checked, never assumed).
    PrecisionNotReached {
        /// The half-width promised.
        claimed: f64,
        /// The widest half-width reached.
        reached: f64,
    },
    /// Not one strategy per die.
    StrategyCount {
        /// Strategies given.
        strategies: usize,
        /// Dice at the table.
        dice: usize,
    },
    /// A strategy other than `frontmost` for die `die` (from 0) without `choice`.
    StrategyNeedsChoice {
        /// The die, in the order given (from 0).
        die: usize,
    },
    /// Die `die`'s strategy plays only games of two (a policy file, `strong-search`).
    NotAtTables {
        /// The die, in the order given (from 0).
        die: usize,
    },
    /// Die `die`'s learned player was not trained for this table (board, profile, seats).
    NoTablePlayer {
        /// The die, in the order given (from 0).
        die: usize,
        /// Seats at the table.
        players: usize,
        /// The table's board and profile, in words (`board 16/8/2/2 with profile choice`).
        game: String,
        /// Whose players the strategy has (the file's, or the shipped ones) and what they
        /// were trained for ([`crate::strategy::Strong::trained_for`]).
        trained: String,
    },
}

impl fmt::Display for TableError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TableError::DiceCount { dice, players } => write!(
                f,
                "{dice} dice for {players} players: expected one die per seat"
            ),
            TableError::NoRolls => write!(f, "a roll cap of 0: expected at least 1 roll"),
            TableError::Games { games, seatings } => write!(
                f,
                "{games} games: expected a positive multiple of {seatings}, so that every \
                 seating of the dice is played equally often"
            ),
            TableError::Plan(e) => write!(f, "{e}"),
            TableError::PrecisionNotReached { claimed, reached } => write!(
                f,
                "the games played reached a half-width of {reached:.2e} only, not the {claimed:e} asked for"
            ),
            TableError::StrategyCount { strategies, dice } => write!(
                f,
                "{strategies} strategies for {dice} dice: expected one --strategy, for every die, \
                 or one per --die in the same order"
            ),
            TableError::StrategyNeedsChoice { die } => write!(
                f,
                "die {}'s strategy picks among moves, which needs the choice profile: without it \
                 rule 3 fixes every move (the frontmost piece that can move)",
                die + 1
            ),
            TableError::NotAtTables { die } => write!(
                f,
                "die {}'s strategy was made for games of two players (a policy file or \
                 strong-search); at a table of three or four use frontmost, rearmost, capture, \
                 safe, random or strong",
                die + 1
            ),
            TableError::NoTablePlayer {
                die,
                players: 2,
                game,
                trained,
            } => write!(
                f,
                "die {}'s strategy has no learned player for this game of two ({game}): \
                 {trained}; train one with `wuerfelglueck train` and play it as strong:FILE",
                die + 1
            ),
            TableError::NoTablePlayer {
                die,
                players,
                game,
                trained,
            } => write!(
                f,
                "die {}'s strategy has no learned player for this table ({game}, {players} \
                 seats): {trained}; train one with `wuerfelglueck train --players {players}` \
                 and play it as strong:FILE",
                die + 1
            ),
        }
    }
}

impl std::error::Error for TableError {}

impl From<PlanError> for TableError {
    fn from(e: PlanError) -> TableError {
        TableError::Plan(e)
    }
}

/// How long a table runs, made by [`Table::stopping`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TableStop {
    /// Exactly this many games.
    Games(u64),
    /// Until every die's 95 % interval has at most this half-width.
    Precision(f64),
}

/// How a table game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TableEnd {
    /// A seat won after this many rolls.
    Won {
        /// The winning seat.
        seat: usize,
        /// Rolls in the game.
        rolls: u64,
    },
    /// The game hit the roll cap.
    Capped,
    /// The position can provably never change again.
    Endless,
}

/// Dice at a table, checked by [`Table::new`].
#[derive(Clone, Debug)]
pub struct Table<'a> {
    seats: &'a Seats,
    dice: Vec<&'a Die>,
    /// Each die's strategy, in the order of the dice (all `frontmost` unless
    /// [`Table::playing`] says otherwise).
    strategies: Vec<Strategy>,
    /// The seats choose their moves by their strategies (some strategy is not `frontmost`,
    /// or `capture-duty` makes the move depend on the other seats): the strategies' loop.
    choosing: bool,
    max_rolls: u64,
    seating: Seating,
    /// `seatings[k][s]`: the die in seat `s` in seating `k`.
    seatings: Vec<[usize; MAX_SEATS]>,
}

/// What sits in each seat in one seating: the die, its strategy, and the reach of its die
/// (what `safe` fears from that seat).
struct Seated<'a> {
    dice: [&'a Die; MAX_SEATS],
    strategies: [&'a Strategy; MAX_SEATS],
    reach: [Threats; MAX_SEATS],
}

impl<'a> Table<'a> {
    /// `dice[i]` at the table `seats`, one die per seat; a game reaching `max_rolls` rolls
    /// counts as unfinished.
    pub fn new(
        seats: &'a Seats,
        dice: &[&'a Die],
        max_rolls: u64,
        seating: Seating,
    ) -> Result<Table<'a>, TableError> {
        if dice.len() != seats.players() {
            return Err(TableError::DiceCount {
                dice: dice.len(),
                players: seats.players(),
            });
        }
        if max_rolls == 0 {
            return Err(TableError::NoRolls);
        }
        let seatings = match seating {
            Seating::All => permutations(seats.players()),
            Seating::Fixed => vec![[0, 1, 2, 3]],
        };
        Ok(Table {
            seats,
            dice: dice.to_vec(),
            strategies: vec![Strategy::Frontmost; dice.len()],
            choosing: seats.rules().profile().capture_duty,
            max_rolls,
            seating,
            seatings,
        })
    }

    /// The same table with die `i` playing `strategies[i]` (one per die, in the order of the
    /// dice), whatever seat it sits in. Refuses a strategy other than `frontmost` without
    /// `choice`, and one that plays only games of two ([`Strategy::plays_at_tables`]).
    pub fn playing(self, strategies: Vec<Strategy>) -> Result<Table<'a>, TableError> {
        if strategies.len() != self.dice.len() {
            return Err(TableError::StrategyCount {
                strategies: strategies.len(),
                dice: self.dice.len(),
            });
        }
        for (die, strategy) in strategies.iter().enumerate() {
            if !strategy.plays_at_tables() {
                return Err(TableError::NotAtTables { die });
            }
            if let Some(learned) = strategy.learned()
                && !learned.plays_at(self.seats)
            {
                let rules = self.seats.rules();
                return Err(TableError::NoTablePlayer {
                    die,
                    players: self.seats.players(),
                    game: format!("board {} with profile {}", rules.board(), rules.profile()),
                    trained: learned.trained_for(),
                });
            }
            if !strategy.is_frontmost() && !self.seats.rules().profile().choice {
                return Err(TableError::StrategyNeedsChoice { die });
            }
        }
        Ok(Table {
            choosing: self.seats.rules().profile().capture_duty
                || strategies.iter().any(|s| !s.is_frontmost()),
            strategies,
            ..self
        })
    }

    /// Each die's strategy, in the order of the dice.
    pub fn strategies(&self) -> &[Strategy] {
        &self.strategies
    }

    /// The same table played by the strategies' loop even where every pick is the rules'
    /// own: the loop that tells a watcher its decisions (the same games, see
    /// [`Table::play_chunk_watched`]).
    pub(crate) fn choosing_loop(&self) -> Table<'a> {
        Table {
            choosing: true,
            ..self.clone()
        }
    }

    /// Every seating of a round: `seatings()[k][s]` is the die in seat `s` in seating `k`.
    pub(crate) fn seatings(&self) -> &[[usize; MAX_SEATS]] {
        &self.seatings
    }

    /// The die in each seat in seating `k` (die 0 in unused seats).
    pub(crate) fn seated_dice(&self, k: usize) -> [&'a Die; MAX_SEATS] {
        let mut dice = [self.dice[0]; MAX_SEATS];
        for (slot, &die) in dice.iter_mut().zip(&self.seatings[k]).take(self.dice.len()) {
            *slot = self.dice[die];
        }
        dice
    }

    /// Whether the rules pick every move and are [`Rules::is_plain`]: the loop
    /// [`Seats::roll_seated_plain`] plays.
    ///
    /// [`Rules::is_plain`]: crate::rules::Rules::is_plain
    pub(crate) fn rules_pick_plainly(&self) -> bool {
        !self.choosing && self.seats.rules().is_plain()
    }

    /// Seating `k`: each seat's die, strategy and reach.
    fn seated(&self, k: usize) -> Seated<'_> {
        let seating = &self.seatings[k];
        let mut seated = Seated {
            dice: self.seated_dice(k),
            strategies: [&self.strategies[0]; MAX_SEATS],
            reach: [Threats::unresolved(); MAX_SEATS],
        };
        for (s, &die) in seating.iter().enumerate().take(self.dice.len()) {
            seated.strategies[s] = &self.strategies[die];
            seated.reach[s] = Threats::of_die(self.dice[die]);
        }
        seated
    }

    /// The seats.
    pub fn seats(&self) -> &'a Seats {
        self.seats
    }

    /// The dice in the order given.
    pub fn dice(&self) -> &[&'a Die] {
        &self.dice
    }

    /// The roll cap.
    pub fn max_rolls(&self) -> u64 {
        self.max_rolls
    }

    /// How the dice are seated.
    pub fn seating(&self) -> Seating {
        self.seating
    }

    /// Games in one round: one per seating (N! under [`Seating::All`], else 1).
    pub fn round_games(&self) -> u64 {
        self.seatings.len() as u64
    }

    /// Games in one chunk: the fewest whole rounds that make at least 1024 games.
    pub fn chunk_games(&self) -> u64 {
        CHUNK_TARGET.div_ceil(self.round_games()) * self.round_games()
    }

    /// Plays one game in seating `seating` (an index into the seatings of a round).
    #[inline(always)]
    pub fn play<R: Rng>(&self, seating: usize, rng: &mut R) -> TableEnd {
        self.play_seated(&self.seated(seating), rng, &mut Unwatched)
    }

    #[inline(always)]
    fn play_seated<R: Rng, W: TableWatcher>(
        &self,
        seated: &Seated,
        rng: &mut R,
        watcher: &mut W,
    ) -> TableEnd {
        let players = self.seats.players();
        if self.choosing {
            return match players {
                2 => self.play_seats::<2, false, true, R, W>(seated, rng, watcher),
                3 => self.play_seats::<3, false, true, R, W>(seated, rng, watcher),
                _ => self.play_seats::<4, false, true, R, W>(seated, rng, watcher),
            };
        }
        match (players, self.seats.rules().is_plain()) {
            (2, true) => self.play_seats::<2, true, false, R, W>(seated, rng, watcher),
            (2, false) => self.play_seats::<2, false, false, R, W>(seated, rng, watcher),
            (3, true) => self.play_seats::<3, true, false, R, W>(seated, rng, watcher),
            (3, false) => self.play_seats::<3, false, false, R, W>(seated, rng, watcher),
            (_, true) => self.play_seats::<4, true, false, R, W>(seated, rng, watcher),
            (_, false) => self.play_seats::<4, false, false, R, W>(seated, rng, watcher),
        }
    }

    /// [`Table::play`] for `N` players; `PLAIN`: the rules are [`Rules::is_plain`]
    /// (the switches' tests compiled out, see [`Seats::roll_seated_plain`]).
    ///
    /// The seats' turns follow each other in the code, seat 0's, then seat 1's and so on,
    /// as in the duel: the seat to move is a constant in each copy, so every index is a
    /// constant and the position stays in registers; ending a turn is a loop exit the
    /// processor predicts.
    ///
    /// `CHOOSE`: the seats' strategies pick every move from the legal ones, and `watcher` is
    /// told each pick (a no-op in the plain loop).
    ///
    /// [`Rules::is_plain`]: crate::rules::Rules::is_plain
    #[inline(always)]
    fn play_seats<
        const N: usize,
        const PLAIN: bool,
        const CHOOSE: bool,
        R: Rng,
        W: TableWatcher,
    >(
        &self,
        seated: &Seated,
        rng: &mut R,
        watcher: &mut W,
    ) -> TableEnd {
        let mut pieces = [1u64; N];
        let mut clock = TableClock { rolls: 0, idle: 0 };
        loop {
            if let Some(end) = self.seat_turn::<N, 0, PLAIN, CHOOSE, R, W>(
                seated,
                &mut pieces,
                &mut clock,
                rng,
                watcher,
            ) {
                return end;
            }
            if let Some(end) = self.seat_turn::<N, 1, PLAIN, CHOOSE, R, W>(
                seated,
                &mut pieces,
                &mut clock,
                rng,
                watcher,
            ) {
                return end;
            }
            if N > 2
                && let Some(end) = self.seat_turn::<N, 2, PLAIN, CHOOSE, R, W>(
                    seated,
                    &mut pieces,
                    &mut clock,
                    rng,
                    watcher,
                )
            {
                return end;
            }
            if N > 3
                && let Some(end) = self.seat_turn::<N, 3, PLAIN, CHOOSE, R, W>(
                    seated,
                    &mut pieces,
                    &mut clock,
                    rng,
                    watcher,
                )
            {
                return end;
            }
        }
    }

    /// The rolls of seat `S` (`S < N`) until its turn passes (`None`) or the game ends.
    #[inline(always)]
    fn seat_turn<
        const N: usize,
        const S: usize,
        const PLAIN: bool,
        const CHOOSE: bool,
        R: Rng,
        W: TableWatcher,
    >(
        &self,
        seated: &Seated,
        pieces: &mut [u64; N],
        clock: &mut TableClock,
        rng: &mut R,
        watcher: &mut W,
    ) -> Option<TableEnd> {
        let mut tries = 0u8;
        loop {
            clock.rolls += 1;
            let face = seated.dice[S].roll(rng);
            let turn = if CHOOSE {
                let legal = self.seats.legal_moves(pieces, S, face);
                let movement = seated.strategies[S].choose_at_table(
                    self.seats,
                    pieces,
                    S,
                    &legal,
                    &seated.reach,
                    rng,
                );
                watcher.decision(pieces, S, &legal, movement);
                self.seats.roll_with_move(pieces, S, tries, face, movement)
            } else if PLAIN {
                self.seats.roll_seated_plain(pieces, S, face)
            } else {
                self.seats.roll_seated(pieces, S, tries, face)
            };
            clock.idle = if turn.moved { 0 } else { clock.idle + 1 };
            // The three ways a game can end are rare; one combined test keeps the loop to a
            // single well-predicted branch.
            let check_stuck = !turn.moved & clock.idle.is_multiple_of(IDLE_CHECK_INTERVAL);
            if (turn.won | check_stuck | (clock.rolls >= self.max_rolls))
                && let Some(end) = self.ending(
                    &seated.dice,
                    pieces,
                    S,
                    turn.won,
                    turn.passes,
                    clock.rolls,
                    check_stuck,
                )
            {
                return Some(end);
            }
            if turn.passes {
                return None;
            }
            tries = turn.tries;
        }
    }

    /// The rare path of [`Table::play`]: a win, a stuck position or the cap.
    #[cold]
    #[inline(never)]
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn ending<const N: usize>(
        &self,
        seated: &[&Die; MAX_SEATS],
        seat_pieces: &[u64; N],
        mover: usize,
        won: bool,
        passes: bool,
        rolls: u64,
        check_stuck: bool,
    ) -> Option<TableEnd> {
        if won {
            return Some(TableEnd::Won { seat: mover, rolls });
        }
        let mut pieces = [0u64; MAX_SEATS];
        pieces[..N].copy_from_slice(seat_pieces);
        let next = if passes {
            self.seats.next_seat(mover)
        } else {
            mover
        };
        if check_stuck && table_never_ends(self.seats, seated, &pieces, next as u8) {
            return Some(TableEnd::Endless);
        }
        (rolls >= self.max_rolls).then_some(TableEnd::Capped)
    }

    /// Plays chunk `chunk`: `rounds` rounds from the chunk's own stream.
    pub fn play_chunk(&self, key: StreamKey, chunk: u64, rounds: u64) -> TableCounts {
        #[cfg(target_arch = "x86_64")]
        if std::is_x86_feature_detected!("bmi2")
            && std::is_x86_feature_detected!("lzcnt")
            && std::is_x86_feature_detected!("popcnt")
        {
            // SAFETY: the features the function is compiled for were just detected.
            return unsafe { self.play_chunk_bmi2(key, chunk, rounds) };
        }
        self.play_chunk_portable(key, chunk, rounds)
    }

    /// [`Table::play_chunk`] compiled for BMI2, LZCNT and POPCNT, as the duel's chunks are.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "bmi1,bmi2,lzcnt,popcnt")]
    fn play_chunk_bmi2(&self, key: StreamKey, chunk: u64, rounds: u64) -> TableCounts {
        self.play_chunk_portable(key, chunk, rounds)
    }

    #[inline(always)]
    fn play_chunk_portable(&self, key: StreamKey, chunk: u64, rounds: u64) -> TableCounts {
        self.play_chunk_watched(key, chunk, rounds, &mut Unwatched)
    }

    /// [`Table::play_chunk`] telling `watcher` every seating and decision: the same games
    /// from the same stream, since watching draws nothing.
    #[inline(always)]
    pub(crate) fn play_chunk_watched<W: TableWatcher>(
        &self,
        key: StreamKey,
        chunk: u64,
        rounds: u64,
        watcher: &mut W,
    ) -> TableCounts {
        let mut rng = key.rng(chunk);
        let mut counts = TableCounts::new(self.seats.players());
        let seated: Vec<Seated> = (0..self.seatings.len()).map(|k| self.seated(k)).collect();
        for _ in 0..rounds {
            for (seating, seated) in self.seatings.iter().zip(&seated) {
                watcher.seated(seating);
                let end = self.play_seated(seated, &mut rng, watcher);
                counts.record(seating, end);
            }
        }
        counts
    }
}

/// Whether a table game can provably never change again: the mover cannot move and its die
/// shows only 6s (it rolls forever), or no seat can move with its die (nothing ever moves).
pub fn table_never_ends(
    seats: &Seats,
    seated: &[&Die; MAX_SEATS],
    pieces: &[u64; MAX_SEATS],
    to_move: u8,
) -> bool {
    let stuck = |s: usize| super::cannot_move(seats.rules(), seated[s], pieces[s]);
    let mover = usize::from(to_move);
    (stuck(mover) && seated[mover].only_sixes()) || (0..seats.players()).all(stuck)
}

/// Every assignment of `n` dice to `n` seats (`n!` of them), in lexicographic order.
pub fn permutations(n: usize) -> Vec<[usize; MAX_SEATS]> {
    fn extend(prefix: &mut Vec<usize>, n: usize, out: &mut Vec<[usize; MAX_SEATS]>) {
        if prefix.len() == n {
            let mut p = [0usize; MAX_SEATS];
            p[..n].copy_from_slice(prefix);
            // Unused seats keep distinct indices so that the array is a permutation too.
            for (s, slot) in p.iter_mut().enumerate().skip(n) {
                *slot = s;
            }
            out.push(p);
            return;
        }
        for d in 0..n {
            if !prefix.contains(&d) {
                prefix.push(d);
                extend(prefix, n, out);
                prefix.pop();
            }
        }
    }
    let mut out = Vec::new();
    extend(&mut Vec::new(), n, &mut out);
    out
}

/// Outcomes of table games, by seat and die. Integer counts, so chunks add up to the same
/// totals in any order, whatever the number of threads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct TableCounts {
    /// Players at the table.
    pub players: usize,
    /// Games played.
    pub games: u64,
    /// Games that hit the roll cap or were proven never-ending (won by nobody).
    pub unfinished: u64,
    /// Of the unfinished games, those proven never-ending.
    pub endless: u64,
    /// Rolls in all finished games.
    pub rolls: u64,
    /// `seated[s][i]`: games in which die `i` sat in seat `s`.
    pub seated: [[u64; MAX_SEATS]; MAX_SEATS],
    /// `wins[s][i]`: games die `i` won from seat `s`.
    pub wins: [[u64; MAX_SEATS]; MAX_SEATS],
}

impl TableCounts {
    /// No games yet.
    pub fn new(players: usize) -> TableCounts {
        TableCounts {
            players,
            games: 0,
            unfinished: 0,
            endless: 0,
            rolls: 0,
            seated: [[0; MAX_SEATS]; MAX_SEATS],
            wins: [[0; MAX_SEATS]; MAX_SEATS],
        }
    }

    pub(crate) fn record(&mut self, seating: &[usize; MAX_SEATS], end: TableEnd) {
        self.games += 1;
        for (s, &die) in seating.iter().enumerate().take(self.players) {
            self.seated[s][die] += 1;
        }
        match end {
            TableEnd::Won { seat, rolls } => {
                self.rolls += rolls;
                self.wins[seat][seating[seat]] += 1;
            }
            TableEnd::Capped => self.unfinished += 1,
            TableEnd::Endless => {
                self.unfinished += 1;
                self.endless += 1;
            }
        }
    }

    /// Games die `i` won, from any seat.
    pub fn wins_of(&self, die: usize) -> u64 {
        self.wins.iter().map(|row| row[die]).sum()
    }

    /// P(die `i` wins) over all games.
    pub fn p_win(&self, die: usize) -> f64 {
        self.wins_of(die) as f64 / self.games as f64
    }

    /// 95 % Wilson interval of P(die `i` wins).
    pub fn ci95(&self, die: usize) -> Interval {
        stats::wilson(self.wins_of(die), self.games, stats::Z95)
    }

    /// P(die `i` wins | it sits in seat `s`); NaN if it never sat there.
    pub fn p_win_in_seat(&self, seat: usize, die: usize) -> f64 {
        self.wins[seat][die] as f64 / self.seated[seat][die] as f64
    }

    /// The widest 95 % half-width of any die's P(win).
    pub fn widest_half_width(&self) -> f64 {
        (0..self.players)
            .map(|i| self.ci95(i).half_width())
            .fold(0.0, f64::max)
    }
}

impl Add for TableCounts {
    type Output = TableCounts;
    fn add(mut self, o: TableCounts) -> TableCounts {
        self.games += o.games;
        self.unfinished += o.unfinished;
        self.endless += o.endless;
        self.rolls += o.rolls;
        for s in 0..MAX_SEATS {
            for i in 0..MAX_SEATS {
                self.seated[s][i] += o.seated[s][i];
                self.wins[s][i] += o.wins[s][i];
            }
        }
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn permutations_cover_every_seating_once() {
        for n in 2..=4 {
            let perms = permutations(n);
            let factorial: usize = (1..=n).product();
            assert_eq!(perms.len(), factorial);
            let distinct: std::collections::HashSet<_> = perms.iter().collect();
            assert_eq!(distinct.len(), factorial);
            // Every die sits in every seat (n-1)! times.
            for s in 0..n {
                for d in 0..n {
                    let k = perms.iter().filter(|p| p[s] == d).count();
                    assert_eq!(k, factorial / n);
                }
            }
        }
    }
}

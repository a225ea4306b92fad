//! A game against the program, move by move: the engine under the web app's game protocol
//! and the static site's. A session holds the rules, the dice, the program's strategies for
//! the other seats and the position; it rolls every die itself (from the seed it was made
//! with), plays the program's seats and the rolls that leave no choice, and stops at each
//! roll where the person (or bot) has a choice to make, which [`Session::choose`] plays.
//!
//! A game of two is played as `play` plays it; at a table of three or four the client sits
//! in seat A, which moves first, and every other seat plays the same strategy (a heuristic,
//! or `strong`, the learned table players).

use crate::api::Error;
use crate::api::options::{RulesOptions, parse_die, seats};
use crate::api::play::{choice_texts, play_move, table_turn_record, turn_record};
use crate::dice::Die;
use crate::report::{PlayMove, PlayTurn};
use crate::rules::{GameState, LegalMoves, MAX_SEATS, PieceMove, Rules, SeatState, Seats};
use crate::sim::{GameRng, StreamKey};
use crate::strategy::{Strategy, Threats};
use serde::Serialize;
use std::collections::BTreeMap;
use std::sync::Arc;

/// The options of a new game (`POST /api/games`), by the command line's conventions; read
/// from a request with [`crate::api::from_map`]`("games", ...)`.
#[derive(Debug, Clone)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
pub struct SessionOptions {
    /// Die A (seat A, player 1) of a game of two.
    #[cfg_attr(feature = "clap", arg(long = "a", value_name = "FACES"))]
    pub die_a: Option<String>,
    /// Die B (seat B, player 2) of a game of two.
    #[cfg_attr(feature = "clap", arg(long = "b", value_name = "FACES"))]
    pub die_b: Option<String>,
    /// Players: 2, or a table of 3 or 4.
    #[cfg_attr(feature = "clap", arg(long, default_value_t = 2))]
    pub players: usize,
    /// One die per seat, seat A (the client's) first: at a table of 3 or 4 (for a game of
    /// two, instead of `a` and `b`).
    #[cfg_attr(
        feature = "clap",
        arg(long = "die", value_name = "FACES", num_args = 1)
    )]
    pub dice: Vec<String>,
    /// Board and rule profile (default profile: `choice`).
    #[cfg_attr(feature = "clap", command(flatten))]
    pub rules: RulesOptions,
    /// The client's seat in a game of two: `a` or `b`; the program plays the other. At a
    /// table the client is seat A.
    #[cfg_attr(feature = "clap", arg(long, default_value = "a", value_parser = ["a", "b"]))]
    pub seat: String,
    /// How the program plays its seats: `optimal` (a game of two only: the optimal pair's
    /// policy, solved when the game is created, on boards whose solve fits the memory and
    /// time bounds) or a strategy: frontmost, rearmost, capture, safe, random, strong or
    /// strong-search (strong-search-2, strong-search-3; at a table: frontmost, rearmost,
    /// capture, safe, random or strong).
    #[cfg_attr(feature = "clap", arg(long, default_value = "frontmost"))]
    pub opponent: String,
    /// Who starts a game of two: `a` or `b` (under roll-off the dice decide). At a table
    /// seat A starts.
    #[cfg_attr(feature = "clap", arg(long, default_value = "a", value_parser = ["a", "b"]))]
    pub first: String,
    /// The game ends without a winner after this many rolls.
    #[cfg_attr(feature = "clap", arg(long = "max-rolls", default_value_t = 10_000))]
    pub max_rolls: u64,
}

/// The seats' names.
const NAMES: [&str; MAX_SEATS] = ["A", "B", "C", "D"];

/// The position and how the program plays, for a game of two or a table.
enum Position {
    Two {
        state: GameState,
        /// The program's strategy for its seat, resolved against the client's die.
        opponent: Strategy,
    },
    Table {
        seats: Box<Seats>,
        state: SeatState,
        /// Each seat's strategy (the client's seat: unused).
        strategies: Vec<Strategy>,
        /// Each seat's reach, from its die (for `safe`).
        reach: [Threats; MAX_SEATS],
    },
}

/// One game against the program.
pub struct Session {
    rules: Rules,
    /// One die per seat.
    dice: Vec<Die>,
    opponent_name: String,
    /// The client's seat.
    seat: usize,
    position: Position,
    rng: GameRng,
    /// The client's roll waiting for a move, with its legal moves.
    pending: Option<(u32, LegalMoves)>,
    turns: Vec<PlayTurn>,
    /// `won`, `never_ends` or `max_rolls` once over.
    end: Option<&'static str>,
    winner: Option<usize>,
    max_rolls: u64,
}

/// A game as the client sees it (the JSON of the game protocol).
#[derive(Serialize)]
pub struct SessionView<'a> {
    id: &'a str,
    board: String,
    /// Track fields, start of seat B on A's track (in a game of two), pieces and goal
    /// fields.
    track: u32,
    offset: u32,
    pieces: u32,
    goal_fields: u32,
    profile: String,
    /// Players: 2, 3 or 4.
    players: usize,
    /// Each seat's start field on A's track (A's is 0).
    starts: Vec<u32>,
    /// One die per seat.
    dice: Vec<String>,
    you: &'static str,
    opponent: &'a str,
    /// The seat to roll or move next (`null` once the game is over).
    turn: Option<&'static str>,
    /// The client's roll waiting for a move.
    roll: Option<u32>,
    /// The legal moves of that roll, in the client's numbering (`B`: the waiting area).
    legal: Vec<PlayMove>,
    /// Each seat's pieces in its own numbering, e.g. `B:2 A 17 c`.
    position: BTreeMap<String, String>,
    /// The position in `advise`'s notation (`A:A,17,c B:5 turn:A`), for asking for advice;
    /// `null` at a table (`advise` values games of two).
    advise_position: Option<String>,
    /// Each seat's pieces for drawing: waiting pieces, track fields counted on A's track
    /// (0 is A's start field), goal fields (0 is the first).
    drawing: BTreeMap<String, Drawing>,
    /// Every roll so far, as `play --format json` lists them.
    turns: &'a [PlayTurn],
    end: Option<&'static str>,
    winner: Option<&'static str>,
}

/// Where a seat's pieces are, for drawing the board.
#[derive(Serialize)]
pub struct Drawing {
    waiting: u32,
    track: Vec<u32>,
    goal: Vec<u32>,
}

impl Position {
    fn players(&self) -> usize {
        match self {
            Position::Two { .. } => 2,
            Position::Table { seats, .. } => seats.players(),
        }
    }

    fn mover(&self) -> usize {
        match self {
            Position::Two { state, .. } => state.mover(),
            Position::Table { state, .. } => usize::from(state.to_move),
        }
    }

    /// Seat `seat`'s pieces, in its own numbering.
    fn pieces(&self, seat: usize) -> u64 {
        match self {
            Position::Two { state, .. } => state.pieces[seat],
            Position::Table { state, .. } => state.pieces[seat],
        }
    }

    /// Seat `seat`'s start field on A's track.
    fn start_field(&self, rules: &Rules, seat: usize) -> u32 {
        match self {
            Position::Two { .. } => [0, rules.board().offset()][seat],
            Position::Table { seats, .. } => seats.start_field(seat),
        }
    }

    fn describe(&self, rules: &Rules, seat: usize) -> String {
        match self {
            Position::Two { state, .. } => state.describe(rules.board(), seat),
            Position::Table { seats, state, .. } => seats.describe(state, seat),
        }
    }

    /// The mover's legal moves for `face`.
    fn legal_moves(&self, rules: &Rules, face: u32) -> LegalMoves {
        let mover = self.mover();
        match self {
            Position::Two { state, .. } => {
                rules.legal_moves(state.pieces[mover], state.pieces[1 - mover], mover, face)
            }
            Position::Table { seats, state, .. } => seats.legal_moves(&state.pieces, mover, face),
        }
    }

    /// The program's move for the mover, one of `legal`.
    fn program_move(
        &self,
        rules: &Rules,
        legal: &LegalMoves,
        rng: &mut GameRng,
    ) -> Option<PieceMove> {
        let mover = self.mover();
        match self {
            Position::Two { state, opponent } => opponent.choose(
                rules,
                state.pieces[mover],
                state.pieces[1 - mover],
                mover,
                legal,
                rng,
            ),
            Position::Table {
                seats,
                state,
                strategies,
                reach,
            } => strategies[mover].choose_at_table(seats, &state.pieces, mover, legal, reach, rng),
        }
    }

    /// Plays `chosen` (one of `legal`) for the mover's roll `face`: the roll's record, as
    /// roll number `roll`, and the winner if it won.
    fn play(
        &mut self,
        rules: &Rules,
        roll: u64,
        face: u32,
        legal: &LegalMoves,
        chosen: Option<PieceMove>,
    ) -> Result<(PlayTurn, Option<usize>), Error> {
        match self {
            Position::Two { state, .. } => {
                let outcome = rules
                    .play_move(state, face, chosen)
                    .map_err(|e| Error::failure(format!("internal error: {e}")))?;
                Ok((
                    turn_record(rules, roll, legal, &outcome, state),
                    outcome.winner,
                ))
            }
            Position::Table { seats, state, .. } => {
                let mover = usize::from(state.to_move);
                let turn =
                    seats.roll_with_move(&mut state.pieces, mover, state.tries, face, chosen);
                state.tries = turn.tries;
                if turn.passes {
                    state.to_move = seats.next_seat(mover) as u8;
                }
                let mut record = table_turn_record(seats, roll, mover, face, chosen, &turn, state);
                record.choices = choice_texts(rules, legal);
                Ok((record, turn.won.then_some(mover)))
            }
        }
    }

    /// Whether no seat can ever win from here.
    fn never_ends(&self, rules: &Rules, dice: &[Die]) -> bool {
        match self {
            Position::Two { state, .. } => {
                crate::sim::never_ends(rules, [&dice[0], &dice[1]], state)
            }
            Position::Table { seats, state, .. } => {
                let mut seated = [&dice[0]; MAX_SEATS];
                for (slot, die) in seated.iter_mut().zip(dice) {
                    *slot = die;
                }
                crate::sim::table_never_ends(seats, &seated, &state.pieces, state.to_move)
            }
        }
    }

    /// The position in `advise`'s notation: each seat's pieces on the board, who rolls; a
    /// game of two only.
    fn advise_position(&self, rules: &Rules) -> Option<String> {
        let Position::Two { state, .. } = self else {
            return None;
        };
        let board = rules.board();
        let seat = |p: usize| {
            let fields: Vec<String> = state.fields(p).map(|f| board.field_name(f)).collect();
            format!(
                "{}:{}",
                NAMES[p],
                if fields.is_empty() {
                    "-".to_string()
                } else {
                    fields.join(",")
                }
            )
        };
        Some(format!(
            "{} {} turn:{}",
            seat(0),
            seat(1),
            NAMES[state.mover()]
        ))
    }
}

impl Session {
    /// The game as the client sees it, under the name `id`.
    pub fn view<'a>(&'a self, id: &'a str) -> SessionView<'a> {
        let board = self.rules.board();
        let track = board.track_len();
        let players = self.position.players();
        let starts: Vec<u32> = (0..players)
            .map(|s| self.position.start_field(&self.rules, s))
            .collect();
        let drawing = (0..players)
            .map(|s| {
                let mask = self.position.pieces(s);
                let fields: Vec<u32> = (0..64).filter(|&f| mask >> f & 1 == 1).collect();
                (
                    NAMES[s].to_string(),
                    Drawing {
                        waiting: board.pieces() - mask.count_ones(),
                        track: fields
                            .iter()
                            .filter(|&&f| f < track)
                            .map(|&f| (f + starts[s]) % track)
                            .collect(),
                        goal: fields
                            .iter()
                            .filter(|&&f| f >= track)
                            .map(|&f| f - track)
                            .collect(),
                    },
                )
            })
            .collect();
        SessionView {
            id,
            board: board.to_string(),
            track,
            offset: board.offset(),
            pieces: board.pieces(),
            goal_fields: board.goal_len(),
            profile: self.rules.profile().to_string(),
            players,
            starts,
            dice: self.dice.iter().map(|d| d.to_string()).collect(),
            you: NAMES[self.seat],
            opponent: &self.opponent_name,
            turn: self.end.is_none().then(|| NAMES[self.position.mover()]),
            roll: self.pending.as_ref().map(|(face, _)| *face),
            legal: self
                .pending
                .as_ref()
                .map(|(_, legal)| legal.iter().map(|m| play_move(&self.rules, &m)).collect())
                .unwrap_or_default(),
            position: (0..players)
                .map(|s| (NAMES[s].to_string(), self.position.describe(&self.rules, s)))
                .collect(),
            drawing,
            advise_position: self.position.advise_position(&self.rules),
            turns: &self.turns,
            end: self.end,
            winner: self.winner.map(|w| NAMES[w]),
        }
    }

    /// Plays on until the client has a roll with a choice to make or the game is over:
    /// the program's seats by their strategy, the client's rolls without a choice (no
    /// legal move, or one) as the rules force them.
    pub fn advance(&mut self) -> Result<(), Error> {
        while self.end.is_none() && self.pending.is_none() {
            if self.turns.len() as u64 >= self.max_rolls {
                self.end = Some("max_rolls");
                return Ok(());
            }
            let mover = self.position.mover();
            let face = self.dice[mover].roll(&mut self.rng);
            let legal = self.position.legal_moves(&self.rules, face);
            let chosen = if mover == self.seat {
                if legal.len() >= 2 {
                    self.pending = Some((face, legal));
                    return Ok(());
                }
                legal.iter().next()
            } else {
                self.position
                    .program_move(&self.rules, &legal, &mut self.rng)
            };
            self.play(face, &legal, chosen)?;
        }
        Ok(())
    }

    /// Plays `chosen` (one of `legal`) for the mover's roll `face` and records it.
    fn play(
        &mut self,
        face: u32,
        legal: &LegalMoves,
        chosen: Option<PieceMove>,
    ) -> Result<(), Error> {
        let roll = self.turns.len() as u64 + 1;
        let (record, winner) = self.position.play(&self.rules, roll, face, legal, chosen)?;
        self.turns.push(record);
        if let Some(w) = winner {
            self.end = Some("won");
            self.winner = Some(w);
        } else if self.position.never_ends(&self.rules, &self.dice) {
            self.end = Some("never_ends");
        }
        Ok(())
    }
}

/// The optimal pair's policy for `dice` under `rules`, solved now within `max_memory`.
fn optimal(rules: &Rules, dice: [&Die; 2], max_memory: u64) -> Result<Strategy, Error> {
    use crate::exact::game::{GameRun, Side, TableStrategy, solve_game_with};
    if !rules.profile().choice {
        return Err(Error::input(format!(
            "--opponent optimal: under --profile {} the rules fix every move; optimal play \
             needs a profile with choice",
            rules.profile()
        )));
    }
    let options = crate::exact::SolveOptions::new(
        1e-9,
        crate::exact::SolveOptions::default().max_sweeps,
        Some(max_memory),
    )
    .map_err(|e| crate::api::rule_error(e.0))?;
    let run = GameRun {
        keep_values: false,
        evaluate_pair: false,
        observer: &|_| {},
        extract_policy: true,
        mirror: true,
    };
    let solution = solve_game_with(rules, dice, [Side::Optimal, Side::Optimal], &options, &run)
        .map_err(|e| {
            if e.is_input_error() {
                Error::input(format!("--opponent optimal: {e}"))
            } else {
                Error::failure(format!("--opponent optimal: {e}"))
            }
        })?;
    let table = TableStrategy::solved(rules, dice, solution)
        .ok_or_else(|| Error::failure("--opponent optimal: the solve gave no policy"))?;
    Ok(Strategy::Table(Arc::new(table)))
}

impl Session {
    /// Checks the options of a new game and sets it up (not yet played on): its rolls come
    /// from `seed`; `optimal` is solved within `max_memory`, or read from `values` where
    /// they are of this game.
    pub fn new(
        options: &SessionOptions,
        seed: u64,
        max_memory: u64,
        values: Option<&Arc<crate::exact::game::layered::LayeredValues>>,
    ) -> Result<Session, Error> {
        let rules = options.rules.rules_with_default_profile("choice")?;
        if options.max_rolls == 0 {
            return Err(Error::input("--max-rolls 0: expected at least 1 roll"));
        }
        let dice = session_dice(options)?;
        if dice.len() == 2 {
            Self::of_two(options, rules, dice, seed, max_memory, values)
        } else {
            Self::at_table(options, rules, dice, seed)
        }
    }

    /// A game of two: the client in `seat`, the program in the other with `opponent`
    /// (`optimal` from `values` where they are of this game, else solved now).
    fn of_two(
        options: &SessionOptions,
        rules: Rules,
        dice: Vec<Die>,
        seed: u64,
        max_memory: u64,
        values: Option<&Arc<crate::exact::game::layered::LayeredValues>>,
    ) -> Result<Session, Error> {
        let (a, b) = (&dice[0], &dice[1]);
        let seat = usize::from(options.seat == "b");
        let of_this_game = values.filter(|v| v.check_game(&rules, [a, b]).is_ok());
        let opponent: Strategy = if options.opponent.trim() == "optimal"
            && let Some(values) = of_this_game
        {
            // The server's values: their best move where they hold every move's group, the
            // learned player (or frontmost) elsewhere.
            let exact = crate::exact::game::exact_strategy::ExactStrategy::of_loaded(
                Arc::clone(values),
                "the server's values",
            );
            let strong = Strategy::Strong(crate::strategy::Strong::shipped());
            let fallback = if strong.check_game(&rules, [a, b]).is_ok() {
                strong
            } else {
                Strategy::Frontmost
            };
            Strategy::Exact(Arc::new(exact), Box::new(fallback))
        } else if options.opponent.trim() == "optimal" {
            optimal(&rules, [a, b], max_memory)?
        } else {
            refuse_files(&options.opponent)?;
            let strategy: Strategy = options
                .opponent
                .parse()
                .map_err(|e| Error::input(format!("--opponent: {e}")))?;
            strategy
                .check_game(&rules, [a, b])
                .map_err(|e| Error::input(format!("--opponent: {e}")))?;
            strategy
        };
        let mut strategies = [Strategy::Frontmost, Strategy::Frontmost];
        strategies[1 - seat] = opponent.clone();
        let mut rng = StreamKey::new(seed).rng(0);
        let (first, played) = {
            let matchup =
                crate::api::options::matchup(&rules, a, b, options.max_rolls, "--max-rolls")?
                    .playing(strategies)
                    .map_err(|e| Error::input(format!("--opponent {opponent}: {e}")))?;
            (
                matchup.first_player(usize::from(options.first == "b"), &mut rng),
                matchup.strategies()[1 - seat].clone(),
            )
        };
        Ok(Session {
            // Said as it is played: the server's values reach only some positions.
            opponent_name: match &opponent {
                Strategy::Exact(_, fallback) => format!(
                    "optimal (the server's exact values where they hold every move, {} elsewhere)",
                    fallback.name()
                ),
                _ => options.opponent.trim().to_string(),
            },
            position: Position::Two {
                state: GameState::start(first),
                opponent: played,
            },
            rules,
            dice,
            seat,
            rng,
            pending: None,
            turns: Vec::new(),
            end: None,
            winner: None,
            max_rolls: options.max_rolls,
        })
    }

    /// A table of 3 or 4: the client in seat A, which starts; every other seat plays the
    /// opponent's strategy.
    fn at_table(
        options: &SessionOptions,
        rules: Rules,
        dice: Vec<Die>,
        seed: u64,
    ) -> Result<Session, Error> {
        let players = dice.len();
        if options.seat != "a" || options.first != "a" {
            return Err(Error::input(format!(
                "at a table of {players} you play seat A, which moves first: give your die \
                 first in --die instead of choosing --seat or --first"
            )));
        }
        let seats = seats(&rules, players, "--players")?;
        let name = options.opponent.trim();
        if name == "optimal" {
            return Err(Error::input(format!(
                "--opponent optimal: optimal play is solved for games of two; at a table of \
                 {players} the other seats can play strong or a heuristic (frontmost, \
                 rearmost, capture, safe, random)"
            )));
        }
        refuse_files(name)?;
        let strategy: Strategy = name
            .parse()
            .map_err(|e| Error::input(format!("--opponent: {e}")))?;
        if !strategy.plays_at_tables() {
            return Err(Error::input(format!(
                "--opponent {name}: this player plays only games of two; at a table of \
                 {players} the other seats can play strong or a heuristic (frontmost, \
                 rearmost, capture, safe, random)"
            )));
        }
        if let Some(learned) = strategy.learned()
            && !learned.plays_at(&seats)
        {
            return Err(Error::input(format!(
                "--opponent {name}: no learned player was trained for a table of {players} on \
                 board {} with the rules {} ({}); choose a heuristic for this table",
                rules.board(),
                rules.profile(),
                learned.trained_for()
            )));
        }
        if !strategy.is_frontmost() && !rules.profile().choice {
            return Err(Error::input(format!(
                "--opponent {name}: under the rules {} nobody chooses a move (the frontmost \
                 piece moves); choose the profile choice to play against {name}",
                rules.profile()
            )));
        }
        let mut reach = [Threats::unresolved(); MAX_SEATS];
        for (slot, die) in reach.iter_mut().zip(&dice) {
            *slot = Threats::of_die(die);
        }
        let mut strategies = vec![strategy; players];
        strategies[0] = Strategy::Frontmost;
        Ok(Session {
            opponent_name: name.to_string(),
            position: Position::Table {
                state: seats.start(),
                seats: Box::new(seats),
                strategies,
                reach,
            },
            rules,
            dice,
            seat: 0,
            rng: StreamKey::new(seed).rng(0),
            pending: None,
            turns: Vec::new(),
            end: None,
            winner: None,
            max_rolls: options.max_rolls,
        })
    }
}

/// Refuses an opponent that names a file (`table:FILE`, `strong:FILE`): the program reads
/// no file for a game. Checked before parsing, since parsing such a name opens the file.
fn refuse_files(opponent: &str) -> Result<(), Error> {
    if crate::strategy::names_a_file(opponent) {
        return Err(Error::input(
            "--opponent: a table:FILE or strong:FILE strategy reads a file, which the server does not do",
        ));
    }
    Ok(())
}

/// The dice of a new game, one per seat: `a` and `b` for a game of two, else `die`, as many
/// as `players`.
fn session_dice(options: &SessionOptions) -> Result<Vec<Die>, Error> {
    let players = options.players;
    if !(2..=MAX_SEATS).contains(&players) {
        return Err(Error::input(format!(
            "--players {players}: expected 2, 3 or 4"
        )));
    }
    match (&options.die_a, &options.die_b, options.dice.as_slice()) {
        (Some(a), Some(b), []) if players == 2 => {
            Ok(vec![parse_die("--a", a)?, parse_die("--b", b)?])
        }
        (None, None, given) if given.len() == players => {
            given.iter().map(|text| parse_die("--die", text)).collect()
        }
        (None, None, given) => Err(Error::input(format!(
            "--die: {players} players need {players} dice, one per seat with yours first; got {}",
            given.len()
        ))),
        (_, _, []) if players == 2 => Err(Error::input(
            "--a and --b: a game of two needs both dice (or two --die, yours first)",
        )),
        _ => Err(Error::input(format!(
            "--a and --b name the dice of a game of two; for --players {players} give one --die \
             per seat, yours first"
        ))),
    }
}

/// Why a move was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MoveRefused {
    /// The game is over, or the program is to move.
    NotYourTurn(String),
    /// No legal move of the roll starts from that field.
    Illegal(String),
}

impl std::fmt::Display for MoveRefused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MoveRefused::NotYourTurn(m) | MoveRefused::Illegal(m) => f.write_str(m),
        }
    }
}

/// The client's move in the game protocol (`POST /api/games/ID/move`): the field of the
/// piece to move, `B` for the waiting area, else the field's name in the client's
/// numbering (always a string, as [`Session::choose`] takes it).
#[derive(Clone, Debug, PartialEq, Eq, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoveRequest {
    /// The field of the piece to move.
    pub from: String,
}

impl Session {
    /// Plays the client's move for its roll, the piece on `from` (`B` for the waiting area,
    /// else the field's name in the client's numbering), then the game on to the client's
    /// next decision ([`Session::advance`]).
    pub fn choose(&mut self, from: &str) -> Result<Result<(), MoveRefused>, Error> {
        let Some((face, legal)) = self.pending else {
            return Ok(Err(MoveRefused::NotYourTurn(match self.end {
                Some(end) => format!("the game is over ({end})"),
                None => "not your turn".to_string(),
            })));
        };
        let Some(chosen) = legal
            .iter()
            .find(|m| play_move(&self.rules, m).from == from)
        else {
            let moves: Vec<String> = legal
                .iter()
                .map(|m| play_move(&self.rules, &m).from)
                .collect();
            return Ok(Err(MoveRefused::Illegal(format!(
                "no legal move from {} with a {face}: the legal moves start from {}",
                crate::dice::excerpt(from),
                moves.join(", ")
            ))));
        };
        self.pending = None;
        self.play(face, &legal, Some(chosen))?;
        self.advance()?;
        Ok(Ok(()))
    }

    /// The rolls played so far (nearly all of a session's memory).
    pub fn rolls(&self) -> usize {
        self.turns.len()
    }
}

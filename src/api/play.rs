//! `play`: one game, roll by roll, for checking the rules by eye.

use super::options::{RulesOptions, StrategyOptions, matchup, parse_die, seats};
use super::{Error, Progress};
use crate::dice::Die;
use crate::report::{PlayCapture, PlayMove, PlayReport, PlayTurn};
use crate::rules::{
    GameState, LegalMoves, MoveRule, PieceMove, RollOutcome, Rules, SeatState, SeatTurn, Seats,
};
use crate::sim::StreamKey;
use crate::strategy::Strategy;
use std::collections::BTreeMap;
use std::io::Write;

/// The options of `play`: one game, every roll.
#[derive(Debug, Clone)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
pub struct PlayOptions {
    /// Die A (player 1), e.g. `1..6`.
    #[cfg_attr(feature = "clap", arg(long = "a", value_name = "FACES"))]
    pub die_a: String,
    /// Die B (player 2).
    #[cfg_attr(feature = "clap", arg(long = "b", value_name = "FACES"))]
    pub die_b: String,
    /// Seed of the game's random stream.
    #[cfg_attr(feature = "clap", arg(long, default_value_t = 1))]
    pub seed: u64,
    /// Who starts: `a` or `b` (ignored under roll-off).
    #[cfg_attr(feature = "clap", arg(long, default_value = "a", value_parser = ["a", "b"]))]
    pub first: String,
    /// Stop after this many rolls if nobody has won.
    #[cfg_attr(feature = "clap", arg(long = "max-rolls", default_value_t = 10_000))]
    pub max_rolls: u64,
    /// Players at the table, 2 to 4: seats A (moves first), B, then one `--die` each.
    #[cfg_attr(feature = "clap", arg(long, default_value_t = 2))]
    pub players: usize,
    /// The dice of seats C and D with `--players 3` or `4`.
    #[cfg_attr(feature = "clap", arg(long = "die", value_name = "FACES"))]
    pub more_dice: Vec<String>,
    /// Board and rule profile.
    #[cfg_attr(feature = "clap", command(flatten))]
    pub rules: RulesOptions,
    /// Strategies under --profile choice.
    #[cfg_attr(feature = "clap", command(flatten))]
    pub strategy: StrategyOptions,
    /// Strategy of seat C with --players 3 or 4 (frontmost, rearmost, capture, safe, random
    /// or strong); overrides --strategy for C.
    #[cfg_attr(feature = "clap", arg(long = "strategy-c", value_name = "NAME"))]
    pub strategy_c: Option<String>,
    /// Strategy of seat D with --players 4; overrides --strategy for D.
    #[cfg_attr(feature = "clap", arg(long = "strategy-d", value_name = "NAME"))]
    pub strategy_d: Option<String>,
}

/// Who plays the game: two players (with their strategies), or a table of 3 or 4 seats.
#[derive(Debug, Clone)]
enum Players {
    /// Die A against die B; `first` starts unless the profile rolls off.
    Two {
        strategies: [Strategy; 2],
        first: usize,
    },
    /// A table of 3 or 4 seats, seat A first, each seat with its strategy.
    Table(Box<Seats>, Vec<Strategy>),
}

/// A game's options, checked.
#[derive(Debug, Clone)]
pub struct PlaySettings {
    rules: Rules,
    dice: Vec<Die>,
    seed: u64,
    max_rolls: u64,
    players: Players,
}

impl PlaySettings {
    /// Checks `options`; the first bad value is refused with a message naming its option.
    pub fn new(options: &PlayOptions) -> Result<PlaySettings, Error> {
        let o = options;
        if o.players != 2 || !o.more_dice.is_empty() {
            return Self::at_table(o);
        }
        let rules = o.rules.rules()?;
        let a = parse_die("--a", &o.die_a)?;
        let b = parse_die("--b", &o.die_b)?;
        let strategies = o.strategy.strategies(&rules)?;
        // The matchup's own checks (roll cap, roll-off, strategies under the profile).
        matchup(&rules, &a, &b, o.max_rolls, "--max-rolls")?
            .playing(strategies.clone())
            .map_err(Error::input)?;
        Ok(PlaySettings {
            rules,
            dice: vec![a, b],
            seed: o.seed,
            max_rolls: o.max_rolls,
            players: Players::Two {
                strategies,
                first: usize::from(o.first == "b"),
            },
        })
    }

    /// The checks of `play --players N`.
    fn at_table(o: &PlayOptions) -> Result<PlaySettings, Error> {
        let rules = o.rules.rules()?;
        let players = o.players;
        if o.more_dice.len() + 2 != players {
            return Err(Error::input(format!(
                "--players {players}: expected --a, --b and {} --die (one die per seat), got {} --die",
                players.saturating_sub(2),
                o.more_dice.len()
            )));
        }
        if o.first != "a" {
            return Err(Error::input(
                "--first b: at a table of 3 or 4 seat A always moves first (seat the dice in another order instead)",
            ));
        }
        let mut dice = vec![parse_die("--a", &o.die_a)?, parse_die("--b", &o.die_b)?];
        for text in &o.more_dice {
            dice.push(parse_die("--die", text)?);
        }
        let seats = seats(&rules, players, "--players")?;
        let strategies = table_strategies(o, &seats, &dice)?;
        if o.max_rolls == 0 {
            return Err(Error::input("--max-rolls 0: expected at least 1 roll"));
        }
        Ok(PlaySettings {
            rules,
            dice,
            seed: o.seed,
            max_rolls: o.max_rolls,
            players: Players::Table(Box::new(seats), strategies),
        })
    }
}

/// Each seat's strategy at a table: `--strategy-a` .. `--strategy-d`, else `--strategy`,
/// else frontmost; checked as `table` checks them (plays at tables, a learned player for
/// this table, `choice` for anything but frontmost).
fn table_strategies(o: &PlayOptions, seats: &Seats, dice: &[Die]) -> Result<Vec<Strategy>, Error> {
    let given = [
        ("--strategy-a", &o.strategy.strategy_a),
        ("--strategy-b", &o.strategy.strategy_b),
        ("--strategy-c", &o.strategy_c),
        ("--strategy-d", &o.strategy_d),
    ];
    if let Some((option, _)) = given[seats.players()..].iter().find(|(_, t)| t.is_some()) {
        return Err(Error::input(format!(
            "{option}: there is no such seat at a table of {}",
            seats.players()
        )));
    }
    let strategies: Vec<Strategy> = given[..seats.players()]
        .iter()
        .map(|(option, text)| {
            let (option, text) = match (text, &o.strategy.strategy) {
                (Some(t), _) => (*option, t.as_str()),
                (None, Some(t)) => ("--strategy", t.as_str()),
                (None, None) => return Ok(Strategy::Frontmost),
            };
            text.parse::<Strategy>()
                .map_err(|e| Error::input(format!("{option}: {e}")))
        })
        .collect::<Result<_, _>>()?;
    let refs: Vec<&Die> = dice.iter().collect();
    crate::sim::Table::new(seats, &refs, 1, crate::sim::Seating::Fixed)
        .and_then(|t| t.playing(strategies.clone()))
        .map_err(|e| Error::input(format!("--strategy: {e}")))?;
    Ok(strategies)
}

/// Runs `play`: the game, its narration (the report's table form) and its data.
pub fn play(settings: &PlaySettings, _progress: &dyn Progress) -> Result<PlayReport, Error> {
    match &settings.players {
        Players::Two { strategies, first } => play_two(settings, strategies, *first),
        Players::Table(seats, strategies) => play_at_table(settings, seats, strategies),
    }
}

const NAMES: [&str; 2] = ["A", "B"];

/// The pieces of every seat, by seat name.
fn pieces(names: &[&str], describe: impl Fn(usize) -> String) -> BTreeMap<String, String> {
    names
        .iter()
        .enumerate()
        .map(|(s, name)| (name.to_string(), describe(s)))
        .collect()
}

/// Plays die A against die B: the narration (the table) and the data.
fn play_two(
    settings: &PlaySettings,
    strategies: &[Strategy; 2],
    default_first: usize,
) -> Result<PlayReport, Error> {
    let args = settings;
    let mut text = Vec::new();
    let out = &mut text;
    let rules = settings.rules;
    let (a, b) = (&settings.dice[0], &settings.dice[1]);
    let matchup = matchup(&rules, a, b, args.max_rolls, "--max-rolls")?
        .playing(strategies.clone())
        .map_err(Error::input)?;
    let mut rng = StreamKey::new(args.seed).rng(0);
    let first = matchup.first_player(default_first, &mut rng);
    let board = rules.board();
    let [sa, sb] = matchup.strategies();
    let mut report = PlayReport {
        dice: vec![a.to_string(), b.to_string()],
        board: board.to_string(),
        profile: rules.profile().to_string(),
        seed: args.seed,
        first: NAMES[first].to_string(),
        strategies: Some(vec![sa.name(), sb.name()]),
        start: pieces(&NAMES, |p| describe(&rules, &GameState::start(first), p)),
        turns: Vec::new(),
        end: "max_rolls".to_string(),
        winner: None,
        table: String::new(),
    };
    writeln!(
        out,
        "A = {a} (player 1), B = {b} (player 2); rules {} on board {board}; seed {}",
        rules.profile(),
        args.seed
    )?;
    if rules.profile().choice {
        let [sa, sb] = matchup.strategies();
        writeln!(
            out,
            "Strategies: A {sa}, B {sb}. Where a roll leaves a choice, the legal moves follow in [...]."
        )?;
    }
    writeln!(
        out,
        "Fields from each owner's view: A = start field, 1..{} track, {}.. goal; B's field r is A's field (r + {}) mod {}.",
        board.track_len() - 1,
        board.field_name(board.track_len()),
        board.offset(),
        board.track_len()
    )?;
    writeln!(
        out,
        "{} starts.   A: {}   B: {}",
        NAMES[first],
        describe(&rules, &GameState::start(first), 0),
        describe(&rules, &GameState::start(first), 1)
    )?;
    let mut state = GameState::start(first);
    for roll in 1..=args.max_rolls {
        let mover = state.mover();
        let face = matchup.dice()[mover].roll(&mut rng);
        let (own, other) = (state.pieces[mover], state.pieces[1 - mover]);
        let legal = rules.legal_moves(own, other, mover, face);
        let chosen =
            matchup.strategies()[mover].choose(&rules, own, other, mover, &legal, &mut rng);
        let outcome = rules
            .play_move(&mut state, face, chosen)
            .map_err(|e| Error::failure(format!("internal error: the strategy chose {e}")))?;
        report
            .turns
            .push(turn_record(&rules, roll, &legal, &outcome, &state));
        writeln!(
            out,
            "{roll:>5}  {} rolls {face:>2}: {:<52} A: {}   B: {}",
            NAMES[mover],
            narrate(&rules, &outcome) + &choices(&rules, &legal),
            describe(&rules, &state, 0),
            describe(&rules, &state, 1)
        )?;
        if let Some(w) = outcome.winner {
            writeln!(out, "{} wins after {roll} rolls.", NAMES[w])?;
            report.end = "won".to_string();
            report.winner = Some(NAMES[w].to_string());
            return finished(report, text);
        }
        if crate::sim::never_ends(&rules, matchup.dice(), &state) {
            writeln!(out, "Nobody can ever move again: the game never ends.")?;
            report.end = "never_ends".to_string();
            return finished(report, text);
        }
    }
    writeln!(
        out,
        "No winner after {} rolls (--max-rolls).",
        args.max_rolls
    )?;
    finished(report, text)
}

/// The report with its narration.
fn finished(mut report: PlayReport, text: Vec<u8>) -> Result<PlayReport, Error> {
    report.table = String::from_utf8(text).expect("the narration is UTF-8");
    Ok(report)
}

/// Roll number `roll` of a two-player game as `play --format json` lists it: the roll's
/// `legal` moves, its `outcome` and the position `state` after it.
pub(crate) fn turn_record(
    rules: &Rules,
    roll: u64,
    legal: &LegalMoves,
    outcome: &RollOutcome,
    state: &GameState,
) -> PlayTurn {
    let board = rules.board();
    let mover = outcome.mover;
    PlayTurn {
        roll,
        player: NAMES[mover].to_string(),
        face: outcome.face,
        movement: outcome.movement.map(|m| play_move(rules, &m)),
        rule: outcome.movement.map(|m| rule_name(m.rule).to_string()),
        choices: choice_texts(rules, legal),
        captured: outcome.captured.map(|f| PlayCapture {
            player: NAMES[1 - mover].to_string(),
            field: board.field_name(f),
        }),
        rolls_again: outcome.rolls_again && outcome.winner.is_none(),
        winner: outcome.winner.map(|w| NAMES[w].to_string()),
        pieces: pieces(&NAMES, |p| describe(rules, state, p)),
    }
}

/// Roll number `roll` at a table as `play --format json` lists it: seat `mover` rolled
/// `face`, `movement` was played, with `turn`'s effects, leaving `state`. No `rule` and no
/// `choices` (a caller that offered a choice sets them).
pub(crate) fn table_turn_record(
    seats: &Seats,
    roll: u64,
    mover: usize,
    face: u32,
    movement: Option<PieceMove>,
    turn: &SeatTurn,
    state: &SeatState,
) -> PlayTurn {
    let rules = seats.rules();
    PlayTurn {
        roll,
        player: SEAT_NAMES[mover].to_string(),
        face,
        movement: movement.map(|m| play_move(rules, &m)),
        rule: None,
        choices: Vec::new(),
        captured: turn.captured.map(|(seat, field)| PlayCapture {
            player: SEAT_NAMES[seat].to_string(),
            field: rules.board().field_name(field),
        }),
        rolls_again: !turn.won && !turn.passes,
        winner: turn.won.then(|| SEAT_NAMES[mover].to_string()),
        pieces: pieces(&SEAT_NAMES[..seats.players()], |s| seats.describe(state, s)),
    }
}

/// The legal moves of a roll that left a choice, as `5->8`; empty otherwise.
pub(crate) fn choice_texts(rules: &Rules, legal: &LegalMoves) -> Vec<String> {
    if legal.len() < 2 {
        return Vec::new();
    }
    legal.iter().map(|m| move_text(rules, &m)).collect()
}

/// A move as data (fields in the mover's numbering, `B` for the waiting area).
pub(crate) fn play_move(rules: &Rules, m: &PieceMove) -> PlayMove {
    let board = rules.board();
    PlayMove {
        from: m.from.map_or("B".to_string(), |f| board.field_name(f)),
        to: board.field_name(m.to),
    }
}

/// The rule that chose a move, in the table's words.
fn rule_name(rule: MoveRule) -> &'static str {
    match rule {
        MoveRule::BringIn => "brought in",
        MoveRule::ClearStart => "clears the start field",
        MoveRule::Frontmost => "frontmost that can move",
        MoveRule::Chosen => "chosen",
    }
}

fn describe(rules: &Rules, state: &GameState, player: usize) -> String {
    state.describe(rules.board(), player)
}

/// The legal moves of a roll that left a choice, as ` [5->8, 10->13]`; empty otherwise.
fn choices(rules: &Rules, legal: &LegalMoves) -> String {
    let moves = choice_texts(rules, legal);
    if moves.is_empty() {
        return String::new();
    }
    format!(" [{}]", moves.join(", "))
}

/// A move as `17->20` (fields in the mover's numbering, `B` for the waiting area).
fn move_text(rules: &Rules, m: &PieceMove) -> String {
    let board = rules.board();
    let from = m.from.map_or("B".to_string(), |f| board.field_name(f));
    format!("{from}->{}", board.field_name(m.to))
}

/// One roll in words: the move, the rule that chose it, a capture, who is next.
fn narrate(rules: &Rules, o: &RollOutcome) -> String {
    let board = rules.board();
    let mut text = match o.movement {
        None => "no piece can move".to_string(),
        Some(m) => {
            let why = rule_name(m.rule);
            format!("{} ({why})", move_text(rules, &m).replace("->", " -> "))
        }
    };
    if let Some(f) = o.captured {
        text += &format!(
            ", captures {}'s piece on {}",
            NAMES[1 - o.mover],
            board.field_name(f)
        );
    }
    if o.winner.is_none() {
        text += if o.rolls_again { "; rolls again" } else { "" };
    }
    text
}

/// The seats' names in `play --players N`.
const SEAT_NAMES: [&str; crate::rules::MAX_SEATS] = ["A", "B", "C", "D"];

/// `play --players N`: one table game, roll by roll, every seat's pieces after each.
fn play_at_table(
    settings: &PlaySettings,
    seats: &Seats,
    strategies: &[Strategy],
) -> Result<PlayReport, Error> {
    let args = settings;
    let mut narration = Vec::new();
    let out = &mut narration;
    let rules = settings.rules;
    let players = seats.players();
    let dice = &settings.dice;
    let mut seated = [&dice[0]; crate::rules::MAX_SEATS];
    for (slot, die) in seated.iter_mut().zip(dice) {
        *slot = die;
    }
    let board = rules.board();
    let names: Vec<String> = (0..players)
        .map(|s| format!("{} = {} (seat {s})", SEAT_NAMES[s], dice[s]))
        .collect();
    writeln!(
        out,
        "{}; rules {} on board {board}; seed {}",
        names.join(", "),
        rules.profile(),
        args.seed
    )?;
    let starts: Vec<String> = (0..players)
        .map(|s| {
            format!(
                "{}'s A is A's field {}",
                SEAT_NAMES[s],
                seats.start_field(s)
            )
        })
        .collect();
    writeln!(
        out,
        "Fields from each owner's view: A = start field, 1..{} track, {}.. goal; {}.",
        board.track_len() - 1,
        board.field_name(board.track_len()),
        starts.join(", ")
    )?;
    let mut rng = StreamKey::new(args.seed).rng(0);
    let mut state = seats.start();
    // As `table` plays: the rules' own move unless someone chooses (or must capture).
    let choosing = rules.profile().capture_duty || strategies.iter().any(|s| !s.is_frontmost());
    let mut reach = [crate::strategy::Threats::unresolved(); crate::rules::MAX_SEATS];
    for (slot, die) in reach.iter_mut().zip(dice) {
        *slot = crate::strategy::Threats::of_die(die);
    }
    let show = |state: &crate::rules::SeatState| {
        (0..players)
            .map(|s| format!("{}: {}", SEAT_NAMES[s], seats.describe(state, s)))
            .collect::<Vec<_>>()
            .join("   ")
    };
    if choosing {
        let who: Vec<String> = (0..players)
            .map(|s| format!("{} {}", SEAT_NAMES[s], strategies[s].name()))
            .collect();
        writeln!(out, "Strategies: {}.", who.join(", "))?;
    }
    writeln!(out, "A starts.   {}", show(&state))?;
    let describe_all = |state: &crate::rules::SeatState| {
        pieces(&SEAT_NAMES[..players], |s| seats.describe(state, s))
    };
    let mut report = PlayReport {
        dice: dice.iter().map(|d| d.to_string()).collect(),
        board: board.to_string(),
        profile: rules.profile().to_string(),
        seed: args.seed,
        first: "A".to_string(),
        strategies: choosing.then(|| strategies.iter().map(Strategy::name).collect()),
        start: describe_all(&state),
        turns: Vec::new(),
        end: "max_rolls".to_string(),
        winner: None,
        table: String::new(),
    };
    for roll in 1..=args.max_rolls {
        let mover = usize::from(state.to_move);
        let face = seated[mover].roll(&mut rng);
        let mut choices = Vec::new();
        let (movement, turn) = if choosing {
            let legal = seats.legal_moves(&state.pieces, mover, face);
            let movement = strategies[mover].choose_at_table(
                seats,
                &state.pieces,
                mover,
                &legal,
                &reach,
                &mut rng,
            );
            let turn = seats.roll_with_move(&mut state.pieces, mover, state.tries, face, movement);
            state.tries = turn.tries;
            if turn.passes {
                state.to_move = seats.next_seat(mover) as u8;
            }
            choices = choice_texts(&rules, &legal);
            (movement, turn)
        } else {
            let movement = rules.choose_move(state.pieces[mover], face);
            (movement, seats.play_roll(&mut state, face))
        };
        let mut text = match movement {
            None => "no piece can move".to_string(),
            Some(m) => format!(
                "{} -> {}",
                m.from.map_or("B".to_string(), |f| board.field_name(f)),
                board.field_name(m.to)
            ),
        };
        if let Some((seat, field)) = turn.captured {
            text += &format!(
                ", captures {}'s piece on {}",
                SEAT_NAMES[seat],
                board.field_name(field)
            );
        }
        if !turn.won && !turn.passes {
            text += "; rolls again";
        }
        let mut record = table_turn_record(seats, roll, mover, face, movement, &turn, &state);
        record.choices = choices;
        report.turns.push(record);
        writeln!(
            out,
            "{roll:>5}  {} rolls {face:>2}: {text:<40} {}",
            SEAT_NAMES[mover],
            show(&state)
        )?;
        if turn.won {
            writeln!(out, "{} wins after {roll} rolls.", SEAT_NAMES[mover])?;
            report.end = "won".to_string();
            report.winner = Some(SEAT_NAMES[mover].to_string());
            return finished(report, narration);
        }
        if crate::sim::table_never_ends(seats, &seated, &state.pieces, state.to_move) {
            writeln!(out, "Nobody can ever move again: the game never ends.")?;
            report.end = "never_ends".to_string();
            return finished(report, narration);
        }
    }
    writeln!(
        out,
        "No winner after {} rolls (--max-rolls).",
        args.max_rolls
    )?;
    finished(report, narration)
}

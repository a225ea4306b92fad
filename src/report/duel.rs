//! The report of one simulated duel.

use super::{CsvTable, csv_number, csv_optional, defined, header, interval, prob, thousands};
use crate::dice::Die;
use crate::exact::game::style::{Style, Tally};
use crate::sim::DuelCounts;
use crate::sim::DuelStyle;
use crate::stats::Interval;
use crate::strategy::Strategy;
use serde::Serialize;
use std::io::{self, Write};

/// A simulated duel, in the shape of `duel --format json`.
#[derive(Clone, Debug, Serialize)]
pub struct DuelReport {
    /// Die A (player 1).
    pub die_a: Die,
    /// Die B (player 2).
    pub die_b: Die,
    /// Rule profile, e.g. `bwinf`.
    pub profile: String,
    /// Board, e.g. `40/20/4/4`.
    pub board: String,
    /// Die A's strategy (`frontmost` unless the profile has `choice`).
    pub strategy_a: String,
    /// Die B's strategy.
    pub strategy_b: String,
    /// Games played.
    pub games: u64,
    /// Games die A won.
    pub a_wins: u64,
    /// Games die B won.
    pub b_wins: u64,
    /// Games that hit the roll cap or were proven never-ending (counted for neither).
    pub unfinished: u64,
    /// Of the unfinished games, those proven never-ending.
    pub endless: u64,
    /// P(A wins), averaged over both starting orders.
    pub p_a: f64,
    /// 95 % Wilson interval of `p_a`.
    pub ci95: [f64; 2],
    /// P(B wins).
    pub p_b: f64,
    /// P(A wins) in the games A started (`null` if A started none).
    pub p_a_if_a_starts: Option<f64>,
    /// P(A wins) in the games B started (`null` if B started none).
    pub p_a_if_b_starts: Option<f64>,
    /// Games A started.
    pub games_a_started: u64,
    /// Mean rolls of a finished game (`null` if no game finished).
    pub mean_rolls: Option<f64>,
    /// The seed: the same seed gives the same counts, whatever the number of threads.
    pub seed: u64,
    /// The roll cap.
    pub max_rolls: u64,
    /// `games` or `precision`.
    pub stopping: String,
    /// The requested half-width under `precision`, else `null`.
    pub precision: Option<f64>,
    /// With `--style`: how each player decided over the games' decisions, else `null`.
    pub style: Option<DuelStyle>,
}

impl DuelReport {
    /// Builds the report from the counts.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        dice: [&Die; 2],
        profile: String,
        board: String,
        counts: &DuelCounts,
        seed: u64,
        max_rolls: u64,
        precision: Option<f64>,
    ) -> DuelReport {
        let total = counts.total();
        let Interval { lo, hi } = counts.ci95_a();
        let share = |k: u64, n: u64| defined(k as f64 / n as f64);
        DuelReport {
            die_a: dice[0].clone(),
            die_b: dice[1].clone(),
            profile,
            board,
            strategy_a: Strategy::Frontmost.name(),
            strategy_b: Strategy::Frontmost.name(),
            games: total.games,
            a_wins: total.a_wins,
            b_wins: total.b_wins,
            unfinished: total.unfinished,
            endless: total.endless,
            p_a: counts.p_a(),
            ci95: [lo, hi],
            p_b: counts.p_b(),
            p_a_if_a_starts: share(counts.a_started.a_wins, counts.a_started.games),
            p_a_if_b_starts: share(counts.b_started.a_wins, counts.b_started.games),
            games_a_started: counts.a_started.games,
            mean_rolls: share(total.rolls, total.a_wins + total.b_wins),
            seed,
            max_rolls,
            stopping: if precision.is_some() {
                "precision"
            } else {
                "games"
            }
            .to_string(),
            precision,
            style: None,
        }
    }

    /// The report with the style counts of its games.
    pub fn with_style(self, style: DuelStyle) -> DuelReport {
        DuelReport {
            style: Some(style),
            ..self
        }
    }

    /// The report of a duel in which die A played `strategies[0]` and die B `strategies[1]`
    /// ([`DuelReport::new`] assumes `frontmost` for both).
    pub fn with_strategies(self, strategies: &[Strategy; 2]) -> DuelReport {
        DuelReport {
            strategy_a: strategies[0].name(),
            strategy_b: strategies[1].name(),
            ..self
        }
    }

    /// Whether a player chose its moves by a strategy other than `frontmost`.
    fn strategies_matter(&self) -> bool {
        [&self.strategy_a, &self.strategy_b]
            .iter()
            .any(|s| s.as_str() != "frontmost")
    }
}

impl super::Report for DuelReport {
    fn csv(&self) -> Option<CsvTable> {
        let r = self;
        Some(CsvTable {
            header: header(&[
                "die_a",
                "die_b",
                "profile",
                "board",
                "games",
                "a_wins",
                "b_wins",
                "unfinished",
                "endless",
                "p_a",
                "ci95_lo",
                "ci95_hi",
                "p_b",
                "p_a_if_a_starts",
                "p_a_if_b_starts",
                "games_a_started",
                "mean_rolls",
                "seed",
                "max_rolls",
                "stopping",
                "precision",
                "strategy_a",
                "strategy_b",
            ]),
            rows: vec![vec![
                r.die_a.to_string(),
                r.die_b.to_string(),
                r.profile.clone(),
                r.board.clone(),
                r.games.to_string(),
                r.a_wins.to_string(),
                r.b_wins.to_string(),
                r.unfinished.to_string(),
                r.endless.to_string(),
                csv_number(r.p_a),
                csv_number(r.ci95[0]),
                csv_number(r.ci95[1]),
                csv_number(r.p_b),
                csv_optional(r.p_a_if_a_starts),
                csv_optional(r.p_a_if_b_starts),
                r.games_a_started.to_string(),
                csv_optional(r.mean_rolls),
                r.seed.to_string(),
                r.max_rolls.to_string(),
                r.stopping.clone(),
                csv_optional(r.precision),
                r.strategy_a.clone(),
                r.strategy_b.clone(),
            ]],
        })
    }

    fn write_table(&self, out: &mut dyn Write) -> io::Result<()> {
        let r = self;
        writeln!(out, "die A         {}", r.die_a)?;
        writeln!(out, "die B         {}", r.die_b)?;
        writeln!(out, "rules         {} on board {}", r.profile, r.board)?;
        if r.strategies_matter() || r.profile.contains("choice") {
            writeln!(out, "strategies    A {}, B {}", r.strategy_a, r.strategy_b)?;
        }
        let rule = match r.precision {
            Some(h) => format!("until the 95 % half-width is at most {h}"),
            None => "fixed count".to_string(),
        };
        writeln!(
            out,
            "games         {} ({}; A started {}), seed {}",
            thousands(r.games),
            rule,
            thousands(r.games_a_started),
            r.seed
        )?;
        writeln!(
            out,
            "P(A wins)     {}   95 % CI {}",
            prob(r.p_a),
            interval(r.ci95[0], r.ci95[1], 4)
        )?;
        let optional = |p: Option<f64>| p.map_or("-".to_string(), prob);
        writeln!(
            out,
            "  if A starts {}   if B starts {}",
            optional(r.p_a_if_a_starts),
            optional(r.p_a_if_b_starts)
        )?;
        writeln!(out, "P(B wins)     {}", prob(r.p_b))?;
        writeln!(
            out,
            "unfinished    {} ({} proven never-ending, the rest hit {} rolls)",
            thousands(r.unfinished),
            thousands(r.endless),
            thousands(r.max_rolls)
        )?;
        match r.mean_rolls {
            Some(m) => writeln!(out, "mean rolls    {m:.1} per finished game")?,
            None => writeln!(out, "mean rolls    - (no game finished)")?,
        }
        if let Some(style) = &r.style {
            let names = [format!("A {}", r.strategy_a), format!("B {}", r.strategy_b)];
            write_style(out, &style.players, &names)?;
        }
        Ok(())
    }
}

/// The style counts as a table: one line per situation, one column per player (`players`
/// and their `names` in the same order).
pub(super) fn write_style(
    out: &mut dyn Write,
    players: &[Style],
    names: &[String],
) -> io::Result<()> {
    writeln!(
        out,
        "\nHow they decide, over the {} decisions of two or more legal moves in these games \
         (counted as often as the games met them):",
        thousands(players.iter().map(|p| p.decisions).sum())
    )?;
    type Situation = (&'static str, fn(&Style) -> Tally);
    let situations: [Situation; 5] = [
        ("a capture is on offer: captures", |s| s.captures),
        (
            "every capture exposes more than the safest move: captures anyway",
            |s| s.captures_at_a_risk,
        ),
        (
            "the moves expose different numbers of own pieces: the fewest",
            |s| s.safest,
        ),
        ("a piece can move into the goal: does", |s| s.enters_goal),
        ("any choice: moves the frontmost piece", |s| s.frontmost),
    ];
    let cell = |t: Tally| {
        if t.decisions == 0 {
            "-".to_string()
        } else {
            format!("{:.1} % of {}", 100.0 * t.share(), thousands(t.decisions))
        }
    };
    // Every column but the last is padded, so that a line ends with its last figure.
    let line = |out: &mut dyn Write, first: &str, cells: Vec<String>| -> io::Result<()> {
        write!(out, "{first:<66}")?;
        let last = cells.len().saturating_sub(1);
        for (i, c) in cells.iter().enumerate() {
            if i == last {
                write!(out, " {c}")?;
            } else {
                write!(out, " {c:<24}")?;
            }
        }
        writeln!(out)
    };
    line(out, "", names.to_vec())?;
    for (what, tally) in situations {
        line(out, what, players.iter().map(|p| cell(tally(p))).collect())?;
    }
    Ok(())
}

/// Writes a duel report in the chosen format (see [`super::write()`]).
pub fn write_duel(out: &mut dyn Write, r: &DuelReport, format: super::Format) -> io::Result<()> {
    super::write(out, r, format)
}

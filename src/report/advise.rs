//! The report of `advise`: every legal move of a roll with its value.

use super::{CsvTable, csv_number, header, interval};
use crate::exact::game::advise::{Gap, MoveValue};
use crate::stats;
use serde::Serialize;
use std::io::{self, Write};

/// One move as `advise` prints it.
#[derive(Clone, Debug, Serialize)]
pub struct AdvisedMove {
    /// The field the piece leaves (`B` for a piece brought in), in the mover's numbering.
    pub from: String,
    /// The field it lands on.
    pub to: String,
    /// `P(A wins) - P(B wins)` after the move (midpoint of `interval`; the learned player's
    /// score when the method is `evaluator`).
    pub value: f64,
    /// Certified interval (exact) or 95 % confidence interval (simulated); `None` for the
    /// method `evaluator`, whose scores are estimates without an interval.
    pub interval: Option<[f64; 2]>,
    /// The learned player's score of the move (`P(A wins) - P(B wins)` after it, as its
    /// network estimates it; see the report's `scored_by`), where a player for the game is
    /// at hand; an estimate beside the measured value, not part of it.
    pub strong: Option<f64>,
    /// Simulated: the move's gap to the leading move (the best mean for the mover),
    /// measured on the same dice; `None` for the methods `exact` and `evaluator`.
    pub gap: Option<GapReport>,
    /// Exact and simulated: whether this is the mover's best move (highest value for A,
    /// lowest for B) beyond doubt. Exact: its interval lies above (for B below) every other
    /// move's interval. Simulated: every other move's `gap` interval lies above 0. When the
    /// leading moves cannot be told apart, no move is marked and the report's `undecided`
    /// lists them. Method `evaluator`: the learned player's choice.
    pub best: bool,
}

/// A simulated move's gap to the leading move, from the differences game by game on the
/// same dice ([`crate::exact::game::advise::Gap`]).
#[derive(Clone, Copy, Debug, Serialize)]
pub struct GapReport {
    /// The mean of the leader's result minus this move's, as the mover sees them, in the
    /// value's units (`P(A wins) - P(B wins)`; half that in points of P(win) where every
    /// game ends): 0 for the leader.
    pub mean: f64,
    /// Its 95 % confidence interval (normal, from the differences' standard error).
    pub interval: [f64; 2],
    /// The standard error of `mean`, for a client that compares many moves at once and
    /// widens the interval to keep its overall error rate.
    pub standard_error: f64,
}

/// The learned player's scores of the legal moves (in their order), and which player.
#[derive(Clone, Debug)]
pub struct EvaluatorScores {
    /// The player, e.g. `strong` or `strong:my.json`.
    pub player: String,
    /// One score per legal move: `P(A wins) - P(B wins)` after it, as the network estimates.
    pub scores: Vec<f64>,
}

/// `advise --format json`.
#[derive(Clone, Debug, Serialize)]
pub struct AdviseReport {
    /// The board, e.g. `40/20/4/4`.
    pub board: String,
    /// The rule profile (always with `choice`).
    pub profile: String,
    /// The position as given.
    pub position: String,
    /// `A` or `B`.
    pub mover: String,
    /// The face rolled.
    pub face: u32,
    /// `exact`, `simulated` or `evaluator` (the learned player's scores alone: `--rollouts 0`).
    pub method: String,
    /// Strategies of A and B in the simulation (`optimal` when exact).
    pub strategies: [String; 2],
    /// Games per move (0 when exact).
    pub games: u64,
    /// The legal moves, frontmost first.
    pub moves: Vec<AdvisedMove>,
    /// The moves (`from->to`) whose intervals cannot be told apart from the leading move's
    /// (the leading move first), when no move is best beyond doubt; empty otherwise.
    pub undecided: Vec<String>,
    /// The learned player whose scores fill the moves' `strong` (empty when none was at hand).
    pub scored_by: String,
    /// Simulated: whether each game's result was reduced by the luck of its rolls as the
    /// learned player's evaluator judges it (`--variance-reduction`): the same values with
    /// less noise, their intervals normal ones from the adjusted results' spread.
    pub variance_reduced: bool,
    /// Why the method was chosen, or nothing.
    pub note: String,
}

impl AdviseReport {
    /// The report of `moves` for `mover` (0 = A).
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        rules: &crate::rules::Rules,
        position: String,
        mover: usize,
        face: u32,
        method: &str,
        strategies: [String; 2],
        moves: &[MoveValue],
        scores: Option<EvaluatorScores>,
        note: String,
    ) -> AdviseReport {
        // A point estimate cannot separate moves: the evaluator's method names its choice.
        let measured = method != "evaluator";
        // Each move's interval as the mover sees it: higher is better for the mover.
        let seen = |m: &MoveValue| {
            if mover == 0 {
                (m.value.lo, m.value.hi)
            } else {
                (-m.value.hi, -m.value.lo)
            }
        };
        let gap_interval = |g: &Gap| {
            let half = stats::Z95 * g.standard_error;
            [g.mean - half, g.mean + half]
        };
        // The simulation's own leader where it measured the gaps (the same dice for every
        // move), else the move whose interval's midpoint is best for the mover.
        let leader = moves
            .iter()
            .position(|m| m.gap.is_some_and(|g| g.leader))
            .or_else(|| {
                (0..moves.len()).max_by(|&i, &j| {
                    let (mi, mj) = (seen(&moves[i]), seen(&moves[j]));
                    (mi.0 + mi.1).total_cmp(&(mj.0 + mj.1))
                })
            });
        // The moves not separated from the leader (the leader first): by the gap measured on
        // the same dice where there is one, else by the intervals.
        let separated = |i: usize, l: usize| match moves[i].gap {
            Some(g) => gap_interval(&g)[0] > 0.0,
            None => seen(&moves[i]).1 < seen(&moves[l]).0,
        };
        let undecided: Vec<usize> = match leader {
            None => Vec::new(),
            Some(l) => std::iter::once(l)
                .chain((0..moves.len()).filter(|&i| i != l && !separated(i, l)))
                .collect(),
        };
        let best = match undecided.as_slice() {
            _ if !measured => leader,
            [only] => Some(*only),
            _ => None,
        };
        let board = rules.board();
        AdviseReport {
            board: board.to_string(),
            profile: rules.profile().to_string(),
            position,
            mover: if mover == 0 { "A" } else { "B" }.into(),
            face,
            method: method.into(),
            strategies,
            games: moves.first().map_or(0, |m| m.games),
            undecided: if best.is_some() {
                Vec::new()
            } else {
                undecided
                    .iter()
                    .map(|&i| {
                        let m = &moves[i].movement;
                        format!(
                            "{}->{}",
                            m.from.map_or("B".to_string(), |f| board.field_name(f)),
                            board.field_name(m.to)
                        )
                    })
                    .collect()
            },
            moves: moves
                .iter()
                .enumerate()
                .map(|(i, m)| AdvisedMove {
                    from: m
                        .movement
                        .from
                        .map_or("B".to_string(), |f| board.field_name(f)),
                    to: board.field_name(m.movement.to),
                    value: m.value.mid(),
                    interval: measured.then_some([m.value.lo, m.value.hi]),
                    gap: m.gap.map(|g| GapReport {
                        mean: g.mean,
                        interval: gap_interval(&g),
                        standard_error: g.standard_error,
                    }),
                    strong: scores.as_ref().map(|s| s.scores[i]),
                    best: best == Some(i),
                })
                .collect(),
            scored_by: scores.map_or(String::new(), |s| s.player),
            variance_reduced: false,
            note,
        }
    }
}

impl super::Report for AdviseReport {
    fn csv(&self) -> Option<CsvTable> {
        Some(CsvTable {
            header: header(&[
                "from", "to", "value", "lo", "hi", "strong", "best", "method",
            ]),
            rows: self
                .moves
                .iter()
                .map(|m| {
                    vec![
                        m.from.clone(),
                        m.to.clone(),
                        csv_number(m.value),
                        m.interval.map_or(String::new(), |i| csv_number(i[0])),
                        m.interval.map_or(String::new(), |i| csv_number(i[1])),
                        m.strong.map_or(String::new(), csv_number),
                        m.best.to_string(),
                        self.method.clone(),
                    ]
                })
                .collect(),
        })
    }

    fn write_table(&self, out: &mut dyn Write) -> io::Result<()> {
        let how = match self.method.as_str() {
            "exact" => String::new(),
            "evaluator" => format!(", scored by {} alone", self.scored_by),
            _ => format!(
                ", {} games per move, A plays {}, B plays {}{}",
                self.games,
                self.strategies[0],
                self.strategies[1],
                if self.variance_reduced {
                    ", variance-reduced"
                } else {
                    ""
                }
            ),
        };
        writeln!(
            out,
            "Position {} — {} to move, rolled {} (rules {} on board {}, {}{how})",
            self.position, self.mover, self.face, self.profile, self.board, self.method,
        )?;
        if self.moves.is_empty() {
            return writeln!(out, "No piece can move: the roll is lost.");
        }
        let scored = self.moves.iter().any(|m| m.strong.is_some()) && self.method != "evaluator";
        let gaps = self.moves.iter().any(|m| m.gap.is_some());
        writeln!(
            out,
            "{:<6} {:<6} {:>14}   {:<30}{}{}(value = P(A wins) - P(B wins))",
            "from",
            "to",
            "value",
            match self.method.as_str() {
                "exact" => "certified interval",
                "evaluator" => "no interval: an estimate",
                _ => "95 % interval",
            },
            if gaps {
                format!("{:<32}", "below the leader, same dice")
            } else {
                String::new()
            },
            if scored {
                format!("{:>9}   ", "strong")
            } else {
                String::new()
            }
        )?;
        for m in &self.moves {
            let mut interval = m.interval.map_or(String::new(), |i| {
                format!("{:<30}", interval(i[0], i[1], 10))
            });
            // Two negative bounds fill the column: keep a blank before what follows.
            if interval.len() >= 30 && !interval.ends_with(' ') {
                interval.push(' ');
            }
            let gap = match m.gap {
                Some(g) if gaps => {
                    let mut text =
                        format!("{:<32}", super::interval(g.interval[0], g.interval[1], 10));
                    if text.len() >= 32 && !text.ends_with(' ') {
                        text.push(' ');
                    }
                    text
                }
                _ => String::new(),
            };
            let score = match m.strong {
                Some(s) if scored => format!("{s:>9.4}   "),
                _ => String::new(),
            };
            let best = match (m.best, self.method.as_str()) {
                (false, _) => "",
                (true, "evaluator") => "  choice",
                (true, _) => "  best",
            };
            writeln!(
                out,
                "{:<6} {:<6} {:>14.10}   {interval:<30}{gap}{score}{}",
                m.from,
                m.to,
                m.value,
                best.trim_start()
            )?;
        }
        if !self.undecided.is_empty() {
            writeln!(
                out,
                "No move is best beyond doubt: {}{}.",
                if gaps {
                    format!(
                        "the gaps to the leader, measured on the same dice, include 0 for {}",
                        self.undecided.join(", ")
                    )
                } else {
                    format!("the intervals of {} overlap", self.undecided.join(", "))
                },
                if self.method == "exact" {
                    " (their values are equal within the solve's certified width)"
                } else {
                    "; more --rollouts would narrow them"
                }
            )?;
        }
        if self.method == "evaluator" {
            writeln!(
                out,
                "The scores are {}'s estimates, not measurements; --rollouts N plays N games \
                 on from each move for a value with a 95 % interval.",
                self.scored_by
            )?;
        } else if scored {
            writeln!(
                out,
                "strong: the learned player's estimate ({}), beside the measured value.",
                self.scored_by
            )?;
        }
        if !self.note.is_empty() {
            writeln!(out, "{}", self.note)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exact::Bounds;
    use crate::rules::{MoveRule, PieceMove, Rules};

    fn value(from: u32, lo: f64, hi: f64) -> MoveValue {
        MoveValue {
            movement: PieceMove {
                from: Some(from),
                to: from + 3,
                rule: MoveRule::Chosen,
            },
            value: Bounds { lo, hi },
            games: 100,
            gap: None,
        }
    }

    /// Two negative bounds of ten decimals fill the interval's column; the mark of the
    /// best move still stands apart from them.
    #[test]
    fn the_best_mark_stands_apart_from_a_full_interval() {
        let r = report(
            0,
            &[
                value(1, -0.0870723683, -0.0870723678),
                value(5, -0.0527778173, -0.0527778168),
            ],
        );
        let mut text = Vec::new();
        super::super::Report::write_table(&r, &mut text).unwrap();
        let text = String::from_utf8(text).unwrap();
        let line = text.lines().find(|l| l.contains("best")).expect(&text);
        assert!(line.ends_with("-0.0527778168] best"), "{line}");
    }

    fn report(mover: usize, moves: &[MoveValue]) -> AdviseReport {
        let rules = Rules::bwinf();
        AdviseReport::new(
            &rules,
            "A:1,5,9 B:- turn:A".into(),
            mover,
            3,
            "simulated",
            Default::default(),
            moves,
            None,
            String::new(),
        )
    }

    #[test]
    fn a_move_is_best_only_when_its_interval_separates_it_from_every_other() {
        let separated = report(
            0,
            &[value(1, 0.1, 0.2), value(5, 0.3, 0.4), value(9, -0.2, 0.25)],
        );
        let best: Vec<bool> = separated.moves.iter().map(|m| m.best).collect();
        assert_eq!(best, [false, true, false]);
        assert!(separated.undecided.is_empty());
        // The second move's interval reaches into the leader's: nothing is marked.
        let close = report(
            0,
            &[value(1, 0.1, 0.2), value(5, 0.3, 0.4), value(9, 0.28, 0.32)],
        );
        assert!(close.moves.iter().all(|m| !m.best));
        assert_eq!(close.undecided, ["5->8", "9->12"]);
        let mut text = Vec::new();
        super::super::Report::write_table(&close, &mut text).unwrap();
        assert!(
            String::from_utf8(text)
                .unwrap()
                .contains("No move is best beyond doubt: the intervals of 5->8, 9->12 overlap")
        );
    }

    /// Simulated moves with gaps measured on the same dice are told apart by the gaps, even
    /// where their value intervals overlap.
    #[test]
    fn simulated_moves_are_told_apart_by_their_gaps_to_the_leader() {
        use crate::exact::game::advise::Gap;
        let with_gap = |from, lo, hi, mean, standard_error, leader| MoveValue {
            gap: Some(Gap {
                mean,
                standard_error,
                leader,
            }),
            ..value(from, lo, hi)
        };
        // Overlapping values, but the second move is 0.05 below the leader, 5 standard errors.
        let apart = report(
            0,
            &[
                with_gap(1, 0.30, 0.40, 0.0, 0.0, true),
                with_gap(5, 0.26, 0.36, 0.05, 0.01, false),
            ],
        );
        assert_eq!(
            apart.moves.iter().map(|m| m.best).collect::<Vec<_>>(),
            [true, false]
        );
        let gap = apart.moves[1].gap.unwrap();
        assert!((gap.interval[0] - (0.05 - stats::Z95 * 0.01)).abs() < 1e-15);
        // The same gap with a standard error of 0.03: not beyond doubt.
        let close = report(
            0,
            &[
                with_gap(1, 0.30, 0.40, 0.0, 0.0, true),
                with_gap(5, 0.26, 0.36, 0.05, 0.03, false),
            ],
        );
        assert!(close.moves.iter().all(|m| !m.best));
        assert_eq!(close.undecided, ["1->4", "5->8"]);
    }

    #[test]
    fn the_evaluator_names_its_choice_and_claims_no_interval() {
        let rules = Rules::bwinf();
        let moves = [value(1, 0.2, 0.2), value(5, 0.21, 0.21)];
        let scores = EvaluatorScores {
            player: "strong".into(),
            scores: vec![0.2, 0.21],
        };
        let r = AdviseReport::new(
            &rules,
            "A:1,5 B:- turn:A".into(),
            0,
            3,
            "evaluator",
            Default::default(),
            &moves,
            Some(scores),
            String::new(),
        );
        // Two estimates 0.01 apart: no interval could separate them, yet the choice is named.
        assert!(r.moves.iter().all(|m| m.interval.is_none()));
        assert_eq!(
            r.moves.iter().map(|m| m.best).collect::<Vec<_>>(),
            [false, true]
        );
        assert!(r.undecided.is_empty());
        assert_eq!(r.moves[1].strong, Some(0.21));
        let csv = super::super::Report::csv(&r).unwrap();
        assert_eq!(csv.rows[0][3], "", "no lower bound is written");
        let mut text = Vec::new();
        super::super::Report::write_table(&r, &mut text).unwrap();
        let text = String::from_utf8(text).unwrap();
        assert!(
            text.contains("choice") && text.contains("not measurements"),
            "{text}"
        );
    }

    #[test]
    fn player_b_wants_the_lowest_value() {
        let b = report(1, &[value(1, -0.5, -0.4), value(5, 0.3, 0.4)]);
        assert!(b.moves[0].best && !b.moves[1].best);
        let one = report(1, &[value(1, 0.0, 1.0)]);
        assert!(one.moves[0].best, "a single legal move is the best one");
    }
}

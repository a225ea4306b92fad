//! The report of one exact solve (`solve`).

use super::{CsvTable, csv_number, header, interval};
use crate::exact::memory::format_bytes;
use crate::exact::{Bounds, ExactResult};
use serde::Serialize;
use std::io::{self, Write};

/// An exact solve, in the shape of `solve --format json`.
#[derive(Clone, Debug, Serialize)]
pub struct SolveReport {
    /// Die A.
    pub a: String,
    /// Die B.
    pub b: String,
    /// Board, e.g. `40/20/2/4`.
    pub board: String,
    /// Rule profile.
    pub profile: String,
    /// The requested width of the certified intervals.
    pub tolerance: f64,
    /// P(A starts).
    pub p_a_starts: f64,
    /// P(A wins).
    pub p_a: f64,
    /// P(A wins | A starts).
    pub p_a_if_a_starts: f64,
    /// P(A wins | B starts).
    pub p_a_if_b_starts: f64,
    /// P(B wins).
    pub p_b: f64,
    /// P(the game never ends).
    pub p_never: f64,
    /// P(the game never ends | A starts).
    pub p_never_if_a_starts: f64,
    /// P(the game never ends | B starts).
    pub p_never_if_b_starts: f64,
    /// The certified interval of every figure.
    pub bounds: BoundsReport,
    /// Transient states of the solved chain.
    pub states: u64,
    /// Joint indices of the product of both players' configurations.
    pub product_states: u64,
    /// States from which the game can never end.
    pub never_states: u64,
    /// Transitions (stored, or evaluated per sweep by the matrix-free solver).
    pub transitions: u64,
    /// Sweeps of the iteration.
    pub iterations: usize,
    /// Estimated memory.
    pub memory_bytes: u64,
    /// Seconds building the chain.
    pub build_seconds: f64,
    /// Seconds iterating.
    pub solve_seconds: f64,
    /// Seconds in all.
    pub seconds: f64,
    /// `sparse matrix`, `matrix-free, f64 storage` or `matrix-free, f32 storage`.
    pub solver: String,
    /// The f32 iteration stopped gaining before the tolerance (intervals as wide as shown);
    /// under `choice`: some figure is not certified to the tolerance.
    pub stalled: bool,
    /// Under `choice`: the game's value and how the sides played.
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub game: Option<ChoiceReport>,
    /// With `--layered`: each group of states by both sides' goal configurations, in the
    /// order solved (states, sweeps, the widest bracket, seconds).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub groups: Option<Vec<crate::exact::game::layered::GroupReport>>,
}

/// The fields `solve` adds under `choice` ([`crate::exact::game`]).
#[derive(Clone, Debug, Serialize)]
pub struct ChoiceReport {
    /// `P(A wins) - P(B wins)` when A starts, both sides playing as `strategy_a` and
    /// `strategy_b` say (the game's value when both are `optimal`).
    pub value_if_a_starts: f64,
    /// The same when B starts.
    pub value_if_b_starts: f64,
    /// The same with the starting player by the profile.
    pub value: f64,
    /// Certified intervals of the three values.
    pub value_bounds: ValueBounds,
    /// `optimal` or the strategy A plays.
    pub strategy_a: String,
    /// `optimal` or the strategy B plays.
    pub strategy_b: String,
    /// Whether the value brackets reached the tolerance.
    pub value_certified: bool,
    /// Whether the figures of the pair played reached the tolerance.
    pub figures_certified: bool,
    /// Whether the extracted pair's value lies in the game's bracket (it is optimal to the
    /// tolerance); `null` where the pair was not evaluated because the value alone gives
    /// the optimal figures (`solve --evaluate-pair` evaluates it).
    pub pair_attains_value: Option<bool>,
    /// States from which both players together could keep the game going forever (0: every
    /// play ends, the game is stopping).
    pub end_component_states: u64,
    /// Sweeps of the value iteration (lower and upper together).
    pub value_sweeps: usize,
    /// Sweeps of the pair's evaluation.
    pub pair_sweeps: usize,
    /// With both sides optimal: per heuristic, the decisions (reachable state and face with
    /// a choice) and how many of them the heuristic plays differently from the optimal
    /// pair.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub differs_from: Vec<DifferenceReport>,
    /// With both sides optimal: how the optimal pair plays in the situations a player
    /// recognises (capture on offer, a move into the goal, pieces left within reach).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub style: Option<crate::exact::game::style::Style>,
}

/// How often a heuristic's move differs from the optimal one.
#[derive(Clone, Debug, Serialize)]
pub struct DifferenceReport {
    /// The heuristic.
    pub strategy: String,
    /// Decisions counted.
    pub decisions: u64,
    /// Of them, the expected number where the heuristic plays another move (a whole number
    /// for a heuristic that picks one move; for `random`, which picks each of `m` moves with
    /// probability `1/m`, the sum of `1 - 1/m`).
    pub differing: f64,
    /// `differing / decisions`: for `random` the mean probability of playing another move.
    pub share: f64,
}

/// `[lo, hi]` of the values of a [`ChoiceReport`].
#[derive(Clone, Debug, Serialize)]
pub struct ValueBounds {
    /// Of the value when A starts.
    pub value_if_a_starts: [f64; 2],
    /// Of the value when B starts.
    pub value_if_b_starts: [f64; 2],
    /// Of the value.
    pub value: [f64; 2],
}

impl ChoiceReport {
    /// Why the solve is not certified, in words (empty if it is).
    pub fn not_certified_reason(&self) -> String {
        let mut why = Vec::new();
        if !self.value_certified {
            why.push(if self.end_component_states > 0 {
                format!(
                    "the value bracket stopped narrowing ({} states where both players could \
                     keep the game going forever)",
                    self.end_component_states
                )
            } else {
                "the value bracket did not reach the tolerance".to_string()
            });
        }
        if !self.figures_certified {
            why.push("the pair's figures did not reach the tolerance".into());
        }
        if self.pair_attains_value == Some(false) {
            why.push("the extracted pair does not attain the value bracket".into());
        }
        why.join("; ")
    }
}

/// `[lo, hi]` of every figure of a [`SolveReport`].
#[derive(Clone, Debug, Serialize)]
pub struct BoundsReport {
    /// Of P(A wins).
    pub p_a: [f64; 2],
    /// Of P(A wins | A starts).
    pub p_a_if_a_starts: [f64; 2],
    /// Of P(A wins | B starts).
    pub p_a_if_b_starts: [f64; 2],
    /// Of P(B wins).
    pub p_b: [f64; 2],
    /// Of P(never ends).
    pub p_never: [f64; 2],
    /// Of P(never ends | A starts).
    pub p_never_if_a_starts: [f64; 2],
    /// Of P(never ends | B starts).
    pub p_never_if_b_starts: [f64; 2],
}

fn pair(b: &Bounds) -> [f64; 2] {
    [b.lo, b.hi]
}

impl ChoiceReport {
    /// The values (if A starts, if B starts, over both starts) with their brackets, the
    /// strategies, whether the value is certified and its sweeps; nothing of a pair's
    /// evaluation (no figures certified, no end components, no pair sweeps).
    fn of_values(
        values: [&Bounds; 3],
        strategies: [String; 2],
        value_certified: bool,
        value_sweeps: usize,
    ) -> ChoiceReport {
        let [if_a_starts, if_b_starts, value] = values;
        let [strategy_a, strategy_b] = strategies;
        ChoiceReport {
            value_if_a_starts: if_a_starts.mid(),
            value_if_b_starts: if_b_starts.mid(),
            value: value.mid(),
            value_bounds: ValueBounds {
                value_if_a_starts: pair(if_a_starts),
                value_if_b_starts: pair(if_b_starts),
                value: pair(value),
            },
            strategy_a,
            strategy_b,
            value_certified,
            figures_certified: false,
            pair_attains_value: None,
            end_component_states: 0,
            value_sweeps,
            pair_sweeps: 0,
            differs_from: Vec::new(),
            style: None,
        }
    }
}

/// The seven figures in table and CSV order: JSON name, table label.
const FIGURES: [(&str, &str); 7] = [
    ("p_a", "P(A wins)"),
    ("p_a_if_a_starts", "P(A wins | A starts)"),
    ("p_a_if_b_starts", "P(A wins | B starts)"),
    ("p_b", "P(B wins)"),
    ("p_never", "P(never ends)"),
    ("p_never_if_a_starts", "P(never ends | A starts)"),
    ("p_never_if_b_starts", "P(never ends | B starts)"),
];

impl SolveReport {
    /// Builds the report of a solve of `dice` on `board` under `profile`.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        dice: [String; 2],
        board: String,
        profile: String,
        tolerance: f64,
        r: &ExactResult,
        solver: String,
        stalled: bool,
        seconds: f64,
    ) -> SolveReport {
        let [a, b] = dice;
        let bounds = &r.bounds;
        SolveReport {
            a,
            b,
            board,
            profile,
            tolerance,
            p_a_starts: r.p_a_starts,
            p_a: r.p_a,
            p_a_if_a_starts: r.p_a_if_a_starts,
            p_a_if_b_starts: r.p_a_if_b_starts,
            p_b: r.p_b,
            p_never: r.p_never,
            p_never_if_a_starts: r.p_never_if_a_starts,
            p_never_if_b_starts: r.p_never_if_b_starts,
            bounds: BoundsReport {
                p_a: pair(&bounds.p_a),
                p_a_if_a_starts: pair(&bounds.p_a_if_a_starts),
                p_a_if_b_starts: pair(&bounds.p_a_if_b_starts),
                p_b: pair(&bounds.p_b),
                p_never: pair(&bounds.p_never),
                p_never_if_a_starts: pair(&bounds.p_never_if_a_starts),
                p_never_if_b_starts: pair(&bounds.p_never_if_b_starts),
            },
            states: r.stats.states,
            product_states: r.stats.product,
            never_states: r.stats.never_states,
            transitions: r.stats.transitions,
            iterations: r.stats.iterations,
            memory_bytes: r.stats.memory_bytes,
            build_seconds: r.stats.build_seconds,
            solve_seconds: r.stats.solve_seconds,
            seconds,
            solver,
            stalled,
            game: None,
            groups: None,
        }
    }

    /// The report of a solve of the game with choices.
    pub fn of_game(
        dice: [String; 2],
        rules: &crate::rules::Rules,
        tolerance: f64,
        g: &crate::exact::game::GameSolution,
        strategies: [String; 2],
        seconds: f64,
    ) -> SolveReport {
        let game = ChoiceReport {
            figures_certified: g.pair_certified,
            pair_attains_value: g.pair_attains_value,
            end_component_states: g.end_component_states,
            pair_sweeps: g.pair_sweeps,
            ..ChoiceReport::of_values(
                [&g.value_if_a_starts, &g.value_if_b_starts, &g.value],
                strategies,
                g.value_certified,
                g.value_sweeps,
            )
        };
        let stalled =
            !(g.value_certified && g.pair_certified && g.pair_attains_value != Some(false));
        let iteration = if g.mirrored {
            "value iteration from both ends, half the cells solved and mirrored to the other half"
        } else {
            "value iteration from both ends"
        };
        let method = if g.pair_attains_value.is_some() {
            format!("game with choices ({iteration}, pair evaluated exactly)")
        } else {
            format!(
                "game with choices ({iteration}; every play ends in a win, so P(A wins) = \
                 (1 + value) / 2 under optimal play)"
            )
        };
        let mut report = SolveReport::new(
            dice,
            rules.board().to_string(),
            rules.profile().to_string(),
            tolerance,
            &g.pair,
            method,
            stalled,
            seconds,
        );
        report.game = Some(game);
        report
    }

    /// The report of a layered solve ([`crate::exact::game::layered`]) of the game with
    /// both sides optimal, where every play from the openings ends with a win (`figures`).
    pub fn of_layered(
        dice: [String; 2],
        strategies: [String; 2],
        rules: &crate::rules::Rules,
        tolerance: f64,
        l: &crate::exact::game::layered::LayeredSolution,
        figures: &ExactResult,
        seconds: f64,
    ) -> SolveReport {
        let game = ChoiceReport {
            figures_certified: l.value_certified,
            end_component_states: l.end_component_states,
            ..ChoiceReport::of_values(
                [&l.value_if_a_starts, &l.value_if_b_starts, &l.value],
                strategies.clone(),
                l.value_certified,
                l.groups.iter().map(|g| g.sweeps).sum(),
            )
        };
        let method = format!(
            "game with choices, layered: {} groups by goal configuration solved from the last \
             back, value iteration from both ends in each{}; every play ends in a win, so \
             P(A wins) = (1 + value) / 2 {}",
            l.groups.len(),
            if l.narrow_brackets {
                " (in the groups that do not fit the memory allowed otherwise, brackets in \
                 32-bit fixed point, rounded outward)"
            } else {
                ""
            },
            if strategies.iter().all(|s| s == "optimal") {
                "under optimal play".to_string()
            } else {
                format!(
                    "with A playing {}, B playing {}",
                    strategies[0], strategies[1]
                )
            }
        );
        let mut report = SolveReport::new(
            dice,
            rules.board().to_string(),
            rules.profile().to_string(),
            tolerance,
            figures,
            method,
            !l.value_certified,
            seconds,
        );
        report.game = Some(game);
        report.groups = Some(l.groups.clone());
        report
    }

    /// The figures in [`FIGURES`] order: value and interval.
    fn figures(&self) -> [(f64, [f64; 2]); 7] {
        let b = &self.bounds;
        [
            (self.p_a, b.p_a),
            (self.p_a_if_a_starts, b.p_a_if_a_starts),
            (self.p_a_if_b_starts, b.p_a_if_b_starts),
            (self.p_b, b.p_b),
            (self.p_never, b.p_never),
            (self.p_never_if_a_starts, b.p_never_if_a_starts),
            (self.p_never_if_b_starts, b.p_never_if_b_starts),
        ]
    }
}

impl super::Report for SolveReport {
    /// One line: the scalar fields, each figure then each interval as `NAME_lo`, `NAME_hi`.
    fn csv(&self) -> Option<CsvTable> {
        let mut columns = header(&[
            "die_a",
            "die_b",
            "board",
            "profile",
            "tolerance",
            "p_a_starts",
        ]);
        columns.extend(FIGURES.iter().map(|(name, _)| name.to_string()));
        for (name, _) in FIGURES {
            columns.push(format!("{name}_lo"));
            columns.push(format!("{name}_hi"));
        }
        columns.extend(header(&[
            "states",
            "product_states",
            "never_states",
            "transitions",
            "iterations",
            "memory_bytes",
            "build_seconds",
            "solve_seconds",
            "seconds",
            "solver",
            "stalled",
        ]));
        let mut row = vec![
            self.a.clone(),
            self.b.clone(),
            self.board.clone(),
            self.profile.clone(),
            csv_number(self.tolerance),
            csv_number(self.p_a_starts),
        ];
        let figures = self.figures();
        row.extend(figures.iter().map(|(value, _)| csv_number(*value)));
        for (_, [lo, hi]) in figures {
            row.push(csv_number(lo));
            row.push(csv_number(hi));
        }
        row.extend([
            self.states.to_string(),
            self.product_states.to_string(),
            self.never_states.to_string(),
            self.transitions.to_string(),
            self.iterations.to_string(),
            self.memory_bytes.to_string(),
            csv_number(self.build_seconds),
            csv_number(self.solve_seconds),
            csv_number(self.seconds),
            self.solver.clone(),
            self.stalled.to_string(),
        ]);
        if let Some(g) = &self.game {
            columns.extend(header(&[
                "value_if_a_starts",
                "value_if_b_starts",
                "value",
                "value_lo",
                "value_hi",
                "strategy_a",
                "strategy_b",
                "value_certified",
                "figures_certified",
                "pair_attains_value",
                "end_component_states",
            ]));
            row.extend([
                csv_number(g.value_if_a_starts),
                csv_number(g.value_if_b_starts),
                csv_number(g.value),
                csv_number(g.value_bounds.value[0]),
                csv_number(g.value_bounds.value[1]),
                g.strategy_a.clone(),
                g.strategy_b.clone(),
                g.value_certified.to_string(),
                g.figures_certified.to_string(),
                g.pair_attains_value
                    .map_or(String::new(), |a| a.to_string()),
                g.end_component_states.to_string(),
            ]);
        }
        Some(CsvTable {
            header: columns,
            rows: vec![row],
        })
    }

    fn write_table(&self, out: &mut dyn Write) -> io::Result<()> {
        let r = self;
        writeln!(
            out,
            "Exact solve: A = {} against B = {}, board {}, profile {}",
            r.a, r.b, r.board, r.profile
        )?;
        if r.profile.contains("roll-off") {
            writeln!(
                out,
                "A starts with probability {:.12} (roll-off)",
                r.p_a_starts
            )?;
        } else {
            writeln!(out, "Each die starts half of the games.")?;
        }
        writeln!(out)?;
        if let Some(g) = &r.game {
            writeln!(
                out,
                "A plays {}, B plays {}; value = P(A wins) - P(B wins)",
                g.strategy_a, g.strategy_b
            )?;
            let vb = &g.value_bounds;
            for (label, v, [lo, hi]) in [
                ("value", g.value, vb.value),
                (
                    "value | A starts",
                    g.value_if_a_starts,
                    vb.value_if_a_starts,
                ),
                (
                    "value | B starts",
                    g.value_if_b_starts,
                    vb.value_if_b_starts,
                ),
            ] {
                writeln!(out, "{label:<26} {v:>16.13}   {}", interval(lo, hi, 15))?;
            }
            for d in &g.differs_from {
                if d.strategy == "random" {
                    writeln!(
                        out,
                        "random plays the optimal pair's move with probability {:.1} % on average over {} decisions",
                        100.0 * (1.0 - d.share),
                        d.decisions
                    )?;
                } else {
                    writeln!(
                        out,
                        "{} plays another move than the optimal pair in {:.1} % of {} decisions",
                        d.strategy,
                        100.0 * d.share,
                        d.decisions
                    )?;
                }
            }
            if let Some(style) = &g.style {
                for (what, t) in [
                    (
                        "captures when some moves capture and some do not",
                        style.captures,
                    ),
                    (
                        "moves into the goal when some moves do and some do not",
                        style.enters_goal,
                    ),
                    (
                        "leaves the fewest pieces within the opponent's reach when moves differ in it",
                        style.safest,
                    ),
                    (
                        "captures although every capture leaves more pieces within reach",
                        style.captures_at_a_risk,
                    ),
                    ("moves the frontmost piece", style.frontmost),
                ] {
                    writeln!(
                        out,
                        "the optimal pair {what}: {:.1} % of {} decisions",
                        100.0 * t.share(),
                        t.decisions
                    )?;
                }
            }
            if g.end_component_states > 0 {
                writeln!(
                    out,
                    "{} states from which both players could keep the game going forever",
                    g.end_component_states
                )?;
            }
            if r.stalled {
                writeln!(out, "NOT CERTIFIED: {}", g.not_certified_reason())?;
            }
            writeln!(
                out,
                "{}",
                if g.pair_attains_value.is_some() {
                    "Figures of the pair played (evaluated exactly):"
                } else {
                    "Figures under optimal play (every play ends in a win: P(A wins) = (1 + value) / 2):"
                }
            )?;
        }
        writeln!(out, "{:<26} {:>16}   certified interval", "figure", "value")?;
        for ((_, label), (value, [lo, hi])) in FIGURES.iter().zip(r.figures()) {
            writeln!(out, "{label:<26} {value:>16.13}   {}", interval(lo, hi, 15))?;
        }
        writeln!(out)?;
        writeln!(
            out,
            "states {} (of {} joint indices; {} never-ending), transitions {}, iterations {}",
            r.states, r.product_states, r.never_states, r.transitions, r.iterations
        )?;
        writeln!(out, "solver: {}", r.solver)?;
        writeln!(
            out,
            "memory about {} (estimate), time {:.3} s (build {:.3} s, iteration {:.3} s), tolerance {:e}",
            format_bytes(r.memory_bytes),
            r.seconds,
            r.build_seconds,
            r.solve_seconds,
            r.tolerance
        )
    }
}

/// One position's value under optimal play (`solve --position`).
#[derive(Clone, Debug, Serialize)]
pub struct PositionReport {
    /// Die A.
    pub a: String,
    /// Die B.
    pub b: String,
    /// Board.
    pub board: String,
    /// Rule profile.
    pub profile: String,
    /// The position as given.
    pub position: String,
    /// Who rolls: `A` or `B`.
    pub to_move: String,
    /// The midpoint of the certified interval of `P(A wins) - P(B wins)`.
    pub value: f64,
    /// The certified interval.
    pub interval: [f64; 2],
    /// The tolerance it was solved to.
    pub tolerance: f64,
    /// The values folder it was read from, if any.
    pub values: Option<String>,
}

impl super::Report for PositionReport {
    fn csv(&self) -> Option<CsvTable> {
        Some(CsvTable {
            header: header(&[
                "die_a",
                "die_b",
                "board",
                "profile",
                "position",
                "to_move",
                "value",
                "lo",
                "hi",
                "tolerance",
                "values",
            ]),
            rows: vec![vec![
                self.a.clone(),
                self.b.clone(),
                self.board.clone(),
                self.profile.clone(),
                self.position.clone(),
                self.to_move.clone(),
                csv_number(self.value),
                csv_number(self.interval[0]),
                csv_number(self.interval[1]),
                csv_number(self.tolerance),
                self.values.clone().unwrap_or_default(),
            ]],
        })
    }

    fn write_table(&self, out: &mut dyn Write) -> io::Result<()> {
        writeln!(
            out,
            "Position {} ({} to roll; A = {}, B = {}, board {}, profile {})",
            self.position, self.to_move, self.a, self.b, self.board, self.profile
        )?;
        let [lo, hi] = self.interval;
        writeln!(
            out,
            "value P(A wins) - P(B wins), both sides optimal: {:.10}   certified interval {}",
            self.value,
            interval(lo, hi, 10)
        )?;
        match &self.values {
            Some(dir) => writeln!(
                out,
                "read from the values in {dir} (groups solved to {:e})",
                self.tolerance
            ),
            None => writeln!(out, "solved, tolerance {:e}", self.tolerance),
        }
    }
}

/// A layered solve of some of the groups (`solve --layered --part outside-core` or
/// `both-home`): each group's states, sweeps, widest bracket and seconds.
#[derive(Clone, Debug, Serialize)]
pub struct LayersReport {
    /// Die A.
    pub a: String,
    /// Die B.
    pub b: String,
    /// Board.
    pub board: String,
    /// Rule profile.
    pub profile: String,
    /// The requested width of every group's brackets.
    pub tolerance: f64,
    /// How A plays: `optimal` or a fixed strategy's name.
    pub strategy_a: String,
    /// How B plays (as `strategy_a`).
    pub strategy_b: String,
    /// `outside-core` or `both-home`.
    pub part: String,
    /// The folder the values were written to, if any.
    pub values_out: Option<String>,
    /// What the solve did, group by group.
    #[serde(flatten)]
    pub outcome: crate::exact::game::layered::LayersOutcome,
}

impl super::Report for LayersReport {
    fn csv(&self) -> Option<CsvTable> {
        let columns = header(&[
            "die_a",
            "die_b",
            "board",
            "profile",
            "tolerance",
            "strategy_a",
            "strategy_b",
            "part",
            "goal_a",
            "goal_b",
            "states",
            "end_component_states",
            "sweeps",
            "width",
            "stalled",
            "seconds",
            "resumed",
        ]);
        let rows = self
            .outcome
            .groups
            .iter()
            .map(|g| {
                vec![
                    self.a.clone(),
                    self.b.clone(),
                    self.board.clone(),
                    self.profile.clone(),
                    csv_number(self.tolerance),
                    self.strategy_a.clone(),
                    self.strategy_b.clone(),
                    self.part.clone(),
                    g.goal_a.to_string(),
                    g.goal_b.to_string(),
                    g.states.to_string(),
                    g.end_component_states.to_string(),
                    g.sweeps.to_string(),
                    csv_number(g.width),
                    g.stalled.to_string(),
                    csv_number(g.seconds),
                    g.resumed.to_string(),
                ]
            })
            .collect();
        Some(CsvTable {
            header: columns,
            rows,
        })
    }

    fn write_table(&self, out: &mut dyn Write) -> io::Result<()> {
        let o = &self.outcome;
        writeln!(
            out,
            "Layered solve ({}): A = {} against B = {}, board {}, profile {}, {}",
            self.part,
            self.a,
            self.b,
            self.board,
            self.profile,
            if self.strategy_a == "optimal" && self.strategy_b == "optimal" {
                "both optimal".to_string()
            } else {
                format!(
                    "A playing {}, B playing {}",
                    self.strategy_a, self.strategy_b
                )
            }
        )?;
        writeln!(
            out,
            "{:>7} {:>7} {:>14} {:>7} {:>11} {:>10}",
            "goal A", "goal B", "states", "sweeps", "widest", "seconds"
        )?;
        for g in &o.groups {
            writeln!(
                out,
                "{:>7b} {:>7b} {:>14} {:>7} {:>11.3e} {:>10.1}{}{}{}",
                g.goal_a,
                g.goal_b,
                g.states,
                g.sweeps,
                g.width,
                g.seconds,
                if g.narrow_brackets == Some(true) {
                    " 32-bit"
                } else {
                    ""
                },
                if g.stalled { " stalled" } else { "" },
                if g.resumed { " (read back)" } else { "" }
            )?;
        }
        let states: u64 = o.groups.iter().map(|g| g.states).sum();
        let widest = o.groups.iter().map(|g| g.width).fold(0.0, f64::max);
        writeln!(
            out,
            "{} groups, {states} states, widest bracket {widest:.3e}: {} to --tolerance {}",
            o.groups.len(),
            if o.certified {
                "certified"
            } else {
                "NOT certified"
            },
            self.tolerance
        )?;
        if let Some(dir) = &self.values_out {
            writeln!(out, "values in {dir} ({:?} midpoints)", o.storage)?;
        }
        let narrow = format!(
            "brackets in 32 bits in {} of the groups solved",
            o.groups
                .iter()
                .filter(|g| !g.resumed && g.narrow_brackets == Some(true))
                .count()
        );
        let saved: Vec<&str> = [
            (o.finished_mapped, "finished groups mapped from their files"),
            (o.narrow_brackets, narrow.as_str()),
        ]
        .into_iter()
        .filter_map(|(used, what)| used.then_some(what))
        .collect();
        writeln!(
            out,
            "memory estimate {}{}, {:.1} s",
            format_bytes(o.peak_bytes),
            if saved.is_empty() {
                String::new()
            } else {
                format!(" ({})", saved.join(", "))
            },
            o.seconds
        )
    }
}

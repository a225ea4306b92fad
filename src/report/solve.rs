//! The report of one exact solve (`solve`).

use super::{CsvTable, csv_number, header};
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
    /// The f32 iteration stopped gaining before the tolerance (intervals as wide as shown).
    pub stalled: bool,
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
        }
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
        writeln!(out, "{:<26} {:>16}   certified interval", "figure", "value")?;
        for ((_, label), (value, [lo, hi])) in FIGURES.iter().zip(r.figures()) {
            writeln!(out, "{label:<26} {value:>16.13}   [{lo:.15}, {hi:.15}]")?;
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

//! The lines a long solve writes while it runs, as notes of the caller's [`Progress`]: its
//! plan (size, memory, the time it will take), then its progress at most every few seconds
//! with the time still to go, and how the estimates compared with what it took.

use super::Progress;
use crate::exact::game::Progress as GameProgress;
use crate::exact::progress::{
    Basis, Estimator, GAME_NARROWING_AFTER, Phase, Progress as SolveProgress, usual_game_sweeps,
    usual_sweeps,
};
use crate::sizes::format_bytes;

/// The progress of a layered solve: a status line per group, a note per group that took a
/// second or more, or was read back from `--values-out`, and within a long group a note per
/// sweep and checkpoint.
pub(crate) struct GroupNotes<'a> {
    progress: &'a dyn Progress,
    /// The current group's name, and when it began.
    current: std::sync::Mutex<(String, web_time::Instant)>,
}

/// Seconds a group runs before its sweeps get a note each (the log of a long solve shows
/// how a group of hours goes; short groups keep a line each).
const SWEEP_NOTES_AFTER: f64 = 60.0;

impl<'a> GroupNotes<'a> {
    pub(crate) fn new(progress: &'a dyn Progress) -> GroupNotes<'a> {
        GroupNotes {
            progress,
            current: std::sync::Mutex::new((String::new(), web_time::Instant::now())),
        }
    }

    pub(crate) fn report(&self, p: crate::exact::game::layered::LayerProgress<'_>) {
        use crate::exact::game::layered::LayerProgress;
        let current = || self.current.lock().unwrap_or_else(|e| e.into_inner());
        match p {
            LayerProgress::Group {
                number,
                of,
                goal_a,
                goal_b,
                states,
            } => {
                let name = format!("group {number}/{of} (goal fields A {goal_a:b}, B {goal_b:b})");
                self.progress.status(&format!("{name}: {states} states"));
                *current() = (name, web_time::Instant::now());
            }
            LayerProgress::Sweep { sweep, width } => {
                let (name, began) = &*current();
                let seconds = began.elapsed().as_secs_f64();
                if seconds >= SWEEP_NOTES_AFTER {
                    self.progress.note(&format!(
                        "{name}: sweep {sweep}, widest bracket {width:.3e}, {seconds:.0} s"
                    ));
                }
            }
            LayerProgress::FromCheckpoint { sweep, width } => self.progress.note(&format!(
                "{}: going on from its checkpoint after sweep {sweep} (widest bracket \
                 {width:.3e})",
                current().0
            )),
            LayerProgress::Checkpoint {
                sweep,
                written: Ok(bytes),
                seconds,
            } => self.progress.note(&format!(
                "{}: checkpoint after sweep {sweep} written ({bytes} bytes, {seconds:.1} s)",
                current().0
            )),
            LayerProgress::Checkpoint {
                sweep,
                written: Err(why),
                ..
            } => self.progress.note(&format!(
                "{}: warning: the checkpoint after sweep {sweep} was not written ({why}); the \
                 group goes on without it",
                current().0
            )),
            LayerProgress::Done(r) if r.resumed => self
                .progress
                .note(&format!("{}: read back from --values-out", current().0)),
            LayerProgress::Done(r) if r.seconds >= 1.0 => self.progress.note(&format!(
                "{}: {} states, {} sweeps{}, widest bracket {:.3e}{}, {:.1} s{}",
                current().0,
                r.states,
                r.sweeps,
                if r.narrow_brackets == Some(true) {
                    " in 32 bits"
                } else {
                    ""
                },
                r.width,
                if r.stalled { " (stalled)" } else { "" },
                r.seconds,
                r.ranks.map_or(String::new(), |k| format!(
                    " on {} ranks, {} states sent between them a sweep",
                    k.ranks, k.ghost_states
                )) + &r
                    .from_checkpoint_at_sweep
                    .map_or(String::new(), |k| format!(
                        " (with the run that wrote its checkpoint after sweep {k})"
                    ))
            )),
            LayerProgress::Done(_) => {}
            LayerProgress::Leftovers { files, bytes } => self.progress.note(&format!(
                "--values-out: removed {files} temporary file{} ({}) that a run stopped while \
                 writing left there",
                if files == 1 { "" } else { "s" },
                format_bytes(bytes)
            )),
            LayerProgress::Disk {
                groups,
                files,
                fullest,
                limit,
                measured,
            } => self.progress.note(&format!(
                "--values-out: {groups} groups to write, {} of files ({} at the fullest, \
                 with the group being written beside them); {} {}",
                format_bytes(files),
                format_bytes(fullest),
                format_bytes(limit),
                if measured {
                    "free there"
                } else {
                    "allowed (--max-disk)"
                }
            )),
        }
    }
}

/// Joint indices (states of a rules-fixed solve) from which a solve announces its size
/// before the work (a second or more of sweeping on this machine).
const LARGE_SOLVE: u64 = 10_000_000;

/// `; about N more sweeps, T (basis)`: the time still to go, for a progress line; empty
/// when there is no estimate or nothing is left.
fn remaining_text(remaining: Option<(crate::fixpoint::Remaining, Basis)>) -> String {
    let Some((r, basis)) = remaining.filter(|(r, _)| r.sweeps > 0) else {
        return String::new();
    };
    format!(
        "; about {} more {}, {} ({})",
        r.sweeps,
        if r.sweeps == 1 { "sweep" } else { "sweeps" },
        estimate_text(r.seconds),
        match basis {
            Basis::Narrowing => "at the last sweeps' pace and narrowing",
            Basis::UsualWork => "if the usual work, at the pace so far",
            Basis::FirstValue => "as the first value's blocks took, at the pace so far",
        }
    )
}

/// An estimated time: to a tenth of a second below ten seconds and of a minute from two
/// minutes up to two hours, precise enough to compare with the end.
fn estimate_text(seconds: f64) -> String {
    match seconds {
        s if (0.0..10.0).contains(&s) => format!("{s:.1} s"),
        s if (120.0..7200.0).contains(&s) => format!("{:.1} min", s / 60.0),
        s => human_duration(std::time::Duration::from_secs_f64(s.max(0.0))),
    }
}

/// Seconds between two progress lines of a long rules-fixed solve.
const NOTE_EVERY: f64 = 5.0;

/// How far a step may take from its printed estimate before its end line says so: the
/// estimates aim to be within a factor of 1.5.
const ESTIMATE_FACTOR: f64 = 1.5;

/// ` (2.13 times the estimate)` where a step that was said to take `said` seconds took `took`
/// and that is off by more than [`ESTIMATE_FACTOR`], else empty. The estimates before a
/// solve's first phase are fixed costs fitted on the development machine, so a slower
/// machine (or day, or dice unlike the fitted ones) makes them short; the line that ends the
/// step checks the claim against what happened rather than leaving it standing.
fn estimate_check(took: f64, said: f64) -> String {
    if !(said > 0.0 && took.is_finite()) {
        return String::new();
    }
    let ratio = took / said;
    if (1.0 / ESTIMATE_FACTOR..=ESTIMATE_FACTOR).contains(&ratio) {
        String::new()
    } else {
        format!(" ({} times the estimate)", significant(ratio))
    }
}

/// `ratio` to two decimals below 10 (`2.13`, `0.11`: `1.51` does not read as `1.5`), to
/// one from 10 on.
fn significant(ratio: f64) -> String {
    if ratio >= 10.0 {
        format!("{ratio:.1}")
    } else {
        format!("{ratio:.2}")
    }
}

/// The lines a large rules-fixed solve writes while it runs: its states and memory once they
/// are known, then, at most every [`NOTE_EVERY`] seconds, its work so far and the time
/// still to go ([`Estimator`]); the first estimate as soon as there is one. A small solve
/// stays silent. Each solve starts with its size ([`SolveProgress::Sizing`]), which starts
/// the notes afresh: one `SolveNotes` serves the pairs of a ranking one after another.
pub(crate) struct SolveNotes<'p> {
    progress: &'p dyn Progress,
    tolerance: f64,
    /// What the lines begin with: `solve`, or in a ranking the pair being solved.
    subject: std::sync::Mutex<String>,
    state: std::sync::Mutex<NoteState>,
}

/// What [`SolveNotes`] remembers between reports of one solve.
struct NoteState {
    estimator: Estimator,
    /// The solve is large enough to speak.
    large: bool,
    /// Seconds of the last line written.
    last_line: f64,
    /// A line with an estimate of the time still to go has been written.
    estimated: bool,
    /// The search's printed estimate, checked when the search ends.
    search_said: Option<f64>,
}

impl NoteState {
    /// For a solve of dice with `faces` distinct moving faces together.
    fn new(tolerance: f64, faces: u64) -> NoteState {
        NoteState {
            estimator: Estimator::new(tolerance, usual_sweeps(tolerance, faces)),
            large: false,
            last_line: 0.0,
            estimated: false,
            search_said: None,
        }
    }
}

impl<'p> SolveNotes<'p> {
    /// Lines for a solve to `tolerance`, written as notes of `progress`.
    pub(crate) fn new(tolerance: f64, progress: &'p dyn Progress) -> SolveNotes<'p> {
        SolveNotes {
            progress,
            tolerance,
            subject: std::sync::Mutex::new("solve".to_string()),
            // Replaced by each solve's own at its size report.
            state: std::sync::Mutex::new(NoteState::new(tolerance, 12)),
        }
    }

    /// The lines of the next solve begin with `subject` (e.g. `exact 2/15: 1..6 vs 2..7`).
    pub(crate) fn name_next(&self, subject: &str) {
        *self.subject.lock().unwrap_or_else(|e| e.into_inner()) = subject.to_string();
    }

    /// Takes a report of the solver.
    pub(crate) fn report(&self, p: SolveProgress) {
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        let state = &mut *state;
        if let SolveProgress::Sizing { faces, .. } = p {
            *state = NoteState::new(self.tolerance, faces);
        }
        let remaining = state.estimator.report(p);
        let line = match p {
            SolveProgress::Sizing {
                joint_indices,
                search_seconds,
                ..
            } => {
                if joint_indices < LARGE_SOLVE {
                    return;
                }
                state.search_said = Some(search_seconds);
                format!(
                    "{joint_indices} joint indices; finding the reachable states, about {} \
                     (estimate)",
                    estimate_text(search_seconds)
                )
            }
            SolveProgress::Planned {
                solver,
                states,
                bytes,
                seconds,
                build_seconds,
            } => {
                state.large = states >= LARGE_SOLVE;
                if !state.large {
                    return;
                }
                state.last_line = seconds;
                let build = build_seconds.map_or(String::new(), |b| {
                    format!(
                        "; building the matrix, about {} (estimate)",
                        estimate_text(b)
                    )
                });
                let check = state
                    .search_said
                    .map_or(String::new(), |said| estimate_check(seconds, said));
                format!(
                    "{states} reachable states found in {seconds:.1} s{check}; {solver} solver, \
                     about {} at the peak (estimate){build}",
                    crate::exact::memory::format_bytes(bytes)
                )
            }
            SolveProgress::Sweep {
                phase,
                updates,
                per_sweep,
                width,
                seconds,
            } => {
                let first_estimate = remaining.is_some() && !state.estimated;
                if !state.large || !(first_estimate || seconds - state.last_line >= NOTE_EVERY) {
                    return;
                }
                state.last_line = seconds;
                state.estimated |= remaining.is_some();
                let phase = match phase {
                    Phase::Block { block, blocks, .. } => format!("block {block} of {blocks}"),
                    Phase::Openings => "openings".to_string(),
                };
                let left = remaining_text(remaining);
                format!(
                    "{phase}, {:.1} sweep equivalents, width {width:.3e}, {seconds:.1} \
                     s{left}",
                    updates as f64 / per_sweep.max(1) as f64
                )
            }
        };
        let subject = self.subject.lock().unwrap_or_else(|e| e.into_inner());
        self.progress.note(&format!("{subject}: {line}"));
    }
}

/// The lines a game solve ([`solve_game_with`]) writes while it runs: a long one (a board
/// like 40/20/3/4 takes minutes) says its size and memory before the work, its
/// classification and the tabulation of a costly fixed strategy, then every sweep from the
/// fifth second on with the time still to go at the pace and narrowing of the last sweeps;
/// a short one stays silent.
pub(crate) struct GameSolveNotes<'p> {
    progress: &'p dyn Progress,
    /// What the lines begin with, e.g. `solve`.
    subject: &'static str,
    tolerance: f64,
    pieces: u32,
    /// The phase the watch is timing (`true`: the pair's evaluation) and the watch.
    watch: std::sync::Mutex<(bool, Estimator)>,
    /// Seconds of the last line about a tabulation.
    tabulation_line: std::sync::Mutex<f64>,
    /// The classification's printed estimate, checked when it ends.
    classify_said: std::sync::Mutex<Option<f64>>,
}

impl<'p> GameSolveNotes<'p> {
    /// Lines for a game solve to `tolerance` with `pieces` pieces a side, beginning with
    /// `subject`, written as notes of `progress`.
    pub(crate) fn new(
        tolerance: f64,
        pieces: u32,
        subject: &'static str,
        progress: &'p dyn Progress,
    ) -> GameSolveNotes<'p> {
        GameSolveNotes {
            progress,
            subject,
            tolerance,
            pieces,
            watch: std::sync::Mutex::new((false, new_watch(tolerance, pieces))),
            tabulation_line: std::sync::Mutex::new(0.0),
            classify_said: std::sync::Mutex::new(None),
        }
    }

    /// Takes a report of the solver.
    pub(crate) fn report(&self, p: GameProgress) {
        let line = match p {
            GameProgress::Planned {
                indices,
                bytes,
                ending_bytes,
                classify_seconds,
            } if indices >= LARGE_SOLVE => {
                let size = crate::exact::memory::format_bytes;
                let memory = if ending_bytes < bytes {
                    format!(
                        "about {} at the peak, {} if some play can go on forever (estimates)",
                        size(ending_bytes),
                        size(bytes)
                    )
                } else {
                    format!("about {} at the peak (estimate)", size(bytes))
                };
                *self.classify_said.lock().unwrap_or_else(|e| e.into_inner()) =
                    Some(classify_seconds);
                format!(
                    "{indices} joint indices; {memory}; classifying the states, about {} \
                     (estimate)",
                    estimate_text(classify_seconds)
                )
            }
            GameProgress::Planned { .. } => return,
            GameProgress::Classified { seconds, .. } if seconds < NOTE_EVERY => return,
            GameProgress::Classified { states, seconds } => {
                let said = *self.classify_said.lock().unwrap_or_else(|e| e.into_inner());
                let check = said.map_or(String::new(), |said| estimate_check(seconds, said));
                format!("{states} reachable states classified after {seconds:.1} s{check}")
            }
            GameProgress::Tabulating {
                side,
                done,
                elapsed,
                seconds,
            } => {
                let mut last = self
                    .tabulation_line
                    .lock()
                    .unwrap_or_else(|e| e.into_inner());
                if elapsed < NOTE_EVERY || seconds - *last < NOTE_EVERY || done >= 1.0 {
                    return;
                }
                *last = seconds;
                // Blocks of joint indices cost alike on the whole (each thread takes its
                // share of the range), so the time to go is the pace so far.
                format!(
                    "asking {}'s strategy its move in every decision: {:.0} % after \
                     {elapsed:.1} s; about {} more (at the pace so far)",
                    ["A", "B"][side],
                    100.0 * done,
                    estimate_text(elapsed * (1.0 - done) / done.max(1e-9))
                )
            }
            GameProgress::Sweep {
                pair,
                sweep,
                gap,
                seconds,
            } => {
                let mut watch = self.watch.lock().unwrap_or_else(|e| e.into_inner());
                // A new phase (the pair's evaluation after the value) starts a new watch.
                if watch.0 != pair {
                    *watch = (pair, new_watch(self.tolerance, self.pieces));
                }
                // Every sweep of the game solver narrows the openings' width. The watch
                // sees every sweep; a line is written from the fifth second on.
                let report = SolveProgress::Sweep {
                    phase: Phase::Openings,
                    updates: sweep as u64,
                    per_sweep: 1,
                    width: gap,
                    seconds,
                };
                let remaining = watch.1.report(report);
                if seconds < NOTE_EVERY {
                    return;
                }
                let left = remaining_text(remaining);
                format!(
                    "{} sweep {sweep}, width {gap:.3e}, {seconds:.1} s{left}",
                    if pair { "pair evaluation" } else { "value" }
                )
            }
        };
        self.progress.note(&format!("{}: {line}", self.subject));
    }
}

/// A fresh watch of a game solve's sweeps to `tolerance` with `pieces` pieces a side.
fn new_watch(tolerance: f64, pieces: u32) -> Estimator {
    Estimator::new(tolerance, usual_game_sweeps(tolerance, pieces))
        .trusting_narrowing_after(GAME_NARROWING_AFTER)
}

/// A rough duration for people: `40 s`, `12 min`, `3.5 h`, `9 days`, `2.1e4 years`.
pub(crate) fn human_duration(d: std::time::Duration) -> String {
    let s = d.as_secs_f64();
    match s {
        s if s < 120.0 => format!("{s:.0} s"),
        s if s < 7200.0 => format!("{:.0} min", s / 60.0),
        s if s < 172_800.0 => format!("{:.1} h", s / 3600.0),
        s if s < 3.0e7 => format!("{:.0} days", s / 86_400.0),
        s => format!("{:.1e} years", s / 3.156e7),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exact::SolverUsed;
    use crate::exact::matrix_free::{Components, Storage};
    use std::sync::Mutex;

    /// Keeps every note.
    #[derive(Default)]
    struct Notes(Mutex<Vec<String>>);

    impl Progress for Notes {
        fn note(&self, line: &str) {
            self.0.lock().unwrap().push(line.to_string());
        }
    }

    fn sweep(phase: Phase, updates: u64, width: f64, seconds: f64) -> SolveProgress {
        SolveProgress::Sweep {
            phase,
            updates,
            per_sweep: 1000,
            width,
            seconds,
        }
    }

    #[test]
    fn a_large_rules_fixed_solve_says_its_size_then_its_time_to_go_every_few_seconds() {
        let notes = Notes::default();
        let watch = SolveNotes::new(1e-9, &notes);
        report_large_plan(&watch, 10.0);
        let block = Phase::Block {
            block: 3,
            blocks: 25,
            repeats: None,
        };
        // The first sweep starts the pace's clock (and is within five seconds of the last
        // line: silent); after two sweeps' worth of updates comes the first estimate,
        // written at once: 15 sweep equivalents usual, 12,900 updates more at 1 ms each.
        watch.report(sweep(block, 100, 1.0, 11.0));
        watch.report(sweep(block, 2100, 1.0, 13.0));
        // Within five seconds of that line: nothing.
        watch.report(sweep(block, 4000, 1.0, 15.0));
        watch.report(sweep(Phase::Openings, 9000, 1e-3, 20.0));
        let lines = notes.0.lock().unwrap().clone();
        assert_eq!(lines.len(), 4, "{lines:#?}");
        assert!(
            lines[0].contains("30000000 joint indices; finding the reachable states, about 9.5 s"),
            "{}",
            lines[0]
        );
        assert!(
            lines[1].contains("20000000 reachable states")
                && lines[1].contains("3.00 GiB")
                && lines[1].contains("matrix-free, f64 storage"),
            "{}",
            lines[1]
        );
        assert!(
            lines[2].contains("block 3 of 25, 2.1 sweep equivalents")
                && lines[2].contains("about 13 more sweeps, 13 s")
                && lines[2].contains("usual work"),
            "{}",
            lines[2]
        );
        // The openings' first sweep tells no narrowing: 6,000 updates more at 9 s per 8,900.
        assert!(
            lines[3].contains(
                "openings, 9.0 sweep equivalents, width 1.000e-3, 20.0 s; about 6 more sweeps, 6.0 s"
            ),
            "{}",
            lines[3]
        );
    }

    /// The size and plan of a solve of 900 states (below the size that speaks).
    /// A large matrix-free solve's size (its search estimated at 9.5 s) and its plan, the
    /// states found after `found_after` seconds.
    fn report_large_plan(watch: &SolveNotes, found_after: f64) {
        watch.report(SolveProgress::Sizing {
            joint_indices: 30_000_000,
            search_seconds: 9.5,
            faces: 12,
        });
        watch.report(SolveProgress::Planned {
            solver: SolverUsed::MatrixFree(Storage::F64, Components::Together),
            states: 20_000_000,
            bytes: 3 << 30,
            seconds: found_after,
            build_seconds: None,
        });
    }

    fn report_small_plan(watch: &SolveNotes) {
        watch.report(SolveProgress::Sizing {
            joint_indices: 1000,
            search_seconds: 0.001,
            faces: 12,
        });
        watch.report(SolveProgress::Planned {
            solver: SolverUsed::Sparse,
            states: 900,
            bytes: 1 << 20,
            seconds: 0.1,
            build_seconds: Some(0.01),
        });
    }

    #[test]
    fn a_small_rules_fixed_solve_stays_silent() {
        let notes = Notes::default();
        let watch = SolveNotes::new(1e-9, &notes);
        report_small_plan(&watch);
        for k in 1..40 {
            watch.report(sweep(
                Phase::Openings,
                1000 * k,
                0.5f64.powi(k as i32),
                k as f64,
            ));
        }
        assert!(notes.0.lock().unwrap().is_empty());
    }

    /// The pairs of an exact ranking share one `SolveNotes`: each solve's size starts its
    /// notes afresh, so a large pair after a small one speaks, and its first estimate comes
    /// at once, from its own pace, not the pair's before.
    #[test]
    fn each_solve_of_a_ranking_gets_its_own_notes() {
        let notes = Notes::default();
        let watch = SolveNotes::new(1e-9, &notes);
        let large = |seconds| SolveProgress::Planned {
            solver: SolverUsed::Sparse,
            states: 20_000_000,
            bytes: 1 << 30,
            seconds,
            build_seconds: Some(65.0),
        };
        // A large pair: its lines, the first estimate at 13 s.
        watch.report(SolveProgress::Sizing {
            joint_indices: 30_000_000,
            search_seconds: 9.5,
            faces: 12,
        });
        watch.report(large(10.0));
        watch.report(sweep(Phase::Openings, 100, 1.0, 11.0));
        watch.report(sweep(Phase::Openings, 2100, 1.0, 13.0));
        // A small pair: silent, though it reports as often.
        report_small_plan(&watch);
        watch.report(sweep(Phase::Openings, 900, 0.5, 0.2));
        watch.name_next("exact 3/3: 1..6 vs 2..7");
        // The next large pair, with its own clock from 0 s: its first estimate at 6 s (the
        // first pair's last line was at 13 s), from its own pace of 4 s per 2,000 updates
        // (the first pair's was 2 s): 12,900 updates more, 26 s.
        watch.report(SolveProgress::Sizing {
            joint_indices: 30_000_000,
            search_seconds: 9.5,
            faces: 12,
        });
        watch.report(large(1.0));
        watch.report(sweep(Phase::Openings, 100, 1.0, 2.0));
        watch.report(sweep(Phase::Openings, 2100, 1.0, 6.0));
        let lines = notes.0.lock().unwrap().clone();
        assert_eq!(lines.len(), 6, "{lines:#?}");
        assert!(lines[2].contains("13.0 s; about"), "{}", lines[2]);
        // The sparse solver's plan says how long its matrix will take to build.
        assert!(
            lines[1].ends_with("building the matrix, about 65 s (estimate)"),
            "{}",
            lines[1]
        );
        assert!(
            lines[0].starts_with("solve: 30000000 joint indices"),
            "{}",
            lines[0]
        );
        assert!(
            lines[3].starts_with("exact 3/3: 1..6 vs 2..7: 30000000 joint indices"),
            "{}",
            lines[3]
        );
        assert!(
            lines[5].contains(
                "2.1 sweep equivalents, width 1.000e0, 6.0 s; about 13 more sweeps, 26 s"
            ),
            "{}",
            lines[5]
        );
    }

    #[test]
    fn an_estimate_off_by_more_than_half_again_is_named_at_the_end_of_its_step() {
        assert_eq!(estimate_check(32.0, 15.0), " (2.13 times the estimate)");
        assert_eq!(estimate_check(1.0, 9.5), " (0.11 times the estimate)");
        assert_eq!(estimate_check(22.7, 15.0), " (1.51 times the estimate)");
        assert_eq!(estimate_check(160.0, 10.0), " (16.0 times the estimate)");
        // Within a factor of 1.5 either way, the estimate held: nothing is added.
        for took in [10.0, 15.0, 22.5, 16.0] {
            assert_eq!(estimate_check(took, 15.0), "", "{took}");
        }
        // No estimate to check against.
        assert_eq!(estimate_check(5.0, 0.0), "");
    }

    #[test]
    fn the_search_line_says_how_far_the_search_took_from_its_estimate() {
        let lines = |took: f64| {
            let notes = Notes::default();
            let watch = SolveNotes::new(1e-9, &notes);
            report_large_plan(&watch, took);
            notes.0.lock().unwrap().clone()
        };
        let slow = lines(20.0);
        assert!(
            slow[1].starts_with(
                "solve: 20000000 reachable states found in 20.0 s (2.11 times the estimate); "
            ),
            "{}",
            slow[1]
        );
        let held = lines(10.0);
        assert!(
            held[1].starts_with("solve: 20000000 reachable states found in 10.0 s; "),
            "{}",
            held[1]
        );
    }

    #[test]
    fn the_classification_line_says_how_far_it_took_from_its_estimate() {
        let lines = |took: f64| {
            let notes = Notes::default();
            let watch = GameSolveNotes::new(1e-9, 3, "solve", &notes);
            watch.report(GameProgress::Planned {
                indices: 405_270_450,
                bytes: 10 << 30,
                ending_bytes: 6 << 30,
                classify_seconds: 40.0,
            });
            watch.report(GameProgress::Classified {
                states: 336_067_942,
                seconds: took,
            });
            notes.0.lock().unwrap().clone()
        };
        assert_eq!(
            lines(106.7)[1],
            "solve: 336067942 reachable states classified after 106.7 s (2.67 times the estimate)"
        );
        assert_eq!(
            lines(43.0)[1],
            "solve: 336067942 reachable states classified after 43.0 s"
        );
    }
}

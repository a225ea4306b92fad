//! Why an exact solve was refused or failed: one error for every solver.

use super::costs;
use super::options::OptionsError;
use crate::fixpoint::NotConverged;
use crate::sizes::format_bytes;
use std::fmt;

/// Why a matchup was not solved.
#[derive(Clone, Debug, PartialEq)]
pub enum ExactError {
    /// The estimated memory exceeds the limit.
    Memory {
        /// Transient states, or an upper bound on them (see `exact_count`).
        states: u64,
        /// Whether `states` is the exact count (after enumeration) or a bound (before).
        exact_count: bool,
        /// Reachable configurations of player A and of player B: the state count is their
        /// product (times the sides to move), less the pairs that cannot occur.
        configs: [u64; 2],
        /// Estimated peak bytes.
        bytes: u64,
        /// The limit in bytes.
        limit: u64,
    },
    /// Under `roll-off` both dice always show the same face, so nobody ever starts.
    RollOff,
    /// The state space does not fit the solver's index types.
    TooLarge(String),
    /// The iteration hit its sweep limit before the intervals were narrow enough.
    NotConverged(NotConverged),
    /// The options cannot be honoured (tolerance or sweep limit).
    Options(OptionsError),
    /// The profile lets players choose their moves (`choice`, `capture-duty`), which the
    /// solvers of the rules-fixed game do not model.
    Profile(String),
    /// The solve ended without the certificate its figures need (under `choice`: the value
    /// bracket did not close, or the extracted pair does not attain it); what is missing.
    Uncertified(String),
    /// A layered solve's estimate exceeds the limit: at its largest group.
    GroupMemory {
        /// A's goal configuration of the group where the need is largest.
        goal_a: u32,
        /// B's goal configuration of that group.
        goal_b: u32,
        /// Its states.
        states: u64,
        /// Bytes of the finished groups held beside it.
        finished_bytes: u64,
        /// Whether those are read from their files, mapped (then not in `bytes`).
        finished_mapped: bool,
        /// Whether the group's brackets were counted in 32 bits (the tolerance allows it).
        narrow_brackets: bool,
        /// Estimated peak bytes (with the tables).
        bytes: u64,
        /// The limit in bytes.
        limit: u64,
        /// Whether that group is the core of a whole solve (`--part outside-core` leaves it
        /// out).
        core_last: bool,
        /// The processes (MPI ranks) the estimate is for: each holds its share.
        ranks: usize,
    },
    /// A file of solved values given to read back or resume from does not fit (damaged,
    /// truncated, or made for another game): the path and what was expected.
    ValuesFile(String),
    /// Writing solved values failed (e.g. the disk is full): the path and the reason.
    Write(String),
    /// The files a layered solve would write into its folder need more than the disk
    /// allows, refused before any work.
    Disk {
        /// The folder (`--values-out`).
        folder: String,
        /// The groups still to write (without a file there).
        groups: usize,
        /// Their files' bytes.
        files: u64,
        /// The most the folder will hold at once: the files, and beside the group being
        /// written its checkpoint or the ranks' parts of its file.
        fullest: u64,
        /// What the disk allows, in bytes.
        limit: u64,
        /// Whether `limit` is the free space there (else `--max-disk`).
        measured: bool,
    },
    /// Another process is writing into the folder given to `--values-out` (it holds the
    /// folder's lock): the folder.
    FolderInUse(String),
    /// The processes of a solve over MPI ranks disagree (they see different value files)
    /// or sent what does not fit: what happened.
    Ranks(String),
}

impl fmt::Display for ExactError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ExactError::Memory {
                states,
                exact_count,
                configs,
                bytes,
                limit,
            } => write!(
                f,
                "the exact solve needs about {} for {}{states} states ({} configurations of A \
                 times {} of B), more than the limit of {}; raise --max-memory or use a smaller \
                 board",
                format_bytes(*bytes),
                if *exact_count { "" } else { "up to " },
                configs[0],
                configs[1],
                format_bytes(*limit)
            ),
            ExactError::RollOff => write!(
                f,
                "the roll-off cannot decide who starts: both dice always show the same face"
            ),
            ExactError::TooLarge(what) => write!(f, "state space too large: {what}"),
            ExactError::Ranks(what) => write!(f, "MPI ranks: {what}"),
            ExactError::NotConverged(e) => write!(f, "{e}"),
            ExactError::Options(e) => write!(f, "{e}"),
            ExactError::Profile(what) => write!(f, "{what}"),
            ExactError::Uncertified(what) => write!(f, "not certified: {what}"),
            ExactError::GroupMemory {
                goal_a,
                goal_b,
                states,
                finished_bytes,
                finished_mapped,
                narrow_brackets,
                bytes,
                limit,
                core_last,
                ranks,
            } => write!(
                f,
                "the layered solve needs about {} {}at its largest group (goal fields A \
                 {goal_a:b}, B {goal_b:b}: {states} states{}, beside {} of finished groups it \
                 reads{}), more than the limit of {}{}",
                format_bytes(*bytes),
                if *ranks > 1 {
                    format!("on each of {ranks} MPI ranks ")
                } else {
                    String::new()
                },
                if *narrow_brackets {
                    ", their brackets in 32 bits"
                } else {
                    ""
                },
                format_bytes(*finished_bytes),
                if *finished_mapped {
                    ", mapped from their files in --values-out"
                } else {
                    ""
                },
                format_bytes(*limit),
                if *core_last {
                    core_plan(
                        *states,
                        *finished_bytes,
                        (*ranks == 1).then_some(*bytes),
                        *limit,
                        *narrow_brackets,
                    )
                } else {
                    "; raise --max-memory, run on more MPI ranks, or use a smaller board"
                        .to_string()
                }
            ),
            ExactError::ValuesFile(what) => write!(f, "{what}"),
            ExactError::Write(what) => write!(f, "{what}"),
            ExactError::FolderInUse(folder) => write!(
                f,
                "--values-out {folder}: another run is writing into this folder (it holds the \
                 folder's lock); wait for it to end, or give another folder"
            ),
            ExactError::Disk {
                folder,
                groups,
                files,
                fullest,
                limit,
                measured,
            } => write!(
                f,
                "--values-out {folder}: the {groups} groups still to solve need about {} of \
                 disk at the fullest ({} of files, and beside the group being written its \
                 checkpoint or its ranks' parts), more than {}; {}",
                format_bytes(*fullest),
                format_bytes(*files),
                if *measured {
                    format!("the {} free there", format_bytes(*limit))
                } else {
                    format!("the limit of {} (--max-disk)", format_bytes(*limit))
                },
                if *measured {
                    "free space there, or give --max-disk if it will be freed while the run \
                     goes on (a run that finds no room for a group's file stops with an \
                     error, its checkpoint kept)"
                } else {
                    "raise --max-disk, or solve a smaller --part"
                }
            ),
        }
    }
}

impl ExactError {
    /// Whether the error lies in what was asked (dice, profile, options, a game too large
    /// for the memory allowed, refused before the large work: exit code 2 in the CLI,
    /// `ValueError` in Python) rather than in what the run could reach (sweeps, a
    /// certificate).
    pub fn is_input_error(&self) -> bool {
        match self {
            ExactError::RollOff
            | ExactError::TooLarge(_)
            | ExactError::Options(_)
            | ExactError::Profile(_)
            | ExactError::Memory { .. }
            | ExactError::GroupMemory { .. }
            | ExactError::Disk { .. }
            | ExactError::FolderInUse(_)
            | ExactError::ValuesFile(_) => true,
            ExactError::NotConverged(_)
            | ExactError::Uncertified(_)
            | ExactError::Write(_)
            | ExactError::Ranks(_) => false,
        }
    }
}

impl std::error::Error for ExactError {}

/// What solving the core (the group where neither side has a piece home) takes: one
/// machine, or MPI ranks, each holding its share alone (the finished groups read from
/// their files, mapped) or beside the finished groups whole, of the limit's memory or,
/// where no number of those suffices, of larger sizes; time at the measured costs.
fn core_plan(
    states: u64,
    finished_bytes: u64,
    one_machine: Option<u64>,
    limit: u64,
    narrow_brackets: bool,
) -> String {
    use costs::{COST_MEASURED_ON, REFERENCE_SWEEPS, SECONDS_PER_STATE_SWEEP, rank_plan};
    let single_hours = states as f64 * SECONDS_PER_STATE_SWEEP * REFERENCE_SWEEPS as f64 / 3600.0;
    let bracket_bytes = if narrow_brackets { 8 } else { 16 };
    // Ranks of the limit's memory if they suffice, else of the larger sizes.
    let listed = |fixed: u64, larger: [u64; 2]| -> (String, Option<costs::RankPlan>) {
        let plan = |rank_bytes| rank_plan(states, (bracket_bytes, fixed), rank_bytes);
        let name = |rank_bytes, p: costs::RankPlan| {
            format!(
                "{} ranks of {} (about {} each)",
                p.ranks,
                format_bytes(rank_bytes),
                format_bytes(p.bytes_per_rank)
            )
        };
        if let Some(p) = plan(limit) {
            return (name(limit, p), Some(p));
        }
        let plans: Vec<_> = larger
            .into_iter()
            .filter_map(|b| Some((b, plan(b)?)))
            .collect();
        let text = plans
            .iter()
            .map(|&(b, p)| name(b, p))
            .collect::<Vec<_>>()
            .join(" or ");
        (
            format!(
                "no number of ranks of {} suffices; {text}",
                format_bytes(limit)
            ),
            plans.first().map(|&(_, p)| p),
        )
    };
    let (mapped, plan) = listed(0, [32 << 30, 64 << 30]);
    let (whole, _) = listed(finished_bytes, [128 << 30, 256 << 30]);
    let hours = plan.map_or(String::new(), |p| {
        format!(
            " some {:.1} core-hours for {} sweeps;",
            p.core_hours, p.sweeps
        )
    });
    let machine = one_machine.map_or(String::new(), |b| {
        format!("one machine with about {} of memory, ", format_bytes(b))
    });
    format!(
        "; that group is the core, where neither side has a piece home. It takes {machine}some \
         {single_hours:.1} core-hours for {REFERENCE_SWEEPS} sweeps (as many as the largest \
         groups solved took to 1e-6) at the measured {:.2} microseconds of one core per state \
         and sweep ({COST_MEASURED_ON}); over MPI ranks (`mpirun -np N wuerfelglueck solve \
         ... --layered`, built with --features mpi),{hours} with --values-out in a folder every \
         rank sees, each rank holds its share alone and reads the finished groups ({}) from \
         their files, mapped: {mapped}; holding the finished groups whole: {whole}. \
         --part outside-core solves every other group",
        SECONDS_PER_STATE_SWEEP * 1e6,
        format_bytes(finished_bytes),
    )
}

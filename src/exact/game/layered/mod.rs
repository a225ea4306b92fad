//! The game's value solved group by group ([`self::layers`]): from the last group back,
//! each group's states classified and value-iterated while the groups it exits into are
//! finished and kept compactly, so that what is in memory at full cost is one group.
//!
//! # What a group keeps while it is solved, and after
//! While a group is solved: one flag byte and the value bracket (two `f64`) per state. A
//! finished group keeps its flag byte and the midpoint of each state's bracket (one `f64`),
//! with one half-width for the whole group, rounded up: `[mid - half, mid + half]`, rounded
//! outward, holds every state's certified bracket. States whose value the game alone fixes
//! (0 where no win is reachable, +1 or -1 where only one side can win and every play ends
//! with a win) are read from their flags, exactly. The last group (the core: no piece home)
//! is read by nobody and is not compacted.
//!
//! # Classification, group by group
//! The global solver classifies the states reached from the openings. A group cannot see
//! the openings, so here every state of every group is classified (states where a side has
//! already won are left out: no move leads into them). For each group, its exits already
//! final:
//! - which wins a state can reach under some play (a fixed point of "some successor can");
//! - the end components, the greatest set of states from which both players together can
//!   keep the game going forever (as [`super::classify()`] finds them);
//! - which states can reach a state where play may go on forever (no win reachable, or an
//!   end component): from any other state every play ends with a win, and a state that
//!   only one side can win is *settled*, its value exactly +1 or -1. This is decided per
//!   state, where the global solver settles states only in games without any such state;
//!   the values agree either way, since a settled state's value is what the iteration
//!   converges to.
//!
//! # Certificate
//! Each group is iterated from both ends (a lower iterate from -1, an upper from +1, A
//! maximising and B minimising, the two sides of a cell solved together as in
//! [`super::sweep`]), reading its exits' brackets. `T` is monotone and the exits' brackets
//! hold their values, so the group's brackets hold its values at every sweep. A group
//! stops when its widest bracket is at most half the tolerance, or when it stops
//! narrowing (its exits' widths bound what it can reach, and end components can hold it
//! open); its width reached is reported, and the value is certified when the openings'
//! bracket is at most the tolerance wide.

pub(crate) mod brackets;
pub mod cluster;
mod disk;
pub(crate) mod finished;
mod folder;
pub(crate) mod layers;
mod picks;
pub(crate) mod values_file;

use self::brackets::{Brackets, Fixed32Brackets};
use self::cluster::{Cluster, OneProcess, Share};
pub use self::finished::{FIXED32_FROM, GroupReport, Storage, bit};
use self::finished::{Finished, held_value};
use self::layers::{GoalGroups, Group};
use self::picks::{OptionFold, Picks};
use super::policy::MovePolicy;
use super::solve::{figures_from_value, value_bounds};
use super::space::{At, CellTarget, GameSpace};
use super::sweep::{RowUpdate, Store, Values, update_cell};
use super::value::MIRROR;
use crate::dice::Die;
use crate::exact::shared::bounds::Bounds;
use crate::exact::shared::options::SolveOptions;
use crate::exact::shared::search;
use crate::exact::shared::{ExactError, ExactResult, ResultBounds, SolveStats};
use crate::fixpoint::{self, Stall};
use crate::rules::Rules;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering::Relaxed;
use std::sync::atomic::{AtomicU8, AtomicU64};
use web_time::Instant;

/// The flags of a state seen from the other side: A's and B's wins exchanged.
#[inline(always)]
fn mirror_bits(bits: u8) -> u8 {
    let wins = bits & (bit::WIN_A | bit::WIN_B);
    let swapped = ((wins & bit::WIN_A) << 1) | ((wins & bit::WIN_B) >> 1);
    (bits & !(bit::WIN_A | bit::WIN_B)) | swapped
}

/// Each side's configurations listed by goal configuration, and each configuration's
/// place in its list.
struct Layout {
    groups: GoalGroups,
    /// `members[side][goal]`: the configurations with that goal configuration, in the
    /// table's order (most advanced first).
    members: [Vec<Vec<u32>>; 2],
    /// `place[side][config]`: the configuration's goal configuration (high 32 bits) and
    /// position in its list (low 32 bits), packed so a read of a target looks up one word
    /// per side.
    place: [Vec<u64>; 2],
    /// Goal configurations per side (`2^goal fields`).
    goals: usize,
    /// Whether the game is its own mirror image ([`GameSpace::symmetric`]): the group
    /// `(g, h)` is then the group `(h, g)` seen from the other side, and only groups with
    /// `g <= h` are solved and stored.
    symmetric: bool,
}

impl Layout {
    /// The layout of `space`'s groups; with `mirror`, only one of each mirrored pair where
    /// the game is its own mirror image.
    fn new(rules: &Rules, space: &GameSpace, mirror: bool) -> Layout {
        let groups = GoalGroups::new(rules, &space.players);
        let goals = 1usize << rules.board().goal_len();
        let per_side = |side: usize| {
            let n = space.players[side].configs.len();
            let mut members = vec![Vec::new(); goals];
            let mut place = vec![0u64; n];
            for (config, slot) in place.iter_mut().enumerate() {
                let goal = groups.goal_config(side, config);
                let list: &mut Vec<u32> = &mut members[goal as usize];
                *slot = (u64::from(goal) << 32) | list.len() as u64;
                list.push(config as u32);
            }
            (members, place)
        };
        let (members_a, place_a) = per_side(0);
        let (members_b, place_b) = per_side(1);
        Layout {
            groups,
            members: [members_a, members_b],
            place: [place_a, place_b],
            goals,
            symmetric: mirror && space.symmetric(),
        }
    }

    /// The groups to solve, in order: all of them, or with the mirror only those with
    /// A's goal configuration at most B's.
    fn order(&self) -> Vec<Group> {
        let mut order = self.groups.solve_order();
        if self.symmetric {
            order.retain(|g| g.a <= g.b);
        }
        order
    }

    /// Where the values of configurations `a`, `b` with `side` to move are stored: the
    /// group and local index, and whether they are stored as their mirror image (`(b, a)`
    /// with the other side to move, the value negated).
    #[inline(always)]
    fn stored_cell(&self, a: usize, b: usize, side: usize) -> (Group, usize, bool) {
        let (group, local) = self.locate_cell(a, b, side);
        if self.symmetric && group.a > group.b {
            let (image, local) = self.locate_cell(b, a, 1 - side);
            (image, local, true)
        } else {
            (group, local, false)
        }
    }

    /// Whether one roll can lead from group `from` into `to` ([`GoalGroups::reads`]).
    fn reads(&self, from: Group, to: Group) -> bool {
        self.groups.reads(from, to)
    }

    /// Whether a group of `rest` (the groups still to solve) reads the finished `group`,
    /// or, with the mirror, its image (whose values are read through `group`'s).
    fn still_read(&self, rest: &[Group], group: Group) -> bool {
        let image = Group {
            a: group.b,
            b: group.a,
        };
        rest.iter()
            .any(|&r| self.reads(r, group) || (self.symmetric && self.reads(r, image)))
    }

    /// The slot of `group` in per-group arrays.
    fn slot(&self, group: Group) -> usize {
        group.a as usize * self.goals + group.b as usize
    }

    fn geometry(&self, group: Group) -> Geometry<'_> {
        Geometry {
            group,
            a: &self.members[0][group.a as usize],
            b: &self.members[1][group.b as usize],
        }
    }

    /// The group of a joint index and its local index there.
    fn locate(&self, space: &GameSpace, index: usize) -> (Group, usize) {
        let (a, b, side) = space.decode(index);
        self.locate_cell(a, b, side)
    }

    /// The group of configurations `a`, `b` with `side` to move, and its local index there.
    #[inline(always)]
    fn locate_cell(&self, a: usize, b: usize, side: usize) -> (Group, usize) {
        let (pa, pb) = (self.place[0][a], self.place[1][b]);
        let group = Group {
            a: (pa >> 32) as u32,
            b: (pb >> 32) as u32,
        };
        let nb = self.members[1][group.b as usize].len();
        let local = (((pa as u32) as usize * nb + (pb as u32) as usize) << 1) | side;
        (group, local)
    }
}

/// One group's states: `(i, j, side)` for the `i`-th configuration of A and the `j`-th of
/// B with the group's goal configurations, at local index `((i * |b| + j) << 1) | side`.
#[derive(Clone, Copy)]
struct Geometry<'a> {
    group: Group,
    a: &'a [u32],
    b: &'a [u32],
}

impl Geometry<'_> {
    fn len(&self) -> usize {
        self.a.len() * self.b.len() * 2
    }

    /// The decoded joint index of local index `local`.
    #[inline(always)]
    fn at(&self, space: &GameSpace, local: usize) -> At {
        let cell = local >> 1;
        let nb = self.b.len();
        space.at_cell(
            self.a[cell / nb] as usize,
            self.b[cell % nb] as usize,
            local & 1,
        )
    }

    /// Runs `visit(cell)` over the cells of `cells` (a process's share, or all), most
    /// advanced first, a row of A's configuration per unit of parallel work (as
    /// [`GameSpace::for_rows`] does, for the same reason); returns whether any call
    /// returned true.
    fn for_cells_in(&self, cells: Range<usize>, visit: impl Fn(usize) -> bool + Sync) -> bool {
        search::in_order(cells.len(), self.b.len().max(1), false, true, |chunk| {
            let mut any = false;
            for c in chunk {
                any |= visit(cells.start + c);
            }
            any
        })
    }
}

/// The group being solved: the flags and, once classified, the brackets of the states this
/// process owns and of its ghosts (the other processes' states its own lead to, refreshed
/// after every pass of the classification and every sweep).
struct Current<'a, S: Brackets> {
    geometry: Geometry<'a>,
    /// The flags of the states this process owns (`bits[local - own.start]`).
    bits: Vec<AtomicU8>,
    share: Share,
    /// The local indices this process owns (`share.own()`, kept for the hot path).
    own: Range<usize>,
    values: Option<S>,
    /// The ghosts' local indices, ascending (so by owner too), and their brackets.
    ghosts: Vec<usize>,
    ghost_values: S,
    ghost_bits: Vec<AtomicU8>,
    /// `ghost_rows[i]`: the first ghost in row `i` of A's configurations or later, so a
    /// lookup searches one row's ghosts.
    ghost_rows: Vec<u32>,
}

impl<S: Brackets> Current<'_, S> {
    /// The bracket of `local`, owned or a ghost.
    #[inline(always)]
    fn load(&self, local: usize) -> [f64; 2] {
        let values = self
            .values
            .as_ref()
            .expect("the group's brackets exist while it is iterated");
        if self.own.contains(&local) {
            values.load(local - self.own.start)
        } else {
            self.ghost_values.load(self.ghost(local))
        }
    }

    /// The flags of `local`, owned or a ghost.
    #[inline(always)]
    fn bits_at(&self, local: usize) -> &AtomicU8 {
        if self.own.contains(&local) {
            &self.bits[local - self.own.start]
        } else {
            &self.ghost_bits[self.ghost(local)]
        }
    }

    /// The place of `local`, another process's state, among the ghosts.
    #[inline(always)]
    fn ghost(&self, local: usize) -> usize {
        let row = local / (2 * self.geometry.b.len());
        let first = self.ghost_rows[row] as usize;
        let place = self.ghosts[first..self.ghost_rows[row + 1] as usize]
            .binary_search(&local)
            .expect("every state of another process that this one reads is a ghost");
        first + place
    }
}

/// Where a solve reads a state: the group being solved, or a finished one.
struct Reader<'a, S: Brackets> {
    space: &'a GameSpace,
    layout: &'a Layout,
    finished: &'a [Option<Finished>],
    current: &'a Current<'a, S>,
}

impl<S: Brackets> Reader<'_, S> {
    #[inline(always)]
    fn bits(&self, t: CellTarget) -> u8 {
        match t {
            CellTarget::Win(0) => bit::WIN_A,
            CellTarget::Win(_) => bit::WIN_B,
            CellTarget::Next { a, b, side } => {
                let (group, local, mirrored) = self.layout.stored_cell(a, b, side);
                let bits = if group == self.current.geometry.group {
                    self.current.bits_at(local).load(Relaxed)
                } else {
                    self.finished_group(group).bits[local]
                };
                if mirrored { mirror_bits(bits) } else { bits }
            }
        }
    }

    #[inline(always)]
    fn value(&self, t: CellTarget) -> [f64; 2] {
        match t {
            CellTarget::Win(0) => [1.0, 1.0],
            CellTarget::Win(_) => [-1.0, -1.0],
            CellTarget::Next { a, b, side } => {
                let (group, local, mirrored) = self.layout.stored_cell(a, b, side);
                let v = if group == self.current.geometry.group {
                    self.current.load(local)
                } else {
                    self.finished_group(group).bracket(local)
                };
                if mirrored { (MIRROR.map)(v) } else { v }
            }
        }
    }

    #[inline(always)]
    fn finished_group(&self, group: Group) -> &Finished {
        self.finished[self.layout.slot(group)]
            .as_ref()
            .expect("a group's exits are solved before it")
    }

    /// Calls `f(face slot, target)` for every option of every roll at `at`, and for a roll
    /// that moves nothing the state it leaves (the same pieces).
    #[inline(always)]
    fn successors(&self, at: &At, mut f: impl FnMut(usize, CellTarget)) {
        for (k, &(face, _)) in self.space.faces(at.index).iter().enumerate() {
            let n = self.space.cell_options_at(at, k, |_, t| f(k, t));
            if n == 0 {
                let (a, b) = if at.side == 0 {
                    (at.own(), at.other())
                } else {
                    (at.other(), at.own())
                };
                let side = self.space.no_move_target(at.index, face) & 1;
                f(k, CellTarget::Next { a, b, side });
            }
        }
    }
}

/// What the layered solve reports while it runs.
#[derive(Clone, Copy, Debug)]
pub enum LayerProgress<'a> {
    /// A group starts: its place in the order, and how many there are.
    Group {
        /// Its place in the order, from 1.
        number: usize,
        /// Groups in all.
        of: usize,
        /// A's goal configuration.
        goal_a: u32,
        /// B's goal configuration.
        goal_b: u32,
        /// Its states.
        states: u64,
    },
    /// A sweep of the current group ended.
    Sweep {
        /// The sweep's number in the group, from 1.
        sweep: usize,
        /// The widest bracket of the group's states.
        width: f64,
    },
    /// The current group goes on from the checkpoint an earlier run wrote.
    FromCheckpoint {
        /// The sweeps done before it.
        sweep: usize,
        /// Its widest bracket.
        width: f64,
    },
    /// A checkpoint of the current group was written (`Ok`: its bytes), or could not be
    /// (`Err`: why; the group goes on, its checkpoint the one before, if any).
    Checkpoint {
        /// The sweeps it holds.
        sweep: usize,
        /// Its bytes, or why it was not written.
        written: Result<u64, &'a str>,
        /// Seconds it took.
        seconds: f64,
    },
    /// A group is done.
    Done(&'a GroupReport),
    /// Before any group, with `values_out`: the temporary files that runs stopped during a
    /// write left in the folder, removed.
    Leftovers {
        /// How many.
        files: u64,
        /// Their bytes.
        bytes: u64,
    },
    /// Before any group, with `values_out`: what the files still to write take, against
    /// what the disk allows.
    Disk {
        /// The groups without a file in the folder.
        groups: usize,
        /// Their files' bytes.
        files: u64,
        /// The most the folder will hold of what the run writes: the files written up to a
        /// group and what that group keeps beside them while it is solved (its checkpoint,
        /// or the ranks' parts of its file).
        fullest: u64,
        /// What the disk allows (`--max-disk`, else the folder's free space plus the run's
        /// own checkpoints there).
        limit: u64,
        /// Whether `limit` is the free space measured (else `--max-disk`).
        measured: bool,
    },
}

/// The layered solve's answer.
#[derive(Debug)]
pub struct LayeredSolution {
    /// The value `P(A wins) - P(B wins)` under optimal play when A starts.
    pub value_if_a_starts: Bounds,
    /// The same when B starts.
    pub value_if_b_starts: Bounds,
    /// The value with the starting player by the profile.
    pub value: Bounds,
    /// Whether both openings' brackets are at most the tolerance wide.
    pub value_certified: bool,
    /// The figures under optimal play where every play from the openings ends with a win:
    /// P(A wins) = (1 + value) / 2 and P(never) = 0, certified to half the value's width.
    /// `None` where some play can go on forever: the value alone does not give them then.
    pub figures: Option<ExactResult>,
    /// States in end components, over all groups.
    pub end_component_states: u64,
    /// Per group, in the order solved.
    pub groups: Vec<GroupReport>,
    /// The estimated peak bytes the memory check used.
    pub peak_bytes: u64,
    /// Whether some group solved (not read back) kept its brackets in 32 bits to fit the
    /// memory allowed; each group's report says whether it did.
    pub narrow_brackets: bool,
    /// Seconds of the whole solve.
    pub seconds: f64,
}

/// Peak bytes of a layered solve (tables aside), and each group's bytes in `order`: at
/// each group, the finished groups' compact values still read (unless `mapped`: then they
/// are read from their files through the page cache and count only in [`Peak::finished`])
/// and the group's own flags and brackets (in 32 bits where `narrow` says so for the
/// group at that place in `order`, else `f64`; the group shared among `processes`), with
/// `picks` bytes a state for a fixed strategy's moves.
fn peak_bytes(
    layout: &Layout,
    order: &[Group],
    keep_values: bool,
    storage: Storage,
    (processes, narrow, picks): (usize, &[bool], u64),
    (mapped, values_out): (bool, bool),
) -> Option<(Peak, Vec<u64>)> {
    // The finished groups held, as the solve holds them: each while a group still to
    // solve reads it (or to the end, with `keep_values`).
    let mut held: Vec<(Group, u64)> = Vec::new();
    let mut peak = Peak::default();
    let mut each = Vec::with_capacity(order.len());
    for (n, &g) in order.iter().enumerate() {
        let geometry = layout.geometry(g);
        let bracket_bytes = if narrow[n] {
            Fixed32Brackets::BYTES_PER_STATE
        } else {
            Store::<2>::BYTES_PER_STATE
        };
        let len = geometry.len() as u64;
        let finished: u64 = held.iter().map(|&(_, bytes)| bytes).sum();
        // Every process holds the flags and brackets of its share of the rows (its ghosts,
        // known only once planned, are not counted here).
        let rows = geometry.a.len().div_ceil(processes.max(1)) as u64;
        let own = rows.checked_mul(2 * geometry.b.len() as u64)?;
        let working = own.checked_mul(1 + bracket_bytes + picks)?;
        let compact = len.checked_mul(storage.bytes_per_state())?;
        let rest = &order[n + 1..];
        let here = if mapped {
            // Its values go to its file straight from the working brackets.
            working
        } else if keep_values || values_out || layout.still_read(rest, g) {
            // At its end the group is compacted (on every process, whole) while its
            // working brackets still stand.
            finished.checked_add(working)?.checked_add(compact)?
        } else {
            finished.checked_add(working)?
        };
        each.push(here);
        if here > peak.bytes {
            peak = Peak {
                bytes: here,
                group: g,
                states: len,
                finished,
                narrow: narrow[n],
            };
        }
        held.push((g, compact));
        held.retain(|&(h, _)| keep_values || layout.still_read(rest, h));
    }
    let finished: u64 = held.iter().map(|&(_, bytes)| bytes).sum();
    if !mapped && finished > peak.bytes {
        peak.bytes = finished;
    }
    Some((peak, each))
}

/// Where a layered solve needs the most memory.
#[derive(Clone, Copy, Debug, Default)]
struct Peak {
    /// Bytes (tables aside).
    bytes: u64,
    /// The group being solved then, its states, and the bytes of the finished groups held
    /// beside it.
    group: Group,
    states: u64,
    finished: u64,
    /// Whether that group's brackets are counted in 32 bits.
    narrow: bool,
}

/// Every state's certified value bracket after a layered solve, each group compacted:
/// held in memory ([`solve_layered_keeping_values`]) or read from the files of a
/// `--values-out` folder ([`LayeredValues::open`], [`LayeredValues::open_dir`]), each
/// group's file read and checked the first time one of its states is looked up.
pub struct LayeredValues {
    game: self::values_file::GameKey,
    /// The reports of the groups held (from their files' headers where read from files).
    reports: Vec<GroupReport>,
    rules: Rules,
    dice: [Die; 2],
    space: GameSpace,
    layout: Layout,
    /// Per group slot: its values, or where they are.
    groups: Vec<GroupValues>,
}

/// Where the values of one group are.
enum GroupValues {
    /// Not solved (no file).
    Absent,
    /// In memory.
    Held(Finished),
    /// In the file of a values folder (its header checked), read on first use.
    OnDisk {
        dir: std::path::PathBuf,
        body_bytes: u64,
        loaded: std::sync::OnceLock<Finished>,
    },
}

impl LayeredValues {
    /// How many groups hold values, and how many of those are read from mapped files.
    #[cfg(test)]
    fn groups_mapped(&self) -> (usize, usize) {
        let finished: Vec<&Finished> = self
            .groups
            .iter()
            .filter_map(|g| match g {
                GroupValues::Absent => None,
                GroupValues::Held(f) => Some(f),
                GroupValues::OnDisk { loaded, .. } => loaded.get(),
            })
            .collect();
        let mapped = finished
            .iter()
            .filter(|f| {
                f.bits.is_mapped() && matches!(&f.mid, finished::Mids::File(_, b) if b.is_mapped())
            })
            .count();
        (finished.len(), mapped)
    }

    /// The values in the files of `dir` (`solve --layered --values-out DIR`) for the game
    /// of `dice` under `rules` solved to `tolerance`; the files' headers are checked now
    /// ([`self::values_file`]), each body when first read. Groups without a file have no
    /// values; a folder without any group file is refused.
    pub fn open(
        dir: &std::path::Path,
        rules: &Rules,
        dice: [&Die; 2],
        tolerance: f64,
    ) -> Result<LayeredValues, ExactError> {
        let game = self::values_file::GameKey::new(rules, dice, tolerance);
        LayeredValues::open_keyed(dir, rules, dice, game)
    }

    /// The values in the files of `dir` made by a layered solve with a fixed strategy
    /// (`solve --layered --strategy-a NAME --values-out DIR`): the values of the pair
    /// played, and the names of A's and B's strategies (`optimal` for a side that is).
    /// Folders of optimal play are refused here (they open with [`LayeredValues::open`]).
    pub fn open_pair(dir: &std::path::Path) -> Result<(LayeredValues, [String; 2]), ExactError> {
        let game = self::values_file::game_in(dir)?;
        let Some(strategies) = game.strategies.clone() else {
            return Err(ExactError::ValuesFile(format!(
                "{}: the values of optimal play, not of a fixed strategy's pair",
                dir.display()
            )));
        };
        let (rules, dice) = LayeredValues::rules_of(dir, &game)?;
        let values = LayeredValues::open_keyed(dir, &rules, [&dice[0], &dice[1]], game)?;
        Ok((values, strategies))
    }

    /// [`LayeredValues::open`] for the game `game` names.
    fn open_keyed(
        dir: &std::path::Path,
        rules: &Rules,
        dice: [&Die; 2],
        game: self::values_file::GameKey,
    ) -> Result<LayeredValues, ExactError> {
        super::solve::check_profile(rules)?;
        let space = GameSpace::tables_only(rules, dice)
            .ok_or_else(|| ExactError::TooLarge("the joint index overflows".into()))?;
        // A fixed strategy's values are solved without the mirror.
        let layout = Layout::new(rules, &space, game.strategies.is_none());
        let tolerance = game.tolerance;
        let storage = Storage::for_tolerance(tolerance);
        let mut groups: Vec<GroupValues> = (0..layout.goals * layout.goals)
            .map(|_| GroupValues::Absent)
            .collect();
        let mut reports = Vec::new();
        for group in layout.order() {
            let states = layout.geometry(group).len();
            if let Some(header) =
                self::values_file::read_header(dir, &game, group, states, storage)?
            {
                reports.push(header.group);
                groups[layout.slot(group)] = GroupValues::OnDisk {
                    dir: dir.to_path_buf(),
                    body_bytes: header.body_bytes,
                    loaded: std::sync::OnceLock::new(),
                };
            }
        }
        if reports.is_empty() {
            return Err(ExactError::ValuesFile(format!(
                "{}: expected group files (group-a*-b*.values) of {}, found none",
                dir.display(),
                game
            )));
        }
        Ok(LayeredValues {
            game,
            reports,
            rules: *rules,
            dice: [dice[0].clone(), dice[1].clone()],
            space,
            layout,
            groups,
        })
    }

    /// [`LayeredValues::open`] for the game the files of `dir` name (board, profile, dice
    /// and tolerance, the same in every file).
    pub fn open_dir(dir: &std::path::Path) -> Result<LayeredValues, ExactError> {
        let (rules, dice, tolerance) = LayeredValues::game_of(dir)?;
        LayeredValues::open(dir, &rules, [&dice[0], &dice[1]], tolerance)
    }

    /// The file of the openings' group (the core, where neither side has a piece home) in
    /// the values folder `dir`: there only where the whole game was solved.
    pub fn openings_file(dir: &std::path::Path) -> std::path::PathBuf {
        self::values_file::path_of(dir, Group { a: 0, b: 0 })
    }

    /// The game the files of `dir` name: its rules, dice and tolerance (read from the first
    /// file's header; [`LayeredValues::open`] checks every file against it).
    pub fn game_of(dir: &std::path::Path) -> Result<(Rules, [Die; 2], f64), ExactError> {
        let game = self::values_file::game_in(dir)?;
        if let Some([a, b]) = &game.strategies {
            return Err(ExactError::ValuesFile(format!(
                "{}: the game its files name: A playing {a}, B playing {b}: its values are that \
                 pair's, not optimal play's",
                dir.display()
            )));
        }
        let (rules, dice) = LayeredValues::rules_of(dir, &game)?;
        Ok((rules, dice, game.tolerance))
    }

    /// The rules and dice `game` (read from the files of `dir`) names.
    fn rules_of(
        dir: &std::path::Path,
        game: &self::values_file::GameKey,
    ) -> Result<(Rules, [Die; 2]), ExactError> {
        let invalid = |what: String| {
            ExactError::ValuesFile(format!(
                "{}: the game its files name: {what}",
                dir.display()
            ))
        };
        let board: crate::rules::Board = game
            .board
            .parse()
            .map_err(|e| invalid(format!("board: {e}")))?;
        let profile: crate::rules::Profile = game
            .profile
            .parse()
            .map_err(|e| invalid(format!("profile: {e}")))?;
        let die = |text: &str| -> Result<Die, ExactError> {
            text.parse().map_err(|e| invalid(format!("die: {e}")))
        };
        let dice = [die(&game.dice[0])?, die(&game.dice[1])?];
        Ok((Rules::new(board, profile), dice))
    }

    /// The reports of the groups held, as their solve made them.
    pub fn reports(&self) -> &[GroupReport] {
        &self.reports
    }

    /// What the whole solve that made the values gives at the openings; `None` where they
    /// do not hold the openings' group (the values of a `--part`). With `swapped`, for the
    /// game with the dice the other way round (B's die as A): each opening is then the
    /// other's, its value negated.
    pub fn at_openings(&self, swapped: bool) -> Result<Option<OpeningValues>, ExactError> {
        let mut openings = [([0.0; 2], 0u8); 2];
        for (side, index) in self.space.openings().into_iter().enumerate() {
            let (a, b, mover) = self.space.decode(index);
            let (group, local, mirrored) = self.layout.stored_cell(a, b, mover);
            let Some(finished) = self.finished(group)? else {
                return Ok(None);
            };
            let v = finished.bracket(local);
            let v = if mirrored { (MIRROR.map)(v) } else { v };
            openings[side] = (v, finished.bits[local]);
        }
        let dice = [&self.dice[0], &self.dice[1]];
        let (dice, openings) = if swapped {
            let [(a, fa), (b, fb)] = openings;
            let negated = |[lo, hi]: [f64; 2]| [-hi, -lo];
            ([dice[1], dice[0]], [(negated(b), fb), (negated(a), fa)])
        } else {
            (dice, openings)
        };
        let seconds: f64 = self.reports.iter().map(|r| r.seconds).sum();
        at_openings(
            &self.rules,
            dice,
            openings,
            &self.space,
            &self.reports,
            (0, 0.0, seconds),
        )
        .map(Some)
    }

    /// The rules of the game the values belong to.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// Die A and die B of that game.
    pub fn dice(&self) -> [&Die; 2] {
        [&self.dice[0], &self.dice[1]]
    }

    /// Refuses a game other than the values': board, profile, die A and die B, naming both
    /// games.
    pub fn check_game(&self, rules: &Rules, dice: [&Die; 2]) -> Result<(), String> {
        if &self.rules == rules && self.dice() == dice {
            return Ok(());
        }
        Err(format!(
            "the files hold the game {}; this one is {} against {} on {} under {}",
            self.game,
            dice[0],
            dice[1],
            rules.board(),
            rules.profile()
        ))
    }

    /// The tolerance the groups were solved to (each group's brackets are at most this
    /// wide wherever the group was certified).
    pub fn tolerance(&self) -> f64 {
        self.game.tolerance
    }

    /// The game, as the files name it.
    pub fn game(&self) -> &self::values_file::GameKey {
        &self.game
    }

    /// The bytes [`LayeredValues::load_all`] would keep in this process's own memory: none
    /// where the files are mapped (on unix: the system's page cache holds their pages and
    /// gives them back when memory is short, so a folder larger than the memory is read as
    /// it is used), else [`LayeredValues::bytes_on_disk`], read whole.
    pub fn bytes_held_when_loaded(&self) -> u64 {
        if cfg!(unix) { 0 } else { self.bytes_on_disk() }
    }

    /// Bytes of the groups still on disk, not yet read.
    pub fn bytes_on_disk(&self) -> u64 {
        self.groups
            .iter()
            .map(|g| match g {
                GroupValues::OnDisk {
                    body_bytes, loaded, ..
                } if loaded.get().is_none() => *body_bytes,
                _ => 0,
            })
            .sum()
    }

    /// How many groups have values (held or in a file), and how many groups the game has
    /// (with the same die on both sides of a symmetric board, one of each mirrored pair).
    pub fn groups_held(&self) -> (usize, usize) {
        let order = self.layout.order();
        let held = order
            .iter()
            .filter(|&&g| !matches!(self.groups[self.layout.slot(g)], GroupValues::Absent))
            .count();
        (held, order.len())
    }

    /// These values with every group outside `part` dropped, as if the folder held that
    /// part alone: a folder of the part outside the core read as the part where both sides
    /// have a piece home, to be graded with that part's best responses.
    pub fn restricted_to(mut self, part: Part) -> LayeredValues {
        for group in self.layout.order() {
            if !part.holds(group) {
                self.groups[self.layout.slot(group)] = GroupValues::Absent;
            }
        }
        self.reports.retain(|r| {
            part.holds(Group {
                a: r.goal_a,
                b: r.goal_b,
            })
        });
        self
    }

    /// Reads and checks every group file now, so that no lookup reads one later.
    pub fn load_all(&self) -> Result<(), ExactError> {
        for group in self.layout.order() {
            self.finished(group)?;
        }
        Ok(())
    }

    /// Whether the values hold the state at joint index `index` (its group was solved).
    pub fn covers(&self, index: usize) -> bool {
        let (a, b, side) = self.space.decode(index);
        let (group, _, _) = self.layout.stored_cell(a, b, side);
        !matches!(self.groups[self.layout.slot(group)], GroupValues::Absent)
    }

    /// The values of `group`: read from its file the first time.
    fn finished(&self, group: Group) -> Result<Option<&Finished>, ExactError> {
        match &self.groups[self.layout.slot(group)] {
            GroupValues::Absent => Ok(None),
            GroupValues::Held(f) => Ok(Some(f)),
            GroupValues::OnDisk { dir, loaded, .. } => {
                if let Some(f) = loaded.get() {
                    return Ok(Some(f));
                }
                let states = self.layout.geometry(group).len();
                let storage = Storage::for_tolerance(self.game.tolerance);
                let (_, done) = self::values_file::read(dir, &self.game, group, states, storage)?
                    .ok_or_else(|| {
                    ExactError::ValuesFile(format!(
                        "{}: removed after the folder was opened",
                        self::values_file::path_of(dir, group).display()
                    ))
                })?;
                // Two threads may read the same file at once; either copy is the same.
                let _ = loaded.set(done);
                Ok(loaded.get())
            }
        }
    }

    /// The certified bracket of the value `P(A wins) - P(B wins)` under optimal play at
    /// joint index `index` of [`LayeredValues::space`]; `None` if its group has no values.
    pub fn bracket_at(&self, index: usize) -> Result<Option<Bounds>, ExactError> {
        let (a, b, side) = self.space.decode(index);
        let (group, local, mirrored) = self.layout.stored_cell(a, b, side);
        let Some(finished) = self.finished(group)? else {
            return Ok(None);
        };
        let v = finished.bracket(local);
        let [lo, hi] = if mirrored { (MIRROR.map)(v) } else { v };
        Ok(Some(Bounds { lo, hi }))
    }

    /// [`LayeredValues::bracket_at`] of a position; `None` also where a configuration is
    /// not one of the game (the dice cannot reach it).
    pub fn bracket(&self, state: &crate::rules::GameState) -> Result<Option<Bounds>, ExactError> {
        match self.space.encode(state) {
            Some(index) => self.bracket_at(index),
            None => Ok(None),
        }
    }

    /// The state space (tables) the values are indexed by.
    pub fn space(&self) -> &GameSpace {
        &self.space
    }
}

/// Which groups a layered solve covers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    /// Every group: the value at the openings.
    All,
    /// Every group in which at least one side has a piece home (all but the core).
    OutsideCore,
    /// The groups in which both sides have a piece home (they read no other group).
    BothHome,
}

impl Part {
    /// Every part, in the order of [`Part::name`]s the command line lists.
    pub const ALL: [Part; 3] = [Part::All, Part::OutsideCore, Part::BothHome];

    /// The name on the command line (`--part`): `all`, `outside-core`, `both-home`.
    pub fn name(self) -> &'static str {
        match self {
            Part::All => "all",
            Part::OutsideCore => "outside-core",
            Part::BothHome => "both-home",
        }
    }

    /// The part of a [`Part::name`].
    pub fn named(name: &str) -> Option<Part> {
        Part::ALL.into_iter().find(|part| part.name() == name)
    }

    /// Whether the part holds `group`.
    pub fn holds(self, group: Group) -> bool {
        match self {
            Part::All => true,
            Part::OutsideCore => !group.is_core(),
            Part::BothHome => group.a != 0 && group.b != 0,
        }
    }
}

/// How a layered solve runs.
#[derive(Clone, Copy)]
pub struct LayeredRun<'a> {
    /// The groups solved.
    pub part: Part,
    /// Keep every group's values for looking positions up ([`LayeredValues`]).
    pub keep_values: bool,
    /// Write each solved group into this folder, and read back the groups found there
    /// instead of solving them again (a stopped solve goes on where it stopped).
    pub values_out: Option<&'a std::path::Path>,
    /// Hears each group and sweep.
    pub observer: &'a (dyn Fn(LayerProgress<'_>) + Sync),
    /// The processes the solve runs on ([`OneProcess`], or MPI's ranks): each group's
    /// states are split among them.
    pub cluster: &'a dyn Cluster,
    /// A's and B's fixed strategies (`None`: the side optimises). With a fixed side the
    /// values are those of the pair played (a fixed side against an optimal one: its best
    /// response), solved without the mirror and on one process.
    pub fixed: [Option<FixedSide<'a>>; 2],
    /// With `values_out`, on one process: write a checkpoint of the group being solved
    /// whenever this long has passed since its start or its last checkpoint (checked after
    /// each sweep), and go on from a checkpoint found there. `None`: never.
    pub checkpoint_every: Option<std::time::Duration>,
    /// With `values_out`: the bytes its files may take at the fullest (`None`: the folder's
    /// free space, plus the checkpoints there that the run replaces). A run whose files need
    /// more is refused before any work ([`ExactError::Disk`]).
    pub max_disk: Option<u64>,
}

/// A side that plays a fixed strategy in a layered solve.
#[derive(Clone, Copy)]
pub struct FixedSide<'a> {
    /// Its moves.
    pub policy: &'a dyn MovePolicy,
    /// Its name, which the values files record.
    pub name: &'a str,
}

impl LayeredRun<'_> {
    /// The key of the values of this run's game: `dice` under `rules` to `tolerance`,
    /// played as the run's sides play.
    fn game_key(&self, rules: &Rules, dice: [&Die; 2], tolerance: f64) -> values_file::GameKey {
        let names = self.fixed.map(|f| f.map_or("optimal", |f| f.name));
        values_file::GameKey::new(rules, dice, tolerance).with_strategies(names)
    }
}

/// Solves the value of the game with both sides optimal, group by group. `observer` hears
/// each group and sweep.
pub fn solve_layered(
    rules: &Rules,
    dice: [&Die; 2],
    options: &SolveOptions,
    observer: &(dyn Fn(LayerProgress<'_>) + Sync),
) -> Result<LayeredSolution, ExactError> {
    let run = LayeredRun {
        part: Part::All,
        keep_values: false,
        values_out: None,
        observer,
        cluster: &OneProcess,
        fixed: [None, None],
        checkpoint_every: None,
        max_disk: None,
    };
    solve_layered_with(rules, dice, options, &run).map(|(solution, _)| solution)
}

/// [`solve_layered`], every group's values kept (compacted, the core too) for looking up
/// positions.
pub fn solve_layered_keeping_values(
    rules: &Rules,
    dice: [&Die; 2],
    options: &SolveOptions,
    observer: &(dyn Fn(LayerProgress<'_>) + Sync),
) -> Result<(LayeredSolution, LayeredValues), ExactError> {
    let run = LayeredRun {
        part: Part::All,
        keep_values: true,
        values_out: None,
        observer,
        cluster: &OneProcess,
        fixed: [None, None],
        checkpoint_every: None,
        max_disk: None,
    };
    let (solution, values) = solve_layered_with(rules, dice, options, &run)?;
    Ok((solution, values.expect("kept when asked")))
}

/// [`solve_layered`] of every group, run as `run` says (its part must be [`Part::All`]).
pub fn solve_layered_with(
    rules: &Rules,
    dice: [&Die; 2],
    options: &SolveOptions,
    run: &LayeredRun<'_>,
) -> Result<(LayeredSolution, Option<LayeredValues>), ExactError> {
    let solved = solve_groups(rules, dice, options, run)?;
    let Some(openings) = solved.openings else {
        return Err(ExactError::Profile(
            "the openings' group was not solved: only a whole solve gives the value".into(),
        ));
    };
    let reports = &solved.outcome.groups;
    let seconds = solved.outcome.seconds;
    let at = at_openings(
        rules,
        dice,
        openings,
        &solved.space,
        reports,
        (
            solved.outcome.peak_bytes,
            solved.build_seconds,
            seconds - solved.build_seconds,
        ),
    )?;
    let solution = LayeredSolution {
        value: at.value,
        figures: at.figures,
        value_certified: at
            .value_if_a_starts
            .width()
            .max(at.value_if_b_starts.width())
            <= options.tolerance,
        value_if_a_starts: at.value_if_a_starts,
        value_if_b_starts: at.value_if_b_starts,
        end_component_states: reports.iter().map(|r| r.end_component_states).sum(),
        groups: solved.outcome.groups.clone(),
        peak_bytes: solved.outcome.peak_bytes,
        narrow_brackets: solved.outcome.narrow_brackets,
        seconds,
    };
    let values = run.keep_values.then(|| LayeredValues {
        game: run.game_key(rules, dice, options.tolerance),
        reports: solved.outcome.groups,
        rules: *rules,
        dice: [dice[0].clone(), dice[1].clone()],
        space: solved.space,
        layout: solved.layout,
        groups: solved
            .finished
            .into_iter()
            .map(|f| f.map_or(GroupValues::Absent, GroupValues::Held))
            .collect(),
    });
    Ok((solution, values))
}

/// What a solve of some of the groups did ([`solve_layers`]).
#[derive(Clone, Debug, serde::Serialize)]
pub struct LayersOutcome {
    /// Per group, in the order solved (or read back).
    pub groups: Vec<GroupReport>,
    /// How finished groups keep their midpoints.
    pub storage: Storage,
    /// Whether every group's widest bracket is at most the tolerance.
    pub certified: bool,
    /// The estimated peak bytes the memory check used.
    pub peak_bytes: u64,
    /// Whether the finished groups were read from their files, mapped, to fit the memory
    /// allowed.
    pub finished_mapped: bool,
    /// Whether some group solved (not read back) kept its brackets in 32 bits to fit the
    /// memory allowed; each group's report says whether it did.
    pub narrow_brackets: bool,
    /// Seconds of the whole run.
    pub seconds: f64,
}

/// What a whole solve gives at the openings.
#[derive(Clone, Debug)]
pub struct OpeningValues {
    /// The value `P(A wins) - P(B wins)` under optimal play when A starts.
    pub value_if_a_starts: Bounds,
    /// The same when B starts.
    pub value_if_b_starts: Bounds,
    /// The value with the starting player by the profile.
    pub value: Bounds,
    /// The figures where every play from the openings ends with a win (see
    /// [`LayeredSolution::figures`]).
    pub figures: Option<ExactResult>,
}

/// The openings' brackets and flags (A starts, B starts) as a whole solve's answer: the
/// figures certified to half the value's width where no play from them goes on forever.
/// `reports` are the solve's groups; `(peak_bytes, build_seconds, solve_seconds)` its costs.
fn at_openings(
    rules: &Rules,
    dice: [&Die; 2],
    openings: [([f64; 2], u8); 2],
    space: &GameSpace,
    reports: &[GroupReport],
    (peak_bytes, build_seconds, solve_seconds): (u64, f64, f64),
) -> Result<OpeningValues, ExactError> {
    let w = crate::exact::shared::p_a_starts(rules, dice[0], dice[1])?;
    let [va, vb] = openings.map(|(v, _)| value_bounds(v));
    let [sa, sb] = [&va, &vb].map(figures_from_value);
    let every_play_wins = openings.iter().all(|(_, b)| b & bit::ENDLESS == 0);
    let figures = every_play_wins.then(|| {
        ExactResult::from_bounds(
            w,
            ResultBounds::from_openings(w, sa.to_array(), sb.to_array()),
            SolveStats {
                configs: space.players.each_ref().map(|p| p.configs.len() as u64),
                product: space.len() as u64,
                states: reports.iter().map(|r| r.states).sum(),
                never_states: 0,
                transitions: 0,
                self_loops: 0,
                iterations: reports.iter().map(|r| r.sweeps).sum(),
                memory_bytes: peak_bytes,
                build_seconds,
                solve_seconds,
            },
        )
    });
    Ok(OpeningValues {
        value: va.mix(w, &vb),
        figures,
        value_if_a_starts: va,
        value_if_b_starts: vb,
    })
}

/// Solves the groups of `run.part` (every group's bracket certified at every state),
/// writing them to `run.values_out` if given and reading back those already there.
pub fn solve_layers(
    rules: &Rules,
    dice: [&Die; 2],
    options: &SolveOptions,
    run: &LayeredRun<'_>,
) -> Result<LayersOutcome, ExactError> {
    solve_groups(rules, dice, options, run).map(|s| s.outcome)
}

/// The result of [`solve_groups`].
struct Solved {
    outcome: LayersOutcome,
    build_seconds: f64,
    /// The openings' brackets and flags, where their group was solved.
    openings: Option<[([f64; 2], u8); 2]>,
    space: GameSpace,
    layout: Layout,
    finished: Vec<Option<Finished>>,
}

fn solve_groups(
    rules: &Rules,
    dice: [&Die; 2],
    options: &SolveOptions,
    run: &LayeredRun<'_>,
) -> Result<Solved, ExactError> {
    let started = Instant::now();
    let observer = run.observer;
    let keep_values = run.keep_values;
    let cluster = run.cluster;
    options.validate().map_err(ExactError::Options)?;
    super::solve::check_profile(rules)?;
    crate::exact::shared::memory::check_enumeration(rules, &dice, options.max_memory)?;
    let space = GameSpace::tables_only(rules, dice)
        .ok_or_else(|| ExactError::TooLarge("the joint index overflows".into()))?;
    let fixed = run.fixed.map(|f| f.map(|f| f.policy));
    if cluster.size() > 1 && fixed.iter().any(Option::is_some) {
        return Err(ExactError::Ranks(
            "a fixed strategy is solved on one process: run it without mpirun".into(),
        ));
    }
    // A fixed strategy is not its own mirror image's: the mirror only with both optimal.
    let layout = Layout::new(rules, &space, fixed.iter().all(Option::is_none));
    let mut order = layout.order();
    order.retain(|&g| run.part.holds(g));
    let storage = Storage::for_tolerance(options.tolerance);
    let tables = space.players[0].heap_bytes() + space.players[1].heap_bytes();
    let plan_of = |mapped: bool, narrow: &[bool]| -> Result<(Peak, Vec<u64>), ExactError> {
        let overflow = || ExactError::TooLarge("the memory estimate overflows".into());
        let (plan, each) = peak_bytes(
            &layout,
            &order,
            keep_values,
            storage,
            (
                cluster.size(),
                narrow,
                Picks::bytes_per_state(&space, fixed),
            ),
            (mapped, run.values_out.is_some()),
        )
        .ok_or_else(overflow)?;
        let with_tables = |bytes: u64| bytes.checked_add(tables).ok_or_else(overflow);
        let plan = Peak {
            bytes: with_tables(plan.bytes)?,
            ..plan
        };
        let each = each
            .into_iter()
            .map(with_tables)
            .collect::<Result<_, _>>()?;
        Ok((plan, each))
    };
    // Where the solve does not fit in memory as it is fastest, it saves memory in two ways,
    // each only if still needed: with --values-out, each group is written to its file from
    // its working brackets and the finished groups are read from their files, mapped (the
    // sweeps read them faster from memory of their own); and where the tolerance allows,
    // each group that does not fit otherwise keeps its brackets in 32 bits (they cost the
    // group sweeps, and its last width, so the groups that fit in `f64` keep those).
    let fits = |bytes: u64| options.max_memory.is_none_or(|limit| bytes <= limit);
    let can_map = cfg!(unix) && run.values_out.is_some();
    let can_narrow = options.tolerance >= self::brackets::NARROW_FROM;
    let mut mapped = false;
    let mut narrow = vec![false; order.len()];
    let (mut plan, mut each) = plan_of(mapped, &narrow)?;
    if !fits(plan.bytes) && can_map {
        mapped = true;
        (plan, each) = plan_of(mapped, &narrow)?;
    }
    if !fits(plan.bytes) && can_narrow {
        // Narrowing a group changes its own bytes only, so one pass decides every group.
        narrow = each.iter().map(|&bytes| !fits(bytes)).collect();
        (plan, _) = plan_of(mapped, &narrow)?;
    }
    let peak = plan.bytes;
    if let Some(limit) = options.max_memory
        && peak > limit
    {
        return Err(ExactError::GroupMemory {
            goal_a: plan.group.a,
            goal_b: plan.group.b,
            states: plan.states,
            finished_bytes: plan.finished,
            finished_mapped: mapped,
            narrow_brackets: plan.narrow,
            bytes: peak,
            limit,
            core_last: plan.group.is_core() && run.part == Part::All,
            ranks: cluster.size(),
        });
    }
    let game = run.game_key(rules, dice, options.tolerance);
    // Held until the run returns: no other run writes into the folder meanwhile.
    let _folder_lock = match run.values_out {
        None => None,
        Some(dir) => {
            let made = !dir.exists();
            std::fs::create_dir_all(dir)
                .map_err(|e| ExactError::Write(format!("--values-out: {}: {e}", dir.display())))?;
            let taken = take_folder(dir, run).and_then(|lock| {
                check_disk(dir, &layout, &order, (storage, &game), run)?;
                Ok(lock)
            });
            // A refused run leaves nothing behind, not even an empty folder of its own.
            if taken.is_err() && made {
                let _ = std::fs::remove_dir(dir);
            }
            taken?
        }
    };
    let mut finished: Vec<Option<Finished>> =
        (0..layout.goals * layout.goals).map(|_| None).collect();
    let mut reports: Vec<GroupReport> = Vec::with_capacity(order.len());
    let openings = space.openings();
    let mut opening_values: [Option<([f64; 2], u8)>; 2] = [None, None];
    let watched = openings.map(|o| layout.locate(&space, o));
    let build_seconds = started.elapsed().as_secs_f64();
    for (number, &group) in order.iter().enumerate() {
        let began = Instant::now();
        let geometry = layout.geometry(group);
        observer(LayerProgress::Group {
            number: number + 1,
            of: order.len(),
            goal_a: group.a,
            goal_b: group.b,
            states: geometry.len() as u64,
        });
        let image = Group {
            a: group.b,
            b: group.a,
        };
        let read_later = order[number + 1..]
            .iter()
            .any(|&g| layout.reads(g, group) || (layout.symmetric && layout.reads(g, image)));
        let kept = keep_values || read_later;
        let stored = match run.values_out {
            Some(dir) => self::values_file::read(dir, &game, group, geometry.len(), storage)?,
            None => None,
        };
        // Every rank must go on alike: all read the group back, or all solve it.
        if cluster.size() > 1 {
            let found = f64::from(u8::from(stored.is_some()));
            let missing = f64::from(u8::from(stored.is_none()));
            if cluster.max(found)? == cluster.max(missing)? {
                return Err(ExactError::Ranks(format!(
                    "some ranks found the file of group {}/{} in --values-out and some did not: \
                     the ranks must share one folder",
                    number + 1,
                    order.len()
                )));
            }
        }
        if let Some((report, done)) = stored {
            // A checkpoint left beside a finished group (a run stopped between the two).
            if let Some(dir) = run.values_out
                && cluster.rank() == 0
            {
                self::values_file::remove_checkpoint(dir, group)?;
            }
            let done = if mapped { done } else { done.in_memory() };
            for (side, &(g, local)) in watched.iter().enumerate() {
                if g == group {
                    opening_values[side] = Some((done.bracket(local), done.bits[local]));
                }
            }
            observer(LayerProgress::Done(&report));
            reports.push(report);
            if kept {
                finished[layout.slot(group)] = Some(done);
            }
            release_unread(&layout, &order[number + 1..], &mut finished, keep_values);
            continue;
        }
        // The last group, read by no other: where its values are neither kept nor
        // written, only the openings' brackets need reach the tolerance (as in the global
        // solver).
        let compact = match run.values_out {
            Some(dir) if mapped => Compact::ToFile(dir, &game),
            Some(_) => Compact::InMemory,
            None if kept => Compact::InMemory,
            None => Compact::Nothing,
        };
        let checkpoint = match (run.values_out, run.checkpoint_every) {
            (Some(dir), Some(every)) if cluster.size() == 1 => Some(Checkpointing {
                dir,
                game: &game,
                every,
            }),
            _ => None,
        };
        let job = GroupJob {
            checkpoint,
            space: &space,
            layout: &layout,
            finished: &finished,
            options,
            cluster,
            reports: &reports,
            watched,
            watch_openings: number + 1 == order.len() && !keep_values && run.values_out.is_none(),
            fixed,
            compact,
            storage,
            observer,
        };
        let (report, done, watched_values) = if narrow[number] {
            solve_group::<Fixed32Brackets>(&job, group, began)?
        } else {
            solve_group::<Store<2>>(&job, group, began)?
        };
        for (side, v) in watched_values.into_iter().enumerate() {
            if v.is_some() {
                opening_values[side] = v;
            }
        }
        match done {
            Done::Nothing => {}
            Done::InMemory(done) => {
                // One rank writes the file the ranks share.
                if let Some(dir) = run.values_out {
                    let written = if cluster.rank() == 0 {
                        self::values_file::write(dir, &game, &report, &done)
                    } else {
                        Ok(())
                    };
                    on_every_rank(cluster, written, "write the group's file")?;
                }
                if kept {
                    finished[layout.slot(group)] = Some(done);
                }
            }
            Done::Written(dir) => {
                // Read back from the file just written, mapped: the group then costs memory
                // only as the page cache keeps it (and the file is checked once more).
                if kept {
                    let (_, done) =
                        self::values_file::read(dir, &game, group, geometry.len(), storage)?
                            .ok_or_else(|| {
                                ExactError::ValuesFile(format!(
                                    "{}: written a moment ago, and gone",
                                    values_file::path_of(dir, group).display()
                                ))
                            })?;
                    finished[layout.slot(group)] = Some(done);
                }
            }
        }
        if let Some(dir) = run.values_out
            && cluster.rank() == 0
        {
            self::values_file::remove_checkpoint(dir, group)?;
        }
        observer(LayerProgress::Done(&report));
        reports.push(report);
        release_unread(&layout, &order[number + 1..], &mut finished, keep_values);
    }
    let openings = match opening_values {
        [Some(a), Some(b)] => Some([a, b]),
        _ => None,
    };
    let certified = reports.iter().all(|r| r.width <= options.tolerance);
    let narrow_brackets = reports
        .iter()
        .any(|r| !r.resumed && r.narrow_brackets == Some(true));
    Ok(Solved {
        outcome: LayersOutcome {
            groups: reports,
            storage,
            certified,
            peak_bytes: peak,
            finished_mapped: mapped,
            narrow_brackets,
            seconds: started.elapsed().as_secs_f64(),
        },
        build_seconds,
        openings,
        space,
        layout,
        finished,
    })
}

/// Where and how often a group's checkpoints are written.
#[derive(Clone, Copy)]
struct Checkpointing<'a> {
    dir: &'a Path,
    game: &'a self::values_file::GameKey,
    every: std::time::Duration,
}

/// What [`solve_group`] reads of the solve around it.
struct GroupJob<'a> {
    /// With `--values-out` on one process: the group's checkpoints.
    checkpoint: Option<Checkpointing<'a>>,
    space: &'a GameSpace,
    layout: &'a Layout,
    finished: &'a [Option<Finished>],
    options: &'a SolveOptions,
    cluster: &'a dyn Cluster,
    /// The groups solved so far (whether an exit of this group is wider than the target).
    reports: &'a [GroupReport],
    /// The openings' groups and local indices.
    watched: [(Group, usize); 2],
    /// Only the openings' brackets need reach the tolerance in this group (the last, its
    /// values neither kept nor written), where it holds them.
    watch_openings: bool,
    /// A's and B's fixed strategies (`None`: optimal).
    fixed: [Option<&'a dyn MovePolicy>; 2],
    /// What becomes of the group's values.
    compact: Compact<'a>,
    storage: Storage,
    observer: &'a (dyn Fn(LayerProgress<'_>) + Sync),
}

/// What becomes of a group's values once it is solved.
#[derive(Clone, Copy)]
enum Compact<'a> {
    /// Nothing: they are neither kept nor written.
    Nothing,
    /// Compacted in memory (on every process, whole), to be kept or written from there.
    InMemory,
    /// Written to the group's file in the folder straight from the working brackets (each
    /// process its share's part, joined by the first), where the finished groups are read
    /// from their files, mapped.
    ToFile(&'a Path, &'a self::values_file::GameKey),
}

/// A solved group's values, as [`Compact`] asked.
enum Done<'a> {
    Nothing,
    InMemory(Finished),
    /// In its file in this folder.
    Written(&'a Path),
}

/// The openings' brackets and flags found in a group, by side.
type Openings = [Option<([f64; 2], u8)>; 2];

/// Takes the folder `dir` of `--values-out` for the run: the rank 0 locks it and removes
/// what runs stopped during a write left there, before any rank plans its disk or writes
/// (every rank waits for that here). The lock, on the rank that holds it.
fn take_folder(
    dir: &Path,
    run: &LayeredRun<'_>,
) -> Result<Option<self::folder::FolderLock>, ExactError> {
    let taken = if run.cluster.rank() == 0 {
        self::folder::take(dir).map(|(lock, leftovers)| {
            if leftovers.files > 0 {
                (run.observer)(LayerProgress::Leftovers {
                    files: leftovers.files,
                    bytes: leftovers.bytes,
                });
            }
            Some(lock)
        })
    } else {
        Ok(None)
    };
    on_every_rank(run.cluster, taken, "take the folder of --values-out")
}

/// Refuses a run whose files in `dir` need more than the disk allows (`run.max_disk`, else
/// the folder's free space): the groups of `order` without a file there, each written at
/// `storage`'s bytes a state, each beside the checkpoint (or the ranks' parts) it keeps
/// until its file is written. Tells the observer the plan.
fn check_disk(
    dir: &Path,
    layout: &Layout,
    order: &[Group],
    (storage, game): (Storage, &values_file::GameKey),
    run: &LayeredRun<'_>,
) -> Result<(), ExactError> {
    let unreadable = |path: &Path, e: std::io::Error| {
        ExactError::Write(format!("--values-out: {}: {e}", path.display()))
    };
    let mut to_write = Vec::new();
    let mut checkpoints = 0u64;
    for &group in order {
        let file = values_file::path_of(dir, group);
        if file.try_exists().map_err(|e| unreadable(&file, e))? {
            continue;
        }
        to_write.push(layout.geometry(group).len() as u64);
        let checkpoint = values_file::checkpoint_path(dir, group);
        match std::fs::metadata(&checkpoint) {
            Ok(m) => checkpoints = checkpoints.saturating_add(m.len()),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(unreadable(&checkpoint, e)),
        }
    }
    let per_state = storage.bytes_per_state();
    let transient_per_state = match (run.cluster.size(), run.checkpoint_every) {
        (1, Some(_)) => values_file::checkpoint_bytes_per_state(storage),
        (1, None) => 0,
        _ => per_state,
    };
    let game_json = serde_json::to_vec(game).map_or(0, |json| json.len());
    let need = disk::need(
        &to_write,
        per_state,
        transient_per_state,
        disk::header_bytes(game_json),
    )
    .ok_or_else(|| ExactError::TooLarge("the disk estimate overflows".into()))?;
    let limit = match run.max_disk {
        Some(bytes) => Some((bytes, false)),
        // What the run's own checkpoints hold is freed as it goes (each removed before the
        // next is written, and with its group's file).
        None => disk::free_bytes(dir)
            .map_err(|e| unreadable(dir, e))?
            .map(|free| (free.saturating_add(checkpoints), true)),
    };
    let Some((limit, measured)) = limit else {
        return Ok(());
    };
    if need.groups == 0 {
        return Ok(());
    }
    (run.observer)(LayerProgress::Disk {
        groups: need.groups,
        files: need.files,
        fullest: need.bytes,
        limit,
        measured,
    });
    // Every rank refuses alike (the folder is shared, but what each sees is its own).
    let short = f64::from(u8::from(need.bytes > limit));
    if run.cluster.max(short)? > 0.0 {
        return Err(ExactError::Disk {
            folder: dir.display().to_string(),
            groups: need.groups,
            files: need.files,
            fullest: need.bytes,
            limit,
            measured,
        });
    }
    Ok(())
}

/// Classifies and value-iterates `group` (solved `number`-th, begun at `began`) with working
/// brackets of kind `S`: its report, its values compacted (if the job says so) and the
/// openings' brackets where it holds them.
fn solve_group<'a, S: Brackets>(
    job: &GroupJob<'a>,
    group: Group,
    began: Instant,
) -> Result<(GroupReport, Done<'a>, Openings), ExactError> {
    let GroupJob {
        space,
        layout,
        finished,
        options,
        cluster,
        reports,
        watched,
        storage,
        observer,
        ..
    } = *job;
    let geometry = layout.geometry(group);
    let share = Share::new(
        geometry.a.len(),
        2 * geometry.b.len(),
        cluster.size(),
        cluster.rank(),
    );
    let mut current = Current {
        geometry,
        bits: crate::exact::shared::huge::huge_vec(share.own().len(), |_| AtomicU8::new(0)),
        own: share.own(),
        share,
        values: None,
        ghosts: Vec::new(),
        ghost_values: S::filled(0, [-1.0, 1.0]),
        ghost_bits: Vec::new(),
        ghost_rows: Vec::new(),
    };
    let serve = if cluster.size() > 1 {
        let (ghosts, serve) = plan_ghosts(space, layout, finished, &current, cluster)?;
        current.ghost_values = S::filled(ghosts.len(), [-1.0, 1.0]);
        current.ghost_bits = (0..ghosts.len()).map(|_| AtomicU8::new(0)).collect();
        let row_states = 2 * geometry.b.len();
        current.ghost_rows = (0..=geometry.a.len())
            .map(|i| ghosts.partition_point(|&g| g < i * row_states))
            .map(|k| {
                u32::try_from(k).map_err(|_| {
                    ExactError::TooLarge(format!("{k} ghost states on one rank: run on more ranks"))
                })
            })
            .collect::<Result<_, _>>()?;
        current.ghosts = ghosts;
        serve
    } else {
        Vec::new()
    };
    let checkpoint = match job.checkpoint {
        Some(c) => values_file::read_checkpoint(c.dir, c.game, group, geometry.len(), storage)?,
        None => None,
    };
    let end_component_states = match &checkpoint {
        // One process: its share is the whole group, as in the checkpoint.
        Some(saved) => {
            for (bits, &flags) in current.bits.iter().zip(saved.saved.bits.iter()) {
                bits.store(flags, Relaxed);
            }
            saved.report.end_component_states
        }
        None => classify_group(space, layout, finished, &current, (cluster, &serve))?,
    };
    let picks = Picks::tabulate(
        space,
        (layout, &geometry),
        (current.own.clone(), &current.bits),
        job.fixed,
    )?;
    let earlier = checkpoint.as_ref().map(|saved| {
        let report = &saved.report;
        observer(LayerProgress::FromCheckpoint {
            sweep: report.sweeps,
            width: report.width,
        });
        current.values = Some(saved_bracket(saved));
        (report.sweeps, report.seconds, report.sweep_seconds)
    });
    drop(checkpoint);
    let (sweeps_before, seconds_before, sweep_seconds_before) = earlier.unwrap_or_default();
    if current.values.is_none() {
        current.values = Some(initial_bracket(&current));
    }
    if cluster.size() > 1 {
        refresh_ghosts(&current, &serve, cluster)?;
    }
    // The widest bracket of the groups this one exits into, as they are kept: twice a
    // finished group's half-width, its midpoints' rounding included (a little more than
    // the width its report gives); 0 where it exits into none.
    let exit_width = reports
        .iter()
        .map(|r: &GroupReport| Group {
            a: r.goal_a,
            b: r.goal_b,
        })
        .filter(|&g| {
            layout.reads(group, g)
                || (layout.symmetric && layout.reads(group, Group { a: g.b, b: g.a }))
        })
        .filter_map(|g| finished[layout.slot(g)].as_ref())
        .map(|f| 2.0 * f.half)
        .fold(0.0, f64::max);
    let watch = (job.watch_openings && watched.iter().all(|&(g, _)| g == group))
        .then(|| watched.map(|(_, local)| local));
    let reader = Reader {
        space,
        layout,
        finished,
        current: &current,
    };
    let sweeping = Instant::now();
    // Timed from the group's start: its classification and a fixed side's answers (an hour
    // for a learned player on a large group) are work a checkpoint saves too.
    let mut last_checkpoint = began;
    let mut write_checkpoint = |sweep: usize, width: f64| {
        let Some(c) = job.checkpoint else { return };
        if last_checkpoint.elapsed() < c.every {
            return;
        }
        let writing = Instant::now();
        let report = GroupReport {
            goal_a: group.a,
            goal_b: group.b,
            states: geometry.len() as u64,
            end_component_states,
            sweeps: sweeps_before + sweep,
            width,
            stalled: false,
            seconds: seconds_before + began.elapsed().as_secs_f64(),
            sweep_seconds: sweep_seconds_before + sweeping.elapsed().as_secs_f64(),
            resumed: false,
            ranks: None,
            narrow_brackets: Some(S::NARROW),
            from_checkpoint_at_sweep: None,
        };
        let body = values_file::CheckpointBody(values_file::SolvedBody {
            bits: &current.bits,
            values: current.values.as_ref().expect("the group's brackets"),
            storage,
        });
        let written =
            values_file::write_checkpoint(c.dir, c.game, &report, &body).map_err(|e| e.to_string());
        observer(LayerProgress::Checkpoint {
            sweep: sweeps_before + sweep,
            written: written.as_ref().map(|&b| b).map_err(String::as_str),
            seconds: writing.elapsed().as_secs_f64(),
        });
        last_checkpoint = Instant::now();
    };
    let (sweeps, width, stalled) = iterate_group(
        (&reader, &picks),
        options,
        watch,
        (end_component_states > 0, exit_width),
        (cluster, &serve),
        AfterSweep {
            tell: &|sweep, width| {
                observer(LayerProgress::Sweep {
                    sweep: sweeps_before + sweep,
                    width,
                })
            },
            checkpoint: &mut write_checkpoint,
        },
    )?;
    let sweeps = sweeps_before + sweeps;
    let sweep_seconds = sweep_seconds_before + sweeping.elapsed().as_secs_f64();
    let mut openings: Openings = [None, None];
    for (side, &(g, local)) in watched.iter().enumerate() {
        if g == group {
            let bits = shared_bits(&current, local, cluster)?;
            let v = match held_value(bits) {
                Some(v) => [v, v],
                None => shared_bracket(&current, local, cluster)?,
            };
            openings[side] = Some((v, bits));
        }
    }
    let values = current.values.take().expect("iterated above");
    let report = GroupReport {
        goal_a: group.a,
        goal_b: group.b,
        states: geometry.len() as u64,
        end_component_states,
        sweeps,
        width,
        stalled,
        seconds: seconds_before + began.elapsed().as_secs_f64(),
        sweep_seconds,
        resumed: false,
        ranks: shared_report(current.ghosts.len(), cluster)?,
        narrow_brackets: Some(S::NARROW),
        from_checkpoint_at_sweep: earlier.map(|(sweeps, _, _)| sweeps),
    };
    let done = match job.compact {
        Compact::Nothing => Done::Nothing,
        Compact::InMemory if cluster.size() > 1 => Done::InMemory(Finished::from_shared(
            &current.bits,
            &values,
            storage,
            geometry.len(),
            cluster,
        )?),
        Compact::InMemory => Done::InMemory(Finished::from_solved(&current.bits, &values, storage)),
        Compact::ToFile(dir, game) => {
            let body = values_file::SolvedBody {
                bits: &current.bits,
                values: &values,
                storage,
            };
            write_solved(dir, game, &report, &body, &current.share, cluster)?;
            Done::Written(dir)
        }
    };
    Ok((report, done, openings))
}

/// Writes a group just solved (`body`: this process's share of it) to its file in `dir`:
/// one process directly; ranks each the part of its share, which the first rank then joins
/// into the file. Every rank returns once the file is in place, or with an error if any
/// rank failed.
fn write_solved<V: Values<2>>(
    dir: &Path,
    game: &self::values_file::GameKey,
    report: &GroupReport,
    body: &values_file::SolvedBody<'_, V>,
    share: &Share,
    cluster: &dyn Cluster,
) -> Result<(), ExactError> {
    if cluster.size() == 1 {
        return values_file::write(dir, game, report, body);
    }
    let group = Group {
        a: report.goal_a,
        b: report.goal_b,
    };
    let ranks = cluster.size();
    let part = values_file::write_part(dir, group, (cluster.rank(), ranks), body);
    let half = on_every_rank(cluster, part, "write its part of the group's file")?;
    let half = cluster.max(half)?.next_up();
    let joined = if cluster.rank() == 0 {
        let parts: Vec<(PathBuf, usize)> = (0..ranks)
            .map(|r| {
                let path = values_file::part_path(dir, group, r, ranks);
                (path, share.owned_by(r).len())
            })
            .collect();
        let parts = values_file::Parts {
            parts,
            storage: body.storage,
            half,
        };
        let joined = values_file::write(dir, game, report, &parts);
        if joined.is_ok() {
            for (path, _) in &parts.parts {
                // A part left behind is replaced by the next run's; the file is complete.
                let _ = std::fs::remove_file(path);
            }
        }
        joined
    } else {
        Ok(())
    };
    on_every_rank(cluster, joined, "join the parts into the group's file")
}

/// `result` on every rank alike: this rank's error, or, where this rank succeeded and
/// another failed, an error saying what that rank could not do (its own error names why).
fn on_every_rank<T>(
    cluster: &dyn Cluster,
    result: Result<T, ExactError>,
    what: &str,
) -> Result<T, ExactError> {
    if cluster.size() == 1 {
        return result;
    }
    let failed = cluster.max(f64::from(u8::from(result.is_err())))?;
    let value = result?;
    if failed > 0.0 {
        // mpirun ends every rank once the first exits with an error: the rank that failed
        // is given the time to print why before this one's error (which cannot say why) ends
        // the job.
        std::thread::sleep(std::time::Duration::from_secs(1));
        return Err(ExactError::Ranks(format!("another rank could not {what}")));
    }
    Ok(value)
}

/// Gives back the finished groups that none of the groups still to solve (`rest`) reads,
/// unless every group's values are kept.
fn release_unread(
    layout: &Layout,
    rest: &[Group],
    finished: &mut [Option<Finished>],
    keep_values: bool,
) {
    if keep_values {
        return;
    }
    for a in 0..layout.goals as u32 {
        for b in 0..layout.goals as u32 {
            let group = Group { a, b };
            let slot = layout.slot(group);
            if finished[slot].is_some() && !layout.still_read(rest, group) {
                finished[slot] = None;
            }
        }
    }
}

/// Classifies the current group's states (its exits final); returns its end-component
/// states. Over several processes (`ranks`: the cluster and what this one serves to each)
/// each classifies its own states, the ghosts' flags refreshed after every pass, and a
/// fixed point is reached when no process changed a flag in a pass.
fn classify_group<S: Brackets>(
    space: &GameSpace,
    layout: &Layout,
    finished: &[Option<Finished>],
    current: &Current<'_, S>,
    ranks: (&dyn Cluster, &[Vec<usize>]),
) -> Result<u64, ExactError> {
    let (cluster, serve) = ranks;
    let reader = Reader {
        space,
        layout,
        finished,
        current,
    };
    let geometry = current.geometry;
    let own = current.own.clone();
    let bits = |local: usize| &current.bits[local - own.start];
    let at = |local: usize| geometry.at(space, local);
    let cells = own.start / 2..own.end / 2;
    // One pass over this process's states, then the ghosts' flags brought up to date;
    // whether any process changed a flag.
    let pass = |visit: &(dyn Fn(usize) -> bool + Sync)| -> Result<bool, ExactError> {
        let changed = geometry.for_cells_in(cells.clone(), |c| {
            let first = visit(2 * c);
            visit(2 * c + 1) | first
        });
        refresh_ghost_bits(current, serve, cluster)?;
        Ok(cluster.max(f64::from(u8::from(changed)))? > 0.0)
    };
    let until_stable = |visit: &(dyn Fn(usize) -> bool + Sync)| -> Result<(), ExactError> {
        while pass(visit)? {}
        Ok(())
    };
    let nb = geometry.b.len();
    pass(&|local| {
        let cell = local >> 1;
        let (a, b) = (geometry.a[cell / nb], geometry.b[cell % nb]);
        if space.players[0].won(a as usize) || space.players[1].won(b as usize) {
            bits(local).store(bit::OVER, Relaxed);
        }
        false
    })?;
    let live = |local: usize| bits(local).load(Relaxed) & bit::OVER == 0;
    // Which wins each state can reach: the least fixed point, from none.
    until_stable(&|local| {
        if !live(local) {
            return false;
        }
        let mut wins = 0;
        reader.successors(&at(local), |_, t| {
            wins |= reader.bits(t) & (bit::WIN_A | bit::WIN_B)
        });
        let old = bits(local).load(Relaxed);
        if wins & !old != 0 {
            bits(local).fetch_or(wins, Relaxed);
            true
        } else {
            false
        }
    })?;
    let can_win = |local: usize| bits(local).load(Relaxed) & (bit::WIN_A | bit::WIN_B) != 0;
    // End components: the greatest fixed point of "every roll has a move staying in the
    // set", from the states that can reach a win.
    pass(&|local| {
        if live(local) && can_win(local) {
            bits(local).fetch_or(bit::STAY, Relaxed);
        }
        false
    })?;
    until_stable(&|local| {
        if bits(local).load(Relaxed) & bit::STAY == 0 {
            return false;
        }
        let slots = space.players[local & 1].faces.len();
        let mut stays = vec![false; slots];
        reader.successors(&at(local), |k, t| {
            stays[k] |= matches!(t, CellTarget::Next { .. }) && reader.bits(t) & bit::STAY != 0
        });
        let leaves = stays.iter().any(|&s| !s);
        if leaves {
            bits(local).fetch_and(!bit::STAY, Relaxed);
        }
        leaves
    })?;
    // Where play may go on forever: the states that can reach one where no win is
    // reachable or an end component.
    pass(&|local| {
        let b = bits(local).load(Relaxed);
        if live(local) && (!can_win(local) || b & bit::STAY != 0) {
            bits(local).fetch_or(bit::ENDLESS, Relaxed);
        }
        false
    })?;
    until_stable(&|local| {
        if !live(local) || bits(local).load(Relaxed) & bit::ENDLESS != 0 {
            return false;
        }
        let mut endless = false;
        reader.successors(&at(local), |_, t| {
            endless |= reader.bits(t) & bit::ENDLESS != 0
        });
        if endless {
            bits(local).fetch_or(bit::ENDLESS, Relaxed);
        }
        endless
    })?;
    let end_component_states = AtomicU64::new(0);
    pass(&|local| {
        let b = bits(local).load(Relaxed);
        let wins = b & (bit::WIN_A | bit::WIN_B);
        if live(local) && b & bit::ENDLESS == 0 && (wins == bit::WIN_A || wins == bit::WIN_B) {
            bits(local).fetch_or(bit::SETTLED, Relaxed);
        }
        if b & bit::STAY != 0 {
            end_component_states.fetch_add(1, Relaxed);
        }
        false
    })?;
    Ok(cluster
        .gather_u64(&[end_component_states.into_inner()])?
        .iter()
        .sum())
}

/// The bracket to start the current group from: `[-1, +1]`, and the exact value where the
/// flags fix it.
fn initial_bracket<S: Brackets>(current: &Current<'_, S>) -> S {
    let store = S::filled(current.bits.len(), [-1.0, 1.0]);
    for (k, b) in current.bits.iter().enumerate() {
        if let Some(v) = held_value(b.load(Relaxed)) {
            store.store(k, [v, v]);
        }
    }
    store
}

/// The brackets a checkpoint holds, to go on from: each state's midpoint plus and minus its
/// half-width, rounded outward (as a finished group's), exact where the flags fix it.
fn saved_bracket<S: Brackets>(saved: &values_file::Checkpoint) -> S {
    let states = saved.saved.bits.len();
    let store = S::filled(states, [-1.0, 1.0]);
    for k in 0..states {
        store.store(k, saved.bracket(k));
    }
    store
}

/// The ghosts of this process (the states of other processes that its own states' moves
/// lead to, ascending) and, per process, the states of this one that process reads, after
/// telling every process which of its states are read here.
fn plan_ghosts<S: Brackets>(
    space: &GameSpace,
    layout: &Layout,
    finished: &[Option<Finished>],
    current: &Current<'_, S>,
    cluster: &dyn Cluster,
) -> Result<(Vec<usize>, Vec<Vec<usize>>), ExactError> {
    let reader = Reader {
        space,
        layout,
        finished,
        current,
    };
    let geometry = current.geometry;
    let group = geometry.group;
    // One bit per state of the group: read here and owned elsewhere.
    let read: Vec<AtomicU64> = (0..geometry.len().div_ceil(64))
        .map(|_| AtomicU64::new(0))
        .collect();
    let own = current.own.clone();
    let nb = geometry.b.len();
    geometry.for_cells_in(own.start / 2..own.end / 2, |c| {
        let (a, b) = (geometry.a[c / nb] as usize, geometry.b[c % nb] as usize);
        if space.players[0].won(a) || space.players[1].won(b) {
            return false;
        }
        for local in [2 * c, 2 * c + 1] {
            reader.successors(&geometry.at(space, local), |_, t| {
                if let CellTarget::Next { a, b, side } = t {
                    let (g, l, _) = layout.stored_cell(a, b, side);
                    if g == group && !own.contains(&l) {
                        read[l / 64].fetch_or(1 << (l % 64), Relaxed);
                    }
                }
            });
        }
        false
    });
    let ghosts: Vec<usize> = read
        .iter()
        .enumerate()
        .flat_map(|(w, word)| {
            let word = word.load(Relaxed);
            (0..64)
                .filter(move |b| word >> b & 1 == 1)
                .map(move |b| 64 * w + b)
        })
        .collect();
    let mut asks = vec![Vec::new(); cluster.size()];
    for &g in &ghosts {
        asks[current.share.owner(g)].push(g as u64);
    }
    let serve = cluster
        .exchange(&asks)?
        .into_iter()
        .map(|asked| {
            asked
                .into_iter()
                .map(|l| {
                    let l = l as usize;
                    if own.contains(&l) {
                        Ok(l)
                    } else {
                        Err(ExactError::Ranks(format!(
                            "a rank asked for state {l}, which this rank does not own"
                        )))
                    }
                })
                .collect()
        })
        .collect::<Result<_, _>>()?;
    Ok((ghosts, serve))
}

/// Sends every process the brackets of its ghosts held here (`serve`) and stores those of
/// this process's ghosts.
fn refresh_ghosts<S: Brackets>(
    current: &Current<'_, S>,
    serve: &[Vec<usize>],
    cluster: &dyn Cluster,
) -> Result<(), ExactError> {
    let values = current.values.as_ref().expect("the group's brackets");
    let start = current.own.start;
    let to: Vec<Vec<u64>> = serve
        .iter()
        .map(|locals| {
            locals
                .iter()
                .flat_map(|&l| values.load(l - start).map(f64::to_bits))
                .collect()
        })
        .collect();
    // The ghosts ascend and each process owns a range, so the replies in the processes'
    // order are the ghosts' brackets in order.
    let received: Vec<u64> = cluster.exchange(&to)?.concat();
    if received.len() != 2 * current.ghosts.len() {
        return Err(ExactError::Ranks(format!(
            "{} values came back for {} ghost states",
            received.len(),
            current.ghosts.len()
        )));
    }
    for (k, pair) in received.chunks_exact(2).enumerate() {
        current
            .ghost_values
            .store(k, [f64::from_bits(pair[0]), f64::from_bits(pair[1])]);
    }
    Ok(())
}

/// The report of a group solved over several processes: their ghosts summed.
fn shared_report(
    ghosts: usize,
    cluster: &dyn Cluster,
) -> Result<Option<self::finished::RanksReport>, ExactError> {
    if cluster.size() == 1 {
        return Ok(None);
    }
    let all = cluster.gather_u64(&[ghosts as u64])?;
    Ok(Some(self::finished::RanksReport {
        ranks: cluster.size(),
        ghost_states: all.iter().sum(),
    }))
}

/// The flags of `local` as its owner holds them, told to every process.
fn shared_bits<S: Brackets>(
    current: &Current<'_, S>,
    local: usize,
    cluster: &dyn Cluster,
) -> Result<u8, ExactError> {
    let own = if current.own.contains(&local) {
        current.bits_at(local).load(Relaxed)
    } else {
        0
    };
    Ok(cluster.max(f64::from(own))? as u8)
}

/// Sends every process the flags of its ghosts held here (`serve`) and stores those of
/// this process's ghosts.
fn refresh_ghost_bits<S: Brackets>(
    current: &Current<'_, S>,
    serve: &[Vec<usize>],
    cluster: &dyn Cluster,
) -> Result<(), ExactError> {
    if cluster.size() == 1 {
        return Ok(());
    }
    let to: Vec<Vec<u64>> = serve
        .iter()
        .map(|locals| {
            locals
                .iter()
                .map(|&l| u64::from(current.bits_at(l).load(Relaxed)))
                .collect()
        })
        .collect();
    let received: Vec<u64> = cluster.exchange(&to)?.concat();
    if received.len() != current.ghosts.len() {
        return Err(ExactError::Ranks(format!(
            "{} flags came back for {} ghost states",
            received.len(),
            current.ghosts.len()
        )));
    }
    for (ghost, &b) in current.ghost_bits.iter().zip(&received) {
        ghost.store(b as u8, Relaxed);
    }
    Ok(())
}

/// The bracket of `local` as its owner holds it, told to every process.
fn shared_bracket<S: Brackets>(
    current: &Current<'_, S>,
    local: usize,
    cluster: &dyn Cluster,
) -> Result<[f64; 2], ExactError> {
    let [lo, hi] = if current.own.contains(&local) {
        current.load(local)
    } else {
        [f64::NEG_INFINITY, f64::INFINITY]
    };
    Ok([cluster.max(lo)?, -cluster.max(-hi)?])
}

/// What [`iterate_group`] calls after a sweep, with the sweep's number in this run (from 1)
/// and the widest bracket.
struct AfterSweep<'h> {
    /// After every sweep.
    tell: &'h dyn Fn(usize, f64),
    /// After every sweep the group goes on from: writes a checkpoint if one is due.
    checkpoint: &'h mut dyn FnMut(usize, f64),
}

/// The width at which a group whose exits' widest bracket is `exit_width` stops, solved to
/// `tolerance` with `target` its aim (half the tolerance): the target where the exits are
/// no wider; otherwise an eighth of the room between them and the tolerance above them.
///
/// Why: a state that leaves the group at once is as wide as where it lands, so such a
/// group cannot get below its exits' width, only creep towards a floor near it; waiting
/// for the creep to end (the stall rule) costs some five sweeps that narrow nothing that
/// matters. Stopping within an eighth of the room keeps every bracket within the
/// tolerance, and a chain of groups, each at most an eighth of its room wider than its
/// exits, never reaches the tolerance. Exits at or beyond the tolerance (held open by end
/// components) leave the target to the stall rule.
fn stopping_width(target: f64, tolerance: f64, exit_width: f64) -> f64 {
    if exit_width <= target || exit_width >= tolerance {
        target
    } else {
        exit_width + (tolerance - exit_width) / 8.0
    }
}

/// Value-iterates the current group until its widest bracket is at most half the
/// tolerance (with `watch`, until the brackets of those local indices are at most the
/// tolerance wide), or, where exits wider than that (`exit_width`, the widest exit's
/// width) hold it above, at most [`stopping_width`], or until it stops narrowing (where
/// `end_components` or such exits hold it open); returns the sweeps, the
/// width reached (of the watched indices with `watch`) and whether it stopped short of
/// half the tolerance ("stalled"). Over several processes (`ranks`: the cluster and
/// what this process serves to each, [`plan_ghosts`]) each sweeps its own cells, reading
/// the others' states from its ghosts, refreshed after every sweep; the widths, the
/// changes and a cancellation are decided together, so every process stops at the same
/// sweep.
fn iterate_group<S: Brackets>(
    (reader, picks): (&Reader<'_, S>, &Picks),
    options: &SolveOptions,
    watch: Option<[usize; 2]>,
    (end_components, exit_width): (bool, f64),
    ranks: (&dyn Cluster, &[Vec<usize>]),
    after: AfterSweep<'_>,
) -> Result<(usize, f64, bool), ExactError> {
    let AfterSweep { tell, checkpoint } = after;
    let (cluster, serve) = ranks;
    let (space, layout, current) = (reader.space, reader.layout, reader.current);
    let geometry = current.geometry;
    let values = current.values.as_ref().expect("the group's brackets");
    let target = if watch.is_some() {
        options.tolerance
    } else {
        0.5 * options.tolerance
    };
    let stop_at = match watch {
        Some(_) => target,
        None => stopping_width(target, options.tolerance, exit_width),
    };
    let held_open = end_components || exit_width > 0.5 * options.tolerance;
    let own = current.own.clone();
    let cells = own.start / 2..own.end / 2;
    let mut widths = Vec::new();
    for sweep in 0..options.max_sweeps {
        if cluster.max(f64::from(u8::from(fixpoint::cancelled())))? > 0.0 {
            return Err(not_converged(sweep, &widths));
        }
        let change = AtomicU64::new(0);
        // The store holds this process's cells: `update_cell` indexes it from its first.
        let fixed = |k: usize| values.load(k);
        let n = geometry.b.len();
        // A group of both sides' same goal configuration is its own mirror image where the
        // game is: the cells (i, j) with i <= j are solved, (j, i) written as their image.
        // Over several processes the image may lie in another's rows: each solves all its
        // cells.
        let mirror =
            (layout.symmetric && geometry.group.a == geometry.group.b && cluster.size() == 1)
                .then_some((MIRROR, move |c: usize| (c % n) * n + c / n));
        geometry.for_cells_in(cells.clone(), |c| {
            let mut update = |k: usize| -> Option<RowUpdate<2>> {
                let local = k + own.start;
                let b = current.bits[k].load(Relaxed);
                if held_value(b).is_some() {
                    return None;
                }
                let at = geometry.at(space, local);
                let mut outside = [0.0; 2];
                let mut stay = [0.0; 2];
                for (slot, &(face, p)) in space.faces(at.index).iter().enumerate() {
                    let entry = picks.at(k, slot);
                    let best = if entry == picks::OPTIMAL {
                        // The optimising mover's roll, most of the work: its own loop.
                        let mut best: Option<[f64; 2]> = None;
                        space.cell_options_at(&at, slot, |_, t| {
                            best = Some(super::value::fold_best(at.side, best, reader.value(t)));
                        });
                        best
                    } else {
                        let mut fold = OptionFold::new(entry);
                        space.cell_options_at(&at, slot, |m, t| fold.add(m, reader.value(t)));
                        fold.value()
                    };
                    match best {
                        Some(v) => {
                            outside[0] += p * v[0];
                            outside[1] += p * v[1];
                        }
                        None => stay[space.no_move_target(at.index, face) & 1] += p,
                    }
                }
                Some(RowUpdate { outside, stay })
            };
            update_cell(
                values,
                mirror,
                &fixed,
                &mut update,
                &change,
                c - cells.start,
            );
            false
        });
        if cluster.size() > 1 {
            refresh_ghosts(current, serve, cluster)?;
        }
        // The widest bracket, after the sweep (a read per state).
        let width = AtomicU64::new(0);
        if watch.is_none() {
            geometry.for_cells_in(0..cells.len(), |c| {
                let wide = [2 * c, 2 * c + 1]
                    .map(|l| {
                        let [lo, hi] = values.load(l);
                        hi - lo
                    })
                    .into_iter()
                    .fold(0.0f64, f64::max);
                width.fetch_max(wide.to_bits(), Relaxed);
                false
            });
        }
        // Non-negative doubles order as their bit patterns.
        let change = cluster.max(f64::from_bits(change.into_inner()))?;
        let width = match watch {
            Some(locals) => locals
                .map(|l| {
                    if own.contains(&l) {
                        let [lo, hi] = values.load(l - own.start);
                        hi - lo
                    } else {
                        0.0
                    }
                })
                .into_iter()
                .fold(0.0, f64::max),
            None => f64::from_bits(width.into_inner()),
        };
        let width = cluster.max(width)?;
        widths.push(width);
        tell(sweep + 1, width);
        if width <= target {
            return Ok((sweep + 1, width, false));
        }
        if width <= stop_at {
            return Ok((sweep + 1, width, true));
        }
        // A group stalls short of its target only where something holds it open: an end
        // component, or exits wider than the target. Elsewhere the iteration contracts to
        // the target, and early sweeps, whose widest bracket can sit at 2 for a while, are
        // no stall.
        let may_stall = width <= options.tolerance || held_open;
        if may_stall && Stall::DEFAULT.stopped(&widths, change) {
            return Ok((sweep + 1, width, true));
        }
        // Going on: a checkpoint if one is due.
        checkpoint(sweep + 1, width);
    }
    Err(not_converged(options.max_sweeps, &widths))
}

fn not_converged(sweeps: usize, widths: &[f64]) -> ExactError {
    let gap = widths.last().copied().unwrap_or(f64::INFINITY);
    ExactError::NotConverged(fixpoint::NotConverged(fixpoint::Convergence {
        sweeps,
        last_change: f64::NAN,
        gap,
        ending: fixpoint::Ending::Converged,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::exact::game::space::flag;
    use crate::exact::game::{Side, solve_game_keeping_values};

    /// A group held above half the tolerance by its exits stops within an eighth of the
    /// room between them and the tolerance; exits within the target, or at the tolerance
    /// and beyond (end components), leave the target to the iteration and the stall rule;
    /// and a chain of groups, each stopping so above the one it exits into, stays within
    /// the tolerance however long it is.
    #[test]
    fn a_group_held_open_by_its_exits_stops_within_an_eighth_of_the_room_above_them() {
        let (target, tolerance) = (0.5e-6, 1e-6);
        for exits in [0.0, 1e-7, 0.5e-6, 1e-6, 3e-6] {
            assert_eq!(stopping_width(target, tolerance, exits), target, "{exits}");
        }
        let held = stopping_width(target, tolerance, 5.2e-7);
        assert!((held - (5.2e-7 + 0.6e-7)).abs() < 1e-20, "{held}");
        let mut exits = 5.0001e-7;
        for link in 0..10_000 {
            let next = stopping_width(target, tolerance, exits);
            assert!(next >= exits && next < tolerance, "link {link}: {next}");
            exits = next;
        }
    }

    /// With `--values-out`, one process whose finished groups do not fit in memory beside
    /// the group it solves keeps them as their files, mapped (the memory check then counts
    /// them apart), and they give brackets that overlap those of the groups kept in memory,
    /// at every state; a run that reads every group back maps them too, and gives the same
    /// brackets. Where they fit, the groups stay in memory. In both storages (`Fixed32`
    /// from 1e-7, `f64` below).
    #[cfg(unix)]
    #[test]
    fn groups_kept_in_their_files_give_the_values_kept_in_memory() {
        let rules = Rules::new("16/8/3/3".parse().unwrap(), "choice".parse().unwrap());
        let dice: [Die; 2] = ["1..6".parse().unwrap(), "2..7".parse().unwrap()];
        let dice = [&dice[0], &dice[1]];
        for tolerance in [1e-6, 1e-10] {
            let dir = std::env::temp_dir().join(format!(
                "wuerfelglueck-mapped-{}-{tolerance:e}",
                std::process::id()
            ));
            let _ = std::fs::remove_dir_all(&dir);
            let solve = |max_memory: Option<u64>| {
                let options = SolveOptions {
                    tolerance,
                    max_memory,
                    ..SolveOptions::default()
                };
                let run = LayeredRun {
                    part: Part::All,
                    keep_values: true,
                    values_out: Some(&dir),
                    observer: &|_| {},
                    cluster: &OneProcess,
                    fixed: [None, None],
                    checkpoint_every: None,
                    max_disk: None,
                };
                solve_layered_with(&rules, dice, &options, &run)
                    .map(|(solution, values)| (solution, values.unwrap()))
            };
            // The least memory (after the enumeration's own check): refused, the finished
            // groups named as mapped.
            let mut limit = 1;
            let least = loop {
                match solve(Some(limit)) {
                    Err(ExactError::Memory { bytes, .. }) if bytes > limit => limit = bytes,
                    Err(ExactError::GroupMemory {
                        bytes,
                        finished_mapped: true,
                        ..
                    }) => break bytes,
                    other => panic!("{tolerance:e}: {:?}", other.map(|_| ())),
                }
            };
            let (solved, written) = solve(Some(least)).unwrap();
            // At 1e-6 the group solved keeps its brackets in 32 bits too; not below.
            assert_eq!(solved.narrow_brackets, tolerance >= 1e-6, "{tolerance:e}");
            let (read_back, reread) = solve(Some(least)).unwrap();
            assert!(solved.groups.iter().all(|g| !g.resumed));
            assert!(read_back.groups.iter().all(|g| g.resumed));
            let (held, mapped) = written.groups_mapped();
            assert_eq!(
                (held, mapped),
                (solved.groups.len(), held),
                "{tolerance:e}: written"
            );
            let (held, mapped) = reread.groups_mapped();
            assert_eq!(
                (held, mapped),
                (solved.groups.len(), held),
                "{tolerance:e}: read back"
            );
            // Without a memory limit they fit: read back into memory.
            let (_, in_memory) = solve(None).unwrap();
            assert_eq!(in_memory.groups_mapped(), (held, 0));
            // And a solve that writes no files.
            let options = SolveOptions {
                tolerance,
                ..SolveOptions::default()
            };
            let (_, unwritten) =
                solve_layered_keeping_values(&rules, dice, &options, &|_| {}).unwrap();
            let space = &unwritten.space;
            let mut compared = 0;
            for i in 0..space.len() {
                let position = space.position(i);
                let Some(expected) = unwritten.bracket(&position).unwrap() else {
                    continue;
                };
                // The same files, mapped or in memory: the same brackets, to the bit.
                let got = written.bracket(&position).unwrap().unwrap();
                for values in [&reread, &in_memory] {
                    let again = values.bracket(&position).unwrap().unwrap();
                    assert_eq!((got.lo, got.hi), (again.lo, again.hi), "{position:?}");
                }
                // Another solve (its sweeps share states among threads in another order):
                // brackets that overlap, each within the tolerance.
                assert!(
                    got.lo <= expected.hi && expected.lo <= got.hi,
                    "{position:?}: {got:?} against {expected:?}"
                );
                assert!(got.width() <= tolerance, "{position:?}: {got:?}");
                compared += 1;
            }
            assert!(compared > 100_000, "{compared} states");
            std::fs::remove_dir_all(&dir).unwrap();
        }
    }

    /// Where the brackets in `f64` do not fit the memory allowed and the tolerance is at
    /// least 1e-6, the groups are solved with brackets in 32-bit fixed point: every group
    /// certified, every state's bracket within the tolerance and overlapping the `f64`
    /// solve's, the value at the openings too. Below 1e-6 the limit is refused.
    #[test]
    fn brackets_in_32_bits_certify_the_values_of_brackets_in_f64() {
        let rules = Rules::new("16/8/3/3".parse().unwrap(), "choice".parse().unwrap());
        let dice: [Die; 2] = ["1..6".parse().unwrap(), "2..7".parse().unwrap()];
        let dice = [&dice[0], &dice[1]];
        let solve = |tolerance: f64, max_memory: Option<u64>| {
            let options = SolveOptions {
                tolerance,
                max_memory,
                ..SolveOptions::default()
            };
            solve_layered_keeping_values(&rules, dice, &options, &|_| {})
        };
        let (wide, wide_values) = solve(1e-6, None).unwrap();
        assert!(!wide.narrow_brackets);
        // The least memory: refused below it, each refusal naming what it counted.
        let mut limit = 1;
        let least = loop {
            match solve(1e-6, Some(limit)) {
                Err(ExactError::Memory { bytes, .. }) if bytes > limit => limit = bytes,
                Err(ExactError::GroupMemory {
                    bytes,
                    narrow_brackets: true,
                    finished_mapped: false,
                    ..
                }) => break bytes,
                other => panic!("{:?}", other.map(|_| ())),
            }
        };
        assert!(least < wide.peak_bytes);
        let (narrow, narrow_values) = solve(1e-6, Some(least)).unwrap();
        assert!(narrow.narrow_brackets);
        assert!(narrow.value_certified);
        // Only the groups that do not fit the limit in `f64` are solved in 32 bits: as
        // the plan counts each group, tables included.
        let space = GameSpace::tables_only(&rules, dice).unwrap();
        let layout = Layout::new(&rules, &space, true);
        let order = layout.order();
        let tables = space.players[0].heap_bytes() + space.players[1].heap_bytes();
        let (_, in_f64) = peak_bytes(
            &layout,
            &order,
            true,
            Storage::for_tolerance(1e-6),
            (1, &vec![false; order.len()], 0),
            (false, false),
        )
        .unwrap();
        let kinds: Vec<Option<bool>> = narrow.groups.iter().map(|g| g.narrow_brackets).collect();
        let expected: Vec<Option<bool>> =
            in_f64.iter().map(|&b| Some(b + tables > least)).collect();
        assert_eq!(kinds, expected);
        assert!(
            kinds.contains(&Some(true)) && kinds.contains(&Some(false)),
            "{kinds:?}"
        );
        assert!(wide.groups.iter().all(|g| g.narrow_brackets == Some(false)));
        for group in &narrow.groups {
            assert!(group.width <= 0.5e-6 && !group.stalled, "{group:?}");
        }
        for (n, w) in [
            (narrow.value_if_a_starts, wide.value_if_a_starts),
            (narrow.value_if_b_starts, wide.value_if_b_starts),
        ] {
            assert!(n.lo <= w.hi && w.lo <= n.hi, "{n:?} against {w:?}");
        }
        let space = &wide_values.space;
        let mut compared = 0;
        for i in 0..space.len() {
            let position = space.position(i);
            let Some(expected) = wide_values.bracket(&position).unwrap() else {
                continue;
            };
            let got = narrow_values.bracket(&position).unwrap().unwrap();
            assert!(
                got.lo <= expected.hi && expected.lo <= got.hi,
                "{position:?}: {got:?} against {expected:?}"
            );
            assert!(got.width() <= 1e-6, "{position:?}: {got:?}");
            compared += 1;
        }
        assert!(compared > 100_000, "{compared} states");
        // Below 1e-6 the grid is too coarse: the same limit is refused.
        match solve(1e-7, Some(least)) {
            Err(ExactError::GroupMemory {
                narrow_brackets: false,
                ..
            }) => {}
            other => panic!("{:?}", other.map(|_| ())),
        }
    }

    /// The layered solve gives the global solver's value: at both openings (both certified,
    /// within the tolerance of each other) and at every state the global solver reaches
    /// (the two brackets overlap, and every layered bracket is at most the tolerance wide
    /// where no group stalled), on games where every play ends with a win and games where
    /// some play goes on forever, with the same and with different dice, and under capture
    /// duty.
    #[test]
    fn the_layered_solve_gives_the_global_solvers_values() {
        let tolerance = 1e-10;
        let options = SolveOptions {
            tolerance,
            ..SolveOptions::default()
        };
        // Games where some play can go on forever, and games where every play ends.
        let mut kinds = [0, 0];
        let mut groups = 0;
        for (board, profile, a, b) in [
            ("16/8/2/2", "choice", "1..6", "1..6"),
            ("16/8/2/2", "choice", "1..6", "1,2,2,4,5,6"),
            ("16/8/2/2", "choice,capture-duty", "1..6", "1..6"),
            ("12/6/3/3", "choice", "1..4", "1..6"),
            ("12/6/2/2", "choice", "2,4,6", "1..6"),
            ("12/6/2/2", "choice", "1,6", "3..6"),
            ("12/6/2/2", "choice", "2,6", "3,6"),
            ("12/6/2/2", "choice", "4..9", "4..9"),
            ("12/6/2/2", "choice", "4..9", "1..6"),
        ] {
            let what = format!("{board} {profile}, {a} against {b}");
            let rules = Rules::new(board.parse().unwrap(), profile.parse().unwrap());
            let dice: [Die; 2] = [a.parse().unwrap(), b.parse().unwrap()];
            let dice = [&dice[0], &dice[1]];
            let global =
                solve_game_keeping_values(&rules, dice, [Side::Optimal, Side::Optimal], &options)
                    .unwrap();
            let (layered, values) =
                solve_layered_keeping_values(&rules, dice, &options, &|_| {}).unwrap();
            assert_eq!(
                layered.value_certified, global.value_certified,
                "{what}: certified"
            );
            for (l, g) in [
                (layered.value_if_a_starts, global.value_if_a_starts),
                (layered.value_if_b_starts, global.value_if_b_starts),
            ] {
                assert!(l.lo <= g.hi && g.lo <= l.hi, "{what}: {l:?} against {g:?}");
                if global.value_certified {
                    assert!(l.width() <= tolerance, "{what}: {l:?}");
                }
            }
            let stalled = layered.groups.iter().any(|r| r.stalled);
            let bracket = global.values.as_ref().unwrap();
            let space = &global.space;
            let mut compared = 0;
            for i in 0..space.len() {
                if space.flag(i) & flag::REACHED == 0 {
                    continue;
                }
                let [lo, hi] = bracket.load(i);
                let l = values.bracket(&space.position(i)).unwrap().unwrap();
                // The global solver does not round outward: in games where some play can go
                // on forever it settles no state, and a state only one side can win drifts a few ulps
                // off -1 or +1 (4..9 against 4..9: -1 + 1.4e-15), where the layered solve
                // settles it per state. Hence the slack of some ulps, and only here.
                let ulps = 64.0 * f64::EPSILON;
                assert!(
                    l.lo <= hi + ulps && lo <= l.hi + ulps,
                    "{what}: {:?}: layered {l:?}, global [{lo}, {hi}]",
                    space.position(i)
                );
                if !stalled {
                    assert!(l.width() <= tolerance, "{what}: {l:?}");
                }
                compared += 1;
            }
            assert!(compared > 500, "{what}: {compared} states");
            // The figures come from the value exactly where every play from the openings
            // ends with a win, as the global solver's classification of them says.
            let every_play_wins =
                global.end_component_states == 0 && global.pair.stats.never_states == 0;
            assert_eq!(
                layered.figures.is_some(),
                every_play_wins,
                "{what}: figures"
            );
            kinds[usize::from(every_play_wins)] += 1;
            assert_eq!(
                layered.end_component_states > 0,
                global.end_component_states > 0,
                "{what}: end components"
            );
            if let Some(f) = &layered.figures {
                let g = &global.pair.bounds.p_a;
                let l = &f.bounds.p_a;
                assert!(l.lo <= g.hi && g.lo <= l.hi, "{what}: {l:?} against {g:?}");
            }
            groups += layered.groups.len();
        }
        assert!(kinds[0] > 0 && kinds[1] > 0, "{kinds:?}");
        assert!(groups > 40, "{groups} groups");
    }

    /// A learned fixed side's moves from its values of each group's positions
    /// ([`picks`]) are the moves it picks when asked in every decision: the layered solve
    /// with either gives the same brackets to the last bit at every state, for `strong`,
    /// `strong-search` and `strong-search-2` on either side, with different dice (one with a
    /// repeated face, so the look-ahead's faces and order count).
    #[test]
    fn a_learned_side_plays_from_its_values_of_the_groups_positions_as_when_asked() {
        use crate::exact::game::policy::{Decision, Pick};
        use crate::strategy::Strategy;
        /// The player asked in every decision: without its values of positions.
        struct Asked<'a>(&'a Strategy);
        impl MovePolicy for Asked<'_> {
            fn pick(&self, decision: &Decision<'_>) -> Pick {
                self.0.pick(decision)
            }
            fn picks_one(&self) -> bool {
                true
            }
        }
        let rules = Rules::new("16/8/2/2".parse().unwrap(), "choice".parse().unwrap());
        let dice: [Die; 2] = ["1..6".parse().unwrap(), "1,2,2,4,5,6".parse().unwrap()];
        let dice = [&dice[0], &dice[1]];
        let options = SolveOptions {
            tolerance: 1e-9,
            ..SolveOptions::default()
        };
        let one = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .unwrap();
        let solve = |side: usize, policy: &dyn MovePolicy| {
            let mut fixed = [None, None];
            fixed[side] = Some(FixedSide {
                policy,
                name: "learned",
            });
            let run = LayeredRun {
                part: Part::All,
                keep_values: true,
                values_out: None,
                observer: &|_| {},
                cluster: &OneProcess,
                fixed,
                checkpoint_every: None,
                max_disk: None,
            };
            one.install(|| solve_layered_with(&rules, dice, &options, &run))
                .unwrap()
                .1
                .unwrap()
        };
        for name in ["strong", "strong-search", "strong-search-2"] {
            let strategy: Strategy = name.parse().unwrap();
            for side in 0..2 {
                let seated = strategy.seated(dice, side);
                assert!(seated.afterstate_value(&rules, side).is_some(), "{name}");
                let from_values = solve(side, &seated);
                let asked = solve(side, &Asked(&seated));
                let mut compared = 0;
                for i in 0..from_values.space().len() {
                    let (x, y) = (
                        from_values.bracket_at(i).unwrap(),
                        asked.bracket_at(i).unwrap(),
                    );
                    if let (Some(x), Some(y)) = (x, y) {
                        assert_eq!(
                            (x.lo.to_bits(), x.hi.to_bits()),
                            (y.lo.to_bits(), y.hi.to_bits()),
                            "{name} as {side}, state {i}"
                        );
                        compared += 1;
                    } else {
                        assert_eq!(x.is_some(), y.is_some());
                    }
                }
                assert!(compared > 50_000, "{name}: {compared}");
            }
        }
    }
}

//! Classification of the transient states and the certified value iteration.
//!
//! See the module documentation of [`crate::exact`] for the mathematics; this file holds
//! the reverse searches that find which absorptions a state can reach and the Gauss-Seidel
//! sweep that raises the three lower bounds `V` (A wins), `W` (B wins) and `Z` (the game
//! falls into the never-ending set).

use super::transitions::Chain;
use crate::exact::shared::bounds::StateBounds;
use crate::exact::shared::group::{MAX_GROUP, solve_group, solve_pair};
use crate::exact::shared::search::{self, Step, Successors};
use crate::fixpoint::{self, Convergence, NotConverged, StopRule, SweepReport};
use std::sync::atomic::AtomicU8;
use std::sync::atomic::Ordering::Relaxed;

/// A state can reach a win of A.
pub const CAN_A: u8 = 1;
/// A state can reach a win of B.
pub const CAN_B: u8 = 2;
/// A state can reach no win at all: it is in the never-ending set.
pub const NEVER: u8 = 4;
/// A state can reach the never-ending set (or is in it).
pub const CAN_NEVER: u8 = 8;

/// What each transient state can reach, as bit flags [`CAN_A`], [`CAN_B`], [`NEVER`],
/// [`CAN_NEVER`] per row.
#[derive(Clone, Debug)]
pub struct Classes {
    /// Flags per row.
    pub flags: Vec<u8>,
    /// Number of rows in the never-ending set.
    pub never: u64,
}

impl Classes {
    /// Finds the classes by the shared boolean fixed point ([`search::can_reach`]): the rows
    /// from which a win of A (of B) can be reached; the rows reaching neither form the
    /// never-ending set; a second round finds the rows that can reach it. The row order
    /// follows the game backwards, so two or three passes suffice.
    pub fn of(chain: &Chain) -> Classes {
        let space = ChainFlags {
            chain,
            flags: (0..chain.states()).map(|_| AtomicU8::new(0)).collect(),
        };
        search::can_reach(&space, CAN_A | CAN_B, [CAN_A, CAN_B], 0);
        let mut never = 0u64;
        for f in &space.flags {
            if f.load(Relaxed) & (CAN_A | CAN_B) == 0 {
                f.store(NEVER | CAN_NEVER, Relaxed);
                never += 1;
            }
        }
        if never > 0 {
            search::can_reach(&space, CAN_NEVER, [0, 0], 0);
        }
        let flags = space.flags.into_iter().map(AtomicU8::into_inner).collect();
        Classes { flags, never }
    }
}

/// The chain as a [`Successors`] space with a flag byte per row.
struct ChainFlags<'c> {
    chain: &'c Chain,
    flags: Vec<AtomicU8>,
}

/// Rows per unit of parallel work.
const CHUNK_ROWS: usize = 1024;

/// Chains with fewer rows are searched by a single thread: the gain would be lost to
/// synchronisation.
pub const PARALLEL_ROWS: usize = 1 << 21;

impl Successors for ChainFlags<'_> {
    type State = usize;
    type Batch = ();

    /// Rows in increasing order (the game backwards), decreasing if `forwards`, in chunks
    /// handed out in order to all threads ([`search::in_order`]).
    fn pass(&self, forwards: bool, visit: impl Fn(&(), usize) -> bool + Sync) -> bool {
        let n = self.chain.states();
        search::in_order(n, CHUNK_ROWS, forwards, n >= PARALLEL_ROWS, |rows| {
            let mut any = false;
            for i in rows {
                any |= visit(&(), i);
            }
            any
        })
    }

    #[inline(always)]
    fn for_each_successor(&self, _: &(), i: usize, mut f: impl FnMut(Step<usize>)) {
        for &j in self.chain.row(i).0 {
            f(Step::Next(j as usize));
        }
        for (player, &p) in self.chain.absorb[i].iter().enumerate() {
            if p > 0.0 {
                f(Step::Win(player));
            }
        }
    }

    #[inline(always)]
    fn flags(&self, i: usize) -> u8 {
        self.flags[i].load(Relaxed)
    }

    #[inline(always)]
    fn add_flags(&self, i: usize, bits: u8) {
        self.flags[i].fetch_or(bits, Relaxed);
    }
}

/// The lower bounds `[V, W, Z]` of every row and what they certify.
///
/// One flat vector with two values per row (`V`, `W`) when there is no never-ending state,
/// three (with `Z`) otherwise: the sweep reads the values of random rows, and 16 bytes per
/// row instead of 24 means fewer cache lines.
#[derive(Clone, Debug)]
pub struct Values {
    data: Vec<f64>,
    /// Values per row: 2 or 3.
    k: usize,
}

impl Values {
    /// Starts every transient row at 0 and every never-ending row at its exact value
    /// `[0, 0, 1]`.
    pub fn new(classes: &Classes) -> Values {
        let k = if classes.never > 0 { 3 } else { 2 };
        let mut data = vec![0.0; classes.flags.len() * k];
        if k == 3 {
            for (i, &f) in classes.flags.iter().enumerate() {
                if f & NEVER != 0 {
                    data[i * 3 + 2] = 1.0;
                }
            }
        }
        Values { data, k }
    }

    /// The lower bounds of P(A wins), P(B wins), P(never ends) from row `i`.
    #[inline(always)]
    pub fn lower(&self, i: usize) -> [f64; 3] {
        let c = &self.data[i * self.k..(i + 1) * self.k];
        [c[0], c[1], if self.k == 3 { c[2] } else { 0.0 }]
    }

    /// Writes row `i` and returns the largest change.
    #[inline(always)]
    fn store(&mut self, i: usize, new: [f64; 3]) -> f64 {
        let k = self.k;
        let c = &mut self.data[i * k..(i + 1) * k];
        let mut change = 0.0f64;
        for (slot, &v) in c.iter_mut().zip(&new) {
            change = change.max((v - *slot).abs());
            *slot = v;
        }
        change
    }

    /// Number of rows.
    pub fn len(&self) -> usize {
        self.data.len() / self.k
    }

    /// Whether there are no rows.
    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }

    /// The certified intervals of row `i` ([`StateBounds::certified`]): a figure the row
    /// cannot reach is exactly 0, a never-ending row is exactly `[0, 0, 1]`.
    pub fn bounds(&self, classes: &Classes, i: usize) -> StateBounds {
        let f = classes.flags[i];
        if f & NEVER != 0 {
            return StateBounds::NEVER;
        }
        let reachable = [CAN_A, CAN_B, CAN_NEVER].map(|bit| f & bit != 0);
        StateBounds::certified(self.lower(i), reachable)
    }
}

/// Runs Gauss-Seidel sweeps in row order until the intervals of the rows `watch` are at
/// most `rule.tolerance` wide; after each sweep `after_sweep` is told the rows updated so
/// far and the widest of those intervals.
///
/// Each sweep sets, for every row `i` outside the never-ending set,
/// `x_i <- absorb_i + sum_j Q_ij x_j` for the three components at once, using the values
/// already updated in this sweep. All three start at (or below) their fixed point and the
/// map is monotone, so they rise towards it and stay lower bounds (see [`crate::exact`]).
///
/// The sweep runs on one thread, in row order, so every run gives the same bits whatever
/// the number of threads. (Sweeping neighbouring chunks on two threads at once keeps the
/// bounds valid, since any order of monotone updates does, but needed up to 60 % more
/// sweeps, gained little, and made the last bits depend on timing.)
pub fn iterate(
    chain: &Chain,
    classes: &Classes,
    values: &mut Values,
    watch: &[u32],
    rule: &StopRule,
    after_sweep: &dyn Fn(u64, f64),
) -> Result<Convergence, NotConverged> {
    let track_never = classes.never > 0;
    fixpoint::iterate(rule, |done| {
        let rows = 0..chain.states();
        let change = if track_never {
            sweep::<true>(chain, &classes.flags, values, rows)
        } else {
            sweep::<false>(chain, &classes.flags, values, rows)
        };
        let gap = watch
            .iter()
            .map(|&i| values.bounds(classes, i as usize).width())
            .fold(0.0, f64::max);
        after_sweep((done as u64 + 1) * chain.states() as u64, gap);
        SweepReport { change, gap }
    })
}

/// One in-place sweep over `rows` (whole groups); `NEVER_SET` says whether the third
/// component can be non-zero. Returns the largest change.
///
/// Each group (the rows with the same pieces of both players, see
/// [`Chain::group_starts`]) is solved exactly for the current values outside it
/// ([`crate::exact::shared::group`]; a failed try under `three-tries` links rows too). Without it, the pair
/// where both players wait for a 6 would shrink its error only by `(5/6)^2` per sweep,
/// and the whole iteration needs four to six times as many sweeps.
// Index loops: rows and columns of a small dense system read clearer as indices.
#[allow(clippy::needless_range_loop)]
fn sweep<const NEVER_SET: bool>(
    chain: &Chain,
    flags: &[u8],
    x: &mut Values,
    rows: std::ops::Range<usize>,
) -> f64 {
    let mut change = 0.0f64;
    let mut i = rows.start;
    // The group's unknown rows, their outside sums and couplings.
    let mut members = [0usize; MAX_GROUP];
    let mut sums = [[0.0f64; 3]; MAX_GROUP];
    let mut c = [[0.0f64; MAX_GROUP]; MAX_GROUP];
    while i < rows.end {
        let mut end = i + 1;
        while !chain.starts_group(end) {
            end += 1;
        }
        let mut k = 0;
        for r in i..end {
            if !(NEVER_SET && flags[r] & NEVER != 0) {
                members[k] = r;
                k += 1;
            }
        }
        debug_assert!(end - i <= MAX_GROUP);
        if k == 1 {
            let r = members[0];
            let s = row_sum::<NEVER_SET>(chain, x, r, 0..0, &mut []);
            change = change.max(x.store(r, s));
        } else if k == 2 && end - i == 2 {
            // The common case, a pair of sides: the 2 x 2 system in closed form.
            let mut p = [[0.0f64; 2]; 2];
            let s0 = row_sum::<NEVER_SET>(chain, x, i, i..end, &mut p[0]);
            let s1 = row_sum::<NEVER_SET>(chain, x, i + 1, i..end, &mut p[1]);
            let [x0, x1] = solve_pair(p, [s0, s1]);
            change = change.max(x.store(i, x0)).max(x.store(i + 1, x1));
        } else if k > 1 {
            for m in 0..k {
                c[m] = [0.0; MAX_GROUP];
                sums[m] = row_sum::<NEVER_SET>(chain, x, members[m], i..end, &mut c[m][..]);
            }
            // Couplings were recorded by row offset in the group. If never-ending rows sit
            // in the group, their fixed values go into the sums and the couplings are
            // compacted to the unknown rows.
            if k < end - i {
                for (row, sum) in c.iter_mut().zip(sums.iter_mut()).take(k) {
                    let by_offset = *row;
                    for r in i..end {
                        if flags[r] & NEVER != 0 {
                            let fixed = x.lower(r);
                            for comp in 0..3 {
                                sum[comp] += by_offset[r - i] * fixed[comp];
                            }
                        }
                    }
                    *row = [0.0; MAX_GROUP];
                    for (m, &r) in members[..k].iter().enumerate() {
                        row[m] = by_offset[r - i];
                    }
                }
            }
            let y = solve_group(&mut c, &mut sums, k);
            for m in 0..k {
                change = change.max(x.store(members[m], y[m]));
            }
        }
        i = end;
    }
    change
}

/// `absorb + sum_j Q_ij x_j` for row `i` over all columns outside `group`; the
/// probabilities of the columns inside go to `coupling[j - group.start]`.
#[inline(always)]
fn row_sum<const NEVER_SET: bool>(
    chain: &Chain,
    x: &Values,
    i: usize,
    group: std::ops::Range<usize>,
    coupling: &mut [f64],
) -> [f64; 3] {
    let (cols, probs) = chain.row(i);
    let [ra, rb] = chain.absorb[i];
    let (mut v, mut w, mut z) = (ra, rb, 0.0);
    for (&j, &q) in cols.iter().zip(probs) {
        let j = j as usize;
        if group.contains(&j) {
            coupling[j - group.start] = q;
            continue;
        }
        if NEVER_SET {
            let cell = &x.data[3 * j..3 * j + 3];
            v += q * cell[0];
            w += q * cell[1];
            z += q * cell[2];
        } else {
            let cell = &x.data[2 * j..2 * j + 2];
            v += q * cell[0];
            w += q * cell[1];
        }
    }
    [v, w, z]
}

//! Classification of the transient states and the certified value iteration.
//!
//! See the module documentation of [`crate::exact`] for the mathematics; this file holds
//! the reverse searches that find which absorptions a state can reach and the Gauss-Seidel
//! sweep that raises the three lower bounds `V` (A wins), `W` (B wins) and `Z` (the game
//! falls into the never-ending set).

use super::transitions::Chain;
use crate::fixpoint::{self, Convergence, NotConverged, StopRule, SweepReport};
use std::sync::atomic::Ordering::Relaxed;
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU64, AtomicUsize};

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
    /// Finds the classes: the rows from which a win of A (of B) can be reached are the
    /// least fixed point of "absorbs into it in one step, or has a successor that can",
    /// found by sweeps that OR each row's successors' flags into it until nothing changes
    /// (the reverse graph search from the winning states, done in place without building
    /// the transposed graph; the row order follows the game backwards, so two or three
    /// sweeps suffice). Rows reaching neither form the never-ending set; a second round
    /// finds the rows that can reach it.
    pub fn of(chain: &Chain) -> Classes {
        let n = chain.states();
        let flags: Vec<AtomicU8> = chain
            .absorb
            .iter()
            .map(|r| AtomicU8::new((u8::from(r[0] > 0.0) * CAN_A) | (u8::from(r[1] > 0.0) * CAN_B)))
            .collect();
        propagate(chain, &flags, CAN_A | CAN_B);
        let mut never = 0u64;
        for f in &flags {
            if f.load(Relaxed) & (CAN_A | CAN_B) == 0 {
                f.store(NEVER | CAN_NEVER, Relaxed);
                never += 1;
            }
        }
        if never > 0 {
            propagate(chain, &flags, CAN_NEVER);
        }
        let flags: Vec<u8> = flags.into_iter().map(AtomicU8::into_inner).collect();
        debug_assert_eq!(flags.len(), n);
        Classes { flags, never }
    }
}

/// Sweeps `flags[i] |= flags[j] & mask` over all entries `(i, j)` until a sweep changes
/// nothing.
fn propagate(chain: &Chain, flags: &[AtomicU8], mask: u8) {
    loop {
        let changed = AtomicBool::new(false);
        for_chunks_in_order(chain, |rows| {
            let mut any = false;
            for i in rows {
                let own = flags[i].load(Relaxed);
                if own & mask == mask {
                    continue;
                }
                let mut acc = own;
                for &j in chain.row(i).0 {
                    acc |= flags[j as usize].load(Relaxed) & mask;
                }
                if acc != own {
                    flags[i].store(acc, Relaxed);
                    any = true;
                }
            }
            if any {
                changed.store(true, Relaxed);
            }
        });
        if !changed.load(Relaxed) {
            return;
        }
    }
}

/// Rows per unit of parallel work. A pair of rows (see [`Chain::pairs`]) is never split.
const CHUNK_ROWS: usize = 1024;

/// Chains with fewer rows are swept by a single thread.
pub const PARALLEL_ROWS: usize = 1 << 21;

/// Runs `work` on consecutive ranges of rows, handed out in increasing order to all rayon
/// threads. At any moment the ranges being worked on are neighbours, so nearly every value
/// a row reads from an earlier row is already from the current sweep: the parallel sweep
/// is almost exactly the sequential Gauss-Seidel sweep.
fn for_chunks_in_order(chain: &Chain, work: impl Fn(std::ops::Range<usize>) + Sync) {
    let n = chain.states();
    let chunks = n.div_ceil(CHUNK_ROWS);
    let boundary = |r: usize| {
        if r > 0 && r < n && chain.pair_starts_at(r - 1) {
            r + 1
        } else {
            r
        }
    };
    let next = AtomicUsize::new(0);
    // Small chains are swept by one thread: the gain would be lost to extra sweeps and
    // synchronisation, and the result stays reproducible to the last bit.
    let threads = if n < PARALLEL_ROWS {
        1
    } else {
        rayon::current_num_threads().clamp(1, chunks.max(1))
    };
    let run = || {
        loop {
            let k = next.fetch_add(1, Relaxed);
            if k >= chunks {
                break;
            }
            let range = boundary(k * CHUNK_ROWS)..boundary(((k + 1) * CHUNK_ROWS).min(n));
            work(range);
        }
    };
    if threads == 1 {
        run();
    } else {
        rayon::scope(|s| {
            for _ in 0..threads {
                s.spawn(|_| run());
            }
        });
    }
}

/// A closed interval `[lo, hi]` that provably contains a probability.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct Bounds {
    /// Lower end.
    pub lo: f64,
    /// Upper end.
    pub hi: f64,
}

impl Bounds {
    /// `hi - lo`.
    pub fn width(&self) -> f64 {
        self.hi - self.lo
    }

    /// The midpoint, the reported value: within `width() / 2` of the truth.
    pub fn mid(&self) -> f64 {
        if self.lo == self.hi {
            self.lo
        } else {
            0.5 * (self.lo + self.hi)
        }
    }

    /// `w * self + (1 - w) * other`, the interval of a mixture.
    pub fn mix(&self, w: f64, other: &Bounds) -> Bounds {
        Bounds {
            lo: w * self.lo + (1.0 - w) * other.lo,
            hi: w * self.hi + (1.0 - w) * other.hi,
        }
    }

    /// Whether `x` lies in the interval.
    pub fn contains(&self, x: f64) -> bool {
        self.lo <= x && x <= self.hi
    }
}

/// The certified intervals of one state: A wins, B wins, the game never ends.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct StateBounds {
    /// P(A wins).
    pub a: Bounds,
    /// P(B wins).
    pub b: Bounds,
    /// P(the game never ends).
    pub never: Bounds,
}

impl StateBounds {
    /// The largest width of the three intervals.
    pub fn width(&self) -> f64 {
        self.a.width().max(self.b.width()).max(self.never.width())
    }
}

/// The lower bounds `[V, W, Z]` of every row and what they certify.
///
/// Stored as `f64` bit patterns in atomics so that the parallel sweep may read a value while
/// another thread writes it (relaxed loads and stores compile to plain moves).
#[derive(Debug)]
pub struct Values {
    cells: Vec<[AtomicU64; 3]>,
}

impl Values {
    /// Starts every transient row at 0 and every never-ending row at its exact value
    /// `[0, 0, 1]`.
    pub fn new(classes: &Classes) -> Values {
        let one = 1.0f64.to_bits();
        let cells = classes
            .flags
            .iter()
            .map(|&f| {
                let z = if f & NEVER != 0 { one } else { 0 };
                [AtomicU64::new(0), AtomicU64::new(0), AtomicU64::new(z)]
            })
            .collect();
        Values { cells }
    }

    /// The lower bounds of P(A wins), P(B wins), P(never ends) from row `i`.
    #[inline(always)]
    pub fn lower(&self, i: usize) -> [f64; 3] {
        let c = &self.cells[i];
        [0, 1, 2].map(|k| f64::from_bits(c[k].load(Relaxed)))
    }

    #[inline(always)]
    fn store(&self, i: usize, new: [f64; 3]) -> f64 {
        let old = self.lower(i);
        let c = &self.cells[i];
        for k in 0..3 {
            c[k].store(new[k].to_bits(), Relaxed);
        }
        (new[0] - old[0])
            .abs()
            .max((new[1] - old[1]).abs())
            .max((new[2] - old[2]).abs())
    }

    /// Number of rows.
    pub fn len(&self) -> usize {
        self.cells.len()
    }

    /// Whether there are no rows.
    pub fn is_empty(&self) -> bool {
        self.cells.is_empty()
    }

    /// The certified intervals of row `i`: each figure lies between its lower bound and one
    /// minus the other two lower bounds, and is exactly 0 when the row cannot reach it.
    pub fn bounds(&self, classes: &Classes, i: usize) -> StateBounds {
        let [v, w, z] = self.lower(i);
        let f = classes.flags[i];
        let bound = |lo: f64, others: f64, reachable: bool| {
            if !reachable {
                return Bounds { lo: 0.0, hi: 0.0 };
            }
            // Rounding can push a sum of probabilities a few ulps past 1.
            let lo = lo.clamp(0.0, 1.0);
            let hi = (1.0 - others).clamp(lo, 1.0);
            Bounds { lo, hi }
        };
        if f & NEVER != 0 {
            return StateBounds {
                a: Bounds { lo: 0.0, hi: 0.0 },
                b: Bounds { lo: 0.0, hi: 0.0 },
                never: Bounds { lo: 1.0, hi: 1.0 },
            };
        }
        StateBounds {
            a: bound(v, w + z, f & CAN_A != 0),
            b: bound(w, v + z, f & CAN_B != 0),
            never: bound(z, v + w, f & CAN_NEVER != 0),
        }
    }
}

/// Runs Gauss-Seidel sweeps in row order until the intervals of the rows `watch` are at
/// most `rule.tolerance` wide.
///
/// Each sweep sets, for every row `i` outside the never-ending set,
/// `x_i <- absorb_i + sum_j Q_ij x_j` for the three components at once, using the values
/// already updated in this sweep. All three start at (or below) their fixed point and the
/// map is monotone, so they rise towards it and stay lower bounds (see [`crate::exact`]).
/// On chains of at least [`PARALLEL_ROWS`] rows with several rayon threads the sweep runs
/// on neighbouring chunks of rows at once (see [`for_chunks_in_order`]); a row may then read
/// a neighbour's value from the previous sweep, which keeps every property above (any
/// order of monotone updates does) but makes the last bits of the result, far below the
/// tolerance, depend on timing. With one thread every run is bit-for-bit the same.
pub fn iterate(
    chain: &Chain,
    classes: &Classes,
    values: &Values,
    watch: &[u32],
    rule: &StopRule,
) -> Result<Convergence, NotConverged> {
    let track_never = classes.never > 0;
    fixpoint::iterate(rule, |_| {
        let change = AtomicU64::new(0);
        for_chunks_in_order(chain, |rows| {
            let c = if track_never {
                sweep::<true>(chain, &classes.flags, values, rows)
            } else {
                sweep::<false>(chain, &classes.flags, values, rows)
            };
            // Non-negative floats order like their bit patterns.
            change.fetch_max(c.to_bits(), Relaxed);
        });
        let change = f64::from_bits(change.into_inner());
        let gap = watch
            .iter()
            .map(|&i| values.bounds(classes, i as usize).width())
            .fold(0.0, f64::max);
        SweepReport { change, gap }
    })
}

/// The sums `absorb + sum_j Q_ij x_j` of row `i` over all columns except `skip`, and the
/// probability of the entry at `skip` (0 if none).
#[inline(always)]
fn row_sum<const NEVER_SET: bool>(
    chain: &Chain,
    x: &Values,
    i: usize,
    skip: usize,
) -> ([f64; 3], f64) {
    let (cols, probs) = chain.row(i);
    let [ra, rb] = chain.absorb[i];
    let (mut v, mut w, mut z) = (ra, rb, 0.0);
    let mut coupling = 0.0;
    for (&j, &q) in cols.iter().zip(probs) {
        let j = j as usize;
        if j == skip {
            coupling = q;
            continue;
        }
        let c = &x.cells[j];
        v += q * f64::from_bits(c[0].load(Relaxed));
        w += q * f64::from_bits(c[1].load(Relaxed));
        if NEVER_SET {
            z += q * f64::from_bits(c[2].load(Relaxed));
        }
    }
    ([v, w, z], coupling)
}

/// One in-place sweep over `rows`; `NEVER_SET` says whether the third component can be
/// non-zero. Returns the largest change.
///
/// A pair of rows `i, i + 1` (same pieces, either side to move) is solved exactly: with
/// `s0, s1` the rows' sums over all other columns and `p01, p10` the probabilities that a
/// roll moves nothing and passes the turn, `x0 = s0 + p01 x1`, `x1 = s1 + p10 x0` give
/// `x0 = (s0 + p01 s1) / (1 - p01 p10)`. Without this, the pair where both players wait
/// for a 6 would shrink its error only by `(5/6)^2` per sweep, and the whole iteration
/// needs four to six times as many sweeps.
fn sweep<const NEVER_SET: bool>(
    chain: &Chain,
    flags: &[u8],
    x: &Values,
    rows: std::ops::Range<usize>,
) -> f64 {
    let mut change = 0.0f64;
    let mut i = rows.start;
    while i < rows.end {
        let skip_i = NEVER_SET && flags[i] & NEVER != 0;
        if chain.pair_starts_at(i) && !skip_i && !(NEVER_SET && flags[i + 1] & NEVER != 0) {
            let (s0, p01) = row_sum::<NEVER_SET>(chain, x, i, i + 1);
            let (s1, p10) = row_sum::<NEVER_SET>(chain, x, i + 1, i);
            let d = 1.0 - p01 * p10;
            let x0 = [0, 1, 2].map(|c| (s0[c] + p01 * s1[c]) / d);
            let x1 = [0, 1, 2].map(|c| s1[c] + p10 * x0[c]);
            change = change.max(x.store(i, x0)).max(x.store(i + 1, x1));
            i += 2;
            continue;
        }
        if !skip_i {
            let (s, _) = row_sum::<NEVER_SET>(chain, x, i, usize::MAX);
            change = change.max(x.store(i, s));
        }
        i += 1;
    }
    change
}

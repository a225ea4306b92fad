//! Classification of the transient states and the certified value iteration.
//!
//! See the module documentation of [`crate::exact`] for the mathematics; this file holds
//! the reverse searches that find which absorptions a state can reach and the Gauss-Seidel
//! sweep that raises the three lower bounds `V` (A wins), `W` (B wins) and `Z` (the game
//! falls into the never-ending set).

use super::transitions::Chain;
use crate::fixpoint::{self, Convergence, NotConverged, StopRule, SweepReport};
use std::sync::atomic::Ordering::Relaxed;
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicUsize};

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

/// Rows per unit of parallel work. A group of rows (see [`Chain::group_starts`]) is never
/// split.
const CHUNK_ROWS: usize = 1024;

/// Chains with fewer rows are classified by a single thread.
pub const PARALLEL_ROWS: usize = 1 << 21;

/// Runs `work` on consecutive ranges of rows, handed out in increasing order to all rayon
/// threads. At any moment the ranges being worked on are neighbours, so nearly every flag
/// a row reads from an earlier row is already from the current pass.
fn for_chunks_in_order(chain: &Chain, work: impl Fn(std::ops::Range<usize>) + Sync) {
    let n = chain.states();
    let chunks = n.div_ceil(CHUNK_ROWS);
    let boundary = |mut r: usize| {
        while !chain.starts_group(r) {
            r += 1;
        }
        r
    };
    let next = AtomicUsize::new(0);
    // Small chains are done by one thread: the gain would be lost to synchronisation.
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
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
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
///
/// The sweep runs on one thread, in row order, so every run gives the same bits whatever
/// the number of threads. (Sweeping neighbouring chunks on two threads at once keeps the
/// bounds valid, since any order of monotone updates does, but on the shared two-core
/// machine it needed up to 60 % more sweeps, gained little, and made the last bits depend
/// on timing.)
pub fn iterate(
    chain: &Chain,
    classes: &Classes,
    values: &mut Values,
    watch: &[u32],
    rule: &StopRule,
) -> Result<Convergence, NotConverged> {
    let track_never = classes.never > 0;
    fixpoint::iterate(rule, |_| {
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
        SweepReport { change, gap }
    })
}

/// The largest group: two sides times three tries levels.
const MAX_GROUP: usize = 6;

/// One in-place sweep over `rows` (whole groups); `NEVER_SET` says whether the third
/// component can be non-zero. Returns the largest change.
///
/// Each group (the rows with the same pieces of both players, see
/// [`Chain::group_starts`]) is solved exactly for the current values outside it: with `s`
/// the rows' sums over all columns outside the group and `C` the probabilities between
/// its rows (a roll that moves nothing and passes the turn, a failed try under
/// `three-tries`), the group's values are `(I - C)^-1 s`. For a pair `x0 = s0 + p01 x1`,
/// `x1 = s1 + p10 x0` this is `x0 = (s0 + p01 s1) / (1 - p01 p10)`. Without it, the pair
/// where both players wait for a 6 would shrink its error only by `(5/6)^2` per sweep,
/// and the whole iteration needs four to six times as many sweeps. `(I - C)^-1` is a
/// non-negative matrix (a Neumann series), so the update stays monotone and the values
/// stay lower bounds; Gaussian elimination without pivoting only ever adds non-negative
/// terms here, except in the pivots `1 - ...`, which are the probabilities of leaving.
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
            let (p01, p10) = (p[0][1], p[1][0]);
            let d = 1.0 - p01 * p10;
            let x0 = [0, 1, 2].map(|c| (s0[c] + p01 * s1[c]) / d);
            let x1 = [0, 1, 2].map(|c| s1[c] + p10 * x0[c]);
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

/// Solves `(I - C) y = s` for the first `k` rows by Gaussian elimination without pivoting
/// (`I - C` is a non-singular M-matrix, for which that is stable).
#[inline(always)]
#[allow(clippy::needless_range_loop)]
fn solve_group(
    c: &mut [[f64; MAX_GROUP]; MAX_GROUP],
    s: &mut [[f64; 3]; MAX_GROUP],
    k: usize,
) -> [[f64; 3]; MAX_GROUP] {
    // a = I - C, kept implicitly: diagonal in `diag`, off-diagonal entries as -c.
    let mut diag = [1.0f64; MAX_GROUP];
    for (m, d) in diag.iter_mut().enumerate().take(k) {
        *d -= c[m][m];
    }
    for p in 0..k {
        for r in p + 1..k {
            if c[r][p] == 0.0 {
                continue;
            }
            // Row r -= (a_rp / a_pp) row p, with a_rp = -c[r][p]: adds f * row p.
            let f = c[r][p] / diag[p];
            for col in p + 1..k {
                if col == r {
                    diag[r] -= f * c[p][col];
                } else {
                    c[r][col] += f * c[p][col];
                }
            }
            for comp in 0..3 {
                s[r][comp] += f * s[p][comp];
            }
            c[r][p] = 0.0;
        }
    }
    let mut y = [[0.0f64; 3]; MAX_GROUP];
    for p in (0..k).rev() {
        for comp in 0..3 {
            let mut acc = s[p][comp];
            for col in p + 1..k {
                acc += c[p][col] * y[col][comp];
            }
            y[p][comp] = acc / diag[p];
        }
    }
    y
}

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::{DMatrix, DVector};

    #[test]
    fn group_solve_matches_a_dense_lu() {
        // Substochastic couplings between up to six rows, as under three-tries.
        let raw = [
            [0.0, 0.5, 0.0, 0.1, 0.0, 0.0],
            [0.0, 0.0, 0.6, 0.0, 0.0, 0.2],
            [0.3, 0.0, 0.0, 0.4, 0.0, 0.0],
            [0.0, 0.0, 0.0, 0.0, 0.5, 0.25],
            [0.1, 0.2, 0.0, 0.0, 0.0, 0.6],
            [0.5, 0.0, 0.3, 0.0, 0.1, 0.0],
        ];
        let rhs = [
            [0.2, 0.1, 0.0],
            [0.1, 0.0, 0.05],
            [0.0, 0.3, 0.0],
            [0.05, 0.2, 0.0],
            [0.1, 0.0, 0.0],
            [0.0, 0.1, 0.1],
        ];
        for k in 2..=MAX_GROUP {
            let mut c = [[0.0; MAX_GROUP]; MAX_GROUP];
            let mut s = [[0.0; 3]; MAX_GROUP];
            for r in 0..k {
                c[r][..k].copy_from_slice(&raw[r][..k]);
                s[r] = rhs[r];
            }
            let y = solve_group(&mut c, &mut s, k);
            let a = DMatrix::from_fn(k, k, |r, col| f64::from(u8::from(r == col)) - raw[r][col]);
            let lu = a.lu();
            for comp in 0..3 {
                let b = DVector::from_fn(k, |r, _| rhs[r][comp]);
                let x = lu.solve(&b).unwrap();
                for r in 0..k {
                    assert!(
                        (x[r] - y[r][comp]).abs() < 1e-14,
                        "k {k}, row {r}: {} vs {}",
                        x[r],
                        y[r][comp]
                    );
                    assert!(y[r][comp] >= 0.0);
                }
            }
        }
    }
}

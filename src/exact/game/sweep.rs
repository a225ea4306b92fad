//! One Gauss-Seidel sweep over the cells of the game's space, shared by the game's value
//! iteration and the evaluation of a policy pair: each cell (the two sides to move of one
//! configuration pair, linked by rolls that move nothing) is solved exactly for the current
//! values outside it ([`crate::exact::shared::group`]), in place, on all threads.

use super::space::GameSpace;
use crate::exact::shared::group::{solve_one, solve_pair};
use std::sync::atomic::AtomicU64;
use std::sync::atomic::Ordering::Relaxed;

/// `K` values per joint index, readable and writable from every thread.
pub struct Store<const K: usize> {
    slots: Vec<AtomicU64>,
}

impl<const K: usize> Store<K> {
    /// `len` indices, each starting at `init`.
    pub fn new(len: usize, init: [f64; K]) -> Store<K> {
        Store {
            slots: crate::exact::shared::huge::huge_vec(len * K, |i| {
                AtomicU64::new(init[i % K].to_bits())
            }),
        }
    }

    /// The values of `index`.
    #[inline(always)]
    pub fn load(&self, index: usize) -> [f64; K] {
        std::array::from_fn(|k| f64::from_bits(self.slots[index * K + k].load(Relaxed)))
    }

    /// Writes the values of `index`; returns the largest change. A load and a store, not a
    /// swap: a sweep writes each index from one thread only, and a locked swap per value
    /// cost a measurable share of a sweep.
    #[inline(always)]
    pub fn store(&self, index: usize, x: [f64; K]) -> f64 {
        let mut change = 0.0f64;
        for (k, v) in x.into_iter().enumerate() {
            let slot = &self.slots[index * K + k];
            let old = f64::from_bits(slot.load(Relaxed));
            slot.store(v.to_bits(), Relaxed);
            change = change.max((v - old).abs());
        }
        change
    }

    /// Bytes per index.
    pub const BYTES_PER_INDEX: u64 = 8 * K as u64;
}

/// `K` values per index as a sweep reads and writes them, from every thread: [`Store`]
/// keeps them as `f64`; the layered solver can keep its brackets narrower.
pub(crate) trait Values<const K: usize>: Sync {
    /// The values of `index`.
    fn load(&self, index: usize) -> [f64; K];
    /// Writes the values of `index` (as they are kept); returns the largest change of a
    /// kept value.
    fn store(&self, index: usize, x: [f64; K]) -> f64;
}

impl<const K: usize> Values<K> for Store<K> {
    #[inline(always)]
    fn load(&self, index: usize) -> [f64; K] {
        Store::load(self, index)
    }

    #[inline(always)]
    fn store(&self, index: usize, x: [f64; K]) -> f64 {
        Store::store(self, index, x)
    }
}

/// What a row contributes in a sweep: the one-step sum over everything outside its cell,
/// and the probabilities of staying in the cell (rolls that move nothing) to side 0 and 1.
#[derive(Clone, Copy)]
pub(crate) struct RowUpdate<const K: usize> {
    /// The sum over the rolls that leave the cell.
    pub outside: [f64; K],
    /// Probability of a roll moving nothing, to side 0 and to side 1 of the cell.
    pub stay: [f64; 2],
}

/// The values of a cell's two rows for the current values outside it: the iterated rows
/// (`Some`) solved together, a row that is not iterated held at `fixed[row]()`. `None` if
/// neither row is iterated.
pub(crate) fn solve_cell<const K: usize>(
    rows: &[Option<RowUpdate<K>>; 2],
    fixed: [&dyn Fn() -> [f64; K]; 2],
) -> Option<[[f64; K]; 2]> {
    let mut s = [[0.0; K]; 2];
    let mut coupling = [[0.0; 2]; 2];
    for (r, update) in rows.iter().enumerate() {
        let Some(u) = update else { continue };
        s[r] = u.outside;
        for t in 0..2 {
            if rows[t].is_some() {
                coupling[r][t] = u.stay[t];
            } else if u.stay[t] > 0.0 {
                let v = fixed[t]();
                for k in 0..K {
                    s[r][k] += u.stay[t] * v[k];
                }
            }
        }
    }
    match (rows[0].is_some(), rows[1].is_some()) {
        (true, true) => Some(solve_pair(coupling, s)),
        (true, false) => Some([solve_one(coupling[0][0], s[0]), [0.0; K]]),
        (false, true) => Some([[0.0; K], solve_one(coupling[1][1], s[1])]),
        (false, false) => None,
    }
}

/// How a sweep may use the game's mirror symmetry ([`GameSpace::symmetric`]): the state
/// `(b, a, 1 - s)` is `(a, b, s)` seen from the other player, its values mapped by `map`
/// (for the value bracket `[lo, hi] -> [-hi, -lo]`). A sweep with a mirror solves the cells
/// `(a, b)` with `a <= b` only, as without one, and writes the mirror image of each solution
/// into the cell `(b, a)`: half the cells' rows. A move from a cell `(a, b)` with `a <= b`
/// leads to a cell solved earlier in the sweep or to the mirror image of one (captures
/// aside), but the order differs from the plain sweep's and can take a few more sweeps
/// (16/8/2/2 to 1e-12: 18 against 15).
#[derive(Clone, Copy)]
pub(crate) struct Mirror<const K: usize> {
    /// The values of a state mapped to those of its mirror image.
    pub map: fn([f64; K]) -> [f64; K],
}

/// The update of a row seen from the other player (the row of the mirror state): outside
/// sums mapped, the stays to side 0 and side 1 exchanged.
fn mirrored<const K: usize>(u: RowUpdate<K>, mirror: Mirror<K>) -> RowUpdate<K> {
    RowUpdate {
        outside: (mirror.map)(u.outside),
        stay: [u.stay[1], u.stay[0]],
    }
}

/// One sweep: for each cell, `row(index)` gives the update of each iterated row (`None`:
/// the row is not iterated, its value is `fixed(index)`); the cell's iterated rows are
/// solved together. With a `mirror`, see [`Mirror`]. Returns the largest change.
pub(crate) fn sweep<const K: usize>(
    space: &GameSpace,
    store: &Store<K>,
    mirror: Option<Mirror<K>>,
    fixed: impl Fn(usize) -> [f64; K] + Sync,
    row: impl Fn(usize) -> Option<RowUpdate<K>> + Sync,
) -> f64 {
    sweep_by_rows(space, store, mirror, fixed, |_| &row)
}

/// [`sweep`] with the updates made a row of configurations at a time: `rows(a)` is called
/// once for each configuration `a` of A, before the row's cells, and gives the `row`
/// function of [`sweep`] for them (with a `mirror`, for the cells `(a, b)` with `b >= a`).
pub(crate) fn sweep_by_rows<const K: usize, R: FnMut(usize) -> Option<RowUpdate<K>>>(
    space: &GameSpace,
    store: &Store<K>,
    mirror: Option<Mirror<K>>,
    fixed: impl Fn(usize) -> [f64; K] + Sync,
    rows: impl Fn(usize) -> R + Sync,
) -> f64 {
    let change = AtomicU64::new(0);
    let fixed = &fixed;
    space.for_rows(false, true, |a, cells| {
        let mut row = rows(a);
        for c in cells {
            let mirror = mirror.map(|m| (m, |c| space.mirror_cell(c)));
            update_cell(store, mirror, fixed, &mut row, &change, c);
        }
        false
    });
    // Non-negative doubles order as their bit patterns.
    f64::from_bits(change.into_inner())
}

/// The A-to-move updates of one row `a` of a sweep (the cells `(a, b)`), where A's moves
/// depend on `a` and the face alone (no capture duty narrows them), made
/// [`ROW_CHUNK`] cells at a time as the sweep reaches them: `fill(start, sums,
/// illegal)` adds, face by face, the value of A's move in each cell `b = start + i` to
/// `sums[i]` (or marks `illegal[i]`), reading each move's values along its target row in
/// order instead of a scattered read per cell and face. The rolls that move nothing
/// depend on `a` and the face alone too.
pub(crate) struct RowOfA<F> {
    /// The first `b` of the chunk made, its cells' sums outside the cell, and whether a
    /// fixed side's pick was not a legal move there.
    start: usize,
    sums: Vec<[f64; 2]>,
    illegal: Vec<bool>,
    /// Configurations of B: the row's length.
    row_len: usize,
    /// Probability of a roll moving nothing, to side 0 (a 6) and side 1.
    stay: [f64; 2],
    fill: F,
}

/// How a [`RowOfA`] makes a chunk: `fill(start, sums, illegal)`.
pub(crate) trait FillRow: FnMut(usize, &mut [[f64; 2]], &mut [bool]) {}

impl<F: FnMut(usize, &mut [[f64; 2]], &mut [bool])> FillRow for F {}

/// Cells a chunk of [`RowOfA`]: a few kilobytes of sums, long enough streams to be
/// prefetched.
pub(crate) const ROW_CHUNK: usize = 2048;

impl<F: FnMut(usize, &mut [[f64; 2]], &mut [bool])> RowOfA<F> {
    /// The row `a` of `space`, its chunks made by `fill`.
    pub(crate) fn new(space: &GameSpace, a: usize, fill: F) -> RowOfA<F> {
        let me = &space.players[0];
        let mut stay = [0.0; 2];
        for (k, &(face, p)) in me.faces.iter().enumerate() {
            if me.moves(a, k).is_empty() {
                // Side 0 to move: a 6 keeps the turn, another face passes it.
                stay[space.no_move_target(0, face) & 1] += p;
            }
        }
        RowOfA {
            start: usize::MAX,
            sums: Vec::with_capacity(ROW_CHUNK),
            illegal: Vec::with_capacity(ROW_CHUNK),
            row_len: space.players[1].configs.len(),
            stay,
            fill,
        }
    }

    /// The update of the row `(a, b)` with A to move, `None` where a fixed side's pick was
    /// not a legal move. Asked in increasing `b`, as a sweep does, each chunk is made once.
    #[inline(always)]
    pub(crate) fn update(&mut self, b: usize) -> Option<RowUpdate<2>> {
        if !(self.start..self.start.saturating_add(self.sums.len())).contains(&b) {
            let cells = ROW_CHUNK.min(self.row_len - b);
            self.start = b;
            self.sums.clear();
            self.sums.resize(cells, [0.0; 2]);
            self.illegal.clear();
            self.illegal.resize(cells, false);
            (self.fill)(b, &mut self.sums, &mut self.illegal);
        }
        let i = b - self.start;
        (!self.illegal[i]).then(|| RowUpdate {
            outside: self.sums[i],
            stay: self.stay,
        })
    }
}

/// Solves cell `c` of a sweep and writes its values (and, with a mirror and the cell's
/// mirror image `image_of(c)`, their mirror image); the largest change goes into `change`.
#[inline(always)]
pub(crate) fn update_cell<const K: usize>(
    store: &impl Values<K>,
    mirror: Option<(Mirror<K>, impl Fn(usize) -> usize)>,
    fixed: &(impl Fn(usize) -> [f64; K] + Sync),
    row: &mut impl FnMut(usize) -> Option<RowUpdate<K>>,
    change: &AtomicU64,
    c: usize,
) {
    let mut delta = 0.0f64;
    let mut put = |index: usize, x: [f64; K]| delta = delta.max(store.store(index, x));
    let fixed_at = |index: usize| move || fixed(index);
    // With a mirror, the cell (b, a) whose values are the mirror images of this one's.
    let (rows, image) = match mirror {
        None => ([row(2 * c), row(2 * c + 1)], None),
        Some((m, image_of)) => {
            let image = image_of(c);
            if image < c {
                // Written as the mirror image of the cell (b, a).
                return;
            }
            if image == c {
                // The cell (a, a) is its own mirror image: side 0 is side 1 mirrored.
                let own = row(2 * c + 1);
                ([own.map(|u| mirrored(u, m)), own], Some((m, image)))
            } else {
                ([row(2 * c), row(2 * c + 1)], Some((m, image)))
            }
        }
    };
    let Some(mut x) = solve_cell(&rows, [&fixed_at(2 * c), &fixed_at(2 * c + 1)]) else {
        return;
    };
    if let Some((m, image)) = image
        && image == c
    {
        // Exactly antisymmetric, not up to the rounding of the closed form.
        x[0] = (m.map)(x[1]);
    }
    for r in 0..2 {
        if rows[r].is_some() {
            put(2 * c + r, x[r]);
            if let Some((m, image)) = image
                && image != c
            {
                put(2 * image + 1 - r, (m.map)(x[r]));
            }
        }
    }
    if delta > 0.0 {
        change.fetch_max(delta.to_bits(), Relaxed);
    }
}

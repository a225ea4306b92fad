//! A finished group of the layered solve, kept compactly: each state's flags and value
//! midpoint (32-bit fixed point or `f64`) and one certified half-width for the group; and
//! what its solve reports. Shared by the solver ([`super`]) and its files
//! ([`super::values_file`]), neither of which imports the other's internals back.

use super::cluster::Cluster;
use crate::exact::game::sweep::Values;
use crate::exact::shared::ExactError;
use std::sync::Arc;
use std::sync::atomic::AtomicU8;
use std::sync::atomic::Ordering::Relaxed;

/// Bytes of a finished group: its own in memory, or a range of its values file mapped into
/// memory, where the page cache decides which pages stay (a group read back, or written by
/// this process, costs no memory of its own).
#[derive(Clone)]
pub(super) struct Bytes {
    /// Owns the bytes (a `Vec` or a read-only map), which never move nor change while it
    /// lives; only held.
    _owner: Arc<dyn std::any::Any + Send + Sync>,
    /// Whether they are a mapped file's.
    mapped: bool,
    /// The first byte and the length, taken from the owner once: the solver's sweeps read
    /// finished groups at every exit, where a look through the owner at every read would
    /// cost them.
    start: *const u8,
    len: usize,
}

// SAFETY: `start` points into the owner's immutable bytes (a `Vec` behind an `Arc`, never
// written again, or a read-only map), which every clone shares.
unsafe impl Send for Bytes {}
unsafe impl Sync for Bytes {}

impl Bytes {
    /// The whole of the file at `path`: mapped where the system maps files, else read.
    ///
    /// A mapped file must not change while it is mapped: values files are written whole
    /// under a temporary name, renamed into place, and never written again (a solve refuses
    /// to replace one), so the mapping stays what was checked.
    pub(super) fn of_file(path: &std::path::Path) -> std::io::Result<Bytes> {
        #[cfg(unix)]
        {
            let file = crate::files::open_regular(path)?;
            // SAFETY: see above; nothing in this program writes a values file in place.
            let map = unsafe { memmap2::Mmap::map(&file)? };
            Ok(Bytes {
                start: map.as_ptr(),
                len: map.len(),
                mapped: true,
                _owner: Arc::new(map),
            })
        }
        #[cfg(not(unix))]
        {
            Ok(Bytes::from(crate::files::read_regular(path, None)?))
        }
    }

    /// The bytes `at..at + len` of these.
    pub(super) fn slice(&self, at: usize, len: usize) -> Bytes {
        assert!(at.checked_add(len).is_some_and(|end| end <= self.len));
        Bytes {
            _owner: Arc::clone(&self._owner),
            mapped: self.mapped,
            // SAFETY: within the bytes, checked above.
            start: unsafe { self.start.add(at) },
            len,
        }
    }

    /// The same bytes, copied into memory of their own.
    pub(super) fn copied(&self) -> Bytes {
        Bytes::from(self.to_vec())
    }

    /// Whether they are a mapped file's.
    pub(super) fn is_mapped(&self) -> bool {
        self.mapped
    }
}

impl From<Vec<u8>> for Bytes {
    fn from(bytes: Vec<u8>) -> Bytes {
        Bytes {
            start: bytes.as_ptr(),
            len: bytes.len(),
            mapped: false,
            _owner: Arc::new(bytes),
        }
    }
}

impl std::ops::Deref for Bytes {
    type Target = [u8];

    #[inline(always)]
    fn deref(&self) -> &[u8] {
        // SAFETY: `start` and `len` describe bytes the owner holds and never changes.
        unsafe { std::slice::from_raw_parts(self.start, self.len) }
    }
}

impl PartialEq for Bytes {
    fn eq(&self, other: &Bytes) -> bool {
        **self == **other
    }
}

impl std::fmt::Debug for Bytes {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let place = if self.is_mapped() {
            "mapped"
        } else {
            "in memory"
        };
        write!(f, "{} bytes {place}", self.len)
    }
}

/// Flag bits of a state in the layered solve.
pub mod bit {
    /// A can win from here under some play.
    pub const WIN_A: u8 = 1;
    /// B can win from here under some play.
    pub const WIN_B: u8 = 2;
    /// In an end component: both players together can keep the game going forever.
    pub const STAY: u8 = 4;
    /// Some play from here reaches a state where the game may go on forever (no win
    /// reachable, or an end component).
    pub const ENDLESS: u8 = 8;
    /// Only one side can win from here and every play ends with a win.
    pub const SETTLED: u8 = 16;
    /// A side has already won: no move leads here, and nothing is played.
    pub const OVER: u8 = 32;
}

/// The value of a state whose flags fix it, whatever is played.
#[inline(always)]
pub(super) fn held_value(bits: u8) -> Option<f64> {
    if bits & bit::OVER != 0 || bits & (bit::WIN_A | bit::WIN_B) == 0 {
        Some(0.0)
    } else if bits & bit::SETTLED != 0 {
        Some(if bits & bit::WIN_A != 0 { 1.0 } else { -1.0 })
    } else {
        None
    }
}

/// How a finished group's midpoints are kept.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Storage {
    /// Fixed point in 32 bits: `m = q / 2^31 - 1`, steps of 2^-31 (4.7e-10) over [-1, 1],
    /// 4 bytes a state. For tolerances of at least [`FIXED32_FROM`]: a group's rounding
    /// then adds at most 2.4e-10 to its half-width, which some twenty groups in a row
    /// cannot carry past a tenth of the tolerance.
    Fixed32,
    /// `f64`, 8 bytes a state, for tighter tolerances.
    F64,
}

/// The narrowest tolerance whose finished groups are kept as [`Storage::Fixed32`].
pub const FIXED32_FROM: f64 = 1e-7;

impl Storage {
    /// The storage for a solve to `tolerance`.
    pub fn for_tolerance(tolerance: f64) -> Storage {
        if tolerance >= FIXED32_FROM {
            Storage::Fixed32
        } else {
            Storage::F64
        }
    }

    /// Bytes a state of a finished group: its flag byte and its midpoint.
    pub fn bytes_per_state(self) -> u64 {
        match self {
            Storage::Fixed32 => 5,
            Storage::F64 => 9,
        }
    }
}

/// The midpoints of a finished group: as solved, or as its values file holds them
/// (little-endian, in the file's storage).
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Mids {
    Fixed32(Vec<u32>),
    F64(Vec<f64>),
    File(Storage, Bytes),
}

/// The scale of [`Storage::Fixed32`]: `q = (m + 1) * 2^31`.
const FIXED_SCALE: f64 = 2_147_483_648.0;

/// `m` on the grid of [`Storage::Fixed32`], as stored.
fn fixed32_of(m: f64) -> u32 {
    ((m + 1.0) * FIXED_SCALE)
        .round()
        .clamp(0.0, f64::from(u32::MAX)) as u32
}

/// The midpoint a stored [`Storage::Fixed32`] `q` stands for; exact: `q < 2^32` and the
/// scale is a power of two.
#[inline(always)]
fn fixed32_value(q: u32) -> f64 {
    f64::from(q) / FIXED_SCALE - 1.0
}

impl Mids {
    #[inline(always)]
    pub(super) fn get(&self, i: usize) -> f64 {
        match self {
            // Exact: q < 2^32 and the scale is a power of two.
            Mids::Fixed32(q) => fixed32_value(q[i]),
            Mids::F64(m) => m[i],
            Mids::File(storage, bytes) => file_mid(*storage, bytes, i),
        }
    }

    pub(super) fn storage(&self) -> Storage {
        match self {
            Mids::Fixed32(_) => Storage::Fixed32,
            Mids::F64(_) => Storage::F64,
            Mids::File(storage, _) => *storage,
        }
    }
}

/// Midpoint `i` of a group read from its mapped file; out of line, so that the sweeps' reads
/// of groups in memory stay as short as they were before files were mapped.
#[cold]
#[inline(never)]
fn file_mid(storage: Storage, bytes: &Bytes, i: usize) -> f64 {
    match storage {
        Storage::Fixed32 => fixed32_value(u32::from_le_bytes(
            bytes[4 * i..4 * i + 4].try_into().expect("4 bytes"),
        )),
        Storage::F64 => f64::from_le_bytes(bytes[8 * i..8 * i + 8].try_into().expect("8 bytes")),
    }
}

/// A finished group: flags and midpoints per state, one half-width.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Finished {
    pub(super) bits: Bytes,
    pub(super) mid: Mids,
    pub(super) half: f64,
}

impl Finished {
    /// The group with its flags and midpoints in memory of its own, the midpoints decoded
    /// (from a mapped file: its pages then cost memory, and the sweeps read it some 15 %
    /// faster than through the file's little-endian bytes).
    pub(super) fn in_memory(self) -> Finished {
        let mid = match self.mid {
            Mids::File(Storage::Fixed32, bytes) => Mids::Fixed32(
                bytes
                    .chunks_exact(4)
                    .map(|c| u32::from_le_bytes(c.try_into().expect("4 bytes")))
                    .collect(),
            ),
            Mids::File(Storage::F64, bytes) => Mids::F64(
                bytes
                    .chunks_exact(8)
                    .map(|c| f64::from_le_bytes(c.try_into().expect("8 bytes")))
                    .collect(),
            ),
            held => held,
        };
        Finished {
            bits: if self.bits.is_mapped() {
                self.bits.copied()
            } else {
                self.bits
            },
            mid,
            half: self.half,
        }
    }

    /// The certified bracket of local index `local`.
    #[inline(always)]
    pub(super) fn bracket(&self, local: usize) -> [f64; 2] {
        self.bracket_within(local, self.half)
    }

    /// The bracket of local index `local` if its midpoint lies within `half` of its
    /// value (a checkpoint's state, [`width_scale`]): rounded outward, exact where the flags
    /// fix the value.
    #[inline(always)]
    pub(super) fn bracket_within(&self, local: usize, half: f64) -> [f64; 2] {
        if let Some(v) = held_value(self.bits[local]) {
            return [v, v];
        }
        let m = self.mid.get(local);
        [
            (m - half).next_down().max(-1.0),
            (m + half).next_up().min(1.0),
        ]
    }

    /// Compacts the brackets of a solved group into `storage`.
    pub(super) fn from_solved(
        bits: &[AtomicU8],
        values: &impl Values<2>,
        storage: Storage,
    ) -> Finished {
        let (mid, half) = midpoints(bits, values, storage);
        Finished {
            bits: Bytes::from(bits.iter().map(|b| b.load(Relaxed)).collect::<Vec<u8>>()),
            mid,
            // The differences were rounded to nearest: one step up covers them.
            half: half.next_up(),
        }
    }

    /// [`Self::from_solved`] where this process holds the flags and brackets of its share
    /// of the group only (`bits[k]`, `values[k]`: the processes' shares in their order make
    /// the group): flags and midpoints gathered from every process as they are kept, the
    /// half-width the widest of theirs.
    pub(super) fn from_shared(
        bits: &[AtomicU8],
        values: &impl Values<2>,
        storage: Storage,
        states: usize,
        cluster: &dyn Cluster,
    ) -> Result<Finished, ExactError> {
        let (mid, half) = midpoints(bits, values, storage);
        let mid = match mid {
            Mids::Fixed32(q) => Mids::Fixed32(cluster.gather_u32(&q)?),
            Mids::F64(m) => {
                let words: Vec<u64> = m.iter().map(|m| m.to_bits()).collect();
                drop(m);
                let words = cluster.gather_u64(&words)?;
                Mids::F64(words.into_iter().map(f64::from_bits).collect())
            }
            Mids::File(..) => unreachable!("a solved group's midpoints are in memory"),
        };
        let own: Vec<u8> = bits.iter().map(|b| b.load(Relaxed)).collect();
        let bits = cluster.gather_u8(&own)?;
        let gathered = match &mid {
            Mids::Fixed32(q) => q.len(),
            Mids::F64(m) => m.len(),
            Mids::File(..) => unreachable!("gathered midpoints are in memory"),
        };
        if bits.len() != states || gathered != states {
            return Err(ExactError::Ranks(format!(
                "the ranks gave {} flags and {gathered} midpoints for a group of {states} states",
                bits.len()
            )));
        }
        Ok(Finished {
            bits: Bytes::from(bits),
            mid,
            half: cluster.max(half)?.next_up(),
        })
    }
}

/// The midpoints of the states `bits` and `values` hold (index by index) as `storage`
/// keeps them, and the largest distance from a stored midpoint to its bracket's ends (of
/// the states whose flags do not fix their value), rounded to nearest.
fn midpoints(bits: &[AtomicU8], values: &impl Values<2>, storage: Storage) -> (Mids, f64) {
    let half;
    let mid = match storage {
        Storage::Fixed32 => {
            let mut q = Vec::with_capacity(bits.len());
            half = each_midpoint(bits, values, storage, 0..bits.len(), |code| {
                q.push(code as u32)
            });
            Mids::Fixed32(q)
        }
        Storage::F64 => {
            let mut m = Vec::with_capacity(bits.len());
            half = each_midpoint(bits, values, storage, 0..bits.len(), |code| {
                m.push(f64::from_bits(code))
            });
            Mids::F64(m)
        }
    };
    (mid, half)
}

/// The body of a values file ([`super::values_file`]) for the states `bits` and `values`
/// hold, fed to `f` piece by piece straight from the working brackets (so no compact copy
/// of the group is in memory): the flag bytes, then the midpoints as `storage` keeps them,
/// little-endian. The bytes and the distance returned are those of [`midpoints`].
pub(super) fn solved_body(
    bits: &[AtomicU8],
    values: &impl Values<2>,
    storage: Storage,
    f: &mut dyn FnMut(&[u8]),
) -> f64 {
    in_order_pieces(bits.len(), f, |states, buffer| {
        buffer.extend(bits[states].iter().map(|b| b.load(Relaxed)));
        0.0
    });
    in_order_pieces(bits.len(), f, |states, buffer| {
        each_midpoint(bits, values, storage, states, |code| match storage {
            Storage::Fixed32 => buffer.extend_from_slice(&(code as u32).to_le_bytes()),
            Storage::F64 => buffer.extend_from_slice(&code.to_le_bytes()),
        })
    })
}

/// Feeds `f`, in order, the bytes `make` puts for consecutive ranges of `0..states`, made on
/// every thread of the pool a batch of ranges at a time (a group's file or checkpoint is
/// gigabytes, worked out state by state, while the sweeps wait); returns the largest of
/// what `make` returned.
fn in_order_pieces(
    states: usize,
    f: &mut dyn FnMut(&[u8]),
    make: impl Fn(std::ops::Range<usize>, &mut Vec<u8>) -> f64 + Sync,
) -> f64 {
    use rayon::prelude::*;
    const CHUNK: usize = 1 << 16;
    let batch = 4 * rayon::current_num_threads().max(1);
    let starts: Vec<usize> = (0..states).step_by(CHUNK).collect();
    let mut buffers: Vec<Vec<u8>> = vec![Vec::new(); batch.min(starts.len())];
    let mut largest = 0.0f64;
    for firsts in starts.chunks(batch) {
        let made: Vec<f64> = buffers
            .par_iter_mut()
            .zip(firsts)
            .map(|(buffer, &first)| {
                buffer.clear();
                make(first..(first + CHUNK).min(states), buffer)
            })
            .collect();
        for (buffer, x) in buffers.iter().zip(made) {
            largest = largest.max(x);
            f(buffer);
        }
    }
    largest
}

/// Steps of [`width_scale`] within an octave: `2^(-j/8)` rounded down to three digits (any
/// values would be sound, as long as they fall; these make each code an eighth of an
/// octave).
const EIGHTHS_OF_AN_OCTAVE: [f64; 8] = [1.0, 0.917, 0.840, 0.771, 0.707, 0.648, 0.594, 0.545];

/// The factor of a checkpoint's half-width code `code`: a state of code `k` lies within
/// `half * width_scale(k)` of its midpoint (`half`: the group's widest), `k / 8` octaves
/// and `k % 8` eighths below it. Exact: a three-digit step times a power of two, so the
/// writer and the reader of a checkpoint compute the same `half * width_scale(k)`,
/// correctly rounded, on every machine.
#[inline(always)]
pub(super) fn width_scale(code: u8) -> f64 {
    let octaves = u64::from(code >> 3);
    EIGHTHS_OF_AN_OCTAVE[usize::from(code & 7)] * f64::from_bits((1023 - octaves) << 52)
}

/// The largest code `k` whose `half * width_scale(k)` is at least `distance` (0 if none is:
/// `half` must cover `distance`).
fn width_code(half: f64, distance: f64) -> u8 {
    // The scale falls with the code: the last code that still covers, by bisection.
    let (mut covers, mut fails) = (0u16, 256u16);
    while fails - covers > 1 {
        let k = (covers + fails) / 2;
        if half * width_scale(k as u8) >= distance {
            covers = k;
        } else {
            fails = k;
        }
    }
    covers as u8
}

/// The half-width codes of a checkpoint ([`width_scale`]) of the states `bits` and `values`
/// hold, for midpoints stored as `storage` keeps them and the group's half-width `half`
/// (at least every state's distance from its stored midpoint to its bracket's ends, rounded
/// up), fed to `f` in pieces after [`solved_body`]'s: each state's own distance rounded up a
/// step, so the bracket its code gives holds its working bracket; 0 where the flags fix
/// the value.
pub(super) fn solved_width_codes(
    bits: &[AtomicU8],
    values: &impl Values<2>,
    storage: Storage,
    half: f64,
    f: &mut dyn FnMut(&[u8]),
) {
    in_order_pieces(bits.len(), f, |states, codes| {
        for k in states {
            if held_value(bits[k].load(Relaxed)).is_some() {
                codes.push(0);
                continue;
            }
            let [lo, hi] = values.load(k);
            let (_, m) = stored_midpoint(lo, hi, storage);
            codes.push(width_code(half, (hi - m).max(m - lo).next_up()));
        }
        0.0
    });
}

/// The midpoint of `[lo, hi]` as `storage` keeps it: its code (the 32-bit fixed point, or
/// an `f64`'s bits) and the value the code stands for.
#[inline(always)]
fn stored_midpoint(lo: f64, hi: f64, storage: Storage) -> (u64, f64) {
    let m = 0.5 * (lo + hi);
    match storage {
        Storage::Fixed32 => {
            let q = fixed32_of(m);
            (u64::from(q), fixed32_value(q))
        }
        Storage::F64 => (m.to_bits(), m),
    }
}

/// Gives `put` the stored midpoint of each state in `states` (the 32-bit fixed point, or an
/// `f64`'s bits); returns the largest distance from a stored midpoint to its bracket's
/// ends among those states whose flags do not fix their value, rounded to nearest
/// (measured from the midpoint as stored, so the grid's rounding is covered).
#[inline]
fn each_midpoint(
    bits: &[AtomicU8],
    values: &impl Values<2>,
    storage: Storage,
    states: std::ops::Range<usize>,
    mut put: impl FnMut(u64),
) -> f64 {
    let mut half = 0.0f64;
    for k in states {
        let [lo, hi] = values.load(k);
        let (code, m) = stored_midpoint(lo, hi, storage);
        put(code);
        if held_value(bits[k].load(Relaxed)).is_none() {
            half = half.max(hi - m).max(m - lo);
        }
    }
    half
}

/// What one group's solve did.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct GroupReport {
    /// A's goal configuration (bit `i`: goal field `i` holds a piece).
    pub goal_a: u32,
    /// B's goal configuration.
    pub goal_b: u32,
    /// States (configuration pairs times the side to move, with those where a side has
    /// already won).
    pub states: u64,
    /// States in end components.
    pub end_component_states: u64,
    /// Sweeps of its value iteration (those before a checkpoint it went on from included).
    pub sweeps: usize,
    /// The widest value bracket of its states at the end (of the two openings in the last
    /// group where its values are not kept: no other group reads it).
    pub width: f64,
    /// Whether it stopped narrowing above half the tolerance.
    pub stalled: bool,
    /// Seconds for its classification and iteration.
    pub seconds: f64,
    /// Seconds of its iteration alone (the sweeps and, over several processes, their
    /// exchanges); 0 in files written before it was recorded.
    #[serde(default)]
    pub sweep_seconds: f64,
    /// Whether it was read back from `--values-out` (solved by an earlier run, whose
    /// figures these are) instead of solved now.
    #[serde(default)]
    pub resumed: bool,
    /// Solved over several processes (MPI ranks): how many, and the states each sweep
    /// sent from one to another (every process's ghosts together, 16 bytes each).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ranks: Option<RanksReport>,
    /// Whether its working brackets were kept in 32-bit fixed point (to fit the memory
    /// allowed) rather than `f64`; `None` in files written before it was recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub narrow_brackets: Option<bool>,
    /// Where its solve went on from a checkpoint an earlier run wrote: the sweeps done
    /// before it (counted in `sweeps`, their seconds in `seconds` and `sweep_seconds`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from_checkpoint_at_sweep: Option<usize>,
}

/// How a group's solve was shared among processes.
#[derive(Clone, Copy, Debug, serde::Serialize, serde::Deserialize)]
pub struct RanksReport {
    /// The processes.
    pub ranks: usize,
    /// States sent from one process to another after every sweep, all processes together.
    pub ghost_states: u64,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exact::game::sweep::Store;
    use rand::{RngExt, SeedableRng};

    /// A group's body and checkpoint codes made on several threads are the bytes made state
    /// by state in order, across chunks and a short last one.
    #[test]
    fn a_body_made_on_several_threads_is_the_one_made_state_by_state() {
        let states = 5 * (1 << 16) + 12_345;
        let mut rng = rand::rngs::StdRng::seed_from_u64(7);
        let flags = [
            0,
            bit::OVER,
            bit::WIN_A,
            bit::WIN_A | bit::WIN_B,
            bit::WIN_B,
        ];
        let bits: Vec<AtomicU8> = (0..states)
            .map(|_| AtomicU8::new(flags[rng.random_range(0..flags.len())]))
            .collect();
        let values = Store::<2>::new(states, [-1.0, 1.0]);
        for k in 0..states {
            let m: f64 = rng.random_range(-1.0..1.0);
            let w: f64 = rng.random_range(0.0..1e-6);
            values.store(k, [(m - w).max(-1.0), (m + w).min(1.0)]);
        }
        for storage in [Storage::Fixed32, Storage::F64] {
            // State by state: the flags, then each midpoint, then each code.
            let mut expected: Vec<u8> = bits.iter().map(|b| b.load(Relaxed)).collect();
            let mut half = 0.0f64;
            for (k, flags) in bits.iter().enumerate() {
                let [lo, hi] = values.load(k);
                let (code, m) = stored_midpoint(lo, hi, storage);
                match storage {
                    Storage::Fixed32 => expected.extend_from_slice(&(code as u32).to_le_bytes()),
                    Storage::F64 => expected.extend_from_slice(&code.to_le_bytes()),
                }
                if held_value(flags.load(Relaxed)).is_none() {
                    half = half.max(hi - m).max(m - lo);
                }
            }
            let group_half = half.next_up();
            for (k, flags) in bits.iter().enumerate() {
                let [lo, hi] = values.load(k);
                let (_, m) = stored_midpoint(lo, hi, storage);
                expected.push(match held_value(flags.load(Relaxed)) {
                    Some(_) => 0,
                    None => width_code(group_half, (hi - m).max(m - lo).next_up()),
                });
            }
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(3)
                .build()
                .unwrap();
            let (made, made_half) = pool.install(|| {
                let mut made = Vec::new();
                let made_half =
                    solved_body(&bits, &values, storage, &mut |b| made.extend_from_slice(b));
                solved_width_codes(&bits, &values, storage, made_half.next_up(), &mut |b| {
                    made.extend_from_slice(b)
                });
                (made, made_half)
            });
            assert_eq!(made_half, half);
            assert!(made == expected, "{storage:?}: the bytes differ");
        }
    }
}

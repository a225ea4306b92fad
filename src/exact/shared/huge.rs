//! Large arrays: on huge pages, allocated lazily, and given back in parts.
//!
//! The game solver's value and flag arrays span gigabytes and every option of every state
//! reads a scattered entry of them: with 4 KiB pages nearly each such read also misses the
//! address translation cache (TLB), and the page walk costs about as much as the read. On
//! Linux, where transparent huge pages are often enabled only on request ("madvise"), the
//! arrays ask for 2 MiB pages before they are first written. Elsewhere, or where the kernel
//! declines, they are ordinary vectors: the request changes speed, never contents.

/// Types whose all-zero bit pattern is a valid value: the atomics of the solvers' value and
/// flag arrays, whose zero is "0" and "no flag".
///
/// # Safety
/// Every bit pattern of all zero bytes must be a valid value of the type.
pub(crate) unsafe trait Zeroable: Sized {}

// SAFETY: integers and their atomics are valid at every bit pattern, zero included.
unsafe impl Zeroable for std::sync::atomic::AtomicU32 {}
// SAFETY: as above.
unsafe impl Zeroable for std::sync::atomic::AtomicU64 {}
// SAFETY: as above.
unsafe impl Zeroable for std::sync::atomic::AtomicU8 {}

/// An array of zeros whose memory is taken from the system only where it is first written,
/// so an array of which a solve touches only a part costs only that part.
///
/// On Linux a large one is its own private anonymous mapping with `MAP_NORESERVE`: the
/// kernel's default overcommit heuristic refuses any single request larger than the RAM,
/// even one that will never be touched whole (a value array of 27 GB of which the blocks
/// held at once take 19 GB, [`release`]); the solvers' memory plans, not this request,
/// keep the touched part within the machine. A small one, or elsewhere, is a zeroed vector.
pub(crate) struct ZeroedArray<T> {
    kind: Backing<T>,
}

enum Backing<T> {
    Heap(Vec<T>),
    #[cfg(target_os = "linux")]
    Mapped {
        ptr: std::ptr::NonNull<T>,
        len: usize,
    },
}

// SAFETY: the array owns its elements like a `Vec` does; sharing or sending it shares or
// sends them.
unsafe impl<T: Send> Send for ZeroedArray<T> {}
// SAFETY: as above.
unsafe impl<T: Sync> Sync for ZeroedArray<T> {}

impl<T: Zeroable> ZeroedArray<T> {
    /// `len` zeros.
    pub(crate) fn new(len: usize) -> ZeroedArray<T> {
        let bytes = len.saturating_mul(size_of::<T>());
        #[cfg(target_os = "linux")]
        if bytes >= WORTH_ADVISING {
            return ZeroedArray {
                kind: Backing::Mapped {
                    ptr: map_zeros(bytes).cast::<T>(),
                    len,
                },
            };
        }
        let _ = bytes;
        ZeroedArray {
            kind: Backing::Heap((0..len).map(|_| zeroed_value()).collect()),
        }
    }
}

impl<T> From<Vec<T>> for ZeroedArray<T> {
    fn from(v: Vec<T>) -> Self {
        ZeroedArray {
            kind: Backing::Heap(v),
        }
    }
}

impl<T> std::ops::Deref for ZeroedArray<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        match &self.kind {
            Backing::Heap(v) => v,
            // SAFETY: the mapping holds `len` elements, zeroed (valid, `Zeroable`) or
            // written since, and lives as long as `self`.
            #[cfg(target_os = "linux")]
            Backing::Mapped { ptr, len } => unsafe {
                std::slice::from_raw_parts(ptr.as_ptr(), *len)
            },
        }
    }
}

impl<T> Drop for ZeroedArray<T> {
    fn drop(&mut self) {
        #[cfg(target_os = "linux")]
        if let Backing::Mapped { ptr, len } = &self.kind {
            // The elements are atomics or plain numbers: nothing to drop but the memory.
            // SAFETY: the mapping made by `map_zeros` with this size, unmapped once.
            unsafe {
                libc::munmap(ptr.as_ptr().cast(), len * size_of::<T>());
            }
        }
    }
}

/// A fresh private anonymous mapping of `bytes` zero bytes, not reserved against the
/// commit limit; aborts like a failed allocation if the address space is refused.
#[cfg(target_os = "linux")]
fn map_zeros(bytes: usize) -> std::ptr::NonNull<u8> {
    // SAFETY: a new mapping at an address the kernel chooses; nothing else is touched.
    let ptr = unsafe {
        libc::mmap(
            std::ptr::null_mut(),
            bytes,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE,
            -1,
            0,
        )
    };
    match std::ptr::NonNull::new(ptr.cast::<u8>()) {
        Some(p) if ptr != libc::MAP_FAILED => p,
        _ => std::alloc::handle_alloc_error(
            std::alloc::Layout::from_size_align(bytes, 4096).expect("a page-aligned layout"),
        ),
    }
}

/// One zero value of `T`.
fn zeroed_value<T: Zeroable>() -> T {
    // SAFETY: `Zeroable` says all-zero bytes are a valid `T`.
    unsafe { std::mem::zeroed() }
}

/// Gives the memory of the whole pages inside `part` back to the system; their elements
/// read as 0 afterwards (and take memory again only where written). For the parts of a
/// value array no later sweep reads: a solve's peak memory is then that of the parts it
/// still needs. Elsewhere than Linux, or where the kernel declines, nothing happens: the
/// elements keep their values, which callers must accept as well as zeros.
///
/// `T` holds its elements in atomics (or is otherwise shared-mutable), so changing them
/// behind a shared reference is allowed; the caller makes sure no thread is using `part`.
#[cfg_attr(not(target_os = "linux"), allow(unused_variables))]
pub(crate) fn release<T: Zeroable + Sync>(part: &[T]) {
    // SAFETY of the advice: the pages lie inside `part`, whose elements are `Zeroable`
    // atomics; on private anonymous memory MADV_DONTNEED makes them read as zeros, a valid
    // value, and frees the pages.
    #[cfg(target_os = "linux")]
    advise(
        part.as_ptr().cast::<u8>(),
        std::mem::size_of_val(part),
        libc::MADV_DONTNEED,
    );
}

/// Gives the kernel `advice` about the whole pages inside `bytes` bytes from `start`, which
/// must lie in a live allocation of this process and be advice that keeps its elements
/// valid (each caller says why). A failure changes nothing the callers rely on (huge pages
/// are a speed-up, released values may stay), so the result is ignored.
#[cfg(target_os = "linux")]
fn advise(start: *const u8, bytes: usize, advice: libc::c_int) {
    let (first, end) = whole_pages(start, bytes);
    if end <= first {
        return;
    }
    // SAFETY: whole pages inside the caller's allocation, with advice the caller has shown
    // to keep its elements valid.
    unsafe {
        libc::madvise(first as *mut libc::c_void, end - first, advice);
    }
}

/// The page-aligned range `[first, end)` of the whole pages inside `bytes` bytes from
/// `start` (empty if there are none).
#[cfg(target_os = "linux")]
fn whole_pages(start: *const u8, bytes: usize) -> (usize, usize) {
    const PAGE: usize = 4096;
    let first = (start as usize).div_ceil(PAGE) * PAGE;
    let end = (start as usize + bytes) / PAGE * PAGE;
    (first, end.max(first))
}

/// A vector of `len` elements, element `i` being `init(i)`, its memory advised to use huge
/// pages before the elements are written.
pub(crate) fn huge_vec<T>(len: usize, init: impl FnMut(usize) -> T) -> Vec<T> {
    let mut v: Vec<T> = Vec::with_capacity(len);
    let bytes = len.saturating_mul(size_of::<T>());
    // SAFETY of the advice: the allocation is this vector's and not yet written;
    // MADV_HUGEPAGE changes only how the kernel backs it, not its contents.
    #[cfg(target_os = "linux")]
    if bytes >= WORTH_ADVISING {
        advise(v.as_mut_ptr().cast::<u8>(), bytes, libc::MADV_HUGEPAGE);
    }
    let _ = bytes;
    v.extend((0..len).map(init));
    v
}

/// Below this the allocation is not worth a system call.
#[cfg(target_os = "linux")]
const WORTH_ADVISING: usize = 1 << 24;

#[cfg(test)]
mod tests {
    use super::{ZeroedArray, huge_vec, release};
    use std::sync::atomic::AtomicU32;
    use std::sync::atomic::Ordering::Relaxed;

    #[test]
    fn a_huge_vector_holds_what_it_was_given() {
        for len in [0, 1, 1000, (1 << 24) / 8 + 3] {
            let v = huge_vec(len, |i| i as u64 * 3);
            assert_eq!(v.len(), len);
            assert!(v.iter().enumerate().all(|(i, &x)| x == i as u64 * 3));
        }
    }

    #[test]
    fn a_zeroed_vector_reads_zero_and_a_released_part_reads_zero_around_kept_values() {
        // Large enough to be mapped on Linux.
        let len = 1 << 23;
        let v: ZeroedArray<AtomicU32> = ZeroedArray::new(len);
        assert!(v.iter().all(|x| x.load(Relaxed) == 0));
        v.iter()
            .enumerate()
            .for_each(|(i, x)| x.store(i as u32 + 1, Relaxed));
        // A part that starts and ends inside pages: the elements outside it keep their
        // values; inside it they are either kept (partial pages) or read 0.
        let part = 1000..len - 3000;
        release(&v[part.clone()]);
        for (i, x) in v.iter().enumerate() {
            let x = x.load(Relaxed);
            if part.contains(&i) {
                assert!(x == 0 || x == i as u32 + 1, "{i}: {x}");
            } else {
                assert_eq!(x, i as u32 + 1, "{i}");
            }
        }
        // On Linux the whole pages inside the part were given back.
        if cfg!(target_os = "linux") {
            assert!(v[part].iter().filter(|x| x.load(Relaxed) == 0).count() > len / 2);
        }
        // Written again, a released element holds what it is given.
        v[len / 2].store(7, Relaxed);
        assert_eq!(v[len / 2].load(Relaxed), 7);
    }
}

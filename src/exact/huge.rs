//! Large arrays on huge pages.
//!
//! The game solver's value and flag arrays span gigabytes and every option of every state
//! reads a scattered entry of them: with 4 KiB pages nearly each such read also misses the
//! address translation cache (TLB), and the page walk costs about as much as the read. On
//! Linux, where transparent huge pages are often enabled only on request ("madvise"), the
//! arrays ask for 2 MiB pages before they are first written. Elsewhere, or where the kernel
//! declines, they are ordinary vectors: the request changes speed, never contents.

/// A vector of `len` elements, element `i` being `init(i)`, its memory advised to use huge
/// pages before the elements are written.
pub fn huge_vec<T>(len: usize, init: impl FnMut(usize) -> T) -> Vec<T> {
    let mut v: Vec<T> = Vec::with_capacity(len);
    advise_huge_pages(
        v.as_mut_ptr().cast::<u8>(),
        len.saturating_mul(size_of::<T>()),
    );
    v.extend((0..len).map(init));
    v
}

/// Below this the allocation is not worth a system call.
const WORTH_ADVISING: usize = 1 << 24;

#[cfg(target_os = "linux")]
fn advise_huge_pages(start: *mut u8, bytes: usize) {
    if bytes < WORTH_ADVISING {
        return;
    }
    const PAGE: usize = 4096;
    // madvise takes page-aligned ranges: advise the whole pages inside the allocation.
    let first = (start as usize).div_ceil(PAGE) * PAGE;
    let end = (start as usize + bytes) / PAGE * PAGE;
    if end <= first {
        return;
    }
    // SAFETY: the range lies inside an allocation this process owns and has not yet written;
    // MADV_HUGEPAGE changes only how the kernel backs it, not its contents or its validity.
    // A failure (no transparent huge pages in this kernel) leaves the ordinary pages, so the
    // result is ignored.
    unsafe {
        libc::madvise(first as *mut libc::c_void, end - first, libc::MADV_HUGEPAGE);
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_huge_pages(_: *mut u8, _: usize) {}

#[cfg(test)]
mod tests {
    use super::huge_vec;

    #[test]
    fn a_huge_vector_holds_what_it_was_given() {
        for len in [0, 1, 1000, (1 << 24) / 8 + 3] {
            let v = huge_vec(len, |i| i as u64 * 3);
            assert_eq!(v.len(), len);
            assert!(v.iter().enumerate().all(|(i, &x)| x == i as u64 * 3));
        }
    }
}

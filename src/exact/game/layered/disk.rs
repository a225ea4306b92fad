//! What a run with `--values-out` will write, checked against the disk before any group is
//! solved: a run that cannot finish for want of space is refused at its start, not hours in
//! at the group whose file does not fit.
//!
//! The folder holds, at its fullest, the files of every group written so far plus what the
//! group being solved keeps beside them until its own file is there: its checkpoint (a byte
//! a state more than its file; the one before is removed before each is written), or over
//! MPI ranks the ranks' parts of its file, which rank 0 joins into it.

use std::path::Path;

/// Bytes allowed for a group file's header line besides the game's description: the group's
/// report, the format, the checksum (about 300 bytes in practice).
const HEADER_BEYOND_GAME: u64 = 1024;

/// The most a run's files will take in its folder at once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct DiskNeed {
    /// Peak bytes: every file written up to some group, plus what that group keeps beside
    /// them while it is written (the largest such sum).
    pub bytes: u64,
    /// Of those, the files alone (every group still to write).
    pub files: u64,
    /// The groups still to write.
    pub groups: usize,
}

/// The need of writing groups of `states` states each, in the order given, at `per_state`
/// bytes a state in its file plus `header` bytes, each group keeping `transient_per_state`
/// bytes a state beside the files while it is solved and written; `None` if a count
/// overflows.
pub(super) fn need(
    states: &[u64],
    per_state: u64,
    transient_per_state: u64,
    header: u64,
) -> Option<DiskNeed> {
    let mut files = 0u64;
    let mut bytes = 0u64;
    for &n in states {
        let transient = n.checked_mul(transient_per_state)?;
        files = files.checked_add(n.checked_mul(per_state)?.checked_add(header)?)?;
        bytes = bytes.max(files.checked_add(transient)?);
    }
    Some(DiskNeed {
        bytes,
        files,
        groups: states.len(),
    })
}

/// Header bytes allowed for a group file of a game described in `game_json` bytes.
pub(super) fn header_bytes(game_json: usize) -> u64 {
    (game_json as u64).saturating_add(HEADER_BEYOND_GAME)
}

/// The bytes free to an unprivileged writer on the file system holding `dir` (`None` where
/// the platform cannot tell).
#[cfg(unix)]
pub(super) fn free_bytes(dir: &Path) -> std::io::Result<Option<u64>> {
    use std::os::unix::ffi::OsStrExt;
    let path = std::ffi::CString::new(dir.as_os_str().as_bytes())
        .map_err(|_| std::io::Error::other("the path holds a NUL byte"))?;
    let mut stat = std::mem::MaybeUninit::<libc::statvfs>::uninit();
    // SAFETY: `path` is NUL-terminated and outlives the call, which fills `stat` when it
    // returns 0; `stat` is read only then.
    let stat = unsafe {
        if libc::statvfs(path.as_ptr(), stat.as_mut_ptr()) != 0 {
            return Err(std::io::Error::last_os_error());
        }
        stat.assume_init()
    };
    // The fields' integer types differ between platforms.
    #[allow(clippy::unnecessary_cast, clippy::useless_conversion)]
    let (blocks, block_bytes) = (stat.f_bavail as u64, stat.f_frsize as u64);
    Ok(Some(blocks.saturating_mul(block_bytes)))
}

/// Where there is no `statvfs`, the free space is not known.
#[cfg(not(unix))]
pub(super) fn free_bytes(_dir: &Path) -> std::io::Result<Option<u64>> {
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_need_is_the_files_written_so_far_plus_the_largest_transient_beside_them() {
        // Files of 5 bytes a state and 10 of header, checkpoints of 6 bytes a state.
        let need = need(&[100, 1_000, 10], 5, 6, 10).expect("no overflow");
        assert_eq!(need.files, 510 + 5_010 + 60);
        assert_eq!(need.groups, 3);
        // At the second group: the first's file, the second's, and its checkpoint.
        assert_eq!(need.bytes, 510 + 5_010 + 6_000);
        // With the largest group last, the peak is at the end.
        let last = super::need(&[10, 100, 1_000], 5, 6, 10).expect("no overflow");
        assert_eq!(last.bytes, last.files + 6_000);
        // Nothing to write needs nothing.
        assert_eq!(super::need(&[], 5, 6, 10).map(|n| n.bytes), Some(0));
        // Counts that overflow are refused, not wrapped.
        assert_eq!(super::need(&[u64::MAX / 4], 5, 0, 0), None);
        assert_eq!(super::need(&[u64::MAX / 8, u64::MAX / 8], 5, 0, 0), None);
    }

    #[cfg(unix)]
    #[test]
    fn the_free_space_of_a_folder_is_known_and_a_missing_one_is_an_error() {
        let dir = std::env::temp_dir();
        assert!(matches!(free_bytes(&dir), Ok(Some(_))));
        let missing = dir.join(format!(
            "wuerfelglueck-no-such-folder-{}",
            std::process::id()
        ));
        assert!(free_bytes(&missing).is_err());
    }
}

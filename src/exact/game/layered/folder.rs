//! The folder of a run with `--values-out`, taken for the run's length: one run writes
//! into a folder at a time, and what a run stopped in the middle of a write left there is
//! removed before the next run plans its disk.
//!
//! Two runs writing into one folder would solve the same groups twice over, each with the
//! memory of a group, and remove each other's checkpoints. So a run holds an exclusive
//! lock on the folder (`flock` on the folder itself, which the system releases when the
//! process ends, however it ends: no stale lock outlives a crash, and no lock file is left
//! among the values) and refuses a folder whose lock another process holds. Under MPI the
//! rank 0 holds it for every rank.
//!
//! A write is made under a temporary name and renamed into place ([`crate::files`]); a run
//! killed during a write leaves the temporary file, which for a large group holds gigabytes.
//! With the lock held no other run can be writing one, so those of the run's own files
//! (named after a group) are removed.

use std::fs::File;
use std::path::Path;

use crate::exact::ExactError;

/// The folder held by this process until dropped.
#[derive(Debug)]
pub(super) struct FolderLock {
    /// The folder, open for as long as the lock is held: closing it releases the lock.
    /// `None` where the platform cannot lock a folder.
    _file: Option<File>,
}

/// What was left in the folder by runs stopped in the middle of a write and removed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Leftovers {
    /// Temporary files removed.
    pub files: u64,
    /// Their bytes.
    pub bytes: u64,
}

/// Takes `dir` for this process: its lock, then its leftovers removed. Refused
/// ([`ExactError::FolderInUse`]) if another process holds the lock.
/// Where the folder cannot be locked, nothing is removed: another run may be writing.
pub(super) fn take(dir: &Path) -> Result<(FolderLock, Leftovers), ExactError> {
    let Some(file) = lock(dir)? else {
        return Ok((FolderLock { _file: None }, Leftovers::default()));
    };
    let leftovers = remove_leftovers(dir)
        .map_err(|e| ExactError::Write(format!("--values-out: {}: {e}", dir.display())))?;
    Ok((FolderLock { _file: Some(file) }, leftovers))
}

/// Whether `name` is a temporary file of a write of this solver's files: a group's file,
/// checkpoint or part (see [`crate::files::create_temporary`] for the form of the name).
fn is_leftover(name: &str) -> bool {
    name.starts_with(".group-a") && name.ends_with(".tmp")
}

/// Removes the temporary files of this solver's writes from `dir` (regular files only).
fn remove_leftovers(dir: &Path) -> std::io::Result<Leftovers> {
    let mut removed = Leftovers::default();
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let name = entry.file_name();
        let Some(name) = name.to_str() else { continue };
        if !is_leftover(name) {
            continue;
        }
        // Not followed: a link or folder of that name is someone else's.
        let meta = std::fs::symlink_metadata(entry.path())?;
        if !meta.is_file() {
            continue;
        }
        std::fs::remove_file(entry.path())?;
        removed.files = removed.files.saturating_add(1);
        removed.bytes = removed.bytes.saturating_add(meta.len());
    }
    Ok(removed)
}

/// Locks `dir` for this process. `None` where the platform cannot lock a folder itself.
#[cfg(unix)]
fn lock(dir: &Path) -> Result<Option<File>, ExactError> {
    let failed =
        |e: std::io::Error| ExactError::Write(format!("--values-out: {}: {e}", dir.display()));
    // The folder itself is locked (`flock`): no file of the lock's own in it.
    let file = File::open(dir).map_err(failed)?;
    match file.try_lock() {
        Ok(()) => Ok(Some(file)),
        Err(std::fs::TryLockError::WouldBlock) => {
            Err(ExactError::FolderInUse(dir.display().to_string()))
        }
        Err(std::fs::TryLockError::Error(e)) => Err(failed(e)),
    }
}

/// Elsewhere a folder cannot be opened as a file to lock it, and a lock file would sit
/// among the values: the folder is not locked.
#[cfg(not(unix))]
fn lock(_dir: &Path) -> Result<Option<File>, ExactError> {
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fresh_dir(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!(
            "wuerfelglueck-folder-{name}-{}",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn a_folder_is_taken_by_one_holder_at_a_time_and_freed_when_it_lets_go() {
        let dir = fresh_dir("lock");
        let (held, _) = take(&dir).unwrap();
        #[cfg(unix)]
        {
            // A second open file description, as another process would have.
            let refused = take(&dir).unwrap_err();
            let message = refused.to_string();
            assert!(
                matches!(refused, ExactError::FolderInUse { .. }),
                "{message}"
            );
            assert!(refused.is_input_error());
            assert!(message.contains(&dir.display().to_string()), "{message}");
        }
        drop(held);
        take(&dir).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn only_the_temporaries_of_group_files_are_removed() {
        let dir = fresh_dir("leftovers");
        let leftovers = [
            ".group-a1-b4.values.4242-0.tmp",
            ".group-a1-b4.checkpoint.4242-1.tmp",
            ".group-a3-b0.rank1-of-2.part.17-3.tmp",
        ];
        let kept = [
            "group-a1-b4.values",
            "group-a1-b4.checkpoint",
            ".strong.json.4242-0.tmp",
            "group-a1-b4.values.tmp",
        ];
        for (i, name) in leftovers.iter().chain(&kept).enumerate() {
            std::fs::write(dir.join(name), vec![7u8; i + 1]).unwrap();
        }
        // A folder with a leftover's name is not a leftover.
        std::fs::create_dir(dir.join(".group-a2-b2.values.1-0.tmp")).unwrap();
        let (_held, removed) = take(&dir).unwrap();
        assert_eq!(
            removed,
            Leftovers {
                files: 3,
                bytes: 1 + 2 + 3
            }
        );
        for name in leftovers {
            assert!(!dir.join(name).exists(), "{name}");
        }
        for name in kept {
            assert!(dir.join(name).exists(), "{name}");
        }
        assert!(dir.join(".group-a2-b2.values.1-0.tmp").is_dir());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

//! Files a command writes (the SVG pictures of `rank`, `converge`, `wubbel` and `pig`, and
//! the player file of `train`), under the rules of [`crate::files`]:
//!
//! * the target is checked before any work starts ([`OutputFile::check`]): a folder that
//!   does not exist, a path that is a folder, a device, FIFO or socket (even with
//!   `--overwrite`), a dangling symbolic link, or an existing file without `--overwrite` is
//!   refused, so a long computation never ends in "cannot write";
//! * the file is written whole or not at all (a temporary file beside it, flushed to disk,
//!   then renamed), so a full disk leaves the old file as it was;
//! * without `--overwrite` an existing file is never replaced, even one that appeared while
//!   the command was computing (the operating system checks it atomically).
//!
//! The errors name no option: each caller adds the option the file was given to (`--plot`,
//! `--out`), see [`crate::api::file_error`].

use crate::files::{TargetError, WriteError};
use std::fmt;
use std::path::{Path, PathBuf};

/// Writing a picture or another output file failed: the target is unusable, or drawing or
/// writing failed.
///
/// The one error type of every file the report layer writes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlotError {
    /// The file exists and overwriting was not allowed.
    Exists(String),
    /// The folder the file should go into does not exist.
    NoFolder(String),
    /// The path names a folder, not a file.
    IsFolder(String),
    /// The path names something that is never replaced: a device, a FIFO, a socket, or a
    /// dangling symbolic link. Says which.
    Unusable(String),
    /// Drawing failed.
    Failed(String),
    /// Writing the file failed (e.g. the disk is full); the target is as it was. Names the
    /// file.
    NotWritten(String),
}

impl PlotError {
    /// Whether the target itself was refused (the user's input is at fault), as opposed to a
    /// failure while drawing or writing.
    pub fn is_bad_target(&self) -> bool {
        !matches!(self, PlotError::Failed(_) | PlotError::NotWritten(_))
    }
}

impl From<TargetError> for PlotError {
    fn from(e: TargetError) -> PlotError {
        let shown = e.path().display().to_string();
        match e {
            TargetError::Exists(_) => PlotError::Exists(shown),
            TargetError::NoFolder(_) => PlotError::NoFolder(shown),
            TargetError::IsFolder(_) => PlotError::IsFolder(shown),
            e @ (TargetError::NotRegular { .. } | TargetError::Dangling { .. }) => {
                PlotError::Unusable(e.to_string())
            }
        }
    }
}

impl fmt::Display for PlotError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlotError::Exists(path) => write!(
                f,
                "{path} exists; not overwriting it (pass --overwrite to replace it, or choose another file)"
            ),
            PlotError::NoFolder(path) => write!(
                f,
                "{path}: the folder does not exist (create it first, or choose another file)"
            ),
            PlotError::IsFolder(path) => {
                write!(f, "{path} is a folder; expected a file name")
            }
            PlotError::Unusable(why) => write!(f, "{why}"),
            PlotError::Failed(what) => write!(f, "could not draw the plot: {what}"),
            PlotError::NotWritten(what) => write!(f, "could not write {what}"),
        }
    }
}

impl std::error::Error for PlotError {}

/// A file to be written, whose target has been checked ([`OutputFile::check`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutputFile {
    path: PathBuf,
    overwrite: bool,
}

impl OutputFile {
    /// Checks `path` as the target of a file to write ([`crate::files::check_target`]): its
    /// folder exists, it is not a folder or a special file, and it does not exist unless
    /// `overwrite` is true. Make this check before the work whose result goes to `path`.
    pub fn check(path: &Path, overwrite: bool) -> Result<OutputFile, PlotError> {
        crate::files::check_target(path, overwrite)?;
        Ok(OutputFile {
            path: path.to_path_buf(),
            overwrite,
        })
    }

    /// The path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Writes `contents`, whole or not at all ([`crate::files::write_atomic`]). Without
    /// `overwrite` the file is created only if it does not exist yet (checked atomically by
    /// the operating system), so nothing the user had there is lost, even a file that
    /// appeared after [`OutputFile::check`].
    pub fn write(&self, contents: &str) -> Result<(), PlotError> {
        crate::files::write_atomic(&self.path, self.overwrite, |out| {
            out.write_all(contents.as_bytes())
        })
        .map_err(|e| match e {
            WriteError::Target(e) => PlotError::from(e),
            e @ WriteError::Io { .. } => PlotError::NotWritten(e.to_string()),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("wg-files-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn refuses_to_overwrite_unless_asked() {
        let dir = temp_dir("keep");
        let path = dir.join("keep.svg");
        std::fs::write(&path, "mine").unwrap();
        assert!(matches!(
            OutputFile::check(&path, false),
            Err(PlotError::Exists(_))
        ));
        // A file that appears between the check and the write is not replaced either.
        let other = dir.join("late.svg");
        let target = OutputFile::check(&other, false).unwrap();
        std::fs::write(&other, "late").unwrap();
        assert!(matches!(target.write("new"), Err(PlotError::Exists(_))));
        assert_eq!(std::fs::read_to_string(&other).unwrap(), "late");
        let target = OutputFile::check(&path, true).unwrap();
        target.write("new").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "new");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn refuses_a_missing_folder_and_a_folder() {
        let dir = temp_dir("folders");
        let missing = dir.join("no-such-folder").join("plot.svg");
        let e = OutputFile::check(&missing, true).unwrap_err();
        assert!(matches!(e, PlotError::NoFolder(_)));
        assert!(e.to_string().contains("no-such-folder"), "{e}");
        assert!(e.is_bad_target());
        let e = OutputFile::check(&dir, true).unwrap_err();
        assert!(matches!(e, PlotError::IsFolder(_)));
        assert!(e.to_string().contains("is a folder"), "{e}");
        // A bare file name goes to the current folder.
        assert!(OutputFile::check(Path::new("wg-surely-absent-file.svg"), false).is_ok());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn refuses_special_files_and_dangling_links_even_with_overwrite() {
        let dir = temp_dir("special");
        let fifo = dir.join("fifo.svg");
        crate::files::mkfifo(&fifo);
        let dangling = dir.join("dangling.svg");
        std::os::unix::fs::symlink(dir.join("nowhere.svg"), &dangling).unwrap();
        for overwrite in [false, true] {
            for (path, what) in [
                (fifo.as_path(), "is a FIFO, not a regular file"),
                (Path::new("/dev/full"), "is a character device"),
                (dangling.as_path(), "is a symbolic link to no file"),
            ] {
                let e = OutputFile::check(path, overwrite).unwrap_err();
                assert!(
                    matches!(e, PlotError::Unusable(_)) && e.is_bad_target(),
                    "{e}"
                );
                assert!(e.to_string().contains(what), "{e}");
            }
        }
        assert!(!dir.join("nowhere.svg").exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn replaces_a_file_whole_never_writing_into_it() {
        use std::io::Read;
        use std::os::unix::fs::MetadataExt;
        let dir = temp_dir("whole");
        let path = dir.join("p12.json");
        std::fs::write(&path, "the old player").unwrap();
        let old = std::fs::metadata(&path).unwrap().ino();
        let mut reader = std::fs::File::open(&path).unwrap();
        OutputFile::check(&path, true)
            .unwrap()
            .write("the new player")
            .unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "the new player");
        // Truncating in place (which a full disk turned into a fragment) would have written
        // into the file still open here.
        assert_ne!(std::fs::metadata(&path).unwrap().ino(), old);
        let mut before = String::new();
        reader.read_to_string(&mut before).unwrap();
        assert_eq!(before, "the old player");
        assert_eq!(
            std::fs::read_dir(&dir).unwrap().count(),
            1,
            "no temporary left"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

//! Files a command writes (today: the SVG pictures of `rank`, `converge`, `wubbel` and
//! `pig`), under one rule:
//!
//! * the target is checked before any work starts ([`OutputFile::check`]): a folder that
//!   does not exist, a path that is a folder, or an existing file without `--overwrite` is
//!   refused, so a long computation never ends in "cannot write";
//! * without `--overwrite` an existing file is never replaced, even one that appeared while
//!   the command was computing (the file is created with `create_new`, which the operating
//!   system checks atomically).

use std::fmt;
use std::path::{Path, PathBuf};

/// Writing a picture failed: the target is unusable, or drawing or writing failed.
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
    /// Drawing or writing failed.
    Failed(String),
}

impl PlotError {
    /// Whether the target itself was refused (the user's input is at fault), as opposed to a
    /// failure while drawing or writing.
    pub fn is_bad_target(&self) -> bool {
        !matches!(self, PlotError::Failed(_))
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
                write!(f, "{path} is a folder; expected a file name, e.g. plot.svg")
            }
            PlotError::Failed(what) => write!(f, "could not write the plot: {what}"),
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
    /// Checks `path` as the target of a file to write: its folder exists, it is not a
    /// folder, and it does not exist unless `overwrite` is true. Make this check before the
    /// work whose result goes to `path`.
    pub fn check(path: &Path, overwrite: bool) -> Result<OutputFile, PlotError> {
        let shown = || path.display().to_string();
        if path.is_dir() {
            return Err(PlotError::IsFolder(shown()));
        }
        // `a.svg` has the parent "", the current folder.
        let folder = path.parent().filter(|f| !f.as_os_str().is_empty());
        if folder.is_some_and(|f| !f.is_dir()) {
            return Err(PlotError::NoFolder(shown()));
        }
        if !overwrite && path.exists() {
            return Err(PlotError::Exists(shown()));
        }
        Ok(OutputFile {
            path: path.to_path_buf(),
            overwrite,
        })
    }

    /// The path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Writes `contents`. Without `overwrite` the file is created only if it does not exist
    /// yet (checked atomically by the operating system), so nothing the user had there is
    /// lost, even a file that appeared after [`OutputFile::check`].
    pub fn write(&self, contents: &str) -> Result<(), PlotError> {
        use std::io::Write;
        let shown = || self.path.display().to_string();
        let mut options = std::fs::OpenOptions::new();
        options.write(true);
        if self.overwrite {
            options.create(true).truncate(true);
        } else {
            options.create_new(true);
        }
        let mut file = options.open(&self.path).map_err(|e| match e.kind() {
            std::io::ErrorKind::AlreadyExists => PlotError::Exists(shown()),
            std::io::ErrorKind::NotFound => PlotError::NoFolder(shown()),
            _ if self.path.is_dir() => PlotError::IsFolder(shown()),
            _ => PlotError::Failed(format!("{}: {e}", shown())),
        })?;
        file.write_all(contents.as_bytes())
            .and_then(|()| file.flush())
            .map_err(|e| PlotError::Failed(format!("{}: {e}", shown())))
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
}

//! The one set of rules for every file the program reads or writes (the dice files, player
//! files, policy files, pair records, search states, plots; the list is in the book's
//! chapter "What is refused", section "Files"):
//!
//! * **Read only regular files** ([`open_regular`], [`read_regular`]). The file is checked
//!   *before* it is opened, because opening a FIFO for reading waits until someone writes
//!   to it, and a device such as `/dev/zero` never ends. A symbolic link to a regular file
//!   is read. (It is opened without blocking and checked once more, so a file swapped for a
//!   FIFO between the check and the opening is refused too.)
//! * **Check a target before the work** ([`check_target`]): its folder exists; an existing
//!   target is a regular file (a device, FIFO, socket or folder is never replaced, whatever
//!   `--force` or `--overwrite` say) and is replaced only where replacing is allowed. A
//!   symbolic link to a regular file is followed: the file it names is replaced, the link
//!   stays. A dangling link is refused (it names no file the program could create safely).
//! * **Write whole or not at all** ([`write_atomic`]): the content goes to a temporary file
//!   in the target's folder (a fresh name from the process id and a counter, created only
//!   if it does not exist), is flushed to disk (`fsync`), and only then takes the target's
//!   name: by a rename where the target may be replaced, by a hard link where it may not
//!   (`link` fails if the target exists, atomically, so a file that appeared during the
//!   work is kept). On any failure the temporary file is removed. Nobody ever sees half a
//!   file under the target's name, and a full disk leaves the old file as it was.

use std::fmt;
use std::fs::{File, FileType};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// What kind of file `file_type` is, in words ("a FIFO", "a folder"), for messages.
fn kind(file_type: &FileType) -> &'static str {
    #[cfg(unix)]
    use std::os::unix::fs::FileTypeExt;
    if file_type.is_dir() {
        return "a folder";
    }
    if file_type.is_symlink() {
        return "a symbolic link";
    }
    #[cfg(unix)]
    {
        if file_type.is_fifo() {
            return "a FIFO";
        }
        if file_type.is_socket() {
            return "a socket";
        }
        if file_type.is_char_device() {
            return "a character device";
        }
        if file_type.is_block_device() {
            return "a block device";
        }
    }
    "a special file"
}

/// The error of a file that is not a regular file: an [`io::Error`] of kind
/// [`io::ErrorKind::InvalidInput`] carrying this (see [`is_not_regular`]).
#[derive(Debug)]
struct NotRegular(&'static str);

impl fmt::Display for NotRegular {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "not a regular file (it is {})", self.0)
    }
}

impl std::error::Error for NotRegular {}

fn not_regular(file_type: &FileType) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidInput, NotRegular(kind(file_type)))
}

/// Whether `error` came from [`open_regular`] or [`read_regular`] refusing a file that is
/// not a regular file (as opposed to a file that is missing or cannot be read).
pub fn is_not_regular(error: &io::Error) -> bool {
    error
        .get_ref()
        .is_some_and(|inner| inner.is::<NotRegular>())
}

/// Opens `path` for reading if it is a regular file (or a symbolic link to one); any other
/// kind is an error ([`is_not_regular`]) whose message says what it is, and is never opened
/// in a way that could block. A missing file is an error of kind
/// [`io::ErrorKind::NotFound`], as with [`File::open`].
pub fn open_regular(path: &Path) -> io::Result<File> {
    let before = std::fs::metadata(path)?;
    if !before.is_file() {
        return Err(not_regular(&before.file_type()));
    }
    // Non-blocking, so that a file replaced by a FIFO since the check cannot hang the
    // opening; the descriptor's own type is checked again. On a regular file the flag has
    // no effect on reading.
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::custom_flags(&mut options, libc::O_NONBLOCK);
    let file = options.open(path)?;
    let opened = file.metadata()?;
    if !opened.is_file() {
        return Err(not_regular(&opened.file_type()));
    }
    Ok(file)
}

/// Reads at most `limit` bytes of `path` (all of it with `None`) if it is a regular file
/// (see [`open_regular`]). A caller that refuses files longer than a bound passes the bound
/// plus one, and so learns that the file is longer without reading it whole.
pub fn read_regular(path: &Path, limit: Option<u64>) -> io::Result<Vec<u8>> {
    let file = open_regular(path)?;
    let mut bytes = Vec::new();
    match limit {
        Some(n) => file.take(n).read_to_end(&mut bytes)?,
        None => (&file).read_to_end(&mut bytes)?,
    };
    Ok(bytes)
}

/// Why a file to be written was refused (see [`check_target`]). Its messages name the file,
/// but no option: each front end adds how to go on (`--overwrite`, `--force`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TargetError {
    /// The file exists and replacing it was not allowed.
    Exists(PathBuf),
    /// The folder the file should go into does not exist.
    NoFolder(PathBuf),
    /// The path names a folder, not a file.
    IsFolder(PathBuf),
    /// The path exists and is neither a regular file nor a folder (a device, a FIFO, a
    /// socket), or a symbolic link to one; `kind` says what, e.g. "a FIFO".
    NotRegular {
        /// The path given.
        path: PathBuf,
        /// What it is.
        kind: String,
    },
    /// The path is a symbolic link that names no existing file.
    Dangling {
        /// The path given.
        path: PathBuf,
        /// Why it cannot be followed.
        why: String,
    },
}

impl TargetError {
    /// The path given.
    pub fn path(&self) -> &Path {
        match self {
            TargetError::Exists(p) | TargetError::NoFolder(p) | TargetError::IsFolder(p) => p,
            TargetError::NotRegular { path, .. } | TargetError::Dangling { path, .. } => path,
        }
    }
}

impl fmt::Display for TargetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TargetError::Exists(p) => write!(f, "{} exists; not overwriting it", p.display()),
            TargetError::NoFolder(p) => {
                write!(f, "{}: the folder does not exist", p.display())
            }
            TargetError::IsFolder(p) => {
                write!(f, "{} is a folder; expected a file name", p.display())
            }
            TargetError::NotRegular { path, kind } => write!(
                f,
                "{} is {kind}, not a regular file; only a regular file is replaced",
                path.display()
            ),
            TargetError::Dangling { path, why } => write!(
                f,
                "{} is a symbolic link to no file ({why}); give the file itself, or remove the \
                 link",
                path.display()
            ),
        }
    }
}

impl std::error::Error for TargetError {}

/// Checks `path` as the target of a file to write, before the work whose result goes
/// there: its folder exists; it does not exist, or is a regular file that `overwrite`
/// allows to replace. A symbolic link is followed (the file it names is checked, and is
/// the one [`write_atomic`] replaces); a dangling one is refused. Returns the file that
/// will be written: `path` itself, or the file its link names.
pub fn check_target(path: &Path, overwrite: bool) -> Result<PathBuf, TargetError> {
    let file = match std::fs::symlink_metadata(path) {
        Ok(meta) if meta.file_type().is_symlink() => match std::fs::canonicalize(path) {
            Ok(resolved) => resolved,
            Err(e) => {
                let named = std::fs::read_link(path)
                    .map(|t| format!("it names {}: {e}", t.display()))
                    .unwrap_or_else(|_| e.to_string());
                return Err(TargetError::Dangling {
                    path: path.to_path_buf(),
                    why: named,
                });
            }
        },
        _ => path.to_path_buf(),
    };
    let linked = file != path;
    match std::fs::metadata(&file) {
        Ok(meta) if meta.is_dir() => Err(TargetError::IsFolder(path.to_path_buf())),
        Ok(meta) if !meta.is_file() => Err(TargetError::NotRegular {
            path: path.to_path_buf(),
            kind: if linked {
                format!("a symbolic link to {}", kind(&meta.file_type()))
            } else {
                kind(&meta.file_type()).to_string()
            },
        }),
        Ok(_) if !overwrite => Err(TargetError::Exists(path.to_path_buf())),
        Ok(_) => Ok(file),
        Err(_) => {
            if file.file_name().is_none() {
                return Err(TargetError::IsFolder(path.to_path_buf()));
            }
            // `a.svg` has the parent "", the current folder.
            let folder = file.parent().filter(|f| !f.as_os_str().is_empty());
            if folder.is_some_and(|f| !f.is_dir()) {
                return Err(TargetError::NoFolder(path.to_path_buf()));
            }
            Ok(file)
        }
    }
}

/// Why [`write_atomic`] did not write.
#[derive(Debug)]
pub enum WriteError {
    /// The target was refused ([`check_target`]), before anything was written.
    Target(TargetError),
    /// Writing failed (e.g. the disk is full); the target is as it was.
    Io {
        /// The target.
        path: PathBuf,
        /// The error.
        error: io::Error,
    },
}

impl fmt::Display for WriteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WriteError::Target(e) => write!(f, "{e}"),
            WriteError::Io { path, error } => write!(f, "{}: {error}", path.display()),
        }
    }
}

impl std::error::Error for WriteError {}

/// Numbers the temporary files of this process, so that two writes of one process never
/// share one.
static TEMPORARIES: AtomicU64 = AtomicU64::new(0);

/// A fresh file in `folder`, created (`create_new`) under a name from `stem`, the process id
/// and a counter, none of them an existing file's: the temporary files of
/// [`write_atomic`], and probes of whether a folder is writable. Its name starts with a dot
/// and ends in `.tmp`.
pub fn create_temporary(folder: &Path, stem: &str) -> io::Result<(PathBuf, File)> {
    // A short stem keeps the name within the file system's limit whatever the target's.
    let mut end = stem.len().min(64);
    while !stem.is_char_boundary(end) {
        end -= 1;
    }
    let stem = &stem[..end];
    loop {
        let n = TEMPORARIES.fetch_add(1, Ordering::Relaxed);
        let path = folder.join(format!(".{stem}.{}-{n}.tmp", std::process::id()));
        match std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&path)
        {
            Ok(file) => return Ok((path, file)),
            // Left by a crashed run of the same process id, or made by someone else.
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists && n % 1000 != 999 => {}
            Err(e) => return Err(e),
        }
    }
}

/// Writes the file `path` whole or not at all (see the module documentation): checks it
/// ([`check_target`]; a symbolic link's file is written, the link kept), writes what
/// `content` writes to a temporary file beside it, flushes that to disk and gives it the
/// target's name, replacing an existing file only if `overwrite`. If `content` or any
/// step fails, the target is untouched and the temporary file removed.
pub fn write_atomic(
    path: &Path,
    overwrite: bool,
    content: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> Result<(), WriteError> {
    let target = check_target(path, overwrite).map_err(WriteError::Target)?;
    let failed = |error: io::Error| WriteError::Io {
        path: path.to_path_buf(),
        error,
    };
    let folder = match target.parent() {
        Some(f) if !f.as_os_str().is_empty() => f,
        _ => Path::new("."),
    };
    let stem = target
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let (tmp, file) = create_temporary(folder, &stem).map_err(failed)?;
    let written = (|| {
        let mut out = io::BufWriter::new(file);
        content(&mut out)?;
        let file = out.into_inner().map_err(io::IntoInnerError::into_error)?;
        file.sync_all()
    })();
    if let Err(e) = written {
        let _ = std::fs::remove_file(&tmp);
        return Err(failed(e));
    }
    let placed = if overwrite {
        // Checked again just before: a FIFO or folder that appeared meanwhile is kept.
        match check_target(path, overwrite) {
            Ok(_) => std::fs::rename(&tmp, &target),
            Err(e) => {
                let _ = std::fs::remove_file(&tmp);
                return Err(WriteError::Target(e));
            }
        }
    } else {
        link_new(&tmp, &target).and_then(|()| std::fs::remove_file(&tmp))
    };
    if let Err(e) = placed {
        let _ = std::fs::remove_file(&tmp);
        return Err(if e.kind() == io::ErrorKind::AlreadyExists {
            WriteError::Target(TargetError::Exists(path.to_path_buf()))
        } else {
            failed(e)
        });
    }
    // The new name on disk too; a folder that cannot be synced loses nothing written.
    if let Ok(dir) = File::open(folder) {
        let _ = dir.sync_all();
    }
    Ok(())
}

/// Gives `tmp` the name `target` unless `target` exists: a hard link, which fails if it
/// does, atomically. On a file system without hard links: a check, then a rename.
fn link_new(tmp: &Path, target: &Path) -> io::Result<()> {
    match std::fs::hard_link(tmp, target) {
        Err(e) if no_hard_links(&e) => {
            if std::fs::symlink_metadata(target).is_ok() {
                return Err(io::Error::from(io::ErrorKind::AlreadyExists));
            }
            std::fs::rename(tmp, target)
        }
        placed => placed,
    }
}

/// Whether `error` says the file system makes no hard links.
#[cfg(unix)]
fn no_hard_links(error: &io::Error) -> bool {
    matches!(
        error.raw_os_error(),
        Some(libc::EPERM | libc::EOPNOTSUPP | libc::ENOSYS)
    )
}

/// Whether `error` says the file system makes no hard links (elsewhere than Unix: any
/// error that is not "already exists").
#[cfg(not(unix))]
fn no_hard_links(error: &io::Error) -> bool {
    error.kind() != io::ErrorKind::AlreadyExists
}

/// Makes a FIFO at `path`, for the tests of every reader and writer.
#[cfg(test)]
pub(crate) fn mkfifo(path: &Path) {
    let status = std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .unwrap();
    assert!(status.success(), "mkfifo {}", path.display());
}

/// `f`, which must return within ten seconds: the tests of readers given a FIFO, which
/// would otherwise wait forever.
#[cfg(test)]
pub(crate) fn within_seconds<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    let (send, receive) = std::sync::mpsc::channel();
    std::thread::spawn(move || send.send(f()));
    receive
        .recv_timeout(std::time::Duration::from_secs(10))
        .expect("returned, not blocked")
}

/// The 64-bit FNV-1a hash of `bytes` (Fowler, Noll, Vo): for each byte, xor it into the
/// state, then multiply by the FNV prime. Written out because the standard library's
/// hashers may change between Rust versions, and a file name must not.
pub fn fnv1a_64(bytes: &[u8]) -> u64 {
    fnv1a_64_continued(FNV1A_64_START, bytes)
}

/// The state [`fnv1a_64`] starts from (the FNV offset basis).
pub const FNV1A_64_START: u64 = 0xcbf2_9ce4_8422_2325;

/// [`fnv1a_64`] fed in pieces: the state after `bytes`, from the state `hash` (start with
/// [`FNV1A_64_START`]); the hash of the pieces in order is the hash of their concatenation.
pub fn fnv1a_64_continued(hash: u64, bytes: &[u8]) -> u64 {
    const PRIME: u64 = 0x0000_0100_0000_01b3;
    bytes.iter().fold(hash, |hash, &byte| {
        (hash ^ u64::from(byte)).wrapping_mul(PRIME)
    })
}

/// [`fnv1a_64`] of `value`'s JSON, as 16 hexadecimal digits: the checksum of the files the
/// program reads back (pair records, search states), computed over the value with its own
/// checksum field left out. serde_json writes fields in declaration order and floats so
/// that they read back exactly, so a file read back gives the bytes it was written from.
pub fn json_checksum<T: serde::Serialize>(value: &T) -> String {
    let bytes = serde_json::to_vec(value).expect("plain data serialises");
    format!("{:016x}", fnv1a_64(&bytes))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::MetadataExt;

    fn temp_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("wg-rw-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    /// The files of `dir`, sorted.
    fn listing(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn reads_only_regular_files_and_never_blocks_on_a_fifo() {
        let dir = temp_dir("read");
        let fifo = dir.join("fifo");
        mkfifo(&fifo);
        let e = within_seconds(move || read_regular(&fifo, None)).unwrap_err();
        assert!(is_not_regular(&e), "{e}");
        assert!(
            e.to_string().contains("not a regular file (it is a FIFO)"),
            "{e}"
        );
        for (path, what) in [("/dev/null", "character device"), ("/tmp", "folder")] {
            let e = open_regular(Path::new(path)).unwrap_err();
            assert!(is_not_regular(&e) && e.to_string().contains(what), "{e}");
        }
        let missing = open_regular(&dir.join("missing")).unwrap_err();
        assert_eq!(missing.kind(), io::ErrorKind::NotFound);
        assert!(!is_not_regular(&missing));
        // A regular file, also through a link, and cut at a limit.
        let file = dir.join("file");
        std::fs::write(&file, "0123456789").unwrap();
        std::os::unix::fs::symlink(&file, dir.join("link")).unwrap();
        assert_eq!(
            read_regular(&dir.join("link"), None).unwrap(),
            b"0123456789"
        );
        assert_eq!(read_regular(&file, Some(4)).unwrap(), b"0123");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn refuses_special_targets_whatever_overwrite_says() {
        let dir = temp_dir("special");
        let fifo = dir.join("fifo");
        mkfifo(&fifo);
        std::os::unix::fs::symlink(&fifo, dir.join("to-fifo")).unwrap();
        for overwrite in [false, true] {
            let e = check_target(&fifo, overwrite).unwrap_err();
            assert!(
                e.to_string().contains("is a FIFO, not a regular file"),
                "{e}"
            );
            let e = check_target(Path::new("/dev/full"), overwrite).unwrap_err();
            assert!(
                e.to_string().contains("/dev/full is a character device"),
                "{e}"
            );
            let e = check_target(&dir.join("to-fifo"), overwrite).unwrap_err();
            assert!(e.to_string().contains("a symbolic link to a FIFO"), "{e}");
            assert!(matches!(
                check_target(&dir, overwrite),
                Err(TargetError::IsFolder(_))
            ));
            let e = write_atomic(&fifo, overwrite, |w| w.write_all(b"x")).unwrap_err();
            assert!(matches!(
                e,
                WriteError::Target(TargetError::NotRegular { .. })
            ));
        }
        let still = std::fs::symlink_metadata(&fifo).unwrap().file_type();
        assert!(std::os::unix::fs::FileTypeExt::is_fifo(&still));
        assert_eq!(listing(&dir), ["fifo", "to-fifo"]);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_link_is_followed_and_kept_and_a_dangling_one_refused() {
        let dir = temp_dir("links");
        let file = dir.join("file");
        std::fs::write(&file, "old").unwrap();
        let link = dir.join("link");
        std::os::unix::fs::symlink(&file, &link).unwrap();
        assert!(matches!(
            check_target(&link, false),
            Err(TargetError::Exists(_))
        ));
        assert_eq!(
            check_target(&link, true).unwrap(),
            file.canonicalize().unwrap()
        );
        write_atomic(&link, true, |w| w.write_all(b"new")).unwrap();
        assert!(std::fs::symlink_metadata(&link).unwrap().is_symlink());
        assert_eq!(std::fs::read_to_string(&file).unwrap(), "new");
        let dangling = dir.join("dangling");
        std::os::unix::fs::symlink(dir.join("nowhere"), &dangling).unwrap();
        for overwrite in [false, true] {
            let e = check_target(&dangling, overwrite).unwrap_err();
            assert!(matches!(e, TargetError::Dangling { .. }), "{e}");
            assert!(e.to_string().contains("nowhere"), "{e}");
        }
        assert!(!dir.join("nowhere").exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_failing_write_leaves_the_old_file_and_no_temporary() {
        let dir = temp_dir("fail");
        let path = dir.join("player.json");
        std::fs::write(&path, "the old player").unwrap();
        // A disk that fills up half way: the writer fails after some bytes.
        let e = write_atomic(&path, true, |w| {
            w.write_all(&[b'x'; 100_000])?;
            w.flush()?;
            Err(io::Error::new(io::ErrorKind::StorageFull, "no space left"))
        })
        .unwrap_err();
        assert!(matches!(e, WriteError::Io { .. }));
        assert!(e.to_string().contains("player.json: no space left"), "{e}");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "the old player");
        assert_eq!(listing(&dir), ["player.json"]);
        // Without overwrite, a new file is not created either.
        let fresh = dir.join("fresh.json");
        assert!(write_atomic(&fresh, false, |_| Err(io::Error::other("failed"))).is_err());
        assert_eq!(listing(&dir), ["player.json"]);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_target_is_never_seen_half_written_and_is_replaced_not_truncated() {
        let dir = temp_dir("whole");
        let path = dir.join("plot.svg");
        std::fs::write(&path, "old").unwrap();
        let old_inode = std::fs::metadata(&path).unwrap().ino();
        let mut reader = File::open(&path).unwrap();
        let seen = path.clone();
        write_atomic(&path, true, |w| {
            w.write_all(b"new, ")?;
            w.flush()?;
            // Half written: the target still holds the old content.
            assert_eq!(std::fs::read_to_string(&seen).unwrap(), "old");
            w.write_all(b"complete")
        })
        .unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "new, complete");
        // A new file took the name: the old one, still open, was not written into.
        assert_ne!(std::fs::metadata(&path).unwrap().ino(), old_inode);
        let mut old = String::new();
        reader.read_to_string(&mut old).unwrap();
        assert_eq!(old, "old");
        assert_eq!(listing(&dir), ["plot.svg"]);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn without_overwrite_a_file_that_appeared_meanwhile_is_kept() {
        let dir = temp_dir("appeared");
        let path = dir.join("out.json");
        let late = path.clone();
        let e = write_atomic(&path, false, |w| {
            std::fs::write(&late, "late")?;
            w.write_all(b"mine")
        })
        .unwrap_err();
        assert!(
            matches!(e, WriteError::Target(TargetError::Exists(_))),
            "{e}"
        );
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "late");
        assert_eq!(listing(&dir), ["out.json"]);
        // Two temporaries of one process never share a name.
        let (a, _) = create_temporary(&dir, "x").unwrap();
        let (b, _) = create_temporary(&dir, "x").unwrap();
        assert_ne!(a, b);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

//! Writing a run's files as one set.
//!
//! A run writes several files (four report formats; a search report and its
//! found cases). Each file alone is replaced atomically (rename), but two
//! runs writing to the same directory could still interleave their renames
//! and leave a JSON report from one run next to a Markdown report from the
//! other. So a set is written in three steps:
//!
//! 1. every file is rendered and written into a private staging directory
//!    inside the output directory (`.framecheck-staging-<pid>-<n>`), so a
//!    full disk or a crash leaves the published files untouched;
//! 2. an exclusive lock (`flock(2)`) is taken on the output directory itself
//!    (on Windows, which cannot lock a directory, on a file in it,
//!    `.framecheck-lock`);
//! 3. each file is renamed into place, then the lock is released.
//!
//! Another framecheck writing to the same directory waits for the lock, so
//! the published set is always wholly one run's. Readers do not lock: they
//! may see a set half-way through its renames, never a half-written file.
//!
//! The files carry no run id: a run id in each file would make committed
//! reports differ on every run, and the lock already guarantees the set.
//!
//! A set may also name files it replaces without writing
//! ([`write_set_streamed_removing`]): an earlier run's report in a format this
//! run did not write. They are removed under the same lock, so the
//! directory never holds a newer JSON report beside an older Markdown one
//! that contradicts it.

use std::fs::{self, File};
use std::io::{self, BufWriter, Write};
#[cfg(unix)]
use std::os::fd::AsRawFd;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// Prefix of the staging directories, so a crash's leftovers are recognisable.
pub const STAGING_PREFIX: &str = ".framecheck-staging-";

/// Checks, before a run, that reports can be written to `dir`: creates it
/// if needed and writes and removes a staging directory there. A run that
/// cannot write its reports should fail before it starts, not after.
pub fn prepare_out_dir(dir: &Path) -> io::Result<()> {
    if dir.exists() && !dir.is_dir() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "exists and is not a directory",
        ));
    }
    fs::create_dir_all(dir)?;
    let probe = Staging::create(dir)?;
    fs::write(probe.path.join("probe"), b"")?;
    probe.remove();
    Ok(())
}

/// Writes `files` (paths relative to `dir`) as one set, and returns their
/// full paths in order.
///
/// A relative path is either a file name or `subdir/name` where `subdir` is
/// one of `owned_dirs`: directories that belong wholly to this set. An
/// owned directory is replaced as a whole, and removed when the new set has
/// nothing in it, so no file of an earlier run stays behind in it.
pub fn write_set(
    dir: &Path,
    files: &[(PathBuf, Vec<u8>)],
    owned_dirs: &[&str],
) -> io::Result<Vec<PathBuf>> {
    let streamed: Vec<StreamedFile<'_>> = files
        .iter()
        .map(|(relative, bytes)| {
            let write: WriteFile<'_> = Box::new(move |out| out.write_all(bytes));
            (relative.clone(), write)
        })
        .collect();
    write_set_streamed(dir, streamed, owned_dirs)
}

/// Writes one file's bytes into the writer it is given.
pub type WriteFile<'a> = Box<dyn FnOnce(&mut dyn Write) -> io::Result<()> + 'a>;

/// A file of a set: its path relative to the set's directory, and how to
/// write it.
pub type StreamedFile<'a> = (PathBuf, WriteFile<'a>);

/// [`write_set`], with each file written straight into its staging file
/// as it is rendered, one after another: a set of large reports is never
/// held in memory whole (issue 13, peak memory).
pub fn write_set_streamed(
    dir: &Path,
    files: Vec<StreamedFile<'_>>,
    owned_dirs: &[&str],
) -> io::Result<Vec<PathBuf>> {
    write_set_streamed_removing(dir, files, owned_dirs, &[]).map(|set| set.written)
}

/// What publishing a set did: the files written, in order, and the
/// earlier files it removed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Published {
    /// Full paths of the files written, in the order given.
    pub written: Vec<PathBuf>,
    /// Full paths of the files in `stale` that existed and were removed.
    pub removed: Vec<PathBuf>,
}

/// [`write_set_streamed`], also removing each file of `stale` (plain file
/// names in `dir`) that exists, under the same lock as the renames: files
/// an earlier set wrote that this set replaces without writing. A name the
/// set also writes is written, not removed.
pub fn write_set_streamed_removing(
    dir: &Path,
    files: Vec<StreamedFile<'_>>,
    owned_dirs: &[&str],
    stale: &[PathBuf],
) -> io::Result<Published> {
    for (relative, _) in &files {
        check_relative(relative, owned_dirs)?;
    }
    for relative in stale {
        check_relative(relative, &[])?;
    }
    let written: Vec<PathBuf> = files.iter().map(|(rel, _)| dir.join(rel)).collect();
    let stale: Vec<&PathBuf> = stale
        .iter()
        .filter(|name| !files.iter().any(|(rel, _)| rel == *name))
        .collect();
    fs::create_dir_all(dir)?;
    let staging = Staging::create(dir)?;
    let result = stage_and_publish(dir, &staging, files, owned_dirs, &stale);
    staging.remove();
    Ok(Published {
        written,
        removed: result?,
    })
}

/// Stages every file, then under the lock renames them into place and
/// removes the stale ones; gives the stale files it removed.
fn stage_and_publish(
    dir: &Path,
    staging: &Staging,
    files: Vec<StreamedFile<'_>>,
    owned_dirs: &[&str],
    stale: &[&PathBuf],
) -> io::Result<Vec<PathBuf>> {
    let mut relatives = Vec::with_capacity(files.len());
    for (relative, write) in files {
        let path = staging.path.join(&relative);
        if let Some(parent) = path.parent() {
            fs::create_dir_all(parent)?;
        }
        let mut out = BufWriter::new(File::create(&path)?);
        write(&mut out)?;
        out.into_inner()
            .map_err(io::IntoInnerError::into_error)?
            .sync_all()?;
        relatives.push(relative);
    }
    let _lock = DirLock::acquire(dir)?;
    for &owned in owned_dirs {
        let published = dir.join(owned);
        if published.is_dir() {
            // Moved into the staging directory, which is removed afterwards.
            fs::rename(&published, staging.path.join(format!(".old-{owned}")))?;
        }
        let staged = staging.path.join(owned);
        if staged.is_dir() {
            fs::rename(&staged, &published)?;
        }
    }
    for relative in relatives {
        if relative.components().count() == 1 {
            fs::rename(staging.path.join(&relative), dir.join(&relative))?;
        }
    }
    let mut removed = Vec::new();
    for name in stale {
        let path = dir.join(name);
        match fs::remove_file(&path) {
            Ok(()) => removed.push(path),
            Err(error) if error.kind() == io::ErrorKind::NotFound => {}
            Err(error) => return Err(error),
        }
    }
    // Make the renames durable; best effort where a directory cannot be
    // synced.
    if let Ok(handle) = File::open(dir) {
        let _ = handle.sync_all();
    }
    Ok(removed)
}

fn check_relative(relative: &Path, owned_dirs: &[&str]) -> io::Result<()> {
    let parts: Vec<&str> = relative
        .components()
        .map(|c| c.as_os_str().to_str().unwrap_or(""))
        .collect();
    let plain = |name: &str| {
        !name.is_empty() && name != "." && name != ".." && !name.contains(['/', '\\', '\0'])
    };
    let ok = match parts.as_slice() {
        [name] => plain(name) && !owned_dirs.contains(name),
        [sub, name] => owned_dirs.contains(sub) && plain(name),
        _ => false,
    };
    if ok {
        Ok(())
    } else {
        Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!(
                "report file {:?} must be a plain file name (or one inside {owned_dirs:?})",
                relative.display().to_string()
            ),
        ))
    }
}

/// A private directory inside the output directory.
struct Staging {
    path: PathBuf,
}

impl Staging {
    fn create(dir: &Path) -> io::Result<Staging> {
        static COUNTER: AtomicU64 = AtomicU64::new(0);
        let path = dir.join(format!(
            "{STAGING_PREFIX}{}-{}",
            std::process::id(),
            COUNTER.fetch_add(1, Ordering::Relaxed)
        ));
        // create_dir, not create_dir_all: never reuse something already there.
        fs::create_dir(&path)?;
        Ok(Staging { path })
    }

    fn remove(self) {
        let _ = fs::remove_dir_all(&self.path);
    }
}

/// The file a Windows run locks in its output directory. It is left in
/// place: removing a lock file races with the next run opening it.
#[cfg(windows)]
pub const LOCK_FILE: &str = ".framecheck-lock";

/// An exclusive `flock(2)` on a directory, released on drop.
pub struct DirLock {
    handle: File,
}

#[cfg(windows)]
impl DirLock {
    /// Blocks until this process holds the lock on `dir`'s [`LOCK_FILE`]
    /// (std's `File::lock`: `LockFileEx` on Windows).
    pub fn acquire(dir: &Path) -> io::Result<DirLock> {
        let handle = File::options()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(dir.join(LOCK_FILE))?;
        handle.lock()?;
        Ok(DirLock { handle })
    }
}

#[cfg(windows)]
impl Drop for DirLock {
    fn drop(&mut self) {
        // Closing the handle would release it too.
        let _ = self.handle.unlock();
    }
}

#[cfg(unix)]
impl DirLock {
    /// Blocks until this process holds the lock on `dir`.
    pub fn acquire(dir: &Path) -> io::Result<DirLock> {
        let handle = File::open(dir)?;
        loop {
            // SAFETY: flock(2) on a descriptor we own.
            let rc = unsafe { libc::flock(handle.as_raw_fd(), libc::LOCK_EX) };
            if rc == 0 {
                return Ok(DirLock { handle });
            }
            let error = io::Error::last_os_error();
            if error.kind() != io::ErrorKind::Interrupted {
                return Err(error);
            }
        }
    }
}

#[cfg(unix)]
impl Drop for DirLock {
    fn drop(&mut self) {
        // SAFETY: as in acquire; closing the descriptor would release it too.
        unsafe {
            libc::flock(self.handle.as_raw_fd(), libc::LOCK_UN);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_dir(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("framecheck-write-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn files(tag: &str) -> Vec<(PathBuf, Vec<u8>)> {
        ["r.json", "r.md"]
            .iter()
            .map(|name| (PathBuf::from(name), tag.as_bytes().to_vec()))
            .collect()
    }

    /// While another writer holds the directory, a set is not published;
    /// once the lock is free, the whole set is. Two runs therefore cannot
    /// interleave their renames.
    #[test]
    fn a_set_waits_for_the_directory_lock_and_then_publishes_whole() {
        let dir = temp_dir("lock");
        let held = DirLock::acquire(&dir).unwrap();
        let writer = {
            let dir = dir.clone();
            std::thread::spawn(move || write_set(&dir, &files("second"), &[]).unwrap())
        };
        std::thread::sleep(std::time::Duration::from_millis(300));
        assert!(
            !dir.join("r.json").exists(),
            "published while the lock was held"
        );
        assert!(
            !dir.join("r.md").exists(),
            "published while the lock was held"
        );
        drop(held);
        writer.join().unwrap();
        assert_eq!(fs::read(dir.join("r.json")).unwrap(), b"second");
        assert_eq!(fs::read(dir.join("r.md")).unwrap(), b"second");
        let leftovers: Vec<_> = fs::read_dir(&dir)
            .unwrap()
            .flatten()
            .filter(|e| e.file_name().to_string_lossy().starts_with(STAGING_PREFIX))
            .collect();
        assert!(leftovers.is_empty(), "staging left behind");
        fs::remove_dir_all(&dir).unwrap();
    }

    /// Many concurrent writers of the same set: whatever the interleaving,
    /// the published files always come from one writer.
    #[test]
    fn concurrent_writers_never_leave_a_mixed_set() {
        let dir = temp_dir("race");
        let writers: Vec<_> = (0..4)
            .map(|w| {
                let dir = dir.clone();
                std::thread::spawn(move || {
                    for round in 0..25 {
                        let tag = format!("writer {w} round {round}");
                        write_set(&dir, &files(&tag), &[]).unwrap();
                        let _lock = DirLock::acquire(&dir).unwrap();
                        let json = fs::read(dir.join("r.json")).unwrap();
                        let md = fs::read(dir.join("r.md")).unwrap();
                        assert_eq!(json, md, "a mixed set was published");
                    }
                })
            })
            .collect();
        for writer in writers {
            writer.join().unwrap();
        }
        fs::remove_dir_all(&dir).unwrap();
    }

    /// An owned directory is replaced whole: an earlier set's files in it
    /// do not survive, and it disappears when the new set has none.
    #[test]
    fn an_owned_directory_is_replaced_whole() {
        let dir = temp_dir("owned");
        let first = vec![
            (PathBuf::from("s.md"), b"1".to_vec()),
            (PathBuf::from("cases/a.yaml"), b"1".to_vec()),
            (PathBuf::from("cases/b.yaml"), b"1".to_vec()),
        ];
        write_set(&dir, &first, &["cases"]).unwrap();
        let second = vec![
            (PathBuf::from("s.md"), b"2".to_vec()),
            (PathBuf::from("cases/a.yaml"), b"2".to_vec()),
        ];
        write_set(&dir, &second, &["cases"]).unwrap();
        assert_eq!(fs::read(dir.join("cases/a.yaml")).unwrap(), b"2");
        assert!(!dir.join("cases/b.yaml").exists());
        write_set(&dir, &[(PathBuf::from("s.md"), b"3".to_vec())], &["cases"]).unwrap();
        assert!(!dir.join("cases").exists());
        fs::remove_dir_all(&dir).unwrap();
    }

    /// A stale file is removed with the set, one the set writes is not, and
    /// a stale name that is not there is not reported.
    #[test]
    fn stale_files_are_removed_with_the_set() {
        let dir = temp_dir("stale");
        write_set(&dir, &files("first"), &[]).unwrap();
        let json: WriteFile<'_> = Box::new(|out| out.write_all(b"second"));
        let stale = [
            PathBuf::from("r.md"),
            PathBuf::from("r.json"),
            PathBuf::from("r.html"),
        ];
        let set =
            write_set_streamed_removing(&dir, vec![(PathBuf::from("r.json"), json)], &[], &stale)
                .unwrap();
        assert_eq!(set.written, vec![dir.join("r.json")]);
        assert_eq!(set.removed, vec![dir.join("r.md")]);
        assert_eq!(fs::read(dir.join("r.json")).unwrap(), b"second");
        assert!(!dir.join("r.md").exists());
        let bad = [PathBuf::from("../r.md")];
        assert!(write_set_streamed_removing(&dir, Vec::new(), &[], &bad).is_err());
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_file_where_the_directory_should_be_is_refused_up_front() {
        let dir = temp_dir("notdir");
        let file = dir.join("file");
        fs::write(&file, "x").unwrap();
        let error = prepare_out_dir(&file).unwrap_err();
        assert!(error.to_string().contains("not a directory"), "{error}");
        prepare_out_dir(&dir.join("new/sub")).unwrap();
        assert!(dir.join("new/sub").is_dir());
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn relative_paths_are_plain_names_or_inside_owned_dirs() {
        let owned = ["cases"];
        assert!(check_relative(Path::new("a.json"), &owned).is_ok());
        assert!(check_relative(Path::new("cases/x.yaml"), &owned).is_ok());
        assert!(check_relative(Path::new("other/x.yaml"), &owned).is_err());
        assert!(check_relative(Path::new("../x"), &owned).is_err());
        assert!(check_relative(Path::new("cases"), &owned).is_err());
        assert!(check_relative(Path::new("/etc/x"), &owned).is_err());
    }
}

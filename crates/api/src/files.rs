//! The edge's small duties: the clock, the data directory, and writing
//! files so that a crash never leaves one half-written.

use std::io::Write;
use std::path::{Path, PathBuf};

use crate::Error;
use crate::error::Refusal;

/// The environment variable that moves the database (tests, end-to-end runs).
pub const DB_ENV: &str = "SUANLI_DB";

/// Where the catalogue database lives: `$SUANLI_DB`, else the platform's
/// data directory (`~/.local/share/suanli/suanli.sqlite` on Linux).
pub fn default_db_path() -> PathBuf {
    if let Some(p) = std::env::var_os(DB_ENV).filter(|p| !p.is_empty()) {
        return PathBuf::from(p);
    }
    directories::ProjectDirs::from("org", "Suanli", "suanli")
        .map(|d| d.data_dir().join("suanli.sqlite"))
        .unwrap_or_else(|| PathBuf::from("suanli.sqlite"))
}

/// The user's language from the environment: `SUANLI_LANG`, else the
/// session's locale (`LC_ALL`, `LC_MESSAGES`, `LANG`); Chinese when it
/// starts with `zh`, else English. The one place the locale is read.
pub fn system_lang() -> suanli_model::Lang {
    ["SUANLI_LANG", "LC_ALL", "LC_MESSAGES", "LANG"]
        .iter()
        .find_map(|k| std::env::var(k).ok().filter(|v| !v.trim().is_empty()))
        .map_or(suanli_model::Lang::En, |v| suanli_model::Lang::of_locale(&v))
}

/// Now, UTC, as `YYYY-MM-DDTHH:MM:SSZ`: the only clock read in Suanli.
pub fn now_utc() -> String {
    chrono::Utc::now().format("%Y-%m-%dT%H:%M:%SZ").to_string()
}

/// Today's date, UTC, as `YYYY-MM-DD` (the default date of a proposal, the
/// as-of date of a price the user types in).
pub fn today() -> String {
    chrono::Utc::now().format("%Y-%m-%d").to_string()
}

/// Where an export goes unless the user picks another place: the
/// Documents folder (or home), named after the scenario (letters, digits,
/// `-` and `_`; at most 60 characters; `suanli` when nothing is left).
pub fn default_export_path(name: &str, extension: &str) -> std::path::PathBuf {
    let dir = std::env::var_os("HOME")
        .map(std::path::PathBuf::from)
        .map(|h| if h.join("Documents").is_dir() { h.join("Documents") } else { h })
        .unwrap_or_default();
    let stem: String = name
        .chars()
        .map(|c| if c.is_alphanumeric() || c == '-' || c == '_' { c } else { '-' })
        .collect::<String>()
        .split('-')
        .filter(|s| !s.is_empty())
        .collect::<Vec<_>>()
        .join("-");
    let stem = if stem.is_empty() { "suanli".to_owned() } else { stem.chars().take(60).collect() };
    dir.join(format!("{stem}.{extension}"))
}

/// Today's date, UTC, as a date (prices are aged against it).
pub fn today_date() -> chrono::NaiveDate {
    chrono::Utc::now().date_naive()
}

/// Writes `bytes` to `path` through a temporary file in the same directory
/// and a rename: the file is either the old one or the whole new one. Only
/// a regular file is ever replaced (never a device, a directory, a socket or
/// a symbolic link), never a read-only one, and a replaced file keeps its
/// permissions. Its directory must exist.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), Error> {
    write_all(&[Output { path, bytes, private: false }])
}

/// One file of a write.
#[derive(Debug, Clone, Copy)]
pub struct Output<'a> {
    /// Where the file goes.
    pub path: &'a Path,
    /// The whole content.
    pub bytes: &'a [u8],
    /// Readable by the owner only (mode 0600): secret keys.
    pub private: bool,
}

/// Writes several files all or nothing: every target is checked before
/// anything is written, every file goes to a temporary first, and the
/// renames come last; when one fails, the files this call replaced are put
/// back and the ones it created are removed. Their directories must exist.
pub fn write_all(files: &[Output<'_>]) -> Result<(), Error> {
    write_all_into(&[], files)
}

/// As [`write_all`], making the directories `dirs` (and their missing
/// parents) first; the ones it made are removed again when the write fails.
pub(crate) fn write_all_into(dirs: &[&Path], files: &[Output<'_>]) -> Result<(), Error> {
    let mut targets = Vec::with_capacity(files.len());
    for f in files {
        targets.push(Target::check(f, dirs)?);
    }
    let mut undo = Undo::default();
    let result = write_checked(dirs, &targets, &mut undo);
    if result.is_err() {
        undo.roll_back();
    } else {
        undo.commit();
    }
    result
}

/// A target that passed the checks.
struct Target<'a> {
    out: Output<'a>,
    /// The permissions of the regular file it replaces, if there is one.
    existing: Option<std::fs::Permissions>,
}

impl<'a> Target<'a> {
    fn check(out: &Output<'a>, makeable: &[&Path]) -> Result<Target<'a>, Error> {
        let path = out.path;
        let refuse = |why| Error::Refused { path: path.display().to_string(), why };
        let existing = match std::fs::symlink_metadata(path) {
            Ok(m) if m.file_type().is_symlink() => return Err(refuse(Refusal::Symlink)),
            Ok(m) if !m.file_type().is_file() => return Err(refuse(Refusal::NotRegular)),
            Ok(m) if m.permissions().readonly() => return Err(refuse(Refusal::ReadOnly)),
            Ok(m) => Some(m.permissions()),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                let here = parent(path);
                if !here.is_dir() && !makeable.contains(&here) {
                    // Said as the system says it (no such file or directory).
                    let source = std::fs::metadata(here).err().unwrap_or_else(|| {
                        std::io::Error::new(
                            std::io::ErrorKind::NotADirectory,
                            format!("{} is not a directory", here.display()),
                        )
                    });
                    return Err(Error::Write { path: path.display().to_string(), source });
                }
                // The nearest existing ancestor must be a directory, or no
                // directory can be made below it.
                let mut dir = here;
                while !dir.as_os_str().is_empty() && std::fs::symlink_metadata(dir).is_err() {
                    dir = dir.parent().unwrap_or(Path::new(""));
                }
                if !dir.as_os_str().is_empty() && !dir.is_dir() {
                    return Err(Error::Write {
                        path: path.display().to_string(),
                        source: std::io::Error::new(
                            std::io::ErrorKind::NotADirectory,
                            format!("{} is not a directory", dir.display()),
                        ),
                    });
                }
                None
            }
            Err(source) => return Err(Error::Write { path: path.display().to_string(), source }),
        };
        Ok(Target { out: *out, existing })
    }
}

fn parent(path: &Path) -> &Path {
    path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."))
}

/// What a write did so far, to take back if a later step fails.
#[derive(Default)]
struct Undo {
    dirs: Vec<PathBuf>,
    temporaries: Vec<PathBuf>,
    /// Targets renamed into place, with the backup of what they replaced.
    placed: Vec<(PathBuf, Option<PathBuf>)>,
    backups: Vec<PathBuf>,
}

impl Undo {
    fn roll_back(self) {
        for tmp in &self.temporaries {
            let _ = std::fs::remove_file(tmp);
        }
        for (path, backup) in self.placed.iter().rev() {
            match backup {
                Some(b) => {
                    let _ = std::fs::rename(b, path);
                }
                None => {
                    let _ = std::fs::remove_file(path);
                }
            }
        }
        for b in &self.backups {
            let _ = std::fs::remove_file(b);
        }
        for d in self.dirs.iter().rev() {
            let _ = std::fs::remove_dir(d);
        }
    }

    fn commit(self) {
        for b in &self.backups {
            let _ = std::fs::remove_file(b);
        }
    }
}

fn io(path: &Path) -> impl Fn(std::io::Error) -> Error + '_ {
    move |source| Error::Write { path: path.display().to_string(), source }
}

fn write_checked(dirs: &[&Path], targets: &[Target<'_>], undo: &mut Undo) -> Result<(), Error> {
    for dir in dirs {
        make_dirs(dir, &mut undo.dirs).map_err(io(dir))?;
    }
    let mut temporaries = Vec::with_capacity(targets.len());
    for t in targets {
        let tmp = write_temporary(t).map_err(io(t.out.path))?;
        undo.temporaries.push(tmp.clone());
        temporaries.push(tmp);
    }
    // With one file the rename is the last step: nothing needs a backup.
    let backup_needed = targets.len() > 1;
    for (t, tmp) in targets.iter().zip(temporaries) {
        let path = t.out.path;
        let backup = match (&t.existing, backup_needed) {
            (Some(_), true) => {
                let b = backup(path).map_err(io(path))?;
                undo.backups.push(b.clone());
                Some(b)
            }
            _ => None,
        };
        std::fs::rename(&tmp, path).map_err(io(path))?;
        undo.temporaries.retain(|x| x != &tmp);
        if let Some(b) = &backup {
            undo.backups.retain(|x| x != b);
        }
        undo.placed.push((path.to_path_buf(), backup.clone()));
        if let Some(b) = backup {
            undo.backups.push(b);
        }
    }
    for t in targets {
        // The renames survive a power cut once the directory is on disk.
        if let Ok(d) = std::fs::File::open(parent(t.out.path)) {
            let _ = d.sync_all();
        }
    }
    Ok(())
}

/// Makes `dir` and its missing parents, recording each one made.
fn make_dirs(dir: &Path, made: &mut Vec<PathBuf>) -> std::io::Result<()> {
    if dir.as_os_str().is_empty() || dir.is_dir() {
        return Ok(());
    }
    if let Some(up) = dir.parent() {
        make_dirs(up, made)?;
    }
    match std::fs::create_dir(dir) {
        Ok(()) => {
            made.push(dir.to_path_buf());
            Ok(())
        }
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && dir.is_dir() => Ok(()),
        Err(e) => Err(e),
    }
}

/// A name beside `path` that nothing has yet, created empty and exclusively
/// (never through a link someone left there); owner-only when `private`.
fn fresh_file(path: &Path, what: &str, private: bool) -> std::io::Result<(PathBuf, std::fs::File)> {
    let name = path.file_name().map_or("out".into(), |n| n.to_string_lossy().into_owned());
    let dir = parent(path);
    let mut n = 0u32;
    loop {
        let candidate = dir.join(format!(".{name}.{}.{n}.{what}", std::process::id()));
        let mut options = std::fs::OpenOptions::new();
        options.write(true).create_new(true);
        #[cfg(unix)]
        if private {
            use std::os::unix::fs::OpenOptionsExt;
            options.mode(0o600);
        }
        match options.open(&candidate) {
            Ok(f) => return Ok((candidate, f)),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && n < 1000 => n += 1,
            Err(e) => return Err(e),
        }
    }
}

fn write_temporary(t: &Target<'_>) -> std::io::Result<PathBuf> {
    let (tmp, mut f) = fresh_file(t.out.path, "tmp", t.out.private)?;
    let result = (|| {
        f.write_all(t.out.bytes)?;
        // A replaced file keeps its permissions (a private one stays private);
        // a secret is owner-only even where it replaces a readable file.
        match (&t.existing, t.out.private) {
            (_, true) => set_private(&f)?,
            (Some(p), false) => f.set_permissions(p.clone())?,
            (None, false) => {}
        }
        f.sync_all()
    })();
    match result {
        Ok(()) => Ok(tmp),
        Err(e) => {
            let _ = std::fs::remove_file(&tmp);
            Err(e)
        }
    }
}

/// A second name for the file at `path`, so it can be put back.
fn backup(path: &Path) -> std::io::Result<PathBuf> {
    let (b, _) = fresh_file(path, "bak", true)?;
    std::fs::remove_file(&b)?;
    if std::fs::hard_link(path, &b).is_err() {
        std::fs::copy(path, &b)?;
    }
    Ok(b)
}

/// Owner-only (0600) on Unix; elsewhere the platform's default.
fn set_private(f: &std::fs::File) -> std::io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        f.set_permissions(std::fs::Permissions::from_mode(0o600))
    }
    #[cfg(not(unix))]
    {
        let _ = f;
        Ok(())
    }
}

/// The largest scenario file read (a real one is a few kilobytes; an
/// hourly profile over 20 years, 175,200 numbers, about 2 MiB).
pub const MAX_SCENARIO_BYTES: u64 = 4 * 1024 * 1024;

/// The largest other file read: a pack or a feed (their own caps are 64 MiB),
/// a price book, a key, a logo.
pub const MAX_FILE_BYTES: u64 = 64 * 1024 * 1024;

/// Reads a file of `kind` whole, refusing one past its limit. Reading stops
/// one byte past the limit, so a stream (`/dev/zero`, a pipe) is never read
/// further: the one way Suanli reads a file the user names.
pub fn read_limited(path: &Path, kind: crate::error::FileKind) -> Result<Vec<u8>, Error> {
    use std::io::Read;
    let limit = match kind {
        crate::error::FileKind::Scenario => MAX_SCENARIO_BYTES,
        crate::error::FileKind::Input => MAX_FILE_BYTES,
    };
    let read_error = |source| Error::Read { path: path.display().to_string(), source };
    let file = std::fs::File::open(path).map_err(read_error)?;
    let mut bytes = Vec::new();
    file.take(limit + 1).read_to_end(&mut bytes).map_err(read_error)?;
    if bytes.len() as u64 > limit {
        return Err(Error::TooLarge { path: path.display().to_string(), kind, limit });
    }
    Ok(bytes)
}

/// A scenario file's text (at most [`MAX_SCENARIO_BYTES`], UTF-8).
pub fn read_scenario_text(path: &Path) -> Result<String, Error> {
    let bytes = read_limited(path, crate::error::FileKind::Scenario)?;
    String::from_utf8(bytes).map_err(|_| Error::Read {
        path: path.display().to_string(),
        source: std::io::Error::new(std::io::ErrorKind::InvalidData, "stream did not contain valid UTF-8"),
    })
}

/// Any other file the user names (at most [`MAX_FILE_BYTES`]).
pub fn read(path: &Path) -> Result<Vec<u8>, Error> {
    read_limited(path, crate::error::FileKind::Input)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    /// A rename that fails after another has landed: the one that landed is
    /// put back (a target that changed between the checks and the rename).
    #[test]
    fn a_late_failure_puts_back_what_was_replaced() {
        let dir = tempfile::tempdir().unwrap();
        let (a, b) = (dir.path().join("a.csv"), dir.path().join("b.csv"));
        std::fs::write(&a, b"old a").unwrap();
        let checked = Target::check(&Output { path: &a, bytes: b"new a", private: false }, &[]).unwrap();
        let late = Target { out: Output { path: &b, bytes: b"new b", private: false }, existing: None };
        // b becomes a non-empty directory after its check: its rename fails.
        std::fs::create_dir(&b).unwrap();
        std::fs::write(b.join("inside"), b"x").unwrap();
        let mut undo = Undo::default();
        assert!(write_checked(&[], &[checked, late], &mut undo).is_err());
        undo.roll_back();
        assert_eq!(std::fs::read(&a).unwrap(), b"old a");
        let mut names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
        names.sort();
        assert_eq!(names, ["a.csv", "b.csv"].map(std::ffi::OsString::from));
    }
}

//! The edge's small duties: the clock, the data directory, and writing
//! files so that a crash never leaves one half-written.

use std::io::Write;
use std::path::{Path, PathBuf};

use crate::Error;

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

/// Writes `bytes` to `path` through a temporary file in the same directory
/// and a rename: the file is either the old one or the whole new one.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), Error> {
    let io = |source| Error::Write { path: path.display().to_string(), source };
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let name = path.file_name().map_or("out".into(), |n| n.to_string_lossy().into_owned());
    let tmp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
    let result = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result.map_err(io)
}

pub fn read(path: &Path) -> Result<Vec<u8>, Error> {
    std::fs::read(path).map_err(|source| Error::Read { path: path.display().to_string(), source })
}

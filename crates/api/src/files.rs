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

/// Now, UTC, as `YYYY-MM-DDTHH:MM:SSZ` (the only clock read in Suanli).
pub fn now_utc() -> String {
    let secs = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
    format_utc(secs)
}

/// Formats seconds since 1970 as an ISO 8601 UTC timestamp.
pub fn format_utc(secs: u64) -> String {
    let days = (secs / 86_400) as i64;
    let rem = secs % 86_400;
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z", rem / 3600, rem % 3600 / 60, rem % 60)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_utc_dates() {
        assert_eq!(format_utc(0), "1970-01-01T00:00:00Z");
        // 2026-11-30T10:19:28Z
        assert_eq!(format_utc(1_796_033_968), "2026-11-30T10:19:28Z");
        assert_eq!(format_utc(951_782_400), "2000-02-29T00:00:00Z");
    }
}

//! `suanli deploy`: the chosen option's Kubernetes Job, Prometheus rules
//! and Grafana dashboard, written into a directory.

use std::path::{Path, PathBuf};

pub use suanli_report::DeploySettings as Settings;

use crate::{Error, files::write_atomic};

/// Evaluates the scenario and writes every artefact for `option` into
/// `out` (each file whole or not at all). Returns the files and notes.
pub fn deploy(
    scenario: &Path,
    db: Option<&Path>,
    option: &str,
    settings: &Settings,
    out: &Path,
) -> Result<(Vec<PathBuf>, Vec<String>), Error> {
    let (s, mut notes) = crate::load_resolved(scenario, db)?;
    let e = crate::evaluate(&s);
    let (artifacts, more) = suanli_report::deploy(&s, &e, option, settings)?;
    notes.extend(more);
    std::fs::create_dir_all(out).map_err(|source| Error::Write { path: out.display().to_string(), source })?;
    let mut written = Vec::new();
    for a in artifacts {
        let path = out.join(&a.file);
        write_atomic(&path, a.contents.as_bytes())?;
        written.push(path);
    }
    Ok((written, notes))
}

//! `suanli deploy`: the chosen option's Kubernetes Job, Prometheus rules
//! and Grafana dashboard, written into a directory.

use std::path::{Path, PathBuf};

pub use suanli_report::DeploySettings as Settings;

use crate::Error;
use crate::files::{Output, write_all_into};

/// Evaluates the scenario and writes every artefact for `option` into
/// `out`, all of them or none. Returns the files and notes.
pub fn deploy(
    scenario: &Path,
    db: Option<&Path>,
    option: &str,
    settings: &Settings,
    out: &Path,
) -> Result<(Vec<PathBuf>, Vec<String>), Error> {
    let (s, resolved) = crate::load_resolved(scenario, db)?;
    // The deployment files are English; so are their notes.
    let mut notes: Vec<String> = resolved.iter().map(|n| n.describe(crate::Lang::En).to_owned()).collect();
    let e = crate::evaluate(&s);
    let (artifacts, more) = suanli_report::deploy(&s, e, option, settings)?;
    notes.extend(more);
    let written: Vec<PathBuf> = artifacts.iter().map(|a| out.join(&a.file)).collect();
    let outputs: Vec<Output<'_>> = artifacts
        .iter()
        .zip(&written)
        .map(|(a, path)| Output { path, bytes: a.contents.as_bytes(), private: false })
        .collect();
    write_all_into(&[out], &outputs)?;
    Ok((written, notes))
}

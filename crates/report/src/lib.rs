//! What leaves Suanli, built from computed results: the proposal (PDF), the
//! workbook (XLSX and CSV), and the deployment and cost-monitoring artefacts
//! of a chosen option (Kubernetes Job, Prometheus alerting rules with their
//! unit tests, a Grafana dashboard).
//!
//! Pure: every function takes the scenario, its evaluation and settings,
//! and returns file contents; the API crate writes them.

mod assumptions;
mod case;
pub mod deploy;
mod labels;
mod pdf;
pub mod proposal;
pub mod sheet;
mod yaml;

pub use deploy::{Artifact, DeployError, DeploySettings, deploy};
pub use pdf::{fallback, font_covers};

/// Display names by catalogue id (accelerators), in one language.
pub type Names = std::collections::BTreeMap<String, String>;

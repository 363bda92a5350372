//! What leaves Suanli, built from computed results: the proposal (PDF), the
//! workbook (XLSX and CSV), and the deployment and cost-monitoring artefacts
//! of a chosen option (Kubernetes Job, Prometheus alerting rules with their
//! unit tests, a Grafana dashboard).
//!
//! The PDF is drawn with printpdf in a bundled subset of Noto Sans CJK SC,
//! charts included, with a numbered reference list of the sources behind
//! its figures. The workbook has eight sheets (Summary, Comparison, Inputs,
//! Breakdown, Monthly, By year, Cost lines, Assumptions), with formulas
//! that recompute the costs from the named cells of its Inputs sheet.
//!
//! Pure: the entry points take the scenario, its computed results and
//! settings, and return file contents; the API crate writes them.

#![warn(missing_docs)]

mod assumptions;
mod board;
mod budget;
pub mod deploy;
mod error;
mod labels;
mod linebreak;
mod pdf;
pub mod proposal;
mod reasons;
mod references;
mod register;
pub mod sheet;
mod yaml;

pub use board::{AcceleratorFacts, BoardFacts};
pub use deploy::{Artifact, DeployError, DeploySettings, deploy};
pub use error::ReportError;
/// A scenario input's words (`on_demand.price_per_accel_hour` → "on demand: price per accelerator-hour").
pub use labels::input as input_label;
pub use pdf::{fallback, font_covers};
pub use references::{Source, Sources};

/// Display names by catalogue id (accelerators), in one language.
pub type Names = std::collections::BTreeMap<String, String>;

//! The porting facts a scenario states (the costs are `crate::porting`).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::money::Currency;

/// How ready the accelerator's framework adapter (torch_npu, torch_musa …)
/// is for this workload.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub enum Maturity {
    /// Runs the workload's models with few changes.
    Mature,
    /// Works for common models; custom operators need porting.
    Beta,
    /// Partial coverage; expect rewrites and debugging.
    Early,
}

/// Engineer-months per unit of work at one maturity.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Effort {
    /// Engineer-months per thousand lines of accelerator-facing code.
    pub months_per_kloc: f64,
    /// Engineer-months per custom kernel rewritten.
    pub months_per_kernel: f64,
    /// Engineer-months to validate the port, once.
    pub validation_months: f64,
    /// Yearly upkeep as a share of the porting cost.
    pub maintenance_share_per_year: f64,
}

/// The workload being ported (scenario level).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PortingAssumptions {
    /// Size of the training/inference code that touches the accelerator, thousand lines.
    pub code_kloc: f64,
    /// Custom CUDA kernels or operators that must be rewritten.
    #[serde(default)]
    pub custom_kernels: f64,
    /// Fully loaded cost of one engineer for one month.
    pub engineer_month_cost: f64,
    /// Engineers working on the port at once (sets the delay).
    #[serde(default = "one")]
    pub engineers: f64,
    /// Currency of `engineer_month_cost` and `bridge_price_per_ref_gpu_hour`;
    /// default the scenario's.
    #[serde(default)]
    pub currency: Option<Currency>,
    /// What serving demand costs while the port is under way (e.g. keep
    /// renting the incumbent), per reference-GPU-hour. Without it, demand
    /// during the delay is unserved.
    #[serde(default)]
    pub bridge_price_per_ref_gpu_hour: Option<f64>,
    /// Overrides of the default effort table.
    #[serde(default)]
    pub effort: BTreeMap<Maturity, Effort>,
}

fn one() -> f64 {
    1.0
}

/// Porting of one option.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OptionPorting {
    /// How ready the adapter is; picks the row of the effort table.
    pub maturity: Maturity,
    /// The framework adapter, e.g. `torch_npu` (reported).
    #[serde(default)]
    pub adapter: Option<String>,
}

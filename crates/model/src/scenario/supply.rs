//! The supply facts a scenario states (the score is `crate::supply`).

use serde::{Deserialize, Serialize};

/// Export-control status for the buyer (the catalogue's field).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub enum ExportStatus {
    Unrestricted,
    LicenceRequired,
    Banned,
    ChinaOnlyVariant,
    Domestic,
    Unknown,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Stability {
    Stable,
    #[default]
    Uncertain,
    Fragile,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Supply {
    /// Procurement lead time, months: `[low, most likely, high]` (triangular).
    /// For an owned option it replaces the point lead time in simulations.
    #[serde(default)]
    pub lead_time_months: Option<[f64; 3]>,
    #[serde(default)]
    pub export_status: Option<ExportStatus>,
    /// Chance that supply is cut off by a change of export rules within the horizon.
    #[serde(default)]
    pub export_change_probability: f64,
    /// If it happens: months to switch to another supply.
    #[serde(default)]
    pub export_change_delay_months: f64,
    /// If it happens: extra cost as a share of the option's total.
    #[serde(default)]
    pub export_change_extra_cost_share: f64,
    /// Share of supply that depends on one vendor or channel (0–1).
    #[serde(default = "one")]
    pub vendor_concentration: f64,
    #[serde(default)]
    pub stability: Stability,
}

fn one() -> f64 {
    1.0
}

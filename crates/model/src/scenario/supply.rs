//! The supply facts a scenario states (the score is `crate::supply`).

use serde::{Deserialize, Serialize};

/// Export-control status for the buyer (the catalogue's field).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub enum ExportStatus {
    /// No export restriction.
    Unrestricted,
    /// Controlled: exports need a licence.
    LicenceRequired,
    /// Exports are banned.
    Banned,
    /// A compliant China-only variant, still shipping.
    ChinaOnlyVariant,
    /// A Chinese domestic product.
    Domestic,
    /// The sources say nothing.
    Unknown,
}

/// How stable the supply is over the long term: a judgement, not sourced data
/// (scored 0, 5 or 10 points).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Stability {
    /// Supply expected to hold.
    Stable,
    /// Neither known to hold nor to fail (the default).
    #[default]
    Uncertain,
    /// Supply may be cut off or withdrawn.
    Fragile,
}

/// Supply-risk facts of an option's accelerator and provider
/// (`[options.supply]`); scored by [`crate::supply::score`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Supply {
    /// Procurement lead time, months: `[low, most likely, high]` (triangular).
    /// For an owned option it replaces the point lead time in simulations.
    #[serde(default)]
    pub lead_time_months: Option<[f64; 3]>,
    /// Export-control status for the buyer; scored as unknown when absent.
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
    /// Long-term stability of the supply (default uncertain).
    #[serde(default)]
    pub stability: Stability,
}

fn one() -> f64 {
    1.0
}

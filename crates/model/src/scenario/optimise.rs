//! What the capacity-mix optimiser may combine and the constraints it meets.

use serde::{Deserialize, Serialize};

/// The `[optimise]` section: the template options whose pools the optimiser
/// combines, and the constraints the mix must meet.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OptimiseSpec {
    /// Option whose `owned` or `reserved` pool is the base to size.
    #[serde(default)]
    pub base: Option<String>,
    /// Option whose `on_demand` pool takes the peaks.
    #[serde(default)]
    pub on_demand: Option<String>,
    /// Option whose `spot` pool takes low-priority work.
    #[serde(default)]
    pub spot: Option<String>,
    /// What the chosen mix must meet.
    #[serde(default)]
    pub constraints: Constraints,
}

/// Constraints on the optimiser's mix. Each one set can only remove
/// candidates, never lower the cost.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Constraints {
    /// Every pool must be available (lead time + porting) by this month.
    #[serde(default)]
    pub deadline_months: Option<f64>,
    /// The chosen mix's P90 NPV must not exceed this (simulated with the
    /// scenario's `[[uncertainty]]`).
    #[serde(default)]
    pub max_p90_npv: Option<f64>,
    /// Every pool's supply-risk score must be at most this (pools without
    /// supply facts cannot show that they meet it).
    #[serde(default)]
    pub max_supply_score: Option<f64>,
    /// Every pool must be a Chinese domestic accelerator (`domestic = true`).
    #[serde(default)]
    pub domestic_only: bool,
    /// Every pool must run in this country (ISO 3166), e.g. `CN`.
    #[serde(default)]
    pub provider_country: Option<String>,
    /// Security features every pool must offer.
    #[serde(default)]
    pub required_security: Vec<String>,
}

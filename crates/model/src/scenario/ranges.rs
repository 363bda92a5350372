//! Inputs known only as ranges (`[[uncertainty]]`); sampling is `crate::random`.

use serde::{Deserialize, Serialize};

/// One uncertain input.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Uncertain {
    /// What it applies to: `options.ID.on_demand.price_per_accel_hour`,
    /// `options.ID.owned.capex_per_server`, `options.ID.efficiency_ratio`,
    /// `demand.scale`, `discount_rate_annual`, `fx.USD`, `porting.code_kloc` …
    pub path: String,
    pub range: Distribution,
    #[serde(default)]
    pub source: String,
}

/// A quantity known only as a range.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(tag = "dist", rename_all = "snake_case", deny_unknown_fields)]
pub enum Distribution {
    Uniform {
        low: f64,
        high: f64,
    },
    Triangular {
        low: f64,
        mode: f64,
        high: f64,
    },
    /// Beta-PERT: a smoother triangular (λ = 4).
    Pert {
        low: f64,
        mode: f64,
        high: f64,
    },
    /// Log-normal given by its median and its 90th percentile.
    Lognormal {
        median: f64,
        p90: f64,
    },
    /// An event: 1 with `probability`, else 0.
    Bernoulli {
        probability: f64,
    },
}

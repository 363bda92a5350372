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
    /// Its distribution.
    pub range: Distribution,
    /// Where the range comes from.
    #[serde(default)]
    pub source: String,
}

/// A quantity known only as a range.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(tag = "dist", rename_all = "snake_case", deny_unknown_fields)]
pub enum Distribution {
    /// Every value from `low` to `high` equally likely.
    Uniform {
        /// Lowest value.
        low: f64,
        /// Highest value.
        high: f64,
    },
    /// Triangular: from `low` through the most likely `mode` to `high`.
    Triangular {
        /// Lowest value.
        low: f64,
        /// Most likely value.
        mode: f64,
        /// Highest value.
        high: f64,
    },
    /// Beta-PERT: a smoother triangular (λ = 4).
    Pert {
        /// Lowest value.
        low: f64,
        /// Most likely value.
        mode: f64,
        /// Highest value.
        high: f64,
    },
    /// Log-normal given by its median and its 90th percentile.
    Lognormal {
        /// The median (above 0).
        median: f64,
        /// The 90th percentile (at least the median).
        p90: f64,
    },
    /// An event: 1 with `probability`, else 0.
    Bernoulli {
        /// Chance of the event, 0..1.
        probability: f64,
    },
}

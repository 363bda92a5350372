//! The pools an option draws on (owned, reserved, on demand, spot), and the
//! catalogue offers an option stands for.

use serde::{Deserialize, Serialize};

use super::one;
use crate::money::Currency;

/// When owned hardware and installation are paid.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CapexPayment {
    /// Paid when the servers are ordered (month 0).
    OnOrder,
    /// Paid when they arrive (month `lead_time_months`).
    #[default]
    OnDelivery,
}

/// How the owned fleet's value at the horizon is credited.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ResidualBasis {
    /// Book value: straight-line depreciation over `depreciation_years`.
    #[default]
    Book,
    /// A resale value: `market_residual_share` of capex.
    Market,
}

/// Servers the enterprise buys and runs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OwnedPool {
    /// Servers bought.
    pub servers: u32,
    /// Accelerators in one server.
    pub accelerators_per_server: u32,
    /// Hardware price of one server.
    pub capex_per_server: f64,
    /// Network and storage equipment for the cluster, one-off.
    #[serde(default)]
    pub network_storage_capex: f64,
    /// Installation, one-off.
    #[serde(default)]
    pub installation: f64,
    /// When capex is paid (default on delivery).
    #[serde(default)]
    pub capex_payment: CapexPayment,
    /// Months from order to first use.
    #[serde(default)]
    pub lead_time_months: u32,
    /// Average draw of one server at full load, kW.
    #[serde(default)]
    pub server_kw: f64,
    /// Power provisioned (and billed by the colocation) per server, kW;
    /// default: `server_kw`.
    #[serde(default)]
    pub provisioned_kw_per_server: Option<f64>,
    /// Colocation price per provisioned kW and month.
    #[serde(default)]
    pub colocation_per_kw_month: f64,
    /// Power usage effectiveness of the site, 1–5 (default 1).
    #[serde(default = "one")]
    pub pue: f64,
    /// Electricity tariff per kWh.
    #[serde(default)]
    pub electricity_per_kwh: f64,
    /// Staff cost per year (paid monthly from delivery).
    #[serde(default)]
    pub staff_per_year: f64,
    /// Maintenance per year as a share of hardware capex.
    #[serde(default)]
    pub maintenance_share_per_year: f64,
    /// Other yearly running costs (hosting and operations not split out).
    #[serde(default)]
    pub other_opex_per_year: f64,
    /// Straight-line life for the book residual, years (default 5).
    #[serde(default = "default_depreciation_years")]
    pub depreciation_years: f64,
    /// How the value at the horizon is credited (default book value).
    #[serde(default)]
    pub residual: ResidualBasis,
    /// Resale value as a share of hardware capex; only with `residual = "market"`.
    #[serde(default)]
    pub market_residual_share: f64,
    /// Currency of this pool's amounts; default the scenario's.
    #[serde(default)]
    pub currency: Option<Currency>,
    /// Per-pool efficiency ratio when it differs from the option's.
    #[serde(default)]
    pub efficiency_ratio: Option<f64>,
}

fn default_depreciation_years() -> f64 {
    5.0
}

/// Reserved (committed) rental capacity.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReservedPool {
    /// Length of one commitment, months (12 or 36 for 1 y / 3 y).
    pub term_months: u32,
    /// Effective price per accelerator-hour of the commitment.
    #[serde(default)]
    pub price_per_accel_hour: Option<f64>,
    /// Share of each term's total paid at its start.
    #[serde(default)]
    pub upfront_share: f64,
    /// Committed accelerators; when absent (rent options only), sized to
    /// the peak of a profile demand, or to a job's `cluster_accelerators`.
    #[serde(default)]
    pub accelerators: Option<u32>,
    /// Currency of the price; default the scenario's.
    #[serde(default)]
    pub currency: Option<Currency>,
    /// Per-pool efficiency ratio when it differs from the option's.
    #[serde(default)]
    pub efficiency_ratio: Option<f64>,
    /// Catalogue offer id that supplies the price (resolved before evaluation).
    #[serde(default)]
    pub offer: Option<String>,
}

/// On-demand rental capacity, paid per accelerator-hour used.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OnDemandPool {
    /// Price per accelerator-hour (or give `offer`).
    #[serde(default)]
    pub price_per_accel_hour: Option<f64>,
    /// Currency of the price; default the scenario's.
    #[serde(default)]
    pub currency: Option<Currency>,
    /// Per-pool efficiency ratio when it differs from the option's.
    #[serde(default)]
    pub efficiency_ratio: Option<f64>,
    /// Catalogue offer id that supplies the price (resolved before evaluation).
    #[serde(default)]
    pub offer: Option<String>,
}

/// Spot rental capacity: interruptible, and not always available.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SpotPool {
    /// Price per accelerator-hour (or give `offer`).
    #[serde(default)]
    pub price_per_accel_hour: Option<f64>,
    /// Extra work from interruptions (checkpoint/restart waste), as a share
    /// of the useful work (0.1 = 10 % more accelerator-hours).
    #[serde(default)]
    pub interruption_overhead: f64,
    /// Share of spot work that actually gets spot capacity; the rest falls
    /// back to the option's on-demand pool.
    #[serde(default = "one")]
    pub availability: f64,
    /// Currency of the price; default the scenario's.
    #[serde(default)]
    pub currency: Option<Currency>,
    /// Per-pool efficiency ratio when it differs from the option's.
    #[serde(default)]
    pub efficiency_ratio: Option<f64>,
    /// Catalogue offer id that supplies the price (resolved before evaluation).
    #[serde(default)]
    pub offer: Option<String>,
}

/// Which catalogue offers an option stands for. Every field narrows the
/// selection; the catalogue turns each match into a rent option.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OfferSelector {
    /// Catalogue accelerator id.
    #[serde(default)]
    pub accelerator: Option<String>,
    /// Accelerator vendor (case-insensitive).
    #[serde(default)]
    pub vendor: Option<String>,
    /// Chinese domestic accelerators only (`true`), or none of them (`false`).
    #[serde(default)]
    pub domestic: Option<bool>,
    /// on_demand, reserved_1y, reserved_3y, spot or monthly.
    #[serde(default)]
    pub billing_mode: Option<String>,
    /// Catalogue provider id.
    #[serde(default)]
    pub provider: Option<String>,
    /// ISO 3166 alpha-2 (`CN` for data that must stay in China).
    #[serde(default)]
    pub provider_country: Option<String>,
    /// Region, as the catalogue's offers name it.
    #[serde(default)]
    pub region: Option<String>,
    /// Only accelerators a buyer in China can obtain (`cn`).
    #[serde(default)]
    pub obtainable_in: Option<String>,
    /// At most this many offers, cheapest first: by effective price when the
    /// workload has a class and no stated ratio, else by price per accelerator-hour.
    #[serde(default)]
    pub limit: Option<u32>,
}

//! The scenario: everything the engine needs to know, as plain data.
//!
//! These types are also the scenario file format (TOML): field names carry
//! their units, unknown fields are refused, and every default is written in
//! `docs/scenario-format.md`. Amounts are in the currency named next to
//! them (or the scenario's currency) and are converted with the scenario's
//! own FX table; the engine never looks a rate up.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::money::Currency;

mod llm;
mod optimise;
mod pools;
mod porting;
mod ranges;
mod supply;
mod workload;

pub use llm::{Inference, LatencyClass, Precision, Sharding};
pub use optimise::{Constraints, OptimiseSpec};
pub use pools::{CapexPayment, OfferSelector, OnDemandPool, OwnedPool, ReservedPool, ResidualBasis, SpotPool};
pub use porting::{Effort, Maturity, OptionPorting, PortingAssumptions};
pub use ranges::{Distribution, Uncertain};
pub use supply::{ExportStatus, Stability, Supply};
pub use workload::WorkloadClass;

/// Hours in an average month (8,760 / 12). Every monthly figure uses it.
pub const HOURS_PER_MONTH: f64 = 730.0;
/// Days in an average month (365 / 12).
pub const DAYS_PER_MONTH: f64 = 365.0 / 12.0;

/// A whole scenario: the demand, the options for meeting it, and the finance
/// assumptions. Check it with [`crate::Checked::new`] before evaluating it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    /// Title shown in tables and reports.
    pub name: String,
    /// What the scenario is and where its figures come from.
    #[serde(default)]
    pub description: String,
    /// The same in Chinese, for Chinese reports (a description may also be
    /// written bilingual, "English / 中文").
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub description_zh: String,
    /// Length of the comparison, in months (1..=240).
    pub horizon_months: u32,
    /// Currency every result is reported in.
    pub currency: Currency,
    /// Yearly cost of capital used for NPV (0.08 = 8 %).
    #[serde(default)]
    pub discount_rate_annual: f64,
    /// Units of the scenario currency per one unit of another currency
    /// (`USD = 7.1106` in a CNY scenario). Needed for every other currency used.
    #[serde(default)]
    pub fx: BTreeMap<Currency, f64>,
    /// Where the FX rates come from (shown in reports).
    #[serde(default)]
    pub fx_source: String,
    /// The accelerator every efficiency ratio is relative to.
    #[serde(default = "default_reference_gpu")]
    pub reference_gpu: String,
    /// Workload class the efficiency ratios were chosen for (e.g. `llm_pretraining`).
    #[serde(default)]
    pub workload_class: Option<WorkloadClass>,
    /// What has to be computed.
    pub demand: Demand,
    /// The priority rule a mix routes work by; default the article's.
    #[serde(default)]
    pub scheduling: SchedulingRule,
    /// Generation refresh of rental pools; off by default.
    #[serde(default)]
    pub refresh: Refresh,
    /// Multi-node scaling curves, named by options' `interconnect`.
    #[serde(default)]
    pub scaling_curves: Vec<ScalingCurve>,
    /// Storage assumptions; needed when an option sets `storage`.
    #[serde(default)]
    pub storage: Option<StorageAssumptions>,
    /// The grid's carbon intensity, for the energy and emissions of owned servers.
    #[serde(default)]
    pub energy: Option<EnergyAssumptions>,
    /// Edge assumptions; needed when an option sets `edge`.
    #[serde(default)]
    pub edge: Option<EdgeAssumptions>,
    /// The workload's porting facts, for options on non-CUDA accelerators.
    #[serde(default)]
    pub porting: Option<PortingAssumptions>,
    /// Inputs known only as ranges (for `simulate` and `sensitivity`).
    #[serde(default)]
    pub uncertainty: Vec<Uncertain>,
    /// What `optimise` may combine, and the constraints it must meet.
    #[serde(default)]
    pub optimise: Option<OptimiseSpec>,
    /// The VAT basis of the prices and the rates (`crate::vat`); absent:
    /// the report takes Suanli's defaults for a scenario in CNY.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vat: Option<crate::vat::Vat>,
    /// At least one for `evaluate` (a rule, so a missing list is named like
    /// any other); `recommend` needs none.
    #[serde(default)]
    pub options: Vec<OptionSpec>,
}

impl Scenario {
    /// The demand is a single job (time to result matters).
    pub fn demand_is_job(&self) -> bool {
        matches!(self.demand, Demand::Job(_))
    }
}

impl Demand {
    /// Accelerators one run needs: the job's cluster, a typical job's, or a
    /// serving replica's.
    pub fn cluster_accelerators(&self) -> u32 {
        match self {
            Demand::Job(j) => j.cluster_accelerators,
            Demand::Profile(p) => p.cluster_accelerators,
            Demand::Portfolio(p) => p.cluster_accelerators,
            Demand::Inference(d) => d.cluster_accelerators,
        }
    }
}

fn default_reference_gpu() -> String {
    "nvidia-a100-sxm-80gb".to_owned()
}

/// What has to be computed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Demand {
    /// One job with a fixed amount of work; time to result matters.
    Job(Job),
    /// Steady operations: reference GPUs busy per month or per hour.
    Profile(Profile),
    /// Several jobs with priorities, scheduled onto pools by [`SchedulingRule`].
    Portfolio(Portfolio),
    /// Serving an LLM: tokens per second around the clock.
    Inference(Inference),
}

/// The amount of work, in reference-GPU-hours, given directly or derived
/// from a training run: FLOPs ≈ 6 · parameters · tokens, and
/// hours = FLOPs ÷ (reference peak × MFU) ÷ 3600.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Work {
    /// The work given directly, reference-GPU-hours.
    pub ref_gpu_hours: Option<f64>,
    /// Model parameters (a count).
    pub parameters: Option<f64>,
    /// Training tokens (a count).
    pub tokens: Option<f64>,
    /// Model FLOPs utilisation on the reference GPU, (0, 1].
    pub mfu: Option<f64>,
    /// Dense BF16 peak of the reference GPU, TFLOPS.
    pub reference_peak_tflops: Option<f64>,
}

macro_rules! work_of {
    ($t:ty) => {
        impl $t {
            /// The work fields of this job.
            pub fn work(&self) -> Work {
                Work {
                    ref_gpu_hours: self.ref_gpu_hours,
                    parameters: self.parameters,
                    tokens: self.tokens,
                    mfu: self.mfu,
                    reference_peak_tflops: self.reference_peak_tflops,
                }
            }
        }
    };
}
work_of!(Job);
work_of!(PortfolioJob);

/// One job with a fixed amount of work (`kind = "job"`): give `ref_gpu_hours`,
/// or `parameters`, `tokens`, `mfu` and `reference_peak_tflops`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Job {
    /// The amount of work; see [`Work`].
    #[serde(default)]
    pub ref_gpu_hours: Option<f64>,
    /// Model parameters (a count): with the other three fields, derives the work;
    /// alone beside `ref_gpu_hours`, sizes the memory fit.
    #[serde(default)]
    pub parameters: Option<f64>,
    /// Training tokens (a count), to derive the work.
    #[serde(default)]
    pub tokens: Option<f64>,
    /// Model FLOPs utilisation on the reference GPU (0.52 = 52 %).
    #[serde(default)]
    pub mfu: Option<f64>,
    /// Dense BF16 peak of the reference GPU, TFLOPS (A100: 312).
    #[serde(default)]
    pub reference_peak_tflops: Option<f64>,
    /// Accelerators a rented cluster runs the job on. An owned option runs
    /// it on its whole fleet.
    pub cluster_accelerators: u32,
    /// Hours a day the cluster runs (the article: 20).
    #[serde(default = "default_run_hours_per_day")]
    pub run_hours_per_day: f64,
    /// The result is needed within this many months from today.
    #[serde(default)]
    pub deadline_months: Option<f64>,
    /// Number format of weights and gradients (for the memory fit).
    #[serde(default)]
    pub precision: Option<Precision>,
    /// How training shards its state (for the memory fit; default ZeRO-3).
    #[serde(default)]
    pub sharding: Option<Sharding>,
}

fn default_run_hours_per_day() -> f64 {
    24.0
}

/// Steady operations, hour by hour or month by month (`kind = "profile"`).
/// The demand not in `normal_share` or `low_priority_share` is urgent.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Profile {
    /// Average reference GPUs busy in each month; repeats when shorter than
    /// the horizon (12 values describe a year that recurs).
    #[serde(default)]
    pub monthly_ref_gpus: Vec<f64>,
    /// Reference GPUs busy in each hour; repeats when shorter than the
    /// horizon (8,760 values describe a year). Excludes `monthly_ref_gpus`.
    #[serde(default)]
    pub hourly_ref_gpus: Vec<f64>,
    /// Relative load over a month's hours (24 values: a day; 168: a week).
    /// Scaled so its mean is 1; only used with `monthly_ref_gpus`.
    #[serde(default)]
    pub shape: Vec<f64>,
    /// Share of the demand that is normal priority (on demand by the rule).
    #[serde(default)]
    pub normal_share: f64,
    /// Share of the demand that is low priority (spot by the rule).
    #[serde(default)]
    pub low_priority_share: f64,
    /// Accelerators a typical job runs on; sets multi-node scaling.
    #[serde(default = "default_cluster")]
    pub cluster_accelerators: u32,
}

fn default_cluster() -> u32 {
    8
}

/// Jobs with priorities, each spread evenly over its months (`kind = "portfolio"`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Portfolio {
    /// The jobs; ids unique.
    pub jobs: Vec<PortfolioJob>,
    /// Accelerators a typical job runs on; sets multi-node scaling (default 8).
    #[serde(default = "default_cluster")]
    pub cluster_accelerators: u32,
}

/// One job of a portfolio.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PortfolioJob {
    /// Unique id within the portfolio.
    pub id: String,
    /// 0..=10; the scheduling rule maps it to a pool.
    pub priority: u8,
    /// The work given directly, reference-GPU-hours; or derive it as for a [`Job`].
    #[serde(default)]
    pub ref_gpu_hours: Option<f64>,
    /// Model parameters (a count), to derive the work.
    #[serde(default)]
    pub parameters: Option<f64>,
    /// Training tokens (a count), to derive the work.
    #[serde(default)]
    pub tokens: Option<f64>,
    /// Model FLOPs utilisation on the reference GPU (0.52 = 52 %).
    #[serde(default)]
    pub mfu: Option<f64>,
    /// Dense BF16 peak of the reference GPU, TFLOPS (A100: 312).
    #[serde(default)]
    pub reference_peak_tflops: Option<f64>,
    /// First month the job may run (0 = now).
    #[serde(default)]
    pub start_month: u32,
    /// Month by which it must be done (exclusive); default: the horizon.
    /// Work is spread evenly between start and deadline.
    #[serde(default)]
    pub deadline_month: Option<u32>,
}

/// The article's rule: priority > 8 → reserved (base) capacity, 5–8 → on
/// demand, < 5 → spot.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SchedulingRule {
    /// Priorities strictly above this go to the base pool.
    #[serde(default = "default_base_above")]
    pub base_above: u8,
    /// Priorities strictly below this go to spot.
    #[serde(default = "default_spot_below")]
    pub spot_below: u8,
    /// Let normal and low-priority work use base capacity that urgent work
    /// leaves idle (it is paid for anyway) before going elsewhere. Off by
    /// default, as in the article.
    #[serde(default)]
    pub fill_idle_base: bool,
}

fn default_base_above() -> u8 {
    8
}
fn default_spot_below() -> u8 {
    5
}

impl Default for SchedulingRule {
    fn default() -> Self {
        SchedulingRule { base_above: default_base_above(), spot_below: default_spot_below(), fill_idle_base: false }
    }
}

/// Generation refresh of rental pools. An owned fleet keeps its generation
/// for the whole horizon; a rental pool is assumed to move to a new
/// generation every `interval_months`, each time doing `performance_uplift`
/// times the work per accelerator-hour at `price_factor` times the price.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Refresh {
    /// Whether rental pools refresh at all (default off).
    #[serde(default)]
    pub enabled: bool,
    /// Months between refreshes (default 18).
    #[serde(default = "default_refresh_interval")]
    pub interval_months: u32,
    /// Work per accelerator-hour × this at each refresh (default 1).
    #[serde(default = "one")]
    pub performance_uplift: f64,
    /// Price per accelerator-hour × this at each refresh (default 1).
    #[serde(default = "one")]
    pub price_factor: f64,
}

fn default_refresh_interval() -> u32 {
    18
}
fn one() -> f64 {
    1.0
}

impl Default for Refresh {
    fn default() -> Self {
        Refresh { enabled: false, interval_months: 18, performance_uplift: 1.0, price_factor: 1.0 }
    }
}

/// Multi-node scaling efficiency by cluster size for one interconnect,
/// interpolated linearly in log2(accelerators) and held flat beyond the
/// first and last points.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScalingCurve {
    /// The name options give as `interconnect`.
    pub id: String,
    /// `[accelerators, efficiency]` pairs, accelerators ascending.
    pub points: Vec<(f64, f64)>,
    /// Where the points come from.
    #[serde(default)]
    pub source: String,
}

/// What a kilowatt-hour from the grid emits.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EnergyAssumptions {
    /// kg of CO2 per kWh drawn (China's national average for 2023: 0.5306).
    pub grid_kg_co2_per_kwh: f64,
    /// Where the factor comes from (shown in reports).
    #[serde(default)]
    pub source: String,
}

/// Storage separation: keep the data set in object storage and mount it
/// while training, or keep it on storage attached to the GPU instances.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StorageAssumptions {
    /// Size of the data set, TB.
    pub dataset_tb: f64,
    /// Object storage, price per TB-month.
    pub object_price_per_tb_month: f64,
    /// Storage attached to the GPU instances, price per TB-month.
    pub attached_price_per_tb_month: f64,
    /// Copies kept on attached storage (one per node group, say).
    #[serde(default = "one")]
    pub attached_copies: f64,
    /// Full reads of the data set per month over the mount.
    #[serde(default)]
    pub reads_per_month: f64,
    /// Price per TB read from object storage into the cluster.
    #[serde(default)]
    pub transfer_price_per_tb: f64,
    /// Currency of these prices; default the scenario's.
    #[serde(default)]
    pub currency: Option<Currency>,
}

/// Edge: ship raw data to the central cloud, or process at the edge and
/// ship features only.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EdgeAssumptions {
    /// Raw data produced at the edge, TB per month.
    pub raw_tb_per_month: f64,
    /// Volume of features relative to raw data (the article: 0.17, i.e. −83 %).
    pub feature_share: f64,
    /// Price per TB shipped to the central cloud.
    pub bandwidth_price_per_tb: f64,
    /// Running cost of the edge sites when features are computed there.
    #[serde(default)]
    pub edge_sites_per_month: f64,
    /// Latency when raw data is shipped, ms (reported, not costed).
    #[serde(default)]
    pub latency_ms_raw: Option<f64>,
    /// Latency when features are computed at the edge, ms (reported, not costed).
    #[serde(default)]
    pub latency_ms_features: Option<f64>,
    /// Currency of these prices; default the scenario's.
    #[serde(default)]
    pub currency: Option<Currency>,
}

/// Which pools an option may have (see [`OptionSpec`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub enum OptionKind {
    /// Servers bought and run (`owned`), optionally with `on_demand` overflow (shared demand only).
    Buy,
    /// A rented pool named by `billing` (with `on_demand` as its fallback or overflow).
    Rent,
    /// Several pools routed by priority: a base with on demand and/or spot, or on demand and spot alone.
    Mix,
}

/// Which pool a rent option is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Billing {
    /// Paid per accelerator-hour used.
    OnDemand,
    /// A commitment of accelerators for a term, paid whether used or not.
    Reserved,
    /// Interruptible capacity, not always available.
    Spot,
}

/// Where an option keeps the data set (see [`StorageAssumptions`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StorageMode {
    /// No storage line (the default).
    #[default]
    None,
    /// Object storage, mounted while training.
    Object,
    /// Storage attached to the GPU instances.
    Attached,
}

/// What an option ships from the edge (see [`EdgeAssumptions`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EdgeMode {
    /// No edge lines (the default).
    #[default]
    None,
    /// Raw data, shipped to the central cloud.
    Raw,
    /// Features computed at the edge; only they are shipped.
    Features,
}

/// One way of getting the compute. Its pools say where the accelerators
/// come from; `kind` says which pools it may have:
/// buy = `owned` (+ `on_demand` for overflow); rent = the pool named by
/// `billing` (+ `on_demand` as spot fallback or reserved overflow);
/// mix = a base (`owned` or `reserved`) with `on_demand` and/or `spot`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OptionSpec {
    /// Unique id among the options.
    pub id: String,
    /// Shown to readers; default the id.
    #[serde(default)]
    pub label: String,
    /// Buy, rent or mix: which pools the option may have.
    pub kind: OptionKind,
    /// For `kind = "rent"`: which pool is the option.
    #[serde(default)]
    pub billing: Option<Billing>,
    /// Catalogue accelerator id (informative; reports show it).
    #[serde(default)]
    pub accelerator: Option<String>,
    /// Throughput per accelerator relative to the reference GPU for the
    /// scenario's workload class (0.68 = 68 %). Default 1; when the option
    /// comes from a catalogue offer, the catalogue's sourced ratio.
    #[serde(default)]
    pub efficiency_ratio: Option<f64>,
    /// Multi-node scaling efficiency; when absent, taken from the curve
    /// named by `interconnect` at the cluster size, else 1.
    #[serde(default)]
    pub scaling_efficiency: Option<f64>,
    /// Id of the scaling curve that gives the scaling efficiency when it is not stated.
    #[serde(default)]
    pub interconnect: Option<String>,
    /// Share of the expected throughput actually reached (performance
    /// pitfalls: the article's job ran at 0.60 before fixes).
    #[serde(default = "one")]
    pub achieved_share: f64,
    /// Which storage line the option pays; needs `[storage]`.
    #[serde(default)]
    pub storage: StorageMode,
    /// Which edge lines the option pays; needs `[edge]`.
    #[serde(default)]
    pub edge: EdgeMode,
    /// Expands into one rent option per catalogue offer that matches
    /// (resolved before evaluation).
    #[serde(default)]
    pub offer_filter: Option<OfferSelector>,
    /// Servers bought and run.
    #[serde(default)]
    pub owned: Option<OwnedPool>,
    /// Reserved (committed) rental capacity.
    #[serde(default)]
    pub reserved: Option<ReservedPool>,
    /// On-demand rental: the option itself, overflow, or the fallback for spot.
    #[serde(default)]
    pub on_demand: Option<OnDemandPool>,
    /// Spot rental.
    #[serde(default)]
    pub spot: Option<SpotPool>,
    /// Where each input of this option comes from: field name → source
    /// text. Inputs without an entry are the user's assumptions.
    #[serde(default)]
    pub sources: BTreeMap<String, String>,
    /// The date each sourced figure was true, field name → `YYYY-MM-DD`
    /// (or `YYYY-MM`, `YYYY` when the source says no more); keys as in
    /// `sources`. Catalogue resolution fills it in for every price it takes
    /// from an offer, so reports can say how old each price is.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub as_of: BTreeMap<String, String>,
    /// Porting this workload to the option's accelerator (non-CUDA).
    #[serde(default)]
    pub porting: Option<OptionPorting>,
    /// Supply-risk facts of the option's accelerator and provider.
    #[serde(default)]
    pub supply: Option<Supply>,
    /// Chinese domestic accelerator (for domestic-only constraints).
    #[serde(default)]
    pub domestic: Option<bool>,
    /// Where the compute runs, ISO 3166 (for data-sovereignty constraints).
    #[serde(default)]
    pub provider_country: Option<String>,
    /// Security features the provider offers: `bare_metal`,
    /// `dedicated_gpu`, `encryption_in_transit`, or a certification name.
    #[serde(default)]
    pub security: Vec<String>,
    /// Memory of one accelerator, GB (from the catalogue's accelerator when
    /// the option names one): whether the model fits.
    #[serde(default)]
    pub memory_gb_per_accelerator: Option<f64>,
}

impl OptionSpec {
    /// An option with nothing but its id and kind, every other field as a
    /// scenario file that leaves it out reads it: what a search fills in.
    pub fn bare(id: String, kind: OptionKind) -> OptionSpec {
        OptionSpec {
            id,
            label: String::new(),
            kind,
            billing: None,
            accelerator: None,
            efficiency_ratio: None,
            scaling_efficiency: None,
            interconnect: None,
            achieved_share: 1.0,
            storage: StorageMode::None,
            edge: EdgeMode::None,
            offer_filter: None,
            owned: None,
            reserved: None,
            on_demand: None,
            spot: None,
            sources: BTreeMap::new(),
            as_of: BTreeMap::new(),
            porting: None,
            supply: None,
            domestic: None,
            provider_country: None,
            security: Vec::new(),
            memory_gb_per_accelerator: None,
        }
    }
}

//! The plan as its readers (the CLI, the Plan screen, tests) receive it.

use serde::Serialize;
use suanli_catalog::ratios::Basis;
use suanli_catalog::{BillingMode, Confidence};
use suanli_model::optimise::ConstraintKey;
use suanli_model::recommend::RankBy;
use suanli_model::{Currency, OptionKind, OptionSpec};

use crate::cluster::{Cluster, NotFeasible};
use crate::fx::RateUsed;
use crate::market::SearchStats;

/// Which pool of an option an offer prices.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub enum PoolKind {
    /// Servers bought and run.
    Owned,
    /// A commitment (reserved, savings plan, monthly).
    Reserved,
    /// Pay as you go.
    OnDemand,
    /// Interruptible capacity.
    Spot,
}

impl PoolKind {
    /// The pool's name in a scenario file (`owned`, `on_demand` …).
    pub fn key(self) -> &'static str {
        match self {
            PoolKind::Owned => "owned",
            PoolKind::Reserved => "reserved",
            PoolKind::OnDemand => "on_demand",
            PoolKind::Spot => "spot",
        }
    }
}

/// A candidate's pool as the reader sees it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct PoolJson {
    /// Which pool of the option it prices.
    pub pool: PoolKind,
    /// How the offer is billed.
    pub billing_mode: BillingMode,
    /// The catalogue offer it is priced from.
    pub offer_id: String,
    /// The offer's accelerator.
    pub accelerator_id: String,
    /// The rental's provider; `null` for owned servers (the buyer's own site).
    pub provider_id: Option<String>,
    /// Where the accelerator's ratio to the reference GPU comes from.
    pub ratio_basis: Basis,
    /// How sure the offer's price is (`A` a provider's list price … `C` a market quote).
    pub price_confidence: Confidence,
    /// The price's source ids.
    pub price_source: String,
    /// Servers (owned) or committed accelerators (reserved).
    pub size: Option<u32>,
}

/// Work a candidate leaves undone, or a model it cannot hold.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ApartJson {
    /// Share of the work done within the horizon.
    pub done_share: f64,
    /// Reference-GPU-hours of the demand left undone.
    pub ref_gpu_hours_short: f64,
    /// Whether its accelerators hold the model (`true` when the scenario states
    /// no model); one apart only for this has `done_share` 1.
    pub fits: bool,
    /// Why it is apart, as sentences in the requested language.
    pub why: String,
}

/// One priced candidate.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct CandidateJson {
    /// `rent/OFFER`, `buy/OFFER` or `mix/OFFER`: what a pick names.
    pub id: String,
    /// Its label in the requested language.
    pub label: String,
    /// Buy, rent or a mix.
    pub kind: OptionKind,
    /// Its pools, one per offer it is priced from.
    pub pools: Vec<PoolJson>,
    /// The cluster one run is on: nodes, fabric, scaling and its basis, capacity.
    pub cluster: Cluster,
    /// Why that cluster can be built, in the requested language.
    pub cluster_why: String,
    /// Share of work a spot pool redoes after interruptions; `null` without spot.
    pub spot_overhead: Option<f64>,
    /// NPV, in the scenario's currency (not rounded).
    pub total_npv: f64,
    /// Nominal total over the horizon, in the scenario's currency (not rounded).
    pub total_nominal: f64,
    /// The dearest month's spend.
    pub peak_month: f64,
    /// Months until a job's result, or until the capacity serves.
    pub time_to_result_months: f64,
    /// Supply-risk score, 0 to 100 (100 the worst; 0 without supply facts).
    pub supply_score: f64,
    /// Engineer-months of porting off CUDA; `null` without porting.
    pub porting_engineer_months: Option<f64>,
    /// Cost of the port, in the scenario's currency.
    pub porting_cost: Option<f64>,
    /// Months until the port runs.
    pub porting_delay_months: Option<f64>,
    /// Accelerators at the busiest time.
    pub cluster_accelerators: u32,
    /// The weakest basis of its pools' ratios.
    pub ratio_basis: Basis,
    /// The weakest confidence of its pools' prices.
    pub price_confidence: Confidence,
    /// On the Pareto frontier over NPV, time to result and supply risk
    /// (only a ranked candidate is).
    pub on_frontier: bool,
    /// The constraints it fails (empty for a ranked candidate).
    pub fails: Vec<ConstraintKey>,
    /// Why it is ranked apart, when it leaves work undone or cannot hold the model.
    pub apart: Option<ApartJson>,
    /// Why it sits where it does.
    pub why: String,
    /// The option as written into a scenario (catalogue references kept).
    #[serde(skip)]
    #[cfg_attr(feature = "specta", specta(skip))]
    pub option: OptionSpec,
}

/// An offer that cannot be the cluster the demand needs.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct NotFeasibleJson {
    /// The offer.
    pub offer_id: String,
    /// The offer in the requested language.
    pub label: String,
    /// The cluster it would have to be.
    pub cluster: Cluster,
    /// Why it cannot.
    pub reason: NotFeasible,
    /// The same in the requested language.
    pub why: String,
    /// Price of one accelerator-hour (rental) or one server, scenario currency.
    pub price: f64,
}

/// A constraint and the candidates it removed.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ExclusionJson {
    /// The constraint.
    pub constraint: ConstraintKey,
    /// Its name in the requested language.
    pub label: String,
    /// How many candidates it removed.
    pub count: u32,
    /// Ids of the candidates it removed (other constraints may remove them too).
    pub candidates: Vec<String>,
    /// Without it: whether the best NPV would be lower (it binds), and that NPV.
    pub binds: bool,
    /// The best NPV without it, in the scenario's currency; `null` unless it binds.
    pub best_npv_without: Option<f64>,
}

/// A plan: the answer of [`crate::plan`].
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct Recommendation {
    /// The scenario's name.
    pub scenario_name: String,
    /// The scenario's currency, which every amount is in.
    pub currency: Currency,
    /// What the ranked candidates are ordered by.
    pub rank_by: RankBy,
    /// Candidates that meet every constraint and do all the work, best first.
    pub ranked: Vec<CandidateJson>,
    /// Candidates that leave work undone or cannot hold the model (whatever
    /// the constraints), with their shortfall; never ranked.
    pub apart: Vec<CandidateJson>,
    /// Candidates that do the work but fail a constraint.
    pub excluded: Vec<CandidateJson>,
    /// Offers that cannot be the cluster the demand needs, cheapest first.
    pub not_feasible: Vec<NotFeasibleJson>,
    /// Per active constraint: what it removed and whether it binds.
    pub constraints: Vec<ExclusionJson>,
    /// When nothing is ranked: why, one reason a line.
    pub infeasible: Vec<String>,
    /// How the catalogue's offers fed the search.
    pub search: SearchStats,
    /// Reference exchange rates the scenario took from the catalogue.
    pub rates: Vec<RateUsed>,
    /// Assumptions and what was left out, for the reader.
    pub notes: Vec<String>,
}

impl Recommendation {
    /// The ranked candidates on the frontier, best first.
    pub fn frontier(&self) -> impl Iterator<Item = &CandidateJson> {
        self.ranked.iter().filter(|c| c.on_frontier)
    }
}

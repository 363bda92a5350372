//! What a plan must respect, checked once, and the constraints a priced
//! candidate fails.

use serde::{Deserialize, Serialize};
use suanli_catalog::BillingMode;
use suanli_catalog::query::Jurisdiction;
use suanli_catalog::ratios::Basis;
use suanli_model::optimise::ConstraintKey;
use suanli_model::recommend::Point;
use suanli_model::{Currency, Demand, ExportStatus, InputError, Rule, Scenario, fx_rate};

use crate::PlanError;
use crate::spot::SpotAssumptions;

/// What the recommendation must respect. Amounts are in `budget_currency`
/// (default: the scenario's); every field left empty constrains nothing.
/// `allow_consumer_clusters` and `spot` shape the search itself.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct Constraints {
    /// Nominal total over the horizon.
    pub budget_total: Option<f64>,
    /// The dearest month.
    pub budget_per_month: Option<f64>,
    /// Currency of the budgets; one other than the scenario's needs a rate
    /// in the scenario's `fx` or the catalogue's reference rates.
    pub budget_currency: Option<Currency>,
    /// Months from today: a job's result, or the capacity serving (lead
    /// time, porting). Default: the job's own `deadline_months`.
    pub deadline_months: Option<f64>,
    /// Chinese domestic accelerators only, in every pool.
    pub domestic_only: bool,
    /// The buyer's jurisdiction: only accelerators it can obtain, and its
    /// export status in the supply-risk score.
    pub buyer_jurisdiction: Option<Jurisdiction>,
    /// Every rental's provider in this country (ISO 3166 alpha-2); owned
    /// servers are on the buyer's own site.
    pub provider_country: Option<String>,
    /// `dedicated_gpu`, `bare_metal`, `encryption_in_transit`, or a
    /// certification the provider lists. Owned servers meet all of them.
    pub security: Vec<String>,
    /// Supply-risk score at most this (0–100).
    pub max_supply_score: Option<f64>,
    /// Every ratio at least this well founded (`measured` admits the
    /// reference, pinned and measured ratios).
    pub min_ratio_basis: Option<Basis>,
    /// Engineer-months of porting off CUDA at most this.
    pub max_porting_engineer_months: Option<f64>,
    /// At least this many accelerators at the busiest time.
    pub min_cluster_accelerators: Option<u32>,
    /// At most this many accelerators at the busiest time (not below the minimum).
    pub max_cluster_accelerators: Option<u32>,
    /// Billing kinds allowed (empty: all); a mix needs each of its pools'.
    pub billing: Vec<BillingMode>,
    /// Let consumer cards (GeForce) run jobs across several nodes.
    pub allow_consumer_clusters: bool,
    /// What spot interruptions cost a synchronous job (documented defaults).
    pub spot: Option<SpotAssumptions>,
}

/// The constraints checked, amounts in the scenario currency.
#[derive(Debug)]
pub(crate) struct Limits {
    pub budget_total: Option<f64>,
    pub budget_per_month: Option<f64>,
    pub deadline_months: Option<f64>,
    pub domestic_only: bool,
    pub buyer_cn: bool,
    pub provider_country: Option<String>,
    pub security: Vec<String>,
    pub max_supply_score: Option<f64>,
    pub min_ratio_basis: Option<Basis>,
    pub max_porting: Option<f64>,
    pub cluster_min: Option<u32>,
    pub cluster_max: Option<u32>,
    pub billing: Vec<BillingMode>,
    pub allow_consumer_clusters: bool,
    pub spot: SpotAssumptions,
}

impl Limits {
    /// The constraints that are set, in a fixed order.
    pub fn active(&self) -> Vec<ConstraintKey> {
        use ConstraintKey as K;
        [
            (self.budget_total.is_some(), K::BudgetTotal),
            (self.budget_per_month.is_some(), K::BudgetPerMonth),
            (self.deadline_months.is_some(), K::Deadline),
            (self.domestic_only, K::DomesticOnly),
            (self.buyer_cn, K::Jurisdiction),
            (self.provider_country.is_some(), K::ProviderCountry),
            (!self.security.is_empty(), K::Security),
            (self.max_supply_score.is_some(), K::SupplyScore),
            (self.min_ratio_basis.is_some(), K::RatioBasis),
            (self.max_porting.is_some(), K::PortingEffort),
            (self.cluster_min.is_some(), K::ClusterMin),
            (self.cluster_max.is_some(), K::ClusterMax),
            (!self.billing.is_empty(), K::Billing),
        ]
        .into_iter()
        .filter_map(|(on, k)| on.then_some(k))
        .collect()
    }
}

/// Checks the constraints against the scenario (whose `fx` already holds
/// any reference rate); every bad field is named with its value.
pub(crate) fn limits(c: &Constraints, s: &Scenario) -> Result<Limits, PlanError> {
    let mut errors = Vec::new();
    let mut amount = |field: &str, v: Option<f64>| {
        let v = v?;
        let path = format!("constraints.{field}");
        if !v.is_finite() {
            errors.push(InputError::new(path, v, Rule::NotFinite));
        } else if v < 0.0 {
            errors.push(InputError::new(path, v, Rule::Negative));
        }
        Some(v)
    };
    let budget_total = amount("budget_total", c.budget_total);
    let budget_per_month = amount("budget_per_month", c.budget_per_month);
    let deadline_months = amount("deadline_months", c.deadline_months).or(match &s.demand {
        Demand::Job(j) => j.deadline_months,
        _ => None,
    });
    let max_porting = amount("max_porting_engineer_months", c.max_porting_engineer_months);
    let max_supply_score = amount("max_supply_score", c.max_supply_score);
    if let Some(v) = max_supply_score.filter(|v| *v > 100.0) {
        errors.push(InputError::new("constraints.max_supply_score", v, Rule::Between { min: 0.0, max: 100.0 }));
    }
    let rate = match c.budget_currency {
        None => 1.0,
        Some(cur) => fx_rate(&s.fx, cur, s.currency).unwrap_or_else(|| {
            errors.push(InputError::new("constraints.budget_currency", cur, Rule::MissingFx { currency: cur }));
            1.0
        }),
    };
    let buyer_cn = c.buyer_jurisdiction == Some(Jurisdiction::Cn);
    if let Some(cc) = &c.provider_country
        && !(cc.len() == 2 && cc.chars().all(|ch| ch.is_ascii_alphabetic()))
    {
        errors.push(InputError::new("constraints.provider_country", format!("{cc:?}"), Rule::CountryCode));
    }
    if let (Some(lo), Some(hi)) = (c.min_cluster_accelerators, c.max_cluster_accelerators)
        && hi < lo
    {
        errors.push(InputError::new("constraints.max_cluster_accelerators", hi, Rule::AtLeast { min: f64::from(lo) }));
    }
    let spot = c.spot.clone().unwrap_or_default();
    errors.extend(spot.check());
    if !errors.is_empty() {
        return Err(PlanError::Invalid(errors));
    }
    Ok(Limits {
        budget_total: budget_total.map(|b| b * rate),
        budget_per_month: budget_per_month.map(|b| b * rate),
        deadline_months,
        domestic_only: c.domestic_only,
        buyer_cn,
        provider_country: c.provider_country.as_ref().map(|cc| cc.to_ascii_uppercase()),
        security: c.security.iter().map(|x| x.trim().to_lowercase()).filter(|x| !x.is_empty()).collect(),
        max_supply_score,
        min_ratio_basis: c.min_ratio_basis,
        max_porting,
        cluster_min: c.min_cluster_accelerators,
        cluster_max: c.max_cluster_accelerators,
        billing: c.billing.clone(),
        allow_consumer_clusters: c.allow_consumer_clusters,
        spot,
    })
}

/// What the constraints ask of one pool of a candidate.
#[derive(Debug, Clone)]
pub(crate) struct PoolFacts {
    pub mode: BillingMode,
    pub offer_id: String,
    pub accelerator: String,
    pub domestic: bool,
    pub export_cn: Option<ExportStatus>,
    /// `None` for owned servers (the buyer's own site).
    pub provider: Option<crate::market::ProviderFacts>,
    pub basis: Basis,
    pub confidence: suanli_catalog::Confidence,
    /// The price's source ids.
    pub source: String,
}

/// The constraints a priced candidate fails.
pub(crate) fn fails(
    pools: &[PoolFacts],
    porting: Option<f64>,
    l: &Limits,
    point: &Point,
    peak_month: f64,
    cluster: u32,
) -> Vec<ConstraintKey> {
    use ConstraintKey as K;
    let rentals = || pools.iter().filter_map(|x| x.provider.as_ref());
    [
        (l.budget_total.is_some_and(|b| point.total > b), K::BudgetTotal),
        (l.budget_per_month.is_some_and(|b| peak_month > b), K::BudgetPerMonth),
        (l.deadline_months.is_some_and(|d| point.time_months > d), K::Deadline),
        (l.domestic_only && pools.iter().any(|x| !x.domestic), K::DomesticOnly),
        (
            l.buyer_cn
                && pools
                    .iter()
                    .any(|x| matches!(x.export_cn, Some(ExportStatus::Banned | ExportStatus::LicenceRequired))),
            K::Jurisdiction,
        ),
        (
            l.provider_country.as_ref().is_some_and(|want| {
                rentals().any(|r| !r.country.as_ref().is_some_and(|c| c.eq_ignore_ascii_case(want)))
            }),
            K::ProviderCountry,
        ),
        (l.security.iter().any(|need| rentals().any(|r| !r.meets(need))), K::Security),
        (l.max_supply_score.is_some_and(|cap| point.risk > cap), K::SupplyScore),
        (l.min_ratio_basis.is_some_and(|min| pools.iter().any(|x| x.basis > min)), K::RatioBasis),
        (l.max_porting.is_some_and(|cap| porting.is_some_and(|m| m > cap)), K::PortingEffort),
        (l.cluster_min.is_some_and(|n| cluster < n), K::ClusterMin),
        (l.cluster_max.is_some_and(|n| cluster > n), K::ClusterMax),
        (!l.billing.is_empty() && pools.iter().any(|x| !l.billing.contains(&x.mode)), K::Billing),
    ]
    .into_iter()
    .filter_map(|(failed, k)| failed.then_some(k))
    .collect()
}

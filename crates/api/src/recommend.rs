//! `recommend`: the catalogue searched for ways to serve a scenario's
//! demand, each candidate priced by the same engine as a typed option,
//! ranked, and set on the Pareto frontier over NPV, time to result and
//! supply risk (docs/recommend.md).
//!
//! The search space is fixed by the scenario and the catalogue alone;
//! constraints only remove candidates from it. So a tighter constraint can
//! never lower the best cost, and whether a constraint binds is read off
//! the same priced candidates (the best without it is cheaper).

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use serde::{Deserialize, Serialize};
use suanli_catalog::query::{OfferFilter, OfferSort, OfferView};
use suanli_catalog::ratios::{Basis, RatioBook, RatioUsed};
use suanli_catalog::{Accelerator, BillingMode, Catalog, PriceUnit, Provider};
use suanli_model::optimise::{ConstraintKey, Outcome};
use suanli_model::recommend::{Point, RankBy, Standing};
use suanli_model::{
    Billing, Checked, Currency, Demand, ExportStatus, InputError, Lang, Maturity, OnDemandPool, OptimiseSpec,
    OptionKind, OptionPorting, OptionResult, OptionSpec, OwnedPool, ReservedPool, Rule, Scenario, SpotPool, Stability,
    Supply,
};

use crate::Error;
use crate::resolve::{provenance, ratio_source};

/// Offers kept per accelerator, billing mode and provider: the cheapest
/// per accelerator-hour (per server for a purchase). Constraints are facts
/// of a whole group (its accelerator, mode and provider), so they commute
/// with this cut.
pub const OFFERS_PER_GROUP: usize = 2;
/// Owned fleets and reserved commitments that mixes are built on: the
/// cheapest by NPV as plain options.
pub const MIX_BASES: usize = 3;
/// Candidates `--write-scenario` writes when none are picked: the first of the frontier.
pub const DEFAULT_PICKS: usize = 3;
/// Work redone after spot interruptions (a stated assumption; the
/// catalogue has no interruption rates).
const SPOT_INTERRUPTION_OVERHEAD: f64 = 0.1;
/// The porting maturity assumed for an accelerator off CUDA (the catalogue
/// has no maturity per workload).
const ASSUMED_MATURITY: Maturity = Maturity::Beta;

/// What the recommendation must respect. Amounts are in `budget_currency`
/// (default: the scenario's); every field left empty constrains nothing.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct Constraints {
    /// Nominal total over the horizon.
    pub budget_total: Option<f64>,
    /// The dearest month.
    pub budget_per_month: Option<f64>,
    /// Currency code of the budgets (`USD`); one other than the scenario's
    /// needs a rate in the scenario's `fx`.
    pub budget_currency: Option<String>,
    /// Months from today: a job's result, or the capacity serving (lead
    /// time, porting). Default: the job's own `deadline_months`.
    pub deadline_months: Option<f64>,
    /// Chinese domestic accelerators only, in every pool.
    pub domestic_only: bool,
    /// The buyer's jurisdiction (`cn`): only accelerators it can obtain,
    /// and its export status in the supply-risk score.
    pub buyer_jurisdiction: Option<String>,
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
}

/// The constraints checked, amounts in the scenario currency.
struct Limits {
    budget_total: Option<f64>,
    budget_per_month: Option<f64>,
    deadline_months: Option<f64>,
    domestic_only: bool,
    buyer_cn: bool,
    provider_country: Option<String>,
    security: Vec<String>,
    max_supply_score: Option<f64>,
    min_ratio_basis: Option<Basis>,
    max_porting: Option<f64>,
    cluster_min: Option<u32>,
    cluster_max: Option<u32>,
    billing: Vec<BillingMode>,
}

impl Limits {
    /// The constraints that are set, in a fixed order.
    fn active(&self) -> Vec<ConstraintKey> {
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

/// Checks the constraints; every bad field is named with its value.
fn limits(c: &Constraints, s: &Scenario) -> Result<Limits, Error> {
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
    let rate = match c.budget_currency.as_deref() {
        None => Some(1.0),
        Some(text) => match text.parse::<Currency>() {
            Err(_) => {
                errors.push(InputError::new("constraints.budget_currency", format!("{text:?}"), Rule::UnknownCurrency));
                None
            }
            Ok(cur) if cur == s.currency => Some(1.0),
            Ok(cur) => match s.fx.get(&cur) {
                Some(r) => Some(*r),
                None => {
                    errors.push(InputError::new("constraints.budget_currency", cur, Rule::MissingFx { currency: cur }));
                    None
                }
            },
        },
    };
    let buyer_cn = match c.buyer_jurisdiction.as_deref() {
        None => false,
        Some(j) if j.trim().eq_ignore_ascii_case("cn") => true,
        Some(other) => {
            let known = vec!["cn".to_owned()];
            errors.push(InputError::new(
                "constraints.buyer_jurisdiction",
                format!("{other:?}"),
                Rule::UnknownJurisdiction { known },
            ));
            false
        }
    };
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
    if !errors.is_empty() {
        return Err(Error::Invalid(errors));
    }
    let rate = rate.unwrap_or(1.0);
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
    })
}

/// What the constraints ask of one pool of a candidate.
#[derive(Debug, Clone)]
struct PoolFacts {
    mode: BillingMode,
    offer_id: String,
    accelerator: String,
    domestic: bool,
    export_cn: Option<ExportStatus>,
    /// `None` for owned servers (the buyer's own site).
    provider: Option<ProviderFacts>,
    basis: Basis,
}

#[derive(Debug, Clone)]
struct ProviderFacts {
    id: String,
    name_zh: Option<String>,
    country: Option<String>,
    /// `bare_metal`, `dedicated_gpu`, `encryption_in_transit` where the catalogue says so.
    security: Vec<String>,
    certifications: String,
}

impl ProviderFacts {
    fn of(p: Option<&Provider>, id: &str) -> ProviderFacts {
        let flag = |on: Option<bool>, name: &str| on.unwrap_or(false).then(|| name.to_owned());
        ProviderFacts {
            id: id.to_owned(),
            name_zh: p.and_then(|p| p.name_zh.clone()),
            country: p.and_then(|p| p.country.clone()),
            security: p.map_or(Vec::new(), |p| {
                [
                    flag(p.bare_metal, "bare_metal"),
                    flag(p.dedicated_gpu, "dedicated_gpu"),
                    flag(p.encryption_in_transit, "encryption_in_transit"),
                ]
                .into_iter()
                .flatten()
                .collect()
            }),
            certifications: p.and_then(|p| p.certifications.clone()).unwrap_or_default().to_lowercase(),
        }
    }

    fn meets(&self, need: &str) -> bool {
        self.security.iter().any(|s| s == need) || self.certifications.contains(need)
    }
}

/// An offer the search may use, with the rows behind it.
struct Offered {
    view: OfferView,
    accelerator: Accelerator,
    ratio: RatioUsed,
    provider: ProviderFacts,
    /// Price of one accelerator-hour (rental) or one server (purchase), in the scenario currency.
    comparable: f64,
}

impl Offered {
    fn facts(&self, owned: bool) -> PoolFacts {
        PoolFacts {
            mode: self.view.offer.billing_mode,
            offer_id: self.view.offer.id.clone(),
            accelerator: self.accelerator.id.clone(),
            domestic: self.accelerator.domestic == Some(true),
            export_cn: self.accelerator.export_status_cn,
            provider: (!owned).then(|| self.provider.clone()),
            basis: self.ratio.basis,
        }
    }

    fn cuda(&self) -> bool {
        let a = &self.accelerator;
        a.software_stack.as_deref().is_some_and(|s| s.to_uppercase().contains("CUDA"))
            || a.vendor.eq_ignore_ascii_case("nvidia")
    }

    fn is_rental(&self) -> bool {
        self.view.offer.billing_mode != BillingMode::Purchase
    }
}

/// How the catalogue's offers fed the search.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct SearchStats {
    /// Every offer of the catalogue, price book and imports included.
    pub offers: u32,
    /// Offers whose accelerator has no ratio for the workload class.
    pub without_ratio: u32,
    /// Offers without a price in the scenario currency (no FX rate, no
    /// accelerators per instance).
    pub without_price: u32,
    /// Dearer than the cheapest of their accelerator, billing mode and provider.
    pub not_searched: u32,
    /// Purchase offers left out: the scenario has no buy option whose
    /// running costs stand for the on-premises site.
    pub purchases_without_site: u32,
    /// Candidates priced through the engine.
    pub candidates: u32,
}

/// A candidate's pool as the reader sees it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct PoolJson {
    /// `owned`, `reserved`, `on_demand` or `spot`.
    pub pool: String,
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
    /// Its label, `English / 中文` when the two differ.
    pub label: String,
    /// `buy`, `rent` or `mix`.
    pub kind: String,
    /// Its pools, one per offer it is priced from.
    pub pools: Vec<PoolJson>,
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
    /// On the Pareto frontier over NPV, time to result and supply risk
    /// (only a ranked candidate is).
    pub on_frontier: bool,
    /// The constraints it fails (empty for a ranked candidate).
    pub fails: Vec<String>,
    /// Why it is ranked apart, when it leaves work undone or cannot hold the model.
    pub apart: Option<ApartJson>,
    /// Why it sits where it does.
    pub why: String,
    /// The option as written into a scenario (catalogue references kept).
    #[serde(skip)]
    #[cfg_attr(feature = "specta", specta(skip))]
    pub option: OptionSpec,
}

/// A constraint and the candidates it removed.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ExclusionJson {
    /// The constraint's machine name (`budget_total`).
    pub constraint: String,
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

/// The answer of [`recommend`].
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
    /// Per active constraint: what it removed and whether it binds.
    pub constraints: Vec<ExclusionJson>,
    /// When nothing is ranked: why, one reason a line.
    pub infeasible: Vec<String>,
    /// How the catalogue's offers fed the search.
    pub search: SearchStats,
    /// Assumptions and what was left out, for the reader.
    pub notes: Vec<String>,
}

impl Recommendation {
    /// The ranked candidates on the frontier, best first.
    pub fn frontier(&self) -> impl Iterator<Item = &CandidateJson> {
        self.ranked.iter().filter(|c| c.on_frontier)
    }
}

/// A candidate before pricing: the option evaluated (prices filled in) and
/// the option written (offers referenced).
struct Candidate {
    priced: OptionSpec,
    written: OptionSpec,
    pools: Vec<PoolFacts>,
}

/// Searches the catalogue for the scenario's demand under the constraints.
/// The scenario's own options are not candidates; its first buy option,
/// when it has one, gives the on-premises site's running costs for every
/// purchase offer.
pub fn recommend(
    catalog: &Catalog,
    scenario: &Scenario,
    constraints: &Constraints,
    rank_by: RankBy,
    lang: Lang,
) -> Result<Recommendation, Error> {
    let limits = limits(constraints, scenario)?;
    let mut scenario = scenario.clone();
    // Its own options may name catalogue offers (a buy option is the site of
    // purchases): resolved first, as evaluating it would.
    let mut notes =
        if crate::needs_catalog(&scenario) { crate::resolve_offers(&mut scenario, catalog)? } else { Vec::new() };
    notes.extend(crate::resolve::estimate_throughput(&mut scenario, catalog)?);
    let base = base_scenario(&scenario)?;
    let (offered, mut search) = offers(catalog, &base)?;
    let site = base.options.iter().find(|o| o.kind == OptionKind::Buy).and_then(|o| o.owned.clone());
    let mut candidates = Vec::new();
    for o in &offered {
        match (o.is_rental(), &site) {
            (true, _) => candidates.push(rental(&base, o, &limits)),
            (false, Some(site)) => candidates.push(owned(&base, o, site, &offered, &limits)),
            (false, None) => search.purchases_without_site += 1,
        }
    }
    let (mut priced, dropped) = price(&base, candidates, lang)?;
    notes.extend(dropped);
    if !base.demand_is_job() {
        let mixes = mixes(&base, &priced, &offered);
        let (more, dropped) = price(&base, mixes, lang)?;
        notes.extend(dropped);
        priced.extend(more);
    }
    search.candidates = priced.len() as u32;
    notes.extend(assumption_notes(&base, &search, lang));
    Ok(assemble(&base, priced, &limits, rank_by, search, notes, lang))
}

/// Reads a scenario file and recommends for it against the catalogue at
/// `db` (default location when `None`).
pub fn recommend_file(
    path: &Path,
    db: Option<&Path>,
    constraints: &Constraints,
    rank_by: RankBy,
    lang: Lang,
) -> Result<(Scenario, Recommendation), Error> {
    let text =
        std::fs::read_to_string(path).map_err(|source| Error::Read { path: path.display().to_string(), source })?;
    let scenario = crate::parse_scenario_text(&text)?;
    let (catalog, _) = crate::catalog::open_catalog(db)?;
    let r = recommend(&catalog, &scenario, constraints, rank_by, lang)?;
    Ok((scenario, r))
}

/// The scenario as the search uses it: its rules checked (options aside,
/// which it may lack), without ranges or an optimiser section.
fn base_scenario(s: &Scenario) -> Result<Scenario, Error> {
    if s.workload_class.is_none() {
        return Err(Error::Invalid(vec![InputError::missing("workload_class", Rule::Required)]));
    }
    let mut base = s.clone();
    base.uncertainty.clear();
    base.optimise = None;
    let errors: Vec<InputError> = match suanli_model::validate(&base) {
        Ok(()) => Vec::new(),
        Err(e) => e.into_iter().filter(|e| !(e.path == "options" && e.rule == Rule::AtLeastOne)).collect(),
    };
    if errors.is_empty() { Ok(base) } else { Err(Error::Invalid(errors)) }
}

/// Every offer the search may use, cut to the cheapest per group.
fn offers(c: &Catalog, s: &Scenario) -> Result<(Vec<Offered>, SearchStats), Error> {
    let filter = OfferFilter {
        workload_class: s.workload_class,
        currency: Some(s.currency),
        fx: s.fx.clone(),
        sort: OfferSort::Id,
        ..OfferFilter::default()
    };
    let views = c.offers(&filter)?;
    let book = c.ratio_book(&s.reference_gpu)?;
    let accelerators: BTreeMap<String, Accelerator> =
        c.accelerators(&Default::default())?.into_iter().map(|a| (a.id.clone(), a)).collect();
    let providers: BTreeMap<String, Provider> = c.providers()?.into_iter().map(|p| (p.id.clone(), p)).collect();
    let mut stats = SearchStats { offers: views.len() as u32, ..SearchStats::default() };
    let mut groups: BTreeMap<(String, BillingMode, String), Vec<Offered>> = BTreeMap::new();
    for view in views {
        let Some(o) = usable(view, s, &book, &accelerators, &providers, &mut stats) else { continue };
        let key = (o.accelerator.id.clone(), o.view.offer.billing_mode, o.view.offer.provider_id.clone());
        groups.entry(key).or_default().push(o);
    }
    let mut out = Vec::new();
    for (_, mut group) in groups {
        group.sort_by(|a, b| a.comparable.total_cmp(&b.comparable).then_with(|| a.view.offer.id.cmp(&b.view.offer.id)));
        stats.not_searched += group.len().saturating_sub(OFFERS_PER_GROUP) as u32;
        out.extend(group.into_iter().take(OFFERS_PER_GROUP));
    }
    Ok((out, stats))
}

/// An offer with its accelerator, ratio and a price in the scenario currency, or why not.
fn usable(
    view: OfferView,
    s: &Scenario,
    book: &RatioBook,
    accelerators: &BTreeMap<String, Accelerator>,
    providers: &BTreeMap<String, Provider>,
    stats: &mut SearchStats,
) -> Option<Offered> {
    let class = s.workload_class?;
    let accelerator = view.offer.accelerator_id.as_ref().and_then(|id| accelerators.get(id));
    let ratio = accelerator.and_then(|a| book.get(&a.id, class).ok());
    let (Some(accelerator), Some(ratio)) = (accelerator, ratio) else {
        stats.without_ratio += 1;
        return None;
    };
    let comparable = match view.offer.price_unit {
        PriceUnit::Server => server_price(&view, s).filter(|_| per_server(&view).is_some()),
        _ => view.comparable_price_per_accel_hour,
    };
    let Some(comparable) = comparable.filter(|p| p.is_finite() && *p > 0.0) else {
        stats.without_price += 1;
        return None;
    };
    let provider = ProviderFacts::of(providers.get(&view.offer.provider_id), &view.offer.provider_id);
    Some(Offered { accelerator: accelerator.clone(), ratio: RatioUsed::clone(ratio), provider, comparable, view })
}

/// A purchase offer's server price after any discount, in the scenario currency.
fn server_price(v: &OfferView, s: &Scenario) -> Option<f64> {
    let price = v.offer.price * (1.0 - v.discount_share.unwrap_or(0.0));
    rate(s, v.offer.currency).map(|r| price * r)
}

/// Scenario-currency units per unit of `c`.
fn rate(s: &Scenario, c: Currency) -> Option<f64> {
    if c == s.currency { Some(1.0) } else { s.fx.get(&c).copied() }
}

fn per_server(v: &OfferView) -> Option<u32> {
    v.offer.accelerators_per_instance.filter(|n| *n >= 1.0).map(|n| n.round() as u32)
}

/// The option-level facts of an offer's accelerator: ratio, memory,
/// porting (off CUDA), supply, domestic, provider.
fn describe(o: &mut OptionSpec, s: &Scenario, x: &Offered, limits: &Limits, lead_months: Option<u32>) {
    let a = &x.accelerator;
    o.accelerator = Some(a.id.clone());
    o.efficiency_ratio = Some(x.ratio.ratio);
    o.sources.insert("efficiency_ratio".into(), ratio_source(&x.ratio));
    if let Some(gb) = a.memory_gb {
        o.memory_gb_per_accelerator = Some(gb);
        o.sources.insert("memory_gb_per_accelerator".into(), format!("catalogue accelerator {} [{}]", a.id, a.source));
    }
    if !x.cuda() && s.porting.is_some() {
        o.porting = Some(OptionPorting { maturity: ASSUMED_MATURITY, adapter: a.framework_adapter.clone() });
        o.sources.insert(
            "porting.maturity".into(),
            "recommend assumption: beta for every accelerator off CUDA (the catalogue has no maturity per workload)"
                .into(),
        );
    }
    let spot = x.view.offer.billing_mode == BillingMode::Spot;
    o.supply = Some(Supply {
        lead_time_months: lead_months.map(|m| [f64::from(m); 3]),
        export_status: Some(if limits.buyer_cn {
            a.export_status_cn.unwrap_or(ExportStatus::Unknown)
        } else {
            ExportStatus::Unrestricted
        }),
        export_change_probability: 0.0,
        export_change_delay_months: 0.0,
        export_change_extra_cost_share: 0.0,
        vendor_concentration: 1.0,
        stability: if spot { Stability::Fragile } else { Stability::Uncertain },
    });
    o.sources.insert(
        "supply.export_status".into(),
        if limits.buyer_cn {
            format!("catalogue accelerator {}: export status for a buyer in China", a.id)
        } else {
            "recommend assumption: no buyer jurisdiction given, export rules not scored".into()
        },
    );
    o.sources.insert(
        "supply.stability".into(),
        if spot { "recommend assumption: spot capacity can be reclaimed" } else { "recommend assumption" }.into(),
    );
    o.domestic = a.domestic;
    o.provider_country = x.provider.country.clone().filter(|_| x.is_rental());
    o.security = if x.is_rental() {
        x.provider.security.clone()
    } else {
        vec!["bare_metal".into(), "dedicated_gpu".into(), "encryption_in_transit".into()]
    };
}

/// A rent option on one offer.
fn rental(s: &Scenario, x: &Offered, limits: &Limits) -> Candidate {
    let offer = &x.view.offer;
    let mut o = OptionSpec::bare(format!("rent/{}", offer.id), OptionKind::Rent);
    o.label = label(x);
    describe(&mut o, s, x, limits, None);
    let price = x.view.price_per_accel_hour;
    let (written, priced) = match offer.billing_mode {
        BillingMode::OnDemand => {
            o.billing = Some(Billing::OnDemand);
            let pool = |offer: Option<String>, price, currency| OnDemandPool {
                price_per_accel_hour: price,
                currency,
                efficiency_ratio: None,
                offer,
            };
            let mut w = o.clone();
            w.on_demand = Some(pool(Some(offer.id.clone()), None, None));
            o.on_demand = Some(pool(None, price, Some(offer.currency)));
            (w, o)
        }
        BillingMode::Spot => {
            o.billing = Some(Billing::Spot);
            o.sources.insert(
                "spot.interruption_overhead".into(),
                "recommend assumption: 10 % of the work redone after interruptions".into(),
            );
            let pool = |offer: Option<String>, price, currency| SpotPool {
                price_per_accel_hour: price,
                interruption_overhead: SPOT_INTERRUPTION_OVERHEAD,
                availability: 1.0,
                currency,
                efficiency_ratio: None,
                offer,
            };
            let mut w = o.clone();
            w.spot = Some(pool(Some(offer.id.clone()), None, None));
            o.spot = Some(pool(None, price, Some(offer.currency)));
            (w, o)
        }
        mode => {
            o.billing = Some(Billing::Reserved);
            let term_months = match mode {
                BillingMode::Reserved3y => 36,
                BillingMode::Monthly => 1,
                _ => 12,
            };
            let pool = |offer: Option<String>, price, currency| ReservedPool {
                term_months,
                price_per_accel_hour: price,
                upfront_share: 0.0,
                accelerators: None,
                currency,
                efficiency_ratio: None,
                offer,
            };
            let mut w = o.clone();
            w.reserved = Some(pool(Some(offer.id.clone()), None, None));
            o.reserved = Some(pool(None, price, Some(offer.currency)));
            (w, o)
        }
    };
    let mut priced = priced;
    let pool = offer_pool_name(offer.billing_mode);
    priced.sources.insert(format!("{pool}.price_per_accel_hour"), provenance(&x.view));
    Candidate { priced, written, pools: vec![x.facts(false)] }
}

fn offer_pool_name(mode: BillingMode) -> &'static str {
    match mode {
        BillingMode::OnDemand => "on_demand",
        BillingMode::Spot => "spot",
        BillingMode::Purchase => "owned",
        _ => "reserved",
    }
}

/// A candidate's label in the scenario format's "English / 中文" form:
/// provider, accelerator, instance, region and billing in each language.
fn label(x: &Offered) -> String {
    let o = &x.view.offer;
    let name = |lang: Lang| {
        let who = match lang {
            Lang::Zh => x.provider.name_zh.as_deref(),
            Lang::En => None,
        }
        .or(x.view.provider_name.as_deref())
        .unwrap_or(&o.provider_id);
        let what = match lang {
            Lang::Zh => x.accelerator.name_zh.as_deref(),
            Lang::En => None,
        }
        .unwrap_or(&x.accelerator.name);
        [who, what, o.instance.as_deref().unwrap_or(""), o.region.as_deref().unwrap_or(""), o.billing_mode.label(lang)]
            .iter()
            .filter(|t| !t.is_empty())
            .copied()
            .collect::<Vec<_>>()
            .join(" · ")
    };
    let (en, zh) = (name(Lang::En), name(Lang::Zh));
    if en == zh { en } else { format!("{en} / {zh}") }
}

/// A mix's added pool as its label names it: provider and billing.
fn pool_label(x: &Offered, lang: Lang) -> String {
    let zh = match lang {
        Lang::Zh => x.provider.name_zh.as_deref(),
        Lang::En => None,
    };
    let who = zh.or(x.view.provider_name.as_deref()).unwrap_or(&x.view.offer.provider_id);
    format!("{who} {}", x.view.offer.billing_mode.label(lang))
}

/// Peak reference GPUs of a steady demand (0 for a job).
fn peak_ref_gpus(s: &Scenario) -> f64 {
    match suanli_model::demand::prepare(s) {
        suanli_model::demand::Prepared::Shared { months, .. } => months.iter().map(|m| m.peak()).fold(0.0, f64::max),
        suanli_model::demand::Prepared::Job { .. } => 0.0,
    }
}

/// A buy option on one purchase offer: the site's running costs from the
/// scenario's buy option, servers enough for the job's cluster or the
/// demand's peak, and (steady demand) the cheapest on-demand offer of the
/// same accelerator, else of any, for overflow and the lead time.
fn owned(s: &Scenario, x: &Offered, site: &OwnedPool, all: &[Offered], limits: &Limits) -> Candidate {
    let offer = &x.view.offer;
    let n = per_server(&x.view).unwrap_or(1);
    let accelerators_needed = match &s.demand {
        Demand::Job(j) => f64::from(j.cluster_accelerators),
        _ => peak_ref_gpus(s) / x.ratio.ratio,
    };
    let servers = ((accelerators_needed / f64::from(n)).ceil() as u32).max(1);
    let mut o = OptionSpec::bare(format!("buy/{}", offer.id), OptionKind::Buy);
    o.label = label(x);
    describe(&mut o, s, x, limits, Some(site.lead_time_months));
    let site_rate = rate(s, site.currency.unwrap_or(s.currency)).unwrap_or(1.0);
    let mut pool = site.clone();
    pool.servers = servers;
    pool.accelerators_per_server = n;
    pool.capex_per_server = x.comparable / site_rate;
    pool.server_kw = site.server_kw / f64::from(site.accelerators_per_server.max(1)) * f64::from(n);
    pool.efficiency_ratio = None;
    o.owned = Some(pool);
    o.sources.insert("owned.capex_per_server".into(), provenance(&x.view));
    o.sources.insert(
        "owned.server_kw".into(),
        "recommend: the scenario's buy option's draw per accelerator × accelerators per server".into(),
    );
    let mut pools = vec![x.facts(true)];
    let mut written = o.clone();
    if !s.demand_is_job()
        && let Some(od) = cheapest(all, BillingMode::OnDemand, &x.accelerator.id)
    {
        let (w, p) = overflow(od);
        written.on_demand = Some(w);
        o.on_demand = Some(p);
        o.sources.insert("on_demand.price_per_accel_hour".into(), provenance(&od.view));
        for target in [&mut o, &mut written] {
            target.sources.insert("on_demand.efficiency_ratio".into(), ratio_source(&od.ratio));
        }
        pools.push(od.facts(false));
    }
    Candidate { priced: o, written, pools }
}

/// The cheapest offer of a mode by price per useful hour: of the same accelerator when there is one.
fn cheapest<'a>(all: &'a [Offered], mode: BillingMode, accelerator: &str) -> Option<&'a Offered> {
    let of_mode = || all.iter().filter(move |o| o.view.offer.billing_mode == mode);
    let key = |o: &&Offered| o.comparable / o.ratio.ratio;
    let best = |it: &mut dyn Iterator<Item = &'a Offered>| {
        it.min_by(|a, b| key(a).total_cmp(&key(b)).then_with(|| a.view.offer.id.cmp(&b.view.offer.id)))
    };
    best(&mut of_mode().filter(|o| o.accelerator.id == accelerator)).or_else(|| best(&mut of_mode()))
}

/// An on-demand pool on an offer: as written (offer id) and as priced.
fn overflow(x: &Offered) -> (OnDemandPool, OnDemandPool) {
    let written = OnDemandPool {
        price_per_accel_hour: None,
        currency: None,
        efficiency_ratio: Some(x.ratio.ratio),
        offer: Some(x.view.offer.id.clone()),
    };
    let priced = OnDemandPool {
        price_per_accel_hour: x.view.price_per_accel_hour,
        currency: Some(x.view.offer.currency),
        offer: None,
        ..written.clone()
    };
    (written, priced)
}

/// A spot pool on an offer: as written and as priced.
fn spot_pool(x: &Offered) -> (SpotPool, SpotPool) {
    let written = SpotPool {
        price_per_accel_hour: None,
        interruption_overhead: SPOT_INTERRUPTION_OVERHEAD,
        availability: 1.0,
        currency: None,
        efficiency_ratio: Some(x.ratio.ratio),
        offer: Some(x.view.offer.id.clone()),
    };
    let priced = SpotPool {
        price_per_accel_hour: x.view.price_per_accel_hour,
        currency: Some(x.view.offer.currency),
        offer: None,
        ..written.clone()
    };
    (written, priced)
}

/// Mixes for a steady demand: each of the [`MIX_BASES`] cheapest bases
/// (owned or reserved, by NPV as a plain option) sized by the optimiser
/// with the cheapest on-demand and spot offers of its accelerator (else of
/// any) and routed by the scenario's priority rule.
fn mixes(s: &Scenario, priced: &[Priced], all: &[Offered]) -> Vec<Candidate> {
    let mut bases: Vec<&Priced> = priced
        .iter()
        .filter(|p| !p.result.ranked_apart())
        .filter(|p| p.candidate.priced.owned.is_some() || p.candidate.priced.reserved.is_some())
        .collect();
    bases.sort_by(|a, b| a.result.total_npv.total_cmp(&b.result.total_npv).then_with(|| a.id().cmp(b.id())));
    let mut out = Vec::new();
    for base in bases.into_iter().take(MIX_BASES) {
        let accelerator = &base.candidate.pools[0].accelerator;
        let od = cheapest(all, BillingMode::OnDemand, accelerator);
        let spot = cheapest(all, BillingMode::Spot, accelerator);
        if od.is_none() && spot.is_none() {
            continue;
        }
        if let Some(c) = mix(s, base, od, spot) {
            out.push(c);
        }
    }
    out
}

/// One mix, sized by `suanli_model::optimise` over the three pools.
fn mix(s: &Scenario, base: &Priced, od: Option<&Offered>, spot: Option<&Offered>) -> Option<Candidate> {
    let mut template = base.candidate.priced.clone();
    template.on_demand = None;
    template.id = "base".into();
    if let Some(r) = template.reserved.as_mut() {
        r.accelerators = Some(1);
    }
    let mut options = vec![template];
    let mut rental = |id: &str, x: &Offered| {
        let mut o = OptionSpec::bare(id.into(), OptionKind::Rent);
        if id == "od" {
            o.billing = Some(Billing::OnDemand);
            o.on_demand = Some(overflow(x).1);
        } else {
            o.billing = Some(Billing::Spot);
            o.spot = Some(spot_pool(x).1);
        }
        options.push(o);
    };
    if let Some(x) = od {
        rental("od", x);
    }
    if let Some(x) = spot {
        rental("spot", x);
    }
    let mut trial = s.clone();
    trial.options = options;
    trial.optimise = Some(OptimiseSpec {
        base: Some("base".into()),
        on_demand: od.map(|_| "od".into()),
        spot: spot.map(|_| "spot".into()),
        constraints: Default::default(),
    });
    let checked = Checked::new(trial).ok()?;
    let Ok(Outcome::Chosen(best)) = suanli_model::optimise::optimise(&checked) else { return None };
    let chosen = best.chosen.option;
    if chosen.kind != OptionKind::Mix {
        return None;
    }
    Some(mix_candidate(base, chosen, od, spot))
}

/// The optimiser's mix with the base's option-level facts and every pool's source.
fn mix_candidate(base: &Priced, chosen: OptionSpec, od: Option<&Offered>, spot: Option<&Offered>) -> Candidate {
    let b = &base.candidate;
    let mut priced = b.priced.clone();
    priced.id = format!("mix/{}", b.pools[0].offer_id);
    priced.kind = OptionKind::Mix;
    priced.billing = None;
    priced.owned = chosen.owned;
    priced.reserved = chosen.reserved;
    priced.on_demand = None;
    priced.spot = None;
    priced.sources.retain(|k, _| !k.starts_with("on_demand.") && !k.starts_with("spot."));
    let mut written = b.written.clone();
    written.id = priced.id.clone();
    written.kind = OptionKind::Mix;
    written.billing = None;
    written.on_demand = None;
    written.spot = None;
    written.sources = priced.sources.clone();
    if let (Some(w), Some(p)) = (written.owned.as_mut(), priced.owned.as_ref()) {
        w.servers = p.servers;
    }
    if let (Some(w), Some(p)) = (written.reserved.as_mut(), priced.reserved.as_ref()) {
        w.accelerators = p.accelerators;
    }
    let mut pools = vec![b.pools[0].clone()];
    // The base's label in each language, and each added pool's after it.
    let (base_en, base_zh) = b.priced.label.split_once(" / ").unwrap_or((&b.priced.label, &b.priced.label));
    let mut labels = vec![(base_en.to_owned(), base_zh.to_owned())];
    if let (Some(x), true) = (od, chosen.on_demand.is_some()) {
        let (w, p) = overflow(x);
        written.on_demand = Some(w);
        priced.on_demand = Some(p);
        priced.sources.insert("on_demand.price_per_accel_hour".into(), provenance(&x.view));
        pools.push(x.facts(false));
        labels.push((pool_label(x, Lang::En), pool_label(x, Lang::Zh)));
    }
    if let (Some(x), true) = (spot, chosen.spot.is_some()) {
        let (w, p) = spot_pool(x);
        written.spot = Some(w);
        priced.spot = Some(p);
        priced.sources.insert("spot.price_per_accel_hour".into(), provenance(&x.view));
        pools.push(x.facts(false));
        labels.push((pool_label(x, Lang::En), pool_label(x, Lang::Zh)));
    }
    for (pool, x) in [("on_demand", od), ("spot", spot)] {
        if let Some(x) = x.filter(|_| priced.sources.contains_key(&format!("{pool}.price_per_accel_hour"))) {
            priced.sources.insert(format!("{pool}.efficiency_ratio"), ratio_source(&x.ratio));
        }
    }
    // The option-level facts (supply, porting, memory) are the base's; a
    // spot pool adds its own supply driver. Resolving the written offers
    // writes the same price sources again.
    let en: Vec<&str> = labels.iter().map(|(en, _)| en.as_str()).collect();
    let zh: Vec<&str> = labels.iter().map(|(_, zh)| zh.as_str()).collect();
    priced.label = if en == zh { en.join(" + ") } else { format!("{} / {}", en.join(" + "), zh.join(" + ")) };
    written.label = priced.label.clone();
    written.sources = priced.sources.clone();
    Candidate { priced, written, pools }
}

/// A candidate with its evaluation.
struct Priced {
    candidate: Candidate,
    result: OptionResult,
}

impl Priced {
    fn id(&self) -> &str {
        &self.candidate.priced.id
    }
}

/// Evaluates candidates together; one that breaks a rule (figures beyond
/// the bound, say) is left out with the rule, in a note.
fn price(s: &Scenario, mut candidates: Vec<Candidate>, lang: Lang) -> Result<(Vec<Priced>, Vec<String>), Error> {
    let mut notes = Vec::new();
    for _ in 0..3 {
        if candidates.is_empty() {
            return Ok((Vec::new(), notes));
        }
        let mut trial = s.clone();
        trial.options = candidates.iter().map(|c| c.priced.clone()).collect();
        match Checked::new(trial) {
            Ok(checked) => {
                let priced = candidates
                    .into_iter()
                    .zip(checked.into_evaluation().options)
                    .map(|(candidate, result)| Priced { candidate, result });
                return Ok((priced.collect(), notes));
            }
            Err(errors) => {
                let mut bad = BTreeSet::new();
                for e in &errors {
                    let Some(i) = option_index(&e.path) else { return Err(Error::Invalid(errors)) };
                    if bad.insert(i) {
                        let id = &candidates[i].priced.id;
                        notes.push(format!("{id} {}{}", lang.pick("left out: ", "未参与比较："), e.message(lang)));
                    }
                }
                let mut i = 0;
                candidates.retain(|_| {
                    i += 1;
                    !bad.contains(&(i - 1))
                });
            }
        }
    }
    Err(Error::Internal("the recommendation's candidates could not be checked".into()))
}

/// `3` from `options[3].owned.servers`.
fn option_index(path: &str) -> Option<usize> {
    path.strip_prefix("options[")?.split(']').next()?.parse().ok()
}

/// Months until the result: a job's completion, else the first month the
/// capacity serves (lead time, porting delay).
fn time_to_result(p: &Priced) -> f64 {
    if let Some(t) = p.result.time_to_complete_months {
        return t;
    }
    let lead = p.candidate.priced.owned.as_ref().map_or(0.0, |o| f64::from(o.lead_time_months));
    let port = p.result.porting.as_ref().map_or(0.0, |x| x.delay_months.ceil());
    lead.max(port)
}

/// Accelerators at the busiest time: the owned fleet or reserved
/// commitment, or what the peak needs at the option's ratio.
fn cluster(s: &Scenario, p: &Priced) -> u32 {
    let o = &p.candidate.priced;
    let held = o.owned.as_ref().map_or(0, |w| w.servers * w.accelerators_per_server)
        + o.reserved.as_ref().and_then(|r| r.accelerators).unwrap_or(0);
    let ratio = o.efficiency_ratio.unwrap_or(1.0).max(1e-9);
    let needed = match &s.demand {
        Demand::Job(j) => j.cluster_accelerators,
        _ => (peak_ref_gpus(s) / ratio).ceil() as u32,
    };
    match (&s.demand, o.owned.is_some()) {
        (Demand::Job(_), true) => held,
        _ => held.max(needed),
    }
}

/// The constraints a priced candidate fails.
fn fails(p: &Priced, l: &Limits, point: &Point, peak_month: f64, cluster: u32) -> Vec<ConstraintKey> {
    use ConstraintKey as K;
    let pools = &p.candidate.pools;
    let rentals = || pools.iter().filter_map(|x| x.provider.as_ref());
    let porting = p.result.porting.as_ref().map(|x| x.engineer_months);
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

/// A priced candidate, judged.
struct Judged {
    json: CandidateJson,
    point: Point,
    fails: Vec<ConstraintKey>,
}

fn judge(s: &Scenario, p: Priced, l: &Limits, lang: Lang) -> Judged {
    let r = &p.result;
    let point = Point {
        npv: r.total_npv,
        total: r.total_nominal,
        time_months: time_to_result(&p),
        risk: r.supply.as_ref().map_or(0.0, |x| x.score),
    };
    let peak_month = r.monthly.iter().map(|m| m.total()).fold(0.0, f64::max);
    let cluster = cluster(s, &p);
    let fails = fails(&p, l, &point, peak_month, cluster);
    let fit = r.memory_fit.is_none_or(|f| f.fits());
    let apart = match (r.shortfall(), fit) {
        (None, true) => None,
        (short, _) => {
            let why: Vec<String> = r
                .notes
                .iter()
                .filter(|n| matches!(n, suanli_model::Note::RankedApart { .. } | suanli_model::Note::DoesNotFit { .. }))
                .map(|n| n.describe(lang))
                .collect();
            Some(ApartJson {
                done_share: short.map_or(1.0, |x| x.done_share),
                ref_gpu_hours_short: short.map_or(0.0, |x| x.ref_gpu_hours),
                fits: fit,
                why: why.join("; "),
            })
        }
    };
    let o = &p.candidate.priced;
    let pools = p
        .candidate
        .pools
        .iter()
        .map(|x| {
            let pool = offer_pool_name(x.mode);
            let size = match pool {
                "owned" => o.owned.as_ref().map(|w| w.servers),
                "reserved" => o.reserved.as_ref().and_then(|w| w.accelerators),
                _ => None,
            };
            PoolJson {
                pool: pool.to_owned(),
                billing_mode: x.mode,
                offer_id: x.offer_id.clone(),
                accelerator_id: x.accelerator.clone(),
                provider_id: x.provider.as_ref().map(|p| p.id.clone()),
                ratio_basis: x.basis,
                size,
            }
        })
        .collect();
    let json = CandidateJson {
        id: o.id.clone(),
        label: o.label.clone(),
        kind: format!("{:?}", o.kind).to_lowercase(),
        pools,
        total_npv: point.npv,
        total_nominal: point.total,
        peak_month,
        time_to_result_months: point.time_months,
        supply_score: point.risk,
        porting_engineer_months: r.porting.as_ref().map(|x| x.engineer_months),
        porting_cost: r.porting.as_ref().map(|x| x.cost),
        porting_delay_months: r.porting.as_ref().map(|x| x.delay_months),
        cluster_accelerators: cluster,
        ratio_basis: p.candidate.pools.iter().map(|x| x.basis).max().unwrap_or(Basis::Estimated),
        on_frontier: false,
        fails: fails.iter().map(|k| k.key().to_owned()).collect(),
        apart,
        why: String::new(),
        option: p.candidate.written,
    };
    Judged { json, point, fails }
}

fn assemble(
    s: &Scenario,
    priced: Vec<Priced>,
    l: &Limits,
    rank_by: RankBy,
    search: SearchStats,
    notes: Vec<String>,
    lang: Lang,
) -> Recommendation {
    let mut judged: Vec<Judged> = priced.into_iter().map(|p| judge(s, p, l, lang)).collect();
    // A fixed order before anything is compared: ties then fall the same way.
    judged.sort_by(|a, b| a.json.id.cmp(&b.json.id));
    let (apart, complete): (Vec<Judged>, Vec<Judged>) = judged.into_iter().partition(|j| j.json.apart.is_some());
    let constraints = exclusions(&complete, l, lang);
    let (ok, mut failing): (Vec<Judged>, Vec<Judged>) = complete.into_iter().partition(|j| j.fails.is_empty());
    let ranked = ranked(ok, rank_by, s.currency, lang);
    for j in &mut failing {
        let labels: Vec<&str> = j.fails.iter().map(|k| k.label(lang)).collect();
        j.json.why =
            format!("{}{}", lang.pick("Excluded by: ", "被以下约束排除："), labels.join(lang.pick(", ", "、")));
    }
    failing.sort_by(|a, b| a.point.npv.total_cmp(&b.point.npv).then_with(|| a.json.id.cmp(&b.json.id)));
    let mut apart: Vec<CandidateJson> = apart.into_iter().map(|j| j.json).collect();
    for c in &mut apart {
        c.why = c.apart.as_ref().map(|a| a.why.clone()).unwrap_or_default();
    }
    apart.sort_by(|a, b| {
        let done = |c: &CandidateJson| c.apart.as_ref().map_or(1.0, |x| x.done_share);
        done(b).total_cmp(&done(a)).then(a.total_npv.total_cmp(&b.total_npv)).then_with(|| a.id.cmp(&b.id))
    });
    let infeasible =
        if ranked.is_empty() { why_none(&search, &apart, &constraints, s.currency, lang) } else { Vec::new() };
    Recommendation {
        scenario_name: s.name.clone(),
        currency: s.currency,
        rank_by,
        ranked,
        apart,
        excluded: failing.into_iter().map(|j| j.json).collect(),
        constraints,
        infeasible,
        search,
        notes,
    }
}

/// The feasible candidates in rank order, each with its standing.
fn ranked(ok: Vec<Judged>, by: RankBy, currency: Currency, lang: Lang) -> Vec<CandidateJson> {
    use suanli_model::recommend as r;
    let points: Vec<Point> = ok.iter().map(|j| j.point).collect();
    // A candidate is named in the why line by its label, never its id.
    let names: Vec<String> = ok.iter().map(|j| suanli_model::lang::for_lang(&j.json.label, lang)).collect();
    let order = r::rank(&points, by);
    let standings = r::standings(&points, &order, by, &names);
    let mut slots: Vec<Option<Judged>> = ok.into_iter().map(Some).collect();
    order
        .into_iter()
        .filter_map(|i| {
            let mut j = slots[i].take()?;
            j.json.on_frontier = !matches!(standings[i], Standing::Dominated { .. });
            j.json.why = r::why(&j.point, &standings[i], currency, lang);
            Some(j.json)
        })
        .collect()
}

/// Per active constraint: the candidates it removes and whether it binds
/// (the best NPV among those failing nothing else is lower).
fn exclusions(complete: &[Judged], l: &Limits, lang: Lang) -> Vec<ExclusionJson> {
    let best = |skip: Option<ConstraintKey>| {
        complete.iter().filter(|j| j.fails.iter().all(|k| Some(*k) == skip)).map(|j| j.point.npv).min_by(f64::total_cmp)
    };
    let with_all = best(None);
    l.active()
        .into_iter()
        .map(|k| {
            let candidates: Vec<String> =
                complete.iter().filter(|j| j.fails.contains(&k)).map(|j| j.json.id.clone()).collect();
            let without = best(Some(k));
            let binds = match (without, with_all) {
                (Some(w), Some(b)) => w < b - 1e-9 * b.abs().max(1.0),
                (Some(_), None) => true,
                _ => false,
            };
            ExclusionJson {
                constraint: k.key().to_owned(),
                label: k.label(lang).to_owned(),
                count: candidates.len() as u32,
                candidates,
                binds,
                best_npv_without: without.filter(|_| binds),
            }
        })
        .collect()
}

/// Why nothing is ranked, one reason a line.
fn why_none(
    search: &SearchStats,
    apart: &[CandidateJson],
    constraints: &[ExclusionJson],
    currency: Currency,
    lang: Lang,
) -> Vec<String> {
    let zh = lang == Lang::Zh;
    let mut lines = Vec::new();
    if search.candidates == 0 {
        lines.push(if zh {
            format!(
                "目录中没有可用的报价：{} 条报价中，{} 条没有该负载类别的效率比，{} 条没有以场景货币计的价格，{} 条购买报价缺少场地运行成本（场景中没有自购方案）。",
                search.offers, search.without_ratio, search.without_price, search.purchases_without_site
            )
        } else {
            format!(
                "No catalogue offer could be priced: of {} offers, {} have no efficiency ratio for the workload class, {} no price in the scenario currency, and {} purchases lack the site's running costs (the scenario has no buy option).",
                search.offers, search.without_ratio, search.without_price, search.purchases_without_site
            )
        });
    }
    if !apart.is_empty() {
        let best = apart.iter().filter_map(|c| c.apart.as_ref()).map(|a| a.done_share).fold(0.0, f64::max);
        let best = suanli_model::format_percent(best, 0);
        lines.push(if zh {
            format!("{} 个候选方案无法完成全部工作或放不下模型（最多完成 {best}）。", apart.len())
        } else {
            format!("{} candidates leave work undone or cannot hold the model (the best does {best}).", apart.len())
        });
    }
    for c in constraints.iter().filter(|c| c.count > 0) {
        let without = c.best_npv_without.map(|x| suanli_model::format_amount(x, currency, lang));
        lines.push(match (zh, without) {
            (true, Some(x)) => format!("“{}”排除了 {} 个候选方案；去掉它，最低净现值为 {x}。", c.label, c.count),
            (true, None) => format!("“{}”排除了 {} 个候选方案。", c.label, c.count),
            (false, Some(x)) => {
                format!("The {} excludes {} candidates; without it the best NPV is {x}.", c.label, c.count)
            }
            (false, None) => format!("The {} excludes {} candidates.", c.label, c.count),
        });
    }
    lines
}

/// What the reader must know about how the candidates were built.
fn assumption_notes(s: &Scenario, search: &SearchStats, lang: Lang) -> Vec<String> {
    let mut notes = vec![
        lang.pick(
            "Spot candidates assume 10 % of the work is redone after interruptions; accelerators off CUDA assume a beta-grade framework adapter.",
            "竞价方案假设中断导致 10% 的工作需重做；非 CUDA 加速卡假设框架适配为 beta 级成熟度。",
        )
        .to_owned(),
    ];
    if s.porting.is_none() {
        notes.push(
            lang.pick(
                "The scenario has no [porting] section: accelerators off CUDA are priced without porting cost or delay.",
                "场景中没有 [porting] 部分：非 CUDA 加速卡的方案未计入迁移成本与延迟。",
            )
            .to_owned(),
        );
    }
    if search.purchases_without_site > 0 {
        notes.push(if lang == Lang::Zh {
            format!("{} 条购买报价未参与搜索：场景中没有自购方案提供机房、电力与运维成本。", search.purchases_without_site)
        } else {
            format!(
                "{} purchase offers were not searched: the scenario has no buy option to give the site's hosting, power and staff costs.",
                search.purchases_without_site
            )
        });
    }
    notes
}

/// The scenario with the chosen candidates as its options: each pool names
/// its catalogue offer, each figure keeps its source. Ranges on options
/// and the optimiser section are left out (they name the old options).
pub fn scenario_with(scenario: &Scenario, r: &Recommendation, ids: &[String]) -> Result<Scenario, Error> {
    let mut s = scenario.clone();
    s.optimise = None;
    s.uncertainty.retain(|u| !u.path.starts_with("options."));
    let all = || r.ranked.iter().chain(&r.excluded).chain(&r.apart);
    s.options = ids
        .iter()
        .map(|id| {
            all().find(|c| &c.id == id).map(|c| c.option.clone()).ok_or_else(|| Error::Reference {
                path: "pick".into(),
                value: format!("{id:?}"),
                problem: "no candidate of this recommendation has this id".into(),
            })
        })
        .collect::<Result<_, _>>()?;
    Ok(s)
}

/// The editor's document searched as [`recommend`] searches a parsed scenario.
pub fn recommend_doc(
    catalog: &Catalog,
    doc: &serde_json::Value,
    constraints: &Constraints,
    rank_by: RankBy,
    lang: Lang,
) -> Result<Recommendation, Error> {
    recommend(catalog, &crate::document::doc_to_scenario(doc)?, constraints, rank_by, lang)
}

/// Most candidates a pick turns into options (a comparison a board reads).
pub const MAX_PICKS: usize = 5;

/// The editor's document with the picked candidates (by id) as its options
/// (see [`scenario_with`]): the same search again, so the options are the
/// ones the user saw.
pub fn doc_with_picks(
    catalog: &Catalog,
    doc: &serde_json::Value,
    constraints: &Constraints,
    rank_by: RankBy,
    ids: &[String],
    lang: Lang,
) -> Result<serde_json::Value, Error> {
    if ids.is_empty() || ids.len() > MAX_PICKS {
        return Err(Error::Invalid(vec![InputError::new(
            "picks",
            ids.len() as f64,
            Rule::Between { min: 1.0, max: MAX_PICKS as f64 },
        )]));
    }
    let scenario = crate::document::doc_to_scenario(doc)?;
    let r = recommend(catalog, &scenario, constraints, rank_by, lang)?;
    let chosen = scenario_with(&scenario, &r, ids)?;
    serde_json::to_value(&chosen).map_err(|e| Error::Shape { path: String::new(), message: e.to_string() })
}

/// The ids of ranked candidates by their 1-based rank; default: the first
/// [`DEFAULT_PICKS`] of the frontier.
pub fn picks(r: &Recommendation, ranks: &[u32]) -> Result<Vec<String>, Error> {
    if ranks.is_empty() {
        return Ok(r.frontier().take(DEFAULT_PICKS).map(|c| c.id.clone()).collect());
    }
    ranks
        .iter()
        .map(|&n| {
            r.ranked.get((n as usize).wrapping_sub(1)).map(|c| c.id.clone()).ok_or_else(|| {
                Error::Invalid(vec![InputError::new("pick", n, Rule::Between { min: 1.0, max: r.ranked.len() as f64 })])
            })
        })
        .collect()
}

/// Writes the scenario with the chosen candidates (see [`scenario_with`]) as TOML.
pub fn write_scenario(path: &Path, scenario: &Scenario, r: &Recommendation, ids: &[String]) -> Result<(), Error> {
    let s = scenario_with(scenario, r, ids)?;
    let text = toml::to_string(&s).map_err(|e| Error::Internal(format!("scenario as TOML: {e}")))?;
    crate::write_atomic(path, text.as_bytes())
}

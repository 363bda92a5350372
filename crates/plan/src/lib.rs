//! Plans from the workload: the catalogue searched for ways to serve a
//! scenario's demand. Each offer becomes the cluster the demand needs
//! (nodes, fabric, scaling, capacity) or is listed apart with the reason;
//! each feasible candidate is priced by the engine as a typed option,
//! ranked, and set on the Pareto frontier over NPV, time to result and
//! supply risk (docs/recommend.md).
//!
//! The search space is fixed by the scenario, the catalogue and the search
//! assumptions (consumer clusters, spot); constraints only remove priced
//! candidates. So a tighter constraint can never lower the best cost, and
//! whether a constraint binds is read off the same priced candidates.
//!
//! Pure: no IO, clock or database. The catalogue arrives as plain rows
//! ([`Market`]); `suanli_api::recommend` reads them and writes scenarios.

#![warn(missing_docs)]

mod candidate;
pub mod cluster;
mod constraints;
mod error;
pub mod fx;
mod judge;
mod market;
pub mod offer_option;
mod output;
pub mod provenance;
pub mod spot;

use suanli_model::recommend::RankBy;
use suanli_model::{InputError, Lang, OptionKind, Rule, Scenario};

pub use cluster::{Cluster, NotFeasible, ScalingModel};
pub use constraints::Constraints;
pub use error::PlanError;
pub use fx::{RateUsed, fill_rates, take_rates};
pub use market::{Market, OFFERS_PER_GROUP, SearchStats};
pub use output::{ApartJson, CandidateJson, ExclusionJson, NotFeasibleJson, PoolJson, PoolKind, Recommendation};
pub use spot::SpotAssumptions;

use candidate::{Candidate, Search};

/// Owned fleets and reserved commitments that mixes are built on: the
/// cheapest by NPV as plain options.
pub const MIX_BASES: usize = 3;
/// Candidates a written scenario takes when none are picked: the first of the frontier.
pub const DEFAULT_PICKS: usize = 3;
/// Most candidates a pick turns into options (a comparison a board reads).
pub const MAX_PICKS: usize = 5;

/// Searches the market for the scenario's demand under the constraints.
/// The scenario's own options are not candidates; its first buy option,
/// when it has one, gives the on-premises site's running costs for every
/// purchase offer. `rates` are the reference rates the scenario took
/// (see [`fill_rates`]), said in the notes where an offer used them.
pub fn plan(
    scenario: &Scenario,
    market: &Market,
    rates: Vec<RateUsed>,
    constraints: &Constraints,
    rank_by: RankBy,
    lang: Lang,
) -> Result<Recommendation, PlanError> {
    let base = base_scenario(scenario)?;
    let limits = constraints::limits(constraints, &base)?;
    let model = ScalingModel::calibrate(&market.scaling);
    let mut search = SearchStats::default();
    let offered = market::offered(market, &base, &mut search);
    let peak = peak_ref_gpus(&base);
    let q = Search { s: &base, limits: &limits, model: &model, all: &offered, lang, peak_ref_gpus: peak };
    let site = base.options.iter().find(|o| o.kind == OptionKind::Buy).and_then(|o| o.owned.clone());
    let mut candidates = Vec::new();
    let mut not_feasible = Vec::new();
    for o in &offered {
        let built = match (o.is_rental(), &site) {
            (true, _) => candidate::rental(&q, o),
            (false, Some(site)) => candidate::owned(&q, o, site),
            (false, None) => {
                search.purchases_without_site += 1;
                continue;
            }
        };
        match built {
            Ok(c) => candidates.push(c),
            Err(n) => not_feasible.push(*n),
        }
    }
    search.not_feasible = not_feasible.len() as u32;
    not_feasible.sort_by(|a, b| a.price.total_cmp(&b.price).then_with(|| a.offer_id.cmp(&b.offer_id)));
    let (mut priced, mut notes) = judge::price(&base, candidates, lang)?;
    if !base.demand_is_job() {
        let mixes = candidate::mixes(&q, &mix_bases(&priced));
        let (more, dropped) = judge::price(&base, mixes, lang)?;
        notes.extend(dropped);
        priced.extend(more);
    }
    search.candidates = priced.len() as u32;
    let currencies: Vec<_> = market.offers.iter().map(|v| v.offer.currency).collect();
    let rates: Vec<RateUsed> = rates.into_iter().filter(|r| currencies.contains(&r.currency)).collect();
    let mut all_notes: Vec<String> = rates.iter().map(|r| r.describe(base.currency, lang)).collect();
    all_notes.extend(left_out(&search, lang));
    all_notes.extend(notes);
    all_notes.extend(assumption_notes(&base, &search, &limits, lang));
    let judged = priced.into_iter().map(|p| judge::judge(&base, p, &limits, peak, lang)).collect();
    let sorted = judge::sort(judged, &limits, rank_by, base.currency, lang);
    let infeasible = if sorted.ranked.is_empty() {
        judge::why_none(&search, &sorted.apart, &sorted.constraints, base.currency, lang)
    } else {
        Vec::new()
    };
    Ok(Recommendation {
        scenario_name: base.name.clone(),
        currency: base.currency,
        rank_by,
        ranked: sorted.ranked,
        apart: sorted.apart,
        excluded: sorted.excluded,
        not_feasible,
        constraints: sorted.constraints,
        infeasible,
        search,
        rates,
        notes: all_notes,
    })
}

/// The scenario as the search uses it: its rules checked (options aside,
/// which it may lack), without ranges or an optimiser section.
fn base_scenario(s: &Scenario) -> Result<Scenario, PlanError> {
    if s.workload_class.is_none() {
        return Err(PlanError::Invalid(vec![InputError::missing("workload_class", Rule::Required)]));
    }
    let mut base = s.clone();
    base.uncertainty.clear();
    base.optimise = None;
    let errors: Vec<InputError> = match suanli_model::validate(&base) {
        Ok(()) => Vec::new(),
        Err(e) => e.into_iter().filter(|e| !(e.path == "options" && e.rule == Rule::AtLeastOne)).collect(),
    };
    if errors.is_empty() { Ok(base) } else { Err(PlanError::Invalid(errors)) }
}

/// Peak reference GPUs of a steady demand (0 for a job).
fn peak_ref_gpus(s: &Scenario) -> f64 {
    match suanli_model::demand::prepare(s) {
        suanli_model::demand::Prepared::Shared { months, .. } => months.iter().map(|m| m.peak()).fold(0.0, f64::max),
        suanli_model::demand::Prepared::Job { .. } => 0.0,
    }
}

/// The [`MIX_BASES`] cheapest owned or reserved candidates that do all the work.
fn mix_bases(priced: &[judge::Priced]) -> Vec<&Candidate> {
    let mut bases: Vec<&judge::Priced> = priced
        .iter()
        .filter(|p| !p.result.ranked_apart())
        .filter(|p| p.candidate.priced.owned.is_some() || p.candidate.priced.reserved.is_some())
        .collect();
    bases.sort_by(|a, b| a.result.total_npv.total_cmp(&b.result.total_npv).then_with(|| a.id().cmp(b.id())));
    bases.into_iter().take(MIX_BASES).map(|p| &p.candidate).collect()
}

/// Every offer left out of the search, counted by reason, in words.
fn left_out(s: &SearchStats, lang: Lang) -> Vec<String> {
    let reasons = [
        (s.without_ratio, "have no efficiency ratio for the workload class", "条没有该负载类别的效率比"),
        (s.without_price, "no price convertible to the scenario currency", "条没有可换算为场景货币的价格"),
        (
            s.purchases_not_servers,
            "purchases are not a server (a card or a chip order)",
            "条购买报价不是整台服务器（单卡或芯片订单）",
        ),
        (
            s.not_searched,
            "are dearer than the two cheapest of their accelerator, billing and provider",
            "条比同一加速卡、计费方式和提供商的最便宜两条更贵",
        ),
        (
            s.not_feasible,
            "cannot be the cluster the demand needs (listed apart with the reason)",
            "条无法组成所需集群（另列原因）",
        ),
        (s.purchases_without_site, "purchases lack the site's costs", "条购买报价缺少场地成本"),
    ];
    let said: Vec<String> = reasons
        .iter()
        .map(|(n, en, zh)| match lang {
            Lang::En => format!("{n} {en}"),
            Lang::Zh => format!("{n} {zh}"),
        })
        .collect();
    vec![match lang {
        Lang::En => format!("Of {} offers: {}; {} candidates were priced.", s.offers, said.join(", "), s.candidates),
        Lang::Zh => format!("共 {} 条报价：{}；{} 个候选方案参与了定价。", s.offers, said.join("，"), s.candidates),
    }]
}

/// What the reader must know about how the candidates were built.
fn assumption_notes(s: &Scenario, search: &SearchStats, l: &constraints::Limits, lang: Lang) -> Vec<String> {
    let spot = &l.spot;
    let mut notes = vec![match lang {
        Lang::En => format!(
            "Spot candidates redo work after interruptions, more the more nodes run in lock step: {} interruptions per node a month (the floor of AWS's highest published band; an assumption), a checkpoint every {} h, {} h to restart. Accelerators off CUDA assume a beta-grade framework adapter.",
            spot.interruptions_per_node_month, spot.checkpoint_interval_hours, spot.restart_hours
        ),
        Lang::Zh => format!(
            "竞价方案计入中断后的重做，同步运行的节点越多越高：每节点每月中断 {} 次（取 AWS 公布最高档的下限，属假设），每 {} 小时一个检查点，重启需 {} 小时。非 CUDA 加速卡假设框架适配为 beta 级成熟度。",
            spot.interruptions_per_node_month, spot.checkpoint_interval_hours, spot.restart_hours
        ),
    }];
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
pub fn scenario_with(scenario: &Scenario, r: &Recommendation, ids: &[String]) -> Result<Scenario, PlanError> {
    let mut s = scenario.clone();
    s.optimise = None;
    s.uncertainty.retain(|u| !u.path.starts_with("options."));
    let all = || r.ranked.iter().chain(&r.excluded).chain(&r.apart);
    s.options = ids
        .iter()
        .map(|id| {
            all().find(|c| &c.id == id).map(|c| c.option.clone()).ok_or_else(|| PlanError::Reference {
                path: "pick".into(),
                value: format!("{id:?}"),
                problem: "no candidate of this recommendation has this id".into(),
            })
        })
        .collect::<Result<_, _>>()?;
    Ok(s)
}

/// The ids of ranked candidates by their 1-based rank; default: the first
/// [`DEFAULT_PICKS`] of the frontier.
pub fn picks(r: &Recommendation, ranks: &[u32]) -> Result<Vec<String>, PlanError> {
    if ranks.is_empty() {
        return Ok(r.frontier().take(DEFAULT_PICKS).map(|c| c.id.clone()).collect());
    }
    ranks
        .iter()
        .map(|&n| {
            r.ranked.get((n as usize).wrapping_sub(1)).map(|c| c.id.clone()).ok_or_else(|| {
                PlanError::Invalid(vec![InputError::new(
                    "pick",
                    n,
                    Rule::Between { min: 1.0, max: r.ranked.len() as f64 },
                )])
            })
        })
        .collect()
}

/// Checks how many picks a comparison takes.
pub fn check_pick_count(n: usize) -> Result<(), PlanError> {
    if n == 0 || n > MAX_PICKS {
        return Err(PlanError::Invalid(vec![InputError::new(
            "picks",
            n as f64,
            Rule::Between { min: 1.0, max: MAX_PICKS as f64 },
        )]));
    }
    Ok(())
}

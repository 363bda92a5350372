//! Candidates priced by the engine, judged against the constraints, and
//! assembled into a plan: ranked, apart, excluded, with what each
//! constraint removed and whether it binds.

use std::collections::BTreeSet;

use suanli_catalog::Confidence;
use suanli_catalog::ratios::Basis;
use suanli_model::optimise::ConstraintKey;
use suanli_model::recommend::{Point, RankBy, Standing};
use suanli_model::{Checked, Currency, Demand, Lang, OptionResult, Scenario};

use crate::PlanError;
use crate::candidate::{Candidate, pool_of};
use crate::constraints::{Limits, fails};
use crate::market::SearchStats;
use crate::output::{ApartJson, CandidateJson, ExclusionJson, PoolJson, PoolKind};

/// A candidate with its evaluation.
pub(crate) struct Priced {
    pub candidate: Candidate,
    pub result: OptionResult,
}

impl Priced {
    pub fn id(&self) -> &str {
        &self.candidate.priced.id
    }
}

/// Evaluates candidates together; one that breaks a rule (figures beyond
/// the bound, say) is left out with the rule, in a note.
pub(crate) fn price(
    s: &Scenario,
    mut candidates: Vec<Candidate>,
    lang: Lang,
) -> Result<(Vec<Priced>, Vec<String>), PlanError> {
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
                    let Some(i) = option_index(&e.path) else { return Err(PlanError::Invalid(errors)) };
                    if bad.insert(i) {
                        let label = suanli_model::lang::for_lang(&candidates[i].priced.label, lang);
                        notes.push(format!("{label} {}{}", lang.pick("left out: ", "未参与比较："), e.message(lang)));
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
    Err(PlanError::Internal("the recommendation's candidates could not be checked".into()))
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
fn busiest(s: &Scenario, p: &Priced, peak_ref_gpus: f64) -> u32 {
    let o = &p.candidate.priced;
    let held = o.owned.as_ref().map_or(0, |w| w.servers * w.accelerators_per_server)
        + o.reserved.as_ref().and_then(|r| r.accelerators).unwrap_or(0);
    let ratio = o.efficiency_ratio.unwrap_or(1.0).max(1e-9);
    let needed = match &s.demand {
        Demand::Job(j) => j.cluster_accelerators,
        _ => (peak_ref_gpus / ratio).ceil() as u32,
    };
    match (&s.demand, o.owned.is_some()) {
        (Demand::Job(_), true) => held,
        _ => held.max(needed),
    }
}

/// A priced candidate, judged.
pub(crate) struct Judged {
    pub json: CandidateJson,
    pub point: Point,
    pub fails: Vec<ConstraintKey>,
}

pub(crate) fn judge(s: &Scenario, p: Priced, l: &Limits, peak_ref_gpus: f64, lang: Lang) -> Judged {
    let r = &p.result;
    let point = Point {
        npv: r.total_npv,
        total: r.total_nominal,
        time_months: time_to_result(&p),
        risk: r.supply.as_ref().map_or(0.0, |x| x.score),
    };
    let peak_month = r.monthly.iter().map(|m| m.total()).fold(0.0, f64::max);
    let busiest = busiest(s, &p, peak_ref_gpus);
    let porting = r.porting.as_ref().map(|x| x.engineer_months);
    let fails = fails(&p.candidate.pools, porting, l, &point, peak_month, busiest);
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
    let c = p.candidate;
    let o = &c.priced;
    let pools = c
        .pools
        .iter()
        .map(|x| {
            let pool = pool_of(x.mode);
            let size = match pool {
                PoolKind::Owned => o.owned.as_ref().map(|w| w.servers),
                PoolKind::Reserved => o.reserved.as_ref().and_then(|w| w.accelerators),
                PoolKind::OnDemand | PoolKind::Spot => None,
            };
            PoolJson {
                pool,
                billing_mode: x.mode,
                offer_id: x.offer_id.clone(),
                accelerator_id: x.accelerator.clone(),
                provider_id: x.provider.as_ref().map(|p| p.id.clone()),
                ratio_basis: x.basis,
                price_confidence: x.confidence,
                price_source: x.source.clone(),
                size,
            }
        })
        .collect();
    let json = CandidateJson {
        id: o.id.clone(),
        label: suanli_model::lang::for_lang(&o.label, lang),
        kind: o.kind,
        pools,
        cluster_why: c.cluster.why(lang),
        cluster: c.cluster,
        spot_overhead: c.spot_overhead,
        total_npv: point.npv,
        total_nominal: point.total,
        peak_month,
        time_to_result_months: point.time_months,
        supply_score: point.risk,
        porting_engineer_months: porting,
        porting_cost: r.porting.as_ref().map(|x| x.cost),
        porting_delay_months: r.porting.as_ref().map(|x| x.delay_months),
        cluster_accelerators: busiest,
        ratio_basis: c.pools.iter().map(|x| x.basis).max().unwrap_or(Basis::Estimated),
        price_confidence: c.pools.iter().map(|x| x.confidence).fold(Confidence::User, Confidence::weaker),
        on_frontier: false,
        fails: fails.clone(),
        apart,
        why: String::new(),
        option: c.written,
    };
    Judged { json, point, fails }
}

/// The judged candidates split into ranked, apart and excluded.
pub(crate) struct Sorted {
    pub ranked: Vec<CandidateJson>,
    pub apart: Vec<CandidateJson>,
    pub excluded: Vec<CandidateJson>,
    pub constraints: Vec<ExclusionJson>,
}

pub(crate) fn sort(judged: Vec<Judged>, l: &Limits, rank_by: RankBy, currency: Currency, lang: Lang) -> Sorted {
    let mut judged = judged;
    // A fixed order before anything is compared: ties then fall the same way.
    judged.sort_by(|a, b| a.json.id.cmp(&b.json.id));
    let (apart, complete): (Vec<Judged>, Vec<Judged>) = judged.into_iter().partition(|j| j.json.apart.is_some());
    let constraints = exclusions(&complete, l, lang);
    let (ok, mut failing): (Vec<Judged>, Vec<Judged>) = complete.into_iter().partition(|j| j.fails.is_empty());
    let ranked = ranked(ok, rank_by, currency, lang);
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
    Sorted { ranked, apart, excluded: failing.into_iter().map(|j| j.json).collect(), constraints }
}

/// The feasible candidates in rank order, each with its standing.
fn ranked(ok: Vec<Judged>, by: RankBy, currency: Currency, lang: Lang) -> Vec<CandidateJson> {
    use suanli_model::recommend as r;
    let points: Vec<Point> = ok.iter().map(|j| j.point).collect();
    // A candidate is named in the why line by its label, never its id.
    let names: Vec<String> = ok.iter().map(|j| j.json.label.clone()).collect();
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
                constraint: k,
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
pub(crate) fn why_none(
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
                "目录中没有可用的报价：{} 条报价中，{} 条没有该负载类别的效率比，{} 条没有以场景货币计的价格，{} 条无法组成所需集群，{} 条购买报价缺少场地运行成本（场景中没有自购方案）。",
                search.offers, search.without_ratio, search.without_price, search.not_feasible, search.purchases_without_site
            )
        } else {
            format!(
                "No catalogue offer could be priced: of {} offers, {} have no efficiency ratio for the workload class, {} no price in the scenario currency, {} cannot be the cluster the demand needs, and {} purchases lack the site's running costs (the scenario has no buy option).",
                search.offers, search.without_ratio, search.without_price, search.not_feasible, search.purchases_without_site
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

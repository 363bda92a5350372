//! The capacity-mix optimiser: how much base capacity (owned servers or a
//! reserved commitment) to hold, with peaks on demand and low-priority
//! work on spot, so that the demand is served at the lowest NPV under the
//! constraints. The pools are taken from options of the scenario (the
//! templates); the search is exhaustive over base sizes on a grid, so a
//! tighter constraint can only remove candidates, never lower the cost.

use crate::scenario::*;
use crate::uncertainty::{Param, RentalPool, SimulationConfig};
use crate::validate::{InputError, Rule};
use crate::{Checked, Lang};

/// A constraint by name (for "which constraint binds"). The optimiser
/// uses the first six; a recommendation all of them. Serialised as
/// [`ConstraintKey::key`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub enum ConstraintKey {
    /// Every pool available (lead time and porting delay) by a month.
    Deadline,
    /// The chosen mix's P90 NPV within a budget.
    P90,
    /// Every pool's supply-risk score within a cap.
    SupplyScore,
    /// Chinese domestic accelerators only.
    DomesticOnly,
    /// Every pool runs in one country (data sovereignty).
    ProviderCountry,
    /// Every pool offers the required security features.
    Security,
    /// Nominal total over the horizon.
    BudgetTotal,
    /// The dearest month.
    BudgetPerMonth,
    /// Accelerators the buyer's jurisdiction lets it obtain.
    Jurisdiction,
    /// How an efficiency ratio was established (measured, estimated …).
    RatioBasis,
    /// Engineer-months of porting off CUDA.
    PortingEffort,
    /// At least this many accelerators in the cluster.
    ClusterMin,
    /// At most this many accelerators in the cluster.
    ClusterMax,
    /// Billing kinds allowed.
    Billing,
}

impl ConstraintKey {
    /// The name in JSON.
    pub fn key(self) -> &'static str {
        match self {
            ConstraintKey::Deadline => "deadline",
            ConstraintKey::P90 => "p90",
            ConstraintKey::SupplyScore => "supply_score",
            ConstraintKey::DomesticOnly => "domestic_only",
            ConstraintKey::ProviderCountry => "provider_country",
            ConstraintKey::Security => "security",
            ConstraintKey::BudgetTotal => "budget_total",
            ConstraintKey::BudgetPerMonth => "budget_per_month",
            ConstraintKey::Jurisdiction => "jurisdiction",
            ConstraintKey::RatioBasis => "ratio_basis",
            ConstraintKey::PortingEffort => "porting_effort",
            ConstraintKey::ClusterMin => "cluster_min",
            ConstraintKey::ClusterMax => "cluster_max",
            ConstraintKey::Billing => "billing",
        }
    }

    /// The constraint's name in `lang`.
    pub fn label(self, lang: Lang) -> &'static str {
        let zh = lang == Lang::Zh;
        match (self, zh) {
            (ConstraintKey::Deadline, false) => "deadline",
            (ConstraintKey::Deadline, true) => "期限",
            (ConstraintKey::P90, false) => "P90 cost budget",
            (ConstraintKey::P90, true) => "P90 成本上限",
            (ConstraintKey::SupplyScore, false) => "supply-risk cap",
            (ConstraintKey::SupplyScore, true) => "供应风险上限",
            (ConstraintKey::DomesticOnly, false) => "domestic accelerators only",
            (ConstraintKey::DomesticOnly, true) => "仅限国产加速卡",
            (ConstraintKey::ProviderCountry, false) => "data sovereignty (provider country)",
            (ConstraintKey::ProviderCountry, true) => "数据主权（供应商所在国家）",
            (ConstraintKey::Security, false) => "required security features",
            (ConstraintKey::Security, true) => "必需的安全特性",
            (ConstraintKey::BudgetTotal, false) => "total budget",
            (ConstraintKey::BudgetTotal, true) => "总预算",
            (ConstraintKey::BudgetPerMonth, false) => "monthly budget",
            (ConstraintKey::BudgetPerMonth, true) => "月度预算",
            (ConstraintKey::Jurisdiction, false) => "export rules of the buyer's jurisdiction",
            (ConstraintKey::Jurisdiction, true) => "买方所在辖区的出口规则",
            (ConstraintKey::RatioBasis, false) => "minimum evidence for efficiency ratios",
            (ConstraintKey::RatioBasis, true) => "效率比的最低依据",
            (ConstraintKey::PortingEffort, false) => "porting-effort cap",
            (ConstraintKey::PortingEffort, true) => "迁移工作量上限",
            (ConstraintKey::ClusterMin, false) => "minimum cluster size",
            (ConstraintKey::ClusterMin, true) => "最小集群规模",
            (ConstraintKey::ClusterMax, false) => "maximum cluster size",
            (ConstraintKey::ClusterMax, true) => "最大集群规模",
            (ConstraintKey::Billing, false) => "allowed billing kinds",
            (ConstraintKey::Billing, true) => "允许的计费方式",
        }
    }

    fn active(c: &Constraints) -> Vec<ConstraintKey> {
        let mut v = Vec::new();
        if c.deadline_months.is_some() {
            v.push(ConstraintKey::Deadline);
        }
        if c.max_p90_npv.is_some() {
            v.push(ConstraintKey::P90);
        }
        if c.max_supply_score.is_some() {
            v.push(ConstraintKey::SupplyScore);
        }
        if c.domestic_only {
            v.push(ConstraintKey::DomesticOnly);
        }
        if c.provider_country.is_some() {
            v.push(ConstraintKey::ProviderCountry);
        }
        if !c.required_security.is_empty() {
            v.push(ConstraintKey::Security);
        }
        v
    }

    fn remove(self, c: &Constraints) -> Constraints {
        let mut c = c.clone();
        match self {
            ConstraintKey::Deadline => c.deadline_months = None,
            ConstraintKey::P90 => c.max_p90_npv = None,
            ConstraintKey::SupplyScore => c.max_supply_score = None,
            ConstraintKey::DomesticOnly => c.domestic_only = false,
            ConstraintKey::ProviderCountry => c.provider_country = None,
            ConstraintKey::Security => c.required_security.clear(),
            // Not constraints of the optimiser (never active here).
            ConstraintKey::BudgetTotal
            | ConstraintKey::BudgetPerMonth
            | ConstraintKey::Jurisdiction
            | ConstraintKey::RatioBasis
            | ConstraintKey::PortingEffort
            | ConstraintKey::ClusterMin
            | ConstraintKey::ClusterMax
            | ConstraintKey::Billing => {}
        }
        c
    }
}

/// One evaluated mix.
#[derive(Debug, Clone, PartialEq)]
pub struct Candidate {
    /// Base pool: template id and size (servers for owned, accelerators for reserved).
    pub base: Option<(String, u32)>,
    /// Whether the mix has the on-demand pool.
    pub on_demand: bool,
    /// Whether the mix has the spot pool.
    pub spot: bool,
    /// The mix as the option that was evaluated.
    pub option: OptionSpec,
    /// Nominal total over the horizon, in the scenario's currency.
    pub total_nominal: f64,
    /// NPV, in the scenario's currency.
    pub total_npv: f64,
    /// Spend by pool: base, on demand, spot (shares of the compute spend).
    pub shares: [f64; 3],
    /// P90 NPV across simulated trials; set only on a mix checked against a P90 budget.
    pub p90_npv: Option<f64>,
}

/// What the optimiser found.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    /// The cheapest mix that meets the constraints.
    Chosen(Box<Optimised>),
    /// No mix meets the constraints; the reason names them.
    Infeasible {
        /// Each template the constraints excluded, with the constraint that did;
        /// `(all candidates)` when the P90 budget excluded every mix.
        reasons: Vec<(String, ConstraintKey)>,
    },
}

/// The chosen mix, the pure strategies it is compared with, and the constraints that bind.
#[derive(Debug, Clone, PartialEq)]
pub struct Optimised {
    /// The cheapest mix by NPV that meets the constraints.
    pub chosen: Candidate,
    /// The best pure strategies the same pools allow (all on demand, all
    /// base sized to the peak, all spot) that meet the constraints.
    pub pure: Vec<(String, Candidate)>,
    /// Constraints whose removal would lower the cost.
    pub binding: Vec<ConstraintKey>,
    /// Templates the constraints excluded, and why.
    pub excluded: Vec<(String, ConstraintKey)>,
}

/// Which templates survive the constraints.
fn eligible(
    s: &Scenario,
    id: &Option<String>,
    c: &Constraints,
    excluded: &mut Vec<(String, ConstraintKey)>,
) -> Option<usize> {
    let index = s.options.iter().position(|o| Some(&o.id) == id.as_ref())?;
    let o = &s.options[index];
    let start = {
        let lead = o.owned.as_ref().map_or(0.0, |p| {
            o.supply.as_ref().and_then(|s| s.lead_time_months).map_or(f64::from(p.lead_time_months), |t| t[1])
        });
        let port = match (&s.porting, &o.porting) {
            (Some(a), Some(p)) => crate::porting::porting(a, p, 1.0).delay_months.ceil(),
            _ => 0.0,
        };
        lead.max(port)
    };
    let fails = [
        (c.deadline_months.is_some_and(|d| start > d), ConstraintKey::Deadline),
        (c.domestic_only && o.domestic != Some(true), ConstraintKey::DomesticOnly),
        (
            c.provider_country
                .as_ref()
                .is_some_and(|want| !o.provider_country.as_ref().is_some_and(|have| have.eq_ignore_ascii_case(want))),
            ConstraintKey::ProviderCountry,
        ),
        (
            c.required_security.iter().any(|need| !o.security.iter().any(|have| have.eq_ignore_ascii_case(need))),
            ConstraintKey::Security,
        ),
        (
            c.max_supply_score.is_some_and(|cap| {
                o.supply
                    .as_ref()
                    .map(|sup| crate::supply::score(sup, o.spot.as_ref().map(|p| p.availability)).score)
                    .is_none_or(|score| score > cap)
            }),
            ConstraintKey::SupplyScore,
        ),
    ];
    match fails.iter().find(|(failed, _)| *failed) {
        Some((_, key)) => {
            excluded.push((o.id.clone(), *key));
            None
        }
        None => Some(index),
    }
}

/// Base sizes tried at most (about): every size up to the peak, thinned to
/// this many steps, so a step is at most 0.5 % of the peak. An assumption
/// that bounds the search's time.
const SIZE_STEPS: u32 = 200;

/// Candidates, cheapest first, whose P90 is simulated against a P90 budget
/// before the search gives up. An assumption that bounds the search's time.
const P90_CANDIDATES: usize = 25;

/// Trials (and the fixed seed) of each candidate's P90 check: the same
/// answer every run. An assumption that trades precision for time; the
/// P90 of 1,000 trials is itself uncertain, by an amount not measured here.
const P90_CONFIG: SimulationConfig = SimulationConfig { trials: 1000, seed: 0x5EED, threads: 1 };

/// Work left undone, as a share of the work served, below which a
/// candidate counts as doing all of it (rounding, not shortfall).
const UNSERVED_TOLERANCE: f64 = 1e-6;

/// Base sizes to try: every size up to the peak, thinned to about [`SIZE_STEPS`] steps.
fn sizes(peak_accelerators: f64, per_unit: u32) -> Vec<u32> {
    let max_units = (peak_accelerators / f64::from(per_unit.max(1))).ceil().max(1.0) as u32;
    let step = (max_units / SIZE_STEPS).max(1);
    let mut v: Vec<u32> = (1..=max_units).step_by(step as usize).collect();
    if v.last() != Some(&max_units) {
        v.push(max_units);
    }
    v
}

/// A candidate's shape: base size (if any), with on demand, with spot.
type Shape = (Option<u32>, bool, bool);

/// Finds the cheapest mix by NPV under the constraints.
pub fn optimise(s: &Checked<Scenario>) -> Result<Outcome, Vec<InputError>> {
    let Some(spec) = s.optimise.clone() else {
        return Err(vec![InputError::missing("optimise", Rule::NeedsSection { section: "optimise".into() })]);
    };
    let params = s.ranges();
    let outcome = search(s, &spec, &spec.constraints, params)?;
    let Outcome::Chosen(mut best) = outcome else { return Ok(outcome) };
    for key in ConstraintKey::active(&spec.constraints) {
        let looser = key.remove(&spec.constraints);
        if let Outcome::Chosen(other) = search(s, &spec, &looser, params)?
            && other.chosen.total_npv < best.chosen.total_npv - 1e-6 * best.chosen.total_npv.abs().max(1.0)
        {
            best.binding.push(key);
        }
    }
    Ok(Outcome::Chosen(best))
}

fn search(
    s: &Scenario,
    spec: &OptimiseSpec,
    c: &Constraints,
    params: &[(Param, crate::scenario::Distribution)],
) -> Result<Outcome, Vec<InputError>> {
    let mut excluded = Vec::new();
    let base = eligible(s, &spec.base, c, &mut excluded);
    let od = eligible(s, &spec.on_demand, c, &mut excluded);
    let spot = eligible(s, &spec.spot, c, &mut excluded);

    // Peak demand in accelerators of the base pool.
    let prepared = crate::demand::prepare(s);
    let peak_ref = match &prepared {
        crate::demand::Prepared::Shared { months, .. } => months.iter().map(|m| m.peak()).fold(0.0, f64::max),
        crate::demand::Prepared::Job { .. } => 0.0,
    };

    let shapes = shapes(s, base, od, spot, peak_ref);
    let pools = Pools { base, od, spot };
    let mut built: Vec<(Shape, OptionSpec)> = Vec::new();
    for (n, shape) in shapes.iter().enumerate() {
        if let Some(o) = candidate_option(s, pools, *shape, n) {
            built.push((*shape, o));
        }
    }
    let reasons = || excluded.iter().map(|(id, k)| (id.clone(), *k)).collect::<Vec<_>>();
    if built.is_empty() {
        return Ok(Outcome::Infeasible { reasons: reasons() });
    }
    let mut trial = (*s).clone();
    trial.optimise = None;
    trial.uncertainty.clear();
    trial.options = built.iter().map(|(_, o)| o.clone()).collect();
    let trial = match Checked::derived(trial) {
        Ok(t) => t,
        // A candidate whose figures leave the bound is reported, with the
        // templates it was built from, not taken for an infeasible mix.
        Err(errors) if errors.iter().any(|e| matches!(e.rule, Rule::FigureBeyondBound { .. })) => {
            let templates: Vec<&str> =
                [&spec.base, &spec.on_demand, &spec.spot].into_iter().flatten().map(String::as_str).collect();
            return Err(errors
                .into_iter()
                .map(|e| InputError::new("optimise", format!("{templates:?}"), e.rule))
                .collect());
        }
        Err(_) => return Ok(Outcome::Infeasible { reasons: reasons() }),
    };
    let mut candidates: Vec<Candidate> = priced(built, trial.into_evaluation().options, spec);
    candidates.sort_by(|a, b| a.total_npv.total_cmp(&b.total_npv));
    if candidates.is_empty() {
        return Ok(Outcome::Infeasible { reasons: reasons() });
    }

    // The P90 budget: check candidates from the cheapest up.
    let chosen = match c.max_p90_npv {
        None => Some(candidates[0].clone()),
        Some(cap) => {
            let mut found = None;
            for cand in candidates.iter().take(P90_CANDIDATES) {
                let p90 = p90_npv(s, &spec.base, &spec.on_demand, &spec.spot, cand, params);
                if p90 <= cap {
                    let mut c = cand.clone();
                    c.p90_npv = Some(p90);
                    found = Some(c);
                    break;
                }
            }
            found
        }
    };
    let Some(chosen) = chosen else {
        let mut r = reasons();
        r.push(("(all candidates)".to_owned(), ConstraintKey::P90));
        return Ok(Outcome::Infeasible { reasons: r });
    };
    let pure_of = |name: &str, test: &dyn Fn(&Candidate) -> bool| {
        candidates.iter().find(|c| test(c)).map(|c| (name.to_owned(), c.clone()))
    };
    let max_size = candidates.iter().filter_map(|c| c.base.as_ref().map(|b| b.1)).max();
    let pure = [
        pure_of("all_on_demand", &|c| c.base.is_none() && c.on_demand && !c.spot),
        pure_of("all_base", &|c| c.base.as_ref().map(|b| b.1) == max_size && !c.on_demand && !c.spot),
        pure_of("all_spot", &|c| c.base.is_none() && c.spot),
    ]
    .into_iter()
    .flatten()
    .collect();
    Ok(Outcome::Chosen(Box::new(Optimised { chosen, pure, binding: Vec::new(), excluded })))
}

/// The eligible templates of each pool (their index in the scenario).
#[derive(Clone, Copy)]
struct Pools {
    base: Option<usize>,
    od: Option<usize>,
    spot: Option<usize>,
}

/// Every shape to try: each base size with or without on-demand and spot
/// top-up, then the pure rental shapes.
fn shapes(s: &Scenario, base: Option<usize>, od: Option<usize>, spot: Option<usize>, peak_ref: f64) -> Vec<Shape> {
    let mut shapes: Vec<Shape> = Vec::new();
    let base_unit = base.map(|i| s.options[i].owned.as_ref().map_or(1, |p| p.accelerators_per_server.max(1)));
    if let (Some(bi), Some(unit)) = (base, base_unit) {
        let eff = s.options[bi].efficiency_ratio.unwrap_or(1.0).max(1e-9);
        for size in sizes(peak_ref / eff, unit) {
            for (with_od, with_spot) in [(true, true), (true, false), (false, true), (false, false)] {
                if (with_od && od.is_none()) || (with_spot && spot.is_none()) {
                    continue;
                }
                shapes.push((Some(size), with_od, with_spot));
            }
        }
    }
    for (with_od, with_spot) in [(true, false), (true, true), (false, true)] {
        let available = (!with_od || od.is_some()) && (!with_spot || spot.is_some());
        if available && (with_od || with_spot) {
            shapes.push((None, with_od, with_spot));
        }
    }
    shapes
}

/// A shape as an option: the templates' pools, sized; `None` when the shape
/// needs a pool it lacks, or spot with interruptions and no on-demand cover.
fn candidate_option(s: &Scenario, pools: Pools, (size, with_od, with_spot): Shape, n: usize) -> Option<OptionSpec> {
    let Pools { base, od, spot } = pools;
    let mut o = OptionSpec::bare(format!("candidate-{n}"), OptionKind::Mix);
    // Each pool keeps its template's efficiency.
    let eff = |i: usize| s.options[i].efficiency_ratio;
    if let (Some(size), Some(bi)) = (size, base) {
        let t = &s.options[bi];
        if let Some(mut p) = t.owned.clone() {
            p.servers = size;
            p.efficiency_ratio = p.efficiency_ratio.or(eff(bi));
            o.owned = Some(p);
        } else if let Some(mut p) = t.reserved.clone() {
            p.accelerators = Some(size);
            p.efficiency_ratio = p.efficiency_ratio.or(eff(bi));
            o.reserved = Some(p);
        }
    }
    if with_od {
        let i = od?;
        let mut p = s.options[i].on_demand.clone()?;
        p.efficiency_ratio = p.efficiency_ratio.or(eff(i));
        o.on_demand = Some(p);
    }
    if with_spot {
        let i = spot?;
        let mut p = s.options[i].spot.clone()?;
        p.efficiency_ratio = p.efficiency_ratio.or(eff(i));
        if p.availability < 1.0 && o.on_demand.is_none() {
            return None;
        }
        o.spot = Some(p);
    }
    // A single pool is a plain buy or rent option; several make a mix.
    match (o.owned.is_some(), o.reserved.is_some(), o.on_demand.is_some(), o.spot.is_some()) {
        (true, false, false, false) => o.kind = OptionKind::Buy,
        (false, true, false, false) => (o.kind, o.billing) = (OptionKind::Rent, Some(Billing::Reserved)),
        (false, false, true, false) => (o.kind, o.billing) = (OptionKind::Rent, Some(Billing::OnDemand)),
        (false, false, false, true) => (o.kind, o.billing) = (OptionKind::Rent, Some(Billing::Spot)),
        _ => {}
    }
    Some(o)
}

/// The candidates that do all the work, with their totals and the share of
/// spend in each pool.
fn priced(built: Vec<(Shape, OptionSpec)>, results: Vec<crate::OptionResult>, spec: &OptimiseSpec) -> Vec<Candidate> {
    built
        .into_iter()
        .zip(results)
        .filter(|(_, r)| r.ref_gpu_hours_unserved <= UNSERVED_TOLERANCE * r.ref_gpu_hours_served.max(1.0))
        .map(|(((size, with_od, with_spot), option), r)| {
            use crate::Category as C;
            let base_spend = r.breakdown(C::Reserved)
                + [
                    C::Hardware,
                    C::Installation,
                    C::Hosting,
                    C::Power,
                    C::Staff,
                    C::Maintenance,
                    C::OtherOpex,
                    C::ResidualValue,
                ]
                .iter()
                .map(|c| r.breakdown(*c))
                .sum::<f64>();
            let spend = [base_spend, r.breakdown(C::OnDemand), r.breakdown(C::Spot)];
            let total: f64 = spend.iter().sum::<f64>().max(1e-9);
            Candidate {
                base: size.zip(spec.base.clone()).map(|(n, id)| (id, n)),
                on_demand: with_od,
                spot: with_spot,
                option,
                total_nominal: r.total_nominal,
                total_npv: r.total_npv,
                shares: spend.map(|x| x / total),
                p90_npv: None,
            }
        })
        .collect()
}

/// P90 NPV of a candidate under the scenario's uncertainty, with the
/// template pools' uncertain inputs carried over to the candidate.
fn p90_npv(
    s: &Scenario,
    base: &Option<String>,
    od: &Option<String>,
    spot: &Option<String>,
    cand: &Candidate,
    params: &[(Param, crate::scenario::Distribution)],
) -> f64 {
    let mut one = s.clone();
    one.optimise = None;
    let mut option = cand.option.clone();
    option.id = "candidate".into();
    one.options = vec![option];
    let carried = |index: usize, template: &Option<String>, has_pool: bool, pool: &str, field: &str, u: &Uncertain| {
        (template.as_ref() == Some(&s.options[index].id) && has_pool).then(|| Uncertain {
            path: format!("options.candidate.{pool}.{field}"),
            range: u.range,
            source: u.source.clone(),
        })
    };
    let c = &cand.option;
    one.uncertainty = s
        .uncertainty
        .iter()
        .zip(params)
        .filter_map(|(u, (p, _))| match *p {
            Param::Owned { index, field } => carried(index, base, c.owned.is_some(), "owned", field.name(), u),
            Param::Rental { index, pool, field } => {
                let (template, has_pool) = match pool {
                    RentalPool::Reserved => (base, c.reserved.is_some()),
                    RentalPool::OnDemand => (od, c.on_demand.is_some()),
                    RentalPool::Spot => (spot, c.spot.is_some()),
                };
                carried(index, template, has_pool, pool.name(), field.name(), u)
            }
            Param::DemandScale | Param::DiscountRate | Param::Fx(_) => Some(u.clone()),
            Param::Porting(_) | Param::Option { .. } => None,
        })
        .collect();
    Checked::new(one)
        .and_then(|one| crate::uncertainty::simulate(&one, P90_CONFIG, &|_| {}))
        .map_or(f64::INFINITY, |sim| sim.options[0].npv.p90)
}

/// The decision in words.
pub fn explain(o: &Optimised, lang: Lang) -> Vec<String> {
    let c = &o.chosen;
    let zh = lang == Lang::Zh;
    let pct = |x: f64| crate::format_percent(x, 0);
    let mut lines = Vec::new();
    match (&c.base, zh) {
        (Some((id, n)), false) => lines.push(format!(
            "Base: {n} {} from {id} carries the steady load ({} of spend).",
            if c.option.owned.is_some() { "servers" } else { "reserved accelerators" },
            pct(c.shares[0])
        )),
        (Some((id, n)), true) => lines.push(format!(
            "基础负载：采用 {id} 的 {n} {}（占支出 {}）。",
            if c.option.owned.is_some() { "台服务器" } else { "张预留加速卡" },
            pct(c.shares[0])
        )),
        (None, false) => lines.push("No base capacity: holding any costs more than it saves.".into()),
        (None, true) => lines.push("不保留基础容量：任何基础容量的成本都高于其节省。".into()),
    }
    if c.on_demand {
        lines.push(if zh {
            format!("波峰按需租用（占支出 {}）。", pct(c.shares[1]))
        } else {
            format!("Peaks above the base run on demand ({} of spend).", pct(c.shares[1]))
        });
    }
    if c.spot {
        lines.push(if zh {
            format!("低优先级任务使用竞价实例（占支出 {}）。", pct(c.shares[2]))
        } else {
            format!("Low-priority work runs on spot ({} of spend).", pct(c.shares[2]))
        });
    }
    for (name, p) in &o.pure {
        let saving = 1.0 - c.total_npv / p.total_npv;
        let label = match (name.as_str(), zh) {
            ("all_on_demand", false) => "all on demand",
            ("all_on_demand", true) => "全部按需",
            ("all_base", false) => "all base capacity",
            ("all_base", true) => "全部基础容量",
            (_, false) => "all spot",
            (_, true) => "全部竞价",
        };
        lines.push(if zh {
            format!("与{label}相比，净现值低 {}。", pct(saving))
        } else {
            format!("Against {label}: NPV {} lower.", pct(saving))
        });
    }
    for key in &o.binding {
        lines.push(if zh {
            format!("约束“{}”起作用：去掉它成本会更低。", key.label(lang))
        } else {
            format!("The {} binds: without it the cost would be lower.", key.label(lang))
        });
    }
    lines
}

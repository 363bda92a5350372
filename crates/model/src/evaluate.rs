//! From a scenario to monthly cash flows per option.
//!
//! Every option is a set of pools (owned, reserved, on demand, spot). The
//! demand, in reference-GPU-hours, flows into the pools month by month; a
//! pool turns reference-GPU-hours into its own accelerator-hours through
//! its efficiency (ratio × scaling × achieved share × generation refresh),
//! and accelerator-hours or capacity into money.

use crate::checked::Checked;
use crate::demand::{self, MonthDemand, Tier};
use crate::finance;
use crate::result::{Category, Evaluation, MemoryFit, MonthFlows, Note, OptionResult};
use crate::scenario::*;

/// Evaluates every option of a checked scenario. The evaluation was made,
/// and its figures checked, when the scenario was checked: this cannot fail.
pub fn evaluate(s: &Checked<Scenario>) -> Evaluation {
    s.evaluation().clone()
}

/// The evaluation [`Checked`] makes and checks (rules already passed).
pub(crate) fn evaluate_unchecked(s: &Scenario) -> Evaluation {
    let mut e = evaluate_totals(s);
    finance::attach_break_even(&mut e.options);
    e
}

/// Everything but break-even (which compares options pairwise): what a
/// simulation trial needs.
pub(crate) fn evaluate_totals(s: &Scenario) -> Evaluation {
    evaluate_prepared(s, &demand::prepare(s), 1.0)
}

/// As [`evaluate_totals`], with the demand already prepared and scaled by
/// `demand_scale` (a simulation prepares it once for all trials).
pub(crate) fn evaluate_prepared(s: &Scenario, prepared: &demand::Prepared, demand_scale: f64) -> Evaluation {
    let ctx = Context::new(s, demand_scale);
    let options: Vec<OptionResult> = s.options.iter().map(|o| evaluate_option(&ctx, prepared, o)).collect();
    Evaluation {
        scenario_name: s.name.clone(),
        currency: s.currency,
        horizon_months: s.horizon_months,
        demand_ref_gpu_hours: prepared.total_ref_gpu_hours() * demand_scale,
        options,
    }
}

/// Scenario-wide facts every option needs.
struct Context<'a> {
    s: &'a Scenario,
    horizon: usize,
    discount: Vec<f64>,
    /// Demand × this (a simulation's `demand.scale`; 1 otherwise).
    demand_scale: f64,
}

impl<'a> Context<'a> {
    fn new(s: &'a Scenario, demand_scale: f64) -> Self {
        let horizon = s.horizon_months as usize;
        Context { s, horizon, discount: finance::discount_factors(s.discount_rate_annual, horizon), demand_scale }
    }

    /// Scenario-currency units per unit of `c`.
    fn fx(&self, c: Option<crate::Currency>) -> f64 {
        match c {
            Some(c) if c != self.s.currency => self.s.fx.get(&c).copied().unwrap_or(f64::NAN),
            _ => 1.0,
        }
    }

    /// Number of refreshes a rental pool has had by month `m`.
    fn refreshes(&self, m: usize) -> i32 {
        let r = &self.s.refresh;
        if r.enabled { (m / r.interval_months.max(1) as usize) as i32 } else { 0 }
    }

    fn rental_perf(&self, m: usize) -> f64 {
        self.s.refresh.performance_uplift.powi(self.refreshes(m))
    }

    fn rental_price(&self, m: usize) -> f64 {
        self.s.refresh.price_factor.powi(self.refreshes(m))
    }

    /// Scaling efficiency of an option at a cluster size.
    fn scaling(&self, o: &OptionSpec, accelerators: u32) -> f64 {
        if let Some(s) = o.scaling_efficiency {
            return s;
        }
        o.interconnect
            .as_ref()
            .and_then(|id| self.s.scaling_curves.iter().find(|c| &c.id == id))
            .map_or(1.0, |c| scaling_at(c, f64::from(accelerators)))
    }
}

/// Scaling efficiency interpolated linearly in log2(accelerators), flat
/// beyond the first and last points.
pub fn scaling_at(curve: &ScalingCurve, accelerators: f64) -> f64 {
    let points = &curve.points;
    let Some(first) = points.first() else { return 1.0 };
    if accelerators <= first.0 {
        return first.1;
    }
    for pair in points.windows(2) {
        let ((n0, e0), (n1, e1)) = (pair[0], pair[1]);
        if accelerators <= n1 {
            let t = (accelerators.log2() - n0.log2()) / (n1.log2() - n0.log2());
            return e0 + t * (e1 - e0);
        }
    }
    points.last().map_or(1.0, |p| p.1)
}

/// A rental pool resolved to scenario currency and efficiency at month 0.
#[derive(Clone, Copy)]
struct Rental {
    price: f64,
    eff: f64,
}

impl Rental {
    fn price_at(self, ctx: &Context<'_>, m: usize) -> f64 {
        self.price * ctx.rental_price(m)
    }
    fn eff_at(self, ctx: &Context<'_>, m: usize) -> f64 {
        self.eff * ctx.rental_perf(m)
    }
}

struct Pools {
    owned: Option<(OwnedPool, f64)>,
    reserved: Option<(ReservedPool, Rental)>,
    on_demand: Option<Rental>,
    spot: Option<(SpotPool, Rental)>,
}

fn resolve_pools(ctx: &Context<'_>, o: &OptionSpec, cluster: u32) -> Pools {
    let base_eff =
        |e: Option<f64>, n: u32| e.or(o.efficiency_ratio).unwrap_or(1.0) * ctx.scaling(o, n) * o.achieved_share;
    let rental = |price: Option<f64>, cur, e: Option<f64>| Rental {
        price: price.unwrap_or(0.0) * ctx.fx(cur),
        eff: base_eff(e, cluster),
    };
    Pools {
        owned: o.owned.clone().map(|p| {
            // An owned fleet runs a job on all its accelerators; a profile's
            // jobs on clusters of the demand's size.
            let eff = base_eff(p.efficiency_ratio, cluster);
            (p, eff)
        }),
        reserved: o
            .reserved
            .clone()
            .map(|p| (p.clone(), rental(p.price_per_accel_hour, p.currency, p.efficiency_ratio))),
        on_demand: o.on_demand.as_ref().map(|p| rental(p.price_per_accel_hour, p.currency, p.efficiency_ratio)),
        spot: o.spot.clone().map(|p| (p.clone(), rental(p.price_per_accel_hour, p.currency, p.efficiency_ratio))),
    }
}

fn evaluate_option(ctx: &Context<'_>, prepared: &demand::Prepared, o: &OptionSpec) -> OptionResult {
    let porting = match (&ctx.s.porting, &o.porting) {
        (Some(a), Some(p)) => Some(crate::porting::porting(a, p, ctx.fx(a.currency))),
        _ => None,
    };
    // The workload runs on the option's accelerators only once it is ported
    // (delay rounded up to whole months).
    let start = porting.as_ref().map_or(0, |p| p.delay_months.ceil() as usize);
    let mut run = match prepared {
        demand::Prepared::Job { job, work } => run_job(ctx, o, job, *work * ctx.demand_scale, start),
        demand::Prepared::Shared { months, cluster } => run_shared(ctx, o, months, *cluster, start),
    };
    if let Some(p) = &porting {
        add_porting(p, start, &mut run);
    }
    add_storage_and_edge(ctx, o, &mut run);

    let total_nominal: f64 = run.flows.iter().map(MonthFlows::total).sum();
    let total_npv = run.flows.iter().zip(&ctx.discount).map(|(f, d)| f.total() * d).sum();
    let compute: f64 = run.flows.iter().map(MonthFlows::compute_total).sum();
    if run.unserved > 1e-6 {
        run.notes.push(Note::Unserved { ref_gpu_hours: run.unserved });
    }
    let memory_fit = memory_fit(ctx.s, o);
    if let Some(f) = memory_fit.filter(|f| !f.fits()) {
        run.notes.push(Note::DoesNotFit {
            min_accelerators: f.min_accelerators,
            available: f.available,
            memory_gb: f.memory_gb_per_accelerator,
        });
    }
    let cost_per_million_tokens = match &ctx.s.demand {
        Demand::Inference(d) => d.tokens_per_second_per_ref_gpu.and_then(|tps| {
            let tokens = (run.served - run.bridged) * tps * 3600.0;
            (tokens > 0.0).then(|| compute / tokens * 1e6)
        }),
        _ => None,
    };
    let demand = run.served + run.unserved;
    if run.unserved > 1e-6 * demand.max(1.0) {
        let done_share = if demand > 0.0 { run.served / demand } else { 0.0 };
        run.notes.push(Note::RankedApart { done_share, ref_gpu_hours: run.unserved });
    }
    let latency_ms = ctx.s.edge.as_ref().and_then(|e| match o.edge {
        EdgeMode::None => None,
        EdgeMode::Raw => e.latency_ms_raw,
        EdgeMode::Features => e.latency_ms_features,
    });
    OptionResult {
        id: o.id.clone(),
        label: if o.label.is_empty() { o.id.clone() } else { o.label.clone() },
        kind: o.kind,
        currency: ctx.s.currency,
        total_nominal,
        total_npv,
        monthly: run.flows,
        ref_gpu_hours_served: run.served,
        ref_gpu_hours_unserved: run.unserved,
        accelerator_hours: run.accelerator_hours,
        effective_price_per_ref_gpu_hour: (run.served - run.bridged > 0.0)
            .then(|| compute / (run.served - run.bridged)),
        all_in_per_ref_gpu_hour: (run.served > 0.0).then(|| total_nominal / run.served),
        owned_utilisation: run.owned_utilisation,
        time_to_complete_months: run.time_to_complete,
        completes_within_horizon: run.completes,
        meets_deadline: run.meets_deadline,
        break_even: None,
        latency_ms,
        notes: run.notes,
        supply: o.supply.as_ref().map(|sup| crate::supply::score(sup, o.spot.as_ref().map(|p| p.availability))),
        porting,
        memory_fit,
        cost_per_million_tokens,
    }
}

/// The accelerators an option runs one job or serving replica on.
fn accelerators_per_run(s: &Scenario, o: &OptionSpec) -> u32 {
    if let Some(p) = &o.owned {
        return p.servers * p.accelerators_per_server;
    }
    let cluster = match &s.demand {
        Demand::Job(j) => j.cluster_accelerators,
        Demand::Profile(p) => p.cluster_accelerators,
        Demand::Portfolio(p) => p.cluster_accelerators,
        Demand::Inference(d) => d.cluster_accelerators,
    };
    match (&o.reserved, s.demand_is_job()) {
        (Some(r), true) => r.accelerators.unwrap_or(cluster),
        _ => cluster,
    }
}

/// Whether the scenario's model fits the option's accelerators.
fn memory_fit(s: &Scenario, o: &OptionSpec) -> Option<MemoryFit> {
    let memory = o.memory_gb_per_accelerator?;
    let min_accelerators = match &s.demand {
        Demand::Job(j) => crate::fit::training_min_accelerators(
            j.parameters?,
            j.precision.unwrap_or_default(),
            j.sharding.unwrap_or_default(),
            memory,
        ),
        Demand::Inference(d) => crate::fit::inference_min_accelerators(
            d.parameters,
            d.precision,
            crate::inference::kv_bytes_per_token(d) * d.context_tokens,
            memory,
        ),
        _ => return None,
    };
    Some(MemoryFit { min_accelerators, available: accelerators_per_run(s, o), memory_gb_per_accelerator: memory })
}

/// Porting engineers are paid while they port; upkeep follows every month after.
fn add_porting(p: &crate::porting::PortingResult, start: usize, run: &mut Run) {
    let porting_months = start.max(1);
    for flows in run.flows.iter_mut().take(porting_months) {
        flows.add(Category::Porting, p.cost / porting_months as f64);
    }
    for flows in run.flows.iter_mut().skip(start) {
        flows.add(Category::PortingMaintenance, p.maintenance_per_year / 12.0);
    }
}

/// What running one option produced, before totals.
struct Run {
    flows: Vec<MonthFlows>,
    served: f64,
    /// Of `served`, the hours the incumbent carried during a port.
    bridged: f64,
    unserved: f64,
    accelerator_hours: f64,
    owned_utilisation: Option<f64>,
    time_to_complete: Option<f64>,
    completes: Option<bool>,
    meets_deadline: Option<bool>,
    notes: Vec<Note>,
}

impl Run {
    fn new(horizon: usize) -> Self {
        Run {
            flows: vec![MonthFlows::default(); horizon],
            served: 0.0,
            bridged: 0.0,
            unserved: 0.0,
            accelerator_hours: 0.0,
            owned_utilisation: None,
            time_to_complete: None,
            completes: None,
            meets_deadline: None,
            notes: Vec::new(),
        }
    }
}

// ---------------------------------------------------------------- a job

/// Runs a single job on the option's cluster until its work is done.
fn run_job(ctx: &Context<'_>, o: &OptionSpec, job: &Job, work: f64, ported_from: usize) -> Run {
    let horizon = ctx.horizon;
    let mut run = Run::new(horizon);
    let hours_per_month = job.run_hours_per_day * DAYS_PER_MONTH;

    match o.kind {
        OptionKind::Buy => {
            let Some(owned) = &o.owned else { return run };
            let accelerators = owned.servers * owned.accelerators_per_server;
            let pools = resolve_pools(ctx, o, accelerators);
            let eff = pools.owned.as_ref().map_or(1.0, |p| p.1);
            let start = (owned.lead_time_months as usize).max(ported_from);
            let capacity = f64::from(accelerators) * hours_per_month;
            let fill = fill_job(work, start, horizon, |_| (capacity, eff));
            owned_costs(ctx, owned, &fill.accel_hours, &mut run);
            run.accelerator_hours = fill.accel_hours.iter().sum();
            run.served = fill.served;
            job_timing(&mut run, &fill, job, work);
        }
        OptionKind::Rent => {
            let cluster = job.cluster_accelerators;
            let pools = resolve_pools(ctx, o, cluster);
            let capacity = f64::from(cluster) * hours_per_month;
            match o.billing {
                Some(Billing::OnDemand) => {
                    let Some(od) = pools.on_demand else { return run };
                    let fill = fill_job(work, ported_from, horizon, |m| (capacity, od.eff_at(ctx, m)));
                    for (m, h) in fill.accel_hours.iter().enumerate() {
                        run.flows[m].add(Category::OnDemand, h * od.price_at(ctx, m));
                    }
                    run.accelerator_hours = fill.accel_hours.iter().sum();
                    run.served = fill.served;
                    job_timing(&mut run, &fill, job, work);
                }
                Some(Billing::Spot) => {
                    let Some((spot, sp)) = pools.spot else { return run };
                    let od = pools.on_demand.unwrap_or(sp);
                    // Of every useful accelerator-hour, `a` runs on spot with
                    // the interruption waste, `1 − a` falls back to on demand.
                    let a = spot.availability;
                    let spot_hours_per_useful = a * (1.0 + spot.interruption_overhead);
                    let cluster_hours_per_useful = spot_hours_per_useful + (1.0 - a);
                    let fill = fill_job(work, ported_from, horizon, |m| {
                        (capacity, sp.eff_at(ctx, m) / cluster_hours_per_useful)
                    });
                    for (m, h) in fill.accel_hours.iter().enumerate() {
                        let useful = h / cluster_hours_per_useful;
                        run.flows[m].add(Category::Spot, useful * spot_hours_per_useful * sp.price_at(ctx, m));
                        run.flows[m].add(Category::OnDemand, useful * (1.0 - a) * od.price_at(ctx, m));
                    }
                    run.accelerator_hours = fill.accel_hours.iter().sum();
                    run.served = fill.served;
                    job_timing(&mut run, &fill, job, work);
                }
                Some(Billing::Reserved) => {
                    let Some((res, rp)) = pools.reserved else { return run };
                    let committed = res.accelerators.unwrap_or(cluster);
                    let capacity = f64::from(committed) * hours_per_month;
                    let term = res.term_months.max(1) as usize;
                    let first = ported_from;
                    let fill = fill_job(work, first, horizon, |m| (capacity, rp.eff_at(ctx, m - (m - first) % term)));
                    // Terms renew until the job is done.
                    let committed_months = match fill.done_month {
                        Some(m) => ((m - first) / term + 1) * term,
                        None => horizon.saturating_sub(first).div_ceil(term) * term,
                    };
                    reserved_costs(ctx, &res, rp, committed, first, committed_months, &mut run);
                    run.accelerator_hours = fill.accel_hours.iter().sum();
                    run.served = fill.served;
                    job_timing(&mut run, &fill, job, work);
                }
                None => {}
            }
        }
        OptionKind::Mix => {}
    }
    run
}

struct JobFill {
    accel_hours: Vec<f64>,
    served: f64,
    /// Month in which the work finished, if within the horizon.
    done_month: Option<usize>,
    time_to_complete: f64,
}

/// Fills months from `start` with the job's work; `rate(m)` gives the
/// accelerator-hours available in month m and the reference-GPU-hours each
/// of them delivers.
fn fill_job(work: f64, start: usize, horizon: usize, rate: impl Fn(usize) -> (f64, f64)) -> JobFill {
    let mut accel_hours = vec![0.0; horizon];
    let mut remaining = work;
    let mut done_month = None;
    let mut time_to_complete = None;
    for (m, slot) in accel_hours.iter_mut().enumerate().skip(start) {
        let (capacity, ref_per_hour) = rate(m);
        let deliverable = capacity * ref_per_hour;
        if deliverable <= 0.0 {
            continue;
        }
        if remaining <= deliverable {
            *slot = remaining / ref_per_hour;
            time_to_complete = Some(m as f64 + remaining / deliverable);
            done_month = Some(m);
            remaining = 0.0;
            break;
        }
        *slot = capacity;
        remaining -= deliverable;
    }
    let time_to_complete = time_to_complete.unwrap_or_else(|| {
        // Not done within the horizon: extrapolate at the last rate.
        let from = start.max(horizon);
        let (capacity, ref_per_hour) = rate(from.saturating_sub(1).max(start));
        from as f64 + remaining / (capacity * ref_per_hour)
    });
    JobFill { accel_hours, served: work - remaining, done_month, time_to_complete }
}

fn job_timing(run: &mut Run, fill: &JobFill, job: &Job, work: f64) {
    run.time_to_complete = Some(fill.time_to_complete);
    let done = fill.done_month.is_some();
    run.completes = Some(done);
    run.unserved = work - fill.served;
    if !done {
        run.notes.push(Note::JobNotDone);
    }
    run.meets_deadline = job.deadline_months.map(|d| fill.time_to_complete <= d + 1e-9);
}

// ------------------------------------------------- a profile or portfolio

/// Serves a month-by-month demand, routing each priority tier through the
/// option's pools.
fn run_shared(ctx: &Context<'_>, o: &OptionSpec, months: &[MonthDemand], cluster: u32, ported_from: usize) -> Run {
    let horizon = ctx.horizon;
    let mut run = Run::new(horizon);
    let pools = resolve_pools(ctx, o, cluster);
    let rule = &ctx.s.scheduling;

    // The base pool and its size, in accelerators.
    let term = pools.reserved.as_ref().map_or(1, |(r, _)| r.term_months.max(1) as usize);
    // Commitments start when the workload can run; each term takes the
    // generation current at its start.
    let reserved_eff_at = |rp: Rental, m: usize| rp.eff_at(ctx, m - m.saturating_sub(ported_from) % term);
    let reserved_size = pools.reserved.as_ref().map(|(r, rp)| {
        r.accelerators.unwrap_or_else(|| {
            // Sized to the peak of the whole demand.
            let peak = months
                .iter()
                .enumerate()
                .map(|(m, d)| d.peak() * ctx.demand_scale / reserved_eff_at(*rp, m))
                .fold(0.0, f64::max);
            (peak - 1e-9).ceil().max(1.0) as u32
        })
    });
    let owned_accels = pools.owned.as_ref().map(|(p, _)| p.servers * p.accelerators_per_server);
    let delivery = o.owned.as_ref().map_or(0, |p| p.lead_time_months as usize).max(ported_from);
    let bridge = ctx.s.porting.as_ref().and_then(|p| p.bridge_price_per_ref_gpu_hour.map(|b| b * ctx.fx(p.currency)));

    let mut owned_used = vec![0.0; horizon];
    let mut free = Vec::new();
    let has_base = pools.owned.is_some() || pools.reserved.is_some();
    for (m, month) in months.iter().enumerate() {
        if m < ported_from {
            // Not ported yet: the incumbent carries the demand, or nobody does.
            let hours = month.ref_gpu_hours() * ctx.demand_scale;
            match bridge {
                Some(price) => {
                    run.served += hours;
                    run.bridged += hours;
                    run.flows[m].add(Category::Bridge, hours * price);
                }
                None => run.unserved += hours,
            }
            continue;
        }
        let base_capacity_ref = match (&pools.owned, &pools.reserved) {
            (Some((_, eff)), _) if m >= delivery => f64::from(owned_accels.unwrap_or(0)) * eff,
            (Some(_), _) => 0.0,
            (None, Some((_, rp))) => f64::from(reserved_size.unwrap_or(0)) * reserved_eff_at(*rp, m),
            (None, None) => 0.0,
        };
        let routed = route(
            month,
            Routing {
                base_capacity_ref: has_base.then_some(base_capacity_ref),
                on_demand: pools.on_demand.is_some(),
                spot_availability: pools.spot.as_ref().map(|(s, _)| s.availability),
                fill_idle_base: rule.fill_idle_base,
                by_priority: o.kind == OptionKind::Mix,
                scale: ctx.demand_scale,
            },
            &mut free,
        );
        run.served += routed.base + routed.on_demand + routed.spot + routed.fallback;
        run.unserved += routed.unserved;

        let flows = &mut run.flows[m];
        if let Some((_, eff)) = &pools.owned {
            owned_used[m] = routed.base / eff;
        }
        if let Some((_, rp)) = &pools.reserved {
            run.accelerator_hours += routed.base / reserved_eff_at(*rp, m);
        }
        if let Some(od) = pools.on_demand {
            let hours = (routed.on_demand + routed.fallback) / od.eff_at(ctx, m);
            run.accelerator_hours += hours;
            flows.add(Category::OnDemand, hours * od.price_at(ctx, m));
        }
        if let Some((spot, sp)) = &pools.spot {
            let hours = routed.spot / sp.eff_at(ctx, m) * (1.0 + spot.interruption_overhead);
            run.accelerator_hours += hours;
            flows.add(Category::Spot, hours * sp.price_at(ctx, m));
        }
    }
    if let Some((owned, _)) = &pools.owned {
        owned_costs(ctx, owned, &owned_used, &mut run);
        run.accelerator_hours += owned_used.iter().sum::<f64>();
    }
    if let (Some((res, rp)), Some(size)) = (&pools.reserved, reserved_size) {
        let committed_months = horizon.saturating_sub(ported_from).div_ceil(term) * term;
        reserved_costs(ctx, res, *rp, size, ported_from, committed_months, &mut run);
    }
    run
}

struct Routing {
    /// Base pool capacity in reference GPUs; `None` when there is no base pool.
    base_capacity_ref: Option<f64>,
    on_demand: bool,
    spot_availability: Option<f64>,
    fill_idle_base: bool,
    /// Only a mix routes by priority; a buy or rent option sends all work
    /// to its own pool first and the rest to its on-demand fallback.
    by_priority: bool,
    /// Demand × this.
    scale: f64,
}

/// Reference-GPU-hours that each pool took in one month.
#[derive(Debug, Default)]
struct Routed {
    base: f64,
    on_demand: f64,
    spot: f64,
    /// Spot work that found no spot capacity and fell back to on demand.
    fallback: f64,
    unserved: f64,
}

#[derive(Clone, Copy)]
enum Pool {
    Base,
    OnDemand,
    Spot,
}

/// Whether some of a tier's work can reach the base pool: the pools
/// before it in the chain do not absorb all of it.
fn reaches_base(tier: Tier, r: &Routing) -> bool {
    if r.base_capacity_ref.is_none() {
        return false;
    }
    for pool in chain(tier, r) {
        match pool {
            Pool::Base => return true,
            Pool::OnDemand if r.on_demand => return false,
            Pool::Spot if r.spot_availability.is_some() && (r.on_demand || r.spot_availability == Some(1.0)) => {
                return false;
            }
            _ => {}
        }
    }
    false
}

/// Where each tier's work goes, in order (the article's rule; with
/// `fill_idle_base`, idle base capacity comes first for every tier).
/// Without priority routing, every tier takes the option's own pool first.
fn chain(tier: Tier, r: &Routing) -> [Pool; 3] {
    use Pool::*;
    if !r.by_priority {
        return [Base, Spot, OnDemand];
    }
    match (tier, r.fill_idle_base) {
        (Tier::Urgent, _) | (Tier::Normal, true) => [Base, OnDemand, Spot],
        (Tier::Normal, false) => [OnDemand, Base, Spot],
        (Tier::Low, true) => [Base, Spot, OnDemand],
        (Tier::Low, false) => [Spot, OnDemand, Base],
    }
}

/// Routes one month. Only the base pool has limited capacity, so only it
/// needs the month's time slices (each slice takes up to the capacity
/// left in it); on demand and spot are linear, so they work on the tier's
/// total. `free` is scratch space for the base's capacity per slice.
fn route(month: &MonthDemand, r: Routing, free: &mut Vec<f64>) -> Routed {
    let mut out = Routed::default();
    let total: f64 = month.slices.iter().sum();
    // Without priority routing every tier has the same chain: route them as one.
    // Scaling the demand scales every tier's share of the slices.
    let tiers: &[(Tier, f64)] = &if r.by_priority {
        [Tier::Urgent, Tier::Normal, Tier::Low].map(|t| (t, month.share(t) * r.scale))
    } else {
        [(Tier::Urgent, month.shares.iter().sum::<f64>() * r.scale), (Tier::Normal, 0.0), (Tier::Low, 0.0)]
    };
    // When a single tier reaches the base, the capacity of every slice is
    // still whole when it does: a closed form replaces the pass over slices.
    let reaching_base = tiers.iter().filter(|(t, share)| *share > 0.0 && reaches_base(*t, &r)).count();
    let closed_form = reaching_base <= 1;
    if let (Some(capacity), false) = (r.base_capacity_ref, closed_form) {
        free.clear();
        free.resize(month.slices.len(), capacity);
    }
    for &(tier, share) in tiers {
        let amount = total * share;
        if amount <= 0.0 {
            continue;
        }
        // Share of this tier's work not yet placed. Pools before the base
        // are linear, so what reaches it is the same fraction of every slice.
        let mut fraction = 1.0;
        for pool in chain(tier, &r) {
            if fraction <= 0.0 {
                break;
            }
            match pool {
                Pool::Base if r.base_capacity_ref.is_some() => {
                    let taken = if closed_form {
                        month.capped_sum(share * fraction, r.base_capacity_ref.unwrap_or(0.0))
                    } else {
                        let mut taken = 0.0;
                        for (room, slice) in free.iter_mut().zip(&month.slices) {
                            let take = (slice * share * fraction).min(*room);
                            *room -= take;
                            taken += take;
                        }
                        taken
                    };
                    out.base += taken;
                    fraction = ((amount * fraction - taken) / amount).max(0.0);
                }
                Pool::OnDemand if r.on_demand => {
                    out.on_demand += amount * fraction;
                    fraction = 0.0;
                }
                Pool::Spot => {
                    if let Some(a) = r.spot_availability {
                        out.spot += amount * fraction * a;
                        fraction *= 1.0 - a;
                        if r.on_demand {
                            out.fallback += amount * fraction;
                            fraction = 0.0;
                        }
                    }
                }
                _ => {}
            }
        }
        out.unserved += amount * fraction;
    }
    let h = month.slice_hours;
    Routed {
        base: out.base * h,
        on_demand: out.on_demand * h,
        spot: out.spot * h,
        fallback: out.fallback * h,
        unserved: out.unserved * h,
    }
}

// ---------------------------------------------------------------- costs

/// Capex, running costs and residual value of an owned fleet, given the
/// accelerator-hours it ran each month.
fn owned_costs(ctx: &Context<'_>, p: &OwnedPool, used_accel_hours: &[f64], run: &mut Run) {
    let horizon = ctx.horizon;
    let fx = ctx.fx(p.currency);
    let servers = f64::from(p.servers);
    let accelerators = servers * f64::from(p.accelerators_per_server);
    let hardware = (servers * p.capex_per_server + p.network_storage_capex) * fx;
    let delivery = p.lead_time_months as usize;
    let pay_month = match p.capex_payment {
        CapexPayment::OnOrder => 0,
        CapexPayment::OnDelivery => delivery,
    };
    if pay_month < horizon {
        run.flows[pay_month].add(Category::Hardware, hardware);
        run.flows[pay_month].add(Category::Installation, p.installation * fx);
    }
    let provisioned_kw = servers * p.provisioned_kw_per_server.unwrap_or(p.server_kw);
    let mut busy = 0.0;
    for (flows, used) in run.flows.iter_mut().zip(used_accel_hours).skip(delivery) {
        let utilisation = (used / (accelerators * HOURS_PER_MONTH)).clamp(0.0, 1.0);
        busy += utilisation;
        flows.add(Category::Hosting, provisioned_kw * p.colocation_per_kw_month * fx);
        // power = kW × hours × utilisation × PUE × tariff
        flows.add(
            Category::Power,
            servers * p.server_kw * HOURS_PER_MONTH * utilisation * p.pue * p.electricity_per_kwh * fx,
        );
        flows.add(Category::Staff, p.staff_per_year / 12.0 * fx);
        flows.add(Category::Maintenance, p.maintenance_share_per_year * hardware / 12.0);
        flows.add(Category::OtherOpex, p.other_opex_per_year / 12.0 * fx);
    }
    if delivery < horizon {
        run.owned_utilisation = Some(busy / (horizon - delivery) as f64);
    } else {
        run.notes.push(Note::DeliveredAfterHorizon);
    }
    // The fleet is still worth something at the horizon, if it was bought.
    if pay_month < horizon {
        let age_years = horizon.saturating_sub(delivery) as f64 / 12.0;
        let residual = match p.residual {
            ResidualBasis::Book => hardware * (1.0 - age_years / p.depreciation_years).max(0.0),
            ResidualBasis::Market => hardware * p.market_residual_share,
        };
        if let Some(last) = run.flows.last_mut() {
            last.add(Category::ResidualValue, -residual);
        }
    }
}

/// Committed capacity: `size` accelerators for `committed_months` from
/// month `first`, in terms of `term_months`; months past the horizon are
/// not counted (and noted).
fn reserved_costs(
    ctx: &Context<'_>,
    p: &ReservedPool,
    rp: Rental,
    size: u32,
    first: usize,
    committed_months: usize,
    run: &mut Run,
) {
    let horizon = ctx.horizon;
    let term = p.term_months.max(1) as usize;
    let end = first + committed_months;
    let counted = end.min(horizon);
    for term_start in (first..counted).step_by(term) {
        let term_end = (term_start + term).min(counted);
        let monthly = f64::from(size) * HOURS_PER_MONTH * rp.price_at(ctx, term_start);
        let months_in = (term_end - term_start) as f64;
        run.flows[term_start].add(Category::Reserved, p.upfront_share * monthly * months_in);
        for m in term_start..term_end {
            run.flows[m].add(Category::Reserved, (1.0 - p.upfront_share) * monthly);
        }
    }
    if end > horizon {
        run.notes.push(Note::ReservedBeyondHorizon { months: (end - horizon) as u32 });
    }
}

fn add_storage_and_edge(ctx: &Context<'_>, o: &OptionSpec, run: &mut Run) {
    if let Some(st) = &ctx.s.storage {
        let fx = ctx.fx(st.currency);
        let monthly = match o.storage {
            StorageMode::None => 0.0,
            StorageMode::Object => {
                st.dataset_tb * (st.object_price_per_tb_month + st.reads_per_month * st.transfer_price_per_tb)
            }
            StorageMode::Attached => st.dataset_tb * st.attached_price_per_tb_month * st.attached_copies,
        } * fx;
        for f in &mut run.flows {
            f.add(Category::Storage, monthly);
        }
    }
    if let Some(e) = &ctx.s.edge {
        let fx = ctx.fx(e.currency);
        let (bandwidth, sites) = match o.edge {
            EdgeMode::None => (0.0, 0.0),
            EdgeMode::Raw => (e.raw_tb_per_month * e.bandwidth_price_per_tb, 0.0),
            EdgeMode::Features => {
                (e.raw_tb_per_month * e.feature_share * e.bandwidth_price_per_tb, e.edge_sites_per_month)
            }
        };
        for f in &mut run.flows {
            f.add(Category::EdgeBandwidth, bandwidth * fx);
            f.add(Category::EdgeSites, sites * fx);
        }
    }
}

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
use crate::result::{Category, Evaluation, Fleet, MemoryFit, MonthFlows, Note, OptionResult};
use crate::scenario::*;

/// Evaluates every option of a checked scenario. The evaluation was made,
/// and its figures checked, when the scenario was checked: this cannot fail,
/// and costs nothing (it is not copied; clone it to change it).
pub fn evaluate(s: &Checked<Scenario>) -> &Evaluation {
    s.evaluation()
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
    let discount = finance::discount_factors(s.discount_rate_annual, s.horizon_months as usize);
    let ctx = Context::new(s, &discount, demand_scale);
    let options: Vec<OptionResult> = s.options.iter().map(|o| evaluate_option(&ctx, prepared, o)).collect();
    Evaluation {
        scenario_name: s.name.clone(),
        currency: s.currency,
        horizon_months: s.horizon_months,
        demand_ref_gpu_hours: prepared.total_ref_gpu_hours() * demand_scale,
        options,
    }
}

/// What one thread's simulation trials reuse: the discount factors and the
/// month sums of linear options (made again only when a trial draws another
/// rate), and one option's run, whose flows keep only each month's total
/// ([`Flows::running`]) and whose buffers are cleared rather than allocated
/// for every option of every trial.
pub(crate) struct TrialBuffers {
    rate: f64,
    discount: Vec<f64>,
    sums: Option<MonthSums>,
    run: Run,
}

impl TrialBuffers {
    pub(crate) fn new(s: &Scenario) -> Self {
        let horizon = s.horizon_months as usize;
        TrialBuffers {
            rate: s.discount_rate_annual,
            discount: finance::discount_factors(s.discount_rate_annual, horizon),
            sums: None,
            run: Run { tally: false, flows: Flows::running(horizon), ..Run::new(horizon) },
        }
    }
}

/// Each option's nominal total and NPV into `nominal[i]` and `npv[i]`: what
/// [`evaluate_prepared`] reports for them without the rest of the result
/// (notes, supply score, memory fit, labels), equal to its month by month
/// sums but for rounding: an option that [`routes_linearly`] gets them in
/// closed form ([`linear_totals`]), every other option's amounts are added
/// up as they are made ([`Flows::running`]). Debug builds compare every
/// trial's with the month by month sums.
pub(crate) fn trial_totals(
    s: &Scenario,
    prepared: &demand::Prepared,
    demand_scale: f64,
    buffers: &mut TrialBuffers,
    nominal: &mut [f64],
    npv: &mut [f64],
) {
    let TrialBuffers { rate, discount, sums, run } = buffers;
    if rate.to_bits() != s.discount_rate_annual.to_bits() {
        *rate = s.discount_rate_annual;
        for (m, d) in discount.iter_mut().enumerate() {
            *d = finance::discount_factor(*rate, m);
        }
        *sums = None;
    }
    let ctx = Context::new(s, discount, demand_scale);
    for (i, o) in s.options.iter().enumerate() {
        let porting = porting_cost(&ctx, o);
        // Σ |amount| behind the totals, where it is known (for the debug check).
        let size = if let (demand::Prepared::Shared { months, cluster, .. }, true) = (prepared, routes_linearly(o)) {
            let sums = sums.get_or_insert_with(|| MonthSums::new(&ctx, months));
            (nominal[i], npv[i]) = linear_totals(&ctx, o, sums, *cluster, porting);
            0.0
        } else {
            run.reset(ctx.horizon);
            run_option(&ctx, prepared, o, porting, run);
            (nominal[i], npv[i]) = run.flows.totals(ctx.discount);
            run.flows.magnitude()
        };
        if cfg!(debug_assertions) {
            let mut months = Run { tally: false, ..Run::new(ctx.horizon) };
            run_option(&ctx, prepared, o, porting, &mut months);
            let (n, v) = months.flows.totals(ctx.discount);
            debug_assert!(close([n, v], [nominal[i], npv[i]], size), "{:?} vs {:?}", [n, v], [nominal[i], npv[i]]);
        }
    }
}

/// Whether two pairs of totals agree but for rounding: within 1e-12 of the
/// larger, or of `size` (Σ |amount| behind them, where amounts cancel).
fn close(a: [f64; 2], b: [f64; 2], size: f64) -> bool {
    a.iter().zip(&b).all(|(x, y)| x == y || (x - y).abs() <= 1e-12 * x.abs().max(y.abs()).max(size))
}

/// Whether an option's work goes through [`route_linear`]: no base pool
/// (owned or reserved) and no priority routing, so only on demand and spot.
fn routes_linearly(o: &OptionSpec) -> bool {
    o.owned.is_none() && o.reserved.is_none() && o.kind != OptionKind::Mix
}

/// Sums over the first `k` months (index `k`, from 0 to the horizon) of what
/// a linear option's costs are proportional to, plain and discounted.
struct MonthSums {
    plain: Prefix,
    discounted: Prefix,
}

/// Running sums over months, one entry more than there are months.
struct Prefix {
    /// Months (discounted: Σ discount factors).
    months: Vec<f64>,
    /// Reference-GPU-hours the month's demand sends to the option's pools
    /// (its work × share of the slices), × the generation refresh's price
    /// factor ÷ its performance uplift: rental cost at month 0's prices per
    /// unit of efficiency.
    rental: Vec<f64>,
    /// The month's demand in reference-GPU-hours (what a bridge carries).
    bridged: Vec<f64>,
}

impl Prefix {
    fn new(ctx: &Context<'_>, months: &[MonthDemand], weight: impl Fn(usize) -> f64) -> Prefix {
        let running = |f: &dyn Fn(usize, &MonthDemand) -> f64| {
            let mut sum = 0.0;
            let mut out = Vec::with_capacity(months.len() + 1);
            out.push(sum);
            for (m, month) in months.iter().enumerate() {
                sum += f(m, month) * weight(m);
                out.push(sum);
            }
            out
        };
        Prefix {
            months: running(&|_, _| 1.0),
            rental: running(&|m, month| {
                month.total() * month.share_total() * month.slice_hours * ctx.rental_price(m) / ctx.rental_perf(m)
            }),
            bridged: running(&|_, month| month.ref_gpu_hours()),
        }
    }
}

impl MonthSums {
    fn new(ctx: &Context<'_>, months: &[MonthDemand]) -> MonthSums {
        MonthSums {
            plain: Prefix::new(ctx, months, |_| 1.0),
            discounted: Prefix::new(ctx, months, |m| ctx.discount[m]),
        }
    }
}

/// A trial's nominal total and NPV for an option that [`routes_linearly`]
/// over a shared demand, in closed form: each cost is a per-trial amount ×
/// a per-month weight that no trial changes, so its total is the amount ×
/// the weights' sum over the months it is paid in ([`MonthSums`]). The
/// month by month sums of [`run_option`] are the same figures but for
/// rounding (debug builds check every trial to 1e-12).
fn linear_totals(
    ctx: &Context<'_>,
    o: &OptionSpec,
    sums: &MonthSums,
    cluster: u32,
    porting: Option<crate::porting::PortingCost>,
) -> (f64, f64) {
    let pools = resolve_pools(ctx, o, cluster);
    let horizon = ctx.horizon;
    let start = ported_from(porting.as_ref());
    let porting = porting.map(|p| PortingMonths::new(&p, start));
    let start = start.min(horizon);
    let bridge = bridge_price(ctx);
    let fixed = StorageAndEdge::of(ctx, o);
    // What one reference-GPU-hour of routed work costs at month 0's prices
    // and efficiency (as `route_linear` shares it out: spot its
    // availability's share, on demand the rest when there is on demand).
    let mut per_hour = 0.0;
    let mut left = 1.0;
    if let Some((p, sp)) = pools.spot {
        per_hour += p.availability / sp.eff * (1.0 + p.interruption_overhead) * sp.price;
        left = 1.0 - p.availability;
    }
    if let Some(od) = pools.on_demand {
        per_hour += left / od.eff * od.price;
    }
    let costs = LinearCosts {
        horizon,
        start,
        per_hour: ctx.demand_scale * per_hour,
        monthly: fixed.storage.unwrap_or(0.0) + fixed.edge.map_or(0.0, |(bandwidth, sites)| bandwidth + sites),
        porting: porting.map(|p| (p.engineers, p.porting_months.min(horizon), p.upkeep)),
        bridge: bridge.map(|price| ctx.demand_scale * price),
    };
    (costs.total(&sums.plain), costs.total(&sums.discounted))
}

/// A linear option's costs in one trial, each an amount per unit of a [`Prefix`] sum.
struct LinearCosts {
    horizon: usize,
    /// The first month on the option's own accelerators.
    start: usize,
    /// Per reference-GPU-hour routed, at month 0's prices and efficiency.
    per_hour: f64,
    /// Storage and edge, every month.
    monthly: f64,
    /// Engineers per month and the months they are paid, upkeep per month from `start`.
    porting: Option<(f64, usize, f64)>,
    /// Per reference-GPU-hour bridged before `start`.
    bridge: Option<f64>,
}

impl LinearCosts {
    #[inline(always)]
    fn total(&self, p: &Prefix) -> f64 {
        let (h, s) = (self.horizon, self.start);
        let mut total = self.per_hour * (p.rental[h] - p.rental[s]) + self.monthly * p.months[h];
        if let Some((engineers, paid, upkeep)) = self.porting {
            total += engineers * p.months[paid] + upkeep * (p.months[h] - p.months[s]);
        }
        if let Some(bridge) = self.bridge {
            total += bridge * p.bridged[s];
        }
        total
    }
}

/// Scenario-wide facts every option needs.
struct Context<'a> {
    s: &'a Scenario,
    horizon: usize,
    /// Discount factor of each month.
    discount: &'a [f64],
    /// Demand × this (a simulation's `demand.scale`; 1 otherwise).
    demand_scale: f64,
}

impl<'a> Context<'a> {
    fn new(s: &'a Scenario, discount: &'a [f64], demand_scale: f64) -> Self {
        Context { s, horizon: s.horizon_months as usize, discount, demand_scale }
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
        // x^0 is 1 exactly: no call for the months before a refresh.
        match self.refreshes(m) {
            0 => 1.0,
            n => self.s.refresh.performance_uplift.powi(n),
        }
    }

    fn rental_price(&self, m: usize) -> f64 {
        match self.refreshes(m) {
            0 => 1.0,
            n => self.s.refresh.price_factor.powi(n),
        }
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

struct Pools<'o> {
    owned: Option<(&'o OwnedPool, f64)>,
    reserved: Option<(&'o ReservedPool, Rental)>,
    on_demand: Option<Rental>,
    spot: Option<(&'o SpotPool, Rental)>,
}

/// The efficiency ratio an option runs at when neither it nor its pool states one.
const DEFAULT_RATIO: f64 = 1.0;

/// The accelerator an option names when it is not the reference GPU and
/// some pool of the option runs at the default ratio.
fn defaulted_ratio<'o>(s: &Scenario, o: &'o OptionSpec) -> Option<&'o str> {
    let accelerator = o.accelerator.as_deref().filter(|a| *a != s.reference_gpu)?;
    if o.efficiency_ratio.is_some() {
        return None;
    }
    let pools = [
        o.owned.as_ref().map(|p| p.efficiency_ratio),
        o.reserved.as_ref().map(|p| p.efficiency_ratio),
        o.on_demand.as_ref().map(|p| p.efficiency_ratio),
        o.spot.as_ref().map(|p| p.efficiency_ratio),
    ];
    pools.iter().flatten().any(Option::is_none).then_some(accelerator)
}

fn resolve_pools<'o>(ctx: &Context<'_>, o: &'o OptionSpec, cluster: u32) -> Pools<'o> {
    let base_eff = |e: Option<f64>, n: u32| {
        e.or(o.efficiency_ratio).unwrap_or(DEFAULT_RATIO) * ctx.scaling(o, n) * o.achieved_share
    };
    let rental = |price: Option<f64>, cur, e: Option<f64>| Rental {
        price: price.unwrap_or(0.0) * ctx.fx(cur),
        eff: base_eff(e, cluster),
    };
    Pools {
        owned: o.owned.as_ref().map(|p| {
            // An owned fleet runs a job on all its accelerators; a profile's
            // jobs on clusters of the demand's size.
            let eff = base_eff(p.efficiency_ratio, cluster);
            (p, eff)
        }),
        reserved: o.reserved.as_ref().map(|p| (p, rental(p.price_per_accel_hour, p.currency, p.efficiency_ratio))),
        on_demand: o.on_demand.as_ref().map(|p| rental(p.price_per_accel_hour, p.currency, p.efficiency_ratio)),
        spot: o.spot.as_ref().map(|p| (p, rental(p.price_per_accel_hour, p.currency, p.efficiency_ratio))),
    }
}

/// The first month the workload runs on the option's own accelerators: the
/// porting delay rounded up to whole months (0 without porting).
fn ported_from(porting: Option<&crate::porting::PortingCost>) -> usize {
    porting.map_or(0, |p| p.delay_months.ceil() as usize)
}

/// What the incumbent charges per reference-GPU-hour while a port is under
/// way, in scenario currency; `None`: nobody carries the demand meanwhile.
fn bridge_price(ctx: &Context<'_>) -> Option<f64> {
    ctx.s.porting.as_ref().and_then(|p| p.bridge_price_per_ref_gpu_hour.map(|b| b * ctx.fx(p.currency)))
}

/// The reference-GPU-hours a month's demand asks for.
fn bridged_hours(ctx: &Context<'_>, month: &MonthDemand) -> f64 {
    month.ref_gpu_hours() * ctx.demand_scale
}

/// What porting costs an option, when the scenario and the option say.
fn porting_cost(ctx: &Context<'_>, o: &OptionSpec) -> Option<crate::porting::PortingCost> {
    match (&ctx.s.porting, &o.porting) {
        (Some(a), Some(p)) => Some(crate::porting::porting_cost(a, p, ctx.fx(a.currency))),
        _ => None,
    }
}

/// Runs one option into `run` (new or reset): every month's cash flows.
fn run_option(
    ctx: &Context<'_>,
    prepared: &demand::Prepared,
    o: &OptionSpec,
    porting: Option<crate::porting::PortingCost>,
    run: &mut Run,
) {
    // The workload runs on the option's accelerators only once it is ported
    // (delay rounded up to whole months).
    let start = ported_from(porting.as_ref());
    match prepared {
        demand::Prepared::Job { job, work } => run_job(ctx, o, job, *work * ctx.demand_scale, start, run),
        demand::Prepared::Shared { months, alike, cluster } => run_shared(ctx, o, months, alike, *cluster, start, run),
    }
    if let Some(p) = &porting {
        add_porting(p, start, run);
    }
    add_storage_and_edge(ctx, o, run);
}

fn evaluate_option(ctx: &Context<'_>, prepared: &demand::Prepared, o: &OptionSpec) -> OptionResult {
    let cost = porting_cost(ctx, o);
    let mut run = Run::new(ctx.horizon);
    run_option(ctx, prepared, o, cost, &mut run);
    let porting = cost.zip(o.porting.as_ref()).map(|(c, p)| c.result(p));

    let (total_nominal, total_npv, compute) = run.flows.totals_and_compute(ctx.discount);
    if run.unserved > 1e-6 {
        run.notes.push(Note::Unserved { ref_gpu_hours: run.unserved });
    }
    if let Some(accelerator) = defaulted_ratio(ctx.s, o) {
        run.notes.push(Note::DefaultRatio { accelerator: accelerator.to_owned(), ratio: DEFAULT_RATIO });
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
        monthly: run.flows.months,
        ref_gpu_hours_served: run.served,
        ref_gpu_hours_unserved: run.unserved,
        accelerator_hours: run.accelerator_hours,
        effective_price_per_ref_gpu_hour: (run.served - run.bridged > 0.0)
            .then(|| compute / (run.served - run.bridged)),
        all_in_per_ref_gpu_hour: (run.served > 0.0).then(|| total_nominal / run.served),
        owned_utilisation: run.owned_utilisation,
        owned_energy_kwh: run.owned_energy_kwh,
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
        fleet: Fleet {
            peak_accelerators: run.peak_accelerators,
            average_accelerators: if run.run_months > 0.0 {
                run.accelerator_hours / (run.run_months * HOURS_PER_MONTH)
            } else {
                0.0
            },
            months: run.run_months,
            accelerator_hours: run.accelerator_hours,
            servers: o.owned.as_ref().map(|p| p.servers),
            per_replica: accelerators_per_run(ctx.s, o),
        },
    }
}

/// The accelerators an option runs one job or serving replica on.
fn accelerators_per_run(s: &Scenario, o: &OptionSpec) -> u32 {
    if let Some(p) = &o.owned {
        return p.servers * p.accelerators_per_server;
    }
    let cluster = s.demand.cluster_accelerators();
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

/// Porting engineers are paid while they port (at least one month); upkeep
/// follows every month from the port's end.
struct PortingMonths {
    porting_months: usize,
    engineers: f64,
    upkeep: f64,
}

impl PortingMonths {
    fn new(p: &crate::porting::PortingCost, start: usize) -> Self {
        let porting_months = start.max(1);
        PortingMonths {
            porting_months,
            engineers: p.cost / porting_months as f64,
            upkeep: p.maintenance_per_year / 12.0,
        }
    }
}

fn add_porting(p: &crate::porting::PortingCost, start: usize, run: &mut Run) {
    let p = PortingMonths::new(p, start);
    for m in 0..p.porting_months.min(run.flows.len()) {
        run.flows.add(m, Category::Porting, p.engineers);
    }
    for m in start..run.flows.len() {
        run.flows.add(m, Category::PortingMaintenance, p.upkeep);
    }
}

/// An option's cash flows per month, and the categories any amount went to.
/// Only those are added up: a category no amount went to is
/// +0.0 in every month, and adding +0.0 changes no sum (see
/// [`MonthFlows::sum_of`]), so totals are those of every category, bit for bit.
struct Flows {
    months: Vec<MonthFlows>,
    /// Bit `c` set: category `c` had an amount added in some month.
    live: u32,
    /// A simulation trial's flows keep each month's total, not its
    /// categories (`months` is then empty).
    running: Option<Running>,
}

/// Each month's total, amounts added to it as they are made (in any category).
struct Running {
    months: Vec<f64>,
    /// Σ |amount| (debug builds only): the scale of the rounding in the totals.
    size: f64,
}

impl Flows {
    fn new(horizon: usize) -> Self {
        Flows { months: vec![MonthFlows::default(); horizon], live: 0, running: None }
    }

    /// Flows that keep only each month's total: each month's amounts added
    /// in the order they are made rather than by category, so
    /// [`Flows::totals`] are the month by month sums by category but for rounding.
    fn running(horizon: usize) -> Self {
        let running = Running { months: vec![0.0; horizon], size: 0.0 };
        Flows { months: Vec::new(), live: 0, running: Some(running) }
    }

    fn add(&mut self, m: usize, category: Category, amount: f64) {
        if let Some(r) = &mut self.running {
            r.months[m] += amount;
            if cfg!(debug_assertions) {
                r.size += amount.abs();
            }
            return;
        }
        self.months[m].add(category, amount);
        self.live |= 1 << category.index();
    }

    fn len(&self) -> usize {
        self.running.as_ref().map_or(self.months.len(), |r| r.months.len())
    }

    /// Σ |amount| of running flows (0 for flows by month).
    fn magnitude(&self) -> f64 {
        self.running.as_ref().map_or(0.0, |r| r.size)
    }

    /// The live categories within `mask`, ascending: indices and how many.
    fn live_within(&self, mask: u32) -> ([usize; Category::COUNT], usize) {
        let mut indices = [0; Category::COUNT];
        let mut n = 0;
        for (i, slot) in (0..Category::COUNT).filter(|i| (self.live & mask) >> i & 1 == 1).zip(&mut indices) {
            *slot = i;
            n += 1;
        }
        (indices, n)
    }

    /// Nominal total and NPV: Σ month totals and Σ month total × discount
    /// factor, each month's total made once (what a simulation trial needs).
    fn totals(&self, discount: &[f64]) -> (f64, f64) {
        if let Some(r) = &self.running {
            let zero: f64 = std::iter::empty::<f64>().sum();
            return r.months.iter().zip(discount).fold((zero, zero), |(n, v), (t, d)| (n + t, v + t * d));
        }
        let (nominal, npv, _) = self.sums::<false>(discount);
        (nominal, npv)
    }

    /// As [`Flows::totals`], with Σ of every month's compute categories
    /// ([`Category::is_compute`]) from the same pass over the months.
    fn totals_and_compute(&self, discount: &[f64]) -> (f64, f64, f64) {
        self.sums::<true>(discount)
    }

    /// One pass over the months: nominal, NPV and, when `COMPUTE`, the
    /// compute categories' total (else 0, and nothing summed for it).
    fn sums<const COMPUTE: bool>(&self, discount: &[f64]) -> (f64, f64, f64) {
        let (indices, n) = self.live_within(u32::MAX);
        let live = &indices[..n];
        let mask = Category::ALL.iter().filter(|c| c.is_compute()).fold(0, |m, c| m | 1 << c.index());
        let (compute_indices, k) = self.live_within(if COMPUTE { mask } else { 0 });
        let compute_live = &compute_indices[..k];
        // The sums start where `Iterator::sum` starts, so they are its own.
        let zero: f64 = std::iter::empty::<f64>().sum();
        let (mut nominal, mut npv, mut compute) = (zero, zero, zero);
        for (f, d) in self.months.iter().zip(discount) {
            let total = f.sum_of(live);
            debug_assert_eq!(total.to_bits(), f.total().to_bits());
            nominal += total;
            npv += total * d;
            if COMPUTE {
                let month_compute = f.sum_of(compute_live);
                debug_assert_eq!(month_compute.to_bits(), f.compute_total().to_bits());
                compute += month_compute;
            }
        }
        (nominal, npv, compute)
    }

    /// Every month back to +0.0 (one fill: faster than clearing the live
    /// categories one by one once a few are live).
    fn clear(&mut self) {
        if let Some(r) = &mut self.running {
            r.months.fill(0.0);
            r.size = 0.0;
        }
        if self.live != 0 {
            self.months.fill(MonthFlows::default());
        }
        self.live = 0;
    }
}

/// What running one option produced, before totals.
struct Run {
    flows: Flows,
    /// Whether to add up hours served, bridged, unserved and run (an
    /// evaluation reports them; a simulation trial uses only the flows).
    /// Only a shared demand's monthly loop leaves them out.
    tally: bool,
    served: f64,
    /// Of `served`, the hours the incumbent carried during a port.
    bridged: f64,
    unserved: f64,
    accelerator_hours: f64,
    /// Accelerators running at once at the busiest time (tallied runs only).
    peak_accelerators: f64,
    /// Months in which the option runs the workload (tallied runs only).
    run_months: f64,
    owned_utilisation: Option<f64>,
    owned_energy_kwh: Option<f64>,
    time_to_complete: Option<f64>,
    completes: Option<bool>,
    meets_deadline: Option<bool>,
    notes: Vec<Note>,
    /// Scratch: accelerator-hours of an owned fleet per month.
    owned_used: Vec<f64>,
    /// Scratch: the base pool's capacity left per time slice.
    free: Vec<f64>,
    /// Scratch: per month, what it routed and at which base capacity (bits),
    /// for the months alike to it ([`demand::Prepared::Shared`]).
    routed_alike: Vec<Option<(u64, Routed)>>,
}

impl Run {
    fn new(horizon: usize) -> Self {
        Run {
            flows: Flows::new(horizon),
            tally: true,
            served: 0.0,
            bridged: 0.0,
            unserved: 0.0,
            accelerator_hours: 0.0,
            peak_accelerators: 0.0,
            run_months: 0.0,
            owned_utilisation: None,
            owned_energy_kwh: None,
            time_to_complete: None,
            completes: None,
            meets_deadline: None,
            notes: Vec::new(),
            owned_used: Vec::new(),
            free: Vec::new(),
            routed_alike: Vec::new(),
        }
    }

    /// As [`Run::new`], keeping the buffers.
    fn reset(&mut self, horizon: usize) {
        debug_assert_eq!(self.flows.len(), horizon);
        self.flows.clear();
        self.served = 0.0;
        self.bridged = 0.0;
        self.unserved = 0.0;
        self.accelerator_hours = 0.0;
        self.peak_accelerators = 0.0;
        self.run_months = 0.0;
        self.owned_utilisation = None;
        self.owned_energy_kwh = None;
        self.time_to_complete = None;
        self.completes = None;
        self.meets_deadline = None;
        self.notes.clear();
    }
}

// ---------------------------------------------------------------- a job

/// Runs a single job on the option's cluster until its work is done.
fn run_job(ctx: &Context<'_>, o: &OptionSpec, job: &Job, work: f64, ported_from: usize, run: &mut Run) {
    let horizon = ctx.horizon;
    let hours_per_month = job.run_hours_per_day * DAYS_PER_MONTH;

    match o.kind {
        OptionKind::Buy => {
            let Some(owned) = &o.owned else { return };
            let accelerators = owned.servers * owned.accelerators_per_server;
            let pools = resolve_pools(ctx, o, accelerators);
            let eff = pools.owned.as_ref().map_or(1.0, |p| p.1);
            let start = (owned.lead_time_months as usize).max(ported_from);
            let capacity = f64::from(accelerators) * hours_per_month;
            let fill = fill_job(work, start, horizon, |_| (capacity, eff));
            owned_costs(ctx, owned, &fill.accel_hours, run);
            run.accelerator_hours = fill.accel_hours.iter().sum();
            run.served = fill.served;
            job_timing(run, &fill, job, work, (f64::from(accelerators), start));
        }
        OptionKind::Rent => {
            let cluster = job.cluster_accelerators;
            let pools = resolve_pools(ctx, o, cluster);
            let capacity = f64::from(cluster) * hours_per_month;
            match o.billing {
                Some(Billing::OnDemand) => {
                    let Some(od) = pools.on_demand else { return };
                    let fill = fill_job(work, ported_from, horizon, |m| (capacity, od.eff_at(ctx, m)));
                    for (m, h) in fill.accel_hours.iter().enumerate() {
                        run.flows.add(m, Category::OnDemand, h * od.price_at(ctx, m));
                    }
                    run.accelerator_hours = fill.accel_hours.iter().sum();
                    run.served = fill.served;
                    job_timing(run, &fill, job, work, (f64::from(cluster), ported_from));
                }
                Some(Billing::Spot) => {
                    let Some((spot, sp)) = pools.spot else { return };
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
                        run.flows.add(m, Category::Spot, useful * spot_hours_per_useful * sp.price_at(ctx, m));
                        run.flows.add(m, Category::OnDemand, useful * (1.0 - a) * od.price_at(ctx, m));
                    }
                    run.accelerator_hours = fill.accel_hours.iter().sum();
                    run.served = fill.served;
                    job_timing(run, &fill, job, work, (f64::from(cluster), ported_from));
                }
                Some(Billing::Reserved) => {
                    let Some((res, rp)) = pools.reserved else { return };
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
                    reserved_costs(ctx, res, rp, committed, first, committed_months, run);
                    run.accelerator_hours = fill.accel_hours.iter().sum();
                    run.served = fill.served;
                    job_timing(run, &fill, job, work, (f64::from(committed), first));
                }
                None => {}
            }
        }
        OptionKind::Mix => {}
    }
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

/// The job's timing and fleet: `peak` accelerators run it from month `start`.
fn job_timing(run: &mut Run, fill: &JobFill, job: &Job, work: f64, (peak, start): (f64, usize)) {
    run.time_to_complete = Some(fill.time_to_complete);
    run.peak_accelerators = peak;
    // Within the horizon: a job that does not finish runs to its end.
    run.run_months = (fill.time_to_complete.min(fill.accel_hours.len() as f64) - start as f64).max(0.0);
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
fn run_shared(
    ctx: &Context<'_>,
    o: &OptionSpec,
    months: &[MonthDemand],
    alike: &[usize],
    cluster: u32,
    ported_from: usize,
    run: &mut Run,
) {
    let horizon = ctx.horizon;
    let pools = resolve_pools(ctx, o, cluster);

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
    let bridge = bridge_price(ctx);

    let mut owned_used = std::mem::take(&mut run.owned_used);
    owned_used.clear();
    owned_used.resize(horizon, 0.0);
    let mut free = std::mem::take(&mut run.free);
    // What the first of alike months routed, at which base capacity.
    let mut routed_alike = std::mem::take(&mut run.routed_alike);
    routed_alike.clear();
    routed_alike.resize(horizon, None);
    let has_base = pools.owned.is_some() || pools.reserved.is_some();
    for (m, month) in months.iter().enumerate() {
        if m < ported_from {
            // Not ported yet: the incumbent carries the demand, or nobody does.
            let hours = bridged_hours(ctx, month);
            match bridge {
                Some(price) => {
                    if run.tally {
                        run.served += hours;
                        run.bridged += hours;
                    }
                    run.flows.add(m, Category::Bridge, hours * price);
                }
                None if run.tally => run.unserved += hours,
                None => {}
            }
            continue;
        }
        let base_capacity_ref = match (&pools.owned, &pools.reserved) {
            (Some((_, eff)), _) if m >= delivery => f64::from(owned_accels.unwrap_or(0)) * eff,
            (Some(_), _) => 0.0,
            (None, Some((_, rp))) => f64::from(reserved_size.unwrap_or(0)) * reserved_eff_at(*rp, m),
            (None, None) => 0.0,
        };
        // A month routes as the first month alike did at the same capacity.
        let first = &mut routed_alike[alike[m]];
        let r = routing(ctx, o, &pools, has_base.then_some(base_capacity_ref));
        let routed = match *first {
            Some((capacity, routed)) if capacity == base_capacity_ref.to_bits() => {
                debug_assert!(routed.same_bits(&route(month, r, &mut free)));
                routed
            }
            _ => {
                let routed = route(month, r, &mut free);
                *first = Some((base_capacity_ref.to_bits(), routed));
                routed
            }
        };
        if run.tally {
            run.served += routed.base + routed.on_demand + routed.spot + routed.fallback;
            run.unserved += routed.unserved;
        }

        if let Some((_, eff)) = &pools.owned {
            owned_used[m] = routed.base / eff;
        }
        if let (Some((_, rp)), true) = (&pools.reserved, run.tally) {
            run.accelerator_hours += routed.base / reserved_eff_at(*rp, m);
        }
        let mut rented_hours = 0.0;
        let rented_ref = routed.on_demand + routed.fallback + routed.spot;
        if let Some(od) = pools.on_demand {
            let (hours, cost) = on_demand_use(ctx, od, &routed, m);
            rented_hours += hours;
            if run.tally {
                run.accelerator_hours += hours;
            }
            run.flows.add(m, Category::OnDemand, cost);
        }
        if let Some((spot, sp)) = pools.spot {
            let (hours, cost) = spot_use(ctx, spot, sp, &routed, m);
            rented_hours += hours;
            if run.tally {
                run.accelerator_hours += hours;
            }
            run.flows.add(m, Category::Spot, cost);
        }
        if run.tally {
            let base = if has_base { owned_accels.or(reserved_size).unwrap_or(0) } else { 0 };
            let rented =
                rented_peak(month, (rented_hours, rented_ref), ctx.demand_scale, has_base.then_some(base_capacity_ref));
            run.peak_accelerators = run.peak_accelerators.max(f64::from(base) + rented);
            if routed.base + routed.on_demand + routed.spot + routed.fallback > 0.0 {
                run.run_months += 1.0;
            }
        }
    }
    if let Some((owned, _)) = &pools.owned {
        owned_costs(ctx, owned, &owned_used, run);
        if run.tally {
            run.accelerator_hours += owned_used.iter().sum::<f64>();
        }
    }
    run.owned_used = owned_used;
    run.free = free;
    run.routed_alike = routed_alike;
    if let (Some((res, rp)), Some(size)) = (&pools.reserved, reserved_size) {
        let committed_months = horizon.saturating_sub(ported_from).div_ceil(term) * term;
        reserved_costs(ctx, res, *rp, size, ported_from, committed_months, run);
    }
}

/// Rented accelerators running at once in a month's busiest slice, from
/// the month's rented accelerator-hours and the reference-GPU-hours they
/// carried. Without a base pool every slice rents the same share of its
/// demand, so the busiest slice rents that share of the peak; with one, it
/// rents at least the peak's overflow past the base (exactly that for an
/// option that sends work to its base first).
fn rented_peak(month: &MonthDemand, rented: (f64, f64), scale: f64, base_capacity_ref: Option<f64>) -> f64 {
    let (accel_hours, ref_hours) = rented;
    let demand_hours = month.total() * month.share_total() * scale * month.slice_hours;
    if accel_hours <= 0.0 || ref_hours <= 0.0 || demand_hours <= 0.0 {
        return 0.0;
    }
    let peak_ref = month.peak() * month.share_total() * scale;
    let proportional = peak_ref * accel_hours / demand_hours;
    match base_capacity_ref {
        None => proportional,
        Some(capacity) => proportional.max((peak_ref - capacity).max(0.0) * accel_hours / ref_hours),
    }
}

/// How an option's pools take a month's work; `base_capacity_ref` as in [`Routing`].
fn routing(ctx: &Context<'_>, o: &OptionSpec, pools: &Pools<'_>, base_capacity_ref: Option<f64>) -> Routing {
    Routing {
        base_capacity_ref,
        on_demand: pools.on_demand.is_some(),
        spot_availability: pools.spot.as_ref().map(|(s, _)| s.availability),
        fill_idle_base: ctx.s.scheduling.fill_idle_base,
        by_priority: o.kind == OptionKind::Mix,
        scale: ctx.demand_scale,
    }
}

/// On demand's accelerator-hours and cost in month `m`: the work routed to
/// it, its own and spot's fallback.
fn on_demand_use(ctx: &Context<'_>, od: Rental, routed: &Routed, m: usize) -> (f64, f64) {
    let hours = (routed.on_demand + routed.fallback) / od.eff_at(ctx, m);
    (hours, hours * od.price_at(ctx, m))
}

/// Spot's accelerator-hours, interruptions' rework included, and cost in month `m`.
fn spot_use(ctx: &Context<'_>, spot: &SpotPool, sp: Rental, routed: &Routed, m: usize) -> (f64, f64) {
    let hours = routed.spot / sp.eff_at(ctx, m) * (1.0 + spot.interruption_overhead);
    (hours, hours * sp.price_at(ctx, m))
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
#[derive(Debug, Default, Clone, Copy)]
struct Routed {
    base: f64,
    on_demand: f64,
    spot: f64,
    /// Spot work that found no spot capacity and fell back to on demand.
    fallback: f64,
    unserved: f64,
}

impl Routed {
    /// On demand takes all that is left of a tier's `amount`: nothing is left.
    fn send_to_on_demand(&mut self, amount: f64, fraction: f64) -> f64 {
        self.on_demand += amount * fraction;
        0.0
    }

    /// Spot (when the option has it) takes its availability's share of what
    /// is left; the rest falls back to on demand when there is on demand.
    /// Returns the share of `amount` left.
    fn send_to_spot(&mut self, amount: f64, fraction: f64, r: &Routing) -> f64 {
        let Some(a) = r.spot_availability else { return fraction };
        self.spot += amount * fraction * a;
        let left = fraction * (1.0 - a);
        if r.on_demand {
            self.fallback += amount * left;
            return 0.0;
        }
        left
    }

    /// From reference GPUs summed over slices to reference-GPU-hours.
    fn in_hours(self, slice_hours: f64) -> Routed {
        let h = slice_hours;
        Routed {
            base: self.base * h,
            on_demand: self.on_demand * h,
            spot: self.spot * h,
            fallback: self.fallback * h,
            unserved: self.unserved * h,
        }
    }

    /// Every figure the same, bit for bit.
    fn same_bits(&self, other: &Routed) -> bool {
        let bits = |r: &Routed| [r.base, r.on_demand, r.spot, r.fallback, r.unserved].map(f64::to_bits);
        bits(self) == bits(other)
    }
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
    if r.base_capacity_ref.is_none() && !r.by_priority {
        let linear = route_linear(month, &r);
        debug_assert!(linear.same_bits(&route_tiers(month, r, free)));
        return linear;
    }
    route_tiers(month, r, free)
}

/// [`route_tiers`] for an option without a base pool or priority routing:
/// one chain (spot, then on demand) for all the month's work, and no slice
/// matters. The same arithmetic in the same order, so the same bits.
fn route_linear(month: &MonthDemand, r: &Routing) -> Routed {
    let mut out = Routed::default();
    let amount = month.total() * (month.share_total() * r.scale);
    // As in `route_tiers`: no work, no routing (a NaN amount is routed).
    if amount <= 0.0 {
        return out;
    }
    let mut fraction = out.send_to_spot(amount, 1.0, r);
    // The chain stops once nothing is left; a NaN goes on, as there.
    if r.on_demand && (fraction > 0.0 || fraction.is_nan()) {
        fraction = out.send_to_on_demand(amount, fraction);
    }
    out.unserved += amount * fraction;
    out.in_hours(month.slice_hours)
}

/// Routes one month tier by tier through each tier's chain of pools.
fn route_tiers(month: &MonthDemand, r: Routing, free: &mut Vec<f64>) -> Routed {
    let mut out = Routed::default();
    let total = month.total();
    // Without priority routing every tier has the same chain: route them as one.
    // Scaling the demand scales every tier's share of the slices.
    let tiers: &[(Tier, f64)] = &if r.by_priority {
        [Tier::Urgent, Tier::Normal, Tier::Low].map(|t| (t, month.share(t) * r.scale))
    } else {
        [(Tier::Urgent, month.share_total() * r.scale), (Tier::Normal, 0.0), (Tier::Low, 0.0)]
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
                Pool::OnDemand if r.on_demand => fraction = out.send_to_on_demand(amount, fraction),
                Pool::Spot => fraction = out.send_to_spot(amount, fraction, &r),
                _ => {}
            }
        }
        out.unserved += amount * fraction;
    }
    out.in_hours(month.slice_hours)
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
        run.flows.add(pay_month, Category::Hardware, hardware);
        run.flows.add(pay_month, Category::Installation, p.installation * fx);
    }
    let provisioned_kw = servers * p.provisioned_kw_per_server.unwrap_or(p.server_kw);
    let mut busy = 0.0;
    for (m, used) in used_accel_hours.iter().enumerate().take(run.flows.len()).skip(delivery) {
        let utilisation = (used / (accelerators * HOURS_PER_MONTH)).clamp(0.0, 1.0);
        busy += utilisation;
        run.flows.add(m, Category::Hosting, provisioned_kw * p.colocation_per_kw_month * fx);
        // power = kW × hours × utilisation × PUE × tariff
        let kwh = servers * p.server_kw * HOURS_PER_MONTH * utilisation * p.pue;
        *run.owned_energy_kwh.get_or_insert(0.0) += kwh;
        run.flows.add(m, Category::Power, kwh * p.electricity_per_kwh * fx);
        run.flows.add(m, Category::Staff, p.staff_per_year / 12.0 * fx);
        run.flows.add(m, Category::Maintenance, p.maintenance_share_per_year * hardware / 12.0);
        run.flows.add(m, Category::OtherOpex, p.other_opex_per_year / 12.0 * fx);
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
        if let Some(last) = run.flows.len().checked_sub(1) {
            run.flows.add(last, Category::ResidualValue, -residual);
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
        run.flows.add(term_start, Category::Reserved, p.upfront_share * monthly * months_in);
        for m in term_start..term_end {
            run.flows.add(m, Category::Reserved, (1.0 - p.upfront_share) * monthly);
        }
    }
    if end > horizon {
        run.notes.push(Note::ReservedBeyondHorizon { months: (end - horizon) as u32 });
    }
}

/// What storage and the edge (bandwidth, sites) cost an option every month;
/// `None` where the scenario has no such section.
struct StorageAndEdge {
    storage: Option<f64>,
    edge: Option<(f64, f64)>,
}

impl StorageAndEdge {
    fn of(ctx: &Context<'_>, o: &OptionSpec) -> Self {
        let storage = ctx.s.storage.as_ref().map(|st| {
            let monthly = match o.storage {
                StorageMode::None => 0.0,
                StorageMode::Object => {
                    st.dataset_tb * (st.object_price_per_tb_month + st.reads_per_month * st.transfer_price_per_tb)
                }
                StorageMode::Attached => st.dataset_tb * st.attached_price_per_tb_month * st.attached_copies,
            };
            monthly * ctx.fx(st.currency)
        });
        let edge = ctx.s.edge.as_ref().map(|e| {
            let fx = ctx.fx(e.currency);
            let (bandwidth, sites) = match o.edge {
                EdgeMode::None => (0.0, 0.0),
                EdgeMode::Raw => (e.raw_tb_per_month * e.bandwidth_price_per_tb, 0.0),
                EdgeMode::Features => {
                    (e.raw_tb_per_month * e.feature_share * e.bandwidth_price_per_tb, e.edge_sites_per_month)
                }
            };
            (bandwidth * fx, sites * fx)
        });
        StorageAndEdge { storage, edge }
    }
}

fn add_storage_and_edge(ctx: &Context<'_>, o: &OptionSpec, run: &mut Run) {
    let f = StorageAndEdge::of(ctx, o);
    for m in 0..run.flows.len() {
        if let Some(storage) = f.storage {
            run.flows.add(m, Category::Storage, storage);
        }
        if let Some((bandwidth, sites)) = f.edge {
            run.flows.add(m, Category::EdgeBandwidth, bandwidth);
            run.flows.add(m, Category::EdgeSites, sites);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every kind of month a linear option can have: on demand, spot with
    /// and without an on-demand fallback, storage and edge, porting with and
    /// without a bridge (and a port with no delay), a generation refresh,
    /// another currency, an hourly profile and a portfolio of jobs.
    #[test]
    fn the_linear_totals_are_the_general_path_but_for_rounding() {
        let demands = [
            "kind = \"profile\"\nmonthly_ref_gpus = [16, 24, 0, 40]\nlow_priority_share = 0.3",
            "kind = \"profile\"\nhourly_ref_gpus = [3, 0, 7.5, 12, 4]",
            "kind = \"portfolio\"\n[[demand.jobs]]\nid = \"a\"\npriority = 9\nref_gpu_hours = 7300\n[[demand.jobs]]\nid = \"b\"\npriority = 1\nref_gpu_hours = 2000",
        ];
        let pools = [
            ("on_demand", "[options.on_demand]\nprice_per_accel_hour = 8.56\ncurrency = \"USD\""),
            (
                "spot",
                "[options.spot]\nprice_per_accel_hour = 2.1\navailability = 0.85\ninterruption_overhead = 0.12\n[options.on_demand]\nprice_per_accel_hour = 8.56",
            ),
            ("spot", "[options.spot]\nprice_per_accel_hour = 2.1\navailability = 1.0\ninterruption_overhead = 0.1"),
        ];
        // A scenario section, and what the option says of it (keys, tables).
        let porting = "[options.porting]\nmaturity = \"beta\"";
        let extras = [
            ("", "", ""),
            (
                "[storage]\ndataset_tb = 203.3\nobject_price_per_tb_month = 196.7\nattached_price_per_tb_month = 700\nattached_copies = 1\nreads_per_month = 2\ntransfer_price_per_tb = 3\n[edge]\nraw_tb_per_month = 500\nfeature_share = 0.17\nbandwidth_price_per_tb = 613.7\nedge_sites_per_month = 20011.3",
                "storage = \"object\"\nedge = \"features\"",
                "",
            ),
            (
                "[storage]\ndataset_tb = 20\nobject_price_per_tb_month = 196\nattached_price_per_tb_month = 700\nattached_copies = 2\nreads_per_month = 2\ntransfer_price_per_tb = 0\n[edge]\nraw_tb_per_month = 50\nfeature_share = 0.17\nbandwidth_price_per_tb = 600\nedge_sites_per_month = 20000\ncurrency = \"USD\"",
                "storage = \"attached\"\nedge = \"raw\"",
                "",
            ),
            (
                "[porting]\ncode_kloc = 40\ncustom_kernels = 10\nengineer_month_cost = 50000\nengineers = 4\nbridge_price_per_ref_gpu_hour = 0.8",
                "",
                porting,
            ),
            ("[porting]\ncode_kloc = 40\ncustom_kernels = 10\nengineer_month_cost = 50000\nengineers = 3", "", porting),
            ("[porting]\ncode_kloc = 0\ncustom_kernels = 0\nengineer_month_cost = 50000\nengineers = 400", "", porting),
            ("[refresh]\nenabled = true\ninterval_months = 5\nperformance_uplift = 1.8\nprice_factor = 1.3", "", ""),
        ];
        let mut compared = 0;
        for demand in demands {
            for (billing, pool) in pools {
                for (section, keys, tables) in extras {
                    let text = format!(
                        "name = \"t\"\nhorizon_months = 14\ncurrency = \"CNY\"\ndiscount_rate_annual = 0.08\nfx = {{ USD = 7.1 }}\n{section}\n[demand]\n{demand}\n[[options]]\nid = \"o\"\nkind = \"rent\"\nefficiency_ratio = 0.68\nbilling = \"{billing}\"\n{keys}\n{pool}\n{tables}\n"
                    );
                    let s: Scenario = toml::from_str(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
                    crate::validate(&s).unwrap_or_else(|e| panic!("{e:?}\n{text}"));
                    let o = &s.options[0];
                    assert!(routes_linearly(o));
                    let prepared = demand::prepare(&s);
                    let demand::Prepared::Shared { months, cluster, .. } = &prepared else { panic!("a shared demand") };
                    let discount = finance::discount_factors(s.discount_rate_annual, s.horizon_months as usize);
                    for scale in [0.0, 0.7, 1.0, 1.35] {
                        let ctx = Context::new(&s, &discount, scale);
                        let porting = porting_cost(&ctx, o);
                        let fast = linear_totals(&ctx, o, &MonthSums::new(&ctx, months), *cluster, porting);
                        let mut run = Run::new(ctx.horizon);
                        run_option(&ctx, &prepared, o, porting, &mut run);
                        let general = run.flows.totals(ctx.discount);
                        assert!(general.0 > 0.0 || scale == 0.0, "a case with no cost tests nothing:\n{text}");
                        assert!(
                            close([fast.0, fast.1], [general.0, general.1], 0.0),
                            "scale {scale}: {fast:?} vs {general:?}\n{text}"
                        );
                        compared += 1;
                    }
                }
            }
        }
        assert_eq!(compared, 3 * 3 * 7 * 4);
    }
}

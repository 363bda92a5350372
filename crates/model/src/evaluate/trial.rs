//! The simulation's fast path: each option's nominal total and NPV for one
//! trial, in closed form for an option that routes linearly.

use super::context::Context;
use super::costs::StorageAndEdge;
use super::flows::{Flows, Run};
use super::option::run_option;
use super::pools::resolve_pools;
use super::porting::{PortingMonths, bridge_price, ported_from, porting_cost};
use crate::demand::{self, MonthDemand};
use crate::finance;
use crate::scenario::*;

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
/// [`evaluate_prepared`](super::entry::evaluate_prepared) reports for them without the rest of the result
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

/// Whether an option's work goes through `route_linear`: no base pool
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

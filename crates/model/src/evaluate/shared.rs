//! A profile or portfolio: a month-by-month demand served through the
//! option's pools.

use super::context::Context;
use super::costs::{owned_costs, reserved_costs};
use super::flows::Run;
use super::pools::{Rental, resolve_pools};
use super::porting::{bridge_price, bridged_hours};
use super::routing::{Routed, route, routing};
use crate::demand::MonthDemand;
use crate::result::Category;
use crate::scenario::*;

/// Serves a month-by-month demand, routing each priority tier through the
/// option's pools.
pub(super) fn run_shared(
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

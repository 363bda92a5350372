//! Routing: how a month's work, tier by tier, goes through the pools.

use super::context::Context;
use super::pools::Pools;
use crate::demand::{MonthDemand, Tier};
use crate::scenario::*;

/// How an option's pools take a month's work; `base_capacity_ref` as in [`Routing`].
pub(super) fn routing(ctx: &Context<'_>, o: &OptionSpec, pools: &Pools<'_>, base_capacity_ref: Option<f64>) -> Routing {
    Routing {
        base_capacity_ref,
        on_demand: pools.on_demand.is_some(),
        spot_availability: pools.spot.as_ref().map(|(s, _)| s.availability),
        fill_idle_base: ctx.s.scheduling.fill_idle_base,
        by_priority: o.kind == OptionKind::Mix,
        scale: ctx.demand_scale,
    }
}

pub(super) struct Routing {
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
pub(super) struct Routed {
    pub(super) base: f64,
    pub(super) on_demand: f64,
    pub(super) spot: f64,
    /// Spot work that found no spot capacity and fell back to on demand.
    pub(super) fallback: f64,
    pub(super) unserved: f64,
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
    pub(super) fn same_bits(&self, other: &Routed) -> bool {
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
pub(super) fn route(month: &MonthDemand, r: Routing, free: &mut Vec<f64>) -> Routed {
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

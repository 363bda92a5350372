//! An option's pools resolved to scenario currency and efficiency.

use super::context::Context;
use crate::scenario::*;

/// A rental pool resolved to scenario currency and efficiency at month 0.
#[derive(Clone, Copy)]
pub(super) struct Rental {
    pub(super) price: f64,
    pub(super) eff: f64,
}

impl Rental {
    pub(super) fn price_at(self, ctx: &Context<'_>, m: usize) -> f64 {
        self.price * ctx.rental_price(m)
    }
    pub(super) fn eff_at(self, ctx: &Context<'_>, m: usize) -> f64 {
        self.eff * ctx.rental_perf(m)
    }
}

pub(super) struct Pools<'o> {
    pub(super) owned: Option<(&'o OwnedPool, f64)>,
    pub(super) reserved: Option<(&'o ReservedPool, Rental)>,
    pub(super) on_demand: Option<Rental>,
    pub(super) spot: Option<(&'o SpotPool, Rental)>,
}

/// The efficiency ratio an option runs at when neither it nor its pool states one.
pub(super) const DEFAULT_RATIO: f64 = 1.0;

/// The accelerator an option names when it is not the reference GPU and
/// some pool of the option runs at the default ratio.
pub(super) fn defaulted_ratio<'o>(s: &Scenario, o: &'o OptionSpec) -> Option<&'o str> {
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

pub(super) fn resolve_pools<'o>(ctx: &Context<'_>, o: &'o OptionSpec, cluster: u32) -> Pools<'o> {
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

//! Porting: the month the option's own accelerators take over, what the
//! port costs month by month, and the bridge that carries the demand meanwhile.

use super::context::Context;
use super::flows::Run;
use crate::demand::MonthDemand;
use crate::result::Category;
use crate::scenario::*;

/// The first month the workload runs on the option's own accelerators: the
/// porting delay rounded up to whole months (0 without porting).
pub(super) fn ported_from(porting: Option<&crate::porting::PortingCost>) -> usize {
    porting.map_or(0, |p| p.delay_months.ceil() as usize)
}

/// What the incumbent charges per reference-GPU-hour while a port is under
/// way, in scenario currency; `None`: nobody carries the demand meanwhile.
pub(super) fn bridge_price(ctx: &Context<'_>) -> Option<f64> {
    ctx.s.porting.as_ref().and_then(|p| p.bridge_price_per_ref_gpu_hour.map(|b| b * ctx.fx(p.currency)))
}

/// The reference-GPU-hours a month's demand asks for.
pub(super) fn bridged_hours(ctx: &Context<'_>, month: &MonthDemand) -> f64 {
    month.ref_gpu_hours() * ctx.demand_scale
}

/// What porting costs an option, when the scenario and the option say.
pub(super) fn porting_cost(ctx: &Context<'_>, o: &OptionSpec) -> Option<crate::porting::PortingCost> {
    match (&ctx.s.porting, &o.porting) {
        (Some(a), Some(p)) => Some(crate::porting::porting_cost(a, p, ctx.fx(a.currency))),
        _ => None,
    }
}

/// Porting engineers are paid while they port (at least one month); upkeep
/// follows every month from the port's end.
pub(super) struct PortingMonths {
    pub(super) porting_months: usize,
    pub(super) engineers: f64,
    pub(super) upkeep: f64,
}

impl PortingMonths {
    pub(super) fn new(p: &crate::porting::PortingCost, start: usize) -> Self {
        let porting_months = start.max(1);
        PortingMonths {
            porting_months,
            engineers: p.cost / porting_months as f64,
            upkeep: p.maintenance_per_year / 12.0,
        }
    }
}

pub(super) fn add_porting(p: &crate::porting::PortingCost, start: usize, run: &mut Run) {
    let p = PortingMonths::new(p, start);
    for m in 0..p.porting_months.min(run.flows.len()) {
        run.flows.add(m, Category::Porting, p.engineers);
    }
    for m in start..run.flows.len() {
        run.flows.add(m, Category::PortingMaintenance, p.upkeep);
    }
}

//! Costs: an owned fleet, reserved commitments, storage and the edge.

use super::context::Context;
use super::flows::Run;
use super::pools::Rental;
use crate::result::{Category, Note};
use crate::scenario::*;

/// Capex, running costs and residual value of an owned fleet, given the
/// accelerator-hours it ran each month.
pub(super) fn owned_costs(ctx: &Context<'_>, p: &OwnedPool, used_accel_hours: &[f64], run: &mut Run) {
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
pub(super) fn reserved_costs(
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
pub(super) struct StorageAndEdge {
    pub(super) storage: Option<f64>,
    pub(super) edge: Option<(f64, f64)>,
}

impl StorageAndEdge {
    pub(super) fn of(ctx: &Context<'_>, o: &OptionSpec) -> Self {
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

pub(super) fn add_storage_and_edge(ctx: &Context<'_>, o: &OptionSpec, run: &mut Run) {
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

//! One option: its run into cash flows, and its result.

use super::context::Context;
use super::costs::add_storage_and_edge;
use super::flows::Run;
use super::job::run_job;
use super::pools::{DEFAULT_RATIO, defaulted_ratio};
use super::porting::{add_porting, ported_from, porting_cost};
use super::shared::run_shared;
use crate::demand;
use crate::result::{Fleet, MemoryFit, Note, OptionResult};
use crate::scenario::*;

/// Runs one option into `run` (new or reset): every month's cash flows.
pub(super) fn run_option(
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

/// One option's result; `run` is scratch (new or left by another option), reset here.
pub(super) fn evaluate_option(
    ctx: &Context<'_>,
    prepared: &demand::Prepared,
    o: &OptionSpec,
    run: &mut Run,
) -> OptionResult {
    let cost = porting_cost(ctx, o);
    run.reset(ctx.horizon);
    run_option(ctx, prepared, o, cost, run);
    let porting = cost.zip(o.porting.as_ref()).map(|(c, p)| c.result(p));

    let monthly = run.flows.to_monthly();
    let (total_nominal, total_npv, compute) = monthly.totals_and_compute(ctx.discount);
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
        monthly,
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
        notes: std::mem::take(&mut run.notes),
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

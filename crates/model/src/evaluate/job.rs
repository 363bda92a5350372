//! A job: run on the option's cluster until its work is done.

use super::context::Context;
use super::costs::{owned_costs, reserved_costs};
use super::flows::Run;
use super::pools::resolve_pools;
use crate::result::{Category, Note};
use crate::scenario::*;

/// Runs a single job on the option's cluster until its work is done.
pub(super) fn run_job(ctx: &Context<'_>, o: &OptionSpec, job: &Job, work: f64, ported_from: usize, run: &mut Run) {
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

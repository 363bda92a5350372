//! Inputs known only as ranges, and the Monte Carlo over them.
//!
//! `[[uncertainty]]` entries name a scenario input by path and give its
//! distribution. A simulation draws every uncertain input (and each
//! option's supply events) per trial and evaluates the scenario. Trials are
//! cut into fixed chunks, each with its own random stream derived from the
//! seed, and results are placed by trial index: the same seed gives the
//! same numbers, bit for bit, whatever the number of threads.

use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::Checked;
use crate::random::{Rng, Sampler};
use crate::scenario::*;
use crate::validate::{InputError, Rule};

mod summary;

use summary::summarise;
pub use summary::{OptionRange, Percentiles, Simulation};

pub use crate::params::*;

/// How many trials, from which seed, on how many threads.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SimulationConfig {
    /// Number of trials (at least 1).
    pub trials: u32,
    /// Seed of the random streams: the same seed gives the same results.
    pub seed: u64,
    /// Worker threads (0 = one per core). Results do not depend on it.
    pub threads: usize,
}

/// Trials per chunk: the unit of work and of random streams.
const CHUNK: usize = 256;

/// Runs the Monte Carlo. `progress(done)` is called as chunks finish.
pub fn simulate(
    s: &Checked<Scenario>,
    config: SimulationConfig,
    progress: &(dyn Fn(u32) + Sync),
) -> Result<Simulation, Vec<InputError>> {
    if config.trials == 0 {
        return Err(vec![InputError::new("trials", 0, Rule::NotPositive)]);
    }
    let draws = Draws::new(s);
    let n = s.options.len();
    let trials = config.trials as usize;
    let chunks = trials.div_ceil(CHUNK);
    // The results as columns: each option's nominal totals, then each
    // option's NPVs, in trial order. A chunk writes its trials' stretch of
    // every column, so nothing is copied after.
    let mut table = vec![0.0; 2 * n * trials];
    let mut stretches: Vec<Vec<&mut [f64]>> = (0..chunks).map(|_| Vec::with_capacity(2 * n)).collect();
    for column in table.chunks_mut(trials) {
        for (chunk, stretch) in stretches.iter_mut().zip(column.chunks_mut(CHUNK)) {
            chunk.push(stretch);
        }
    }
    let work = Mutex::new(stretches.into_iter().enumerate());
    let done = AtomicUsize::new(0);
    let threads = match config.threads {
        0 => std::thread::available_parallelism().map_or(1, |p| p.get()),
        t => t,
    }
    .clamp(1, chunks);
    // Each worker counts, trial by trial, which option was cheapest and
    // whether any total was at fault; the counts add up the same in any order.
    let tallies: Vec<Tally> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut trial = (**s).clone();
                    let base_demand = crate::demand::prepare(s);
                    let mut buffers =
                        TrialBuffers { evaluation: crate::evaluate::TrialBuffers::new(s), extra: Vec::new() };
                    let mut row = vec![f64::NAN; 2 * n];
                    let mut tally = Tally { cheapest: vec![0; n], at_fault: false };
                    while let Some((c, mut columns)) = work.lock().ok().and_then(|mut w| w.next()) {
                        let mut rng = Rng::stream(config.seed, c as u64);
                        let count = columns[0].len();
                        for t in 0..count {
                            run_trial(s, &mut trial, &base_demand, &draws, &mut rng, &mut buffers, &mut row);
                            tally.add(&row);
                            for (column, x) in columns.iter_mut().zip(&row) {
                                column[t] = *x;
                            }
                        }
                        let finished = done.fetch_add(count, Ordering::Relaxed) + count;
                        progress(finished as u32);
                    }
                    tally
                })
            })
            .collect();
        workers.into_iter().map(|w| w.join().unwrap_or_else(|e| std::panic::resume_unwind(e))).collect()
    });
    let columns: Vec<&mut [f64]> = table.chunks_mut(trials).collect();
    if tallies.iter().any(|t| t.at_fault) {
        check_trials(s, &columns)?;
    }
    let mut cheapest = vec![0; n];
    for t in &tallies {
        for (sum, count) in cheapest.iter_mut().zip(&t.cheapest) {
            *sum += count;
        }
    }
    Ok(summarise(s, config, columns, &cheapest, threads))
}

/// What a worker counts over its trials.
struct Tally {
    /// Trials in which each option had the lowest NPV.
    cheapest: Vec<u64>,
    /// Whether some total was not finite or beyond the bound ([`check_trials`] finds which).
    at_fault: bool,
}

impl Tally {
    /// Counts one trial's row (nominal then NPV per option).
    fn add(&mut self, row: &[f64]) {
        let npv = &row[self.cheapest.len()..];
        // The first of the lowest NPVs, as `min_by` finds it.
        if let Some((i, _)) = npv.iter().enumerate().min_by(|a, b| a.1.total_cmp(b.1)) {
            self.cheapest[i] += 1;
        }
        self.at_fault |= row.iter().any(at_fault);
    }
}

/// A trial's total that is not finite or beyond the bound of a figure.
fn at_fault(x: &f64) -> bool {
    !x.is_finite() || x.abs() > crate::validate::MAX_FIGURE
}

/// Every trial's totals finite and within the bound; else an error per
/// option at fault, naming the ranges and supply events that can drive it.
fn check_trials(s: &Checked<Scenario>, columns: &[&mut [f64]]) -> Result<(), Vec<InputError>> {
    let n = s.options.len();
    let mut errors = Vec::new();
    for (i, o) in s.options.iter().enumerate() {
        // The first trial at fault, its nominal total before its NPV.
        let found =
            columns[i].iter().zip(columns[n + i].iter()).flat_map(|(nominal, npv)| [*nominal, *npv]).find(at_fault);
        let Some(found) = found else { continue };
        let mut inputs: Vec<String> = s
            .uncertainty
            .iter()
            .zip(s.ranges())
            .enumerate()
            .filter(|(_, (_, (p, _)))| p.option_index().is_none_or(|j| j == i))
            .map(|(k, (u, _))| format!("uncertainty[{k}] ({})", u.path))
            .collect();
        if o.supply.as_ref().is_some_and(|sup| sup.export_change_probability > 0.0) {
            inputs.push(format!("options[{i}].supply.export_change_extra_cost_share"));
        }
        errors.push(InputError::new(
            format!("options[{i}]"),
            format!("{:?}", o.id),
            Rule::FigureBeyondBound {
                option: Some(o.id.clone()),
                figure: crate::bounds::Figure::Simulated,
                found,
                inputs,
            },
        ));
    }
    if errors.is_empty() { Ok(()) } else { Err(errors) }
}

/// What a trial draws, in order: every range, then each option's supply
/// events (a lead time for an owned fleet, an export-rule event).
struct Draws {
    ranges: Vec<(Param, Sampler)>,
    supply: Vec<Option<SupplyDraws>>,
}

struct SupplyDraws {
    lead_time: Option<Sampler>,
    export_change: Sampler,
    extra_cost_share: f64,
}

impl Draws {
    fn new(s: &Checked<Scenario>) -> Draws {
        let ranges = s.ranges().iter().map(|(p, d)| (*p, d.sampler())).collect();
        let supply = s
            .options
            .iter()
            .map(|o| {
                let sup = o.supply.as_ref()?;
                let lead_time = sup.lead_time_months.filter(|_| o.owned.is_some());
                Some(SupplyDraws {
                    lead_time: lead_time
                        .map(|[low, mode, high]| Distribution::Triangular { low, mode, high }.sampler()),
                    export_change: Distribution::Bernoulli { probability: sup.export_change_probability }.sampler(),
                    extra_cost_share: sup.export_change_extra_cost_share,
                })
            })
            .collect();
        Draws { ranges, supply }
    }
}

/// One trial: draw, evaluate, apply supply events. Writes nominal then NPV
/// per option into `row`.
fn run_trial(
    base: &Scenario,
    trial: &mut Scenario,
    base_demand: &crate::demand::Prepared,
    draws: &Draws,
    rng: &mut Rng,
    buffers: &mut TrialBuffers,
    row: &mut [f64],
) {
    let mut demand_scale = None;
    for (p, d) in &draws.ranges {
        let value = d.sample(rng);
        match p {
            // The prepared demand is scaled instead of prepared again.
            Param::DemandScale => demand_scale = Some(value),
            _ => p.set(trial, base, value),
        }
    }
    // Supply: lead times drawn for owned fleets, export-rule events per option.
    let extra = &mut buffers.extra;
    extra.clear();
    extra.resize(trial.options.len(), 0.0);
    for ((o, sup), extra) in trial.options.iter_mut().zip(&draws.supply).zip(extra.iter_mut()) {
        let Some(sup) = sup else { continue };
        if let (Some(lead_time), Some(owned)) = (sup.lead_time, o.owned.as_mut()) {
            owned.lead_time_months = lead_time.sample(rng).round().max(0.0) as u32;
        }
        *extra = sup.export_change.sample(rng) * sup.extra_cost_share;
    }
    let (nominal, npv) = row.split_at_mut(trial.options.len());
    let scale = demand_scale.unwrap_or(1.0);
    crate::evaluate::trial_totals(trial, base_demand, scale, &mut buffers.evaluation, nominal, npv);
    for ((nominal, npv), extra) in nominal.iter_mut().zip(npv).zip(&buffers.extra) {
        *nominal *= 1.0 + extra;
        *npv *= 1.0 + extra;
    }
}

/// What one thread reuses from trial to trial.
struct TrialBuffers {
    evaluation: crate::evaluate::TrialBuffers,
    /// Each option's extra cost share from supply events.
    extra: Vec<f64>,
}

//! What a simulation reports: each option's percentiles and odds of being
//! cheapest, summarised from the trials' columns.

use super::SimulationConfig;
use crate::scenario::*;

/// Percentiles and odds of one option.
#[derive(Debug, Clone, PartialEq)]
pub struct OptionRange {
    /// The option's id.
    pub id: String,
    /// The option's label; its id when it has none.
    pub label: String,
    /// Percentiles of the nominal total across trials.
    pub nominal: Percentiles,
    /// Percentiles of the NPV across trials.
    pub npv: Percentiles,
    /// Share of trials in which this option has the lowest NPV.
    pub probability_cheapest: f64,
}

/// Nearest-rank percentiles and the mean of one figure across trials.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Percentiles {
    /// 10th percentile.
    pub p10: f64,
    /// Median (50th percentile).
    pub p50: f64,
    /// 80th percentile (a budget's contingency).
    pub p80: f64,
    /// 90th percentile.
    pub p90: f64,
    /// Mean.
    pub mean: f64,
}

/// What a Monte Carlo run found: each option's spread across trials.
#[derive(Debug, Clone, PartialEq)]
pub struct Simulation {
    /// Trials run.
    pub trials: u32,
    /// The seed the trials were drawn from.
    pub seed: u64,
    /// One entry per option, in the scenario's order.
    pub options: Vec<OptionRange>,
}

/// Nearest-rank percentiles and the mean of a column (reordered: selection
/// moves values about). The mean is summed in trial order, so it does not
/// depend on how the selection moved them.
fn percentiles(values: &mut [f64]) -> Percentiles {
    let len = values.len();
    if len == 0 {
        return Percentiles { p10: f64::NAN, p50: f64::NAN, p80: f64::NAN, p90: f64::NAN, mean: f64::NAN };
    }
    let mean = values.iter().sum::<f64>() / len as f64;
    let rank = |q: f64| ((q * len as f64).ceil() as usize).clamp(1, len) - 1;
    let (r10, r50, r80, r90) = (rank(0.10), rank(0.50), rank(0.80), rank(0.90));
    // The median first; the others are then each on one side of it (the
    // P80 below the P90).
    let (below, p50, above) = values.select_nth_unstable_by(r50, f64::total_cmp);
    let p50 = *p50;
    let p10 = if r10 < r50 { *below.select_nth_unstable_by(r10, f64::total_cmp).1 } else { p50 };
    let (p80, p90) = if r90 > r50 {
        let (under, p90, _) = above.select_nth_unstable_by(r90 - r50 - 1, f64::total_cmp);
        let p90 = *p90;
        let p80 = match r80 {
            r if r <= r50 => p50,
            r if r >= r90 => p90,
            r => *under.select_nth_unstable_by(r - r50 - 1, f64::total_cmp).1,
        };
        (p80, p90)
    } else {
        (p50, p50)
    };
    Percentiles { p10, p50, p80, p90, mean }
}

/// Each column's percentiles, in order, the columns shared out among
/// `threads` workers.
fn percentiles_of(mut columns: Vec<&mut [f64]>, threads: usize) -> Vec<Percentiles> {
    let per_worker = columns.len().div_ceil(threads.max(1)).max(1);
    std::thread::scope(|scope| {
        let workers: Vec<_> = columns
            .chunks_mut(per_worker)
            .map(|group| scope.spawn(move || group.iter_mut().map(|c| percentiles(c)).collect::<Vec<_>>()))
            .collect();
        workers.into_iter().flat_map(|w| w.join().unwrap_or_else(|e| std::panic::resume_unwind(e))).collect()
    })
}

pub(super) fn summarise(
    s: &Scenario,
    config: SimulationConfig,
    columns: Vec<&mut [f64]>,
    cheapest: &[u64],
    threads: usize,
) -> Simulation {
    let n = s.options.len();
    let trials = columns.first().map_or(0, |c| c.len());
    let ranges = percentiles_of(columns, threads);
    let options = s
        .options
        .iter()
        .enumerate()
        .map(|(i, o)| OptionRange {
            id: o.id.clone(),
            label: if o.label.is_empty() { o.id.clone() } else { o.label.clone() },
            nominal: ranges[i],
            npv: ranges[n + i],
            probability_cheapest: cheapest[i] as f64 / trials.max(1) as f64,
        })
        .collect();
    Simulation { trials: config.trials, seed: config.seed, options }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::random::Rng;

    #[test]
    fn percentiles_are_the_nearest_ranks_of_the_sorted_column() {
        let mut rng = Rng::stream(7, 0);
        for len in [1, 2, 3, 9, 10, 11, 99, 1_000, 5_001] {
            let mut values: Vec<f64> = (0..len)
                .map(|i| Distribution::Uniform { low: -1e6, high: 1e6 }.sample(&mut rng) * (i % 7) as f64)
                .collect();
            let mut sorted = values.clone();
            sorted.sort_by(f64::total_cmp);
            let at = |q: f64| sorted[((q * len as f64).ceil() as usize).clamp(1, len) - 1];
            let mean = values.iter().sum::<f64>() / len as f64;
            let found = percentiles(&mut values);
            assert_eq!(
                found,
                Percentiles { p10: at(0.10), p50: at(0.50), p80: at(0.80), p90: at(0.90), mean },
                "{len} values"
            );
        }
        let mut same = vec![3.5; 10];
        assert_eq!(percentiles(&mut same), Percentiles { p10: 3.5, p50: 3.5, p80: 3.5, p90: 3.5, mean: 3.5 });
        assert!(percentiles(&mut []).p50.is_nan());
    }
}

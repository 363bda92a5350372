//! Demand turned into what the pools consume: for a job, its work; for a
//! profile or portfolio, per month a set of equal-length time slices of
//! reference GPUs busy, split into priority tiers.

use crate::scenario::*;

/// Reference-GPU-hours of a piece of work: given, or 6·N·D ÷ (peak × MFU).
pub fn work_ref_gpu_hours(w: &Work) -> f64 {
    if let Some(h) = w.ref_gpu_hours {
        return h;
    }
    let flops = 6.0 * w.parameters.unwrap_or(0.0) * w.tokens.unwrap_or(0.0);
    let ref_flops_per_second = w.reference_peak_tflops.unwrap_or(0.0) * 1e12 * w.mfu.unwrap_or(0.0);
    flops / ref_flops_per_second / 3600.0
}

/// Priority tiers of the scheduling rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tier {
    /// Above `base_above`: reserved or owned base capacity.
    Urgent,
    /// Between the thresholds: on demand.
    Normal,
    /// Below `spot_below`: spot.
    Low,
}

impl Tier {
    /// The tier a job's priority falls in under `rule`.
    pub fn of(priority: u8, rule: &SchedulingRule) -> Tier {
        if priority > rule.base_above {
            Tier::Urgent
        } else if priority < rule.spot_below {
            Tier::Low
        } else {
            Tier::Normal
        }
    }
}

/// One month of shared demand.
#[derive(Debug, Clone, PartialEq)]
pub struct MonthDemand {
    /// Hours each slice lasts; slices × slice_hours = the month's hours.
    pub slice_hours: f64,
    /// Reference GPUs busy in each slice, all tiers together.
    pub slices: Vec<f64>,
    /// Shares of urgent, normal and low-priority work (sum 1, or all 0).
    shares: [f64; 3],
    /// Σ shares, made once: an option without priority routing takes them as one.
    share_total: f64,
    /// The slices in ascending order and their running sums, so that
    /// Σ min(slice × c, capacity) takes a binary search, not a pass.
    sorted: Vec<f64>,
    prefix: Vec<f64>,
    /// Σ slices, made once: every option reads it every month of every trial.
    total: f64,
    /// The busiest slice (0 when none is busy), made once for the same reason.
    peak: f64,
}

impl MonthDemand {
    /// A month of `slices` (reference GPUs busy, each slice lasting `slice_hours`),
    /// split into tiers by `shares` (urgent, normal, low).
    pub fn new(slice_hours: f64, slices: Vec<f64>, shares: [f64; 3]) -> MonthDemand {
        let mut sorted = slices.clone();
        // Equal under `total_cmp` is equal bit for bit: an unstable sort gives the same order.
        sorted.sort_unstable_by(f64::total_cmp);
        let mut prefix = Vec::with_capacity(sorted.len() + 1);
        prefix.push(0.0);
        for x in &sorted {
            prefix.push(prefix[prefix.len() - 1] + x);
        }
        let total = slices.iter().sum();
        let peak = slices.iter().copied().fold(0.0, f64::max);
        let share_total = shares.iter().sum();
        MonthDemand { slice_hours, slices, shares, share_total, sorted, prefix, total, peak }
    }

    /// Whether two months' demand is the same, bit for bit (the sums first:
    /// months that differ almost always differ there).
    fn same_bits(&self, other: &MonthDemand) -> bool {
        let bits =
            |x: &[f64], y: &[f64]| x.len() == y.len() && x.iter().zip(y).all(|(a, b)| a.to_bits() == b.to_bits());
        bits(&[self.total, self.peak, self.slice_hours], &[other.total, other.peak, other.slice_hours])
            && bits(&self.shares, &other.shares)
            && bits(&self.slices, &other.slices)
    }

    /// Σ over slices of min(slice × c, capacity), for c > 0.
    pub fn capped_sum(&self, c: f64, capacity: f64) -> f64 {
        let threshold = capacity / c;
        // The slices at or under the threshold: counted straight through for a
        // day's few slices (no branch to mispredict), by binary search for hours.
        let j = if self.sorted.len() <= 64 {
            self.sorted.iter().map(|x| usize::from(*x <= threshold)).sum()
        } else {
            self.sorted.partition_point(|x| *x <= threshold)
        };
        c * self.prefix[j] + capacity * (self.sorted.len() - j) as f64
    }

    /// Share of the month's work in `tier`.
    pub fn share(&self, tier: Tier) -> f64 {
        match tier {
            Tier::Urgent => self.shares[0],
            Tier::Normal => self.shares[1],
            Tier::Low => self.shares[2],
        }
    }

    /// Σ of the three tiers' shares (1, or 0 for a month with no work).
    pub fn share_total(&self) -> f64 {
        self.share_total
    }

    /// Most reference GPUs busy in any slice.
    pub fn peak(&self) -> f64 {
        self.peak
    }

    /// Reference GPUs busy, summed over the slices.
    pub fn total(&self) -> f64 {
        self.total
    }

    /// Reference-GPU-hours of the month: Σ slices × slice hours.
    pub fn ref_gpu_hours(&self) -> f64 {
        self.total * self.slice_hours
    }
}

/// The demand in the form the pools consume, made once per scenario.
#[derive(Debug, Clone, PartialEq)]
pub enum Prepared {
    /// A single job.
    Job {
        /// The job as the scenario states it.
        job: Job,
        /// Its work, reference-GPU-hours.
        work: f64,
    },
    /// A profile, portfolio or inference demand, month by month.
    Shared {
        /// One entry per month of the horizon.
        months: Vec<MonthDemand>,
        /// For each month, the first month whose demand is the same bit for
        /// bit (its own index when no earlier one is): an option routes such
        /// months alike, so it routes each only once.
        alike: Vec<usize>,
        /// Accelerators a typical job or serving replica runs on (sets multi-node scaling).
        cluster: u32,
    },
}

impl Prepared {
    /// Reference-GPU-hours over the horizon (for a job: its work).
    pub fn total_ref_gpu_hours(&self) -> f64 {
        match self {
            Prepared::Job { work, .. } => *work,
            Prepared::Shared { months, .. } => months.iter().map(MonthDemand::ref_gpu_hours).sum(),
        }
    }
}

/// Prepares the demand of a valid scenario.
pub fn prepare(s: &Scenario) -> Prepared {
    let horizon = s.horizon_months as usize;
    match &s.demand {
        Demand::Job(job) => Prepared::Job { job: job.clone(), work: work_ref_gpu_hours(&job.work()) },
        Demand::Profile(p) => shared(profile_months(p, horizon), p.cluster_accelerators),
        Demand::Portfolio(pf) => shared(portfolio_months(pf, &s.scheduling, horizon), pf.cluster_accelerators),
        Demand::Inference(d) => {
            // Reference GPUs busy around the clock: tokens per second ÷ what one of them serves.
            let level = d.tokens_per_second() / d.tokens_per_second_per_ref_gpu.unwrap_or(f64::INFINITY);
            let months =
                (0..horizon).map(|_| MonthDemand::new(HOURS_PER_MONTH, vec![level], [1.0, 0.0, 0.0])).collect();
            shared(months, d.cluster_accelerators)
        }
    }
}

fn shared(months: Vec<MonthDemand>, cluster: u32) -> Prepared {
    let mut distinct: Vec<usize> = Vec::new();
    let alike = months
        .iter()
        .enumerate()
        .map(|(m, month)| {
            distinct.iter().copied().find(|&k| months[k].same_bits(month)).unwrap_or_else(|| {
                distinct.push(m);
                m
            })
        })
        .collect();
    Prepared::Shared { months, alike, cluster }
}

fn profile_months(p: &Profile, horizon: usize) -> Vec<MonthDemand> {
    let shares = [1.0 - p.normal_share - p.low_priority_share, p.normal_share, p.low_priority_share];
    let hours_per_month = HOURS_PER_MONTH as usize;
    if !p.hourly_ref_gpus.is_empty() {
        let hourly = &p.hourly_ref_gpus;
        return (0..horizon)
            .map(|m| {
                let slices = (0..hours_per_month).map(|h| hourly[(m * hours_per_month + h) % hourly.len()]).collect();
                MonthDemand::new(1.0, slices, shares)
            })
            .collect();
    }
    let shape: Vec<f64> = if p.shape.is_empty() {
        vec![1.0]
    } else {
        let mean = p.shape.iter().sum::<f64>() / p.shape.len() as f64;
        p.shape.iter().map(|w| w / mean).collect()
    };
    (0..horizon)
        .map(|m| {
            let level = p.monthly_ref_gpus[m % p.monthly_ref_gpus.len()];
            MonthDemand::new(HOURS_PER_MONTH / shape.len() as f64, shape.iter().map(|w| level * w).collect(), shares)
        })
        .collect()
}

/// Each job's work is spread evenly from its start to its deadline.
fn portfolio_months(pf: &Portfolio, rule: &SchedulingRule, horizon: usize) -> Vec<MonthDemand> {
    let mut tiers = vec![[0.0f64; 3]; horizon];
    for job in &pf.jobs {
        let start = job.start_month as usize;
        let end = job.deadline_month.map_or(horizon, |d| d as usize).min(horizon);
        if end <= start {
            continue;
        }
        let gpus = work_ref_gpu_hours(&job.work()) / ((end - start) as f64 * HOURS_PER_MONTH);
        let t = match Tier::of(job.priority, rule) {
            Tier::Urgent => 0,
            Tier::Normal => 1,
            Tier::Low => 2,
        };
        for month in &mut tiers[start..end] {
            month[t] += gpus;
        }
    }
    tiers
        .into_iter()
        .map(|t| {
            let total: f64 = t.iter().sum();
            let shares = if total > 0.0 { t.map(|x| x / total) } else { [0.0; 3] };
            MonthDemand::new(HOURS_PER_MONTH, vec![total], shares)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_month_names_the_first_month_with_the_same_demand() {
        let month = |level: f64| MonthDemand::new(365.0, vec![level * 0.5, level * 1.5], [0.8, 0.0, 0.2]);
        let Prepared::Shared { alike, .. } = shared([48.0, 48.0, 56.0, 48.0, 0.0, 56.0, -0.0].map(month).to_vec(), 1)
        else {
            panic!("a shared demand")
        };
        // −0.0 and +0.0 busy GPUs are equal numbers but not the same bits: not alike.
        assert_eq!(alike, [0, 0, 2, 0, 4, 2, 6]);
        let other_shares = MonthDemand::new(365.0, vec![24.0, 72.0], [1.0, 0.0, 0.0]);
        let Prepared::Shared { alike, .. } = shared(vec![month(48.0), other_shares, month(48.0)], 1) else {
            panic!("a shared demand")
        };
        assert_eq!(alike, [0, 1, 0]);
    }

    #[test]
    fn capped_sum_equals_the_pass_over_slices() {
        // A day's few slices (counted straight through) and a month of hours (binary search).
        let day = vec![3.0, 0.5, 7.25, 2.0, 9.0, 0.0, 4.4];
        let hours: Vec<f64> = (0..730).map(|h| f64::from((h * 37) % 101) / 10.0).collect();
        for slices in [day, hours] {
            let m = MonthDemand::new(1.0, slices.clone(), [1.0, 0.0, 0.0]);
            assert_eq!(m.peak(), slices.iter().copied().fold(0.0, f64::max));
            for c in [0.1, 0.5, 1.0, 2.5] {
                for capacity in [0.0, 1.0, 3.3, 8.0, 100.0] {
                    let pass: f64 = slices.iter().map(|x| (x * c).min(capacity)).sum();
                    let tolerance = 1e-12 * pass.abs().max(1.0);
                    assert!((m.capped_sum(c, capacity) - pass).abs() < tolerance, "c {c}, capacity {capacity}");
                }
            }
        }
    }
}

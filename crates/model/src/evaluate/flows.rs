//! What running one option produces: cash flows per month and category,
//! and the hours served, bridged, unserved and run.

use super::routing::Routed;
use crate::result::{Category, MonthFlows, Note};

/// An option's cash flows per month, and the categories any amount went to.
/// Only those are added up: a category no amount went to is
/// +0.0 in every month, and adding +0.0 changes no sum (see
/// [`MonthFlows::sum_of`]), so totals are those of every category, bit for bit.
pub(super) struct Flows {
    pub(super) months: Vec<MonthFlows>,
    /// Bit `c` set: category `c` had an amount added in some month.
    live: u32,
    /// A simulation trial's flows keep each month's total, not its
    /// categories (`months` is then empty).
    running: Option<Running>,
}

/// Each month's total, amounts added to it as they are made (in any category).
struct Running {
    months: Vec<f64>,
    /// Σ |amount| (debug builds only): the scale of the rounding in the totals.
    size: f64,
}

impl Flows {
    fn new(horizon: usize) -> Self {
        Flows { months: vec![MonthFlows::default(); horizon], live: 0, running: None }
    }

    /// Flows that keep only each month's total: each month's amounts added
    /// in the order they are made rather than by category, so
    /// [`Flows::totals`] are the month by month sums by category but for rounding.
    pub(super) fn running(horizon: usize) -> Self {
        let running = Running { months: vec![0.0; horizon], size: 0.0 };
        Flows { months: Vec::new(), live: 0, running: Some(running) }
    }

    pub(super) fn add(&mut self, m: usize, category: Category, amount: f64) {
        if let Some(r) = &mut self.running {
            r.months[m] += amount;
            if cfg!(debug_assertions) {
                r.size += amount.abs();
            }
            return;
        }
        self.months[m].add(category, amount);
        self.live |= 1 << category.index();
    }

    pub(super) fn len(&self) -> usize {
        self.running.as_ref().map_or(self.months.len(), |r| r.months.len())
    }

    /// Σ |amount| of running flows (0 for flows by month).
    pub(super) fn magnitude(&self) -> f64 {
        self.running.as_ref().map_or(0.0, |r| r.size)
    }

    /// The live categories within `mask`, ascending: indices and how many.
    fn live_within(&self, mask: u32) -> ([usize; Category::COUNT], usize) {
        let mut indices = [0; Category::COUNT];
        let mut n = 0;
        for (i, slot) in (0..Category::COUNT).filter(|i| (self.live & mask) >> i & 1 == 1).zip(&mut indices) {
            *slot = i;
            n += 1;
        }
        (indices, n)
    }

    /// Nominal total and NPV: Σ month totals and Σ month total × discount
    /// factor, each month's total made once (what a simulation trial needs).
    pub(super) fn totals(&self, discount: &[f64]) -> (f64, f64) {
        if let Some(r) = &self.running {
            let zero: f64 = std::iter::empty::<f64>().sum();
            return r.months.iter().zip(discount).fold((zero, zero), |(n, v), (t, d)| (n + t, v + t * d));
        }
        let (nominal, npv, _) = self.sums::<false>(discount);
        (nominal, npv)
    }

    /// As [`Flows::totals`], with Σ of every month's compute categories
    /// ([`Category::is_compute`]) from the same pass over the months.
    pub(super) fn totals_and_compute(&self, discount: &[f64]) -> (f64, f64, f64) {
        self.sums::<true>(discount)
    }

    /// One pass over the months: nominal, NPV and, when `COMPUTE`, the
    /// compute categories' total (else 0, and nothing summed for it).
    fn sums<const COMPUTE: bool>(&self, discount: &[f64]) -> (f64, f64, f64) {
        let (indices, n) = self.live_within(u32::MAX);
        let live = &indices[..n];
        let mask = Category::ALL.iter().filter(|c| c.is_compute()).fold(0, |m, c| m | 1 << c.index());
        let (compute_indices, k) = self.live_within(if COMPUTE { mask } else { 0 });
        let compute_live = &compute_indices[..k];
        // The sums start where `Iterator::sum` starts, so they are its own.
        let zero: f64 = std::iter::empty::<f64>().sum();
        let (mut nominal, mut npv, mut compute) = (zero, zero, zero);
        for (f, d) in self.months.iter().zip(discount) {
            let total = f.sum_of(live);
            debug_assert_eq!(total.to_bits(), f.total().to_bits());
            nominal += total;
            npv += total * d;
            if COMPUTE {
                let month_compute = f.sum_of(compute_live);
                debug_assert_eq!(month_compute.to_bits(), f.compute_total().to_bits());
                compute += month_compute;
            }
        }
        (nominal, npv, compute)
    }

    /// Every month back to +0.0 (one fill: faster than clearing the live
    /// categories one by one once a few are live).
    fn clear(&mut self) {
        if let Some(r) = &mut self.running {
            r.months.fill(0.0);
            r.size = 0.0;
        }
        if self.live != 0 {
            self.months.fill(MonthFlows::default());
        }
        self.live = 0;
    }
}

/// What running one option produced, before totals.
pub(super) struct Run {
    pub(super) flows: Flows,
    /// Whether to add up hours served, bridged, unserved and run (an
    /// evaluation reports them; a simulation trial uses only the flows).
    /// Only a shared demand's monthly loop leaves them out.
    pub(super) tally: bool,
    pub(super) served: f64,
    /// Of `served`, the hours the incumbent carried during a port.
    pub(super) bridged: f64,
    pub(super) unserved: f64,
    pub(super) accelerator_hours: f64,
    /// Accelerators running at once at the busiest time (tallied runs only).
    pub(super) peak_accelerators: f64,
    /// Months in which the option runs the workload (tallied runs only).
    pub(super) run_months: f64,
    pub(super) owned_utilisation: Option<f64>,
    pub(super) owned_energy_kwh: Option<f64>,
    pub(super) time_to_complete: Option<f64>,
    pub(super) completes: Option<bool>,
    pub(super) meets_deadline: Option<bool>,
    pub(super) notes: Vec<Note>,
    /// Scratch: accelerator-hours of an owned fleet per month.
    pub(super) owned_used: Vec<f64>,
    /// Scratch: the base pool's capacity left per time slice.
    pub(super) free: Vec<f64>,
    /// Scratch: per month, what it routed and at which base capacity (bits),
    /// for the months alike to it ([`demand::Prepared::Shared`](crate::demand::Prepared::Shared)).
    pub(super) routed_alike: Vec<Option<(u64, Routed)>>,
}

impl Run {
    pub(super) fn new(horizon: usize) -> Self {
        Run {
            flows: Flows::new(horizon),
            tally: true,
            served: 0.0,
            bridged: 0.0,
            unserved: 0.0,
            accelerator_hours: 0.0,
            peak_accelerators: 0.0,
            run_months: 0.0,
            owned_utilisation: None,
            owned_energy_kwh: None,
            time_to_complete: None,
            completes: None,
            meets_deadline: None,
            notes: Vec::new(),
            owned_used: Vec::new(),
            free: Vec::new(),
            routed_alike: Vec::new(),
        }
    }

    /// As [`Run::new`], keeping the buffers.
    pub(super) fn reset(&mut self, horizon: usize) {
        debug_assert_eq!(self.flows.len(), horizon);
        self.flows.clear();
        self.served = 0.0;
        self.bridged = 0.0;
        self.unserved = 0.0;
        self.accelerator_hours = 0.0;
        self.peak_accelerators = 0.0;
        self.run_months = 0.0;
        self.owned_utilisation = None;
        self.owned_energy_kwh = None;
        self.time_to_complete = None;
        self.completes = None;
        self.meets_deadline = None;
        self.notes.clear();
    }
}

//! What running one option produces: cash flows per month and category,
//! and the hours served, bridged, unserved and run.

use super::routing::Routed;
use crate::result::{Category, Monthly, Note};

/// An option's cash flows per month and category, and the categories any
/// amount went to: only those are kept in the result ([`Monthly`]).
pub(super) struct Flows {
    months: Vec<[f64; Category::COUNT]>,
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
        Flows { months: vec![[0.0; Category::COUNT]; horizon], live: 0, running: None }
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
        self.months[m][category.index()] += amount;
        self.live |= 1 << category.index();
    }

    pub(super) fn len(&self) -> usize {
        self.running.as_ref().map_or(self.months.len(), |r| r.months.len())
    }

    /// Σ |amount| of running flows (0 for flows by month).
    pub(super) fn magnitude(&self) -> f64 {
        self.running.as_ref().map_or(0.0, |r| r.size)
    }

    /// Nominal total and NPV: Σ month totals and Σ month total × discount
    /// factor, each month's total made once (what a simulation trial needs).
    pub(super) fn totals(&self, discount: &[f64]) -> (f64, f64) {
        if let Some(r) = &self.running {
            let zero: f64 = std::iter::empty::<f64>().sum();
            return r.months.iter().zip(discount).fold((zero, zero), |(n, v), (t, d)| (n + t, v + t * d));
        }
        let (nominal, npv, _) = self.to_monthly().totals_and_compute(discount);
        (nominal, npv)
    }

    /// The months as a result holds them: the categories some amount went to.
    pub(super) fn to_monthly(&self) -> Monthly {
        Monthly::from_dense(&self.months, self.live)
    }

    /// Every month back to +0.0 (one fill: faster than clearing the live
    /// categories one by one once a few are live).
    fn clear(&mut self) {
        if let Some(r) = &mut self.running {
            r.months.fill(0.0);
            r.size = 0.0;
        }
        if self.live != 0 {
            self.months.fill([0.0; Category::COUNT]);
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

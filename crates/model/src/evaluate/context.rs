//! Scenario-wide facts every option needs (discount, fx, refresh, scaling),
//! and the scaling curve's interpolation.

use crate::scenario::*;

/// Scenario-wide facts every option needs.
pub(super) struct Context<'a> {
    pub(super) s: &'a Scenario,
    pub(super) horizon: usize,
    /// Discount factor of each month.
    pub(super) discount: &'a [f64],
    /// Demand × this (a simulation's `demand.scale`; 1 otherwise).
    pub(super) demand_scale: f64,
}

impl<'a> Context<'a> {
    pub(super) fn new(s: &'a Scenario, discount: &'a [f64], demand_scale: f64) -> Self {
        Context { s, horizon: s.horizon_months as usize, discount, demand_scale }
    }

    /// Scenario-currency units per unit of `c`.
    pub(super) fn fx(&self, c: Option<crate::Currency>) -> f64 {
        c.map_or(Some(1.0), |c| crate::fx_rate(&self.s.fx, c, self.s.currency)).unwrap_or(f64::NAN)
    }

    /// Number of refreshes a rental pool has had by month `m`.
    fn refreshes(&self, m: usize) -> i32 {
        let r = &self.s.refresh;
        if r.enabled { (m / r.interval_months.max(1) as usize) as i32 } else { 0 }
    }

    pub(super) fn rental_perf(&self, m: usize) -> f64 {
        // x^0 is 1 exactly: no call for the months before a refresh.
        match self.refreshes(m) {
            0 => 1.0,
            n => self.s.refresh.performance_uplift.powi(n),
        }
    }

    pub(super) fn rental_price(&self, m: usize) -> f64 {
        match self.refreshes(m) {
            0 => 1.0,
            n => self.s.refresh.price_factor.powi(n),
        }
    }

    /// Scaling efficiency of an option at a cluster size.
    pub(super) fn scaling(&self, o: &OptionSpec, accelerators: u32) -> f64 {
        if let Some(s) = o.scaling_efficiency {
            return s;
        }
        o.interconnect
            .as_ref()
            .and_then(|id| self.s.scaling_curves.iter().find(|c| &c.id == id))
            .map_or(1.0, |c| scaling_at(c, f64::from(accelerators)))
    }
}

/// Scaling efficiency interpolated linearly in log2(accelerators), flat
/// beyond the first and last points.
pub fn scaling_at(curve: &ScalingCurve, accelerators: f64) -> f64 {
    let points = &curve.points;
    let Some(first) = points.first() else { return 1.0 };
    if accelerators <= first.0 {
        return first.1;
    }
    for pair in points.windows(2) {
        let ((n0, e0), (n1, e1)) = (pair[0], pair[1]);
        if accelerators <= n1 {
            let t = (accelerators.log2() - n0.log2()) / (n1.log2() - n0.log2());
            return e0 + t * (e1 - e0);
        }
    }
    points.last().map_or(1.0, |p| p.1)
}

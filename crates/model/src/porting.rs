//! What leaving CUDA costs: engineer-months to port and validate a
//! workload, the schedule delay, and the ongoing maintenance.
//!
//! The effort per unit of code and per custom kernel are ASSUMPTIONS, not
//! data: no source in the fact sheets measures porting effort. They are
//! stated here as defaults, reported as assumptions, and meant to be
//! replaced by a team's own estimate (`[porting.effort.<maturity>]`).

use crate::scenario::{Effort, Maturity, OptionPorting, PortingAssumptions};

/// Suanli's default effort table: assumptions, labelled as such wherever
/// they are used.
pub fn default_effort(m: Maturity) -> Effort {
    match m {
        Maturity::Mature => Effort {
            months_per_kloc: 0.05,
            months_per_kernel: 0.5,
            validation_months: 1.0,
            maintenance_share_per_year: 0.10,
        },
        Maturity::Beta => Effort {
            months_per_kloc: 0.15,
            months_per_kernel: 1.0,
            validation_months: 2.0,
            maintenance_share_per_year: 0.20,
        },
        Maturity::Early => Effort {
            months_per_kloc: 0.30,
            months_per_kernel: 2.0,
            validation_months: 4.0,
            maintenance_share_per_year: 0.30,
        },
    }
}

/// What porting costs one option.
#[derive(Debug, Clone, PartialEq)]
pub struct PortingResult {
    /// Maturity of the option's framework adapter.
    pub maturity: Maturity,
    /// The framework adapter, as the option names it.
    pub adapter: Option<String>,
    /// Engineer-months to port and validate the workload.
    pub engineer_months: f64,
    /// In the scenario currency.
    pub cost: f64,
    /// Months until the port runs: engineer-months ÷ engineers (not rounded).
    pub delay_months: f64,
    /// Yearly upkeep of the port, in the scenario currency.
    pub maintenance_per_year: f64,
    /// True when the effort came from Suanli's default table.
    pub default_effort: bool,
}

/// The figures of a [`PortingResult`] that cash flows need (a simulation
/// trial needs no more, and allocates nothing for them).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PortingCost {
    /// Engineer-months to port and validate the workload.
    pub engineer_months: f64,
    /// In the scenario currency.
    pub cost: f64,
    /// Months until the port runs: engineer-months ÷ engineers (not rounded).
    pub delay_months: f64,
    /// Yearly upkeep of the port, in the scenario currency.
    pub maintenance_per_year: f64,
    /// True when the effort came from Suanli's default table.
    pub default_effort: bool,
}

/// Engineer-months = kLOC × months/kLOC + kernels × months/kernel + validation;
/// delay = engineer-months ÷ engineers; cost = engineer-months × monthly cost.
pub fn porting_cost(a: &PortingAssumptions, o: &OptionPorting, fx: f64) -> PortingCost {
    let (effort, default_effort) = match a.effort.get(&o.maturity) {
        Some(e) => (*e, false),
        None => (default_effort(o.maturity), true),
    };
    let engineer_months =
        a.code_kloc * effort.months_per_kloc + a.custom_kernels * effort.months_per_kernel + effort.validation_months;
    let cost = engineer_months * a.engineer_month_cost * fx;
    PortingCost {
        engineer_months,
        cost,
        delay_months: engineer_months / a.engineers.max(1e-9),
        maintenance_per_year: cost * effort.maintenance_share_per_year,
        default_effort,
    }
}

/// [`porting_cost`] with the option's maturity and adapter.
pub fn porting(a: &PortingAssumptions, o: &OptionPorting, fx: f64) -> PortingResult {
    porting_cost(a, o, fx).result(o)
}

impl PortingCost {
    /// The full result, with the option's maturity and adapter.
    pub fn result(self, o: &OptionPorting) -> PortingResult {
        PortingResult {
            maturity: o.maturity,
            adapter: o.adapter.clone(),
            engineer_months: self.engineer_months,
            cost: self.cost,
            delay_months: self.delay_months,
            maintenance_per_year: self.maintenance_per_year,
            default_effort: self.default_effort,
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;

    #[test]
    fn a_porting_case_by_hand() {
        // 40 kLOC, 10 custom kernels, beta adapter: 40 × 0.15 = 6 + 10 × 1 = 10 + 2 validation
        // = 18 engineer-months; 4 engineers → 4.5 months; at 50,000 a month → 900,000;
        // upkeep 20 % a year = 180,000.
        let a = PortingAssumptions {
            code_kloc: 40.0,
            custom_kernels: 10.0,
            engineer_month_cost: 50_000.0,
            engineers: 4.0,
            currency: None,
            bridge_price_per_ref_gpu_hour: None,
            effort: BTreeMap::new(),
        };
        let r = porting(&a, &OptionPorting { maturity: Maturity::Beta, adapter: Some("torch_npu".into()) }, 1.0);
        assert_eq!(r.engineer_months, 18.0);
        assert_eq!(r.delay_months, 4.5);
        assert_eq!(r.cost, 900_000.0);
        assert!((r.maintenance_per_year - 180_000.0).abs() < 1e-9);
        assert!(r.default_effort);
    }
}

//! The figures of a board's business case: each option's cash flow by year
//! (capital, one-off and recurring, money back at the end) and, against the
//! option it is compared with, when it pays back and its internal rate of
//! return.

use crate::result::{Category, OptionResult};

/// What kind of cash flow a cost category is, as a CFO reads a cash flow.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FlowKind {
    /// Equipment bought and installed.
    Capital,
    /// Paid once, not for equipment (porting the workload).
    OneOff,
    /// Paid every month the option runs.
    Recurring,
    /// Money back at the horizon (book or resale value).
    Residual,
}

impl Category {
    /// Which kind of cash flow this category is.
    pub fn flow_kind(self) -> FlowKind {
        match self {
            Category::Hardware | Category::Installation => FlowKind::Capital,
            Category::Porting => FlowKind::OneOff,
            Category::ResidualValue => FlowKind::Residual,
            Category::Hosting
            | Category::Power
            | Category::Staff
            | Category::Maintenance
            | Category::OtherOpex
            | Category::OnDemand
            | Category::Reserved
            | Category::Spot
            | Category::Storage
            | Category::EdgeBandwidth
            | Category::EdgeSites
            | Category::PortingMaintenance
            | Category::Bridge => FlowKind::Recurring,
        }
    }
}

/// One year of an option's cash flow (nominal, in the scenario's currency).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct YearFlows {
    /// 1-based; the last year may be part of one (a 30-month horizon has 3).
    pub year: u32,
    /// Months of the horizon in this year (12, fewer in a last part year).
    pub months: u32,
    /// Capital: hardware and installation.
    pub capital: f64,
    /// One-off costs that buy no equipment (porting).
    pub one_off: f64,
    /// Every recurring cost: running owned servers, rentals, storage, edge, port upkeep, the bridge.
    pub recurring: f64,
    /// Negative: money back.
    pub residual: f64,
}

impl YearFlows {
    /// The year's net cash flow: the four kinds summed.
    pub fn total(&self) -> f64 {
        self.capital + self.one_off + self.recurring + self.residual
    }
}

/// An option's cash flow by year: the months in twelves, each split by kind.
pub fn by_year(o: &OptionResult) -> Vec<YearFlows> {
    let months: Vec<_> = o.monthly.iter().collect();
    months
        .chunks(12)
        .zip(1..)
        .map(|(months, year)| {
            let mut y = YearFlows { year, months: months.len() as u32, ..YearFlows::default() };
            for m in months {
                for c in Category::ALL {
                    let amount = m.get(c);
                    match c.flow_kind() {
                        FlowKind::Capital => y.capital += amount,
                        FlowKind::OneOff => y.one_off += amount,
                        FlowKind::Recurring => y.recurring += amount,
                        FlowKind::Residual => y.residual += amount,
                    }
                }
            }
            y
        })
        .collect()
}

/// Choosing `option` over `rival` when it buys more equipment: what it
/// saves each month (negative while it costs more), when it pays back and
/// the yearly rate of return on what it puts in.
#[derive(Debug, Clone, PartialEq)]
pub struct Investment {
    /// Id of the option it is compared with.
    pub rival: String,
    /// Monthly saving against the rival (its cost − this option's).
    pub savings: Vec<f64>,
    /// First month (1-based) from which its cumulative cost stays at or
    /// below the rival's (the break-even).
    pub payback_month: Option<u32>,
    /// Internal rate of return, yearly (0.18 = 18 %), or why there is none.
    pub irr_annual: Result<f64, NoIrr>,
}

/// Why monthly savings have no internal rate of return.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NoIrr {
    /// Nothing is paid out: no investment to return on.
    NoOutlay,
    /// The savings never make up what is paid out.
    NeverPaysBack,
    /// They do not turn from paying out to saving exactly once, so no one
    /// rate describes them.
    NotOneTurn,
}

/// The investment case of `option` against `rival`, when `option` spends
/// more on equipment (buying instead of renting): otherwise there is no
/// investment to pay back.
pub fn investment(option: &OptionResult, rival: &OptionResult) -> Option<Investment> {
    let capital = |o: &OptionResult| o.breakdown(Category::Hardware) + o.breakdown(Category::Installation);
    if capital(option) <= capital(rival) + 1e-9 {
        return None;
    }
    let savings: Vec<f64> =
        rival.monthly.iter().zip(option.monthly.iter()).map(|(theirs, mine)| theirs.total() - mine.total()).collect();
    Some(Investment {
        rival: rival.id.clone(),
        payback_month: crate::finance::break_even_month(&option.cumulative(), &rival.cumulative()),
        irr_annual: irr_annual(&savings),
        savings,
    })
}

/// The yearly internal rate of return of monthly flows (month 0 today):
/// the rate r at which Σ flow_m · (1 + r)^(−m/12) = 0, the discounting the
/// NPV uses. Defined only where it is unique and positive: the flows turn
/// from paying out to getting back exactly once, and get back more than
/// they pay. Found by bisection to 1e-10.
pub fn irr_annual(flows: &[f64]) -> Result<f64, NoIrr> {
    let signs: Vec<bool> = flows.iter().filter(|f| f.abs() > 1e-9).map(|f| *f > 0.0).collect();
    if !signs.contains(&false) {
        return Err(NoIrr::NoOutlay);
    }
    if flows.iter().sum::<f64>() <= 0.0 {
        return Err(NoIrr::NeverPaysBack);
    }
    let turns = signs.windows(2).filter(|w| w[0] != w[1]).count();
    if turns != 1 || signs[0] {
        return Err(NoIrr::NotOneTurn);
    }
    let npv = |r: f64| crate::finance::npv(r, flows);
    let (mut lo, mut hi) = (0.0_f64, 1.0_f64);
    while npv(hi) > 0.0 {
        hi *= 2.0;
        if hi > 1e6 {
            return Err(NoIrr::NotOneTurn);
        }
    }
    while hi - lo > 1e-10 {
        let mid = 0.5 * (lo + hi);
        if npv(mid) > 0.0 { lo = mid } else { hi = mid }
    }
    Ok(0.5 * (lo + hi))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_year_of_paying_100_back_for_110_a_year_later_returns_10_percent() {
        // −100 today, +110 in month 12: (1 + r)^(−1) · 110 = 100 → r = 10 %.
        let mut flows = vec![0.0; 13];
        flows[0] = -100.0;
        flows[12] = 110.0;
        let r = irr_annual(&flows).unwrap();
        assert!((r - 0.10).abs() < 1e-8, "{r}");
    }

    #[test]
    fn irr_is_undefined_without_one_sign_change_from_paying_to_getting_back() {
        assert_eq!(irr_annual(&[100.0, 10.0]), Err(NoIrr::NoOutlay));
        assert_eq!(irr_annual(&[]), Err(NoIrr::NoOutlay));
        assert_eq!(irr_annual(&[-100.0, -10.0]), Err(NoIrr::NeverPaysBack));
        assert_eq!(irr_annual(&[-100.0, 50.0, 40.0]), Err(NoIrr::NeverPaysBack));
        // −100, +230, −129 (summing to +1) has two rates, +33 % and −3 % a step.
        assert_eq!(irr_annual(&[-100.0, 230.0, -129.0]), Err(NoIrr::NotOneTurn));
        assert_eq!(irr_annual(&[50.0, -100.0, 80.0]), Err(NoIrr::NotOneTurn));
    }

    #[test]
    fn every_category_has_one_kind_and_capital_is_equipment() {
        assert_eq!(Category::Hardware.flow_kind(), FlowKind::Capital);
        assert_eq!(Category::Porting.flow_kind(), FlowKind::OneOff);
        assert_eq!(Category::ResidualValue.flow_kind(), FlowKind::Residual);
        assert_eq!(Category::OnDemand.flow_kind(), FlowKind::Recurring);
    }
}

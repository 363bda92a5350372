//! Time value of money and break-even.

use crate::result::{BreakEven, OptionResult};

/// Discount factor of each month's cash flows. Flows of month `m` are
/// timed at the start of that month (month 0 is today, undiscounted) and
/// discounted at the yearly rate compounded monthly: (1 + r)^(−m/12).
pub fn discount_factors(rate_annual: f64, months: usize) -> Vec<f64> {
    (0..months).map(|m| discount_factor(rate_annual, m)).collect()
}

/// The discount factor of month `m`: (1 + r)^(−m/12).
pub fn discount_factor(rate_annual: f64, m: usize) -> f64 {
    (1.0 + rate_annual).powf(-(m as f64) / 12.0)
}

/// Net present value of monthly cash flows.
pub fn npv(rate_annual: f64, flows: &[f64]) -> f64 {
    discount_factors(rate_annual, flows.len()).iter().zip(flows).map(|(d, f)| d * f).sum()
}

/// First month (1-based) from which `mine` stays at or below `theirs`
/// cumulatively until the horizon.
pub fn break_even_month(mine: &[f64], theirs: &[f64]) -> Option<u32> {
    let mut month = None;
    for (m, (a, b)) in mine.iter().zip(theirs).enumerate().rev() {
        if a <= b {
            month = Some(m as u32 + 1);
        } else {
            break;
        }
    }
    month
}

/// Sets each option's break-even against the cheapest other option that
/// can do all the work (one ranked apart is no rival).
pub fn attach_break_even(options: &mut [OptionResult]) {
    let cumulative: Vec<Vec<f64>> = options.iter().map(OptionResult::cumulative).collect();
    // Each option's rival is the cheapest complete one other than itself (the
    // first of equals): the cheapest, or for the cheapest the next one.
    let cheapest_but = |skip: Option<usize>| {
        (0..options.len())
            .filter(|j| Some(*j) != skip && !options[*j].ranked_apart())
            .min_by(|a, b| options[*a].total_nominal.total_cmp(&options[*b].total_nominal))
    };
    let first = cheapest_but(None);
    let second = first.and_then(|f| cheapest_but(Some(f)));
    for i in 0..options.len() {
        let rival = if first == Some(i) { second } else { first };
        options[i].break_even = rival.map(|j| BreakEven {
            against: options[j].id.clone(),
            month: break_even_month(&cumulative[i], &cumulative[j]),
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn discounts_a_year_out_by_the_yearly_rate() {
        let d = discount_factors(0.10, 13);
        assert_eq!(d[0], 1.0);
        assert!((d[12] - 1.0 / 1.1).abs() < 1e-12);
    }

    #[test]
    fn break_even_is_where_the_lead_holds_to_the_end() {
        // Buying: 100 up front then 1 a month; renting 10 a month.
        let buy = [100.0, 101.0, 102.0, 103.0, 104.0, 105.0, 106.0, 107.0, 108.0, 109.0, 110.0, 111.0];
        let rent: Vec<f64> = (1..=12).map(|m| 10.0 * m as f64).collect();
        // 10·m ≥ 99 + m ⇔ m ≥ 11.
        assert_eq!(break_even_month(&buy, &rent), Some(11));
        assert_eq!(break_even_month(&rent, &buy), None);
        assert_eq!(break_even_month(&[1.0, 2.0], &[5.0, 6.0]), Some(1));
    }
}

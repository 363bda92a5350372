//! The business case's figures agree with the evaluation they come from:
//! years add up to the total, payback is the break-even, and the IRR is
//! above the discount rate exactly when the option's NPV is the lower.

use suanli_model::business::{NoIrr, by_year, investment, irr_annual};
use suanli_model::finance::npv;

use crate::{assert_close, eval, option};

const SEED: &str = include_str!("../../../../data/scenarios/a100-8x-buy-vs-rent.toml");

#[test]
fn years_add_up_to_the_total_and_the_purchase_is_capital_in_year_one() {
    let e = eval(SEED);
    for o in &e.options {
        let years = by_year(o);
        assert_eq!(years.len(), 3, "36 months are 3 years");
        assert!(years.iter().all(|y| y.months == 12));
        assert_close(years.iter().map(|y| y.total()).sum(), o.total_nominal, 1e-12);
    }
    let buy = by_year(option(&e, "buy-8xa100"));
    assert!(buy[0].capital > 0.0 && buy[1].capital == 0.0 && buy[2].capital == 0.0, "{buy:?}");
    assert!(buy[2].residual <= 0.0, "money back at the end, never a cost");
    let rent = by_year(option(&e, "rent-8xa100-on-demand"));
    assert!(rent.iter().all(|y| y.capital == 0.0 && y.recurring > 0.0), "{rent:?}");
}

#[test]
fn buying_instead_of_renting_pays_back_at_the_break_even_with_an_irr_that_agrees_with_the_npv() {
    let e = eval(SEED);
    let (buy, rent) = (option(&e, "buy-8xa100"), option(&e, "rent-8xa100-on-demand"));
    let case = investment(buy, rent).expect("buying is an investment against renting");
    assert_eq!(case.rival, rent.id);
    assert_eq!(Some(case.payback_month), buy.break_even.as_ref().map(|b| b.month));
    // The savings' NPV at the scenario's rate is the difference of the NPVs.
    let rate = 0.08;
    assert_close(npv(rate, &case.savings), rent.total_npv - buy.total_npv, 1e-9);
    match case.irr_annual {
        Ok(irr) => {
            assert_close(npv(irr, &case.savings), 0.0, 1e-6);
            assert_eq!(irr > rate, buy.total_npv < rent.total_npv, "IRR {irr} against an 8 % cost of capital");
        }
        Err(NoIrr::NeverPaysBack) => assert!(case.savings.iter().sum::<f64>() <= 0.0),
        Err(why) => panic!("buying then saving is one turn: {why:?}"),
    }
    // Renting buys no equipment: no investment to pay back.
    assert!(investment(rent, buy).is_none());
}

#[test]
fn the_irr_of_a_monthly_annuity_matches_the_closed_form() {
    // −1,000 today, then +100 a month for 12 months: the monthly rate i
    // solves 1,000 = 100 · (1 − (1 + i)^−12) / i, i ≈ 2.9229 %; yearly (1 + i)^12 − 1.
    let mut flows = vec![-1000.0];
    flows.extend([100.0; 12]);
    let yearly = irr_annual(&flows).unwrap();
    let i = (1.0 + yearly).powf(1.0 / 12.0) - 1.0;
    assert_close(100.0 * (1.0 - (1.0 + i).powi(-12)) / i, 1000.0, 1e-8);
    assert_close(i, 0.029_228_7, 1e-5);
}

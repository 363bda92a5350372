//! The engine's entry: a scenario that passed the rules to its evaluation,
//! every option with its totals (break-even attached after).

use super::context::Context;
use super::flows::Run;
use super::option::evaluate_option;
use crate::demand;
use crate::finance;
use crate::result::{Evaluation, OptionResult};
use crate::scenario::*;

/// The evaluation [`Checked`](crate::Checked) makes and checks (rules already passed).
pub(crate) fn evaluate_unchecked(s: &Scenario) -> Evaluation {
    let mut e = evaluate_totals(s);
    finance::attach_break_even(&mut e.options);
    e
}

/// Everything but break-even (which compares options pairwise): what a
/// simulation trial needs.
pub(crate) fn evaluate_totals(s: &Scenario) -> Evaluation {
    evaluate_prepared(s, &demand::prepare(s), 1.0)
}

/// As [`evaluate_totals`], with the demand already prepared and scaled by
/// `demand_scale` (a simulation prepares it once for all trials).
pub(crate) fn evaluate_prepared(s: &Scenario, prepared: &demand::Prepared, demand_scale: f64) -> Evaluation {
    let discount = finance::discount_factors(s.discount_rate_annual, s.horizon_months as usize);
    let ctx = Context::new(s, &discount, demand_scale);
    let mut run = Run::new(ctx.horizon);
    let options: Vec<OptionResult> = s.options.iter().map(|o| evaluate_option(&ctx, prepared, o, &mut run)).collect();
    Evaluation {
        scenario_name: s.name.clone(),
        currency: s.currency,
        horizon_months: s.horizon_months,
        demand_ref_gpu_hours: prepared.total_ref_gpu_hours() * demand_scale,
        options,
    }
}

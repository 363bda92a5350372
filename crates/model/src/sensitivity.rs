//! Which inputs matter: a tornado (each uncertain input at its low and high
//! end, the others at their base values) and the break-even between buying
//! and renting in utilisation and in time.

use crate::scenario::*;
use crate::uncertainty::scale_demand;
use crate::validate::{InputError, Rule};
use crate::{Checked, OptionKind, evaluate};

/// One bar of the tornado.
#[derive(Debug, Clone, PartialEq)]
pub struct Bar {
    /// The uncertain input, as its `[[uncertainty]]` path.
    pub path: String,
    /// The input's low end (the range's end; P10 of a log-normal).
    pub low: f64,
    /// The input's high end (the range's end; P90 of a log-normal).
    pub high: f64,
    /// Per option: (id, total NPV at low, total NPV at high).
    pub totals: Vec<(String, f64, f64)>,
    /// The largest |high − low| over the options.
    pub swing: f64,
}

/// Which uncertain inputs move the NPVs most, and where buying breaks even with renting.
#[derive(Debug, Clone, PartialEq)]
pub struct Sensitivity {
    /// Base NPV per option (every uncertain input at its base value).
    pub base: Vec<(String, f64)>,
    /// Largest swing first.
    pub tornado: Vec<Bar>,
    /// One per buy option, against the cheapest rent option that does all the work.
    pub break_even: Vec<BreakEvenPoint>,
}

/// One input's effect on one option's net present cost.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct OptionBar<'a> {
    /// The input's bar.
    pub bar: &'a Bar,
    /// The option's NPV with the input at its low end.
    pub npv_low: f64,
    /// The option's NPV with the input at its high end.
    pub npv_high: f64,
}

impl OptionBar<'_> {
    /// How far the option's NPV moves between the input's two ends.
    pub fn swing(&self) -> f64 {
        (self.npv_high - self.npv_low).abs()
    }
}

impl Sensitivity {
    /// The inputs that move option `id`'s net present cost, largest swing
    /// for it first (ties in the tornado's order): the one order the
    /// results panel, the proposal's chart and its summary use.
    pub fn for_option(&self, id: &str) -> Vec<OptionBar<'_>> {
        let base = self.base.iter().find(|(x, _)| x == id).map(|(_, v)| *v);
        let mut bars: Vec<OptionBar<'_>> = self
            .tornado
            .iter()
            .filter_map(|bar| {
                let (_, npv_low, npv_high) = bar.totals.iter().find(|(x, ..)| x == id)?;
                Some(OptionBar { bar, npv_low: *npv_low, npv_high: *npv_high })
            })
            .filter(|b| Some(b.npv_low) != base || Some(b.npv_high) != base)
            .collect();
        bars.sort_by(|a, b| b.swing().total_cmp(&a.swing()));
        bars
    }
}

/// Where buying an owned option equals renting the cheapest rent option.
#[derive(Debug, Clone, PartialEq)]
pub struct BreakEvenPoint {
    /// Id of the buy option.
    pub buy: String,
    /// Id of the cheapest rent option (by NPV) that does all the work.
    pub rent: String,
    /// Owned utilisation at which the two NPVs are equal; `None` when one
    /// is cheaper at every utilisation up to full.
    pub utilisation: Option<f64>,
    /// Utilisation in the scenario as given.
    pub current_utilisation: Option<f64>,
    /// First month from which buying stays cumulatively cheaper.
    pub month: Option<u32>,
}

/// NPV per option of a derived scenario (a combination of range ends can
/// still break a rule that spans fields).
/// Its figures are checked: one beyond the bound is an error naming the
/// option and the inputs behind it.
fn npv_of(s: Scenario) -> Result<Vec<(String, f64)>, Vec<InputError>> {
    let s = Checked::derived(s)?;
    Ok(evaluate(&s).options.iter().map(|o| (o.id.clone(), o.total_npv)).collect())
}

/// The tornado and the break-evens of a scenario.
pub fn sensitivity(s: &Checked<Scenario>) -> Result<Sensitivity, Vec<InputError>> {
    let params = s.ranges();
    let mut base_s = (**s).clone();
    for (p, d) in params {
        p.set(&mut base_s, s, d.base());
    }
    let base = npv_of(base_s.clone())?;
    let mut tornado = Vec::new();
    for (k, (u, (p, d))) in s.uncertainty.iter().zip(params).enumerate() {
        let (low, high) = d.low_high();
        let at = |v: f64| {
            let mut t = base_s.clone();
            p.set(&mut t, s, v);
            // A figure beyond the bound at this end is this range's doing.
            npv_of(t).map_err(|errors| {
                errors
                    .into_iter()
                    .map(|e| {
                        InputError::new(
                            format!("uncertainty[{k}].range"),
                            v,
                            Rule::RangeBreaks { field: e.path, rule: Box::new(e.rule) },
                        )
                    })
                    .collect::<Vec<_>>()
            })
        };
        let (lo, hi) = (at(low)?, at(high)?);
        let totals: Vec<(String, f64, f64)> =
            lo.iter().zip(&hi).map(|((id, a), (_, b))| (id.clone(), *a, *b)).collect();
        let swing = totals.iter().map(|(_, a, b)| (b - a).abs()).fold(0.0, f64::max);
        tornado.push(Bar { path: u.path.clone(), low, high, totals, swing });
    }
    tornado.sort_by(|a, b| b.swing.total_cmp(&a.swing));
    Ok(Sensitivity { base, tornado, break_even: break_even(&Checked::derived(base_s)?) })
}

/// For every buy option, against the cheapest rent option: the owned
/// utilisation at which their NPVs are equal (demand scaled up or down),
/// and the break-even month as the scenario stands.
pub fn break_even(s: &Checked<Scenario>) -> Vec<BreakEvenPoint> {
    let e = evaluate(s);
    // The cheapest rent option that does all the work (one that does not is no benchmark).
    let Some(rent) =
        e.complete().filter(|o| o.kind == OptionKind::Rent).min_by(|a, b| a.total_npv.total_cmp(&b.total_npv))
    else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for buy in e.options.iter().filter(|o| o.kind == OptionKind::Buy) {
        let pair: Vec<OptionSpec> = s.options.iter().filter(|o| o.id == buy.id || o.id == rent.id).cloned().collect();
        let mut two = (**s).clone();
        two.options = pair;
        two.uncertainty.clear();
        two.optimise = None;
        // Difference buy − rent, and the owned utilisation, at demand × k.
        let at = |k: f64| -> Option<(f64, f64)> {
            let mut t = two.clone();
            scale_demand(&mut t.demand, &two.demand, k);
            // Scaled demand may leave the rules' bounds: checked again.
            let checked = Checked::derived(t).ok()?;
            let r = evaluate(&checked);
            let b = r.option(&buy.id)?;
            let rr = r.option(&rent.id)?;
            Some((b.total_npv - rr.total_npv, b.owned_utilisation.unwrap_or(0.0)))
        };
        // The demand factor at which the owned fleet is full.
        let current = buy.owned_utilisation.filter(|u| *u > 0.0);
        let k_full = current.map_or(1.0, |u| 1.0 / u);
        let utilisation = match (at(1e-6 * k_full), at(k_full)) {
            (Some((d_low, _)), Some((d_high, _))) if d_low > 0.0 && d_high < 0.0 => {
                // Bisection on the demand factor: buying gets cheaper relative to renting as demand grows.
                let (mut lo, mut hi) = (1e-6 * k_full, k_full);
                for _ in 0..60 {
                    let mid = 0.5 * (lo + hi);
                    match at(mid) {
                        Some((d, _)) if d > 0.0 => lo = mid,
                        _ => hi = mid,
                    }
                }
                at(0.5 * (lo + hi)).map(|(_, u)| u)
            }
            _ => None,
        };
        out.push(BreakEvenPoint {
            buy: buy.id.clone(),
            rent: rent.id.clone(),
            utilisation,
            current_utilisation: buy.owned_utilisation,
            month: crate::finance::break_even_month(&buy.cumulative(), &rent.cumulative()),
        });
    }
    out
}

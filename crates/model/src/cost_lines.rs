//! Each option's cost lines (one per category) written in terms of the
//! scenario's money inputs, so that a spreadsheet recomputes a line when a
//! price changes, as the engine would.
//!
//! Measured from the engine, not derived again beside it: each money input
//! is doubled in turn and the lines that move are written as coefficients
//! of it, or as scaled by it; the scenario as it stands and two changes of
//! every input at once then check each written line against the engine,
//! and a line that does not match (its inputs interact in a way the form
//! of [`Line`] cannot carry) is kept as the engine's figures.

use crate::Checked;
use crate::evaluate::entry::evaluate_unchecked;
use crate::result::{Category, Evaluation};
use crate::scenario::Scenario;
use crate::uncertainty::Param;

/// A money input a line may depend on, with its value in the scenario.
#[derive(Debug, Clone, PartialEq)]
pub struct Driver {
    /// Which input it is.
    pub param: Param,
    /// Its value in the scenario, in the input's own unit (an amount, a price, a share, an exchange rate).
    pub value: f64,
    /// The value the lines were measured at: the scenario's, or 1 where that
    /// is 0 (a line that is a product of inputs is 0 when one of them is,
    /// and would not show that the others move it).
    pub pivot: f64,
}

/// One option's cost in one category, month by month, as
/// `Π (X_f / p_f) × (Σ k_p,m × X_p + rest_m)` over the current values `X`
/// of its drivers (`p` is each driver's pivot).
#[derive(Debug, Clone, PartialEq)]
pub struct Line {
    /// Index into the evaluation's options.
    pub option: usize,
    /// The cost category.
    pub category: Category,
    /// Drivers that scale the whole line (an exchange rate, a price the
    /// line is wholly made of), as indices into the drivers.
    pub factors: Vec<usize>,
    /// Drivers that add to the line, with their coefficient per month.
    pub terms: Vec<(usize, Vec<f64>)>,
    /// What no driver moves, per month.
    pub rest: Vec<f64>,
    /// The engine's figures per month, as the scenario stands.
    pub figures: Vec<f64>,
}

impl Line {
    /// A line kept as the engine's figures, moved by no input.
    pub fn fixed(option: usize, category: Category, figures: Vec<f64>) -> Line {
        Line { option, category, factors: Vec::new(), terms: Vec::new(), rest: figures.clone(), figures }
    }

    /// Whether no input of the sheet moves this line.
    pub fn is_fixed(&self) -> bool {
        self.factors.is_empty() && self.terms.is_empty()
    }

    /// The line's value in month `m` for the drivers' values `x`.
    pub fn at(&self, drivers: &[Driver], x: &[f64], m: usize) -> f64 {
        let scale: f64 = self.factors.iter().map(|&f| x[f] / drivers[f].pivot).product();
        scale * (self.terms.iter().map(|(p, k)| k[m] * x[*p]).sum::<f64>() + self.rest[m])
    }
}

/// The money inputs and every non-zero cost line of a scenario.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct CostLines {
    /// The money inputs; lines refer to them by index.
    pub drivers: Vec<Driver>,
    /// One line per option and category with a non-zero figure or a driver that moves it.
    pub lines: Vec<Line>,
}

/// Relative agreement asked of a written line against the engine.
const AGREEMENT: f64 = 1e-9;

/// The cost lines of a checked scenario.
pub fn cost_lines(s: &Checked<Scenario>) -> CostLines {
    let base = s.evaluation();
    let drivers: Vec<Driver> = Param::money_inputs(s)
        .into_iter()
        .map(|(param, value)| Driver { param, value, pivot: if value == 0.0 { 1.0 } else { value } })
        .collect();
    let pivot: Vec<f64> = drivers.iter().map(|d| d.pivot).collect();
    let at_pivot = evaluate_unchecked(&with(s, &drivers, |i| pivot[i]));
    // Each driver doubled from its pivot, the others at theirs.
    let raised: Vec<Evaluation> = (0..drivers.len())
        .map(|r| evaluate_unchecked(&with(s, &drivers, |i| pivot[i] * if i == r { 2.0 } else { 1.0 })))
        .collect();
    // The check: the scenario as it stands, and two points where every driver differs from it.
    let mut probes: Vec<(Vec<f64>, Evaluation)> = vec![(drivers.iter().map(|d| d.value).collect(), base.clone())];
    probes.extend([0.37, 0.61].iter().map(|t| {
        let x: Vec<f64> = drivers.iter().enumerate().map(|(i, d)| d.value + d.pivot * shift(*t, i)).collect();
        let e = evaluate_unchecked(&with(s, &drivers, |i| x[i]));
        (x, e)
    }));
    let mut lines = Vec::new();
    for (o, option) in base.options.iter().enumerate() {
        for category in Category::ALL {
            let figures: Vec<f64> = option.monthly.iter().map(|m| m.get(category)).collect();
            let measured: Vec<f64> = at_pivot.options[o].monthly.iter().map(|m| m.get(category)).collect();
            let moves = movements(o, category, &measured, &raised);
            if figures.iter().all(|f| *f == 0.0) && moves.is_empty() {
                continue;
            }
            let agrees = |line: &Line| {
                probes.iter().all(|(x, e)| {
                    let actual: Vec<f64> = e.options[o].monthly.iter().map(|m| m.get(category)).collect();
                    let tolerance = AGREEMENT * (1.0 + actual.iter().map(|a| a.abs()).sum::<f64>());
                    actual.iter().enumerate().all(|(m, a)| (line.at(&drivers, x, m) - a).abs() <= tolerance)
                })
            };
            // Which of the drivers that double the line scale it whole: the
            // first choice the engine agrees with (all adding, first).
            let doubling: Vec<usize> =
                moves.iter().filter(|(_, delta)| same(delta, &measured)).map(|(i, _)| *i).collect();
            let choices = 1usize << doubling.len().min(6);
            let line = (0..choices)
                .map(|mask| {
                    let factors: Vec<usize> =
                        doubling.iter().enumerate().filter(|(b, _)| mask >> b & 1 == 1).map(|(_, i)| *i).collect();
                    written(o, category, &figures, &measured, &pivot, &moves, factors)
                })
                .find(|line| agrees(line))
                .unwrap_or_else(|| Line::fixed(o, category, figures.clone()));
            lines.push(line);
        }
    }
    CostLines { drivers, lines }
}

/// A spread of shifts in (0, 1), one per driver, so no two drivers move alike.
fn shift(t: f64, i: usize) -> f64 {
    0.15 + 0.7 * (t + 0.618_033_988_75 * i as f64).fract()
}

/// The scenario with every driver set to `value(i)`.
fn with(s: &Scenario, drivers: &[Driver], value: impl Fn(usize) -> f64) -> Scenario {
    let mut t = s.clone();
    for (i, d) in drivers.iter().enumerate() {
        d.param.set(&mut t, s, value(i));
    }
    t
}

/// Each driver that moves the line, with how much (per month) when it was
/// doubled from its pivot.
fn movements(option: usize, category: Category, measured: &[f64], raised: &[Evaluation]) -> Vec<(usize, Vec<f64>)> {
    raised
        .iter()
        .enumerate()
        .filter_map(|(i, e)| {
            let delta: Vec<f64> =
                e.options[option].monthly.iter().zip(measured).map(|(m, a)| m.get(category) - a).collect();
            (!same(&delta, &vec![0.0; delta.len()])).then_some((i, delta))
        })
        .collect()
}

/// Whether two runs of figures agree within [`AGREEMENT`] of their size.
fn same(a: &[f64], b: &[f64]) -> bool {
    let tolerance = AGREEMENT * (1.0 + b.iter().chain(a).map(|x| x.abs()).sum::<f64>());
    a.iter().zip(b).all(|(x, y)| (x - y).abs() <= tolerance)
}

/// A line with `factors` scaling it whole and every other moving driver
/// adding to it, from the figures `measured` at the pivot.
fn written(
    option: usize,
    category: Category,
    figures: &[f64],
    measured: &[f64],
    pivot: &[f64],
    moves: &[(usize, Vec<f64>)],
    factors: Vec<usize>,
) -> Line {
    let terms: Vec<(usize, Vec<f64>)> = moves
        .iter()
        .filter(|(i, _)| !factors.contains(i))
        .map(|(i, delta)| (*i, delta.iter().map(|d| d / pivot[*i]).collect()))
        .collect();
    let rest = measured
        .iter()
        .enumerate()
        .map(|(m, a)| a - terms.iter().map(|(p, k)| k[m] * pivot[*p]).sum::<f64>())
        .collect();
    Line { option, category, factors, terms, rest, figures: figures.to_vec() }
}

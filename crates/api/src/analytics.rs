//! Uncertainty, sensitivity and the optimiser as use cases, with their
//! JSON shapes.

use serde::Serialize;
use suanli_model::lang::Bilingual;
use suanli_model::optimise::{Outcome, explain};
use suanli_model::uncertainty::{Percentiles, SimulationConfig};
use suanli_model::{
    Checked, Currency, Evaluation, Lang, Maturity, Scenario, round_money, round_quantity, round_score, round_share,
    round_unit_price,
};

use crate::Error;

/// The most trials one simulation runs.
pub const MAX_TRIALS: u32 = 1_000_000;

/// The most trials × options one simulation holds (each trial keeps each
/// option's figures): 100,000 trials of 200 options.
pub const MAX_TRIAL_OPTIONS: u64 = 20_000_000;

/// Refuses a trial count past [`MAX_TRIALS`], or past [`MAX_TRIAL_OPTIONS`]
/// for the scenario's options, before any work starts.
pub fn check_trials(s: &Checked<Scenario>, trials: u32) -> Result<(), Error> {
    let options = s.options.len().max(1) as u64;
    let max = u64::from(MAX_TRIALS).min(MAX_TRIAL_OPTIONS / options);
    if trials == 0 || u64::from(trials) > max {
        return Err(Error::Argument {
            name: "trials".into(),
            value: trials.to_string(),
            allowed: crate::Allowed::Between { min: 1, max },
        });
    }
    Ok(())
}

/// Monte Carlo over the scenario's ranges, beside the point evaluation;
/// refused past the trial limits ([`check_trials`]).
pub fn simulate(
    s: &Checked<Scenario>,
    trials: u32,
    seed: u64,
    threads: usize,
    progress: &(dyn Fn(u32) + Sync),
) -> Result<(Evaluation, suanli_model::uncertainty::Simulation), Error> {
    check_trials(s, trials)?;
    let evaluation = crate::evaluate(s).clone();
    let sim = suanli_model::uncertainty::simulate(s, SimulationConfig { trials, seed, threads }, progress)
        .map_err(Error::Invalid)?;
    Ok((evaluation, sim))
}

/// The tornado (each uncertain input at its low and high end) and the
/// buy-versus-rent break-evens; refused when a derived scenario breaks a rule.
pub fn sensitivity(s: &Checked<Scenario>) -> Result<suanli_model::sensitivity::Sensitivity, Error> {
    suanli_model::sensitivity::sensitivity(s).map_err(Error::Invalid)
}

/// Runs the capacity-mix optimiser on the scenario's `[optimise]` section (refused without one).
pub fn optimise(s: &Checked<Scenario>) -> Result<Outcome, Error> {
    suanli_model::optimise::optimise(s).map_err(Error::Invalid)
}

/// Spread of one amount across trials, in the scenario's currency.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct RangeJson {
    /// 10th percentile.
    pub p10: f64,
    /// Median.
    pub p50: f64,
    /// 90th percentile.
    pub p90: f64,
    /// Mean.
    pub mean: f64,
}

fn range(p: &Percentiles, c: suanli_model::Currency) -> RangeJson {
    RangeJson {
        p10: round_money(p.p10, c),
        p50: round_money(p.p50, c),
        p90: round_money(p.p90, c),
        mean: round_money(p.mean, c),
    }
}

/// One option under uncertainty, with its point figures beside the ranges.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct SimulatedOptionJson {
    /// The option's id.
    pub id: String,
    /// The option's label; its id when it has none.
    pub label: String,
    /// The label as each language shows it.
    pub display: Bilingual,
    /// Point estimate: compute cost on the option's own accelerators per
    /// useful reference-GPU-hour; `null` when they delivered none.
    pub effective_price_per_ref_gpu_hour: Option<f64>,
    /// Point estimate: everything (porting, bridge, storage, edge included)
    /// per useful reference-GPU-hour served.
    pub all_in_per_ref_gpu_hour: Option<f64>,
    /// NPV of the point evaluation (the scenario as given).
    pub total_npv: f64,
    /// Nominal total across trials.
    pub nominal: RangeJson,
    /// NPV across trials.
    pub npv: RangeJson,
    /// Share of trials (0..1) in which this option has the lowest NPV.
    pub probability_cheapest: f64,
    /// Porting off CUDA, when the option has it.
    pub porting: Option<PortingJson>,
    /// Supply-risk score, when the option states its supply facts.
    pub supply_risk: Option<SupplyJson>,
}

/// What porting an option's workload off CUDA costs.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct PortingJson {
    /// Maturity of the framework adapter.
    pub maturity: Maturity,
    /// The framework adapter, as the option names it.
    pub adapter: Option<String>,
    /// Engineer-months to port and validate the workload.
    pub engineer_months: f64,
    /// Cost of the port, in the scenario's currency.
    pub cost: f64,
    /// Months until the port runs.
    pub delay_months: f64,
    /// Yearly upkeep of the port, in the scenario's currency.
    pub maintenance_per_year: f64,
    /// The effort per unit came from Suanli's default table: an assumption.
    pub effort_is_default_assumption: bool,
}

/// An option's supply-risk score.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct SupplyJson {
    /// 0 to 100, 100 the worst.
    pub score: f64,
    /// The drivers with points, largest first: name in the requested language, points.
    pub drivers: Vec<(String, f64)>,
}

/// A Monte Carlo run as JSON, amounts rounded to the currency's minor unit.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct SimulationJson {
    /// The scenario's name.
    pub scenario: String,
    /// The scenario's currency, which every amount is in.
    pub currency: Currency,
    /// Trials run.
    pub trials: u32,
    /// The seed the trials were drawn from: the same seed gives the same results.
    #[cfg_attr(feature = "specta", specta(type = f64))]
    pub seed: u64,
    /// One entry per option, in the scenario's order.
    pub options: Vec<SimulatedOptionJson>,
}

/// The simulation as JSON; refused when a figure is not finite.
pub fn simulation_json(
    e: &Evaluation,
    sim: &suanli_model::uncertainty::Simulation,
    lang: Lang,
) -> Result<SimulationJson, Error> {
    let c = e.currency;
    finite(SimulationJson {
        scenario: e.scenario_name.clone(),
        currency: c,
        trials: sim.trials,
        seed: sim.seed,
        options: e
            .options
            .iter()
            .zip(&sim.options)
            .map(|(o, r)| SimulatedOptionJson {
                id: o.id.clone(),
                label: o.label.clone(),
                display: Bilingual::of(&o.label),
                effective_price_per_ref_gpu_hour: o.effective_price_per_ref_gpu_hour.map(round_unit_price),
                all_in_per_ref_gpu_hour: o.all_in_per_ref_gpu_hour.map(round_unit_price),
                total_npv: round_money(o.total_npv, c),
                nominal: range(&r.nominal, c),
                npv: range(&r.npv, c),
                probability_cheapest: round_share(r.probability_cheapest),
                porting: o.porting.as_ref().map(|p| PortingJson {
                    maturity: p.maturity,
                    adapter: p.adapter.clone(),
                    engineer_months: round_quantity(p.engineer_months),
                    cost: round_money(p.cost, c),
                    delay_months: round_quantity(p.delay_months),
                    maintenance_per_year: round_money(p.maintenance_per_year, c),
                    effort_is_default_assumption: p.default_effort,
                }),
                supply_risk: o.supply.as_ref().map(|s| SupplyJson {
                    score: round_score(s.score),
                    drivers: s.drivers.iter().map(|d| (d.label(lang).to_owned(), round_score(d.points))).collect(),
                }),
            })
            .collect(),
    })
}

fn finite<T: Serialize>(json: T) -> Result<T, Error> {
    crate::ensure_finite(&json)?;
    Ok(json)
}

/// One bar of the tornado.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct BarJson {
    /// The uncertain input, as its `[[uncertainty]]` path.
    pub path: String,
    /// The input's low end, in its own unit (P10 of a log-normal).
    pub low: f64,
    /// The input's high end, in its own unit (P90 of a log-normal).
    pub high: f64,
    /// The largest NPV difference between the two ends over the options, in the scenario's currency.
    pub swing: f64,
    /// One `[option id, NPV at low, NPV at high]` per option.
    pub totals: Vec<(String, f64, f64)>,
}

/// One option's tornado.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct OptionTornadoJson {
    /// The option's id.
    pub option_id: String,
    /// The inputs that move its NPV, largest swing first.
    pub bars: Vec<OptionBarJson>,
}

/// One input's effect on one option's NPV, in the scenario's currency.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct OptionBarJson {
    /// The uncertain input, as its `[[uncertainty]]` path.
    pub path: String,
    /// The option's NPV with the input at its low end.
    pub npv_low: f64,
    /// The option's NPV with the input at its high end.
    pub npv_high: f64,
}

/// Where buying an owned option equals renting the cheapest rent option.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
// Named apart from `json::BreakEvenJson` for the TypeScript bindings (JSON is unchanged).
#[serde(rename = "UtilisationBreakEvenJson")]
pub struct BreakEvenJson {
    /// Id of the buy option.
    pub buy: String,
    /// Id of the cheapest rent option (by NPV) that does all the work.
    pub rent: String,
    /// Owned utilisation (0..1) at which the two NPVs are equal; `null`
    /// when one is cheaper at every utilisation up to full.
    pub utilisation: Option<f64>,
    /// Utilisation (0..1) in the scenario as given.
    pub current_utilisation: Option<f64>,
    /// First month (1-based) from which buying stays cumulatively cheaper.
    pub month: Option<u32>,
}

/// Which uncertain inputs move the NPVs most, and where buying breaks even with renting.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct SensitivityJson {
    /// Per option: id and NPV with every uncertain input at its base value.
    pub base_npv: Vec<(String, f64)>,
    /// The bars, largest swing first.
    pub tornado: Vec<BarJson>,
    /// Per option, the inputs that move its NPV, largest swing for it first
    /// (`Sensitivity::for_option`: the order the proposal draws too).
    pub by_option: Vec<OptionTornadoJson>,
    /// One per buy option, against the cheapest rent option that does all the work.
    pub break_even: Vec<BreakEvenJson>,
}

/// The tornado and break-evens as JSON; refused when a figure is not finite.
pub fn sensitivity_json(
    s: &suanli_model::sensitivity::Sensitivity,
    c: suanli_model::Currency,
) -> Result<SensitivityJson, Error> {
    finite(SensitivityJson {
        base_npv: s.base.iter().map(|(id, v)| (id.clone(), round_money(*v, c))).collect(),
        tornado: s
            .tornado
            .iter()
            .map(|b| BarJson {
                path: b.path.clone(),
                low: b.low,
                high: b.high,
                swing: round_money(b.swing, c),
                totals: b
                    .totals
                    .iter()
                    .map(|(id, l, h)| (id.clone(), round_money(*l, c), round_money(*h, c)))
                    .collect(),
            })
            .collect(),
        by_option: s
            .base
            .iter()
            .map(|(id, _)| OptionTornadoJson {
                option_id: id.clone(),
                bars: s
                    .for_option(id)
                    .iter()
                    .map(|b| OptionBarJson {
                        path: b.bar.path.clone(),
                        npv_low: round_money(b.npv_low, c),
                        npv_high: round_money(b.npv_high, c),
                    })
                    .collect(),
            })
            .collect(),
        break_even: s
            .break_even
            .iter()
            .map(|b| BreakEvenJson {
                buy: b.buy.clone(),
                rent: b.rent.clone(),
                utilisation: b.utilisation.map(round_share),
                current_utilisation: b.current_utilisation.map(round_share),
                month: b.month,
            })
            .collect(),
    })
}

/// One capacity mix the optimiser evaluated, amounts in the scenario's currency.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct CandidateJson {
    /// Base pool: template option id and size (servers for owned, accelerators for reserved).
    pub base: Option<(String, u32)>,
    /// Whether the mix has the on-demand pool.
    pub on_demand: bool,
    /// Whether the mix has the spot pool.
    pub spot: bool,
    /// Nominal total over the horizon.
    pub total_nominal: f64,
    /// NPV.
    pub total_npv: f64,
    /// P90 NPV across simulated trials; set only on a mix checked against a P90 budget.
    pub p90_npv: Option<f64>,
    /// Share of compute spend: base, on demand, spot.
    pub spend_shares: [f64; 3],
}

/// The optimiser's outcome, tagged by `outcome`: `chosen` or `infeasible`.
#[derive(Debug, Clone, Serialize)]
#[serde(tag = "outcome", rename_all = "snake_case")]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub enum OptimiseJson {
    /// The cheapest mix that meets the constraints.
    Chosen {
        /// The cheapest mix by NPV that meets the constraints.
        chosen: CandidateJson,
        /// The best pure strategies that meet them, by name (`all_on_demand`, `all_base`, `all_spot`).
        pure: Vec<(String, CandidateJson)>,
        /// Constraints whose removal would lower the cost, named in the requested language.
        binding: Vec<String>,
        /// Template option ids the constraints excluded, with the constraint's name.
        excluded: Vec<(String, String)>,
        /// The decision in words, in the requested language.
        explanation: Vec<String>,
    },
    /// No mix meets the constraints.
    Infeasible {
        /// Template option ids with the constraint that excluded each, named in
        /// the requested language; `(all candidates)` when the P90 budget excluded every mix.
        because: Vec<(String, String)>,
    },
}

/// The optimiser's outcome as JSON; refused when a figure is not finite.
pub fn optimise_json(o: &Outcome, c: suanli_model::Currency, lang: Lang) -> Result<OptimiseJson, Error> {
    let cand = |x: &suanli_model::optimise::Candidate| CandidateJson {
        base: x.base.clone(),
        on_demand: x.on_demand,
        spot: x.spot,
        total_nominal: round_money(x.total_nominal, c),
        total_npv: round_money(x.total_npv, c),
        p90_npv: x.p90_npv.map(|p| round_money(p, c)),
        spend_shares: x.shares.map(round_share),
    };
    finite(match o {
        Outcome::Chosen(b) => OptimiseJson::Chosen {
            chosen: cand(&b.chosen),
            pure: b.pure.iter().map(|(n, x)| (n.clone(), cand(x))).collect(),
            binding: b.binding.iter().map(|k| k.label(lang).to_owned()).collect(),
            excluded: b.excluded.iter().map(|(id, k)| (id.clone(), k.label(lang).to_owned())).collect(),
            explanation: explain(b, lang),
        },
        Outcome::Infeasible { reasons } => OptimiseJson::Infeasible {
            because: reasons.iter().map(|(id, k)| (id.clone(), k.label(lang).to_owned())).collect(),
        },
    })
}

//! Uncertainty, sensitivity and the optimiser as use cases, with their
//! JSON shapes.

use serde::Serialize;
use suanli_model::optimise::{Outcome, explain};
use suanli_model::uncertainty::{Percentiles, SimulationConfig};
use suanli_model::{
    Checked, Evaluation, Lang, Scenario, round_money, round_quantity, round_score, round_share, round_unit_price,
};

use crate::Error;

/// Monte Carlo over the scenario's ranges, beside the point evaluation.
pub fn simulate(
    s: &Checked<Scenario>,
    trials: u32,
    seed: u64,
    threads: usize,
    progress: &(dyn Fn(u32) + Sync),
) -> Result<(Evaluation, suanli_model::uncertainty::Simulation), Error> {
    let evaluation = crate::evaluate(s);
    let sim = suanli_model::uncertainty::simulate(s, SimulationConfig { trials, seed, threads }, progress)
        .map_err(Error::Invalid)?;
    Ok((evaluation, sim))
}

pub fn sensitivity(s: &Checked<Scenario>) -> Result<suanli_model::sensitivity::Sensitivity, Error> {
    suanli_model::sensitivity::sensitivity(s).map_err(Error::Invalid)
}

pub fn optimise(s: &Checked<Scenario>) -> Result<Outcome, Error> {
    suanli_model::optimise::optimise(s).map_err(Error::Invalid)
}

#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct RangeJson {
    pub p10: f64,
    pub p50: f64,
    pub p90: f64,
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

#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct SimulatedOptionJson {
    pub id: String,
    pub label: String,
    pub effective_price_per_ref_gpu_hour: Option<f64>,
    pub all_in_per_ref_gpu_hour: Option<f64>,
    pub total_npv: f64,
    pub nominal: RangeJson,
    pub npv: RangeJson,
    pub probability_cheapest: f64,
    pub porting: Option<PortingJson>,
    pub supply_risk: Option<SupplyJson>,
}

#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct PortingJson {
    pub maturity: String,
    pub adapter: Option<String>,
    pub engineer_months: f64,
    pub cost: f64,
    pub delay_months: f64,
    pub maintenance_per_year: f64,
    /// The effort per unit came from Suanli's default table: an assumption.
    pub effort_is_default_assumption: bool,
}

#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct SupplyJson {
    pub score: f64,
    pub drivers: Vec<(String, f64)>,
}

#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct SimulationJson {
    pub scenario: String,
    pub currency: String,
    pub trials: u32,
    #[cfg_attr(feature = "specta", specta(type = f64))]
    pub seed: u64,
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
        currency: c.to_string(),
        trials: sim.trials,
        seed: sim.seed,
        options: e
            .options
            .iter()
            .zip(&sim.options)
            .map(|(o, r)| SimulatedOptionJson {
                id: o.id.clone(),
                label: o.label.clone(),
                effective_price_per_ref_gpu_hour: o.effective_price_per_ref_gpu_hour.map(round_unit_price),
                all_in_per_ref_gpu_hour: o.all_in_per_ref_gpu_hour.map(round_unit_price),
                total_npv: round_money(o.total_npv, c),
                nominal: range(&r.nominal, c),
                npv: range(&r.npv, c),
                probability_cheapest: round_share(r.probability_cheapest),
                porting: o.porting.as_ref().map(|p| PortingJson {
                    maturity: format!("{:?}", p.maturity).to_lowercase(),
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

#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct BarJson {
    pub path: String,
    pub low: f64,
    pub high: f64,
    pub swing: f64,
    /// Option id → [NPV at low, NPV at high].
    pub totals: Vec<(String, f64, f64)>,
}

#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
// Named apart from `json::BreakEvenJson` for the TypeScript bindings (JSON is unchanged).
#[serde(rename = "UtilisationBreakEvenJson")]
pub struct BreakEvenJson {
    pub buy: String,
    pub rent: String,
    pub utilisation: Option<f64>,
    pub current_utilisation: Option<f64>,
    pub month: Option<u32>,
}

#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct SensitivityJson {
    pub base_npv: Vec<(String, f64)>,
    pub tornado: Vec<BarJson>,
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

#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct CandidateJson {
    pub base: Option<(String, u32)>,
    pub on_demand: bool,
    pub spot: bool,
    pub total_nominal: f64,
    pub total_npv: f64,
    pub p90_npv: Option<f64>,
    /// Share of compute spend: base, on demand, spot.
    pub spend_shares: [f64; 3],
}

#[derive(Debug, Clone, Serialize)]
#[serde(tag = "outcome", rename_all = "snake_case")]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub enum OptimiseJson {
    Chosen {
        chosen: CandidateJson,
        pure: Vec<(String, CandidateJson)>,
        binding: Vec<String>,
        excluded: Vec<(String, String)>,
        explanation: Vec<String>,
    },
    Infeasible {
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

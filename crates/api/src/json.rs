//! Evaluation results as JSON for `suanli evaluate --format json`.
//!
//! Keys are snake_case and stable; amounts are rounded to the currency's
//! minor unit and prices per hour to four decimals, by the model's rules.

use std::collections::BTreeMap;

use serde::Serialize;
use suanli_model::{
    Category, Evaluation, Lang, OptionResult, round_money, round_quantity, round_share, round_unit_price,
};

#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct EvaluationJson {
    pub scenario: String,
    pub currency: String,
    pub horizon_months: u32,
    pub demand_ref_gpu_hours: f64,
    pub cheapest_nominal: Option<String>,
    pub cheapest_npv: Option<String>,
    pub options: Vec<OptionJson>,
}

#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct OptionJson {
    pub id: String,
    pub label: String,
    pub kind: &'static str,
    pub currency: String,
    pub total_nominal: f64,
    pub total_npv: f64,
    pub effective_price_per_ref_gpu_hour: Option<f64>,
    /// Category → nominal amount over the horizon (non-zero categories).
    pub breakdown: BTreeMap<&'static str, f64>,
    /// Nominal cash flow of each month.
    pub monthly: Vec<f64>,
    pub ref_gpu_hours_served: f64,
    pub ref_gpu_hours_unserved: f64,
    pub accelerator_hours: f64,
    pub owned_utilisation: Option<f64>,
    pub time_to_complete_months: Option<f64>,
    pub completes_within_horizon: Option<bool>,
    pub meets_deadline: Option<bool>,
    pub break_even: Option<BreakEvenJson>,
    pub latency_ms: Option<f64>,
    /// Compute cost per million output tokens (an inference demand).
    pub cost_per_million_tokens: Option<f64>,
    /// Whether the model fits the option's accelerators.
    pub memory_fit: Option<MemoryFitJson>,
    pub notes: Vec<String>,
}

#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct MemoryFitJson {
    pub fits: bool,
    /// Fewest accelerators that hold the model (`null`: none do with this sharding).
    pub min_accelerators: Option<u32>,
    pub available: u32,
    pub memory_gb_per_accelerator: f64,
}

#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct BreakEvenJson {
    pub against: String,
    /// First month (1-based) from which the option's cumulative cost stays
    /// at or below `against`'s; `null`: not within the horizon.
    pub month: Option<u32>,
}

impl EvaluationJson {
    pub fn from_evaluation(e: &Evaluation, lang: Lang) -> Self {
        EvaluationJson {
            scenario: e.scenario_name.clone(),
            currency: e.currency.to_string(),
            horizon_months: e.horizon_months,
            demand_ref_gpu_hours: round_quantity(e.demand_ref_gpu_hours),
            cheapest_nominal: e.cheapest_nominal().map(|o| o.id.clone()),
            cheapest_npv: e.cheapest_npv().map(|o| o.id.clone()),
            options: e.options.iter().map(|o| OptionJson::from_result(o, lang)).collect(),
        }
    }
}

impl OptionJson {
    fn from_result(o: &OptionResult, lang: Lang) -> Self {
        let c = o.currency;
        let breakdown = Category::ALL
            .iter()
            .map(|cat| (cat.key(), round_money(o.breakdown(*cat), c)))
            .filter(|(_, amount)| *amount != 0.0)
            .collect();
        OptionJson {
            id: o.id.clone(),
            label: o.label.clone(),
            kind: match o.kind {
                suanli_model::OptionKind::Buy => "buy",
                suanli_model::OptionKind::Rent => "rent",
                suanli_model::OptionKind::Mix => "mix",
            },
            currency: c.to_string(),
            total_nominal: round_money(o.total_nominal, c),
            total_npv: round_money(o.total_npv, c),
            effective_price_per_ref_gpu_hour: o.effective_price_per_ref_gpu_hour.map(round_unit_price),
            breakdown,
            monthly: o.monthly.iter().map(|m| round_money(m.total(), c)).collect(),
            ref_gpu_hours_served: round_quantity(o.ref_gpu_hours_served),
            ref_gpu_hours_unserved: round_quantity(o.ref_gpu_hours_unserved),
            accelerator_hours: round_quantity(o.accelerator_hours),
            owned_utilisation: o.owned_utilisation.map(round_share),
            time_to_complete_months: o.time_to_complete_months.map(round_quantity),
            completes_within_horizon: o.completes_within_horizon,
            meets_deadline: o.meets_deadline,
            break_even: o.break_even.as_ref().map(|b| BreakEvenJson { against: b.against.clone(), month: b.month }),
            latency_ms: o.latency_ms,
            cost_per_million_tokens: o.cost_per_million_tokens.map(round_unit_price),
            memory_fit: o.memory_fit.map(|f| MemoryFitJson {
                fits: f.fits(),
                min_accelerators: f.min_accelerators,
                available: f.available,
                memory_gb_per_accelerator: f.memory_gb_per_accelerator,
            }),
            notes: o.notes.iter().map(|n| n.describe(lang)).collect(),
        }
    }
}

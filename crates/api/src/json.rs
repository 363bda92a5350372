//! Evaluation results as JSON for `suanli evaluate --format json`.
//!
//! Keys are snake_case and stable; amounts are rounded to the currency's
//! minor unit and prices per hour to four decimals, by the model's rules.

use std::collections::BTreeMap;

use serde::Serialize;
use suanli_model::lang::Bilingual;
use suanli_model::{
    Category, Currency, Evaluation, Lang, OptionKind, OptionResult, round_money, round_quantity, round_share,
    round_unit_price,
};

/// An evaluation as JSON: every option's figures, rounded for display.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct EvaluationJson {
    /// The scenario's name.
    pub scenario: String,
    /// The same as each language shows it.
    pub scenario_display: Bilingual,
    /// The scenario's currency, which every amount is in.
    pub currency: Currency,
    /// Length of the comparison, months.
    pub horizon_months: u32,
    /// Reference-GPU-hours the demand asks for over the horizon (for a job: its work).
    pub demand_ref_gpu_hours: f64,
    /// Id of the option with the lowest nominal total among those doing all
    /// the work; `null` when none does.
    pub cheapest_nominal: Option<String>,
    /// Id of the option with the lowest NPV among those doing all the work;
    /// `null` when none does.
    pub cheapest_npv: Option<String>,
    /// One entry per option, in the scenario's order.
    pub options: Vec<OptionJson>,
}

/// One option's results as JSON, amounts in the scenario's currency.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct OptionJson {
    /// The option's id.
    pub id: String,
    /// The option's label; its id when it has none.
    pub label: String,
    /// The label as each language shows it.
    pub display: Bilingual,
    /// Buy, rent or a mix.
    pub kind: OptionKind,
    /// The currency every amount is in (the scenario's).
    pub currency: Currency,
    /// Sum of every month's cash flows, residual value credited.
    pub total_nominal: f64,
    /// The same cash flows discounted to today at the scenario's rate.
    pub total_npv: f64,
    /// Compute cost on the option's own accelerators per useful
    /// reference-GPU-hour; `null` when they delivered none.
    pub effective_price_per_ref_gpu_hour: Option<f64>,
    /// Category → nominal amount over the horizon (non-zero categories).
    pub breakdown: BTreeMap<Category, f64>,
    /// Nominal cash flow of each month.
    pub monthly: Vec<f64>,
    /// Useful work delivered, reference-GPU-hours.
    pub ref_gpu_hours_served: f64,
    /// Demand the option found no capacity for, reference-GPU-hours.
    pub ref_gpu_hours_unserved: f64,
    /// Accelerator-hours run, interruption waste included.
    pub accelerator_hours: f64,
    /// Busy share (0..1) of owned accelerator-hours after delivery; `null`
    /// without owned servers or when they arrive after the horizon.
    pub owned_utilisation: Option<f64>,
    /// For a job: months from today until its result, lead time included
    /// (extrapolated when it does not finish within the horizon).
    pub time_to_complete_months: Option<f64>,
    /// For a job: whether it finishes within the horizon; `null` for other demand.
    pub completes_within_horizon: Option<bool>,
    /// For a job with a deadline: whether its result comes by then.
    pub meets_deadline: Option<bool>,
    /// Break-even against the cheapest other option (by nominal total) that
    /// does all the work; `null` when there is none.
    pub break_even: Option<BreakEvenJson>,
    /// Latency of the edge architecture, milliseconds, when the option has an edge line.
    pub latency_ms: Option<f64>,
    /// Compute cost per million output tokens (an inference demand).
    pub cost_per_million_tokens: Option<f64>,
    /// Whether the model fits the option's accelerators.
    pub memory_fit: Option<MemoryFitJson>,
    /// Caveats a reader must know about these figures, as sentences in the requested language.
    pub notes: Vec<String>,
    /// The accelerators the option is costed on.
    pub fleet: FleetJson,
}

/// The accelerators an option is costed on (what the engine ran, not its label).
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct FleetJson {
    /// Most accelerators held or running at once.
    pub peak_accelerators: f64,
    /// The same as a whole count (rounded up): what every reader prints.
    pub peak_count: u32,
    /// Accelerator-hours ÷ the hours of the months it runs.
    pub average_accelerators: f64,
    /// Months it runs the workload.
    pub months: f64,
    /// Accelerator-hours run, interruption waste included.
    pub accelerator_hours: f64,
    /// Servers bought (an option that owns servers).
    pub servers: Option<u32>,
    /// Accelerators one job or serving replica runs on.
    pub per_replica: u32,
    /// Replicas (job clusters) at the peak.
    pub replicas: u32,
    /// When the label names another count of accelerators: the mismatch as
    /// a sentence in the requested language.
    pub label_mismatch: Option<String>,
}

/// The model against an option's accelerators.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct MemoryFitJson {
    /// Whether the model fits: some count holds it, and the option runs at least that many.
    pub fits: bool,
    /// Fewest accelerators that hold the model (`null`: none do with this sharding).
    pub min_accelerators: Option<u32>,
    /// Accelerators the option runs one job or replica on.
    pub available: u32,
    /// Memory of one accelerator, GB.
    pub memory_gb_per_accelerator: f64,
}

/// When an option becomes cheaper than its cheapest rival.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct BreakEvenJson {
    /// Id of the rival option.
    pub against: String,
    /// First month (1-based) from which the option's cumulative cost stays
    /// at or below `against`'s; `null`: not within the horizon.
    pub month: Option<u32>,
}

impl EvaluationJson {
    /// Shapes an evaluation, rounded by the model's rules, notes in `lang`.
    /// Does not check finiteness: [`crate::evaluation_json`] does.
    pub fn from_evaluation(e: &Evaluation, lang: Lang) -> Self {
        EvaluationJson {
            scenario: e.scenario_name.clone(),
            scenario_display: Bilingual::of(&e.scenario_name),
            currency: e.currency,
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
            .map(|cat| (*cat, round_money(o.breakdown(*cat), c)))
            .filter(|(_, amount)| *amount != 0.0)
            .collect();
        OptionJson {
            id: o.id.clone(),
            label: o.label.clone(),
            display: Bilingual::of(&o.label),
            kind: o.kind,
            currency: c,
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
            fleet: FleetJson {
                peak_accelerators: round_quantity(o.fleet.peak_accelerators),
                peak_count: o.fleet.peak_count(),
                average_accelerators: round_quantity(o.fleet.average_accelerators),
                months: round_quantity(o.fleet.months),
                accelerator_hours: round_quantity(o.fleet.accelerator_hours),
                servers: o.fleet.servers,
                per_replica: o.fleet.per_replica,
                replicas: o.fleet.replicas(),
                label_mismatch: suanli_model::fleet::label_mismatch(o).map(|m| m.describe(lang)),
            },
        }
    }
}

//! The serving model (`suanli_model::inference`) checked against MLPerf
//! Inference's Llama 2 70B results: its two fitted figures (the compute
//! utilisation and the overhead of a step) fitted here per software stack,
//! and its error on every result, leave-one-out.

use serde::Serialize;
use suanli_model::inference::{BANDWIDTH_UTILISATION, Fitted, Served, serving_throughput};
use suanli_model::{Lang, Precision, WorkloadClass};

use crate::ratios::{REFERENCE_STACK, stack_of};
use crate::rows::{Accelerator, Measurement};
use crate::vocab::{Metric, Suite};

/// The MLPerf case the model is calibrated on.
pub const CASE: &str = "llama2-70b-99";
/// Llama 2 70B: 70 billion parameters …
const PARAMETERS: f64 = 70e9;
/// … caching K and V of 80 layers × 8 KV heads × 128 a token (2 bytes each in BF16).
const KV_BYTES_PER_TOKEN_BF16: f64 = 2.0 * 80.0 * 8.0 * 128.0 * 2.0;
/// The benchmark's longest request: prompts of at most 1,024 tokens
/// (`processorca.py --seqlen_limit=1024`) and at most 1,024 output tokens.
pub const CONTEXT_TOKENS: f64 = 2048.0;
/// The precision of the results fitted on: what this round's submissions
/// ran. Rows labelled fp16 are v4.1 results whose throughput equals the
/// same systems' FP8 results of v5.1, so their label is doubtful.
pub const PRECISION: Precision = Precision::Fp8;
/// A replica spans at most a node.
const NODE: u32 = 8;
/// Compute utilisations tried: 0.05 to 1.00 by 0.01 …
const UTILISATIONS: std::ops::RangeInclusive<u32> = 5..=100;
/// … and step overheads: 0 to 30 ms by 1.
const OVERHEADS_MS: std::ops::RangeInclusive<u32> = 0..=30;

/// Why a result of the case is not among the points.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub enum SetAside {
    /// Its precision is not [`PRECISION`] (fp16 labels doubtful, fp4 has no peak figure).
    OtherPrecision,
    /// Its accelerator has no published peak at that precision, bandwidth or memory.
    SpecsMissing,
    /// Not an Offline, Server or Interactive result.
    OtherScenario,
}

impl SetAside {
    /// What it means, in a language.
    pub fn label(self, lang: Lang) -> &'static str {
        match self {
            SetAside::OtherPrecision => lang.pick("another precision", "其他精度"),
            SetAside::SpecsMissing => lang.pick("accelerator specs missing", "加速卡规格缺失"),
            SetAside::OtherScenario => lang.pick("another scenario", "其他场景"),
        }
    }
}

/// The compute utilisation of one software stack.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct StackFit {
    /// CUDA, ROCm …
    pub stack: String,
    /// Fitted on the stack's results (least absolute log error) …
    pub compute_utilisation: f64,
    /// … with this step overhead, ms.
    pub step_overhead_ms: f64,
    /// Results it rests on.
    pub points: u32,
}

/// One MLPerf serving result beside the model's figure.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ServingPoint {
    /// The measurement row.
    pub measurement_id: String,
    /// The accelerator.
    pub accelerator_id: String,
    /// Its software stack (the first the catalogue names: CUDA, ROCm).
    pub stack: String,
    /// Offline, Server or Interactive.
    pub scenario: String,
    /// MLPerf round (`v5.1`).
    pub suite_version: Option<String>,
    /// Accelerators in the system.
    pub accelerators: u32,
    /// Output tokens per second per accelerator, as measured.
    pub measured: f64,
    /// The model's figure at the fitted utilisation.
    pub modelled: f64,
    /// modelled ÷ measured − 1
    pub error: f64,
    /// The same at the utilisation fitted without this result.
    pub error_left_out: f64,
}

/// The serving model against MLPerf Inference.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ServingCalibration {
    /// The MLPerf case ([`CASE`]).
    pub case: String,
    /// The precision fitted on ([`PRECISION`]).
    pub precision: Precision,
    /// Tokens of context each request is held at ([`CONTEXT_TOKENS`]).
    pub context_tokens: f64,
    /// The assumed bandwidth utilisation.
    pub bandwidth_utilisation: f64,
    /// The compute utilisation fitted on the reference's stack (CUDA): the
    /// one the engine uses, since every other part's throughput is the
    /// reference's times its measured ratio.
    pub compute_utilisation: f64,
    /// The step overhead fitted on the reference's stack, ms.
    pub step_overhead_ms: f64,
    /// The utilisation fitted on each stack's results.
    pub stacks: Vec<StackFit>,
    /// Every result used.
    pub points: Vec<ServingPoint>,
    /// Median of |error|.
    pub median_abs_error: f64,
    /// Median of |error left out|.
    pub median_abs_error_left_out: f64,
    /// Results of the case not used, by reason.
    pub set_aside: Vec<(SetAside, u32)>,
}

struct Candidate<'a> {
    row: &'a Measurement,
    stack: String,
    measured: f64,
    accelerators: u32,
    served: Served,
    device: suanli_model::inference::Device,
}

/// Fits a compute utilisation per software stack on the case's results
/// and gives each one's error.
pub fn calibrate(measurements: &[Measurement], accelerators: &[Accelerator]) -> ServingCalibration {
    let mut set_aside = std::collections::BTreeMap::new();
    let mut by_stack: std::collections::BTreeMap<String, Vec<Candidate<'_>>> = Default::default();
    for m in measurements.iter().filter(|m| is_case(m)) {
        match candidate(m, accelerators) {
            Ok(c) => by_stack.entry(c.stack.clone()).or_default().push(c),
            Err(why) => *set_aside.entry(why).or_insert(0u32) += 1,
        }
    }
    let mut points = Vec::new();
    let mut stacks = Vec::new();
    for (stack, candidates) in &by_stack {
        let (f, mut fitted_points) = fit(candidates);
        stacks.push(StackFit {
            stack: stack.clone(),
            compute_utilisation: f.compute_utilisation,
            step_overhead_ms: f.step_overhead_ms,
            points: candidates.len() as u32,
        });
        points.append(&mut fitted_points);
    }
    let cuda = stacks.iter().find(|f| f.stack == REFERENCE_STACK);
    ServingCalibration {
        case: CASE.to_owned(),
        precision: PRECISION,
        context_tokens: CONTEXT_TOKENS,
        bandwidth_utilisation: BANDWIDTH_UTILISATION,
        compute_utilisation: cuda.map_or(0.0, |f| f.compute_utilisation),
        step_overhead_ms: cuda.map_or(0.0, |f| f.step_overhead_ms),
        median_abs_error: median(points.iter().map(|p| p.error.abs())),
        median_abs_error_left_out: median(points.iter().map(|p| p.error_left_out.abs())),
        points,
        stacks,
        set_aside: set_aside.into_iter().collect(),
    }
}

/// The figures of least absolute log error over one stack's results, and
/// each result beside the model with them and with the fit without it.
fn fit(candidates: &[Candidate<'_>]) -> (Fitted, Vec<ServingPoint>) {
    let grid: Vec<Fitted> = UTILISATIONS
        .flat_map(|u| {
            OVERHEADS_MS
                .map(move |ms| Fitted { compute_utilisation: f64::from(u) / 100.0, step_overhead_ms: f64::from(ms) })
        })
        .collect();
    // log(model ÷ measured) of every result with every pair of figures tried.
    let logs: Vec<Vec<f64>> = grid.iter().map(|f| candidates.iter().map(|c| log_error(c, *f)).collect()).collect();
    let best = |skip: Option<usize>| -> usize {
        let cost = |row: &Vec<f64>| {
            row.iter().enumerate().filter(|(i, _)| Some(*i) != skip).map(|(_, e)| e.abs()).sum::<f64>()
        };
        (0..logs.len()).min_by(|a, b| cost(&logs[*a]).total_cmp(&cost(&logs[*b]))).unwrap_or(0)
    };
    let fitted = best(None);
    let points = candidates
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let e = logs[fitted][i].exp_m1();
            ServingPoint {
                measurement_id: c.row.id.clone(),
                accelerator_id: c.row.accelerator_id.clone(),
                stack: c.stack.clone(),
                scenario: c.row.inference_scenario.clone().unwrap_or_default(),
                suite_version: c.row.suite_version.clone(),
                accelerators: c.accelerators,
                measured: c.measured,
                modelled: c.measured * (1.0 + e),
                error: e,
                error_left_out: logs[best(Some(i))][i].exp_m1(),
            }
        })
        .collect();
    (grid[fitted], points)
}

fn is_case(m: &Measurement) -> bool {
    m.suite == Suite::MlperfInference
        && m.case == CASE
        && m.workload_class == WorkloadClass::LlmInference
        && m.metric == Metric::TokensPerSecond
        && m.comparable_value().is_some()
        && m.accelerators >= 1.0
}

fn candidate<'a>(m: &'a Measurement, accelerators: &[Accelerator]) -> Result<Candidate<'a>, SetAside> {
    let max_ms_per_token = match m.inference_scenario.as_deref() {
        Some("Offline") => None,
        // The benchmark's bounds on time per output token (99th percentile).
        Some("Server") => Some(200.0),
        Some("Interactive") => Some(40.0),
        _ => return Err(SetAside::OtherScenario),
    };
    if m.precision.as_deref() != Some(PRECISION.key()) {
        return Err(SetAside::OtherPrecision);
    }
    let a = accelerators.iter().find(|a| a.id == m.accelerator_id).ok_or(SetAside::SpecsMissing)?;
    // The exact peak: falling back to the 16-bit figure would blame the model for a gap in the data.
    a.fp8_tflops.ok_or(SetAside::SpecsMissing)?;
    let device = a.serving_device(PRECISION).ok_or(SetAside::SpecsMissing)?;
    let count = m.accelerators as u32;
    Ok(Candidate {
        row: m,
        stack: stack_of(a),
        measured: m.value.unwrap_or(0.0) / m.accelerators,
        accelerators: count,
        served: Served {
            parameters: PARAMETERS,
            precision: PRECISION,
            kv_bytes_per_sequence: KV_BYTES_PER_TOKEN_BF16 * PRECISION.bytes() / 2.0 * CONTEXT_TOKENS,
            max_ms_per_token,
            max_replica: count.min(NODE),
        },
        device,
    })
}

fn log_error(c: &Candidate<'_>, f: Fitted) -> f64 {
    serving_throughput(&c.served, &c.device, f)
        .map_or(f64::INFINITY, |t| (t.tokens_per_second_per_accelerator / c.measured).ln())
}

fn median(values: impl Iterator<Item = f64>) -> f64 {
    let mut v: Vec<f64> = values.collect();
    v.sort_by(f64::total_cmp);
    v.get(v.len() / 2).copied().unwrap_or(0.0)
}

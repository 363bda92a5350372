//! The estimate model: a ratio from a part's specs and software stack, fitted
//! on the measured comparisons with a weak pull toward the prior.

use std::collections::{BTreeMap, BTreeSet};

use suanli_model::WorkloadClass;

use super::derivation::dense_peak;
use super::{Estimate, NoRatio};
use crate::rows::Accelerator;

/// What a workload class's speed follows, before the data say otherwise:
/// the prior exponents of (compute, bandwidth). Compute for training,
/// prefill and batch inference of CNNs and BERT; bandwidth for LLM decode;
/// half of each for recommendation (embedding lookups and dense layers).
/// These are assumptions; the fit moves them (`suanli catalog calibration`).
fn prior(class: WorkloadClass) -> (f64, f64) {
    match class {
        WorkloadClass::LlmInference | WorkloadClass::MemoryBandwidth => (0.0, 1.0),
        WorkloadClass::RecommendationTraining | WorkloadClass::RecommendationInference => (0.5, 0.5),
        _ => (1.0, 0.0),
    }
}

/// The part's compute and bandwidth relative to the reference's.
fn spec_ratios(a: &Accelerator, reference: &Accelerator) -> Result<(f64, f64), NoRatio> {
    let compute = match (dense_peak(a), dense_peak(reference)) {
        (Some(x), Some(r)) => x / r,
        _ => {
            return Err(NoRatio::NoSpec {
                accelerator_id: a.id.clone(),
                field: "bf16_tflops".into(),
                unpublished: a.is_unpublished("bf16_tflops") || a.is_unpublished("fp16_tflops"),
            });
        }
    };
    match (a.memory_bandwidth_gbps, reference.memory_bandwidth_gbps) {
        (Some(x), Some(r)) if x > 0.0 && r > 0.0 => Ok((compute, x / r)),
        _ => Err(NoRatio::NoSpec {
            accelerator_id: a.id.clone(),
            field: "memory_bandwidth_gbps".into(),
            unpublished: a.is_unpublished("memory_bandwidth_gbps"),
        }),
    }
}

/// The ratio the specs alone suggest for a class (the prior exponents).
pub(super) fn spec_guess(a: &Accelerator, reference: &Accelerator, class: WorkloadClass) -> Option<f64> {
    let (c, b) = spec_ratios(a, reference).ok()?;
    let (pc, pb) = prior(class);
    Some(c.powf(pc) * b.powf(pb))
}

/// The software stack a part runs, as the model groups parts: the first
/// name of its stack (`CANN`, `CUDA`, `ROCm` …), else its vendor.
pub fn stack_of(a: &Accelerator) -> String {
    let stack = a.software_stack.as_deref().unwrap_or("").split(';').next().unwrap_or("").trim();
    let name = stack.split([' ', '(']).next().unwrap_or("").trim();
    if name.is_empty() { format!("vendor:{}", a.vendor) } else { name.to_owned() }
}

/// The reference A100's software stack.
pub const REFERENCE_STACK: &str = "CUDA";

/// A weak pull toward the prior (exponents as [`prior`], stack factor 1),
/// worth one comparison each, so a stack or class seen in few comparisons
/// is not fitted to their noise. An assumption.
const PRIOR_WEIGHT: f64 = 1.0;

const CLASSES: usize = WorkloadClass::PRICED.len();

pub(super) fn class_index(class: WorkloadClass) -> usize {
    WorkloadClass::PRICED.iter().position(|c| *c == class).unwrap_or(0)
}

/// The fitted model: log ratio = a(class)·log compute + b(class)·log bandwidth + β(stack).
#[derive(Debug, Clone, PartialEq)]
pub struct Model {
    pub(super) exponents: [(f64, f64); CLASSES],
    pub(super) stacks: BTreeMap<String, (f64, u32)>,
    /// Median β of the measured non-CUDA stacks (for stacks without data).
    fallback: f64,
    pub(super) equations: u32,
}

/// One comparison as the regression sees it.
#[derive(Debug, Clone)]
pub(super) struct Equation {
    pub(super) class: WorkloadClass,
    /// log compute_a − log compute_b, and the same for bandwidth
    compute: f64,
    bandwidth: f64,
    stack_a: String,
    stack_b: String,
    /// log measured ratio
    value: f64,
    pub(super) accelerators: [String; 2],
}

pub(super) fn equations(
    edges: &[(String, String, WorkloadClass, f64)],
    accelerators: &BTreeMap<&str, &Accelerator>,
    reference: &Accelerator,
) -> Vec<Equation> {
    edges
        .iter()
        .filter_map(|(a, b, class, ratio)| {
            let (pa, pb) = (accelerators.get(a.as_str())?, accelerators.get(b.as_str())?);
            let (ca, ba) = spec_ratios(pa, reference).ok()?;
            let (cb, bb) = spec_ratios(pb, reference).ok()?;
            Some(Equation {
                class: *class,
                compute: ca.ln() - cb.ln(),
                bandwidth: ba.ln() - bb.ln(),
                stack_a: stack_of(pa),
                stack_b: stack_of(pb),
                value: ratio.ln(),
                accelerators: [a.clone(), b.clone()],
            })
        })
        .collect()
}

/// Least squares with the prior, by the normal equations (a few dozen unknowns).
pub(super) fn fit(eqs: &[Equation]) -> Model {
    let stacks: Vec<String> = eqs
        .iter()
        .flat_map(|e| [e.stack_a.clone(), e.stack_b.clone()])
        .filter(|s| s != REFERENCE_STACK)
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    let n = 2 * CLASSES + stacks.len();
    let col = |s: &str| stacks.iter().position(|x| x == s).map(|i| 2 * CLASSES + i);
    let mut ata = vec![vec![0.0; n]; n];
    let mut atb = vec![0.0; n];
    let mut add = |row: &[(usize, f64)], y: f64, w: f64| {
        for &(i, xi) in row {
            atb[i] += w * xi * y;
            for &(j, xj) in row {
                ata[i][j] += w * xi * xj;
            }
        }
    };
    let mut counts: BTreeMap<String, u32> = BTreeMap::new();
    for e in eqs {
        let k = class_index(e.class);
        let mut row = vec![(2 * k, e.compute), (2 * k + 1, e.bandwidth)];
        // The same stack on both sides: β cancels.
        if e.stack_a != e.stack_b {
            if let Some(i) = col(&e.stack_a) {
                row.push((i, 1.0));
            }
            if let Some(j) = col(&e.stack_b) {
                row.push((j, -1.0));
            }
            *counts.entry(e.stack_a.clone()).or_default() += 1;
            *counts.entry(e.stack_b.clone()).or_default() += 1;
        }
        add(&row, e.value, 1.0);
    }
    for (k, class) in WorkloadClass::PRICED.iter().enumerate() {
        let (pc, pb) = prior(*class);
        add(&[(2 * k, 1.0)], pc, PRIOR_WEIGHT);
        add(&[(2 * k + 1, 1.0)], pb, PRIOR_WEIGHT);
    }
    for i in 2 * CLASSES..n {
        add(&[(i, 1.0)], 0.0, PRIOR_WEIGHT);
    }
    let x = solve(ata, atb);
    let fitted: BTreeMap<String, (f64, u32)> = stacks
        .iter()
        .enumerate()
        .map(|(i, s)| (s.clone(), (x[2 * CLASSES + i], counts.get(s).copied().unwrap_or(0))))
        .filter(|(_, (_, c))| *c > 0)
        .collect();
    let mut betas: Vec<f64> = fitted.values().map(|(b, _)| *b).collect();
    betas.sort_by(f64::total_cmp);
    let fallback = if betas.is_empty() { 0.0 } else { betas[betas.len() / 2] };
    let mut exponents = [(1.0, 0.0); CLASSES];
    for (k, e) in exponents.iter_mut().enumerate() {
        *e = (x[2 * k], x[2 * k + 1]);
    }
    Model { exponents, stacks: fitted, fallback, equations: eqs.len() as u32 }
}

/// Gaussian elimination with partial pivoting; the prior keeps it regular.
pub(super) fn solve(mut a: Vec<Vec<f64>>, mut b: Vec<f64>) -> Vec<f64> {
    let n = b.len();
    for k in 0..n {
        let p = (k..n).max_by(|&i, &j| a[i][k].abs().total_cmp(&a[j][k].abs())).unwrap_or(k);
        a.swap(k, p);
        b.swap(k, p);
        let pivot = a[k][k];
        if pivot.abs() < 1e-12 {
            continue;
        }
        let (top, rest) = a.split_at_mut(k + 1);
        let row_k = &top[k];
        for (i, row) in rest.iter_mut().enumerate() {
            let f = row[k] / pivot;
            for (x, y) in row[k..].iter_mut().zip(&row_k[k..]) {
                *x -= f * y;
            }
            b[k + 1 + i] -= f * b[k];
        }
    }
    let mut x = vec![0.0; n];
    for k in (0..n).rev() {
        let s: f64 = (k + 1..n).map(|j| a[k][j] * x[j]).sum();
        x[k] = if a[k][k].abs() < 1e-12 { 0.0 } else { (b[k] - s) / a[k][k] };
    }
    x
}

impl Model {
    /// The model's ratio for a part, with how it was made.
    pub(super) fn estimate(
        &self,
        a: &Accelerator,
        reference: &Accelerator,
        class: WorkloadClass,
    ) -> Result<Estimate, NoRatio> {
        let (compute_ratio, bandwidth_ratio) = spec_ratios(a, reference)?;
        let (compute_exponent, bandwidth_exponent) = self.exponents[class_index(class)];
        let stack = stack_of(a);
        let (beta, n) = if stack == REFERENCE_STACK {
            (0.0, self.equations)
        } else {
            self.stacks.get(&stack).copied().unwrap_or((self.fallback, 0))
        };
        Ok(Estimate {
            compute_ratio,
            bandwidth_ratio,
            compute_exponent,
            bandwidth_exponent,
            stack,
            stack_factor: beta.exp(),
            stack_comparisons: n,
            calibrated_on: self.equations,
        })
    }
}

pub(super) fn estimate_value(e: &Estimate) -> f64 {
    e.compute_ratio.powf(e.compute_exponent) * e.bandwidth_ratio.powf(e.bandwidth_exponent) * e.stack_factor
}

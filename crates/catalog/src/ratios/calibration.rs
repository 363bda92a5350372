//! Calibration: the estimate model checked leave-one-out against every
//! measured or derived ratio.

use std::collections::BTreeMap;

use serde::Serialize;
use suanli_model::WorkloadClass;

use super::book::{RatioBook, RatioInputs, edge_list};
use super::graph::graphs;
use super::model::{Equation, class_index, equations, estimate_value, fit};
use super::{Basis, StepKind};
use crate::rows::Accelerator;

/// One measured ratio beside the model's estimate made without it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct CalibrationRow {
    /// The accelerator.
    pub accelerator_id: String,
    /// The workload class.
    pub workload_class: WorkloadClass,
    /// The measured or derived ratio.
    pub measured: f64,
    /// [`Basis::Measured`], [`Basis::Derived`] or [`Basis::SpecEquivalent`].
    pub basis: Basis,
    /// Fitted on every comparison except those of this part in this class.
    pub estimate_left_out: f64,
    /// estimate ÷ measured − 1
    pub error: f64,
}

/// Errors of one class.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ClassError {
    /// The workload class.
    pub workload_class: WorkloadClass,
    /// Measured or derived ratios of the class.
    pub ratios: u32,
    /// Median of the absolute errors (a share: 0.1 = 10 %).
    pub median_abs_error: f64,
    /// The largest absolute error.
    pub worst_abs_error: f64,
    /// The accelerator with the largest error.
    pub worst_accelerator_id: String,
}

/// Leave-one-out calibration of the model against every measured or
/// derived ratio to the reference.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct Calibration {
    /// Every measured or derived ratio beside its left-out estimate.
    pub rows: Vec<CalibrationRow>,
    /// Errors by workload class; a class without rows is not listed.
    pub classes: Vec<ClassError>,
    /// Comparisons the full model was fitted on.
    pub comparisons: u32,
    /// Fitted (compute, bandwidth) exponents per workload class.
    pub exponents: Vec<(WorkloadClass, f64, f64)>,
    /// Fitted stack factors (CUDA = 1) and the comparisons behind each.
    pub stacks: Vec<(String, f64, u32)>,
}

impl RatioBook {
    /// The leave-one-out calibration (the inputs must be the book's own).
    pub fn calibration(&self, inputs: RatioInputs<'_>) -> Calibration {
        let accelerators: BTreeMap<&str, &Accelerator> =
            inputs.accelerators.iter().map(|a| (a.id.as_str(), a)).collect();
        let graphs = graphs(&self.derived, inputs.efficiency);
        let Some(reference) = accelerators.get(inputs.reference).copied() else {
            return Calibration {
                rows: Vec::new(),
                classes: Vec::new(),
                comparisons: 0,
                exponents: Vec::new(),
                stacks: Vec::new(),
            };
        };
        let all = equations(&edge_list(&graphs), &accelerators, reference);
        let model = fit(&all);
        let mut rows = Vec::new();
        for (id, class, cell) in
            self.cells.iter().flat_map(|(id, by_class)| by_class.iter().map(move |(c, r)| (id, c, r)))
        {
            let Ok(r) = cell else { continue };
            if !matches!(r.basis, Basis::Measured | Basis::Derived | Basis::SpecEquivalent) {
                continue;
            }
            // The twin itself is equal by assumption, not by measurement.
            if r.basis == Basis::SpecEquivalent
                && !matches!(r.steps.last().map(|s| &s.kind), Some(StepKind::Group { .. }))
            {
                continue;
            }
            let Some(a) = accelerators.get(id.as_str()) else { continue };
            let without: Vec<Equation> =
                all.iter().filter(|e| !(e.class == *class && e.accelerators.contains(id))).cloned().collect();
            let Ok(e) = fit(&without).estimate(a, reference, *class) else { continue };
            let est = estimate_value(&e);
            rows.push(CalibrationRow {
                accelerator_id: id.clone(),
                workload_class: *class,
                measured: r.ratio,
                basis: r.basis,
                estimate_left_out: est,
                error: est / r.ratio - 1.0,
            });
        }
        let mut classes = Vec::new();
        for class in WorkloadClass::PRICED {
            let mut errs: Vec<(f64, &str)> = rows
                .iter()
                .filter(|r| r.workload_class == class)
                .map(|r| (r.error.abs(), r.accelerator_id.as_str()))
                .collect();
            if errs.is_empty() {
                continue;
            }
            errs.sort_by(|x, y| x.0.total_cmp(&y.0));
            let median = errs[errs.len() / 2].0;
            let worst = errs[errs.len() - 1];
            classes.push(ClassError {
                workload_class: class,
                ratios: errs.len() as u32,
                median_abs_error: median,
                worst_abs_error: worst.0,
                worst_accelerator_id: worst.1.to_owned(),
            });
        }
        Calibration {
            rows,
            classes,
            comparisons: model.equations,
            exponents: WorkloadClass::PRICED
                .iter()
                .map(|c| {
                    let (a, b) = model.exponents[class_index(*c)];
                    (*c, a, b)
                })
                .collect(),
            stacks: model.stacks.iter().map(|(s, (b, n))| (s.clone(), b.exp(), *n)).collect(),
        }
    }
}

//! The book: every ratio of every accelerator for every class, each with its
//! basis, steps, provenance and method in words.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use suanli_model::WorkloadClass;

use super::derivation::derive;
use super::graph::{Anchored, BookContext, Graph, anchor_groups, graphs, solve_groups};
use super::model::{Model, equations, estimate_value, fit, spec_guess};
use super::{Basis, DerivedRatio, NoRatio, Normalisation, PinnedRatio, RatioUsed, Step, StepKind};
use crate::rows::{Accelerator, Confidence, Efficiency, Measurement};

/// Every ratio of every accelerator for every class, built once from the
/// catalogue's rows.
#[derive(Debug, Clone)]
pub struct RatioBook {
    reference: String,
    pub(super) cells: Cells,
    /// The comparisons derived from the measurements and used.
    pub derived: Vec<DerivedRatio>,
    /// Comparisons set aside because they disagree with both parts' specs
    /// by more than [`IMPLAUSIBLE`] (a log or unit problem, an untuned run).
    pub set_aside: Vec<DerivedRatio>,
}

/// Each accelerator's ratio (shared: an offers view hands out thousands of
/// them) or why it has none, by workload class.
type Cells = BTreeMap<String, BTreeMap<WorkloadClass, Result<Arc<RatioUsed>, NoRatio>>>;

/// How far (×) a comparison may stray from the ratio of the parts' specs
/// before it is set aside rather than trusted. Domestic stacks measured
/// here run up to about 3× below their specs; an assumption, listed with
/// what it set aside by `suanli catalog calibration`.
pub const IMPLAUSIBLE: f64 = 4.0;

/// What the book is built from.
#[derive(Debug, Clone, Copy)]
pub struct RatioInputs<'a> {
    /// Every accelerator row.
    pub accelerators: &'a [Accelerator],
    /// Published ratio rows.
    pub efficiency: &'a [Efficiency],
    /// Published benchmark results.
    pub measurements: &'a [Measurement],
    /// The user's pinned ratios.
    pub pins: &'a [PinnedRatio],
    /// The id of the accelerator every ratio is relative to.
    pub reference: &'a str,
}

impl RatioBook {
    /// Builds the book: derives the comparisons, fits the estimate model and
    /// gives each cell the first ratio that exists, in order of precedence. An
    /// unknown reference gives an empty book.
    pub fn build(inputs: RatioInputs<'_>) -> RatioBook {
        let accelerators: BTreeMap<&str, &Accelerator> =
            inputs.accelerators.iter().map(|a| (a.id.as_str(), a)).collect();
        let measurements: BTreeMap<&str, &Measurement> =
            inputs.measurements.iter().map(|m| (m.id.as_str(), m)).collect();
        let Some(reference) = accelerators.get(inputs.reference).copied() else {
            return RatioBook {
                reference: inputs.reference.to_owned(),
                cells: BTreeMap::new(),
                derived: Vec::new(),
                set_aside: Vec::new(),
            };
        };
        let (derived, set_aside): (Vec<DerivedRatio>, Vec<DerivedRatio>) = derive(inputs.measurements, &accelerators)
            .into_iter()
            .partition(|d| plausible(d, &accelerators, reference));
        let graphs = graphs(&derived, inputs.efficiency);
        let model = fit(&equations(&edge_list(&graphs), &accelerators, reference));
        let mut cells = Cells::new();
        for class in WorkloadClass::PRICED {
            let empty = Graph::new();
            let g = graphs.get(&class).unwrap_or(&empty);
            let ids: Vec<&str> = inputs.accelerators.iter().map(|a| a.id.as_str()).collect();
            let groups = solve_groups(g, &ids);
            let book = BookContext { reference, accelerators: &accelerators, model: &model };
            let anchored = anchor_groups(g, &groups, &book, class);
            let mut from_reference: BTreeMap<String, Vec<Step>> = anchored
                .iter()
                .filter(|(_, (b, _))| matches!(b, Basis::Measured | Basis::Derived))
                .map(|(id, (_, steps))| (id.clone(), steps.clone()))
                .collect();
            from_reference.insert(reference.id.clone(), Vec::new());
            for a in inputs.accelerators {
                let cell = cell(&Context {
                    a,
                    class,
                    reference,
                    anchored: &anchored,
                    from_reference: &from_reference,
                    model: &model,
                    inputs: &inputs,
                    measurements: &measurements,
                });
                cells.entry(a.id.clone()).or_default().insert(class, cell.map(Arc::new));
            }
            for a in inputs.accelerators {
                if let Some(weakest) = weakest_variant(a, class, &cells) {
                    cells.entry(a.id.clone()).or_default().insert(class, Ok(Arc::new(weakest)));
                }
            }
        }
        RatioBook { reference: inputs.reference.to_owned(), cells, derived, set_aside }
    }

    /// The ratio of an accelerator for a class, or why there is none.
    pub fn get(&self, accelerator_id: &str, class: WorkloadClass) -> Result<&Arc<RatioUsed>, NoRatio> {
        if !class.is_priced() {
            return Err(NoRatio::NotPriced);
        }
        match self.cells.get(accelerator_id).and_then(|by_class| by_class.get(&class)) {
            Some(Ok(r)) => Ok(r),
            Some(Err(e)) => Err(e.clone()),
            None => Err(NoRatio::UnknownAccelerator { accelerator_id: accelerator_id.to_owned() }),
        }
    }

    /// The id of the accelerator every ratio in the book is relative to.
    pub fn reference(&self) -> &str {
        &self.reference
    }
}

/// For a row that does not say which variant it is: unless it has a
/// measured ratio or a pin of its own, the weakest of its variants' ratios
/// (the offer may do better; it will not do worse than its weakest form).
fn weakest_variant(a: &Accelerator, class: WorkloadClass, cells: &Cells) -> Option<RatioUsed> {
    let cell = |id: &str| cells.get(id).and_then(|by_class| by_class.get(&class));
    let variants: Vec<&str> = a.variants.as_deref()?.split(';').map(str::trim).filter(|v| !v.is_empty()).collect();
    if let Some(Ok(own)) = cell(&a.id)
        && matches!(own.basis, Basis::Pinned | Basis::Measured | Basis::Derived | Basis::SpecEquivalent)
    {
        return None;
    }
    let (id, r) = variants
        .iter()
        .filter_map(|v| match cell(v) {
            Some(Ok(r)) => Some((*v, r)),
            _ => None,
        })
        .min_by(|x, y| x.1.ratio.total_cmp(&y.1.ratio).then_with(|| x.0.cmp(y.0)))?;
    let mut r = RatioUsed::clone(r);
    r.method_en = format!("the variant is not stated ({}): the weakest, {id}: {}", variants.join(", "), r.method_en);
    r.method_zh = format!("未注明具体型号（{}）：取最弱的 {id}：{}", variants.join("、"), r.method_zh);
    Some(r)
}

/// Whether a comparison is within [`IMPLAUSIBLE`] of the parts' spec ratio
/// (kept when a spec is missing: nothing to check it against).
fn plausible(d: &DerivedRatio, accelerators: &BTreeMap<&str, &Accelerator>, reference: &Accelerator) -> bool {
    let spec = |id: &str| accelerators.get(id).and_then(|a| spec_guess(a, reference, d.workload_class));
    match (spec(&d.accelerator_id), spec(&d.against_id)) {
        (Some(a), Some(b)) => (d.ratio / (a / b)).ln().abs() <= IMPLAUSIBLE.ln(),
        _ => true,
    }
}

/// Each derived edge once (a, b, class, a ÷ b) for the regression.
pub(super) fn edge_list(graphs: &BTreeMap<WorkloadClass, Graph>) -> Vec<(String, String, WorkloadClass, f64)> {
    let mut out = Vec::new();
    // Benchmark probes (peak GEMM, bandwidth) measure a part, not the work
    // priced: they do not calibrate the model.
    for (class, g) in graphs.iter().filter(|(c, _)| c.is_priced()) {
        for (from, edges) in g {
            for e in edges.iter().filter(|e| from < &e.to) {
                // e.ratio is `to` relative to `from`.
                out.push((e.to.clone(), from.clone(), *class, e.ratio));
            }
        }
    }
    out
}

struct Context<'a> {
    a: &'a Accelerator,
    class: WorkloadClass,
    reference: &'a Accelerator,
    /// Each grouped part's steps from the reference and basis.
    anchored: &'a Anchored,
    /// The steps of the parts of the reference's group (claims chain on them).
    from_reference: &'a BTreeMap<String, Vec<Step>>,
    model: &'a Model,
    inputs: &'a RatioInputs<'a>,
    measurements: &'a BTreeMap<&'a str, &'a Measurement>,
}

fn cell(cx: &Context<'_>) -> Result<RatioUsed, NoRatio> {
    let a = cx.a;
    if a.id == cx.reference.id {
        return Ok(used(cx, 1.0, Basis::Reference, Vec::new(), Vec::new()));
    }
    if let Some(p) = cx.inputs.pins.iter().find(|p| p.accelerator_id == a.id && p.workload_class == cx.class) {
        let mut r = used(cx, p.ratio, Basis::Pinned, Vec::new(), Vec::new());
        r.source = "pricebook".to_owned();
        r.method_en =
            format!("pinned by you on {}{}", p.pinned_at, p.note.as_ref().map_or(String::new(), |n| format!(": {n}")));
        r.method_zh =
            format!("您于 {} 设定{}", p.pinned_at, p.note.as_ref().map_or(String::new(), |n| format!("：{n}")));
        return Ok(r);
    }
    // Measured, or the same silicon as a measured part.
    if let Some((basis, steps)) =
        cx.anchored.get(&a.id).filter(|(b, _)| matches!(b, Basis::Measured | Basis::Derived | Basis::SpecEquivalent))
    {
        let ratio = steps.iter().map(|s| s.ratio).product();
        return Ok(used(cx, ratio, *basis, steps.clone(), Vec::new()));
    }
    if let Some(claim) = claimed(cx) {
        return Ok(claim);
    }
    // A group of measured parts the spec model anchors as a whole.
    if let Some((basis, steps)) = cx.anchored.get(&a.id) {
        let ratio = steps.iter().map(|s| s.ratio).product();
        return Ok(used(cx, ratio, *basis, steps.clone(), Vec::new()));
    }
    let e = cx.model.estimate(a, cx.reference, cx.class)?;
    let step = Step {
        from: cx.reference.id.clone(),
        to: a.id.clone(),
        ratio: estimate_value(&e),
        kind: StepKind::Estimated(e),
    };
    Ok(used(cx, step.ratio, Basis::Estimated, vec![step], Vec::new()))
}

/// The best-sourced claim (direct, or chained once through a part with a ratio).
fn claimed(cx: &Context<'_>) -> Option<RatioUsed> {
    let mut rows: Vec<&Efficiency> = cx
        .inputs
        .efficiency
        .iter()
        .filter(|e| e.accelerator_id == cx.a.id && e.workload_class == cx.class)
        .filter(|e| !matches!(e.confidence, Confidence::M | Confidence::D))
        .collect();
    rows.sort_by(|x, y| {
        x.confidence.rank().cmp(&y.confidence.rank()).then_with(|| y.as_of.cmp(&x.as_of)).then_with(|| x.id.cmp(&y.id))
    });
    for e in rows {
        let via = if e.reference_accelerator_id == cx.reference.id {
            Some(Vec::new())
        } else {
            cx.from_reference.get(&e.reference_accelerator_id).cloned()
        };
        if let Some(mut steps) = via {
            steps.push(Step {
                from: e.reference_accelerator_id.clone(),
                to: e.accelerator_id.clone(),
                ratio: e.ratio,
                kind: StepKind::Published { id: e.id.clone(), confidence: e.confidence, source: e.source.clone() },
            });
            let ratio = steps.iter().map(|s| s.ratio).product();
            return Some(used(cx, ratio, Basis::Claimed, steps, Vec::new()));
        }
    }
    None
}

/// What a ratio's provenance gathers from its steps.
struct Provenance<'x> {
    measurements: &'x mut Vec<String>,
    ids: &'x mut Vec<String>,
    sources: &'x mut Vec<String>,
    confidence: &'x mut Confidence,
    as_of: &'x mut Option<String>,
}

impl Provenance<'_> {
    fn source(&mut self, list: &str) {
        for src in list.split(';') {
            if !self.sources.iter().any(|x| x == src) {
                self.sources.push(src.to_owned());
            }
        }
    }

    /// The specs of a part (an estimate or a spec equivalence rests on them).
    fn specs(&mut self, cx: &Context<'_>, id: &str) {
        if let Some(a) = cx.inputs.accelerators.iter().find(|a| a.id == id) {
            *self.confidence = self.confidence.weaker(a.confidence);
            self.source(&a.source);
        }
    }
}

/// Gathers the measurements, rows, sources, weakest confidence and newest
/// date behind one step (and the steps inside it).
fn provenance(cx: &Context<'_>, s: &Step, acc: &mut Provenance<'_>) {
    match &s.kind {
        StepKind::Derived { comparisons } => {
            for c in comparisons {
                for id in &c.measurements {
                    if let Some(m) = cx.measurements.get(id.as_str()) {
                        *acc.confidence = acc.confidence.weaker(m.confidence);
                        *acc.as_of = acc.as_of.clone().max(m.as_of.clone());
                        acc.source(&m.source);
                    }
                    if !acc.measurements.contains(id) {
                        acc.measurements.push(id.clone());
                    }
                }
            }
        }
        StepKind::Published { id, confidence: c, source } => {
            if !acc.ids.contains(id) {
                acc.ids.push(id.clone());
            }
            *acc.confidence = acc.confidence.weaker(*c);
            acc.source(source);
        }
        StepKind::Estimated(_) | StepKind::SpecEquivalent { .. } => {
            acc.specs(cx, &s.to);
            acc.specs(cx, &s.from);
        }
        StepKind::Group { evidence, .. } => {
            for e in evidence {
                provenance(cx, e, acc);
            }
        }
        StepKind::GroupEstimated { estimates } => {
            for e in estimates {
                provenance(cx, e, acc);
            }
        }
    }
}

/// Assembles a ratio with its provenance and its method in both languages.
fn used(cx: &Context<'_>, ratio: f64, basis: Basis, steps: Vec<Step>, extra_ids: Vec<String>) -> RatioUsed {
    let mut measurements = Vec::new();
    let mut ids = extra_ids;
    let mut sources: Vec<String> = Vec::new();
    let mut confidence = if basis == Basis::Estimated { Confidence::D } else { Confidence::M };
    let mut as_of: Option<String> = None;
    let mut acc = Provenance {
        measurements: &mut measurements,
        ids: &mut ids,
        sources: &mut sources,
        confidence: &mut confidence,
        as_of: &mut as_of,
    };
    for s in &steps {
        provenance(cx, s, &mut acc);
    }
    let (method_en, method_zh) = describe(&steps, basis, cx);
    RatioUsed {
        ratio,
        workload_class: cx.class,
        basis,
        steps,
        measurements,
        ids,
        source: if basis == Basis::Reference { "reference accelerator".to_owned() } else { sources.join(";") },
        confidence: if basis == Basis::Reference { Confidence::D } else { confidence },
        as_of,
        reference_accelerator_id: cx.reference.id.clone(),
        method_en,
        method_zh,
    }
}

fn describe(steps: &[Step], basis: Basis, cx: &Context<'_>) -> (String, String) {
    if basis == Basis::Reference {
        return ("the reference accelerator".to_owned(), "参考加速卡".to_owned());
    }
    let _ = cx;
    let (en, zh): (Vec<String>, Vec<String>) = steps.iter().map(step_text).unzip();
    (en.join("; then "), zh.join("；再"))
}

/// One step in words, in English and Chinese.
fn step_text(s: &Step) -> (String, String) {
    match &s.kind {
        StepKind::Derived { comparisons } => {
            let cases: Vec<String> = comparisons
                .iter()
                .map(|c| {
                    format!(
                        "{} {}{}",
                        c.suite.label(),
                        c.case,
                        c.round.as_ref().map_or(String::new(), |r| format!(" {r}"))
                    )
                })
                .collect::<BTreeSet<_>>()
                .into_iter()
                .collect();
            let n = comparisons.len();
            // The spread of the comparisons combined.
            let (low, high) =
                comparisons.iter().fold((f64::INFINITY, 0.0_f64), |(lo, hi), c| (lo.min(c.ratio), hi.max(c.ratio)));
            let spread = if n > 1 { format!(" {low:.3}–{high:.3}") } else { String::new() };
            let count = |n: Normalisation| comparisons.iter().filter(|c| c.normalisation == n).count();
            let (scaled, mfu) = (count(Normalisation::ScaleCorrected), count(Normalisation::MfuTimesPeak));
            let (mut how_en, mut how_zh) = (String::new(), String::new());
            if scaled > 0 {
                how_en.push_str(&format!(
                    "; {scaled} across accelerator counts, scale-corrected by the same submitter's measured scaling"
                ));
                how_zh.push_str(&format!("；其中 {scaled} 组卡数不同，按同一提交方实测的扩展效率折算"));
            }
            if mfu > 0 {
                how_en.push_str(&format!(
                    "; {mfu} from MFU × the peak each run's suite configuration records (throughput not published)"
                ));
                how_zh.push_str(&format!("；其中 {mfu} 组未公布吞吐量，按 MFU × 测试配置所记峰值折算"));
            }
            (
                format!(
                    "{} vs {} {:.3} ({} like-for-like comparison{}{spread}: {}{how_en})",
                    s.to,
                    s.from,
                    s.ratio,
                    n,
                    if n == 1 { "" } else { "s, geometric mean of" },
                    cases.join(", ")
                ),
                format!(
                    "{} 相对 {} 为 {:.3}（{} 组同配置对比{}{spread}：{}{how_zh}）",
                    s.to,
                    s.from,
                    s.ratio,
                    n,
                    if n == 1 { "" } else { "，几何平均，范围" },
                    cases.join("、")
                ),
            )
        }
        StepKind::Published { id, .. } => (
            format!("{} vs {} {:.3} (catalogue ratio {id})", s.to, s.from, s.ratio),
            format!("{} 相对 {} 为 {:.3}（目录效率记录 {id}）", s.to, s.from, s.ratio),
        ),
        StepKind::Estimated(e) => {
            let stack_en = if e.stack_comparisons == 0 {
                format!("{} has no measurement: the median factor of the measured non-CUDA stacks", e.stack)
            } else {
                format!("{} factor from {} comparisons", e.stack, e.stack_comparisons)
            };
            let stack_zh = if e.stack_comparisons == 0 {
                format!("{} 无实测，取已实测非 CUDA 软件栈系数的中位数", e.stack)
            } else {
                format!("{} 系数来自 {} 组对比", e.stack, e.stack_comparisons)
            };
            (
                format!(
                    "{} estimated {:.3} = compute ratio {:.3}^{:.2} × bandwidth ratio {:.3}^{:.2} × stack factor {:.2} ({stack_en}; model fitted on {} comparisons)",
                    s.to,
                    s.ratio,
                    e.compute_ratio,
                    e.compute_exponent,
                    e.bandwidth_ratio,
                    e.bandwidth_exponent,
                    e.stack_factor,
                    e.calibrated_on
                ),
                format!(
                    "{} 估算为 {:.3} = 算力比 {:.3}^{:.2} × 带宽比 {:.3}^{:.2} × 软件栈系数 {:.2}（{stack_zh}；模型基于 {} 组对比校准）",
                    s.to,
                    s.ratio,
                    e.compute_ratio,
                    e.compute_exponent,
                    e.bandwidth_ratio,
                    e.bandwidth_exponent,
                    e.stack_factor,
                    e.calibrated_on
                ),
            )
        }
        StepKind::SpecEquivalent { difference_en, difference_zh } => (
            format!(
                "{} taken as equal to {} (spec-equivalent: the same silicon, compute, memory and bandwidth; differs in {difference_en})",
                s.to, s.from
            ),
            format!("{} 视同 {}（规格等同：同一芯片，算力、显存与带宽相同；区别在于{difference_zh}）", s.to, s.from),
        ),
        StepKind::Group { members, pairs, comparisons, worst_residual, evidence } => {
            let (en, zh): (Vec<String>, Vec<String>) = evidence.iter().map(step_text).unzip();
            (
                format!(
                    "{} vs {} {:.3}, solved once over a group of {members} parts connected by {pairs} measured pairs \
                     ({comparisons} comparisons; least squares on logs, the furthest pair kept within {:.1} %); \
                     its own pairs: {}",
                    s.to,
                    s.from,
                    s.ratio,
                    worst_residual * 100.0,
                    en.join("; ")
                ),
                format!(
                    "{} 相对 {} 为 {:.3}，由 {members} 张卡、{pairs} 组实测卡对构成的组整体求解（{comparisons} 组对比；\
                     对数最小二乘，偏离最大的卡对在 {:.1} % 以内）；其自身卡对：{}",
                    s.to,
                    s.from,
                    s.ratio,
                    worst_residual * 100.0,
                    zh.join("；")
                ),
            )
        }
        StepKind::GroupEstimated { estimates } => {
            let list = |sep: &str| -> String {
                estimates.iter().map(|e| format!("{} {:.3}", e.to, e.ratio)).collect::<Vec<_>>().join(sep)
            };
            (
                format!(
                    "{} estimated {:.3} by the spec model applied to its measured group as a whole (one factor \
                     that brings the group nearest the model's estimates of its {} members with specs: {})",
                    s.to,
                    s.ratio,
                    estimates.len(),
                    list(", ")
                ),
                format!(
                    "{} 估算为 {:.3}：规格模型整体套用于其实测组（取一个系数，使该组最接近模型对其 {} 张有规格卡的估算：{}）",
                    s.to,
                    s.ratio,
                    estimates.len(),
                    list("、")
                ),
            )
        }
    }
}

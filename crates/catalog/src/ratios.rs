//! Efficiency ratios for every accelerator and workload class.
//!
//! In order of precedence (the first that exists is used):
//! 1. **pinned** — a ratio the user states (`pricebook_ratios`), never
//!    overwritten by updates or packs;
//! 2. **derived** / **measured** — the part's group of like-for-like
//!    comparisons (ratios computed here from two published measurement rows
//!    of the same case and configuration, `measurements.csv`, or measured
//!    ratios a fact sheet publishes, `efficiency.csv`, confidence M or D)
//!    holds the reference: every group of parts connected by measured pairs
//!    is solved once (least squares on the logs of every comparison), so a
//!    pair's solved ratio is its measurement wherever pairs form no loop;
//! 3. **spec-equivalent** — the group holds a part with the silicon of a
//!    part of the reference's group (the A800 and the A100), taken as equal;
//! 4. **claimed** — a vendor's or the press's figure (`efficiency.csv`, V/P/C);
//! 5. **estimated** — from the part's specs and its software stack, by a
//!    model calibrated on (2): for a measured group, the model applied to
//!    the group as a whole (one factor for all its members).
//!
//! Everything here is a pure function of the catalogue's rows.

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use suanli_model::{Lang, WorkloadClass};

use crate::rows::{Accelerator, Confidence, Efficiency, Measurement, Metric, Suite};

/// Where a ratio comes from, strongest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub enum Basis {
    /// The reference accelerator itself (1 by definition).
    Reference,
    /// Stated by the user.
    Pinned,
    /// A measured ratio a fact sheet publishes.
    Measured,
    /// Computed from published measurements of like-for-like runs.
    Derived,
    /// Measured against a part that shares its silicon (same compute, memory
    /// and bandwidth; e.g. the A800 and the A100), taken as equal to it.
    SpecEquivalent,
    /// A vendor's or the press's claim.
    Claimed,
    /// Estimated from specs by the calibrated model.
    Estimated,
}

impl Basis {
    /// The name in JSON (`derived`).
    pub fn key(self) -> &'static str {
        match self {
            Basis::Reference => "reference",
            Basis::Pinned => "pinned",
            Basis::Measured => "measured",
            Basis::Derived => "derived",
            Basis::SpecEquivalent => "spec_equivalent",
            Basis::Claimed => "claimed",
            Basis::Estimated => "estimated",
        }
    }

    /// The basis for a reader, in English or Chinese.
    pub fn label(self, lang: Lang) -> &'static str {
        match self {
            Basis::Reference => lang.pick("reference", "参考卡"),
            Basis::Pinned => lang.pick("pinned by you", "自定"),
            Basis::Measured => lang.pick("measured", "实测"),
            Basis::Derived => lang.pick("derived from measurements", "由实测推导"),
            Basis::SpecEquivalent => lang.pick("measured, via a spec-equivalent part", "实测，经规格等同卡锚定"),
            Basis::Claimed => lang.pick("vendor claim", "厂商宣称"),
            Basis::Estimated => lang.pick("estimated", "估算"),
        }
    }
}

/// A ratio the user states for an accelerator and workload class.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct PinnedRatio {
    /// The accelerator.
    pub accelerator_id: String,
    /// The workload class.
    pub workload_class: WorkloadClass,
    /// Its work per accelerator ÷ the reference's, as the user states it (above 0).
    pub ratio: f64,
    /// The user's note.
    pub note: Option<String>,
    /// When it was pinned (the caller's time).
    pub pinned_at: String,
}

/// A ratio between two accelerators computed from two measurements of
/// the same case and configuration.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct DerivedRatio {
    /// The accelerator rated.
    pub accelerator_id: String,
    /// The accelerator it is compared with.
    pub against_id: String,
    /// The workload class of both runs.
    pub workload_class: WorkloadClass,
    /// Work per accelerator of `accelerator_id` ÷ that of `against_id`.
    pub ratio: f64,
    /// The two measurement rows: the accelerator's, then the other's.
    pub measurements: [String; 2],
    /// The suite of both runs.
    pub suite: Suite,
    /// The suite's case.
    pub case: String,
    /// The round (MLPerf `v4.1`); `None` where rounds do not matter.
    pub round: Option<String>,
    /// How the two results were made comparable.
    pub normalisation: Normalisation,
    /// For a time-to-train comparison across accelerator counts: how the
    /// other side's run was moved to this side's count.
    pub scale: Option<ScaleCorrection>,
}

/// A time-to-train comparison across accelerator counts: the other side's
/// per-accelerator throughput at this side's count, read off the line
/// (log throughput per accelerator against log count) through two of its
/// own runs, by the same submitter, of the same case and round.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ScaleCorrection {
    /// The count the other side was moved to (this side's run).
    pub at_accelerators: u64,
    /// The other side's two runs that measure its scaling.
    pub scaling_runs: [String; 2],
    /// Per-accelerator throughput kept per doubling of accelerators, by those two runs.
    pub per_doubling: f64,
    /// Whether the count lies outside the two runs' counts (by at most a factor of 2).
    pub extrapolated: bool,
}

/// How two results were made comparable.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub enum Normalisation {
    /// The same figure on both sides (per accelerator, same count).
    None,
    /// System throughput ÷ accelerators (MLPerf inference runs of
    /// different sizes: data-parallel replicas).
    PerAccelerator,
    /// MFU × the part's dense peak at the run's precision (the PaLM
    /// definition FlagPerf states): throughput when only MFU is published.
    MfuTimesPeak,
    /// Time-to-train runs of different sizes: one side moved to the other's
    /// count by its own measured scaling ([`ScaleCorrection`]).
    ScaleCorrected,
}

/// One step of a ratio's chain: `to` relative to `from`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct Step {
    /// The accelerator the step starts from.
    pub from: String,
    /// The accelerator it reaches.
    pub to: String,
    /// Work per accelerator of `to` ÷ that of `from`.
    pub ratio: f64,
    /// What the step rests on.
    pub kind: StepKind,
}

/// What one step of a chain rests on.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub enum StepKind {
    /// Geometric mean of like-for-like comparisons (each names its two measurements).
    Derived {
        /// The comparisons, each as `to` ÷ `from`.
        comparisons: Vec<RatioComparison>,
    },
    /// A ratio row of the catalogue (`efficiency.csv`).
    Published {
        /// The row's id.
        id: String,
        /// The row's confidence tag.
        confidence: Confidence,
        /// The row's source ids.
        source: String,
    },
    /// The calibrated model (see [`Estimate`]).
    Estimated(Estimate),
    /// Two parts that share the silicon (the same dense compute, memory and
    /// bandwidth in the catalogue), taken as equal: ratio 1.
    SpecEquivalent {
        /// How they differ, in English (`NVLink 400 GB/s against 600 GB/s`).
        difference_en: String,
        /// The same in Chinese.
        difference_zh: String,
    },
    /// One ratio per part of a group connected by measured pairs, solved
    /// once for the whole group: least squares on the logs of every
    /// comparison of every pair, so each pair's solved ratio is its
    /// comparisons' combination wherever the pairs do not form a loop.
    Group {
        /// Accelerators in the group.
        members: u32,
        /// Measured pairs in the group.
        pairs: u32,
        /// Comparisons (and catalogue ratio rows) behind the pairs.
        comparisons: u32,
        /// The largest share by which a pair's solved ratio differs from
        /// its own combination (0: every pair kept exactly).
        worst_residual: f64,
        /// The measured pairs of the part rated (`to`), each a step from the
        /// other part with its comparisons.
        evidence: Vec<Step>,
    },
    /// The spec model applied to a whole group: the one factor that brings
    /// the group's solved ratios nearest (least squares on logs) to the
    /// model's estimates of its members.
    GroupEstimated {
        /// The model's estimate of each member it can estimate, each a step
        /// from the reference.
        estimates: Vec<Step>,
    },
}

/// A like-for-like comparison as a step shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct RatioComparison {
    /// The suite's case.
    pub case: String,
    /// The suite, as a reader names it (`MLPerf Inference`).
    pub suite: String,
    /// The round; `None` where rounds do not matter.
    pub round: Option<String>,
    /// The step's `to` ÷ its `from`, by this comparison.
    pub ratio: f64,
    /// The two measurement ids, the `to` side's first.
    pub measurements: [String; 2],
    /// `none`, `per_accelerator`, `mfu_times_peak` or `scale_corrected`.
    pub normalisation: String,
}

/// How an estimate was made: ratio = compute_ratio^compute_exponent ×
/// bandwidth_ratio^bandwidth_exponent × stack factor.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct Estimate {
    /// Dense BF16 (else FP16) TFLOPS ÷ the reference's.
    pub compute_ratio: f64,
    /// Memory bandwidth ÷ the reference's.
    pub bandwidth_ratio: f64,
    /// Fitted for the workload class on the measured comparisons.
    pub compute_exponent: f64,
    /// Fitted likewise, for bandwidth.
    pub bandwidth_exponent: f64,
    /// The software stack (the first name of `software_stack`, else the vendor).
    pub stack: String,
    /// Its fitted factor (CUDA = 1).
    pub stack_factor: f64,
    /// How many comparisons involved the stack (0: the median factor of the
    /// measured non-CUDA stacks stands in).
    pub stack_comparisons: u32,
    /// Comparisons the model was fitted on.
    pub calibrated_on: u32,
}

/// The ratio an accelerator gets for a workload class, and why.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct RatioUsed {
    /// Work per accelerator ÷ the reference's, for this class.
    pub ratio: f64,
    /// The workload class.
    pub workload_class: WorkloadClass,
    /// Where it comes from.
    pub basis: Basis,
    /// From the reference to the accelerator.
    pub steps: Vec<Step>,
    /// Every measurement row behind it.
    pub measurements: Vec<String>,
    /// Every ratio row (`efficiency.csv`) behind it.
    pub ids: Vec<String>,
    /// Source ids, `;`-separated.
    pub source: String,
    /// The weakest confidence along the chain.
    pub confidence: Confidence,
    /// The newest as-of date of the measurements behind it; `None` when no
    /// measurement is.
    pub as_of: Option<String>,
    /// The accelerator it is relative to.
    pub reference_accelerator_id: String,
    /// How it was made, in words.
    pub method_en: String,
    /// The same in Chinese.
    pub method_zh: String,
}

impl RatioUsed {
    /// How it was made, in English or Chinese.
    pub fn method(&self, lang: Lang) -> &str {
        lang.pick(&self.method_en, &self.method_zh)
    }
}

/// Why an accelerator has no ratio for a class.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub enum NoRatio {
    /// The offer names no accelerator.
    NoAccelerator,
    /// The accelerator is not in the catalogue.
    UnknownAccelerator {
        /// The id asked for.
        accelerator_id: String,
    },
    /// No measurement, and the spec the estimate needs is not published.
    NoSpec {
        /// The accelerator.
        accelerator_id: String,
        /// The missing spec field (`bf16_tflops`, `memory_bandwidth_gbps`).
        field: String,
        /// The vendor does not publish it (rather than: not collected).
        unpublished: bool,
    },
    /// A benchmark probe, not a workload offers are priced for.
    NotPriced,
}

impl NoRatio {
    /// The reason in words, in English or Chinese.
    pub fn describe(&self, lang: Lang) -> String {
        match self {
            NoRatio::NoAccelerator => lang.pick("the offer names no accelerator", "该报价未注明加速卡").to_owned(),
            NoRatio::UnknownAccelerator { accelerator_id } => match lang {
                Lang::En => format!("{accelerator_id} is not in the catalogue"),
                Lang::Zh => format!("目录中没有 {accelerator_id}"),
            },
            NoRatio::NoSpec { accelerator_id, field, unpublished } => match (lang, unpublished) {
                (Lang::En, true) => {
                    format!("no measurement, and no published {} for {accelerator_id}", spec_name(field, lang))
                }
                (Lang::En, false) => {
                    format!("no measurement, and the catalogue has no {} for {accelerator_id}", spec_name(field, lang))
                }
                (Lang::Zh, true) => format!("无实测数据，且 {accelerator_id} 未公布{}", spec_name(field, lang)),
                (Lang::Zh, false) => format!("无实测数据，且目录中没有 {accelerator_id} 的{}", spec_name(field, lang)),
            },
            NoRatio::NotPriced => lang.pick("a benchmark probe, not priced work", "基准测试项，不用于计价").to_owned(),
        }
    }
}

fn spec_name(field: &str, lang: Lang) -> &'static str {
    match field {
        "memory_bandwidth_gbps" => lang.pick("memory bandwidth", "显存带宽"),
        _ => lang.pick("dense BF16/FP16 compute figure", "BF16/FP16 稠密算力"),
    }
}

// ------------------------------------------------------------ derivation

/// What makes two measurements comparable: the same suite and case (and
/// round, where rounds differ), the same variant, precision, sequence
/// length and scenario, the same per-device batch, recompute and parallel
/// layout where the suite leaves them free, and — except where results are
/// normalised per accelerator — the same number of accelerators.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct GroupKey {
    class: WorkloadClass,
    suite: Suite,
    round: Option<String>,
    case: String,
    variant: String,
    precision: String,
    sequence_length: String,
    scenario: String,
    accelerators: Option<u64>,
    time_to_train: bool,
    /// Per-device batch (with any changed hyper-parameters, recompute among
    /// them) and parallel layout, as published, normalised: runs a suite
    /// does not fix (FlagPerf, vendor results) pair only when both agree.
    /// MLPerf's rules fix the work, and each submitter tunes these: empty.
    setup: String,
}

/// A run's batch and parallel layout as a key: lower case, without blanks.
fn setup_key(m: &Measurement) -> String {
    if m.suite.round_matters() {
        return String::new();
    }
    let norm = |x: &Option<String>| -> String {
        x.as_deref().unwrap_or("").chars().filter(|c| !c.is_whitespace()).flat_map(char::to_lowercase).collect()
    };
    format!("{}|{}", norm(&m.batch), norm(&m.parallel))
}

fn group_key(m: &Measurement) -> GroupKey {
    // MLPerf inference throughput is compared per accelerator (data-parallel
    // replicas); a peak-GEMM or memory-bandwidth probe is a property of one
    // device, whatever the run's size.
    let probe = matches!(
        m.workload_class,
        WorkloadClass::GemmBf16 | WorkloadClass::GemmFp16 | WorkloadClass::GemmFp8 | WorkloadClass::MemoryBandwidth
    );
    let per_accelerator = m.suite == Suite::MlperfInference || probe;
    GroupKey {
        class: m.workload_class,
        suite: m.suite,
        round: m.suite.round_matters().then(|| m.suite_version.clone().unwrap_or_default()),
        case: m.case.clone(),
        variant: m.variant.clone().unwrap_or_default(),
        precision: m.precision.clone().unwrap_or_default(),
        sequence_length: m.sequence_length.map(|x| x.to_string()).unwrap_or_default(),
        scenario: m.inference_scenario.clone().unwrap_or_default(),
        accelerators: (!per_accelerator).then_some(m.accelerators as u64),
        time_to_train: m.metric == Metric::MinutesToTrain,
        setup: setup_key(m),
    }
}

/// Dense peak used for MFU normalisation: BF16, else FP16.
fn dense_peak(a: &Accelerator) -> Option<f64> {
    a.bf16_tflops.or(a.fp16_tflops).filter(|x| *x > 0.0)
}

/// Every like-for-like comparison in the measurements. In each group, the
/// two parts' best results are compared. In MLPerf, where anyone may
/// submit with any software, a comparison takes each part's results from
/// its own vendor when both vendors submitted, else results of one
/// submitter who ran both (a third party's untuned run is not set against
/// a vendor's tuned one).
pub fn derive(measurements: &[Measurement], accelerators: &BTreeMap<&str, &Accelerator>) -> Vec<DerivedRatio> {
    let mut groups: BTreeMap<GroupKey, Vec<&Measurement>> = BTreeMap::new();
    for m in measurements.iter().filter(|m| m.value.is_some_and(|v| v > 0.0 && v.is_finite())) {
        if accelerators.contains_key(m.accelerator_id.as_str()) {
            groups.entry(group_key(m)).or_default().push(m);
        }
    }
    let mut out = Vec::new();
    for (key, rows) in groups {
        let mut by_accelerator: BTreeMap<&str, Vec<&Measurement>> = BTreeMap::new();
        for m in rows {
            by_accelerator.entry(m.accelerator_id.as_str()).or_default().push(m);
        }
        let ids: Vec<&str> = by_accelerator.keys().copied().collect();
        for (i, a) in ids.iter().enumerate() {
            for b in &ids[i + 1..] {
                let (pa, pb) = (accelerators[a], accelerators[b]);
                for (ra, rb) in comparable(&key, &by_accelerator[a], &by_accelerator[b], pa, pb) {
                    if let Some((ratio, ma, mb, normalisation)) = compare(&key, &ra, &rb, pa, pb)
                        && ratio.is_finite()
                        && ratio > 0.0
                    {
                        out.push(DerivedRatio {
                            accelerator_id: (*a).to_owned(),
                            against_id: (*b).to_owned(),
                            workload_class: key.class,
                            ratio,
                            measurements: [ma.id.clone(), mb.id.clone()],
                            suite: key.suite,
                            case: key.case.clone(),
                            round: key.round.clone(),
                            normalisation,
                            scale: None,
                        });
                    }
                }
            }
        }
    }
    let direct = out.len();
    out.extend(scale_corrected(measurements, accelerators, &out[..direct]));
    out
}

/// How far outside the other side's measured counts a run's count may lie:
/// one doubling.
const MAX_EXTRAPOLATION: f64 = 2.0;
/// Per-doubling scaling outside this range is not used to correct (a change
/// of batch or recipe between the runs, not scaling).
const PER_DOUBLING_RANGE: std::ops::RangeInclusive<f64> = 0.4..=1.1;

/// MLPerf Training time-to-train comparisons between parts that have no run
/// at an equal count in a case and round: one side's run against the other
/// side's throughput at that count, read off two runs of the other side by
/// one submitter (interpolated, or extrapolated by at most one doubling).
/// The vendor / same-submitter rule of [`comparable`] applies as for runs of
/// equal size.
fn scale_corrected(
    measurements: &[Measurement],
    accelerators: &BTreeMap<&str, &Accelerator>,
    direct: &[DerivedRatio],
) -> Vec<DerivedRatio> {
    let pair = |case: &str, round: &Option<String>, a: &str, b: &str| {
        let (x, y) = if a < b { (a, b) } else { (b, a) };
        (case.to_owned(), round.clone(), x.to_owned(), y.to_owned())
    };
    let seen: BTreeSet<_> = direct
        .iter()
        .filter(|d| d.suite == Suite::MlperfTraining)
        .map(|d| pair(&d.case, &d.round, &d.accelerator_id, &d.against_id))
        .collect();
    let mut groups: BTreeMap<GroupKey, Vec<&Measurement>> = BTreeMap::new();
    for m in measurements.iter().filter(|m| {
        m.suite == Suite::MlperfTraining
            && m.metric == Metric::MinutesToTrain
            && m.value.is_some_and(|v| v > 0.0 && v.is_finite())
            && accelerators.contains_key(m.accelerator_id.as_str())
    }) {
        let key = GroupKey { accelerators: None, ..group_key(m) };
        groups.entry(key).or_default().push(m);
    }
    let mut out = Vec::new();
    for (key, rows) in groups {
        let mut by_accelerator: BTreeMap<&str, Vec<&Measurement>> = BTreeMap::new();
        for m in rows {
            by_accelerator.entry(m.accelerator_id.as_str()).or_default().push(m);
        }
        let ids: Vec<&str> = by_accelerator.keys().copied().collect();
        for (i, a) in ids.iter().enumerate() {
            for b in &ids[i + 1..] {
                if seen.contains(&pair(&key.case, &key.round, a, b)) {
                    continue;
                }
                let (pa, pb) = (accelerators[a], accelerators[b]);
                for (ra, rb) in comparable(&key, &by_accelerator[a], &by_accelerator[b], pa, pb) {
                    let found =
                        moved(&ra, &rb).or_else(|| moved(&rb, &ra).map(|(r, mb, ma, sc)| (1.0 / r, ma, mb, sc)));
                    if let Some((ratio, ma, mb, scale)) = found.filter(|f| f.0.is_finite() && f.0 > 0.0) {
                        out.push(DerivedRatio {
                            accelerator_id: (*a).to_owned(),
                            against_id: (*b).to_owned(),
                            workload_class: key.class,
                            ratio,
                            measurements: [ma.id.clone(), mb.id.clone()],
                            suite: key.suite,
                            case: key.case.clone(),
                            round: key.round.clone(),
                            normalisation: Normalisation::ScaleCorrected,
                            scale: Some(scale),
                        });
                    }
                }
            }
        }
    }
    out
}

/// Per-accelerator work of a time-to-train run.
fn work(m: &Measurement) -> Option<f64> {
    m.metric.per_accelerator(m.value?, m.accelerators)
}

/// x ÷ y, the x run, the y run nearest in count, the correction.
type Moved<'m> = (f64, &'m Measurement, &'m Measurement, ScaleCorrection);

/// The best comparison of an `xs` run against the `ys` side moved to its
/// count: (x ÷ y, the x run, the y run nearest in count, the correction).
/// Interpolation wins over extrapolation, then the nearer measured count.
fn moved<'m>(xs: &[&'m Measurement], ys: &[&'m Measurement]) -> Option<Moved<'m>> {
    let mut best: Option<((bool, f64), Moved<'m>)> = None;
    let submitters: BTreeSet<&str> = ys.iter().filter_map(|m| m.submitter.as_deref()).collect();
    for x in xs {
        let Some(wx) = work(x) else { continue };
        let nx = x.accelerators;
        for s in &submitters {
            // The submitter's best run at each count.
            let mut at: BTreeMap<u64, (f64, &'m Measurement)> = BTreeMap::new();
            for y in ys.iter().copied().filter(|y| y.submitter.as_deref() == Some(*s)) {
                let Some(w) = work(y) else { continue };
                let e = at.entry(y.accelerators as u64).or_insert((w, y));
                if w > e.0 {
                    *e = (w, y);
                }
            }
            let Some((lo, hi, extrapolated)) = bracket(&at, nx) else { continue };
            let ((c1, (w1, m1)), (c2, (w2, m2))) = (lo, hi);
            let per_doubling = (w2 / w1).powf(1.0 / (c2 as f64 / c1 as f64).log2());
            if !PER_DOUBLING_RANGE.contains(&per_doubling) {
                continue;
            }
            let wy = w1 * per_doubling.powf((nx / c1 as f64).log2());
            let nearest = if (nx / c1 as f64).ln().abs() <= (nx / c2 as f64).ln().abs() { m1 } else { m2 };
            let distance = (nx.ln() - (nearest.accelerators).ln()).abs();
            let rank = (extrapolated, distance);
            if best.as_ref().is_none_or(|(r, _)| rank < *r) {
                let scale = ScaleCorrection {
                    at_accelerators: nx as u64,
                    scaling_runs: [m1.id.clone(), m2.id.clone()],
                    per_doubling,
                    extrapolated,
                };
                best = Some((rank, (wx / wy, *x, nearest, scale)));
            }
        }
    }
    best.map(|(_, b)| b)
}

type Point<'m> = (u64, (f64, &'m Measurement));

/// The two counts to read a count off: the nearest below and above it, else
/// the two nearest on one side when the count is at most a factor of 2
/// beyond them (extrapolated).
fn bracket<'m>(at: &BTreeMap<u64, (f64, &'m Measurement)>, n: f64) -> Option<(Point<'m>, Point<'m>, bool)> {
    let points: Vec<Point<'m>> = at.iter().map(|(c, v)| (*c, *v)).collect();
    // A run of the same count is a direct comparison, not a corrected one.
    if points.len() < 2 || points.iter().any(|p| p.0 as f64 == n) {
        return None;
    }
    let below = points.iter().rposition(|p| (p.0 as f64) < n);
    let above = points.iter().position(|p| (p.0 as f64) > n);
    match (below, above) {
        (Some(i), Some(j)) => Some((points[i], points[j], false)),
        (Some(i), None) if n <= points[i].0 as f64 * MAX_EXTRAPOLATION => Some((points[i - 1], points[i], true)),
        (None, Some(j)) if n * MAX_EXTRAPOLATION >= points[j].0 as f64 => Some((points[j], points[j + 1], true)),
        _ => None,
    }
}

/// Whether a submitter is the part's vendor (`NVIDIA` for NVIDIA parts,
/// `Intel-HabanaLabs` for Gaudi …).
fn by_vendor(m: &Measurement, a: &Accelerator) -> bool {
    let vendor = a.vendor.split_whitespace().next().unwrap_or("").to_lowercase();
    !vendor.is_empty() && m.submitter.as_deref().is_some_and(|s| s.to_lowercase().contains(&vendor))
}

/// The sets of results that may be set against each other.
fn comparable<'m>(
    key: &GroupKey,
    a: &[&'m Measurement],
    b: &[&'m Measurement],
    pa: &Accelerator,
    pb: &Accelerator,
) -> Vec<(Vec<&'m Measurement>, Vec<&'m Measurement>)> {
    if !key.suite.round_matters() {
        return vec![(a.to_vec(), b.to_vec())];
    }
    let va: Vec<&Measurement> = a.iter().copied().filter(|m| by_vendor(m, pa)).collect();
    let vb: Vec<&Measurement> = b.iter().copied().filter(|m| by_vendor(m, pb)).collect();
    if !va.is_empty() && !vb.is_empty() {
        return vec![(va, vb)];
    }
    let submitters: BTreeSet<&str> = a.iter().filter_map(|m| m.submitter.as_deref()).collect();
    submitters
        .into_iter()
        .filter_map(|s| {
            let sa: Vec<&Measurement> = a.iter().copied().filter(|m| m.submitter.as_deref() == Some(s)).collect();
            let sb: Vec<&Measurement> = b.iter().copied().filter(|m| m.submitter.as_deref() == Some(s)).collect();
            (!sb.is_empty()).then_some((sa, sb))
        })
        .collect()
}

/// The best result on each side: direct throughput where both have it,
/// else MFU × peak where both have MFU and a published peak.
fn compare<'m>(
    key: &GroupKey,
    a: &[&'m Measurement],
    b: &[&'m Measurement],
    pa: &Accelerator,
    pb: &Accelerator,
) -> Option<(f64, &'m Measurement, &'m Measurement, Normalisation)> {
    let best = |rows: &[&'m Measurement], mfu: bool| -> Option<(f64, &'m Measurement)> {
        rows.iter()
            .filter_map(|m| {
                let v = m.value?;
                let work = if mfu {
                    (m.metric == Metric::Mfu).then_some(v)
                } else {
                    m.metric.per_accelerator(v, m.accelerators)
                };
                work.map(|w| (w, *m))
            })
            .max_by(|x, y| x.0.total_cmp(&y.0).then_with(|| y.1.id.cmp(&x.1.id)))
    };
    if let (Some(x), Some(y)) = (best(a, false), best(b, false)) {
        return Some((x.0 / y.0, x.1, y.1, direct_normalisation(key, x.1, y.1)));
    }
    let (x, y) = (best(a, true)?, best(b, true)?);
    let (peak_a, peak_b) = (dense_peak(pa)?, dense_peak(pb)?);
    Some((x.0 * peak_a / (y.0 * peak_b), x.1, y.1, Normalisation::MfuTimesPeak))
}

fn direct_normalisation(key: &GroupKey, a: &Measurement, b: &Measurement) -> Normalisation {
    if key.accelerators.is_none() && a.accelerators != b.accelerators {
        Normalisation::PerAccelerator
    } else {
        Normalisation::None
    }
}

// ------------------------------------------------------------ the graph

/// An edge of a class's comparison graph: `to` relative to `from`.
#[derive(Debug, Clone)]
struct Edge {
    to: String,
    ratio: f64,
    kind: StepKind,
    /// Comparisons behind it (evidence, for ties).
    weight: u32,
}

type Graph = BTreeMap<String, Vec<Edge>>;

fn comparison(d: &DerivedRatio, flip: bool) -> RatioComparison {
    let (ratio, measurements) = if flip {
        (1.0 / d.ratio, [d.measurements[1].clone(), d.measurements[0].clone()])
    } else {
        (d.ratio, d.measurements.clone())
    };
    RatioComparison {
        case: d.case.clone(),
        suite: d.suite.label().to_owned(),
        round: d.round.clone(),
        ratio,
        measurements,
        normalisation: match d.normalisation {
            Normalisation::None => "none",
            Normalisation::PerAccelerator => "per_accelerator",
            Normalisation::MfuTimesPeak => "mfu_times_peak",
            Normalisation::ScaleCorrected => "scale_corrected",
        }
        .to_owned(),
    }
}

/// One graph per class: derived comparisons (geometric mean per pair of
/// accelerators) and published measured ratios, both directions.
fn graphs(derived: &[DerivedRatio], efficiency: &[Efficiency]) -> BTreeMap<WorkloadClass, Graph> {
    let mut pairs: BTreeMap<(WorkloadClass, String, String), Vec<&DerivedRatio>> = BTreeMap::new();
    for d in derived {
        // Stored once, from the smaller id to the larger.
        let (a, b) = if d.accelerator_id < d.against_id {
            (d.accelerator_id.clone(), d.against_id.clone())
        } else {
            (d.against_id.clone(), d.accelerator_id.clone())
        };
        pairs.entry((d.workload_class, a, b)).or_default().push(d);
    }
    let mut out: BTreeMap<WorkloadClass, Graph> = BTreeMap::new();
    for ((class, a, b), list) in pairs {
        // r = a ÷ b for each comparison, then the geometric mean.
        let logs: Vec<f64> =
            list.iter().map(|d| if d.accelerator_id == a { d.ratio.ln() } else { -d.ratio.ln() }).collect();
        let r = (logs.iter().sum::<f64>() / logs.len() as f64).exp();
        let forward: Vec<RatioComparison> = list.iter().map(|d| comparison(d, d.accelerator_id != b)).collect();
        let backward: Vec<RatioComparison> = list.iter().map(|d| comparison(d, d.accelerator_id != a)).collect();
        let g = out.entry(class).or_default();
        let n = list.len() as u32;
        // Edge a → b carries b relative to a.
        g.entry(a.clone()).or_default().push(Edge {
            to: b.clone(),
            ratio: 1.0 / r,
            kind: StepKind::Derived { comparisons: forward },
            weight: n,
        });
        g.entry(b).or_default().push(Edge {
            to: a,
            ratio: r,
            kind: StepKind::Derived { comparisons: backward },
            weight: n,
        });
    }
    for e in efficiency.iter().filter(|e| matches!(e.confidence, Confidence::M | Confidence::D)) {
        let g = out.entry(e.workload_class).or_default();
        let kind = StepKind::Published { id: e.id.clone(), confidence: e.confidence, source: e.source.clone() };
        g.entry(e.reference_accelerator_id.clone()).or_default().push(Edge {
            to: e.accelerator_id.clone(),
            ratio: e.ratio,
            kind: kind.clone(),
            weight: 1,
        });
        g.entry(e.accelerator_id.clone()).or_default().push(Edge {
            to: e.reference_accelerator_id.clone(),
            ratio: 1.0 / e.ratio,
            kind,
            weight: 1,
        });
    }
    out
}

/// Parts that share the silicon of another part, sold under export rules
/// with a slower interconnect: (part, its twin, how they differ in English,
/// in Chinese). A pair is used only while the catalogue's specs of both
/// agree ([`same_silicon`]).
const SPEC_EQUIVALENT: &[(&str, &str, &str, &str)] = &[
    ("nvidia-a800-sxm-80gb", "nvidia-a100-sxm-80gb", "NVLink 400 GB/s against 600 GB/s", "NVLink 400 GB/s 对 600 GB/s"),
    (
        "nvidia-h800-sxm-80gb",
        "nvidia-h100-sxm-80gb",
        "NVLink 400 GB/s against 900 GB/s, FP64 cut",
        "NVLink 400 GB/s 对 900 GB/s，FP64 削减",
    ),
    ("nvidia-a800-pcie-80gb", "nvidia-a100-pcie-80gb", "no NVLink bridge", "无 NVLink 桥接"),
    ("nvidia-a800-pcie-40gb", "nvidia-a100-pcie-40gb", "no NVLink bridge", "无 NVLink 桥接"),
];

/// Whether the catalogue gives two parts the same dense compute, memory,
/// bandwidth (each within 1 %) and form factor.
fn same_silicon(a: &Accelerator, b: &Accelerator) -> bool {
    let close = |x: Option<f64>, y: Option<f64>| matches!((x, y), (Some(x), Some(y)) if x > 0.0 && y > 0.0 && (x / y - 1.0).abs() <= 0.01);
    close(dense_peak(a), dense_peak(b))
        && close(a.memory_bandwidth_gbps, b.memory_bandwidth_gbps)
        && close(a.memory_gb, b.memory_gb)
        && a.form_factor == b.form_factor
}

/// Accelerators connected by measured pairs, with one log ratio each
/// (relative to any member: only differences mean anything).
#[derive(Debug, Clone)]
struct Group {
    /// Each member's log ratio.
    x: BTreeMap<String, f64>,
    pairs: u32,
    comparisons: u32,
    worst_residual: f64,
    /// Every pair is a catalogue ratio row (no comparison derived here).
    all_published: bool,
}

/// The connected groups of a class's graph, each solved by least squares
/// over every comparison: a pair of n comparisons weighs n (the same as one
/// equation per comparison), a catalogue ratio row 1. `extra` are parts
/// that must appear (as groups of one when they have no pair).
fn solve_groups(g: &Graph, extra: &[&str]) -> Vec<Group> {
    let mut nodes: BTreeSet<&str> = g.keys().map(String::as_str).collect();
    nodes.extend(extra.iter().copied());
    let mut seen: BTreeSet<&str> = BTreeSet::new();
    let mut out = Vec::new();
    for start in nodes.iter().copied() {
        if !seen.insert(start) {
            continue;
        }
        let mut members = vec![start];
        let mut queue = VecDeque::from([start]);
        while let Some(n) = queue.pop_front() {
            for e in g.get(n).map(Vec::as_slice).unwrap_or_default() {
                if seen.insert(e.to.as_str()) {
                    members.push(e.to.as_str());
                    queue.push_back(e.to.as_str());
                }
            }
        }
        members.sort_unstable();
        let index: BTreeMap<&str, usize> = members.iter().enumerate().map(|(i, m)| (*m, i)).collect();
        // Each edge once (from < to): x[to] − x[from] = ln ratio.
        let mut eqs: Vec<(usize, usize, f64, f64, bool)> = Vec::new();
        for m in &members {
            for e in g.get(*m).map(Vec::as_slice).unwrap_or_default().iter().filter(|e| *m < e.to.as_str()) {
                let published = matches!(e.kind, StepKind::Published { .. });
                eqs.push((index[m], index[e.to.as_str()], e.ratio.ln(), f64::from(e.weight), published));
            }
        }
        // Normal equations with the first member fixed at 0.
        let n = members.len() - 1;
        let mut ata = vec![vec![0.0; n]; n];
        let mut atb = vec![0.0; n];
        for &(i, j, y, w, _) in &eqs {
            // Row: +1 at j, −1 at i (index k ↦ k − 1; member 0 is fixed).
            let row: Vec<(usize, f64)> = [(j, 1.0), (i, -1.0)].into_iter().filter(|(k, _)| *k > 0).collect();
            for &(a, xa) in &row {
                atb[a - 1] += w * xa * y;
                for &(b, xb) in &row {
                    ata[a - 1][b - 1] += w * xa * xb;
                }
            }
        }
        let solved = if n == 0 { Vec::new() } else { solve(ata, atb) };
        let x_of = |k: usize| if k == 0 { 0.0 } else { solved[k - 1] };
        let worst = eqs.iter().map(|&(i, j, y, _, _)| ((x_of(j) - x_of(i)) - y).abs()).fold(0.0, f64::max);
        out.push(Group {
            x: members.iter().enumerate().map(|(k, m)| ((*m).to_owned(), x_of(k))).collect(),
            pairs: eqs.len() as u32,
            comparisons: eqs.iter().map(|e| e.3 as u32).sum(),
            worst_residual: worst.exp() - 1.0,
            all_published: eqs.iter().all(|e| e.4),
        });
    }
    out
}

/// The measured pairs of `id` in the graph, each as a step from the other part.
fn evidence(g: &Graph, id: &str) -> Vec<Step> {
    let mut out = Vec::new();
    for e in g.get(id).map(Vec::as_slice).unwrap_or_default() {
        for back in g.get(&e.to).map(Vec::as_slice).unwrap_or_default().iter().filter(|b| b.to == id) {
            let step = Step { from: e.to.clone(), to: id.to_owned(), ratio: back.ratio, kind: back.kind.clone() };
            if !out.contains(&step) {
                out.push(step);
            }
        }
    }
    out
}

/// The step from `from` to `to` inside a solved group.
fn group_step(g: &Graph, group: &Group, from: &str, to: &str) -> Step {
    Step {
        from: from.to_owned(),
        to: to.to_owned(),
        ratio: (group.x[to] - group.x[from]).exp(),
        kind: StepKind::Group {
            members: group.x.len() as u32,
            pairs: group.pairs,
            comparisons: group.comparisons,
            worst_residual: group.worst_residual,
            evidence: evidence(g, to),
        },
    }
}

/// How each part of each group of a class reaches the reference, and its basis.
type Anchored = BTreeMap<String, (Basis, Vec<Step>)>;

/// Anchors every group of a class once: the reference's own group through
/// the reference; another group through a part that shares the silicon of a
/// part of the reference's group ([`SPEC_EQUIVALENT`]); else, when it has
/// two members or more, through the spec model applied to the group as a
/// whole. Parts of a group of one without a twin are left to the caller.
fn anchor_groups(g: &Graph, groups: &[Group], cx: &BookContext<'_>, class: WorkloadClass) -> Anchored {
    let reference = cx.reference.id.as_str();
    let mut out = Anchored::new();
    let Some(home) = groups.iter().find(|gr| gr.x.contains_key(reference)) else { return out };
    let home_basis = if home.all_published { Basis::Measured } else { Basis::Derived };
    let mut to_home: BTreeMap<String, Vec<Step>> = BTreeMap::new();
    for id in home.x.keys().filter(|id| id.as_str() != reference) {
        let steps = vec![group_step(g, home, reference, id)];
        to_home.insert(id.clone(), steps.clone());
        out.insert(id.clone(), (home_basis, steps));
    }
    to_home.insert(reference.to_owned(), Vec::new());
    for group in groups.iter().filter(|gr| !gr.x.contains_key(reference)) {
        // A twin in the reference's group.
        let twin = SPEC_EQUIVALENT.iter().find_map(|(a, b, en, zh)| {
            let pair = [(*a, *b), (*b, *a)];
            pair.into_iter().find_map(|(inside, outside)| {
                let (pa, pb) = (cx.accelerators.get(inside)?, cx.accelerators.get(outside)?);
                (group.x.contains_key(inside) && same_silicon(pa, pb))
                    .then(|| to_home.get(outside).map(|steps| (inside, outside, steps.clone(), *en, *zh)))
                    .flatten()
            })
        });
        if let Some((inside, outside, mut steps, en, zh)) = twin {
            steps.push(Step {
                from: outside.to_owned(),
                to: inside.to_owned(),
                ratio: 1.0,
                kind: StepKind::SpecEquivalent { difference_en: en.to_owned(), difference_zh: zh.to_owned() },
            });
            for id in group.x.keys() {
                let mut s = steps.clone();
                if id != inside {
                    s.push(group_step(g, group, inside, id));
                }
                out.insert(id.clone(), (Basis::SpecEquivalent, s));
            }
            continue;
        }
        if group.x.len() < 2 {
            continue;
        }
        // The spec model over the whole group.
        let estimates: Vec<(&String, Estimate)> = group
            .x
            .keys()
            .filter_map(|id| {
                let a = cx.accelerators.get(id.as_str())?;
                Some((id, cx.model.estimate(a, cx.reference, class).ok()?))
            })
            .collect();
        if estimates.is_empty() {
            continue;
        }
        let offset =
            estimates.iter().map(|(id, e)| estimate_value(e).ln() - group.x[*id]).sum::<f64>() / estimates.len() as f64;
        // The step lands on the member the model is surest of: the
        // reference's stack, then specs nearest the reference's.
        let Some((root, _)) = estimates.iter().min_by(|(x, ex), (y, ey)| {
            let key =
                |e: &Estimate| (e.stack != REFERENCE_STACK, e.compute_ratio.ln().abs() + e.bandwidth_ratio.ln().abs());
            let (kx, ky) = (key(ex), key(ey));
            kx.0.cmp(&ky.0).then(kx.1.total_cmp(&ky.1)).then_with(|| x.cmp(y))
        }) else {
            continue;
        };
        let anchor = Step {
            from: reference.to_owned(),
            to: (*root).clone(),
            ratio: (offset + group.x[*root]).exp(),
            kind: StepKind::GroupEstimated {
                estimates: estimates
                    .iter()
                    .map(|(id, e)| Step {
                        from: reference.to_owned(),
                        to: (*id).clone(),
                        ratio: estimate_value(e),
                        kind: StepKind::Estimated(e.clone()),
                    })
                    .collect(),
            },
        };
        for id in group.x.keys() {
            let mut s = vec![anchor.clone()];
            if id != *root {
                s.push(group_step(g, group, root, id));
            }
            out.insert(id.clone(), (Basis::Estimated, s));
        }
    }
    // A group still without an anchor (a part with no measured pair, say)
    // whose twin is in a group the model anchored: the twin's ratio, so
    // the two stay equal (the H800 as the H100 for LLM inference).
    let unanchored: Vec<&Group> =
        groups.iter().filter(|gr| !gr.x.keys().any(|id| out.contains_key(id) || id == reference)).collect();
    for group in unanchored {
        let twin = SPEC_EQUIVALENT.iter().find_map(|(a, b, en, zh)| {
            [(*a, *b), (*b, *a)].into_iter().find_map(|(inside, outside)| {
                let (pa, pb) = (cx.accelerators.get(inside)?, cx.accelerators.get(outside)?);
                let (basis, steps) = out.get(outside)?;
                (group.x.contains_key(inside) && same_silicon(pa, pb))
                    .then(|| (inside, outside, *basis, steps.clone(), *en, *zh))
            })
        });
        let Some((inside, outside, basis, mut steps, en, zh)) = twin else { continue };
        steps.push(Step {
            from: outside.to_owned(),
            to: inside.to_owned(),
            ratio: 1.0,
            kind: StepKind::SpecEquivalent { difference_en: en.to_owned(), difference_zh: zh.to_owned() },
        });
        let basis = if basis == Basis::Estimated { Basis::Estimated } else { Basis::SpecEquivalent };
        for id in group.x.keys() {
            let mut s = steps.clone();
            if id != inside {
                s.push(group_step(g, group, inside, id));
            }
            out.insert(id.clone(), (basis, s));
        }
    }
    out
}

/// What anchoring needs of the book being built.
struct BookContext<'a> {
    reference: &'a Accelerator,
    accelerators: &'a BTreeMap<&'a str, &'a Accelerator>,
    model: &'a Model,
}

// ------------------------------------------------------------ the model

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
fn spec_guess(a: &Accelerator, reference: &Accelerator, class: WorkloadClass) -> Option<f64> {
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

const REFERENCE_STACK: &str = "CUDA";

/// A weak pull toward the prior (exponents as [`prior`], stack factor 1),
/// worth one comparison each, so a stack or class seen in few comparisons
/// is not fitted to their noise. An assumption.
const PRIOR_WEIGHT: f64 = 1.0;

const CLASSES: usize = WorkloadClass::PRICED.len();

fn class_index(class: WorkloadClass) -> usize {
    WorkloadClass::PRICED.iter().position(|c| *c == class).unwrap_or(0)
}

/// The fitted model: log ratio = a(class)·log compute + b(class)·log bandwidth + β(stack).
#[derive(Debug, Clone, PartialEq)]
pub struct Model {
    exponents: [(f64, f64); CLASSES],
    stacks: BTreeMap<String, (f64, u32)>,
    /// Median β of the measured non-CUDA stacks (for stacks without data).
    fallback: f64,
    equations: u32,
}

/// One comparison as the regression sees it.
#[derive(Debug, Clone)]
struct Equation {
    class: WorkloadClass,
    /// log compute_a − log compute_b, and the same for bandwidth
    compute: f64,
    bandwidth: f64,
    stack_a: String,
    stack_b: String,
    /// log measured ratio
    value: f64,
    accelerators: [String; 2],
}

fn equations(
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
fn fit(eqs: &[Equation]) -> Model {
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
fn solve(mut a: Vec<Vec<f64>>, mut b: Vec<f64>) -> Vec<f64> {
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
    fn estimate(&self, a: &Accelerator, reference: &Accelerator, class: WorkloadClass) -> Result<Estimate, NoRatio> {
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

fn estimate_value(e: &Estimate) -> f64 {
    e.compute_ratio.powf(e.compute_exponent) * e.bandwidth_ratio.powf(e.bandwidth_exponent) * e.stack_factor
}

// ------------------------------------------------------------ the book

/// Every ratio of every accelerator for every class, built once from the
/// catalogue's rows.
#[derive(Debug, Clone)]
pub struct RatioBook {
    reference: String,
    cells: Cells,
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
        && matches!(own.basis, Basis::Pinned | Basis::Measured | Basis::Derived)
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
fn edge_list(graphs: &BTreeMap<WorkloadClass, Graph>) -> Vec<(String, String, WorkloadClass, f64)> {
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
                    format!("{} {}{}", c.suite, c.case, c.round.as_ref().map_or(String::new(), |r| format!(" {r}")))
                })
                .collect::<BTreeSet<_>>()
                .into_iter()
                .collect();
            let n = comparisons.len();
            // The spread of the comparisons combined.
            let (low, high) =
                comparisons.iter().fold((f64::INFINITY, 0.0_f64), |(lo, hi), c| (lo.min(c.ratio), hi.max(c.ratio)));
            let spread = if n > 1 { format!(" {low:.3}–{high:.3}") } else { String::new() };
            let scaled = comparisons.iter().filter(|c| c.normalisation == "scale_corrected").count();
            let (scaled_en, scaled_zh) = if scaled == 0 {
                (String::new(), String::new())
            } else {
                (
                    format!(
                        "; {scaled} across accelerator counts, scale-corrected by the same submitter's measured scaling"
                    ),
                    format!("；其中 {scaled} 组卡数不同，按同一提交方实测的扩展效率折算"),
                )
            };
            (
                format!(
                    "{} vs {} {:.3} ({} like-for-like comparison{}{spread}: {}{scaled_en})",
                    s.to,
                    s.from,
                    s.ratio,
                    n,
                    if n == 1 { "" } else { "s, geometric mean of" },
                    cases.join(", ")
                ),
                format!(
                    "{} 相对 {} 为 {:.3}（{} 组同配置对比{}{spread}：{}{scaled_zh}）",
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

// ------------------------------------------------------------ calibration

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

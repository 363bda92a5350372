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

use serde::{Deserialize, Serialize};
use suanli_model::{Lang, WorkloadClass};

use crate::rows::{Confidence, Suite};

mod book;
mod calibration;
mod derivation;
mod graph;
mod model;

pub use book::{IMPLAUSIBLE, RatioBook, RatioInputs};
pub use calibration::{Calibration, CalibrationRow, ClassError};
pub use derivation::derive;
pub use model::{Model, REFERENCE_STACK, stack_of};

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
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub enum Normalisation {
    /// The same figure on both sides (per accelerator, same count).
    None,
    /// System throughput ÷ accelerators (MLPerf inference runs of
    /// different sizes: data-parallel replicas).
    PerAccelerator,
    /// MFU × the peak the suite took it against, as the suite's
    /// configuration for the run records it (`Measurement::mfu_peak_tflops`):
    /// throughput up to the case's FLOPs per token, which both sides share,
    /// when a part's throughput is not published.
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
    /// The suite (`Suite::label` names it for a reader).
    pub suite: Suite,
    /// The round; `None` where rounds do not matter.
    pub round: Option<String>,
    /// The step's `to` ÷ its `from`, by this comparison.
    pub ratio: f64,
    /// The two measurement ids, the `to` side's first.
    pub measurements: [String; 2],
    /// How the two results were made comparable.
    pub normalisation: Normalisation,
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

//! Derivation: like-for-like comparisons read off two published measurements
//! of the same case and configuration (and time-to-train runs moved to one count).

use std::collections::{BTreeMap, BTreeSet};

use suanli_model::WorkloadClass;

use super::{DerivedRatio, Normalisation, ScaleCorrection};
use crate::rows::{Accelerator, Measurement, Metric, Suite};

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

/// A run's batch and parallel layout as a key: lower case, without blanks,
/// a layout of tensor, pipeline and data parallel degrees in one order.
fn setup_key(m: &Measurement) -> String {
    if m.suite.round_matters() {
        return String::new();
    }
    let norm = |x: &Option<String>| -> String {
        x.as_deref().unwrap_or("").chars().filter(|c| !c.is_whitespace()).flat_map(char::to_lowercase).collect()
    };
    let parallel = norm(&m.parallel);
    format!("{}|{}", norm(&m.batch), layout_key(&parallel).unwrap_or(parallel))
}

/// `dp8`, `tp1pp1dp8` and `pp1dp8tp1` alike as `tp1pp1dp8`: a layout
/// written only as TP, PP and DP degrees, each at most once, a degree not
/// written being 1. `None` for anything else (ZeRO stages, sharding …).
fn layout_key(parallel: &str) -> Option<String> {
    let mut degrees = [None::<u32>; 3];
    let mut rest = parallel;
    while !rest.is_empty() {
        let slot = ["tp", "pp", "dp"].iter().position(|p| rest.starts_with(p))?;
        let digits = rest[2..].find(|c: char| !c.is_ascii_digit()).map_or(rest.len() - 2, |n| n);
        let degree: u32 = rest[2..2 + digits].parse().ok()?;
        if degrees[slot].replace(degree).is_some() {
            return None;
        }
        rest = &rest[2 + digits..];
    }
    let [tp, pp, dp] = degrees.map(|d| d.unwrap_or(1));
    Some(format!("tp{tp}pp{pp}dp{dp}"))
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

/// A part's dense peak: BF16, else FP16.
pub(super) fn dense_peak(a: &Accelerator) -> Option<f64> {
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
    for m in measurements.iter().filter(|m| m.comparable_value().is_some()) {
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
                    if let Some((ratio, ma, mb, normalisation)) = compare(&key, &ra, &rb)
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
            && m.comparable_value().is_some()
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
/// else MFU × the peak the suite took it against, where both rows record
/// that peak (the case's own FLOPs per token, the same on both sides,
/// cancels; a catalogue peak is never put in the suite's place).
fn compare<'m>(
    key: &GroupKey,
    a: &[&'m Measurement],
    b: &[&'m Measurement],
) -> Option<(f64, &'m Measurement, &'m Measurement, Normalisation)> {
    let best = |rows: &[&'m Measurement], mfu: bool| -> Option<(f64, &'m Measurement)> {
        rows.iter()
            .filter_map(|m| {
                let v = m.value?;
                let work = if mfu {
                    m.mfu_peak_tflops.filter(|_| m.metric == Metric::Mfu).map(|peak| v * peak)
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
    Some((x.0 / y.0, x.1, y.1, Normalisation::MfuTimesPeak))
}

fn direct_normalisation(key: &GroupKey, a: &Measurement, b: &Measurement) -> Normalisation {
    if key.accelerators.is_none() && a.accelerators != b.accelerators {
        Normalisation::PerAccelerator
    } else {
        Normalisation::None
    }
}

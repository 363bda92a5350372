//! The graph: one comparison graph per class, its connected groups solved by
//! least squares, and each group anchored to the reference.

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use suanli_model::WorkloadClass;

use super::derivation::dense_peak;
use super::model::{Model, REFERENCE_STACK, estimate_value, solve};
use super::{Basis, DerivedRatio, Estimate, RatioComparison, Step, StepKind};
use crate::rows::{Accelerator, Confidence, Efficiency};

/// An edge of a class's comparison graph: `to` relative to `from`.
#[derive(Debug, Clone)]
pub(super) struct Edge {
    pub(super) to: String,
    pub(super) ratio: f64,
    kind: StepKind,
    /// Comparisons behind it (evidence, for ties).
    weight: u32,
}

pub(super) type Graph = BTreeMap<String, Vec<Edge>>;

fn comparison(d: &DerivedRatio, flip: bool) -> RatioComparison {
    let (ratio, measurements) = if flip {
        (1.0 / d.ratio, [d.measurements[1].clone(), d.measurements[0].clone()])
    } else {
        (d.ratio, d.measurements.clone())
    };
    RatioComparison {
        case: d.case.clone(),
        suite: d.suite,
        round: d.round.clone(),
        ratio,
        measurements,
        normalisation: d.normalisation,
    }
}

/// One graph per class: derived comparisons (geometric mean per pair of
/// accelerators) and published measured ratios, both directions.
pub(super) fn graphs(derived: &[DerivedRatio], efficiency: &[Efficiency]) -> BTreeMap<WorkloadClass, Graph> {
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
pub(super) struct Group {
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
pub(super) fn solve_groups(g: &Graph, extra: &[&str]) -> Vec<Group> {
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
pub(super) fn evidence(g: &Graph, id: &str) -> Vec<Step> {
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
pub(super) type Anchored = BTreeMap<String, (Basis, Vec<Step>)>;

/// Anchors every group of a class once: the reference's own group through
/// the reference; another group through a part that shares the silicon of a
/// part of the reference's group ([`SPEC_EQUIVALENT`]); else, when it has
/// two members or more, through the spec model applied to the group as a
/// whole. Parts of a group of one without a twin are left to the caller.
pub(super) fn anchor_groups(g: &Graph, groups: &[Group], cx: &BookContext<'_>, class: WorkloadClass) -> Anchored {
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
pub(super) struct BookContext<'a> {
    pub(super) reference: &'a Accelerator,
    pub(super) accelerators: &'a BTreeMap<&'a str, &'a Accelerator>,
    pub(super) model: &'a Model,
}

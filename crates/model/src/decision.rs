//! The decision rule a proposal's recommendation follows, and which
//! measure each option leads on, so a report can say in words where the
//! measures disagree.
//!
//! The rule (`docs/analytics.md`, "Decision rule"):
//!
//! 1. Only options that can do all the work are candidates (one that leaves
//!    work undone, or whose accelerators cannot hold the model, is ranked
//!    apart; when every option is, all are candidates).
//! 2. Cost is the net present cost: with ranges, its median (P50) across the
//!    simulated trials, since the stated point is one draw of uncertain
//!    inputs; without, the point figure. Porting cost is part of it (a
//!    cash flow), porting delay part of the time to result.
//! 3. The cheapest by that cost is the recommendation, unless a rival is a
//!    near tie (within [`NEAR_TIE_SHARE`] of its cost) and either carries
//!    clearly less supply risk (at least [`SUPPLY_POINTS`] fewer points,
//!    with a P90 no more than [`NEAR_TIE_SHARE`] above, when there are
//!    ranges) or, at no more supply risk, gives its result at least
//!    [`SOONER_MONTHS`] sooner. Such a rival is recommended instead.

use crate::OptionResult;
use crate::result::Evaluation;
use crate::uncertainty::Simulation;

/// Costs within this share of the cheapest are a near tie (5 %).
pub const NEAR_TIE_SHARE: f64 = 0.05;
/// A supply-risk score this many points lower (of 100) is clearly less risk.
pub const SUPPLY_POINTS: f64 = 15.0;
/// A result this many months sooner is worth a near tie.
pub const SOONER_MONTHS: f64 = 1.0;

/// Why the recommended option was chosen.
#[derive(Debug, Clone, PartialEq)]
pub enum Reason {
    /// The lowest cost: the median across trials (`by_median`) or the point.
    LowestCost {
        /// True when costs were compared by their median across trials.
        by_median: bool,
    },
    /// A near tie on cost with `cheapest`, and clearly less supply risk.
    LessSupplyRisk {
        /// Id of the cheapest candidate.
        cheapest: String,
    },
    /// A near tie on cost with `cheapest`, and a sooner result.
    SoonerResult {
        /// Id of the cheapest candidate.
        cheapest: String,
    },
}

/// The recommendation and the leader of each measure (option ids). A
/// leader is `None` when fewer than two candidates have that measure, or
/// when two tie for the lead.
#[derive(Debug, Clone, PartialEq)]
pub struct Decision {
    /// Id of the recommended option.
    pub recommended: String,
    /// Why it was chosen.
    pub reason: Reason,
    /// Lowest point NPV.
    pub point: String,
    /// Lowest median NPV (with ranges).
    pub p50: Option<String>,
    /// Lowest P90 NPV (with ranges).
    pub p90: Option<String>,
    /// Cheapest in the most trials (with ranges).
    pub most_often_cheapest: Option<String>,
    /// Lowest supply-risk score.
    pub supply: Option<String>,
    /// Soonest result (time to complete a job, lead time and porting delay included).
    pub soonest: Option<String>,
}

impl Decision {
    /// Whether any measure's leader is not the recommendation.
    pub fn disagrees(&self) -> bool {
        let r = Some(&self.recommended);
        Some(&self.point) != r
            || [&self.p50, &self.p90, &self.most_often_cheapest, &self.supply, &self.soonest]
                .iter()
                .any(|m| m.is_some() && m.as_ref() != r)
    }
}

fn leader(candidates: &[&OptionResult], key: impl Fn(&OptionResult) -> Option<f64>) -> Option<String> {
    let with: Vec<(&OptionResult, f64)> =
        candidates.iter().filter_map(|o| key(o).filter(|v| v.is_finite()).map(|v| (*o, v))).collect();
    if with.len() < 2 {
        return None;
    }
    let mut sorted = with;
    sorted.sort_by(|a, b| a.1.total_cmp(&b.1));
    // A tie for the lead is no lead.
    let (first, second) = (sorted[0].1, sorted[1].1);
    if (second - first).abs() <= 1e-9 * first.abs().max(1.0) {
        return None;
    }
    Some(sorted[0].0.id.clone())
}

/// Applies the rule; `None` when the evaluation has no options.
pub fn decide(e: &Evaluation, sim: Option<&Simulation>) -> Option<Decision> {
    let complete: Vec<&OptionResult> = e.complete().collect();
    let candidates: Vec<&OptionResult> = if complete.is_empty() { e.options.iter().collect() } else { complete };
    let range = |o: &OptionResult| sim.and_then(|s| s.options.iter().find(|r| r.id == o.id));
    let by_median = sim.is_some() && candidates.iter().all(|o| range(o).is_some());
    let cost = |o: &OptionResult| if by_median { range(o).map_or(o.total_npv, |r| r.npv.p50) } else { o.total_npv };
    let p90 = |o: &OptionResult| range(o).map(|r| r.npv.p90);
    let score = |o: &OptionResult| o.supply.as_ref().map(|s| s.score);

    let cheapest = *candidates.iter().min_by(|a, b| cost(a).total_cmp(&cost(b)))?;
    let near =
        |o: &OptionResult| o.id != cheapest.id && cost(o) <= cost(cheapest) + NEAR_TIE_SHARE * cost(cheapest).abs();
    let less_risk = candidates
        .iter()
        .filter(|o| near(o))
        .filter(|o| matches!((score(o), score(cheapest)), (Some(a), Some(b)) if a + SUPPLY_POINTS <= b))
        .filter(|o| match (p90(o), p90(cheapest)) {
            (Some(a), Some(b)) => a <= b + NEAR_TIE_SHARE * b.abs(),
            _ => true,
        })
        .min_by(|a, b| score(a).unwrap_or(f64::MAX).total_cmp(&score(b).unwrap_or(f64::MAX)));
    let sooner = candidates
        .iter()
        .filter(|o| near(o))
        .filter(|o| score(o).unwrap_or(0.0) <= score(cheapest).unwrap_or(0.0))
        .filter(|o| {
            matches!((o.time_to_complete_months, cheapest.time_to_complete_months),
                (Some(a), Some(b)) if a + SOONER_MONTHS <= b)
        })
        .min_by(|a, b| cost(a).total_cmp(&cost(b)));
    let (recommended, reason) = if let Some(o) = less_risk {
        (o.id.clone(), Reason::LessSupplyRisk { cheapest: cheapest.id.clone() })
    } else if let Some(o) = sooner {
        (o.id.clone(), Reason::SoonerResult { cheapest: cheapest.id.clone() })
    } else {
        (cheapest.id.clone(), Reason::LowestCost { by_median })
    };
    let point = candidates.iter().min_by(|a, b| a.total_npv.total_cmp(&b.total_npv)).map(|o| o.id.clone())?;
    let most_often_cheapest = sim.and_then(|_| {
        let with: Vec<(&OptionResult, f64)> =
            candidates.iter().filter_map(|o| range(o).map(|r| (*o, r.probability_cheapest))).collect();
        (with.len() >= 2).then(|| with.iter().max_by(|a, b| a.1.total_cmp(&b.1)).map(|(o, _)| o.id.clone())).flatten()
    });
    Some(Decision {
        recommended,
        reason,
        point,
        p50: sim.and_then(|_| leader(&candidates, |o| range(o).map(|r| r.npv.p50))),
        p90: sim.and_then(|_| leader(&candidates, p90)),
        most_often_cheapest,
        supply: leader(&candidates, score),
        soonest: leader(&candidates, |o| o.time_to_complete_months),
    })
}

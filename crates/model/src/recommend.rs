//! Ranking a recommendation's candidates: the order by the reader's
//! criterion, the Pareto frontier over NPV, time to result and supply
//! risk, and one line per candidate saying why it sits where it does.
//!
//! Catalogue-free: the API builds the candidates from the catalogue and
//! prices each through [`crate::evaluate()`]; this module only compares the
//! figures. Every order is total (ties fall to the next figure, then to the
//! candidate's position, which the caller fixes), so the same inputs give
//! the same ranking every time.

use std::cmp::Ordering;

use serde::{Deserialize, Serialize};

use crate::{Currency, Lang, format_amount};

/// What the ranked list is ordered by.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub enum RankBy {
    /// Discounted total cost.
    #[default]
    Npv,
    /// Nominal total cost.
    Total,
    /// Months until the result (a job) or until the capacity serves (steady demand).
    Time,
    /// Supply-risk score.
    Risk,
}

impl RankBy {
    /// Every criterion, in the order ties fall through after the chosen one.
    pub const ALL: [RankBy; 4] = [RankBy::Npv, RankBy::Total, RankBy::Time, RankBy::Risk];

    /// The machine name (`npv`, `total`, `time`, `risk`).
    pub fn key(self) -> &'static str {
        match self {
            RankBy::Npv => "npv",
            RankBy::Total => "total",
            RankBy::Time => "time",
            RankBy::Risk => "risk",
        }
    }

    /// The criterion's name in `lang`.
    pub fn label(self, lang: Lang) -> &'static str {
        match self {
            RankBy::Npv => lang.pick("NPV", "净现值"),
            RankBy::Total => lang.pick("total cost", "名义总成本"),
            RankBy::Time => lang.pick("time to result", "完成时间"),
            RankBy::Risk => lang.pick("supply risk", "供应风险"),
        }
    }
}

/// A priced candidate's figures; lower is better on each.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Point {
    /// Total cost discounted to today (NPV).
    pub npv: f64,
    /// Nominal total cost.
    pub total: f64,
    /// Months until the result (a job) or until the capacity serves (steady demand).
    pub time_months: f64,
    /// Supply-risk score, 0–100.
    pub risk: f64,
}

impl Point {
    fn metric(&self, by: RankBy) -> f64 {
        match by {
            RankBy::Npv => self.npv,
            RankBy::Total => self.total,
            RankBy::Time => self.time_months,
            RankBy::Risk => self.risk,
        }
    }

    /// By `by`, then NPV, total, time and risk.
    fn cmp_by(&self, other: &Point, by: RankBy) -> Ordering {
        std::iter::once(by)
            .chain(RankBy::ALL)
            .map(|m| self.metric(m).total_cmp(&other.metric(m)))
            .find(|o| o.is_ne())
            .unwrap_or(Ordering::Equal)
    }

    /// No worse on NPV, time and risk, and better on one.
    fn dominates(&self, other: &Point) -> bool {
        let axes = |p: &Point| [p.npv, p.time_months, p.risk];
        let (a, b) = (axes(self), axes(other));
        a.iter().zip(&b).all(|(x, y)| x <= y) && a.iter().zip(&b).any(|(x, y)| x < y)
    }
}

/// Positions of `points` in rank order; equal figures keep their positions' order.
pub fn rank(points: &[Point], by: RankBy) -> Vec<usize> {
    let mut order: Vec<usize> = (0..points.len()).collect();
    order.sort_by(|&a, &b| points[a].cmp_by(&points[b], by).then(a.cmp(&b)));
    order
}

/// For each point: `None` when it is on the Pareto frontier over NPV, time
/// and risk; else the first point (by position) that dominates it.
pub fn frontier(points: &[Point]) -> Vec<Option<usize>> {
    points.iter().map(|p| points.iter().position(|q| q.dominates(p))).collect()
}

/// Where a ranked candidate sits.
#[derive(Debug, Clone, PartialEq)]
pub enum Standing {
    /// First by the ranking criterion.
    Best {
        /// The criterion of the ranking.
        by: RankBy,
    },
    /// On the frontier: not dominated; dearer than the cheapest by NPV (a gap
    /// of 0 when it is that one, ranked by another criterion), but faster or less risky.
    Frontier {
        /// NPV above the cheapest candidate's by NPV.
        npv_above_best: f64,
        /// Months sooner than that candidate (negative: later).
        months_sooner: f64,
        /// Supply-risk points below that candidate's (negative: more risk).
        risk_lower: f64,
    },
    /// Another candidate (named as the caller's `names` give it) is no dearer, no slower and no riskier.
    Dominated {
        /// The first candidate (by position) that dominates it, as named in `names`.
        by: String,
    },
}

/// Why a ranked candidate sits where it does, in one line.
pub fn why(p: &Point, standing: &Standing, currency: Currency, lang: Lang) -> String {
    let zh = lang == Lang::Zh;
    let money = |x: f64| format_amount(x, currency, lang);
    match standing {
        Standing::Best { by } => {
            if zh {
                format!(
                    "按{}排名第一：净现值 {}，{:.1} 个月出结果，供应风险 {:.0}/100。",
                    by.label(lang),
                    money(p.npv),
                    p.time_months,
                    p.risk
                )
            } else {
                format!(
                    "First by {}: NPV {}, result in {:.1} months, supply risk {:.0}/100.",
                    by.label(lang),
                    money(p.npv),
                    p.time_months,
                    p.risk
                )
            }
        }
        Standing::Frontier { npv_above_best, months_sooner, risk_lower } => {
            let mut gains = Vec::new();
            if *months_sooner > 0.0 {
                gains.push(if zh {
                    format!("早 {months_sooner:.1} 个月")
                } else {
                    format!("{months_sooner:.1} months sooner")
                });
            }
            if *risk_lower > 0.0 {
                gains.push(if zh {
                    format!("供应风险低 {risk_lower:.0} 分")
                } else {
                    format!("{risk_lower:.0} points less supply risk")
                });
            }
            match (zh, gains.is_empty()) {
                (true, true) => "在帕累托前沿上：净现值最低。".to_owned(),
                (false, true) => "On the frontier: the lowest NPV.".to_owned(),
                (true, false) => {
                    format!("在帕累托前沿上：比净现值最低者贵 {}，但{}。", money(*npv_above_best), gains.join("、"))
                }
                (false, false) => format!(
                    "On the frontier: {} more NPV than the cheapest, for {}.",
                    money(*npv_above_best),
                    gains.join(" and ")
                ),
            }
        }
        Standing::Dominated { by } => {
            if zh {
                format!("被 {by} 支配：后者成本不更高、不更慢、风险不更大。")
            } else {
                format!("Dominated by {by}: no dearer, no slower and no riskier.")
            }
        }
    }
}

/// The standing of every point of a ranked list (`order` from [`rank`]),
/// against the cheapest by NPV.
pub fn standings(points: &[Point], order: &[usize], by: RankBy, names: &[String]) -> Vec<Standing> {
    let dominated = frontier(points);
    let cheapest = rank(points, RankBy::Npv).first().copied();
    (0..points.len())
        .map(|i| match (order.first() == Some(&i), dominated[i], cheapest) {
            (true, _, _) => Standing::Best { by },
            (false, Some(j), _) => Standing::Dominated { by: names[j].clone() },
            (false, None, Some(c)) => Standing::Frontier {
                npv_above_best: points[i].npv - points[c].npv,
                months_sooner: points[c].time_months - points[i].time_months,
                risk_lower: points[c].risk - points[i].risk,
            },
            (false, None, None) => Standing::Best { by },
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(npv: f64, time: f64, risk: f64) -> Point {
        Point { npv, total: npv, time_months: time, risk }
    }

    #[test]
    fn ties_fall_to_the_next_figure_then_to_position() {
        let points = [p(10.0, 2.0, 5.0), p(10.0, 1.0, 5.0), p(10.0, 1.0, 5.0), p(9.0, 9.0, 9.0)];
        assert_eq!(rank(&points, RankBy::Npv), vec![3, 1, 2, 0]);
        assert_eq!(rank(&points, RankBy::Time), vec![1, 2, 0, 3]);
        // Twice the same answer.
        assert_eq!(rank(&points, RankBy::Risk), rank(&points, RankBy::Risk));
    }

    #[test]
    fn the_frontier_keeps_only_undominated_points() {
        let points = [p(10.0, 5.0, 20.0), p(12.0, 3.0, 20.0), p(12.0, 5.0, 20.0), p(10.0, 5.0, 20.0)];
        let f = frontier(&points);
        assert_eq!(f, vec![None, None, Some(0), None], "equal points do not dominate each other");
    }

    #[test]
    fn every_standing_reads_in_both_languages() {
        let points = [p(100.0, 5.0, 20.0), p(150.0, 2.0, 20.0), p(150.0, 6.0, 30.0)];
        let ids: Vec<String> = ["a", "b", "c"].map(String::from).to_vec();
        let order = rank(&points, RankBy::Npv);
        let s = standings(&points, &order, RankBy::Npv, &ids);
        assert_eq!(s[0], Standing::Best { by: RankBy::Npv });
        assert!(matches!(s[1], Standing::Frontier { months_sooner, .. } if months_sooner == 3.0));
        assert_eq!(s[2], Standing::Dominated { by: "a".into() });
        for lang in [Lang::En, Lang::Zh] {
            for (i, st) in s.iter().enumerate() {
                let line = why(&points[i], st, Currency::CNY, lang);
                assert!(!line.is_empty());
                assert_eq!(lang == Lang::Zh, line.chars().any(|c| c > '\u{2e80}'), "{line}");
            }
        }
    }
}

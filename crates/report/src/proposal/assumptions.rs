//! "What the comparison assumes": the scenario's assumptions in plain words
//! (the appendix's table of every input is `crate::assumptions`).

use suanli_model::{Evaluation, Lang, Scenario, format_percent};

use crate::labels::for_lang;
use crate::pdf::{Canvas, INK};

use super::quantity;

/// Decimals a percentage needs: none for a whole one (8 %), else one (7.5 %).
fn percent_decimals(share: f64) -> usize {
    let pct = share * 100.0;
    if (pct - pct.round()).abs() < 1e-9 { 0 } else { 1 }
}

/// What the workload is, in one sentence.
fn workload(s: &Scenario, lang: Lang) -> String {
    use suanli_model::Demand;
    let zh = lang == Lang::Zh;
    match &s.demand {
        Demand::Job(j) => {
            let model = match (j.parameters, j.tokens) {
                (Some(p), Some(t)) if zh => {
                    format!("（训练 {} 亿参数的模型，{} 亿 token）", quantity(p / 1e8), quantity(t / 1e8))
                }
                (Some(p), Some(t)) => {
                    format!(" (training a {} B-parameter model on {} B tokens)", quantity(p / 1e9), quantity(t / 1e9))
                }
                _ => String::new(),
            };
            let deadline = match j.deadline_months {
                Some(d) if zh => format!("，须在 {} 个月内完成", quantity(d)),
                Some(d) => format!(", due within {} months", quantity(d)),
                None => String::new(),
            };
            if zh {
                format!("一项固定工作量的任务{model}{deadline}。")
            } else {
                format!("One job of fixed size{model}{deadline}.")
            }
        }
        Demand::Profile(p) => {
            let series = if p.monthly_ref_gpus.is_empty() { &p.hourly_ref_gpus } else { &p.monthly_ref_gpus };
            let (lo, hi) = series.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), x| (l.min(*x), h.max(*x)));
            match (lo.is_finite(), zh) {
                (true, true) if lo == hi => format!("持续运行的业务，每月需要 {} 张参考卡。", quantity(lo)),
                (true, true) => format!("持续运行的业务，每月需要 {}–{} 张参考卡。", quantity(lo), quantity(hi)),
                (true, false) if lo == hi => {
                    format!("Steady operations needing {} reference GPUs a month.", quantity(lo))
                }
                (true, false) => {
                    format!("Steady operations needing {}–{} reference GPUs a month.", quantity(lo), quantity(hi))
                }
                (false, true) => "持续运行的业务。".into(),
                (false, false) => "Steady operations.".into(),
            }
        }
        Demand::Portfolio(p) if zh => format!("{} 项按优先级排程的任务。", p.jobs.len()),
        Demand::Portfolio(p) => format!("{} jobs scheduled by priority.", p.jobs.len()),
        Demand::Inference(i) => {
            let rate = i
                .tokens_per_second
                .map(|t| (t, lang.pick("per second", "每秒")))
                .or(i.tokens_per_day.map(|t| (t, lang.pick("per day", "每天"))));
            match (rate, zh) {
                (Some((t, per)), true) => format!(
                    "全天候为一个 {} 亿参数的模型提供推理服务，{per} {} 个 token。",
                    quantity(i.parameters / 1e8),
                    quantity(t)
                ),
                (Some((t, per)), false) => format!(
                    "Serving a {} B-parameter model around the clock, {} tokens {per}.",
                    quantity(i.parameters / 1e9),
                    quantity(t)
                ),
                (None, true) => format!("全天候为一个 {} 亿参数的模型提供推理服务。", quantity(i.parameters / 1e8)),
                (None, false) => {
                    format!("Serving a {} B-parameter model around the clock.", quantity(i.parameters / 1e9))
                }
            }
        }
    }
}

/// The scenario's assumptions in plain words: the workload, the horizon,
/// the discount rate, the exchange rates and the owned fleets' utilisation.
pub(super) fn assumptions_in_words(cv: &mut Canvas, s: &Scenario, e: &Evaluation, lang: Lang) {
    let zh = lang == Lang::Zh;
    let mut points = Vec::new();
    let work = quantity(e.demand_ref_gpu_hours);
    points.push(if zh {
        format!("工作负载：{}合计 {work} 参考卡时（以参考 GPU 的小时数计的有效工作量）。", workload(s, lang))
    } else {
        format!(
            "The workload: {} In all {work} reference-GPU-hours (useful work, in hours of the reference GPU).",
            workload(s, lang)
        )
    });
    let years = f64::from(e.horizon_months) / 12.0;
    points.push(if zh {
        format!(
            "评估期：{} 个月（{} 年）；每月现金流计于月初，每月按 {} 小时计。",
            e.horizon_months,
            quantity(years),
            quantity(suanli_model::HOURS_PER_MONTH)
        )
    } else {
        format!(
            "The horizon: {} months ({} year{}); each month's cash flows fall at its start, and a month is {} hours.",
            e.horizon_months,
            quantity(years),
            if years == 1.0 { "" } else { "s" },
            quantity(suanli_model::HOURS_PER_MONTH)
        )
    });
    points.push(match (s.discount_rate_annual > 0.0, zh) {
        (true, true) => format!("折现率：每年 {}（资金成本），用于把未来的支出折算为今天的价值（净现值）。", format_percent(s.discount_rate_annual, percent_decimals(s.discount_rate_annual))),
        (true, false) => format!("The discount rate: {} a year (the cost of capital), which brings future spending to today's money (net present cost).", format_percent(s.discount_rate_annual, percent_decimals(s.discount_rate_annual))),
        (false, true) => "折现率：零，未来支出按名义值计。".into(),
        (false, false) => "The discount rate: zero; future spending counts at its face value.".into(),
    });
    let c = s.currency;
    let rates: Vec<String> =
        s.fx.iter().map(|(from, rate)| format!("1 {from} = {} {c}", suanli_model::format_number(*rate, 4))).collect();
    let fx_source = crate::assumptions::fx_source(s, lang);
    points.push(match (rates.is_empty(), zh) {
        (true, true) => format!("币种：全部金额以 {c} 计，无需汇率。"),
        (true, false) => format!("The currency: every amount is in {c}; no exchange rate is needed."),
        (false, true) => format!("币种：金额以 {c} 计；汇率 {}（{fx_source}）。", rates.join("，")),
        (false, false) => format!("The currency: amounts are in {c}, at {} ({fx_source}).", rates.join(", ")),
    });
    for o in &e.options {
        if let Some(u) = o.owned_utilisation {
            let name = for_lang(&o.label, lang);
            points.push(if zh {
                format!("{name}的利用率：其服务器平均有 {} 的时间在工作（由工作负载推算）。", format_percent(u, 0))
            } else {
                format!(
                    "Utilisation: the servers of {name} are busy {} of the time on average (from the workload).",
                    format_percent(u, 0)
                )
            });
        }
    }
    points.push(lang.pick(
        "Prices and costs are those of each option's sources, listed in the appendix with their dates; an input without a source is marked as an assumption.",
        "价格与成本取自各方案的来源，附录逐项列出来源与日期；没有来源的输入标明为假设。",
    ).to_owned());
    for p in points {
        cv.paragraph(&format!("· {p}"), 10.0, false, INK);
    }
}

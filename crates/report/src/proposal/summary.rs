//! The executive summary: the recommendation and why, the three numbers
//! that matter, the points behind them, and where the measures disagree.

use suanli_model::decision::{Decision, Reason};
use suanli_model::uncertainty::Simulation;
use suanli_model::{Evaluation, Lang, OptionResult, format_amount, format_percent, format_unit_price};

use crate::labels::for_lang;
use crate::pdf::{ACCENT, CONTENT_W, Canvas, INK, MARGIN_X, MUTED, Rgb8};

use super::{Summary, label_of};

/// The recommendation and why, the three numbers that matter, the points
/// behind them, where the measures disagree, and the scenario's description.
pub(super) fn executive_summary(cv: &mut Canvas, x: &Summary<'_>) {
    let Summary { input, e, s, c, lang, ranked, decision, best } = *x;
    let money = |x: f64| format_amount(x, c, lang);
    let label = |o: &OptionResult| for_lang(&o.label, lang);
    let runner_up = ranked.iter().copied().find(|o| o.id != best.id && !o.ranked_apart());
    // The saving is measured against the dearest option that meets the
    // requirement (all the work, by the deadline), never one that does not.
    let worst = crate::board::dearest_qualifying(ranked).unwrap_or(best);
    let saving = if worst.total_npv > 0.0 { 1.0 - best.total_npv / worst.total_npv } else { 0.0 };
    let why = why_recommended(&decision.reason, e, lang);
    cv.paragraph(
        &if lang == Lang::Zh {
            format!("建议：{}。{why}", label(best))
        } else {
            format!("Recommendation: {}. {why}", label(best))
        },
        11.0,
        true,
        INK,
    );
    cv.space(10.0);
    // The three numbers that matter.
    let per_hour = best.effective_price_per_ref_gpu_hour.map_or("—".to_owned(), |p| format_unit_price(p, c, lang));
    let all_in = best.all_in_per_ref_gpu_hour.map(|p| {
        if lang == Lang::Zh {
            format!("全口径：{}", format_unit_price(p, c, lang))
        } else {
            format!("all-in: {}", format_unit_price(p, c, lang))
        }
    });
    let boxes = [
        (lang.pick("Total cost (NPV)", "总成本（净现值）").to_owned(), money(best.total_npv)),
        match input.simulation.and_then(|sim| sim.options.iter().find(|r| r.id == best.id)) {
            Some(r) => (lang.pick("Median (P50) across trials", "模拟中位数（P50）").to_owned(), money(r.npv.p50)),
            // With one option there is no dearer one to save against.
            None if e.options.len() == 1 || worst.id == best.id => {
                (lang.pick("Saving vs the dearest option", "较最贵方案节省").to_owned(), "—".into())
            }
            None => (lang.pick("Saving vs the dearest option", "较最贵方案节省").to_owned(), format_percent(saving, 0)),
        },
        (lang.pick("Per reference-GPU-hour", "每参考卡时成本").to_owned(), per_hour),
    ];
    cv.ensure(80.0);
    let bw = (CONTENT_W - 20.0) / 3.0;
    for (i, (label, value)) in boxes.iter().enumerate() {
        let x = MARGIN_X + i as f32 * (bw + 10.0);
        cv.rect(x, cv.y, bw, 64.0, Rgb8(232, 240, 248));
        cv.text_at(x + 8.0, cv.y + 18.0, 8.5, false, MUTED, label);
        cv.text_at(x + 8.0, cv.y + 44.0, 15.0, true, ACCENT, value);
        if i == 2
            && let Some(all_in) = &all_in
        {
            cv.text_at(x + 8.0, cv.y + 57.0, 6.5, false, MUTED, all_in);
        }
    }
    cv.y += 76.0;
    let mut points = summary_points(x, runner_up);
    points.extend(crate::board::summary_points(s, e, best, lang));
    points.extend(crate::board::default_points(s, e, lang));
    points.extend(crate::reasons::points(s, e, best, runner_up, input.sensitivity, &input.board.break_even, lang));
    points.extend(crate::board::price_points(s, e, input.board, lang));
    for p in points {
        cv.paragraph(&format!("· {p}"), 10.0, false, INK);
    }
    let disagreements = disagreements(decision, e, input.simulation, best, lang);
    if !disagreements.is_empty() {
        cv.space(8.0);
        cv.paragraph(lang.pick("Where the measures disagree", "各项指标的分歧"), 10.5, true, ACCENT);
        for p in disagreements {
            cv.paragraph(&format!("· {p}"), 10.0, false, INK);
        }
        cv.paragraph(
            lang.pick(
                "The rule: among options that can do all the work (no shortfall, and accelerators that hold the model), the lowest net present cost (the median across trials when there are ranges) is recommended, unless a rival within 5 % of it carries at least 15 points less supply risk (with a P90 no more than 5 % higher) or, at no more risk, gives its result at least a month sooner. Porting cost is part of the cost; porting delay part of the time to result.",
                "规则：在能完成全部工作（无缺口，且加速卡装得下模型）的方案中，推荐净现值最低者（有区间时取模拟的中位数）；但若另一方案成本相差不到 5%，且供应风险评分至少低 15 分（P90 高出不超过 5%），或在风险不更高的前提下至少早一个月出结果，则推荐该方案。迁移成本计入成本，迁移延迟计入出结果的时间。",
            ),
            8.5,
            false,
            MUTED,
        );
    }
    // The scenario's own description is printed when it is in the report's
    // language (or split from a bilingual one): a report is in one language.
    let description = match lang {
        Lang::Zh if !s.description_zh.trim().is_empty() => s.description_zh.trim().to_owned(),
        _ => for_lang(s.description.trim(), lang),
    };
    if !description.is_empty() && crate::labels::is_in(&description, lang) {
        let description = crate::references::cite(&crate::labels::without_file_names(&description, lang));
        cv.space(8.0);
        cv.paragraph(&description, 9.0, false, MUTED);
    }
}

/// Why the recommendation was chosen, in one sentence.
fn why_recommended(reason: &Reason, e: &Evaluation, lang: Lang) -> String {
    let label_of = |id: &str| label_of(e, id, lang);
    match (reason, lang) {
        // One option is not "the lowest of the 1 options compared": it is the only one.
        (Reason::LowestCost { .. }, Lang::Zh) if e.options.len() == 1 => {
            format!("在 {} 个月的评估期内，这是唯一参与比较的方案。", e.horizon_months)
        }
        (Reason::LowestCost { .. }, Lang::En) if e.options.len() == 1 => format!(
            "Over the {}-month horizon it is the only option compared: there is no other to rank it against.",
            e.horizon_months
        ),
        (Reason::LowestCost { by_median: false }, Lang::Zh) => {
            format!("在 {} 个月的评估期内，其净现值在全部 {} 个方案中最低。", e.horizon_months, e.options.len())
        }
        (Reason::LowestCost { by_median: false }, Lang::En) => format!(
            "Over the {}-month horizon it has the lowest net present cost of the {} options compared.",
            e.horizon_months,
            e.options.len()
        ),
        (Reason::LowestCost { by_median: true }, Lang::Zh) => {
            format!(
                "在 {} 个月的评估期内，按模拟的中位数（P50）计，其净现值在全部 {} 个方案中最低。",
                e.horizon_months,
                e.options.len()
            )
        }
        (Reason::LowestCost { by_median: true }, Lang::En) => format!(
            "Over the {}-month horizon it has the lowest median (P50) net present cost across the simulated trials of the {} options compared.",
            e.horizon_months,
            e.options.len()
        ),
        (Reason::LessSupplyRisk { cheapest }, Lang::Zh) => format!(
            "其成本与最低的{}相差不到 {}，而供应风险明显更低。",
            label_of(cheapest),
            format_percent(suanli_model::decision::NEAR_TIE_SHARE, 0)
        ),
        (Reason::LessSupplyRisk { cheapest }, Lang::En) => format!(
            "It costs within {} of the cheapest, {}, and carries clearly less supply risk.",
            format_percent(suanli_model::decision::NEAR_TIE_SHARE, 0),
            label_of(cheapest)
        ),
        (Reason::SoonerResult { cheapest }, Lang::Zh) => format!(
            "其成本与最低的{}相差不到 {}，而出结果更早。",
            label_of(cheapest),
            format_percent(suanli_model::decision::NEAR_TIE_SHARE, 0)
        ),
        (Reason::SoonerResult { cheapest }, Lang::En) => format!(
            "It costs within {} of the cheapest, {}, and delivers the result sooner.",
            format_percent(suanli_model::decision::NEAR_TIE_SHARE, 0),
            label_of(cheapest)
        ),
    }
}

/// The points under the recommendation: the runner-up, break-even, time to
/// result and the simulated range.
fn summary_points(x: &Summary<'_>, runner_up: Option<&OptionResult>) -> Vec<String> {
    let Summary { input, e, c, lang, best, .. } = *x;
    let money = |x: f64| format_amount(x, c, lang);
    let label = |o: &OptionResult| for_lang(&o.label, lang);
    let label_of = |id: &str| label_of(e, id, lang);
    let mut points = Vec::new();
    if let Some(r) = runner_up.filter(|r| r.total_npv >= best.total_npv) {
        points.push(if lang == Lang::Zh {
            format!(
                "次优方案为 {}，净现值 {}，高出 {}。",
                label(r),
                money(r.total_npv),
                money(r.total_npv - best.total_npv)
            )
        } else {
            format!(
                "The next best is {}, at {} net present cost ({} more).",
                label(r),
                money(r.total_npv),
                money(r.total_npv - best.total_npv)
            )
        });
    }
    if let Some(b) = &best.break_even
        && let Some(m) = b.month
    {
        points.push(if lang == Lang::Zh {
            format!("自第 {m} 个月起，其累计成本持续低于{}。", label_of(&b.against))
        } else {
            format!("From month {m} on its cumulative cost stays below that of {}.", label_of(&b.against))
        });
    }
    if let Some(t_done) = best.time_to_complete_months {
        points.push(if lang == Lang::Zh {
            format!("任务在 {t_done:.1} 个月内完成（含交付周期）。")
        } else {
            format!("The job finishes in {t_done:.1} months, lead time included.")
        });
    }
    for p in input.price_dates.iter().filter(|p| p.stale && p.option_id == best.id) {
        let field = crate::labels::input(&p.field, input.scenario, lang);
        let (months, limit) = (p.age_months.unwrap_or(0), input.stale_after_months);
        points.push(if lang == Lang::Zh {
            format!("其依据的价格（{field}）日期为 {}，距本建议书 {months} 个月，已超过 {limit} 个月的时效：签约前请向供应商确认。", p.date)
        } else {
            format!(
                "The price it rests on ({}) dates from {}, {months} months before this proposal and past the {limit}-month threshold: confirm it with the provider before committing.",
                field.to_lowercase(),
                p.date
            )
        });
    }
    if let Some(sim) = input.simulation
        && let Some(r) = sim.options.iter().find(|o| o.id == best.id)
    {
        points.push(if lang == Lang::Zh {
            format!(
                "在 {} 次模拟中，其净现值 P10–P90 为 {}–{}，成为最低成本方案的概率为 {}。",
                sim.trials,
                money(r.npv.p10),
                money(r.npv.p90),
                format_percent(r.probability_cheapest, 0)
            )
        } else {
            format!(
                "Across {} simulated trials its net present cost ranges {} to {} (P10–P90); it is the cheapest in {} of them.",
                sim.trials,
                money(r.npv.p10),
                money(r.npv.p90),
                format_percent(r.probability_cheapest, 0)
            )
        });
    }
    points
}

/// One sentence for each measure whose leader is not the recommendation.
fn disagreements(
    d: &Decision,
    e: &Evaluation,
    sim: Option<&Simulation>,
    best: &OptionResult,
    lang: Lang,
) -> Vec<String> {
    let c = e.currency;
    let money = |x: f64| format_amount(x, c, lang);
    let name = |id: &str| label_of(e, id, lang);
    let range = |id: &str| sim.and_then(|s| s.options.iter().find(|r| r.id == id));
    let rec = name(&best.id);
    let mut out = Vec::new();
    if d.point != best.id
        && let Some(o) = e.option(&d.point)
    {
        let gap = best.total_npv - o.total_npv;
        let share = if best.total_npv.abs() > 0.0 { gap / best.total_npv } else { 0.0 };
        out.push(match lang {
            Lang::Zh => format!(
                "按所列价格，{}的净现值更低（{}，低 {}，即 {}）。",
                name(&o.id),
                money(o.total_npv),
                money(gap),
                format_percent(share, 0)
            ),
            Lang::En => format!(
                "At the stated prices {} is cheaper: {} net present cost, {} ({}) less.",
                name(&o.id),
                money(o.total_npv),
                money(gap),
                format_percent(share, 0)
            ),
        });
    }
    for (leader, p90) in [(&d.p50, false), (&d.p90, true)] {
        if let Some(id) = leader
            && *id != best.id
            && let (Some(r), Some(b)) = (range(id), range(&best.id))
        {
            let (v, w) = if p90 { (r.npv.p90, b.npv.p90) } else { (r.npv.p50, b.npv.p50) };
            let what = if p90 { "P90" } else { "P50" };
            out.push(match lang {
                Lang::Zh => format!("{}的净现值 {what} 更低：{}，而{}为 {}。", name(id), money(v), rec, money(w)),
                Lang::En => format!(
                    "{} has the lower {what} net present cost: {} against {} for {}.",
                    name(id),
                    money(v),
                    money(w),
                    rec
                ),
            });
        }
    }
    if let Some(id) = &d.most_often_cheapest
        && *id != best.id
        && let (Some(r), Some(b)) = (range(id), range(&best.id))
    {
        out.push(match lang {
            Lang::Zh => format!(
                "{}在 {} 的模拟中成本最低，{}为 {}。",
                name(id),
                format_percent(r.probability_cheapest, 0),
                rec,
                format_percent(b.probability_cheapest, 0)
            ),
            Lang::En => format!(
                "{} is the cheapest in {} of the trials, {} in {}.",
                name(id),
                format_percent(r.probability_cheapest, 0),
                rec,
                format_percent(b.probability_cheapest, 0)
            ),
        });
    }
    if let Some(id) = &d.supply
        && *id != best.id
        && let (Some(o), Some(b)) = (e.option(id).and_then(|o| o.supply.as_ref()), best.supply.as_ref())
    {
        out.push(match lang {
            Lang::Zh => format!("{}的供应风险更低：{:.0} / 100，{}为 {:.0} / 100。", name(id), o.score, rec, b.score),
            Lang::En => {
                format!("{} carries less supply risk: {:.0} / 100 against {:.0} / 100.", name(id), o.score, b.score)
            }
        });
    }
    if let Some(id) = &d.soonest
        && *id != best.id
        && let (Some(a), Some(b)) = (e.option(id).and_then(|o| o.time_to_complete_months), best.time_to_complete_months)
    {
        out.push(match lang {
            Lang::Zh => format!("{}出结果更早：{a:.1} 个月，{}为 {b:.1} 个月。", name(id), rec),
            Lang::En => format!("{} delivers the result sooner: in {a:.1} months against {b:.1}.", name(id)),
        });
    }
    out
}

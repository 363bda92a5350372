//! Parts of a board's business case: the assumptions in plain words,
//! energy and emissions, and, to close, the risks of the
//! recommended option (from its own figures: supply score, export facts,
//! porting, lead time, the simulated range), the next steps, an approval
//! block and the notices. A likelihood is given only where a figure states
//! it; otherwise the register says it is not quantified.

use suanli_model::{Evaluation, Lang, OptionResult, Scenario, format_amount, format_percent};

use crate::labels::for_lang;
use crate::pdf::{CONTENT_W, Canvas, INK, MARGIN_X, MUTED, RULE};
use crate::proposal::{ProposalInput, ProposalMeta};

/// The risk register: every option's risks, the recommended option's
/// first, each with its likelihood or figure and its source (never empty:
/// every option depends on one provider at least).
pub(crate) fn risk_register(cv: &mut Canvas, input: &ProposalInput<'_>, ranked: &[&OptionResult], best: &OptionResult) {
    let lang = input.lang;
    let rows: Vec<Vec<String>> = crate::register::register(input, ranked, best)
        .into_iter()
        .map(|r| vec![r.option, r.risk, r.likelihood, r.response, r.source])
        .collect();
    cv.paragraph(
        &if lang == Lang::Zh {
            format!(
                "各方案的风险，建议方案（{}）列在最前；每项均来自目录、计算结果或场景中的数字，并注明来源。",
                for_lang(&best.label, lang)
            )
        } else {
            format!(
                "The risks of every option, the recommended one ({}) first; each from the catalogue, the results or the scenario, with its source.",
                for_lang(&best.label, lang)
            )
        },
        9.0,
        false,
        MUTED,
    );
    cv.space(6.0);
    let header = [
        lang.pick("Option", "方案"),
        lang.pick("Risk", "风险"),
        lang.pick("Likelihood or figure", "可能性或数值"),
        lang.pick("Impact and response", "影响与应对"),
        lang.pick("Source", "来源"),
    ]
    .map(str::to_owned);
    cv.table(
        &[CONTENT_W * 0.16, CONTENT_W * 0.17, CONTENT_W * 0.16, CONTENT_W * 0.27, CONTENT_W * 0.24],
        &header,
        &rows,
        5,
    );
    if crate::register::buyer_in_china(input.scenario) {
        cv.note(lang.pick(
            "Export status is the catalogue's for a buyer in China, taken as the buyer's jurisdiction because the scenario's amounts are in CNY.",
            "出口管制状态取目录中针对中国买方的记录；因场景金额以人民币计，视买方位于中国。",
        ));
    }
}

/// What to do next, from the recommendation's own figures.
pub(crate) fn next_steps(
    cv: &mut Canvas,
    s: &Scenario,
    best: &OptionResult,
    sim: Option<&suanli_model::uncertainty::Simulation>,
    far: &[suanli_model::price_check::PriceFlag],
    lang: Lang,
) {
    let label = for_lang(&best.label, lang);
    let money = |x: f64| format_amount(x, s.currency, lang);
    let zh = lang == Lang::Zh;
    let mut steps = vec![if zh {
        format!("核实报价：向服务商确认{label}所用价格（附录列出每项价格的来源与日期）。")
    } else {
        format!(
            "Confirm the prices behind {label} with the provider (the appendix gives each price's source and date)."
        )
    }];
    // A price far from the market: the budget rests on it, so it is confirmed first.
    for f in far.iter().filter(|f| f.option_id == best.id) {
        steps.push(if zh {
            format!("批准前取得书面报价：{}。按市场价格，预算会显著不同。", f.describe(lang))
        } else {
            format!(
                "Get a written quote before approving: {}. At market prices the budget below would be very different.",
                f.describe(lang)
            )
        });
    }
    if best.porting.as_ref().is_some_and(|p| p.cost > 0.0) {
        steps.push(if zh {
            "迁移试点：先在目标加速卡上运行一个代表性模型，核实迁移工作量与效率比。".to_owned()
        } else {
            "Pilot the port: run one representative model on the target accelerator to check the porting effort and the efficiency ratio.".to_owned()
        });
    }
    let ask = crate::budget::ask(s, best, sim);
    let total = ask.nominal + ask.contingency.unwrap_or(0.0);
    let with_vat = ask.vat.filter(|_| ask.nominal.abs() > 0.0).map(|v| total * v.gross() / ask.nominal);
    steps.push(match (ask.contingency, with_vat, zh) {
        (Some(extra), _, true) => format!(
            "批准预算：评估期 {} 个月名义现金 {}（含至 P80 的不可预见费 {}）{}；净现值 {}。",
            s.horizon_months,
            money(total),
            money(extra),
            with_vat.map_or_else(String::new, |g| format!("，含税 {}", money(g))),
            money(best.total_npv)
        ),
        (Some(extra), _, false) => format!(
            "Approve the budget: {} of nominal cash over {} months, a contingency of {} to the P80 included{}; {} net present cost.",
            money(total),
            s.horizon_months,
            money(extra),
            with_vat.map_or_else(String::new, |g| format!(" ({} with VAT)", money(g))),
            money(best.total_npv)
        ),
        (None, _, true) => format!(
            "批准预算：评估期 {} 个月名义现金 {}{}；净现值 {}（无输入区间，未计不可预见费）。",
            s.horizon_months,
            money(total),
            with_vat.map_or_else(String::new, |g| format!("，含税 {}", money(g))),
            money(best.total_npv)
        ),
        (None, _, false) => format!(
            "Approve the budget: {} of nominal cash over {} months{}; {} net present cost (no ranges, so no contingency).",
            money(total),
            s.horizon_months,
            with_vat.map_or_else(String::new, |g| format!(" ({} with VAT)", money(g))),
            money(best.total_npv)
        ),
    });
    steps.push(if zh {
        "复核：价格或需求变化时，用同一场景重新计算本建议书。".to_owned()
    } else {
        "Review: when prices or demand change, recompute this proposal from the same scenario.".to_owned()
    });
    for (i, step) in steps.iter().enumerate() {
        cv.paragraph(&format!("{}. {step}", i + 1), 10.0, false, INK);
    }
}

/// Signature lines for who prepared, reviewed and approved the decision.
pub(crate) fn approval(cv: &mut Canvas, meta: &ProposalMeta, lang: Lang) {
    let roles = [
        (lang.pick("Prepared by", "编制"), meta.author.as_str()),
        (lang.pick("Reviewed by", "审核"), ""),
        (lang.pick("Approved by", "批准"), ""),
    ];
    // The heading stays on the page of its signature lines.
    cv.ensure(16.0 + 20.0 + 6.0 + roles.len() as f32 * 34.0 + 10.0);
    cv.space(16.0);
    cv.paragraph(lang.pick("Approval", "审批"), 10.5, true, INK);
    cv.space(6.0);
    for (role, name) in roles {
        let y = cv.y + 24.0;
        cv.text_at(MARGIN_X, y, 10.0, false, INK, role);
        // One line: a long name is cut with an ellipsis (the cover gives it whole).
        let name = crate::proposal::one_line(cv, name, 9.0, 200.0);
        cv.text_at(MARGIN_X + 90.0, y - 2.0, 9.0, false, MUTED, &name);
        cv.line(&[(MARGIN_X + 90.0, y + 3.0), (MARGIN_X + 300.0, y + 3.0)], RULE, 0.6);
        cv.text_at(MARGIN_X + 320.0, y, 10.0, false, INK, lang.pick("Date", "日期"));
        cv.line(&[(MARGIN_X + 360.0, y + 3.0), (MARGIN_X + CONTENT_W, y + 3.0)], RULE, 0.6);
        cv.y += 34.0;
    }
}

/// The notices: what the figures are and are not.
pub(crate) fn notices(cv: &mut Canvas, meta: &ProposalMeta, lang: Lang) {
    let for_whom = if meta.client.trim().is_empty() {
        lang.pick("the recipient", "收件方").to_owned()
    } else {
        meta.client.trim().to_owned()
    };
    let items = if lang == Lang::Zh {
        vec![
            format!("保密：本建议书仅供{for_whom}内部决策使用，未经许可不得外传。"),
            "数字的性质：所有金额均由所列输入按文中规则计算得出，不是报价或承诺。价格以附录所列来源及日期为准，之后可能变化。".to_owned(),
            "估算的标明：效率比、迁移工作量与供应风险权重若为估算或假设，附录均注明其方法或标为“假设”；实测数据与估算从不混同。".to_owned(),
            "不构成财务、法律或出口合规意见；出口管制状态请以主管部门的最新规定为准。".to_owned(),
            "由 Suanli 离线生成：输入与计算未离开编制者的计算机。".to_owned(),
        ]
    } else {
        vec![
            format!("Confidential: prepared for the internal decision of {for_whom}; not to be passed on without permission."),
            "What the figures are: every amount is computed from the stated inputs by the rules given here; none is a quote or a commitment. Prices are as of the sources and dates in the appendix and may change.".to_owned(),
            "Estimates are marked: where an efficiency ratio, a porting effort or a supply-risk weight is estimated or assumed, the appendix gives its method or marks it as an assumption; measured and estimated figures are never mixed.".to_owned(),
            "Not financial, legal or export-compliance advice; for export-control status, the authorities' current rules prevail.".to_owned(),
            "Made offline by Suanli: the inputs and the computation did not leave the author's computer.".to_owned(),
        ]
    };
    for item in items {
        cv.paragraph(&format!("· {item}"), 9.5, false, INK);
        cv.space(4.0);
    }
}

/// A count or quantity as a reader writes it (grouped, at most one decimal).
fn quantity(x: f64) -> String {
    suanli_model::format_number(x, if x.abs() >= 100.0 { 0 } else { 1 })
}

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
pub(crate) fn assumptions_in_words(cv: &mut Canvas, s: &Scenario, e: &Evaluation, lang: Lang) {
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

/// Energy and emissions of the owned options: kWh from each server's draw,
/// the PUE and the utilisation; CO2 where the scenario gives a grid factor.
/// Options whose servers draw no power are left out.
pub(crate) fn energy(cv: &mut Canvas, s: &Scenario, e: &Evaluation, ranked: &[&OptionResult], lang: Lang) {
    let owned: Vec<(&OptionResult, f64)> =
        ranked.iter().filter_map(|o| o.owned_energy_kwh.filter(|k| *k > 0.0).map(|k| (*o, k))).collect();
    let factor = s.energy.as_ref().map(|en| en.grid_kg_co2_per_kwh);
    let mut header = vec![
        lang.pick("Option", "方案").to_owned(),
        lang.pick("Electricity (MWh)", "用电量（兆瓦时）").to_owned(),
        lang.pick("Per year (MWh)", "每年用电（兆瓦时）").to_owned(),
    ];
    if factor.is_some() {
        header.push(lang.pick("CO2 (t)", "二氧化碳（吨）").to_owned());
    }
    let years = f64::from(e.horizon_months) / 12.0;
    let rows: Vec<Vec<String>> = owned
        .iter()
        .map(|(o, kwh)| {
            let mut row = vec![for_lang(&o.label, lang), quantity(kwh / 1000.0), quantity(kwh / 1000.0 / years)];
            if let Some(f) = factor {
                row.push(quantity(kwh * f / 1000.0));
            }
            row
        })
        .collect();
    let widths: Vec<f32> = if factor.is_some() {
        vec![CONTENT_W * 0.4, CONTENT_W * 0.2, CONTENT_W * 0.2, CONTENT_W * 0.2]
    } else {
        vec![CONTENT_W * 0.5, CONTENT_W * 0.25, CONTENT_W * 0.25]
    };
    cv.table(&widths, &header, &rows, 1);
    cv.space(6.0);
    let method = lang.pick(
        "Over the whole horizon, at the meter: each server's draw × hours × utilisation × PUE; CO2 is that electricity × the grid's emission factor. Rented capacity's energy is in the provider's price and is not metered here.",
        "整个评估期、按电表计：每台服务器功率 × 小时数 × 利用率 × PUE；二氧化碳为用电量 × 电网排放因子。租用算力的能耗已含在供应商价格中，此处不计量。",
    );
    cv.note(method);
    let grid = match (&s.energy, lang) {
        (Some(en), _) => {
            let source = if en.source.trim().is_empty() {
                lang.pick("user assumption", "用户假设").to_owned()
            } else {
                crate::labels::source(&en.source, lang)
            };
            if lang == Lang::Zh {
                format!(
                    "电网排放因子：每千瓦时 {} 千克二氧化碳（{source}）。",
                    suanli_model::format_number(en.grid_kg_co2_per_kwh, 4)
                )
            } else {
                format!(
                    "Grid emission factor: {} kg CO2 per kWh ({source}).",
                    suanli_model::format_number(en.grid_kg_co2_per_kwh, 4)
                )
            }
        }
        (None, Lang::Zh) => "场景未给出电网排放因子，因此未计算排放量。".into(),
        (None, Lang::En) => "The scenario gives no grid emission factor, so emissions are not shown.".into(),
    };
    cv.note(&grid);
}

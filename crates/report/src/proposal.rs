//! The proposal a consultant hands to a client's board: cover, contents,
//! executive summary, comparison, charts, ranges and risks, and an
//! appendix that traces every input to its source or marks it as an
//! assumption. Built from computed results; every outside input (date,
//! names) is passed in, so the same inputs give the same bytes.

use suanli_model::sensitivity::Sensitivity;
use suanli_model::uncertainty::Simulation;
use suanli_model::{
    Category, Evaluation, Lang, OptionResult, Scenario, format_amount, format_axis, format_percent, format_unit_price,
};

use crate::pdf::{ACCENT, CONTENT_W, Canvas, INK, MARGIN_X, MUTED, PAGE_H, PAGE_W, RULE, Rgb8};

/// Who the proposal is for and from; all optional but the date.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ProposalMeta {
    pub client: String,
    pub author: String,
    pub firm: String,
    /// The proposal's date, as it should be printed (e.g. 2026-11-30).
    pub date: String,
    /// A PNG or JPEG logo for the cover.
    pub logo: Option<Vec<u8>>,
}

#[derive(Debug)]
pub struct ProposalInput<'a> {
    pub scenario: &'a Scenario,
    pub evaluation: &'a Evaluation,
    pub simulation: Option<&'a Simulation>,
    pub sensitivity: Option<&'a Sensitivity>,
    pub meta: &'a ProposalMeta,
    pub lang: Lang,
}

/// The series palette: the Okabe–Ito colour-blind-safe colours, in the order
/// of `ui/src/charts/palette.json`, which the app's charts use (a test keeps
/// the two equal).
pub const PALETTE: [Rgb8; 8] = [
    Rgb8(0x00, 0x72, 0xB2),
    Rgb8(0xD5, 0x5E, 0x00),
    Rgb8(0x00, 0x9E, 0x73),
    Rgb8(0xCC, 0x79, 0xA7),
    Rgb8(0xE6, 0x9F, 0x00),
    Rgb8(0x56, 0xB4, 0xE9),
    Rgb8(0x00, 0x00, 0x00),
    Rgb8(0xF0, 0xE4, 0x42),
];

/// Renders the proposal PDF.
pub fn proposal_pdf(input: &ProposalInput<'_>) -> Result<Vec<u8>, String> {
    let lang = input.lang;
    let e = input.evaluation;
    let s = input.scenario;
    let c = e.currency;
    let mut cv = Canvas::new()?;
    if let Some(bytes) = &input.meta.logo {
        cv.set_logo(bytes)?;
    }
    let money = |x: f64| format_amount(x, c, lang);
    // An option that leaves work undone is never the recommendation.
    let ranked = e.ranked_by_npv();
    let best = ranked.first().copied().ok_or("the scenario has no options")?;

    // ---- cover
    cv.new_page();
    cv.rect(0.0, 0.0, PAGE_W, 250.0, ACCENT);
    if input.meta.logo.is_some() {
        cv.rect(PAGE_W - MARGIN_X - 136.0, 36.0, 136.0, 72.0, Rgb8(255, 255, 255));
        cv.logo(PAGE_W - MARGIN_X - 8.0, 44.0, 120.0, 56.0);
    }
    cv.text_at(
        MARGIN_X,
        120.0,
        26.0,
        true,
        Rgb8(255, 255, 255),
        lang.pick("GPU compute proposal", "算力获取方案建议书"),
    );
    let mut y = 160.0;
    for line in cv.wrap(&s.name, 14.0, false, CONTENT_W) {
        cv.text_at(MARGIN_X, y, 14.0, false, Rgb8(255, 255, 255), &line);
        y += 20.0;
    }
    let mut y = 320.0;
    for (label, value) in [
        (lang.pick("Prepared for", "客户").to_owned(), input.meta.client.clone()),
        (lang.pick("Prepared by", "撰写人").to_owned(), input.meta.author.clone()),
        (lang.pick("Firm", "机构").to_owned(), input.meta.firm.clone()),
        (lang.pick("Date", "日期").to_owned(), input.meta.date.clone()),
    ] {
        if value.trim().is_empty() {
            continue;
        }
        cv.text_at(MARGIN_X, y, 10.0, false, MUTED, &label);
        for line in cv.wrap(&value, 13.0, false, CONTENT_W - 110.0) {
            cv.text_at(MARGIN_X + 110.0, y, 13.0, false, INK, &line);
            y += 19.0;
        }
        y += 8.0;
    }
    cv.text_at(
        MARGIN_X,
        PAGE_H - 60.0,
        8.5,
        false,
        MUTED,
        lang.pick("Every figure is computed from the stated inputs; the appendix gives each input's source or marks it as an assumption.", "所有数字均由所列输入计算得出；附录列出每项输入的来源，或标明其为假设。"),
    );

    // ---- contents (filled in once the sections are placed)
    cv.new_page();
    let contents_page = cv.pages.len() - 1;
    let mut sections: Vec<(String, usize)> = Vec::new();
    let mut section = |cv: &mut Canvas, title: String| {
        cv.new_page();
        cv.y = 60.0;
        cv.heading(&title);
        sections.push((title, cv.pages.len()));
    };

    // ---- executive summary
    section(&mut cv, lang.pick("1. Executive summary", "1. 摘要").to_owned());
    let runner_up = ranked.get(1).copied();
    let worst = ranked.last().copied().unwrap_or(best);
    let saving = if worst.total_npv > 0.0 { 1.0 - best.total_npv / worst.total_npv } else { 0.0 };
    cv.paragraph(
        &if lang == Lang::Zh {
            format!("建议：{}。在 {} 个月的评估期内，其净现值在全部 {} 个方案中最低。", best.label, e.horizon_months, e.options.len())
        } else {
            format!(
                "Recommendation: {}. Over the {}-month horizon it has the lowest net present cost of the {} options compared.",
                best.label,
                e.horizon_months,
                e.options.len()
            )
        },
        11.0,
        true,
        INK,
    );
    cv.space(10.0);
    // The three numbers that matter.
    let per_hour = best.effective_price_per_ref_gpu_hour.map_or("—".to_owned(), |p| format_unit_price(p, c, lang));
    let boxes = [
        (lang.pick("Total cost (NPV)", "总成本（净现值）").to_owned(), money(best.total_npv)),
        (lang.pick("Saving vs the dearest option", "较最贵方案节省").to_owned(), format_percent(saving, 0)),
        (lang.pick("Per reference-GPU-hour", "每参考卡时成本").to_owned(), per_hour),
    ];
    cv.ensure(80.0);
    let bw = (CONTENT_W - 20.0) / 3.0;
    for (i, (label, value)) in boxes.iter().enumerate() {
        let x = MARGIN_X + i as f32 * (bw + 10.0);
        cv.rect(x, cv.y, bw, 64.0, Rgb8(232, 240, 248));
        cv.text_at(x + 8.0, cv.y + 18.0, 8.5, false, MUTED, label);
        cv.text_at(x + 8.0, cv.y + 44.0, 15.0, true, ACCENT, value);
    }
    cv.y += 76.0;
    let mut points = Vec::new();
    if let Some(r) = runner_up {
        points.push(if lang == Lang::Zh {
            format!(
                "次优方案为 {}，净现值 {}，高出 {}。",
                r.label,
                money(r.total_npv),
                money(r.total_npv - best.total_npv)
            )
        } else {
            format!(
                "The next best is {}, at {} net present cost ({} more).",
                r.label,
                money(r.total_npv),
                money(r.total_npv - best.total_npv)
            )
        });
    }
    if let Some(b) = &best.break_even
        && let Some(m) = b.month
    {
        points.push(if lang == Lang::Zh {
            format!("自第 {m} 个月起，其累计成本持续低于 {}。", b.against)
        } else {
            format!("From month {m} on its cumulative cost stays below {}.", b.against)
        });
    }
    if let Some(t_done) = best.time_to_complete_months {
        points.push(if lang == Lang::Zh {
            format!("任务在 {t_done:.1} 个月内完成（含交付周期）。")
        } else {
            format!("The job finishes in {t_done:.1} months, lead time included.")
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
    for p in points {
        cv.paragraph(&format!("· {p}"), 10.0, false, INK);
    }
    if !s.description.trim().is_empty() {
        cv.space(8.0);
        cv.paragraph(&s.description, 9.0, false, MUTED);
    }

    // ---- comparison table
    section(&mut cv, lang.pick("2. Options compared", "2. 方案比较").to_owned());
    let header = vec![
        lang.pick("Option", "方案").to_owned(),
        lang.pick("Total (nominal)", "总成本（名义）").to_owned(),
        lang.pick("Total (NPV)", "总成本（净现值）").to_owned(),
        lang.pick("Per ref-GPU-h", "每参考卡时").to_owned(),
        lang.pick("Break-even", "盈亏平衡").to_owned(),
    ];
    let rows: Vec<Vec<String>> = ranked
        .iter()
        .map(|o| {
            vec![
                o.label.clone(),
                money(o.total_nominal),
                money(o.total_npv),
                o.effective_price_per_ref_gpu_hour.map_or("—".into(), |p| format_unit_price(p, c, lang)),
                o.break_even.as_ref().and_then(|b| b.month).map_or("—".into(), |m| {
                    if lang == Lang::Zh { format!("第 {m} 个月") } else { format!("month {m}") }
                }),
            ]
        })
        .collect();
    cv.table(
        &[CONTENT_W * 0.36, CONTENT_W * 0.17, CONTENT_W * 0.17, CONTENT_W * 0.14, CONTENT_W * 0.16],
        &header,
        &rows,
        1,
    );
    cv.space(10.0);
    cv.paragraph(
        lang.pick("NPV discounts each month's cash flows at the scenario's cost of capital; the price per reference-GPU-hour is compute cost divided by useful work, in hours of the reference GPU.", "净现值按场景的资金成本对每月现金流折现；每参考卡时成本为算力成本除以有效工作量（以参考 GPU 小时计）。"),
        8.5,
        false,
        MUTED,
    );

    // ---- charts
    section(&mut cv, lang.pick("3. Cost over time and where it goes", "3. 成本随时间的变化与构成").to_owned());
    cumulative_chart(&mut cv, e, lang);
    breakdown_chart(&mut cv, e, lang);

    // ---- ranges and sensitivity
    if input.simulation.is_some() || input.sensitivity.is_some() {
        section(&mut cv, lang.pick("4. How sure the numbers are", "4. 数字的确定性").to_owned());
        if let Some(sim) = input.simulation {
            range_chart(&mut cv, e, sim, lang);
        }
        if let Some(sens) = input.sensitivity {
            tornado_chart(&mut cv, sens, best, lang);
        }
    }

    // ---- porting and supply
    if e.options.iter().any(|o| o.porting.is_some() || o.supply.is_some()) {
        section(&mut cv, lang.pick("5. Porting and supply risk", "5. 迁移成本与供应风险").to_owned());
        let header = vec![
            lang.pick("Option", "方案").to_owned(),
            lang.pick("Porting cost", "迁移成本").to_owned(),
            lang.pick("Delay", "延迟").to_owned(),
            lang.pick("Supply risk", "供应风险").to_owned(),
            lang.pick("Main drivers", "主要因素").to_owned(),
        ];
        let rows: Vec<Vec<String>> = e
            .options
            .iter()
            .map(|o| {
                vec![
                    o.label.clone(),
                    o.porting.as_ref().map_or("—".into(), |p| money(p.cost)),
                    o.porting.as_ref().map_or("—".into(), |p| {
                        if lang == Lang::Zh {
                            format!("{:.1} 个月", p.delay_months)
                        } else {
                            format!("{:.1} months", p.delay_months)
                        }
                    }),
                    o.supply.as_ref().map_or("—".into(), |s| format!("{:.0} / 100", s.score)),
                    o.supply.as_ref().map_or(String::new(), |s| {
                        s.drivers.iter().take(3).map(|d| d.label(lang)).collect::<Vec<_>>().join(", ")
                    }),
                ]
            })
            .collect();
        cv.table(
            &[CONTENT_W * 0.3, CONTENT_W * 0.16, CONTENT_W * 0.12, CONTENT_W * 0.12, CONTENT_W * 0.3],
            &header,
            &rows,
            1,
        );
        cv.space(8.0);
        cv.paragraph(
            lang.pick("Porting effort per unit of code and the supply-risk weights are Suanli's stated assumptions, not measured data; see the appendix.", "单位代码的迁移工作量与供应风险权重为 Suanli 的假设而非实测数据，见附录。"),
            8.5,
            false,
            MUTED,
        );
    }

    // ---- assumptions appendix
    section(&mut cv, lang.pick("Appendix: every input and its source", "附录：全部输入及其来源").to_owned());
    let rows = crate::assumptions::rows(s, lang);
    let header = vec![
        lang.pick("Input", "输入").to_owned(),
        lang.pick("Value", "取值").to_owned(),
        lang.pick("Source", "来源").to_owned(),
    ];
    cv.table(&[CONTENT_W * 0.34, CONTENT_W * 0.2, CONTENT_W * 0.46], &header, &rows, 3);

    // ---- contents page
    cv.draw_on(contents_page, |cv| {
        cv.y = 60.0;
        cv.heading(lang.pick("Contents", "目录"));
        for (title, page) in &sections {
            cv.y += 22.0;
            cv.text_at(MARGIN_X, cv.y, 11.0, false, INK, title);
            cv.text_right(PAGE_W - MARGIN_X, cv.y, 11.0, false, INK, &page.to_string());
            cv.line(&[(MARGIN_X, cv.y + 5.0), (PAGE_W - MARGIN_X, cv.y + 5.0)], RULE, 0.3);
        }
    });

    let header = format!("Suanli · {}", s.name);
    cv.finish(&header, &|n, total| {
        if lang == Lang::Zh { format!("第 {n} 页 / 共 {total} 页") } else { format!("page {n} / {total}") }
    });
    let title = format!("{} — {}", lang.pick("GPU compute proposal", "算力获取方案建议书").to_owned(), s.name);
    cv.save(&title, &input.meta.author, &input.meta.date).map_err(|_| {
        lang.pick(
            "a figure to be drawn is not a finite number; no PDF was made",
            "待绘制的数字不是有限数值；未生成 PDF",
        )
        .to_owned()
    })
}

/// A "nice" axis maximum: 1, 2 or 5 × a power of ten at or above `x`.
fn nice(x: f64) -> f64 {
    if x <= 0.0 {
        return 1.0;
    }
    let p = 10f64.powf(x.log10().floor());
    [1.0, 2.0, 5.0, 10.0].iter().map(|m| m * p).find(|v| *v >= x).unwrap_or(10.0 * p)
}

fn legend(cv: &mut Canvas, labels: &[(String, Rgb8)]) {
    let mut x = MARGIN_X;
    cv.y += 14.0;
    for (label, color) in labels {
        let w = cv.width(label, 8.0, false) + 22.0;
        if x + w > MARGIN_X + CONTENT_W {
            x = MARGIN_X;
            cv.y += 13.0;
        }
        cv.rect(x, cv.y - 7.0, 10.0, 7.0, *color);
        cv.text_at(x + 13.0, cv.y, 8.0, false, INK, label);
        x += w + 8.0;
    }
    cv.y += 10.0;
}

fn chart_title(cv: &mut Canvas, title: &str) {
    cv.ensure(250.0);
    cv.y += 24.0;
    cv.text_at(MARGIN_X, cv.y, 11.0, true, INK, title);
    cv.y += 8.0;
}

fn cumulative_chart(cv: &mut Canvas, e: &Evaluation, lang: Lang) {
    chart_title(cv, lang.pick("Cumulative cost by month (nominal)", "按月累计成本（名义）"));
    let (x0, y0, w, h) = (MARGIN_X + 44.0, cv.y + 10.0, CONTENT_W - 54.0, 170.0);
    let series: Vec<Vec<f64>> = e.options.iter().map(OptionResult::cumulative).collect();
    let max = nice(series.iter().flatten().copied().fold(0.0, f64::max));
    let months = e.horizon_months.max(1) as f32;
    for i in 0..=4 {
        let v = max * f64::from(i) / 4.0;
        let y = y0 + h - h * i as f32 / 4.0;
        cv.line(&[(x0, y), (x0 + w, y)], RULE, 0.4);
        cv.text_right(x0 - 4.0, y + 3.0, 7.0, false, MUTED, &format_axis(v, lang));
    }
    let step = (e.horizon_months / 6).max(1);
    for m in (0..=e.horizon_months).step_by(step as usize) {
        let x = x0 + w * m as f32 / months;
        cv.text_at(x - 4.0, y0 + h + 11.0, 7.0, false, MUTED, &m.to_string());
    }
    for (i, s) in series.iter().enumerate() {
        let mut pts = vec![(x0, y0 + h)];
        for (m, v) in s.iter().enumerate() {
            pts.push((x0 + w * (m as f32 + 1.0) / months, y0 + h - h * (*v / max).clamp(0.0, 1.0) as f32));
        }
        cv.line(&pts, PALETTE[i % PALETTE.len()], 1.6);
    }
    cv.y = y0 + h + 16.0;
    let labels: Vec<(String, Rgb8)> =
        e.options.iter().enumerate().map(|(i, o)| (o.label.clone(), PALETTE[i % PALETTE.len()])).collect();
    legend(cv, &labels);
}

fn breakdown_chart(cv: &mut Canvas, e: &Evaluation, lang: Lang) {
    chart_title(cv, lang.pick("Where the money goes (nominal, by category)", "成本构成（名义，按类别）"));
    let cats: Vec<Category> =
        Category::ALL.iter().copied().filter(|c| e.options.iter().any(|o| o.breakdown(*c) > 0.0)).collect();
    let max =
        nice(e.options.iter().map(|o| cats.iter().map(|c| o.breakdown(*c).max(0.0)).sum::<f64>()).fold(0.0, f64::max));
    let label_w = 150.0;
    let (x0, w) = (MARGIN_X + label_w, CONTENT_W - label_w - 10.0);
    let bar = 16.0;
    for o in &e.options {
        cv.ensure(bar + 10.0);
        let label = cv.wrap(&o.label, 8.0, false, label_w - 8.0).into_iter().next().unwrap_or_default();
        cv.text_at(MARGIN_X, cv.y + 11.0, 8.0, false, INK, &label);
        let mut x = x0;
        for (i, c) in cats.iter().enumerate() {
            let v = o.breakdown(*c).max(0.0);
            let bw = w * (v / max) as f32;
            if bw > 0.0 {
                cv.rect(x, cv.y, bw, bar, PALETTE[i % PALETTE.len()]);
                x += bw;
            }
        }
        cv.y += bar + 6.0;
    }
    let axis = format!("0 … {}", format_axis(max, lang));
    cv.text_right(x0 + w, cv.y + 8.0, 7.0, false, MUTED, &axis);
    cv.y += 6.0;
    let labels: Vec<(String, Rgb8)> =
        cats.iter().enumerate().map(|(i, c)| (c.label(lang).to_owned(), PALETTE[i % PALETTE.len()])).collect();
    legend(cv, &labels);
    if e.options.iter().any(|o| o.breakdown(Category::ResidualValue) < 0.0) {
        cv.paragraph(
            lang.pick(
                "Residual value at the horizon is credited back and not drawn; the totals include it.",
                "评估期末的残值作为回收计入总额，图中未绘出。",
            ),
            8.0,
            false,
            MUTED,
        );
    }
}

fn range_chart(cv: &mut Canvas, e: &Evaluation, sim: &Simulation, lang: Lang) {
    chart_title(
        cv,
        &if lang == Lang::Zh {
            format!("净现值区间：P10–P90（{} 次模拟，种子 {}）", sim.trials, sim.seed)
        } else {
            format!("Net present cost, P10–P90 ({} trials, seed {})", sim.trials, sim.seed)
        },
    );
    let max = nice(sim.options.iter().map(|o| o.npv.p90).fold(0.0, f64::max));
    let label_w = 150.0;
    let (x0, w) = (MARGIN_X + label_w, CONTENT_W - label_w - 10.0);
    for (i, r) in sim.options.iter().enumerate() {
        cv.ensure(22.0);
        let label = e.option(&r.id).map_or(r.id.clone(), |o| o.label.clone());
        let label = cv.wrap(&label, 8.0, false, label_w - 8.0).into_iter().next().unwrap_or_default();
        cv.text_at(MARGIN_X, cv.y + 11.0, 8.0, false, INK, &label);
        let xa = x0 + w * (r.npv.p10 / max) as f32;
        let xb = x0 + w * (r.npv.p90 / max) as f32;
        cv.rect(xa, cv.y + 3.0, (xb - xa).max(1.0), 10.0, PALETTE[i % PALETTE.len()]);
        let xm = x0 + w * (r.npv.p50 / max) as f32;
        cv.line(&[(xm, cv.y), (xm, cv.y + 16.0)], INK, 1.2);
        cv.y += 20.0;
    }
    cv.text_right(x0 + w, cv.y + 8.0, 7.0, false, MUTED, &format!("0 … {}", format_axis(max, lang)));
    cv.y += 12.0;
    cv.paragraph(
        lang.pick("The bar spans P10 to P90; the tick is P50.", "色条为 P10 至 P90，竖线为 P50。"),
        8.0,
        false,
        MUTED,
    );
}

fn tornado_chart(cv: &mut Canvas, sens: &Sensitivity, best: &OptionResult, lang: Lang) {
    chart_title(
        cv,
        &if lang == Lang::Zh {
            format!("敏感性：各输入对 {} 净现值的影响", best.label)
        } else {
            format!("Sensitivity: what moves the net present cost of {}", best.label)
        },
    );
    let base = sens.base.iter().find(|(id, _)| *id == best.id).map_or(0.0, |(_, v)| *v);
    let bars: Vec<(String, f64, f64)> = sens
        .tornado
        .iter()
        .take(8)
        .filter_map(|b| {
            b.totals.iter().find(|(id, ..)| *id == best.id).map(|(_, lo, hi)| (b.path.clone(), lo - base, hi - base))
        })
        .collect();
    let span = bars.iter().map(|(_, a, b)| a.abs().max(b.abs())).fold(0.0, f64::max).max(1.0);
    let label_w = 210.0;
    let (x0, w) = (MARGIN_X + label_w, CONTENT_W - label_w - 10.0);
    let mid = x0 + w / 2.0;
    for (path, lo, hi) in bars {
        cv.ensure(20.0);
        let label = cv.wrap(&path, 7.5, false, label_w - 8.0).into_iter().next().unwrap_or_default();
        cv.text_at(MARGIN_X, cv.y + 11.0, 7.5, false, INK, &label);
        for (v, color) in [(lo, PALETTE[0]), (hi, PALETTE[1])] {
            let len = (w / 2.0) * (v.abs() / span) as f32;
            let x = if v < 0.0 { mid - len } else { mid };
            cv.rect(x, cv.y + 3.0, len.max(0.5), 10.0, color);
        }
        cv.y += 18.0;
    }
    cv.line(&[(mid, cv.y - 4.0), (mid, cv.y + 4.0)], INK, 0.8);
    cv.y += 6.0;
    legend(
        cv,
        &[
            (lang.pick("input at its low end", "输入取低值").to_owned(), PALETTE[0]),
            (lang.pick("input at its high end", "输入取高值").to_owned(), PALETTE[1]),
        ],
    );
}

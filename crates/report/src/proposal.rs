//! The proposal a consultant hands to a client's board: cover, contents,
//! executive summary, assumptions, comparison, cash flow by year, charts,
//! ranges and sensitivity, porting and supply, energy, risks, next steps
//! and approval, an appendix that traces every input to its source or
//! marks it as an assumption, and notices. Built from computed results;
//! every outside input (date, names) is passed in, so the same inputs give
//! the same bytes.

use suanli_model::decision::{Decision, Reason, decide};
use suanli_model::sensitivity::Sensitivity;
use suanli_model::uncertainty::Simulation;
use suanli_model::{
    Category, Currency, Evaluation, Lang, OptionResult, Scenario, format_amount, format_axis, format_percent,
    format_unit_price,
};

use crate::ReportError;
use crate::labels::for_lang;
use crate::pdf::{ACCENT, CONTENT_W, Canvas, INK, MARGIN_X, MUTED, PAGE_H, PAGE_W, RULE, Rgb8, TOP};

/// Who the proposal is for and from; all optional but the date.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ProposalMeta {
    /// The client, on the cover and in the confidentiality notice.
    pub client: String,
    /// Who prepared it: the cover, the approval block and the PDF's author.
    pub author: String,
    /// The author's firm, on the cover.
    pub firm: String,
    /// The proposal's date, as it should be printed (e.g. 2026-11-30); a
    /// `YYYY-MM-DD` date also dates the PDF's metadata.
    pub date: String,
    /// A PNG or JPEG logo for the cover.
    pub logo: Option<Vec<u8>>,
}

/// Everything the proposal is made from.
#[derive(Debug)]
pub struct ProposalInput<'a> {
    /// The scenario.
    pub scenario: &'a Scenario,
    /// The scenario's evaluation.
    pub evaluation: &'a Evaluation,
    /// Simulated ranges: the P10–P90 chart, and the recommendation by median.
    pub simulation: Option<&'a Simulation>,
    /// Sensitivity analysis: the tornado chart.
    pub sensitivity: Option<&'a Sensitivity>,
    /// Who the proposal is for and from.
    pub meta: &'a ProposalMeta,
    /// Accelerators' names by catalogue id, in the report's language, for
    /// inputs that name one (an id is never client text).
    pub names: &'a crate::Names,
    /// The one language the proposal is written in.
    pub lang: Lang,
    /// The date of every price taken from a dated offer, aged on the
    /// proposal's date.
    pub price_dates: &'a [PriceDate],
    /// Prices this many months old or older are stale (a setting).
    pub stale_after_months: u32,
    /// The catalogue's sources by id: what the numbered references are made from.
    pub sources: &'a crate::Sources,
    /// What the catalogue knows beyond the scenario (risks, price checks).
    pub board: &'a crate::BoardFacts,
}

/// One price's date as the proposal prints it, aged on the proposal's date.
#[derive(Debug, Clone, PartialEq)]
pub struct PriceDate {
    /// The option's id.
    pub option_id: String,
    /// The option's field (`on_demand.price_per_accel_hour`).
    pub field: String,
    /// The date as precise as its source gave it, in the proposal's language
    /// (`2025-03 (month only)`).
    pub date: String,
    /// Whole months from the earliest day the date may mean to the proposal's date.
    pub age_months: Option<u32>,
    /// As old as the threshold, or older.
    pub stale: bool,
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
pub fn proposal_pdf(input: &ProposalInput<'_>) -> Result<Vec<u8>, ReportError> {
    let cv = layout(input)?;
    let lang = input.lang;
    let title = format!(
        "{} — {}",
        lang.pick("GPU compute proposal", "算力获取方案建议书"),
        for_lang(&input.scenario.name, lang)
    );
    cv.save(&title, &input.meta.author, &input.meta.date).map_err(|_| ReportError::NonFiniteDrawing)
}

/// Every piece of text the proposal draws, page by page, as drawn (after
/// the font's fallback): what a reader sees, for tests that read it.
pub fn proposal_text(input: &ProposalInput<'_>) -> Result<Vec<Vec<String>>, ReportError> {
    Ok(layout(input)?.texts())
}

fn layout(input: &ProposalInput<'_>) -> Result<Canvas, ReportError> {
    let lang = input.lang;
    let e = input.evaluation;
    let s = input.scenario;
    let mut cv = Canvas::new()?;
    // Sources said from here on cite numbered references.
    let book = crate::references::Open::new(input.sources, lang);
    if let Some(bytes) = &input.meta.logo {
        cv.set_logo(bytes)?;
    }
    // An option that leaves work undone is never the recommendation.
    let ranked = e.ranked_by_npv();
    // The recommendation follows the documented rule (suanli_model::decision).
    let decision = decide(e, input.simulation).ok_or(ReportError::NoOptions)?;
    let best = e.option(&decision.recommended).ok_or(ReportError::NoOptions)?;
    let x = Summary { input, e, s, c: e.currency, lang, ranked: &ranked, decision: &decision, best };
    let name = for_lang(&s.name, lang);

    cover(&mut cv, input, &name);
    // The contents page is filled in once the sections are placed.
    cv.new_page();
    let contents_page = cv.pages.len() - 1;
    let mut sections = Sections::default();

    sections.numbered(&mut cv, lang.pick("Executive summary", "摘要"));
    executive_summary(&mut cv, &x);
    sections.numbered_below(&mut cv, lang.pick("What the comparison assumes", "比较所依据的假设"));
    crate::case::assumptions_in_words(&mut cv, s, e, lang);
    sections.numbered(&mut cv, lang.pick("Options compared", "方案比较"));
    options_compared(&mut cv, &x);
    sections.numbered(&mut cv, lang.pick("Cash flow by year", "逐年现金流"));
    cash_flow_by_year(&mut cv, s, e, &ranked, best, lang);
    sections.numbered(&mut cv, lang.pick("Budget and VAT basis", "预算与增值税口径"));
    crate::budget::budget(&mut cv, s, e, best, input.simulation, &input.meta.date, lang);
    sections.numbered(&mut cv, lang.pick("Cost over time and where it goes", "成本随时间的变化与构成"));
    cumulative_chart(&mut cv, e, lang);
    breakdown_chart(&mut cv, e, lang);
    if input.simulation.is_some() || input.sensitivity.is_some() {
        sections.numbered(&mut cv, lang.pick("How sure the numbers are", "数字的确定性"));
        if let Some(sim) = input.simulation {
            range_chart(&mut cv, e, sim, lang);
        }
        if let Some(sens) = input.sensitivity {
            tornado_chart(&mut cv, s, sens, best, lang);
        }
    }
    if e.options.iter().any(|o| o.porting.is_some() || o.supply.is_some()) {
        sections.numbered(&mut cv, lang.pick("Porting and supply risk", "迁移成本与供应风险"));
        porting_and_supply(&mut cv, &x);
    }
    if ranked.iter().any(|o| o.owned_energy_kwh.is_some_and(|k| k > 0.0)) {
        sections.numbered_below(&mut cv, lang.pick("Energy and emissions", "能耗与排放"));
        crate::case::energy(&mut cv, s, e, &ranked, lang);
    }
    sections.numbered(&mut cv, lang.pick("Risks", "风险"));
    crate::case::risk_register(&mut cv, input, &ranked, best);
    sections.numbered_below(&mut cv, lang.pick("Next steps and approval", "后续步骤与审批"));
    crate::case::next_steps(&mut cv, s, best, input.simulation, &input.board.price_flags, lang);
    crate::case::approval(&mut cv, input.meta, lang);
    sections.unnumbered(&mut cv, lang.pick("Appendix: every input and its source", "附录：全部输入及其来源"));
    appendix(&mut cv, &x);
    let references = book.list();
    if !references.is_empty() {
        sections.unnumbered(&mut cv, lang.pick("References", "参考文献"));
        crate::references::section(&mut cv, &references, lang);
    }
    sections.unnumbered(&mut cv, lang.pick("Notices", "声明"));
    crate::case::notices(&mut cv, input.meta, lang);
    contents(&mut cv, contents_page, &sections, lang);

    // The running header is one line: a long name is cut with an ellipsis
    // (the cover gives it whole).
    let header = one_line(&cv, &format!("Suanli · {name}"), 8.0, CONTENT_W);
    cv.finish(&header, &|n, total| {
        if lang == Lang::Zh { format!("第 {n} 页 / 共 {total} 页") } else { format!("page {n} / {total}") }
    });
    Ok(cv)
}

/// What the sections after the cover read: the results, the recommendation
/// and the ranking, worked out once.
#[derive(Clone, Copy)]
struct Summary<'a> {
    input: &'a ProposalInput<'a>,
    e: &'a Evaluation,
    s: &'a Scenario,
    c: Currency,
    lang: Lang,
    /// Options by NPV, those that cannot do the work last.
    ranked: &'a [&'a OptionResult],
    decision: &'a Decision,
    best: &'a OptionResult,
}

/// The cover: title band, logo, who it is for and from, and the footnote.
/// Long names wrap, in a smaller size past three lines, and the band grows
/// with the title, so nothing leaves the page.
fn cover(cv: &mut Canvas, input: &ProposalInput<'_>, name: &str) {
    let lang = input.lang;
    cv.new_page();
    let (title_size, title_lines) = fit_lines(cv, name, &[14.0, 10.0, 8.0], CONTENT_W, 8);
    let band = (175.0 + title_lines.len() as f32 * title_size * 1.4).max(250.0);
    cv.rect(0.0, 0.0, PAGE_W, band, ACCENT);
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
    for line in &title_lines {
        cv.text_at(MARGIN_X, y, title_size, false, Rgb8(255, 255, 255), line);
        y += title_size * 1.4;
    }
    let mut y = band + 60.0;
    let footnote = cv.wrap(
        lang.pick("Every figure is computed from the stated inputs; the appendix gives each input's source or marks it as an assumption.", "所有数字均由所列输入计算得出；附录列出每项输入的来源，或标明其为假设。"),
        8.5,
        false,
        CONTENT_W,
    );
    let foot_top = PAGE_H - 48.0 - footnote.len() as f32 * 12.0;
    for (label, value) in [
        (lang.pick("Prepared for", "客户").to_owned(), input.meta.client.clone()),
        (lang.pick("Prepared by", "撰写人").to_owned(), input.meta.author.clone()),
        (lang.pick("Firm", "机构").to_owned(), input.meta.firm.clone()),
        (lang.pick("Date", "日期").to_owned(), input.meta.date.clone()),
    ] {
        if value.trim().is_empty() {
            continue;
        }
        let (size, lines) = fit_lines(cv, &value, &[13.0, 9.0, 7.0], CONTENT_W - 110.0, 4);
        if y + lines.len() as f32 * size * 1.45 > foot_top {
            // Only names of many hundred characters get here.
            cv.new_page();
            y = TOP;
        }
        cv.text_at(MARGIN_X, y, 10.0, false, MUTED, &label);
        for line in &lines {
            cv.text_at(MARGIN_X + 110.0, y, size, false, INK, line);
            y += size * 1.45;
        }
        y += 8.0;
    }
    for (i, line) in footnote.iter().enumerate() {
        cv.text_at(MARGIN_X, foot_top + 12.0 * (i as f32 + 1.0), 8.5, false, MUTED, line);
    }
}

/// The recommendation and why, the three numbers that matter, the points
/// behind them, where the measures disagree, and the scenario's description.
fn executive_summary(cv: &mut Canvas, x: &Summary<'_>) {
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

/// An option's label in `lang`, by id (client text names options, never ids;
/// an id no option has is kept as given).
fn label_of(e: &Evaluation, id: &str, lang: Lang) -> String {
    e.option(id).map_or_else(|| id.to_owned(), |o| for_lang(&o.label, lang))
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

/// The comparison table, fit and token notes, and how its figures are defined.
fn options_compared(cv: &mut Canvas, x: &Summary<'_>) {
    let Summary { e, c, lang, ranked, .. } = *x;
    let money = |x: f64| format_amount(x, c, lang);
    let header = vec![
        lang.pick("Option", "方案").to_owned(),
        lang.pick("Total (nominal)", "总成本（名义）").to_owned(),
        lang.pick("Total (NPV)", "总成本（净现值）").to_owned(),
        lang.pick("Per ref-GPU-h", "每参考卡时").to_owned(),
        lang.pick("All-in per ref-GPU-h", "全口径每参考卡时").to_owned(),
        lang.pick("Break-even", "盈亏平衡").to_owned(),
    ];
    let rows: Vec<Vec<String>> = ranked
        .iter()
        .map(|o| {
            vec![
                crate::board::marked_label(x.s, o, lang),
                money(o.total_nominal),
                money(o.total_npv),
                o.effective_price_per_ref_gpu_hour.map_or("—".into(), |p| format_unit_price(p, c, lang)),
                o.all_in_per_ref_gpu_hour.map_or("—".into(), |p| format_unit_price(p, c, lang)),
                o.break_even.as_ref().and_then(|b| b.month).map_or("—".into(), |m| {
                    if lang == Lang::Zh { format!("第 {m} 个月") } else { format!("month {m}") }
                }),
            ]
        })
        .collect();
    cv.table(
        &[CONTENT_W * 0.26, CONTENT_W * 0.155, CONTENT_W * 0.155, CONTENT_W * 0.14, CONTENT_W * 0.15, CONTENT_W * 0.14],
        &header,
        &rows,
        1,
    );
    for line in fit_and_tokens(e, ranked, lang) {
        cv.paragraph(&format!("· {line}"), 9.0, false, INK);
    }
    cv.space(10.0);
    cv.paragraph(lang.pick("Fleet and time to result", "算力规模与出结果时间"), 10.0, true, ACCENT);
    cv.space(4.0);
    crate::board::fleet_table(cv, x.s, ranked, lang);
    cv.space(10.0);
    cv.paragraph(lang.pick("What the cost does not show", "成本之外的考量"), 10.0, true, ACCENT);
    cv.space(4.0);
    crate::reasons::criteria_table(cv, x.s, ranked, x.input.board, lang);
    cv.space(10.0);
    cv.note(
        lang.pick("NPV discounts each month's cash flows at the scenario's cost of capital; the price per reference-GPU-hour is compute cost divided by useful work, in hours of the reference GPU; the all-in price divides every cost (porting, bridging, storage and edge included) by all the useful work served.", "净现值按场景的资金成本对每月现金流折现；每参考卡时成本为算力成本除以有效工作量（以参考 GPU 小时计）；全口径价格为全部成本（含迁移、过渡租用、存储与边缘）除以全部有效工作量。"),
    );
}

/// Each option's porting cost and delay and its supply-risk score with its drivers.
fn porting_and_supply(cv: &mut Canvas, x: &Summary<'_>) {
    let Summary { e, c, lang, .. } = *x;
    let money = |x: f64| format_amount(x, c, lang);
    let label = |o: &OptionResult| for_lang(&o.label, lang);
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
                label(o),
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
    cv.note(
        lang.pick("Porting effort per unit of code and the supply-risk weights are Suanli's stated assumptions, not measured data; see the appendix.", "单位代码的迁移工作量与供应风险权重为 Suanli 的假设而非实测数据，见附录。"),
    );
}

/// Every input with its value and its source (or "assumption").
fn appendix(cv: &mut Canvas, x: &Summary<'_>) {
    let Summary { input, s, lang, .. } = *x;
    let rows = crate::assumptions::rows(s, input.names, lang);
    let header = vec![
        lang.pick("Input", "输入").to_owned(),
        lang.pick("Value", "取值").to_owned(),
        lang.pick("Source", "来源").to_owned(),
    ];
    cv.table(&[CONTENT_W * 0.34, CONTENT_W * 0.2, CONTENT_W * 0.46], &header, &rows, 3);
    price_dates(cv, x);
}

/// How old each catalogue price is on the proposal's date; stale ones marked.
fn price_dates(cv: &mut Canvas, x: &Summary<'_>) {
    let Summary { input, e, lang, .. } = *x;
    if input.price_dates.is_empty() {
        return;
    }
    cv.space(14.0);
    cv.paragraph(lang.pick("How old each catalogue price is", "各目录价格的时效"), 10.5, true, INK);
    cv.space(4.0);
    let header = vec![
        lang.pick("Option", "方案").to_owned(),
        lang.pick("Price", "价格").to_owned(),
        lang.pick("As of", "价格日期").to_owned(),
        lang.pick("Age", "时效").to_owned(),
    ];
    let rows: Vec<Vec<String>> = input
        .price_dates
        .iter()
        .map(|p| {
            let age = match (p.age_months, p.stale, lang) {
                (None, _, _) => "—".to_owned(),
                (Some(m), true, Lang::Zh) => format!("{m} 个月 · 已过时"),
                (Some(m), false, Lang::Zh) => format!("{m} 个月"),
                (Some(1), stale, Lang::En) => format!("1 month{}", if stale { " · stale" } else { "" }),
                (Some(m), true, Lang::En) => format!("{m} months · stale"),
                (Some(m), false, Lang::En) => format!("{m} months"),
            };
            vec![label_of(e, &p.option_id, lang), crate::labels::input(&p.field, x.s, lang), p.date.clone(), age]
        })
        .collect();
    cv.table(&[CONTENT_W * 0.34, CONTENT_W * 0.3, CONTENT_W * 0.18, CONTENT_W * 0.18], &header, &rows, 4);
    cv.note(&if lang == Lang::Zh {
        format!("按本建议书日期计算；{} 个月及以上的价格标为“已过时”，决策前应向服务商确认。", input.stale_after_months)
    } else {
        format!(
            "Aged on this proposal's date; a price {} months old or older is marked stale and should be confirmed with the provider before a decision.",
            input.stale_after_months
        )
    });
}

/// Fills the contents page with each placed section and its page.
fn contents(cv: &mut Canvas, page: usize, sections: &Sections, lang: Lang) {
    cv.draw_on(page, |cv| {
        cv.y = 60.0;
        cv.heading(lang.pick("Contents", "目录"));
        for (title, page) in &sections.placed {
            cv.y += 22.0;
            cv.text_at(MARGIN_X, cv.y, 11.0, false, INK, title);
            cv.text_right(PAGE_W - MARGIN_X, cv.y, 11.0, false, INK, &page.to_string());
            cv.line(&[(MARGIN_X, cv.y + 5.0), (PAGE_W - MARGIN_X, cv.y + 5.0)], RULE, 0.3);
        }
    });
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

/// Options shown side by side in the yearly table (the best ranked first).
const YEARLY_OPTIONS: usize = 4;

/// The business case in cash: what each option pays each year, the
/// recommended option's year split by kind, and, for every option that
/// buys more equipment than its rival, when it pays back and its IRR.
fn cash_flow_by_year(
    cv: &mut Canvas,
    s: &Scenario,
    e: &Evaluation,
    ranked: &[&OptionResult],
    best: &OptionResult,
    lang: Lang,
) {
    use suanli_model::business::{NoIrr, by_year, investment};
    let c = e.currency;
    let money = |x: f64| format_amount(x, c, lang);
    // A kind of flow the option does not have reads as a dash, not "0".
    let amount = |x: f64| if x == 0.0 { "—".to_owned() } else { money(x) };
    let label = |o: &OptionResult| for_lang(&o.label, lang);
    let year_name = |y: &suanli_model::business::YearFlows| match (lang, y.months) {
        (Lang::Zh, 12) => format!("第 {} 年", y.year),
        (Lang::Zh, m) => format!("第 {} 年（{m} 个月）", y.year),
        (Lang::En, 12) => format!("Year {}", y.year),
        (Lang::En, m) => format!("Year {} ({m} months)", y.year),
    };
    let shown: Vec<&OptionResult> = ranked.iter().copied().take(YEARLY_OPTIONS).collect();
    let years: Vec<_> = shown.iter().map(|o| by_year(o)).collect();
    let header: Vec<String> =
        std::iter::once(lang.pick("Year", "年度").to_owned()).chain(shown.iter().map(|o| label(o))).collect();
    let mut rows: Vec<Vec<String>> = (0..years[0].len())
        .map(|i| std::iter::once(year_name(&years[0][i])).chain(years.iter().map(|y| money(y[i].total()))).collect())
        .collect();
    rows.push(
        std::iter::once(lang.pick("Total (nominal)", "合计（名义）").to_owned())
            .chain(shown.iter().map(|o| money(o.total_nominal)))
            .collect(),
    );
    let first = CONTENT_W * 0.22;
    let rest = (CONTENT_W - first) / shown.len() as f32;
    let widths: Vec<f32> = std::iter::once(first).chain(std::iter::repeat_n(rest, shown.len())).collect();
    cv.paragraph(
        lang.pick(
            "What each option pays each year (nominal; money back at the horizon is subtracted in the last year).",
            "各方案每年支付的金额（名义值；评估期末收回的残值计入最后一年并扣减）。",
        ),
        9.0,
        false,
        MUTED,
    );
    cv.space(6.0);
    cv.table(&widths, &header, &rows, 1);
    if e.options.len() > shown.len() {
        cv.paragraph(
            &if lang == Lang::Zh {
                format!("表中列出排名前 {} 的方案；全部方案见表格文件。", shown.len())
            } else {
                format!("The {} best-ranked options are shown; the workbook has all of them.", shown.len())
            },
            8.5,
            false,
            MUTED,
        );
    }
    cv.space(10.0);

    cv.paragraph(
        &if lang == Lang::Zh {
            format!("建议方案（{}）按类别的逐年现金流", label(best))
        } else {
            format!("The recommended option ({}) by kind of cash flow", label(best))
        },
        10.0,
        true,
        ACCENT,
    );
    cv.space(6.0);
    let header: Vec<String> = [
        lang.pick("Year", "年度"),
        lang.pick("Capital", "资本支出"),
        lang.pick("One-off", "一次性支出"),
        lang.pick("Recurring", "经常性支出"),
        lang.pick("Money back", "残值收回"),
        lang.pick("Total", "合计"),
    ]
    .map(str::to_owned)
    .to_vec();
    let best_years = by_year(best);
    let mut rows: Vec<Vec<String>> = best_years
        .iter()
        .map(|y| {
            vec![
                year_name(y),
                amount(y.capital),
                amount(y.one_off),
                amount(y.recurring),
                amount(y.residual),
                money(y.total()),
            ]
        })
        .collect();
    let sum = |f: fn(&suanli_model::business::YearFlows) -> f64| best_years.iter().map(f).sum::<f64>();
    rows.push(vec![
        lang.pick("Total", "合计").to_owned(),
        amount(sum(|y| y.capital)),
        amount(sum(|y| y.one_off)),
        amount(sum(|y| y.recurring)),
        amount(sum(|y| y.residual)),
        money(best.total_nominal),
    ]);
    cv.table(
        &[CONTENT_W * 0.2, CONTENT_W * 0.16, CONTENT_W * 0.16, CONTENT_W * 0.16, CONTENT_W * 0.16, CONTENT_W * 0.16],
        &header,
        &rows,
        1,
    );
    cv.note(lang.pick("Capital: equipment bought and installed. One-off: porting the workload. Recurring: rent, power, hosting, staff, maintenance, storage and the like. Money back: the equipment's book or resale value at the horizon.", "资本支出：购置并安装的设备。一次性支出：工作负载迁移。经常性支出：租金、电力、托管、人员、维护、存储等。残值收回：评估期末设备的账面或转售价值。"));
    cv.space(10.0);

    let rate = format_percent(s.discount_rate_annual, 1);
    let cases: Vec<String> = e
        .options
        .iter()
        .filter(|o| !o.ranked_apart())
        .filter_map(|o| {
            let rival = e.option(&o.break_even.as_ref()?.against)?;
            let case = investment(o, rival)?;
            let payback = match (case.payback_month, lang) {
                (Some(m), Lang::Zh) => format!("第 {m} 个月收回多付的投入"),
                (Some(m), Lang::En) => format!("pays back in month {m}"),
                (None, Lang::Zh) => "评估期内收不回多付的投入".to_owned(),
                (None, Lang::En) => "does not pay back within the horizon".to_owned(),
            };
            let irr = match (case.irr_annual, lang) {
                (Ok(r), Lang::Zh) => format!("内部收益率每年 {}（资金成本 {rate}）", format_percent(r, 1)),
                (Ok(r), Lang::En) => {
                    format!("an IRR of {} a year (against a {rate} cost of capital)", format_percent(r, 1))
                }
                (Err(NoIrr::NeverPaysBack | NoIrr::NoOutlay), Lang::Zh) => {
                    "内部收益率无定义（节省的金额不足以收回多付的投入）".to_owned()
                }
                (Err(NoIrr::NeverPaysBack | NoIrr::NoOutlay), Lang::En) => {
                    "no IRR (it never saves back what it costs more)".to_owned()
                }
                (Err(NoIrr::NotOneTurn), Lang::Zh) => {
                    "内部收益率无定义（逐月节省额多次正负交替，没有单一的收益率）".to_owned()
                }
                (Err(NoIrr::NotOneTurn), Lang::En) => {
                    "no single IRR (its monthly savings turn between negative and positive more than once)".to_owned()
                }
            };
            Some(if lang == Lang::Zh {
                format!("以{}代替{}：{payback}，{irr}。", label(o), label(rival))
            } else {
                format!("{} instead of {}: {payback}, {irr}.", label(o), label(rival))
            })
        })
        .collect();
    if !cases.is_empty() {
        cv.paragraph(lang.pick("Payback and return", "投资回收与收益"), 10.0, true, ACCENT);
        for line in cases {
            cv.paragraph(&format!("· {line}"), 10.0, false, INK);
        }
        cv.note(lang.pick("Each option that buys more equipment is set against the cheapest other option: the payback month is the first from which its cumulative cost stays at or below the other's; the IRR is the yearly rate at which the monthly savings' present value is nil, defined where the savings turn from negative to positive once.", "对购置设备更多的方案，以其余方案中最便宜者为比较对象：回收月份为其累计成本此后一直不高于对方的第一个月；内部收益率为使逐月节省额现值为零的年利率，仅在节省额由负转正且只转变一次时有定义。"));
    }
}

/// The report's sections as placed: each starts a page unless placed below
/// the one before (see `numbered_below`), the numbered ones
/// count up (a section left out leaves no gap), and the contents page lists
/// them all with their page.
#[derive(Default)]
struct Sections {
    placed: Vec<(String, usize)>,
    numbered: u32,
}

impl Sections {
    fn numbered(&mut self, cv: &mut Canvas, title: &str) {
        self.numbered += 1;
        self.unnumbered(cv, &format!("{}. {title}", self.numbered));
    }

    /// A numbered section below the one before, on a new page only when
    /// too little of this one is left.
    fn numbered_below(&mut self, cv: &mut Canvas, title: &str) {
        self.numbered += 1;
        let title = format!("{}. {title}", self.numbered);
        cv.space(24.0);
        cv.ensure(200.0);
        cv.heading(&title);
        self.placed.push((title, cv.pages.len()));
    }

    fn unnumbered(&mut self, cv: &mut Canvas, title: &str) {
        cv.new_page();
        cv.y = 60.0;
        cv.heading(title);
        self.placed.push((title.to_owned(), cv.pages.len()));
    }
}

/// One line per option on whether its accelerators hold the model and, for
/// serving, what a million output tokens cost: the comparison table's
/// footnotes (in its order), when the scenario states a model.
fn fit_and_tokens(e: &Evaluation, ranked: &[&OptionResult], lang: Lang) -> Vec<String> {
    let c = e.currency;
    ranked
        .iter()
        .filter_map(|o| {
            let label = for_lang(&o.label, lang);
            let fit = o.memory_fit.map(|f| {
                let gb = format!("{:.0}", f.memory_gb_per_accelerator);
                match (f.min_accelerators, f.fits(), lang) {
                    (Some(n), true, Lang::Zh) => format!("模型可装下（{} 张 {gb} GB 卡中需 {n} 张）", f.available),
                    (Some(n), true, Lang::En) => {
                        format!("the model fits ({n} of its {} × {gb} GB cards hold it)", f.available)
                    }
                    (Some(n), false, Lang::Zh) => {
                        format!("装不下模型：需 {n} 张 {gb} GB 卡，仅有 {} 张，故不参与排名", f.available)
                    }
                    (Some(n), false, Lang::En) => format!(
                        "the model does not fit: it needs {n} × {gb} GB cards and has {}, so it is ranked apart",
                        f.available
                    ),
                    (None, _, Lang::Zh) => format!("按此切分方式 {gb} GB 卡装不下模型，故不参与排名"),
                    (None, _, Lang::En) => {
                        format!("no number of {gb} GB cards holds the model with this sharding, so it is ranked apart")
                    }
                }
            });
            let tokens = o.cost_per_million_tokens.map(|p| {
                let p = format_unit_price(p, c, lang);
                if lang == Lang::Zh {
                    format!("每百万输出 token 算力成本 {p}")
                } else {
                    format!("{p} of compute per million output tokens")
                }
            });
            let parts: Vec<String> = fit.into_iter().chain(tokens).collect();
            (!parts.is_empty()).then(|| {
                if lang == Lang::Zh {
                    format!("{label}：{}。", parts.join("；"))
                } else {
                    format!("{label}: {}.", parts.join("; "))
                }
            })
        })
        .collect()
}

/// The text wrapped at the first size that needs at most `max_lines`
/// lines (or the last size, at any number of lines).
fn fit_lines(cv: &Canvas, text: &str, sizes: &[f32], width: f32, max_lines: usize) -> (f32, Vec<String>) {
    let mut last = (sizes[sizes.len() - 1], Vec::new());
    for &size in sizes {
        let lines = cv.wrap(text, size, false, width);
        if lines.len() <= max_lines {
            return (size, lines);
        }
        last = (size, lines);
    }
    last
}

/// The text cut, with an ellipsis, to one line of `width` points.
pub(crate) fn one_line(cv: &Canvas, text: &str, size: f32, width: f32) -> String {
    let text = cv.printable(text);
    if cv.width(&text, size, false) <= width {
        return text;
    }
    let mut out = String::new();
    for ch in text.chars() {
        if cv.width(&format!("{out}{ch}…"), size, false) > width {
            break;
        }
        out.push(ch);
    }
    format!("{}…", out.trim_end())
}

/// A "nice" axis maximum: the first of 1, 1.5, 2, 2.5, 3, 4, 5, 6, 8 or 10 ×
/// a power of ten at or above `x`; 1 when `x` is not above 0.
fn nice(x: f64) -> f64 {
    if x <= 0.0 {
        return 1.0;
    }
    let p = 10f64.powf(x.log10().floor());
    [1.0, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0, 6.0, 8.0, 10.0].iter().map(|m| m * p).find(|v| *v >= x).unwrap_or(10.0 * p)
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
    let (x0, y0, w, h) = (MARGIN_X + 44.0, cv.y + 18.0, CONTENT_W - 54.0, 170.0);
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
        let t = m.to_string();
        cv.text_at(x - cv.width(&t, 7.0, false) / 2.0, y0 + h + 11.0, 7.0, false, MUTED, &t);
    }
    // Axis titles: the amount's currency above the value axis, months under the time axis.
    let y_title = match lang {
        Lang::Zh => format!("累计成本（{}）", currency_zh(e.currency)),
        Lang::En => format!("Cumulative cost ({})", e.currency.code()),
    };
    cv.text_at(MARGIN_X, y0 - 6.0, 7.5, false, MUTED, &y_title);
    let x_title = lang.pick("Month", "月份");
    cv.text_at(x0 + w / 2.0 - cv.width(x_title, 7.5, false) / 2.0, y0 + h + 22.0, 7.5, false, MUTED, x_title);
    for (i, s) in series.iter().enumerate() {
        let mut pts = vec![(x0, y0 + h)];
        for (m, v) in s.iter().enumerate() {
            pts.push((x0 + w * (m as f32 + 1.0) / months, y0 + h - h * (*v / max).clamp(0.0, 1.0) as f32));
        }
        cv.line(&pts, PALETTE[i % PALETTE.len()], 1.6);
    }
    cv.y = y0 + h + 26.0;
    let labels: Vec<(String, Rgb8)> =
        e.options.iter().enumerate().map(|(i, o)| (for_lang(&o.label, lang), PALETTE[i % PALETTE.len()])).collect();
    legend(cv, &labels);
}

/// A step of 1, 2 or 5 × a power of ten giving about four intervals over `span`.
fn nice_step(span: f64) -> f64 {
    let raw = (span / 4.0).max(f64::MIN_POSITIVE);
    let p = 10f64.powf(raw.log10().floor());
    [1.0, 2.0, 5.0, 10.0].iter().map(|m| m * p).find(|v| *v >= raw).unwrap_or(10.0 * p)
}

/// A horizontal value axis under a bar chart: gridlines from `top` to
/// `bottom`, ticks labelled by [`format_axis`] (万/亿 or k/M/B), and the axis
/// title with its currency centred below.
#[allow(clippy::too_many_arguments)]
fn value_axis(cv: &mut Canvas, x0: f32, w: f32, lo: f64, hi: f64, top: f32, title: &str, lang: Lang) {
    let bottom = cv.y;
    let at = |v: f64| x0 + w * ((v - lo) / (hi - lo)) as f32;
    let step = nice_step(hi - lo);
    let mut v = (lo / step).ceil() * step;
    while v <= hi + step * 1e-9 {
        let x = at(v);
        cv.line(
            &[(x, top), (x, bottom)],
            if v.abs() < step * 1e-9 { INK } else { RULE },
            if v.abs() < step * 1e-9 { 0.8 } else { 0.3 },
        );
        let t = format_axis(if v.abs() < step * 1e-9 { 0.0 } else { v }, lang);
        cv.text_at(x - cv.width(&t, 7.0, false) / 2.0, bottom + 9.0, 7.0, false, MUTED, &t);
        v += step;
    }
    cv.text_at(x0 + w / 2.0 - cv.width(title, 7.5, false) / 2.0, bottom + 20.0, 7.5, false, MUTED, title);
    cv.y = bottom + 24.0;
}

fn currency_zh(c: suanli_model::Currency) -> String {
    // The unit format_amount prints after a Chinese amount (1.00亿元 → 元).
    format_amount(1.0, c, Lang::Zh)
        .trim_start_matches(|ch: char| ch.is_ascii_digit() || ch == '.' || ch == ',')
        .to_owned()
}

fn breakdown_chart(cv: &mut Canvas, e: &Evaluation, lang: Lang) {
    chart_title(cv, lang.pick("Where the money goes (nominal, by category)", "成本构成（名义，按类别）"));
    let c = e.currency;
    // Every category with a figure is drawn: costs to the right of zero,
    // credits (the residual value) to the left, so the bar's net, marked
    // and labelled, is the table's nominal total.
    let cats: Vec<Category> =
        Category::ALL.iter().copied().filter(|c| e.options.iter().any(|o| o.breakdown(*c).abs() > 0.0)).collect();
    let pos = |o: &OptionResult| cats.iter().map(|c| o.breakdown(*c).max(0.0)).sum::<f64>();
    let neg = |o: &OptionResult| cats.iter().map(|c| o.breakdown(*c).min(0.0)).sum::<f64>();
    let hi = nice(e.options.iter().map(pos).fold(0.0, f64::max));
    let lo_raw = e.options.iter().map(neg).fold(0.0, f64::min);
    let lo = if lo_raw < 0.0 { -nice_step(hi) * (lo_raw.abs() / nice_step(hi)).ceil() } else { 0.0 };
    let label_w = 130.0;
    let (x0, w) = (MARGIN_X + label_w, CONTENT_W - label_w - 64.0);
    let at = |v: f64| x0 + w * ((v - lo) / (hi - lo)) as f32;
    let bar = 16.0;
    let top = cv.y;
    for o in &e.options {
        let lines = cv.wrap(&for_lang(&o.label, lang), 8.0, false, label_w - 8.0);
        let row = (lines.len().min(3) as f32 * 9.5).max(bar) + 6.0;
        cv.ensure(row);
        for (j, l) in lines.iter().take(3).enumerate() {
            cv.text_at(MARGIN_X, cv.y + 8.0 + j as f32 * 9.5, 8.0, false, INK, l);
        }
        let (mut right, mut left) = (0.0, 0.0);
        for (i, cat) in cats.iter().enumerate() {
            let v = o.breakdown(*cat);
            let color = PALETTE[i % PALETTE.len()];
            if v > 0.0 {
                cv.rect(at(right), cv.y, at(right + v) - at(right), bar, color);
                right += v;
            } else if v < 0.0 {
                cv.rect(at(left + v), cv.y, at(left) - at(left + v), bar, color);
                left += v;
            }
        }
        let net = o.total_nominal;
        let xn = at(net);
        cv.line(&[(xn, cv.y - 2.0), (xn, cv.y + bar + 2.0)], INK, 1.4);
        cv.text_at(at(right.max(net)) + 4.0, cv.y + 11.0, 7.0, false, INK, &format_amount(net, c, lang));
        cv.y += row;
    }
    let title = match lang {
        Lang::Zh => format!("名义金额（{}）", currency_zh(c)),
        Lang::En => format!("Nominal amount ({})", c.code()),
    };
    value_axis(cv, x0, w, lo, hi, top - 4.0, &title, lang);
    let labels: Vec<(String, Rgb8)> =
        cats.iter().enumerate().map(|(i, c)| (c.label(lang).to_owned(), PALETTE[i % PALETTE.len()])).collect();
    legend(cv, &labels);
    cv.paragraph(
        lang.pick(
            "The black mark and the figure beside each bar are the nominal total of the table; a residual value credited at the horizon is drawn to the left of zero.",
            "每条色条旁的黑色标记与数字为表中的名义总成本；评估期末回收的残值画在零点左侧。",
        ),
        8.0,
        false,
        MUTED,
    );
}

fn range_chart(cv: &mut Canvas, e: &Evaluation, sim: &Simulation, lang: Lang) {
    chart_title(
        cv,
        &if lang == Lang::Zh {
            format!("净现值区间：P10–P90（{} 次模拟）", sim.trials)
        } else {
            format!("Net present cost, P10–P90 ({} trials)", sim.trials)
        },
    );
    let c = e.currency;
    let hi = nice(sim.options.iter().map(|o| o.npv.p90).fold(0.0, f64::max));
    let lo = 0.0;
    let label_w = 130.0;
    let (x0, w) = (MARGIN_X + label_w, CONTENT_W - label_w - 64.0);
    let at = |v: f64| x0 + w * ((v - lo) / (hi - lo)) as f32;
    let top = cv.y;
    for (i, r) in sim.options.iter().enumerate() {
        let label = e.option(&r.id).map_or_else(|| r.label.clone(), |o| for_lang(&o.label, lang));
        let lines = cv.wrap(&label, 8.0, false, label_w - 8.0);
        let row = (lines.len().min(3) as f32 * 9.5).max(16.0) + 6.0;
        cv.ensure(row);
        for (j, l) in lines.iter().take(3).enumerate() {
            cv.text_at(MARGIN_X, cv.y + 8.0 + j as f32 * 9.5, 8.0, false, INK, l);
        }
        let (xa, xb) = (at(r.npv.p10), at(r.npv.p90));
        cv.rect(xa, cv.y + 3.0, (xb - xa).max(1.0), 10.0, PALETTE[i % PALETTE.len()]);
        let xm = at(r.npv.p50);
        cv.line(&[(xm, cv.y), (xm, cv.y + 16.0)], INK, 1.2);
        cv.text_at(xb + 4.0, cv.y + 11.0, 7.0, false, INK, &format!("P50 {}", format_amount(r.npv.p50, c, lang)));
        cv.y += row;
    }
    let title = match lang {
        Lang::Zh => format!("净现值（{}）", currency_zh(c)),
        Lang::En => format!("Net present cost ({})", c.code()),
    };
    value_axis(cv, x0, w, lo, hi, top - 4.0, &title, lang);
    cv.paragraph(
        lang.pick("The bar spans P10 to P90; the tick is P50.", "色条为 P10 至 P90，竖线为 P50。"),
        8.0,
        false,
        MUTED,
    );
}

fn tornado_chart(cv: &mut Canvas, s: &Scenario, sens: &Sensitivity, best: &OptionResult, lang: Lang) {
    let c = s.currency;
    let title = if lang == Lang::Zh {
        format!("敏感性：各输入对{}净现值的影响", for_lang(&best.label, lang))
    } else {
        format!("Sensitivity: what moves the net present cost of {}", for_lang(&best.label, lang))
    };
    cv.ensure(250.0);
    cv.y += 10.0;
    for line in cv.wrap(&title, 11.0, true, CONTENT_W) {
        cv.y += 14.0;
        cv.text_at(MARGIN_X, cv.y, 11.0, true, INK, &line);
    }
    cv.y += 8.0;
    let base = sens.base.iter().find(|(id, _)| *id == best.id).map_or(0.0, |(_, v)| *v);
    let bars: Vec<(String, f64, f64)> = sens
        .for_option(&best.id)
        .iter()
        .take(8)
        .map(|b| (crate::labels::input(&b.bar.path, s, lang), b.npv_low, b.npv_high))
        .collect();
    let span = bars.iter().map(|(_, a, b)| (a - base).abs().max((b - base).abs())).fold(0.0, f64::max).max(1.0);
    // Labels on the left, wrapped; bars around the base value, each end
    // labelled with the total it leads to.
    let label_w = 170.0;
    let (x0, w) = (MARGIN_X + label_w, CONTENT_W - label_w);
    let mid = x0 + w / 2.0;
    let half = w / 2.0 - 52.0;
    let top = cv.y;
    for (path, lo, hi) in &bars {
        let lines = cv.wrap(path, 7.5, false, label_w - 8.0);
        let row = (lines.len() as f32 * 9.5).max(16.0) + 6.0;
        cv.ensure(row);
        for (j, l) in lines.iter().enumerate() {
            cv.text_at(MARGIN_X, cv.y + 9.0 + j as f32 * 9.5, 7.5, false, INK, l);
        }
        for (v, color) in [(*lo, PALETTE[0]), (*hi, PALETTE[1])] {
            let d = v - base;
            // An input that does not move this option's cost has no bar and no figure.
            if d.abs() < 0.005 {
                continue;
            }
            let len = half * (d.abs() / span) as f32;
            let x = if d < 0.0 { mid - len } else { mid };
            cv.rect(x, cv.y + 2.0, len.max(0.5), 10.0, color);
            let text = format_amount(v, c, lang);
            if d < 0.0 {
                cv.text_right(mid - len - 3.0, cv.y + 10.0, 6.5, false, MUTED, &text);
            } else {
                cv.text_at(mid + len + 3.0, cv.y + 10.0, 6.5, false, MUTED, &text);
            }
        }
        cv.y += row;
    }
    cv.line(&[(mid, top - 2.0), (mid, cv.y)], INK, 0.8);
    cv.y += 10.0;
    let base_text = if lang == Lang::Zh {
        format!("中线：基准净现值 {}", format_amount(base, c, lang))
    } else {
        format!("Centre line: base net present cost {}", format_amount(base, c, lang))
    };
    cv.text_at(mid - cv.width(&base_text, 7.5, false) / 2.0, cv.y, 7.5, false, INK, &base_text);
    legend(
        cv,
        &[
            (lang.pick("input at its low end", "输入取低值").to_owned(), PALETTE[0]),
            (lang.pick("input at its high end", "输入取高值").to_owned(), PALETTE[1]),
        ],
    );
}

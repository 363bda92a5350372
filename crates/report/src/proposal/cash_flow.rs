//! Cash flow by year: what each option pays each year, the recommended
//! option's years by kind, and payback and return.

use suanli_model::{Evaluation, Lang, OptionResult, Scenario, format_amount, format_percent};

use crate::labels::for_lang;
use crate::pdf::{ACCENT, CONTENT_W, Canvas, INK, MUTED};

/// Options shown side by side in the yearly table (the best ranked first).
const YEARLY_OPTIONS: usize = 4;

/// The business case in cash: what each option pays each year, the
/// recommended option's year split by kind, and, for every option that
/// buys more equipment than its rival, when it pays back and its IRR.
pub(super) fn cash_flow_by_year(
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

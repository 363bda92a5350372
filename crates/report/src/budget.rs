//! The budget a board approves: the recommended option's nominal cash by
//! fiscal year (calendar years, the horizon starting in the proposal's
//! month; by horizon year when the proposal has no date), a contingency up to
//! the P80 of the simulated trials where the scenario has ranges, and the
//! VAT basis of every option's prices, all options compared on the basis
//! the buyer bears.

use suanli_model::uncertainty::Simulation;
use suanli_model::vat::{CN_RATES_SOURCE, Vat, VatSplit, split_amounts, split_option};
use suanli_model::{Category, Currency, Evaluation, Lang, OptionResult, Scenario, format_amount, format_percent};

use crate::labels::for_lang;
use crate::pdf::{ACCENT, CONTENT_W, Canvas, INK, MUTED};

/// The VAT basis the report uses: the scenario's, else Suanli's default
/// for a scenario in CNY (China's rates), else none.
pub(crate) fn vat_basis(s: &Scenario) -> Option<(Vat, bool)> {
    match (&s.vat, s.currency) {
        (Some(v), _) => Some((*v, true)),
        (None, Currency::CNY) => Some((Vat::default(), false)),
        (None, _) => None,
    }
}

/// What the board is asked to approve for the recommended option.
pub(crate) struct Ask {
    /// Nominal cash over the horizon, on the prices' basis.
    pub nominal: f64,
    /// Up to the P80 of the simulated nominal totals; `None` without ranges.
    pub contingency: Option<f64>,
    /// VAT on top (prices net of VAT) or within (prices with VAT), when there is a basis.
    pub vat: Option<VatSplit>,
}

/// The amount to approve, on the prices' basis plus the contingency.
pub(crate) fn ask(s: &Scenario, best: &OptionResult, sim: Option<&Simulation>) -> Ask {
    let contingency = sim
        .and_then(|sim| sim.options.iter().find(|r| r.id == best.id))
        .map(|r| (r.nominal.p80 - best.total_nominal).max(0.0));
    Ask { nominal: best.total_nominal, contingency, vat: vat_basis(s).map(|(v, _)| split_option(&v, best)) }
}

/// The amounts of each category in months `from..to`.
fn amounts(o: &OptionResult, from: usize, to: usize) -> impl Iterator<Item = (Category, f64)> + '_ {
    Category::ALL.iter().map(move |c| (*c, o.monthly.iter().skip(from).take(to - from).map(|m| m.get(*c)).sum::<f64>()))
}

/// The budget by year and the VAT basis, as a section of the proposal.
pub(crate) fn budget(
    cv: &mut Canvas,
    s: &Scenario,
    e: &Evaluation,
    best: &OptionResult,
    sim: Option<&Simulation>,
    date: &str,
    lang: Lang,
) {
    let c = e.currency;
    let money = |x: f64| format_amount(x, c, lang);
    let basis = vat_basis(s);
    let vat = basis.map(|(v, _)| v);
    let label = for_lang(&best.label, lang);
    let start = year_month(date);
    cv.paragraph(
        &match (start, lang) {
            (Some((y, m)), Lang::En) => format!(
                "The budget for the recommended option ({label}), nominal cash by fiscal year: calendar years, the horizon taken to start in the proposal's month ({} {y}).",
                MONTHS_EN[m as usize - 1]
            ),
            (Some((y, m)), Lang::Zh) => format!(
                "建议方案（{label}）的预算：按财年（自然年）列示名义现金支出，评估期按建议书所在月份（{y}年{m}月）起算。"
            ),
            (None, Lang::En) => format!("The budget for the recommended option ({label}), nominal cash by year; year 1 is the first twelve months of the horizon."),
            (None, Lang::Zh) => format!("建议方案（{label}）的预算：按年度列示名义现金支出；第 1 年为评估期的前 12 个月。"),
        },
        9.0,
        false,
        MUTED,
    );
    cv.space(6.0);
    let price_basis = match vat {
        Some(v) if v.prices_include_vat => lang.pick("with VAT", "含税"),
        Some(_) => lang.pick("net of VAT", "不含税"),
        None => lang.pick("as stated", "按所列价格"),
    };
    let mut header = vec![
        match start {
            Some(_) => lang.pick("Fiscal year", "财年"),
            None => lang.pick("Year", "年度"),
        }
        .to_owned(),
        match lang {
            Lang::En => format!("Cash ({price_basis})"),
            Lang::Zh => format!("现金支出（{price_basis}）"),
        },
    ];
    if vat.is_some() {
        header.push(match vat {
            Some(v) if v.prices_include_vat => lang.pick("VAT within", "其中增值税").to_owned(),
            _ => lang.pick("VAT on top", "另计增值税").to_owned(),
        });
        header.push(lang.pick("With VAT", "含税合计").to_owned());
    }
    let mut rows = Vec::new();
    for (name, from, to) in years(best.monthly.len(), start, lang) {
        let cash: f64 = best.monthly.iter().skip(from).take(to - from).map(|m| m.total()).sum();
        let mut row = vec![name, money(cash)];
        if let Some(v) = &vat {
            let split = split_amounts(v, amounts(best, from, to));
            row.push(money(split.vat()));
            row.push(money(split.gross()));
        }
        rows.push(row);
    }
    let a = ask(s, best, sim);
    let mut total = vec![lang.pick("Total", "合计").to_owned(), money(a.nominal)];
    if let Some(split) = &a.vat {
        total.push(money(split.vat()));
        total.push(money(split.gross()));
    }
    rows.push(total);
    if let Some(extra) = a.contingency {
        // An amount beyond the stated total bears VAT in the option's own mix of classes.
        let with_vat = |row: &mut Vec<String>, x: f64| {
            if let Some(split) = a.vat.as_ref().filter(|_| a.nominal.abs() > 0.0) {
                row.push(money(x * split.vat() / a.nominal));
                row.push(money(x * split.gross() / a.nominal));
            }
        };
        let mut row = vec![lang.pick("Contingency (to P80)", "不可预见费（至 P80）").to_owned(), money(extra)];
        with_vat(&mut row, extra);
        rows.push(row);
        let mut row = vec![lang.pick("Budget to approve", "申请批准的预算").to_owned(), money(a.nominal + extra)];
        with_vat(&mut row, a.nominal + extra);
        rows.push(row);
    }
    let widths: Vec<f32> = if vat.is_some() {
        vec![CONTENT_W * 0.31, CONTENT_W * 0.23, CONTENT_W * 0.23, CONTENT_W * 0.23]
    } else {
        vec![CONTENT_W * 0.5, CONTENT_W * 0.5]
    };
    cv.table(&widths, &header, &rows, 1);
    cv.note(&match (a.contingency, sim, lang) {
        (Some(_), Some(sim), Lang::En) => format!(
            "Contingency: the P80 of the option's nominal total across {} simulated trials less its stated total, so the budget covers four trials in five.",
            sim.trials
        ),
        (Some(_), Some(sim), Lang::Zh) => {
            format!("不可预见费：{} 次模拟中该方案名义总成本的 P80 减去按所列输入的总成本，使预算覆盖五分之四的模拟结果。", sim.trials)
        }
        (_, _, Lang::En) => "The scenario states no ranges, so no contingency is computed; a board may add a flat reserve.".to_owned(),
        (_, _, Lang::Zh) => "场景未给出输入区间，因此未计算不可预见费；董事会可另加固定比例的预备金。".to_owned(),
    });
    cv.space(10.0);
    cv.paragraph(lang.pick("VAT basis", "增值税口径"), 10.0, true, ACCENT);
    cv.space(4.0);
    let Some((v, stated)) = basis else {
        cv.paragraph(
            lang.pick(
                "The scenario states no VAT basis and its amounts are not in CNY: prices are compared as stated, without VAT added or removed.",
                "场景未给出增值税口径，且金额不以人民币计：价格按所列比较，未加计或扣除增值税。",
            ),
            9.5,
            false,
            INK,
        );
        return;
    };
    vat_table(cv, e, &v, lang);
    let source = if stated {
        lang.pick("the scenario's [vat] inputs", "场景的 [vat] 输入").to_owned()
    } else {
        match lang {
            Lang::En => format!("Suanli default for a buyer in China (amounts in CNY): {CN_RATES_SOURCE}"),
            Lang::Zh => "Suanli 默认值（金额以人民币计，视为中国买方）：《中华人民共和国增值税法》（2024 年 12 月 25 日通过，2026 年 1 月 1 日施行）第十条：货物 13%，第一、二项以外的服务 6%".to_owned(),
        }
    };
    let rates = match lang {
        Lang::En => format!(
            "Rates: {} on goods (servers, installation, maintenance, electricity, equipment sold at the horizon), {} on services (cloud rental, storage, bandwidth, hosting); none on the buyer's own staff. Prices are taken {}; input VAT is {}. Source: {source}.",
            format_percent(v.goods_rate, 0),
            format_percent(v.services_rate, 0),
            if v.prices_include_vat { "as including VAT" } else { "as net of VAT" },
            if v.recoverable {
                "recovered (a general taxpayer), so the net cost is compared"
            } else {
                "not recovered, so the cost with VAT is compared"
            },
        ),
        Lang::Zh => format!(
            "税率：货物（服务器、安装、维保、电力、期末出售的设备）{}，服务（云租用、存储、带宽、托管）{}；买方自有人员不涉及增值税。价格视为{}；进项税额{}。来源：{source}。",
            format_percent(v.goods_rate, 0),
            format_percent(v.services_rate, 0),
            if v.prices_include_vat { "含税" } else { "不含税" },
            if v.recoverable {
                "可以抵扣（一般纳税人），因此按不含税成本比较"
            } else {
                "不能抵扣，因此按含税成本比较"
            },
        ),
    };
    cv.note(&rates);
    cv.note(lang.pick(
        "Cloud rental is taken as a service; a lease of dedicated machines may instead be taxed as a lease of goods at the goods rate. Confirm with the provider's invoices.",
        "云租用按服务计税；若为专属物理机租赁，可能按有形动产租赁适用货物税率，请以服务商开具的发票为准。",
    ));
}

/// Every option's nominal total split into net and VAT, with the cost the
/// buyer bears, cheapest on that basis first.
fn vat_table(cv: &mut Canvas, e: &Evaluation, v: &Vat, lang: Lang) {
    let c = e.currency;
    let money = |x: f64| format_amount(x, c, lang);
    let mut splits: Vec<(&OptionResult, VatSplit)> = e.options.iter().map(|o| (o, split_option(v, o))).collect();
    splits.sort_by(|a, b| a.1.borne(v).total_cmp(&b.1.borne(v)));
    let header = [
        lang.pick("Option", "方案"),
        lang.pick("Net of VAT", "不含税"),
        lang.pick("VAT on goods", "货物增值税"),
        lang.pick("VAT on services", "服务增值税"),
        lang.pick("With VAT", "含税"),
        lang.pick("Borne by the buyer", "买方实际承担"),
    ]
    .map(str::to_owned);
    let rows: Vec<Vec<String>> = splits
        .iter()
        .map(|(o, sp)| {
            vec![
                for_lang(&o.label, lang),
                money(sp.net),
                money(sp.vat_goods),
                money(sp.vat_services),
                money(sp.gross()),
                money(sp.borne(v)),
            ]
        })
        .collect();
    cv.table(
        &[CONTENT_W * 0.25, CONTENT_W * 0.15, CONTENT_W * 0.15, CONTENT_W * 0.15, CONTENT_W * 0.15, CONTENT_W * 0.15],
        &header,
        &rows,
        1,
    );
}

/// Short month names for a fiscal year's part.
const MONTHS_EN: [&str; 12] = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/// Year and month of a `YYYY-MM-DD` date.
fn year_month(date: &str) -> Option<(i32, u32)> {
    let mut parts = date.trim().split('-');
    let year = parts.next()?.parse().ok()?;
    let month = parts.next()?.parse().ok().filter(|m| (1..=12).contains(m))?;
    Some((year, month))
}

/// The horizon's months grouped into rows: by fiscal (calendar) year from
/// `start`, else by horizon year. Each row: its name and months `from..to`.
fn years(months: usize, start: Option<(i32, u32)>, lang: Lang) -> Vec<(String, usize, usize)> {
    let Some((mut year, month)) = start else {
        return (0..months)
            .step_by(12)
            .enumerate()
            .map(|(i, from)| {
                let to = (from + 12).min(months);
                (year_name(i + 1, to - from, lang), from, to)
            })
            .collect();
    };
    let mut out = Vec::new();
    let (mut from, mut first) = (0, month as usize);
    while from < months {
        let to = (from + 13 - first).min(months);
        let last = first + (to - from) - 1;
        out.push((fiscal_year_name(year, first, last, lang), from, to));
        (from, first, year) = (to, 1, year + 1);
    }
    out
}

/// "FY2027", or "FY2026 (Nov–Dec)" for part of one.
fn fiscal_year_name(year: i32, first: usize, last: usize, lang: Lang) -> String {
    match (first, last, lang) {
        (1, 12, Lang::En) => format!("FY{year}"),
        (1, 12, Lang::Zh) => format!("{year} 财年"),
        (a, b, Lang::En) if a == b => format!("FY{year} ({})", MONTHS_EN[a - 1]),
        (a, b, Lang::En) => format!("FY{year} ({}–{})", MONTHS_EN[a - 1], MONTHS_EN[b - 1]),
        (a, b, Lang::Zh) if a == b => format!("{year} 财年（{a} 月）"),
        (a, b, Lang::Zh) => format!("{year} 财年（{a}–{b} 月）"),
    }
}

fn year_name(n: usize, months: usize, lang: Lang) -> String {
    match (lang, months) {
        (Lang::Zh, 12) => format!("第 {n} 年"),
        (Lang::Zh, m) => format!("第 {n} 年（{m} 个月）"),
        (Lang::En, 12) => format!("Year {n}"),
        (Lang::En, m) => format!("Year {n} ({m} months)"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_horizon_from_november_falls_into_calendar_fiscal_years() {
        let rows = years(36, year_month("2026-11-30"), Lang::En);
        let got: Vec<(&str, usize, usize)> = rows.iter().map(|(n, a, b)| (n.as_str(), *a, *b)).collect();
        assert_eq!(
            got,
            [("FY2026 (Nov–Dec)", 0, 2), ("FY2027", 2, 14), ("FY2028", 14, 26), ("FY2029 (Jan–Oct)", 26, 36)]
        );
        let zh = years(3, year_month("2026-12-04"), Lang::Zh);
        assert_eq!(zh[0].0, "2026 财年（12 月）");
        assert_eq!(zh[1].0, "2027 财年（1–2 月）");
        // Without a date: horizon years.
        assert_eq!(years(18, year_month(""), Lang::En)[1].0, "Year 2 (6 months)");
    }
}

//! Each sheet's rows: Inputs, Cost lines, Monthly, Summary, Comparison,
//! Breakdown, By year and Assumptions, with the helpers only they use.

use rust_xlsxwriter::utility::row_col_to_cell;
use suanli_model::business::FlowKind;
use suanli_model::uncertainty::{OwnedField, Param, PortingField, RentalPool};
use suanli_model::{Category, Evaluation, Lang, Scenario, round_money, round_quantity, round_unit_price};

use crate::labels::for_lang;

use super::{Book, Cell, Sheet, cell_ref, constant, line_cell, range_ref, sum_of};

/// The unit of a money input, in the currency it is given in.
fn unit(p: Param, s: &Scenario, lang: Lang) -> String {
    let c = s.currency;
    let option = p.option_index().and_then(|i| s.options.get(i));
    let owned = option.and_then(|o| o.owned.as_ref()).and_then(|p| p.currency).unwrap_or(c);
    match p {
        Param::Fx(from) => format!("{c} / {from}"),
        Param::Porting(PortingField::EngineerMonthCost) => {
            let pc = s.porting.as_ref().and_then(|p| p.currency).unwrap_or(c);
            format!("{pc} {}", lang.pick("per engineer-month", "每人月"))
        }
        Param::Porting(_) => {
            let pc = s.porting.as_ref().and_then(|p| p.currency).unwrap_or(c);
            format!("{pc} {}", lang.pick("per reference-GPU-hour", "每参考卡时"))
        }
        Param::Owned { field, .. } => match field {
            OwnedField::ColocationPerKwMonth => format!("{owned} {}", lang.pick("per kW-month", "每千瓦每月")),
            OwnedField::ElectricityPerKwh => format!("{owned} {}", lang.pick("per kWh", "每千瓦时")),
            OwnedField::StaffPerYear | OwnedField::OtherOpexPerYear => {
                format!("{owned} {}", lang.pick("per year", "每年"))
            }
            OwnedField::MaintenanceSharePerYear => {
                lang.pick("share of hardware per year (0.05 = 5 %)", "每年占硬件成本的比例（0.05 = 5%）").to_owned()
            }
            OwnedField::CapexPerServer => format!("{owned} {}", lang.pick("per server", "每台服务器")),
            _ => owned.to_string(),
        },
        Param::Rental { pool, .. } => {
            let rc = option
                .and_then(|o| match pool {
                    RentalPool::OnDemand => o.on_demand.as_ref().and_then(|p| p.currency),
                    RentalPool::Reserved => o.reserved.as_ref().and_then(|p| p.currency),
                    RentalPool::Spot => o.spot.as_ref().and_then(|p| p.currency),
                })
                .unwrap_or(c);
            format!("{rc} {}", lang.pick("per accelerator-hour", "每卡时"))
        }
        Param::DemandScale | Param::DiscountRate | Param::Option { .. } => String::new(),
    }
}

/// The source of a money input.
fn input_source(p: Param, s: &Scenario, lang: Lang) -> String {
    let path = p.path(s);
    match p.option_index().and_then(|i| s.options.get(i)) {
        Some(spec) => {
            let within = path.splitn(3, '.').nth(2).unwrap_or_default();
            crate::assumptions::option_source(spec, within, lang)
        }
        None if matches!(p, Param::Fx(_)) => crate::assumptions::fx_source(s, lang),
        None => lang.pick("user assumption", "用户假设").to_owned(),
    }
}

fn header(cells: &[String]) -> Vec<Cell> {
    cells.iter().cloned().map(Cell::Text).collect()
}

/// The Monthly sheet's discount-factor column (after the options').
fn discount_factor_col(e: &Evaluation) -> usize {
    e.options.len() + 1
}

/// The Monthly sheet's column of option `i`, months 1 to the horizon.
fn monthly_col(b: &Book<'_>, i: usize) -> String {
    let h = b.e.horizon_months as usize;
    range_ref(Sheet::Monthly, b.lang, (1, i + 1), (h, i + 1))
}

/// The Inputs sheet: the discount rate and every money input, with unit and source.
pub(super) fn inputs_sheet(b: &Book<'_>) -> Vec<Vec<Cell>> {
    let Book { s, drivers, lang, .. } = *b;
    let text = |x: &str| Cell::Text(x.to_owned());
    let mut inputs = vec![header(&[
        lang.pick("Input", "输入").to_owned(),
        lang.pick("Value (change me)", "取值（可修改）").to_owned(),
        lang.pick("Unit", "单位").to_owned(),
        lang.pick("Source", "来源").to_owned(),
        lang.pick("Name in formulas", "公式中的名称").to_owned(),
    ])];
    inputs.push(vec![
        text(&crate::labels::input("discount_rate_annual", s, lang)),
        Cell::Input(s.discount_rate_annual),
        text(lang.pick("per year, as a fraction (0.08 = 8 %)", "每年，以小数表示（0.08 = 8%）")),
        text(lang.pick("user assumption", "用户假设")),
        text(&b.names[0]),
    ]);
    for (i, d) in drivers.iter().enumerate() {
        inputs.push(vec![
            Cell::Text(crate::labels::input(&d.param.path(s), s, lang)),
            Cell::Input(d.value),
            Cell::Text(unit(d.param, s, lang)),
            Cell::Text(input_source(d.param, s, lang)),
            Cell::Text(b.names[1 + i].clone()),
        ]);
    }
    inputs.push(vec![Cell::Empty]);
    inputs.push(vec![text(lang.pick(
        "Change a value in the second column: the cost lines, the monthly and yearly cash flows, the breakdown and the comparison recompute. Inputs not listed here (the workload, counts, utilisation, terms) change quantities: change them in Suanli and export again. The break-even month is as exported.",
        "修改第二列的取值，成本明细、月度与逐年现金流、成本构成和方案比较会随之重算。未列于此的输入（工作负载、数量、利用率、期限等）改变的是用量：请在算力中修改后重新导出。盈亏平衡月为导出时的结果。",
    ))]);
    inputs
}

/// The Cost lines sheet: one row per option and category, a formula per month.
pub(super) fn lines_sheet(b: &Book<'_>) -> Vec<Vec<Cell>> {
    let Book { s, e, drivers, layout, lang, .. } = *b;
    let c = e.currency;
    let h = e.horizon_months as usize;
    let text = |x: &str| Cell::Text(x.to_owned());
    let money = |x: f64| round_money(x, c);
    let month_header = |m: usize| format!("{} {}", lang.pick("Month", "第"), m + 1) + lang.pick("", " 月");
    let mut lines = vec![header(
        &[
            lang.pick("Option", "方案").to_owned(),
            lang.pick("Category", "类别").to_owned(),
            lang.pick("Kind", "性质").to_owned(),
            lang.pick("Moved by", "随之变动的输入").to_owned(),
            format!("{} ({c})", lang.pick("Total", "合计")),
        ]
        .into_iter()
        .chain((0..h).map(month_header))
        .collect::<Vec<_>>(),
    )];
    for (r, l) in b.all.iter().enumerate() {
        let o = &e.options[l.option];
        let moved: Vec<usize> = l.factors.iter().copied().chain(l.terms.iter().map(|(d, _)| *d)).collect();
        let moved = if moved.is_empty() {
            lang.pick("no input on the Inputs sheet", "可修改输入表中无").to_owned()
        } else {
            moved
                .iter()
                .map(|d| crate::labels::input(&drivers[*d].param.path(s), s, lang))
                .collect::<Vec<_>>()
                .join(lang.pick("; ", "；"))
        };
        let row = r + 1;
        let total = range_ref(Sheet::Lines, lang, (row, layout.month_col(0)), (row, layout.month_col(h - 1)));
        let mut cells = vec![
            Cell::Text(for_lang(&o.label, lang)),
            text(l.category.label(lang)),
            text(flow_kind(l.category.flow_kind(), lang)),
            Cell::Text(moved),
            Cell::Formula { formula: format!("=SUM({total})"), value: money(o.breakdown(l.category)) },
        ];
        cells.extend((0..h).map(|m| line_cell(l, drivers, m, b.names, money(l.figures[m]))));
        lines.push(cells);
    }
    lines
}

/// The Monthly sheet: each option's month as the sum of its lines, and the discount factor.
pub(super) fn monthly_sheet(b: &Book<'_>) -> Vec<Vec<Cell>> {
    let Book { s, e, layout, lang, .. } = *b;
    let c = e.currency;
    let h = e.horizon_months as usize;
    let money = |x: f64| round_money(x, c);
    let discount = &b.names[0];
    let mut monthly = vec![header(
        &std::iter::once(lang.pick("Month", "月份").to_owned())
            .chain(e.options.iter().map(|o| format!("{} ({c})", for_lang(&o.label, lang))))
            .chain(std::iter::once(lang.pick("Discount factor", "折现系数").to_owned()))
            .collect::<Vec<_>>(),
    )];
    for m in 0..h {
        let mut row = vec![Cell::Whole(m as u32 + 1)];
        for (i, o) in e.options.iter().enumerate() {
            row.push(Cell::Formula {
                formula: format!("={}", sum_of(&layout.cells(i, m..m + 1, |_| true))),
                value: money(o.monthly.month(m).total()),
            });
        }
        row.push(Cell::Formula {
            formula: format!("=(1+{discount})^(-(A{}-1)/12)", m + 2),
            value: suanli_model::finance::discount_factor(s.discount_rate_annual, m),
        });
        monthly.push(row);
    }
    monthly
}

/// The Summary sheet: the scenario, the option with the lowest net present
/// cost and each option's totals beside it, all formulas over the
/// Comparison sheet (so they follow an edited input).
pub(super) fn summary_sheet(b: &Book<'_>) -> Vec<Vec<Cell>> {
    let Book { s, e, lang, .. } = *b;
    let c = e.currency;
    let money = |x: f64| round_money(x, c);
    let text = |x: &str| Cell::Text(x.to_owned());
    let n = e.options.len().max(1);
    let column = |col: usize| range_ref(Sheet::Comparison, lang, (1, col), (n, col));
    let comparison = |row: usize, col: usize| cell_ref(Sheet::Comparison, lang, row, col);
    let lowest = e.options.iter().min_by(|a, b| a.total_npv.total_cmp(&b.total_npv));
    let min_npv = lowest.map_or(0.0, |o| money(o.total_npv));
    let mut rows = vec![
        vec![text(&for_lang(&s.name, lang)), Cell::Empty],
        vec![text(lang.pick("Currency", "币种")), text(c.code())],
        vec![text(lang.pick("Horizon (months)", "评估期（月）")), Cell::Whole(e.horizon_months)],
        vec![
            text(lang.pick("Discount rate (annual)", "年折现率")),
            Cell::Formula { formula: format!("={}", b.names[0]), value: s.discount_rate_annual },
        ],
        vec![
            text(lang.pick("Lowest net present cost (of all options)", "净现值最低的方案（全部方案中）")),
            Cell::TextFormula {
                formula: format!("=INDEX({},MATCH(MIN({}),{},0))", column(0), column(3), column(3)),
                text: lowest.map_or_else(String::new, |o| for_lang(&o.label, lang)),
            },
        ],
        vec![
            text(&format!("{} ({c})", lang.pick("Its net present cost", "其净现值"))),
            Cell::Formula { formula: format!("=MIN({})", column(3)), value: min_npv },
        ],
        vec![Cell::Empty],
        vec![
            text(lang.pick("Option", "方案")),
            text(&format!("{} ({c})", lang.pick("Total NPV", "净现值总成本"))),
            text(&format!("{} ({c})", lang.pick("Total nominal", "名义总成本"))),
            text(&format!("{} ({c})", lang.pick("Above the lowest NPV", "高出最低净现值"))),
        ],
    ];
    for (i, o) in e.options.iter().enumerate() {
        let npv = comparison(i + 1, 3);
        rows.push(vec![
            Cell::Text(for_lang(&o.label, lang)),
            Cell::Formula { formula: format!("={npv}"), value: money(o.total_npv) },
            Cell::Formula { formula: format!("={}", comparison(i + 1, 2)), value: money(o.total_nominal) },
            Cell::Formula { formula: format!("={npv}-MIN({})", column(3)), value: money(o.total_npv) - min_npv },
        ]);
    }
    rows.push(vec![Cell::Empty]);
    rows.push(vec![text(lang.pick(
        "Every figure here recomputes when a value on the Inputs sheet changes. The proposal's recommendation also weighs supply risk and time to result (see the proposal).",
        "修改“可修改输入”表中的取值后，本表各数字随之重算。建议书中的推荐还考虑了供应风险与出结果的时间（见建议书）。",
    ))]);
    rows
}

/// The Comparison sheet: totals (nominal and NPV) over the Monthly sheet, and the price per reference-GPU-hour.
pub(super) fn comparison_sheet(b: &Book<'_>) -> Vec<Vec<Cell>> {
    let Book { e, layout, lang, .. } = *b;
    let c = e.currency;
    let h = e.horizon_months as usize;
    let money = |x: f64| round_money(x, c);
    let factor_col = discount_factor_col(e);
    let mut comparison = vec![header(&[
        lang.pick("Option", "方案").to_owned(),
        lang.pick("Kind", "类型").to_owned(),
        format!("{} ({c})", lang.pick("Total nominal", "名义总成本")),
        format!("{} ({c})", lang.pick("Total NPV", "净现值总成本")),
        format!("{} ({c})", lang.pick("Per reference-GPU-hour", "每参考卡时")),
        lang.pick("Reference-GPU-hours served", "有效参考卡时").to_owned(),
        lang.pick("Break-even month (as exported)", "盈亏平衡月（导出时）").to_owned(),
    ])];
    for (i, o) in e.options.iter().enumerate() {
        let compute: f64 = Category::ALL.iter().filter(|k| k.is_compute()).map(|k| o.breakdown(*k)).sum();
        // The hours the effective price divides by (served, less any bridged by the incumbent).
        let per_hour = match o.effective_price_per_ref_gpu_hour {
            Some(p) if p > 0.0 => Cell::Price(Box::new(Cell::Formula {
                formula: format!(
                    "={}/{}",
                    sum_of(&layout.totals(i, |l| l.category.is_compute())),
                    constant(compute / p)
                ),
                value: round_unit_price(p),
            })),
            Some(p) => Cell::Price(Box::new(Cell::Number(round_unit_price(p)))),
            None => Cell::Empty,
        };
        comparison.push(vec![
            Cell::Text(for_lang(&o.label, lang)),
            Cell::Text(crate::labels::value(kind_key(o.kind), lang)),
            Cell::Formula { formula: format!("=SUM({})", monthly_col(b, i)), value: money(o.total_nominal) },
            Cell::Formula {
                formula: format!(
                    "=SUMPRODUCT({},{})",
                    monthly_col(b, i),
                    range_ref(Sheet::Monthly, lang, (1, factor_col), (h, factor_col))
                ),
                value: money(o.total_npv),
            },
            per_hour,
            Cell::Number(round_quantity(o.ref_gpu_hours_served)),
            o.break_even.as_ref().and_then(|b| b.month).map_or(Cell::Empty, Cell::Whole),
        ]);
    }
    comparison
}

/// The Breakdown sheet: each option's total by category.
pub(super) fn breakdown_sheet(b: &Book<'_>) -> Vec<Vec<Cell>> {
    let Book { e, layout, lang, .. } = *b;
    let c = e.currency;
    let money = |x: f64| round_money(x, c);
    let cats: Vec<Category> =
        Category::ALL.iter().copied().filter(|cat| e.options.iter().any(|o| o.breakdown(*cat) != 0.0)).collect();
    let mut breakdown = vec![header(
        &std::iter::once(lang.pick("Option", "方案").to_owned())
            .chain(cats.iter().map(|cat| format!("{} ({c})", cat.label(lang))))
            .chain(std::iter::once(format!("{} ({c})", lang.pick("Total", "合计"))))
            .collect::<Vec<_>>(),
    )];
    for (i, o) in e.options.iter().enumerate() {
        let mut row = vec![Cell::Text(for_lang(&o.label, lang))];
        for cat in &cats {
            row.push(Cell::Formula {
                formula: format!("={}", sum_of(&layout.totals(i, |l| l.category == *cat))),
                value: money(o.breakdown(*cat)),
            });
        }
        let r = breakdown.len() as u32;
        row.push(if cats.is_empty() {
            Cell::Number(money(o.total_nominal))
        } else {
            Cell::Formula {
                formula: format!("=SUM({}:{})", row_col_to_cell(r, 1), row_col_to_cell(r, cats.len() as u16)),
                value: money(o.total_nominal),
            }
        });
        breakdown.push(row);
    }
    breakdown
}

/// The By year sheet: capital, one-off, recurring and money back by option and year.
pub(super) fn yearly_sheet(b: &Book<'_>) -> Vec<Vec<Cell>> {
    let Book { e, layout, lang, .. } = *b;
    let c = e.currency;
    let money = |x: f64| round_money(x, c);
    let mut yearly = vec![header(&[
        lang.pick("Option", "方案").to_owned(),
        lang.pick("Year", "年度").to_owned(),
        lang.pick("Months", "月数").to_owned(),
        format!("{} ({c})", lang.pick("Capital", "资本支出")),
        format!("{} ({c})", lang.pick("One-off", "一次性支出")),
        format!("{} ({c})", lang.pick("Recurring", "经常性支出")),
        format!("{} ({c})", lang.pick("Money back", "残值收回")),
        format!("{} ({c})", lang.pick("Total", "合计")),
    ])];
    for (i, o) in e.options.iter().enumerate() {
        for y in suanli_model::business::by_year(o) {
            let first = (y.year as usize - 1) * 12;
            let months = first..first + y.months as usize;
            let of = |kind: FlowKind, value: f64| Cell::Formula {
                formula: format!("={}", sum_of(&layout.cells(i, months.clone(), |l| l.category.flow_kind() == kind))),
                value: money(value),
            };
            let r = yearly.len() + 1;
            yearly.push(vec![
                Cell::Text(for_lang(&o.label, lang)),
                Cell::Whole(y.year),
                Cell::Whole(y.months),
                of(FlowKind::Capital, y.capital),
                of(FlowKind::OneOff, y.one_off),
                of(FlowKind::Recurring, y.recurring),
                of(FlowKind::Residual, y.residual),
                Cell::Formula { formula: format!("=SUM(D{r}:G{r})"), value: money(y.total()) },
            ]);
        }
    }
    yearly
}

/// The Assumptions sheet: every input, as text, with its source.
pub(super) fn assumptions_sheet(s: &Scenario, names: &crate::Names, lang: Lang) -> Vec<Vec<Cell>> {
    let text = |x: &str| Cell::Text(x.to_owned());
    let mut assumptions = vec![vec![
        text(lang.pick("Input", "输入")),
        text(lang.pick("Value", "取值")),
        text(lang.pick("Source", "来源")),
    ]];
    assumptions
        .extend(crate::assumptions::rows(s, names, lang).into_iter().map(|r| r.into_iter().map(Cell::Text).collect()));
    assumptions
}

fn kind_key(kind: suanli_model::OptionKind) -> &'static str {
    match kind {
        suanli_model::OptionKind::Buy => "buy",
        suanli_model::OptionKind::Rent => "rent",
        suanli_model::OptionKind::Mix => "mix",
    }
}

fn flow_kind(kind: FlowKind, lang: Lang) -> &'static str {
    match kind {
        FlowKind::Capital => lang.pick("capital", "资本支出"),
        FlowKind::OneOff => lang.pick("one-off", "一次性支出"),
        FlowKind::Recurring => lang.pick("recurring", "经常性支出"),
        FlowKind::Residual => lang.pick("money back", "残值收回"),
    }
}

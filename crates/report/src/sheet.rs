//! The spreadsheet a purchasing team works in, eight sheets: Summary,
//! Comparison, Inputs, Breakdown, Monthly, By year, Cost lines and
//! Assumptions. The costs are formulas that recompute from the Inputs
//! sheet, whose cells are named (`discount_rate`,
//! `rent_on_demand_price_per_accel_hour`), each cached with the engine's
//! figure. As XLSX (formatted, header row and first column frozen, set up
//! to print on A4 landscape, one page wide) and as CSV files (the cached
//! figures).

use rust_xlsxwriter::utility::{quote_sheet_name, row_col_to_cell, row_col_to_cell_absolute};
use rust_xlsxwriter::{Format, Formula, Workbook, XlsxError};
use suanli_model::business::FlowKind;
use suanli_model::cost_lines::{CostLines, Driver, Line};
use suanli_model::uncertainty::{OwnedField, Param, PortingField, RentalPool};
use suanli_model::{Category, Evaluation, Lang, Scenario, round_money, round_quantity, round_unit_price};

use crate::ReportError;
use crate::labels::for_lang;

/// One cell of a table (numbers where they are numbers).
#[derive(Debug, Clone, PartialEq)]
pub enum Cell {
    /// Text: a header, a label, a unit, a source.
    Text(String),
    /// A figure (two decimals in the XLSX; four inside [`Cell::Price`]).
    Number(f64),
    /// A whole number (a month, a year, a count of months).
    Whole(u32),
    /// An input a user may change (the Inputs sheet's values).
    Input(f64),
    /// A formula, with the engine's figure as its cached result.
    Formula {
        /// The formula, with its leading `=`.
        formula: String,
        /// The engine's figure.
        value: f64,
    },
    /// A formula whose result is text (the option with the lowest cost).
    TextFormula {
        /// The formula, with its leading `=`.
        formula: String,
        /// Its result as exported.
        text: String,
    },
    /// A price per unit (four decimals, as the reports give it).
    Price(Box<Cell>),
    /// No value.
    Empty,
}

impl Cell {
    /// The figure a reader sees (a formula's cached result).
    pub fn value(&self) -> Option<f64> {
        match self {
            Cell::Number(x) | Cell::Input(x) | Cell::Formula { value: x, .. } => Some(*x),
            Cell::Whole(n) => Some(f64::from(*n)),
            Cell::Price(inner) => inner.value(),
            Cell::Text(_) | Cell::TextFormula { .. } | Cell::Empty => None,
        }
    }
}

/// The workbook's eight tables, one per sheet, each as rows of cells with
/// a header row first, and the names of the Inputs sheet's cells.
pub struct Tables {
    /// The scenario, what the comparison finds, and each option's totals
    /// beside the lowest (formulas over the Comparison sheet).
    pub summary: Vec<Vec<Cell>>,
    /// Each option's kind, totals (nominal and NPV), price per reference-GPU-hour,
    /// reference-GPU-hours served and break-even month.
    pub comparison: Vec<Vec<Cell>>,
    /// The discount rate and the money inputs: the cells every formula of
    /// the workbook leads back to.
    pub inputs: Vec<Vec<Cell>>,
    /// Each option's nominal cost per category, and its total.
    pub breakdown: Vec<Vec<Cell>>,
    /// Each option's cost per month, and the month's discount factor.
    pub monthly: Vec<Vec<Cell>>,
    /// Each option's cash flow by year and kind (capital, one-off,
    /// recurring, money back), as the proposal's business case gives it.
    pub yearly: Vec<Vec<Cell>>,
    /// Each option's cost per category and month: formulas of the inputs
    /// where an input moves the month's figure, the figure otherwise.
    pub lines: Vec<Vec<Cell>>,
    /// Every input of the scenario as text, with its value and source.
    pub assumptions: Vec<Vec<Cell>>,
    /// The name of each Inputs cell the formulas read, from the discount
    /// rate's row down.
    pub input_names: Vec<String>,
}

/// A sheet's name in a language (formulas name the sheets they read).
fn sheet_name(sheet: Sheet, lang: Lang) -> &'static str {
    match sheet {
        Sheet::Summary => lang.pick("Summary", "摘要"),
        Sheet::Comparison => lang.pick("Comparison", "方案比较"),
        Sheet::Inputs => lang.pick("Inputs", "可修改输入"),
        Sheet::Breakdown => lang.pick("Breakdown", "成本构成"),
        Sheet::Monthly => lang.pick("Monthly", "月度现金流"),
        Sheet::Yearly => lang.pick("By year", "逐年现金流"),
        Sheet::Lines => lang.pick("Cost lines", "成本明细"),
        Sheet::Assumptions => lang.pick("Assumptions", "输入与来源"),
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Sheet {
    Summary,
    Comparison,
    Inputs,
    Breakdown,
    Monthly,
    Yearly,
    Lines,
    Assumptions,
}

impl Tables {
    /// Every table in workbook order, with its sheet name and CSV file name.
    fn sheets(&self, lang: Lang) -> [(&'static str, &'static str, &Vec<Vec<Cell>>); 8] {
        let at = |sheet| sheet_name(sheet, lang);
        [
            (at(Sheet::Summary), "summary.csv", &self.summary),
            (at(Sheet::Comparison), "comparison.csv", &self.comparison),
            (at(Sheet::Inputs), "inputs.csv", &self.inputs),
            (at(Sheet::Breakdown), "breakdown.csv", &self.breakdown),
            (at(Sheet::Monthly), "monthly.csv", &self.monthly),
            (at(Sheet::Yearly), "yearly.csv", &self.yearly),
            (at(Sheet::Lines), "cost-lines.csv", &self.lines),
            (at(Sheet::Assumptions), "assumptions.csv", &self.assumptions),
        ]
    }
}

impl std::fmt::Debug for Tables {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tables").field("comparison_rows", &self.comparison.len()).finish()
    }
}

/// A reference to a cell of another sheet (`'Cost lines'!$F$3`).
fn cell_ref(sheet: Sheet, lang: Lang, row: usize, col: usize) -> String {
    format!("{}!{}", quote_sheet_name(sheet_name(sheet, lang)), row_col_to_cell_absolute(row as u32, col as u16))
}

/// A range of another sheet (`'Monthly'!$B$2:$B$37`).
fn range_ref(sheet: Sheet, lang: Lang, (r0, c0): (usize, usize), (r1, c1): (usize, usize)) -> String {
    format!(
        "{}!{}:{}",
        quote_sheet_name(sheet_name(sheet, lang)),
        row_col_to_cell_absolute(r0 as u32, c0 as u16),
        row_col_to_cell_absolute(r1 as u32, c1 as u16)
    )
}

/// A constant in a formula, to 12 significant digits: what the engine's
/// arithmetic leaves past them is rounding noise (`0.30000000000000004`
/// is written `0.3`, `5839.999999999999` is `5840`).
fn constant(x: f64) -> String {
    let rounded: f64 = format!("{x:.11e}").parse().unwrap_or(x);
    format!("{rounded}")
}

/// The name of an input's cell in formulas: its path in letters, digits and
/// underscores (`options.rent-a100.on_demand.price_per_accel_hour` →
/// `rent_a100_on_demand_price_per_accel_hour`), unique among `taken`.
fn input_name(path: &str, taken: &[String]) -> String {
    let path = path.strip_prefix("options.").unwrap_or(path);
    let mut name = String::with_capacity(path.len());
    for c in path.chars() {
        let c = if c.is_ascii_alphanumeric() { c.to_ascii_lowercase() } else { '_' };
        if !(c == '_' && (name.is_empty() || name.ends_with('_'))) {
            name.push(c);
        }
    }
    let mut name = name.trim_end_matches('_').to_owned();
    // A name may not start with a digit nor read as a cell (`a1`, `r1c1`).
    if !name.starts_with(|c: char| c.is_ascii_alphabetic()) || name.len() < 4 {
        name = format!("in_{name}");
    }
    name.truncate(200);
    let mut unique = name.clone();
    let mut n = 2;
    while taken.contains(&unique) {
        unique = format!("{name}_{n}");
        n += 1;
    }
    unique
}

/// `SUM(a,b,…)` of references, or `0` when there are none.
fn sum_of(refs: &[String]) -> String {
    if refs.is_empty() { "0".into() } else { format!("SUM({})", refs.join(",")) }
}

/// Where each option's lines sit on the Cost lines sheet.
struct Layout<'a> {
    lang: Lang,
    /// (row on the Cost lines sheet, line), by option.
    rows: Vec<Vec<(usize, &'a Line)>>,
}

/// Columns of the Cost lines sheet before the months.
const LINE_LEAD: usize = 5;
/// The Inputs sheet's row of the discount rate; drivers follow it.
const DISCOUNT_ROW: usize = 1;

impl Layout<'_> {
    fn month_col(&self, m: usize) -> usize {
        LINE_LEAD + m
    }

    /// The Cost lines cells of option `o` in months `months`, for lines of `keep`.
    fn cells(&self, o: usize, months: std::ops::Range<usize>, keep: impl Fn(&Line) -> bool) -> Vec<String> {
        self.rows[o]
            .iter()
            .filter(|(_, l)| keep(l))
            .map(|(r, _)| {
                range_ref(
                    Sheet::Lines,
                    self.lang,
                    (*r, self.month_col(months.start)),
                    (*r, self.month_col(months.end - 1)),
                )
            })
            .collect()
    }

    /// The Cost lines total of each of option `o`'s lines that `keep` keeps.
    fn totals(&self, o: usize, keep: impl Fn(&Line) -> bool) -> Vec<String> {
        self.rows[o].iter().filter(|(_, l)| keep(l)).map(|(r, _)| cell_ref(Sheet::Lines, self.lang, *r, 4)).collect()
    }
}

/// One month of a cost line as a formula of the Inputs sheet, or its
/// figure when no input moves it that month.
fn line_cell(line: &Line, drivers: &[Driver], m: usize, names: &[String], value: f64) -> Cell {
    let input = |d: usize| names[1 + d].clone();
    let mut sum: Vec<String> = line
        .terms
        .iter()
        .filter(|(_, k)| k[m] != 0.0)
        .map(|(d, k)| if k[m] == 1.0 { input(*d) } else { format!("{}*{}", constant(k[m]), input(*d)) })
        .collect();
    if line.rest[m] != 0.0 {
        sum.push(constant(line.rest[m]));
    }
    if line.is_fixed() || sum.is_empty() {
        return Cell::Number(value);
    }
    let sum = sum.join("+").replace("+-", "-");
    let formula = if line.factors.is_empty() {
        format!("={sum}")
    } else {
        let scale: Vec<String> =
            line.factors.iter().map(|&f| format!("{}/{}", input(f), constant(drivers[f].pivot))).collect();
        format!("={}*({sum})", scale.join("*"))
    };
    Cell::Formula { formula, value }
}

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

/// The tables of a workbook, with the cost lines measured from the engine
/// ([`suanli_model::cost_lines`]) as formulas of the Inputs sheet; refused
/// when a number is not finite (a spreadsheet cell would show it as an
/// error or as a plausible figure).
pub fn tables(
    s: &Scenario,
    e: &Evaluation,
    measured: &CostLines,
    names: &crate::Names,
    lang: Lang,
) -> Result<Tables, ReportError> {
    let drivers = &measured.drivers;
    // Every non-zero line of the evaluation; as measured where it was.
    let fixed_lines: Vec<Line> = e
        .options
        .iter()
        .enumerate()
        .flat_map(|(o, r)| Category::ALL.into_iter().map(move |cat| (o, r, cat)))
        .filter(|(o, r, cat)| {
            r.breakdown(*cat) != 0.0 && !measured.lines.iter().any(|l| l.option == *o && l.category == *cat)
        })
        .map(|(o, r, cat)| Line::fixed(o, cat, r.monthly.iter().map(|m| m.get(cat)).collect()))
        .collect();
    let mut all: Vec<&Line> =
        measured.lines.iter().filter(|l| l.option < e.options.len()).chain(&fixed_lines).collect();
    all.sort_by_key(|l| (l.option, Category::ALL.iter().position(|c| *c == l.category)));
    let mut layout = Layout { lang, rows: vec![Vec::new(); e.options.len()] };
    for (i, l) in all.iter().enumerate() {
        layout.rows[l.option].push((1 + i, *l));
    }

    let mut input_names = vec!["discount_rate".to_owned()];
    for d in drivers {
        let name = input_name(&d.param.path(s), &input_names);
        input_names.push(name);
    }
    let b = Book { s, e, drivers, layout: &layout, all: &all, lang, names: &input_names };
    let tables = Tables {
        summary: summary_sheet(&b),
        comparison: comparison_sheet(&b),
        inputs: inputs_sheet(&b),
        breakdown: breakdown_sheet(&b),
        monthly: monthly_sheet(&b),
        yearly: yearly_sheet(&b),
        lines: lines_sheet(&b),
        assumptions: assumptions_sheet(s, names, lang),
        input_names: input_names.clone(),
    };
    for (sheet, _, rows) in tables.sheets(lang) {
        for (r, row) in rows.iter().enumerate() {
            for (c, cell) in row.iter().enumerate() {
                if cell.value().is_some_and(|x| !x.is_finite()) {
                    return Err(ReportError::NonFiniteCell { sheet: sheet.to_string(), row: r + 1, column: c + 1 });
                }
            }
        }
    }
    Ok(tables)
}

/// What each sheet is built from: the results, the measured inputs, and
/// where each cost line sits on the Cost lines sheet.
#[derive(Clone, Copy)]
struct Book<'a> {
    s: &'a Scenario,
    e: &'a Evaluation,
    drivers: &'a [Driver],
    layout: &'a Layout<'a>,
    /// Every line, in the order of the Cost lines sheet.
    all: &'a [&'a Line],
    lang: Lang,
    /// The Inputs cells' names, the discount rate's first.
    names: &'a [String],
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
fn inputs_sheet(b: &Book<'_>) -> Vec<Vec<Cell>> {
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
fn lines_sheet(b: &Book<'_>) -> Vec<Vec<Cell>> {
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
fn monthly_sheet(b: &Book<'_>) -> Vec<Vec<Cell>> {
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
                value: money(o.monthly[m].total()),
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
fn summary_sheet(b: &Book<'_>) -> Vec<Vec<Cell>> {
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
fn comparison_sheet(b: &Book<'_>) -> Vec<Vec<Cell>> {
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
fn breakdown_sheet(b: &Book<'_>) -> Vec<Vec<Cell>> {
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
fn yearly_sheet(b: &Book<'_>) -> Vec<Vec<Cell>> {
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
fn assumptions_sheet(s: &Scenario, names: &crate::Names, lang: Lang) -> Vec<Vec<Cell>> {
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

/// The workbook's bytes, its properties dated `date` (`YYYY-MM-DD`, as
/// the proposal's): the same tables and date give the same bytes.
pub fn xlsx(tables: &Tables, lang: Lang, date: &str) -> Result<Vec<u8>, ReportError> {
    let mut wb = Workbook::new();
    let created = rust_xlsxwriter::ExcelDateTime::parse_from_str(date)?;
    wb.set_properties(&rust_xlsxwriter::DocProperties::new().set_creation_datetime(&created));
    let formats = Formats {
        header: Format::new().set_bold().set_background_color("#DCE6F0").set_text_wrap(),
        number: Format::new().set_num_format("#,##0.00"),
        // Two decimals, four below 1 (as the reports print a unit price).
        price: Format::new().set_num_format("[<1]#,##0.0000;#,##0.00"),
        whole: Format::new().set_num_format("0"),
        input: Format::new().set_num_format("#,##0.00######").set_background_color("#FFF2CC").set_bold(),
    };
    for (name, _, rows) in tables.sheets(lang) {
        let ws = wb.add_worksheet();
        ws.set_name(name)?;
        for (r, row) in rows.iter().enumerate() {
            for (col, cell) in row.iter().enumerate() {
                write_cell(ws, (r as u32, col as u16), cell, &formats, &formats.number)?;
            }
        }
        let columns = rows.first().map_or(0, Vec::len) as u16;
        ws.set_column_width(0, 36)?;
        for col in 1..columns {
            ws.set_column_width(col, 18)?;
        }
        ws.set_freeze_panes(1, 1)?;
        // Printed: A4 landscape, one page wide, the header row on every page.
        ws.set_paper_size(9).set_landscape().set_print_fit_to_pages(1, 0);
        ws.set_repeat_rows(0, 0)?;
        ws.set_header("&L&A").set_footer("&R&P / &N");
    }
    for (i, name) in tables.input_names.iter().enumerate() {
        wb.define_name(name, &format!("={}", cell_ref(Sheet::Inputs, lang, DISCOUNT_ROW + i, 1)))?;
    }
    Ok(wb.save_to_buffer()?)
}

struct Formats {
    header: Format,
    number: Format,
    price: Format,
    whole: Format,
    input: Format,
}

/// One cell; `figure` is the format of a figure (a price's inside [`Cell::Price`]).
fn write_cell(
    ws: &mut rust_xlsxwriter::Worksheet,
    (r, col): (u32, u16),
    cell: &Cell,
    formats: &Formats,
    figure: &Format,
) -> Result<(), XlsxError> {
    match (r, cell) {
        (0, Cell::Text(s)) => {
            ws.write_string_with_format(r, col, s, &formats.header)?;
        }
        (_, Cell::Text(s)) => {
            ws.write_string(r, col, s)?;
        }
        (_, Cell::Number(x)) => {
            ws.write_number_with_format(r, col, *x, figure)?;
        }
        (_, Cell::Whole(n)) => {
            ws.write_number_with_format(r, col, f64::from(*n), &formats.whole)?;
        }
        (_, Cell::Input(x)) => {
            ws.write_number_with_format(r, col, *x, &formats.input)?;
        }
        (_, Cell::Formula { formula, value }) => {
            ws.write_formula_with_format(r, col, Formula::new(formula).set_result(value.to_string()), figure)?;
        }
        (_, Cell::TextFormula { formula, text }) => {
            ws.write_formula(r, col, Formula::new(formula).set_result(text))?;
        }
        (_, Cell::Price(inner)) => write_cell(ws, (r, col), inner, formats, &formats.price)?,
        (_, Cell::Empty) => {}
    }
    Ok(())
}

fn csv_field(c: &Cell) -> String {
    match c {
        Cell::Text(s) | Cell::TextFormula { text: s, .. } if s.contains([',', '"', '\n', '\r']) => {
            format!("\"{}\"", s.replace('"', "\"\""))
        }
        Cell::Text(s) | Cell::TextFormula { text: s, .. } => s.clone(),
        Cell::Whole(n) => n.to_string(),
        Cell::Number(x) | Cell::Input(x) | Cell::Formula { value: x, .. } => x.to_string(),
        Cell::Price(inner) => csv_field(inner),
        Cell::Empty => String::new(),
    }
}

/// CSV files as (file name, contents), one per sheet (UTF-8 with BOM, so
/// spreadsheet programs read Chinese right; CRLF line ends).
pub fn csv(tables: &Tables) -> Vec<(String, String)> {
    tables.sheets(Lang::En).into_iter().map(|(_, file, rows)| (file.to_owned(), render_csv(rows))).collect()
}

fn render_csv(rows: &[Vec<Cell>]) -> String {
    let mut out = String::from("\u{FEFF}");
    for row in rows {
        out.push_str(&row.iter().map(csv_field).collect::<Vec<_>>().join(","));
        out.push_str("\r\n");
    }
    out
}

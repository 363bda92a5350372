//! The spreadsheet a purchasing team works in, eight sheets: Summary,
//! Comparison, Inputs, Breakdown, Monthly, By year, Cost lines and
//! Assumptions. The costs are formulas that recompute from the Inputs
//! sheet, whose cells are named (`discount_rate`,
//! `rent_on_demand_price_per_accel_hour`), each cached with the engine's
//! figure. As XLSX (formatted, header row and first column frozen, set up
//! to print on A4 landscape, one page wide) and as CSV files (the cached
//! figures).
//!
//! Each sheet's rows are made in `sheets`; this module holds the cells, the
//! formulas' references and the writing of XLSX and CSV.

use rust_xlsxwriter::utility::{quote_sheet_name, row_col_to_cell_absolute};
use rust_xlsxwriter::{Format, Formula, Workbook, XlsxError};
use suanli_model::cost_lines::{CostLines, Driver, Line};
use suanli_model::{Category, Evaluation, Lang, Scenario};

use crate::ReportError;

mod sheets;

use sheets::{
    assumptions_sheet, breakdown_sheet, comparison_sheet, inputs_sheet, lines_sheet, monthly_sheet, summary_sheet,
    yearly_sheet,
};

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

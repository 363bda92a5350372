//! The spreadsheet a purchasing team works in: the comparison, the
//! breakdown by category, the monthly and yearly cash flows and every input with its
//! source — as XLSX (formatted, frozen headers) and as CSV files.

use rust_xlsxwriter::{Format, Workbook, XlsxError};
use suanli_model::{Category, Evaluation, Lang, Scenario, round_money, round_quantity, round_unit_price};

/// The tables, as rows of cells (numbers where they are numbers).
#[derive(Debug, Clone, PartialEq)]
pub enum Cell {
    Text(String),
    Number(f64),
    Empty,
}

pub struct Tables {
    pub comparison: Vec<Vec<Cell>>,
    pub breakdown: Vec<Vec<Cell>>,
    pub monthly: Vec<Vec<Cell>>,
    /// Each option's cash flow by year and kind (capital, one-off,
    /// recurring, money back), as the proposal's business case gives it.
    pub yearly: Vec<Vec<Cell>>,
    pub assumptions: Vec<Vec<Cell>>,
}

impl Tables {
    /// Every table in workbook order, with its sheet name and CSV file name.
    fn sheets(&self, lang: Lang) -> [(&'static str, &'static str, &Vec<Vec<Cell>>); 5] {
        [
            (lang.pick("Comparison", "方案比较"), "comparison.csv", &self.comparison),
            (lang.pick("Breakdown", "成本构成"), "breakdown.csv", &self.breakdown),
            (lang.pick("Monthly", "月度现金流"), "monthly.csv", &self.monthly),
            (lang.pick("By year", "逐年现金流"), "yearly.csv", &self.yearly),
            (lang.pick("Assumptions", "输入与来源"), "assumptions.csv", &self.assumptions),
        ]
    }
}

impl std::fmt::Debug for Tables {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tables").field("comparison_rows", &self.comparison.len()).finish()
    }
}

/// The tables of a workbook; refused when a number is not finite (a
/// spreadsheet cell would show it as an error or as a plausible figure).
pub fn tables(s: &Scenario, e: &Evaluation, lang: Lang) -> Result<Tables, String> {
    let c = e.currency;
    let text = |x: &str| Cell::Text(x.to_owned());
    let money = |x: f64| Cell::Number(round_money(x, c));
    let mut comparison = vec![
        [
            lang.pick("Option", "方案").to_owned(),
            lang.pick("Kind", "类型").to_owned(),
            format!("{} ({c})", lang.pick("Total nominal", "名义总成本").to_owned()),
            format!("{} ({c})", lang.pick("Total NPV", "净现值总成本").to_owned()),
            format!("{} ({c})", lang.pick("Per reference-GPU-hour", "每参考卡时").to_owned()),
            lang.pick("Reference-GPU-hours served", "有效参考卡时").to_owned(),
            lang.pick("Break-even month", "盈亏平衡月").to_owned(),
        ]
        .into_iter()
        .map(Cell::Text)
        .collect::<Vec<_>>(),
    ];
    for o in &e.options {
        comparison.push(vec![
            text(&o.label),
            text(match o.kind {
                suanli_model::OptionKind::Buy => "buy",
                suanli_model::OptionKind::Rent => "rent",
                suanli_model::OptionKind::Mix => "mix",
            }),
            money(o.total_nominal),
            money(o.total_npv),
            o.effective_price_per_ref_gpu_hour.map_or(Cell::Empty, |p| Cell::Number(round_unit_price(p))),
            Cell::Number(round_quantity(o.ref_gpu_hours_served)),
            o.break_even.as_ref().and_then(|b| b.month).map_or(Cell::Empty, |m| Cell::Number(f64::from(m))),
        ]);
    }
    let cats: Vec<Category> =
        Category::ALL.iter().copied().filter(|cat| e.options.iter().any(|o| o.breakdown(*cat) != 0.0)).collect();
    let mut breakdown = vec![
        std::iter::once(Cell::Text(lang.pick("Option", "方案").to_owned()))
            .chain(cats.iter().map(|cat| Cell::Text(cat.label(lang).to_owned())))
            .chain(std::iter::once(Cell::Text(lang.pick("Total", "合计").to_owned())))
            .collect::<Vec<_>>(),
    ];
    for o in &e.options {
        breakdown.push(
            std::iter::once(text(&o.label))
                .chain(cats.iter().map(|cat| money(o.breakdown(*cat))))
                .chain(std::iter::once(money(o.total_nominal)))
                .collect(),
        );
    }
    let mut monthly = vec![
        std::iter::once(Cell::Text(lang.pick("Month", "月份").to_owned()))
            .chain(e.options.iter().map(|o| Cell::Text(o.label.clone())))
            .collect::<Vec<_>>(),
    ];
    for m in 0..e.horizon_months as usize {
        monthly.push(
            std::iter::once(Cell::Number((m + 1) as f64))
                .chain(e.options.iter().map(|o| money(o.monthly[m].total())))
                .collect(),
        );
    }
    let mut assumptions = vec![vec![
        text(lang.pick("Input", "输入")),
        text(lang.pick("Value", "取值")),
        text(lang.pick("Source", "来源")),
    ]];
    assumptions.extend(crate::assumptions::rows(s, lang).into_iter().map(|r| r.into_iter().map(Cell::Text).collect()));
    let mut yearly = vec![
        [
            lang.pick("Option", "方案").to_owned(),
            lang.pick("Year", "年度").to_owned(),
            lang.pick("Months", "月数").to_owned(),
            format!("{} ({c})", lang.pick("Capital", "资本支出")),
            format!("{} ({c})", lang.pick("One-off", "一次性支出")),
            format!("{} ({c})", lang.pick("Recurring", "经常性支出")),
            format!("{} ({c})", lang.pick("Money back", "残值收回")),
            format!("{} ({c})", lang.pick("Total", "合计")),
        ]
        .into_iter()
        .map(Cell::Text)
        .collect::<Vec<_>>(),
    ];
    for o in &e.options {
        for y in suanli_model::business::by_year(o) {
            yearly.push(vec![
                text(&o.label),
                Cell::Number(f64::from(y.year)),
                Cell::Number(f64::from(y.months)),
                money(y.capital),
                money(y.one_off),
                money(y.recurring),
                money(y.residual),
                money(y.total()),
            ]);
        }
    }
    let tables = Tables { comparison, breakdown, monthly, yearly, assumptions };
    for (sheet, _, rows) in tables.sheets(lang) {
        for (r, row) in rows.iter().enumerate() {
            for (c, cell) in row.iter().enumerate() {
                if let Cell::Number(x) = cell
                    && !x.is_finite()
                {
                    return Err(if lang == Lang::Zh {
                        format!("工作表“{sheet}”第 {} 行第 {} 列的数字不是有限数值；未生成表格", r + 1, c + 1)
                    } else {
                        format!(
                            "{sheet} row {}, column {}: the number is not finite; no workbook was made",
                            r + 1,
                            c + 1
                        )
                    });
                }
            }
        }
    }
    Ok(tables)
}

/// The workbook's bytes.
pub fn xlsx(tables: &Tables, lang: Lang) -> Result<Vec<u8>, XlsxError> {
    let mut wb = Workbook::new();
    let header = Format::new().set_bold().set_background_color("#DCE6F0").set_text_wrap();
    let number = Format::new().set_num_format("#,##0.00");
    for (name, _, rows) in tables.sheets(lang) {
        let ws = wb.add_worksheet();
        ws.set_name(name)?;
        for (r, row) in rows.iter().enumerate() {
            for (col, cell) in row.iter().enumerate() {
                let (r, col) = (r as u32, col as u16);
                match (r, cell) {
                    (0, Cell::Text(s)) => {
                        ws.write_string_with_format(r, col, s, &header)?;
                    }
                    (_, Cell::Text(s)) => {
                        ws.write_string(r, col, s)?;
                    }
                    (_, Cell::Number(x)) => {
                        ws.write_number_with_format(r, col, *x, &number)?;
                    }
                    (_, Cell::Empty) => {}
                }
            }
        }
        let columns = rows.first().map_or(0, Vec::len) as u16;
        ws.set_column_width(0, 36)?;
        for col in 1..columns {
            ws.set_column_width(col, 18)?;
        }
        ws.set_freeze_panes(1, 1)?;
    }
    wb.save_to_buffer()
}

fn csv_field(c: &Cell) -> String {
    match c {
        Cell::Text(s) if s.contains([',', '"', '\n', '\r']) => format!("\"{}\"", s.replace('"', "\"\"")),
        Cell::Text(s) => s.clone(),
        Cell::Number(x) => x.to_string(),
        Cell::Empty => String::new(),
    }
}

/// CSV files (UTF-8 with BOM, so spreadsheet programs read Chinese right).
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

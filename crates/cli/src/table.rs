//! The comparison table `suanli evaluate` prints.

use std::fmt::Write as _;

use suanli_api::freshness::PriceAge;
use suanli_api::{
    Evaluation, Lang, OptionKind, Scenario, for_lang, format_amount, format_percent, format_unit_price,
    group_thousands, input_label, label_mismatch,
};
use unicode_width::UnicodeWidthStr;

use crate::terminal::escape;

struct Labels {
    horizon: &'static str,
    months: &'static str,
    demand: &'static str,
    ref_hours: &'static str,
    headers: [&'static str; 7],
    cheapest: &'static str,
    cheapest_npv: &'static str,
    notes: &'static str,
    never: &'static str,
    month_n: &'static str,
    vs: &'static str,
    late: &'static str,
    short_mark: &'static str,
    unfit_mark: &'static str,
    ranked_apart: &'static str,
    none_complete: &'static str,
}

const EN: Labels = Labels {
    horizon: "Horizon",
    months: "months",
    demand: "Demand",
    ref_hours: "reference-GPU-hours",
    headers: ["Option", "Kind", "Total (nominal)", "Total (NPV)", "Per ref-GPU-hour", "Time to result", "Break-even"],
    cheapest: "Cheapest (nominal)",
    cheapest_npv: "Cheapest (NPV)",
    notes: "Notes",
    never: "never",
    month_n: "month",
    vs: "vs",
    late: "misses deadline",
    short_mark: " (short)",
    unfit_mark: " (does not fit)",
    ranked_apart: "Ranked apart: these do not do all the work within the horizon, so none of them is the cheapest",
    none_complete: "no option does all the work within the horizon",
};

const ZH: Labels = Labels {
    horizon: "评估期",
    months: "个月",
    demand: "需求",
    ref_hours: "参考卡时",
    headers: ["方案", "类型", "总成本（名义）", "总成本（净现值）", "每参考卡时", "完成时间", "盈亏平衡"],
    cheapest: "最低成本（名义）",
    cheapest_npv: "最低成本（净现值）",
    notes: "说明",
    never: "评估期内无",
    month_n: "第",
    vs: "对比",
    late: "超出期限",
    short_mark: "（未完成）",
    unfit_mark: "（装不下）",
    ranked_apart: "单独列出：以下方案在评估期内未完成全部工作量，不参与最低成本比较",
    none_complete: "没有方案能在评估期内完成全部工作量",
};

fn kind(kind: OptionKind, lang: Lang) -> &'static str {
    match (kind, lang) {
        (OptionKind::Buy, Lang::En) => "buy",
        (OptionKind::Rent, Lang::En) => "rent",
        (OptionKind::Mix, Lang::En) => "mix",
        (OptionKind::Buy, Lang::Zh) => "自购",
        (OptionKind::Rent, Lang::Zh) => "租用",
        (OptionKind::Mix, Lang::Zh) => "混合",
    }
}

/// The prices past the stale threshold, option by option (empty when none
/// is): what the app's results and the proposal mark too.
pub fn stale_prices(s: &Scenario, e: &Evaluation, stale: &[PriceAge], lang: Lang) -> String {
    let Some(first) = stale.first() else { return String::new() };
    let months = first.freshness.stale_after_months;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "\n{}",
        lang.pick(
            format!("Prices {months} months old or older (stale): check them before you decide."),
            format!("以下价格已超过 {months} 个月（已过时），决策前请核实："),
        )
    );
    for p in stale {
        let label = e.option(&p.option_id).map_or_else(|| p.option_id.clone(), |o| for_lang(&o.label, lang));
        let field = input_label(&p.field, s, lang);
        let colon = lang.pick(": ", "：");
        let _ = writeln!(out, "  {} · {}{colon}{}", escape(&label), escape(&field), p.freshness.label(lang));
    }
    out
}

/// Each option's fleet as the engine costs it, and labels that name another count.
fn fleets(e: &Evaluation, lang: Lang) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{}", lang.pick("Fleet each option is costed on:", "各方案计算所用的算力规模："));
    let colon = lang.pick(": ", "：");
    for o in &e.options {
        let _ = writeln!(out, "  {}{colon}{}", escape(&o.label), o.fleet.describe(lang));
        if let Some(m) = label_mismatch(o) {
            let _ = writeln!(out, "    {} {}", lang.pick("! label:", "！名称："), m.describe(lang));
        }
    }
    out.push('\n');
    out
}

/// Stated prices far from the catalogue's for the same accelerator and
/// billing, option by option (empty when none is).
pub fn far_prices(s: &Scenario, e: &Evaluation, lang: Lang) -> String {
    let flags = suanli_api::price_check::price_flags(s);
    if flags.is_empty() {
        return String::new();
    }
    let mut out = String::new();
    let _ = writeln!(
        out,
        "\n{}",
        lang.pick(
            "Prices far from the catalogue's for the same accelerator and billing: check them, or say in the scenario why.",
            "以下价格与目录中同型号、同计费方式的价格相差甚远：请核实，或在场景中说明原因：",
        )
    );
    let colon = lang.pick(": ", "：");
    for f in flags {
        let label = e.option(&f.option_id).map_or_else(|| f.option_id.clone(), |o| for_lang(&o.label, lang));
        let field = input_label(&f.field, s, lang);
        let _ = writeln!(out, "  ! {} · {}{colon}{}", escape(&label), escape(&field), f.describe(lang));
    }
    out
}

/// Renders the comparison of every option.
pub fn comparison(e: &Evaluation, lang: Lang) -> String {
    let l = if lang == Lang::Zh { &ZH } else { &EN };
    let c = e.currency;
    let mut out = String::new();
    let _ = writeln!(out, "{}", e.scenario_name);
    let _ = writeln!(
        out,
        "{}: {} {} · {}: {} {} · {}",
        l.horizon,
        e.horizon_months,
        l.months,
        l.demand,
        group_thousands(e.demand_ref_gpu_hours, 0),
        l.ref_hours,
        c
    );
    out.push('\n');

    let mut rows: Vec<[String; 7]> = vec![l.headers.map(str::to_owned)];
    for o in &e.options {
        let time = match o.time_to_complete_months {
            Some(t) => {
                let late = if o.meets_deadline == Some(false) { format!(" ({})", l.late) } else { String::new() };
                if lang == Lang::Zh { format!("{t:.1} 个月{late}") } else { format!("{t:.1} months{late}") }
            }
            None => "—".to_owned(),
        };
        let break_even = match &o.break_even {
            Some(b) => match b.month {
                Some(m) if lang == Lang::Zh => format!("{}{m}个月 {} {}", l.month_n, l.vs, b.against),
                Some(m) => format!("{} {m} {} {}", l.month_n, l.vs, b.against),
                None => format!("{} ({} {})", l.never, l.vs, b.against),
            },
            None => "—".to_owned(),
        };
        let mark = match (o.shortfall(), o.ranked_apart()) {
            (Some(_), _) => l.short_mark,
            (None, true) => l.unfit_mark,
            (None, false) => "",
        };
        rows.push([
            format!("{}{mark}", o.label),
            kind(o.kind, lang).to_owned(),
            format_amount(o.total_nominal, c, lang),
            format_amount(o.total_npv, c, lang),
            o.effective_price_per_ref_gpu_hour.map_or("—".to_owned(), |p| format_unit_price(p, c, lang)),
            time,
            break_even,
        ]);
    }
    let mut table = Table::new(l.headers).right_from(2);
    for row in rows.into_iter().skip(1) {
        table.row(row);
    }
    out.push_str(&table.render());
    out.push('\n');
    out.push_str(&fleets(e, lang));
    let per_token: Vec<String> = e
        .options
        .iter()
        .filter_map(|o| o.cost_per_million_tokens.map(|p| format!("  {}: {}", o.label, format_unit_price(p, c, lang))))
        .collect();
    if !per_token.is_empty() {
        let _ =
            writeln!(out, "{}", lang.pick("Compute cost per million output tokens:", "每百万输出 token 的算力成本："));
        for line in per_token {
            let _ = writeln!(out, "{line}");
        }
        out.push('\n');
    }
    match e.cheapest_nominal() {
        Some(o) => {
            let _ = writeln!(out, "{}: {} ({})", l.cheapest, o.label, format_amount(o.total_nominal, c, lang));
        }
        None => {
            let _ = writeln!(out, "{}: {}", l.cheapest, l.none_complete);
        }
    }
    if let Some(o) = e.cheapest_npv() {
        let _ = writeln!(out, "{}: {} ({})", l.cheapest_npv, o.label, format_amount(o.total_npv, c, lang));
    }
    let short: Vec<_> = e.short().collect();
    let unfit: Vec<_> = e.options.iter().filter(|o| o.ranked_apart() && o.shortfall().is_none()).collect();
    if !short.is_empty() || !unfit.is_empty() {
        let _ = writeln!(out, "{}:", l.ranked_apart);
        for o in unfit {
            let why =
                lang.pick("its accelerators cannot hold the model (see the notes)", "其加速卡装不下模型（见备注）");
            let _ = writeln!(out, "  - {}{} {why}", o.label, lang.pick(":", "："));
        }
        for (o, s) in short {
            let done = format_percent(s.done_share, 0);
            let missing = group_thousands(s.ref_gpu_hours, 0);
            let _ = if lang == Lang::Zh {
                writeln!(out, "  - {}：完成 {done}，差 {missing} {}", o.label, l.ref_hours)
            } else {
                writeln!(out, "  - {}: {done} done, {missing} {} short", o.label, l.ref_hours)
            };
        }
    }
    let notes: Vec<String> = e
        .options
        .iter()
        .flat_map(|o| o.notes.iter().map(move |n| format!("  - {}: {}", o.label, n.describe(lang))))
        .collect();
    if !notes.is_empty() {
        let _ = writeln!(out, "{}:", l.notes);
        for n in notes {
            let _ = writeln!(out, "{n}");
        }
    }
    out
}

/// A plain text table that keeps Chinese characters aligned.
pub struct Table<const N: usize> {
    header: [String; N],
    rows: Vec<[String; N]>,
    /// Columns from this index on are right-aligned (figures).
    right_from: usize,
}

impl<const N: usize> Table<N> {
    pub fn new(header: [&str; N]) -> Self {
        Table { header: header.map(|h| escape(h).into_owned()), rows: Vec::new(), right_from: N }
    }

    pub fn right_from(mut self, column: usize) -> Self {
        self.right_from = column;
        self
    }

    /// A row; cells are escaped now, so widths are measured on what is shown.
    pub fn row(&mut self, row: [String; N]) {
        self.rows.push(row.map(|cell| escape(&cell).into_owned()));
    }

    pub fn render(&self) -> String {
        let all = std::iter::once(&self.header).chain(&self.rows);
        let mut widths = [0usize; N];
        for row in all.clone() {
            for (w, cell) in widths.iter_mut().zip(row) {
                *w = (*w).max(cell.width());
            }
        }
        let mut out = String::new();
        for (n, row) in all.enumerate() {
            let cells: Vec<String> = row
                .iter()
                .enumerate()
                .map(|(i, cell)| {
                    let pad = " ".repeat(widths[i] - cell.width());
                    if i >= self.right_from { format!("{pad}{cell}") } else { format!("{cell}{pad}") }
                })
                .collect();
            let _ = writeln!(out, "{}", cells.join("  ").trim_end());
            if n == 0 {
                let total: usize = widths.iter().sum::<usize>() + 2 * (N.saturating_sub(1));
                let _ = writeln!(out, "{}", "─".repeat(total));
            }
        }
        out
    }
}

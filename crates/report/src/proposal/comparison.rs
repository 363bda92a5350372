//! Options compared: the comparison table with its fit and token notes,
//! the fleet, what the cost does not show, and how the figures are defined.

use suanli_model::{Evaluation, Lang, OptionResult, format_amount, format_unit_price};

use crate::labels::for_lang;
use crate::pdf::{ACCENT, CONTENT_W, Canvas, INK};

use super::Summary;

/// The comparison table, fit and token notes, and how its figures are defined.
pub(super) fn options_compared(cv: &mut Canvas, x: &Summary<'_>) {
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

//! The appendix: every input with its value and its source, and how old
//! each catalogue price is.

use suanli_model::Lang;

use crate::pdf::{CONTENT_W, Canvas, INK};

use super::{Summary, label_of};

/// Every input with its value and its source (or "assumption").
pub(super) fn appendix(cv: &mut Canvas, x: &Summary<'_>) {
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

//! Porting and supply risk: each option's porting cost and delay and its
//! supply-risk score with its drivers.

use suanli_model::{Lang, OptionResult, format_amount};

use crate::labels::for_lang;
use crate::pdf::{CONTENT_W, Canvas};

use super::Summary;

/// Each option's porting cost and delay and its supply-risk score with its drivers.
pub(super) fn porting_and_supply(cv: &mut Canvas, x: &Summary<'_>) {
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

//! Next steps and approval: what to do next, from the recommendation's own
//! figures, and the signature lines.

use suanli_model::{Lang, OptionResult, Scenario, format_amount};

use crate::labels::for_lang;
use crate::pdf::{CONTENT_W, Canvas, INK, MARGIN_X, MUTED, RULE};

use super::ProposalMeta;

/// What to do next, from the recommendation's own figures.
pub(super) fn next_steps(
    cv: &mut Canvas,
    s: &Scenario,
    best: &OptionResult,
    sim: Option<&suanli_model::uncertainty::Simulation>,
    far: &[suanli_model::price_check::PriceFlag],
    lang: Lang,
) {
    let label = for_lang(&best.label, lang);
    let money = |x: f64| format_amount(x, s.currency, lang);
    let zh = lang == Lang::Zh;
    let mut steps = vec![if zh {
        format!("核实报价：向服务商确认{label}所用价格（附录列出每项价格的来源与日期）。")
    } else {
        format!(
            "Confirm the prices behind {label} with the provider (the appendix gives each price's source and date)."
        )
    }];
    // A price far from the market: the budget rests on it, so it is confirmed first.
    for f in far.iter().filter(|f| f.option_id == best.id) {
        steps.push(if zh {
            format!("批准前取得书面报价：{}。按市场价格，预算会显著不同。", f.describe(lang))
        } else {
            format!(
                "Get a written quote before approving: {}. At market prices the budget below would be very different.",
                f.describe(lang)
            )
        });
    }
    if best.porting.as_ref().is_some_and(|p| p.cost > 0.0) {
        steps.push(if zh {
            "迁移试点：先在目标加速卡上运行一个代表性模型，核实迁移工作量与效率比。".to_owned()
        } else {
            "Pilot the port: run one representative model on the target accelerator to check the porting effort and the efficiency ratio.".to_owned()
        });
    }
    let ask = crate::budget::ask(s, best, sim);
    let total = ask.nominal + ask.contingency.unwrap_or(0.0);
    let with_vat = ask.vat.filter(|_| ask.nominal.abs() > 0.0).map(|v| total * v.gross() / ask.nominal);
    steps.push(match (ask.contingency, with_vat, zh) {
        (Some(extra), _, true) => format!(
            "批准预算：评估期 {} 个月名义现金 {}（含至 P80 的不可预见费 {}）{}；净现值 {}。",
            s.horizon_months,
            money(total),
            money(extra),
            with_vat.map_or_else(String::new, |g| format!("，含税 {}", money(g))),
            money(best.total_npv)
        ),
        (Some(extra), _, false) => format!(
            "Approve the budget: {} of nominal cash over {} months, a contingency of {} to the P80 included{}; {} net present cost.",
            money(total),
            s.horizon_months,
            money(extra),
            with_vat.map_or_else(String::new, |g| format!(" ({} with VAT)", money(g))),
            money(best.total_npv)
        ),
        (None, _, true) => format!(
            "批准预算：评估期 {} 个月名义现金 {}{}；净现值 {}（无输入区间，未计不可预见费）。",
            s.horizon_months,
            money(total),
            with_vat.map_or_else(String::new, |g| format!("，含税 {}", money(g))),
            money(best.total_npv)
        ),
        (None, _, false) => format!(
            "Approve the budget: {} of nominal cash over {} months{}; {} net present cost (no ranges, so no contingency).",
            money(total),
            s.horizon_months,
            with_vat.map_or_else(String::new, |g| format!(" ({} with VAT)", money(g))),
            money(best.total_npv)
        ),
    });
    steps.push(if zh {
        "复核：价格或需求变化时，用同一场景重新计算本建议书。".to_owned()
    } else {
        "Review: when prices or demand change, recompute this proposal from the same scenario.".to_owned()
    });
    for (i, step) in steps.iter().enumerate() {
        cv.paragraph(&format!("{}. {step}", i + 1), 10.0, false, INK);
    }
}

/// Signature lines for who prepared, reviewed and approved the decision.
pub(super) fn approval(cv: &mut Canvas, meta: &ProposalMeta, lang: Lang) {
    let roles = [
        (lang.pick("Prepared by", "编制"), meta.author.as_str()),
        (lang.pick("Reviewed by", "审核"), ""),
        (lang.pick("Approved by", "批准"), ""),
    ];
    // The heading stays on the page of its signature lines.
    cv.ensure(16.0 + 20.0 + 6.0 + roles.len() as f32 * 34.0 + 10.0);
    cv.space(16.0);
    cv.paragraph(lang.pick("Approval", "审批"), 10.5, true, INK);
    cv.space(6.0);
    for (role, name) in roles {
        let y = cv.y + 24.0;
        cv.text_at(MARGIN_X, y, 10.0, false, INK, role);
        // One line: a long name is cut with an ellipsis (the cover gives it whole).
        let name = super::one_line(cv, name, 9.0, 200.0);
        cv.text_at(MARGIN_X + 90.0, y - 2.0, 9.0, false, MUTED, &name);
        cv.line(&[(MARGIN_X + 90.0, y + 3.0), (MARGIN_X + 300.0, y + 3.0)], RULE, 0.6);
        cv.text_at(MARGIN_X + 320.0, y, 10.0, false, INK, lang.pick("Date", "日期"));
        cv.line(&[(MARGIN_X + 360.0, y + 3.0), (MARGIN_X + CONTENT_W, y + 3.0)], RULE, 0.6);
        cv.y += 34.0;
    }
}

//! Why the recommendation, beyond "lowest cost": where buying breaks even
//! with renting, the input the decision is most sensitive to and whether
//! it can change it, the margin to the runner-up, and a short table of
//! what the cost does not show (ecosystem, lock-in, data location, support)
//! from catalogue and scenario facts.

use suanli_model::scenario::Maturity;
use suanli_model::sensitivity::{BreakEvenPoint, Sensitivity};
use suanli_model::{Billing, Evaluation, Lang, OptionKind, OptionResult, Scenario, format_amount, format_percent};

use crate::labels::for_lang;
use crate::pdf::{CONTENT_W, Canvas};

/// The summary's lines on why: break-evens, the most sensitive input, the margin.
pub(crate) fn points(
    s: &Scenario,
    e: &Evaluation,
    best: &OptionResult,
    runner_up: Option<&OptionResult>,
    sens: Option<&Sensitivity>,
    break_even: &[BreakEvenPoint],
    lang: Lang,
) -> Vec<String> {
    let label = |id: &str| e.option(id).map_or_else(|| id.to_owned(), |o| for_lang(&o.label, lang));
    let mut out = Vec::new();
    let points = sens.map_or(break_even, |x| x.break_even.as_slice());
    for p in points {
        let (buy, rent) = (label(&p.buy), label(&p.rent));
        let now = p.current_utilisation.map(|u| format_percent(u, 0));
        out.push(match (p.utilisation, now, lang) {
            (Some(u), Some(now), Lang::En) => format!(
                "Buying ({buy}) breaks even with renting ({rent}) when its servers are busy {} of the time; this workload keeps them busy {now}.",
                format_percent(u, 0)
            ),
            (Some(u), Some(now), Lang::Zh) => format!(
                "自购（{buy}）与租用（{rent}）在服务器利用率达到 {} 时成本持平；本工作负载的利用率为 {now}。",
                format_percent(u, 0)
            ),
            (_, _, Lang::En) => format!(
                "At no utilisation up to full does {buy} cost the same as renting ({rent}) over this horizon."
            ),
            (_, _, Lang::Zh) => format!("在本评估期内，{buy}的服务器无论利用率多高（直至满载），成本都不会与租用（{rent}）持平。"),
        });
    }
    if let Some(line) = sens.and_then(|x| most_sensitive(s, e, best, runner_up, x, lang)) {
        out.push(line);
    }
    if let Some(r) = runner_up.filter(|r| r.total_npv > best.total_npv && r.total_npv > 0.0) {
        let gap = 1.0 - best.total_npv / r.total_npv;
        out.push(match lang {
            Lang::En => format!(
                "The recommendation changes only if the net present cost of {} falls by {} or more.",
                label(&r.id),
                format_percent(gap, 0)
            ),
            Lang::Zh => format!("只有当{}的净现值下降 {} 以上时，建议才会改变。", label(&r.id), format_percent(gap, 0)),
        });
    }
    out
}

/// The input whose range moves the recommended option's cost most, and
/// whether either end of it puts the runner-up ahead.
fn most_sensitive(
    s: &Scenario,
    e: &Evaluation,
    best: &OptionResult,
    runner_up: Option<&OptionResult>,
    sens: &Sensitivity,
    lang: Lang,
) -> Option<String> {
    let at = |bar: &suanli_model::sensitivity::Bar, id: &str| {
        bar.totals.iter().find(|(x, ..)| x == id).map(|(_, l, h)| (*l, *h))
    };
    let first = *sens.for_option(&best.id).first()?;
    let (bar, low, high) = (first.bar, first.npv_low, first.npv_high);
    let money = |x: f64| format_amount(x, e.currency, lang);
    let input = crate::labels::input(&bar.path, s, lang);
    let flips = runner_up.and_then(|r| at(bar, &r.id)).is_some_and(|(rl, rh)| rl < low || rh < high);
    let n = |x: f64| suanli_model::format_number(x, 4);
    Some(match (flips, lang) {
        (true, Lang::En) => format!(
            "The decision is most sensitive to {} ({} to {}): it moves this option's net present cost from {} to {}, enough at one end to put {} ahead.",
            input.to_lowercase(),
            n(bar.low),
            n(bar.high),
            money(low),
            money(high),
            runner_up.map_or_else(String::new, |r| for_lang(&r.label, lang))
        ),
        (false, Lang::En) => format!(
            "The decision is most sensitive to {} ({} to {}): it moves this option's net present cost from {} to {}, not enough to change the recommendation.",
            input.to_lowercase(),
            n(bar.low),
            n(bar.high),
            money(low),
            money(high)
        ),
        (true, Lang::Zh) => format!(
            "决策对{}（{} 至 {}）最敏感：它使本方案净现值在 {} 至 {} 之间变化，在一端足以让{}胜出。",
            input,
            n(bar.low),
            n(bar.high),
            money(low),
            money(high),
            runner_up.map_or_else(String::new, |r| for_lang(&r.label, lang))
        ),
        (false, Lang::Zh) => format!(
            "决策对{}（{} 至 {}）最敏感：它使本方案净现值在 {} 至 {} 之间变化，不足以改变建议。",
            input,
            n(bar.low),
            n(bar.high),
            money(low),
            money(high)
        ),
    })
}

/// What the cost does not show, per option: the software ecosystem, what
/// the option commits to, where the data sits, and who runs the hardware.
pub(crate) fn criteria_table(
    cv: &mut Canvas,
    s: &Scenario,
    ranked: &[&OptionResult],
    facts: &crate::BoardFacts,
    lang: Lang,
) {
    let header = [
        lang.pick("Option", "方案"),
        lang.pick("Software ecosystem", "软件生态"),
        lang.pick("Lock-in", "锁定程度"),
        lang.pick("Data location", "数据所在地"),
        lang.pick("Support", "运维支持"),
    ]
    .map(str::to_owned);
    let rows: Vec<Vec<String>> = ranked
        .iter()
        .filter_map(|o| {
            let spec = s.options.iter().find(|x| x.id == o.id)?;
            let acc = spec.accelerator.as_deref().and_then(|id| facts.accelerators.iter().find(|a| a.id == id));
            let stack = acc.and_then(|a| a.software_stack.clone());
            let ecosystem = match (&spec.porting, stack, lang) {
                (Some(p), stack, _) => {
                    let maturity = match (p.maturity, lang) {
                        (Maturity::Mature, Lang::En) => "mature",
                        (Maturity::Beta, Lang::En) => "beta",
                        (Maturity::Early, Lang::En) => "early",
                        (Maturity::Mature, Lang::Zh) => "成熟",
                        (Maturity::Beta, Lang::Zh) => "测试阶段",
                        (Maturity::Early, Lang::Zh) => "早期",
                    };
                    let stack = stack.unwrap_or_else(|| lang.pick("not stated", "未说明").to_owned());
                    match lang {
                        Lang::En => format!("{stack}; off CUDA, adapter {maturity}"),
                        Lang::Zh => format!("{stack}；非 CUDA，适配{maturity}"),
                    }
                }
                (None, Some(stack), _) => stack,
                (None, None, _) => lang.pick("not stated", "未说明").to_owned(),
            };
            Some(vec![
                for_lang(&o.label, lang),
                ecosystem,
                lock_in(s, spec, lang),
                location(spec, lang),
                support(spec, lang),
            ])
        })
        .collect();
    cv.table(
        &[CONTENT_W * 0.22, CONTENT_W * 0.2, CONTENT_W * 0.22, CONTENT_W * 0.16, CONTENT_W * 0.2],
        &header,
        &rows,
        5,
    );
    cv.note(lang.pick(
        "Ecosystem: the accelerator's software stack as the catalogue lists it; lock-in, data location and support from the option as the scenario states it.",
        "软件生态取自目录中该加速卡的软件栈；锁定程度、数据所在地与运维支持取自场景对该方案的设定。",
    ));
}

fn lock_in(s: &Scenario, spec: &suanli_model::OptionSpec, lang: Lang) -> String {
    if spec.kind == OptionKind::Buy {
        return match lang {
            Lang::En => format!("servers owned for the {}-month horizon", s.horizon_months),
            Lang::Zh => format!("服务器在 {} 个月评估期内自有", s.horizon_months),
        };
    }
    match (spec.reserved.as_ref(), spec.billing, lang) {
        (Some(r), _, Lang::En) => format!("committed for {} months a term", r.term_months),
        (Some(r), _, Lang::Zh) => format!("每期承诺 {} 个月", r.term_months),
        (None, Some(Billing::Spot), _) => {
            lang.pick("none (spot, may be taken back)", "无（竞价，可能被收回）").to_owned()
        }
        (None, _, _) => lang.pick("none: stop any hour", "无：可随时停用").to_owned(),
    }
}

fn location(spec: &suanli_model::OptionSpec, lang: Lang) -> String {
    match (spec.kind, spec.provider_country.as_deref(), lang) {
        (OptionKind::Buy, _, _) => lang.pick("your own site", "自有机房").to_owned(),
        (_, Some(c), Lang::En) => format!("provider in {c}"),
        (_, Some(c), Lang::Zh) => format!("服务商位于 {c}"),
        (_, None, _) => lang.pick("provider's region, not stated", "服务商所在区域，未说明").to_owned(),
    }
}

fn support(spec: &suanli_model::OptionSpec, lang: Lang) -> String {
    match (spec.owned.as_ref(), lang) {
        (Some(p), _) if p.staff_per_year > 0.0 => {
            lang.pick("your own staff (costed)", "自有运维人员（已计入成本）").to_owned()
        }
        (Some(_), _) => lang.pick("your own staff (not costed)", "自有运维人员（未计入成本）").to_owned(),
        (None, _) => lang.pick("the provider runs the hardware", "由服务商运维硬件").to_owned(),
    }
}

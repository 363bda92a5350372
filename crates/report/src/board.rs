//! What a board signs off on besides the cost: the fleet each option is
//! costed on, its time to result against the deadline, and which options
//! meet the requirement at all (the headline saving compares only those).

use suanli_model::fleet::label_mismatch;
use suanli_model::{Demand, Evaluation, Lang, OptionResult, Scenario, format_number};

use crate::labels::for_lang;
use crate::pdf::{CONTENT_W, Canvas, INK};
pub use crate::register::AcceleratorFacts;

/// What the catalogue knows beyond the scenario, for the sections a board
/// reads (risks, price checks). Empty by default: a proposal without it
/// says only what the scenario and the engine know.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct BoardFacts {
    /// The accelerators the options run on.
    pub accelerators: Vec<AcceleratorFacts>,
    /// Stated prices far from the catalogue's for the same accelerator and billing.
    pub price_flags: Vec<suanli_model::price_check::PriceFlag>,
    /// Where each buy option breaks even with renting (used when the
    /// proposal has no sensitivity analysis, which carries its own).
    pub break_even: Vec<suanli_model::sensitivity::BreakEvenPoint>,
}

/// The job's deadline in months, when the scenario sets one.
pub(crate) fn deadline(s: &Scenario) -> Option<f64> {
    match &s.demand {
        Demand::Job(j) => j.deadline_months,
        _ => None,
    }
}

/// Whether the option meets the requirement: it does all the work, its
/// accelerators hold the model, and its result comes by the deadline.
pub(crate) fn meets_requirement(o: &OptionResult) -> bool {
    !o.ranked_apart() && o.meets_deadline != Some(false)
}

/// "(misses the 6-month deadline)", for an option that does.
pub(crate) fn late_mark(s: &Scenario, o: &OptionResult, lang: Lang) -> Option<String> {
    if o.meets_deadline != Some(false) {
        return None;
    }
    let d = deadline(s).map_or_else(String::new, |d| format_number(d, 1));
    Some(match lang {
        Lang::En => format!("misses the {d}-month deadline"),
        Lang::Zh => format!("超出 {d} 个月的期限"),
    })
}

/// The option's label, with its deadline miss when it has one: how an
/// option is named wherever the report lists it beside others.
pub(crate) fn marked_label(s: &Scenario, o: &OptionResult, lang: Lang) -> String {
    let label = for_lang(&o.label, lang);
    match (late_mark(s, o, lang), lang) {
        (Some(m), Lang::En) => format!("{label} ({m})"),
        (Some(m), Lang::Zh) => format!("{label}（{m}）"),
        (None, _) => label,
    }
}

/// Months to the result, with the deadline: "7.5 months (deadline 6)".
pub(crate) fn time_to_result(s: &Scenario, o: &OptionResult, lang: Lang) -> String {
    let Some(t) = o.time_to_complete_months else {
        return lang.pick("continuous", "持续运行").to_owned();
    };
    let t = format_number(t, 1);
    match (deadline(s), o.meets_deadline, lang) {
        (Some(d), Some(false), Lang::En) => format!("{t} months: late (deadline {})", format_number(d, 1)),
        (Some(d), Some(false), Lang::Zh) => format!("{t} 个月：超期（期限 {} 个月）", format_number(d, 1)),
        (Some(d), _, Lang::En) => format!("{t} months (deadline {})", format_number(d, 1)),
        (Some(d), _, Lang::Zh) => format!("{t} 个月（期限 {} 个月）", format_number(d, 1)),
        (None, _, Lang::En) => format!("{t} months"),
        (None, _, Lang::Zh) => format!("{t} 个月"),
    }
}

/// The dearest option that meets the requirement, for the headline saving
/// (never one that misses the deadline or leaves work undone).
pub(crate) fn dearest_qualifying<'a>(ranked: &[&'a OptionResult]) -> Option<&'a OptionResult> {
    ranked.iter().copied().filter(|o| meets_requirement(o)).max_by(|a, b| a.total_npv.total_cmp(&b.total_npv))
}

/// The summary's lines on the fleet and timing: the recommended option's
/// fleet, its time against the deadline, the options that miss it, and
/// every label that names another count than the one costed.
pub(crate) fn summary_points(s: &Scenario, e: &Evaluation, best: &OptionResult, lang: Lang) -> Vec<String> {
    let mut out = Vec::new();
    let label = |o: &OptionResult| for_lang(&o.label, lang);
    out.push(match lang {
        Lang::En => format!("Its fleet: {}.", best.fleet.describe(lang)),
        Lang::Zh => format!("其算力规模：{}。", best.fleet.describe(lang)),
    });
    if let Some(d) = deadline(s) {
        let t = best.time_to_complete_months.map_or_else(String::new, |t| format_number(t, 1));
        let d = format_number(d, 1);
        out.push(match (best.meets_deadline, lang) {
            (Some(false), Lang::En) => format!("Its result comes in {t} months, after the {d}-month deadline."),
            (Some(false), Lang::Zh) => format!("其结果需 {t} 个月，晚于 {d} 个月的期限。"),
            (_, Lang::En) => format!("Its result comes in {t} months, within the {d}-month deadline."),
            (_, Lang::Zh) => format!("其结果需 {t} 个月，在 {d} 个月的期限之内。"),
        });
    }
    for o in e.options.iter().filter(|o| o.id != best.id && o.meets_deadline == Some(false)) {
        let t = o.time_to_complete_months.map_or_else(String::new, |t| format_number(t, 1));
        out.push(match lang {
            Lang::En => format!(
                "{} {}: its result comes in {t} months; it does not meet the requirement, and no saving is measured against it.",
                label(o),
                late_mark(s, o, lang).unwrap_or_default()
            ),
            Lang::Zh => format!(
                "{}{}：结果需 {t} 个月，不满足要求，节省额不以其为比较对象。",
                label(o),
                late_mark(s, o, lang).unwrap_or_default()
            ),
        });
    }
    for o in &e.options {
        if let Some(m) = label_mismatch(o) {
            out.push(match lang {
                Lang::En => format!("{}: {}.", label(o), m.describe(lang)),
                Lang::Zh => format!("{}：{}。", label(o), m.describe(lang)),
            });
        }
    }
    out
}

/// The fleet and time to result of every option, in the ranking's order,
/// with the labels that name another count than the one costed.
pub(crate) fn fleet_table(cv: &mut Canvas, s: &Scenario, ranked: &[&OptionResult], lang: Lang) {
    let header = [
        lang.pick("Option", "方案"),
        lang.pick("Accelerators", "加速卡"),
        lang.pick("Servers or replicas", "服务器或副本"),
        lang.pick("Use", "使用量"),
        lang.pick("Time to result", "出结果时间"),
    ]
    .map(str::to_owned);
    let rows: Vec<Vec<String>> = ranked
        .iter()
        .map(|o| {
            vec![
                marked_label(s, o, lang),
                o.fleet.accelerators_text(lang),
                o.fleet.units_text(lang),
                o.fleet.usage_text(lang),
                time_to_result(s, o, lang),
            ]
        })
        .collect();
    cv.table(
        &[CONTENT_W * 0.27, CONTENT_W * 0.17, CONTENT_W * 0.16, CONTENT_W * 0.2, CONTENT_W * 0.2],
        &header,
        &rows,
        5,
    );
    for o in ranked {
        if let Some(m) = label_mismatch(o) {
            let line = match lang {
                Lang::En => format!("· {}: {}.", for_lang(&o.label, lang), m.describe(lang)),
                Lang::Zh => format!("· {}：{}。", for_lang(&o.label, lang), m.describe(lang)),
            };
            cv.paragraph(&line, 9.0, false, INK);
        }
    }
    cv.note(lang.pick(
        "Accelerators: the most held or running at once (an owned or committed fleet, plus rentals at the busiest time) and the average running; replicas are the groups one job or serving copy runs on. Use: the months the option runs the workload and the accelerator-hours it runs. Time to result counts lead time and porting.",
        "加速卡：同时持有或运行的最大数量（自有或预留的规模，加上最繁忙时段的租用量）与平均运行数量；副本指运行一个任务或一份推理服务所用的一组加速卡。使用量：该方案运行工作负载的月数与加速卡时数。出结果时间含交付周期与迁移时间。",
    ));
}

/// Owned-server costs a scenario can leave out, read as "not counted"
/// when left at the default of zero (field, English, Chinese).
const ZERO_DEFAULTS: [(&str, &str, &str); 5] = [
    ("electricity_per_kwh", "electricity", "电费"),
    ("staff_per_year", "staff", "运维人员"),
    ("colocation_per_kw_month", "hosting", "机房托管"),
    ("maintenance_share_per_year", "maintenance", "维保"),
    ("other_opex_per_year", "other running costs", "其他运营费用"),
];

/// The defaults that move the figures, said in the summary: a residual
/// value credited by default, owned-server costs not counted, and why a
/// net present cost can be above the nominal total.
pub(crate) fn default_points(s: &Scenario, e: &Evaluation, lang: Lang) -> Vec<String> {
    use suanli_model::{Category, format_amount, format_percent};
    let defaults = crate::assumptions::defaults(s);
    let mut out = Vec::new();
    for o in &e.options {
        let Some(spec) = s.options.iter().find(|x| x.id == o.id) else { continue };
        let Some(owned) = &spec.owned else { continue };
        let label = for_lang(&o.label, lang);
        let is_default = |field: &str| {
            !spec.sources.contains_key(field)
                && !spec.sources.contains_key(&format!("owned.{field}"))
                && defaults.contains(&format!("options.{}.owned.{field}", o.id))
        };
        let credit = -o.breakdown(Category::ResidualValue);
        let hardware = o.breakdown(Category::Hardware);
        if credit > 0.0 && is_default("residual") {
            let share = if hardware > 0.0 { format_percent(credit / hardware, 0) } else { "—".into() };
            let amount = format_amount(credit, s.currency, lang);
            let years = format_number(owned.depreciation_years, 1);
            out.push(match lang {
                Lang::En => format!(
                    "Residual value at Suanli's default (book value over {years} years): {label} is credited {amount} ({share} of its hardware) at the horizon; state a resale value if one is known."
                ),
                Lang::Zh => format!(
                    "残值取 Suanli 默认值（按 {years} 年折旧的账面价值）：{label}在评估期末收回 {amount}（占硬件的 {share}）；如已知转售价值，请在场景中设定。"
                ),
            });
        }
        let zero: Vec<&str> = ZERO_DEFAULTS
            .iter()
            .filter(|(field, ..)| is_default(field))
            .map(|(_, en, zh)| lang.pick(*en, *zh))
            .collect();
        // Other running costs the scenario states may cover what is left at zero.
        let other = o.breakdown(Category::OtherOpex);
        if !zero.is_empty() && other > 0.0 {
            let amount = format_amount(other, s.currency, lang);
            out.push(match lang {
                Lang::En => format!(
                    "Not costed separately for {label} (left at Suanli's default of zero): {}; its other running costs, {amount}, are the scenario's figure for them.",
                    zero.join(", ")
                ),
                Lang::Zh => format!(
                    "{label}未单独计入以下成本（保持 Suanli 默认值 0）：{}；场景以其他运营费用 {amount} 涵盖。",
                    zero.join("、")
                ),
            });
        } else if !zero.is_empty() {
            out.push(match lang {
                Lang::En => format!("Not counted for {label} (left at Suanli's default of zero): {}.", zero.join(", ")),
                Lang::Zh => format!("{label}未计入以下成本（保持 Suanli 默认值 0）：{}。", zero.join("、")),
            });
        }
    }
    for o in e.options.iter().filter(|o| o.total_npv > o.total_nominal + 0.5) {
        let label = for_lang(&o.label, lang);
        out.push(match lang {
            Lang::En => format!(
                "The net present cost of {label} is above its nominal total: the money back at the horizon (residual value) is discounted more than the costs paid before it."
            ),
            Lang::Zh => format!("{label}的净现值高于名义总成本：期末收回的残值距今最远，折现后减少最多，抵减的成本因而少于其名义值。"),
        });
    }
    out
}

/// One line per stated price far from the catalogue's, for the summary.
pub(crate) fn price_points(s: &Scenario, e: &Evaluation, facts: &BoardFacts, lang: Lang) -> Vec<String> {
    facts
        .price_flags
        .iter()
        .map(|f| {
            let label = e.option(&f.option_id).map_or_else(|| f.option_id.clone(), |o| for_lang(&o.label, lang));
            let field = crate::labels::input(&f.field, s, lang);
            match lang {
                Lang::En => format!("Check the price: {label}, {}: {}.", field.to_lowercase(), f.describe(lang)),
                Lang::Zh => format!("请核实价格：{label}，{field}：{}。", f.describe(lang)),
            }
        })
        .collect()
}

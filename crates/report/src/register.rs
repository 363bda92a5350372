//! The risk register: every option's risks, each derived from what the
//! catalogue and the engine know (export status for the buyer, supply
//! score, spot interruption, capacity, stale prices, consumer-card licence,
//! porting, lead time, single-provider dependence, exchange rates) or from
//! the scenario's own ranges, each with its likelihood or figure and its
//! source. Every option has at least one: it depends on one provider.

use suanli_model::scenario::ExportStatus;
use suanli_model::uncertainty::Simulation;
use suanli_model::{
    Category, Currency, Lang, OptionKind, OptionResult, OptionSpec, Scenario, format_amount, format_percent,
};

use crate::labels::for_lang;
use crate::proposal::input::ProposalInput;

/// What the catalogue says of an accelerator an option runs on.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct AcceleratorFacts {
    /// Catalogue id.
    pub id: String,
    /// Export-control status for a buyer in China.
    pub export_status_cn: Option<ExportStatus>,
    /// When that status began (`2022-10-07`).
    pub export_since: Option<String>,
    /// The rule behind the status and where to read it, as a client can look it up.
    pub export_source: Option<String>,
    /// A consumer part (NVIDIA GeForce), whose driver licence restricts data-centre use.
    pub consumer: bool,
    /// Its software stack as the catalogue lists it (`CANN, MindSpore`).
    pub software_stack: Option<String>,
}

/// One row of the register.
pub(crate) struct Risk {
    pub option: String,
    pub risk: String,
    pub likelihood: String,
    pub response: String,
    pub source: String,
}

/// Rented cards beyond one 8-card instance: no offer states capacity for more.
const RENTED_AT_ONCE: u32 = 8;

/// Supply-risk scores (of 100) from which the likelihood reads as medium, then high.
const SUPPLY_MEDIUM: f64 = 30.0;
const SUPPLY_HIGH: f64 = 60.0;

/// Whether the buyer is taken to be in China: the scenario's amounts are in
/// CNY (the scenario format has no buyer's country).
pub(crate) fn buyer_in_china(s: &Scenario) -> bool {
    s.currency == Currency::CNY
}

/// Every option's risks, the recommended option's first.
pub(crate) fn register(input: &ProposalInput<'_>, ranked: &[&OptionResult], best: &OptionResult) -> Vec<Risk> {
    let mut order: Vec<&OptionResult> = vec![best];
    order.extend(ranked.iter().copied().filter(|o| o.id != best.id));
    let mut out = Vec::new();
    for o in order {
        if let Some(spec) = input.scenario.options.iter().find(|x| x.id == o.id) {
            out.extend(option_risks(input, spec, o));
        }
    }
    out.extend(scenario_ranges(input));
    out
}

/// Words in the report's language.
fn pick(lang: Lang, en: &str, zh: &str) -> String {
    lang.pick(en, zh).to_owned()
}

fn option_risks(input: &ProposalInput<'_>, spec: &OptionSpec, o: &OptionResult) -> Vec<Risk> {
    let (s, lang) = (input.scenario, input.lang);
    let name = for_lang(&o.label, lang);
    let facts = spec.accelerator.as_deref().and_then(|id| input.board.accelerators.iter().find(|a| a.id == id));
    let mut out: Vec<Risk> = Vec::new();
    let mut push = |risk: String, likelihood: String, response: String, source: String| {
        out.push(Risk { option: name.clone(), risk, likelihood, response, source });
    };
    let catalogue = |lang: Lang| pick(lang, "Suanli catalogue", "Suanli 目录");
    // Export status for a buyer in China.
    if let Some(f) = facts
        && buyer_in_china(s)
        && let Some(status) = f.export_status_cn
        && matches!(status, ExportStatus::LicenceRequired | ExportStatus::Banned | ExportStatus::ChinaOnlyVariant)
    {
        let since = f.export_since.clone().unwrap_or_default();
        let (risk, likelihood) = match (status, lang) {
            (ExportStatus::ChinaOnlyVariant, Lang::En) => {
                ("Export rules tighten on a China-only variant".to_owned(), "not quantified".to_owned())
            }
            (ExportStatus::ChinaOnlyVariant, Lang::Zh) => {
                ("针对中国特供版的出口规则收紧".to_owned(), "未量化".to_owned())
            }
            (ExportStatus::Banned, Lang::En) => {
                ("Export ban for a buyer in China".to_owned(), format!("in force since {since}"))
            }
            (ExportStatus::Banned, Lang::Zh) => ("对中国买方禁止出口".to_owned(), format!("自 {since} 起生效")),
            (_, Lang::En) => {
                ("US export licence required for a buyer in China".to_owned(), format!("in force since {since}"))
            }
            (_, Lang::Zh) => ("中国买方须取得美国出口许可".to_owned(), format!("自 {since} 起生效")),
        };
        let response = match (o.kind, lang) {
            (OptionKind::Buy, _) => pick(
                lang,
                "New cards may not be deliverable: confirm the licence or a compliant part before ordering.",
                "新卡可能无法交付：下单前确认许可或改用合规型号。",
            ),
            _ => pick(
                lang,
                "Rented capacity rests on cards already installed; confirm the provider's fleet and terms, and keep a domestic fallback.",
                "租用算力依赖服务商已部署的存量卡：确认其机群与合同条款，并保留国产备选。",
            ),
        };
        let source = f.export_source.as_deref().map_or_else(|| catalogue(lang), |x| crate::labels::source(x, lang));
        push(risk, likelihood, response, source);
    }
    // The scenario's own export-change event.
    if let Some(sup) = spec.supply.as_ref().filter(|s| s.export_change_probability > 0.0) {
        let p = format_percent(sup.export_change_probability, 0);
        let share = format_percent(sup.export_change_extra_cost_share, 0);
        let months = sup.export_change_delay_months;
        push(
            pick(lang, "Export rules change within the horizon", "评估期内出口规则变化"),
            p,
            match lang {
                Lang::En => format!("{months:.1} months to switch supply, {share} extra cost."),
                Lang::Zh => format!("切换供应需 {months:.1} 个月，额外成本 {share}。"),
            },
            crate::assumptions::option_source(spec, "supply.export_change_probability", lang),
        );
    }
    // The engine's supply-risk score.
    if let Some(score) = &o.supply {
        let level = match score.score {
            x if x >= SUPPLY_HIGH => pick(lang, "high", "高"),
            x if x >= SUPPLY_MEDIUM => pick(lang, "medium", "中"),
            _ => pick(lang, "low", "低"),
        };
        let drivers: Vec<&str> =
            score.drivers.iter().filter(|d| d.points > 0.0).take(3).map(|d| d.label(lang)).collect();
        push(
            pick(lang, "Supply of the accelerators", "加速卡供应"),
            match lang {
                Lang::En => format!("{level} ({:.0} / 100)", score.score),
                Lang::Zh => format!("{level}（{:.0} / 100）", score.score),
            },
            match lang {
                Lang::En => format!("Driven by {}; a second source or a rental fallback.", drivers.join(", ")),
                Lang::Zh => format!("主要因素：{}；保留第二货源或租用备选。", drivers.join("、")),
            },
            pick(
                lang,
                "Suanli default weights (an assumption) on the scenario's supply facts",
                "Suanli 默认权重（假设）作用于场景的供应信息",
            ),
        );
    }
    // Spot interruption.
    if let Some(spot) = &spec.spot {
        push(
            pick(lang, "Spot capacity is interrupted or absent", "竞价实例被中断或无资源"),
            match lang {
                Lang::En => format!(
                    "{} of spot work finds capacity; {} redone",
                    format_percent(spot.availability, 0),
                    format_percent(spot.interruption_overhead, 0)
                ),
                Lang::Zh => format!(
                    "{} 的竞价工作可获资源；{} 需重做",
                    format_percent(spot.availability, 0),
                    format_percent(spot.interruption_overhead, 0)
                ),
            },
            pick(
                lang,
                "Checkpoint often; the rest falls back to on demand (costed).",
                "频繁保存检查点；其余回落到按需（已计入成本）。",
            ),
            crate::assumptions::option_source(spec, "spot.interruption_overhead", lang),
        );
    }
    // Rented capacity no source states.
    if o.kind != OptionKind::Buy && o.fleet.peak_count() > RENTED_AT_ONCE {
        push(
            pick(lang, "Capacity not stated", "供应能力未经说明"),
            match lang {
                Lang::En => format!("{} cards at once", o.fleet.peak_count()),
                Lang::Zh => format!("同时需要 {} 张卡", o.fleet.peak_count()),
            },
            pick(
                lang,
                "No source states the provider can supply this many at once: reserve or confirm in writing.",
                "没有来源说明服务商能同时提供这么多卡：应预留或书面确认。",
            ),
            catalogue(lang),
        );
    }
    // Costed on part of a group: a provider rents whole instances.
    if o.fleet.part_group() > 0 {
        let (whole, peak) = (o.fleet.replicas() * o.fleet.per_replica, o.fleet.peak_count());
        let share = f64::from(whole) / o.fleet.peak_accelerators - 1.0;
        // A share under 1 % keeps a decimal: "+0.4 %", not "+0 %".
        let more = format_percent(share, if share < 0.01 { 1 } else { 0 });
        push(
            pick(lang, "Whole instances cost more", "整机租用成本更高"),
            match lang {
                Lang::En => format!("+{more} ({whole} accelerators, costed on {peak})"),
                Lang::Zh => format!("+{more}（{whole} 张，成本按 {peak} 张计）"),
            },
            match lang {
                Lang::En => format!(
                    "The cost is per accelerator-hour; rented in whole groups of {}, the fleet is {whole}: ask for per-accelerator billing or compare at that size.",
                    o.fleet.per_replica
                ),
                Lang::Zh => format!(
                    "成本按卡时计算；若须按每组 {} 张整租，机群为 {whole} 张：应争取按卡计费，或按该规模比较。",
                    o.fleet.per_replica
                ),
            },
            pick(lang, "the option's fleet as costed", "方案的计价机群"),
        );
    }
    // Stale prices.
    for p in input.price_dates.iter().filter(|p| p.stale && p.option_id == o.id) {
        push(
            pick(lang, "Price out of date", "价格已过时"),
            match lang {
                Lang::En => format!("{} months old", p.age_months.unwrap_or(0)),
                Lang::Zh => format!("已 {} 个月", p.age_months.unwrap_or(0)),
            },
            pick(lang, "Get a current quote before committing.", "签约前取得最新报价。"),
            match lang {
                Lang::En => format!("{} of {}", crate::labels::input(&p.field, s, lang), p.date),
                Lang::Zh => format!("{}，日期 {}", crate::labels::input(&p.field, s, lang), p.date),
            },
        );
    }
    // Prices far from the catalogue's.
    for f in input.board.price_flags.iter().filter(|f| f.option_id == o.id) {
        let factor = f.factor();
        let times = suanli_model::format_number(if factor < 1.0 { 1.0 / factor } else { factor }, 1);
        push(
            pick(lang, "Price far from the market", "价格与市场相差甚远"),
            match (factor < 1.0, lang) {
                (true, Lang::En) => format!("{times}× below the catalogue's range"),
                (false, Lang::En) => format!("{times}× above the catalogue's range"),
                (true, Lang::Zh) => format!("仅为目录区间下限的 {}", suanli_model::format_percent(factor, 0)),
                (false, Lang::Zh) => format!("为目录区间上限的 {times} 倍"),
            },
            match lang {
                Lang::En => format!(
                    "The catalogue has {} ({} offer{}); get a written quote at this price before relying on it.",
                    f.range_text(lang),
                    f.range.offers,
                    if f.range.offers == 1 { "" } else { "s" }
                ),
                Lang::Zh => format!(
                    "目录价格为 {}（{} 个报价）；依赖该价格前应取得书面报价。",
                    f.range_text(lang),
                    f.range.offers
                ),
            },
            crate::assumptions::option_source(spec, &f.field, lang),
        );
    }
    // Consumer cards.
    if facts.is_some_and(|f| f.consumer) {
        push(
            pick(lang, "Consumer card in a data centre", "消费级显卡用于数据中心"),
            pick(lang, "licence terms apply", "受许可条款约束"),
            pick(
                lang,
                "NVIDIA's GeForce driver licence restricts data-centre deployment: have counsel confirm the use.",
                "NVIDIA GeForce 驱动许可限制在数据中心部署：请法务确认用途。",
            ),
            pick(lang, "NVIDIA GeForce driver software licence", "NVIDIA GeForce 驱动软件许可"),
        );
    }
    // Porting.
    if let Some(p) = o.porting.as_ref().filter(|p| p.cost > 0.0 || p.delay_months > 0.0) {
        push(
            pick(lang, "Porting off CUDA takes longer", "脱离 CUDA 的迁移耗时更长"),
            match lang {
                Lang::En => format!("{}, {:.1} months", format_amount(p.cost, s.currency, lang), p.delay_months),
                Lang::Zh => format!("{}，{:.1} 个月", format_amount(p.cost, s.currency, lang), p.delay_months),
            },
            pick(
                lang,
                "Port a pilot model first; keep the incumbent until it runs.",
                "先迁移一个试点模型；迁移完成前保留现有方案。",
            ),
            pick(lang, "Suanli porting model on the scenario's porting inputs", "Suanli 迁移模型，基于场景的迁移输入"),
        );
    }
    // Lead time.
    if let Some(lead) = spec.owned.as_ref().map(|p| p.lead_time_months).filter(|m| *m > 0) {
        push(
            pick(lang, "Delivery later than planned", "交付晚于计划"),
            match lang {
                Lang::En => format!("{lead} months planned"),
                Lang::Zh => format!("计划 {lead} 个月"),
            },
            pick(
                lang,
                "Bridge with rented capacity; delivery dates in the contract.",
                "以租用算力过渡；合同中约定交付日期。",
            ),
            crate::assumptions::option_source(spec, "owned.lead_time_months", lang),
        );
    }
    // Exchange rates.
    if let Some((share, cur)) = foreign_share(s, spec, o) {
        push(
            pick(lang, "Exchange rate moves", "汇率变动"),
            match lang {
                Lang::En => format!("{} of the cost in {cur}", format_percent(share, 0)),
                Lang::Zh => format!("{} 的成本以 {cur} 计", format_percent(share, 0)),
            },
            pick(lang, "Price or hedge in the home currency.", "以本币定价或做汇率对冲。"),
            crate::assumptions::fx_source(s, lang),
        );
    }
    // One provider: every option has it.
    push(
        pick(lang, "Dependence on one provider", "依赖单一供应方"),
        match (o.kind, lang) {
            (OptionKind::Buy, Lang::En) => "all capacity from one server purchase".to_owned(),
            (OptionKind::Buy, Lang::Zh) => "全部算力来自一次服务器采购".to_owned(),
            (_, Lang::En) => "all rented capacity from one offer".to_owned(),
            (_, Lang::Zh) => "全部租用算力来自一个报价".to_owned(),
        },
        pick(lang, "Qualify a second provider; keep the workload portable.", "认证第二家供应方；保持工作负载可迁移。"),
        pick(lang, "the option as the scenario states it", "场景对该方案的设定"),
    );
    out
}

/// The share of an option's cost whose price is in another currency than
/// the scenario's, and that currency; `None` when all of it is in the scenario's.
fn foreign_share(s: &Scenario, spec: &OptionSpec, o: &OptionResult) -> Option<(f64, Currency)> {
    let pools = [
        (spec.on_demand.as_ref().and_then(|p| p.currency), Category::OnDemand),
        (spec.reserved.as_ref().and_then(|p| p.currency), Category::Reserved),
        (spec.spot.as_ref().and_then(|p| p.currency), Category::Spot),
        (spec.owned.as_ref().and_then(|p| p.currency), Category::Hardware),
    ];
    let total = o.total_nominal.abs();
    let mut foreign = 0.0;
    let mut currency = None;
    for (c, cat) in pools {
        if let Some(c) = c.filter(|c| *c != s.currency) {
            foreign += o.breakdown(cat);
            currency = Some(c);
        }
    }
    currency.filter(|_| total > 0.0 && foreign > 0.0).map(|c| ((foreign / total).min(1.0), c))
}

/// The scenario's own ranges, each a risk of the options it bears on.
fn scenario_ranges(input: &ProposalInput<'_>) -> Vec<Risk> {
    let (s, lang) = (input.scenario, input.lang);
    let all = pick(lang, "all options", "全部方案");
    let mut out: Vec<Risk> = s
        .uncertainty
        .iter()
        .map(|u| {
            let option = u
                .path
                .strip_prefix("options.")
                .and_then(|rest| s.options.iter().find(|o| rest.starts_with(&format!("{}.", o.id))))
                .map_or_else(|| all.clone(), |o| for_lang(if o.label.is_empty() { &o.id } else { &o.label }, lang));
            Risk {
                option,
                risk: crate::labels::input(&u.path, s, lang),
                likelihood: crate::assumptions::range_text(&u.range, lang),
                response: pick(
                    lang,
                    "Drawn in the simulation (P10–P90 in section “How sure the numbers are”).",
                    "已纳入模拟（P10–P90 见“数字的确定性”一节）。",
                ),
                source: if u.source.is_empty() {
                    pick(lang, "user assumption", "用户假设")
                } else {
                    crate::labels::source(&u.source, lang)
                },
            }
        })
        .collect();
    if let Some(sim) = input.simulation {
        out.extend(p90_rows(input, sim));
    }
    out
}

/// Each option's spread above the median, when the simulation has one.
fn p90_rows(input: &ProposalInput<'_>, sim: &Simulation) -> Vec<Risk> {
    let lang = input.lang;
    let c = input.evaluation.currency;
    sim.options
        .iter()
        .filter(|r| r.npv.p90 > r.npv.p50)
        .map(|r| Risk {
            option: input.evaluation.option(&r.id).map_or_else(|| r.label.clone(), |o| for_lang(&o.label, lang)),
            risk: pick(lang, "Cost above the median", "成本高于中位数"),
            likelihood: match lang {
                Lang::En => "10 % (P90 exceeded)".to_owned(),
                Lang::Zh => "10%（超过 P90）".to_owned(),
            },
            response: match lang {
                Lang::En => format!(
                    "{} or more above the median; fix prices by contract.",
                    format_amount(r.npv.p90 - r.npv.p50, c, lang)
                ),
                Lang::Zh => {
                    format!("比中位数高出 {} 以上；以合同锁定价格。", format_amount(r.npv.p90 - r.npv.p50, c, lang))
                }
            },
            source: pick(lang, "Suanli simulation of the scenario's ranges", "Suanli 对场景区间的模拟"),
        })
        .collect()
}

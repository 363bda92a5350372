//! The error vocabulary: one broken rule ([`InputError`]), the closed set
//! of rules ([`Rule`]) and what each says in English and Chinese.

use std::fmt;

use super::{MAX_FIGURE, MAX_REFRESH_COMPOUND};
use crate::Lang;
use crate::money::Currency;
use crate::scenario::*;

/// One broken rule.
#[derive(Debug, Clone, PartialEq)]
pub struct InputError {
    /// Field path as written in the scenario file.
    pub path: String,
    /// The value found, as text (`(missing)` when absent).
    pub value: String,
    /// The rule it breaks.
    pub rule: Rule,
}

impl InputError {
    /// An error at `path` for `value` (a long number is written in exponent form).
    pub fn new(path: impl Into<String>, value: impl fmt::Display, rule: Rule) -> Self {
        let mut value = value.to_string();
        // 1e300 reads better than three hundred digits.
        if value.len() > 15
            && let Ok(x) = value.parse::<f64>()
        {
            value = format!("{x:e}");
        }
        InputError { path: path.into(), value, rule }
    }

    /// An error at `path` for a field that is absent (the value reads `(missing)`).
    pub fn missing(path: impl Into<String>, rule: Rule) -> Self {
        InputError { path: path.into(), value: "(missing)".to_owned(), rule }
    }

    /// `options[0].owned.pue = 0.5: must be at least 1`
    pub fn message(&self, lang: Lang) -> String {
        format!("{} = {}: {}", self.path, self.value, self.rule.describe(lang))
    }
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message(Lang::En))
    }
}

/// What is allowed. A closed set, so every front end can say it in the
/// user's language.
#[derive(Debug, Clone, PartialEq)]
pub enum Rule {
    /// Not a finite number (NaN or infinite).
    NotFinite,
    /// Negative: must be 0 or more.
    Negative,
    /// Not above 0.
    NotPositive,
    /// A share: 0 ≤ x ≤ 1.
    Share,
    /// At least `min`.
    AtLeast {
        /// The smallest value allowed.
        min: f64,
    },
    /// Between `min` and `max`, both included.
    Between {
        /// The smallest value allowed.
        min: f64,
        /// The largest value allowed.
        max: f64,
    },
    /// Required here, and absent.
    Required,
    /// A price, or an `offer` id the catalogue resolves.
    PriceOrOffer,
    /// An `offer` id that the catalogue did not resolve into a price.
    UnresolvedOffer,
    /// A section or field that the option's kind does not use.
    NotUsedByKind {
        /// The option's kind.
        kind: OptionKind,
    },
    /// A mix with no base pool (`owned` or `reserved`) and not both `on_demand` and `spot`.
    MixNeedsBase,
    /// A mix with both `owned` and `reserved`.
    MixOneBase,
    /// A mix with neither `on_demand` nor `spot`.
    MixNeedsRental,
    /// A mix, or `[optimise]`, with a single-job demand.
    MixNeedsSharedDemand,
    /// Spot availability below 1 with no `on_demand` pool to fall back to.
    SpotNeedsFallback,
    /// A job's work neither given (`ref_gpu_hours`) nor fully derivable
    /// (`parameters`, `tokens`, `mfu`, `reference_peak_tflops`).
    WorkMissing,
    /// A job's work given as `ref_gpu_hours` and derived as well.
    WorkTwice,
    /// A profile with neither `monthly_ref_gpus` nor `hourly_ref_gpus`.
    ProfileMissing,
    /// A profile with both `monthly_ref_gpus` and `hourly_ref_gpus`.
    ProfileTwice,
    /// A `shape` beside `hourly_ref_gpus`.
    ShapeWithHourly,
    /// `normal_share` + `low_priority_share` above 1.
    SharesAboveOne,
    /// An `interconnect` that names no scaling curve.
    UnknownCurve,
    /// An id used twice.
    Duplicate,
    /// A currency other than the scenario's, with no rate in `[fx]`.
    MissingFx {
        /// The currency without a rate.
        currency: Currency,
    },
    /// Values that must ascend and do not (scaling-curve points, a `[low, mode, high]` triple).
    NotAscending,
    /// An empty list (or an `[optimise]` naming no template) that needs at least one entry.
    AtLeastOne,
    /// A value so close to 0 that it cannot be computed with (a subnormal number).
    Subnormal,
    /// A demand profile whose every value is 0: there is no work to price.
    NoDemand,
    /// More options than a scenario may hold.
    TooManyOptions {
        /// The most allowed.
        max: usize,
    },
    /// Options × months of the horizon beyond what a scenario may hold.
    TooManyOptionMonths {
        /// Options × `horizon_months` found.
        found: usize,
        /// The most allowed.
        max: usize,
    },
    /// A field or command that needs a scenario section that is absent.
    NeedsSection {
        /// The section's name.
        section: String,
    },
    /// A mix's reserved base without `accelerators`.
    ReservedNeedsSize,
    /// `spot_below` above `base_above` + 1: the priority tiers overlap.
    RuleOverlap,
    /// An owned option's on-demand overflow with a single job.
    OverflowNeedsSharedDemand,
    /// A path that names nothing in the scenario.
    Path {
        /// Why it names nothing, and what is allowed.
        why: String,
    },
    /// A range end that makes another field invalid.
    RangeBreaks {
        /// Path where the range end breaks a rule.
        field: String,
        /// The rule it breaks there.
        rule: Box<Rule>,
    },
    /// The optimiser names an option that lacks the pool it needs.
    TemplateLacks {
        /// The pool it lacks (`owned|reserved`, `on_demand` or `spot`).
        pool: String,
    },
    /// Finite but beyond any real figure.
    TooLarge {
        /// The largest value allowed.
        max: f64,
    },
    /// An inference demand without tokens per second or per day.
    TokensMissing,
    /// An inference demand with both `tokens_per_second` and `tokens_per_day`.
    TokensTwice,
    /// An inference demand whose throughput on the reference GPU is neither
    /// stated nor estimated from the catalogue.
    ThroughputMissing,
    /// A pool with both a catalogue offer and its own price.
    OfferAndPrice,
    /// `market_residual_share` set while the residual is book value.
    OnlyWithMarketResidual,
    /// An `[options.sources]` key that names no field of an option.
    UnknownSourceField,
    /// An accelerator id the catalogue does not know (checked when the
    /// scenario is resolved against the catalogue).
    UnknownAccelerator {
        /// The catalogue's ids closest to it (shared prefix, then edit
        /// distance), nearest first; empty when none is close.
        closest: Vec<String>,
    },
    /// Greater than `min` and at most `max`.
    AboveAtMost {
        /// The bound it must exceed.
        min: f64,
        /// The largest value allowed.
        max: f64,
    },
    /// A refresh factor that, compounded over the horizon's refreshes,
    /// leaves [`MAX_REFRESH_COMPOUND`].
    RefreshCompounds {
        /// Refreshes within the horizon.
        refreshes: u32,
        /// The factor compounded over them.
        compounded: f64,
    },
    /// Not an ISO 3166 alpha-2 country code (`CN`, `US`).
    CountryCode,
    /// A computed figure that is not finite or beyond [`MAX_FIGURE`]; the
    /// error's path is where it arose, `inputs` what it is computed from.
    FigureBeyondBound {
        /// The option's id, when the figure is an option's.
        option: Option<String>,
        /// Which figure.
        figure: crate::figure::Figure,
        /// Its value.
        found: f64,
        /// Scenario paths of the inputs it is computed from.
        inputs: Vec<String>,
    },
}

impl Rule {
    /// What the rule asks for, in `lang`.
    pub fn describe(&self, lang: Lang) -> String {
        let zh = lang == Lang::Zh;
        match self {
            Rule::NotFinite => lang.pick("must be a finite number", "必须是有限数值").to_owned(),
            Rule::Negative => lang.pick("must not be negative", "不能为负数").to_owned(),
            Rule::NotPositive => lang.pick("must be greater than 0", "必须大于 0").to_owned(),
            Rule::Share => lang.pick("must be between 0 and 1", "必须在 0 到 1 之间").to_owned(),
            Rule::AtLeast { min } => {
                if zh {
                    format!("必须不小于 {min}")
                } else {
                    format!("must be at least {min}")
                }
            }
            Rule::Between { min, max } => {
                if zh {
                    format!("必须在 {min} 到 {max} 之间")
                } else {
                    format!("must be between {min} and {max}")
                }
            }
            Rule::Required => lang.pick("is required here", "此处为必填项").to_owned(),
            Rule::PriceOrOffer => lang.pick("set price_per_accel_hour, or an offer id that the catalogue resolves", "请填写 price_per_accel_hour，或填写可由目录解析的报价 offer").to_owned(),
            Rule::UnresolvedOffer => lang.pick("this offer was not resolved from the catalogue; evaluate through the catalogue or set price_per_accel_hour", "该报价未能从目录解析；请通过目录计算，或直接填写 price_per_accel_hour").to_owned(),
            Rule::NotUsedByKind { kind } => {
                if zh {
                    format!("{}方案不使用此项", kind_zh(*kind))
                } else {
                    format!("is not used by a {} option", kind_en(*kind))
                }
            }
            Rule::MixNeedsBase => lang.pick("a mix needs a base pool ([owned] or [reserved]), or both [on_demand] and [spot]", "混合方案需要基础资源池（[owned] 或 [reserved]），或同时具备 [on_demand] 与 [spot]").to_owned(),
            Rule::MixOneBase => lang.pick("a mix has one base pool: [owned] or [reserved], not both", "混合方案只能有一个基础资源池：[owned] 或 [reserved]，不能同时设置").to_owned(),
            Rule::MixNeedsRental => lang.pick("a mix needs [on_demand] or [spot] beside its base", "混合方案除基础资源池外还需要 [on_demand] 或 [spot]").to_owned(),
            Rule::MixNeedsSharedDemand => lang.pick("a mix serves a demand profile or a job portfolio, not a single job", "混合方案适用于需求曲线或任务组合，不适用于单个任务").to_owned(),
            Rule::SpotNeedsFallback => lang.pick("spot availability below 1 needs an [on_demand] pool to fall back to", "竞价可用率低于 1 时需要 [on_demand] 资源池作为回退").to_owned(),
            Rule::WorkMissing => lang.pick("give ref_gpu_hours, or parameters, tokens, mfu and reference_peak_tflops", "请填写 ref_gpu_hours，或填写 parameters、tokens、mfu 和 reference_peak_tflops").to_owned(),
            Rule::WorkTwice => lang.pick("give ref_gpu_hours or parameters × tokens, not both", "ref_gpu_hours 与 parameters × tokens 只能二选一").to_owned(),
            Rule::ProfileMissing => {
                lang.pick("give monthly_ref_gpus or hourly_ref_gpus", "请填写 monthly_ref_gpus 或 hourly_ref_gpus").to_owned()
            }
            Rule::ProfileTwice => lang.pick("give monthly_ref_gpus or hourly_ref_gpus, not both", "monthly_ref_gpus 与 hourly_ref_gpus 只能二选一").to_owned(),
            Rule::ShapeWithHourly => lang.pick("shape applies to monthly_ref_gpus only; an hourly profile has its own shape", "shape 只适用于 monthly_ref_gpus；逐小时需求自带形状").to_owned(),
            Rule::SharesAboveOne => lang.pick("normal_share + low_priority_share must not exceed 1", "normal_share 与 low_priority_share 之和不能超过 1").to_owned(),
            Rule::UnknownCurve => {
                lang.pick("names no scaling curve in [[scaling_curves]]", "在 [[scaling_curves]] 中找不到该扩展效率曲线").to_owned()
            }
            Rule::Duplicate => lang.pick("is used twice; ids must be unique", "重复；标识必须唯一").to_owned(),
            Rule::MissingFx { currency } => {
                if zh {
                    format!("使用了 {currency}，但 [fx] 中没有 {currency} 的汇率")
                } else {
                    format!("uses {currency}, but [fx] has no rate for {currency}")
                }
            }
            Rule::NotAscending => {
                lang.pick("points must be in ascending order of accelerators", "各点必须按加速卡数量升序排列").to_owned()
            }
            Rule::AtLeastOne => lang.pick("needs at least one entry", "至少需要一项").to_owned(),
            Rule::Subnormal => lang
                .pick(
                    "is too small to compute with (nonzero but below 2.2e-308); give 0 or a real figure",
                    "数值过小，无法计算（非零但小于 2.2e-308）；请填 0 或实际数值",
                )
                .to_owned(),
            Rule::NoDemand => lang
                .pick("is zero in every period: there is no work to price", "每个时段都为 0：没有可计价的工作量")
                .to_owned(),
            Rule::TooManyOptions { max } => {
                if zh {
                    format!("一个场景最多 {max} 个方案")
                } else {
                    format!("a scenario holds at most {max} options")
                }
            }
            Rule::TooManyOptionMonths { found, max } => {
                if zh {
                    format!("方案数 × horizon_months 为 {found}，最多 {max}；请减少方案或缩短期限")
                } else {
                    format!("options × horizon_months is {found}, at most {max}; drop options or shorten the horizon")
                }
            }
            Rule::NeedsSection { section } => {
                if zh {
                    format!("需要场景中的 [{section}] 部分")
                } else {
                    format!("needs a [{section}] section in the scenario")
                }
            }
            Rule::ReservedNeedsSize => lang.pick("a mix's reserved base needs its committed accelerators", "混合方案的预留基础资源池需要填写承诺的加速卡数量").to_owned(),
            Rule::OverflowNeedsSharedDemand => lang.pick("a buy option's on-demand overflow serves a profile or portfolio; a single job runs on the owned fleet", "自购方案的按需溢出只用于需求曲线或任务组合；单个任务只在自有集群上运行").to_owned(),
            Rule::Path { why } => {
                if zh {
                    format!("路径无效：{why}")
                } else {
                    format!("is not a path Suanli knows: {why}")
                }
            }
            Rule::RangeBreaks { field, rule } => {
                if zh {
                    format!("该端点使 {field} 无效：{}", rule.describe(lang))
                } else {
                    format!("this end makes {field} invalid: {}", rule.describe(lang))
                }
            }
            Rule::TooLarge { max } => {
                if zh {
                    format!("数值过大，不能超过 {max:e}")
                } else {
                    format!("is beyond any real figure; at most {max:e}")
                }
            }
            Rule::TemplateLacks { pool } => {
                if zh {
                    format!("所指方案没有 [{pool}] 资源池")
                } else {
                    format!("names an option without a [{pool}] pool")
                }
            }
            Rule::TokensMissing => lang
                .pick("give tokens_per_second or tokens_per_day", "请填写 tokens_per_second 或 tokens_per_day")
                .to_owned(),
            Rule::TokensTwice => lang
                .pick("give tokens_per_second or tokens_per_day, not both", "tokens_per_second 与 tokens_per_day 只能二选一")
                .to_owned(),
            Rule::ThroughputMissing => lang
                .pick(
                    "state the reference GPU's tokens per second, or evaluate through the catalogue to estimate it",
                    "请填写参考卡每秒输出 token 数，或通过目录计算以估算该值",
                )
                .to_owned(),
            Rule::OfferAndPrice => lang.pick(
                "names a catalogue offer and sets price_per_accel_hour too; give the offer or the price, not both",
                "同时填写了目录报价 offer 和 price_per_accel_hour；二者只能选其一",
            )
            .to_owned(),
            Rule::OnlyWithMarketResidual => lang.pick(
                "is used only with residual = \"market\"; with book value (the default) it would be ignored",
                "仅在 residual = \"market\" 时使用；按账面价值（默认）计算残值时它会被忽略",
            )
            .to_owned(),
            Rule::UnknownSourceField => lang.pick(
                "names no field of an option; a source or a date is keyed by a field (efficiency_ratio) or pool.field (owned.capex_per_server)",
                "不是方案的字段；来源或日期须以字段名（如 efficiency_ratio）或 资源池.字段（如 owned.capex_per_server）为键",
            )
            .to_owned(),
            Rule::UnknownAccelerator { closest } => {
                let mut text = lang
                    .pick(
                        "names no accelerator in the catalogue; use an id from `suanli catalog list accelerators`, or leave it out",
                        "目录中没有该加速卡；请使用 `suanli catalog list accelerators` 中的标识，或不填此项",
                    )
                    .to_owned();
                if !closest.is_empty() {
                    text.push_str(&match lang {
                        crate::Lang::En => format!(" (did you mean {}?)", closest.join(", ")),
                        crate::Lang::Zh => format!("（是否想填：{}？）", closest.join("、")),
                    });
                }
                text
            }
            Rule::AboveAtMost { min, max } => {
                if zh {
                    format!("必须大于 {min} 且不超过 {max}")
                } else {
                    format!("must be greater than {min} and at most {max}")
                }
            }
            Rule::RefreshCompounds { refreshes, compounded } => {
                let max = MAX_REFRESH_COMPOUND;
                if zh {
                    format!(
                        "在评估期内的 {refreshes} 次换代中累积为 {compounded:e} 倍，超出 1/{max:e} 到 {max:e} 倍的范围；请降低该系数、加长 refresh.interval_months 或缩短评估期"
                    )
                } else {
                    format!(
                        "compounds to {compounded:e}× over the horizon's {refreshes} refreshes, outside 1/{max:e} to {max:e}×; lower the factor, lengthen refresh.interval_months or shorten the horizon"
                    )
                }
            }
            Rule::CountryCode => lang
                .pick(
                    "must be an ISO 3166 two-letter country code, such as CN or US",
                    "必须是 ISO 3166 两位国家代码，例如 CN 或 US",
                )
                .to_owned(),
            Rule::FigureBeyondBound { option, figure, found, inputs } => {
                let what = figure.label(lang);
                let found = if found.is_finite() {
                    format!("{found:e}")
                } else {
                    lang.pick("a number that is not finite", "非有限数值").to_owned()
                };
                let inputs = inputs.join(", ");
                match (zh, option) {
                    (true, Some(id)) => format!(
                        "方案 {id:?} 的{what}为 {found}，超出任何实际数值（最大 {MAX_FIGURE:e}）；由这些输入算出：{inputs}"
                    ),
                    (true, None) => {
                        format!("{what}为 {found}，超出任何实际数值（最大 {MAX_FIGURE:e}）；由这些输入算出：{inputs}")
                    }
                    (false, Some(id)) => format!(
                        "option {id:?}: its {what} comes to {found}, beyond any real figure (at most {MAX_FIGURE:e}); it is computed from {inputs}"
                    ),
                    (false, None) => format!(
                        "the {what} comes to {found}, beyond any real figure (at most {MAX_FIGURE:e}); it is computed from {inputs}"
                    ),
                }
            }
            Rule::RuleOverlap => {
                lang.pick("spot_below must not exceed base_above + 1", "spot_below 不能大于 base_above + 1").to_owned()
            }
        }
    }
}

pub(crate) fn kind_en(kind: OptionKind) -> &'static str {
    match kind {
        OptionKind::Buy => "buy",
        OptionKind::Rent => "rent",
        OptionKind::Mix => "mix",
    }
}

pub(crate) fn kind_zh(kind: OptionKind) -> &'static str {
    match kind {
        OptionKind::Buy => "自购",
        OptionKind::Rent => "租用",
        OptionKind::Mix => "混合",
    }
}

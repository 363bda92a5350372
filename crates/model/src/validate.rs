//! Every rule a scenario must meet before it is evaluated.
//!
//! Each broken rule becomes an [`InputError`] naming the field path (as
//! written in the scenario file: `options[2].spot.availability`), the value
//! found and what is allowed, in English or Chinese. Validation collects all
//! errors rather than stopping at the first.

use std::collections::BTreeSet;
use std::fmt;

use crate::Lang;
use crate::money::Currency;
use crate::scenario::*;

/// The longest horizon the engine accepts (20 years).
pub const MAX_HORIZON_MONTHS: u32 = 240;

/// Bounds on counts: far beyond any real cluster, and small enough that
/// no product of them overflows.
pub const MAX_SERVERS: u32 = 1_000_000;
/// The most accelerators one server may hold.
pub const MAX_ACCELERATORS_PER_SERVER: u32 = 1_024;
/// The most accelerators a job, replica or reserved commitment may run on.
pub const MAX_CLUSTER: u32 = 10_000_000;

/// No amount, price, count of GPUs or volume may exceed this (a million
/// million): far beyond any real figure, and small enough that every sum
/// over a 240-month horizon stays finite.
pub const MAX_QUANTITY: f64 = 1e12;

/// The smallest ratio, share or count the engine divides by.
pub const MIN_DIVISOR: f64 = 1e-3;

/// No figure the engine reports (an amount, a price, hours, months) may
/// exceed this in magnitude: a million times the largest input. Real totals
/// are far below it (a trillion yuan is 1e12); a result beyond it comes from
/// inputs at their extremes together, and is refused with those inputs named.
pub const MAX_FIGURE: f64 = MAX_QUANTITY * 1e6;

/// How far generation refresh may move a rental price or throughput over the
/// horizon, either way: `factor ^ refreshes` within 1e-6 ..= 1e6 (×2 work
/// every 18 months for 20 years is 8,192).
pub const MAX_REFRESH_COMPOUND: f64 = 1e6;

/// Bounds on one refresh's factors: a generation a hundred times dearer or
/// cheaper, faster or slower, is beyond any real refresh.
pub const REFRESH_FACTOR: (f64, f64) = (0.01, 100.0);

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
        figure: crate::bounds::Figure,
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
                    format!("{} 方案不使用此项", kind_zh(*kind))
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

/// Checks the whole scenario; `Ok` means [`crate::evaluate()`] can run it.
pub fn validate(s: &Scenario) -> Result<(), Vec<InputError>> {
    let mut v = Checker { errors: Vec::new(), scenario: s };
    v.scenario();
    if v.errors.is_empty() { Ok(()) } else { Err(v.errors) }
}

struct Checker<'a> {
    errors: Vec<InputError>,
    scenario: &'a Scenario,
}

impl Checker<'_> {
    fn push(&mut self, e: InputError) {
        self.errors.push(e);
    }

    fn finite(&mut self, path: impl fmt::Display + Copy, x: f64) -> bool {
        if x.is_finite() {
            true
        } else {
            self.push(InputError::new(path.to_string(), x, Rule::NotFinite));
            false
        }
    }

    fn non_negative(&mut self, path: impl fmt::Display + Copy, x: f64) {
        if self.finite(path, x) {
            if x.is_subnormal() {
                self.push(InputError::new(path.to_string(), x, Rule::Subnormal));
            } else if x < 0.0 {
                self.push(InputError::new(path.to_string(), x, Rule::Negative));
            } else {
                self.not_absurd(path, x);
            }
        }
    }

    fn positive(&mut self, path: impl fmt::Display + Copy, x: f64) {
        if self.finite(path, x) {
            if x.is_subnormal() {
                self.push(InputError::new(path.to_string(), x, Rule::Subnormal));
            } else if x <= 0.0 {
                self.push(InputError::new(path.to_string(), x, Rule::NotPositive));
            } else {
                self.not_absurd(path, x);
            }
        }
    }

    /// Something the engine divides by: positive, and not so small that a
    /// quotient becomes infinite (an accelerator a thousand times slower
    /// than the reference is already no option).
    fn divisor(&mut self, path: impl fmt::Display + Copy, x: f64) {
        if self.finite(path, x) && x < MIN_DIVISOR {
            self.push(InputError::new(path.to_string(), x, Rule::AtLeast { min: MIN_DIVISOR }));
        } else {
            self.not_absurd(path, x);
        }
    }

    /// A share the engine divides by: at least [`MIN_DIVISOR`], at most 1.
    fn share_divisor(&mut self, path: impl fmt::Display + Copy, x: f64) {
        if self.finite(path, x) && !(MIN_DIVISOR..=1.0).contains(&x) {
            self.push(InputError::new(path.to_string(), x, Rule::Between { min: MIN_DIVISOR, max: 1.0 }));
        }
    }

    /// Finite but absurd (a price of 1e300) would overflow sums to infinity.
    fn not_absurd(&mut self, path: impl fmt::Display + Copy, x: f64) {
        if x > MAX_QUANTITY {
            self.push(InputError::new(path.to_string(), x, Rule::TooLarge { max: MAX_QUANTITY }));
        }
    }

    fn share(&mut self, path: impl fmt::Display + Copy, x: f64) {
        if self.finite(path, x) && !(0.0..=1.0).contains(&x) {
            self.push(InputError::new(path.to_string(), x, Rule::Share));
        }
    }

    fn between(&mut self, path: impl fmt::Display + Copy, x: f64, min: f64, max: f64) {
        if self.finite(path, x) && !(min..=max).contains(&x) {
            self.push(InputError::new(path.to_string(), x, Rule::Between { min, max }));
        }
    }

    /// A count of things: at least 1, at most `max`.
    fn count(&mut self, path: impl fmt::Display + Copy, n: u32, max: u32) {
        if n == 0 || n > max {
            self.push(InputError::new(path.to_string(), n, Rule::Between { min: 1.0, max: f64::from(max) }));
        }
    }

    fn currency(&mut self, path: impl fmt::Display + Copy, c: Option<Currency>) {
        if let Some(c) = c
            && c != self.scenario.currency
            && !self.scenario.fx.contains_key(&c)
        {
            self.push(InputError::new(path.to_string(), c, Rule::MissingFx { currency: c }));
        }
    }

    fn scenario(&mut self) {
        let s = self.scenario;
        if s.name.trim().is_empty() {
            self.push(InputError::missing("name", Rule::Required));
        }
        if !(1..=MAX_HORIZON_MONTHS).contains(&s.horizon_months) {
            self.push(InputError::new(
                "horizon_months",
                s.horizon_months,
                Rule::Between { min: 1.0, max: MAX_HORIZON_MONTHS as f64 },
            ));
        }
        self.between("discount_rate_annual", s.discount_rate_annual, 0.0, 1.0);
        for (c, rate) in &s.fx {
            self.positive(format_args!("fx.{c}"), *rate);
        }
        self.scheduling();
        self.refresh();
        self.curves();
        self.demand();
        if let Some(v) = &s.vat {
            self.between("vat.goods_rate", v.goods_rate, 0.0, 1.0);
            self.between("vat.services_rate", v.services_rate, 0.0, 1.0);
        }
        if let Some(en) = &s.energy {
            // The dirtiest grids emit about 1 kg a kWh (coal alone); 2 leaves room.
            self.between("energy.grid_kg_co2_per_kwh", en.grid_kg_co2_per_kwh, 0.0, 2.0);
        }
        if let Some(st) = &s.storage {
            self.currency("storage.currency", st.currency);
            self.non_negative("storage.dataset_tb", st.dataset_tb);
            self.non_negative("storage.object_price_per_tb_month", st.object_price_per_tb_month);
            self.non_negative("storage.attached_price_per_tb_month", st.attached_price_per_tb_month);
            self.non_negative("storage.attached_copies", st.attached_copies);
            self.non_negative("storage.reads_per_month", st.reads_per_month);
            self.non_negative("storage.transfer_price_per_tb", st.transfer_price_per_tb);
        }
        if let Some(e) = &s.edge {
            self.currency("edge.currency", e.currency);
            self.non_negative("edge.raw_tb_per_month", e.raw_tb_per_month);
            self.share("edge.feature_share", e.feature_share);
            self.non_negative("edge.bandwidth_price_per_tb", e.bandwidth_price_per_tb);
            self.non_negative("edge.edge_sites_per_month", e.edge_sites_per_month);
            if let Some(x) = e.latency_ms_raw {
                self.non_negative("edge.latency_ms_raw", x);
            }
            if let Some(x) = e.latency_ms_features {
                self.non_negative("edge.latency_ms_features", x);
            }
        }
        if let Some(p) = &s.porting {
            self.currency("porting.currency", p.currency);
            self.non_negative("porting.code_kloc", p.code_kloc);
            self.non_negative("porting.custom_kernels", p.custom_kernels);
            self.non_negative("porting.engineer_month_cost", p.engineer_month_cost);
            self.divisor("porting.engineers", p.engineers);
            if let Some(b) = p.bridge_price_per_ref_gpu_hour {
                self.non_negative("porting.bridge_price_per_ref_gpu_hour", b);
            }
            for (m, e) in &p.effort {
                let b = format!("porting.effort.{}", format!("{m:?}").to_lowercase());
                self.non_negative(format_args!("{b}.months_per_kloc"), e.months_per_kloc);
                self.non_negative(format_args!("{b}.months_per_kernel"), e.months_per_kernel);
                self.non_negative(format_args!("{b}.validation_months"), e.validation_months);
                self.non_negative(format_args!("{b}.maintenance_share_per_year"), e.maintenance_share_per_year);
            }
        }
        if let Some(opt) = &s.optimise {
            optimise_spec(opt, s, &mut self.errors);
        }
        if s.options.is_empty() {
            self.push(InputError::missing("options", Rule::AtLeastOne));
        }
        let mut ids = BTreeSet::new();
        for (i, o) in s.options.iter().enumerate() {
            if !ids.insert(o.id.as_str()) {
                self.push(InputError::new(format!("options[{i}].id"), format!("{:?}", o.id), Rule::Duplicate));
            }
            self.option(i, o);
        }
    }

    fn scheduling(&mut self) {
        let r = &self.scenario.scheduling;
        if r.base_above > 10 {
            self.push(InputError::new("scheduling.base_above", r.base_above, Rule::Between { min: 0.0, max: 10.0 }));
        }
        if r.spot_below > 11 {
            self.push(InputError::new("scheduling.spot_below", r.spot_below, Rule::Between { min: 0.0, max: 11.0 }));
        }
        if u16::from(r.spot_below) > u16::from(r.base_above) + 1 {
            self.push(InputError::new("scheduling.spot_below", r.spot_below, Rule::RuleOverlap));
        }
    }

    fn refresh(&mut self) {
        let r = &self.scenario.refresh;
        if r.interval_months == 0 {
            self.push(InputError::new("refresh.interval_months", 0, Rule::NotPositive));
        }
        let (min, max) = REFRESH_FACTOR;
        // Refreshes happen at months interval, 2·interval, … before the horizon.
        let refreshes = match (r.enabled, r.interval_months) {
            (true, i) if i > 0 => self.scenario.horizon_months.saturating_sub(1) / i,
            _ => 0,
        };
        for (path, x) in
            [("refresh.performance_uplift", r.performance_uplift), ("refresh.price_factor", r.price_factor)]
        {
            if !self.finite(path, x) {
                continue;
            }
            if !(min..=max).contains(&x) {
                self.push(InputError::new(path, x, Rule::Between { min, max }));
                continue;
            }
            let compounded = x.powf(f64::from(refreshes));
            if !(1.0 / MAX_REFRESH_COMPOUND..=MAX_REFRESH_COMPOUND).contains(&compounded) {
                self.push(InputError::new(path, x, Rule::RefreshCompounds { refreshes, compounded }));
            }
        }
    }

    fn curves(&mut self) {
        let mut ids = BTreeSet::new();
        for (i, c) in self.scenario.scaling_curves.iter().enumerate() {
            let base = format!("scaling_curves[{i}]");
            if !ids.insert(c.id.as_str()) {
                self.push(InputError::new(format!("{base}.id"), format!("{:?}", c.id), Rule::Duplicate));
            }
            if c.points.is_empty() {
                self.push(InputError::missing(format!("{base}.points"), Rule::AtLeastOne));
            }
            for (j, (n, e)) in c.points.iter().enumerate() {
                self.between(format_args!("{base}.points[{j}][0]"), *n, 1.0, 1e7);
                self.share_divisor(format_args!("{base}.points[{j}][1]"), *e);
                if j > 0 && c.points[j - 1].0 >= *n {
                    self.push(InputError::new(format!("{base}.points[{j}][0]"), n, Rule::NotAscending));
                }
            }
        }
    }

    fn work(&mut self, base: &str, w: &Work) {
        let derived = [w.parameters, w.tokens, w.mfu, w.reference_peak_tflops];
        // Parameters alone beside ref_gpu_hours are the model's size (for the
        // memory fit), not a second statement of the work.
        let restated = [w.tokens, w.mfu, w.reference_peak_tflops].iter().any(Option::is_some);
        match (w.ref_gpu_hours, restated) {
            (Some(h), false) => {
                self.positive(format_args!("{base}.ref_gpu_hours"), h);
                if let Some(p) = w.parameters {
                    self.divisor(format_args!("{base}.parameters"), p);
                }
            }
            (Some(h), true) => self.push(InputError::new(format!("{base}.ref_gpu_hours"), h, Rule::WorkTwice)),
            (None, _) => {
                let names = ["parameters", "tokens", "mfu", "reference_peak_tflops"];
                for (name, value) in names.iter().zip(derived) {
                    let path = format!("{base}.{name}");
                    match value {
                        None => self.push(InputError::missing(path, Rule::WorkMissing)),
                        Some(x) if *name == "mfu" => self.share_divisor(&path, x),
                        Some(x) => self.divisor(&path, x),
                    }
                }
            }
        }
    }

    fn demand(&mut self) {
        let horizon = self.scenario.horizon_months;
        match &self.scenario.demand {
            Demand::Job(j) => {
                self.work("demand", &j.work());
                self.count("demand.cluster_accelerators", j.cluster_accelerators, MAX_CLUSTER);
                if self.finite("demand.run_hours_per_day", j.run_hours_per_day)
                    && !(j.run_hours_per_day > 0.0 && j.run_hours_per_day <= 24.0)
                {
                    self.push(InputError::new(
                        "demand.run_hours_per_day",
                        j.run_hours_per_day,
                        Rule::AboveAtMost { min: 0.0, max: 24.0 },
                    ));
                }
                if let Some(d) = j.deadline_months {
                    self.positive("demand.deadline_months", d);
                }
            }
            Demand::Profile(p) => {
                match (p.monthly_ref_gpus.is_empty(), p.hourly_ref_gpus.is_empty()) {
                    (true, true) => self.push(InputError::missing("demand.monthly_ref_gpus", Rule::ProfileMissing)),
                    (false, false) => self.push(InputError::new(
                        "demand.hourly_ref_gpus",
                        format!("[{} values]", p.hourly_ref_gpus.len()),
                        Rule::ProfileTwice,
                    )),
                    _ => {}
                }
                if !p.hourly_ref_gpus.is_empty() && !p.shape.is_empty() {
                    self.push(InputError::new(
                        "demand.shape",
                        format!("[{} values]", p.shape.len()),
                        Rule::ShapeWithHourly,
                    ));
                }
                for (i, x) in p.monthly_ref_gpus.iter().enumerate() {
                    self.non_negative(format_args!("demand.monthly_ref_gpus[{i}]"), *x);
                }
                for (field, values) in
                    [("monthly_ref_gpus", &p.monthly_ref_gpus), ("hourly_ref_gpus", &p.hourly_ref_gpus)]
                {
                    if !values.is_empty() && values.iter().all(|x| *x == 0.0) {
                        self.push(InputError::new(format!("demand.{field}"), "[all zero]", Rule::NoDemand));
                    }
                }
                for (i, x) in p.hourly_ref_gpus.iter().enumerate() {
                    self.non_negative(format_args!("demand.hourly_ref_gpus[{i}]"), *x);
                }
                for (i, x) in p.shape.iter().enumerate() {
                    self.non_negative(format_args!("demand.shape[{i}]"), *x);
                }
                if !p.shape.is_empty() && p.shape.iter().all(|x| *x == 0.0) {
                    self.push(InputError::new("demand.shape", "[all zero]", Rule::NotPositive));
                }
                self.share("demand.normal_share", p.normal_share);
                self.share("demand.low_priority_share", p.low_priority_share);
                if p.normal_share + p.low_priority_share > 1.0 + 1e-12 {
                    self.push(InputError::new("demand.low_priority_share", p.low_priority_share, Rule::SharesAboveOne));
                }
                self.count("demand.cluster_accelerators", p.cluster_accelerators, MAX_CLUSTER);
            }
            Demand::Inference(d) => {
                match (d.tokens_per_second, d.tokens_per_day) {
                    (None, None) => self.push(InputError::missing("demand.tokens_per_second", Rule::TokensMissing)),
                    (Some(_), Some(x)) => self.push(InputError::new("demand.tokens_per_day", x, Rule::TokensTwice)),
                    (Some(x), None) => self.positive("demand.tokens_per_second", x),
                    (None, Some(x)) => self.positive("demand.tokens_per_day", x),
                }
                self.positive("demand.parameters", d.parameters);
                self.divisor("demand.context_tokens", d.context_tokens);
                if let Some(k) = d.kv_bytes_per_token {
                    self.positive("demand.kv_bytes_per_token", k);
                }
                match d.tokens_per_second_per_ref_gpu {
                    None => {
                        self.push(InputError::missing("demand.tokens_per_second_per_ref_gpu", Rule::ThroughputMissing))
                    }
                    Some(x) => self.divisor("demand.tokens_per_second_per_ref_gpu", x),
                }
                self.count("demand.cluster_accelerators", d.cluster_accelerators, MAX_CLUSTER);
            }
            Demand::Portfolio(pf) => {
                if pf.jobs.is_empty() {
                    self.push(InputError::missing("demand.jobs", Rule::AtLeastOne));
                }
                self.count("demand.cluster_accelerators", pf.cluster_accelerators, MAX_CLUSTER);
                let mut ids = BTreeSet::new();
                for (i, j) in pf.jobs.iter().enumerate() {
                    let base = format!("demand.jobs[{i}]");
                    if !ids.insert(j.id.as_str()) {
                        self.push(InputError::new(format!("{base}.id"), format!("{:?}", j.id), Rule::Duplicate));
                    }
                    if j.priority > 10 {
                        self.push(InputError::new(
                            format!("{base}.priority"),
                            j.priority,
                            Rule::Between { min: 0.0, max: 10.0 },
                        ));
                    }
                    self.work(&base, &j.work());
                    if j.start_month >= horizon {
                        self.push(InputError::new(
                            format!("{base}.start_month"),
                            j.start_month,
                            Rule::Between { min: 0.0, max: f64::from(horizon.saturating_sub(1)) },
                        ));
                    }
                    if let Some(d) = j.deadline_month
                        && (d <= j.start_month || d > horizon)
                    {
                        self.push(InputError::new(
                            format!("{base}.deadline_month"),
                            d,
                            Rule::Between { min: f64::from(j.start_month + 1), max: f64::from(horizon) },
                        ));
                    }
                }
            }
        }
    }

    fn option(&mut self, i: usize, o: &OptionSpec) {
        let base = format!("options[{i}]");
        if o.id.trim().is_empty() {
            self.push(InputError::missing(format!("{base}.id"), Rule::Required));
        }
        if let Some(e) = o.efficiency_ratio {
            self.divisor(format_args!("{base}.efficiency_ratio"), e);
        }
        if o.offer_filter.is_some() {
            self.push(InputError::new(format!("{base}.offer_filter"), "[set]", Rule::UnresolvedOffer));
        }
        if let Some(x) = o.scaling_efficiency {
            self.share_divisor(format_args!("{base}.scaling_efficiency"), x);
        }
        self.share_divisor(format_args!("{base}.achieved_share"), o.achieved_share);
        if let Some(curve) = &o.interconnect
            && !self.scenario.scaling_curves.iter().any(|c| &c.id == curve)
        {
            self.push(InputError::new(format!("{base}.interconnect"), format!("{curve:?}"), Rule::UnknownCurve));
        }
        if o.storage != StorageMode::None && self.scenario.storage.is_none() {
            self.push(InputError::new(
                format!("{base}.storage"),
                format!("{:?}", o.storage).to_lowercase(),
                Rule::NeedsSection { section: "storage".into() },
            ));
        }
        if o.edge != EdgeMode::None && self.scenario.edge.is_none() {
            self.push(InputError::new(
                format!("{base}.edge"),
                format!("{:?}", o.edge).to_lowercase(),
                Rule::NeedsSection { section: "edge".into() },
            ));
        }
        if o.porting.is_some() && self.scenario.porting.is_none() {
            self.push(InputError::new(
                format!("{base}.porting"),
                "[set]",
                Rule::NeedsSection { section: "porting".into() },
            ));
        }
        if let Some(sup) = &o.supply {
            let b = format!("{base}.supply");
            if let Some([low, mode, high]) = sup.lead_time_months {
                let path = format!("{b}.lead_time_months");
                for x in [low, mode, high] {
                    self.non_negative(&path, x);
                }
                if !(low <= mode && mode <= high) {
                    self.push(InputError::new(path, format!("[{low}, {mode}, {high}]"), Rule::NotAscending));
                }
            }
            self.share(format_args!("{b}.export_change_probability"), sup.export_change_probability);
            self.non_negative(format_args!("{b}.export_change_delay_months"), sup.export_change_delay_months);
            self.non_negative(format_args!("{b}.export_change_extra_cost_share"), sup.export_change_extra_cost_share);
            self.share(format_args!("{b}.vendor_concentration"), sup.vendor_concentration);
        }
        for (table, keys) in [("sources", o.sources.keys()), ("as_of", o.as_of.keys())] {
            for key in keys.filter(|k| !source_key_names_a_field(k)) {
                self.push(InputError::new(
                    format!("{base}.{table}.{key}"),
                    format!("{key:?}"),
                    Rule::UnknownSourceField,
                ));
            }
        }
        self.pools_for_kind(&base, o);
        if let Some(p) = &o.owned {
            self.owned(&format!("{base}.owned"), p);
        }
        if let Some(p) = &o.reserved {
            let b = format!("{base}.reserved");
            self.price(&b, p.price_per_accel_hour, p.offer.as_deref());
            self.currency(format_args!("{b}.currency"), p.currency);
            self.pool_efficiency(&b, p.efficiency_ratio);
            if !(1..=120).contains(&p.term_months) {
                self.push(InputError::new(
                    format!("{b}.term_months"),
                    p.term_months,
                    Rule::Between { min: 1.0, max: 120.0 },
                ));
            }
            self.share(format_args!("{b}.upfront_share"), p.upfront_share);
            match p.accelerators {
                Some(n) => self.count(format_args!("{b}.accelerators"), n, MAX_CLUSTER),
                None if o.kind == OptionKind::Mix => {
                    self.push(InputError::missing(format!("{b}.accelerators"), Rule::ReservedNeedsSize))
                }
                _ => {}
            }
        }
        if let Some(p) = &o.on_demand {
            let b = format!("{base}.on_demand");
            self.price(&b, p.price_per_accel_hour, p.offer.as_deref());
            self.currency(format_args!("{b}.currency"), p.currency);
            self.pool_efficiency(&b, p.efficiency_ratio);
        }
        if let Some(p) = &o.spot {
            let b = format!("{base}.spot");
            self.price(&b, p.price_per_accel_hour, p.offer.as_deref());
            self.currency(format_args!("{b}.currency"), p.currency);
            self.pool_efficiency(&b, p.efficiency_ratio);
            self.between(format_args!("{b}.interruption_overhead"), p.interruption_overhead, 0.0, 10.0);
            self.share(format_args!("{b}.availability"), p.availability);
            if p.availability < 1.0 && o.on_demand.is_none() {
                self.push(InputError::new(format!("{b}.availability"), p.availability, Rule::SpotNeedsFallback));
            }
        }
    }

    fn pools_for_kind(&mut self, base: &str, o: &OptionSpec) {
        let not_used =
            |name: &str| InputError::new(format!("{base}.{name}"), "[set]", Rule::NotUsedByKind { kind: o.kind });
        match o.kind {
            OptionKind::Buy => {
                if o.owned.is_none() {
                    self.push(InputError::missing(format!("{base}.owned"), Rule::Required));
                }
                if o.reserved.is_some() {
                    self.push(not_used("reserved"));
                }
                if o.spot.is_some() {
                    self.push(not_used("spot"));
                }
                if o.billing.is_some() {
                    self.push(not_used("billing"));
                }
                if o.on_demand.is_some() && matches!(self.scenario.demand, Demand::Job(_)) {
                    self.push(InputError::new(format!("{base}.on_demand"), "[set]", Rule::OverflowNeedsSharedDemand));
                }
            }
            OptionKind::Rent => {
                if o.owned.is_some() {
                    self.push(not_used("owned"));
                }
                match o.billing {
                    None => self.push(InputError::missing(format!("{base}.billing"), Rule::Required)),
                    Some(Billing::OnDemand) => {
                        if o.on_demand.is_none() {
                            self.push(InputError::missing(format!("{base}.on_demand"), Rule::Required));
                        }
                        if o.reserved.is_some() {
                            self.push(not_used("reserved"));
                        }
                        if o.spot.is_some() {
                            self.push(not_used("spot"));
                        }
                    }
                    Some(Billing::Reserved) => {
                        if o.reserved.is_none() {
                            self.push(InputError::missing(format!("{base}.reserved"), Rule::Required));
                        }
                        if o.spot.is_some() {
                            self.push(not_used("spot"));
                        }
                    }
                    Some(Billing::Spot) => {
                        if o.spot.is_none() {
                            self.push(InputError::missing(format!("{base}.spot"), Rule::Required));
                        }
                        if o.reserved.is_some() {
                            self.push(not_used("reserved"));
                        }
                    }
                }
            }
            OptionKind::Mix => {
                if o.billing.is_some() {
                    self.push(not_used("billing"));
                }
                match (o.owned.is_some(), o.reserved.is_some()) {
                    // Without a base, a mix routes by priority between on demand and spot.
                    (false, false) if o.on_demand.is_some() && o.spot.is_some() => {}
                    (false, false) => self.push(InputError::missing(format!("{base}.owned"), Rule::MixNeedsBase)),
                    (true, true) => self.push(InputError::new(format!("{base}.reserved"), "[set]", Rule::MixOneBase)),
                    _ => {}
                }
                if o.on_demand.is_none() && o.spot.is_none() {
                    self.push(InputError::missing(format!("{base}.on_demand"), Rule::MixNeedsRental));
                }
                if matches!(self.scenario.demand, Demand::Job(_)) {
                    self.push(InputError::new(format!("{base}.kind"), "mix", Rule::MixNeedsSharedDemand));
                }
            }
        }
    }

    fn price(&mut self, base: &str, price: Option<f64>, offer: Option<&str>) {
        let path = format!("{base}.price_per_accel_hour");
        match (price, offer) {
            (Some(p), Some(offer)) => {
                self.non_negative(&path, p);
                self.push(InputError::new(format!("{base}.offer"), format!("{offer:?}"), Rule::OfferAndPrice));
            }
            (Some(p), None) => self.non_negative(&path, p),
            (None, Some(offer)) => {
                self.push(InputError::new(format!("{base}.offer"), format!("{offer:?}"), Rule::UnresolvedOffer))
            }
            (None, None) => self.push(InputError::missing(path, Rule::PriceOrOffer)),
        }
    }

    fn pool_efficiency(&mut self, base: &str, e: Option<f64>) {
        if let Some(e) = e {
            self.divisor(format_args!("{base}.efficiency_ratio"), e);
        }
    }

    fn owned(&mut self, b: &str, p: &OwnedPool) {
        self.count(format_args!("{b}.servers"), p.servers, MAX_SERVERS);
        self.count(format_args!("{b}.accelerators_per_server"), p.accelerators_per_server, MAX_ACCELERATORS_PER_SERVER);
        self.currency(format_args!("{b}.currency"), p.currency);
        self.pool_efficiency(b, p.efficiency_ratio);
        for (name, x) in [
            ("capex_per_server", p.capex_per_server),
            ("network_storage_capex", p.network_storage_capex),
            ("installation", p.installation),
            ("server_kw", p.server_kw),
            ("colocation_per_kw_month", p.colocation_per_kw_month),
            ("electricity_per_kwh", p.electricity_per_kwh),
            ("staff_per_year", p.staff_per_year),
            ("maintenance_share_per_year", p.maintenance_share_per_year),
            ("other_opex_per_year", p.other_opex_per_year),
        ] {
            self.non_negative(format_args!("{b}.{name}"), x);
        }
        if let Some(kw) = p.provisioned_kw_per_server {
            self.non_negative(format_args!("{b}.provisioned_kw_per_server"), kw);
        }
        if self.finite(format_args!("{b}.pue"), p.pue) && !(1.0..=5.0).contains(&p.pue) {
            self.push(InputError::new(format!("{b}.pue"), p.pue, Rule::Between { min: 1.0, max: 5.0 }));
        }
        self.between(format_args!("{b}.depreciation_years"), p.depreciation_years, 0.5, 30.0);
        self.share(format_args!("{b}.market_residual_share"), p.market_residual_share);
        if p.residual == ResidualBasis::Book && p.market_residual_share != 0.0 && p.market_residual_share.is_finite() {
            self.push(InputError::new(
                format!("{b}.market_residual_share"),
                p.market_residual_share,
                Rule::OnlyWithMarketResidual,
            ));
        }
        if p.lead_time_months > MAX_HORIZON_MONTHS {
            self.push(InputError::new(
                format!("{b}.lead_time_months"),
                p.lead_time_months,
                Rule::Between { min: 0.0, max: MAX_HORIZON_MONTHS as f64 },
            ));
        }
    }
}

/// Whether an `[options.sources]` key names a field of an option: one of
/// its own fields, `section.field` of one of its sections, or a section's
/// field alone (`price_per_accel_hour`). The field lists are the scenario
/// format's own (serde's), so they cannot drift from it.
fn source_key_names_a_field(key: &str) -> bool {
    let sections: [(&str, &[&str]); 7] = [
        ("owned", field_names::<OwnedPool>()),
        ("reserved", field_names::<ReservedPool>()),
        ("on_demand", field_names::<OnDemandPool>()),
        ("spot", field_names::<SpotPool>()),
        ("porting", field_names::<OptionPorting>()),
        ("supply", field_names::<Supply>()),
        ("offer_filter", field_names::<OfferSelector>()),
    ];
    match key.split_once('.') {
        Some((section, field)) => sections.iter().any(|(s, fields)| *s == section && fields.contains(&field)),
        None => {
            (key != "sources" && key != "as_of" && field_names::<OptionSpec>().contains(&key))
                || sections.iter().any(|(_, fields)| fields.contains(&key))
        }
    }
}

/// The field names serde knows for a struct (what `deny_unknown_fields` allows).
fn field_names<'de, T: serde::Deserialize<'de>>() -> &'static [&'static str] {
    let mut names = FieldNames(None);
    let _ = T::deserialize(&mut names);
    names.0.unwrap_or(&[])
}

/// A deserializer that only asks a struct for its field names.
struct FieldNames(Option<&'static [&'static str]>);

impl<'de> serde::Deserializer<'de> for &mut FieldNames {
    type Error = serde::de::value::Error;

    fn deserialize_any<V: serde::de::Visitor<'de>>(self, _: V) -> Result<V::Value, Self::Error> {
        Err(serde::de::Error::custom("field names only"))
    }

    fn deserialize_struct<V: serde::de::Visitor<'de>>(
        self,
        _: &'static str,
        fields: &'static [&'static str],
        _: V,
    ) -> Result<V::Value, Self::Error> {
        self.0 = Some(fields);
        Err(serde::de::Error::custom("field names only"))
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf option unit
        unit_struct newtype_struct seq tuple tuple_struct map enum identifier ignored_any
    }
}

/// Checks the optimiser's spec against the scenario.
fn optimise_spec(spec: &OptimiseSpec, s: &Scenario, errors: &mut Vec<InputError>) {
    let mut check = |field: &str, id: &Option<String>, has: &dyn Fn(&OptionSpec) -> bool, pool: &str| {
        if let Some(id) = id {
            match s.options.iter().find(|o| &o.id == id) {
                None => errors.push(InputError::new(
                    format!("optimise.{field}"),
                    format!("{id:?}"),
                    Rule::Path { why: format!("no option has the id {id:?}") },
                )),
                Some(o) if !has(o) => errors.push(InputError::new(
                    format!("optimise.{field}"),
                    format!("{id:?}"),
                    Rule::TemplateLacks { pool: pool.to_owned() },
                )),
                Some(_) => {}
            }
        }
    };
    check("base", &spec.base, &|o| o.owned.is_some() || o.reserved.is_some(), "owned|reserved");
    check("on_demand", &spec.on_demand, &|o| o.on_demand.is_some(), "on_demand");
    check("spot", &spec.spot, &|o| o.spot.is_some(), "spot");
    if spec.base.is_none() && spec.on_demand.is_none() && spec.spot.is_none() {
        errors.push(InputError::missing("optimise.on_demand", Rule::AtLeastOne));
    }
    if let Some(x) = spec.constraints.max_p90_npv
        && !(x.is_finite() && x > 0.0)
    {
        errors.push(InputError::new("optimise.constraints.max_p90_npv", x, Rule::NotPositive));
    }
    if let Some(x) = spec.constraints.max_supply_score
        && !(0.0..=100.0).contains(&x)
    {
        errors.push(InputError::new(
            "optimise.constraints.max_supply_score",
            x,
            Rule::Between { min: 0.0, max: 100.0 },
        ));
    }
    if matches!(s.demand, Demand::Job(_)) {
        errors.push(InputError::new("optimise", "[set]", Rule::MixNeedsSharedDemand));
    }
}

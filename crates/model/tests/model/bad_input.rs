//! Every rule the validator enforces, broken once: the error names the
//! field path, the value and what is allowed — and nothing panics.

use suanli_model::{Lang, Rule, Scenario, validate};

const VALID: &str = r#"
name = "valid"
horizon_months = 12
currency = "CNY"
[demand]
kind = "profile"
monthly_ref_gpus = [8]
[[options]]
id = "rent"
kind = "rent"
billing = "on_demand"
[options.on_demand]
price_per_accel_hour = 8.0
"#;

/// One rule broken by one edit of the valid scenario, and the one error the
/// validator must give for it: where, which value, which rule, and what it
/// says in each language.
struct Case {
    edit: fn(&mut Scenario),
    path: &'static str,
    value: &'static str,
    rule: Rule,
    en: &'static str,
    zh: &'static str,
}

fn on_demand(s: &mut Scenario) -> &mut suanli_model::OnDemandPool {
    s.options[0].on_demand.as_mut().expect("the valid scenario has an on-demand pool")
}

fn job(s: &mut Scenario, mfu: f64) {
    let text = VALID.replace(
        "kind = \"profile\"\nmonthly_ref_gpus = [8]",
        &format!("kind = \"job\"\nparameters = 7e9\ntokens = 1e12\nmfu = {mfu}\nreference_peak_tflops = 312\ncluster_accelerators = 8"),
    );
    s.demand = toml::from_str::<Scenario>(&text).map(|x| x.demand).unwrap_or_else(|e| panic!("{e}"));
}

const CASES: &[Case] = &[
    // a negative price
    Case {
        edit: |s| on_demand(s).price_per_accel_hour = Some(-3.0),
        path: "options[0].on_demand.price_per_accel_hour",
        value: "-3",
        rule: Rule::Negative,
        en: "options[0].on_demand.price_per_accel_hour = -3: must not be negative",
        zh: "options[0].on_demand.price_per_accel_hour = -3: 不能为负数",
    },
    // not a number
    Case {
        edit: |s| s.options[0].efficiency_ratio = Some(f64::NAN),
        path: "options[0].efficiency_ratio",
        value: "NaN",
        rule: Rule::NotFinite,
        en: "options[0].efficiency_ratio = NaN: must be a finite number",
        zh: "options[0].efficiency_ratio = NaN: 必须是有限数值",
    },
    // MFU is a *utilisation*: above 1 is impossible (and the engine divides by it)
    Case {
        edit: |s| job(s, 1.2),
        path: "demand.mfu",
        value: "1.2",
        rule: Rule::Between { min: 0.001, max: 1.0 },
        en: "demand.mfu = 1.2: must be between 0.001 and 1",
        zh: "demand.mfu = 1.2: 必须在 0.001 到 1 之间",
    },
    // a horizon of no months
    Case {
        edit: |s| s.horizon_months = 0,
        path: "horizon_months",
        value: "0",
        rule: Rule::Between { min: 1.0, max: 240.0 },
        en: "horizon_months = 0: must be between 1 and 240",
        zh: "horizon_months = 0: 必须在 1 到 240 之间",
    },
    // a name that refers to nothing
    Case {
        edit: |s| s.options[0].interconnect = Some("infiniband".into()),
        path: "options[0].interconnect",
        value: "\"infiniband\"",
        rule: Rule::UnknownCurve,
        en: "options[0].interconnect = \"infiniband\": names no scaling curve in [[scaling_curves]]",
        zh: "options[0].interconnect = \"infiniband\": 在 [[scaling_curves]] 中找不到该扩展效率曲线",
    },
    // an offer not resolved from the catalogue
    Case {
        edit: |s| {
            on_demand(s).price_per_accel_hour = None;
            on_demand(s).offer = Some("no-such-offer".into());
        },
        path: "options[0].on_demand.offer",
        value: "\"no-such-offer\"",
        rule: Rule::UnresolvedOffer,
        en: "options[0].on_demand.offer = \"no-such-offer\": this offer was not resolved from the catalogue; evaluate through the catalogue or set price_per_accel_hour",
        zh: "options[0].on_demand.offer = \"no-such-offer\": 该报价未能从目录解析；请通过目录计算，或直接填写 price_per_accel_hour",
    },
    // a price that is missing
    Case {
        edit: |s| on_demand(s).price_per_accel_hour = None,
        path: "options[0].on_demand.price_per_accel_hour",
        value: "(missing)",
        rule: Rule::PriceOrOffer,
        en: "options[0].on_demand.price_per_accel_hour = (missing): set price_per_accel_hour, or an offer id that the catalogue resolves",
        zh: "options[0].on_demand.price_per_accel_hour = (missing): 请填写 price_per_accel_hour，或填写可由目录解析的报价 offer",
    },
    // a rent option without the pool its billing names (its on_demand pool stays: a spot option's fallback)
    Case {
        edit: |s| s.options[0].billing = Some(suanli_model::Billing::Spot),
        path: "options[0].spot",
        value: "(missing)",
        rule: Rule::Required,
        en: "options[0].spot = (missing): is required here",
        zh: "options[0].spot = (missing): 此处为必填项",
    },
    // a pool its kind does not use
    Case {
        edit: |s| {
            s.options[0].reserved = Some(suanli_model::ReservedPool {
                term_months: 12,
                price_per_accel_hour: Some(1.0),
                upfront_share: 0.0,
                accelerators: None,
                currency: None,
                efficiency_ratio: None,
                offer: None,
            })
        },
        path: "options[0].reserved",
        value: "[set]",
        rule: Rule::NotUsedByKind { kind: suanli_model::OptionKind::Rent },
        en: "options[0].reserved = [set]: is not used by a rent option",
        zh: "options[0].reserved = [set]: 租用方案不使用此项",
    },
    // two options with one id
    Case {
        edit: |s| s.options.push(s.options[0].clone()),
        path: "options[1].id",
        value: "\"rent\"",
        rule: Rule::Duplicate,
        en: "options[1].id = \"rent\": is used twice; ids must be unique",
        zh: "options[1].id = \"rent\": 重复；标识必须唯一",
    },
    // a currency without a rate
    Case {
        edit: |s| on_demand(s).currency = Some(suanli_model::Currency::USD),
        path: "options[0].on_demand.currency",
        value: "USD",
        rule: Rule::MissingFx { currency: suanli_model::Currency::USD },
        en: "options[0].on_demand.currency = USD: uses USD, but [fx] has no rate for USD",
        zh: "options[0].on_demand.currency = USD: 使用了 USD，但 [fx] 中没有 USD 的汇率",
    },
    // no options at all
    Case {
        edit: |s| s.options.clear(),
        path: "options",
        value: "(missing)",
        rule: Rule::AtLeastOne,
        en: "options = (missing): needs at least one entry",
        zh: "options = (missing): 至少需要一项",
    },
    // absurd but finite: it would overflow every sum
    Case {
        edit: |s| on_demand(s).price_per_accel_hour = Some(1e300),
        path: "options[0].on_demand.price_per_accel_hour",
        value: "1e300",
        rule: Rule::TooLarge { max: 1e12 },
        en: "options[0].on_demand.price_per_accel_hour = 1e300: is beyond any real figure; at most 1e12",
        zh: "options[0].on_demand.price_per_accel_hour = 1e300: 数值过大，不能超过 1e12",
    },
    // likewise as a divisor
    Case {
        edit: |s| s.options[0].efficiency_ratio = Some(1e-308),
        path: "options[0].efficiency_ratio",
        value: "1e-308",
        rule: Rule::AtLeast { min: 0.001 },
        en: "options[0].efficiency_ratio = 1e-308: must be at least 0.001",
        zh: "options[0].efficiency_ratio = 1e-308: 必须不小于 0.001",
    },
];

/// Applies the case's edit to the valid scenario and checks the one error.
fn check(c: &Case) {
    let mut s: Scenario = toml::from_str(VALID).unwrap_or_else(|e| panic!("{e}"));
    assert!(validate(&s).is_ok());
    (c.edit)(&mut s);
    let errors = validate(&s).err().unwrap_or_default();
    let got: Vec<_> = errors
        .iter()
        .map(|e| (e.path.as_str(), e.value.as_str(), e.rule.clone(), e.message(Lang::En), e.message(Lang::Zh)))
        .collect();
    let want = (c.path, c.value, c.rule.clone(), c.en.to_owned(), c.zh.to_owned());
    assert_eq!(got, [want], "the case for {}", c.path);
}

#[test]
fn every_rule_broken_once_names_the_field_the_value_and_the_limit_in_both_languages() {
    for c in CASES {
        check(c);
    }
}

#[test]
fn every_error_is_collected_and_readable_in_both_languages() {
    let mut s: Scenario = toml::from_str(VALID).unwrap_or_else(|e| panic!("{e}"));
    s.horizon_months = 0;
    s.discount_rate_annual = f64::INFINITY;
    s.options[0].achieved_share = 0.0;
    let errors = validate(&s).err().unwrap_or_default();
    assert_eq!(errors.len(), 3);
    let en: Vec<String> = errors.iter().map(|e| e.message(Lang::En)).collect();
    let zh: Vec<String> = errors.iter().map(|e| e.message(Lang::Zh)).collect();
    assert_eq!(en[0], "horizon_months = 0: must be between 1 and 240");
    assert_eq!(zh[0], "horizon_months = 0: 必须在 1 到 240 之间");
    assert_eq!(en[1], "discount_rate_annual = inf: must be a finite number");
    assert_eq!(zh[2], "options[0].achieved_share = 0: 必须在 0.001 到 1 之间");
}

#[test]
fn only_a_checked_scenario_reaches_the_engine() {
    let mut s: Scenario = toml::from_str(VALID).unwrap_or_else(|e| panic!("{e}"));
    s.horizon_months = 0;
    assert!(suanli_model::Checked::new(s).is_err());
}

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

/// Applies `edit` to the valid scenario and returns the errors.
fn errors_after(edit: impl FnOnce(&mut Scenario)) -> Vec<(String, String, Rule)> {
    let mut s: Scenario = toml::from_str(VALID).unwrap_or_else(|e| panic!("{e}"));
    assert!(validate(&s).is_ok());
    edit(&mut s);
    match validate(&s) {
        Ok(()) => panic!("expected an error"),
        Err(errors) => errors.into_iter().map(|e| (e.path, e.value, e.rule)).collect(),
    }
}

fn on_demand(s: &mut Scenario) -> &mut suanli_model::OnDemandPool {
    s.options[0].on_demand.as_mut().expect("the valid scenario has an on-demand pool")
}

fn single(errors: Vec<(String, String, Rule)>) -> (String, String, Rule) {
    assert_eq!(errors.len(), 1, "{errors:?}");
    errors.into_iter().next().unwrap_or_else(|| unreachable!())
}

#[test]
fn negative_price() {
    let (path, value, rule) = single(errors_after(|s| {
        on_demand(s).price_per_accel_hour = Some(-3.0);
    }));
    assert_eq!(
        (path.as_str(), value.as_str(), rule),
        ("options[0].on_demand.price_per_accel_hour", "-3", Rule::Negative)
    );
}

#[test]
fn not_a_number() {
    let (path, value, rule) = single(errors_after(|s| s.options[0].efficiency_ratio = Some(f64::NAN)));
    assert_eq!((path.as_str(), value.as_str(), rule), ("options[0].efficiency_ratio", "NaN", Rule::NotFinite));
}

#[test]
fn a_share_above_100_percent() {
    // MFU is the model FLOPs *utilisation*: above 1 is impossible.
    let errors = errors_after(|s| {
        s.demand = toml::from_str::<Scenario>(
            &VALID.replace(
                "kind = \"profile\"\nmonthly_ref_gpus = [8]",
                "kind = \"job\"\nparameters = 7e9\ntokens = 1e12\nmfu = 1.2\nreference_peak_tflops = 312\ncluster_accelerators = 8",
            ),
        )
        .map(|x| x.demand)
        .unwrap_or_else(|e| panic!("{e}"));
    });
    // A share the engine divides by: at least 0.001, at most 1.
    assert_eq!(single(errors), ("demand.mfu".into(), "1.2".into(), Rule::Between { min: 0.001, max: 1.0 }));
    let errors = errors_after(|s| {
        if let suanli_model::Demand::Profile(p) = &mut s.demand {
            p.low_priority_share = 1.5;
        }
    });
    assert!(errors.contains(&("demand.low_priority_share".into(), "1.5".into(), Rule::Share)));
}

#[test]
fn a_horizon_of_zero_months() {
    let (path, value, rule) = single(errors_after(|s| s.horizon_months = 0));
    assert_eq!((path.as_str(), value.as_str()), ("horizon_months", "0"));
    assert_eq!(rule, Rule::Between { min: 1.0, max: 240.0 });
}

#[test]
fn an_option_referring_to_nothing() {
    let (path, value, rule) = single(errors_after(|s| s.options[0].interconnect = Some("infiniband".into())));
    assert_eq!(
        (path.as_str(), value.as_str(), rule),
        ("options[0].interconnect", "\"infiniband\"", Rule::UnknownCurve)
    );
    let (path, _, rule) = single(errors_after(|s| {
        on_demand(s).price_per_accel_hour = None;
        on_demand(s).offer = Some("no-such-offer".into());
    }));
    assert_eq!((path.as_str(), rule), ("options[0].on_demand.offer", Rule::UnresolvedOffer));
}

#[test]
fn a_price_that_is_missing() {
    let (path, value, rule) = single(errors_after(|s| {
        on_demand(s).price_per_accel_hour = None;
    }));
    assert_eq!(
        (path.as_str(), value.as_str(), rule),
        ("options[0].on_demand.price_per_accel_hour", "(missing)", Rule::PriceOrOffer)
    );
}

#[test]
fn inconsistent_options() {
    // A rent option without the pool its billing names.
    let errors = errors_after(|s| s.options[0].billing = Some(suanli_model::Billing::Spot));
    // (Its on_demand pool stays allowed: it is a spot option's fallback.)
    assert_eq!(single(errors), ("options[0].spot".into(), "(missing)".into(), Rule::Required));
    // A buy-only section on a rent option.
    let errors = errors_after(|s| {
        s.options[0].reserved = Some(suanli_model::ReservedPool {
            term_months: 12,
            price_per_accel_hour: Some(1.0),
            upfront_share: 0.0,
            accelerators: None,
            currency: None,
            efficiency_ratio: None,
            offer: None,
        })
    });
    assert_eq!(
        single(errors),
        ("options[0].reserved".into(), "[set]".into(), Rule::NotUsedByKind { kind: suanli_model::OptionKind::Rent })
    );
    // Duplicate ids.
    let errors = errors_after(|s| s.options.push(s.options[0].clone()));
    assert_eq!(single(errors), ("options[1].id".into(), "\"rent\"".into(), Rule::Duplicate));
    // A currency without a rate.
    let errors = errors_after(|s| {
        on_demand(s).currency = Some(suanli_model::Currency::USD);
    });
    assert_eq!(single(errors).2, Rule::MissingFx { currency: suanli_model::Currency::USD });
    // No options at all.
    let errors = errors_after(|s| s.options.clear());
    assert_eq!(single(errors), ("options".into(), "(missing)".into(), Rule::AtLeastOne));
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
fn absurd_but_finite_numbers_are_refused() {
    // 1e300 would overflow every sum to infinity; 1e-308 as a divisor likewise.
    let (path, value, rule) = single(errors_after(|s| on_demand(s).price_per_accel_hour = Some(1e300)));
    assert_eq!((path.as_str(), value.as_str()), ("options[0].on_demand.price_per_accel_hour", "1e300"));
    assert_eq!(rule, Rule::TooLarge { max: 1e12 });
    let (path, _, rule) = single(errors_after(|s| s.options[0].efficiency_ratio = Some(1e-308)));
    assert_eq!((path.as_str(), rule), ("options[0].efficiency_ratio", Rule::AtLeast { min: 0.001 }));
}

#[test]
fn only_a_checked_scenario_reaches_the_engine() {
    let mut s: Scenario = toml::from_str(VALID).unwrap_or_else(|e| panic!("{e}"));
    s.horizon_months = 0;
    assert!(suanli_model::Checked::new(s).is_err());
}

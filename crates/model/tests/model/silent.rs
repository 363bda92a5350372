//! Nothing is accepted silently: an input the engine would ignore, a
//! provenance that names no field, and an option that does not do the work
//! are each an error or a named note — in both languages.

use suanli_model::{Checked, Lang, Note, Rule, Scenario, validate};

use crate::eval;

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
[[options]]
id = "buy"
kind = "buy"
[options.owned]
servers = 1
accelerators_per_server = 8
capex_per_server = 1e6
"#;

fn errors_after(edit: impl FnOnce(&mut Scenario)) -> Vec<suanli_model::InputError> {
    let mut s: Scenario = toml::from_str(VALID).unwrap_or_else(|e| panic!("{e}"));
    assert!(validate(&s).is_ok());
    edit(&mut s);
    validate(&s).err().unwrap_or_default()
}

fn said_in_both(e: &suanli_model::InputError) {
    let (en, zh) = (e.message(Lang::En), e.message(Lang::Zh));
    assert!(!en.is_empty() && !zh.is_empty() && en != zh, "{en} / {zh}");
}

#[test]
fn a_pool_with_both_an_offer_and_a_price_is_refused() {
    let errors = errors_after(|s| {
        if let Some(p) = s.options[0].on_demand.as_mut() {
            p.offer = Some("aws-p4de-24xlarge-us-east-1-on-demand".into());
        }
    });
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert_eq!(errors[0].path, "options[0].on_demand.offer");
    assert_eq!(errors[0].rule, Rule::OfferAndPrice);
    assert!(errors[0].message(Lang::En).contains("not both"), "{}", errors[0].message(Lang::En));
    said_in_both(&errors[0]);
}

#[test]
fn a_market_residual_share_with_book_residual_is_refused() {
    let errors = errors_after(|s| {
        if let Some(p) = s.options[1].owned.as_mut() {
            p.market_residual_share = 0.3;
        }
    });
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert_eq!(errors[0].path, "options[1].owned.market_residual_share");
    assert_eq!(errors[0].rule, Rule::OnlyWithMarketResidual);
    said_in_both(&errors[0]);
    // With residual = "market" it is what it says.
    assert!(
        errors_after(|s| {
            if let Some(p) = s.options[1].owned.as_mut() {
                p.market_residual_share = 0.3;
                p.residual = suanli_model::ResidualBasis::Market;
            }
        })
        .is_empty()
    );
}

#[test]
fn a_source_for_a_field_that_does_not_exist_is_refused() {
    let errors = errors_after(|s| {
        let sources = &mut s.options[1].sources;
        sources.insert("capex_per_srv".into(), "a typo".into());
        sources.insert("owned.capex_per_server".into(), "vendor quote".into());
        sources.insert("capex_per_server".into(), "vendor quote".into());
        sources.insert("efficiency_ratio".into(), "benchmark".into());
        sources.insert("on_demand.price_per_accel_hour".into(), "list price".into());
        sources.insert("owned.price_per_accel_hour".into(), "the wrong pool".into());
    });
    let paths: Vec<&str> = errors.iter().map(|e| e.path.as_str()).collect();
    assert_eq!(paths, ["options[1].sources.capex_per_srv", "options[1].sources.owned.price_per_accel_hour"]);
    assert!(matches!(errors[0].rule, Rule::UnknownSourceField));
    said_in_both(&errors[0]);
}

#[test]
fn a_date_for_a_field_that_does_not_exist_is_refused() {
    let errors = errors_after(|s| {
        let as_of = &mut s.options[1].as_of;
        as_of.insert("on_demand.price_per_accel_hour".into(), "2026-11-30".into());
        as_of.insert("on_demand.price_per_acel_hour".into(), "2026-11-30".into());
    });
    let paths: Vec<&str> = errors.iter().map(|e| e.path.as_str()).collect();
    assert_eq!(paths, ["options[1].as_of.on_demand.price_per_acel_hour"]);
    assert!(matches!(errors[0].rule, Rule::UnknownSourceField));
}

#[test]
fn run_hours_per_day_of_zero_is_refused_by_the_rule_it_breaks() {
    let text = VALID.replace(
        "kind = \"profile\"\nmonthly_ref_gpus = [8]",
        "kind = \"job\"\nref_gpu_hours = 1000\ncluster_accelerators = 8\nrun_hours_per_day = 0",
    );
    let s: Scenario = toml::from_str(&text).unwrap_or_else(|e| panic!("{e}"));
    let errors = validate(&s).err().unwrap_or_default();
    let e = errors.iter().find(|e| e.path == "demand.run_hours_per_day").unwrap_or_else(|| panic!("{errors:?}"));
    assert_eq!(e.message(Lang::En), "demand.run_hours_per_day = 0: must be greater than 0 and at most 24");
    assert_eq!(e.message(Lang::Zh), "demand.run_hours_per_day = 0: 必须大于 0 且不超过 24");
}

const JOB: &str = r#"
name = "job"
horizon_months = 10
currency = "CNY"
[demand]
kind = "job"
ref_gpu_hours = 80_000
cluster_accelerators = 10
[[options]]
id = "fast"
kind = "rent"
billing = "on_demand"
efficiency_ratio = 1.2
[options.on_demand]
price_per_accel_hour = 2.0
[[options]]
id = "slow"
kind = "rent"
billing = "on_demand"
efficiency_ratio = 1.0
[options.on_demand]
price_per_accel_hour = 1.0
"#;

#[test]
fn an_option_that_does_not_finish_the_work_is_never_the_cheapest() {
    // Slow: 10 cards × 730 h × 10 months = 73,000 of 80,000 hours, 91 % done;
    // fast: 1.2 × that, done in month 10.
    let e = eval(JOB);
    let fast = e.option("fast").unwrap_or_else(|| panic!());
    let slow = e.option("slow").unwrap_or_else(|| panic!());
    assert!(fast.shortfall().is_none());
    assert!(slow.total_nominal < fast.total_nominal, "the short option is cheaper in money");
    let short = slow.shortfall().unwrap_or_else(|| panic!("the slow option is not short"));
    assert!((short.ref_gpu_hours - 7_000.0).abs() < 1e-6, "{short:?}");
    assert!((short.done_share - 0.9125).abs() < 1e-9, "{short:?}");
    assert_eq!(e.cheapest_nominal().map(|o| o.id.as_str()), Some("fast"));
    assert_eq!(e.cheapest_npv().map(|o| o.id.as_str()), Some("fast"));
    assert!(slow.notes.iter().any(|n| matches!(n, Note::RankedApart { .. })), "{:?}", slow.notes);
    let note = slow.notes.iter().find(|n| matches!(n, Note::RankedApart { .. })).unwrap_or_else(|| panic!());
    assert!(note.describe(Lang::En).contains("ranked apart"), "{}", note.describe(Lang::En));
    assert!(note.describe(Lang::Zh).contains("不参与"), "{}", note.describe(Lang::Zh));
    // What a proposal recommends: the option that does the work.
    let ranked: Vec<&str> = e.ranked_by_npv().iter().map(|o| o.id.as_str()).collect();
    assert_eq!(ranked, ["fast", "slow"]);
    // The break-even of the option that does the work is not against one that does not.
    assert!(fast.break_even.is_none(), "{:?}", fast.break_even);
}

#[test]
fn when_no_option_does_the_work_none_is_the_cheapest() {
    let text = JOB.replace("ref_gpu_hours = 80_000", "ref_gpu_hours = 8_000_000");
    let e = Checked::new(toml::from_str(&text).unwrap_or_else(|e| panic!("{e}")))
        .unwrap_or_else(|e| panic!("{e:?}"))
        .into_evaluation();
    assert!(e.cheapest_nominal().is_none() && e.cheapest_npv().is_none());
}

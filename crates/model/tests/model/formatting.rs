//! The formatter against the shared table of cases (`data/format-cases.json`),
//! which the UI's formatter is tested against too.

use serde_json::Value;
use suanli_model::lang::for_lang;
use suanli_model::{Currency, Lang, format_amount, format_axis, format_number, format_percent, format_unit_price};

fn cases(kind: &str) -> Vec<Value> {
    let table: Value = serde_json::from_str(include_str!("../../../../data/format-cases.json")).unwrap();
    table[kind].as_array().unwrap().clone()
}

fn currency(case: &Value) -> Currency {
    case["currency"].as_str().unwrap().parse().unwrap()
}

#[test]
fn every_shared_case_is_written_as_the_table_says() {
    let mut failures = Vec::new();
    let mut check = |what: &str, got: String, want: &Value| {
        if want.as_str() != Some(got.as_str()) {
            failures.push(format!("{what}: got {got:?}, want {want}"));
        }
    };
    for c in cases("money") {
        let v = c["value"].as_f64().unwrap();
        check(&format!("money {v} en"), format_amount(v, currency(&c), Lang::En), &c["en"]);
        check(&format!("money {v} zh"), format_amount(v, currency(&c), Lang::Zh), &c["zh"]);
    }
    for c in cases("unit_price") {
        let v = c["value"].as_f64().unwrap();
        check(&format!("price {v} en"), format_unit_price(v, currency(&c), Lang::En), &c["en"]);
        check(&format!("price {v} zh"), format_unit_price(v, currency(&c), Lang::Zh), &c["zh"]);
    }
    for c in cases("percent") {
        let v = c["value"].as_f64().unwrap();
        check(&format!("percent {v}"), format_percent(v, c["decimals"].as_u64().unwrap() as usize), &c["text"]);
    }
    for c in cases("number") {
        let v = c["value"].as_f64().unwrap();
        check(&format!("number {v}"), format_number(v, c["max_decimals"].as_u64().unwrap() as u32), &c["text"]);
    }
    for c in cases("axis") {
        let v = c["value"].as_f64().unwrap();
        check(&format!("axis {v} en"), format_axis(v, Lang::En), &c["en"]);
        check(&format!("axis {v} zh"), format_axis(v, Lang::Zh), &c["zh"]);
    }
    for c in cases("label") {
        let text = c["text"].as_str().unwrap();
        check(&format!("label {text:?} en"), for_lang(text, Lang::En), &c["en"]);
        check(&format!("label {text:?} zh"), for_lang(text, Lang::Zh), &c["zh"]);
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn nothing_non_finite_is_ever_written_as_a_number() {
    for x in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
        assert_eq!(format_amount(x, Currency::CNY, Lang::Zh), "—");
        assert_eq!(format_unit_price(x, Currency::USD, Lang::En), "—");
        assert_eq!(format_percent(x, 0), "—");
        assert_eq!(format_axis(x, Lang::En), "—");
    }
}

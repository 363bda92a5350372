//! The `suanli` binary as a user runs it.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::PathBuf;
use std::process::{Command, Output};

fn suanli(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_suanli"))
        .args(args)
        .env_remove("SUANLI_LANG")
        .env("LANG", "C")
        .env_remove("LC_ALL")
        .output()
        .unwrap()
}

fn example(name: &str) -> String {
    let p: PathBuf = [env!("CARGO_MANIFEST_DIR"), "..", "..", "data", "scenarios", name].iter().collect();
    p.to_string_lossy().into_owned()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn evaluate_prints_a_comparison_table() {
    let o = suanli(&["evaluate", &example("a100-8x-buy-vs-rent.toml")]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("Total (nominal)"), "{out}");
    assert!(out.contains("CNY 3,000,000.00"), "{out}");
    assert!(out.contains("CNY 1,799,654.40"), "{out}");
    assert!(out.contains("Cheapest (nominal): Rent 8×A100 on demand"), "{out}");
}

#[test]
fn evaluate_speaks_chinese_with_wan_amounts() {
    let o = suanli(&["--lang", "zh", "evaluate", &example("a100-8x-buy-vs-rent.toml")]);
    assert!(o.status.success());
    let out = stdout(&o);
    assert!(out.contains("总成本（名义）"), "{out}");
    assert!(out.contains("300.00万元"), "{out}");
    assert!(out.contains("179.97万元"), "{out}");
}

#[test]
fn evaluate_json_has_the_documented_fields() {
    let o = suanli(&["evaluate", &example("billing-mix.toml"), "--format", "json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let options = v["options"].as_array().unwrap();
    assert_eq!(options.len(), 3);
    for o in options {
        for key in [
            "id",
            "label",
            "currency",
            "total_nominal",
            "total_npv",
            "effective_price_per_ref_gpu_hour",
            "breakdown",
            "monthly",
        ] {
            assert!(o.get(key).is_some(), "missing {key} in {o}");
        }
        assert_eq!(o["monthly"].as_array().unwrap().len(), 24);
        assert_eq!(o["currency"], "CNY");
    }
    assert_eq!(v["cheapest_nominal"], "mix");
}

#[test]
fn a_bad_scenario_exits_non_zero_naming_field_and_value() {
    let dir = std::env::temp_dir().join(format!("suanli-cli-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let text = std::fs::read_to_string(example("a100-8x-buy-vs-rent.toml")).unwrap();
    let bad = dir.join("bad.toml");
    std::fs::write(&bad, text.replace("price_per_accel_hour = 8.56", "price_per_accel_hour = -8.56")).unwrap();
    let o = suanli(&["evaluate", bad.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(err.contains("options[1].on_demand.price_per_accel_hour = -8.56: must not be negative"), "{err}");
    assert!(stdout(&o).is_empty());
    let o = suanli(&["--lang", "zh", "evaluate", bad.to_str().unwrap()]);
    assert!(stderr(&o).contains("不能为负数"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn help_explains_each_command_in_both_languages() {
    let o = suanli(&["--help"]);
    assert!(o.status.success());
    let out = stdout(&o);
    assert!(out.contains("evaluate") && out.contains("比较") && out.contains("Examples"), "{out}");
    let o = suanli(&["evaluate", "--help"]);
    let out = stdout(&o);
    assert!(out.contains("--format") && out.contains("Exit status") && out.contains("退出码"), "{out}");
}

#[test]
fn an_unknown_language_is_refused() {
    let o = suanli(&["--lang", "fr", "evaluate", "x.toml"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("use en or zh"));
}

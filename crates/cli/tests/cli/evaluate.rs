//! `suanli evaluate`: the comparison table in either language, its JSON,
//! stale prices, options ranked apart and a bad scenario refused.

use crate::{example, stderr, stdout, suanli, suanli_on};

#[test]
fn evaluate_prints_a_comparison_table() {
    let o = suanli(&["evaluate", &example("a100-8x-buy-vs-rent.toml")]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("Total (nominal)"), "{out}");
    assert!(out.contains("CNY 3,000,000"), "{out}");
    assert!(out.contains("CNY 1,799,654 "), "{out}");
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
fn evaluate_lists_the_stale_prices_it_took_from_the_catalogue_in_either_language() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("catalog.sqlite");
    let o = suanli_on(&db, &["evaluate", &example("catalog-offers.toml")]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let (_, stale) = out.split_once("months old or older (stale)").unwrap_or_else(|| panic!("no stale prices:\n{out}"));
    // Alibaba Cloud's 2023 A100 prices: past any threshold, named by option and field.
    let line = stale.lines().find(|l| l.contains("ecs.gn7e-c16g1.16xlarge")).unwrap_or_else(|| panic!("{stale}"));
    assert!(line.contains("A100 80 GB on demand in China"), "{line}");
    assert!(line.contains("On demand, price per accelerator-hour: 2023-06-17 · stale, "), "{line}");
    assert!(!line.contains("on_demand.") && !line.contains("a100-in-china/"), "an internal name: {line}");

    let o = suanli_on(&db, &["--lang", "zh", "evaluate", &example("catalog-offers.toml")]);
    let out = stdout(&o);
    assert!(out.contains("个月（已过时），决策前请核实"), "{out}");
    assert!(out.contains("境内按需 A100 80 GB（数据不出境）"), "{out}");
    assert!(out.contains("按需，每卡时价格：2023-06-17 · 已过时"), "{out}");

    // JSON stays the evaluation's; the warning goes to stderr.
    let o = suanli_on(&db, &["evaluate", &example("catalog-offers.toml"), "--format", "json"]);
    assert!(serde_json::from_slice::<serde_json::Value>(&o.stdout).is_ok());
    assert!(stderr(&o).contains("2023-06-17 · stale"), "{}", stderr(&o));

    // A scenario with typed-in prices has none to age.
    let o = suanli(&["evaluate", &example("a100-8x-buy-vs-rent.toml")]);
    assert!(!stdout(&o).contains("stale"), "{}", stdout(&o));
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

/// A job option that finishes 91 % of the work is not the cheapest: it is
/// listed apart with its shortfall, on the terminal and in JSON.
#[test]
fn an_option_that_does_not_finish_is_ranked_apart() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("job.toml");
    std::fs::write(
        &file,
        r#"
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
[options.on_demand]
price_per_accel_hour = 1.0
"#,
    )
    .unwrap();
    let file = file.to_str().unwrap();
    let o = suanli(&["evaluate", file]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("Cheapest (nominal): fast"), "{out}");
    assert!(out.contains("Cheapest (NPV): fast"), "{out}");
    assert!(out.contains("Ranked apart") && out.contains("slow: 91% done, 7,000 reference-GPU-hours short"), "{out}");
    let o = suanli(&["--lang", "zh", "evaluate", file]);
    assert!(stdout(&o).contains("单独列出"), "{}", stdout(&o));
    let o = suanli(&["evaluate", file, "--format", "json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["cheapest_nominal"], "fast");
    assert_eq!(v["cheapest_npv"], "fast");
    let notes = v["options"][1]["notes"].to_string();
    assert!(notes.contains("ranked apart"), "{notes}");
}

#[test]
fn an_option_whose_cards_cannot_hold_the_model_is_marked_and_ranked_apart() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("fit.toml");
    // 70 B in BF16 with ZeRO-3 on 16 cards: 80 GB cards hold it, 64 GB cards
    // (though half the price) do not.
    std::fs::write(
        &file,
        r#"name = "70 B training"
horizon_months = 24
currency = "USD"
[demand]
kind = "job"
ref_gpu_hours = 100000
parameters = 70e9
precision = "bf16"
sharding = "zero3"
cluster_accelerators = 16
[[options]]
id = "eighty"
label = "Eighty"
kind = "rent"
billing = "on_demand"
memory_gb_per_accelerator = 80
[options.on_demand]
price_per_accel_hour = 2.0
[[options]]
id = "sixty-four"
label = "Sixty-four"
kind = "rent"
billing = "on_demand"
memory_gb_per_accelerator = 64
[options.on_demand]
price_per_accel_hour = 1.0
"#,
    )
    .unwrap();
    let o = suanli(&["evaluate", file.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("Sixty-four (does not fit)"), "{out}");
    assert!(out.contains("Cheapest (nominal): Eighty"), "{out}");
    assert!(out.contains("Sixty-four: its accelerators cannot hold the model"), "{out}");
    let zh = stdout(&suanli(&["--lang", "zh", "evaluate", file.to_str().unwrap()]));
    assert!(zh.contains("Sixty-four（装不下）"), "{zh}");
}

//! `suanli simulate`, `optimise` and `sensitivity`.

use crate::{example, stderr, stdout, suanli};

#[test]
fn simulate_shows_the_domestic_card_beside_a100() {
    let o = suanli(&[
        "simulate",
        &example("domestic-card-full.toml"),
        "--trials",
        "2000",
        "--seed",
        "7",
        "--format",
        "json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let opts = v["options"].as_array().unwrap();
    let domestic = opts.iter().find(|x| x["id"] == "rent-domestic").unwrap();
    // 0.32 ÷ 0.68 = 0.4706 per reference-GPU-hour, before porting.
    assert_eq!(domestic["effective_price_per_ref_gpu_hour"], 0.4706);
    assert_eq!(domestic["porting"]["cost"], 900_000.0);
    assert_eq!(domestic["porting"]["effort_is_default_assumption"], true);
    assert!(domestic["supply_risk"]["score"].as_f64().unwrap() > 0.0);
    for x in opts {
        let (p10, p50, p90) =
            (x["npv"]["p10"].as_f64().unwrap(), x["npv"]["p50"].as_f64().unwrap(), x["npv"]["p90"].as_f64().unwrap());
        assert!(p10 <= p50 && p50 <= p90);
    }
    // The same seed gives the same output.
    let again = suanli(&[
        "simulate",
        &example("domestic-card-full.toml"),
        "--trials",
        "2000",
        "--seed",
        "7",
        "--format",
        "json",
    ]);
    assert_eq!(o.stdout, again.stdout);
    let table = stdout(&suanli(&["--lang", "zh", "simulate", &example("domestic-card-full.toml"), "--trials", "500"]));
    assert!(table.contains("迁移成本") && table.contains("供应风险") && table.contains("万元"), "{table}");
    let o = suanli(&["simulate", &example("domestic-card-full.toml"), "--trials", "0"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn optimise_and_sensitivity_from_the_command_line() {
    let o = suanli(&["optimise", &example("billing-mix.toml"), "--format", "json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["outcome"], "chosen");
    assert!(v["chosen"]["base"].is_array() && v["chosen"]["on_demand"] == true && v["chosen"]["spot"] == true, "{v}");
    let text = stdout(&suanli(&["optimise", &example("billing-mix.toml")]));
    assert!(
        text.contains("Peaks above the base run on demand") && text.contains("Low-priority work runs on spot"),
        "{text}"
    );
    let o = suanli(&["sensitivity", &example("domestic-card-full.toml"), "--format", "json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let swings: Vec<f64> = v["tornado"].as_array().unwrap().iter().map(|b| b["swing"].as_f64().unwrap()).collect();
    assert!(swings.windows(2).all(|w| w[0] >= w[1]), "{swings:?}");
    // A scenario without [optimise] says what is missing.
    let o = suanli(&["optimise", &example("a100-8x-buy-vs-rent.toml")]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("[optimise]"), "{}", stderr(&o));
}

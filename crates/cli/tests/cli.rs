//! The `suanli` binary as a user runs it.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::PathBuf;
use std::process::{Command, Output};

/// Runs the binary on a throw-away database: never the user's.
fn suanli(args: &[&str]) -> Output {
    let db = tempfile::tempdir().unwrap();
    suanli_on(&db.path().join("catalog.sqlite"), args)
}

fn suanli_on(db: &std::path::Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_suanli"))
        .args(args)
        .env("SUANLI_DB", db)
        .env_remove("SUANLI_LANG")
        .env("LANG", "C")
        .env_remove("LC_ALL")
        .env_remove("LC_MESSAGES")
        .env("HOME", "/nonexistent-suanli-test-home")
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

fn fixture(name: &str) -> String {
    let p: PathBuf = [env!("CARGO_MANIFEST_DIR"), "..", "catalog", "tests", "fixtures", name].iter().collect();
    p.to_string_lossy().into_owned()
}

#[test]
fn catalogue_lists_domestic_accelerators_with_provenance() {
    let o = suanli(&["catalog", "list", "accelerators", "--domestic", "--format", "json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let rows: Vec<serde_json::Value> = serde_json::from_slice(&o.stdout).unwrap();
    assert!(rows.len() >= 15);
    for r in &rows {
        assert_eq!(r["domestic"], true);
        assert!(r["source"].as_str().is_some_and(|s| !s.is_empty()), "{r}");
        assert!(r["confidence"].as_str().is_some_and(|s| !s.is_empty()), "{r}");
        assert!(r.get("as_of").is_some());
    }
    let o = suanli(&["--lang", "zh", "catalog", "list", "accelerators", "--domestic"]);
    let out = stdout(&o);
    assert!(out.contains("昇腾910B") && out.contains("来源"), "{out}");
}

#[test]
fn catalogue_search_show_and_offers() {
    let o = suanli(&["catalog", "search", "昇腾"]);
    assert!(stdout(&o).contains("huawei-ascend-910b"), "{}", stdout(&o));
    let o = suanli(&["catalog", "show", "huawei-ascend-910b", "--format", "json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["kind"], "accelerator");
    assert!(v["efficiency"].as_array().is_some_and(|e| !e.is_empty()));
    let o = suanli(&[
        "catalog",
        "list",
        "offers",
        "--workload",
        "vision_training",
        "--sort",
        "effective",
        "--format",
        "json",
    ]);
    let rows: Vec<serde_json::Value> = serde_json::from_slice(&o.stdout).unwrap();
    let first = &rows[0];
    assert!(first["price_per_ref_gpu_hour"].is_number(), "{first}");
    assert!(first["efficiency"]["source"].is_string());
    let o = suanli(&["catalog", "show", "no-such-id"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("no-such-id"));
}

#[test]
fn feed_imports_keep_their_provenance_refuse_oversize_fields_and_fail_when_nothing_lands() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("catalog.sqlite");
    let gcp = fixture("skypilot/v9/gcp/vms.csv");
    let args = ["catalog", "import", "--format", "skypilot", "--provider", "gcp", "--feed-version", "2c3d7ea7", &gcp];
    let first = suanli_on(&db, &args);
    assert!(first.status.success(), "{}", stderr(&first));
    assert!(stdout(&first).contains("59 rows: 38 landed, 21 reported"), "{}", stdout(&first));
    // The same data again changes nothing, and says so.
    let again = suanli_on(&db, &args);
    assert!(again.status.success());
    let out = stdout(&again);
    assert!(out.contains("0 offers written, 74 unchanged"), "{out}");
    assert!(out.contains("nothing changed"), "{out}");
    // The source is the feed and its version, not the local path.
    let show = suanli_on(&db, &["catalog", "show", "gcp-gpu-h100-x8-us-east5-a-on-demand", "--format", "json"]);
    let json = stdout(&show);
    assert!(json.contains("SkyPilot catalogue gcp/vms.csv @ 2c3d7ea7"), "{json}");
    assert!(!json.contains("fixtures"), "{json}");
    // A 2 KB field is refused with its field named; a file where nothing lands exits non-zero.
    let big = dir.path().join("big.csv");
    let header = std::fs::read_to_string(&gcp).unwrap().lines().next().unwrap().to_owned();
    let long = "x".repeat(2048);
    std::fs::write(&big, format!("{header}\n{long},8.0,30.0,,,,us-central1,us-central1-a,0.38,0.12\n")).unwrap();
    let o = suanli_on(&db, &["catalog", "import", "--format", "skypilot", "--provider", "gcp", big.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    assert!(stdout(&o).contains("InstanceType = \"xxxx"), "{}", stdout(&o));
    assert!(stdout(&o).contains("longer than a field may be (1024 bytes)"), "{}", stdout(&o));
    assert!(stderr(&o).contains("none of the 1 row(s) landed"), "{}", stderr(&o));
}

#[test]
fn stale_prices_are_marked_and_each_change_lists_its_offers() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("catalog.sqlite");
    let run = |args: &[&str]| {
        let o = suanli_on(&db, args);
        assert!(o.status.success(), "{args:?}: {}", stderr(&o));
        stdout(&o)
    };
    let feed = fixture("skypilot-lambda-vms-excerpt.csv");
    run(&["catalog", "import", "--format", "skypilot", "--provider", "lambda", "--as-of", "2025-03", &feed]);
    let id = "lambda-gpu-8x-a100-a100-x8-us-east-1-on-demand";
    // A month-only date stays a month and is aged from its first day: stale at the default six months.
    let show = run(&["catalog", "show", id]);
    assert!(show.contains("as of: 2025-03 (month only) · stale"), "{show}");
    let list = run(&["catalog", "list", "offers", "--provider", "lambda"]);
    assert!(list.contains("2025-03 (month only) · stale"), "{list}");
    assert!(run(&["catalog", "stale-after", "120"]).contains("after 120 months"));
    let show = run(&["catalog", "show", id]);
    assert!(show.contains("as of: 2025-03 (month only)\n"), "{show}");
    // A new price: the history and the change record say old → new.
    let cheaper = dir.path().join("cheaper.csv");
    std::fs::write(&cheaper, std::fs::read_to_string(&feed).unwrap().replace(",10.32,us-east-1,", ",9.99,us-east-1,"))
        .unwrap();
    let out = run(&[
        "catalog",
        "import",
        "--format",
        "skypilot",
        "--provider",
        "lambda",
        "--as-of",
        "2026-11-30",
        cheaper.to_str().unwrap(),
    ]);
    assert!(out.contains("change: 0 new, 1 repriced"), "{out}");
    let json: serde_json::Value = serde_json::from_str(&run(&["catalog", "show", id, "--format", "json"])).unwrap();
    let history: Vec<(Option<f64>, Option<f64>)> = json["history"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| (h["old_price"].as_f64(), h["new_price"].as_f64()))
        .collect();
    assert_eq!(history, vec![(None, Some(10.32)), (Some(10.32), Some(9.99))]);
    let changes: serde_json::Value = serde_json::from_str(&run(&["catalog", "changes", "--format", "json"])).unwrap();
    let last = changes[0]["id"].as_i64().unwrap();
    let detail = run(&["catalog", "changes", &last.to_string()]);
    assert!(detail.contains(id) && detail.contains("repriced") && detail.contains("10.32 USD → 9.99 USD"), "{detail}");
    let zh = run(&["--lang", "zh", "catalog", "changes", &last.to_string()]);
    assert!(zh.contains("调价"), "{zh}");
}

#[test]
fn import_pricebook_and_packs_from_the_command_line() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("catalog.sqlite");
    let run = |args: &[&str]| {
        let o = suanli_on(&db, args);
        assert!(o.status.success(), "{args:?}: {}", stderr(&o));
        stdout(&o)
    };
    let out = run(&[
        "catalog",
        "import",
        "--format",
        "skypilot",
        "--provider",
        "lambda",
        &fixture("skypilot-lambda-vms-excerpt.csv"),
    ]);
    assert!(out.contains("9 rows: 4 landed, 5 reported · 4 offers written, 0 unchanged"), "{out}");
    assert!(
        out.contains("left out (lines 6, 7, 8): A6000: the catalogue has no row for this accelerator yet"),
        "{out}"
    );

    run(&["pricebook", "discount", "--id", "deal", "--provider", "lambda", "--share", "0.1", "--note", "volume"]);
    let book = dir.path().join("book.json");
    run(&["pricebook", "export", book.to_str().unwrap()]);
    assert!(std::fs::read_to_string(&book).unwrap().contains("\"deal\""));

    let keys = dir.path().join("keys");
    run(&["catalog", "keygen", "--out", keys.to_str().unwrap()]);
    let pack = dir.path().join("team.json");
    run(&[
        "catalog",
        "pack",
        "export",
        "--out",
        pack.to_str().unwrap(),
        "--key",
        keys.join("suanli.key").to_str().unwrap(),
    ]);
    assert!(dir.path().join("team.json.minisig").exists());

    // A second machine: trusts the team key, verifies and applies the pack.
    let other = dir.path().join("other.sqlite");
    let o = suanli_on(&other, &["catalog", "pack", "verify", pack.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("does not trust"), "{}", stderr(&o));
    assert!(suanli_on(&other, &["catalog", "trust", keys.join("suanli.pub").to_str().unwrap()]).status.success());
    let o = suanli_on(&other, &["catalog", "pack", "apply", pack.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("signed by"));
    let o = suanli_on(&other, &["pricebook", "import", book.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = suanli_on(&other, &["catalog", "changes"]);
    assert!(stdout(&o).contains("pack: team catalogue"), "{}", stdout(&o));
}

#[test]
fn a_bad_import_names_the_row_and_exits_cleanly() {
    let dir = tempfile::tempdir().unwrap();
    let feed = dir.path().join("feed.json");
    std::fs::write(&feed, "{\"Items\": [").unwrap();
    let o = suanli(&["catalog", "import", "--format", "azure-retail", feed.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("not an Azure Retail Prices page"), "{}", stderr(&o));
    let o = suanli(&["catalog", "import", "--format", "skypilot", feed.to_str().unwrap()]);
    assert!(stderr(&o).contains("--provider"), "{}", stderr(&o));
}

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

/// Text a terminal would obey (ESC, BEL, NUL, CR, U+202E) is shown escaped;
/// JSON keeps it exact.
#[test]
fn hostile_text_is_escaped_on_the_terminal_and_exact_in_json() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(example("a100-8x-buy-vs-rent.toml")).unwrap();
    let name = "Evil\u{1b}]0;pwned\u{7}\u{0}\r\u{202e}eman";
    let hostile: String = text
        .lines()
        .map(
            |l| if l.starts_with("name = ") { "name = \"Evil\\u001b]0;pwned\\u0007\\u0000\\r\\u202Eeman\"" } else { l },
        )
        .collect::<Vec<_>>()
        .join("\n");
    let hostile = hostile.replacen("label = \"", "label = \"\\u001b[2J", 1);
    let file = dir.path().join("hostile.toml");
    std::fs::write(&file, hostile).unwrap();
    let file = file.to_str().unwrap();
    let raw = ['\u{1b}', '\u{7}', '\u{0}', '\r', '\u{202e}'];

    let o = suanli(&["evaluate", file]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(!out.contains(raw), "raw control characters reached the terminal: {out:?}");
    assert!(out.contains("Evil\\u{1b}]0;pwned\\u{7}\\u{0}\\u{d}\\u{202e}eman"), "{out}");
    assert!(out.contains("\\u{1b}[2J"), "{out}");

    let o = suanli(&["evaluate", file, "--format", "json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["scenario"], name, "JSON must keep the text exact");

    // An error that quotes the file's text (an unknown field) is escaped too.
    let bad = dir.path().join("bad.toml");
    std::fs::write(&bad, text.replacen("horizon_months", "\"horizon\\u001b[31m\" = 1\nhorizon_months", 1)).unwrap();
    let o = suanli(&["evaluate", bad.to_str().unwrap()]);
    assert!(!o.status.success());
    let err = stderr(&o);
    assert!(!err.contains('\u{1b}') && err.contains("\\u{1b}[31m"), "{err}");
}

#[test]
fn catalog_show_escapes_text_from_a_pack() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("catalog.sqlite");
    let pack = dir.path().join("pack.json");
    let o = suanli_on(&db, &["catalog", "pack", "export", "--out", pack.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let mut p: serde_json::Value = serde_json::from_slice(&std::fs::read(&pack).unwrap()).unwrap();
    let id = p["tables"]["accelerators"][0]["id"].as_str().unwrap().to_owned();
    p["tables"]["accelerators"][0]["name"] = "\u{202e}1001A \u{1b}[5m".into();
    std::fs::write(&pack, serde_json::to_vec(&p).unwrap()).unwrap();
    let o = suanli_on(&db, &["catalog", "pack", "apply", "--allow-unsigned", pack.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = suanli_on(&db, &["catalog", "show", &id]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(!out.contains(['\u{202e}', '\u{1b}']), "{out:?}");
    assert!(out.contains("\\u{202e}1001A \\u{1b}[5m"), "{out}");
    let o = suanli_on(&db, &["catalog", "show", &id, "--format", "json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["accelerator"]["name"], "\u{202e}1001A \u{1b}[5m");
    let o = suanli_on(&db, &["catalog", "list", "accelerators"]);
    assert!(!stdout(&o).contains('\u{202e}'));
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

const TRAINING_JOB: &str = r#"name = "train"
horizon_months = 12
currency = "USD"
workload_class = "llm_pretraining"
fx = { CNY = 0.1406 }

[demand]
kind = "job"
ref_gpu_hours = 200000
cluster_accelerators = 64
"#;

#[test]
fn recommend_ranks_writes_a_scenario_that_evaluates_and_refuses_bad_constraints() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("catalog.sqlite");
    let file = dir.path().join("job.toml");
    std::fs::write(&file, TRAINING_JOB).unwrap();
    let file = file.to_string_lossy().into_owned();
    let chosen = dir.path().join("chosen.toml").to_string_lossy().into_owned();

    let o =
        suanli_on(&db, &["recommend", &file, "--max-supply-risk", "40", "--write-scenario", &chosen, "--pick", "1,2"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("First by NPV") && out.contains("Frontier"), "{out}");
    assert!(out.contains("supply-risk cap: 0 excluded"), "{out}");
    let o = suanli_on(&db, &["evaluate", &chosen]);
    assert!(o.status.success(), "the written scenario evaluates: {}", stderr(&o));

    let o = suanli_on(&db, &["recommend", &file, "--format", "json", "--rank-by", "time", "--domestic"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["rank_by"], "time");
    // The bundled catalogue rents domestic cards (china-prices.md's quotes): only they are ranked.
    let ranked = v["ranked"].as_array().unwrap();
    assert!(!ranked.is_empty(), "domestic cards are rented");
    let domestic =
        ["huawei-", "cambricon-", "hygon-", "kunlunxin-", "moorethreads-", "iluvatar-", "biren-", "metax-", "enflame-"];
    for cand in ranked {
        for pool in cand["pools"].as_array().unwrap() {
            let acc = pool["accelerator_id"].as_str().unwrap();
            assert!(domestic.iter().any(|d| acc.starts_with(d)), "{acc}");
        }
    }

    let o = suanli_on(&db, &["--lang", "zh", "recommend", &file, "--budget", "-1"]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(err.contains("constraints.budget_total = -1") && err.contains("不能为负数"), "{err}");
    // A jurisdiction or currency outside the closed sets: the flag and the value named.
    let o = suanli_on(&db, &["recommend", &file, "--jurisdiction", "us"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("'us'") && stderr(&o).contains("--jurisdiction"), "{}", stderr(&o));
    let o = suanli_on(&db, &["recommend", &file, "--budget-currency", "XYZ"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("'XYZ'") && stderr(&o).contains("--budget-currency") && stderr(&o).contains("CNY, USD"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn a_market_quote_is_shown_apart_from_an_official_list_price_with_its_source() {
    let args = ["catalog", "list", "for-workload", "--workload", "llm_pretraining", "--currency", "CNY", "--domestic"];
    let o = suanli(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("market quote (C)") && out.contains("cn:CM"), "{out}");
    let zh = stdout(&suanli(&[&["--lang", "zh"][..], &args[..]].concat()));
    assert!(zh.contains("市场报价（C）"), "{zh}");

    let o = suanli(&[&args[..], &["--format", "json"][..]].concat());
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let rows = v.as_array().unwrap();
    let priced: Vec<_> = rows.iter().filter(|r| r["price_per_ref_gpu_hour"].is_number()).collect();
    assert!(priced.len() >= 7, "{} domestic accelerators priced", priced.len());
    for r in &priced {
        let best = &r["best_offer"];
        assert!(best["source"].as_str().is_some_and(|s| !s.is_empty()), "{r}");
        assert!(best["quote"].is_string() && best["confidence"].is_string(), "{r}");
    }

    // The offers table: Tencent's official list price beside a market quote.
    let o = suanli(&["catalog", "list", "offers", "--provider", "tencent-cloud", "--format", "json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let gt4 = v.as_array().unwrap().iter().find(|x| x["id"] == "tencent-cloud-gt4-41xlarge948-on-demand").unwrap();
    assert_eq!(
        (gt4["quote"].as_str(), gt4["confidence"].as_str(), gt4["source"].as_str()),
        (Some("list_price"), Some("A"), Some("cn:TQ"))
    );
    let o = suanli(&["catalog", "list", "offers", "--provider", "gitee-ai"]);
    let out = stdout(&o);
    assert!(out.contains("market quote") && out.contains("3–4 CNY") && out.contains("quoted range"), "{out}");
}

// ---- Issue 36: hardening, third round ----

/// A scenario with `n` rent options over `months` months.
fn many_options(n: usize, months: u32) -> String {
    let mut s = format!(
        "name = \"many\"\nhorizon_months = {months}\ncurrency = \"CNY\"\ndiscount_rate_annual = 0.08\n\
         [demand]\nkind = \"profile\"\nmonthly_ref_gpus = [8]\ncluster_accelerators = 8\n"
    );
    for i in 0..n {
        s.push_str(&format!(
            "[[options]]\nid = \"rent-{i}\"\nlabel = \"rent {i}\"\nkind = \"rent\"\nbilling = \"on_demand\"\n\
             [options.on_demand]\nprice_per_accel_hour = 8.5\n"
        ));
    }
    s
}

#[test]
fn scenario_size_options_and_trials_are_bounded_before_any_work() {
    let dir = tempfile::tempdir().unwrap();
    // A file past the size limit: refused having read no more than the limit.
    let big = dir.path().join("big.toml");
    let mut text = many_options(2, 12);
    text.push_str(&"# padding padding padding padding padding padding padding padding\n".repeat(100_000));
    std::fs::write(&big, &text).unwrap();
    for path in [big.to_str().unwrap(), "/dev/zero"] {
        let o = suanli(&["evaluate", path]);
        assert_eq!(o.status.code(), Some(1), "{path}: {}", stderr(&o));
        assert!(stderr(&o).contains("larger than a scenario may be") && stderr(&o).contains("MiB"), "{}", stderr(&o));
        let o = suanli(&["--lang", "zh", "evaluate", path]);
        assert!(stderr(&o).contains("超过场景文件上限"), "{}", stderr(&o));
    }

    let too_many = dir.path().join("options.toml");
    std::fs::write(&too_many, many_options(201, 12)).unwrap();
    let o = suanli(&["evaluate", too_many.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("options") && stderr(&o).contains("at most 200 options"), "{}", stderr(&o));

    let long = dir.path().join("long.toml");
    std::fs::write(&long, many_options(60, 240)).unwrap();
    let o = suanli(&["evaluate", long.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("12000"), "{}", stderr(&o));

    let o = suanli(&["simulate", &example("domestic-vs-a100.toml"), "--trials", "4000000000"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("trials") && stderr(&o).contains("1000000"), "{}", stderr(&o));
}

#[test]
fn a_closed_stdout_ends_quietly() {
    let db = tempfile::tempdir().unwrap();
    for args in [
        vec!["catalog", "list", "offers"],
        vec!["catalog", "list", "offers", "--format", "json"],
        vec!["evaluate", &example("a100-8x-buy-vs-rent.toml")],
    ] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_suanli"))
            .args(&args)
            .env("SUANLI_DB", db.path().join("catalog.sqlite"))
            .env("HOME", "/nonexistent-suanli-test-home")
            .env("LANG", "C")
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        // `| head -0`: the reader goes away before anything is written.
        drop(child.stdout.take());
        let o = child.wait_with_output().unwrap();
        assert_eq!(o.status.code(), Some(141), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).is_empty(), "{args:?}: {}", stderr(&o));
    }
}

/// A pack of `db`'s catalogue whose tables `edit` changed, signed with `keys/suanli.key`.
fn crafted_pack(
    db: &std::path::Path,
    keys: &std::path::Path,
    out: &std::path::Path,
    edit: impl Fn(&mut suanli_catalog::pack::Pack),
) {
    use suanli_catalog::pack::{self, Subset};
    let (c, _) = suanli_catalog::Catalog::open(db, "2026-12-04T00:00:00Z").unwrap();
    let mut p = c.export_pack(c.version().unwrap().unwrap() + 1, "crafted", "2026-12-04", &Subset::default()).unwrap();
    edit(&mut p);
    let bytes = pack::to_bytes(&p).unwrap();
    let sk = std::fs::read_to_string(keys.join("suanli.key")).unwrap();
    std::fs::write(out, &bytes).unwrap();
    std::fs::write(out.with_extension("json.minisig"), pack::sign(&bytes, &sk, p.version).unwrap()).unwrap();
}

#[test]
fn packs_say_what_they_change_and_a_large_removal_needs_allow_removals() {
    let dir = tempfile::tempdir().unwrap();
    let publisher = dir.path().join("publisher.sqlite");
    let receiver = dir.path().join("receiver.sqlite");
    let keys = dir.path().join("keys");
    let key = keys.join("suanli.key");
    assert!(suanli_on(&publisher, &["catalog", "keygen", "--out", keys.to_str().unwrap()]).status.success());
    assert!(suanli_on(&receiver, &["catalog", "trust", keys.join("suanli.pub").to_str().unwrap()]).status.success());

    // A provider pack: its scope printed, nothing outside it removed.
    let aws = dir.path().join("aws.json");
    let o = suanli_on(
        &publisher,
        &[
            "catalog",
            "pack",
            "export",
            "--provider",
            "aws",
            "--out",
            aws.to_str().unwrap(),
            "--key",
            key.to_str().unwrap(),
        ],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let o = suanli_on(&receiver, &["catalog", "pack", "verify", aws.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("covers: providers aws"), "{}", stdout(&o));
    assert!(stdout(&o).contains("offers: 0 added, 0 removed, 0 changed"), "{}", stdout(&o));
    let o = suanli_on(&receiver, &["catalog", "pack", "apply", aws.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("0 removed"), "{}", stdout(&o));

    // Edited names and notes are counted field by field.
    let edited = dir.path().join("edited.json");
    crafted_pack(&receiver, &keys, &edited, |p| {
        p.tables.offers[0].notes = Some("changed".into());
        p.tables.offers[1].instance = Some("renamed".into());
    });
    let o = suanli_on(&receiver, &["catalog", "pack", "verify", edited.to_str().unwrap()]);
    assert!(stdout(&o).contains("offers: 0 added, 0 removed, 2 changed (instance 1, notes 1)"), "{}", stdout(&o));

    // An empty whole-catalogue pack: refused without the flag, the catalogue as it was.
    let empty = dir.path().join("empty.json");
    crafted_pack(&receiver, &keys, &empty, |p| p.tables.offers.clear());
    let o = suanli_on(&receiver, &["catalog", "pack", "verify", empty.to_str().unwrap()]);
    assert!(stdout(&o).contains("covers: the whole catalogue"), "{}", stdout(&o));
    assert!(stdout(&o).contains("--allow-removals"), "{}", stdout(&o));
    let o = suanli_on(&receiver, &["catalog", "pack", "apply", empty.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("nothing was changed") && stderr(&o).contains("--allow-removals"), "{}", stderr(&o));
    let o = suanli_on(&receiver, &["--lang", "zh", "catalog", "pack", "apply", empty.to_str().unwrap()]);
    assert!(stderr(&o).contains("--allow-removals") && stderr(&o).contains("移除"), "{}", stderr(&o));
    let o = suanli_on(&receiver, &["catalog", "pack", "apply", "--allow-removals", empty.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
}

#[test]
fn untrust_removes_a_key_and_says_when_none_was_trusted() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("db.sqlite");
    let keys = dir.path().join("keys");
    assert!(suanli_on(&db, &["catalog", "keygen", "--out", keys.to_str().unwrap()]).status.success());
    let o = suanli_on(&db, &["catalog", "trust", keys.join("suanli.pub").to_str().unwrap()]);
    let id = stdout(&o).trim().rsplit(' ').next().unwrap().to_owned();
    let o = suanli_on(&db, &["catalog", "untrust", &id]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains(&id), "{}", stdout(&o));
    let o = suanli_on(&db, &["catalog", "untrust", &id]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains(&id), "{}", stderr(&o));
}

#[test]
fn a_foreign_database_and_a_discount_for_nothing_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let foreign = dir.path().join("notes.sqlite");
    if !another_programs_database(&foreign) {
        eprintln!("skipped: no sqlite3 shell to make another program's database with");
        return;
    }
    let before = std::fs::read(&foreign).unwrap();
    let o = suanli(&["--db", foreign.to_str().unwrap(), "catalog", "list", "offers"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("notes.sqlite") && stderr(&o).contains("not a Suanli catalogue"), "{}", stderr(&o));
    assert_eq!(std::fs::read(&foreign).unwrap(), before);

    let db = dir.path().join("db.sqlite");
    let typo = ["pricebook", "discount", "--id", "d", "--provider", "amazon", "--share", "0.1"];
    let o = suanli_on(&db, &typo);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("amazon") && stderr(&o).contains("--for-later"), "{}", stderr(&o));
    let mut later = typo.to_vec();
    later.push("--for-later");
    assert!(suanli_on(&db, &later).status.success());
}

/// Makes another program's SQLite file with the sqlite3 shell; `false` when there is none.
fn another_programs_database(path: &std::path::Path) -> bool {
    Command::new("sqlite3")
        .arg(path)
        .arg("CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('mine');")
        .status()
        .is_ok_and(|s| s.success())
}

#[test]
fn a_stale_threshold_of_zero_and_a_proposal_date_that_is_not_a_date_are_refused() {
    let o = suanli(&["catalog", "stale-after", "0"]);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    assert!(stderr(&o).contains("stale-after") && stderr(&o).contains("at least 1"), "{}", stderr(&o));
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("p.pdf");
    let o = suanli(&[
        "proposal",
        &example("a100-8x-buy-vs-rent.toml"),
        "--out",
        out.to_str().unwrap(),
        "--date",
        "next tuesday",
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    assert!(stderr(&o).contains("next tuesday") && stderr(&o).contains("YYYY-MM-DD"), "{}", stderr(&o));
    assert!(!out.exists());
}

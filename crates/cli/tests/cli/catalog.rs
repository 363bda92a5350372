//! `suanli catalog …` and `suanli pricebook …`: lists, search, imports,
//! changes, market quotes, and a database or discount that is refused.

use std::path::PathBuf;
use std::process::Command;

use crate::{stderr, stdout, suanli, suanli_on};

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
fn for_workload_without_a_currency_names_the_flag_in_either_language() {
    let o = suanli(&["catalog", "list", "for-workload", "--workload", "llm_inference"]);
    assert!(!o.status.success());
    let err = stderr(&o);
    assert!(err.contains("--currency") && err.contains("one currency") && !err.contains("scenario"), "{err}");
    let o = suanli(&["--lang", "zh", "catalog", "list", "for-workload", "--workload", "llm_inference"]);
    let err = stderr(&o);
    assert!(err.contains("--currency") && err.contains("同一种货币"), "{err}");
    let o = suanli(&["catalog", "list", "for-workload", "--workload", "llm_inference", "--currency", "USD"]);
    assert!(o.status.success(), "{}", stderr(&o));
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

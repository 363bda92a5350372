//! The desktop shell's commands through Tauri's mock runtime: the same
//! invoke path the window uses, without a display.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod recordings;
mod support;

use std::path::Path;

use serde_json::{Value, json};
use support::{Shell, shell, temp_db};

fn seed_case(shell: &Shell) -> Value {
    let examples = shell.ok("examples", json!({}));
    let toml = examples[0]["toml"].as_str().unwrap().to_owned();
    assert_eq!(examples[0]["file"], "a100-8x-buy-vs-rent.toml");
    shell.ok("scenario_from_toml", json!({ "text": toml }))
}

fn total(evaluated: &Value, option: &str) -> f64 {
    let options = evaluated["evaluation"]["options"].as_array().unwrap();
    options.iter().find(|o| o["id"] == option).unwrap()["total_nominal"].as_f64().unwrap()
}

#[test]
fn first_start_opens_the_bundled_catalogue_and_evaluates_the_seed_case() {
    let (_dir, db) = temp_db();
    let shell = shell(&db);
    let info = shell.ok("app_info", json!({}));
    assert_eq!(info["db_error"], Value::Null);
    assert_eq!(info["counts"]["accelerators"], 90);
    let domestic = shell.ok(
        "list_accelerators",
        json!({ "filter": { "vendor": null, "domestic": true, "min_memory_gb": null, "obtainable_in": null } }),
    );
    let domestic = domestic.as_array().unwrap();
    assert!(domestic.iter().any(|a| a["vendor"].as_str().unwrap().contains("Huawei")), "{domestic:?}");
    assert!(domestic.iter().all(|a| a["domestic"] == true));

    let doc = seed_case(&shell);
    let evaluated = shell.ok("evaluate", json!({ "scenario": doc }));
    // The article's seed case: buying costs 3,000,000 CNY, renting 1,799,654.40 (golden test figures).
    let buy = total(&evaluated, "buy-8xa100");
    let rent = total(&evaluated, "rent-8xa100-on-demand");
    assert_eq!((buy, rent), (3_000_000.0, 1_799_654.4));

    // An input change changes the results.
    let mut longer = doc.clone();
    longer["horizon_months"] = json!(48);
    let evaluated = shell.ok("evaluate", json!({ "scenario": longer }));
    assert!(total(&evaluated, "rent-8xa100-on-demand") > rent);
}

#[test]
fn a_broken_rule_is_named_at_its_field_and_nothing_invalid_is_saved() {
    let (_dir, db) = temp_db();
    let shell = shell(&db);
    let mut doc = seed_case(&shell);
    doc["horizon_months"] = json!(0);
    let err = shell.call("evaluate", json!({ "scenario": doc })).unwrap_err();
    assert_eq!(err["code"], "invalid");
    assert!(err["fields"].as_array().unwrap().iter().any(|f| f["path"] == "horizon_months" && f["value"] == "0"));
    let err = shell.call("library_save", json!({ "id": null, "scenario": doc })).unwrap_err();
    assert_eq!(err["code"], "invalid");
    assert_eq!(shell.ok("library_list", json!({})), json!([]));

    doc["horizon_months"] = json!("three years");
    let err = shell.call("evaluate", json!({ "scenario": doc })).unwrap_err();
    assert_eq!((err["code"].as_str(), err["fields"][0]["path"].as_str()), (Some("shape"), Some("horizon_months")));
}

#[test]
fn library_and_draft_survive_a_restart() {
    let (_dir, db) = temp_db();
    let doc = {
        let shell = shell(&db);
        let doc = seed_case(&shell);
        let saved = shell.ok("library_save", json!({ "id": null, "scenario": doc }));
        let id = saved["id"].as_u64().unwrap();
        let copy = shell.ok("library_duplicate", json!({ "id": id }));
        assert!(copy["name"].as_str().unwrap().ends_with("(copy)"));
        let renamed = shell.ok("library_rename", json!({ "id": copy["id"], "name": "Longer horizon" }));
        assert_eq!(renamed["name"], "Longer horizon");
        let mut draft = doc.clone();
        draft["discount_rate_annual"] = json!(-5); // a draft may be invalid
        shell.ok("autosave_put", json!({ "scenario": draft, "libraryId": id }));
        doc
    };
    let shell = shell(&db);
    let list = shell.ok("library_list", json!({}));
    assert_eq!(list.as_array().unwrap().len(), 2);
    let id = list.as_array().unwrap().iter().find(|m| m["name"] != "Longer horizon").unwrap()["id"].clone();
    let opened = shell.ok("library_open", json!({ "id": id }));
    assert_eq!(opened["scenario"], doc);
    let draft = shell.ok("autosave_get", json!({}));
    assert_eq!((draft["scenario"]["discount_rate_annual"].as_f64(), &draft["library_id"]), (Some(-5.0), &id));
    shell.ok("library_delete", json!({ "id": id }));
    assert_eq!(shell.ok("library_list", json!({})).as_array().unwrap().len(), 1);
    assert_eq!(shell.call("library_open", json!({ "id": id })).unwrap_err()["code"], "not_found");
}

#[test]
fn compare_names_what_changed_and_what_it_did_to_the_totals() {
    let (_dir, db) = temp_db();
    let shell = shell(&db);
    let doc = seed_case(&shell);
    let a = shell.ok("library_save", json!({ "id": null, "scenario": doc }))["id"].clone();
    let mut longer = doc.clone();
    longer["horizon_months"] = json!(48);
    let b = shell.ok("library_save", json!({ "id": null, "scenario": longer }))["id"].clone();
    let cmp = shell.ok("library_compare", json!({ "a": a, "b": b }));
    assert_eq!(cmp["changes"], json!([{ "path": "horizon_months", "before": "36", "after": "48" }]));
    let totals = cmp["totals"].as_array().unwrap();
    let rent = totals.iter().find(|t| t["option_id"] == "rent-8xa100-on-demand").unwrap();
    assert!(rent["after_nominal"].as_f64() > rent["before_nominal"].as_f64());
}

#[test]
fn language_switch_changes_the_messages() {
    let (_dir, db) = temp_db();
    let shell = shell(&db);
    let mut settings = shell.ok("get_settings", json!({}));
    assert_eq!((settings["lang"].as_str(), settings["currency"].as_str()), (Some("en"), Some("CNY")));
    settings["lang"] = json!("zh");
    shell.ok("put_settings", json!({ "settings": settings }));
    let mut doc = seed_case(&shell);
    doc["horizon_months"] = json!(0);
    let err = shell.call("evaluate", json!({ "scenario": doc })).unwrap_err();
    assert!(err["message"].as_str().unwrap().contains("场景有"), "{err}");
    settings["usd_cny"] = json!(-1);
    let err = shell.call("put_settings", json!({ "settings": settings })).unwrap_err();
    assert_eq!(err["fields"][0]["path"], "usd_cny");
    // Settings persist across a restart.
    drop(shell);
    assert_eq!(self::shell(&db).ok("get_settings", json!({}))["lang"], "zh");
}

#[test]
fn a_database_that_cannot_be_opened_is_reported_and_left_untouched() {
    let (_dir, db) = temp_db();
    std::fs::write(&db, b"this is not a database, but somebody's file").unwrap();
    let before = std::fs::read(&db).unwrap();
    let shell = shell(&db);
    let info = shell.ok("app_info", json!({}));
    assert_eq!(info["counts"], Value::Null);
    assert!(!info["db_error"]["message"].as_str().unwrap().is_empty());
    assert_eq!(shell.call("library_list", json!({})).unwrap_err()["code"], "db_unavailable");
    // A scenario that names no catalogue offer still evaluates.
    let doc = seed_case(&shell);
    shell.ok("evaluate", json!({ "scenario": doc }));
    drop(shell);
    assert_eq!(std::fs::read(&db).unwrap(), before);
}

#[test]
fn a_database_from_a_newer_suanli_is_refused_without_a_write() {
    let (_dir, db) = temp_db();
    drop(suanli_api::catalog::open_catalog(Some(&db)).unwrap());
    // A newer Suanli's migration: `PRAGMA user_version` (header offset 60,
    // big-endian) far ahead. Closing the database folded the WAL into the file.
    let mut bytes = std::fs::read(&db).unwrap();
    bytes[60..64].copy_from_slice(&999u32.to_be_bytes());
    std::fs::write(&db, &bytes).unwrap();
    let shell = shell(&db);
    assert_eq!(shell.ok("app_info", json!({}))["db_error"]["code"], "newer_schema");
    drop(shell);
    assert_eq!(std::fs::read(&db).unwrap(), bytes);
}

#[test]
fn the_proposal_is_the_same_bytes_the_cli_writes() {
    let (dir, db) = temp_db();
    let shell = shell(&db);
    let doc = seed_case(&shell);
    let out = dir.path().join("proposal.pdf");
    let fields = json!({ "client": "ACME 集团", "author": "Li Wei", "firm": "Example Consulting", "logo_path": null });
    let done = shell.ok("export_proposal", json!({ "scenario": doc, "path": out, "fields": fields }));
    let bytes = std::fs::read(&out).unwrap();
    assert_eq!(done["bytes"].as_u64(), Some(bytes.len() as u64));
    let scenario = Path::new(env!("CARGO_MANIFEST_DIR")).join("../data/scenarios/a100-8x-buy-vs-rent.toml");
    let meta = suanli_api::proposal::ProposalMeta {
        client: "ACME 集团".into(),
        author: "Li Wei".into(),
        firm: "Example Consulting".into(),
        date: "2026-11-30".into(), // the test shell's day (support::TODAY)
        logo: None,
    };
    let cli = suanli_api::proposal::proposal_bytes(&scenario, Some(&db), suanli_api::Lang::En, &meta).unwrap();
    assert!(bytes == cli, "the app's proposal differs from the CLI's");

    let xlsx = dir.path().join("sheet.xlsx");
    let done = shell.ok("export_spreadsheet", json!({ "scenario": doc, "path": xlsx }));
    assert!(done["bytes"].as_u64().unwrap() > 1000);
    assert_eq!(&std::fs::read(&xlsx).unwrap()[..2], b"PK");
    // An unwritable place is an error that names it.
    let err =
        shell.call("export_spreadsheet", json!({ "scenario": doc, "path": "/nonexistent-dir/x.xlsx" })).unwrap_err();
    assert!(err["message"].as_str().unwrap().contains("/nonexistent-dir"), "{err}");
}

#[test]
fn the_price_book_is_the_users_and_validated() {
    let (_dir, db) = temp_db();
    let shell = shell(&db);
    let offer = json!({
        "id": "my-a100", "provider_id": "aliyun", "accelerator_id": "nvidia-a100-80gb", "instance": null,
        "region": "cn-beijing", "billing_mode": "on_demand", "accelerators_per_instance": 8.0, "price": 160.0,
        "price_unit": "instance_hour", "currency": "CNY", "upfront": null, "interconnect": null,
        "as_of": "2026-11-01", "source": "negotiated", "confidence": "A", "notes": null
    });
    let book = shell.ok("pricebook_put_offer", json!({ "offer": offer }));
    assert_eq!(book["offers"][0]["id"], "my-a100");
    let filter = json!({ "accelerator": "nvidia-a100-80gb", "fx": {}, "exclude_pricebook": false, "sort": "id" });
    let offers = shell.ok("list_offers", json!({ "filter": filter }));
    let mine = offers.as_array().unwrap().iter().find(|o| o["id"] == "my-a100").unwrap();
    assert_eq!((mine["origin"].as_str(), mine["price_per_accel_hour"].as_f64()), (Some("pricebook"), Some(20.0)));
    let mut bad = offer.clone();
    bad["price"] = json!(-3.0);
    let err = shell.call("pricebook_put_offer", json!({ "offer": bad })).unwrap_err();
    assert!(err["fields"].as_array().unwrap().iter().any(|f| f["path"] == "price"), "{err}");
    let book = shell.ok("pricebook_remove", json!({ "id": "my-a100" }));
    assert_eq!(book["offers"], json!([]));
}

#[test]
fn bindings_are_current() {
    let committed = Path::new(env!("CARGO_MANIFEST_DIR")).join("../ui/src/bindings.ts");
    let dir = tempfile::tempdir().unwrap();
    let fresh = dir.path().join("bindings.ts");
    suanli_app::export_bindings(&fresh).unwrap();
    let fresh = std::fs::read_to_string(&fresh).unwrap();
    if std::env::var_os("SUANLI_UPDATE_BINDINGS").is_some() {
        std::fs::write(&committed, &fresh).unwrap();
    }
    let current = std::fs::read_to_string(&committed).unwrap_or_default();
    assert!(
        current == fresh,
        "ui/src/bindings.ts is stale: run `SUANLI_UPDATE_BINDINGS=1 cargo test -p suanli-app --test shell bindings` and commit it"
    );
}

#[test]
fn an_evaluation_completes_while_a_catalogue_download_is_in_progress() {
    use std::io::{Read, Write};
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::{Arc, mpsc};

    let (_dir, db) = temp_db();
    let shell = shell(&db);
    let doc = seed_case(&shell);

    // A loopback server that starts the pack's body, then holds it until told.
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/catalogue.pack", listener.local_addr().unwrap());
    let (started_tx, started) = mpsc::channel();
    let (release, release_rx) = mpsc::channel::<()>();
    let server = std::thread::spawn(move || {
        let (mut stream, _) = listener.accept().unwrap();
        let mut request = [0u8; 4096];
        let _ = stream.read(&mut request).unwrap();
        stream.write_all(b"HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\nSLOW").unwrap();
        stream.flush().unwrap();
        started_tx.send(()).unwrap();
        // Until the test has evaluated (or the download's own timeout ends it).
        let _ = release_rx.recv();
    });

    let finished = Arc::new(AtomicBool::new(false));
    let update = {
        let (caller, finished) = (shell.caller(), finished.clone());
        std::thread::spawn(move || {
            let args = json!({ "url": url, "onProgress": "__CHANNEL__:1" });
            let result = caller.call("catalog_update_url", args);
            finished.store(true, Ordering::SeqCst);
            result
        })
    };
    started.recv().unwrap();
    let evaluated = shell.ok("evaluate", json!({ "scenario": doc }));
    assert!(!finished.load(Ordering::SeqCst), "the evaluation waited for the download to end");
    assert_eq!(total(&evaluated, "rent-8xa100-on-demand"), 1_799_654.4);
    release.send(()).unwrap();
    server.join().unwrap();
    // The body ended short: the update fails, and nothing was applied.
    assert!(update.join().unwrap().is_err(), "a body that ended short was applied");
    assert_eq!(shell.ok("app_info", json!({}))["counts"]["accelerators"], 90);
}

#[test]
fn reads_go_on_while_a_write_holds_the_catalogue() {
    use std::sync::mpsc;
    use std::time::Duration;

    let (_dir, db) = temp_db();
    let shell = shell(&db);
    let doc = seed_case(&shell);
    let before = shell.ok("app_info", json!({}))["counts"]["offers"].clone();

    // As an import or a pack does: the app's catalogue taken, a write
    // transaction open on it, until the test has read.
    let (held_tx, held) = mpsc::channel();
    let (release, release_rx) = mpsc::channel::<()>();
    let state = shell.state();
    let writer = std::thread::spawn(move || {
        state.with(|c, _| {
            let write = "BEGIN IMMEDIATE; DELETE FROM offers;";
            c.connection().execute_batch(write).map_err(|e| suanli_api::Error::Internal(e.to_string()))?;
            held_tx.send(()).unwrap();
            let _ = release_rx.recv_timeout(Duration::from_secs(60));
            c.connection().execute_batch("ROLLBACK").map_err(|e| suanli_api::Error::Internal(e.to_string()))
        })
    });
    held.recv().unwrap();
    let (answer_tx, answer) = mpsc::channel();
    let caller = shell.caller();
    std::thread::spawn(move || {
        let evaluated = caller.call("evaluate", json!({ "scenario": doc }));
        let info = caller.call("app_info", json!({}));
        // Every other read-only command takes the read-only connection too.
        let reads = ["get_settings", "library_list", "list_providers", "pricebook"].map(|c| caller.call(c, json!({})));
        let filter = json!({ "fx": {}, "exclude_pricebook": false, "sort": "id" });
        let offers = caller.call("list_offers", json!({ "filter": filter }));
        let _ = answer_tx.send((evaluated, info, reads, offers));
    });
    let (evaluated, info, reads, offers) =
        answer.recv_timeout(Duration::from_secs(30)).expect("the reads waited for the write");
    assert_eq!(total(&evaluated.unwrap(), "rent-8xa100-on-demand"), 1_799_654.4);
    assert!(reads.iter().all(Result::is_ok), "{reads:?}");
    assert_eq!(offers.unwrap().as_array().map(Vec::len), before.as_u64().map(|n| n as usize));
    // The reader sees the last commit, not the write in progress.
    assert_eq!(info.unwrap()["counts"]["offers"], before);
    release.send(()).unwrap();
    writer.join().unwrap().unwrap();
    assert_eq!(shell.ok("app_info", json!({}))["counts"]["offers"], before);
}

/// What holds a feed server's first answer back, and says it has begun.
type Hold = (std::sync::mpsc::Receiver<()>, std::sync::mpsc::Sender<()>);

/// A loopback server for one feed file: each request gets the whole file,
/// except that the first one, when `hold` is given, gets its first 100 bytes,
/// says so on `started`, then (on `hold`'s signal) sends 100 more, then
/// nothing until `hold` signals again.
fn feed_server(body: Vec<u8>, hold: Option<Hold>) -> (String, std::thread::JoinHandle<()>) {
    use std::io::{Read, Write};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/{{cloud}}/vms.csv", listener.local_addr().unwrap());
    let server = std::thread::spawn(move || {
        let (mut stream, _) = listener.accept().unwrap();
        let mut request = [0u8; 4096];
        let _ = stream.read(&mut request).unwrap();
        let head = format!("HTTP/1.1 200 OK\r\nContent-Length: {}\r\nConnection: close\r\n\r\n", body.len());
        stream.write_all(head.as_bytes()).unwrap();
        match hold {
            Some((hold, started)) => {
                stream.write_all(&body[..100]).unwrap();
                stream.flush().unwrap();
                started.send(()).unwrap();
                let _ = hold.recv();
                stream.write_all(&body[100..200]).unwrap();
                stream.flush().unwrap();
                let _ = hold.recv();
            }
            None => stream.write_all(&body).unwrap(),
        }
    });
    (url, server)
}

#[test]
fn a_price_refresh_holds_no_lock_while_it_downloads_and_a_cancelled_one_changes_nothing() {
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::{Arc, mpsc};

    let (_dir, db) = temp_db();
    let shell = shell(&db);
    let doc = seed_case(&shell);
    let feed = std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../crates/catalog/tests/fixtures/skypilot/v9/aws/vms.csv"),
    )
    .unwrap();
    let imported = |shell: &Shell| {
        let offers =
            shell.ok("list_offers", json!({ "filter": { "fx": {}, "sort": "id", "exclude_pricebook": false } }));
        offers.as_array().unwrap().iter().filter(|o| o["origin"] == "import").count()
    };
    let azure = shell.ok("feed_choice", json!({}))["azure_url"].clone();

    // Slow: the body arrives in two pieces, and the user cancels between them.
    let (hold, held) = mpsc::channel();
    let (started_tx, started) = mpsc::channel();
    let (url, server) = feed_server(feed.clone(), Some((held, started_tx)));
    let finished = Arc::new(AtomicBool::new(false));
    let refresh = {
        let (caller, finished, azure) = (shell.caller(), finished.clone(), azure.clone());
        std::thread::spawn(move || {
            let args = json!({ "feeds": ["skypilot:aws"], "skypilotUrl": url, "azureUrl": azure, "onProgress": "__CHANNEL__:1" });
            let result = caller.call("catalog_refresh", args);
            finished.store(true, Ordering::SeqCst);
            result
        })
    };
    started.recv().unwrap();
    let evaluated = shell.ok("evaluate", json!({ "scenario": doc }));
    assert!(!finished.load(Ordering::SeqCst), "the evaluation waited for the refresh's download");
    assert_eq!(total(&evaluated, "rent-8xa100-on-demand"), 1_799_654.4);
    shell.ok("catalog_refresh_cancel", json!({}));
    hold.send(()).unwrap(); // the next piece arrives: the refresh sees the cancel
    let error = refresh.join().unwrap().expect_err("a cancelled refresh succeeded");
    assert!(error["message"].as_str().unwrap().contains("cancelled"), "{error}");
    hold.send(()).unwrap();
    server.join().unwrap();
    assert_eq!(imported(&shell), 0, "a cancelled refresh imported offers");

    // Whole: every row of the file either lands or is reported.
    let (url, server) = feed_server(feed.clone(), None);
    let args =
        json!({ "feeds": ["skypilot:aws"], "skypilotUrl": url, "azureUrl": azure, "onProgress": "__CHANNEL__:2" });
    let reports = shell.ok("catalog_refresh", args);
    server.join().unwrap();
    let r = &reports[0];
    assert_eq!(r["feed"], "skypilot:aws");
    let rows = String::from_utf8_lossy(&feed).lines().count() as u64 - 1;
    assert_eq!(r["rows"].as_u64(), Some(rows));
    assert_eq!(r["rows_landed"].as_u64().unwrap() + r["rows_reported"].as_u64().unwrap(), rows);
    assert!(r["imported"].as_u64().unwrap() > 0);
    assert_eq!(imported(&shell) as u64, r["imported"].as_u64().unwrap());

    // A feed the app does not know is refused by name, before any download.
    let args = json!({ "feeds": ["skypilot:"], "skypilotUrl": "http://127.0.0.1:9/", "azureUrl": azure, "onProgress": "__CHANNEL__:3" });
    let err = shell.call("catalog_refresh", args).expect_err("an unnamed cloud was refreshed");
    assert!(err["message"].as_str().unwrap().contains("feeds"), "{err}");
}

#[test]
fn the_stale_threshold_is_a_setting_that_ages_every_offer() {
    let (_dir, db) = temp_db();
    let shell = shell(&db);
    let mut settings = shell.ok("get_settings", json!({}));
    assert_eq!(settings["stale_after_months"], 6);
    settings["stale_after_months"] = json!(0);
    let err = shell.call("put_settings", json!({ "settings": settings })).expect_err("a threshold of 0 was saved");
    assert_eq!(err["fields"][0]["path"], "stale_after_months", "{err}");
    settings["stale_after_months"] = json!(240);
    assert!(shell.call("put_settings", json!({ "settings": settings })).is_err(), "240 months was saved");
    settings["stale_after_months"] = json!(30);
    shell.ok("put_settings", json!({ "settings": settings }));
    assert_eq!(shell.ok("get_settings", json!({}))["stale_after_months"], 30);
    let offers = shell.ok("list_offers", json!({ "filter": { "fx": {}, "sort": "id", "exclude_pricebook": false } }));
    let offers = offers.as_array().unwrap();
    assert!(offers.iter().all(|o| o["freshness"]["stale_after_months"] == 30));
    // On the shell's day (2026-11-30), a price from 2024-06 or later is younger than 30 months.
    let young = offers.iter().filter(|o| o["as_of"].as_str().is_some_and(|d| d >= "2024-06")).collect::<Vec<_>>();
    assert!(!young.is_empty() && young.iter().all(|o| o["freshness"]["stale"] == false));
}

#[test]
fn the_offers_table_gets_a_page_and_the_count_never_every_offer() {
    let (_dir, db) = temp_db();
    let shell = shell(&db);
    let filter = json!({ "fx": {}, "sort": "id", "exclude_pricebook": false });
    let all = shell.ok("list_offers", json!({ "filter": filter }));
    let all = all.as_array().unwrap();
    assert!(all.len() > 100, "{} offers", all.len());
    let page = shell.ok("list_offers_page", json!({ "filter": filter, "offset": 40, "limit": 25 }));
    assert_eq!(page["total"], all.len());
    assert_eq!(page["offset"], 40);
    assert_eq!(page["rows"].as_array().unwrap(), &all[40..65], "the page is not those rows of the whole list");
    let last = shell.ok("list_offers_page", json!({ "filter": filter, "offset": all.len() - 3, "limit": 25 }));
    assert_eq!(last["rows"].as_array().unwrap(), &all[all.len() - 3..]);
    let past = shell.ok("list_offers_page", json!({ "filter": filter, "offset": all.len() + 10, "limit": 25 }));
    assert_eq!((past["total"].as_u64(), past["rows"].as_array().unwrap().len()), (Some(all.len() as u64), 0));
}

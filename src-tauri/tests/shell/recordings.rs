//! Answers of the real commands for the UI's replay backend
//! (`ui/src/backend/replay.ts`), so the UI's tests and its dev server show
//! what the engine computes rather than what a second engine would.
//!
//! [`script`] calls the commands on a fresh temporary database, once on an
//! English and once on a Chinese system; [`unreadable`] on a file that is
//! not a database. With `SUANLI_UPDATE_RECORDINGS=1` the answers are
//! written to `ui/src/backend/recordings.json`; otherwise the test fails
//! when the committed file differs from what the commands answer now.
//!
//! What is written is the same on every machine and every day:
//! - paths: the temporary data directory is `$DATA`, the folder exports go
//!   to is `$DOCUMENTS` (the script writes `$DOCUMENTS` in arguments too);
//! - times (`created_at`, `updated_at`, `saved_at`, `created`) are `$NOW`,
//!   the app's `today` is the UI tests' date,
//!   and an export's size is 0 (a proposal carries today's date);
//! - ids of saved scenarios belong to the replay's own store: a save is
//!   recorded without its id, duplicate and compare with the saved documents
//!   in place of their ids, and an update from a URL without its progress
//!   channel;
//! - an answer that is the same in both languages is written once, without
//!   `lang`.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use serde::Serialize;
use serde_json::{Value, json};
use suanli_api::Lang;

use crate::support::{Shell, shell_in};

const REGENERATE: &str = "SUANLI_UPDATE_RECORDINGS=1 cargo test -p suanli-app --test shell recordings";

/// What the UI's Monte Carlo button asks for (`results/UncertaintyPanel.vue`).
const TRIALS: u32 = 10_000;
const SEED: u32 = 42;
/// The date the UI tests' clock shows, for the price book's `as_of`.
const TODAY: &str = "2026-11-30";

#[test]
fn recordings_are_current() {
    let committed = Path::new(env!("CARGO_MANIFEST_DIR")).join("../ui/src/backend/recordings.json");
    let fresh = render(&record());
    if std::env::var_os("SUANLI_UPDATE_RECORDINGS").is_some() {
        std::fs::write(&committed, &fresh).unwrap();
    }
    let current = std::fs::read_to_string(&committed).unwrap_or_default();
    if current != fresh {
        let first = first_difference(&current, &fresh);
        panic!(
            "ui/src/backend/recordings.json differs from what the commands answer now ({first}): \
             run `{REGENERATE}` and commit it"
        );
    }
}

/// One recorded call as the replay backend reads it.
#[derive(Debug, Clone, PartialEq, Serialize)]
struct Recording {
    name: String,
    /// The language the answer is in; absent when it is the same in both.
    #[serde(skip_serializing_if = "Option::is_none")]
    lang: Option<Lang>,
    /// `unreadable`: the database could not be opened; absent: a fresh one.
    #[serde(skip_serializing_if = "Option::is_none")]
    database: Option<&'static str>,
    command: String,
    args: Value,
    #[serde(skip_serializing_if = "Option::is_none")]
    ok: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<Value>,
}

#[derive(Debug, Clone, PartialEq)]
struct Entry {
    name: String,
    command: String,
    args: Value,
    answer: Result<Value, Value>,
}

#[derive(Serialize)]
struct File<'a> {
    about: String,
    recordings: &'a [Recording],
}

fn render(recordings: &[Recording]) -> String {
    let about = format!(
        "Answers of the real commands for ui/src/backend/replay.ts, from src-tauri/tests/shell/recordings.rs. \
         Do not edit; regenerate: {REGENERATE}"
    );
    let mut text = serde_json::to_string_pretty(&File { about, recordings }).unwrap();
    text.push('\n');
    text
}

fn first_difference(current: &str, fresh: &str) -> String {
    let line = current.lines().zip(fresh.lines()).position(|(a, b)| a != b);
    match line {
        Some(i) => format!("first at line {}", i + 1),
        None if current.is_empty() => "the file is missing".to_owned(),
        None => "one is longer".to_owned(),
    }
}

/// Runs the scripts in both languages and merges what they answered.
fn record() -> Vec<Recording> {
    let mut out = Vec::new();
    for (database, run) in [(None, script as fn(&mut Recorder)), (Some("unreadable"), unreadable)] {
        let [en, zh] = [Lang::En, Lang::Zh].map(|lang| run_in(lang, database.is_some(), run));
        assert_eq!(en.len(), zh.len(), "the script made other calls in Chinese");
        for (e, z) in en.into_iter().zip(zh) {
            assert_eq!(
                (&e.name, &e.command, &e.args),
                (&z.name, &z.command, &z.args),
                "the script differs by language"
            );
            if e.answer == z.answer {
                out.push(recording(e, None, database));
            } else {
                out.push(recording(e, Some(Lang::En), database));
                out.push(recording(z, Some(Lang::Zh), database));
            }
        }
    }
    // The replay finds a recording by its command and arguments (null fields
    // left out), in one language: each must be the only one there.
    let mut names = BTreeSet::new();
    let mut calls = BTreeSet::new();
    for r in &out {
        let lang = format!("{:?}", r.lang);
        assert!(names.insert((&r.name, lang.clone(), r.database)), "two recordings are named {:?}", r.name);
        let call = (r.command.clone(), without_nulls(r.args.clone()).to_string(), lang, r.database);
        assert!(calls.insert(call), "{:?} records a call another recording has", r.name);
    }
    out
}

fn recording(e: Entry, lang: Option<Lang>, database: Option<&'static str>) -> Recording {
    let (ok, error) = match e.answer {
        Ok(v) => (Some(v), None),
        Err(v) => (None, Some(v)),
    };
    Recording { name: e.name, lang, database, command: e.command, args: e.args, ok, error }
}

fn run_in(lang: Lang, unreadable: bool, script: fn(&mut Recorder)) -> Vec<Entry> {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let documents = dir.path().join("Documents");
    std::fs::create_dir_all(&data).unwrap();
    std::fs::create_dir_all(&documents).unwrap();
    let db = data.join("suanli.sqlite");
    if unreadable {
        std::fs::write(&db, b"this is not a database, but somebody's file").unwrap();
    }
    let shell = shell_in(&db, lang);
    let mut recorder = Recorder { shell: &shell, data, documents, entries: Vec::new() };
    script(&mut recorder);
    recorder.entries
}

struct Recorder<'a> {
    shell: &'a Shell,
    data: PathBuf,
    documents: PathBuf,
    entries: Vec<Entry>,
}

impl Recorder<'_> {
    /// Calls `command` with `args` and records the answer under `name`.
    fn call(&mut self, name: &str, command: &str, args: Value) -> Result<Value, Value> {
        self.call_keyed(name, command, args.clone(), args)
    }

    /// As [`call`](Self::call), recorded under the arguments `key` (the
    /// replay's store has its own ids, and no progress channel).
    fn call_keyed(&mut self, name: &str, command: &str, args: Value, key: Value) -> Result<Value, Value> {
        let answer = self.shell.call(command, self.expand(args));
        let answer = match answer {
            Ok(v) => Ok(self.normalise(command, v)),
            Err(v) => Err(self.normalise(command, v)),
        };
        self.entries.push(Entry {
            name: name.to_owned(),
            command: command.to_owned(),
            args: key,
            answer: answer.clone(),
        });
        answer
    }

    fn ok(&mut self, name: &str, command: &str, args: Value) -> Value {
        self.call(name, command, args).unwrap_or_else(|e| panic!("{name}: {command} failed: {e}"))
    }

    fn refused(&mut self, name: &str, command: &str, args: Value) -> Value {
        match self.call(name, command, args) {
            Err(e) => e,
            Ok(v) => panic!("{name}: {command} was expected to fail, answered {v}"),
        }
    }

    fn places(&self) -> [(String, &'static str); 2] {
        [(self.documents.display().to_string(), "$DOCUMENTS"), (self.data.display().to_string(), "$DATA")]
    }

    /// `$DOCUMENTS` and `$DATA` in the script's arguments → this run's directories.
    fn expand(&self, mut args: Value) -> Value {
        let places = self.places();
        map_strings(&mut args, &mut |s| {
            for (real, placeholder) in &places {
                *s = s.replace(placeholder, real);
            }
        });
        args
    }

    /// What varies by machine or day in an answer → the same text everywhere.
    fn normalise(&self, command: &str, mut v: Value) -> Value {
        let places = self.places();
        map_strings(&mut v, &mut |s| {
            for (real, placeholder) in &places {
                *s = s.replace(real, placeholder);
            }
        });
        if command == "default_export_path" {
            // The user's Documents folder (or home): the file name is the command's answer.
            let name = v.as_str().and_then(|p| Path::new(p).file_name()).unwrap().to_string_lossy().into_owned();
            return Value::from(format!("$DOCUMENTS/{name}"));
        }
        normalise_times(&mut v);
        if command.starts_with("export_") && v.get("bytes").is_some() {
            v["bytes"] = json!(0);
        }
        v
    }
}

fn map_strings(v: &mut Value, f: &mut dyn FnMut(&mut String)) {
    match v {
        Value::String(s) => f(s),
        Value::Array(items) => items.iter_mut().for_each(|i| map_strings(i, f)),
        Value::Object(map) => map.values_mut().for_each(|i| map_strings(i, f)),
        _ => {}
    }
}

fn normalise_times(v: &mut Value) {
    match v {
        Value::Array(items) => items.iter_mut().for_each(normalise_times),
        Value::Object(map) => {
            for (k, x) in map.iter_mut() {
                if matches!(k.as_str(), "created_at" | "updated_at" | "saved_at" | "created") && x.is_string() {
                    *x = json!("$NOW");
                } else if k == "today" && x.is_string() {
                    *x = json!(TODAY);
                } else if k == "applied_at" && x.is_string() {
                    // When a change was applied (the fresh database's install): a time on the UI tests' day.
                    *x = json!(format!("{TODAY}T09:00:00Z"));
                } else {
                    normalise_times(x);
                }
            }
        }
        _ => {}
    }
}

/// The editor's document as the UI holds it: the Tauri backend drops the
/// null fields of what it receives (`withoutNulls` in `ui/src/backend`).
fn without_nulls(v: Value) -> Value {
    match v {
        Value::Array(items) => Value::Array(items.into_iter().map(without_nulls).collect()),
        Value::Object(map) => {
            Value::Object(map.into_iter().filter(|(_, x)| !x.is_null()).map(|(k, x)| (k, without_nulls(x))).collect())
        }
        other => other,
    }
}

/// A copy of `doc` with the fields at `edits` set (`None`: removed), paths
/// as the editor writes them (`options[1].on_demand.currency`).
fn edited(doc: &Value, edits: &[(&str, Option<Value>)]) -> Value {
    let mut doc = doc.clone();
    for (path, value) in edits {
        let keys: Vec<&str> = path.split(['.', '[', ']']).filter(|k| !k.is_empty()).collect();
        let (last, parents) = keys.split_last().unwrap();
        let mut at = &mut doc;
        for k in parents {
            at = match k.parse::<usize>() {
                Ok(i) => &mut at[i],
                Err(_) => &mut at[*k],
            };
        }
        match (value, at) {
            (Some(v), at) => at[*last] = v.clone(),
            (None, Value::Object(map)) => {
                map.remove(*last);
            }
            (None, other) => panic!("{path}: no table to remove a field from: {other}"),
        }
    }
    doc
}

/// The offer filter the UI sends (every field present), with `fields` set.
fn offer_filter(fields: Value) -> Value {
    let mut filter = json!({
        "accelerator": null, "vendor": null, "domestic": null, "billing_mode": null, "provider": null,
        "provider_country": null, "region": null, "obtainable_in": null, "min_price": null, "max_price": null,
        "bare_metal": null, "dedicated_gpu": null, "encryption_in_transit": null, "certification": null,
        "workload_class": null, "currency": null, "fx": {}, "exclude_pricebook": false, "sort": "id"
    });
    for (k, v) in fields.as_object().unwrap() {
        filter[k] = v.clone();
    }
    json!({ "filter": filter })
}

fn accelerator_filter(fields: Value) -> Value {
    let mut filter = json!({ "vendor": null, "domestic": null, "min_memory_gb": null, "obtainable_in": null });
    for (k, v) in fields.as_object().unwrap() {
        filter[k] = v.clone();
    }
    json!({ "filter": filter })
}

/// Source ids the catalogue's rows name (`S1;S6`), as the UI splits them.
fn source_ids(rows: &Value, into: &mut BTreeSet<String>) {
    for row in rows.as_array().unwrap() {
        let fields = [&row["source"], &row["efficiency"]["source"]];
        for ids in fields.iter().filter_map(|s| s.as_str()) {
            into.extend(ids.split([';', ',']).map(str::trim).filter(|s| !s.is_empty()).map(str::to_owned));
        }
    }
}

/// Every call the UI's tests and its dev server make on a working database.
fn script(r: &mut Recorder) {
    r.ok("app info", "app_info", json!({}));
    let settings = r.ok("settings", "get_settings", json!({}));
    r.ok("providers", "list_providers", json!({}));
    r.ok("workload classes", "workload_classes", json!({}));
    r.ok("feeds to refresh", "feed_choice", json!({}));
    let mut sources = BTreeSet::new();
    for (name, fields) in [
        ("accelerators", json!({})),
        ("accelerators: domestic", json!({ "domestic": true })),
        ("accelerators: obtainable in China", json!({ "obtainable_in": "cn" })),
    ] {
        let rows = r.ok(name, "list_accelerators", accelerator_filter(fields));
        source_ids(&rows, &mut sources);
    }

    // The catalogue's offers as the screens ask for them, a first page of 500
    // each (`PAGE` and `PICK` in the UI): the offers table (the seed's workload
    // class, compared in the settings' currency), the offer picker of the
    // editor, and "my prices" (the catalogue's own).
    let fx = json!({ "USD": settings["usd_cny"] });
    let compared =
        json!({ "workload_class": "llm_pretraining", "currency": settings["currency"], "fx": fx, "sort": "price" });
    let mut catalogue_offers = Value::Null;
    let mut first_rows = Vec::new();
    for (name, fields) in [
        ("offers: llm_pretraining in CNY by price", compared),
        ("offers: to add to a scenario in CNY", json!({ "currency": "CNY", "fx": fx, "sort": "price" })),
        ("offers: the catalogue's own", json!({ "exclude_pricebook": true })),
    ] {
        let mut page = offer_filter(fields);
        page["offset"] = json!(0);
        page["limit"] = json!(500);
        let rows = r.ok(name, "list_offers_page", page)["rows"].take();
        source_ids(&rows, &mut sources);
        first_rows.extend(rows[0]["id"].as_str().map(str::to_owned));
        catalogue_offers = rows;
    }
    // The price history an opened row shows, for each list's first row.
    first_rows.dedup();
    for id in first_rows {
        r.ok(&format!("history of {id}"), "offer_history", json!({ "id": id }));
    }
    // The comparison of accelerators for a workload, as its tab asks first,
    // for domestic parts only, and for a served model (the tab's example).
    let by_class = json!({ "workload_class": "llm_pretraining", "currency": settings["currency"], "fx": fx });
    let mut domestic = by_class.clone();
    domestic["domestic"] = json!(true);
    let served = json!({ "parameters": 70e9, "precision": "bf16", "context_tokens": 4096.0, "latency": "standard", "kv_bytes_per_token": null });
    let inference =
        json!({ "workload_class": "llm_inference", "currency": settings["currency"], "fx": fx, "inference": served });
    for (name, fields) in [
        ("for my workload: llm_pretraining", by_class),
        ("for my workload: llm_pretraining, domestic", domestic),
        ("for my workload: llm_inference of 70B in BF16", inference),
    ] {
        let rows = r.ok(name, "accelerators_for_workload", offer_filter(fields));
        source_ids(
            &json!(rows.as_array().unwrap().iter().map(|a| json!({ "efficiency": a["ratio"] })).collect::<Vec<_>>()),
            &mut sources,
        );
    }
    for id in &sources {
        r.ok(&format!("source {id}"), "get_source", json!({ "id": id }));
    }
    r.ok("source that does not exist", "get_source", json!({ "id": "no-such-source" }));

    // Every example: its document, evaluation and, with ranges, the Monte
    // Carlo and the tornado.
    let examples = r.ok("examples", "examples", json!({}));
    let mut seed = Value::Null;
    for example in examples.as_array().unwrap() {
        let file = example["file"].as_str().unwrap();
        let doc =
            without_nulls(r.ok(&format!("example {file}"), "scenario_from_toml", json!({ "text": example["toml"] })));
        r.ok(&format!("evaluate {file}"), "evaluate", json!({ "scenario": doc }));
        if doc["uncertainty"].as_array().is_some_and(|u| !u.is_empty()) {
            let args = json!({ "scenario": doc, "trials": TRIALS, "seed": SEED });
            r.ok(&format!("simulate {file}"), "simulate", args);
            r.ok(&format!("sensitivity {file}"), "sensitivity", json!({ "scenario": doc }));
        }
        if seed.is_null() {
            seed = doc;
        }
    }
    seed_edits(r, &seed);
    plan(r, &seed);
    library(r, &seed);
    price_book(r, &catalogue_offers);

    // A catalogue update that is refused before anything is read or sent.
    let file = json!({ "path": "$DOCUMENTS/no-such.pack" });
    r.refused("update from a file that does not exist", "catalog_update_file", file);
    let url = "ftp://example.invalid/catalogue.pack";
    let channel = json!({ "url": url, "onProgress": "__CHANNEL__:1" });
    let refused = r.call_keyed("update from an ftp URL", "catalog_update_url", channel, json!({ "url": url }));
    assert!(refused.is_err(), "an ftp URL was accepted");

    // Export: the default place, a written proposal, and a place that cannot be written.
    let name = seed["name"].clone();
    let path = r.ok("default proposal path", "default_export_path", json!({ "name": name, "extension": "pdf" }));
    let fields = json!({ "client": "", "author": "", "firm": "" });
    r.ok("proposal", "export_proposal", json!({ "scenario": seed, "path": path, "fields": fields }));
    let nowhere = json!({ "scenario": seed, "path": "/nonexistent-dir/proposal.pdf", "fields": fields });
    r.refused("proposal where it cannot be written", "export_proposal", nowhere);
}

/// The Plan screen on the seed case: the search as it opens, with domestic
/// accelerators only, and the first two candidates taken into the editor
/// (and evaluated there).
fn plan(r: &mut Recorder, seed: &Value) {
    let none = json!({
        "budget_total": null, "budget_per_month": null, "budget_currency": null, "deadline_months": null,
        "domestic_only": false, "buyer_jurisdiction": null, "provider_country": null, "security": [],
        "max_supply_score": null, "min_ratio_basis": null, "max_porting_engineer_months": null,
        "min_cluster_accelerators": null, "max_cluster_accelerators": null, "billing": [],
        "allow_consumer_clusters": false, "spot": null
    });
    let mut domestic = none.clone();
    domestic["domestic_only"] = json!(true);
    let args = |constraints: &Value| json!({ "scenario": seed, "constraints": constraints, "rankBy": "npv" });
    let found = r.ok("plan: seed", "recommend", args(&none));
    r.ok("plan: seed, domestic only", "recommend", args(&domestic));
    let ids: Vec<Value> = found["ranked"].as_array().unwrap().iter().take(2).map(|c| c["id"].clone()).collect();
    assert_eq!(ids.len(), 2, "the seed's plan ranks two candidates at least");
    let mut pick = args(&none);
    pick["ids"] = json!(ids);
    let doc = without_nulls(r.ok("plan: seed, first two picked", "recommend_pick", pick));
    r.ok("evaluate plan: seed, first two picked", "evaluate", json!({ "scenario": doc }));
}

/// The seed case as the UI's tests edit it: each edit is evaluated at once.
fn seed_edits(r: &mut Recorder, seed: &Value) {
    for (name, edits) in [
        ("seed, 12 months", vec![("horizon_months", Some(json!(12)))]),
        ("seed, 18 months", vec![("horizon_months", Some(json!(18)))]),
        ("seed, 24 months", vec![("horizon_months", Some(json!(24)))]),
        ("seed, 48 months", vec![("horizon_months", Some(json!(48)))]),
        ("seed, renamed", vec![("name", Some(json!("Draft test")))]),
        (
            "seed, 24 months, on demand at 6",
            vec![("horizon_months", Some(json!(24))), ("options[1].on_demand.price_per_accel_hour", Some(json!(6)))],
        ),
    ] {
        r.ok(&format!("evaluate {name}"), "evaluate", json!({ "scenario": edited(seed, &edits) }));
    }
    for (name, edits) in [
        ("seed, 0 months", vec![("horizon_months", Some(json!(0)))]),
        ("seed, no options", vec![("options", Some(json!([])))]),
        (
            "seed, 0 months, no servers, priced in GBP",
            vec![
                ("horizon_months", Some(json!(0))),
                ("options[0].owned.servers", Some(json!(0))),
                ("options[1].on_demand.currency", Some(json!("GBP"))),
            ],
        ),
    ] {
        r.refused(&format!("evaluate {name}"), "evaluate", json!({ "scenario": edited(seed, &edits) }));
    }

    // The TOML tab: the seed as text, that text with another horizon, and a syntax error.
    let text = r.ok("seed as TOML", "scenario_to_toml", json!({ "scenario": seed }));
    let text = text.as_str().unwrap().replace("horizon_months = 36", "horizon_months = 18");
    let doc = without_nulls(r.ok("seed as TOML, 18 months", "scenario_from_toml", json!({ "text": text })));
    assert_eq!(doc, edited(seed, &[("horizon_months", Some(json!(18)))]), "the TOML round trip changed the seed");
    r.refused("TOML with a syntax error", "scenario_from_toml", json!({ "text": "name = \n" }));
}

/// What a save decides (the replay's store keeps what was saved).
fn library(r: &mut Recorder, seed: &Value) {
    let save = |r: &mut Recorder, name: &str, doc: &Value| {
        let args = json!({ "id": null, "scenario": doc });
        r.call_keyed(name, "library_save", args, json!({ "scenario": doc }))
    };
    let longer = edited(
        seed,
        &[("horizon_months", Some(json!(24))), ("options[1].on_demand.price_per_accel_hour", Some(json!(6)))],
    );
    let a = save(r, "save seed", seed).unwrap()["id"].clone();
    let b = save(r, "save seed, 24 months, on demand at 6", &longer).unwrap()["id"].clone();
    for (name, edits) in [
        ("save seed, 0 months", vec![("horizon_months", Some(json!(0)))]),
        ("save seed, no options", vec![("options", Some(json!([])))]),
    ] {
        assert!(save(r, name, &edited(seed, &edits)).is_err(), "{name}: an invalid scenario was saved");
    }
    let key = json!({ "scenario": seed });
    r.call_keyed("duplicate seed", "library_duplicate", json!({ "id": a }), key).unwrap();
    let key = json!({ "a": seed, "b": longer });
    r.call_keyed("compare seed with 24 months, on demand at 6", "library_compare", json!({ "a": a, "b": b }), key)
        .unwrap();
}

/// The price book as the "my prices" form fills it.
fn price_book(r: &mut Recorder, catalogue_offers: &Value) {
    let offer = json!({
        "id": "my-autodl-a100", "provider_id": "autodl", "accelerator_id": null, "instance": null, "region": null,
        "billing_mode": "on_demand", "accelerators_per_instance": 1, "price": 6.5, "price_unit": "accelerator_hour",
        "currency": "CNY", "upfront": null, "interconnect": null, "as_of": TODAY, "source": "user", "confidence": "B",
        "notes": null
    });
    let mut blank = offer.clone();
    for (k, v) in [("id", json!("")), ("provider_id", json!("")), ("price", json!(0))] {
        blank[k] = v;
    }
    r.refused("my offer left blank", "pricebook_put_offer", json!({ "offer": blank }));
    r.ok("my offer", "pricebook_put_offer", json!({ "offer": offer }));
    let mut per_instance = offer.clone();
    per_instance["id"] = json!("my-autodl-8x");
    per_instance["price_unit"] = json!("instance_hour");
    per_instance["accelerators_per_instance"] = json!(null);
    r.refused("my offer per instance of no size", "pricebook_put_offer", json!({ "offer": per_instance }));
    let first = catalogue_offers[0]["id"].clone();
    let discount = json!({
        "id": "my-discount", "offer_id": first, "provider_id": null, "discount_share": 0.1, "note": null, "as_of": TODAY
    });
    let mut both = discount.clone();
    both["provider_id"] = json!("autodl");
    r.refused("my discount on an offer and a provider", "pricebook_put_discount", json!({ "discount": both }));
    r.ok("my discount", "pricebook_put_discount", json!({ "discount": discount }));
    r.ok("remove my offer", "pricebook_remove", json!({ "id": "my-autodl-a100" }));
    r.refused("remove what is not there", "pricebook_remove", json!({ "id": "no-such-entry" }));
}

/// A file that is not a database: the recovery screen.
fn unreadable(r: &mut Recorder) {
    r.ok("app info", "app_info", json!({}));
    r.refused("settings", "get_settings", json!({}));
    r.refused("library", "library_list", json!({}));
}

//! Crash safety of the desktop app's saves: a child process saves scenarios
//! to the library, replaces one saved scenario over and over, autosaves the
//! draft and edits the price book — exactly the `suanli_api` calls the app's
//! commands make — printing a line after each acknowledged write. The parent
//! kills it (SIGKILL) at a random moment, a few hundred times, and checks
//! after each kill that the database passes `PRAGMA integrity_check` and
//! that every acknowledged write is there, whole.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use suanli_api::catalog::Discount;

const CHILD: &str = "SUANLI_CRASH_CHILD_DB";
const ROUNDS: u32 = 200;

fn seed() -> Value {
    let text = include_str!("../../../data/scenarios/a100-8x-buy-vs-rent.toml");
    suanli_api::document::doc_from_toml(text).unwrap()
}

/// The child: writes until it is killed. Not a test on its own (returns at once without the variable).
#[test]
fn saver_child() {
    let Some(db) = std::env::var_os(CHILD) else { return };
    let (mut c, _) = suanli_api::catalog::open_catalog(Some(Path::new(&db))).unwrap();
    let rolling = match c.library().unwrap().iter().find(|m| m.name.starts_with("rolling")) {
        Some(m) => m.id,
        None => {
            let mut doc = seed();
            doc["name"] = json!("rolling 0");
            suanli_api::library::save(&mut c, None, &doc).unwrap().id
        }
    };
    let start: u64 = std::env::var("SUANLI_CRASH_START").unwrap().parse().unwrap();
    // The harness has printed "test saver_child ... " without a newline: end that line first.
    println!();
    let mut doc = seed();
    for i in start.. {
        let months = 12 + (i % 100);
        doc["horizon_months"] = json!(months);
        doc["name"] = json!(format!("save {i}"));
        let saved = suanli_api::library::save(&mut c, None, &doc).unwrap();
        println!("new {} {i}", saved.id);
        doc["name"] = json!(format!("rolling {i}"));
        suanli_api::library::save(&mut c, Some(rolling), &doc).unwrap();
        println!("rolling {rolling} {i}");
        suanli_api::library::put_draft(&mut c, &doc, Some(rolling)).unwrap();
        println!("draft {i}");
        let discount = Discount {
            id: format!("deal-{i}"),
            offer_id: None,
            provider_id: Some("aws".into()),
            discount_share: 0.10,
            note: Some(format!("acknowledged {i}")),
            as_of: None,
        };
        c.put_discount(&discount).unwrap();
        println!("discount {i}");
    }
}

#[derive(Default)]
struct Acked {
    new: Vec<(u32, u64)>,
    rolling: Option<(u32, u64)>,
    draft: Option<u64>,
    discounts: Vec<u64>,
}

fn parse(line: &str, acked: &mut Acked) {
    let parts: Vec<&str> = line.split_whitespace().collect();
    match parts.as_slice() {
        ["new", id, i] => acked.new.push((id.parse().unwrap(), i.parse().unwrap())),
        ["rolling", id, i] => acked.rolling = Some((id.parse().unwrap(), i.parse().unwrap())),
        ["draft", i] => acked.draft = Some(i.parse().unwrap()),
        ["discount", i] => acked.discounts.push(i.parse().unwrap()),
        _ => panic!("unexpected line from the child: {line}"),
    }
}

fn counter(name: &str) -> u64 {
    name.rsplit(' ').next().unwrap().parse().unwrap()
}

#[test]
fn killed_mid_save_loses_nothing_acknowledged() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("suanli.sqlite");
    drop(suanli_api::catalog::open_catalog(Some(&db)).unwrap());
    // A fixed sequence of kill moments (no clock-seeded randomness).
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut all_new: Vec<(u32, u64)> = Vec::new();
    let mut last_rolling = 0;
    let mut start = 0u64;
    let mut killed_mid_write = 0;
    for _ in 0..ROUNDS {
        let mut child = Command::new(std::env::current_exe().unwrap())
            .args(["--exact", "saver_child", "--nocapture", "--test-threads=1"])
            .env(CHILD, &db)
            .env("SUANLI_CRASH_START", start.to_string())
            .env("HOME", "/nonexistent-suanli-test-home")
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let stdout = child.stdout.take().unwrap();
        let (first, first_seen) = std::sync::mpsc::channel();
        let lines = std::thread::spawn(move || {
            let mut acked = Acked::default();
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if line.starts_with("new ")
                    || line.starts_with("rolling ")
                    || line.starts_with("draft ")
                    || line.starts_with("discount ")
                {
                    parse(&line, &mut acked);
                    let _ = first.send(());
                }
            }
            acked
        });
        // Kill 0–20 ms after the first acknowledged write: somewhere in the middle of the stream of writes.
        let _ = first_seen.recv_timeout(Duration::from_secs(10));
        let wait = Duration::from_micros(next() % 20_000);
        let t = Instant::now();
        while t.elapsed() < wait && child.try_wait().unwrap().is_none() {
            std::thread::sleep(Duration::from_micros(200));
        }
        let _ = child.kill();
        let _ = child.wait();
        let acked = lines.join().unwrap();
        if !acked.new.is_empty() {
            killed_mid_write += 1;
        }

        // What the app would see on its next start.
        let (c, _) = suanli_api::catalog::open_catalog(Some(&db)).unwrap();
        assert!(c.integrity_ok().unwrap(), "integrity_check failed after a kill");
        all_new.extend(&acked.new);
        for (id, i) in &all_new {
            let saved = suanli_api::library::open(&c, *id).unwrap();
            assert_eq!(saved.meta.name, format!("save {i}"));
            assert_eq!(saved.scenario["horizon_months"], json!(12 + (i % 100)));
        }
        if let Some((id, i)) = acked.rolling {
            let now = counter(&suanli_api::library::open(&c, id).unwrap().meta.name);
            assert!(now >= i, "rolling scenario went back from {i} to {now}");
            last_rolling = now;
        }
        if let Some(i) = acked.draft {
            let draft = suanli_api::library::draft(&c).unwrap().unwrap();
            let now = counter(draft.scenario["name"].as_str().unwrap());
            assert!(now >= i, "draft went back from {i} to {now}");
        }
        let deals: Vec<String> = c.discounts().unwrap().into_iter().map(|d| d.id).collect();
        for i in &acked.discounts {
            assert!(deals.contains(&format!("deal-{i}")), "acknowledged discount deal-{i} lost");
        }
        start = acked.new.last().map_or(start, |(_, i)| i + 1).max(last_rolling + 1);
    }
    // The kills must have landed while writing, not only before the first write.
    assert!(killed_mid_write == ROUNDS, "only {killed_mid_write} of {ROUNDS} kills came after a write");
    eprintln!("{ROUNDS} kills, {killed_mid_write} after at least one write, {} saves checked", all_new.len());
}

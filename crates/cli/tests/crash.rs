//! Crash safety: the `suanli` process is killed (SIGKILL) at spread-out
//! moments during a large import and a large pack apply. After each kill
//! the database passes `PRAGMA integrity_check`, the change either landed
//! whole or not at all, and what was saved before is still there.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use suanli_catalog::Catalog;
use suanli_catalog::pricebook::Discount;

const NOW: &str = "2026-11-30T00:00:00Z";
const ROWS: usize = 20_000;

fn big_feed(path: &Path) {
    let mut text = String::from(
        "id,provider_id,accelerator_id,instance,region,billing_mode,accelerators_per_instance,price,price_unit,currency,upfront,interconnect,as_of,source,confidence,notes\n",
    );
    for i in 0..ROWS {
        text.push_str(&format!(
            "crash-{i},aws,nvidia-a100-sxm-80gb,i{i},us-east-1,on_demand,8,{}.5,instance_hour,USD,,,2026-11-30,crash test,A,\n",
            10 + i % 50
        ));
    }
    std::fs::write(path, text).unwrap();
}

/// How long the command takes when left alone (on a throw-away database).
fn full_run(dir: &Path, args: &[&str]) -> Duration {
    let db = dir.join("timing.sqlite");
    drop(Catalog::open(&db, NOW).unwrap());
    let start = std::time::Instant::now();
    let status = Command::new(env!("CARGO_BIN_EXE_suanli"))
        .args(args)
        .env("SUANLI_DB", &db)
        .env("HOME", "/nonexistent-suanli-test-home")
        .stdout(Stdio::null())
        .status()
        .unwrap();
    assert!(status.success());
    start.elapsed()
}

/// Kill moment `k` of `n`: spread evenly over the whole run; the last
/// three well after it would have finished (2×, 3×, 4×), so that a loaded
/// machine still sees some runs complete.
fn moment(full: Duration, k: u64, n: u64) -> Duration {
    let spread = n - 3;
    if k < spread { full.mul_f64((k as f64 + 0.5) / spread as f64) } else { full * (2 + (k - spread)) as u32 }
}

fn run_and_kill(db: &Path, args: &[&str], after: Duration) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_suanli"))
        .args(args)
        .env("SUANLI_DB", db)
        .env("HOME", "/nonexistent-suanli-test-home")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let start = std::time::Instant::now();
    while start.elapsed() < after {
        if child.try_wait().ok().flatten().is_some() {
            return; // finished before its kill moment
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    let _ = child.kill(); // SIGKILL on Unix
    let _ = child.wait();
}

/// Saves a price-book entry before the crash; it must survive every kill.
fn acknowledge(c: &mut Catalog) {
    let discount = Discount {
        id: "acknowledged".into(),
        offer_id: None,
        provider_id: Some("aws".into()),
        discount_share: 0.1,
        note: None,
        as_of: None,
    };
    c.put_discount(&discount).unwrap();
}

/// Opens after a crash and checks what must hold; returns the imported count.
fn check(db: &Path) -> usize {
    let (c, _) = Catalog::open(db, NOW).unwrap();
    assert!(c.integrity_ok().unwrap(), "integrity_check failed");
    assert_eq!(c.discounts().unwrap().len(), 1, "the acknowledged price-book entry is gone");
    c.all_offers(false).unwrap().iter().filter(|(o, _)| o.id.starts_with("crash-")).count()
}

/// One test, so the two halves never run at once and skew each other's timing.
#[test]
fn killed_imports_and_pack_applies_leave_all_or_nothing() {
    killing_an_import_leaves_all_or_nothing();
    killing_a_pack_apply_leaves_the_old_or_the_new_catalogue();
}

fn killing_an_import_leaves_all_or_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let feed = dir.path().join("feed.csv");
    big_feed(&feed);
    let feed = feed.to_str().unwrap().to_owned();
    let args = ["catalog", "import", "--format", "csv", feed.as_str()];
    let full = full_run(dir.path(), &args);
    let mut landed = 0;
    let mut lost = 0;
    for k in 0..24u64 {
        let db = dir.path().join(format!("db-{k}.sqlite"));
        {
            let (mut c, _) = Catalog::open(&db, NOW).unwrap();
            acknowledge(&mut c);
        }
        let after = moment(full, k, 24);
        run_and_kill(&db, &args, after);
        match check(&db) {
            0 => lost += 1,
            n if n == ROWS => landed += 1,
            n => panic!("half an import landed: {n} of {ROWS} rows (killed after {after:?})"),
        }
    }
    eprintln!("import kills (full run {full:?}): {landed} landed whole, {lost} rolled back");
    assert!(landed > 0 && lost > 0, "the kills should fall on both sides of the commit");
}

fn killing_a_pack_apply_leaves_the_old_or_the_new_catalogue() {
    let dir = tempfile::tempdir().unwrap();
    // A pack with 20,000 more offers than the bundled catalogue.
    let (c, _) = Catalog::open_in_memory(NOW).unwrap();
    // Ahead of the bundled catalogue by a step every receiver accepts.
    let version = c.version().unwrap().unwrap() + 1_000;
    let mut p = c.export_pack(version, "big", NOW, &Default::default()).unwrap();
    let template = p.tables.offers[0].clone();
    for i in 0..ROWS {
        let mut o = template.clone();
        o.id = format!("crash-{i}");
        p.tables.offers.push(o);
    }
    let pack = dir.path().join("big.json");
    std::fs::write(&pack, suanli_catalog::pack::to_bytes(&p).unwrap()).unwrap();
    let pack = pack.to_str().unwrap().to_owned();
    let args = ["catalog", "pack", "apply", "--allow-unsigned", pack.as_str()];
    let full = full_run(dir.path(), &args);
    let (mut old_kept, mut new_applied) = (0, 0);
    for k in 0..16u64 {
        let db = dir.path().join(format!("db-{k}.sqlite"));
        let bundled_version = {
            let (mut c, _) = Catalog::open(&db, NOW).unwrap();
            acknowledge(&mut c);
            c.version().unwrap()
        };
        let after = moment(full, k, 16);
        run_and_kill(&db, &args, after);
        let n = check(&db);
        let (c, _) = Catalog::open(&db, NOW).unwrap();
        match (n, c.version().unwrap()) {
            (0, v) if v == bundled_version => old_kept += 1,
            (n, Some(v)) if n == ROWS && v == version => new_applied += 1,
            (n, v) => panic!("mixed catalogue after a kill: {n} new offers, version {v:?}"),
        }
    }
    eprintln!("pack kills (full run {full:?}): {old_kept} kept the old catalogue, {new_applied} applied the new");
    assert!(old_kept > 0 && new_applied > 0, "the kills should fall on both sides of the commit");
}

//! The database file itself: another program's file, two writers at once.

use std::time::{Duration, Instant};

use suanli_catalog::pricebook::{Discount, Targets};
use suanli_catalog::{Catalog, Error};
use suanli_model::Lang;

use crate::{NOW, fresh};

fn foreign_file(dir: &std::path::Path, user_version: i64) -> std::path::PathBuf {
    let path = dir.join("notes.sqlite");
    let conn = rusqlite::Connection::open(&path).unwrap();
    conn.execute_batch("CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('mine');").unwrap();
    conn.pragma_update(None, "user_version", user_version).unwrap();
    drop(conn);
    path
}

#[test]
fn another_programs_database_is_refused_by_name_and_never_written() {
    let dir = tempfile::tempdir().unwrap();
    for user_version in [0, 3] {
        let path = foreign_file(dir.path(), user_version);
        let bytes = std::fs::read(&path).unwrap();
        match Catalog::open(&path, NOW) {
            Err(e @ Error::Foreign { .. }) => {
                assert!(e.to_string().contains("notes.sqlite"), "{e}");
                assert!(e.to_string().contains("not a Suanli catalogue"), "{e}");
            }
            Err(e) => panic!("refused for another reason: {e}"),
            Ok(_) => panic!("Suanli's tables went into another program's database"),
        }
        assert_eq!(std::fs::read(&path).unwrap(), bytes, "user_version {user_version}");
        assert!(!dir.path().join("notes.sqlite-wal").exists());
        std::fs::remove_file(&path).unwrap();
    }
    // An empty file is a new catalogue, and a Suanli catalogue opens again.
    let empty = dir.path().join("empty.sqlite");
    std::fs::write(&empty, b"").unwrap();
    drop(Catalog::open(&empty, NOW).unwrap());
    drop(Catalog::open(&empty, NOW).unwrap());
}

/// Holds the write lock of the database at `path` for `hold` on another thread.
fn hold_write_lock(path: &std::path::Path, hold: Duration) -> std::thread::JoinHandle<()> {
    let conn = rusqlite::Connection::open(path).unwrap();
    conn.execute_batch("BEGIN IMMEDIATE; INSERT INTO meta (key, value) VALUES ('held', 'yes');").unwrap();
    std::thread::spawn(move || {
        std::thread::sleep(hold);
        conn.execute_batch("COMMIT").unwrap();
    })
}

#[test]
fn a_second_writer_waits_for_a_lock_that_frees_in_time() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("db.sqlite");
    let (mut c, _) = Catalog::open(&path, NOW).unwrap();
    let tables = c.tables().unwrap();
    let holder = hold_write_lock(&path, Duration::from_millis(600));
    // Reads first, then writes, in one transaction: the pattern that failed at once.
    let change = c.replace(&tables, suanli_catalog::ChangeKind::Pack, "while another writes", 2_027_000_000, NOW);
    holder.join().unwrap();
    change.unwrap();
    assert_eq!(c.version().unwrap(), Some(2_027_000_000));
}

#[test]
fn a_writer_that_waits_too_long_says_nothing_changed_and_a_retry_helps() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("db.sqlite");
    let (mut c, _) = Catalog::open(&path, NOW).unwrap();
    c.set_write_wait(Duration::from_millis(200)).unwrap();
    let tables = c.tables().unwrap();
    let installed = c.version().unwrap();
    let holder = hold_write_lock(&path, Duration::from_millis(1500));
    let started = Instant::now();
    let err = c.replace(&tables, suanli_catalog::ChangeKind::Pack, "blocked", 2_027_000_000, NOW).unwrap_err();
    assert!(started.elapsed() >= Duration::from_millis(150), "it did not wait");
    holder.join().unwrap();
    let Error::Busy = err else { panic!("not a busy error: {err}") };
    let en = err.to_string();
    assert!(en.contains("nothing was changed") && en.contains("try again"), "{en}");
    let zh = err.message(Lang::Zh);
    assert!(zh.contains("未作任何更改") && zh.contains("重试"), "{zh}");
    assert_eq!(c.version().unwrap(), installed);
}

fn discount(offer: Option<&str>, provider: Option<&str>) -> Discount {
    Discount {
        id: "d".into(),
        offer_id: offer.map(Into::into),
        provider_id: provider.map(Into::into),
        discount_share: 0.2,
        note: None,
        as_of: None,
    }
}

#[test]
fn a_discount_for_a_provider_or_offer_that_does_not_exist_is_refused_unless_meant_for_later() {
    let mut c = fresh();
    for (d, field, value) in [
        (discount(None, Some("amazon")), "provider_id", "amazon"),
        (discount(Some("aws-p5-48xlarge-us-east-1-ondemand"), None), "offer_id", "aws-p5-48xlarge-us-east-1-ondemand"),
    ] {
        let Err(Error::Rows(rows)) = c.put_discount(&d) else { panic!("a discount for nothing was saved") };
        assert_eq!((rows[0].field.as_str(), rows[0].value.as_str()), (field, value));
        assert!(rows[0].message(Lang::En).contains("--for-later"), "{}", rows[0].message(Lang::En));
        assert!(rows[0].message(Lang::Zh).contains("--for-later"), "{}", rows[0].message(Lang::Zh));
        assert!(c.discounts().unwrap().is_empty());
        c.put_discount_with(&d, Targets::ImportedLater).unwrap();
        assert_eq!(c.discounts().unwrap().len(), 1);
        c.remove_from_pricebook("d").unwrap();
    }
    c.put_discount(&discount(None, Some("aws"))).unwrap();
    c.put_discount(&discount(Some("aws-p5-48xlarge-us-east-1-on-demand"), None)).unwrap();
}

fn page_size(path: &std::path::Path) -> i64 {
    let conn = rusqlite::Connection::open(path).unwrap();
    conn.pragma_query_value(None, "page_size", |r| r.get(0)).unwrap()
}

/// Rewrites the catalogue at `path` in 4 KiB pages, as versions before the
/// larger page made it, with a row of the user's own in it.
fn as_an_older_version_left_it(path: &std::path::Path) {
    drop(Catalog::open(path, NOW).unwrap());
    let conn = rusqlite::Connection::open(path).unwrap();
    conn.execute_batch(
        "INSERT INTO settings (key, value) VALUES ('mine', 'kept');
         PRAGMA journal_mode = DELETE; PRAGMA page_size = 4096; VACUUM; PRAGMA journal_mode = WAL;",
    )
    .unwrap();
}

fn kept(path: &std::path::Path) -> String {
    let conn = rusqlite::Connection::open(path).unwrap();
    conn.query_row("SELECT value FROM settings WHERE key = 'mine'", [], |r| r.get(0)).unwrap()
}

#[test]
fn a_new_catalogue_takes_the_large_page_and_an_older_one_is_rewritten_in_it_when_alone() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("db.sqlite");
    drop(Catalog::open(&path, NOW).unwrap());
    assert_eq!(page_size(&path), suanli_catalog::PAGE_SIZE);

    as_an_older_version_left_it(&path);
    assert_eq!(page_size(&path), 4096);
    // Another connection has it open (the app, while the CLI starts): used as it is.
    let other = rusqlite::Connection::open(&path).unwrap();
    other.query_row("SELECT count(*) FROM offers", [], |r| r.get::<_, i64>(0)).unwrap();
    let started = Instant::now();
    let (c, _) = Catalog::open(&path, NOW).unwrap();
    assert!(started.elapsed() < Duration::from_secs(5), "it waited for the other connection");
    assert!(c.integrity_ok().unwrap());
    drop(c);
    assert_eq!(page_size(&path), 4096);
    drop(other);
    // Alone: rewritten once, nothing of the user's lost.
    let (c, _) = Catalog::open(&path, NOW).unwrap();
    assert!(c.integrity_ok().unwrap());
    drop(c);
    assert_eq!(page_size(&path), suanli_catalog::PAGE_SIZE);
    assert_eq!(kept(&path), "kept");
    let conn = rusqlite::Connection::open(&path).unwrap();
    let mode: String = conn.pragma_query_value(None, "journal_mode", |r| r.get(0)).unwrap();
    assert_eq!(mode, "wal");
}

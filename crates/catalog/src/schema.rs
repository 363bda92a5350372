//! The database schema and its migrations, tracked in `PRAGMA user_version`.
//!
//! Catalogue tables (`sources` … `export_controls`) are replaced by bundled
//! upgrades and packs; imports write only `imported_offers`. The price book tables (`pricebook_*`) and
//! scenarios belong to the user: nothing but the user's own commands
//! writes them.

use rusqlite::Connection;

use crate::Error;

/// Each entry moves the schema one version up; never edit a published one.
const MIGRATIONS: &[&str] = &[
    // 1: the catalogue, its history and the price book.
    r#"
    CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);

    CREATE TABLE sources (
        id TEXT PRIMARY KEY, sheet TEXT NOT NULL, title TEXT NOT NULL, url TEXT, date TEXT
    );
    CREATE TABLE accelerators (
        id TEXT PRIMARY KEY, vendor TEXT NOT NULL, vendor_zh TEXT, name TEXT NOT NULL, name_zh TEXT,
        domestic TEXT, memory_gb REAL, memory_type TEXT, memory_bandwidth_gbps REAL,
        bf16_tflops REAL, fp16_tflops REAL, fp32_tflops REAL, int8_tops REAL, tdp_w REAL,
        interconnect TEXT, interconnect_gbps REAL, form_factor TEXT, software_stack TEXT,
        framework_adapter TEXT, release TEXT, export_status_cn TEXT, export_status_since TEXT,
        export_status_notes TEXT, list_price REAL, list_price_currency TEXT, list_price_as_of TEXT,
        source TEXT NOT NULL, as_of TEXT, confidence TEXT NOT NULL, notes TEXT
    );
    CREATE TABLE providers (
        id TEXT PRIMARY KEY, name TEXT NOT NULL, name_zh TEXT, country TEXT, kind TEXT NOT NULL,
        billing_modes TEXT, bare_metal TEXT, dedicated_gpu TEXT, encryption_in_transit TEXT,
        certifications TEXT, security_notes TEXT,
        source TEXT NOT NULL, as_of TEXT, confidence TEXT NOT NULL, notes TEXT
    );
    CREATE TABLE offers (
        id TEXT PRIMARY KEY, provider_id TEXT NOT NULL, accelerator_id TEXT, instance TEXT, region TEXT,
        billing_mode TEXT NOT NULL, accelerators_per_instance REAL, price REAL NOT NULL,
        price_unit TEXT NOT NULL, currency TEXT NOT NULL, upfront TEXT, interconnect TEXT,
        as_of TEXT, source TEXT NOT NULL, confidence TEXT NOT NULL, notes TEXT
    );
    CREATE INDEX offers_accelerator ON offers(accelerator_id);
    CREATE INDEX offers_provider ON offers(provider_id);
    CREATE TABLE efficiency (
        id TEXT PRIMARY KEY, accelerator_id TEXT NOT NULL, workload_class TEXT NOT NULL, ratio REAL NOT NULL,
        reference_accelerator_id TEXT NOT NULL, method TEXT,
        source TEXT NOT NULL, as_of TEXT, confidence TEXT NOT NULL, notes TEXT
    );
    CREATE INDEX efficiency_accelerator ON efficiency(accelerator_id, workload_class);
    CREATE TABLE scaling (
        id TEXT PRIMARY KEY, setup TEXT NOT NULL, accelerator_id TEXT, accelerators REAL,
        efficiency REAL NOT NULL, interconnect TEXT,
        source TEXT NOT NULL, as_of TEXT, confidence TEXT NOT NULL, notes TEXT
    );
    CREATE TABLE export_controls (
        id TEXT PRIMARY KEY, date TEXT, jurisdiction TEXT NOT NULL, rule TEXT NOT NULL,
        affected TEXT, effect TEXT, source TEXT NOT NULL, confidence TEXT NOT NULL, notes TEXT
    );

    -- Every change to the catalogue (bundled upgrade, import, pack), and
    -- the prices it replaced: how each offer's price moved.
    CREATE TABLE catalog_changes (
        id INTEGER PRIMARY KEY, kind TEXT NOT NULL, label TEXT NOT NULL, version INTEGER,
        applied_at TEXT NOT NULL, added INTEGER NOT NULL, removed INTEGER NOT NULL, repriced INTEGER NOT NULL
    );
    CREATE TABLE price_history (
        change_id INTEGER NOT NULL REFERENCES catalog_changes(id), offer_id TEXT NOT NULL,
        what TEXT NOT NULL CHECK (what IN ('added', 'removed', 'repriced')),
        old_price REAL, old_currency TEXT, old_price_unit TEXT, old_as_of TEXT, old_source TEXT,
        new_price REAL, new_currency TEXT, new_price_unit TEXT, new_as_of TEXT
    );
    CREATE INDEX price_history_offer ON price_history(offer_id);

    -- Offers from imported price feeds. They survive bundled upgrades and
    -- packs, and shadow a catalogue offer with the same id (newer data).
    CREATE TABLE imported_offers (
        id TEXT PRIMARY KEY, provider_id TEXT NOT NULL, accelerator_id TEXT, instance TEXT, region TEXT,
        billing_mode TEXT NOT NULL, accelerators_per_instance REAL, price REAL NOT NULL,
        price_unit TEXT NOT NULL, currency TEXT NOT NULL, upfront TEXT, interconnect TEXT,
        as_of TEXT, source TEXT NOT NULL, confidence TEXT NOT NULL, notes TEXT
    );

    -- The user's own offers and negotiated discounts: an overlay no update touches.
    CREATE TABLE pricebook_offers (
        id TEXT PRIMARY KEY, provider_id TEXT NOT NULL, accelerator_id TEXT, instance TEXT, region TEXT,
        billing_mode TEXT NOT NULL, accelerators_per_instance REAL, price REAL NOT NULL,
        price_unit TEXT NOT NULL, currency TEXT NOT NULL, upfront TEXT, interconnect TEXT,
        as_of TEXT, source TEXT NOT NULL, confidence TEXT NOT NULL, notes TEXT
    );
    CREATE TABLE pricebook_discounts (
        id TEXT PRIMARY KEY,
        offer_id TEXT, provider_id TEXT,
        discount_share REAL NOT NULL CHECK (discount_share >= 0 AND discount_share < 1),
        note TEXT, as_of TEXT,
        CHECK ((offer_id IS NULL) <> (provider_id IS NULL))
    );

    -- Names in Chinese and English for full-text search (trigram: any
    -- three characters match; shorter queries fall back to LIKE).
    CREATE VIRTUAL TABLE search USING fts5(item_id UNINDEXED, kind UNINDEXED, text, tokenize = 'trigram');

    -- Keys whose signed packs this catalogue accepts.
    CREATE TABLE trusted_keys (key_id TEXT PRIMARY KEY, public_key TEXT NOT NULL, label TEXT);
    "#,
    // 2: the desktop app's scenario library, its autosaved draft and settings.
    r#"
    -- Saved scenarios, as scenario-file TOML (valid when saved).
    CREATE TABLE library (
        id INTEGER PRIMARY KEY, name TEXT NOT NULL, toml TEXT NOT NULL,
        created_at TEXT NOT NULL, updated_at TEXT NOT NULL
    );
    -- The editor's last state, valid or not (one row): what a crash must not lose.
    CREATE TABLE draft (
        slot INTEGER PRIMARY KEY CHECK (slot = 1), scenario_json TEXT NOT NULL,
        library_id INTEGER, saved_at TEXT NOT NULL
    );
    CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    "#,
    // 3: measured benchmark results, more accelerator specs, and the user's pinned ratios.
    r#"
    ALTER TABLE accelerators ADD COLUMN fp8_tflops REAL;
    ALTER TABLE accelerators ADD COLUMN unpublished TEXT;
    ALTER TABLE accelerators ADD COLUMN variants TEXT;
    CREATE TABLE measurements (
        id TEXT PRIMARY KEY, suite TEXT NOT NULL, suite_version TEXT, "case" TEXT NOT NULL, variant TEXT, submitter TEXT,
        workload_class TEXT NOT NULL, model TEXT, precision TEXT, sequence_length REAL, batch TEXT,
        accelerators REAL NOT NULL, nodes REAL, parallel TEXT, framework TEXT, framework_version TEXT,
        inference_scenario TEXT, accelerator_id TEXT NOT NULL, system TEXT, metric TEXT NOT NULL, value REAL,
        published_as TEXT, location TEXT NOT NULL,
        source TEXT NOT NULL, as_of TEXT, confidence TEXT NOT NULL, notes TEXT
    );
    CREATE INDEX measurements_case ON measurements(workload_class, "case");
    -- Ratios the user states for an accelerator and workload class: an
    -- overlay like the price book, which no update, import or pack writes.
    CREATE TABLE pricebook_ratios (
        accelerator_id TEXT NOT NULL, workload_class TEXT NOT NULL, ratio REAL NOT NULL CHECK (ratio > 0),
        note TEXT, pinned_at TEXT NOT NULL,
        PRIMARY KEY (accelerator_id, workload_class)
    );
    "#,
    // 4: the search index holds names (instance types and regions once each),
    // not one row per offer; it is rebuilt after any migration.
    "DELETE FROM search;",
    // 5: an import's added offers get no history row each: the imported row
    // names the change that added it, and its first price is its own until
    // an import reprices it (then that repricing's old price). The view is
    // the one history readers read.
    r#"
    ALTER TABLE imported_offers ADD COLUMN _added_change INTEGER REFERENCES catalog_changes(id);
    CREATE VIEW offer_history AS
      SELECT change_id, offer_id, what, old_price, old_currency, old_price_unit, old_as_of, old_source,
             new_price, new_currency, new_price_unit, new_as_of
        FROM price_history
      UNION ALL
      SELECT o._added_change, o.id, 'added', NULL, NULL, NULL, NULL, NULL,
             coalesce(r.old_price, o.price), coalesce(r.old_currency, o.currency),
             coalesce(r.old_price_unit, o.price_unit), CASE WHEN r.offer_id IS NULL THEN o.as_of ELSE r.old_as_of END
        FROM imported_offers o
        LEFT JOIN price_history r ON r.offer_id = o.id AND r.change_id = (
          SELECT min(h.change_id) FROM price_history h JOIN catalog_changes c ON c.id = h.change_id
           WHERE h.offer_id = o.id AND h.change_id > o._added_change AND c.kind = 'import')
       WHERE o._added_change IS NOT NULL;
    "#,
    // 6: a price the source quotes as a range keeps its high end
    // (`price` is the low end); empty for a single figure.
    r#"
    ALTER TABLE offers ADD COLUMN price_high REAL;
    ALTER TABLE imported_offers ADD COLUMN price_high REAL;
    ALTER TABLE pricebook_offers ADD COLUMN price_high REAL;
    "#,
    // 7: node and fabric facts of instances, and reference exchange rates.
    r#"
    CREATE TABLE nodes (
        id TEXT PRIMARY KEY, provider_id TEXT NOT NULL, instance TEXT NOT NULL, accelerator_id TEXT,
        accelerators_per_node REAL, scale_up TEXT NOT NULL, scale_up_gbps REAL, scale_out TEXT NOT NULL,
        scale_out_gbps REAL, gpudirect_rdma TEXT, multi_node TEXT NOT NULL, max_cluster_accelerators REAL,
        source TEXT NOT NULL, as_of TEXT, confidence TEXT NOT NULL, notes TEXT
    );
    CREATE TABLE reference_rates (
        currency TEXT PRIMARY KEY, cny_per_unit REAL NOT NULL, as_of TEXT,
        source TEXT NOT NULL, confidence TEXT NOT NULL, notes TEXT
    );
    "#,
    // 8: the peak an MFU figure was taken against, where the suite records
    // it; why a result is kept out of comparisons.
    r#"
    ALTER TABLE measurements ADD COLUMN mfu_peak_tflops REAL;
    ALTER TABLE measurements ADD COLUMN mfu_peak_location TEXT;
    ALTER TABLE measurements ADD COLUMN kept_out TEXT;
    "#,
];

/// The schema version this build writes.
pub const SCHEMA_VERSION: i64 = MIGRATIONS.len() as i64;

/// Refuses, without writing to it, a database that holds tables but not
/// Suanli's: its marker is a schema version (`PRAGMA user_version`) above 0
/// together with the `meta` table migration 1 made. An empty file is a new
/// catalogue.
pub fn refuse_foreign(conn: &Connection, path: &std::path::Path) -> Result<(), Error> {
    let tables: i64 = conn.query_row("SELECT count(*) FROM sqlite_master", [], |r| r.get(0))?;
    if tables == 0 {
        return Ok(());
    }
    let version: i64 = conn.pragma_query_value(None, "user_version", |r| r.get(0))?;
    let meta: i64 =
        conn.query_row("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'meta'", [], |r| r.get(0))?;
    if version == 0 || meta == 0 {
        return Err(Error::Foreign { path: path.display().to_string() });
    }
    Ok(())
}

/// Refuses a database written by a newer Suanli, without writing to it.
pub fn refuse_newer(conn: &Connection) -> Result<i64, Error> {
    let current: i64 = conn.pragma_query_value(None, "user_version", |r| r.get(0))?;
    if current > SCHEMA_VERSION {
        return Err(Error::NewerSchema { found: current, supported: SCHEMA_VERSION });
    }
    Ok(current)
}

/// Brings the schema up to date; refuses a database from a newer Suanli.
/// Says whether an existing catalogue was migrated, so that its search
/// index is rebuilt in the shape this build writes.
pub fn migrate(conn: &mut Connection) -> Result<bool, Error> {
    let current = refuse_newer(conn)?;
    for (i, sql) in MIGRATIONS.iter().enumerate().skip(current as usize) {
        let tx = crate::write_transaction(conn)?;
        tx.execute_batch(sql)?;
        tx.pragma_update(None, "user_version", (i + 1) as i64)?;
        tx.commit()?;
    }
    Ok(current > 0 && current < SCHEMA_VERSION)
}

/// The database's page size. An import writes tens of MB in one transaction,
/// each page a frame of the write-ahead log and then a page of the file: in
/// 64 KiB pages that is a sixteenth of the frames and writes of SQLite's
/// default 4 KiB, and the import about a third faster (docs/performance.md,
/// "Import speed"). Reads are of whole tables or from the page cache.
pub const PAGE_SIZE: i64 = 65_536;

/// A new file takes [`PAGE_SIZE`]; one made in another page size is rewritten
/// in it once (`VACUUM`), when no other connection has it open — else it is
/// used as it is, and rewritten at a later start.
pub(crate) fn settle_page_size(conn: &Connection) -> Result<(), Error> {
    let size: i64 = conn.pragma_query_value(None, "page_size", |r| r.get(0))?;
    if size == PAGE_SIZE {
        return Ok(());
    }
    let tables: i64 = conn.query_row("SELECT count(*) FROM sqlite_master", [], |r| r.get(0))?;
    if tables == 0 {
        conn.pragma_update(None, "page_size", PAGE_SIZE)?;
        return Ok(());
    }
    // Leaving WAL mode needs the only connection: another's is not waited for.
    conn.busy_timeout(std::time::Duration::ZERO)?;
    let alone = conn
        .pragma_update_and_check(None, "journal_mode", "DELETE", |r| r.get::<_, String>(0))
        .is_ok_and(|mode| mode.eq_ignore_ascii_case("delete"));
    if alone {
        conn.pragma_update(None, "page_size", PAGE_SIZE)?;
        // A VACUUM that fails (another connection came, the disk is full) changes nothing.
        let _ = conn.execute_batch("VACUUM");
    }
    conn.busy_timeout(crate::WRITE_WAIT)?;
    Ok(())
}

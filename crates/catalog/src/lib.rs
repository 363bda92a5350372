//! The Suanli catalogue: what compute can be had, where, at what price,
//! and how much useful work it does — every figure with its source, as-of
//! date and confidence.
//!
//! One SQLite file holds the catalogue (replaced by bundled upgrades and
//! signed packs; imported feeds land beside it in `imported_offers`; each
//! change in one transaction and recorded in the price history) and the user's price book (own offers and
//! negotiated discounts), which nothing but the user's own commands
//! writes. Paths, times and keys come in as arguments; this crate reads
//! no clock and chooses no directory.

#![warn(missing_docs)]

pub mod aliases;
mod bundled;
pub mod change_label;
pub use bundled::{ExportFacts, accelerator_names, export_facts, offers_and_rates, sources as bundled_sources};
mod cache;
pub mod check;
pub mod import;
pub mod library;
pub mod pack;
pub mod pricebook;
pub mod query;
pub mod ratios;
pub mod rows;
mod schema;
mod search_index;
pub mod serving;
mod store;
pub mod update;
mod vocab;

use std::path::Path;

use crate::change_label::{ChangeLabel, label_zh};
use rusqlite::{Connection, OpenFlags, OptionalExtension, params};
use serde::de::DeserializeOwned;
use suanli_model::{Currency, Lang};

pub use check::RowError;
pub use rows::*;
pub use schema::{PAGE_SIZE, SCHEMA_VERSION};
pub(crate) use search_index::{OFFER_JOINS, OFFER_TEXT, index_offer_names, offer_names, rebuild_search};

/// Why a catalogue operation failed.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The database could not be opened or refused a statement.
    #[error("database: {0}")]
    Sqlite(rusqlite::Error),
    /// Another writer held the database for longer than this one waits
    /// ([`WRITE_WAIT`] unless set otherwise); nothing was changed.
    #[error("{}", self.message(Lang::En))]
    Busy,
    /// The file is a database, but not a Suanli catalogue (it has no Suanli
    /// schema marker); it was left untouched.
    #[error("{}", self.message(Lang::En))]
    Foreign {
        /// The file, as given.
        path: String,
    },
    /// A pack or key the catalogue refuses to take (a removal beyond the
    /// allowed share, rows outside a pack's scope, a key id already trusted
    /// with other key bytes); nothing was changed.
    #[error("{}", self.message(Lang::En))]
    Refused(#[from] pack::PackError),
    /// The file was written by a newer Suanli; it was left untouched.
    #[error(
        "the database was written by a newer Suanli (schema {found}; this version reads up to {supported}); it was left untouched"
    )]
    NewerSchema {
        /// The file's schema version (`PRAGMA user_version`).
        found: i64,
        /// The newest schema this build reads ([`SCHEMA_VERSION`]).
        supported: i64,
    },
    /// A CSV file that could not be read into rows.
    #[error("{file} line {line}: {message}")]
    Csv {
        /// Which file: a bundled one's name (`offers.csv`), or the importer
        /// (`import`, `skypilot`).
        file: String,
        /// Line of the record (header = line 1); 0 when unknown.
        line: u64,
        /// The CSV reader's message, or what the header lacks.
        message: String,
    },
    /// Rows that break a rule, each with its table, line, field and problem;
    /// nothing was written.
    #[error("{} row(s) rejected:\n{}", .0.len(), .0.iter().map(|e| format!("  - {e}")).collect::<Vec<_>>().join("\n"))]
    Rows(Vec<RowError>),
    /// No such item (a scenario, a provider); the text names it.
    #[error("not found: {0}")]
    NotFound(String),
    /// A file, key or pack that cannot be used as given (not UTF-8, not a
    /// minisign key, not a price book, a version out of bounds); the text says why.
    #[error("{0}")]
    Pack(String),
    /// A download (a catalogue pack or a price feed) failed or was refused.
    #[error("{0}")]
    Update(#[from] update::UpdateError),
    /// JSON that could not be read or written.
    #[error("json: {0}")]
    Json(#[from] serde_json::Error),
    /// A file or directory could not be read or created.
    #[error("io: {0}")]
    Io(#[from] std::io::Error),
    /// A state that should not arise (a defect); the text says which.
    #[error("internal: {0}")]
    Internal(String),
    /// A feed file over the import's size cap; nothing was read into the catalogue.
    #[error("the file is {bytes} bytes, over the import limit of {limit} bytes; nothing was imported")]
    FileTooLarge {
        /// The file's size, bytes.
        bytes: usize,
        /// The cap, bytes ([`import::FILE_MAX_BYTES`]).
        limit: usize,
    },
    /// An Azure Retail Prices response whose last page still links to a next one.
    #[error("the response is incomplete: its last page (of {pages}) links to another ({next}); nothing was imported")]
    IncompleteFeed {
        /// Pages the response held.
        pages: usize,
        /// The address the last page links to.
        next: String,
    },
    /// An import in which no row landed (every one was rejected or left out).
    #[error("none of the {rows} row(s) landed: every row was rejected or left out")]
    NothingLanded {
        /// Rows the file held.
        rows: usize,
    },
}

/// How long a writer waits for another writer to finish before it gives up
/// with [`Error::Busy`] (an import of 100,000 rows takes well under a second).
pub const WRITE_WAIT: std::time::Duration = std::time::Duration::from_secs(30);

impl From<rusqlite::Error> for Error {
    /// A database that stayed locked past the wait is [`Error::Busy`]; every
    /// other failure is [`Error::Sqlite`].
    fn from(e: rusqlite::Error) -> Error {
        match e.sqlite_error_code() {
            Some(rusqlite::ErrorCode::DatabaseBusy | rusqlite::ErrorCode::DatabaseLocked) => Error::Busy,
            _ => Error::Sqlite(e),
        }
    }
}

impl Error {
    /// The error for a reader, in English or Chinese (the variants that carry
    /// their own words; the others as [`std::fmt::Display`] says them).
    pub fn message(&self, lang: Lang) -> String {
        let zh = lang == Lang::Zh;
        match self {
            Error::Busy if zh => "另一个程序正在写入目录数据库，等待超时；未作任何更改，请稍后重试".to_owned(),
            Error::Busy => "another program is writing the catalogue database and did not finish in time; nothing was changed, try again when it is done".to_owned(),
            Error::Foreign { path } if zh => format!("{path} 不是 Suanli 目录数据库（没有 Suanli 的架构标记）；文件未被改动。请用 --db 指定 Suanli 的数据库或一个新文件"),
            Error::Foreign { path } => format!("{path} is not a Suanli catalogue (it has no Suanli schema marker); it was left untouched. Give --db a Suanli database or a new file"),
            Error::Refused(e) => e.message(lang),
            other => other.to_string(),
        }
    }
}

/// A transaction that takes the write lock at once (waiting up to the busy
/// timeout for another writer), so no read inside it can go stale and fail
/// the write later: every write path starts here.
pub(crate) fn write_transaction(conn: &mut Connection) -> Result<rusqlite::Transaction<'_>, Error> {
    Ok(conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?)
}

/// Reads CSV text into rows; the error names the file, line and field.
pub fn csv_rows<T: DeserializeOwned>(file: &str, text: &str) -> Result<Vec<T>, Error> {
    let mut reader = csv::ReaderBuilder::new().trim(csv::Trim::None).from_reader(text.as_bytes());
    let mut rows = Vec::new();
    for record in reader.deserialize() {
        rows.push(record.map_err(|e| {
            let line = e.position().map_or(0, |p| p.line());
            Error::Csv { file: file.to_owned(), line, message: e.to_string() }
        })?);
    }
    Ok(rows)
}

/// An open catalogue database.
#[derive(Debug)]
pub struct Catalog {
    conn: Connection,
    /// What reads derive from the rows, kept while they are unchanged.
    cache: cache::Cache,
}

/// Row counts of the catalogue tables.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct Counts {
    /// Accelerator rows.
    pub accelerators: u32,
    /// Provider rows.
    pub providers: u32,
    /// Catalogue offers (imported and price-book offers not counted).
    pub offers: u32,
    /// Offers from imported feeds and refreshes (some may shadow a
    /// catalogue offer of the same id).
    pub imported_offers: u32,
    /// Published ratio rows (`efficiency.csv`).
    pub efficiency: u32,
    /// Published benchmark results.
    pub measurements: u32,
    /// Source rows.
    pub sources: u32,
}

/// What opening did to the catalogue.
#[derive(Debug, Clone, PartialEq)]
pub enum Opened {
    /// Created from the bundled catalogue.
    Created,
    /// Upgraded from an older bundled version.
    Upgraded {
        /// The catalogue version it held.
        from: i64,
        /// The bundled version now installed.
        to: i64,
    },
    /// Already current (or newer, from a pack).
    Current,
}

impl Catalog {
    /// Opens (creating if needed) the database at `path`, migrates its
    /// schema and brings the catalogue up to the bundled version. `now`
    /// stamps the change record. A database that cannot be opened or has a
    /// newer schema is returned as an error and left untouched.
    pub fn open(path: &Path, now: &str) -> Result<(Catalog, Opened), Error> {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir)?;
        }
        let flags = OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_CREATE | OpenFlags::SQLITE_OPEN_URI;
        let conn = Connection::open_with_flags(path, flags)?;
        // A file that is not a database, or one from a newer Suanli, fails
        // here, before anything is written to it.
        conn.query_row("SELECT count(*) FROM sqlite_master", [], |r| r.get::<_, i64>(0))?;
        schema::refuse_foreign(&conn, path)?;
        schema::refuse_newer(&conn)?;
        schema::settle_page_size(&conn)?;
        conn.pragma_update(None, "journal_mode", "WAL")?;
        // The write-ahead log is folded back into the file at about 4 MB, as with SQLite's default page.
        conn.pragma_update(None, "wal_autocheckpoint", 4 * 1024 * 1024 / schema::PAGE_SIZE)?;
        Self::setup(conn, now)
    }

    /// A second connection to the database at `path`, which [`Catalog::open`]
    /// made and brought up to date, for reading only: in WAL mode it sees
    /// every committed write and waits for none, so reads go on while an
    /// import or pack writes through the first.
    pub fn open_reader(path: &Path) -> Result<Catalog, Error> {
        let conn = Connection::open_with_flags(path, OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_URI)?;
        schema::refuse_foreign(&conn, path)?;
        schema::refuse_newer(&conn)?;
        conn.busy_timeout(WRITE_WAIT)?;
        Ok(Catalog { conn, cache: cache::Cache::default() })
    }

    /// A catalogue in memory (tests, benchmarks).
    pub fn open_in_memory(now: &str) -> Result<(Catalog, Opened), Error> {
        Self::setup(Connection::open_in_memory()?, now)
    }

    fn setup(mut conn: Connection, now: &str) -> Result<(Catalog, Opened), Error> {
        conn.busy_timeout(WRITE_WAIT)?;
        conn.pragma_update(None, "foreign_keys", "ON")?;
        // The price book is the user's own data: no acknowledged write may be lost.
        conn.pragma_update(None, "synchronous", "FULL")?;
        if schema::migrate(&mut conn)? {
            let tx = write_transaction(&mut conn)?;
            rebuild_search(&tx)?;
            tx.commit()?;
        }
        let mut catalog = Catalog { conn, cache: cache::Cache::default() };
        let installed = catalog.version()?;
        let bundled = bundled::version();
        let opened = match installed {
            None => {
                catalog.replace(
                    &bundled::tables()?,
                    ChangeKind::Bundled,
                    &ChangeLabel::Bundled.stored(),
                    bundled,
                    now,
                )?;
                Opened::Created
            }
            Some(v) if v < bundled => {
                catalog.replace(
                    &bundled::tables()?,
                    ChangeKind::Bundled,
                    &ChangeLabel::BundledUpgrade.stored(),
                    bundled,
                    now,
                )?;
                Opened::Upgraded { from: v, to: bundled }
            }
            Some(_) => Opened::Current,
        };
        Ok((catalog, opened))
    }

    /// How many rows each catalogue table holds (the price book not counted).
    pub fn counts(&self) -> Result<Counts, Error> {
        let n = |table: &str| -> Result<u32, Error> {
            Ok(self.conn.query_row(&format!("SELECT count(*) FROM {table}"), [], |r| r.get(0))?)
        };
        Ok(Counts {
            accelerators: n("accelerators")?,
            providers: n("providers")?,
            offers: n("offers")?,
            imported_offers: n("imported_offers")?,
            efficiency: n("efficiency")?,
            measurements: n("measurements")?,
            sources: n("sources")?,
        })
    }

    /// Workload classes offers are priced for (every accelerator has a
    /// ratio for each, measured, derived or estimated).
    pub fn workload_classes(&self) -> Vec<WorkloadClass> {
        WorkloadClass::PRICED.to_vec()
    }

    /// How long a write waits for another writer before [`Error::Busy`]
    /// ([`WRITE_WAIT`] unless set here).
    pub fn set_write_wait(&mut self, wait: std::time::Duration) -> Result<(), Error> {
        Ok(self.conn.busy_timeout(wait)?)
    }

    /// The SQLite connection underneath. A write through it skips the row
    /// checks and the change record.
    pub fn connection(&self) -> &Connection {
        &self.conn
    }

    /// Version of the catalogue installed, if any.
    pub fn version(&self) -> Result<Option<i64>, Error> {
        let v: Option<String> =
            self.conn.query_row("SELECT value FROM meta WHERE key = 'catalog_version'", [], |r| r.get(0)).optional()?;
        Ok(v.and_then(|v| v.parse().ok()))
    }

    /// `PRAGMA integrity_check` says "ok".
    pub fn integrity_ok(&self) -> Result<bool, Error> {
        let result: String = self.conn.query_row("PRAGMA integrity_check", [], |r| r.get(0))?;
        Ok(result == "ok")
    }

    /// The ids of a table's rows, in order (what an import checks references
    /// against: reading whole rows for it took a sixth of each import).
    pub(crate) fn ids(&self, table: &'static str) -> Result<Vec<String>, Error> {
        let mut stmt = self.conn.prepare_cached(&format!("SELECT id FROM {table} ORDER BY id"))?;
        let ids = stmt.query_map([], |r| r.get(0))?.collect::<Result<_, _>>()?;
        Ok(ids)
    }

    /// The lighter check a fuzzer runs after every write: `PRAGMA
    /// quick_check` says "ok" for each table an import writes (pages and
    /// records sound, without comparing each index with its table) and no
    /// row breaks a foreign key.
    pub fn quick_check_ok(&self) -> Result<bool, Error> {
        // Table by table: the whole-file check also walks the search index
        // (FTS5), which imports do not write.
        for table in ["imported_offers", "price_history", "catalog_changes", "offers"] {
            let quick: String = self.conn.query_row(&format!("PRAGMA quick_check({table})"), [], |r| r.get(0))?;
            if quick != "ok" {
                return Ok(false);
            }
        }
        let broken = self.conn.prepare("PRAGMA foreign_key_check")?.query([])?.next()?.is_some();
        Ok(!broken)
    }

    /// Replaces the whole catalogue by `tables` in one transaction: checks
    /// every row first, records what was added, removed and repriced, and
    /// leaves the price book alone. On any error nothing changes.
    pub fn replace(
        &mut self,
        tables: &Tables,
        kind: ChangeKind,
        label: &str,
        version: i64,
        now: &str,
    ) -> Result<ChangeSummary, Error> {
        let errors = check::check_tables(tables);
        if !errors.is_empty() {
            return Err(Error::Rows(errors));
        }
        let tx = write_transaction(&mut self.conn)?;
        let old: Vec<Offer> = store::select(&tx, "SELECT * FROM offers", [])?;
        for table in [
            "sources",
            "accelerators",
            "providers",
            "offers",
            "efficiency",
            "measurements",
            "scaling",
            "export_controls",
            "nodes",
            "reference_rates",
        ] {
            tx.execute(&format!("DELETE FROM {table}"), [])?;
        }
        insert_all(&tx, tables)?;
        let summary =
            record_change_with(&tx, kind, label, Some(version), now, &old, &tables.offers, ChangeScope::Catalogue)?;
        tx.execute(
            "INSERT OR REPLACE INTO meta (key, value) VALUES ('catalog_version', ?1)",
            params![version.to_string()],
        )?;
        rebuild_search(&tx)?;
        tx.commit()?;
        Ok(summary)
    }

    /// The catalogue as plain tables (for packs and exports).
    pub fn tables(&self) -> Result<Tables, Error> {
        let c = &self.conn;
        Ok(Tables {
            sources: store::select(c, "SELECT * FROM sources ORDER BY id", [])?,
            accelerators: store::select(c, "SELECT * FROM accelerators ORDER BY id", [])?,
            providers: store::select(c, "SELECT * FROM providers ORDER BY id", [])?,
            offers: store::select(c, "SELECT * FROM offers ORDER BY id", [])?,
            efficiency: store::select(c, "SELECT * FROM efficiency ORDER BY id", [])?,
            measurements: store::select(c, "SELECT * FROM measurements ORDER BY id", [])?,
            scaling: store::select(c, "SELECT * FROM scaling ORDER BY id", [])?,
            export_controls: store::select(c, "SELECT * FROM export_controls ORDER BY id", [])?,
            nodes: store::select(c, "SELECT * FROM nodes ORDER BY id", [])?,
            reference_rates: store::select(c, "SELECT * FROM reference_rates ORDER BY currency", [])?,
        })
    }

    /// Every change recorded, newest first.
    pub fn changes(&self) -> Result<Vec<ChangeSummary>, Error> {
        let mut changes: Vec<ChangeSummary> = store::select(
            &self.conn,
            "SELECT id, kind, label, version, applied_at, added, removed, repriced FROM catalog_changes ORDER BY id DESC",
            [],
        )?;
        for c in &mut changes {
            c.label_zh = label_zh(&c.label);
        }
        Ok(changes)
    }

    /// How one offer's price moved, oldest first.
    pub fn price_history(&self, offer_id: &str) -> Result<Vec<PriceChange>, Error> {
        let mut history: Vec<PriceChange> = store::select(
            &self.conn,
            "SELECT c.applied_at, c.label, h.what, h.old_price, h.old_currency, h.old_price_unit, h.old_as_of, \
             h.old_source, h.new_price, h.new_currency, h.new_price_unit, h.new_as_of \
             FROM offer_history h JOIN catalog_changes c ON c.id = h.change_id \
             WHERE h.offer_id = ?1 ORDER BY c.id",
            params![offer_id],
        )?;
        for h in &mut history {
            h.label_zh = label_zh(&h.label);
        }
        Ok(history)
    }

    /// What one change did, offer by offer.
    pub fn change_details(&self, change_id: i64) -> Result<Vec<OfferChange>, Error> {
        store::select(
            &self.conn,
            "SELECT offer_id, what, old_price, new_price, old_currency, new_currency FROM offer_history \
             WHERE change_id = ?1 ORDER BY offer_id",
            params![change_id],
        )
    }
}

fn insert_all(conn: &Connection, t: &Tables) -> Result<(), Error> {
    fn rows<T: serde::Serialize>(conn: &Connection, table: &str, rows: &[T]) -> Result<(), Error> {
        store::insert_rows(conn, table, rows)
    }
    rows(conn, "sources", &t.sources)?;
    rows(conn, "accelerators", &t.accelerators)?;
    rows(conn, "providers", &t.providers)?;
    rows(conn, "offers", &t.offers)?;
    rows(conn, "efficiency", &t.efficiency)?;
    rows(conn, "measurements", &t.measurements)?;
    rows(conn, "scaling", &t.scaling)?;
    rows(conn, "export_controls", &t.export_controls)?;
    rows(conn, "nodes", &t.nodes)?;
    rows(conn, "reference_rates", &t.reference_rates)
}

/// Where a change to the catalogue came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub enum ChangeKind {
    /// The catalogue bundled with the app (first start or an upgrade).
    Bundled,
    /// A price feed imported.
    Import,
    /// A catalogue pack installed.
    Pack,
}

impl ChangeKind {
    /// Its name as stored (`bundled`).
    pub fn key(self) -> &'static str {
        match self {
            ChangeKind::Bundled => "bundled",
            ChangeKind::Import => "import",
            ChangeKind::Pack => "pack",
        }
    }
}

/// What a change did to one offer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub enum OfferChangeKind {
    /// A new offer.
    Added,
    /// An offer taken out.
    Removed,
    /// A new price, currency or price unit.
    Repriced,
}

impl OfferChangeKind {
    /// Its name as stored (`added`).
    pub fn key(self) -> &'static str {
        match self {
            OfferChangeKind::Added => "added",
            OfferChangeKind::Removed => "removed",
            OfferChangeKind::Repriced => "repriced",
        }
    }
}

/// A change to the catalogue and its counts.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ChangeSummary {
    /// Its row id; a later change has a larger one.
    pub id: i64,
    /// Where it came from.
    pub kind: ChangeKind,
    /// What it was, for a reader (`bundled catalogue upgrade`,
    /// `import: SkyPilot catalogue (aws)`, `pack: … (signed by …)`): a
    /// [`ChangeLabel`] as stored.
    pub label: String,
    /// The label in Chinese.
    #[serde(default)]
    pub label_zh: String,
    /// The catalogue version it installed; `None` for an import.
    pub version: Option<i64>,
    /// When it was applied (the caller's `now`).
    pub applied_at: String,
    /// Offers added.
    pub added: i64,
    /// Offers removed (only a whole-catalogue replacement removes any).
    pub removed: i64,
    /// Offers whose price, currency or price unit changed.
    pub repriced: i64,
}

/// One step in an offer's price history.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct PriceChange {
    /// When the change was applied.
    pub applied_at: String,
    /// The change's label, as stored (English).
    pub label: String,
    /// The change's label in Chinese.
    #[serde(default)]
    pub label_zh: String,
    /// What happened to the offer.
    pub what: OfferChangeKind,
    /// Price before, in `old_currency` per `old_price_unit`; `None` when added.
    pub old_price: Option<f64>,
    /// Currency before.
    pub old_currency: Option<Currency>,
    /// Price unit before.
    pub old_price_unit: Option<PriceUnit>,
    /// As-of date of the price before.
    pub old_as_of: Option<String>,
    /// Source ids of the price before.
    pub old_source: Option<String>,
    /// Price after, in `new_currency` per `new_price_unit`; `None` when removed.
    pub new_price: Option<f64>,
    /// Currency after.
    pub new_currency: Option<Currency>,
    /// Price unit after.
    pub new_price_unit: Option<PriceUnit>,
    /// As-of date of the price after.
    pub new_as_of: Option<String>,
}

/// One offer in one change.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct OfferChange {
    /// The offer's id.
    pub offer_id: String,
    /// What happened to the offer.
    pub what: OfferChangeKind,
    /// Price before (in `old_currency`); `None` when added.
    pub old_price: Option<f64>,
    /// Price after (in `new_currency`); `None` when removed.
    pub new_price: Option<f64>,
    /// Currency before.
    pub old_currency: Option<Currency>,
    /// Currency after.
    pub new_currency: Option<Currency>,
}

/// What a change's offers are, and so what its history rows say.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ChangeScope {
    /// `new` is the whole catalogue: offers added, repriced and removed
    /// each get a history row.
    Catalogue,
    /// `new` is what an import wrote: only repricings get a row; an added
    /// offer's row in `imported_offers` names the change itself
    /// (`_added_change`, read through the `offer_history` view).
    Import,
}

/// Records a change: compares old and new offers by id, as `scope` says.
#[allow(clippy::too_many_arguments)]
pub(crate) fn record_change_with(
    conn: &Connection,
    kind: ChangeKind,
    label: &str,
    version: Option<i64>,
    now: &str,
    old: &[impl std::borrow::Borrow<Offer>],
    new: &[impl std::borrow::Borrow<Offer>],
    scope: ChangeScope,
) -> Result<ChangeSummary, Error> {
    use foldhash::{HashMap, HashSet};
    use std::borrow::Borrow;
    // Ids are unique in `old` and in `new` (both were checked).
    let old_by_id: HashMap<&str, &Offer> = old.iter().map(|o| (o.borrow().id.as_str(), o.borrow())).collect();
    conn.execute(
        "INSERT INTO catalog_changes (kind, label, version, applied_at, added, removed, repriced) VALUES (?1, ?2, ?3, ?4, 0, 0, 0)",
        params![kind.key(), label, version, now],
    )?;
    let change_id = conn.last_insert_rowid();
    let (mut added, mut removed, mut repriced) = (0i64, 0i64, 0i64);
    let mut stmt = conn.prepare_cached(
        "INSERT INTO price_history (change_id, offer_id, what, old_price, old_currency, old_price_unit, old_as_of, old_source, \
         new_price, new_currency, new_price_unit, new_as_of) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
    )?;
    for n in new.iter().map(Borrow::borrow) {
        let id = n.id.as_str();
        match old_by_id.get(id) {
            None if scope == ChangeScope::Import => added += 1,
            None => {
                added += 1;
                stmt.execute(params![
                    change_id,
                    id,
                    OfferChangeKind::Added.key(),
                    None::<f64>,
                    None::<String>,
                    None::<String>,
                    None::<String>,
                    None::<String>,
                    n.price,
                    n.currency.code(),
                    n.price_unit.key(),
                    n.as_of
                ])?;
            }
            Some(o) if o.price != n.price || o.currency != n.currency || o.price_unit != n.price_unit => {
                repriced += 1;
                stmt.execute(params![
                    change_id,
                    id,
                    OfferChangeKind::Repriced.key(),
                    o.price,
                    o.currency.code(),
                    o.price_unit.key(),
                    o.as_of,
                    o.source,
                    n.price,
                    n.currency.code(),
                    n.price_unit.key(),
                    n.as_of
                ])?;
            }
            Some(_) => {}
        }
    }
    if scope == ChangeScope::Catalogue {
        let new_ids: HashSet<&str> = new.iter().map(|o| o.borrow().id.as_str()).collect();
        for o in old.iter().map(Borrow::borrow) {
            let id = o.id.as_str();
            if !new_ids.contains(id) {
                removed += 1;
                stmt.execute(params![
                    change_id,
                    id,
                    OfferChangeKind::Removed.key(),
                    o.price,
                    o.currency.code(),
                    o.price_unit.key(),
                    o.as_of,
                    o.source,
                    None::<f64>,
                    None::<String>,
                    None::<String>,
                    None::<String>
                ])?;
            }
        }
    }
    conn.execute(
        "UPDATE catalog_changes SET added = ?2, removed = ?3, repriced = ?4 WHERE id = ?1",
        params![change_id, added, removed, repriced],
    )?;
    Ok(ChangeSummary {
        id: change_id,
        kind,
        label: label.to_owned(),
        label_zh: label_zh(label),
        version,
        applied_at: now.to_owned(),
        added,
        removed,
        repriced,
    })
}

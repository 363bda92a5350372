//! What the app holds while it runs: the database (or why it could not be
//! opened), a second connection that only reads it, and the language
//! messages are written in.

use serde::Serialize;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, MutexGuard};

use suanli_api::catalog::Catalog;
use suanli_api::freshness::Date;
use suanli_api::{Error, ErrorJson, Lang};

/// Shared between the commands and the threads long work runs on.
#[derive(Debug, Clone)]
pub struct AppState(Arc<Inner>);

#[derive(Debug)]
pub struct Inner {
    pub db_path: PathBuf,
    catalog: Mutex<Option<Catalog>>,
    /// A read-only connection to the same database: what reads it (an
    /// evaluation, a check before a simulation or an export) never waits
    /// for a write in progress on `catalog`. `None` when it could not be
    /// opened; reads then take `catalog`.
    reader: Mutex<Option<Catalog>>,
    /// Why the database could not be opened; the file is left as it was.
    open_error: Option<Error>,
    lang: Mutex<Lang>,
    pub system_lang: Lang,
    /// A fixed day for tests; `None`: the clock.
    pinned_today: Option<Date>,
    /// Set to stop the price refresh under way (a new one clears it).
    pub cancel_refresh: std::sync::atomic::AtomicBool,
}

impl AppState {
    /// Opens (creating on first start) the database at `db_path`.
    pub fn open(db_path: PathBuf, system_lang: Lang) -> AppState {
        AppState::open_on(db_path, system_lang, None)
    }

    /// As [`AppState::open`], with today fixed (`None`: the clock), so that
    /// what ages prices gives the same answers on any day.
    pub fn open_on(db_path: PathBuf, system_lang: Lang, pinned_today: Option<Date>) -> AppState {
        let (catalog, open_error) = match suanli_api::catalog::open_catalog(Some(&db_path)) {
            Ok((c, _)) => (Some(c), None),
            Err(e) => (None, Some(e)),
        };
        let lang = catalog
            .as_ref()
            .and_then(|c| suanli_api::library::settings(c, system_lang).ok())
            .map_or(system_lang, |s| s.lang);
        let reader = catalog.as_ref().and_then(|_| suanli_api::catalog::open_reader(&db_path).ok());
        AppState(Arc::new(Inner {
            db_path,
            catalog: Mutex::new(catalog),
            reader: Mutex::new(reader),
            open_error,
            lang: Mutex::new(lang),
            system_lang,
            pinned_today,
            cancel_refresh: std::sync::atomic::AtomicBool::new(false),
        }))
    }
}

impl std::ops::Deref for AppState {
    type Target = Inner;

    fn deref(&self) -> &Inner {
        &self.0
    }
}

impl Inner {
    pub fn lang(&self) -> Lang {
        *self.lang.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The day prices are aged on and new entries are dated with.
    pub fn today(&self) -> Date {
        self.pinned_today.unwrap_or_else(suanli_api::freshness::today_date)
    }

    pub fn set_lang(&self, lang: Lang) {
        *self.lang.lock().unwrap_or_else(|p| p.into_inner()) = lang;
    }

    pub fn open_error(&self) -> Option<ErrorJson> {
        self.open_error.as_ref().map(|e| e.to_json(self.lang()))
    }

    fn guard(&self) -> MutexGuard<'_, Option<Catalog>> {
        // A panic while holding the lock leaves SQLite consistent (every
        // write is one transaction), so the poisoned guard is still usable.
        self.catalog.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Runs `f` on the open database; errors come back in the user's
    /// language, and an answer holding a non-finite number is refused
    /// ([`finite`]).
    pub fn with<T: Serialize>(&self, f: impl FnOnce(&mut Catalog, Lang) -> Result<T, Error>) -> Result<T, ErrorJson> {
        let lang = self.lang();
        match self.guard().as_mut() {
            Some(c) => f(c, lang).and_then(finite).map_err(|e| e.to_json(lang)),
            None => Err(Error::Unavailable.to_json(lang)),
        }
    }

    /// As [`with`](Self::with), for work that only reads the database: on
    /// the read-only connection, so it does not wait for a write in progress.
    pub fn with_reader<T: Serialize>(
        &self,
        f: impl FnOnce(&Catalog, Lang) -> Result<T, Error>,
    ) -> Result<T, ErrorJson> {
        self.with_optional(|c, lang| match c {
            Some(c) => f(c, lang),
            None => Err(Error::Unavailable),
        })
    }

    /// As [`with`](Self::with), for work that only reads the database, or
    /// can run without it (a scenario that names no catalogue offer): on the
    /// read-only connection, so it does not wait for a write in progress.
    pub fn with_optional<T: Serialize>(
        &self,
        f: impl FnOnce(Option<&Catalog>, Lang) -> Result<T, Error>,
    ) -> Result<T, ErrorJson> {
        let lang = self.lang();
        self.step_optional(|c, lang| f(c, lang).and_then(finite)).map_err(|e| e.to_json(lang))
    }

    /// A step inside a command (its answer is checked where it is made):
    /// `f` on the read-only connection, or on none.
    pub fn step_optional<T>(&self, f: impl FnOnce(Option<&Catalog>, Lang) -> Result<T, Error>) -> Result<T, Error> {
        let lang = self.lang();
        let reader = self.reader.lock().unwrap_or_else(|p| p.into_inner());
        match reader.as_ref() {
            Some(r) => f(Some(r), lang),
            None => f(self.guard().as_ref(), lang),
        }
    }

    /// A step inside a command that writes (its answer is checked where it
    /// is made): `f` on the open database.
    pub fn step<T>(&self, f: impl FnOnce(&mut Catalog, Lang) -> Result<T, Error>) -> Result<T, Error> {
        match self.guard().as_mut() {
            Some(c) => f(c, self.lang()),
            None => Err(Error::Unavailable),
        }
    }
}

/// Every answer leaves the shell with finite numbers only: JSON would write
/// NaN as `null` and pass a broken figure off as a missing one.
fn finite<T: Serialize>(answer: T) -> Result<T, Error> {
    suanli_api::ensure_finite(&answer)?;
    Ok(answer)
}

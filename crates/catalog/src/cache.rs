//! What reads derive from the database (the ratio book, the offers view's
//! rows), kept while the database is unchanged. One rule decides when:
//! a [`Stamp`] of the connection's own writes and of other connections'
//! commits. No write path has to remember to invalidate anything.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use rusqlite::Connection;

use crate::pricebook::Discount;
use crate::ratios::RatioBook;
use crate::{Accelerator, Offer, Provider};

/// The database's state as far as a cache can tell: rows this connection
/// changed (`total_changes`, which every INSERT, UPDATE and DELETE moves)
/// and commits by other connections (`PRAGMA data_version`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Stamp {
    own_changes: u64,
    others_commits: i64,
}

impl Stamp {
    pub(crate) fn of(conn: &Connection) -> Result<Stamp, rusqlite::Error> {
        Ok(Stamp {
            own_changes: conn.total_changes(),
            others_commits: conn.query_row("PRAGMA data_version", [], |r| r.get(0))?,
        })
    }
}

/// The rows the offers view joins, read once per database state.
#[derive(Debug)]
pub(crate) struct OfferRows {
    pub providers: BTreeMap<String, Provider>,
    pub accelerators: BTreeMap<String, Accelerator>,
    pub discounts: Vec<Discount>,
    /// Every offer with its origin (price book included).
    pub offers: Vec<(Arc<Offer>, crate::vocab::OfferOrigin)>,
}

#[derive(Debug, Default)]
struct Entries {
    stamp: Option<Stamp>,
    /// By reference accelerator.
    book: Option<(String, Arc<RatioBook>)>,
    offer_rows: Option<Arc<OfferRows>>,
}

/// The cache itself; a poisoned lock only costs a rebuild.
#[derive(Debug, Default)]
pub(crate) struct Cache(Mutex<Entries>);

impl Cache {
    /// The ratio book for `reference`, built by `build` unless one made in
    /// this database state is at hand.
    pub(crate) fn book<E>(
        &self,
        stamp: Stamp,
        reference: &str,
        build: impl FnOnce() -> Result<RatioBook, E>,
    ) -> Result<Arc<RatioBook>, E> {
        if let Some(book) =
            self.current(stamp, |e| e.book.as_ref().filter(|(r, _)| r == reference).map(|(_, b)| b.clone()))
        {
            return Ok(book);
        }
        let book = Arc::new(build()?);
        self.keep(stamp, |e| e.book = Some((reference.to_owned(), book.clone())));
        Ok(book)
    }

    /// The offers view's rows, read by `read` unless read in this state.
    pub(crate) fn offer_rows<E>(
        &self,
        stamp: Stamp,
        read: impl FnOnce() -> Result<OfferRows, E>,
    ) -> Result<Arc<OfferRows>, E> {
        if let Some(rows) = self.current(stamp, |e| e.offer_rows.clone()) {
            return Ok(rows);
        }
        let rows = Arc::new(read()?);
        self.keep(stamp, |e| e.offer_rows = Some(rows.clone()));
        Ok(rows)
    }

    fn current<T>(&self, stamp: Stamp, get: impl FnOnce(&Entries) -> Option<T>) -> Option<T> {
        let entries = self.0.lock().ok()?;
        if entries.stamp == Some(stamp) { get(&entries) } else { None }
    }

    fn keep(&self, stamp: Stamp, put: impl FnOnce(&mut Entries)) {
        if let Ok(mut entries) = self.0.lock() {
            if entries.stamp != Some(stamp) {
                *entries = Entries { stamp: Some(stamp), ..Entries::default() };
            }
            put(&mut entries);
        }
    }
}

//! Full-text search over the catalogue's names (ids, names in English and
//! Chinese, instance types, regions) and the offers each match brings.

use std::collections::BTreeSet;

use rusqlite::params;
use serde::{Deserialize, Serialize};

use crate::{Catalog, Error, OFFER_JOINS, OFFER_TEXT, store};

/// What a search result is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub enum HitKind {
    /// An accelerator.
    Accelerator,
    /// A provider.
    Provider,
    /// An offer.
    Offer,
}

impl HitKind {
    /// Its name as the index stores it (`accelerator`).
    pub fn key(self) -> &'static str {
        match self {
            HitKind::Accelerator => "accelerator",
            HitKind::Provider => "provider",
            HitKind::Offer => "offer",
        }
    }
}

/// A name the search index holds: an item's own, or an offer's instance
/// type or region (which bring the offers carrying it).
#[derive(Deserialize)]
struct IndexedName {
    kind: String,
    id: String,
    text: String,
}

impl IndexedName {
    /// The result it is, when it is one (instance types and regions are not).
    fn hit(self) -> Option<SearchHit> {
        let kind = match self.kind.as_str() {
            "accelerator" => HitKind::Accelerator,
            "provider" => HitKind::Provider,
            "offer" => HitKind::Offer,
            _ => return None,
        };
        Some(SearchHit { kind, id: self.id, text: self.text })
    }
}

/// One search result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct SearchHit {
    /// What it is.
    pub kind: HitKind,
    /// The item's id.
    pub id: String,
    /// The indexed text that matched: ids and names in English and Chinese.
    pub text: String,
}

impl Catalog {
    /// Full-text search over names in Chinese and English. Queries of three
    /// characters or more use the trigram index; shorter ones (two Chinese
    /// characters are common: 昇腾, 华为) fall back to a substring match.
    /// Accelerators and providers are hits themselves; each of them, and each
    /// matched instance type or region, also brings the offers that carry it.
    pub fn search(&self, text: &str) -> Result<Vec<SearchHit>, Error> {
        const LIMIT: usize = 200;
        let q = text.trim();
        if q.is_empty() {
            return Ok(Vec::new());
        }
        let names: Vec<IndexedName> = if q.chars().count() >= 3 {
            let phrase = format!("\"{}\"", q.replace('"', "\"\""));
            store::select(
                self.connection(),
                "SELECT kind, item_id AS id, text FROM search WHERE search MATCH ?1 ORDER BY rank",
                params![phrase],
            )?
        } else {
            let pattern = format!("%{}%", q.replace('\\', "\\\\").replace('%', "\\%").replace('_', "\\_"));
            store::select(
                self.connection(),
                "SELECT kind, item_id AS id, text FROM search WHERE text LIKE ?1 ESCAPE '\\' ORDER BY kind, item_id",
                params![pattern],
            )?
        };
        let matched = |kind: &str| -> Result<String, Error> {
            Ok(serde_json::to_string(&names.iter().filter(|h| h.kind == kind).map(|h| &h.id).collect::<Vec<_>>())?)
        };
        let (providers, accelerators) = (matched("provider")?, matched("accelerator")?);
        let (instances, regions) = (matched("instance")?, matched("region")?);
        let mut hits: Vec<SearchHit> = names.into_iter().filter_map(IndexedName::hit).take(LIMIT).collect();
        let mut seen: BTreeSet<String> =
            hits.iter().filter(|h| h.kind == HitKind::Offer).map(|h| h.id.clone()).collect();
        // The user's own offer first, then an import's, then the catalogue's: the one an id shows.
        for table in ["pricebook_offers", "imported_offers", "offers"] {
            if hits.len() >= LIMIT {
                break;
            }
            let offers: Vec<SearchHit> = store::select(
                self.connection(),
                &format!(
                    "SELECT 'offer' AS kind, o.id, {OFFER_TEXT} AS text FROM {table} o {OFFER_JOINS}
                     WHERE o.provider_id IN (SELECT value FROM json_each(?1)) OR o.accelerator_id IN (SELECT value FROM json_each(?2))
                        OR o.instance IN (SELECT value FROM json_each(?3)) OR o.region IN (SELECT value FROM json_each(?4))
                     ORDER BY o.id LIMIT {LIMIT}"
                ),
                params![providers, accelerators, instances, regions],
            )?;
            for h in offers {
                if hits.len() < LIMIT && seen.insert(h.id.clone()) {
                    hits.push(h);
                }
            }
        }
        Ok(hits)
    }
}

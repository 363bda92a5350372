//! The full-text search index: which names of offers it holds, and its rebuild.

use rusqlite::{Connection, params};

use crate::Error;
use crate::rows::Offer;

/// Reads one of an offer's names.
pub(crate) type OfferName = fn(&Offer) -> Option<&str>;

/// Offers' names the search index holds, by kind (the column of that
/// name): each name once, however many offers carry it. `search` turns a
/// matched name into its offers.
pub(crate) const OFFER_NAMES: [(&str, OfferName); 2] =
    [("instance", |o| o.instance.as_deref()), ("region", |o| o.region.as_deref())];

/// The instance types and regions of `offers` (just imported), each kind's
/// distinct names as a JSON array, for [`index_offer_names`].
pub(crate) fn offer_names(offers: &[&Offer]) -> Result<Vec<(&'static str, String)>, Error> {
    let mut out = Vec::with_capacity(OFFER_NAMES.len());
    for (kind, name) in OFFER_NAMES {
        let distinct: foldhash::HashSet<&str> =
            offers.iter().filter_map(|o| name(o)).filter(|n| !n.is_empty()).collect();
        let mut names: Vec<&str> = distinct.into_iter().collect();
        names.sort_unstable();
        out.push((kind, serde_json::to_string(&names)?));
    }
    Ok(out)
}

/// Adds to the search index the names of [`offer_names`] that it does not
/// hold yet; a name no offer carries any more finds nothing, so nothing is
/// taken out. One statement per kind: FTS5 flushes its pending terms at
/// every statement.
pub(crate) fn index_offer_names(conn: &Connection, names: &[(&str, String)]) -> Result<(), Error> {
    for (kind, json) in names {
        conn.prepare_cached(&format!(
            "INSERT INTO search (item_id, kind, text)
               SELECT value, '{kind}', value FROM json_each(?1)
               WHERE value NOT IN (SELECT item_id FROM search WHERE kind = '{kind}')"
        ))?
        .execute(params![json])?;
    }
    Ok(())
}

/// The searchable text of an offer `o`, joined with its provider `p` and
/// accelerator `a`: the one rule for what an offer is found by.
pub(crate) const OFFER_TEXT: &str = "concat_ws(' ', o.id, o.instance, o.region, p.name, p.name_zh, a.name, a.name_zh)";
pub(crate) const OFFER_JOINS: &str =
    "LEFT JOIN providers p ON p.id = o.provider_id LEFT JOIN accelerators a ON a.id = o.accelerator_id";

/// Rebuilds the full-text index: accelerators and providers by their names
/// in Chinese and English, offers' instance types and regions once each,
/// and the user's own offers one by one (the id is the user's name for one).
pub(crate) fn rebuild_search(conn: &Connection) -> Result<(), Error> {
    conn.execute_batch(&format!(
        "DELETE FROM search;
         INSERT INTO search (item_id, kind, text)
           SELECT id, 'accelerator', concat_ws(' ', id, vendor, vendor_zh, name, name_zh, software_stack) FROM accelerators;
         INSERT INTO search (item_id, kind, text)
           SELECT id, 'provider', concat_ws(' ', id, name, name_zh, country) FROM providers;
         INSERT INTO search (item_id, kind, text)
           SELECT o.id, 'offer', concat_ws(' ', {OFFER_TEXT}, 'pricebook 价格簿') FROM pricebook_offers o {OFFER_JOINS};"
    ))?;
    for (kind, _) in OFFER_NAMES {
        conn.execute_batch(&format!(
            "INSERT INTO search (item_id, kind, text)
               SELECT name, '{kind}', name FROM (
                 SELECT {kind} AS name FROM offers UNION SELECT {kind} FROM imported_offers
                 UNION SELECT {kind} FROM pricebook_offers)
               WHERE coalesce(name, '') <> ''"
        ))?;
    }
    Ok(())
}

//! The shared landing: a feed's parsed rows checked against the catalogue and
//! written in one transaction, and the pieces every parser uses (rejections, id slugs).

use std::collections::BTreeMap;

use foldhash::{HashMap, HashMapExt, HashSet};

use super::{FIELD_MAX_BYTES, ImportReport, Skipped};
use crate::check::{Checker, Problem, RowError};
use crate::rows::Offer;
use crate::{ChangeScope, Error, index_offer_names, offer_names, record_change_with, store};
/// Offers a small import looks up one by one; a larger one reads both tables once.
const LOOKUP_MAX: usize = 1_000;

/// What each of `ids` showed before this import: an earlier import's offer,
/// else the catalogue's (ids shown by neither are absent).
fn offers_before<'a>(
    tx: &rusqlite::Transaction<'_>,
    ids: impl ExactSizeIterator<Item = &'a str>,
) -> Result<HashMap<String, Offer>, Error> {
    let mut before: HashMap<String, Offer> = HashMap::new();
    if ids.len() > LOOKUP_MAX {
        // The catalogue first, so that an earlier import's row replaces it.
        for sql in ["SELECT * FROM offers", "SELECT * FROM imported_offers"] {
            for o in store::select::<Offer, _>(tx, sql, [])? {
                before.insert(o.id.clone(), o);
            }
        }
        return Ok(before);
    }
    for id in ids {
        for sql in ["SELECT * FROM imported_offers WHERE id = ?1", "SELECT * FROM offers WHERE id = ?1"] {
            if let Some(o) = store::select::<Offer, _>(tx, sql, [id])?.pop() {
                before.insert(o.id.clone(), o);
                break;
            }
        }
    }
    Ok(before)
}

/// The first field of a record over `FIELD_MAX_BYTES`, as a rejection.
pub(super) fn field_too_long(record: &csv::StringRecord, headers: &csv::StringRecord, line: usize) -> Option<RowError> {
    let (i, value) = record.iter().enumerate().find(|(_, v)| v.len() > FIELD_MAX_BYTES)?;
    Some(reject(
        line,
        "",
        headers.get(i).unwrap_or(""),
        &crate::check::too_long(value),
        Problem::TooLong { limit: FIELD_MAX_BYTES },
    ))
}

/// Checks the parsed rows against the catalogue and lands the valid ones,
/// inside the caller's transaction.
pub(super) fn land(
    tx: &rusqlite::Transaction<'_>,
    providers: &[String],
    accelerators: &[String],
    parsed: Parsed,
    label: &str,
    now: &str,
) -> Result<ImportReport, Error> {
    let providers: HashSet<&str> = providers.iter().map(String::as_str).collect();
    let accelerators: HashSet<&str> = accelerators.iter().map(String::as_str).collect();
    let mut c = Checker::new();
    let mut seen = HashMap::with_capacity(parsed.offers.len());
    let mut whole = Vec::with_capacity(parsed.offers.len());
    for (line, offer, parsed_whole) in &parsed.offers {
        let before = c.errors.len();
        c.at("import", Some(*line), &offer.id);
        c.id(&mut seen, &offer.id);
        c.offer(offer);
        if !providers.contains(offer.provider_id.as_str()) {
            c.fail("provider_id", &offer.provider_id, Problem::NoSuchRow { table: "providers" });
        }
        if let Some(a) = &offer.accelerator_id
            && !accelerators.contains(a.as_str())
        {
            c.fail("accelerator_id", a, Problem::NoSuchRow { table: "accelerators" });
        }
        whole.push(c.errors.len() == before && *parsed_whole);
    }
    drop(seen);
    let valid: Vec<(usize, &Offer)> =
        parsed.offers.iter().zip(whole).filter(|(_, ok)| *ok).map(|((line, o, _), _)| (*line, o)).collect();
    let mut rejected = parsed.rejected;
    rejected.extend(c.errors);
    rejected.sort_by_key(|e| e.line);

    let before = offers_before(tx, valid.iter().map(|(_, o)| o.id.as_str()))?;
    let mut landed_lines: Vec<usize> = Vec::with_capacity(parsed.offers.len());
    let mut written: Vec<&Offer> = Vec::with_capacity(parsed.offers.len());
    let mut old: Vec<&Offer> = Vec::new();
    let mut unchanged = 0;
    for (line, o) in valid {
        landed_lines.push(line);
        match before.get(&o.id) {
            // Identical data changes nothing, its source and date included.
            Some(b) if b == o => unchanged += 1,
            Some(b) => {
                old.push(b);
                written.push(o);
            }
            None => written.push(o),
        }
    }
    landed_lines.sort_unstable();
    landed_lines.dedup();
    let change = if written.is_empty() {
        None
    } else {
        let summary =
            record_change_with(tx, crate::ChangeKind::Import, label, None, now, &old, &written, ChangeScope::Import)?;
        // A new offer is marked with this change; a repriced one keeps its mark.
        // In id order, the id index is appended to rather than split.
        written = in_id_order(written);
        let marked = written.iter().map(|o| (*o, (!before.contains_key(&o.id)).then_some(summary.id)));
        // The names for the search index are gathered on another thread while the rows are written.
        let names = std::thread::scope(|s| {
            let names = s.spawn(|| offer_names(&written));
            store::upsert_rows(tx, "imported_offers", "_added_change", marked)?;
            names.join().unwrap_or_else(|e| std::panic::resume_unwind(e))
        })?;
        index_offer_names(tx, &names)?;
        Some(summary)
    };
    let mut unknown_names: Vec<(String, usize)> = parsed.unknown_names.into_iter().collect();
    unknown_names.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    Ok(ImportReport {
        rows: parsed.rows,
        rows_landed: landed_lines.len(),
        rows_reported: parsed.rows - landed_lines.len(),
        imported: written.len(),
        unchanged,
        rejected,
        skipped: parsed.skipped,
        unknown_names,
        change,
    })
}

/// `offers` in id order: many are sorted in two halves on two threads and merged.
fn in_id_order(mut offers: Vec<&Offer>) -> Vec<&Offer> {
    let by_id = |a: &&Offer, b: &&Offer| a.id.cmp(&b.id);
    if offers.len() < 10_000 {
        offers.sort_unstable_by(by_id);
        return offers;
    }
    let n = offers.len();
    let (left, right) = offers.split_at_mut(n / 2);
    std::thread::scope(|s| {
        s.spawn(|| left.sort_unstable_by(by_id));
        right.sort_unstable_by(by_id);
    });
    let mut merged = Vec::with_capacity(n);
    let (mut i, mut j) = (0, 0);
    while i < left.len() && j < right.len() {
        if left[i].id <= right[j].id {
            merged.push(left[i]);
            i += 1;
        } else {
            merged.push(right[j]);
            j += 1;
        }
    }
    merged.extend_from_slice(&left[i..]);
    merged.extend_from_slice(&right[j..]);
    merged
}

#[derive(Debug, Default, PartialEq)]
pub(super) struct Parsed {
    pub(super) rows: usize,
    /// (line, offer, whether every field parsed)
    pub(super) offers: Vec<(usize, Offer, bool)>,
    pub(super) rejected: Vec<RowError>,
    pub(super) skipped: Vec<Skipped>,
    pub(super) unknown_names: BTreeMap<String, usize>,
}

impl Parsed {
    /// Adds what was read after this, its lines counted on from this one's rows.
    pub(super) fn append(&mut self, after: Parsed) {
        let shift = self.rows;
        self.rows += after.rows;
        self.offers.extend(after.offers.into_iter().map(|(line, o, whole)| (line + shift, o, whole)));
        self.rejected.extend(after.rejected.into_iter().map(|e| RowError { line: e.line.map(|l| l + shift), ..e }));
        self.skipped.extend(after.skipped.into_iter().map(|k| Skipped { line: k.line + shift, ..k }));
        for (name, rows) in after.unknown_names {
            *self.unknown_names.entry(name).or_insert(0) += rows;
        }
    }
}

pub(super) fn reject(line: usize, id: &str, field: &str, value: &str, problem: Problem) -> RowError {
    RowError {
        table: "import",
        line: Some(line),
        id: id.to_owned(),
        field: field.to_owned(),
        value: value.to_owned(),
        problem,
    }
}

/// A readable, stable id piece: lowercase ASCII letters, digits and dashes.
pub(super) fn slug(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    push_slug(&mut out, s);
    out
}

/// [`slug`] of `s`, written at the end of `out`: a run of anything other
/// than an ASCII letter or digit is one dash, and none leads or trails.
pub(super) fn push_slug(out: &mut String, s: &str) {
    let start = out.len();
    for ch in s.chars() {
        if ch.is_ascii_alphanumeric() {
            out.push(ch.to_ascii_lowercase());
        } else if out.len() > start && !out.ends_with('-') {
            out.push('-');
        }
    }
    if out.len() > start && out.ends_with('-') {
        out.pop();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slugs_are_readable_ids() {
        assert_eq!(slug("Standard_ND96isr_H100_v5"), "standard-nd96isr-h100-v5");
        assert_eq!(slug("  gpu_8x_a100 "), "gpu-8x-a100");
    }

    #[test]
    fn many_offers_sorted_on_two_threads_are_in_id_order() {
        let one = crate::bundled::tables().unwrap().offers.swap_remove(0);
        // Ids out of order, with repeats and shared prefixes, both sides of the split.
        let offers: Vec<Offer> = (0..25_001_u64)
            .map(|i| Offer { id: format!("aws-p5-{}", i.wrapping_mul(7_919) % 12_007), ..one.clone() })
            .collect();
        let sorted = in_id_order(offers.iter().collect());
        let mut expected: Vec<&str> = offers.iter().map(|o| o.id.as_str()).collect();
        expected.sort_unstable();
        assert_eq!(sorted.iter().map(|o| o.id.as_str()).collect::<Vec<_>>(), expected);
    }
}

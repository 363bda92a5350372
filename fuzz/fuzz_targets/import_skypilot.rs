#![no_main]
//! Any bytes as a skypilot price feed: a report or an error, never a panic,
//! and the database stays sound.
//!
//! One catalogue serves every input; what an input imported is taken out
//! again, so the catalogue does not grow from run to run (it did: every
//! accepted input added rows that each later import read back and indexed,
//! and runs slowed to a few dozen inputs a second).
use std::sync::{Mutex, OnceLock};

use libfuzzer_sys::fuzz_target;
use suanli_catalog::Catalog;
use suanli_catalog::import::{Format, Provenance};

fn catalog() -> &'static Mutex<Catalog> {
    static CATALOG: OnceLock<Mutex<Catalog>> = OnceLock::new();
    CATALOG.get_or_init(|| Mutex::new(Catalog::open_in_memory("2026-11-30T00:00:00Z").expect("catalogue").0))
}

fuzz_target!(|data: &[u8]| {
    let provenance = Provenance {
        source: "fuzz".into(),
        as_of: Some("2026-11-30".into()),
        confidence: suanli_catalog::Confidence::A,
    };
    let mut c = catalog().lock().unwrap_or_else(|e| e.into_inner());
    let result = c.import(&Format::Skypilot { provider: "lambda".into() }, data, &provenance, "2026-11-30T00:00:00Z");
    // A refused import wrote nothing; one that landed must leave the file sound.
    if result.as_ref().is_ok_and(|r| r.change.is_some()) {
        // Every input that landed: the file sound and every foreign key kept
        // (the full integrity_check, index by index, took half of each run).
        assert!(c.quick_check_ok().unwrap_or(false));
        c.connection()
            .execute_batch(
                "DELETE FROM price_history WHERE change_id IN (SELECT id FROM catalog_changes WHERE kind = 'import');
                 DELETE FROM imported_offers;
                 DELETE FROM catalog_changes WHERE kind = 'import';",
            )
            .expect("reset");
    }
});

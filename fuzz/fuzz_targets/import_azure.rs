#![no_main]
//! Any bytes as a azure price feed: a report or an error, never a panic,
//! and the database stays sound.
use std::sync::{Mutex, OnceLock};

use libfuzzer_sys::fuzz_target;
use suanli_catalog::Catalog;
use suanli_catalog::import::{Format, Provenance};

fn catalog() -> &'static Mutex<Catalog> {
    static CATALOG: OnceLock<Mutex<Catalog>> = OnceLock::new();
    CATALOG.get_or_init(|| Mutex::new(Catalog::open_in_memory("2026-11-30T00:00:00Z").expect("catalogue").0))
}

fuzz_target!(|data: &[u8]| {
    let provenance = Provenance { source: "fuzz".into(), as_of: "2026-11-30".into(), confidence: "A".into() };
    let mut c = catalog().lock().unwrap_or_else(|e| e.into_inner());
    let _ = c.import(&Format::AzureRetail, data, &provenance, "2026-11-30T00:00:00Z");
    assert!(c.integrity_ok().unwrap_or(false));
});

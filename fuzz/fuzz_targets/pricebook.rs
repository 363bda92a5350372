#![no_main]
//! Any bytes as a price-book file: imported whole, or refused whole.
use std::sync::{Mutex, OnceLock};

use libfuzzer_sys::fuzz_target;
use suanli_catalog::Catalog;
use suanli_catalog::pricebook::PriceBookFile;

fn catalog() -> &'static Mutex<Catalog> {
    static CATALOG: OnceLock<Mutex<Catalog>> = OnceLock::new();
    CATALOG.get_or_init(|| Mutex::new(Catalog::open_in_memory("2026-11-30T00:00:00Z").expect("catalogue").0))
}

fuzz_target!(|data: &[u8]| {
    if let Ok(file) = serde_json::from_slice::<PriceBookFile>(data) {
        let mut c = catalog().lock().unwrap_or_else(|e| e.into_inner());
        let before = c.pricebook_offers().map(|o| o.len()).unwrap_or(0);
        match c.import_pricebook(&file) {
            Ok(_) => {}
            Err(_) => assert_eq!(
                c.pricebook_offers().map(|o| o.len()).unwrap_or(0),
                before,
                "a refused import changed the book"
            ),
        }
    }
});

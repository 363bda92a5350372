//! The catalogue as the app and the CLI use it, on temporary databases.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod bundled;
mod china;
mod database;
mod feeds;
mod import;
mod pack;
mod pricebook;
mod query;
mod ratios;
mod serving;
mod update;

use suanli_catalog::Catalog;

pub const NOW: &str = "2026-11-30T10:00:00Z";

pub fn fresh() -> Catalog {
    Catalog::open_in_memory(NOW).unwrap().0
}

/// A file of `tests/fixtures`.
pub fn fixture(name: &str) -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures").join(name)
}

//! Cross-crate tests live in this package's test targets (`golden/`).
//! The library itself is empty.

#![no_main]
//! Any bytes as a pack and its signature: verification refuses or accepts,
//! never panics. The input is split at the first 0xFF byte: pack, then signature.
use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use suanli_catalog::pack::{self, VerifyOptions};

fn key() -> &'static Vec<pack::TrustedKey> {
    static KEY: OnceLock<Vec<pack::TrustedKey>> = OnceLock::new();
    KEY.get_or_init(|| {
        let line = pack::public_key_line(&pack::keygen().expect("key").0);
        vec![pack::TrustedKey { key_id: pack::key_id(&line).expect("key id"), public_key: line, label: None }]
    })
}

fuzz_target!(|data: &[u8]| {
    let (bytes, sig) = match data.iter().position(|b| *b == 0xFF) {
        Some(i) => (&data[..i], std::str::from_utf8(&data[i + 1..]).ok()),
        None => (data, None),
    };
    let options = VerifyOptions { trusted_keys: key(), allow_unsigned: sig.is_none(), installed: Some(1) };
    let _ = pack::verify(bytes, sig, &options);
});

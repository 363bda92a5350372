#![no_main]
//! Any bytes as a scenario file: an error or a result, never a panic.
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data)
        && let Ok(s) = suanli_api::parse_scenario(text)
    {
        let _ = suanli_api::evaluate(&s);
    }
});

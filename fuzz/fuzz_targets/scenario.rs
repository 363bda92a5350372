#![no_main]
//! Any bytes as a scenario file: an error or a result, never a panic; and
//! what passes the rules goes to JSON (which refuses non-finite figures).
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data)
        && let Ok(s) = suanli_api::parse_scenario(text)
    {
        let e = suanli_api::evaluate(&s);
        assert!(
            suanli_api::evaluation_json(&e, suanli_api::Lang::En).is_ok(),
            "a checked scenario gave a non-finite figure"
        );
    }
});

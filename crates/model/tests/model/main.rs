//! Integration tests of the cost engine, one binary, laid out by theme.

// Tests may panic: a panic is how a test fails.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod analytics;
mod bad_input;
mod business;
mod decision;
mod finite;
mod fit;
mod formatting;
mod golden;
mod mechanics;
mod properties;
mod silent;

use suanli_model::{Checked, Evaluation, OptionResult, Scenario};

/// Parses a scenario written as TOML (the file format) and evaluates it.
pub fn eval(toml_text: &str) -> Evaluation {
    let scenario: Scenario = toml::from_str(toml_text).unwrap_or_else(|e| panic!("test scenario does not parse: {e}"));
    Checked::new(scenario).unwrap_or_else(|e| panic!("test scenario is invalid: {e:?}")).into_evaluation()
}

pub fn option<'a>(e: &'a Evaluation, id: &str) -> &'a OptionResult {
    e.option(id).unwrap_or_else(|| panic!("no option {id}"))
}

/// Asserts |actual − expected| ≤ tolerance × max(1, |expected|).
#[track_caller]
pub fn assert_close(actual: f64, expected: f64, tolerance: f64) {
    let scale = expected.abs().max(1.0);
    assert!(
        (actual - expected).abs() <= tolerance * scale,
        "expected {expected}, got {actual} (relative tolerance {tolerance})"
    );
}

//! Scenario files: TOML text into a validated [`Scenario`].

use suanli_model::{Checked, Scenario};

use crate::Error;

/// Parses scenario text and checks every rule; the error names the field
/// path, the value and what is allowed.
pub fn parse_scenario(text: &str) -> Result<Checked<Scenario>, Error> {
    crate::check(parse_scenario_unvalidated(text)?)
}

/// Parses without checking the rules (catalogue references are resolved
/// first, then the rules are checked).
pub(crate) fn parse_scenario_unvalidated(text: &str) -> Result<Scenario, Error> {
    let deserializer = toml::de::Deserializer::parse(text).map_err(|e| parse_error(text, "", &e))?;
    serde_path_to_error::deserialize(deserializer).map_err(|e| parse_error(text, &e.path().to_string(), e.inner()))
}

fn parse_error(text: &str, path: &str, e: &toml::de::Error) -> Error {
    let offset = e.span().map_or(0, |s| s.start).min(text.len());
    let before = &text[..floor_char_boundary(text, offset)];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    Error::Parse { path: path.to_owned(), line, column, message: e.message().trim().to_owned() }
}

fn floor_char_boundary(text: &str, mut i: usize) -> usize {
    while i > 0 && !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

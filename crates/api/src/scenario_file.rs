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
    serde_path_to_error::deserialize(deserializer).map_err(|e| {
        let path = e.path().to_string();
        let path = inside_tagged(text, &path).unwrap_or(path);
        let path = named_key(&path, e.inner().message());
        parse_error(text, &path, e.inner())
    })
}

/// The path of an error at a map key the parser could not read ends in
/// `?` (`fx.?`); the parser's message names the key (unknown variant
/// `XYZ`), so the path can too (`fx.XYZ`).
fn named_key(path: &str, message: &str) -> String {
    let key = message.strip_prefix("unknown variant `").and_then(|m| m.split_once('`')).map(|(k, _)| k);
    match (path.strip_suffix('?'), key) {
        (Some(head), Some(key)) => format!("{head}{key}"),
        _ => path.to_owned(),
    }
}

/// A tagged section (`[demand]` by `kind`, an uncertainty `range` by
/// `dist`) is read whole before its variant is known, so the path of an
/// error inside it ends at the section. Reading the section again as its
/// variant gives the rest: `demand.monthly_ref_gpus[3]`.
fn inside_tagged(text: &str, path: &str) -> Option<String> {
    use suanli_model::{Job, Portfolio, Profile};
    let doc: toml::Table = text.parse().ok()?;
    let (value, tag) = if path == "demand" {
        (doc.get("demand")?.clone(), "kind")
    } else {
        let i: usize = path.strip_prefix("uncertainty[")?.strip_suffix("].range")?.parse().ok()?;
        (doc.get("uncertainty")?.as_array()?.get(i)?.get("range")?.clone(), "dist")
    };
    let mut table = value.as_table()?.clone();
    let variant = table.remove(tag)?.as_str()?.to_owned();
    let inner = toml::Value::Table(table);
    fn path_in<T: serde::de::DeserializeOwned>(v: toml::Value) -> Option<String> {
        serde_path_to_error::deserialize::<_, T>(v).err().map(|e| e.path().to_string())
    }
    let rest = match (tag, variant.as_str()) {
        ("kind", "job") => path_in::<Job>(inner),
        ("kind", "profile") => path_in::<Profile>(inner),
        ("kind", "portfolio") => path_in::<Portfolio>(inner),
        // Every field of a distribution is a number: the first that is not.
        ("dist", _) => {
            inner.as_table()?.iter().find(|(_, v)| !(v.is_float() || v.is_integer())).map(|(k, _)| k.clone())
        }
        _ => None,
    }?;
    (rest != ".").then(|| format!("{path}.{rest}"))
}

fn parse_error(text: &str, path: &str, e: &toml::de::Error) -> Error {
    let span = e.span();
    let offset = span.as_ref().map_or(0, |s| s.start).min(text.len());
    let before = &text[..floor_char_boundary(text, offset)];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    let mut message = e.message().trim().to_owned();
    // toml says "duplicate key" and points at it: say which, and where.
    if message == "duplicate key"
        && let Some(key) = span.and_then(|s| text.get(s)).map(str::trim).filter(|k| !k.is_empty())
    {
        let table = before.lines().rev().map(str::trim).find(|l| l.starts_with('[')).map_or(String::new(), |l| {
            let close = if l.starts_with("[[") { "]]" } else { "]" };
            let header = l.find(close).map_or(l, |end| &l[..end + close.len()]);
            format!(" in {header}")
        });
        message = format!("duplicate key `{key}`{table}");
    }
    Error::Parse { path: path.to_owned(), line, column, message }
}

fn floor_char_boundary(text: &str, mut i: usize) -> usize {
    while i > 0 && !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

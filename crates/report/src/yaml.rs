//! A small YAML writer for JSON values: block style, every string value
//! quoted (so `on`, `no`, `1e3` or `08` are never read as something else);
//! a key is quoted unless it is a non-empty run of ASCII letters, digits,
//! `_` and `-`.

use serde_json::Value;

pub fn to_yaml(v: &Value) -> String {
    let mut out = String::new();
    write(&mut out, v, 0);
    if !out.ends_with('\n') {
        out.push('\n');
    }
    out
}

fn quote(s: &str) -> String {
    // JSON string syntax is valid YAML double-quoted syntax.
    serde_json::to_string(s).unwrap_or_else(|_| "\"\"".to_owned())
}

fn scalar(v: &Value) -> Option<String> {
    match v {
        Value::Null => Some("null".into()),
        Value::Bool(b) => Some(b.to_string()),
        Value::Number(n) => Some(n.to_string()),
        Value::String(s) => Some(quote(s)),
        Value::Array(a) if a.is_empty() => Some("[]".into()),
        Value::Object(o) if o.is_empty() => Some("{}".into()),
        _ => None,
    }
}

fn write(out: &mut String, v: &Value, indent: usize) {
    let pad = " ".repeat(indent);
    match v {
        Value::Object(map) => {
            for (k, val) in map {
                let key = if k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-') && !k.is_empty() {
                    k.clone()
                } else {
                    quote(k)
                };
                match scalar(val) {
                    Some(s) => out.push_str(&format!("{pad}{key}: {s}\n")),
                    None => {
                        out.push_str(&format!("{pad}{key}:\n"));
                        write(out, val, indent + 2);
                    }
                }
            }
        }
        Value::Array(items) => {
            for item in items {
                match scalar(item) {
                    Some(s) => out.push_str(&format!("{pad}- {s}\n")),
                    None => {
                        // The first line of the item goes after the dash.
                        let mut inner = String::new();
                        write(&mut inner, item, indent + 2);
                        let trimmed = inner.trim_start_matches(' ');
                        out.push_str(&format!("{pad}- {trimmed}"));
                    }
                }
            }
        }
        other => {
            if let Some(s) = scalar(other) {
                out.push_str(&format!("{pad}{s}\n"));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_block_yaml_with_quoted_strings() {
        let v = serde_json::json!({
            "apiVersion": "batch/v1",
            "spec": {"limits": {"nvidia.com/gpu": 8}, "args": ["a", "on"], "items": [{"name": "x", "n": 1}], "empty": []}
        });
        assert_eq!(
            to_yaml(&v),
            "apiVersion: \"batch/v1\"\nspec:\n  args:\n    - \"a\"\n    - \"on\"\n  empty: []\n  items:\n    - n: 1\n      name: \"x\"\n  limits:\n    \"nvidia.com/gpu\": 8\n"
        );
    }
}

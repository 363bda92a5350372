//! Every input of a scenario with its source, or marked as the user's
//! assumption: the proposal's appendix and the spreadsheet's last sheet.

use serde_json::Value;
use suanli_model::{Lang, Scenario};

fn value_text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Array(a) if a.len() > 6 => {
            let nums: Vec<f64> = a.iter().filter_map(Value::as_f64).collect();
            let (lo, hi) = nums.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), x| (l.min(*x), h.max(*x)));
            if nums.len() == a.len() {
                format!("{} values, {lo} … {hi}", a.len())
            } else {
                format!("{} values", a.len())
            }
        }
        other => other.to_string(),
    }
}

/// Flattens a JSON value into `(path, text)` leaves.
fn leaves(prefix: &str, v: &Value, out: &mut Vec<(String, String)>) {
    match v {
        Value::Object(map) => {
            for (k, val) in map {
                leaves(&if prefix.is_empty() { k.clone() } else { format!("{prefix}.{k}") }, val, out);
            }
        }
        Value::Null => {}
        Value::Array(a) if a.is_empty() => {}
        Value::Array(a) if a.iter().any(|x| x.is_object()) => {
            for (i, x) in a.iter().enumerate() {
                leaves(&format!("{prefix}[{i}]"), x, out);
            }
        }
        other => out.push((prefix.to_owned(), value_text(other))),
    }
}

/// `[input, value, source]` rows: scenario-level inputs, then each option's.
pub fn rows(s: &Scenario, lang: Lang) -> Vec<Vec<String>> {
    let assumed = lang.pick("user assumption", "用户假设");
    let default = lang.pick("default", "默认值");
    let mut out = Vec::new();
    let mut scenario = serde_json::to_value(s).unwrap_or(Value::Null);
    let mut options = Value::Null;
    if let Value::Object(map) = &mut scenario {
        options = map.remove("options").unwrap_or(Value::Null);
        for key in ["name", "description", "fx_source", "uncertainty", "optimise"] {
            map.remove(key);
        }
    }
    let mut top = Vec::new();
    leaves("", &scenario, &mut top);
    for (path, value) in top {
        let source = if path.starts_with("fx.") && !s.fx_source.is_empty() {
            s.fx_source.clone()
        } else if path.starts_with("scaling_curves") {
            s.scaling_curves.iter().map(|c| c.source.clone()).filter(|x| !x.is_empty()).collect::<Vec<_>>().join("; ")
        } else {
            assumed.to_owned()
        };
        let source = if source.is_empty() { assumed.to_owned() } else { source };
        out.push(vec![path, value, source]);
    }
    if let Value::Array(list) = options {
        for (o, spec) in list.iter().zip(&s.options) {
            let mut fields = Vec::new();
            let mut o = o.clone();
            if let Value::Object(map) = &mut o {
                for key in ["id", "label", "sources", "offer_filter"] {
                    map.remove(key);
                }
            }
            leaves("", &o, &mut fields);
            for (path, value) in fields {
                let last = path.rsplit('.').next().unwrap_or(&path).to_owned();
                let source =
                    spec.sources.get(&path).or_else(|| spec.sources.get(&last)).cloned().unwrap_or_else(|| {
                        if path == "kind" || path == "billing" { default.to_owned() } else { assumed.to_owned() }
                    });
                out.push(vec![format!("{} · {path}", spec.id), value, source]);
            }
        }
    }
    for u in &s.uncertainty {
        use suanli_model::Distribution as D;
        let range = match u.range {
            D::Uniform { low, high } => format!("uniform {low} – {high}"),
            D::Triangular { low, mode, high } => format!("triangular {low} / {mode} / {high}"),
            D::Pert { low, mode, high } => format!("PERT {low} / {mode} / {high}"),
            D::Lognormal { median, p90 } => format!("lognormal median {median}, P90 {p90}"),
            D::Bernoulli { probability } => format!("event, p = {probability}"),
        };
        let source = if u.source.is_empty() { assumed.to_owned() } else { u.source.clone() };
        out.push(vec![format!("range · {}", u.path), range, source]);
    }
    out
}

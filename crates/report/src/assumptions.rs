//! Every input of a scenario with its source, or marked as the user's
//! assumption: the proposal's appendix and the spreadsheet's last sheet.

use serde_json::Value;
use suanli_model::{Lang, OptionSpec, Scenario, format_number};

use crate::labels;

/// A figure as a reader writes it: thousands grouped, no trailing ".0".
fn number(x: f64) -> String {
    format_number(x, 6)
}

fn value_text(v: &Value, lang: Lang) -> String {
    match v {
        Value::String(s) => labels::value(s, lang),
        Value::Bool(b) => labels::value(if *b { "true" } else { "false" }, lang),
        Value::Number(n) => n.as_f64().map_or_else(|| n.to_string(), number),
        Value::Array(a) if a.len() > 6 => {
            let nums: Vec<f64> = a.iter().filter_map(Value::as_f64).collect();
            let (lo, hi) = nums.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), x| (l.min(*x), h.max(*x)));
            if nums.len() == a.len() {
                match lang {
                    Lang::Zh => format!("{} 个值，{} … {}", a.len(), number(lo), number(hi)),
                    Lang::En => format!("{} values, {} … {}", a.len(), number(lo), number(hi)),
                }
            } else {
                match lang {
                    Lang::Zh => format!("{} 个值", a.len()),
                    Lang::En => format!("{} values", a.len()),
                }
            }
        }
        Value::Array(a) => a.iter().map(|x| value_text(x, lang)).collect::<Vec<_>>().join(", "),
        other => other.to_string(),
    }
}

/// Flattens a JSON value into `(path, text)` leaves.
fn leaves(prefix: &str, v: &Value, lang: Lang, out: &mut Vec<(String, String)>) {
    match v {
        Value::Object(map) => {
            for (k, val) in map {
                leaves(&if prefix.is_empty() { k.clone() } else { format!("{prefix}.{k}") }, val, lang, out);
            }
        }
        Value::Null => {}
        Value::Array(a) if a.is_empty() => {}
        Value::Array(a) if a.iter().any(|x| x.is_object()) => {
            for (i, x) in a.iter().enumerate() {
                leaves(&format!("{prefix}[{i}]"), x, lang, out);
            }
        }
        // An id names a list entry (a job, a scaling curve); it is not an input.
        _ if prefix == "id" || prefix.ends_with(".id") => {}
        other => out.push((prefix.to_owned(), value_text(other, lang))),
    }
}

/// The source of an option's input (`path` within the option, e.g.
/// `owned.capex_per_server`), or "default" / "user assumption".
pub(crate) fn option_source(spec: &OptionSpec, path: &str, lang: Lang) -> String {
    let last = path.rsplit('.').next().unwrap_or(path);
    match spec.sources.get(path).or_else(|| spec.sources.get(last)) {
        Some(source) => labels::source(source, lang),
        None if path == "kind" || path == "billing" => lang.pick("default", "默认值").to_owned(),
        None => lang.pick("user assumption", "用户假设").to_owned(),
    }
}

/// The source of the exchange rates, or "user assumption".
pub(crate) fn fx_source(s: &Scenario, lang: Lang) -> String {
    if s.fx_source.is_empty() {
        lang.pick("user assumption", "用户假设").to_owned()
    } else {
        labels::source(&s.fx_source, lang)
    }
}

/// `[input, value, source]` rows: scenario-level inputs, then each option's,
/// then the uncertainty ranges.
pub fn rows(s: &Scenario, names: &crate::Names, lang: Lang) -> Vec<Vec<String>> {
    // A catalogue id anywhere in a value or a source (a derived ratio's
    // source names the accelerators it chains) is said by its name.
    id_rows(s, lang).into_iter().map(|row| row.into_iter().map(|cell| named_ids(&cell, names)).collect()).collect()
}

/// `text` with every token that is a catalogue id replaced by its name.
fn named_ids(text: &str, names: &crate::Names) -> String {
    if names.is_empty() {
        return text.to_owned();
    }
    let id_char = |c: char| c.is_ascii_alphanumeric() || c == '-' || c == '.' || c == '_';
    labels::map_words(text, id_char, |token, out| {
        // A sentence's full stop is not part of the id.
        let core = token.trim_end_matches('.');
        match names.get(core) {
            Some(name) => {
                out.push_str(name);
                out.push_str(&token[core.len()..]);
            }
            None => out.push_str(token),
        }
    })
}

fn id_rows(s: &Scenario, lang: Lang) -> Vec<Vec<String>> {
    let assumed = lang.pick("user assumption", "用户假设");
    let mut out = Vec::new();
    let mut scenario = serde_json::to_value(s).unwrap_or(Value::Null);
    let mut options = Value::Null;
    if let Value::Object(map) = &mut scenario {
        options = map.remove("options").unwrap_or(Value::Null);
        for key in ["name", "description", "fx_source", "uncertainty", "optimise"] {
            map.remove(key);
        }
        if let Some(Value::Object(energy)) = map.get_mut("energy") {
            energy.remove("source");
        }
    }
    let mut top = Vec::new();
    leaves("", &scenario, lang, &mut top);
    for (path, value) in top {
        let source = if path.starts_with("fx.") && !s.fx_source.is_empty() {
            s.fx_source.clone()
        } else if path.starts_with("energy.") {
            s.energy.as_ref().map(|en| en.source.clone()).unwrap_or_default()
        } else if path.starts_with("scaling_curves") {
            s.scaling_curves.iter().map(|c| c.source.clone()).filter(|x| !x.is_empty()).collect::<Vec<_>>().join("; ")
        } else {
            assumed.to_owned()
        };
        let source = if source.is_empty() { assumed.to_owned() } else { labels::source(&source, lang) };
        out.push(vec![labels::input(&path, s, lang), value, source]);
    }
    if let Value::Array(list) = options {
        for (o, spec) in list.iter().zip(&s.options) {
            let mut fields = Vec::new();
            let mut o = o.clone();
            if let Value::Object(map) = &mut o {
                for key in ["id", "label", "sources", "as_of", "offer_filter"] {
                    map.remove(key);
                }
            }
            leaves("", &o, lang, &mut fields);
            for (path, mut value) in fields {
                // The interconnect names a scaling curve by its id: say which one.
                if path == "interconnect"
                    && let Some(i) = s.scaling_curves.iter().position(|c| c.id == value)
                {
                    value = format!("{} #{}", labels::field("scaling_curves", lang), i + 1);
                }
                let source = option_source(spec, &path, lang);
                let label = labels::input(&format!("options.{}.{path}", spec.id), s, lang);
                out.push(vec![label, value, source]);
            }
        }
    }
    for u in &s.uncertainty {
        let range = range_text(&u.range, lang);
        let source = if u.source.is_empty() { assumed.to_owned() } else { labels::source(&u.source, lang) };
        let label = format!("{}{}", lang.pick("Range: ", "区间："), labels::input(&u.path, s, lang));
        out.push(vec![label, range, source]);
    }
    out
}

/// A range as a reader writes it ("triangular, low 1, most likely 2, high 4").
pub(crate) fn range_text(range: &suanli_model::Distribution, lang: Lang) -> String {
    use suanli_model::Distribution as D;
    let n = number;
    match (*range, lang) {
        (D::Uniform { low, high }, Lang::En) => format!("uniform, {} – {}", n(low), n(high)),
        (D::Uniform { low, high }, Lang::Zh) => format!("均匀分布，{} – {}", n(low), n(high)),
        (D::Triangular { low, mode, high }, Lang::En) => {
            format!("triangular, low {}, most likely {}, high {}", n(low), n(mode), n(high))
        }
        (D::Triangular { low, mode, high }, Lang::Zh) => {
            format!("三角分布，低 {}，最可能 {}，高 {}", n(low), n(mode), n(high))
        }
        (D::Pert { low, mode, high }, Lang::En) => {
            format!("PERT, low {}, most likely {}, high {}", n(low), n(mode), n(high))
        }
        (D::Pert { low, mode, high }, Lang::Zh) => {
            format!("PERT 分布，低 {}，最可能 {}，高 {}", n(low), n(mode), n(high))
        }
        (D::Lognormal { median, p90 }, Lang::En) => format!("lognormal, median {}, P90 {}", n(median), n(p90)),
        (D::Lognormal { median, p90 }, Lang::Zh) => format!("对数正态分布，中位数 {}，P90 {}", n(median), n(p90)),
        (D::Bernoulli { probability }, Lang::En) => format!("event with probability {}", n(probability)),
        (D::Bernoulli { probability }, Lang::Zh) => format!("发生概率为 {} 的事件", n(probability)),
    }
}

//! Every input of a scenario with its source, or marked as the user's
//! assumption: the proposal's appendix and the spreadsheet's last sheet.

use std::collections::BTreeSet;

use serde::Serialize;
use serde::de::DeserializeOwned;
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
/// `owned.capex_per_server`), or "user assumption".
pub(crate) fn option_source(spec: &OptionSpec, path: &str, lang: Lang) -> String {
    let last = path.rsplit('.').next().unwrap_or(path);
    match spec.sources.get(path).or_else(|| spec.sources.get(last)) {
        Some(source) => labels::source(source, lang),
        None => lang.pick("user assumption", "用户假设").to_owned(),
    }
}

/// An input left at Suanli's default, with the default's source where it has one.
pub(crate) fn default_source(path: &str, lang: Lang) -> String {
    let last = path.rsplit('.').next().unwrap_or(path);
    match (DEFAULT_SOURCES.iter().find(|(key, ..)| *key == last), lang) {
        // Through the reference book: a register section becomes "[n]".
        (Some((_, en, _)), Lang::En) => labels::source(&format!("Suanli default: {en}"), lang),
        (Some((_, _, zh)), Lang::Zh) => labels::source(&format!("Suanli 默认值：{zh}"), lang),
        (None, _) => lang.pick("Suanli default", "Suanli 默认值").to_owned(),
    }
}

/// Defaults that rest on a source, or whose meaning a reader needs (field, English, Chinese).
const DEFAULT_SOURCES: [(&str, &str, &str); 7] = [
    (
        "depreciation_years",
        "5 years, the low end of the 5–6 years hyperscalers depreciate servers over (gpu-facts 3F)",
        "5 年，取超大规模云厂商服务器折旧年限 5–6 年的下限（gpu-facts 3F）",
    ),
    ("residual", "book value, straight line over the depreciation life", "账面价值，按折旧年限直线折旧"),
    ("pue", "1, no facility overhead counted", "1，即不计机房能耗开销"),
    ("electricity_per_kwh", "0, electricity not counted", "0，即不计电费"),
    ("staff_per_year", "0, staff not counted", "0，即不计运维人员成本"),
    ("colocation_per_kw_month", "0, hosting not counted", "0，即不计机房托管费"),
    ("maintenance_share_per_year", "0, maintenance not counted", "0，即不计维保费"),
];

/// Paths of the leaves of `value` (objects only, `a.b.c`) that hold the
/// value `T` takes when the leaf is left out: inputs at their default.
fn defaulted<T: Serialize + DeserializeOwned>(value: &Value) -> BTreeSet<String> {
    let mut paths = Vec::new();
    object_leaves(&mut Vec::new(), value, &mut paths);
    let mut out = BTreeSet::new();
    for path in paths {
        let mut without = value.clone();
        let Some((last, parents)) = path.split_last() else { continue };
        let Some(Value::Object(map)) = parents.iter().try_fold(&mut without, |v, k| v.get_mut(k.as_str())) else {
            continue;
        };
        map.remove(last.as_str());
        let filled = serde_json::from_value::<T>(without).ok().and_then(|t| serde_json::to_value(t).ok());
        let at = |v: &Value| path.iter().try_fold(v, |v, k| v.get(k.as_str())).cloned();
        if filled.as_ref().and_then(at).is_some_and(|d| Some(d) == at(value)) {
            out.insert(path.join("."));
        }
    }
    out
}

fn object_leaves(prefix: &mut Vec<String>, v: &Value, out: &mut Vec<Vec<String>>) {
    if let Value::Object(map) = v {
        for (k, val) in map {
            prefix.push(k.clone());
            match val {
                Value::Object(_) => object_leaves(prefix, val, out),
                Value::Array(_) | Value::Null => {}
                _ => out.push(prefix.clone()),
            }
            prefix.pop();
        }
    }
}

/// Every scenario input left at Suanli's default: top-level paths
/// (`scheduling.base_above`) and option paths (`options.<id>.owned.pue`).
pub(crate) fn defaults(s: &Scenario) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    // The scenario's own scalars and sections, with a light demand and no
    // options (a long hourly profile is not copied once per input).
    if let Ok(Value::Object(mut top)) = serde_json::to_value(s) {
        let demand = top.insert(
            "demand".into(),
            serde_json::json!({ "kind": "job", "ref_gpu_hours": 1.0, "cluster_accelerators": 1 }),
        );
        top.insert("options".into(), Value::Array(Vec::new()));
        out.extend(defaulted::<Scenario>(&Value::Object(top)).into_iter().filter(|p| !p.starts_with("demand")));
        if let Some(d) = demand {
            let light = match d {
                Value::Object(mut m) => {
                    m.retain(|_, v| !v.is_array());
                    Value::Object(m)
                }
                other => other,
            };
            out.extend(defaulted::<suanli_model::Demand>(&light).into_iter().map(|p| format!("demand.{p}")));
        }
    }
    for o in &s.options {
        if let Ok(v) = serde_json::to_value(o) {
            out.extend(defaulted::<OptionSpec>(&v).into_iter().map(|p| format!("options.{}.{p}", o.id)));
        }
    }
    out
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
    let defaults = defaults(s);
    let mut out = Vec::new();
    let mut scenario = serde_json::to_value(s).unwrap_or(Value::Null);
    let mut options = Value::Null;
    if let Value::Object(map) = &mut scenario {
        options = map.remove("options").unwrap_or(Value::Null);
        for key in ["name", "description", "description_zh", "fx_source", "uncertainty", "optimise"] {
            map.remove(key);
        }
        if let Some(Value::Object(energy)) = map.get_mut("energy") {
            energy.remove("source");
        }
        if let Some(Value::Object(demand)) = map.get_mut("demand") {
            demand.remove("throughput_source");
        }
    }
    let mut top = Vec::new();
    leaves("", &scenario, lang, &mut top);
    for (path, value) in top {
        let source = if path.starts_with("fx.") && !s.fx_source.is_empty() {
            s.fx_source.clone()
        } else if path == "demand.tokens_per_second_per_ref_gpu" {
            // Stated, or estimated when the scenario was resolved (its method).
            match &s.demand {
                suanli_model::Demand::Inference(d) => d.throughput_source.clone(),
                _ => String::new(),
            }
        } else if path.starts_with("energy.") {
            s.energy.as_ref().map(|en| en.source.clone()).unwrap_or_default()
        } else if path.starts_with("scaling_curves") {
            s.scaling_curves
                .iter()
                .map(|c| labels::for_lang(&c.source, lang))
                .filter(|x| !x.is_empty())
                .collect::<Vec<_>>()
                .join("; ")
        } else {
            assumed.to_owned()
        };
        let source = match (source.is_empty(), defaults.contains(&path)) {
            (false, _) => labels::source(&source, lang),
            (true, true) => default_source(&path, lang),
            (true, false) => assumed.to_owned(),
        };
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
                let last = path.rsplit('.').next().unwrap_or(&path);
                let stated = spec.sources.contains_key(&path) || spec.sources.contains_key(last);
                let source = if !stated && defaults.contains(&format!("options.{}.{path}", spec.id)) {
                    default_source(&path, lang)
                } else {
                    option_source(spec, &path, lang)
                };
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

#[cfg(test)]
mod tests {
    use super::*;

    fn example(file: &str) -> Scenario {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/scenarios").join(file);
        toml::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
    }

    #[test]
    fn inputs_the_scenario_leaves_out_are_named_as_suanlis_defaults() {
        let s = example("ascend-910b-cluster.toml");
        let d = defaults(&s);
        // Left out: the scheduling rule, the residual basis and the depreciation life.
        for path in [
            "scheduling.base_above",
            "refresh.enabled",
            "options.ascend-910b-owned.owned.residual",
            "options.ascend-910b-owned.owned.depreciation_years",
        ] {
            assert!(d.contains(path), "{path}: {d:?}");
        }
        // Stated: the PUE (1.3), the price, the horizon.
        for path in [
            "options.ascend-910b-owned.owned.pue",
            "options.rent-a100.on_demand.price_per_accel_hour",
            "horizon_months",
        ] {
            assert!(!d.contains(path), "{path}");
        }
        // The appendix says so, with the default's source where it has one.
        let rows = rows(&s, &Default::default(), Lang::En);
        let row =
            |label: &str| rows.iter().find(|r| r[0].contains(label)).unwrap_or_else(|| panic!("{label}: {rows:?}"));
        assert!(
            row("depreciation").get(2).unwrap().starts_with("Suanli default: 5 years"),
            "{:?}",
            row("depreciation")
        );
        assert_eq!(
            row("Owned, residual").get(2).unwrap(),
            "Suanli default: book value, straight line over the depreciation life"
        );
        assert!(!row("Owned, PUE")[2].starts_with("Suanli default"), "stated with its source");
        let zh = super::rows(&s, &Default::default(), Lang::Zh);
        assert!(zh.iter().any(|r| r[2].starts_with("Suanli 默认值")), "{zh:?}");
    }
}

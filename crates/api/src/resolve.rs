//! Scenario options that name catalogue offers: `offer = "ID"` in a pool,
//! or `offer_filter = { ... }` on an option (one rent option per match).
//! Resolution fills in prices, currencies and sourced efficiency ratios
//! and writes where each came from into the option's `sources`.

use suanli_catalog::query::{Jurisdiction, OfferFilter, OfferSort, OfferView};
use suanli_catalog::{BillingMode, Catalog};
use suanli_model::inference::{BANDWIDTH_UTILISATION, FITTED, decode_throughput};
use suanli_model::{
    Currency, Demand, InputError, Lang, OfferSelector, OptionSpec, Rule, Scenario, Uncertain, WorkloadClass,
};
use suanli_plan::offer_option::{offer_option, spread_range};
use suanli_plan::provenance::{provenance, ratio_source};

use crate::Error;

/// True when the scenario names anything in the catalogue, or has an
/// option whose efficiency ratio the catalogue gives ([`ratio_wanted`]).
pub fn needs_catalog(s: &Scenario) -> bool {
    catalog_required(s) || ratio_wanted(s)
}

/// True when an option names an accelerator other than the reference GPU
/// and states no efficiency ratio, in a scenario with a workload class:
/// the catalogue's ratio for that class is taken rather than the default 1.
/// Without a catalogue, the scenario is still evaluated, and its result
/// notes the default ratio used.
pub fn ratio_wanted(s: &Scenario) -> bool {
    s.workload_class.is_some()
        && s.options
            .iter()
            .any(|o| o.efficiency_ratio.is_none() && o.accelerator.as_deref().is_some_and(|a| a != s.reference_gpu))
}

/// True when the scenario cannot be evaluated without the catalogue.
pub fn catalog_required(s: &Scenario) -> bool {
    let has_model = match &s.demand {
        Demand::Job(j) => j.parameters.is_some(),
        Demand::Inference(_) => true,
        _ => false,
    };
    let throughput_missing = matches!(&s.demand, Demand::Inference(d) if d.tokens_per_second_per_ref_gpu.is_none());
    throughput_missing
        || s.options.iter().any(|o| {
            o.offer_filter.is_some()
                || o.on_demand.as_ref().is_some_and(|p| p.offer.is_some())
                || o.reserved.as_ref().is_some_and(|p| p.offer.is_some())
                || o.spot.as_ref().is_some_and(|p| p.offer.is_some())
                || (has_model && o.accelerator.is_some() && o.memory_gb_per_accelerator.is_none())
        })
}

/// An inference demand without a stated throughput: the serving model's estimate
/// on the reference accelerator's catalogue specs, with where it came from.
pub(crate) fn estimate_throughput(s: &mut Scenario, c: &Catalog) -> Result<Option<Note>, Error> {
    let Demand::Inference(d) = &mut s.demand else { return Ok(None) };
    if d.tokens_per_second_per_ref_gpu.is_some() {
        return Ok(None);
    }
    let Some(r) = c.accelerator(&s.reference_gpu)? else { return Ok(None) };
    let Some(device) = r.serving_device(d.precision) else { return Ok(None) };
    let Some(t) = decode_throughput(d, &device) else { return Ok(None) };
    d.tokens_per_second_per_ref_gpu = Some(t.tokens_per_second_per_accelerator);
    let en = format!(
        "estimated: serving model on {} ({} TFLOPS, {} GB/s, {} GB; bandwidth used {:.0} %, compute {:.0} %, \
         {:.0} ms a step beyond both, as calibrated on MLPerf Inference): {} per replica, batch {}, {:.1} ms per token",
        r.id,
        device.dense_tflops,
        device.bandwidth_gbps,
        device.memory_gb,
        BANDWIDTH_UTILISATION * 100.0,
        FITTED.compute_utilisation * 100.0,
        FITTED.step_overhead_ms,
        t.accelerators_per_replica,
        t.batch,
        t.ms_per_token
    );
    // Both languages, "English / 中文": a report prints its own side.
    let zh = format!(
        "估算：按 {} 的推理服务模型（{} TFLOPS，{} GB/s，{} GB；带宽利用 {:.0} %，算力利用 {:.0} %，\
         每步另加 {:.0} 毫秒，按 MLPerf 推理基准校准）：每副本 {} 张卡，批大小 {}，每 token {:.1} 毫秒",
        r.id,
        device.dense_tflops,
        device.bandwidth_gbps,
        device.memory_gb,
        BANDWIDTH_UTILISATION * 100.0,
        FITTED.compute_utilisation * 100.0,
        FITTED.step_overhead_ms,
        t.accelerators_per_replica,
        t.batch,
        t.ms_per_token
    );
    d.throughput_source = format!("{en} / {zh}");
    let per_second = t.tokens_per_second_per_accelerator;
    Ok(Some(Note::scenario(
        format!("demand: {per_second:.0} output tokens per second per reference GPU ({en})"),
        format!("需求：每块参考 GPU 每秒 {per_second:.0} 个输出 token（{zh}）"),
    )))
}

fn reference_error(path: String, value: &str, problem: impl Into<String>) -> Error {
    Error::Reference { path, value: format!("{value:?}"), problem: problem.into() }
}

/// What resolving a scenario's catalogue references did or assumed, in
/// both languages, with the options it is about.
#[derive(Debug, Clone, PartialEq)]
pub struct Note {
    /// Ids of the resolved options it is about (none: the scenario's demand).
    pub option_ids: Vec<String>,
    en: String,
    zh: String,
}

impl Note {
    fn option(id: &str, en: String, zh: String) -> Note {
        Note { option_ids: vec![id.to_owned()], en, zh }
    }

    fn scenario(en: String, zh: String) -> Note {
        Note { option_ids: Vec::new(), en, zh }
    }

    /// The note in `lang`.
    pub fn describe(&self, lang: Lang) -> &str {
        lang.pick(&self.en, &self.zh)
    }

    /// The note as the editor shows it, in `lang`.
    pub fn to_json(&self, lang: Lang) -> NoteJson {
        NoteJson { option_ids: self.option_ids.clone(), text: self.describe(lang).to_owned() }
    }
}

/// A resolution note as the editor's results show it: on the cards of the
/// options it is about.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct NoteJson {
    /// Ids of the resolved options it is about (none: the scenario's demand).
    pub option_ids: Vec<String>,
    /// The note in the requested language.
    pub text: String,
}

/// A pool's name in a note.
fn pool_name(pool: &str, lang: Lang) -> &str {
    match (pool, lang) {
        (_, Lang::En) => pool,
        ("on_demand", Lang::Zh) => "按需",
        ("spot", Lang::Zh) => "竞价",
        ("reserved", Lang::Zh) => "预留",
        (other, Lang::Zh) => other,
    }
}

/// Resolves every catalogue reference in place; returns notes for the reader.
pub fn resolve_offers(s: &mut Scenario, c: &Catalog) -> Result<Vec<Note>, Error> {
    let mut notes = Vec::new();
    let filter = OfferFilter {
        workload_class: s.workload_class,
        // Compare offers in the scenario's currency at its own rates.
        currency: Some(s.currency),
        fx: s.fx.clone(),
        ..Default::default()
    };
    notes.extend(estimate_throughput(s, c)?);
    // First expand filters into options, in place and in order; then fill
    // each pool that names an offer.
    expand_filters(s, c, &filter, &mut notes)?;
    let (class, reference) = (s.workload_class, s.reference_gpu.clone());
    let mut ranges = Vec::new();
    for (i, o) in s.options.iter_mut().enumerate() {
        fill_option(i, o, c, &filter, (class, &reference), &mut notes, &mut ranges)?;
    }
    // A range the scenario states itself for the same input wins.
    for r in ranges {
        if !s.uncertainty.iter().any(|u| u.path == r.path) {
            s.uncertainty.push(r);
        }
    }
    unknown_accelerators(s, c)?;
    Ok(notes)
}

/// Replaces each option with an offer filter by one rental option per offer it matches.
fn expand_filters(s: &mut Scenario, c: &Catalog, filter: &OfferFilter, notes: &mut Vec<Note>) -> Result<(), Error> {
    let class_name = s.workload_class.map_or("", |c| c.key());
    let class_zh = s.workload_class.map_or("", |c| c.label(Lang::Zh));
    let mut expanded = Vec::with_capacity(s.options.len());
    for (i, o) in std::mem::take(&mut s.options).into_iter().enumerate() {
        let Some(selector) = o.offer_filter.clone() else {
            expanded.push(o);
            continue;
        };
        let path = format!("options[{i}].offer_filter");
        let (matches, without_ratio) = select(c, &selector, filter, o.efficiency_ratio.is_some(), &path)?;
        if matches.is_empty() {
            let problem = if without_ratio > 0 {
                format!(
                    "{without_ratio} offer(s) match, but none has an efficiency ratio for {class_name}; \
                     set efficiency_ratio on the option to state one"
                )
            } else {
                "no catalogue offer matches this filter".to_owned()
            };
            return Err(reference_error(path, &o.id, problem));
        }
        let options: Vec<OptionSpec> = matches.iter().map(|v| offer_option(&o, v)).collect();
        let option_ids: Vec<String> = options.iter().map(|x| x.id.clone()).collect();
        let id = &o.id;
        if without_ratio > 0 {
            notes.push(Note {
                option_ids: option_ids.clone(),
                en: format!(
                    "options[{i}] ({id}): {without_ratio} matching offer(s) left out: no efficiency ratio for {class_name}"
                ),
                zh: format!("options[{i}] ({id})：{without_ratio} 个符合条件的报价未纳入：没有{class_zh}的效率比"),
            });
        }
        expanded.extend(options);
        notes.push(Note {
            option_ids,
            en: format!("options[{i}] ({id}): expanded into offers matching its filter"),
            zh: format!("options[{i}] ({id})：已展开为符合筛选条件的各个报价"),
        });
    }
    s.options = expanded;
    Ok(())
}

/// An option's field → text map (`sources`, `as_of`).
type Sourced = std::collections::BTreeMap<String, String>;

/// Fills one option's pools that name an offer (price, currency and source),
/// then its accelerator's memory and efficiency ratio from the catalogue.
fn fill_option(
    i: usize,
    o: &mut OptionSpec,
    c: &Catalog,
    filter: &OfferFilter,
    (class, reference): (Option<WorkloadClass>, &str),
    notes: &mut Vec<Note>,
    ranges: &mut Vec<Uncertain>,
) -> Result<(), Error> {
    let class_name = class.map_or("", |c| c.key());
    let class_zh = class.map_or("", |c| c.label(Lang::Zh));
    let mut accelerator = None;
    let option_id = o.id.clone();
    // A filled pool keeps the price, not the offer too (the offer is in
    // its source): a pool with both is the user's, and is refused.
    let mut fill = |pool: &str,
                    offer: &mut Option<String>,
                    price: &mut Option<f64>,
                    cur: &mut Option<Currency>,
                    (sources, as_of): (&mut Sourced, &mut Sourced)|
     -> Result<(), Error> {
        if price.is_some() {
            return Ok(());
        }
        let Some(id) = offer.take() else { return Ok(()) };
        let id = &id;
        let path = format!("options[{i}].{pool}");
        let v = c
            .offer(id, filter)?
            .ok_or_else(|| reference_error(format!("{path}.offer"), id, "no offer with this id in the catalogue"))?;
        let per_hour = v.price_per_accel_hour.ok_or_else(|| {
            reference_error(format!("{path}.offer"), id, "is a server purchase, not a price per accelerator-hour")
        })?;
        let field = format!("{pool}.price_per_accel_hour");
        // A ranged price: its range for `simulate` (an option id with a dot
        // cannot be named in a range's path).
        let range =
            v.spread.as_ref().filter(|_| !option_id.contains('.')).and_then(|spread| {
                spread_range(format!("options.{option_id}.{field}"), id, spread).map(|r| (spread, r))
            });
        let mut source = provenance(&v);
        match range {
            Some((spread, r)) => {
                // The price as the offer states it (a range's low end), in
                // the currency its range is in, as every other view of the
                // offer prices it; the range is for simulate.
                let stated = v.comparable_price_per_accel_hour.unwrap_or(per_hour);
                *price = Some(stated);
                *cur = Some(spread.currency);
                source.push_str(&format!(
                    "; {stated:.4} {} as stated, and simulate draws it from {:.4}–{:.4} (typical {:.4}): {}",
                    spread.currency, spread.low, spread.high, spread.typical, r.source
                ));
                let (low, high, currency) = (spread.low, spread.high, spread.currency);
                notes.push(Note::option(
                    &option_id,
                    format!(
                        "options[{i}] ({option_id}): {pool} price per accelerator-hour {low:.4}–{high:.4} {currency} \
                         from the catalogue spread ({}); evaluate takes the stated {stated:.4}, simulate draws it \
                         from that range",
                        spread.basis.label(Lang::En)
                    ),
                    format!(
                        "options[{i}] ({option_id})：{}每卡时价格 {low:.4}–{high:.4} {currency}，取自目录中的报价区间\
                         （{}）；评估采用所列的 {stated:.4}，模拟在该区间内取值",
                        pool_name(pool, Lang::Zh),
                        spread.basis.label(Lang::Zh)
                    ),
                ));
                ranges.push(r);
            }
            None => {
                *price = Some(per_hour);
                *cur = Some(v.offer.currency);
            }
        }
        if let Some(date) = &v.offer.as_of {
            as_of.insert(field.clone(), date.clone());
        }
        sources.insert(field, source);
        accelerator = accelerator.take().or(v.offer.accelerator_id.clone());
        Ok(())
    };
    let (mut sources, mut as_of) = (std::mem::take(&mut o.sources), std::mem::take(&mut o.as_of));
    if let Some(p) = o.on_demand.as_mut() {
        fill("on_demand", &mut p.offer, &mut p.price_per_accel_hour, &mut p.currency, (&mut sources, &mut as_of))?;
    }
    if let Some(p) = o.spot.as_mut() {
        fill("spot", &mut p.offer, &mut p.price_per_accel_hour, &mut p.currency, (&mut sources, &mut as_of))?;
    }
    if let Some(p) = o.reserved.as_mut() {
        fill("reserved", &mut p.offer, &mut p.price_per_accel_hour, &mut p.currency, (&mut sources, &mut as_of))?;
    }
    (o.sources, o.as_of) = (sources, as_of);
    if o.accelerator.is_none() {
        o.accelerator = accelerator;
    }
    if let (None, Some(acc)) = (o.memory_gb_per_accelerator, &o.accelerator)
        && let Some(a) = c.accelerator(acc)?
        && let Some(gb) = a.memory_gb
    {
        o.memory_gb_per_accelerator = Some(gb);
        o.sources.insert("memory_gb_per_accelerator".to_owned(), format!("catalogue accelerator {acc} [{}]", a.source));
    }
    // The catalogue's ratio for the workload class, unless the user gave one.
    if let (None, Some(acc), Some(class)) = (o.efficiency_ratio, o.accelerator.clone(), class) {
        match c.ratio(&acc, class, reference)? {
            Ok(r) => {
                o.efficiency_ratio = Some(r.ratio);
                o.sources.insert("efficiency_ratio".to_owned(), ratio_source(&r));
                if acc != reference {
                    let (id, ratio) = (&o.id, r.ratio);
                    notes.push(Note::option(
                        id,
                        format!(
                            "options[{i}] ({id}): efficiency ratio {ratio:.3} for {acc} in {class_name} from the catalogue \
                             ({}: {})",
                            r.basis.label(Lang::En),
                            r.method_en
                        ),
                        format!(
                            "options[{i}] ({id})：{acc} 在{class_zh}上的效率比 {ratio:.3}，取自目录（{}：{}）",
                            r.basis.label(Lang::Zh),
                            r.method_zh
                        ),
                    ));
                }
            }
            Err(why) => notes.push(Note::option(
                &o.id,
                format!(
                    "options[{i}] ({}): no efficiency ratio for {acc} in {class_name} ({}); 1.0 assumed",
                    o.id,
                    why.describe(Lang::En)
                ),
                format!(
                    "options[{i}] ({})：目录中没有 {acc} 在{class_zh}上的效率比（{}）；按 1.0 计",
                    o.id,
                    why.describe(Lang::Zh)
                ),
            )),
        }
    }
    Ok(())
}

/// Every `accelerator` an option names must be in the catalogue: an error
/// rather than a warning, because the id is a reference like an offer id,
/// and a typo would silently lose the sourced efficiency ratio (1.0 assumed)
/// and the device-plugin name of a deployment.
fn unknown_accelerators(s: &Scenario, c: &Catalog) -> Result<(), Error> {
    let mut errors = Vec::new();
    let mut known: Vec<String> = Vec::new();
    for (i, o) in s.options.iter().enumerate() {
        if let Some(id) = &o.accelerator
            && c.accelerator(id)?.is_none()
        {
            if known.is_empty() {
                known = c.accelerators(&Default::default())?.into_iter().map(|a| a.id).collect();
            }
            errors.push(InputError::new(
                format!("options[{i}].accelerator"),
                format!("{id:?}"),
                Rule::UnknownAccelerator { closest: closest_ids(id, &known) },
            ));
        }
    }
    if errors.is_empty() { Ok(()) } else { Err(Error::Invalid(errors)) }
}

/// The known ids closest to an unknown one, nearest first (at most three):
/// those within a third of its length in edit distance (case aside), then
/// those sharing its longest prefix of at least two dash-separated words.
pub(crate) fn closest_ids(id: &str, known: &[String]) -> Vec<String> {
    let id_l = id.to_lowercase();
    let mut near: Vec<(usize, &String)> = known
        .iter()
        .map(|k| (edit_distance(&id_l, &k.to_lowercase()), k))
        .filter(|(d, _)| *d > 0 && *d <= (id.chars().count() / 3).max(1))
        .collect();
    near.sort();
    let mut out: Vec<String> = near.into_iter().map(|(_, k)| k.clone()).collect();
    if out.is_empty() {
        let words: Vec<&str> = id_l.split('-').collect();
        let shared = |k: &str| words.iter().zip(k.split('-')).take_while(|(a, b)| **a == *b).count();
        let best = known.iter().map(|k| shared(&k.to_lowercase())).max().unwrap_or(0);
        if best >= 2 {
            out = known.iter().filter(|k| shared(&k.to_lowercase()) == best).cloned().collect();
            out.sort();
        }
    }
    out.truncate(3);
    out
}

/// Levenshtein distance over characters.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = (prev + usize::from(ca != *cb)).min(row[j] + 1).min(cur + 1);
            prev = cur;
        }
    }
    row[b.len()]
}

/// Offers matching a selector, cheapest per useful hour first. With a
/// workload class and no ratio stated on the option, offers whose
/// accelerator has no sourced ratio are left out (and counted): a T4
/// must not pass for an A100 by default.
fn select(
    c: &Catalog,
    sel: &OfferSelector,
    base: &OfferFilter,
    ratio_given: bool,
    path: &str,
) -> Result<(Vec<OfferView>, usize), Error> {
    let obtainable_in = match sel.obtainable_in.as_deref() {
        None => None,
        Some(j) if j.eq_ignore_ascii_case("cn") => Some(Jurisdiction::Cn),
        Some(other) => {
            return Err(reference_error(
                format!("{path}.obtainable_in"),
                other,
                "the catalogue knows export status for cn only",
            ));
        }
    };
    let billing_mode = match sel.billing_mode.as_deref() {
        None => None,
        Some(text) => Some(BillingMode::parse(text).ok_or_else(|| {
            let allowed: Vec<&str> = BillingMode::ALL.iter().map(|m| m.key()).collect();
            reference_error(format!("{path}.billing_mode"), text, format!("expected one of {}", allowed.join(", ")))
        })?),
    };
    let filter = OfferFilter {
        accelerator: sel.accelerator.clone(),
        vendor: sel.vendor.clone(),
        domestic: sel.domestic,
        billing_mode,
        provider: sel.provider.clone(),
        provider_country: sel.provider_country.clone(),
        region: sel.region.clone(),
        obtainable_in,
        sort: if base.workload_class.is_some() && !ratio_given { OfferSort::Effective } else { OfferSort::Price },
        ..base.clone()
    };
    let rentals = c.offers(&filter)?.into_iter().filter(|v| v.comparable_price_per_accel_hour.is_some());
    let (mut offers, left_out): (Vec<OfferView>, Vec<OfferView>) = if base.workload_class.is_some() && !ratio_given {
        rentals.partition(|v| v.efficiency.is_some())
    } else {
        (rentals.collect(), Vec::new())
    };
    if let Some(limit) = sel.limit {
        offers.truncate(limit as usize);
    }
    Ok((offers, left_out.len()))
}

//! The desktop app's scenario library, autosaved draft and settings.
//!
//! Saved scenarios are stored as scenario-file TOML, so what the library
//! holds is what `suanli evaluate` reads. Nothing invalid is saved: a save
//! checks every rule first. The draft is the editor's state as it was,
//! valid or not, so a crash loses nothing that was on screen.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;
use suanli_catalog::Catalog;
pub use suanli_catalog::library::ScenarioMeta;
use suanli_model::lang::Bilingual;
use suanli_model::{Currency, Lang};

use crate::document::{checked, doc_from_toml, doc_to_toml};
use crate::{Error, now_utc};

/// What the app shows about itself: its version, its database and the
/// language messages are written in.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct AppInfo {
    /// Suanli's version.
    pub version: String,
    /// Where the database is.
    pub db_path: String,
    /// The installed catalogue's version (none before the first pack).
    #[cfg_attr(feature = "specta", specta(type = Option<f64>))]
    pub catalog_version: Option<i64>,
    /// Why the database could not be opened (locked, corrupt, newer schema).
    pub db_error: Option<crate::ErrorJson>,
    /// What the catalogue holds; none when the database is not open.
    pub counts: Option<suanli_catalog::Counts>,
    /// The language messages are written in: the saved setting, or the
    /// system's when there is none (or no database to hold one).
    pub lang: Lang,
    /// Today's date (`YYYY-MM-DD`, UTC), from the one clock: the as-of date
    /// the forms put on a price the user types in.
    pub today: String,
}

/// The app's facts for a database that is open (`Some`) or not.
pub fn app_info(
    c: Option<&Catalog>,
    db_path: &std::path::Path,
    db_error: Option<crate::ErrorJson>,
    lang: Lang,
    today: chrono::NaiveDate,
) -> AppInfo {
    let (catalog_version, counts) =
        c.and_then(|c| Some((c.version().ok()?, c.counts().ok()?))).map_or((None, None), |(v, n)| (v, Some(n)));
    AppInfo {
        version: env!("CARGO_PKG_VERSION").to_owned(),
        db_path: db_path.display().to_string(),
        catalog_version,
        db_error,
        counts,
        lang,
        today: today.format("%Y-%m-%d").to_string(),
    }
}

/// A saved scenario, opened.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct SavedScenario {
    /// Its id, name and dates.
    pub meta: ScenarioMeta,
    /// The scenario as the editor's document, defaults filled in.
    #[cfg_attr(feature = "specta", specta(type = crate::document::JsonObject))]
    pub scenario: Value,
}

/// The saved scenarios, most recently changed first.
pub fn list(c: &Catalog) -> Result<Vec<ScenarioMeta>, Error> {
    Ok(c.library()?)
}

/// Opens a saved scenario as the editor's document; not found when no scenario has `id`.
pub fn open(c: &Catalog, id: u32) -> Result<SavedScenario, Error> {
    let meta = c.library_meta(id)?;
    let scenario = doc_from_toml(&c.library_text(id)?)?;
    Ok(SavedScenario { meta, scenario })
}

/// Saves the document (new when `id` is `None`) after checking every rule.
pub fn save(c: &mut Catalog, id: Option<u32>, doc: &Value) -> Result<ScenarioMeta, Error> {
    let (scenario, _) = checked(doc, Some(c))?;
    let text = doc_to_toml(doc)?;
    Ok(c.library_put(id, &scenario.name, &text, &now_utc())?)
}

/// A copy named "… (copy)" / "…（副本）".
pub fn duplicate(c: &mut Catalog, id: u32, lang: Lang) -> Result<ScenarioMeta, Error> {
    let mut doc = open(c, id)?.scenario;
    let name = doc["name"].as_str().unwrap_or_default().to_owned();
    doc["name"] = Value::from(match lang {
        Lang::Zh => format!("{name}（副本）"),
        Lang::En => format!("{name} (copy)"),
    });
    let text = doc_to_toml(&doc)?;
    let name = doc["name"].as_str().unwrap_or_default().to_owned();
    Ok(c.library_put(None, &name, &text, &now_utc())?)
}

/// Renames a saved scenario (the name trimmed; a blank one is refused).
pub fn rename(c: &mut Catalog, id: u32, name: &str) -> Result<ScenarioMeta, Error> {
    let name = name.trim();
    if name.is_empty() {
        return Err(Error::Invalid(vec![suanli_model::InputError::missing("name", suanli_model::Rule::Required)]));
    }
    let mut doc = open(c, id)?.scenario;
    doc["name"] = Value::from(name);
    let text = doc_to_toml(&doc)?;
    Ok(c.library_put(Some(id), name, &text, &now_utc())?)
}

/// Removes a saved scenario; a draft opened from it stays, detached from it.
pub fn delete(c: &mut Catalog, id: u32) -> Result<(), Error> {
    Ok(c.library_delete(id)?)
}

/// The editor's last state.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct Draft {
    /// The editor's document, valid or not.
    #[cfg_attr(feature = "specta", specta(type = crate::document::JsonObject))]
    pub scenario: Value,
    /// The saved scenario it was opened from; `null` when none.
    pub library_id: Option<u32>,
    /// When it was saved, UTC (`YYYY-MM-DDTHH:MM:SSZ`).
    pub saved_at: String,
}

/// Saves the editor's document as the draft, valid or not, over the last one.
pub fn put_draft(c: &mut Catalog, doc: &Value, library_id: Option<u32>) -> Result<(), Error> {
    let draft = suanli_catalog::library::Draft { scenario_json: doc.to_string(), library_id, saved_at: now_utc() };
    Ok(c.put_draft(&draft)?)
}

/// The autosaved draft; `None` when there is none or it is no longer JSON.
pub fn draft(c: &Catalog) -> Result<Option<Draft>, Error> {
    let Some(d) = c.draft()? else { return Ok(None) };
    // A draft that is not JSON any more is dropped rather than shown broken.
    let Ok(scenario) = serde_json::from_str(&d.scenario_json) else { return Ok(None) };
    Ok(Some(Draft { scenario, library_id: d.library_id, saved_at: d.saved_at }))
}

/// Forgets the draft.
pub fn clear_draft(c: &mut Catalog) -> Result<(), Error> {
    Ok(c.clear_draft()?)
}

/// One field that differs between two scenarios.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct Change {
    /// Field path (`options[0].owned.pue`).
    pub path: String,
    /// Its value in the first scenario, as text; `null` when it has none.
    pub before: Option<String>,
    /// Its value in the second scenario, as text; `null` when it has none.
    pub after: Option<String>,
}

/// What the changes did to one option's totals (`None`: not in that scenario).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct TotalChange {
    /// The option's id, which pairs it across the two scenarios.
    pub option_id: String,
    /// Its label in the first scenario that has it.
    pub label: String,
    /// The same as each language shows it.
    pub display: Bilingual,
    /// NPV in the first scenario, in its currency.
    pub before_npv: Option<f64>,
    /// NPV in the second scenario, in its currency.
    pub after_npv: Option<f64>,
    /// Nominal total in the first scenario, in its currency.
    pub before_nominal: Option<f64>,
    /// Nominal total in the second scenario, in its currency.
    pub after_nominal: Option<f64>,
}

/// Two saved scenarios compared, field by field and option by option.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct Comparison {
    /// The first scenario (before).
    pub a: ScenarioMeta,
    /// The second scenario (after).
    pub b: ScenarioMeta,
    /// The first scenario's currency code.
    pub currency_a: suanli_model::Currency,
    /// The second scenario's currency code.
    pub currency_b: suanli_model::Currency,
    /// Every field that differs, by path.
    pub changes: Vec<Change>,
    /// Each option's totals: the first scenario's options in order, then those only the second has.
    pub totals: Vec<TotalChange>,
}

/// Two saved scenarios side by side: every field that differs, and each
/// option's totals before (a) and after (b).
pub fn compare(c: &Catalog, a: u32, b: u32, lang: Lang) -> Result<Comparison, Error> {
    let (sa, sb) = (open(c, a)?, open(c, b)?);
    let mut fa = BTreeMap::new();
    let mut fb = BTreeMap::new();
    flatten("", &sa.scenario, &mut fa);
    flatten("", &sb.scenario, &mut fb);
    let mut paths: Vec<&String> = fa.keys().chain(fb.keys()).collect();
    paths.sort();
    paths.dedup();
    let changes = paths
        .into_iter()
        .filter(|p| fa.get(*p) != fb.get(*p))
        .map(|p| Change { path: p.clone(), before: fa.get(p).cloned(), after: fb.get(p).cloned() })
        .collect();
    let ea = crate::document::evaluate_doc(&sa.scenario, Some(c), lang, crate::files::today_date())?.evaluation;
    let eb = crate::document::evaluate_doc(&sb.scenario, Some(c), lang, crate::files::today_date())?.evaluation;
    let mut totals: Vec<TotalChange> = ea
        .options
        .iter()
        .map(|o| TotalChange {
            option_id: o.id.clone(),
            label: o.label.clone(),
            display: o.display.clone(),
            before_npv: Some(o.total_npv),
            after_npv: None,
            before_nominal: Some(o.total_nominal),
            after_nominal: None,
        })
        .collect();
    for o in &eb.options {
        match totals.iter_mut().find(|t| t.option_id == o.id) {
            Some(t) => {
                t.after_npv = Some(o.total_npv);
                t.after_nominal = Some(o.total_nominal);
            }
            None => totals.push(TotalChange {
                option_id: o.id.clone(),
                label: o.label.clone(),
                display: o.display.clone(),
                before_npv: None,
                after_npv: Some(o.total_npv),
                before_nominal: None,
                after_nominal: Some(o.total_nominal),
            }),
        }
    }
    Ok(Comparison { a: sa.meta, b: sb.meta, currency_a: ea.currency, currency_b: eb.currency, changes, totals })
}

/// Leaf values by path (`options[0].owned.pue`), nulls left out.
fn flatten(prefix: &str, v: &Value, out: &mut BTreeMap<String, String>) {
    match v {
        Value::Null => {}
        Value::Object(map) => {
            for (k, v) in map {
                let path = if prefix.is_empty() { k.clone() } else { format!("{prefix}.{k}") };
                flatten(&path, v, out);
            }
        }
        Value::Array(items) if items.iter().any(|i| i.is_object()) => {
            for (i, v) in items.iter().enumerate() {
                flatten(&format!("{prefix}[{i}]"), v, out);
            }
        }
        Value::String(s) => {
            out.insert(prefix.to_owned(), s.clone());
        }
        other => {
            out.insert(prefix.to_owned(), other.to_string());
        }
    }
}

/// The desktop app's settings.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct Settings {
    /// The language the app's messages are written in.
    pub lang: Lang,
    /// Currency new scenarios and catalogue comparisons use (CNY or USD).
    pub currency: Currency,
    /// CNY per USD (its source is `fx_source`).
    pub usd_cny: f64,
    /// Where `usd_cny` comes from, for a reader.
    pub fx_source: String,
    /// Catalogue id of the reference GPU (default: the catalogue's, `nvidia-a100-sxm-80gb`).
    pub reference_gpu: String,
    /// A price this many months old or older is marked stale (1 to 120;
    /// default 6). Kept under its own key, which `suanli catalog stale-after` sets too.
    #[serde(default = "default_stale_after")]
    pub stale_after_months: u32,
}

fn default_stale_after() -> u32 {
    crate::freshness::DEFAULT_STALE_AFTER_MONTHS
}

impl Settings {
    /// First start: the system's language, CNY, the rate the bundled examples use.
    pub fn defaults(lang: Lang) -> Settings {
        Settings {
            lang,
            currency: Currency::CNY,
            usd_cny: 7.1106,
            fx_source: "CFETS central parity 2025-09-22 (provider-prices §6.4, S37)".to_owned(),
            reference_gpu: suanli_catalog::query::REFERENCE_ACCELERATOR.to_owned(),
            stale_after_months: crate::freshness::DEFAULT_STALE_AFTER_MONTHS,
        }
    }

    fn check(&self, lang: Lang) -> Result<(), Error> {
        use suanli_model::{InputError, Rule};
        if !matches!(self.currency, Currency::CNY | Currency::USD) {
            let message = lang.pick("must be CNY or USD", "必须是 CNY 或 USD").to_owned();
            return Err(Error::Shape { path: "currency".to_owned(), message });
        }
        let mut errors = Vec::new();
        if !(self.usd_cny.is_finite() && (0.001..=1e3).contains(&self.usd_cny)) {
            errors.push(InputError::new("usd_cny", self.usd_cny, Rule::Between { min: 0.001, max: 1e3 }));
        }
        if self.reference_gpu.trim().is_empty() {
            errors.push(InputError::missing("reference_gpu", Rule::Required));
        }
        let range = crate::freshness::STALE_AFTER_RANGE;
        if !range.contains(&self.stale_after_months) {
            let months = f64::from(self.stale_after_months);
            let (min, max) = (f64::from(*range.start()), f64::from(*range.end()));
            errors.push(InputError::new("stale_after_months", months, Rule::Between { min, max }));
        }
        if errors.is_empty() { Ok(()) } else { Err(Error::Invalid(errors)) }
    }
}

const SETTINGS_KEY: &str = "app";

/// The saved settings; the defaults in `system_lang` when none are saved
/// (or they no longer read as settings).
pub fn settings(c: &Catalog, system_lang: Lang) -> Result<Settings, Error> {
    let mut s: Settings = c
        .setting(SETTINGS_KEY)?
        .and_then(|text| serde_json::from_str(&text).ok())
        .unwrap_or_else(|| Settings::defaults(system_lang));
    s.stale_after_months = crate::freshness::stale_after_months(c)?;
    Ok(s)
}

/// Checks and saves the settings (currency CNY or USD, a rate from 0.001 to
/// 1000, a reference GPU named, a stale threshold of 1 to 120 months);
/// returns them as saved.
pub fn put_settings(c: &mut Catalog, s: &Settings) -> Result<Settings, Error> {
    s.check(s.lang)?;
    let text = serde_json::to_string(s).map_err(|e| Error::Shape { path: String::new(), message: e.to_string() })?;
    c.put_setting(SETTINGS_KEY, &text)?;
    crate::freshness::set_stale_after_months(c, s.stale_after_months)?;
    Ok(s.clone())
}

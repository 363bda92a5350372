//! The scenario as the desktop editor holds it: a JSON document with the
//! scenario file's field names (`docs/scenario-format.md`). It is turned
//! into a [`Scenario`] here, so a wrong shape is named by its field path
//! exactly as a broken rule is.

use chrono::NaiveDate;
use serde::Serialize;
use serde_json::Value;
use suanli_catalog::Catalog;
use suanli_model::lang::Bilingual;
use suanli_model::{Checked, Lang, Scenario};

use crate::{Error, EvaluationJson, needs_catalog, resolve_offers};

/// Any JSON value, as the TypeScript bindings spell it. The editor's
/// document is an object of these ([`JsonObject`]); serde_json's own
/// `Value` cannot be exported, since its numbers may be 64-bit integers.
#[cfg(feature = "specta")]
#[derive(Debug, Serialize, specta::Type)]
#[serde(untagged)]
pub enum JsonValue {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A number (a TypeScript `number`).
    Number(f64),
    /// A string.
    String(String),
    /// An array.
    Array(Vec<JsonValue>),
    /// An object.
    Object(JsonObject),
}

/// The editor's document in the TypeScript bindings: the scenario file's
/// fields as a JSON object (`docs/scenario-format.md`).
#[cfg(feature = "specta")]
pub type JsonObject = std::collections::BTreeMap<String, JsonValue>;

/// Scenario file text → the editor's document (every field, defaults filled in).
pub fn doc_from_toml(text: &str) -> Result<Value, Error> {
    let scenario = crate::scenario_file::parse_scenario_unvalidated(text)?;
    serde_json::to_value(&scenario).map_err(|e| Error::Shape { path: String::new(), message: e.to_string() })
}

/// The editor's document → a scenario, rules not yet checked.
pub fn doc_to_scenario(doc: &Value) -> Result<Scenario, Error> {
    serde_path_to_error::deserialize(doc).map_err(|e| {
        let path = e.path().to_string();
        Error::Shape { path: if path == "." { String::new() } else { path }, message: e.inner().to_string() }
    })
}

/// The editor's document → scenario file text (the format the library stores).
pub fn doc_to_toml(doc: &Value) -> Result<String, Error> {
    let scenario = doc_to_scenario(doc)?;
    toml::to_string(&scenario).map_err(|e| Error::Shape { path: String::new(), message: e.to_string() })
}

/// The document as a checked scenario: catalogue references resolved
/// (when it has any), every rule checked, ranges included.
pub fn checked(doc: &Value, catalog: Option<&Catalog>) -> Result<(Checked<Scenario>, Vec<crate::Note>), Error> {
    let mut scenario = doc_to_scenario(doc)?;
    let mut notes = Vec::new();
    if needs_catalog(&scenario) {
        // Without a catalogue, a scenario that only wants the catalogue's
        // ratios is evaluated at the default one, which its result notes.
        match catalog {
            Some(catalog) => notes = resolve_offers(&mut scenario, catalog)?,
            None if crate::resolve::catalog_required(&scenario) => return Err(Error::Unavailable),
            None => {}
        }
    }
    Ok((crate::check(scenario)?, notes))
}

/// Where one of an option's figures comes from.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct SourceLine {
    /// Id of the option, as resolved (a filter's match is `option/offer`).
    pub option_id: String,
    /// The option's field it is about (`on_demand.price_per_accel_hour`).
    pub field: String,
    /// Where the figure comes from: as the file states it, or the catalogue
    /// entry it was resolved from (English).
    pub text: String,
}

/// A price the scenario states far from the bundled catalogue's prices for
/// the same accelerator and billing (`suanli_model::price_check`).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct FarPrice {
    /// Id of the option, as resolved.
    pub option_id: String,
    /// The option's field (`on_demand.price_per_accel_hour`).
    pub field: String,
    /// How far from which range, as a sentence in the requested language.
    pub text: String,
}

/// An evaluation with how its catalogue references resolved and the
/// source of every figure the options name.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct Evaluated {
    /// The results, rounded for display.
    pub evaluation: EvaluationJson,
    /// What resolving the catalogue references did or assumed, each with
    /// the options it is about, in the requested language.
    pub notes: Vec<crate::NoteJson>,
    /// One line per sourced figure, option by option.
    pub sources: Vec<SourceLine>,
    /// Every price taken from a dated offer, aged on the day asked: the
    /// results and the editor mark the stale ones.
    pub prices: Vec<crate::freshness::PriceAge>,
    /// Stated prices far from the catalogue's: the result cards flag them.
    pub far_prices: Vec<FarPrice>,
}

/// Checks and evaluates the editor's document; prices are aged on `today`.
pub fn evaluate_doc(doc: &Value, catalog: Option<&Catalog>, lang: Lang, today: NaiveDate) -> Result<Evaluated, Error> {
    let (scenario, notes) = checked(doc, catalog)?;
    // The threshold is read only for a scenario with dated prices: not on every keystroke.
    let prices = if crate::freshness::has_dated_figures(&scenario) {
        crate::freshness::ages(&scenario, today, crate::freshness::stale_after_or_default(catalog)?)
    } else {
        Vec::new()
    };
    let evaluation = crate::evaluate(&scenario);
    let sources = scenario
        .options
        .iter()
        .flat_map(|o| {
            o.sources.iter().map(|(field, text)| SourceLine {
                option_id: o.id.clone(),
                field: field.clone(),
                text: text.clone(),
            })
        })
        .collect();
    let far_prices = crate::price_check::price_flags(&scenario)
        .into_iter()
        .map(|f| FarPrice { text: f.describe(lang), option_id: f.option_id, field: f.field })
        .collect();
    let notes = notes.iter().map(|n| n.to_json(lang)).collect();
    Ok(Evaluated { evaluation: crate::evaluation_json(evaluation, lang)?, notes, sources, prices, far_prices })
}

#[cfg(test)]
mod tests {
    use super::*;

    const SEED: &str = include_str!("../../../data/scenarios/a100-8x-buy-vs-rent.toml");

    #[test]
    fn toml_and_document_round_trip() -> Result<(), Error> {
        let doc = doc_from_toml(SEED)?;
        let again = doc_from_toml(&doc_to_toml(&doc)?)?;
        assert_eq!(doc, again);
        assert_eq!(doc_to_scenario(&doc)?, crate::parse_scenario(SEED)?.into_inner());
        Ok(())
    }

    #[test]
    fn a_wrong_shape_names_its_field() -> Result<(), Error> {
        let mut doc = doc_from_toml(SEED)?;
        doc["horizon_months"] = Value::from("three years");
        match doc_to_scenario(&doc) {
            Err(Error::Shape { path, .. }) => assert_eq!(path, "horizon_months"),
            other => panic!("expected a shape error, got {other:?}"),
        }
        Ok(())
    }

    #[test]
    fn a_broken_rule_is_refused_with_its_path() -> Result<(), Error> {
        let mut doc = doc_from_toml(SEED)?;
        doc["horizon_months"] = Value::from(0);
        match evaluate_doc(&doc, None, Lang::En, crate::files::today_date()) {
            Err(Error::Invalid(errors)) => assert!(errors.iter().any(|e| e.path == "horizon_months")),
            other => panic!("expected invalid, got {other:?}"),
        }
        Ok(())
    }
}

/// A bundled example scenario (`data/scenarios`), for a first start and the editor's "new from example".
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct Example {
    /// File name in `data/scenarios` (`a100-8x-buy-vs-rent.toml`).
    pub file: String,
    /// The scenario's name, as its file gives it.
    pub name: String,
    /// The name as each language shows it.
    pub display: Bilingual,
    /// The scenario file's text.
    pub toml: String,
}

macro_rules! examples {
    ($($file:literal),* $(,)?) => {
        &[$(($file, include_str!(concat!("../../../data/scenarios/", $file)))),*]
    };
}

/// The article's seed case comes first: the app opens on it.
const EXAMPLES: &[(&str, &str)] = examples![
    "a100-8x-buy-vs-rent.toml",
    "domestic-vs-a100.toml",
    "catalog-offers.toml",
    "billing-mix.toml",
    "ascend-910b-cluster.toml",
    "domestic-card-full.toml",
    "gpt3-175b-training.toml",
    "portfolio-priorities.toml",
    "scaling-200-cards.toml",
    "storage-and-edge.toml",
    "llm-inference-70b.toml",
];

/// The bundled examples, the article's seed case first (the app opens on it).
pub fn examples() -> Result<Vec<Example>, Error> {
    EXAMPLES
        .iter()
        .map(|(file, text)| {
            let name = crate::scenario_file::parse_scenario_unvalidated(text)?.name;
            Ok(Example { file: (*file).to_owned(), display: Bilingual::of(&name), name, toml: (*text).to_owned() })
        })
        .collect()
}

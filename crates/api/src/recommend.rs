//! `recommend`: the door to `suanli_plan`. Reads what the search needs
//! from the catalogue (offers priced in the scenario's currency, with the
//! catalogue's reference rates where the scenario gives none), calls the
//! plan, and writes the chosen candidates back as a scenario
//! (docs/recommend.md).

use std::path::Path;

use suanli_catalog::Catalog;
use suanli_catalog::query::{OfferFilter, OfferSort};
pub use suanli_model::optimise::ConstraintKey;
use suanli_model::recommend::RankBy;
use suanli_model::{Lang, Scenario};
pub use suanli_plan::cluster::{FabricClass, ScalingBasis, ScalingModel};
pub use suanli_plan::{
    ApartJson, CandidateJson, Constraints, DEFAULT_PICKS, ExclusionJson, MAX_PICKS, MIX_BASES, NotFeasibleJson,
    OFFERS_PER_GROUP, PoolJson, PoolKind, Recommendation, SearchStats, SpotAssumptions,
};
use suanli_plan::{Market, PlanError};

use crate::Error;

impl From<PlanError> for Error {
    fn from(e: PlanError) -> Error {
        match e {
            PlanError::Invalid(errors) => Error::Invalid(errors),
            PlanError::Reference { path, value, problem } => Error::Reference { path, value, problem },
            PlanError::Internal(text) => Error::Internal(text),
        }
    }
}

/// Searches the catalogue for the scenario's demand under the constraints
/// (see [`suanli_plan::plan`]).
pub fn recommend(
    catalog: &Catalog,
    scenario: &Scenario,
    constraints: &Constraints,
    rank_by: RankBy,
    lang: Lang,
) -> Result<Recommendation, Error> {
    let (scenario, rates, notes) = prepared(catalog, scenario)?;
    let market = market(catalog, &scenario)?;
    let mut r = suanli_plan::plan(&scenario, &market, rates, constraints, rank_by, lang)?;
    let mut notes: Vec<String> = notes.iter().map(|n| n.describe(lang).to_owned()).collect();
    notes.append(&mut r.notes);
    r.notes = notes;
    Ok(r)
}

/// The scenario as the search reads it: catalogue references resolved,
/// missing rates taken from the catalogue, a served model's throughput
/// estimated when not stated.
fn prepared(c: &Catalog, s: &Scenario) -> Result<(Scenario, Vec<suanli_plan::RateUsed>, Vec<crate::Note>), Error> {
    let mut s = s.clone();
    let rates = suanli_plan::fill_rates(&mut s, &c.reference_rates()?);
    // Its own options may name catalogue offers (a buy option is the site of
    // purchases): resolved first, as evaluating it would.
    let mut notes = if crate::needs_catalog(&s) { crate::resolve_offers(&mut s, c)? } else { Vec::new() };
    notes.extend(crate::resolve::estimate_throughput(&mut s, c)?);
    Ok((s, rates, notes))
}

/// The catalogue's rows the search reads.
fn market(c: &Catalog, s: &Scenario) -> Result<Market, Error> {
    let filter = OfferFilter {
        workload_class: s.workload_class,
        currency: Some(s.currency),
        fx: s.fx.clone(),
        sort: OfferSort::Id,
        ..OfferFilter::default()
    };
    Ok(Market {
        offers: c.offers(&filter)?,
        accelerators: c.accelerators(&Default::default())?,
        providers: c.providers()?,
        nodes: c.nodes()?,
        scaling: c.scaling_points()?,
    })
}

/// The cluster model's scaling fits on the catalogue's measured points.
pub fn scaling_model(c: &Catalog) -> Result<ScalingModel, Error> {
    Ok(ScalingModel::calibrate(&c.scaling_points()?))
}

/// Reads a scenario file and recommends for it against the catalogue at
/// `db` (default location when `None`).
pub fn recommend_file(
    path: &Path,
    db: Option<&Path>,
    constraints: &Constraints,
    rank_by: RankBy,
    lang: Lang,
) -> Result<(Scenario, Recommendation), Error> {
    let scenario = crate::parse_scenario_text(&crate::read_scenario_text(path)?)?;
    let (catalog, _) = crate::catalog::open_catalog(db)?;
    let r = recommend(&catalog, &scenario, constraints, rank_by, lang)?;
    Ok((scenario, r))
}

/// The scenario with the chosen candidates as its options (see
/// [`suanli_plan::scenario_with`]); the reference rates the search took
/// are written into its `fx`, with their source.
pub fn scenario_with(scenario: &Scenario, r: &Recommendation, ids: &[String]) -> Result<Scenario, Error> {
    let mut s = suanli_plan::scenario_with(scenario, r, ids)?;
    suanli_plan::take_rates(&mut s, &r.rates);
    Ok(s)
}

/// The editor's document searched as [`recommend`] searches a parsed scenario.
pub fn recommend_doc(
    catalog: &Catalog,
    doc: &serde_json::Value,
    constraints: &Constraints,
    rank_by: RankBy,
    lang: Lang,
) -> Result<Recommendation, Error> {
    recommend(catalog, &crate::document::doc_to_scenario(doc)?, constraints, rank_by, lang)
}

/// The editor's document with the picked candidates (by id) as its options
/// (see [`scenario_with`]): the same search again, so the options are the
/// ones the user saw.
pub fn doc_with_picks(
    catalog: &Catalog,
    doc: &serde_json::Value,
    constraints: &Constraints,
    rank_by: RankBy,
    ids: &[String],
    lang: Lang,
) -> Result<serde_json::Value, Error> {
    suanli_plan::check_pick_count(ids.len())?;
    let scenario = crate::document::doc_to_scenario(doc)?;
    let r = recommend(catalog, &scenario, constraints, rank_by, lang)?;
    let chosen = scenario_with(&scenario, &r, ids)?;
    serde_json::to_value(&chosen).map_err(|e| Error::Shape { path: String::new(), message: e.to_string() })
}

/// The ids of ranked candidates by their 1-based rank; default: the first
/// [`DEFAULT_PICKS`] of the frontier.
pub fn picks(r: &Recommendation, ranks: &[u32]) -> Result<Vec<String>, Error> {
    Ok(suanli_plan::picks(r, ranks)?)
}

/// Writes the scenario with the chosen candidates (see [`scenario_with`]) as TOML.
pub fn write_scenario(path: &Path, scenario: &Scenario, r: &Recommendation, ids: &[String]) -> Result<(), Error> {
    let s = scenario_with(scenario, r, ids)?;
    let text = toml::to_string(&s).map_err(|e| Error::Internal(format!("scenario as TOML: {e}")))?;
    crate::write_atomic(path, text.as_bytes())
}

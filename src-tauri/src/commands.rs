//! One command per use case. Each takes what the front end sends, calls
//! `suanli_api`, and returns its result or its error in the user's
//! language. Long work (Monte Carlo, PDF, downloads) runs on a blocking
//! thread, never on the window's main thread.

use serde::Serialize;
use serde_json::Value;
use specta::Type;
use suanli_api::analytics::{SensitivityJson, SimulationJson};
use suanli_api::catalog::{
    Accelerator, AcceleratorFilter, Discount, FeedChoice, FeedReport, ListedOffer, Offer, OfferFilter, OfferPage,
    PriceBook, PriceChange, Provider, RefreshProgress, Source, UpdateProgress, UpdateStage, UpdateSummary,
};
use suanli_api::document::{Evaluated, Example};
use suanli_api::library::{AppInfo, Comparison, Draft, SavedScenario, ScenarioMeta, Settings};
use suanli_api::proposal::{Exported, ProposalFields};
use suanli_api::{Error, ErrorJson, RankBy, WorkloadClass};
use tauri::State;
use tauri::ipc::Channel;

use crate::AppState;

type Reply<T> = Result<T, ErrorJson>;

/// The scenario as the editor holds it: the scenario file's fields as a JSON
/// object (`docs/scenario-format.md`); its shape is checked in `suanli_api`.
#[derive(Debug, Clone, Serialize, serde::Deserialize, Type)]
#[serde(transparent)]
pub struct ScenarioDoc(#[specta(type = suanli_api::document::JsonObject)] pub Value);

/// Runs `f` with the app's state on a blocking thread; its answer, like
/// every other, leaves with finite numbers only.
async fn blocking<T: Serialize + Send + 'static>(
    state: State<'_, AppState>,
    f: impl FnOnce(&AppState) -> Reply<T> + Send + 'static,
) -> Reply<T> {
    let state = state.inner().clone();
    let lang = state.lang();
    tauri::async_runtime::spawn_blocking(move || {
        f(&state).and_then(|answer| {
            suanli_api::ensure_finite(&answer).map_err(|e| e.to_json(lang))?;
            Ok(answer)
        })
    })
    .await
    .unwrap_or_else(|e| Err(Error::Internal(e.to_string()).to_json(lang)))
}

#[tauri::command]
#[specta::specta]
pub async fn app_info(state: State<'_, AppState>) -> Reply<AppInfo> {
    let db_error = state.open_error();
    state.with_optional(|c, lang| Ok(suanli_api::library::app_info(c, &state.db_path, db_error, lang, state.today())))
}

#[tauri::command]
#[specta::specta]
pub async fn get_settings(state: State<'_, AppState>) -> Reply<Settings> {
    let system = state.system_lang;
    state.with_reader(|c, _| suanli_api::library::settings(c, system))
}

/// Saves the settings; messages from then on are in the chosen language.
#[tauri::command]
#[specta::specta]
pub async fn put_settings(state: State<'_, AppState>, settings: Settings) -> Reply<Settings> {
    let saved = state.with(|c, _| suanli_api::library::put_settings(c, &settings))?;
    state.set_lang(saved.lang);
    Ok(saved)
}

#[tauri::command]
#[specta::specta]
pub async fn list_accelerators(state: State<'_, AppState>, filter: AcceleratorFilter) -> Reply<Vec<Accelerator>> {
    state.with_reader(|c, _| suanli_api::catalog::list_accelerators(c, &filter))
}

#[tauri::command]
#[specta::specta]
pub async fn list_providers(state: State<'_, AppState>) -> Reply<Vec<Provider>> {
    state.with_reader(|c, _| suanli_api::catalog::list_providers(c))
}

#[tauri::command]
#[specta::specta]
pub async fn list_offers(state: State<'_, AppState>, filter: OfferFilter) -> Reply<Vec<ListedOffer>> {
    state.with_reader(|c, _| suanli_api::catalog::list_offers(c, &filter, state.today()))
}

/// One page of the offers table: the table never holds more than a page,
/// however many offers imports brought.
#[tauri::command]
#[specta::specta]
pub async fn list_offers_page(
    state: State<'_, AppState>,
    filter: OfferFilter,
    offset: u32,
    limit: u32,
) -> Reply<OfferPage> {
    state.with_reader(|c, _| suanli_api::catalog::list_offers_page(c, &filter, state.today(), offset, limit))
}

#[tauri::command]
#[specta::specta]
pub async fn offer_history(state: State<'_, AppState>, id: String) -> Reply<Vec<PriceChange>> {
    state.with_reader(|c, _| suanli_api::catalog::offer_history(c, &id))
}

#[tauri::command]
#[specta::specta]
pub async fn accelerators_for_workload(
    state: State<'_, AppState>,
    filter: OfferFilter,
) -> Reply<Vec<suanli_api::catalog::AcceleratorForWorkload>> {
    state.with_reader(|c, _| suanli_api::catalog::accelerators_for_workload(c, &filter))
}

#[tauri::command]
#[specta::specta]
pub async fn get_source(state: State<'_, AppState>, id: String) -> Reply<Option<Source>> {
    state.with_reader(|c, _| suanli_api::catalog::source(c, &id))
}

#[tauri::command]
#[specta::specta]
pub fn workload_classes() -> Reply<Vec<WorkloadClass>> {
    Ok(suanli_api::catalog::workload_classes())
}

#[tauri::command]
#[specta::specta]
pub async fn pricebook(state: State<'_, AppState>) -> Reply<PriceBook> {
    state.with_reader(|c, _| suanli_api::catalog::pricebook(c))
}

#[tauri::command]
#[specta::specta]
pub async fn pricebook_put_offer(state: State<'_, AppState>, offer: Offer) -> Reply<PriceBook> {
    state.with(|c, _| suanli_api::catalog::pricebook_put_offer(c, &offer))
}

#[tauri::command]
#[specta::specta]
pub async fn pricebook_put_discount(state: State<'_, AppState>, discount: Discount) -> Reply<PriceBook> {
    state.with(|c, _| suanli_api::catalog::pricebook_put_discount(c, &discount))
}

#[tauri::command]
#[specta::specta]
pub async fn pricebook_remove(state: State<'_, AppState>, id: String) -> Reply<PriceBook> {
    state.with(|c, _| suanli_api::catalog::pricebook_remove(c, &id))
}

#[tauri::command]
#[specta::specta]
pub fn examples() -> Reply<Vec<Example>> {
    suanli_api::document::examples().map_err(|e| e.to_json(suanli_api::Lang::En))
}

#[tauri::command]
#[specta::specta]
pub async fn scenario_from_toml(state: State<'_, AppState>, text: String) -> Reply<ScenarioDoc> {
    state.with_optional(|_, _| suanli_api::document::doc_from_toml(&text).map(ScenarioDoc))
}

#[tauri::command]
#[specta::specta]
pub async fn scenario_to_toml(state: State<'_, AppState>, scenario: ScenarioDoc) -> Reply<String> {
    state.with_optional(|_, _| suanli_api::document::doc_to_toml(&scenario.0))
}

#[tauri::command]
#[specta::specta]
pub async fn evaluate(state: State<'_, AppState>, scenario: ScenarioDoc) -> Reply<Evaluated> {
    state.with_optional(|c, lang| suanli_api::document::evaluate_doc(&scenario.0, c, lang, state.today()))
}

/// The catalogue searched for the document's demand under the constraints.
#[tauri::command]
#[specta::specta]
pub async fn recommend(
    state: State<'_, AppState>,
    scenario: ScenarioDoc,
    constraints: suanli_api::recommend::Constraints,
    rank_by: RankBy,
) -> Reply<suanli_api::recommend::Recommendation> {
    state.with_reader(|c, lang| suanli_api::recommend::recommend_doc(c, &scenario.0, &constraints, rank_by, lang))
}

/// The document with the picked candidates as its options.
#[tauri::command]
#[specta::specta]
pub async fn recommend_pick(
    state: State<'_, AppState>,
    scenario: ScenarioDoc,
    constraints: suanli_api::recommend::Constraints,
    rank_by: RankBy,
    ids: Vec<String>,
) -> Reply<ScenarioDoc> {
    state.with(|c, lang| {
        suanli_api::recommend::doc_with_picks(c, &scenario.0, &constraints, rank_by, &ids, lang).map(ScenarioDoc)
    })
}

#[tauri::command]
#[specta::specta]
pub async fn simulate(
    state: State<'_, AppState>,
    scenario: ScenarioDoc,
    trials: u32,
    seed: u32,
) -> Reply<SimulationJson> {
    blocking(state, move |state| {
        let (s, _) = state
            .step_optional(|c, _| suanli_api::document::checked(&scenario.0, c))
            .map_err(|e| e.to_json(state.lang()))?;
        let lang = state.lang();
        let (e, sim) =
            suanli_api::analytics::simulate(&s, trials, u64::from(seed), 0, &|_| {}).map_err(|e| e.to_json(lang))?;
        suanli_api::analytics::simulation_json(&e, &sim, lang).map_err(|e| e.to_json(lang))
    })
    .await
}

#[tauri::command]
#[specta::specta]
pub async fn sensitivity(state: State<'_, AppState>, scenario: ScenarioDoc) -> Reply<SensitivityJson> {
    blocking(state, move |state| {
        let (s, _) = state
            .step_optional(|c, _| suanli_api::document::checked(&scenario.0, c))
            .map_err(|e| e.to_json(state.lang()))?;
        let lang = state.lang();
        let sens = suanli_api::analytics::sensitivity(&s).map_err(|e| e.to_json(lang))?;
        suanli_api::analytics::sensitivity_json(&sens, s.currency).map_err(|e| e.to_json(lang))
    })
    .await
}

#[tauri::command]
#[specta::specta]
pub async fn library_list(state: State<'_, AppState>) -> Reply<Vec<ScenarioMeta>> {
    state.with_reader(|c, _| suanli_api::library::list(c))
}

#[tauri::command]
#[specta::specta]
pub async fn library_open(state: State<'_, AppState>, id: u32) -> Reply<SavedScenario> {
    state.with_reader(|c, _| suanli_api::library::open(c, id))
}

/// Saves the scenario (new when `id` is null); refuses one that breaks a rule.
#[tauri::command]
#[specta::specta]
pub async fn library_save(state: State<'_, AppState>, id: Option<u32>, scenario: ScenarioDoc) -> Reply<ScenarioMeta> {
    state.with(|c, _| suanli_api::library::save(c, id, &scenario.0))
}

#[tauri::command]
#[specta::specta]
pub async fn library_duplicate(state: State<'_, AppState>, id: u32) -> Reply<ScenarioMeta> {
    state.with(|c, lang| suanli_api::library::duplicate(c, id, lang))
}

#[tauri::command]
#[specta::specta]
pub async fn library_rename(state: State<'_, AppState>, id: u32, name: String) -> Reply<ScenarioMeta> {
    state.with(|c, _| suanli_api::library::rename(c, id, &name))
}

#[tauri::command]
#[specta::specta]
pub async fn library_delete(state: State<'_, AppState>, id: u32) -> Reply<()> {
    state.with(|c, _| suanli_api::library::delete(c, id))
}

#[tauri::command]
#[specta::specta]
pub async fn library_compare(state: State<'_, AppState>, a: u32, b: u32) -> Reply<Comparison> {
    state.with_reader(|c, lang| suanli_api::library::compare(c, a, b, lang))
}

/// Keeps the editor's state, valid or not, so a crash loses nothing.
#[tauri::command]
#[specta::specta]
pub async fn autosave_put(state: State<'_, AppState>, scenario: ScenarioDoc, library_id: Option<u32>) -> Reply<()> {
    state.with(|c, _| suanli_api::library::put_draft(c, &scenario.0, library_id))
}

#[tauri::command]
#[specta::specta]
pub async fn autosave_get(state: State<'_, AppState>) -> Reply<Option<Draft>> {
    state.with_reader(|c, _| suanli_api::library::draft(c))
}

#[tauri::command]
#[specta::specta]
pub async fn autosave_clear(state: State<'_, AppState>) -> Reply<()> {
    state.with(|c, _| suanli_api::library::clear_draft(c))
}

/// Applies a signed catalogue pack file (and `FILE.minisig` beside it).
#[tauri::command]
#[specta::specta]
pub async fn catalog_update_file(state: State<'_, AppState>, path: String) -> Reply<UpdateSummary> {
    blocking(state, move |state| {
        state.with(|c, _| suanli_api::catalog::pack_apply(c, std::path::Path::new(&path), false).map(UpdateSummary::of))
    })
    .await
}

/// Downloads, verifies and applies a signed pack: the only network use, and only on request.
#[tauri::command]
#[specta::specta]
pub async fn catalog_update_url(
    state: State<'_, AppState>,
    url: String,
    on_progress: Channel<UpdateProgress>,
) -> Reply<UpdateSummary> {
    blocking(state, move |state| {
        let send = |stage: UpdateStage, done: u64, total: Option<u64>| {
            let event = UpdateProgress { stage, done_bytes: done as f64, total_bytes: total.map(|t| t as f64) };
            // A window that closed mid-update does not stop the update.
            let _ = on_progress.send(event);
        };
        // The download holds no lock: evaluations and every other command
        // go on meanwhile. The lock is taken only to verify and apply.
        // Nothing is downloaded for a database that is not open.
        let mut progress = |done: u64, total: Option<u64>| send(UpdateStage::Download, done, total);
        let result = state
            .with(|_, _| Ok(()))
            .and_then(|()| suanli_api::catalog::update_fetch(&url, &mut progress).map_err(|e| e.to_json(state.lang())))
            .and_then(|fetched| {
                send(UpdateStage::Apply, 0, None);
                state.with(|c, _| suanli_api::catalog::update_apply(c, &fetched, false).map(UpdateSummary::of))
            });
        send(UpdateStage::Done, 0, None);
        result
    })
    .await
}

/// The feeds a price refresh can download, and their public addresses.
#[tauri::command]
#[specta::specta]
pub fn feed_choice() -> Reply<FeedChoice> {
    Ok(suanli_api::catalog::feed_choice())
}

/// Downloads the chosen price feeds from the given addresses (the public
/// ones, or a mirror), then imports them all in one transaction. The
/// download holds no lock: evaluations go on meanwhile; only the import
/// takes it. [`catalog_refresh_cancel`] stops it, and then nothing changes.
#[tauri::command]
#[specta::specta]
pub async fn catalog_refresh(
    state: State<'_, AppState>,
    feeds: Vec<String>,
    skypilot_url: String,
    azure_url: String,
    on_progress: Channel<RefreshProgress>,
) -> Reply<Vec<FeedReport>> {
    blocking(state, move |state| {
        let lang = state.lang();
        let send = |stage: UpdateStage, feed: &str, done: u64| {
            let _ = on_progress.send(RefreshProgress { stage, feed: feed.to_owned(), done_bytes: done as f64 });
        };
        state.cancel_refresh.store(false, std::sync::atomic::Ordering::SeqCst);
        let urls = suanli_api::catalog::FeedUrls { skypilot: skypilot_url, azure: azure_url, ..Default::default() };
        let result = state
            .step(|_, _| suanli_api::catalog::parse_feeds(&feeds))
            .map_err(|e| e.to_json(lang))
            .and_then(|feeds| {
                let mut progress = |feed: &str, n: u64| send(UpdateStage::Download, feed, n);
                suanli_api::catalog::refresh_fetch(&feeds, &urls, &mut progress, &state.cancel_refresh)
                    .map_err(|e| e.to_json(lang))
            })
            .and_then(|fetched| {
                send(UpdateStage::Apply, "", 0);
                state.step(|c, _| suanli_api::catalog::refresh_apply(c, &fetched)).map_err(|e| e.to_json(lang))
            })
            .map(|reports| reports.into_iter().map(|(feed, r)| FeedReport::of(feed, &r)).collect());
        send(UpdateStage::Done, "", 0);
        result
    })
    .await
}

/// Stops the price refresh under way, if any (at its next chunk of bytes).
#[tauri::command]
#[specta::specta]
pub fn catalog_refresh_cancel(state: State<'_, AppState>) -> Reply<()> {
    state.cancel_refresh.store(true, std::sync::atomic::Ordering::SeqCst);
    Ok(())
}

/// Where an export goes unless the user picks another place: the
/// Documents folder (or home), named after the scenario.
#[tauri::command]
#[specta::specta]
pub fn default_export_path(name: String, extension: String) -> String {
    suanli_api::default_export_path(&name, &extension).display().to_string()
}

/// Writes the proposal PDF (whole or not at all): the same bytes `suanli proposal` writes.
#[tauri::command]
#[specta::specta]
pub async fn export_proposal(
    state: State<'_, AppState>,
    scenario: ScenarioDoc,
    path: String,
    fields: ProposalFields,
) -> Reply<Exported> {
    blocking(state, move |state| {
        let ((s, _), stale_after) = state
            .step_optional(|c, _| {
                Ok((suanli_api::document::checked(&scenario.0, c)?, suanli_api::freshness::stale_after_or_default(c)?))
            })
            .map_err(|e| e.to_json(state.lang()))?;
        let lang = state.lang();
        let today = state.today().format("%Y-%m-%d").to_string();
        suanli_api::proposal::export_proposal(&s, lang, fields, today, stale_after, std::path::Path::new(&path))
            .map_err(|e| e.to_json(lang))
    })
    .await
}

/// Writes the spreadsheet (`.xlsx`, whole or not at all).
#[tauri::command]
#[specta::specta]
pub async fn export_spreadsheet(state: State<'_, AppState>, scenario: ScenarioDoc, path: String) -> Reply<Exported> {
    blocking(state, move |state| {
        let (s, _) = state
            .step_optional(|c, _| suanli_api::document::checked(&scenario.0, c))
            .map_err(|e| e.to_json(state.lang()))?;
        let lang = state.lang();
        suanli_api::proposal::export_spreadsheet(&s, lang, std::path::Path::new(&path)).map_err(|e| e.to_json(lang))
    })
    .await
}

//! Catalogue use cases: open, list, show, search, import, packs, update,
//! price book. Each is one function the CLI and the desktop shell call.

use std::path::Path;

use chrono::NaiveDate;
use serde::Serialize;
use suanli_catalog::Efficiency;
/// One step in an offer's price history.
pub use suanli_catalog::PriceChange;
use suanli_catalog::pack::{self, VerifyOptions};
use suanli_catalog::query::REFERENCE_ACCELERATOR;
use suanli_catalog::ratios::{Calibration, DerivedRatio, NoRatio, RatioUsed};
use suanli_model::{InputError, Rule, WorkloadClass};

use crate::files::{Output, now_utc, read, write_all, write_all_into, write_atomic};
use crate::{Allowed, Error};

mod refresh;

pub use crate::database::{open_catalog, open_reader};
pub use refresh::{
    FeedChoice, FeedReport, FeedSource, FeedUrls, FetchedFeeds, REFRESHABLE_FEEDS, RefreshProgress, feed_choice,
    parse_feeds, refresh, refresh_apply, refresh_fetch,
};

// The catalogue's types the CLI and the shell name: the store as a handle,
// its rows, filters and reports. Its methods stay behind this module's functions.
/// What the catalogue refused, and why.
pub use suanli_catalog::Error as CatalogError;
/// A price feed's format: what `import` reads.
pub use suanli_catalog::import::Format as FeedFormat;
pub use suanli_catalog::import::{ImportReport, Provenance, SkipReason};
pub use suanli_catalog::pack::{
    CatalogTable, FieldCount, MAX_REMOVAL_SHARE, Plan, Removals, Scope, Subset, TableChange,
};
pub use suanli_catalog::pricebook::{Discount, PriceBookFile, Targets};
pub use suanli_catalog::query::{
    AcceleratorFilter, AcceleratorForWorkload, BestOffer, InferenceModel, Jurisdiction, OfferFilter, OfferOrigin,
    OfferSort, OfferView, SearchHit,
};
pub use suanli_catalog::ratios::{Basis, IMPLAUSIBLE, PinnedRatio};
pub use suanli_catalog::serving::{ServingCalibration, ServingPoint, SetAside, StackFit};
pub use suanli_catalog::update::{Limits, MAX_AZURE_PAGES, UpdateError};
pub use suanli_catalog::{
    Accelerator, BillingMode, Catalog, ChangeKind, ChangeSummary, Confidence, Counts, MultiNode, Node, Offer,
    OfferChange, OfferChangeKind, Opened, Provider, ScaleOut, ScaleUp, Source, Tables,
};

/// The installed catalogue's version (none before the first pack).
pub fn version(c: &Catalog) -> Result<Option<i64>, Error> {
    Ok(c.version()?)
}

/// How many accelerators, providers, offers and sources the catalogue holds.
pub fn counts(c: &Catalog) -> Result<Counts, Error> {
    Ok(c.counts()?)
}

/// One source by id.
pub fn source(c: &Catalog, id: &str) -> Result<Option<Source>, Error> {
    Ok(c.source(id)?)
}

/// The workload classes offers can be priced for (the ones with ratios).
pub fn workload_classes() -> Vec<WorkloadClass> {
    WorkloadClass::PRICED.to_vec()
}

/// The accelerators that pass the filter, by id.
pub fn list_accelerators(c: &Catalog, filter: &AcceleratorFilter) -> Result<Vec<Accelerator>, Error> {
    Ok(c.accelerators(filter)?)
}

/// Every provider, by id.
pub fn list_providers(c: &Catalog) -> Result<Vec<Provider>, Error> {
    Ok(c.providers()?)
}

/// An offer as the offers list shows it: with how old its price is.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ListedOffer {
    /// The offer with its derived prices (its fields are flattened into the JSON).
    #[serde(flatten)]
    pub view: OfferView,
    /// Its price's age against the stale threshold (a setting) on the day asked.
    pub freshness: crate::freshness::Freshness,
    /// Months its billing mode commits the buyer for ([`BillingMode::term_months`]);
    /// none for on demand, spot and purchases.
    pub term_months: Option<u32>,
}

/// Offers of the catalogue, imports and the price book that pass the filter,
/// sorted as it asks, each aged on `today`.
pub fn list_offers(c: &Catalog, filter: &OfferFilter, today: NaiveDate) -> Result<Vec<ListedOffer>, Error> {
    let stale_after = crate::freshness::stale_after_months(c)?;
    Ok(c.offers(filter)?.into_iter().map(|view| listed(view, today, stale_after)).collect())
}

/// One page of [`list_offers`]: what a table draws at a time, however many
/// offers imports brought (a price feed can bring a hundred thousand).
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct OfferPage {
    /// How many offers pass the filter.
    pub total: u32,
    /// The position of `rows[0]` among them (from 0).
    pub offset: u32,
    /// At most the `limit` asked for, from `offset`, in the filter's order.
    pub rows: Vec<ListedOffer>,
}

/// The offers [`list_offers`] gives, from `offset` and at most `limit` of
/// them (an offset past the end gives none), with how many there are.
pub fn list_offers_page(
    c: &Catalog,
    filter: &OfferFilter,
    today: NaiveDate,
    offset: u32,
    limit: u32,
) -> Result<OfferPage, Error> {
    let stale_after = crate::freshness::stale_after_months(c)?;
    let views = c.offers(filter)?;
    let total = u32::try_from(views.len()).unwrap_or(u32::MAX);
    let rows = views
        .into_iter()
        .skip(offset as usize)
        .take(limit as usize)
        .map(|view| listed(view, today, stale_after))
        .collect();
    Ok(OfferPage { total, offset, rows })
}

fn listed(view: OfferView, today: NaiveDate, stale_after: u32) -> ListedOffer {
    let freshness = crate::freshness::Freshness::of(view.offer.as_of.as_deref(), today, stale_after);
    let term_months = view.offer.billing_mode.term_months();
    ListedOffer { view, freshness, term_months }
}

/// Every change to one offer's price, oldest first (bundled upgrades,
/// imports, refreshes, packs); empty for an id nothing ever priced.
pub fn offer_history(c: &Catalog, id: &str) -> Result<Vec<PriceChange>, Error> {
    Ok(c.price_history(id)?)
}

/// Every accelerator of the catalogue for the filter's workload class,
/// ranked by its best offer's effective price per reference-GPU-hour (or
/// cost per million tokens when the filter states a served model); those
/// without a priced rental offer follow, by hardware price per reference
/// GPU, then by ratio. The filter's other fields select the offers; it
/// must name the workload class and the currency prices are compared in
/// (an offer in another currency without a rate in `fx` has no price here).
pub fn accelerators_for_workload(c: &Catalog, filter: &OfferFilter) -> Result<Vec<AcceleratorForWorkload>, Error> {
    let required = |field: &str| Error::Invalid(vec![InputError::missing(field, Rule::Required)]);
    let class = filter.workload_class.ok_or_else(|| required("workload_class"))?;
    if filter.currency.is_none() {
        return Err(Error::Argument {
            name: "--currency".into(),
            value: "(missing)".into(),
            allowed: Allowed::Currency,
        });
    }
    Ok(c.accelerators_for_workload(filter, class)?)
}

/// An accelerator's ratio for one workload class, or why it has none.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ClassRatio {
    /// The workload class.
    pub workload_class: WorkloadClass,
    /// The ratio to the reference GPU, with its basis; `null` when there is none.
    pub ratio: Option<RatioUsed>,
    /// Why there is none; `null` when there is a ratio.
    pub no_ratio: Option<NoRatio>,
}

/// An accelerator's ratio for every priced workload class.
pub fn class_ratios(c: &Catalog, accelerator_id: &str) -> Result<Vec<ClassRatio>, Error> {
    let book = c.ratio_book(REFERENCE_ACCELERATOR)?;
    Ok(WorkloadClass::PRICED
        .iter()
        .map(|class| match book.get(accelerator_id, *class) {
            Ok(r) => ClassRatio { workload_class: *class, ratio: Some(RatioUsed::clone(r)), no_ratio: None },
            Err(why) => ClassRatio { workload_class: *class, ratio: None, no_ratio: Some(why) },
        })
        .collect())
}

/// The leave-one-out calibration of the estimate model, and the
/// comparisons set aside as implausible.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct CalibrationReport {
    /// Each measured or derived ratio beside its left-out estimate, and the errors by class.
    pub calibration: Calibration,
    /// Like-for-like comparisons derived from the measurements.
    pub comparisons: u32,
    /// Comparisons set aside: they disagree with both parts' specs by more
    /// than [`IMPLAUSIBLE`] (a log or unit problem, an untuned run).
    pub set_aside: Vec<DerivedRatio>,
    /// The serving model (tokens per second) against MLPerf Inference.
    pub serving: ServingCalibration,
}

/// The leave-one-out calibration of the estimate model, with how many
/// comparisons it rests on and the ones set aside.
pub fn calibration(c: &Catalog) -> Result<CalibrationReport, Error> {
    let book = c.ratio_book(REFERENCE_ACCELERATOR)?;
    Ok(CalibrationReport {
        calibration: c.calibration(REFERENCE_ACCELERATOR)?,
        comparisons: book.derived.len() as u32,
        set_aside: book.set_aside.clone(),
        serving: c.serving_calibration()?,
    })
}

/// Pins a ratio (the user's figure beats every measured or estimated one).
pub fn pin_ratio(
    c: &mut Catalog,
    accelerator_id: &str,
    class: WorkloadClass,
    ratio: f64,
    note: Option<String>,
) -> Result<PinnedRatio, Error> {
    let pin = PinnedRatio {
        accelerator_id: accelerator_id.to_owned(),
        workload_class: class,
        ratio,
        note: note.filter(|n| !n.trim().is_empty()),
        pinned_at: crate::today(),
    };
    c.pin_ratio(&pin)?;
    Ok(pin)
}

/// Removes a pin; an error names it when there was none.
pub fn unpin_ratio(c: &mut Catalog, accelerator_id: &str, class: WorkloadClass) -> Result<(), Error> {
    if c.unpin_ratio(accelerator_id, class)? {
        Ok(())
    } else {
        Err(Error::NotFound(format!("{accelerator_id} {class}")))
    }
}

/// The ratios the user pinned.
pub fn pinned_ratios(c: &Catalog) -> Result<Vec<PinnedRatio>, Error> {
    Ok(c.pinned_ratios()?)
}

/// Anything the catalogue holds under an id, with what explains it.
#[derive(Debug, Clone, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Item {
    /// An accelerator (`kind`: `accelerator`).
    Accelerator {
        /// The catalogue row.
        accelerator: Box<Accelerator>,
        /// Its ratio for every workload class (measured, derived, estimated,
        /// pinned …) or why there is none.
        ratios: Vec<ClassRatio>,
        /// Ratio rows of the fact sheets that name it.
        efficiency: Vec<Efficiency>,
        /// The published results it was measured in (suite, case, round).
        measured_in: Vec<String>,
        /// The sources its row, its ratio rows and its ratios cite, by id.
        sources: Vec<Source>,
    },
    /// A provider (`kind`: `provider`).
    Provider {
        /// The catalogue row.
        provider: Provider,
        /// The sources its row cites.
        sources: Vec<Source>,
    },
    /// An offer (`kind`: `offer`), as the offers list shows it under the filter.
    Offer {
        /// The offer with its derived prices.
        offer: Box<OfferView>,
        /// How old its price is, against the stale threshold (a setting).
        freshness: crate::freshness::Freshness,
        /// Every change to its price, oldest first: bundled upgrades, imports, packs.
        history: Vec<PriceChange>,
        /// The sources it and its ratio cite.
        sources: Vec<Source>,
    },
    /// A source (`kind`: `source`).
    Source {
        /// The source row.
        source: Source,
    },
}

fn sources_of(c: &Catalog, ids: &str) -> Result<Vec<Source>, Error> {
    let mut out = Vec::new();
    for id in ids.split(';').map(str::trim).filter(|s| !s.is_empty()) {
        if let Some(s) = c.source(id)? {
            out.push(s);
        }
    }
    Ok(out)
}

/// Shows one item by id, with its sources and (for offers) price history
/// and its price's age on `today`.
pub fn show(c: &Catalog, id: &str, filter: &OfferFilter, today: NaiveDate) -> Result<Item, Error> {
    if let Some(a) = c.accelerator(id)? {
        let efficiency = c.efficiency_rows(id)?;
        let ratios = class_ratios(c, id)?;
        let mut measured_in: Vec<String> = c
            .measurements_of(id)?
            .iter()
            .map(|m| {
                let round = m.suite_version.as_deref().filter(|_| m.suite.round_matters());
                format!("{} {}{}", m.suite.label(), m.case, round.map_or(String::new(), |r| format!(" {r}")))
            })
            .collect();
        measured_in.dedup();
        let mut sources = sources_of(c, &a.source)?;
        for e in &efficiency {
            sources.extend(sources_of(c, &e.source)?);
        }
        for r in ratios.iter().filter_map(|r| r.ratio.as_ref()) {
            sources.extend(sources_of(c, &r.source)?);
        }
        sources.sort_by(|x, y| x.id.cmp(&y.id));
        sources.dedup_by(|x, y| x.id == y.id);
        return Ok(Item::Accelerator { accelerator: Box::new(a), ratios, efficiency, measured_in, sources });
    }
    if let Some(p) = c.provider(id)? {
        let sources = sources_of(c, &p.source)?;
        return Ok(Item::Provider { provider: p, sources });
    }
    if let Some(o) = c.offer(id, filter)? {
        let history = c.price_history(id)?;
        let mut sources = sources_of(c, &o.offer.source)?;
        if let Some(r) = &o.efficiency {
            sources.extend(sources_of(c, &r.source)?);
        }
        let freshness =
            crate::freshness::Freshness::of(o.offer.as_of.as_deref(), today, crate::freshness::stale_after_months(c)?);
        return Ok(Item::Offer { offer: Box::new(o), freshness, history, sources });
    }
    if let Some(s) = c.source(id)? {
        return Ok(Item::Source { source: s });
    }
    Err(Error::Catalog(suanli_catalog::Error::NotFound(id.to_owned())))
}

/// Full-text search over ids and names, in Chinese and English.
pub fn search(c: &Catalog, text: &str) -> Result<Vec<SearchHit>, Error> {
    Ok(c.search(text)?)
}

/// The provenance an imported feed's offers carry: the source the user gave,
/// else the feed's name and version, never the local file it was saved as.
pub fn feed_provenance(
    format: &FeedFormat,
    feed_version: Option<&str>,
    source: Option<String>,
    as_of: Option<String>,
    confidence: Confidence,
) -> Provenance {
    let feed = match format {
        FeedFormat::Csv => "offers CSV".to_owned(),
        FeedFormat::Skypilot { provider } => {
            let (cloud, _) = suanli_catalog::aliases::skypilot_cloud(provider);
            format!("SkyPilot catalogue {cloud}/vms.csv")
        }
        FeedFormat::AzureRetail => "Azure Retail Prices API".to_owned(),
    };
    let version = feed_version.map_or(String::new(), |v| format!(" @ {v}"));
    Provenance { source: source.unwrap_or_else(|| format!("{feed}{version}")), as_of, confidence }
}

/// An import in which rows were read and none landed is a failure (after
/// its report is shown): nothing was imported.
pub fn require_landed(report: &ImportReport) -> Result<(), Error> {
    if report.rows > 0 && report.rows_landed == 0 {
        return Err(Error::Catalog(suanli_catalog::Error::NothingLanded { rows: report.rows }));
    }
    Ok(())
}

/// Imports a price feed file in one transaction.
pub fn import(
    c: &mut Catalog,
    format: &FeedFormat,
    file: &Path,
    provenance: &Provenance,
) -> Result<ImportReport, Error> {
    let bytes = read(file)?;
    Ok(c.import(format, &bytes, provenance, &now_utc())?)
}

/// What one change did, offer by offer (new, repriced, removed).
pub fn change_details(c: &Catalog, change_id: i64) -> Result<Vec<OfferChange>, Error> {
    if !c.changes()?.iter().any(|ch| ch.id == change_id) {
        return Err(Error::Catalog(suanli_catalog::Error::NotFound(format!("change {change_id}"))));
    }
    Ok(c.change_details(change_id)?)
}

/// Every change the catalogue has seen, newest first.
pub fn changes(c: &Catalog) -> Result<Vec<ChangeSummary>, Error> {
    Ok(c.changes()?)
}

/// Writes the catalogue (or a subset) as a pack, signed when a secret key
/// file is given: `out` and `out.minisig`, both written or neither.
pub fn pack_export(
    c: &Catalog,
    out: &Path,
    secret_key: Option<&Path>,
    version: i64,
    label: &str,
    subset: &Subset,
) -> Result<(), Error> {
    pack::check_version(version, None)?;
    let p = c.export_pack(version, label, &now_utc(), subset)?;
    let bytes = pack::to_bytes(&p)?;
    let signature = match secret_key {
        Some(key) => {
            let key_text = String::from_utf8_lossy(&read(key)?).into_owned();
            Some(pack::sign(&bytes, &key_text, version)?)
        }
        None => None,
    };
    let sig_path = signature_path(out);
    let mut outputs = vec![Output { path: out, bytes: &bytes, private: false }];
    if let Some(sig) = &signature {
        outputs.push(Output { path: &sig_path, bytes: sig.as_bytes(), private: false });
    }
    // A pack beside another pack's signature would be refused: both or neither.
    write_all(&outputs)
}

fn signature_path(pack: &Path) -> std::path::PathBuf {
    let mut name = pack.as_os_str().to_owned();
    name.push(".minisig");
    name.into()
}

/// What verification found, for a reader.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct PackSummary {
    /// What the pack is, as its maker labelled it.
    pub label: String,
    /// The catalogue version it installs.
    #[cfg_attr(feature = "specta", specta(type = f64))]
    pub version: i64,
    /// When the pack was made, as its maker gave it.
    pub created: String,
    /// Key id of the signer; `null` for an unsigned pack the user allowed.
    pub signed_by: Option<String>,
    /// Accelerator rows in the pack.
    #[cfg_attr(feature = "specta", specta(type = f64))]
    pub accelerators: usize,
    /// Provider rows in the pack.
    #[cfg_attr(feature = "specta", specta(type = f64))]
    pub providers: usize,
    /// Offer rows in the pack.
    #[cfg_attr(feature = "specta", specta(type = f64))]
    pub offers: usize,
    /// The providers it covers; `None` for a whole-catalogue pack (which
    /// removes every catalogue row it does not hold).
    pub providers_covered: Option<Vec<String>>,
    /// What applying it changes (or changed), table by table.
    pub plan: Plan,
    /// Applying it removes more than [`pack::MAX_REMOVAL_SHARE`] of a
    /// table's rows, so it needs the explicit flag (`--allow-removals`).
    pub needs_allow_removals: bool,
}

fn verify_file(c: &Catalog, file: &Path, allow_unsigned: bool) -> Result<pack::Verified, Error> {
    let bytes = read(file)?;
    let sig_path = signature_path(file);
    let signature = match std::fs::read(&sig_path) {
        Ok(b) => Some(String::from_utf8_lossy(&b).into_owned()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(source) => return Err(Error::Read { path: sig_path.display().to_string(), source }),
    };
    verify_bytes(c, &bytes, signature.as_deref(), allow_unsigned)
}

fn verify_bytes(
    c: &Catalog,
    bytes: &[u8],
    signature: Option<&str>,
    allow_unsigned: bool,
) -> Result<pack::Verified, Error> {
    let keys = c.trusted_keys()?;
    let options = VerifyOptions { trusted_keys: &keys, allow_unsigned, installed: c.version()? };
    Ok(pack::verify(bytes, signature, &options)?)
}

fn summary(v: &pack::Verified, plan: Plan) -> PackSummary {
    let t = &v.pack.tables;
    let providers_covered = match &v.pack.scope {
        Scope::Catalogue => None,
        Scope::Providers(p) => Some(p.clone()),
    };
    let needs_allow_removals = plan.check_removals(Removals::WithinShare).is_err();
    PackSummary {
        providers_covered,
        plan,
        needs_allow_removals,
        label: v.pack.label.clone(),
        version: v.pack.version,
        created: v.pack.created.clone(),
        signed_by: v.signed_by.clone(),
        accelerators: t.accelerators.len(),
        providers: t.providers.len(),
        offers: t.offers.len(),
    }
}

/// Verifies a pack file (and `FILE.minisig`) without applying it, and
/// says what applying it would change.
pub fn pack_verify(c: &Catalog, file: &Path, allow_unsigned: bool) -> Result<PackSummary, Error> {
    let verified = verify_file(c, file, allow_unsigned)?;
    let plan = c.pack_plan(&verified.pack)?;
    Ok(summary(&verified, plan))
}

/// Verifies and applies a pack file within its scope, refusing a removal
/// past [`pack::MAX_REMOVAL_SHARE`]; on any failure nothing changes.
pub fn pack_apply(c: &mut Catalog, file: &Path, allow_unsigned: bool) -> Result<(PackSummary, ChangeSummary), Error> {
    pack_apply_with(c, file, allow_unsigned, Removals::WithinShare)
}

/// As [`pack_apply`], saying whether a removal past the share is allowed.
pub fn pack_apply_with(
    c: &mut Catalog,
    file: &Path,
    allow_unsigned: bool,
    removals: Removals,
) -> Result<(PackSummary, ChangeSummary), Error> {
    let verified = verify_file(c, file, allow_unsigned)?;
    apply_verified(c, &verified, removals)
}

/// Applies a verified pack; a refusal of the pack itself is a pack error.
fn apply_verified(
    c: &mut Catalog,
    verified: &pack::Verified,
    removals: Removals,
) -> Result<(PackSummary, ChangeSummary), Error> {
    match c.apply_pack(verified, &now_utc(), removals) {
        Ok((plan, change)) => Ok((summary(verified, plan), change)),
        Err(suanli_catalog::Error::Refused(e)) => Err(Error::Pack(e)),
        Err(e) => Err(e.into()),
    }
}

/// Downloads a pack from `url` (and `url.minisig`), verifies it and
/// applies it: [`update_fetch`] then [`update_apply`].
pub fn update(
    c: &mut Catalog,
    url: &str,
    allow_unsigned: bool,
    removals: Removals,
    progress: &mut dyn FnMut(u64, Option<u64>),
) -> Result<(PackSummary, ChangeSummary), Error> {
    let fetched = update_fetch(url, progress)?;
    update_apply_with(c, &fetched, allow_unsigned, removals)
}

/// A pack and its signature as downloaded: neither verified nor applied.
#[derive(Debug, Clone, PartialEq)]
pub struct Fetched(suanli_catalog::update::Download);

/// The network half of [`update`], the only function in Suanli that uses the
/// network. It needs no database, so a caller can download without holding
/// one (the desktop app keeps evaluating while a pack arrives).
pub fn update_fetch(url: &str, progress: &mut dyn FnMut(u64, Option<u64>)) -> Result<Fetched, Error> {
    Ok(Fetched(suanli_catalog::update::download(url, progress)?))
}

/// The database half of [`update`]: verifies a fetched pack against the
/// trusted keys and applies it in one transaction (on any failure nothing changes).
pub fn update_apply(
    c: &mut Catalog,
    fetched: &Fetched,
    allow_unsigned: bool,
) -> Result<(PackSummary, ChangeSummary), Error> {
    update_apply_with(c, fetched, allow_unsigned, Removals::WithinShare)
}

/// As [`update_apply`], saying whether a removal past the share is allowed.
pub fn update_apply_with(
    c: &mut Catalog,
    fetched: &Fetched,
    allow_unsigned: bool,
    removals: Removals,
) -> Result<(PackSummary, ChangeSummary), Error> {
    let Fetched(download) = fetched;
    let verified = verify_bytes(c, &download.pack, download.signature.as_deref(), allow_unsigned)?;
    apply_verified(c, &verified, removals)
}

/// Trusts a minisign public key file for packs; returns its key id.
pub fn trust_key(c: &mut Catalog, public_key_file: &Path, label: &str) -> Result<String, Error> {
    let text = String::from_utf8_lossy(&read(public_key_file)?).into_owned();
    Ok(c.trust_key(&text, label)?)
}

/// Stops trusting the key with this id; an id not trusted is not found.
pub fn untrust_key(c: &mut Catalog, key_id: &str) -> Result<(), Error> {
    if !c.untrust_key(key_id)? {
        return Err(Error::NotFound(format!("trusted key {key_id}")));
    }
    Ok(())
}

/// Writes a new key pair: `DIR/suanli.pub` and `DIR/suanli.key`, the
/// secret key readable by its owner only (mode 0600), both or neither.
pub fn keygen(dir: &Path) -> Result<(std::path::PathBuf, std::path::PathBuf), Error> {
    let (pk, sk) = pack::keygen()?;
    let (pub_path, key_path) = (dir.join("suanli.pub"), dir.join("suanli.key"));
    if std::fs::symlink_metadata(&key_path).is_ok() {
        return Err(Error::Write {
            path: key_path.display().to_string(),
            source: std::io::Error::new(std::io::ErrorKind::AlreadyExists, "a key is already there; not overwritten"),
        });
    }
    write_all_into(
        &[dir],
        &[
            Output { path: &key_path, bytes: sk.as_bytes(), private: true },
            Output { path: &pub_path, bytes: pk.as_bytes(), private: false },
        ],
    )?;
    Ok((pub_path, key_path))
}

/// Writes the price book (own offers and discounts, not pinned ratios) to
/// `out` as JSON; returns how many offers and discounts it holds.
pub fn pricebook_export(c: &Catalog, out: &Path) -> Result<usize, Error> {
    let file = c.export_pricebook()?;
    let mut bytes = serde_json::to_vec_pretty(&file).map_err(suanli_catalog::Error::from)?;
    bytes.push(b'\n');
    write_atomic(out, &bytes)?;
    Ok(file.offers.len() + file.discounts.len())
}

/// Imports a price book file: a Suanli price book (JSON), or a CSV of own
/// offers (`.csv`). Every row is checked first; then all land, or none.
pub fn pricebook_import(c: &mut Catalog, file: &Path) -> Result<usize, Error> {
    let bytes = read(file)?;
    if file.extension().is_some_and(|e| e.eq_ignore_ascii_case("csv")) {
        let text = String::from_utf8(bytes).map_err(|_| Error::Read {
            path: file.display().to_string(),
            source: std::io::Error::new(std::io::ErrorKind::InvalidData, "not UTF-8 text"),
        })?;
        let offers: Vec<Offer> = suanli_catalog::csv_rows(&file.display().to_string(), &text)?;
        let book = PriceBookFile {
            format: suanli_catalog::pricebook::PRICEBOOK_FORMAT.to_owned(),
            version: 1,
            offers,
            discounts: Vec::new(),
        };
        return Ok(c.import_pricebook(&book)?);
    }
    let parsed: PriceBookFile = serde_json::from_slice(&bytes).map_err(|e| {
        Error::Catalog(suanli_catalog::Error::Pack(format!(
            "{} is not a Suanli price book: line {}, column {}: {e}",
            file.display(),
            e.line(),
            e.column()
        )))
    })?;
    Ok(c.import_pricebook(&parsed)?)
}

/// The user's own offers and negotiated discounts.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct PriceBook {
    /// The user's own offers, by id.
    pub offers: Vec<Offer>,
    /// The negotiated discounts, by id.
    pub discounts: Vec<Discount>,
}

/// The price book as it stands.
pub fn pricebook(c: &Catalog) -> Result<PriceBook, Error> {
    Ok(PriceBook { offers: c.pricebook_offers()?, discounts: c.discounts()? })
}

/// Adds or replaces one of the user's own offers (checked field by field).
pub fn pricebook_put_offer(c: &mut Catalog, offer: &Offer) -> Result<PriceBook, Error> {
    c.put_own_offer(offer)?;
    pricebook(c)
}

/// Adds or replaces a negotiated discount (on one offer or one provider,
/// which must be in the catalogue).
pub fn pricebook_put_discount(c: &mut Catalog, discount: &Discount) -> Result<PriceBook, Error> {
    pricebook_put_discount_with(c, discount, Targets::MustExist)
}

/// As [`pricebook_put_discount`], saying whether its provider or offer may
/// be one the user will import later.
pub fn pricebook_put_discount_with(c: &mut Catalog, discount: &Discount, targets: Targets) -> Result<PriceBook, Error> {
    c.put_discount_with(discount, targets)?;
    pricebook(c)
}

/// Removes an own offer or a discount by id; an id in neither is not found.
pub fn pricebook_remove(c: &mut Catalog, id: &str) -> Result<PriceBook, Error> {
    if !c.remove_from_pricebook(id)? {
        return Err(Error::NotFound(id.to_owned()));
    }
    pricebook(c)
}

/// Where a catalogue update is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "lowercase")]
pub enum UpdateStage {
    /// The pack is downloading (no lock held).
    Download,
    /// The pack is being verified and applied.
    Apply,
    /// The update has ended, applied or not.
    Done,
}

/// Progress of a catalogue update, sent as an event while it runs.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct UpdateProgress {
    /// Where the update is.
    pub stage: UpdateStage,
    /// Bytes downloaded so far.
    pub done_bytes: f64,
    /// The download's size, when the server says it.
    pub total_bytes: Option<f64>,
}

/// What a catalogue update did.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct UpdateSummary {
    /// The pack that was applied.
    pub pack: PackSummary,
    /// Offers added.
    pub added: u32,
    /// Offers removed.
    pub removed: u32,
    /// Offers whose price, currency or price unit changed.
    pub repriced: u32,
}

impl UpdateSummary {
    /// A pack's summary and the change it made, counted as a reader counts.
    pub fn of((pack, change): (PackSummary, ChangeSummary)) -> UpdateSummary {
        let n = |x: i64| u32::try_from(x).unwrap_or(u32::MAX);
        UpdateSummary { pack, added: n(change.added), removed: n(change.removed), repriced: n(change.repriced) }
    }
}

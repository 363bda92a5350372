//! Catalogue use cases: open, list, show, search, import, packs, update,
//! price book. Each is one function the CLI and the desktop shell call.

use std::path::Path;

use serde::Serialize;
use suanli_catalog::import::{Format, ImportReport, Provenance};
use suanli_catalog::pack::{self, Subset, VerifyOptions};
use suanli_catalog::pricebook::PriceBookFile;
use suanli_catalog::query::{AcceleratorFilter, OfferFilter, OfferView, REFERENCE_ACCELERATOR};
use suanli_catalog::ratios::{Calibration, DerivedRatio, NoRatio, PinnedRatio, RatioUsed};
use suanli_catalog::{Accelerator, Catalog, ChangeSummary, Efficiency, Opened, PriceChange, Provider, Source};
use suanli_model::WorkloadClass;

use crate::Error;
use crate::files::{Output, now_utc, read, write_all, write_all_into, write_atomic};

/// Opens the catalogue database (creating it from the bundled catalogue
/// on first start). `path`: `None` means [`crate::default_db_path`].
pub fn open_catalog(path: Option<&Path>) -> Result<(Catalog, Opened), Error> {
    let path = path.map_or_else(crate::default_db_path, Path::to_path_buf);
    Ok(Catalog::open(&path, &now_utc())?)
}

pub fn list_accelerators(c: &Catalog, filter: &AcceleratorFilter) -> Result<Vec<Accelerator>, Error> {
    Ok(c.accelerators(filter)?)
}

pub fn list_providers(c: &Catalog) -> Result<Vec<Provider>, Error> {
    Ok(c.providers()?)
}

pub fn list_offers(c: &Catalog, filter: &OfferFilter) -> Result<Vec<OfferView>, Error> {
    Ok(c.offers(filter)?)
}

/// An accelerator's ratio for one workload class, or why it has none.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ClassRatio {
    pub workload_class: WorkloadClass,
    pub ratio: Option<RatioUsed>,
    pub no_ratio: Option<NoRatio>,
}

/// An accelerator's ratio for every priced workload class.
pub fn class_ratios(c: &Catalog, accelerator_id: &str) -> Result<Vec<ClassRatio>, Error> {
    let book = c.ratio_book(REFERENCE_ACCELERATOR)?;
    Ok(WorkloadClass::PRICED
        .iter()
        .map(|class| match book.get(accelerator_id, *class) {
            Ok(r) => ClassRatio { workload_class: *class, ratio: Some(r.clone()), no_ratio: None },
            Err(why) => ClassRatio { workload_class: *class, ratio: None, no_ratio: Some(why) },
        })
        .collect())
}

/// The leave-one-out calibration of the estimate model, and the
/// comparisons set aside as implausible.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct CalibrationReport {
    pub calibration: Calibration,
    /// Like-for-like comparisons derived from the measurements.
    pub comparisons: u32,
    pub set_aside: Vec<DerivedRatio>,
}

pub fn calibration(c: &Catalog) -> Result<CalibrationReport, Error> {
    let book = c.ratio_book(REFERENCE_ACCELERATOR)?;
    Ok(CalibrationReport {
        calibration: c.calibration(REFERENCE_ACCELERATOR)?,
        comparisons: book.derived.len() as u32,
        set_aside: book.set_aside.clone(),
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

pub fn pinned_ratios(c: &Catalog) -> Result<Vec<PinnedRatio>, Error> {
    Ok(c.pinned_ratios()?)
}

/// Anything the catalogue holds under an id, with what explains it.
#[derive(Debug, Clone, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Item {
    Accelerator {
        accelerator: Box<Accelerator>,
        /// Its ratio for every workload class (measured, derived, estimated,
        /// pinned …) or why there is none.
        ratios: Vec<ClassRatio>,
        /// Ratio rows of the fact sheets that name it.
        efficiency: Vec<Efficiency>,
        /// The published results it was measured in (suite, case, round).
        measured_in: Vec<String>,
        sources: Vec<Source>,
    },
    Provider {
        provider: Provider,
        sources: Vec<Source>,
    },
    Offer {
        offer: Box<OfferView>,
        history: Vec<PriceChange>,
        sources: Vec<Source>,
    },
    Source {
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

/// Shows one item by id, with its sources and (for offers) price history.
pub fn show(c: &Catalog, id: &str, filter: &OfferFilter) -> Result<Item, Error> {
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
        return Ok(Item::Offer { offer: Box::new(o), history, sources });
    }
    if let Some(s) = c.source(id)? {
        return Ok(Item::Source { source: s });
    }
    Err(Error::Catalog(suanli_catalog::Error::NotFound(id.to_owned())))
}

pub fn search(c: &Catalog, text: &str) -> Result<Vec<suanli_catalog::query::SearchHit>, Error> {
    Ok(c.search(text)?)
}

/// Imports a price feed file in one transaction.
pub fn import(c: &mut Catalog, format: &Format, file: &Path, provenance: &Provenance) -> Result<ImportReport, Error> {
    let bytes = read(file)?;
    Ok(c.import(format, &bytes, provenance, &now_utc())?)
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
    pub label: String,
    #[cfg_attr(feature = "specta", specta(type = f64))]
    pub version: i64,
    pub created: String,
    pub signed_by: Option<String>,
    #[cfg_attr(feature = "specta", specta(type = f64))]
    pub accelerators: usize,
    #[cfg_attr(feature = "specta", specta(type = f64))]
    pub providers: usize,
    #[cfg_attr(feature = "specta", specta(type = f64))]
    pub offers: usize,
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

fn summary(v: &pack::Verified) -> PackSummary {
    let t = &v.pack.tables;
    PackSummary {
        label: v.pack.label.clone(),
        version: v.pack.version,
        created: v.pack.created.clone(),
        signed_by: v.signed_by.clone(),
        accelerators: t.accelerators.len(),
        providers: t.providers.len(),
        offers: t.offers.len(),
    }
}

/// Verifies a pack file (and `FILE.minisig`) without applying it.
pub fn pack_verify(c: &Catalog, file: &Path, allow_unsigned: bool) -> Result<PackSummary, Error> {
    Ok(summary(&verify_file(c, file, allow_unsigned)?))
}

/// Verifies and applies a pack file; on any failure nothing changes.
pub fn pack_apply(c: &mut Catalog, file: &Path, allow_unsigned: bool) -> Result<(PackSummary, ChangeSummary), Error> {
    let verified = verify_file(c, file, allow_unsigned)?;
    let change = c.apply_pack(&verified, &now_utc())?;
    Ok((summary(&verified), change))
}

/// Downloads a pack from `url` (and `url.minisig`), verifies it and
/// applies it: [`update_fetch`] then [`update_apply`].
pub fn update(
    c: &mut Catalog,
    url: &str,
    allow_unsigned: bool,
    progress: &mut dyn FnMut(u64, Option<u64>),
) -> Result<(PackSummary, ChangeSummary), Error> {
    let fetched = update_fetch(url, progress)?;
    update_apply(c, &fetched, allow_unsigned)
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
    let Fetched(download) = fetched;
    let verified = verify_bytes(c, &download.pack, download.signature.as_deref(), allow_unsigned)?;
    let change = c.apply_pack(&verified, &now_utc())?;
    Ok((summary(&verified), change))
}

/// Trusts a minisign public key file for packs; returns its key id.
pub fn trust_key(c: &mut Catalog, public_key_file: &Path, label: &str) -> Result<String, Error> {
    let text = String::from_utf8_lossy(&read(public_key_file)?).into_owned();
    Ok(c.trust_key(&text, label)?)
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

pub fn pricebook_export(c: &Catalog, out: &Path) -> Result<usize, Error> {
    let file = c.export_pricebook()?;
    let mut bytes = serde_json::to_vec_pretty(&file).map_err(suanli_catalog::Error::from)?;
    bytes.push(b'\n');
    write_atomic(out, &bytes)?;
    Ok(file.offers.len() + file.discounts.len())
}

pub fn pricebook_import(c: &mut Catalog, file: &Path) -> Result<usize, Error> {
    let bytes = read(file)?;
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

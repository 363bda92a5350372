//! Importers of real price feeds: the project's own offers CSV, SkyPilot
//! catalogue `vms.csv` files, and Azure Retail Prices API pages.
//!
//! An import is one transaction: every valid row lands, or (on any
//! failure) none does. Rows that break a rule are rejected and listed with
//! their line, field and value; rows that are not GPU offers (CPU-only
//! sizes, Windows meters) are skipped and counted. Imported offers live in
//! their own table, so a bundled upgrade or pack never removes them, and
//! they shadow a catalogue offer with the same id.

use std::collections::BTreeMap;

use foldhash::{HashMap, HashMapExt, HashSet};
use std::fmt::Write as _;

use serde::{Deserialize, Serialize};

use crate::check::{Checker, Problem, RowError};
use suanli_model::{Currency, Lang};

use crate::change_label::ChangeLabel;
use crate::rows::{BillingMode, Confidence, Offer, PriceUnit};
use crate::{Catalog, ChangeScope, ChangeSummary, Error, index_offers, record_change_with, store};

/// What kind of feed a file is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Format {
    /// The project's own offers CSV (the columns of `data/catalog/offers.csv`).
    Csv,
    /// A SkyPilot catalogue `vms.csv`; the file does not say whose prices
    /// they are, so the provider id is given.
    Skypilot {
        /// A catalogue provider id (`vast-ai`) or SkyPilot cloud name (`vast`).
        provider: String,
    },
    /// One Azure Retail Prices API page (`{"Items": [...]}`), or a JSON
    /// array of such pages.
    AzureRetail,
}

/// Where the imported figures come from, stamped on every row.
#[derive(Debug, Clone, PartialEq)]
pub struct Provenance {
    /// The feed and its version, e.g. "SkyPilot catalogue v9 lambda/vms.csv @ 2c3d7ea7"
    /// (never a local path: it says where the figures come from).
    pub source: String,
    /// As-of date of the prices; `None` when the feed does not say (the
    /// offers are then "date unknown").
    pub as_of: Option<String>,
    /// Confidence tag stamped on every row.
    pub confidence: Confidence,
}

/// A row (or part of one) that was not imported, and why.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Skipped {
    /// Where the row is: its line in the file (header = line 1), or for
    /// Azure the item's number, counted from 1 across pages.
    pub line: usize,
    /// The instance, size or accelerator name the row is about.
    pub subject: String,
    /// Why it was left out.
    pub reason: SkipReason,
}

/// Why a row was left out: a closed set, said in English or Chinese.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub enum SkipReason {
    /// The alias table leaves this name out (a TPU, a CPU-only size …);
    /// `reason` is the table's own words.
    Alias {
        /// The name the feed gives (the accelerator's, else the instance's).
        name: String,
        /// The alias table's reason.
        reason: String,
    },
    /// A real GPU the catalogue has no row for yet.
    MissingAccelerator {
        /// The name the feed gives.
        name: String,
        /// The alias table's reason.
        reason: String,
    },
    /// A name the alias table does not know.
    UnknownName {
        /// The accelerator name as the feed gives it.
        name: String,
    },
    /// A GCP machine type whose GPUs SkyPilot prices on GPU-only rows, none
    /// of which is in the file for this zone.
    HostWithoutGpuPrice {
        /// The GPU the machine type carries, as SkyPilot names it.
        gpu: String,
        /// GPUs per machine.
        count: f64,
        /// The availability zone.
        zone: String,
    },
    /// The spot price equals the on-demand one (no spot in practice).
    SpotEqualsOnDemand,
    /// The spot price is 0: no spot offer.
    NoSpot,
    /// An Azure meter of a service other than Virtual Machines.
    NotVirtualMachine {
        /// The meter's `serviceName`.
        service: String,
    },
    /// An Azure Windows price (only Linux prices are imported).
    WindowsPrice,
    /// An Azure Dev/Test price (`DevTestConsumption`).
    DevTestPrice,
    /// An Azure Low Priority meter.
    LowPriority,
    /// An Azure size neither the alias table nor the catalogue knows as a GPU size.
    NotGpuSize,
}

impl SkipReason {
    /// The reason in words, in English or Chinese.
    pub fn describe(&self, lang: Lang) -> String {
        let zh = lang == Lang::Zh;
        match self {
            SkipReason::Alias { name, reason } if zh => format!("{name}：别名表不导入（{reason}）"),
            SkipReason::Alias { name, reason } => format!("{name}: not imported by the alias table ({reason})"),
            SkipReason::MissingAccelerator { name, reason } if zh => format!("{name}：目录中尚无此加速卡（{reason}）"),
            SkipReason::MissingAccelerator { name, reason } => {
                format!("{name}: the catalogue has no row for this accelerator yet ({reason})")
            }
            SkipReason::UnknownName { name } if zh => format!("{name:?}：别名表中没有这个加速卡名称"),
            SkipReason::UnknownName { name } => format!("{name:?}: an accelerator name the alias table does not know"),
            SkipReason::HostWithoutGpuPrice { gpu, count, zone } if zh => {
                format!("GCP 机型只含主机价格，文件中没有 {zone} 的 {count} × {gpu} GPU 价格行")
            }
            SkipReason::HostWithoutGpuPrice { gpu, count, zone } => {
                format!(
                    "a GCP host price without its GPUs: no GPU-only row for {count} × {gpu} in {zone:?} in the file"
                )
            }
            SkipReason::SpotEqualsOnDemand => lang
                .pick("spot price equals on-demand (no spot in practice)", "竞价价格与按需相同（实际无竞价）")
                .to_owned(),
            SkipReason::NoSpot => lang.pick("spot price 0 (no spot offer)", "竞价价格为 0（无竞价）").to_owned(),
            SkipReason::NotVirtualMachine { service } if zh => format!("{service}：不是虚拟机价格"),
            SkipReason::NotVirtualMachine { service } => format!("{service}: not a virtual machine"),
            SkipReason::WindowsPrice => {
                lang.pick("Windows price (Linux prices only)", "Windows 价格（只导入 Linux）").to_owned()
            }
            SkipReason::DevTestPrice => lang.pick("Dev/Test price", "开发/测试价格").to_owned(),
            SkipReason::LowPriority => lang.pick("Low Priority meter", "低优先级计量").to_owned(),
            SkipReason::NotGpuSize => lang
                .pick("not a GPU size the alias table or catalogue knows", "别名表和目录都不认识的 GPU 规格")
                .to_owned(),
        }
    }
}

pub use crate::check::FIELD_MAX_BYTES;
/// A feed file larger than this is refused before it is parsed (SkyPilot's
/// largest, AWS `vms.csv`, is 4.6 MB; an Azure GPU refresh a few MB).
pub const FILE_MAX_BYTES: usize = 64 * 1024 * 1024;

/// What an import did with each row of one file.
#[derive(Debug, Clone, PartialEq)]
pub struct ImportReport {
    /// Rows read from the file (data rows or items).
    pub rows: usize,
    /// Rows of which at least one offer landed or was already there unchanged.
    pub rows_landed: usize,
    /// Rows that landed nothing; each has its reason in `rejected` or
    /// `skipped`. `rows_landed + rows_reported == rows`.
    pub rows_reported: usize,
    /// Offers written (new or changed).
    pub imported: usize,
    /// Offers identical to what the catalogue already held: not written.
    pub unchanged: usize,
    /// Rows or fields that broke a rule, by line; such a row lands nothing.
    pub rejected: Vec<RowError>,
    /// Rows (or parts) left out on purpose, each with its reason.
    pub skipped: Vec<Skipped>,
    /// Accelerator names the alias table does not know, once each, with
    /// the rows that used them.
    pub unknown_names: Vec<(String, usize)>,
    /// `None` when nothing changed.
    pub change: Option<ChangeSummary>,
}

/// Offers a small import looks up one by one; a larger one reads both tables once.
const LOOKUP_MAX: usize = 1_000;

/// What each of `ids` showed before this import: an earlier import's offer,
/// else the catalogue's (ids shown by neither are absent).
fn offers_before<'a>(
    tx: &rusqlite::Transaction<'_>,
    ids: impl ExactSizeIterator<Item = &'a str>,
) -> Result<HashMap<String, Offer>, Error> {
    let mut before: HashMap<String, Offer> = HashMap::new();
    if ids.len() > LOOKUP_MAX {
        // The catalogue first, so that an earlier import's row replaces it.
        for sql in ["SELECT * FROM offers", "SELECT * FROM imported_offers"] {
            for o in store::select::<Offer, _>(tx, sql, [])? {
                before.insert(o.id.clone(), o);
            }
        }
        return Ok(before);
    }
    for id in ids {
        for sql in ["SELECT * FROM imported_offers WHERE id = ?1", "SELECT * FROM offers WHERE id = ?1"] {
            if let Some(o) = store::select::<Offer, _>(tx, sql, [id])?.pop() {
                before.insert(o.id.clone(), o);
                break;
            }
        }
    }
    Ok(before)
}

/// The first field of a record over `FIELD_MAX_BYTES`, as a rejection.
fn field_too_long(record: &csv::StringRecord, headers: &csv::StringRecord, line: usize) -> Option<RowError> {
    let (i, value) = record.iter().enumerate().find(|(_, v)| v.len() > FIELD_MAX_BYTES)?;
    Some(reject(
        line,
        "",
        headers.get(i).unwrap_or(""),
        &crate::check::too_long(value),
        Problem::TooLong { limit: FIELD_MAX_BYTES },
    ))
}

/// Turns bytes into text, refusing what is not UTF-8 (a GBK export, say).
fn utf8(bytes: &[u8]) -> Result<&str, Error> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    std::str::from_utf8(bytes).map_err(|e| {
        Error::Pack(format!(
            "the file is not UTF-8 text (invalid byte at offset {}); save it as UTF-8 and import again",
            e.valid_up_to()
        ))
    })
}

impl Catalog {
    /// Imports a feed. `now` stamps the change record.
    pub fn import(&mut self, format: &Format, bytes: &[u8], p: &Provenance, now: &str) -> Result<ImportReport, Error> {
        let mut reports = self.import_all(&[(format.clone(), bytes, p.clone())], now)?;
        reports.pop().ok_or_else(|| Error::Internal("an import without a report".into()))
    }

    /// Imports several feeds in one transaction (a refresh): every file is
    /// parsed first, so a file that is not what it claims fails the whole
    /// batch before anything is written.
    pub fn import_all(&mut self, feeds: &[(Format, &[u8], Provenance)], now: &str) -> Result<Vec<ImportReport>, Error> {
        let mut parsed = Vec::with_capacity(feeds.len());
        for (format, bytes, p) in feeds {
            if bytes.len() > FILE_MAX_BYTES {
                return Err(Error::FileTooLarge { bytes: bytes.len(), limit: FILE_MAX_BYTES });
            }
            let text = utf8(bytes)?;
            parsed.push((
                match format {
                    Format::Csv => parse_csv(text)?,
                    Format::Skypilot { provider } => parse_skypilot(text, provider, &self.ids("accelerators")?, p)?,
                    Format::AzureRetail => parse_azure(text, &self.azure_sizes()?, p)?,
                },
                format_label(format),
            ));
        }
        let (providers, accelerators) = (self.ids("providers")?, self.ids("accelerators")?);
        let tx = crate::write_transaction(&mut self.conn)?;
        let mut reports = Vec::with_capacity(parsed.len());
        for (parsed, label) in parsed {
            reports.push(land(&tx, &providers, &accelerators, parsed, &label, now)?);
        }
        tx.commit()?;
        Ok(reports)
    }

    /// Azure VM size → (accelerator, accelerators per VM), learned from the
    /// catalogue's own Azure offers.
    fn azure_sizes(&self) -> Result<BTreeMap<String, (String, f64)>, Error> {
        // Azure's offers as `all_offers` merges them (an import's row over the
        // catalogue's, by id), reading only the rows that can be Azure's.
        let mut by_id: BTreeMap<String, Offer> = BTreeMap::new();
        for sql in [
            "SELECT * FROM offers WHERE provider_id = 'azure'",
            "SELECT * FROM imported_offers WHERE provider_id = 'azure' \
             OR id IN (SELECT id FROM offers WHERE provider_id = 'azure')",
        ] {
            for o in store::select::<Offer, _>(self.connection(), sql, [])? {
                by_id.insert(o.id.clone(), o);
            }
        }
        let mut sizes = BTreeMap::new();
        for o in by_id.into_values() {
            if let (true, Some(instance), Some(acc), Some(n)) =
                (o.provider_id == "azure", o.instance, o.accelerator_id, o.accelerators_per_instance)
            {
                sizes.entry(instance.to_lowercase()).or_insert((acc, n));
            }
        }
        Ok(sizes)
    }
}

/// Checks the parsed rows against the catalogue and lands the valid ones,
/// inside the caller's transaction.
fn land(
    tx: &rusqlite::Transaction<'_>,
    providers: &[String],
    accelerators: &[String],
    parsed: Parsed,
    label: &str,
    now: &str,
) -> Result<ImportReport, Error> {
    let providers: HashSet<&str> = providers.iter().map(String::as_str).collect();
    let accelerators: HashSet<&str> = accelerators.iter().map(String::as_str).collect();
    let mut c = Checker::new();
    let mut seen = HashMap::with_capacity(parsed.offers.len());
    let mut whole = Vec::with_capacity(parsed.offers.len());
    for (line, offer, parsed_whole) in &parsed.offers {
        let before = c.errors.len();
        c.at("import", Some(*line), &offer.id);
        c.id(&mut seen, &offer.id);
        c.offer(offer);
        if !providers.contains(offer.provider_id.as_str()) {
            c.fail("provider_id", &offer.provider_id, Problem::NoSuchRow { table: "providers" });
        }
        if let Some(a) = &offer.accelerator_id
            && !accelerators.contains(a.as_str())
        {
            c.fail("accelerator_id", a, Problem::NoSuchRow { table: "accelerators" });
        }
        whole.push(c.errors.len() == before && *parsed_whole);
    }
    drop(seen);
    let valid: Vec<(usize, &Offer)> =
        parsed.offers.iter().zip(whole).filter(|(_, ok)| *ok).map(|((line, o, _), _)| (*line, o)).collect();
    let mut rejected = parsed.rejected;
    rejected.extend(c.errors);
    rejected.sort_by_key(|e| e.line);

    let before = offers_before(tx, valid.iter().map(|(_, o)| o.id.as_str()))?;
    let mut landed_lines: Vec<usize> = Vec::with_capacity(parsed.offers.len());
    let mut written: Vec<&Offer> = Vec::with_capacity(parsed.offers.len());
    let mut old: Vec<&Offer> = Vec::new();
    let mut unchanged = 0;
    for (line, o) in valid {
        landed_lines.push(line);
        match before.get(&o.id) {
            // Identical data changes nothing, its source and date included.
            Some(b) if b == o => unchanged += 1,
            Some(b) => {
                old.push(b);
                written.push(o);
            }
            None => written.push(o),
        }
    }
    landed_lines.sort_unstable();
    landed_lines.dedup();
    let change = if written.is_empty() {
        None
    } else {
        let summary =
            record_change_with(tx, crate::ChangeKind::Import, label, None, now, &old, &written, ChangeScope::Import)?;
        // A new offer is marked with this change; a repriced one keeps its mark.
        // In id order, the id index is appended to rather than split.
        written.sort_unstable_by(|a, b| a.id.cmp(&b.id));
        let marked = written.iter().map(|o| (*o, (!before.contains_key(&o.id)).then_some(summary.id)));
        store::upsert_rows(tx, "imported_offers", "_added_change", marked)?;
        index_offers(tx, &written)?;
        Some(summary)
    };
    let mut unknown_names: Vec<(String, usize)> = parsed.unknown_names.into_iter().collect();
    unknown_names.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    Ok(ImportReport {
        rows: parsed.rows,
        rows_landed: landed_lines.len(),
        rows_reported: parsed.rows - landed_lines.len(),
        imported: written.len(),
        unchanged,
        rejected,
        skipped: parsed.skipped,
        unknown_names,
        change,
    })
}

fn format_label(f: &Format) -> String {
    match f {
        Format::Csv => ChangeLabel::OffersCsv,
        Format::Skypilot { provider } => ChangeLabel::Skypilot { provider: provider.clone() },
        Format::AzureRetail => ChangeLabel::AzureRetail,
    }
    .stored()
}

#[derive(Default)]
struct Parsed {
    rows: usize,
    /// (line, offer, whether every field parsed)
    offers: Vec<(usize, Offer, bool)>,
    rejected: Vec<RowError>,
    skipped: Vec<Skipped>,
    unknown_names: BTreeMap<String, usize>,
}

fn reject(line: usize, id: &str, field: &str, value: &str, problem: Problem) -> RowError {
    RowError {
        table: "import",
        line: Some(line),
        id: id.to_owned(),
        field: field.to_owned(),
        value: value.to_owned(),
        problem,
    }
}

/// A readable, stable id piece: lowercase ASCII letters, digits and dashes.
fn slug(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    push_slug(&mut out, s);
    out
}

/// [`slug`] of `s`, written at the end of `out`: a run of anything other
/// than an ASCII letter or digit is one dash, and none leads or trails.
fn push_slug(out: &mut String, s: &str) {
    let start = out.len();
    for ch in s.chars() {
        if ch.is_ascii_alphanumeric() {
            out.push(ch.to_ascii_lowercase());
        } else if out.len() > start && !out.ends_with('-') {
            out.push('-');
        }
    }
    if out.len() > start && out.ends_with('-') {
        out.pop();
    }
}

fn parse_csv(text: &str) -> Result<Parsed, Error> {
    let mut reader = csv::ReaderBuilder::new().from_reader(text.as_bytes());
    let headers =
        reader.headers().map_err(|e| Error::Csv { file: "import".into(), line: 1, message: e.to_string() })?.clone();
    for required in ["id", "provider_id", "billing_mode", "price", "price_unit", "currency", "source", "confidence"] {
        if !headers.iter().any(|h| h == required) {
            return Err(Error::Csv {
                file: "import".into(),
                line: 1,
                message: format!("not an offers CSV: the header has no {required} column"),
            });
        }
    }
    let mut parsed = Parsed::default();
    for record in reader.records() {
        parsed.rows += 1;
        let line = parsed.rows + 1;
        // Broken quoting is not a row problem: the file is not CSV.
        let record =
            record.map_err(|e| Error::Csv { file: "import".into(), line: line as u64, message: e.to_string() })?;
        if let Some(e) = field_too_long(&record, &headers, line) {
            parsed.rejected.push(e);
            continue;
        }
        let errors_before = parsed.rejected.len();
        let offer = offer_from_record(&headers, &record, line, &mut parsed.rejected);
        // A row with a field that did not parse still has its other fields
        // checked (every problem named at once), but never lands.
        parsed.offers.push((line, offer, parsed.rejected.len() == errors_before));
    }
    Ok(parsed)
}

/// One CSV record as an offer, every field parsed on its own so that each
/// bad value is named (a row may have several). A field that does not
/// parse is reported and given a neutral stand-in so the row's other
/// checks still run.
fn offer_from_record(
    headers: &csv::StringRecord,
    record: &csv::StringRecord,
    line: usize,
    rejected: &mut Vec<RowError>,
) -> Offer {
    let field = |name: &str| headers.iter().position(|h| h == name).and_then(|i| record.get(i)).unwrap_or("");
    let text = |name: &str| Some(field(name).to_owned()).filter(|v| !v.is_empty());
    let id = field("id").to_owned();
    let mut fail = |name: &str, value: &str, problem: Problem| rejected.push(reject(line, &id, name, value, problem));
    let mut number = |name: &str| -> Option<Option<f64>> {
        match field(name).trim() {
            "" => Some(None),
            t => match t.parse::<f64>() {
                Ok(x) => Some(Some(x)),
                Err(_) => {
                    fail(name, t, Problem::NotANumber);
                    None
                }
            },
        }
    };
    let accelerators_per_instance = number("accelerators_per_instance");
    let price = number("price");
    let price_high = number("price_high");
    let mut closed = |name: &str, allowed: Vec<&'static str>| -> Option<String> {
        let value = field(name).trim();
        if allowed.contains(&value) {
            Some(value.to_owned())
        } else {
            fail(name, value, Problem::OneOf(allowed));
            None
        }
    };
    let billing_mode = closed("billing_mode", BillingMode::ALL.iter().map(|m| m.key()).collect());
    let price_unit = closed("price_unit", PriceUnit::ALL.iter().map(|u| u.key()).collect());
    let confidence = closed("confidence", Confidence::ALL.iter().map(|c| c.key()).collect());
    let currency = field("currency").trim().parse::<Currency>();
    if currency.is_err() {
        rejected.push(reject(line, &id, "currency", field("currency").trim(), Problem::UnknownCurrency));
    }
    if price == Some(None) {
        rejected.push(reject(line, &id, "price", "", Problem::Required));
    }
    Offer {
        id: id.clone(),
        provider_id: field("provider_id").to_owned(),
        accelerator_id: text("accelerator_id"),
        instance: text("instance"),
        region: text("region"),
        billing_mode: billing_mode.and_then(|b| b.parse().ok()).unwrap_or(BillingMode::OnDemand),
        accelerators_per_instance: accelerators_per_instance.unwrap_or(Some(1.0)),
        price: price.flatten().unwrap_or(1.0),
        price_high: price_high.flatten(),
        price_unit: price_unit
            .and_then(|u| PriceUnit::ALL.into_iter().find(|x| x.key() == u))
            .unwrap_or(PriceUnit::AcceleratorHour),
        currency: currency.unwrap_or(Currency::CNY),
        upfront: text("upfront"),
        interconnect: text("interconnect"),
        as_of: text("as_of"),
        source: field("source").to_owned(),
        confidence: confidence.and_then(|c| c.parse().ok()).unwrap_or(Confidence::A),
        notes: text("notes"),
    }
}

/// One SkyPilot `vms.csv` row, by column name (files differ in column
/// order and AWS has five more columns).
struct SkypilotRow<'a> {
    line: usize,
    instance: &'a str,
    name: &'a str,
    count: &'a str,
    gpu_info: &'a str,
    price: &'a str,
    spot: &'a str,
    region: &'a str,
    zone: &'a str,
}

/// Accelerator memory from SkyPilot's `GpuInfo`, a Python-dict string:
/// `{'Gpus': [{'Name': 'A100', ..., 'MemoryInfo': {'SizeInMiB': 40960}}], ...}`.
fn gpu_memory_gib(info: &str) -> Option<f64> {
    let at = info.find("'SizeInMiB':")? + "'SizeInMiB':".len();
    let digits: String = info[at..].trim_start().chars().take_while(|c| c.is_ascii_digit() || *c == '.').collect();
    digits.parse::<f64>().ok().map(|mib| mib / 1024.0).filter(|g| *g > 0.0)
}

/// The count as an id piece: `8`, `0.5`.
fn count_text(n: f64) -> String {
    let mut out = String::new();
    push_count(&mut out, n);
    out
}

fn push_count(out: &mut String, n: f64) {
    if n.fract() == 0.0 {
        write!(out, "{}", n as i64).ok();
    } else {
        push_slug(out, &n.to_string());
    }
}

/// Where a price applies, as an id piece: the zone when it names its region
/// (GCP `us-central1-a`), else region and zone (AWS `us-east-2` `use2-az1`).
#[cfg(test)]
fn place(region: &str, zone: &str) -> String {
    let mut out = String::new();
    push_place(&mut out, region, zone);
    out
}

fn push_place(out: &mut String, region: &str, zone: &str) {
    let start = out.len();
    push_slug(out, region);
    if zone.trim().is_empty() {
        return;
    }
    let region_end = out.len();
    push_slug(out, zone);
    if out[region_end..].starts_with(&out[start..region_end]) {
        out.replace_range(start..region_end, "");
    } else {
        out.insert(region_end, '-');
    }
}

/// An offer's id without its billing mode: every column that tells a row
/// apart (`provider-instance-gpu-xCOUNT-place`).
fn id_base(provider: &str, instance: &str, gpu: &str, count: f64, region: &str, zone: &str) -> String {
    let mut id = String::with_capacity(64);
    for piece in [provider, instance, gpu] {
        push_slug(&mut id, piece);
        id.push('-');
    }
    id.push('x');
    push_count(&mut id, count);
    id.push('-');
    push_place(&mut id, region, zone);
    id
}

/// A price column: `None` when empty, else a number above 0.
fn price_column(
    text: &str,
    field: &str,
    line: usize,
    id: &str,
    rejected: &mut Vec<RowError>,
) -> Result<Option<f64>, ()> {
    let text = text.trim();
    if text.is_empty() {
        return Ok(None);
    }
    match text.parse::<f64>() {
        Ok(x) if x.is_finite() && x > 0.0 => Ok(Some(x)),
        Ok(_) => {
            rejected.push(reject(
                line,
                id,
                field,
                text,
                Problem::Expected("a price above 0 (the feed publishes 0 for none)"),
            ));
            Err(())
        }
        Err(_) => {
            rejected.push(reject(line, id, field, text, Problem::NotANumber));
            Err(())
        }
    }
}

/// The spot column: `None` when empty or 0 (Vast's way of saying none; the
/// row still lands on demand, and the 0 is reported), else a price.
fn spot_column(row: &SkypilotRow<'_>, id: &str, parsed: &mut Parsed) -> Option<f64> {
    if row.spot.parse::<f64>().is_ok_and(|x| x == 0.0) {
        let reason = SkipReason::NoSpot;
        parsed.skipped.push(Skipped { line: row.line, subject: row.instance.to_owned(), reason });
        return None;
    }
    price_column(row.spot, "SpotPrice", row.line, id, &mut parsed.rejected).ok().flatten()
}

/// Where each column of a SkyPilot file is (`usize::MAX`: absent).
struct SkypilotColumns {
    instance: usize,
    name: usize,
    count: usize,
    gpu_info: usize,
    price: usize,
    spot: usize,
    region: usize,
    zone: usize,
}

impl SkypilotColumns {
    fn row<'r>(&self, line: usize, r: &'r csv::StringRecord) -> SkypilotRow<'r> {
        let f = |i: usize| r.get(i).unwrap_or("").trim();
        SkypilotRow {
            line,
            instance: f(self.instance),
            name: f(self.name),
            count: f(self.count),
            gpu_info: f(self.gpu_info),
            price: f(self.price),
            spot: f(self.spot),
            region: f(self.region),
            zone: f(self.zone),
        }
    }
}

/// Reads the next record into `record` (one buffer for the whole file):
/// `None` at the end, an error for a record that does not parse or has a
/// field over the limit.
fn next_record(
    reader: &mut csv::Reader<&[u8]>,
    record: &mut csv::StringRecord,
    headers: &csv::StringRecord,
    line: usize,
) -> Option<Result<(), RowError>> {
    match reader.read_record(record) {
        Ok(false) => None,
        Ok(true) => Some(field_too_long(record, headers, line).map_or(Ok(()), Err)),
        Err(e) => Some(Err(reject(line, "", "", "", Problem::Parser(e.to_string())))),
    }
}

/// A GCP GPU-only row, kept for the host rows that add it.
struct GpuOnly {
    line: usize,
    price: String,
    spot: String,
}

/// The offers of one priced thing (on demand, and spot when the feed has
/// a spot price that differs).
struct Priced<'a> {
    row: &'a SkypilotRow<'a>,
    id_base: String,
    provider: &'a str,
    accelerator: &'a str,
    instance: Option<&'a str>,
    count: f64,
    unit: PriceUnit,
    /// Multiplies the feed's price into the stored one (1 ÷ count for a
    /// per-accelerator price).
    scale: f64,
    on_demand: Option<f64>,
    spot: Option<f64>,
    notes: Vec<String>,
}

fn push_priced(p: Priced<'_>, prov: &Provenance, parsed: &mut Parsed) {
    let line = p.row.line;
    let notes = Some(p.notes.join("; ")).filter(|n| !n.is_empty());
    let offer = |billing: BillingMode, price: f64| Offer {
        id: {
            let mut id = String::with_capacity(p.id_base.len() + 10);
            id.push_str(&p.id_base);
            id.push('-');
            id.extend(billing.key().chars().map(|c| if c == '_' { '-' } else { c }));
            id
        },
        provider_id: p.provider.to_owned(),
        accelerator_id: Some(p.accelerator.to_owned()),
        instance: p.instance.map(str::to_owned),
        region: Some(p.row.region.trim().to_owned()),
        billing_mode: billing,
        accelerators_per_instance: Some(p.count),
        price: price * p.scale,
        price_high: None,
        price_unit: p.unit,
        currency: Currency::USD,
        upfront: Some("none".to_owned()),
        interconnect: None,
        as_of: prov.as_of.clone(),
        source: prov.source.clone(),
        confidence: prov.confidence,
        notes: notes.clone(),
    };
    match p.on_demand {
        Some(x) => parsed.offers.push((line, offer(BillingMode::OnDemand, x), true)),
        None => parsed.rejected.push(reject(line, &p.id_base, "Price", "", Problem::Required)),
    }
    match (p.spot, p.on_demand) {
        (Some(s), Some(o)) if s == o => parsed.skipped.push(Skipped {
            line,
            subject: p.row.instance.to_owned(),
            reason: SkipReason::SpotEqualsOnDemand,
        }),
        (Some(s), _) => parsed.offers.push((line, offer(BillingMode::Spot, s), true)),
        (None, _) => {}
    }
}

/// The SkyPilot importer. Every row lands (one offer per billing mode) or
/// is reported with its reason; ids are built from every column that tells
/// rows apart (instance, accelerator, count, region, zone, billing mode), so
/// each availability zone is an offer of its own (the zone is in the id and
/// the notes). GCP GPU-only rows (empty `InstanceType`) land as prices per
/// accelerator; GCP machine types whose accelerator columns SkyPilot leaves
/// empty (a2, a3, a4, g2, g4) land with their GPUs from the alias table and
/// the GPU-only price of the same zone added, as SkyPilot itself adds them.
fn parse_skypilot(text: &str, given_provider: &str, known_ids: &[String], p: &Provenance) -> Result<Parsed, Error> {
    let (cloud, provider) = crate::aliases::skypilot_cloud(given_provider);
    let provider = provider.unwrap_or_else(|| given_provider.trim().to_owned());
    let known_ids: HashSet<&str> = known_ids.iter().map(String::as_str).collect();
    let known = |id: &str| known_ids.contains(id);
    let mut reader = csv::ReaderBuilder::new().flexible(false).from_reader(text.as_bytes());
    let headers =
        reader.headers().map_err(|e| Error::Csv { file: "skypilot".into(), line: 1, message: e.to_string() })?.clone();
    let column = |name: &str| headers.iter().position(|h| h == name);
    for required in ["InstanceType", "AcceleratorName", "AcceleratorCount", "Price", "Region"] {
        if column(required).is_none() {
            return Err(Error::Csv {
                file: "skypilot".into(),
                line: 1,
                message: format!("not a SkyPilot vms.csv: the header has no {required} column"),
            });
        }
    }
    let at = |name: &str| column(name).unwrap_or(usize::MAX);
    let columns = SkypilotColumns {
        instance: at("InstanceType"),
        name: at("AcceleratorName"),
        count: at("AcceleratorCount"),
        gpu_info: at("GpuInfo"),
        price: at("Price"),
        spot: at("SpotPrice"),
        region: at("Region"),
        zone: at("AvailabilityZone"),
    };
    let mut record = csv::StringRecord::new();

    // GCP GPU-only prices by (name, count, zone), for the machine types whose
    // rows price only the host: a first pass keeps them.
    let mut gpu_only: HashMap<(String, String, String), GpuOnly> = HashMap::new();
    if cloud == "gcp" {
        let mut first = csv::ReaderBuilder::new().flexible(false).from_reader(text.as_bytes());
        for line in 2.. {
            let Some(read) = next_record(&mut first, &mut record, &headers, line) else { break };
            if read.is_err() {
                continue;
            }
            let r = columns.row(line, &record);
            if r.instance.is_empty() && !r.name.is_empty() {
                let count = r.count.parse::<f64>().map(count_text).unwrap_or_default();
                let price = GpuOnly { line, price: r.price.to_owned(), spot: r.spot.to_owned() };
                gpu_only.entry((r.name.to_lowercase(), count, r.zone.to_owned())).or_insert(price);
            }
        }
    }

    let mut parsed = Parsed::default();
    // Feeds repeat a handful of instance types over many regions: each is looked up once.
    let mut alias_cache: HashMap<String, Option<&crate::aliases::Alias>> = HashMap::new();
    let mut alias_key = String::new();
    for line in 2.. {
        let Some(read) = next_record(&mut reader, &mut record, &headers, line) else { break };
        parsed.rows += 1;
        if let Err(e) = read {
            parsed.rejected.push(e);
            continue;
        }
        let row = &columns.row(line, &record);
        let subject = if row.instance.is_empty() { row.name } else { row.instance };
        let skip = |parsed: &mut Parsed, reason: SkipReason| {
            parsed.skipped.push(Skipped { line, subject: subject.to_owned(), reason });
        };
        if row.region.is_empty() {
            parsed.rejected.push(reject(line, "", "Region", "", Problem::Required));
            continue;
        }
        if row.instance.is_empty() && row.name.is_empty() {
            parsed.rejected.push(reject(line, "", "InstanceType", "", Problem::Required));
            continue;
        }
        let count_from_feed = row.count.parse::<f64>().ok().filter(|c| c.is_finite() && *c > 0.0);
        let mut per_gpu_mib_total = gpu_memory_gib(row.gpu_info);
        // Vast's SizeInMiB is the total over all GPUs of the offer.
        if cloud == "vast" {
            per_gpu_mib_total = per_gpu_mib_total.zip(count_from_feed).map(|(m, n)| m / n);
        }
        let memory = per_gpu_mib_total;

        // A GCP host row: its GPUs are priced on GPU-only rows of the same zone.
        let host = (cloud == "gcp" && row.name.is_empty() && !row.instance.is_empty())
            .then(|| crate::aliases::gcp_host(row.instance))
            .flatten();
        if let Some((alias, count)) = host {
            let gpu = alias.name.clone().unwrap_or_default();
            match (alias.action, &alias.accelerator_id, count) {
                (crate::aliases::Action::Map, Some(acc), Some(count)) if known(acc) => {
                    let id_base = id_base(&provider, row.instance, &gpu, count, row.region, row.zone);
                    let Some(g) = gpu_only.get(&(gpu.to_lowercase(), count_text(count), row.zone.to_owned())) else {
                        skip(&mut parsed, SkipReason::HostWithoutGpuPrice { gpu, count, zone: row.zone.to_owned() });
                        continue;
                    };
                    let Ok(host_price) = price_column(row.price, "Price", line, &id_base, &mut parsed.rejected) else {
                        continue;
                    };
                    let host_spot = spot_column(row, &id_base, &mut parsed);
                    let gpu_price = g.price.parse::<f64>().ok().filter(|x| *x > 0.0);
                    let gpu_spot = g.spot.parse::<f64>().ok().filter(|x| *x > 0.0);
                    let on_demand = host_price.zip(gpu_price).map(|(h, g)| h + g);
                    let spot = host_spot.zip(gpu_spot).map(|(h, g)| h + g);
                    let mut notes = vec![format!(
                        "host {} + {} × {gpu} {} (GPU-only line {}); SkyPilot prices GCP GPUs apart and adds them",
                        row.price,
                        count_text(count),
                        g.price,
                        g.line
                    )];
                    if !row.zone.is_empty() {
                        notes.push(format!("zone {}", row.zone));
                    }
                    push_priced(
                        Priced {
                            row,
                            id_base,
                            provider: &provider,
                            accelerator: acc,
                            instance: Some(row.instance),
                            count,
                            unit: PriceUnit::InstanceHour,
                            scale: 1.0,
                            on_demand,
                            spot,
                            notes,
                        },
                        p,
                        &mut parsed,
                    );
                }
                (crate::aliases::Action::Map, Some(acc), _) if !known(acc) => {
                    parsed.rejected.push(reject(
                        line,
                        "",
                        "accelerator_id",
                        acc,
                        Problem::NoSuchRow { table: "accelerators" },
                    ));
                }
                _ => {
                    skip(&mut parsed, SkipReason::Alias { name: row.instance.to_owned(), reason: alias.reason.clone() })
                }
            }
            continue;
        }

        alias_key.clear();
        write!(alias_key, "{}\0{:?}\0{}", row.name, memory.map(|m| m.round() as i64), row.instance).ok();
        let alias = match alias_cache.get(alias_key.as_str()) {
            Some(alias) => *alias,
            None => {
                let alias = crate::aliases::skypilot(&cloud, row.name, memory, row.instance);
                alias_cache.insert(alias_key.clone(), alias);
                alias
            }
        };
        let Some(alias) = alias else {
            let name = row.name.to_owned();
            *parsed.unknown_names.entry(name.clone()).or_insert(0) += 1;
            skip(&mut parsed, SkipReason::UnknownName { name });
            continue;
        };
        let accelerator = match (alias.action, &alias.accelerator_id) {
            (crate::aliases::Action::Map, Some(acc)) => acc.as_str(),
            (crate::aliases::Action::Missing, _) => {
                let name = if row.name.is_empty() { row.instance } else { row.name };
                skip(
                    &mut parsed,
                    SkipReason::MissingAccelerator { name: name.to_owned(), reason: alias.reason.clone() },
                );
                continue;
            }
            _ => {
                let name = if row.name.is_empty() { row.instance } else { row.name };
                skip(&mut parsed, SkipReason::Alias { name: name.to_owned(), reason: alias.reason.clone() });
                continue;
            }
        };
        let Some(count) = alias.count.or(count_from_feed) else {
            parsed.rejected.push(reject(line, "", "AcceleratorCount", row.count, Problem::PositiveRatio));
            continue;
        };
        let gpu_only_row = row.instance.is_empty();
        let instance_piece = if gpu_only_row { "gpu" } else { row.instance };
        let id_base = id_base(&provider, instance_piece, row.name, count, row.region, row.zone);
        let Ok(on_demand) = price_column(row.price, "Price", line, &id_base, &mut parsed.rejected) else {
            continue;
        };
        let spot = spot_column(row, &id_base, &mut parsed);
        let mut notes = Vec::new();
        if gpu_only_row {
            notes.push(format!(
                "GPU-only price: {} for {} × {} attached to a VM, host not included",
                row.price,
                count_text(count),
                row.name
            ));
        }
        if alias.count.is_some() && count_from_feed != alias.count {
            notes.push(format!("{} GPUs per instance (the feed says {:?}; alias table)", count_text(count), row.count));
        }
        if !row.zone.is_empty() {
            notes.push(format!("zone {}", row.zone));
        }
        push_priced(
            Priced {
                row,
                id_base,
                provider: &provider,
                accelerator,
                instance: (!gpu_only_row).then_some(row.instance),
                count,
                unit: if gpu_only_row { PriceUnit::AcceleratorHour } else { PriceUnit::InstanceHour },
                scale: if gpu_only_row { 1.0 / count } else { 1.0 },
                on_demand,
                spot,
                notes,
            },
            p,
            &mut parsed,
        );
    }
    Ok(parsed)
}

#[derive(Debug, Deserialize)]
struct AzurePage {
    #[serde(rename = "Items")]
    items: Vec<serde_json::Value>,
    /// The next page's address; `null` on the last page.
    #[serde(rename = "NextPageLink", default)]
    next_page_link: Option<String>,
}

/// One term of a Consumption item's `savingsPlan` (api-version
/// 2023-01-01-preview): an hourly rate, unlike a reservation's term price.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct AzureSavingsPlan {
    retail_price: f64,
    term: String,
}

/// `1 Year` / `1 year` / `3 Years` / `3 Year` as years.
fn azure_term_years(term: &str) -> Option<u32> {
    match term.trim().to_ascii_lowercase().as_str() {
        "1 year" | "1 years" => Some(1),
        "3 year" | "3 years" => Some(3),
        _ => None,
    }
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct AzureItem {
    currency_code: String,
    retail_price: f64,
    arm_region_name: String,
    meter_name: String,
    #[serde(default)]
    product_name: String,
    #[serde(default)]
    sku_name: String,
    service_name: String,
    unit_of_measure: String,
    #[serde(rename = "type")]
    price_type: String,
    #[serde(default)]
    reservation_term: Option<String>,
    arm_sku_name: String,
    #[serde(default)]
    effective_start_date: Option<String>,
    #[serde(default)]
    savings_plan: Vec<AzureSavingsPlan>,
}

fn parse_azure(text: &str, sizes: &BTreeMap<String, (String, f64)>, p: &Provenance) -> Result<Parsed, Error> {
    let value: serde_json::Value = serde_json::from_str(text).map_err(|e| {
        Error::Pack(format!("not an Azure Retail Prices page: line {}, column {}: {e}", e.line(), e.column()))
    })?;
    let pages: Vec<AzurePage> = match value {
        serde_json::Value::Array(pages) => pages.into_iter().map(serde_json::from_value).collect::<Result<_, _>>(),
        page => serde_json::from_value(page).map(|p| vec![p]),
    }
    .map_err(|e| Error::Pack(format!("not an Azure Retail Prices page (expected an object with \"Items\"): {e}")))?;
    // A response is whole when its last page links nowhere: a cut-off one
    // would silently drop every price after the cut.
    if let Some(link) = pages.last().and_then(|p| p.next_page_link.as_deref()).filter(|l| !l.trim().is_empty()) {
        return Err(Error::IncompleteFeed { pages: pages.len(), next: link.chars().take(200).collect() });
    }

    let mut parsed = Parsed::default();
    for item in pages.into_iter().flat_map(|p| p.items) {
        parsed.rows += 1;
        // Items are numbered from 1 across pages; JSON has no useful line.
        let line = parsed.rows;
        let item: AzureItem = match serde_json::from_value(item) {
            Ok(i) => i,
            Err(e) => {
                parsed.rejected.push(reject(line, "", "", "", Problem::Parser(format!("item {line}: {e}"))));
                continue;
            }
        };
        let skip = |reason: SkipReason| Skipped { line, subject: item.arm_sku_name.clone(), reason };
        if item.service_name != "Virtual Machines" {
            parsed.skipped.push(skip(SkipReason::NotVirtualMachine { service: item.service_name.clone() }));
            continue;
        }
        if item.product_name.contains("Windows") {
            parsed.skipped.push(skip(SkipReason::WindowsPrice));
            continue;
        }
        if item.price_type == "DevTestConsumption" {
            parsed.skipped.push(skip(SkipReason::DevTestPrice));
            continue;
        }
        if item.meter_name.contains("Low Priority") || item.sku_name.contains("Low Priority") {
            parsed.skipped.push(skip(SkipReason::LowPriority));
            continue;
        }
        let Some((accelerator, count)) = sizes.get(&item.arm_sku_name.to_lowercase()) else {
            parsed.skipped.push(skip(SkipReason::NotGpuSize));
            continue;
        };
        let spot = item.meter_name.contains(" Spot") || item.sku_name.contains(" Spot");
        let id_base = format!(
            "azure-{}-{}",
            slug(item.arm_sku_name.trim_start_matches("Standard_")),
            slug(&item.arm_region_name)
        );
        if item.unit_of_measure != "1 Hour" {
            parsed.rejected.push(reject(
                line,
                &id_base,
                "unitOfMeasure",
                &item.unit_of_measure,
                Problem::Expected("\"1 Hour\""),
            ));
            continue;
        }
        // Reservation items quote the whole term, though the unit says "1 Hour".
        let term = item.reservation_term.as_deref().and_then(azure_term_years);
        let (billing, price) = match (item.price_type.as_str(), term) {
            ("Reservation", Some(1)) => (BillingMode::Reserved1y, item.retail_price / 8760.0),
            ("Reservation", Some(3)) => (BillingMode::Reserved3y, item.retail_price / 26280.0),
            ("Reservation", _) => {
                parsed.rejected.push(reject(
                    line,
                    &id_base,
                    "reservationTerm",
                    item.reservation_term.as_deref().unwrap_or(""),
                    Problem::Expected("\"1 Year\" or \"3 Years\""),
                ));
                continue;
            }
            ("Consumption", _) if spot => (BillingMode::Spot, item.retail_price),
            ("Consumption", _) => (BillingMode::OnDemand, item.retail_price),
            (other, _) => {
                parsed.rejected.push(reject(
                    line,
                    &id_base,
                    "type",
                    other,
                    Problem::Expected("Consumption or Reservation"),
                ));
                continue;
            }
        };
        let Ok(currency) = item.currency_code.parse::<Currency>() else {
            parsed.rejected.push(reject(line, &id_base, "currencyCode", &item.currency_code, Problem::UnknownCurrency));
            continue;
        };
        let as_of = item
            .effective_start_date
            .as_deref()
            .map(|d| d.chars().take(10).collect::<String>())
            .filter(|d| p.as_of.as_ref().is_none_or(|given| d > given))
            .or_else(|| p.as_of.clone());
        let offer = Offer {
            id: format!("{id_base}-{}", billing.key().replace('_', "-")),
            provider_id: "azure".to_owned(),
            accelerator_id: Some(accelerator.clone()),
            instance: Some(item.arm_sku_name.clone()),
            region: Some(item.arm_region_name.clone()),
            billing_mode: billing,
            accelerators_per_instance: Some(*count),
            price,
            price_high: None,
            price_unit: PriceUnit::InstanceHour,
            currency,
            upfront: (item.price_type == "Reservation").then(|| "all".to_owned()),
            interconnect: None,
            as_of,
            source: p.source.clone(),
            confidence: p.confidence,
            notes: (item.price_type == "Reservation")
                .then(|| format!("term price {} ÷ hours of the term", item.retail_price)),
        };
        // Savings-plan rates ride on the Consumption (on-demand) item, one per term, hourly.
        if billing == BillingMode::OnDemand {
            for plan in &item.savings_plan {
                let Some(years) = azure_term_years(&plan.term) else {
                    parsed.rejected.push(reject(
                        line,
                        &id_base,
                        "savingsPlan.term",
                        &plan.term,
                        Problem::Expected("\"1 Year\" or \"3 Years\""),
                    ));
                    continue;
                };
                parsed.offers.push((
                    line,
                    Offer {
                        id: format!("{id_base}-savings-plan-{years}y"),
                        billing_mode: BillingMode::SavingsPlan,
                        price: plan.retail_price,
                        upfront: Some("none".to_owned()),
                        notes: Some(format!("{years}-year savings plan, hourly rate")),
                        ..offer.clone()
                    },
                    true,
                ));
            }
        }
        parsed.offers.push((line, offer, true));
    }
    Ok(parsed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_gpu_memory_from_the_python_dict() {
        let info = "{'Gpus': [{'Name': 'A100', 'Manufacturer': 'NVIDIA', 'Count': 8.0, 'MemoryInfo': {'SizeInMiB': 40960}}], 'TotalGpuMemoryInMiB': 40960}";
        assert_eq!(gpu_memory_gib(info), Some(40.0));
        assert_eq!(gpu_memory_gib(""), None);
    }

    #[test]
    fn places_name_the_zone_once() {
        assert_eq!(place("us-central1", "us-central1-a"), "us-central1-a");
        assert_eq!(place("us-east-2", "use2-az1"), "us-east-2-use2-az1");
        assert_eq!(place("us-east-1", ""), "us-east-1");
    }

    #[test]
    fn slugs_are_readable_ids() {
        assert_eq!(slug("Standard_ND96isr_H100_v5"), "standard-nd96isr-h100-v5");
        assert_eq!(slug("  gpu_8x_a100 "), "gpu-8x-a100");
    }
}

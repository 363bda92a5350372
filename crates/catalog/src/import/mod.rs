//! Importers of real price feeds: the project's own offers CSV, SkyPilot
//! catalogue `vms.csv` files, and Azure Retail Prices API pages.
//!
//! An import is one transaction: every valid row lands, or (on any
//! failure) none does. Rows that break a rule are rejected and listed with
//! their line, field and value; rows that are not GPU offers (CPU-only
//! sizes, Windows meters) are skipped and counted. Imported offers live in
//! their own table, so a bundled upgrade or pack never removes them, and
//! they shadow a catalogue offer with the same id.

use serde::Serialize;

use crate::check::RowError;
use suanli_model::Lang;

use crate::change_label::ChangeLabel;
use crate::rows::Confidence;
use crate::{Catalog, ChangeSummary, Error};

mod azure;
mod landing;
mod offers_csv;
mod skypilot;

use azure::parse_azure;
use landing::land;
use offers_csv::parse_csv;
use skypilot::parse_skypilot;

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
}

fn format_label(f: &Format) -> String {
    match f {
        Format::Csv => ChangeLabel::OffersCsv,
        Format::Skypilot { provider } => ChangeLabel::Skypilot { provider: provider.clone() },
        Format::AzureRetail => ChangeLabel::AzureRetail,
    }
    .stored()
}

//! Price refresh: the public feeds (SkyPilot catalogues, Azure's API)
//! downloaded over the strict update client, then imported in one transaction.

use serde::Serialize;

use super::{Catalog, Confidence, FeedFormat, ImportReport, Limits, Provenance, UpdateStage};
use crate::Error;
use crate::files::now_utc;
/// A public price feed `catalog refresh` can download.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FeedSource {
    /// A SkyPilot catalogue `vms.csv`, by SkyPilot cloud name (`aws`, `gcp`, `vast` …).
    Skypilot {
        /// SkyPilot's name for the cloud (`aws`).
        cloud: String,
    },
    /// The Azure Retail Prices API, GPU VM sizes (`Standard_N*`), every page.
    Azure,
}

impl FeedSource {
    /// `skypilot:aws,gcp` → two SkyPilot feeds; `azure` → the Azure API.
    pub fn parse_list(text: &str) -> Result<Vec<FeedSource>, String> {
        let mut out = Vec::new();
        for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (kind, cloud) = match part.split_once(':') {
                Some((k, c)) => (k.trim(), Some(c.trim())),
                None => (part, None),
            };
            match (kind, cloud) {
                ("azure", None) => out.push(FeedSource::Azure),
                ("skypilot", Some(c)) if !c.is_empty() => out.push(FeedSource::Skypilot { cloud: c.to_owned() }),
                // `skypilot:aws,gcp`: a bare name after a SkyPilot entry is another cloud.
                (c, None) if matches!(out.last(), Some(FeedSource::Skypilot { .. })) => {
                    out.push(FeedSource::Skypilot { cloud: c.to_owned() })
                }
                _ => return Err(format!("{part:?}: expected skypilot:CLOUD[,CLOUD…] or azure")),
            }
        }
        if out.is_empty() {
            return Err("no feed named: expected skypilot:CLOUD[,CLOUD…] or azure".into());
        }
        Ok(out)
    }
}

/// Where the feeds are downloaded from (tests point these at loopback).
#[derive(Debug, Clone, PartialEq)]
pub struct FeedUrls {
    /// `{cloud}` is replaced by the SkyPilot cloud name.
    pub skypilot: String,
    /// The first Azure Retail Prices page; later pages follow `NextPageLink`.
    pub azure: String,
    /// Deadline, timeouts and size caps of the downloads.
    pub limits: Limits,
}

impl Default for FeedUrls {
    fn default() -> Self {
        FeedUrls {
            skypilot: "https://raw.githubusercontent.com/skypilot-org/skypilot-catalog/master/catalogs/v9/{cloud}/vms.csv"
                .into(),
            azure: "https://prices.azure.com/api/retail/prices?api-version=2023-01-01-preview&$filter=serviceName%20eq%20%27Virtual%20Machines%27%20and%20startswith(armSkuName,%27Standard_N%27)".into(),
            limits: Limits::default(),
        }
    }
}

/// Downloads the feeds (over the strict update client: one deadline, a
/// size cap while streaming, no redirect or next page to another origin),
/// then imports them all in one transaction. A download that fails,
/// anywhere, leaves the catalogue as it was. `progress(feed, received)`.
pub fn refresh(
    c: &mut Catalog,
    feeds: &[FeedSource],
    urls: &FeedUrls,
    progress: &mut dyn FnMut(&str, u64),
) -> Result<Vec<(String, ImportReport)>, Error> {
    let fetched = refresh_fetch(feeds, urls, progress, &std::sync::atomic::AtomicBool::new(false))?;
    refresh_apply(c, &fetched)
}

/// Every feed of a refresh as downloaded: nothing imported yet.
#[derive(Debug, Clone)]
pub struct FetchedFeeds(Vec<(String, FeedFormat, Vec<u8>, Provenance)>);

/// The network half of [`refresh`]: needs no database, so a caller can
/// download without holding one (the desktop app keeps evaluating while
/// feeds arrive). Setting `cancel` stops it with an error at the next chunk.
pub fn refresh_fetch(
    feeds: &[FeedSource],
    urls: &FeedUrls,
    progress: &mut dyn FnMut(&str, u64),
    cancel: &std::sync::atomic::AtomicBool,
) -> Result<FetchedFeeds, Error> {
    use suanli_catalog::update::Session;
    let first = match feeds.first() {
        Some(FeedSource::Azure) => urls.azure.clone(),
        _ => urls.skypilot.clone(),
    };
    let session = Session::new(&first, &urls.limits)?;
    let session = session.cancelled_by(cancel);
    let today = crate::today();
    let mut downloaded: Vec<(String, FeedFormat, Vec<u8>, Provenance)> = Vec::new();
    for feed in feeds {
        match feed {
            FeedSource::Skypilot { cloud } => {
                let url = urls.skypilot.replace("{cloud}", cloud);
                let bytes = session.fetch(&url, &mut |n, _| progress(cloud, n))?;
                let provenance = Provenance {
                    source: format!("SkyPilot catalogue {cloud}/vms.csv ({url})"),
                    as_of: Some(today.clone()),
                    confidence: Confidence::A,
                };
                downloaded.push((
                    format!("skypilot:{cloud}"),
                    FeedFormat::Skypilot { provider: cloud.clone() },
                    bytes,
                    provenance,
                ));
            }
            FeedSource::Azure => {
                let bytes = session.fetch_azure_pages(&urls.azure, &mut |n, _| progress("azure", n))?;
                let provenance = Provenance {
                    source: format!("Azure Retail Prices API ({})", urls.azure),
                    as_of: Some(today.clone()),
                    confidence: Confidence::A,
                };
                downloaded.push(("azure".into(), FeedFormat::AzureRetail, bytes, provenance));
            }
        }
    }
    Ok(FetchedFeeds(downloaded))
}

/// The database half of [`refresh`]: imports every fetched feed in one
/// transaction (on any failure nothing changes). Each feed's report, by name.
pub fn refresh_apply(c: &mut Catalog, fetched: &FetchedFeeds) -> Result<Vec<(String, ImportReport)>, Error> {
    let FetchedFeeds(downloaded) = fetched;
    let batch: Vec<(FeedFormat, &[u8], Provenance)> =
        downloaded.iter().map(|(_, f, b, p)| (f.clone(), b.as_slice(), p.clone())).collect();
    let reports = c.import_all(&batch, &now_utc())?;
    Ok(downloaded.iter().map(|(name, ..)| name.clone()).zip(reports).collect())
}

/// Progress of a price refresh, sent as an event while it runs.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct RefreshProgress {
    /// Where the refresh is.
    pub stage: UpdateStage,
    /// The feed downloading (`skypilot:aws`, `azure`); empty past the download.
    pub feed: String,
    /// Bytes of that feed received so far.
    pub done_bytes: f64,
}

/// What one feed of a refresh did, row by row.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct FeedReport {
    /// The feed (`skypilot:aws`, `azure`).
    pub feed: String,
    /// Rows read.
    pub rows: u32,
    /// Rows that landed an offer (or found it unchanged).
    pub rows_landed: u32,
    /// Rows that landed nothing, each with its reason (`catalog import` lists them).
    pub rows_reported: u32,
    /// Offers written (new or changed).
    pub imported: u32,
    /// Offers already there, unchanged.
    pub unchanged: u32,
    /// Accelerator names no alias maps, once each, with how many rows used them.
    pub unknown_names: Vec<(String, u32)>,
}

impl FeedReport {
    /// One feed's report as the window shows it.
    pub fn of(feed: String, r: &ImportReport) -> FeedReport {
        let n = |x: usize| u32::try_from(x).unwrap_or(u32::MAX);
        FeedReport {
            feed,
            rows: n(r.rows),
            rows_landed: n(r.rows_landed),
            rows_reported: n(r.rows_reported),
            imported: n(r.imported),
            unchanged: n(r.unchanged),
            unknown_names: r.unknown_names.iter().map(|(name, count)| (name.clone(), n(*count))).collect(),
        }
    }
}

/// The feeds the app offers to refresh, as `FeedSource::parse_list` reads them:
/// the SkyPilot catalogues of the clouds whose GPU rows the importer maps, and Azure's API.
pub const REFRESHABLE_FEEDS: &[&str] = &[
    "skypilot:aws",
    "skypilot:gcp",
    "skypilot:lambda",
    "skypilot:nebius",
    "skypilot:oci",
    "skypilot:vast",
    "skypilot:fluidstack",
    "azure",
];

/// The feeds a refresh can download and the addresses it downloads them
/// from unless the user names a mirror.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct FeedChoice {
    /// Each feed as [`FeedSource::parse_list`] reads it.
    pub feeds: Vec<String>,
    /// The SkyPilot catalogue's address; `{cloud}` is the cloud's name.
    pub skypilot_url: String,
    /// The Azure Retail Prices API's first page (GPU VM sizes).
    pub azure_url: String,
}

/// The feeds and their public addresses.
pub fn feed_choice() -> FeedChoice {
    let urls = FeedUrls::default();
    FeedChoice {
        feeds: REFRESHABLE_FEEDS.iter().map(|f| (*f).to_owned()).collect(),
        skypilot_url: urls.skypilot,
        azure_url: urls.azure,
    }
}

/// Feeds named one per entry (`skypilot:aws`, `azure`), checked; the error names `feeds`.
pub fn parse_feeds(feeds: &[String]) -> Result<Vec<FeedSource>, Error> {
    let text = feeds.join(",");
    FeedSource::parse_list(&text).map_err(|problem| Error::Reference { path: "feeds".into(), value: text, problem })
}

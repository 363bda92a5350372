//! Filtering, sorting and searching the catalogue, and each offer's
//! effective price per reference-GPU-hour for a workload class.

use std::collections::{BTreeMap, BTreeSet};

use rusqlite::params;
use serde::{Deserialize, Serialize};

use suanli_model::{Currency, ExportStatus, fx_rate};

use crate::cache::{OfferRows, Stamp};
use crate::ratios::{Calibration, NoRatio, RatioBook, RatioInputs, RatioUsed};
use crate::rows::*;
use crate::{Catalog, Error, store};

mod search;
mod workload;

pub use search::{HitKind, SearchHit};
pub use workload::{AcceleratorForWorkload, BestOffer};

pub use crate::vocab::OfferOrigin;

/// The accelerator every ratio is relative to by default.
pub const REFERENCE_ACCELERATOR: &str = "nvidia-a100-sxm-80gb";

/// Whose rules decide what a buyer can obtain.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub enum Jurisdiction {
    /// A buyer in mainland China: US export controls apply.
    Cn,
}

impl Jurisdiction {
    /// Export statuses under which the buyer can obtain the accelerator.
    /// `unknown` is kept: absence of a source is not a ban.
    fn obtainable(self, status: Option<ExportStatus>) -> bool {
        match self {
            Jurisdiction::Cn => !matches!(status, Some(ExportStatus::Banned | ExportStatus::LicenceRequired)),
        }
    }
}

/// Which accelerators to list; every criterion set must hold.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct AcceleratorFilter {
    /// Vendor name in English (any case) or Chinese.
    pub vendor: Option<String>,
    /// Only Chinese domestic parts (`true`) or only the others (`false`).
    pub domestic: Option<bool>,
    /// At least this much memory per accelerator, GB.
    pub min_memory_gb: Option<f64>,
    /// Only parts a buyer there can obtain (neither banned nor
    /// licence-required; `unknown` is kept).
    pub obtainable_in: Option<Jurisdiction>,
}

/// The order of the offers view, lowest first. Offers without the key
/// come last; ties go by offer id.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub enum OfferSort {
    /// By offer id.
    #[default]
    Id,
    /// Price per accelerator-hour, in the comparison currency.
    Price,
    /// Effective price per reference-GPU-hour (needs a workload class).
    Effective,
    /// Compute cost per million output tokens (needs an inference model).
    PerMillionTokens,
}

/// Which offers the offers view shows, and how it prices them. Every
/// criterion set must hold.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct OfferFilter {
    /// Only offers of this accelerator id.
    pub accelerator: Option<String>,
    /// Only accelerators of this vendor (English name, any case).
    pub vendor: Option<String>,
    /// Only Chinese domestic accelerators (`true`) or only the others (`false`).
    pub domestic: Option<bool>,
    /// Only this billing mode.
    pub billing_mode: Option<BillingMode>,
    /// Only this provider id.
    pub provider: Option<String>,
    /// Only providers in this country (ISO 3166 alpha-2, any case).
    pub provider_country: Option<String>,
    /// Only this region, exactly as the offer writes it.
    pub region: Option<String>,
    /// Only accelerators a buyer there can obtain (`unknown` is kept).
    pub obtainable_in: Option<Jurisdiction>,
    /// Price per accelerator-hour bounds, in `currency`.
    pub min_price: Option<f64>,
    /// Upper bound of the same. With either bound set, an offer without a
    /// comparable price is left out.
    pub max_price: Option<f64>,
    /// Only providers whose sourced `bare_metal` is this.
    pub bare_metal: Option<bool>,
    /// Only providers whose sourced `dedicated_gpu` is this.
    pub dedicated_gpu: Option<bool>,
    /// Only providers whose sourced `encryption_in_transit` is this.
    pub encryption_in_transit: Option<bool>,
    /// A certification the provider must list (substring, case-insensitive).
    pub certification: Option<String>,
    /// Workload class for efficiency ratios and effective prices.
    pub workload_class: Option<WorkloadClass>,
    /// Compare prices in this currency, with `fx` (units of it per unit of
    /// another currency). Offers in a currency without a rate get no
    /// comparable price.
    pub currency: Option<Currency>,
    /// Exchange rates: units of `currency` per unit of each other currency.
    #[cfg_attr(feature = "specta", specta(type = std::collections::HashMap<String, f64>))]
    pub fx: BTreeMap<Currency, f64>,
    /// The model an LLM is served with: gives each offer's tokens per
    /// second and cost per million tokens, and whether one instance holds it.
    #[serde(default)]
    pub inference: Option<InferenceModel>,
    /// Include the user's own offers (default) or only the catalogue's.
    pub exclude_pricebook: bool,
    /// The order of the result.
    pub sort: OfferSort,
}

/// An offer with what a reader needs beside it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct OfferView {
    /// The offer itself (its fields are flattened into the JSON).
    #[serde(flatten)]
    pub offer: std::sync::Arc<Offer>,
    /// Which layer it comes from.
    pub origin: OfferOrigin,
    /// What kind of figure the price is (official list price, market
    /// quote …), from its confidence tag.
    pub quote: QuoteKind,
    /// The provider's name in English.
    pub provider_name: Option<String>,
    /// The provider's country (ISO 3166 alpha-2).
    pub provider_country: Option<String>,
    /// The accelerator's name in English.
    pub accelerator_name: Option<String>,
    /// The accelerator's vendor.
    pub vendor: Option<String>,
    /// Whether the accelerator is a Chinese domestic part.
    pub domestic: Option<bool>,
    /// The accelerator's export status for a buyer in China.
    pub export_status_cn: Option<ExportStatus>,
    /// Negotiated discount from the price book (0.15 = 15 % off).
    pub discount_share: Option<f64>,
    /// Price of one accelerator-hour after any discount, in the offer's currency.
    pub price_per_accel_hour: Option<f64>,
    /// The same in the comparison currency, when one was asked for.
    pub comparable_price_per_accel_hour: Option<f64>,
    /// The high end of a range the source quotes, per accelerator-hour
    /// after any discount, in the offer's currency (`price_per_accel_hour`
    /// is then the low end); `None` for a single figure.
    pub price_high_per_accel_hour: Option<f64>,
    /// The price per accelerator-hour as a range, in the comparison
    /// currency (or the offer's): the source's own range, or the spread of
    /// the market quotes for the same accelerator and billing. `None` for
    /// a single list price.
    pub spread: Option<std::sync::Arc<PriceSpread>>,
    /// The ratio for the filter's workload class, with its basis
    /// (measured, derived, estimated, pinned …) and method.
    pub efficiency: Option<std::sync::Arc<RatioUsed>>,
    /// Why there is none, when a workload class was asked for.
    pub no_ratio: Option<NoRatio>,
    /// The offer's price per accelerator-hour ÷ efficiency ratio, in the
    /// comparison currency (or the offer's, when none was asked for). Not the
    /// engine's effective price, which is spend ÷ useful hours served.
    pub price_per_ref_gpu_hour: Option<f64>,
    /// For a server purchase: its price ÷ (accelerators × ratio), what one
    /// reference GPU's worth of compute costs to buy.
    pub effective_capex_per_ref_gpu: Option<f64>,
    /// Output tokens per second one of its accelerators serves (the
    /// reference's, estimated, × the ratio), with an inference model.
    pub tokens_per_second_per_accelerator: Option<f64>,
    /// Price per reference-GPU-hour ÷ tokens per reference-GPU-hour × 1e6.
    pub cost_per_million_tokens: Option<f64>,
    /// Fewest accelerators that hold the model, and whether one instance has them.
    pub min_accelerators_for_model: Option<u32>,
    /// Whether one instance has that many (with an inference model and a
    /// known memory size).
    pub instance_holds_model: Option<bool>,
}

/// What kind of figure a price is, from its confidence tag: what a reader
/// must not confuse is an official list price with a market quote.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub enum QuoteKind {
    /// `A`: the provider's own price page, document or feed.
    ListPrice,
    /// `B`: a reputable third party transcribing or reporting it.
    Reported,
    /// `C`: a market quote, forum, blog or aggregator (hearsay).
    MarketQuote,
    /// `X`: contradicted by its own or another source.
    Disputed,
    /// The user's own price (price book).
    Yours,
    /// Any other tag (press, derived, vendor): see the confidence.
    Other,
}

impl QuoteKind {
    /// The kind of an offer's price.
    pub fn of(c: Confidence) -> QuoteKind {
        match c {
            Confidence::A => QuoteKind::ListPrice,
            Confidence::B => QuoteKind::Reported,
            Confidence::C => QuoteKind::MarketQuote,
            Confidence::X => QuoteKind::Disputed,
            Confidence::User => QuoteKind::Yours,
            _ => QuoteKind::Other,
        }
    }

    /// The kind in words.
    pub fn label(self, lang: suanli_model::Lang) -> &'static str {
        match self {
            QuoteKind::ListPrice => lang.pick("official list price", "官方刊例价"),
            QuoteKind::Reported => lang.pick("reported price", "媒体报道价"),
            QuoteKind::MarketQuote => lang.pick("market quote", "市场报价"),
            QuoteKind::Disputed => lang.pick("disputed figure", "有冲突的数字"),
            QuoteKind::Yours => lang.pick("your price", "您的价格"),
            QuoteKind::Other => lang.pick("other source", "其他来源"),
        }
    }
}

/// Where a price range comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub enum SpreadBasis {
    /// The offer's source quotes a range ("3.00–4.00", "15,600–17,040 per
    /// month"): low and high are its ends, typical their midpoint.
    QuotedRange,
    /// A market report's quote (provider kind `market_report`), with the
    /// other market quotes (confidence C, at least two providers) for the
    /// same accelerator, billing mode and accelerators per instance (a
    /// single card is not an 8-card server): lowest, median and highest.
    /// A seller's own price never takes others' spread.
    MarketQuotes,
}

impl SpreadBasis {
    /// The basis in words.
    pub fn label(self, lang: suanli_model::Lang) -> &'static str {
        match self {
            SpreadBasis::QuotedRange => lang.pick("quoted range", "来源报价区间"),
            SpreadBasis::MarketQuotes => lang.pick("market spread", "市场报价区间"),
        }
    }
}

/// A price per accelerator-hour known as a range: low, typical and high,
/// and the offers behind each end.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct PriceSpread {
    /// Whether it is one source's range or several quotes.
    pub basis: SpreadBasis,
    /// Lowest price per accelerator-hour.
    pub low: f64,
    /// Typical price: a quoted range's midpoint, or the median of the
    /// quotes' midpoints.
    pub typical: f64,
    /// Highest price per accelerator-hour.
    pub high: f64,
    /// The currency of the three prices.
    pub currency: Currency,
    /// The offers quoting the low end.
    pub low_offers: Vec<String>,
    /// The offers quoting the high end.
    pub high_offers: Vec<String>,
    /// Every offer behind the spread.
    pub offers: Vec<String>,
    /// The source ids of those offers (`;`-joined, each once).
    pub sources: String,
}

/// One market quote's range per accelerator-hour in a comparison currency.
struct Quote<'a> {
    offer: &'a Offer,
    low: f64,
    high: f64,
}

/// What market quotes must share to form one spread: accelerator, billing
/// mode, accelerators per instance (whole number, 0 unknown) and currency.
type SpreadKey = (String, BillingMode, u32, Currency);

fn spread_key(o: &Offer, currency: Currency) -> Option<SpreadKey> {
    let count = o.accelerators_per_instance.map_or(0, |n| n.round() as u32);
    Some((o.accelerator_id.clone()?, o.billing_mode, count, currency))
}

/// The spread of the market quotes (confidence C) of each accelerator,
/// billing mode and size, in `currency` (or, without one, per offer currency).
fn market_spreads(
    offers: &[(std::sync::Arc<Offer>, OfferOrigin)],
    currency: Option<Currency>,
    fx: &BTreeMap<Currency, f64>,
) -> BTreeMap<SpreadKey, std::sync::Arc<PriceSpread>> {
    let mut quotes: BTreeMap<SpreadKey, Vec<Quote<'_>>> = BTreeMap::new();
    for (o, origin) in offers {
        if *origin == OfferOrigin::Pricebook || o.confidence != Confidence::C {
            continue;
        }
        let Some(low) = o.price_per_accel_hour() else { continue };
        let high = o.price_high_per_accel_hour().unwrap_or(low);
        let cur = currency.unwrap_or(o.currency);
        let rate = fx_rate(fx, o.currency, cur);
        let (Some(rate), Some(key)) = (rate, spread_key(o, cur)) else { continue };
        quotes.entry(key).or_default().push(Quote { offer: o, low: low * rate, high: high * rate });
    }
    quotes
        .into_iter()
        .filter_map(|(key, qs)| {
            let providers: BTreeSet<&str> = qs.iter().map(|q| q.offer.provider_id.as_str()).collect();
            if qs.len() < 2 || providers.len() < 2 {
                return None;
            }
            let low = qs.iter().map(|q| q.low).fold(f64::INFINITY, f64::min);
            let high = qs.iter().map(|q| q.high).fold(f64::NEG_INFINITY, f64::max);
            if high.partial_cmp(&low) != Some(std::cmp::Ordering::Greater) {
                return None;
            }
            let mut mids: Vec<f64> = qs.iter().map(|q| (q.low + q.high) / 2.0).collect();
            mids.sort_by(f64::total_cmp);
            let n = mids.len();
            let typical = if n % 2 == 1 { mids[n / 2] } else { (mids[n / 2 - 1] + mids[n / 2]) / 2.0 };
            let ids =
                |pick: &dyn Fn(&Quote<'_>) -> bool| qs.iter().filter(|q| pick(q)).map(|q| q.offer.id.clone()).collect();
            let mut sources: Vec<&str> = Vec::new();
            for q in &qs {
                for id in q.offer.source.split(';').map(str::trim).filter(|s| !s.is_empty()) {
                    if !sources.contains(&id) {
                        sources.push(id);
                    }
                }
            }
            let spread = PriceSpread {
                basis: SpreadBasis::MarketQuotes,
                low,
                typical,
                high,
                currency: key.3,
                low_offers: ids(&|q| q.low == low),
                high_offers: ids(&|q| q.high == high),
                offers: qs.iter().map(|q| q.offer.id.clone()).collect(),
                sources: sources.join(";"),
            };
            Some((key, std::sync::Arc::new(spread)))
        })
        .collect()
}

/// An LLM as the offers view serves it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct InferenceModel {
    /// Parameters of the model (70e9 for a 70 B model).
    pub parameters: f64,
    /// The precision it is served at.
    pub precision: suanli_model::Precision,
    /// Tokens of context per request (prompt and output).
    pub context_tokens: f64,
    /// The latency class it is served under.
    pub latency: suanli_model::LatencyClass,
    /// KV cache per token of context, bytes; `None` for the model crate's
    /// dense-transformer rule.
    pub kv_bytes_per_token: Option<f64>,
}

impl InferenceModel {
    /// Fewest accelerators of `memory_gb` each that hold the weights and
    /// one full context's KV cache.
    pub fn min_accelerators(&self, memory_gb: f64) -> Option<u32> {
        let kv = self
            .kv_bytes_per_token
            .unwrap_or_else(|| suanli_model::fit::default_kv_bytes_per_token(self.parameters, self.precision))
            * self.context_tokens;
        suanli_model::fit::inference_min_accelerators(self.parameters, self.precision, kv, memory_gb)
    }

    fn demand(&self) -> suanli_model::Inference {
        suanli_model::Inference {
            tokens_per_second: Some(1.0),
            tokens_per_day: None,
            parameters: self.parameters,
            precision: self.precision,
            context_tokens: self.context_tokens,
            latency: self.latency,
            kv_bytes_per_token: self.kv_bytes_per_token,
            tokens_per_second_per_ref_gpu: None,
            throughput_source: String::new(),
            cluster_accelerators: 8,
        }
    }
}

/// Output tokens per second of the reference accelerator (the serving
/// model on its catalogue specs), when it has them.
fn reference_tokens_per_second(reference: Option<&Accelerator>, m: &InferenceModel) -> Option<f64> {
    let device = reference?.serving_device(m.precision)?;
    suanli_model::inference::decode_throughput(&m.demand(), &device).map(|t| t.tokens_per_second_per_accelerator)
}

impl Catalog {
    /// The accelerators that pass the filter, by id.
    pub fn accelerators(&self, f: &AcceleratorFilter) -> Result<Vec<Accelerator>, Error> {
        let all: Vec<Accelerator> = store::select(self.connection(), "SELECT * FROM accelerators ORDER BY id", [])?;
        Ok(all
            .into_iter()
            .filter(|a| {
                f.vendor.as_ref().is_none_or(|v| a.vendor.eq_ignore_ascii_case(v) || a.vendor_zh.as_deref() == Some(v))
            })
            .filter(|a| f.domestic.is_none_or(|d| a.domestic == Some(d)))
            .filter(|a| f.min_memory_gb.is_none_or(|m| a.memory_gb.is_some_and(|g| g >= m)))
            .filter(|a| f.obtainable_in.is_none_or(|j| j.obtainable(a.export_status_cn)))
            .collect())
    }

    /// Every provider, by id.
    pub fn providers(&self) -> Result<Vec<Provider>, Error> {
        store::select(self.connection(), "SELECT * FROM providers ORDER BY id", [])
    }

    /// Every node and fabric fact, by provider and instance.
    pub fn nodes(&self) -> Result<Vec<Node>, Error> {
        store::select(self.connection(), "SELECT * FROM nodes ORDER BY id", [])
    }

    /// Every reference exchange rate.
    pub fn reference_rates(&self) -> Result<Vec<ReferenceRate>, Error> {
        store::select(self.connection(), "SELECT * FROM reference_rates ORDER BY currency", [])
    }

    /// The measured scaling points.
    pub fn scaling_points(&self) -> Result<Vec<ScalingPoint>, Error> {
        store::select(self.connection(), "SELECT * FROM scaling ORDER BY id", [])
    }

    /// One accelerator by id.
    pub fn accelerator(&self, id: &str) -> Result<Option<Accelerator>, Error> {
        Ok(store::select(self.connection(), "SELECT * FROM accelerators WHERE id = ?1", params![id])?.pop())
    }

    /// One provider by id.
    pub fn provider(&self, id: &str) -> Result<Option<Provider>, Error> {
        Ok(store::select(self.connection(), "SELECT * FROM providers WHERE id = ?1", params![id])?.pop())
    }

    /// One source by id.
    pub fn source(&self, id: &str) -> Result<Option<Source>, Error> {
        Ok(store::select(self.connection(), "SELECT * FROM sources WHERE id = ?1", params![id])?.pop())
    }

    /// One accelerator's published ratio rows, by workload class.
    pub fn efficiency_rows(&self, accelerator_id: &str) -> Result<Vec<Efficiency>, Error> {
        store::select(
            self.connection(),
            "SELECT * FROM efficiency WHERE accelerator_id = ?1 ORDER BY workload_class, id",
            params![accelerator_id],
        )
    }

    /// Every published measurement.
    pub fn measurements(&self) -> Result<Vec<Measurement>, Error> {
        store::select(self.connection(), "SELECT * FROM measurements ORDER BY id", [])
    }

    /// The measurements of one accelerator.
    pub fn measurements_of(&self, accelerator_id: &str) -> Result<Vec<Measurement>, Error> {
        store::select(
            self.connection(),
            "SELECT * FROM measurements WHERE accelerator_id = ?1 ORDER BY workload_class, \"case\", id",
            params![accelerator_id],
        )
    }

    /// Every accelerator's ratio for every workload class against
    /// `reference` (built once per database state).
    pub fn ratio_book(&self, reference: &str) -> Result<std::sync::Arc<RatioBook>, Error> {
        let stamp = Stamp::of(self.connection())?;
        self.cache.book(stamp, reference, || self.build_ratio_book(reference))
    }

    /// The rows the offers view joins (read once per database state).
    fn offer_rows(&self) -> Result<std::sync::Arc<OfferRows>, Error> {
        let stamp = Stamp::of(self.connection())?;
        self.cache.offer_rows(stamp, || {
            Ok(OfferRows {
                providers: self.providers()?.into_iter().map(|p| (p.id.clone(), p)).collect(),
                accelerators: self
                    .accelerators(&AcceleratorFilter::default())?
                    .into_iter()
                    .map(|a| (a.id.clone(), a))
                    .collect(),
                discounts: self.discounts()?,
                offers: self
                    .all_offers(true)?
                    .into_iter()
                    .map(|(o, origin)| (std::sync::Arc::new(o), origin))
                    .collect(),
            })
        })
    }

    fn build_ratio_book(&self, reference: &str) -> Result<RatioBook, Error> {
        let accelerators = self.accelerators(&AcceleratorFilter::default())?;
        let efficiency: Vec<Efficiency> = store::select(self.connection(), "SELECT * FROM efficiency ORDER BY id", [])?;
        let measurements = self.measurements()?;
        let pins = self.pinned_ratios()?;
        Ok(RatioBook::build(RatioInputs {
            accelerators: &accelerators,
            efficiency: &efficiency,
            measurements: &measurements,
            pins: &pins,
            reference,
        }))
    }

    /// The serving model against MLPerf Inference's Llama 2 70B results.
    pub fn serving_calibration(&self) -> Result<crate::serving::ServingCalibration, Error> {
        Ok(crate::serving::calibrate(&self.measurements()?, &self.accelerators(&AcceleratorFilter::default())?))
    }

    /// The leave-one-out calibration of the estimate model.
    pub fn calibration(&self, reference: &str) -> Result<Calibration, Error> {
        let accelerators = self.accelerators(&AcceleratorFilter::default())?;
        let efficiency: Vec<Efficiency> = store::select(self.connection(), "SELECT * FROM efficiency ORDER BY id", [])?;
        let measurements = self.measurements()?;
        let inputs = RatioInputs {
            accelerators: &accelerators,
            efficiency: &efficiency,
            measurements: &measurements,
            pins: &[],
            reference,
        };
        Ok(RatioBook::build(inputs).calibration(inputs))
    }

    /// An accelerator's ratio to `reference` for a class, or why there is none.
    pub fn ratio(
        &self,
        accelerator_id: &str,
        class: WorkloadClass,
        reference: &str,
    ) -> Result<Result<RatioUsed, NoRatio>, Error> {
        Ok(self.ratio_book(reference)?.get(accelerator_id, class).map(|r| RatioUsed::clone(r)))
    }

    /// Offers, catalogue and price book, filtered and sorted.
    pub fn offers(&self, f: &OfferFilter) -> Result<Vec<OfferView>, Error> {
        let rows = self.offer_rows()?;
        let OfferRows { providers, accelerators, discounts, offers } = &*rows;
        let book = match f.workload_class {
            Some(_) => Some(self.ratio_book(REFERENCE_ACCELERATOR)?),
            None => None,
        };
        let reference_tps =
            f.inference.as_ref().and_then(|m| reference_tokens_per_second(accelerators.get(REFERENCE_ACCELERATOR), m));
        let spreads = market_spreads(offers, f.currency, &f.fx);
        let mut out = Vec::new();
        for (offer, origin) in offers {
            if f.exclude_pricebook && *origin == OfferOrigin::Pricebook {
                continue;
            }
            let provider = providers.get(&offer.provider_id);
            let accelerator = offer.accelerator_id.as_ref().and_then(|id| accelerators.get(id));
            let keep = f.accelerator.as_ref().is_none_or(|a| offer.accelerator_id.as_deref() == Some(a))
                && f.vendor.as_ref().is_none_or(|v| accelerator.is_some_and(|a| a.vendor.eq_ignore_ascii_case(v)))
                && f.domestic.is_none_or(|d| accelerator.is_some_and(|a| a.domestic == Some(d)))
                && f.billing_mode.is_none_or(|b| offer.billing_mode == b)
                && f.provider.as_ref().is_none_or(|p| &offer.provider_id == p)
                && f.provider_country.as_ref().is_none_or(|c| {
                    provider.and_then(|p| p.country.as_ref()).is_some_and(|pc| pc.eq_ignore_ascii_case(c))
                })
                && f.region.as_ref().is_none_or(|r| offer.region.as_deref() == Some(r))
                && f.obtainable_in.is_none_or(|j| j.obtainable(accelerator.and_then(|a| a.export_status_cn)))
                && f.bare_metal.is_none_or(|b| provider.is_some_and(|p| p.bare_metal == Some(b)))
                && f.dedicated_gpu.is_none_or(|b| provider.is_some_and(|p| p.dedicated_gpu == Some(b)))
                && f.encryption_in_transit.is_none_or(|b| provider.is_some_and(|p| p.encryption_in_transit == Some(b)))
                && f.certification.as_ref().is_none_or(|c| provider.is_some_and(|p| p.meets(c)));
            if !keep {
                continue;
            }
            let discount = discounts
                .iter()
                .find(|d| d.offer_id.as_deref() == Some(&offer.id))
                .or_else(|| discounts.iter().find(|d| d.provider_id.as_deref() == Some(&offer.provider_id)))
                .map(|d| d.discount_share);
            let kept = crate::pricebook::share_paid(discount);
            let price = offer.price_per_accel_hour().map(|p| p * kept);
            let price_high = offer.price_high_per_accel_hour().map(|p| p * kept);
            let rate = fx_rate(&f.fx, offer.currency, f.currency.unwrap_or(offer.currency));
            let comparable = price.zip(rate).map(|(p, r)| p * r);
            let comparable_high = price_high.zip(rate).map(|(p, r)| p * r);
            let spread_currency = f.currency.unwrap_or(offer.currency);
            let spread = match (comparable, comparable_high) {
                (Some(low), Some(high)) if high > low => Some(std::sync::Arc::new(PriceSpread {
                    basis: SpreadBasis::QuotedRange,
                    low,
                    typical: (low + high) / 2.0,
                    high,
                    currency: spread_currency,
                    low_offers: vec![offer.id.clone()],
                    high_offers: vec![offer.id.clone()],
                    offers: vec![offer.id.clone()],
                    sources: offer.source.clone(),
                })),
                // Only a market report's quote stands for "the market"; a
                // seller's price is its own, whatever others charge.
                _ if offer.confidence == Confidence::C
                    && comparable.is_some()
                    && provider.is_some_and(|p| p.kind == ProviderKind::MarketReport) =>
                {
                    { spread_key(offer, spread_currency) }.and_then(|key| spreads.get(&key)).map(|s| {
                        if kept == 1.0 {
                            s.clone()
                        } else {
                            let mut s = PriceSpread::clone(s);
                            (s.low, s.typical, s.high) = (s.low * kept, s.typical * kept, s.high * kept);
                            std::sync::Arc::new(s)
                        }
                    })
                }
                _ => None,
            };
            if f.min_price.is_some_and(|min| comparable.is_none_or(|p| p < min))
                || f.max_price.is_some_and(|max| comparable.is_none_or(|p| p > max))
            {
                continue;
            }
            let ratio = match (f.workload_class, &book) {
                (Some(class), Some(book)) => Some(match &offer.accelerator_id {
                    Some(acc) => book.get(acc, class).cloned(),
                    None => Err(NoRatio::NoAccelerator),
                }),
                _ => None,
            };
            let (efficiency, no_ratio) = match ratio {
                Some(Ok(r)) => (Some(r), None),
                Some(Err(why)) => (None, Some(why)),
                None => (None, None),
            };
            let effective = match (&efficiency, comparable) {
                (Some(r), Some(p)) => Some(p / r.ratio),
                _ => None,
            };
            let effective_capex = match (&efficiency, offer.price_unit) {
                (Some(r), PriceUnit::Server) => {
                    let per_server = offer.price * kept;
                    let in_currency = rate.map(|rate| per_server * rate);
                    match (in_currency, offer.accelerators_per_instance.filter(|n| *n > 0.0)) {
                        (Some(p), Some(n)) => Some(p / n / r.ratio),
                        _ => None,
                    }
                }
                _ => None,
            };
            let tokens_per_second = match (&efficiency, reference_tps) {
                (Some(r), Some(tps)) => Some(tps * r.ratio),
                _ => None,
            };
            let cost_per_million_tokens = match (effective, reference_tps) {
                (Some(p), Some(tps)) => Some(p / (tps * 3600.0) * 1e6),
                _ => None,
            };
            let min_accelerators = match (&f.inference, accelerator.and_then(|a| a.memory_gb)) {
                (Some(m), Some(gb)) => m.min_accelerators(gb),
                _ => None,
            };
            let instance_holds_model = f.inference.as_ref().and(accelerator.and_then(|a| a.memory_gb)).map(|_| {
                min_accelerators.is_some_and(|n| f64::from(n) <= offer.accelerators_per_instance.unwrap_or(1.0))
            });
            out.push(OfferView {
                tokens_per_second_per_accelerator: tokens_per_second,
                cost_per_million_tokens,
                min_accelerators_for_model: min_accelerators,
                instance_holds_model,
                origin: *origin,
                quote: QuoteKind::of(offer.confidence),
                provider_name: provider.map(|p| p.name.clone()),
                provider_country: provider.and_then(|p| p.country.clone()),
                accelerator_name: accelerator.map(|a| a.name.clone()),
                vendor: accelerator.map(|a| a.vendor.clone()),
                domestic: accelerator.and_then(|a| a.domestic),
                export_status_cn: accelerator.and_then(|a| a.export_status_cn),
                discount_share: discount,
                price_per_accel_hour: price,
                comparable_price_per_accel_hour: comparable,
                price_high_per_accel_hour: price_high,
                spread,
                efficiency,
                no_ratio,
                price_per_ref_gpu_hour: effective,
                effective_capex_per_ref_gpu: effective_capex,
                offer: offer.clone(),
            });
        }
        let key = |v: &OfferView| match f.sort {
            OfferSort::Id => None,
            OfferSort::Price => v.comparable_price_per_accel_hour,
            OfferSort::Effective => v.price_per_ref_gpu_hour.or(v.effective_capex_per_ref_gpu),
            OfferSort::PerMillionTokens => v.cost_per_million_tokens,
        };
        // Sorted as (key, index) pairs: an OfferView is large to move.
        let mut order: Vec<(Option<f64>, usize)> = out.iter().map(key).zip(0..).collect();
        order.sort_by(|(ka, a), (kb, b)| {
            let by_id = || out[*a].offer.id.cmp(&out[*b].offer.id);
            match (ka, kb) {
                (Some(x), Some(y)) => x.total_cmp(y).then_with(by_id),
                (Some(_), None) => std::cmp::Ordering::Less,
                (None, Some(_)) => std::cmp::Ordering::Greater,
                (None, None) => by_id(),
            }
        });
        let mut slots: Vec<Option<OfferView>> = out.into_iter().map(Some).collect();
        let out = order.into_iter().filter_map(|(_, i)| slots[i].take()).collect();
        Ok(out)
    }

    /// Every offer with its origin. By id, an imported offer shadows the
    /// catalogue's and the user's own shadows both.
    pub fn all_offers(&self, with_pricebook: bool) -> Result<Vec<(Offer, OfferOrigin)>, Error> {
        let conn = self.connection();
        let mut by_id: BTreeMap<String, (Offer, OfferOrigin)> = BTreeMap::new();
        let mut layers = vec![
            ("SELECT * FROM offers", OfferOrigin::Catalogue),
            ("SELECT * FROM imported_offers", OfferOrigin::Import),
        ];
        if with_pricebook {
            layers.push(("SELECT * FROM pricebook_offers", OfferOrigin::Pricebook));
        }
        for (sql, origin) in layers {
            for o in store::select::<Offer, _>(conn, sql, [])? {
                by_id.insert(o.id.clone(), (o, origin));
            }
        }
        Ok(by_id.into_values().collect())
    }

    /// One offer by id, from the price book, an import or the catalogue, if it passes `filter`.
    pub fn offer(&self, id: &str, filter: &OfferFilter) -> Result<Option<OfferView>, Error> {
        Ok(self.offers(filter)?.into_iter().find(|o| o.offer.id == id))
    }
}

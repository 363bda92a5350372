//! Every accelerator for one workload class, ranked by its best offer's
//! effective price (or cost per million tokens), with its ratio.

use serde::Serialize;
use suanli_model::WorkloadClass;

use super::{AcceleratorFilter, OfferFilter, OfferView, QuoteKind, REFERENCE_ACCELERATOR};
use crate::ratios::{NoRatio, RatioUsed};
use crate::rows::{BillingMode, Confidence};
use crate::{Catalog, Error};

/// One accelerator for a workload: its ratio (with its basis) and its
/// cheapest offer per unit of useful work.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct AcceleratorForWorkload {
    /// Catalogue id (`nvidia-a100-sxm-80gb`).
    pub accelerator_id: String,
    /// Product name in English.
    pub name: String,
    /// Product name in Chinese, where it has one.
    pub name_zh: Option<String>,
    /// Vendor name in English.
    pub vendor: String,
    /// `true` for a Chinese domestic vendor's part.
    pub domestic: Option<bool>,
    /// Its ratio to the reference GPU for the filter's workload class, with its basis.
    pub ratio: Option<std::sync::Arc<RatioUsed>>,
    /// Why it has no ratio, when it has none.
    pub no_ratio: Option<NoRatio>,
    /// Rental offers (purchase offers are not priced per hour) that pass the filter.
    pub rental_offers: u32,
    /// Of those, the ones whose instance holds the served model (when the
    /// filter states one): only these are priced per million tokens.
    pub rentals_holding_model: Option<u32>,
    /// The rental offer with the lowest effective price (or cost per
    /// million tokens, when the filter states a served model).
    pub best_offer: Option<BestOffer>,
    /// The best offer's price per reference-GPU-hour, in the filter's currency.
    pub price_per_ref_gpu_hour: Option<f64>,
    /// When the best offer's price is a range (quoted by its source, or the
    /// spread of market quotes): its low and high ends per
    /// reference-GPU-hour, in the filter's currency.
    pub effective_price_range_per_ref_gpu_hour: Option<[f64; 2]>,
    /// The best offer's cost per million output tokens, in the filter's
    /// currency (when the filter states a served model).
    pub cost_per_million_tokens: Option<f64>,
    /// Server purchase offers: the lowest hardware price per reference GPU.
    pub best_capex_per_ref_gpu: Option<f64>,
    /// The purchase offer with that price.
    pub best_purchase_offer: Option<BestOffer>,
    /// Fewest of these accelerators that hold the filter's served model.
    pub min_accelerators_for_model: Option<u32>,
}

/// Who sells an accelerator's best offer, and how it is billed.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct BestOffer {
    /// The offer's id.
    pub id: String,
    /// The provider's name in English.
    pub provider_name: Option<String>,
    /// How it is billed.
    pub billing_mode: BillingMode,
    /// Region code (`us-east-1`) or the source's word; `null` when not stated.
    pub region: Option<String>,
    /// What kind of figure its price is: an official list price (A), a
    /// market quote (C) …
    pub quote: QuoteKind,
    /// Its confidence tag.
    pub confidence: Confidence,
    /// Its source ids (`;`-separated).
    pub source: String,
    /// The date its source gives for the price; `null` when undated.
    pub as_of: Option<String>,
}

impl BestOffer {
    fn of(o: &OfferView) -> BestOffer {
        BestOffer {
            id: o.offer.id.clone(),
            provider_name: o.provider_name.clone(),
            billing_mode: o.offer.billing_mode,
            region: o.offer.region.clone(),
            quote: o.quote,
            confidence: o.offer.confidence,
            source: o.offer.source.clone(),
            as_of: o.offer.as_of.clone(),
        }
    }
}

impl Catalog {
    /// Every accelerator of the catalogue for the workload class `class`,
    /// ranked by its best offer's effective price per reference-GPU-hour (or
    /// cost per million tokens when the filter states a served model); those
    /// without a priced rental offer follow, by hardware price per reference
    /// GPU, then by ratio. The filter's other fields select the offers; prices
    /// are compared in the filter's currency (an offer in another currency
    /// without a rate in `fx` has no price here).
    pub fn accelerators_for_workload(
        &self,
        filter: &OfferFilter,
        class: WorkloadClass,
    ) -> Result<Vec<AcceleratorForWorkload>, Error> {
        let book = self.ratio_book(REFERENCE_ACCELERATOR)?;
        let offers = self.offers(filter)?;
        let accelerators = self.accelerators(&AcceleratorFilter {
            domestic: filter.domestic,
            vendor: filter.vendor.clone(),
            obtainable_in: filter.obtainable_in,
            ..AcceleratorFilter::default()
        })?;
        let by_tokens = filter.inference.is_some();
        let mut out: Vec<AcceleratorForWorkload> = accelerators
            .into_iter()
            .filter(|a| filter.accelerator.as_ref().is_none_or(|id| id == &a.id))
            .map(|a| {
                let mine = || offers.iter().filter(|o| o.offer.accelerator_id.as_deref() == Some(a.id.as_str()));
                let rentals = || mine().filter(|o| o.offer.billing_mode != BillingMode::Purchase);
                let key = |o: &&OfferView| if by_tokens { o.cost_per_million_tokens } else { o.price_per_ref_gpu_hour };
                // A served model is priced only on instances that hold it.
                let holds = |o: &&OfferView| o.instance_holds_model != Some(false);
                let best = rentals().filter(|o| key(o).is_some() && holds(o)).min_by(|x, y| {
                    key(x)
                        .unwrap_or(f64::INFINITY)
                        .total_cmp(&key(y).unwrap_or(f64::INFINITY))
                        .then_with(|| x.offer.id.cmp(&y.offer.id))
                });
                let (ratio, no_ratio) = match book.get(&a.id, class) {
                    Ok(r) => (Some(r.clone()), None),
                    Err(why) => (None, Some(why)),
                };
                let purchase = mine().filter(|o| o.effective_capex_per_ref_gpu.is_some()).min_by(|x, y| {
                    x.effective_capex_per_ref_gpu
                        .unwrap_or(f64::INFINITY)
                        .total_cmp(&y.effective_capex_per_ref_gpu.unwrap_or(f64::INFINITY))
                });
                AcceleratorForWorkload {
                    rental_offers: rentals().count() as u32,
                    rentals_holding_model: by_tokens.then(|| rentals().filter(holds).count() as u32),
                    best_offer: best.map(BestOffer::of),
                    price_per_ref_gpu_hour: best.and_then(|o| o.price_per_ref_gpu_hour),
                    effective_price_range_per_ref_gpu_hour: best.and_then(|o| {
                        let (s, r) = (o.spread.as_ref()?, o.efficiency.as_ref()?);
                        Some([s.low / r.ratio, s.high / r.ratio])
                    }),
                    cost_per_million_tokens: best.and_then(|o| o.cost_per_million_tokens),
                    best_capex_per_ref_gpu: purchase.and_then(|o| o.effective_capex_per_ref_gpu),
                    best_purchase_offer: purchase.map(BestOffer::of),
                    min_accelerators_for_model: filter
                        .inference
                        .as_ref()
                        .zip(a.memory_gb)
                        .and_then(|(m, gb)| m.min_accelerators(gb)),
                    accelerator_id: a.id,
                    name: a.name,
                    name_zh: a.name_zh,
                    vendor: a.vendor,
                    domestic: a.domestic,
                    ratio,
                    no_ratio,
                }
            })
            .collect();
        let rank = |a: &AcceleratorForWorkload| {
            let price = if by_tokens { a.cost_per_million_tokens } else { a.price_per_ref_gpu_hour };
            (
                price.is_none(),
                price.unwrap_or(0.0),
                a.best_capex_per_ref_gpu.is_none(),
                a.best_capex_per_ref_gpu.unwrap_or(0.0),
            )
        };
        out.sort_by(|x, y| {
            let (a, b) = (rank(x), rank(y));
            a.0.cmp(&b.0)
                .then(a.1.total_cmp(&b.1))
                .then(a.2.cmp(&b.2))
                .then(a.3.total_cmp(&b.3))
                .then_with(|| {
                    let r = |v: &AcceleratorForWorkload| v.ratio.as_ref().map_or(0.0, |r| r.ratio);
                    r(y).total_cmp(&r(x))
                })
                .then_with(|| x.accelerator_id.cmp(&y.accelerator_id))
        });
        Ok(out)
    }
}

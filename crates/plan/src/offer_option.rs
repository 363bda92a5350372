//! A catalogue offer as a scenario option: what a filter option expands
//! into, and the Monte Carlo range a ranged offer's price gives. Pure: the
//! api's resolution reads the offers and fills the prices.

use suanli_catalog::BillingMode;
use suanli_catalog::query::{OfferView, PriceSpread, SpreadBasis};
use suanli_model::{Distribution, OnDemandPool, OptionKind, OptionSpec, ReservedPool, SpotPool, Uncertain};

/// The rental option for one offer a filter option matched.
pub fn offer_option(o: &OptionSpec, v: &OfferView) -> OptionSpec {
    let mut option = o.clone();
    option.offer_filter = None;
    option.kind = OptionKind::Rent;
    option.id = format!("{}/{}", o.id, v.offer.id);
    let offer_name = format!(
        "{} {} {}",
        v.provider_name.as_deref().unwrap_or(&v.offer.provider_id),
        v.offer.instance.as_deref().unwrap_or(""),
        v.offer.region.as_deref().unwrap_or("")
    );
    option.label = expanded_label(if o.label.is_empty() { &o.id } else { &o.label }, offer_name.trim_end());
    let offer = Some(v.offer.id.clone());
    let (billing, pool) = match v.offer.billing_mode {
        BillingMode::OnDemand => (suanli_model::Billing::OnDemand, "on_demand"),
        BillingMode::Spot => (suanli_model::Billing::Spot, "spot"),
        _ => (suanli_model::Billing::Reserved, "reserved"),
    };
    option.billing = Some(billing);
    option.on_demand = None;
    option.spot = None;
    option.reserved = None;
    match pool {
        "on_demand" => {
            option.on_demand =
                Some(OnDemandPool { price_per_accel_hour: None, currency: None, efficiency_ratio: None, offer })
        }
        "spot" => {
            option.spot = Some(SpotPool {
                price_per_accel_hour: None,
                interruption_overhead: 0.0,
                availability: 1.0,
                currency: None,
                efficiency_ratio: None,
                offer,
            })
        }
        _ => {
            option.reserved = Some(ReservedPool {
                term_months: v.offer.billing_mode.term_months().unwrap_or(12),
                price_per_accel_hour: None,
                upfront_share: 0.0,
                accelerators: None,
                currency: None,
                efficiency_ratio: None,
                offer,
            })
        }
    }
    option
}

/// The Monte Carlo range of a price taken from an offer whose price is a
/// range in the catalogue: the source's own range is drawn uniformly (it
/// gives no most likely value), a spread of market quotes triangularly
/// around their median.
pub fn spread_range(path: String, offer_id: &str, spread: &PriceSpread) -> Option<Uncertain> {
    let (low, typical, high) = (spread.low, spread.typical, spread.high);
    if !(low.is_finite() && high.is_finite() && high > low && (low..=high).contains(&typical)) {
        return None;
    }
    let range = match spread.basis {
        SpreadBasis::QuotedRange => Distribution::Uniform { low, high },
        SpreadBasis::MarketQuotes => Distribution::Triangular { low, mode: typical, high },
    };
    Some(Uncertain { path, range, source: spread_source(offer_id, spread) })
}

/// Where a catalogue spread comes from, in words.
fn spread_source(offer_id: &str, spread: &PriceSpread) -> String {
    let cur = spread.currency;
    match spread.basis {
        SpreadBasis::QuotedRange => format!(
            "catalogue spread: offer {offer_id} is quoted as a range, {:.4}–{:.4} {cur} per accelerator-hour [{}]",
            spread.low, spread.high, spread.sources
        ),
        SpreadBasis::MarketQuotes => format!(
            "catalogue spread: {} market quotes (confidence C) for the same accelerator, billing and size as offer \
             {offer_id}, {:.4} (low: {}) – {:.4} (median) – {:.4} (high: {}) {cur} per accelerator-hour [{}]",
            spread.offers.len(),
            spread.low,
            spread.low_offers.join(", "),
            spread.typical,
            spread.high,
            spread.high_offers.join(", "),
            spread.sources
        ),
    }
}

/// The label of one offer a filter matched: the filter option's label and
/// the offer's name, in each language when the label has both ("English /
/// 中文"), so a report in one language stays in it.
fn expanded_label(base: &str, offer: &str) -> String {
    use suanli_model::{Lang, lang::for_lang};
    let (en, zh) = (for_lang(base, Lang::En), for_lang(base, Lang::Zh));
    if en == zh { format!("{base} — {offer}") } else { format!("{en} — {offer} / {zh} — {offer}") }
}

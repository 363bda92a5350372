//! Where an option's figures come from, as the source texts a scenario
//! keeps beside them.

use suanli_catalog::query::{OfferOrigin, OfferView};
use suanli_catalog::ratios::RatioUsed;

/// An offer's price as a source text: origin, price, unit, sources, date,
/// confidence and any discount.
pub fn provenance(v: &OfferView) -> String {
    let o = &v.offer;
    let origin = match v.origin {
        OfferOrigin::Pricebook => "your price book",
        OfferOrigin::Import => "imported feed",
        OfferOrigin::Catalogue => "catalogue",
    };
    let discount = v
        .discount_share
        .map_or(String::new(), |d| format!(", less your {} discount", suanli_model::format_percent(d, 1)));
    format!(
        "{origin} offer {}: {} {} per {} ({}, as of {}, confidence {}){discount}",
        o.id,
        o.price,
        o.currency,
        o.price_unit.key().replace('_', " "),
        o.source,
        o.as_of.as_deref().unwrap_or("undated"),
        o.confidence
    )
}

/// Where a catalogue ratio comes from, as an option's source text: its
/// basis first (measured, derived, estimated …), then how it was made.
pub fn ratio_source(r: &RatioUsed) -> String {
    let sources = if r.source.is_empty() { String::new() } else { format!(" [{}]", r.source) };
    format!(
        "catalogue ratio ({}) for {}: {}{sources}",
        r.basis.label(suanli_model::Lang::En),
        r.workload_class,
        r.method_en
    )
}

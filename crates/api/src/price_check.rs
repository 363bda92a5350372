//! Stated prices against the bundled catalogue's prices for the same
//! accelerator and billing (the rule is `suanli_model::price_check`).

use suanli_catalog::{BillingMode, Offer};
use suanli_model::price_check::{CatalogueRange, PriceFlag, check};
use suanli_model::{Currency, Scenario, fx_rate};

type Market = (Vec<Offer>, Vec<suanli_catalog::ReferenceRate>);

/// Every stated rental price far from the catalogue's range for its
/// accelerator and billing. Read from the bundled catalogue (the user's
/// imports and price book are not the market), in the scenario's currency
/// at its rates, else the catalogue's reference rates.
pub fn price_flags(s: &Scenario) -> Vec<PriceFlag> {
    // The bundled offers are read once: the editor asks on every change.
    static MARKET: std::sync::OnceLock<Option<Market>> = std::sync::OnceLock::new();
    let Some((offers, rates)) = MARKET.get_or_init(|| suanli_catalog::offers_and_rates().ok()) else {
        return Vec::new();
    };
    let mut with_rates = s.clone();
    suanli_plan::fill_rates(&mut with_rates, rates);
    let into = |amount: f64, c: Currency| fx_rate(&with_rates.fx, c, s.currency).map(|rate| amount * rate);
    let range = |accelerator: &str, mode: BillingMode| -> Option<CatalogueRange> {
        let prices: Vec<(f64, f64)> = offers
            .iter()
            .filter(|o| o.billing_mode == mode && o.accelerator_id.as_deref() == Some(accelerator))
            .filter_map(|o: &Offer| {
                let low = into(o.price_per_accel_hour()?, o.currency)?;
                let high = o.price_high_per_accel_hour().and_then(|h| into(h, o.currency)).unwrap_or(low);
                Some((low, high))
            })
            .collect();
        let low = prices.iter().map(|p| p.0).fold(f64::INFINITY, f64::min);
        let high = prices.iter().map(|p| p.1).fold(f64::NEG_INFINITY, f64::max);
        (!prices.is_empty()).then_some(CatalogueRange { low, high, offers: prices.len() as u32 })
    };
    let mut out = Vec::new();
    for o in &s.options {
        let Some(accelerator) = o.accelerator.as_deref() else { continue };
        let reserved_mode = o.reserved.as_ref().and_then(|r| BillingMode::reserved_for_term(r.term_months));
        let pools = [
            (
                "on_demand",
                o.on_demand.as_ref().and_then(|p| p.price_per_accel_hour.map(|x| (x, p.currency))),
                Some(BillingMode::OnDemand),
            ),
            (
                "spot",
                o.spot.as_ref().and_then(|p| p.price_per_accel_hour.map(|x| (x, p.currency))),
                Some(BillingMode::Spot),
            ),
            (
                "reserved",
                o.reserved.as_ref().and_then(|p| p.price_per_accel_hour.map(|x| (x, p.currency))),
                reserved_mode,
            ),
        ];
        for (pool, price, mode) in pools {
            let (Some((price, currency)), Some(mode)) = (price, mode) else { continue };
            let Some(price) = into(price, currency.unwrap_or(s.currency)) else { continue };
            if let Some(r) = range(accelerator, mode)
                && let Some(flag) = check(&o.id, &format!("{pool}.price_per_accel_hour"), price, r, s.currency)
            {
                out.push(flag);
            }
        }
    }
    out
}

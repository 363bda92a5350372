//! What the search reads from the catalogue, as plain rows (so it needs no
//! database), and the offers it may use, cut to the cheapest per group.

use std::collections::BTreeMap;

use serde::Serialize;
use suanli_catalog::query::OfferView;
use suanli_catalog::ratios::RatioUsed;
use suanli_catalog::{Accelerator, BillingMode, Node, PriceUnit, Provider, ScalingPoint};
use suanli_model::{Currency, Scenario, fx_rate};

/// Offers kept per accelerator, billing mode and provider: the cheapest
/// per accelerator-hour (per server for a purchase). Constraints are facts
/// of a whole group (its accelerator, mode and provider), so they commute
/// with this cut.
pub const OFFERS_PER_GROUP: usize = 2;

/// Accelerators a purchase must hold to be a server the search can run:
/// fewer is a card or chip, more an order of many.
const SERVER: std::ops::RangeInclusive<u32> = 2..=16;

/// The catalogue as the search reads it.
#[derive(Debug, Clone, Default)]
pub struct Market {
    /// Every offer (catalogue, imports and price book), priced in the
    /// scenario's currency at its rates and with its ratio for the
    /// scenario's workload class: the catalogue's offers view.
    pub offers: Vec<OfferView>,
    /// Every accelerator.
    pub accelerators: Vec<Accelerator>,
    /// Every provider.
    pub providers: Vec<Provider>,
    /// Node and fabric facts, by provider and instance.
    pub nodes: Vec<Node>,
    /// Measured scaling points (the cluster model's calibration).
    pub scaling: Vec<ScalingPoint>,
}

/// The provider facts the constraints read.
#[derive(Debug, Clone)]
pub(crate) struct ProviderFacts {
    pub id: String,
    pub name_zh: Option<String>,
    pub country: Option<String>,
    /// `bare_metal`, `dedicated_gpu`, `encryption_in_transit` where the catalogue says so.
    pub security: Vec<String>,
    provider: Option<Provider>,
}

impl ProviderFacts {
    fn of(p: Option<&Provider>, id: &str) -> ProviderFacts {
        ProviderFacts {
            id: id.to_owned(),
            name_zh: p.and_then(|p| p.name_zh.clone()),
            country: p.and_then(|p| p.country.clone()),
            security: p.map_or(Vec::new(), Provider::security_flags),
            provider: p.cloned(),
        }
    }

    pub fn meets(&self, need: &str) -> bool {
        self.provider.as_ref().is_some_and(|p| p.meets(need))
    }
}

/// An offer the search may use, with the rows behind it.
#[derive(Debug, Clone)]
pub(crate) struct Offered {
    pub view: OfferView,
    pub accelerator: Accelerator,
    pub ratio: RatioUsed,
    pub provider: ProviderFacts,
    pub node: Option<Node>,
    /// Price of one accelerator-hour (rental) or one server (purchase), in the scenario currency.
    pub comparable: f64,
}

impl Offered {
    pub fn cuda(&self) -> bool {
        let a = &self.accelerator;
        a.software_stack.as_deref().is_some_and(|s| s.to_uppercase().contains("CUDA"))
            || a.vendor.eq_ignore_ascii_case("nvidia")
    }

    pub fn is_rental(&self) -> bool {
        self.view.offer.billing_mode != BillingMode::Purchase
    }

    pub fn mode(&self) -> BillingMode {
        self.view.offer.billing_mode
    }

    pub fn id(&self) -> &str {
        &self.view.offer.id
    }
}

/// How the catalogue's offers fed the search.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct SearchStats {
    /// Every offer of the catalogue, price book and imports included.
    pub offers: u32,
    /// Offers whose accelerator has no ratio for the workload class.
    pub without_ratio: u32,
    /// Offers without a price in the scenario currency (no rate for their
    /// currency, no accelerators per instance).
    pub without_price: u32,
    /// Dearer than the cheapest of their accelerator, billing mode and provider.
    pub not_searched: u32,
    /// Purchase offers left out: the scenario has no buy option whose
    /// running costs stand for the on-premises site.
    pub purchases_without_site: u32,
    /// Purchase offers that are not a server: a card, or an order of
    /// hundreds of chips (their host, network and integration are not in the price).
    pub purchases_not_servers: u32,
    /// Offers that cannot be the cluster the demand needs (listed apart with the reason).
    pub not_feasible: u32,
    /// Candidates priced through the engine.
    pub candidates: u32,
}

/// Every offer the search may use, cut to the cheapest per group.
pub(crate) fn offered(m: &Market, s: &Scenario, stats: &mut SearchStats) -> Vec<Offered> {
    let accelerators: BTreeMap<&str, &Accelerator> = m.accelerators.iter().map(|a| (a.id.as_str(), a)).collect();
    let providers: BTreeMap<&str, &Provider> = m.providers.iter().map(|p| (p.id.as_str(), p)).collect();
    let nodes: BTreeMap<(&str, &str), &Node> =
        m.nodes.iter().map(|n| ((n.provider_id.as_str(), n.instance.as_str()), n)).collect();
    stats.offers = m.offers.len() as u32;
    let mut groups: BTreeMap<(String, BillingMode, String), Vec<Offered>> = BTreeMap::new();
    for view in &m.offers {
        let accelerator = view.offer.accelerator_id.as_deref().and_then(|id| accelerators.get(id));
        let (Some(accelerator), Some(ratio)) = (accelerator, view.efficiency.as_deref()) else {
            stats.without_ratio += 1;
            continue;
        };
        if view.offer.billing_mode == BillingMode::Purchase && !per_server(view).is_some_and(|n| SERVER.contains(&n)) {
            stats.purchases_not_servers += 1;
            continue;
        }
        let comparable = match view.offer.price_unit {
            PriceUnit::Server => server_price(view, s).filter(|_| per_server(view).is_some()),
            _ => view.comparable_price_per_accel_hour,
        };
        let Some(comparable) = comparable.filter(|p| p.is_finite() && *p > 0.0) else {
            stats.without_price += 1;
            continue;
        };
        let o = &view.offer;
        let node = o.instance.as_deref().and_then(|i| nodes.get(&(o.provider_id.as_str(), i))).map(|n| (*n).clone());
        let offered = Offered {
            accelerator: (*accelerator).clone(),
            ratio: ratio.clone(),
            provider: ProviderFacts::of(providers.get(o.provider_id.as_str()).copied(), &o.provider_id),
            node,
            comparable,
            view: view.clone(),
        };
        let key = (offered.accelerator.id.clone(), o.billing_mode, o.provider_id.clone());
        groups.entry(key).or_default().push(offered);
    }
    let mut out = Vec::new();
    for (_, mut group) in groups {
        group.sort_by(|a, b| a.comparable.total_cmp(&b.comparable).then_with(|| a.id().cmp(b.id())));
        stats.not_searched += group.len().saturating_sub(OFFERS_PER_GROUP) as u32;
        out.extend(group.into_iter().take(OFFERS_PER_GROUP));
    }
    out
}

/// A purchase offer's server price after any discount, in the scenario currency.
pub(crate) fn server_price(v: &OfferView, s: &Scenario) -> Option<f64> {
    let price = v.offer.price * suanli_catalog::pricebook::share_paid(v.discount_share);
    rate(s, v.offer.currency).map(|r| price * r)
}

/// Scenario-currency units per unit of `c`.
pub(crate) fn rate(s: &Scenario, c: Currency) -> Option<f64> {
    fx_rate(&s.fx, c, s.currency)
}

pub(crate) fn per_server(v: &OfferView) -> Option<u32> {
    v.offer.accelerators_per_instance.filter(|n| *n >= 1.0).map(|n| n.round() as u32)
}

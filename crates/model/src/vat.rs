//! Value-added tax on each option's cash flows: which rate each cost
//! category bears, what the prices are stated as (with or without VAT),
//! and what the buyer bears (the net cost when input VAT is recovered,
//! the gross cost when it is not). Buy and rent are then compared on one
//! basis, since goods (13 % in China) and services (6 %) differ.

use serde::{Deserialize, Serialize};

use crate::result::{Category, OptionResult};

/// The VAT basis of a scenario's prices (`[vat]`).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Vat {
    /// Rate on goods: servers, their installation and maintenance,
    /// electricity, and equipment sold at the horizon (default 0.13).
    #[serde(default = "goods_rate")]
    pub goods_rate: f64,
    /// Rate on services: cloud rental, storage, bandwidth, hosting and other
    /// running services (default 0.06).
    #[serde(default = "services_rate")]
    pub services_rate: f64,
    /// Whether the scenario's prices include VAT (default false: they are net of it).
    #[serde(default)]
    pub prices_include_vat: bool,
    /// Whether the buyer recovers input VAT (a general taxpayer; default true).
    #[serde(default = "yes")]
    pub recoverable: bool,
}

/// China's standard rate on goods: VAT Law of the PRC (2024), Art. 10(1).
pub const CN_GOODS_RATE: f64 = 0.13;
/// China's rate on other services: VAT Law of the PRC (2024), Art. 10(3).
pub const CN_SERVICES_RATE: f64 = 0.06;
/// Where the default rates come from.
pub const CN_RATES_SOURCE: &str = "VAT Law of the People's Republic of China (adopted 25 Dec 2024, in force 1 Jan 2026), Art. 10: 13 % on goods, 6 % on services not listed at 9 % or 13 %";

fn goods_rate() -> f64 {
    CN_GOODS_RATE
}
fn services_rate() -> f64 {
    CN_SERVICES_RATE
}
fn yes() -> bool {
    true
}

impl Default for Vat {
    fn default() -> Self {
        Vat { goods_rate: CN_GOODS_RATE, services_rate: CN_SERVICES_RATE, prices_include_vat: false, recoverable: true }
    }
}

/// What VAT class a cost category's price is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VatClass {
    /// Goods (equipment, electricity).
    Goods,
    /// Services (rental, storage, bandwidth, hosting).
    Services,
    /// No VAT: the buyer's own staff and engineers.
    None,
}

/// The class of each category. Installation is taken as bundled with the
/// equipment; staff and porting engineers as the buyer's own employees.
pub fn class(c: Category) -> VatClass {
    match c {
        Category::Hardware
        | Category::Installation
        | Category::Power
        | Category::Maintenance
        | Category::ResidualValue => VatClass::Goods,
        Category::Hosting
        | Category::OtherOpex
        | Category::OnDemand
        | Category::Reserved
        | Category::Spot
        | Category::Storage
        | Category::EdgeBandwidth
        | Category::EdgeSites
        | Category::Bridge => VatClass::Services,
        Category::Staff | Category::Porting | Category::PortingMaintenance => VatClass::None,
    }
}

impl Vat {
    /// The rate of a class.
    pub fn rate(&self, class: VatClass) -> f64 {
        match class {
            VatClass::Goods => self.goods_rate,
            VatClass::Services => self.services_rate,
            VatClass::None => 0.0,
        }
    }

    /// An amount as the scenario states it, split into net and VAT.
    pub fn split(&self, amount: f64, class: VatClass) -> (f64, f64) {
        let r = self.rate(class);
        if self.prices_include_vat {
            let net = amount / (1.0 + r);
            (net, amount - net)
        } else {
            (amount, amount * r)
        }
    }
}

/// One option's nominal total split into net and VAT, by class.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct VatSplit {
    /// Net of VAT.
    pub net: f64,
    /// VAT on goods.
    pub vat_goods: f64,
    /// VAT on services.
    pub vat_services: f64,
}

impl VatSplit {
    /// All the VAT.
    pub fn vat(&self) -> f64 {
        self.vat_goods + self.vat_services
    }

    /// Net plus VAT.
    pub fn gross(&self) -> f64 {
        self.net + self.vat()
    }

    /// What the buyer bears: the net when input VAT is recovered, else the gross.
    pub fn borne(&self, vat: &Vat) -> f64 {
        if vat.recoverable { self.net } else { self.gross() }
    }
}

/// A set of amounts by category (an option's totals, or one year's), split.
pub fn split_amounts(vat: &Vat, amounts: impl Iterator<Item = (Category, f64)>) -> VatSplit {
    let mut out = VatSplit::default();
    for (c, amount) in amounts {
        let class = class(c);
        let (net, tax) = vat.split(amount, class);
        out.net += net;
        match class {
            VatClass::Goods => out.vat_goods += tax,
            VatClass::Services => out.vat_services += tax,
            VatClass::None => {}
        }
    }
    out
}

/// An option's nominal total over the horizon, split.
pub fn split_option(vat: &Vat, o: &OptionResult) -> VatSplit {
    split_amounts(vat, Category::ALL.iter().map(|c| (*c, o.breakdown(*c))))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn goods_and_services_bear_their_own_rates_on_either_basis() {
        let net = Vat::default();
        // 1,000 of servers and 500 of cloud rental, stated net: 130 and 30 of VAT.
        let s = split_amounts(
            &net,
            [(Category::Hardware, 1000.0), (Category::OnDemand, 500.0), (Category::Staff, 100.0)].into_iter(),
        );
        assert!((s.vat_goods - 130.0).abs() < 1e-9 && (s.vat_services - 30.0).abs() < 1e-9);
        assert!((s.gross() - 1760.0).abs() < 1e-9);
        assert!((s.borne(&net) - 1600.0).abs() < 1e-9);
        // The same prices stated with VAT: 1,130 of servers hold 130 of it.
        let gross = Vat { prices_include_vat: true, recoverable: false, ..Vat::default() };
        let s = split_amounts(&gross, [(Category::Hardware, 1130.0), (Category::OnDemand, 530.0)].into_iter());
        assert!((s.net - 1500.0).abs() < 1e-9 && (s.vat() - 160.0).abs() < 1e-9);
        assert!((s.borne(&gross) - 1660.0).abs() < 1e-9);
    }
}

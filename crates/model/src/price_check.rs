//! Whether a price the scenario states is far from the catalogue's prices
//! for the same accelerator and billing: a price well outside that range
//! is flagged, with how far, wherever the scenario's figures are shown.

use crate::{Currency, Lang, format_unit_price};

/// A price outside the catalogue's range by more than this factor is
/// flagged (negotiated discounts of up to a fifth below list are common).
pub const FAR_FACTOR: f64 = 1.25;

/// The catalogue's prices per accelerator-hour for one accelerator and
/// billing, in the scenario's currency.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CatalogueRange {
    /// Lowest price.
    pub low: f64,
    /// Highest price (a quoted range's high end included).
    pub high: f64,
    /// Offers behind the range.
    pub offers: u32,
}

/// A stated price far from the catalogue's range.
#[derive(Debug, Clone, PartialEq)]
pub struct PriceFlag {
    /// The option's id.
    pub option_id: String,
    /// The option's field (`on_demand.price_per_accel_hour`).
    pub field: String,
    /// The stated price, in the scenario's currency.
    pub price: f64,
    /// The catalogue's range.
    pub range: CatalogueRange,
    /// The currency of the price and the range.
    pub currency: Currency,
}

impl PriceFlag {
    /// How many times below the range's low end (< 1) or above its high end (> 1).
    pub fn factor(&self) -> f64 {
        if self.price < self.range.low { self.price / self.range.low } else { self.price / self.range.high }
    }

    /// The catalogue's range as a reader writes it ("CNY 11.31–CNY 36.41", one figure when it is one).
    pub fn range_text(&self, lang: Lang) -> String {
        let p = |x: f64| format_unit_price(x, self.currency, lang);
        if self.range.high > self.range.low {
            format!("{}–{}", p(self.range.low), p(self.range.high))
        } else {
            p(self.range.low)
        }
    }

    /// The flag as a sentence in `lang` (without the option's name).
    pub fn describe(&self, lang: Lang) -> String {
        let p = |x: f64| format_unit_price(x, self.currency, lang);
        let n = self.range.offers;
        let range = self.range_text(lang);
        let f = self.factor();
        let times = crate::format_number(if f < 1.0 { 1.0 / f } else { f }, 1);
        match (f < 1.0, lang) {
            (true, Lang::En) => format!(
                "{} per accelerator-hour is {times}× below the catalogue's {range} for the same accelerator and billing ({n} {})",
                p(self.price),
                if n == 1 { "offer" } else { "offers" }
            ),
            (false, Lang::En) => format!(
                "{} per accelerator-hour is {times}× above the catalogue's {range} for the same accelerator and billing ({n} {})",
                p(self.price),
                if n == 1 { "offer" } else { "offers" }
            ),
            (true, Lang::Zh) => format!(
                "{}，仅为目录中同型号、同计费方式价格下限的 {}（{range}，{n} 个报价）",
                p(self.price),
                crate::format_percent(f, 0)
            ),
            (false, Lang::Zh) => {
                format!("{}，为目录中同型号、同计费方式价格上限的 {times} 倍（{range}，{n} 个报价）", p(self.price))
            }
        }
    }
}

/// The flag for a stated price, when it lies outside `range` by more than [`FAR_FACTOR`].
pub fn check(option_id: &str, field: &str, price: f64, range: CatalogueRange, currency: Currency) -> Option<PriceFlag> {
    let far = price < range.low / FAR_FACTOR || price > range.high * FAR_FACTOR;
    (far && price > 0.0 && range.offers > 0).then(|| PriceFlag {
        option_id: option_id.to_owned(),
        field: field.to_owned(),
        price,
        range,
        currency,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_price_ten_times_below_the_range_is_flagged_and_one_within_it_is_not() {
        let range = CatalogueRange { low: 8.5, high: 35.0, offers: 12 };
        let flag = check("rent", "on_demand.price_per_accel_hour", 0.85, range, Currency::CNY).expect("flagged");
        assert!((flag.factor() - 0.1).abs() < 1e-12);
        assert!(flag.describe(Lang::En).contains("10× below the catalogue's"), "{}", flag.describe(Lang::En));
        assert!(flag.describe(Lang::Zh).contains("价格下限的 10%"), "{}", flag.describe(Lang::Zh));
        assert!(check("rent", "x", 350.0, range, Currency::CNY).unwrap().describe(Lang::En).contains("10× above"));
        assert_eq!(check("rent", "x", 8.0, range, Currency::CNY), None, "a negotiated 6 % below list");
        assert_eq!(check("rent", "x", 20.0, range, Currency::CNY), None);
    }
}

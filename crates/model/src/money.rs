//! Currencies, the one rounding rule, and how amounts are written.
//!
//! The engine computes in `f64` (its arithmetic is simulation arithmetic);
//! what a user reads or what is stored is rounded by [`round_money`] here
//! and nowhere else.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::Lang;

/// The currencies the catalogue's sources quote in. A closed list, so a
/// typo is an error and not a silent new currency.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Currency {
    CNY,
    USD,
    EUR,
    GBP,
    JPY,
    HKD,
    SGD,
}

impl Currency {
    pub const ALL: [Currency; 7] =
        [Currency::CNY, Currency::USD, Currency::EUR, Currency::GBP, Currency::JPY, Currency::HKD, Currency::SGD];

    pub fn code(self) -> &'static str {
        match self {
            Currency::CNY => "CNY",
            Currency::USD => "USD",
            Currency::EUR => "EUR",
            Currency::GBP => "GBP",
            Currency::JPY => "JPY",
            Currency::HKD => "HKD",
            Currency::SGD => "SGD",
        }
    }

    /// Decimal places shown and stored (JPY has none).
    pub fn minor_digits(self) -> u32 {
        match self {
            Currency::JPY => 0,
            _ => 2,
        }
    }
}

impl fmt::Display for Currency {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

impl FromStr for Currency {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Currency::ALL.into_iter().find(|c| c.code().eq_ignore_ascii_case(s.trim())).ok_or_else(|| s.to_owned())
    }
}

/// The rounding rule: to the currency's minor unit, half away from zero.
/// Applied once, where a figure is reported or stored.
pub fn round_money(amount: f64, currency: Currency) -> f64 {
    let scale = 10f64.powi(currency.minor_digits() as i32);
    let rounded = (amount * scale).round() / scale;
    // Never report "-0.00".
    if rounded == 0.0 { 0.0 } else { rounded }
}

/// Prices per hour are quoted finer than amounts: four decimal places,
/// half away from zero (0.4706 CNY per reference-GPU-hour).
pub fn round_unit_price(price: f64) -> f64 {
    let rounded = (price * 1e4).round() / 1e4;
    if rounded == 0.0 { 0.0 } else { rounded }
}

/// Writes an amount for a reader: `CNY 1,234,567.89` in English; in
/// Chinese, amounts of 10,000 and more in 万 or 亿 (`123.46万元`,
/// `1.50亿元`, `12.00万美元`), smaller ones in full (`8,000.00元`).
pub fn format_amount(amount: f64, currency: Currency, lang: Lang) -> String {
    let amount = round_money(amount, currency);
    match lang {
        Lang::En => format!("{} {}", currency.code(), group_thousands(amount, currency.minor_digits())),
        Lang::Zh => {
            let unit = zh_currency_unit(currency);
            let abs = amount.abs();
            if abs >= 1e8 {
                format!("{}亿{unit}", group_thousands(amount / 1e8, 2))
            } else if abs >= 1e4 {
                format!("{}万{unit}", group_thousands(amount / 1e4, 2))
            } else {
                format!("{}{unit}", group_thousands(amount, currency.minor_digits()))
            }
        }
    }
}

fn zh_currency_unit(currency: Currency) -> &'static str {
    match currency {
        Currency::CNY => "元",
        Currency::USD => "美元",
        Currency::EUR => "欧元",
        Currency::GBP => "英镑",
        Currency::JPY => "日元",
        Currency::HKD => "港元",
        Currency::SGD => "新加坡元",
    }
}

/// `1234567.891` with 2 digits → `1,234,567.89`.
pub fn group_thousands(value: f64, digits: u32) -> String {
    let text = format!("{:.*}", digits as usize, value.abs());
    let (int_part, frac_part) = match text.split_once('.') {
        Some((i, f)) => (i, Some(f)),
        None => (text.as_str(), None),
    };
    let mut grouped = String::with_capacity(text.len() + text.len() / 3);
    for (i, ch) in int_part.chars().enumerate() {
        if i > 0 && (int_part.len() - i) % 3 == 0 {
            grouped.push(',');
        }
        grouped.push(ch);
    }
    if let Some(frac) = frac_part {
        grouped.push('.');
        grouped.push_str(frac);
    }
    let negative = value < 0.0 && text.chars().any(|c| c.is_ascii_digit() && c != '0');
    if negative { format!("-{grouped}") } else { grouped }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounds_half_away_from_zero_to_the_minor_unit() {
        assert_eq!(round_money(1.005_000_1, Currency::CNY), 1.01);
        assert_eq!(round_money(-2.5, Currency::JPY), -3.0);
        assert_eq!(round_money(-0.001, Currency::USD), 0.0);
    }

    #[test]
    fn writes_amounts_for_each_language() {
        assert_eq!(format_amount(1_234_567.891, Currency::CNY, Lang::En), "CNY 1,234,567.89");
        assert_eq!(format_amount(1_234_567.891, Currency::CNY, Lang::Zh), "123.46万元");
        assert_eq!(format_amount(150_000_000.0, Currency::CNY, Lang::Zh), "1.50亿元");
        assert_eq!(format_amount(8_000.0, Currency::CNY, Lang::Zh), "8,000.00元");
        assert_eq!(format_amount(120_000.0, Currency::USD, Lang::Zh), "12.00万美元");
        assert_eq!(format_amount(-1_500.0, Currency::USD, Lang::En), "USD -1,500.00");
        assert_eq!(format_amount(999.0, Currency::JPY, Lang::En), "JPY 999");
    }

    #[test]
    fn parses_currency_codes_case_insensitively() {
        assert_eq!("usd".parse::<Currency>(), Ok(Currency::USD));
        assert!("XYZ".parse::<Currency>().is_err());
    }
}

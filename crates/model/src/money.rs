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
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub enum Currency {
    /// Chinese yuan renminbi.
    CNY,
    /// US dollar.
    USD,
    /// Euro.
    EUR,
    /// Pound sterling.
    GBP,
    /// Japanese yen (no minor unit).
    JPY,
    /// Hong Kong dollar.
    HKD,
    /// Singapore dollar.
    SGD,
}

impl Currency {
    /// Every currency, in declaration order.
    pub const ALL: [Currency; 7] =
        [Currency::CNY, Currency::USD, Currency::EUR, Currency::GBP, Currency::JPY, Currency::HKD, Currency::SGD];

    /// The ISO 4217 code (`CNY`).
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

/// Units of `to` per unit of `from`: 1 for the same currency, else the rate
/// `fx` gives `from` (a table of units of `to` per unit of each other
/// currency, as a scenario's `[fx]`); `None` when it has none. Every
/// conversion of a price into another currency goes through this.
pub fn fx_rate(fx: &std::collections::BTreeMap<Currency, f64>, from: Currency, to: Currency) -> Option<f64> {
    if from == to { Some(1.0) } else { fx.get(&from).copied() }
}

/// The rounding rules, one per kind of reported figure, all half away
/// from zero and never `-0`. Applied once, where a figure is reported or
/// stored; the engine itself never rounds.
///
/// Amounts: to the currency's minor unit.
pub fn round_money(amount: f64, currency: Currency) -> f64 {
    round_half_away(amount, currency.minor_digits() as i32)
}

/// Prices per hour are quoted finer than amounts: four decimal places
/// (0.4706 CNY per reference-GPU-hour).
pub fn round_unit_price(price: f64) -> f64 {
    round_half_away(price, 4)
}

/// Hours, months and engineer-months: two decimal places.
pub fn round_quantity(x: f64) -> f64 {
    round_half_away(x, 2)
}

/// Shares and probabilities (0.6084 = 60.84 %): four decimal places.
pub fn round_share(x: f64) -> f64 {
    round_half_away(x, 4)
}

/// Scores out of 100: one decimal place.
pub fn round_score(x: f64) -> f64 {
    round_half_away(x, 1)
}

fn round_half_away(x: f64, digits: i32) -> f64 {
    let scale = 10f64.powi(digits);
    let rounded = (x * scale).round() / scale;
    if rounded == 0.0 { 0.0 } else { rounded }
}

/// Writes an amount for a reader. English: the ISO code and the digits,
/// `CNY 1,234,568` (amounts of 1,000 and more to the unit, smaller ones to
/// the minor unit unless whole: `USD 8.56`, `USD 120`). Chinese: amounts of
/// 10,000 and more in 万 or 亿 with two decimals (`123.46万元`, `1.50亿元`,
/// `12.00万美元`; 99,999,999 is `1.00亿元`, never `10,000.00万元`), smaller
/// ones as in English with the unit after (`8,000元`). The shared table
/// `data/format-cases.json` holds the cases the UI's formatter meets too.
pub fn format_amount(amount: f64, currency: Currency, lang: Lang) -> String {
    if !amount.is_finite() {
        return "—".to_owned();
    }
    let amount = round_money(amount, currency);
    let sign = if amount < 0.0 { "-" } else { "" };
    let abs = amount.abs();
    match lang {
        Lang::En => format!("{} {sign}{}", currency.code(), plain_digits(abs, currency)),
        Lang::Zh => format!("{sign}{}{}", zh_digits(abs, currency), zh_currency_unit(currency)),
    }
}

/// Digits of an amount under the "whole from 1,000, else the minor unit
/// unless whole" rule.
fn plain_digits(abs: f64, currency: Currency) -> String {
    let whole = (abs * 100.0).round() % 100.0 == 0.0;
    if abs >= 1_000.0 || whole {
        group_thousands(abs.round(), 0)
    } else {
        group_thousands(abs, currency.minor_digits())
    }
}

/// Chinese digits in 万/亿 from 10,000 (two decimals), the boundary
/// rounding up into the next unit.
fn zh_digits(abs: f64, currency: Currency) -> String {
    let yi = round_half_away(abs / 1e8, 2);
    let wan = round_half_away(abs / 1e4, 2);
    if abs >= 1e8 || wan >= 1e4 {
        format!("{}亿", group_thousands(yi, 2))
    } else if abs >= 1e4 {
        format!("{}万", group_thousands(wan, 2))
    } else {
        plain_digits(abs, currency)
    }
}

/// A price per accelerator- or reference-GPU-hour: two decimals, up to
/// four below 1 (`CNY 0.80`, `USD 2.05`, `CNY 0.4706`; Chinese `0.80元`).
pub fn format_unit_price(price: f64, currency: Currency, lang: Lang) -> String {
    if !price.is_finite() {
        return "—".to_owned();
    }
    let p = round_unit_price(price);
    let sign = if p < 0.0 { "-" } else { "" };
    let digits = unit_price_digits(p.abs());
    match lang {
        Lang::En => format!("{} {sign}{digits}", currency.code()),
        Lang::Zh => format!("{sign}{digits}{}", zh_currency_unit(currency)),
    }
}

/// The digits of a unit price: thousands grouped, two decimals, up to four
/// below 1 (trailing zeros past the second dropped): 2.0475 → `2.05`,
/// 0.47063 → `0.4706`, 0.8 → `0.80`.
pub fn unit_price_digits(price: f64) -> String {
    if !price.is_finite() {
        return "—".to_owned();
    }
    let decimals = if price.abs() >= 1.0 { 2 } else { 4 };
    trim_decimals(&group_thousands(round_half_away(price, decimals as i32), decimals), 2)
}

/// A share as a percentage, the same in both languages: 0.43 → `43%`,
/// with `decimals` after the point.
pub fn format_percent(share: f64, decimals: usize) -> String {
    if !share.is_finite() {
        return "—".to_owned();
    }
    let rounded = round_half_away(share * 100.0, decimals as i32);
    format!("{rounded:.decimals$}%")
}

/// A plain figure with thousands separators and at most `max_decimals`
/// (trailing zeros dropped): 1500000 → `1,500,000`, 0.08 → `0.08`.
pub fn format_number(x: f64, max_decimals: u32) -> String {
    if !x.is_finite() {
        return "—".to_owned();
    }
    trim_decimals(&group_thousands(x, max_decimals), 0)
}

/// A short chart-axis label: Chinese 万/亿, English k/M/B, at most two
/// decimals with trailing zeros dropped (1.25M, 3.75M, 350万, 1.2亿).
pub fn format_axis(x: f64, lang: Lang) -> String {
    if !x.is_finite() {
        return "—".to_owned();
    }
    let (scaled, unit) = match lang {
        Lang::Zh if x.abs() >= 1e8 => (x / 1e8, "亿"),
        Lang::Zh if x.abs() >= 1e4 => (x / 1e4, "万"),
        Lang::En if x.abs() >= 1e9 => (x / 1e9, "B"),
        Lang::En if x.abs() >= 1e6 => (x / 1e6, "M"),
        Lang::En if x.abs() >= 1e3 => (x / 1e3, "k"),
        _ => (x, ""),
    };
    format!("{}{unit}", format_number(scaled, 2))
}

/// `1,234.5000` with `keep` → drops trailing zeros after the first `keep` decimals.
fn trim_decimals(text: &str, keep: usize) -> String {
    let Some(dot) = text.find('.') else { return text.to_owned() };
    let mut end = text.len();
    while end > dot + 1 + keep && text.as_bytes()[end - 1] == b'0' {
        end -= 1;
    }
    if end == dot + 1 { text[..dot].to_owned() } else { text[..end].to_owned() }
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
    fn parses_currency_codes_case_insensitively() {
        assert_eq!("usd".parse::<Currency>(), Ok(Currency::USD));
        assert!("XYZ".parse::<Currency>().is_err());
    }
}

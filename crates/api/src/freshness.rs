//! How old a price is: as-of dates parsed and aged as dates (chrono).
//!
//! A partial date stays what it is — a year (`2026`) or a month
//! (`2025-03`) — and is aged from the earliest day it may mean, so a price
//! dated only "2025" is stale as soon as 1 January 2025 is older than the
//! threshold: a purchasing team should never trust a date more than it was
//! given. An offer without a date is "date unknown", never today.

use chrono::{Datelike, NaiveDate};
use serde::Serialize;
use suanli_model::Lang;

use crate::Error;
use suanli_catalog::Catalog;

/// The settings key of the stale threshold, in months.
pub const STALE_AFTER_KEY: &str = "stale_after_months";
/// The default stale threshold: six months.
pub const DEFAULT_STALE_AFTER_MONTHS: u32 = 6;
/// The stale thresholds a user may set: one month to ten years.
pub const STALE_AFTER_RANGE: std::ops::RangeInclusive<u32> = 1..=120;

/// An as-of date as precise as its source gave it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AsOf {
    /// A whole date (`2026-11-30`).
    Day {
        /// The day.
        date: NaiveDate,
    },
    /// A month only (`2025-03`).
    Month {
        /// The year, four digits.
        year: i32,
        /// The month, 1 to 12.
        month: u32,
    },
    /// A year only (`2026`).
    Year {
        /// The year, four digits.
        year: i32,
    },
}

impl AsOf {
    /// `2026-11-30`, `2025-03` or `2026`; anything else is not a date.
    pub fn parse(text: &str) -> Option<AsOf> {
        let t = text.trim();
        let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
        let parts: Vec<&str> = t.split('-').collect();
        match parts.as_slice() {
            [y] if y.len() == 4 && digits(y) => Some(AsOf::Year { year: y.parse().ok()? }),
            [y, m] if y.len() == 4 && m.len() == 2 && digits(y) && digits(m) => {
                let (year, month) = (y.parse().ok()?, m.parse().ok()?);
                NaiveDate::from_ymd_opt(year, month, 1).map(|_| AsOf::Month { year, month })
            }
            [_, _, _] => NaiveDate::parse_from_str(t, "%Y-%m-%d").ok().map(|date| AsOf::Day { date }),
            _ => None,
        }
    }

    /// How precise the date is.
    pub fn precision(self) -> DatePrecision {
        match self {
            AsOf::Day { .. } => DatePrecision::Day,
            AsOf::Month { .. } => DatePrecision::Month,
            AsOf::Year { .. } => DatePrecision::Year,
        }
    }

    /// The earliest day the date may mean.
    pub fn earliest(self) -> NaiveDate {
        match self {
            AsOf::Day { date } => date,
            AsOf::Month { year, month } => NaiveDate::from_ymd_opt(year, month, 1).unwrap_or(NaiveDate::MIN),
            AsOf::Year { year } => NaiveDate::from_ymd_opt(year, 1, 1).unwrap_or(NaiveDate::MIN),
        }
    }
}

/// Whole months from `from` to `to` (0 when `to` is earlier).
fn months_between(from: NaiveDate, to: NaiveDate) -> u32 {
    let mut months = (to.year() - from.year()) * 12 + to.month() as i32 - from.month() as i32;
    if to.day() < from.day() {
        months -= 1;
    }
    months.max(0) as u32
}

/// How precise a source's date is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub enum DatePrecision {
    /// A day (`2026-11-30`).
    Day,
    /// A month only (`2025-03`).
    Month,
    /// A year only (`2024`).
    Year,
}

/// How fresh one price is.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct Freshness {
    /// `None`: date unknown (or not a date).
    #[serde(skip)]
    pub as_of: Option<AsOf>,
    /// How precise the date is; `None` when the date is unknown.
    pub precision: Option<DatePrecision>,
    /// Whole months since the earliest day the date may mean.
    pub age_months: Option<u32>,
    /// As old as the threshold, or older.
    pub stale: bool,
    /// The threshold it was judged by, months.
    pub stale_after_months: u32,
}

impl Freshness {
    /// The freshness of a price dated `as_of` (ISO text; `None` or not a
    /// date: unknown) on `today`, stale at `stale_after_months` or older.
    pub fn of(as_of: Option<&str>, today: NaiveDate, stale_after_months: u32) -> Freshness {
        let as_of = as_of.and_then(AsOf::parse);
        let age_months = as_of.map(|a| months_between(a.earliest(), today));
        Freshness {
            as_of,
            precision: as_of.map(AsOf::precision),
            age_months,
            stale: age_months.is_some_and(|m| m >= stale_after_months),
            stale_after_months,
        }
    }

    /// The date as precise as it is: `2026-11-30`, `2025-03 (month only)`,
    /// `2026 (year only)`, `date unknown`.
    pub fn date_label(&self, lang: Lang) -> String {
        let zh = lang == Lang::Zh;
        match self.as_of {
            None => lang.pick("date unknown", "日期未知").to_owned(),
            Some(AsOf::Day { date }) => date.format("%Y-%m-%d").to_string(),
            Some(AsOf::Month { year, month }) if zh => format!("{year}-{month:02}（仅到月）"),
            Some(AsOf::Month { year, month }) => format!("{year}-{month:02} (month only)"),
            Some(AsOf::Year { year }) if zh => format!("{year}（仅到年）"),
            Some(AsOf::Year { year }) => format!("{year} (year only)"),
        }
    }

    /// `2025-03 (month only) · stale, 20 months old`, `date unknown`.
    pub fn label(&self, lang: Lang) -> String {
        let zh = lang == Lang::Zh;
        let date = self.date_label(lang);
        match (self.stale, self.age_months, zh) {
            (true, Some(m), true) => format!("{date} · 已过时（{m} 个月）"),
            (true, Some(m), false) => format!("{date} · stale, {m} months old"),
            _ => date,
        }
    }
}

/// The stale threshold in months: the setting, else six months.
pub fn stale_after_months(c: &Catalog) -> Result<u32, Error> {
    Ok(c.setting(STALE_AFTER_KEY)?
        .and_then(|v| v.trim().trim_matches('"').parse().ok())
        .unwrap_or(DEFAULT_STALE_AFTER_MONTHS))
}

/// Sets the stale threshold, within [`STALE_AFTER_RANGE`] (0 is refused,
/// not quietly made 1).
pub fn set_stale_after_months(c: &mut Catalog, months: u32) -> Result<u32, Error> {
    if !STALE_AFTER_RANGE.contains(&months) {
        return Err(Error::Argument {
            name: "stale-after".into(),
            value: months.to_string(),
            allowed: crate::Allowed::Between {
                min: u64::from(*STALE_AFTER_RANGE.start()),
                max: u64::from(*STALE_AFTER_RANGE.end()),
            },
        });
    }
    c.put_setting(STALE_AFTER_KEY, &months.to_string())?;
    Ok(months)
}

pub use crate::files::today_date;
/// A calendar date (what `today` is passed as).
pub use chrono::NaiveDate as Date;

/// One dated figure of a scenario's option, aged: what the results, the
/// editor and the proposal mark when it is stale.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct PriceAge {
    /// The option's id (a filter's match is `option/offer`).
    pub option_id: String,
    /// The option's field, as in its `sources` (`on_demand.price_per_accel_hour`).
    pub field: String,
    /// The date as the source gave it.
    pub as_of: String,
    /// How old it is on the day asked.
    pub freshness: Freshness,
}

/// Whether any option has a dated figure (only then is a threshold needed).
pub fn has_dated_figures(s: &suanli_model::Scenario) -> bool {
    s.options.iter().any(|o| !o.as_of.is_empty())
}

/// Every dated figure of a scenario's options (the `as_of` tables that
/// catalogue resolution fills in), aged on `today`, option by option.
pub fn ages(s: &suanli_model::Scenario, today: NaiveDate, stale_after_months: u32) -> Vec<PriceAge> {
    s.options
        .iter()
        .flat_map(|o| {
            o.as_of.iter().map(|(field, as_of)| PriceAge {
                option_id: o.id.clone(),
                field: field.clone(),
                as_of: as_of.clone(),
                freshness: Freshness::of(Some(as_of), today, stale_after_months),
            })
        })
        .collect()
}

/// The stale threshold a resolved scenario file's prices are aged by: the
/// catalogue's setting when the scenario has dated prices (they came from
/// it), else the default (and the database is not opened).
pub fn stale_after_for(s: &suanli_model::Scenario, db: Option<&std::path::Path>) -> Result<u32, Error> {
    if !has_dated_figures(s) {
        return Ok(DEFAULT_STALE_AFTER_MONTHS);
    }
    let (c, _) = crate::database::open_catalog(db)?;
    stale_after_months(&c)
}

/// Every dated price of a resolved scenario file, aged on `today` by the
/// catalogue's threshold (what `suanli evaluate` lists when stale).
pub fn ages_for(
    s: &suanli_model::Scenario,
    db: Option<&std::path::Path>,
    today: NaiveDate,
) -> Result<Vec<PriceAge>, Error> {
    if !has_dated_figures(s) {
        return Ok(Vec::new());
    }
    Ok(ages(s, today, stale_after_for(s, db)?))
}

/// The stale threshold of an optional catalogue: the setting, else the default.
pub fn stale_after_or_default(c: Option<&Catalog>) -> Result<u32, Error> {
    c.map_or(Ok(DEFAULT_STALE_AFTER_MONTHS), stale_after_months)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn day(s: &str) -> NaiveDate {
        NaiveDate::parse_from_str(s, "%Y-%m-%d").unwrap_or(NaiveDate::MIN)
    }

    #[test]
    fn partial_dates_stay_partial_and_age_from_their_earliest_day() {
        assert_eq!(AsOf::parse("2026"), Some(AsOf::Year { year: 2026 }));
        assert_eq!(AsOf::parse("2025-03"), Some(AsOf::Month { year: 2025, month: 3 }));
        assert_eq!(AsOf::parse("2025-13"), None);
        assert_eq!(AsOf::parse("2025-02-30"), None);
        assert_eq!(AsOf::parse("last spring"), None);
        let today = day("2026-12-01");
        // "2026" may mean 1 January 2026: eleven months old, stale at six.
        let y = Freshness::of(Some("2026"), today, 6);
        assert_eq!((y.age_months, y.stale), (Some(11), true));
        assert_eq!(y.label(Lang::En), "2026 (year only) · stale, 11 months old");
        let m = Freshness::of(Some("2026-07"), today, 6);
        assert_eq!((m.age_months, m.stale), (Some(5), false));
        assert_eq!(m.label(Lang::Zh), "2026-07（仅到月）");
        let d = Freshness::of(Some("2026-06-02"), today, 6);
        assert_eq!((d.age_months, d.stale), (Some(5), false), "one day short of six months");
        assert!(Freshness::of(Some("2026-06-01"), today, 6).stale);
        let unknown = Freshness::of(None, today, 6);
        assert_eq!((unknown.stale, unknown.label(Lang::En)), (false, "date unknown".to_owned()));
        assert_eq!(Freshness::of(Some("n/a"), today, 6).label(Lang::Zh), "日期未知");
    }
}

//! Reference exchange rates: a scenario without its own rate for a
//! currency takes the catalogue's dated, sourced one, and says so.

use serde::Serialize;
use suanli_catalog::{Confidence, ReferenceRate};
use suanli_model::{Currency, Lang, Scenario};

/// A reference rate a scenario took.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct RateUsed {
    /// The currency converted.
    pub currency: Currency,
    /// Scenario-currency units per unit of it.
    pub rate: f64,
    /// The reference rate's date.
    pub as_of: Option<String>,
    /// Its source ids.
    pub source: String,
    /// Its confidence.
    pub confidence: Confidence,
}

impl RateUsed {
    /// The assumption, for a reader.
    pub fn describe(&self, scenario: Currency, lang: Lang) -> String {
        let date = self.as_of.as_deref().unwrap_or(lang.pick("undated", "无日期"));
        match lang {
            Lang::En => format!(
                "Assumed: 1 {} = {} {scenario}, the catalogue's reference rate of {date} [{}] (the scenario gives no rate; set [fx] to use your own).",
                self.currency, self.rate, self.source
            ),
            Lang::Zh => format!(
                "假设：1 {} = {} {scenario}，取目录参考汇率（{date}，来源 {}）；场景未给出汇率，可在 [fx] 中自行设定。",
                self.currency, self.rate, self.source
            ),
        }
    }
}

/// Fills the scenario's missing rates from the reference rates (yuan per
/// unit, so any pair crosses through the yuan); returns those it took.
pub fn fill_rates(s: &mut Scenario, rates: &[ReferenceRate]) -> Vec<RateUsed> {
    let cny_per = |c: Currency| -> Option<(f64, Option<&ReferenceRate>)> {
        if c == Currency::CNY {
            Some((1.0, None))
        } else {
            rates.iter().find(|r| r.currency == c).map(|r| (r.cny_per_unit, Some(r)))
        }
    };
    let Some((base, base_row)) = cny_per(s.currency) else { return Vec::new() };
    let mut used = Vec::new();
    for c in Currency::ALL {
        if c == s.currency || s.fx.contains_key(&c) {
            continue;
        }
        let Some((per, row)) = cny_per(c) else { continue };
        let rate = per / base;
        let rows: Vec<&ReferenceRate> = [row, base_row].into_iter().flatten().collect();
        used.push(RateUsed {
            currency: c,
            rate,
            as_of: rows.iter().filter_map(|r| r.as_of.clone()).max(),
            source: rows.iter().map(|r| r.source.as_str()).collect::<Vec<_>>().join(";"),
            confidence: rows.iter().map(|r| r.confidence).fold(Confidence::A, Confidence::weaker),
        });
    }
    take_rates(s, &used);
    used
}

/// Writes rates taken from the catalogue into a scenario: each into `fx`
/// where the scenario has none, and what was assumed into `fx_source`.
pub fn take_rates(s: &mut Scenario, used: &[RateUsed]) {
    for rate in used {
        s.fx.entry(rate.currency).or_insert(rate.rate);
    }
    if used.is_empty() {
        return;
    }
    let said: Vec<String> = used.iter().map(|u| u.describe(s.currency, Lang::En)).collect();
    s.fx_source =
        [s.fx_source.trim(), &said.join(" ")].iter().filter(|t| !t.is_empty()).copied().collect::<Vec<_>>().join(" ");
}

//! The project's own offers CSV (the columns of `data/catalog/offers.csv`).

use crate::Upfront;
use suanli_model::Currency;

use super::landing::{Parsed, field_too_long, reject};
use crate::Error;
use crate::check::{Problem, RowError};
use crate::rows::{BillingMode, Confidence, Offer, PriceUnit};
pub(super) fn parse_csv(text: &str) -> Result<Parsed, Error> {
    let mut reader = csv::ReaderBuilder::new().from_reader(text.as_bytes());
    let headers =
        reader.headers().map_err(|e| Error::Csv { file: "import".into(), line: 1, message: e.to_string() })?.clone();
    for required in ["id", "provider_id", "billing_mode", "price", "price_unit", "currency", "source", "confidence"] {
        if !headers.iter().any(|h| h == required) {
            return Err(Error::Csv {
                file: "import".into(),
                line: 1,
                message: format!("not an offers CSV: the header has no {required} column"),
            });
        }
    }
    let mut parsed = Parsed::default();
    for record in reader.records() {
        parsed.rows += 1;
        let line = parsed.rows + 1;
        // Broken quoting is not a row problem: the file is not CSV.
        let record =
            record.map_err(|e| Error::Csv { file: "import".into(), line: line as u64, message: e.to_string() })?;
        if let Some(e) = field_too_long(&record, &headers, line) {
            parsed.rejected.push(e);
            continue;
        }
        let errors_before = parsed.rejected.len();
        let offer = offer_from_record(&headers, &record, line, &mut parsed.rejected);
        // A row with a field that did not parse still has its other fields
        // checked (every problem named at once), but never lands.
        parsed.offers.push((line, offer, parsed.rejected.len() == errors_before));
    }
    Ok(parsed)
}

/// One CSV record as an offer, every field parsed on its own so that each
/// bad value is named (a row may have several). A field that does not
/// parse is reported and given a neutral stand-in so the row's other
/// checks still run.
fn offer_from_record(
    headers: &csv::StringRecord,
    record: &csv::StringRecord,
    line: usize,
    rejected: &mut Vec<RowError>,
) -> Offer {
    let field = |name: &str| headers.iter().position(|h| h == name).and_then(|i| record.get(i)).unwrap_or("");
    let text = |name: &str| Some(field(name).to_owned()).filter(|v| !v.is_empty());
    let id = field("id").to_owned();
    let mut fail = |name: &str, value: &str, problem: Problem| rejected.push(reject(line, &id, name, value, problem));
    let mut number = |name: &str| -> Option<Option<f64>> {
        match field(name).trim() {
            "" => Some(None),
            t => match t.parse::<f64>() {
                Ok(x) => Some(Some(x)),
                Err(_) => {
                    fail(name, t, Problem::NotANumber);
                    None
                }
            },
        }
    };
    let accelerators_per_instance = number("accelerators_per_instance");
    let price = number("price");
    let price_high = number("price_high");
    let mut closed = |name: &str, allowed: Vec<&'static str>| -> Option<String> {
        let value = field(name).trim();
        if allowed.contains(&value) {
            Some(value.to_owned())
        } else {
            fail(name, value, Problem::OneOf(allowed));
            None
        }
    };
    let billing_mode = closed("billing_mode", BillingMode::ALL.iter().map(|m| m.key()).collect());
    let price_unit = closed("price_unit", PriceUnit::ALL.iter().map(|u| u.key()).collect());
    let confidence = closed("confidence", Confidence::ALL.iter().map(|c| c.key()).collect());
    let upfront = text("upfront").and_then(|t| {
        let found = Upfront::parse(&t);
        if found.is_none() {
            fail("upfront", &t, Problem::OneOf(Upfront::ALL.iter().map(|u| u.key()).collect()));
        }
        found
    });
    let currency = field("currency").trim().parse::<Currency>();
    if currency.is_err() {
        rejected.push(reject(line, &id, "currency", field("currency").trim(), Problem::UnknownCurrency));
    }
    if price == Some(None) {
        rejected.push(reject(line, &id, "price", "", Problem::Required));
    }
    Offer {
        id: id.clone(),
        provider_id: field("provider_id").to_owned(),
        accelerator_id: text("accelerator_id"),
        instance: text("instance"),
        region: text("region"),
        billing_mode: billing_mode.and_then(|b| b.parse().ok()).unwrap_or(BillingMode::OnDemand),
        accelerators_per_instance: accelerators_per_instance.unwrap_or(Some(1.0)),
        price: price.flatten().unwrap_or(1.0),
        price_high: price_high.flatten(),
        price_unit: price_unit
            .and_then(|u| PriceUnit::ALL.into_iter().find(|x| x.key() == u))
            .unwrap_or(PriceUnit::AcceleratorHour),
        currency: currency.unwrap_or(Currency::CNY),
        upfront,
        interconnect: text("interconnect"),
        as_of: text("as_of"),
        source: field("source").to_owned(),
        confidence: confidence.and_then(|c| c.parse().ok()).unwrap_or(Confidence::A),
        notes: text("notes"),
    }
}

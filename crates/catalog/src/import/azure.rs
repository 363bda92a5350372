//! Azure Retail Prices API pages: the catalogue's own Azure sizes tell which
//! meters are GPU sizes.

use crate::Upfront;
use std::collections::BTreeMap;

use serde::Deserialize;
use suanli_model::Currency;

use super::landing::{Parsed, reject, slug};
use super::{Provenance, SkipReason, Skipped};
use crate::check::Problem;
use crate::rows::{BillingMode, Offer, PriceUnit};
use crate::{Catalog, Error, store};
#[derive(Debug, Deserialize)]
struct AzurePage {
    #[serde(rename = "Items")]
    items: Vec<serde_json::Value>,
    /// The next page's address; `null` on the last page.
    #[serde(rename = "NextPageLink", default)]
    next_page_link: Option<String>,
}

/// One term of a Consumption item's `savingsPlan` (api-version
/// 2023-01-01-preview): an hourly rate, unlike a reservation's term price.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct AzureSavingsPlan {
    retail_price: f64,
    term: String,
}

/// `1 Year` / `1 year` / `3 Years` / `3 Year` as years.
fn azure_term_years(term: &str) -> Option<u32> {
    match term.trim().to_ascii_lowercase().as_str() {
        "1 year" | "1 years" => Some(1),
        "3 year" | "3 years" => Some(3),
        _ => None,
    }
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct AzureItem {
    currency_code: String,
    retail_price: f64,
    arm_region_name: String,
    meter_name: String,
    #[serde(default)]
    product_name: String,
    #[serde(default)]
    sku_name: String,
    service_name: String,
    unit_of_measure: String,
    #[serde(rename = "type")]
    price_type: String,
    #[serde(default)]
    reservation_term: Option<String>,
    arm_sku_name: String,
    #[serde(default)]
    effective_start_date: Option<String>,
    #[serde(default)]
    savings_plan: Vec<AzureSavingsPlan>,
}

pub(super) fn parse_azure(
    text: &str,
    sizes: &BTreeMap<String, (String, f64)>,
    p: &Provenance,
) -> Result<Parsed, Error> {
    let value: serde_json::Value = serde_json::from_str(text).map_err(|e| {
        Error::Pack(format!("not an Azure Retail Prices page: line {}, column {}: {e}", e.line(), e.column()))
    })?;
    let pages: Vec<AzurePage> = match value {
        serde_json::Value::Array(pages) => pages.into_iter().map(serde_json::from_value).collect::<Result<_, _>>(),
        page => serde_json::from_value(page).map(|p| vec![p]),
    }
    .map_err(|e| Error::Pack(format!("not an Azure Retail Prices page (expected an object with \"Items\"): {e}")))?;
    // A response is whole when its last page links nowhere: a cut-off one
    // would silently drop every price after the cut.
    if let Some(link) = pages.last().and_then(|p| p.next_page_link.as_deref()).filter(|l| !l.trim().is_empty()) {
        return Err(Error::IncompleteFeed { pages: pages.len(), next: link.chars().take(200).collect() });
    }

    let mut parsed = Parsed::default();
    for item in pages.into_iter().flat_map(|p| p.items) {
        parsed.rows += 1;
        // Items are numbered from 1 across pages; JSON has no useful line.
        let line = parsed.rows;
        let item: AzureItem = match serde_json::from_value(item) {
            Ok(i) => i,
            Err(e) => {
                parsed.rejected.push(reject(line, "", "", "", Problem::Parser(format!("item {line}: {e}"))));
                continue;
            }
        };
        let skip = |reason: SkipReason| Skipped { line, subject: item.arm_sku_name.clone(), reason };
        if item.service_name != "Virtual Machines" {
            parsed.skipped.push(skip(SkipReason::NotVirtualMachine { service: item.service_name.clone() }));
            continue;
        }
        if item.product_name.contains("Windows") {
            parsed.skipped.push(skip(SkipReason::WindowsPrice));
            continue;
        }
        if item.price_type == "DevTestConsumption" {
            parsed.skipped.push(skip(SkipReason::DevTestPrice));
            continue;
        }
        if item.meter_name.contains("Low Priority") || item.sku_name.contains("Low Priority") {
            parsed.skipped.push(skip(SkipReason::LowPriority));
            continue;
        }
        let Some((accelerator, count)) = sizes.get(&item.arm_sku_name.to_lowercase()) else {
            parsed.skipped.push(skip(SkipReason::NotGpuSize));
            continue;
        };
        let spot = item.meter_name.contains(" Spot") || item.sku_name.contains(" Spot");
        let id_base = format!(
            "azure-{}-{}",
            slug(item.arm_sku_name.trim_start_matches("Standard_")),
            slug(&item.arm_region_name)
        );
        if item.unit_of_measure != "1 Hour" {
            parsed.rejected.push(reject(
                line,
                &id_base,
                "unitOfMeasure",
                &item.unit_of_measure,
                Problem::Expected("\"1 Hour\""),
            ));
            continue;
        }
        // Reservation items quote the whole term, though the unit says "1 Hour".
        let term = item.reservation_term.as_deref().and_then(azure_term_years);
        let (billing, price) = match (item.price_type.as_str(), term) {
            ("Reservation", Some(1)) => (BillingMode::Reserved1y, item.retail_price / 8760.0),
            ("Reservation", Some(3)) => (BillingMode::Reserved3y, item.retail_price / 26280.0),
            ("Reservation", _) => {
                parsed.rejected.push(reject(
                    line,
                    &id_base,
                    "reservationTerm",
                    item.reservation_term.as_deref().unwrap_or(""),
                    Problem::Expected("\"1 Year\" or \"3 Years\""),
                ));
                continue;
            }
            ("Consumption", _) if spot => (BillingMode::Spot, item.retail_price),
            ("Consumption", _) => (BillingMode::OnDemand, item.retail_price),
            (other, _) => {
                parsed.rejected.push(reject(
                    line,
                    &id_base,
                    "type",
                    other,
                    Problem::Expected("Consumption or Reservation"),
                ));
                continue;
            }
        };
        let Ok(currency) = item.currency_code.parse::<Currency>() else {
            parsed.rejected.push(reject(line, &id_base, "currencyCode", &item.currency_code, Problem::UnknownCurrency));
            continue;
        };
        let as_of = item
            .effective_start_date
            .as_deref()
            .map(|d| d.chars().take(10).collect::<String>())
            .filter(|d| p.as_of.as_ref().is_none_or(|given| d > given))
            .or_else(|| p.as_of.clone());
        let offer = Offer {
            id: format!("{id_base}-{}", billing.key().replace('_', "-")),
            provider_id: "azure".to_owned(),
            accelerator_id: Some(accelerator.clone()),
            instance: Some(item.arm_sku_name.clone()),
            region: Some(item.arm_region_name.clone()),
            billing_mode: billing,
            accelerators_per_instance: Some(*count),
            price,
            price_high: None,
            price_unit: PriceUnit::InstanceHour,
            currency,
            upfront: (item.price_type == "Reservation").then_some(Upfront::All),
            interconnect: None,
            as_of,
            source: p.source.clone(),
            confidence: p.confidence,
            notes: (item.price_type == "Reservation")
                .then(|| format!("term price {} ÷ hours of the term", item.retail_price)),
        };
        // Savings-plan rates ride on the Consumption (on-demand) item, one per term, hourly.
        if billing == BillingMode::OnDemand {
            for plan in &item.savings_plan {
                let Some(years) = azure_term_years(&plan.term) else {
                    parsed.rejected.push(reject(
                        line,
                        &id_base,
                        "savingsPlan.term",
                        &plan.term,
                        Problem::Expected("\"1 Year\" or \"3 Years\""),
                    ));
                    continue;
                };
                parsed.offers.push((
                    line,
                    Offer {
                        id: format!("{id_base}-savings-plan-{years}y"),
                        billing_mode: BillingMode::SavingsPlan,
                        price: plan.retail_price,
                        upfront: Some(Upfront::None),
                        notes: Some(format!("{years}-year savings plan, hourly rate")),
                        ..offer.clone()
                    },
                    true,
                ));
            }
        }
        parsed.offers.push((line, offer, true));
    }
    Ok(parsed)
}

impl Catalog {
    /// Azure VM size → (accelerator, accelerators per VM), learned from the
    /// catalogue's own Azure offers.
    pub(super) fn azure_sizes(&self) -> Result<BTreeMap<String, (String, f64)>, Error> {
        // Azure's offers as `all_offers` merges them (an import's row over the
        // catalogue's, by id), reading only the rows that can be Azure's.
        let mut by_id: BTreeMap<String, Offer> = BTreeMap::new();
        for sql in [
            "SELECT * FROM offers WHERE provider_id = 'azure'",
            "SELECT * FROM imported_offers WHERE provider_id = 'azure' \
             OR id IN (SELECT id FROM offers WHERE provider_id = 'azure')",
        ] {
            for o in store::select::<Offer, _>(self.connection(), sql, [])? {
                by_id.insert(o.id.clone(), o);
            }
        }
        let mut sizes = BTreeMap::new();
        for o in by_id.into_values() {
            if let (true, Some(instance), Some(acc), Some(n)) =
                (o.provider_id == "azure", o.instance, o.accelerator_id, o.accelerators_per_instance)
            {
                sizes.entry(instance.to_lowercase()).or_insert((acc, n));
            }
        }
        Ok(sizes)
    }
}

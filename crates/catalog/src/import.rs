//! Importers of real price feeds: the project's own offers CSV, SkyPilot
//! catalogue `vms.csv` files, and Azure Retail Prices API pages.
//!
//! An import is one transaction: every valid row lands, or (on any
//! failure) none does. Rows that break a rule are rejected and listed with
//! their line, field and value; rows that are not GPU offers (CPU-only
//! sizes, Windows meters) are skipped and counted. Imported offers live in
//! their own table, so a bundled upgrade or pack never removes them, and
//! they shadow a catalogue offer with the same id.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::check::{Checker, Problem, RowError};
use suanli_model::Currency;

use crate::rows::{BillingMode, Confidence, Offer, PriceUnit};
use crate::{Catalog, ChangeSummary, Error, rebuild_search, record_change_with, store};

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Format {
    /// The project's own offers CSV (the columns of `data/catalog/offers.csv`).
    Csv,
    /// A SkyPilot catalogue `vms.csv`; the file does not say whose prices
    /// they are, so the provider id is given.
    Skypilot { provider: String },
    /// One Azure Retail Prices API page (`{"Items": [...]}`), or a JSON
    /// array of such pages.
    AzureRetail,
}

/// Where the imported figures come from, stamped on every row.
#[derive(Debug, Clone, PartialEq)]
pub struct Provenance {
    /// Source text, e.g. "SkyPilot catalogue lambda/vms.csv".
    pub source: String,
    /// As-of date of the prices.
    pub as_of: String,
    pub confidence: Confidence,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Skipped {
    pub line: usize,
    pub reason: String,
}

#[derive(Debug, Clone, PartialEq)]
pub struct ImportReport {
    /// Rows read from the file (data rows or items).
    pub rows: usize,
    pub imported: usize,
    pub rejected: Vec<RowError>,
    pub skipped: Vec<Skipped>,
    pub change: Option<ChangeSummary>,
}

/// Turns bytes into text, refusing what is not UTF-8 (a GBK export, say).
fn utf8(bytes: &[u8]) -> Result<&str, Error> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    std::str::from_utf8(bytes).map_err(|e| {
        Error::Pack(format!(
            "the file is not UTF-8 text (invalid byte at offset {}); save it as UTF-8 and import again",
            e.valid_up_to()
        ))
    })
}

impl Catalog {
    /// Imports a feed. `now` stamps the change record.
    pub fn import(&mut self, format: &Format, bytes: &[u8], p: &Provenance, now: &str) -> Result<ImportReport, Error> {
        let text = utf8(bytes)?;
        let parsed = match format {
            Format::Csv => parse_csv(text)?,
            Format::Skypilot { provider } => {
                let known: Vec<String> = self.accelerators(&Default::default())?.into_iter().map(|a| a.id).collect();
                parse_skypilot(text, provider, &known, p)?
            }
            Format::AzureRetail => parse_azure(text, &self.azure_sizes()?, p)?,
        };
        self.land(parsed, &format_label(format), now)
    }

    /// Azure VM size → (accelerator, accelerators per VM), learned from the
    /// catalogue's own Azure offers.
    fn azure_sizes(&self) -> Result<BTreeMap<String, (String, f64)>, Error> {
        let mut sizes = BTreeMap::new();
        for (o, _) in self.all_offers(false)? {
            if let (true, Some(instance), Some(acc), Some(n)) =
                (o.provider_id == "azure", o.instance, o.accelerator_id, o.accelerators_per_instance)
            {
                sizes.entry(instance.to_lowercase()).or_insert((acc, n));
            }
        }
        Ok(sizes)
    }

    /// Checks the parsed rows against the catalogue and lands the valid ones.
    fn land(&mut self, parsed: Parsed, label: &str, now: &str) -> Result<ImportReport, Error> {
        let providers: Vec<String> = self.providers()?.into_iter().map(|p| p.id).collect();
        let accelerators: Vec<String> = self.accelerators(&Default::default())?.into_iter().map(|a| a.id).collect();
        let mut c = Checker::new();
        let mut seen = BTreeMap::new();
        let mut valid = Vec::new();
        for (line, offer, parsed_whole) in parsed.offers {
            let before = c.errors.len();
            c.at("import", Some(line), &offer.id);
            c.id(&mut seen, &offer.id);
            c.offer(&offer);
            if !providers.contains(&offer.provider_id) {
                c.fail("provider_id", &offer.provider_id, Problem::NoSuchRow { table: "providers" });
            }
            if let Some(a) = &offer.accelerator_id
                && !accelerators.contains(a)
            {
                c.fail("accelerator_id", a, Problem::NoSuchRow { table: "accelerators" });
            }
            if c.errors.len() == before && parsed_whole {
                valid.push(offer);
            }
        }
        let mut rejected = parsed.rejected;
        rejected.extend(c.errors);
        rejected.sort_by_key(|e| e.line);

        let change = if valid.is_empty() {
            None
        } else {
            let tx = self.conn.transaction()?;
            // Compare with what each id showed before: an earlier import, else the catalogue.
            let mut before: BTreeMap<String, Offer> = BTreeMap::new();
            for sql in ["SELECT * FROM offers", "SELECT * FROM imported_offers"] {
                for o in store::select::<Offer, _>(&tx, sql, [])? {
                    before.insert(o.id.clone(), o);
                }
            }
            let old: Vec<Offer> = valid.iter().filter_map(|o| before.get(&o.id).cloned()).collect();
            for o in &valid {
                store::insert(&tx, "imported_offers", o)?;
            }
            let summary = record_change_with(&tx, "import", label, None, now, &old, &valid, false)?;
            rebuild_search(&tx)?;
            tx.commit()?;
            Some(summary)
        };
        Ok(ImportReport { rows: parsed.rows, imported: valid.len(), rejected, skipped: parsed.skipped, change })
    }
}

fn format_label(f: &Format) -> String {
    match f {
        Format::Csv => "import: offers CSV".to_owned(),
        Format::Skypilot { provider } => format!("import: SkyPilot catalogue ({provider})"),
        Format::AzureRetail => "import: Azure Retail Prices".to_owned(),
    }
}

struct Parsed {
    rows: usize,
    /// (line, offer, whether every field parsed)
    offers: Vec<(usize, Offer, bool)>,
    rejected: Vec<RowError>,
    skipped: Vec<Skipped>,
}

fn reject(line: usize, id: &str, field: &str, value: &str, problem: Problem) -> RowError {
    RowError {
        table: "import",
        line: Some(line),
        id: id.to_owned(),
        field: field.to_owned(),
        value: value.to_owned(),
        problem,
    }
}

/// A readable, stable id piece: lowercase ASCII letters, digits and dashes.
fn slug(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for ch in s.trim().chars() {
        if ch.is_ascii_alphanumeric() {
            out.push(ch.to_ascii_lowercase());
        } else if !out.ends_with('-') {
            out.push('-');
        }
    }
    out.trim_matches('-').to_owned()
}

fn parse_csv(text: &str) -> Result<Parsed, Error> {
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
    let mut parsed = Parsed { rows: 0, offers: Vec::new(), rejected: Vec::new(), skipped: Vec::new() };
    for record in reader.records() {
        parsed.rows += 1;
        let line = parsed.rows + 1;
        // Broken quoting is not a row problem: the file is not CSV.
        let record =
            record.map_err(|e| Error::Csv { file: "import".into(), line: line as u64, message: e.to_string() })?;
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
        price_unit: price_unit
            .and_then(|u| PriceUnit::ALL.into_iter().find(|x| x.key() == u))
            .unwrap_or(PriceUnit::AcceleratorHour),
        currency: currency.unwrap_or(Currency::CNY),
        upfront: text("upfront"),
        interconnect: text("interconnect"),
        as_of: text("as_of"),
        source: field("source").to_owned(),
        confidence: confidence.and_then(|c| c.parse().ok()).unwrap_or(Confidence::A),
        notes: text("notes"),
    }
}

#[derive(Debug, Deserialize)]
struct SkypilotRow {
    #[serde(rename = "InstanceType")]
    instance_type: String,
    #[serde(rename = "AcceleratorName", default)]
    accelerator_name: Option<String>,
    #[serde(rename = "AcceleratorCount", default)]
    accelerator_count: Option<String>,
    #[serde(rename = "Price", default)]
    price: Option<String>,
    #[serde(rename = "SpotPrice", default)]
    spot_price: Option<String>,
    #[serde(rename = "Region", default)]
    region: Option<String>,
    #[serde(rename = "GpuInfo", default)]
    gpu_info: Option<String>,
}

/// Accelerator memory from SkyPilot's `GpuInfo`, a Python-dict string:
/// `{'Gpus': [{'Name': 'A100', ..., 'MemoryInfo': {'SizeInMiB': 40960}}], ...}`.
fn gpu_memory_gib(info: &str) -> Option<f64> {
    let at = info.find("'SizeInMiB':")? + "'SizeInMiB':".len();
    let digits: String = info[at..].trim_start().chars().take_while(|c| c.is_ascii_digit() || *c == '.').collect();
    digits.parse::<f64>().ok().map(|mib| mib / 1024.0)
}

/// SkyPilot accelerator names to catalogue ids: `nvidia-<name>-<memory>gb`
/// where the catalogue has that row, else `nvidia-<name>`.
fn skypilot_accelerator(name: &str, memory_gib: Option<f64>, known: &dyn Fn(&str) -> bool) -> Option<String> {
    let base = format!("nvidia-{}", slug(name));
    let with_memory = memory_gib.map(|g| format!("{base}-{}gb", g.round() as i64));
    with_memory.into_iter().chain(std::iter::once(base)).find(|id| known(id))
}

fn parse_skypilot(text: &str, provider: &str, known_ids: &[String], p: &Provenance) -> Result<Parsed, Error> {
    let known = |id: &str| known_ids.iter().any(|k| k == id);
    let mut reader = csv::ReaderBuilder::new().flexible(false).from_reader(text.as_bytes());
    let headers =
        reader.headers().map_err(|e| Error::Csv { file: "skypilot".into(), line: 1, message: e.to_string() })?;
    for required in ["InstanceType", "AcceleratorName", "AcceleratorCount", "Price", "Region"] {
        if !headers.iter().any(|h| h == required) {
            return Err(Error::Csv {
                file: "skypilot".into(),
                line: 1,
                message: format!("not a SkyPilot vms.csv: the header has no {required} column"),
            });
        }
    }
    let mut parsed = Parsed { rows: 0, offers: Vec::new(), rejected: Vec::new(), skipped: Vec::new() };
    for record in reader.deserialize::<SkypilotRow>() {
        parsed.rows += 1;
        let line = parsed.rows + 1;
        let row = match record {
            Ok(r) => r,
            Err(e) => {
                parsed.rejected.push(reject(line, "", "", "", Problem::Parser(e.to_string())));
                continue;
            }
        };
        let Some(name) = row.accelerator_name.as_deref().filter(|n| !n.trim().is_empty()) else {
            parsed
                .skipped
                .push(Skipped { line, reason: format!("{}: no accelerator (CPU-only size)", row.instance_type) });
            continue;
        };
        let region = row.region.clone().unwrap_or_default();
        let id_base = format!("{}-{}-{}", slug(provider), slug(&row.instance_type), slug(&region));
        let count: Option<f64> = row.accelerator_count.as_deref().and_then(|c| c.trim().parse().ok());
        let Some(count) = count.filter(|c| *c > 0.0 && c.is_finite()) else {
            parsed.rejected.push(reject(
                line,
                &id_base,
                "AcceleratorCount",
                row.accelerator_count.as_deref().unwrap_or(""),
                Problem::PositiveRatio,
            ));
            continue;
        };
        let memory = row.gpu_info.as_deref().and_then(gpu_memory_gib);
        let Some(accelerator) = skypilot_accelerator(name, memory, &known) else {
            let mem = memory.map_or(String::new(), |g| format!(" ({g:.0} GiB)"));
            parsed.rejected.push(reject(
                line,
                &id_base,
                "AcceleratorName",
                name,
                Problem::AcceleratorUnknown { name: format!("{name}{mem}") },
            ));
            continue;
        };
        let offer = |billing: BillingMode, price: f64| Offer {
            id: format!("{id_base}-{}", billing.key().replace('_', "-")),
            provider_id: provider.to_owned(),
            accelerator_id: Some(accelerator.clone()),
            instance: Some(row.instance_type.clone()),
            region: Some(region.clone()),
            billing_mode: billing,
            accelerators_per_instance: Some(count),
            price,
            price_unit: PriceUnit::InstanceHour,
            currency: Currency::USD,
            upfront: Some("none".to_owned()),
            interconnect: None,
            as_of: Some(p.as_of.clone()),
            source: p.source.clone(),
            confidence: p.confidence,
            notes: None,
        };
        let price_text = row.price.as_deref().unwrap_or("").trim();
        let on_demand = match price_text.parse::<f64>() {
            Ok(x) => x,
            Err(_) => {
                parsed.rejected.push(reject(line, &id_base, "Price", price_text, Problem::NotANumber));
                continue;
            }
        };
        parsed.offers.push((line, offer(BillingMode::OnDemand, on_demand), true));
        match row.spot_price.as_deref().map(str::trim).filter(|s| !s.is_empty()) {
            // SkyPilot: an empty SpotPrice means no spot; equal to Price means none in practice.
            None => {}
            Some(s) => match s.parse::<f64>() {
                Ok(x) if x == on_demand => parsed.skipped.push(Skipped {
                    line,
                    reason: format!("{}: spot price equals on-demand (no spot in practice)", row.instance_type),
                }),
                Ok(x) => parsed.offers.push((line, offer(BillingMode::Spot, x), true)),
                Err(_) => parsed.rejected.push(reject(line, &id_base, "SpotPrice", s, Problem::NotANumber)),
            },
        }
    }
    Ok(parsed)
}

#[derive(Debug, Deserialize)]
struct AzurePage {
    #[serde(rename = "Items")]
    items: Vec<serde_json::Value>,
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
}

fn parse_azure(text: &str, sizes: &BTreeMap<String, (String, f64)>, p: &Provenance) -> Result<Parsed, Error> {
    let value: serde_json::Value = serde_json::from_str(text).map_err(|e| {
        Error::Pack(format!("not an Azure Retail Prices page: line {}, column {}: {e}", e.line(), e.column()))
    })?;
    let pages: Vec<AzurePage> = match value {
        serde_json::Value::Array(pages) => pages.into_iter().map(serde_json::from_value).collect::<Result<_, _>>(),
        page => serde_json::from_value(page).map(|p| vec![p]),
    }
    .map_err(|e| Error::Pack(format!("not an Azure Retail Prices page (expected an object with \"Items\"): {e}")))?;

    let mut parsed = Parsed { rows: 0, offers: Vec::new(), rejected: Vec::new(), skipped: Vec::new() };
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
        let skip = |reason: String| Skipped { line, reason };
        if item.service_name != "Virtual Machines" {
            parsed.skipped.push(skip(format!("{}: not a virtual machine", item.service_name)));
            continue;
        }
        if item.product_name.contains("Windows") {
            parsed.skipped.push(skip(format!("{}: Windows price (Linux prices only)", item.arm_sku_name)));
            continue;
        }
        if item.price_type == "DevTestConsumption" {
            parsed.skipped.push(skip(format!("{}: Dev/Test price", item.arm_sku_name)));
            continue;
        }
        if item.meter_name.contains("Low Priority") || item.sku_name.contains("Low Priority") {
            parsed.skipped.push(skip(format!("{}: Low Priority meter", item.arm_sku_name)));
            continue;
        }
        let Some((accelerator, count)) = sizes.get(&item.arm_sku_name.to_lowercase()) else {
            parsed.skipped.push(skip(format!("{}: not a GPU size the catalogue knows", item.arm_sku_name)));
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
        let (billing, price) = match (item.price_type.as_str(), item.reservation_term.as_deref()) {
            ("Reservation", Some("1 Year")) => (BillingMode::Reserved1y, item.retail_price / 8760.0),
            ("Reservation", Some("3 Years")) => (BillingMode::Reserved3y, item.retail_price / 26280.0),
            ("Reservation", term) => {
                parsed.rejected.push(reject(
                    line,
                    &id_base,
                    "reservationTerm",
                    term.unwrap_or(""),
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
            .filter(|d| d > &p.as_of)
            .unwrap_or_else(|| p.as_of.clone());
        parsed.offers.push((
            line,
            Offer {
                id: format!("{id_base}-{}", billing.key().replace('_', "-")),
                provider_id: "azure".to_owned(),
                accelerator_id: Some(accelerator.clone()),
                instance: Some(item.arm_sku_name.clone()),
                region: Some(item.arm_region_name.clone()),
                billing_mode: billing,
                accelerators_per_instance: Some(*count),
                price,
                price_unit: PriceUnit::InstanceHour,
                currency,
                upfront: (item.price_type == "Reservation").then(|| "all".to_owned()),
                interconnect: None,
                as_of: Some(as_of),
                source: p.source.clone(),
                confidence: p.confidence,
                notes: (item.price_type == "Reservation")
                    .then(|| format!("term price {} ÷ hours of the term", item.retail_price)),
            },
            true,
        ));
    }
    Ok(parsed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_gpu_memory_from_the_python_dict() {
        let info = "{'Gpus': [{'Name': 'A100', 'Manufacturer': 'NVIDIA', 'Count': 8.0, 'MemoryInfo': {'SizeInMiB': 40960}}], 'TotalGpuMemoryInMiB': 40960}";
        assert_eq!(gpu_memory_gib(info), Some(40.0));
        assert_eq!(gpu_memory_gib(""), None);
    }

    #[test]
    fn maps_skypilot_names_to_catalogue_ids() {
        let known = |id: &str| ["nvidia-a100-40gb", "nvidia-h100", "nvidia-a100-80gb"].contains(&id);
        assert_eq!(skypilot_accelerator("A100", Some(40.0), &known).as_deref(), Some("nvidia-a100-40gb"));
        assert_eq!(skypilot_accelerator("A100-80GB", Some(80.0), &known).as_deref(), Some("nvidia-a100-80gb"));
        assert_eq!(skypilot_accelerator("H100", Some(80.0), &known).as_deref(), Some("nvidia-h100"));
        assert_eq!(skypilot_accelerator("A6000", Some(48.0), &known), None);
    }

    #[test]
    fn slugs_are_readable_ids() {
        assert_eq!(slug("Standard_ND96isr_H100_v5"), "standard-nd96isr-h100-v5");
        assert_eq!(slug("  gpu_8x_a100 "), "gpu-8x-a100");
    }
}

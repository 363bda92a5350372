//! The catalogue's rows, as they are written in `data/catalog/*.csv`, in
//! packs and in the database. Every row carries its source, as-of date and
//! confidence; an empty field means "not sourced", never zero.

use serde::{Deserialize, Deserializer, Serialize};
use suanli_model::{Currency, ExportStatus};

pub use suanli_model::WorkloadClass;

pub use crate::vocab::{BillingMode, Confidence, Metric, PriceUnit, Suite};

/// `true`/`false` from CSV text, JSON booleans or the database's text.
fn flex_bool<'de, D: Deserializer<'de>>(d: D) -> Result<Option<bool>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Flex {
        Bool(bool),
        Text(String),
    }
    match Option::<Flex>::deserialize(d)? {
        None => Ok(None),
        Some(Flex::Bool(b)) => Ok(Some(b)),
        Some(Flex::Text(t)) => match t.trim() {
            "" => Ok(None),
            "true" | "1" => Ok(Some(true)),
            "false" | "0" => Ok(Some(false)),
            other => Err(serde::de::Error::custom(format!("expected true or false, found {other:?}"))),
        },
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct Source {
    pub id: String,
    pub sheet: String,
    pub title: String,
    pub url: Option<String>,
    pub date: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct Accelerator {
    pub id: String,
    pub vendor: String,
    pub vendor_zh: Option<String>,
    pub name: String,
    pub name_zh: Option<String>,
    #[serde(deserialize_with = "flex_bool", default)]
    #[cfg_attr(feature = "specta", specta(type = Option<bool>))]
    pub domestic: Option<bool>,
    pub memory_gb: Option<f64>,
    pub memory_type: Option<String>,
    pub memory_bandwidth_gbps: Option<f64>,
    pub bf16_tflops: Option<f64>,
    pub fp16_tflops: Option<f64>,
    #[serde(default)]
    pub fp8_tflops: Option<f64>,
    pub fp32_tflops: Option<f64>,
    pub int8_tops: Option<f64>,
    pub tdp_w: Option<f64>,
    pub interconnect: Option<String>,
    pub interconnect_gbps: Option<f64>,
    pub form_factor: Option<String>,
    pub software_stack: Option<String>,
    pub framework_adapter: Option<String>,
    pub release: Option<String>,
    /// For a buyer in China.
    pub export_status_cn: Option<ExportStatus>,
    pub export_status_since: Option<String>,
    pub export_status_notes: Option<String>,
    pub list_price: Option<f64>,
    pub list_price_currency: Option<Currency>,
    pub list_price_as_of: Option<String>,
    /// `;`-separated spec fields for which no public figure exists (they
    /// stay empty; an estimate that needs one says so).
    #[serde(default)]
    pub unpublished: Option<String>,
    /// For a row that does not say which variant (`nvidia-a100-80gb`): the
    /// rows it may be (`;`-separated). Its ratio is the weakest of theirs.
    #[serde(default)]
    pub variants: Option<String>,
    pub source: String,
    pub as_of: Option<String>,
    pub confidence: Confidence,
    pub notes: Option<String>,
}

impl Accelerator {
    /// Whether a spec field is listed as having no public figure.
    pub fn is_unpublished(&self, field: &str) -> bool {
        self.unpublished.as_deref().is_some_and(|u| u.split(';').any(|f| f.trim() == field))
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct Provider {
    pub id: String,
    pub name: String,
    pub name_zh: Option<String>,
    /// ISO 3166 alpha-2; empty where no source says.
    pub country: Option<String>,
    pub kind: String,
    /// `;`-separated billing modes.
    pub billing_modes: Option<String>,
    #[serde(deserialize_with = "flex_bool", default)]
    #[cfg_attr(feature = "specta", specta(type = Option<bool>))]
    pub bare_metal: Option<bool>,
    #[serde(deserialize_with = "flex_bool", default)]
    #[cfg_attr(feature = "specta", specta(type = Option<bool>))]
    pub dedicated_gpu: Option<bool>,
    #[serde(deserialize_with = "flex_bool", default)]
    #[cfg_attr(feature = "specta", specta(type = Option<bool>))]
    pub encryption_in_transit: Option<bool>,
    /// `;`-separated certifications.
    pub certifications: Option<String>,
    pub security_notes: Option<String>,
    pub source: String,
    pub as_of: Option<String>,
    pub confidence: Confidence,
    pub notes: Option<String>,
}

/// A price for compute: rental per hour or month, or a server purchase.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct Offer {
    pub id: String,
    pub provider_id: String,
    pub accelerator_id: Option<String>,
    pub instance: Option<String>,
    pub region: Option<String>,
    pub billing_mode: BillingMode,
    pub accelerators_per_instance: Option<f64>,
    pub price: f64,
    pub price_unit: PriceUnit,
    pub currency: Currency,
    pub upfront: Option<String>,
    pub interconnect: Option<String>,
    pub as_of: Option<String>,
    pub source: String,
    pub confidence: Confidence,
    pub notes: Option<String>,
}

impl Offer {
    /// Price of one accelerator for one hour, when the offer is a rental.
    pub fn price_per_accel_hour(&self) -> Option<f64> {
        let per_instance = self.accelerators_per_instance.filter(|n| *n > 0.0);
        match self.price_unit {
            PriceUnit::AcceleratorHour => Some(self.price),
            PriceUnit::InstanceHour => per_instance.map(|n| self.price / n),
            PriceUnit::InstanceMonth => per_instance.map(|n| self.price / n / suanli_model::HOURS_PER_MONTH),
            PriceUnit::Server => None,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct Efficiency {
    pub id: String,
    pub accelerator_id: String,
    pub workload_class: WorkloadClass,
    /// Measured throughput ÷ the reference accelerator's on the same workload.
    pub ratio: f64,
    pub reference_accelerator_id: String,
    pub method: Option<String>,
    pub source: String,
    pub as_of: Option<String>,
    pub confidence: Confidence,
    pub notes: Option<String>,
}

/// One published benchmark result, with the configuration it was measured
/// in and where it was read (`data/catalog/measurements.csv`). Ratios are
/// derived from these by code (`crate::ratios`), only between like-for-like
/// runs. A value the source published as "/" or left blank stays empty.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct Measurement {
    pub id: String,
    pub suite: Suite,
    /// FlagPerf commit, MLPerf round (`v4.1`), paper id.
    pub suite_version: Option<String>,
    /// The suite's own case or benchmark id (`llama3_8B-megatron`, `resnet`).
    pub case: String,
    /// Which of a case's figures (FlagPerf's `p_whole` / `p_core`, a stage).
    pub variant: Option<String>,
    /// Who ran it: the MLPerf submitter, the FlagPerf vendor directory.
    pub submitter: Option<String>,
    pub workload_class: WorkloadClass,
    pub model: Option<String>,
    pub precision: Option<String>,
    pub sequence_length: Option<f64>,
    pub batch: Option<String>,
    /// Accelerators in the run.
    pub accelerators: f64,
    pub nodes: Option<f64>,
    pub parallel: Option<String>,
    pub framework: Option<String>,
    pub framework_version: Option<String>,
    /// MLPerf inference scenario (Offline, Server, Interactive).
    pub inference_scenario: Option<String>,
    pub accelerator_id: String,
    /// The hardware as the source names it.
    pub system: Option<String>,
    pub metric: Metric,
    /// Empty when the source published none ("/", "--", blank).
    pub value: Option<f64>,
    /// The cell exactly as published.
    pub published_as: Option<String>,
    /// Repository, commit and path, or URL.
    pub location: String,
    pub source: String,
    pub as_of: Option<String>,
    pub confidence: Confidence,
    pub notes: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScalingPoint {
    pub id: String,
    pub setup: String,
    pub accelerator_id: Option<String>,
    pub accelerators: Option<f64>,
    pub efficiency: f64,
    pub interconnect: Option<String>,
    pub source: String,
    pub as_of: Option<String>,
    pub confidence: Confidence,
    pub notes: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExportControl {
    pub id: String,
    /// Empty for rules of thumb that are not dated events.
    pub date: Option<String>,
    pub jurisdiction: String,
    pub rule: String,
    pub affected: Option<String>,
    pub effect: Option<String>,
    pub source: String,
    pub confidence: Confidence,
    pub notes: Option<String>,
}

/// The whole catalogue as plain rows: what the bundled CSVs, a pack or an
/// export hold.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Tables {
    pub sources: Vec<Source>,
    pub accelerators: Vec<Accelerator>,
    pub providers: Vec<Provider>,
    pub offers: Vec<Offer>,
    pub efficiency: Vec<Efficiency>,
    /// Older packs have none.
    #[serde(default)]
    pub measurements: Vec<Measurement>,
    pub scaling: Vec<ScalingPoint>,
    pub export_controls: Vec<ExportControl>,
}

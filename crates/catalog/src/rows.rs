//! The catalogue's rows, as they are written in `data/catalog/*.csv`, in
//! packs and in the database. Every row carries its source, as-of date and
//! confidence; an empty field means "not sourced", never zero.

use serde::{Deserialize, Deserializer, Serialize};
use suanli_model::inference::Device;
use suanli_model::{Currency, ExportStatus, Precision, Register};

pub use suanli_model::WorkloadClass;

pub use crate::vocab::{
    BillingMode, Confidence, KeptOut, Metric, MultiNode, PriceUnit, ScaleOut, ScaleUp, Suite, Upfront,
};

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

/// Billing modes from a CSV's `;`-separated text (and databases written
/// before lists were stored as JSON), a database's JSON text, or a JSON list;
/// empty text is none. An unknown mode is refused by name.
fn billing_modes<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<BillingMode>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Flex {
        List(Vec<BillingMode>),
        Text(String),
    }
    let text = match Option::<Flex>::deserialize(d)? {
        None => return Ok(Vec::new()),
        Some(Flex::List(modes)) => return Ok(modes),
        Some(Flex::Text(t)) => t,
    };
    if text.trim_start().starts_with('[') {
        return serde_json::from_str(&text).map_err(serde::de::Error::custom);
    }
    text.split(';')
        .map(str::trim)
        .filter(|k| !k.is_empty())
        .map(|k| {
            BillingMode::parse(k).ok_or_else(|| {
                let known: Vec<&str> = BillingMode::ALL.iter().map(|m| m.key()).collect();
                serde::de::Error::custom(format!("{k:?} is not a billing mode: one of {}", known.join(", ")))
            })
        })
        .collect()
}

/// A source rows cite: a fact sheet's register entry, a benchmark, a spec
/// sheet (`sources.csv`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct Source {
    /// Its id as rows cite it: `article`, `gpu:S<n>`, `prices:S<n>`,
    /// `bench:…`, `spec:…` (`feed:…` in the feed tables).
    pub id: String,
    /// The register it is listed in.
    pub sheet: Register,
    /// What the source is, in the register's words.
    pub title: String,
    /// Its address; empty when the register gives none that is usable.
    pub url: Option<String>,
    /// The register's as-of text, verbatim (`Nov 2022 / Mar 2023`); not
    /// always a date.
    pub date: Option<String>,
}

/// An accelerator model and its published specs (`accelerators.csv`). A
/// family row (`nvidia-a100-80gb`) holds only what all its `variants` share.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct Accelerator {
    /// Catalogue id, `vendor-model[-form][-memory]` (`nvidia-a100-sxm-80gb`).
    pub id: String,
    /// Vendor name in English (`NVIDIA`).
    pub vendor: String,
    /// Vendor name in Chinese (`英伟达`).
    pub vendor_zh: Option<String>,
    /// Product name in English.
    pub name: String,
    /// Product name in Chinese (`昇腾910B`), where it has one.
    pub name_zh: Option<String>,
    /// `true` for a Chinese domestic vendor's part.
    #[serde(deserialize_with = "flex_bool", default)]
    #[cfg_attr(feature = "specta", specta(type = Option<bool>))]
    pub domestic: Option<bool>,
    /// Memory per accelerator, GB as the vendor quotes it.
    pub memory_gb: Option<f64>,
    /// Memory technology (`HBM3`, `GDDR6` …).
    pub memory_type: Option<String>,
    /// Memory bandwidth, GB/s (gigabytes per second).
    pub memory_bandwidth_gbps: Option<f64>,
    /// Dense peak BF16 TFLOPS (no sparsity).
    pub bf16_tflops: Option<f64>,
    /// Dense peak FP16 TFLOPS (no sparsity).
    pub fp16_tflops: Option<f64>,
    /// Dense peak FP8 TFLOPS, where the part has FP8.
    #[serde(default)]
    pub fp8_tflops: Option<f64>,
    /// Dense FP32 TFLOPS (not TF32).
    pub fp32_tflops: Option<f64>,
    /// Dense INT8 TOPS.
    pub int8_tops: Option<f64>,
    /// Design TDP, watts.
    pub tdp_w: Option<f64>,
    /// Scale-up link, free text (`NVLink 4`, `HCCS`).
    pub interconnect: Option<String>,
    /// Scale-up bandwidth, GB/s (gigabytes, not gigabits), bidirectional
    /// aggregate as vendors quote it.
    pub interconnect_gbps: Option<f64>,
    /// Form factor, free text (`SXM5`, `PCIe`, `OAM`).
    pub form_factor: Option<String>,
    /// `;`-separated software (`CANN;MindSpore`); the first name is the stack
    /// the estimate model groups parts by.
    pub software_stack: Option<String>,
    /// The PyTorch adapter the source names (`torch_npu`).
    pub framework_adapter: Option<String>,
    /// Announcement or launch: `YYYY-MM-DD`, `YYYY-MM` or `YYYY`.
    pub release: Option<String>,
    /// For a buyer in China.
    pub export_status_cn: Option<ExportStatus>,
    /// Date the current export status began.
    pub export_status_since: Option<String>,
    /// The source's wording on the export status, with its tags.
    pub export_status_notes: Option<String>,
    /// Price of one card in `list_price_currency` (list, MSRP or reseller;
    /// the notes say which).
    pub list_price: Option<f64>,
    /// Currency of `list_price`.
    pub list_price_currency: Option<Currency>,
    /// Date of `list_price`.
    pub list_price_as_of: Option<String>,
    /// `;`-separated spec fields for which no public figure exists (they
    /// stay empty; an estimate that needs one says so).
    #[serde(default)]
    pub unpublished: Option<String>,
    /// For a row that does not say which variant (`nvidia-a100-80gb`): the
    /// rows it may be (`;`-separated). Its ratio is the weakest of theirs.
    #[serde(default)]
    pub variants: Option<String>,
    /// `;`-separated source ids (`sources.csv`).
    pub source: String,
    /// As-of date of the row's newest dated source; empty when none is dated.
    pub as_of: Option<String>,
    /// Confidence tag of the spec figures (the lowest of their sources).
    pub confidence: Confidence,
    /// Free-text notes: conflicts, figures not stored, reasons.
    pub notes: Option<String>,
}

impl Accelerator {
    /// Whether a spec field is listed as having no public figure.
    pub fn is_unpublished(&self, field: &str) -> bool {
        self.unpublished.as_deref().is_some_and(|u| u.split(';').any(|f| f.trim() == field))
    }

    /// Dense peak compute at a served precision, TFLOPS: the FP8 (INT8)
    /// figure for 8- and 4-bit formats when the part has one, else its
    /// 16-bit figure (a part without FP8 computes 8-bit weights in 16 bits).
    pub fn peak_tflops(&self, precision: Precision) -> Option<f64> {
        let sixteen = self.bf16_tflops.or(self.fp16_tflops);
        match precision {
            Precision::Fp32 => self.fp32_tflops,
            Precision::Bf16 | Precision::Fp16 => sixteen,
            Precision::Fp8 => self.fp8_tflops.or(sixteen),
            Precision::Int8 | Precision::Int4 => self.int8_tops.or(sixteen),
        }
    }

    /// The figures the serving model needs at a precision, when all are published.
    pub fn serving_device(&self, precision: Precision) -> Option<Device> {
        Some(Device {
            dense_tflops: self.peak_tflops(precision)?,
            bandwidth_gbps: self.memory_bandwidth_gbps?,
            memory_gb: self.memory_gb?,
        })
    }
}

/// What kind of seller or source a provider is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub enum ProviderKind {
    /// AWS, Azure, Google Cloud, Oracle.
    Hyperscaler,
    /// A cloud specialised in GPUs (CoreWeave, Lambda, RunPod …).
    GpuCloud,
    /// A Chinese public cloud (Alibaba, Tencent, eSurfing …).
    ChinaCloud,
    /// A server maker selling hardware.
    ServerVendor,
    /// A reseller of hardware or cloud capacity.
    Reseller,
    /// A marketplace listing others' capacity.
    Marketplace,
    /// A dealer or retail channel.
    Dealer,
    /// A market report quoting what the market pays.
    MarketReport,
}

impl ProviderKind {
    /// Its name as the catalogue stores it (`gpu_cloud`).
    pub fn key(self) -> &'static str {
        match self {
            ProviderKind::Hyperscaler => "hyperscaler",
            ProviderKind::GpuCloud => "gpu_cloud",
            ProviderKind::ChinaCloud => "china_cloud",
            ProviderKind::ServerVendor => "server_vendor",
            ProviderKind::Reseller => "reseller",
            ProviderKind::Marketplace => "marketplace",
            ProviderKind::Dealer => "dealer",
            ProviderKind::MarketReport => "market_report",
        }
    }
}

/// A seller of compute: cloud, GPU cloud, Chinese cloud, server vendor or
/// reseller (`providers.csv`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct Provider {
    /// Catalogue id (`aws`).
    pub id: String,
    /// Name in English.
    pub name: String,
    /// Name in Chinese.
    pub name_zh: Option<String>,
    /// ISO 3166 alpha-2; empty where no source says.
    pub country: Option<String>,
    /// What kind of seller or source it is.
    pub kind: ProviderKind,
    /// How it bills (`;`-separated in the CSV); none where no source says.
    #[serde(deserialize_with = "billing_modes", default)]
    #[cfg_attr(feature = "specta", specta(type = Vec<BillingMode>))]
    pub billing_modes: Vec<BillingMode>,
    /// `true` when a bare-metal GPU product is sourced; empty if unsourced.
    #[serde(deserialize_with = "flex_bool", default)]
    #[cfg_attr(feature = "specta", specta(type = Option<bool>))]
    pub bare_metal: Option<bool>,
    /// `true` when tenant-dedicated physical GPUs are sourced; empty if
    /// unsourced.
    #[serde(deserialize_with = "flex_bool", default)]
    #[cfg_attr(feature = "specta", specta(type = Option<bool>))]
    pub dedicated_gpu: Option<bool>,
    /// `true` when encryption in transit is sourced; empty if unsourced.
    #[serde(deserialize_with = "flex_bool", default)]
    #[cfg_attr(feature = "specta", specta(type = Option<bool>))]
    pub encryption_in_transit: Option<bool>,
    /// `;`-separated certifications.
    pub certifications: Option<String>,
    /// Security and compliance facts, free text, including what is unsourced.
    pub security_notes: Option<String>,
    /// `;`-separated source ids (`sources.csv`).
    pub source: String,
    /// As-of date of the row's newest dated source.
    pub as_of: Option<String>,
    /// Confidence tag (the lowest of the cited sources).
    pub confidence: Confidence,
    /// Free-text notes: conflicts, figures not stored, reasons.
    pub notes: Option<String>,
}

/// The security features a provider's flags name, as a need names them.
pub const SECURITY_FLAGS: [&str; 3] = ["bare_metal", "dedicated_gpu", "encryption_in_transit"];

impl Provider {
    /// The security features its flags say it has (`bare_metal` …).
    pub fn security_flags(&self) -> Vec<String> {
        let on = [self.bare_metal, self.dedicated_gpu, self.encryption_in_transit];
        SECURITY_FLAGS.iter().zip(on).filter(|(_, on)| *on == Some(true)).map(|(name, _)| (*name).to_owned()).collect()
    }

    /// Whether it meets a security need: one of [`SECURITY_FLAGS`] it has,
    /// or a certification it lists (both compared ignoring case; a
    /// certification by substring, so `iso 27001` finds `ISO 27001:2022`).
    pub fn meets(&self, need: &str) -> bool {
        let need = need.trim().to_lowercase();
        self.security_flags().contains(&need)
            || self.certifications.as_deref().is_some_and(|c| c.to_lowercase().contains(&need))
    }
}

/// A price for compute: rental per hour or month, or a server purchase.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct Offer {
    /// Stable id (`provider-instance[-region]-billing[-suffix]` in the bundled
    /// data); an imported or price-book offer with the same id shadows it.
    pub id: String,
    /// The provider's id.
    pub provider_id: String,
    /// The accelerator's id; empty when the source names none.
    pub accelerator_id: Option<String>,
    /// Instance type, shape or system name as the source writes it.
    pub instance: Option<String>,
    /// Region code (`us-east-1`) or the source's word (`global`, `cn`); empty
    /// when not stated.
    pub region: Option<String>,
    /// How it is billed.
    pub billing_mode: BillingMode,
    /// Accelerators in one instance or server; required above 0 for a price
    /// per instance.
    pub accelerators_per_instance: Option<f64>,
    /// The price, in `currency` per `price_unit`; the low end when the
    /// source quotes a range.
    pub price: f64,
    /// The high end of a range the source quotes ("15,600–17,040 per
    /// month"), in the same currency and unit; empty for a single figure.
    #[serde(default)]
    pub price_high: Option<f64>,
    /// What `price` is for.
    pub price_unit: PriceUnit,
    /// Currency of `price`, as the source quotes it.
    pub currency: Currency,
    /// How much is paid up front; empty when not stated.
    pub upfront: Option<Upfront>,
    /// Network and scale-up facts for the instance, free text.
    pub interconnect: Option<String>,
    /// Date the source gives for the price; empty when it gives none.
    pub as_of: Option<String>,
    /// `;`-separated source ids; for an import, the feed and its version.
    pub source: String,
    /// Confidence tag of the price.
    pub confidence: Confidence,
    /// Free-text notes: conflicts, figures not stored, reasons.
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

    /// The high end of the source's range per accelerator-hour, when it
    /// quotes one (the low end is [`Offer::price_per_accel_hour`]).
    pub fn price_high_per_accel_hour(&self) -> Option<f64> {
        let high = self.price_high?;
        Offer { price: high, price_high: None, ..self.clone() }.price_per_accel_hour()
    }
}

/// A published throughput ratio between two accelerators for one workload
/// class (`efficiency.csv`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct Efficiency {
    /// Row id.
    pub id: String,
    /// The accelerator rated.
    pub accelerator_id: String,
    /// The workload the ratio is for.
    pub workload_class: WorkloadClass,
    /// Measured throughput ÷ the reference accelerator's on the same workload.
    pub ratio: f64,
    /// The accelerator it is relative to (normally `nvidia-a100-sxm-80gb`).
    pub reference_accelerator_id: String,
    /// Benchmark, harness and the arithmetic.
    pub method: Option<String>,
    /// `;`-separated source ids (`sources.csv`).
    pub source: String,
    /// As-of date of the newest dated source.
    pub as_of: Option<String>,
    /// `M` or `D` rows count as measured; any other tag (`V`, `P` …) as a
    /// claim.
    pub confidence: Confidence,
    /// Free-text notes: conflicts, figures not stored, reasons.
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
    /// Row id, from suite, version, case, part, count, precision and submitter.
    pub id: String,
    /// The suite or publisher.
    pub suite: Suite,
    /// FlagPerf commit, MLPerf round (`v4.1`), paper id.
    pub suite_version: Option<String>,
    /// The suite's own case or benchmark id (`llama3_8B-megatron`, `resnet`).
    pub case: String,
    /// Which of a case's figures (FlagPerf's `p_whole` / `p_core`, a stage).
    pub variant: Option<String>,
    /// Who ran it: the MLPerf submitter, the FlagPerf vendor directory.
    pub submitter: Option<String>,
    /// The workload class the case stands for.
    pub workload_class: WorkloadClass,
    /// The model trained or served, as published.
    pub model: Option<String>,
    /// Numeric precision of the run, as published (`fp32`, `bf16`).
    pub precision: Option<String>,
    /// Sequence length, tokens.
    pub sequence_length: Option<f64>,
    /// Batch configuration, free text (`fix_hp: bs=12`).
    pub batch: Option<String>,
    /// Accelerators in the run.
    pub accelerators: f64,
    /// Nodes in the run.
    pub nodes: Option<f64>,
    /// Parallelism, as published.
    pub parallel: Option<String>,
    /// Framework, as published.
    pub framework: Option<String>,
    /// Framework version, as published.
    pub framework_version: Option<String>,
    /// MLPerf inference scenario (Offline, Server, Interactive).
    pub inference_scenario: Option<String>,
    /// The catalogue accelerator that ran it.
    pub accelerator_id: String,
    /// The hardware as the source names it.
    pub system: Option<String>,
    /// What `value` measures.
    pub metric: Metric,
    /// Empty when the source published none ("/", "--", blank).
    pub value: Option<f64>,
    /// The cell exactly as published.
    pub published_as: Option<String>,
    /// On an MFU row: the peak, TFLOPS, the suite divided by to give it,
    /// as the suite's configuration for the run records it (FlagPerf's
    /// `theoryflops`). Empty where no configuration records one: MFU is
    /// then not turned into throughput.
    #[serde(default)]
    pub mfu_peak_tflops: Option<f64>,
    /// Where that peak is recorded: repository, commit and path.
    #[serde(default)]
    pub mfu_peak_location: Option<String>,
    /// Set when the result is kept out of every comparison: the suite marks
    /// it for reference only, or the run changed the model (the notes say
    /// where the source says so).
    #[serde(default)]
    pub kept_out: Option<KeptOut>,
    /// Repository, commit and path, or URL.
    pub location: String,
    /// Source id (`bench:…`).
    pub source: String,
    /// As-of date of the result, as its source gives it.
    pub as_of: Option<String>,
    /// `M` measured; `D` computed from the run's logs by the suite's own rule.
    pub confidence: Confidence,
    /// Free-text notes: conflicts, figures not stored, reasons.
    pub notes: Option<String>,
}

impl Measurement {
    /// The value, where a comparison may use it: a finite figure above 0,
    /// on a row not kept out.
    pub fn comparable_value(&self) -> Option<f64> {
        self.value.filter(|v| self.kept_out.is_none() && *v > 0.0 && v.is_finite())
    }
}

/// How much per-accelerator throughput a multi-accelerator run keeps
/// (`scaling.csv`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScalingPoint {
    /// Row id.
    pub id: String,
    /// Workload, cluster and what was compared, in words.
    pub setup: String,
    /// The accelerator; empty when the source does not name it.
    pub accelerator_id: Option<String>,
    /// Accelerators at the measured scale.
    pub accelerators: Option<f64>,
    /// Share of per-accelerator throughput kept against the smaller baseline
    /// (or linear scaling), in (0, 1].
    pub efficiency: f64,
    /// The interconnect, as stated.
    pub interconnect: Option<String>,
    /// `;`-separated source ids (`sources.csv`).
    pub source: String,
    /// As-of date of the newest dated source.
    pub as_of: Option<String>,
    /// Confidence tag.
    pub confidence: Confidence,
    /// Free-text notes: conflicts, figures not stored, reasons.
    pub notes: Option<String>,
}

/// How one instance or server's accelerators are connected, inside the node
/// and to other nodes, and whether its provider sells clusters of it
/// (`nodes.csv`). A fact no source states is `not_stated` or empty.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct Node {
    /// Row id (`provider-instance`).
    pub id: String,
    /// The provider's id.
    pub provider_id: String,
    /// The instance as the provider's offers spell it.
    pub instance: String,
    /// The accelerator's id.
    pub accelerator_id: Option<String>,
    /// Accelerators in one node.
    pub accelerators_per_node: Option<f64>,
    /// How the node's accelerators reach each other.
    pub scale_up: ScaleUp,
    /// Accelerator-to-accelerator bandwidth per accelerator, GB/s, as stated.
    pub scale_up_gbps: Option<f64>,
    /// The network between nodes.
    pub scale_out: ScaleOut,
    /// That network's bandwidth per node, Gbit/s.
    pub scale_out_gbps: Option<f64>,
    /// Whether accelerator memory moves between nodes without the CPU.
    #[serde(deserialize_with = "flex_bool", default)]
    #[cfg_attr(feature = "specta", specta(type = Option<bool>))]
    pub gpudirect_rdma: Option<bool>,
    /// Whether the provider sells multi-node clusters of it.
    pub multi_node: MultiNode,
    /// The largest cluster the provider states, in accelerators.
    pub max_cluster_accelerators: Option<f64>,
    /// `;`-separated source ids (`sources.csv`).
    pub source: String,
    /// As-of date of the newest dated source.
    pub as_of: Option<String>,
    /// Confidence tag.
    pub confidence: Confidence,
    /// What the sources say, and what they leave unsaid.
    pub notes: Option<String>,
}

/// A dated reference exchange rate (`fx.csv`): what a scenario without its
/// own rate for a currency uses, said as an assumption wherever it is used.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ReferenceRate {
    /// The currency.
    pub currency: Currency,
    /// Yuan per unit of it.
    pub cny_per_unit: f64,
    /// The rate's date.
    pub as_of: Option<String>,
    /// `;`-separated source ids (`sources.csv`).
    pub source: String,
    /// Confidence tag.
    pub confidence: Confidence,
    /// Free-text notes.
    pub notes: Option<String>,
}

/// An export-control event or rule (`export_controls.csv`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExportControl {
    /// Row id (`jurisdiction-date-what`).
    pub id: String,
    /// Empty for rules of thumb that are not dated events.
    pub date: Option<String>,
    /// Who made the rule, ISO 3166 alpha-2 (`US`).
    pub jurisdiction: String,
    /// The rule, in the source's words.
    pub rule: String,
    /// `;`-separated accelerator ids, or a description.
    pub affected: Option<String>,
    /// What it did, in the source's words.
    pub effect: Option<String>,
    /// `;`-separated source ids (`sources.csv`).
    pub source: String,
    /// Confidence tag.
    pub confidence: Confidence,
    /// Free-text notes: conflicts, figures not stored, reasons.
    pub notes: Option<String>,
}

/// The whole catalogue as plain rows: what the bundled CSVs, a pack or an
/// export hold.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Tables {
    /// Every source.
    pub sources: Vec<Source>,
    /// Every accelerator.
    pub accelerators: Vec<Accelerator>,
    /// Every provider.
    pub providers: Vec<Provider>,
    /// The catalogue's offers (not imported or price-book ones).
    pub offers: Vec<Offer>,
    /// Published ratios.
    pub efficiency: Vec<Efficiency>,
    /// Older packs have none.
    #[serde(default)]
    pub measurements: Vec<Measurement>,
    /// Scaling-efficiency points.
    pub scaling: Vec<ScalingPoint>,
    /// Export-control events.
    pub export_controls: Vec<ExportControl>,
    /// Node and fabric facts of instances; older packs have none.
    #[serde(default)]
    pub nodes: Vec<Node>,
    /// Reference exchange rates; older packs have none.
    #[serde(default)]
    pub reference_rates: Vec<ReferenceRate>,
}

//! The catalogue's closed sets: billing modes, price units and confidence
//! tags. Parsed where rows enter (CSV, packs, imports, the database), so
//! nothing deeper compares strings.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use suanli_model::Lang;

/// How an offer is billed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub enum BillingMode {
    /// Pay as you go, no commitment.
    OnDemand,
    /// Reserved for one year.
    #[serde(rename = "reserved_1y")]
    Reserved1y,
    /// Reserved for three years.
    #[serde(rename = "reserved_3y")]
    Reserved3y,
    /// Spare capacity at a lower price, which the provider may take back.
    Spot,
    /// Billed by the month (包月).
    Monthly,
    /// An hourly rate in exchange for a committed spend.
    SavingsPlan,
    /// A server bought outright.
    Purchase,
}

impl BillingMode {
    /// Every billing mode.
    pub const ALL: [BillingMode; 7] = [
        BillingMode::OnDemand,
        BillingMode::Reserved1y,
        BillingMode::Reserved3y,
        BillingMode::Spot,
        BillingMode::Monthly,
        BillingMode::SavingsPlan,
        BillingMode::Purchase,
    ];

    /// The name in files and JSON (`reserved_1y`).
    pub fn key(self) -> &'static str {
        match self {
            BillingMode::OnDemand => "on_demand",
            BillingMode::Reserved1y => "reserved_1y",
            BillingMode::Reserved3y => "reserved_3y",
            BillingMode::Spot => "spot",
            BillingMode::Monthly => "monthly",
            BillingMode::SavingsPlan => "savings_plan",
            BillingMode::Purchase => "purchase",
        }
    }

    /// The mode for a reader, in English or Chinese.
    pub fn label(self, lang: Lang) -> &'static str {
        match self {
            BillingMode::OnDemand => lang.pick("on demand", "按需"),
            BillingMode::Reserved1y => lang.pick("reserved 1 year", "预留 1 年"),
            BillingMode::Reserved3y => lang.pick("reserved 3 years", "预留 3 年"),
            BillingMode::Spot => lang.pick("spot", "竞价"),
            BillingMode::Monthly => lang.pick("monthly", "包月"),
            BillingMode::SavingsPlan => lang.pick("savings plan", "节省计划"),
            BillingMode::Purchase => lang.pick("purchase", "购买"),
        }
    }

    /// Months of commitment of a committed mode: a month for monthly
    /// billing, and a year for a savings plan (its offers do not say
    /// whether one or three); none for on demand, spot and purchases.
    pub fn term_months(self) -> Option<u32> {
        match self {
            BillingMode::Reserved1y | BillingMode::SavingsPlan => Some(12),
            BillingMode::Reserved3y => Some(36),
            BillingMode::Monthly => Some(1),
            BillingMode::OnDemand | BillingMode::Spot | BillingMode::Purchase => None,
        }
    }

    /// The reserved mode that commits for `months` (12 or 36), if one does.
    pub fn reserved_for_term(months: u32) -> Option<BillingMode> {
        [BillingMode::Reserved1y, BillingMode::Reserved3y].into_iter().find(|m| m.term_months() == Some(months))
    }

    /// The mode whose key is `text` (surrounding spaces ignored).
    pub fn parse(text: &str) -> Option<BillingMode> {
        BillingMode::ALL.into_iter().find(|m| m.key() == text.trim())
    }
}

/// Which layer an offer comes from; by id, an import shadows the catalogue
/// and the user's price book shadows both.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub enum OfferOrigin {
    /// The bundled catalogue (or a pack applied to it).
    Catalogue,
    /// A price feed the user imported or refreshed.
    Import,
    /// The user's own price book.
    Pricebook,
}

/// How much of a committed price is paid up front.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub enum Upfront {
    /// Nothing: paid as used or monthly.
    None,
    /// Part up front, the rest over the term.
    Partial,
    /// The whole term's price up front.
    All,
}

impl Upfront {
    /// Every value, in the order the CSV documents them.
    pub const ALL: [Upfront; 3] = [Upfront::None, Upfront::Partial, Upfront::All];

    /// The key used in CSV, packs and JSON.
    pub fn key(self) -> &'static str {
        match self {
            Upfront::None => "none",
            Upfront::Partial => "partial",
            Upfront::All => "all",
        }
    }

    /// The value whose key is `text` (surrounding spaces ignored).
    pub fn parse(text: &str) -> Option<Upfront> {
        Upfront::ALL.into_iter().find(|u| u.key() == text.trim())
    }
}

/// What an offer's price is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub enum PriceUnit {
    /// Per instance per hour.
    InstanceHour,
    /// Per accelerator per hour.
    AcceleratorHour,
    /// Per instance per month.
    InstanceMonth,
    /// The price of one server (a purchase).
    Server,
}

impl PriceUnit {
    /// Every price unit.
    pub const ALL: [PriceUnit; 4] =
        [PriceUnit::InstanceHour, PriceUnit::AcceleratorHour, PriceUnit::InstanceMonth, PriceUnit::Server];

    /// The name in files and JSON (`instance_hour`).
    pub fn key(self) -> &'static str {
        match self {
            PriceUnit::InstanceHour => "instance_hour",
            PriceUnit::AcceleratorHour => "accelerator_hour",
            PriceUnit::InstanceMonth => "instance_month",
            PriceUnit::Server => "server",
        }
    }

    /// The unit for a reader, in English or Chinese (`per instance-hour`).
    pub fn label(self, lang: Lang) -> &'static str {
        match self {
            PriceUnit::InstanceHour => lang.pick("per instance-hour", "每实例小时"),
            PriceUnit::AcceleratorHour => lang.pick("per accelerator-hour", "每卡时"),
            PriceUnit::InstanceMonth => lang.pick("per instance-month", "每实例月"),
            PriceUnit::Server => lang.pick("per server", "每台服务器"),
        }
    }

    /// Priced per instance: needs the accelerators per instance.
    pub fn per_instance(self) -> bool {
        matches!(self, PriceUnit::InstanceHour | PriceUnit::InstanceMonth)
    }
}

/// How sure a figure is: the fact sheets' tags (see `data/catalog/README.md`),
/// plus `user` for what the user typed into the price book.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub enum Confidence {
    /// Vendor datasheet or launch material.
    V,
    /// Measured benchmark with a public log.
    M,
    /// Measurement context only (e.g. memory seen on a test rig).
    #[serde(rename = "M-context")]
    MContext,
    /// Third-party press or analyst report.
    P,
    /// Low-reliability press.
    #[serde(rename = "P-low")]
    PLow,
    /// Community-compiled dataset.
    C,
    /// Derived by arithmetic from sourced inputs.
    D,
    /// Unsourced estimate.
    U,
    /// Provider data or a machine-generated catalogue.
    A,
    /// A third party transcribing the provider's page, with the date read.
    B,
    /// Conflicting or suspect.
    X,
    /// Entered by the user (price book).
    #[serde(rename = "user")]
    User,
}

impl Confidence {
    /// The tag as files write it (`P-low`, `user`).
    pub fn key(self) -> &'static str {
        match self {
            Confidence::V => "V",
            Confidence::M => "M",
            Confidence::MContext => "M-context",
            Confidence::P => "P",
            Confidence::PLow => "P-low",
            Confidence::C => "C",
            Confidence::D => "D",
            Confidence::U => "U",
            Confidence::A => "A",
            Confidence::B => "B",
            Confidence::X => "X",
            Confidence::User => "user",
        }
    }

    /// Order of preference when two sources give the same figure: the
    /// user's own first, then measured and provider data, unsourced and suspect last.
    pub fn rank(self) -> u8 {
        match self {
            Confidence::User => 0,
            Confidence::M => 1,
            Confidence::D => 2,
            Confidence::A => 3,
            Confidence::B => 4,
            Confidence::V => 5,
            Confidence::MContext => 6,
            Confidence::P => 7,
            Confidence::PLow => 8,
            Confidence::C => 9,
            Confidence::U => 10,
            Confidence::X => 11,
        }
    }

    /// The weaker of two.
    pub fn weaker(self, other: Confidence) -> Confidence {
        if other.rank() > self.rank() { other } else { self }
    }
}

/// How the accelerators of one node reach each other.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub enum ScaleUp {
    /// NVLink through NVSwitch: every accelerator to every other at full bandwidth.
    Nvswitch,
    /// NVLink bridges between pairs or rings, no switch.
    Nvlink,
    /// Huawei's HCCS.
    Hccs,
    /// AMD Infinity Fabric.
    InfinityFabric,
    /// PCIe only.
    Pcie,
    /// No source states it.
    NotStated,
}

/// The network a node's accelerators use to reach other nodes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub enum ScaleOut {
    /// InfiniBand.
    Infiniband,
    /// RDMA over Converged Ethernet.
    Roce,
    /// AWS Elastic Fabric Adapter.
    Efa,
    /// Google's GPUDirect-TCPX / TCPXO.
    GpudirectTcpx,
    /// Plain Ethernet (TCP/IP, no RDMA).
    Ethernet,
    /// No source states it: the node is taken as standing alone.
    NotStated,
}

impl ScaleOut {
    /// Whether a source states a network between nodes.
    pub fn stated(self) -> bool {
        self != ScaleOut::NotStated
    }

    /// Whether it moves accelerator memory between nodes without the CPU.
    pub fn rdma(self) -> bool {
        matches!(self, ScaleOut::Infiniband | ScaleOut::Roce | ScaleOut::Efa | ScaleOut::GpudirectTcpx)
    }
}

/// Whether a provider sells multi-node clusters of an instance.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub enum MultiNode {
    /// Documented clusters for distributed training.
    Sold,
    /// The provider says the instance stands alone.
    NotSold,
    /// No source says.
    NotStated,
}

impl ScaleUp {
    /// The name in files and JSON (`nvswitch`).
    pub fn key(self) -> &'static str {
        match self {
            ScaleUp::Nvswitch => "nvswitch",
            ScaleUp::Nvlink => "nvlink",
            ScaleUp::Hccs => "hccs",
            ScaleUp::InfinityFabric => "infinity_fabric",
            ScaleUp::Pcie => "pcie",
            ScaleUp::NotStated => "not_stated",
        }
    }

    /// For a reader.
    pub fn label(self, lang: Lang) -> &'static str {
        match self {
            ScaleUp::Nvswitch => "NVLink/NVSwitch",
            ScaleUp::Nvlink => lang.pick("NVLink bridges", "NVLink 桥接"),
            ScaleUp::Hccs => "HCCS",
            ScaleUp::InfinityFabric => "Infinity Fabric",
            ScaleUp::Pcie => lang.pick("PCIe only", "仅 PCIe"),
            ScaleUp::NotStated => lang.pick("in-node link not stated", "节点内互联未说明"),
        }
    }
}

impl ScaleOut {
    /// The name in files and JSON (`infiniband`).
    pub fn key(self) -> &'static str {
        match self {
            ScaleOut::Infiniband => "infiniband",
            ScaleOut::Roce => "roce",
            ScaleOut::Efa => "efa",
            ScaleOut::GpudirectTcpx => "gpudirect_tcpx",
            ScaleOut::Ethernet => "ethernet",
            ScaleOut::NotStated => "not_stated",
        }
    }

    /// For a reader.
    pub fn label(self, lang: Lang) -> &'static str {
        match self {
            ScaleOut::Infiniband => "InfiniBand",
            ScaleOut::Roce => "RoCE",
            ScaleOut::Efa => "EFA",
            ScaleOut::GpudirectTcpx => "GPUDirect-TCPX",
            ScaleOut::Ethernet => lang.pick("Ethernet (no RDMA)", "以太网（无 RDMA）"),
            ScaleOut::NotStated => lang.pick("network between nodes not stated", "节点间网络未说明"),
        }
    }
}

impl MultiNode {
    /// The name in files and JSON (`sold`).
    pub fn key(self) -> &'static str {
        match self {
            MultiNode::Sold => "sold",
            MultiNode::NotSold => "not_sold",
            MultiNode::NotStated => "not_stated",
        }
    }
}

macro_rules! display_by_key {
    ($($t:ty),+) => {$(
        impl fmt::Display for $t {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.key())
            }
        }
    )+};
}
/// Who published a measurement.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub enum Suite {
    /// BAAI's FlagPerf (vendors run it; test code is open).
    Flagperf,
    /// MLPerf Training, closed division.
    MlperfTraining,
    /// MLPerf Inference, closed division.
    MlperfInference,
    /// A vendor's own published table.
    Vendor,
    /// A research paper's published results.
    Paper,
    /// A community-compiled result.
    Community,
}

impl Suite {
    /// The name in files and JSON (`mlperf_training`).
    pub fn key(self) -> &'static str {
        match self {
            Suite::Flagperf => "flagperf",
            Suite::MlperfTraining => "mlperf_training",
            Suite::MlperfInference => "mlperf_inference",
            Suite::Vendor => "vendor",
            Suite::Paper => "paper",
            Suite::Community => "community",
        }
    }

    /// The suite for a reader (`MLPerf Training`).
    pub fn label(self) -> &'static str {
        match self {
            Suite::Flagperf => "FlagPerf",
            Suite::MlperfTraining => "MLPerf Training",
            Suite::MlperfInference => "MLPerf Inference",
            Suite::Vendor => "vendor",
            Suite::Paper => "paper",
            Suite::Community => "community",
        }
    }

    /// Results of one round only compare with the same round (software and
    /// rules change between MLPerf rounds); FlagPerf cases are fixed.
    pub fn round_matters(self) -> bool {
        matches!(self, Suite::MlperfTraining | Suite::MlperfInference)
    }
}

/// What a measurement's value is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub enum Metric {
    /// Tokens per second per accelerator.
    TokensPerAccelSecond,
    /// Whole system.
    TokensPerSecond,
    /// Whole system.
    SamplesPerSecond,
    /// Samples per second per accelerator.
    SamplesPerAccelSecond,
    /// Model FLOPs utilisation: a fraction of the peak the suite took it
    /// against (`Measurement::mfu_peak_tflops`, where recorded).
    Mfu,
    /// Measured TFLOPS.
    Tflops,
    /// Measured GB/s.
    Gbps,
    /// Time to train to the target quality (lower is faster).
    MinutesToTrain,
}

impl Metric {
    /// The name in files and JSON (`tokens_per_second`).
    pub fn key(self) -> &'static str {
        match self {
            Metric::TokensPerAccelSecond => "tokens_per_accel_second",
            Metric::TokensPerSecond => "tokens_per_second",
            Metric::SamplesPerSecond => "samples_per_second",
            Metric::SamplesPerAccelSecond => "samples_per_accel_second",
            Metric::Mfu => "mfu",
            Metric::Tflops => "tflops",
            Metric::Gbps => "gbps",
            Metric::MinutesToTrain => "minutes_to_train",
        }
    }

    /// Work per accelerator per unit of time, from the value and the run's
    /// accelerator count; `None` for MFU (it needs the peak the suite used).
    pub fn per_accelerator(self, value: f64, accelerators: f64) -> Option<f64> {
        match self {
            Metric::TokensPerAccelSecond | Metric::SamplesPerAccelSecond | Metric::Tflops | Metric::Gbps => Some(value),
            Metric::TokensPerSecond | Metric::SamplesPerSecond => Some(value / accelerators),
            Metric::MinutesToTrain => Some(1.0 / (value * accelerators)),
            Metric::Mfu => None,
        }
    }
}

/// Why a published result is kept out of every comparison.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub enum KeptOut {
    /// The suite marks it "for performance reference only" (FlagPerf's
    /// 仅供性能参考: its accuracy was not checked against the baseline).
    ReferenceOnly,
    /// The run changed the model it names (fewer layers, say).
    ModelChanged,
}

impl KeptOut {
    /// The name in files and JSON (`reference_only`).
    pub fn key(self) -> &'static str {
        match self {
            KeptOut::ReferenceOnly => "reference_only",
            KeptOut::ModelChanged => "model_changed",
        }
    }
}

display_by_key!(BillingMode, PriceUnit, Confidence, Suite, Metric, ScaleUp, ScaleOut, MultiNode, KeptOut);

impl FromStr for BillingMode {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        BillingMode::parse(s).ok_or_else(|| {
            let allowed: Vec<&str> = BillingMode::ALL.iter().map(|m| m.key()).collect();
            format!("{s:?} is not a billing mode: one of {}", allowed.join(", "))
        })
    }
}

impl Confidence {
    /// Every tag.
    pub const ALL: [Confidence; 12] = [
        Confidence::V,
        Confidence::M,
        Confidence::MContext,
        Confidence::P,
        Confidence::PLow,
        Confidence::C,
        Confidence::D,
        Confidence::U,
        Confidence::A,
        Confidence::B,
        Confidence::X,
        Confidence::User,
    ];
}

impl FromStr for Confidence {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Confidence::ALL.into_iter().find(|c| c.key() == s.trim()).ok_or_else(|| {
            let allowed: Vec<&str> = Confidence::ALL.iter().map(|c| c.key()).collect();
            format!("{s:?} is not a confidence tag: one of {}", allowed.join(", "))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_in_files_are_the_keys() {
        for m in BillingMode::ALL {
            assert_eq!(serde_json::to_value(m).unwrap_or_default(), m.key());
        }
        for u in PriceUnit::ALL {
            assert_eq!(serde_json::to_value(u).unwrap_or_default(), u.key());
        }
        for c in Confidence::ALL {
            assert_eq!(serde_json::to_value(c).unwrap_or_default(), c.key());
        }
    }
}

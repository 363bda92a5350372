//! The catalogue's and the price book's command-line arguments (clap), and
//! the use cases' values they stand for (the offers filter, removals).

use std::path::PathBuf;

use clap::{Args, Subcommand, ValueEnum};
use suanli_api::catalog::{BillingMode, Confidence, InferenceModel, Jurisdiction, OfferFilter, OfferSort, Removals};
use suanli_api::{Currency, LatencyClass, Precision, WorkloadClass};

use crate::Format;
use crate::jurisdiction::JurisdictionArg;

#[allow(clippy::large_enum_variant)]
#[derive(Subcommand, Debug)]
pub enum CatalogCommand {
    /// List accelerators, providers or offers, filtered and sorted. 列出加速卡、供应商或报价。
    List {
        #[command(subcommand)]
        what: ListWhat,
    },
    /// Show one accelerator, provider, offer or source with its provenance. 查看单项及其来源。
    Show {
        id: String,
        /// Workload class for an offer's effective price (e.g. llm_pretraining). 工作负载类别。
        #[arg(long)]
        workload: Option<WorkloadClass>,
        #[arg(long, value_enum, default_value_t = Format::Table)]
        format: Format,
    },
    /// How well the estimate model predicts each measured ratio when that ratio
    /// is left out of its fit (leave-one-out), per workload class. 估算模型的留一法校准。
    Calibration {
        #[arg(long, value_enum, default_value_t = Format::Table)]
        format: Format,
    },
    /// The cluster model's scaling fits: each fabric class, its measured
    /// multi-node points and the fit's error at each (also left out). 集群扩展效率拟合。
    Scaling {
        #[arg(long, value_enum, default_value_t = Format::Table)]
        format: Format,
    },
    /// Full-text search over names in Chinese and English. 中英文名称全文搜索。
    Search {
        text: String,
        #[arg(long, value_enum, default_value_t = Format::Table)]
        format: Format,
    },
    /// Import a price feed: all valid rows land in one transaction. 导入价格数据。
    Import(ImportArgs),
    /// What each catalogue change did (upgrades, imports, packs). 目录变更记录。
    Changes {
        /// One change's offers: new, repriced (old → new), removed. 某次变更的明细。
        id: Option<i64>,
        #[arg(long, value_enum, default_value_t = Format::Table)]
        format: Format,
    },
    /// Download public price feeds and import them in one transaction (the network, only when asked). 联网刷新公开价格数据（单一事务）。
    Refresh {
        /// skypilot:CLOUD[,CLOUD…] and/or azure, e.g. skypilot:aws,gcp,azure. 数据源。
        #[arg(long = "from", default_value = "skypilot:aws,gcp,lambda,azure")]
        from: String,
        /// A mirror of the SkyPilot catalogue; {cloud} is replaced by the cloud name. SkyPilot 目录镜像地址。
        #[arg(long)]
        skypilot_url: Option<String>,
        /// A mirror of the Azure Retail Prices API (first page). Azure 价格接口镜像地址。
        #[arg(long)]
        azure_url: Option<String>,
    },
    /// Show or set after how many months a price is marked stale (default 6). 价格过时阈值（月，默认 6）。
    StaleAfter { months: Option<u32> },
    /// Signed catalogue packs: export, verify, apply. 签名目录包：导出、校验、应用。
    Pack {
        #[command(subcommand)]
        action: PackAction,
    },
    /// Download a pack from URL (and URL.minisig), verify it, apply it atomically. 联网更新目录。
    Update {
        #[arg(long)]
        url: String,
        /// Accept a pack without a signature. 允许未签名的目录包。
        #[arg(long)]
        allow_unsigned: bool,
        /// Let the pack remove more than 10 % of a table's rows. 允许移除超过 10% 的行。
        #[arg(long)]
        allow_removals: bool,
    },
    /// Trust a minisign public key file for packs (a key id already trusted
    /// with another key is refused: untrust it first). 信任用于签名目录包的公钥。
    Trust {
        public_key: PathBuf,
        #[arg(long, default_value = "")]
        label: String,
    },
    /// Stop trusting a key, by its key id. 取消信任公钥。
    Untrust { key_id: String },
    /// Make a key pair for signing packs: DIR/suanli.pub and DIR/suanli.key. 生成签名密钥对。
    Keygen {
        #[arg(long)]
        out: PathBuf,
    },
}

// Parsed once per run: the size of a variant does not matter.
#[allow(clippy::large_enum_variant)]
#[derive(Subcommand, Debug)]
pub enum ListWhat {
    Accelerators {
        #[arg(long)]
        vendor: Option<String>,
        /// Only Chinese domestic accelerators. 仅国产加速卡。
        #[arg(long)]
        domestic: bool,
        /// Only non-domestic. 仅非国产。
        #[arg(long, conflicts_with = "domestic")]
        foreign: bool,
        #[arg(long)]
        min_memory_gb: Option<f64>,
        /// Only what a buyer in this jurisdiction can obtain (cn). 仅列出该地区买方可获得的型号。
        #[arg(long, value_enum)]
        obtainable_in: Option<JurisdictionArg>,
        #[arg(long, value_enum, default_value_t = Format::Table)]
        format: Format,
    },
    Providers {
        #[arg(long, value_enum, default_value_t = Format::Table)]
        format: Format,
    },
    Offers(OfferArgs),
    /// Accelerators for a workload class (--workload): each one's ratio with
    /// its basis, ranked by its best offer per reference-GPU-hour (or per
    /// million tokens with --model-params). 按负载比较加速卡。
    ForWorkload(OfferArgs),
}

#[derive(Args, Debug)]
pub struct OfferArgs {
    #[arg(long)]
    accelerator: Option<String>,
    #[arg(long)]
    vendor: Option<String>,
    #[arg(long)]
    domestic: bool,
    /// on_demand, reserved_1y, reserved_3y, spot, monthly, purchase …
    #[arg(long)]
    billing: Option<BillingMode>,
    #[arg(long)]
    provider: Option<String>,
    /// Provider country, ISO 3166 (CN, US …). 供应商所在国家。
    #[arg(long)]
    country: Option<String>,
    #[arg(long)]
    region: Option<String>,
    #[arg(long, value_enum)]
    obtainable_in: Option<JurisdictionArg>,
    /// Bounds on the price per accelerator-hour, in --currency. 每卡时价格范围。
    #[arg(long)]
    min_price: Option<f64>,
    #[arg(long)]
    max_price: Option<f64>,
    /// Compare prices in this currency (needs --fx for others). 以该货币比较价格。
    #[arg(long)]
    currency: Option<Currency>,
    /// Exchange rates: CODE=units of --currency per unit (USD=7.1106). 汇率。
    #[arg(long, value_parser = parse_fx)]
    fx: Vec<(Currency, f64)>,
    #[arg(long)]
    bare_metal: bool,
    #[arg(long)]
    dedicated_gpu: bool,
    #[arg(long)]
    encryption_in_transit: bool,
    /// A certification the provider must hold (substring, e.g. "MLPS"). 所需认证。
    #[arg(long)]
    certification: Option<String>,
    /// Workload class for effective prices (llm_pretraining, vision_training …). 工作负载类别。
    #[arg(long)]
    workload: Option<WorkloadClass>,
    /// Serving an LLM of this many parameters (70e9): tokens per second and
    /// cost per million tokens per offer. 推理模型参数量：给出每百万 token 成本。
    #[arg(long)]
    model_params: Option<f64>,
    /// Weights' precision for --model-params (bf16, fp8, int8, int4 …). 权重精度。
    #[arg(long, value_enum, default_value_t = PrecisionArg::Bf16)]
    precision: PrecisionArg,
    /// Context tokens per request. 每个请求的上下文长度。
    #[arg(long, default_value_t = 4096.0)]
    context: f64,
    /// interactive (50 ms/token), standard (100 ms) or batch. 时延等级。
    #[arg(long, value_enum, default_value_t = LatencyArg::Standard)]
    latency: LatencyArg,
    /// KV cache bytes per token (the model's own figure). 每 token 的 KV 缓存字节数。
    #[arg(long)]
    kv_bytes: Option<f64>,
    #[arg(long, value_enum, default_value_t = SortArg::Id)]
    sort: SortArg,
    /// Leave out your own price-book offers. 不含价格簿中的报价。
    #[arg(long)]
    no_pricebook: bool,
    #[arg(long, value_enum, default_value_t = Format::Table)]
    pub(super) format: Format,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum SortArg {
    Id,
    Price,
    Effective,
    /// Cost per million output tokens (with --model-params).
    PerMillionTokens,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum PrecisionArg {
    Fp32,
    Bf16,
    Fp16,
    Fp8,
    Int8,
    Int4,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum LatencyArg {
    Interactive,
    Standard,
    Batch,
}

fn parse_fx(s: &str) -> Result<(Currency, f64), String> {
    let (code, rate) = s.split_once('=').ok_or_else(|| format!("{s:?}: expected CODE=RATE, e.g. USD=7.1106"))?;
    let rate: f64 = rate.parse().map_err(|_| format!("{rate:?} is not a number"))?;
    if !(rate.is_finite() && rate > 0.0) {
        return Err(format!("{rate} must be a number above 0"));
    }
    let code: Currency = code.parse().map_err(|bad| format!("{bad:?} is not a currency code"))?;
    Ok((code, rate))
}

#[derive(Args, Debug)]
pub struct ImportArgs {
    #[arg(long = "format", value_enum)]
    pub(super) feed: FeedArg,
    pub(super) file: PathBuf,
    /// Provider id or SkyPilot cloud name the feed belongs to (SkyPilot files do not say). 数据所属的供应商（或 SkyPilot 云名称）。
    #[arg(long)]
    pub(super) provider: Option<String>,
    /// Where the prices come from (stored on every row; default: the feed's name). 数据来源（默认：数据源名称）。
    #[arg(long)]
    pub(super) source: Option<String>,
    /// The feed's version, e.g. a skypilot-catalog commit (added to the source). 数据源版本（如提交号）。
    #[arg(long)]
    pub(super) feed_version: Option<String>,
    /// As-of date of the prices (default: none, "date unknown"). 价格日期（默认：日期未知）。
    #[arg(long)]
    pub(super) as_of: Option<String>,
    /// Confidence tag (A = provider data or machine catalogue). 置信度标签。
    #[arg(long, default_value = "A")]
    pub(super) confidence: Confidence,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum FeedArg {
    Csv,
    Skypilot,
    AzureRetail,
}

#[derive(Subcommand, Debug)]
pub enum PackAction {
    /// Write the catalogue (or a subset) as a pack, signed with --key. 导出目录包。
    Export {
        #[arg(long)]
        out: PathBuf,
        /// Minisign secret key file (suanli catalog keygen). 签名私钥。
        #[arg(long)]
        key: Option<PathBuf>,
        /// Pack version; must be newer than the receivers' catalogue (default: installed + 1). 版本号。
        #[arg(long)]
        version: Option<i64>,
        #[arg(long, default_value = "team catalogue")]
        label: String,
        /// Only these providers' offers (repeat). 仅包含这些供应商。
        #[arg(long = "provider")]
        providers: Vec<String>,
    },
    /// Check a pack and FILE.minisig without applying it. 校验目录包。
    Verify {
        file: PathBuf,
        #[arg(long)]
        allow_unsigned: bool,
    },
    /// Verify and apply a pack within its scope; on any failure nothing changes. 应用目录包。
    Apply {
        file: PathBuf,
        #[arg(long)]
        allow_unsigned: bool,
        /// Let the pack remove more than 10 % of a table's rows (an empty or
        /// whole-catalogue pack that drops most rows). 允许移除超过 10% 的行。
        #[arg(long)]
        allow_removals: bool,
    },
}

#[derive(Subcommand, Debug)]
pub enum PricebookCommand {
    /// List your own offers and discounts. 列出价格簿。
    List {
        #[arg(long, value_enum, default_value_t = Format::Table)]
        format: Format,
    },
    /// Write the price book to a JSON file. 导出价格簿。
    Export { file: PathBuf },
    /// Import a price book JSON file, or a CSV of your own offers (offers.csv columns). 导入价格簿。
    Import { file: PathBuf },
    /// Add or replace a negotiated discount. 添加协议折扣。
    Discount {
        #[arg(long)]
        id: String,
        #[arg(long, conflicts_with = "provider", required_unless_present = "provider")]
        offer: Option<String>,
        #[arg(long)]
        provider: Option<String>,
        /// 0.15 = 15 % off. 折扣比例。
        #[arg(long)]
        share: f64,
        #[arg(long)]
        note: Option<String>,
        /// The provider or offer is not in the catalogue yet (you will import
        /// it later). 供应商或报价稍后才导入。
        #[arg(long)]
        for_later: bool,
    },
    /// Remove an own offer or discount by id. 删除价格簿条目。
    Remove { id: String },
    /// Pin your own efficiency ratio for an accelerator and workload class: it
    /// beats measured and estimated ratios and no update changes it. 自定效率比。
    PinRatio {
        #[arg(long)]
        accelerator: String,
        #[arg(long)]
        workload: WorkloadClass,
        /// Work per accelerator relative to the reference GPU (0.7 = 70 %). 相对参考卡的效率。
        #[arg(long)]
        ratio: f64,
        /// Where the figure comes from (your own benchmark …). 来源说明。
        #[arg(long)]
        note: Option<String>,
    },
    /// Remove a pinned ratio. 删除自定效率比。
    UnpinRatio {
        #[arg(long)]
        accelerator: String,
        #[arg(long)]
        workload: WorkloadClass,
    },
}

/// The offers filter the flags describe.
pub(super) fn offer_filter(a: &OfferArgs) -> OfferFilter {
    OfferFilter {
        accelerator: a.accelerator.clone(),
        vendor: a.vendor.clone(),
        domestic: a.domestic.then_some(true),
        billing_mode: a.billing,
        provider: a.provider.clone(),
        provider_country: a.country.clone(),
        region: a.region.clone(),
        obtainable_in: a.obtainable_in.map(Jurisdiction::from),
        min_price: a.min_price,
        max_price: a.max_price,
        bare_metal: a.bare_metal.then_some(true),
        dedicated_gpu: a.dedicated_gpu.then_some(true),
        encryption_in_transit: a.encryption_in_transit.then_some(true),
        certification: a.certification.clone(),
        workload_class: a.workload,
        inference: a.model_params.map(|parameters| InferenceModel {
            parameters,
            precision: match a.precision {
                PrecisionArg::Fp32 => Precision::Fp32,
                PrecisionArg::Bf16 => Precision::Bf16,
                PrecisionArg::Fp16 => Precision::Fp16,
                PrecisionArg::Fp8 => Precision::Fp8,
                PrecisionArg::Int8 => Precision::Int8,
                PrecisionArg::Int4 => Precision::Int4,
            },
            context_tokens: a.context,
            latency: match a.latency {
                LatencyArg::Interactive => LatencyClass::Interactive,
                LatencyArg::Standard => LatencyClass::Standard,
                LatencyArg::Batch => LatencyClass::Batch,
            },
            kv_bytes_per_token: a.kv_bytes,
        }),
        currency: a.currency,
        fx: a.fx.iter().copied().collect(),
        exclude_pricebook: a.no_pricebook,
        sort: match a.sort {
            SortArg::Id => OfferSort::Id,
            SortArg::Price => OfferSort::Price,
            SortArg::Effective => OfferSort::Effective,
            SortArg::PerMillionTokens => OfferSort::PerMillionTokens,
        },
    }
}

/// The `--allow-removals` flag as the use case takes it.
pub(super) fn removals(allowed: bool) -> Removals {
    if allowed { Removals::Allowed } else { Removals::WithinShare }
}

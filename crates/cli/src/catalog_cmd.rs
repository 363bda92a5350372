//! `suanli catalog …` and `suanli pricebook …`.

use std::io::IsTerminal;
use std::path::PathBuf;

use clap::{Args, Subcommand, ValueEnum};
use suanli_api::catalog::{
    AcceleratorFilter, BillingMode, Catalog, ChangeSummary, Confidence, Discount, FeedFormat, IMPLAUSIBLE,
    InferenceModel, Jurisdiction, OfferChangeKind, OfferFilter, OfferSort, Removals, SkipReason, Subset, Targets,
};
use suanli_api::freshness;
use suanli_api::{Currency, Error, Lang, LatencyClass, Precision, WorkloadClass, catalog, format_percent};

use crate::Format;
use crate::table::Table;

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

#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum JurisdictionArg {
    Cn,
}

impl From<JurisdictionArg> for Jurisdiction {
    fn from(j: JurisdictionArg) -> Self {
        match j {
            JurisdictionArg::Cn => Jurisdiction::Cn,
        }
    }
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
    format: Format,
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
    feed: FeedArg,
    file: PathBuf,
    /// Provider id or SkyPilot cloud name the feed belongs to (SkyPilot files do not say). 数据所属的供应商（或 SkyPilot 云名称）。
    #[arg(long)]
    provider: Option<String>,
    /// Where the prices come from (stored on every row; default: the feed's name). 数据来源（默认：数据源名称）。
    #[arg(long)]
    source: Option<String>,
    /// The feed's version, e.g. a skypilot-catalog commit (added to the source). 数据源版本（如提交号）。
    #[arg(long)]
    feed_version: Option<String>,
    /// As-of date of the prices (default: none, "date unknown"). 价格日期（默认：日期未知）。
    #[arg(long)]
    as_of: Option<String>,
    /// Confidence tag (A = provider data or machine catalogue). 置信度标签。
    #[arg(long, default_value = "A")]
    confidence: Confidence,
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

fn out(text: &str) {
    out!("{text}");
}

use crate::terminal::{erroutln, json, out, outln, progress};

fn opt(x: &Option<String>) -> String {
    x.clone().unwrap_or_default()
}

/// A JSON record as indented `key: value` lines (nulls and empty lists left out).
fn outline(v: &serde_json::Value, indent: usize, out: &mut String) {
    use serde_json::Value;
    let pad = "  ".repeat(indent);
    match v {
        Value::Object(map) => {
            for (k, val) in map {
                match val {
                    Value::Null => {}
                    Value::Array(a) if a.is_empty() => {}
                    Value::Object(_) | Value::Array(_) => {
                        out.push_str(&format!("{pad}{k}:\n"));
                        outline(val, indent + 1, out);
                    }
                    Value::String(s) => out.push_str(&format!("{pad}{k}: {s}\n")),
                    other => out.push_str(&format!("{pad}{k}: {other}\n")),
                }
            }
        }
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                out.push_str(&format!("{pad}[{}]\n", i + 1));
                outline(item, indent + 1, out);
            }
        }
        Value::String(s) => out.push_str(&format!("{pad}{s}\n")),
        other => out.push_str(&format!("{pad}{other}\n")),
    }
}

/// The Chinese name in Chinese output, when the catalogue has one.
fn localised(lang: Lang, en: &str, zh: &Option<String>) -> String {
    match (lang, zh) {
        (Lang::Zh, Some(zh)) if !zh.is_empty() => zh.clone(),
        _ => en.to_owned(),
    }
}

fn num(x: Option<f64>, digits: usize) -> String {
    x.map_or(String::new(), |v| format!("{v:.digits$}"))
}

pub fn run(cmd: CatalogCommand, c: &mut Catalog, lang: Lang) -> Result<(), Error> {
    match cmd {
        CatalogCommand::List { what } => list(what, c, lang),
        CatalogCommand::Calibration { format } => calibration(c, format, lang),
        CatalogCommand::Scaling { format } => crate::recommend_cmd::scaling(c, format, lang),
        CatalogCommand::Show { id, workload, format } => {
            let filter = OfferFilter { workload_class: workload, ..Default::default() };
            let item = catalog::show(c, &id, &filter, freshness::today_date())?;
            match format {
                Format::Json => json(&item),
                // Every field with its provenance, one per line; empty fields left out.
                Format::Table => {
                    if let catalog::Item::Offer { freshness, .. } = &item {
                        outln!("{}: {}", lang.pick("as of", "价格日期"), freshness.label(lang));
                    }
                    let value = serde_json::to_value(&item).map_err(|e| Error::Catalog(e.into()))?;
                    let mut out = String::new();
                    outline(&value, 0, &mut out);
                    out!("{out}");
                    Ok(())
                }
            }
        }
        CatalogCommand::Search { text, format } => {
            let hits = catalog::search(c, &text)?;
            match format {
                Format::Json => json(&hits),
                Format::Table => {
                    let mut t = Table::new([lang.pick("Kind", "类型"), "Id", lang.pick("Names", "名称")]);
                    for h in hits {
                        t.row([h.kind.key().to_owned(), h.id.clone(), h.text.replacen(&h.id, "", 1).trim().to_owned()]);
                    }
                    out(&t.render());
                    Ok(())
                }
            }
        }
        CatalogCommand::Import(args) => import(args, c, lang),
        CatalogCommand::Refresh { from, skypilot_url, azure_url } => {
            let feeds = catalog::FeedSource::parse_list(&from).map_err(|problem| Error::Reference {
                path: "--from".into(),
                value: from.clone(),
                problem,
            })?;
            let mut urls = catalog::FeedUrls::default();
            urls.skypilot = skypilot_url.unwrap_or(urls.skypilot);
            urls.azure = azure_url.unwrap_or(urls.azure);
            let reports = catalog::refresh(c, &feeds, &urls, &mut |feed, n| {
                progress!("{feed}: {} KB {}", n / 1024, lang.pick("received", "已接收"));
            })?;
            erroutln!();
            for (feed, r) in &reports {
                outln!(
                    "{feed}: {} {}: {} {}, {} {} · {} {}, {} {}",
                    r.rows,
                    lang.pick("rows", "行"),
                    r.rows_landed,
                    lang.pick("landed", "已导入"),
                    r.rows_reported,
                    lang.pick("reported", "未导入"),
                    r.imported,
                    lang.pick("offers written", "条报价写入"),
                    r.unchanged,
                    lang.pick("unchanged", "条未变"),
                );
            }
            Ok(())
        }
        CatalogCommand::StaleAfter { months } => {
            let months = match months {
                Some(m) => freshness::set_stale_after_months(c, m)?,
                None => freshness::stale_after_months(c)?,
            };
            outln!(
                "{} {months} {}",
                lang.pick("prices are marked stale after", "价格超过"),
                lang.pick("months", "个月标记为过时")
            );
            Ok(())
        }
        CatalogCommand::Changes { id: Some(id), format } => {
            let details = catalog::change_details(c, id)?;
            match format {
                Format::Json => json(&details),
                Format::Table => {
                    let mut t =
                        Table::new([lang.pick("Offer", "报价"), lang.pick("What", "变化"), lang.pick("Price", "价格")]);
                    for d in details {
                        let price = |p: Option<f64>, cur: &Option<String>| {
                            p.map_or(String::new(), |p| {
                                format!("{p} {}", cur.as_deref().unwrap_or("")).trim().to_owned()
                            })
                        };
                        let (what, figure) = match d.what {
                            OfferChangeKind::Added => (lang.pick("new", "新增"), price(d.new_price, &d.new_currency)),
                            OfferChangeKind::Removed => {
                                (lang.pick("removed", "移除"), price(d.old_price, &d.old_currency))
                            }
                            OfferChangeKind::Repriced => (
                                lang.pick("repriced", "调价"),
                                format!(
                                    "{} → {}",
                                    price(d.old_price, &d.old_currency),
                                    price(d.new_price, &d.new_currency)
                                ),
                            ),
                        };
                        t.row([d.offer_id, what.to_owned(), figure]);
                    }
                    out(&t.render());
                    Ok(())
                }
            }
        }
        CatalogCommand::Changes { id: None, format } => {
            let changes = catalog::changes(c)?;
            match format {
                Format::Json => json(&changes),
                Format::Table => {
                    let mut t = Table::new([
                        "#",
                        lang.pick("Applied", "时间"),
                        lang.pick("Change", "变更"),
                        lang.pick("Added", "新增"),
                        lang.pick("Repriced", "调价"),
                        lang.pick("Removed", "移除"),
                    ]);
                    for ch in changes {
                        t.row([
                            ch.id.to_string(),
                            ch.applied_at,
                            lang.pick(ch.label, ch.label_zh),
                            ch.added.to_string(),
                            ch.repriced.to_string(),
                            ch.removed.to_string(),
                        ]);
                    }
                    out(&t.render());
                    Ok(())
                }
            }
        }
        CatalogCommand::Pack { action } => pack(action, c, lang),
        CatalogCommand::Update { url, allow_unsigned, allow_removals } => {
            let terminal = std::io::stderr().is_terminal();
            let mut progress = |got: u64, total: Option<u64>| {
                if terminal {
                    match total {
                        Some(t) if t > 0 => progress!(
                            "{} {got} / {t} bytes ({:.0} %)",
                            lang.pick("downloading", "下载中"),
                            got as f64 * 100.0 / t as f64
                        ),
                        _ => progress!("{} {got} bytes", lang.pick("downloading", "下载中")),
                    }
                }
            };
            let (summary, change) = catalog::update(c, &url, allow_unsigned, removals(allow_removals), &mut progress)?;
            if terminal {
                erroutln!();
            }
            report_pack(&summary, Some(&change), lang);
            Ok(())
        }
        CatalogCommand::Trust { public_key, label } => {
            let id = catalog::trust_key(c, &public_key, &label)?;
            outln!("{} {id}", lang.pick("trusted key", "已信任公钥"));
            Ok(())
        }
        CatalogCommand::Untrust { key_id } => {
            catalog::untrust_key(c, &key_id)?;
            outln!("{} {key_id}", lang.pick("no longer trusted: key", "已取消信任公钥"));
            Ok(())
        }
        CatalogCommand::Keygen { out: dir } => {
            let (pk, sk) = catalog::keygen(&dir)?;
            outln!("{}: {}", lang.pick("public key (share it)", "公钥（可分发）"), pk.display());
            outln!("{}: {}", lang.pick("secret key (keep it private)", "私钥（请妥善保管）"), sk.display());
            Ok(())
        }
    }
}

/// The offers filter the flags describe.
fn offer_filter(a: &OfferArgs) -> OfferFilter {
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

/// Accelerators ranked for a workload class, each with its ratio's basis.
fn for_workload(a: &OfferArgs, c: &Catalog, lang: Lang) -> Result<(), Error> {
    let filter = offer_filter(a);
    let rows = catalog::accelerators_for_workload(c, &filter)?;
    if let Format::Json = a.format {
        return json(&rows);
    }
    let cur = filter.currency.unwrap_or(Currency::USD);
    let money = |x: Option<f64>| x.map_or("—".to_owned(), |x| suanli_api::format_unit_price(x, cur, lang));
    let mut t = Table::new([
        lang.pick("Accelerator", "加速卡"),
        lang.pick("Domestic", "国产"),
        lang.pick("Ratio", "效率比"),
        lang.pick("Basis", "依据"),
        lang.pick("Rental offers", "租用报价"),
        lang.pick("Best per ref-GPU-hour", "每参考卡时最低"),
        lang.pick("Range", "区间"),
        lang.pick("Per M tokens", "每百万 token"),
        lang.pick("Best offer", "最低报价"),
        lang.pick("Price kind (conf.)", "价格类型（置信度）"),
        lang.pick("Source", "来源"),
        lang.pick("Buy per ref GPU", "每参考卡购置价"),
        lang.pick("Purchase offer", "购置报价"),
    ]);
    // "market quote (C)" / "市场报价（C）"
    let tagged = |label: &str, confidence: &dyn std::fmt::Display| match lang {
        Lang::Zh => format!("{label}（{confidence}）"),
        _ => format!("{label} ({confidence})"),
    };
    let kind = |b: &Option<catalog::BestOffer>| {
        b.as_ref().map_or(String::new(), |b| tagged(b.quote.label(lang), &b.confidence))
    };
    for r in rows {
        let purchase = r
            .best_purchase_offer
            .as_ref()
            .map_or(String::new(), |b| format!("{} [{}, {} ({})]", b.id, b.source, b.quote.label(lang), b.confidence));
        t.row([
            localised(lang, &r.name, &r.name_zh),
            r.domestic.map_or(String::new(), |d| {
                lang.pick(if d { "yes" } else { "no" }, if d { "是" } else { "否" }).to_owned()
            }),
            r.ratio.as_ref().map_or("—".to_owned(), |x| format!("{:.3}", x.ratio)),
            match (&r.ratio, &r.no_ratio) {
                (Some(x), _) => x.basis.label(lang).to_owned(),
                (None, Some(why)) => why.describe(lang),
                _ => String::new(),
            },
            r.rental_offers.to_string(),
            money(r.price_per_ref_gpu_hour),
            r.effective_price_range_per_ref_gpu_hour
                .map_or(String::new(), |[lo, hi]| format!("{}–{}", money(Some(lo)), money(Some(hi)))),
            money(r.cost_per_million_tokens),
            r.best_offer.as_ref().map(|b| b.id.clone()).unwrap_or_default(),
            kind(&r.best_offer),
            r.best_offer.as_ref().map(|b| b.source.clone()).unwrap_or_default(),
            r.best_capex_per_ref_gpu.map_or("—".to_owned(), |x| suanli_api::format_amount(x, cur, lang)),
            purchase,
        ]);
    }
    out(&t.render());
    Ok(())
}

fn list(what: ListWhat, c: &Catalog, lang: Lang) -> Result<(), Error> {
    match what {
        ListWhat::Accelerators { vendor, domestic, foreign, min_memory_gb, obtainable_in, format } => {
            let filter = AcceleratorFilter {
                vendor,
                domestic: if domestic {
                    Some(true)
                } else if foreign {
                    Some(false)
                } else {
                    None
                },
                min_memory_gb,
                obtainable_in: obtainable_in.map(Jurisdiction::from),
            };
            let rows = catalog::list_accelerators(c, &filter)?;
            if let Format::Json = format {
                return json(&rows);
            }
            let mut t = Table::new([
                "Id",
                lang.pick("Name", "名称"),
                lang.pick("Vendor", "厂商"),
                lang.pick("Memory GB", "显存 GB"),
                "BF16/FP16 TFLOPS",
                lang.pick("Software", "软件栈"),
                lang.pick("Export (CN)", "出口管制（中国）"),
                lang.pick("Source", "来源"),
                lang.pick("As of", "日期"),
                lang.pick("Conf.", "置信度"),
            ]);
            for a in rows {
                let name = localised(lang, &a.name, &a.name_zh);
                let vendor = localised(lang, &a.vendor, &a.vendor_zh);
                t.row([
                    a.id,
                    name,
                    vendor,
                    num(a.memory_gb, 0),
                    num(a.bf16_tflops.or(a.fp16_tflops), 0),
                    opt(&a.software_stack),
                    a.export_status_cn.map_or(String::new(), |s| format!("{s:?}")),
                    a.source,
                    opt(&a.as_of),
                    a.confidence.to_string(),
                ]);
            }
            out(&t.render());
            Ok(())
        }
        ListWhat::Providers { format } => {
            let rows = catalog::list_providers(c)?;
            if let Format::Json = format {
                return json(&rows);
            }
            let mut t = Table::new([
                "Id",
                lang.pick("Name", "名称"),
                lang.pick("Country", "国家"),
                lang.pick("Kind", "类型"),
                lang.pick("Billing", "计费方式"),
                lang.pick("Bare metal", "裸金属"),
                lang.pick("Certifications", "认证"),
                lang.pick("Source", "来源"),
                lang.pick("Conf.", "置信度"),
            ]);
            for p in rows {
                let name = localised(lang, &p.name, &p.name_zh);
                t.row([
                    p.id,
                    name,
                    opt(&p.country),
                    p.kind.key().to_owned(),
                    opt(&p.billing_modes),
                    p.bare_metal.map_or(String::new(), |b| b.to_string()),
                    opt(&p.certifications),
                    p.source,
                    p.confidence.to_string(),
                ]);
            }
            out(&t.render());
            Ok(())
        }
        ListWhat::ForWorkload(a) => for_workload(&a, c, lang),
        ListWhat::Offers(a) => {
            let filter = offer_filter(&a);
            let rows = catalog::list_offers(c, &filter, freshness::today_date())?;
            if let Format::Json = a.format {
                return json(&rows);
            }
            let mut t = Table::new([
                "Id",
                lang.pick("Provider", "供应商"),
                lang.pick("Accelerator", "加速卡"),
                lang.pick("Billing", "计费"),
                lang.pick("Price", "价格"),
                lang.pick("Per accel-hour", "每卡时"),
                lang.pick("Per ref-GPU-hour", "每参考卡时"),
                lang.pick("Per M tokens", "每百万 token"),
                lang.pick("Ratio", "效率比"),
                lang.pick("Price kind", "价格类型"),
                lang.pick("Source", "来源"),
                lang.pick("As of", "日期"),
                lang.pick("Conf.", "置信度"),
            ]);
            for catalog::ListedOffer { view: v, freshness } in rows {
                let price = match v.offer.price_high {
                    Some(high) => format!("{}–{high} {} / {}", v.offer.price, v.offer.currency, v.offer.price_unit),
                    None => format!("{} {} / {}", v.offer.price, v.offer.currency, v.offer.price_unit),
                };
                let per_hour = match (&v.spread, v.comparable_price_per_accel_hour) {
                    (Some(s), Some(p)) => format!(
                        "{} ({}–{}, {})",
                        num(Some(p), 4),
                        num(Some(s.low), 4),
                        num(Some(s.high), 4),
                        s.basis.label(lang)
                    ),
                    _ => num(v.comparable_price_per_accel_hour, 4),
                };
                let mine = if v.origin == "pricebook" { lang.pick(" (mine)", "（我的）") } else { "" };
                t.row([
                    format!("{}{mine}", v.offer.id),
                    v.provider_name.clone().unwrap_or(v.offer.provider_id.clone()),
                    v.accelerator_name.clone().unwrap_or_default(),
                    v.offer.billing_mode.to_string(),
                    price,
                    per_hour,
                    num(v.price_per_ref_gpu_hour.or(v.effective_capex_per_ref_gpu), 4),
                    match (v.cost_per_million_tokens, v.instance_holds_model) {
                        (Some(p), Some(false)) => {
                            format!("{p:.4} ({})", lang.pick("model exceeds one instance", "单实例放不下模型"))
                        }
                        (Some(p), _) => format!("{p:.4}"),
                        (None, _) => String::new(),
                    },
                    match (&v.efficiency, &v.no_ratio) {
                        (Some(r), _) => format!("{:.3} {}", r.ratio, r.basis.label(lang)),
                        (None, Some(why)) => why.describe(lang),
                        (None, None) => String::new(),
                    },
                    v.quote.label(lang).to_owned(),
                    v.offer.source.clone(),
                    freshness.label(lang),
                    v.offer.confidence.to_string(),
                ]);
            }
            out(&t.render());
            Ok(())
        }
    }
}

fn calibration(c: &Catalog, format: Format, lang: Lang) -> Result<(), Error> {
    let r = catalog::calibration(c)?;
    if let Format::Json = format {
        return json(&r);
    }
    let cal = &r.calibration;
    outln!(
        "{} {}; {} {}",
        r.comparisons,
        lang.pick("like-for-like comparisons derived from the measurements", "组同配置对比由实测推导"),
        cal.comparisons,
        lang.pick("of them (with both parts' specs) fit the model", "组（两者规格齐全）用于拟合模型"),
    );
    outln!();
    let mut t = Table::new([
        lang.pick("Workload class", "工作负载"),
        lang.pick("Ratios", "比值数"),
        lang.pick("Median error", "误差中位数"),
        lang.pick("Worst error", "最大误差"),
        lang.pick("Worst at", "最大误差加速卡"),
        lang.pick("Exponents (compute, bandwidth)", "指数（算力，带宽）"),
    ])
    .right_from(1);
    for e in &cal.classes {
        let exps = cal
            .exponents
            .iter()
            .find(|x| x.0 == e.workload_class)
            .map_or(String::new(), |x| format!("{:.2}, {:.2}", x.1, x.2));
        t.row([
            e.workload_class.label(lang).to_owned(),
            e.ratios.to_string(),
            format_percent(e.median_abs_error, 0),
            format_percent(e.worst_abs_error, 0),
            e.worst_accelerator_id.clone(),
            exps,
        ]);
    }
    out(&t.render());
    outln!();
    outln!("{}", lang.pick("Stack factors (CUDA = 1):", "软件栈系数（CUDA = 1）："));
    for (stack, factor, n) in &cal.stacks {
        outln!("  {stack}: {factor:.2} ({n} {})", lang.pick("comparisons", "组对比"));
    }
    outln!();
    let mut t = Table::new([
        lang.pick("Accelerator", "加速卡"),
        lang.pick("Workload class", "工作负载"),
        lang.pick("Measured", "实测"),
        lang.pick("Estimate without it", "去掉后的估算"),
        lang.pick("Error", "误差"),
    ])
    .right_from(2);
    for row in &cal.rows {
        t.row([
            row.accelerator_id.clone(),
            row.workload_class.label(lang).to_owned(),
            format!("{:.3}", row.measured),
            format!("{:.3}", row.estimate_left_out),
            format!("{:+.0}%", row.error * 100.0),
        ]);
    }
    out(&t.render());
    if !r.set_aside.is_empty() {
        outln!();
        outln!(
            "{} ({}×):",
            lang.pick(
                "Set aside: comparisons that disagree with both parts' specs by more than",
                "已剔除：与两者规格比相差超过"
            ),
            IMPLAUSIBLE
        );
        for d in &r.set_aside {
            outln!(
                "  {} / {} {:.3} ({} {}): {} vs {}",
                d.accelerator_id,
                d.against_id,
                d.ratio,
                d.case,
                d.round.as_deref().unwrap_or(""),
                d.measurements[0],
                d.measurements[1]
            );
        }
    }
    Ok(())
}

fn import(a: ImportArgs, c: &mut Catalog, lang: Lang) -> Result<(), Error> {
    let format = match a.feed {
        FeedArg::Csv => FeedFormat::Csv,
        FeedArg::Skypilot => FeedFormat::Skypilot {
            provider: a.provider.clone().ok_or_else(|| Error::Reference {
                path: "--provider".into(),
                value: "(missing)".into(),
                problem: lang
                    .pick(
                        "a SkyPilot file does not say whose prices it holds; give --provider (e.g. lambda)",
                        "SkyPilot 文件未写明是哪家云的价格；请用 --provider 指定（如 lambda）",
                    )
                    .into(),
            })?,
        },
        FeedArg::AzureRetail => FeedFormat::AzureRetail,
    };
    let provenance = catalog::feed_provenance(&format, a.feed_version.as_deref(), a.source, a.as_of, a.confidence);
    let report = catalog::import(c, &format, &a.file, &provenance)?;
    outln!(
        "{}: {} {}: {} {}, {} {} · {} {}, {} {}",
        a.file.display(),
        report.rows,
        lang.pick("rows", "行"),
        report.rows_landed,
        lang.pick("landed", "已导入"),
        report.rows_reported,
        lang.pick("reported", "未导入（见下）"),
        report.imported,
        lang.pick("offers written", "条报价写入"),
        report.unchanged,
        lang.pick("unchanged", "条未变"),
    );
    match &report.change {
        Some(ch) => outln!(
            "{}: {} {}, {} {}",
            lang.pick("change", "变更"),
            ch.added,
            lang.pick("new", "新增"),
            ch.repriced,
            lang.pick("repriced", "调价")
        ),
        None if report.unchanged > 0 => outln!(
            "{}",
            lang.pick(
                "nothing changed: every offer is already in the catalogue as imported",
                "没有变化：所有报价已与目录中一致"
            )
        ),
        None => {}
    }
    // Reasons once each, with the lines they apply to.
    let mut reasons: Vec<(String, Vec<usize>)> = Vec::new();
    for s in &report.skipped {
        if matches!(s.reason, SkipReason::UnknownName { .. }) {
            continue;
        }
        let text = s.reason.describe(lang);
        match reasons.iter_mut().find(|(t, _)| *t == text) {
            Some((_, lines)) => lines.push(s.line),
            None => reasons.push((text, vec![s.line])),
        }
    }
    for (text, lines) in &reasons {
        outln!("  {} ({}): {text}", lang.pick("left out", "未导入"), line_list(lines, lang));
    }
    for (name, n) in &report.unknown_names {
        outln!(
            "  {} {name:?}: {n} {}",
            lang.pick("unknown accelerator name", "未知加速卡名称"),
            lang.pick("row(s)", "行")
        );
    }
    for r in &report.rejected {
        outln!("  {} {}", lang.pick("rejected", "拒绝"), r.message(lang));
    }
    catalog::require_landed(&report)
}

/// `lines 2, 5, 9` or `lines 2, 5, 9 … (40 in all)`.
fn line_list(lines: &[usize], lang: Lang) -> String {
    let shown: Vec<String> = lines.iter().take(8).map(|l| l.to_string()).collect();
    let more = if lines.len() > 8 {
        if lang == Lang::Zh {
            format!(" …（共 {} 行）", lines.len())
        } else {
            format!(" … ({} in all)", lines.len())
        }
    } else {
        String::new()
    };
    format!("{} {}{more}", lang.pick("lines", "行"), shown.join(", "))
}

fn report_pack(s: &suanli_api::catalog::PackSummary, change: Option<&ChangeSummary>, lang: Lang) {
    let signer = s.signed_by.clone().unwrap_or_else(|| lang.pick("unsigned", "未签名").to_owned());
    outln!(
        "{} {:?} {} {} ({}), {}: {} · {} {}, {} {}, {} {}",
        lang.pick("pack", "目录包"),
        s.label,
        lang.pick("version", "版本"),
        s.version,
        s.created,
        lang.pick("signed by", "签名者"),
        signer,
        s.accelerators,
        lang.pick("accelerators", "款加速卡"),
        s.providers,
        lang.pick("providers", "家供应商"),
        s.offers,
        lang.pick("offers", "条报价"),
    );
    match &s.providers_covered {
        None => outln!("{}: {}", lang.pick("covers", "范围"), lang.pick("the whole catalogue", "整个目录")),
        Some(p) => outln!("{}: {} {}", lang.pick("covers", "范围"), lang.pick("providers", "供应商"), p.join(", ")),
    }
    outln!(
        "{}",
        if change.is_some() {
            lang.pick("changed:", "已更改：")
        } else {
            lang.pick("applying it changes:", "应用后将更改：")
        }
    );
    for t in s.plan.tables.iter().filter(|t| t.table == "offers" || t.added + t.removed + t.changed > 0) {
        let fields: Vec<String> = t.fields.iter().map(|f| format!("{} {}", f.field, f.rows)).collect();
        let fields = if fields.is_empty() { String::new() } else { format!(" ({})", fields.join(", ")) };
        outln!(
            "  {}: {} {}, {} {}, {} {}{fields}",
            t.table,
            t.added,
            lang.pick("added", "新增"),
            t.removed,
            lang.pick("removed", "移除"),
            t.changed,
            lang.pick("changed", "改动")
        );
    }
    if s.needs_allow_removals && change.is_none() {
        outln!(
            "{}",
            lang.pick(
                "warning: it removes more than 10 % of a table's rows; `pack apply` refuses it without --allow-removals",
                "警告：它会移除某表超过 10% 的行；不加 --allow-removals 时 `pack apply` 会拒绝应用"
            )
        );
    }
    if let Some(ch) = change {
        outln!(
            "{}: {} {}, {} {}, {} {}",
            lang.pick("applied", "已应用"),
            ch.added,
            lang.pick("new", "新增"),
            ch.repriced,
            lang.pick("repriced", "调价"),
            ch.removed,
            lang.pick("removed", "移除")
        );
    }
}

/// The `--allow-removals` flag as the use case takes it.
fn removals(allowed: bool) -> Removals {
    if allowed { Removals::Allowed } else { Removals::WithinShare }
}

fn pack(action: PackAction, c: &mut Catalog, lang: Lang) -> Result<(), Error> {
    match action {
        PackAction::Export { out: file, key, version, label, providers } => {
            let version = match version {
                Some(v) => v,
                None => catalog::version(c)?.unwrap_or(0) + 1,
            };
            let subset = Subset { providers: (!providers.is_empty()).then_some(providers) };
            catalog::pack_export(c, &file, key.as_deref(), version, &label, &subset)?;
            outln!(
                "{} {} ({} {version}{})",
                lang.pick("wrote", "已写入"),
                file.display(),
                lang.pick("version", "版本"),
                if key.is_some() {
                    lang.pick(", signed", "，已签名")
                } else {
                    lang.pick(", unsigned", "，未签名")
                }
            );
            Ok(())
        }
        PackAction::Verify { file, allow_unsigned } => {
            let s = catalog::pack_verify(c, &file, allow_unsigned)?;
            report_pack(&s, None, lang);
            Ok(())
        }
        PackAction::Apply { file, allow_unsigned, allow_removals } => {
            let (s, change) = catalog::pack_apply_with(c, &file, allow_unsigned, removals(allow_removals))?;
            report_pack(&s, Some(&change), lang);
            Ok(())
        }
    }
}

pub fn pricebook(cmd: PricebookCommand, c: &mut Catalog, lang: Lang) -> Result<(), Error> {
    match cmd {
        PricebookCommand::List { format } => {
            let file = catalog::pricebook(c)?;
            if let Format::Json = format {
                return json(&file);
            }
            let mut t = Table::new([
                "Id",
                lang.pick("Kind", "类型"),
                lang.pick("Applies to", "适用于"),
                lang.pick("Price / discount", "价格 / 折扣"),
                lang.pick("Source / note", "来源 / 备注"),
            ]);
            for o in file.offers {
                t.row([
                    o.id.clone(),
                    lang.pick("own offer", "自有报价").to_owned(),
                    format!("{} {}", o.provider_id, o.accelerator_id.clone().unwrap_or_default()),
                    format!("{} {} / {}", o.price, o.currency, o.price_unit),
                    o.source.clone(),
                ]);
            }
            for d in file.discounts {
                t.row([
                    d.id.clone(),
                    lang.pick("discount", "折扣").to_owned(),
                    d.offer_id.clone().or(d.provider_id.clone()).unwrap_or_default(),
                    format_percent(d.discount_share, 1),
                    opt(&d.note),
                ]);
            }
            out(&t.render());
            Ok(())
        }
        PricebookCommand::Export { file } => {
            let n = catalog::pricebook_export(c, &file)?;
            outln!("{} {n} {} {}", lang.pick("wrote", "已写入"), lang.pick("entries to", "条到"), file.display());
            Ok(())
        }
        PricebookCommand::Import { file } => {
            let n = catalog::pricebook_import(c, &file)?;
            outln!("{} {n} {}", lang.pick("imported", "已导入"), lang.pick("entries", "条"));
            Ok(())
        }
        PricebookCommand::Discount { id, offer, provider, share, note, for_later } => {
            let today = suanli_api::today();
            let targets = if for_later { Targets::ImportedLater } else { Targets::MustExist };
            catalog::pricebook_put_discount_with(
                c,
                &Discount {
                    id: id.clone(),
                    offer_id: offer,
                    provider_id: provider,
                    discount_share: share,
                    note,
                    as_of: Some(today),
                },
                targets,
            )?;
            outln!("{} {id}", lang.pick("saved discount", "已保存折扣"));
            Ok(())
        }
        PricebookCommand::PinRatio { accelerator, workload, ratio, note } => {
            let pin = catalog::pin_ratio(c, &accelerator, workload, ratio, note)?;
            outln!("{} {} {}: {}", lang.pick("pinned", "已设定"), pin.accelerator_id, pin.workload_class, pin.ratio);
            Ok(())
        }
        PricebookCommand::UnpinRatio { accelerator, workload } => {
            catalog::unpin_ratio(c, &accelerator, workload)?;
            outln!("{} {accelerator} {workload}", lang.pick("unpinned", "已删除自定效率比"));
            Ok(())
        }
        PricebookCommand::Remove { id } => {
            catalog::pricebook_remove(c, &id)?;
            outln!("{} {id}", lang.pick("removed", "已删除"));
            Ok(())
        }
    }
}

//! Words for the client: a human label, in the report's language, for every
//! input path of the scenario format and every closed value, and the one
//! language out of a bilingual "English / 中文" text. No field name, option
//! id or TOML path reaches a proposal's prose, tornado or appendix.

use suanli_model::{Lang, Scenario};

pub use suanli_model::lang::{for_lang, is_in};

/// Free text from a scenario (its description, sources) with any scenario
/// file name ("billing-mix.toml") said as the scenario it names ("the
/// billing mix scenario"): a client has no use for file names.
pub fn without_file_names(text: &str, lang: Lang) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(".toml") {
        let head = &rest[..at];
        let start = head
            .char_indices()
            .rev()
            .take_while(|(_, c)| c.is_ascii_alphanumeric() || *c == '-' || *c == '_' || *c == '/')
            .last()
            .map_or(at, |(i, _)| i);
        let stem = head[start..].rsplit('/').next().unwrap_or_default().replace(['-', '_'], " ");
        out.push_str(&head[..start]);
        if stem.is_empty() {
            out.push_str(".toml");
        } else {
            out.push_str(&match lang {
                Lang::En => format!("the “{stem}” scenario"),
                Lang::Zh => format!("“{stem}”场景"),
            });
        }
        rest = &rest[at + ".toml".len()..];
    }
    out.push_str(rest);
    out
}

/// A source or note as a client reads it: one language of a bilingual
/// text, no file names, and any field name or closed value written in
/// snake_case (`llm_pretraining`, `export_controls`) said in words.
/// While a proposal is laid out its ids become numbered references
/// ([`crate::references`]).
pub fn source(text: &str, lang: Lang) -> String {
    let text = assumption_words(&without_file_names(&for_lang(text, lang), lang), lang);
    let said = map_words(
        &text,
        |c| c.is_ascii_alphanumeric() || c == '_',
        |word, out| {
            let snake = word.contains('_')
                && !word.starts_with('_')
                && !word.ends_with('_')
                && word.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
            if snake && !KEPT.contains(&word) {
                let said = lookup(VALUES, word, lang).or_else(|| lookup(FIELDS, word, lang));
                out.push_str(&said.map_or_else(|| word.replace('_', " "), str::to_owned));
            } else {
                out.push_str(word);
            }
        },
    );
    crate::references::cite(&said)
}

/// `text` with each run of `in_word` characters written by `say`, every
/// other character kept as it is.
pub(crate) fn map_words(text: &str, in_word: impl Fn(char) -> bool, say: impl Fn(&str, &mut String)) -> String {
    let mut out = String::with_capacity(text.len());
    let mut start = None;
    for (i, c) in text.char_indices() {
        match (in_word(c), start) {
            (true, None) => start = Some(i),
            (false, Some(s)) => {
                say(&text[s..i], &mut out);
                start = None;
                out.push(c);
            }
            (false, None) => out.push(c),
            (true, Some(_)) => {}
        }
    }
    if let Some(s) = start {
        say(&text[s..], &mut out);
    }
    out
}

/// Product names spelt with an underscore, printed as their makers spell them.
const KEPT: &[&str] = &["torch_npu", "torch_mlu", "torch_gcu", "torch_musa"];

/// `(key, English, Chinese)` for every field name of the scenario format.
const FIELDS: &[(&str, &str, &str)] = &[
    ("accelerator", "accelerator", "加速卡"),
    ("accelerators", "accelerators", "加速卡"),
    ("accelerators_per_server", "accelerators per server", "每台服务器加速卡数"),
    ("achieved_share", "achieved share", "实际达成比例"),
    ("adapter", "adapter", "适配器"),
    ("attached_copies", "attached-storage copies", "挂载存储副本数"),
    ("attached_price_per_tb_month", "attached storage price per TB-month", "挂载存储每 TB 月价格"),
    ("availability", "availability", "可用性"),
    ("bandwidth_price_per_tb", "bandwidth price per TB", "带宽每 TB 价格"),
    ("base", "base capacity", "基础容量"),
    ("base_above", "base above", "基础容量以上"),
    ("billing", "billing", "计费方式"),
    ("billing_mode", "billing mode", "计费模式"),
    ("bridge_price_per_ref_gpu_hour", "bridging price per reference-GPU-hour", "过渡期每参考卡时价格"),
    ("capex_payment", "capital expenditure paid", "资本支出支付时点"),
    ("capex_per_server", "capital cost per server", "每台服务器资本支出"),
    ("cluster_accelerators", "accelerators in the cluster", "集群加速卡数"),
    ("code_kloc", "code to port (thousand lines)", "待迁移代码量（千行）"),
    ("colocation_per_kw_month", "colocation per kW-month", "机房托管每千瓦月费用"),
    ("constraints", "constraints", "约束"),
    ("context_tokens", "context length (tokens)", "上下文长度（token）"),
    ("currency", "currency", "币种"),
    ("custom_kernels", "custom kernels to rewrite", "需重写的自定义算子"),
    ("dataset_tb", "dataset (TB)", "数据集（TB）"),
    ("deadline_month", "deadline month", "截止月份"),
    ("deadline_months", "deadline (months)", "截止期限（月）"),
    ("demand", "demand", "需求"),
    ("depreciation_years", "depreciation (years)", "折旧年限（年）"),
    ("discount_rate_annual", "discount rate (annual)", "年折现率"),
    ("domestic", "domestic accelerator", "国产加速卡"),
    ("domestic_only", "domestic accelerators only", "仅限国产加速卡"),
    ("edge", "edge sites", "边缘站点"),
    ("edge_sites_per_month", "edge sites per month", "每月边缘站点数"),
    ("efficiency_ratio", "efficiency vs the reference GPU", "相对参考 GPU 的效率"),
    ("effort", "porting effort", "迁移工作量"),
    ("electricity_per_kwh", "electricity price per kWh", "每千瓦时电价"),
    ("enabled", "enabled", "启用"),
    ("energy", "energy", "能耗"),
    ("engineer_month_cost", "cost per engineer-month", "每工程师月成本"),
    ("engineers", "engineers", "工程师人数"),
    ("export_change_delay_months", "delay if export rules change (months)", "出口管制变化导致的延迟（月）"),
    ("export_change_extra_cost_share", "extra cost if export rules change", "出口管制变化导致的额外成本比例"),
    ("export_change_probability", "probability export rules change", "出口管制变化概率"),
    ("export_status", "export-control status", "出口管制状态"),
    ("feature_share", "feature share", "特征数据比例"),
    ("fill_idle_base", "fill idle base capacity", "以空闲基础容量补位"),
    ("fx", "exchange rates", "汇率"),
    ("grid_kg_co2_per_kwh", "grid emission factor (kg CO2 per kWh)", "电网排放因子（千克二氧化碳/千瓦时）"),
    ("horizon_months", "horizon (months)", "评估期（月）"),
    ("hourly_ref_gpus", "reference GPUs by hour", "每小时参考卡数"),
    ("installation", "installation", "安装费用"),
    ("interconnect", "interconnect", "互联"),
    ("interruption_overhead", "interruption overhead", "中断开销"),
    ("interval_months", "interval (months)", "间隔（月）"),
    ("jobs", "jobs", "任务"),
    ("kind", "kind", "类型"),
    ("kv_bytes_per_token", "KV cache bytes per token", "每 token KV 缓存字节数"),
    ("latency", "latency class", "时延等级"),
    ("latency_ms_features", "latency with features (ms)", "特征传输时延（毫秒）"),
    ("latency_ms_raw", "latency with raw data (ms)", "原始数据传输时延（毫秒）"),
    ("lead_time_months", "lead time (months)", "交付周期（月）"),
    ("limit", "limit", "上限"),
    ("low_priority_share", "low-priority share", "低优先级比例"),
    ("maintenance_share_per_year", "maintenance per year (share of capital cost)", "每年维护费（占资本支出比例）"),
    ("market_residual_share", "resale value (share of capital cost)", "转售残值（占资本支出比例）"),
    ("maturity", "software-stack maturity", "软件生态成熟度"),
    ("max_p90_npv", "largest P90 net present cost", "P90 净现值上限"),
    ("max_supply_score", "largest supply-risk score", "供应风险评分上限"),
    ("memory_gb_per_accelerator", "memory per accelerator (GB)", "每卡显存（GB）"),
    ("mfu", "model FLOPs utilisation", "模型算力利用率"),
    ("monthly_ref_gpus", "reference GPUs by month", "每月参考卡数"),
    ("months_per_kernel", "engineer-months per custom kernel", "每个自定义算子的工程师月"),
    ("months_per_kloc", "engineer-months per thousand lines", "每千行代码的工程师月"),
    ("network_storage_capex", "network and storage capital cost", "网络与存储资本支出"),
    ("normal_share", "normal-priority share", "普通优先级比例"),
    ("object_price_per_tb_month", "object storage price per TB-month", "对象存储每 TB 月价格"),
    ("obtainable_in", "obtainable in", "可获得地区"),
    ("offer", "catalogue offer", "目录报价"),
    ("on_demand", "on demand", "按需"),
    ("optimise", "optimisation", "优化"),
    ("options", "options", "方案"),
    ("other_opex_per_year", "other operating cost per year", "其他年度运营成本"),
    ("owned", "owned", "自购"),
    ("parameters", "parameters", "参数量"),
    ("path", "input", "输入"),
    ("performance_uplift", "performance uplift", "性能提升"),
    ("points", "points", "数据点"),
    ("porting", "porting", "迁移"),
    ("precision", "precision", "精度"),
    ("price_factor", "price factor", "价格系数"),
    ("price_per_accel_hour", "price per accelerator-hour", "每卡时价格"),
    ("priority", "priority", "优先级"),
    ("provider", "provider", "供应商"),
    ("provider_country", "provider's country", "供应商所在国"),
    ("provisioned_kw_per_server", "provisioned power per server (kW)", "每台服务器配电功率（千瓦）"),
    ("pue", "PUE", "PUE"),
    ("range", "range", "区间"),
    ("raw_tb_per_month", "raw data per month (TB)", "每月原始数据（TB）"),
    ("reads_per_month", "reads per month", "每月读取次数"),
    ("ref_gpu_hours", "work (reference-GPU-hours)", "工作量（参考卡时）"),
    ("reference_gpu", "reference GPU", "参考 GPU"),
    ("reference_peak_tflops", "reference GPU peak (TFLOPS)", "参考 GPU 峰值算力（TFLOPS）"),
    ("refresh", "refresh", "更新换代"),
    ("region", "region", "地区"),
    ("required_security", "required security", "安全要求"),
    ("reserved", "reserved", "包年包月"),
    ("residual", "residual value", "残值"),
    ("run_hours_per_day", "running hours per day", "每日运行小时数"),
    ("scaling_curves", "scaling curves", "扩展曲线"),
    ("scaling_efficiency", "scaling efficiency", "扩展效率"),
    ("scheduling", "scheduling", "调度"),
    ("security", "security", "安全"),
    ("server_kw", "power per server (kW)", "每台服务器功率（千瓦）"),
    ("servers", "servers", "服务器台数"),
    ("shape", "shape", "形态"),
    ("sharding", "sharding", "分片方式"),
    ("source", "source", "来源"),
    ("spot", "spot", "竞价"),
    ("spot_below", "spot below", "竞价阈值"),
    ("stability", "long-term supply stability", "长期供应稳定性"),
    ("staff_per_year", "staff cost per year", "每年人员成本"),
    ("start_month", "start month", "起始月份"),
    ("storage", "storage", "存储"),
    ("supply", "supply", "供应"),
    ("term_months", "term (months)", "合约期（月）"),
    ("throughput_source", "throughput source", "吞吐来源"),
    ("tokens", "tokens", "token 数"),
    ("tokens_per_day", "tokens per day", "每日 token 数"),
    ("tokens_per_second", "tokens per second", "每秒 token 数"),
    ("tokens_per_second_per_ref_gpu", "tokens per second per reference GPU", "每参考卡每秒 token 数"),
    ("transfer_price_per_tb", "transfer price per TB", "传输每 TB 价格"),
    ("upfront_share", "share paid up front", "预付比例"),
    ("validation_months", "validation (months)", "验证期（月）"),
    ("vendor", "vendor", "厂商"),
    ("vendor_concentration", "vendor concentration", "厂商集中度"),
    ("workload_class", "workload class", "工作负载类别"),
    ("export_controls", "export controls", "出口管制"),
    ("scale", "demand scale", "需求倍数"),
];

/// `(value, English, Chinese)` for every closed value the format has.
const VALUES: &[(&str, &str, &str)] = &[
    ("buy", "buy", "购买"),
    ("rent", "rent", "租用"),
    ("mix", "mix", "混合"),
    ("on_demand", "on demand", "按需"),
    ("reserved", "reserved", "包年包月"),
    ("spot", "spot", "竞价"),
    ("none", "none", "无"),
    ("object", "object storage", "对象存储"),
    ("attached", "attached storage", "挂载存储"),
    ("raw", "raw data", "原始数据"),
    ("features", "features", "特征数据"),
    ("on_order", "on order", "下单时"),
    ("on_delivery", "on delivery", "交付时"),
    ("book", "book value", "账面价值"),
    ("market", "market value", "市场价值"),
    ("mature", "mature", "成熟"),
    ("beta", "beta", "测试阶段"),
    ("early", "early", "早期"),
    ("unrestricted", "unrestricted", "不受限"),
    ("licence_required", "licence required", "需许可证"),
    ("banned", "banned", "禁止"),
    ("china_only_variant", "China-only variant", "中国特供版"),
    ("domestic", "domestic", "国产"),
    ("unknown", "unknown", "未知"),
    ("stable", "stable", "稳定"),
    ("uncertain", "uncertain", "不确定"),
    ("fragile", "fragile", "脆弱"),
    ("llm_pretraining", "LLM pre-training", "大模型预训练"),
    ("llm_finetuning", "LLM fine-tuning", "大模型微调"),
    ("llm_inference", "LLM inference", "大模型推理"),
    ("vision_training", "vision training", "视觉训练"),
    ("vision_inference", "vision inference", "视觉推理"),
    ("nlp_training", "NLP training", "NLP 训练"),
    ("nlp_inference", "NLP inference", "NLP 推理"),
    ("recommendation_training", "recommendation training", "推荐模型训练"),
    ("recommendation_inference", "recommendation inference", "推荐模型推理"),
    ("memory_bandwidth", "memory-bandwidth bound", "受显存带宽限制"),
    ("interconnect", "interconnect bound", "受互联限制"),
    ("mixed_unspecified", "mixed, unspecified", "混合（未指定）"),
    ("job", "one job", "单个任务"),
    ("profile", "monthly profile", "月度需求曲线"),
    ("portfolio", "portfolio of jobs", "任务组合"),
    ("inference", "inference demand", "推理需求"),
    ("fp32", "FP32", "FP32"),
    ("bf16", "BF16", "BF16"),
    ("fp16", "FP16", "FP16"),
    ("fp8", "FP8", "FP8"),
    ("int8", "INT8", "INT8"),
    ("int4", "INT4", "INT4"),
    ("zero1", "ZeRO-1", "ZeRO-1"),
    ("zero2", "ZeRO-2", "ZeRO-2"),
    ("zero3", "ZeRO-3", "ZeRO-3"),
    ("interactive", "interactive", "交互式"),
    ("standard", "standard", "标准"),
    ("batch", "batch", "批处理"),
    ("high", "high", "高"),
    ("normal", "normal", "普通"),
    ("low", "low", "低"),
    ("true", "yes", "是"),
    ("false", "no", "否"),
];

fn lookup(table: &[(&str, &'static str, &'static str)], key: &str, lang: Lang) -> Option<&'static str> {
    table.iter().find(|(k, ..)| *k == key).map(|(_, en, zh)| lang.pick(*en, *zh))
}

/// The words for one field name; a name the table lacks is spelt out with
/// spaces (a test keeps every field of the example scenarios in the table).
pub fn field(key: &str, lang: Lang) -> String {
    lookup(FIELDS, key, lang).map_or_else(|| key.replace('_', " "), str::to_owned)
}

/// True when the table has words for `key` (for the tests).
#[cfg(test)]
pub fn has_field(key: &str) -> bool {
    lookup(FIELDS, key, Lang::En).is_some()
}

/// A closed value (`on_demand`, `licence_required`) in words; any other
/// text in its `lang` side when it is bilingual ("English / 中文").
pub fn value(v: &str, lang: Lang) -> String {
    lookup(VALUES, v, lang).map_or_else(|| for_lang(v, lang), str::to_owned)
}

/// "user assumption", the words users write for a figure of their own, said
/// in Chinese ("user assumption around X" → "用户假设，参照 X").
fn assumption_words(text: &str, lang: Lang) -> String {
    if lang == Lang::En {
        return text.to_owned();
    }
    let lower = text.to_lowercase();
    for (en, zh) in [
        ("user assumption around ", "用户假设，参照 "),
        ("user assumption: ", "用户假设："),
        ("user assumption", "用户假设"),
        ("assumption: ", "假设："),
        ("assumption", "假设"),
    ] {
        if lower.starts_with(en) && (en.ends_with(' ') || lower.len() == en.len()) {
            return format!("{zh}{}", &text[en.len()..]);
        }
    }
    text.to_owned()
}

/// The label of an input path, in a scenario's terms: `options.<id>.x.y`
/// becomes "<option's label>: x's words, y's words"; a list index `[i]`
/// becomes "#i+1".
pub fn input(path: &str, s: &Scenario, lang: Lang) -> String {
    let mut parts: Vec<&str> = path.split('.').collect();
    let mut prefix = None;
    if parts.len() >= 2 && parts[0] == "options" {
        let id = parts[1];
        let label = s.options.iter().find(|o| o.id == id).map_or_else(|| id.to_owned(), |o| for_lang(&o.label, lang));
        prefix = Some(label);
        parts.drain(..2);
    }
    let words: Vec<String> = parts
        .iter()
        .map(|p| match p.split_once('[') {
            Some((k, rest)) => {
                let i: usize = rest.trim_end_matches(']').parse().unwrap_or(0);
                format!("{} #{}", field(k, lang), i + 1)
            }
            None => field(p, lang),
        })
        .collect();
    let sep = lang.pick(", ", "，");
    let tail = capitalise(&words.join(sep));
    match prefix {
        Some(p) if tail.is_empty() => p,
        Some(p) => format!("{p}{}{tail}", lang.pick(": ", "：")),
        None => tail,
    }
}

fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    c.next().map_or_else(String::new, |f| f.to_uppercase().chain(c).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bilingual_text_splits_by_language() {
        assert_eq!(for_lang("Rent A100 / 租用 A100", Lang::Zh), "租用 A100");
        assert_eq!(for_lang("Rent A100 / 租用 A100", Lang::En), "Rent A100");
        assert_eq!(for_lang("租用 A100 / Rent A100", Lang::En), "Rent A100");
        assert_eq!(for_lang("CPU / GPU ratio", Lang::Zh), "CPU / GPU ratio");
        assert_eq!(for_lang("甲 / 乙", Lang::En), "甲 / 乙");
    }

    /// Every field name the example scenarios use has words in both languages.
    #[test]
    fn every_field_of_the_examples_has_words() {
        fn keys(v: &toml::Value, out: &mut Vec<String>) {
            match v {
                toml::Value::Table(t) => {
                    for (k, val) in t {
                        // A table of sources is keyed by input paths, not field names.
                        if k == "sources" {
                            continue;
                        }
                        out.push(k.clone());
                        keys(val, out);
                    }
                }
                toml::Value::Array(a) => a.iter().for_each(|x| keys(x, out)),
                _ => {}
            }
        }
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/scenarios");
        let mut missing = Vec::new();
        for entry in std::fs::read_dir(dir).unwrap() {
            let text = std::fs::read_to_string(entry.unwrap().path()).unwrap();
            let mut out = Vec::new();
            keys(&toml::from_str::<toml::Value>(&text).unwrap(), &mut out);
            for k in out {
                // Not in the appendix as fields (ids, labels, the ranges' own table,
                // the catalogue filter) or said as written (currency codes under `fx`).
                let skip = [
                    "id",
                    "label",
                    "name",
                    "description",
                    "description_zh",
                    "dist",
                    "mode",
                    "low",
                    "high",
                    "median",
                    "p90",
                    "probability",
                    "fx_source",
                    "offer_filter",
                    "uncertainty",
                ];
                let code = k.chars().all(|c| c.is_ascii_uppercase());
                if !skip.contains(&k.as_str()) && !code && !has_field(&k) && !missing.contains(&k) {
                    missing.push(k);
                }
            }
        }
        assert!(missing.is_empty(), "no words for {missing:?}");
    }

    #[test]
    fn sources_say_keys_in_words() {
        assert_eq!(
            source("catalogue ratio for llm_pretraining; catalogue export_controls", Lang::En),
            "catalogue ratio for LLM pre-training; catalogue export controls"
        );
        assert_eq!(source("adapter torch_npu", Lang::En), "adapter torch_npu");
    }

    #[test]
    fn a_users_assumption_is_said_in_chinese() {
        assert_eq!(source("user assumption", Lang::Zh), "用户假设");
        assert_eq!(source("User assumption around a figure", Lang::Zh), "用户假设，参照 a figure");
        assert_eq!(source("user assumption: demand", Lang::Zh), "用户假设：demand");
        assert_eq!(source("user assumption", Lang::En), "user assumption");
        assert_eq!(source("assumptions differ", Lang::Zh), "assumptions differ");
    }

    #[test]
    fn file_names_become_words() {
        assert_eq!(
            without_file_names("Prices as in billing-mix.toml; rest", Lang::En),
            "Prices as in the “billing mix” scenario; rest"
        );
        assert_eq!(without_file_names("no file", Lang::En), "no file");
    }

    #[test]
    fn values_and_fields_in_words() {
        assert_eq!(value("licence_required", Lang::Zh), "需许可证");
        assert_eq!(value("A100", Lang::En), "A100");
        assert_eq!(field("price_per_accel_hour", Lang::En), "price per accelerator-hour");
    }
}

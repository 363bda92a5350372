//! What the catalogue commands print, as tables or JSON: the lists
//! (accelerators, providers, offers, accelerators for a workload), the
//! calibration, a record's outline and a pack's report.

use suanli_api::catalog::{AcceleratorFilter, Catalog, ChangeSummary, IMPLAUSIBLE, Jurisdiction, ServingCalibration};
use suanli_api::freshness;
use suanli_api::{Currency, Error, Lang, catalog, format_percent};

use crate::Format;
use crate::table::Table;
use crate::terminal::{json, out, outln};

use super::args::{ListWhat, OfferArgs, offer_filter};

pub(super) fn out(text: &str) {
    out!("{text}");
}

pub(super) fn opt(x: &Option<String>) -> String {
    x.clone().unwrap_or_default()
}

/// A JSON record as indented `key: value` lines (nulls and empty lists left out).
pub(super) fn outline(v: &serde_json::Value, indent: usize, out: &mut String) {
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
pub(super) fn localised(lang: Lang, en: &str, zh: &Option<String>) -> String {
    match (lang, zh) {
        (Lang::Zh, Some(zh)) if !zh.is_empty() => zh.clone(),
        _ => en.to_owned(),
    }
}

pub(super) fn num(x: Option<f64>, digits: usize) -> String {
    x.map_or(String::new(), |v| format!("{v:.digits$}"))
}

/// Accelerators ranked for a workload class, each with its ratio's basis.
pub(super) fn for_workload(a: &OfferArgs, c: &Catalog, lang: Lang) -> Result<(), Error> {
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

pub(super) fn list(what: ListWhat, c: &Catalog, lang: Lang) -> Result<(), Error> {
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
                    p.billing_modes.iter().map(|m| m.key()).collect::<Vec<_>>().join(";"),
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
            for catalog::ListedOffer { view: v, freshness, .. } in rows {
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
                let mine =
                    if v.origin == catalog::OfferOrigin::Pricebook { lang.pick(" (mine)", "（我的）") } else { "" };
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

pub(super) fn calibration(c: &Catalog, format: Format, lang: Lang) -> Result<(), Error> {
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
    outln!();
    serving_calibration(&r.serving, lang);
    Ok(())
}

/// The serving model's fit and its error on each MLPerf result.
fn serving_calibration(s: &ServingCalibration, lang: Lang) {
    outln!(
        "{} {} ({}, {} {}): {} {:.0} %; {} {:.2}, {:.0} ms ({}) — {} {}, {} {}",
        lang.pick("Serving model against MLPerf Inference", "推理服务模型对照 MLPerf Inference"),
        s.case,
        s.precision.key(),
        s.context_tokens,
        lang.pick("tokens of context", "token 上下文"),
        lang.pick("bandwidth used (assumed)", "带宽利用（假设）"),
        s.bandwidth_utilisation * 100.0,
        lang.pick(
            "compute utilisation and step overhead fitted on CUDA, used by the engine",
            "以 CUDA 结果拟合、引擎所用的算力利用与每步开销"
        ),
        s.compute_utilisation,
        s.step_overhead_ms,
        s.stacks
            .iter()
            .map(|f| format!(
                "{} {:.2}, {:.0} ms, {} {}",
                f.stack,
                f.compute_utilisation,
                f.step_overhead_ms,
                f.points,
                lang.pick("results", "个结果")
            ))
            .collect::<Vec<_>>()
            .join("; "),
        format_percent(s.median_abs_error, 0),
        lang.pick("median error", "误差中位数"),
        format_percent(s.median_abs_error_left_out, 0),
        lang.pick("left out", "留一法"),
    );
    let mut t = Table::new([
        lang.pick("Accelerator", "加速卡"),
        lang.pick("Stack", "软件栈"),
        lang.pick("Scenario", "场景"),
        lang.pick("Round", "轮次"),
        lang.pick("Cards", "卡数"),
        lang.pick("Measured tokens/s per card", "实测每卡 token/s"),
        lang.pick("Model", "模型"),
        lang.pick("Error", "误差"),
        lang.pick("Left out", "留一法"),
    ])
    .right_from(4);
    for p in &s.points {
        t.row([
            p.accelerator_id.clone(),
            p.stack.clone(),
            p.scenario.clone(),
            p.suite_version.clone().unwrap_or_default(),
            p.accelerators.to_string(),
            format!("{:.0}", p.measured),
            format!("{:.0}", p.modelled),
            format!("{:+.0}%", p.error * 100.0),
            format!("{:+.0}%", p.error_left_out * 100.0),
        ]);
    }
    out(&t.render());
    for (why, n) in &s.set_aside {
        outln!("  {} {n}: {}", lang.pick("Not used:", "未使用："), why.label(lang));
    }
}

/// `lines 2, 5, 9` or `lines 2, 5, 9 … (40 in all)`.
pub(super) fn line_list(lines: &[usize], lang: Lang) -> String {
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

pub(super) fn report_pack(s: &suanli_api::catalog::PackSummary, change: Option<&ChangeSummary>, lang: Lang) {
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
    for t in
        s.plan.tables.iter().filter(|t| t.table == catalog::CatalogTable::Offers || t.added + t.removed + t.changed > 0)
    {
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

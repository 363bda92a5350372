//! `suanli catalog …` and `suanli pricebook …`: each command run, its use
//! case called and its answer printed. The arguments are in `args`, the
//! printing of lists and reports in `print`.

mod args;
mod print;

use std::io::IsTerminal;

use suanli_api::catalog::{Catalog, Discount, FeedFormat, OfferChangeKind, OfferFilter, SkipReason, Subset, Targets};
use suanli_api::freshness;
use suanli_api::{Error, Lang, catalog, format_percent};

use crate::Format;
use crate::table::Table;
use crate::terminal::{erroutln, json, out, outln, progress};

pub use args::{CatalogCommand, PricebookCommand};
use args::{FeedArg, ImportArgs, PackAction, removals};
use print::{calibration, line_list, list, opt, out, outline, report_pack};

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
                        let price = |p: Option<f64>, cur: &Option<suanli_api::Currency>| {
                            p.map_or(String::new(), |p| {
                                format!("{p} {}", cur.map_or("", |c| c.code())).trim().to_owned()
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

//! The reference list as a client reads it: each cited source's entry
//! (title, publisher, address, date, without the registers' working notes)
//! and the list drawn as a table.

use suanli_model::{Lang, Register};

use super::{RATIO_BOOK, Reference, Source};

/// The reference list: one row per reference, "[n]" and its title,
/// publisher, address, date and the confidence of what it is cited for.
pub fn section(cv: &mut crate::pdf::Canvas, references: &[Reference], lang: Lang) {
    use crate::pdf::CONTENT_W;
    cv.note(lang.pick(
        "Each [n] in the text cites the reference of that number. Confidence is the tag the source register gives the cited figure.",
        "正文中的 [n] 指本表中相应编号的文献。可信度为来源登记表对所引数字的评级。",
    ));
    cv.space(6.0);
    let rows: Vec<Vec<String>> = references
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let sep = lang.pick(". ", "。");
            let mut entry =
                format!("{}{sep}{}{sep}{}{sep}{}", r.title.trim_end_matches('.'), r.publisher, r.address, r.date);
            if !r.confidence.is_empty() {
                entry.push_str(sep);
                entry.push_str(lang.pick("Confidence: ", "可信度："));
                entry.push_str(&r.confidence.join(lang.pick("; ", "；")));
            }
            vec![format!("[{}]", i + 1), entry]
        })
        .collect();
    let header = vec![lang.pick("No.", "编号").to_owned(), lang.pick("Reference", "文献").to_owned()];
    cv.table(&[CONTENT_W * 0.08, CONTENT_W * 0.92], &header, &rows, 2);
}

/// A reference's entry: from the catalogue's source, or from a register
/// section, the article or Suanli's ratio book.
pub(super) fn reference(key: &str, source: Option<&Source>, lang: Lang) -> Reference {
    let undated = lang.pick("undated", "未注明日期").to_owned();
    if key == "article" {
        return Reference {
            key: key.to_owned(),
            title: lang
                .pick(
                    "The source article on acquiring GPU compute (Chinese; its author and the domestic vendor are not named)",
                    "算力获取的源文章（中文；作者与国产厂商均未具名）",
                )
                .to_owned(),
            publisher: lang.pick("not stated", "未注明").to_owned(),
            address: lang.pick("supplied with the brief; no public address", "随委托资料提供，无公开地址").to_owned(),
            date: undated,
            confidence: Vec::new(),
        };
    }
    if key == RATIO_BOOK {
        return Reference {
            key: key.to_owned(),
            title: lang
                .pick(
                    "Suanli efficiency ratios: like-for-like benchmark measurements and the spec model fitted on them",
                    "Suanli 效率比：同条件基准实测及据此拟合的规格模型",
                )
                .to_owned(),
            publisher: "Suanli".to_owned(),
            address: "data/catalog/measurements.csv, data/catalog/efficiency.csv; docs/efficiency.md".to_owned(),
            date: lang.pick("with the catalogue", "随目录版本").to_owned(),
            confidence: Vec::new(),
        };
    }
    match source {
        Some(s) => Reference {
            key: key.to_owned(),
            title: client_text(s.title.trim()),
            publisher: publisher(s, lang),
            address: s
                .url
                .clone()
                .filter(|u| !u.trim().is_empty())
                .unwrap_or_else(|| register_path(Some(s.sheet), lang)),
            date: s.date.as_deref().and_then(client_date).unwrap_or(undated),
            confidence: Vec::new(),
        },
        // An id the catalogue's registers do not list.
        None if !key.contains(' ') => Reference {
            key: key.to_owned(),
            title: match lang {
                Lang::En => format!("Source “{key}” (not in the catalogue's registers)"),
                Lang::Zh => format!("来源“{key}”（未列入目录登记表）"),
            },
            publisher: lang.pick("not stated", "未注明").to_owned(),
            address: "—".to_owned(),
            date: undated,
            confidence: Vec::new(),
        },
        // A register section ("gpu-facts 3G", "provider-prices 6.4").
        None => {
            let (sheet, section) = key.split_once(' ').unwrap_or((key, ""));
            let sheet = Register::parse(sheet);
            Reference {
                key: key.to_owned(),
                title: match lang {
                    Lang::En => format!("{}, section {section}", register_name(sheet, lang)),
                    Lang::Zh => format!("{}，第 {section} 节", register_name(sheet, lang)),
                },
                publisher: lang
                    .pick("Suanli research (compiled from cited sources)", "Suanli 研究（汇编自所引来源）")
                    .to_owned(),
                address: register_path(sheet, lang),
                date: undated,
                confidence: Vec::new(),
            }
        }
    }
}

/// A register's name.
/// A register's name; a section key that names no register is "a source register".
fn register_name(sheet: Option<Register>, lang: Lang) -> String {
    match sheet {
        Some(Register::GpuFacts) => lang.pick("GPU facts register", "GPU 事实登记表"),
        Some(Register::ProviderPrices) => lang.pick("Provider prices register", "服务商价格登记表"),
        Some(Register::ChinaPrices) => lang.pick("China prices register", "国内价格登记表"),
        Some(Register::Benchmarks) => lang.pick("Benchmark sources register", "基准来源登记表"),
        Some(Register::Specs) => lang.pick("Specification sources register", "规格来源登记表"),
        Some(Register::Nodes) => lang.pick("Node and fabric sources register", "节点与互联来源登记表"),
        Some(Register::Feeds) => lang.pick("Price feed files", "价格数据源文件"),
        Some(Register::Article) | None => lang.pick("Source register", "来源登记表"),
    }
    .to_owned()
}

/// Where a register is kept in the project's repository.
fn register_path(sheet: Option<Register>, lang: Lang) -> String {
    match sheet {
        Some(Register::GpuFacts | Register::ProviderPrices | Register::ChinaPrices) => {
            lang.pick("no address recorded (Suanli's research notes)", "未记录地址（Suanli 研究笔记）").to_owned()
        }
        Some(Register::Feeds) => "data/catalog/feeds/sources.csv".to_owned(),
        Some(Register::Benchmarks | Register::Specs | Register::Nodes | Register::Article) | None => {
            "data/catalog/sources.csv".to_owned()
        }
    }
}

/// Words of the registers' working notes that a client cannot look up:
/// another entry's id ("S18", "S10 prices"), a register section, how the
/// entry was read.
fn working_note(clause: &str) -> bool {
    let entry_id = clause
        .split(|c: char| !c.is_ascii_alphanumeric())
        .any(|w| w.len() >= 2 && w.starts_with('S') && w[1..].chars().all(|c| c.is_ascii_digit()));
    entry_id
        || [
            "cited as",
            "register",
            "§",
            "provider-prices",
            "gpu-facts",
            "china-prices",
            "search tools",
            "re-read",
            "not we",
        ]
        .iter()
        .any(|m| clause.contains(m))
}

/// `text` without the bracketed asides ("(URLs in provider-prices §6.4)")
/// and the clauses (parted by "; " or ". " outside brackets) that are
/// working notes.
fn client_text(text: &str) -> String {
    let text = &without_noted_asides(text);
    let mut clauses: Vec<(&str, &str)> = Vec::new(); // (clause, separator after it)
    let (mut depth, mut start) = (0i32, 0);
    let bytes = text.as_bytes();
    for (i, c) in text.char_indices() {
        match c {
            '(' | '（' | '[' => depth += 1,
            ')' | '）' | ']' => depth -= 1,
            ';' | '.' if depth == 0 && bytes.get(i + 1) == Some(&b' ') => {
                clauses.push((&text[start..i], &text[i..i + 2]));
                start = i + 2;
            }
            _ => {}
        }
    }
    clauses.push((&text[start..], ""));
    let kept: Vec<_> = clauses.iter().filter(|(c, _)| !working_note(c)).collect();
    let mut out = String::new();
    for (n, (clause, sep)) in kept.iter().enumerate() {
        out.push_str(clause);
        if n + 1 < kept.len() {
            out.push_str(sep);
        }
    }
    if out.is_empty() { text.to_owned() } else { out.trim_end_matches([';', ' ']).to_owned() }
}

/// `text` without the "(…)" asides at the top level whose words are working notes.
fn without_noted_asides(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(open) = rest.find('(') {
        let inner = &rest[open + 1..];
        // The matching close, counting nested brackets.
        let mut depth = 1;
        let close = inner.char_indices().find_map(|(i, c)| {
            depth += match c {
                '(' => 1,
                ')' => -1,
                _ => 0,
            };
            (depth == 0).then_some(i)
        });
        let Some(close) = close else { break };
        if working_note(&inner[..close]) {
            out.push_str(rest[..open].trim_end());
        } else {
            out.push_str(&rest[..open + 1 + close + 1]);
        }
        rest = &inner[close + 1..];
    }
    out.push_str(rest);
    out
}

/// A register's as-of text as a date a client reads: what follows "→"
/// when the register worked it out ("… → treat as ≈2026-H2"), none when
/// only working notes are left.
fn client_date(date: &str) -> Option<String> {
    let date = date.trim();
    let date = match date.rsplit_once('→') {
        Some((_, worked)) => worked.trim().trim_start_matches("treat as ").trim(),
        None => date,
    };
    let date = client_text(date);
    (!date.is_empty() && !working_note(&date)).then_some(date)
}

/// Who publishes a source: the host of its address (GitHub with the
/// repository), else the register that lists it.
fn publisher(s: &Source, lang: Lang) -> String {
    let Some(url) = s.url.as_deref().filter(|u| !u.trim().is_empty()) else {
        return match lang {
            Lang::En => format!("as listed in Suanli's {}", register_name(Some(s.sheet), lang)),
            Lang::Zh => format!("据 Suanli {}", register_name(Some(s.sheet), lang)),
        };
    };
    let rest = url.split_once("://").map_or(url, |(_, r)| r);
    let mut parts = rest.split('/');
    let host = parts.next().unwrap_or(rest).trim_start_matches("www.");
    match host {
        "github.com" => match (parts.next(), parts.next()) {
            (Some(owner), Some(repo)) => format!("GitHub, {owner}/{repo}"),
            _ => "GitHub".to_owned(),
        },
        "huggingface.co" => "Hugging Face".to_owned(),
        "arxiv.org" => "arXiv".to_owned(),
        other => other.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn working_notes_leave_titles_and_dates() {
        assert_eq!(
            client_text(
                "GitHub epoch-research/training-cost-trends — data/Hardware prices.csv (Epoch AI; file updated 2025-06-20); cited as 'S10 prices' for the price file"
            ),
            "GitHub epoch-research/training-cost-trends — data/Hardware prices.csv (Epoch AI; file updated 2025-06-20)"
        );
        assert_eq!(client_text("Lambda vms.csv @ 0f40703. Matches S24 (read 2026-09-20)."), "Lambda vms.csv @ 0f40703");
        assert_eq!(client_text("NVIDIA H100 datasheet"), "NVIDIA H100 datasheet");
        assert_eq!(
            client_text("USD/CNY central parity (CFETS), as reported by Xinhua (URLs in provider-prices §6.4)"),
            "USD/CNY central parity (CFETS), as reported by Xinhua"
        );
        assert_eq!(
            client_date("Commit date not exposed. The p5 prices match S18's retrieval (S9) → treat as ≈2026-H2")
                .as_deref(),
            Some("≈2026-H2")
        );
        assert_eq!(client_date("retrieved 2026-11-09").as_deref(), Some("retrieved 2026-11-09"));
        assert_eq!(client_date("see S18"), None);
    }
}

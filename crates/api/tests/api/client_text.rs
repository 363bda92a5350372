//! The text of every example proposal as a client reads it: Chinese lines
//! typeset by the line-breaking rules.

use crate::examples;
use suanli_api::Lang;
use suanli_api::proposal::{ProposalMeta, proposal_text_for_file};

/// Every example's proposal, page by page, in `lang`.
fn proposals(lang: Lang) -> Vec<(String, Vec<Vec<String>>)> {
    let db = tempfile::tempdir().unwrap();
    let db = db.path().join("db.sqlite");
    let meta = ProposalMeta { date: "2026-11-30".into(), ..ProposalMeta::default() };
    examples()
        .into_iter()
        .map(|file| {
            let name = file.file_name().unwrap().to_string_lossy().to_string();
            (name, proposal_text_for_file(&file, Some(&db), lang, &meta).unwrap())
        })
        .collect()
}

/// No line of a Chinese proposal starts with closing punctuation or ends
/// with an opening one (each wrapped line is one text operation).
#[test]
fn no_chinese_line_starts_with_closing_punctuation() {
    let mut problems = Vec::new();
    for (name, pages) in proposals(Lang::Zh) {
        for (n, page) in pages.iter().enumerate() {
            for line in page {
                let (Some(first), Some(last)) = (line.chars().next(), line.chars().last()) else { continue };
                if "，。、：；！？）》」』】”".contains(first) || "（《「『【“".contains(last) {
                    problems.push(format!("{name} page {}: {line}", n + 1));
                }
            }
        }
    }
    assert!(problems.is_empty(), "{} lines:\n{}", problems.len(), problems.join("\n"));
}

/// The first column of a catalogue CSV file (its ids).
fn ids_of(file: &str) -> Vec<String> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/catalog").join(file);
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .skip(1)
        .filter_map(|l| l.split(',').next().map(str::to_owned))
        .filter(|id| !id.is_empty())
        .collect()
}

/// The numbers a citation's text names: "[2, 5–7]" → 2, 5, 6, 7.
fn cited(text: &str) -> Vec<usize> {
    let mut out = Vec::new();
    for part in text.split('[').skip(1) {
        let Some((inside, _)) = part.split_once(']') else { continue };
        if !inside.chars().all(|c| c.is_ascii_digit() || c == ',' || c == ' ' || c == '–') {
            continue;
        }
        for item in inside.split(',').map(str::trim) {
            match item.split_once('–') {
                Some((a, b)) => {
                    if let (Ok(a), Ok(b)) = (a.parse::<usize>(), b.parse::<usize>()) {
                        out.extend(a..=b);
                    }
                }
                None => out.extend(item.parse::<usize>()),
            }
        }
    }
    out
}

/// No offer id or catalogue source id ("prices:S54", "gpu-facts 3G") is in
/// a proposal's text outside its reference list, and every "[n]" the text
/// cites is a listed reference, each of which is cited.
#[test]
fn sources_are_cited_by_number_and_every_citation_resolves() {
    let offers = ids_of("offers.csv");
    let sources: Vec<String> = ids_of("sources.csv").into_iter().chain(ids_of("feeds/sources.csv")).collect();
    let mut problems = Vec::new();
    for lang in [Lang::En, Lang::Zh] {
        let heading = lang.pick("References", "参考文献");
        for (name, pages) in proposals(lang) {
            // The reference list runs from its heading's page (the last
            // heading so named: the contents page names it too) to the end.
            let start = pages.iter().rposition(|p| p.iter().any(|t| t == heading)).unwrap_or(pages.len());
            let listed = pages[start.min(pages.len())..]
                .iter()
                .flatten()
                .filter(|t| t.starts_with('[') && t.ends_with(']') && cited(t).len() == 1)
                .count();
            let mut numbers = Vec::new();
            for (n, page) in pages[..start.min(pages.len())].iter().enumerate() {
                for text in page {
                    let at = format!("{name} {lang:?} page {}: {text}", n + 1);
                    numbers.extend(cited(text));
                    for word in text.split(|c: char| c.is_whitespace() || "()（）[];；,，".contains(c)) {
                        let w = word.trim_end_matches(['.', ':', '：', '。']);
                        if offers.iter().any(|id| id == w) {
                            problems.push(format!("offer id {w}: {at}"));
                        }
                        if sources.iter().any(|id| id == w && id != "article")
                            || w.starts_with("gpu:S")
                            || w.starts_with("prices:S")
                        {
                            problems.push(format!("source id {w}: {at}"));
                        }
                    }
                    for internal in
                        ["gpu-facts", "provider-prices", "china-prices", "catalogue offer", "catalogue ratio"]
                    {
                        if text.contains(internal) {
                            problems.push(format!("internal name {internal}: {at}"));
                        }
                    }
                }
            }
            numbers.sort_unstable();
            numbers.dedup();
            if let Some(n) = numbers.iter().find(|n| **n == 0 || **n > listed) {
                problems.push(format!("{name} {lang:?}: [{n}] cited, {listed} listed"));
            }
            if numbers.len() != listed {
                let uncited: Vec<usize> = (1..=listed).filter(|n| !numbers.contains(n)).collect();
                problems
                    .push(format!("{name} {lang:?}: {} of {listed} references cited; not {uncited:?}", numbers.len()));
            }
        }
    }
    assert!(problems.is_empty(), "{} problems:\n{}", problems.len(), problems.join("\n"));
}

/// Proper names and units a Chinese report writes in Latin letters (a word
/// in capitals, or with a digit, is a unit, acronym or model: "USD", "A100").
const PROPER: &[&str] = &[
    "token",
    "Suanli",
    "Lambda",
    "Azure",
    "Llama",
    "Megatron",
    "ResNet",
    "NVLink",
    "PCIe",
    "Instinct",
    "Gaudi",
    "Ascend",
    "MindSpore",
    "ZeRO",
    "Example",
    "AI",
    "p4de",
    "p5",
    "Blackwell",
    "Hopper",
    "CoreWeave",
    "RunPod",
    "Vast",
    "Nebius",
    "Crusoe",
    "Paperspace",
    "Hyperstack",
    "Fluidstack",
    "Scaleway",
    "Seeweb",
    "Cudo",
    "Datacrunch",
    "Verda",
    "Kunlunxin",
    "Biren",
    "Enflame",
    "Iluvatar",
    "Metax",
    "Hygon",
    "Cambricon",
    "Moore",
    "Threads",
    "FLOPs",
    "ms",
    "kWh",
    "Uptime",
    "FlagPerf",
    "MLPerf",
    "torch_npu",
    "MindIE",
    "vllm",
    "ascend",
    "Vast",
    "ai",
    // The catalogue's names of providers and instance types (proper names).
    "China",
    "Telecom",
    "eSurfing",
    "Cloud",
    "Alibaba",
    "Compute",
    "ecs",
    "cn",
    "shanghai",
    "median",
    "average",
    "marketplace",
    "cloud",
    "host",
];

/// Latin words in Chinese text that are neither a proper name nor a unit.
fn english_words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_ascii_alphanumeric() && c != '-' && c != '_')
        .flat_map(|w| w.split('-'))
        .filter(|w| w.chars().filter(char::is_ascii_alphabetic).count() >= 2)
        .filter(|w| w.chars().any(|c| c.is_ascii_lowercase()) && !w.chars().any(|c| c.is_ascii_digit()))
        .filter(|w| !PROPER.contains(w))
        .map(str::to_owned)
        .collect()
}

/// A Chinese proposal is Chinese throughout: no English word outside the
/// proper names and units above, and outside its reference list (whose
/// titles are the cited works' own).
#[test]
fn chinese_proposals_have_no_english_words() {
    let mut problems = Vec::new();
    for (name, pages) in proposals(Lang::Zh) {
        let end = pages.iter().rposition(|p| p.iter().any(|t| t == "参考文献")).unwrap_or(pages.len());
        let notices = pages.iter().rposition(|p| p.iter().any(|t| t == "声明")).unwrap_or(pages.len());
        for (n, page) in pages.iter().enumerate().filter(|(n, _)| *n < end || *n >= notices) {
            for text in page {
                let words = english_words(text);
                if !words.is_empty() {
                    problems.push(format!("{name} page {}: {words:?} in {text}", n + 1));
                }
            }
        }
    }
    assert!(problems.is_empty(), "{} lines:\n{}", problems.len(), problems.join("\n"));
}

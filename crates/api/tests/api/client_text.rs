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

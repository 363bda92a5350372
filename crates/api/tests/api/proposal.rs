//! What a client reads: every example scenario's proposal, in each
//! language, names options by their labels and inputs in words. No option
//! id, field name, TOML path, file name or seed reaches the text, and a
//! report is in one language.

use std::path::Path;

use crate::examples;
use suanli_api::Lang;
use suanli_api::proposal::{ProposalMeta, proposal_text_for_file};

/// The ids a scenario file declares (`id = "…"` lines) that look like
/// identifiers (a hyphen, an underscore or a digit): an id that is a plain
/// word ("mix", "flat") is also ordinary prose.
fn option_ids(file: &Path) -> Vec<String> {
    std::fs::read_to_string(file)
        .unwrap()
        .lines()
        .filter_map(|l| l.trim().strip_prefix("id = \"").and_then(|r| r.split('"').next()).map(str::to_owned))
        .filter(|id| id.chars().any(|c| c == '-' || c == '_' || c.is_ascii_digit()))
        .collect()
}

/// Product names their makers spell with an underscore.
const KEPT: &[&str] = &["torch_npu", "torch_mlu", "torch_gcu", "torch_musa"];

/// A snake_case word (`price_per_accel_hour`, `on_demand`) or a dotted
/// path (`options.x.on_demand`).
fn raw_key(word: &str) -> bool {
    let w = word.trim_matches(|c: char| !c.is_ascii_alphanumeric() && c != '_' && c != '.');
    let snake = w.contains('_') && w.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
    let dotted = w.split('.').filter(|p| !p.is_empty()).count() >= 2
        && w.split('.').all(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_lowercase() || c == '_' || c == '-'));
    snake || dotted
}

fn is_cjk(c: char) -> bool {
    matches!(c as u32, 0x3400..=0x4DBF | 0x4E00..=0x9FFF)
}

#[test]
fn proposals_hold_no_identifier_and_one_language() {
    let db = tempfile::tempdir().unwrap();
    let db = db.path().join("db.sqlite");
    let meta = ProposalMeta { date: "2026-11-30".into(), ..ProposalMeta::default() };
    let mut problems = Vec::new();
    // The catalogue's accelerator ids: an input that names one is said by its name.
    let accelerators: Vec<String> =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/catalog/accelerators.csv"))
            .unwrap()
            .lines()
            .skip(1)
            .filter_map(|l| l.split(',').next().map(str::to_owned))
            .collect();
    for file in examples() {
        let ids: Vec<String> = option_ids(&file).into_iter().chain(accelerators.iter().cloned()).collect();
        let name = file.file_name().unwrap().to_string_lossy().to_string();
        for lang in [Lang::En, Lang::Zh] {
            let pages = proposal_text_for_file(&file, Some(&db), lang, &meta).unwrap();
            // The reference list gives addresses and repository paths, as
            // its sources spell them (`client_text` checks it).
            let references = pages.iter().rposition(|p| p.iter().any(|t| t == lang.pick("References", "参考文献")));
            let notices = pages.iter().rposition(|p| p.iter().any(|t| t == lang.pick("Notices", "声明")));
            for (n, page) in pages.iter().enumerate() {
                if let (Some(r), Some(e)) = (references, notices)
                    && (r..e).contains(&n)
                {
                    continue;
                }
                for text in page {
                    let at = format!("{name} {lang:?} page {}: {text}", n + 1);
                    for word in text.split(|c: char| c.is_whitespace() || "，。：；（）,;:()“”".contains(c)) {
                        let w = word.trim_matches(|c: char| !c.is_ascii_alphanumeric() && c != '-' && c != '_');
                        if ids.iter().any(|id| id == w) {
                            problems.push(format!("option id {w}: {at}"));
                        }
                        if raw_key(word) && !KEPT.contains(&w) {
                            problems.push(format!("raw key {word}: {at}"));
                        }
                    }
                    if text.contains(".toml") {
                        problems.push(format!("file name: {at}"));
                    }
                    if text.contains("[U+") {
                        problems.push(format!("a shipped character outside the font: {at}"));
                    }
                    let lower = text.to_lowercase();
                    if lower.contains("seed") || text.contains("种子") {
                        problems.push(format!("seed: {at}"));
                    }
                    if lang == Lang::En && text.chars().any(is_cjk) {
                        problems.push(format!("Chinese in the English report: {at}"));
                    }
                }
            }
        }
    }
    assert!(problems.is_empty(), "{} problems:\n{}", problems.len(), problems.join("\n"));
}

/// Dashes and ellipses are drawn, not dropped ("P10–P90", not "P10P90").
#[test]
fn dashes_and_ellipses_reach_the_page() {
    let db = tempfile::tempdir().unwrap();
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/scenarios/domestic-card-full.toml");
    let meta = ProposalMeta { date: "2026-11-30".into(), ..ProposalMeta::default() };
    for lang in [Lang::En, Lang::Zh] {
        let text: String =
            proposal_text_for_file(&file, Some(&db.path().join("db.sqlite")), lang, &meta).unwrap().concat().join("\n");
        assert!(text.contains("P10–P90"), "{lang:?}");
        assert!(!text.contains("P10P90"), "{lang:?}");
    }
}

/// A proposal for serving a model says, beside the comparison, whether each
/// option's cards hold it and what a million tokens cost, in its language.
#[test]
fn the_proposal_says_whether_the_model_fits_and_what_a_million_tokens_cost() {
    let db = tempfile::tempdir().unwrap();
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/scenarios/llm-inference-70b.toml");
    let meta = ProposalMeta { date: "2026-11-30".into(), ..ProposalMeta::default() };
    // Lines joined as a reader reads them across a wrap.
    let text = |lang, wrap| -> String {
        proposal_text_for_file(&file, Some(&db.path().join("db.sqlite")), lang, &meta).unwrap().concat().join(wrap)
    };
    let en = text(Lang::En, " ");
    assert!(en.contains("the model fits (2 of its 8 × 141 GB cards hold it)"), "{en}");
    assert!(en.contains("of compute per million output tokens"), "{en}");
    // In the comparison table's order: the cheapest (H100) before the H200.
    let at = |label: &str| en.find(&format!("{label}: the model fits")).unwrap_or_else(|| panic!("{label}: {en}"));
    assert!(at("Rent 8×H100 (AWS p5)") < at("Rent 8×H200 (OCI)"), "{en}");
    let zh = text(Lang::Zh, "");
    assert!(zh.contains("模型可装下（8 张 141 GB 卡中需 2 张）"), "{zh}");
    assert!(zh.contains("每百万输出 token 算力成本"), "{zh}");
}

/// The business case's cash flow by year, in both languages: each year's
/// total as the engine gives it, and the purchase's payback and return.
#[test]
fn the_proposal_gives_the_cash_flow_by_year_and_the_purchase_case() {
    let db = tempfile::tempdir().unwrap();
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/scenarios/a100-8x-buy-vs-rent.toml");
    let meta = ProposalMeta { date: "2026-11-30".into(), ..ProposalMeta::default() };
    let text = |lang, wrap| -> String {
        proposal_text_for_file(&file, Some(&db.path().join("db.sqlite")), lang, &meta).unwrap().concat().join(wrap)
    };
    let en = text(Lang::En, " ");
    assert!(en.contains("4. Cash flow by year"), "{en}");
    // Renting: 8 × 730 h × CNY 8.56 × 12 = CNY 599,885 a year: three years in
    // the table of options and in the recommended option's (recurring and
    // total); in the budget by fiscal year from the proposal's November, the
    // two whole years, and Nov–Dec 2026 is two months, CNY 99,981.
    assert_eq!(en.matches("CNY 599,885").count(), 3 + 3 * 2 + 2, "{en}");
    assert!(en.contains("FY2026 (Nov–Dec) CNY 99,981"), "{en}");
    assert!(
        en.contains("Buy one 8×A100 server instead of Rent 8×A100 on demand: does not pay back within the horizon"),
        "{en}"
    );
    let zh = text(Lang::Zh, "");
    assert!(zh.contains("4. 逐年现金流"), "{zh}");
    assert!(zh.contains("以自购 8卡A100 服务器代替"), "{zh}");
    assert!(zh.contains("8卡A100：评估期内收不回多付的投入"), "{zh}");
}

/// The risk register takes its figures from the evaluation (the porting
/// cost and delay as the porting table gives them), and the proposal closes
/// with next steps, an approval block and notices naming the client.
#[test]
fn the_proposal_closes_with_risks_next_steps_approval_and_notices() {
    let db = tempfile::tempdir().unwrap();
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/scenarios/domestic-card-full.toml");
    let meta = ProposalMeta { date: "2026-11-30".into(), client: "Example AI".into(), ..ProposalMeta::default() };
    let en =
        proposal_text_for_file(&file, Some(&db.path().join("db.sqlite")), Lang::En, &meta).unwrap().concat().join(" ");
    for heading in ["9. Risks", "10. Next steps and approval", "Approved by", "Notices"] {
        assert!(en.contains(heading), "{heading}: {en}");
    }
    assert!(en.contains("Porting off CUDA takes longer CNY 900,000, 4.5 months"), "{en}");
    assert!(en.contains("CNY 900,000 4.5 months"), "the porting table gives the same figures: {en}");
    assert!(en.contains("Confidential: prepared for the internal decision of Example AI"), "{en}");
    let zh =
        proposal_text_for_file(&file, Some(&db.path().join("db.sqlite")), Lang::Zh, &meta).unwrap().concat().join("");
    assert!(zh.contains("9. 风险") && zh.contains("迁移耗时更长") && zh.contains("声明"), "{zh}");
}

/// The assumptions in plain words follow the summary, and owned servers'
/// electricity and emissions come from their draw, PUE, utilisation and
/// the scenario's grid factor with its source.
#[test]
fn the_proposal_states_its_assumptions_and_the_energy_of_owned_servers() {
    let db = tempfile::tempdir().unwrap();
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/scenarios/ascend-910b-cluster.toml");
    let meta = ProposalMeta { date: "2026-11-30".into(), ..ProposalMeta::default() };
    let text = |lang, wrap| -> String {
        proposal_text_for_file(&file, Some(&db.path().join("db.sqlite")), lang, &meta).unwrap().concat().join(wrap)
    };
    let en = text(Lang::En, " ");
    assert!(en.contains("2. What the comparison assumes"), "{en}");
    assert!(en.contains("The horizon: 36 months (3 years)"), "{en}");
    assert!(en.contains("The discount rate: 8% a year"), "{en}");
    assert!(en.contains("busy 88% of the time"), "{en}");
    assert!(en.contains("Energy and emissions"), "{en}");
    assert!(en.contains("Grid emission factor: 0.5306 kg CO2 per kWh (MEE and NBS"), "{en}");
    let (s, _) = suanli_api::load_resolved(&file, Some(&db.path().join("db.sqlite"))).unwrap();
    let e = suanli_api::evaluate(&s);
    let kwh = e.options.iter().find_map(|o| o.owned_energy_kwh).unwrap();
    let mwh = suanli_api::format_number(kwh / 1000.0, 0);
    let tonnes = suanli_api::format_number(kwh * 0.5306 / 1000.0, 0);
    assert!(en.contains(&format!("{mwh} ")) && en.contains(&tonnes), "{mwh} MWh, {tonnes} t: {en}");
    let zh = text(Lang::Zh, "");
    assert!(zh.contains("2. 比较所依据的假设") && zh.contains("能耗与排放"), "{zh}");
    assert!(zh.contains("生态环境部、国家统计局"), "the source in Chinese: {zh}");
}

/// Options a catalogue filter expands keep the report's language: a
/// bilingual filter label gives each offer a label in both.
#[test]
fn expanded_options_are_named_in_the_reports_language() {
    let db = tempfile::tempdir().unwrap();
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/scenarios/catalog-offers.toml");
    let meta = ProposalMeta { date: "2026-11-30".into(), ..ProposalMeta::default() };
    let text = |lang| -> String {
        proposal_text_for_file(&file, Some(&db.path().join("db.sqlite")), lang, &meta).unwrap().concat().join("")
    };
    let zh = text(Lang::Zh);
    assert!(zh.contains("H100 SXM 按需，最便宜的三家 — "), "{zh}");
    assert!(!zh.contains("three cheapest"), "{zh}");
    let en = text(Lang::En);
    assert!(en.contains("H100 SXM on demand, three cheapest — "), "{en}");
}

/// The catalogue prices a proposal rests on, aged on the proposal's date:
/// an old one is marked stale in its language; the same price in a
/// proposal dated soon after it is not.
#[test]
fn a_proposal_ages_its_catalogue_prices_on_its_own_date() {
    let db = tempfile::tempdir().unwrap();
    let db = db.path().join("db.sqlite");
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/scenarios/catalog-offers.toml");
    let text = |date: &str, lang| {
        let meta = ProposalMeta { date: date.into(), ..ProposalMeta::default() };
        proposal_text_for_file(&file, Some(&db), lang, &meta).unwrap().concat()
    };
    // The age printed after a date in the price-date table (it follows its heading).
    let row_after = |lines: &[String], date: &str| {
        let table = lines.iter().position(|l| l == "How old each catalogue price is" || l == "各目录价格的时效");
        let table = &lines[table.expect("no price-date table")..];
        let at = table.iter().position(|l| l == date).unwrap_or_else(|| panic!("no price dated {date}: {table:?}"));
        table[at + 1].clone()
    };
    // The example's offers include one dated 2025-03-03 (vast.ai's A100 market median).
    let en = text("2026-11-30", Lang::En);
    assert_eq!(row_after(&en, "2025-03-03"), "20 months · stale");
    let zh = text("2026-11-30", Lang::Zh);
    assert_eq!(row_after(&zh, "2025-03-03"), "20 个月 · 已过时");
    // Dated a month after that price, the proposal finds it fresh.
    let early = text("2025-04-03", Lang::En);
    assert_eq!(row_after(&early, "2025-03-03"), "1 month");
}

/// When the recommended option's own price is stale, the executive summary
/// says so and asks for it to be confirmed, in the proposal's language.
#[test]
fn a_stale_price_behind_the_recommendation_is_said_in_the_summary() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("db.sqlite");
    let file = dir.path().join("stale.toml");
    // One option on RunPod's H100 price of 2025-03-03 (a bundled offer).
    std::fs::write(
        &file,
        r#"name = "Rent H100 / 租用 H100"
horizon_months = 12
currency = "USD"
discount_rate_annual = 0.08
[demand]
kind = "profile"
monthly_ref_gpus = [8]
[[options]]
id = "rent-h100"
label = "Rent H100 / 租用 H100"
kind = "rent"
billing = "on_demand"
[options.on_demand]
offer = "runpod-h100-sxm-on-demand-gpu-s10"
"#,
    )
    .unwrap();
    let text = |date: &str, lang| {
        let meta = ProposalMeta { date: date.into(), ..ProposalMeta::default() };
        proposal_text_for_file(&file, Some(&db), lang, &meta).unwrap().concat().join(" ")
    };
    let en = text("2026-11-30", Lang::En);
    assert!(en.contains("dates from 2025-03-03, 20 months before this proposal"), "{en}");
    assert!(en.contains("past the 6-month threshold"));
    let zh = text("2026-11-30", Lang::Zh);
    assert!(zh.contains("日期为 2025-03-03，距本建议书 20 个月"), "{zh}");
    assert!(!text("2025-04-03", Lang::En).contains("before this proposal"), "a fresh price is not flagged");
}

/// One option is not "the lowest of the 1 options compared": the summary
/// says it is the only one.
#[test]
fn a_proposal_of_one_option_says_it_is_the_only_one_compared() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/scenarios/a100-8x-buy-vs-rent.toml"),
    )
    .unwrap();
    // The file's second option starts at its second [[options]]; nothing follows the options.
    let second = text.match_indices("[[options]]").nth(1).map(|(i, _)| i).unwrap();
    let file = dir.path().join("one.toml");
    std::fs::write(&file, &text[..second]).unwrap();
    let meta = ProposalMeta { date: "2026-11-30".into(), ..ProposalMeta::default() };
    let db = dir.path().join("db.sqlite");
    let en = proposal_text_for_file(&file, Some(&db), Lang::En, &meta).unwrap().concat().join(" ");
    assert!(en.contains("it is the only option compared"), "{en}");
    assert!(!en.contains("of the 1 options"), "{en}");
    // No saving against a dearer option that is not there.
    assert!(en.contains("Saving vs the dearest option —") && !en.contains("Saving vs the dearest option 0%"), "{en}");
    let zh = proposal_text_for_file(&file, Some(&db), Lang::Zh, &meta).unwrap().concat().join("");
    assert!(zh.contains("这是唯一参与比较的方案"), "{zh}");
    assert!(!zh.contains("全部 1 个方案"), "{zh}");
}

/// An estimated serving throughput is traced to its method in the appendix,
/// not called the user's assumption.
#[test]
fn the_appendix_traces_an_estimated_throughput_to_its_method() {
    let db = tempfile::tempdir().unwrap();
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/scenarios/llm-inference-70b.toml");
    let meta = ProposalMeta { date: "2026-11-30".into(), ..ProposalMeta::default() };
    for (lang, method) in [(Lang::En, "serving model"), (Lang::Zh, "推理服务模型")] {
        let pages = proposal_text_for_file(&file, Some(&db.path().join("db.sqlite")), lang, &meta).unwrap();
        let text = pages.concat().join("\n");
        let at = text.find("584.703288").unwrap_or_else(|| panic!("no throughput row: {text}"));
        let row: String = text[at..].chars().take(200).collect();
        assert!(row.contains(method), "{row}");
    }
}

//! Proposals and spreadsheets from the article's 8×A100 case; `board`: what
//! a board signs off on, from the other examples.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod board;

use suanli_model::{Checked, Evaluation, Lang, Scenario};
use suanli_report::proposal::{ProposalInput, ProposalMeta, proposal_pdf};
use suanli_report::sheet;

fn case() -> (Scenario, Evaluation) {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/scenarios/a100-8x-buy-vs-rent.toml");
    let s: Scenario = toml::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let e = Checked::new(s.clone()).unwrap().into_evaluation();
    (s, e)
}

fn pdf(s: &Scenario, e: &Evaluation, meta: &ProposalMeta, lang: Lang) -> Vec<u8> {
    proposal_pdf(&ProposalInput {
        scenario: s,
        evaluation: e,
        simulation: None,
        sensitivity: None,
        meta,
        names: &Default::default(),
        lang,
        price_dates: &[],
        stale_after_months: 6,
        sources: &Default::default(),
        board: &Default::default(),
    })
    .unwrap()
}

fn meta() -> ProposalMeta {
    ProposalMeta {
        logo: None,
        client: "Example AI".into(),
        author: "Li Wei".into(),
        firm: "Suanli".into(),
        date: "2026-11-30".into(),
    }
}

#[test]
fn the_same_inputs_give_the_same_bytes_in_each_language() {
    let (s, e) = case();
    for lang in [Lang::En, Lang::Zh] {
        let a = pdf(&s, &e, &meta(), lang);
        let b = pdf(&s, &e, &meta(), lang);
        if a != b {
            std::fs::write(std::env::temp_dir().join("suanli-a.pdf"), &a).unwrap();
            std::fs::write(std::env::temp_dir().join("suanli-b.pdf"), &b).unwrap();
        }
        assert!(a == b, "{lang:?}: two runs differ");
        assert!(a.starts_with(b"%PDF-"));
        assert!(a.len() < 1_500_000, "{} bytes", a.len());
    }
    let other_date = ProposalMeta { date: "2026-12-01".into(), ..meta() };
    assert!(pdf(&s, &e, &other_date, Lang::En) != pdf(&s, &e, &meta(), Lang::En));
}

#[test]
fn hostile_and_very_long_text_renders_inert() {
    let (mut s, e) = case();
    s.name = format!("<script>alert('x')</script> %PDF-1.7 ) ( \\ \u{202E}evil\u{202C} {}", "很长的名字".repeat(200));
    s.description = "🚀 emoji and 𠀀 rare ideographs fall back; ".repeat(50);
    let meta = ProposalMeta { client: "Robert'); DROP TABLE clients;--".into(), ..meta() };
    let bytes = pdf(&s, &e, &meta, Lang::Zh);
    assert!(bytes.starts_with(b"%PDF-"));
    assert!(bytes.len() < 1_500_000);
}

#[test]
fn the_spreadsheet_holds_the_engines_figures_as_formulas_of_its_inputs() {
    use calamine::{Data, Reader, Xlsx};
    let (s, e) = case();
    let lines = suanli_model::cost_lines::cost_lines(&Checked::new(s.clone()).unwrap());
    let tables = sheet::tables(&s, &e, &lines, &Default::default(), Lang::En).unwrap();
    let bytes = sheet::xlsx(&tables, Lang::En, "2026-12-01").unwrap();
    // Dated by the caller, not the clock: the same tables a second later are the same bytes.
    std::thread::sleep(std::time::Duration::from_millis(1100));
    assert!(
        bytes == sheet::xlsx(&tables, Lang::En, "2026-12-01").unwrap(),
        "the workbook's bytes moved with the clock"
    );
    let mut book: Xlsx<_> = Xlsx::new(std::io::Cursor::new(bytes)).unwrap();
    assert_eq!(
        book.sheet_names(),
        vec!["Summary", "Comparison", "Inputs", "Breakdown", "Monthly", "By year", "Cost lines", "Assumptions"]
    );
    let comparison = book.worksheet_range("Comparison").unwrap();
    // Row 1: buy, 3,000,000 nominal; row 2: rent, 1,799,654.40 (the cached results).
    assert_eq!(comparison.get_value((1, 2)), Some(&Data::Float(3_000_000.0)));
    assert_eq!(comparison.get_value((2, 2)), Some(&Data::Float(1_799_654.4)));
    assert_eq!(comparison.get_value((2, 4)), Some(&Data::Float(8.56)));
    let formulas = book.worksheet_formula("Comparison").unwrap();
    assert_eq!(formulas.get_value((2, 2)).map(String::as_str), Some("SUM(Monthly!$C$2:$C$37)"));
    assert!(formulas.get_value((2, 3)).unwrap().starts_with("SUMPRODUCT(Monthly!$C$2:$C$37,Monthly!$D$2:$D$37)"));
    // The rent line is the on-demand price on the Inputs sheet times the hours.
    let inputs = book.worksheet_range("Inputs").unwrap();
    let price_row = (0..inputs.height() as u32)
        .find(|r| matches!(inputs.get_value((*r, 0)), Some(Data::String(t)) if t.contains("on-demand") || t.contains("On-demand") || t.contains("price per accelerator-hour")))
        .expect("the on-demand price on the Inputs sheet");
    assert_eq!(inputs.get_value((price_row, 1)), Some(&Data::Float(8.56)));
    assert_eq!(inputs.get_value((1, 1)), Some(&Data::Float(0.08)), "the discount rate");
    let cost_lines = book.worksheet_formula("Cost lines").unwrap();
    // The price's cell is named, and the formulas read it by its name.
    let name = match inputs.get_value((price_row, 4)) {
        Some(Data::String(n)) => n.clone(),
        other => panic!("the price's name {other:?}"),
    };
    assert!(name.ends_with("on_demand_price_per_accel_hour"), "{name}");
    assert!(cost_lines.rows().flatten().any(|f| f == &format!("5840*{name}")), "8 cards × 730 h × the price");
    assert_eq!(
        book.defined_names().iter().find(|(n, _)| *n == name).map(|(_, f)| f.as_str()),
        Some(format!("Inputs!$B${}", price_row + 1).as_str())
    );
    // The summary names the option with the lowest net present cost, by formula.
    let summary = book.worksheet_formula("Summary").unwrap();
    assert!(summary.rows().flatten().any(|f| f.starts_with("INDEX(Comparison!$A$2:$A$3,MATCH(MIN(")), "{summary:?}");
    let summary = book.worksheet_range("Summary").unwrap();
    assert_eq!(
        summary.get_value((4, 1)),
        Some(&Data::String(e.options[1].label.split(" / ").next().unwrap().to_owned()))
    );
    let monthly = book.worksheet_range("Monthly").unwrap();
    assert_eq!(monthly.height(), 37, "header and 36 months");
    assert_eq!(monthly.get_value((1, 0)), Some(&Data::Float(1.0)));
    // Renting: 8 × 730 × 8.56 = 49,990.40 every month.
    assert_eq!(monthly.get_value((1, 2)), Some(&Data::Float(49_990.4)));
    // By year: each option's three years, capital in the first, adding up
    // to the comparison's total.
    let yearly = book.worksheet_range("By year").unwrap();
    assert_eq!(yearly.height(), 1 + 2 * 3, "header and 3 years of 2 options");
    let buy = &e.options[0];
    let capital = buy.breakdown(suanli_model::Category::Hardware) + buy.breakdown(suanli_model::Category::Installation);
    assert!(capital > 0.0);
    assert_eq!(yearly.get_value((1, 3)), Some(&Data::Float(capital)), "the server, bought in year 1");
    assert_eq!(yearly.get_value((2, 3)), Some(&Data::Float(0.0)));
    let rent_total: f64 = (4..=6)
        .map(|r| match yearly.get_value((r, 7)) {
            Some(Data::Float(x)) => *x,
            other => panic!("year total {other:?}"),
        })
        .sum();
    assert!((rent_total - 1_799_654.4).abs() < 0.01, "{rent_total}");
    let zh = sheet::tables(&s, &e, &lines, &Default::default(), Lang::Zh).unwrap();
    let csv = sheet::csv(&zh);
    assert_eq!(csv[1].0, "comparison.csv");
    assert!(csv[1].1.starts_with("\u{FEFF}方案,类型"));
    assert!(csv[1].1.contains("1799654.4"));
    assert!(csv[1].1.contains("租用"), "the option's kind in Chinese");
}

/// A 2×1 PNG (one red, one blue pixel), written out byte by byte.
const PNG: &[u8] = &[
    0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52, 0x00, 0x00, 0x00,
    0x02, 0x00, 0x00, 0x00, 0x01, 0x08, 0x02, 0x00, 0x00, 0x00, 0x7B, 0x40, 0xE8, 0xDD, 0x00, 0x00, 0x00, 0x0D, 0x49,
    0x44, 0x41, 0x54, 0x78, 0x9C, 0x63, 0xF8, 0xCF, 0x00, 0x04, 0xFF, 0x01, 0x07, 0x00, 0x01, 0xFF, 0xE2, 0x23, 0x9E,
    0x59, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82,
];

#[test]
fn a_logo_goes_on_the_cover_and_a_broken_one_is_refused() {
    let (s, e) = case();
    let with_logo = ProposalMeta { logo: Some(PNG.to_vec()), ..meta() };
    let input = |m: &ProposalMeta| {
        proposal_pdf(&ProposalInput {
            scenario: &s,
            evaluation: &e,
            simulation: None,
            sensitivity: None,
            meta: m,
            names: &Default::default(),
            lang: Lang::En,
            price_dates: &[],
            stale_after_months: 6,
            sources: &Default::default(),
            board: &Default::default(),
        })
    };
    match input(&with_logo) {
        Ok(bytes) => assert!(bytes.windows(8).any(|w| w == b"/XObject"), "the logo is embedded"),
        Err(e) => panic!("{e}"),
    }
    let broken = ProposalMeta { logo: Some(b"not an image".to_vec()), ..meta() };
    let err = input(&broken).unwrap_err();
    assert!(matches!(err, suanli_report::ReportError::Logo { .. }), "{err}");
    assert!(err.to_string().contains("logo"), "{err}");
    assert!(err.message(Lang::Zh).starts_with("徽标不是"), "{}", err.message(Lang::Zh));
}

/// The PDF's charts and the app's charts use one palette, in one order.
#[test]
fn the_pdf_palette_is_the_apps() {
    let file: serde_json::Value =
        serde_json::from_str(include_str!("../../../../ui/src/charts/palette.json")).expect("palette.json parses");
    let app: Vec<String> =
        file["colors"].as_array().expect("colors").iter().map(|c| c.as_str().unwrap_or("").to_uppercase()).collect();
    let pdf: Vec<String> =
        suanli_report::proposal::PALETTE.iter().map(|c| format!("#{:02X}{:02X}{:02X}", c.0, c.1, c.2)).collect();
    assert_eq!(pdf, app);
}

/// Every character Suanli itself can put on a page or a screen — the app's
/// strings in both languages, the bundled catalogue, the example scenarios
/// and the report's and engine's own words (their source files, which hold
/// every literal a proposal prints) — is drawn by the embedded font, so the
/// fallback is only ever needed for a user's own rare characters.
#[test]
fn the_embedded_font_draws_every_shipped_string() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut files = vec![root.join("ui/src/i18n/en.ts"), root.join("ui/src/i18n/zh-CN.ts")];
    for (dir, ext) in [
        ("data/catalog", "csv"),
        ("data/scenarios", "toml"),
        ("crates/report/src", "rs"),
        ("crates/model/src", "rs"),
        ("crates/model/src/scenario", "rs"),
    ] {
        let mut found: Vec<_> = std::fs::read_dir(root.join(dir))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == ext))
            .collect();
        assert!(!found.is_empty(), "{dir}");
        found.sort();
        files.extend(found);
    }
    let mut missing = std::collections::BTreeMap::<char, String>::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        for c in text.chars() {
            if !c.is_control() && c != '\u{FEFF}' && !suanli_report::font_covers(c) {
                missing.entry(c).or_insert_with(|| file.display().to_string());
            }
        }
    }
    let list: Vec<String> = missing.iter().map(|(c, f)| format!("{c} U+{:04X} ({f})", u32::from(*c))).collect();
    assert!(list.is_empty(), "the font lacks: {list:#?}");
    for c in ['昇', '–', '—', '…', '×', '≤', '≥', '≈', '±', '→', '¥', '·', '€', '㎡', '①', '䶮']
    {
        assert!(suanli_report::font_covers(c), "{c}");
    }
}

/// A character outside the font is never a "?" or nothing: its
/// compatibility form when the font draws that, else its code point.
#[test]
fn characters_outside_the_font_take_the_documented_fallback() {
    let covers = suanli_report::font_covers;
    assert!(!covers('₂') && !covers('𠀀') && !covers('🚀'));
    assert_eq!(suanli_report::fallback('₂', covers), "2");
    assert_eq!(suanli_report::fallback('𠀀', covers), "[U+20000]");
    assert_eq!(suanli_report::fallback('🚀', covers), "[U+1F680]");
}

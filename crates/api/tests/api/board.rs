//! The board's sections of a proposal as the API builds them, with what the
//! catalogue knows: the risk register, from the text the proposal draws.

use std::path::Path;

use suanli_api::Lang;
use suanli_api::proposal::{ProposalMeta, proposal_text_for_file};

fn text(file: &str, lang: Lang) -> Vec<String> {
    let db = tempfile::tempdir().unwrap();
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/scenarios").join(file);
    let meta = ProposalMeta { date: "2026-11-30".into(), ..ProposalMeta::default() };
    proposal_text_for_file(&path, Some(&db.path().join("db.sqlite")), lang, &meta)
        .unwrap()
        .into_iter()
        .map(|page| page.join(if lang == Lang::Zh { "" } else { " " }))
        .collect()
}

/// Renting A100s with amounts in CNY: the register names the US licence
/// requirement, since when, and the rule behind it.
#[test]
fn a_buyer_in_china_renting_a100s_reads_the_export_licence_risk_with_its_source() {
    let en = text("ascend-910b-cluster.toml", Lang::En);
    let risks = en.iter().find(|p| p.contains("Risks") && p.contains("Likelihood or figure")).expect("a register");
    assert!(risks.contains("US export licence required for a buyer in China"), "{risks}");
    assert!(risks.contains("in force since 2022-10-07"), "{risks}");
    assert!(risks.contains("ECCN 3A090"), "the rule as its source: {risks}");
    assert!(!risks.contains("no risk is quantified"), "{risks}");
    let zh = text("ascend-910b-cluster.toml", Lang::Zh).concat();
    assert!(zh.contains("中国买方须取得美国出口许可"), "{zh}");
    // Lines joined without a space: a wrap may fall inside the phrase.
    assert!(zh.contains("自 2022-10-07") && zh.contains("起生效"), "{zh}");
}

/// Every example's register has a sourced risk for every option.
#[test]
fn every_option_of_every_example_has_a_sourced_risk() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/scenarios");
    for entry in std::fs::read_dir(&dir).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        if !name.ends_with(".toml") {
            continue;
        }
        let pages = text(&name, Lang::En);
        let register = pages.iter().find(|p| p.contains("Likelihood or figure")).unwrap_or_else(|| panic!("{name}"));
        assert!(register.contains("Dependence on one provider"), "{name}");
        assert!(register.contains("the option as the scenario states it"), "{name}");
    }
}

/// The 175 B example rents A100s at the article's 0.8 CNY a card-hour, over
/// ten times below the catalogue's A100 on-demand offers: flagged in the
/// summary and the register, and by `price_flags` (what `evaluate` prints).
#[test]
fn a_price_ten_times_below_the_catalogues_range_is_flagged() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/scenarios/gpt3-175b-training.toml");
    let s = suanli_api::load_scenario(&path).unwrap();
    let flags = suanli_api::price_check::price_flags(&s);
    assert_eq!(flags.len(), 1, "{flags:?}");
    let f = &flags[0];
    assert_eq!((f.option_id.as_str(), f.field.as_str()), ("rent-256", "on_demand.price_per_accel_hour"));
    assert!(f.factor() < 0.1, "0.8 against at least 8 CNY: {}", f.factor());
    let en = text("gpt3-175b-training.toml", Lang::En).join(" ");
    assert!(en.contains("Check the price: Rent 256 cards"), "{en}");
    assert!(en.contains("Price far from the market"), "{en}");
    // The budget the board approves rests on it: the next steps say so first.
    assert!(en.contains("Get a written quote before approving: CNY 0.80 per accelerator-hour"), "{en}");
    let zh = text("gpt3-175b-training.toml", Lang::Zh).concat();
    assert!(zh.contains("请核实价格") && zh.contains("价格与市场相差甚远"), "{zh}");
    // The editor's evaluation carries it for the option's result card.
    let doc = suanli_api::document::doc_from_toml(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let today = chrono::NaiveDate::from_ymd_opt(2026, 12, 4).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let (c, _) = suanli_catalog::Catalog::open(&dir.path().join("catalog.sqlite"), "2026-12-04T10:00:00Z").unwrap();
    let ev = suanli_api::document::evaluate_doc(&doc, Some(&c), Lang::Zh, today).unwrap();
    let far: Vec<_> = ev.far_prices.iter().map(|f| (f.option_id.as_str(), f.field.as_str())).collect();
    assert_eq!(far, [("rent-256", "on_demand.price_per_accel_hour")]);
    assert!(ev.far_prices[0].text.contains("价格下限"), "{}", ev.far_prices[0].text);
}

/// The summary gives reasons beyond the lowest cost: the break-even of
/// buying against renting, the input the decision is most sensitive to
/// (with ranges), the margin to the runner-up, and a non-cost table.
#[test]
fn the_summary_reasons_with_break_even_sensitivity_and_margin() {
    let en = text("a100-8x-buy-vs-rent.toml", Lang::En);
    let summary = en.iter().find(|p| p.contains("Executive summary") && p.contains("Recommendation")).unwrap();
    assert!(summary.contains("does Buy one 8×A100 server cost the same as renting"), "{summary}");
    assert!(
        summary.contains("The recommendation changes only if the net present cost of Buy one 8×A100 server falls by"),
        "{summary}"
    );
    let all = en.join(" ");
    assert!(
        all.contains("What the cost does not show")
            && all.contains("your own site")
            && all.contains("none: stop any hour")
    );
    let ranged = text("domestic-card-full.toml", Lang::En).join(" ");
    assert!(ranged.contains("The decision is most sensitive to"), "{ranged}");
    let zh = text("domestic-card-full.toml", Lang::Zh).concat();
    assert!(zh.contains("决策对") && zh.contains("最敏感") && zh.contains("成本之外的考量"), "{zh}");
}

//! What a board signs off on in the proposal: the fleet, the deadline, the
//! risks, the defaults, the budget. Read from the text the proposal draws.

use suanli_model::{Checked, Evaluation, Lang, Scenario};
use suanli_report::proposal::{ProposalInput, ProposalMeta, proposal_text};

fn example(file: &str) -> (Scenario, Evaluation) {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/scenarios").join(file);
    let s: Scenario = toml::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let e = Checked::new(s.clone()).unwrap().into_evaluation();
    (s, e)
}

fn pages(s: &Scenario, e: &Evaluation, lang: Lang) -> Vec<Vec<String>> {
    let meta = ProposalMeta { date: "2026-11-30".into(), ..Default::default() };
    proposal_text(&ProposalInput {
        scenario: s,
        evaluation: e,
        simulation: None,
        sensitivity: None,
        meta: &meta,
        names: &Default::default(),
        lang,
        price_dates: &[],
        stale_after_months: 6,
        sources: &Default::default(),
        board: &Default::default(),
    })
    .unwrap()
}

/// The pages as one string each, lines joined by a space.
fn joined(s: &Scenario, e: &Evaluation, lang: Lang) -> Vec<String> {
    pages(s, e, lang).into_iter().map(|p| p.join(" ")).collect()
}

#[test]
fn the_buy_options_deadline_miss_is_in_the_summary_and_the_options_table() {
    let (s, e) = example("gpt3-175b-training.toml");
    let en = joined(&s, &e, Lang::En);
    let summary = en.iter().position(|p| p.contains("Executive summary") && p.contains("Recommendation")).unwrap();
    // Four months' lead time + 3.46 months of training = 7.5 > 6.
    assert!(en[summary].contains("misses the 6-month deadline: its result comes in 7.5 months"), "{}", en[summary]);
    assert!(en[summary].contains("within the 6-month deadline"), "{}", en[summary]);
    let table = en.iter().position(|p| p.contains("Fleet and time to result")).unwrap();
    assert!(en[table].contains("7.5 months: late (deadline 6)"), "{}", en[table]);
    assert!(en[table].contains("(misses the 6-month deadline)"));
    // The saving is not measured against the late option: it is the only rival, so none is shown.
    assert!(!en[summary].contains("99 %"), "{}", en[summary]);
    let zh = joined(&s, &e, Lang::Zh);
    assert!(zh.iter().any(|p| p.contains("7.5 个月：超期（期限 6 个月）")));
    assert!(zh.iter().any(|p| p.contains("超出 6 个月的期限")));
}

#[test]
fn the_fleet_is_in_the_summary_and_a_label_naming_another_count_is_flagged() {
    let (s, e) = example("ascend-910b-cluster.toml");
    let en = joined(&s, &e, Lang::En).join(" ");
    // "Rent 16 A100" rents on demand what the demand asks: 12 reference GPUs a month of A100 (the
    // reference, ratio 1), so 12 cards.
    assert!(en.contains("the label names 16 accelerators; it is costed on 12 at the peak"), "{en}");
    assert!(en.contains("Its fleet:"));
    assert!(en.contains("2 servers"));
    let zh = joined(&s, &e, Lang::Zh).join("");
    assert!(zh.contains("名称写的是 16 张卡，成本按峰值 12 张"), "{zh}");
    assert!(zh.contains("其算力规模"));
}

#[test]
fn a_residual_value_left_at_the_default_is_called_a_default_in_the_summary_and_the_appendix() {
    let (s, e) = example("ascend-910b-cluster.toml");
    let en = joined(&s, &e, Lang::En);
    let summary = en.iter().find(|p| p.contains("Executive summary") && p.contains("Recommendation")).unwrap();
    // 2 × 1.2 M = 2.4 M of hardware delivered in month 3: 33 of its 60 months used by month 36,
    // 27/60 = 45 % left, CNY 1,080,000 credited at the horizon.
    assert!(summary.contains("Residual value at Suanli's default (book value over 5 years)"), "{summary}");
    assert!(summary.contains("CNY 1,080,000 (45% of its hardware)"), "{summary}");
    assert!(summary.contains("The net present cost of Own 2 × 8 Ascend 910B is above its nominal total"), "{summary}");
    let appendix = en.iter().skip_while(|p| !p.contains("every input and its source")).cloned().collect::<String>();
    assert!(appendix.contains("Suanli default: book value"), "{appendix}");
    assert!(!appendix.contains("book value user assumption"), "{appendix}");
    let zh = joined(&s, &e, Lang::Zh).concat();
    assert!(zh.contains("残值取 Suanli 默认值"), "{zh}");
}

#[test]
fn vat_is_applied_to_buying_and_renting_alike_and_the_budget_is_by_year() {
    let (s, e) = example("a100-8x-buy-vs-rent.toml");
    let en = joined(&s, &e, Lang::En);
    let page = en.iter().find(|p| p.contains("Budget and VAT basis") && p.contains("Borne by the buyer")).unwrap();
    // Buy: 1.5 M of server × 13 % = 195,000 on goods; 3 × 0.5 M of hosting and operations × 6 %
    // = 90,000 on services. Rent: 8.56 × 8 × 730 × 36 = 1,799,654.40 × 6 % = 107,979.26 on services.
    assert!(page.contains("CNY 195,000 CNY 90,000 CNY 3,285,000"), "{page}");
    assert!(page.contains("CNY 0 CNY 107,979 CNY 1,907,634"), "{page}");
    assert!(page.contains("VAT Law of the People's Republic of China"), "{page}");
    // By fiscal year from the proposal's month (2026-11-30): Nov–Dec, two full years, Jan–Oct.
    assert!(
        page.contains("FY2026 (Nov–Dec)") && page.contains("FY2028") && page.contains("FY2029 (Jan–Oct)"),
        "{page}"
    );
    // The same inputs stated with VAT and not recovered: the buyer bears the gross, and the net is backed out.
    let mut gross = s.clone();
    gross.vat = Some(suanli_model::vat::Vat { prices_include_vat: true, recoverable: false, ..Default::default() });
    let en = joined(&gross, &e, Lang::En);
    let page = en.iter().find(|p| p.contains("Borne by the buyer")).unwrap();
    // 1.5 M ÷ 1.13 = 1,327,433.63: 172,566 of VAT within it.
    assert!(page.contains("CNY 172,566"), "{page}");
    assert!(page.contains("input VAT is not recovered"), "{page}");
    let zh = joined(&s, &e, Lang::Zh).concat();
    assert!(zh.contains("增值税法") && zh.contains("买方实际承担"), "{zh}");
}

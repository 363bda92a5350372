//! No NaN or infinity reaches JSON, a workbook or a PDF: a figure that is
//! not finite (the engine's checks keep them out; these tests poison an
//! evaluation by hand) is refused where it would be handed out.

use suanli_api::{Error, Lang, parse_scenario};
use suanli_report::proposal::{ProposalInput, ProposalMeta, proposal_pdf};

fn poisoned(x: f64) -> (suanli_api::Checked<suanli_api::Scenario>, suanli_api::Evaluation) {
    let text = include_str!("../../../../data/scenarios/a100-8x-buy-vs-rent.toml");
    let s = parse_scenario(text).unwrap();
    let mut e = suanli_api::evaluate(&s).clone();
    e.options[1].total_nominal = x;
    e.options[1].monthly.add(3, suanli_api::Category::OnDemand, x);
    (s, e)
}

#[test]
fn json_refuses_a_figure_that_is_not_finite() {
    for x in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
        let (_, e) = poisoned(x);
        match suanli_api::evaluation_json(&e, Lang::En) {
            Err(e @ Error::NonFinite { .. }) => {
                assert_eq!(e.code(), suanli_api::ErrorCode::NotFinite);
                let en = e.message(Lang::En);
                assert!(en.contains("options[1].total_nominal"), "{en}");
                assert!(e.message(Lang::Zh).contains("不是有限数值"));
            }
            other => panic!("{x}: expected a refusal, got {other:?}"),
        }
    }
}

#[test]
fn the_pdf_and_the_workbook_refuse_a_figure_that_is_not_finite() {
    let (s, e) = poisoned(f64::NAN);
    let meta = ProposalMeta { date: "2026-11-30".into(), ..Default::default() };
    for lang in [Lang::En, Lang::Zh] {
        let input = ProposalInput {
            scenario: &s,
            evaluation: &e,
            simulation: None,
            sensitivity: None,
            meta: &meta,
            names: &Default::default(),
            lang,
            price_dates: &[],
            stale_after_months: 6,
            sources: &Default::default(),
            board: &Default::default(),
        };
        let err = proposal_pdf(&input).expect_err("a PDF with NaN in its drawing was made");
        assert!(matches!(err, suanli_report::ReportError::NonFiniteDrawing), "{err}");
        assert!(err.message(lang).contains(lang.pick("finite", "有限")), "{}", err.message(lang));
    }
    let err = suanli_report::sheet::tables(&s, &e, &Default::default(), &Default::default(), Lang::En)
        .expect_err("a workbook with NaN was made");
    assert!(matches!(err, suanli_report::ReportError::NonFiniteCell { .. }), "{err}");
    assert!(err.to_string().contains("finite"), "{err}");
    // The unpoisoned case still gives both.
    let (s, mut e) = poisoned(0.0);
    e.options[1].total_nominal = 1.0;
    let input = ProposalInput {
        scenario: &s,
        evaluation: &e,
        simulation: None,
        sensitivity: None,
        meta: &meta,
        names: &Default::default(),
        lang: Lang::En,
        price_dates: &[],
        stale_after_months: 6,
        sources: &Default::default(),
        board: &Default::default(),
    };
    assert!(proposal_pdf(&input).is_ok());
    assert!(suanli_report::sheet::tables(&s, &e, &Default::default(), &Default::default(), Lang::En).is_ok());
}

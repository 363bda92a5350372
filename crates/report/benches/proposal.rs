//! How long a proposal takes to build, with ranges and a tornado (the
//! domestic-card case: 10+ pages, four charts).

#![allow(clippy::unwrap_used, clippy::expect_used)]

use criterion::{Criterion, criterion_group, criterion_main};
use suanli_model::uncertainty::{SimulationConfig, simulate};
use suanli_model::{Checked, Lang, Scenario, evaluate};
use suanli_report::proposal::{ProposalInput, ProposalMeta, proposal_pdf};

fn bench(c: &mut Criterion) {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/scenarios/domestic-card-full.toml");
    let s: Scenario = toml::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let s = Checked::new(s).unwrap();
    let e = evaluate(&s);
    let sim = simulate(&s, SimulationConfig { trials: 10_000, seed: 1, threads: 0 }, &|_| {}).unwrap();
    let sens = suanli_model::sensitivity::sensitivity(&s).unwrap();
    let meta = ProposalMeta {
        logo: None,
        client: "Example".into(),
        author: "Li Wei".into(),
        firm: "Suanli".into(),
        date: "2026-11-30".into(),
    };
    let input = ProposalInput {
        scenario: &s,
        evaluation: e,
        simulation: Some(&sim),
        sensitivity: Some(&sens),
        meta: &meta,
        names: &Default::default(),
        lang: Lang::Zh,
        price_dates: &[],
        stale_after_months: 6,
        sources: &Default::default(),
        board: &Default::default(),
    };
    let bytes = proposal_pdf(&input).unwrap();
    eprintln!("proposal: {} bytes", bytes.len());
    let mut group = c.benchmark_group("proposal");
    group.sample_size(10);
    group.bench_function("domestic-card proposal, zh, with ranges and tornado", |b| b.iter(|| proposal_pdf(&input)));
    group.finish();
}

/// The workbook of 10 options × 120 months (the article's buy and rent
/// options, copied), as an export makes it: the cost lines measured from
/// the engine, the tables with their formulas and the XLSX bytes.
fn workbook(c: &mut Criterion) {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/scenarios/a100-8x-buy-vs-rent.toml");
    let mut s: Scenario = toml::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    s.horizon_months = 120;
    let two = std::mem::take(&mut s.options);
    for k in 0..5 {
        for o in &two {
            let mut o = o.clone();
            o.id = format!("{}-{k}", o.id);
            s.options.push(o);
        }
    }
    let s = Checked::new(s).unwrap();
    let make = || {
        let e = evaluate(&s);
        let lines = suanli_model::cost_lines::cost_lines(&s);
        let tables = suanli_report::sheet::tables(&s, e, &lines, &Default::default(), Lang::Zh).unwrap();
        suanli_report::sheet::xlsx(&tables, Lang::Zh, "2026-12-01").unwrap()
    };
    eprintln!("workbook 10 × 120: {} bytes", make().len());
    let mut group = c.benchmark_group("workbook");
    group.sample_size(10);
    group.bench_function("10 options × 120 months, zh, with formulas", |b| b.iter(make));
    group.finish();
}

criterion_group!(benches, bench, workbook);
criterion_main!(benches);

//! Recommendation speed: the full search (offers view, candidates, the
//! engine over every candidate, mixes, ranking) over the bundled catalogue
//! and over 10,000 offers (the bundled ones and a synthetic feed spread
//! over every accelerator, as in `crates/catalog/benches/ratios.rs`).

#![allow(clippy::expect_used)]

use std::fmt::Write as _;
use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use suanli_api::catalog::{AcceleratorFilter, Catalog, Confidence, FeedFormat as Format, OfferFilter, Provenance};
use suanli_api::recommend::{Constraints, recommend};
use suanli_api::{Lang, RankBy, Scenario};

const NOW: &str = "2026-11-30T00:00:00Z";

/// A training job, and steady demand with priorities and a site for purchases (so mixes are built).
const JOB: &str = r#"name = "train"
horizon_months = 12
currency = "USD"
workload_class = "llm_pretraining"
fx = { CNY = 0.1406 }
[demand]
kind = "job"
ref_gpu_hours = 200000
cluster_accelerators = 64
"#;

const PROFILE: &str = r#"name = "steady"
horizon_months = 36
currency = "USD"
discount_rate_annual = 0.08
workload_class = "llm_pretraining"
fx = { CNY = 0.1406 }
[demand]
kind = "profile"
monthly_ref_gpus = [64, 64, 96, 128, 96, 64]
normal_share = 0.3
low_priority_share = 0.2
[[options]]
id = "site"
kind = "buy"
[options.owned]
servers = 1
accelerators_per_server = 8
capex_per_server = 1
lead_time_months = 2
server_kw = 10
colocation_per_kw_month = 150
pue = 1.3
electricity_per_kwh = 0.1
staff_per_year = 100000
"#;

/// `rows` offers over every accelerator, providers and billing modes mixed.
fn feed(accelerators: &[String], rows: usize) -> String {
    let mut text = String::from(
        "id,provider_id,accelerator_id,instance,region,billing_mode,accelerators_per_instance,price,price_unit,currency,upfront,interconnect,as_of,source,confidence,notes\n",
    );
    let providers = ["aws", "azure", "gcp", "aliyun", "tencent-cloud", "lambda", "runpod"];
    let modes = ["on_demand", "on_demand", "spot", "reserved_1y"];
    for i in 0..rows {
        let _ = writeln!(
            text,
            "bench-{i},{},{},inst-{},region-{},{},8,{:.4},instance_hour,USD,,,2026-11-30,bench feed,A,",
            providers[i % providers.len()],
            accelerators[i % accelerators.len()],
            i % 97,
            i % 31,
            modes[i % modes.len()],
            10.0 + (i % 1000) as f64 * 0.01
        );
    }
    text
}

fn scenario(text: &str) -> Scenario {
    suanli_api::parse_scenario_text(text).expect("scenario")
}

fn bench(c: &mut Criterion) {
    let (mut catalog, _) = Catalog::open_in_memory(NOW).expect("catalog");
    let none = Constraints::default();
    let mut group = c.benchmark_group("recommend");
    group.sample_size(10);
    for (name, text) in [("job", JOB), ("profile with mixes", PROFILE)] {
        let s = scenario(text);
        group.bench_function(format!("bundled catalogue, {name}"), |b| {
            b.iter(|| recommend(&catalog, black_box(&s), &none, RankBy::Npv, Lang::En).expect("recommend"))
        });
    }
    let ids: Vec<String> =
        catalog.accelerators(&AcceleratorFilter::default()).expect("accelerators").into_iter().map(|a| a.id).collect();
    let bundled = catalog.offers(&OfferFilter::default()).expect("offers").len();
    let provenance = Provenance { source: "bench".into(), as_of: Some("2026-11-30".into()), confidence: Confidence::A };
    catalog.import(&Format::Csv, feed(&ids, 10_000 - bundled).as_bytes(), &provenance, NOW).expect("import");
    assert_eq!(catalog.offers(&OfferFilter::default()).expect("offers").len(), 10_000);
    for (name, text) in [("job", JOB), ("profile with mixes", PROFILE)] {
        let s = scenario(text);
        group.bench_function(format!("10,000 offers, {name}"), |b| {
            b.iter(|| recommend(&catalog, black_box(&s), &none, RankBy::Npv, Lang::En).expect("recommend"))
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);

//! Catalogue speed: importing 100,000 price rows (one transaction), and a
//! filtered query with effective prices over the whole catalogue — the
//! query the catalogue screen runs on every filter change.

#![allow(clippy::expect_used)]

use std::fmt::Write as _;
use std::hint::black_box;

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use suanli_catalog::Catalog;
use suanli_catalog::import::{Format, Provenance};
use suanli_catalog::query::{OfferFilter, OfferSort};

const NOW: &str = "2026-11-30T00:00:00Z";

fn feed(rows: usize) -> String {
    let mut text = String::from(
        "id,provider_id,accelerator_id,instance,region,billing_mode,accelerators_per_instance,price,price_unit,currency,upfront,interconnect,as_of,source,confidence,notes\n",
    );
    let providers = ["aws", "azure", "gcp", "aliyun", "tencent-cloud", "lambda", "runpod"];
    let accelerators =
        ["nvidia-a100-sxm-80gb", "nvidia-h100-sxm-80gb", "huawei-ascend-910b", "nvidia-l40s", "nvidia-h20-96gb"];
    let modes = ["on_demand", "spot", "reserved_1y", "reserved_3y"];
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

fn bench(c: &mut Criterion) {
    let provenance = Provenance {
        source: "bench".into(),
        as_of: Some("2026-11-30".into()),
        confidence: suanli_catalog::Confidence::A,
    };
    let text = feed(100_000);
    let mut group = c.benchmark_group("import");
    group.sample_size(10);
    group.bench_function("100,000 CSV rows", |b| {
        b.iter_batched(
            || Catalog::open_in_memory(NOW).map(|(c, _)| c).expect("catalog"),
            |mut catalog| {
                let report = catalog.import(&Format::Csv, text.as_bytes(), &provenance, NOW).expect("import");
                assert_eq!(report.imported, 100_000);
                catalog
            },
            BatchSize::PerIteration,
        )
    });
    group.finish();

    let (catalog, _) = Catalog::open_in_memory(NOW).expect("catalog");
    let filter = OfferFilter {
        workload_class: Some(suanli_catalog::WorkloadClass::VisionTraining),
        billing_mode: Some(suanli_catalog::BillingMode::OnDemand),
        currency: Some(suanli_model::Currency::USD),
        fx: [(suanli_model::Currency::CNY, 1.0 / 7.1106)].into_iter().collect(),
        max_price: Some(20.0),
        sort: OfferSort::Effective,
        ..Default::default()
    };
    assert!(!catalog.offers(&filter).expect("offers").is_empty());
    c.bench_function("filtered offers with effective prices (bundled catalogue)", |b| {
        b.iter(|| catalog.offers(black_box(&filter)))
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);

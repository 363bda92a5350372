//! Efficiency speed: the offers view with effective prices for one workload
//! class over 10,000 offers (the screen's query once the ratio book is
//! built), building the ratio book from the bundled measurements, and the
//! leave-one-out calibration.

#![allow(clippy::expect_used)]

use std::fmt::Write as _;
use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use suanli_catalog::import::{Format, Provenance};
use suanli_catalog::query::{AcceleratorFilter, OfferFilter, OfferSort, REFERENCE_ACCELERATOR};
use suanli_catalog::{Catalog, WorkloadClass};

const NOW: &str = "2026-11-30T00:00:00Z";

/// `rows` on-demand offers spread over every catalogue accelerator.
fn feed(accelerators: &[String], rows: usize) -> String {
    let mut text = String::from(
        "id,provider_id,accelerator_id,instance,region,billing_mode,accelerators_per_instance,price,price_unit,currency,upfront,interconnect,as_of,source,confidence,notes\n",
    );
    let providers = ["aws", "azure", "gcp", "aliyun", "tencent-cloud", "lambda", "runpod"];
    for i in 0..rows {
        let _ = writeln!(
            text,
            "bench-{i},{},{},inst-{},region-{},on_demand,8,{:.4},instance_hour,USD,,,2026-11-30,bench feed,A,",
            providers[i % providers.len()],
            accelerators[i % accelerators.len()],
            i % 97,
            i % 31,
            10.0 + (i % 1000) as f64 * 0.01
        );
    }
    text
}

fn bench(c: &mut Criterion) {
    let (mut catalog, _) = Catalog::open_in_memory(NOW).expect("catalog");
    let ids: Vec<String> =
        catalog.accelerators(&AcceleratorFilter::default()).expect("accelerators").into_iter().map(|a| a.id).collect();
    let bundled = catalog.offers(&OfferFilter::default()).expect("offers").len();
    let provenance = Provenance {
        source: "bench".into(),
        as_of: Some("2026-11-30".into()),
        confidence: suanli_catalog::Confidence::A,
    };
    let text = feed(&ids, 10_000 - bundled);
    catalog.import(&Format::Csv, text.as_bytes(), &provenance, NOW).expect("import");

    for class in [WorkloadClass::LlmPretraining, WorkloadClass::LlmInference] {
        let filter = OfferFilter { workload_class: Some(class), sort: OfferSort::Effective, ..Default::default() };
        let offers = catalog.offers(&filter).expect("offers");
        assert_eq!(offers.len(), 10_000);
        c.bench_function(&format!("10,000 offers with effective prices for {}", class.key()), |b| {
            b.iter(|| catalog.offers(black_box(&filter)))
        });
    }

    let mut group = c.benchmark_group("ratios");
    group.sample_size(10);
    group.bench_function("calibration (book and leave-one-out fits, bundled)", |b| {
        b.iter(|| catalog.calibration(black_box(REFERENCE_ACCELERATOR)).expect("calibration"))
    });
    group.bench_function("serving calibration (fit per stack and leave-one-out, bundled)", |b| {
        b.iter(|| catalog.serving_calibration().expect("serving calibration"))
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);

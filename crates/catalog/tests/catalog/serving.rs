//! The serving model against MLPerf Inference: the figures the engine uses
//! are the ones the catalogue's results fit, the fit finds figures that made
//! the data, and a 70 B model costs what serving systems reach.

use suanli_catalog::query::{InferenceModel, OfferFilter};
use suanli_catalog::serving::{CASE, CONTEXT_TOKENS, SetAside, calibrate};
use suanli_catalog::{Accelerator, Measurement, Metric, Suite, WorkloadClass};
use suanli_model::inference::{FITTED, Fitted, Served, serving_throughput};
use suanli_model::{LatencyClass, Precision};

use crate::fresh;

#[test]
fn the_engine_uses_the_figures_the_catalogues_results_fit() {
    let s = fresh().serving_calibration().unwrap();
    assert_eq!((s.compute_utilisation, s.step_overhead_ms), (FITTED.compute_utilisation, FITTED.step_overhead_ms));
    assert!(s.points.len() >= 40, "{}", s.points.len());
    assert!(s.median_abs_error <= 0.10 && s.median_abs_error_left_out <= 0.10, "{s:?}");
    // The v4.1 rows labelled fp16 are not fitted on.
    assert!(s.set_aside.iter().any(|(why, n)| *why == SetAside::OtherPrecision && *n > 0), "{:?}", s.set_aside);
    // The model sees what memory does: an H200 serves more than an H100 under the same bound.
    let modelled = |id: &str| {
        s.points.iter().find(|p| p.accelerator_id == id && p.scenario == "Server").map(|p| p.modelled).unwrap()
    };
    assert!(modelled("nvidia-h200-sxm-141gb") > modelled("nvidia-h100-sxm-80gb"));
    // Hopper's Offline and Server results within 10 %.
    for p in s.points.iter().filter(|p| p.accelerator_id.starts_with("nvidia-h") && p.scenario != "Interactive") {
        assert!(p.error.abs() <= 0.10, "{p:?}");
    }
}

fn part(id: &str, fp8: f64, bandwidth: f64, memory: f64) -> Accelerator {
    let bundled = fresh().accelerator("nvidia-h100-sxm-80gb").unwrap().unwrap();
    Accelerator {
        id: id.into(),
        fp8_tflops: Some(fp8),
        memory_bandwidth_gbps: Some(bandwidth),
        memory_gb: Some(memory),
        ..bundled
    }
}

fn result(id: &str, accelerator: &str, scenario: &str, precision: &str, per_card: f64) -> Measurement {
    Measurement {
        suite: Suite::MlperfInference,
        suite_version: Some("v5.1".into()),
        workload_class: WorkloadClass::LlmInference,
        precision: Some(precision.into()),
        inference_scenario: Some(scenario.into()),
        metric: Metric::TokensPerSecond,
        ..crate::ratios::measurement(id, accelerator, CASE, per_card * 8.0)
    }
}

#[test]
fn the_fit_finds_the_figures_that_made_the_results() {
    let truth = Fitted { compute_utilisation: 0.37, step_overhead_ms: 12.0 };
    let parts = [part("big-card", 2000.0, 5000.0, 141.0), part("small-card", 1000.0, 2000.0, 80.0)];
    let mut rows = Vec::new();
    for a in &parts {
        let device = a.serving_device(Precision::Fp8).unwrap();
        for (scenario, bound) in [("Offline", None), ("Server", Some(200.0)), ("Interactive", Some(40.0))] {
            let served = Served {
                parameters: 70e9,
                precision: Precision::Fp8,
                kv_bytes_per_sequence: 163_840.0 * CONTEXT_TOKENS,
                max_ms_per_token: bound,
                max_replica: 8,
            };
            let t = serving_throughput(&served, &device, truth).unwrap();
            let id = format!("{}-{scenario}", a.id);
            rows.push(result(&id, &a.id, scenario, "fp8", t.tokens_per_second_per_accelerator));
        }
    }
    // A row at another precision, or of an unknown part, is set aside, not fitted.
    rows.push(result("odd-fp16", "big-card", "Offline", "fp16", 1.0));
    rows.push(result("odd-part", "no-such-card", "Offline", "fp8", 1.0));
    let s = calibrate(&rows, &parts);
    assert_eq!((s.compute_utilisation, s.step_overhead_ms), (0.37, 12.0), "{:?}", s.stacks);
    assert_eq!(s.points.len(), 6);
    assert!(s.points.iter().all(|p| p.error.abs() < 1e-9), "{:?}", s.points);
    assert_eq!(s.set_aside, vec![(SetAside::OtherPrecision, 1), (SetAside::SpecsMissing, 1)]);
}

#[test]
fn a_70b_model_on_an_h100_serves_between_the_measured_fp8_bounds() {
    let c = fresh();
    let s = c.serving_calibration().unwrap();
    // MLPerf v5.1: Cisco's H100 SXM systems, FP8, Server (200 ms a token): 3,819–3,821 per card.
    let fp8_server: Vec<f64> = s
        .points
        .iter()
        .filter(|p| p.accelerator_id == "nvidia-h100-sxm-80gb" && p.scenario == "Server")
        .map(|p| p.measured)
        .collect();
    assert!(!fp8_server.is_empty());
    let fp8 = fp8_server.iter().copied().fold(f64::INFINITY, f64::min);
    let model = InferenceModel {
        parameters: 70e9,
        precision: Precision::Bf16,
        context_tokens: 4096.0,
        latency: LatencyClass::Standard,
        kv_bytes_per_token: Some(327_680.0),
    };
    let offers = c
        .offers(&OfferFilter {
            workload_class: Some(WorkloadClass::LlmInference),
            accelerator: Some("nvidia-h100-sxm-80gb".into()),
            billing_mode: Some(suanli_catalog::BillingMode::OnDemand),
            inference: Some(model),
            ..Default::default()
        })
        .unwrap();
    let tps = offers.iter().find_map(|o| o.tokens_per_second_per_accelerator).unwrap();
    // BF16 reads twice FP8's bytes at half its peak: at most the FP8 figure, and no
    // less than a quarter of it (the decode roofline at batch 1 gave 28).
    assert!(tps < fp8 && tps > fp8 / 4.0, "{tps} against {fp8}");
    // The cost per million tokens follows by hand: price per card-hour ÷ (tokens/s × 3,600) × 1e6.
    for o in offers.iter().take(3) {
        let per_card = o.price_per_ref_gpu_hour.unwrap() * o.efficiency.as_ref().unwrap().ratio;
        let by_hand = per_card / (tps * 3600.0) * 1e6;
        assert!((o.cost_per_million_tokens.unwrap() / by_hand - 1.0).abs() < 1e-9, "{o:?}");
    }
}

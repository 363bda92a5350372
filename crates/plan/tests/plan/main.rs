//! The plan on hand-made markets: every figure worked by hand here.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::too_many_arguments)]

use std::sync::Arc;

use serde_json::json;
use suanli_catalog::query::OfferView;
use suanli_catalog::{Accelerator, MultiNode, Node, Provider, ReferenceRate, ScaleOut, ScalingPoint};
use suanli_model::recommend::RankBy;
use suanli_model::{Currency, ExportStatus, Lang, Scenario};
use suanli_plan::cluster::{Cluster, ScalingBasis};
use suanli_plan::{Constraints, Market, NotFeasible, ScalingModel, SpotAssumptions, fill_rates, plan};

fn accelerator(id: &str, name: &str, export: &str) -> Accelerator {
    serde_json::from_value(json!({
        "id": id, "vendor": "NVIDIA", "name": name, "memory_gb": 80.0, "export_status_cn": export,
        "source": "t", "confidence": "V"
    }))
    .unwrap()
}

fn provider(id: &str) -> Provider {
    serde_json::from_value(json!({"id": id, "name": id.to_uppercase(), "country": "US", "kind": "gpu_cloud", "source": "t", "confidence": "A"}))
        .unwrap()
}

/// A rental in USD per accelerator-hour, with its ratio for pre-training.
fn offer(
    id: &str,
    provider: &str,
    accel: &str,
    instance: &str,
    mode: &str,
    per: f64,
    price: f64,
    ratio: f64,
) -> OfferView {
    let efficiency = json!({
        "ratio": ratio, "workload_class": "llm_pretraining", "basis": "measured", "steps": [], "measurements": [],
        "ids": [], "source": "t", "confidence": "M", "as_of": null, "reference_accelerator_id": "ref",
        "method_en": "test", "method_zh": "测试"
    });
    let mut v: OfferView = serde_json::from_value(json!({
        "id": id, "provider_id": provider, "accelerator_id": accel, "instance": instance, "billing_mode": mode,
        "accelerators_per_instance": per, "price": price, "price_unit": "accelerator_hour", "currency": "USD",
        "source": "t", "confidence": "A", "origin": "catalogue", "quote": "list_price", "price_per_accel_hour": price,
        "comparable_price_per_accel_hour": price, "efficiency": efficiency
    }))
    .unwrap();
    v.offer = Arc::new(v.offer.as_ref().clone());
    v
}

fn node(provider: &str, instance: &str, per: f64, out: &str, capacity: Option<f64>) -> Node {
    serde_json::from_value(json!({
        "id": format!("{provider}-{instance}"), "provider_id": provider, "instance": instance,
        "accelerators_per_node": per, "scale_up": "nvswitch", "scale_out": out, "multi_node": "sold",
        "max_cluster_accelerators": capacity, "source": "t", "confidence": "A"
    }))
    .unwrap()
}

fn point(id: &str, accelerators: f64, efficiency: f64) -> ScalingPoint {
    serde_json::from_value(json!({
        "id": id, "setup": "test", "accelerators": accelerators, "efficiency": efficiency, "source": "t", "confidence": "M"
    }))
    .unwrap()
}

/// Two points: 16 accelerators at 0.98, 256 at 0.95. Doublings over one
/// node of 8: 1 and 5; lost 0.02 and 0.05. Through the origin:
/// loss = (1 × 0.02 + 5 × 0.05) ÷ (1² + 5²) = 0.27 ÷ 26 = 0.010384615…
const LOSS: f64 = 0.27 / 26.0;

fn points() -> Vec<ScalingPoint> {
    vec![point("p16", 16.0, 0.98), point("p256", 256.0, 0.95)]
}

fn scenario(text: &str) -> Scenario {
    toml::from_str(text).unwrap()
}

/// 256 accelerators for 600,000 reference-GPU-hours.
const JOB: &str = r#"name = "train"
horizon_months = 12
currency = "USD"
discount_rate_annual = 0.08
workload_class = "llm_pretraining"

[demand]
kind = "job"
ref_gpu_hours = 600000
cluster_accelerators = 256
"#;

fn market(offers: Vec<OfferView>, nodes: Vec<Node>) -> Market {
    Market {
        offers,
        accelerators: vec![
            accelerator("h100", "H100 SXM5 80GB", "licence_required"),
            accelerator("rtx", "GeForce RTX 4090", "licence_required"),
        ],
        providers: vec![provider("cloud"), provider("market")],
        nodes,
        scaling: points(),
    }
}

fn close(a: f64, b: f64, rel: f64) -> bool {
    (a - b).abs() <= rel * b.abs().max(1e-12)
}

#[test]
fn nodes_and_scaling_for_two_and_thirty_two_nodes() {
    let model = ScalingModel::calibrate(&points());
    assert!(close(model.rdma.loss_per_doubling, LOSS, 1e-12), "{}", model.rdma.loss_per_doubling);
    let ib = node("cloud", "8x", 8.0, "infiniband", None);
    let two = Cluster::of(Some(&ib), Some(8.0), 16, false, &model);
    assert_eq!((two.nodes, two.per_node), (2, 8));
    assert!(close(two.scaling_efficiency, 1.0 - LOSS, 1e-12), "{}", two.scaling_efficiency);
    let big = Cluster::of(Some(&ib), Some(8.0), 256, false, &model);
    assert_eq!(big.nodes, 32);
    // log2(256 / 8) = 5 doublings: 1 − 5 × 0.0103846 = 0.948077.
    assert!(close(big.scaling_efficiency, 0.948_076_923, 1e-9), "{}", big.scaling_efficiency);
    assert_eq!(big.scaling_basis, ScalingBasis::Fitted);
    // One node needs no network and loses nothing.
    let one = Cluster::of(None, Some(8.0), 8, false, &model);
    assert_eq!((one.nodes, one.scaling_efficiency, one.scaling_basis), (1, 1.0, ScalingBasis::OneNode));
    assert_eq!(one.not_feasible(false, false, false), None);
    // Leave one out: without p16 the slope is 0.05 ÷ 5 = 0.01, so 0.99 at p16.
    let p16 = model.rdma.points.iter().find(|p| p.id == "p16").unwrap();
    assert!(close(p16.left_out.unwrap(), 0.99, 1e-12), "{:?}", p16.left_out);
}

#[test]
fn spot_overhead_grows_with_the_nodes_in_lock_step() {
    let spot = SpotAssumptions::default();
    assert_eq!(
        (spot.interruptions_per_node_month, spot.checkpoint_interval_hours, spot.restart_hours),
        (0.2, 1.0, 1.0)
    );
    // One node: r = 0.2 ÷ 730 per hour. (1/r + R)(e^{rτ} − 1)/τ − 1
    // = 1.5 r + (2/3) r² + … = 0.000410959 + 0.00000005 = 0.00041101.
    let r1: f64 = 0.2 / 730.0;
    let one = spot.overhead(1);
    assert!(close(one, 1.5 * r1 + 2.0 / 3.0 * r1 * r1, 1e-6), "{one}");
    // 32 nodes: r = 0.0087671; 1.5 r + (2/3) r² + (5/24) r³ = 0.0131507 + 0.0000512 + 0.0000001.
    let r32 = 32.0 * r1;
    let thirty_two = spot.overhead(32);
    assert!(close(thirty_two, 1.5 * r32 + 2.0 / 3.0 * r32.powi(2) + 5.0 / 24.0 * r32.powi(3), 1e-5), "{thirty_two}");
    assert!(close(thirty_two, 0.013202, 1e-4), "{thirty_two}");
    assert!(thirty_two > 32.0 * one, "faster than linear: {thirty_two} vs {one}");
    // No interruptions, no overhead.
    let calm = SpotAssumptions { interruptions_per_node_month: 0.0, ..SpotAssumptions::default() };
    assert_eq!(calm.overhead(32), 0.0);
}

#[test]
fn a_stated_capacity_below_the_cluster_is_not_feasible() {
    let model = ScalingModel::calibrate(&points());
    let small = node("cloud", "8x", 8.0, "efa", Some(128.0));
    let c = Cluster::of(Some(&small), Some(8.0), 256, false, &model);
    assert_eq!(c.not_feasible(false, false, false), Some(NotFeasible::CapacityBelow { capacity: 128 }));
    assert!(
        c.not_feasible(false, false, false).unwrap().describe(&c, Lang::En).contains("up to 128 accelerators; 256")
    );
    let fits = Cluster::of(Some(&small), Some(8.0), 128, false, &model);
    assert_eq!(fits.not_feasible(false, false, false), None);
}

#[test]
fn the_plan_builds_clusters_and_lists_the_rest_apart() {
    let offers = vec![
        // The cheapest, but one GPU a VM and no network a source states.
        offer("one-gpu", "cloud", "h100", "1x", "on_demand", 1.0, 1.0, 2.0),
        // A consumer card on eight-card nodes with Ethernet.
        offer("rtx-8x", "market", "rtx", "rtx8", "on_demand", 8.0, 0.3, 0.8),
        // Eight-card InfiniBand nodes sold as clusters.
        offer("ib-8x", "cloud", "h100", "8x", "on_demand", 8.0, 3.0, 2.0),
    ];
    let nodes = vec![node("cloud", "8x", 8.0, "infiniband", None), node("market", "rtx8", 8.0, "ethernet", None)];
    let m = market(offers, nodes);
    let r = plan(&scenario(JOB), &m, Vec::new(), &Constraints::default(), RankBy::Npv, Lang::En).unwrap();
    let ids: Vec<&str> = r.ranked.iter().map(|c| c.id.as_str()).collect();
    assert_eq!(ids, ["rent/ib-8x"]);
    let best = &r.ranked[0];
    assert_eq!((best.cluster.nodes, best.cluster.per_node, best.cluster.scale_out), (32, 8, ScaleOut::Infiniband));
    assert!(close(best.option.scaling_efficiency.unwrap(), 1.0 - 5.0 * LOSS, 1e-12));
    assert!(best.cluster_why.contains("32 nodes × 8 over InfiniBand"), "{}", best.cluster_why);
    let apart: Vec<(&str, NotFeasible)> = r.not_feasible.iter().map(|x| (x.offer_id.as_str(), x.reason)).collect();
    assert!(apart.contains(&("one-gpu", NotFeasible::NoScaleOut)), "{apart:?}");
    assert!(apart.contains(&("rtx-8x", NotFeasible::ConsumerCard)), "{apart:?}");
    assert_eq!(r.search.not_feasible, 2);
    // Work: 600,000 ref-GPU-hours ÷ (256 × ratio 2 × scaling) accelerator-hours of
    // the cluster, each at USD 3: 600,000 ÷ 2 ÷ 0.948077 × 3 = USD 949,290.
    let hours = 600_000.0 / 2.0 / (1.0 - 5.0 * LOSS);
    assert!(close(best.total_nominal, hours * 3.0, 1e-6), "{} vs {}", best.total_nominal, hours * 3.0);
    // Allowed, the consumer card is priced as a cluster on Ethernet.
    let allow = Constraints { allow_consumer_clusters: true, ..Constraints::default() };
    let r = plan(&scenario(JOB), &m, Vec::new(), &allow, RankBy::Npv, Lang::En).unwrap();
    assert!(r.ranked.iter().any(|c| c.id == "rent/rtx-8x" && c.cluster.scale_out == ScaleOut::Ethernet));
}

#[test]
fn spot_past_the_size_where_it_pays_is_listed_apart() {
    let offers = vec![
        offer("od", "cloud", "h100", "8x", "on_demand", 8.0, 3.0, 2.0),
        offer("spot", "cloud", "h100", "8x", "spot", 8.0, 2.9, 2.0),
    ];
    let m = market(offers, vec![node("cloud", "8x", 8.0, "infiniband", None)]);
    let r = plan(&scenario(JOB), &m, Vec::new(), &Constraints::default(), RankBy::Npv, Lang::En).unwrap();
    // 32 nodes: 2.9 × 1.0132 = 2.938 < 3.0, so spot still pays.
    let spot = r.ranked.iter().find(|c| c.id == "rent/spot").unwrap();
    assert!(close(spot.spot_overhead.unwrap(), SpotAssumptions::default().overhead(32), 1e-12));
    // Interrupted ten times as often: 2.9 × (1 + overhead) > 3.0.
    let stormy = Constraints {
        spot: Some(SpotAssumptions { interruptions_per_node_month: 2.0, ..SpotAssumptions::default() }),
        ..Constraints::default()
    };
    let r = plan(&scenario(JOB), &m, Vec::new(), &stormy, RankBy::Npv, Lang::En).unwrap();
    assert!(r.ranked.iter().all(|c| c.id != "rent/spot"));
    let apart = r.not_feasible.iter().find(|x| x.offer_id == "spot").unwrap();
    assert!(matches!(apart.reason, NotFeasible::SpotDoesNotPay { overhead } if overhead > 0.1), "{:?}", apart.reason);
}

#[test]
fn steady_demand_on_one_node_pays_no_cluster_penalty() {
    let steady = r#"name = "steady"
horizon_months = 12
currency = "USD"
discount_rate_annual = 0.08
workload_class = "llm_pretraining"

[demand]
kind = "profile"
monthly_ref_gpus = [16]
"#;
    let m = market(vec![offer("ib-8x", "cloud", "h100", "8x", "on_demand", 8.0, 3.0, 2.0)], Vec::new());
    let r = plan(&scenario(steady), &m, Vec::new(), &Constraints::default(), RankBy::Npv, Lang::En).unwrap();
    let c = &r.ranked[0];
    assert_eq!((c.cluster.nodes, c.cluster.scaling_basis), (1, ScalingBasis::OneNode));
    assert_eq!(c.option.scaling_efficiency, None, "no scaling written where none is needed");
    // 16 reference GPUs at ratio 2: 8 H100s all year at USD 3.
    assert!(close(c.total_nominal, 8.0 * 3.0 * 730.0 * 12.0, 1e-9), "{}", c.total_nominal);
}

#[test]
fn a_scenario_without_a_rate_takes_the_reference_rate_and_says_so() {
    let mut s = scenario(&JOB.replace("currency = \"USD\"", "currency = \"CNY\""));
    let usd: ReferenceRate = serde_json::from_value(json!({
        "currency": "USD", "cny_per_unit": 7.1106, "as_of": "2025-09-22", "source": "prices:S37", "confidence": "B"
    }))
    .unwrap();
    let used = fill_rates(&mut s, &[usd]);
    assert_eq!(s.fx.get(&Currency::USD), Some(&7.1106));
    assert_eq!(used.len(), 1);
    assert!(s.fx_source.contains("2025-09-22") && s.fx_source.contains("prices:S37"), "{}", s.fx_source);
    let m = market(
        vec![offer("ib-8x", "cloud", "h100", "8x", "on_demand", 8.0, 3.0, 2.0)],
        vec![node("cloud", "8x", 8.0, "infiniband", None)],
    );
    let r = plan(&s, &m, used, &Constraints::default(), RankBy::Npv, Lang::En).unwrap();
    assert!(
        r.notes[0].starts_with("Assumed: 1 USD = 7.1106 CNY, the catalogue's reference rate of 2025-09-22"),
        "{}",
        r.notes[0]
    );
    let zh = plan(&s, &m, r.rates.clone(), &Constraints::default(), RankBy::Npv, Lang::Zh).unwrap();
    assert!(zh.notes[0].starts_with("假设：1 USD = 7.1106 CNY"), "{}", zh.notes[0]);
    // The USD price is converted at that rate: 3 × 7.1106 per accelerator-hour.
    let hours = 600_000.0 / 2.0 / (1.0 - 5.0 * LOSS);
    assert!(close(r.ranked[0].total_nominal, hours * 3.0 * 7.1106, 1e-6));
    // A scenario's own rate wins.
    let mut own = scenario(
        &JOB.replace("currency = \"USD\"", "currency = \"CNY\"").replace("[demand]", "[fx]\nUSD = 7.0\n\n[demand]"),
    );
    assert!(fill_rates(&mut own, &[]).is_empty());
    assert_eq!(own.fx.get(&Currency::USD), Some(&7.0));
}

#[test]
fn a_written_scenario_keeps_the_catalogue_export_status() {
    let m = market(
        vec![offer("ib-8x", "cloud", "h100", "8x", "on_demand", 8.0, 3.0, 2.0)],
        vec![node("cloud", "8x", 8.0, "infiniband", None)],
    );
    let s = scenario(JOB);
    let r = plan(&s, &m, Vec::new(), &Constraints::default(), RankBy::Npv, Lang::En).unwrap();
    let written = suanli_plan::scenario_with(&s, &r, &["rent/ib-8x".to_owned()]).unwrap();
    let o = &written.options[0];
    assert_eq!(o.supply.as_ref().unwrap().export_status, Some(ExportStatus::LicenceRequired));
    assert!(o.sources["supply.export_status"].contains("export status for a buyer in China"));
    assert_eq!(o.on_demand.as_ref().unwrap().offer.as_deref(), Some("ib-8x"));
    // The reader's label is in one language; the written one keeps the scenario format.
    assert_eq!(r.ranked[0].label, "cloud · H100 SXM5 80GB · 8x · on demand");
    assert_eq!(MultiNode::Sold, m.nodes[0].multi_node);
}

//! Every example scenario in `data/scenarios` evaluated through the API,
//! with its headline figures worked out by hand in the comments.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod toolchain;

use std::path::{Path, PathBuf};

use suanli_api::{Category, Evaluation, OptionResult};

fn scenarios_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../data/scenarios")
}

/// Evaluates through the API on a temporary catalogue database (tests
/// never touch the user's data directory).
fn evaluate_path(path: &Path) -> (suanli_api::Checked<suanli_api::Scenario>, Evaluation) {
    let db = tempfile::tempdir().unwrap();
    let (s, e, _) = suanli_api::evaluate_file_with(path, Some(&db.path().join("catalog.sqlite")))
        .unwrap_or_else(|e| panic!("{}: {}", path.display(), e.message(suanli_api::Lang::En)));
    (s, e)
}

fn evaluate(file: &str) -> Evaluation {
    evaluate_path(&scenarios_dir().join(file)).1
}

fn option<'a>(e: &'a Evaluation, id: &str) -> &'a OptionResult {
    e.option(id).unwrap_or_else(|| panic!("no option {id}"))
}

#[track_caller]
fn assert_money(actual: f64, expected: f64) {
    assert!((actual - expected).abs() < 0.01, "expected {expected:.2}, got {actual:.2}");
}

#[test]
fn every_example_scenario_evaluates() {
    let mut count = 0;
    for entry in std::fs::read_dir(scenarios_dir()).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|x| x == "toml") {
            let (s, e) = evaluate_path(&path);
            // Offer filters expand into one option per matching offer.
            assert!(e.options.len() >= s.options.len());
            assert!(e.options.iter().all(|o| o.total_nominal.is_finite() && o.total_npv.is_finite()));
            count += 1;
        }
    }
    assert!(count >= 5, "the article's five cases at least; found {count}");
}

#[test]
fn article_8xa100_buy_vs_rent() {
    let e = evaluate("a100-8x-buy-vs-rent.toml");
    // Buy: 1,500,000 + 3 × 500,000 = 3,000,000. Rent: 8.56 × 8 × 730 × 36 = 1,799,654.40.
    assert_money(option(&e, "buy-8xa100").total_nominal, 3_000_000.0);
    assert_money(option(&e, "rent-8xa100-on-demand").total_nominal, 1_799_654.40);
    // Renting saves 1 − 1,799,654.40 ÷ 3,000,000 = 40.0 % (the article: at least 35 %).
    let saving = 1.0 - option(&e, "rent-8xa100-on-demand").total_nominal / option(&e, "buy-8xa100").total_nominal;
    assert!((saving - 0.400_115_2).abs() < 1e-6 && saving >= 0.35, "{saving}");
    assert_eq!(e.cheapest_nominal().map(|o| o.id.as_str()), Some("rent-8xa100-on-demand"));
}

#[test]
fn article_domestic_card() {
    let e = evaluate("domestic-vs-a100.toml");
    // A100: 64 × 730 × 12 = 560,640 h × 0.8 = 448,512. Domestic: 560,640 ÷ 0.68 × 0.32 = 263,830.59.
    assert_money(option(&e, "rent-a100").total_nominal, 448_512.0);
    assert_money(option(&e, "rent-domestic").total_nominal, 263_830.59);
    let ratio = option(&e, "rent-domestic").effective_price_per_ref_gpu_hour.unwrap()
        / option(&e, "rent-a100").effective_price_per_ref_gpu_hour.unwrap();
    assert!((ratio - 0.4 / 0.68).abs() < 1e-9);
}

#[test]
fn article_billing_mix() {
    let e = evaluate("billing-mix.toml");
    let fx = 7.1106;
    // Demand: the 12 months average 864 ÷ 12 = 72 GPUs × 730 h × 24 months = 1,261,440 h.
    assert!((e.demand_ref_gpu_hours - 1_261_440.0).abs() < 1e-6);
    // All on demand: 1,261,440 × 5.12 USD × 7.1106 = 45,924,327.75 CNY.
    assert_money(option(&e, "all-on-demand").total_nominal, 1_261_440.0 * 5.12 * fx);
    // All reserved, sized to the peak slice: 112 × 1.5 ÷ (shape mean 24.4/24) = 165.25 → 166 cards,
    // 166 × 730 × 24 months × 2.048 × 7.1106 = 42,352,435.59.
    assert_money(option(&e, "all-reserved-1y").total_nominal, 166.0 * 730.0 * 24.0 * 2.048 * fx);
    // The article's mix is the cheapest of the three.
    assert_eq!(e.cheapest_nominal().map(|o| o.id.as_str()), Some("mix"));
    let mix = option(&e, "mix");
    // The reserved base: 48 × 730 × 24 × 2.048 × 7.1106 = 12,245,768.07.
    assert_money(mix.breakdown(Category::Reserved), 48.0 * 730.0 * 24.0 * 2.048 * fx);
    assert!(mix.breakdown(Category::Spot) > 0.0 && mix.breakdown(Category::OnDemand) > 0.0);
}

#[test]
fn article_200_card_scaling() {
    let e = evaluate("scaling-200-cards.toml");
    // 500,000 ÷ 0.78 × 8.56 = 5,487,179.49; ÷ 0.92 × 8.56 = 4,652,173.91.
    assert_money(option(&e, "flat-network").total_nominal, 5_487_179.49);
    assert_money(option(&e, "nvlink-rdma").total_nominal, 4_652_173.91);
}

#[test]
fn article_175b_training() {
    let e = evaluate("gpt3-175b-training.toml");
    // 6 × 175e9 × 300e9 = 3.15e23 ÷ (312e12 × 0.52 = 1.6224e14) = 1.9415680e9 s ÷ 3600
    // = 539,324.46 h × 0.8 = 431,459.57.
    let rent = option(&e, "rent-256");
    assert_money(rent.total_nominal, 431_459.57);
    assert_eq!(rent.meets_deadline, Some(true));
    // Buy: 32 × 1.5 M = 48 M at delivery (month 4); 16 M a year for the 32 months after;
    // book residual 48 M × (1 − (32/12) ÷ 5) = 22.4 M back: 48 + 42.67 − 22.4 = 68,266,666.67.
    let buy = option(&e, "buy-32-servers");
    assert_money(buy.total_nominal, 48e6 + 16e6 * 32.0 / 12.0 - 22.4e6);
    // Four months of lead time + 539,324 ÷ (256 × 20 × 365/12) = 3.46 months of training.
    assert!((buy.time_to_complete_months.unwrap() - 7.463).abs() < 1e-3);
    assert_eq!(buy.meets_deadline, Some(false));
}

#[test]
fn article_priority_portfolio() {
    let e = evaluate("portfolio-priorities.toml");
    // 460,000 h × 5.12 × 7.1106 = 16,746,885.12 all on demand.
    assert_money(option(&e, "all-on-demand").total_nominal, 460_000.0 * 5.12 * 7.1106);
    let mix = option(&e, "by-priority");
    // Reserved: 32 × 730 × 12 × 2.048 × 7.1106 = 4,081,922.69.
    assert_money(mix.breakdown(Category::Reserved), 32.0 * 730.0 * 12.0 * 2.048 * 7.1106);
    // Low priority (3 and 2): 140,000 h, 90 % on spot with 10 % redone: 126,000 × 1.1 × 1.536 × 7.1106
    // = 1,513,774.26; the other 10 % (14,000 h) fall back to on demand.
    assert_money(mix.breakdown(Category::Spot), 126_000.0 * 1.1 * 1.536 * 7.1106);
    // On demand: the evaluation suite (priority 6) 40,000 h + the 14,000 h of spot fallback
    // = 54,000 h × 5.12 × 7.1106 = 1,965,938.69.
    assert_money(mix.breakdown(Category::OnDemand), 54_000.0 * 5.12 * 7.1106);
    assert_eq!(mix.ref_gpu_hours_unserved, 0.0);
}

#[test]
fn storage_separation_and_edge() {
    let e = evaluate("storage-and-edge.toml");
    let attached = option(&e, "attached-raw");
    let object = option(&e, "object-features");
    // Storage: 200 TB × 700 × 12 = 1,680,000 vs 200 × 196 × 12 = 470,400: −72 %.
    assert_money(attached.breakdown(Category::Storage), 1_680_000.0);
    assert_money(object.breakdown(Category::Storage), 470_400.0);
    // Bandwidth: 500 TB × 600 × 12 = 3,600,000 vs 17 % of it = 612,000: −83 %.
    assert_money(attached.breakdown(Category::EdgeBandwidth), 3_600_000.0);
    assert_money(object.breakdown(Category::EdgeBandwidth), 612_000.0);
    assert_eq!((attached.latency_ms, object.latency_ms), (Some(900.0), Some(120.0)));
}

#[test]
fn catalogue_offers_resolve_with_their_provenance() {
    let (s, e) = evaluate_path(&scenarios_dir().join("catalog-offers.toml"));
    // AWS p4de: 27.44705 USD for 8 A100 SXM 80 GB (the reference, ratio 1) = 3.43088 per card-hour;
    // 64 GPUs × 730 h × 12 = 560,640 h × 3.43088 × 7.1106 = 13,677,162.76 CNY.
    assert_money(option(&e, "aws-p4de").total_nominal, 560_640.0 * 27.44705 / 8.0 * 7.1106);
    let p4de = s.options.iter().find(|o| o.id == "aws-p4de").unwrap();
    let source = &p4de.sources["on_demand.price_per_accel_hour"];
    assert!(source.contains("aws-p4de-24xlarge-us-east-1-on-demand") && source.contains("confidence"), "{source}");
    assert_eq!(p4de.efficiency_ratio, Some(1.0), "the reference accelerator");
    // The H100 filter became its three cheapest offers, each a rent option.
    let h100: Vec<_> = e.options.iter().filter(|o| o.id.starts_with("h100/")).collect();
    assert_eq!(h100.len(), 3);
    let totals: Vec<f64> = h100.iter().map(|o| o.total_nominal).collect();
    assert!(totals.windows(2).all(|w| w[0] <= w[1]), "cheapest first: {totals:?}");
}

#[test]
fn inference_h100_fleet_worked_by_hand() {
    let (s, e) = evaluate_path(&scenarios_dir().join("llm-inference-70b.toml"));
    let suanli_api::Demand::Inference(d) = &s.demand else { panic!("an inference demand") };
    let per_ref = d.tokens_per_second_per_ref_gpu.unwrap();
    let ratio = s.options.iter().find(|o| o.id == "h100").unwrap().efficiency_ratio.unwrap();
    // 2e9 tokens a day ÷ 86,400 s = 23,148.15 tokens/s ÷ ~584.70 per reference GPU (the serving
    // model on the A100: 8-card replicas, 356 sequences, 76.1 ms a step) = 39.59 reference GPUs
    // ÷ 2.495 (H100 vs A100, catalogue) = 15.87 H100, every hour of the year:
    // 15.87 × 730 × 12 = 139,000 accelerator-hours; 16 at the peak, 2 replicas of 8.
    assert!((per_ref - 584.70).abs() < 0.01, "{per_ref}");
    let by_hand = 2e9 / 86_400.0 / per_ref / ratio;
    assert!((by_hand - 15.87).abs() < 0.05, "{per_ref} tokens/s, ratio {ratio}: {by_hand}");
    let fleet = option(&e, "h100").fleet;
    assert!((fleet.peak_accelerators - by_hand).abs() < 1e-6 * by_hand, "{fleet:?}");
    assert!((fleet.average_accelerators - by_hand).abs() < 1e-6 * by_hand);
    assert!((fleet.accelerator_hours - by_hand * 730.0 * 12.0).abs() < 1e-3 * by_hand);
    assert_eq!((fleet.months, fleet.peak_count(), fleet.per_replica, fleet.replicas()), (12.0, 16, 8, 2));
    assert_eq!(fleet.servers, None);
    // "Rent 8×H100" names 8 of the 16: flagged.
    let m = suanli_api::label_mismatch(option(&e, "h100")).expect("flagged");
    assert_eq!(m.named, 8);
}

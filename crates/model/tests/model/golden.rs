//! The sanity checks of shared/domain.md, each with its expected figure
//! worked out by hand in the comment above the assertion.

use suanli_model::Category;

use crate::{assert_close, eval, option};

const SEED_CASE: &str = r#"
name = "seed"
horizon_months = 36
currency = "CNY"
discount_rate_annual = 0.08
[demand]
kind = "profile"
monthly_ref_gpus = [8]
[[options]]
id = "buy"
kind = "buy"
[options.owned]
servers = 1
accelerators_per_server = 8
capex_per_server = 1_500_000
other_opex_per_year = 500_000
residual = "market"
market_residual_share = 0.0
[[options]]
id = "rent"
kind = "rent"
billing = "on_demand"
[options.on_demand]
price_per_accel_hour = 8.56
"#;

#[test]
fn seed_case_renting_is_at_least_35_percent_cheaper_over_three_years() {
    let e = eval(SEED_CASE);
    let buy = option(&e, "buy");
    let rent = option(&e, "rent");
    // Buy: 1,500,000 capex + 36 months × 500,000 / 12 = 1,500,000 + 1,500,000 = 3,000,000.
    assert_close(buy.total_nominal, 3_000_000.0, 1e-12);
    // Year one: 1,500,000 + 12 × 41,666.67 = 2,000,000 — "passes 2 M" at the end of the year.
    assert_close(buy.cumulative()[11], 2_000_000.0, 1e-12);
    // Rent: 8 cards × 730 h × 8.56 CNY = 49,990.40 a month (< 50 k); × 36 = 1,799,654.40.
    assert_close(rent.monthly.month(0).total(), 49_990.40, 1e-12);
    assert_close(rent.total_nominal, 1_799_654.40, 1e-12);
    // Saving: 1 − 1,799,654.40 / 3,000,000 = 0.40012 ≥ 0.35.
    let saving = 1.0 - rent.total_nominal / buy.total_nominal;
    assert_close(saving, 0.400_115_2, 1e-6);
    assert!(saving >= 0.35);
    // With the time value of money the gap widens (the article's "more
    // once the time value of money is counted"): buy pays its capex today.
    assert!(1.0 - rent.total_npv / buy.total_npv > saving);
}

#[test]
fn domestic_card_effective_price_is_059_of_a100() {
    let e = eval(
        r#"
name = "domestic"
horizon_months = 12
currency = "CNY"
[demand]
kind = "profile"
monthly_ref_gpus = [64]
[[options]]
id = "a100"
kind = "rent"
billing = "on_demand"
[options.on_demand]
price_per_accel_hour = 0.8
[[options]]
id = "domestic"
kind = "rent"
billing = "on_demand"
efficiency_ratio = 0.68
[options.on_demand]
price_per_accel_hour = 0.32
"#,
    );
    let a100 = option(&e, "a100").effective_price_per_ref_gpu_hour.unwrap_or_default();
    let domestic = option(&e, "domestic").effective_price_per_ref_gpu_hour.unwrap_or_default();
    // A100: 0.8 ÷ 1 = 0.8. Domestic: 0.32 ÷ 0.68 = 0.470588.
    assert_close(a100, 0.8, 1e-12);
    assert_close(domestic, 0.470_588_235, 1e-8);
    // 0.40 ÷ 0.68 = 0.588235 ≈ 0.59 × the A100's.
    assert_close(domestic / a100, 0.588_235_294, 1e-8);
    // Same useful work needs 1 ÷ 0.68 = 1.4706 × the card-hours:
    // 64 × 730 × 12 = 560,640 A100-hours → 824,470.6 domestic card-hours.
    assert_close(option(&e, "domestic").accelerator_hours, 824_470.588, 1e-8);
}

#[test]
fn reserved_at_60_percent_discount_and_spot_at_30_percent() {
    let e = eval(
        r#"
name = "billing"
horizon_months = 12
currency = "USD"
[demand]
kind = "profile"
monthly_ref_gpus = [10]
[[options]]
id = "od"
kind = "rent"
billing = "on_demand"
[options.on_demand]
price_per_accel_hour = 5.0
[[options]]
id = "reserved"
kind = "rent"
billing = "reserved"
[options.reserved]
term_months = 12
price_per_accel_hour = 2.0
[[options]]
id = "spot"
kind = "rent"
billing = "spot"
[options.spot]
price_per_accel_hour = 1.5
[[options]]
id = "spot-with-overhead"
kind = "rent"
billing = "spot"
[options.spot]
price_per_accel_hour = 1.5
interruption_overhead = 0.1
availability = 0.8
[options.on_demand]
price_per_accel_hour = 5.0
"#,
    );
    let price = |id: &str| option(&e, id).effective_price_per_ref_gpu_hour.unwrap_or_default();
    // On demand 5.00; reserved at a 60 % discount: 0.4 × 5 = 2.00 (demand is
    // flat at 10 GPUs, so the commitment sized to the peak is fully used).
    assert_close(price("od"), 5.0, 1e-12);
    assert_close(price("reserved") / price("od"), 0.4, 1e-12);
    // Spot at 30 %: 0.3 × 5 = 1.50 before interruption overhead.
    assert_close(price("spot") / price("od"), 0.3, 1e-12);
    // With 10 % redone work and 80 % availability: 0.8 × 1.1 × 1.5 + 0.2 × 5 = 1.32 + 1.0 = 2.32.
    assert_close(price("spot-with-overhead"), 2.32, 1e-12);
    // Totals: 10 GPUs × 730 h × 12 = 87,600 useful hours.
    assert_close(option(&e, "reserved").total_nominal, 87_600.0 * 2.0, 1e-12);
    assert_close(option(&e, "spot-with-overhead").total_nominal, 87_600.0 * 2.32, 1e-12);
}

#[test]
fn a_200_card_cluster_at_92_percent_needs_085_of_the_card_hours_at_78() {
    let e = eval(
        r#"
name = "scaling"
horizon_months = 12
currency = "CNY"
[demand]
kind = "job"
ref_gpu_hours = 100_000
cluster_accelerators = 200
[[scaling_curves]]
id = "flat"
points = [[8, 1.0], [200, 0.78]]
[[scaling_curves]]
id = "hierarchical"
points = [[8, 1.0], [200, 0.92]]
[[options]]
id = "flat"
kind = "rent"
billing = "on_demand"
interconnect = "flat"
[options.on_demand]
price_per_accel_hour = 1.0
[[options]]
id = "hierarchical"
kind = "rent"
billing = "on_demand"
interconnect = "hierarchical"
[options.on_demand]
price_per_accel_hour = 1.0
"#,
    );
    let flat = option(&e, "flat").accelerator_hours;
    let hier = option(&e, "hierarchical").accelerator_hours;
    // 100,000 ÷ 0.78 = 128,205.13 card-hours; 100,000 ÷ 0.92 = 108,695.65.
    assert_close(flat, 128_205.128, 1e-8);
    assert_close(hier, 108_695.652, 1e-8);
    // 78 ÷ 92 = 0.847826 ≈ 0.85.
    assert_close(hier / flat, 0.847_826_087, 1e-8);
    // Time: 108,695.65 ÷ (200 × 24 × 30.4167 = 146,000 card-hours a month) = 0.7445 months.
    assert_close(option(&e, "hierarchical").time_to_complete_months.unwrap_or_default(), 0.744_490_8, 1e-6);
}

/// An owned 8-card server against renting, at a given demand in GPUs.
fn owned_vs_rent(gpus: f64) -> (f64, f64) {
    let e = eval(&format!(
        r#"
name = "utilisation"
horizon_months = 12
currency = "CNY"
[demand]
kind = "profile"
monthly_ref_gpus = [{gpus}]
[[options]]
id = "buy"
kind = "buy"
[options.owned]
servers = 1
accelerators_per_server = 8
capex_per_server = 1_000_000
server_kw = 6.5
pue = 1.5
electricity_per_kwh = 1.0
staff_per_year = 120_000
[[options]]
id = "rent"
kind = "rent"
billing = "on_demand"
[options.on_demand]
price_per_accel_hour = 8.0
"#
    ));
    (
        option(&e, "buy").effective_price_per_ref_gpu_hour.unwrap_or_default(),
        option(&e, "rent").effective_price_per_ref_gpu_hour.unwrap_or_default(),
    )
}

#[test]
fn utilisation_lowers_owned_cost_per_useful_hour_but_not_rented() {
    let (buy_half, rent_half) = owned_vs_rent(4.0);
    let (buy_full, rent_full) = owned_vs_rent(8.0);
    // Owned, 12 months, book residual over 5 years: 1,000,000 × (1 − 1/5) = 800,000 back.
    // Fixed: 1,000,000 − 800,000 + 120,000 staff = 320,000.
    // Power at full load: 6.5 kW × 730 h × 12 × 1.5 × 1.0 = 85,410; at half load 42,705.
    // Half (4 GPUs): (320,000 + 42,705) ÷ (4 × 8,760 = 35,040 h) = 10.3512 per hour.
    assert_close(buy_half, 362_705.0 / 35_040.0, 1e-9);
    // Full (8 GPUs): (320,000 + 85,410) ÷ 70,080 h = 5.7850 per hour.
    assert_close(buy_full, 405_410.0 / 70_080.0, 1e-9);
    assert!(buy_full < buy_half);
    // Renting costs 8.0 per useful hour at any utilisation.
    assert_close(rent_half, 8.0, 1e-12);
    assert_close(rent_full, 8.0, 1e-12);
}

#[test]
fn training_flops_follow_6nd_over_peak_times_mfu() {
    let e = eval(
        r#"
name = "gpt3"
horizon_months = 36
currency = "CNY"
[demand]
kind = "job"
parameters = 175e9
tokens = 300e9
mfu = 0.52
reference_peak_tflops = 312
cluster_accelerators = 256
run_hours_per_day = 20
deadline_months = 6
[[options]]
id = "rent"
kind = "rent"
billing = "on_demand"
[options.on_demand]
price_per_accel_hour = 0.8
"#,
    );
    // 6 × 175e9 × 300e9 = 3.15e23 FLOPs; ÷ (312e12 × 0.52 = 1.6224e14 FLOP/s)
    // = 1.94156805e9 s ÷ 3600 = 539,324.458 reference-GPU-hours.
    assert_close(e.demand_ref_gpu_hours, 539_324.458, 1e-9);
    let rent = option(&e, "rent");
    // × 0.8 CNY = 431,459.566 CNY.
    assert_close(rent.total_nominal, 431_459.566, 1e-9);
    // 256 cards × 20 h × 30.4167 days = 155,733.3 card-hours a month → 3.4631 months.
    assert_close(rent.time_to_complete_months.unwrap_or_default(), 3.463_13, 1e-5);
    assert_eq!(rent.meets_deadline, Some(true));
    assert_eq!(rent.breakdown(Category::OnDemand), rent.total_nominal);
}

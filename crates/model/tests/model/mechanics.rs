//! How each part of the engine behaves, with figures worked out by hand.

use suanli_model::{Category, Note, demand::Tier, finance, scaling_at, scenario::ScalingCurve};

use crate::{assert_close, eval, option};

#[test]
fn reserved_terms_renew_and_upfront_is_paid_at_each_term_start() {
    let e = eval(
        r#"
name = "reserved"
horizon_months = 30
currency = "USD"
[demand]
kind = "profile"
monthly_ref_gpus = [2]
[[options]]
id = "r"
kind = "rent"
billing = "reserved"
[options.reserved]
term_months = 12
price_per_accel_hour = 1.0
upfront_share = 0.5
"#,
    );
    let r = option(&e, "r");
    // 2 GPUs × 730 h × 1.0 = 1,460 a month. Term 1 (months 0–11): upfront
    // 0.5 × 12 × 1,460 = 8,760 at month 0, then 730 a month.
    assert_close(r.monthly.month(0).total(), 8_760.0 + 730.0, 1e-12);
    assert_close(r.monthly.month(1).total(), 730.0, 1e-12);
    assert_close(r.monthly.month(12).total(), 8_760.0 + 730.0, 1e-12);
    // Term 3 starts at month 24 with 6 months inside the horizon: upfront 0.5 × 6 × 1,460 = 4,380.
    assert_close(r.monthly.month(24).total(), 4_380.0 + 730.0, 1e-12);
    // Nominal: 30 × 1,460 = 43,800; the 6 months past the horizon are noted, not counted.
    assert_close(r.total_nominal, 43_800.0, 1e-12);
    assert!(r.notes.contains(&Note::ReservedBeyondHorizon { months: 6 }));
}

#[test]
fn lead_time_leaves_demand_unserved_unless_an_on_demand_pool_overflows() {
    let e = eval(
        r#"
name = "lead time"
horizon_months = 12
currency = "CNY"
[demand]
kind = "profile"
monthly_ref_gpus = [8]
[[options]]
id = "buy-only"
kind = "buy"
[options.owned]
servers = 1
accelerators_per_server = 8
capex_per_server = 1_200_000
lead_time_months = 4
[[options]]
id = "buy-with-cloud"
kind = "buy"
[options.owned]
servers = 1
accelerators_per_server = 8
capex_per_server = 1_200_000
lead_time_months = 4
capex_payment = "on_order"
[options.on_demand]
price_per_accel_hour = 10.0
"#,
    );
    let alone = option(&e, "buy-only");
    // Four months of 8 GPUs × 730 h = 23,360 hours find no capacity.
    assert_close(alone.ref_gpu_hours_unserved, 23_360.0, 1e-12);
    assert!(alone.notes.iter().any(|n| matches!(n, Note::Unserved { .. })));
    // Paid on delivery (month 4) by default.
    assert_close(alone.monthly.month(4).get(Category::Hardware), 1_200_000.0, 1e-12);
    let cloud = option(&e, "buy-with-cloud");
    assert_close(cloud.ref_gpu_hours_unserved, 0.0, 1e-12);
    // The cloud carries the four months: 23,360 h × 10 = 233,600; capex paid on order.
    assert_close(cloud.breakdown(Category::OnDemand), 233_600.0, 1e-12);
    assert_close(cloud.monthly.month(0).get(Category::Hardware), 1_200_000.0, 1e-12);
    // Book residual after 8 months of use over 5 years: 1.2 M × (1 − (8/12)/5) = 1,040,000.
    assert_close(cloud.breakdown(Category::ResidualValue), -1_040_000.0, 1e-12);
}

#[test]
fn owned_running_costs_follow_power_hosting_staff_and_maintenance() {
    let e = eval(
        r#"
name = "opex"
horizon_months = 12
currency = "CNY"
[demand]
kind = "profile"
monthly_ref_gpus = [6]
[[options]]
id = "buy"
kind = "buy"
[options.owned]
servers = 2
accelerators_per_server = 8
capex_per_server = 1_000_000
network_storage_capex = 200_000
installation = 50_000
server_kw = 6.5
provisioned_kw_per_server = 10.2
colocation_per_kw_month = 1_000
pue = 1.4
electricity_per_kwh = 0.7
staff_per_year = 240_000
maintenance_share_per_year = 0.05
residual = "market"
market_residual_share = 0.5
"#,
    );
    let b = option(&e, "buy");
    // Hardware 2 × 1,000,000 + 200,000 = 2,200,000; installation 50,000.
    assert_close(b.breakdown(Category::Hardware), 2_200_000.0, 1e-12);
    assert_close(b.breakdown(Category::Installation), 50_000.0, 1e-12);
    // Hosting: 2 × 10.2 kW × 1,000 × 12 = 244,800.
    assert_close(b.breakdown(Category::Hosting), 244_800.0, 1e-12);
    // Utilisation 6 ÷ 16 = 0.375. Power: 2 × 6.5 kW = 13 kW × 730 h = 9,490 kWh × 0.375
    // = 3,558.75 × PUE 1.4 = 4,982.25 × 0.7 = 3,487.575 a month × 12 = 41,850.9.
    assert_close(b.owned_utilisation.unwrap_or_default(), 0.375, 1e-12);
    assert_close(b.breakdown(Category::Power), 41_850.9, 1e-9);
    // Staff 240,000; maintenance 0.05 × 2,200,000 = 110,000; resale 0.5 × 2,200,000 back.
    assert_close(b.breakdown(Category::Staff), 240_000.0, 1e-12);
    assert_close(b.breakdown(Category::Maintenance), 110_000.0, 1e-12);
    assert_close(b.breakdown(Category::ResidualValue), -1_100_000.0, 1e-12);
}

#[test]
fn the_article_rule_routes_tiers_to_reserved_on_demand_and_spot() {
    let text = |fill: bool| {
        format!(
            r#"
name = "routing"
horizon_months = 1
currency = "USD"
[scheduling]
fill_idle_base = {fill}
[demand]
kind = "portfolio"
[[demand.jobs]]
id = "urgent"
priority = 9
ref_gpu_hours = 730
[[demand.jobs]]
id = "normal"
priority = 5
ref_gpu_hours = 1460
[[demand.jobs]]
id = "low"
priority = 4
ref_gpu_hours = 2190
[[options]]
id = "mix"
kind = "mix"
[options.reserved]
term_months = 1
price_per_accel_hour = 1.0
accelerators = 2
[options.on_demand]
price_per_accel_hour = 3.0
[options.spot]
price_per_accel_hour = 0.5
"#
        )
    };
    // Article rule: 1 urgent GPU on the 2 reserved (paid in full: 2 × 730 × 1 = 1,460),
    // 2 normal GPUs on demand (1,460 h × 3 = 4,380), 3 low on spot (2,190 h × 0.5 = 1,095).
    let e = eval(&text(false));
    let m = option(&e, "mix");
    assert_close(m.breakdown(Category::Reserved), 1_460.0, 1e-12);
    assert_close(m.breakdown(Category::OnDemand), 4_380.0, 1e-12);
    assert_close(m.breakdown(Category::Spot), 1_095.0, 1e-12);
    // Filling idle base first: one normal GPU moves onto the idle reserved one: on demand 730 × 3.
    let e = eval(&text(true));
    let m = option(&e, "mix");
    assert_close(m.breakdown(Category::OnDemand), 2_190.0, 1e-12);
    assert_close(m.breakdown(Category::Spot), 1_095.0, 1e-12);
    assert_eq!(Tier::of(9, &Default::default()), Tier::Urgent);
    assert_eq!(Tier::of(8, &Default::default()), Tier::Normal);
    assert_eq!(Tier::of(5, &Default::default()), Tier::Normal);
    assert_eq!(Tier::of(4, &Default::default()), Tier::Low);
}

#[test]
fn peaks_above_the_base_go_on_demand_slice_by_slice() {
    let e = eval(
        r#"
name = "peaks"
horizon_months = 1
currency = "USD"
[demand]
kind = "profile"
monthly_ref_gpus = [10]
shape = [0.5, 1.5]
[[options]]
id = "mix"
kind = "mix"
[options.reserved]
term_months = 1
price_per_accel_hour = 1.0
accelerators = 10
[options.on_demand]
price_per_accel_hour = 2.0
"#,
    );
    // Half the month at 5 GPUs, half at 15. The base of 10 carries 5 + 10;
    // the peak's extra 5 GPUs × 365 h = 1,825 h go on demand at 2.0 = 3,650.
    let m = option(&e, "mix");
    assert_close(m.breakdown(Category::OnDemand), 3_650.0, 1e-12);
    assert_close(m.breakdown(Category::Reserved), 7_300.0, 1e-12);
}

#[test]
fn rental_pools_refresh_and_owned_fleets_do_not() {
    let e = eval(
        r#"
name = "refresh"
horizon_months = 24
currency = "USD"
[refresh]
enabled = true
interval_months = 12
performance_uplift = 2.0
price_factor = 1.5
[demand]
kind = "profile"
monthly_ref_gpus = [4]
[[options]]
id = "rent"
kind = "rent"
billing = "on_demand"
[options.on_demand]
price_per_accel_hour = 1.0
[[options]]
id = "buy"
kind = "buy"
[options.owned]
servers = 1
accelerators_per_server = 4
capex_per_server = 0
"#,
    );
    let rent = option(&e, "rent");
    // Year 1: 4 × 730 = 2,920 card-hours at 1.0. Year 2: half the card-hours
    // (2× uplift) at 1.5× the price: 1,460 × 1.5 = 2,190 a month.
    assert_close(rent.monthly.month(0).total(), 2_920.0, 1e-12);
    assert_close(rent.monthly.month(12).total(), 2_190.0, 1e-12);
    assert_close(rent.accelerator_hours, 12.0 * 2_920.0 + 12.0 * 1_460.0, 1e-12);
    // The owned fleet still needs all 4 accelerators in year 2.
    assert_close(option(&e, "buy").owned_utilisation.unwrap_or_default(), 1.0, 1e-12);
}

#[test]
fn foreign_prices_convert_at_the_scenario_rate() {
    let e = eval(
        r#"
name = "fx"
horizon_months = 1
currency = "CNY"
fx = { USD = 7.1106 }
[demand]
kind = "profile"
monthly_ref_gpus = [1]
[[options]]
id = "usd"
kind = "rent"
billing = "on_demand"
[options.on_demand]
price_per_accel_hour = 2.0
currency = "USD"
"#,
    );
    // 730 h × 2 USD × 7.1106 = 10,381.476 CNY.
    assert_close(option(&e, "usd").total_nominal, 10_381.476, 1e-12);
}

#[test]
fn npv_discounts_monthly_flows_from_the_start_of_each_month() {
    // 12 monthly payments of 100 at 12 % a year: Σ 100 × 1.12^(−m/12), m = 0..11.
    let expected: f64 = (0..12).map(|m| 100.0 * 1.12f64.powf(-(m as f64) / 12.0)).sum();
    assert_close(finance::npv(0.12, &[100.0; 12]), expected, 1e-12);
    // Geometric series: 100 × (1 − 1.12^−1) ÷ (1 − 1.12^(−1/12)) = 100 × 0.107143 ÷ 0.0093996 ≈ 1,139.87.
    assert_close(expected, 1_139.87, 1e-5);
}

#[test]
fn break_even_reports_when_buying_overtakes_renting() {
    let e = eval(
        r#"
name = "break-even"
horizon_months = 36
currency = "CNY"
[demand]
kind = "profile"
monthly_ref_gpus = [8]
[[options]]
id = "buy"
kind = "buy"
[options.owned]
servers = 1
accelerators_per_server = 8
capex_per_server = 600_000
residual = "market"
[[options]]
id = "rent"
kind = "rent"
billing = "on_demand"
[options.on_demand]
price_per_accel_hour = 5.0
"#,
    );
    // Renting costs 8 × 730 × 5 = 29,200 a month: 29,200 × m ≥ 600,000 from m = 20.55,
    // so from month 21 buying stays cheaper.
    let buy = option(&e, "buy");
    let be = buy.break_even.as_ref().map(|b| (b.against.as_str(), b.month));
    assert_eq!(be, Some(("rent", Some(21))));
    assert_eq!(option(&e, "rent").break_even.as_ref().and_then(|b| b.month), None);
}

#[test]
fn storage_separation_and_edge_features_are_optional_lines() {
    let e = eval(
        r#"
name = "lines"
horizon_months = 2
currency = "CNY"
[demand]
kind = "profile"
monthly_ref_gpus = [1]
[storage]
dataset_tb = 100
object_price_per_tb_month = 100
attached_price_per_tb_month = 500
attached_copies = 2
reads_per_month = 3
transfer_price_per_tb = 10
[edge]
raw_tb_per_month = 100
feature_share = 0.17
bandwidth_price_per_tb = 50
edge_sites_per_month = 1000
latency_ms_raw = 900
latency_ms_features = 120
[[options]]
id = "attached"
kind = "rent"
billing = "on_demand"
storage = "attached"
edge = "raw"
[options.on_demand]
price_per_accel_hour = 1.0
[[options]]
id = "object"
kind = "rent"
billing = "on_demand"
storage = "object"
edge = "features"
[options.on_demand]
price_per_accel_hour = 1.0
"#,
    );
    let a = option(&e, "attached");
    let o = option(&e, "object");
    // Attached: 100 TB × 500 × 2 copies = 100,000 a month. Object: 100 × (100 + 3 × 10) = 13,000.
    assert_close(a.breakdown(Category::Storage), 200_000.0, 1e-12);
    assert_close(o.breakdown(Category::Storage), 26_000.0, 1e-12);
    // Raw: 100 TB × 50 = 5,000 a month; features: 17 TB × 50 = 850 (−83 %) + 1,000 sites.
    assert_close(a.breakdown(Category::EdgeBandwidth), 10_000.0, 1e-12);
    assert_close(o.breakdown(Category::EdgeBandwidth), 1_700.0, 1e-12);
    assert_close(o.breakdown(Category::EdgeSites), 2_000.0, 1e-12);
    assert_eq!((a.latency_ms, o.latency_ms), (Some(900.0), Some(120.0)));
    // Neither line enters the effective price of compute: 1.0 per hour.
    assert_close(a.effective_price_per_ref_gpu_hour.unwrap_or_default(), 1.0, 1e-12);
}

#[test]
fn a_job_that_outlasts_the_horizon_is_extrapolated_and_noted() {
    let e = eval(
        r#"
name = "long job"
horizon_months = 2
currency = "CNY"
[demand]
kind = "job"
ref_gpu_hours = 2_920
cluster_accelerators = 1
[[options]]
id = "rent"
kind = "rent"
billing = "on_demand"
[options.on_demand]
price_per_accel_hour = 1.0
"#,
    );
    let r = option(&e, "rent");
    // 1 card × 730 h a month: 2,920 h take 4 months; 1,460 h done in the horizon.
    assert_close(r.time_to_complete_months.unwrap_or_default(), 4.0, 1e-12);
    assert_eq!(r.completes_within_horizon, Some(false));
    assert_close(r.ref_gpu_hours_unserved, 1_460.0, 1e-12);
    assert!(r.notes.contains(&Note::JobNotDone));
}

#[test]
fn owned_job_waits_for_delivery_and_reserved_job_pays_whole_terms() {
    let e = eval(
        r#"
name = "job timing"
horizon_months = 24
currency = "CNY"
[demand]
kind = "job"
ref_gpu_hours = 5_840
cluster_accelerators = 8
deadline_months = 3
[[options]]
id = "buy"
kind = "buy"
[options.owned]
servers = 1
accelerators_per_server = 8
capex_per_server = 100_000
lead_time_months = 4
[[options]]
id = "reserved"
kind = "rent"
billing = "reserved"
[options.reserved]
term_months = 12
price_per_accel_hour = 1.0
"#,
    );
    // 8 cards × 730 h = 5,840 h: one month of work, after 4 months of lead time.
    let buy = option(&e, "buy");
    assert_close(buy.time_to_complete_months.unwrap_or_default(), 5.0, 1e-12);
    assert_eq!(buy.meets_deadline, Some(false));
    // Reserved: done in month 1 but the 12-month term is paid: 8 × 730 × 12 = 70,080.
    let r = option(&e, "reserved");
    assert_close(r.time_to_complete_months.unwrap_or_default(), 1.0, 1e-12);
    assert_close(r.total_nominal, 70_080.0, 1e-12);
}

#[test]
fn hourly_profiles_and_scaling_curves() {
    // 730 hours at 2 GPUs then 730 at 6: two months, the second busier.
    let hourly: Vec<String> = (0..1460).map(|h| if h < 730 { "2" } else { "6" }.to_owned()).collect();
    let e = eval(&format!(
        r#"
name = "hourly"
horizon_months = 2
currency = "CNY"
[demand]
kind = "profile"
hourly_ref_gpus = [{}]
[[options]]
id = "rent"
kind = "rent"
billing = "on_demand"
[options.on_demand]
price_per_accel_hour = 1.0
"#,
        hourly.join(",")
    ));
    let r = option(&e, "rent");
    assert_close(r.monthly.month(0).total(), 1_460.0, 1e-12);
    assert_close(r.monthly.month(1).total(), 4_380.0, 1e-12);

    // Interpolated in log2: halfway between 8 and 128 GPUs (log2: 3 and 7) is 32 (log2 5).
    let curve = ScalingCurve { id: "c".into(), points: vec![(8.0, 1.0), (128.0, 0.8)], source: String::new() };
    assert_close(scaling_at(&curve, 32.0), 0.9, 1e-12);
    assert_close(scaling_at(&curve, 4.0), 1.0, 1e-12);
    assert_close(scaling_at(&curve, 1024.0), 0.8, 1e-12);
}

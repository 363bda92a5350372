//! Properties of the arithmetic, checked over generated inputs. The
//! generator's seed is committed here, so every run checks the same cases
//! and a failure reproduces exactly.

use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use suanli_model::{Checked, Scenario, finance};

use crate::option;

const SEED: [u8; 32] = *b"suanli-model-properties-seed-v1!";

fn runner() -> TestRunner {
    let config = Config { cases: 200, failure_persistence: None, ..Config::default() };
    TestRunner::new_with_rng(config, TestRng::from_seed(RngAlgorithm::ChaCha, &SEED))
}

fn parse(text: &str) -> Scenario {
    toml::from_str(text).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

#[derive(Debug, Clone)]
struct Owned {
    capex: f64,
    kw: f64,
    pue: f64,
    tariff: f64,
    colo: f64,
    staff: f64,
    maintenance: f64,
    months: u32,
}

fn owned() -> impl Strategy<Value = Owned> {
    (1e4..5e6f64, 0.0..12.0f64, 1.0..2.0f64, 0.0..2.0f64, 0.0..2000.0f64, 0.0..1e6f64, 0.0..0.2f64, 1..72u32).prop_map(
        |(capex, kw, pue, tariff, colo, staff, maintenance, months)| Owned {
            capex,
            kw,
            pue,
            tariff,
            colo,
            staff,
            maintenance,
            months,
        },
    )
}

fn owned_scenario(o: &Owned, gpus: f64, money_scale: f64) -> Scenario {
    parse(&format!(
        r#"
name = "p"
horizon_months = {months}
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
capex_per_server = {capex}
server_kw = {kw}
pue = {pue}
electricity_per_kwh = {tariff}
colocation_per_kw_month = {colo}
staff_per_year = {staff}
maintenance_share_per_year = {maintenance}
"#,
        months = o.months,
        capex = o.capex * money_scale,
        kw = o.kw,
        pue = o.pue,
        tariff = o.tariff * money_scale,
        colo = o.colo * money_scale,
        staff = o.staff * money_scale,
        maintenance = o.maintenance,
    ))
}

#[test]
fn higher_utilisation_never_raises_owned_cost_per_useful_hour() {
    let strategy = (owned(), 0.1..8.0f64, 0.1..8.0f64);
    runner()
        .run(&strategy, |(o, a, b)| {
            let (low, high) = if a <= b { (a, b) } else { (b, a) };
            let price = |gpus: f64| -> f64 {
                let e =
                    Checked::new(owned_scenario(&o, gpus, 1.0)).unwrap_or_else(|e| panic!("{e:?}")).into_evaluation();
                option(&e, "buy").effective_price_per_ref_gpu_hour.unwrap_or(f64::INFINITY)
            };
            let (p_low, p_high) = (price(low), price(high));
            prop_assert!(p_high <= p_low * (1.0 + 1e-12), "{p_high} > {p_low} at {high} vs {low} GPUs");
            Ok(())
        })
        .unwrap_or_else(|e| panic!("{e}"));
}

#[test]
fn a_higher_discount_rate_never_raises_the_npv_of_future_costs() {
    let strategy = (prop::collection::vec(0.0..1e6f64, 1..120), 0.0..0.5f64, 0.0..0.5f64);
    runner()
        .run(&strategy, |(flows, a, b)| {
            let (low, high) = if a <= b { (a, b) } else { (b, a) };
            prop_assert!(finance::npv(high, &flows) <= finance::npv(low, &flows) * (1.0 + 1e-12));
            Ok(())
        })
        .unwrap_or_else(|e| panic!("{e}"));
}

#[test]
fn costs_scale_linearly_with_prices() {
    let strategy = (owned(), 0.1..8.0f64, 0.01..100.0f64, 0.0..0.3f64);
    runner()
        .run(&strategy, |(o, gpus, k, rate)| {
            // Owned: every money input × k ⇒ every total × k.
            let mut base = owned_scenario(&o, gpus, 1.0);
            let mut scaled = owned_scenario(&o, gpus, k);
            base.discount_rate_annual = rate;
            scaled.discount_rate_annual = rate;
            let e1 = Checked::new(base).unwrap_or_else(|e| panic!("{e:?}")).into_evaluation();
            let e2 = Checked::new(scaled).unwrap_or_else(|e| panic!("{e:?}")).into_evaluation();
            let (a, b) = (option(&e1, "buy"), option(&e2, "buy"));
            prop_assert!((b.total_nominal - k * a.total_nominal).abs() <= 1e-9 * (k * a.total_nominal).abs().max(1.0));
            prop_assert!((b.total_npv - k * a.total_npv).abs() <= 1e-9 * (k * a.total_npv).abs().max(1.0));

            // Rented: price × k ⇒ total × k.
            let rent = |price: f64| {
                let s = parse(&format!(
                    r#"
name = "r"
horizon_months = {months}
currency = "CNY"
discount_rate_annual = {rate}
[demand]
kind = "profile"
monthly_ref_gpus = [{gpus}]
[[options]]
id = "mix"
kind = "mix"
[options.reserved]
term_months = 12
price_per_accel_hour = {reserved}
accelerators = 2
[options.on_demand]
price_per_accel_hour = {price}
[options.spot]
price_per_accel_hour = {spot}
"#,
                    months = o.months,
                    reserved = 0.4 * price,
                    spot = 0.3 * price,
                ));
                let e = Checked::new(s).unwrap_or_else(|e| panic!("{e:?}")).into_evaluation();
                option(&e, "mix").total_nominal
            };
            let (r1, rk) = (rent(3.0), rent(3.0 * k));
            prop_assert!((rk - k * r1).abs() <= 1e-9 * (k * r1).abs().max(1.0));
            Ok(())
        })
        .unwrap_or_else(|e| panic!("{e}"));
}

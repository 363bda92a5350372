//! Porting, supply risk, uncertainty, sensitivity and the optimiser.

use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use suanli_model::optimise::{Outcome, optimise};
use suanli_model::sensitivity::sensitivity;
use suanli_model::uncertainty::{SimulationConfig, simulate};
use suanli_model::{Category, Checked, Rule, Scenario};

use crate::{assert_close, eval, option};

fn parse(text: &str) -> Checked<Scenario> {
    check(text).unwrap_or_else(|e| panic!("{e:?}\n{text}"))
}

fn check(text: &str) -> Result<Checked<Scenario>, Vec<suanli_model::InputError>> {
    Checked::new(toml::from_str(text).unwrap_or_else(|e| panic!("{e}\n{text}")))
}

const DOMESTIC: &str = r#"
name = "domestic"
horizon_months = 12
currency = "CNY"
[demand]
kind = "profile"
monthly_ref_gpus = [100]
[porting]
code_kloc = 40
custom_kernels = 10
engineer_month_cost = 50_000
engineers = 4
bridge_price_per_ref_gpu_hour = 0.8
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
[options.porting]
maturity = "beta"
[options.supply]
export_status = "domestic"
vendor_concentration = 1.0
stability = "uncertain"
[[uncertainty]]
path = "options.domestic.on_demand.price_per_accel_hour"
range = { dist = "triangular", low = 0.28, mode = 0.32, high = 0.40 }
[[uncertainty]]
path = "options.domestic.efficiency_ratio"
range = { dist = "pert", low = 0.55, mode = 0.68, high = 0.80 }
[[uncertainty]]
path = "demand.scale"
range = { dist = "lognormal", median = 1.0, p90 = 1.3 }
"#;

#[test]
fn porting_is_folded_into_the_total_and_delays_the_start() {
    let e = eval(DOMESTIC);
    let d = option(&e, "domestic");
    let p = d.porting.as_ref().unwrap();
    // 40 × 0.15 + 10 × 1 + 2 = 18 engineer-months → 4.5 months with 4 engineers → starts in month 5.
    assert_eq!((p.engineer_months, p.delay_months), (18.0, 4.5));
    // 900,000 spread over the 5 porting months; upkeep 20 % a year = 15,000 a month for 7 months.
    assert_close(d.breakdown(Category::Porting), 900_000.0, 1e-12);
    assert_close(d.monthly.month(0).get(Category::Porting), 180_000.0, 1e-12);
    assert_close(d.breakdown(Category::PortingMaintenance), 7.0 * 15_000.0, 1e-12);
    // The incumbent carries 5 months: 100 × 730 × 5 = 365,000 h × 0.8 = 292,000.
    assert_close(d.breakdown(Category::Bridge), 292_000.0, 1e-12);
    // The domestic card serves the other 7 months: 511,000 h ÷ 0.68 × 0.32 = 240,470.59.
    assert_close(d.breakdown(Category::OnDemand), 511_000.0 / 0.68 * 0.32, 1e-12);
    // Its effective price stays the article's 0.32 ÷ 0.68 (before porting); all-in includes everything.
    assert_close(d.effective_price_per_ref_gpu_hour.unwrap(), 0.32 / 0.68, 1e-12);
    assert_close(d.all_in_per_ref_gpu_hour.unwrap(), d.total_nominal / 876_000.0, 1e-12);
    // Supply risk: domestic export status 2.5 + one vendor 10 + uncertain stability 5.
    assert_close(d.supply.as_ref().unwrap().score, 17.5, 1e-12);
}

#[test]
fn monte_carlo_is_reproducible_across_runs_and_thread_counts() {
    let s = parse(DOMESTIC);
    let run = |threads| simulate(&s, SimulationConfig { trials: 3_000, seed: 99, threads }, &|_| {}).unwrap();
    let one = run(1);
    assert_eq!(one, run(1));
    assert_eq!(one, run(2));
    assert_eq!(one, run(5));
    let other_seed = simulate(&s, SimulationConfig { trials: 3_000, seed: 100, threads: 2 }, &|_| {}).unwrap();
    assert_ne!(one, other_seed);
    for o in &one.options {
        assert!(o.npv.p10 <= o.npv.p50 && o.npv.p50 <= o.npv.p90, "{o:?}");
        assert!(o.nominal.p10 <= o.nominal.p50 && o.nominal.p50 <= o.nominal.p90);
    }
    let total: f64 = one.options.iter().map(|o| o.probability_cheapest).sum();
    assert_close(total, 1.0, 1e-12);
}

#[test]
fn a_triangular_price_gives_its_known_mean_cost() {
    // Rent 1 GPU for a month (730 h) at a Triangular(1, 2, 6) price: mean (1 + 2 + 6)/3 = 3 → 2,190.
    let s = parse(
        r#"
name = "tri"
horizon_months = 1
currency = "USD"
[demand]
kind = "profile"
monthly_ref_gpus = [1]
[[options]]
id = "r"
kind = "rent"
billing = "on_demand"
[options.on_demand]
price_per_accel_hour = 2
[[uncertainty]]
path = "options.r.on_demand.price_per_accel_hour"
range = { dist = "triangular", low = 1, mode = 2, high = 6 }
"#,
    );
    let sim = simulate(&s, SimulationConfig { trials: 100_000, seed: 3, threads: 2 }, &|_| {}).unwrap();
    assert_close(sim.options[0].nominal.mean, 2_190.0, 0.005);
}

fn spread(low: f64, high: f64, seed: u64) -> f64 {
    let text =
        DOMESTIC.replace("low = 0.28, mode = 0.32, high = 0.40", &format!("low = {low}, mode = 0.32, high = {high}"));
    let sim = simulate(&parse(&text), SimulationConfig { trials: 2_000, seed, threads: 2 }, &|_| {}).unwrap();
    let d = &sim.options[1].npv;
    d.p90 - d.p10
}

#[test]
fn widening_an_input_range_never_narrows_the_output_range() {
    let config = Config { cases: 16, failure_persistence: None, ..Config::default() };
    let mut runner =
        TestRunner::new_with_rng(config, TestRng::from_seed(RngAlgorithm::ChaCha, b"suanli-widening-ranges-seed-v1!!"));
    runner
        .run(&(0.0..0.12f64, 1.0..3.0f64, any::<u64>()), |(half, k, seed)| {
            // The same range scaled around the mode by k ≥ 1 (same seed, same draws).
            let narrow = spread(0.32 - half / 2.0, 0.32 + half, seed);
            let wide = spread(0.32 - k * half / 2.0, 0.32 + k * half, seed);
            prop_assert!(wide >= narrow - 1e-6 * narrow.abs().max(1.0), "{wide} < {narrow}");
            Ok(())
        })
        .unwrap();
}

#[test]
fn bad_ranges_and_zero_trials_are_refused_with_their_field() {
    let bad = |range: &str| {
        let text = DOMESTIC.replace(r#"{ dist = "triangular", low = 0.28, mode = 0.32, high = 0.40 }"#, range);
        let err = check(&text).unwrap_err();
        (err[0].path.clone(), err[0].rule.clone())
    };
    assert_eq!(bad(r#"{ dist = "triangular", low = 0.5, mode = 0.4, high = 0.3 }"#).0, "uncertainty[0].range.high");
    assert_eq!(bad(r#"{ dist = "lognormal", median = 0.3, p90 = 0.2 }"#).0, "uncertainty[0].range.p90");
    assert_eq!(
        bad(r#"{ dist = "bernoulli", probability = 1.5 }"#),
        ("uncertainty[0].range.probability".into(), Rule::Share)
    );
    // A range whose low end makes the price negative.
    let (path, rule) = bad(r#"{ dist = "uniform", low = -1.0, high = 0.4 }"#);
    assert_eq!(path, "uncertainty[0].range");
    assert!(matches!(rule, Rule::RangeBreaks { .. }), "{rule:?}");
    let text = DOMESTIC.replace("path = \"demand.scale\"", "path = \"options.nobody.efficiency_ratio\"");
    let err = check(&text).unwrap_err();
    assert_eq!(err[0].path, "uncertainty[2].path");
    let err = simulate(&parse(DOMESTIC), SimulationConfig { trials: 0, seed: 1, threads: 1 }, &|_| {}).unwrap_err();
    assert_eq!((err[0].path.as_str(), &err[0].rule), ("trials", &Rule::NotPositive));
}

#[test]
fn tornado_ranks_inputs_by_swing_and_break_even_utilisation_is_worked_out() {
    let s = parse(
        r#"
name = "be"
horizon_months = 12
currency = "CNY"
[demand]
kind = "profile"
monthly_ref_gpus = [4]
[[options]]
id = "buy"
kind = "buy"
[options.owned]
servers = 1
accelerators_per_server = 8
capex_per_server = 350_400
residual = "market"
[[options]]
id = "rent"
kind = "rent"
billing = "on_demand"
[options.on_demand]
price_per_accel_hour = 10.0
[[uncertainty]]
path = "options.rent.on_demand.price_per_accel_hour"
range = { dist = "triangular", low = 8, mode = 10, high = 14 }
[[uncertainty]]
path = "options.buy.owned.capex_per_server"
range = { dist = "triangular", low = 340_000, mode = 350_400, high = 360_000 }
"#,
    );
    let r = sensitivity(&s).unwrap();
    // The rent price moves rent's NPV by far more than capex moves buy's.
    assert_eq!(r.tornado[0].path, "options.rent.on_demand.price_per_accel_hour");
    assert!(r.tornado[0].swing > r.tornado[1].swing);
    // Per option, only the inputs that move it: the rent price moves only
    // rent, capex only buy (the first bar overall is not buy's).
    let paths = |id: &str| r.for_option(id).iter().map(|b| b.bar.path.clone()).collect::<Vec<_>>();
    assert_eq!(paths("buy"), ["options.buy.owned.capex_per_server"]);
    assert_eq!(paths("rent"), ["options.rent.on_demand.price_per_accel_hour"]);
    let buy = r.for_option("buy")[0];
    assert_close(buy.npv_high - buy.npv_low, buy.swing(), 1e-9);
    assert!(buy.swing() > 0.0 && buy.swing() < r.tornado[0].swing);
    // Break-even: buying costs 350,400 whatever the use; renting u × 8 × 8,760 h × 10 (undiscounted).
    // 350,400 = u × 700,800 → u = 0.5 (the scenario runs at 4/8 = 0.5 already).
    let be = &r.break_even[0];
    assert_eq!((be.buy.as_str(), be.rent.as_str()), ("buy", "rent"));
    assert_close(be.current_utilisation.unwrap(), 0.5, 1e-12);
    assert_close(be.utilisation.unwrap(), 0.5, 1e-6);
}

const PEAKED: &str = r#"
name = "peaked"
horizon_months = 12
currency = "USD"
discount_rate_annual = 0.08
[demand]
kind = "profile"
monthly_ref_gpus = [48, 48, 56, 64, 64, 72, 80, 96, 112, 96, 72, 56]
shape = [0.5, 0.5, 0.5, 0.5, 0.5, 0.6, 0.8, 1.0, 1.3, 1.5, 1.5, 1.5, 1.4, 1.5, 1.5, 1.5, 1.4, 1.3, 1.1, 1.0, 0.9, 0.8, 0.7, 0.6]
low_priority_share = 0.2
[optimise]
base = "reserved"
on_demand = "od"
spot = "spot"
[[options]]
id = "od"
kind = "rent"
billing = "on_demand"
provider_country = "US"
[options.on_demand]
price_per_accel_hour = 5.0
[[options]]
id = "reserved"
kind = "rent"
billing = "reserved"
provider_country = "US"
[options.reserved]
term_months = 12
price_per_accel_hour = 2.0
[options.supply]
export_status = "unrestricted"
vendor_concentration = 0.5
stability = "stable"
[[options]]
id = "spot"
kind = "rent"
billing = "spot"
provider_country = "CN"
[options.spot]
price_per_accel_hour = 1.5
interruption_overhead = 0.1
availability = 0.9
[options.on_demand]
price_per_accel_hour = 5.0
"#;

#[test]
fn the_optimiser_gives_the_articles_advice_on_a_peaked_profile() {
    let Outcome::Chosen(best) = optimise(&parse(PEAKED)).unwrap() else { panic!("infeasible") };
    let c = &best.chosen;
    // Reserved base, on-demand peaks, spot for low priority.
    assert!(c.base.is_some() && c.on_demand && c.spot, "{c:?}");
    let (_, size) = c.base.clone().unwrap();
    // The base sits between the valley and the peak of the load.
    assert!(size > 24 && size < 168, "{size}");
    for (name, pure) in &best.pure {
        assert!(c.total_npv <= pure.total_npv, "{name} is cheaper");
    }
    assert!(best.binding.is_empty());
}

#[test]
fn a_tighter_constraint_never_lowers_the_optimisers_cost() {
    let cost = |extra: &str| {
        let text = PEAKED.replace("spot = \"spot\"\n", &format!("spot = \"spot\"\n[optimise.constraints]\n{extra}\n"));
        match optimise(&parse(&text)).unwrap() {
            Outcome::Chosen(b) => Some(b.chosen.total_npv),
            Outcome::Infeasible { .. } => None,
        }
    };
    let free = cost("").unwrap();
    // Data must stay in the US: the CN spot pool goes; the cost can only rise.
    let us = cost("provider_country = \"US\"").unwrap();
    assert!(us >= free);
    // Supply caps from loose to tight: the cost never falls.
    let mut last = free;
    for cap in [100.0, 40.0, 20.0, 10.0] {
        match cost(&format!("max_supply_score = {cap}")) {
            Some(c) => {
                assert!(c >= last - 1e-6, "cap {cap}: {c} < {last}");
                last = c;
            }
            None => last = f64::INFINITY,
        }
    }
    // The sovereignty constraint binds, and says so.
    let text =
        PEAKED.replace("spot = \"spot\"\n", "spot = \"spot\"\n[optimise.constraints]\nprovider_country = \"US\"\n");
    let Outcome::Chosen(b) = optimise(&parse(&text)).unwrap() else { panic!() };
    assert_eq!(b.binding, vec![suanli_model::optimise::ConstraintKey::ProviderCountry]);
    assert_eq!(b.excluded, vec![("spot".to_owned(), suanli_model::optimise::ConstraintKey::ProviderCountry)]);
}

#[test]
fn infeasible_constraints_say_why() {
    let text = PEAKED.replace("spot = \"spot\"\n", "spot = \"spot\"\n[optimise.constraints]\ndomestic_only = true\n");
    match optimise(&parse(&text)).unwrap() {
        Outcome::Infeasible { reasons } => {
            assert_eq!(reasons.len(), 3);
            assert!(reasons.iter().all(|(_, k)| *k == suanli_model::optimise::ConstraintKey::DomesticOnly));
        }
        Outcome::Chosen(_) => panic!("no pool is domestic"),
    }
}

#[test]
fn a_sampled_demand_scale_equals_scaling_the_demand() {
    // A range that is a point: every trial is the scenario with 1.5 × the demand.
    let text = DOMESTIC.replace(
        r#"range = { dist = "lognormal", median = 1.0, p90 = 1.3 }"#,
        r#"range = { dist = "triangular", low = 1.5, mode = 1.5, high = 1.5 }"#,
    );
    let text = text
        .replace("low = 0.28, mode = 0.32, high = 0.40", "low = 0.32, mode = 0.32, high = 0.32")
        .replace("low = 0.55, mode = 0.68, high = 0.80", "low = 0.68, mode = 0.68, high = 0.68");
    let sim = simulate(&parse(&text), SimulationConfig { trials: 10, seed: 1, threads: 1 }, &|_| {}).unwrap();
    let scaled = eval(&DOMESTIC.replace("monthly_ref_gpus = [100]", "monthly_ref_gpus = [150]"));
    for (r, o) in sim.options.iter().zip(&scaled.options) {
        assert_close(r.npv.p50, o.total_npv, 1e-9);
    }
}

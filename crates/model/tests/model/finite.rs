//! Finite by construction: what passes the rules gives finite figures
//! within the documented bound, and what would not is an error that names
//! the inputs behind it — for the evaluation, the simulation, the tornado
//! and the optimiser.

use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use suanli_model::optimise::{Outcome, optimise};
use suanli_model::sensitivity::sensitivity;
use suanli_model::uncertainty::{SimulationConfig, simulate};
use suanli_model::validate::{MAX_FIGURE, MAX_REFRESH_COMPOUND};
use suanli_model::{Category, Checked, Evaluation, InputError, Lang, Rule, Scenario, evaluate};

fn scenario(text: &str) -> Scenario {
    toml::from_str(text).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

fn errors(text: &str) -> Vec<InputError> {
    match Checked::new(scenario(text)) {
        Ok(_) => panic!("expected the scenario to be refused:\n{text}"),
        Err(e) => e,
    }
}

fn rent(horizon: u32, refresh: &str) -> String {
    format!(
        r#"
name = "refresh"
horizon_months = {horizon}
currency = "USD"
{refresh}
[demand]
kind = "profile"
monthly_ref_gpus = [8]
[[options]]
id = "rent"
kind = "rent"
billing = "on_demand"
[options.on_demand]
price_per_accel_hour = 2.0
"#
    )
}

#[test]
fn refresh_factors_may_not_compound_beyond_the_bound() {
    // The issue's cases: NaN totals, inf, and a 70-digit total.
    for (refresh, field) in [
        ("[refresh]\nenabled = true\ninterval_months = 1\nprice_factor = 20", "refresh.price_factor"),
        ("[refresh]\nenabled = true\ninterval_months = 12\nprice_factor = 1e12", "refresh.price_factor"),
        (
            "[refresh]\nenabled = true\ninterval_months = 1\nprice_factor = 1000\nperformance_uplift = 0.001",
            "refresh.performance_uplift",
        ),
    ] {
        let e = errors(&rent(240, refresh));
        let hit = e.iter().find(|e| e.path == field).unwrap_or_else(|| panic!("{field} not named: {e:?}"));
        assert!(hit.message(Lang::En).contains("refresh"), "{}", hit.message(Lang::En));
        assert!(!hit.rule.describe(Lang::Zh).is_empty());
    }
    // Real refreshes pass: ×2 work at ×1.2 the price every 18 months for 20 years.
    let ok = rent(240, "[refresh]\nenabled = true\ninterval_months = 18\nperformance_uplift = 2\nprice_factor = 1.2");
    let e = Checked::new(scenario(&ok)).unwrap_or_else(|e| panic!("{e:?}")).into_evaluation();
    assert!(e.options[0].total_nominal.is_finite());
    assert!(2f64.powi(13) <= MAX_REFRESH_COMPOUND);
}

const HUGE: &str = r#"
name = "huge"
horizon_months = 240
currency = "CNY"
[demand]
kind = "profile"
monthly_ref_gpus = [1e12]
[[options]]
id = "rent"
kind = "rent"
billing = "on_demand"
efficiency_ratio = 0.001
[options.on_demand]
price_per_accel_hour = 1e12
"#;

#[test]
fn a_figure_beyond_the_bound_is_an_error_naming_its_inputs() {
    // Every input is within its own bound; together they make 1.75e32.
    let e = errors(HUGE);
    assert_eq!(e.len(), 1, "{e:?}");
    let en = e[0].message(Lang::En);
    assert_eq!(e[0].path, "options[0]");
    for input in ["options[0].on_demand.price_per_accel_hour", "options[0].efficiency_ratio", "demand.monthly_ref_gpus"]
    {
        assert!(en.contains(input), "{input} not named: {en}");
    }
    assert!(en.contains("On-demand rental"), "{en}");
    let zh = e[0].message(Lang::Zh);
    assert!(zh.contains("按需租用") && zh.contains("超出"), "{zh}");
    assert!(matches!(e[0].rule, Rule::FigureBeyondBound { .. }));
}

#[test]
fn a_total_beyond_the_bound_is_found_when_every_month_is_within_it() {
    // 1e6 reference GPUs at 2e8 an hour: 1.46e17 a month (within 1e18), 1.75e18 over the year.
    let text = RANGED.replace("price_per_accel_hour = 1.0", "price_per_accel_hour = 2e8");
    let text = &text[..text.find("[[uncertainty]]").unwrap_or(text.len())];
    let e = errors(text);
    assert_eq!(e.len(), 1, "{e:?}");
    assert_eq!(e[0].path, "options[0]");
    let Rule::FigureBeyondBound { found, .. } = &e[0].rule else { panic!("{:?}", e[0].rule) };
    let month = 1e6 * 730.0 * 2e8;
    assert!(month < MAX_FIGURE && (*found - 12.0 * month).abs() < 1e6, "found {found}");
    assert!(e[0].message(Lang::En).contains("On-demand rental"), "{}", e[0].message(Lang::En));
}

const RANGED: &str = r#"
name = "ranged"
horizon_months = 12
currency = "CNY"
[demand]
kind = "profile"
monthly_ref_gpus = [1e6]
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
servers = 1000
accelerators_per_server = 8
capex_per_server = 1e6
[[uncertainty]]
path = "options.rent.on_demand.price_per_accel_hour"
range = { dist = "uniform", low = 1, high = 2e8 }
"#;

#[test]
fn simulation_and_tornado_refuse_figures_beyond_the_bound() {
    // Both ends of the range are valid inputs, and so is its middle; the
    // high end gives 1.75e18.
    let s = Checked::new(scenario(RANGED)).unwrap_or_else(|e| panic!("{e:?}"));
    let config = SimulationConfig { trials: 300, seed: 7, threads: 1 };
    let e = simulate(&s, config, &|_| {}).expect_err("the simulation must refuse");
    let en = e[0].message(Lang::En);
    assert!(en.contains("options.rent.on_demand.price_per_accel_hour"), "{en}");
    assert!(en.contains("rent"), "{en}");
    let e = sensitivity(&s).expect_err("the tornado must refuse");
    let en = e[0].message(Lang::En);
    assert_eq!(e[0].path, "uncertainty[0].range");
    assert!(en.contains("options[0]"), "{en}");
}

#[test]
fn the_optimiser_refuses_a_candidate_beyond_the_bound() {
    let text = r#"
name = "opt"
horizon_months = 240
currency = "CNY"
[demand]
kind = "profile"
monthly_ref_gpus = [1e12]
[[options]]
id = "od"
kind = "rent"
billing = "on_demand"
[options.on_demand]
price_per_accel_hour = 1e-9
[[options]]
id = "od2"
kind = "rent"
billing = "on_demand"
efficiency_ratio = 0.001
[options.on_demand]
price_per_accel_hour = 1e12
[optimise]
on_demand = "od"
"#;
    // The templates themselves are refused first, by name.
    let e = errors(text);
    assert!(e.iter().any(|e| e.path == "options[1]"), "{e:?}");
    assert!(!e.iter().any(|e| e.path == "options[0]"), "{e:?}");
}

// ------------------------------------------------------------ property

/// Every figure the engine reports, walked independently of the check.
fn figures(e: &Evaluation) -> Vec<(String, f64)> {
    let mut out = vec![("demand".to_owned(), e.demand_ref_gpu_hours)];
    for o in &e.options {
        let id = &o.id;
        out.push((format!("{id}.total_nominal"), o.total_nominal));
        out.push((format!("{id}.total_npv"), o.total_npv));
        out.push((format!("{id}.served"), o.ref_gpu_hours_served));
        out.push((format!("{id}.unserved"), o.ref_gpu_hours_unserved));
        out.push((format!("{id}.accelerator_hours"), o.accelerator_hours));
        for (name, x) in [
            ("effective", o.effective_price_per_ref_gpu_hour),
            ("all_in", o.all_in_per_ref_gpu_hour),
            ("utilisation", o.owned_utilisation),
            ("time", o.time_to_complete_months),
            ("latency", o.latency_ms),
        ] {
            if let Some(x) = x {
                out.push((format!("{id}.{name}"), x));
            }
        }
        for (m, flows) in o.monthly.iter().enumerate() {
            out.push((format!("{id}.monthly[{m}]"), flows.total()));
            for c in Category::ALL {
                out.push((format!("{id}.monthly[{m}].{}", c.key()), flows.get(c)));
            }
        }
        for c in o.cumulative() {
            out.push((format!("{id}.cumulative"), c));
        }
        if let Some(p) = &o.porting {
            for x in [p.cost, p.engineer_months, p.delay_months, p.maintenance_per_year] {
                out.push((format!("{id}.porting"), x));
            }
        }
        if let Some(s) = &o.supply {
            out.push((format!("{id}.supply"), s.score));
        }
    }
    out
}

fn assert_within_bounds(what: &str, figures: &[(String, f64)]) -> Result<(), TestCaseError> {
    for (name, x) in figures {
        prop_assert!(x.is_finite() && x.abs() <= MAX_FIGURE, "{what}: {name} = {x}");
    }
    Ok(())
}

/// An input anywhere in its allowed range, extremes included.
fn amount() -> impl Strategy<Value = f64> {
    prop_oneof![
        6 => 0.0..1e6f64,
        1 => Just(0.0),
        1 => Just(1e12),
        3 => (-3.0..12.0f64).prop_map(|e| 10f64.powf(e)),
    ]
}

fn ratio() -> impl Strategy<Value = f64> {
    prop_oneof![6 => 0.3..2.0f64, 1 => Just(0.001), 1 => Just(1e12), 2 => (-3.0..12.0f64).prop_map(|e| 10f64.powf(e))]
}

fn share() -> impl Strategy<Value = f64> {
    prop_oneof![1 => Just(0.001), 1 => Just(1.0), 4 => 0.001..1.0f64]
}

#[derive(Debug, Clone)]
struct Inputs {
    horizon: u32,
    demand: f64,
    price: f64,
    spot_price: f64,
    reserved_price: f64,
    efficiency: f64,
    achieved: f64,
    capex: f64,
    servers: u32,
    kw: f64,
    tariff: f64,
    fx: f64,
    rate: f64,
    refresh: (bool, u32, f64, f64),
    scale: (f64, f64),
}

fn inputs() -> impl Strategy<Value = Inputs> {
    (
        (1..=240u32, amount(), amount(), amount(), amount()),
        (ratio(), share(), amount(), 1..=1_000_000u32, amount(), amount()),
        (ratio(), 0.0..1.0f64),
        (any::<bool>(), 1..=240u32, 0.3..4.0f64, 0.3..4.0f64),
        (0.001..10.0f64, 0.0..100.0f64),
    )
        .prop_map(
            |(
                (horizon, demand, price, spot_price, reserved_price),
                (efficiency, achieved, capex, servers, kw, tariff),
                (fx, rate),
                refresh,
                (low, spread),
            )| Inputs {
                horizon,
                demand,
                price,
                spot_price,
                reserved_price,
                efficiency,
                achieved,
                capex,
                servers,
                kw,
                tariff,
                fx,
                rate,
                refresh,
                scale: (low, low + spread),
            },
        )
}

fn generated(i: &Inputs) -> String {
    let (enabled, interval, uplift, factor) = i.refresh;
    format!(
        r#"
name = "generated"
horizon_months = {horizon}
currency = "CNY"
discount_rate_annual = {rate}
fx = {{ USD = {fx} }}
[refresh]
enabled = {enabled}
interval_months = {interval}
performance_uplift = {uplift}
price_factor = {factor}
[demand]
kind = "profile"
monthly_ref_gpus = [{demand}, 0, {demand}]
low_priority_share = 0.3
normal_share = 0.3
[[options]]
id = "buy"
kind = "buy"
efficiency_ratio = {efficiency}
achieved_share = {achieved}
[options.owned]
servers = {servers}
accelerators_per_server = 8
capex_per_server = {capex}
server_kw = {kw}
electricity_per_kwh = {tariff}
pue = 1.3
staff_per_year = {capex}
[options.on_demand]
price_per_accel_hour = {price}
[[options]]
id = "mix"
kind = "mix"
efficiency_ratio = {efficiency}
[options.reserved]
term_months = 12
accelerators = {servers}
price_per_accel_hour = {reserved}
currency = "USD"
[options.on_demand]
price_per_accel_hour = {price}
[options.spot]
price_per_accel_hour = {spot}
availability = 0.5
[[options]]
id = "rent"
kind = "rent"
billing = "reserved"
[options.reserved]
term_months = 36
price_per_accel_hour = {reserved}
[[uncertainty]]
path = "demand.scale"
range = {{ dist = "uniform", low = {low}, high = {high} }}
"#,
        horizon = i.horizon,
        rate = i.rate,
        fx = i.fx,
        demand = i.demand,
        efficiency = i.efficiency,
        achieved = i.achieved,
        servers = i.servers,
        capex = i.capex,
        kw = i.kw,
        tariff = i.tariff,
        price = i.price,
        reserved = i.reserved_price,
        spot = i.spot_price,
        low = i.scale.0,
        high = i.scale.1,
    )
}

/// Passes the rules ⇒ every reported figure finite and within the bound; a
/// scenario that would report one beyond it is refused with a named error.
#[test]
fn what_passes_the_rules_has_finite_figures_within_the_bound() {
    let config = Config { cases: 300, failure_persistence: None, ..Config::default() };
    let mut runner =
        TestRunner::new_with_rng(config, TestRng::from_seed(RngAlgorithm::ChaCha, b"suanli-finite-by-construction-v1"));
    let counts = std::cell::Cell::new((0, 0));
    runner
        .run(&inputs(), |i| {
            let text = generated(&i);
            match Checked::new(scenario(&text)) {
                Ok(s) => {
                    let e = evaluate(&s);
                    assert_within_bounds("evaluate", &figures(e))?;
                    let config = SimulationConfig { trials: 64, seed: 3, threads: 1 };
                    if let Ok(sim) = simulate(&s, config, &|_| {}) {
                        for o in &sim.options {
                            let p =
                                [o.npv.p10, o.npv.p50, o.npv.p90, o.npv.mean, o.nominal.p90, o.probability_cheapest];
                            assert_within_bounds("simulate", &p.map(|x| (o.id.clone(), x)))?;
                        }
                    }
                    if let Ok(t) = sensitivity(&s) {
                        for b in &t.tornado {
                            for (id, lo, hi) in &b.totals {
                                assert_within_bounds("sensitivity", &[(id.clone(), *lo), (id.clone(), *hi)])?;
                            }
                        }
                    }
                    let (p, r) = counts.get();
                    counts.set((p + 1, r));
                }
                Err(errors) => {
                    // Every refusal is said in both languages and names a path.
                    for e in &errors {
                        prop_assert!(!e.path.is_empty());
                        prop_assert!(!e.message(Lang::Zh).is_empty());
                    }
                    let (p, r) = counts.get();
                    counts.set((p, r + 1));
                }
            }
            Ok(())
        })
        .unwrap_or_else(|e| panic!("{e}"));
    let (passed, refused) = counts.get();
    eprintln!("generated scenarios: {passed} passed the rules, {refused} refused");
    // The generator reaches both sides of the bound.
    assert!(passed > 30 && refused > 30, "{passed} passed, {refused} refused");
}

#[test]
fn optimise_results_are_within_the_bound() {
    let text = r#"
name = "opt"
horizon_months = 24
currency = "CNY"
[demand]
kind = "profile"
monthly_ref_gpus = [4, 16, 8]
[[options]]
id = "res"
kind = "rent"
billing = "reserved"
[options.reserved]
term_months = 12
price_per_accel_hour = 3.0
[[options]]
id = "od"
kind = "rent"
billing = "on_demand"
[options.on_demand]
price_per_accel_hour = 8.0
[optimise]
base = "res"
on_demand = "od"
"#;
    let s = Checked::new(scenario(text)).unwrap_or_else(|e| panic!("{e:?}"));
    let Outcome::Chosen(best) = optimise(&s).unwrap_or_else(|e| panic!("{e:?}")) else { panic!("infeasible") };
    for x in [best.chosen.total_npv, best.chosen.total_nominal] {
        assert!(x.is_finite() && x.abs() <= MAX_FIGURE);
    }
}

//! The decision rule on cases where the measures disagree: point against
//! range, cost against supply risk, cost against time to result.

use suanli_model::decision::{Reason, decide};
use suanli_model::uncertainty::{SimulationConfig, simulate};
use suanli_model::{Checked, Scenario, evaluate};

fn parse(text: &str) -> Checked<Scenario> {
    Checked::new(toml::from_str(text).unwrap_or_else(|e| panic!("{e}\n{text}"))).unwrap_or_else(|e| panic!("{e:?}"))
}

/// Two rentals of one reference GPU a month for 12 months; `b` is priced
/// `b_price` against `a`'s 1.0, with the supply facts and ranges given.
fn two(b_price: f64, a_supply: &str, b_supply: &str, ranges: &str) -> String {
    format!(
        r#"
name = "two"
horizon_months = 12
currency = "CNY"
[demand]
kind = "profile"
monthly_ref_gpus = [10]
[[options]]
id = "a"
kind = "rent"
billing = "on_demand"
[options.on_demand]
price_per_accel_hour = 1.0
{a_supply}
[[options]]
id = "b"
kind = "rent"
billing = "on_demand"
[options.on_demand]
price_per_accel_hour = {b_price}
{b_supply}
{ranges}
"#
    )
}

const RISKY: &str = r#"[options.supply]
export_status = "licence_required"
export_change_probability = 0.3
vendor_concentration = 1.0
stability = "fragile""#;
const SAFE: &str = r#"[options.supply]
export_status = "domestic"
export_change_probability = 0.0
vendor_concentration = 0.2
stability = "stable""#;

#[test]
fn the_cheapest_point_wins_when_nothing_disagrees() {
    let s = parse(&two(1.2, "", "", ""));
    let d = decide(evaluate(&s), None).unwrap();
    assert_eq!(d.recommended, "a");
    assert_eq!(d.reason, Reason::LowestCost { by_median: false });
    assert!(!d.disagrees());
}

#[test]
fn a_near_tie_with_clearly_less_supply_risk_wins_over_the_point() {
    // b costs 2 % more but carries far less supply risk.
    let s = parse(&two(1.02, RISKY, SAFE, ""));
    let e = evaluate(&s);
    let d = decide(e, None).unwrap();
    assert_eq!(d.point, "a");
    assert_eq!(d.supply.as_deref(), Some("b"));
    assert_eq!(d.recommended, "b");
    assert_eq!(d.reason, Reason::LessSupplyRisk { cheapest: "a".into() });
    assert!(d.disagrees());
    // 10 % dearer is no near tie: cost wins, and the report says the risk disagrees.
    let d = decide(evaluate(&parse(&two(1.10, RISKY, SAFE, ""))), None).unwrap();
    assert_eq!(d.recommended, "a");
    assert_eq!(d.supply.as_deref(), Some("b"));
    assert!(d.disagrees());
}

#[test]
fn the_median_across_trials_outweighs_the_stated_point() {
    // At the stated prices a is 2 % cheaper, but a's price is skewed up
    // (most of its range lies above 1.0) and b's is skewed down.
    let ranges = r#"
[[uncertainty]]
path = "options.a.on_demand.price_per_accel_hour"
range = { dist = "triangular", low = 0.95, mode = 1.0, high = 1.6 }
[[uncertainty]]
path = "options.b.on_demand.price_per_accel_hour"
range = { dist = "triangular", low = 0.8, mode = 1.02, high = 1.05 }
"#;
    let s = parse(&two(1.02, "", "", ranges));
    let e = evaluate(&s);
    let sim = simulate(&s, SimulationConfig { trials: 4_000, seed: 7, threads: 2 }, &|_| {}).unwrap();
    let d = decide(e, Some(&sim)).unwrap();
    assert_eq!(d.point, "a");
    assert_eq!(d.p50.as_deref(), Some("b"));
    assert_eq!(d.p90.as_deref(), Some("b"));
    assert_eq!(d.most_often_cheapest.as_deref(), Some("b"));
    assert_eq!(d.recommended, "b");
    assert_eq!(d.reason, Reason::LowestCost { by_median: true });
    assert!(d.disagrees());
}

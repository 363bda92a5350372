//! How long a full evaluation takes: 200 options (buy, rent on demand,
//! reserved, spot and mixes) over 60 months of a peaked demand profile
//! with a 24-hour shape. The app recomputes on every input change, so
//! this is the figure that decides whether a slider feels live.

use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use suanli_model::{Checked, Scenario, evaluate};

fn scenario(options: usize, months: u32) -> Scenario {
    let mut text = format!(
        r#"
name = "bench"
horizon_months = {months}
currency = "CNY"
discount_rate_annual = 0.08
fx = {{ USD = 7.1106 }}
[demand]
kind = "profile"
monthly_ref_gpus = [48, 48, 56, 64, 64, 72, 80, 96, 112, 96, 72, 56]
shape = [0.5, 0.5, 0.5, 0.5, 0.5, 0.6, 0.8, 1.0, 1.3, 1.5, 1.5, 1.5, 1.4, 1.5, 1.5, 1.5, 1.4, 1.3, 1.1, 1.0, 0.9, 0.8, 0.7, 0.6]
low_priority_share = 0.2
[[scaling_curves]]
id = "rdma"
points = [[8, 1.0], [200, 0.92]]
"#
    );
    for i in 0..options {
        let price = 4.0 + (i % 17) as f64 * 0.1;
        let option = match i % 5 {
            0 => format!(
                "kind = \"buy\"\n[options.owned]\nservers = {}\naccelerators_per_server = 8\ncapex_per_server = 1500000\nserver_kw = 6.5\npue = 1.4\nelectricity_per_kwh = 0.7\ncolocation_per_kw_month = 900\nstaff_per_year = 300000\nmaintenance_share_per_year = 0.05\nlead_time_months = {}\n[options.on_demand]\nprice_per_accel_hour = {price}\ncurrency = \"USD\"",
                4 + i % 12,
                i % 5
            ),
            1 => format!(
                "kind = \"rent\"\nbilling = \"on_demand\"\n[options.on_demand]\nprice_per_accel_hour = {price}\ncurrency = \"USD\""
            ),
            2 => format!(
                "kind = \"rent\"\nbilling = \"reserved\"\n[options.reserved]\nterm_months = 12\nprice_per_accel_hour = {}\ncurrency = \"USD\"\nupfront_share = 0.3",
                price * 0.4
            ),
            3 => format!(
                "kind = \"rent\"\nbilling = \"spot\"\n[options.spot]\nprice_per_accel_hour = {}\ninterruption_overhead = 0.1\navailability = 0.9\ncurrency = \"USD\"\n[options.on_demand]\nprice_per_accel_hour = {price}\ncurrency = \"USD\"",
                price * 0.3
            ),
            _ => format!(
                "kind = \"mix\"\n[options.reserved]\nterm_months = 12\nprice_per_accel_hour = {}\ncurrency = \"USD\"\naccelerators = {}\n[options.on_demand]\nprice_per_accel_hour = {price}\ncurrency = \"USD\"\n[options.spot]\nprice_per_accel_hour = {}\ninterruption_overhead = 0.1\navailability = 0.9\ncurrency = \"USD\"",
                price * 0.4,
                32 + i % 40,
                price * 0.3
            ),
        };
        text.push_str(&format!(
            "\n[[options]]\nid = \"o{i}\"\ninterconnect = \"rdma\"\nefficiency_ratio = {}\n{option}\n",
            0.6 + (i % 5) as f64 * 0.1
        ));
    }
    toml::from_str(&text).unwrap_or_else(|e| panic!("bench scenario: {e}"))
}

/// A scenario for the Monte Carlo: 10 options, 36 months, five ranges.
fn uncertain(options: usize) -> Scenario {
    let mut s = scenario(options, 36);
    let text = r#"
[[uncertainty]]
path = "options.o1.on_demand.price_per_accel_hour"
range = { dist = "triangular", low = 3.5, mode = 4.1, high = 5.0 }
[[uncertainty]]
path = "options.o0.owned.capex_per_server"
range = { dist = "pert", low = 1300000, mode = 1500000, high = 1900000 }
[[uncertainty]]
path = "options.o3.spot.availability"
range = { dist = "uniform", low = 0.7, high = 1.0 }
[[uncertainty]]
path = "demand.scale"
range = { dist = "lognormal", median = 1.0, p90 = 1.3 }
[[uncertainty]]
path = "fx.USD"
range = { dist = "triangular", low = 6.9, mode = 7.1106, high = 7.4 }
"#;
    #[derive(serde::Deserialize)]
    struct Ranges {
        uncertainty: Vec<suanli_model::Uncertain>,
    }
    let r: Ranges = toml::from_str(text).unwrap_or_else(|e| panic!("{e}"));
    s.uncertainty = r.uncertainty;
    s
}

/// A year of hourly demand with daily and seasonal peaks, and three templates.
fn hourly_year() -> Scenario {
    let hours: Vec<String> = (0..8760)
        .map(|h| {
            let day = (h % 24) as f64;
            let season = 1.0 + 0.4 * ((h / 730) as f64 / 12.0 * std::f64::consts::TAU).sin();
            let daily = if (8.0..20.0).contains(&day) { 1.5 } else { 0.6 };
            format!("{:.2}", 64.0 * season * daily)
        })
        .collect();
    let text = format!(
        r#"
name = "hourly"
horizon_months = 12
currency = "USD"
discount_rate_annual = 0.08
[demand]
kind = "profile"
hourly_ref_gpus = [{}]
low_priority_share = 0.2
[optimise]
base = "reserved"
on_demand = "od"
spot = "spot"
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
interruption_overhead = 0.1
availability = 0.9
[options.on_demand]
price_per_accel_hour = 5.0
"#,
        hours.join(",")
    );
    toml::from_str(&text).unwrap_or_else(|e| panic!("{e}"))
}

fn bench(c: &mut Criterion) {
    // What an input change costs: every rule checked, the evaluation made and
    // its figures checked (a checked scenario holds it; `evaluate` copies nothing).
    for (name, options, months) in
        [("check and evaluate 200 options × 60 months", 200, 60), ("check and evaluate 10 options × 36 months", 10, 36)]
    {
        let raw = scenario(options, months);
        c.bench_function(name, |b| {
            b.iter_batched(
                || raw.clone(),
                |s| Checked::new(black_box(s)).map(|s| evaluate(&s).options.len()),
                criterion::BatchSize::SmallInput,
            )
        });
    }
}

fn analytics(c: &mut Criterion) {
    use suanli_model::uncertainty::{SimulationConfig, simulate};
    let s = Checked::new(uncertain(10)).unwrap_or_else(|e| panic!("{e:?}"));
    let mut group = c.benchmark_group("analytics");
    group.sample_size(10);
    group.bench_function("100,000 Monte Carlo trials, 10 options × 36 months", |b| {
        b.iter(|| simulate(black_box(&s), SimulationConfig { trials: 100_000, seed: 1, threads: 0 }, &|_| {}))
    });
    let year = Checked::new(hourly_year()).unwrap_or_else(|e| panic!("{e:?}"));
    group.bench_function("optimiser on a year of hourly demand", |b| {
        b.iter(|| suanli_model::optimise::optimise(black_box(&year)))
    });
    group.finish();
}

criterion_group!(benches, bench, analytics);
criterion_main!(benches);

//! How long a full evaluation takes: 200 options (buy, rent on demand,
//! reserved, spot and mixes) over 60 months of a peaked demand profile
//! with a 24-hour shape. The app recomputes on every input change, so
//! this is the figure that decides whether a slider feels live.

use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use suanli_model::{Scenario, evaluate};

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

fn bench(c: &mut Criterion) {
    let s = scenario(200, 60);
    assert!(evaluate(&s).is_ok());
    c.bench_function("evaluate 200 options × 60 months", |b| b.iter(|| evaluate(black_box(&s))));
    let small = scenario(10, 36);
    c.bench_function("evaluate 10 options × 36 months", |b| b.iter(|| evaluate(black_box(&small))));
}

criterion_group!(benches, bench);
criterion_main!(benches);

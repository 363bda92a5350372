#![no_main]
//! Passes the rules ⇒ every reported figure finite and within the bound.
//! The input's bytes become the numbers of a scenario with every kind of
//! pool, a refresh and a range (any f64 at all, or one spread over its
//! allowed range); whatever `Checked` accepts must evaluate, simulate and go
//! to JSON with every figure finite and at most `MAX_FIGURE`.
use libfuzzer_sys::fuzz_target;
use suanli_model::uncertainty::{SimulationConfig, simulate};
use suanli_model::validate::MAX_FIGURE;
use suanli_model::{Category, Checked, Evaluation, Lang, Scenario};

/// Numbers from bytes: 9 bytes each, a selector then 8 bytes of payload.
struct Numbers<'a>(&'a [u8]);

impl Numbers<'_> {
    fn next(&mut self, max: f64) -> f64 {
        let (head, rest) = self.0.split_at(self.0.len().min(9));
        self.0 = rest;
        let mut bytes = [0u8; 8];
        for (b, h) in bytes.iter_mut().zip(head.iter().skip(1)) {
            *b = *h;
        }
        let raw = u64::from_le_bytes(bytes);
        let unit = (raw >> 11) as f64 / (1u64 << 53) as f64;
        match head.first().copied().unwrap_or(0) % 4 {
            0 => f64::from_bits(raw),
            1 => unit * max,
            2 => 10f64.powf(-3.0 + unit * 15.0).min(max),
            _ => [0.0, 0.001, 1.0, max][(raw % 4) as usize],
        }
    }
}

fn toml_number(x: f64) -> String {
    match x {
        x if x.is_nan() => "nan".into(),
        x if x == f64::INFINITY => "inf".into(),
        x if x == f64::NEG_INFINITY => "-inf".into(),
        x => format!("{x:?}"),
    }
}

fn scenario(n: &mut Numbers<'_>) -> String {
    let mut v = |max: f64| toml_number(n.next(max));
    let horizon = 1 + (v(239.0).parse::<f64>().unwrap_or(0.0).abs() as u64 % 240);
    format!(
        r#"
name = "fuzz"
horizon_months = {horizon}
currency = "CNY"
discount_rate_annual = {rate}
fx = {{ USD = {fx} }}
[refresh]
enabled = true
interval_months = {interval}
performance_uplift = {uplift}
price_factor = {factor}
[demand]
kind = "profile"
monthly_ref_gpus = [{d1}, {d2}]
low_priority_share = 0.2
normal_share = 0.3
[[options]]
id = "buy"
kind = "buy"
efficiency_ratio = {eff}
[options.owned]
servers = {servers}
accelerators_per_server = 8
capex_per_server = {capex}
server_kw = {kw}
electricity_per_kwh = {tariff}
staff_per_year = {staff}
[options.on_demand]
price_per_accel_hour = {od}
[[options]]
id = "mix"
kind = "mix"
achieved_share = {achieved}
[options.reserved]
term_months = 12
accelerators = {servers}
price_per_accel_hour = {res}
currency = "USD"
[options.on_demand]
price_per_accel_hour = {od}
[options.spot]
price_per_accel_hour = {spot}
availability = 0.5
[[uncertainty]]
path = "options.mix.on_demand.price_per_accel_hour"
range = {{ dist = "uniform", low = {low}, high = {high} }}
"#,
        rate = v(1.0),
        fx = v(1e12),
        interval = 1 + (v(239.0).parse::<f64>().unwrap_or(0.0).abs() as u64 % 240),
        uplift = v(4.0),
        factor = v(4.0),
        d1 = v(1e12),
        d2 = v(1e12),
        eff = v(1e12),
        servers = 1 + (v(1e6).parse::<f64>().unwrap_or(0.0).abs() as u64 % 1_000_000),
        capex = v(1e12),
        kw = v(1e12),
        tariff = v(1e12),
        staff = v(1e12),
        od = v(1e12),
        achieved = v(1.0),
        res = v(1e12),
        spot = v(1e12),
        low = v(1e12),
        high = v(1e12),
    )
}

fn check(e: &Evaluation) {
    let ok = |what: &str, x: f64| assert!(x.is_finite() && x.abs() <= MAX_FIGURE, "{what} = {x}");
    ok("demand", e.demand_ref_gpu_hours);
    for o in &e.options {
        for x in [o.total_nominal, o.total_npv, o.ref_gpu_hours_served, o.ref_gpu_hours_unserved, o.accelerator_hours] {
            ok(&o.id, x);
        }
        for x in
            [o.effective_price_per_ref_gpu_hour, o.all_in_per_ref_gpu_hour, o.owned_utilisation].into_iter().flatten()
        {
            ok(&o.id, x);
        }
        for m in o.monthly.iter() {
            ok(&o.id, m.total());
            for c in Category::ALL {
                ok(c.key(), m.get(c));
            }
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let text = scenario(&mut Numbers(data));
    let Ok(s) = toml::from_str::<Scenario>(&text) else { return };
    let Ok(s) = Checked::new(s) else { return };
    let e = suanli_api::evaluate(&s);
    check(&e);
    assert!(suanli_api::evaluation_json(&e, Lang::En).is_ok());
    if let Ok(sim) = simulate(&s, SimulationConfig { trials: 16, seed: 1, threads: 1 }, &|_| {}) {
        for o in &sim.options {
            for x in [o.npv.p10, o.npv.p50, o.npv.p90, o.npv.mean, o.nominal.mean] {
                assert!(x.is_finite() && x.abs() <= MAX_FIGURE, "{} = {x}", o.id);
            }
        }
    }
});

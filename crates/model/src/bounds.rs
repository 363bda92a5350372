//! The check after the arithmetic: every figure the engine reports is
//! finite and within [`MAX_FIGURE`]. The rules bound each input on its own
//! ([`crate::validate::MAX_QUANTITY`], [`crate::validate::MIN_DIVISOR`]);
//! products of inputs at their extremes can still pass any real figure, and
//! this check turns such a result into an error that names the inputs
//! behind it, instead of a figure no one should read.

use crate::Currency;
use crate::result::{Category, Evaluation, OptionResult};
use crate::scenario::*;
use crate::validate::{InputError, MAX_FIGURE, Rule};

pub use crate::figure::Figure;

fn out_of_bounds(x: f64) -> bool {
    !x.is_finite() || x.abs() > MAX_FIGURE
}

/// The first figure of an option that is out of bounds, most specific first:
/// a category (any month, and over the horizon), then totals, hours, prices.
/// (Utilisation, latency and supply scores are bounded by their inputs.)
fn first_out_of_bounds(o: &OptionResult) -> Option<(Figure, f64)> {
    // One pass over the months first: the search by category, below, only when something is out.
    if !costs_within_bounds(o)
        && let Some(found) = first_cost_out_of_bounds(o)
    {
        return Some(found);
    }
    let optional = |x: Option<f64>| x.unwrap_or(0.0);
    let porting = o.porting.as_ref();
    [
        (Figure::TotalNominal, o.total_nominal),
        (Figure::TotalNpv, o.total_npv),
        (Figure::Served, o.ref_gpu_hours_served),
        (Figure::Unserved, o.ref_gpu_hours_unserved),
        (Figure::AcceleratorHours, o.accelerator_hours),
        (Figure::EffectivePrice, optional(o.effective_price_per_ref_gpu_hour)),
        (Figure::AllInPrice, optional(o.all_in_per_ref_gpu_hour)),
        (Figure::TimeToComplete, optional(o.time_to_complete_months)),
        (Figure::PortingCost, porting.map_or(0.0, |p| p.cost.max(p.maintenance_per_year.abs()))),
        (Figure::PortingDelay, porting.map_or(0.0, |p| p.delay_months.max(p.engineer_months))),
    ]
    .into_iter()
    .find(|(_, x)| out_of_bounds(*x))
}

/// Whether every category is within bounds in every month and over the
/// horizon, in one pass over the months (each category's total summed in
/// month order, as [`OptionResult::breakdown`] sums it). `x.abs() <= MAX`
/// is false for NaN and infinities, so it is [`out_of_bounds`]'s negation.
fn costs_within_bounds(o: &OptionResult) -> bool {
    // At most MAX ÷ months each, no total can pass MAX: one flat pass decides
    // for nearly every option (NaN fails it, and is found below).
    let months = o.monthly.len().max(1) as f64;
    if o.monthly.cells().iter().fold(true, |ok, x| ok & (x.abs() <= MAX_FIGURE / months)) {
        return true;
    }
    let within = |x: f64| x.abs() <= MAX_FIGURE;
    let zero: f64 = std::iter::empty::<f64>().sum();
    let mut totals = [zero; Category::COUNT];
    let mut months_within = true;
    for row in o.monthly.rows() {
        for (t, x) in totals.iter_mut().zip(row) {
            months_within &= within(*x);
            *t += x;
        }
    }
    months_within && totals.into_iter().all(within)
}

/// The first category out of bounds, in [`Category::ALL`] order: in some
/// month, or over the horizon (only asked once one is known to be).
fn first_cost_out_of_bounds(o: &OptionResult) -> Option<(Figure, f64)> {
    for c in Category::ALL {
        if let Some(x) = o.monthly.iter().map(|m| m.get(c)).find(|x| out_of_bounds(*x)) {
            return Some((Figure::Cost(c), x));
        }
        let total = o.breakdown(c);
        if out_of_bounds(total) {
            return Some((Figure::Cost(c), total));
        }
    }
    None
}

/// Checks every figure of an evaluation; one error per option at fault.
pub(crate) fn check_evaluation(s: &Scenario, e: &Evaluation) -> Result<(), Vec<InputError>> {
    let mut errors = Vec::new();
    if out_of_bounds(e.demand_ref_gpu_hours) {
        errors.push(InputError::new(
            "demand",
            kind_of(&s.demand),
            Rule::FigureBeyondBound {
                option: None,
                figure: Figure::Demand,
                found: e.demand_ref_gpu_hours,
                inputs: demand_inputs(s),
            },
        ));
    }
    for (i, o) in e.options.iter().enumerate() {
        if let Some((figure, found)) = first_out_of_bounds(o) {
            let spec = s.options.get(i);
            errors.push(InputError::new(
                format!("options[{i}]"),
                format!("{:?}", o.id),
                Rule::FigureBeyondBound {
                    option: Some(o.id.clone()),
                    figure,
                    found,
                    inputs: spec.map_or_else(Vec::new, |spec| inputs_behind(s, i, spec, figure)),
                },
            ));
        }
    }
    if errors.is_empty() { Ok(()) } else { Err(errors) }
}

fn kind_of(d: &Demand) -> &'static str {
    match d {
        Demand::Job(_) => "job",
        Demand::Profile(_) => "profile",
        Demand::Portfolio(_) => "portfolio",
        Demand::Inference(_) => "inference",
    }
}

fn demand_inputs(s: &Scenario) -> Vec<String> {
    match &s.demand {
        Demand::Job(j) if j.ref_gpu_hours.is_some() => vec!["demand.ref_gpu_hours".into()],
        Demand::Job(_) => {
            ["parameters", "tokens", "mfu", "reference_peak_tflops"].map(|f| format!("demand.{f}")).into()
        }
        Demand::Profile(p) if !p.hourly_ref_gpus.is_empty() => vec!["demand.hourly_ref_gpus".into()],
        Demand::Profile(_) => vec!["demand.monthly_ref_gpus".into()],
        Demand::Portfolio(_) => vec!["demand.jobs".into()],
        Demand::Inference(d) => {
            let tokens = if d.tokens_per_second.is_some() { "tokens_per_second" } else { "tokens_per_day" };
            [tokens, "tokens_per_second_per_ref_gpu"].map(|f| format!("demand.{f}")).into()
        }
    }
}

/// The inputs a figure of option `i` is computed from, as scenario paths:
/// what to look at when it leaves the bound.
fn inputs_behind(s: &Scenario, i: usize, o: &OptionSpec, figure: Figure) -> Vec<String> {
    let base = format!("options[{i}]");
    let mut v: Vec<String> = Vec::new();
    let mut push = |x: String| {
        if !v.contains(&x) {
            v.push(x);
        }
    };
    let owned = |fields: &[&str], push: &mut dyn FnMut(String)| {
        if let Some(p) = &o.owned {
            push(format!("{base}.owned.servers"));
            for f in fields {
                push(format!("{base}.owned.{f}"));
            }
            if let Some(c) = p.currency {
                push(format!("fx.{c}"));
            }
        }
    };
    // Throughput: how many accelerator-hours the demand takes.
    let throughput = |pool: Option<&str>, push: &mut dyn FnMut(String)| {
        for x in demand_inputs(s) {
            push(x);
        }
        if let Some(pool) = pool {
            push(format!("{base}.{pool}.efficiency_ratio"));
        }
        push(format!("{base}.efficiency_ratio"));
        if o.scaling_efficiency.is_some() {
            push(format!("{base}.scaling_efficiency"));
        }
        push(format!("{base}.achieved_share"));
    };
    let rental = |pool: &str, currency: Option<Currency>, push: &mut dyn FnMut(String)| {
        push(format!("{base}.{pool}.price_per_accel_hour"));
        throughput(Some(pool), push);
        if s.refresh.enabled {
            push("refresh.price_factor".into());
            push("refresh.performance_uplift".into());
        }
        if let Some(c) = currency {
            push(format!("fx.{c}"));
        }
    };
    use Category as C;
    match figure {
        Figure::Cost(C::Hardware | C::ResidualValue | C::Maintenance) => owned(
            &["capex_per_server", "network_storage_capex", "maintenance_share_per_year", "depreciation_years"],
            &mut push,
        ),
        Figure::Cost(C::Installation) => owned(&["installation"], &mut push),
        Figure::Cost(C::Hosting) => {
            owned(&["provisioned_kw_per_server", "server_kw", "colocation_per_kw_month"], &mut push)
        }
        Figure::Cost(C::Power) => owned(&["server_kw", "pue", "electricity_per_kwh"], &mut push),
        Figure::Cost(C::Staff) => owned(&["staff_per_year"], &mut push),
        Figure::Cost(C::OtherOpex) => owned(&["other_opex_per_year"], &mut push),
        Figure::Cost(C::OnDemand) => rental("on_demand", o.on_demand.as_ref().and_then(|p| p.currency), &mut push),
        Figure::Cost(C::Reserved) => {
            push(format!("{base}.reserved.accelerators"));
            rental("reserved", o.reserved.as_ref().and_then(|p| p.currency), &mut push);
        }
        Figure::Cost(C::Spot) => {
            push(format!("{base}.spot.interruption_overhead"));
            rental("spot", o.spot.as_ref().and_then(|p| p.currency), &mut push);
        }
        Figure::Cost(C::Storage) => {
            for f in ["dataset_tb", "object_price_per_tb_month", "attached_price_per_tb_month", "attached_copies"] {
                push(format!("storage.{f}"));
            }
            push("storage.reads_per_month".into());
            push("storage.transfer_price_per_tb".into());
        }
        Figure::Cost(C::EdgeBandwidth | C::EdgeSites) => {
            for f in ["raw_tb_per_month", "feature_share", "bandwidth_price_per_tb", "edge_sites_per_month"] {
                push(format!("edge.{f}"));
            }
        }
        Figure::Cost(C::Porting | C::PortingMaintenance) | Figure::PortingCost | Figure::PortingDelay => {
            for f in ["code_kloc", "custom_kernels", "engineer_month_cost", "engineers", "effort"] {
                push(format!("porting.{f}"));
            }
        }
        Figure::Cost(C::Bridge) => {
            push("porting.bridge_price_per_ref_gpu_hour".into());
            for x in demand_inputs(s) {
                push(x);
            }
        }
        Figure::Served | Figure::Unserved | Figure::AcceleratorHours | Figure::TimeToComplete => {
            throughput(None, &mut push);
            if matches!(figure, Figure::TimeToComplete) {
                push("demand.cluster_accelerators".into());
                push("demand.run_hours_per_day".into());
            }
        }
        Figure::Demand => {
            for x in demand_inputs(s) {
                push(x);
            }
        }
        Figure::TotalNominal | Figure::TotalNpv | Figure::EffectivePrice | Figure::AllInPrice | Figure::Simulated => {
            for pool in ["on_demand", "reserved", "spot"] {
                let has = match pool {
                    "on_demand" => o.on_demand.is_some(),
                    "reserved" => o.reserved.is_some(),
                    _ => o.spot.is_some(),
                };
                if has {
                    push(format!("{base}.{pool}.price_per_accel_hour"));
                }
            }
            if o.owned.is_some() {
                push(format!("{base}.owned.capex_per_server"));
            }
            throughput(None, &mut push);
        }
    }
    v
}

//! The walk over a scenario: every field checked against its rule, every
//! broken rule collected as an [`InputError`].

use std::collections::BTreeSet;
use std::fmt;

use super::*;
use crate::money::Currency;
use crate::scenario::*;

/// Checks the whole scenario; `Ok` means [`crate::evaluate()`] can run it.
pub fn validate(s: &Scenario) -> Result<(), Vec<InputError>> {
    let mut v = Checker { errors: Vec::new(), scenario: s };
    v.scenario();
    if v.errors.is_empty() { Ok(()) } else { Err(v.errors) }
}

struct Checker<'a> {
    errors: Vec<InputError>,
    scenario: &'a Scenario,
}

impl Checker<'_> {
    fn push(&mut self, e: InputError) {
        self.errors.push(e);
    }

    fn finite(&mut self, path: impl fmt::Display + Copy, x: f64) -> bool {
        if x.is_finite() {
            true
        } else {
            self.push(InputError::new(path.to_string(), x, Rule::NotFinite));
            false
        }
    }

    fn non_negative(&mut self, path: impl fmt::Display + Copy, x: f64) {
        if self.finite(path, x) {
            if x.is_subnormal() {
                self.push(InputError::new(path.to_string(), x, Rule::Subnormal));
            } else if x < 0.0 {
                self.push(InputError::new(path.to_string(), x, Rule::Negative));
            } else {
                self.not_absurd(path, x);
            }
        }
    }

    fn positive(&mut self, path: impl fmt::Display + Copy, x: f64) {
        if self.finite(path, x) {
            if x.is_subnormal() {
                self.push(InputError::new(path.to_string(), x, Rule::Subnormal));
            } else if x <= 0.0 {
                self.push(InputError::new(path.to_string(), x, Rule::NotPositive));
            } else {
                self.not_absurd(path, x);
            }
        }
    }

    /// Something the engine divides by: positive, and not so small that a
    /// quotient becomes infinite (an accelerator a thousand times slower
    /// than the reference is already no option).
    fn divisor(&mut self, path: impl fmt::Display + Copy, x: f64) {
        if self.finite(path, x) && x < MIN_DIVISOR {
            self.push(InputError::new(path.to_string(), x, Rule::AtLeast { min: MIN_DIVISOR }));
        } else {
            self.not_absurd(path, x);
        }
    }

    /// A share the engine divides by: at least [`MIN_DIVISOR`], at most 1.
    fn share_divisor(&mut self, path: impl fmt::Display + Copy, x: f64) {
        if self.finite(path, x) && !(MIN_DIVISOR..=1.0).contains(&x) {
            self.push(InputError::new(path.to_string(), x, Rule::Between { min: MIN_DIVISOR, max: 1.0 }));
        }
    }

    /// Finite but absurd (a price of 1e300) would overflow sums to infinity.
    fn not_absurd(&mut self, path: impl fmt::Display + Copy, x: f64) {
        if x > MAX_QUANTITY {
            self.push(InputError::new(path.to_string(), x, Rule::TooLarge { max: MAX_QUANTITY }));
        }
    }

    fn share(&mut self, path: impl fmt::Display + Copy, x: f64) {
        if self.finite(path, x) && !(0.0..=1.0).contains(&x) {
            self.push(InputError::new(path.to_string(), x, Rule::Share));
        }
    }

    fn between(&mut self, path: impl fmt::Display + Copy, x: f64, min: f64, max: f64) {
        if self.finite(path, x) && !(min..=max).contains(&x) {
            self.push(InputError::new(path.to_string(), x, Rule::Between { min, max }));
        }
    }

    /// A count of things: at least 1, at most `max`.
    fn count(&mut self, path: impl fmt::Display + Copy, n: u32, max: u32) {
        if n == 0 || n > max {
            self.push(InputError::new(path.to_string(), n, Rule::Between { min: 1.0, max: f64::from(max) }));
        }
    }

    fn currency(&mut self, path: impl fmt::Display + Copy, c: Option<Currency>) {
        if let Some(c) = c
            && c != self.scenario.currency
            && !self.scenario.fx.contains_key(&c)
        {
            self.push(InputError::new(path.to_string(), c, Rule::MissingFx { currency: c }));
        }
    }

    fn scenario(&mut self) {
        let s = self.scenario;
        if s.name.trim().is_empty() {
            self.push(InputError::missing("name", Rule::Required));
        }
        if !(1..=MAX_HORIZON_MONTHS).contains(&s.horizon_months) {
            self.push(InputError::new(
                "horizon_months",
                s.horizon_months,
                Rule::Between { min: 1.0, max: MAX_HORIZON_MONTHS as f64 },
            ));
        }
        self.between("discount_rate_annual", s.discount_rate_annual, 0.0, 1.0);
        for (c, rate) in &s.fx {
            self.positive(format_args!("fx.{c}"), *rate);
        }
        self.scheduling();
        self.refresh();
        self.curves();
        self.demand();
        if let Some(v) = &s.vat {
            self.between("vat.goods_rate", v.goods_rate, 0.0, 1.0);
            self.between("vat.services_rate", v.services_rate, 0.0, 1.0);
        }
        if let Some(en) = &s.energy {
            // The dirtiest grids emit about 1 kg a kWh (coal alone); 2 leaves room.
            self.between("energy.grid_kg_co2_per_kwh", en.grid_kg_co2_per_kwh, 0.0, 2.0);
        }
        if let Some(st) = &s.storage {
            self.currency("storage.currency", st.currency);
            self.non_negative("storage.dataset_tb", st.dataset_tb);
            self.non_negative("storage.object_price_per_tb_month", st.object_price_per_tb_month);
            self.non_negative("storage.attached_price_per_tb_month", st.attached_price_per_tb_month);
            self.non_negative("storage.attached_copies", st.attached_copies);
            self.non_negative("storage.reads_per_month", st.reads_per_month);
            self.non_negative("storage.transfer_price_per_tb", st.transfer_price_per_tb);
        }
        if let Some(e) = &s.edge {
            self.currency("edge.currency", e.currency);
            self.non_negative("edge.raw_tb_per_month", e.raw_tb_per_month);
            self.share("edge.feature_share", e.feature_share);
            self.non_negative("edge.bandwidth_price_per_tb", e.bandwidth_price_per_tb);
            self.non_negative("edge.edge_sites_per_month", e.edge_sites_per_month);
            if let Some(x) = e.latency_ms_raw {
                self.non_negative("edge.latency_ms_raw", x);
            }
            if let Some(x) = e.latency_ms_features {
                self.non_negative("edge.latency_ms_features", x);
            }
        }
        if let Some(p) = &s.porting {
            self.currency("porting.currency", p.currency);
            self.non_negative("porting.code_kloc", p.code_kloc);
            self.non_negative("porting.custom_kernels", p.custom_kernels);
            self.non_negative("porting.engineer_month_cost", p.engineer_month_cost);
            self.divisor("porting.engineers", p.engineers);
            if let Some(b) = p.bridge_price_per_ref_gpu_hour {
                self.non_negative("porting.bridge_price_per_ref_gpu_hour", b);
            }
            for (m, e) in &p.effort {
                let b = format!("porting.effort.{}", format!("{m:?}").to_lowercase());
                self.non_negative(format_args!("{b}.months_per_kloc"), e.months_per_kloc);
                self.non_negative(format_args!("{b}.months_per_kernel"), e.months_per_kernel);
                self.non_negative(format_args!("{b}.validation_months"), e.validation_months);
                self.non_negative(format_args!("{b}.maintenance_share_per_year"), e.maintenance_share_per_year);
            }
        }
        if let Some(opt) = &s.optimise {
            optimise_spec(opt, s, &mut self.errors);
        }
        if s.options.is_empty() {
            self.push(InputError::missing("options", Rule::AtLeastOne));
        }
        let mut ids = BTreeSet::new();
        for (i, o) in s.options.iter().enumerate() {
            if !ids.insert(o.id.as_str()) {
                self.push(InputError::new(format!("options[{i}].id"), format!("{:?}", o.id), Rule::Duplicate));
            }
            self.option(i, o);
        }
    }

    fn scheduling(&mut self) {
        let r = &self.scenario.scheduling;
        if r.base_above > 10 {
            self.push(InputError::new("scheduling.base_above", r.base_above, Rule::Between { min: 0.0, max: 10.0 }));
        }
        if r.spot_below > 11 {
            self.push(InputError::new("scheduling.spot_below", r.spot_below, Rule::Between { min: 0.0, max: 11.0 }));
        }
        if u16::from(r.spot_below) > u16::from(r.base_above) + 1 {
            self.push(InputError::new("scheduling.spot_below", r.spot_below, Rule::RuleOverlap));
        }
    }

    fn refresh(&mut self) {
        let r = &self.scenario.refresh;
        if r.interval_months == 0 {
            self.push(InputError::new("refresh.interval_months", 0, Rule::NotPositive));
        }
        let (min, max) = REFRESH_FACTOR;
        // Refreshes happen at months interval, 2·interval, … before the horizon.
        let refreshes = match (r.enabled, r.interval_months) {
            (true, i) if i > 0 => self.scenario.horizon_months.saturating_sub(1) / i,
            _ => 0,
        };
        for (path, x) in
            [("refresh.performance_uplift", r.performance_uplift), ("refresh.price_factor", r.price_factor)]
        {
            if !self.finite(path, x) {
                continue;
            }
            if !(min..=max).contains(&x) {
                self.push(InputError::new(path, x, Rule::Between { min, max }));
                continue;
            }
            let compounded = x.powf(f64::from(refreshes));
            if !(1.0 / MAX_REFRESH_COMPOUND..=MAX_REFRESH_COMPOUND).contains(&compounded) {
                self.push(InputError::new(path, x, Rule::RefreshCompounds { refreshes, compounded }));
            }
        }
    }

    fn curves(&mut self) {
        let mut ids = BTreeSet::new();
        for (i, c) in self.scenario.scaling_curves.iter().enumerate() {
            let base = format!("scaling_curves[{i}]");
            if !ids.insert(c.id.as_str()) {
                self.push(InputError::new(format!("{base}.id"), format!("{:?}", c.id), Rule::Duplicate));
            }
            if c.points.is_empty() {
                self.push(InputError::missing(format!("{base}.points"), Rule::AtLeastOne));
            }
            for (j, (n, e)) in c.points.iter().enumerate() {
                self.between(format_args!("{base}.points[{j}][0]"), *n, 1.0, 1e7);
                self.share_divisor(format_args!("{base}.points[{j}][1]"), *e);
                if j > 0 && c.points[j - 1].0 >= *n {
                    self.push(InputError::new(format!("{base}.points[{j}][0]"), n, Rule::NotAscending));
                }
            }
        }
    }

    fn work(&mut self, base: &str, w: &Work) {
        let derived = [w.parameters, w.tokens, w.mfu, w.reference_peak_tflops];
        // Parameters alone beside ref_gpu_hours are the model's size (for the
        // memory fit), not a second statement of the work.
        let restated = [w.tokens, w.mfu, w.reference_peak_tflops].iter().any(Option::is_some);
        match (w.ref_gpu_hours, restated) {
            (Some(h), false) => {
                self.positive(format_args!("{base}.ref_gpu_hours"), h);
                if let Some(p) = w.parameters {
                    self.divisor(format_args!("{base}.parameters"), p);
                }
            }
            (Some(h), true) => self.push(InputError::new(format!("{base}.ref_gpu_hours"), h, Rule::WorkTwice)),
            (None, _) => {
                let names = ["parameters", "tokens", "mfu", "reference_peak_tflops"];
                for (name, value) in names.iter().zip(derived) {
                    let path = format!("{base}.{name}");
                    match value {
                        None => self.push(InputError::missing(path, Rule::WorkMissing)),
                        Some(x) if *name == "mfu" => self.share_divisor(&path, x),
                        Some(x) => self.divisor(&path, x),
                    }
                }
            }
        }
    }

    fn demand(&mut self) {
        let horizon = self.scenario.horizon_months;
        match &self.scenario.demand {
            Demand::Job(j) => {
                self.work("demand", &j.work());
                self.count("demand.cluster_accelerators", j.cluster_accelerators, MAX_CLUSTER);
                if self.finite("demand.run_hours_per_day", j.run_hours_per_day)
                    && !(j.run_hours_per_day > 0.0 && j.run_hours_per_day <= 24.0)
                {
                    self.push(InputError::new(
                        "demand.run_hours_per_day",
                        j.run_hours_per_day,
                        Rule::AboveAtMost { min: 0.0, max: 24.0 },
                    ));
                }
                if let Some(d) = j.deadline_months {
                    self.positive("demand.deadline_months", d);
                }
            }
            Demand::Profile(p) => {
                match (p.monthly_ref_gpus.is_empty(), p.hourly_ref_gpus.is_empty()) {
                    (true, true) => self.push(InputError::missing("demand.monthly_ref_gpus", Rule::ProfileMissing)),
                    (false, false) => self.push(InputError::new(
                        "demand.hourly_ref_gpus",
                        format!("[{} values]", p.hourly_ref_gpus.len()),
                        Rule::ProfileTwice,
                    )),
                    _ => {}
                }
                if !p.hourly_ref_gpus.is_empty() && !p.shape.is_empty() {
                    self.push(InputError::new(
                        "demand.shape",
                        format!("[{} values]", p.shape.len()),
                        Rule::ShapeWithHourly,
                    ));
                }
                for (i, x) in p.monthly_ref_gpus.iter().enumerate() {
                    self.non_negative(format_args!("demand.monthly_ref_gpus[{i}]"), *x);
                }
                for (field, values) in
                    [("monthly_ref_gpus", &p.monthly_ref_gpus), ("hourly_ref_gpus", &p.hourly_ref_gpus)]
                {
                    if !values.is_empty() && values.iter().all(|x| *x == 0.0) {
                        self.push(InputError::new(format!("demand.{field}"), "[all zero]", Rule::NoDemand));
                    }
                }
                for (i, x) in p.hourly_ref_gpus.iter().enumerate() {
                    self.non_negative(format_args!("demand.hourly_ref_gpus[{i}]"), *x);
                }
                for (i, x) in p.shape.iter().enumerate() {
                    self.non_negative(format_args!("demand.shape[{i}]"), *x);
                }
                if !p.shape.is_empty() && p.shape.iter().all(|x| *x == 0.0) {
                    self.push(InputError::new("demand.shape", "[all zero]", Rule::NotPositive));
                }
                self.share("demand.normal_share", p.normal_share);
                self.share("demand.low_priority_share", p.low_priority_share);
                if p.normal_share + p.low_priority_share > 1.0 + 1e-12 {
                    self.push(InputError::new("demand.low_priority_share", p.low_priority_share, Rule::SharesAboveOne));
                }
                self.count("demand.cluster_accelerators", p.cluster_accelerators, MAX_CLUSTER);
            }
            Demand::Inference(d) => {
                match (d.tokens_per_second, d.tokens_per_day) {
                    (None, None) => self.push(InputError::missing("demand.tokens_per_second", Rule::TokensMissing)),
                    (Some(_), Some(x)) => self.push(InputError::new("demand.tokens_per_day", x, Rule::TokensTwice)),
                    (Some(x), None) => self.positive("demand.tokens_per_second", x),
                    (None, Some(x)) => self.positive("demand.tokens_per_day", x),
                }
                self.positive("demand.parameters", d.parameters);
                self.divisor("demand.context_tokens", d.context_tokens);
                if let Some(k) = d.kv_bytes_per_token {
                    self.positive("demand.kv_bytes_per_token", k);
                }
                match d.tokens_per_second_per_ref_gpu {
                    None => {
                        self.push(InputError::missing("demand.tokens_per_second_per_ref_gpu", Rule::ThroughputMissing))
                    }
                    Some(x) => self.divisor("demand.tokens_per_second_per_ref_gpu", x),
                }
                self.count("demand.cluster_accelerators", d.cluster_accelerators, MAX_CLUSTER);
            }
            Demand::Portfolio(pf) => {
                if pf.jobs.is_empty() {
                    self.push(InputError::missing("demand.jobs", Rule::AtLeastOne));
                }
                self.count("demand.cluster_accelerators", pf.cluster_accelerators, MAX_CLUSTER);
                let mut ids = BTreeSet::new();
                for (i, j) in pf.jobs.iter().enumerate() {
                    let base = format!("demand.jobs[{i}]");
                    if !ids.insert(j.id.as_str()) {
                        self.push(InputError::new(format!("{base}.id"), format!("{:?}", j.id), Rule::Duplicate));
                    }
                    if j.priority > 10 {
                        self.push(InputError::new(
                            format!("{base}.priority"),
                            j.priority,
                            Rule::Between { min: 0.0, max: 10.0 },
                        ));
                    }
                    self.work(&base, &j.work());
                    if j.start_month >= horizon {
                        self.push(InputError::new(
                            format!("{base}.start_month"),
                            j.start_month,
                            Rule::Between { min: 0.0, max: f64::from(horizon.saturating_sub(1)) },
                        ));
                    }
                    if let Some(d) = j.deadline_month
                        && (d <= j.start_month || d > horizon)
                    {
                        self.push(InputError::new(
                            format!("{base}.deadline_month"),
                            d,
                            Rule::Between { min: f64::from(j.start_month + 1), max: f64::from(horizon) },
                        ));
                    }
                }
            }
        }
    }

    fn option(&mut self, i: usize, o: &OptionSpec) {
        let base = OptionAt(i);
        if o.id.trim().is_empty() {
            self.push(InputError::missing(format!("{base}.id"), Rule::Required));
        }
        if let Some(e) = o.efficiency_ratio {
            self.divisor(format_args!("{base}.efficiency_ratio"), e);
        }
        if o.offer_filter.is_some() {
            self.push(InputError::new(format!("{base}.offer_filter"), "[set]", Rule::UnresolvedOffer));
        }
        if let Some(x) = o.scaling_efficiency {
            self.share_divisor(format_args!("{base}.scaling_efficiency"), x);
        }
        self.share_divisor(format_args!("{base}.achieved_share"), o.achieved_share);
        if let Some(curve) = &o.interconnect
            && !self.scenario.scaling_curves.iter().any(|c| &c.id == curve)
        {
            self.push(InputError::new(format!("{base}.interconnect"), format!("{curve:?}"), Rule::UnknownCurve));
        }
        if o.storage != StorageMode::None && self.scenario.storage.is_none() {
            self.push(InputError::new(
                format!("{base}.storage"),
                format!("{:?}", o.storage).to_lowercase(),
                Rule::NeedsSection { section: "storage".into() },
            ));
        }
        if o.edge != EdgeMode::None && self.scenario.edge.is_none() {
            self.push(InputError::new(
                format!("{base}.edge"),
                format!("{:?}", o.edge).to_lowercase(),
                Rule::NeedsSection { section: "edge".into() },
            ));
        }
        if o.porting.is_some() && self.scenario.porting.is_none() {
            self.push(InputError::new(
                format!("{base}.porting"),
                "[set]",
                Rule::NeedsSection { section: "porting".into() },
            ));
        }
        if let Some(sup) = &o.supply {
            let b = Field(base, "supply");
            if let Some([low, mode, high]) = sup.lead_time_months {
                let path = format!("{b}.lead_time_months");
                for x in [low, mode, high] {
                    self.non_negative(&path, x);
                }
                if !(low <= mode && mode <= high) {
                    self.push(InputError::new(path, format!("[{low}, {mode}, {high}]"), Rule::NotAscending));
                }
            }
            self.share(format_args!("{b}.export_change_probability"), sup.export_change_probability);
            self.non_negative(format_args!("{b}.export_change_delay_months"), sup.export_change_delay_months);
            self.non_negative(format_args!("{b}.export_change_extra_cost_share"), sup.export_change_extra_cost_share);
            self.share(format_args!("{b}.vendor_concentration"), sup.vendor_concentration);
        }
        for (table, keys) in [("sources", o.sources.keys()), ("as_of", o.as_of.keys())] {
            for key in keys.filter(|k| !source_key_names_a_field(k)) {
                self.push(InputError::new(
                    format!("{base}.{table}.{key}"),
                    format!("{key:?}"),
                    Rule::UnknownSourceField,
                ));
            }
        }
        self.pools_for_kind(base, o);
        if let Some(p) = &o.owned {
            self.owned(Field(base, "owned"), p);
        }
        if let Some(p) = &o.reserved {
            let b = Field(base, "reserved");
            self.price(b, p.price_per_accel_hour, p.offer.as_deref());
            self.currency(format_args!("{b}.currency"), p.currency);
            self.pool_efficiency(b, p.efficiency_ratio);
            if !(1..=120).contains(&p.term_months) {
                self.push(InputError::new(
                    format!("{b}.term_months"),
                    p.term_months,
                    Rule::Between { min: 1.0, max: 120.0 },
                ));
            }
            self.share(format_args!("{b}.upfront_share"), p.upfront_share);
            match p.accelerators {
                Some(n) => self.count(format_args!("{b}.accelerators"), n, MAX_CLUSTER),
                None if o.kind == OptionKind::Mix => {
                    self.push(InputError::missing(format!("{b}.accelerators"), Rule::ReservedNeedsSize))
                }
                _ => {}
            }
        }
        if let Some(p) = &o.on_demand {
            let b = Field(base, "on_demand");
            self.price(b, p.price_per_accel_hour, p.offer.as_deref());
            self.currency(format_args!("{b}.currency"), p.currency);
            self.pool_efficiency(b, p.efficiency_ratio);
        }
        if let Some(p) = &o.spot {
            let b = Field(base, "spot");
            self.price(b, p.price_per_accel_hour, p.offer.as_deref());
            self.currency(format_args!("{b}.currency"), p.currency);
            self.pool_efficiency(b, p.efficiency_ratio);
            self.between(format_args!("{b}.interruption_overhead"), p.interruption_overhead, 0.0, 10.0);
            self.share(format_args!("{b}.availability"), p.availability);
            if p.availability < 1.0 && o.on_demand.is_none() {
                self.push(InputError::new(format!("{b}.availability"), p.availability, Rule::SpotNeedsFallback));
            }
        }
    }

    fn pools_for_kind(&mut self, base: impl fmt::Display + Copy, o: &OptionSpec) {
        let not_used =
            |name: &str| InputError::new(format!("{base}.{name}"), "[set]", Rule::NotUsedByKind { kind: o.kind });
        match o.kind {
            OptionKind::Buy => {
                if o.owned.is_none() {
                    self.push(InputError::missing(format!("{base}.owned"), Rule::Required));
                }
                if o.reserved.is_some() {
                    self.push(not_used("reserved"));
                }
                if o.spot.is_some() {
                    self.push(not_used("spot"));
                }
                if o.billing.is_some() {
                    self.push(not_used("billing"));
                }
                if o.on_demand.is_some() && matches!(self.scenario.demand, Demand::Job(_)) {
                    self.push(InputError::new(format!("{base}.on_demand"), "[set]", Rule::OverflowNeedsSharedDemand));
                }
            }
            OptionKind::Rent => {
                if o.owned.is_some() {
                    self.push(not_used("owned"));
                }
                match o.billing {
                    None => self.push(InputError::missing(format!("{base}.billing"), Rule::Required)),
                    Some(Billing::OnDemand) => {
                        if o.on_demand.is_none() {
                            self.push(InputError::missing(format!("{base}.on_demand"), Rule::Required));
                        }
                        if o.reserved.is_some() {
                            self.push(not_used("reserved"));
                        }
                        if o.spot.is_some() {
                            self.push(not_used("spot"));
                        }
                    }
                    Some(Billing::Reserved) => {
                        if o.reserved.is_none() {
                            self.push(InputError::missing(format!("{base}.reserved"), Rule::Required));
                        }
                        if o.spot.is_some() {
                            self.push(not_used("spot"));
                        }
                    }
                    Some(Billing::Spot) => {
                        if o.spot.is_none() {
                            self.push(InputError::missing(format!("{base}.spot"), Rule::Required));
                        }
                        if o.reserved.is_some() {
                            self.push(not_used("reserved"));
                        }
                    }
                }
            }
            OptionKind::Mix => {
                if o.billing.is_some() {
                    self.push(not_used("billing"));
                }
                match (o.owned.is_some(), o.reserved.is_some()) {
                    // Without a base, a mix routes by priority between on demand and spot.
                    (false, false) if o.on_demand.is_some() && o.spot.is_some() => {}
                    (false, false) => self.push(InputError::missing(format!("{base}.owned"), Rule::MixNeedsBase)),
                    (true, true) => self.push(InputError::new(format!("{base}.reserved"), "[set]", Rule::MixOneBase)),
                    _ => {}
                }
                if o.on_demand.is_none() && o.spot.is_none() {
                    self.push(InputError::missing(format!("{base}.on_demand"), Rule::MixNeedsRental));
                }
                if matches!(self.scenario.demand, Demand::Job(_)) {
                    self.push(InputError::new(format!("{base}.kind"), "mix", Rule::MixNeedsSharedDemand));
                }
            }
        }
    }

    fn price(&mut self, base: impl fmt::Display + Copy, price: Option<f64>, offer: Option<&str>) {
        let path = Field(base, "price_per_accel_hour");
        match (price, offer) {
            (Some(p), Some(offer)) => {
                self.non_negative(path, p);
                self.push(InputError::new(format!("{base}.offer"), format!("{offer:?}"), Rule::OfferAndPrice));
            }
            (Some(p), None) => self.non_negative(path, p),
            (None, Some(offer)) => {
                self.push(InputError::new(format!("{base}.offer"), format!("{offer:?}"), Rule::UnresolvedOffer))
            }
            (None, None) => self.push(InputError::missing(path.to_string(), Rule::PriceOrOffer)),
        }
    }

    fn pool_efficiency(&mut self, base: impl fmt::Display + Copy, e: Option<f64>) {
        if let Some(e) = e {
            self.divisor(format_args!("{base}.efficiency_ratio"), e);
        }
    }

    fn owned(&mut self, b: impl fmt::Display + Copy, p: &OwnedPool) {
        self.count(format_args!("{b}.servers"), p.servers, MAX_SERVERS);
        self.count(format_args!("{b}.accelerators_per_server"), p.accelerators_per_server, MAX_ACCELERATORS_PER_SERVER);
        self.currency(format_args!("{b}.currency"), p.currency);
        self.pool_efficiency(b, p.efficiency_ratio);
        for (name, x) in [
            ("capex_per_server", p.capex_per_server),
            ("network_storage_capex", p.network_storage_capex),
            ("installation", p.installation),
            ("server_kw", p.server_kw),
            ("colocation_per_kw_month", p.colocation_per_kw_month),
            ("electricity_per_kwh", p.electricity_per_kwh),
            ("staff_per_year", p.staff_per_year),
            ("maintenance_share_per_year", p.maintenance_share_per_year),
            ("other_opex_per_year", p.other_opex_per_year),
        ] {
            self.non_negative(format_args!("{b}.{name}"), x);
        }
        if let Some(kw) = p.provisioned_kw_per_server {
            self.non_negative(format_args!("{b}.provisioned_kw_per_server"), kw);
        }
        if self.finite(format_args!("{b}.pue"), p.pue) && !(1.0..=5.0).contains(&p.pue) {
            self.push(InputError::new(format!("{b}.pue"), p.pue, Rule::Between { min: 1.0, max: 5.0 }));
        }
        self.between(format_args!("{b}.depreciation_years"), p.depreciation_years, 0.5, 30.0);
        self.share(format_args!("{b}.market_residual_share"), p.market_residual_share);
        if p.residual == ResidualBasis::Book && p.market_residual_share != 0.0 && p.market_residual_share.is_finite() {
            self.push(InputError::new(
                format!("{b}.market_residual_share"),
                p.market_residual_share,
                Rule::OnlyWithMarketResidual,
            ));
        }
        if p.lead_time_months > MAX_HORIZON_MONTHS {
            self.push(InputError::new(
                format!("{b}.lead_time_months"),
                p.lead_time_months,
                Rule::Between { min: 0.0, max: MAX_HORIZON_MONTHS as f64 },
            ));
        }
    }
}

/// An option's path, `options[i]`, written only when an error names it.
#[derive(Clone, Copy)]
struct OptionAt(usize);

impl fmt::Display for OptionAt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "options[{}]", self.0)
    }
}

/// A field under a path, `parent.name`, written only when an error names it.
#[derive(Clone, Copy)]
struct Field<P>(P, &'static str);

impl<P: fmt::Display> fmt::Display for Field<P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}", self.0, self.1)
    }
}

/// Whether an `[options.sources]` key names a field of an option: one of
/// its own fields, `section.field` of one of its sections, or a section's
/// field alone (`price_per_accel_hour`). The field lists are the scenario
/// format's own (serde's), so they cannot drift from it.
fn source_key_names_a_field(key: &str) -> bool {
    let sections: [(&str, &[&str]); 7] = [
        ("owned", field_names::<OwnedPool>()),
        ("reserved", field_names::<ReservedPool>()),
        ("on_demand", field_names::<OnDemandPool>()),
        ("spot", field_names::<SpotPool>()),
        ("porting", field_names::<OptionPorting>()),
        ("supply", field_names::<Supply>()),
        ("offer_filter", field_names::<OfferSelector>()),
    ];
    match key.split_once('.') {
        Some((section, field)) => sections.iter().any(|(s, fields)| *s == section && fields.contains(&field)),
        None => {
            (key != "sources" && key != "as_of" && field_names::<OptionSpec>().contains(&key))
                || sections.iter().any(|(_, fields)| fields.contains(&key))
        }
    }
}

/// The field names serde knows for a struct (what `deny_unknown_fields` allows).
fn field_names<'de, T: serde::Deserialize<'de>>() -> &'static [&'static str] {
    let mut names = FieldNames(None);
    let _ = T::deserialize(&mut names);
    names.0.unwrap_or(&[])
}

/// A deserializer that only asks a struct for its field names.
struct FieldNames(Option<&'static [&'static str]>);

impl<'de> serde::Deserializer<'de> for &mut FieldNames {
    type Error = serde::de::value::Error;

    fn deserialize_any<V: serde::de::Visitor<'de>>(self, _: V) -> Result<V::Value, Self::Error> {
        Err(serde::de::Error::custom("field names only"))
    }

    fn deserialize_struct<V: serde::de::Visitor<'de>>(
        self,
        _: &'static str,
        fields: &'static [&'static str],
        _: V,
    ) -> Result<V::Value, Self::Error> {
        self.0 = Some(fields);
        Err(serde::de::Error::custom("field names only"))
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf option unit
        unit_struct newtype_struct seq tuple tuple_struct map enum identifier ignored_any
    }
}

/// Checks the optimiser's spec against the scenario.
fn optimise_spec(spec: &OptimiseSpec, s: &Scenario, errors: &mut Vec<InputError>) {
    let mut check = |field: &str, id: &Option<String>, has: &dyn Fn(&OptionSpec) -> bool, pool: &str| {
        if let Some(id) = id {
            match s.options.iter().find(|o| &o.id == id) {
                None => errors.push(InputError::new(
                    format!("optimise.{field}"),
                    format!("{id:?}"),
                    Rule::Path { why: format!("no option has the id {id:?}") },
                )),
                Some(o) if !has(o) => errors.push(InputError::new(
                    format!("optimise.{field}"),
                    format!("{id:?}"),
                    Rule::TemplateLacks { pool: pool.to_owned() },
                )),
                Some(_) => {}
            }
        }
    };
    check("base", &spec.base, &|o| o.owned.is_some() || o.reserved.is_some(), "owned|reserved");
    check("on_demand", &spec.on_demand, &|o| o.on_demand.is_some(), "on_demand");
    check("spot", &spec.spot, &|o| o.spot.is_some(), "spot");
    if spec.base.is_none() && spec.on_demand.is_none() && spec.spot.is_none() {
        errors.push(InputError::missing("optimise.on_demand", Rule::AtLeastOne));
    }
    if let Some(x) = spec.constraints.max_p90_npv
        && !(x.is_finite() && x > 0.0)
    {
        errors.push(InputError::new("optimise.constraints.max_p90_npv", x, Rule::NotPositive));
    }
    if let Some(x) = spec.constraints.max_supply_score
        && !(0.0..=100.0).contains(&x)
    {
        errors.push(InputError::new(
            "optimise.constraints.max_supply_score",
            x,
            Rule::Between { min: 0.0, max: 100.0 },
        ));
    }
    if matches!(s.demand, Demand::Job(_)) {
        errors.push(InputError::new("optimise", "[set]", Rule::MixNeedsSharedDemand));
    }
}

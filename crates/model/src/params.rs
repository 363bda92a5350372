//! The uncertain inputs: what an `[[uncertainty]]` entry's path names,
//! parsed and checked once ([`validate_uncertainty`]), and how a trial sets
//! a drawn value ([`Param`]). Kept apart from the simulation so that
//! [`crate::Checked`] can hold the parsed ranges without naming the Monte Carlo.

use crate::scenario::*;
use crate::validate::{InputError, Rule};

/// A parsed path: where a sampled value goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Param {
    /// `demand.scale`: multiplies the scenario's demand.
    DemandScale,
    /// `discount_rate_annual`.
    DiscountRate,
    /// `fx.CODE`: the rate of one currency.
    Fx(crate::Currency),
    /// `porting.FIELD`: a field of the workload's porting facts.
    Porting(PortingField),
    /// A field of the option at `index`.
    Option {
        /// Position of the option in `options`.
        index: usize,
        /// Which field.
        field: OptionField,
    },
    /// A field of the owned pool of the option at `index`.
    Owned {
        /// Position of the option in `options`.
        index: usize,
        /// Which field of the pool.
        field: OwnedField,
    },
    /// A field of a rental pool of the option at `index`.
    Rental {
        /// Position of the option in `options`.
        index: usize,
        /// Which rental pool.
        pool: RentalPool,
        /// Which field of the pool.
        field: RentalField,
    },
}

/// Declares a closed set of field names: the enum, its names as written in
/// a path, and the list of them.
macro_rules! fields {
    ($(#[$doc:meta])* $name:ident { $($(#[$vdoc:meta])* $variant:ident = $text:literal),+ $(,)? }) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub enum $name { $($(#[$vdoc])* $variant),+ }

        impl $name {
            /// Every value, in declaration order.
            pub const ALL: &'static [$name] = &[$($name::$variant),+];

            /// The field's name in a path and in the scenario file.
            pub fn name(self) -> &'static str {
                match self { $($name::$variant => $text),+ }
            }

            fn parse(text: &str) -> Option<$name> {
                $name::ALL.iter().copied().find(|f| f.name() == text)
            }

            fn names() -> String {
                $name::ALL.iter().map(|f| f.name()).collect::<Vec<_>>().join("|")
            }
        }
    };
}

fields!(
    /// Uncertain fields of an option itself.
    OptionField {
        /// Throughput per accelerator relative to the reference GPU.
        EfficiencyRatio = "efficiency_ratio",
        /// Multi-node scaling efficiency.
        ScalingEfficiency = "scaling_efficiency",
        /// Share of the expected throughput reached.
        AchievedShare = "achieved_share"
    }
);
fields!(
    /// Uncertain fields of an owned pool.
    OwnedField {
        /// Hardware price of one server.
        CapexPerServer = "capex_per_server",
        /// Network and storage equipment, one-off.
        NetworkStorageCapex = "network_storage_capex",
        /// Installation, one-off.
        Installation = "installation",
        /// Months from order to first use (a value from a range is rounded to whole months).
        LeadTimeMonths = "lead_time_months",
        /// Average draw of one server at full load, kW.
        ServerKw = "server_kw",
        /// Colocation price per provisioned kW and month.
        ColocationPerKwMonth = "colocation_per_kw_month",
        /// Power usage effectiveness of the site.
        Pue = "pue",
        /// Electricity tariff per kWh.
        ElectricityPerKwh = "electricity_per_kwh",
        /// Staff cost per year.
        StaffPerYear = "staff_per_year",
        /// Yearly maintenance as a share of hardware capex.
        MaintenanceSharePerYear = "maintenance_share_per_year",
        /// Other running costs per year.
        OtherOpexPerYear = "other_opex_per_year",
        /// Resale value as a share of hardware capex.
        MarketResidualShare = "market_residual_share",
    }
);
fields!(
    /// The rental pools.
    RentalPool {
        /// The `on_demand` pool.
        OnDemand = "on_demand",
        /// The `reserved` pool.
        Reserved = "reserved",
        /// The `spot` pool.
        Spot = "spot"
    }
);
fields!(
    /// Uncertain fields of a rental pool.
    RentalField {
        /// Price per accelerator-hour (every pool).
        PricePerAccelHour = "price_per_accel_hour",
        /// Share of a term's total paid at its start (reserved only).
        UpfrontShare = "upfront_share",
        /// Work redone after interruptions, a share of the useful work (spot only).
        InterruptionOverhead = "interruption_overhead",
        /// Share of spot work that gets spot capacity (spot only).
        Availability = "availability",
    }
);
fields!(
    /// Uncertain fields of the workload's porting facts.
    PortingField {
        /// Accelerator-facing code, thousand lines.
        CodeKloc = "code_kloc",
        /// Custom kernels or operators to rewrite.
        CustomKernels = "custom_kernels",
        /// Fully loaded cost of one engineer for one month.
        EngineerMonthCost = "engineer_month_cost",
        /// Engineers working on the port at once.
        Engineers = "engineers",
        /// What serving demand costs per reference-GPU-hour while the port is under way.
        BridgePricePerRefGpuHour = "bridge_price_per_ref_gpu_hour",
    }
);

impl RentalPool {
    /// Whether an option has this pool with this field.
    fn has(self, o: &OptionSpec, field: RentalField) -> bool {
        use RentalField::*;
        match self {
            RentalPool::OnDemand => o.on_demand.is_some() && field == PricePerAccelHour,
            RentalPool::Reserved => o.reserved.is_some() && matches!(field, PricePerAccelHour | UpfrontShare),
            RentalPool::Spot => o.spot.is_some() && field != UpfrontShare,
        }
    }
}

impl Param {
    /// The option a parameter belongs to; `None` for scenario-wide ones.
    pub fn option_index(&self) -> Option<usize> {
        match *self {
            Param::Option { index, .. } | Param::Owned { index, .. } | Param::Rental { index, .. } => Some(index),
            Param::DemandScale | Param::DiscountRate | Param::Fx(_) | Param::Porting(_) => None,
        }
    }

    /// Parses a path against a scenario; the error says what is allowed.
    pub fn parse(path: &str, s: &Scenario) -> Result<Param, String> {
        let parts: Vec<&str> = path.split('.').collect();
        match parts.as_slice() {
            ["demand", "scale"] => Ok(Param::DemandScale),
            ["discount_rate_annual"] => Ok(Param::DiscountRate),
            ["fx", code] => code.parse().map(Param::Fx).map_err(|_| format!("{code} is not a known currency")),
            ["porting", field] if s.porting.is_some() => PortingField::parse(field)
                .map(Param::Porting)
                .ok_or_else(|| format!("porting: expected one of {}", PortingField::names())),
            ["options", id, rest @ ..] => {
                let index =
                    s.options.iter().position(|o| o.id == *id).ok_or_else(|| format!("no option has the id {id:?}"))?;
                let o = &s.options[index];
                let expected = || {
                    format!(
                        "option {id:?}: expected one of {}, owned.<{}>, {}.<{}>",
                        OptionField::names(),
                        OwnedField::names(),
                        RentalPool::names(),
                        RentalField::names()
                    )
                };
                match rest {
                    [field] => {
                        OptionField::parse(field).map(|field| Param::Option { index, field }).ok_or_else(expected)
                    }
                    ["owned", field] if o.owned.is_some() => {
                        OwnedField::parse(field).map(|field| Param::Owned { index, field }).ok_or_else(expected)
                    }
                    [pool, field] => {
                        let (Some(pool), Some(field)) = (RentalPool::parse(pool), RentalField::parse(field)) else {
                            return Err(expected());
                        };
                        if pool.has(o, field) {
                            Ok(Param::Rental { index, pool, field })
                        } else {
                            Err(format!("option {id:?} has no {}.{}", pool.name(), field.name()))
                        }
                    }
                    _ => Err(expected()),
                }
            }
            _ => {
                Err("expected demand.scale, discount_rate_annual, fx.CODE, porting.FIELD or options.ID.[POOL.]FIELD"
                    .into())
            }
        }
    }

    /// The value a money input has in a scenario (`None` for an input the
    /// scenario does not have, or one that is not a single figure).
    pub fn money_value(&self, s: &Scenario) -> Option<f64> {
        match *self {
            Param::Fx(c) => s.fx.get(&c).copied(),
            Param::Porting(field) => s.porting.as_ref().and_then(|p| match field {
                PortingField::EngineerMonthCost => Some(p.engineer_month_cost),
                PortingField::BridgePricePerRefGpuHour => p.bridge_price_per_ref_gpu_hour,
                _ => None,
            }),
            Param::Owned { index, field } => s.options.get(index)?.owned.as_ref().and_then(|p| match field {
                OwnedField::CapexPerServer => Some(p.capex_per_server),
                OwnedField::NetworkStorageCapex => Some(p.network_storage_capex),
                OwnedField::Installation => Some(p.installation),
                OwnedField::ColocationPerKwMonth => Some(p.colocation_per_kw_month),
                OwnedField::ElectricityPerKwh => Some(p.electricity_per_kwh),
                OwnedField::StaffPerYear => Some(p.staff_per_year),
                OwnedField::MaintenanceSharePerYear => Some(p.maintenance_share_per_year),
                OwnedField::OtherOpexPerYear => Some(p.other_opex_per_year),
                _ => None,
            }),
            Param::Rental { index, pool, field: RentalField::PricePerAccelHour } => {
                let o = s.options.get(index)?;
                match pool {
                    RentalPool::OnDemand => o.on_demand.as_ref()?.price_per_accel_hour,
                    RentalPool::Reserved => o.reserved.as_ref()?.price_per_accel_hour,
                    RentalPool::Spot => o.spot.as_ref()?.price_per_accel_hour,
                }
            }
            Param::DemandScale | Param::DiscountRate | Param::Option { .. } | Param::Rental { .. } => None,
        }
    }

    /// The money inputs of a scenario (prices, yearly costs, exchange rates),
    /// with their values: what a spreadsheet lets a user change.
    pub fn money_inputs(s: &Scenario) -> Vec<(Param, f64)> {
        let mut params: Vec<Param> = s.fx.keys().map(|c| Param::Fx(*c)).collect();
        params.extend([PortingField::EngineerMonthCost, PortingField::BridgePricePerRefGpuHour].map(Param::Porting));
        for index in 0..s.options.len() {
            params.extend(OwnedField::ALL.iter().map(|&field| Param::Owned { index, field }));
            params.extend(RentalPool::ALL.iter().map(|&pool| Param::Rental {
                index,
                pool,
                field: RentalField::PricePerAccelHour,
            }));
        }
        params.into_iter().filter_map(|p| Some((p, p.money_value(s)?))).collect()
    }

    /// The parameter's path, as `[[uncertainty]]` writes it.
    pub fn path(&self, s: &Scenario) -> String {
        let id = |index: usize| s.options.get(index).map_or("", |o| o.id.as_str());
        match *self {
            Param::DemandScale => "demand.scale".into(),
            Param::DiscountRate => "discount_rate_annual".into(),
            Param::Fx(c) => format!("fx.{c}"),
            Param::Porting(field) => format!("porting.{}", field.name()),
            Param::Option { index, field } => format!("options.{}.{}", id(index), field.name()),
            Param::Owned { index, field } => format!("options.{}.owned.{}", id(index), field.name()),
            Param::Rental { index, pool, field } => {
                format!("options.{}.{}.{}", id(index), pool.name(), field.name())
            }
        }
    }

    /// Puts a value into a scenario (`demand.scale` multiplies the base demand).
    pub fn set(&self, s: &mut Scenario, base: &Scenario, value: f64) {
        match *self {
            Param::DemandScale => scale_demand(&mut s.demand, &base.demand, value),
            Param::DiscountRate => s.discount_rate_annual = value,
            Param::Fx(c) => {
                s.fx.insert(c, value);
            }
            Param::Porting(field) => {
                if let Some(p) = s.porting.as_mut() {
                    match field {
                        PortingField::CodeKloc => p.code_kloc = value,
                        PortingField::CustomKernels => p.custom_kernels = value,
                        PortingField::EngineerMonthCost => p.engineer_month_cost = value,
                        PortingField::Engineers => p.engineers = value,
                        PortingField::BridgePricePerRefGpuHour => p.bridge_price_per_ref_gpu_hour = Some(value),
                    }
                }
            }
            Param::Option { index, field } => {
                let o = &mut s.options[index];
                match field {
                    OptionField::EfficiencyRatio => o.efficiency_ratio = Some(value),
                    OptionField::ScalingEfficiency => o.scaling_efficiency = Some(value),
                    OptionField::AchievedShare => o.achieved_share = value,
                }
            }
            Param::Owned { index, field } => {
                if let Some(p) = s.options[index].owned.as_mut() {
                    set_owned(p, field, value);
                }
            }
            Param::Rental { index, pool, field } => set_rental(&mut s.options[index], pool, field, value),
        }
    }
}

fn set_owned(p: &mut OwnedPool, field: OwnedField, value: f64) {
    match field {
        OwnedField::CapexPerServer => p.capex_per_server = value,
        OwnedField::NetworkStorageCapex => p.network_storage_capex = value,
        OwnedField::Installation => p.installation = value,
        OwnedField::LeadTimeMonths => p.lead_time_months = value.round().max(0.0) as u32,
        OwnedField::ServerKw => p.server_kw = value,
        OwnedField::ColocationPerKwMonth => p.colocation_per_kw_month = value,
        OwnedField::Pue => p.pue = value,
        OwnedField::ElectricityPerKwh => p.electricity_per_kwh = value,
        OwnedField::StaffPerYear => p.staff_per_year = value,
        OwnedField::MaintenanceSharePerYear => p.maintenance_share_per_year = value,
        OwnedField::OtherOpexPerYear => p.other_opex_per_year = value,
        OwnedField::MarketResidualShare => p.market_residual_share = value,
    }
}

/// Only fields [`RentalPool::has`] allows reach here; others change nothing.
fn set_rental(o: &mut OptionSpec, pool: RentalPool, field: RentalField, value: f64) {
    match (pool, field) {
        (RentalPool::OnDemand, RentalField::PricePerAccelHour) => {
            if let Some(p) = o.on_demand.as_mut() {
                p.price_per_accel_hour = Some(value);
            }
        }
        (RentalPool::Reserved, RentalField::PricePerAccelHour) => {
            if let Some(p) = o.reserved.as_mut() {
                p.price_per_accel_hour = Some(value);
            }
        }
        (RentalPool::Reserved, RentalField::UpfrontShare) => {
            if let Some(p) = o.reserved.as_mut() {
                p.upfront_share = value;
            }
        }
        (RentalPool::Spot, field) => {
            if let Some(p) = o.spot.as_mut() {
                match field {
                    RentalField::PricePerAccelHour => p.price_per_accel_hour = Some(value),
                    RentalField::InterruptionOverhead => p.interruption_overhead = value,
                    RentalField::Availability => p.availability = value,
                    RentalField::UpfrontShare => {}
                }
            }
        }
        (RentalPool::OnDemand | RentalPool::Reserved, _) => {}
    }
}

/// Demand × factor (the base demand, so factors never compound).
pub fn scale_demand(d: &mut Demand, base: &Demand, k: f64) {
    let scale_work = |dst: &mut Option<f64>, src: Option<f64>| *dst = src.map(|x| x * k);
    match (d, base) {
        (Demand::Job(j), Demand::Job(b)) => {
            scale_work(&mut j.ref_gpu_hours, b.ref_gpu_hours);
            scale_work(&mut j.tokens, b.tokens);
        }
        (Demand::Profile(p), Demand::Profile(b)) => {
            p.monthly_ref_gpus = b.monthly_ref_gpus.iter().map(|x| x * k).collect();
            p.hourly_ref_gpus = b.hourly_ref_gpus.iter().map(|x| x * k).collect();
        }
        (Demand::Inference(d), Demand::Inference(b)) => {
            scale_work(&mut d.tokens_per_second, b.tokens_per_second);
            scale_work(&mut d.tokens_per_day, b.tokens_per_day);
        }
        (Demand::Portfolio(p), Demand::Portfolio(b)) => {
            for (j, bj) in p.jobs.iter_mut().zip(&b.jobs) {
                scale_work(&mut j.ref_gpu_hours, bj.ref_gpu_hours);
                scale_work(&mut j.tokens, bj.tokens);
            }
        }
        _ => {}
    }
}

/// Checks the `[[uncertainty]]` entries: paths resolve, distributions are
/// sound, and the range ends keep the scenario valid.
pub fn validate_uncertainty(s: &Scenario) -> Result<Vec<(Param, Distribution)>, Vec<InputError>> {
    let mut errors = Vec::new();
    let mut params = Vec::new();
    for (i, u) in s.uncertainty.iter().enumerate() {
        let base = format!("uncertainty[{i}]");
        match Param::parse(&u.path, s) {
            Err(why) => {
                errors.push(InputError::new(format!("{base}.path"), format!("{:?}", u.path), Rule::Path { why }))
            }
            Ok(p) => {
                if let Some((field, value, rule)) = u.range.problem() {
                    errors.push(InputError::new(format!("{base}.range.{field}"), value, rule));
                    continue;
                }
                // Both ends must give a valid scenario.
                let (low, high) = u.range.low_high();
                for end in [low, high] {
                    let mut trial = s.clone();
                    p.set(&mut trial, s, end);
                    if let Err(mut e) = crate::validate(&trial) {
                        let first = e.remove(0);
                        errors.push(InputError::new(
                            format!("{base}.range"),
                            end,
                            Rule::RangeBreaks { field: first.path, rule: Box::new(first.rule) },
                        ));
                        break;
                    }
                }
                params.push((p, u.range));
            }
        }
    }
    if errors.is_empty() { Ok(params) } else { Err(errors) }
}

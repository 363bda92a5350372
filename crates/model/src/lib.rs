//! The Suanli cost engine.
//!
//! Given a [`Scenario`] (the demand for GPU compute, the ways of getting
//! it, and the finance assumptions) [`evaluate()`] returns, for every option,
//! monthly cash flows by category, nominal and discounted totals, the
//! effective price per reference-GPU-hour, time to result and break-even.
//!
//! The engine is pure: it does no IO, reads no clock, looks up no exchange
//! rate and touches no database. Everything it needs arrives in the
//! scenario, so every figure can be reproduced from its inputs.
//!
//! Units are in the names: `_months`, `_per_accel_hour`, `_kw`,
//! `ref_gpu_hours` (hours of useful work on the reference GPU). Amounts are
//! `f64` in the scenario's currency; [`round_money`] is the one rounding
//! rule, applied where figures are reported.

#![warn(missing_docs)]

pub mod bounds;
pub mod business;
mod checked;
pub mod cost_lines;
pub mod decision;
pub mod demand;
pub mod evaluate;
mod figure;
pub mod finance;
pub mod fit;
pub mod fleet;
pub mod inference;
pub mod lang;
pub mod money;
mod monthly;
pub mod optimise;
mod params;
pub mod porting;
pub mod price_check;
pub mod random;
pub mod recommend;
pub mod register;
pub mod result;
pub mod scenario;
pub mod sensitivity;
pub mod supply;
pub mod uncertainty;
pub mod validate;
pub mod vat;

pub use checked::Checked;
pub use evaluate::{evaluate, scaling_at};
pub use lang::Lang;
pub use money::{
    Currency, format_amount, format_axis, format_number, format_percent, format_unit_price, fx_rate, round_money,
    round_quantity, round_score, round_share, round_unit_price, unit_price_digits,
};
pub use register::Register;
pub use result::{BreakEven, Category, Evaluation, Fleet, MemoryFit, Month, Monthly, Note, OptionResult, Shortfall};
pub use scenario::*;
pub use validate::{InputError, Rule, validate};

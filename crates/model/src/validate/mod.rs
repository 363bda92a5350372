//! Every rule a scenario must meet before it is evaluated.
//!
//! Each broken rule becomes an [`InputError`] naming the field path (as
//! written in the scenario file: `options[2].spot.availability`), the value
//! found and what is allowed, in English or Chinese. Validation collects all
//! errors rather than stopping at the first.
//!
//! The bounds the rules use are here; the error vocabulary (what is broken,
//! said in both languages) is in `error`, the walk over a scenario in `check`.

mod check;
mod error;

pub use check::validate;
pub use error::{InputError, Rule};

/// The longest horizon the engine accepts (20 years).
pub const MAX_HORIZON_MONTHS: u32 = 240;

/// Bounds on counts: far beyond any real cluster, and small enough that
/// no product of them overflows.
pub const MAX_SERVERS: u32 = 1_000_000;
/// The most accelerators one server may hold.
pub const MAX_ACCELERATORS_PER_SERVER: u32 = 1_024;
/// The most accelerators a job, replica or reserved commitment may run on.
pub const MAX_CLUSTER: u32 = 10_000_000;

/// No amount, price, count of GPUs or volume may exceed this (a million
/// million): far beyond any real figure, and small enough that every sum
/// over a 240-month horizon stays finite.
pub const MAX_QUANTITY: f64 = 1e12;

/// The smallest ratio, share or count the engine divides by.
pub const MIN_DIVISOR: f64 = 1e-3;

/// No figure the engine reports (an amount, a price, hours, months) may
/// exceed this in magnitude: a million times the largest input. Real totals
/// are far below it (a trillion yuan is 1e12); a result beyond it comes from
/// inputs at their extremes together, and is refused with those inputs named.
pub const MAX_FIGURE: f64 = MAX_QUANTITY * 1e6;

/// How far generation refresh may move a rental price or throughput over the
/// horizon, either way: `factor ^ refreshes` within 1e-6 ..= 1e6 (×2 work
/// every 18 months for 20 years is 8,192).
pub const MAX_REFRESH_COMPOUND: f64 = 1e6;

/// Bounds on one refresh's factors: a generation a hundred times dearer or
/// cheaper, faster or slower, is beyond any real refresh.
pub const REFRESH_FACTOR: (f64, f64) = (0.01, 100.0);

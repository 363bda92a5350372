//! From a scenario to monthly cash flows per option.
//!
//! Every option is a set of pools (owned, reserved, on demand, spot). The
//! demand, in reference-GPU-hours, flows into the pools month by month; a
//! pool turns reference-GPU-hours into its own accelerator-hours through
//! its efficiency (ratio × scaling × achieved share × generation refresh),
//! and accelerator-hours or capacity into money.

mod context;
mod costs;
// `Checked` calls the engine here; only the door, `evaluate()` below, names
// `Checked`, so the engine does not depend on it.
pub(crate) mod entry;
mod flows;
mod job;
mod option;
mod pools;
mod porting;
mod routing;
mod shared;
mod trial;

use crate::checked::Checked;
use crate::result::Evaluation;
use crate::scenario::*;

pub use context::scaling_at;
pub(crate) use trial::{TrialBuffers, trial_totals};

/// Evaluates every option of a checked scenario. The evaluation was made,
/// and its figures checked, when the scenario was checked: this cannot fail,
/// and costs nothing (it is not copied; clone it to change it).
pub fn evaluate(s: &Checked<Scenario>) -> &Evaluation {
    s.evaluation()
}

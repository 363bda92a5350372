//! A scenario that has passed every rule: the only kind the engine's entry
//! points accept, so nothing is validated twice and nothing unchecked is
//! evaluated.

use std::ops::Deref;

use crate::params::{Param, validate_uncertainty};
use crate::result::Evaluation;
use crate::scenario::Distribution;
use crate::scenario::Scenario;
use crate::validate::{InputError, validate};

/// A value that has passed its checks. For a [`Scenario`]: every rule of
/// [`validate`], every `[[uncertainty]]` range resolved and sound at both
/// ends (kept, parsed, for the simulation and the tornado), and its
/// evaluation: every figure finite and within
/// [`crate::validate::MAX_FIGURE`]. The evaluation is kept, so
/// [`crate::evaluate()`] cannot fail and does not compute twice.
#[derive(Debug, Clone, PartialEq)]
pub struct Checked<T> {
    value: T,
    ranges: Vec<(Param, Distribution)>,
    evaluation: Evaluation,
}

impl Checked<Scenario> {
    /// Checks every rule; the errors name each broken one, and a figure
    /// beyond the bound names the inputs behind it.
    pub fn new(scenario: Scenario) -> Result<Self, Vec<InputError>> {
        validate(&scenario)?;
        let ranges = validate_uncertainty(&scenario)?;
        let evaluation = evaluated(&scenario)?;
        Ok(Checked { value: scenario, ranges, evaluation })
    }

    /// The uncertain inputs, parsed, in the order of `[[uncertainty]]`.
    pub fn ranges(&self) -> &[(Param, Distribution)] {
        &self.ranges
    }

    /// The evaluation of every option, checked.
    pub(crate) fn evaluation(&self) -> &Evaluation {
        &self.evaluation
    }

    /// The evaluation, owned (no copy): for a caller done with the scenario.
    pub fn into_evaluation(self) -> Evaluation {
        self.evaluation
    }

    /// The scenario itself, to change and check again.
    pub fn into_inner(self) -> Scenario {
        self.value
    }

    /// A scenario the engine derives from a checked one (inputs set to a
    /// range's end, demand scaled, a template resized): its rules and its
    /// figures are checked, its ranges are not needed.
    pub(crate) fn derived(value: Scenario) -> Result<Self, Vec<InputError>> {
        validate(&value)?;
        let evaluation = evaluated(&value)?;
        Ok(Checked { value, ranges: Vec::new(), evaluation })
    }
}

/// Evaluates a scenario that passed the rules, and checks what it reports.
fn evaluated(s: &Scenario) -> Result<Evaluation, Vec<InputError>> {
    let e = crate::evaluate::entry::evaluate_unchecked(s);
    crate::bounds::check_evaluation(s, &e)?;
    Ok(e)
}

impl<T> Deref for Checked<T> {
    type Target = T;

    fn deref(&self) -> &T {
        &self.value
    }
}

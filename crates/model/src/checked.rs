//! A scenario that has passed every rule: the only kind the engine's entry
//! points accept, so nothing is validated twice and nothing unchecked is
//! evaluated.

use std::ops::Deref;

use crate::scenario::Distribution;
use crate::scenario::Scenario;
use crate::uncertainty::{Param, validate_uncertainty};
use crate::validate::{InputError, validate};

/// A value that has passed its checks. For a [`Scenario`]: every rule of
/// [`validate`], and every `[[uncertainty]]` range resolved and sound at
/// both ends (kept, parsed, for the simulation and the tornado).
#[derive(Debug, Clone, PartialEq)]
pub struct Checked<T> {
    value: T,
    ranges: Vec<(Param, Distribution)>,
}

impl Checked<Scenario> {
    /// Checks every rule; the errors name each broken one.
    pub fn new(scenario: Scenario) -> Result<Self, Vec<InputError>> {
        validate(&scenario)?;
        let ranges = validate_uncertainty(&scenario)?;
        Ok(Checked { value: scenario, ranges })
    }

    /// The uncertain inputs, parsed, in the order of `[[uncertainty]]`.
    pub fn ranges(&self) -> &[(Param, Distribution)] {
        &self.ranges
    }

    /// The scenario itself, to change and check again.
    pub fn into_inner(self) -> Scenario {
        self.value
    }

    /// A scenario the engine derives from a checked one (inputs set to a
    /// range's end, demand scaled, a template resized): its rules are
    /// checked, its ranges are not needed.
    pub(crate) fn derived(value: Scenario) -> Result<Self, Vec<InputError>> {
        validate(&value)?;
        Ok(Checked { value, ranges: Vec::new() })
    }
}

impl<T> Deref for Checked<T> {
    type Target = T;

    fn deref(&self) -> &T {
        &self.value
    }
}

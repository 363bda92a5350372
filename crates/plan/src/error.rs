//! Why a plan could not be made.

use suanli_model::{InputError, Lang};

/// Why a plan could not be made.
#[derive(Debug, thiserror::Error)]
pub enum PlanError {
    /// Inputs break rules: every broken one, with its field and value.
    #[error("{}", describe(.0))]
    Invalid(Vec<InputError>),
    /// A pick names no candidate of the plan.
    #[error("{path} = {value}: {problem}")]
    Reference {
        /// The field (`pick`).
        path: String,
        /// The value given.
        value: String,
        /// What is wrong with it.
        problem: String,
    },
    /// A bug: the candidates could not be checked.
    #[error("internal error: {0}")]
    Internal(String),
}

fn describe(errors: &[InputError]) -> String {
    errors.iter().map(|e| e.message(Lang::En)).collect::<Vec<_>>().join("; ")
}

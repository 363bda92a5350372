//! One function per Suanli use case.
//!
//! The CLI, the desktop shell and the cross-crate tests call these and
//! nothing deeper. This crate is where files are read, where text becomes
//! a [`Scenario`], and where results are shaped for transport (JSON); the
//! engine below it knows none of that.

mod error;
pub mod json;
mod scenario_file;

use std::path::Path;

pub use error::Error;
pub use json::EvaluationJson;
pub use scenario_file::parse_scenario;
pub use suanli_model as model;
pub use suanli_model::{Evaluation, Lang, Scenario};

/// Reads and validates a scenario file.
pub fn load_scenario(path: &Path) -> Result<Scenario, Error> {
    let text =
        std::fs::read_to_string(path).map_err(|source| Error::Read { path: path.display().to_string(), source })?;
    parse_scenario(&text)
}

/// Evaluates every option of a scenario.
pub fn evaluate(scenario: &Scenario) -> Result<Evaluation, Error> {
    suanli_model::evaluate(scenario).map_err(Error::Invalid)
}

/// Reads a scenario file and evaluates it.
pub fn evaluate_file(path: &Path) -> Result<(Scenario, Evaluation), Error> {
    let scenario = load_scenario(path)?;
    let evaluation = evaluate(&scenario)?;
    Ok((scenario, evaluation))
}

/// The machine-readable form of an evaluation (rounded by the one rule).
pub fn evaluation_json(evaluation: &Evaluation, lang: Lang) -> EvaluationJson {
    json::EvaluationJson::from_evaluation(evaluation, lang)
}

//! One function per Suanli use case.
//!
//! The CLI, the desktop shell and the cross-crate tests call these and
//! nothing deeper. This crate is where files are read, where text becomes
//! a [`Scenario`], and where results are shaped for transport (JSON); the
//! engine below it knows none of that.

#![warn(missing_docs)]

pub mod analytics;
pub mod catalog;
pub mod choices;
mod database;
pub mod deploy;
pub mod document;
mod error;
mod files;
mod finite;
pub mod freshness;
pub mod json;
pub mod library;
pub mod price_check;
pub mod proposal;
pub mod recommend;
mod resolve;
mod scenario_file;

use std::path::Path;

pub use error::{Allowed, Error, ErrorCode, ErrorJson, FieldError, FileKind, Refusal};
pub use files::{
    DB_ENV, MAX_FILE_BYTES, MAX_SCENARIO_BYTES, Output, default_db_path, default_export_path, now_utc,
    read_scenario_text, system_lang, today, write_all, write_atomic,
};
pub use finite::ensure_finite;
pub use json::EvaluationJson;
pub use resolve::{Note, NoteJson, needs_catalog, resolve_offers};
pub use scenario_file::parse_scenario;
// The engine's types and formatters that callers name. The surface is
// listed, never a whole crate: what is not here is not for front ends.
pub use suanli_model::cost_lines::CostLines;
pub use suanli_model::fleet::{LabelMismatch, label_mismatch};
pub use suanli_model::lang::for_lang;
pub use suanli_model::money::group_thousands;
pub use suanli_model::recommend::RankBy;
pub use suanli_model::{
    Category, Checked, Currency, Demand, Evaluation, Fleet, Lang, LatencyClass, OptionKind, OptionResult, Precision,
    Scenario, WorkloadClass, format_amount, format_number, format_percent, format_unit_price,
};
pub use suanli_report::input_label;

/// Reads and checks a scenario file.
pub fn load_scenario(path: &Path) -> Result<Checked<Scenario>, Error> {
    parse_scenario(&read_scenario_text(path)?)
}

/// Parses scenario text without checking its rules: what `recommend`
/// starts from (it needs no options, and checks the rest itself).
pub fn parse_scenario_text(text: &str) -> Result<Scenario, Error> {
    scenario_file::parse_scenario_unvalidated(text)
}

/// Each option's cost lines as formulas of the scenario's money inputs
/// (what the workbook writes), measured from the engine.
pub fn cost_lines(scenario: &Checked<Scenario>) -> CostLines {
    suanli_model::cost_lines::cost_lines(scenario)
}

/// Evaluates every option of a checked scenario (made when it was checked;
/// not copied).
pub fn evaluate(scenario: &Checked<Scenario>) -> &Evaluation {
    suanli_model::evaluate(scenario)
}

/// Reads a scenario file and evaluates it. A scenario that names catalogue
/// offers is resolved against the catalogue at the default location; one
/// that names none never opens the database.
pub fn evaluate_file(path: &Path) -> Result<(Checked<Scenario>, Evaluation), Error> {
    evaluate_file_with(path, None).map(|(s, e, _)| (s, e))
}

/// As [`evaluate_file`], with the catalogue at `db` (the default location
/// when `None`), and the resolution notes.
pub fn evaluate_file_with(path: &Path, db: Option<&Path>) -> Result<(Checked<Scenario>, Evaluation, Vec<Note>), Error> {
    let (scenario, notes) = load_resolved(path, db)?;
    let evaluation = evaluate(&scenario).clone();
    Ok((scenario, evaluation, notes))
}

/// Reads a scenario file, resolves its catalogue references (opening the
/// database only when it names any) and checks every rule, ranges included.
pub fn load_resolved(path: &Path, db: Option<&Path>) -> Result<(Checked<Scenario>, Vec<Note>), Error> {
    let text = read_scenario_text(path)?;
    let mut scenario = scenario_file::parse_scenario_unvalidated(&text)?;
    let mut notes = Vec::new();
    if needs_catalog(&scenario) {
        let (catalog, _) = catalog::open_catalog(db)?;
        notes = resolve_offers(&mut scenario, &catalog)?;
    }
    Ok((check(scenario)?, notes))
}

/// The most options a scenario from a user (a file, the editor) may hold.
pub const MAX_OPTIONS: usize = 200;

/// The most options × months of the horizon such a scenario may hold (every
/// option is routed month by month): 50 options over 20 years.
pub const MAX_OPTION_MONTHS: usize = 12_000;

/// The longest text a scenario's name, description, option label or source
/// may hold: what one spreadsheet cell holds (the export writes each in one).
pub const MAX_TEXT_CHARS: usize = 32_767;

/// Each text of a scenario past [`MAX_TEXT_CHARS`], by path.
fn overlong_texts(s: &Scenario) -> Vec<suanli_model::InputError> {
    let mut texts: Vec<(String, &str)> = vec![
        ("name".into(), s.name.as_str()),
        ("description".into(), s.description.as_str()),
        ("description_zh".into(), s.description_zh.as_str()),
    ];
    for (i, o) in s.options.iter().enumerate() {
        texts.push((format!("options[{i}].label"), o.label.as_str()));
        for (field, source) in &o.sources {
            texts.push((format!("options[{i}].sources.{field}"), source.as_str()));
        }
    }
    texts
        .into_iter()
        .filter_map(|(path, text)| {
            let n = text.chars().count();
            (n > MAX_TEXT_CHARS).then(|| {
                let rule = suanli_model::Rule::Between { min: 0.0, max: MAX_TEXT_CHARS as f64 };
                suanli_model::InputError::new(path, format!("[{n} characters]"), rule)
            })
        })
        .collect()
}

/// Refuses a scenario past [`MAX_OPTIONS`], [`MAX_OPTION_MONTHS`] or
/// [`MAX_TEXT_CHARS`] before any rule is checked or any figure computed.
fn check_size(s: &Scenario) -> Result<(), Error> {
    let overlong = overlong_texts(s);
    if !overlong.is_empty() {
        return Err(Error::Invalid(overlong));
    }
    let n = s.options.len();
    if n > MAX_OPTIONS {
        let rule = suanli_model::Rule::TooManyOptions { max: MAX_OPTIONS };
        return Err(Error::Invalid(vec![suanli_model::InputError::new("options", format!("[{n} options]"), rule)]));
    }
    let found = n * s.horizon_months as usize;
    if found > MAX_OPTION_MONTHS {
        let rule = suanli_model::Rule::TooManyOptionMonths { found, max: MAX_OPTION_MONTHS };
        return Err(Error::Invalid(vec![suanli_model::InputError::new("options", format!("[{n} options]"), rule)]));
    }
    Ok(())
}

/// Checks every rule of a scenario from a user, ranges included, within the
/// size limits: the one way to a [`Checked`] scenario from outside, which is
/// all the engine accepts.
pub fn check(scenario: Scenario) -> Result<Checked<Scenario>, Error> {
    check_size(&scenario)?;
    Checked::new(scenario).map_err(Error::Invalid)
}

/// The machine-readable form of an evaluation (rounded by the one rule);
/// refused when a figure is not finite (JSON would turn it into `null`).
pub fn evaluation_json(evaluation: &Evaluation, lang: Lang) -> Result<EvaluationJson, Error> {
    let json = json::EvaluationJson::from_evaluation(evaluation, lang);
    ensure_finite(&json)?;
    Ok(json)
}

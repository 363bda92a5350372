//! `suanli proposal` and `suanli export`: the PDF a board reads and the
//! spreadsheet a purchasing team works in, from the same computed results.

use std::path::Path;

pub use suanli_report::proposal::ProposalMeta;
use suanli_report::proposal::{PriceDate, ProposalInput, proposal_pdf, proposal_text};

use crate::files::{Output, write_all_into, write_atomic};
use crate::{Error, Lang};

/// Trials for the ranges in a proposal (fixed seed: the same proposal twice).
pub const PROPOSAL_TRIALS: u32 = 10_000;
/// Seed of the proposal's simulation.
pub const PROPOSAL_SEED: u64 = 1;

/// Who the proposal is for and from, as the app's export dialog sends it.
#[derive(Debug, Clone, serde::Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ProposalFields {
    /// The client the proposal is for.
    pub client: String,
    /// Who wrote it.
    pub author: String,
    /// The author's firm.
    pub firm: String,
    /// A PNG or JPEG logo for the cover (blank: none).
    pub logo_path: Option<String>,
}

/// A file written: where, and how many bytes.
#[derive(Debug, Clone, serde::Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct Exported {
    /// Where the file was written.
    pub path: String,
    /// Its size in bytes.
    pub bytes: u32,
}

/// Refuses a proposal date that is not a calendar date, `YYYY-MM-DD` (it is
/// printed on the cover and prices are aged on it).
pub fn check_date(date: &str) -> Result<(), Error> {
    match crate::freshness::AsOf::parse(date) {
        Some(crate::freshness::AsOf::Day { .. }) => Ok(()),
        _ => Err(Error::Argument { name: "--date".into(), value: date.to_owned(), allowed: crate::Allowed::Date }),
    }
}

/// Reads a cover logo; a blank path is no logo.
pub fn read_logo(path: Option<&Path>) -> Result<Option<Vec<u8>>, Error> {
    match path.filter(|p| !p.as_os_str().to_string_lossy().trim().is_empty()) {
        Some(p) => crate::files::read(p).map(Some),
        None => Ok(None),
    }
}

/// Writes the proposal PDF of a checked scenario to `path` (whole or not
/// at all), dated `date`, prices aged on it against `stale_after_months`:
/// what the app's export does.
pub fn export_proposal(
    s: &suanli_model::Checked<suanli_model::Scenario>,
    lang: Lang,
    fields: ProposalFields,
    date: String,
    stale_after_months: u32,
    path: &Path,
) -> Result<Exported, Error> {
    let logo = read_logo(fields.logo_path.as_deref().map(Path::new))?;
    let meta = ProposalMeta { client: fields.client, author: fields.author, firm: fields.firm, date, logo };
    let bytes = proposal_pdf_for(s, lang, &meta, stale_after_months)?;
    write_atomic(path, &bytes)?;
    Ok(exported(path, &bytes))
}

/// Writes the spreadsheet (`.xlsx`) of a checked scenario to `path` (whole
/// or not at all): what the app's export does.
pub fn export_spreadsheet(
    s: &suanli_model::Checked<suanli_model::Scenario>,
    lang: Lang,
    path: &Path,
) -> Result<Exported, Error> {
    let bytes = xlsx_for(s, lang)?;
    write_atomic(path, &bytes)?;
    Ok(exported(path, &bytes))
}

fn exported(path: &Path, bytes: &[u8]) -> Exported {
    Exported { path: path.display().to_string(), bytes: u32::try_from(bytes.len()).unwrap_or(u32::MAX) }
}

/// Builds the proposal PDF's bytes for a scenario file.
pub fn proposal_bytes(scenario: &Path, db: Option<&Path>, lang: Lang, meta: &ProposalMeta) -> Result<Vec<u8>, Error> {
    check_date(&meta.date)?;
    let (s, _) = crate::load_resolved(scenario, db)?;
    proposal_pdf_for(&s, lang, meta, crate::freshness::stale_after_for(&s, db)?)
}

/// The proposal PDF's bytes for a resolved, checked scenario (the CLI and
/// the desktop app both end here, so both write the same bytes).
pub fn proposal_pdf_for(
    s: &suanli_model::Checked<suanli_model::Scenario>,
    lang: Lang,
    meta: &ProposalMeta,
    stale_after_months: u32,
) -> Result<Vec<u8>, Error> {
    with_input(s, lang, meta, stale_after_months, |input| Ok(proposal_pdf(input)?))
}

/// The text a scenario file's proposal draws, page by page (for checks of
/// what a client reads: no identifiers, one language).
pub fn proposal_text_for_file(
    scenario: &Path,
    db: Option<&Path>,
    lang: Lang,
    meta: &ProposalMeta,
) -> Result<Vec<Vec<String>>, Error> {
    let (s, _) = crate::load_resolved(scenario, db)?;
    with_input(&s, lang, meta, crate::freshness::stale_after_for(&s, db)?, |input| Ok(proposal_text(input)?))
}

/// Evaluates (and, with ranges, simulates and runs the sensitivity) once,
/// then hands the proposal's input to `f`.
fn with_input<T>(
    s: &suanli_model::Checked<suanli_model::Scenario>,
    lang: Lang,
    meta: &ProposalMeta,
    stale_after_months: u32,
    f: impl FnOnce(&ProposalInput<'_>) -> Result<T, Error>,
) -> Result<T, Error> {
    let e = crate::evaluate(s);
    let (simulation, sensitivity) = if s.uncertainty.is_empty() {
        (None, None)
    } else {
        let config =
            suanli_model::uncertainty::SimulationConfig { trials: PROPOSAL_TRIALS, seed: PROPOSAL_SEED, threads: 0 };
        let sim = suanli_model::uncertainty::simulate(s, config, &|_| {}).map_err(Error::Invalid)?;
        let sens = suanli_model::sensitivity::sensitivity(s).map_err(Error::Invalid)?;
        (Some(sim), Some(sens))
    };
    let input = ProposalInput {
        scenario: s,
        evaluation: e,
        simulation: simulation.as_ref(),
        sensitivity: sensitivity.as_ref(),
        meta,
        names: &accelerator_names(lang),
        lang,
        price_dates: &price_dates(s, &meta.date, stale_after_months, lang),
        stale_after_months,
        sources: catalogue_sources(),
        board: &board_facts(s, lang),
    };
    f(&input)
}

/// Every catalogue price's date, aged on the proposal's date (today when
/// the proposal's date is not a `YYYY-MM-DD` date).
fn price_dates(s: &suanli_model::Scenario, date: &str, stale_after_months: u32, lang: Lang) -> Vec<PriceDate> {
    let on = match crate::freshness::AsOf::parse(date) {
        Some(crate::freshness::AsOf::Day { date }) => date,
        _ => crate::freshness::today_date(),
    };
    crate::freshness::ages(s, on, stale_after_months)
        .into_iter()
        .map(|a| PriceDate {
            option_id: a.option_id,
            field: a.field,
            date: a.freshness.date_label(lang),
            age_months: a.freshness.age_months,
            stale: a.freshness.stale,
        })
        .collect()
}

/// The bundled catalogue's sources by id, read once: what a proposal's
/// numbered references are made from.
fn catalogue_sources() -> &'static suanli_report::Sources {
    static SOURCES: std::sync::OnceLock<suanli_report::Sources> = std::sync::OnceLock::new();
    SOURCES.get_or_init(|| {
        suanli_catalog::bundled_sources()
            .unwrap_or_default()
            .into_iter()
            .map(|s| (s.id, suanli_report::Source { sheet: s.sheet, title: s.title, url: s.url, date: s.date }))
            .collect()
    })
}

/// What the bundled catalogue says of the scenario's accelerators: export
/// status for a buyer in China with the rule and its source, and whether
/// each is a consumer card.
fn board_facts(s: &suanli_model::Checked<suanli_model::Scenario>, lang: Lang) -> suanli_report::BoardFacts {
    let Ok(facts) = suanli_catalog::export_facts() else { return Default::default() };
    let accelerators = s
        .options
        .iter()
        .filter_map(|o| o.accelerator.as_deref())
        .filter_map(|id| facts.accelerators.iter().find(|a| a.id == id))
        .map(|a| {
            // The rule that began its status (else the first that names it).
            let naming: Vec<_> = facts
                .controls
                .iter()
                .filter(|c| c.affected.as_deref().is_some_and(|list| list.split(';').any(|x| x.trim() == a.id)))
                .collect();
            let rule = naming
                .iter()
                .find(|c| c.date.is_some() && c.date == a.export_status_since)
                .or_else(|| naming.iter().min_by(|x, y| x.date.cmp(&y.date)))
                .copied();
            // The rule with its date and source ids, which the proposal cites as references.
            let export_source = rule.map(|r| {
                let ids = r.source.split(';').map(str::trim).collect::<Vec<_>>().join(", ");
                let date = r.date.as_deref().map_or_else(String::new, |d| format!("{d}; "));
                match lang {
                    Lang::En => format!("{} {} ({date}{ids})", r.jurisdiction, r.rule),
                    // The rule's name is English in its source; the Chinese says whose rule it is.
                    Lang::Zh => format!("{}出口管制规则（{date}{ids}）", jurisdiction_zh(&r.jurisdiction)),
                }
            });
            suanli_report::AcceleratorFacts {
                id: a.id.clone(),
                export_status_cn: a.export_status_cn,
                export_since: a.export_status_since.clone().or_else(|| rule.and_then(|r| r.date.clone())),
                export_source,
                consumer: suanli_plan::cluster::consumer(a),
                software_stack: a
                    .software_stack
                    .as_ref()
                    .map(|x| x.split(';').map(str::trim).collect::<Vec<_>>().join(", ")),
            }
        })
        .collect();
    suanli_report::BoardFacts {
        accelerators,
        price_flags: crate::price_check::price_flags(s),
        // With ranges the sensitivity analysis carries the break-even.
        break_even: if s.uncertainty.is_empty() { suanli_model::sensitivity::break_even(s) } else { Vec::new() },
    }
}

/// A jurisdiction of the catalogue's export-control rules, in Chinese.
fn jurisdiction_zh(code: &str) -> &str {
    match code {
        "US" => "美国",
        "TW" => "中国台湾",
        other => other,
    }
}

/// The bundled catalogue's accelerator names by id, in `lang` (an
/// accelerator only the user's database knows keeps its id).
fn accelerator_names(lang: Lang) -> suanli_report::Names {
    suanli_catalog::accelerator_names()
        .unwrap_or_default()
        .into_iter()
        .map(|(id, en, zh)| (id, lang.pick(&en, &zh).to_owned()))
        .collect()
}

/// Writes the proposal PDF to `out` (whole or not at all); returns its size.
pub fn proposal(
    scenario: &Path,
    db: Option<&Path>,
    lang: Lang,
    meta: &ProposalMeta,
    out: &Path,
) -> Result<usize, Error> {
    let bytes = proposal_bytes(scenario, db, lang, meta)?;
    write_atomic(out, &bytes)?;
    Ok(bytes.len())
}

/// Writes the spreadsheet (`xlsx`) and/or CSV files (into `csv_dir`) for a
/// scenario file, all or nothing: every target is checked first, and when
/// one cannot be written none is (see [`crate::write_all`]). Returns the
/// paths written.
pub fn export(
    scenario: &Path,
    db: Option<&Path>,
    lang: Lang,
    xlsx: Option<&Path>,
    csv_dir: Option<&Path>,
) -> Result<Vec<std::path::PathBuf>, Error> {
    let (s, _) = crate::load_resolved(scenario, db)?;
    let tables = tables_for(&s, lang)?;
    let mut files: Vec<(std::path::PathBuf, Vec<u8>)> = Vec::new();
    if let Some(path) = xlsx {
        files.push((path.to_path_buf(), xlsx_bytes(&tables, lang)?));
    }
    if let Some(dir) = csv_dir {
        for (name, text) in suanli_report::sheet::csv(&tables) {
            files.push((dir.join(name), text.into_bytes()));
        }
    }
    let outputs: Vec<Output<'_>> = files.iter().map(|(path, bytes)| Output { path, bytes, private: false }).collect();
    write_all_into(csv_dir.as_slice(), &outputs)?;
    Ok(files.into_iter().map(|(path, _)| path).collect())
}

/// The spreadsheet's bytes for a resolved, checked scenario.
pub fn xlsx_for(s: &suanli_model::Checked<suanli_model::Scenario>, lang: Lang) -> Result<Vec<u8>, Error> {
    xlsx_bytes(&tables_for(s, lang)?, lang)
}

/// The workbook's tables: the engine's figures, with each cost line as
/// formulas of the money inputs, measured from the engine.
fn tables_for(
    s: &suanli_model::Checked<suanli_model::Scenario>,
    lang: Lang,
) -> Result<suanli_report::sheet::Tables, Error> {
    let e = crate::evaluate(s);
    let lines = suanli_model::cost_lines::cost_lines(s);
    Ok(suanli_report::sheet::tables(s, e, &lines, &accelerator_names(lang), lang)?)
}

/// The workbook's bytes, dated today (the one clock read, in `crate::files`).
fn xlsx_bytes(tables: &suanli_report::sheet::Tables, lang: Lang) -> Result<Vec<u8>, Error> {
    Ok(suanli_report::sheet::xlsx(tables, lang, &crate::today())?)
}

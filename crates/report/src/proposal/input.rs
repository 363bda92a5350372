//! What the proposal is made from: the scenario and its results, who it is
//! for and from, and the dates of its prices (the types its sections share).

use suanli_model::sensitivity::Sensitivity;
use suanli_model::uncertainty::Simulation;
use suanli_model::{Evaluation, Lang, Scenario};

/// Who the proposal is for and from; all optional but the date.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ProposalMeta {
    /// The client, on the cover and in the confidentiality notice.
    pub client: String,
    /// Who prepared it: the cover, the approval block and the PDF's author.
    pub author: String,
    /// The author's firm, on the cover.
    pub firm: String,
    /// The proposal's date, as it should be printed (e.g. 2026-11-30); a
    /// `YYYY-MM-DD` date also dates the PDF's metadata.
    pub date: String,
    /// A PNG or JPEG logo for the cover.
    pub logo: Option<Vec<u8>>,
}

/// Everything the proposal is made from.
#[derive(Debug)]
pub struct ProposalInput<'a> {
    /// The scenario.
    pub scenario: &'a Scenario,
    /// The scenario's evaluation.
    pub evaluation: &'a Evaluation,
    /// Simulated ranges: the P10–P90 chart, and the recommendation by median.
    pub simulation: Option<&'a Simulation>,
    /// Sensitivity analysis: the tornado chart.
    pub sensitivity: Option<&'a Sensitivity>,
    /// Who the proposal is for and from.
    pub meta: &'a ProposalMeta,
    /// Accelerators' names by catalogue id, in the report's language, for
    /// inputs that name one (an id is never client text).
    pub names: &'a crate::Names,
    /// The one language the proposal is written in.
    pub lang: Lang,
    /// The date of every price taken from a dated offer, aged on the
    /// proposal's date.
    pub price_dates: &'a [PriceDate],
    /// Prices this many months old or older are stale (a setting).
    pub stale_after_months: u32,
    /// The catalogue's sources by id: what the numbered references are made from.
    pub sources: &'a crate::Sources,
    /// What the catalogue knows beyond the scenario (risks, price checks).
    pub board: &'a crate::BoardFacts,
}

/// One price's date as the proposal prints it, aged on the proposal's date.
#[derive(Debug, Clone, PartialEq)]
pub struct PriceDate {
    /// The option's id.
    pub option_id: String,
    /// The option's field (`on_demand.price_per_accel_hour`).
    pub field: String,
    /// The date as precise as its source gave it, in the proposal's language
    /// (`2025-03 (month only)`).
    pub date: String,
    /// Whole months from the earliest day the date may mean to the proposal's date.
    pub age_months: Option<u32>,
    /// As old as the threshold, or older.
    pub stale: bool,
}

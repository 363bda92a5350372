//! The proposal a consultant hands to a client's board: cover, contents,
//! executive summary, assumptions, comparison, cash flow by year, charts,
//! ranges and sensitivity, porting and supply, energy, risks, next steps
//! and approval, an appendix that traces every input to its source or
//! marks it as an assumption, and notices. Built from computed results;
//! every outside input (date, names) is passed in, so the same inputs give
//! the same bytes.
//!
//! `layout` places the sections in order; each section is drawn in its own
//! module below, the charts in `charts`.

mod appendix;
mod assumptions;
mod cash_flow;
mod charts;
mod comparison;
mod contents;
mod cover;
mod energy;
pub(crate) mod input;
mod next_steps;
mod notices;
mod porting;
mod risks;
mod summary;

use suanli_model::decision::{Decision, decide};
use suanli_model::{Currency, Evaluation, Lang, OptionResult, Scenario};

use crate::ReportError;
use crate::labels::for_lang;
use crate::pdf::{CONTENT_W, Canvas};

pub use charts::PALETTE;
use contents::Sections;
pub use input::{PriceDate, ProposalInput, ProposalMeta};

/// Renders the proposal PDF.
pub fn proposal_pdf(input: &ProposalInput<'_>) -> Result<Vec<u8>, ReportError> {
    let cv = layout(input)?;
    let lang = input.lang;
    let title = format!(
        "{} — {}",
        lang.pick("GPU compute proposal", "算力获取方案建议书"),
        for_lang(&input.scenario.name, lang)
    );
    cv.save(&title, &input.meta.author, &input.meta.date).map_err(|_| ReportError::NonFiniteDrawing)
}

/// Every piece of text the proposal draws, page by page, as drawn (after
/// the font's fallback): what a reader sees, for tests that read it.
pub fn proposal_text(input: &ProposalInput<'_>) -> Result<Vec<Vec<String>>, ReportError> {
    Ok(layout(input)?.texts())
}

fn layout(input: &ProposalInput<'_>) -> Result<Canvas, ReportError> {
    let lang = input.lang;
    let e = input.evaluation;
    let s = input.scenario;
    let mut cv = Canvas::new()?;
    // Sources said from here on cite numbered references.
    let book = crate::references::Open::new(input.sources, lang);
    if let Some(bytes) = &input.meta.logo {
        cv.set_logo(bytes)?;
    }
    // An option that leaves work undone is never the recommendation.
    let ranked = e.ranked_by_npv();
    // The recommendation follows the documented rule (suanli_model::decision).
    let decision = decide(e, input.simulation).ok_or(ReportError::NoOptions)?;
    let best = e.option(&decision.recommended).ok_or(ReportError::NoOptions)?;
    let x = Summary { input, e, s, c: e.currency, lang, ranked: &ranked, decision: &decision, best };
    let name = for_lang(&s.name, lang);

    cover::cover(&mut cv, input, &name);
    // The contents page is filled in once the sections are placed.
    cv.new_page();
    let contents_page = cv.pages.len() - 1;
    let mut sections = Sections::default();

    sections.numbered(&mut cv, lang.pick("Executive summary", "摘要"));
    summary::executive_summary(&mut cv, &x);
    sections.numbered_below(&mut cv, lang.pick("What the comparison assumes", "比较所依据的假设"));
    assumptions::assumptions_in_words(&mut cv, s, e, lang);
    sections.numbered(&mut cv, lang.pick("Options compared", "方案比较"));
    comparison::options_compared(&mut cv, &x);
    sections.numbered(&mut cv, lang.pick("Cash flow by year", "逐年现金流"));
    cash_flow::cash_flow_by_year(&mut cv, s, e, &ranked, best, lang);
    sections.numbered(&mut cv, lang.pick("Budget and VAT basis", "预算与增值税口径"));
    crate::budget::budget(&mut cv, s, e, best, input.simulation, &input.meta.date, lang);
    sections.numbered(&mut cv, lang.pick("Cost over time and where it goes", "成本随时间的变化与构成"));
    charts::cumulative_chart(&mut cv, e, lang);
    charts::breakdown_chart(&mut cv, e, lang);
    if input.simulation.is_some() || input.sensitivity.is_some() {
        sections.numbered(&mut cv, lang.pick("How sure the numbers are", "数字的确定性"));
        if let Some(sim) = input.simulation {
            charts::range_chart(&mut cv, e, sim, lang);
        }
        if let Some(sens) = input.sensitivity {
            charts::tornado_chart(&mut cv, s, sens, best, lang);
        }
    }
    if e.options.iter().any(|o| o.porting.is_some() || o.supply.is_some()) {
        sections.numbered(&mut cv, lang.pick("Porting and supply risk", "迁移成本与供应风险"));
        porting::porting_and_supply(&mut cv, &x);
    }
    if ranked.iter().any(|o| o.owned_energy_kwh.is_some_and(|k| k > 0.0)) {
        sections.numbered_below(&mut cv, lang.pick("Energy and emissions", "能耗与排放"));
        energy::energy(&mut cv, s, e, &ranked, lang);
    }
    sections.numbered(&mut cv, lang.pick("Risks", "风险"));
    risks::risk_register(&mut cv, input, &ranked, best);
    sections.numbered_below(&mut cv, lang.pick("Next steps and approval", "后续步骤与审批"));
    next_steps::next_steps(&mut cv, s, best, input.simulation, &input.board.price_flags, lang);
    next_steps::approval(&mut cv, input.meta, lang);
    sections.unnumbered(&mut cv, lang.pick("Appendix: every input and its source", "附录：全部输入及其来源"));
    appendix::appendix(&mut cv, &x);
    let references = book.list();
    if !references.is_empty() {
        sections.unnumbered(&mut cv, lang.pick("References", "参考文献"));
        crate::references::section(&mut cv, &references, lang);
    }
    sections.unnumbered(&mut cv, lang.pick("Notices", "声明"));
    notices::notices(&mut cv, input.meta, lang);
    contents::contents(&mut cv, contents_page, &sections, lang);

    // The running header is one line: a long name is cut with an ellipsis
    // (the cover gives it whole).
    let header = one_line(&cv, &format!("Suanli · {name}"), 8.0, CONTENT_W);
    cv.finish(&header, &|n, total| {
        if lang == Lang::Zh { format!("第 {n} 页 / 共 {total} 页") } else { format!("page {n} / {total}") }
    });
    Ok(cv)
}

/// What the sections after the cover read: the results, the recommendation
/// and the ranking, worked out once.
#[derive(Clone, Copy)]
struct Summary<'a> {
    input: &'a ProposalInput<'a>,
    e: &'a Evaluation,
    s: &'a Scenario,
    c: Currency,
    lang: Lang,
    /// Options by NPV, those that cannot do the work last.
    ranked: &'a [&'a OptionResult],
    decision: &'a Decision,
    best: &'a OptionResult,
}

/// An option's label in `lang`, by id (client text names options, never ids;
/// an id no option has is kept as given).
fn label_of(e: &Evaluation, id: &str, lang: Lang) -> String {
    e.option(id).map_or_else(|| id.to_owned(), |o| for_lang(&o.label, lang))
}

/// The text cut, with an ellipsis, to one line of `width` points.
fn one_line(cv: &Canvas, text: &str, size: f32, width: f32) -> String {
    let text = cv.printable(text);
    if cv.width(&text, size, false) <= width {
        return text;
    }
    let mut out = String::new();
    for ch in text.chars() {
        if cv.width(&format!("{out}{ch}…"), size, false) > width {
            break;
        }
        out.push(ch);
    }
    format!("{}…", out.trim_end())
}

/// A count or quantity as a reader writes it (grouped, at most one decimal).
fn quantity(x: f64) -> String {
    suanli_model::format_number(x, if x.abs() >= 100.0 { 0 } else { 1 })
}

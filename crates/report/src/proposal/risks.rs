//! Risks: the risk register drawn as a table (its rows come from
//! `crate::register`). A likelihood is given only where a figure states
//! it; otherwise the register says it is not quantified.

use suanli_model::{Lang, OptionResult};

use crate::labels::for_lang;
use crate::pdf::{CONTENT_W, Canvas, MUTED};

use super::ProposalInput;

/// The risk register: every option's risks, the recommended option's
/// first, each with its likelihood or figure and its source (never empty:
/// every option depends on one provider at least).
pub(super) fn risk_register(cv: &mut Canvas, input: &ProposalInput<'_>, ranked: &[&OptionResult], best: &OptionResult) {
    let lang = input.lang;
    let rows: Vec<Vec<String>> = crate::register::register(input, ranked, best)
        .into_iter()
        .map(|r| vec![r.option, r.risk, r.likelihood, r.response, r.source])
        .collect();
    cv.paragraph(
        &if lang == Lang::Zh {
            format!(
                "各方案的风险，建议方案（{}）列在最前；每项均来自目录、计算结果或场景中的数字，并注明来源。",
                for_lang(&best.label, lang)
            )
        } else {
            format!(
                "The risks of every option, the recommended one ({}) first; each from the catalogue, the results or the scenario, with its source.",
                for_lang(&best.label, lang)
            )
        },
        9.0,
        false,
        MUTED,
    );
    cv.space(6.0);
    let header = [
        lang.pick("Option", "方案"),
        lang.pick("Risk", "风险"),
        lang.pick("Likelihood or figure", "可能性或数值"),
        lang.pick("Impact and response", "影响与应对"),
        lang.pick("Source", "来源"),
    ]
    .map(str::to_owned);
    cv.table(
        &[CONTENT_W * 0.16, CONTENT_W * 0.17, CONTENT_W * 0.16, CONTENT_W * 0.27, CONTENT_W * 0.24],
        &header,
        &rows,
        5,
    );
    if crate::register::buyer_in_china(input.scenario) {
        cv.note(lang.pick(
            "Export status is the catalogue's for a buyer in China, taken as the buyer's jurisdiction because the scenario's amounts are in CNY.",
            "出口管制状态取目录中针对中国买方的记录；因场景金额以人民币计，视买方位于中国。",
        ));
    }
}

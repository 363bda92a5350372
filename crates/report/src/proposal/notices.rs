//! The notices: what the figures are and are not.

use suanli_model::Lang;

use crate::pdf::{Canvas, INK};

use super::ProposalMeta;

/// The notices: what the figures are and are not.
pub(super) fn notices(cv: &mut Canvas, meta: &ProposalMeta, lang: Lang) {
    let for_whom = if meta.client.trim().is_empty() {
        lang.pick("the recipient", "收件方").to_owned()
    } else {
        meta.client.trim().to_owned()
    };
    let items = if lang == Lang::Zh {
        vec![
            format!("保密：本建议书仅供{for_whom}内部决策使用，未经许可不得外传。"),
            "数字的性质：所有金额均由所列输入按文中规则计算得出，不是报价或承诺。价格以附录所列来源及日期为准，之后可能变化。".to_owned(),
            "估算的标明：效率比、迁移工作量与供应风险权重若为估算或假设，附录均注明其方法或标为“假设”；实测数据与估算从不混同。".to_owned(),
            "不构成财务、法律或出口合规意见；出口管制状态请以主管部门的最新规定为准。".to_owned(),
            "由 Suanli 离线生成：输入与计算未离开编制者的计算机。".to_owned(),
        ]
    } else {
        vec![
            format!("Confidential: prepared for the internal decision of {for_whom}; not to be passed on without permission."),
            "What the figures are: every amount is computed from the stated inputs by the rules given here; none is a quote or a commitment. Prices are as of the sources and dates in the appendix and may change.".to_owned(),
            "Estimates are marked: where an efficiency ratio, a porting effort or a supply-risk weight is estimated or assumed, the appendix gives its method or marks it as an assumption; measured and estimated figures are never mixed.".to_owned(),
            "Not financial, legal or export-compliance advice; for export-control status, the authorities' current rules prevail.".to_owned(),
            "Made offline by Suanli: the inputs and the computation did not leave the author's computer.".to_owned(),
        ]
    };
    for item in items {
        cv.paragraph(&format!("· {item}"), 9.5, false, INK);
        cv.space(4.0);
    }
}

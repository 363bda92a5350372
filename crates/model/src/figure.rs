//! A figure the engine reports, by what it means: what the bounds check
//! finds out of bounds, and what a rule's error names in both languages.

use crate::Lang;
use crate::result::Category;

/// A reported figure, by what it means (so it can be said in both languages).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Figure {
    /// One category of the breakdown.
    Cost(Category),
    /// The nominal total over the horizon.
    TotalNominal,
    /// The total discounted to today (NPV).
    TotalNpv,
    /// Compute cost per useful reference-GPU-hour.
    EffectivePrice,
    /// All costs (porting, bridge, storage and edge included) per useful reference-GPU-hour.
    AllInPrice,
    /// Reference-GPU-hours served.
    Served,
    /// Reference-GPU-hours the option could not serve.
    Unserved,
    /// Accelerator-hours run.
    AcceleratorHours,
    /// Months until a job's result.
    TimeToComplete,
    /// The demand over the horizon, in reference-GPU-hours.
    Demand,
    /// The porting cost, or the port's yearly upkeep.
    PortingCost,
    /// The porting delay in months, or the engineer-months behind it.
    PortingDelay,
    /// A simulated total (a trial's nominal total or NPV).
    Simulated,
}

impl Figure {
    /// The figure's name in `lang`, for error messages.
    pub fn label(self, lang: Lang) -> String {
        let text = match self {
            Figure::Cost(c) => return c.label(lang).to_owned(),
            Figure::TotalNominal => lang.pick("total (nominal)", "名义总成本"),
            Figure::TotalNpv => lang.pick("total (NPV)", "净现值总成本"),
            Figure::EffectivePrice => lang.pick("price per reference-GPU-hour", "每参考卡时价格"),
            Figure::AllInPrice => lang.pick("all-in price per reference-GPU-hour", "含全部成本的每参考卡时价格"),
            Figure::Served => lang.pick("reference-GPU-hours served", "已承接的参考卡时"),
            Figure::Unserved => lang.pick("reference-GPU-hours unserved", "未承接的参考卡时"),
            Figure::AcceleratorHours => lang.pick("accelerator-hours", "加速卡时"),
            Figure::TimeToComplete => lang.pick("time to result (months)", "完成时间（月）"),
            Figure::Demand => lang.pick("demand (reference-GPU-hours)", "需求（参考卡时）"),
            Figure::PortingCost => lang.pick("porting cost", "迁移成本"),
            Figure::PortingDelay => lang.pick("porting delay (months)", "迁移延迟（月）"),
            Figure::Simulated => lang.pick("simulated total", "模拟总成本"),
        };
        text.to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_figure_has_a_label_in_both_languages() {
        for f in [Figure::TotalNominal, Figure::Simulated, Figure::Cost(Category::Spot), Figure::PortingDelay] {
            assert!(!f.label(Lang::En).is_empty() && !f.label(Lang::Zh).is_empty());
            assert_ne!(f.label(Lang::En), f.label(Lang::Zh));
        }
    }
}

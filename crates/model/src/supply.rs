//! Supply risk: how likely the compute is late, cut off or dearer, as a
//! distribution the simulation draws from and as a readable score.
//!
//! The score's weights are Suanli's ASSUMPTIONS (stated in
//! `docs/analytics.md`), not measured data; the drivers show what moved it.

use crate::scenario::{ExportStatus, Stability, Supply};

/// One contribution to the score.
#[derive(Debug, Clone, PartialEq)]
pub struct Driver {
    /// Which driver: `lead_time`, `lead_time_spread`, `export_status`,
    /// `export_change`, `concentration`, `stability` or `spot`.
    pub key: &'static str,
    /// Its points of the score.
    pub points: f64,
}

impl Driver {
    /// The driver's name in `lang`.
    pub fn label(&self, lang: crate::Lang) -> &'static str {
        let zh = lang == crate::Lang::Zh;
        match (self.key, zh) {
            ("lead_time", false) => "long lead time",
            ("lead_time", true) => "交付周期长",
            ("lead_time_spread", false) => "uncertain lead time",
            ("lead_time_spread", true) => "交付周期不确定",
            ("export_status", false) => "export-control status",
            ("export_status", true) => "出口管制状态",
            ("export_change", false) => "chance export rules change",
            ("export_change", true) => "出口规则变化的可能",
            ("concentration", false) => "one vendor or channel",
            ("concentration", true) => "依赖单一厂商或渠道",
            ("stability", false) => "long-term supply stability",
            ("stability", true) => "长期供货稳定性",
            ("spot", false) => "reliance on spot capacity",
            ("spot", true) => "依赖竞价资源",
            (_, false) => "other",
            (_, true) => "其他",
        }
    }
}

/// A 0–100 score (100 = worst) with its drivers, largest first.
#[derive(Debug, Clone, PartialEq)]
pub struct SupplyScore {
    /// The drivers' points summed: 0–100, 100 the worst.
    pub score: f64,
    /// The drivers with points, largest first.
    pub drivers: Vec<Driver>,
}

/// Points of each driver. Weights (assumptions): lead time 20 + spread 10,
/// export status 25 + change probability 15, concentration 10,
/// stability 10, spot reliance 10.
pub fn score(s: &Supply, spot_availability: Option<f64>) -> SupplyScore {
    let mut drivers = Vec::new();
    if let Some([low, mode, high]) = s.lead_time_months {
        drivers.push(Driver { key: "lead_time", points: 20.0 * (mode / 12.0).clamp(0.0, 1.0) });
        drivers.push(Driver { key: "lead_time_spread", points: 10.0 * ((high - low) / mode.max(1.0)).clamp(0.0, 1.0) });
    }
    let status = match s.export_status {
        Some(ExportStatus::Banned) => 1.0,
        Some(ExportStatus::LicenceRequired) => 0.8,
        Some(ExportStatus::ChinaOnlyVariant) => 0.5,
        Some(ExportStatus::Unknown) | None => 0.4,
        Some(ExportStatus::Domestic) => 0.1,
        Some(ExportStatus::Unrestricted) => 0.0,
    };
    drivers.push(Driver { key: "export_status", points: 25.0 * status });
    drivers.push(Driver { key: "export_change", points: 15.0 * s.export_change_probability.clamp(0.0, 1.0) });
    drivers.push(Driver { key: "concentration", points: 10.0 * s.vendor_concentration.clamp(0.0, 1.0) });
    let stability = match s.stability {
        Stability::Stable => 0.0,
        Stability::Uncertain => 0.5,
        Stability::Fragile => 1.0,
    };
    drivers.push(Driver { key: "stability", points: 10.0 * stability });
    if let Some(a) = spot_availability {
        drivers.push(Driver { key: "spot", points: 10.0 * (1.0 - a).clamp(0.0, 1.0) });
    }
    drivers.retain(|d| d.points > 0.0);
    drivers.sort_by(|a, b| b.points.total_cmp(&a.points));
    SupplyScore { score: drivers.iter().map(|d| d.points).sum(), drivers }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn score_adds_up_its_drivers() {
        let s = Supply {
            lead_time_months: Some([2.0, 4.0, 8.0]),
            export_status: Some(ExportStatus::LicenceRequired),
            export_change_probability: 0.2,
            export_change_delay_months: 6.0,
            export_change_extra_cost_share: 0.3,
            vendor_concentration: 1.0,
            stability: Stability::Uncertain,
        };
        // 20 × 4/12 = 6.67; 10 × min(1, 6/4) = 10; 25 × 0.8 = 20; 15 × 0.2 = 3; 10; 5.
        let r = score(&s, None);
        assert!((r.score - (20.0 * 4.0 / 12.0 + 10.0 + 20.0 + 3.0 + 10.0 + 5.0)).abs() < 1e-9);
        assert_eq!(r.drivers[0].key, "export_status");
    }
}

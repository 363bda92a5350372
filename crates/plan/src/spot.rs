//! What spot interruptions cost a synchronous job. When any node of a
//! job that runs in lock step is taken back, every node stops: the work
//! since the last checkpoint is lost and the job waits to restart. With
//! interruptions arriving at `k × λ` for `k` nodes, checkpoints every `τ`
//! hours and a restart of `R` hours, a segment of `τ` hours of work takes
//! `(1/(kλ) + R)(e^{kλτ} − 1)` hours on average (the classic result for
//! restart after failures at a Poisson rate), so the share of work redone
//! grows with the cluster and faster than linearly.

use serde::{Deserialize, Serialize};
use suanli_model::{HOURS_PER_MONTH, InputError, Lang, Rule};

/// The inputs of the spot model; each default is sourced or an assumption.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct SpotAssumptions {
    /// Interruptions per node per month.
    pub interruptions_per_node_month: f64,
    /// Hours between checkpoints.
    pub checkpoint_interval_hours: f64,
    /// Hours from an interruption until the whole job runs again
    /// (replacement capacity, start-up, loading the checkpoint).
    pub restart_hours: f64,
}

/// AWS publishes each spot instance type's interruption frequency over the
/// trailing month in bands `<5 %`, `5–10 %`, …, `>20 %` (provider-prices
/// S11); no band for a GPU type is in the sources, so the floor of the
/// highest band is assumed.
pub const DEFAULT_INTERRUPTIONS_PER_NODE_MONTH: f64 = 0.20;
/// Assumption: an hourly checkpoint, as large training runs commonly write.
pub const DEFAULT_CHECKPOINT_INTERVAL_HOURS: f64 = 1.0;
/// Assumption: an hour to get capacity back and reload the checkpoint.
pub const DEFAULT_RESTART_HOURS: f64 = 1.0;
/// Past this share of work redone, spot is listed apart: the job spends
/// more time recovering than a fair discount pays for.
pub const MAX_OVERHEAD: f64 = 1.0;

impl Default for SpotAssumptions {
    fn default() -> Self {
        SpotAssumptions {
            interruptions_per_node_month: DEFAULT_INTERRUPTIONS_PER_NODE_MONTH,
            checkpoint_interval_hours: DEFAULT_CHECKPOINT_INTERVAL_HOURS,
            restart_hours: DEFAULT_RESTART_HOURS,
        }
    }
}

impl SpotAssumptions {
    /// Every figure that breaks a rule, named.
    pub fn check(&self) -> Vec<InputError> {
        let mut errors = Vec::new();
        for (field, v, positive) in [
            ("interruptions_per_node_month", self.interruptions_per_node_month, false),
            ("checkpoint_interval_hours", self.checkpoint_interval_hours, true),
            ("restart_hours", self.restart_hours, false),
        ] {
            let path = format!("constraints.spot.{field}");
            if !v.is_finite() {
                errors.push(InputError::new(path, v, Rule::NotFinite));
            } else if v < 0.0 || (positive && v == 0.0) {
                errors.push(InputError::new(path, v, if positive { Rule::NotPositive } else { Rule::Negative }));
            }
        }
        errors
    }

    /// Share of the work redone on `nodes` nodes running in lock step
    /// (0.05 = 5 % more node-hours for the same work).
    pub fn overhead(&self, nodes: u32) -> f64 {
        let rate = f64::from(nodes) * self.interruptions_per_node_month / HOURS_PER_MONTH;
        let tau = self.checkpoint_interval_hours;
        if rate <= 0.0 {
            return 0.0;
        }
        (1.0 / rate + self.restart_hours) * (rate * tau).exp_m1() / tau - 1.0
    }

    /// How the overhead was found, for a reader.
    pub fn describe(&self, nodes: u32, lang: Lang) -> String {
        let pct = suanli_model::format_percent(self.overhead(nodes), 1);
        let rate = self.interruptions_per_node_month;
        match lang {
            Lang::En => format!(
                "{pct} of the work redone: {nodes} nodes in lock step, each interrupted {rate} times a month \
                 (the floor of AWS's highest published band, an assumption), a checkpoint every {} h and {} h to restart",
                self.checkpoint_interval_hours, self.restart_hours
            ),
            Lang::Zh => format!(
                "约 {pct} 的工作需重做：{nodes} 个节点同步运行，每个节点每月中断 {rate} 次（取 AWS 公布最高档的下限，属假设），每 {} 小时一个检查点，重启需 {} 小时",
                self.checkpoint_interval_hours, self.restart_hours
            ),
        }
    }
}

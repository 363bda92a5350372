//! What an evaluation returns. Plain data: the API crate shapes it for
//! JSON, the report crate for paper. Only the closed vocabulary it names
//! (`Category`) is serialised, as its keys.

use serde::Serialize;

use crate::money::Currency;
pub use crate::monthly::{Month, Monthly};
use crate::scenario::OptionKind;

/// Cost categories of the breakdown. Cash view: capex when paid, the
/// residual value as a credit at the horizon. Serialised as its [`Category::key`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub enum Category {
    /// Servers, accelerators, network and storage equipment.
    Hardware,
    /// Installation of owned servers, one-off.
    Installation,
    /// Colocation per provisioned kW.
    Hosting,
    /// Electricity of owned servers, PUE included.
    Power,
    /// Staff running owned servers.
    Staff,
    /// Maintenance of owned hardware: a yearly share of its capex.
    Maintenance,
    /// Other yearly running costs of owned servers.
    OtherOpex,
    /// Book or resale value at the horizon (negative: money back).
    ResidualValue,
    /// On-demand rental.
    OnDemand,
    /// Reserved (committed) rental, paid whether used or not.
    Reserved,
    /// Spot rental, interruption waste included.
    Spot,
    /// Storing the data set (object or attached storage).
    Storage,
    /// Bandwidth to ship edge data to the central cloud.
    EdgeBandwidth,
    /// Running the edge sites that compute features.
    EdgeSites,
    /// Engineer time to port the workload off CUDA.
    Porting,
    /// Upkeep of the port once it runs.
    PortingMaintenance,
    /// Demand served by the incumbent while the port is under way.
    Bridge,
}

impl Category {
    /// Every category, in breakdown order.
    pub const ALL: [Category; 17] = [
        Category::Hardware,
        Category::Installation,
        Category::Hosting,
        Category::Power,
        Category::Staff,
        Category::Maintenance,
        Category::OtherOpex,
        Category::ResidualValue,
        Category::OnDemand,
        Category::Reserved,
        Category::Spot,
        Category::Storage,
        Category::EdgeBandwidth,
        Category::EdgeSites,
        Category::Porting,
        Category::PortingMaintenance,
        Category::Bridge,
    ];

    /// The number of categories.
    pub const COUNT: usize = Category::ALL.len();

    /// Stable machine name (JSON keys, spreadsheet headers).
    pub fn key(self) -> &'static str {
        match self {
            Category::Hardware => "hardware",
            Category::Installation => "installation",
            Category::Hosting => "hosting",
            Category::Power => "power",
            Category::Staff => "staff",
            Category::Maintenance => "maintenance",
            Category::OtherOpex => "other_opex",
            Category::ResidualValue => "residual_value",
            Category::OnDemand => "on_demand",
            Category::Reserved => "reserved",
            Category::Spot => "spot",
            Category::Storage => "storage",
            Category::EdgeBandwidth => "edge_bandwidth",
            Category::EdgeSites => "edge_sites",
            Category::Porting => "porting",
            Category::PortingMaintenance => "porting_maintenance",
            Category::Bridge => "bridge",
        }
    }

    /// The category's name in `lang`.
    pub fn label(self, lang: crate::Lang) -> &'static str {
        let (en, zh) = match self {
            Category::Hardware => ("Hardware", "硬件"),
            Category::Installation => ("Installation", "安装部署"),
            Category::Hosting => ("Hosting", "机房托管"),
            Category::Power => ("Power", "电费"),
            Category::Staff => ("Staff", "运维人员"),
            Category::Maintenance => ("Maintenance", "维保"),
            Category::OtherOpex => ("Other running costs", "其他运营费用"),
            Category::ResidualValue => ("Residual value", "残值"),
            Category::OnDemand => ("On-demand rental", "按需租用"),
            Category::Reserved => ("Reserved rental", "预留实例"),
            Category::Spot => ("Spot rental", "竞价实例"),
            Category::Storage => ("Storage", "存储"),
            Category::EdgeBandwidth => ("Edge bandwidth", "边缘带宽"),
            Category::EdgeSites => ("Edge sites", "边缘节点"),
            Category::Porting => ("Porting off CUDA", "CUDA 迁移"),
            Category::PortingMaintenance => ("Port upkeep", "迁移后维护"),
            Category::Bridge => ("Incumbent during the port", "迁移期间沿用现有算力"),
        };
        match lang {
            crate::Lang::En => en,
            crate::Lang::Zh => zh,
        }
    }

    /// What the effective price per reference-GPU-hour counts: compute on
    /// the option's own accelerators. Storage and edge lines are not
    /// compute; porting, its upkeep and the incumbent bridging the port are
    /// shown beside the effective price ("before porting cost", as the
    /// domain brief puts it), and in the all-in cost.
    pub fn is_compute(self) -> bool {
        !matches!(
            self,
            Category::Storage
                | Category::EdgeBandwidth
                | Category::EdgeSites
                | Category::Porting
                | Category::PortingMaintenance
                | Category::Bridge
        )
    }

    pub(crate) fn index(self) -> usize {
        self as usize
    }
}

/// Whether and when an option becomes cheaper than its cheapest rival.
#[derive(Debug, Clone, PartialEq)]
pub struct BreakEven {
    /// Id of the cheapest other option (by nominal total).
    pub against: String,
    /// First month (1-based) from which this option's cumulative cost
    /// stays at or below the rival's to the horizon; `None` if it never
    /// does within the horizon.
    pub month: Option<u32>,
}

/// The result for one option, every amount in the scenario currency and
/// unrounded (round with [`crate::round_money`] where it is reported).
#[derive(Debug, Clone, PartialEq)]
pub struct OptionResult {
    /// The option's id.
    pub id: String,
    /// The option's label; its id when it has none.
    pub label: String,
    /// Buy, rent or mix.
    pub kind: OptionKind,
    /// The scenario currency every amount is in.
    pub currency: Currency,
    /// Sum of every month's cash flows (the residual value credited).
    pub total_nominal: f64,
    /// The same cash flows discounted to today at the scenario's rate.
    pub total_npv: f64,
    /// Cash flows per month (index 0 = the first month) and category.
    pub monthly: Monthly,
    /// Useful work delivered, reference-GPU-hours.
    pub ref_gpu_hours_served: f64,
    /// Demand the option could not serve (no capacity, no overflow).
    pub ref_gpu_hours_unserved: f64,
    /// Accelerator-hours run, interruption waste included.
    pub accelerator_hours: f64,
    /// Compute cost on the option's own accelerators ÷ the useful
    /// reference-GPU-hours they delivered; `None` when they delivered none.
    pub effective_price_per_ref_gpu_hour: Option<f64>,
    /// Everything (porting, bridge, storage, edge included) ÷ all useful
    /// reference-GPU-hours served.
    pub all_in_per_ref_gpu_hour: Option<f64>,
    /// Busy share of owned accelerator-hours after delivery.
    pub owned_utilisation: Option<f64>,
    /// Electricity the owned servers draw over the horizon, kWh at the
    /// meter (PUE included); `None` without owned servers. Rented capacity's
    /// energy is in the provider's price, not metered here.
    pub owned_energy_kwh: Option<f64>,
    /// Months from today until a job's result, lead time included
    /// (extrapolated past the horizon when it does not finish within it).
    pub time_to_complete_months: Option<f64>,
    /// For a job: whether it finishes within the horizon; `None` for other demand.
    pub completes_within_horizon: Option<bool>,
    /// For a job with a deadline: whether its result comes by then.
    pub meets_deadline: Option<bool>,
    /// Break-even against the cheapest other option (by nominal total) that does
    /// all the work; `None` when there is none.
    pub break_even: Option<BreakEven>,
    /// Latency of the edge architecture, when the option has an edge line.
    pub latency_ms: Option<f64>,
    /// Things a reader must know about this figure.
    pub notes: Vec<Note>,
    /// Porting off CUDA, when the option has it.
    pub porting: Option<crate::porting::PortingResult>,
    /// Supply-risk score, when the option states its supply facts.
    pub supply: Option<crate::supply::SupplyScore>,
    /// Whether the model fits the option's accelerators, when the scenario
    /// states the model and the option its accelerators' memory.
    pub memory_fit: Option<MemoryFit>,
    /// Compute cost per million output tokens served (inference demand).
    pub cost_per_million_tokens: Option<f64>,
    /// The accelerators the option is costed on.
    pub fleet: Fleet,
}

/// The accelerators an option is costed on: what the engine ran, not what
/// the option's label says.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Fleet {
    /// Most accelerators held or running at once: the owned or committed
    /// fleet plus the rentals of the busiest time slice.
    pub peak_accelerators: f64,
    /// Accelerator-hours run ÷ the hours of the months it runs.
    pub average_accelerators: f64,
    /// Months in which the option runs the workload (a job: from its
    /// start to its result, within the horizon).
    pub months: f64,
    /// Accelerator-hours run, interruption waste included.
    pub accelerator_hours: f64,
    /// Servers bought, for an option that owns servers.
    pub servers: Option<u32>,
    /// Accelerators one job or serving replica runs on.
    pub per_replica: u32,
}

impl Fleet {
    /// Replicas (or job clusters) at the peak: the peak over the
    /// accelerators one runs on, rounded up.
    pub fn replicas(&self) -> u32 {
        if self.per_replica == 0 {
            return 0;
        }
        (self.peak_accelerators / f64::from(self.per_replica) - 1e-9).ceil().max(0.0) as u32
    }
}

/// The model against an option's accelerators.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MemoryFit {
    /// Fewest accelerators that hold it (`None`: no count does, with this sharding).
    pub min_accelerators: Option<u32>,
    /// Accelerators the option runs one job or replica on.
    pub available: u32,
    /// Memory of one accelerator, GB.
    pub memory_gb_per_accelerator: f64,
}

impl MemoryFit {
    /// Whether the model fits: some count holds it, and the option runs it on at least that many.
    pub fn fits(&self) -> bool {
        self.min_accelerators.is_some_and(|n| n <= self.available)
    }
}

/// Work an option does not deliver within the horizon.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Shortfall {
    /// Reference-GPU-hours of the demand left undone.
    pub ref_gpu_hours: f64,
    /// Share of the demand it does deliver (0.91 = 91 %).
    pub done_share: f64,
}

/// Below this share of the demand, unserved work is rounding, not a shortfall.
const SHORTFALL_TOLERANCE: f64 = 1e-6;

impl OptionResult {
    /// The work this option leaves undone, when there is any: such an option
    /// is ranked apart from the ones that do all of it, never as cheapest
    /// (doing less work costs less).
    pub fn shortfall(&self) -> Option<Shortfall> {
        let demand = self.ref_gpu_hours_served + self.ref_gpu_hours_unserved;
        (self.ref_gpu_hours_unserved > SHORTFALL_TOLERANCE * demand.max(1.0)).then(|| Shortfall {
            ref_gpu_hours: self.ref_gpu_hours_unserved,
            done_share: if demand > 0.0 { self.ref_gpu_hours_served / demand } else { 0.0 },
        })
    }

    /// Whether the option is ranked apart from those that can do the work:
    /// it leaves some undone, or its accelerators cannot hold the model.
    pub fn ranked_apart(&self) -> bool {
        self.shortfall().is_some() || self.memory_fit.is_some_and(|f| !f.fits())
    }

    /// Total of one category over the horizon.
    pub fn breakdown(&self, category: Category) -> f64 {
        self.monthly.iter().map(|m| m.get(category)).sum()
    }

    /// Cumulative nominal cost at the end of each month.
    pub fn cumulative(&self) -> Vec<f64> {
        let mut sum = 0.0;
        self.monthly
            .totals()
            .map(|total| {
                sum += total;
                sum
            })
            .collect()
    }
}

/// A caveat attached to one option's result.
#[derive(Debug, Clone, PartialEq)]
pub enum Note {
    /// The job does not finish within the horizon.
    JobNotDone,
    /// Demand the option had no capacity for.
    Unserved {
        /// Reference-GPU-hours left unserved.
        ref_gpu_hours: f64,
    },
    /// The last reserved term runs past the horizon; those months are not counted.
    ReservedBeyondHorizon {
        /// Months of the commitment past the horizon.
        months: u32,
    },
    /// The owned servers arrive after the horizon.
    DeliveredAfterHorizon,
    /// The model does not fit the accelerators the option runs it on.
    DoesNotFit {
        /// Fewest accelerators that hold it (`None`: no count does, with this sharding).
        min_accelerators: Option<u32>,
        /// Accelerators the option runs one job or replica on.
        available: u32,
        /// Memory of one accelerator, GB.
        memory_gb: f64,
    },
    /// The option names an accelerator other than the reference GPU and no
    /// efficiency ratio, and none was looked up in a catalogue: the default,
    /// 1 (the reference GPU's), was used.
    DefaultRatio {
        /// The accelerator the option names.
        accelerator: String,
        /// The ratio used.
        ratio: f64,
    },
    /// The option leaves part of the work undone: ranked apart, never cheapest.
    RankedApart {
        /// Share of the demand it does, 0..1.
        done_share: f64,
        /// Reference-GPU-hours it leaves undone.
        ref_gpu_hours: f64,
    },
}

impl Note {
    /// The note as a sentence in `lang`.
    pub fn describe(&self, lang: crate::Lang) -> String {
        let zh = lang == crate::Lang::Zh;
        match self {
            Note::JobNotDone => if zh {
                "任务在评估期内无法完成；完成时间为外推值"
            } else {
                "the job does not finish within the horizon; its completion time is extrapolated"
            }
            .to_owned(),
            Note::Unserved { ref_gpu_hours } => {
                if zh {
                    format!("有 {ref_gpu_hours:.0} 参考卡时的需求无可用算力承接")
                } else {
                    format!("{ref_gpu_hours:.0} reference-GPU-hours of demand found no capacity")
                }
            }
            Note::ReservedBeyondHorizon { months } => {
                if zh {
                    format!("最后一个预留期超出评估期 {months} 个月，超出部分未计入")
                } else {
                    format!(
                        "the last reserved term runs {months} months past the horizon; those months are not counted"
                    )
                }
            }
            Note::DoesNotFit { min_accelerators, available, memory_gb } => match (min_accelerators, lang) {
                (Some(n), crate::Lang::En) => format!(
                    "the model does not fit: it needs at least {n} accelerators of {memory_gb} GB, the option runs it on {available}"
                ),
                (Some(n), crate::Lang::Zh) => {
                    format!("模型放不下：至少需要 {n} 张 {memory_gb} GB 的加速卡，该方案只用 {available} 张")
                }
                (None, crate::Lang::En) => {
                    format!("the model does not fit {memory_gb} GB accelerators at any count with this sharding")
                }
                (None, crate::Lang::Zh) => format!("按当前切分方式，任何数量的 {memory_gb} GB 加速卡都放不下该模型"),
            },
            Note::DeliveredAfterHorizon => {
                lang.pick("the servers arrive after the horizon", "服务器在评估期结束后才到货").to_owned()
            }
            Note::DefaultRatio { accelerator, ratio } => {
                if zh {
                    format!("未给出 {accelerator} 的效率系数，也未查询目录：按默认值 {ratio}（与参考卡相同）计算")
                } else {
                    format!(
                        "no efficiency ratio for {accelerator} was stated or looked up in a catalogue: the default {ratio} (the reference GPU's) was used"
                    )
                }
            }
            Note::RankedApart { done_share, ref_gpu_hours } => {
                let done = crate::format_percent(*done_share, 0);
                let short = crate::money::group_thousands(*ref_gpu_hours, 0);
                if zh {
                    format!("评估期内只完成 {done} 的工作量，差 {short} 参考卡时；不参与最低成本比较")
                } else {
                    format!(
                        "does {done} of the work within the horizon, {short} reference-GPU-hours short: ranked apart, never as the cheapest"
                    )
                }
            }
        }
    }
}

/// All options of a scenario, evaluated.
#[derive(Debug, Clone, PartialEq)]
pub struct Evaluation {
    /// The scenario's name.
    pub scenario_name: String,
    /// The currency every amount is in.
    pub currency: Currency,
    /// Length of the comparison, months.
    pub horizon_months: u32,
    /// Reference-GPU-hours the demand asks for over the horizon (for a
    /// job: the job's work).
    pub demand_ref_gpu_hours: f64,
    /// One result per option, in the scenario's order.
    pub options: Vec<OptionResult>,
}

impl Evaluation {
    /// The options that can do all the work (see [`OptionResult::ranked_apart`]).
    pub fn complete(&self) -> impl Iterator<Item = &OptionResult> {
        self.options.iter().filter(|o| !o.ranked_apart())
    }

    /// The options that leave part of the work undone, with their shortfall.
    pub fn short(&self) -> impl Iterator<Item = (&OptionResult, Shortfall)> {
        self.options.iter().filter_map(|o| o.shortfall().map(|s| (o, s)))
    }

    /// Every option, best first: the ones that can do all the work by NPV,
    /// then those ranked apart (by NPV too). What a recommendation ranks.
    pub fn ranked_by_npv(&self) -> Vec<&OptionResult> {
        let mut ranked: Vec<&OptionResult> = self.options.iter().collect();
        ranked.sort_by(|a, b| (a.ranked_apart().cmp(&b.ranked_apart())).then(a.total_npv.total_cmp(&b.total_npv)));
        ranked
    }

    /// Of the options that do all the work, the one with the lowest nominal
    /// total; `None` when none does.
    pub fn cheapest_nominal(&self) -> Option<&OptionResult> {
        self.complete().min_by(|a, b| a.total_nominal.total_cmp(&b.total_nominal))
    }

    /// Of the options that do all the work, the one with the lowest NPV.
    pub fn cheapest_npv(&self) -> Option<&OptionResult> {
        self.complete().min_by(|a, b| a.total_npv.total_cmp(&b.total_npv))
    }

    /// The result of the option with this id.
    pub fn option(&self, id: &str) -> Option<&OptionResult> {
        self.options.iter().find(|o| o.id == id)
    }
}

#[cfg(test)]
mod tests {
    use super::Category;

    #[test]
    fn a_category_serialises_as_its_key() {
        for c in Category::ALL {
            assert_eq!(serde_json::to_value(c).unwrap(), serde_json::json!(c.key()));
        }
    }
}

//! The cluster an offer becomes for a demand: how many nodes, over which
//! fabric, with what scaling efficiency, and whether it can be built at
//! all. One rule: a run that needs more accelerators than one node holds
//! needs a network between nodes that a source states; without one, the
//! instance stands alone.

use serde::Serialize;
use suanli_catalog::{Accelerator, MultiNode, Node, ScaleOut, ScaleUp, ScalingPoint};
use suanli_model::Lang;

/// Scaling efficiency is never taken below this (a fit far past its points).
const FLOOR: f64 = 0.3;

/// The measured point that stands for a cluster whose fabric was not
/// tuned: the article's 200 cards before hierarchical NVLink + RDMA.
const UNTUNED_POINTS: [&str; 1] = ["scale-article-200-cards-before"];

/// How nodes reach each other, as far as scaling goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub enum FabricClass {
    /// InfiniBand, RoCE, EFA or GPUDirect-TCPX: accelerator memory moves without the CPU.
    Rdma,
    /// Ethernet without RDMA, or a fabric not tuned for training.
    Ethernet,
}

/// Scaling efficiency `1 − loss × log2(accelerators ÷ per node)` for one
/// fabric class, fitted through the origin on measured multi-node points.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ScalingFit {
    /// The class.
    pub class: FabricClass,
    /// Efficiency lost per doubling of nodes.
    pub loss_per_doubling: f64,
    /// The points it was fitted on, with the fit's error at each.
    pub points: Vec<FitPoint>,
}

/// One measured point of a fit.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct FitPoint {
    /// The scaling row (`scaling.csv`).
    pub id: String,
    /// What was run.
    pub setup: String,
    /// Accelerators at the measured scale.
    pub accelerators: f64,
    /// The measured efficiency.
    pub measured: f64,
    /// The fit's efficiency there.
    pub fitted: f64,
    /// The fit's efficiency there when the point itself is left out.
    pub left_out: Option<f64>,
}

/// Both fits: what the cluster model scales by.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ScalingModel {
    /// Clusters on an RDMA fabric.
    pub rdma: ScalingFit,
    /// Clusters on plain Ethernet.
    pub ethernet: ScalingFit,
    /// Accelerators one node of the measured runs holds (their baseline).
    pub node_accelerators: f64,
}

/// The baseline of the measured runs: one eight-accelerator node.
const MEASURED_NODE: f64 = 8.0;

impl ScalingModel {
    /// Fits both classes on the catalogue's multi-node points.
    pub fn calibrate(points: &[ScalingPoint]) -> ScalingModel {
        let multi: Vec<&ScalingPoint> =
            points.iter().filter(|p| p.accelerators.is_some_and(|n| n > MEASURED_NODE)).collect();
        let (untuned, tuned): (Vec<&ScalingPoint>, Vec<&ScalingPoint>) =
            multi.into_iter().partition(|p| UNTUNED_POINTS.contains(&p.id.as_str()));
        ScalingModel {
            rdma: fit(FabricClass::Rdma, &tuned),
            ethernet: fit(FabricClass::Ethernet, &untuned),
            node_accelerators: MEASURED_NODE,
        }
    }

    /// Scaling efficiency of `accelerators` spread over nodes of `per_node`.
    pub fn efficiency(&self, class: FabricClass, accelerators: u32, per_node: u32) -> f64 {
        let doublings = (f64::from(accelerators) / f64::from(per_node.max(1))).log2();
        if doublings <= 0.0 {
            return 1.0;
        }
        let loss = match class {
            FabricClass::Rdma => self.rdma.loss_per_doubling,
            FabricClass::Ethernet => self.ethernet.loss_per_doubling,
        };
        (1.0 - loss * doublings).max(FLOOR)
    }
}

fn doublings(p: &ScalingPoint) -> f64 {
    (p.accelerators.unwrap_or(MEASURED_NODE) / MEASURED_NODE).log2()
}

/// Least squares through the origin of lost efficiency on doublings.
fn slope(points: &[&ScalingPoint]) -> f64 {
    let (xy, xx) = points.iter().fold((0.0, 0.0), |(xy, xx), p| {
        let x = doublings(p);
        (xy + x * (1.0 - p.efficiency), xx + x * x)
    });
    if xx > 0.0 { xy / xx } else { 0.0 }
}

fn fit(class: FabricClass, points: &[&ScalingPoint]) -> ScalingFit {
    let loss = slope(points);
    let at = |loss: f64, p: &ScalingPoint| (1.0 - loss * doublings(p)).max(FLOOR);
    let fitted = points
        .iter()
        .map(|p| {
            let others: Vec<&ScalingPoint> = points.iter().copied().filter(|q| q.id != p.id).collect();
            FitPoint {
                id: p.id.clone(),
                setup: p.setup.clone(),
                accelerators: p.accelerators.unwrap_or(MEASURED_NODE),
                measured: p.efficiency,
                fitted: at(loss, p),
                left_out: (!others.is_empty()).then(|| at(slope(&others), p)),
            }
        })
        .collect();
    ScalingFit { class, loss_per_doubling: loss, points: fitted }
}

/// The accelerators per node an offer's instance holds, when a source says.
pub fn per_node(node: Option<&Node>, per_instance: Option<f64>) -> Option<u32> {
    node.and_then(|n| n.accelerators_per_node).or(per_instance).filter(|n| *n >= 1.0).map(|n| n.round() as u32)
}

/// Whether an accelerator is a consumer part: NVIDIA's GeForce cards
/// (no NVLink or peer-to-peer on recent parts; NVIDIA's driver licence
/// restricts their use in data centres).
pub fn consumer(a: &Accelerator) -> bool {
    a.name.starts_with("GeForce")
}

/// Why an offer cannot be the cluster a demand needs.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(rename_all = "snake_case", tag = "reason")]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub enum NotFeasible {
    /// No source states how many accelerators one node holds, so nodes cannot be counted.
    NodeSizeNotStated,
    /// More than one node and no source states a network between nodes.
    NoScaleOut,
    /// The provider says it sells the instance only on its own.
    NotSoldInClusters,
    /// The provider's stated cluster size is below what is needed.
    CapacityBelow {
        /// Accelerators the provider's clusters go up to.
        capacity: u32,
    },
    /// A consumer card across several nodes, which the user did not allow.
    ConsumerCard,
    /// Spot on this many nodes redoes more work than its discount pays for.
    SpotDoesNotPay {
        /// Share of the work redone.
        overhead: f64,
    },
}

impl NotFeasible {
    /// The reason in the reader's language.
    pub fn describe(self, cluster: &Cluster, lang: Lang) -> String {
        let (n, nodes) = (cluster.accelerators, cluster.nodes);
        match (self, lang) {
            (NotFeasible::NodeSizeNotStated, Lang::En) => {
                format!("needs {n} accelerators, and no source states how many one node holds")
            }
            (NotFeasible::NodeSizeNotStated, Lang::Zh) => format!("需要 {n} 张加速卡，但没有来源说明单节点卡数"),
            (NotFeasible::NoScaleOut, Lang::En) => {
                format!("needs {nodes} nodes for {n} accelerators, and no source states a network between its nodes")
            }
            (NotFeasible::NoScaleOut, Lang::Zh) => {
                format!("{n} 张加速卡需要 {nodes} 个节点，但没有来源说明其节点间网络")
            }
            (NotFeasible::NotSoldInClusters, Lang::En) => "the provider sells it only as a single node".into(),
            (NotFeasible::NotSoldInClusters, Lang::Zh) => "提供商只单节点出售".into(),
            (NotFeasible::CapacityBelow { capacity }, Lang::En) => {
                format!("the provider's clusters go up to {capacity} accelerators; {n} are needed")
            }
            (NotFeasible::CapacityBelow { capacity }, Lang::Zh) => {
                format!("提供商的集群最多 {capacity} 张加速卡，需要 {n} 张")
            }
            (NotFeasible::ConsumerCard, Lang::En) => format!(
                "a consumer card across {nodes} nodes: no NVLink or peer-to-peer, and NVIDIA's driver licence restricts data-centre use (allow with --allow-consumer-clusters)"
            ),
            (NotFeasible::ConsumerCard, Lang::Zh) => format!(
                "消费级显卡跨 {nodes} 个节点：无 NVLink 或点对点互联，且 NVIDIA 驱动许可限制数据中心使用（可用 --allow-consumer-clusters 放开）"
            ),
            (NotFeasible::SpotDoesNotPay { overhead }, Lang::En) => format!(
                "spot on {nodes} nodes in lock step redoes {} of the work: dearer than on demand",
                suanli_model::format_percent(overhead, 0)
            ),
            (NotFeasible::SpotDoesNotPay { overhead }, Lang::Zh) => format!(
                "{nodes} 个节点同步运行的竞价实例需重做 {} 的工作，比按需更贵",
                suanli_model::format_percent(overhead, 0)
            ),
        }
    }
}

/// Where a cluster's scaling efficiency comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub enum ScalingBasis {
    /// One node: no scaling across nodes.
    OneNode,
    /// The fit for the fabric the source states.
    Fitted,
    /// Servers the buyer networks: the fit for an RDMA fabric the buyer builds.
    BuyerFabric,
    /// A cluster a source states, its network not: the fit for an untuned fabric.
    NetworkNotStated,
}

/// The cluster one offer becomes.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct Cluster {
    /// Accelerators one run needs.
    pub accelerators: u32,
    /// Accelerators in one node (1 when no source says).
    pub per_node: u32,
    /// Whether a source states the accelerators in one node.
    pub per_node_stated: bool,
    /// Nodes one run needs.
    pub nodes: u32,
    /// How a node's accelerators reach each other.
    pub scale_up: ScaleUp,
    /// The network between nodes.
    pub scale_out: ScaleOut,
    /// That network's bandwidth per node, Gbit/s, when stated.
    pub scale_out_gbps: Option<f64>,
    /// Whether the provider sells clusters of it.
    pub multi_node: MultiNode,
    /// The largest cluster the provider states, in accelerators.
    pub capacity: Option<u32>,
    /// Share of per-accelerator throughput kept across the nodes.
    pub scaling_efficiency: f64,
    /// Where that share comes from.
    pub scaling_basis: ScalingBasis,
    /// The node facts' source ids; `None` when the catalogue has none.
    pub source: Option<String>,
}

impl Cluster {
    /// The cluster for `accelerators` on an offer's node. `owned`: servers
    /// the buyer runs and networks.
    pub fn of(
        node: Option<&Node>,
        per_instance: Option<f64>,
        accelerators: u32,
        owned: bool,
        model: &ScalingModel,
    ) -> Cluster {
        let stated = per_node(node, per_instance);
        let per_node = stated.unwrap_or(1);
        let nodes = accelerators.div_ceil(per_node).max(1);
        let scale_out = node.map_or(ScaleOut::NotStated, |n| n.scale_out);
        let sold = node.is_some_and(|n| n.multi_node == MultiNode::Sold);
        let (class, basis) = match (nodes, scale_out, owned) {
            (1, _, _) => (None, ScalingBasis::OneNode),
            (_, ScaleOut::NotStated, true) => (Some(FabricClass::Rdma), ScalingBasis::BuyerFabric),
            (_, ScaleOut::NotStated, false) if sold => (Some(FabricClass::Ethernet), ScalingBasis::NetworkNotStated),
            (_, out, _) if out.rdma() => (Some(FabricClass::Rdma), ScalingBasis::Fitted),
            _ => (Some(FabricClass::Ethernet), ScalingBasis::Fitted),
        };
        Cluster {
            accelerators,
            per_node,
            per_node_stated: stated.is_some(),
            nodes,
            scale_up: node.map_or(ScaleUp::NotStated, |n| n.scale_up),
            scale_out,
            scale_out_gbps: node.and_then(|n| n.scale_out_gbps),
            multi_node: node.map_or(MultiNode::NotStated, |n| n.multi_node),
            capacity: node.and_then(|n| n.max_cluster_accelerators).map(|c| c.round() as u32),
            scaling_efficiency: class.map_or(1.0, |c| model.efficiency(c, accelerators, per_node)),
            scaling_basis: basis,
            source: node.map(|n| n.source.clone()),
        }
    }

    /// Why it cannot be built, if it cannot. `owned`: the buyer's servers,
    /// whose network the buyer builds.
    pub fn not_feasible(&self, owned: bool, consumer: bool, allow_consumer: bool) -> Option<NotFeasible> {
        if self.nodes <= 1 {
            return None;
        }
        if consumer && !allow_consumer {
            return Some(NotFeasible::ConsumerCard);
        }
        if !self.per_node_stated {
            return Some(NotFeasible::NodeSizeNotStated);
        }
        if owned {
            return None;
        }
        if self.multi_node == MultiNode::NotSold {
            return Some(NotFeasible::NotSoldInClusters);
        }
        if !self.scale_out.stated() && self.multi_node != MultiNode::Sold {
            return Some(NotFeasible::NoScaleOut);
        }
        match self.capacity {
            Some(capacity) if capacity < self.accelerators => Some(NotFeasible::CapacityBelow { capacity }),
            _ => None,
        }
    }

    /// Why it is feasible, for a reader.
    pub fn why(&self, lang: Lang) -> String {
        let eff = suanli_model::format_percent(self.scaling_efficiency, 0);
        let (nodes, per, up, out) = (self.nodes, self.per_node, self.scale_up.label(lang), self.scale_out.label(lang));
        let capacity = match (self.capacity, lang) {
            (Some(c), Lang::En) => format!("; clusters to {c} accelerators stated"),
            (Some(c), Lang::Zh) => format!("；提供商说明集群最多 {c} 张"),
            (None, Lang::En) => "; cluster capacity not stated".into(),
            (None, Lang::Zh) => "；集群规模上限未说明".into(),
        };
        match (self.scaling_basis, lang) {
            (ScalingBasis::OneNode, Lang::En) => format!("fits one node of {per} ({up})"),
            (ScalingBasis::OneNode, Lang::Zh) => format!("单节点 {per} 卡即可（{up}）"),
            (ScalingBasis::Fitted, Lang::En) => {
                format!("{nodes} nodes × {per} over {out}, scaling {eff} (fitted on measured runs){capacity}")
            }
            (ScalingBasis::Fitted, Lang::Zh) => {
                format!("{nodes} 节点 × {per} 卡，经 {out} 互联，扩展效率 {eff}（按实测拟合）{capacity}")
            }
            (ScalingBasis::BuyerFabric, Lang::En) => format!(
                "{nodes} servers × {per} on a fabric the buyer builds (RDMA assumed, not in the server price), scaling {eff}"
            ),
            (ScalingBasis::NetworkNotStated, Lang::En) => format!(
                "{nodes} nodes × {per} in a cluster the source states, its network not stated: scaled as an untuned fabric, {eff}{capacity}"
            ),
            (ScalingBasis::NetworkNotStated, Lang::Zh) => {
                format!("{nodes} 节点 × {per} 卡，来源说明为集群但未说明网络：按未调优网络估算扩展效率 {eff}{capacity}")
            }
            (ScalingBasis::BuyerFabric, Lang::Zh) => {
                format!("{nodes} 台 × {per} 卡，由买方自建网络（假设 RDMA，未计入服务器价格），扩展效率 {eff}")
            }
        }
    }
}

//! From decision to operations: a Kubernetes Job for the chosen option,
//! Prometheus rules that watch its spend against the plan, unit tests for
//! those rules, and a Grafana dashboard.
//!
//! The price per accelerator-hour and, unless one is given, the budget come
//! from the evaluation, so the alerts fire when reality leaves the plan. Device-plugin resource
//! names are those the vendors' plugins register; the ones not confirmed
//! from a vendor's own plugin are marked as such in the generated README.

use serde_json::{Value, json};
use suanli_model::{Evaluation, OptionResult, Scenario};

use crate::yaml::to_yaml;

/// One generated file.
#[derive(Debug, Clone, PartialEq)]
pub struct Artifact {
    /// File name, without a directory (e.g. `job.yaml`).
    pub file: String,
    /// The file's text.
    pub contents: String,
}

/// What the user sets for [`deploy`]; `None` takes Suanli's default where it has one.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct DeploySettings {
    /// Kubernetes namespace of the Job; default `default`.
    pub namespace: Option<String>,
    /// Container image; required where Suanli knows no pinned image.
    pub image: Option<String>,
    /// Device-plugin resource name, for accelerators Suanli has none for.
    pub resource_name: Option<String>,
    /// Monthly budget for the alerts, in the plan's currency; default: the plan's average month.
    pub budget_per_month: Option<f64>,
    /// Project label in the metrics and the dashboard.
    pub project: Option<String>,
}

/// Why [`deploy`] made no artefacts.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum DeployError {
    /// The scenario or its evaluation has no option of this id.
    #[error("no option {0:?} in the scenario")]
    NoSuchOption(String),
    /// No device-plugin resource name is known for this accelerator, and none was given.
    #[error(
        "no device-plugin resource name is known for accelerator {0:?}; pass the one your cluster's device plugin registers (e.g. --resource-name vendor.com/xpu)"
    )]
    UnknownResource(String),
    /// No pinned image is known for this accelerator and runtime, and none was given.
    #[error("no pinned image is known for {0}; pass --image with the runtime image your cluster uses")]
    NoImage(String),
    /// The monthly budget is not a finite number above 0.
    #[error("the budget must be a number above 0, not {0}")]
    Budget(f64),
    /// The option runs no accelerator-hours, so it has no price per accelerator-hour.
    #[error("the option ran no accelerator-hours, so it has no price per accelerator-hour to watch")]
    NoUsage,
    /// A value cannot be made a DNS-1123 label.
    #[error("{field} = {value:?} cannot be made a valid Kubernetes name")]
    Name {
        /// What the value names: `option`, `namespace` or `project`.
        field: &'static str,
        /// The value as given.
        value: String,
    },
}

/// How sure we are of a device-plugin resource name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Confirmed {
    /// The vendor's own device plugin registers it.
    VendorPlugin,
    /// Community schedulers (HAMi, GPUStack …) use it; not checked against the vendor's plugin.
    Community,
    /// Given by the user.
    User,
}

struct Device {
    resource: String,
    confirmed: Confirmed,
    /// Pinned runtime image, where one is known.
    image: Option<&'static str>,
    stack: &'static str,
}

/// The device plugin's resource name and the runtime image per vendor.
fn device(accelerator: &str, settings: &DeploySettings) -> Result<Device, DeployError> {
    let known: &[(&str, &str, Confirmed, Option<&'static str>, &'static str)] = &[
        ("nvidia-", "nvidia.com/gpu", Confirmed::VendorPlugin, Some("nvcr.io/nvidia/pytorch:24.05-py3"), "CUDA"),
        ("huawei-ascend-", "huawei.com/Ascend910", Confirmed::VendorPlugin, None, "CANN"),
        ("cambricon-", "cambricon.com/mlu", Confirmed::VendorPlugin, None, "Neuware"),
        ("hygon-", "hygon.com/dcu", Confirmed::Community, None, "DTK"),
        ("moorethreads-", "mthreads.com/gpu", Confirmed::Community, None, "MUSA"),
        ("metax-", "metax-tech.com/gpu", Confirmed::Community, None, "MACA"),
    ];
    let found = known.iter().find(|(prefix, ..)| accelerator.starts_with(prefix));
    let (resource, confirmed) = match (&settings.resource_name, found) {
        (Some(r), _) => (r.clone(), Confirmed::User),
        (None, Some((_, r, c, ..))) => ((*r).to_owned(), *c),
        (None, None) => return Err(DeployError::UnknownResource(accelerator.to_owned())),
    };
    let (image, stack) = found.map_or((None, "vendor runtime"), |(_, _, _, image, stack)| (*image, *stack));
    Ok(Device { resource, confirmed, image, stack })
}

/// A DNS-1123 label: lowercase letters, digits and '-', at most 63 characters.
pub fn dns_label(field: &'static str, value: &str) -> Result<String, DeployError> {
    let mut out = String::new();
    for ch in value.chars().flat_map(char::to_lowercase) {
        if ch.is_ascii_alphanumeric() {
            out.push(ch);
        } else if !out.ends_with('-') && !out.is_empty() {
            out.push('-');
        }
    }
    let out: String = out.chars().take(63).collect::<String>().trim_matches('-').to_owned();
    if out.is_empty() { Err(DeployError::Name { field, value: value.to_owned() }) } else { Ok(out) }
}

/// Builds every artefact for one option of an evaluated scenario, with notes
/// for the user (a sanitised name, an unconfirmed resource name).
pub fn deploy(
    s: &Scenario,
    e: &Evaluation,
    option_id: &str,
    settings: &DeploySettings,
) -> Result<(Vec<Artifact>, Vec<String>), DeployError> {
    let spec =
        s.options.iter().find(|o| o.id == option_id).ok_or_else(|| DeployError::NoSuchOption(option_id.into()))?;
    let result = e.option(option_id).ok_or_else(|| DeployError::NoSuchOption(option_id.into()))?;
    let accelerator = spec.accelerator.clone().unwrap_or_default();
    let device = device(&accelerator, settings)?;
    let image = match (&settings.image, device.image) {
        (Some(i), _) => i.clone(),
        (None, Some(i)) => i.to_owned(),
        (None, None) => return Err(DeployError::NoImage(format!("{accelerator} ({})", device.stack))),
    };
    let mut notes = Vec::new();
    let name = dns_label("option", &format!("suanli-{option_id}"))?;
    if name != format!("suanli-{option_id}") {
        notes.push(format!("job name sanitised for Kubernetes: suanli-{option_id} → {name}"));
    }
    let namespace = dns_label("namespace", settings.namespace.as_deref().unwrap_or("default"))?;
    let project = dns_label("project", settings.project.as_deref().unwrap_or(option_id))?;

    // Accelerators the job runs on, and how they split into nodes.
    let cluster = match &s.demand {
        suanli_model::Demand::Job(j) => j.cluster_accelerators,
        suanli_model::Demand::Profile(p) => p.cluster_accelerators,
        suanli_model::Demand::Portfolio(p) => p.cluster_accelerators,
        suanli_model::Demand::Inference(d) => d.cluster_accelerators,
    };
    let per_node = spec.owned.as_ref().map_or(8, |p| p.accelerators_per_server).clamp(1, cluster.max(1));
    let nodes = cluster.div_ceil(per_node);
    let multi_node = nodes > 1;

    let price = price_per_accel_hour(result)?;
    let months = f64::from(e.horizon_months);
    let budget = settings.budget_per_month.unwrap_or(result.total_nominal / months);
    if !(budget.is_finite() && budget > 0.0) {
        return Err(DeployError::Budget(budget));
    }
    let planned_busy = result.accelerator_hours / (months * suanli_model::HOURS_PER_MONTH);

    let job = job_manifest(&name, &namespace, &project, &accelerator, &device, &image, per_node, nodes, multi_node);
    let rules = rules(&project, price, budget, planned_busy, e.currency.code());
    let tests = rule_tests(&project, price, budget, e.currency.code());
    let dashboard = dashboard(&project, price, budget, planned_busy, e.currency.code());
    let readme =
        readme(option_id, &accelerator, &device, &image, price, budget, planned_busy, e.currency.code(), multi_node);
    if device.confirmed == Confirmed::Community {
        notes.push(format!(
            "{} is the resource name community schedulers use for {accelerator}; confirm it against your cluster's device plugin",
            device.resource
        ));
    }
    Ok((
        vec![
            Artifact { file: "job.yaml".into(), contents: to_yaml(&job) },
            Artifact { file: "prometheus-rules.yml".into(), contents: to_yaml(&rules) },
            Artifact { file: "prometheus-rules.test.yml".into(), contents: to_yaml(&tests) },
            Artifact {
                file: "grafana-dashboard.json".into(),
                contents: serde_json::to_string_pretty(&dashboard).unwrap_or_default() + "\n",
            },
            Artifact { file: "README.md".into(), contents: readme },
        ],
        notes,
    ))
}

/// What one busy accelerator-hour costs in the plan: the option's whole
/// cost over the accelerator-hours it ran.
fn price_per_accel_hour(r: &OptionResult) -> Result<f64, DeployError> {
    if r.accelerator_hours > 0.0 { Ok(r.total_nominal / r.accelerator_hours) } else { Err(DeployError::NoUsage) }
}

#[allow(clippy::too_many_arguments)]
fn job_manifest(
    name: &str,
    namespace: &str,
    project: &str,
    accelerator: &str,
    device: &Device,
    image: &str,
    per_node: u32,
    nodes: u32,
    multi_node: bool,
) -> Value {
    let mut limits = serde_json::Map::new();
    limits.insert(device.resource.clone(), json!(per_node));
    limits.insert("memory".into(), json!(format!("{}Gi", 64 * per_node)));
    limits.insert("cpu".into(), json!(format!("{}", 8 * per_node)));
    let mut volumes = vec![json!({"name": "dshm", "emptyDir": {"medium": "Memory", "sizeLimit": "64Gi"}})];
    let mut mounts = vec![json!({"name": "dshm", "mountPath": "/dev/shm"})];
    let mut security = json!({});
    if multi_node {
        // RDMA between nodes: the InfiniBand/RoCE devices and locked memory.
        limits.insert("rdma/hca_shared_devices_a".into(), json!(1));
        volumes.push(json!({"name": "infiniband", "hostPath": {"path": "/dev/infiniband", "type": "Directory"}}));
        mounts.push(json!({"name": "infiniband", "mountPath": "/dev/infiniband"}));
        security = json!({"capabilities": {"add": ["IPC_LOCK"]}});
    }
    let mut container = json!({
        "name": "trainer",
        "image": image,
        "imagePullPolicy": "IfNotPresent",
        "command": ["python", "train.py"],
        "resources": {"limits": Value::Object(limits.clone()), "requests": Value::Object(limits)},
        "volumeMounts": mounts,
        "env": [
            {"name": "SUANLI_PROJECT", "value": project},
            {"name": "SUANLI_NODES", "value": nodes.to_string()},
        ],
    });
    if multi_node {
        container["securityContext"] = security;
    }
    json!({
        "apiVersion": "batch/v1",
        "kind": "Job",
        "metadata": {
            "name": name,
            "namespace": namespace,
            "labels": {"app.kubernetes.io/managed-by": "suanli", "suanli/project": project},
        },
        "spec": {
            "completions": nodes,
            "parallelism": nodes,
            "completionMode": "Indexed",
            "backoffLimit": 3,
            "template": {
                "metadata": {"labels": {"suanli/project": project}},
                "spec": {
                    "restartPolicy": "OnFailure",
                    "nodeSelector": {"suanli/accelerator": dns_label("accelerator", accelerator).unwrap_or_else(|_| "unknown".into())},
                    "tolerations": [{"key": device.resource, "operator": "Exists", "effect": "NoSchedule"}],
                    "containers": [container],
                    "volumes": volumes,
                },
            },
        },
    })
}

fn fmt(x: f64) -> String {
    let r = suanli_model::round_unit_price(x);
    if r == r.trunc() { format!("{r:.0}") } else { format!("{r}") }
}

/// Recording rules and alerts. The counter `gpu_usage_seconds_total`
/// (accelerator-seconds used, labelled by project) is what a GPU exporter
/// or accounting job exports; its rate is the number of busy accelerators.
fn rules(project: &str, price: f64, budget: f64, planned_busy: f64, currency: &str) -> Value {
    let spend =
        format!("sum by (project) (rate(gpu_usage_seconds_total{{project=\"{project}\"}}[1h])) * {}", fmt(price));
    let hourly_budget = budget / suanli_model::HOURS_PER_MONTH;
    json!({
        "groups": [{
            "name": format!("suanli-{project}-gpu-cost"),
            "rules": [
                {"record": "suanli:gpu_spend_per_hour:rate1h", "expr": spend},
                {"record": "suanli:gpu_busy:rate1h", "expr": format!("sum by (project) (rate(gpu_usage_seconds_total{{project=\"{project}\"}}[1h]))")},
                {
                    "alert": "HighGPUCost",
                    "expr": format!("suanli:gpu_spend_per_hour:rate1h{{project=\"{project}\"}} > {}", fmt(1.5 * hourly_budget)),
                    "for": "30m",
                    "labels": {"severity": "warning"},
                    "annotations": {
                        "summary": format!("GPU spend of {project} is 50 % above plan / {project} 的 GPU 支出超出计划 50%"),
                        "description": format!("plan: {} {currency}/h at {} {currency} per accelerator-hour", fmt(hourly_budget), fmt(price)),
                    },
                },
                {
                    "alert": "GPUMonthlyForecastOverBudget",
                    "expr": format!("avg_over_time(suanli:gpu_spend_per_hour:rate1h{{project=\"{project}\"}}[1d]) * 730 > {}", fmt(budget)),
                    "for": "1h",
                    "labels": {"severity": "warning"},
                    "annotations": {
                        "summary": format!("{project}: this month's GPU bill is heading over budget / {project} 本月 GPU 账单预计超出预算"),
                        "description": format!("forecast {{{{ $value }}}} {currency} against a budget of {} {currency}", fmt(budget)),
                    },
                },
                {
                    "alert": "GPUSpendAnomaly",
                    "expr": format!(
                        "suanli:gpu_spend_per_hour:rate1h{{project=\"{project}\"}} > 2 * avg_over_time(suanli:gpu_spend_per_hour:rate1h{{project=\"{project}\"}}[7d])"
                    ),
                    "for": "30m",
                    "labels": {"severity": "info"},
                    "annotations": {
                        "summary": format!("{project}: GPU spend is twice its weekly average / {project} 的 GPU 支出为周均值的两倍"),
                    },
                },
                {
                    "alert": "GPUUtilisationBelowPlan",
                    "expr": format!("suanli:gpu_busy:rate1h{{project=\"{project}\"}} < {}", fmt(0.5 * planned_busy)),
                    "for": "6h",
                    "labels": {"severity": "info"},
                    "annotations": {
                        "summary": format!("{project}: accelerators busy at under half the plan / {project} 的加速卡利用率不足计划的一半"),
                        "description": format!("{{{{ $value }}}} busy against a plan of {}", fmt(planned_busy)),
                    },
                },
            ],
        }],
    })
}

/// Unit tests for `promtool test rules`: a whole number of accelerators
/// busy, enough to spend twice the planned rate, fires HighGPUCost after
/// its 30 minutes; the spend is checked against the threshold with `bool`
/// (exact, where a float comparison would not be).
fn rule_tests(project: &str, price: f64, budget: f64, currency: &str) -> Value {
    let hourly_budget = budget / suanli_model::HOURS_PER_MONTH;
    let price_in_rule: f64 = fmt(price).parse().unwrap_or(price);
    let busy = (2.0 * hourly_budget / price_in_rule).ceil().max(1.0);
    let threshold = fmt(1.5 * hourly_budget);
    json!({
        "rule_files": ["prometheus-rules.yml"],
        "evaluation_interval": "1m",
        "tests": [{
            "interval": "1m",
            "input_series": [{
                "series": format!("gpu_usage_seconds_total{{project=\"{project}\",instance=\"node-0\"}}"),
                "values": format!("0+{}x240", fmt(busy * 60.0)),
            }],
            "alert_rule_test": [
                {"eval_time": "50m", "alertname": "HighGPUCost", "exp_alerts": []},
                {
                    "eval_time": "3h",
                    "alertname": "HighGPUCost",
                    "exp_alerts": [{
                        "exp_labels": {"severity": "warning", "project": project},
                        "exp_annotations": {
                            "summary": format!("GPU spend of {project} is 50 % above plan / {project} 的 GPU 支出超出计划 50%"),
                            "description": format!("plan: {} {currency}/h at {} {currency} per accelerator-hour", fmt(hourly_budget), fmt(price)),
                        },
                    }],
                },
            ],
            "promql_expr_test": [
                {
                    "expr": format!("suanli:gpu_busy:rate1h{{project=\"{project}\"}}"),
                    "eval_time": "3h",
                    "exp_samples": [{"labels": format!("suanli:gpu_busy:rate1h{{project=\"{project}\"}}"), "value": busy}],
                },
                {
                    "expr": format!("suanli:gpu_spend_per_hour:rate1h{{project=\"{project}\"}} > bool {threshold}"),
                    "eval_time": "3h",
                    "exp_samples": [{"labels": format!("{{project=\"{project}\"}}"), "value": 1}],
                },
            ],
        }],
    })
}

fn dashboard(project: &str, price: f64, budget: f64, planned_busy: f64, currency: &str) -> Value {
    let ds = json!({"type": "prometheus", "uid": "${datasource}"});
    let target = |expr: String, legend: &str| json!({"refId": "A", "datasource": ds.clone(), "expr": expr, "legendFormat": legend});
    let threshold = |value: f64| json!({"mode": "absolute", "steps": [{"color": "green", "value": null}, {"color": "red", "value": value}]});
    json!({
        "title": format!("Suanli — GPU spend: {project} / GPU 支出"),
        "uid": format!("suanli-{project}").chars().take(40).collect::<String>(),
        "tags": ["suanli", "gpu", "cost"],
        "timezone": "browser",
        "schemaVersion": 39,
        "version": 1,
        "editable": true,
        "graphTooltip": 1,
        "refresh": "1m",
        "time": {"from": "now-30d", "to": "now"},
        "templating": {"list": [{
            "name": "datasource",
            "label": "Prometheus",
            "type": "datasource",
            "query": "prometheus",
            "hide": 0,
        }]},
        "panels": [
            {
                "id": 1,
                "type": "timeseries",
                "title": format!("Spend per project, {currency}/h / 各项目支出"),
                "gridPos": {"x": 0, "y": 0, "w": 12, "h": 8},
                "datasource": ds.clone(),
                "targets": [target("sum by (project) (suanli:gpu_spend_per_hour:rate1h)".into(), "{{project}}")],
                "fieldConfig": {"defaults": {"unit": "none", "thresholds": threshold(budget / suanli_model::HOURS_PER_MONTH)}, "overrides": []},
                "options": {},
            },
            {
                "id": 2,
                "type": "stat",
                "title": format!("Month forecast vs budget {} {currency} / 月度预测与预算", fmt(budget)),
                "gridPos": {"x": 12, "y": 0, "w": 12, "h": 8},
                "datasource": ds.clone(),
                "targets": [target(format!("avg_over_time(suanli:gpu_spend_per_hour:rate1h{{project=\"{project}\"}}[1d]) * 730"), "forecast")],
                "fieldConfig": {"defaults": {"unit": "none", "thresholds": threshold(budget)}, "overrides": []},
                "options": {},
            },
            {
                "id": 3,
                "type": "timeseries",
                "title": format!("Busy accelerators vs plan ({}) / 在用加速卡与计划", fmt(planned_busy)),
                "gridPos": {"x": 0, "y": 8, "w": 24, "h": 8},
                "datasource": ds.clone(),
                "targets": [target(format!("suanli:gpu_busy:rate1h{{project=\"{project}\"}}"), "busy")],
                "fieldConfig": {"defaults": {"unit": "none", "thresholds": threshold(planned_busy)}, "overrides": []},
                "options": {},
            },
        ],
        "description": format!("Plan: {} {currency} per accelerator-hour, budget {} {currency} a month.", fmt(price), fmt(budget)),
    })
}

#[allow(clippy::too_many_arguments)]
fn readme(
    option: &str,
    accelerator: &str,
    device: &Device,
    image: &str,
    price: f64,
    budget: f64,
    planned_busy: f64,
    currency: &str,
    multi_node: bool,
) -> String {
    let confirmed = match device.confirmed {
        Confirmed::VendorPlugin => "as the vendor's device plugin registers it / 厂商设备插件注册的名称",
        Confirmed::Community => {
            "UNCONFIRMED: used by community schedulers, not checked against the vendor's plugin / 未经厂商插件确认"
        }
        Confirmed::User => "given by you / 由你指定",
    };
    format!(
        "# Deployment and cost monitoring for `{option}` / 部署与成本监控\n\n\
         Generated by Suanli from the evaluated scenario. / 由 Suanli 根据计算结果生成。\n\n\
         | | |\n| --- | --- |\n\
         | Accelerator / 加速卡 | `{accelerator}` |\n\
         | Device-plugin resource / 设备插件资源名 | `{}` ({confirmed}) |\n\
         | Image / 镜像 | `{image}` (pin it to your cluster's driver and runtime / 请与集群驱动版本匹配) |\n\
         | Plan price / 计划单价 | {} {currency} per accelerator-hour / 每卡时 |\n\
         | Monthly budget / 月度预算 | {} {currency} |\n\
         | Accelerators busy in the plan / 计划在用加速卡 | {} |\n\
         | RDMA | {} |\n\n\
         Files / 文件: `job.yaml` (label nodes `suanli/accelerator`), `prometheus-rules.yml` \
         (needs the counter `gpu_usage_seconds_total{{project=...}}` of accelerator-seconds), \
         `prometheus-rules.test.yml` (`promtool test rules`), `grafana-dashboard.json` (import as is).\n",
        device.resource,
        fmt(price),
        fmt(budget),
        fmt(planned_busy),
        if multi_node {
            "mounted: /dev/infiniband, rdma/hca_shared_devices_a, IPC_LOCK"
        } else {
            "single node: not needed / 单节点无需"
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_made_valid_or_refused() {
        assert_eq!(dns_label("option", "Buy 8×A100 / 自购").unwrap(), "buy-8-a100");
        assert_eq!(dns_label("option", "x".repeat(80).as_str()).unwrap().len(), 63);
        assert!(dns_label("option", "自购").is_err());
    }

    #[test]
    fn resource_names_per_vendor() {
        let s = DeploySettings::default();
        assert_eq!(device("nvidia-a100-sxm-80gb", &s).unwrap().resource, "nvidia.com/gpu");
        assert_eq!(device("huawei-ascend-910b", &s).unwrap().resource, "huawei.com/Ascend910");
        assert_eq!(device("moorethreads-mtt-s4000", &s).unwrap().confirmed, Confirmed::Community);
        assert!(matches!(device("biren-br100", &s), Err(DeployError::UnknownResource(_))));
        let given = DeploySettings { resource_name: Some("birentech.com/gpu".into()), ..Default::default() };
        assert_eq!(device("biren-br100", &given).unwrap().confirmed, Confirmed::User);
    }
}

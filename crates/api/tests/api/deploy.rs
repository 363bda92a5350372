//! `suanli deploy` through the API: what is written, and what is refused.

use std::path::PathBuf;

use suanli_api::deploy::{Settings, deploy};
use suanli_api::{Error, Lang};

fn example(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../data/scenarios").join(name)
}

#[test]
fn the_article_rental_case_gets_a_job_rules_and_a_dashboard() {
    let out = tempfile::tempdir().unwrap();
    let db = out.path().join("db.sqlite");
    let (files, _) = deploy(
        &example("a100-8x-buy-vs-rent.toml"),
        Some(&db),
        "rent-8xa100-on-demand",
        &Settings::default(),
        out.path(),
    )
    .unwrap();
    assert_eq!(files.len(), 5);
    let job = std::fs::read_to_string(out.path().join("job.yaml")).unwrap();
    assert!(job.contains("\"nvidia.com/gpu\": 8"), "{job}");
    assert!(job.contains("image: \"nvcr.io/nvidia/pytorch:24.05-py3\""));
    assert!(!job.contains("infiniband"), "one node needs no RDMA");
    // The plan's price: 8.56 CNY per accelerator-hour; budget: 1,799,654.40 ÷ 36 = 49,990.40 a month,
    // 68.48 an hour; the alert fires at 1.5 × 68.48 = 102.72.
    let rules = std::fs::read_to_string(out.path().join("prometheus-rules.yml")).unwrap();
    assert!(rules.contains("* 8.56"), "{rules}");
    assert!(rules.contains("> 102.72"), "{rules}");
    assert!(rules.contains("* 730 > 49990.4"), "{rules}");
    let dashboard: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.path().join("grafana-dashboard.json")).unwrap()).unwrap();
    assert_eq!(dashboard["panels"].as_array().map(Vec::len), Some(3));
}

#[test]
fn a_domestic_cluster_gets_its_device_resource_and_rdma() {
    let out = tempfile::tempdir().unwrap();
    let scenario = example("ascend-910b-cluster.toml");
    let err = deploy(&scenario, None, "ascend-910b-owned", &Settings::default(), out.path()).unwrap_err();
    assert_eq!(err.code(), suanli_api::ErrorCode::Deploy);
    assert!(err.message(Lang::Zh).contains("--image"), "{}", err.message(Lang::Zh));
    let settings = Settings { image: Some("registry.internal/ascend/pytorch:2.1".into()), ..Default::default() };
    deploy(&scenario, None, "ascend-910b-owned", &settings, out.path()).unwrap();
    let job = std::fs::read_to_string(out.path().join("job.yaml")).unwrap();
    assert!(job.contains("\"huawei.com/Ascend910\": 8"), "{job}");
    assert!(job.contains("completions: 2"), "16 cards on two 8-card nodes");
    assert!(job.contains("/dev/infiniband") && job.contains("IPC_LOCK") && job.contains("rdma/hca_shared_devices_a"));
}

#[test]
fn unknown_devices_bad_budgets_and_missing_options_are_refused_and_nothing_is_written() {
    let out = tempfile::tempdir().unwrap();
    let dir = out.path().join("never");
    let scenario = example("domestic-vs-a100.toml");
    let err = deploy(&scenario, None, "rent-domestic", &Settings::default(), &dir).unwrap_err();
    assert!(matches!(err, Error::Deploy(suanli_report::DeployError::UnknownResource(_))), "{err}");
    assert!(!dir.exists());
    let settings = Settings { budget_per_month: Some(0.0), ..Default::default() };
    let err = deploy(&scenario, None, "rent-a100", &settings, &dir).unwrap_err();
    assert!(err.to_string().contains("budget"), "{err}");
    let err = deploy(&scenario, None, "nobody", &Settings::default(), &dir).unwrap_err();
    assert!(err.to_string().contains("nobody"), "{err}");
    assert!(!dir.exists());
    // With the resource name given, the unnamed domestic card deploys (and the name is the user's).
    let settings = Settings {
        resource_name: Some("vendor.example/npu".into()),
        image: Some("registry.internal/npu:1".into()),
        ..Default::default()
    };
    deploy(&scenario, None, "rent-domestic", &settings, &dir).unwrap();
    assert!(std::fs::read_to_string(dir.join("job.yaml")).unwrap().contains("\"vendor.example/npu\": 8"));
}

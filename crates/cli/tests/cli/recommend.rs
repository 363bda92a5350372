//! `suanli recommend`: ranking, the scenario it writes, bad constraints.

use crate::{stderr, stdout, suanli_on};

const TRAINING_JOB: &str = r#"name = "train"
horizon_months = 12
currency = "USD"
workload_class = "llm_pretraining"
fx = { CNY = 0.1406 }

[demand]
kind = "job"
ref_gpu_hours = 200000
cluster_accelerators = 64
"#;

#[test]
fn recommend_ranks_writes_a_scenario_that_evaluates_and_refuses_bad_constraints() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("catalog.sqlite");
    let file = dir.path().join("job.toml");
    std::fs::write(&file, TRAINING_JOB).unwrap();
    let file = file.to_string_lossy().into_owned();
    let chosen = dir.path().join("chosen.toml").to_string_lossy().into_owned();

    let o =
        suanli_on(&db, &["recommend", &file, "--max-supply-risk", "40", "--write-scenario", &chosen, "--pick", "1,2"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("First by NPV") && out.contains("Frontier"), "{out}");
    assert!(out.contains("supply-risk cap: 0 excluded"), "{out}");
    let o = suanli_on(&db, &["evaluate", &chosen]);
    assert!(o.status.success(), "the written scenario evaluates: {}", stderr(&o));

    let o = suanli_on(&db, &["recommend", &file, "--format", "json", "--rank-by", "time", "--domestic"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["rank_by"], "time");
    // The bundled catalogue rents domestic cards (china-prices.md's quotes): only they are ranked.
    let ranked = v["ranked"].as_array().unwrap();
    assert!(!ranked.is_empty(), "domestic cards are rented");
    let domestic =
        ["huawei-", "cambricon-", "hygon-", "kunlunxin-", "moorethreads-", "iluvatar-", "biren-", "metax-", "enflame-"];
    for cand in ranked {
        for pool in cand["pools"].as_array().unwrap() {
            let acc = pool["accelerator_id"].as_str().unwrap();
            assert!(domestic.iter().any(|d| acc.starts_with(d)), "{acc}");
        }
    }

    let o = suanli_on(&db, &["--lang", "zh", "recommend", &file, "--budget", "-1"]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(err.contains("constraints.budget_total = -1") && err.contains("不能为负数"), "{err}");
    // A jurisdiction or currency outside the closed sets: the flag and the value named.
    let o = suanli_on(&db, &["recommend", &file, "--jurisdiction", "us"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("'us'") && stderr(&o).contains("--jurisdiction"), "{}", stderr(&o));
    let o = suanli_on(&db, &["recommend", &file, "--budget-currency", "XYZ"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("'XYZ'") && stderr(&o).contains("--budget-currency") && stderr(&o).contains("CNY, USD"),
        "{}",
        stderr(&o)
    );
}

//! Inputs refused before any work: scenario size, options, trials, a zero
//! stale threshold and a proposal date that is not a date.

use crate::{example, stderr, stdout, suanli};

/// A scenario with `n` rent options over `months` months.
fn many_options(n: usize, months: u32) -> String {
    let mut s = format!(
        "name = \"many\"\nhorizon_months = {months}\ncurrency = \"CNY\"\ndiscount_rate_annual = 0.08\n\
         [demand]\nkind = \"profile\"\nmonthly_ref_gpus = [8]\ncluster_accelerators = 8\n"
    );
    for i in 0..n {
        s.push_str(&format!(
            "[[options]]\nid = \"rent-{i}\"\nlabel = \"rent {i}\"\nkind = \"rent\"\nbilling = \"on_demand\"\n\
             [options.on_demand]\nprice_per_accel_hour = 8.5\n"
        ));
    }
    s
}

#[test]
fn scenario_size_options_and_trials_are_bounded_before_any_work() {
    let dir = tempfile::tempdir().unwrap();
    // A file past the size limit: refused having read no more than the limit.
    let big = dir.path().join("big.toml");
    let mut text = many_options(2, 12);
    text.push_str(&"# padding padding padding padding padding padding padding padding\n".repeat(100_000));
    std::fs::write(&big, &text).unwrap();
    for path in [big.to_str().unwrap(), "/dev/zero"] {
        let o = suanli(&["evaluate", path]);
        assert_eq!(o.status.code(), Some(1), "{path}: {}", stderr(&o));
        assert!(stderr(&o).contains("larger than a scenario may be") && stderr(&o).contains("MiB"), "{}", stderr(&o));
        let o = suanli(&["--lang", "zh", "evaluate", path]);
        assert!(stderr(&o).contains("超过场景文件上限"), "{}", stderr(&o));
    }

    let too_many = dir.path().join("options.toml");
    std::fs::write(&too_many, many_options(201, 12)).unwrap();
    let o = suanli(&["evaluate", too_many.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("options") && stderr(&o).contains("at most 200 options"), "{}", stderr(&o));

    let long = dir.path().join("long.toml");
    std::fs::write(&long, many_options(60, 240)).unwrap();
    let o = suanli(&["evaluate", long.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("12000"), "{}", stderr(&o));

    let o = suanli(&["simulate", &example("domestic-vs-a100.toml"), "--trials", "4000000000"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("trials") && stderr(&o).contains("1000000"), "{}", stderr(&o));
}

#[test]
fn a_stale_threshold_of_zero_and_a_proposal_date_that_is_not_a_date_are_refused() {
    let o = suanli(&["catalog", "stale-after", "0"]);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    assert!(stderr(&o).contains("stale-after") && stderr(&o).contains("at least 1"), "{}", stderr(&o));
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("p.pdf");
    let o = suanli(&[
        "proposal",
        &example("a100-8x-buy-vs-rent.toml"),
        "--out",
        out.to_str().unwrap(),
        "--date",
        "next tuesday",
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    assert!(stderr(&o).contains("next tuesday") && stderr(&o).contains("YYYY-MM-DD"), "{}", stderr(&o));
    assert!(!out.exists());
}

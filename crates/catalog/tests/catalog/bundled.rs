//! First start, upgrades and refusals.

use suanli_catalog::{Catalog, Opened, check::check_tables};

use crate::{NOW, fresh};

#[test]
fn first_start_creates_the_full_catalogue_offline() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("nested/dir/catalog.sqlite");
    let (catalog, opened) = Catalog::open(&path, NOW).unwrap();
    assert_eq!(opened, Opened::Created);
    let t = catalog.tables().unwrap();
    assert!(t.accelerators.len() >= 25, "{}", t.accelerators.len());
    assert!(t.providers.len() >= 15);
    assert!(t.offers.len() >= 80);
    let classes: std::collections::BTreeSet<&str> = t.efficiency.iter().map(|e| e.workload_class.key()).collect();
    for class in ["llm_pretraining", "vision_training"] {
        assert!(classes.contains(class), "{classes:?}");
    }
    assert!(classes.contains("llm_inference") || classes.contains("llm_finetuning"));
    assert!(classes.len() >= 4);
    // Every domestic family of the issue is there.
    for id in [
        "huawei-ascend-910b",
        "huawei-ascend-910c",
        "cambricon-mlu370-x8",
        "cambricon-mlu590",
        "hygon-dcu-z100",
        "hygon-dcu-k100",
        "kunlunxin-r200",
        "kunlunxin-p800",
        "moorethreads-mtt-s4000",
        "biren-br100",
        "biren-br104",
        "iluvatar-bi-v100",
        "iluvatar-bi-v150",
        "metax-c500-pcie",
    ] {
        assert!(t.accelerators.iter().any(|a| a.id == id), "missing {id}");
    }
    assert!(t.accelerators.iter().any(|a| a.vendor.to_lowercase().contains("enflame")));
    assert!(t.offers.iter().any(|o| o.billing_mode == suanli_catalog::BillingMode::Purchase), "server purchase offers");
    assert!(catalog.integrity_ok().unwrap());
    // Opening again changes nothing.
    drop(catalog);
    let (_, opened) = Catalog::open(&path, NOW).unwrap();
    assert_eq!(opened, Opened::Current);
}

#[test]
fn every_bundled_row_has_source_as_of_and_confidence() {
    let t = fresh().tables().unwrap();
    assert!(check_tables(&t).is_empty(), "{:?}", check_tables(&t));
    let mut missing = Vec::new();
    for a in &t.accelerators {
        if a.source.is_empty() || (a.as_of.is_none() && a.notes.is_none()) {
            missing.push(a.id.clone());
        }
    }
    for o in &t.offers {
        if o.source.is_empty() || (o.as_of.is_none() && o.notes.is_none()) {
            missing.push(o.id.clone());
        }
    }
    for p in &t.providers {
        if p.source.is_empty() || (p.as_of.is_none() && p.notes.is_none()) {
            missing.push(p.id.clone());
        }
    }
    for e in &t.efficiency {
        if e.source.is_empty() || (e.as_of.is_none() && e.notes.is_none()) {
            missing.push(e.id.clone());
        }
    }
    // A row without an as-of date says why in its notes.
    assert!(missing.is_empty(), "rows without provenance: {missing:?}");
}

#[test]
fn every_figure_of_an_accelerator_is_checked_fp8_included() {
    let mut t = suanli_catalog::Catalog::open_in_memory("2026-12-01").unwrap().0.tables().unwrap();
    let i = t.accelerators.iter().position(|a| a.fp8_tflops.is_some()).expect("an accelerator with FP8");
    t.accelerators[i].fp8_tflops = Some(-1.0);
    let errors: Vec<String> = check_tables(&t).iter().map(|e| e.to_string()).collect();
    let id = &t.accelerators[i].id;
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(
        errors[0].contains(id.as_str())
            && errors[0].contains("fp8_tflops")
            && errors[0].contains("must not be negative"),
        "{errors:?}"
    );
}

#[test]
fn a_newer_schema_is_refused_and_left_untouched() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("catalog.sqlite");
    {
        let conn = rusqlite::Connection::open(&path).unwrap();
        conn.pragma_update(None, "user_version", 99).unwrap();
        // A newer Suanli's file carries the marker (the meta table) too.
        conn.execute_batch(
            "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
             CREATE TABLE precious (x TEXT); INSERT INTO precious VALUES ('keep me');",
        )
        .unwrap();
    }
    let before = std::fs::read(&path).unwrap();
    let err = Catalog::open(&path, NOW).unwrap_err();
    assert!(err.to_string().contains("newer Suanli"), "{err}");
    assert!(std::fs::read(&path).unwrap() == before, "the file changed");
}

#[test]
fn a_file_that_is_not_a_database_is_refused_and_left_untouched() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("catalog.sqlite");
    std::fs::write(&path, b"these are my notes, not a database").unwrap();
    assert!(Catalog::open(&path, NOW).is_err());
    assert!(std::fs::read(&path).unwrap() == b"these are my notes, not a database", "the file changed");
}

#[test]
fn an_older_bundled_version_is_upgraded_and_the_price_book_kept() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("catalog.sqlite");
    {
        let (mut c, _) = Catalog::open(&path, NOW).unwrap();
        c.put_discount(&suanli_catalog::pricebook::Discount {
            id: "my-aws-deal".into(),
            offer_id: None,
            provider_id: Some("aws".into()),
            discount_share: 0.2,
            note: Some("enterprise agreement".into()),
            as_of: Some("2026-11-01".into()),
        })
        .unwrap();
        // Pretend an old catalogue with one offer repriced is installed.
        c.connection().execute("UPDATE meta SET value = '1' WHERE key = 'catalog_version'", []).unwrap();
        c.connection()
            .execute("UPDATE offers SET price = 1.0 WHERE id = 'aws-p5-48xlarge-us-east-1-on-demand'", [])
            .unwrap();
    }
    let (c, opened) = Catalog::open(&path, "2026-12-01T00:00:00Z").unwrap();
    assert!(matches!(opened, Opened::Upgraded { from: 1, .. }), "{opened:?}");
    assert_eq!(c.discounts().unwrap().len(), 1, "the price book survives");
    let history = c.price_history("aws-p5-48xlarge-us-east-1-on-demand").unwrap();
    let last = history.last().unwrap();
    assert_eq!((last.what.key(), last.old_price, last.new_price), ("repriced", Some(1.0), Some(55.04)));
    assert_eq!(c.changes().unwrap()[0].repriced, 1);
}

#[test]
fn a_providers_billing_modes_are_a_list_from_csv_database_and_json() {
    use suanli_catalog::{BillingMode, Provider};
    // From the bundled CSV (`;`-separated) through the database, as a list.
    let aws = fresh().provider("aws").unwrap().unwrap();
    assert_eq!(
        aws.billing_modes,
        [
            BillingMode::OnDemand,
            BillingMode::Spot,
            BillingMode::Reserved1y,
            BillingMode::Reserved3y,
            BillingMode::SavingsPlan
        ]
    );
    // As JSON (the desktop's and a pack's form): a list of keys, read back the same.
    let json = serde_json::to_value(&aws).unwrap();
    assert_eq!(
        json["billing_modes"],
        serde_json::json!(["on_demand", "spot", "reserved_1y", "reserved_3y", "savings_plan"])
    );
    let back: Provider = serde_json::from_value(json.clone()).unwrap();
    assert_eq!(back, aws);
    // A database written before lists were JSON kept the CSV's text: still read.
    let mut old = json.clone();
    old["billing_modes"] = "on_demand; spot".into();
    let p: Provider = serde_json::from_value(old).unwrap();
    assert_eq!(p.billing_modes, [BillingMode::OnDemand, BillingMode::Spot]);
    // An unknown mode is refused by name.
    let mut bad = json;
    bad["billing_modes"] = "on_demand;hourly".into();
    let err = serde_json::from_value::<Provider>(bad).unwrap_err().to_string();
    assert!(err.contains("\"hourly\" is not a billing mode"), "{err}");
}

#[test]
fn no_two_accelerators_read_alike_in_either_language() {
    // A reader tells the C500's PCIe card, OAM module and unstated form
    // apart by name alone, in Chinese as in English.
    let names = suanli_catalog::accelerator_names().unwrap();
    for (lang, pick) in [("en", 1), ("zh", 2)] {
        let mut seen = std::collections::BTreeMap::new();
        for n in &names {
            let name = if pick == 1 { &n.1 } else { &n.2 };
            if let Some(other) = seen.insert(name.clone(), n.0.clone()) {
                panic!("{lang}: {other} and {} both read {name:?}", n.0);
            }
        }
    }
}

#[test]
fn a_vendor_reads_the_same_on_every_one_of_its_parts() {
    let t = crate::fresh().tables().unwrap();
    let mut by_vendor: std::collections::BTreeMap<&str, std::collections::BTreeSet<&str>> = Default::default();
    for a in &t.accelerators {
        by_vendor.entry(a.vendor.as_str()).or_default().insert(a.vendor_zh.as_deref().unwrap_or(&a.vendor));
    }
    for (vendor, zh) in by_vendor {
        assert_eq!(zh.len(), 1, "{vendor} reads {zh:?} in Chinese");
    }
}

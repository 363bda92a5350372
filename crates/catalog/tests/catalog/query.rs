//! Filters, search and effective prices.

use suanli_catalog::query::{AcceleratorFilter, Jurisdiction, OfferFilter, OfferSort};

use crate::fresh;

#[test]
fn domestic_accelerators_are_easy_to_find() {
    let c = fresh();
    let domestic = c.accelerators(&AcceleratorFilter { domestic: Some(true), ..Default::default() }).unwrap();
    assert!(domestic.len() >= 15, "{}", domestic.len());
    assert!(domestic.iter().all(|a| a.domestic == Some(true)));
    assert!(domestic.iter().any(|a| a.id == "huawei-ascend-910b"));
    let big = c.accelerators(&AcceleratorFilter { min_memory_gb: Some(96.0), ..Default::default() }).unwrap();
    assert!(big.iter().all(|a| a.memory_gb.unwrap() >= 96.0));
}

#[test]
fn export_status_filters_what_a_buyer_in_china_can_obtain() {
    let c = fresh();
    let cn =
        c.accelerators(&AcceleratorFilter { obtainable_in: Some(Jurisdiction::Cn), ..Default::default() }).unwrap();
    assert!(!cn.iter().any(|a| a.id == "nvidia-h100-sxm-80gb"), "H100 is controlled");
    assert!(cn.iter().any(|a| a.id == "huawei-ascend-910b"));
    assert!(cn.iter().any(|a| a.id == "nvidia-l20"), "the China-only variant");
}

#[test]
fn search_finds_chinese_and_english_names_even_two_characters() {
    let c = fresh();
    let hits = |q: &str| c.search(q).unwrap().into_iter().map(|h| h.id).collect::<Vec<_>>();
    assert!(hits("Ascend").iter().any(|id| id.starts_with("huawei-ascend")));
    assert!(hits("昇腾910").iter().any(|id| id.starts_with("huawei-ascend")), "{:?}", hits("昇腾910"));
    // Two characters: below the trigram minimum, found by the fallback.
    assert!(hits("昇腾").iter().any(|id| id.starts_with("huawei-ascend")), "{:?}", hits("昇腾"));
    assert!(hits("阿里").iter().any(|id| id == "aliyun"));
    assert!(hits("H1").iter().any(|id| id.contains("h100")));
    assert!(hits("no such thing at all").is_empty());
    // Quotes and wildcards are text, not syntax.
    assert!(c.search("\"%_").unwrap().is_empty());
}

#[test]
fn effective_price_divides_by_the_sourced_ratio_and_shows_its_source() {
    let c = fresh();
    let offers = c
        .offers(&OfferFilter {
            workload_class: Some(suanli_catalog::WorkloadClass::VisionTraining),
            sort: OfferSort::Effective,
            ..Default::default()
        })
        .unwrap();
    let with_ratio: Vec<_> =
        offers.iter().filter(|o| o.efficiency.is_some() && o.comparable_price_per_accel_hour.is_some()).collect();
    assert!(!with_ratio.is_empty());
    for o in &with_ratio {
        let r = o.efficiency.as_ref().unwrap();
        assert!(!r.source.is_empty());
        let expected = o.comparable_price_per_accel_hour.unwrap() / r.ratio;
        assert!((o.price_per_ref_gpu_hour.unwrap() - expected).abs() < 1e-9);
    }
    // Sorted by effective price, offers without one last.
    let keys: Vec<f64> = offers.iter().filter_map(|o| o.price_per_ref_gpu_hour).collect();
    assert!(keys.windows(2).all(|w| w[0] <= w[1]));
}

#[test]
fn offers_filter_by_billing_country_price_and_security() {
    let c = fresh();
    let spot =
        c.offers(&OfferFilter { billing_mode: Some(suanli_catalog::BillingMode::Spot), ..Default::default() }).unwrap();
    assert!(!spot.is_empty() && spot.iter().all(|o| o.offer.billing_mode == suanli_catalog::BillingMode::Spot));
    let cn = c.offers(&OfferFilter { provider_country: Some("CN".into()), ..Default::default() }).unwrap();
    assert!(!cn.is_empty() && cn.iter().all(|o| o.provider_country.as_deref() == Some("CN")));
    let cheap = c
        .offers(&OfferFilter {
            max_price: Some(2.0),
            currency: Some(suanli_model::Currency::USD),
            fx: [(suanli_model::Currency::CNY, 1.0 / 7.1106)].into_iter().collect(),
            ..Default::default()
        })
        .unwrap();
    assert!(cheap.iter().all(|o| o.comparable_price_per_accel_hour.unwrap() <= 2.0));
    assert!(cheap.iter().any(|o| o.offer.currency == suanli_model::Currency::CNY), "CNY offers convert for comparison");
    let bare = c.offers(&OfferFilter { bare_metal: Some(true), ..Default::default() }).unwrap();
    assert!(!bare.is_empty());
}

#[test]
fn a_catalogue_with_the_older_search_index_gets_it_rebuilt_on_opening() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("catalog.sqlite");
    drop(suanli_catalog::Catalog::open(&path, crate::NOW).unwrap());
    {
        // As an older build left it: one row per offer, at schema 3, before
        // the search index held names (what migrations 5 to 8 made undone),
        // with an older bundled catalogue.
        let conn = rusqlite::Connection::open(&path).unwrap();
        conn.execute_batch(
            "DROP VIEW offer_history; ALTER TABLE imported_offers DROP COLUMN _added_change; \
             ALTER TABLE offers DROP COLUMN price_high; ALTER TABLE imported_offers DROP COLUMN price_high; \
             ALTER TABLE pricebook_offers DROP COLUMN price_high; DROP TABLE nodes; DROP TABLE reference_rates; \
             ALTER TABLE measurements DROP COLUMN mfu_peak_tflops; ALTER TABLE measurements DROP COLUMN mfu_peak_location; \
             ALTER TABLE measurements DROP COLUMN kept_out; \
             UPDATE meta SET value = '2026120407' WHERE key = 'catalog_version';",
        )
        .unwrap();
        conn.execute("INSERT INTO search (item_id, kind, text) VALUES ('old-offer-row', 'offer', 'old offer row')", [])
            .unwrap();
        conn.pragma_update(None, "user_version", 3).unwrap();
    }
    let c = suanli_catalog::Catalog::open(&path, crate::NOW).unwrap().0;
    assert!(c.search("old offer row").unwrap().is_empty());
    assert!(c.search("昇腾910").unwrap().iter().any(|h| h.id.starts_with("huawei-ascend")));
    assert!(
        c.search("H100").unwrap().iter().any(|h| h.kind == suanli_catalog::query::HitKind::Offer),
        "offers found by their accelerator"
    );
    // The upgraded rows hold what the new columns say: the C500's MFU runs
    // with the peaks their configurations recorded.
    let peaks = c.measurements_of("metax-c500").unwrap().into_iter().filter(|m| m.mfu_peak_tflops.is_some()).count();
    assert_eq!(peaks, 5);
}

#[test]
fn a_provider_meets_a_security_need_by_one_rule() {
    let p: suanli_catalog::Provider = serde_json::from_value(serde_json::json!({
        "id": "p", "name": "P", "kind": "gpu_cloud", "bare_metal": "true", "dedicated_gpu": "false",
        "certifications": "ISO 27001:2022; SOC 2 Type II", "source": "t", "confidence": "A"
    }))
    .unwrap();
    for (need, meets) in [
        ("bare_metal", true),
        ("Bare_Metal ", true),
        ("dedicated_gpu", false),
        ("encryption_in_transit", false),
        ("iso 27001", true),
        ("SOC 2", true),
        ("MLPS level 3", false),
    ] {
        assert_eq!(p.meets(need), meets, "{need}");
    }
    assert_eq!(p.security_flags(), ["bare_metal"]);
}

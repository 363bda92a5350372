//! The user's own prices: an overlay no update overwrites.

use suanli_catalog::pricebook::Discount;
use suanli_catalog::query::OfferFilter;
use suanli_catalog::{Error, Offer};

use crate::{NOW, fresh};
use suanli_catalog::Catalog;

fn own_offer() -> Offer {
    Offer {
        id: "my-aliyun-quote".into(),
        provider_id: "aliyun".into(),
        accelerator_id: Some("huawei-ascend-910b".into()),
        instance: Some("negotiated 8-card node".into()),
        region: Some("cn-beijing".into()),
        billing_mode: suanli_catalog::BillingMode::Monthly,
        accelerators_per_instance: Some(8.0),
        price: 40_000.0,
        price_high: None,
        price_unit: suanli_catalog::PriceUnit::InstanceMonth,
        currency: suanli_model::Currency::CNY,
        upfront: None,
        interconnect: None,
        as_of: Some("2026-11-20".into()),
        source: "Quote from our account manager".into(),
        confidence: suanli_catalog::Confidence::A,
        notes: None,
    }
}

#[test]
fn own_offers_and_discounts_appear_marked_and_survive_a_catalogue_replacement() {
    let mut c = fresh();
    c.put_own_offer(&own_offer()).unwrap();
    c.put_discount(&Discount {
        id: "my-aws-discount".into(),
        offer_id: Some("aws-p5-48xlarge-us-east-1-on-demand".into()),
        provider_id: None,
        discount_share: 0.25,
        note: None,
        as_of: None,
    })
    .unwrap();
    let all = c.offers(&OfferFilter::default()).unwrap();
    let mine = all.iter().find(|o| o.offer.id == "my-aliyun-quote").unwrap();
    assert_eq!(mine.origin, suanli_catalog::query::OfferOrigin::Pricebook);
    // 40,000 CNY a month for 8 cards: 40,000 ÷ 8 ÷ 730 = 6.849 per card-hour.
    assert!((mine.price_per_accel_hour.unwrap() - 40_000.0 / 8.0 / 730.0).abs() < 1e-9);
    let p5 = all.iter().find(|o| o.offer.id == "aws-p5-48xlarge-us-east-1-on-demand").unwrap();
    // 55.04 ÷ 8 × 0.75 = 5.16.
    assert!((p5.price_per_accel_hour.unwrap() - 55.04 / 8.0 * 0.75).abs() < 1e-9);
    assert_eq!(p5.discount_share, Some(0.25));
    assert!(c.search("quote").unwrap().iter().any(|h| h.id == "my-aliyun-quote"));

    // A whole new catalogue arrives: the price book stays.
    let tables = c.tables().unwrap();
    c.replace(&tables, suanli_catalog::ChangeKind::Pack, "test", 9_999_999_999, NOW).unwrap();
    assert_eq!(c.pricebook_offers().unwrap().len(), 1);
    assert_eq!(c.discounts().unwrap().len(), 1);
}

#[test]
fn the_price_book_exports_and_imports_as_a_file() {
    let mut a = fresh();
    a.put_own_offer(&own_offer()).unwrap();
    let file = a.export_pricebook().unwrap();
    let text = serde_json::to_string(&file).unwrap();
    let mut b = fresh();
    assert_eq!(b.import_pricebook(&serde_json::from_str(&text).unwrap()).unwrap(), 1);
    assert_eq!(b.pricebook_offers().unwrap(), vec![own_offer()]);
}

#[test]
fn bad_entries_are_refused_with_field_and_value_and_nothing_is_written() {
    let mut c = fresh();
    let mut bad = own_offer();
    bad.price = -5.0;
    bad.provider_id = "nobody".into();
    let err = c.put_own_offer(&bad).unwrap_err();
    let Error::Rows(rows) = &err else { panic!("{err}") };
    let fields: Vec<(&str, &str)> = rows.iter().map(|r| (r.field.as_str(), r.value.as_str())).collect();
    assert!(fields.contains(&("price", "-5")), "{fields:?}");
    assert!(fields.contains(&("provider_id", "nobody")), "{fields:?}");
    let price = rows.iter().find(|r| r.field == "price").unwrap();
    assert_eq!(
        price.message(suanli_model::Lang::En),
        "pricebook offers line 1 (my-aliyun-quote): price = \"-5\": must not be negative"
    );
    assert!(price.message(suanli_model::Lang::Zh).ends_with("不能为负数"));
    assert!(c.pricebook_offers().unwrap().is_empty());
    // A price the user types in is above 0 (one rule: the form has no check of its own),
    // and a field gets one message: an empty provider is "required", nothing more.
    let blank = Offer { id: String::new(), provider_id: String::new(), price: 0.0, ..own_offer() };
    let Error::Rows(rows) = c.put_own_offer(&blank).unwrap_err() else { panic!("not a row error") };
    let fields: Vec<&str> = rows.iter().map(|r| r.field.as_str()).collect();
    assert_eq!(fields, ["id", "provider_id", "price"], "{rows:?}");
    assert!(rows[2].message(suanli_model::Lang::En).ends_with("price = \"0\": must be greater than 0"), "{rows:?}");
    assert!(rows[2].message(suanli_model::Lang::Zh).ends_with("必须大于 0"));
    let err = c
        .put_discount(&Discount {
            id: "d".into(),
            offer_id: None,
            provider_id: Some("aws".into()),
            discount_share: 1.5,
            note: None,
            as_of: None,
        })
        .unwrap_err();
    assert!(err.to_string().contains("discount_share"), "{err}");
}

/// The offers view and the ratio book are kept between reads; a write by
/// this handle or by another connection to the same file shows at once.
#[test]
fn a_kept_offers_view_never_hides_a_write_from_this_or_another_connection() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("catalog.sqlite");
    let (mut a, _) = Catalog::open(&path, NOW).unwrap();
    let (mut b, _) = Catalog::open(&path, NOW).unwrap();
    let has_mine =
        |c: &Catalog| c.offers(&OfferFilter::default()).unwrap().iter().any(|o| o.offer.id == "my-aliyun-quote");
    assert!(!has_mine(&a));
    a.put_own_offer(&own_offer()).unwrap();
    assert!(has_mine(&a), "this handle's own write");
    assert!(has_mine(&b), "another connection's commit");
    assert!(b.remove_from_pricebook("my-aliyun-quote").unwrap());
    assert!(!has_mine(&a), "a removal by another connection");
    let class = suanli_catalog::WorkloadClass::LlmPretraining;
    let before = a.ratio("huawei-ascend-910b", class, suanli_catalog::query::REFERENCE_ACCELERATOR).unwrap();
    b.pin_ratio(&suanli_catalog::ratios::PinnedRatio {
        accelerator_id: "huawei-ascend-910b".into(),
        workload_class: class,
        ratio: 0.5,
        note: Some("our own run".into()),
        pinned_at: NOW.into(),
    })
    .unwrap();
    let after = a.ratio("huawei-ascend-910b", class, suanli_catalog::query::REFERENCE_ACCELERATOR).unwrap().unwrap();
    assert_eq!(after.ratio, 0.5, "a pin by another connection, before: {before:?}");
}

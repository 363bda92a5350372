//! The Chinese market as the bundled catalogue holds it (china-prices.md):
//! quoted ranges, monthly server quotes per accelerator-hour, market
//! spreads, and what the fact sheet says must not be stored.

use suanli_catalog::query::{OfferFilter, OfferView, QuoteKind, SpreadBasis};
use suanli_catalog::{BillingMode, Confidence, PriceUnit};

use crate::fresh;

fn view(id: &str) -> OfferView {
    let c = fresh();
    c.offer(id, &OfferFilter::default()).unwrap().unwrap_or_else(|| panic!("no offer {id}"))
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * b.abs().max(1.0)
}

#[test]
fn a_quoted_range_stays_a_range() {
    // 模力方舟 quotes the 910B at "3.00–4.00" CNY per card-hour.
    let v = view("gitee-ai-ascend-910b-on-demand");
    assert_eq!((v.offer.price, v.offer.price_high), (3.0, Some(4.0)));
    assert_eq!((v.price_per_accel_hour, v.price_high_per_accel_hour), (Some(3.0), Some(4.0)));
    let s = v.spread.as_ref().unwrap();
    assert_eq!(s.basis, SpreadBasis::QuotedRange);
    assert_eq!((s.low, s.typical, s.high), (3.0, 3.5, 4.0));
    assert_eq!(s.offers, ["gitee-ai-ascend-910b-on-demand"]);
    assert_eq!(s.sources, "cn:CM");

    // A monthly range (极智算, 15,600–17,040 per 8-card server-month) keeps both ends per hour.
    let v = view("jygpu-ascend-910b-8card-monthly");
    assert_eq!((v.offer.price, v.offer.price_high), (15_600.0, Some(17_040.0)));
    assert!(close(v.price_high_per_accel_hour.unwrap(), 17_040.0 / 8.0 / 730.0));

    // An official list price can be a range too: Tencent's GN10X.2XLARGE40 at 4671 - 5190 a month.
    let v = view("tencent-cloud-gn10x-2xlarge40-monthly");
    assert_eq!((v.offer.price, v.offer.price_high, v.quote), (4671.0, Some(5190.0), QuoteKind::ListPrice));
    assert_eq!(v.spread.as_ref().unwrap().basis, SpreadBasis::QuotedRange);

    // A single figure is no range, and the table round-trips a range through an import.
    assert!(view("omniyq-ascend-910b-8card-monthly").spread.is_none());
    let mut c = fresh();
    let feed = "id,provider_id,accelerator_id,instance,region,billing_mode,accelerators_per_instance,price,price_high,price_unit,currency,upfront,interconnect,as_of,source,confidence,notes\n\
                my-range,gitee-ai,huawei-ascend-910b,x,,on_demand,1,2.5,3.5,accelerator_hour,CNY,none,,2026-11-30,test,C,\n";
    let p = suanli_catalog::import::Provenance { source: "test".into(), as_of: None, confidence: Confidence::C };
    c.import(&suanli_catalog::import::Format::Csv, feed.as_bytes(), &p, crate::NOW).unwrap();
    let v = c.offer("my-range", &OfferFilter::default()).unwrap().unwrap();
    assert_eq!((v.offer.price, v.offer.price_high), (2.5, Some(3.5)));
}

#[test]
fn a_range_whose_high_end_is_below_its_low_end_is_refused() {
    let mut t = fresh().tables().unwrap();
    let o = t.offers.iter_mut().find(|o| o.id == "gitee-ai-ascend-910b-on-demand").unwrap();
    o.price_high = Some(2.0);
    let errors = suanli_catalog::check::check_tables(&t);
    let e = errors.iter().find(|e| e.field == "price_high").expect("price_high refused");
    assert!(e.message(suanli_model::Lang::En).contains("below price"));
    assert!(e.message(suanli_model::Lang::Zh).contains("低于 price"));
}

#[test]
fn a_monthly_eight_card_server_quote_becomes_a_price_per_accelerator_hour() {
    // 云擎天下: CNY 15,000 for an 8 × 910B server for a month. A month is
    // 730 hours, so one card-hour is 15,000 / 8 / 730 = 2.5684931506849313.
    let v = view("omniyq-ascend-910b-8card-monthly");
    assert_eq!(v.offer.price_unit, PriceUnit::InstanceMonth);
    assert_eq!(v.offer.billing_mode, BillingMode::Monthly);
    assert_eq!(v.offer.accelerators_per_instance, Some(8.0));
    assert!(close(v.price_per_accel_hour.unwrap(), 2.568_493_150_684_931_3));
    // SMM's 910C "752T" lease: 65,000 / 8 / 730 = 11.130136986301370.
    let v = view("smm-ascend-910c-752t-8card-monthly-2026-09");
    assert!(close(v.price_per_accel_hour.unwrap(), 11.130_136_986_301_37));
    // Tencent's GT4.41XLARGE948 list price: 237.51 per hour for 8 × A100 40G = 29.68875 per card-hour.
    let v = view("tencent-cloud-gt4-41xlarge948-on-demand");
    assert!(close(v.price_per_accel_hour.unwrap(), 29.688_75));
    assert_eq!(v.quote, QuoteKind::ListPrice);
}

#[test]
fn a_market_report_quote_carries_the_spread_of_the_market_and_a_sellers_price_does_not() {
    // 8-card 910B servers by the month: 云擎天下 15,000 (dealer), 极智算
    // 15,600–17,040 (marketplace), SMM 20,000 (market report). The SMM
    // quote takes the spread of all three: low 15,000, median of the
    // midpoints (15,000, 16,320, 20,000) 16,320, high 20,000 — per card-hour ÷ 8 ÷ 730.
    let v = view("smm-ascend-910b-8card-monthly-relocatable-2026-09");
    assert_eq!(v.quote, QuoteKind::MarketQuote);
    let s = v.spread.as_ref().unwrap();
    assert_eq!(s.basis, SpreadBasis::MarketQuotes);
    let per_hour = |m: f64| m / 8.0 / 730.0;
    assert!(
        close(s.low, per_hour(15_000.0)) && close(s.typical, per_hour(16_320.0)) && close(s.high, per_hour(20_000.0))
    );
    assert_eq!(s.low_offers, ["omniyq-ascend-910b-8card-monthly"]);
    assert_eq!(s.high_offers, ["smm-ascend-910b-8card-monthly-relocatable-2026-09"]);
    assert_eq!(s.offers.len(), 3);
    // The dealer's own price is its own.
    assert!(view("omniyq-ascend-910b-8card-monthly").spread.is_none());
    // A single card is not an 8-card server: 1-card quotes form no spread with them.
    assert!(!s.offers.iter().any(|id| id.contains("1card")));
}

#[test]
fn figures_the_fact_sheet_tags_x_or_calls_invented_are_not_in_the_catalogue() {
    let c = fresh();
    let offers = c.offers(&OfferFilter::default()).unwrap();
    let of = |provider: &str, accelerator: &str| {
        offers
            .iter()
            .filter(|v| v.offer.provider_id == provider && v.offer.accelerator_id.as_deref() == Some(accelerator))
            .count()
    };
    // R9–R13: 模力方舟's BW1000, S5000, S4000, BI-V150 and BR106M prices contradict themselves.
    for accelerator in ["moorethreads-mtt-s5000", "moorethreads-mtt-s4000", "iluvatar-bi-v150", "hygon-dcu-bw200"] {
        assert_eq!(of("gitee-ai", accelerator), 0, "{accelerator}");
    }
    assert!(!offers.iter().any(|v| v.offer.provider_id == "gitee-ai"
        && v.offer.accelerator_id.as_deref().is_some_and(|a| a.starts_with("biren"))));
    // R25: Huawei Cloud's "约 7.90" per 910B-hour has no URL (C/X).
    assert_eq!(of("huawei-cloud", "huawei-ascend-910b"), 0);
    assert!(!offers.iter().any(|v| v.offer.price == 7.90 && v.offer.currency == suanli_model::Currency::CNY));
    // N12: Alibaba's A100 80G at 9.80 and H100 at 15.0 CNY/h (X).
    assert!(!offers.iter().any(|v| v.offer.provider_id == "aliyun" && [9.80, 15.0].contains(&v.offer.price)));
    // CM's invented 8-card monthly bands (Z100 1.1–1.3万, MLU590 3.8–4.5万, BR100 4.5–5.5万, S4000 0.9–1.1万).
    for (accelerator, low) in [
        ("hygon-dcu-z100", 11_000.0),
        ("cambricon-mlu590", 38_000.0),
        ("biren-br100", 45_000.0),
        ("moorethreads-mtt-s4000", 9_000.0),
    ] {
        assert!(
            !offers.iter().any(|v| v.offer.accelerator_id.as_deref() == Some(accelerator) && v.offer.price == low),
            "{accelerator}"
        );
    }
    // And nothing cited to the fact sheet is stored with its X tag.
    let t = fresh().tables().unwrap();
    assert!(
        !t.offers.iter().any(|o| o.source.split(';').all(|s| s.starts_with("cn:")) && o.confidence == Confidence::X)
    );
}

#[test]
fn the_domestic_market_is_priced_and_each_price_is_traceable() {
    let c = fresh();
    let domestic = c.offers(&OfferFilter { domestic: Some(true), ..Default::default() }).unwrap();
    assert!(domestic.len() >= 25, "{} domestic offers", domestic.len());
    for v in &domestic {
        let o = &v.offer;
        assert!(o.source.split(';').all(|id| c.source(id).unwrap().is_some()), "{}: {}", o.id, o.source);
        assert!(o.as_of.is_some() || o.notes.as_deref().is_some_and(|n| n.contains("as_of empty")), "{}", o.id);
    }
    let purchases = domestic.iter().filter(|v| v.offer.billing_mode == BillingMode::Purchase).count();
    assert!(purchases >= 4, "{purchases} purchases");
    // Tencent's GT4 and GN10Xp are official list prices now.
    for id in ["tencent-cloud-gt4-4xlarge96-monthly", "tencent-cloud-gn10xp-20xlarge320-on-demand"] {
        let v = view(id);
        assert_eq!((v.offer.confidence, v.offer.source.as_str()), (Confidence::A, "cn:TQ"), "{id}");
    }
    assert!(view("tencent-cloud-gt4-41xlarge948-monthly").offer.price == 114_016.0);
}

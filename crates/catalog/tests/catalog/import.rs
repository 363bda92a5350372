//! Real feed formats in, one transaction each.

use suanli_catalog::import::{Format, Provenance};
use suanli_catalog::query::OfferFilter;

use crate::{NOW, fixture, fresh};

fn provenance(source: &str) -> Provenance {
    Provenance { source: source.into(), as_of: Some("2026-11-30".into()), confidence: suanli_catalog::Confidence::A }
}

#[test]
fn skypilot_excerpt_imports_gpu_rows_and_skips_cpu_rows() {
    let mut c = fresh();
    let bytes = std::fs::read(fixture("skypilot-lambda-vms-excerpt.csv")).unwrap();
    let report = c
        .import(
            &Format::Skypilot { provider: "lambda".into() },
            &bytes,
            &provenance("SkyPilot catalogue lambda/vms.csv"),
            NOW,
        )
        .unwrap();
    // 9 data rows: 2 CPU-only and 3 A6000 (no catalogue row yet) reported, 2 V100 + 2 A100 landed.
    assert_eq!(report.rows, 9);
    assert_eq!((report.rows_landed, report.rows_reported), (4, 5));
    assert_eq!(report.skipped.len(), 5);
    assert!(report.rejected.is_empty(), "{:?}", report.rejected);
    let a6000: Vec<usize> = report
        .skipped
        .iter()
        .filter(|s| matches!(&s.reason, suanli_catalog::import::SkipReason::MissingAccelerator { name, .. } if name == "A6000"))
        .map(|s| s.line)
        .collect();
    assert_eq!(a6000, vec![6, 7, 8]);
    assert_eq!(report.imported, 4);
    let v100 = c.offer("lambda-gpu-8x-v100-v100-x8-us-east-1-on-demand", &OfferFilter::default()).unwrap().unwrap();
    assert_eq!(v100.origin, suanli_catalog::query::OfferOrigin::Import);
    assert_eq!(v100.offer.accelerator_id.as_deref(), Some("nvidia-v100-16gb"));
    // 4.40 USD for 8 cards = 0.55 per card-hour.
    assert!((v100.price_per_accel_hour.unwrap() - 0.55).abs() < 1e-12);
    let a100 = c.offer("lambda-gpu-8x-a100-a100-x8-us-west-2-on-demand", &OfferFilter::default()).unwrap().unwrap();
    // Lambda's 8 × A100 40 GB is the SXM row, as in the bundled catalogue.
    assert_eq!(a100.offer.accelerator_id.as_deref(), Some("nvidia-a100-sxm-40gb"));
}

#[test]
fn reimporting_a_changed_price_records_its_history() {
    let mut c = fresh();
    let text = std::fs::read_to_string(fixture("skypilot-lambda-vms-excerpt.csv")).unwrap();
    let f = Format::Skypilot { provider: "lambda".into() };
    c.import(&f, text.as_bytes(), &provenance("feed v1"), "2026-11-01T00:00:00Z").unwrap();
    let cheaper = text.replace(",10.32,us-east-1,", ",9.99,us-east-1,");
    let report = c.import(&f, cheaper.as_bytes(), &provenance("feed v2"), NOW).unwrap();
    assert_eq!(report.change.as_ref().map(|ch| ch.repriced), Some(1));
    let history = c.price_history("lambda-gpu-8x-a100-a100-x8-us-east-1-on-demand").unwrap();
    let moves: Vec<(Option<f64>, Option<f64>)> = history.iter().map(|h| (h.old_price, h.new_price)).collect();
    assert_eq!(moves, vec![(None, Some(10.32)), (Some(10.32), Some(9.99))]);
    assert_eq!(history[1].old_source.as_deref(), Some("feed v1"));
    // A third price: the first is still the one the offer was added with.
    let dearer = text.replace(",10.32,us-east-1,", ",11.5,us-east-1,");
    c.import(&f, dearer.as_bytes(), &provenance("feed v3"), "2026-12-01T00:00:00Z").unwrap();
    let history = c.price_history("lambda-gpu-8x-a100-a100-x8-us-east-1-on-demand").unwrap();
    let moves: Vec<(&str, Option<f64>, Option<f64>)> =
        history.iter().map(|h| (h.what.key(), h.old_price, h.new_price)).collect();
    assert_eq!(
        moves,
        vec![("added", None, Some(10.32)), ("repriced", Some(10.32), Some(9.99)), ("repriced", Some(9.99), Some(11.5))]
    );
    assert_eq!(history[0].new_as_of.as_deref(), Some("2026-11-30"));
    assert_eq!(history[0].applied_at, "2026-11-01T00:00:00Z");
}

#[test]
fn an_import_writes_no_history_row_per_added_offer_and_reads_as_if_it_had() {
    let mut c = fresh();
    let text = std::fs::read_to_string(fixture("skypilot-lambda-vms-excerpt.csv")).unwrap();
    let f = Format::Skypilot { provider: "lambda".into() };
    let first = c.import(&f, text.as_bytes(), &provenance("feed v1"), "2026-11-01T00:00:00Z").unwrap();
    let cheaper = text.replace(",10.32,us-east-1,", ",9.99,us-east-1,");
    let second = c.import(&f, cheaper.as_bytes(), &provenance("feed v2"), NOW).unwrap();
    let (first, second) = (first.change.unwrap(), second.change.unwrap());
    let rows = |c: &suanli_catalog::Catalog, change: i64| -> i64 {
        c.connection()
            .query_row("SELECT count(*) FROM price_history WHERE change_id = ?1", [change], |r| r.get(0))
            .unwrap()
    };
    assert_eq!((first.added, rows(&c, first.id)), (4, 0));
    assert_eq!((second.repriced, rows(&c, second.id)), (1, 1));

    // What a catalogue written before this schema holds for the same imports
    // (a history row per added offer, no mark) reads the same.
    let id = "lambda-gpu-8x-a100-a100-x8-us-east-1-on-demand";
    let (history, details) = (c.price_history(id).unwrap(), c.change_details(first.id).unwrap());
    assert_eq!(details.len(), 4);
    assert_eq!(
        details.iter().find(|d| d.offer_id == id).map(|d| (d.what.key(), d.new_price)),
        Some(("added", Some(10.32)))
    );
    c.connection()
        .execute_batch(
            "INSERT INTO price_history SELECT * FROM offer_history WHERE what = 'added';
             UPDATE imported_offers SET _added_change = NULL;",
        )
        .unwrap();
    assert_eq!(rows(&c, first.id), 4);
    assert_eq!(c.price_history(id).unwrap(), history);
    assert_eq!(c.change_details(first.id).unwrap(), details);
}

const AZURE_PAGE: &str = r#"{
  "BillingCurrency": "USD", "CustomerEntityId": "Default", "CustomerEntityType": "Retail",
  "Items": [
    {"currencyCode": "USD", "tierMinimumUnits": 0.0, "retailPrice": 27.197, "unitPrice": 27.197,
     "armRegionName": "eastus", "location": "US East", "effectiveStartDate": "2024-05-01T00:00:00Z",
     "meterId": "m1", "meterName": "ND96asr v4", "productId": "p", "skuId": "p/1",
     "productName": "Virtual Machines NDasr A100 v4 Series", "skuName": "ND96asr v4",
     "serviceName": "Virtual Machines", "serviceId": "s", "serviceFamily": "Compute",
     "unitOfMeasure": "1 Hour", "type": "Consumption", "isPrimaryMeterRegion": true, "armSkuName": "Standard_ND96asr_v4"},
    {"currencyCode": "USD", "tierMinimumUnits": 0.0, "retailPrice": 2.99, "unitPrice": 2.99,
     "armRegionName": "eastus", "location": "US East", "effectiveStartDate": "2024-05-01T00:00:00Z",
     "meterId": "m2", "meterName": "ND96asr v4 Spot", "productId": "p", "skuId": "p/2",
     "productName": "Virtual Machines NDasr A100 v4 Series", "skuName": "ND96asr v4 Spot",
     "serviceName": "Virtual Machines", "serviceId": "s", "serviceFamily": "Compute",
     "unitOfMeasure": "1 Hour", "type": "Consumption", "isPrimaryMeterRegion": true, "armSkuName": "Standard_ND96asr_v4"},
    {"currencyCode": "USD", "tierMinimumUnits": 0.0, "retailPrice": 142000.0, "unitPrice": 142000.0,
     "armRegionName": "eastus", "location": "US East", "effectiveStartDate": "2024-05-01T00:00:00Z",
     "meterId": "m3", "meterName": "ND96asr v4", "productId": "p", "skuId": "p/3",
     "productName": "Virtual Machines NDasr A100 v4 Series", "skuName": "ND96asr v4", "reservationTerm": "1 Year",
     "serviceName": "Virtual Machines", "serviceId": "s", "serviceFamily": "Compute",
     "unitOfMeasure": "1 Hour", "type": "Reservation", "isPrimaryMeterRegion": true, "armSkuName": "Standard_ND96asr_v4"},
    {"currencyCode": "USD", "tierMinimumUnits": 0.0, "retailPrice": 30.0, "unitPrice": 30.0,
     "armRegionName": "eastus", "location": "US East", "effectiveStartDate": "2024-05-01T00:00:00Z",
     "meterId": "m4", "meterName": "ND96asr v4", "productId": "p", "skuId": "p/4",
     "productName": "Virtual Machines NDasr A100 v4 Series Windows", "skuName": "ND96asr v4",
     "serviceName": "Virtual Machines", "serviceId": "s", "serviceFamily": "Compute",
     "unitOfMeasure": "1 Hour", "type": "Consumption", "isPrimaryMeterRegion": true, "armSkuName": "Standard_ND96asr_v4"},
    {"currencyCode": "USD", "tierMinimumUnits": 0.0, "retailPrice": 0.176346, "unitPrice": 0.176346,
     "armRegionName": "westeurope", "location": "EU West", "effectiveStartDate": "2020-08-01T00:00:00Z",
     "meterId": "m5", "meterName": "F16s Spot", "productId": "DZH318Z0BQPS", "skuId": "DZH318Z0BQPS/00TG",
     "productName": "Virtual Machines FS Series", "skuName": "F16s Spot",
     "serviceName": "Virtual Machines", "serviceId": "s", "serviceFamily": "Compute",
     "unitOfMeasure": "1 Hour", "type": "Consumption", "isPrimaryMeterRegion": true, "armSkuName": "Standard_F16s"},
    {"currencyCode": "USD", "tierMinimumUnits": 0.0, "retailPrice": -1.0, "unitPrice": -1.0,
     "armRegionName": "westus", "location": "US West", "effectiveStartDate": "2024-05-01T00:00:00Z",
     "meterId": "m6", "meterName": "ND96asr v4", "productId": "p", "skuId": "p/6",
     "productName": "Virtual Machines NDasr A100 v4 Series", "skuName": "ND96asr v4",
     "serviceName": "Virtual Machines", "serviceId": "s", "serviceFamily": "Compute",
     "unitOfMeasure": "1 Hour", "type": "Consumption", "isPrimaryMeterRegion": true, "armSkuName": "Standard_ND96asr_v4"}
  ],
  "NextPageLink": null, "Count": 6
}"#;

#[test]
fn azure_retail_page_handles_reservations_spot_and_windows() {
    let mut c = fresh();
    let report =
        c.import(&Format::AzureRetail, AZURE_PAGE.as_bytes(), &provenance("Azure Retail Prices API"), NOW).unwrap();
    assert_eq!(report.rows, 6);
    assert_eq!(report.imported, 3, "{report:?}");
    assert_eq!(report.skipped.len(), 2, "Windows and the CPU-only F16s");
    assert_eq!(report.rejected.len(), 1);
    assert_eq!((report.rejected[0].line, report.rejected[0].field.as_str()), (Some(6), "price"));
    let get = |id: &str| c.offer(id, &OfferFilter::default()).unwrap().unwrap();
    // The reservation's retailPrice is the 1-year total: 142,000 ÷ 8,760 h = 16.21 per VM-hour.
    let reserved = get("azure-nd96asr-v4-eastus-reserved-1y");
    assert!((reserved.offer.price - 142_000.0 / 8760.0).abs() < 1e-9);
    assert_eq!(reserved.offer.billing_mode, suanli_catalog::BillingMode::Reserved1y);
    assert_eq!(get("azure-nd96asr-v4-eastus-spot").offer.price, 2.99);
    // The import shadows the bundled offer with the same id.
    assert_eq!(get("azure-nd96asr-v4-eastus-on-demand").origin, suanli_catalog::query::OfferOrigin::Import);
}

#[test]
fn own_csv_import_is_all_valid_rows_or_nothing_with_each_rejection_named() {
    let mut c = fresh();
    let header = "id,provider_id,accelerator_id,instance,region,billing_mode,accelerators_per_instance,price,price_unit,currency,upfront,interconnect,as_of,source,confidence,notes";
    let text = format!(
        "{header}\n\
         q1,aliyun,huawei-ascend-910b,node,cn-beijing,on_demand,8,100,instance_hour,CNY,,,2026-11-30,quote,A,\n\
         q2,aliyun,huawei-ascend-910b,node,cn-beijing,on_demand,8,-3,instance_hour,CNY,,,2026-11-30,quote,A,\n\
         q3,aliyun,huawei-ascend-910b,node,cn-beijing,on_demand,8,NaN,instance_hour,CNY,,,2026-11-30,quote,A,\n\
         q4,nobody,huawei-ascend-910b,node,cn-beijing,on_demand,8,1,instance_hour,RMB,,,2026-11-30,quote,A,\n\
         q1,aliyun,huawei-ascend-910b,node,cn-beijing,spot,8,50,instance_hour,CNY,,,2026-11-30,quote,A,\n\
         q6,aliyun,huawei-ascend-910b,node,cn-beijing,on_demand,eight,1,instance_hour,CNY,,,2026-11-30,quote,A,\n"
    );
    let report = c.import(&Format::Csv, text.as_bytes(), &provenance("own"), NOW).unwrap();
    assert_eq!(report.imported, 1);
    let seen: Vec<(Option<usize>, &str, &str)> =
        report.rejected.iter().map(|r| (r.line, r.field.as_str(), r.value.as_str())).collect();
    assert!(seen.contains(&(Some(3), "price", "-3")), "{seen:?}");
    assert!(seen.contains(&(Some(4), "price", "NaN")), "{seen:?}");
    assert!(seen.contains(&(Some(5), "provider_id", "nobody")), "{seen:?}");
    assert!(seen.contains(&(Some(5), "currency", "RMB")), "{seen:?}");
    assert!(seen.contains(&(Some(6), "id", "q1")), "{seen:?}");
    assert!(seen.iter().any(|(line, field, _)| *line == Some(7) && *field == "accelerators_per_instance"), "{seen:?}");
}

#[test]
fn wrong_encodings_and_foreign_files_are_refused_and_nothing_lands() {
    let mut c = fresh();
    let before = c.all_offers(true).unwrap().len();
    // "价格" in GBK is not UTF-8.
    let gbk = b"id,\xbc\xdb\xb8\xf1\n";
    let err = c.import(&Format::Csv, gbk, &provenance("x"), NOW).unwrap_err();
    assert!(err.to_string().contains("not UTF-8"), "{err}");
    let err =
        c.import(&Format::Skypilot { provider: "lambda".into() }, b"a,b\n1,2\n", &provenance("x"), NOW).unwrap_err();
    assert!(err.to_string().contains("not a SkyPilot vms.csv"), "{err}");
    let err = c.import(&Format::AzureRetail, b"{\"Items\": [", &provenance("x"), NOW).unwrap_err();
    assert!(err.to_string().contains("Azure"), "{err}");
    assert_eq!(c.all_offers(true).unwrap().len(), before);
}

/// Built from Microsoft's documented schema, not recorded: no recorded Azure
/// Retail Prices page with GPU sizes was found in public repositories
/// (`tests/fixtures/README.md`).
#[test]
fn azure_retail_follows_pages_to_the_end_with_reservations_savings_plans_spot_and_currencies() {
    let mut c = fresh();
    let bytes = std::fs::read(fixture("azure/retail-gpu-pages.json")).unwrap();
    let r = c.import(&Format::AzureRetail, &bytes, &provenance("Azure Retail Prices API"), NOW).unwrap();
    assert_eq!(r.rows, 11, "items of all three pages");
    assert_eq!((r.rows_landed, r.rows_reported), (6, 5), "{r:#?}");
    let get = |id: &str| c.offer(id, &OfferFilter::default()).unwrap().unwrap_or_else(|| panic!("{id}")).offer;
    assert_eq!(get("azure-nd96isr-h100-v5-eastus-on-demand").price, 98.32);
    assert_eq!(get("azure-nd96isr-h100-v5-eastus-spot").price, 39.328);
    // Savings plans are hourly rates on the Consumption item, one offer per term.
    let plan = get("azure-nd96isr-h100-v5-eastus-savings-plan-3y");
    assert_eq!((plan.price, plan.billing_mode), (52.0, suanli_catalog::BillingMode::SavingsPlan));
    assert_eq!(get("azure-nd96isr-h100-v5-eastus-savings-plan-1y").price, 72.0);
    // A reservation's price is for the whole term: per hour over 1 or 3 years ("3 years" as the table spells it).
    assert!((get("azure-nd96isr-h100-v5-eastus-reserved-1y").price - 551_000.0 / 8760.0).abs() < 1e-9);
    assert!((get("azure-nd96isr-h100-v5-eastus-reserved-3y").price - 1_200_000.0 / 26_280.0).abs() < 1e-9);
    // currencyCode is kept.
    let eur = get("azure-nc24ads-a100-v4-westeurope-spot");
    assert_eq!((eur.price, eur.currency), (0.43, suanli_model::Currency::EUR));
    use suanli_catalog::import::SkipReason;
    let reasons: Vec<&SkipReason> = r.skipped.iter().map(|s| &s.reason).collect();
    assert!(reasons.contains(&&SkipReason::WindowsPrice));
    assert!(reasons.contains(&&SkipReason::LowPriority));
    assert!(reasons.contains(&&SkipReason::DevTestPrice));
    assert!(reasons.contains(&&SkipReason::NotGpuSize));
    assert!(r.rejected.iter().any(|e| e.field == "unitOfMeasure" && e.value == "1/Month"));
}

#[test]
fn an_azure_response_cut_off_before_its_last_page_imports_nothing() {
    let mut c = fresh();
    let before = c.all_offers(true).unwrap();
    let text = std::fs::read_to_string(fixture("azure/retail-gpu-pages.json")).unwrap();
    let mut pages: Vec<serde_json::Value> = serde_json::from_str(&text).unwrap();
    pages.pop();
    let cut = serde_json::to_vec(&pages).unwrap();
    let err = c.import(&Format::AzureRetail, &cut, &provenance("Azure Retail Prices API"), NOW).unwrap_err();
    assert!(matches!(err, suanli_catalog::Error::IncompleteFeed { pages: 2, .. }), "{err}");
    assert!(err.to_string().contains("$skip=2000"), "{err}");
    assert_eq!(c.all_offers(true).unwrap(), before);
}

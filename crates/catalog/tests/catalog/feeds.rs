//! Real SkyPilot v9 rows (unedited excerpts, `tests/fixtures/skypilot`):
//! every row lands or is reported, with counts that add up.

use suanli_catalog::import::{Format, ImportReport, Provenance};
use suanli_catalog::query::OfferFilter;

use crate::{NOW, fixture, fresh};

fn provenance(cloud: &str) -> Provenance {
    Provenance {
        source: format!("SkyPilot catalogue v9 {cloud}/vms.csv"),
        as_of: Some("2026-11-30".into()),
        confidence: suanli_catalog::Confidence::A,
    }
}

fn import(c: &mut suanli_catalog::Catalog, cloud: &str, path: &str) -> ImportReport {
    let bytes = std::fs::read(fixture(path)).unwrap();
    c.import(&Format::Skypilot { provider: cloud.into() }, &bytes, &provenance(cloud), NOW).unwrap()
}

/// Every row is accounted for: landed, or reported with a reason on its line.
fn accounted(r: &ImportReport, data_rows: usize) {
    assert_eq!(r.rows, data_rows);
    assert_eq!(r.rows_landed + r.rows_reported, r.rows);
    let reasons: std::collections::BTreeSet<usize> =
        r.rejected.iter().filter_map(|e| e.line).chain(r.skipped.iter().map(|s| s.line)).collect();
    assert!(reasons.len() >= r.rows_reported, "a reported row without a reason: {r:#?}");
}

fn offer(c: &suanli_catalog::Catalog, id: &str) -> suanli_catalog::Offer {
    c.offer(id, &OfferFilter::default()).unwrap().unwrap_or_else(|| panic!("no offer {id}")).offer.as_ref().clone()
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-9
}

#[test]
fn aws_keeps_every_zone_as_its_own_offer() {
    let mut c = fresh();
    let r = import(&mut c, "aws", "skypilot/v9/aws/vms.csv");
    accounted(&r, 39);
    // 5 CPU-only sizes left out, and g6e.48xlarge in ap-northeast-3 with neither price.
    assert_eq!((r.rows_landed, r.rows_reported), (33, 6), "{r:#?}");
    // p6-b200 us-east-2: the zones' spot prices are both kept.
    let az1 = offer(&c, "aws-p6-b200-48xlarge-b200-x8-us-east-2-use2-az1-spot");
    let az3 = offer(&c, "aws-p6-b200-48xlarge-b200-x8-us-east-2-use2-az3-spot");
    assert_eq!((az1.price, az3.price), (28.7577, 11.3933));
    assert_eq!(az1.notes.as_deref(), Some("zone use2-az1"));
    assert_eq!(az1.region.as_deref(), Some("us-east-2"));
    // H200 (P5en) is mapped; P5e has no on-demand price in the feed, so only its spot lands.
    assert_eq!(
        offer(&c, "aws-p5en-48xlarge-h200-x8-us-east-1-use1-az2-on-demand").accelerator_id.as_deref(),
        Some("nvidia-h200-sxm-141gb")
    );
    assert_eq!(offer(&c, "aws-p5e-48xlarge-h200-x8-us-east-2-use2-az1-spot").price, 15.476);
    assert!(r.rejected.iter().any(|e| e.line == Some(32) && e.field == "Price"));
    assert!(
        c.offer("aws-p5e-48xlarge-h200-x8-us-east-2-use2-az1-on-demand", &OfferFilter::default()).unwrap().is_none()
    );
    assert_eq!(
        offer(&c, "aws-g5-4xlarge-a10g-x1-us-east-1-use1-az1-on-demand").accelerator_id.as_deref(),
        Some("nvidia-a10g")
    );
}

#[test]
fn gcp_gpu_only_rows_are_prices_per_accelerator_and_hosts_get_their_gpus() {
    let mut c = fresh();
    let r = import(&mut c, "gcp", "skypilot/v9/gcp/vms.csv");
    accounted(&r, 59);
    assert_eq!((r.rows_landed, r.rows_reported), (38, 21), "{r:#?}");
    // H100 × 8 in us-east5-a (88.2708) is no longer lost to the × 2 row: a price per GPU-hour.
    let h100 = offer(&c, "gcp-gpu-h100-x8-us-east5-a-on-demand");
    assert!(close(h100.price, 88.2708 / 8.0));
    assert_eq!(h100.price_unit, suanli_catalog::PriceUnit::AcceleratorHour);
    assert_eq!(h100.instance, None);
    assert_eq!(h100.accelerator_id.as_deref(), Some("nvidia-h100-sxm-80gb"));
    assert!(h100.notes.as_deref().unwrap().contains("host not included"));
    assert!(close(offer(&c, "gcp-gpu-h100-x2-us-east5-a-on-demand").price, 22.0677 / 2.0));
    // All 12 L4 GPU-only rows of us-central1 land (4 counts × 3 zones, on demand and spot).
    let l4 = c.all_offers(true).unwrap().into_iter().filter(|(o, _)| o.id.starts_with("gcp-gpu-l4-")).count();
    assert_eq!(l4, 24);
    // H200 is mapped (A3 Ultra is H200 SXM).
    assert_eq!(
        offer(&c, "gcp-gpu-h200-x8-us-central1-b-on-demand").accelerator_id.as_deref(),
        Some("nvidia-h200-sxm-141gb")
    );
    // a2-highgpu-8g is 8 × A100 (empty accelerator columns in the feed): host plus its GPUs.
    let a2 = offer(&c, "gcp-a2-highgpu-8g-a100-x8-us-central1-a-on-demand");
    assert_eq!(a2.accelerator_id.as_deref(), Some("nvidia-a100-sxm-40gb"));
    assert_eq!(a2.accelerators_per_instance, Some(8.0));
    assert!(close(a2.price, 5.91582 + 23.47126));
    let g2 = offer(&c, "gcp-g2-standard-4-l4-x1-us-central1-a-spot");
    assert!(close(g2.price, 0.07502 + 0.2862));
    // Where the excerpt has no GPU-only row for the host's zone, the host is reported, not guessed.
    let host = r.skipped.iter().find(|s| s.line == 10).unwrap();
    assert!(matches!(host.reason, suanli_catalog::import::SkipReason::HostWithoutGpuPrice { .. }));
    // TPUs are left out with the alias table's reason; A4's 0.0 prices are refused.
    assert!(r.skipped.iter().any(|s| s.subject == "tpu-v6e-8"));
    assert!(r.rejected.iter().any(|e| e.line == Some(16) && e.value == "0.0"));
    assert!(r.unknown_names.is_empty());
}

/// One feed file: how many data rows, how many land, and offers it must give
/// (id, accelerator, price as the catalogue stores it).
struct Feed {
    cloud: &'static str,
    path: &'static str,
    rows: usize,
    landed: usize,
    offers: &'static [(&'static str, &'static str, f64)],
}

const FEEDS: &[Feed] = &[
    Feed {
        cloud: "aws",
        path: "skypilot/v9/aws/vms.csv",
        rows: 39,
        landed: 33,
        offers: &[
            ("aws-p6-b200-48xlarge-b200-x8-us-east-2-use2-az1-spot", "nvidia-b200", 28.7577),
            ("aws-p6-b200-48xlarge-b200-x8-us-east-2-use2-az3-spot", "nvidia-b200", 11.3933),
            ("aws-p5e-48xlarge-h200-x8-us-east-2-use2-az1-spot", "nvidia-h200-sxm-141gb", 15.476),
        ],
    },
    Feed {
        cloud: "gcp",
        path: "skypilot/v9/gcp/vms.csv",
        rows: 59,
        landed: 38,
        offers: &[
            // GPU-only rows are prices per GPU-hour: H100 × 8 in us-east5-a at 88.2708.
            ("gcp-gpu-h100-x8-us-east5-a-on-demand", "nvidia-h100-sxm-80gb", 88.2708 / 8.0),
            ("gcp-gpu-h100-x2-us-east5-a-on-demand", "nvidia-h100-sxm-80gb", 22.0677 / 2.0),
            // A host with its GPUs: a2-highgpu-8g is 8 × A100 40 GB, host plus GPUs.
            ("gcp-a2-highgpu-8g-a100-x8-us-central1-a-on-demand", "nvidia-a100-sxm-40gb", 5.91582 + 23.47126),
            ("gcp-g2-standard-4-l4-x1-us-central1-a-spot", "nvidia-l4", 0.07502 + 0.2862),
        ],
    },
    Feed { cloud: "lambda", path: "skypilot/v9/lambda/vms.csv", rows: 25, landed: 18, offers: &[] },
    Feed {
        cloud: "nebius",
        path: "skypilot/v9/nebius/vms.csv",
        rows: 27,
        landed: 22,
        offers: &[(
            "nebius-gpu-h200-sxm-8gpu-128vcpu-1600gb-h200-x8-eu-north1-on-demand",
            "nvidia-h200-sxm-141gb",
            28.0,
        )],
    },
    Feed { cloud: "oci", path: "skypilot/v9/oci/vms.csv", rows: 32, landed: 28, offers: &[] },
    Feed { cloud: "vast", path: "skypilot/v9/vast/vms.csv", rows: 64, landed: 47, offers: &[] },
    Feed { cloud: "cudo", path: "skypilot/v9/cudo/vms.csv", rows: 24, landed: 14, offers: &[] },
    // Providers whose rows rest on their own feed files: every GPU row with a catalogue
    // accelerator and a region lands (Seeweb's H200, RTX 6000, RTX A6000 and A30 rows and
    // its 6 rows without a region are reported).
    Feed { cloud: "fluidstack", path: "skypilot/v9/fluidstack/vms.csv", rows: 1, landed: 1, offers: &[] },
    Feed { cloud: "seeweb", path: "skypilot/v9/seeweb/vms.csv", rows: 72, landed: 12, offers: &[] },
    Feed { cloud: "ibm", path: "skypilot/v9/ibm/vms.csv", rows: 54, landed: 27, offers: &[] },
];

/// Imports one feed into a fresh catalogue and checks it against its row of the table.
fn check(feed: &Feed) {
    let mut c = fresh();
    let r = import(&mut c, feed.cloud, feed.path);
    accounted(&r, feed.rows);
    assert_eq!(r.rows_landed, feed.landed, "{}: {r:#?}", feed.cloud);
    for (id, accelerator, price) in feed.offers {
        let o = offer(&c, id);
        assert_eq!(o.accelerator_id.as_deref(), Some(*accelerator), "{id}");
        assert!(close(o.price, *price), "{id}: {} against {price}", o.price);
    }
}

#[test]
fn every_feed_adds_up_and_gives_the_offers_its_rows_say() {
    for feed in FEEDS {
        check(feed);
    }
}

#[test]
fn lambda_maps_pcie_and_sxm_rows_as_the_bundled_catalogue_does() {
    let mut c = fresh();
    import(&mut c, "lambda", "skypilot/v9/lambda/vms.csv");
    let acc = |id: &str| offer(&c, id).accelerator_id.unwrap();
    // PCIe is no longer the generic H100; 8 × A100 40 GB is the SXM row, as in the bundled catalogue.
    assert_eq!(acc("lambda-gpu-1x-h100-pcie-h100-x1-us-east-1-on-demand"), "nvidia-h100-pcie-80gb");
    assert_eq!(acc("lambda-gpu-8x-a100-a100-x8-us-east-1-on-demand"), "nvidia-a100-sxm-40gb");
    assert_eq!(acc("lambda-gpu-1x-a100-a100-x1-us-east-1-on-demand"), "nvidia-a100-pcie-40gb");
}

#[test]
fn vast_is_the_catalogues_vast_ai_and_its_h200_without_a_form_factor_is_reported() {
    let mut c = fresh();
    let r = import(&mut c, "vast", "skypilot/v9/vast/vms.csv");
    assert!(c.all_offers(true).unwrap().iter().any(|(o, _)| o.provider_id == "vast-ai"));
    let h200: Vec<usize> = r
        .skipped
        .iter()
        .filter(|s| matches!(&s.reason, suanli_catalog::import::SkipReason::MissingAccelerator { name, .. } if name == "H200"))
        .map(|s| s.line)
        .collect();
    assert_eq!(h200, vec![10, 11, 12, 13, 17, 18]);
}

#[test]
fn unknown_names_are_reported_once_each_with_their_count() {
    let mut c = fresh();
    let text = std::fs::read_to_string(fixture("skypilot/v9/lambda/vms.csv")).unwrap();
    let renamed = text.replace("H100,", "Z9000,");
    let f = Format::Skypilot { provider: "lambda".into() };
    let r = c.import(&f, renamed.as_bytes(), &provenance("lambda"), NOW).unwrap();
    let z = r.unknown_names.iter().find(|(n, _)| n == "Z9000").unwrap();
    let rows = text.lines().filter(|l| l.contains("H100,")).count();
    assert_eq!(z.1, rows);
    assert_eq!(r.unknown_names.len(), 1);
    accounted(&r, 25);
}

#[test]
fn an_imported_offer_is_found_by_its_instance_type_region_and_accelerator() {
    let mut c = fresh();
    let before = c.counts().unwrap();
    let r = import(&mut c, "aws", "skypilot/v9/aws/vms.csv");
    // The counts Settings shows: the imported offers beside the catalogue's, which are untouched.
    let after = c.counts().unwrap();
    assert_eq!((before.imported_offers, after.imported_offers), (0, r.imported as u32));
    assert!(r.imported > 0);
    assert_eq!(after.offers, before.offers);
    let ids = |c: &suanli_catalog::Catalog, q: &str| c.search(q).unwrap().into_iter().map(|h| h.id).collect::<Vec<_>>();
    let az1 = "aws-p6-b200-48xlarge-b200-x8-us-east-2-use2-az1-spot";
    for q in ["p6-b200.48xlarge", "us-east-2", "B200"] {
        assert!(ids(&c, q).iter().any(|id| id == az1), "{q}: {:?}", ids(&c, q));
    }
    // Each instance type and region is indexed once, however many offers carry it.
    let names = |c: &suanli_catalog::Catalog, kind: &str| -> i64 {
        c.connection()
            .query_row("SELECT count(*) - count(DISTINCT item_id) FROM search WHERE kind = ?1", [kind], |r| r.get(0))
            .unwrap()
    };
    assert_eq!((names(&c, "instance"), names(&c, "region")), (0, 0));
    // Imported again with a price changed: still found, and nothing indexed twice.
    let text = std::fs::read_to_string(fixture("skypilot/v9/aws/vms.csv")).unwrap().replace("28.7577", "27.5");
    c.import(&Format::Skypilot { provider: "aws".into() }, text.as_bytes(), &provenance("aws"), NOW).unwrap();
    assert_eq!(offer(&c, az1).price, 27.5);
    let hits = ids(&c, "p6-b200.48xlarge");
    assert_eq!(hits.iter().filter(|id| *id == az1).count(), 1, "{hits:?}");
    assert_eq!((names(&c, "instance"), names(&c, "region")), (0, 0));
}

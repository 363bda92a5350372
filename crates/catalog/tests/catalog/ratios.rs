//! Efficiency ratios over the bundled catalogue: measured beats estimated,
//! pins beat both, like-for-like only.

use suanli_catalog::WorkloadClass;
use suanli_catalog::query::{OfferFilter, REFERENCE_ACCELERATOR};
use suanli_catalog::ratios::Basis;

use crate::fresh;

#[test]
fn explore_coverage() {
    let c = fresh();
    let book = c.ratio_book(REFERENCE_ACCELERATOR).unwrap();
    eprintln!("derived comparisons: {}", book.derived.len());
    for class in WorkloadClass::PRICED {
        let offers = c.offers(&OfferFilter { workload_class: Some(class), ..Default::default() }).unwrap();
        let with = offers
            .iter()
            .filter(|o| o.effective_price_per_ref_gpu_hour.is_some() || o.effective_capex_per_ref_gpu.is_some())
            .count();
        let mut bases = std::collections::BTreeMap::new();
        for o in &offers {
            *bases.entry(o.efficiency.as_ref().map(|r| r.basis.key()).unwrap_or("none")).or_insert(0) += 1;
        }
        eprintln!("{class}: {with}/{} {:?}", offers.len(), bases);
        for o in offers.iter().filter(|o| o.efficiency.is_none()).take(5) {
            eprintln!("   none: {} {:?}", o.offer.id, o.no_ratio);
        }
    }
    let cal = c.calibration(REFERENCE_ACCELERATOR).unwrap();
    eprintln!("exponents {:?} stacks {:?}", cal.exponents, cal.stacks);
    for e in &cal.classes {
        eprintln!("{:?}", e);
    }
    let _ = Basis::Derived;
}

#[test]
fn explore_cells() {
    let c = fresh();
    let book = c.ratio_book(REFERENCE_ACCELERATOR).unwrap();
    for (a, class) in [
        ("nvidia-a100-pcie-40gb", WorkloadClass::RecommendationTraining),
        ("amd-mi300x", WorkloadClass::NlpTraining),
        ("nvidia-h100-sxm-80gb", WorkloadClass::LlmPretraining),
        ("huawei-ascend-910b", WorkloadClass::LlmPretraining),
        ("nvidia-h100-sxm-80gb", WorkloadClass::LlmFinetuning),
        ("iluvatar-bi-v100", WorkloadClass::NlpTraining),
    ] {
        match book.get(a, class) {
            Ok(r) => eprintln!("{a} {class}: {:.3} {:?}\n   {}", r.ratio, r.basis, r.method_en),
            Err(e) => eprintln!("{a} {class}: {e:?}"),
        }
    }
}

#[test]
fn explore_pair() {
    let c = fresh();
    let book = c.ratio_book(REFERENCE_ACCELERATOR).unwrap();
    for d in book.derived.iter().filter(|d| {
        d.workload_class == WorkloadClass::RecommendationTraining
            && (d.accelerator_id.contains("a100-pcie-40") || d.against_id.contains("a100-pcie-40"))
    }) {
        eprintln!("{} / {} = {:.3} {:?} {:?}", d.accelerator_id, d.against_id, d.ratio, d.measurements, d.round);
    }
}

#[test]
fn explore_calibration_rows() {
    let c = fresh();
    let cal = c.calibration(REFERENCE_ACCELERATOR).unwrap();
    for r in cal.rows.iter() {
        eprintln!(
            "{:?} {} measured {:.3} est {:.3} err {:+.2}",
            r.workload_class, r.accelerator_id, r.measured, r.estimate_left_out, r.error
        );
    }
}

#[test]
fn explore_missing() {
    let c = fresh();
    let mut m = std::collections::BTreeMap::new();
    for class in [WorkloadClass::LlmPretraining, WorkloadClass::LlmInference] {
        for o in c.offers(&OfferFilter { workload_class: Some(class), ..Default::default() }).unwrap() {
            if o.efficiency.is_none() {
                *m.entry((
                    class.key(),
                    o.offer.accelerator_id.clone().unwrap_or_default(),
                    format!("{:?}", o.no_ratio),
                ))
                .or_insert(0) += 1;
            }
        }
    }
    for (k, v) in m {
        eprintln!("{v} {k:?}");
    }
}

#[test]
fn explore_timing() {
    let t = std::time::Instant::now();
    let c = fresh();
    eprintln!("fresh {:?}", t.elapsed());
    let t = std::time::Instant::now();
    let _ = c.ratio_book(REFERENCE_ACCELERATOR).unwrap();
    eprintln!("book {:?}", t.elapsed());
    let t = std::time::Instant::now();
    let _ =
        c.offers(&OfferFilter { workload_class: Some(WorkloadClass::LlmPretraining), ..Default::default() }).unwrap();
    eprintln!("offers {:?}", t.elapsed());
}

//! Accelerators compared for a workload, as the CLI's `catalog list
//! for-workload` and the app's comparison show them.

use suanli_api::catalog::Catalog;
use suanli_api::catalog::{self, AcceleratorForWorkload};
use suanli_api::catalog::{InferenceModel, OfferFilter};
use suanli_api::{Currency, LatencyClass, Precision, WorkloadClass};

fn ranked(domestic: Option<bool>) -> Vec<AcceleratorForWorkload> {
    let (c, _) = Catalog::open_in_memory("2026-12-01T00:00:00Z").unwrap();
    let filter = OfferFilter {
        workload_class: Some(WorkloadClass::LlmPretraining),
        currency: Some(Currency::USD),
        fx: [(Currency::CNY, 1.0 / 7.1106)].into_iter().collect(),
        domestic,
        ..OfferFilter::default()
    };
    catalog::accelerators_for_workload(&c, &filter).unwrap()
}

#[test]
fn accelerators_are_ranked_by_their_best_offer_per_unit_of_work_with_the_ratio_basis() {
    let all = ranked(None);
    let priced: Vec<f64> = all.iter().filter_map(|a| a.price_per_ref_gpu_hour).collect();
    assert!(priced.len() >= 30, "{} accelerators priced", priced.len());
    assert!(priced.windows(2).all(|w| w[0] <= w[1]), "ranked cheapest first");
    let first_unpriced = all.iter().position(|a| a.price_per_ref_gpu_hour.is_none()).unwrap();
    assert_eq!(first_unpriced, priced.len(), "the unpriced follow the priced");
    for a in &all {
        assert!(a.ratio.is_some() != a.no_ratio.is_some(), "{}: a ratio or its reason", a.accelerator_id);
        if let (Some(best), Some(price)) = (a.best_offer.as_ref().map(|b| &b.id), a.price_per_ref_gpu_hour) {
            let r = a.ratio.as_ref().unwrap();
            assert!(price > 0.0 && r.ratio > 0.0, "{best}");
        }
    }
    let reference = all.iter().find(|a| a.accelerator_id == "nvidia-a100-sxm-80gb").unwrap();
    assert_eq!(reference.ratio.as_ref().unwrap().ratio, 1.0);
}

#[test]
fn domestic_accelerators_are_compared_too_and_say_how_sure_their_ratio_is() {
    let domestic = ranked(Some(true));
    assert!(domestic.len() >= 20, "{} domestic accelerators", domestic.len());
    assert!(domestic.iter().all(|a| a.domestic == Some(true)));
    let ascend = domestic.iter().find(|a| a.accelerator_id == "huawei-ascend-910b").unwrap();
    assert!(ascend.ratio.is_some() || ascend.no_ratio.is_some());
    // The bundled catalogue has no sourced rental offer for a domestic part: a
    // ratio is shown, a price never made up.
    for a in domestic.iter().filter(|a| a.rental_offers == 0) {
        assert!(a.price_per_ref_gpu_hour.is_none() && a.best_offer.is_none(), "{}", a.accelerator_id);
    }
    assert!(domestic.iter().filter(|a| a.ratio.is_some()).count() >= 15, "domestic parts with a ratio");
}

#[test]
fn a_comparison_without_a_class_or_a_currency_is_refused_by_field() {
    let (c, _) = Catalog::open_in_memory("2026-12-01T00:00:00Z").unwrap();
    let no_class = OfferFilter { currency: Some(Currency::USD), ..OfferFilter::default() };
    let err = catalog::accelerators_for_workload(&c, &no_class).unwrap_err();
    assert!(err.to_string().contains("workload_class"), "{err}");
    let no_currency = OfferFilter { workload_class: Some(WorkloadClass::LlmInference), ..OfferFilter::default() };
    let err = catalog::accelerators_for_workload(&c, &no_currency).unwrap_err();
    assert!(err.to_string().contains("currency"), "{err}");
}

#[test]
fn a_served_model_ranks_by_cost_per_million_tokens_and_says_how_many_cards_hold_it() {
    let (c, _) = Catalog::open_in_memory("2026-12-01T00:00:00Z").unwrap();
    // 70 B in BF16 is 140 GB of weights; no KV cache so the count is by hand:
    // ⌈140e9 B / (80 GiB × 0.9)⌉ = ⌈1.81⌉ = 2 cards of 80 GB; of 64 GB ⌈2.26⌉ = 3.
    let model = InferenceModel {
        parameters: 70e9,
        precision: Precision::Bf16,
        context_tokens: 4096.0,
        latency: LatencyClass::Standard,
        kv_bytes_per_token: Some(0.0),
    };
    let filter = OfferFilter {
        workload_class: Some(WorkloadClass::LlmInference),
        currency: Some(Currency::USD),
        inference: Some(model),
        ..OfferFilter::default()
    };
    let all = catalog::accelerators_for_workload(&c, &filter).unwrap();
    let by_id = |id: &str| all.iter().find(|a| a.accelerator_id == id).unwrap();
    assert_eq!(by_id("nvidia-a100-sxm-80gb").min_accelerators_for_model, Some(2));
    assert_eq!(by_id("huawei-ascend-910b").min_accelerators_for_model, Some(3));
    let priced: Vec<f64> = all.iter().filter_map(|a| a.cost_per_million_tokens).collect();
    assert!(priced.len() >= 10, "{} accelerators priced per million tokens", priced.len());
    assert!(priced.windows(2).all(|w| w[0] <= w[1]), "ranked cheapest per million tokens first");
    let best = all[0].best_offer.as_ref().unwrap();
    assert!(best.provider_name.is_some(), "{}: the best offer names its provider", best.id);
    // A 24 GB card needs 7 to hold the model: its one-card instances are not
    // priced per million tokens.
    let rtx = by_id("nvidia-rtx-3090");
    assert_eq!(rtx.min_accelerators_for_model, Some(7));
    assert!(rtx.rental_offers > 0 && rtx.rentals_holding_model == Some(0), "{rtx:?}");
    assert!(rtx.best_offer.is_none() && rtx.cost_per_million_tokens.is_none());
    let offers = catalog::list_offers(&c, &OfferFilter::default(), suanli_api::freshness::today_date()).unwrap();
    // (An accelerator of unknown memory is priced, its fit left unsaid.)
    for a in all.iter().filter(|a| a.best_offer.is_some()) {
        let Some(needs) = a.min_accelerators_for_model else { continue };
        let id = &a.best_offer.as_ref().unwrap().id;
        let offer = offers.iter().find(|o| &o.view.offer.id == id).unwrap();
        assert!(
            offer.view.offer.accelerators_per_instance.unwrap_or(1.0) >= f64::from(needs),
            "{id} holds {needs} cards"
        );
    }
}

/// The price book's use cases (the shell's and the CLI's): a discount is
/// checked and lands, an id in neither list is not found, nothing is lost.
#[test]
fn the_price_book_is_changed_through_the_api_and_refuses_what_is_not_there() {
    use suanli_api::catalog::Discount;
    let (mut c, _) = Catalog::open_in_memory("2026-12-01T00:00:00Z").unwrap();
    let discount = Discount {
        id: "my-deal".into(),
        offer_id: None,
        provider_id: Some("aws".into()),
        discount_share: 0.15,
        note: None,
        as_of: Some("2026-12-01".into()),
    };
    let book = catalog::pricebook_put_discount(&mut c, &discount).unwrap();
    assert_eq!(book.discounts.len(), 1);
    let bad = Discount { id: "too-much".into(), discount_share: 1.5, ..discount.clone() };
    assert!(catalog::pricebook_put_discount(&mut c, &bad).is_err());
    let err = catalog::pricebook_remove(&mut c, "no-such-entry").unwrap_err();
    assert_eq!(err.code(), suanli_api::ErrorCode::NotFound);
    assert_eq!(catalog::pricebook(&c).unwrap().discounts.len(), 1, "the refusals lost nothing");
    assert!(catalog::pricebook_remove(&mut c, "my-deal").unwrap().discounts.is_empty());
}

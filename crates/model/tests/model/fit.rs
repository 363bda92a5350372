//! A model that does not fit an option's accelerators is flagged with the
//! fewest that hold it (the counts worked by hand in `src/fit.rs`).

use suanli_model::Note;

use crate::{eval, option};

const TRAIN_70B: &str = r#"
name = "70 B training"
horizon_months = 24
currency = "USD"
[demand]
kind = "job"
ref_gpu_hours = 100000
parameters = 70e9
precision = "bf16"
sharding = "zero3"
cluster_accelerators = 16
[[options]]
id = "eighty"
kind = "rent"
billing = "on_demand"
memory_gb_per_accelerator = 80
[options.on_demand]
price_per_accel_hour = 2.0
[[options]]
id = "sixty-four"
kind = "rent"
billing = "on_demand"
memory_gb_per_accelerator = 64
[options.on_demand]
price_per_accel_hour = 1.0
"#;

#[test]
fn a_70b_model_in_bf16_fits_sixteen_80_gb_cards_but_not_sixteen_64_gb_cards() {
    let e = eval(TRAIN_70B);
    let eighty = option(&e, "eighty").memory_fit.unwrap();
    assert_eq!((eighty.min_accelerators, eighty.available, eighty.fits()), (Some(15), 16, true));
    let small = option(&e, "sixty-four");
    let f = small.memory_fit.unwrap();
    assert_eq!((f.min_accelerators, f.available, f.fits()), (Some(19), 16, false));
    assert!(small.notes.contains(&Note::DoesNotFit { min_accelerators: Some(19), available: 16, memory_gb: 64.0 }));
    let text = Note::DoesNotFit { min_accelerators: Some(19), available: 16, memory_gb: 64.0 };
    assert!(text.describe(suanli_model::Lang::En).contains("at least 19 accelerators of 64 GB"));
    assert!(text.describe(suanli_model::Lang::Zh).contains("至少需要 19 张"));
    // The 64 GB cards cost half as much but cannot hold the model: ranked
    // apart, never cheapest, never recommended.
    assert!(small.ranked_apart() && !option(&e, "eighty").ranked_apart());
    assert_eq!(e.cheapest_npv().unwrap().id, "eighty");
    assert_eq!(e.ranked_by_npv()[0].id, "eighty");
    assert_eq!(suanli_model::decision::decide(&e, None).unwrap().recommended, "eighty");
}

#[test]
fn serving_a_70b_model_needs_two_80_gb_or_three_64_gb_cards_per_replica() {
    let text = r#"
name = "70 B serving"
horizon_months = 12
currency = "USD"
[demand]
kind = "inference"
tokens_per_second = 1000
parameters = 70e9
precision = "bf16"
context_tokens = 4096
kv_bytes_per_token = 1
tokens_per_second_per_ref_gpu = 100
cluster_accelerators = 2
[[options]]
id = "eighty"
kind = "rent"
billing = "on_demand"
memory_gb_per_accelerator = 80
[options.on_demand]
price_per_accel_hour = 3.6
[[options]]
id = "sixty-four"
kind = "rent"
billing = "on_demand"
memory_gb_per_accelerator = 64
[options.on_demand]
price_per_accel_hour = 3.6
"#;
    let e = eval(text);
    assert!(option(&e, "eighty").memory_fit.unwrap().fits());
    let f = option(&e, "sixty-four").memory_fit.unwrap();
    assert_eq!((f.min_accelerators, f.fits()), (Some(3), false));
    // 1,000 tokens/s ÷ 100 per reference GPU = 10 reference GPUs around the clock;
    // USD 3.6 per hour ÷ (100 × 3,600 tokens per hour) × 1e6 = USD 10 per million tokens.
    let cost = option(&e, "eighty").cost_per_million_tokens.unwrap();
    assert!((cost - 10.0).abs() < 1e-9, "{cost}");
}

//! The door's behaviour on scenario text: parse errors name the field
//! path, line and column; rule errors name the value and the rule.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod board;
mod china;
mod client_text;
mod cost_lines;
mod deploy;
mod files;
mod finite;
mod proposal;
mod recommend;
mod refresh;
mod update;
mod workload;

use suanli_api::{Error, Lang, parse_scenario};

/// The example scenario files, in name order.
fn examples() -> Vec<std::path::PathBuf> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/scenarios");
    let mut files: Vec<std::path::PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    files.sort();
    files
}

const VALID: &str = r#"name = "valid"
horizon_months = 12
currency = "CNY"

[demand]
kind = "profile"
monthly_ref_gpus = [8]

[[options]]
id = "rent"
kind = "rent"
billing = "on_demand"

[options.on_demand]
price_per_accel_hour = 8.0
"#;

fn parse_error(text: &str) -> (String, usize, String) {
    match parse_scenario(text) {
        Err(Error::Parse { path, line, message, .. }) => (path, line, message),
        other => panic!("expected a parse error, got {other:?}"),
    }
}

#[test]
fn a_valid_scenario_parses() {
    let s = parse_scenario(VALID).unwrap();
    assert_eq!(s.options.len(), 1);
}

#[test]
fn an_unknown_field_names_its_table_and_line() {
    let (path, line, message) = parse_error(&VALID.replace("price_per_accel_hour", "price_per_hour"));
    assert_eq!(path, "options[0].on_demand.price_per_hour");
    assert_eq!(line, 15);
    assert!(message.contains("unknown field `price_per_hour`"), "{message}");
    assert!(message.contains("price_per_accel_hour"), "the message lists what is allowed: {message}");
}

#[test]
fn a_wrong_type_names_the_field() {
    let (path, line, message) = parse_error(&VALID.replace("horizon_months = 12", "horizon_months = \"twelve\""));
    assert_eq!(path, "horizon_months");
    assert_eq!(line, 2);
    assert!(message.contains("invalid type"), "{message}");
}

#[test]
fn an_unknown_variant_lists_the_allowed_ones() {
    let (path, _, message) = parse_error(&VALID.replace("kind = \"rent\"", "kind = \"lease\""));
    assert_eq!(path, "options[0].kind");
    assert!(message.contains("`buy`") && message.contains("`mix`"), "{message}");
}

#[test]
fn broken_toml_gives_the_line() {
    let (_, line, _) = parse_error(&VALID.replace("currency = \"CNY\"", "currency = CNY\""));
    assert_eq!(line, 3);
}

#[test]
fn toml_nan_and_negative_values_are_refused_with_path_and_value() {
    let text = VALID.replace("price_per_accel_hour = 8.0", "price_per_accel_hour = nan").replace("[8]", "[-8]");
    let Err(e @ Error::Invalid(_)) = parse_scenario(&text) else { panic!("expected rule errors") };
    let en = e.message(Lang::En);
    assert!(en.contains("the scenario has 2 problems:"), "{en}");
    assert!(en.contains("demand.monthly_ref_gpus[0] = -8: must not be negative"), "{en}");
    assert!(en.contains("options[0].on_demand.price_per_accel_hour = NaN: must be a finite number"), "{en}");
    let zh = e.message(Lang::Zh);
    assert!(zh.contains("场景有 2 处问题"), "{zh}");
    assert!(zh.contains("不能为负数"), "{zh}");
    assert_eq!(e.code(), suanli_api::ErrorCode::Invalid);
}

#[test]
fn a_missing_file_is_a_read_error() {
    let e = suanli_api::load_scenario(std::path::Path::new("/nonexistent/suanli/scenario.toml")).unwrap_err();
    assert_eq!(e.code(), suanli_api::ErrorCode::Read);
    assert!(e.message(Lang::Zh).starts_with("无法读取 /nonexistent/suanli/scenario.toml"));
}

#[test]
fn json_output_rounds_by_the_one_rule_and_names_categories() {
    let s = parse_scenario(&VALID.replace("8.0", "8.333333")).unwrap();
    let e = suanli_api::evaluate(&s);
    let json = serde_json::to_value(suanli_api::evaluation_json(e, Lang::En).unwrap()).unwrap();
    let o = &json["options"][0];
    // 8 × 730 × 12 × 8.333333 = 583,999.97664 → 583,999.98.
    assert_eq!(o["total_nominal"], 583_999.98);
    assert_eq!(o["effective_price_per_ref_gpu_hour"], 8.3333);
    assert_eq!(o["breakdown"]["on_demand"], 583_999.98);
    assert_eq!(o["monthly"].as_array().map(Vec::len), Some(12));
    for key in ["id", "label", "currency", "total_npv", "break_even", "notes"] {
        assert!(o.get(key).is_some(), "missing {key}");
    }
}

/// Every number in every example scenario, replaced in turn by hostile
/// values: the door answers with a result or an error, never a panic.
#[test]
fn hostile_numbers_never_panic() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/scenarios");
    let hostile = ["-1", "0", "nan", "inf", "-inf", "1e308", "4294967296", "1e-308", "0.5", "99999999"];
    let number = |c: char| c.is_ascii_digit() || c == '.' || c == '_' || c == 'e';
    let mut cases = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let text = std::fs::read_to_string(entry.unwrap().path()).unwrap();
        // Positions of numbers after `= ` (values, not names or comments).
        let starts: Vec<usize> = text
            .match_indices("= ")
            .map(|(i, _)| i + 2)
            .filter(|i| text[*i..].starts_with(|c: char| c.is_ascii_digit()))
            .collect();
        for start in starts {
            let end = start + text[start..].find(|c: char| !number(c)).unwrap_or(text.len() - start);
            for value in hostile {
                let mutated = format!("{}{}{}", &text[..start], value, &text[end..]);
                if let Ok(s) = parse_scenario(&mutated) {
                    let e = suanli_api::evaluate(&s);
                    // What passes the rules gives finite figures.
                    for o in &e.options {
                        assert!(o.total_nominal.is_finite() && o.total_npv.is_finite(), "{value} → {}", o.id);
                    }
                }
                cases += 1;
            }
        }
    }
    assert!(cases > 500, "{cases}");
}

#[test]
fn a_duplicate_key_is_named() {
    let (_, line, message) =
        parse_error(&VALID.replace("horizon_months = 12", "horizon_months = 12\nname = \"again\""));
    assert_eq!(line, 3);
    assert!(message.contains("duplicate key `name`"), "{message}");
    let (_, line, message) =
        parse_error(&VALID.replace("billing = \"on_demand\"", "billing = \"on_demand\"\nbilling = \"spot\""));
    assert_eq!(line, 13);
    assert!(message.contains("`billing`") && message.contains("[[options]]"), "{message}");
}

#[test]
fn a_wrong_type_inside_the_demand_names_the_element() {
    let (path, _, message) =
        parse_error(&VALID.replace("monthly_ref_gpus = [8]", "monthly_ref_gpus = [8, 8, 8, \"x\"]"));
    assert_eq!(path, "demand.monthly_ref_gpus[3]");
    assert!(message.contains("invalid type"), "{message}");
    let (path, _, _) =
        parse_error(&VALID.replace("monthly_ref_gpus = [8]", "monthly_ref_gpus = [8]\nnormal_share = \"half\""));
    assert_eq!(path, "demand.normal_share");
    // The same inside an uncertainty range.
    let ranged = format!(
        "{VALID}\n[[uncertainty]]\npath = \"demand.scale\"\nrange = {{ dist = \"uniform\", low = \"one\", high = 2 }}\n"
    );
    let (path, _, _) = parse_error(&ranged);
    assert_eq!(path, "uncertainty[0].range.low");
}

#[test]
fn an_unknown_accelerator_is_refused_when_the_catalogue_is_at_hand() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("db.sqlite");
    let file = dir.path().join("s.toml");
    let offer = "aws-p4de-24xlarge-us-east-1-on-demand";
    let text = VALID
        .replace("price_per_accel_hour = 8.0", &format!("offer = \"{offer}\""))
        .replace("billing = \"on_demand\"", "billing = \"on_demand\"\naccelerator = \"nvidia-a100-typo\"")
        .replace("currency = \"CNY\"", "currency = \"CNY\"\nfx = { USD = 7.1 }");
    std::fs::write(&file, &text).unwrap();
    match suanli_api::load_resolved(&file, Some(&db)) {
        Err(e @ Error::Invalid(_)) => {
            let en = e.message(Lang::En);
            assert!(en.contains("options[0].accelerator = \"nvidia-a100-typo\""), "{en}");
            assert!(en.contains("names no accelerator in the catalogue"), "{en}");
            assert!(e.message(Lang::Zh).contains("目录中没有该加速卡"));
        }
        other => panic!("expected the accelerator to be refused, got {other:?}"),
    }
    // A known one passes, and a resolved pool holds its price, not its offer too.
    std::fs::write(&file, text.replace("nvidia-a100-typo", "nvidia-a100-sxm-80gb")).unwrap();
    let (s, _) = suanli_api::load_resolved(&file, Some(&db)).unwrap();
    let pool = s.options[0].on_demand.as_ref().unwrap();
    assert!(pool.price_per_accel_hour.is_some() && pool.offer.is_none());
    assert!(s.options[0].sources["on_demand.price_per_accel_hour"].contains(offer));
}

#[test]
fn an_offer_beside_a_price_is_refused_not_ignored() {
    let text = VALID.replace("price_per_accel_hour = 8.0", "price_per_accel_hour = 8.0\noffer = \"some-offer\"");
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("s.toml");
    std::fs::write(&file, &text).unwrap();
    let e = suanli_api::load_resolved(&file, Some(&dir.path().join("db.sqlite"))).unwrap_err();
    assert!(e.message(Lang::En).contains("options[0].on_demand.offer"), "{}", e.message(Lang::En));
    assert!(e.message(Lang::En).contains("not both"), "{}", e.message(Lang::En));
}

/// Issue 36's small ones: each refused by name.
fn refused_paths(text: &str) -> Vec<(String, String)> {
    match parse_scenario(text) {
        Err(Error::Invalid(errors)) => errors.iter().map(|e| (e.path.clone(), e.message(Lang::En))).collect(),
        Err(Error::Parse { path, message, .. }) => vec![(path, message)],
        Err(e) => panic!("refused for another reason: {e}"),
        Ok(_) => Vec::new(),
    }
}

#[test]
fn a_subnormal_price_all_zero_demand_an_unknown_fx_currency_and_an_overlong_label_are_refused_by_name() {
    let subnormal = VALID.replace("price_per_accel_hour = 8.0", "price_per_accel_hour = 5e-320");
    assert_ne!(subnormal, VALID);
    let found = refused_paths(&subnormal);
    assert!(found.iter().any(|(p, m)| p.ends_with("price_per_accel_hour") && m.contains("too small")), "{found:?}");

    let idle = VALID.replace("monthly_ref_gpus = [8]", "monthly_ref_gpus = [0, 0]");
    let found = refused_paths(&idle);
    assert!(found.iter().any(|(p, _)| p == "demand.monthly_ref_gpus"), "{found:?}");

    let fx = VALID.replace("[demand]", "[fx]\nXYZ = 7.0\n\n[demand]");
    let found = refused_paths(&fx);
    assert!(found.iter().any(|(p, _)| p == "fx.XYZ"), "{found:?}");

    let long = VALID.replace("id = \"rent\"", &format!("id = \"rent\"\nlabel = \"{}\"", "x".repeat(40_000)));
    let found = refused_paths(&long);
    assert!(found.iter().any(|(p, m)| p == "options[0].label" && m.contains("32767")), "{found:?}");
}

/// An explicitly priced option on an H100 in an LLM pre-training scenario.
fn h100_priced(accelerator: &str) -> String {
    VALID
        .replace("currency = \"CNY\"", "currency = \"CNY\"\nworkload_class = \"llm_pretraining\"")
        .replace("billing = \"on_demand\"", &format!("billing = \"on_demand\"\naccelerator = \"{accelerator}\""))
}

#[test]
fn an_accelerator_without_a_ratio_takes_the_catalogues_for_the_class_not_one() {
    let dir = tempfile::tempdir().unwrap();
    let (db, file) = (dir.path().join("db.sqlite"), dir.path().join("s.toml"));
    std::fs::write(&file, h100_priced("nvidia-h100-sxm-80gb")).unwrap();
    let (s, notes) = suanli_api::load_resolved(&file, Some(&db)).unwrap();
    let ratio = s.options[0].efficiency_ratio.unwrap();
    assert!(ratio > 1.5, "the H100 was costed as an A100: {ratio}");
    let source = &s.options[0].sources["efficiency_ratio"];
    assert!(source.contains("catalogue ratio") && source.contains("llm_pretraining"), "{source}");
    let said = |n: &suanli_api::Note| {
        let en = n.describe(Lang::En);
        en.contains("efficiency ratio")
            && en.contains("nvidia-h100-sxm-80gb")
            && n.option_ids == [s.options[0].id.as_str()]
    };
    assert!(notes.iter().any(said), "{notes:?}");
    let evaluation = suanli_api::evaluate(&s);
    assert!(evaluation.options[0].notes.is_empty(), "{:?}", evaluation.options[0].notes);
    // A stated ratio is kept, and the catalogue is not asked.
    let stated =
        h100_priced("nvidia-h100-sxm-80gb").replace("kind = \"rent\"", "kind = \"rent\"\nefficiency_ratio = 2.5");
    let s = parse_scenario(&stated).unwrap();
    assert!(!suanli_api::needs_catalog(&s));
    assert_eq!(s.options[0].efficiency_ratio, Some(2.5));
}

#[test]
fn without_a_catalogue_the_default_ratio_is_said() {
    // No catalogue at hand (the editor's evaluation without a database).
    let s = parse_scenario(&h100_priced("nvidia-h100-sxm-80gb")).unwrap();
    let evaluation = suanli_api::evaluate(&s);
    let notes: Vec<String> = evaluation.options[0].notes.iter().map(|n| n.describe(Lang::En)).collect();
    assert!(notes.iter().any(|n| n.contains("nvidia-h100-sxm-80gb") && n.contains("default 1")), "{notes:?}");
    let zh: Vec<String> = evaluation.options[0].notes.iter().map(|n| n.describe(Lang::Zh)).collect();
    assert!(zh.iter().any(|n| n.contains("默认值 1")), "{zh:?}");
    // The reference GPU's own default is no default.
    let s = parse_scenario(&h100_priced("nvidia-a100-sxm-80gb")).unwrap();
    assert!(suanli_api::evaluate(&s).options[0].notes.is_empty());
}

#[test]
fn an_unknown_accelerator_is_refused_with_the_closest_ids() {
    let dir = tempfile::tempdir().unwrap();
    let (db, file) = (dir.path().join("db.sqlite"), dir.path().join("s.toml"));
    std::fs::write(&file, h100_priced("nvidia-h100-sxm-80g")).unwrap();
    let e = suanli_api::load_resolved(&file, Some(&db)).unwrap_err();
    let en = e.message(Lang::En);
    assert!(en.contains("options[0].accelerator = \"nvidia-h100-sxm-80g\""), "{en}");
    assert!(en.contains("did you mean nvidia-h100-sxm-80gb"), "{en}");
    assert!(e.message(Lang::Zh).contains("是否想填：nvidia-h100-sxm-80gb"), "{}", e.message(Lang::Zh));
}

/// Resolution notes say which options they are about (the options an offer
/// filter expanded into) as data, and read in both languages.
#[test]
fn resolution_notes_name_their_options_in_both_languages() {
    let db = tempfile::tempdir().unwrap();
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/scenarios/catalog-offers.toml");
    let (s, _, notes) = suanli_api::evaluate_file_with(&path, Some(&db.path().join("db.sqlite"))).unwrap();
    let expanded: Vec<&str> = s.options.iter().map(|o| o.id.as_str()).filter(|id| id.contains('/')).collect();
    assert!(!expanded.is_empty());
    for id in &expanded {
        assert!(notes.iter().any(|n| n.option_ids.iter().any(|x| x == id)), "no note names {id}");
    }
    for n in &notes {
        assert!(n.option_ids.iter().all(|id| s.options.iter().any(|o| &o.id == id)), "{n:?}");
        let zh = n.describe(Lang::Zh);
        assert!(zh.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)) && zh != n.describe(Lang::En), "{zh}");
    }
}

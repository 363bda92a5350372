//! A scenario option taken from a catalogue offer whose price is a range
//! (china-prices.md's quotes) is priced as the offer states it (a range's
//! low end, as every view of the offer prices it), and `simulate` draws it
//! from the range.

use suanli_api::analytics::simulate;
use suanli_api::load_resolved;
use suanli_model::Distribution;

const MARKET: &str = r#"name = "market"
horizon_months = 12
currency = "CNY"

[demand]
kind = "profile"
monthly_ref_gpus = [8]

[[options]]
id = "gitee"
kind = "rent"
billing = "on_demand"

[options.on_demand]
offer = "gitee-ai-ascend-910b-on-demand"
"#;

/// The scenario resolved against a fresh bundled catalogue, with its notes in English.
fn resolved(text: &str) -> (suanli_api::Checked<suanli_api::Scenario>, Vec<String>) {
    let dir = tempfile::tempdir().unwrap();
    let (db, file) = (dir.path().join("catalog.sqlite"), dir.path().join("s.toml"));
    std::fs::write(&file, text).unwrap();
    let (s, notes) = load_resolved(&file, Some(&db)).unwrap();
    (s, notes.iter().map(|n| n.describe(suanli_api::Lang::En).to_owned()).collect())
}

#[test]
fn the_spread_of_a_ranged_offer_reaches_the_monte_carlo() {
    let (s, notes) = resolved(MARKET);
    // 3.00–4.00 CNY per card-hour as quoted: evaluate takes the stated 3.00 …
    let pool = s.options[0].on_demand.as_ref().unwrap();
    assert_eq!(pool.price_per_accel_hour, Some(3.0));
    let source = &s.options[0].sources["on_demand.price_per_accel_hour"];
    assert!(source.contains("gitee-ai-ascend-910b-on-demand") && source.contains("catalogue spread"), "{source}");
    assert!(notes.iter().any(|n| n.contains("catalogue spread") && n.contains("simulate draws")), "{notes:?}");
    // … and the range is the scenario's uncertainty, drawn uniformly (the source gives no likeliest value).
    let u = s.uncertainty.iter().find(|u| u.path == "options.gitee.on_demand.price_per_accel_hour").unwrap();
    assert_eq!(u.range, Distribution::Uniform { low: 3.0, high: 4.0 });
    assert!(u.source.starts_with("catalogue spread") && u.source.contains("cn:CM"), "{}", u.source);

    // simulate draws from it: the totals spread, 8 cards × 730 h × 12 months × 3.00 … 4.00.
    let (_, sim) = simulate(&s, 400, 7, 1, &|_| {}).unwrap();
    let nominal = sim.options[0].nominal;
    let hours = 8.0 * 730.0 * 12.0;
    assert!(nominal.p10 < nominal.p90, "{nominal:?}");
    assert!(nominal.p10 >= 3.0 * hours - 1e-6 && nominal.p90 <= 4.0 * hours + 1e-6, "{nominal:?}");
    assert!((nominal.p50 - 3.5 * hours).abs() < 0.05 * hours, "{nominal:?}");

    // A stated price has no range to draw from.
    let fixed = MARKET.replace("offer = \"gitee-ai-ascend-910b-on-demand\"", "price_per_accel_hour = 3.5");
    let (s, _) = resolved(&fixed);
    assert!(s.uncertainty.is_empty());
    let (_, sim) = simulate(&s, 400, 7, 1, &|_| {}).unwrap();
    assert_eq!(sim.options[0].nominal.p10, sim.options[0].nominal.p90);
}

#[test]
fn a_range_the_scenario_states_itself_wins_over_the_catalogue_spread() {
    let text = format!(
        "{MARKET}\n[[uncertainty]]\npath = \"options.gitee.on_demand.price_per_accel_hour\"\n\
         range = {{ dist = \"uniform\", low = 3.2, high = 3.3 }}\nsource = \"our broker\"\n"
    );
    let (s, _) = resolved(&text);
    let ours: Vec<_> =
        s.uncertainty.iter().filter(|u| u.path == "options.gitee.on_demand.price_per_accel_hour").collect();
    assert_eq!(ours.len(), 1);
    assert_eq!(ours[0].source, "our broker");
}

#[test]
fn a_market_report_quote_is_drawn_from_the_market_spread() {
    // SMM's relocatable 910B lease (20,000 per 8-card month) with the other
    // 8-card monthly quotes (15,000 and 15,600–17,040): triangular, from
    // the lowest through the median to the highest, per card-hour.
    let text = MARKET
        .replace("billing = \"on_demand\"", "billing = \"reserved\"")
        .replace("[options.on_demand]", "[options.reserved]\nterm_months = 1")
        .replace("gitee-ai-ascend-910b-on-demand", "smm-ascend-910b-8card-monthly-relocatable-2026-09");
    let (s, _) = resolved(&text);
    let u = s.uncertainty.iter().find(|u| u.path == "options.gitee.reserved.price_per_accel_hour").unwrap();
    let h = |m: f64| m / 8.0 / 730.0;
    match u.range {
        Distribution::Triangular { low, mode, high } => {
            assert!(
                (low - h(15_000.0)).abs() < 1e-9
                    && (mode - h(16_320.0)).abs() < 1e-9
                    && (high - h(20_000.0)).abs() < 1e-9
            );
        }
        other => panic!("{other:?}"),
    }
    assert!(
        u.source.contains("market quotes") && u.source.contains("omniyq-ascend-910b-8card-monthly"),
        "{}",
        u.source
    );
    assert_eq!(s.options[0].reserved.as_ref().unwrap().price_per_accel_hour, Some(h(20_000.0)));
}

#[test]
fn market_quotes_carry_their_dates_and_go_stale_by_the_same_rule() {
    let dir = tempfile::tempdir().unwrap();
    let (c, _) = suanli_catalog::Catalog::open(&dir.path().join("catalog.sqlite"), "2026-12-04T10:00:00Z").unwrap();
    let filter = suanli_catalog::query::OfferFilter { domestic: Some(true), ..Default::default() };
    let on = |day: &str| {
        let today = chrono::NaiveDate::parse_from_str(day, "%Y-%m-%d").unwrap();
        suanli_api::catalog::list_offers(&c, &filter, today).unwrap()
    };
    let find = |rows: &[suanli_api::catalog::ListedOffer], id: &str| {
        rows.iter().find(|r| r.view.offer.id == id).unwrap().freshness.clone()
    };
    // SMM's 910C quote of 2026-07-14: fresh on the day the fact sheet was
    // compiled, stale six months on (the default threshold).
    let today = on("2026-12-04");
    let july = find(&today, "smm-ascend-910c-8card-monthly-south-china-2026-07");
    assert_eq!((july.age_months, july.stale), (Some(4), false));
    let later = find(&on("2027-01-14"), "smm-ascend-910c-8card-monthly-south-china-2026-07");
    assert!(later.stale, "{later:?}");
    // Reuters' 2023 order is long stale; an undated survey is "date unknown", never today.
    assert!(find(&today, "cn-press-orders-baidu-ascend-910b-order-purchase-2023-11").stale);
    let undated = find(&today, "smzdm-ascend-910b-1card-monthly-xiamen");
    assert_eq!((undated.precision, undated.age_months), (None, None));
    assert!(undated.label(suanli_api::Lang::En).contains("unknown"), "{}", undated.label(suanli_api::Lang::En));
}

#[test]
fn the_stale_threshold_has_one_range_for_the_cli_and_the_settings() {
    let dir = tempfile::tempdir().unwrap();
    let (mut c, _) = suanli_catalog::Catalog::open(&dir.path().join("catalog.sqlite"), "2026-12-04T10:00:00Z").unwrap();
    let range = suanli_api::freshness::STALE_AFTER_RANGE;
    for months in [0, *range.end() + 1] {
        let err = suanli_api::freshness::set_stale_after_months(&mut c, months).unwrap_err();
        assert!(err.to_string().contains(&months.to_string()) && err.to_string().contains("120"), "{err}");
    }
    assert_eq!(suanli_api::freshness::set_stale_after_months(&mut c, *range.end()).unwrap(), 120);
    let mut settings = suanli_api::library::settings(&c, suanli_api::Lang::En).unwrap();
    assert_eq!(settings.stale_after_months, 120);
    settings.stale_after_months = 121;
    let err = suanli_api::library::put_settings(&mut c, &settings).unwrap_err();
    assert!(err.to_string().contains("stale_after_months"), "{err}");
}

//! Energy and emissions of the owned options.

use suanli_model::{Evaluation, Lang, OptionResult, Scenario};

use crate::labels::for_lang;
use crate::pdf::{CONTENT_W, Canvas};

use super::quantity;

/// Energy and emissions of the owned options: kWh from each server's draw,
/// the PUE and the utilisation; CO2 where the scenario gives a grid factor.
/// Options whose servers draw no power are left out.
pub(super) fn energy(cv: &mut Canvas, s: &Scenario, e: &Evaluation, ranked: &[&OptionResult], lang: Lang) {
    let owned: Vec<(&OptionResult, f64)> =
        ranked.iter().filter_map(|o| o.owned_energy_kwh.filter(|k| *k > 0.0).map(|k| (*o, k))).collect();
    let factor = s.energy.as_ref().map(|en| en.grid_kg_co2_per_kwh);
    let mut header = vec![
        lang.pick("Option", "方案").to_owned(),
        lang.pick("Electricity (MWh)", "用电量（兆瓦时）").to_owned(),
        lang.pick("Per year (MWh)", "每年用电（兆瓦时）").to_owned(),
    ];
    if factor.is_some() {
        header.push(lang.pick("CO2 (t)", "二氧化碳（吨）").to_owned());
    }
    let years = f64::from(e.horizon_months) / 12.0;
    let rows: Vec<Vec<String>> = owned
        .iter()
        .map(|(o, kwh)| {
            let mut row = vec![for_lang(&o.label, lang), quantity(kwh / 1000.0), quantity(kwh / 1000.0 / years)];
            if let Some(f) = factor {
                row.push(quantity(kwh * f / 1000.0));
            }
            row
        })
        .collect();
    let widths: Vec<f32> = if factor.is_some() {
        vec![CONTENT_W * 0.4, CONTENT_W * 0.2, CONTENT_W * 0.2, CONTENT_W * 0.2]
    } else {
        vec![CONTENT_W * 0.5, CONTENT_W * 0.25, CONTENT_W * 0.25]
    };
    cv.table(&widths, &header, &rows, 1);
    cv.space(6.0);
    let method = lang.pick(
        "Over the whole horizon, at the meter: each server's draw × hours × utilisation × PUE; CO2 is that electricity × the grid's emission factor. Rented capacity's energy is in the provider's price and is not metered here.",
        "整个评估期、按电表计：每台服务器功率 × 小时数 × 利用率 × PUE；二氧化碳为用电量 × 电网排放因子。租用算力的能耗已含在供应商价格中，此处不计量。",
    );
    cv.note(method);
    let grid = match (&s.energy, lang) {
        (Some(en), _) => {
            let source = if en.source.trim().is_empty() {
                lang.pick("user assumption", "用户假设").to_owned()
            } else {
                crate::labels::source(&en.source, lang)
            };
            if lang == Lang::Zh {
                format!(
                    "电网排放因子：每千瓦时 {} 千克二氧化碳（{source}）。",
                    suanli_model::format_number(en.grid_kg_co2_per_kwh, 4)
                )
            } else {
                format!(
                    "Grid emission factor: {} kg CO2 per kWh ({source}).",
                    suanli_model::format_number(en.grid_kg_co2_per_kwh, 4)
                )
            }
        }
        (None, Lang::Zh) => "场景未给出电网排放因子，因此未计算排放量。".into(),
        (None, Lang::En) => "The scenario gives no grid emission factor, so emissions are not shown.".into(),
    };
    cv.note(&grid);
}

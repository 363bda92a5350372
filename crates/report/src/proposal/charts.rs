//! The charts: cumulative cost by month, where the money goes, the
//! simulated ranges and the sensitivity tornado, in one palette.

use suanli_model::sensitivity::Sensitivity;
use suanli_model::uncertainty::Simulation;
use suanli_model::{Category, Evaluation, Lang, OptionResult, Scenario, format_amount, format_axis};

use crate::labels::for_lang;
use crate::pdf::{CONTENT_W, Canvas, INK, MARGIN_X, MUTED, RULE, Rgb8};

/// The series palette: the Okabe–Ito colour-blind-safe colours, in the order
/// of `ui/src/charts/palette.json`, which the app's charts use (a test keeps
/// the two equal).
pub const PALETTE: [Rgb8; 8] = [
    Rgb8(0x00, 0x72, 0xB2),
    Rgb8(0xD5, 0x5E, 0x00),
    Rgb8(0x00, 0x9E, 0x73),
    Rgb8(0xCC, 0x79, 0xA7),
    Rgb8(0xE6, 0x9F, 0x00),
    Rgb8(0x56, 0xB4, 0xE9),
    Rgb8(0x00, 0x00, 0x00),
    Rgb8(0xF0, 0xE4, 0x42),
];

/// A "nice" axis maximum: the first of 1, 1.5, 2, 2.5, 3, 4, 5, 6, 8 or 10 ×
/// a power of ten at or above `x`; 1 when `x` is not above 0.
fn nice(x: f64) -> f64 {
    if x <= 0.0 {
        return 1.0;
    }
    let p = 10f64.powf(x.log10().floor());
    [1.0, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0, 6.0, 8.0, 10.0].iter().map(|m| m * p).find(|v| *v >= x).unwrap_or(10.0 * p)
}

fn legend(cv: &mut Canvas, labels: &[(String, Rgb8)]) {
    let mut x = MARGIN_X;
    cv.y += 14.0;
    for (label, color) in labels {
        let w = cv.width(label, 8.0, false) + 22.0;
        if x + w > MARGIN_X + CONTENT_W {
            x = MARGIN_X;
            cv.y += 13.0;
        }
        cv.rect(x, cv.y - 7.0, 10.0, 7.0, *color);
        cv.text_at(x + 13.0, cv.y, 8.0, false, INK, label);
        x += w + 8.0;
    }
    cv.y += 10.0;
}

fn chart_title(cv: &mut Canvas, title: &str) {
    cv.ensure(250.0);
    cv.y += 24.0;
    cv.text_at(MARGIN_X, cv.y, 11.0, true, INK, title);
    cv.y += 8.0;
}

pub(super) fn cumulative_chart(cv: &mut Canvas, e: &Evaluation, lang: Lang) {
    chart_title(cv, lang.pick("Cumulative cost by month (nominal)", "按月累计成本（名义）"));
    let (x0, y0, w, h) = (MARGIN_X + 44.0, cv.y + 18.0, CONTENT_W - 54.0, 170.0);
    let series: Vec<Vec<f64>> = e.options.iter().map(OptionResult::cumulative).collect();
    let max = nice(series.iter().flatten().copied().fold(0.0, f64::max));
    let months = e.horizon_months.max(1) as f32;
    for i in 0..=4 {
        let v = max * f64::from(i) / 4.0;
        let y = y0 + h - h * i as f32 / 4.0;
        cv.line(&[(x0, y), (x0 + w, y)], RULE, 0.4);
        cv.text_right(x0 - 4.0, y + 3.0, 7.0, false, MUTED, &format_axis(v, lang));
    }
    let step = (e.horizon_months / 6).max(1);
    for m in (0..=e.horizon_months).step_by(step as usize) {
        let x = x0 + w * m as f32 / months;
        let t = m.to_string();
        cv.text_at(x - cv.width(&t, 7.0, false) / 2.0, y0 + h + 11.0, 7.0, false, MUTED, &t);
    }
    // Axis titles: the amount's currency above the value axis, months under the time axis.
    let y_title = match lang {
        Lang::Zh => format!("累计成本（{}）", currency_zh(e.currency)),
        Lang::En => format!("Cumulative cost ({})", e.currency.code()),
    };
    cv.text_at(MARGIN_X, y0 - 6.0, 7.5, false, MUTED, &y_title);
    let x_title = lang.pick("Month", "月份");
    cv.text_at(x0 + w / 2.0 - cv.width(x_title, 7.5, false) / 2.0, y0 + h + 22.0, 7.5, false, MUTED, x_title);
    for (i, s) in series.iter().enumerate() {
        let mut pts = vec![(x0, y0 + h)];
        for (m, v) in s.iter().enumerate() {
            pts.push((x0 + w * (m as f32 + 1.0) / months, y0 + h - h * (*v / max).clamp(0.0, 1.0) as f32));
        }
        cv.line(&pts, PALETTE[i % PALETTE.len()], 1.6);
    }
    cv.y = y0 + h + 26.0;
    let labels: Vec<(String, Rgb8)> =
        e.options.iter().enumerate().map(|(i, o)| (for_lang(&o.label, lang), PALETTE[i % PALETTE.len()])).collect();
    legend(cv, &labels);
}

/// A step of 1, 2 or 5 × a power of ten giving about four intervals over `span`.
fn nice_step(span: f64) -> f64 {
    let raw = (span / 4.0).max(f64::MIN_POSITIVE);
    let p = 10f64.powf(raw.log10().floor());
    [1.0, 2.0, 5.0, 10.0].iter().map(|m| m * p).find(|v| *v >= raw).unwrap_or(10.0 * p)
}

/// A horizontal value axis under a bar chart: gridlines from `top` to
/// `bottom`, ticks labelled by [`format_axis`] (万/亿 or k/M/B), and the axis
/// title with its currency centred below.
#[allow(clippy::too_many_arguments)]
fn value_axis(cv: &mut Canvas, x0: f32, w: f32, lo: f64, hi: f64, top: f32, title: &str, lang: Lang) {
    let bottom = cv.y;
    let at = |v: f64| x0 + w * ((v - lo) / (hi - lo)) as f32;
    let step = nice_step(hi - lo);
    let mut v = (lo / step).ceil() * step;
    while v <= hi + step * 1e-9 {
        let x = at(v);
        cv.line(
            &[(x, top), (x, bottom)],
            if v.abs() < step * 1e-9 { INK } else { RULE },
            if v.abs() < step * 1e-9 { 0.8 } else { 0.3 },
        );
        let t = format_axis(if v.abs() < step * 1e-9 { 0.0 } else { v }, lang);
        cv.text_at(x - cv.width(&t, 7.0, false) / 2.0, bottom + 9.0, 7.0, false, MUTED, &t);
        v += step;
    }
    cv.text_at(x0 + w / 2.0 - cv.width(title, 7.5, false) / 2.0, bottom + 20.0, 7.5, false, MUTED, title);
    cv.y = bottom + 24.0;
}

fn currency_zh(c: suanli_model::Currency) -> String {
    // The unit format_amount prints after a Chinese amount (1.00亿元 → 元).
    format_amount(1.0, c, Lang::Zh)
        .trim_start_matches(|ch: char| ch.is_ascii_digit() || ch == '.' || ch == ',')
        .to_owned()
}

pub(super) fn breakdown_chart(cv: &mut Canvas, e: &Evaluation, lang: Lang) {
    chart_title(cv, lang.pick("Where the money goes (nominal, by category)", "成本构成（名义，按类别）"));
    let c = e.currency;
    // Every category with a figure is drawn: costs to the right of zero,
    // credits (the residual value) to the left, so the bar's net, marked
    // and labelled, is the table's nominal total.
    let cats: Vec<Category> =
        Category::ALL.iter().copied().filter(|c| e.options.iter().any(|o| o.breakdown(*c).abs() > 0.0)).collect();
    let pos = |o: &OptionResult| cats.iter().map(|c| o.breakdown(*c).max(0.0)).sum::<f64>();
    let neg = |o: &OptionResult| cats.iter().map(|c| o.breakdown(*c).min(0.0)).sum::<f64>();
    let hi = nice(e.options.iter().map(pos).fold(0.0, f64::max));
    let lo_raw = e.options.iter().map(neg).fold(0.0, f64::min);
    let lo = if lo_raw < 0.0 { -nice_step(hi) * (lo_raw.abs() / nice_step(hi)).ceil() } else { 0.0 };
    let label_w = 130.0;
    let (x0, w) = (MARGIN_X + label_w, CONTENT_W - label_w - 64.0);
    let at = |v: f64| x0 + w * ((v - lo) / (hi - lo)) as f32;
    let bar = 16.0;
    let top = cv.y;
    for o in &e.options {
        let lines = cv.wrap(&for_lang(&o.label, lang), 8.0, false, label_w - 8.0);
        let row = (lines.len().min(3) as f32 * 9.5).max(bar) + 6.0;
        cv.ensure(row);
        for (j, l) in lines.iter().take(3).enumerate() {
            cv.text_at(MARGIN_X, cv.y + 8.0 + j as f32 * 9.5, 8.0, false, INK, l);
        }
        let (mut right, mut left) = (0.0, 0.0);
        for (i, cat) in cats.iter().enumerate() {
            let v = o.breakdown(*cat);
            let color = PALETTE[i % PALETTE.len()];
            if v > 0.0 {
                cv.rect(at(right), cv.y, at(right + v) - at(right), bar, color);
                right += v;
            } else if v < 0.0 {
                cv.rect(at(left + v), cv.y, at(left) - at(left + v), bar, color);
                left += v;
            }
        }
        let net = o.total_nominal;
        let xn = at(net);
        cv.line(&[(xn, cv.y - 2.0), (xn, cv.y + bar + 2.0)], INK, 1.4);
        cv.text_at(at(right.max(net)) + 4.0, cv.y + 11.0, 7.0, false, INK, &format_amount(net, c, lang));
        cv.y += row;
    }
    let title = match lang {
        Lang::Zh => format!("名义金额（{}）", currency_zh(c)),
        Lang::En => format!("Nominal amount ({})", c.code()),
    };
    value_axis(cv, x0, w, lo, hi, top - 4.0, &title, lang);
    let labels: Vec<(String, Rgb8)> =
        cats.iter().enumerate().map(|(i, c)| (c.label(lang).to_owned(), PALETTE[i % PALETTE.len()])).collect();
    legend(cv, &labels);
    cv.paragraph(
        lang.pick(
            "The black mark and the figure beside each bar are the nominal total of the table; a residual value credited at the horizon is drawn to the left of zero.",
            "每条色条旁的黑色标记与数字为表中的名义总成本；评估期末回收的残值画在零点左侧。",
        ),
        8.0,
        false,
        MUTED,
    );
}

pub(super) fn range_chart(cv: &mut Canvas, e: &Evaluation, sim: &Simulation, lang: Lang) {
    chart_title(
        cv,
        &if lang == Lang::Zh {
            format!("净现值区间：P10–P90（{} 次模拟）", sim.trials)
        } else {
            format!("Net present cost, P10–P90 ({} trials)", sim.trials)
        },
    );
    let c = e.currency;
    let hi = nice(sim.options.iter().map(|o| o.npv.p90).fold(0.0, f64::max));
    let lo = 0.0;
    let label_w = 130.0;
    let (x0, w) = (MARGIN_X + label_w, CONTENT_W - label_w - 64.0);
    let at = |v: f64| x0 + w * ((v - lo) / (hi - lo)) as f32;
    let top = cv.y;
    for (i, r) in sim.options.iter().enumerate() {
        let label = e.option(&r.id).map_or_else(|| r.label.clone(), |o| for_lang(&o.label, lang));
        let lines = cv.wrap(&label, 8.0, false, label_w - 8.0);
        let row = (lines.len().min(3) as f32 * 9.5).max(16.0) + 6.0;
        cv.ensure(row);
        for (j, l) in lines.iter().take(3).enumerate() {
            cv.text_at(MARGIN_X, cv.y + 8.0 + j as f32 * 9.5, 8.0, false, INK, l);
        }
        let (xa, xb) = (at(r.npv.p10), at(r.npv.p90));
        cv.rect(xa, cv.y + 3.0, (xb - xa).max(1.0), 10.0, PALETTE[i % PALETTE.len()]);
        let xm = at(r.npv.p50);
        cv.line(&[(xm, cv.y), (xm, cv.y + 16.0)], INK, 1.2);
        cv.text_at(xb + 4.0, cv.y + 11.0, 7.0, false, INK, &format!("P50 {}", format_amount(r.npv.p50, c, lang)));
        cv.y += row;
    }
    let title = match lang {
        Lang::Zh => format!("净现值（{}）", currency_zh(c)),
        Lang::En => format!("Net present cost ({})", c.code()),
    };
    value_axis(cv, x0, w, lo, hi, top - 4.0, &title, lang);
    cv.paragraph(
        lang.pick("The bar spans P10 to P90; the tick is P50.", "色条为 P10 至 P90，竖线为 P50。"),
        8.0,
        false,
        MUTED,
    );
}

pub(super) fn tornado_chart(cv: &mut Canvas, s: &Scenario, sens: &Sensitivity, best: &OptionResult, lang: Lang) {
    let c = s.currency;
    let title = if lang == Lang::Zh {
        format!("敏感性：各输入对{}净现值的影响", for_lang(&best.label, lang))
    } else {
        format!("Sensitivity: what moves the net present cost of {}", for_lang(&best.label, lang))
    };
    cv.ensure(250.0);
    cv.y += 10.0;
    for line in cv.wrap(&title, 11.0, true, CONTENT_W) {
        cv.y += 14.0;
        cv.text_at(MARGIN_X, cv.y, 11.0, true, INK, &line);
    }
    cv.y += 8.0;
    let base = sens.base.iter().find(|(id, _)| *id == best.id).map_or(0.0, |(_, v)| *v);
    let bars: Vec<(String, f64, f64)> = sens
        .for_option(&best.id)
        .iter()
        .take(8)
        .map(|b| (crate::labels::input(&b.bar.path, s, lang), b.npv_low, b.npv_high))
        .collect();
    let span = bars.iter().map(|(_, a, b)| (a - base).abs().max((b - base).abs())).fold(0.0, f64::max).max(1.0);
    // Labels on the left, wrapped; bars around the base value, each end
    // labelled with the total it leads to.
    let label_w = 170.0;
    let (x0, w) = (MARGIN_X + label_w, CONTENT_W - label_w);
    let mid = x0 + w / 2.0;
    let half = w / 2.0 - 52.0;
    let top = cv.y;
    for (path, lo, hi) in &bars {
        let lines = cv.wrap(path, 7.5, false, label_w - 8.0);
        let row = (lines.len() as f32 * 9.5).max(16.0) + 6.0;
        cv.ensure(row);
        for (j, l) in lines.iter().enumerate() {
            cv.text_at(MARGIN_X, cv.y + 9.0 + j as f32 * 9.5, 7.5, false, INK, l);
        }
        for (v, color) in [(*lo, PALETTE[0]), (*hi, PALETTE[1])] {
            let d = v - base;
            // An input that does not move this option's cost has no bar and no figure.
            if d.abs() < 0.005 {
                continue;
            }
            let len = half * (d.abs() / span) as f32;
            let x = if d < 0.0 { mid - len } else { mid };
            cv.rect(x, cv.y + 2.0, len.max(0.5), 10.0, color);
            let text = format_amount(v, c, lang);
            if d < 0.0 {
                cv.text_right(mid - len - 3.0, cv.y + 10.0, 6.5, false, MUTED, &text);
            } else {
                cv.text_at(mid + len + 3.0, cv.y + 10.0, 6.5, false, MUTED, &text);
            }
        }
        cv.y += row;
    }
    cv.line(&[(mid, top - 2.0), (mid, cv.y)], INK, 0.8);
    cv.y += 10.0;
    let base_text = if lang == Lang::Zh {
        format!("中线：基准净现值 {}", format_amount(base, c, lang))
    } else {
        format!("Centre line: base net present cost {}", format_amount(base, c, lang))
    };
    cv.text_at(mid - cv.width(&base_text, 7.5, false) / 2.0, cv.y, 7.5, false, INK, &base_text);
    legend(
        cv,
        &[
            (lang.pick("input at its low end", "输入取低值").to_owned(), PALETTE[0]),
            (lang.pick("input at its high end", "输入取高值").to_owned(), PALETTE[1]),
        ],
    );
}

//! `suanli simulate`, `suanli sensitivity`, `suanli optimise`.

use std::io::IsTerminal;
use std::sync::atomic::{AtomicU32, Ordering};

use suanli_api::{Checked, Error, Lang, Scenario, analytics, format_amount, format_percent, format_unit_price};

use crate::Format;
use crate::table::Table;

use crate::terminal::{erroutln, json, out, outln, progress};

pub fn simulate(s: &Checked<Scenario>, trials: u32, seed: u64, format: Format, lang: Lang) -> Result<(), Error> {
    let terminal = std::io::stderr().is_terminal();
    let shown = AtomicU32::new(0);
    let progress = |done: u32| {
        // At most a hundred updates, only on a terminal.
        let step = (trials / 100).max(1);
        if terminal && done / step > shown.load(Ordering::Relaxed) {
            shown.store(done / step, Ordering::Relaxed);
            progress!("{} {done} / {trials}", lang.pick("trials", "次模拟"));
        }
    };
    let (e, sim) = analytics::simulate(s, trials, seed, 0, &progress)?;
    if terminal {
        erroutln!();
    }
    if let Format::Json = format {
        return json(&analytics::simulation_json(&e, &sim, lang)?);
    }
    let c = e.currency;
    outln!("{}", e.scenario_name);
    outln!("{} {} · seed {} · {}", trials, lang.pick("trials", "次模拟"), seed, lang.pick("NPV ranges", "净现值区间"));
    outln!();
    let mut t = Table::new([
        lang.pick("Option", "方案"),
        lang.pick("Per ref-GPU-hour", "每参考卡时"),
        lang.pick("All-in", "含全部成本"),
        lang.pick("Porting", "迁移成本"),
        lang.pick("Supply risk", "供应风险"),
        "P10",
        "P50",
        "P90",
        lang.pick("P(cheapest)", "最低概率"),
    ])
    .right_from(1);
    for (o, r) in e.options.iter().zip(&sim.options) {
        let porting = o.porting.as_ref().map_or("—".to_owned(), |p| {
            let months = lang.pick("mo", "个月");
            format!("{} ({:.1} {months})", format_amount(p.cost, c, lang), p.delay_months)
        });
        let supply = o.supply.as_ref().map_or("—".to_owned(), |s| {
            let top = s.drivers.first().map_or(String::new(), |d| format!(", {}", d.label(lang)));
            format!("{:.0}/100{top}", s.score)
        });
        t.row([
            o.label.clone(),
            o.effective_price_per_ref_gpu_hour.map_or("—".into(), |p| format_unit_price(p, c, lang)),
            o.all_in_per_ref_gpu_hour.map_or("—".into(), |p| format_unit_price(p, c, lang)),
            porting,
            supply,
            format_amount(r.npv.p10, c, lang),
            format_amount(r.npv.p50, c, lang),
            format_amount(r.npv.p90, c, lang),
            format_percent(r.probability_cheapest, 0),
        ]);
    }
    out!("{}", t.render());
    if e.options.iter().any(|o| o.porting.as_ref().is_some_and(|p| p.default_effort)) {
        outln!();
        outln!(
            "{}",
            lang.pick("Porting effort per kLOC and per kernel is Suanli's default assumption, not data: set [porting.effort] to your own.", "每千行代码与每个算子的迁移工作量为 Suanli 的默认假设而非数据：请在 [porting.effort] 中填写你的估计。")
        );
    }
    if e.options.iter().any(|o| o.supply.is_some()) {
        outln!(
            "{}",
            lang.pick("Supply-risk weights are Suanli's assumptions (docs/analytics.md); the drivers show what moved each score.", "供应风险权重为 Suanli 的假设（见 docs/analytics.md）；驱动因素说明了每个分数的来源。")
        );
    }
    Ok(())
}

pub fn sensitivity(s: &Checked<Scenario>, format: Format, lang: Lang) -> Result<(), Error> {
    let r = analytics::sensitivity(s)?;
    let c = s.currency;
    if let Format::Json = format {
        return json(&analytics::sensitivity_json(&r, c)?);
    }
    outln!("{}", s.name);
    outln!();
    outln!("{}", lang.pick("Tornado: NPV at each input's low and high end", "龙卷风图：各输入取低值与高值时的净现值"));
    let mut t = Table::new([
        lang.pick("Input", "输入"),
        lang.pick("Low", "低"),
        lang.pick("High", "高"),
        lang.pick("Largest swing", "最大变动"),
        lang.pick("Option: low → high", "方案：低 → 高"),
    ])
    .right_from(1);
    for b in &r.tornado {
        let per: Vec<String> = b
            .totals
            .iter()
            .map(|(id, lo, hi)| format!("{id}: {} → {}", format_amount(*lo, c, lang), format_amount(*hi, c, lang)))
            .collect();
        t.row([
            b.path.clone(),
            format!("{}", b.low),
            format!("{}", b.high),
            format_amount(b.swing, c, lang),
            per.join("; "),
        ]);
    }
    out!("{}", t.render());
    for b in &r.break_even {
        outln!();
        let u = b
            .utilisation
            .map_or(lang.pick("none within 0–100%", "0–100% 内无").to_owned(), |u| format_percent(u, 0));
        let now = b.current_utilisation.map_or("—".into(), |u| format_percent(u, 0));
        let month =
            b.month.map_or(lang.pick("never within the horizon", "评估期内无").to_owned(), |m| m.to_string());
        if lang == Lang::Zh {
            outln!("{} 与 {}：盈亏平衡利用率 {u}（当前 {now}）；自购在第 {month} 个月起累计更便宜。", b.buy, b.rent);
        } else {
            outln!(
                "{} vs {}: break-even utilisation {u} (now {now}); buying stays cheaper from month {month}.",
                b.buy,
                b.rent
            );
        }
    }
    Ok(())
}

pub fn optimise(s: &Checked<Scenario>, format: Format, lang: Lang) -> Result<(), Error> {
    let outcome = analytics::optimise(s)?;
    let c = s.currency;
    let j = analytics::optimise_json(&outcome, c, lang)?;
    if let Format::Json = format {
        return json(&j);
    }
    outln!("{}", s.name);
    outln!();
    match j {
        analytics::OptimiseJson::Chosen { chosen, pure, explanation, excluded, .. } => {
            for line in explanation {
                outln!("{line}");
            }
            outln!();
            let mut t = Table::new([
                lang.pick("Mix", "组合"),
                lang.pick("Base", "基础容量"),
                lang.pick("Total (NPV)", "总成本（净现值）"),
                lang.pick("Total (nominal)", "总成本（名义）"),
            ])
            .right_from(1);
            let base = |b: &Option<(String, u32)>| b.as_ref().map_or("—".into(), |(id, n)| format!("{n} × {id}"));
            t.row([
                lang.pick("chosen", "最优组合").to_owned(),
                base(&chosen.base),
                format_amount(chosen.total_npv, c, lang),
                format_amount(chosen.total_nominal, c, lang),
            ]);
            for (name, p) in pure {
                let label = match (name.as_str(), lang) {
                    ("all_on_demand", Lang::En) => "all on demand",
                    ("all_on_demand", Lang::Zh) => "全部按需",
                    ("all_base", Lang::En) => "all base (sized to peak)",
                    ("all_base", Lang::Zh) => "全部基础容量（按峰值）",
                    (_, Lang::En) => "all spot",
                    (_, Lang::Zh) => "全部竞价",
                };
                t.row([
                    label.to_owned(),
                    base(&p.base),
                    format_amount(p.total_npv, c, lang),
                    format_amount(p.total_nominal, c, lang),
                ]);
            }
            out!("{}", t.render());
            for (id, why) in excluded {
                outln!("{} {id}: {why}", lang.pick("excluded", "已排除"));
            }
            Ok(())
        }
        analytics::OptimiseJson::Infeasible { because } => {
            outln!("{}", lang.pick("Infeasible: no mix meets the constraints.", "不可行：没有组合满足约束。"));
            for (id, why) in because {
                outln!("  {id}: {why}");
            }
            Ok(())
        }
    }
}

//! `suanli recommend`: flags into constraints, the recommendation printed.

use std::path::{Path, PathBuf};

use clap::Args;
use suanli_api::catalog::{Basis, BillingMode, Jurisdiction};
use suanli_api::recommend::{self, CandidateJson, Constraints, FabricClass, Recommendation, SpotAssumptions};
use suanli_api::{Currency, Error, Lang};
use suanli_api::{RankBy, format_amount, format_percent};

use crate::Format;
use crate::jurisdiction::JurisdictionArg;
use crate::table::Table;
use crate::terminal::{erroutln, json, out, outln};

#[derive(Args, Debug)]
pub struct RecommendArgs {
    /// Scenario file (TOML): demand, horizon, currency, finance; options optional. 场景文件。
    scenario: PathBuf,
    /// Total budget (nominal, over the horizon). 总预算（名义值）。
    #[arg(long, allow_negative_numbers = true)]
    budget: Option<f64>,
    /// Budget for the dearest month. 月度预算。
    #[arg(long, allow_negative_numbers = true)]
    budget_per_month: Option<f64>,
    /// Currency of the budgets (default: the scenario's). 预算货币。
    #[arg(long, value_parser = parse_currency)]
    budget_currency: Option<Currency>,
    /// Result (a job) or capacity (steady demand) within this many months. 期限（月）。
    #[arg(long, allow_negative_numbers = true)]
    deadline_months: Option<f64>,
    /// Chinese domestic accelerators only. 仅限国产加速卡。
    #[arg(long)]
    domestic: bool,
    /// The buyer is in China: only accelerators it can obtain (same as --jurisdiction cn). 买方在中国。
    #[arg(long)]
    in_china: bool,
    /// The buyer's jurisdiction for export rules (the catalogue knows cn). 买方辖区。
    #[arg(long, value_enum)]
    jurisdiction: Option<JurisdictionArg>,
    /// Every rental's provider in this country (ISO 3166, e.g. CN). 供应商所在国家。
    #[arg(long)]
    provider_country: Option<String>,
    /// Security requirements: dedicated_gpu, bare_metal, encryption_in_transit or a certification (comma-separated). 安全要求。
    #[arg(long, value_delimiter = ',')]
    require: Vec<String>,
    /// Supply-risk score at most this (0–100). 供应风险上限。
    #[arg(long, allow_negative_numbers = true)]
    max_supply_risk: Option<f64>,
    /// Weakest ratio basis allowed: reference, pinned, measured, derived, spec_equivalent, claimed, estimated. 效率比最低依据。
    #[arg(long, value_parser = parse_basis)]
    min_basis: Option<Basis>,
    /// Porting off CUDA at most this many engineer-months. 迁移工作量上限（人月）。
    #[arg(long, allow_negative_numbers = true)]
    max_porting_months: Option<f64>,
    /// Accelerators at the busiest time, at least. 最小集群规模。
    #[arg(long)]
    min_cluster: Option<u32>,
    /// Accelerators at the busiest time, at most. 最大集群规模。
    #[arg(long)]
    max_cluster: Option<u32>,
    /// Billing kinds allowed: on_demand, reserved_1y, reserved_3y, spot, monthly, savings_plan, purchase. 允许的计费方式。
    #[arg(long, value_delimiter = ',', value_parser = parse_billing)]
    billing: Vec<BillingMode>,
    /// Let consumer cards (GeForce) run jobs across several nodes. 允许消费级显卡跨节点组成集群。
    #[arg(long)]
    allow_consumer_clusters: bool,
    /// Spot interruptions per node a month (default 0.2). 每节点每月竞价中断次数。
    #[arg(long)]
    spot_interruptions: Option<f64>,
    /// Hours between checkpoints of a spot job (default 1). 竞价作业检查点间隔（小时）。
    #[arg(long)]
    checkpoint_hours: Option<f64>,
    /// Hours to restart a spot job after an interruption (default 1). 中断后重启时间（小时）。
    #[arg(long)]
    restart_hours: Option<f64>,
    /// Order of the ranked list. 排序依据。
    #[arg(long, value_enum, default_value_t = RankArg::Npv)]
    rank_by: RankArg,
    /// Ranked candidates shown (the frontier is always shown). 显示的候选数。
    #[arg(long, default_value_t = 15)]
    top: usize,
    /// Write a scenario with the chosen candidates as options. 写出含所选方案的场景文件。
    #[arg(long)]
    write_scenario: Option<PathBuf>,
    /// Ranks to write (comma-separated, 1 = first; default: the first 3 of the frontier). 要写出的排名。
    #[arg(long, value_delimiter = ',', requires = "write_scenario")]
    pick: Vec<u32>,
    #[arg(long, value_enum, default_value_t = Format::Table)]
    format: Format,
}

#[derive(Clone, Copy, Debug, clap::ValueEnum)]
enum RankArg {
    Npv,
    Total,
    Time,
    Risk,
}

fn parse_basis(s: &str) -> Result<Basis, String> {
    let all = [
        Basis::Reference,
        Basis::Pinned,
        Basis::Measured,
        Basis::Derived,
        Basis::SpecEquivalent,
        Basis::Claimed,
        Basis::Estimated,
    ];
    all.into_iter().find(|b| b.key() == s.trim()).ok_or_else(|| {
        let keys: Vec<&str> = all.iter().map(|b| b.key()).collect();
        format!("expected one of {}", keys.join(", "))
    })
}

fn parse_currency(s: &str) -> Result<Currency, String> {
    s.trim().parse::<Currency>().map_err(|_| {
        let codes: Vec<&str> = Currency::ALL.iter().map(|c| c.code()).collect();
        format!("expected one of {}", codes.join(", "))
    })
}

fn parse_billing(s: &str) -> Result<BillingMode, String> {
    BillingMode::parse(s).ok_or_else(|| {
        let keys: Vec<&str> = BillingMode::ALL.iter().map(|m| m.key()).collect();
        format!("expected one of {}", keys.join(", "))
    })
}

impl RecommendArgs {
    fn constraints(&self) -> Constraints {
        let jurisdiction = self.jurisdiction.map(Jurisdiction::from).or(self.in_china.then_some(Jurisdiction::Cn));
        Constraints {
            budget_total: self.budget,
            budget_per_month: self.budget_per_month,
            budget_currency: self.budget_currency,
            deadline_months: self.deadline_months,
            domestic_only: self.domestic,
            buyer_jurisdiction: jurisdiction,
            provider_country: self.provider_country.clone(),
            security: self.require.clone(),
            max_supply_score: self.max_supply_risk,
            min_ratio_basis: self.min_basis,
            max_porting_engineer_months: self.max_porting_months,
            min_cluster_accelerators: self.min_cluster,
            max_cluster_accelerators: self.max_cluster,
            billing: self.billing.clone(),
            allow_consumer_clusters: self.allow_consumer_clusters,
            spot: self.spot(),
        }
    }

    /// The spot model's inputs, defaults where a flag is not given.
    fn spot(&self) -> Option<SpotAssumptions> {
        if self.spot_interruptions.is_none() && self.checkpoint_hours.is_none() && self.restart_hours.is_none() {
            return None;
        }
        let d = SpotAssumptions::default();
        Some(SpotAssumptions {
            interruptions_per_node_month: self.spot_interruptions.unwrap_or(d.interruptions_per_node_month),
            checkpoint_interval_hours: self.checkpoint_hours.unwrap_or(d.checkpoint_interval_hours),
            restart_hours: self.restart_hours.unwrap_or(d.restart_hours),
        })
    }

    fn rank_by(&self) -> RankBy {
        match self.rank_by {
            RankArg::Npv => RankBy::Npv,
            RankArg::Total => RankBy::Total,
            RankArg::Time => RankBy::Time,
            RankArg::Risk => RankBy::Risk,
        }
    }
}

pub fn run(args: &RecommendArgs, db: Option<&Path>, lang: Lang) -> Result<(), Error> {
    let (scenario, r) = recommend::recommend_file(&args.scenario, db, &args.constraints(), args.rank_by(), lang)?;
    if let Some(file) = &args.write_scenario {
        let ids = recommend::picks(&r, &args.pick)?;
        recommend::write_scenario(file, &scenario, &r, &ids)?;
        erroutln!("{} {} ({})", lang.pick("wrote", "已写出"), file.display(), ids.join(", "));
    }
    match args.format {
        Format::Json => json(&r),
        Format::Table => {
            print(&r, args.top, lang);
            Ok(())
        }
    }
}

fn print(r: &Recommendation, top: usize, lang: Lang) {
    let c = r.currency;
    outln!("{}", r.scenario_name);
    outln!(
        "{} {} · {} {} · {} {}",
        r.search.offers,
        lang.pick("offers", "条报价"),
        r.search.candidates,
        lang.pick("candidates priced", "个候选方案已计价"),
        lang.pick("ranked by", "排序："),
        r.rank_by.label(lang)
    );
    outln!();
    let shown: Vec<(usize, &CandidateJson)> =
        r.ranked.iter().enumerate().filter(|(i, x)| *i < top || x.on_frontier).collect();
    let mut t = Table::new([
        "#",
        lang.pick("Candidate", "候选方案"),
        lang.pick("Cluster", "集群"),
        lang.pick("Total (NPV)", "总成本（净现值）"),
        lang.pick("Total (nominal)", "总成本（名义）"),
        lang.pick("Time", "时间"),
        lang.pick("Risk", "风险"),
        lang.pick("Price", "价格"),
        lang.pick("Frontier", "前沿"),
    ])
    .right_from(3);
    let months = lang.pick("mo", "个月");
    for (i, x) in &shown {
        t.row([
            (i + 1).to_string(),
            x.label.clone(),
            cluster(x, lang),
            format_amount(x.total_npv, c, lang),
            format_amount(x.total_nominal, c, lang),
            format!("{:.1} {months}", x.time_to_result_months),
            format!("{:.0}", x.supply_score),
            x.price_confidence.to_string(),
            if x.on_frontier { "★".into() } else { String::new() },
        ]);
    }
    out!("{}", t.render());
    outln!();
    for (i, x) in shown.iter().filter(|(_, x)| x.on_frontier) {
        outln!("{}. {}: {}", i + 1, x.label, x.why);
        outln!("   {}", x.cluster_why);
    }
    if !r.infeasible.is_empty() {
        outln!();
        outln!("{}", lang.pick("Nothing meets every constraint:", "没有候选方案满足全部约束："));
        for line in &r.infeasible {
            outln!("  {line}");
        }
    }
    let active: Vec<_> = r.constraints.iter().collect();
    if !active.is_empty() {
        outln!();
        for k in active {
            let binds = if k.binds { lang.pick(" — binds", " — 起作用") } else { "" };
            let without = k.best_npv_without.map_or(String::new(), |x| {
                format!(" ({} {})", lang.pick("best without it:", "去掉后最低："), format_amount(x, c, lang))
            });
            outln!("{}: {} {}{binds}{without}", k.label, k.count, lang.pick("excluded", "个被排除"));
        }
    }
    if !r.apart.is_empty() {
        outln!();
        outln!("{}", lang.pick("Listed apart (do not finish or do not fit):", "单独列出（无法完成或放不下模型）："));
        for x in r.apart.iter().take(5) {
            let done = x.apart.as_ref().map_or(String::new(), |a| format_percent(a.done_share, 0));
            outln!("  {} ({done}): {}", x.label, x.why);
        }
        more(r.apart.len(), 5, lang);
    }
    if !r.not_feasible.is_empty() {
        outln!();
        outln!("{}", lang.pick("Cannot be the cluster the demand needs:", "无法组成所需集群："));
        for x in r.not_feasible.iter().take(8) {
            outln!("  {}: {}", x.label, x.why);
        }
        more(r.not_feasible.len(), 8, lang);
    }
    outln!();
    outln!("{}", lang.pick("Notes:", "说明："));
    for n in &r.notes {
        outln!("  {n}");
    }
}

/// A candidate's cluster in a cell: nodes × accelerators, fabric.
fn cluster(x: &CandidateJson, lang: Lang) -> String {
    let k = &x.cluster;
    if k.nodes <= 1 {
        format!("1 × {}", k.per_node)
    } else {
        format!("{} × {} {}", k.nodes, k.per_node, k.scale_out.label(lang))
    }
}

fn more(len: usize, shown: usize, lang: Lang) {
    if len > shown {
        let more = len - shown;
        outln!("  … {}", if lang == Lang::Zh { format!("另有 {more} 个") } else { format!("{more} more") });
    }
}

/// `suanli catalog scaling`: the cluster model's fits, point by point.
pub fn scaling(c: &suanli_api::catalog::Catalog, format: Format, lang: Lang) -> Result<(), Error> {
    let model = recommend::scaling_model(c)?;
    if let Format::Json = format {
        return json(&model);
    }
    for fit in [&model.rdma, &model.ethernet] {
        let class = match fit.class {
            FabricClass::Rdma => lang.pick(
                "RDMA fabric (InfiniBand, RoCE, EFA, GPUDirect-TCPX)",
                "RDMA 网络（InfiniBand、RoCE、EFA、GPUDirect-TCPX）",
            ),
            FabricClass::Ethernet => {
                lang.pick("Ethernet without RDMA, or a fabric not tuned", "无 RDMA 的以太网或未调优的网络")
            }
        };
        outln!(
            "{class}: {} {} {}",
            lang.pick("efficiency = 1 −", "扩展效率 = 1 −"),
            format!("{:.4}", fit.loss_per_doubling),
            lang.pick("× log2(accelerators ÷ 8)", "× log2(加速卡数 ÷ 8)")
        );
        let mut t = Table::new([
            lang.pick("Point", "测量点"),
            lang.pick("Accelerators", "加速卡"),
            lang.pick("Measured", "实测"),
            lang.pick("Fitted", "拟合"),
            lang.pick("Left out", "留一"),
            lang.pick("Error left out", "留一误差"),
        ])
        .right_from(1);
        for p in &fit.points {
            t.row([
                p.id.clone(),
                format!("{:.0}", p.accelerators),
                format!("{:.3}", p.measured),
                format!("{:.3}", p.fitted),
                p.left_out.map_or("—".into(), |x| format!("{x:.3}")),
                p.left_out.map_or("—".into(), |x| format!("{:+.1} pp", (x - p.measured) * 100.0)),
            ]);
        }
        out!("{}", t.render());
        outln!();
    }
    Ok(())
}

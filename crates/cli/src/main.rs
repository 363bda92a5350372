//! `suanli`: GPU compute procurement from the command line.
//!
//! Every subcommand is a thin layer over one `suanli_api` function; this
//! file only parses arguments, picks the language and prints.

mod analytics_cmd;
mod catalog_cmd;
mod jurisdiction;
mod recommend_cmd;
mod table;
mod terminal;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};
use suanli_api::Lang;
use terminal::{erroutln, out, outln};

// An import allocates a few strings per offer and frees them all at once;
// mimalloc does that about a tenth faster than glibc's malloc (690 → 620 ms; see
// docs/performance.md, "Import speed").
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(Parser, Debug)]
#[command(
    name = "suanli",
    version,
    about = "Suanli 算力: buy, rent or mix GPU compute — compare the options of a scenario.\n\
             比较自购、租用与混合算力方案的成本。",
    long_about = "Suanli 算力 compares ways of getting GPU compute for AI work — buying servers, \
                  renting on demand, reserved or spot, or a mix — over a horizon, in one currency, \
                  from a scenario file (TOML). Every figure is computed from the file's inputs.\n\n\
                  Suanli 算力根据场景文件（TOML）比较获取 GPU 算力的各种方式：自购服务器、\
                  按需/预留/竞价租用或混合方案，所有数字均由文件中的输入计算得出。\n\n\
                  Examples / 示例:\n  \
                  suanli evaluate data/scenarios/a100-8x-buy-vs-rent.toml\n  \
                  suanli evaluate data/scenarios/billing-mix.toml --format json\n  \
                  suanli --lang zh evaluate data/scenarios/domestic-vs-a100.toml\n\n\
                  The scenario format is described in docs/scenario-format.md.\n\
                  场景文件格式见 docs/scenario-format.md。"
)]
struct Cli {
    /// Language of the output: en or zh (default: from SUANLI_LANG or LANG).
    /// 输出语言：en 或 zh（默认取自 SUANLI_LANG 或 LANG）。
    #[arg(long, global = true, value_parser = parse_lang)]
    lang: Option<Lang>,

    /// Catalogue database (default: $SUANLI_DB, else the platform data directory).
    /// 目录数据库路径（默认：$SUANLI_DB，否则为系统数据目录）。
    #[arg(long, global = true)]
    db: Option<PathBuf>,

    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Evaluate a scenario and compare its options. 计算场景并比较各方案。
    #[command(long_about = "Evaluate a scenario and compare its options: total cost (nominal and NPV), \
                            effective price per reference-GPU-hour, time to result and break-even.\n\
                            计算场景并比较各方案：总成本（名义值与净现值）、每参考卡时的有效价格、完成时间和盈亏平衡点。\n\n\
                            Exit status: 0 on success, 1 when the scenario cannot be read or is invalid \
                            (every problem is listed with its field, value and what is allowed).\n\
                            退出码：成功为 0；场景无法读取或无效时为 1（逐条列出字段、取值与允许范围）。")]
    Evaluate {
        /// Scenario file (TOML). 场景文件（TOML）。
        scenario: PathBuf,
        /// Output format: a table for reading, or JSON for programs. 输出格式。
        #[arg(long, value_enum, default_value_t = Format::Table)]
        format: Format,
    },
    /// Monte Carlo over the scenario's [[uncertainty]] ranges: P10/P50/P90 and odds. 蒙特卡洛模拟。
    #[command(long_about = "Monte Carlo over the scenario's [[uncertainty]] ranges and supply events: P10/P50/P90 of \
                            each option's NPV and the probability that it is the cheapest, beside its effective price, \
                            porting cost and supply-risk score. The same seed gives the same figures on any machine.\n\
                            按场景中的 [[uncertainty]] 区间与供应事件做蒙特卡洛模拟：各方案净现值的 P10/P50/P90 \
                            与成为最低成本方案的概率。相同种子在任何机器上结果一致。")]
    Simulate {
        scenario: PathBuf,
        /// Number of trials. 模拟次数。
        #[arg(long, default_value_t = 10_000, value_parser = clap::value_parser!(u32).range(1..))]
        trials: u32,
        /// Random seed. 随机种子。
        #[arg(long, default_value_t = 1)]
        seed: u64,
        #[arg(long, value_enum, default_value_t = Format::Table)]
        format: Format,
    },
    /// Tornado of the uncertain inputs and buy-vs-rent break-evens. 敏感性分析与盈亏平衡。
    Sensitivity {
        scenario: PathBuf,
        #[arg(long, value_enum, default_value_t = Format::Table)]
        format: Format,
    },
    /// The cheapest mix of base, on-demand and spot under the [optimise] constraints. 容量组合优化。
    Optimise {
        scenario: PathBuf,
        #[arg(long, value_enum, default_value_t = Format::Table)]
        format: Format,
    },
    /// Search the catalogue for the scenario's demand: ranked candidates, the cost–time–risk frontier. 按需求搜索目录并推荐方案。
    #[command(
        long_about = "Search every catalogue offer (price book and imports included) and purchasable server for \
                            the scenario's demand — its options are not needed — price each candidate through the engine \
                            (efficiency ratio and its basis, porting off CUDA, supply risk, memory fit), and print the \
                            ranked list, the Pareto frontier over NPV, time to result and supply risk, what each \
                            constraint excluded and which constraints bind. docs/recommend.md says how it searches.\n\
                            按场景的需求搜索目录中的全部报价与可购服务器（含价格簿与导入报价，无需填写方案），逐一经成本引擎计价\
                            （效率比及其依据、CUDA 迁移、供应风险、显存容量），输出排名、净现值-完成时间-供应风险的帕累托前沿、\
                            各约束排除的方案以及起作用的约束。搜索方法见 docs/recommend.md。"
    )]
    Recommend(recommend_cmd::RecommendArgs),
    /// Kubernetes Job, Prometheus rules (with tests) and a Grafana dashboard for one option. 生成部署与成本监控文件。
    #[command(
        long_about = "Writes into DIR the chosen option's Kubernetes Job (the device plugin's resource, a pinned \
                            image, limits, node selector, RDMA mounts for multi-node jobs), Prometheus alerting rules \
                            built from the plan's price per accelerator-hour and budget (with a promtool unit test), a \
                            Grafana dashboard, and a README.\n\
                            在 DIR 中生成所选方案的 Kubernetes Job、按计划单价与预算生成的 Prometheus 告警规则（含 promtool \
                            单元测试）、Grafana 看板和说明。"
    )]
    Deploy {
        scenario: PathBuf,
        /// Option id. 方案标识。
        #[arg(long)]
        option: String,
        /// Output directory. 输出目录。
        #[arg(long)]
        out: PathBuf,
        #[arg(long)]
        namespace: Option<String>,
        /// Container image (required where no pinned image is known). 容器镜像。
        #[arg(long)]
        image: Option<String>,
        /// Device-plugin resource name, for accelerators without a known one. 设备插件资源名。
        #[arg(long)]
        resource_name: Option<String>,
        /// Monthly budget for the alerts (default: the plan's average month). 月度预算。
        #[arg(long)]
        budget_per_month: Option<f64>,
        /// Project label. 项目标签。
        #[arg(long)]
        project: Option<String>,
    },
    /// A proposal PDF for a client's board, in Chinese or English. 生成方案建议书（PDF）。
    #[command(
        long_about = "Writes a proposal PDF: cover, contents, executive summary with the recommendation and the \
                            three numbers that matter, the options compared, cumulative-cost and breakdown charts, \
                            P10–P90 ranges and a sensitivity tornado (when the scenario has ranges), porting and supply \
                            risk, and an appendix tracing every input to its source or marking it as an assumption. \
                            The same inputs (give --date) produce the same bytes.\n\
                            生成 PDF 方案建议书：封面、目录、摘要（建议与三个关键数字）、方案比较、累计成本与构成图、\
                            区间与敏感性（如场景含区间）、迁移与供应风险，以及列出每项输入来源的附录。"
    )]
    Proposal {
        scenario: PathBuf,
        /// Output PDF (the language is --lang). 输出 PDF 文件（语言由 --lang 指定）。
        #[arg(long)]
        out: PathBuf,
        #[arg(long, default_value = "")]
        client: String,
        #[arg(long, default_value = "")]
        author: String,
        #[arg(long, default_value = "")]
        firm: String,
        /// Date printed on the proposal (default: today). 建议书日期。
        #[arg(long)]
        date: Option<String>,
        /// A PNG or JPEG logo for the cover. 封面徽标（PNG 或 JPEG）。
        #[arg(long)]
        logo: Option<PathBuf>,
    },
    /// A spreadsheet (XLSX) and/or CSV files of the comparison, breakdown, monthly cash flows and inputs. 导出电子表格。
    Export {
        scenario: PathBuf,
        /// XLSX file to write. 输出 XLSX 文件。
        #[arg(long, required_unless_present = "csv")]
        xlsx: Option<PathBuf>,
        /// Directory for CSV files. 输出 CSV 的目录。
        #[arg(long)]
        csv: Option<PathBuf>,
    },
    /// The catalogue: accelerators, providers, offers, efficiency ratios. 算力目录。
    #[command(long_about = "The catalogue: accelerators (NVIDIA and Chinese domestic), providers, offers and \
                            benchmark-efficiency ratios, every figure with its source, as-of date and confidence. \
                            It works offline from the bundled data; only `catalog update` uses the network.\n\
                            算力目录：加速卡（NVIDIA 与国产）、供应商、报价与效率比，每个数字均附来源、日期与置信度。\
                            离线可用；只有 `catalog update` 会联网。")]
    Catalog {
        #[command(subcommand)]
        command: catalog_cmd::CatalogCommand,
    },
    /// Your own offers and negotiated discounts (never overwritten by updates). 价格簿：自有报价与协议折扣。
    Pricebook {
        #[command(subcommand)]
        command: catalog_cmd::PricebookCommand,
    },
}

#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum Format {
    Table,
    Json,
}

fn parse_lang(s: &str) -> Result<Lang, String> {
    s.parse().map_err(|bad| format!("unknown language {bad:?}: use en or zh / 未知语言 {bad:?}：请用 en 或 zh"))
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let lang = cli.lang.unwrap_or_else(suanli_api::system_lang);
    let fail = |e: suanli_api::Error| {
        let prefix = lang.pick("error: ", "错误：");
        erroutln!("{prefix}{}", e.message(lang));
        ExitCode::FAILURE
    };
    let open = || suanli_api::catalog::open_catalog(cli.db.as_deref()).map(|(c, _)| c);
    match cli.command {
        Command::Catalog { command } => match open().and_then(|mut c| catalog_cmd::run(command, &mut c, lang)) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => fail(e),
        },
        Command::Pricebook { command } => {
            match open().and_then(|mut c| catalog_cmd::pricebook(command, &mut c, lang)) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => fail(e),
            }
        }
        Command::Simulate { scenario, trials, seed, format } => {
            match suanli_api::load_resolved(&scenario, cli.db.as_deref())
                .and_then(|(s, _)| analytics_cmd::simulate(&s, trials, seed, format, lang))
            {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => fail(e),
            }
        }
        Command::Sensitivity { scenario, format } => {
            match suanli_api::load_resolved(&scenario, cli.db.as_deref())
                .and_then(|(s, _)| analytics_cmd::sensitivity(&s, format, lang))
            {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => fail(e),
            }
        }
        Command::Optimise { scenario, format } => {
            match suanli_api::load_resolved(&scenario, cli.db.as_deref())
                .and_then(|(s, _)| analytics_cmd::optimise(&s, format, lang))
            {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => fail(e),
            }
        }
        Command::Recommend(args) => match recommend_cmd::run(&args, cli.db.as_deref(), lang) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => fail(e),
        },
        Command::Deploy { scenario, option, out, namespace, image, resource_name, budget_per_month, project } => {
            let settings = suanli_api::deploy::Settings { namespace, image, resource_name, budget_per_month, project };
            match suanli_api::deploy::deploy(&scenario, cli.db.as_deref(), &option, &settings, &out) {
                Ok((files, notes)) => {
                    for f in files {
                        outln!("{}", f.display());
                    }
                    for n in notes {
                        erroutln!("{n}");
                    }
                    ExitCode::SUCCESS
                }
                Err(e) => fail(e),
            }
        }
        Command::Proposal { scenario, out, client, author, firm, date, logo } => {
            let date = date.unwrap_or_else(suanli_api::today);
            let logo = match logo.map(|p| std::fs::read(&p).map_err(|source| (p, source))).transpose() {
                Ok(l) => l,
                Err((p, source)) => return fail(suanli_api::Error::Read { path: p.display().to_string(), source }),
            };
            let meta = suanli_api::proposal::ProposalMeta { client, author, firm, date, logo };
            match suanli_api::proposal::proposal(&scenario, cli.db.as_deref(), lang, &meta, &out) {
                Ok(size) => {
                    outln!("{} ({size} bytes)", out.display());
                    ExitCode::SUCCESS
                }
                Err(e) => fail(e),
            }
        }
        Command::Export { scenario, xlsx, csv } => {
            match suanli_api::proposal::export(&scenario, cli.db.as_deref(), lang, xlsx.as_deref(), csv.as_deref()) {
                Ok(files) => {
                    for f in files {
                        outln!("{}", f.display());
                    }
                    ExitCode::SUCCESS
                }
                Err(e) => fail(e),
            }
        }
        Command::Evaluate { scenario, format } => match suanli_api::evaluate_file_with(&scenario, cli.db.as_deref()) {
            Ok((scenario, evaluation, notes)) => {
                for n in notes {
                    erroutln!("{}", n.describe(lang));
                }
                let today = suanli_api::freshness::today_date();
                let stale = match suanli_api::freshness::ages_for(&scenario, cli.db.as_deref(), today) {
                    Ok(prices) => prices.into_iter().filter(|p| p.freshness.stale).collect::<Vec<_>>(),
                    Err(e) => return fail(e),
                };
                match format {
                    Format::Table => {
                        out!("{}", table::comparison(&evaluation, lang));
                        out!("{}", table::stale_prices(&scenario, &evaluation, &stale, lang));
                        out!("{}", table::far_prices(&scenario, &evaluation, lang));
                    }
                    Format::Json => {
                        if let Err(e) = suanli_api::evaluation_json(&evaluation, lang).and_then(|j| terminal::json(&j))
                        {
                            return fail(e);
                        }
                        // The JSON stays the evaluation's; the warning goes where the notes go.
                        let warning = table::stale_prices(&scenario, &evaluation, &stale, lang);
                        if !warning.is_empty() {
                            erroutln!("{}", warning.trim_end());
                        }
                        let far = table::far_prices(&scenario, &evaluation, lang);
                        if !far.is_empty() {
                            erroutln!("{}", far.trim_end());
                        }
                    }
                }
                ExitCode::SUCCESS
            }
            Err(e) => fail(e),
        },
    }
}

//! Errors at the door: what went wrong, with which field and value, in the
//! user's language.

use suanli_model::{InputError, Lang};

/// Every way a use case can fail. [`Error::code`] gives the closed code a
/// front end matches on; [`Error::message`] the text for a reader, in
/// English or Chinese.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A file could not be read (a scenario, a logo, an import).
    #[error("cannot read {path}: {source}")]
    Read {
        /// The file, as given.
        path: String,
        /// The cause, as an I/O error (also for a file that is not UTF-8 text).
        #[source]
        source: std::io::Error,
    },
    /// The text is not a scenario: bad TOML, an unknown field, a wrong type.
    #[error("{}", self.message(Lang::En))]
    Parse {
        /// Field path as far as the parser got (`options[1].kind`).
        path: String,
        /// Line of the text where the parser stopped, from 1.
        line: usize,
        /// Column on that line, in characters, from 1.
        column: usize,
        /// What the parser found, in English whatever the language.
        message: String,
    },
    /// A document (the editor's scenario JSON, settings) has a field of the
    /// wrong shape, or a scenario could not be turned into TOML or JSON.
    #[error("{}", self.message(Lang::En))]
    Shape {
        /// Field path (`horizon_months`, `currency`); empty when the whole document is at fault.
        path: String,
        /// What is wrong (the deserializer's words are English in either language).
        message: String,
    },
    /// The database could not be opened, so nothing that needs it can run.
    #[error("{}", self.message(Lang::En))]
    Unavailable,
    /// No saved scenario (or other user item) with that id.
    #[error("{}", self.message(Lang::En))]
    NotFound(String),
    /// The scenario parsed but breaks rules; every broken rule is listed.
    #[error("{}", self.message(Lang::En))]
    Invalid(Vec<InputError>),
    /// A file or directory could not be written (or a key file is already there).
    #[error("cannot write {path}: {source}")]
    Write {
        /// The file or directory, as given.
        path: String,
        /// The cause, as an I/O error.
        #[source]
        source: std::io::Error,
    },
    /// A target Suanli will not replace; nothing was written.
    #[error("{}", self.message(Lang::En))]
    Refused {
        /// The target, as given.
        path: String,
        /// What the target is that Suanli will not replace.
        why: Refusal,
    },
    /// The catalogue refused or failed (rows, database, download).
    #[error("{0}")]
    Catalog(#[from] suanli_catalog::Error),
    /// A catalogue pack failed verification.
    #[error("{0}")]
    Pack(#[from] suanli_catalog::pack::PackError),
    /// Deployment artefacts could not be built for the option.
    #[error("{0}")]
    Deploy(#[from] suanli_report::DeployError),
    /// The proposal or export could not be built.
    #[error("{0}")]
    Report(#[from] suanli_report::ReportError),
    /// Something that cannot happen on any input did (a bug): said plainly.
    #[error("{0}")]
    Internal(String),
    /// A figure to be handed out (JSON, a workbook, a PDF) is not a finite
    /// number; nothing was handed out.
    #[error("{}", self.message(Lang::En))]
    NonFinite {
        /// Path of the first such figure (`options[2].total_nominal`).
        field: String,
    },
    /// A file larger than Suanli reads for its purpose; reading stopped at
    /// the limit, nothing was done with it.
    #[error("{}", self.message(Lang::En))]
    TooLarge {
        /// The file, as given.
        path: String,
        /// What it was read as.
        kind: FileKind,
        /// The limit, bytes.
        limit: u64,
    },
    /// A value given to a command outside what it accepts; nothing was done.
    #[error("{}", self.message(Lang::En))]
    Argument {
        /// The argument (`--trials`, `stale-after`).
        name: String,
        /// The value as given.
        value: String,
        /// What is allowed.
        allowed: Allowed,
    },
    /// A scenario's reference to the catalogue did not resolve.
    #[error("{path} = {value}: {problem}")]
    Reference {
        /// Field path of the reference (`options[0].on_demand.offer`).
        path: String,
        /// The value at fault, quoted: an offer id, or the option's id for a filter.
        value: String,
        /// Why it did not resolve (English).
        problem: String,
    },
}

impl Error {
    /// A closed set of codes for front ends that must not match on text.
    pub fn code(&self) -> ErrorCode {
        match self {
            Error::Read { .. } => ErrorCode::Read,
            Error::Parse { .. } => ErrorCode::Parse,
            Error::Invalid(_) => ErrorCode::Invalid,
            Error::Shape { .. } => ErrorCode::Shape,
            Error::Unavailable => ErrorCode::DbUnavailable,
            Error::NotFound(_) | Error::Catalog(suanli_catalog::Error::NotFound(_)) => ErrorCode::NotFound,
            Error::Write { .. } | Error::Refused { .. } => ErrorCode::Write,
            Error::Catalog(suanli_catalog::Error::NewerSchema { .. }) => ErrorCode::NewerSchema,
            Error::Catalog(suanli_catalog::Error::Rows(_)) => ErrorCode::Rows,
            Error::Catalog(suanli_catalog::Error::FileTooLarge { .. }) => ErrorCode::TooLarge,
            Error::Catalog(suanli_catalog::Error::NothingLanded { .. }) => ErrorCode::NothingLanded,
            Error::Catalog(suanli_catalog::Error::Busy) => ErrorCode::Busy,
            Error::Catalog(suanli_catalog::Error::Foreign { .. }) => ErrorCode::ForeignDb,
            Error::Catalog(suanli_catalog::Error::Refused(_)) => ErrorCode::Pack,
            Error::Catalog(_) => ErrorCode::Catalog,
            Error::Pack(_) => ErrorCode::Pack,
            Error::Reference { .. } => ErrorCode::Reference,
            Error::Deploy(_) => ErrorCode::Deploy,
            Error::Report(_) => ErrorCode::Report,
            Error::Internal(_) => ErrorCode::Internal,
            Error::NonFinite { .. } => ErrorCode::NotFinite,
            Error::TooLarge { .. } => ErrorCode::TooLarge,
            Error::Argument { .. } => ErrorCode::Argument,
        }
    }

    /// The whole error for a reader, one problem per line.
    pub fn message(&self, lang: Lang) -> String {
        let zh = lang == Lang::Zh;
        match self {
            Error::Read { path, source } => {
                if zh {
                    format!("无法读取 {path}：{source}")
                } else {
                    format!("cannot read {path}: {source}")
                }
            }
            Error::Parse { path, line, column, message } => {
                let at = if path.is_empty() || path == "." { String::new() } else { format!(" {path}:") };
                if zh {
                    format!("场景文件第 {line} 行第 {column} 列{at} {message}")
                } else {
                    format!("scenario file line {line}, column {column}:{at} {message}")
                }
            }
            Error::Invalid(errors) => {
                // A recommendation's constraints are not the scenario: the heading says which.
                let constraints = errors.iter().all(|e| e.path.starts_with("constraints"));
                let n = errors.len();
                let head = match (zh, constraints) {
                    (true, false) => format!("场景有 {n} 处问题："),
                    (true, true) => format!("约束条件有 {n} 处问题："),
                    (false, false) if n == 1 => "the scenario has 1 problem:".to_owned(),
                    (false, false) => format!("the scenario has {n} problems:"),
                    (false, true) if n == 1 => "the constraints have 1 problem:".to_owned(),
                    (false, true) => format!("the constraints have {n} problems:"),
                };
                let lines: Vec<String> = errors.iter().map(|e| format!("  - {}", e.message(lang))).collect();
                format!("{head}\n{}", lines.join("\n"))
            }
            Error::Shape { path, message } => match (zh, path.is_empty()) {
                (true, true) => format!("场景格式错误：{message}"),
                (true, false) => format!("{path}：格式错误：{message}"),
                (false, true) => format!("the scenario is malformed: {message}"),
                (false, false) => format!("{path}: {message}"),
            },
            Error::Unavailable => {
                if zh {
                    "数据库无法打开，此操作不可用；请按启动页面的提示处理。".to_owned()
                } else {
                    "the database could not be opened, so this is unavailable; see the start screen for what to do"
                        .to_owned()
                }
            }
            Error::NotFound(what) => {
                if zh {
                    format!("找不到 {what}")
                } else {
                    format!("{what} not found")
                }
            }
            Error::Write { path, source } => {
                if zh {
                    format!("无法写入 {path}：{source}")
                } else {
                    format!("cannot write {path}: {source}")
                }
            }
            Error::Refused { path, why } => {
                let why = match why {
                    Refusal::NotRegular => lang.pick(
                        "it is not a regular file (a device, a directory or a socket); Suanli only replaces regular files",
                        "它不是普通文件（设备、目录或套接字）；Suanli 只替换普通文件",
                    ),
                    Refusal::Symlink => lang.pick(
                        "it is a symbolic link; give the path of the file itself",
                        "它是符号链接；请给出文件本身的路径",
                    ),
                    Refusal::ReadOnly => lang.pick(
                        "it is read-only; Suanli does not replace a read-only file (make it writable first if you mean to replace it)",
                        "该文件为只读；Suanli 不替换只读文件（如确需替换，请先将其改为可写）",
                    ),
                };
                if zh {
                    format!("无法写入 {path}：{why}；未写入任何文件")
                } else {
                    format!("cannot write {path}: {why}; nothing was written")
                }
            }
            Error::Catalog(suanli_catalog::Error::NewerSchema { found, supported }) if zh => format!(
                "该数据库由更新版本的 Suanli 写入（架构版本 {found}，本版本最高支持 {supported}）；文件未被改动。请升级 Suanli，或用 --db 指定其他数据库。"
            ),
            Error::Catalog(suanli_catalog::Error::Rows(rows)) if zh => {
                let lines: Vec<String> = rows.iter().map(|r| format!("  - {}", r.message(Lang::Zh))).collect();
                format!("{} 行被拒绝，未写入任何内容：\n{}", rows.len(), lines.join("\n"))
            }
            Error::Catalog(suanli_catalog::Error::Update(e)) => e.message(lang),
            Error::Catalog(
                e @ (suanli_catalog::Error::Busy
                | suanli_catalog::Error::Foreign { .. }
                | suanli_catalog::Error::Refused(_)),
            ) => e.message(lang),
            Error::TooLarge { path, kind, limit } => {
                let mib = limit / (1024 * 1024);
                match (zh, kind) {
                    (true, FileKind::Scenario) => {
                        format!("无法读取 {path}：超过场景文件上限（{mib} MiB）；读到上限即停止，未作任何处理")
                    }
                    (true, FileKind::Input) => format!(
                        "无法读取 {path}：超过 Suanli 读取文件的上限（{mib} MiB）；读到上限即停止，未作任何处理"
                    ),
                    (false, FileKind::Scenario) => format!(
                        "cannot read {path}: it is larger than a scenario may be ({mib} MiB); reading stopped at the limit and nothing was done"
                    ),
                    (false, FileKind::Input) => format!(
                        "cannot read {path}: it is larger than Suanli reads ({mib} MiB); reading stopped at the limit and nothing was done"
                    ),
                }
            }
            Error::Argument { name, value, allowed } => {
                let rule = match (zh, allowed) {
                    (true, Allowed::Between { min, max }) => format!("必须在 {min} 到 {max} 之间"),
                    (false, Allowed::Between { min, max }) => format!("must be at least {min} and at most {max}"),
                    (true, Allowed::AtLeast { min }) => format!("必须不小于 {min}"),
                    (false, Allowed::AtLeast { min }) => format!("must be at least {min}"),
                    (true, Allowed::Date) => "必须是日期（YYYY-MM-DD）".to_owned(),
                    (true, Allowed::Currency) => "必须指定：价格以同一种货币比较（如 CNY、USD）".to_owned(),
                    (false, Allowed::Currency) => {
                        "must be given: prices are compared in one currency (CNY, USD …)".to_owned()
                    }
                    (false, Allowed::Date) => "must be a date, YYYY-MM-DD".to_owned(),
                };
                if zh {
                    format!("{name} = {value:?}：{rule}；未作任何处理")
                } else {
                    format!("{name} = {value:?}: {rule}; nothing was done")
                }
            }
            Error::Catalog(suanli_catalog::Error::FileTooLarge { bytes, limit }) if zh => {
                format!("文件有 {bytes} 字节，超过导入上限 {limit} 字节；未导入任何内容")
            }
            Error::Catalog(suanli_catalog::Error::IncompleteFeed { pages, next }) if zh => {
                format!("响应不完整：最后一页（共 {pages} 页）仍链接到下一页（{next}）；未导入任何内容")
            }
            Error::Catalog(suanli_catalog::Error::NothingLanded { rows }) if zh => {
                format!("{rows} 行中没有一行被导入：每一行都被拒绝或未导入")
            }
            Error::Catalog(e) => {
                if zh {
                    format!("目录错误：{e}")
                } else {
                    e.to_string()
                }
            }
            Error::Pack(e) => {
                if zh {
                    format!("目录包未通过校验，未作任何改动：{}", e.message(lang))
                } else {
                    format!("the catalogue pack was refused and nothing was changed: {e}")
                }
            }
            Error::Report(e) => {
                if zh {
                    format!("无法生成报告：{}", e.message(lang))
                } else {
                    format!("cannot build the report: {e}")
                }
            }
            Error::Internal(e) => {
                if zh {
                    format!("内部错误（请报告此问题）：{e}")
                } else {
                    format!("internal error (please report it): {e}")
                }
            }
            Error::Deploy(e) => {
                if zh {
                    let why = match e {
                        suanli_report::DeployError::NoSuchOption(id) => format!("场景中没有方案 {id:?}"),
                        suanli_report::DeployError::UnknownResource(a) => format!(
                            "不知道加速卡 {a:?} 的设备插件资源名；请用 --resource-name 指定集群设备插件注册的名称"
                        ),
                        suanli_report::DeployError::NoImage(a) => {
                            format!("不知道 {a} 的固定镜像；请用 --image 指定集群使用的运行时镜像")
                        }
                        suanli_report::DeployError::Budget(b) => format!("预算必须大于 0，而不是 {b}"),
                        suanli_report::DeployError::NoUsage => {
                            "该方案没有使用任何加速卡时，无法监控每卡时价格".to_owned()
                        }
                        suanli_report::DeployError::Name { field, value } => {
                            format!("{field} = {value:?} 无法转换为合法的 Kubernetes 名称")
                        }
                    };
                    format!("无法生成部署文件：{why}")
                } else {
                    format!("cannot build the deployment files: {e}")
                }
            }
            Error::NonFinite { field } => {
                if zh {
                    format!("{field} 不是有限数值，无法输出；未输出任何内容")
                } else {
                    format!("{field} is not a finite number, so it cannot be given out; nothing was")
                }
            }
            Error::Reference { path, value, problem } => {
                if zh {
                    format!("{path} = {value}：目录引用无法解析：{problem}")
                } else {
                    format!("{path} = {value}: {problem}")
                }
            }
        }
    }
}

/// What a file is read as, and so how large it may be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileKind {
    /// A scenario (TOML): at most [`crate::MAX_SCENARIO_BYTES`].
    Scenario,
    /// Anything else Suanli reads (a pack, a price book, a feed, a key, a
    /// logo): at most [`crate::MAX_FILE_BYTES`].
    Input,
}

/// What a command's argument may be.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Allowed {
    /// A whole number from `min` to `max`.
    Between {
        /// The least allowed.
        min: u64,
        /// The most allowed.
        max: u64,
    },
    /// A whole number of at least `min`.
    AtLeast {
        /// The least allowed.
        min: u64,
    },
    /// A currency, which the command needs to compare prices in.
    Currency,
    /// A calendar date, `YYYY-MM-DD`.
    Date,
}

/// Why a file was not replaced.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// A device, a directory, a socket, a pipe.
    NotRegular,
    /// A symbolic link (its target is not followed, nor is the link replaced).
    Symlink,
    /// A regular file without write permission.
    ReadOnly,
}

/// One field an error is about, for a front end that shows it at the field.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct FieldError {
    /// Field path as in the scenario file (`options[0].owned.pue`).
    pub path: String,
    /// The value found there, as text; empty when the error does not say it.
    pub value: String,
    /// The problem, in the requested language.
    pub message: String,
}

/// What kind of failure an [`Error`] is: a closed set for front ends that
/// must not match on text (serialised as its `snake_case` name).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    /// A file could not be read.
    Read,
    /// A scenario file is not valid TOML or JSON.
    Parse,
    /// The scenario breaks one or more rules (the fields say which).
    Invalid,
    /// A value has the wrong shape for its field.
    Shape,
    /// The database could not be opened (locked, missing, unreadable).
    DbUnavailable,
    /// What was asked for does not exist.
    NotFound,
    /// A file could not be written, or writing was refused.
    Write,
    /// The database was written by a newer Suanli.
    NewerSchema,
    /// Catalogue rows break the catalogue's rules (the fields say which).
    Rows,
    /// An input is larger than Suanli accepts.
    TooLarge,
    /// An import found nothing to keep.
    NothingLanded,
    /// Another writer holds the database.
    Busy,
    /// The file is not a Suanli database.
    ForeignDb,
    /// A catalogue pack was refused.
    Pack,
    /// Any other catalogue failure.
    Catalog,
    /// An option names an offer or filter that does not resolve.
    Reference,
    /// Deployment files could not be made.
    Deploy,
    /// A report could not be made.
    Report,
    /// A bug: please report it.
    Internal,
    /// A figure came out infinite or not a number.
    NotFinite,
    /// A command-line argument is out of range.
    Argument,
}

impl ErrorCode {
    /// Its name as serialised (`db_unavailable`).
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::Read => "read",
            ErrorCode::Parse => "parse",
            ErrorCode::Invalid => "invalid",
            ErrorCode::Shape => "shape",
            ErrorCode::DbUnavailable => "db_unavailable",
            ErrorCode::NotFound => "not_found",
            ErrorCode::Write => "write",
            ErrorCode::NewerSchema => "newer_schema",
            ErrorCode::Rows => "rows",
            ErrorCode::TooLarge => "too_large",
            ErrorCode::NothingLanded => "nothing_landed",
            ErrorCode::Busy => "busy",
            ErrorCode::ForeignDb => "foreign_db",
            ErrorCode::Pack => "pack",
            ErrorCode::Catalog => "catalog",
            ErrorCode::Reference => "reference",
            ErrorCode::Deploy => "deploy",
            ErrorCode::Report => "report",
            ErrorCode::Internal => "internal",
            ErrorCode::NotFinite => "not_finite",
            ErrorCode::Argument => "argument",
        }
    }
}

impl std::fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// An error as a front end receives it: a stable code, the whole message
/// in the user's language, and the fields it is about.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ErrorJson {
    /// What kind of failure, for front ends that must not match on text.
    pub code: ErrorCode,
    /// The whole message, as [`Error::message`] gives it.
    pub message: String,
    /// The fields to mark in a form; empty when the error is about none.
    pub fields: Vec<FieldError>,
}

impl Error {
    /// The error as a front end receives it, in `lang`.
    pub fn to_json(&self, lang: Lang) -> ErrorJson {
        let field = |path: &str, value: &str, message: String| FieldError {
            path: path.to_owned(),
            value: value.to_owned(),
            message,
        };
        let fields = match self {
            Error::Invalid(errors) => errors.iter().map(|e| field(&e.path, &e.value, e.rule.describe(lang))).collect(),
            Error::Shape { path, message } if !path.is_empty() => vec![field(path, "", message.clone())],
            Error::Parse { path, message, .. } if !path.is_empty() && path != "." => {
                vec![field(path, "", message.clone())]
            }
            Error::Reference { path, value, problem } => vec![field(path, value, problem.clone())],
            Error::Catalog(suanli_catalog::Error::Rows(rows)) => {
                rows.iter().map(|r| field(&r.field, &r.value, r.problem.describe(lang))).collect()
            }
            _ => Vec::new(),
        };
        ErrorJson { code: self.code(), message: self.message(lang), fields }
    }
}

//! Errors at the door: what went wrong, with which field and value, in the
//! user's language.

use suanli_model::{InputError, Lang};

#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("cannot read {path}: {source}")]
    Read {
        path: String,
        #[source]
        source: std::io::Error,
    },
    /// The text is not a scenario: bad TOML, an unknown field, a wrong type.
    #[error("{}", self.message(Lang::En))]
    Parse {
        /// Field path as far as the parser got (`options[1].kind`).
        path: String,
        line: usize,
        column: usize,
        message: String,
    },
    /// The scenario parsed but breaks rules; every broken rule is listed.
    #[error("{}", self.message(Lang::En))]
    Invalid(Vec<InputError>),
    #[error("cannot write {path}: {source}")]
    Write {
        path: String,
        #[source]
        source: std::io::Error,
    },
    /// The catalogue refused or failed (rows, database, download).
    #[error("{0}")]
    Catalog(#[from] suanli_catalog::Error),
    /// A catalogue pack failed verification.
    #[error("{0}")]
    Pack(#[from] suanli_catalog::pack::PackError),
    /// A scenario's reference to the catalogue did not resolve.
    #[error("{path} = {value}: {problem}")]
    Reference { path: String, value: String, problem: String },
}

impl Error {
    /// A closed set of codes for front ends that must not match on text.
    pub fn code(&self) -> &'static str {
        match self {
            Error::Read { .. } => "read",
            Error::Parse { .. } => "parse",
            Error::Invalid(_) => "invalid",
            Error::Write { .. } => "write",
            Error::Catalog(suanli_catalog::Error::NewerSchema { .. }) => "newer_schema",
            Error::Catalog(suanli_catalog::Error::Rows(_)) => "rows",
            Error::Catalog(_) => "catalog",
            Error::Pack(_) => "pack",
            Error::Reference { .. } => "reference",
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
                let head = if zh {
                    format!("场景有 {} 处问题：", errors.len())
                } else {
                    format!("the scenario has {} problem(s):", errors.len())
                };
                let lines: Vec<String> = errors.iter().map(|e| format!("  - {}", e.message(lang))).collect();
                format!("{head}\n{}", lines.join("\n"))
            }
            Error::Write { path, source } => {
                if zh {
                    format!("无法写入 {path}：{source}")
                } else {
                    format!("cannot write {path}: {source}")
                }
            }
            Error::Catalog(suanli_catalog::Error::NewerSchema { found, supported }) if zh => format!(
                "该数据库由更新版本的 Suanli 写入（架构版本 {found}，本版本最高支持 {supported}）；文件未被改动。请升级 Suanli，或用 --db 指定其他数据库。"
            ),
            Error::Catalog(suanli_catalog::Error::Rows(rows)) if zh => {
                let lines: Vec<String> = rows.iter().map(|r| format!("  - {}", r.message(Lang::Zh))).collect();
                format!("{} 行被拒绝，未写入任何内容：\n{}", rows.len(), lines.join("\n"))
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
                    format!("目录包未通过校验，未作任何改动：{e}")
                } else {
                    format!("the catalogue pack was refused and nothing was changed: {e}")
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

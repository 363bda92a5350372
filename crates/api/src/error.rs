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
}

impl Error {
    /// A closed set of codes for front ends that must not match on text.
    pub fn code(&self) -> &'static str {
        match self {
            Error::Read { .. } => "read",
            Error::Parse { .. } => "parse",
            Error::Invalid(_) => "invalid",
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
        }
    }
}

//! The two languages every message, figure and report is written in.

use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// The language a figure or message is written in.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub enum Lang {
    #[default]
    #[serde(rename = "en")]
    En,
    #[serde(rename = "zh")]
    Zh,
}

impl FromStr for Lang {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "en" | "en-us" | "en-gb" | "english" => Ok(Lang::En),
            "zh" | "zh-cn" | "zh-hans" | "cn" | "chinese" => Ok(Lang::Zh),
            _ => Err(s.to_owned()),
        }
    }
}

impl Lang {
    /// The text for this language: `lang.pick("Hardware", "硬件")`. The one
    /// place a text is chosen by language.
    pub fn pick<T>(self, en: T, zh: T) -> T {
        match self {
            Lang::En => en,
            Lang::Zh => zh,
        }
    }

    /// The language of a locale name (`zh_CN.UTF-8`, `en_US`): Chinese when
    /// it starts with `zh`, else English.
    pub fn of_locale(locale: &str) -> Lang {
        if locale.trim().to_ascii_lowercase().starts_with("zh") { Lang::Zh } else { Lang::En }
    }
}

//! The two languages every message, figure and report is written in.

use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// The language a figure or message is written in.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub enum Lang {
    /// English.
    #[default]
    #[serde(rename = "en")]
    En,
    /// Chinese (simplified characters).
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

/// True when `s` holds a CJK ideograph or CJK punctuation.
pub fn has_cjk(s: &str) -> bool {
    s.chars().any(|c| matches!(c as u32, 0x3000..=0x303F | 0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xFF00..=0xFFEF))
}

/// True when a text reads as `lang`: Chinese has Chinese characters,
/// English has none.
pub fn is_in(text: &str, lang: Lang) -> bool {
    has_cjk(text) == (lang == Lang::Zh)
}

/// A text as each language shows it: the same words twice when the text is
/// in one language, the two sides of "English / 中文" apart when it is
/// written in both ([`for_lang`]). The desktop reads the side it needs and
/// never splits text itself.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct Bilingual {
    /// As shown in English.
    pub en: String,
    /// As shown in Chinese.
    pub zh: String,
}

impl Bilingual {
    /// `text` as each language shows it.
    pub fn of(text: &str) -> Bilingual {
        Bilingual { en: for_lang(text, Lang::En), zh: for_lang(text, Lang::Zh) }
    }

    /// The side for `lang`.
    pub fn get(&self, lang: Lang) -> &str {
        lang.pick(&self.en, &self.zh)
    }
}

/// The part of a bilingual text in `lang`: the example scenarios and many
/// users write names as "English / 中文" (or "中文 / English"). When one
/// side of a " / " has Chinese and the other has none, the report prints
/// only its own language's side; any other text is printed as written.
pub fn for_lang(text: &str, lang: Lang) -> String {
    let parts: Vec<&str> = text.split(" / ").collect();
    if parts.len() == 2 {
        let (a, b) = (parts[0].trim(), parts[1].trim());
        match (has_cjk(a), has_cjk(b)) {
            (false, true) if !a.is_empty() => return lang.pick(a, b).to_owned(),
            (true, false) if !b.is_empty() => return lang.pick(b, a).to_owned(),
            _ => {}
        }
    }
    text.to_owned()
}

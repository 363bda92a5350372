//! The proposal's numbered references. Every source text behind a figure (a
//! catalogue offer's provenance, a catalogue ratio or accelerator, a
//! scenario's own source line) is said as a sentence that cites "[n]", and
//! each cited source becomes one numbered reference with its title,
//! publisher, address, date and confidence. Internal ids (offer ids, `gpu:S3`,
//! `prices:S54`, "gpu-facts 3G") never reach the client text.
//!
//! While a proposal is laid out, a [`Book`] is open on its thread:
//! [`crate::labels::source`], which every section already calls to say a
//! source, cites through it, so the numbers follow the order in which
//! sources are first cited. Without an open book (the workbook) a source text
//! is returned as written.
//!
//! `list` makes each reference's entry and draws the list.

use std::cell::RefCell;
use std::collections::BTreeMap;

use suanli_model::{Lang, Register};

mod list;

use list::reference;
pub use list::section;

/// A source the catalogue lists (`data/catalog/sources.csv` and the feeds'
/// sources): what a reference is made from.
#[derive(Debug, Clone, PartialEq)]
pub struct Source {
    /// The register it is listed in.
    pub sheet: Register,
    /// What it is, in the register's words.
    pub title: String,
    /// Its address, when the register gives one.
    pub url: Option<String>,
    /// The register's as-of text.
    pub date: Option<String>,
}

/// The catalogue's sources by id (`gpu:S3`, `prices:S54`, `article`).
pub type Sources = BTreeMap<String, Source>;

/// One numbered reference.
#[derive(Debug, Clone, PartialEq)]
pub struct Reference {
    /// What it is cited by: a catalogue source id or a register section.
    key: String,
    /// Title, publisher, address and date, in the report's language.
    pub title: String,
    /// Who publishes it.
    pub publisher: String,
    /// Where to find it: a web address or a repository path.
    pub address: String,
    /// Its date as the register gives it.
    pub date: String,
    /// The confidence tags the cited figures carry, in words.
    pub confidence: Vec<String>,
}

/// The references cited so far, in order of first citation.
#[derive(Debug, Default)]
pub struct Book {
    sources: Sources,
    lang: Option<Lang>,
    list: Vec<Reference>,
}

thread_local! {
    static OPEN: RefCell<Option<Book>> = const { RefCell::new(None) };
}

/// An open book for the length of a proposal's layout: closed when dropped.
pub struct Open(());

impl Open {
    /// Opens a book on this thread over the catalogue's `sources`.
    pub fn new(sources: &Sources, lang: Lang) -> Open {
        OPEN.with(|b| *b.borrow_mut() = Some(Book { sources: sources.clone(), lang: Some(lang), list: Vec::new() }));
        Open(())
    }

    /// The references cited so far.
    pub fn list(&self) -> Vec<Reference> {
        OPEN.with(|b| b.borrow().as_ref().map(|b| b.list.clone()).unwrap_or_default())
    }
}

impl Drop for Open {
    fn drop(&mut self) {
        OPEN.with(|b| *b.borrow_mut() = None);
    }
}

/// A source text said as a sentence citing its references when a book is
/// open; as written otherwise.
pub fn cite(text: &str) -> String {
    OPEN.with(|b| match b.borrow_mut().as_mut() {
        Some(book) => book.say(text),
        None => text.to_owned(),
    })
}

impl Book {
    fn lang(&self) -> Lang {
        self.lang.unwrap_or(Lang::En)
    }

    /// The number of the reference `key` (a catalogue source id or a
    /// register section), added when first cited; `confidence` joins its tags.
    fn number(&mut self, key: &str, confidence: Option<&str>) -> usize {
        let lang = self.lang();
        let at = match self.list.iter().position(|r| r.key == key) {
            Some(at) => at,
            None => {
                let reference = reference(key, self.sources.get(key), lang);
                self.list.push(reference);
                self.list.len() - 1
            }
        };
        if let Some(tag) = confidence {
            let sheet = self.sources.get(key).map(|s| s.sheet);
            let words = confidence_words(sheet, tag, lang);
            if !self.list[at].confidence.contains(&words) {
                self.list[at].confidence.push(words);
            }
        }
        at + 1
    }

    /// "[1][4]" for `;`- or `,`-separated ids; ids no source has are kept
    /// as they are only when nothing else can be said (never an offer id).
    fn cites(&mut self, ids: &str, confidence: Option<&str>) -> String {
        let numbers: Vec<usize> = ids
            .split([';', ','])
            .map(str::trim)
            .filter(|id| !id.is_empty())
            .map(|id| self.number(id, confidence))
            .collect();
        citation(&numbers)
    }

    fn say(&mut self, text: &str) -> String {
        let text = text.trim();
        if let Some(said) = self.offer(text) {
            return said;
        }
        if let Some(said) = self.ratio(text) {
            return said;
        }
        if let Some(said) = self.accelerator(text) {
            return said;
        }
        self.free_text(text)
    }

    /// `{origin} offer {id}: {price} {currency} per {unit} ({ids}, as of
    /// {date}, confidence {tag}){discount}{; range}` (`suanli_plan::provenance`).
    fn offer(&mut self, text: &str) -> Option<String> {
        let lang = self.lang();
        let (origin, rest) = ["catalogue offer ", "imported feed offer ", "your price book offer "]
            .iter()
            .find_map(|o| text.strip_prefix(o).map(|r| (*o, r)))?;
        let (_id, rest) = rest.split_once(": ")?;
        let (figure, rest) = rest.split_once(" (")?;
        let (inside, tail) = rest.split_once(')')?;
        let mut words = figure.splitn(4, ' ');
        let (price, currency, per, unit) = (words.next()?, words.next()?, words.next()?, words.next()?);
        if per != "per" {
            return None;
        }
        let price: f64 = price.parse().ok()?;
        let mut parts = inside.split(", ");
        let ids = parts.next()?;
        let date = parts.next()?.strip_prefix("as of ")?;
        let tag = parts.next()?.strip_prefix("confidence ")?;
        let kind = price_kind(tag, origin, lang);
        let unit = unit_words(unit, lang);
        let date = if date == "undated" { lang.pick("undated", "未注明日期").to_owned() } else { date.to_owned() };
        let cites = self.cites(ids, Some(tag));
        let mut said = match lang {
            Lang::En => format!("{kind}: {} {currency} per {unit}, as of {date} {cites}", unit_price(price)),
            Lang::Zh => format!("{kind}：每{unit} {} {currency}，价格日期 {date} {cites}", unit_price(price)),
        };
        for part in tail.split("; ").map(str::trim).filter(|p| !p.is_empty()) {
            if let Some(d) = part.strip_prefix(", less your ").and_then(|d| d.strip_suffix(" discount")) {
                said.push_str(&match lang {
                    Lang::En => format!(", less your {d} discount"),
                    Lang::Zh => format!("，扣除您的 {d} 折扣"),
                });
            } else if let Some((_, range)) = part.split_once("simulate draws it from ") {
                let (span, _) = range.split_once(" (").unwrap_or((range, ""));
                let span = span.split_once('–').map_or(span.to_owned(), |(a, b)| {
                    let f = |x: &str| x.trim().parse::<f64>().map_or(x.to_owned(), unit_price);
                    format!("{}–{}", f(a), f(b.trim_end_matches(':')))
                });
                said.push_str(&match lang {
                    Lang::En => format!("; the simulation draws it from {span} {currency}"),
                    Lang::Zh => format!("；模拟中在 {span} {currency} 之间取值"),
                });
            }
        }
        Some(said)
    }

    /// `catalogue ratio ({basis}) for {class}: {method} [ids]`.
    fn ratio(&mut self, text: &str) -> Option<String> {
        let lang = self.lang();
        let rest = text.strip_prefix("catalogue ratio (")?;
        let (basis, rest) = rest.split_once(") for ")?;
        let (class, method) = rest.split_once(": ").unwrap_or((rest, ""));
        if basis == "reference" {
            return Some(
                lang.pick("1 by definition: the reference GPU itself", "按定义为 1：即参考 GPU 本身").to_owned(),
            );
        }
        let ids = trailing_ids(method);
        let mut cites = ids.map(|ids| self.cites(ids, None)).unwrap_or_default();
        if cites.is_empty() {
            cites = format!("[{}]", self.number(RATIO_BOOK, None));
        }
        let how = basis_words(basis, lang);
        Some(match lang {
            Lang::En => format!("Suanli catalogue's efficiency ratio for {class}, {how} {cites}"),
            Lang::Zh => format!("Suanli 目录中{class}的效率比，{how} {cites}"),
        })
    }

    /// `catalogue accelerator {name} [ids]`.
    fn accelerator(&mut self, text: &str) -> Option<String> {
        let lang = self.lang();
        let rest = text.strip_prefix("catalogue accelerator ")?;
        let (name, ids) = match rest.rfind(" [") {
            Some(at) if rest.ends_with(']') => (&rest[..at], &rest[at + 2..rest.len() - 1]),
            _ => (rest, ""),
        };
        let cites = self.cites(ids, None);
        Some(match lang {
            Lang::En => format!("Catalogue specification of the {name} {cites}").trim_end().to_owned(),
            Lang::Zh => format!("目录中{name}的规格 {cites}").trim_end().to_owned(),
        })
    }

    /// A scenario's own source line or description: every id or register
    /// section in it becomes a citation, in place ("(article §1)" → "[2]"),
    /// or at the end when the text starts with it ("gpu-facts 3G: …").
    fn free_text(&mut self, text: &str) -> String {
        let mut out = String::with_capacity(text.len());
        let mut rest = text;
        let mut leading = Vec::new();
        while !rest.is_empty() {
            if let Some((len, key)) = self.citation_at(rest) {
                let n = self.number(&key, None);
                if out.trim().is_empty() {
                    leading.push(n);
                } else {
                    out.push_str(&citation(&[n]));
                }
                rest = &rest[len..];
                continue;
            }
            let c = rest.chars().next().unwrap_or(' ');
            out.push(c);
            rest = &rest[c.len_utf8()..];
        }
        // Brackets and separators an id left behind: "( [2])", "([2], x)", "()".
        let mut said = out;
        // A register's confidence letter after a figure ("(Mar 2025, C)"): the
        // reference list says the confidence in words.
        for tag in ['A', 'B', 'C', 'D', 'M', 'P', 'V', 'X'] {
            said = said.replace(&format!(", {tag})"), ")").replace(&format!("，{tag}）"), "）");
        }
        for (from, to) in [("(, ", "("), (", )", ")"), (" ,", ","), ("][", ", "), (" ()", ""), ("()", ""), ("（）", "")]
        {
            said = said.replace(from, to);
        }
        let mut said = unwrap_citations(&said);
        said = said.trim().trim_matches([':', '：', ',', '，', ' ']).to_owned();
        // A leading citation the text repeats in place is said once.
        let inline = cited(&said);
        leading.retain(|n| !inline.contains(n));
        // "the article's 40 %" names the article without a section.
        let lower = said.to_lowercase();
        if lower.contains("the article") || said.contains("文章") {
            let n = self.number("article", None);
            if !cited(&said).contains(&n) && !leading.contains(&n) {
                leading.push(n);
            }
        }
        match (said.is_empty(), leading.is_empty()) {
            (_, true) => said,
            (true, false) => citation(&leading),
            (false, false) => format!("{said} {}", citation(&leading)),
        }
    }

    /// The length and reference key of a citation at the start of `s`: a
    /// catalogue source id (`gpu:S3`, `[gpu:S1;gpu:S10]`), "provider-prices
    /// §6.4, S37", a register section ("gpu-facts 3G"), or the article
    /// ("Article §1.1", "the article's").
    fn citation_at(&self, s: &str) -> Option<(usize, String)> {
        // A bracketed list of ids is one citation of each.
        let token_len = s.find(|c: char| c.is_whitespace() || ";,()[]）（".contains(c)).unwrap_or(s.len());
        let token = s[..token_len].trim_end_matches(['.', ':']);
        if !token.is_empty() && token.contains(':') && self.sources.contains_key(token) {
            return Some((token.len(), token.to_owned()));
        }
        for (sheet, prefix) in [("provider-prices", "prices:"), ("gpu-facts", "gpu:"), ("china-prices", "cn:")] {
            let Some(after) = s.strip_prefix(sheet) else { continue };
            // "provider-prices §6.4, S37": the entry when one is named, else the section.
            // The section is one token after a space: "3G", "§6.4".
            let Some(token) = after.strip_prefix(' ') else { continue };
            let len = token.find(|c: char| !(c.is_ascii_alphanumeric() || c == '.' || c == '§')).unwrap_or(token.len());
            let len = token[..len].trim_end_matches('.').len();
            let section_end = 1 + len;
            let section = token[..len].trim();
            let tail = &after[section_end..];
            if let Some(id) = tail.strip_prefix(", S").map(|t| {
                let digits: String = t.chars().take_while(char::is_ascii_digit).collect();
                digits
            }) && !id.is_empty()
            {
                let key = format!("{prefix}S{id}");
                if self.sources.contains_key(&key) {
                    return Some((sheet.len() + section_end + 3 + id.len(), key));
                }
            }
            if !section.is_empty() {
                return Some((sheet.len() + section_end, format!("{sheet} {}", section.trim_start_matches('§'))));
            }
        }
        // "Article §1.1", "article §1.1 and §5.1", "文章 §1.1、§5.1".
        let lower = s.get(..8).map(str::to_ascii_lowercase);
        let head = if lower.as_deref() == Some("article ") {
            8
        } else if s.starts_with("文章 ") {
            "文章 ".len()
        } else {
            return None;
        };
        let mut end = head;
        while let Some(after) = s[end..].strip_prefix('§') {
            let len = after.find(|c: char| !(c.is_ascii_digit() || c == '.')).unwrap_or(after.len());
            end += '§'.len_utf8() + len;
            // A section number ends before a full stop: "§1." is "§1".
            while s[..end].ends_with('.') {
                end -= 1;
            }
            match ["、", ", ", " and ", "，"].iter().find(|sep| s[end..].starts_with(&format!("{sep}§"))) {
                Some(sep) => end += sep.len(),
                None => break,
            }
        }
        (end > head).then(|| (end, "article".to_owned()))
    }
}

/// One bracket citing every number, in order, runs of three or more as a
/// range: "[2, 5–9]"; nothing for no number.
pub fn citation(numbers: &[usize]) -> String {
    let mut sorted = numbers.to_vec();
    sorted.sort_unstable();
    sorted.dedup();
    let mut parts = Vec::new();
    let mut i = 0;
    while i < sorted.len() {
        let mut j = i;
        while j + 1 < sorted.len() && sorted[j + 1] == sorted[j] + 1 {
            j += 1;
        }
        match j - i {
            0 => parts.push(sorted[i].to_string()),
            1 => parts.extend([sorted[i].to_string(), sorted[j].to_string()]),
            _ => parts.push(format!("{}–{}", sorted[i], sorted[j])),
        }
        i = j + 1;
    }
    if parts.is_empty() { String::new() } else { format!("[{}]", parts.join(", ")) }
}

/// The reference key of Suanli's own ratio book, for ratios whose
/// measurements name no source.
const RATIO_BOOK: &str = "suanli:ratios";

/// "([2])" and "(（[2]）" said as " [2]": brackets around a citation alone.
fn unwrap_citations(text: &str) -> String {
    let mut out = text.to_owned();
    for (open, close) in [("(", ")"), ("（", "）")] {
        let mut from = 0;
        while let Some(at) = out[from..].find(&format!("{open}[")).map(|i| i + from) {
            let inner_start = at + open.len();
            let Some(end) = out[inner_start..].find(']').map(|i| i + inner_start) else { break };
            if out[end + 1..].starts_with(close) {
                let cite = out[inner_start..=end].to_owned();
                let space = if out[..at].ends_with(' ') || at == 0 { "" } else { " " };
                out.replace_range(at..end + 1 + close.len(), &format!("{space}{cite}"));
                from = at + cite.len();
            } else {
                from = end;
            }
        }
    }
    out
}

/// The numbers the citations in `text` name ("[2, 5–7]" → 2, 5, 6, 7).
pub fn cited(text: &str) -> Vec<usize> {
    let mut out = Vec::new();
    for part in text.split('[').skip(1) {
        let Some((inside, _)) = part.split_once(']') else { continue };
        if inside.is_empty() || !inside.chars().all(|c| c.is_ascii_digit() || c == ',' || c == ' ' || c == '–') {
            continue;
        }
        for item in inside.split(',').map(str::trim) {
            match item.split_once('–') {
                Some((a, b)) => {
                    if let (Ok(a), Ok(b)) = (a.parse::<usize>(), b.parse::<usize>()) {
                        out.extend(a..=b);
                    }
                }
                None => out.extend(item.parse::<usize>()),
            }
        }
    }
    out
}

/// The ids in a trailing "[a;b]".
fn trailing_ids(text: &str) -> Option<&str> {
    let text = text.trim_end();
    let inner = text.strip_suffix(']')?;
    let at = inner.rfind('[')?;
    Some(&inner[at + 1..])
}

/// A price figure as the reports print one (the engine's rule: two
/// decimals, up to four below 1).
pub fn unit_price(x: f64) -> String {
    suanli_model::unit_price_digits(x)
}

/// A price's kind from its confidence tag (the catalogue's `QuoteKind`
/// words), so an official list price and a market quote never read alike.
fn price_kind(tag: &str, origin: &str, lang: Lang) -> String {
    let kind = match tag {
        "A" => lang.pick("Official list price", "官方刊例价"),
        "B" => lang.pick("Price reported by a third party", "第三方报道的价格"),
        "C" => lang.pick(
            "Market quote (secondary source, not confirmed by the provider)",
            "市场报价（二手来源，未经服务商确认）",
        ),
        "X" => lang.pick("Disputed price (sources conflict)", "有冲突的价格（来源相互矛盾）"),
        "user" | "U" => lang.pick("Your price", "您的价格"),
        _ => lang.pick("Price", "价格"),
    };
    match (origin, lang) {
        ("imported feed offer ", Lang::En) => format!("{kind}, from an imported price feed"),
        ("imported feed offer ", Lang::Zh) => format!("{kind}（导入的价格数据）"),
        ("your price book offer ", Lang::En) => format!("{kind}, from your price book"),
        ("your price book offer ", Lang::Zh) => format!("{kind}（您的价格簿）"),
        _ => kind.to_owned(),
    }
}

/// A confidence tag in words, in the vocabulary of the register it comes from.
fn confidence_words(sheet: Option<Register>, tag: &str, lang: Lang) -> String {
    let words = match (sheet, tag) {
        (_, "A") => lang.pick("the provider's own price data", "服务商自有价格数据"),
        (_, "B") => lang.pick("a third party transcribing the provider", "第三方转录服务商价格"),
        (Some(Register::ChinaPrices), "C") => {
            lang.pick("market quote (forum, blog or aggregator)", "市场报价（论坛、博客或聚合站）")
        }
        (_, "C") => lang.pick("secondary source (blog or aggregator)", "二手来源（博客或聚合站）"),
        (_, "X") => lang.pick("conflicting or suspect", "存疑或有冲突"),
        (_, "V") => lang.pick("vendor datasheet", "厂商规格书"),
        (_, "M") => lang.pick("measured benchmark", "实测基准"),
        (_, "P") => lang.pick("press or analyst report", "媒体或分析报告"),
        (_, "D") => lang.pick("derived by arithmetic", "据来源计算得出"),
        _ => "",
    };
    if words.is_empty() { tag.to_owned() } else { format!("{tag}, {words}").replace(", ", lang.pick(", ", "，")) }
}

/// A price unit (`instance hour`) in words.
fn unit_words(unit: &str, lang: Lang) -> String {
    match (unit.trim(), lang) {
        ("instance hour", Lang::En) => "instance-hour".to_owned(),
        ("instance hour", Lang::Zh) => "实例小时".to_owned(),
        ("accelerator hour", Lang::En) => "accelerator-hour".to_owned(),
        ("accelerator hour", Lang::Zh) => "卡时".to_owned(),
        ("instance month", Lang::En) => "instance-month".to_owned(),
        ("instance month", Lang::Zh) => "实例月".to_owned(),
        ("server", Lang::Zh) => "台服务器".to_owned(),
        (other, _) => other.to_owned(),
    }
}

/// A ratio's basis (`suanli_catalog::ratios::Basis`'s English label) as a clause.
fn basis_words(basis: &str, lang: Lang) -> &'static str {
    match basis {
        "measured" => lang.pick("measured in like-for-like benchmarks", "由同条件基准实测得出"),
        "derived from measurements" => {
            lang.pick("derived by chaining like-for-like measurements", "由多组同条件实测链式推导")
        }
        "measured, via a spec-equivalent part" => {
            lang.pick("measured on a part with the same specifications", "在规格相同的卡上实测得出")
        }
        "vendor claim" => lang.pick("as the vendor claims it (not measured)", "为厂商宣称值（未经实测）"),
        "pinned by you" => lang.pick("as you set it", "由您设定"),
        _ => lang.pick(
            "estimated from specifications by a model calibrated on measured benchmarks (not measured on this part)",
            "由按实测基准校准的规格模型估算（该卡未经实测）",
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sources() -> Sources {
        let mut s = Sources::new();
        s.insert(
            "prices:S6".into(),
            Source {
                sheet: Register::ProviderPrices,
                title: "skypilot-catalog catalogs/v8/oci/vms.csv @ 0588751".into(),
                url: Some(
                    "https://github.com/skypilot-org/skypilot-catalog/blob/0588751/catalogs/v8/oci/vms.csv".into(),
                ),
                date: None,
            },
        );
        s.insert(
            "prices:S37".into(),
            Source { sheet: Register::ProviderPrices, title: "CFETS".into(), url: None, date: Some("2025-09".into()) },
        );
        s.insert(
            "cn:S5".into(),
            Source { sheet: Register::ChinaPrices, title: "A forum post".into(), url: None, date: None },
        );
        s.insert(
            "gpu:S1".into(),
            Source { sheet: Register::GpuFacts, title: "ml-engineering".into(), url: None, date: None },
        );
        s
    }

    fn say(text: &str, lang: Lang) -> (String, Vec<Reference>) {
        let book = Open::new(&sources(), lang);
        let said = cite(text);
        (said, book.list())
    }

    #[test]
    fn an_offer_becomes_a_sentence_and_a_reference() {
        let (said, refs) = say(
            "catalogue offer oci-bm-gpu-h200-8-global-on-demand: 80 USD per instance hour (prices:S6, as of 2026-09-18, confidence A)",
            Lang::En,
        );
        assert_eq!(said, "Official list price: 80.00 USD per instance-hour, as of 2026-09-18 [1]");
        assert_eq!(refs.len(), 1);
        assert_eq!(refs[0].publisher, "GitHub, skypilot-org/skypilot-catalog");
        assert!(refs[0].address.starts_with("https://github.com/skypilot-org"));
        assert_eq!(refs[0].confidence, ["A, the provider's own price data"]);
    }

    #[test]
    fn a_market_quote_reads_differently_from_a_list_price() {
        let (said, refs) =
            say("catalogue offer x-y-z: 0.85 CNY per accelerator hour (cn:S5, as of 2026-05, confidence C)", Lang::Zh);
        assert_eq!(said, "市场报价（二手来源，未经服务商确认）：每卡时 0.85 CNY，价格日期 2026-05 [1]");
        assert!(refs[0].confidence[0].contains("市场报价"));
        assert!(!said.contains("x-y-z"));
    }

    #[test]
    fn ids_and_register_sections_in_free_text_become_citations() {
        let (said, refs) = say("CFETS central parity 2025-09-22 (provider-prices §6.4, S37)", Lang::En);
        assert_eq!(said, "CFETS central parity 2025-09-22 [1]");
        assert_eq!(refs[0].key, "prices:S37");
        let (said, _) = say("gpu-facts 3G：AWS p4de 每卡时 5.12 USD（2025年3月，C）", Lang::Zh);
        assert_eq!(said, "AWS p4de 每卡时 5.12 USD（2025年3月） [1]");
        let (said, refs) = say("gpu-facts 3G: AWS p4de 5.12 USD/GPU-h (Mar 2025, C)", Lang::En);
        assert_eq!(said, "AWS p4de 5.12 USD/GPU-h (Mar 2025) [1]");
        assert_eq!(refs[0].title, "GPU facts register, section 3G");
        // A register's confidence letter is said in the reference list, not in the text.
        let (said, _) = say("A100 peak 312 TFLOPS (gpu-facts 3G, V) at 52 % MFU", Lang::En);
        assert_eq!(said, "A100 peak 312 TFLOPS [1] at 52 % MFU");
        let (said, _) = say("Article §1.1: market price 0.8 CNY per card-hour", Lang::En);
        assert_eq!(said, "market price 0.8 CNY per card-hour [1]");
        let (said, refs) =
            say("Work: 3.15e23 FLOPs (gpu-facts 3H, GPT-3); lead time (article §1). The article counts", Lang::En);
        assert_eq!(said, "Work: 3.15e23 FLOPs ([1], GPT-3); lead time [2]. The article counts");
        assert_eq!(refs.len(), 2);
        let (said, _) = say("Article §5.1: a card. Price (§1.1, article §1.1). Rest", Lang::En);
        assert_eq!(said, "a card. Price (§1.1, [1]). Rest");
        let (said, _) = say("as in the other scenario (article §1.1 and §5.1). Rest", Lang::En);
        assert_eq!(said, "as in the other scenario [1]. Rest");
        let (said, _) = say("价格同其他场景（文章 §1.1、§5.1）。其余", Lang::Zh);
        assert_eq!(said, "价格同其他场景 [1]。其余");
        let (said, _) = say("user assumption around the article's 40 %", Lang::En);
        assert_eq!(said, "user assumption around the article's 40 % [1]");
        let (said, refs) = say("catalogue accelerator H200 [gpu:S1;prices:S6]", Lang::En);
        assert_eq!(said, "Catalogue specification of the H200 [1, 2]");
        assert_eq!(refs.len(), 2);
    }

    #[test]
    fn a_method_becomes_a_sentence() {
        let (said, refs) = say(
            "catalogue ratio (estimated) for LLM inference: compute ratio 2.423^0.48 × memory 1.3^0.52 (catalogue ratio eff-h200)",
            Lang::En,
        );
        assert_eq!(
            said,
            "Suanli catalogue's efficiency ratio for LLM inference, estimated from specifications by a model calibrated on measured benchmarks (not measured on this part) [1]"
        );
        assert_eq!(refs[0].key, RATIO_BOOK);
    }

    #[test]
    fn citations_are_one_sorted_bracket_with_ranges() {
        assert_eq!(citation(&[36, 24, 37, 38]), "[24, 36–38]");
        assert_eq!(citation(&[3, 1, 2, 2]), "[1–3]");
        assert_eq!(citation(&[4, 5]), "[4, 5]");
        assert_eq!(citation(&[]), "");
    }

    #[test]
    fn without_an_open_book_text_is_kept() {
        assert_eq!(cite("gpu-facts 3G"), "gpu-facts 3G");
    }

    #[test]
    fn unit_prices_have_two_decimals_and_more_below_one() {
        assert_eq!(unit_price(80.0), "80.00");
        assert_eq!(unit_price(3.1109), "3.11");
        assert_eq!(unit_price(12_345.6), "12,345.60");
        assert_eq!(unit_price(0.8), "0.80");
        assert_eq!(unit_price(0.12346), "0.1235");
        assert_eq!(unit_price(0.5), "0.50");
    }
}

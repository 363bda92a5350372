//! Whether an option's label says the size of the fleet it is costed on.
//! A label such as "Rent 8×H100" names one instance; the engine may run
//! eighty of them. The count a label names is read here, once, for every
//! reader (CLI, proposal, editor).

use crate::Lang;
use crate::result::{Fleet, OptionResult};

/// A label that names a number of accelerators the option is not costed on.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LabelMismatch {
    /// Accelerators the label names.
    pub named: u32,
    /// Accelerators the engine runs at the peak.
    pub peak: f64,
    /// Accelerators it runs on average.
    pub average: f64,
}

impl LabelMismatch {
    /// The mismatch as a sentence in `lang`.
    pub fn describe(&self, lang: Lang) -> String {
        let peak = crate::format_number(self.peak.ceil(), 0);
        let average = crate::format_number(self.average, if self.average < 10.0 { 1 } else { 0 });
        match lang {
            Lang::En => format!(
                "the label names {} accelerator{}; it is costed on {peak} at the peak ({average} on average)",
                self.named,
                if self.named == 1 { "" } else { "s" }
            ),
            Lang::Zh => format!("名称写的是 {} 张卡，成本按峰值 {peak} 张（平均 {average} 张）计算", self.named),
        }
    }
}

impl Fleet {
    /// Accelerators at the peak, as a whole count (rounded up).
    pub fn peak_count(&self) -> u32 {
        (self.peak_accelerators - 1e-6).ceil().max(0.0) as u32
    }

    /// The fleet in one short phrase: "81 at peak, 80.6 on average".
    pub fn accelerators_text(&self, lang: Lang) -> String {
        let peak = crate::format_number(f64::from(self.peak_count()), 0);
        let avg =
            crate::format_number(self.average_accelerators, if self.average_accelerators < 100.0 { 1 } else { 0 });
        match lang {
            Lang::En => format!("{peak} at peak, {avg} on average"),
            Lang::Zh => format!("峰值 {peak} 张，平均 {avg} 张"),
        }
    }

    /// Accelerators that whole groups of `per_replica` hold beyond the peak
    /// the option is costed on (rented by the accelerator-hour): 0 when the
    /// peak fills whole groups.
    pub fn part_group(&self) -> u32 {
        match self.servers {
            Some(_) => 0,
            None => (self.replicas() * self.per_replica).saturating_sub(self.peak_count()),
        }
    }

    /// Servers bought, or replicas (job clusters) of `per_replica` at the peak
    /// (and, when the peak does not fill whole groups, what it is costed on).
    pub fn units_text(&self, lang: Lang) -> String {
        let (r, p) = (self.replicas(), self.per_replica);
        match (self.servers, self.part_group(), lang) {
            (Some(n), _, Lang::En) => format!("{n} server{}", if n == 1 { "" } else { "s" }),
            (Some(n), _, Lang::Zh) => format!("{n} 台服务器"),
            (None, 0, Lang::En) => format!("{r} × {p} accelerators"),
            (None, 0, Lang::Zh) => format!("{r} 组 × {p} 张"),
            (None, _, Lang::En) => {
                format!("{r} groups of {p} would hold them ({} accelerators; costed on {})", r * p, self.peak_count())
            }
            (None, _, Lang::Zh) => format!("需 {r} 组 × {p} 张（共 {} 张；成本按 {} 张计）", r * p, self.peak_count()),
        }
    }

    /// Months it runs and the accelerator-hours it runs.
    pub fn usage_text(&self, lang: Lang) -> String {
        let months = crate::format_number(self.months, 1);
        let hours = crate::money::group_thousands(self.accelerator_hours, 0);
        match lang {
            Lang::En => format!("{months} months, {hours} accelerator-hours"),
            Lang::Zh => format!("{months} 个月，{hours} 卡时"),
        }
    }

    /// The whole fleet in one line.
    pub fn describe(&self, lang: Lang) -> String {
        let sep = lang.pick("; ", "；");
        [self.accelerators_text(lang), self.units_text(lang), self.usage_text(lang)].join(sep)
    }
}

/// The option's label against its fleet: a mismatch when the label names a
/// count of accelerators and the peak the engine runs, rounded up, is another.
pub fn label_mismatch(o: &OptionResult) -> Option<LabelMismatch> {
    mismatch(&o.label, &o.fleet)
}

fn mismatch(label: &str, fleet: &Fleet) -> Option<LabelMismatch> {
    let named = named_count(label)?;
    let peak = (fleet.peak_accelerators - 1e-6).ceil().max(0.0);
    (fleet.peak_accelerators > 0.0 && peak != f64::from(named)).then_some(LabelMismatch {
        named,
        peak: fleet.peak_accelerators,
        average: fleet.average_accelerators,
    })
}

/// Words after a number that make it a count of accelerators.
const ACCELERATOR_WORDS: [&str; 9] = ["cards", "card", "gpus", "gpu", "accelerators", "accelerator", "卡", "张", "块"];

/// The number of accelerators a label names, from the first of: "2 × 8"
/// (servers × accelerators), "8×H100", "16 cards" / "16 张" / "8卡",
/// "16 A100" (a number before a model name with a digit in it).
pub fn named_count(label: &str) -> Option<u32> {
    let chars: Vec<char> = label.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        if !chars[i].is_ascii_digit() || (i > 0 && (chars[i - 1].is_alphanumeric() || chars[i - 1] == '.')) {
            i += 1;
            continue;
        }
        let (n, end) = number_at(&chars, i);
        if let Some(count) = count_after(&chars, n, end) {
            return Some(count);
        }
        i = end;
    }
    None
}

/// The whole number starting at `i` and where it ends.
fn number_at(chars: &[char], i: usize) -> (u32, usize) {
    let mut end = i;
    let mut n: u32 = 0;
    while end < chars.len() && chars[end].is_ascii_digit() {
        n = n.saturating_mul(10).saturating_add(chars[end].to_digit(10).unwrap_or(0));
        end += 1;
    }
    (n, end)
}

fn skip_spaces(chars: &[char], mut i: usize) -> usize {
    while i < chars.len() && chars[i].is_whitespace() {
        i += 1;
    }
    i
}

/// The accelerators number `n` (ending at `end`) counts, if it counts any.
fn count_after(chars: &[char], n: u32, end: usize) -> Option<u32> {
    // A decimal ("1.5") or a unit glued on ("80GB") is not a count.
    if chars.get(end).is_some_and(|c| *c == '.' && chars.get(end + 1).is_some_and(char::is_ascii_digit)) {
        return None;
    }
    let at = skip_spaces(chars, end);
    let times = chars.get(at).is_some_and(|c| *c == '×' || *c == 'x' || *c == 'X' || *c == '*');
    if times {
        let next = skip_spaces(chars, at + 1);
        if chars.get(next).is_some_and(char::is_ascii_digit) {
            // Servers × accelerators each.
            let (per, _) = number_at(chars, next);
            return Some(n.saturating_mul(per));
        }
        // "8×H100": a count of the named accelerator (but not "2x faster").
        return chars.get(next).is_some_and(|c| c.is_ascii_uppercase()).then_some(n);
    }
    let rest: String = chars[at..].iter().take(14).collect::<String>().to_lowercase();
    if let Some(word) = ACCELERATOR_WORDS.iter().find(|w| rest.starts_with(**w)) {
        let after = rest[word.len()..].chars().next();
        // "8 cards" but not "8 cardinals"; Chinese words need no boundary.
        if word.is_ascii() && after.is_some_and(char::is_alphanumeric) {
            return None;
        }
        return Some(n);
    }
    // "16 A100": a capitalised model name with a digit in it.
    if at > end {
        let word: String = chars[at..].iter().take_while(|c| c.is_ascii_alphanumeric()).collect();
        if word.starts_with(|c: char| c.is_ascii_uppercase()) && word.chars().any(|c| c.is_ascii_digit()) {
            return Some(n);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_name_their_counts() {
        assert_eq!(named_count("Rent 8×H100 (AWS p5) / 租用 8卡 H100（AWS p5）"), Some(8));
        assert_eq!(named_count("Rent 4×L40S (OCI)"), Some(4));
        assert_eq!(named_count("Own 2 × 8 Ascend 910B / 自购 2 台 8 卡昇腾 910B"), Some(16));
        assert_eq!(named_count("Buy 32 × 8-card servers"), Some(256));
        assert_eq!(named_count("Rent 16 A100 / 租用 16 张 A100"), Some(16));
        assert_eq!(named_count("租用 16 张 A100"), Some(16));
        assert_eq!(named_count("Rent 256 cards / 租用 256 卡"), Some(256));
        assert_eq!(named_count("Buy one 8×A100 server"), Some(8));
        assert_eq!(named_count("Rent 8×A100 80 GB (Lambda)"), Some(8));
        assert_eq!(named_count("All reserved (1 y, sized to peak)"), None);
        assert_eq!(named_count("A100 80 GB on demand in China"), None);
        assert_eq!(named_count("Rent A100 / 租用 A100"), None);
        assert_eq!(named_count("2x faster cluster"), None);
    }

    fn fleet(peak: f64) -> Fleet {
        Fleet {
            peak_accelerators: peak,
            average_accelerators: peak * 0.9,
            months: 12.0,
            accelerator_hours: 0.0,
            servers: None,
            per_replica: 8,
        }
    }

    #[test]
    fn a_label_that_names_another_count_is_flagged() {
        let m = mismatch("Rent 8×H100 (AWS p5)", &fleet(80.6)).expect("8 named, 81 run");
        assert_eq!(m.named, 8);
        assert!(m.describe(Lang::En).contains("81 at the peak"), "{}", m.describe(Lang::En));
        assert!(m.describe(Lang::Zh).contains("峰值 81 张"));
        assert_eq!(mismatch("Rent 256 cards", &fleet(256.0)), None);
        assert_eq!(mismatch("All on demand", &fleet(80.6)), None);
        assert!(mismatch("Rent 16 A100 / 租用 16 张 A100", &fleet(12.0)).is_some());
    }
}

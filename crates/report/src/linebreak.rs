//! Where a line may end: the Unicode line-breaking algorithm (UAX #14, the
//! `unicode-linebreak` crate), which already keeps Chinese closing
//! punctuation (，。、）：；！？) off a line's start and opening punctuation
//! （（“《）off its end, with one tailoring of our own: a number stays with
//! the unit or measure word after it ("24 个月", "2026年", "587.20万美元",
//! "80 GB", "92 %"), which UAX #14 would let break after the digits; and a citation
//! ("[1–4, 10]") is one piece.

use unicode_linebreak::{BreakClass, BreakOpportunity, break_property, linebreaks};

/// Characters of the units and measure words that follow a number in the
/// reports ("个月", "万美元", "小时", "卡时"); a run of them after a number
/// is kept whole.
const UNIT: &str = "个月年日天周小时分钟秒次倍张台家项万亿千百元美欧港英镑卡页期";

fn is_unit(c: char) -> bool {
    UNIT.contains(c)
}

/// The text cut at every place a line may end, each piece keeping the
/// spaces after it; joined, the pieces are the text.
pub fn pieces(s: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let citations = citations(s);
    for (at, kind) in linebreaks(s) {
        if at >= s.len() {
            break;
        }
        let in_citation = citations.iter().any(|(open, close)| *open < at && at <= *close);
        if kind == BreakOpportunity::Allowed && (in_citation || number_and_unit(&s[..at], &s[at..])) {
            continue;
        }
        out.push(&s[start..at]);
        start = at;
    }
    if start < s.len() {
        out.push(&s[start..]);
    }
    out
}

/// Byte ranges of the citations in `s`: from a "[" to its "]", with only
/// digits, commas, spaces and dashes between ("[3]", "[1–4, 10]").
fn citations(s: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for (open, _) in s.match_indices('[') {
        let inside = &s[open + 1..];
        let Some(len) = inside.find(']') else { continue };
        let body = &inside[..len];
        if !body.is_empty() && body.chars().all(|c| c.is_ascii_digit() || ", –-".contains(c)) {
            out.push((open, open + 1 + len));
        }
    }
    out
}

/// False for what may not start a line (UAX #14's closing punctuation and
/// parentheses, non-starters, exclamation and infix separators: ，。、）：；！？):
/// a piece broken between characters hangs it at the end of the line before.
pub fn may_start_line(c: char) -> bool {
    !matches!(
        break_property(u32::from(c)),
        BreakClass::ClosePunctuation
            | BreakClass::CloseParenthesis
            | BreakClass::NonStarter
            | BreakClass::Exclamation
            | BreakClass::InfixSeparator
    )
}

/// True when a break between `before` and `after` would part a number from
/// its unit: `before` ends with a digit (then at most one space) and `after`
/// starts a word, or `before` ends with a digit and unit characters and
/// `after` goes on with one.
fn number_and_unit(before: &str, after: &str) -> bool {
    let Some(next) = after.chars().next() else { return false };
    let tail = before.trim_end_matches(' ');
    let spaces = before.len() - tail.len();
    let units = tail.chars().rev().take_while(|c| is_unit(*c)).take(4).count();
    // The number before the units, with at most one space between ("24 个月").
    let mut head = tail.chars().rev().skip(units).peekable();
    if units > 0 {
        head.next_if_eq(&' ');
    }
    let head_ends_in_digit = head.next().is_some_and(|c| c.is_ascii_digit());
    match (units, spaces) {
        (0, 0 | 1) => head_ends_in_digit && (next.is_alphabetic() || next == '%'),
        (1.., 0) => head_ends_in_digit && is_unit(next),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::pieces;

    #[test]
    fn chinese_breaks_between_characters_but_not_before_closing_punctuation() {
        assert_eq!(pieces("甲乙，丙"), ["甲", "乙，", "丙"]);
        assert_eq!(pieces("说明：如下"), ["说", "明：", "如", "下"]);
        // An opening bracket stays with what follows it.
        assert_eq!(pieces("甲（乙）"), ["甲", "（乙）"]);
    }

    #[test]
    fn numbers_keep_their_units() {
        assert_eq!(pieces("在 24 个月内"), ["在 ", "24 个月", "内"]);
        assert_eq!(pieces("（2026年1月）"), ["（2026年", "1月）"]);
        assert_eq!(pieces("587.20万美元，高出"), ["587.20万美元，", "高", "出"]);
        assert_eq!(pieces("needs 80 GB cards"), ["needs ", "80 GB ", "cards"]);
        assert_eq!(pieces("利用率（92 %），"), ["利", "用", "率", "（92 %），"]);
        // Two spaces, or a unit already followed by a space, part them.
        assert_eq!(pieces("24 个 月"), ["24 个 ", "月"]);
    }

    #[test]
    fn a_citation_is_never_broken() {
        assert_eq!(pieces("measurements [1–4, 10] here"), ["measurements ", "[1–4, 10] ", "here"]);
        assert_eq!(pieces("效率比 [2, 5]。"), ["效", "率", "比 ", "[2, 5]。"]);
        // Brackets holding words break as text does.
        assert_eq!(pieces("[a b]"), ["[a ", "b]"]);
    }

    #[test]
    fn latin_text_breaks_at_spaces_and_after_hyphens() {
        assert_eq!(pieces("a well-known fact"), ["a ", "well-", "known ", "fact"]);
        assert_eq!(pieces(""), Vec::<&str>::new());
    }
}

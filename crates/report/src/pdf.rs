//! A small page-layout layer over printpdf: text in one embedded CJK font
//! (regular and bold), wrapping by measured glyph widths, rectangles and
//! lines, page breaks, running headers and page numbers.
//!
//! Every position is in points from the top-left corner; printpdf's origin
//! is bottom-left, so `y` is flipped once, here.

use crate::ReportError;
use printpdf::{
    Color, FontId, Line, LinePoint, Mm, Op, PaintMode, ParsedFont, PdfDocument, PdfFont, PdfFontHandle, PdfPage,
    PdfSaveOptions, Point, Pt, RawImage, Rect, Rgb, TextItem, WindingOrder, XObject, XObjectId, XObjectTransform,
};

/// A4 portrait.
pub const PAGE_W: f32 = 595.28;
pub const PAGE_H: f32 = 841.89;
pub const MARGIN_X: f32 = 56.0;
pub const TOP: f32 = 72.0;
pub const BOTTOM: f32 = 64.0;
pub const CONTENT_W: f32 = PAGE_W - 2.0 * MARGIN_X;

/// Noto Sans CJK SC cut to GB18030's BMP hanzi (CJK Unified Ideographs and
/// Extension A), kana, Latin, Greek, Cyrillic and the punctuation and
/// symbols reports use (`scripts/subset-fonts`, `data/fonts/README.md`).
static REGULAR: &[u8] = include_bytes!("../../../data/fonts/NotoSansSC-Regular-GB18030.otf");
static BOLD: &[u8] = include_bytes!("../../../data/fonts/NotoSansSC-Bold-GB18030.otf");

/// True when the embedded font (both weights hold the same characters)
/// draws `c`; anything else takes [`fallback`].
pub fn font_covers(c: char) -> bool {
    static FONT: std::sync::OnceLock<Option<ParsedFont>> = std::sync::OnceLock::new();
    FONT.get_or_init(|| ParsedFont::from_bytes(REGULAR, 0, &mut Vec::new()))
        .as_ref()
        .is_some_and(|f| f.lookup_glyph_index(c as u32).is_some())
}

/// An RGB colour from 0–255 components.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rgb8(pub u8, pub u8, pub u8);

impl Rgb8 {
    fn color(self) -> Color {
        Color::Rgb(Rgb::new(f32::from(self.0) / 255.0, f32::from(self.1) / 255.0, f32::from(self.2) / 255.0, None))
    }
}

pub const INK: Rgb8 = Rgb8(33, 37, 41);
pub const MUTED: Rgb8 = Rgb8(108, 117, 125);
pub const RULE: Rgb8 = Rgb8(206, 212, 218);
pub const ACCENT: Rgb8 = Rgb8(31, 78, 121);

pub struct Canvas {
    regular: ParsedFont,
    bold: ParsedFont,
    logo: Option<RawImage>,
    pub pages: Vec<Vec<Op>>,
    /// Cursor: distance from the top of the current page.
    pub y: f32,
    /// A drawing operation was asked for at a position or size that is not
    /// a finite number (a broken figure); [`Canvas::save`] then refuses.
    non_finite: bool,
}

/// A drawing was asked for at a coordinate that is not a finite number.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NonFiniteDrawing;

fn font_id(bold: bool) -> FontId {
    // Fixed ids keep the output byte-identical from run to run.
    // Six capitals: PDF readers take them as the subset tag (pdffonts shows sub = yes).
    FontId(if bold { "SLBOLD".to_owned() } else { "SLREGU".to_owned() })
}

impl Canvas {
    pub fn new() -> Result<Canvas, ReportError> {
        let mut warnings = Vec::new();
        let regular = ParsedFont::from_bytes(REGULAR, 0, &mut warnings).ok_or(ReportError::Font { bold: false })?;
        let bold = ParsedFont::from_bytes(BOLD, 0, &mut warnings).ok_or(ReportError::Font { bold: true })?;
        Ok(Canvas { regular, bold, logo: None, pages: Vec::new(), y: TOP, non_finite: false })
    }

    /// Decodes a PNG or JPEG logo; the error says why it cannot be used.
    pub fn set_logo(&mut self, bytes: &[u8]) -> Result<(), ReportError> {
        let image = RawImage::decode_from_bytes(bytes, &mut Vec::new())
            .map_err(|e| ReportError::Logo { problem: e.to_string() })?;
        if image.width == 0 || image.height == 0 || image.width > 8000 || image.height > 8000 {
            return Err(ReportError::LogoSize { width: image.width, height: image.height });
        }
        self.logo = Some(image);
        Ok(())
    }

    /// Draws the logo, if any, inside a `max_w` × `max_h` box whose top-right corner is (`right`, `top`).
    pub fn logo(&mut self, right: f32, top: f32, max_w: f32, max_h: f32) {
        let Some(image) = &self.logo else { return };
        let (w, h) = (image.width as f32, image.height as f32);
        let scale = (max_w / w).min(max_h / h);
        let (dw, dh) = (w * scale, h * scale);
        let op = Op::UseXobject {
            id: XObjectId("SLLOGO".to_owned()),
            transform: XObjectTransform {
                translate_x: Some(Pt(right - dw)),
                translate_y: Some(Pt(PAGE_H - top - dh)),
                scale_x: Some(scale),
                scale_y: Some(scale),
                // 1 pixel = 1 point before scaling.
                dpi: Some(72.0),
                ..Default::default()
            },
        };
        self.ops().push(op);
    }

    /// False (and remembered) when any of the numbers is NaN or infinite:
    /// such an operation is never written into the PDF.
    fn finite(&mut self, xs: &[f32]) -> bool {
        let ok = xs.iter().all(|x| x.is_finite());
        self.non_finite |= !ok;
        ok
    }

    fn font(&self, bold: bool) -> &ParsedFont {
        if bold { &self.bold } else { &self.regular }
    }

    /// True when the embedded font draws `c` (both weights are cut to the
    /// same character set).
    pub fn covers(&self, c: char) -> bool {
        self.regular.lookup_glyph_index(c as u32).is_some()
    }

    /// The text as it is drawn. Controls and bidirectional overrides are
    /// dropped (tabs and newlines become spaces). A character the font
    /// lacks takes the documented fallback, so nothing is drawn as a hole
    /// or a "?": first its compatibility decomposition when the font draws
    /// all of that (NFKC: subscript two U+2082 → "2", the ligature U+FB01 →
    /// "fi"), otherwise its code point in brackets (the Extension B
    /// ideograph U+20000 → "[U+20000]", an emoji U+1F680 → "[U+1F680]"),
    /// which a reader can look up and a search finds. (This file names
    /// those characters by code point only: a test checks that the font
    /// draws every character of the report's sources.)
    pub fn printable(&self, s: &str) -> String {
        let mut out = String::with_capacity(s.len());
        for c in s.chars() {
            match c {
                '\t' | '\n' | '\r' => out.push(' '),
                // Zero-width characters and marks (U+200B–200F), line and
                // paragraph separators and bidirectional embeddings and
                // overrides (U+2028–202E), isolates (U+2066–2069). Not the
                // dashes, quotes and ellipsis between them (U+2010–2027):
                // dropping those made "P10–P90" print as "P10P90".
                c if c.is_control()
                    || ('\u{200B}'..='\u{200F}').contains(&c)
                    || ('\u{2028}'..='\u{202E}').contains(&c)
                    || ('\u{2066}'..='\u{2069}').contains(&c)
                    || c == '\u{FEFF}' => {}
                c if self.covers(c) => out.push(c),
                c => out.push_str(&fallback(c, |d| self.covers(d))),
            }
        }
        out
    }

    pub fn width(&self, s: &str, size: f32, bold: bool) -> f32 {
        let f = self.font(bold);
        let em = f32::from(f.font_metrics.units_per_em.max(1));
        s.chars()
            .map(|c| {
                f.lookup_glyph_index(c as u32)
                    .and_then(|g| f.get_glyph_width_internal(g))
                    .map_or(size * 0.6, |w| w as f32 / em * size)
            })
            .sum()
    }

    /// Lines of at most `max` points, broken where the Unicode line-breaking
    /// rules allow ([`crate::linebreak`]: at spaces, between Chinese
    /// characters, never before closing or after opening punctuation, never
    /// between a number and its unit); a piece longer than a line (a long
    /// identifier or address) is broken between characters, closing
    /// punctuation hanging at the end of the line.
    pub fn wrap(&self, s: &str, size: f32, bold: bool, max: f32) -> Vec<String> {
        let s = self.printable(s);
        let mut lines = Vec::new();
        let mut line = String::new();
        // The line's width, and its width without trailing spaces.
        let mut width = 0.0;
        for piece in crate::linebreak::pieces(&s) {
            let body = piece.trim_end();
            let body_w = self.width(body, size, bold);
            let piece_w = body_w + self.width(&piece[body.len()..], size, bold);
            if width + body_w <= max {
                line.push_str(piece);
                width += piece_w;
                continue;
            }
            if !line.trim().is_empty() {
                lines.push(line.trim_end().to_owned());
                line.clear();
                width = 0.0;
            }
            if body_w <= max {
                line.push_str(piece);
                width = piece_w;
                continue;
            }
            for ch in piece.chars() {
                let w = self.width(ch.encode_utf8(&mut [0; 4]), size, bold);
                let fits = width + w <= max || ch.is_whitespace() || !crate::linebreak::may_start_line(ch);
                if !fits && !line.trim().is_empty() {
                    lines.push(line.trim_end().to_owned());
                    line.clear();
                    width = 0.0;
                }
                line.push(ch);
                width += w;
            }
        }
        if !line.trim().is_empty() {
            lines.push(line.trim_end().to_owned());
        }
        lines
    }

    pub fn new_page(&mut self) {
        self.pages.push(Vec::new());
        self.y = TOP;
    }

    fn ops(&mut self) -> &mut Vec<Op> {
        if self.pages.is_empty() {
            self.pages.push(Vec::new());
        }
        let last = self.pages.len() - 1;
        &mut self.pages[last]
    }

    /// Starts a new page unless `height` more points fit.
    pub fn ensure(&mut self, height: f32) {
        if self.pages.is_empty() || self.y + height > PAGE_H - BOTTOM {
            self.new_page();
        }
    }

    /// Text with its baseline at `y` (from the top), one absolute text section.
    pub fn text_at(&mut self, x: f32, y: f32, size: f32, bold: bool, color: Rgb8, s: &str) {
        if !self.finite(&[x, y, size]) {
            return;
        }
        let s = self.printable(s);
        let ops = self.ops();
        ops.push(Op::StartTextSection);
        ops.push(Op::SetFont { font: PdfFontHandle::External(font_id(bold)), size: Pt(size) });
        ops.push(Op::SetFillColor { col: color.color() });
        ops.push(Op::SetTextCursor { pos: Point { x: Pt(x), y: Pt(PAGE_H - y) } });
        ops.push(Op::ShowText { items: vec![TextItem::Text(s)] });
        ops.push(Op::EndTextSection);
    }

    /// Right-aligned text ending at `right`.
    pub fn text_right(&mut self, right: f32, y: f32, size: f32, bold: bool, color: Rgb8, s: &str) {
        let w = self.width(&self.printable(s), size, bold);
        self.text_at(right - w, y, size, bold, color, s);
    }

    /// A note under a table or chart: small, muted, wrapped.
    pub fn note(&mut self, s: &str) {
        self.paragraph(s, 8.5, false, MUTED);
    }

    /// A wrapped paragraph at the cursor; breaks pages as needed.
    pub fn paragraph(&mut self, s: &str, size: f32, bold: bool, color: Rgb8) {
        let lead = size * 1.5;
        for line in self.wrap(s, size, bold, CONTENT_W) {
            self.ensure(lead);
            self.y += lead;
            self.text_at(MARGIN_X, self.y, size, bold, color, &line);
        }
    }

    pub fn heading(&mut self, s: &str) {
        self.ensure(60.0);
        self.y += 28.0;
        self.text_at(MARGIN_X, self.y, 16.0, true, ACCENT, s);
        self.y += 6.0;
        self.line(&[(MARGIN_X, self.y), (PAGE_W - MARGIN_X, self.y)], ACCENT, 0.8);
        self.y += 4.0;
    }

    pub fn space(&mut self, pt: f32) {
        self.y += pt;
    }

    pub fn rect(&mut self, x: f32, y: f32, w: f32, h: f32, fill: Rgb8) {
        if !self.finite(&[x, y, w, h]) {
            return;
        }
        let ops = self.ops();
        ops.push(Op::SaveGraphicsState);
        ops.push(Op::SetFillColor { col: fill.color() });
        ops.push(Op::DrawRectangle {
            rectangle: Rect {
                x: Pt(x),
                y: Pt(PAGE_H - y - h),
                width: Pt(w),
                height: Pt(h),
                mode: Some(PaintMode::Fill),
                winding_order: Some(WindingOrder::NonZero),
            },
        });
        ops.push(Op::RestoreGraphicsState);
    }

    pub fn line(&mut self, points: &[(f32, f32)], color: Rgb8, thickness: f32) {
        let coordinates: Vec<f32> = points.iter().flat_map(|(x, y)| [*x, *y]).chain([thickness]).collect();
        if !self.finite(&coordinates) {
            return;
        }
        let ops = self.ops();
        ops.push(Op::SaveGraphicsState);
        ops.push(Op::SetOutlineColor { col: color.color() });
        ops.push(Op::SetOutlineThickness { pt: Pt(thickness) });
        ops.push(Op::DrawLine {
            line: Line {
                points: points
                    .iter()
                    .map(|(x, y)| LinePoint { p: Point { x: Pt(*x), y: Pt(PAGE_H - y) }, bezier: false })
                    .collect(),
                is_closed: false,
            },
        });
        ops.push(Op::RestoreGraphicsState);
    }

    /// A table: header row, then rows; columns from index `right_from` are
    /// right-aligned. Cells wrap; the header repeats on every new page.
    pub fn table(&mut self, widths: &[f32], header: &[String], rows: &[Vec<String>], right_from: usize) {
        let size = 8.5;
        let lead = size * 1.35;
        let total: f32 = widths.iter().sum();
        let layout = |c: &Canvas, cells: &[String], bold: bool| -> (Vec<Vec<String>>, f32) {
            let wrapped: Vec<Vec<String>> =
                cells.iter().zip(widths).map(|(cell, w)| c.wrap(cell, size, bold, w - 6.0)).collect();
            let lines = wrapped.iter().map(Vec::len).max().unwrap_or(1).max(1);
            (wrapped, lines as f32 * lead + 6.0)
        };
        let draw = |c: &mut Canvas, wrapped: &[Vec<String>], height: f32, bold: bool, shade: bool| {
            if shade {
                c.rect(MARGIN_X, c.y, total, height, Rgb8(241, 243, 245));
            }
            let mut x = MARGIN_X;
            for (i, (cell_lines, w)) in wrapped.iter().zip(widths).enumerate() {
                for (j, l) in cell_lines.iter().enumerate() {
                    let y = c.y + 1.0 + (j as f32 + 1.0) * lead;
                    if i >= right_from {
                        c.text_right(x + w - 3.0, y, size, bold, INK, l);
                    } else {
                        c.text_at(x + 3.0, y, size, bold, INK, l);
                    }
                }
                x += w;
            }
            c.y += height;
            c.line(&[(MARGIN_X, c.y), (MARGIN_X + total, c.y)], RULE, 0.5);
        };
        let (head, head_height) = layout(self, header, true);
        self.ensure(head_height + 3.0 * lead);
        draw(self, &head, head_height, true, true);
        for (i, row) in rows.iter().enumerate() {
            let (cells, height) = layout(self, row, false);
            if self.y + height > PAGE_H - BOTTOM {
                self.new_page();
                self.y = 60.0;
                draw(self, &head, head_height, true, true);
            }
            draw(self, &cells, height, false, i % 2 == 1);
        }
    }

    /// Draws onto an earlier page (contents, headers), then returns to the last.
    pub fn draw_on(&mut self, index: usize, f: impl FnOnce(&mut Canvas)) {
        let page = std::mem::take(&mut self.pages[index]);
        let (saved_y, last) = (self.y, self.pages.len());
        self.pages.push(page);
        f(self);
        let page = self.pages.pop().unwrap_or_default();
        self.pages.truncate(last);
        self.pages[index] = page;
        self.y = saved_y;
    }

    /// Adds the running header and "page n / N" to every page but the cover.
    pub fn finish(&mut self, header: &str, page_label: &dyn Fn(usize, usize) -> String) {
        let total = self.pages.len();
        for i in 1..total {
            let label = page_label(i + 1, total);
            self.draw_on(i, |c| {
                c.text_at(MARGIN_X, 40.0, 8.0, false, MUTED, header);
                c.line(&[(MARGIN_X, 46.0), (PAGE_W - MARGIN_X, 46.0)], RULE, 0.5);
                c.text_right(PAGE_W - MARGIN_X, PAGE_H - 32.0, 8.0, false, MUTED, &label);
            });
        }
    }

    /// The text drawn on each page, one string per text operation.
    pub fn texts(&self) -> Vec<Vec<String>> {
        self.pages
            .iter()
            .map(|ops| {
                ops.iter()
                    .filter_map(|op| match op {
                        Op::ShowText { items } => Some(
                            items
                                .iter()
                                .filter_map(|i| if let TextItem::Text(t) = i { Some(t.clone()) } else { None })
                                .collect(),
                        ),
                        _ => None,
                    })
                    .collect()
            })
            .collect()
    }

    /// The PDF's bytes: fonts embedded as subsets, metadata from the inputs
    /// only; refused when any drawing was asked for at a non-finite position.
    pub fn save(self, title: &str, author: &str, date: &str) -> Result<Vec<u8>, NonFiniteDrawing> {
        if self.non_finite {
            return Err(NonFiniteDrawing);
        }
        let mut doc = PdfDocument::new(title);
        // The document's dates are the proposal's date (an input), never the clock.
        if let Some(when) = unix_day(date).and_then(|secs| printpdf::OffsetDateTime::from_unix_timestamp(secs).ok()) {
            doc.metadata.info.creation_date = when;
            doc.metadata.info.modification_date = when;
            doc.metadata.info.metadata_date = when;
        }
        doc.metadata.info.author = author.to_owned();
        doc.metadata.info.creator = "Suanli".to_owned();
        doc.metadata.info.producer = "Suanli (printpdf)".to_owned();
        doc.resources.fonts.map.insert(font_id(false), PdfFont::new(self.regular.clone()));
        doc.resources.fonts.map.insert(font_id(true), PdfFont::new(self.bold.clone()));
        if let Some(logo) = self.logo.clone() {
            doc.resources.xobjects.map.insert(XObjectId("SLLOGO".to_owned()), XObject::Image(logo));
        }
        let pages = self.pages.into_iter().map(|ops| PdfPage::new(Mm(210.0), Mm(297.0), ops)).collect();
        let options = PdfSaveOptions { subset_fonts: true, ..Default::default() };
        Ok(stable_id(doc.with_pages(pages).save(&options, &mut Vec::new())))
    }
}

/// What stands for a character the font does not draw: its NFKC form when
/// `covers` accepts all of it, else its code point in brackets (`[U+20000]`).
pub fn fallback(c: char, covers: impl Fn(char) -> bool) -> String {
    use unicode_normalization::UnicodeNormalization;
    let decomposed: String = c.nfkc().collect();
    if decomposed != c.to_string() && !decomposed.trim().is_empty() && decomposed.chars().all(&covers) {
        decomposed
    } else {
        format!("[U+{:04X}]", u32::from(c))
    }
}

/// printpdf writes a random file identifier (`/ID[(…)(…)]`, two 32-letter
/// strings). Replace it, in place and at the same length so no offset
/// moves, by letters derived from the rest of the file: the same content
/// gets the same identifier, and the same inputs the same bytes.
fn stable_id(mut pdf: Vec<u8>) -> Vec<u8> {
    let Some(at) = pdf.windows(5).rposition(|w| w == b"/ID[(") else { return pdf };
    let (a, b) = (at + 5, at + 5 + 32 + 2);
    if pdf.len() < b + 33 || pdf[a + 32] != b')' || pdf[b - 1] != b'(' || pdf[b + 32] != b')' {
        return pdf;
    }
    // FNV-1a over everything but the identifier itself.
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for (i, byte) in pdf.iter().enumerate() {
        if !(a..b + 32).contains(&i) {
            hash = (hash ^ u64::from(*byte)).wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    let mut letters = [b'A'; 64];
    for (i, l) in letters.iter_mut().enumerate() {
        hash ^= hash << 13;
        hash ^= hash >> 7;
        hash ^= hash << 17;
        *l = b'A' + ((hash >> (i % 8)) % 26) as u8;
    }
    pdf[a..a + 32].copy_from_slice(&letters[..32]);
    pdf[b..b + 32].copy_from_slice(&letters[32..]);
    pdf
}

/// Seconds since 1970 at midnight UTC of a `YYYY-MM-DD` date.
fn unix_day(date: &str) -> Option<i64> {
    let mut parts = date.trim().split('-');
    let y: i64 = parts.next()?.parse().ok()?;
    let m: i64 = parts.next()?.parse().ok()?;
    let d: i64 = parts.next()?.get(..2)?.parse().ok()?;
    if !(1..=12).contains(&m) || !(1..=31).contains(&d) {
        return None;
    }
    // Days from civil (Howard Hinnant).
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    Some((era * 146_097 + doe - 719_468) * 86_400)
}

#[cfg(test)]
mod tests {
    #[test]
    fn punctuation_is_kept_and_invisible_controls_are_dropped() {
        let cv = super::Canvas::new().unwrap();
        assert_eq!(cv.printable("P10–P90 — a… ‘b’ “c” ‐"), "P10–P90 — a… ‘b’ “c” ‐");
        assert_eq!(cv.printable("a\u{202E}b\u{200B}c\u{2066}d\u{FEFF}e\tf"), "abcde f");
        assert_eq!(cv.printable("CO\u{2082} \u{20000}"), "CO2 [U+20000]");
    }

    /// Hard Chinese strings wrapped at every width from 5 to 30 characters:
    /// no line starts with closing punctuation or ends with an opening one,
    /// and no number is parted from its unit.
    #[test]
    fn chinese_lines_break_by_the_unicode_rules() {
        let cv = super::Canvas::new().unwrap();
        let text = "建议在 24 个月内完成（2026年1月）：净现值 587.20万美元，较次优方案低 12%。风险：供应“不确定”，交付周期 6 个月；另见附录。";
        let closing = "，。、：；！？）”》%";
        let opening = "（“《";
        for chars in 5..30 {
            let lines = cv.wrap(text, 10.0, false, 10.0 * chars as f32);
            assert_eq!(lines.concat().replace(' ', ""), text.replace(' ', ""), "{chars}: {lines:?}");
            for (i, line) in lines.iter().enumerate() {
                let first = line.chars().next().unwrap();
                let last = line.chars().last().unwrap();
                assert!(!closing.contains(first), "{chars}: line {i} starts with {first}: {lines:?}");
                assert!(!opening.contains(last), "{chars}: line {i} ends with {last}: {lines:?}");
                for unit in ["个月", "月）", "万美元", "年"] {
                    assert!(!line.starts_with(unit), "{chars}: line {i} parts a number from {unit}: {lines:?}");
                }
                assert!(!line.ends_with("24") && !line.ends_with("2026") && !line.ends_with('6'), "{chars}: {lines:?}");
            }
        }
        // English still breaks at spaces only.
        assert_eq!(cv.wrap("one two three", 10.0, false, cv.width("one two", 10.0, false) + 1.0), ["one two", "three"]);
    }

    #[test]
    fn dates_become_unix_days() {
        assert_eq!(super::unix_day("1970-01-01"), Some(0));
        assert_eq!(super::unix_day("2026-11-30"), Some(1_795_996_800));
        assert_eq!(super::unix_day("2000-02-29"), Some(951_782_400));
        assert_eq!(super::unix_day("not a date"), None);
    }
}

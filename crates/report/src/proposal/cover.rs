//! The cover: title band, logo, who the proposal is for and from.

use crate::pdf::{ACCENT, CONTENT_W, Canvas, INK, MARGIN_X, MUTED, PAGE_H, PAGE_W, Rgb8, TOP};

use super::ProposalInput;

/// The cover: title band, logo, who it is for and from, and the footnote.
/// Long names wrap, in a smaller size past three lines, and the band grows
/// with the title, so nothing leaves the page.
pub(super) fn cover(cv: &mut Canvas, input: &ProposalInput<'_>, name: &str) {
    let lang = input.lang;
    cv.new_page();
    let (title_size, title_lines) = fit_lines(cv, name, &[14.0, 10.0, 8.0], CONTENT_W, 8);
    let band = (175.0 + title_lines.len() as f32 * title_size * 1.4).max(250.0);
    cv.rect(0.0, 0.0, PAGE_W, band, ACCENT);
    if input.meta.logo.is_some() {
        cv.rect(PAGE_W - MARGIN_X - 136.0, 36.0, 136.0, 72.0, Rgb8(255, 255, 255));
        cv.logo(PAGE_W - MARGIN_X - 8.0, 44.0, 120.0, 56.0);
    }
    cv.text_at(
        MARGIN_X,
        120.0,
        26.0,
        true,
        Rgb8(255, 255, 255),
        lang.pick("GPU compute proposal", "算力获取方案建议书"),
    );
    let mut y = 160.0;
    for line in &title_lines {
        cv.text_at(MARGIN_X, y, title_size, false, Rgb8(255, 255, 255), line);
        y += title_size * 1.4;
    }
    let mut y = band + 60.0;
    let footnote = cv.wrap(
        lang.pick("Every figure is computed from the stated inputs; the appendix gives each input's source or marks it as an assumption.", "所有数字均由所列输入计算得出；附录列出每项输入的来源，或标明其为假设。"),
        8.5,
        false,
        CONTENT_W,
    );
    let foot_top = PAGE_H - 48.0 - footnote.len() as f32 * 12.0;
    for (label, value) in [
        (lang.pick("Prepared for", "客户").to_owned(), input.meta.client.clone()),
        (lang.pick("Prepared by", "撰写人").to_owned(), input.meta.author.clone()),
        (lang.pick("Firm", "机构").to_owned(), input.meta.firm.clone()),
        (lang.pick("Date", "日期").to_owned(), input.meta.date.clone()),
    ] {
        if value.trim().is_empty() {
            continue;
        }
        let (size, lines) = fit_lines(cv, &value, &[13.0, 9.0, 7.0], CONTENT_W - 110.0, 4);
        if y + lines.len() as f32 * size * 1.45 > foot_top {
            // Only names of many hundred characters get here.
            cv.new_page();
            y = TOP;
        }
        cv.text_at(MARGIN_X, y, 10.0, false, MUTED, &label);
        for line in &lines {
            cv.text_at(MARGIN_X + 110.0, y, size, false, INK, line);
            y += size * 1.45;
        }
        y += 8.0;
    }
    for (i, line) in footnote.iter().enumerate() {
        cv.text_at(MARGIN_X, foot_top + 12.0 * (i as f32 + 1.0), 8.5, false, MUTED, line);
    }
}

/// The text wrapped at the first size that needs at most `max_lines`
/// lines (or the last size, at any number of lines).
fn fit_lines(cv: &Canvas, text: &str, sizes: &[f32], width: f32, max_lines: usize) -> (f32, Vec<String>) {
    let mut last = (sizes[sizes.len() - 1], Vec::new());
    for &size in sizes {
        let lines = cv.wrap(text, size, false, width);
        if lines.len() <= max_lines {
            return (size, lines);
        }
        last = (size, lines);
    }
    last
}

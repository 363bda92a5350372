//! The contents page and the sections as placed: their numbers and pages.

use suanli_model::Lang;

use crate::pdf::{Canvas, INK, MARGIN_X, PAGE_W, RULE};

/// Fills the contents page with each placed section and its page.
pub(super) fn contents(cv: &mut Canvas, page: usize, sections: &Sections, lang: Lang) {
    cv.draw_on(page, |cv| {
        cv.y = 60.0;
        cv.heading(lang.pick("Contents", "目录"));
        for (title, page) in &sections.placed {
            cv.y += 22.0;
            cv.text_at(MARGIN_X, cv.y, 11.0, false, INK, title);
            cv.text_right(PAGE_W - MARGIN_X, cv.y, 11.0, false, INK, &page.to_string());
            cv.line(&[(MARGIN_X, cv.y + 5.0), (PAGE_W - MARGIN_X, cv.y + 5.0)], RULE, 0.3);
        }
    });
}

/// The report's sections as placed: each starts a page unless placed below
/// the one before (see `numbered_below`), the numbered ones
/// count up (a section left out leaves no gap), and the contents page lists
/// them all with their page.
#[derive(Default)]
pub(super) struct Sections {
    placed: Vec<(String, usize)>,
    numbered: u32,
}

impl Sections {
    pub(super) fn numbered(&mut self, cv: &mut Canvas, title: &str) {
        self.numbered += 1;
        self.unnumbered(cv, &format!("{}. {title}", self.numbered));
    }

    /// A numbered section below the one before, on a new page only when
    /// too little of this one is left.
    pub(super) fn numbered_below(&mut self, cv: &mut Canvas, title: &str) {
        self.numbered += 1;
        let title = format!("{}. {title}", self.numbered);
        cv.space(24.0);
        cv.ensure(200.0);
        cv.heading(&title);
        self.placed.push((title, cv.pages.len()));
    }

    pub(super) fn unnumbered(&mut self, cv: &mut Canvas, title: &str) {
        cv.new_page();
        cv.y = 60.0;
        cv.heading(title);
        self.placed.push((title.to_owned(), cv.pages.len()));
    }
}

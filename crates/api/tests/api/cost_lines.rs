//! The workbook's formulas come from the engine: every example scenario's
//! cost lines, written in terms of its money inputs, give the engine's own
//! figures as the scenario stands and when one input changes.

use std::path::Path;

use crate::examples;
use suanli_api::{Category, Checked, cost_lines};

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-6 * (1.0 + b.abs())
}

#[test]
fn each_money_input_moves_the_lines_as_the_engine_does() {
    let db = tempfile::tempdir().unwrap();
    let (mut written, mut edits) = (0, 0);
    for file in examples() {
        let (s, _) = suanli_api::load_resolved(&file, Some(&db.path().join("db.sqlite"))).unwrap();
        let measured = cost_lines(&s);
        let e = suanli_api::evaluate(&s);
        let base: Vec<f64> = measured.drivers.iter().map(|d| d.value).collect();
        // Every non-zero line of the evaluation is there, with the engine's figures.
        for (o, option) in e.options.iter().enumerate() {
            for cat in Category::ALL {
                let line = measured.lines.iter().find(|l| l.option == o && l.category == cat);
                if option.breakdown(cat) != 0.0 {
                    let line = line.unwrap_or_else(|| panic!("{}: {} {cat:?} missing", file.display(), option.id));
                    for (m, month) in option.monthly.iter().enumerate() {
                        assert!(close(line.at(&measured.drivers, &base, m), month.get(cat)), "{}", file.display());
                    }
                }
            }
        }
        written += measured.lines.iter().filter(|l| !l.is_fixed()).count();
        // One input at a time, raised by a fifth as a user would type it.
        for (d, driver) in measured.drivers.iter().enumerate() {
            let mut x = base.clone();
            x[d] = if driver.value == 0.0 { 3.0 } else { driver.value * 1.2 };
            let mut edited = (*s).clone();
            driver.param.set(&mut edited, &s, x[d]);
            let Ok(edited) = Checked::new(edited) else { continue };
            let after = suanli_api::evaluate(&edited);
            for line in &measured.lines {
                for (m, month) in after.options[line.option].monthly.iter().enumerate() {
                    let (sheet, engine) = (line.at(&measured.drivers, &x, m), month.get(line.category));
                    assert!(
                        close(sheet, engine),
                        "{}: {:?} = {} moves {} {:?} month {m} to {engine}, the line says {sheet}",
                        file.display(),
                        driver.param,
                        x[d],
                        after.options[line.option].id,
                        line.category
                    );
                }
            }
            edits += 1;
        }
    }
    assert!(written > 50, "{written} lines written as formulas");
    assert!(edits > 50, "{edits} edits checked");
}

/// A line no money input moves (storage at a fixed price per TB-month here)
/// is kept as the engine's figures and says so.
#[test]
fn a_line_no_input_moves_is_kept_as_figures() {
    let db = tempfile::tempdir().unwrap();
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/scenarios/storage-and-edge.toml");
    let (s, _) = suanli_api::load_resolved(&file, Some(&db.path().join("db.sqlite"))).unwrap();
    let measured = cost_lines(&s);
    let storage = measured.lines.iter().find(|l| l.category == Category::Storage).unwrap();
    assert!(storage.is_fixed());
    assert_eq!(storage.rest, storage.figures);
    assert!(storage.figures.iter().any(|f| *f > 0.0));
}

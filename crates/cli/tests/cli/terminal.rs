//! What reaches the terminal: hostile text escaped (JSON exact), and a
//! closed stdout ending quietly.

use std::process::Command;

use crate::{example, stderr, stdout, suanli, suanli_on};

/// Text a terminal would obey (ESC, BEL, NUL, CR, U+202E) is shown escaped;
/// JSON keeps it exact.
#[test]
fn hostile_text_is_escaped_on_the_terminal_and_exact_in_json() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(example("a100-8x-buy-vs-rent.toml")).unwrap();
    let name = "Evil\u{1b}]0;pwned\u{7}\u{0}\r\u{202e}eman";
    let hostile: String = text
        .lines()
        .map(
            |l| if l.starts_with("name = ") { "name = \"Evil\\u001b]0;pwned\\u0007\\u0000\\r\\u202Eeman\"" } else { l },
        )
        .collect::<Vec<_>>()
        .join("\n");
    let hostile = hostile.replacen("label = \"", "label = \"\\u001b[2J", 1);
    let file = dir.path().join("hostile.toml");
    std::fs::write(&file, hostile).unwrap();
    let file = file.to_str().unwrap();
    let raw = ['\u{1b}', '\u{7}', '\u{0}', '\r', '\u{202e}'];

    let o = suanli(&["evaluate", file]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(!out.contains(raw), "raw control characters reached the terminal: {out:?}");
    assert!(out.contains("Evil\\u{1b}]0;pwned\\u{7}\\u{0}\\u{d}\\u{202e}eman"), "{out}");
    assert!(out.contains("\\u{1b}[2J"), "{out}");

    let o = suanli(&["evaluate", file, "--format", "json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["scenario"], name, "JSON must keep the text exact");

    // An error that quotes the file's text (an unknown field) is escaped too.
    let bad = dir.path().join("bad.toml");
    std::fs::write(&bad, text.replacen("horizon_months", "\"horizon\\u001b[31m\" = 1\nhorizon_months", 1)).unwrap();
    let o = suanli(&["evaluate", bad.to_str().unwrap()]);
    assert!(!o.status.success());
    let err = stderr(&o);
    assert!(!err.contains('\u{1b}') && err.contains("\\u{1b}[31m"), "{err}");
}

#[test]
fn catalog_show_escapes_text_from_a_pack() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("catalog.sqlite");
    let pack = dir.path().join("pack.json");
    let o = suanli_on(&db, &["catalog", "pack", "export", "--out", pack.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let mut p: serde_json::Value = serde_json::from_slice(&std::fs::read(&pack).unwrap()).unwrap();
    let id = p["tables"]["accelerators"][0]["id"].as_str().unwrap().to_owned();
    p["tables"]["accelerators"][0]["name"] = "\u{202e}1001A \u{1b}[5m".into();
    std::fs::write(&pack, serde_json::to_vec(&p).unwrap()).unwrap();
    let o = suanli_on(&db, &["catalog", "pack", "apply", "--allow-unsigned", pack.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = suanli_on(&db, &["catalog", "show", &id]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(!out.contains(['\u{202e}', '\u{1b}']), "{out:?}");
    assert!(out.contains("\\u{202e}1001A \\u{1b}[5m"), "{out}");
    let o = suanli_on(&db, &["catalog", "show", &id, "--format", "json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["accelerator"]["name"], "\u{202e}1001A \u{1b}[5m");
    let o = suanli_on(&db, &["catalog", "list", "accelerators"]);
    assert!(!stdout(&o).contains('\u{202e}'));
}

#[test]
fn a_closed_stdout_ends_quietly() {
    let db = tempfile::tempdir().unwrap();
    for args in [
        vec!["catalog", "list", "offers"],
        vec!["catalog", "list", "offers", "--format", "json"],
        vec!["evaluate", &example("a100-8x-buy-vs-rent.toml")],
    ] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_suanli"))
            .args(&args)
            .env("SUANLI_DB", db.path().join("catalog.sqlite"))
            .env("HOME", "/nonexistent-suanli-test-home")
            .env("LANG", "C")
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        // `| head -0`: the reader goes away before anything is written.
        drop(child.stdout.take());
        let o = child.wait_with_output().unwrap();
        assert_eq!(o.status.code(), Some(141), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).is_empty(), "{args:?}: {}", stderr(&o));
    }
}

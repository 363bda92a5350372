//! A fresh machine: every entry point links the pinned toolchain when
//! rustup knows the same version only as `stable` (scripts/toolchain).

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Runs scripts/toolchain with fake `rustup` and `rustc` first on PATH;
/// returns what rustup was asked to do.
fn run_with(installed: &str, stable_version: &str) -> String {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("log");
    let rustup = format!(
        "#!/bin/sh\ncase \"$1 $2\" in\n  'toolchain list') printf '%s\\n' '{installed}' ;;\n  *) echo \"$@\" >> '{}' ;;\nesac\n",
        log.display()
    );
    let rustc = format!(
        "#!/bin/sh\ncase \"$2\" in\n  --version) echo 'rustc {stable_version} (fake 2026-04-14)' ;;\n  --print) echo /fake/sysroot ;;\nesac\n"
    );
    for (name, text) in [("rustup", rustup), ("rustc", rustc)] {
        let p = dir.path().join(name);
        std::fs::write(&p, text).unwrap();
        Command::new("chmod").arg("755").arg(&p).status().unwrap();
    }
    let path = format!("{}:{}", dir.path().display(), std::env::var("PATH").unwrap_or_default());
    let status = Command::new(root().join("scripts/toolchain")).env("PATH", path).status().unwrap();
    assert!(status.success());
    std::fs::read_to_string(&log).unwrap_or_default()
}

fn pinned() -> String {
    let text = std::fs::read_to_string(root().join("rust-toolchain.toml")).unwrap();
    let line = text.lines().find(|l| l.starts_with("channel = ")).unwrap();
    line.trim_start_matches("channel = ").trim_matches('"').to_owned()
}

#[test]
fn the_pinned_toolchain_is_linked_from_stable_when_rustup_lacks_its_name() {
    let pinned = pinned();
    let asked = run_with("stable-x86_64-unknown-linux-gnu (default)", &pinned);
    assert_eq!(asked.trim(), format!("toolchain link {pinned} /fake/sysroot"));
    // Already known: nothing to do. Another stable version: not linked (rustup fetches the pinned one).
    assert_eq!(run_with(&format!("{pinned}-x86_64-unknown-linux-gnu"), &pinned), "");
    assert_eq!(run_with("stable-x86_64-unknown-linux-gnu (default)", "1.1.0"), "");
}

#[test]
fn every_entry_point_calls_it() {
    for script in ["scripts/run", "scripts/test", ".ci/run"] {
        let text = std::fs::read_to_string(root().join(script)).unwrap();
        assert!(text.lines().any(|l| l.trim() == "scripts/toolchain"), "{script} does not link the pinned toolchain");
    }
}

//! The `suanli` binary as a user runs it: one test binary, a module per
//! subject, the helpers that run the binary here.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod analytics;
mod catalog;
mod evaluate;
mod limits;
mod packs;
mod recommend;
mod terminal;
mod usage;

use std::path::PathBuf;
use std::process::{Command, Output};

/// Runs the binary on a throw-away database: never the user's.
fn suanli(args: &[&str]) -> Output {
    let db = tempfile::tempdir().unwrap();
    suanli_on(&db.path().join("catalog.sqlite"), args)
}

fn suanli_on(db: &std::path::Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_suanli"))
        .args(args)
        .env("SUANLI_DB", db)
        .env_remove("SUANLI_LANG")
        .env("LANG", "C")
        .env_remove("LC_ALL")
        .env_remove("LC_MESSAGES")
        .env("HOME", "/nonexistent-suanli-test-home")
        .output()
        .unwrap()
}

fn example(name: &str) -> String {
    let p: PathBuf = [env!("CARGO_MANIFEST_DIR"), "..", "..", "data", "scenarios", name].iter().collect();
    p.to_string_lossy().into_owned()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

//! The help text in both languages and the language flag.

use crate::{stderr, stdout, suanli};

#[test]
fn help_explains_each_command_in_both_languages() {
    let o = suanli(&["--help"]);
    assert!(o.status.success());
    let out = stdout(&o);
    assert!(out.contains("evaluate") && out.contains("比较") && out.contains("Examples"), "{out}");
    let o = suanli(&["evaluate", "--help"]);
    let out = stdout(&o);
    assert!(out.contains("--format") && out.contains("Exit status") && out.contains("退出码"), "{out}");
}

#[test]
fn an_unknown_language_is_refused() {
    let o = suanli(&["--lang", "fr", "evaluate", "x.toml"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("use en or zh"));
}

//! What the CLI writes for a person to read goes through [`escape`]: text
//! from a scenario, a catalogue row or a pack may hold control characters
//! (ESC sequences retitle or clear a terminal, BEL rings, NUL and CR hide
//! what precedes them) or bidirectional overrides (U+202E shows text
//! reversed). Each is written visibly instead, as `\u{1b}`. JSON output is
//! written exactly as serialised (JSON escapes control characters itself).

use std::borrow::Cow;

/// A character a terminal would act on instead of showing: C0 and C1
/// controls (the line break excepted), DEL, and the bidirectional marks,
/// embeddings, overrides and isolates, and the Unicode line separators.
fn is_unsafe(c: char) -> bool {
    (c.is_control() && c != '\n')
        || matches!(c, '\u{061C}' | '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
        || matches!(c, '\u{2028}' | '\u{2029}')
}

/// The text with every unsafe character written as `\u{XX}`; the one
/// function every human-readable print path uses.
pub fn escape(text: &str) -> Cow<'_, str> {
    if !text.chars().any(is_unsafe) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if is_unsafe(c) {
            out.push_str(&format!("\\u{{{:x}}}", u32::from(c)));
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// JSON for programs, exactly as serialised (no escaping: JSON escapes
/// control characters itself), and never with a non-finite number.
pub fn json<T: serde::Serialize>(value: &T) -> Result<(), suanli_api::Error> {
    suanli_api::ensure_finite(value)?;
    let text = serde_json::to_string_pretty(value).map_err(|e| suanli_api::Error::Catalog(e.into()))?;
    write_out(&text);
    write_out("\n");
    Ok(())
}

/// The status of a program whose reader went away (`suanli … | head`): what
/// a shell reports for one ended by SIGPIPE (128 + 13).
pub const CLOSED_PIPE_STATUS: i32 = 141;

/// Writes to stdout, the one way the CLI does. A reader that went away ends
/// the program at once, quietly, with [`CLOSED_PIPE_STATUS`]; any other
/// failure to write (a full disk) is said on stderr and ends it with status 1.
/// Never a panic.
pub fn write_out(text: &str) {
    use std::io::Write;
    let mut stdout = std::io::stdout().lock();
    if let Err(e) =
        stdout.write_all(text.as_bytes()).and_then(|()| if text.ends_with('\n') { stdout.flush() } else { Ok(()) })
    {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(CLOSED_PIPE_STATUS);
        }
        write_err(&format!("cannot write the output / 无法写入输出：{e}\n"));
        std::process::exit(1);
    }
}

/// Writes to stderr; a stderr that cannot be written to is ignored (there is
/// nowhere left to say so), never a panic.
pub fn write_err(text: &str) {
    use std::io::Write;
    let _ = std::io::stderr().lock().write_all(text.as_bytes());
}

/// `print!` for people: the text escaped by [`escape`].
macro_rules! out {
    ($($arg:tt)*) => { $crate::terminal::write_out(&$crate::terminal::escape(&format!($($arg)*))) };
}

/// `println!` for people.
macro_rules! outln {
    () => { $crate::terminal::write_out("\n") };
    ($($arg:tt)*) => { $crate::terminal::write_out(&format!("{}\n", $crate::terminal::escape(&format!($($arg)*)))) };
}

/// `eprintln!` for people.
macro_rules! erroutln {
    () => { $crate::terminal::write_err("\n") };
    ($($arg:tt)*) => { $crate::terminal::write_err(&format!("{}\n", $crate::terminal::escape(&format!($($arg)*)))) };
}

/// A progress line on stderr: back to the line's start (the one control
/// character written on purpose), then the escaped text.
macro_rules! progress {
    ($($arg:tt)*) => { $crate::terminal::write_err(&format!("\r{}", $crate::terminal::escape(&format!($($arg)*)))) };
}

pub(crate) use {erroutln, out, outln, progress};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn controls_and_overrides_are_shown_not_obeyed() {
        assert_eq!(escape("plain 中文 €"), "plain 中文 €");
        assert_eq!(escape("a\u{1b}]0;owned\u{7}b"), "a\\u{1b}]0;owned\\u{7}b");
        assert_eq!(escape("nul\0cr\rtab\t"), "nul\\u{0}cr\\u{d}tab\\u{9}");
        assert_eq!(escape("\u{202e}gnp.exe"), "\\u{202e}gnp.exe");
        assert_eq!(escape("\u{2066}x\u{2069}\u{9b}"), "\\u{2066}x\\u{2069}\\u{9b}");
        assert_eq!(escape("two\nlines"), "two\nlines");
        // Escaping twice changes nothing more.
        assert_eq!(escape(&escape("\u{1b}")), "\\u{1b}");
    }
}

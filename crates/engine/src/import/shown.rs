//! Text taken from a file, as a report shows it: characters a terminal would act on (the C0 and
//! C1 controls, DEL, and the bidirectional overrides that reorder what a reader sees) are written
//! as Go's `strconv.Quote` writes them (`\x1b`, `\a`, `\t`, `\u202e`), and a long value is cut,
//! with its length given. Every value an import quotes goes through [`Shown::shown`]; the report
//! and the page escape every text argument again ([`escaped`]) so that nothing reaches a terminal
//! raw, whoever wrote the cause.

use crate::cause::{Arg, Cause};
use std::borrow::Cow;
use std::fmt::Write;

/// The most characters of a value a report quotes; a longer one is cut to its first
/// [`SHOWN_CHARS`] characters and its length.
pub const SHOWN_CHARS: usize = 64;

/// The most characters of any one argument a report prints (lists of names, reasons): a safety
/// net behind [`SHOWN_CHARS`], which cuts values at their source.
pub const PRINTED_CHARS: usize = 4_096;

/// Whether a character must not reach a terminal or a page as it is.
pub fn is_unsafe(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{61c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{feff}'
        )
}

/// `text` with every unsafe character written as Go's `strconv.Quote` writes it.
pub fn escape(text: &str) -> Cow<'_, str> {
    if !text.chars().any(is_unsafe) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '\u{7}' => out.push_str("\\a"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{b}' => out.push_str("\\v"),
            c if is_unsafe(c) && (c as u32) < 0x80 => {
                let _ = write!(out, "\\x{:02x}", c as u32);
            }
            c if is_unsafe(c) => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// A count as a reader writes it: 1,048,576.
pub fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// `text` as an argument: escaped, and cut to `max` characters with its length when longer.
pub fn arg(text: &str, max: usize) -> Arg {
    match text.char_indices().nth(max) {
        None => Arg::Text(escape(text).into_owned()),
        Some((end, _)) => {
            let length = text.chars().count();
            let cut = Cause::new("import.cut")
                .text("start", escape(&text[..end]))
                .text("length", thousands(length));
            Arg::Cause(Box::new(cut))
        }
    }
}

/// `text` escaped and cut to `max` characters, in English: for the command line's own messages.
pub fn line(text: &str, max: usize) -> String {
    match arg(text, max) {
        Arg::Cause(c) => c.english(),
        Arg::Text(t) => t,
        Arg::Time(_) => String::new(),
    }
}

/// One name of a list (flags, kinds) escaped and, when longer than [`SHOWN_CHARS`], cut to
/// them, an ellipsis and its length in characters: `--xxxx… (1,048,576)`.
pub fn item(text: &str) -> String {
    match text.char_indices().nth(SHOWN_CHARS) {
        None => escape(text).into_owned(),
        Some((end, _)) => format!("{}… ({})", escape(&text[..end]), thousands(text.chars().count())),
    }
}

/// What a report names: a name, a path or a value from a file (text), or a message for one that
/// reads as words in the reader's language (`node node-1: label …`) or for a reason (a parser's
/// words, `import.value.*`).
pub trait Named {
    /// As an argument: text escaped and cut to `max` characters; a message with each of its
    /// texts so.
    fn named(&self, max: usize) -> Arg;
}

impl Named for str {
    fn named(&self, max: usize) -> Arg {
        arg(self, max)
    }
}

impl Named for String {
    fn named(&self, max: usize) -> Arg {
        arg(self, max)
    }
}

impl Named for Cause {
    fn named(&self, max: usize) -> Arg {
        Arg::Cause(Box::new(bounded(self, max)))
    }
}

/// Quoting text taken from a file in a message.
pub trait Shown {
    /// Adds `text` as the argument `name`, escaped and cut to [`SHOWN_CHARS`].
    fn shown(self, name: &'static str, text: &(impl Named + ?Sized)) -> Cause;

    /// Adds `text` (a setting's name, a sentence that may quote a file) as the argument `name`,
    /// escaped and cut to `max` characters.
    fn shown_up_to(self, name: &'static str, text: &(impl Named + ?Sized), max: usize) -> Cause;
}

impl Shown for Cause {
    fn shown(self, name: &'static str, text: &(impl Named + ?Sized)) -> Cause {
        self.shown_up_to(name, text, SHOWN_CHARS)
    }

    fn shown_up_to(mut self, name: &'static str, text: &(impl Named + ?Sized), max: usize) -> Cause {
        self.args.push((name, text.named(max)));
        self
    }
}

/// The most characters of a sentence quoted in a message (a parser's error, a scenario's reason).
pub const SENTENCE_CHARS: usize = 400;

/// `c` with every text argument, its nested messages' too, escaped and cut to
/// [`PRINTED_CHARS`]: what a report prints and what the page shows.
pub fn escaped(c: &Cause) -> Cause {
    bounded(c, PRINTED_CHARS)
}

/// `c` with every text argument, its nested messages' too, escaped and cut to `max` characters:
/// a message that quotes a file (a scenario's reason naming a value) inside a report's line.
pub fn bounded(c: &Cause, max: usize) -> Cause {
    let args = c
        .args
        .iter()
        .map(|(name, a)| {
            let a = match a {
                Arg::Text(t) => arg(t, max),
                Arg::Cause(inner) => Arg::Cause(Box::new(bounded(inner, max))),
                Arg::Time(ms) => Arg::Time(*ms),
            };
            (*name, a)
        })
        .collect();
    Cause { key: c.key, args }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_are_written_as_go_quotes_them() {
        assert_eq!(escape("4s\u{1b}]0;owned\u{7}\u{1b}[2J"), "4s\\x1b]0;owned\\a\\x1b[2J");
        assert_eq!(escape("a\tb\0c\u{9b}d\u{202e}"), "a\\tb\\x00c\\u009bd\\u202e");
        assert!(matches!(escape("plain, 日本"), Cow::Borrowed(_)));
    }

    #[test]
    fn long_values_are_cut_with_their_length() {
        let long = "x".repeat(1 << 20);
        let c = Cause::new("import.malformed").shown("value", &long);
        let Some(Arg::Cause(cut)) = c.arg("value") else {
            panic!("{c:?}")
        };
        assert_eq!(cut.key, "import.cut");
        let english = cut.english();
        assert!(english.contains("1,048,576") && english.len() < 120, "{english}");
        assert_eq!(
            line("héllo", 3),
            Cause::new("import.cut")
                .text("start", "hél")
                .text("length", "5")
                .english()
        );
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
    }

    #[test]
    fn escaped_reaches_nested_messages() {
        let c = Cause::new("a")
            .text("x", "\u{1b}")
            .sub("y", Cause::new("b").text("z", "\n"));
        let e = escaped(&c);
        assert_eq!(e.arg("x"), Some(&Arg::Text("\\x1b".into())));
        let Some(Arg::Cause(inner)) = e.arg("y") else { panic!() };
        assert_eq!(inner.arg("z"), Some(&Arg::Text("\\n".into())));
    }
}

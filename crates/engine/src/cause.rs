//! Causes and warnings as translatable messages.
//!
//! The engine never assembles a sentence. It names a message by key (`cause.unknown`) and hands over
//! its values as named arguments: names, flags and numbers stay as they are, times print as Go
//! durations, and a nested message is itself translated. The templates live in one catalogue per
//! language at the repository's `i18n/`; the engine renders English from `i18n/en.json` and, for
//! the import's report and the texts the page fetches once it is live, `i18n/import-en.json` and
//! `i18n/later-en.json`, and the web app renders whichever language the
//! reader picked from the same files. What only the clients give (their causes, the load
//! balancers', their sections' checks) is in `i18n/clients-en.json`, which the page, built
//! without them, does not serve.

use crate::time::{format_go_duration, DurationError, Millis};
use serde::{Serialize, Serializer};
use std::collections::BTreeMap;
use std::fmt;
use std::sync::OnceLock;

/// The English catalogue, shared with the web app.
pub const ENGLISH_CATALOGUE: &str = include_str!("../../../i18n/en.json");

/// The English texts of the import's report, a catalogue of their own (the page fetches them when
/// it first shows an import).
pub const ENGLISH_IMPORT_CATALOGUE: &str = include_str!("../../../i18n/import-en.json");
/// The English texts the page fetches once it is live: among them the scenario's validation
/// messages (`scenario.*`), which the engine gives.
pub const ENGLISH_LATER_CATALOGUE: &str = include_str!("../../../i18n/later-en.json");
/// The English texts only the clients give (the `clients` feature).
#[cfg(feature = "clients")]
pub const ENGLISH_CLIENTS_CATALOGUE: &str = include_str!("../../../i18n/clients-en.json");

/// One value filled into a message.
#[derive(Debug, Clone, PartialEq)]
pub enum Arg {
    /// Shown as it is in every language: a name, a flag, a number.
    Text(String),
    /// A time or span, ms, shown as a Go duration (`5m0s`).
    Time(Millis),
    /// A message of its own, translated like its parent.
    Cause(Box<Cause>),
}

/// A message: a catalogue key and its named arguments.
#[derive(Debug, Clone, PartialEq)]
pub struct Cause {
    /// The catalogue key, such as `cause.unknown`.
    pub key: &'static str,
    /// Values for the template's `{name}` holes.
    pub args: Vec<(&'static str, Arg)>,
}

impl Cause {
    /// A message with no arguments yet.
    pub fn new(key: &'static str) -> Cause {
        Cause { key, args: Vec::new() }
    }

    /// The empty message, for an optional part that is absent.
    pub fn none() -> Cause {
        Cause::new("cause.part.empty")
    }

    /// Adds an argument shown as it is.
    pub fn text(self, name: &'static str, value: impl fmt::Display) -> Cause {
        self.shown(name, &value)
    }

    /// `text` for any value, behind one pointer: the worker then carries one copy of it rather
    /// than one for each type of value.
    fn shown(mut self, name: &'static str, value: &dyn fmt::Display) -> Cause {
        self.args.push((name, Arg::Text(value.to_string())));
        self
    }

    /// Adds a time or span, ms, shown as a Go duration.
    pub fn time(mut self, name: &'static str, ms: Millis) -> Cause {
        self.args.push((name, Arg::Time(ms)));
        self
    }

    /// Adds a nested message.
    pub fn sub(mut self, name: &'static str, c: Cause) -> Cause {
        self.args.push((name, Arg::Cause(Box::new(c))));
        self
    }

    /// Adds an argument as it is given.
    pub fn with(mut self, name: &'static str, a: Arg) -> Cause {
        self.args.push((name, a));
        self
    }

    /// A parser's own words (serde_json's, the YAML parser's), which no catalogue translates:
    /// `parser.at` when they name the place `at` (line and column, from 1), so that a reader's
    /// language says where the text could not be parsed, else `parser.said`. The words are
    /// kept as the parser wrote them, in the argument `words` (and `rest`, after the place).
    pub fn parser(words: &str, at: Option<(usize, usize)>) -> Cause {
        let place = at.filter(|&(line, _)| line > 0).and_then(|(line, column)| {
            let mark = format!(" at line {line} column {column}");
            words.find(&mark).map(|i| (line, column, i, i + mark.len()))
        });
        match place {
            Some((line, column, start, end)) => Cause::new("parser.at")
                .text("words", &words[..start])
                .text("line", line)
                .text("column", column)
                .text("rest", &words[end..]),
            None => Cause::new("parser.said").text("words", words),
        }
    }

    /// `cause` for a write that `client` was asked for at `asked` and sent at `sent`, held back
    /// by its rate limit (`(qps, burst)`) behind its earlier requests: client-go's `Request`
    /// waits on the clientset's `flowcontrol` token bucket before it is sent.
    pub fn client_wait(cause: Cause, client: &str, (asked, sent): (Millis, Millis), (qps, burst): (f64, u32)) -> Cause {
        Cause::new("cause.client_wait")
            .sub("cause", cause)
            .time("waited", sent - asked)
            .time("asked", asked)
            .text("client", client)
            .text("qps", qps)
            .text("burst", burst)
    }

    /// Whether this describes the state at time 0 rather than something that happened.
    pub fn is_initial(&self) -> bool {
        self.key.starts_with("cause.initial.")
    }

    /// The cause of a write itself: without the client wait (`cause.client_wait`) that wraps it
    /// when a controller's rate limit held the write back.
    pub fn written(&self) -> &Cause {
        match (self.key, self.arg("cause")) {
            ("cause.client_wait", Some(Arg::Cause(inner))) => inner,
            _ => self,
        }
    }

    /// The argument called `name`, if any.
    pub fn arg(&self, name: &str) -> Option<&Arg> {
        self.args.iter().find(|(n, _)| *n == name).map(|(_, a)| a)
    }

    /// Renders the message with templates from `lookup`. A key the catalogue lacks shows as the key
    /// followed by its arguments, so a gap is visible but never fatal.
    pub fn render(&self, lookup: &dyn Fn(&str) -> Option<&str>) -> String {
        let mut out = String::new();
        self.render_into(lookup, &mut out);
        out
    }

    fn render_into(&self, lookup: &dyn Fn(&str) -> Option<&str>, out: &mut String) {
        let Some(template) = lookup(self.key) else {
            out.push_str(self.key);
            for (name, a) in &self.args {
                out.push(' ');
                out.push_str(name);
                out.push('=');
                a.render_into(lookup, out);
            }
            return;
        };
        fill(template, out, |name, out| match self.arg(name) {
            Some(a) => {
                a.render_into(lookup, out);
                true
            }
            None => false,
        });
    }

    /// The message in brief, for a label: each part through its `seg.*` template (the key
    /// without its `cause.` prefix, so `cause.te.evicted` reads `seg.te.evicted`) where the
    /// catalogue has one, through its full template where it has not.
    pub fn render_brief(&self, lookup: &dyn Fn(&str) -> Option<&'static str>) -> String {
        self.render(&|k| {
            let brief = format!("seg.{}", k.strip_prefix("cause.").unwrap_or(k));
            lookup(&brief).or_else(|| lookup(k))
        })
    }

    /// The English text.
    pub fn english(&self) -> String {
        self.render(&|k| english(k))
    }
}

impl Arg {
    fn render_into(&self, lookup: &dyn Fn(&str) -> Option<&str>, out: &mut String) {
        match self {
            Arg::Text(s) => out.push_str(s),
            Arg::Time(ms) => out.push_str(&format_go_duration(*ms)),
            Arg::Cause(c) => c.render_into(lookup, out),
        }
    }
}

/// Fills `{name}` holes of `template` through `hole`, which writes the value and says whether it
/// knew the name; unknown holes stay as written. `{{` and `}}` are literal braces.
pub fn fill(template: &str, out: &mut String, mut hole: impl FnMut(&str, &mut String) -> bool) {
    let mut rest = template;
    while let Some(i) = rest.find(['{', '}']) {
        out.push_str(&rest[..i]);
        let tail = &rest[i..];
        if tail.starts_with("{{") || tail.starts_with("}}") {
            out.push_str(&tail[..1]);
            rest = &tail[2..];
            continue;
        }
        if let (true, Some(end)) = (tail.starts_with('{'), tail.find('}')) {
            let name = &tail[1..end];
            if !hole(name, out) {
                out.push_str(&tail[..=end]);
            }
            rest = &tail[end + 1..];
        } else {
            out.push_str(&tail[..1]);
            rest = &tail[1..];
        }
    }
    out.push_str(rest);
}

impl fmt::Display for Cause {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.english())
    }
}

impl DurationError {
    /// The reason alone: `missing unit; use h, m, s or ms (as in "40s")`.
    pub fn reason(&self) -> Cause {
        match &self.unit {
            Some(unit) => Cause::new(self.why).text("unit", unit),
            None => Cause::new(self.why),
        }
    }

    /// The whole message: `invalid duration "16": missing unit; ...`.
    pub fn cause(&self) -> Cause {
        Cause::new("duration.invalid")
            .text("text", &self.text)
            .sub("why", self.reason())
    }
}

impl fmt::Display for DurationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.cause().english())
    }
}

/// Causes serialize as their English text: the pinned JSON form of a timeline.
impl Serialize for Cause {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.english())
    }
}

/// Parses a catalogue: one JSON object of key to template.
pub fn parse_catalogue(text: &str) -> Result<BTreeMap<String, String>, String> {
    serde_json::from_str(text).map_err(|e| e.to_string())
}

/// The English template for `key`.
pub fn english(key: &str) -> Option<&'static str> {
    static CATALOGUE: OnceLock<BTreeMap<String, String>> = OnceLock::new();
    CATALOGUE
        .get_or_init(|| {
            let mut all = parse_catalogue(ENGLISH_CATALOGUE).unwrap_or_default();
            all.extend(parse_catalogue(ENGLISH_IMPORT_CATALOGUE).unwrap_or_default());
            all.extend(parse_catalogue(ENGLISH_LATER_CATALOGUE).unwrap_or_default());
            #[cfg(feature = "clients")]
            all.extend(parse_catalogue(ENGLISH_CLIENTS_CATALOGUE).unwrap_or_default());
            all
        })
        .get(key)
        .map(String::as_str)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lookup(k: &str) -> Option<&str> {
        match k {
            "a" => Some("{who} waited {for}; {why}"),
            "b" => Some("because {x}"),
            "braces" => Some("{{literal}} {x}"),
            _ => None,
        }
    }

    #[test]
    fn fills_text_times_and_nested_messages() {
        let c = Cause::new("a")
            .text("who", "node-1")
            .time("for", 300_000)
            .sub("why", Cause::new("b").text("x", 5));
        assert_eq!(c.render(&lookup), "node-1 waited 5m0s; because 5");
    }

    #[test]
    fn unknown_keys_and_holes_stay_visible() {
        assert_eq!(Cause::new("zzz").text("n", 1).render(&lookup), "zzz n=1");
        assert_eq!(Cause::new("b").render(&lookup), "because {x}");
        assert_eq!(Cause::new("braces").text("x", 2).render(&lookup), "{literal} 2");
        let mut out = String::new();
        fill("open { and } close", &mut out, |_, _| false);
        assert_eq!(out, "open { and } close");
    }

    #[test]
    fn a_parser_keeps_its_words_and_names_the_place() {
        let json = serde_json::from_str::<u32>("[1,").unwrap_err();
        let c = Cause::parser(&json.to_string(), Some((json.line(), json.column())));
        assert_eq!(c.key, "parser.at");
        assert_eq!(c.english(), json.to_string());
        let yaml = "did not find expected key at line 3 column 5, while parsing a block mapping at line 2 column 3";
        let c = Cause::parser(yaml, Some((3, 5)));
        assert_eq!((c.key, c.english()), ("parser.at", yaml.to_string()));
        assert_eq!(
            c.arg("rest"),
            Some(&Arg::Text(", while parsing a block mapping at line 2 column 3".into()))
        );
        let c = Cause::parser("invalid type: string", None);
        assert_eq!(
            (c.key, c.english()),
            ("parser.said", "invalid type: string".to_string())
        );
    }

    #[test]
    fn the_english_catalogue_parses() {
        assert!(parse_catalogue(ENGLISH_CATALOGUE).unwrap().len() > 50);
    }
}

//! A file's text as kubelife reads it: an environment file (`KUBELET_KUBEADM_ARGS="..."`), a
//! command line or flag list, or YAML and JSON documents ([`super::parse`]). The format is told
//! from the content, never from the file name.

use super::collect::Collector;
use super::field::Component;
use super::parse;
use super::report::EntryKind;
use crate::cause::Cause;
use serde_json::Value;

/// What a file holds.
#[derive(Debug, Clone, PartialEq)]
pub enum Parsed {
    /// Shell variable assignments, each with the words of its value.
    Env(Vec<(String, Vec<String>)>),
    /// A command line or a flag list: the binary it names, if any, and the words after it.
    CommandLine(Option<Component>, Vec<String>),
    /// YAML or JSON documents, in order.
    Documents(Vec<Value>),
}

/// Reads a file; what cannot be read goes to the report.
pub fn read(c: &mut Collector, file: &str, text: &str) -> Parsed {
    let text = text.trim_start_matches('\u{feff}');
    if let Some(words) = looks_like_words(text).then(|| shell_words(text)).flatten() {
        if let Some(vars) = env_assignments(&words) {
            return Parsed::Env(vars);
        }
        if let Some((component, rest)) = command_line(&words) {
            return Parsed::CommandLine(component, rest);
        }
    }
    let before = c.report.entries.len();
    let docs = parse::documents(c, file, text);
    if docs.iter().all(Value::is_null) && c.report.entries.len() == before {
        c.push(EntryKind::Unreadable, Cause::new("import.empty").text("file", file));
    }
    Parsed::Documents(docs)
}

/// Whether a text may be an environment file or a command line: its first word (after shell
/// comments) is a flag, `export`, an assignment or a component's binary. Only then is it split
/// into shell words, which would cost as much as parsing a large YAML or JSON file.
fn looks_like_words(text: &str) -> bool {
    let first = text
        .lines()
        .map(str::trim_start)
        .find(|l| !l.is_empty() && !l.starts_with('#'))
        .and_then(|l| l.split_whitespace().next())
        .unwrap_or("")
        .trim_start_matches(['"', '\'']);
    let assignment = first.split_once('=').is_some_and(|(name, _)| {
        name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
            && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    });
    is_flag(first)
        || first == "export"
        || assignment
        || first.rsplit('/').next() == Some("hyperkube")
        || Component::by_binary(first).is_some()
}

/// Splits text into words as a POSIX shell does: quotes, backslash escapes, line continuations,
/// and `#` comments at the start of a word. `None` when a quote is left open.
pub fn shell_words(text: &str) -> Option<Vec<String>> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = text.chars().peekable();
    while let Some(ch) = chars.next() {
        match ch {
            '\\' => match chars.next() {
                Some('\n') | None => {}
                Some(c) => {
                    word.push(c);
                    in_word = true;
                }
            },
            '\'' => {
                in_word = true;
                loop {
                    match chars.next()? {
                        '\'' => break,
                        c => word.push(c),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next()? {
                        '"' => break,
                        '\\' if chars.peek().is_some_and(|c| matches!(c, '"' | '\\' | '$' | '`')) => {
                            word.extend(chars.next());
                        }
                        '\\' if chars.peek() == Some(&'\n') => {
                            chars.next();
                        }
                        c => word.push(c),
                    }
                }
            }
            '#' if !in_word => {
                for c in chars.by_ref() {
                    if c == '\n' {
                        break;
                    }
                }
            }
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            c => {
                word.push(c);
                in_word = true;
            }
        }
    }
    if in_word {
        words.push(word);
    }
    Some(words)
}

/// `NAME=value` words (an optional `export` before each), as in kubeadm-flags.env or
/// /etc/default/kubelet, each value split into words again.
fn env_assignments(words: &[String]) -> Option<Vec<(String, Vec<String>)>> {
    let mut vars = Vec::new();
    for w in words.iter().filter(|w| *w != "export") {
        let (name, value) = w.split_once('=')?;
        let ident = name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
            && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
        if !ident {
            return None;
        }
        vars.push((name.to_string(), shell_words(value)?));
    }
    (!vars.is_empty()).then_some(vars)
}

/// Whether a word is a long flag (`--name`), as pflag reads them.
pub fn is_flag(word: &str) -> bool {
    word.strip_prefix("--")
        .is_some_and(|rest| rest.starts_with(|c: char| c.is_ascii_alphanumeric()))
}

/// A command line: an optional binary (or `hyperkube` and its subcommand), then flags.
fn command_line(words: &[String]) -> Option<(Option<Component>, Vec<String>)> {
    let (component, skip) = match words.first().map(String::as_str) {
        Some(w) if w.rsplit('/').next() == Some("hyperkube") => (Some(Component::by_binary(words.get(1)?)?), 2),
        Some(w) => match Component::by_binary(w) {
            Some(c) => (Some(c), 1),
            None => (None, 0),
        },
        None => return None,
    };
    let rest = &words[skip..];
    rest.first().filter(|w| is_flag(w))?;
    Some((component, rest.to_vec()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_text(text: &str) -> (Parsed, Collector) {
        let mut c = Collector::default();
        let p = read(&mut c, "f", text);
        (p, c)
    }

    #[test]
    fn splits_words_like_a_shell() {
        assert_eq!(
            shell_words("a 'b c' \"d \\\"e\\\"\" f\\\n g # comment\nh#i").unwrap(),
            ["a", "b c", "d \"e\"", "f", "g", "h#i"]
        );
        assert_eq!(shell_words("'open"), None);
    }

    #[test]
    fn tells_env_files_command_lines_and_documents_apart() {
        let (p, _) = read_text("KUBELET_KUBEADM_ARGS=\"--cgroup-driver=systemd --max-pods=50\"  \n");
        assert_eq!(
            p,
            Parsed::Env(vec![(
                "KUBELET_KUBEADM_ARGS".into(),
                vec!["--cgroup-driver=systemd".into(), "--max-pods=50".into()]
            )])
        );
        let (p, _) = read_text("/usr/bin/kubelet \\\n  --node-status-update-frequency=4s");
        assert_eq!(
            p,
            Parsed::CommandLine(
                Some(Component::Kubelet),
                vec!["--node-status-update-frequency=4s".into()]
            )
        );
        let (p, _) = read_text("---\nkind: Node\n");
        assert!(matches!(p, Parsed::Documents(d) if d.len() == 1));
        let (p, _) = read_text("{\"kind\": \"A\"} {\"kind\": \"B\"}");
        assert!(matches!(p, Parsed::Documents(d) if d.len() == 2));
    }

    #[test]
    fn a_broken_yaml_file_keeps_what_comes_before_the_error() {
        let text = "a: 1\n---\nb:\n  - name: x\n    value: \"2\n";
        let (p, c) = read_text(text);
        let Parsed::Documents(docs) = p else { panic!() };
        assert_eq!(docs[0]["a"], 1);
        assert_eq!(docs[1]["b"][0]["name"], "x", "the lines before the error are read");
        assert!(c.report.entries[0].cause.english().contains("line"), "{:?}", c.report);
        let (_, c) = read_text("\u{1}\u{2}: [");
        assert_eq!(c.report.entries.len(), 1);
        let (_, c) = read_text("   \n");
        assert_eq!(c.report.entries[0].cause.key, "import.empty");
    }
}

//! A file's text as kubelife reads it: an environment file (`KUBELET_KUBEADM_ARGS="..."`), a
//! command line or flag list, or YAML and JSON documents. The format is told from the content,
//! never from the file name. A YAML error keeps the documents before it, and the lines of the
//! broken document before the error.

use super::collect::Collector;
use super::field::Component;
use super::report::EntryKind;
use crate::cause::Cause;
use serde::Deserialize;
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
    // JSON is never a command line or an environment file; splitting a large `kubectl` output
    // into shell words first would cost as much as parsing it.
    let json = text.trim_start().starts_with(['{', '[']);
    if let Some(words) = (!json).then(|| shell_words(text)).flatten() {
        if let Some(vars) = env_assignments(&words) {
            return Parsed::Env(vars);
        }
        if let Some((component, rest)) = command_line(&words) {
            return Parsed::CommandLine(component, rest);
        }
    }
    let before = c.report.entries.len();
    let docs = if json {
        json_documents(c, file, text)
    } else {
        yaml_documents(c, file, text)
    };
    if docs.iter().all(Value::is_null) && c.report.entries.len() == before {
        c.push(EntryKind::Unreadable, Cause::new("import.empty").text("file", file));
    }
    Parsed::Documents(docs)
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

/// JSON values, one after another (`kubectl get -o json` output, possibly several); a broken
/// stream keeps the values before the break.
fn json_documents(c: &mut Collector, file: &str, text: &str) -> Vec<Value> {
    let mut docs = Vec::new();
    for item in serde_json::Deserializer::from_str(text).into_iter::<Value>() {
        match item {
            Ok(v) => docs.push(v),
            Err(e) => {
                let key = if docs.is_empty() {
                    "import.unreadable"
                } else {
                    "import.salvaged.json"
                };
                let cause = Cause::new(key)
                    .text("file", file)
                    .text("error", e)
                    .text("count", docs.len());
                c.push(EntryKind::Unreadable, cause);
                break;
            }
        }
    }
    docs
}

/// YAML documents up to the first error, and where that error is (line, message).
fn parse_yaml(text: &str) -> (Vec<Value>, Option<(Option<usize>, String)>) {
    let mut docs = Vec::new();
    for doc in serde_yaml_ng::Deserializer::from_str(text) {
        match serde_yaml_ng::Value::deserialize(doc) {
            Ok(mut v) => {
                if v.apply_merge().is_err() {
                    return (docs, Some((None, "invalid YAML merge key (<<)".to_string())));
                }
                docs.push(yaml_to_json(v));
            }
            Err(e) => return (docs, Some((e.location().map(|l| l.line()), e.to_string()))),
        }
    }
    (docs, None)
}

/// The most attempts at reading a broken YAML file up to an earlier line.
const SALVAGE_ATTEMPTS: usize = 8;

/// YAML documents; on an error, the lines before it are read again so that a truncated file
/// keeps what it has.
fn yaml_documents(c: &mut Collector, file: &str, text: &str) -> Vec<Value> {
    let (docs, err) = parse_yaml(text);
    let Some((line, error)) = err else {
        return docs;
    };
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let mut keep = line.map_or(lines.len(), |l| l.saturating_sub(1)).min(lines.len());
    for _ in 0..SALVAGE_ATTEMPTS {
        if keep == 0 {
            break;
        }
        let (salvaged, again) = parse_yaml(&lines[..keep].concat());
        match again {
            None if salvaged.len() >= docs.len() => {
                let cause = Cause::new("import.salvaged")
                    .text("file", file)
                    .text("error", &error)
                    .text("lines", keep);
                c.push(EntryKind::Unreadable, cause);
                return salvaged;
            }
            None => break,
            Some((l, _)) => keep = l.map_or(keep - 1, |l| l.saturating_sub(1)).min(keep - 1),
        }
    }
    let cause = Cause::new(if docs.is_empty() {
        "import.unreadable"
    } else {
        "import.salvaged.documents"
    })
    .text("file", file)
    .text("error", error)
    .text("count", docs.len());
    c.push(EntryKind::Unreadable, cause);
    docs
}

/// Reads one YAML text held inside another document (a ConfigMap's data); `None` with the reason
/// when it is not a single readable document.
pub fn embedded_yaml(text: &str) -> Result<Value, String> {
    match parse_yaml(text) {
        (mut docs, None) if docs.len() == 1 => Ok(docs.remove(0)),
        (_, Some((_, e))) => Err(e),
        (docs, None) => Err(format!("{} YAML documents where one was expected", docs.len())),
    }
}

/// A YAML tree as a JSON tree: keys become text, tags are dropped.
fn yaml_to_json(v: serde_yaml_ng::Value) -> Value {
    use serde_yaml_ng::Value as Y;
    match v {
        Y::Null => Value::Null,
        Y::Bool(b) => Value::Bool(b),
        Y::Number(n) => {
            if let Some(i) = n.as_i64() {
                Value::from(i)
            } else if let Some(u) = n.as_u64() {
                Value::from(u)
            } else {
                n.as_f64()
                    .and_then(serde_json::Number::from_f64)
                    .map_or_else(|| Value::String(n.to_string()), Value::Number)
            }
        }
        Y::String(s) => Value::String(s),
        Y::Sequence(items) => Value::Array(items.into_iter().map(yaml_to_json).collect()),
        Y::Mapping(m) => {
            // Inserted one by one, as `order::map` does: collecting compiles a sort of its own.
            let mut object = serde_json::Map::new();
            for (k, v) in m {
                object.insert(key_text(k), yaml_to_json(v));
            }
            Value::Object(object)
        }
        Y::Tagged(t) => yaml_to_json(t.value),
    }
}

fn key_text(k: serde_yaml_ng::Value) -> String {
    match yaml_to_json(k) {
        Value::String(s) => s,
        other => other.to_string(),
    }
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

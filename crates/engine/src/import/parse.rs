//! YAML and JSON documents, read under the import's limits ([`super::limits`]).
//!
//! Text that starts with `{` or `[` is read as JSON first (a stream of values, as `kubectl get
//! -o json` prints them), being ten times cheaper than YAML; when it is not JSON it is read as
//! YAML, of which JSON is nearly a subset, so that a flow mapping (`{kind: KubeletConfiguration}`)
//! is read too. Everything else is YAML, scanned first ([`super::scan`]) for nesting and size.
//! The values are built by [`super::tree`], which counts them against the file's budget.
//!
//! A broken file keeps what comes before the break: the JSON values, the YAML documents, and, for
//! a small YAML file, the lines of the broken document before the error.

use super::collect::Collector;
use super::limits;
use super::report::EntryKind;
use super::scan::{self, Limit, Scan};
use super::shown::{escape, Shown};
use super::tree::{Budget, Build, Crossed, COMPLEX_KEY};
use crate::cause::{Arg, Cause};
use serde::de::DeserializeSeed;
use serde_json::Value;

/// The most attempts at reading a broken YAML file up to an earlier line.
const SALVAGE_ATTEMPTS: usize = 8;

/// The largest YAML file whose broken document is read again up to its error, line by line
/// (each attempt parses the text again): 1 MiB, far above any configuration file.
const SALVAGE_MAX_BYTES: usize = 1 << 20;

/// Why a text stopped being read.
#[derive(Debug, Clone, PartialEq)]
enum Failure {
    /// Not valid YAML or JSON: where (line and column, from 1), if known, and the parser's words.
    Syntax(Option<(usize, usize)>, String),
    /// JSON that ends too early (cut off): the parser's words and where.
    Truncated(String, Option<(usize, usize)>),
    /// A limit: the report line.
    Limit(Cause),
}

/// What reading a text gave.
struct Read {
    docs: Vec<Value>,
    failure: Option<Failure>,
    budget: Budget,
}

/// The documents of a file; what cannot be read goes to the report.
pub fn documents(c: &mut Collector, file: &str, text: &str) -> Vec<Value> {
    let json_like = text.trim_start().starts_with(['{', '[']);
    if json_like {
        let json = read_json(text);
        let yaml_too = matches!(json.failure, Some(Failure::Syntax(_, _))) && json.docs.is_empty();
        if !yaml_too {
            return kept(c, file, json, "import.salvaged.json");
        }
        let yaml = read_yaml(text);
        // A text that is neither: the error of the reader that got further.
        let further = |r: &Read| match &r.failure {
            Some(Failure::Syntax(at, _)) => at.unwrap_or((0, 0)),
            _ => (usize::MAX, 0),
        };
        if yaml.failure.is_some() && further(&json) >= further(&yaml) {
            return kept(c, file, json, "import.salvaged.json");
        }
        return yaml_kept(c, file, text, yaml);
    }
    let yaml = read_yaml(text);
    yaml_kept(c, file, text, yaml)
}

/// Why a YAML text held inside another document was not read.
pub enum Unread {
    /// Its own report line is already written (a value of the wrong type).
    Reported,
    /// The reason, for an `import.malformed` line naming the setting.
    Said(Cause),
    /// A limit crossed: its report line, naming the file.
    Limit(Cause),
}

/// Reads one YAML text held inside another document (a ConfigMap's data); `Err` with the reason
/// when it is not a single readable document.
pub fn embedded_yaml(c: &mut Collector, file: &str, text: &str) -> Result<Value, Unread> {
    let read = read_yaml(text);
    report_budget(c, file, &read.budget);
    match (read.failure, read.docs.len()) {
        (None, 1) => Ok(read.docs.into_iter().next().unwrap_or_default()),
        (Some(Failure::Syntax(at, e) | Failure::Truncated(e, at)), _) => Err(Unread::Said(said(&e, at))),
        (Some(Failure::Limit(cause)), _) => Err(Unread::Limit(cause)),
        (None, n) => Err(Unread::Said(Cause::new("import.value.documents").text("count", n))),
    }
}

/// JSON values one after another, each built under the file's budget.
fn read_json(text: &str) -> Read {
    let mut budget = Budget::new(text.len(), false);
    let mut docs = Vec::new();
    let mut de = serde_json::Deserializer::from_str(text);
    let failure = loop {
        if de.end().is_ok() {
            break None;
        }
        match Build::top(&mut budget).deserialize(&mut de) {
            Ok(v) => docs.push(v),
            Err(e) if e.is_eof() && budget.crossed.is_none() => {
                break Some(Failure::Truncated(e.to_string(), Some((e.line(), e.column()))))
            }
            Err(e) => break Some(failure(&budget, Some((e.line(), e.column())), &e.to_string())),
        }
    };
    Read { docs, failure, budget }
}

/// A parser's error as a failure: a limit the budget crossed, the parsers' own depth and alias
/// limits as ours, anything else as the parser says it.
fn failure(budget: &Budget, place: Option<(usize, usize)>, error: &str) -> Failure {
    let at = place.map_or(0, |(line, _)| line);
    match budget.crossed {
        Some(Crossed::Depth) => Failure::Limit(limits::too_deep(at)),
        Some(Crossed::Nodes) => Failure::Limit(limits::too_many_nodes()),
        Some(Crossed::Aliases) => Failure::Limit(limits::aliases()),
        None if error.starts_with("recursion limit exceeded") => Failure::Limit(limits::too_deep(at)),
        None if error.starts_with("repetition limit exceeded") => Failure::Limit(limits::aliases()),
        None => Failure::Syntax(place, error.to_string()),
    }
}

/// YAML documents up to the first error or limit: scanned first, and of a text the scan
/// refuses, the documents before the one that crosses the limit.
fn read_yaml(text: &str) -> Read {
    let scanned = scan::scan(text);
    let readable = scanned.refused.map_or(text, |r| &text[..r.document_start]);
    let mut read = parse_yaml(readable);
    if read.failure.is_none() {
        read.failure = scanned.refused.map(|r| {
            Failure::Limit(match r.limit {
                Limit::Depth => limits::too_deep(r.line),
                Limit::Nodes => limits::too_many_yaml_nodes(r.line),
            })
        });
    }
    read.budget.tags = scanned_tags(&scanned);
    read
}

/// The tags a scan found, as the budget carries them to the report.
fn scanned_tags(s: &Scan) -> (Vec<(usize, String)>, usize) {
    (s.tags.clone(), s.tag_count)
}

/// Parses YAML documents up to the first error.
fn parse_yaml(text: &str) -> Read {
    let mut budget = Budget::new(text.len(), true);
    let mut docs = Vec::new();
    let mut failure_seen = None;
    for doc in serde_yaml_ng::Deserializer::from_str(text) {
        match Build::top(&mut budget).deserialize(doc) {
            Ok(v) => docs.push(v),
            Err(e) => {
                let place = e.location().map(|l| (l.line(), l.column()));
                failure_seen = Some(failure(&budget, place, &e.to_string()));
                break;
            }
        }
    }
    Read {
        docs,
        failure: failure_seen,
        budget,
    }
}

/// Reports what reading found (duplicate keys, tags, merge keys) and how it stopped, and gives
/// the documents kept; `salvaged` names the message for values kept before a syntax error.
fn kept(c: &mut Collector, file: &str, read: Read, salvaged: &'static str) -> Vec<Value> {
    report_budget(c, file, &read.budget);
    // An empty text before a refused document parses as one empty document: none is kept.
    let count = read.docs.iter().filter(|d| !d.is_null()).count();
    match read.failure {
        None => {}
        Some(Failure::Limit(cause)) => {
            let kept = match count {
                0 => Cause::none(),
                n => Cause::new("import.kept").text("count", n),
            };
            c.push(EntryKind::Unreadable, cause.shown("file", file).sub("kept", kept));
        }
        Some(Failure::Syntax(at, error) | Failure::Truncated(error, at)) => {
            let key = if count == 0 { "import.unreadable" } else { salvaged };
            let cause = Cause::new(key)
                .shown("file", file)
                .sub("error", said(&error, at))
                .text("count", count);
            c.push(EntryKind::Unreadable, cause);
        }
    }
    read.docs
}

/// YAML documents kept: on a syntax error in a small file, the lines of the broken document
/// before the error are read again, so that a truncated file keeps what it has.
fn yaml_kept(c: &mut Collector, file: &str, text: &str, read: Read) -> Vec<Value> {
    let Some(Failure::Syntax(place, error)) = read.failure.clone() else {
        return kept(c, file, read, "import.salvaged.documents");
    };
    if text.len() > SALVAGE_MAX_BYTES {
        return kept(c, file, read, "import.salvaged.documents");
    }
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let mut keep = place.map_or(lines.len(), |(l, _)| l.saturating_sub(1)).min(lines.len());
    for _ in 0..SALVAGE_ATTEMPTS {
        if keep == 0 {
            break;
        }
        let again = parse_yaml(&lines[..keep].concat());
        match again.failure {
            None if again.docs.len() >= read.docs.len() => {
                report_budget(c, file, &again.budget);
                let cause = Cause::new("import.salvaged")
                    .shown("file", file)
                    .sub("error", said(&error, place))
                    .text("line", keep + 1);
                c.push(EntryKind::Unreadable, cause);
                return again.docs;
            }
            None => break,
            Some(Failure::Syntax(at, _)) => keep = at.map_or(keep - 1, |(l, _)| l.saturating_sub(1)).min(keep - 1),
            Some(Failure::Limit(_) | Failure::Truncated(..)) => break,
        }
    }
    kept(c, file, read, "import.salvaged.documents")
}

/// A parser's words as a message (`parser.at`, `parser.said`), escaped: a parser quotes the file.
/// A complex key is the builder's own refusal ([`COMPLEX_KEY`]), said in the reader's language.
fn said(words: &str, at: Option<(usize, usize)>) -> Cause {
    let said = Cause::parser(&escape(words), at);
    let complex = said.key == "parser.at" && said.arg("words") == Some(&Arg::Text(COMPLEX_KEY.to_string()));
    match complex {
        true => Cause {
            key: "import.complex_key",
            args: said.args.into_iter().filter(|(name, _)| *name != "words").collect(),
        },
        false => said,
    }
}

/// Report lines for what the builder and the scan found: keys given twice, YAML tags
/// Kubernetes ignores, merge keys that merge nothing.
fn report_budget(c: &mut Collector, file: &str, b: &Budget) {
    for d in &b.duplicates {
        let place = match d.path.is_empty() {
            true => Cause::new("import.path.top"),
            false => Cause::new("import.path.at").shown("path", &path_text(&d.path)),
        };
        let cause = Cause::new("import.duplicate_key")
            .shown("file", file)
            .shown("key", &d.key)
            .sub("where", place);
        c.push(EntryKind::Ignored, cause);
    }
    let more = |c: &mut Collector, key: &'static str, count: usize| {
        let cause = Cause::new(key).shown("file", file).text("count", count);
        c.push(EntryKind::Ignored, cause);
    };
    if b.duplicate_count > b.duplicates.len() {
        more(c, "import.duplicate_key.more", b.duplicate_count - b.duplicates.len());
    }
    for (line, tag) in &b.tags.0 {
        let cause = Cause::new("import.yaml_tag")
            .shown("file", file)
            .text("line", line)
            .shown("tag", tag);
        c.push(EntryKind::Ignored, cause);
    }
    if b.tags.1 > b.tags.0.len() {
        more(c, "import.yaml_tag.more", b.tags.1 - b.tags.0.len());
    }
    if b.bad_merges > 0 {
        more(c, "import.yaml_merge", b.bad_merges);
    }
}

/// A place in a document as a path: `items[3].metadata.labels`.
fn path_text(path: &[String]) -> String {
    let mut out = String::new();
    for segment in path {
        if !out.is_empty() && !segment.starts_with('[') {
            out.push('.');
        }
        out.push_str(segment);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> (Vec<Value>, String) {
        let mut c = Collector::default();
        let docs = documents(&mut c, "f.yaml", text);
        (docs, c.report.text())
    }

    #[test]
    fn a_flow_mapping_is_yaml_and_json_stays_json() {
        let (docs, report) = read(
            "{apiVersion: kubelet.config.k8s.io/v1beta1, kind: KubeletConfiguration, nodeStatusUpdateFrequency: 4s}",
        );
        assert_eq!(docs[0]["nodeStatusUpdateFrequency"], "4s", "{report}");
        assert_eq!(report, "");
        let (docs, _) = read("{\"kind\": \"A\"} {\"kind\": \"B\"}");
        assert_eq!(docs.len(), 2);
        let (docs, report) = read("{\"kind\": \"A\", \"items\": [1, 2");
        assert!(docs.is_empty() && report.contains("EOF while parsing"), "{report}");
    }

    #[test]
    fn limits_name_the_file_and_keep_what_comes_before() {
        let (docs, report) = read(&format!("kind: Node\n---\na: {}", "[".repeat(200_000)));
        assert_eq!(docs.len(), 1);
        assert!(
            report.contains("f.yaml line 3: nested deeper than 64 levels"),
            "{report}"
        );
        assert!(
            report.contains("not read; the documents before it are kept (1)"),
            "{report}"
        );
        let (_, report) = read(&format!("{}1{}", "[".repeat(100), "]".repeat(100)));
        assert!(report.contains("f.yaml line 1: nested deeper than 64"), "{report}");
    }

    #[test]
    fn duplicates_and_tags_are_reported() {
        let (_, report) = read("metadata:\n  labels:\n    a: 1\n    a: 2\nx: !Ref 3\n");
        assert!(
            report.contains("f.yaml: key a appears more than once in metadata.labels"),
            "{report}"
        );
        assert!(report.contains("f.yaml line 5: YAML tag !Ref ignored"), "{report}");
        assert_eq!(
            path_text(&["items".into(), "[3]".into(), "metadata".into()]),
            "items[3].metadata"
        );
    }
}

//! The import report: one message per thing recognised, overridden, ignored, invalid or
//! unreadable, each a [`Cause`] so that the page shows it in the reader's language.

use super::shown::{escaped, thousands};
use crate::cause::{Arg, Cause};
use std::collections::BTreeMap;

/// What an entry of the report is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum EntryKind {
    /// A setting, node, workload or version taken into the scenario.
    Recognised,
    /// A setting that a later file (or a flag over a file) replaced.
    Overridden,
    /// Something read but not used, and why.
    Ignored,
    /// A value the scenario format refuses for the chosen version, dropped.
    Invalid,
    /// A warning the scenario gets on the chosen version.
    Warning,
    /// A file or document that could not be read.
    Unreadable,
    /// Anything else worth knowing: defaults filled in, names changed, versions chosen.
    Note,
}

impl EntryKind {
    /// Every kind, in a fixed order (a kind's position is its tag in `wire::encode_messages`).
    pub const ALL: [EntryKind; 7] = [
        EntryKind::Recognised,
        EntryKind::Overridden,
        EntryKind::Ignored,
        EntryKind::Invalid,
        EntryKind::Warning,
        EntryKind::Unreadable,
        EntryKind::Note,
    ];

    /// The catalogue key of the kind's label.
    pub fn key(self) -> &'static str {
        match self {
            EntryKind::Recognised => "import.kind.recognised",
            EntryKind::Overridden => "import.kind.overridden",
            EntryKind::Ignored => "import.kind.ignored",
            EntryKind::Invalid => "import.kind.invalid",
            EntryKind::Warning => "import.kind.warning",
            EntryKind::Unreadable => "import.kind.unreadable",
            EntryKind::Note => "import.kind.note",
        }
    }
}

/// One line of the report.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    /// What it is about.
    pub kind: EntryKind,
    /// The message.
    pub cause: Cause,
}

/// Every entry, in the order the files were read.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Report {
    /// The entries.
    pub entries: Vec<Entry>,
}

impl Report {
    /// Adds an entry.
    pub fn push(&mut self, kind: EntryKind, cause: Cause) {
        self.entries.push(Entry { kind, cause });
    }

    /// The entries of one kind.
    pub fn of(&self, kind: EntryKind) -> impl Iterator<Item = &Cause> {
        self.entries.iter().filter(move |e| e.kind == kind).map(|e| &e.cause)
    }

    /// The report as lines `kind: message`, rendered through `lookup` (a language's catalogue).
    /// Every text taken from a file is escaped (`shown::escaped`): no control character of a
    /// file reaches a terminal, and each line is one line.
    pub fn text_in(&self, lookup: &dyn Fn(&str) -> Option<&str>) -> String {
        self.entries
            .iter()
            .map(|e| {
                let label = Cause::new(e.kind.key()).render(lookup);
                format!("{label}: {}\n", escaped(&e.cause).render(lookup))
            })
            .collect()
    }

    /// The report in English.
    pub fn text(&self) -> String {
        self.text_in(&|k| crate::cause::english(k))
    }

    /// The report for a reader who cannot take thousands of lines at once (the page's Import
    /// panel): of the entries of one kind and one message (one catalogue key), the first `shown`
    /// as they are, then one line (`import.more`, of that kind, where the last of them was) that
    /// counts the rest, quotes the last one shown and names every file the rest are in (at most
    /// [`MORE_FILES`] of them, then how many others). `kubelife import` prints every entry.
    pub fn summarised(&self, shown: usize) -> Vec<Entry> {
        let shown = shown.max(1);
        // For each kind and key: entries seen, where its summary goes, and the files of the rest.
        let mut groups: BTreeMap<(EntryKind, &str), Group> = BTreeMap::new();
        let mut out: Vec<Entry> = Vec::new();
        for e in &self.entries {
            let g = groups.entry((e.kind, e.cause.key)).or_default();
            g.seen += 1;
            if g.seen <= shown {
                out.push(e.clone());
                g.last = out.len() - 1;
            } else {
                let file = match e.cause.arg("file") {
                    Some(Arg::Text(f)) => f.clone(),
                    _ => String::new(),
                };
                if !g.files.contains(&file) {
                    g.files.push(file);
                }
            }
        }
        // Summaries go in after the line they quote, from the end so that positions hold.
        let mut more: Vec<(usize, Entry)> = groups
            .into_values()
            .filter(|g| g.seen > shown)
            .map(|g| {
                let last = &out[g.last];
                (
                    g.last,
                    Entry {
                        kind: last.kind,
                        cause: more_line(g.seen - shown, &last.cause, &g.files),
                    },
                )
            })
            .collect();
        // The shared sort, so the files worker carries one copy.
        crate::order::sort_by_key(&mut more, |(at, _)| std::cmp::Reverse(*at));
        for (at, entry) in more {
            out.insert(at + 1, entry);
        }
        out
    }
}

/// How many files a summary line names before it counts the others.
pub const MORE_FILES: usize = 5;

/// One kind and key's entries while [`Report::summarised`] reads them.
#[derive(Default)]
struct Group {
    seen: usize,
    last: usize,
    files: Vec<String>,
}

/// The line standing for `count` entries like `like`, in `files` (names; empty where an entry
/// names no file).
fn more_line(count: usize, like: &Cause, files: &[String]) -> Cause {
    let named: Vec<&str> = files.iter().map(String::as_str).filter(|f| !f.is_empty()).collect();
    let listed = named.iter().take(MORE_FILES).copied().collect::<Vec<_>>().join(", ");
    let others = named.len().saturating_sub(MORE_FILES);
    let files = if others > 0 {
        Cause::new("import.more.files_and_others")
            .text("files", listed)
            .text("others", thousands(others))
    } else {
        Cause::new("import.more.files").text("files", listed)
    };
    Cause::new("import.more")
        .text("count", thousands(count))
        .sub("like", like.clone())
        .sub("files", files)
}

//! The import report: one message per thing recognised, overridden, ignored, invalid or
//! unreadable, each a [`Cause`] so that the page shows it in the reader's language.

use super::shown::escaped;
use crate::cause::Cause;

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
}

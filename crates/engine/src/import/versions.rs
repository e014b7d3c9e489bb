//! The version an import simulates: `--version`, else the files', else the kubelets' (the texts
//! themselves are read by [`super::version_text`]).

use super::collect::Collector;
use super::report::EntryKind;
use super::shown::{Shown, SENTENCE_CHARS};
use super::Reader;
use crate::cause::Cause;
use crate::version::Version;

/// The version to simulate: `--version` if given, else the control plane's as the files name it,
/// else the kubelets' most common minor (the newer one on a tie), else the page's version for the
/// page and none (the newest) for the CLI. Says which in the report.
pub fn choose(c: &mut Collector, reader: Reader) -> Option<Version> {
    let from_nodes = most_common_kubelet(c);
    let claimed = c.version.as_ref().map(|v| v.version);
    let named = claimed.or(from_nodes);
    match reader {
        Reader::Cli(Some(text)) => match Version::parse(text) {
            Ok(v) => {
                let cause = match named {
                    Some(named) => Cause::new("import.version.requested").text("suggested", named),
                    None => Cause::new("import.version.requested_alone"),
                };
                c.push(EntryKind::Note, cause.text("version", v));
                return Some(v);
            }
            Err(e) => {
                let cause = Cause::new("import.version.bad_request")
                    .shown("value", text)
                    .shown_up_to("error", &e, SENTENCE_CHARS);
                c.push(EntryKind::Invalid, cause);
            }
        },
        Reader::Cli(None) => {}
        Reader::Page(page) => {
            skew(c, claimed, from_nodes);
            // The page shows the version it checked against: the files', else its own.
            let (key, version) = match named {
                Some(v) => ("import.version.page_files", v),
                None => ("import.version.page", page),
            };
            c.push(EntryKind::Note, Cause::new(key).text("version", version));
            return Some(version);
        }
    }
    skew(c, claimed, from_nodes);
    if named.is_none() {
        let cause = Cause::new("import.version.default").text("version", Version::default());
        c.push(EntryKind::Note, cause);
    }
    named
}

/// Says so when the control plane and most kubelets run different versions.
fn skew(c: &mut Collector, claimed: Option<Version>, from_nodes: Option<Version>) {
    if let (Some(control), Some(kubelets)) = (claimed, from_nodes) {
        if control != kubelets {
            let cause = Cause::new("import.version.skew")
                .text("control", control)
                .text("kubelets", kubelets);
            c.push(EntryKind::Note, cause);
        }
    }
}

/// The kubelets' most common supported minor; mixed minors are reported.
fn most_common_kubelet(c: &mut Collector) -> Option<Version> {
    let (&minor, _) = c
        .kubelet_minors
        .iter()
        .max_by_key(|(minor, count)| (**count, **minor))?;
    let version = Version { minor };
    if c.kubelet_minors.len() > 1 {
        let mixed: Vec<String> = c.kubelet_minors.iter().map(|(m, n)| format!("1.{m} ({n})")).collect();
        let cause = Cause::new("import.version.mixed")
            .text("versions", mixed.join(", "))
            .text("version", version);
        c.push(EntryKind::Note, cause);
    } else {
        let count = c.kubelet_minors[&minor];
        let cause = Cause::new("import.version.kubelets")
            .text("version", version)
            .text("count", count);
        c.push(EntryKind::Recognised, cause);
    }
    Some(version)
}

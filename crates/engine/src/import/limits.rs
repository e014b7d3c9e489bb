//! The limits every reader of the import shares (`kubelife import`, the page's files worker), so
//! that no input of at most [`MAX_FILE_BYTES`] takes more than a few seconds or more than a few
//! hundred MB, whatever it holds. Each is checked before the work it bounds, and each refusal is a
//! report line naming the file. docs/import.md's "Limits" section gives them and their messages.
//!
//! - [`MAX_FILE_BYTES`]: the size of one file, checked before it is read (the command line looks
//!   at a file's length and reads standard input at most this far; the page looks at a dropped
//!   file's size and a pasted text's length).
//! - [`MAX_DEPTH`]: how deeply collections nest. YAML is scanned for it before the parser runs
//!   (`scan`): libyaml's cost grows with the square of the depth of flow collections, so depth
//!   is refused, never explored. JSON is parsed as it is read, and refused at the same depth.
//! - [`MAX_YAML_NODES`]: the nodes of a YAML file, estimated by the same scan: the parser keeps
//!   every event of a document before a value is built, about 200 bytes each.
//! - [`MAX_NODES`]: the nodes of the values built from one file, JSON or YAML, once the parts
//!   nothing reads (`status.images`, `metadata.managedFields`, `metadata.annotations`) are skipped.
//! - [`ALIAS_EXTRA_NODES`] and [`ALIAS_EXTRA_TEXT`]: what YAML aliases (`*name`) and merge keys
//!   (`<<`) may add when they repeat what an anchor holds. Without them a file's values hold at
//!   most as many nodes, and as many bytes of text, as the file has bytes; expansion may go beyond
//!   that by these amounts, and no further (the "billion laughs" and a large string repeated).
//!
//! Together they keep any file within about its size plus 300 MB, and a few seconds.

use super::shown::{thousands, Shown};
use crate::cause::Cause;

/// The largest file an import reads: 128 MiB. A 5,000-node `kubectl get nodes -o json` (the
/// largest cluster Kubernetes supports) is about 27 MB, and about 134 MB (127.8 MiB) when every
/// node lists the 50 images the kubelet reports at most (`--node-status-max-images`) under long
/// registry names and digests. Reading one takes its size and about 100 MB more (the images are
/// skipped).
pub const MAX_FILE_BYTES: usize = 128 << 20;

/// The deepest nesting of collections read: 64 levels. Kubernetes objects nest about 15 levels
/// (a Deployment's node affinity terms), kubeadm and kubelet configuration about 5.
pub const MAX_DEPTH: usize = 64;

/// The most nodes (scalars, sequences and mappings, as the scan counts them) of a YAML file:
/// 1,000,000, about 200 MB to read, since libyaml keeps every event of a document. A `kubectl get
/// nodes -o yaml` of about 5,000 nodes (190 each), or 1,800 that list 50 images each; `-o json`
/// has no such limit below the size.
pub const MAX_YAML_NODES: usize = 1_000_000;

/// The most nodes of the values built from one file: 3,000,000, about 300 MB. A 5,000-node
/// `kubectl get nodes -o json` builds about 925,000 once its images, managed fields and
/// annotations are skipped, 10,000 nodes (`scenario::MAX_NODES`) about 1,850,000.
pub const MAX_NODES: usize = 3_000_000;

/// The most nodes YAML aliases and merge keys may add beyond the file's size in bytes.
pub const ALIAS_EXTRA_NODES: usize = 100_000;

/// The most text (bytes) YAML aliases and merge keys may add beyond the file's size: 1 MiB.
pub const ALIAS_EXTRA_TEXT: usize = 1 << 20;

/// A size as a reader writes it: `512 B`, `12.5 KiB`, `3.0 GiB`.
pub fn size(bytes: u64) -> String {
    const UNITS: [&str; 4] = ["KiB", "MiB", "GiB", "TiB"];
    if bytes < 1024 {
        return format!("{bytes} B");
    }
    let mut value = bytes as f64 / 1024.0;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    if value.fract() == 0.0 {
        format!("{value:.0} {}", UNITS[unit])
    } else {
        format!("{value:.1} {}", UNITS[unit])
    }
}

/// The report line for a file over [`MAX_FILE_BYTES`], `bytes` long (`None`: standard input,
/// which was read up to the limit and goes on).
pub fn too_large(file: &str, bytes: Option<u64>) -> Cause {
    let cause = Cause::new("import.limit.size").shown("file", file);
    let max = size(MAX_FILE_BYTES as u64);
    match bytes {
        Some(b) => cause.text("size", format!("{} ({} B)", size(b), thousands(b as usize))),
        None => cause.sub("size", Cause::new("import.limit.size.more").text("max", &max)),
    }
    .text("max", max)
}

/// The report line for nesting deeper than [`MAX_DEPTH`], at `line`.
pub fn too_deep(line: usize) -> Cause {
    Cause::new("import.limit.depth")
        .text("line", line)
        .text("max", MAX_DEPTH)
}

/// The report line for a YAML file of more than [`MAX_YAML_NODES`] nodes, the limit crossed at
/// `line`.
pub fn too_many_yaml_nodes(line: usize) -> Cause {
    Cause::new("import.limit.yaml_nodes")
        .text("line", line)
        .text("max", thousands(MAX_YAML_NODES))
}

/// The report line for values of more than [`MAX_NODES`] nodes.
pub fn too_many_nodes() -> Cause {
    Cause::new("import.limit.nodes").text("max", thousands(MAX_NODES))
}

/// The report line for aliases that expand beyond their budget.
pub fn aliases() -> Cause {
    Cause::new("import.limit.aliases")
        .text("nodes", thousands(ALIAS_EXTRA_NODES))
        .text("text", size(ALIAS_EXTRA_TEXT as u64))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_read_as_people_write_them() {
        assert_eq!(size(512), "512 B");
        assert_eq!(size(MAX_FILE_BYTES as u64), "128 MiB");
        assert_eq!(size(3 << 30), "3 GiB");
        assert_eq!(size(1_500_000), "1.4 MiB");
        let c = too_large("big.yaml", Some(3 << 30)).english();
        assert!(
            c.contains("big.yaml") && c.contains("3 GiB") && c.contains("128 MiB"),
            "{c}"
        );
    }
}

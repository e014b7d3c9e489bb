//! Kubernetes versions as configuration writes them, and the version an import suggests.
//!
//! Forms: kubeadm's `kubernetesVersion` (`v1.31.2`, `1.31.0`, the labels `stable-1.31` and
//! `latest-1.31` that kubeadm resolves at install time), rke's `kubernetes_version`
//! (`v1.18.10-rancher1-2`), image tags (`registry.k8s.io/kube-controller-manager:v1.25.4`,
//! `rancher/hyperkube:v1.19.3-rancher1`) and a node's `status.nodeInfo.kubeletVersion`
//! (`v1.21.2-13+d2965f0db10712`).

use super::collect::Collector;
use super::report::EntryKind;
use super::Reader;
use crate::cause::Cause;
use crate::version::{Version, NEWEST_MINOR, OLDEST_MINOR};

/// What a version text says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum VersionText {
    /// A supported version.
    Version(Version),
    /// A template variable nobody rendered (`${k8s_version}`, `{{ kube_version }}`).
    Template,
    /// A version outside 1.12 to 1.35.
    Unsupported,
    /// No version at all.
    Unreadable,
}

/// Whether a value is a template nobody rendered: shell or Terraform `${...}`, Jinja or Go
/// `{{ ... }}`, Jinja `{% ... %}`.
pub fn is_template(text: &str) -> bool {
    text.contains("${") || text.contains("{{") || text.contains("{%")
}

/// Reads the minor version out of a version text.
pub fn read(raw: &str) -> VersionText {
    if is_template(raw) {
        return VersionText::Template;
    }
    let t = raw.trim();
    let t = t
        .strip_prefix("stable-")
        .or_else(|| t.strip_prefix("latest-"))
        .unwrap_or(t);
    let t = t.strip_prefix('v').unwrap_or(t);
    let Some(rest) = t.strip_prefix("1.") else {
        return VersionText::Unreadable;
    };
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    let tail = &rest[digits.len()..];
    let clean_tail = tail.is_empty() || tail.starts_with(['.', '-', '+']);
    match digits.parse::<u32>() {
        Ok(minor) if clean_tail && (OLDEST_MINOR..=NEWEST_MINOR).contains(&minor) => {
            VersionText::Version(Version { minor })
        }
        Ok(_) if clean_tail => VersionText::Unsupported,
        _ => VersionText::Unreadable,
    }
}

/// The tag of a container image (`repo/name:v1.25.4` gives `v1.25.4`), if it has one.
pub fn image_tag(image: &str) -> Option<&str> {
    let name = image.split('@').next().unwrap_or(image);
    let (repo, tag) = name.rsplit_once(':')?;
    (!tag.contains('/') && !repo.is_empty()).then_some(tag)
}

impl VersionText {
    /// The report entry for a text that gives no supported version.
    pub fn cause(&self, file: &str, source: &str, raw: &str) -> Cause {
        let key = match self {
            VersionText::Template => "import.template",
            VersionText::Unsupported => "import.version.unsupported",
            VersionText::Version(_) | VersionText::Unreadable => "import.version.unreadable",
        };
        Cause::new(key)
            .text("file", file)
            .text("setting", source)
            .text("value", raw)
            .text("oldest", Version { minor: OLDEST_MINOR })
            .text("newest", Version { minor: NEWEST_MINOR })
    }
}

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
                let cause = Cause::new("import.version.requested")
                    .text("version", v)
                    .text("suggested", named.map_or_else(|| "-".to_string(), |s| s.to_string()));
                c.push(EntryKind::Note, cause);
                return Some(v);
            }
            Err(e) => {
                let cause = Cause::new("import.version.bad_request")
                    .text("value", text)
                    .text("error", e);
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_forms_distributions_write() {
        let v = |minor| VersionText::Version(Version { minor });
        assert_eq!(read("v1.31.2"), v(31));
        assert_eq!(read("1.31.0"), v(31));
        assert_eq!(read("stable-1.29"), v(29));
        assert_eq!(read("v1.18.10-rancher1-2"), v(18));
        assert_eq!(read("v1.21.2-13+d2965f0db10712"), v(21));
        assert_eq!(read("v1.17.1+b83bc57"), v(17));
        assert_eq!(read("${kubernetes_version}"), VersionText::Template);
        assert_eq!(read("${KUBERNETES_VERSION}.0"), VersionText::Template);
        assert_eq!(read("v1.11.0"), VersionText::Unsupported);
        assert_eq!(read("v1.99"), VersionText::Unsupported);
        assert_eq!(read("stable"), VersionText::Unreadable);
        assert_eq!(read("1.3x"), VersionText::Unreadable);
        assert_eq!(read(""), VersionText::Unreadable);
        assert_eq!(image_tag("registry.k8s.io/kube-apiserver:v1.25.4"), Some("v1.25.4"));
        assert_eq!(image_tag("localhost:5000/kube-apiserver"), None);
        assert_eq!(image_tag("kube-apiserver"), None);
    }
}

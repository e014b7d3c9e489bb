//! Kubernetes versions as configuration writes them.
//!
//! Forms: kubeadm's `kubernetesVersion` (`v1.31.2`, `1.31.0`, the labels `stable-1.31` and
//! `latest-1.31` that kubeadm resolves at install time), rke's `kubernetes_version`
//! (`v1.18.10-rancher1-2`), image tags (`registry.k8s.io/kube-controller-manager:v1.25.4`,
//! `rancher/hyperkube:v1.19.3-rancher1`) and a node's `status.nodeInfo.kubeletVersion`
//! (`v1.21.2-13+d2965f0db10712`).

use super::shown::Shown;
use crate::cause::Cause;
use crate::version::{Version, NEWEST_MINOR, OLDEST_MINOR};

/// What a version text says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum VersionText {
    /// A supported version.
    Version(Version),
    /// A template variable nobody rendered (`${k8s_version}`, `{{ kube_version }}`).
    Template,
    /// A version outside the supported ones (`OLDEST_MINOR` to `NEWEST_MINOR`).
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
            .shown("value", raw)
            .text("oldest", Version { minor: OLDEST_MINOR })
            .text("newest", Version { minor: NEWEST_MINOR })
    }
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

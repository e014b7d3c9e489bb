//! Nodes from `kubectl get nodes -o json|yaml` (a `NodeList`, a `List` of Nodes, or single Node
//! objects): the name, the zone from `topology.kubernetes.io/zone` (falling back to the
//! deprecated `failure-domain.beta.kubernetes.io/zone`, as the node lifecycle controller's
//! `GetZoneKey` does), `status.allocatable.pods` as `maxPods`, and
//! `status.nodeInfo.kubeletVersion` to suggest the version; `spec.providerID` for the cloud
//! (`aws://`, `gce://`, `azure://`: `build` takes the most nodes' provider as `cloud.provider`),
//! the managed services' and Karpenter's node-pool labels, which say which automatic repair
//! probably applies (the report says so; the import never adds the remediator itself), and the
//! labels the model reads, kept on the node: `node.kubernetes.io/exclude-disruption` and an EKS
//! managed node group's `eks.amazonaws.com/capacityType` (`ON_DEMAND`, `SPOT`).

use super::cloud::{cloud_id, NodeCloud, Repair};
use super::collect::Collector;
use super::kubelet_config::scalar;
use super::report::EntryKind;
use super::shown::Shown;
use crate::api::LABEL_EXCLUDE_DISRUPTION;
use crate::cause::Cause;
use crate::scenario::cloud::LABEL_CAPACITY_TYPE;
use crate::scenario::NodeSection;
use serde_json::Value as Json;

/// The zone labels, newest first (`GetZoneKey` in k8s.io/component-helpers).
const ZONE_LABELS: [&str; 2] = ["topology.kubernetes.io/zone", "failure-domain.beta.kubernetes.io/zone"];

/// Reads one Node object. A name that is no Kubernetes node name leaves the node out; a zone
/// that is no label value leaves it without a zone; either is reported, as is a field of the
/// wrong type.
pub fn read(c: &mut Collector, file: &str, doc: &Json) {
    c.recognise();
    let metadata = c.map(file, "Node metadata", doc.get("metadata"));
    let Some(name) = c.string(file, "Node metadata.name", metadata.and_then(|m| m.get("name"))) else {
        if metadata.and_then(|m| m.get("name")).is_none_or(Json::is_null) {
            c.malformed(file, "Node metadata.name", "", Cause::new("import.value.missing"));
        }
        return;
    };
    if !is_subdomain(name) {
        let cause = Cause::new("import.node.bad_name")
            .text("file", file)
            .shown("name", name);
        c.push(EntryKind::Ignored, cause);
        return;
    }
    let at = |path: &str| Cause::new("import.setting.node").shown("node", name).text("path", path);
    let labels = c.map(file, &at("metadata.labels"), metadata.and_then(|m| m.get("labels")));
    // A label whose value is not a label value (`IsValidLabelValue`) is left out, and said so.
    let label = |c: &mut Collector, key: &str| {
        let setting = Cause::new("import.setting.node_label")
            .shown("node", name)
            .text("label", key);
        let value = c.string(file, &setting, labels.and_then(|l| l.get(key)))?;
        if is_label_value(value) {
            return Some(value.to_string());
        }
        let cause = Cause::new("import.node.bad_label")
            .text("file", file)
            .text("node", name)
            .shown("value", value)
            .text("label", key);
        c.push(EntryKind::Ignored, cause);
        None
    };
    let zone = ZONE_LABELS.iter().find_map(|k| label(c, k));
    let mut section = NodeSection {
        name: name.to_string(),
        zone,
        ..Default::default()
    };
    // The node labels the model reads: the node lifecycle controller's
    // `isNodeExcludedFromDisruptionChecks`, and an EKS managed node group's capacity type (its
    // Auto Scaling group replaces a terminated instance; a Spot group drains the node on its
    // interruption notice: `control_plane::node_group`).
    for key in [LABEL_EXCLUDE_DISRUPTION, LABEL_CAPACITY_TYPE] {
        if let Some(v) = label(c, key) {
            section.labels.insert(key.to_string(), v);
        }
    }
    // The blocks read below are core/v1 Node's maps; one of another type is reported, as the
    // look-ups below would find nothing in it and say nothing.
    let status = c.map(file, &at("status"), doc.get("status"));
    for key in ["allocatable", "nodeInfo"] {
        c.map(file, &at(&format!("status.{key}")), status.and_then(|s| s.get(key)));
    }
    c.map(file, &at("spec"), doc.get("spec"));
    let pods = doc.pointer("/status/allocatable/pods").and_then(scalar);
    match pods.as_deref().map(str::parse::<u32>) {
        Some(Ok(n)) if n > 0 => section.max_pods = Some(n),
        Some(_) => c.malformed(
            file,
            "status.allocatable.pods",
            pods.as_deref().unwrap_or(""),
            Cause::new("import.value.not_count"),
        ),
        None => {}
    }
    let mut cloud = NodeCloud::default();
    let provider_id = c.string(file, &at("spec.providerID"), doc.pointer("/spec/providerID"));
    if let Some(id) = provider_id.filter(|id| !id.is_empty()) {
        cloud.id = cloud_id(id);
    }
    // Only the label's presence matters: its value names the pool. A list in `Repair::ALL`'s
    // order rather than a set: collecting into a set would compile one more copy of the sort.
    cloud.repairs = Repair::ALL
        .into_iter()
        .filter(|r| labels.is_some_and(|l| l.contains_key(r.label())))
        .collect();
    let version = doc.pointer("/status/nodeInfo/kubeletVersion");
    let version = c.string(file, &at("status.nodeInfo.kubeletVersion"), version);
    c.add_node(section, cloud, file, version);
}

/// Whether `name` is a DNS-1123 subdomain, as a Node's name must be (apimachinery's
/// `IsDNS1123Subdomain`): at most 253 characters, dot-separated labels of lowercase letters,
/// digits and '-', each starting and ending with a letter or digit.
pub fn is_subdomain(name: &str) -> bool {
    let label = |l: &str| {
        !l.is_empty()
            && l.bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
            && !l.starts_with('-')
            && !l.ends_with('-')
    };
    name.len() <= 253 && name.split('.').all(label)
}

/// Whether `name` is a DNS-1123 label (`IsDNS1123Label`), as a namespace's name must be: at most
/// 63 lowercase letters, digits and '-', starting and ending with a letter or digit.
pub fn is_label(name: &str) -> bool {
    name.len() <= 63 && is_subdomain(name) && !name.contains('.')
}

/// Whether `key` is a qualified name (`IsQualifiedName`), as a label's or a toleration's key must
/// be: an optional DNS subdomain prefix and '/', then at most 63 letters, digits, '-', '_' and
/// '.', starting and ending with a letter or digit.
pub fn is_qualified_name(key: &str) -> bool {
    let (prefix, name) = match key.rsplit_once('/') {
        Some((p, n)) => (Some(p), n),
        None => (None, key),
    };
    prefix.is_none_or(|p| !p.is_empty() && is_subdomain(p)) && !name.is_empty() && is_label_value(name)
}

/// Whether `value` is a label value (apimachinery's `IsValidLabelValue`): empty, or at most 63
/// characters of letters, digits, '-', '_' and '.', starting and ending with a letter or digit.
pub fn is_label_value(value: &str) -> bool {
    let inner = |b: u8| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.');
    let bytes = value.as_bytes();
    value.is_empty()
        || (bytes.len() <= 63
            && bytes.iter().all(|&b| inner(b))
            && bytes[0].is_ascii_alphanumeric()
            && bytes[bytes.len() - 1].is_ascii_alphanumeric())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_zones_follow_apimachinery() {
        assert!(is_subdomain("ip-10-0-1-10.eu-west-1.compute.internal"));
        for bad in ["", "Node-1", "a..b", "-a", "a\u{1b}[2J", &"a".repeat(254)] {
            assert!(!is_subdomain(bad), "{bad:?}");
        }
        assert!(is_label_value("eu-west-1a") && is_label_value("") && is_label_value("Zone_A.1"));
        for bad in ["zone\u{1b}]0;x\u{7}", "-a", "a b", &"z".repeat(64)] {
            assert!(!is_label_value(bad), "{bad:?}");
        }
        assert!(is_qualified_name("node.kubernetes.io/unreachable") && is_qualified_name("dedicated"));
        for bad in ["", "/a", "a/", "-", "Node.io/x", "a/b/c", "x\u{1b}"] {
            assert!(!is_qualified_name(bad), "{bad:?}");
        }
        assert!(is_label("kube-system") && !is_label("a.b") && !is_label("Prod"));
    }
}

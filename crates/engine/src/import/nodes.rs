//! Nodes from `kubectl get nodes -o json|yaml` (a `NodeList`, a `List` of Nodes, or single Node
//! objects): the name, the zone from `topology.kubernetes.io/zone` (falling back to the
//! deprecated `failure-domain.beta.kubernetes.io/zone`, as the node lifecycle controller's
//! `GetZoneKey` does), `status.allocatable.pods` as `maxPods`, and
//! `status.nodeInfo.kubeletVersion` to suggest the version.

use super::collect::Collector;
use super::kubelet_config::scalar;
use crate::api::LABEL_EXCLUDE_DISRUPTION;
use crate::scenario::NodeSection;
use serde_json::Value as Json;

/// The zone labels, newest first (`GetZoneKey` in k8s.io/component-helpers).
const ZONE_LABELS: [&str; 2] = ["topology.kubernetes.io/zone", "failure-domain.beta.kubernetes.io/zone"];

/// Reads one Node object.
pub fn read(c: &mut Collector, file: &str, doc: &Json) {
    c.recognise();
    let Some(name) = doc.pointer("/metadata/name").and_then(Json::as_str) else {
        c.malformed(file, "Node metadata.name", "", "missing");
        return;
    };
    let labels = doc.pointer("/metadata/labels");
    let label = |k: &str| labels.and_then(|l| l.get(k)).and_then(Json::as_str);
    let zone = ZONE_LABELS.iter().find_map(|k| label(k)).map(str::to_string);
    let mut section = NodeSection {
        name: name.to_string(),
        zone,
        ..Default::default()
    };
    // The one node label the model reads (node lifecycle controller, `isNodeExcludedFromDisruptionChecks`).
    if let Some(v) = label(LABEL_EXCLUDE_DISRUPTION) {
        section
            .labels
            .insert(LABEL_EXCLUDE_DISRUPTION.to_string(), v.to_string());
    }
    let pods = doc.pointer("/status/allocatable/pods").and_then(scalar);
    match pods.as_deref().map(str::parse::<u32>) {
        Some(Ok(n)) if n > 0 => section.max_pods = Some(n),
        Some(_) => c.malformed(
            file,
            "status.allocatable.pods",
            pods.as_deref().unwrap_or(""),
            "not a count",
        ),
        None => {}
    }
    let version = doc.pointer("/status/nodeInfo/kubeletVersion").and_then(Json::as_str);
    c.add_node(section, file, version);
}

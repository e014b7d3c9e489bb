//! One YAML or JSON document, told apart by its `kind` (and `apiVersion` where two projects use
//! one kind), or by its keys when it has none.

use super::collect::Collector;
use super::field::Component;
use super::place::Place;
use super::report::EntryKind;
use super::{distros, kubeadm, kubelet_config, nodes, remediation, static_pod, workloads};
use crate::cause::Cause;
use serde_json::Value as Json;

/// The most objects of one `List` read; the rest are reported.
const MAX_ITEMS: usize = 20_000;

/// Reads one document.
pub fn read(c: &mut Collector, file: &str, doc: &Json) {
    let Some(map) = doc.as_object() else {
        if !doc.is_null() {
            let cause = Cause::new("import.unknown_document").text("file", file);
            c.push(EntryKind::Ignored, cause);
        }
        return;
    };
    let kind = c.string(file, "kind", map.get("kind")).unwrap_or("");
    let api_version = c.string(file, "apiVersion", map.get("apiVersion")).unwrap_or("");
    match kind {
        "" if distros::read(c, file, map) || static_pod::read_fragment(c, file, doc) => {}
        "" => {
            let cause = Cause::new("import.unknown_document").text("file", file);
            c.push(EntryKind::Ignored, cause);
        }
        "List" | "NodeList" | "DeploymentList" | "StatefulSetList" | "DaemonSetList" | "PodList" => list(
            c,
            file,
            map.get("items"),
            kind.strip_suffix("List").filter(|k| !k.is_empty()),
        ),
        "KubeletConfiguration" => {
            let kubeadm = c.kubeadm_file;
            let place = move |field: &str| match kubeadm {
                true => Place::KubeadmKubelet {
                    field: field.to_string(),
                },
                false => Place::KubeletFile {
                    field: field.to_string(),
                },
            };
            kubelet_config::read(c, file, doc, &place);
        }
        "ClusterConfiguration" if api_version.starts_with("kubeadm.k8s.io/") => kubeadm::cluster(c, file, doc, false),
        "InitConfiguration" | "JoinConfiguration" if api_version.starts_with("kubeadm.k8s.io/") => {
            kubeadm::node(c, file, doc, kind)
        }
        "ConfigMap" => kubeadm::config_map(c, file, doc),
        "MachineHealthCheck" if api_version.starts_with("cluster.x-k8s.io/") => {
            remediation::machine_health_check(c, file, doc, api_version)
        }
        "NodeHealthCheck" if api_version.starts_with("remediation.medik8s.io/") => {
            remediation::node_health_check(c, file, doc, api_version)
        }
        "SelfNodeRemediationTemplate" if api_version.starts_with("self-node-remediation.medik8s.io/") => {
            remediation::self_node_remediation_template(c, file, doc)
        }
        "SelfNodeRemediationConfig" if api_version.starts_with("self-node-remediation.medik8s.io/") => {
            remediation::self_node_remediation_config(c, file, doc)
        }
        "Node" => nodes::read(c, file, doc),
        "Pod" if static_pod::component(doc).is_some_and(|k| k != Component::Etcd) => static_pod::read(c, file, doc),
        "KubeletConfig" => {
            // OpenShift's machineconfiguration.openshift.io KubeletConfig wraps the fields in
            // spec.kubeletConfig and is applied by the Machine Config Operator, not the kubelet.
            let cause = Cause::new("import.ignored.openshift_kubelet_config").text("file", file);
            c.push(EntryKind::Ignored, cause);
        }
        other => match workloads::kind(other) {
            Some(k) => workloads::read(c, file, doc, k),
            None => c.ignore_kind(other),
        },
    }
}

/// The items of a `List` (kubectl's `-o json` for several resources or kinds). The items of a
/// typed list (`NodeList`) may omit `kind`, as the API server's list responses do; they are of
/// the list's kind.
fn list(c: &mut Collector, file: &str, items: Option<&Json>, item_kind: Option<&str>) {
    let items = c.list(file, "items", items).unwrap_or_default();
    for item in items.iter().take(MAX_ITEMS) {
        match (item_kind, item.get("kind")) {
            (Some(k), None) if item.is_object() => {
                let mut typed = item.clone();
                typed["kind"] = Json::from(k);
                read(c, file, &typed);
            }
            _ => read(c, file, item),
        }
    }
    if items.len() > MAX_ITEMS {
        let cause = Cause::new("import.list.truncated")
            .text("file", file)
            .text("count", items.len())
            .text("read", MAX_ITEMS);
        c.push(EntryKind::Ignored, cause);
    }
}

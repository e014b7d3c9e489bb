//! kubeadm's configuration (kubeadm.k8s.io v1beta3 and v1beta4) and the in-cluster copies
//! `kubeadm init` uploads: the `kubeadm-config` ConfigMap (`data.ClusterConfiguration`) and the
//! `kubelet-config` ConfigMap (`data.kubelet`; `kubelet-config-1.x` before 1.24).
//!
//! `extraArgs` is a map in v1beta3 and a list of `{name, value}` in v1beta4 (kubeadm's v1beta4
//! "Changes since v1beta3": "extraArgs ... are now a list of structured Args").

use super::collect::Collector;
use super::field::Component;
use super::flags::{self, Flag};
use super::kubelet_config::{self, scalar};
use super::place::Place;
use super::report::EntryKind;
use super::text::embedded_yaml;
use crate::cause::Cause;
use serde_json::Value as Json;

/// The sections of a `ClusterConfiguration` whose `extraArgs` are a component's flags.
const SECTIONS: [(&str, Component); 4] = [
    ("controllerManager", Component::ControllerManager),
    ("apiServer", Component::ApiServer),
    ("scheduler", Component::Scheduler),
    ("etcd", Component::Etcd),
];

/// `extraArgs` in either form; entries that are neither are reported.
pub fn extra_args(c: &mut Collector, file: &str, what: &str, v: &Json) -> Vec<Flag> {
    let mut out = Vec::new();
    match v {
        Json::Object(m) => out.extend(m.iter().map(|(k, v)| (k.clone(), scalar(v)))),
        Json::Array(items) => {
            for item in items {
                match (
                    item.get("name").and_then(Json::as_str),
                    item.get("value").and_then(scalar),
                ) {
                    (Some(n), value) => out.push((n.to_string(), value)),
                    _ => c.malformed(file, what, &item.to_string(), "not a {name, value} entry"),
                }
            }
        }
        Json::Null => {}
        other => c.malformed(file, what, &other.to_string(), "neither a map nor a list of name/value"),
    }
    out
}

/// A `ClusterConfiguration`; `in_cluster` when it came from the `kubeadm-config` ConfigMap.
pub fn cluster(c: &mut Collector, file: &str, doc: &Json, in_cluster: bool) {
    c.recognise_format(file, "kubeadm ClusterConfiguration");
    if let Some(v) = doc.get("kubernetesVersion").and_then(scalar) {
        c.claim_version(file, "kubernetesVersion", &v);
    }
    for (section, component) in SECTIONS {
        // etcd's extra arguments sit under etcd.local.
        let args = match section {
            "etcd" => doc.pointer("/etcd/local/extraArgs"),
            _ => doc.get(section).and_then(|s| s.get("extraArgs")),
        };
        let Some(args) = args else { continue };
        let what = format!("{section}.extraArgs");
        let list = extra_args(c, file, &what, args);
        let place = move |comp: Component, flag: &str| match in_cluster {
            true => Place::KubeadmConfigMap {
                component: comp,
                flag: flag.to_string(),
            },
            false => Place::KubeadmCluster {
                component: comp,
                flag: flag.to_string(),
            },
        };
        flags::apply(c, file, Some(component), &list, &place);
    }
}

/// An `InitConfiguration` or `JoinConfiguration`: `nodeRegistration.kubeletExtraArgs`.
pub fn node(c: &mut Collector, file: &str, doc: &Json, kind: &str) {
    c.recognise_format(file, &format!("kubeadm {kind}"));
    let Some(args) = doc.pointer("/nodeRegistration/kubeletExtraArgs") else {
        return;
    };
    let list = extra_args(c, file, "nodeRegistration.kubeletExtraArgs", args);
    let kind = kind.to_string();
    let place = move |_: Component, flag: &str| Place::KubeadmNode {
        flag: flag.to_string(),
        kind: kind.clone(),
    };
    flags::apply(c, file, Some(Component::Kubelet), &list, &place);
}

/// A ConfigMap: `kubeadm-config` or `kubelet-config`; any other is ignored.
pub fn config_map(c: &mut Collector, file: &str, doc: &Json) {
    let name = doc.pointer("/metadata/name").and_then(Json::as_str).unwrap_or("");
    let data = doc.get("data");
    let entry = |key: &str| data.and_then(|d| d.get(key)).and_then(Json::as_str);
    if name == "kubeadm-config" {
        match entry("ClusterConfiguration").map(embedded_yaml) {
            Some(Ok(inner)) => cluster(c, file, &inner, true),
            Some(Err(e)) => c.malformed(file, "data.ClusterConfiguration", "", &e),
            None => c.malformed(file, "data.ClusterConfiguration", "", "missing"),
        }
    } else if name == "kubelet-config" || name.starts_with("kubelet-config-1.") {
        if let Some(v) = name.strip_prefix("kubelet-config-") {
            c.claim_version(file, "metadata.name", v);
        }
        match entry("kubelet").map(embedded_yaml) {
            Some(Ok(inner)) => {
                let cm = name.to_string();
                let place = move |field: &str| Place::KubeletConfigMap {
                    field: field.to_string(),
                    key: cm.clone(),
                };
                kubelet_config::read(c, file, &inner, &place);
            }
            Some(Err(e)) => c.malformed(file, "data.kubelet", "", &e),
            None => c.malformed(file, "data.kubelet", "", "missing"),
        }
    } else {
        let cause = Cause::new("import.ignored.config_map")
            .text("file", file)
            .text("name", name);
        c.push(EntryKind::Ignored, cause);
    }
}

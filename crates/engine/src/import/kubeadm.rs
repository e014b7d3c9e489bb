//! kubeadm's configuration (kubeadm.k8s.io v1beta3 and v1beta4) and the in-cluster copies
//! `kubeadm init` uploads: the `kubeadm-config` ConfigMap (`data.ClusterConfiguration`) and the
//! `kubelet-config` ConfigMap (`data.kubelet`; `kubelet-config-1.x` before 1.24).
//!
//! `extraArgs` is a map in v1beta3 and a list of `{name, value}` in v1beta4 (kubeadm's v1beta4
//! "Changes since v1beta3": "extraArgs ... are now a list of structured Args").

use super::collect::Collector;
use super::field::Component;
use super::flags::{self, Flag};
use super::kubelet_config;
use super::parse::{embedded_yaml, Unread};
use super::place::Place;
use super::report::EntryKind;
use super::shown::Shown;
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
        Json::Object(m) => {
            for (k, v) in m {
                let value = c.scalar(file, &format!("{what}.{k}"), Some(v));
                out.push((k.clone(), value));
            }
        }
        Json::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                let entry = format!("{what}[{i}]");
                let name = item.get("name").and_then(Json::as_str);
                match (name, item.get("value")) {
                    (Some(n), value) => {
                        let value = c.scalar(file, &format!("{entry}.value"), value);
                        out.push((n.to_string(), value));
                    }
                    _ => c.malformed(file, &entry, &item.to_string(), Cause::new("import.value.not_entry")),
                }
            }
        }
        Json::Null => {}
        other => c.malformed(
            file,
            what,
            &other.to_string(),
            Cause::new("import.value.not_extra_args"),
        ),
    }
    out
}

/// A `ClusterConfiguration`; `in_cluster` when it came from the `kubeadm-config` ConfigMap. A
/// section of another type than a map (`controllerManager: [1, 2]`, `apiServer: true`) is
/// reported and ignored.
pub fn cluster(c: &mut Collector, file: &str, doc: &Json, in_cluster: bool) {
    c.recognise_format(file, "kubeadm ClusterConfiguration");
    if let Some(v) = c.scalar(file, "kubernetesVersion", doc.get("kubernetesVersion")) {
        c.claim_version(file, "kubernetesVersion", &v);
    }
    for (section, component) in SECTIONS {
        let Some(map) = c.map(file, section, doc.get(section)) else {
            continue;
        };
        // etcd's extra arguments sit under etcd.local.
        let (map, what) = match section {
            "etcd" => match c.map(file, "etcd.local", map.get("local")) {
                Some(local) => (local, "etcd.local.extraArgs".to_string()),
                None => continue,
            },
            _ => (map, format!("{section}.extraArgs")),
        };
        let Some(args) = map.get("extraArgs") else { continue };
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
    let Some(registration) = c.map(file, "nodeRegistration", doc.get("nodeRegistration")) else {
        return;
    };
    let Some(args) = registration.get("kubeletExtraArgs") else {
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

/// Reports a ConfigMap's embedded document that was not read (unless already reported).
fn unread(c: &mut Collector, file: &str, setting: &str, e: Unread) {
    match e {
        Unread::Reported => {}
        Unread::Said(e) => c.malformed(file, setting, "", e),
        Unread::Limit(cause) => c.push(EntryKind::Unreadable, cause),
    }
}

/// A ConfigMap: `kubeadm-config` or `kubelet-config`; any other is ignored.
pub fn config_map(c: &mut Collector, file: &str, doc: &Json) {
    let name = doc.pointer("/metadata/name").and_then(Json::as_str).unwrap_or("");
    let data = c.map(file, "data", doc.get("data"));
    let entry = |c: &mut Collector, key: &str| {
        let setting = format!("data.{key}");
        match data.and_then(|d| d.get(key)) {
            None | Some(Json::Null) => Err(Unread::Said(Cause::new("import.value.missing"))),
            Some(v) => match c.string(file, &setting, Some(v)) {
                Some(text) => embedded_yaml(c, file, text),
                None => Err(Unread::Reported),
            },
        }
    };
    if name == "kubeadm-config" {
        match entry(c, "ClusterConfiguration") {
            Ok(inner) => cluster(c, file, &inner, true),
            Err(e) => unread(c, file, "data.ClusterConfiguration", e),
        }
    } else if name == "kubelet-config" || name.starts_with("kubelet-config-1.") {
        if let Some(v) = name.strip_prefix("kubelet-config-") {
            c.claim_version(file, "metadata.name", v);
        }
        match entry(c, "kubelet") {
            Ok(inner) => {
                let cm = name.to_string();
                let place = move |field: &str| Place::KubeletConfigMap {
                    field: field.to_string(),
                    key: cm.clone(),
                };
                kubelet_config::read(c, file, &inner, &place);
            }
            Err(e) => unread(c, file, "data.kubelet", e),
        }
    } else {
        let cause = Cause::new("import.ignored.config_map")
            .text("file", file)
            .shown("name", name);
        c.push(EntryKind::Ignored, cause);
    }
}

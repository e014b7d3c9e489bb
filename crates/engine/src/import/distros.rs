//! Distribution files without a `kind`: rke's `cluster.yml`, the RKE2/k3s `config.yaml`, and a
//! kubespray inventory's `group_vars`.

use super::collect::Collector;
use super::field::{Component, Field, Layer, Tunable};
use super::flags::{self, Flag};
use super::kubelet_config::scalar;
use super::place::{KubesprayTarget, Place};
use super::version_text::is_template;
use crate::scenario::flags::{self as catalogue, Flag as CatalogueFlag};
use serde_json::{Map, Value as Json};

/// rke `services.<service>` and the component each runs (rke docs, "Kubernetes Default Services":
/// `kube-api`, `kube-controller`, `scheduler`, `kubelet`, `kubeproxy`, `etcd`).
const RKE_SERVICES: [(&str, Component); 6] = [
    ("kube-api", Component::ApiServer),
    ("kube-controller", Component::ControllerManager),
    ("kubelet", Component::Kubelet),
    ("scheduler", Component::Scheduler),
    ("kubeproxy", Component::KubeProxy),
    ("etcd", Component::Etcd),
];

/// RKE2/k3s `config.yaml` keys whose entries become a component's flags (k3s
/// `pkg/cli/cmds/server.go` and `agent.go`: `--kubelet-arg`, `--kube-controller-manager-arg`, ...).
const K3S_ARGS: [(&str, Component); 6] = [
    ("kubelet-arg", Component::Kubelet),
    ("kube-controller-manager-arg", Component::ControllerManager),
    ("kube-apiserver-arg", Component::ApiServer),
    ("kube-scheduler-arg", Component::Scheduler),
    ("kube-proxy-arg", Component::KubeProxy),
    ("etcd-arg", Component::Etcd),
];

/// Kubespray inventory variables and what they become. Sources: kubespray
/// `roles/kubernetes/node/templates/kubelet-config.v1beta1.yaml.j2` (kubelet fields),
/// `roles/kubernetes/control-plane/templates/kubeadm-config.*.yaml.j2` (controller-manager and
/// apiserver `extraArgs`), and docs/kubernetes-reliability.md for the reliability knobs.
const KUBESPRAY: [(&str, Field, KubesprayTarget); 8] = [
    kubespray_var(
        "kubelet_status_update_frequency",
        &catalogue::NODE_STATUS_UPDATE_FREQUENCY,
    ),
    (
        "kubelet_max_pods",
        Field::MaxPods,
        KubesprayTarget::KubeletFile("maxPods"),
    ),
    kubespray_var("kube_controller_node_monitor_period", &catalogue::NODE_MONITOR_PERIOD),
    kubespray_var(
        "kube_controller_node_monitor_grace_period",
        &catalogue::NODE_MONITOR_GRACE_PERIOD,
    ),
    kubespray_var(
        "kube_controller_node_startup_grace_period",
        &catalogue::NODE_STARTUP_GRACE_PERIOD,
    ),
    kubespray_var("kube_controller_pod_eviction_timeout", &catalogue::POD_EVICTION_TIMEOUT),
    kubespray_var(
        "kube_apiserver_pod_eviction_not_ready_timeout_seconds",
        &catalogue::DEFAULT_NOT_READY_TOLERATION_SECONDS,
    ),
    kubespray_var(
        "kube_apiserver_pod_eviction_unreachable_timeout_seconds",
        &catalogue::DEFAULT_UNREACHABLE_TOLERATION_SECONDS,
    ),
];

/// A kubespray variable that sets a catalogue flag: a kubelet field lands in kubespray's
/// kubelet-config.yaml, any other flag in the kubeadm configuration's `extraArgs`.
const fn kubespray_var(var: &'static str, f: &'static CatalogueFlag) -> (&'static str, Field, KubesprayTarget) {
    let target = match (f.file, f.component) {
        (Some(file), _) => KubesprayTarget::KubeletFile(file.field),
        (None, Component::Simulation) => KubesprayTarget::KubeletFile(f.name),
        (None, component) => KubesprayTarget::Kubeadm(component, f.name),
    };
    (var, Field::Setting(Tunable(f)), target)
}

/// Whether a keyed document is one of these, and reads it if so.
pub fn read(c: &mut Collector, file: &str, map: &Map<String, Json>) -> bool {
    if let Some(services) = map.get("services").and_then(Json::as_object) {
        rke(c, file, map, services);
    } else if map.contains_key("services") && map.get("nodes").is_some_and(Json::is_array) {
        // An rke cluster.yml (its `nodes` list) whose `services` is not a map: said so, not
        // taken for a document nobody recognises.
        c.recognise_format(file, "rke cluster.yml");
        c.map(file, "services", map.get("services"));
    } else if K3S_ARGS.iter().any(|(k, _)| map.contains_key(*k)) {
        k3s(c, file, map);
    } else if KUBESPRAY.iter().any(|(k, _, _)| map.contains_key(*k)) || map.contains_key("kube_version") {
        kubespray(c, file, map);
    } else {
        return false;
    }
    true
}

/// rke `cluster.yml`: `services.<service>.extra_args` become flags (rke `cluster/plan.go`), and
/// `kubernetes_version` names the version.
fn rke(c: &mut Collector, file: &str, map: &Map<String, Json>, services: &Map<String, Json>) {
    c.recognise_format(file, "rke cluster.yml");
    if let Some(v) = c.scalar(file, "kubernetes_version", map.get("kubernetes_version")) {
        c.claim_version(file, "kubernetes_version", &v);
    }
    for (service, component) in RKE_SERVICES {
        let what = format!("services.{service}");
        let Some(args) = c
            .map(file, &what, services.get(service))
            .and_then(|s| s.get("extra_args"))
        else {
            continue;
        };
        let what = format!("{what}.extra_args");
        let Some(args) = c.map(file, &what, Some(args)) else {
            continue;
        };
        let list: Vec<Flag> = args
            .iter()
            .map(|(k, v)| (k.clone(), c.scalar(file, &format!("{what}.{k}"), Some(v))))
            .collect();
        let place = move |comp: Component, flag: &str| Place::Rke {
            service: service.to_string(),
            flag: flag.trim_start_matches("--").to_string(),
            component: comp,
        };
        flags::apply(c, file, Some(component), &list, &place);
    }
}

/// RKE2/k3s `config.yaml`: each `*-arg` is a list of `name=value` (a single string is accepted, as
/// the CLI's string slice flag reads one); a map, or an entry that is not text, is reported.
fn k3s(c: &mut Collector, file: &str, map: &Map<String, Json>) {
    c.recognise_format(file, "RKE2/k3s config.yaml");
    for (key, component) in K3S_ARGS {
        let entries: Vec<String> = match map.get(key) {
            None | Some(Json::Null) => continue,
            Some(Json::Array(items)) => items
                .iter()
                .enumerate()
                .filter_map(|(i, v)| c.scalar(file, &format!("{key}[{i}]"), Some(v)))
                .collect(),
            Some(Json::Object(_)) => {
                c.wrong_type(file, key, &map[key], "import.type.entries");
                continue;
            }
            Some(v) => scalar(v).into_iter().collect(),
        };
        let list: Vec<Flag> = entries.iter().map(|e| flags::from_entry(e)).collect();
        let place = move |comp: Component, flag: &str| Place::Rke2 {
            key: key.to_string(),
            flag: flag.trim_start_matches("--").to_string(),
            component: comp,
        };
        flags::apply(c, file, Some(component), &list, &place);
    }
}

/// Kubespray `group_vars`: the variables above; `kube_version` names the version.
fn kubespray(c: &mut Collector, file: &str, map: &Map<String, Json>) {
    c.recognise_format(file, "kubespray group_vars");
    if let Some(v) = c.scalar(file, "kube_version", map.get("kube_version")) {
        c.claim_version(file, "kube_version", &v);
    }
    for (var, field, target) in KUBESPRAY {
        let Some(text) = c.scalar(file, var, map.get(var)) else {
            continue;
        };
        if is_template(&text) {
            c.template(file, var, &text);
            continue;
        }
        // Kubelet fields land in kubespray's kubelet-config.yaml (file semantics); the rest are flags.
        let layer = match target {
            KubesprayTarget::KubeletFile(_) => Layer::File,
            _ => Layer::Flag,
        };
        match field.parse(&text) {
            Ok(v) => c.set(
                field,
                layer,
                v,
                file,
                Place::Kubespray {
                    var: var.to_string(),
                    target,
                },
            ),
            Err(e) => c.malformed(file, var, &text, e),
        }
    }
}

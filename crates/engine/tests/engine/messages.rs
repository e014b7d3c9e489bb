//! Every message that validation and import give a reader goes through the catalogues: a key
//! that both `i18n/en.json` and `i18n/zh.json` have, a Chinese template of its own, and arguments
//! that are names, numbers, Go durations and values from files, never English sentences (a
//! parser's own words aside, which `parser.*` marks as theirs). The inputs below reach every
//! message key that the validation and import code names, so a new message without a Chinese
//! text, or a reason built as English text, fails here; the source scan at the end refuses a
//! message argument written as an English literal.

use crate::layering;
use kubelife_engine::cause::{parse_catalogue, Arg, Cause};
use kubelife_engine::flags;
use kubelife_engine::import::field::{Field, Tunable};
use kubelife_engine::import::{import, limits, type_of, Reader};
use kubelife_engine::{Scenario, Version};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Scenarios the validation refuses, one rule each: the body of the JSON object, with one node
/// `n1` added when the body names no nodes.
const REFUSED: &[&str] = &[
    r#""nodes": ["#,
    r#""banana": 1"#,
    r#""kubelet": {"nodeStatusUpdateFrequency": "16"}"#,
    r#""kubelet": {"nodeStatusUpdateFrequency": ""}"#,
    r#""kubelet": {"nodeStatusUpdateFrequency": "-"}"#,
    r#""kubelet": {"nodeStatusUpdateFrequency": "s"}"#,
    r#""kubelet": {"nodeStatusUpdateFrequency": "5x"}"#,
    r#""kubelet": {"nodeStatusUpdateFrequency": "999999999999999999999999999999999999999999h"}"#,
    r#""kubelet": {"nodeStatusUpdateFrequency": "9999999999999999999h"}"#,
    r#""kubelet": {"nodeStatusUpdateFrequency": "1us"}"#,
    r#""kubelet": {"nodeStatusUpdateFrequency": 10}"#,
    r#""version": "1.11""#,
    r#""version": "banana""#,
    r#""durationSeconds": 0"#,
    r#""controllerManager": {"nodeMonitorPeriod": "0s"}"#,
    r#""controllerManager": {"nodeMonitorPeriod": "25h"}"#,
    r#""simulation": {"podStartup": "2h"}"#,
    r#""simulation": {"monitorPassDuration": "11s"}"#,
    r#""kubelet": {"nodeLeaseDurationSeconds": 0}"#,
    r#""apiServer": {"defaultUnreachableTolerationSeconds": -1}"#,
    r#""controllerManager": {"unhealthyZoneThreshold": 1.5}"#,
    r#""controllerManager": {"nodeEvictionRate": -1}"#,
    r#""controllerManager": {"kubeApiQps": 0}"#,
    r#""version": "1.12", "kubelet": {"nodeStatusReportFrequency": "1m0s"}"#,
    r#""version": "1.19", "kubelet": {"shutdownGracePeriod": "30s"}"#,
    r#""version": "1.30", "controllerManager": {"podEvictionTimeout": "30s"}"#,
    r#""version": "1.29", "controllerManager": {"disableForceDetachOnTimeout": true}"#,
    r#""kubelet": {"shutdownGracePeriod": "10s", "shutdownGracePeriodCriticalPods": "20s"}"#,
    r#""version": "1.28", "kubeProxy": {"mode": "nftables"}"#,
    r#""kubeProxy": {"mode": "userspace"}"#,
    r#""nodes": []"#,
    r#""nodes": [{"name": "a"}, {"name": "a"}]"#,
    r#""nodes": [{"name": "Bad_Name"}]"#,
    r#""nodes": [{"name": "a", "maxPods": 0}]"#,
    r#""workloads": [{"kind": "DaemonSet", "name": "ds", "replicas": 3}]"#,
    r#""workloads": [{"kind": "Pod", "name": "p", "replicas": 2}]"#,
    r#""workloads": [{"kind": "Deployment", "name": "w"}, {"kind": "Deployment", "name": "w"}]"#,
    r#""workloads": [{"kind": "Deployment", "name": "w", "terminationGracePeriodSeconds": -1}]"#,
    r#""workloads": [{"kind": "Deployment", "name": "w", "replicas": 4000000}]"#,
    r#""workloads": [{"kind": "Deployment", "name": "w", "tolerations": [{"key": "k", "operator": "Maybe"}]}]"#,
    r#""workloads": [{"kind": "Deployment", "name": "w", "tolerations": [{"effect": "NoExecute"}]}]"#,
    r#""workloads": [{"kind": "Deployment", "name": "w", "tolerations": [{"key": "k", "operator": "Exists", "value": "v"}]}]"#,
    r#""workloads": [{"kind": "Deployment", "name": "w", "tolerations": [{"key": "k", "effect": "Sometimes"}]}]"#,
    r#""workloads": [{"kind": "Deployment", "name": "w", "tolerations": [{"key": "k", "effect": "NoSchedule", "tolerationSeconds": 5}]}]"#,
    r#""workloads": [{"kind": "Deployment", "name": "w", "volume": {"accessMode": "ReadOnlyMany"}}]"#,
    r#""workloads": [{"kind": "Deployment", "name": "w", "volume": {"perPod": true}}]"#,
    r#""workloads": [{"kind": "DaemonSet", "name": "w", "volume": {}}]"#,
    r#""workloads": [{"kind": "Deployment", "name": "w", "pdb": {"minAvailable": "half"}}]"#,
    r#""workloads": [{"kind": "Deployment", "name": "w", "pdb": {"minAvailable": -1}}]"#,
    r#""workloads": [{"kind": "Deployment", "name": "w", "pdb": {"minAvailable": 1, "maxUnavailable": 1}}]"#,
    r#""workloads": [{"kind": "Deployment", "name": "w", "pdb": {}}]"#,
    r#""version": "1.26", "workloads": [{"kind": "Deployment", "name": "w", "pdb": {"minAvailable": 1, "unhealthyPodEvictionPolicy": "AlwaysAllow"}}]"#,
    r#""workloads": [{"kind": "Deployment", "name": "w", "pdb": {"minAvailable": 1, "unhealthyPodEvictionPolicy": "Never"}}]"#,
    r#""workloads": [{"kind": "StatefulSet", "name": "db"}, {"kind": "Pod", "name": "db-0"}]"#,
    r#""version": "1.18", "featureGates": {"TaintBasedEvictions": false}"#,
    r#""version": "1.21", "featureGates": {"TaintBasedEvictions": false}"#,
    r#""version": "1.20", "featureGates": {"NodeOutOfServiceVolumeDetach": true}"#,
    r#""featureGates": {"MadeUp": true}"#,
    r#""events": [{"at": "-1s", "action": "NodeCrash", "node": "n1"}]"#,
    r#""durationSeconds": 60, "events": [{"at": "2m0s", "action": "NodeCrash", "node": "n1"}]"#,
    r#""events": [{"at": "1s", "action": "NodeCrash", "node": "ghost"}]"#,
    r#""events": [{"at": "1s", "action": "NodeCrash"}]"#,
    r#""events": [{"at": "1s", "action": "ControllerManagerRestart", "node": "n1"}]"#,
    r#""events": [{"at": "1s", "action": "NodeCrash", "node": "n1", "latencyMs": 4}]"#,
    r#""events": [{"at": "1s", "action": "PatchTolerations", "tolerationSeconds": 5}]"#,
    r#""events": [{"at": "1s", "action": "PatchTolerations", "workload": "ghost", "tolerationSeconds": 5}]"#,
    r#""workloads": [{"kind": "Deployment", "name": "w"}], "events": [{"at": "1s", "action": "PatchTolerations", "workload": "w"}]"#,
    r#""workloads": [{"kind": "Deployment", "name": "w"}], "events": [{"at": "1s", "action": "PatchTolerations", "workload": "w", "tolerationSeconds": -1}]"#,
    r#""events": [{"at": "1s", "action": "ForceDeletePod"}]"#,
    r#""events": [{"at": "1s", "action": "ForceDeletePod", "pod": "web-0"}]"#,
    r#""events": [{"at": "1s", "action": "ApiServerLatency"}]"#,
    r#""events": [{"at": "1s", "action": "ApiServerLatency", "latencyMs": 70000}]"#,
    r#""events": [{"at": "1s", "action": "OutOfServiceTaint", "node": "n1", "effect": "Sometimes"}]"#,
    r#""events": [{"at": "1s", "action": "ControllerManagerRestart", "duration": "11m"}]"#,
    r#""events": [{"at": "5s", "action": "NodeCrash", "node": "n1"}, {"at": "9s", "action": "NodeJoin", "node": "n1"}]"#,
    r#""events": [{"at": "1s", "action": "Explode", "node": "n1"}]"#,
    r#""cloud": {"provider": "aws", "vmCacheTtl": "1m"}"#,
    r#""cloud": {"provider": "aws", "nodeMonitorPeriod": "0s"}"#,
    r#""cloud": {"provider": "gcp", "managedNodeGroup": "SPOT"}"#,
    r#""cloud": {"provider": "aws", "managedNodeGroup": "spot"}"#,
    r#""remediation": [{"kind": "MachineHealthCheck", "unhealthyConditions": [{"type": "", "status": "True", "timeout": "1m"}]}]"#,
    r#""remediation": [{"kind": "MachineHealthCheck", "unhealthyConditions": [{"type": "Ready", "status": "Maybe", "timeout": "1m"}]}]"#,
    r#""remediation": [{"kind": "MachineHealthCheck", "maxUnhealthy": "lots"}]"#,
    r#""remediation": [{"kind": "MachineHealthCheck", "clusterApiVersion": "2"}]"#,
    r#""remediation": [{"kind": "SelfNodeRemediation", "strategy": "Pray"}]"#,
    r#""cloud": {"provider": "azure"}, "remediation": [{"kind": "AKSAutoRepair", "detectionDelay": "1m"}]"#,
    r#""remediation": [{"kind": "MachineHealthCheck"}, {"kind": "MachineHealthCheck"}]"#,
    r#""remediation": [{"kind": "GKEAutoRepair"}]"#,
    r#""events": [{"at": "1s", "action": "NodeCrash", "node": "n1", "notice": "30s"}]"#,
    r#""clients": [{"name": "c", "target": "ghost", "library": "linux"}]"#,
    r#""workloads": [{"kind": "Deployment", "name": "w"}], "clients": [{"name": "c", "target": "w", "library": "linux"}]"#,
    r#""workloads": [{"kind": "Deployment", "name": "w", "service": true}], "clients": [{"name": "c", "target": "w", "library": "curl"}]"#,
    r#""workloads": [{"kind": "Deployment", "name": "w", "service": true}], "clients": [{"name": "c", "target": "w", "library": "linux", "from": "ghost"}]"#,
    r#""nodes": [{"name": "n1"}, {"name": "n2"}], "events": [{"at": "5s", "action": "NodeJoin", "node": "n2"}], "workloads": [{"kind": "Deployment", "name": "w", "service": true}], "clients": [{"name": "c", "target": "w", "library": "linux", "from": "n2"}]"#,
    r#""workloads": [{"kind": "Deployment", "name": "w", "service": true}], "events": [{"at": "5s", "action": "NodeCrash", "node": "n1"}], "clients": [{"name": "c", "target": "w", "library": "linux"}]"#,
    r#""workloads": [{"kind": "Deployment", "name": "w", "service": true}], "clients": [{"name": "c", "target": "w", "library": "linux", "requestsPerSecond": 0}]"#,
    r#""workloads": [{"kind": "Deployment", "name": "w", "service": true}], "clients": [{"name": "c", "target": "w", "library": "linux", "from": "external"}]"#,
    r#""workloads": [{"kind": "Deployment", "name": "w", "service": true}], "clients": [{"name": "c", "target": "w", "library": "envoy", "from": "external"}]"#,
    r#""workloads": [{"kind": "Deployment", "name": "w", "service": {"type": "NodePort"}}]"#,
    r#""workloads": [{"kind": "Deployment", "name": "w", "service": {"type": "LoadBalancer", "externalTrafficPolicy": "Node"}}]"#,
    r#""workloads": [{"kind": "Deployment", "name": "w", "service": {"type": "LoadBalancer", "loadBalancer": "f5"}}]"#,
    r#""workloads": [{"kind": "Deployment", "name": "w", "service": {"loadBalancer": "azure"}}]"#,
    r#""workloads": [{"kind": "Deployment", "name": "w", "service": {"type": "LoadBalancer", "loadBalancer": "azure"}}], "cloud": {"provider": "aws"}"#,
    r#""workloads": [{"kind": "Deployment", "name": "w", "service": {"type": "LoadBalancer"}}]"#,
    r#""workloads": [{"kind": "Deployment", "name": "w", "service": true}], "clients": [{"name": "c", "target": "w", "library": "linux", "goVersion": "1.22"}]"#,
    r#""workloads": [{"kind": "Deployment", "name": "w", "service": true}], "clients": [{"name": "c", "target": "w", "library": "go-http", "goVersion": "2.0"}]"#,
    r#""workloads": [{"kind": "Deployment", "name": "w", "service": true}], "clients": [{"name": "c", "target": "w", "library": "grpc-go", "idleConnTimeout": "1s"}]"#,
    r#""workloads": [{"kind": "Deployment", "name": "w", "service": true}], "clients": [{"name": "c", "target": "w", "library": "ingress-nginx", "tcpUserTimeout": "1s"}]"#,
    r#""workloads": [{"kind": "Deployment", "name": "w", "service": true}], "clients": [{"name": "c", "target": "w"}]"#,
    r#""workloads": [{"kind": "Deployment", "name": "w", "service": true}], "clients": [{"name": "c", "target": "w", "library": "linux", "resolver": "musl"}]"#,
    r#""clients": [{"name": "c", "target": "kube-dns", "library": "linux"}]"#,
    r#""clients": [{"name": "c", "target": "kube-dns", "requestTimeout": "1s"}]"#,
    r#""clients": [{"name": "c", "target": "kube-dns", "resolver": "bionic"}]"#,
    r#""clients": [{"name": "c", "target": "kube-dns", "lookup": "srv"}]"#,
    r#""nodes": [{"name": "n1"}], "dns": {"nodes": ["ghost"]}"#,
    r#""nodes": [{"name": "n1"}, {"name": "n2"}], "events": [{"at": "5s", "action": "NodeJoin", "node": "n2"}], "dns": {"nodes": ["n2"]}"#,
    r#""nodes": [{"name": "n1"}, {"name": "n2"}], "dns": {"coreDnsReplicas": 1, "nodes": ["n1", "n2"]}"#,
    r#""workloads": [{"kind": "Deployment", "name": "coredns"}], "dns": {}"#,
];

/// Scenarios the validation accepts with a warning, one warning each (same form as [`REFUSED`]).
const WARNED: &[&str] = &[
    r#""version": "1.13", "kubelet": {"nodeStatusReportFrequency": "1m0s"}"#,
    r#""version": "1.20", "kubelet": {"shutdownGracePeriod": "30s"}"#,
    r#""version": "1.35", "kubeProxy": {"mode": "ipvs"}"#,
    r#""version": "1.25", "controllerManager": {"enableTaintManager": true}"#,
    r#""version": "1.20", "controllerManager": {"podEvictionTimeout": "30s"}"#,
    r#""version": "1.16", "featureGates": {"TaintBasedEvictions": false}"#,
    r#""version": "1.19", "featureGates": {"NodeLease": true}"#,
    r#""version": "1.12", "featureGates": {"NodeLease": true}"#,
    r#""version": "1.24", "events": [{"at": "1s", "action": "OutOfServiceTaint", "node": "n1"}]"#,
    r#""cloud": {"provider": "azure"}, "remediation": [{"kind": "KarpenterNodeRepair", "interruptionQueue": true}]"#,
    r#""events": [{"at": "1s", "action": "InstanceTerminated", "node": "n1"}]"#,
    r#""cloud": {"provider": "gcp"}, "events": [{"at": "1s", "action": "SpotInterruption", "node": "n1"}]"#,
    r#""cloud": {"provider": "aws"}, "remediation": [{"kind": "KarpenterNodeRepair"}]"#,
];

/// Files an import reads, each with a problem of its own (the fixtures add more).
const FILES: &[(&str, &str)] = &[
    ("flags.txt", "--node-monitor-grace-period=16 --node-eviction-rate=abc --max-pods=x --unknown=1 stray --node-monitor-period"),
    ("kcm.txt", "kube-controller-manager --enable-taint-manager=maybe --feature-gates=TaintBasedEvictions=maybe \"--node-monitor-period=5 s\" --node-startup-grace-period=1m\t --unknown=1 stray"),
    ("long.txt", "--node-monitor-period=1111111111111111111111111111111111111111111111111111111111111111111111s"),
    ("kubeadm-flags.env", "KUBELET_KUBEADM_ARGS=\"--node-status-update-frequency=100ms\""),
    ("kubelet.env", "KUBELET_EXTRA_ARGS=\"--node-status-update-frequency=4s\""),
    ("wrong.txt", "kubelet --node-monitor-grace-period=40s"),
    ("kubelet.yaml", "apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nnodeStatusUpdateFrequency: [1]\nnodeLeaseDurationSeconds: 0\nshutdownGracePeriod: \"${grace}\"\nfeatureGates: 5\ncgroupDriver: systemd\n"),
    ("gates.yaml", "apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nfeatureGates: {NodeLease: maybe, Other: true}\nnodeStatusReportFrequency: 20m\n"),
    ("kubeadm.yaml", "apiVersion: kubeadm.k8s.io/v1beta4\nkind: ClusterConfiguration\nkubernetesVersion: v1.99.0\ncontrollerManager:\n  extraArgs:\n  - value: \"1\"\n  - name: node-monitor-period\n    value: [1]\napiServer:\n  extraArgs: 5\nscheduler: [1]\n---\napiVersion: kubeadm.k8s.io/v1beta4\nkind: JoinConfiguration\nnodeRegistration:\n  kubeletExtraArgs:\n    max-pods: \"12\"\n"),
    ("kubeadm-cm.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: kubeadm-config}\ndata: {}\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: kubelet-config}\ndata:\n  kubelet: \"a: [\"\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: kubelet-config-1.21}\ndata:\n  kubelet: \"a: 1\\n---\\nb: 2\\n\"\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: other}\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: kubelet-config}\ndata:\n  kubelet: \"nodeStatusUpdateFrequency: 4s\\n\"\n"),
    ("nodes.json", r#"{"kind": "NodeList", "items": [
        {"metadata": {}},
        {"metadata": {"name": "Bad_Node"}},
        {"metadata": {"name": "n1", "labels": 5}, "status": {"allocatable": {"pods": "x"}, "nodeInfo": {"kubeletVersion": 7}}},
        {"metadata": {"name": "n2", "labels": {"topology.kubernetes.io/zone": 7, "node.kubernetes.io/exclude-disruption": "-bad-"}}, "status": {"nodeInfo": {"kubeletVersion": "v1.30.1"}}},
        {"metadata": {"name": "n3"}, "status": {"nodeInfo": {"kubeletVersion": "v1.31.0"}}},
        {"metadata": {"name": "n3"}, "status": {"nodeInfo": {"kubeletVersion": "v1.31.0"}}}]}"#),
    ("workloads.json", r#"{"kind": "List", "items": [
        {"kind": "Deployment", "metadata": {"namespace": "a"}},
        {"kind": "Deployment", "metadata": {"name": "web", "namespace": "a"}, "spec": {"replicas": "x", "template": {"spec": {"terminationGracePeriodSeconds": "x", "tolerations": [{"key": "bad key!"}, {"key": "k", "value": "bad value!"}, {"tolerationSeconds": "x"}]}}}},
        {"kind": "Deployment", "metadata": {"name": "web", "namespace": "b"}, "spec": {"replicas": 2}},
        {"kind": "DaemonSet", "metadata": {"name": "ds", "namespace": "Bad_NS"}},
        {"kind": "DaemonSet", "metadata": {"name": "agent"}},
        {"kind": "Pod", "metadata": {"name": "owned", "ownerReferences": [{"kind": "ReplicaSet"}]}},
        {"kind": "Service", "metadata": {"name": "svc"}},
        {"apiVersion": "machineconfiguration.openshift.io/v1", "kind": "KubeletConfig", "metadata": {"name": "k"}},
        {"kind": "StatefulSet", "metadata": {"name": "db"}, "spec": {"replicas": 1}},
        {"kind": "Pod", "metadata": {"name": "db-0"}},
        5]}"#),
    ("static-pod.yaml", "apiVersion: v1\nkind: Pod\nmetadata: {name: kcm}\nspec:\n  containers:\n  - image: registry.k8s.io/kube-controller-manager:v1.30.2\n    command: [kube-controller-manager, --node-monitor-period=2s, 7]\n"),
    ("fragment.yaml", "command: [kube-controller-manager, --node-eviction-rate=2]\nargs: 5\n"),
    ("rke.yml", "kubernetes_version: ${k8s}\nservices:\n  kube-controller:\n    extra_args:\n      node-monitor-grace-period: 50s\n      pod-eviction-timeout: [1]\n  kubelet: 5\n"),
    ("k3s.yaml", "kubelet-arg:\n  - node-status-update-frequency=4s\n  - [1]\nkube-controller-manager-arg: {a: b}\n"),
    ("kubespray.yml", "kube_version: banana\nkubelet_max_pods: x\nkube_controller_node_monitor_period: \"{{ period }}\"\n"),
    ("unknown.yaml", "a: 1\n"),
    ("scalar.yaml", "5\n"),
    ("empty.yaml", "   \n"),
    ("typed.yaml", "kind: [1]\napiVersion: 2\n"),
    ("items.json", r#"{"kind": "List", "items": 5}"#),
    ("broken.yaml", "kind: Node\nmetadata:\n  name: n1\n  labels: {a: [\n"),
    ("broken.json", r#"{"kind": "Node", "metadata": {"name": "n1"}} {"kind": "#),
    ("neither.json", "{\"a\": 1,, }"),
    ("nul.yaml", "kind: \u{0}"),
];

/// The two catalogues, as the page and the command line read them: Chinese in one file, English
/// with its import report's part apart (`import-en.json`).
struct Catalogues {
    en: BTreeMap<String, String>,
    zh: BTreeMap<String, String>,
}

impl Catalogues {
    fn read() -> Catalogues {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../i18n");
        let read = |lang: &str| {
            let mut all = BTreeMap::new();
            let files = match lang {
                "en" => vec!["en.json", "import-en.json", "later-en.json", "clients-en.json"],
                _ => vec!["zh.json"],
            };
            for file in files {
                let text = std::fs::read_to_string(dir.join(file)).expect("a catalogue");
                all.extend(parse_catalogue(&text).expect("a catalogue parses"));
            }
            all
        };
        Catalogues {
            en: read("en"),
            zh: read("zh"),
        }
    }
}

/// What the messages reached, and what is wrong with them.
#[derive(Default)]
struct Found {
    keys: BTreeSet<&'static str>,
    problems: BTreeSet<String>,
}

/// Checks one message and the messages nested in it: each key is in both catalogues, its Chinese
/// template is not the English one (unless that has no words of its own, as `{path}`), and no
/// text argument is an English sentence, a parser's own words aside.
fn check(found: &mut Found, cats: &Catalogues, origin: &str, c: &Cause) {
    found.keys.insert(c.key);
    let (en, zh) = (cats.en.get(c.key), cats.zh.get(c.key));
    match (en, zh) {
        (Some(en), Some(zh)) if en == zh && has_words(en) => {
            found
                .problems
                .insert(format!("{}: the Chinese text is the English one ({origin})", c.key));
        }
        (Some(_), Some(_)) => {}
        _ => {
            found
                .problems
                .insert(format!("{}: missing from a catalogue ({origin})", c.key));
        }
    }
    for (name, a) in &c.args {
        match a {
            Arg::Cause(inner) => check(found, cats, origin, inner),
            Arg::Text(t) if !c.key.starts_with("parser.") && is_sentence(t) => {
                let problem = format!("{}: argument {name} is English text {t:?} ({origin})", c.key);
                found.problems.insert(problem);
            }
            Arg::Text(_) | Arg::Time(_) => {}
        }
    }
}

/// Whether a template says something beyond its holes.
fn has_words(template: &str) -> bool {
    let mut rest = template;
    let mut text = String::new();
    while let Some(i) = rest.find('{') {
        text.push_str(&rest[..i]);
        rest = rest[i..].split_once('}').map_or("", |(_, tail)| tail);
    }
    text.push_str(rest);
    text.chars().any(|c| c.is_alphabetic())
}

/// Whether a text reads as an English sentence: three lowercase words in a row.
fn is_sentence(text: &str) -> bool {
    let mut run = 0;
    for word in text.split_whitespace() {
        let word = word.trim_matches(|c: char| ",;:.()'\"".contains(c));
        run = if !word.is_empty() && word.chars().all(|c| c.is_ascii_lowercase()) {
            run + 1
        } else {
            0
        };
        if run == 3 {
            return true;
        }
    }
    false
}

/// A scenario's JSON from a body of [`REFUSED`] or [`WARNED`].
fn scenario(body: &str) -> String {
    match body.contains("\"nodes\"") {
        true => format!("{{{body}}}"),
        false => format!(r#"{{"nodes": [{{"name": "n1"}}], {body}}}"#),
    }
}

/// Scenarios too large to write out: too many nodes, too many heartbeats.
fn large_scenarios() -> Vec<String> {
    let nodes = |n: usize| {
        let list: Vec<String> = (0..n).map(|i| format!(r#"{{"name": "n{i}"}}"#)).collect();
        list.join(",")
    };
    vec![
        format!(r#"{{"nodes": [{}]}}"#, nodes(10_001)),
        format!(
            r#"{{"durationSeconds": 21600, "kubelet": {{"nodeStatusUpdateFrequency": "100ms"}}, "nodes": [{}]}}"#,
            nodes(5000)
        ),
        format!(
            r#"{{"cloud": {{"provider": "aws"}}, "nodes": [{}], "workloads": [{{"kind": "Deployment", "name": "w", "replicas": 3, "service": {{"type": "LoadBalancer", "loadBalancer": "aws-nlb-ip"}}}}], "clients": [{{"name": "c", "target": "w", "library": "linux", "from": "external"}}]}}"#,
            nodes(1001)
        ),
    ]
}

/// The reason of every refused scenario and the warnings of every accepted one.
fn validation(found: &mut Found, cats: &Catalogues) {
    let refused = REFUSED.iter().map(|b| scenario(b)).chain(large_scenarios());
    for json in refused {
        let origin = json.chars().take(120).collect::<String>();
        match Scenario::from_json(&json).and_then(|s| s.resolve()) {
            Ok(_) => {
                found.problems.insert(format!("accepted: {origin}"));
            }
            Err(e) => check(found, cats, &origin, &e.reason),
        }
    }
    for body in WARNED {
        let json = scenario(body);
        let cfg = Scenario::from_json(&json).and_then(|s| s.resolve());
        match cfg {
            Ok(cfg) if !cfg.warnings.is_empty() => cfg.warnings.iter().for_each(|w| check(found, cats, body, w)),
            _ => {
                found.problems.insert(format!("no warning: {body}"));
            }
        }
    }
    // Why each version lacks each setting it lacks, as validation and the flag test give it.
    for f in flags::ALL.iter() {
        for v in Version::supported().filter(|v| !f.exists_in(&v.profile())) {
            check(found, cats, f.name, &f.refusal(v));
        }
    }
    for text in ["1.x", "1.99"] {
        check(found, cats, text, &Version::parse(text).expect_err("refused"));
    }
}

/// Every fixture file of the import tests, by name.
fn fixtures() -> Vec<(String, Vec<u8>)> {
    fn walk(dir: &Path, out: &mut Vec<(String, Vec<u8>)>) {
        for entry in std::fs::read_dir(dir).expect("the fixtures") {
            let path = entry.expect("an entry").path();
            match path.is_dir() {
                true => walk(&path, out),
                false => out.push((
                    path.file_name().unwrap_or_default().to_string_lossy().into_owned(),
                    std::fs::read(&path).expect("a fixture"),
                )),
            }
        }
    }
    let mut out = Vec::new();
    walk(&Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures"), &mut out);
    out.sort();
    out
}

/// The report of every file read alone, for the command line and for the page, and of a few
/// imports of several files; and the messages an import gives without reading a file.
fn imports(found: &mut Found, cats: &Catalogues) {
    let mut files: Vec<(String, Vec<u8>)> = FILES
        .iter()
        .map(|(n, t)| (n.to_string(), t.as_bytes().to_vec()))
        .collect();
    files.extend(generated());
    files.extend(fixtures());
    let mut report = |origin: &str, batch: &[(&str, &[u8])], reader: Reader| {
        for e in import(batch, reader).report.entries {
            check(found, cats, origin, &Cause::new(e.kind.key()));
            check(found, cats, origin, &e.cause);
        }
    };
    for (name, bytes) in &files {
        for reader in [Reader::Cli(None), Reader::Page(Version::default())] {
            report(name, &[(name.as_str(), bytes.as_slice())], reader);
        }
    }
    let all: Vec<(&str, &[u8])> = files.iter().map(|(n, b)| (n.as_str(), b.as_slice())).collect();
    report("all", &all, Reader::Cli(Some("1.31")));
    report("bad --version", &all[..2], Reader::Cli(Some("banana")));
    report(
        "--version alone",
        &[("empty.yaml", b"".as_slice())],
        Reader::Cli(Some("1.31")),
    );
    report("none", &[], Reader::Cli(None));
    report(
        "nodes",
        &[("nodes.json", many_nodes(10_001).as_bytes())],
        Reader::Cli(None),
    );
    report(
        "items",
        &[("items.json", many_items(20_001).as_bytes())],
        Reader::Cli(None),
    );
    let ticks = [("ticks.env", "--node-status-update-frequency=10ms".as_bytes())];
    let nodes = many_nodes(2000);
    report(
        "ticks",
        &[ticks[0], ("nodes.json", nodes.as_bytes())],
        Reader::Cli(None),
    );
    // The control plane's version from an image tag, the kubelets' from the nodes.
    let skew: Vec<(&str, &[u8])> = FILES
        .iter()
        .filter(|(n, _)| ["static-pod.yaml", "nodes.json"].contains(n))
        .map(|(n, t)| (*n, t.as_bytes()))
        .collect();
    report("skew", &skew, Reader::Cli(None));
    // The page's summary of a report whose lines repeat (`Report::summarised`): in one file, and
    // in more files than a summary line names.
    let config_map = |i: usize| format!("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c{i}\n");
    let repeated: Vec<(String, String)> = (0..9).map(|i| (format!("cm-{i}.yaml"), config_map(i))).collect();
    let twice = [config_map(0), config_map(1)].join("---\n");
    let batches: [Vec<(&str, &str)>; 2] = [
        vec![("twice.yaml", twice.as_str())],
        repeated.iter().map(|(n, t)| (n.as_str(), t.as_str())).collect(),
    ];
    for batch in &batches {
        for e in import(batch, Reader::Cli(None)).report.summarised(1) {
            check(found, cats, "summarised", &e.cause);
        }
    }
    // Limits the files here would take long to reach, and the names of every type a value has.
    let mut direct = vec![limits::too_many_nodes(), limits::too_many_yaml_nodes(1)];
    direct.extend([Some(200 << 20), None].map(|size| limits::too_large("big.json", size)));
    let json: serde_json::Value = serde_json::json!([null, true, 1, "a", [], {}]);
    direct.extend(json.as_array().into_iter().flatten().map(type_of));
    for c in &direct {
        check(found, cats, "direct", c);
    }
    // A reader the import has but no file reaches yet: kube-proxy's mode.
    let reasons = [
        Field::Setting(Tunable(&flags::PROXY_MODE)).parse("userspace"),
        Field::Setting(Tunable(&flags::NODE_MONITOR_PERIOD)).parse("5s\u{1b}"),
    ];
    for reason in reasons {
        check(found, cats, "parse", &reason.expect_err("refused"));
    }
}

/// Files too long or too binary to write out: a file whose nesting is refused after a document
/// it keeps, more duplicate keys and YAML tags than a report lists, broken UTF-16 and UTF-32, and
/// a broken YAML file too large to read again line by line.
fn generated() -> Vec<(String, Vec<u8>)> {
    let repeat = |line: &str, n: usize| (0..n).map(|i| line.replace('#', &i.to_string())).collect::<String>();
    let texts = [
        (
            "deep.yaml",
            format!("kind: Node\nmetadata: {{name: n1}}\n---\na: {}", "[".repeat(200)),
        ),
        (
            "dups.yaml",
            format!("metadata:\n  labels:\n{}", repeat("    a: #\n", 12)),
        ),
        ("tags.yaml", repeat("x#: !Ref 1\n", 12)),
        (
            "huge.yaml",
            format!("kind: Node\n---\n#{}\nb: [\n", "x".repeat(1 << 20)),
        ),
    ];
    let mut out: Vec<(String, Vec<u8>)> = texts
        .into_iter()
        .map(|(n, t)| (n.to_string(), t.into_bytes()))
        .collect();
    out.push(("utf16.txt".into(), vec![0xff, 0xfe, b'a', 0, b'b']));
    out.push(("utf32.txt".into(), vec![0xff, 0xfe, 0, 0, b'a', 0, 0, 0]));
    out
}

/// A NodeList of `n` nodes.
fn many_nodes(n: usize) -> String {
    let items: Vec<String> = (0..n)
        .map(|i| format!(r#"{{"metadata": {{"name": "n{i}"}}}}"#))
        .collect();
    format!(r#"{{"kind": "NodeList", "items": [{}]}}"#, items.join(","))
}

/// A List of `n` items of a kind kubelife does not read.
fn many_items(n: usize) -> String {
    let items = vec![r#"{"kind": "Secret"}"#; n];
    format!(r#"{{"kind": "List", "items": [{}]}}"#, items.join(","))
}

/// The sources whose messages this test reaches: validation, import, versions, durations and
/// the parsers' words.
fn message_sources() -> Vec<(String, String)> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut paths = Vec::new();
    layering::walk(&src.join("scenario"), &mut paths);
    layering::walk(&src.join("import"), &mut paths);
    paths.extend(["version.rs", "time.rs", "cause.rs"].map(|f| src.join(f)));
    paths.sort();
    let read = |p: &PathBuf| {
        let text = std::fs::read_to_string(p).expect("a source");
        let code = text.split("#[cfg(test)]").next().unwrap_or("").to_string();
        (p.display().to_string(), code)
    };
    paths
        .iter()
        .filter(|p| p.extension().is_some_and(|e| e == "rs"))
        .map(read)
        .collect()
}

/// The message keys a source names: string literals such as `"scenario.nodes.none"`.
fn named_keys(code: &str) -> BTreeSet<String> {
    let families = ["scenario.", "import.", "duration.", "version.", "parser.", "warn."];
    let mut keys = BTreeSet::new();
    for literal in code.split('"').skip(1).step_by(2) {
        let is_key = literal
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || "._".contains(c));
        if is_key && families.iter().any(|f| literal.starts_with(f)) && !literal.ends_with('.') {
            keys.insert(literal.to_string());
        }
    }
    keys
}

#[test]
fn every_validation_and_import_message_reads_in_chinese() {
    let cats = Catalogues::read();
    let mut found = Found::default();
    validation(&mut found, &cats);
    imports(&mut found, &cats);
    let problems: Vec<&String> = found.problems.iter().collect();
    assert!(
        problems.is_empty(),
        "{} messages a reader sees in English:\n{problems:#?}",
        problems.len()
    );
    // A build without clients refuses a scenario with clients before their own checks run.
    let gated = |path: &str| cfg!(not(feature = "clients")) && path.ends_with("client_rules.rs");
    let named: BTreeSet<String> = message_sources()
        .iter()
        .filter(|(path, _)| !gated(path))
        .flat_map(|(_, code)| named_keys(code))
        .collect();
    // `scenario.client.unavailable` is reached only where the engine runs without clients (the
    // page's build: `tests/web.rs` reaches it there), and the clients' own checks only with them.
    let other_build = |k: &str| match cfg!(feature = "clients") {
        true => k == "scenario.client.unavailable",
        false => {
            ["scenario.client.", "scenario.dns.", "scenario.service."]
                .iter()
                .any(|p| k.starts_with(p))
                && k != "scenario.client.unavailable"
        }
    };
    let unreached: Vec<&String> = named
        .iter()
        .filter(|k| !found.keys.contains(k.as_str()) && !other_build(k))
        .collect();
    assert!(
        unreached.is_empty(),
        "message keys no input here reaches: {unreached:?}"
    );
}

/// The check refuses what validation and import gave before they spoke through keys: a reason
/// as English text inside a report's line, and a key that no catalogue has.
#[test]
fn the_check_refuses_english_reasons_and_unknown_keys() {
    let cats = Catalogues::read();
    let mut found = Found::default();
    let old = Cause::new("import.invalid")
        .text("file", "nodes.json")
        .text("field", "nodes")
        .text("reason", "a scenario needs at least one node");
    check(&mut found, &cats, "old", &old);
    check(&mut found, &cats, "old", &Cause::new("scenario.no_such_message"));
    assert_eq!(found.problems.len(), 2, "{:?}", found.problems);
}

/// The calls whose arguments become what a reader sees.
const MESSAGE_CALLS: [&str; 12] = [
    "bad(",
    ".text(",
    ".shown(",
    ".shown_up_to(",
    ".with(",
    ".sub(",
    ".malformed(",
    ".template(",
    ".recognise_format(",
    ".ignore_names(",
    "Said(",
    "Cause::parser(",
];

/// The English literals among a message call's arguments in `code`: a string literal (in
/// `format!` too) that holds two lowercase words in a row, as `"not a count"` or
/// `format!("{what} command line")`. Catalogue keys, names and paths hold no space.
fn english_literals(code: &str) -> Vec<String> {
    let code: String = code
        .lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n");
    let mut out = Vec::new();
    for call in MESSAGE_CALLS {
        for (i, _) in code.match_indices(call) {
            let before = code[..i].chars().next_back();
            if call == "bad(" && before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
                continue;
            }
            let args = arguments(&code[i + call.len()..]);
            for literal in args.split('"').skip(1).step_by(2) {
                let words: Vec<&str> = literal.split(' ').collect();
                let lower = |w: &str| !w.is_empty() && w.chars().all(|c| c.is_ascii_lowercase());
                if words.windows(2).any(|p| lower(p[0]) && lower(p[1])) {
                    out.push(format!("{call}{}", args.trim()));
                }
            }
        }
    }
    out
}

/// The text of a call's arguments, up to its closing parenthesis, with escaped quotes removed.
fn arguments(tail: &str) -> String {
    let mut depth = 0;
    let mut in_string = false;
    let mut prev = ' ';
    for (i, c) in tail.char_indices() {
        match c {
            '"' if prev != '\\' => in_string = !in_string,
            '(' if !in_string => depth += 1,
            ')' if !in_string && depth == 0 => return tail[..i].replace("\\\"", ""),
            ')' if !in_string => depth -= 1,
            _ => {}
        }
        prev = c;
    }
    tail.replace("\\\"", "")
}

#[test]
fn no_message_is_built_from_an_english_literal() {
    let sources = message_sources();
    let found: Vec<String> = sources
        .iter()
        .flat_map(|(file, code)| english_literals(code).into_iter().map(move |l| format!("{file}: {l}")))
        .collect();
    assert!(
        found.is_empty(),
        "messages written as English text, not a catalogue key:\n{found:#?}"
    );
    // The scan sees what validation and import wrote before they spoke through keys.
    for old in [
        r#"return Err(bad("nodes", "a scenario needs at least one node"));"#,
        r#"Err(bad(field, format!("{name:?} is not a valid name")))"#,
        r#"c.malformed(file, key, &text, "not a single value");"#,
        r#"c.recognise_format(file, &format!("{what} command line"));"#,
        r#"Err(Unread::Said(format!("{n} YAML documents where one was expected")))"#,
    ] {
        assert_eq!(english_literals(old).len(), 1, "{old}");
    }
    assert!(english_literals(r#"bad(f, Cause::new("scenario.nodes.none").text("name", "node-1"))"#).is_empty());
}

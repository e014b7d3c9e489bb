//! Import: the project's hand-written fixtures (one or more of every format the import reads) and
//! the shared ones (real files people published, in `../shared/fixtures/import` when it is beside
//! the checkout) each give the scenario their format's documentation says; import(export(settings))
//! gives the settings back on every version; garbage and truncated files give a report, never a
//! panic.

use kubelife_engine::export::{export, Format};
use kubelife_engine::import::{EntryKind, Reader, Report};
use kubelife_engine::scenario::{
    ApiServerSection, ControllerManagerSection, GoDuration, KubeletSection, NodeSection, Scenario,
};
use kubelife_engine::version::{Gate, Version};
use proptest::prelude::*;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

#[path = "../support/shared_fixtures.rs"]
mod shared_fixtures;

/// `../shared/fixtures/import` beside the checkout, when it is there; else `None`, and one line
/// says that `test` was skipped.
fn shared(test: &str) -> Option<PathBuf> {
    let checkout = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    shared_fixtures::shared_import_fixtures(&checkout, test)
}

fn own() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/import")
}

/// `kubelife import`'s reading of files (name, text) for `--version`.
fn import(files: &[(&str, &str)], version: Option<&str>) -> (Scenario, Report) {
    let read = kubelife_engine::import::import(files, Reader::Cli(version));
    (read.scenario, read.report)
}

/// Every file under `dir`, sorted, but SOURCES.md.
fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let p = entry.unwrap().path();
        if p.is_dir() {
            out.extend(files_under(&p));
        } else if p.file_name().is_some_and(|n| n != "SOURCES.md") {
            out.push(p);
        }
    }
    out.sort();
    out
}

fn read(p: &Path) -> String {
    String::from_utf8_lossy(&std::fs::read(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))).into_owned()
}

/// Imports files (a directory stands for every file in it).
fn import_paths(paths: &[PathBuf], version: Option<&str>) -> (Scenario, Report) {
    let all: Vec<PathBuf> = paths
        .iter()
        .flat_map(|p| if p.is_dir() { files_under(p) } else { vec![p.clone()] })
        .collect();
    let texts: Vec<(String, String)> = all
        .iter()
        .map(|p| (p.file_name().unwrap().to_string_lossy().into_owned(), read(p)))
        .collect();
    let files: Vec<(&str, &str)> = texts.iter().map(|(n, t)| (n.as_str(), t.as_str())).collect();
    import(&files, version)
}

/// A scenario written as JSON, read by the scenario format itself.
fn scenario(v: Value) -> Scenario {
    Scenario::from_json(&v.to_string()).unwrap_or_else(|e| panic!("expected scenario is valid JSON: {e}"))
}

/// `expected` on the page's default cluster, as an import of files without nodes gives it: the
/// three nodes of `presets::default_cluster`, each with the kubelet's `maxPods` when the files
/// set one, and its workloads unless `expected` has its own.
fn on_default_cluster(mut expected: Value, max_pods: Option<u32>) -> Value {
    let version = expected["version"]
        .as_str()
        .map_or_else(|| Version::default().to_string(), str::to_string);
    let cluster = kubelife_engine::presets::default_cluster(&version);
    let mut nodes = serde_json::to_value(&cluster.nodes).unwrap();
    for n in nodes.as_array_mut().unwrap() {
        if let Some(m) = max_pods {
            n["maxPods"] = json!(m);
        }
    }
    expected["nodes"] = nodes;
    if expected.get("workloads").is_none() {
        expected["workloads"] = serde_json::to_value(&cluster.workloads).unwrap();
    }
    expected
}

/// What a report must say: the kinds of entry it must have, and words each of those has.
type Says<'a> = &'a [(EntryKind, &'a str)];

/// `expected` with the page's default fault on its first node where it has no events of its
/// own, as every import gives it (no file gives a fault).
fn with_default_fault(mut expected: Value) -> Value {
    let first = expected["nodes"][0]["name"].as_str().map(str::to_string);
    if let (Some(first), None) = (first, expected.get("events")) {
        let mut fault = kubelife_engine::presets::default_cluster("1.31").events.remove(0);
        fault.node = Some(first);
        expected["events"] = json!([fault]);
    }
    expected
}

fn check(label: &str, (got, report): (Scenario, Report), expected: Value, says: Says) {
    assert_eq!(
        got,
        scenario(with_default_fault(expected)),
        "{label}: scenario differs\nreport:\n{}",
        report.text()
    );
    for (kind, words) in says {
        assert!(
            report.of(*kind).any(|c| c.english().contains(words)),
            "{label}: the report has no {kind:?} entry saying {words:?}\nreport:\n{}",
            report.text()
        );
    }
    // Whatever was imported runs as it is.
    if let Err(e) = got.resolve() {
        panic!(
            "{label}: the imported scenario does not resolve: {e}\nreport:\n{}",
            report.text()
        );
    }
}

/// One expectation per fixture (or group of them), from the formats' documentation.
struct Case {
    paths: &'static [&'static str],
    version: Option<&'static str>,
    expected: fn() -> Value,
    says: &'static [(EntryKind, &'static str)],
}

/// Checks that every file under `dir` has a case, then every case.
fn check_cases(dir: &Path, cases: &[Case]) {
    for file in files_under(dir) {
        let covered = cases
            .iter()
            .any(|c| c.paths.iter().any(|p| file.starts_with(dir.join(p))));
        assert!(covered, "{} has no expected scenario here", file.display());
    }
    for c in cases {
        let paths: Vec<PathBuf> = c.paths.iter().map(|p| dir.join(p)).collect();
        let label = format!("{:?} --version {:?}", c.paths, c.version);
        check(&label, import_paths(&paths, c.version), (c.expected)(), c.says);
    }
}

/// The project's own fixtures: at least one of every format the import reads; first the
/// kubelet's configuration files.
fn own_kubelet_config_cases() -> Vec<Case> {
    use EntryKind::*;
    vec![
        // A KubeletConfiguration that sets nodeStatusUpdateFrequency alone: the report frequency
        // follows it (SetDefaults_KubeletConfiguration), so the scenario leaves it unwritten. No
        // nodes: the page's default cluster, with the file's maxPods, and its workloads.
        Case {
            paths: &["kubelet-config.yaml"],
            version: None,
            expected: || {
                json!({"kubelet": {"nodeStatusUpdateFrequency": "6s", "nodeLeaseDurationSeconds": 24,
                                   "shutdownGracePeriod": "45s", "shutdownGracePeriodCriticalPods": "15s"},
                       "featureGates": {"GracefulNodeShutdown": true},
                       "nodes": [{"name": "node-1", "zone": "zone-a", "maxPods": 90},
                                 {"name": "node-2", "zone": "zone-b", "maxPods": 90},
                                 {"name": "node-3", "zone": "zone-c", "maxPods": 90}],
                       "workloads": [{"kind": "Deployment", "name": "web", "replicas": 3},
                                     {"kind": "StatefulSet", "name": "db", "replicas": 1},
                                     {"kind": "DaemonSet", "name": "agent"}]})
            },
            says: &[
                (Ignored, "KubeletTracing"),
                (Ignored, "evictionHard"),
                (
                    Note,
                    "the page's default cluster, 3 nodes (node-1, node-2, node-3) in zone-a, zone-b, zone-c",
                ),
                (Note, "Deployment web (3), StatefulSet db (1), DaemonSet agent"),
                (Note, "checking against 1.37, the newest; pass --version"),
            ],
        },
        // JSON, with kubeadm's "0s" for a duration it leaves to the default.
        Case {
            paths: &["kubelet-config.json"],
            version: None,
            expected: || {
                on_default_cluster(
                    json!({"kubelet": {"nodeStatusReportFrequency": "2m0s", "nodeLeaseDurationSeconds": 40}}),
                    None,
                )
            },
            says: &[
                (Note, "nodeStatusUpdateFrequency is 0"),
                (Ignored, "RotateKubeletServerCertificate"),
            ],
        },
    ]
}

/// The project's own kubeadm files, the kubelet flags kubeadm writes, and a static pod.
fn own_kubeadm_cases() -> Vec<Case> {
    use EntryKind::*;
    vec![
        // kubeadm v1beta3: extraArgs is a map; the version is a template nobody rendered.
        Case {
            paths: &["kubeadm-v1beta3.yaml"],
            version: None,
            expected: || {
                on_default_cluster(
                    json!({"controllerManager": {"nodeMonitorPeriod": "3s", "nodeMonitorGracePeriod": "24s", "nodeEvictionRate": 0.5},
                           "apiServer": {"defaultNotReadyTolerationSeconds": 45, "defaultUnreachableTolerationSeconds": 45}}),
                    None,
                )
            },
            says: &[
                (Ignored, "template"),
                (Ignored, "--terminated-pod-gc-threshold"),
                (Ignored, "--node-labels"),
                (Ignored, "KubeProxyConfiguration (1)"),
            ],
        },
        // kubeadm v1beta4: extraArgs and kubeletExtraArgs are name/value lists; the flag (5s)
        // wins over the KubeletConfiguration (10s), which had already set the report frequency
        // to its own update frequency.
        Case {
            paths: &["kubeadm-1.31.yaml"],
            version: None,
            expected: || {
                on_default_cluster(
                    json!({"version": "1.31",
                           "kubelet": {"nodeStatusUpdateFrequency": "5s", "nodeStatusReportFrequency": "10s",
                                       "nodeLeaseDurationSeconds": 30, "shutdownGracePeriod": "30s", "shutdownGracePeriodCriticalPods": "10s"},
                           "controllerManager": {"nodeMonitorPeriod": "2s", "nodeMonitorGracePeriod": "20s",
                                                 "largeClusterSizeThreshold": 20, "unhealthyZoneThreshold": 0.4},
                           "apiServer": {"defaultNotReadyTolerationSeconds": 60, "defaultUnreachableTolerationSeconds": 60}}),
                    Some(150),
                )
            },
            says: &[
                (Recognised, "kubernetesVersion v1.31.2 names Kubernetes 1.31"),
                (Recognised, "InitConfiguration nodeRegistration.kubeletExtraArgs"),
                (Ignored, "--audit-log-maxage"),
                (Overridden, "kubelet.nodeStatusUpdateFrequency: the flag's 5s"),
                (Recognised, "nodes[].maxPods = 150"),
            ],
        },
        Case {
            paths: &["kubeadm-config-configmap.yaml"],
            version: None,
            expected: || {
                on_default_cluster(
                    json!({"version": "1.27",
                           "controllerManager": {"nodeMonitorGracePeriod": "30s", "nodeStartupGracePeriod": "1m30s"},
                           "apiServer": {"defaultUnreachableTolerationSeconds": 120}}),
                    None,
                )
            },
            says: &[(Recognised, "extraArgs of the kubeadm-config ConfigMap")],
        },
        // kubeadm-flags.env holds kubelet flags: a flag leaves the report frequency at 5m0s.
        Case {
            paths: &["kubeadm-flags.env"],
            version: None,
            expected: || {
                on_default_cluster(
                    json!({"kubelet": {"nodeStatusUpdateFrequency": "7s", "nodeStatusReportFrequency": "5m0s"}}),
                    None,
                )
            },
            says: &[
                (Recognised, "/var/lib/kubelet/kubeadm-flags.env"),
                (Ignored, "--pod-infra-container-image"),
            ],
        },
        // The version comes from the image tag.
        Case {
            paths: &["kube-controller-manager.yaml"],
            version: None,
            expected: || {
                on_default_cluster(
                    json!({"version": "1.28",
                           "controllerManager": {"nodeMonitorPeriod": "4s", "nodeMonitorGracePeriod": "40s",
                                                 "secondaryNodeEvictionRate": 0.02, "largeClusterSizeThreshold": 10,
                                                 "kubeApiQps": 40.0, "kubeApiBurst": 60}}),
                    None,
                )
            },
            says: &[
                (Recognised, "image v1.28.4 names Kubernetes 1.28"),
                (Ignored, "--leader-elect"),
            ],
        },
    ]
}

/// The project's own fixtures of the distributions.
fn own_distro_cases() -> Vec<Case> {
    use EntryKind::*;
    vec![
        // rke's extra_args are flags: the kubelet flag leaves the report frequency at 5m0s.
        Case {
            paths: &["rke-1.17-cluster.yml"],
            version: None,
            expected: || {
                on_default_cluster(
                    json!({"version": "1.17",
                           "featureGates": {"NodeLease": true, "TaintBasedEvictions": false},
                           "kubelet": {"nodeStatusUpdateFrequency": "4s", "nodeStatusReportFrequency": "5m0s"},
                           "controllerManager": {"nodeMonitorPeriod": "5s", "nodeMonitorGracePeriod": "30s", "podEvictionTimeout": "1m0s"},
                           "apiServer": {"defaultNotReadyTolerationSeconds": 30, "defaultUnreachableTolerationSeconds": 30}}),
                    Some(80),
                )
            },
            says: &[
                (Recognised, "services.kubelet.extra_args node-status-update-frequency"),
                (Ignored, "--terminated-pod-gc-threshold"),
                (Warning, "TaintBasedEvictions=false"),
            ],
        },
        Case {
            paths: &["rke2-config.yaml"],
            version: None,
            expected: || {
                on_default_cluster(
                    json!({"kubelet": {"nodeStatusUpdateFrequency": "4s", "nodeStatusReportFrequency": "5m0s"},
                           "controllerManager": {"nodeMonitorPeriod": "2s", "nodeMonitorGracePeriod": "20s", "nodeEvictionRate": 0.2},
                           "apiServer": {"defaultNotReadyTolerationSeconds": 30, "defaultUnreachableTolerationSeconds": 30}}),
                    Some(200),
                )
            },
            says: &[(Ignored, "--eviction-hard"), (Recognised, "nodes[].maxPods = 200")],
        },
        // k3s, kubelet-arg as one string: a kubelet flag, so the report frequency stays 5m0s.
        Case {
            paths: &["k3s-config.yaml"],
            version: None,
            expected: || {
                on_default_cluster(
                    json!({"kubelet": {"nodeStatusUpdateFrequency": "4s", "nodeStatusReportFrequency": "5m0s"},
                           "controllerManager": {"nodeMonitorPeriod": "4s", "nodeMonitorGracePeriod": "16s"},
                           "apiServer": {"defaultNotReadyTolerationSeconds": 20, "defaultUnreachableTolerationSeconds": 20}}),
                    None,
                )
            },
            says: &[(Recognised, "a kubelet-arg entry node-status-update-frequency")],
        },
        // kubespray writes a kubelet file: the report frequency follows the update frequency.
        Case {
            paths: &["kubespray-k8s-cluster.yml"],
            version: None,
            expected: || {
                on_default_cluster(
                    json!({"version": "1.29",
                           "kubelet": {"nodeStatusUpdateFrequency": "8s"},
                           "controllerManager": {"nodeMonitorPeriod": "4s", "nodeMonitorGracePeriod": "32s"},
                           "apiServer": {"defaultNotReadyTolerationSeconds": 60, "defaultUnreachableTolerationSeconds": 60}}),
                    Some(120),
                )
            },
            says: &[(Recognised, "kubespray variable kubelet_status_update_frequency")],
        },
    ]
}

/// The project's own `kubectl` node lists: a cluster over three zones, EKS, GKE and AKS nodes,
/// and nodes on mixed clouds.
fn own_node_list_cases() -> Vec<Case> {
    use EntryKind::*;
    vec![
        Case {
            paths: &["nodes-3-zones-30.json"],
            version: None,
            expected: || {
                let zones = ["eu-west-1a", "eu-west-1b", "eu-west-1c"];
                // The last three carry only the deprecated zone label.
                let nodes: Vec<Value> = (0..30)
                    .map(|i| {
                        let mut n = json!({"name": format!("ip-10-0-{}-{}.eu-west-1.compute.internal", i % 3, 10 + i),
                                           "zone": zones[i % 3], "maxPods": if i < 24 { 58 } else { 110 }});
                        if i == 0 {
                            n["labels"] = json!({"node.kubernetes.io/exclude-disruption": "true"});
                        }
                        n
                    })
                    .collect();
                json!({"version": "1.30", "cloud": {"provider": "aws"}, "nodes": nodes})
            },
            says: &[
                (
                    Recognised,
                    "nodes: 30; zones: eu-west-1a (10), eu-west-1b (10), eu-west-1c (10)",
                ),
                (Note, "1.29 (2), 1.30 (28)"),
            ],
        },
        // An EKS node list (a copy of e2e/fixtures/eks-nodelist-2-zones.json with a Karpenter
        // node added): spec.providerID aws:/// sets cloud.provider; the node group and NodePool
        // labels name the repairs that probably apply, which the import leaves off; the managed
        // node group's capacity type stays on its nodes (Karpenter's own label is not EKS's).
        Case {
            paths: &["eks-nodelist-providerid.json"],
            version: None,
            expected: || {
                json!({"version": "1.21", "cloud": {"provider": "aws"},
                       "nodes": [{"name": "duckboat-01", "zone": "us-east-1a", "maxPods": 58,
                                  "labels": {"eks.amazonaws.com/capacityType": "ON_DEMAND"}},
                                 {"name": "duckboat-02", "zone": "us-east-2d", "maxPods": 58,
                                  "labels": {"eks.amazonaws.com/capacityType": "ON_DEMAND"}},
                                 {"name": "ip-10-0-3-17.ec2.internal", "zone": "us-east-1b", "maxPods": 58}]})
            },
            says: &[
                (
                    Recognised,
                    "cloud.provider = aws: spec.providerID names it on 3 of the nodes (duckboat-01, duckboat-02, ip-10-0-3-17.ec2.internal)",
                ),
                (
                    Note,
                    "eks.amazonaws.com/nodegroup on 2 of the nodes (duckboat-01, duckboat-02): an EKS managed node group, where EKS node auto repair probably applies; it is off unless",
                ),
                (
                    Note,
                    "karpenter.sh/nodepool on 1 of the nodes (ip-10-0-3-17.ec2.internal): a Karpenter NodePool, where Karpenter node repair probably applies; it is off by default",
                ),
            ],
        },
        Case {
            paths: &["gke-nodes.yaml"],
            version: None,
            expected: || {
                let nodes: Vec<Value> = [("1a2b3c4d-x7k2", "b"), ("5e6f7a8b-q4m9", "c"), ("9c0d1e2f-z8n1", "d")]
                    .iter()
                    .map(|(id, z)| json!({"name": format!("gke-prod-default-pool-{id}"), "zone": format!("europe-west1-{z}"), "maxPods": 110}))
                    .collect();
                json!({"version": "1.30", "cloud": {"provider": "gcp"}, "nodes": nodes})
            },
            says: &[
                (Recognised, "cloud.provider = gcp: spec.providerID names it on 3 of the nodes"),
                (
                    Note,
                    "cloud.google.com/gke-nodepool on 3 of the nodes (gke-prod-default-pool-1a2b3c4d-x7k2, gke-prod-default-pool-5e6f7a8b-q4m9, gke-prod-default-pool-9c0d1e2f-z8n1): a GKE node pool, where GKE node auto-repair probably applies; it is on by default",
                ),
            ],
        },
        Case {
            paths: &["aks-nodes.json"],
            version: None,
            expected: || {
                json!({"version": "1.31", "cloud": {"provider": "azure"},
                       "nodes": [{"name": "aks-nodepool1-38217456-vmss000000", "zone": "westeurope-1", "maxPods": 250},
                                 {"name": "aks-nodepool1-38217456-vmss000001", "zone": "westeurope-2", "maxPods": 250}]})
            },
            says: &[
                (Recognised, "cloud.provider = azure: spec.providerID names it on 2 of the nodes"),
                (
                    Note,
                    "kubernetes.azure.com/agentpool on 2 of the nodes (aks-nodepool1-38217456-vmss000000, aks-nodepool1-38217456-vmss000001): an AKS node pool, where AKS node auto-repair probably applies; it is on by default",
                ),
            ],
        },
        // Two nodes on AWS, one on GCE: the majority wins, and a warning names both; a kind://
        // node counts as without a cloud.
        Case {
            paths: &["nodes-mixed-clouds.json"],
            version: None,
            expected: || {
                json!({"version": "1.29", "cloud": {"provider": "aws"},
                       "nodes": [{"name": "edge-gce-1", "zone": "us-central1-a"},
                                 {"name": "ip-10-1-0-5.ec2.internal", "zone": "us-east-1a"},
                                 {"name": "ip-10-1-1-6.ec2.internal", "zone": "us-east-1b"},
                                 {"name": "kind-worker", "zone": "lab"},
                                 {"name": "bare-metal-1", "zone": "lab"}]})
            },
            says: &[
                (
                    Warning,
                    "the nodes' spec.providerID names several clouds: aws (2: ip-10-1-0-5.ec2.internal, ip-10-1-1-6.ec2.internal); gcp (1: edge-gce-1); a scenario runs on one cloud, and kubelife takes the one most nodes name: aws",
                ),
                (Ignored, "spec.providerID names a cloud kubelife does not model: kind (1)"),
                (
                    Note,
                    "no spec.providerID on 2 of the nodes (kind-worker, bare-metal-1); in the scenario they run on aws too",
                ),
            ],
        },
    ]
}

/// Nodes of EKS managed node groups: each node keeps its capacity type.
fn own_eks_node_cases() -> Vec<Case> {
    use EntryKind::*;
    vec![
        // Two EKS managed node groups, On-Demand and Spot: each node keeps its
        // eks.amazonaws.com/capacityType, so the Spot one is drained on its interruption notice.
        Case {
            paths: &["eks-spot-nodes.yaml"],
            version: None,
            expected: || {
                json!({"version": "1.31", "cloud": {"provider": "aws"},
                       "nodes": [{"name": "ip-10-0-1-21.eu-west-1.compute.internal", "zone": "eu-west-1a", "maxPods": 29,
                                  "labels": {"eks.amazonaws.com/capacityType": "ON_DEMAND"}},
                                 {"name": "ip-10-0-2-37.eu-west-1.compute.internal", "zone": "eu-west-1b", "maxPods": 29,
                                  "labels": {"eks.amazonaws.com/capacityType": "SPOT"}}]})
            },
            says: &[
                (
                    Recognised,
                    "cloud.provider = aws: spec.providerID names it on 2 of the nodes",
                ),
                (Note, "eks.amazonaws.com/nodegroup on 2 of the nodes"),
            ],
        },
    ]
}

/// The project's own health checks: Cluster API's MachineHealthCheck in both versions, medik8s'
/// NodeHealthCheck with Self Node Remediation, and values that cannot be used.
fn own_health_check_cases() -> Vec<Case> {
    use EntryKind::*;
    vec![
        // Cluster API v1beta1: the book's example; the fields the model does not use are named.
        Case {
            paths: &["mhc-v1beta1.yaml"],
            version: None,
            expected: || {
                on_default_cluster(
                    json!({"remediation": [{"kind": "MachineHealthCheck",
                        "unhealthyConditions": [{"type": "Ready", "status": "Unknown", "timeout": "5m0s"},
                                                {"type": "Ready", "status": "False", "timeout": "5m0s"}],
                        "nodeStartupTimeout": "10m0s", "maxUnhealthy": "40%"}]}),
                    None,
                )
            },
            says: &[
                (
                    Recognised,
                    r#"mhc-v1beta1.yaml: MachineHealthCheck capi-quickstart-node-unhealthy-5m (cluster.x-k8s.io/v1beta1) read as the remediation entry {"kind":"MachineHealthCheck","#,
                ),
                (
                    Ignored,
                    "MachineHealthCheck capi-quickstart-node-unhealthy-5m fields kubelife does not model: spec.clusterName, spec.selector",
                ),
                (Note, "clusterApiVersion stays 1.11"),
            ],
        },
        // v1beta2: seconds under spec.checks, the short-circuit under spec.remediation.triggerIf.
        Case {
            paths: &["mhc-v1beta2.yaml"],
            version: None,
            expected: || {
                on_default_cluster(
                    json!({"remediation": [{"kind": "MachineHealthCheck",
                        "unhealthyConditions": [{"type": "Ready", "status": "Unknown", "timeout": "3m0s"},
                                                {"type": "Ready", "status": "False", "timeout": "2m0s"}],
                        "nodeStartupTimeout": "15m0s", "maxUnhealthy": 2}]}),
                    None,
                )
            },
            says: &[
                (Recognised, "MachineHealthCheck prod-workers-unhealthy-3m (cluster.x-k8s.io/v1beta2)"),
                (
                    Ignored,
                    "fields kubelife does not model: spec.checks.unhealthyMachineConditions, spec.clusterName, spec.selector",
                ),
            ],
        },
        // medik8s: the NodeHealthCheck gives the entry, its template the strategy, the
        // operator's configuration the assumed-reboot time.
        Case {
            paths: &["nhc-snr.yaml"],
            version: None,
            expected: || {
                on_default_cluster(
                    json!({"remediation": [{"kind": "SelfNodeRemediation",
                        "unhealthyConditions": [{"type": "Ready", "status": "False", "timeout": "5m0s"},
                                                {"type": "Ready", "status": "Unknown", "timeout": "5m0s"}],
                        "minHealthy": "51%", "strategy": "OutOfServiceTaint", "safeTimeToAssumeNodeRebooted": "4m0s"}]}),
                    None,
                )
            },
            says: &[
                (Recognised, "NodeHealthCheck nhc-worker-default (remediation.medik8s.io/v1alpha1) read as the remediation entry"),
                (Recognised, "remediationStrategy = OutOfServiceTaint"),
                (Recognised, "spec.safeTimeToAssumeNodeRebootedSeconds = 4m0s"),
                (Ignored, "NodeHealthCheck nhc-worker-default fields kubelife does not model: spec.selector"),
                (Ignored, "spec.apiCheckInterval, spec.apiServerTimeout, spec.isSoftwareRebootEnabled"),
            ],
        },
        // Values that cannot be used are reported and left out; the rest of the check applies.
        Case {
            paths: &["remediation-bad-values.yaml"],
            version: None,
            expected: || {
                on_default_cluster(
                    json!({"remediation": [{"kind": "MachineHealthCheck",
                        "unhealthyConditions": [{"type": "Ready", "status": "False", "timeout": "6m40s"}]}]}),
                    None,
                )
            },
            says: &[
                (Unreadable, "cannot read MachineHealthCheck typos spec.unhealthyConditions[0].timeout \"5 minutes\""),
                (Ignored, "MachineHealthCheck typos spec.nodeStartupTimeout is a list where text belongs"),
                (Invalid, "remediation[0].maxUnhealthy (from remediation-bad-values.yaml)"),
                (Invalid, "remediation[0].unhealthyConditions[0].status (from remediation-bad-values.yaml)"),
                (Ignored, "NodeHealthCheck nhc-fence-agents remediates with FenceAgentsRemediationTemplate"),
            ],
        },
    ]
}

/// The project's own node and workload lists, and broken files.
fn own_list_and_broken_cases() -> Vec<Case> {
    use EntryKind::*;
    vec![
        // One Node of `kubectl get node -o yaml`, with only the beta zone label.
        Case {
            paths: &["node.yaml"],
            version: None,
            expected: || json!({"version": "1.24", "nodes": [{"name": "worker-7", "zone": "dc1-row2", "maxPods": 64}]}),
            says: &[(
                Recognised,
                "kubelets reporting 1.24 (status.nodeInfo.kubeletVersion): 1",
            )],
        },
        Case {
            paths: &["workloads-list.json"],
            version: None,
            expected: || {
                on_default_cluster(
                    json!({"workloads": [
                        {"kind": "Deployment", "name": "web", "replicas": 6, "terminationGracePeriodSeconds": 45,
                         "tolerations": [
                            {"key": "node.kubernetes.io/unreachable", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 30},
                            {"key": "node.kubernetes.io/not-ready", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 30}]},
                        {"kind": "StatefulSet", "name": "db", "replicas": 3},
                        {"kind": "DaemonSet", "name": "node-exporter", "tolerations": [{"operator": "Exists"}]},
                        // apps/v1 defaults replicas to 1; the name is taken in another namespace.
                        {"kind": "Deployment", "name": "web-staging", "replicas": 1}]}),
                    None,
                )
            },
            says: &[(Note, "this one is named web-staging"), (Ignored, "Service (1)")],
        },
        Case {
            paths: &["workloads-list.yaml"],
            version: None,
            expected: || {
                on_default_cluster(
                    json!({"workloads": [{"kind": "StatefulSet", "name": "grafana", "replicas": 2, "terminationGracePeriodSeconds": 60}]}),
                    None,
                )
            },
            says: &[(Ignored, "Secret (1), Service (1)")],
        },
        // Cut inside a quoted value: what comes before the cut is kept.
        Case {
            paths: &["broken/truncated-kubeadm.yaml"],
            version: None,
            expected: || {
                on_default_cluster(
                    json!({"apiServer": {"defaultNotReadyTolerationSeconds": 25, "defaultUnreachableTolerationSeconds": 25}}),
                    None,
                )
            },
            says: &[(Unreadable, "YAML error"), (Unreadable, "--node-monitor-grace-period")],
        },
        Case {
            paths: &["broken/malformed-duration-k3s-config.yaml"],
            version: None,
            expected: || {
                on_default_cluster(
                    json!({"kubelet": {"nodeStatusUpdateFrequency": "4s", "nodeStatusReportFrequency": "5m0s"},
                           "controllerManager": {"nodeMonitorPeriod": "4s"}}),
                    None,
                )
            },
            says: &[(Unreadable, "missing unit")],
        },
        Case {
            paths: &["broken/openshift-kubeletconfig.yaml"],
            version: None,
            expected: || on_default_cluster(json!({}), None),
            says: &[(Ignored, "OpenShift KubeletConfig")],
        },
    ]
}

#[test]
fn every_own_fixture_imports_to_its_documented_scenario() {
    let cases: Vec<Case> = [
        own_kubelet_config_cases(),
        own_kubeadm_cases(),
        own_distro_cases(),
        own_node_list_cases(),
        own_eks_node_cases(),
        own_health_check_cases(),
        own_list_and_broken_cases(),
    ]
    .into_iter()
    .flatten()
    .collect();
    check_cases(&own(), &cases);
}

/// The shared configuration files.
fn config_cases() -> Vec<Case> {
    use EntryKind::*;
    vec![
        // v1beta3 extraArgs is a map; the version is an unrendered Terraform variable.
        Case {
            paths: &["kubeadm/easy-way-v1beta3.yaml"],
            version: None,
            expected: || {
                on_default_cluster(
                    json!({"controllerManager": {"nodeMonitorPeriod": "2s", "nodeMonitorGracePeriod": "16s"},
                       "apiServer": {"defaultNotReadyTolerationSeconds": 30, "defaultUnreachableTolerationSeconds": 30}}),
                    None,
                )
            },
            says: &[
                (Ignored, "template"),
                (Ignored, "--bind-address"),
                (Ignored, "KubeProxyConfiguration"),
            ],
        },
        // v1beta4 extraArgs is a list of name/value; the KubeletConfiguration sets both frequencies.
        Case {
            paths: &["kubeadm/devsecops-v1beta4.yaml"],
            version: None,
            expected: || {
                on_default_cluster(
                    json!({"kubelet": {"nodeStatusUpdateFrequency": "5s", "nodeStatusReportFrequency": "5s", "nodeLeaseDurationSeconds": 20},
                       "controllerManager": {"nodeMonitorPeriod": "5s", "nodeMonitorGracePeriod": "20s", "nodeStartupGracePeriod": "30s"},
                       "apiServer": {"defaultNotReadyTolerationSeconds": 20, "defaultUnreachableTolerationSeconds": 20}}),
                    None,
                )
            },
            says: &[
                (Ignored, "--node-ip"),
                (Recognised, "ClusterConfiguration controllerManager.extraArgs"),
                (
                    Recognised,
                    "nodeLeaseDurationSeconds in the KubeletConfiguration of the kubeadm configuration file",
                ),
            ],
        },
        // 1.12 has no nodeStatusReportFrequency: the update frequency alone, no report frequency.
        Case {
            paths: &["kubelet-config/k8s1.12-ecosphere-config.yaml"],
            version: Some("1.12"),
            expected: || {
                on_default_cluster(
                    json!({"version": "1.12", "kubelet": {"nodeStatusUpdateFrequency": "10s"}}),
                    Some(110),
                )
            },
            says: &[(Recognised, "nodes[].maxPods = 110"), (Ignored, "evictionHard")],
        },
        // kubeadm's generated file writes 0s for unset durations: all defaults.
        Case {
            paths: &["kubelet-config/kubeadm-generated-zero-durations.yaml"],
            version: None,
            expected: || on_default_cluster(json!({}), None),
            says: &[
                (Note, "nodeStatusUpdateFrequency is 0"),
                (Note, "nodeStatusReportFrequency is 0"),
            ],
        },
        Case {
            paths: &["kubelet-config/eks-al2-kubelet-config.json"],
            version: None,
            expected: || on_default_cluster(json!({}), None),
            says: &[
                (Ignored, "RotateKubeletServerCertificate"),
                (Recognised, "KubeletConfiguration"),
            ],
        },
    ]
}

/// The shared files of the distributions, static pods and flags.
fn distro_cases() -> Vec<Case> {
    use EntryKind::*;
    vec![
        // rke extra_args are flags: the kubelet flag leaves the report frequency at 5m.
        Case {
            paths: &["rke/folio-rancher-rke-1.18.yml"],
            version: None,
            expected: || {
                on_default_cluster(
                    json!({"version": "1.18",
                       "kubelet": {"nodeStatusUpdateFrequency": "5s", "nodeStatusReportFrequency": "5m0s"},
                       "controllerManager": {"nodeMonitorPeriod": "10s", "nodeMonitorGracePeriod": "1m0s", "podEvictionTimeout": "2m0s"}}),
                    None,
                )
            },
            says: &[
                (Recognised, "services.kube-controller.extra_args"),
                (Warning, "--pod-eviction-timeout has no effect on 1.18"),
                (Ignored, "--election-timeout"),
            ],
        },
        // The same file on a version that removed --pod-eviction-timeout.
        Case {
            paths: &["rke/folio-rancher-rke-1.18.yml"],
            version: Some("1.30"),
            expected: || {
                on_default_cluster(
                    json!({"version": "1.30",
                       "kubelet": {"nodeStatusUpdateFrequency": "5s", "nodeStatusReportFrequency": "5m0s"},
                       "controllerManager": {"nodeMonitorPeriod": "10s", "nodeMonitorGracePeriod": "1m0s"}}),
                    None,
                )
            },
            says: &[
                (Invalid, "--pod-eviction-timeout was removed in Kubernetes 1.27"),
                (Note, "--version 1.30"),
            ],
        },
        Case {
            paths: &["rke/rke-config-generated-7-nodes.yml"],
            version: None,
            expected: || on_default_cluster(json!({}), None),
            says: &[(Recognised, "rke cluster.yml")],
        },
        // k3s: kubelet-arg as a plain string; pod-eviction-timeout is refused on the newest version.
        Case {
            paths: &["rke2-k3s/ertis-k3s-config.yaml"],
            version: None,
            expected: || {
                on_default_cluster(
                    json!({"kubelet": {"nodeStatusUpdateFrequency": "4s", "nodeStatusReportFrequency": "5m0s"},
                       "controllerManager": {"nodeMonitorPeriod": "4s", "nodeMonitorGracePeriod": "16s"},
                       "apiServer": {"defaultNotReadyTolerationSeconds": 20, "defaultUnreachableTolerationSeconds": 20}}),
                    None,
                )
            },
            says: &[
                (Invalid, "controllerManager.podEvictionTimeout"),
                (Recognised, "kubelet-arg"),
            ],
        },
        Case {
            paths: &["rke2-k3s/ertis-k3s-config.yaml"],
            version: Some("1.20"),
            expected: || {
                on_default_cluster(
                    json!({"version": "1.20",
                       "kubelet": {"nodeStatusUpdateFrequency": "4s", "nodeStatusReportFrequency": "5m0s"},
                       "controllerManager": {"nodeMonitorPeriod": "4s", "nodeMonitorGracePeriod": "16s", "podEvictionTimeout": "20s"},
                       "apiServer": {"defaultNotReadyTolerationSeconds": 20, "defaultUnreachableTolerationSeconds": 20}}),
                    None,
                )
            },
            says: &[(Warning, "--pod-eviction-timeout has no effect")],
        },
        Case {
            paths: &["rke2-k3s/ryutkc-rke2-server-config.yaml"],
            version: None,
            expected: || on_default_cluster(json!({}), None),
            says: &[(Ignored, "--runtime-request-timeout")],
        },
        // The version comes from the image tag.
        Case {
            paths: &["static-pod/docker-desktop-kube-controller-manager.yaml"],
            version: None,
            expected: || {
                on_default_cluster(
                    json!({"version": "1.25", "controllerManager": {"nodeMonitorPeriod": "30s", "nodeMonitorGracePeriod": "3m0s"}}),
                    None,
                )
            },
            says: &[(Recognised, "kube-controller-manager static pod manifest")],
        },
        Case {
            paths: &["static-pod/kubeadm-1.29-kube-controller-manager.yaml"],
            version: None,
            expected: || on_default_cluster(json!({"version": "1.29"}), None),
            says: &[(Ignored, "--allocate-node-cidrs")],
        },
        Case {
            paths: &["flags/kubeadm-flags.env"],
            version: None,
            expected: || on_default_cluster(json!({}), None),
            says: &[(Ignored, "--cgroup-driver"), (Recognised, "environment file")],
        },
    ]
}

/// The shared node and workload output, broken files, and several files together.
fn object_cases() -> Vec<Case> {
    use EntryKind::*;
    vec![
        // A NodeList whose items omit kind; the zone falls back to no label, kubelets say 1.21.
        Case {
            paths: &["nodes/eks-nodelist-2-zones.json"],
            version: None,
            expected: || {
                // Each node keeps its EKS capacity type, which decides how a Spot notice is met.
                let on_demand = json!({"eks.amazonaws.com/capacityType": "ON_DEMAND"});
                json!({"version": "1.21", "cloud": {"provider": "aws"}, "nodes": [
                    {"name": "duckboat-01", "zone": "us-east-1a", "labels": on_demand, "maxPods": 58},
                    {"name": "duckboat-02", "zone": "us-east-2d", "labels": on_demand, "maxPods": 58}]})
            },
            says: &[(
                Recognised,
                "kubelets reporting 1.21 (status.nodeInfo.kubeletVersion): 2",
            )],
        },
        Case {
            paths: &["nodes/openshift-gce-6-nodes"],
            version: None,
            expected: || {
                let names = [
                    ("master-0", "b"),
                    ("master-1", "c"),
                    ("master-2", "d"),
                    ("worker-b-7x8mw", "b"),
                    ("worker-c-nmnbz", "c"),
                    ("worker-d-bpnbd", "d"),
                ];
                let nodes: Vec<Value> = names
                    .iter()
                    .map(|(n, z)| json!({"name": format!("ci-ln-d53y532-f76d1-2btqq-{n}"), "zone": format!("us-east1-{z}"), "maxPods": 250}))
                    .collect();
                json!({"version": "1.17", "cloud": {"provider": "gcp"}, "nodes": nodes})
            },
            says: &[(
                Recognised,
                "kubelets reporting 1.17 (status.nodeInfo.kubeletVersion): 6",
            )],
        },
        Case {
            paths: &["workloads/alertmanager-bot-list.yaml"],
            version: None,
            expected: || {
                on_default_cluster(
                    json!({"workloads": [{"kind": "StatefulSet", "name": "alertmanager-bot", "replicas": 1}]}),
                    None,
                )
            },
            says: &[(Ignored, "Secret (1), Service (1)")],
        },
        // Cut inside a quoted value: what comes before the cut is kept.
        Case {
            paths: &["broken/truncated-kubeadm-v1beta4.yaml"],
            version: None,
            expected: || {
                on_default_cluster(
                    json!({"apiServer": {"defaultNotReadyTolerationSeconds": 20, "defaultUnreachableTolerationSeconds": 20}}),
                    None,
                )
            },
            says: &[(Unreadable, "YAML error"), (Unreadable, "--node-monitor-grace-period")],
        },
        Case {
            paths: &["broken/malformed-duration-k3s-config.yaml"],
            version: None,
            expected: || {
                on_default_cluster(
                    json!({"kubelet": {"nodeStatusUpdateFrequency": "4s", "nodeStatusReportFrequency": "5m0s"},
                       "controllerManager": {"nodeMonitorPeriod": "4s"},
                       "apiServer": {"defaultNotReadyTolerationSeconds": 20, "defaultUnreachableTolerationSeconds": 20}}),
                    None,
                )
            },
            says: &[(Unreadable, "missing unit"), (Invalid, "podEvictionTimeout")],
        },
        Case {
            paths: &["broken/wrong-kind-openshift-kubeletconfig.yaml"],
            version: None,
            expected: || on_default_cluster(json!({}), None),
            says: &[(Ignored, "OpenShift KubeletConfig")],
        },
        // Several files combine: kubeadm settings, nodes (which name the version) and workloads.
        Case {
            paths: &[
                "kubeadm/devsecops-v1beta4.yaml",
                "nodes/eks-nodelist-2-zones.json",
                "workloads/alertmanager-bot-list.yaml",
            ],
            version: None,
            expected: || {
                json!({"version": "1.21", "cloud": {"provider": "aws"},
                       "kubelet": {"nodeStatusUpdateFrequency": "5s", "nodeStatusReportFrequency": "5s", "nodeLeaseDurationSeconds": 20},
                       "controllerManager": {"nodeMonitorPeriod": "5s", "nodeMonitorGracePeriod": "20s", "nodeStartupGracePeriod": "30s"},
                       "apiServer": {"defaultNotReadyTolerationSeconds": 20, "defaultUnreachableTolerationSeconds": 20},
                       "nodes": [{"name": "duckboat-01", "zone": "us-east-1a", "labels": {"eks.amazonaws.com/capacityType": "ON_DEMAND"}, "maxPods": 58},
                                 {"name": "duckboat-02", "zone": "us-east-2d", "labels": {"eks.amazonaws.com/capacityType": "ON_DEMAND"}, "maxPods": 58}],
                       "workloads": [{"kind": "StatefulSet", "name": "alertmanager-bot", "replicas": 1}]})
            },
            says: &[],
        },
    ]
}

#[test]
fn every_shared_fixture_imports_to_its_documented_scenario() {
    let Some(dir) = shared("import::every_shared_fixture_imports_to_its_documented_scenario") else {
        return;
    };
    let cases: Vec<Case> = [config_cases(), distro_cases(), object_cases()]
        .into_iter()
        .flatten()
        .collect();
    check_cases(&dir, &cases);
}

/// Each broken file in `dir` gives a report of what is wrong; a file of which nothing is
/// recognised (`nothing`) gives nothing to import, which `kubelife import` exits 1 on.
fn check_broken(dir: &Path, nothing: &str) {
    for file in files_under(dir) {
        let (_, report) = import_paths(std::slice::from_ref(&file), None);
        let problems = report.of(EntryKind::Unreadable).count() + report.of(EntryKind::Ignored).count();
        assert!(
            problems > 0,
            "{}: no problem reported\n{}",
            file.display(),
            report.text()
        );
    }
    let (_, report) = import_paths(&[dir.join(nothing)], None);
    assert!(
        !kubelife_engine::import::recognised_anything(&report),
        "{}",
        report.text()
    );
}

#[test]
fn broken_fixtures_give_a_report_and_the_cli_rule_follows_it() {
    check_broken(&own().join("broken"), "openshift-kubeletconfig.yaml");
    if let Some(dir) = shared("the shared part of import::broken_fixtures_give_a_report_and_the_cli_rule_follows_it") {
        check_broken(&dir.join("broken"), "wrong-kind-openshift-kubeletconfig.yaml");
    }
}

#[test]
fn controller_client_limits_and_the_force_detach_switch_import_where_the_version_has_them() {
    let flags = "kube-controller-manager --kube-api-qps=50 --kube-api-burst=80 --disable-force-detach-on-timeout=true";
    check(
        "1.30 flags",
        import(&[("kcm.txt", flags)], Some("1.30")),
        on_default_cluster(
            json!({"version": "1.30", "controllerManager": {"kubeApiQps": 50.0, "kubeApiBurst": 80, "disableForceDetachOnTimeout": true}}),
            None,
        ),
        &[(EntryKind::Recognised, "--kube-api-qps")],
    );
    // 1.29 has no --disable-force-detach-on-timeout: it is reported, not imported.
    check(
        "1.29 flags",
        import(&[("kcm.txt", flags)], Some("1.29")),
        on_default_cluster(
            json!({"version": "1.29", "controllerManager": {"kubeApiQps": 50.0, "kubeApiBurst": 80}}),
            None,
        ),
        &[(EntryKind::Invalid, "disableForceDetachOnTimeout")],
    );
}

#[test]
fn the_hand_written_cluster_combines_and_runs() {
    let paths: Vec<PathBuf> = ["kubeadm-1.31.yaml", "nodes-3-zones-30.json", "workloads-list.json"]
        .iter()
        .map(|f| own().join(f))
        .collect();
    let (s, report) = import_paths(&paths, None);
    assert_eq!(s.version.as_deref(), Some("1.31"), "{}", report.text());
    assert!(report
        .of(EntryKind::Note)
        .any(|c| c.english().contains("control plane runs 1.31")));
    assert_eq!((s.nodes.len(), s.workloads.len()), (30, 4));
    // Nodes keep their allocatable pods over the kubelet file's maxPods.
    assert_eq!(s.nodes[0].max_pods, Some(58));
    let cfg = s.resolve().expect("the combined import runs");
    assert_eq!(cfg.kubelet.node_status_update_frequency, 5_000);
}

/// An EKS node list, a Cluster API MachineHealthCheck and a medik8s NodeHealthCheck combine into
/// one scenario on AWS with both remediators, which runs an instance termination; the node-pool
/// labels' repairs stay out of it.
#[test]
fn a_cloud_node_list_and_health_checks_combine_and_run() {
    let paths: Vec<PathBuf> = ["eks-nodelist-providerid.json", "mhc-v1beta2.yaml", "nhc-snr.yaml"]
        .iter()
        .map(|f| own().join(f))
        .collect();
    let (mut s, report) = import_paths(&paths, None);
    let kinds: Vec<&str> = s.remediation.iter().map(|r| r.kind()).collect();
    assert_eq!(
        kinds,
        ["MachineHealthCheck", "SelfNodeRemediation"],
        "{}",
        report.text()
    );
    let cfg = s.resolve().expect("the combined import runs");
    assert_eq!(cfg.cloud.map(|c| c.provider.name()), Some("aws"));
    assert_eq!(cfg.remediation.len(), 2);
    // The instance fault the cloud gives, on the imported cluster.
    s.events = serde_json::from_value(json!([{"at": "30s", "action": "InstanceTerminated", "node": "duckboat-01"}]))
        .expect("the event");
    let cfg = s.resolve().expect("with the fault");
    let outcome = kubelife_engine::run(&cfg, &Default::default());
    // The cloud controller deletes the terminated instance's Node (the imported cloud acts).
    let deleted = outcome
        .events
        .iter()
        .any(|e| format!("{:?}", e.kind) == "NodeDeleted" && e.node.as_deref() == Some("duckboat-01"));
    assert!(
        deleted,
        "{:?}",
        outcome
            .events
            .iter()
            .map(|e| format!("{:?}", e.kind))
            .collect::<Vec<_>>()
    );
}

// ---- round trip through the exporters ----

fn secs(lo: i64, hi: i64) -> impl Strategy<Value = Option<GoDuration>> {
    proptest::option::of((lo..=hi).prop_map(|s| GoDuration(s * 1000)))
}

/// Random settings of every field the exporters write, valid on `minor`.
fn settings() -> impl Strategy<Value = Scenario> {
    let versions: Vec<u32> = Version::supported().map(|v| v.minor).collect();
    let kubelet = (secs(1, 60), secs(1, 600), proptest::option::of(10i64..120));
    let cm = (
        (secs(1, 10), secs(10, 300), secs(10, 300)),
        proptest::option::of(prop_oneof![Just(0.05), Just(0.1), Just(0.2), Just(1.0)]),
        proptest::option::of(prop_oneof![Just(0.0), Just(0.01), Just(0.5)]),
        proptest::option::of(0u32..100),
        proptest::option::of(prop_oneof![Just(0.3), Just(0.55), Just(0.9)]),
    );
    let legacy = (
        secs(0, 600),
        proptest::option::of(any::<bool>()),
        proptest::option::of(any::<bool>()),
    );
    let gates = (
        proptest::option::of(any::<bool>()),
        proptest::option::of(0i64..600),
        proptest::option::of(0i64..600),
    );
    let extras = (
        proptest::option::of((0i64..120, 0i64..120)),
        proptest::option::of(prop_oneof![Just(5.0), Just(7.5), Just(100.0)]),
        proptest::option::of(1u32..500),
        proptest::option::of(any::<bool>()),
    );
    (proptest::sample::select(versions), kubelet, cm, legacy, gates, extras).prop_map(
        |(
            minor,
            (u, r, lease),
            ((mp, grace, startup), rate, secondary, large, unhealthy),
            (timeout, taint_manager, tbe),
            (node_lease, nr, ur),
            (shutdown, qps, burst, no_force_detach),
        )| {
            let v = Version { minor };
            let p = v.profile();
            let mut s = Scenario {
                version: Some(v.to_string()),
                kubelet: KubeletSection {
                    node_status_update_frequency: u,
                    node_status_report_frequency: r.filter(|_| p.has_report_frequency),
                    node_lease_duration_seconds: lease,
                    shutdown_grace_period: shutdown
                        .filter(|_| p.has_graceful_shutdown)
                        .map(|(a, b)| GoDuration(a.max(b) * 1000)),
                    shutdown_grace_period_critical_pods: shutdown
                        .filter(|_| p.has_graceful_shutdown)
                        .map(|(a, b)| GoDuration(a.min(b) * 1000)),
                },
                controller_manager: ControllerManagerSection {
                    node_monitor_period: mp,
                    node_monitor_grace_period: grace,
                    node_startup_grace_period: startup,
                    node_eviction_rate: rate,
                    secondary_node_eviction_rate: secondary,
                    large_cluster_size_threshold: large,
                    unhealthy_zone_threshold: unhealthy,
                    pod_eviction_timeout: timeout.filter(|_| p.has_legacy_eviction_flags),
                    enable_taint_manager: taint_manager.filter(|_| p.has_legacy_eviction_flags),
                    kube_api_qps: qps,
                    kube_api_burst: burst,
                    disable_force_detach_on_timeout: no_force_detach.filter(|_| p.has_disable_force_detach),
                },
                api_server: ApiServerSection {
                    default_not_ready_toleration_seconds: nr,
                    default_unreachable_toleration_seconds: ur,
                },
                nodes: vec![NodeSection {
                    name: "n".into(),
                    ..Default::default()
                }],
                ..Default::default()
            };
            // Gates only where a component still accepts them (alpha or beta).
            if let Some(b) = node_lease.filter(|_| (12..17).contains(&minor)) {
                s.feature_gates.insert(Gate::NodeLease.name().into(), b);
            }
            if let Some(b) = tbe.filter(|_| (13..18).contains(&minor)) {
                s.feature_gates.insert(Gate::TaintBasedEvictions.name().into(), b);
            }
            s
        },
    )
}

/// Imports exported documents (with their comments, as a user would save them) and resolves.
fn reimport(docs: &[(&str, String)], version: &str) -> (kubelife_engine::Config, Report) {
    let files: Vec<(&str, &str)> = docs.iter().map(|(n, t)| (*n, t.as_str())).collect();
    let (s, report) = import(&files, Some(version));
    let cfg = s
        .resolve()
        .unwrap_or_else(|e| panic!("re-import resolves: {e}\n{}", report.text()));
    (cfg, report)
}

proptest! {
    #![proptest_config(crate::seeded::config(96))]

    #[test]
    fn import_of_export_gives_the_settings_back(s in settings()) {
        let cfg = s.resolve().expect("generated settings are valid");
        let v = s.version.clone().unwrap();
        let doc = |f| export(&cfg, f).with_comments();
        // The kubelet file, the static pod flags and the tolerations-free forms, together.
        let (back, report) = reimport(
            &[("kubelet.yaml", doc(Format::Kubelet)), ("kcm.yaml", doc(Format::ControllerManager)), ("apiserver.yaml", doc(Format::ApiServer))],
            &v,
        );
        // Before 1.13 no file or flag holds a report frequency, so none can be exported or
        // imported: the scenario format's own default fills it, compared from 1.13 on.
        let mut kubelet = back.kubelet.clone();
        if !cfg.profile.has_report_frequency {
            kubelet.node_status_report_frequency = cfg.kubelet.node_status_report_frequency;
        }
        prop_assert_eq!(&kubelet, &cfg.kubelet, "{}", report.text());
        prop_assert_eq!(&back.api_server, &cfg.api_server);
        let (a, b) = (&back.controller_manager, &cfg.controller_manager);
        prop_assert_eq!((a.node_monitor_period, a.node_monitor_grace_period, a.node_startup_grace_period),
                        (b.node_monitor_period, b.node_monitor_grace_period, b.node_startup_grace_period));
        prop_assert_eq!((a.node_eviction_rate, a.secondary_node_eviction_rate, a.large_cluster_size_threshold, a.unhealthy_zone_threshold),
                        (b.node_eviction_rate, b.secondary_node_eviction_rate, b.large_cluster_size_threshold, b.unhealthy_zone_threshold));
        prop_assert_eq!((a.enable_taint_manager, a.taint_based_evictions), (b.enable_taint_manager, b.taint_based_evictions));
        prop_assert_eq!((a.kube_api_qps, a.kube_api_burst, a.disable_force_detach_on_timeout),
                        (b.kube_api_qps, b.kube_api_burst, b.disable_force_detach_on_timeout), "{}", report.text());
        // The export leaves --pod-eviction-timeout out where taint-based eviction ignores it.
        if !b.taint_based_evictions {
            prop_assert_eq!(a.pod_eviction_timeout, b.pod_eviction_timeout);
        }
        // rke's extra_args are flags: the same values, but a kubelet flag leaves the report
        // frequency at its default, so that one is compared only when it was the default.
        let (rke, report) = reimport(&[("cluster.yml", doc(Format::Rke))], &v);
        prop_assert_eq!(rke.kubelet.node_status_update_frequency, cfg.kubelet.node_status_update_frequency, "{}", report.text());
        prop_assert_eq!(&rke.api_server, &cfg.api_server);
        prop_assert_eq!(rke.controller_manager.node_monitor_grace_period, b.node_monitor_grace_period);
        prop_assert_eq!(rke.controller_manager.taint_based_evictions, b.taint_based_evictions);
        prop_assert_eq!((rke.controller_manager.kube_api_qps, rke.controller_manager.kube_api_burst),
                        (b.kube_api_qps, b.kube_api_burst));
    }
}

// ---- garbage never panics ----

/// A sample of every format: the hand-written fixtures, and the shared ones when present (read
/// once, so that a run without them says so once).
fn samples() -> Vec<String> {
    static SAMPLES: OnceLock<Vec<String>> = OnceLock::new();
    SAMPLES.get_or_init(read_samples).clone()
}

fn read_samples() -> Vec<String> {
    let mut out: Vec<String> = files_under(&own()).iter().map(|p| read(p)).collect();
    if let Some(dir) = shared("the shared samples of import's property tests") {
        out.extend(files_under(&dir).iter().map(|p| read(p)));
    }
    out.push("--node-monitor-grace-period=20s --node-monitor-period 2s".into());
    out.push("KUBELET_EXTRA_ARGS=\"--node-status-update-frequency=4s --max-pods=30\"".into());
    out.push(
        "kubelet_status_update_frequency: 4s\nkube_controller_node_monitor_grace_period: 20s\nkube_version: v1.30.2\n"
            .into(),
    );
    out.push("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: kubeadm-config}\ndata:\n  ClusterConfiguration: |\n    apiVersion: kubeadm.k8s.io/v1beta3\n    kind: ClusterConfiguration\n    controllerManager:\n      extraArgs: {node-monitor-grace-period: 30s}\n".into());
    out
}

#[test]
fn kubespray_and_config_maps_import() {
    let s = samples();
    let n = s.len();
    let (sc, report) = import(&[("k8s_cluster.yml", &s[n - 2])], None);
    assert_eq!(sc.version.as_deref(), Some("1.30"), "{}", report.text());
    assert_eq!(sc.kubelet.node_status_update_frequency, Some(GoDuration(4_000)));
    assert_eq!(
        sc.kubelet.node_status_report_frequency, None,
        "kubespray writes a kubelet file"
    );
    assert_eq!(
        sc.controller_manager.node_monitor_grace_period,
        Some(GoDuration(20_000))
    );
    assert!(
        report
            .text()
            .contains("kubespray writes it as node-monitor-grace-period in controllerManager.extraArgs"),
        "{}",
        report.text()
    );
    let (sc, report) = import(&[("cm.yaml", &s[n - 1])], None);
    assert_eq!(
        sc.controller_manager.node_monitor_grace_period,
        Some(GoDuration(30_000))
    );
    assert!(report.text().contains("kubeadm-config ConfigMap"), "{}", report.text());
    let (sc, _) = import(&[("env", &s[n - 3])], None);
    assert_eq!(
        sc.kubelet.node_status_report_frequency,
        Some(GoDuration(300_000)),
        "a flag leaves R at 5m"
    );
}

proptest! {
    #![proptest_config(crate::seeded::config(256))]

    #[test]
    fn truncated_and_garbled_files_give_a_report_and_a_valid_scenario(
        pick in any::<prop::sample::Index>(),
        cut in any::<prop::sample::Index>(),
        junk in "[ -~\n\t\"'{}\\[\\]:#-]{0,40}",
        garble in any::<bool>(),
    ) {
        let all = samples();
        let text = pick.get(&all);
        let bounds: Vec<usize> = (0..=text.len()).filter(|i| text.is_char_boundary(*i)).collect();
        let at = *cut.get(&bounds);
        let input = if garble { format!("{}{junk}{}", &text[..at], &text[at..]) } else { text[..at].to_string() };
        let (mut s, report) = import(&[("f", &input)], None);
        prop_assert!(!report.entries.is_empty());
        if s.nodes.is_empty() {
            s.nodes.push(NodeSection { name: "n".into(), ..Default::default() });
        }
        // Whatever survived is a scenario the engine accepts.
        prop_assert!(s.resolve().is_ok(), "{:?}\n{}", s.resolve().err(), report.text());
    }

    /// Salvage never changes a value: a file cut at any line keeps only values the whole file has.
    #[test]
    fn a_file_cut_at_a_line_keeps_only_the_whole_files_values(pick in any::<prop::sample::Index>(), cut in any::<prop::sample::Index>()) {
        let all = samples();
        let text = pick.get(&all);
        let (whole, _) = import(&[("f", text)], None);
        let lines: Vec<&str> = text.split_inclusive('\n').collect();
        let prefix = lines[..cut.index(lines.len() + 1)].concat();
        let part_read = kubelife_engine::import::import(&[("f", &prefix)], Reader::Cli(None));
        let (part, report) = (part_read.scenario, part_read.report);
        let (cw, cp) = (serde_json::to_value(&whole.controller_manager).unwrap(), serde_json::to_value(&part.controller_manager).unwrap());
        let (aw, ap) = (serde_json::to_value(&whole.api_server).unwrap(), serde_json::to_value(&part.api_server).unwrap());
        for (w, p) in [(cw, cp), (aw, ap)] {
            for (k, v) in p.as_object().unwrap() {
                // The whole file may lose a value the version refuses; the prefix never invents one.
                if let Some(wv) = w.get(k) {
                    prop_assert_eq!(wv, v, "{}\n{}", k, report.text());
                }
            }
        }
        // A node of the prefix is one of the whole file's, though the cut may leave out what
        // came after its name; where the prefix has no nodes left, the default cluster stands in.
        let known = |n: &NodeSection| {
            whole.nodes.iter().any(|w| {
                w.name == n.name
                    && n.zone.as_ref().is_none_or(|z| w.zone.as_ref() == Some(z))
                    && n.max_pods.is_none_or(|m| w.max_pods == Some(m))
                    && n.labels.iter().all(|(k, v)| w.labels.get(k) == Some(v))
            })
        };
        prop_assert!(!part_read.nodes_read || part.nodes.iter().all(known), "{}", report.text());
    }

    #[test]
    fn random_text_never_panics(text in "\\PC{0,200}") {
        let (_, report) = import(&[("f", &text)], None);
        prop_assert!(!report.entries.is_empty());
    }
}

#[path = "import_hostile.rs"]
mod hostile;

/// Imported Spot nodes behave as Spot: on the node EKS labelled `SPOT`, a Spot interruption is
/// drained at its notice and a replacement launched; on the On-Demand one, the same fault only
/// gets its terminated instance replaced once EC2 reclaims it.
#[test]
fn an_imported_spot_node_is_drained_on_its_notice() {
    let (mut s, report) = import_paths(&[own().join("eks-spot-nodes.yaml")], None);
    let names: Vec<String> = s.nodes.iter().map(|n| n.name.clone()).collect();
    let drained_and_replaced = |s: &mut Scenario, node: &str| {
        s.events = serde_json::from_value(json!([{"at": "30s", "action": "SpotInterruption", "node": node}]))
            .expect("the event");
        let cfg = s.resolve().unwrap_or_else(|e| panic!("{e}: {}", report.text()));
        let o = kubelife_engine::run(&cfg, &Default::default());
        let at = |kind: &str| {
            o.events
                .iter()
                .find(|e| format!("{:?}", e.kind) == kind && e.node.as_deref() == Some(node))
                .map(|e| e.at_ms)
        };
        let joined = o
            .events
            .iter()
            .find(|e| format!("{:?}", e.kind) == "NodeCreated" && e.node.as_deref() == Some(&format!("{node}-r1")))
            .map(|e| e.at_ms);
        (at("NodeCordoned"), joined)
    };
    // The notice at 30s; the replacement boots for nodeBootDuration (1m30s) from its launch.
    assert_eq!(drained_and_replaced(&mut s, &names[1]), (Some(30_000), Some(120_000)));
    // On-Demand: no drain; the instance is terminated at the notice's end (2m30s), and replaced.
    assert_eq!(drained_and_replaced(&mut s, &names[0]), (None, Some(240_000)));
}

/// What the page shows of a large report (`Report::summarised`): of each kind and message, the
/// first three lines, then one line counting the rest that quotes the last shown and names the
/// files they are in; nothing is lost (the counts add up) and the order of what is shown holds.
#[test]
fn a_report_of_thousands_of_alike_lines_is_summarised_with_counts_and_files() {
    let doc = |i: usize| {
        format!(
            "apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nnodeStatusUpdateFrequency: {}s\n",
            i % 9 + 1
        )
    };
    let big: String = (0..10_000).map(doc).collect::<Vec<_>>().join("---\n");
    let (_, report) = import(&[("big.yaml", big.as_str())], None);
    assert_eq!(
        report.entries.len(),
        30_003,
        "a line per document and setting (30,002, as issue 36 measured) and the default fault's"
    );
    let summary = report.summarised(3);
    let lines: Vec<String> = summary.iter().map(|e| e.cause.english()).collect();
    assert!(summary.len() <= 20, "{lines:#?}");
    let more: Vec<&String> = lines.iter().filter(|l| l.contains(" more like ")).collect();
    assert_eq!(more.len(), 3, "one line for each kind and message repeated: {lines:#?}");
    assert!(
        more[0].starts_with("9,997 more like big.yaml: read as KubeletConfiguration, in big.yaml:"),
        "{lines:#?}"
    );
    // Shown and counted, every entry is accounted for.
    let counted: usize = summary
        .iter()
        .filter(|e| e.cause.key == "import.more")
        .map(|e| match e.cause.arg("count") {
            Some(kubelife_engine::cause::Arg::Text(n)) => n.replace(',', "").parse::<usize>().unwrap(),
            other => panic!("{other:?}"),
        })
        .sum();
    assert_eq!(summary.len() - more.len() + counted, report.entries.len());
    // The lines shown are the report's own, in its order.
    let shown: Vec<_> = summary.iter().filter(|e| e.cause.key != "import.more").collect();
    let mut rest = report.entries.iter();
    assert!(shown.iter().all(|s| rest.any(|e| e == *s)), "{lines:#?}");
}

/// A summary line names at most five files, then counts the others; a short report is left as
/// it is.
#[test]
fn a_summary_line_names_the_files_of_what_it_counts() {
    let texts: Vec<(String, String)> = (0..9)
        .map(|i| {
            (
                format!("cm-{i}.yaml"),
                format!("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c{i}\n"),
            )
        })
        .collect();
    let files: Vec<(&str, &str)> = texts.iter().map(|(n, t)| (n.as_str(), t.as_str())).collect();
    let (_, report) = import(&files, None);
    let summary = report.summarised(3);
    let more: Vec<String> = summary
        .iter()
        .filter(|e| e.cause.key == "import.more")
        .map(|e| e.cause.english())
        .collect();
    assert_eq!(
        more,
        ["6 more like cm-2.yaml: ConfigMap c2 is neither kubeadm-config nor kubelet-config, in cm-3.yaml, cm-4.yaml, \
          cm-5.yaml, cm-6.yaml, cm-7.yaml and 1 other files: kubelife import prints every one"]
    );
    assert_eq!(
        summary.iter().find(|e| e.cause.key == "import.more").map(|e| e.kind),
        Some(EntryKind::Ignored)
    );
    let (_, short) = import(&files[..3], None);
    assert_eq!(short.summarised(3), short.entries);
}

/// Issue 36: `kubelife import` then `kubelife run` showed an idle cluster, and `kubelife tune`
/// refused the scenario. An import gets the page's default fault, on its first node, and the
/// report says so; a run of it follows the fault.
#[test]
fn an_import_gets_the_pages_default_fault_on_its_first_node_and_says_so() {
    let nodes = r#"{"apiVersion": "v1", "kind": "NodeList", "items": [
        {"kind": "Node", "metadata": {"name": "worker-a", "labels": {"topology.kubernetes.io/zone": "z1"}}},
        {"kind": "Node", "metadata": {"name": "worker-b", "labels": {"topology.kubernetes.io/zone": "z2"}}}]}"#;
    let kcm = "--node-monitor-grace-period=20s\n";
    for (files, node) in [
        (vec![("kcm.txt", kcm)], "node-1"),
        (vec![("kcm.txt", kcm), ("nodes.json", nodes)], "worker-a"),
    ] {
        let (s, report) = import(&files, None);
        let page = kubelife_engine::presets::default_cluster("1.31").events.remove(0);
        assert_eq!(s.events.len(), 1, "{}", report.text());
        assert_eq!((s.events[0].at, s.events[0].action), (page.at, page.action));
        assert_eq!(s.events[0].node.as_deref(), Some(node));
        let note = format!("no file gives a fault: the scenario has the page's default one, {node} (NodeCrash) at 30s");
        assert!(
            report.of(EntryKind::Note).any(|c| c.english().starts_with(&note)),
            "{}",
            report.text()
        );
        let o = crate::common::run_seed(&s, 1);
        let faulted = crate::common::of_kind(&o, kubelife_engine::EventKind::FaultStarted);
        assert_eq!(faulted.len(), 1, "{}", report.text());
        let deleted = o
            .summary
            .nodes
            .iter()
            .find(|n| n.node == node)
            .and_then(|n| n.unknown_at_ms);
        assert!(deleted.is_some(), "the crashed node turns Unknown\n{}", report.text());
    }
    // The page keeps its own fault: its report has no such note.
    let read = kubelife_engine::import::import(&[("kcm.txt", kcm)], Reader::Page(Version::default()));
    assert!(read
        .report
        .entries
        .iter()
        .all(|e| e.cause.key != "import.default_fault"));
}

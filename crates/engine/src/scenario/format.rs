//! The scenario file as a user writes it: the pinned JSON format.
//!
//! Field names follow the upstream configuration names (KubeletConfiguration, kube-controller-manager
//! and kube-apiserver flags in camelCase), durations are Go duration strings, and every omitted field
//! takes the chosen version's default. Nothing here knows a default or a rule: that is
//! [`super::validate`], which turns a [`Scenario`] into a [`super::Config`] or a [`ScenarioError`]
//! naming the offending field and saying why.

use super::cloud::Provider;
use crate::cause::Cause;
use crate::time::{format_go_duration, parse_go_duration, Millis};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::collections::BTreeMap;
use std::fmt;

/// The most nodes a scenario may have.
pub const MAX_NODES: usize = 10_000;
/// The most pods a scenario may ask for at the start.
pub const MAX_PODS: u64 = 200_000;
/// The longest run, in seconds.
pub const MAX_DURATION_SECONDS: i64 = 6 * 3600;
/// The most heartbeat-loop iterations a run may need (nodes × run length / loop period, summed
/// over both loops); larger scenarios are refused instead of freezing the page.
pub const MAX_HEARTBEAT_TICKS: i64 = 40_000_000;

/// A duration written as a Go duration string such as `"40s"` or `"5m0s"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct GoDuration(pub Millis);

impl Serialize for GoDuration {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&format_go_duration(self.0))
    }
}

impl<'de> Deserialize<'de> for GoDuration {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl serde::de::Visitor<'_> for V {
            type Value = GoDuration;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a Go duration string such as \"40s\" or \"5m0s\"")
            }
            // The error names the text only: `Scenario::from_json` reads the reason again as a
            // message (`duration_at`), so the English catalogue is not needed to deserialize a
            // duration, and the files worker, which only checks sections, does not carry it.
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<GoDuration, E> {
                parse_go_duration(v)
                    .map(GoDuration)
                    .map_err(|e| E::custom(format_args!("invalid duration {}", e.text)))
            }
        }
        d.deserialize_str(V)
    }
}

/// The scenario file, as written. Every field is optional except where noted.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Scenario {
    /// Kubernetes minor version such as `"1.32"`; defaults to the newest supported.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    /// Seed of the run's one random generator; defaults to 1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    /// Length of the simulated run, in seconds; defaults to 900.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub duration_seconds: Option<i64>,
    /// KubeletConfiguration fields, applied to every node.
    #[serde(default, skip_serializing_if = "KubeletSection::is_empty")]
    pub kubelet: KubeletSection,
    /// kube-controller-manager flags of the node lifecycle controller.
    #[serde(default, skip_serializing_if = "ControllerManagerSection::is_empty")]
    pub controller_manager: ControllerManagerSection,
    /// kube-apiserver flags of the DefaultTolerationSeconds admission plugin.
    #[serde(default, skip_serializing_if = "ApiServerSection::is_empty")]
    pub api_server: ApiServerSection,
    /// kube-proxy's mode and sync periods.
    #[serde(default, skip_serializing_if = "KubeProxySection::is_empty")]
    pub kube_proxy: KubeProxySection,
    /// `--feature-gates` of every component: `TaintBasedEvictions`, `NodeLease`,
    /// `NodeOutOfServiceVolumeDetach`.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub feature_gates: BTreeMap<String, bool>,
    /// Latencies and durations that no Kubernetes flag sets but that shape the timeline.
    #[serde(default, skip_serializing_if = "SimulationSection::is_empty")]
    pub simulation: SimulationSection,
    /// The cluster's nodes; at least one.
    #[serde(default)]
    pub nodes: Vec<NodeSection>,
    /// The workloads whose pods run on the nodes.
    #[serde(default)]
    pub workloads: Vec<WorkloadSection>,
    /// Faults and recoveries, at given times.
    #[serde(default)]
    pub events: Vec<ActionSection>,
    /// The cloud the nodes run on: its cloud-controller-manager's node lifecycle controller and
    /// the instance faults. Absent: no cloud controller (bare metal, kubeadm).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cloud: Option<CloudSection>,
    /// What repairs nodes besides kube-controller-manager: Cluster API, medik8s, Karpenter, the
    /// managed services' auto-repair. Absent: none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub remediation: Vec<RemediationSection>,
    /// Who calls the Services: each client's library, where it runs and its rate. Absent: none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub clients: Vec<ClientSection>,
    /// The cluster DNS: CoreDNS's replicas behind the `kube-dns` Service and where they run.
    /// Absent: two replicas on the first nodes once a client resolves names, none otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dns: Option<DnsSection>,
}

/// The cluster DNS as written.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct DnsSection {
    /// CoreDNS's replicas (kubeadm's `coreDNSReplicas`); default 2.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub core_dns_replicas: Option<u32>,
    /// The nodes the replicas run on, one each in order; default the first nodes.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub nodes: Vec<String>,
    /// NodeLocal DNSCache on every node; default false.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub node_local_dns_cache: Option<bool>,
}

/// One client of a Service, as written: the library keeps its connections (`super::libraries`),
/// and every override is a Go duration, `"0s"` meaning none.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ClientSection {
    /// Its name (required, unique).
    pub name: String,
    /// The workload whose Service it calls, or `kube-dns` for name lookups.
    pub target: String,
    /// Its library: `linux`, `go-http`, `grpc-go`, `java-httpclient`, `okhttp`, `envoy` or
    /// `ingress-nginx` (not for `kube-dns`).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub library: String,
    /// `kube-dns` only: the stub resolver, `glibc` (default), `musl` or `go`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resolver: Option<String>,
    /// `kube-dns` only: the name looked up, `short` (a Service of the same namespace, default)
    /// or `external` (a name outside the cluster, such as `api.example.com`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lookup: Option<String>,
    /// The node it runs on; default the first node no action faults.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<String>,
    /// Requests (or RPCs) a second; default 10.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub requests_per_second: Option<f64>,
    /// `go-http` only: the Go release, such as `"1.23"` (default).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub go_version: Option<String>,
    /// How long a dial may take.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub connect_timeout: Option<GoDuration>,
    /// How long a request may take.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub request_timeout: Option<GoDuration>,
    /// TCP keepalive's idle time (grpc-go: the gRPC keepalive ping's `Time`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub keepalive_time: Option<GoDuration>,
    /// TCP keepalive's probe interval.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub keepalive_interval: Option<GoDuration>,
    /// TCP keepalive's probe count.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub keepalive_probes: Option<u32>,
    /// `TCP_USER_TIMEOUT` (grpc-go: the keepalive `Timeout`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tcp_user_timeout: Option<GoDuration>,
    /// How long an idle pooled connection is kept.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub idle_conn_timeout: Option<GoDuration>,
}

/// KubeletConfiguration fields (file semantics).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct KubeletSection {
    /// `nodeStatusUpdateFrequency` (`--node-status-update-frequency`): how often the status loop runs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub node_status_update_frequency: Option<GoDuration>,
    /// `nodeStatusReportFrequency`: how often an unchanged status is still patched. When only
    /// `nodeStatusUpdateFrequency` is set, it takes that value (KubeletConfiguration defaulting).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub node_status_report_frequency: Option<GoDuration>,
    /// `nodeLeaseDurationSeconds`: the Lease's duration; the kubelet renews at a quarter of it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub node_lease_duration_seconds: Option<i64>,
    /// `shutdownGracePeriod` (1.20+): how long a graceful node shutdown holds the power-off for
    /// the pods; `0s` (the default) leaves it inert.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shutdown_grace_period: Option<GoDuration>,
    /// `shutdownGracePeriodCriticalPods` (1.20+): the part of `shutdownGracePeriod` kept for
    /// critical pods, which are stopped last.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shutdown_grace_period_critical_pods: Option<GoDuration>,
}

impl KubeletSection {
    fn is_empty(&self) -> bool {
        *self == Self::default()
    }
}

/// kube-controller-manager flags, named as in its configuration (camelCase).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ControllerManagerSection {
    /// `--node-monitor-period`: how long the monitor loop waits between passes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub node_monitor_period: Option<GoDuration>,
    /// `--node-monitor-grace-period`: silence tolerated before a node is marked Unknown.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub node_monitor_grace_period: Option<GoDuration>,
    /// `--node-startup-grace-period`: the same for a node that never posted a status.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub node_startup_grace_period: Option<GoDuration>,
    /// `--node-eviction-rate`: nodes tainted per second per zone in a healthy zone.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub node_eviction_rate: Option<f64>,
    /// `--secondary-node-eviction-rate`: the rate in a partially disrupted large zone.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub secondary_node_eviction_rate: Option<f64>,
    /// `--large-cluster-size-threshold`: zones with more nodes than this use the secondary rate.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub large_cluster_size_threshold: Option<u32>,
    /// `--unhealthy-zone-threshold`: fraction of not-Ready nodes that makes a zone disrupted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unhealthy_zone_threshold: Option<f64>,
    /// `--pod-eviction-timeout` (up to 1.26): how long after the last heartbeat the legacy path
    /// deletes pods. Has no effect while taint-based eviction is on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pod_eviction_timeout: Option<GoDuration>,
    /// `--enable-taint-manager` (up to 1.26): `false` turns taint-based eviction off and the legacy
    /// path on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub enable_taint_manager: Option<bool>,
    /// `--kube-api-qps`: requests per second each controller's API client may make (default 20).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kube_api_qps: Option<f64>,
    /// `--kube-api-burst`: the burst of each controller's API client (default 30).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kube_api_burst: Option<u32>,
    /// `--disable-force-detach-on-timeout` (1.30+): the attach-detach controller never
    /// force-detaches a volume after the 6-minute wait.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub disable_force_detach_on_timeout: Option<bool>,
}

/// kube-proxy's settings.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct KubeProxySection {
    /// `--proxy-mode`: `iptables` (default), `ipvs` or `nftables` (1.29+).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mode: Option<String>,
    /// The mode's minimum sync period (`--iptables-min-sync-period`, …): default `1s` (`0s` up
    /// to 1.19).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_sync_period: Option<GoDuration>,
    /// The mode's sync period (`--iptables-sync-period`, …): default `30s`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sync_period: Option<GoDuration>,
}

impl KubeProxySection {
    fn is_empty(&self) -> bool {
        *self == Self::default()
    }
}

impl ControllerManagerSection {
    fn is_empty(&self) -> bool {
        *self == Self::default()
    }
}

/// kube-apiserver flags of the DefaultTolerationSeconds admission plugin.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ApiServerSection {
    /// `--default-not-ready-toleration-seconds`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default_not_ready_toleration_seconds: Option<i64>,
    /// `--default-unreachable-toleration-seconds`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default_unreachable_toleration_seconds: Option<i64>,
}

impl ApiServerSection {
    fn is_empty(&self) -> bool {
        *self == Self::default()
    }
}

/// Timings that no Kubernetes flag sets.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SimulationSection {
    /// Time for a write to reach watching controllers (informer latency); default `10ms`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub watch_latency: Option<GoDuration>,
    /// Round-trip time of one API request; default `5ms`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub api_latency: Option<GoDuration>,
    /// Time from a pod's binding to its Ready condition (image present, readiness probe passing);
    /// default `5s`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pod_startup: Option<GoDuration>,
    /// Time one monitor pass of the node lifecycle controller takes; default 1 ms plus 1 ms per
    /// 100 nodes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub monitor_pass_duration: Option<GoDuration>,
    /// Time a storage driver takes to attach a volume to a node; default `10s`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attach_duration: Option<GoDuration>,
    /// Time a storage driver takes to detach a volume; default `5s`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detach_duration: Option<GoDuration>,
    /// Time the kubelet takes to mount an attached volume; default `2s`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mount_duration: Option<GoDuration>,
    /// Time one kube-proxy sync takes; default `100ms`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub proxy_sync_duration: Option<GoDuration>,
    /// Whether a kubelet shutting down gracefully clears `volumesInUse` before power-off (so its
    /// volumes detach safely); default false, as upstream reports it usually does not.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub volumes_in_use_cleared_on_shutdown: Option<bool>,
}

impl SimulationSection {
    fn is_empty(&self) -> bool {
        *self == Self::default()
    }
}

/// One node.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct NodeSection {
    /// The node's name (required, unique).
    pub name: String,
    /// Its `topology.kubernetes.io/zone`; nodes without one share the zone `""`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub zone: Option<String>,
    /// Further labels, such as `node.kubernetes.io/exclude-disruption`.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub labels: BTreeMap<String, String>,
    /// KubeletConfiguration `maxPods` of this node; default 110.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_pods: Option<u32>,
}

/// The kinds of workload the engine runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum WorkloadKind {
    /// Pods named `<name>-<hash>-<suffix>`, replaced as soon as one is marked for deletion.
    #[default]
    Deployment,
    /// Pods named `<name>-<ordinal>`, replaced only once the old object is gone.
    StatefulSet,
    /// One pod per node, tolerating node problems forever.
    DaemonSet,
    /// One bare pod named exactly as the workload; never recreated.
    Pod,
}

/// One workload.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct WorkloadSection {
    /// Its kind.
    pub kind: WorkloadKind,
    /// Its name (required, unique); every pod name starts with it.
    pub name: String,
    /// Desired pods for a Deployment or StatefulSet; default 1. Not allowed for a DaemonSet or Pod.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replicas: Option<u32>,
    /// Pod `terminationGracePeriodSeconds`; default 30.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub termination_grace_period_seconds: Option<i64>,
    /// Pod tolerations, before admission adds the defaults.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tolerations: Vec<TolerationSection>,
    /// `true` puts the workload behind a Service (selecting its pods); an object gives the
    /// Service's type, its load balancer and `externalTrafficPolicy`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub service: Option<ServiceField>,
    /// A persistent volume the pods claim.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub volume: Option<VolumeSection>,
    /// A PodDisruptionBudget selecting the pods.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pdb: Option<PdbSection>,
    /// The pods' `priorityClassName`: `system-node-critical` and `system-cluster-critical` make
    /// them critical pods, which graceful node shutdown stops last.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub priority_class_name: Option<String>,
}

impl WorkloadSection {
    /// A workload of this kind and name with every other field at its default.
    pub fn new(kind: WorkloadKind, name: &str) -> WorkloadSection {
        WorkloadSection {
            kind,
            name: name.to_string(),
            ..Default::default()
        }
    }
}

/// A workload's `service`: `true` or `false` as before, or the Service object.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum ServiceField {
    /// `true`: a ClusterIP Service selects the pods; `false`: none.
    Enabled(bool),
    /// `{"type": …, "loadBalancer": …, "externalTrafficPolicy": …}`.
    Object(ServiceSection),
}

impl ServiceField {
    /// Whether a Service selects the pods.
    pub fn enabled(&self) -> bool {
        match self {
            ServiceField::Enabled(on) => *on,
            ServiceField::Object(_) => true,
        }
    }
}

/// The Service object as written; every member is optional.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ServiceSection {
    /// `ClusterIP` (default) or `LoadBalancer`.
    #[serde(rename = "type", default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
    /// `LoadBalancer` only: the load balancer in front (`super::load_balancers`); default the
    /// cloud provider's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub load_balancer: Option<String>,
    /// `LoadBalancer` only: `Cluster` (default) or `Local`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub external_traffic_policy: Option<String>,
}

/// A workload's volume.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct VolumeSection {
    /// `ReadWriteOnce` (default) or `ReadWriteMany`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub access_mode: Option<String>,
    /// `true`: one claim per pod (a StatefulSet's `volumeClaimTemplates`, the default for a
    /// StatefulSet); `false`: one claim all pods share.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub per_pod: Option<bool>,
}

/// A number of pods, or a percentage of the controller's scale (`"34%"`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum IntOrString {
    /// A number.
    Int(i64),
    /// A string such as `"34%"`.
    String(String),
}

/// A PodDisruptionBudget.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PdbSection {
    /// `minAvailable`: pods that must stay available.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_available: Option<IntOrString>,
    /// `maxUnavailable`: pods that may be unavailable.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_unavailable: Option<IntOrString>,
    /// `unhealthyPodEvictionPolicy` (1.27+): `IfHealthyBudget` (default) or `AlwaysAllow`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unhealthy_pod_eviction_policy: Option<String>,
}

/// A pod toleration, as in the pod spec.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TolerationSection {
    /// Taint key; empty with `Exists` matches every key.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub key: String,
    /// `Exists` or `Equal` (the default).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub operator: Option<String>,
    /// Value compared by `Equal`.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub value: String,
    /// `NoSchedule`, `PreferNoSchedule`, `NoExecute`, or empty for all.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub effect: String,
    /// Seconds a NoExecute taint is tolerated; absent means forever.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub toleration_seconds: Option<i64>,
}

/// The faults and operator actions a scenario can schedule.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum ActionKind {
    /// The host loses power: kubelet and containers stop.
    NodeCrash,
    /// The kubelet process stops; containers keep running.
    KubeletStop,
    /// The node cannot reach the apiserver; everything on it keeps running.
    NetworkPartition,
    /// Ends the node's current fault.
    NodeRecover,
    /// A new node's kubelet starts and registers (the node is absent until then).
    NodeJoin,
    /// kube-controller-manager restarts: its controllers lose their memory.
    ControllerManagerRestart,
    /// An operator adds `node.kubernetes.io/out-of-service` (non-graceful node shutdown).
    OutOfServiceTaint,
    /// An operator deletes the Node object.
    DeleteNode,
    /// An operator force-deletes a pod (`--grace-period=0 --force`).
    ForceDeletePod,
    /// `kubectl drain`: cordon, then evict every pod but DaemonSet pods.
    Drain,
    /// An operator patches `tolerationSeconds` of the `not-ready`/`unreachable` NoExecute
    /// tolerations of every live pod of a workload.
    PatchTolerations,
    /// Every API call takes `latencyMs` longer, until the next ApiServerLatency.
    ApiServerLatency,
    /// A graceful node shutdown (systemd's `PrepareForShutdown`): the kubelet's shutdown manager
    /// stops the pods within `shutdownGracePeriod`, then the node powers off.
    NodeShutdown,
    /// The node's cloud instance is terminated (deleted): power off, and the provider reports it
    /// gone once `cloud.instanceTerminationDuration` has passed.
    InstanceTerminated,
    /// The node's cloud instance is stopped (deallocated): power off; the instance still exists,
    /// stopped once `cloud.instanceStopDuration` has passed.
    InstanceStopped,
    /// The cloud reclaims a spot instance: a notice (`notice`), then the instance is terminated
    /// (GCP: stopped).
    SpotInterruption,
}

impl ActionKind {
    /// Whether the fault powers the machine off: the kubelet, its containers and kube-proxy
    /// stop (a crash, a graceful shutdown's end, an instance terminated, stopped or reclaimed).
    pub fn powers_off(self) -> bool {
        matches!(
            self,
            ActionKind::NodeCrash
                | ActionKind::NodeShutdown
                | ActionKind::InstanceTerminated
                | ActionKind::InstanceStopped
                | ActionKind::SpotInterruption
        )
    }

    /// Whether the action is a fault of the node itself: its machine, kubelet or network fails,
    /// and the run records a `FaultStarted` for it.
    pub fn is_fault(self) -> bool {
        self.faulted() == Faulted::Itself
    }

    /// Which node the action faults: the node whose milestones are measured from it, unless a
    /// fault of that node came first. A zone outage is one fault per node of its zone.
    pub fn faulted(self) -> Faulted {
        match self {
            ActionKind::NodeCrash
            | ActionKind::KubeletStop
            | ActionKind::NetworkPartition
            | ActionKind::NodeShutdown
            | ActionKind::InstanceTerminated
            | ActionKind::InstanceStopped
            | ActionKind::SpotInterruption => Faulted::Itself,
            ActionKind::Drain | ActionKind::OutOfServiceTaint | ActionKind::DeleteNode => Faulted::Named,
            ActionKind::ForceDeletePod => Faulted::PodsNode,
            ActionKind::NodeRecover
            | ActionKind::NodeJoin
            | ActionKind::ControllerManagerRestart
            | ActionKind::PatchTolerations
            | ActionKind::ApiServerLatency => Faulted::Nothing,
        }
    }

    /// Whether the action names a node.
    pub fn needs_node(self) -> bool {
        !matches!(
            self,
            ActionKind::ControllerManagerRestart
                | ActionKind::ForceDeletePod
                | ActionKind::ApiServerLatency
                | ActionKind::PatchTolerations
        )
    }
}

/// The node an action faults ([`ActionKind::faulted`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Faulted {
    /// The node it names fails (a crash, a kubelet stop, a partition, a graceful shutdown, an
    /// instance terminated, stopped or reclaimed): the run records its `FaultStarted`.
    Itself,
    /// The node it names, by an operator's action on it (`kubectl drain`, the out-of-service
    /// taint, the Node deleted), from the action's first event.
    Named,
    /// The node of the pod an operator force-deletes, from the pod's removal.
    PodsNode,
    /// No node: a recovery, a join, or an action on the whole cluster or a workload.
    Nothing,
}

/// One scheduled action.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ActionSection {
    /// When it happens (Go duration from the start of the run).
    pub at: GoDuration,
    /// What happens.
    pub action: ActionKind,
    /// The node it happens to (every action but ControllerManagerRestart, ForceDeletePod and
    /// ApiServerLatency).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub node: Option<String>,
    /// ForceDeletePod: the pod's name (StatefulSet pods are `<name>-<ordinal>`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pod: Option<String>,
    /// ApiServerLatency: milliseconds added to every API call.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub latency_ms: Option<i64>,
    /// OutOfServiceTaint: `NoExecute` (default) or `NoSchedule`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub effect: Option<String>,
    /// ControllerManagerRestart: how long no controller runs (leader takeover); default `0s`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub duration: Option<GoDuration>,
    /// PatchTolerations: the workload whose pods are patched.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub workload: Option<String>,
    /// PatchTolerations: the new tolerationSeconds, s.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub toleration_seconds: Option<i64>,
    /// SpotInterruption: the notice before the instance is reclaimed; default the provider's
    /// (AWS `2m0s`, GCP `30s`, Azure `30s`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub notice: Option<GoDuration>,
}

impl ActionSection {
    /// An action at `at` ms with no target or parameters yet.
    pub fn new(at: Millis, action: ActionKind) -> ActionSection {
        ActionSection {
            at: GoDuration(at),
            action,
            node: None,
            pod: None,
            latency_ms: None,
            effect: None,
            duration: None,
            workload: None,
            toleration_seconds: None,
            notice: None,
        }
    }
}

/// `cloud`: the provider and its cloud-side timings. Durations are Go durations.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CloudSection {
    /// `aws`, `gcp` or `azure` (required).
    pub provider: Provider,
    /// The cloud-controller-manager's `--node-monitor-period`: the sliding period of the cloud
    /// node lifecycle controller's `MonitorNodes` ([`settings::NODE_MONITOR_PERIOD`](super::settings::NODE_MONITOR_PERIOD): its default
    /// and rule, as each field's below).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub node_monitor_period: Option<GoDuration>,
    /// `E`: from an instance's termination until the provider reports it gone (EC2
    /// `shutting-down` to `terminated`, a GCE or Azure VM's deletion)
    /// ([`settings::INSTANCE_TERMINATION_DURATION`](super::settings::INSTANCE_TERMINATION_DURATION)).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub instance_termination_duration: Option<GoDuration>,
    /// From an instance's stop until the provider reports it stopped (EC2 `stopping` to
    /// `stopped`, Azure deallocating) ([`settings::INSTANCE_STOP_DURATION`](super::settings::INSTANCE_STOP_DURATION)).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub instance_stop_duration: Option<GoDuration>,
    /// `V`: a remediator's deletion of a machine until the provider reports the VM gone
    /// ([`settings::INSTANCE_DELETION_DURATION`](super::settings::INSTANCE_DELETION_DURATION)).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub instance_deletion_duration: Option<GoDuration>,
    /// `B`: a new or rebooted instance's boot until its kubelet registers
    /// ([`settings::NODE_BOOT_DURATION`](super::settings::NODE_BOOT_DURATION)).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub node_boot_duration: Option<GoDuration>,
    /// One cloud API call of a `MonitorNodes` pass (`InstanceExists`, `InstanceShutdown`)
    /// ([`settings::API_CALL_DURATION`](super::settings::API_CALL_DURATION)).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub api_call_duration: Option<GoDuration>,
    /// Azure only: the VM cache's TTL: the provider answers from a cache refreshed this often, so
    /// it sees a stop or a deletion up to this late ([`settings::VM_CACHE_TTL`](super::settings::VM_CACHE_TTL)).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vm_cache_ttl: Option<GoDuration>,
    /// AWS only: the capacity type of the EKS managed node group the nodes are in, `ON_DEMAND`
    /// or `SPOT`, or `none` (self-managed instances, Karpenter's) for a node without the
    /// `eks.amazonaws.com/capacityType` label ([`settings::MANAGED_NODE_GROUP`](super::settings::MANAGED_NODE_GROUP)).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub managed_node_group: Option<String>,
}

impl CloudSection {
    /// `provider` with every cloud-side duration at its default.
    pub fn new(provider: Provider) -> CloudSection {
        CloudSection {
            provider,
            node_monitor_period: None,
            instance_termination_duration: None,
            instance_stop_duration: None,
            instance_deletion_duration: None,
            node_boot_duration: None,
            api_call_duration: None,
            vm_cache_ttl: None,
            managed_node_group: None,
        }
    }
}

/// One `{type, status, timeout}` of a health check.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ConditionSection {
    /// The node condition's type, such as `Ready`.
    #[serde(rename = "type")]
    pub kind: String,
    /// `True`, `False` or `Unknown`.
    pub status: String,
    /// How long the condition must hold (since its `lastTransitionTime`).
    pub timeout: GoDuration,
}

/// Cluster API `MachineHealthCheck` (v1beta1 names).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct MachineHealthCheckSection {
    /// `spec.unhealthyConditions` ([`settings::MHC_CONDITIONS`](super::settings::MHC_CONDITIONS): the default checks' timeout).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unhealthy_conditions: Option<Vec<ConditionSection>>,
    /// `spec.nodeStartupTimeout`, `0s` turning it off ([`settings::MHC_NODE_STARTUP_TIMEOUT`](super::settings::MHC_NODE_STARTUP_TIMEOUT)).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub node_startup_timeout: Option<GoDuration>,
    /// `spec.maxUnhealthy`: a count or a percentage ([`settings::MHC_MAX_UNHEALTHY`](super::settings::MHC_MAX_UNHEALTHY)).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_unhealthy: Option<IntOrString>,
    /// Cluster API's version, such as `"1.8"` (the unreachable node's drain changed in 1.8)
    /// ([`settings::MHC_CLUSTER_API_VERSION`](super::settings::MHC_CLUSTER_API_VERSION)).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cluster_api_version: Option<String>,
    /// From a replacement Machine's creation until its kubelet registers the Node; default the
    /// cloud's `nodeBootDuration` ([`settings::MHC_REPLACEMENT_JOIN_DURATION`](super::settings::MHC_REPLACEMENT_JOIN_DURATION)). Longer than
    /// `nodeStartupTimeout`, the replacement is itself remediated.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replacement_join_duration: Option<GoDuration>,
}

/// medik8s `NodeHealthCheck` with Self Node Remediation.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SelfNodeRemediationSection {
    /// NHC `unhealthyConditions` ([`settings::SNR_CONDITIONS`](super::settings::SNR_CONDITIONS)).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unhealthy_conditions: Option<Vec<ConditionSection>>,
    /// NHC `minHealthy`: a count or a percentage ([`settings::SNR_MIN_HEALTHY`](super::settings::SNR_MIN_HEALTHY)).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_healthy: Option<IntOrString>,
    /// One of [`settings::SNR_STRATEGIES`](super::settings::SNR_STRATEGIES), the first the default.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub strategy: Option<String>,
    /// `safeTimeToAssumeNodeRebootedSeconds` as a Go duration; default the computed minimum; a
    /// lower value is ignored, as upstream does ([`settings::SNR_SAFE_TIME_TO_ASSUME_NODE_REBOOTED`](super::settings::SNR_SAFE_TIME_TO_ASSUME_NODE_REBOOTED)).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub safe_time_to_assume_node_rebooted: Option<GoDuration>,
}

/// Karpenter: node repair (the `NodeRepair` feature gate) and interruption handling.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct KarpenterSection {
    /// The `NodeRepair` feature gate, alpha ([`settings::KARPENTER_NODE_REPAIR`](super::settings::KARPENTER_NODE_REPAIR)).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub node_repair: Option<bool>,
    /// The provider's repair policies ([`settings::KARPENTER_CONDITIONS`](super::settings::KARPENTER_CONDITIONS): the default checks'
    /// timeout on each provider).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unhealthy_conditions: Option<Vec<ConditionSection>>,
    /// `--interruption-queue` set (AWS): a spot interruption warning or an instance state change
    /// makes Karpenter delete the NodeClaim (cordon and drain) when the message comes
    /// ([`settings::KARPENTER_INTERRUPTION_QUEUE`](super::settings::KARPENTER_INTERRUPTION_QUEUE)).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub interruption_queue: Option<bool>,
    /// From the instance event (the spot notice, the stop or termination) until Karpenter acts
    /// on its SQS message (EventBridge delivery and the long poll)
    /// ([`settings::KARPENTER_INTERRUPTION_MESSAGE_LATENCY`](super::settings::KARPENTER_INTERRUPTION_MESSAGE_LATENCY)).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub interruption_message_latency: Option<GoDuration>,
}

/// GKE node auto-repair.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct GkeSection {
    /// NotReady (or no status) this long before a repair ([`settings::GKE_NOT_READY_TIMEOUT`](super::settings::GKE_NOT_READY_TIMEOUT)).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub not_ready_timeout: Option<GoDuration>,
    /// How long the repair waits for the drain ([`settings::GKE_DRAIN_TIMEOUT`](super::settings::GKE_DRAIN_TIMEOUT)).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub drain_timeout: Option<GoDuration>,
}

/// EKS node auto repair (managed node groups, `nodeRepairConfig.enabled`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct EksSection {
    /// `Ready` not True this long before a replacement ([`settings::EKS_READY_TIMEOUT`](super::settings::EKS_READY_TIMEOUT)).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ready_timeout: Option<GoDuration>,
    /// The breaker: no repair in a group of more than 5 nodes with more than this percentage
    /// unhealthy ([`settings::EKS_MAX_UNHEALTHY_PERCENTAGE`](super::settings::EKS_MAX_UNHEALTHY_PERCENTAGE)).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_unhealthy_percentage: Option<u32>,
}

/// AKS node auto-repair.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AksSection {
    /// From `Ready` not True to the first reboot ([`settings::AKS_DETECTION_DELAY`](super::settings::AKS_DETECTION_DELAY): its default
    /// and its window).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detection_delay: Option<GoDuration>,
}

/// One remediator, `{"kind": K, ...}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind")]
pub enum RemediationSection {
    /// Cluster API MachineHealthCheck.
    MachineHealthCheck(MachineHealthCheckSection),
    /// medik8s NodeHealthCheck + Self Node Remediation.
    SelfNodeRemediation(SelfNodeRemediationSection),
    /// Karpenter node repair and interruption handling.
    KarpenterNodeRepair(KarpenterSection),
    /// GKE node auto-repair.
    #[serde(rename = "GKEAutoRepair")]
    GkeAutoRepair(GkeSection),
    /// EKS node auto repair.
    #[serde(rename = "EKSNodeAutoRepair")]
    EksNodeAutoRepair(EksSection),
    /// AKS node auto-repair.
    #[serde(rename = "AKSAutoRepair")]
    AksAutoRepair(AksSection),
}

/// A scenario that could not be read, naming the field and the reason.
#[derive(Debug, Clone, PartialEq)]
pub struct ScenarioError {
    /// Path of the offending field, such as `kubelet.nodeStatusUpdateFrequency` or `nodes[2].name`.
    pub field: String,
    /// What is wrong with it, as a message each language renders (`scenario.*`).
    pub reason: Cause,
}

/// In English: `field: reason`, or the reason alone for the whole scenario.
impl fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.field.is_empty() || self.field == "." {
            write!(f, "{}", self.reason)
        } else {
            write!(f, "{}: {}", self.field, self.reason)
        }
    }
}

impl std::error::Error for ScenarioError {}

pub(crate) fn bad(field: impl Into<String>, reason: Cause) -> ScenarioError {
    ScenarioError {
        field: field.into(),
        reason,
    }
}

/// The message `key` about a value as the scenario writes it, quoted (`"Bad_Name"`): `{value}`.
pub(crate) fn quoted(key: &'static str, value: &str) -> Cause {
    Cause::new(key).text("value", format!("{value:?}"))
}

/// A name already given to `other` (`nodes[0]`).
fn taken(name: &str, other: String) -> Cause {
    quoted("scenario.name.taken", name).text("other", other)
}

/// `list[i]`, whose name is checked and must not be `list[prev]`'s, the earlier entry that has it
/// already, if one does.
pub(crate) fn unique_name(list: &str, i: usize, name: &str, prev: Option<usize>) -> Result<String, ScenarioError> {
    let field = format!("{list}[{i}]");
    let at = member(&field, "name");
    check_name(name, &at)?;
    match prev {
        Some(prev) => Err(bad(at, taken(name, format!("{list}[{prev}]")))),
        None => Ok(field),
    }
}

/// Member `name` of `field`: `clients[0].target`.
pub(crate) fn member(field: &str, name: &str) -> String {
    format!("{field}.{name}")
}

fn check_name(name: &str, field: &str) -> Result<(), ScenarioError> {
    let ok = !name.is_empty()
        && name.len() <= 200
        && name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' || b == b'.')
        && name.as_bytes()[0].is_ascii_alphanumeric()
        && name.as_bytes()[name.len() - 1].is_ascii_alphanumeric();
    if ok {
        Ok(())
    } else {
        Err(bad(field, quoted("scenario.name.invalid", name)))
    }
}

/// `value` outside the whole numbers `lo` to `hi`.
pub(crate) fn between(lo: i64, hi: i64, value: impl Into<i64>) -> Cause {
    Cause::new("scenario.between")
        .text("min", lo)
        .text("max", hi)
        .text("value", value.into())
}

impl Scenario {
    /// Reads a scenario from JSON. Unknown fields and malformed values are errors naming the field.
    pub fn from_json(text: &str) -> Result<Scenario, ScenarioError> {
        let de = &mut serde_json::Deserializer::from_str(text);
        serde_path_to_error::deserialize(de).map_err(|e| {
            let field = e.path().to_string();
            let said = e.inner().to_string();
            let duration = said
                .starts_with("invalid duration ")
                .then(|| duration_at(text, e.path()))
                .flatten();
            let inner = e.into_inner();
            let at = (inner.line(), inner.column());
            // serde_json says where: " at line L column C". It helps with long files.
            let reason = match duration {
                Some(why) if at.0 > 0 => Cause::new("scenario.located")
                    .sub("reason", why)
                    .text("line", at.0)
                    .text("column", at.1),
                Some(why) => why,
                None => Cause::parser(&said, Some(at)),
            };
            bad(if field == "." { String::new() } else { field }, reason)
        })
    }

    /// Writes the scenario as pretty JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("a Scenario always serializes")
    }
}

/// The reason a Go duration at `path` of the scenario's JSON is refused, when the value there is
/// a string no Go duration reads: serde hands the duration's error on as text, so it is read
/// again here as a message.
fn duration_at(text: &str, path: &serde_path_to_error::Path) -> Option<Cause> {
    use serde_path_to_error::Segment;
    let mut value: serde_json::Value = serde_json::from_str(text).ok()?;
    for segment in path {
        value = match segment {
            Segment::Seq { index } => value.get_mut(*index)?.take(),
            Segment::Map { key } => value.get_mut(key.as_str())?.take(),
            Segment::Enum { .. } | Segment::Unknown => return None,
        };
    }
    parse_go_duration(value.as_str()?).err().map(|e| e.cause())
}

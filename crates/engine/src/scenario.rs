//! The scenario file: what the user describes, and its validated, defaulted form.
//!
//! [`Scenario`] is the pinned JSON format. Field names follow the upstream configuration names
//! (KubeletConfiguration, kube-controller-manager and kube-apiserver flags in camelCase), durations
//! are Go duration strings, and every omitted field takes the chosen version's default.
//! [`Scenario::resolve`] turns it into a [`Config`] with every value filled in, or into a
//! [`ScenarioError`] that names the offending field and says why.

use crate::cause::Cause;
use crate::time::{format_go_duration, parse_go_duration, Millis, HOUR, SECOND};
use crate::version::{Gate, GateStage, Profile, Version};
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
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<GoDuration, E> {
                parse_go_duration(v).map(GoDuration).map_err(|e| E::custom(e.0))
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
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum WorkloadKind {
    /// Pods named `<name>-<hash>-<suffix>`, replaced as soon as one is marked for deletion.
    Deployment,
    /// Pods named `<name>-<ordinal>`, replaced only once the old object is gone.
    StatefulSet,
    /// One pod per node, tolerating node problems forever.
    DaemonSet,
    /// One bare pod named exactly as the workload; never recreated.
    Pod,
}

/// One workload.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
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
}

impl ActionKind {
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
        }
    }
}

/// A scenario that could not be read, naming the field and the reason.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScenarioError {
    /// Path of the offending field, such as `kubelet.nodeStatusUpdateFrequency` or `nodes[2].name`.
    pub field: String,
    /// What is wrong with it.
    pub reason: String,
}

impl fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.field.is_empty() || self.field == "." {
            f.write_str(&self.reason)
        } else {
            write!(f, "{}: {}", self.field, self.reason)
        }
    }
}

impl std::error::Error for ScenarioError {}

fn bad(field: impl Into<String>, reason: impl Into<String>) -> ScenarioError {
    ScenarioError {
        field: field.into(),
        reason: reason.into(),
    }
}

/// Resolved kubelet settings, in ms except where named.
#[derive(Debug, Clone, PartialEq)]
pub struct KubeletConfig {
    /// `nodeStatusUpdateFrequency`, ms.
    pub node_status_update_frequency: Millis,
    /// `nodeStatusReportFrequency`, ms.
    pub node_status_report_frequency: Millis,
    /// `nodeLeaseDurationSeconds`, seconds.
    pub node_lease_duration_seconds: i64,
    /// Whether the kubelet renews a Lease (the `NodeLease` gate).
    pub node_lease: bool,
    /// The Lease renew interval for this version, ms.
    pub lease_renew_interval: Millis,
}

/// Resolved kube-controller-manager settings.
#[derive(Debug, Clone, PartialEq)]
pub struct ControllerManagerConfig {
    /// `--node-monitor-period`, ms.
    pub node_monitor_period: Millis,
    /// `--node-monitor-grace-period`, ms.
    pub node_monitor_grace_period: Millis,
    /// `--node-startup-grace-period`, ms.
    pub node_startup_grace_period: Millis,
    /// `--node-eviction-rate`, nodes per second.
    pub node_eviction_rate: f64,
    /// `--secondary-node-eviction-rate`, nodes per second.
    pub secondary_node_eviction_rate: f64,
    /// `--large-cluster-size-threshold`, nodes.
    pub large_cluster_size_threshold: u32,
    /// `--unhealthy-zone-threshold`, fraction.
    pub unhealthy_zone_threshold: f64,
    /// `--pod-eviction-timeout`, ms (used only by the legacy path).
    pub pod_eviction_timeout: Millis,
    /// `--enable-taint-manager`: whether the taint eviction controller runs.
    pub enable_taint_manager: bool,
    /// Whether the node lifecycle controller taints (true) or deletes pods after
    /// `--pod-eviction-timeout` (false): `TaintBasedEvictions` and the taint manager both on.
    pub taint_based_evictions: bool,
}

/// Resolved kube-apiserver settings.
#[derive(Debug, Clone, PartialEq)]
pub struct ApiServerConfig {
    /// `--default-not-ready-toleration-seconds`.
    pub default_not_ready_toleration_seconds: i64,
    /// `--default-unreachable-toleration-seconds`.
    pub default_unreachable_toleration_seconds: i64,
}

/// Resolved simulation timings, ms.
#[derive(Debug, Clone, PartialEq)]
pub struct SimulationConfig {
    /// Informer latency, ms.
    pub watch_latency: Millis,
    /// API round trip, ms.
    pub api_latency: Millis,
    /// Binding to Ready, ms.
    pub pod_startup: Millis,
    /// One monitor pass, ms.
    pub monitor_pass_duration: Millis,
}

/// A toleration in resolved form.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Toleration {
    /// Taint key; empty matches all keys (with `Exists`).
    pub key: String,
    /// `true` for `Exists`, `false` for `Equal`.
    pub exists: bool,
    /// Value for `Equal`.
    pub value: String,
    /// Effect, or `None` for all effects.
    pub effect: Option<crate::api::Effect>,
    /// Seconds a NoExecute taint is tolerated; `None` means forever.
    pub toleration_seconds: Option<i64>,
    /// Who added it, for explanations.
    pub source: TolerationSource,
}

/// Who put a toleration on a pod.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TolerationSource {
    /// The workload's pod template.
    Spec,
    /// kube-apiserver's DefaultTolerationSeconds admission plugin.
    DefaultTolerationSeconds,
    /// The DaemonSet controller.
    DaemonSet,
}

/// A resolved node.
#[derive(Debug, Clone, PartialEq)]
pub struct NodeSpec {
    /// Name.
    pub name: String,
    /// Zone (may be empty).
    pub zone: String,
    /// Labels.
    pub labels: BTreeMap<String, String>,
    /// `maxPods`.
    pub max_pods: u32,
    /// When a NodeJoin action registers it; `None` for nodes present from the start.
    pub join_at: Option<Millis>,
}

/// A resolved workload.
#[derive(Debug, Clone, PartialEq)]
pub struct WorkloadSpec {
    /// Kind.
    pub kind: WorkloadKind,
    /// Name.
    pub name: String,
    /// Desired pods (for a DaemonSet: recomputed from the nodes; for a Pod: 1).
    pub replicas: u32,
    /// `terminationGracePeriodSeconds`.
    pub termination_grace_period_seconds: i64,
    /// Tolerations written in the spec.
    pub tolerations: Vec<Toleration>,
}

/// A resolved action.
#[derive(Debug, Clone, PartialEq)]
pub struct ActionSpec {
    /// Time, ms.
    pub at: Millis,
    /// Kind.
    pub action: ActionKind,
    /// Target node index, for node actions.
    pub node: Option<usize>,
    /// Target pod name, for ForceDeletePod.
    pub pod: Option<String>,
    /// Added API latency for ApiServerLatency, ms.
    pub latency: Millis,
    /// Effect for OutOfServiceTaint.
    pub effect: crate::api::Effect,
    /// Controller downtime for ControllerManagerRestart, ms.
    pub duration: Millis,
    /// Workload index for PatchTolerations.
    pub workload: Option<usize>,
    /// New tolerationSeconds for PatchTolerations, s.
    pub toleration_seconds: i64,
}

/// A scenario with every default applied and every value checked.
#[derive(Debug, Clone, PartialEq)]
pub struct Config {
    /// The version's profile.
    pub profile: Profile,
    /// Seed.
    pub seed: u64,
    /// Run length, ms.
    pub duration: Millis,
    /// Kubelet settings.
    pub kubelet: KubeletConfig,
    /// kube-controller-manager settings.
    pub controller_manager: ControllerManagerConfig,
    /// kube-apiserver settings.
    pub api_server: ApiServerConfig,
    /// Simulation timings.
    pub simulation: SimulationConfig,
    /// Nodes.
    pub nodes: Vec<NodeSpec>,
    /// Workloads.
    pub workloads: Vec<WorkloadSpec>,
    /// Actions, sorted by time (stable).
    pub actions: Vec<ActionSpec>,
    /// Whether NodeOutOfServiceVolumeDetach is on (PodGC force-deletes on out-of-service nodes).
    pub out_of_service_volume_detach: bool,
    /// Sentences about settings that the version ignores or that deserve a second look.
    pub warnings: Vec<Cause>,
}

impl Scenario {
    /// Reads a scenario from JSON. Unknown fields and malformed values are errors naming the field.
    pub fn from_json(text: &str) -> Result<Scenario, ScenarioError> {
        let de = &mut serde_json::Deserializer::from_str(text);
        serde_path_to_error::deserialize(de).map_err(|e| {
            let field = e.path().to_string();
            let inner = e.into_inner();
            let mut reason = inner.to_string();
            // serde_json appends " at line L column C"; keep it, it helps with long files.
            if reason.starts_with("missing field") && field == "." {
                reason = format!("scenario {reason}");
            }
            bad(if field == "." { String::new() } else { field }, reason)
        })
    }

    /// Writes the scenario as pretty JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("a Scenario always serializes")
    }

    /// Applies the version's defaults and checks every value.
    pub fn resolve(&self) -> Result<Config, ScenarioError> {
        let version = match &self.version {
            Some(v) => Version::parse(v).map_err(|e| bad("version", e))?,
            None => Version::default(),
        };
        let p = version.profile();
        let duration_seconds = self.duration_seconds.unwrap_or(900);
        if duration_seconds <= 0 || duration_seconds > MAX_DURATION_SECONDS {
            return Err(bad(
                "durationSeconds",
                format!("must be between 1 and {MAX_DURATION_SECONDS} (6h), got {duration_seconds}"),
            ));
        }
        let duration = duration_seconds * SECOND;

        let mut warnings = Vec::new();
        let gates = resolve_feature_gates(&self.feature_gates, version, &mut warnings)?;
        let node_lease = gates.node_lease;

        let k = &self.kubelet;
        if k.node_status_report_frequency.is_some() && !p.has_report_frequency {
            return Err(bad(
                "kubelet.nodeStatusReportFrequency",
                format!("KubeletConfiguration has no nodeStatusReportFrequency before 1.13 (this is {version}): every status tick patches"),
            ));
        }
        if k.node_status_report_frequency.is_some() && !node_lease {
            warnings.push(Cause::new("warn.report_without_lease").text("version", version));
        }
        let update = positive(
            k.node_status_update_frequency,
            p.kubelet.node_status_update_frequency,
            "kubelet.nodeStatusUpdateFrequency",
        )?;
        // KubeletConfiguration defaulting: when the file sets nodeStatusUpdateFrequency but not
        // nodeStatusReportFrequency, the report frequency takes the update frequency (SetDefaults_KubeletConfiguration).
        let report_default = if k.node_status_update_frequency.is_some() {
            update
        } else {
            p.kubelet.node_status_report_frequency
        };
        let report = positive(
            k.node_status_report_frequency,
            report_default,
            "kubelet.nodeStatusReportFrequency",
        )?;
        let lease_seconds = k
            .node_lease_duration_seconds
            .unwrap_or(p.kubelet.node_lease_duration_seconds);
        if lease_seconds <= 0 || lease_seconds > 3600 {
            return Err(bad(
                "kubelet.nodeLeaseDurationSeconds",
                format!("must be between 1 and 3600, got {lease_seconds}"),
            ));
        }
        let kubelet = KubeletConfig {
            node_status_update_frequency: update,
            node_status_report_frequency: report,
            node_lease_duration_seconds: lease_seconds,
            node_lease,
            lease_renew_interval: p.lease_renew_interval(lease_seconds).max(1),
        };

        let c = &self.controller_manager;
        if !p.has_legacy_eviction_flags {
            for (set, flag, field) in [
                (
                    c.pod_eviction_timeout.is_some(),
                    "--pod-eviction-timeout",
                    "controllerManager.podEvictionTimeout",
                ),
                (
                    c.enable_taint_manager.is_some(),
                    "--enable-taint-manager",
                    "controllerManager.enableTaintManager",
                ),
            ] {
                if set {
                    return Err(bad(
                        field,
                        format!("{flag} was removed in Kubernetes 1.27; kube-controller-manager {version} refuses to start with it (unknown flag). Tune apiServer.defaultUnreachableTolerationSeconds or pod tolerationSeconds instead"),
                    ));
                }
            }
        }
        let enable_taint_manager = c.enable_taint_manager.unwrap_or(true);
        if c.enable_taint_manager.is_some() && version.minor >= 25 {
            warnings.push(Cause::new("warn.taint_manager_deprecated").text("version", version));
        }
        let taint_based_evictions = gates.taint_based_evictions && enable_taint_manager;
        if c.pod_eviction_timeout.is_some() && taint_based_evictions {
            warnings.push(Cause::new("warn.pod_eviction_timeout_ignored").text("version", version));
        }
        let pod_eviction_timeout = c
            .pod_eviction_timeout
            .map_or(p.controller_manager.pod_eviction_timeout, |g| g.0);
        if !(0..=24 * HOUR).contains(&pod_eviction_timeout) {
            return Err(bad(
                "controllerManager.podEvictionTimeout",
                format!(
                    "must be between 0s and 24h0m0s, got {}",
                    format_go_duration(pod_eviction_timeout)
                ),
            ));
        }
        if !gates.taint_based_evictions && enable_taint_manager && version.minor >= 13 {
            warnings.push(Cause::new("warn.tbe_off").text("version", version));
        }

        let rate = |v: Option<f64>, d: f64, f: &str| -> Result<f64, ScenarioError> {
            let v = v.unwrap_or(d);
            if !v.is_finite() || !(0.0..=1_000_000.0).contains(&v) {
                return Err(bad(
                    f,
                    format!("must be a rate of at least 0 (nodes per second), got {v}"),
                ));
            }
            Ok(v)
        };
        let threshold = c
            .unhealthy_zone_threshold
            .unwrap_or(p.controller_manager.unhealthy_zone_threshold);
        if !threshold.is_finite() || !(0.0..=1.0).contains(&threshold) {
            return Err(bad(
                "controllerManager.unhealthyZoneThreshold",
                format!("must be a fraction between 0 and 1, got {threshold}"),
            ));
        }
        let controller_manager = ControllerManagerConfig {
            node_monitor_period: positive(
                c.node_monitor_period,
                p.controller_manager.node_monitor_period,
                "controllerManager.nodeMonitorPeriod",
            )?,
            node_monitor_grace_period: positive(
                c.node_monitor_grace_period,
                p.controller_manager.node_monitor_grace_period,
                "controllerManager.nodeMonitorGracePeriod",
            )?,
            node_startup_grace_period: positive(
                c.node_startup_grace_period,
                p.controller_manager.node_startup_grace_period,
                "controllerManager.nodeStartupGracePeriod",
            )?,
            node_eviction_rate: rate(
                c.node_eviction_rate,
                p.controller_manager.node_eviction_rate,
                "controllerManager.nodeEvictionRate",
            )?,
            secondary_node_eviction_rate: rate(
                c.secondary_node_eviction_rate,
                p.controller_manager.secondary_node_eviction_rate,
                "controllerManager.secondaryNodeEvictionRate",
            )?,
            large_cluster_size_threshold: c
                .large_cluster_size_threshold
                .unwrap_or(p.controller_manager.large_cluster_size_threshold),
            unhealthy_zone_threshold: threshold,
            pod_eviction_timeout,
            enable_taint_manager,
            taint_based_evictions,
        };

        let a = &self.api_server;
        let tol = |v: Option<i64>, d: i64, f: &str| -> Result<i64, ScenarioError> {
            let v = v.unwrap_or(d);
            if !(0..=10_000_000).contains(&v) {
                return Err(bad(f, format!("must be between 0 and 10000000 seconds, got {v}")));
            }
            Ok(v)
        };
        let api_server = ApiServerConfig {
            default_not_ready_toleration_seconds: tol(
                a.default_not_ready_toleration_seconds,
                p.api_server.default_not_ready_toleration_seconds,
                "apiServer.defaultNotReadyTolerationSeconds",
            )?,
            default_unreachable_toleration_seconds: tol(
                a.default_unreachable_toleration_seconds,
                p.api_server.default_unreachable_toleration_seconds,
                "apiServer.defaultUnreachableTolerationSeconds",
            )?,
        };

        let s = &self.simulation;
        let non_negative = |v: Option<GoDuration>, d: Millis, f: &str, max: Millis| -> Result<Millis, ScenarioError> {
            let v = v.map_or(d, |g| g.0);
            if v < 0 || v > max {
                return Err(bad(
                    f,
                    format!(
                        "must be between 0s and {}, got {}",
                        format_go_duration(max),
                        format_go_duration(v)
                    ),
                ));
            }
            Ok(v)
        };
        if self.nodes.is_empty() {
            return Err(bad("nodes", "a scenario needs at least one node"));
        }
        if self.nodes.len() > MAX_NODES {
            return Err(bad(
                "nodes",
                format!("at most {MAX_NODES} nodes are supported, got {}", self.nodes.len()),
            ));
        }
        let simulation = SimulationConfig {
            watch_latency: non_negative(s.watch_latency, 10, "simulation.watchLatency", 10 * SECOND)?,
            api_latency: non_negative(s.api_latency, 5, "simulation.apiLatency", 10 * SECOND)?,
            pod_startup: non_negative(s.pod_startup, 5 * SECOND, "simulation.podStartup", HOUR)?,
            monitor_pass_duration: non_negative(
                s.monitor_pass_duration,
                1 + self.nodes.len() as Millis / 100,
                "simulation.monitorPassDuration",
                10 * SECOND,
            )?,
        };

        let mut nodes = Vec::with_capacity(self.nodes.len());
        let mut names = BTreeMap::new();
        for (i, n) in self.nodes.iter().enumerate() {
            let field = format!("nodes[{i}]");
            check_name(&n.name, &format!("{field}.name"))?;
            if let Some(prev) = names.insert(n.name.clone(), i) {
                return Err(bad(
                    format!("{field}.name"),
                    format!("{:?} is already the name of nodes[{prev}]", n.name),
                ));
            }
            let max_pods = n.max_pods.unwrap_or(110);
            if max_pods == 0 || max_pods > 10_000 {
                return Err(bad(
                    format!("{field}.maxPods"),
                    format!("must be between 1 and 10000, got {max_pods}"),
                ));
            }
            nodes.push(NodeSpec {
                name: n.name.clone(),
                zone: n.zone.clone().unwrap_or_default(),
                labels: n.labels.clone(),
                max_pods,
                join_at: None,
            });
        }

        let mut workloads = Vec::with_capacity(self.workloads.len());
        let mut wnames = BTreeMap::new();
        let mut total_pods: u64 = 0;
        for (i, w) in self.workloads.iter().enumerate() {
            let field = format!("workloads[{i}]");
            check_name(&w.name, &format!("{field}.name"))?;
            if let Some(prev) = wnames.insert(w.name.clone(), i) {
                return Err(bad(
                    format!("{field}.name"),
                    format!("{:?} is already the name of workloads[{prev}]", w.name),
                ));
            }
            let replicas = match (w.kind, w.replicas) {
                (WorkloadKind::DaemonSet, Some(_)) => {
                    return Err(bad(
                        format!("{field}.replicas"),
                        "a DaemonSet runs one pod per node and takes no replicas",
                    ))
                }
                (WorkloadKind::Pod, Some(r)) if r != 1 => {
                    return Err(bad(
                        format!("{field}.replicas"),
                        "a bare Pod is exactly one pod; remove replicas or use a Deployment",
                    ))
                }
                (WorkloadKind::DaemonSet, None) => nodes.len() as u32,
                (WorkloadKind::Pod, _) => 1,
                (_, r) => r.unwrap_or(1),
            };
            total_pods += u64::from(replicas);
            let grace = w.termination_grace_period_seconds.unwrap_or(30);
            if !(0..=86_400).contains(&grace) {
                return Err(bad(
                    format!("{field}.terminationGracePeriodSeconds"),
                    format!("must be between 0 and 86400, got {grace}"),
                ));
            }
            let mut tolerations = Vec::with_capacity(w.tolerations.len());
            for (j, t) in w.tolerations.iter().enumerate() {
                tolerations.push(resolve_toleration(t, &format!("{field}.tolerations[{j}]"))?);
            }
            workloads.push(WorkloadSpec {
                kind: w.kind,
                name: w.name.clone(),
                replicas,
                termination_grace_period_seconds: grace,
                tolerations,
            });
        }
        if total_pods > MAX_PODS {
            return Err(bad(
                "workloads",
                format!("at most {MAX_PODS} pods are supported, the workloads ask for {total_pods}"),
            ));
        }
        // Pod names start with their workload's name; refuse names that would collide.
        for (i, w) in workloads.iter().enumerate() {
            for (j, o) in workloads.iter().enumerate() {
                if i != j && w.kind == WorkloadKind::StatefulSet && o.kind == WorkloadKind::Pod {
                    let prefix = format!("{}-", w.name);
                    if o.name
                        .strip_prefix(&prefix)
                        .is_some_and(|rest| rest.parse::<u32>().is_ok())
                    {
                        return Err(bad(
                            format!("workloads[{j}].name"),
                            format!("{:?} collides with a pod of StatefulSet {:?}", o.name, w.name),
                        ));
                    }
                }
            }
        }

        let mut actions = Vec::with_capacity(self.events.len());
        for (i, e) in self.events.iter().enumerate() {
            actions.push(resolve_action(
                e,
                &format!("events[{i}]"),
                duration,
                &names,
                &workloads,
                version,
                gates.out_of_service,
                &mut warnings,
            )?);
        }
        actions.sort_by_key(|a| a.at);
        // A node that joins is absent until its first NodeJoin, and nothing may happen to it before.
        for a in &actions {
            if let (ActionKind::NodeJoin, Some(n)) = (a.action, a.node) {
                if nodes[n].join_at.is_none() {
                    nodes[n].join_at = Some(a.at);
                }
            }
        }
        for (i, e) in self.events.iter().enumerate() {
            let a = resolve_action(
                e,
                "",
                duration,
                &names,
                &workloads,
                version,
                gates.out_of_service,
                &mut Vec::new(),
            )?;
            if let Some(n) = a.node {
                if let Some(join) = nodes[n].join_at {
                    if a.at < join || (a.action == ActionKind::NodeJoin && a.at > join) {
                        return Err(bad(
                            format!("events[{i}]"),
                            format!("node {:?} joins at {} (its first NodeJoin); {:?} at {} cannot happen before it, and a node joins once", nodes[n].name, format_go_duration(join), a.action, format_go_duration(a.at)),
                        ));
                    }
                }
            }
        }
        // DaemonSets size to the nodes present at the start.
        let initial_nodes = nodes.iter().filter(|n| n.join_at.is_none()).count() as u32;
        for w in workloads.iter_mut().filter(|w| w.kind == WorkloadKind::DaemonSet) {
            w.replicas = initial_nodes;
        }

        let period = update.min(kubelet.lease_renew_interval).max(1);
        let ticks = nodes.len() as i64 * (duration + 2 * MINUTE_MS) / period * 2;
        if ticks > MAX_HEARTBEAT_TICKS {
            return Err(bad(
                "",
                format!(
                    "scenario too large: {} nodes for {} with heartbeats every {} need about {ticks} heartbeat ticks (limit {MAX_HEARTBEAT_TICKS}); use fewer nodes, a shorter durationSeconds or slower heartbeats",
                    nodes.len(),
                    format_go_duration(duration),
                    format_go_duration(period)
                ),
            ));
        }

        Ok(Config {
            profile: p,
            seed: self.seed.unwrap_or(1),
            duration,
            kubelet,
            controller_manager,
            api_server,
            simulation,
            nodes,
            workloads,
            actions,
            out_of_service_volume_detach: gates.out_of_service,
            warnings,
        })
    }
}

const MINUTE_MS: Millis = 60 * SECOND;

fn positive(v: Option<GoDuration>, default: Millis, field: &str) -> Result<Millis, ScenarioError> {
    let v = v.map_or(default, |g| g.0);
    if v <= 0 {
        return Err(bad(
            field,
            format!("must be greater than 0s, got {}", format_go_duration(v)),
        ));
    }
    if v > 24 * HOUR {
        return Err(bad(
            field,
            format!("must be at most 24h0m0s, got {}", format_go_duration(v)),
        ));
    }
    Ok(v)
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
        Err(bad(field, format!("{name:?} is not a valid name: use lowercase letters, digits, '-' and '.', starting and ending with a letter or digit")))
    }
}

fn resolve_toleration(t: &TolerationSection, field: &str) -> Result<Toleration, ScenarioError> {
    use crate::api::Effect;
    // Mirrors ValidateTolerations in pkg/apis/core/validation.
    let exists = match t.operator.as_deref() {
        None | Some("Equal") | Some("") => false,
        Some("Exists") => true,
        Some(other) => {
            return Err(bad(
                format!("{field}.operator"),
                format!("{other:?} is not an operator; use \"Exists\" or \"Equal\""),
            ))
        }
    };
    if t.key.is_empty() && !exists {
        return Err(bad(format!("{field}.operator"), "must be \"Exists\" when key is empty"));
    }
    if exists && !t.value.is_empty() {
        return Err(bad(
            format!("{field}.value"),
            "must be empty when operator is \"Exists\"",
        ));
    }
    let effect = match t.effect.as_str() {
        "" => None,
        "NoSchedule" => Some(Effect::NoSchedule),
        "PreferNoSchedule" => Some(Effect::PreferNoSchedule),
        "NoExecute" => Some(Effect::NoExecute),
        other => {
            return Err(bad(
                format!("{field}.effect"),
                format!("{other:?} is not an effect; use NoSchedule, PreferNoSchedule or NoExecute"),
            ))
        }
    };
    if t.toleration_seconds.is_some() && effect != Some(Effect::NoExecute) {
        return Err(bad(
            format!("{field}.tolerationSeconds"),
            "only applies to effect \"NoExecute\"",
        ));
    }
    Ok(Toleration {
        key: t.key.clone(),
        exists,
        value: t.value.clone(),
        effect,
        toleration_seconds: t.toleration_seconds,
        source: TolerationSource::Spec,
    })
}

/// The modelled feature gates after defaults and overrides.
struct Gates {
    taint_based_evictions: bool,
    node_lease: bool,
    out_of_service: bool,
}

/// Applies `--feature-gates` with upstream's rules: unknown or removed gates are errors, and a GA
/// gate cannot be turned off ("feature is locked to true").
fn resolve_feature_gates(
    set: &BTreeMap<String, bool>,
    version: Version,
    warnings: &mut Vec<Cause>,
) -> Result<Gates, ScenarioError> {
    let mut value = |gate: Gate| -> Result<bool, ScenarioError> {
        let field = format!("featureGates.{}", gate.name());
        let Some(&wanted) = set.get(gate.name()) else {
            return Ok(gate.default_on(version));
        };
        match gate.stage(version) {
            GateStage::NotYet => Err(bad(field, format!("unrecognized feature gate: {} (it arrived in 1.{}; this is {version})", gate.name(), gate.added_in()))),
            GateStage::Removed => Err(bad(field, format!("unrecognized feature gate: {} (removed in 1.{} after graduating; the feature is always on in {version})", gate.name(), gate.removed_in()))),
            GateStage::Ga if !wanted => Err(bad(field, format!("cannot set feature gate {} to false, feature is locked to true (GA in {version})", gate.name()))),
            GateStage::Ga => {
                warnings.push(Cause::new("warn.gate_ga").text("gate", gate.name()).text("version", version));
                Ok(true)
            }
            GateStage::Alpha | GateStage::Beta => Ok(wanted),
        }
    };
    let gates = Gates {
        taint_based_evictions: value(Gate::TaintBasedEvictions)?,
        node_lease: value(Gate::NodeLease)?,
        out_of_service: value(Gate::NodeOutOfServiceVolumeDetach)?,
    };
    if let Some(name) = set.keys().find(|k| Gate::by_name(k).is_none()) {
        let known = Gate::ALL.iter().map(|g| g.name()).collect::<Vec<_>>().join(", ");
        return Err(bad(
            format!("featureGates.{name}"),
            format!("kubelife models the feature gates {known}; {name:?} is not one of them"),
        ));
    }
    if gates.node_lease && version.minor == 12 {
        warnings.push(Cause::new("warn.lease_1_12"));
    }
    Ok(gates)
}

#[allow(clippy::too_many_arguments)]
fn resolve_action(
    e: &ActionSection,
    field: &str,
    duration: Millis,
    names: &BTreeMap<String, usize>,
    workloads: &[WorkloadSpec],
    version: Version,
    out_of_service: bool,
    warnings: &mut Vec<Cause>,
) -> Result<ActionSpec, ScenarioError> {
    use crate::api::Effect;
    if e.at.0 < 0 {
        return Err(bad(
            format!("{field}.at"),
            format!("must not be negative, got {}", format_go_duration(e.at.0)),
        ));
    }
    if e.at.0 > duration {
        return Err(bad(
            format!("{field}.at"),
            format!(
                "{} is after the end of the run ({})",
                format_go_duration(e.at.0),
                format_go_duration(duration)
            ),
        ));
    }
    let node = match (&e.node, e.action.needs_node()) {
        (Some(name), true) => match names.get(name) {
            Some(&n) => Some(n),
            None => return Err(bad(format!("{field}.node"), format!("no node is named {name:?}"))),
        },
        (None, true) => {
            return Err(bad(
                format!("{field}.node"),
                format!("{:?} needs the node it happens to", e.action),
            ))
        }
        (Some(_), false) => {
            return Err(bad(
                format!("{field}.node"),
                format!("{:?} does not take a node", e.action),
            ))
        }
        (None, false) => None,
    };
    let only = |set: bool, name: &str, kind: ActionKind| -> Result<(), ScenarioError> {
        if set && e.action != kind {
            return Err(bad(format!("{field}.{name}"), format!("only {kind:?} takes {name}")));
        }
        Ok(())
    };
    only(e.pod.is_some(), "pod", ActionKind::ForceDeletePod)?;
    only(e.latency_ms.is_some(), "latencyMs", ActionKind::ApiServerLatency)?;
    only(e.effect.is_some(), "effect", ActionKind::OutOfServiceTaint)?;
    only(e.duration.is_some(), "duration", ActionKind::ControllerManagerRestart)?;
    only(e.workload.is_some(), "workload", ActionKind::PatchTolerations)?;
    only(
        e.toleration_seconds.is_some(),
        "tolerationSeconds",
        ActionKind::PatchTolerations,
    )?;
    let workload = match (e.action, &e.workload) {
        (ActionKind::PatchTolerations, None) => {
            return Err(bad(
                format!("{field}.workload"),
                "PatchTolerations needs the workload's name",
            ))
        }
        (_, Some(name)) => match workloads.iter().position(|w| w.name == *name) {
            Some(w) => Some(w),
            None => {
                return Err(bad(
                    format!("{field}.workload"),
                    format!("no workload is named {name:?}"),
                ))
            }
        },
        (_, None) => None,
    };
    let toleration_seconds = match (e.action, e.toleration_seconds) {
        (ActionKind::PatchTolerations, None) => {
            return Err(bad(
                format!("{field}.tolerationSeconds"),
                "PatchTolerations needs tolerationSeconds",
            ))
        }
        (_, Some(s)) if !(0..=31_536_000).contains(&s) => {
            return Err(bad(
                format!("{field}.tolerationSeconds"),
                format!("must be between 0 and 31536000 (a year), got {s}"),
            ))
        }
        (_, s) => s.unwrap_or(0),
    };
    let pod = match (e.action, &e.pod) {
        (ActionKind::ForceDeletePod, None) => {
            return Err(bad(format!("{field}.pod"), "ForceDeletePod needs the pod's name"))
        }
        (ActionKind::ForceDeletePod, Some(p)) => {
            if !workloads.iter().any(|w| p.starts_with(&w.name)) {
                return Err(bad(
                    format!("{field}.pod"),
                    format!("{p:?} cannot be a pod of this scenario: every pod name starts with its workload's name"),
                ));
            }
            Some(p.clone())
        }
        _ => None,
    };
    let latency = match (e.action, e.latency_ms) {
        (ActionKind::ApiServerLatency, None) => {
            return Err(bad(
                format!("{field}.latencyMs"),
                "ApiServerLatency needs latencyMs (0 ends a spike)",
            ))
        }
        (_, Some(l)) if !(0..=60_000).contains(&l) => {
            return Err(bad(
                format!("{field}.latencyMs"),
                format!("must be between 0 and 60000, got {l}"),
            ))
        }
        (_, l) => l.unwrap_or(0),
    };
    let effect = match e.effect.as_deref() {
        None | Some("NoExecute") => Effect::NoExecute,
        Some("NoSchedule") => Effect::NoSchedule,
        Some(other) => {
            return Err(bad(
                format!("{field}.effect"),
                format!("{other:?} is not an effect for the out-of-service taint; use NoExecute or NoSchedule"),
            ))
        }
    };
    let restart = e.duration.map_or(0, |d| d.0);
    if !(0..=10 * 60 * SECOND).contains(&restart) {
        return Err(bad(
            format!("{field}.duration"),
            format!("must be between 0s and 10m0s, got {}", format_go_duration(restart)),
        ));
    }
    if e.action == ActionKind::OutOfServiceTaint && !out_of_service {
        warnings.push(Cause::new("warn.out_of_service_no_gc").text("version", version));
    }
    Ok(ActionSpec {
        at: e.at.0,
        action: e.action,
        node,
        pod,
        latency,
        effect,
        duration: restart,
        workload,
        toleration_seconds,
    })
}

//! What the engine runs on: a scenario with every default applied and every value checked.
//!
//! The component settings ([`KubeletConfig`], [`ControllerManagerConfig`], [`ApiServerConfig`])
//! hold resolved values in the engine's units, and each knows its version's defaults, written
//! beside the type as upstream writes them beside its configuration types
//! (`pkg/kubelet/apis/config/v1beta1/defaults.go`,
//! `pkg/controller/nodelifecycle/config/v1alpha1/defaults.go`, the kube-apiserver flags of the
//! `DefaultTolerationSeconds` admission plugin).

#[cfg(feature = "clients")]
use super::clients::{ClientSpec, DnsSpec};
pub use super::cloud::{CapacityType, CloudConfig, ConditionCheck, NodeCount, Provider, Remediator, SnrStrategy};
use super::format::{ActionKind, WorkloadKind};
pub use crate::api::eviction::{IntOrPercent, PdbSpec};
use crate::api::{Effect, Toleration};
use crate::cause::Cause;
use crate::time::{Millis, MINUTE, SECOND};
use crate::version::{Gate, Profile, Version};
use std::collections::BTreeMap;

/// Resolved kubelet settings, in ms except where named.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
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
    /// `shutdownGracePeriod`, ms: 0 leaves graceful node shutdown inert.
    pub shutdown_grace_period: Millis,
    /// `shutdownGracePeriodCriticalPods`, ms: the part of it kept for critical pods.
    pub shutdown_grace_period_critical_pods: Millis,
    /// Whether the kubelet handles a shutdown gracefully (the `GracefulNodeShutdown` gate on and
    /// a grace period over 0, `TestFeatureEnabled`).
    pub graceful_shutdown: bool,
}

/// Resolved kube-controller-manager settings.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
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
    /// `--kube-api-qps`: requests per second of each controller's API client.
    pub kube_api_qps: f64,
    /// `--kube-api-burst`: the burst of each controller's API client.
    pub kube_api_burst: u32,
    /// `--disable-force-detach-on-timeout` (1.30+): never force-detach on the 6-minute timer.
    pub disable_force_detach_on_timeout: bool,
    /// Whether the node lifecycle controller reads a Lease live before marking a node Unknown
    /// (the `NodeControllerLeaseCircuitBreaker` gate).
    pub lease_circuit_breaker: bool,
}

/// kube-proxy's proxy mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum ProxyMode {
    /// `iptables`, the default on Linux.
    Iptables,
    /// `ipvs`.
    Ipvs,
    /// `nftables` (1.29+).
    Nftables,
}

impl ProxyMode {
    /// Every mode.
    pub const ALL: [ProxyMode; 3] = [ProxyMode::Iptables, ProxyMode::Ipvs, ProxyMode::Nftables];

    /// The mode `--proxy-mode` names.
    pub fn by_name(name: &str) -> Option<ProxyMode> {
        ProxyMode::ALL.into_iter().find(|m| m.name() == name)
    }

    /// The name `--proxy-mode` takes.
    pub fn name(self) -> &'static str {
        match self {
            ProxyMode::Iptables => "iptables",
            ProxyMode::Ipvs => "ipvs",
            ProxyMode::Nftables => "nftables",
        }
    }
}

/// Resolved kube-proxy settings.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct KubeProxyConfig {
    /// `--proxy-mode`.
    pub mode: ProxyMode,
    /// `--iptables-min-sync-period` (or the mode's): the least time between two syncs, ms.
    pub min_sync_period: Millis,
    /// `--iptables-sync-period` (or the mode's): the periodic full sync, ms.
    pub sync_period: Millis,
}

/// Resolved kube-apiserver settings.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ApiServerConfig {
    /// `--default-not-ready-toleration-seconds`.
    pub default_not_ready_toleration_seconds: i64,
    /// `--default-unreachable-toleration-seconds`.
    pub default_unreachable_toleration_seconds: i64,
}

/// Resolved simulation timings, ms.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct SimulationConfig {
    /// Informer latency, ms.
    pub watch_latency: Millis,
    /// API round trip, ms.
    pub api_latency: Millis,
    /// Binding to Ready, ms.
    pub pod_startup: Millis,
    /// One monitor pass, ms.
    pub monitor_pass_duration: Millis,
    /// A storage driver's attach of a volume to a node, ms.
    pub attach_duration: Millis,
    /// A storage driver's detach, ms.
    pub detach_duration: Millis,
    /// The kubelet's mount of an attached volume, ms.
    pub mount_duration: Millis,
    /// One kube-proxy sync (writing the rules), ms.
    pub proxy_sync_duration: Millis,
    /// Whether a kubelet that shuts down gracefully clears `volumesInUse` before power-off, so
    /// that its volumes detach safely instead of after the 6-minute wait.
    pub volumes_in_use_cleared_on_shutdown: bool,
}

/// A workload's volume.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct VolumeSpec {
    /// `ReadWriteMany` (true) or `ReadWriteOnce` (false): whether several nodes may attach it.
    pub many: bool,
    /// One claim per pod (a StatefulSet's `volumeClaimTemplates`) or one shared claim.
    pub per_pod: bool,
}

/// A resolved node.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
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
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
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
    /// Whether a Service selects its pods.
    pub service: bool,
    /// The Service's name where it is not the workload's (CoreDNS's is `kube-dns`).
    #[cfg(feature = "clients")]
    #[serde(default)]
    pub service_name: Option<String>,
    /// The Service's load balancer, for type `LoadBalancer` (observed with the clients).
    #[cfg(feature = "clients")]
    #[serde(default)]
    pub load_balancer: Option<super::load_balancers::LoadBalancerSpec>,
    /// Its volume, if any.
    pub volume: Option<VolumeSpec>,
    /// Its PodDisruptionBudget, if any.
    pub pdb: Option<PdbSpec>,
    /// Whether its pods are critical (`priorityClassName` `system-node-critical` or
    /// `system-cluster-critical`, priority 2000000000 or more): graceful shutdown stops them last.
    pub critical: bool,
}

impl WorkloadSpec {
    /// The name of the Service that selects its pods.
    pub fn service_name(&self) -> &str {
        #[cfg(feature = "clients")]
        if let Some(name) = &self.service_name {
            return name;
        }
        &self.name
    }
}

/// A resolved action.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
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
    pub effect: Effect,
    /// Controller downtime for ControllerManagerRestart, ms.
    pub duration: Millis,
    /// Workload index for PatchTolerations.
    pub workload: Option<usize>,
    /// New tolerationSeconds for PatchTolerations, s.
    pub toleration_seconds: i64,
    /// The notice of a SpotInterruption, ms.
    pub notice: Millis,
}

/// A scenario with every default applied and every value checked.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
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
    /// kube-proxy settings.
    pub kube_proxy: KubeProxyConfig,
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
    /// The cloud and its cloud-controller-manager, if the scenario names one.
    pub cloud: Option<CloudConfig>,
    /// The remediators the scenario lists (kept; this build does not act on them yet).
    pub remediation: Vec<Remediator>,
    /// The clients of the Services, with their libraries' settings merged (none: no client).
    #[cfg(feature = "clients")]
    #[serde(default)]
    pub clients: Vec<ClientSpec>,
    /// The cluster DNS: CoreDNS's workload and where its replicas start (none: no `dns` section
    /// and no client of `kube-dns`).
    #[cfg(feature = "clients")]
    #[serde(default)]
    pub dns: Option<DnsSpec>,
    /// Sentences about settings that the version ignores or that deserve a second look. Not sent
    /// with a configuration (a run does not read them; the page keeps its own copy).
    #[serde(skip)]
    pub warnings: Vec<Cause>,
}
impl Config {
    /// A version's defaults as a configuration with no node, workload or action: what every
    /// setting resolves to when a scenario leaves it out ([`super::flags::Flag::default_in`]).
    pub fn defaults(v: Version) -> Config {
        let d = Defaults::of(v);
        Config {
            profile: Profile::of(v),
            seed: DEFAULT_SEED,
            duration: DEFAULT_DURATION_SECONDS * SECOND,
            kubelet: d.kubelet,
            controller_manager: d.controller_manager,
            api_server: d.api_server,
            kube_proxy: d.kube_proxy,
            simulation: SimulationConfig::defaults(0),
            nodes: Vec::new(),
            workloads: Vec::new(),
            actions: Vec::new(),
            out_of_service_volume_detach: Gate::NodeOutOfServiceVolumeDetach.default_on(v),
            cloud: None,
            remediation: Vec::new(),
            #[cfg(feature = "clients")]
            clients: Vec::new(),
            #[cfg(feature = "clients")]
            dns: None,
            warnings: Vec::new(),
        }
    }
}

/// The seed of a scenario that names none.
pub const DEFAULT_SEED: u64 = 1;
/// The run's length when a scenario names none, in seconds.
pub const DEFAULT_DURATION_SECONDS: i64 = 900;

impl SimulationConfig {
    /// The simulation's timings for a cluster of `nodes`: a monitor pass takes 1 ms plus 1 ms per
    /// 100 nodes.
    pub fn defaults(nodes: usize) -> SimulationConfig {
        SimulationConfig {
            watch_latency: 10,
            api_latency: 5,
            pod_startup: 5 * SECOND,
            monitor_pass_duration: 1 + nodes as Millis / 100,
            attach_duration: 10 * SECOND,
            detach_duration: 5 * SECOND,
            mount_duration: 2 * SECOND,
            proxy_sync_duration: 100,
            volumes_in_use_cleared_on_shutdown: false,
        }
    }
}

/// A version's configuration defaults, every component together.
#[derive(Debug, Clone, PartialEq)]
pub struct Defaults {
    /// KubeletConfiguration defaults.
    pub kubelet: KubeletConfig,
    /// kube-controller-manager defaults.
    pub controller_manager: ControllerManagerConfig,
    /// kube-apiserver defaults.
    pub api_server: ApiServerConfig,
    /// kube-proxy defaults.
    pub kube_proxy: KubeProxyConfig,
}

impl Defaults {
    /// The defaults of version `v`.
    pub fn of(v: Version) -> Defaults {
        Defaults {
            kubelet: KubeletConfig::defaults(v),
            controller_manager: ControllerManagerConfig::defaults(v),
            api_server: ApiServerConfig::defaults(v),
            kube_proxy: KubeProxyConfig::defaults(v),
        }
    }
}

impl KubeletConfig {
    /// KubeletConfiguration defaults of a version (`SetDefaults_KubeletConfiguration`).
    pub fn defaults(v: Version) -> KubeletConfig {
        let p = Profile::of(v);
        KubeletConfig {
            node_status_update_frequency: 10 * SECOND,
            // KEP-0009 introduced the report interval at 1m in 1.13; #84007 raised it to 5m in 1.17.
            node_status_report_frequency: if v.minor >= 17 { 5 * MINUTE } else { MINUTE },
            node_lease_duration_seconds: 40,
            node_lease: Gate::NodeLease.default_on(v),
            lease_renew_interval: p.lease_renew_interval(40),
            shutdown_grace_period: 0,
            shutdown_grace_period_critical_pods: 0,
            graceful_shutdown: false,
        }
    }
}

impl ControllerManagerConfig {
    /// kube-controller-manager defaults of a version (the node lifecycle controller's
    /// `RecommendedDefaultNodeLifecycleControllerConfiguration` and the flag definitions).
    pub fn defaults(v: Version) -> ControllerManagerConfig {
        let p = Profile::of(v);
        ControllerManagerConfig {
            node_monitor_period: 5 * SECOND,
            // #126287 raised the grace period from 40s to 50s in 1.32.
            node_monitor_grace_period: if p.grace_covers_http2_health_check {
                50 * SECOND
            } else {
                40 * SECOND
            },
            node_startup_grace_period: MINUTE,
            node_eviction_rate: 0.1,
            secondary_node_eviction_rate: 0.01,
            large_cluster_size_threshold: 50,
            unhealthy_zone_threshold: 0.55,
            pod_eviction_timeout: 5 * MINUTE,
            enable_taint_manager: true,
            taint_based_evictions: Gate::TaintBasedEvictions.default_on(v),
            // `--kube-api-qps` 20 and `--kube-api-burst` 30, unchanged since 1.12.
            kube_api_qps: 20.0,
            kube_api_burst: 30,
            disable_force_detach_on_timeout: false,
            lease_circuit_breaker: Gate::NodeControllerLeaseCircuitBreaker.default_on(v),
        }
    }
}

impl KubeProxyConfig {
    /// kube-proxy defaults of a version (`pkg/proxy/apis/config/v1alpha1/defaults.go`): iptables,
    /// a 30s sync period, and a minimum sync period of 0 up to 1.19 and 1s from 1.20 (#92836).
    pub fn defaults(v: Version) -> KubeProxyConfig {
        KubeProxyConfig {
            mode: ProxyMode::Iptables,
            min_sync_period: if v.minor >= 20 { SECOND } else { 0 },
            sync_period: 30 * SECOND,
        }
    }
}

impl ApiServerConfig {
    /// kube-apiserver defaults of the DefaultTolerationSeconds admission plugin
    /// (`--default-not-ready-toleration-seconds`, `--default-unreachable-toleration-seconds`).
    pub fn defaults(_v: Version) -> ApiServerConfig {
        ApiServerConfig {
            default_not_ready_toleration_seconds: 300,
            default_unreachable_toleration_seconds: 300,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grace_period_changes_in_1_32() {
        let grace = |minor| ControllerManagerConfig::defaults(Version { minor }).node_monitor_grace_period;
        assert_eq!(grace(31), 40 * SECOND);
        assert_eq!(grace(32), 50 * SECOND);
    }
}

//! The presets the page offers, each as the link query that gives its settings on a first visit.
//! The page reads these instead of building each preset's scenario (`kubelife_engine::presets`),
//! which keeps that code out of its wasm; a native test (`link::tests`) checks every entry
//! against the engine's preset, so the table cannot drift from it.

/// One preset as the page offers it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PresetLink {
    /// Name, as `kubelife preset NAME` and the link's `preset=` take it.
    pub name: &'static str,
    /// The link query (without `?`) whose settings are the preset's on a first visit.
    pub query: &'static str,
    /// Whether it brings a cluster of its own (size, zones, workloads, faults) rather than
    /// keeping the page's.
    pub cluster: bool,
}

/// The presets, in the engine's order (`kubelife_engine::presets::presets`).
pub const PRESETS: &[PresetLink] = &[
    PresetLink {
        name: "upstream-1.12",
        query: "k=1.12",
        cluster: false,
    },
    PresetLink {
        name: "upstream-1.17",
        query: "k=1.17",
        cluster: false,
    },
    PresetLink {
        name: "upstream-1.31",
        query: "k=1.31",
        cluster: false,
    },
    PresetLink {
        name: "upstream-newest",
        query: "",
        cluster: false,
    },
    PresetLink {
        name: "kubespray-fast",
        query: "k=1.12&node-status-update-frequency=4s&node-monitor-period=2s&node-monitor-grace-period=20s&pod-eviction-timeout=30s",
        cluster: false,
    },
    PresetLink {
        name: "kubespray-fast-1.26",
        query: "k=1.26&node-status-update-frequency=4s&node-status-report-frequency=4s&node-monitor-period=2s&node-monitor-grace-period=20s&pod-eviction-timeout=30s",
        cluster: false,
    },
    PresetLink {
        name: "kubespray-medium",
        query: "k=1.12&node-status-update-frequency=20s&node-monitor-grace-period=2m0s&pod-eviction-timeout=1m0s",
        cluster: false,
    },
    PresetLink {
        name: "kubespray-low",
        query: "k=1.12&node-status-update-frequency=1m0s&node-monitor-grace-period=5m0s&pod-eviction-timeout=1m0s",
        cluster: false,
    },
    PresetLink {
        name: "rke-1.12-legacy",
        query: "k=1.12",
        cluster: false,
    },
    PresetLink {
        name: "rke-1.17-taint-based-off",
        query: "k=1.17&TaintBasedEvictions=false",
        cluster: false,
    },
    PresetLink {
        name: "rke-1.17-tolerations",
        query: "k=1.17&default-not-ready-toleration-seconds=1m0s&default-unreachable-toleration-seconds=30s",
        cluster: false,
    },
    PresetLink {
        name: "rke-1.18-tolerations",
        query: "k=1.18&node-monitor-grace-period=30s&default-not-ready-toleration-seconds=1m0s&default-unreachable-toleration-seconds=30s",
        cluster: false,
    },
    PresetLink {
        name: "metalk8s-fast-failover",
        query: "node-monitor-grace-period=30s&default-not-ready-toleration-seconds=1m0s&default-unreachable-toleration-seconds=1m0s",
        cluster: false,
    },
    PresetLink {
        name: "eks-instance-terminated",
        query: "fault=node-1:InstanceTerminated:30&cloud=aws",
        cluster: true,
    },
    PresetLink {
        name: "gke-spot-preemption",
        query: "fault=node-1:SpotInterruption:30&cloud=gcp&shutdown-grace-period=30s&shutdown-grace-period-critical-pods=10s",
        cluster: true,
    },
    PresetLink {
        name: "capi-mhc-5m",
        query: "remediation=mhc&duration-seconds=30m0s",
        cluster: true,
    },
    PresetLink {
        name: "medik8s-snr",
        query: "remediation=snr",
        cluster: true,
    },
    PresetLink {
        name: "karpenter-repair-off",
        query: "cloud=aws&remediation=karpenter&node-repair=false",
        cluster: true,
    },
    PresetLink {
        name: "karpenter-repair-on",
        query: "cloud=aws&remediation=karpenter&duration-seconds=1h0m0s",
        cluster: true,
    },
    PresetLink {
        name: "karpenter-spot-interruption",
        query: "fault=node-1:SpotInterruption:30&cloud=aws&remediation=karpenter&node-repair=false&interruption-queue=true",
        cluster: true,
    },
    PresetLink {
        name: "eks-spot-managed-node-group",
        query: "fault=node-1:SpotInterruption:30&cloud=aws&managed-node-group=SPOT",
        cluster: true,
    },
    PresetLink {
        name: "aks-vm-deallocated",
        query: "fault=node-1:InstanceStopped:30&cloud=azure",
        cluster: true,
    },
    PresetLink {
        name: "scale-1000-zone-b-outage",
        query: "nodes=1000&web=2000&db=3&fault=node-2:NodeCrash:60&zone-outage=zone-b:1m0s&duration-seconds=1h0m0s",
        cluster: true,
    },
    PresetLink {
        name: "scale-5000-lose-10-percent",
        query: "nodes=5000&web=10000&db=3&fault=node-1:NodeCrash:60&fault-nodes=500&duration-seconds=40m0s",
        cluster: true,
    },
    PresetLink {
        name: "scale-200-partial-disruption",
        query: "nodes=200&zones=1&web=400&db=3&fault=node-1:NodeCrash:60&fault-nodes=120&duration-seconds=30m0s",
        cluster: true,
    },
    PresetLink {
        name: "all-zones-down",
        query: "nodes=6&web=12&db=3&fault=node-1:NodeCrash:30&fault-nodes=6",
        cluster: true,
    },
];

/// The preset named `name`, if the page offers it.
pub fn preset_link(name: &str) -> Option<&'static PresetLink> {
    PRESETS.iter().find(|p| p.name == name)
}

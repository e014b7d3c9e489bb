//! The presets the page offers, each as the link query that gives its settings on a first visit.
//! The page reads these instead of building each preset's scenario (`kubelife_engine::presets`),
//! which keeps that code out of its wasm; a native test (`link::tests`) checks every entry
//! against the engine's preset, so the table cannot drift from it.

/// One preset as the page offers it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PresetLink {
    /// Name, as `kubelife preset NAME` and the link's `preset=` take it.
    pub name: &'static str,
    /// What it shows, in English (the picker's hover text when `preset.<name>` is not translated).
    pub description: &'static str,
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
        description: "1.12 defaults: no Lease, legacy eviction 5m after the last heartbeat seen, no NoExecute taint",
        query: "k=1.12",
        cluster: false,
    },
    PresetLink {
        name: "upstream-1.17",
        description: "1.17 defaults: Leases every 10s, 40s grace, taint-based eviction after 300s tolerations",
        query: "k=1.17",
        cluster: false,
    },
    PresetLink {
        name: "upstream-1.31",
        description: "1.31 defaults: the classic 5m40s from crash to replacement",
        query: "k=1.31",
        cluster: false,
    },
    PresetLink {
        name: "upstream-newest",
        description: "newest defaults: 50s grace since 1.32, so about 5m50s to replacement",
        query: "",
        cluster: false,
    },
    PresetLink {
        name: "kubespray-fast",
        description: "kubespray's fast update and fast reaction (4s updates, 2s period, 20s grace, 30s pod-eviction-timeout) on 1.12: pods go about 30s after the last heartbeat, not 50s",
        query: "k=1.12&node-status-update-frequency=4s&node-monitor-period=2s&node-monitor-grace-period=20s&pod-eviction-timeout=30s",
        cluster: false,
    },
    PresetLink {
        name: "kubespray-fast-1.26",
        description: "kubespray's fast reaction on 1.26: --pod-eviction-timeout is accepted but ignored, so pods still wait 300s after the taint",
        query: "k=1.26&node-status-update-frequency=4s&node-status-report-frequency=4s&node-monitor-period=2s&node-monitor-grace-period=20s&pod-eviction-timeout=30s",
        cluster: false,
    },
    PresetLink {
        name: "kubespray-medium",
        description: "kubespray's medium update and average reaction (20s updates, 2m grace, 1m pod-eviction-timeout) on 1.12: eviction one pass after Unknown, about 2m",
        query: "k=1.12&node-status-update-frequency=20s&node-monitor-grace-period=2m0s&pod-eviction-timeout=1m0s",
        cluster: false,
    },
    PresetLink {
        name: "kubespray-low",
        description: "kubespray's low update and slow reaction (1m updates, 5m grace, 1m pod-eviction-timeout) on 1.12: eviction about 5m after the crash",
        query: "k=1.12&node-status-update-frequency=1m0s&node-monitor-grace-period=5m0s&pod-eviction-timeout=1m0s",
        cluster: false,
    },
    PresetLink {
        name: "rke-1.12-legacy",
        description: "rke example for clusters before 1.13: only kube-controller flags matter (5s, 40s, 1m0s, 5m0s)",
        query: "k=1.12",
        cluster: false,
    },
    PresetLink {
        name: "rke-1.17-taint-based-off",
        description: "rke example for 1.13–1.17 with TaintBasedEvictions=false: back to the legacy 5m0s pod-eviction-timeout",
        query: "k=1.17&TaintBasedEvictions=false",
        cluster: false,
    },
    PresetLink {
        name: "rke-1.17-tolerations",
        description: "rke example for 1.13–1.17 keeping taint-based eviction: apiserver default tolerations 60s (not-ready) and 30s (unreachable)",
        query: "k=1.17&default-not-ready-toleration-seconds=1m0s&default-unreachable-toleration-seconds=30s",
        cluster: false,
    },
    PresetLink {
        name: "rke-1.18-tolerations",
        description: "rke example for 1.18 and later (TaintBasedEvictions locked on): 30s grace, 60s/30s default tolerations",
        query: "k=1.18&node-monitor-grace-period=30s&default-not-ready-toleration-seconds=1m0s&default-unreachable-toleration-seconds=30s",
        cluster: false,
    },
    PresetLink {
        name: "metalk8s-fast-failover",
        description: "a MetalK8s-style fast failover on the newest version: 5s monitor period, 30s grace, 60s/60s default tolerations",
        query: "node-monitor-grace-period=30s&default-not-ready-toleration-seconds=1m0s&default-unreachable-toleration-seconds=1m0s",
        cluster: false,
    },
    PresetLink {
        name: "eks-instance-terminated",
        description: "AWS: node-1's EC2 instance is terminated at 30s; the cloud-controller-manager deletes its Node within about a minute, PodGC frees its pods 40s later and web is whole again in about two minutes, while db waits the six-minute force detach of its EBS volume",
        query: "fault=node-1:InstanceTerminated:30&cloud=aws",
        cluster: true,
    },
    PresetLink {
        name: "gke-spot-preemption",
        description: "GCP: node-1 is a Spot VM preempted at 30s with 30s notice; graceful node shutdown (shutdownGracePeriod 30s) stops its pods within the notice, then the VM stops and its Node stays, NotReady",
        query: "fault=node-1:SpotInterruption:30&cloud=gcp&shutdown-grace-period=30s&shutdown-grace-period-critical-pods=10s",
        cluster: true,
    },
    PresetLink {
        name: "capi-mhc-5m",
        description: "Cluster API MachineHealthCheck with the book's 5m0s Ready Unknown check: node-1 hangs at 30s, is Unknown about 45s later and unhealthy 5m after that; its Machine is drained (from v1.8 without waiting on the unreachable node's pods or volumes), deleted with its VM and Node, and node-1-r1 replaces it; db's volume still waits the six-minute force detach",
        query: "remediation=mhc&duration-seconds=30m0s",
        cluster: true,
    },
    PresetLink {
        name: "medik8s-snr",
        description: "medik8s NodeHealthCheck with Self Node Remediation at its defaults: node-1 hangs at 30s, is unhealthy 5m after it turns Unknown, is assumed rebooted after the computed safe time, and gets the out-of-service taint (Automatic on 1.28+), so db's pod and volume move without the six-minute wait",
        query: "remediation=snr",
        cluster: true,
    },
    PresetLink {
        name: "karpenter-repair-off",
        description: "AWS with Karpenter, node repair off (its default: the NodeRepair gate is alpha): node-1's VM hangs at 30s and nothing replaces it; web moves after the taint's 300s, db stays stuck on the node",
        query: "cloud=aws&remediation=karpenter&node-repair=false",
        cluster: true,
    },
    PresetLink {
        name: "karpenter-repair-on",
        description: "AWS with Karpenter's NodeRepair gate on: node-1's VM hangs at 30s; after the Ready policy's 30m0s Karpenter taints it, deletes its pods without waiting for volumes, terminates the instance and launches node-1-r1; db's volume then waits the six-minute force detach",
        query: "cloud=aws&remediation=karpenter&duration-seconds=1h0m0s",
        cluster: true,
    },
    PresetLink {
        name: "karpenter-spot-interruption",
        description: "AWS with Karpenter reading its interruption queue: node-1 is a Spot instance whose two-minute interruption warning comes at 30s; Karpenter deletes its NodeClaim at the message, drains it through the eviction API and launches node-1-r1, so web and db (its EBS volume detached from a live node) move within the notice, and Karpenter terminates the instance itself before EC2 reclaims it",
        query: "fault=node-1:SpotInterruption:30&cloud=aws&remediation=karpenter&node-repair=false&interruption-queue=true",
        cluster: true,
    },
    PresetLink {
        name: "eks-spot-managed-node-group",
        description: "AWS: node-1 is in an EKS managed node group with Spot capacity, and its two-minute interruption notice comes at 30s: Capacity Rebalancing launches node-1-r1 and EKS drains node-1 through the eviction API at once, so web and db (its EBS volume detached from a live node) move within the notice, before EC2 reclaims the instance at 2m30s and the cloud-controller-manager deletes its Node",
        query: "fault=node-1:SpotInterruption:30&cloud=aws&managed-node-group=SPOT",
        cluster: true,
    },
    PresetLink {
        name: "aks-vm-deallocated",
        description: "Azure: node-1's VM is stopped and deallocated at 30s; the cloud-controller-manager taints the node node.cloudprovider.kubernetes.io/shutdown and, seen through its VM cache, node.kubernetes.io/out-of-service, so db's disk detaches without the six-minute wait",
        query: "fault=node-1:InstanceStopped:30&cloud=azure",
        cluster: true,
    },
    PresetLink {
        name: "scale-1000-zone-b-outage",
        description: "1,000 nodes in three zones; zone-b's 333 lose power at 1m0s: the zone is FullDisruption and tainted at --node-eviction-rate 0.1/s, one node every 10s, so its last nodes wait about an hour",
        query: "nodes=1000&web=2000&db=3&fault=node-2:NodeCrash:60&zone-outage=zone-b:1m0s&duration-seconds=1h0m0s",
        cluster: true,
    },
    PresetLink {
        name: "scale-5000-lose-10-percent",
        description: "5,000 nodes in three zones; 500 (10%) crash at 1m0s: every zone stays Normal and taints its own share at 0.1/s, so the last of the 500 is tainted about half an hour later",
        query: "nodes=5000&web=10000&db=3&fault=node-1:NodeCrash:60&fault-nodes=500&duration-seconds=40m0s",
        cluster: true,
    },
    PresetLink {
        name: "scale-200-partial-disruption",
        description: "one zone of 200 nodes; 120 (60%) crash at 1m0s: the zone crosses --unhealthy-zone-threshold 0.55, is larger than --large-cluster-size-threshold 50, and goes PartialDisruption: tainting slows to --secondary-node-eviction-rate 0.01/s",
        query: "nodes=200&zones=1&web=400&db=3&fault=node-1:NodeCrash:60&fault-nodes=120&duration-seconds=30m0s",
        cluster: true,
    },
    PresetLink {
        name: "all-zones-down",
        description: "six nodes in three zones all crash at 30s: once every zone is FullDisruption the controller assumes its own network failed, removes its NoExecute taints and evicts no pod",
        query: "nodes=6&web=12&db=3&fault=node-1:NodeCrash:30&fault-nodes=6",
        cluster: true,
    },
];

/// The preset named `name`, if the page offers it.
pub fn preset_link(name: &str) -> Option<&'static PresetLink> {
    PRESETS.iter().find(|p| p.name == name)
}

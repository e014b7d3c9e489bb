//! The `cloud` and `remediation` settings as the engine runs on them: the provider, the resolved
//! [`CloudConfig`] and [`Remediator`]s. The pinned JSON is `format`'s (`CloudSection`,
//! `RemediationSection`); `cloud_rules` resolves and checks it.
//!
//! `cloud` names the provider whose cloud-controller-manager runs the cloud node lifecycle
//! controller (`k8s.io/cloud-provider` `controllers/nodelifecycle`, its own
//! `--node-monitor-period`, default 5s, `SetDefaults_KubeCloudSharedConfiguration`), and the
//! cloud-side durations no Kubernetes setting fixes (the spec's symbols `E`, `V`, `B`), each with
//! a documented default. `remediation` lists what repairs nodes besides kube-controller-manager
//! (`control_plane::remediation` acts on the kinds [`Remediator::is_modelled`] names).

use crate::time::{Millis, MINUTE, SECOND};
use serde::{Deserialize, Serialize};

/// A cloud provider with a cloud node lifecycle controller.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Provider {
    /// kubernetes/cloud-provider-aws (EKS, self-managed on EC2).
    Aws,
    /// kubernetes/cloud-provider-gcp (GKE, self-managed on GCE).
    Gcp,
    /// kubernetes-sigs/cloud-provider-azure (AKS, self-managed on Azure).
    Azure,
}

impl Provider {
    /// Every provider, in the order the documents and the page list them.
    pub const ALL: [Provider; 3] = [Provider::Aws, Provider::Gcp, Provider::Azure];

    /// The name the scenario writes.
    pub fn name(self) -> &'static str {
        match self {
            Provider::Aws => "aws",
            Provider::Gcp => "gcp",
            Provider::Azure => "azure",
        }
    }

    /// The provider the scenario's name names.
    pub fn by_name(name: &str) -> Option<Provider> {
        Provider::ALL.into_iter().find(|p| p.name() == name)
    }

    /// The notice a spot instance gets before it is reclaimed: EC2's two-minute Spot
    /// interruption notice, GCE's 30-second preemption notice, Azure's 30-second Scheduled
    /// Events `Preempt` notice.
    pub fn spot_notice(self) -> Millis {
        match self {
            Provider::Aws => 2 * MINUTE,
            Provider::Gcp | Provider::Azure => 30 * SECOND,
        }
    }

    /// Whether `InstanceShutdownByProviderID` can say "shut down": AWS (state `stopped`) and
    /// Azure (power state stopped, deallocating or deallocated); GCP returns `NotImplemented`.
    pub fn reports_shutdown(self) -> bool {
        self != Provider::Gcp
    }
}

/// The label EKS gives every node of a managed node group: its capacity type.
pub const LABEL_CAPACITY_TYPE: &str = "eks.amazonaws.com/capacityType";

/// An EKS managed node group's capacity type ([`LABEL_CAPACITY_TYPE`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum CapacityType {
    /// `ON_DEMAND` (or another type EKS writes, such as `CAPACITY_BLOCK`): no Spot handling.
    OnDemand,
    /// `SPOT`: Capacity Rebalancing, and the node drained on its interruption notice.
    Spot,
}

impl CapacityType {
    /// The capacity type a label value or `cloud.managedNodeGroup` names; `none` is none.
    pub fn by_name(name: &str) -> Option<CapacityType> {
        match name {
            "none" => None,
            "SPOT" => Some(CapacityType::Spot),
            _ => Some(CapacityType::OnDemand),
        }
    }
}

/// The resolved `cloud`, ms.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CloudConfig {
    /// The provider.
    pub provider: Provider,
    /// The cloud node lifecycle controller's `--node-monitor-period`, ms.
    pub node_monitor_period: Millis,
    /// `E`, ms.
    pub instance_termination_duration: Millis,
    /// Stop to `stopped`, ms.
    pub instance_stop_duration: Millis,
    /// `V`, ms.
    pub instance_deletion_duration: Millis,
    /// `B`, ms.
    pub node_boot_duration: Millis,
    /// One cloud API call, ms.
    pub api_call_duration: Millis,
    /// Azure's VM cache TTL, ms (0 on the other providers: they ask the API every time).
    pub vm_cache_ttl: Millis,
    /// Whether the provider adds `node.kubernetes.io/out-of-service:NoExecute` to a not-Ready
    /// node carrying the shutdown taint (cloud-provider-azure `updateNodeTaint`, 1.26+).
    pub automatic_out_of_service: bool,
    /// AWS: the EKS managed node group of the nodes without an `eks.amazonaws.com/capacityType`
    /// label of their own (`cloud.managedNodeGroup`); `None`: not in one.
    #[serde(default)]
    pub managed_node_group: Option<CapacityType>,
}

/// A resolved condition check.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ConditionCheck {
    /// Condition type.
    pub kind: String,
    /// `True`, `False` or `Unknown`.
    pub status: String,
    /// ms.
    pub timeout: Millis,
}

/// A count of nodes, or a percentage of them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum NodeCount {
    /// Nodes.
    Int(u32),
    /// Percent of the nodes.
    Percent(u32),
}

/// Self Node Remediation's strategy.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum SnrStrategy {
    /// `OutOfServiceTaint` on 1.28+ (GA), else `ResourceDeletion` (`getRuntimeStrategy`).
    Automatic,
    /// Add `node.kubernetes.io/out-of-service=nodeshutdown:NoExecute` once the node is assumed
    /// rebooted.
    OutOfServiceTaint,
    /// Force-delete the node's pods once it is assumed rebooted.
    ResourceDeletion,
}

impl Remediator {
    /// Whether this build acts on the remediator (all six kinds). The others would be kept, with
    /// a validation warning.
    pub fn is_modelled(&self) -> bool {
        matches!(
            self,
            Remediator::MachineHealthCheck { .. }
                | Remediator::SelfNodeRemediation { .. }
                | Remediator::KarpenterNodeRepair { .. }
                | Remediator::GkeAutoRepair { .. }
                | Remediator::EksNodeAutoRepair { .. }
                | Remediator::AksAutoRepair { .. }
        )
    }
}

/// A resolved remediator: every default applied, durations in ms. Kept in the `Config`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Remediator {
    /// Cluster API MachineHealthCheck.
    MachineHealthCheck {
        /// `unhealthyConditions`.
        conditions: Vec<ConditionCheck>,
        /// `nodeStartupTimeout`, ms (0: off).
        node_startup_timeout: Millis,
        /// `maxUnhealthy`.
        max_unhealthy: NodeCount,
        /// Cluster API's minor version (1.x).
        cluster_api_minor: u32,
        /// A replacement Machine's creation until its Node registers, ms (None: the cloud's
        /// `nodeBootDuration`).
        replacement_join: Option<Millis>,
    },
    /// medik8s NodeHealthCheck + Self Node Remediation.
    SelfNodeRemediation {
        /// NHC `unhealthyConditions`.
        conditions: Vec<ConditionCheck>,
        /// NHC `minHealthy`.
        min_healthy: NodeCount,
        /// The strategy as written.
        strategy: SnrStrategy,
        /// `safeTimeToAssumeNodeRebootedSeconds`, ms, if set.
        safe_time_to_assume_node_rebooted: Option<Millis>,
    },
    /// Karpenter.
    KarpenterNodeRepair {
        /// The `NodeRepair` gate.
        node_repair: bool,
        /// The repair policies.
        conditions: Vec<ConditionCheck>,
        /// `--interruption-queue` set (acted on on AWS).
        interruption_queue: bool,
        /// The interruption message's latency, ms.
        interruption_latency: Millis,
    },
    /// GKE node auto-repair.
    GkeAutoRepair {
        /// ms.
        not_ready_timeout: Millis,
        /// ms.
        drain_timeout: Millis,
    },
    /// EKS node auto repair.
    EksNodeAutoRepair {
        /// ms.
        ready_timeout: Millis,
        /// Percent.
        max_unhealthy_percentage: u32,
    },
    /// AKS node auto-repair.
    AksAutoRepair {
        /// ms.
        detection_delay: Millis,
    },
}

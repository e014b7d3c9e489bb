//! Where a node runs, as `kubectl get nodes` says it: the cloud its `spec.providerID` names, and
//! the automatic repairs its node-pool labels say probably apply. `nodes` reads them; `build`
//! turns them into `cloud.provider` and report lines.

use crate::scenario::cloud::Provider;

/// What a node's `spec.providerID` says about its cloud.
#[derive(Debug, Clone, Default, PartialEq)]
pub enum CloudId {
    /// No `spec.providerID`.
    #[default]
    None,
    /// `aws://`, `gce://` or `azure://`: a cloud kubelife models.
    Provider(Provider),
    /// Another scheme (`kind://`, `vsphere://`, `openstack://`, or none): the text before `://`.
    Other(String),
}

/// The cloud a `spec.providerID` names: the scheme before `://`, as each cloud provider writes it
/// (cloud-provider-aws `aws:///<zone>/<instance>`, cloud-provider-gcp `gce://<project>/<zone>/<name>`,
/// cloud-provider-azure `azure:///subscriptions/...`).
pub fn cloud_id(provider_id: &str) -> CloudId {
    let scheme = provider_id.split_once("://").map_or(provider_id, |(s, _)| s);
    match scheme {
        "aws" => CloudId::Provider(Provider::Aws),
        "gce" => CloudId::Provider(Provider::Gcp),
        "azure" => CloudId::Provider(Provider::Azure),
        other => CloudId::Other(other.to_string()),
    }
}

/// An automatic node repair a node's labels say probably applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Repair {
    /// `eks.amazonaws.com/nodegroup`: an EKS managed node group (node auto repair off unless
    /// `nodeRepairConfig.enabled`).
    Eks,
    /// `cloud.google.com/gke-nodepool`: a GKE node pool (auto-repair on by default).
    Gke,
    /// `kubernetes.azure.com/agentpool`: an AKS node pool (auto-repair on).
    Aks,
    /// `karpenter.sh/nodepool`: a Karpenter NodePool (node repair off by default, behind the
    /// `NodeRepair` feature gate).
    Karpenter,
}

impl Repair {
    /// Every repair, in the order the report lists them.
    pub const ALL: [Repair; 4] = [Repair::Eks, Repair::Gke, Repair::Aks, Repair::Karpenter];

    /// The label that names it.
    pub fn label(self) -> &'static str {
        match self {
            Repair::Eks => "eks.amazonaws.com/nodegroup",
            Repair::Gke => "cloud.google.com/gke-nodepool",
            Repair::Aks => "kubernetes.azure.com/agentpool",
            Repair::Karpenter => "karpenter.sh/nodepool",
        }
    }

    /// The report's message for the nodes that carry the label.
    pub fn key(self) -> &'static str {
        match self {
            Repair::Eks => "import.repair.eks",
            Repair::Gke => "import.repair.gke",
            Repair::Aks => "import.repair.aks",
            Repair::Karpenter => "import.repair.karpenter",
        }
    }
}

/// What a node says about where it runs: its `spec.providerID` and the repairs its labels name.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct NodeCloud {
    /// `spec.providerID`.
    pub id: CloudId,
    /// The repairs its labels say probably apply, each once, in `Repair::ALL`'s order.
    pub repairs: Vec<Repair>,
}

//! An EKS managed node group on AWS: the Amazon EC2 Auto Scaling group Amazon EKS runs a node
//! group's instances in, and what EKS does for a Spot node group. It is closed source; this
//! follows its documentation:
//!
//! - The EKS user guide, "Simplify node lifecycle with managed node groups": every managed node
//!   is part of an Auto Scaling group, and EKS labels it `eks.amazonaws.com/capacityType`
//!   (`ON_DEMAND` or `SPOT`). For Spot capacity ("Managed node group capacity types"), Capacity
//!   Rebalancing is on: when a Spot node receives a rebalance recommendation, EKS tries to launch
//!   a replacement Spot node; if the two-minute interruption notice arrives before that
//!   replacement is Ready, EKS starts draining the node, best effort (it does not wait for the
//!   replacement): it cordons the node and evicts its pods gracefully.
//! - The Amazon EC2 Auto Scaling user guide, "Health checks for instances in an Auto Scaling
//!   group": an instance terminated unexpectedly (a Spot interruption, a termination by hand) is
//!   replaced, to keep the group's desired capacity.
//!
//! The model's Spot fault gives the interruption notice alone. EC2 sends the rebalance
//! recommendation at the latest together with it, so here both come at once: the replacement
//! is launched and the drain starts at the notice. A terminated instance of the group
//! (`InstanceTerminated`, or a Spot instance reclaimed with no replacement launched yet) is
//! replaced when it leaves `running`. A replacement registers `cloud.nodeBootDuration` after its
//! launch, as a new node (`<node>-r1`). The drain's retry is not documented; it takes
//! `kubectl drain`'s ([`EVICT_ERROR_RETRY_DELAY`]).

use crate::control_plane::drain::{DrainPolicy, Removal, Stuck, EVICT_ERROR_RETRY_DELAY};
pub use crate::scenario::cloud::LABEL_CAPACITY_TYPE;
use crate::scenario::{CapacityType, CloudConfig, Provider};
use std::collections::BTreeMap;

/// Why the Auto Scaling group launched an instance, as a machine's maker: Capacity Rebalancing
/// (a Spot node's rebalance recommendation).
pub const BY_REBALANCE: &str = "CapacityRebalance";

/// Why the Auto Scaling group launched an instance: one of its instances was terminated.
pub const BY_TERMINATION: &str = "AutoScalingGroup";

/// The Spot drain: through the eviction API (budgets honoured, each pod's own grace), waiting
/// for every pod, looking again after `kubectl drain`'s retry delay.
pub const SPOT_DRAIN: DrainPolicy = DrainPolicy {
    removal: Removal::Evict,
    stuck: Stuck::Never,
    retry: EVICT_ERROR_RETRY_DELAY,
};

/// The capacity type of the managed node group a node with these `labels` is in, on `cloud`:
/// its `eks.amazonaws.com/capacityType` label, or else the cloud's `managedNodeGroup`; none off
/// AWS.
pub fn capacity_type(cloud: &CloudConfig, labels: &BTreeMap<String, String>) -> Option<CapacityType> {
    if cloud.provider != Provider::Aws {
        return None;
    }
    match labels.get(LABEL_CAPACITY_TYPE) {
        Some(v) => CapacityType::by_name(v),
        None => cloud.managed_node_group,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_nodes_label_says_its_capacity_type_before_the_clouds_setting() {
        let mut cloud = CloudConfig {
            provider: Provider::Aws,
            node_monitor_period: 5_000,
            instance_termination_duration: 0,
            instance_stop_duration: 0,
            instance_deletion_duration: 0,
            node_boot_duration: 0,
            api_call_duration: 0,
            vm_cache_ttl: 0,
            automatic_out_of_service: false,
            managed_node_group: None,
        };
        let spot = BTreeMap::from([(LABEL_CAPACITY_TYPE.to_string(), "SPOT".to_string())]);
        let on_demand = BTreeMap::from([(LABEL_CAPACITY_TYPE.to_string(), "ON_DEMAND".to_string())]);
        assert_eq!(capacity_type(&cloud, &spot), Some(CapacityType::Spot));
        assert_eq!(capacity_type(&cloud, &on_demand), Some(CapacityType::OnDemand));
        assert_eq!(capacity_type(&cloud, &BTreeMap::new()), None);
        cloud.managed_node_group = Some(CapacityType::Spot);
        assert_eq!(capacity_type(&cloud, &BTreeMap::new()), Some(CapacityType::Spot));
        assert_eq!(capacity_type(&cloud, &on_demand), Some(CapacityType::OnDemand));
        cloud.provider = Provider::Gcp;
        assert_eq!(capacity_type(&cloud, &spot), None, "an EKS label means nothing off AWS");
    }
}

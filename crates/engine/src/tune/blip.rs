//! Blip safety: settings that react fast must not react to a short network blip. The blip is
//! the same cluster with the fault replaced by a `NetworkPartition` of the faulted node, healed
//! (`NodeRecover`) after the blip's length, as its only action; it is safe in a seed when no
//! NoExecute taint is added and no pod is deleted.

use crate::outcome::Outcome;
use crate::scenario::{ActionKind, ActionSpec, Config};
use crate::time::{Millis, SECOND};
use crate::timeline::EventKind;

/// The fault the milestones are measured from: the earliest fault of the first node (in the
/// scenario's order) that has one, as the summary's first faulted node.
pub fn fault(cfg: &Config) -> Option<&ActionSpec> {
    let faults = || cfg.actions.iter().filter(|a| a.action.is_fault() && a.node.is_some());
    let node = faults().filter_map(|a| a.node).min()?;
    faults().filter(|a| a.node == Some(node)).min_by_key(|a| a.at)
}

/// The blip run of a candidate: `cfg` with its fault replaced by a partition of `blip` ms, run
/// until a taint or deletion it caused could no longer come: the heal, then two heartbeats and
/// two monitor periods for the node to be seen Ready again, and 30s for the Lease's retry
/// backoff and the eviction queues.
pub fn blip_config(cfg: &Config, fault: &ActionSpec, blip: Millis) -> Config {
    let mut c = cfg.clone();
    let partition = ActionSpec {
        action: ActionKind::NetworkPartition,
        ..fault.clone()
    };
    let recover = ActionSpec {
        at: fault.at + blip,
        action: ActionKind::NodeRecover,
        ..fault.clone()
    };
    let k = &cfg.kubelet;
    let heartbeat = if k.node_lease {
        k.lease_renew_interval.max(k.node_status_update_frequency)
    } else {
        k.node_status_update_frequency
    };
    let settle = 2 * (heartbeat + cfg.controller_manager.node_monitor_period) + 30 * SECOND;
    c.duration = recover.at + settle;
    c.actions = vec![partition, recover];
    c
}

/// Whether a blip run added a NoExecute taint or deleted a pod.
pub fn disrupted(o: &Outcome) -> bool {
    o.events.iter().any(|e| match e.kind {
        EventKind::TaintAdded => e.taint.as_deref().is_some_and(|t| t.ends_with(":NoExecute")),
        EventKind::PodDeletionRequested | EventKind::PodRemoved => true,
        _ => false,
    })
}

//! The run's summary: API write counts, per-node milestones and per-workload readiness gaps,
//! all derived from the event list and the final objects.

use crate::api::{Api, PodId};
use crate::control_plane::workloads::Workloads;
use crate::time::{Millis, MINUTE};
use crate::timeline::{Event, EventKind};
use serde::Serialize;

/// API writes over the run.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ApiWrites {
    /// Lease PUTs by kubelets.
    pub lease_updates: u64,
    /// Node status PATCHes by kubelets.
    pub node_status_patches: u64,
    /// Lease PUTs per minute of run.
    pub lease_updates_per_minute: f64,
    /// Node status PATCHes per minute of run.
    pub node_status_patches_per_minute: f64,
    /// Node status PUTs by the node lifecycle controller.
    pub node_status_updates_by_controller: u64,
    /// Pod status writes.
    pub pod_status_updates: u64,
    /// Node taint PATCHes.
    pub taint_patches: u64,
    /// Pod creations.
    pub pod_creates: u64,
    /// Pod bindings.
    pub pod_binds: u64,
    /// Pod DELETEs.
    pub pod_deletes: u64,
}

/// Milestones of one node, in ms from the start of the run; `None` when it did not happen.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct NodeMilestones {
    /// Node name.
    pub node: String,
    /// Its zone.
    pub zone: String,
    /// First fault.
    pub fault_at_ms: Option<Millis>,
    /// Ready=Unknown (or NotReady) written after the fault.
    pub unknown_at_ms: Option<Millis>,
    /// Its pods marked NotReady (endpoints stop sending traffic).
    pub pods_not_ready_at_ms: Option<Millis>,
    /// NoExecute taint added.
    pub taint_at_ms: Option<Millis>,
    /// First pod deletion requested.
    pub first_deletion_at_ms: Option<Millis>,
    /// Last pod deletion requested.
    pub last_deletion_at_ms: Option<Millis>,
    /// The first replacement of a pod deleted from this node Ready.
    pub first_replacement_ready_at_ms: Option<Millis>,
    /// Every deleted pod's replacement Ready (`None` if some never became Ready).
    pub replacements_ready_at_ms: Option<Millis>,
    /// Pods deleted from this node.
    pub pods_deleted: u32,
    /// Of those, how many have a Ready replacement.
    pub pods_replaced: u32,
}

/// Readiness of one workload over the run.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct WorkloadSummary {
    /// Workload name.
    pub workload: String,
    /// Kind.
    pub kind: crate::scenario::WorkloadKind,
    /// Desired Ready pods.
    pub desired: u32,
    /// Time with fewer Ready (and not terminating) pods than desired, ms.
    pub not_fully_ready_ms: Millis,
    /// The fewest Ready pods at any moment.
    pub min_ready: u32,
    /// Ready pods at the end.
    pub ready_at_end: u32,
}

/// The summary of a run.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Summary {
    /// Kubernetes version simulated.
    pub version: String,
    /// Seed.
    pub seed: u64,
    /// Run length, ms.
    pub duration_ms: Millis,
    /// API writes.
    pub api_writes: ApiWrites,
    /// Per-node milestones, for nodes that had a fault.
    pub nodes: Vec<NodeMilestones>,
    /// Per-workload readiness.
    pub workloads: Vec<WorkloadSummary>,
}

/// Builds the summary from a finished run.
pub fn summarize(
    events: &[Event],
    api: &Api,
    workloads: &Workloads,
    version: String,
    seed: u64,
    duration: Millis,
) -> Summary {
    let w = &api.writes;
    let minutes = duration as f64 / MINUTE as f64;
    let per_min = |c: u64| {
        if minutes > 0.0 {
            (c as f64 / minutes * 10.0).round() / 10.0
        } else {
            0.0
        }
    };
    let api_writes = ApiWrites {
        lease_updates: w.lease_updates,
        node_status_patches: w.node_status_patches,
        lease_updates_per_minute: per_min(w.lease_updates),
        node_status_patches_per_minute: per_min(w.node_status_patches),
        node_status_updates_by_controller: w.node_status_updates_by_controller,
        pod_status_updates: w.pod_status_updates,
        taint_patches: w.taint_patches,
        pod_creates: w.pod_creates,
        pod_binds: w.pod_binds,
        pod_deletes: w.pod_deletes,
    };

    // First PodReady after creation, per pod.
    let mut first_ready: Vec<Option<Millis>> = vec![None; api.pods.len()];
    for e in events {
        if e.kind == EventKind::PodReady {
            if let Some(p) = e.pod {
                first_ready[p].get_or_insert(e.at);
            }
        }
    }
    let mut replacement_of: Vec<Option<PodId>> = vec![None; api.pods.len()];
    for (p, pod) in api.pods.iter().enumerate() {
        if let Some(old) = pod.replaces {
            replacement_of[old].get_or_insert(p);
        }
    }

    let mut first_fault: Vec<Option<Millis>> = vec![None; api.nodes.len()];
    for e in events.iter().filter(|e| e.kind == EventKind::FaultStarted) {
        if let Some(n) = e.node {
            first_fault[n].get_or_insert(e.at);
        }
    }
    let mut nodes = Vec::new();
    for (n, node) in api.nodes.iter().enumerate() {
        let Some(fault) = first_fault[n] else {
            continue;
        };
        let after = |kind: EventKind, pred: &dyn Fn(&Event) -> bool| {
            events
                .iter()
                .find(|e| e.kind == kind && e.node == Some(n) && e.at >= fault && pred(e))
                .map(|e| e.at)
        };
        let unknown = after(EventKind::NodeUnknown, &|_| true).or_else(|| after(EventKind::NodeNotReady, &|_| true));
        let taint = after(EventKind::TaintAdded, &|e| {
            e.taint.as_deref().is_some_and(|t| t.ends_with(":NoExecute"))
        });
        let deletions: Vec<&Event> = events
            .iter()
            .filter(|e| e.kind == EventKind::PodDeletionRequested && e.node == Some(n) && e.at >= fault)
            .collect();
        let mut replaced = 0;
        let mut earliest: Option<Millis> = None;
        let mut all_ready: Option<Millis> = Some(0);
        for d in &deletions {
            let ready = d.pod.and_then(|p| replacement_of[p]).and_then(|r| first_ready[r]);
            match ready {
                Some(t) => {
                    replaced += 1;
                    earliest = Some(earliest.map_or(t, |f| f.min(t)));
                    all_ready = all_ready.map(|a| a.max(t));
                }
                None => all_ready = None,
            }
        }
        nodes.push(NodeMilestones {
            node: node.name.clone(),
            zone: node.zone.clone(),
            fault_at_ms: Some(fault),
            unknown_at_ms: unknown,
            pods_not_ready_at_ms: after(EventKind::PodNotReady, &|_| true),
            taint_at_ms: taint,
            first_deletion_at_ms: deletions.first().map(|e| e.at),
            last_deletion_at_ms: deletions.last().map(|e| e.at),
            first_replacement_ready_at_ms: earliest,
            replacements_ready_at_ms: if deletions.is_empty() { None } else { all_ready },
            pods_deleted: deletions.len() as u32,
            pods_replaced: replaced,
        });
    }

    let workload_summaries = (0..workloads.specs.len())
        .map(|wi| readiness(wi, events, api, workloads, duration))
        .collect();
    Summary {
        version,
        seed,
        duration_ms: duration,
        api_writes,
        nodes,
        workloads: workload_summaries,
    }
}

fn readiness(wi: usize, events: &[Event], api: &Api, workloads: &Workloads, duration: Millis) -> WorkloadSummary {
    let spec = &workloads.specs[wi];
    let desired = i64::from(workloads.desired(wi, api));
    // A pod counts while it is Ready and not terminating, as a ReplicaSet's readyReplicas does.
    let mut counted = vec![false; api.pods.len()];
    let mut ready: i64 = 0;
    let mut min_ready = i64::MAX;
    let mut short: Millis = 0;
    let mut i = 0;
    while i < events.len() {
        let at = events[i].at;
        // Apply every event of this instant before measuring, so that a swap within one instant
        // is not a gap.
        while i < events.len() && events[i].at == at {
            let e = &events[i];
            i += 1;
            let Some(p) = e.pod else { continue };
            if api.pods[p].workload != wi {
                continue;
            }
            let want = match e.kind {
                EventKind::PodReady => true,
                EventKind::PodNotReady | EventKind::PodDeletionRequested | EventKind::PodRemoved => false,
                _ => continue,
            };
            let terminating = api.pods[p].deletion_requested_at.is_some_and(|d| d <= at);
            let now_counted = want && !terminating;
            if now_counted != counted[p] {
                counted[p] = now_counted;
                ready += if now_counted { 1 } else { -1 };
            }
        }
        min_ready = min_ready.min(ready);
        let next = events.get(i).map_or(duration, |e| e.at.min(duration));
        if ready < desired {
            short += (next - at).max(0);
        }
    }
    if events.is_empty() {
        short = if desired > 0 { duration } else { 0 };
        min_ready = 0;
    }
    WorkloadSummary {
        workload: spec.name.clone(),
        kind: spec.kind,
        desired: desired as u32,
        not_fully_ready_ms: short,
        min_ready: min_ready.clamp(0, i64::from(u32::MAX)) as u32,
        ready_at_end: ready.max(0) as u32,
    }
}

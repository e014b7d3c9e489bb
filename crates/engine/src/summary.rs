//! The run's summary: API write counts, per-node milestones and per-workload readiness gaps,
//! all derived from the event list and the final objects.

use crate::api::{Api, NodeId, PodId};
use crate::control_plane::workloads::Workloads;
pub use crate::network::kube_proxy::ServiceSummary;
pub use crate::network::ClientSummary;
use crate::time::{Millis, MINUTE};
use crate::timeline::{Event, EventKind};
use serde::{Deserialize, Serialize};

/// API writes over the run.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
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
    /// Requests per controller client (GETs and events included), as kube-controller-manager's
    /// rate limiters count them.
    pub controller_requests: std::collections::BTreeMap<String, u64>,
}

/// Milestones of one node, in ms from the start of the run; `None` when it did not happen.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
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
    /// Its first pod marked NotReady (endpoints stop sending traffic).
    pub pods_not_ready_at_ms: Option<Millis>,
    /// Its last pod marked NotReady: the node lifecycle controller marks them one by one, at its
    /// client's rate.
    pub last_pod_not_ready_at_ms: Option<Millis>,
    /// NoExecute taint added.
    pub taint_at_ms: Option<Millis>,
    /// First pod deleted: a deletion requested (a taint eviction, a drain), or a pod
    /// force-deleted without one (PodGC's orphans once the Node is gone, a remediator's
    /// resource deletion, an operator's force delete).
    pub first_deletion_at_ms: Option<Millis>,
    /// Last pod deleted, counted the same way.
    pub last_deletion_at_ms: Option<Millis>,
    /// The first replacement of a pod deleted from this node Ready (orphans PodGC removed after
    /// the Node's deletion included).
    pub first_replacement_ready_at_ms: Option<Millis>,
    /// Every deleted pod that its controller replaces elsewhere (a ReplicaSet's or a
    /// StatefulSet's, not a DaemonSet's, which is bound to its node) has its replacement Ready
    /// (`None` if some never became Ready, or no such pod was deleted).
    pub replacements_ready_at_ms: Option<Millis>,
    /// Pods deleted from this node: a deletion requested, or, once the Node object is deleted,
    /// force-deleted by PodGC as orphans.
    pub pods_deleted: u32,
    /// Of those, how many have a Ready replacement.
    pub pods_replaced: u32,
    /// The Node object deleted after the fault (by the cloud node lifecycle controller, a
    /// remediator or an operator).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deleted_at_ms: Option<Millis>,
    /// The first remediation of the node started (`RemediationStarted`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub remediation_at_ms: Option<Millis>,
}

/// Readiness of one workload over the run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
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
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
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
    /// Per Service: traffic stopped, the blackhole window, time without full serving capacity.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub services: Vec<ServiceSummary>,
    /// Per volume that moved or waited: when it was asked off a node, freed, attached elsewhere.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub volumes: Vec<VolumeSummary>,
    /// Per client of the scenario: its requests and errors.
    #[cfg(feature = "clients")]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub clients: Vec<ClientSummary>,
}

/// A volume's way from one node to another over a run (only volumes that had a detach request
/// or a Multi-Attach error are listed).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct VolumeSummary {
    /// The claim's name.
    pub volume: String,
    /// The first detach request, ms.
    pub detach_requested_at_ms: Option<Millis>,
    /// The first completed detach: from then on the volume is free to attach elsewhere, ms.
    pub detached_at_ms: Option<Millis>,
    /// Whether a detach went ahead while the node still reported the volume in use.
    pub force_detached: bool,
    /// The first attach completed on another node than the one the volume was first asked off
    /// (with only a Multi-Attach error, the first attach after it), ms.
    pub attached_elsewhere_at_ms: Option<Millis>,
    /// The first attach completed on the node the volume was first asked off, after its detach
    /// there (a pod came back to the node while the detach was under way), ms.
    pub attached_again_at_ms: Option<Millis>,
    /// The first mount after the volume was first asked off its node or waited on, ms.
    pub mounted_at_ms: Option<Millis>,
    /// Multi-Attach error events (one per waiting pod and node).
    pub multi_attach_errors: u32,
}

/// Folds the volume events of a timeline into one summary per volume, in order of first mention.
pub(crate) fn volume_summaries(events: &[Event]) -> Vec<VolumeSummary> {
    let mut out: Vec<VolumeSummary> = Vec::new();
    // Per volume: the node it was first asked off.
    let mut from: Vec<Option<NodeId>> = Vec::new();
    for e in events {
        let Some(name) = &e.volume else { continue };
        let i = match out.iter().position(|v| &v.volume == name) {
            Some(i) => i,
            None => {
                out.push(VolumeSummary {
                    volume: name.clone(),
                    ..VolumeSummary::default()
                });
                from.push(None);
                out.len() - 1
            }
        };
        let v = &mut out[i];
        let asked = v.detach_requested_at_ms.is_some() || v.multi_attach_errors > 0;
        match e.kind {
            EventKind::VolumeDetachRequested => {
                if v.detach_requested_at_ms.is_none() {
                    from[i] = e.node;
                }
                v.detach_requested_at_ms.get_or_insert(e.at);
            }
            EventKind::VolumeForceDetached => v.force_detached = true,
            EventKind::VolumeDetached => {
                v.detached_at_ms.get_or_insert(e.at);
            }
            EventKind::MultiAttachError => v.multi_attach_errors += 1,
            EventKind::VolumeAttached if asked && from[i].is_some() && e.node == from[i] => {
                v.attached_again_at_ms.get_or_insert(e.at);
            }
            EventKind::VolumeAttached if asked => {
                v.attached_elsewhere_at_ms.get_or_insert(e.at);
            }
            EventKind::VolumeMounted if asked => {
                v.mounted_at_ms.get_or_insert(e.at);
            }
            _ => {}
        }
    }
    out.retain(|v| v.detach_requested_at_ms.is_some() || v.multi_attach_errors > 0);
    out
}

/// Builds the summary from a finished run; `faults` are the operator's actions that faulted a
/// node (`Log::faults`), besides the `FaultStarted` events.
pub fn summarize(
    events: &[Event],
    faults: &[(NodeId, Millis)],
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
        controller_requests: crate::order::map(api.clients.totals.iter().map(|(c, n)| (c.key().to_string(), *n))),
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

    // A DaemonSet's controller does not replace its pod elsewhere (`nodeShouldRunDaemonPod`
    // binds each daemon pod to its node): its deletion waits for no replacement.
    let moves: Vec<bool> = api
        .pods
        .iter()
        .map(|p| workloads.specs[p.workload].kind != crate::scenario::WorkloadKind::DaemonSet)
        .collect();
    let nodes = node_milestones((events, faults), api, &first_ready, &replacement_of, &moves);
    let workload_summaries = readiness(events, api, workloads, duration);
    Summary {
        version,
        seed,
        duration_ms: duration,
        api_writes,
        nodes,
        workloads: workload_summaries,
        services: Vec::new(),
        volumes: Vec::new(),
        #[cfg(feature = "clients")]
        clients: Vec::new(),
    }
}

/// What one pass over the events gathers for one faulted node.
#[derive(Default)]
struct NodeSeen {
    fault: Option<Millis>,
    unknown: Option<Millis>,
    not_ready: Option<Millis>,
    pods_not_ready: Option<Millis>,
    last_pod_not_ready: Option<Millis>,
    taint: Option<Millis>,
    deletions: Vec<Option<PodId>>,
    failed: Vec<Option<PodId>>,
    first_deletion: Option<Millis>,
    last_deletion: Option<Millis>,
    deleted: Option<Millis>,
    remediation: Option<Millis>,
}

impl NodeSeen {
    /// Counts pod `e.pod` deleted from the node at `e.at`.
    fn deleted_pod(&mut self, e: &Event) {
        self.deletions.push(e.pod);
        self.first_deletion.get_or_insert(e.at);
        self.last_deletion = Some(e.at);
    }
}

/// Per-node milestones of every node that had a fault, from one pass over the events: a node's
/// fault is its first `FaultStarted` or the first operator's action that faulted it (`faults`),
/// whichever came first. `moves` says, per pod, whether its controller replaces it on another
/// node.
fn node_milestones(
    (events, faults): (&[Event], &[(NodeId, Millis)]),
    api: &Api,
    first_ready: &[Option<Millis>],
    replacement_of: &[Option<PodId>],
    moves: &[bool],
) -> Vec<NodeMilestones> {
    let mut seen: Vec<NodeSeen> = (0..api.nodes.len()).map(|_| NodeSeen::default()).collect();
    let started = events
        .iter()
        .filter(|e| e.kind == EventKind::FaultStarted)
        .filter_map(|e| e.node.map(|n| (n, e.at)));
    for (n, at) in started.chain(faults.iter().copied()) {
        let fault = &mut seen[n].fault;
        *fault = Some(fault.map_or(at, |f| f.min(at)));
    }
    for e in events {
        let Some(n) = e.node else { continue };
        let s = &mut seen[n];
        if s.fault.is_none_or(|f| e.at < f) {
            continue;
        }
        match e.kind {
            EventKind::NodeUnknown => {
                s.unknown.get_or_insert(e.at);
            }
            EventKind::NodeNotReady => {
                s.not_ready.get_or_insert(e.at);
            }
            EventKind::PodNotReady => {
                s.pods_not_ready.get_or_insert(e.at);
                s.last_pod_not_ready = Some(e.at);
            }
            EventKind::TaintAdded if e.taint.as_deref().is_some_and(|t| t.ends_with(":NoExecute")) => {
                s.taint.get_or_insert(e.at);
            }
            EventKind::PodDeletionRequested => s.deleted_pod(e),
            EventKind::NodeDeleted => {
                s.deleted.get_or_insert(e.at);
            }
            EventKind::PodFailed => s.failed.push(e.pod),
            // A pod removed without a graceful DELETE first is force-deleted: by PodGC once the
            // Node is gone (`gcOrphaned`), by a remediator (Self Node Remediation's resource
            // deletion) or by an operator. It is deleted from the node all the same, and
            // replaced. A Failed pod's removal is not a deletion from the node: it had stopped.
            EventKind::PodRemoved if !s.deletions.contains(&e.pod) && !s.failed.contains(&e.pod) => {
                s.deleted_pod(e);
            }
            EventKind::RemediationStarted => {
                s.remediation.get_or_insert(e.at);
            }
            _ => {}
        }
    }
    let mut nodes = Vec::new();
    for (n, s) in seen.into_iter().enumerate() {
        let Some(fault) = s.fault else { continue };
        let mut replaced = 0;
        let mut earliest: Option<Millis> = None;
        let mut all_ready: Option<Millis> = Some(0);
        let mut any = false;
        for d in &s.deletions {
            let ready = d.and_then(|p| replacement_of[p]).and_then(|r| first_ready[r]);
            if let Some(t) = ready {
                replaced += 1;
                earliest = Some(earliest.map_or(t, |f| f.min(t)));
            }
            // Only pods replaced elsewhere wait for a replacement.
            if d.is_none_or(|p| moves[p]) {
                any = true;
                all_ready = all_ready.zip(ready).map(|(a, t)| a.max(t));
            }
        }
        let node = &api.nodes[n];
        nodes.push(NodeMilestones {
            node: node.name.clone(),
            zone: node.zone.clone(),
            fault_at_ms: Some(fault),
            unknown_at_ms: s.unknown.or(s.not_ready),
            pods_not_ready_at_ms: s.pods_not_ready,
            last_pod_not_ready_at_ms: s.last_pod_not_ready,
            taint_at_ms: s.taint,
            first_deletion_at_ms: s.first_deletion,
            last_deletion_at_ms: s.last_deletion,
            first_replacement_ready_at_ms: earliest,
            replacements_ready_at_ms: if any { all_ready } else { None },
            pods_deleted: s.deletions.len() as u32,
            pods_replaced: replaced,
            deleted_at_ms: s.deleted,
            remediation_at_ms: s.remediation,
        });
    }
    nodes
}

/// Each workload's readiness over the run, from one pass over the events.
fn readiness(events: &[Event], api: &Api, workloads: &Workloads, duration: Millis) -> Vec<WorkloadSummary> {
    let count = workloads.specs.len();
    let desired: Vec<i64> = (0..count).map(|w| i64::from(workloads.desired(w, api))).collect();
    // A pod counts while it is Ready and not terminating, as a ReplicaSet's readyReplicas does.
    let mut counted = vec![false; api.pods.len()];
    let mut ready = vec![0i64; count];
    let mut min_ready = vec![i64::MAX; count];
    let mut short: Vec<Millis> = vec![0; count];
    let mut i = 0;
    while i < events.len() {
        let at = events[i].at;
        // Apply every event of this instant before measuring, so that a swap within one instant
        // is not a gap.
        while i < events.len() && events[i].at == at {
            let e = &events[i];
            i += 1;
            let Some(p) = e.pod else { continue };
            let want = match e.kind {
                EventKind::PodReady => true,
                EventKind::PodNotReady
                | EventKind::PodDeletionRequested
                | EventKind::PodRemoved
                | EventKind::PodFailed => false,
                _ => continue,
            };
            let terminating = api.pods[p].deletion_requested_at.is_some_and(|d| d <= at);
            let now_counted = want && !terminating;
            if now_counted != counted[p] {
                counted[p] = now_counted;
                ready[api.pods[p].workload] += if now_counted { 1 } else { -1 };
            }
        }
        let next = events.get(i).map_or(duration, |e| e.at.min(duration));
        for w in 0..count {
            min_ready[w] = min_ready[w].min(ready[w]);
            if ready[w] < desired[w] {
                short[w] += (next - at).max(0);
            }
        }
    }
    (0..count)
        .map(|w| {
            let spec = &workloads.specs[w];
            let (short, min) = if events.is_empty() {
                (if desired[w] > 0 { duration } else { 0 }, 0)
            } else {
                (short[w], min_ready[w])
            };
            WorkloadSummary {
                workload: spec.name.clone(),
                kind: spec.kind,
                desired: desired[w] as u32,
                not_fully_ready_ms: short,
                min_ready: min.clamp(0, i64::from(u32::MAX)) as u32,
                ready_at_end: ready[w].max(0) as u32,
            }
        })
        .collect()
}

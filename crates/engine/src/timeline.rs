//! The timeline: what happened, when, and why.
//!
//! Every event carries a `cause`, a message naming the rule that fired and the values involved,
//! and, where another event made it possible, that event (`after`): the deletion that let the
//! replacement be created, the detach that let the attach happen, the taint that started the
//! eviction timer. Following `after` back from any event walks the chain that led to it, which is
//! how every explanation of where the time went is read off the run. Explaining the cause is the
//! product; the UI shows these messages in the reader's language.

use crate::cause::Cause;
use crate::time::Millis;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;

/// What kind of thing happened.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum EventKind {
    /// A scheduled fault began.
    FaultStarted,
    /// A fault ended.
    FaultEnded,
    /// The node lifecycle controller saw a node for the first time.
    NodeRegistered,
    /// The node's Ready condition became True.
    NodeReady,
    /// The node's Ready condition became False.
    NodeNotReady,
    /// The node lifecycle controller set Ready=Unknown.
    NodeUnknown,
    /// A taint was added to a node.
    TaintAdded,
    /// A taint was removed from a node.
    TaintRemoved,
    /// A zone's disruption state changed.
    ZoneStateChanged,
    /// A pod object was created.
    PodCreated,
    /// The scheduler bound a pod to a node.
    PodScheduled,
    /// The scheduler found no node for a pod.
    PodUnschedulable,
    /// A pod's Ready condition became True.
    PodReady,
    /// A pod's Ready condition became False.
    PodNotReady,
    /// A pod was marked for deletion (graceful DELETE; it shows as Terminating).
    PodDeletionRequested,
    /// A pod object was removed.
    PodRemoved,
    /// A taint-eviction timer was set for a pod.
    PodEvictionScheduled,
    /// A pending taint-eviction timer was cancelled.
    PodEvictionCancelled,
    /// A joining node's kubelet created its Node object.
    NodeCreated,
    /// The Node object was deleted: by an operator, the cloud node lifecycle controller or a
    /// remediator (the cause says which).
    NodeDeleted,
    /// An operator or a remediator's drain cordoned a node (`spec.unschedulable`).
    NodeCordoned,
    /// A remediator's drain of a node is over: no pod is left that it waits for, or it gave
    /// up (the cause says which, and how long it looked again after).
    NodeDrained,
    /// A node became schedulable again (`spec.unschedulable` false): GKE's re-created VM.
    NodeUncordoned,
    /// kube-controller-manager stopped: its controllers' memory is gone.
    ControllerManagerStopped,
    /// kube-controller-manager (a new leader) started its controllers.
    ControllerManagerStarted,
    /// The apiserver's latency changed.
    ApiServerLatencyChanged,
    /// An operator changed the tolerationSeconds of a pod's NoExecute tolerations.
    PodTolerationsPatched,
    /// A Service's EndpointSlice lists a pod's endpoint as ready.
    EndpointReady,
    /// A Service's EndpointSlice marks a pod's endpoint not ready.
    EndpointNotReady,
    /// A Service's EndpointSlice no longer lists a pod.
    EndpointRemoved,
    /// The last connected kube-proxy stopped sending new connections to a pod.
    TrafficStopped,
    /// The connected kube-proxies started sending new connections to a pod.
    TrafficStarted,
    /// The attach-detach controller starts the clock to detach a volume from a node.
    VolumeDetachRequested,
    /// A volume is detached without waiting for its unmount (6-minute timeout or out-of-service).
    VolumeForceDetached,
    /// A volume's detach completed.
    VolumeDetached,
    /// A volume's attach to a node completed.
    VolumeAttached,
    /// A pod waits: its volume is still attached to another node.
    MultiAttachError,
    /// The kubelet mounted a pod's volume.
    VolumeMounted,
    /// An eviction was refused (429): it would break a PodDisruptionBudget.
    EvictionRefused,
    /// The kubelet set a pod's phase to Failed (graceful node shutdown).
    PodFailed,
    /// A node powered off at the end of a graceful shutdown: its heartbeats stop.
    NodePoweredOff,
    /// A remediator began to repair a node (`remediator` names it).
    RemediationStarted,
    /// A remediator's safety breaker held a repair back (`remediator` names it).
    RemediationBlocked,
    /// A kubelet renewed its Lease (only with heartbeats recorded).
    LeaseRenewed,
    /// A kubelet patched its node status (only with heartbeats recorded).
    NodeStatusPatched,
    /// A client's first failing request of an episode was sent (`client` names it; `pod` is the
    /// dead backend where there is one).
    ClientErrorsStarted,
    /// A client's last error of an episode returned.
    ClientErrorsEnded,
    /// A load balancer's health checks of a target (`node`, or `pod` for ip targets) failed
    /// their threshold: it sends the target no new flow.
    LoadBalancerTargetUnhealthy,
    /// A controller took a target (`node` or `pod`) out of a load balancer.
    LoadBalancerTargetDeregistered,
}

impl EventKind {
    /// Whether this is a heartbeat, recorded only on request.
    pub fn is_heartbeat(self) -> bool {
        matches!(self, EventKind::LeaseRenewed | EventKind::NodeStatusPatched)
    }

    /// Whether a client records it (a client observes: nothing else follows from it).
    pub fn is_client(self) -> bool {
        matches!(self, EventKind::ClientErrorsStarted | EventKind::ClientErrorsEnded)
    }
}

impl fmt::Display for EventKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self, f)
    }
}

/// A zone's disruption state (`ZoneState` in the node lifecycle controller).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum ZoneState {
    /// Not yet evaluated.
    Initial,
    /// Healthy enough: normal tainting rate.
    Normal,
    /// Many nodes not Ready: reduced or no tainting.
    PartialDisruption,
    /// No node Ready.
    FullDisruption,
}

impl fmt::Display for ZoneState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self, f)
    }
}

/// A node's index in the apiserver's node list (`api::NodeId`).
type NodeId = usize;
/// A pod's index in the apiserver's pod list (`api::PodId`).
type PodId = usize;
/// An event's index in the recorded log (and in [`crate::outcome::Outcome::events`]).
pub type EventId = usize;

/// One event, with ids rather than names (see [`crate::outcome::Outcome`] for the named form).
#[derive(Debug, Clone, PartialEq)]
pub struct Event {
    /// When, ms.
    pub at: Millis,
    /// What.
    pub kind: EventKind,
    /// The node involved.
    pub node: Option<NodeId>,
    /// The pod involved.
    pub pod: Option<PodId>,
    /// The taint involved, as `key:Effect`.
    pub taint: Option<String>,
    /// The zone involved.
    pub zone: Option<String>,
    /// The zone's new state.
    pub state: Option<ZoneState>,
    /// The Service involved (by workload index).
    pub service: Option<usize>,
    /// The volume involved.
    pub volume: Option<String>,
    /// The remediator involved (`RemediationStarted`, `RemediationBlocked`), as the scenario's
    /// `remediation[].kind` names it.
    pub remediator: Option<String>,
    /// The client involved (`ClientErrorsStarted`, `ClientErrorsEnded`), by its name.
    pub client: Option<String>,
    /// Why it happened.
    pub cause: Cause,
    /// The event that made this one possible, if the log recorded it: the link its cause
    /// describes (from a deletion back to the taint whose toleration ran out, say).
    pub after: Option<EventId>,
}

impl Event {
    /// An event with only time, kind and cause set.
    pub fn new(at: Millis, kind: EventKind, cause: Cause) -> Event {
        Event {
            at,
            kind,
            node: None,
            pod: None,
            taint: None,
            zone: None,
            state: None,
            service: None,
            volume: None,
            remediator: None,
            client: None,
            cause,
            after: None,
        }
    }

    /// Sets the event that made this one possible.
    pub fn after(mut self, id: Option<EventId>) -> Event {
        self.after = id;
        self
    }

    /// Sets the node.
    pub fn node(mut self, n: NodeId) -> Event {
        self.node = Some(n);
        self
    }

    /// Sets the pod.
    pub fn pod(mut self, p: PodId) -> Event {
        self.pod = Some(p);
        self
    }

    /// Sets the taint label.
    pub fn taint(mut self, t: impl Into<String>) -> Event {
        self.taint = Some(t.into());
        self
    }
}

/// The event recorder. Events before time 0 (the warm-up) are dropped.
#[derive(Debug, Clone, Default)]
pub struct Log {
    /// Recorded events, in the order they happened.
    pub events: Vec<Event>,
    /// Whether heartbeat events are kept.
    pub heartbeats: bool,
    /// The last recorded event of each kind that matters for later links, per object.
    pub index: Index,
    /// The operator's actions that fault a node (`ActionKind::faulted`: a drain, an
    /// out-of-service taint, a Node deleted, a pod force-deleted), as the node and when, ms, in
    /// the order they came; a node's own faults are its `FaultStarted` events instead.
    pub faults: Vec<(NodeId, Millis)>,
}

impl Log {
    /// Records `e` if it falls in the recorded window; returns its id then.
    pub fn push(&mut self, e: Event) -> Option<EventId> {
        if !self.wants(e.at, e.kind) {
            return None;
        }
        let id = self.events.len();
        self.index.note(&e, id);
        self.events.push(e);
        Some(id)
    }

    /// Whether an event of this kind at this time would be kept; lets callers skip building
    /// causes that would be dropped.
    pub fn wants(&self, at: Millis, kind: EventKind) -> bool {
        at >= 0 && (self.heartbeats || !kind.is_heartbeat())
    }
}

/// Of several events that each had to happen first, the last one: the one that made the next
/// possible.
pub fn latest(ids: impl IntoIterator<Item = Option<EventId>>) -> Option<EventId> {
    ids.into_iter().flatten().max()
}

/// What happened last to a node, by the events recorded about it.
#[derive(Debug, Clone, Default)]
pub struct NodeMarks {
    /// The fault that stopped its heartbeats (`FaultStarted`, or `NodePoweredOff` at the end of
    /// a graceful shutdown), while it lasts: cleared by `FaultEnded` and `NodeCreated`.
    pub silenced: Option<EventId>,
    /// The last `FaultEnded` or `NodeCreated`: its kubelet runs and reaches the apiserver again.
    pub back: Option<EventId>,
    /// The last change of its Ready condition (`NodeUnknown`, `NodeNotReady`, `NodeReady`).
    pub ready: Option<EventId>,
    /// `NodeCordoned`.
    pub cordoned: Option<EventId>,
    /// `NodeDrained`.
    pub drained: Option<EventId>,
    /// The last `RemediationStarted`: a remediator's repair under way.
    pub remediation: Option<EventId>,
    /// The last `NodeRegistered`: the node lifecycle controller counts it in its zone.
    pub registered: Option<EventId>,
    /// The last `NodeCreated`: its kubelet registered the Node, Ready at once.
    pub created: Option<EventId>,
    /// `NodeDeleted`.
    pub deleted: Option<EventId>,
    /// The taints it carries, each with the `TaintAdded` that put it there.
    pub taints: Vec<(String, EventId)>,
    /// The last `TaintRemoved`.
    pub untainted: Option<EventId>,
    /// The last `PodRemoved` of a pod bound to it: room for another.
    pub pod_left: Option<EventId>,
}

/// What happened last to a pod, by the events recorded about it.
#[derive(Debug, Clone, Copy, Default)]
pub struct PodMarks {
    /// `PodCreated`.
    pub created: Option<EventId>,
    /// `PodScheduled`.
    pub scheduled: Option<EventId>,
    /// The last `PodReady`.
    pub ready: Option<EventId>,
    /// The last `PodNotReady`.
    pub not_ready: Option<EventId>,
    /// `PodEvictionScheduled`, while its timer stands (cleared by `PodEvictionCancelled`).
    pub eviction_scheduled: Option<EventId>,
    /// `PodDeletionRequested`.
    pub deleting: Option<EventId>,
    /// `PodFailed`.
    pub failed: Option<EventId>,
    /// `PodRemoved`.
    pub removed: Option<EventId>,
    /// `VolumeMounted`.
    pub mounted: Option<EventId>,
    /// The last change of its endpoint (`EndpointReady`, `EndpointNotReady`, `EndpointRemoved`).
    pub endpoint: Option<EventId>,
    /// The last `PodTolerationsPatched`.
    pub tolerations: Option<EventId>,
    /// The last `EvictionRefused`.
    pub refused: Option<EventId>,
}

/// What happened last to a volume on one node, by the events recorded about it.
#[derive(Debug, Clone, Copy, Default)]
pub struct VolumeMarks {
    /// `VolumeDetachRequested`.
    pub detach_requested: Option<EventId>,
    /// `VolumeForceDetached`.
    pub force_detached: Option<EventId>,
    /// `VolumeDetached`.
    pub detached: Option<EventId>,
    /// `VolumeAttached`.
    pub attached: Option<EventId>,
}

/// The last recorded events per object, so that a later event can name the one that made it
/// possible. Kept as events are recorded: its cost follows what happens, not what exists.
#[derive(Debug, Clone, Default)]
pub struct Index {
    nodes: Vec<NodeMarks>,
    pods: Vec<PodMarks>,
    volumes: BTreeMap<String, Vec<(NodeId, VolumeMarks)>>,
    /// The last `ControllerManagerStopped`.
    pub controller_manager_stopped: Option<EventId>,
    /// The last `ControllerManagerStarted`.
    pub controller_manager_started: Option<EventId>,
    /// The last `ApiServerLatencyChanged`.
    pub api_latency: Option<EventId>,
}

impl Index {
    /// What the log recorded of node `n`.
    pub fn node(&self, n: NodeId) -> Option<&NodeMarks> {
        self.nodes.get(n)
    }

    /// The fault that silenced node `n`, while it lasts.
    pub fn silenced(&self, n: NodeId) -> Option<EventId> {
        self.node(n).and_then(|m| m.silenced)
    }

    /// The last change of node `n`'s Ready condition.
    pub fn ready(&self, n: NodeId) -> Option<EventId> {
        self.node(n).and_then(|m| m.ready)
    }

    /// The last change of node `n`'s Ready condition, or its registration (its kubelet's
    /// `NodeCreated`, the node lifecycle controller's `NodeRegistered`) if that came later: a
    /// node that registers Ready has no Ready change of its own.
    pub fn ready_or_registered(&self, n: NodeId) -> Option<EventId> {
        self.node(n).and_then(|m| latest([m.ready, m.registered, m.created]))
    }

    /// The repair of node `n` a remediator started last, and what it has done since: the
    /// latest of its `RemediationStarted`, its drain's cordon and `NodeDrained`.
    pub fn repair(&self, n: NodeId) -> Option<EventId> {
        self.node(n)
            .and_then(|m| latest([m.remediation, m.cordoned, m.drained]))
    }

    /// The `TaintAdded` that put the taint `label` (`key:Effect`) on node `n`.
    pub fn taint(&self, n: NodeId, label: &str) -> Option<EventId> {
        let marks = self.node(n)?;
        marks.taints.iter().find(|(l, _)| l == label).map(|&(_, id)| id)
    }

    /// What the log recorded of pod `p`.
    pub fn pod(&self, p: PodId) -> PodMarks {
        self.pods.get(p).copied().unwrap_or_default()
    }

    /// What the log recorded of volume `v` on node `n`.
    pub fn volume(&self, v: &str, n: NodeId) -> VolumeMarks {
        self.volumes
            .get(v)
            .and_then(|on| on.iter().find(|(m, _)| *m == n))
            .map(|&(_, marks)| marks)
            .unwrap_or_default()
    }

    /// The last `VolumeDetached` of the volume `v`, from any node.
    pub fn volume_detached(&self, v: &str) -> Option<EventId> {
        latest(self.volumes.get(v)?.iter().map(|(_, m)| m.detached))
    }

    fn node_mut(&mut self, n: NodeId) -> &mut NodeMarks {
        if self.nodes.len() <= n {
            self.nodes.resize(n + 1, NodeMarks::default());
        }
        &mut self.nodes[n]
    }

    fn pod_mut(&mut self, p: PodId) -> &mut PodMarks {
        if self.pods.len() <= p {
            self.pods.resize(p + 1, PodMarks::default());
        }
        &mut self.pods[p]
    }

    fn volume_mut(&mut self, v: &str, n: NodeId) -> &mut VolumeMarks {
        if !self.volumes.contains_key(v) {
            self.volumes.insert(v.to_string(), Vec::new());
        }
        let on = self.volumes.get_mut(v).expect("inserted above");
        let i = match on.iter().position(|(m, _)| *m == n) {
            Some(i) => i,
            None => {
                on.push((n, VolumeMarks::default()));
                on.len() - 1
            }
        };
        &mut on[i].1
    }

    /// Remembers event `e`, recorded as `id`.
    fn note(&mut self, e: &Event, id: EventId) {
        use EventKind as K;
        match (e.kind, e.node, e.pod) {
            (K::ControllerManagerStopped, ..) => self.controller_manager_stopped = Some(id),
            (K::ControllerManagerStarted, ..) => self.controller_manager_started = Some(id),
            (K::ApiServerLatencyChanged, ..) => self.api_latency = Some(id),
            (K::FaultStarted | K::NodePoweredOff, Some(n), _) => self.node_mut(n).silenced = Some(id),
            (K::FaultEnded | K::NodeCreated, Some(n), _) => {
                let marks = self.node_mut(n);
                marks.silenced = None;
                marks.back = Some(id);
                if e.kind == K::NodeCreated {
                    marks.created = Some(id);
                }
            }
            (K::NodeUnknown | K::NodeNotReady | K::NodeReady, Some(n), _) => self.node_mut(n).ready = Some(id),
            (K::NodeCordoned, Some(n), _) => self.node_mut(n).cordoned = Some(id),
            (K::NodeDrained, Some(n), _) => self.node_mut(n).drained = Some(id),
            (K::RemediationStarted, Some(n), _) => self.node_mut(n).remediation = Some(id),
            (K::NodeRegistered, Some(n), _) => self.node_mut(n).registered = Some(id),
            (K::NodeDeleted, Some(n), _) => self.node_mut(n).deleted = Some(id),
            (K::TaintAdded, Some(n), _) => {
                let label = e.taint.clone().unwrap_or_default();
                let taints = &mut self.node_mut(n).taints;
                taints.retain(|(l, _)| *l != label);
                taints.push((label, id));
            }
            (K::TaintRemoved, Some(n), _) => {
                let label = e.taint.as_deref().unwrap_or_default();
                let marks = self.node_mut(n);
                marks.taints.retain(|(l, _)| l != label);
                marks.untainted = Some(id);
            }
            (K::VolumeDetachRequested | K::VolumeForceDetached | K::VolumeDetached | K::VolumeAttached, Some(n), _) => {
                let marks = self.volume_mut(e.volume.as_deref().unwrap_or_default(), n);
                let slot = match e.kind {
                    K::VolumeDetachRequested => &mut marks.detach_requested,
                    K::VolumeForceDetached => &mut marks.force_detached,
                    K::VolumeDetached => &mut marks.detached,
                    _ => &mut marks.attached,
                };
                *slot = Some(id);
            }
            (kind, node, Some(p)) => {
                if let (K::PodRemoved, Some(n)) = (kind, node) {
                    self.node_mut(n).pod_left = Some(id);
                }
                let marks = self.pod_mut(p);
                let slot = match kind {
                    K::PodCreated => &mut marks.created,
                    K::PodScheduled => &mut marks.scheduled,
                    K::PodReady => &mut marks.ready,
                    K::PodNotReady => &mut marks.not_ready,
                    K::PodEvictionScheduled => &mut marks.eviction_scheduled,
                    K::PodEvictionCancelled => {
                        marks.eviction_scheduled = None;
                        return;
                    }
                    K::PodDeletionRequested => &mut marks.deleting,
                    K::PodFailed => &mut marks.failed,
                    K::PodRemoved => &mut marks.removed,
                    K::VolumeMounted => &mut marks.mounted,
                    K::EndpointReady | K::EndpointNotReady | K::EndpointRemoved => &mut marks.endpoint,
                    K::PodTolerationsPatched => &mut marks.tolerations,
                    K::EvictionRefused => &mut marks.refused,
                    _ => return,
                };
                *slot = Some(id);
            }
            _ => {}
        }
    }
}

//! The timeline: what happened, when, and why.
//!
//! Every event carries a `cause`, a message naming the rule that fired and the values involved.
//! Explaining the cause is the product; the UI shows these messages in the reader's language.

use crate::cause::Cause;
use crate::time::Millis;
use serde::{Deserialize, Serialize};
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
    /// An operator deleted a Node object.
    NodeDeleted,
    /// An operator cordoned a node (`spec.unschedulable`).
    NodeCordoned,
    /// kube-controller-manager stopped: its controllers' memory is gone.
    ControllerManagerStopped,
    /// kube-controller-manager (a new leader) started its controllers.
    ControllerManagerStarted,
    /// The apiserver's latency changed.
    ApiServerLatencyChanged,
    /// An operator changed the tolerationSeconds of a pod's NoExecute tolerations.
    PodTolerationsPatched,
    /// A Service's EndpointSlice marks a pod's endpoint not ready.
    EndpointNotReady,
    /// A Service's EndpointSlice no longer lists a pod.
    EndpointRemoved,
    /// The last connected kube-proxy stopped sending new connections to a pod.
    TrafficStopped,
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
    /// A kubelet renewed its Lease (only with heartbeats recorded).
    LeaseRenewed,
    /// A kubelet patched its node status (only with heartbeats recorded).
    NodeStatusPatched,
}

impl EventKind {
    /// Whether this is a heartbeat, recorded only on request.
    pub fn is_heartbeat(self) -> bool {
        matches!(self, EventKind::LeaseRenewed | EventKind::NodeStatusPatched)
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

/// One event, with ids rather than names (see [`crate::Outcome`] for the named form).
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
    /// Why it happened.
    pub cause: Cause,
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
            cause,
        }
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
}

impl Log {
    /// Records `e` if it falls in the recorded window.
    pub fn push(&mut self, e: Event) {
        if e.at >= 0 && (self.heartbeats || !e.kind.is_heartbeat()) {
            self.events.push(e);
        }
    }

    /// Whether an event of this kind at this time would be kept; lets callers skip building
    /// causes that would be dropped.
    pub fn wants(&self, at: Millis, kind: EventKind) -> bool {
        at >= 0 && (self.heartbeats || !kind.is_heartbeat())
    }
}

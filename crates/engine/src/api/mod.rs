//! The apiserver's objects as the engine keeps them: nodes, leases, pods and their taints.
//!
//! Every write goes through [`Api`], which counts it and announces it to watchers after the
//! informer latency, the way a real apiserver feeds controllers through watches. Controllers read
//! what their informers show ([`Versioned::observed`]), never the freshest write, so a pass that
//! runs a few milliseconds after a heartbeat can still miss it.

use crate::time::Millis;
use std::collections::BTreeMap;
use std::fmt;
use std::rc::Rc;

pub mod client;
pub mod endpoints;
pub mod eviction;
mod taint;
pub mod volumes;
pub use taint::*;

/// Index of a node in [`Api::nodes`].
pub type NodeId = usize;
/// Index of a pod in [`Api::pods`].
pub type PodId = usize;

/// A condition's status.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CondStatus {
    /// `True`.
    True,
    /// `False`.
    False,
    /// `Unknown`.
    Unknown,
}

impl fmt::Display for CondStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            CondStatus::True => "True",
            CondStatus::False => "False",
            CondStatus::Unknown => "Unknown",
        })
    }
}

/// Why a condition has its status, as the `reason` field says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reason {
    /// Posted by a healthy kubelet.
    Kubelet,
    /// Set by the node lifecycle controller: "Kubelet stopped posting node status."
    NodeStatusUnknown,
    /// Set by the node lifecycle controller: "Kubelet never posted node status."
    NodeStatusNeverUpdated,
}

/// One node condition.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Condition {
    /// Status.
    pub status: CondStatus,
    /// `lastHeartbeatTime`, ms (kubelet clock).
    pub heartbeat: Millis,
    /// `lastTransitionTime`, ms.
    pub transition: Millis,
    /// `reason`.
    pub reason: Reason,
}

/// The conditions the node lifecycle controller looks at.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct NodeStatus {
    /// `Ready`.
    pub ready: Option<Condition>,
    /// `MemoryPressure`.
    pub memory_pressure: Option<Condition>,
    /// `DiskPressure`.
    pub disk_pressure: Option<Condition>,
    /// `PIDPressure`.
    pub pid_pressure: Option<Condition>,
    /// `NetworkUnavailable` (set by the network plugin or route controller, never by the kubelet
    /// here, and never marked Unknown by the node lifecycle controller).
    pub network_unavailable: Option<Condition>,
}

impl NodeStatus {
    /// The status a healthy kubelet posts at `now`, keeping transition times that did not change.
    pub fn healthy(now: Millis, previous: &NodeStatus) -> NodeStatus {
        Self::reported(now, previous, CondStatus::True)
    }

    /// The status a kubelet posts at `now` with Ready `ready` (False while its shutdown manager
    /// shuts the node down), keeping transition times that did not change.
    pub fn reported(now: Millis, previous: &NodeStatus, ready: CondStatus) -> NodeStatus {
        let cond = |prev: Option<Condition>, status: CondStatus| {
            let transition = match prev {
                Some(p) if p.status == status => p.transition,
                _ => now,
            };
            Some(Condition {
                status,
                heartbeat: now,
                transition,
                reason: Reason::Kubelet,
            })
        };
        NodeStatus {
            ready: cond(previous.ready, ready),
            memory_pressure: cond(previous.memory_pressure, CondStatus::False),
            disk_pressure: cond(previous.disk_pressure, CondStatus::False),
            pid_pressure: cond(previous.pid_pressure, CondStatus::False),
            network_unavailable: previous.network_unavailable,
        }
    }

    /// The Ready status, `None` when the node never posted one.
    pub fn ready_status(&self) -> Option<CondStatus> {
        self.ready.map(|c| c.status)
    }
}

/// A value as written to the apiserver, with the previous one kept for informers that have not
/// caught up yet. Two versions suffice: writes to one object are far further apart than the
/// informer latency.
#[derive(Debug, Clone, Copy)]
pub struct Versioned<T: Copy> {
    cur: T,
    cur_visible_at: Millis,
    prev: T,
}

impl<T: Copy> Versioned<T> {
    /// A value that every informer already shows.
    pub fn new(v: T) -> Self {
        Versioned {
            cur: v,
            cur_visible_at: Millis::MIN,
            prev: v,
        }
    }

    /// The newest written value (what a live GET returns).
    pub fn latest(&self) -> T {
        self.cur
    }

    /// What an informer shows at `now`.
    pub fn observed(&self, now: Millis) -> T {
        if now >= self.cur_visible_at {
            self.cur
        } else {
            self.prev
        }
    }

    /// What an informer shows at `now`, without copying it.
    pub fn observed_ref(&self, now: Millis) -> &T {
        if now >= self.cur_visible_at {
            &self.cur
        } else {
            &self.prev
        }
    }

    /// When informers show the newest write, ms.
    pub fn visible_at(&self) -> Millis {
        self.cur_visible_at
    }

    /// Whether an informer at `now` is behind the newest write.
    pub fn is_stale(&self, now: Millis) -> bool {
        now < self.cur_visible_at
    }

    /// Writes `v` at `now`, visible to informers from `visible_at`.
    pub fn write(&mut self, now: Millis, v: T, visible_at: Millis) {
        if now >= self.cur_visible_at {
            self.prev = self.cur;
        }
        self.cur = v;
        self.cur_visible_at = visible_at;
    }
}

/// A node object with its lease.
#[derive(Debug, Clone)]
pub struct Node {
    /// Name.
    pub name: String,
    /// The zone key the node lifecycle controller groups by (`region:\0:zone`).
    pub zone_key: String,
    /// Zone, as shown.
    pub zone: String,
    /// Labels.
    pub labels: BTreeMap<String, String>,
    /// `maxPods` of its kubelet.
    pub max_pods: u32,
    /// `creationTimestamp`, ms.
    pub created_at: Millis,
    /// Whether the object exists.
    pub exists: bool,
    /// `.status` conditions.
    pub status: Versioned<NodeStatus>,
    /// The Lease's `renewTime`, `None` when there is no Lease.
    pub lease: Versioned<Option<Millis>>,
    /// `.spec.taints`.
    pub taints: Vec<Taint>,
    /// `.spec.unschedulable` (cordon).
    pub unschedulable: bool,
    /// Pods bound to the node whose objects still exist.
    pub pods: Vec<PodId>,
}

impl Node {
    /// Whether the node has a taint with this key and effect.
    pub fn has_taint(&self, key: &str, effect: Effect) -> bool {
        self.taints.iter().any(|t| t.effect == effect && same_text(&t.key, key))
    }

    /// The NoExecute taints.
    pub fn no_execute_taints(&self) -> Vec<Taint> {
        self.taints
            .iter()
            .filter(|t| t.effect == Effect::NoExecute)
            .cloned()
            .collect()
    }
}

/// A pod object, plus whether its containers run.
#[derive(Debug, Clone)]
pub struct Pod {
    /// Name.
    pub name: String,
    /// Index of its workload in the scenario.
    pub workload: usize,
    /// StatefulSet ordinal.
    pub ordinal: Option<u32>,
    /// `.spec.nodeName`.
    pub node: Option<NodeId>,
    /// Tolerations after admission, shared by the pods of one template until one is patched.
    pub tolerations: Rc<Vec<Toleration>>,
    /// `terminationGracePeriodSeconds`.
    pub grace_seconds: i64,
    /// `creationTimestamp`, ms.
    pub created_at: Millis,
    /// The `Ready` condition: `None` until the kubelet first reports.
    pub ready: Option<bool>,
    /// When deletion was requested (`deletionTimestamp` minus the grace period), ms.
    pub deletion_requested_at: Option<Millis>,
    /// When the object was removed, ms.
    pub removed_at: Option<Millis>,
    /// Whether its containers are running on the node.
    pub running: bool,
    /// The pod this one replaces, if a controller created it after a deletion.
    pub replaces: Option<PodId>,
    /// Whether a DaemonSet owns it.
    pub daemon: bool,
    /// `status.reason`, such as `NodeLost` set by the legacy eviction path.
    pub status_reason: Option<&'static str>,
    /// Whether its phase is Failed (its containers were stopped for good, as graceful node
    /// shutdown does).
    pub failed: bool,
    /// When its containers last stopped running, ms.
    pub stopped_at: Option<Millis>,
}

impl Pod {
    /// Whether the object still exists.
    pub fn exists(&self) -> bool {
        self.removed_at.is_none()
    }

    /// Whether the pod counts as active for its controller (`IsPodActive`): not being deleted
    /// and not in a terminal phase.
    pub fn is_active(&self) -> bool {
        self.exists() && self.deletion_requested_at.is_none() && !self.failed
    }
}

/// A node's status and Lease objects after each of its kubelet's loop iterations, in time
/// order per kind: what an informer would have shown over a stretch of time.
#[derive(Debug, Clone, Default)]
pub struct WriteHistory {
    /// The node status object after each status-loop iteration, with the iteration's time.
    pub status: Vec<(Millis, Versioned<NodeStatus>)>,
    /// The Lease after each Lease-loop iteration, with the iteration's time.
    pub lease: Vec<(Millis, Versioned<Option<Millis>>)>,
}

/// Counts of API writes over the recorded part of a run.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Writes {
    /// Lease PUTs by kubelets.
    pub lease_updates: u64,
    /// Node status PATCHes by kubelets.
    pub node_status_patches: u64,
    /// Node status PUTs by the node lifecycle controller (Ready=Unknown).
    pub node_status_updates_by_controller: u64,
    /// Pod status writes (NotReady marking, Ready reports, DisruptionTarget conditions).
    pub pod_status_updates: u64,
    /// Node taint PATCHes.
    pub taint_patches: u64,
    /// Pod creations.
    pub pod_creates: u64,
    /// Pod bindings by the scheduler.
    pub pod_binds: u64,
    /// Pod DELETE requests (graceful and final).
    pub pod_deletes: u64,
    /// Node DELETEs by operators.
    pub node_deletes: u64,
}

/// A change that watchers are told about after the informer latency.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Watch {
    /// A node's condition statuses changed (not just heartbeat times).
    NodeConditions(NodeId),
    /// A node's taints changed.
    NodeTaints(NodeId),
    /// A pod was created.
    PodCreated(PodId),
    /// A pod was bound to a node.
    PodBound(PodId),
    /// A pod got its deletion timestamp.
    PodDeleting(PodId),
    /// A pod object was removed.
    PodRemoved(PodId),
    /// A pod's tolerations changed.
    PodTolerations(PodId),
    /// A pod's Ready condition or phase changed (sent only when some Service selects pods).
    PodStatus(PodId),
    /// A Service's EndpointSlice changed (by workload index).
    Slice(usize),
}

/// The apiserver: objects, write counts and what a step sent for later.
#[derive(Debug, Clone, Default)]
pub struct Api {
    /// Nodes by index.
    pub nodes: Vec<Node>,
    /// Pods by index; removed pods stay with `removed_at` set.
    pub pods: Vec<Pod>,
    /// Writes counted from time 0.
    pub writes: Writes,
    /// Informer latency, ms.
    pub watch_latency: Millis,
    /// API round trip, ms.
    pub api_latency: Millis,
    /// What this step sent that others receive later: notifications, held-back writes, nodes
    /// whose taints changed. `World::end_step` turns them into wake-ups.
    pub posts: Posts,
    /// Active pods (existing and not being deleted, `IsPodActive`) per workload, kept on every
    /// change so that a controller never counts by scanning.
    pub active_by_workload: Vec<u32>,
    /// Pods that stopped being active, in the order they did; the workload controllers drain it.
    pub became_inactive: Vec<PodId>,
    /// Pods whose objects were removed, in order; the workload controllers drain it.
    pub removed: Vec<PodId>,
    /// Nodes whose pods, taints, cordon or existence changed, in order; the scheduler drains it.
    pub scheduler_changes: Vec<NodeId>,
    /// Existing pods not bound to a node.
    pub unbound: std::collections::BTreeSet<PodId>,
    /// The controllers' clients and their rate limits.
    pub clients: client::Clients,
    /// Each Service's EndpointSlice (by workload index; empty for workloads without one).
    pub slices: Vec<endpoints::Slice>,
    /// Per Service, every pod whose endpoint a write changed, in order: readers keep their own
    /// place in it, so that they look only at what changed.
    pub slice_changes: Vec<Vec<PodId>>,
    /// Per Service, how many of its slice's endpoints are ready.
    pub slice_ready: Vec<usize>,
    /// Whether pod status changes are announced (some Service selects pods).
    pub watch_pod_status: bool,
    /// Every pod each workload ever created, in creation order.
    pub pods_by_workload: Vec<Vec<PodId>>,
    /// Persistent volumes.
    pub volumes: volumes::Volumes,
    /// Each workload's PodDisruptionBudget, if it has one.
    pub pdbs: Vec<Option<eviction::Pdb>>,
}

/// What one step sent that others receive later, in the order it was sent.
#[derive(Debug, Clone, Default)]
pub struct Posts {
    /// Writes that wait for their client's rate limiter, each applied at its time.
    pub held: Vec<Pending>,
    /// Watch notifications: (delivery time, change).
    pub watches: Vec<(Millis, Watch)>,
    /// Nodes whose taints changed (a dormant one must wake: it is no longer quiet).
    pub tainted: Vec<NodeId>,
}

/// A write a controller decided at one time whose request is sent later, when its client's rate
/// limiter lets it: the driver applies it then, recording the events that go with it.
#[derive(Debug, Clone, PartialEq)]
pub struct Pending {
    /// When the request is sent, ms.
    pub at: Millis,
    /// What it does.
    pub write: DeferredWrite,
}

/// The writes that can wait for a rate limiter.
#[derive(Debug, Clone, PartialEq)]
pub enum DeferredWrite {
    /// The node lifecycle controller marks a pod NotReady (`MarkPodsNotReady`).
    PodNotReady {
        /// The pod.
        pod: PodId,
        /// The event recorded if the write changes the pod.
        event: crate::timeline::Event,
    },
    /// A taint PATCH on a node, with the events recorded for the taints it adds and removes.
    Taints {
        /// The node.
        node: NodeId,
        /// Taints added.
        add: Vec<Taint>,
        /// Taints removed (key, effect).
        remove: Vec<(String, Effect)>,
        /// Events, in order, each recorded if its taint change happened (`TaintAdded` or
        /// `TaintRemoved` with the taint label).
        events: Vec<crate::timeline::Event>,
    },
    /// A graceful DELETE.
    PodDelete {
        /// The pod.
        pod: PodId,
        /// The event recorded if the pod was not already being deleted.
        event: crate::timeline::Event,
    },
}

impl DeferredWrite {
    /// This write with each of its events' causes saying that it was asked for at `asked` and
    /// went out at `sent`, held back by `who`'s client rate limit (`(qps, burst)`) behind its
    /// earlier requests: client-go's `Request` waits on the clientset's `flowcontrol` token
    /// bucket before it is sent.
    fn held_back(
        mut self,
        who: client::Controller,
        asked: Millis,
        sent: Millis,
        (qps, burst): (f64, u32),
    ) -> DeferredWrite {
        let wrap = |event: &mut crate::timeline::Event| {
            let why = std::mem::replace(&mut event.cause, crate::cause::Cause::none());
            event.cause = crate::cause::Cause::client_wait(why, who.client_name(), (asked, sent), (qps, burst));
        };
        match &mut self {
            DeferredWrite::PodNotReady { event, .. } | DeferredWrite::PodDelete { event, .. } => wrap(event),
            DeferredWrite::Taints { events, .. } => events.iter_mut().for_each(wrap),
        }
        self
    }
}

impl Api {
    /// Adds a node object; returns its index.
    pub fn add_node(&mut self, node: Node) -> NodeId {
        let id = self.nodes.len();
        self.nodes.push(node);
        id
    }

    /// Sends a write through `who`'s client: at once when its rate limiter has the tokens now,
    /// else queued for the driver to apply when the request goes out. `requests` counts the
    /// requests up to the write (a GET before a PATCH, the write itself), `then` those that follow
    /// it (its events), which wait their turn too. Returns whether it was applied now.
    pub fn issue(
        &mut self,
        who: client::Controller,
        now: Millis,
        (requests, then): (u32, u32),
        write: DeferredWrite,
        log: &mut crate::timeline::Log,
    ) -> bool {
        let at = self.clients.send(who, now, requests);
        self.clients.send(who, now, then);
        if at <= now {
            self.apply(now, write, log);
            true
        } else {
            let write = write.held_back(who, now, at, self.clients.limits());
            self.posts.held.push(Pending { at, write });
            false
        }
    }

    /// Performs a write at `now`, recording its events for what it changed.
    pub fn apply(&mut self, now: Millis, write: DeferredWrite, log: &mut crate::timeline::Log) {
        match write {
            DeferredWrite::PodNotReady { pod, mut event } => {
                if self.set_pod_ready(now, pod, false) {
                    event.at = now;
                    log.push(event);
                }
            }
            DeferredWrite::PodDelete { pod, mut event } => {
                if self.request_pod_deletion(now, pod) {
                    event.at = now;
                    log.push(event);
                }
            }
            DeferredWrite::Taints {
                node,
                add,
                remove,
                events,
            } => {
                let had: Vec<bool> = events
                    .iter()
                    .map(|e| {
                        let label = e.taint.as_deref().unwrap_or_default();
                        self.nodes[node].taints.iter().any(|t| t.label() == label)
                    })
                    .collect();
                let remove: Vec<(&str, Effect)> = remove.iter().map(|(k, e)| (k.as_str(), *e)).collect();
                self.swap_taints(now, node, &add, &remove);
                for (mut e, had) in events.into_iter().zip(had) {
                    let changed = match e.kind {
                        crate::timeline::EventKind::TaintRemoved => had,
                        _ => !had,
                    };
                    if changed {
                        e.at = now;
                        log.push(e);
                    }
                }
            }
        }
    }

    /// Says that a node appeared, went away or was cordoned, for the scheduler.
    pub fn node_changed(&mut self, n: NodeId) {
        self.scheduler_changes.push(n);
    }

    /// Counts a write made at `now` if it falls in the recorded window.
    pub fn count(&mut self, now: Millis, f: impl FnOnce(&mut Writes)) {
        if now >= 0 {
            f(&mut self.writes);
        }
    }

    /// Announces a change written at `now` to watchers, who see it after the API round trip and
    /// the informer latency.
    pub fn announce(&mut self, now: Millis, w: Watch) {
        self.notify(now, w);
    }

    fn notify(&mut self, now: Millis, w: Watch) {
        self.posts
            .watches
            .push((now + self.api_latency + self.watch_latency, w));
    }

    /// A kubelet's status PATCH at `now`.
    pub fn patch_node_status(&mut self, now: Millis, node: NodeId, status: NodeStatus) {
        let landed = now + self.api_latency;
        let visible = landed + self.watch_latency;
        let n = &mut self.nodes[node];
        let changed = conditions_differ(&n.status.latest(), &status);
        n.status.write(now, status, visible);
        self.count(now, |w| w.node_status_patches += 1);
        if changed {
            self.posts.watches.push((visible, Watch::NodeConditions(node)));
        }
    }

    /// The node lifecycle controller's status PUT at `now`.
    pub fn update_node_status_by_controller(&mut self, now: Millis, node: NodeId, status: NodeStatus) {
        let n = &mut self.nodes[node];
        let changed = conditions_differ(&n.status.latest(), &status);
        n.status.write(now, status, now + self.watch_latency);
        self.count(now, |w| w.node_status_updates_by_controller += 1);
        if changed {
            self.notify(now, Watch::NodeConditions(node));
        }
    }

    /// A kubelet's Lease PUT at `now`.
    pub fn renew_lease(&mut self, now: Millis, node: NodeId) {
        let landed = now + self.api_latency;
        let visible = landed + self.watch_latency;
        self.nodes[node].lease.write(now, Some(now), visible);
        self.count(now, |w| w.lease_updates += 1);
    }

    /// Adds and removes taints on a node in one PATCH; returns whether anything changed.
    pub fn swap_taints(&mut self, now: Millis, node: NodeId, add: &[Taint], remove: &[(&str, Effect)]) -> bool {
        let n = &mut self.nodes[node];
        let before = n.taints.len();
        n.taints
            .retain(|t| !remove.iter().any(|(k, e)| t.key == *k && t.effect == *e));
        let mut changed = n.taints.len() != before;
        for t in add {
            if !n.has_taint(&t.key, t.effect) {
                n.taints.push(t.clone());
                changed = true;
            }
        }
        if changed {
            self.posts.tainted.push(node);
            self.scheduler_changes.push(node);
            self.count(now, |w| w.taint_patches += 1);
            self.notify(now, Watch::NodeTaints(node));
        }
        changed
    }

    /// Creates a pod; returns its index.
    pub fn create_pod(&mut self, now: Millis, pod: Pod) -> PodId {
        let id = self.pods.len();
        let w = pod.workload;
        if self.active_by_workload.len() <= w {
            self.active_by_workload.resize(w + 1, 0);
        }
        if self.pods_by_workload.len() <= w {
            self.pods_by_workload.resize(w + 1, Vec::new());
        }
        self.pods_by_workload[w].push(id);
        if let Some(v) = self.volumes.of(w, pod.ordinal) {
            self.volumes.list[v].pods.push(id);
        }
        self.active_by_workload[w] += 1;
        self.unbound.insert(id);
        self.pods.push(pod);
        self.count(now, |w| w.pod_creates += 1);
        self.notify(now, Watch::PodCreated(id));
        id
    }

    /// Binds a pod to a node.
    pub fn bind_pod(&mut self, now: Millis, pod: PodId, node: NodeId) {
        self.pods[pod].node = Some(node);
        self.nodes[node].pods.push(pod);
        self.unbound.remove(&pod);
        self.scheduler_changes.push(node);
        self.count(now, |w| w.pod_binds += 1);
        self.notify(now, Watch::PodBound(pod));
    }

    /// Sets a pod's Ready condition; returns whether it changed.
    pub fn set_pod_ready(&mut self, now: Millis, pod: PodId, ready: bool) -> bool {
        let p = &mut self.pods[pod];
        if p.ready == Some(ready) {
            return false;
        }
        p.ready = Some(ready);
        self.count(now, |w| w.pod_status_updates += 1);
        if self.watch_pod_status {
            self.notify(now, Watch::PodStatus(pod));
        }
        true
    }

    /// The kubelet reports a pod's phase Failed with `reason` in one status write (its
    /// containers were stopped for good, so Ready is False too). A Failed pod is no longer
    /// active for its controller.
    pub fn fail_pod(&mut self, now: Millis, pod: PodId, reason: &'static str) -> bool {
        let p = &mut self.pods[pod];
        if p.failed || !p.exists() {
            return false;
        }
        let was_active = p.deletion_requested_at.is_none();
        p.failed = true;
        p.status_reason = Some(reason);
        if p.ready.is_some() {
            p.ready = Some(false);
        }
        let w = p.workload;
        if was_active {
            self.stopped_being_active(pod, w);
        }
        self.count(now, |w| w.pod_status_updates += 1);
        self.notify(now, Watch::PodStatus(pod));
        true
    }

    /// A pod's containers stop running at `now`.
    pub fn stop_pod(&mut self, now: Millis, pod: PodId) {
        let p = &mut self.pods[pod];
        if p.running {
            p.running = false;
            p.stopped_at = Some(now);
        }
    }

    /// A graceful DELETE: sets the deletion timestamp. Returns false if already deleting.
    pub fn request_pod_deletion(&mut self, now: Millis, pod: PodId) -> bool {
        let p = &mut self.pods[pod];
        if !p.exists() || p.deletion_requested_at.is_some() {
            return false;
        }
        p.deletion_requested_at = Some(now);
        let (w, failed) = (p.workload, p.failed);
        if !failed {
            self.stopped_being_active(pod, w);
        }
        self.count(now, |w| w.pod_deletes += 1);
        self.notify(now, Watch::PodDeleting(pod));
        true
    }

    /// Keeps the owner index when a pod stops being active (pods added by hand, as tests do,
    /// were never counted).
    fn stopped_being_active(&mut self, pod: PodId, workload: usize) {
        if let Some(c) = self.active_by_workload.get_mut(workload) {
            *c = c.saturating_sub(1);
        }
        self.became_inactive.push(pod);
    }

    /// Removes a pod object (the kubelet's final delete, or a force delete).
    pub fn remove_pod(&mut self, now: Millis, pod: PodId) -> bool {
        if !self.pods[pod].exists() {
            return false;
        }
        let p = &mut self.pods[pod];
        p.removed_at = Some(now);
        if p.running {
            p.running = false;
            p.stopped_at = Some(now);
        }
        let (was_active, workload, node) = (p.deletion_requested_at.is_none() && !p.failed, p.workload, p.node);
        if was_active {
            self.stopped_being_active(pod, workload);
        }
        self.removed.push(pod);
        self.unbound.remove(&pod);
        if let Some(n) = node {
            self.nodes[n].pods.retain(|&q| q != pod);
            self.scheduler_changes.push(n);
        }
        self.count(now, |w| w.pod_deletes += 1);
        self.notify(now, Watch::PodRemoved(pod));
        true
    }
}

/// String equality without a call into the C library: the keys compared in hot paths (taint
/// keys, zone keys) are short.
pub fn same_text(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.bytes().zip(b.bytes()).all(|(x, y)| x == y)
}

fn conditions_differ(a: &NodeStatus, b: &NodeStatus) -> bool {
    let s = |c: Option<Condition>| c.map(|c| c.status);
    s(a.ready) != s(b.ready)
        || s(a.memory_pressure) != s(b.memory_pressure)
        || s(a.disk_pressure) != s(b.disk_pressure)
        || s(a.pid_pressure) != s(b.pid_pressure)
        || s(a.network_unavailable) != s(b.network_unavailable)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versioned_hides_writes_until_visible() {
        let mut v = Versioned::new(1);
        v.write(100, 2, 110);
        assert_eq!(v.observed(105), 1);
        assert_eq!(v.observed(110), 2);
        assert_eq!(v.latest(), 2);
        v.write(200, 3, 210);
        assert_eq!(v.observed(205), 2);
    }
}

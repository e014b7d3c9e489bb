//! The taint eviction controller: deletes pods on nodes with NoExecute taints they do not
//! tolerate, or tolerate only for a while.
//!
//! Follows `pkg/controller/tainteviction/taint_eviction.go` (`handleNodeUpdate`,
//! `handlePodUpdate`, `processPodOnNode`) and `timed_workers.go`. Before 1.29 the same logic ran
//! inside the node lifecycle controller as `NoExecuteTaintManager`. The countdown starts when this
//! controller sees the taint, not at the taint's `timeAdded`, and a timer once set is never moved.

use crate::api::client::Controller;
use crate::api::{matching_tolerations, min_toleration_seconds, Api, DeferredWrite, NodeId, PodId, Taint};
use crate::api::{Toleration, TolerationSource};
use crate::cause::Cause;
use crate::sched::{ActionKey, Owner, Wake};
use crate::time::{Millis, SECOND};
use crate::timeline::{latest, Event, EventId, EventKind};
use crate::world::World;

/// A scheduled deletion.
#[derive(Debug, Clone, PartialEq)]
pub struct EvictionTimer {
    /// When it was set (controller time), ms.
    pub created_at: Millis,
    /// When it fires, ms.
    pub fire_at: Millis,
    /// Why, for the deletion event.
    pub cause: Cause,
    /// The wake-up that fires it, cancelled if the timer is dropped or replaced.
    key: ActionKey,
    /// The event the deletion follows: the timer being set, or, for a deletion at once, the
    /// taint (or the pod's tolerations) that called for it.
    pub after: Option<EventId>,
}

/// The controller's in-memory state.
#[derive(Debug, Clone, Default)]
pub struct TaintEvictionController {
    /// NoExecute taints per node as last observed.
    tainted: Vec<Vec<Taint>>,
    /// Pending timers per pod.
    pub timers: Vec<Option<EvictionTimer>>,
    /// The controller's name in this version, for causes.
    pub name: &'static str,
    /// Whether deletions first patch a DisruptionTarget condition (PodDisruptionConditions).
    pub disruption_condition: bool,
}

/// Where a toleration came from; one that admission added names the kube-apiserver flag that
/// set its seconds.
fn describe(t: &Toleration) -> Cause {
    match t.source {
        TolerationSource::Spec => Cause::new("cause.part.tol_spec"),
        TolerationSource::DefaultTolerationSeconds => {
            let flag = if t.key == crate::api::TAINT_NOT_READY {
                "--default-not-ready-toleration-seconds"
            } else {
                "--default-unreachable-toleration-seconds"
            };
            Cause::new("cause.part.tol_admission").text("flag", flag)
        }
        TolerationSource::DaemonSet => Cause::new("cause.part.tol_daemonset"),
    }
}

impl TaintEvictionController {
    /// A controller with nothing observed.
    pub fn new(name: &'static str, disruption_condition: bool) -> Self {
        TaintEvictionController {
            name,
            disruption_condition,
            ..Default::default()
        }
    }

    /// Forgets every timer and observation, as a restart does (the old process's wake-ups died
    /// with it).
    pub fn restart(&mut self) {
        let (name, dc) = (self.name, self.disruption_condition);
        *self = TaintEvictionController::new(name, dc);
    }

    fn grow(&mut self, api: &Api) {
        if self.tainted.len() < api.nodes.len() {
            self.tainted.resize(api.nodes.len(), Vec::new());
        }
        if self.timers.len() < api.pods.len() {
            self.timers.resize(api.pods.len(), None);
        }
    }

    /// `handleNodeUpdate`: refresh the node's taints and re-decide for every pod on it.
    pub fn handle_node_update(&mut self, w: &mut World, n: NodeId) {
        self.grow(&w.api);
        let api = &w.api;
        if !api.nodes[n].exists {
            // A deleted node is forgotten; timers already set keep running (upstream returns early).
            self.tainted[n].clear();
            return;
        }
        let taints = api.nodes[n].no_execute_taints();
        if taints == self.tainted[n] {
            return;
        }
        self.tainted[n] = taints.clone();
        for p in api.nodes[n].pods.clone() {
            if taints.is_empty() {
                self.cancel(w, p, n, "cause.part.no_taint");
            } else {
                self.process_pod_on_node(w, p, n, &taints);
            }
        }
    }

    /// `handlePodUpdate`: a pod was bound, changed or removed.
    pub fn handle_pod_update(&mut self, w: &mut World, p: PodId) {
        self.grow(&w.api);
        let pod = &w.api.pods[p];
        let Some(n) = pod.node else { return };
        if !pod.exists() {
            self.drop_timer(w, p);
            return;
        }
        let taints = self.tainted[n].clone();
        if taints.is_empty() {
            return;
        }
        self.process_pod_on_node(w, p, n, &taints);
    }

    /// Forgets pod `p`'s timer, if any, and cancels its wake-up.
    fn drop_timer(&mut self, w: &mut World, p: PodId) -> Option<EvictionTimer> {
        let t = self.timers[p].take()?;
        w.timers.cancel(t.key);
        Some(t)
    }

    fn cancel(&mut self, w: &mut World, p: PodId, n: NodeId, why: &'static str) {
        let now = w.now;
        if let Some(t) = self.drop_timer(w, p) {
            let log = &mut w.log;
            // The taint's removal, or the pod's tolerations changed to tolerate it for ever, or
            // the node's taints changed to ones it tolerates for ever; at least the plan it ends.
            let after = match why {
                "cause.part.no_taint" => log.index.node(n).and_then(|m| m.untainted),
                _ => {
                    let marks = log.index.node(n);
                    let taints = marks.map(|m| latest(m.taints.iter().map(|&(_, id)| Some(id))));
                    latest([
                        log.index.pod(p).tolerations,
                        taints.flatten(),
                        marks.and_then(|m| m.untainted),
                    ])
                }
            };
            let after = after.or(log.index.pod(p).eviction_scheduled);
            log.push(
                Event::new(
                    now,
                    EventKind::PodEvictionCancelled,
                    Cause::new("cause.te.cancelled")
                        .text("controller", self.name)
                        .time("at", t.fire_at)
                        .sub("why", Cause::new(why)),
                )
                .node(n)
                .pod(p)
                .after(after),
            );
        }
    }

    fn process_pod_on_node(&mut self, w: &mut World, p: PodId, n: NodeId, taints: &[Taint]) {
        let now = w.now;
        let pod = &w.api.pods[p];
        if !pod.exists() || pod.deletion_requested_at.is_some() {
            return;
        }
        let taint_list = taints.iter().map(Taint::label).collect::<Vec<_>>().join(", ");
        let Some(used) = matching_tolerations(taints, &pod.tolerations) else {
            // Some taint is not tolerated at all: delete now, replacing any planned deletion.
            let untolerated = taints
                .iter()
                .find(|t| !pod.tolerations.iter().any(|tol| crate::api::tolerates(tol, t)))
                .map(Taint::label)
                .unwrap_or_default();
            let cause = Cause::new("cause.te.untolerated")
                .text("controller", self.name)
                .text("taint", untolerated);
            self.drop_timer(w, p);
            self.schedule(w, p, n, (now, cause));
            return;
        };
        let used_tols: Vec<&Toleration> = used.iter().map(|&i| &pod.tolerations[i]).collect();
        match min_toleration_seconds(&used_tols) {
            None => self.cancel(w, p, n, "cause.part.tolerates_forever"),
            Some(seconds) => {
                if let Some(existing) = &self.timers[p] {
                    // A timer once set is never moved, earlier or later (upstream keeps it unless it
                    // was created at this very instant).
                    if existing.created_at != now {
                        return;
                    }
                }
                let fire_at = now + seconds * SECOND;
                let binding = used_tols
                    .iter()
                    .find(|t| t.toleration_seconds == Some(seconds) || seconds == 0)
                    .map_or(Cause::new("cause.part.tol_spec"), |t| describe(t));
                let key = if seconds == 0 {
                    "cause.te.at_once"
                } else {
                    "cause.te.evicted"
                };
                let cause = Cause::new(key)
                    .text("controller", self.name)
                    .text("taints", &taint_list)
                    .time("at", now)
                    .text("seconds", seconds)
                    .sub("binding", binding);
                self.drop_timer(w, p);
                self.schedule(w, p, n, (fire_at, cause));
            }
        }
    }

    /// Sets pod `p`'s timer to delete it at `fire_at` for `cause`.
    fn schedule(&mut self, w: &mut World, p: PodId, n: NodeId, (fire_at, cause): (Millis, Cause)) {
        let (now, log) = (w.now, &mut w.log);
        // Seen because of the newest of the node's NoExecute taints, a patch of the pod's
        // tolerations, the controller's (re)start or the pod's binding, whichever came last.
        let taints = self.tainted[n].iter().map(|t| log.index.taint(n, &t.label()));
        // A pod bound to a node that carries the taint already is seen when it is bound.
        let marks = log.index.pod(p);
        let others = [marks.tolerations, log.index.controller_manager_started, marks.scheduled];
        let mut after = latest(taints.chain(others));
        if fire_at > now && log.wants(now, EventKind::PodEvictionScheduled) {
            let scheduled = log.push(
                Event::new(
                    now,
                    EventKind::PodEvictionScheduled,
                    Cause::new("cause.te.planned")
                        .text("controller", self.name)
                        .time("at", fire_at)
                        .sub("why", cause.clone()),
                )
                .node(n)
                .pod(p)
                .after(after),
            );
            after = scheduled.or(after);
        }
        let key = w.wake_keyed(Owner::ControllerManager, fire_at.max(now), Wake::Evict { pod: p });
        self.timers[p] = Some(EvictionTimer {
            created_at: now,
            fire_at,
            cause,
            after,
            key,
        });
    }

    /// A timer fired: delete the pod gracefully. A timer replaced since was cancelled, so one
    /// that fires is the pod's current timer, if it still has one.
    pub fn fire(&mut self, w: &mut World, p: PodId) {
        let World { now, api, log, .. } = w;
        let now = *now;
        self.grow(api);
        let Some(t) = self.timers[p].take() else {
            return;
        };
        debug_assert_eq!(t.fire_at.max(now), now, "a replaced eviction timer fired");
        let pod = &api.pods[p];
        if !pod.exists() || pod.deletion_requested_at.is_some() {
            return;
        }
        // A GET, then a status PATCH adding DisruptionTarget=True (DeletionByTaintManager), the
        // DELETE and its event: requests of the controller's client, which may hold the DELETE.
        let mut requests = 1;
        if self.disruption_condition {
            api.count(now, |w| w.pod_status_updates += 1);
            requests += 2;
        }
        let grace = api.pods[p].grace_seconds;
        let cause = Cause::new("cause.delete").sub("why", t.cause).text("grace", grace);
        let mut event = Event::new(now, EventKind::PodDeletionRequested, cause)
            .pod(p)
            .after(t.after);
        event.node = api.pods[p].node;
        api.issue(
            Controller::TaintEviction,
            now,
            (requests, 1),
            DeferredWrite::PodDelete { pod: p, event },
            log,
        );
    }
}

//! The drain policy every drain of the model follows: `kubectl drain`, Cluster API's and the
//! managed services' repair drains, and Karpenter's forceful and graceful terminations.
//!
//! A drain cordons the node, then takes each of its pods off (DaemonSet pods are left, as
//! `--ignore-daemonsets` and every controller's drain leave them) in one of two ways: through the
//! eviction subresource, which a PodDisruptionBudget may refuse with a 429, or with a DELETE that
//! bypasses the budgets. It waits for the pods being deleted, except those its stuck-terminating
//! rule gives up on, and looks again after its retry delay. [`DrainPolicy`] holds those four
//! choices; each drain names its own values beside its upstream rules.

use crate::api::eviction::{Eviction, Granted};
use crate::api::{NodeId, PodId};
use crate::cause::Cause;
use crate::control_plane::node_lifecycle::NodeLifecycleController;
use crate::time::{Millis, SECOND};
use crate::timeline::{Event, EventKind};
use crate::world::World;

/// How a drain takes a pod off its node.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Removal {
    /// `POST …/eviction`: the pod's own grace, its PodDisruptionBudget honoured.
    Evict,
    /// `DELETE` with this grace, s: the budgets bypassed.
    Delete {
        /// The grace given, s.
        grace: i64,
    },
}

/// When a drain stops waiting for a pod that is being deleted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stuck {
    /// Never: it waits for every pod to go.
    Never,
    /// Karpenter's `IsStuckTerminating`: the pod's deletionTimestamp (its deletion plus its
    /// grace) is more than this old, ms.
    PastDeadline(Millis),
    /// Cluster API's `shouldSkipPod`: the pod was deleted more than this long ago, counted in
    /// whole seconds, ms.
    DeletedFor(Millis),
}

/// One drain's policy.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DrainPolicy {
    /// Eviction or deletion.
    pub removal: Removal,
    /// When it gives up waiting for a pod being deleted.
    pub stuck: Stuck,
    /// How long it waits before it looks again (or retries a refused eviction), ms.
    pub retry: Millis,
}

/// `EvictErrorRetryDelay`: `kubectl drain` retries a refused eviction after this, ms.
pub const EVICT_ERROR_RETRY_DELAY: Millis = 5 * SECOND;

/// `kubectl drain` (`staging/src/k8s.io/kubectl/pkg/drain`): each pod evicted in its own
/// goroutine, budgets honoured, a 429 retried after `EvictErrorRetryDelay`; it waits for every
/// pod.
pub const KUBECTL_DRAIN: DrainPolicy = DrainPolicy {
    removal: Removal::Evict,
    stuck: Stuck::Never,
    retry: EVICT_ERROR_RETRY_DELAY,
};

/// What one pass over a node's pods found.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Pass {
    /// Some pod is still waited for (being deleted and not stuck, or its eviction refused).
    pub waiting: bool,
    /// When the last pod waited for counts as stuck, if the policy gives up on stuck pods, ms.
    pub last_stuck: Option<Millis>,
}

impl DrainPolicy {
    /// When a pod deleted at `deleted` with `grace` seconds counts as stuck: it is from just
    /// after this instant. None: never (or not by this clock).
    pub fn stuck_at(&self, deleted: Millis, grace: i64) -> Option<Millis> {
        match self.stuck {
            Stuck::PastDeadline(after) => Some(deleted + grace * SECOND + after),
            Stuck::Never | Stuck::DeletedFor(_) => None,
        }
    }

    /// Whether pod `p`, being deleted, is stuck at `now`: the drain no longer waits for it.
    pub fn is_stuck(&self, w: &World, p: PodId) -> bool {
        let pod = &w.api.pods[p];
        let Some(deleted) = pod.deletion_requested_at else {
            return false;
        };
        match self.stuck {
            Stuck::Never => false,
            Stuck::PastDeadline(_) => self.stuck_at(deleted, pod.grace_seconds).is_some_and(|s| s < w.now),
            Stuck::DeletedFor(skip) => deleted_longer_than(w.now - deleted, skip),
        }
    }

    /// Takes pod `p` off its node as the policy says; a deletion is granted as an eviction
    /// that ignores the budget would be.
    pub fn remove(&self, w: &mut World, p: PodId) -> Eviction {
        match self.removal {
            Removal::Evict => w.api.evict(w.now, p),
            Removal::Delete { .. } => {
                w.api.request_pod_deletion(w.now, p);
                Eviction::Granted(Granted::IgnoresBudget)
            }
        }
    }

    /// One pass over node `n`'s pods: each pod not being deleted yet is taken off (`removed`
    /// records each one granted), and the pass sees which pods it still waits for.
    pub fn pass(&self, w: &mut World, n: NodeId, mut removed: impl FnMut(&mut World, PodId)) -> Pass {
        let now = w.now;
        let mut pass = Pass::default();
        for p in w.api.nodes[n].pods.clone() {
            let pod = &w.api.pods[p];
            if !pod.exists() || pod.daemon {
                continue;
            }
            let stuck_at = match pod.deletion_requested_at {
                Some(d) => {
                    if self.is_stuck(w, p) {
                        continue;
                    }
                    self.stuck_at(d, pod.grace_seconds)
                }
                None => {
                    let grace = match self.removal {
                        Removal::Delete { grace } => grace,
                        Removal::Evict => pod.grace_seconds,
                    };
                    if let Eviction::Granted(_) = self.remove(w, p) {
                        removed(w, p);
                    }
                    self.stuck_at(now, grace)
                }
            };
            pass.waiting = true;
            if let Some(s) = stuck_at {
                pass.last_stuck = Some(pass.last_stuck.map_or(s, |l| l.max(s)));
            }
        }
        pass
    }
}

/// Cluster API's `shouldSkipPod` clock: `int(time.Since(deletionTimestamp).Seconds()) > skip`
/// (whole seconds), for a pod deleted `deleted_for` ago, ms.
pub fn deleted_longer_than(deleted_for: Millis, skip: Millis) -> bool {
    deleted_for / SECOND > skip / SECOND
}

/// The drain's cordon: the node becomes unschedulable (recorded with `cause`, after the event
/// that started the drain, if any), and the node lifecycle controller's NoSchedule pass sees
/// it at once.
pub fn cordon(
    w: &mut World,
    nlc: &mut NodeLifecycleController,
    n: NodeId,
    (cause, after): (Cause, Option<crate::timeline::EventId>),
) {
    if w.api.nodes[n].unschedulable {
        return;
    }
    w.api.nodes[n].unschedulable = true;
    w.api.node_changed(n);
    w.log
        .push(Event::new(w.now, EventKind::NodeCordoned, cause).node(n).after(after));
    nlc.do_no_schedule_tainting_pass(w, n);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::{Node, NodeStatus, Pod, Versioned};
    use crate::time::MINUTE;

    /// A world with one node and, on it, a DaemonSet pod, a pod deleted at `deleted` (30 s of
    /// grace) and a running pod, at time `now`.
    fn world(deleted: Millis, now: Millis) -> (World, [PodId; 3]) {
        let mut w = World::default();
        let n = w.api.add_node(Node {
            name: "node-1".to_string(),
            zone_key: String::new(),
            zone: String::new(),
            labels: Default::default(),
            max_pods: 110,
            created_at: 0,
            exists: true,
            status: Versioned::new(NodeStatus::healthy(0, &NodeStatus::default())),
            lease: Versioned::new(None),
            taints: Vec::new(),
            unschedulable: false,
            pods: Vec::new(),
        });
        let pod = |w: &mut World, daemon: bool, deletion: Option<Millis>| {
            let p = w.api.create_pod(
                0,
                Pod {
                    name: format!("pod{}", w.api.pods.len()),
                    workload: 0,
                    ordinal: None,
                    node: None,
                    tolerations: std::rc::Rc::new(Vec::new()),
                    grace_seconds: 30,
                    created_at: 0,
                    ready: Some(true),
                    deletion_requested_at: None,
                    removed_at: None,
                    running: true,
                    replaces: None,
                    daemon,
                    status_reason: None,
                    failed: false,
                    stopped_at: None,
                },
            );
            w.api.bind_pod(0, p, n);
            if let Some(d) = deletion {
                w.api.request_pod_deletion(d, p);
            }
            p
        };
        let pods = [
            pod(&mut w, true, None),
            pod(&mut w, false, Some(deleted)),
            pod(&mut w, false, None),
        ];
        w.now = now;
        (w, pods)
    }

    const GRACEFUL: DrainPolicy = DrainPolicy {
        removal: Removal::Evict,
        stuck: Stuck::PastDeadline(MINUTE),
        retry: SECOND,
    };

    #[test]
    fn a_pod_is_stuck_a_minute_after_its_deletion_timestamp() {
        let deadline = 10 * SECOND + 30 * SECOND + MINUTE;
        let (w, [_, deleting, _]) = world(10 * SECOND, deadline);
        assert!(!GRACEFUL.is_stuck(&w, deleting), "exactly a minute old is not more");
        let (w, [_, deleting, running]) = world(10 * SECOND, deadline + 1);
        assert!(GRACEFUL.is_stuck(&w, deleting));
        assert!(
            !GRACEFUL.is_stuck(&w, running),
            "a pod not being deleted is never stuck"
        );
    }

    #[test]
    fn cluster_apis_clock_counts_whole_seconds_from_the_deletion() {
        assert!(deleted_longer_than(2 * SECOND, SECOND));
        assert!(!deleted_longer_than(1_999, SECOND));
        let policy = DrainPolicy {
            stuck: Stuck::DeletedFor(SECOND),
            ..GRACEFUL
        };
        assert_eq!(policy.stuck_at(0, 30), None, "no deadline to wait for");
    }

    #[test]
    fn a_pass_takes_the_other_pods_off_and_waits_for_those_not_stuck() {
        let (mut w, [daemon, deleting, running]) = world(0, 5 * SECOND);
        let mut removed = Vec::new();
        let pass = GRACEFUL.pass(&mut w, 0, |_, p| removed.push(p));
        assert_eq!(
            removed,
            [running],
            "the DaemonSet pod stays, the deleting one is not evicted again"
        );
        assert!(pass.waiting);
        assert_eq!(pass.last_stuck, Some(5 * SECOND + 30 * SECOND + MINUTE));
        assert!(w.api.pods[daemon].deletion_requested_at.is_none());
        assert_eq!(w.api.pods[deleting].deletion_requested_at, Some(0));

        let forceful = DrainPolicy {
            removal: Removal::Delete { grace: 1 },
            ..GRACEFUL
        };
        let (mut w, [_, _, running]) = world(0, 2 * MINUTE);
        let pass = forceful.pass(&mut w, 0, |_, _| {});
        assert_eq!(w.api.pods[running].deletion_requested_at, Some(2 * MINUTE));
        assert_eq!(
            pass.last_stuck,
            Some(2 * MINUTE + SECOND + MINUTE),
            "the stuck pod is left; the one deleted now with 1 s of grace is waited for"
        );
    }
}

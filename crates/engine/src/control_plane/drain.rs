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

/// The drain's cordon: the node becomes unschedulable (recorded with `cause`), and the node
/// lifecycle controller's NoSchedule pass sees it at once.
pub fn cordon(w: &mut World, nlc: &mut NodeLifecycleController, n: NodeId, cause: Cause) {
    if w.api.nodes[n].unschedulable {
        return;
    }
    w.api.nodes[n].unschedulable = true;
    w.api.node_changed(n);
    w.log.push(Event::new(w.now, EventKind::NodeCordoned, cause).node(n));
    nlc.do_no_schedule_tainting_pass(w, n);
}

//! `kubectl drain`, the operator's action, and the disruption controller's place in the loop.
//!
//! Drain cordons the node, lists its pods (DaemonSet pods are skipped, as with
//! `--ignore-daemonsets`), and evicts every other pod in its own goroutine, as
//! [`KUBECTL_DRAIN`] says. A 429 from the eviction subresource makes that goroutine sleep
//! (`EvictErrorRetryDelay`; the budget's 429 has no Retry-After, and drain would ignore it
//! anyway), GET the pod again and retry; a pod that is gone counts as done.

use super::{Simulation, Wake};
use crate::api::eviction::{refusal_cause, Eviction, Granted, EVICTION_REFUSED_MESSAGE};
use crate::api::{NodeId, PodId, Watch};
use crate::cause::Cause;
use crate::control_plane::drain::{cordon, KUBECTL_DRAIN};
use crate::timeline::{Event, EventKind};

impl Simulation {
    pub(super) fn drain(&mut self, n: NodeId) {
        let now = self.w.now;
        cordon(&mut self.w, &mut self.nlc, n, (Cause::new("cause.drain.cordon"), None));
        // The cordon PATCH and the pod LIST each take a round trip before the evictions go out.
        let at = now + 2 * self.w.api.api_latency;
        for p in self.w.api.nodes[n].pods.clone() {
            if !self.w.api.pods[p].daemon {
                self.push(at, Wake::DrainEvict { pod: p, attempt: 1 });
            }
        }
    }

    /// One `POST …/eviction` of a drain's goroutine for pod `p`.
    pub(super) fn drain_evict(&mut self, p: PodId, attempt: u32) {
        let now = self.w.now;
        // `evictPods` re-GETs the pod before a retry: NotFound means done.
        if !self.w.api.pods[p].exists() {
            return;
        }
        let n = self.w.api.pods[p].node;
        let was_deleting = self.w.api.pods[p].deletion_requested_at.is_some();
        let pdb = self.w.api.pdb_of(p).map(|b| (b.name.clone(), b.status.clone()));
        let pdb_name = pdb.as_ref().map(|b| b.0.clone()).unwrap_or_default();
        // The drain's cordon, or this goroutine's last 429 that it slept on.
        let cordoned = n.and_then(|n| self.w.log.index.node(n)).and_then(|m| m.cordoned);
        let after = self.w.log.index.pod(p).refused.or(cordoned);
        match KUBECTL_DRAIN.remove(&mut self.w, p) {
            Eviction::Granted(g) => {
                if was_deleting {
                    return;
                }
                let why = match g {
                    Granted::IgnoresBudget => Cause::new("cause.part.evict_ignores_pdb"),
                    Granted::NoBudget => Cause::new("cause.part.evict_no_pdb"),
                    Granted::UnhealthyAlwaysAllow => Cause::new("cause.part.evict_always_allow").text("pdb", &pdb_name),
                    Granted::UnhealthyBudgetIntact => {
                        let s = pdb.map(|b| b.1).unwrap_or_default();
                        Cause::new("cause.part.evict_budget_intact")
                            .text("pdb", &pdb_name)
                            .text("current", s.current_healthy)
                            .text("desired", s.desired_healthy)
                    }
                    Granted::Decremented(allowed) => Cause::new("cause.part.evict_decrement")
                        .text("pdb", &pdb_name)
                        .text("allowed", allowed)
                        .text("left", allowed - 1),
                };
                let alive = n.is_some_and(|n| self.kubelets[n].reachable());
                let then = if alive {
                    "cause.part.drain_alive"
                } else {
                    "cause.part.drain_dead"
                };
                let cause = Cause::new("cause.drain.evict")
                    .sub("why", why)
                    .text("grace", self.w.api.pods[p].grace_seconds)
                    .text("attempt", attempt)
                    .sub("then", Cause::new(then));
                let mut e = Event::new(now, EventKind::PodDeletionRequested, cause)
                    .pod(p)
                    .after(after);
                e.node = n;
                self.w.log.push(e);
            }
            Eviction::TooManyRequests { desired, current } => {
                let cause = Cause::new("cause.drain.refused")
                    .text("message", EVICTION_REFUSED_MESSAGE)
                    .text("detail", refusal_cause(&pdb_name, desired, current))
                    .text("attempt", attempt)
                    .time("retry", KUBECTL_DRAIN.retry);
                let mut e = Event::new(now, EventKind::EvictionRefused, cause).pod(p).after(after);
                e.node = n;
                self.w.log.push(e);
                // The 429 comes back, drain sleeps, GETs the pod and POSTs again.
                let at = now + KUBECTL_DRAIN.retry + 2 * self.w.api.api_latency;
                self.push(
                    at,
                    Wake::DrainEvict {
                        pod: p,
                        attempt: attempt + 1,
                    },
                );
            }
        }
    }

    /// A pod of a workload with a PodDisruptionBudget changed: the disruption controller queues
    /// the budget and writes its status after the round trip.
    pub(super) fn disruption_pod_changed(&mut self, w: Watch) {
        let (Watch::PodCreated(p)
        | Watch::PodBound(p)
        | Watch::PodStatus(p)
        | Watch::PodDeleting(p)
        | Watch::PodRemoved(p)) = w
        else {
            return;
        };
        let workload = self.w.api.pods[p].workload;
        if !self.kcm_up || self.w.api.pdbs.get(workload).is_none_or(Option::is_none) {
            return;
        }
        if self.disruption.enqueue(workload) {
            self.push_kcm(self.w.now + self.w.api.api_latency, Wake::DisruptionSync { workload });
        }
    }

    /// Every budget gets a sync (the start of a kube-controller-manager process).
    pub(super) fn disruption_resync_all(&mut self) {
        self.disruption.restart();
        for workload in 0..self.w.api.pdbs.len() {
            if self.w.api.pdbs[workload].is_some() && self.disruption.enqueue(workload) {
                self.push_kcm(self.w.now, Wake::DisruptionSync { workload });
            }
        }
    }

    pub(super) fn disruption_sync(&mut self, w: usize) {
        let spec = &self.cfg.workloads[w];
        self.disruption.sync(self.w.now, w, spec, &mut self.w.api, true);
    }
}

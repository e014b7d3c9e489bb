//! The kubelet's pod lifecycle on its node: starting pods and terminating them.

use super::{Owner, Simulation, Wake, CONTAINER_STOP};
use crate::api::PodId;
use crate::cause::Cause;
use crate::time::SECOND;
use crate::timeline::{latest, Event, EventKind};

impl Simulation {
    /// The kubelet notices a pod bound to its node and starts it, if it can (its pod worker's
    /// `SyncPod`; Ready follows once the readiness probe passes, after `podStartup`).
    pub(super) fn kubelet_start_pod(&mut self, p: PodId) {
        let Some(n) = self.w.api.pods[p].node else { return };
        let kl = &self.kubelets[n];
        if !kl.reachable()
            || !self.w.api.nodes[n].exists
            || !self.w.api.pods[p].is_active()
            || self.w.api.pods[p].running
        {
            return;
        }
        if kl.shutting_down {
            return self.shutdown_refuse_pod(p);
        }
        let pod = &self.w.api.pods[p];
        if self.w.api.volumes.of(pod.workload, pod.ordinal).is_some() {
            // The containers start once the volume is attached here and mounted.
            return self.await_volume(p, n);
        }
        let at = self.w.now + self.cfg.simulation.pod_startup;
        self.push_for(Owner::Kubelet(n), at, Wake::PodStarted { pod: p });
    }

    /// The kubelet notices a deletion and stops the pod's containers, if it can (`SyncTerminatingPod`,
    /// within the grace period), then removes the object with its final DELETE.
    pub(super) fn kubelet_terminate_pod(&mut self, p: PodId) {
        let Some(n) = self.w.api.pods[p].node else { return };
        if !self.kubelets[n].reachable() || !self.w.api.nodes[n].exists || !self.w.api.pods[p].exists() {
            return;
        }
        let stop = if self.w.api.pods[p].running {
            CONTAINER_STOP.min(self.w.api.pods[p].grace_seconds * SECOND)
        } else {
            0
        };
        self.push(
            self.w.now + stop + self.w.api.api_latency,
            Wake::PodTerminated { pod: p },
        );
    }

    pub(super) fn pod_started(&mut self, p: PodId) {
        let now = self.w.now;
        let Some(n) = self.w.api.pods[p].node else { return };
        let kl = &self.kubelets[n];
        if !kl.reachable() || !self.w.api.pods[p].is_active() {
            return;
        }
        let was_running = self.w.api.pods[p].running;
        self.w.api.pods[p].running = true;
        if self.w.api.set_pod_ready(now, p, true) && self.w.log.wants(now, EventKind::PodReady) {
            let pod = &self.w.api.pods[p];
            let replaces = pod.replaces.map_or_else(Cause::none, |r| {
                Cause::new("cause.part.replaces").text("pod", &self.w.api.pods[r].name)
            });
            let cause = if was_running {
                Cause::new("cause.pod_ready.back")
            } else {
                Cause::new("cause.pod_ready.started")
                    .time("startup", self.cfg.simulation.pod_startup)
                    .sub("replaces", replaces)
            };
            // Started once bound (and its volume mounted) with its kubelet up, whichever came
            // last; Ready again once its kubelet is back.
            let (m, back) = (self.w.log.index.pod(p), self.w.log.index.node(n).and_then(|m| m.back));
            let after = if was_running {
                back
            } else {
                latest([m.scheduled, m.mounted, back])
            };
            self.w
                .log
                .push(Event::new(now, EventKind::PodReady, cause).node(n).pod(p).after(after));
        }
    }
}

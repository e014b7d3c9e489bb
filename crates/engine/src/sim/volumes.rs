//! The driver's side of volumes: the attach-detach controller's 100 ms reconciler, the storage
//! driver's operations, and the kubelet's wait for its pod's volume.

use super::{Loop, Owner, Simulation, Wake};
use crate::api::{NodeId, PodId};
use crate::cause::Cause;
use crate::control_plane::attach_detach::RECONCILER_LOOP_PERIOD;
use crate::kubelet::volume_manager::{on_tick, retry, INITIAL_BACKOFF, MAX_BACKOFF};
use crate::time::Millis;
use crate::timeline::{latest, Event, EventKind};

impl Simulation {
    /// One pass of the attach-detach reconciler; it keeps ticking while some volume waits.
    pub(super) fn adc_tick(&mut self) {
        let now = self.w.now;
        self.adc.reconcile(&mut self.w);
        if self.adc.busy.is_empty() {
            self.w.timers.sleep(Loop::Reconciler, now + RECONCILER_LOOP_PERIOD);
        } else {
            self.push_kcm(now + RECONCILER_LOOP_PERIOD, Wake::AdcTick);
        }
    }

    /// Queues the sleeping reconciler tick again once a volume waits, on its 100 ms grid (as the
    /// tainting tick does).
    pub(super) fn wake_adc(&mut self) {
        if !self.kcm_up || !self.w.timers.asleep(Loop::Reconciler) || self.adc.busy.is_empty() {
            return;
        }
        let w = &mut self.w;
        w.timers
            .resume(Loop::Reconciler, RECONCILER_LOOP_PERIOD, w.now, w.pushed_at);
    }

    /// A pod that uses a volume changed: its volume is looked at again.
    pub(super) fn volume_pod_changed(&mut self, p: PodId) {
        let pod = &self.w.api.pods[p];
        if let Some(v) = self.w.api.volumes.of(pod.workload, pod.ordinal) {
            self.adc.touch(v);
        }
    }

    /// A node's health or taints changed: the volumes attached there are looked at again.
    pub(super) fn volume_node_changed(&mut self, n: NodeId) {
        if self.w.api.volumes.any() {
            self.adc.touch_node(n, &self.w.api);
        }
    }

    /// The kubelet admits a pod with a volume: it verifies the attach at once, then backs off.
    pub(super) fn await_volume(&mut self, p: PodId, n: NodeId) {
        let at = on_tick(self.w.now);
        let wake = Wake::VolumeVerify {
            pod: p,
            waited: 0,
            gap: INITIAL_BACKOFF,
        };
        self.push_for(Owner::Kubelet(n), at, wake);
    }

    /// `VerifyControllerAttachedVolume`: mounts if the pod's node's `status.volumesAttached`
    /// lists the volume (attached, and no detach under way), retries after the backoff otherwise.
    pub(super) fn verify_volume(&mut self, p: PodId, (waited, gap): (Millis, Millis)) {
        let Some(n) = self.w.api.pods[p].node else { return };
        let kl = &self.kubelets[n];
        if !kl.reachable() || !self.w.api.pods[p].is_active() {
            return;
        }
        let pod = &self.w.api.pods[p];
        let Some(v) = self.w.api.volumes.of(pod.workload, pod.ordinal) else {
            return;
        };
        if self.w.api.volumes.list[v].reported_attached(n) {
            let at = self.w.now + self.cfg.simulation.mount_duration;
            let checked = self.w.now;
            let wake = Wake::VolumeMountDone {
                pod: p,
                checked,
                waited,
            };
            self.push_for(Owner::Kubelet(n), at, wake);
        } else {
            let (at, next) = retry(self.w.now, gap);
            let wake = Wake::VolumeVerify {
                pod: p,
                waited: gap,
                gap: next,
            };
            self.push_for(Owner::Kubelet(n), at, wake);
        }
    }

    /// The mount finished: the volume is in use on the node, and the containers start.
    pub(super) fn volume_mounted(&mut self, p: PodId, (checked, waited): (Millis, Millis)) {
        let Some(n) = self.w.api.pods[p].node else { return };
        if !self.w.api.pods[p].is_active() {
            return;
        }
        let pod = &self.w.api.pods[p];
        let Some(v) = self.w.api.volumes.of(pod.workload, pod.ordinal) else {
            return;
        };
        self.w.api.volumes.list[v].in_use_by.insert(n);
        let took = self.cfg.simulation.mount_duration;
        let name = self.w.api.volumes.list[v].name.clone();
        // Mounted once the pod was bound, its kubelet up and the volume attached there,
        // whichever came last; a check that had failed first found the attach late.
        let (m, attached) = (self.w.log.index.pod(p), self.w.log.index.volume(&name, n).attached);
        let back = self.w.log.index.node(n).and_then(|m| m.back);
        let after = latest([m.scheduled, back, attached]);
        let attached_at = attached.map(|id| self.w.log.events[id].at);
        // A detach of the volume from this node that ended after the pod was bound had been
        // under way when it came: its checks failed until the volume was attached again.
        let scheduled_at = m.scheduled.map(|id| self.w.log.events[id].at);
        let detached = self.w.log.index.volume(&name, n).detached;
        let again = detached.is_some_and(|id| scheduled_at.is_some_and(|s| self.w.log.events[id].at >= s));
        let key = if again {
            "cause.kubelet.mounted_reattached"
        } else {
            "cause.kubelet.mounted_late"
        };
        let cause = match attached_at {
            Some(at) if waited > 0 && checked > at => Cause::new(key)
                .time("checked", checked)
                .time("late", checked - at)
                .time("attached", at)
                .time("waited", waited)
                .time("initial", INITIAL_BACKOFF)
                .time("max", MAX_BACKOFF)
                .time("took", took),
            _ => Cause::new("cause.kubelet.mounted").time("took", took),
        };
        let mut e = Event::new(self.w.now, EventKind::VolumeMounted, cause)
            .node(n)
            .pod(p)
            .after(after);
        e.volume = Some(name);
        self.w.log.push(e);
        let at = self.w.now + self.cfg.simulation.pod_startup;
        self.push_for(Owner::Kubelet(n), at, Wake::PodStarted { pod: p });
    }

    /// The kubelet removed a pod it ran: it unmounted the pod's volume, and no longer reports it
    /// in use unless another of its pods still uses it.
    pub(super) fn unmount(&mut self, p: PodId) {
        let pod = &self.w.api.pods[p];
        let (Some(n), Some(v)) = (pod.node, self.w.api.volumes.of(pod.workload, pod.ordinal)) else {
            return;
        };
        let still = self.w.api.volumes.list[v]
            .pods
            .iter()
            .any(|&q| q != p && self.w.api.pods[q].exists() && self.w.api.pods[q].node == Some(n));
        if !still {
            self.w.api.volumes.list[v].in_use_by.remove(&n);
            self.adc.touch(v);
        }
    }
}

//! Self Node Remediation's steps in the driver ([`crate::control_plane::remediation::snr`]):
//! the NoSchedule taint and `timeAssumedRebooted` at `Fencing-Started`, the agent's reboot of a
//! node that still runs, and at `timeAssumedRebooted` + 1 s the strategy: the out-of-service
//! taint (polled every 5 s until no pod on the node is terminating and no volume is attached
//! there, then removed) or the pods' forced deletion.

use super::Simulation;
use crate::api::{Effect, NodeId, Taint};
use crate::cause::Cause;
use crate::control_plane::podgc::TAINT_OUT_OF_SERVICE;
use crate::control_plane::remediation::snr::{AGENT_NOTICE, OUT_OF_SERVICE_POLL, TAINT_SNR};
use crate::scenario::{ActionKind, SnrStrategy};
use crate::sched::{Owner, RepairStep, Wake};
use crate::time::{Millis, SECOND};
use crate::timeline::{Event, EventKind};

impl Simulation {
    fn fence_at(&mut self, remediator: usize, node: NodeId, at: Millis, step: RepairStep) {
        let wake = Wake::RepairStep { remediator, node, step };
        self.w.wake_keyed(Owner::Remediator, at, wake);
    }

    /// `Fencing-Started`: the NoSchedule taint, `timeAssumedRebooted`, and the agent's reboot of
    /// a node whose machine still runs (a hung kubelet, a partition).
    pub(super) fn fence(&mut self, index: usize, n: NodeId, reboot: Millis, strategy: SnrStrategy) {
        let now = self.w.now;
        let assumed = now + reboot;
        let taint = Taint::new(TAINT_SNR, Effect::NoSchedule, now);
        if self.w.api.swap_taints(now, n, std::slice::from_ref(&taint), &[]) {
            let cause = Cause::new("cause.remediation.snr_taint")
                .text("taint", TAINT_SNR)
                .time("assumed", assumed);
            let e = Event::new(now, EventKind::TaintAdded, cause)
                .node(n)
                .taint(taint.label());
            self.w.log.push(e);
        }
        self.fencing.insert((index, n), strategy);
        if !self.kubelets[n].fault.is_some_and(ActionKind::powers_off) {
            self.fence_at(index, n, now + AGENT_NOTICE, RepairStep::SelfReboot);
        }
        self.fence_at(index, n, assumed + SECOND, RepairStep::AssumedRebooted);
    }

    /// `Reboot-Completed`: unless the node is Ready again, the strategy frees its pods.
    pub(super) fn assumed_rebooted(&mut self, index: usize, n: NodeId) {
        let now = self.w.now;
        let Some(strategy) = self.fencing.get(&(index, n)).copied() else {
            return;
        };
        let node = &self.w.api.nodes[n];
        let ready = node.status.observed(now).ready_status() == Some(crate::api::CondStatus::True);
        if !node.exists || ready {
            self.fencing.remove(&(index, n));
            return;
        }
        match strategy {
            SnrStrategy::ResourceDeletion | SnrStrategy::Automatic => {
                self.fencing.remove(&(index, n));
                for p in self.w.api.nodes[n].pods.clone() {
                    if self.w.api.remove_pod(now, p) {
                        let cause = Cause::new("cause.remediation.snr_deleted");
                        let mut e = Event::new(now, EventKind::PodRemoved, cause).pod(p);
                        e.node = Some(n);
                        self.w.log.push(e);
                    }
                }
            }
            SnrStrategy::OutOfServiceTaint => {
                let taint = Taint::new(TAINT_OUT_OF_SERVICE, Effect::NoExecute, now);
                if self.w.api.swap_taints(now, n, std::slice::from_ref(&taint), &[]) {
                    let gc = Cause::new(if self.cfg.out_of_service_volume_detach {
                        "cause.part.oos_gc"
                    } else {
                        "cause.part.oos_no_gc"
                    });
                    let cause = Cause::new("cause.remediation.snr_oos")
                        .text("taint", TAINT_OUT_OF_SERVICE)
                        .sub("gc", gc);
                    let e = Event::new(now, EventKind::TaintAdded, cause)
                        .node(n)
                        .taint(taint.label());
                    self.w.log.push(e);
                }
                self.fence_at(index, n, now + OUT_OF_SERVICE_POLL, RepairStep::OutOfServicePoll);
            }
        }
    }

    /// `isResourceDeletionCompleted`: no pod on the node terminating and no volume attached
    /// there; then the out-of-service taint goes. Else again in 5 s.
    pub(super) fn out_of_service_poll(&mut self, index: usize, n: NodeId) {
        let now = self.w.now;
        let api = &self.w.api;
        let terminating = api.nodes[n]
            .pods
            .iter()
            .any(|&p| api.pods[p].exists() && api.pods[p].deletion_requested_at.is_some());
        let attached = api.volumes.list.iter().any(|v| v.attached_to.contains(&n));
        if api.nodes[n].exists && (terminating || attached) {
            return self.fence_at(index, n, now + OUT_OF_SERVICE_POLL, RepairStep::OutOfServicePoll);
        }
        self.fencing.remove(&(index, n));
        let label = format!("{TAINT_OUT_OF_SERVICE}:{}", Effect::NoExecute);
        if self
            .w
            .api
            .swap_taints(now, n, &[], &[(TAINT_OUT_OF_SERVICE, Effect::NoExecute)])
        {
            let cause = Cause::new("cause.remediation.snr_oos_removed").text("taint", TAINT_OUT_OF_SERVICE);
            let after = self.w.log.index.taint(n, &label);
            let e = Event::new(now, EventKind::TaintRemoved, cause).node(n).taint(label);
            self.w.log.push(e.after(after));
        }
    }
}

//! Karpenter's termination of a repaired node in the driver
//! ([`crate::control_plane::remediation::karpenter`]): the `karpenter.sh/disrupted` taint, the
//! forceful drain (every pod deleted with 1 s of grace; a pod stuck terminating for a minute is
//! left), the instance terminated and polled every 5 s until gone, the Node's finalizer removed.
//! The replacement node is launched when the NodeClaim is deleted: the model launches one per
//! repaired node (Karpenter provisions for the pods left pending).

use super::Simulation;
use crate::api::{Effect, NodeId, Taint};
use crate::cause::Cause;
use crate::control_plane::remediation::karpenter::{
    DRAIN_REQUEUE, INSTANCE_REQUEUE, STUCK_TERMINATING, TAINT_DISRUPTED,
};
use crate::sched::{Owner, RepairStep, Wake};
use crate::time::{Millis, SECOND};
use crate::timeline::{Event, EventKind};

/// The first tick of a `period` grid started at `from` that is after `t`.
fn next_tick(from: Millis, period: Millis, t: Millis) -> Millis {
    from + ((t - from) / period + 1) * period
}

impl Simulation {
    fn karpenter_at(&mut self, remediator: usize, node: NodeId, at: Millis, step: RepairStep) {
        let wake = Wake::RepairStep { remediator, node, step };
        self.w.wake_keyed(Owner::Remediator, at, wake);
    }

    /// The NodeClaim is deleted with its termination time now: the replacement is launched, the
    /// node tainted, the drain begins.
    pub(super) fn karpenter_terminate(&mut self, index: usize, n: NodeId) {
        self.karpenter_delete_nodeclaim(index, n);
        self.drain_started.insert((index, n), self.w.now);
        self.karpenter_at(index, n, self.w.now, RepairStep::TerminationDrain);
    }

    /// The NodeClaim's deletion: Karpenter provisions for the pods it leaves (the model launches
    /// the node's spare) and the termination taints the node.
    pub(super) fn karpenter_delete_nodeclaim(&mut self, index: usize, n: NodeId) {
        let now = self.w.now;
        if let Some(s) = self.spares.remove(&n) {
            let boot = self.boot_duration();
            self.create_replacement(index, n, s, now + boot);
        }
        let taint = Taint::new(TAINT_DISRUPTED, Effect::NoSchedule, now);
        if self.w.api.swap_taints(now, n, std::slice::from_ref(&taint), &[]) {
            let cause = Cause::new("cause.remediation.karpenter_taint").text("taint", TAINT_DISRUPTED);
            let e = Event::new(now, EventKind::TaintAdded, cause)
                .node(n)
                .taint(taint.label());
            self.w.log.push(e);
        }
    }

    /// One drain pass: pods not yet deleting are deleted (grace 1 s, budgets bypassed); the
    /// drain is over once every pod left is stuck terminating (deletionTimestamp over a minute
    /// old). Then the instance is terminated.
    pub(super) fn karpenter_drain(&mut self, index: usize, n: NodeId) {
        let now = self.w.now;
        let started = self.drain_started.get(&(index, n)).copied().unwrap_or(now);
        let mut last_stuck: Option<Millis> = None;
        if self.w.api.nodes[n].exists {
            for p in self.w.api.nodes[n].pods.clone() {
                let pod = &self.w.api.pods[p];
                if !pod.exists() || pod.daemon {
                    continue;
                }
                let stuck = match pod.deletion_requested_at {
                    Some(d) => d + pod.grace_seconds * SECOND + STUCK_TERMINATING,
                    None => {
                        self.w.api.request_pod_deletion(now, p);
                        let cause = Cause::new("cause.remediation.karpenter_delete");
                        let mut e = Event::new(now, EventKind::PodDeletionRequested, cause).pod(p);
                        e.node = Some(n);
                        self.w.log.push(e);
                        now + SECOND + STUCK_TERMINATING
                    }
                };
                if stuck >= now {
                    last_stuck = Some(last_stuck.map_or(stuck, |l| l.max(stuck)));
                }
            }
        }
        if let Some(t) = last_stuck {
            let at = next_tick(started, DRAIN_REQUEUE, t);
            return self.karpenter_at(index, n, at, RepairStep::TerminationDrain);
        }
        self.drain_started.remove(&(index, n));
        self.karpenter_delete_instance(index, n);
    }

    /// `cloudProvider.Delete`: the instance is terminated (`instanceTerminationDuration`) and
    /// polled every 5 s until it is gone.
    pub(super) fn karpenter_delete_instance(&mut self, index: usize, n: NodeId) {
        let now = self.w.now;
        let e = self
            .cfg
            .cloud
            .as_ref()
            .map_or(30 * SECOND, |c| c.instance_termination_duration);
        self.power_off_machine(n, Some(now + e));
        let gone = self.instance_gone_at(n).unwrap_or(now + e);
        let at = if gone <= now {
            now
        } else {
            next_tick(now, INSTANCE_REQUEUE, gone - 1)
        };
        self.karpenter_at(index, n, at, RepairStep::InstancePoll);
    }

    /// When the provider reports node `n`'s instance gone, if it will.
    pub(super) fn instance_gone_at(&self, n: NodeId) -> Option<Millis> {
        self.ccm.as_ref().and_then(|c| c.instances[n].gone_from)
    }

    /// `cloudProvider.Delete` says the instance is gone: the Node's finalizer goes.
    pub(super) fn karpenter_instance_gone(&mut self, index: usize, n: NodeId) {
        if self.w.api.nodes[n].exists {
            let cause = Cause::new("cause.remediation.karpenter_node_deleted").sub("gc", self.orphan_gc());
            let after = self.w.log.index.node(n).and_then(|m| m.silenced);
            self.delete_node_with(n, cause, after);
        }
        self.karpenter_finished(index, n);
    }

    pub(super) fn karpenter_finished(&mut self, index: usize, n: NodeId) {
        self.drain_started.remove(&(index, n));
        if let Some(r) = self.remediators.iter_mut().find(|r| r.index == index) {
            r.finished(n, true, None);
        }
        if let Some(k) = self.remediators.iter().position(|r| r.index == index) {
            self.recheck_blocked_of(k);
        }
    }
}

//! Karpenter's interruption handling and NodeClaim garbage collection in the driver
//! ([`crate::control_plane::remediation::karpenter`]).
//!
//! Interruption handling (karpenter-provider-aws `pkg/controllers/interruption`, with
//! `--interruption-queue` set): EC2 sends a spot interruption warning at the start of its notice
//! and a state-change message when an instance stops or terminates; `actionForMessage` answers
//! each with `CordonAndDrain`, which deletes the NodeClaim. Its deletion launches a replacement
//! (Karpenter provisions for the pods it leaves) and starts the graceful termination of
//! `pkg/controllers/node/termination`: the `karpenter.sh/disrupted` taint, the drain through the
//! eviction API (budgets honoured, each pod's own grace, no termination deadline; a pod whose
//! deletionTimestamp is more than a minute old is stuck and no longer drained), the wait for the
//! volumes to detach (those of stuck pods ignored), both retried every second, then
//! `cloudProvider.Delete` and the Node's finalizer once the instance is gone. At every step, a
//! Node that is not Ready and whose instance the provider no longer finds loses its finalizer at
//! once (the termination's shortcut).
//!
//! NodeClaim garbage collection (`pkg/controllers/nodeclaim/garbagecollection`): every 2 minutes
//! from Karpenter's start, a registered NodeClaim whose instance the provider no longer lists and
//! whose Node is not Ready is deleted, and with it the Node (the same shortcut).

use super::Simulation;
use crate::api::eviction::Eviction;
use crate::api::{CondStatus, NodeId, PodId};
use crate::cause::Cause;
use crate::control_plane::remediation::karpenter::{DRAIN_REQUEUE, NODECLAIM_GC_PERIOD, STUCK_TERMINATING};
use crate::scenario::{ActionKind, ActionSpec, Provider, Remediator};
use crate::sched::{Owner, RepairStep, Wake};
use crate::time::{Millis, SECOND};
use crate::timeline::{Event, EventKind};

impl Simulation {
    fn interruption_at(&mut self, remediator: usize, node: NodeId, at: Millis, step: RepairStep) {
        let wake = Wake::RepairStep { remediator, node, step };
        self.w.wake_keyed(Owner::Remediator, at, wake);
    }

    /// Karpenter's remediator with its interruption queue read, on AWS: its index and the
    /// message latency.
    fn interruption_queue(&self) -> Option<(usize, Millis)> {
        if self.cfg.cloud.as_ref().map(|c| c.provider) != Some(Provider::Aws) {
            return None;
        }
        self.remediators.iter().find_map(|r| match r.spec {
            Remediator::KarpenterNodeRepair {
                interruption_queue: true,
                interruption_latency,
                ..
            } => Some((r.index, interruption_latency)),
            _ => None,
        })
    }

    /// An instance fault on node `n`: EC2 sends its message (a spot interruption warning at the
    /// notice's start, a state change for a stop or a termination), which Karpenter receives
    /// after the message latency.
    pub(super) fn interruption_sent(&mut self, a: &ActionSpec, n: NodeId) {
        let Some((index, latency)) = self.interruption_queue() else {
            return;
        };
        let now = self.w.now;
        if a.action == ActionKind::SpotInterruption {
            // The warning is where the node's trouble starts for Karpenter; the machine runs on.
            let cause = Cause::new("cause.fault.spot_warning")
                .text("action", format!("{:?}", a.action))
                .time("notice", a.notice)
                .time("reclaim", now + a.notice);
            self.w.log.push(Event::new(now, EventKind::FaultStarted, cause).node(n));
        }
        self.interruptions.insert(n, (a.action, now));
        self.interruption_at(index, n, now + latency, RepairStep::InterruptionMessage);
    }

    /// The message comes in: `CordonAndDrain` deletes the NodeClaim.
    pub(super) fn interruption_message(&mut self, index: usize, n: NodeId) {
        let now = self.w.now;
        let Some((action, sent)) = self.interruptions.get(&n).copied() else {
            return;
        };
        let message = match action {
            ActionKind::SpotInterruption => "SpotInterruptionKind",
            ActionKind::InstanceStopped => "InstanceStoppedKind",
            _ => "InstanceTerminatedKind",
        };
        let reclaim = self
            .cfg
            .actions
            .iter()
            .find(|a| a.action == ActionKind::SpotInterruption && a.node == Some(n) && a.at == sent)
            .map(|a| a.at + a.notice);
        let notice = match reclaim {
            Some(at) if at > now => Cause::new("cause.part.karpenter_notice")
                .time("reclaim", at)
                .time("left", at - now),
            _ => Cause::new("cause.part.karpenter_machine_down"),
        };
        let cause = Cause::new("cause.remediation.karpenter_interruption")
            .text("message", message)
            .time("sent", sent)
            .time("latency", now - sent)
            .sub("notice", notice);
        let after = self.w.log.index.silenced(n);
        let Some(r) = self.remediators.iter_mut().find(|r| r.index == index) else {
            return;
        };
        if !r.interrupted(&mut self.w, n, cause, after) {
            return;
        }
        self.karpenter_delete_nodeclaim(index, n);
        self.interruption_at(index, n, now, RepairStep::InterruptionDrain);
    }

    /// Whether pod `p`'s deletionTimestamp (its deletion plus its grace) is more than a minute
    /// old (`IsStuckTerminating`).
    fn stuck_terminating(&self, p: PodId) -> bool {
        let pod = &self.w.api.pods[p];
        pod.deletion_requested_at
            .is_some_and(|d| d + pod.grace_seconds * SECOND + STUCK_TERMINATING < self.w.now)
    }

    /// One pass of the graceful drain: pods not deleting yet are evicted (a budget may refuse);
    /// the drain waits for every pod that is not stuck terminating. Then the volume wait.
    pub(super) fn interruption_drain(&mut self, index: usize, n: NodeId) {
        if self.termination_shortcut(index, n) {
            return;
        }
        let now = self.w.now;
        let mut waiting = false;
        for p in self.w.api.nodes[n].pods.clone() {
            let pod = &self.w.api.pods[p];
            if !pod.exists() || pod.daemon {
                continue;
            }
            if pod.deletion_requested_at.is_some() {
                waiting |= !self.stuck_terminating(p);
                continue;
            }
            waiting = true;
            if let Eviction::Granted(_) = self.w.api.evict(now, p) {
                let cause = Cause::new("cause.remediation.drain_evict")
                    .text("remediator", "Karpenter")
                    .text("grace", self.w.api.pods[p].grace_seconds);
                let mut e = Event::new(now, EventKind::PodDeletionRequested, cause).pod(p);
                e.node = Some(n);
                self.w.log.push(e);
            }
        }
        // Not drained: again in a second; drained: the `Drained` condition's patch requeues a
        // second before the volumes are looked at.
        let step = if waiting {
            RepairStep::InterruptionDrain
        } else {
            RepairStep::InterruptionVolumes
        };
        self.interruption_at(index, n, now + DRAIN_REQUEUE, step);
    }

    /// The wait for the node's volumes to detach, those of pods stuck terminating ignored; then
    /// the instance is terminated.
    pub(super) fn interruption_volumes(&mut self, index: usize, n: NodeId) {
        if self.termination_shortcut(index, n) {
            return;
        }
        let stuck = |p: &PodId| self.w.api.pods[*p].node == Some(n) && self.stuck_terminating(*p);
        let waiting = self
            .w
            .api
            .volumes
            .list
            .iter()
            .any(|v| v.attached_to.contains(&n) && !v.pods.iter().any(stuck));
        // The `VolumesDetached` condition's patch requeues a second before the instance goes.
        let step = if waiting {
            RepairStep::InterruptionVolumes
        } else {
            RepairStep::InterruptionTerminate
        };
        self.interruption_at(index, n, self.w.now + DRAIN_REQUEUE, step);
    }

    /// `EnsureTerminated`: the instance is terminated and polled every 5 s.
    pub(super) fn interruption_terminate(&mut self, index: usize, n: NodeId) {
        if !self.termination_shortcut(index, n) {
            self.karpenter_delete_instance(index, n);
        }
    }

    /// The termination's early ends: the Node is gone already (the cloud controller deleted
    /// it), or it is not Ready and the provider no longer finds its instance, so its finalizer
    /// goes at once. Returns whether the termination is over.
    fn termination_shortcut(&mut self, index: usize, n: NodeId) -> bool {
        let now = self.w.now;
        if !self.w.api.nodes[n].exists {
            self.karpenter_finished(index, n);
            return true;
        }
        let ready = self.w.api.nodes[n].status.observed(now).ready_status() == Some(CondStatus::True);
        let Some(gone) = self.instance_gone_at(n).filter(|&g| g <= now && !ready) else {
            return false;
        };
        let cause = Cause::new("cause.remediation.karpenter_node_gone")
            .time("gone", gone)
            .sub("gc", self.orphan_gc());
        let after = self.w.log.index.silenced(n);
        self.delete_node_with(n, cause, after);
        self.karpenter_finished(index, n);
        true
    }

    /// Karpenter's NodeClaim garbage collection starts with Karpenter.
    pub(super) fn start_nodeclaim_gc(&mut self) {
        if self.ccm.is_none() {
            return;
        }
        let karpenter = self
            .remediators
            .iter()
            .find(|r| matches!(r.spec, Remediator::KarpenterNodeRepair { .. }))
            .map(|r| r.index);
        if let Some(remediator) = karpenter {
            let at = self.start + NODECLAIM_GC_PERIOD;
            self.push_for(Owner::Remediator, at, Wake::NodeClaimGc { remediator });
        }
    }

    /// A garbage collection pass: every registered node not being terminated whose instance is
    /// gone and whose Ready is not True loses its NodeClaim and its Node.
    pub(super) fn nodeclaim_gc(&mut self, index: usize) {
        let now = self.w.now;
        let Some(k) = self.remediators.iter().position(|r| r.index == index) else {
            return;
        };
        for n in 0..self.w.api.nodes.len() {
            let node = &self.w.api.nodes[n];
            if !node.exists
                || self.remediators[k].repairing.contains(&n)
                || node.status.observed(now).ready_status() == Some(CondStatus::True)
            {
                continue;
            }
            let Some(gone) = self.instance_gone_at(n).filter(|&g| g <= now) else {
                continue;
            };
            if let Some(s) = self.spares.remove(&n) {
                let boot = self.boot_duration();
                self.create_replacement(index, n, s, now + boot);
            }
            let cause = Cause::new("cause.remediation.karpenter_gc")
                .time("period", NODECLAIM_GC_PERIOD)
                .time("gone", gone)
                .sub("gc", self.orphan_gc());
            let after = self.w.log.index.silenced(n);
            self.delete_node_with(n, cause, after);
            self.remediators[k].finished(n, true, None);
        }
        self.push_for(
            Owner::Remediator,
            now + NODECLAIM_GC_PERIOD,
            Wake::NodeClaimGc { remediator: index },
        );
    }
}

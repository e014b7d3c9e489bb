//! Karpenter's interruption handling (karpenter-provider-aws `pkg/controllers/interruption`, with
//! `--interruption-queue` set): EC2 sends a spot interruption warning at the start of its notice
//! and a state-change message when an instance stops or terminates; `actionForMessage` answers
//! each with `CordonAndDrain`, which deletes the NodeClaim. Its deletion launches a replacement
//! (Karpenter provisions for the pods it leaves) and starts the graceful termination of
//! `pkg/controllers/node/termination`: the `karpenter.sh/disrupted` taint, the drain through the
//! eviction API ([`GRACEFUL_DRAIN`]: budgets honoured, each pod's own grace, no termination
//! deadline; a pod stuck terminating is no longer drained), the wait for the volumes to detach
//! (those of stuck pods ignored), both retried every second, then `cloudProvider.Delete` and the
//! Node's finalizer once the instance is gone. At every step, a Node that is not Ready and whose
//! instance the provider no longer finds loses its finalizer at once (the termination's
//! shortcut).

use super::super::controller::{Env, Remediators, Step};
use super::{DRAIN_REQUEUE, GRACEFUL_DRAIN, TAINT_DISRUPTED};
use crate::api::{CondStatus, NodeId, PodId};
use crate::cause::Cause;
use crate::control_plane::remediation::repair::{drain_evict_cause, kubelet_gone};
use crate::scenario::{ActionKind, Provider, Remediator};
use crate::time::Millis;
use crate::timeline::{latest, Event, EventKind};
use crate::world::{MachineRequest, World};

impl Remediators {
    /// Karpenter's remediator with its interruption queue read, on AWS: its index and the
    /// message latency.
    fn interruption_queue(&self) -> Option<(usize, Millis)> {
        if self.settings.provider != Some(Provider::Aws) {
            return None;
        }
        self.list.iter().find_map(|r| match r.spec {
            Remediator::KarpenterNodeRepair {
                interruption_queue: true,
                interruption_latency,
                ..
            } => Some((r.index, interruption_latency)),
            _ => None,
        })
    }

    /// An instance fault (`action`, with its spot `notice`, ms) on node `n`: EC2 sends its
    /// message (a spot interruption warning at the notice's start, a state change for a stop or
    /// a termination), which Karpenter receives after the message latency.
    pub fn instance_event(&mut self, w: &mut World, action: ActionKind, notice: Millis, n: NodeId) {
        let Some((index, latency)) = self.interruption_queue() else {
            return;
        };
        let now = w.now;
        if action == ActionKind::SpotInterruption {
            // The warning is where the node's trouble starts for Karpenter; the machine runs on.
            let cause = Cause::new("cause.fault.spot_warning")
                .text("action", format!("{action:?}"))
                .time("notice", notice)
                .time("reclaim", now + notice);
            w.log.push(Event::new(now, EventKind::FaultStarted, cause).node(n));
        }
        self.interruptions.insert(n, (action, now));
        Self::at(w, index, n, now + latency, Step::InterruptionMessage);
    }

    /// The message comes in: `CordonAndDrain` deletes the NodeClaim.
    pub(in super::super) fn interruption_message(&mut self, w: &mut World, index: usize, n: NodeId) {
        let now = w.now;
        let Some((action, sent)) = self.interruptions.get(&n).copied() else {
            return;
        };
        let message = match action {
            ActionKind::SpotInterruption => "SpotInterruptionKind",
            ActionKind::InstanceStopped => "InstanceStoppedKind",
            _ => "InstanceTerminatedKind",
        };
        let reclaim = self
            .settings
            .spot_notices
            .iter()
            .find(|&&(node, at, _)| node == n && at == sent)
            .map(|&(_, at, notice)| at + notice);
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
        let after = w.log.index.silenced(n);
        let Some(r) = self.remediator_mut(index) else {
            return;
        };
        if !r.interrupted(w, n, cause, after) {
            return;
        }
        self.karpenter_delete_nodeclaim(w, index, n);
        Self::at(w, index, n, now, Step::InterruptionDrain);
    }

    /// One pass of the graceful drain: pods not deleting yet are evicted (a budget may refuse);
    /// the drain waits for every pod that is not stuck terminating. Then the volume wait.
    pub(in super::super) fn interruption_drain(&mut self, w: &mut World, env: &Env, index: usize, n: NodeId) {
        if self.termination_shortcut(w, env, index, n) {
            return;
        }
        self.drain_started.get_or_insert_with((index, n), || w.now);
        let dead = kubelet_gone(w, env, n);
        let pass = GRACEFUL_DRAIN.pass(w, n, |w, p| {
            let cause = drain_evict_cause(w, "Karpenter", p, (None, dead));
            let tainted = w.log.index.taint(n, &format!("{TAINT_DISRUPTED}:NoSchedule"));
            let mut e = Event::new(w.now, EventKind::PodDeletionRequested, cause)
                .pod(p)
                .after(tainted);
            e.node = Some(n);
            w.log.push(e);
        });
        // Not drained: again in a second; drained: the `Drained` condition's patch requeues a
        // second before the volumes are looked at.
        let step = if pass.waiting {
            Step::InterruptionDrain
        } else {
            let started = self.drain_started.remove(&(index, n)).unwrap_or(w.now);
            super::drained(w, n, started);
            Step::InterruptionVolumes
        };
        Self::at(w, index, n, w.now + GRACEFUL_DRAIN.retry, step);
    }

    /// The wait for the node's volumes to detach, those of pods stuck terminating ignored; then
    /// the instance is terminated.
    pub(in super::super) fn interruption_volumes(&mut self, w: &mut World, env: &Env, index: usize, n: NodeId) {
        if self.termination_shortcut(w, env, index, n) {
            return;
        }
        let stuck = |p: &PodId| w.api.pods[*p].node == Some(n) && GRACEFUL_DRAIN.is_stuck(w, *p);
        let waiting = w
            .api
            .volumes
            .list
            .iter()
            .any(|v| v.attached_to.contains(&n) && !v.pods.iter().any(stuck));
        // The `VolumesDetached` condition's patch requeues a second before the instance goes.
        let step = if waiting {
            Step::InterruptionVolumes
        } else {
            Step::InterruptionTerminate
        };
        Self::at(w, index, n, w.now + DRAIN_REQUEUE, step);
    }

    /// `EnsureTerminated`: the instance is terminated and polled every 5 s.
    pub(in super::super) fn interruption_terminate(&mut self, w: &mut World, env: &Env, index: usize, n: NodeId) {
        if !self.termination_shortcut(w, env, index, n) {
            self.karpenter_delete_instance(w, env, index, n);
        }
    }

    /// The termination's early ends: the Node is gone already (the cloud controller deleted
    /// it), or it is not Ready and the provider no longer finds its instance, so its finalizer
    /// goes at once. Returns whether the termination is over.
    fn termination_shortcut(&mut self, w: &mut World, env: &Env, index: usize, n: NodeId) -> bool {
        let now = w.now;
        if !w.api.nodes[n].exists {
            self.karpenter_finished(w, index, n);
            return true;
        }
        let ready = w.api.nodes[n].status.observed(now).ready_status() == Some(CondStatus::True);
        let Some(gone) = env.gone_at(n).filter(|&g| g <= now && !ready) else {
            return false;
        };
        let cause = Cause::new("cause.remediation.karpenter_node_gone")
            .time("gone", gone)
            .sub("gc", self.orphan_gc());
        // Not Ready and gone: the later of the two made the shortcut possible.
        let after = latest([w.log.index.silenced(n), w.log.index.repair(n), w.log.index.ready(n)]);
        w.machines.push(MachineRequest::DeleteNode { node: n, cause, after });
        self.karpenter_finished(w, index, n);
        true
    }
}

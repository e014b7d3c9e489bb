//! Karpenter's termination of a node (`pkg/controllers/node/termination`): the
//! `karpenter.sh/disrupted` taint, the forceful drain ([`FORCEFUL_DRAIN`]: a pod stuck
//! terminating is left), the instance terminated and polled every 5 s until gone, the Node's
//! finalizer removed. The replacement node is launched when the NodeClaim is deleted: the model
//! launches one per repaired node (Karpenter provisions for the pods left pending).

use super::super::controller::{Env, Remediators, Step};
use super::{DRAIN_REQUEUE, FORCEFUL_DRAIN, INSTANCE_REQUEUE, TAINT_DISRUPTED};
use crate::api::{Effect, NodeId, Taint};
use crate::cause::Cause;
use crate::time::Millis;
use crate::timeline::{latest, Event, EventKind};
use crate::world::{MachineRequest, World};

/// The first tick of a `period` grid started at `from` that is after `t`.
fn next_tick(from: Millis, period: Millis, t: Millis) -> Millis {
    from + ((t - from) / period + 1) * period
}

impl Remediators {
    /// The NodeClaim is deleted with its termination time now: the replacement is launched, the
    /// node tainted, the drain begins.
    pub(in super::super) fn karpenter_terminate(&mut self, w: &mut World, (index, n): (usize, NodeId)) {
        self.karpenter_delete_nodeclaim(w, index, n);
        self.drain_started.insert((index, n), w.now);
        Self::at(w, index, n, w.now, Step::TerminationDrain);
    }

    /// The NodeClaim's deletion: Karpenter provisions for the pods it leaves (the model launches
    /// the node's spare) and the termination taints the node.
    pub(super) fn karpenter_delete_nodeclaim(&mut self, w: &mut World, index: usize, n: NodeId) {
        let now = w.now;
        self.replace(w, index, n, now + self.settings.times.boot);
        let taint = Taint::new(TAINT_DISRUPTED, Effect::NoSchedule, now);
        if w.api.swap_taints(now, n, std::slice::from_ref(&taint), &[]) {
            let cause = Cause::new("cause.remediation.karpenter_taint").text("taint", TAINT_DISRUPTED);
            let e = Event::new(now, EventKind::TaintAdded, cause)
                .node(n)
                .taint(taint.label());
            w.log.push(e.after(w.log.index.repair(n)));
        }
    }

    /// One pass of the forceful drain; once every pod left is stuck terminating, the instance is
    /// terminated.
    pub(in super::super) fn karpenter_drain(&mut self, w: &mut World, env: &Env, index: usize, n: NodeId) {
        let now = w.now;
        let started = self.drain_started.get(&(index, n)).copied().unwrap_or(now);
        let pass = if w.api.nodes[n].exists {
            FORCEFUL_DRAIN.pass(w, n, |w, p| {
                let cause = Cause::new("cause.remediation.karpenter_delete");
                let tainted = w.log.index.taint(n, &format!("{TAINT_DISRUPTED}:NoSchedule"));
                let mut e = Event::new(w.now, EventKind::PodDeletionRequested, cause)
                    .pod(p)
                    .after(tainted);
                e.node = Some(n);
                w.log.push(e);
            })
        } else {
            Default::default()
        };
        if let Some(t) = pass.last_stuck {
            let at = next_tick(started, DRAIN_REQUEUE, t);
            return Self::at(w, index, n, at, Step::TerminationDrain);
        }
        self.drain_started.remove(&(index, n));
        super::drained(w, n, started);
        self.karpenter_delete_instance(w, env, index, n);
    }

    /// `cloudProvider.Delete`: the instance is terminated (`instanceTerminationDuration`) and
    /// polled every 5 s until it is gone.
    pub(super) fn karpenter_delete_instance(&mut self, w: &mut World, env: &Env, index: usize, n: NodeId) {
        let now = w.now;
        let terminated = now + self.settings.times.termination;
        w.machines.push(MachineRequest::PowerOff {
            node: n,
            gone_at: Some(terminated),
        });
        // The provider reports it gone at the termination's end, or earlier if it already was.
        let gone = env.gone_at(n).map_or(terminated, |g| g.min(terminated));
        let at = if gone <= now {
            now
        } else {
            next_tick(now, INSTANCE_REQUEUE, gone - 1)
        };
        Self::at(w, index, n, at, Step::InstancePoll);
    }

    /// `cloudProvider.Delete` says the instance is gone: the Node's finalizer goes.
    pub(in super::super) fn karpenter_instance_gone(&mut self, w: &mut World, index: usize, n: NodeId) {
        if w.api.nodes[n].exists {
            let cause = Cause::new("cause.remediation.karpenter_node_deleted")
                .time("termination", self.settings.times.termination)
                .sub("gc", self.orphan_gc());
            // The instance's termination began once the drain was over.
            let tainted = w.log.index.taint(n, &format!("{TAINT_DISRUPTED}:NoSchedule"));
            let deleting = w.api.nodes[n].pods.iter().map(|&p| w.log.index.pod(p).deleting);
            let after = latest(deleting.chain([tainted, w.log.index.repair(n)]));
            w.machines.push(MachineRequest::DeleteNode { node: n, cause, after });
        }
        self.karpenter_finished(w, index, n);
    }

    /// The termination of node `n` is over.
    pub(super) fn karpenter_finished(&mut self, w: &mut World, index: usize, n: NodeId) {
        self.drain_started.remove(&(index, n));
        if let Some(r) = self.remediator_mut(index) {
            r.finished(n, true, None);
        }
        self.recheck_all_blocked(w, index);
    }
}

//! Karpenter's NodeClaim garbage collection (`pkg/controllers/nodeclaim/garbagecollection`):
//! every 2 minutes from Karpenter's start, a registered NodeClaim whose instance the provider no
//! longer lists and whose Node is not Ready is deleted, and with it the Node (the termination's
//! shortcut).

use super::super::controller::{Env, Remediators, Step};
use super::NODECLAIM_GC_PERIOD;
use crate::api::CondStatus;
use crate::cause::Cause;
use crate::scenario::Remediator;
use crate::sched::Owner;
use crate::time::Millis;
use crate::world::{MachineRequest, World};

impl Remediators {
    /// Karpenter's NodeClaim garbage collection starts with Karpenter at `start`, on a cloud.
    pub fn start(&mut self, w: &mut World, start: Millis) {
        if self.settings.provider.is_none() {
            return;
        }
        let karpenter = self
            .list
            .iter()
            .find(|r| matches!(r.spec, Remediator::KarpenterNodeRepair { .. }))
            .map(|r| r.index);
        if let Some(remediator) = karpenter {
            let wake = Step::NodeClaimGc.wake(remediator, 0);
            w.wake_for(Owner::Remediator, start + NODECLAIM_GC_PERIOD, wake);
        }
    }

    /// A garbage collection pass: every registered node not being terminated whose instance is
    /// gone and whose Ready is not True loses its NodeClaim and its Node.
    pub(in super::super) fn nodeclaim_gc(&mut self, w: &mut World, env: &Env, index: usize) {
        let now = w.now;
        let Some(k) = self.list.iter().position(|r| r.index == index) else {
            return;
        };
        for n in 0..w.api.nodes.len() {
            let node = &w.api.nodes[n];
            if !node.exists
                || self.list[k].repairing.contains(&n)
                || node.status.observed(now).ready_status() == Some(CondStatus::True)
            {
                continue;
            }
            let Some(gone) = env.gone_at(n).filter(|&g| g <= now) else {
                continue;
            };
            self.replace(w, index, n, now + self.settings.times.boot);
            let cause = Cause::new("cause.remediation.karpenter_gc")
                .time("period", NODECLAIM_GC_PERIOD)
                .time("gone", gone)
                .sub("gc", self.orphan_gc());
            let after = w.log.index.silenced(n);
            w.machines.push(MachineRequest::DeleteNode { node: n, cause, after });
            self.list[k].finished(n, true, None);
        }
        let wake = Step::NodeClaimGc.wake(index, 0);
        w.wake_after_machines(Owner::Remediator, now + NODECLAIM_GC_PERIOD, wake);
    }
}

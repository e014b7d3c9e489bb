//! The driver's side of an EKS managed node group ([`crate::control_plane::node_group`]): its
//! Auto Scaling group's new instances, and the drain of a Spot node on its interruption notice.

use super::{machines, Owner, Simulation, Wake, REGISTRATION_FIRST_STEP};
use crate::api::NodeId;
use crate::cause::Cause;
use crate::control_plane::drain::cordon;
use crate::control_plane::node_group::{self, BY_REBALANCE, SPOT_DRAIN};
use crate::scenario::{ActionKind, ActionSpec, CapacityType};
use crate::timeline::{Event, EventId, EventKind};

impl Simulation {
    /// The capacity type of node `n`'s managed node group, if it is in one.
    pub(super) fn node_group(&self, n: NodeId) -> Option<CapacityType> {
        let cloud = self.cfg.cloud.as_ref()?;
        node_group::capacity_type(cloud, &self.cfg.nodes[n].labels)
    }

    /// Node `n`'s group launches an instance now to keep its desired capacity, `by` saying why
    /// and `after` the event that made it: the spare node, if `n` has one left, registers once
    /// the instance has booted (`cloud.nodeBootDuration`).
    pub(super) fn group_launch(&mut self, n: NodeId, by: &'static str, after: Option<EventId>) {
        if self.node_group(n).is_none() {
            return;
        }
        let Some(spare) = self.remediation.take_spare(n) else {
            return;
        };
        let now = self.w.now;
        let (boot, _, _) = machines::durations(&self.cfg);
        self.created.insert(spare, (n, by, now, after));
        let step = REGISTRATION_FIRST_STEP;
        self.push_for(Owner::Kubelet(spare), now + boot, Wake::Register { node: spare, step });
    }

    /// The interruption notice `a` of node `n`, in a Spot managed node group: the notice is the
    /// node's `FaultStarted` (Karpenter's interruption handling may have recorded it already),
    /// Capacity Rebalancing launches the replacement, and EKS cordons and drains the node at
    /// once, the replacement not being Ready yet.
    pub(super) fn group_spot_notice(&mut self, a: &ActionSpec, n: NodeId) {
        let now = self.w.now;
        let recorded = self
            .w
            .log
            .events
            .iter()
            .rposition(|e| e.at == now && e.kind == EventKind::FaultStarted && e.node == Some(n));
        let warning = recorded.or_else(|| {
            let cause = Cause::new("cause.fault.spot_warning")
                .text("action", format!("{:?}", a.action))
                .time("notice", a.notice)
                .time("reclaim", now + a.notice);
            self.w.log.push(Event::new(now, EventKind::FaultStarted, cause).node(n))
        });
        self.group_launch(n, BY_REBALANCE, warning);
        let cause = Cause::new("cause.cloud.eks_spot_cordon").time("notice", a.notice);
        cordon(&mut self.w, &mut self.nlc, n, (cause, warning));
        self.group_drain(n);
    }

    /// One pass of the Spot drain of node `n`: each pod not being deleted yet is evicted (a
    /// budget may refuse: the next pass tries again); while a pod is waited for, another pass
    /// follows after the retry delay, until EC2 reclaims the instance.
    pub(super) fn group_drain(&mut self, n: NodeId) {
        let reclaimed = self.kubelets[n].fault.is_some_and(ActionKind::powers_off);
        if !self.w.api.nodes[n].exists || reclaimed {
            return;
        }
        let cordoned = self.w.log.index.node(n).and_then(|m| m.cordoned);
        let pass = SPOT_DRAIN.pass(&mut self.w, n, |w, p| {
            let cause = Cause::new("cause.cloud.eks_spot_evict").text("grace", w.api.pods[p].grace_seconds);
            let mut e = Event::new(w.now, EventKind::PodDeletionRequested, cause)
                .pod(p)
                .after(cordoned);
            e.node = Some(n);
            w.log.push(e);
        });
        if pass.waiting {
            self.push(self.w.now + SPOT_DRAIN.retry, Wake::NodeGroupDrain { node: n });
        }
    }
}

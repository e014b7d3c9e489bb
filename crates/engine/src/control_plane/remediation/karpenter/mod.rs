//! Karpenter's node repair and the termination it leads to.
//!
//! Follows kubernetes-sigs/karpenter `pkg/controllers/node/health/controller.go`: behind the
//! `NodeRepair` feature gate (default false), a node whose condition matches a repair policy
//! (type and status) is repaired once `now ≥ lastTransitionTime + TolerationDuration`, requeued
//! exactly then; `areNodesHealthy` holds every repair back while more than 20 % of the nodes
//! (rounded up) match any policy, whether or not its toleration has run out (event
//! `NodeRepairBlocked`, requeue 5 min); the repair annotates the NodeClaim's termination time as
//! now and deletes it. `pkg/controllers/node/termination`: taint `karpenter.sh/disrupted`, drain
//! (pods past the node's deadline deleted with grace max(left, 1 s) = 1 s, bypassing budgets; a
//! pod whose deletionTimestamp is more than a minute old is stuck terminating and no longer
//! drained, `IsStuckTerminating`), the volume wait skipped once the deadline has passed, then
//! `cloudProvider.Delete`, requeued every 5 s until the instance is gone, and the Node's finalizer
//! removed ([`termination`]). Interruption handling ([`interruption`]) and NodeClaim garbage
//! collection ([`gc`]) run beside it. The AWS provider's policies (`RepairPolicies`): Ready False
//! and Unknown 30 min; the Azure provider's 10 min.

mod gc;
mod interruption;
mod termination;

use super::{Remediation, Repair};
use crate::api::{CondStatus, NodeId};
use crate::cause::Cause;
use crate::control_plane::drain::{DrainPolicy, Removal, Stuck};
use crate::scenario::Remediator;
use crate::time::{Millis, MINUTE, SECOND};
use crate::timeline::{latest, Event, EventKind};
use crate::world::World;

/// `karpenter.sh/disrupted`, the NoSchedule taint of a node being terminated.
pub const TAINT_DISRUPTED: &str = "karpenter.sh/disrupted";
/// `allowedUnhealthyPercent`.
pub const ALLOWED_UNHEALTHY_PERCENT: u32 = 20;
/// The requeue of a blocked repair, ms.
pub const BLOCKED_REQUEUE: Millis = 5 * MINUTE;
/// `IsStuckTerminating`: a deletionTimestamp more than this old, ms.
pub const STUCK_TERMINATING: Millis = MINUTE;
/// The drain's requeue, ms.
pub const DRAIN_REQUEUE: Millis = SECOND;
/// The instance termination's requeue, ms.
pub const INSTANCE_REQUEUE: Millis = 5 * SECOND;
/// NodeClaim garbage collection's period (`pkg/controllers/nodeclaim/garbagecollection`), ms.
pub const NODECLAIM_GC_PERIOD: Millis = 2 * MINUTE;

/// The termination's forceful drain: every pod deleted with 1 s of grace, the budgets bypassed,
/// a pod stuck terminating no longer waited for, a pass every second.
pub const FORCEFUL_DRAIN: DrainPolicy = DrainPolicy {
    removal: Removal::Delete { grace: 1 },
    stuck: Stuck::PastDeadline(STUCK_TERMINATING),
    retry: DRAIN_REQUEUE,
};

/// The interruption's graceful drain: through the eviction API (budgets honoured, each pod's own
/// grace), a pod stuck terminating no longer waited for, a pass every second.
pub const GRACEFUL_DRAIN: DrainPolicy = DrainPolicy {
    removal: Removal::Evict,
    stuck: Stuck::PastDeadline(STUCK_TERMINATING),
    retry: DRAIN_REQUEUE,
};

/// Karpenter's drain of node `n`, begun at `started`, is over (`NodeDrained`): every pod it
/// waited for is gone or stuck terminating. It follows the last of the node's pods to be
/// deleted or removed, or the repair when there was none.
pub(super) fn drained(w: &mut World, n: NodeId, started: Millis) {
    let pods = &w.api.nodes[n].pods;
    let stuck = pods
        .iter()
        .any(|&p| w.api.pods[p].exists() && w.api.pods[p].deletion_requested_at.is_some());
    let marks = pods.iter().map(|&p| {
        let m = w.log.index.pod(p);
        latest([m.deleting, m.removed])
    });
    let after = latest(marks.chain([w.log.index.repair(n)]));
    let why = if stuck {
        Cause::new("cause.part.drain_stuck")
            .time("stuck", STUCK_TERMINATING)
            .time("retry", DRAIN_REQUEUE)
    } else if w.now == started {
        Cause::new("cause.part.drain_first")
    } else {
        Cause::new("cause.part.drain_gone").time("retry", DRAIN_REQUEUE)
    };
    let cause = Cause::new("cause.remediation.drained")
        .text("remediator", "Karpenter")
        .time("started", started)
        .sub("why", why);
    w.log
        .push(Event::new(w.now, EventKind::NodeDrained, cause).node(n).after(after));
}

/// `areNodesHealthy`: at most 20 % of `nodes` (rounded up) may match a policy.
pub fn nodes_healthy(nodes: u32, matching: u32) -> bool {
    let allowed = (u64::from(ALLOWED_UNHEALTHY_PERCENT) * u64::from(nodes)).div_ceil(100);
    u64::from(matching) <= allowed
}

/// Karpenter's verdict on a node whose toleration ran out.
pub(super) fn judge(
    r: &Remediation,
    (status, since, timeout): (CondStatus, Millis, Millis),
) -> Result<(Repair, Cause), Cause> {
    let Remediator::KarpenterNodeRepair { .. } = r.spec else {
        unreachable!("judge is Karpenter's")
    };
    let matching = r.unhealthy_count();
    let breaker = Cause::new("cause.part.karpenter_breaker")
        .text("matching", matching)
        .text("nodes", r.machines)
        .text("percent", ALLOWED_UNHEALTHY_PERCENT);
    if !nodes_healthy(r.machines, matching) {
        return Err(Cause::new("cause.remediation.karpenter_blocked")
            .sub("breaker", breaker)
            .time("requeue", BLOCKED_REQUEUE));
    }
    Ok((
        Repair::Terminate,
        Cause::new("cause.remediation.karpenter_started")
            .text("status", status)
            .time("since", since)
            .time("timeout", timeout)
            .sub("breaker", breaker),
    ))
}

//! The managed services' node auto-repair, as their documentation describes it (closed source;
//! every duration is a setting with the documented default).
//!
//! - GKE node auto-repair (cloud.google.com `node-auto-repair`): a node whose Ready is not True
//!   on consecutive checks for about 10 minutes is drained, GKE waiting up to one hour for the
//!   drain, then re-created under the same name. No breaker is published (repairs run in
//!   parallel, fewer as more nodes break).
//! - EKS node auto repair (docs.aws.amazon.com `node-repair`): Ready not True for 30 minutes ⇒
//!   Replace (the instance is terminated and its Auto Scaling group launches another); it stops
//!   repairing when the node group has more than five nodes and more than 20 % of them are
//!   unhealthy.
//! - AKS node auto-repair (learn.microsoft.com `node-auto-repair`): NotReady on consecutive
//!   checks, then, still unhealthy, a reboot (reimage and redeploy follow only if the reboot does
//!   not help; the sequence retries up to three times). Nodes carrying
//!   `node.cloudprovider.kubernetes.io/shutdown` are not repaired.

use super::{Remediation, Repair};
use crate::api::{CondStatus, Effect, NodeId};
use crate::cause::Cause;
use crate::control_plane::cloud_node_lifecycle::TAINT_SHUTDOWN;
use crate::scenario::Remediator;
use crate::time::Millis;
use crate::world::World;

/// The EKS managed node group's breaker: repairs stop when the group has more than five nodes
/// and more than `percent` % of them are unhealthy.
pub fn eks_repairs_stopped(nodes: u32, unhealthy: u32, percent: u32) -> bool {
    nodes > 5 && u64::from(unhealthy) * 100 > u64::from(percent) * u64::from(nodes)
}

/// A managed service's verdict on a node whose timer fired.
pub(super) fn judge(
    r: &Remediation,
    w: &World,
    n: NodeId,
    (status, since): (CondStatus, Millis),
) -> Result<(Repair, Cause), Cause> {
    let now = w.now;
    match r.spec {
        Remediator::GkeAutoRepair {
            not_ready_timeout,
            drain_timeout,
        } => Ok((
            Repair::Recreate,
            Cause::new("cause.remediation.gke_started")
                .text("status", status)
                .time("since", since)
                .time("timeout", not_ready_timeout)
                .time("drain", drain_timeout),
        )),
        Remediator::EksNodeAutoRepair {
            ready_timeout,
            max_unhealthy_percentage,
        } => {
            let unhealthy = r.unhealthy_count();
            let breaker = Cause::new("cause.part.eks_breaker")
                .text("unhealthy", unhealthy)
                .text("nodes", r.machines)
                .text("percent", max_unhealthy_percentage);
            if eks_repairs_stopped(r.machines, unhealthy, max_unhealthy_percentage) {
                return Err(Cause::new("cause.remediation.eks_blocked").sub("breaker", breaker));
            }
            Ok((
                Repair::Replace,
                Cause::new("cause.remediation.eks_started")
                    .text("status", status)
                    .time("since", since)
                    .time("timeout", ready_timeout)
                    .sub("breaker", breaker),
            ))
        }
        Remediator::AksAutoRepair { detection_delay } => {
            if w.api.nodes[n].has_taint(TAINT_SHUTDOWN, Effect::NoSchedule) {
                return Err(Cause::new("cause.remediation.aks_blocked").text("taint", TAINT_SHUTDOWN));
            }
            Ok((
                Repair::Reboot,
                Cause::new("cause.remediation.aks_started")
                    .text("status", status)
                    .time("since", since)
                    .time("delay", detection_delay)
                    .time("elapsed", now - since),
            ))
        }
        _ => unreachable!("judge is the managed services'"),
    }
}

//! Cluster API's MachineHealthCheck and the Machine deletion it leads to.
//!
//! Follows kubernetes-sigs/cluster-api: `machinehealthcheck_targets.go` (`needsRemediation`,
//! `nodeChecks`: a node condition matching a check for longer than its timeout, strictly, makes
//! the Machine unhealthy, and the reconcile requeues `timeout − elapsed + 1s`; a Machine whose
//! Node was deleted is unhealthy at once, reason `NodeDeleted`; a Machine without a Node is
//! unhealthy after `nodeStartupTimeout`), `machinehealthcheck_controller.go`
//! (`isAllowedRemediation`, `getMaxUnhealthy`: `maxUnhealthy` scaled on the expected Machines,
//! percentages rounded down; unhealthy = expected − currently healthy, where a Machine inside its
//! timeout window, one being deleted and one without a Node are not healthy), and
//! `machine_controller.go` (`drainNode`, `shouldWaitForNodeVolumes`, `reconcileDelete`): the
//! drain of an unreachable node (Ready `Unknown`) ignores pods deleted more than 1 s ago since
//! v1.8.0 (`SkipWaitForDeleteTimeoutSeconds = 1`), 300 s before; a drain not done requeues
//! every 20 s (`drainRetryInterval`); since v1.8.0 the volume-detach wait is skipped for an
//! unreachable node, before it waited (requeue 20 s) for every volume to detach; the Node is
//! deleted once the infrastructure is gone; the MachineSet creates the replacement once the old
//! Machine is gone (deleting Machines are counted, PR #3434).

use super::{Remediation, Repair};
use crate::api::CondStatus;
use crate::cause::Cause;
use crate::scenario::{NodeCount, Remediator};
use crate::time::{Millis, SECOND};

/// `drainRetryInterval` and `waitForVolumeDetachRetryInterval`, ms.
pub const DRAIN_RETRY_INTERVAL: Millis = 20 * SECOND;

/// What `nodeChecks` says about one target.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Health {
    /// Remediate, for this reason (`NodeStartupTimeout`, `NodeDeleted`, `UnhealthyNode`).
    Remediate(&'static str),
    /// Look again after this long (`nextCheck`).
    NextCheck(Millis),
    /// Healthy, nothing to look at again.
    Healthy,
}

/// One target of `nodeChecks`: the node's matching conditions (each `(elapsed since its
/// lastTransitionTime, timeout)`), whether it has a Node, whether the Node went away, and how
/// long since the Machine (or its infrastructure) became ready.
#[derive(Debug, Clone, Default)]
pub struct Target {
    /// The node exists (`t.Node != nil`).
    pub has_node: bool,
    /// The Node was deleted while `nodeRef` was set.
    pub node_missing: bool,
    /// Time since the latest of the Machine's creation and its infrastructure readiness, ms.
    pub since_created: Millis,
    /// Matching conditions: (how long it has held, the check's timeout), ms.
    pub conditions: Vec<(Millis, Millis)>,
}

/// `nodeChecks`: whether the target needs remediation, or when to look again.
/// `startup_timeout` 0 disables the startup check.
pub fn node_checks(t: &Target, startup_timeout: Millis) -> Health {
    if t.node_missing {
        return Health::Remediate("NodeDeleted");
    }
    if !t.has_node {
        if startup_timeout == 0 {
            return Health::Healthy;
        }
        if t.since_created > startup_timeout {
            return Health::Remediate("NodeStartupTimeout");
        }
        return Health::NextCheck(startup_timeout - t.since_created + SECOND);
    }
    let mut next: Option<Millis> = None;
    for &(held, timeout) in &t.conditions {
        if held > timeout {
            return Health::Remediate("UnhealthyNode");
        }
        let n = timeout - held + SECOND;
        next = Some(next.map_or(n, |m| m.min(n)));
    }
    next.map_or(Health::Healthy, Health::NextCheck)
}

/// `getMaxUnhealthy`: `maxUnhealthy` scaled on `expected` Machines, a percentage rounded down
/// (`GetScaledValueFromIntOrPercent(…, false)`).
pub fn max_unhealthy(max: NodeCount, expected: u32) -> u32 {
    match max {
        NodeCount::Int(n) => n,
        NodeCount::Percent(p) => (u64::from(p) * u64::from(expected) / 100) as u32,
    }
}

/// `isAllowedRemediation`: unhealthy (expected − currently healthy) at most the scaled
/// `maxUnhealthy`.
pub fn is_allowed_remediation(max: NodeCount, expected: u32, healthy: u32) -> bool {
    expected.saturating_sub(healthy) <= max_unhealthy(max, expected)
}

/// `drainNode`'s `SkipWaitForDeleteTimeoutSeconds` for an unreachable node: 1 s since v1.8.0,
/// 300 s before (`shouldSkipPod`: a pod deleted more than that ago is ignored; the drain
/// policy's [`crate::control_plane::drain::Stuck::DeletedFor`]).
pub fn skip_wait_for_delete(cluster_api_minor: u32) -> Millis {
    if cluster_api_minor >= 8 {
        SECOND
    } else {
        300 * SECOND
    }
}

/// `drainNode`'s `GracePeriodSeconds` for an unreachable node: 1 s since v1.8.0 ("Override
/// the grace period of pods to reduce the time needed to skip them"), the pod's own before.
pub fn unreachable_grace_seconds(cluster_api_minor: u32) -> Option<i64> {
    (cluster_api_minor >= 8).then_some(1)
}

/// `shouldWaitForNodeVolumes`: never once the Node is gone; since v1.8.0 not for an
/// unreachable node; else while a volume is attached.
pub fn should_wait_for_node_volumes(
    cluster_api_minor: u32,
    node_exists: bool,
    unreachable: bool,
    attached: bool,
) -> bool {
    node_exists && attached && !(cluster_api_minor >= 8 && unreachable)
}

/// The MachineHealthCheck's verdict on a node whose timer fired, its condition having held for
/// `held`: `nodeChecks` (None: not unhealthy yet), then `isAllowedRemediation`.
pub(super) fn judge(
    r: &Remediation,
    (status, since, timeout, deleted): (CondStatus, Millis, Millis, bool),
    held: Millis,
) -> Option<Result<(Repair, Cause), Cause>> {
    let Remediator::MachineHealthCheck { cluster_api_minor, .. } = r.spec else {
        unreachable!("judge is Cluster API's")
    };
    let target = Target {
        has_node: !deleted,
        node_missing: deleted,
        since_created: 0,
        conditions: vec![(held, timeout)],
    };
    if !matches!(node_checks(&target, 0), Health::Remediate(_)) {
        return None;
    }
    let (version, breaker) = match breaker(r) {
        Ok(ok) => ok,
        Err(blocked) => return Some(Err(blocked)),
    };
    let why = if deleted {
        Cause::new("cause.part.mhc_node_deleted")
    } else {
        Cause::new("cause.part.mhc_condition")
            .text("status", status)
            .time("since", since)
            .time("timeout", timeout)
    };
    let drain = Cause::new(if cluster_api_minor >= 8 {
        "cause.part.mhc_drain_18"
    } else {
        "cause.part.mhc_drain_17"
    });
    let cause = Cause::new("cause.remediation.mhc_started")
        .text("version", version)
        .sub("why", why)
        .sub("breaker", breaker)
        .sub("drain", drain);
    Some(Ok((Repair::DeleteMachine, cause)))
}

/// `isAllowedRemediation` over the remediator's counts (the judged machine is already among
/// the unhealthy): the version and the sentence saying how many are unhealthy, or the
/// `RemediationRestricted` cause.
fn breaker(r: &Remediation) -> Result<(String, Cause), Cause> {
    let Remediator::MachineHealthCheck {
        max_unhealthy: max,
        cluster_api_minor,
        ..
    } = r.spec
    else {
        unreachable!("the breaker is Cluster API's")
    };
    let expected = r.machines;
    let unhealthy = r.unhealthy_count().min(expected);
    let healthy = expected - unhealthy;
    let limit = max_unhealthy(max, expected);
    let version = format!("v1.{cluster_api_minor}");
    let breaker = Cause::new("cause.part.mhc_breaker")
        .text("unhealthy", unhealthy)
        .text("expected", expected)
        .text("max", count_label(max))
        .text("limit", limit);
    if !is_allowed_remediation(max, expected, healthy) {
        return Err(Cause::new("cause.remediation.mhc_blocked")
            .text("version", version)
            .sub("breaker", breaker));
    }
    Ok((version, breaker))
}

/// The MachineHealthCheck's verdict on a replacement Machine for `old`, created at `created`,
/// that has no Node at `now`: `nodeChecks`' startup check (None: not timed out yet, or the check
/// is off), then `isAllowedRemediation`.
pub(super) fn judge_startup(r: &Remediation, old: &str, created: Millis, now: Millis) -> Option<Result<Cause, Cause>> {
    let Remediator::MachineHealthCheck {
        node_startup_timeout, ..
    } = r.spec
    else {
        unreachable!("judge_startup is Cluster API's")
    };
    let target = Target {
        since_created: now - created,
        ..Target::default()
    };
    if node_checks(&target, node_startup_timeout) != Health::Remediate("NodeStartupTimeout") {
        return None;
    }
    let (version, breaker) = match breaker(r) {
        Ok(ok) => ok,
        Err(blocked) => return Some(Err(blocked)),
    };
    Some(Ok(Cause::new("cause.remediation.mhc_startup")
        .text("version", version)
        .text("old", old)
        .time("created", created)
        .time("elapsed", now - created)
        .time("timeout", node_startup_timeout)
        .sub("breaker", breaker)))
}

/// `40%` or `3`.
pub fn count_label(c: NodeCount) -> String {
    match c {
        NodeCount::Int(n) => n.to_string(),
        NodeCount::Percent(p) => format!("{p}%"),
    }
}

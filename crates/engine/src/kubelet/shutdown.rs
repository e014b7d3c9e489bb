//! The kubelet's graceful node shutdown manager (`pkg/kubelet/nodeshutdown`).
//!
//! With `GracefulNodeShutdown` on and `shutdownGracePeriod` above 0 the kubelet holds a logind
//! delay inhibitor. On `PrepareForShutdown(true)` it reports Ready=False ("node is shutting
//! down"), refuses new pods, and kills its pods in priority groups (`migrateConfig`,
//! `groupByPriority`, `killPods`): every pod of a group in parallel with a grace period of
//! min(group seconds, the pod's `terminationGracePeriodSeconds`), the next group once every pod of
//! this one stopped or its time ran out. Killed pods end Failed with reason `Terminated`. Then the
//! inhibitor is released and the node powers off. These are the pure rules; the driver applies
//! them in `sim::shutdown`.

use crate::time::{Millis, SECOND};

/// `scheduling.SystemCriticalPriority`: `system-cluster-critical` has it,
/// `system-node-critical` 1000 more.
pub const SYSTEM_CRITICAL_PRIORITY: i64 = 2_000_000_000;
/// `scheduling.DefaultPriorityWhenNoDefaultClassExists`.
pub const DEFAULT_PRIORITY: i64 = 0;
/// The Ready condition's message while the kubelet shuts down (`nodeShutdownMessage` of the
/// status setter).
pub const NODE_SHUTTING_DOWN_MESSAGE: &str = "node is shutting down";
/// `nodeShutdownReason` from 1.22.
pub const NODE_SHUTDOWN_REASON: &str = "Terminated";
/// `nodeShutdownReason` in 1.21.
pub const NODE_SHUTDOWN_REASON_1_21: &str = "Shutdown";
/// `nodeShutdownMessage`.
pub const NODE_SHUTDOWN_MESSAGE: &str = "Pod was terminated in response to imminent node shutdown.";
/// `nodeShutdownNotAdmittedReason`.
pub const NODE_SHUTDOWN_NOT_ADMITTED_REASON: &str = "NodeShutdown";
/// `nodeShutdownNotAdmittedMessage`.
pub const NODE_SHUTDOWN_NOT_ADMITTED_MESSAGE: &str = "Pod was rejected as the node is shutting down.";

/// One entry of `shutdownGracePeriodByPodPriority`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ShutdownGroup {
    /// The lowest pod priority in the group.
    pub priority: i64,
    /// `shutdownGracePeriodSeconds`.
    pub seconds: i64,
}

/// `isFeatureEnabled`: the gate is on and `shutdownGracePeriod` is above 0.
pub fn feature_enabled(gate: bool, shutdown_grace_period: Millis) -> bool {
    gate && shutdown_grace_period > 0
}

/// `migrateConfig`: the two fields become two priority groups, regular pods first with
/// `shutdownGracePeriod − shutdownGracePeriodCriticalPods`, critical pods with the rest (whole
/// seconds, as `time.Duration / time.Second` truncates). Nothing when the total is 0 or the
/// critical part exceeds it.
pub fn migrate_config(total: Millis, critical: Millis) -> Vec<ShutdownGroup> {
    if total == 0 {
        return Vec::new();
    }
    let regular = total - critical;
    if regular < 0 {
        return Vec::new();
    }
    vec![
        ShutdownGroup {
            priority: DEFAULT_PRIORITY,
            seconds: regular / SECOND,
        },
        ShutdownGroup {
            priority: SYSTEM_CRITICAL_PRIORITY,
            seconds: (total - regular) / SECOND,
        },
    ]
}

/// `groupByPriority`: a pod joins the group with the highest priority not above its own (the
/// first group when it is below them all). `groups` are in ascending priority.
pub fn group_of(groups: &[ShutdownGroup], priority: i64) -> usize {
    groups.iter().rposition(|g| g.priority <= priority).unwrap_or(0)
}

/// `killPods`: the grace period the kubelet gives a pod: the group's seconds, or the pod's own
/// `terminationGracePeriodSeconds` if that is not longer.
pub fn kill_grace_seconds(group: ShutdownGroup, termination_grace_period_seconds: i64) -> i64 {
    group.seconds.min(termination_grace_period_seconds.max(0))
}

/// A pod's priority from its `priorityClassName` (the two built-in system classes; any other
/// class counts as the default priority here).
#[cfg(test)]
pub fn priority_of_class(name: Option<&str>) -> i64 {
    match name {
        Some("system-node-critical") => SYSTEM_CRITICAL_PRIORITY + 1000,
        Some("system-cluster-critical") => SYSTEM_CRITICAL_PRIORITY,
        _ => DEFAULT_PRIORITY,
    }
}

/// The reason a killed pod's status carries on a version (`Shutdown` in 1.21, `Terminated` from
/// 1.22).
pub fn shutdown_reason(minor: u32) -> &'static str {
    if minor <= 21 {
        NODE_SHUTDOWN_REASON_1_21
    } else {
        NODE_SHUTDOWN_REASON
    }
}

/// `start` with logind: when `InhibitDelayMaxSec` stays below `shutdownGracePeriod` after the
/// override, the manager reports this error and shuts down within the smaller delay, so the
/// groups are computed from it (regular pods keep their share first).
#[cfg(test)]
pub fn inhibit_delay_error(requested: Millis, available: Millis) -> Option<String> {
    (available < requested).then(|| {
        format!(
            "node shutdown manager was unable to update logind InhibitDelayMaxSec to {} (ShutdownGracePeriod), current value of InhibitDelayMaxSec ({}) is less than requested ShutdownGracePeriod",
            crate::time::format_go_duration(requested),
            crate::time::format_go_duration(available)
        )
    })
}

/// The groups within a smaller inhibit delay: the regular group is cut first to what is
/// available, the critical group gets whatever remains.
#[cfg(test)]
pub fn groups_within(total: Millis, critical: Millis, available: Millis) -> Vec<ShutdownGroup> {
    let mut groups = migrate_config(total, critical);
    let mut left = available.min(total) / SECOND;
    for g in &mut groups {
        g.seconds = g.seconds.min(left);
        left -= g.seconds;
    }
    groups
}

//! medik8s NodeHealthCheck with Self Node Remediation.
//!
//! Follows medik8s/node-healthcheck-operator `nodehealthcheck_controller.go`
//! (`matchesUnhealthyConditions`: unhealthy when `now.After(LTT + duration)`, requeued at the
//! expiry + 1 s; `getMinHealthy`: `minHealthy` scaled on the nodes with the percentage rounded
//! up, remediation skipped while fewer nodes are healthy; a node inside its timer window or with
//! a remediation CR is not healthy) and medik8s/self-node-remediation
//! (`selfnoderemediation_controller.go`: the NoSchedule taint
//! `remediation.medik8s.io/self-node-remediation` and `timeAssumedRebooted = now +
//! rebootDuration` at `Fencing-Started`, the requeue `timeAssumedRebooted − now + 1s`, then the
//! strategy: `useOutOfServiceTaint` adds `node.kubernetes.io/out-of-service=nodeshutdown:NoExecute`
//! and polls every 5 s until no pod on the node is terminating and no volume is attached there,
//! then removes it; `ResourceDeletion` force-deletes the node's pods (`DeleteAllOf`, grace 0);
//! `getRuntimeStrategy`: `Automatic` is the out-of-service taint from Kubernetes 1.28 (GA), else
//! resource deletion; `internal/reboot/calculator.go` `calculateMinimumRebootDuration`; the
//! unhealthy node's own agent reboots it once it sees the remediation for itself).
//!
//! The fencing steps: the NoSchedule taint and `timeAssumedRebooted` at `Fencing-Started`, the
//! agent's reboot of a node that still runs, and at `timeAssumedRebooted` + 1 s the strategy:
//! the out-of-service taint (polled every 5 s until no pod on the node is terminating and no
//! volume is attached there, then removed) or the pods' forced deletion.

use super::controller::{Env, Remediators, Step};
use super::{Remediation, Repair};
use crate::api::{CondStatus, Effect, NodeId, Taint};
use crate::cause::Cause;
use crate::control_plane::podgc::TAINT_OUT_OF_SERVICE;
use crate::scenario::{NodeCount, Remediator, SnrStrategy};
use crate::time::{Millis, SECOND};
use crate::timeline::{latest, Event, EventKind};
use crate::world::World;

/// The node's NoSchedule taint while it is remediated.
pub const TAINT_SNR: &str = "remediation.medik8s.io/self-node-remediation";
/// The out-of-service strategy polls this often (`useOutOfServiceTaint` requeue), ms.
pub const OUT_OF_SERVICE_POLL: Millis = 5 * SECOND;
/// The agent on the unhealthy node sees the remediation for itself within one
/// `apiCheckInterval` and reboots, ms.
pub const AGENT_NOTICE: Millis = 15 * SECOND;
/// The watchdog timeout assumed when the node does not publish one, ms.
pub const DEFAULT_WATCHDOG: Millis = 60 * SECOND;

/// The `SelfNodeRemediationConfig` settings the reboot duration depends on, ms (counts as is).
#[derive(Debug, Clone, Copy)]
pub struct SnrConfig {
    /// `apiCheckInterval`.
    pub api_check_interval: Millis,
    /// `apiServerTimeout`.
    pub api_server_timeout: Millis,
    /// `maxApiErrorThreshold`.
    pub max_api_error_threshold: i64,
    /// `peerDialTimeout`.
    pub peer_dial_timeout: Millis,
    /// `peerRequestTimeout`.
    pub peer_request_timeout: Millis,
}

impl Default for SnrConfig {
    /// `selfnoderemediationconfig_types.go`'s defaults.
    fn default() -> SnrConfig {
        SnrConfig {
            api_check_interval: 15 * SECOND,
            api_server_timeout: 5 * SECOND,
            max_api_error_threshold: 3,
            peer_dial_timeout: 5 * SECOND,
            peer_request_timeout: 7 * SECOND,
        }
    }
}

/// `GetNrOfBatches`: the peers are asked in batches, the first of 3 nodes, the others of
/// max(3, (n − 3)/10).
pub fn nr_of_batches(peers: u32) -> i64 {
    let n = i64::from(peers);
    if n == 0 {
        return 0;
    }
    if n <= 3 {
        return 1;
    }
    let rest = n - 3;
    let size = (rest / 10).max(3);
    1 + (rest + size - 1) / size
}

/// `calculateMinimumRebootDuration`: the API checks, the peers' answers (at least 30 s), the
/// watchdog and 30 s more. `peers` counts the nodes labelled `node-role.kubernetes.io/worker`
/// (`calcNumOfBatches`).
pub fn minimum_reboot_duration(c: &SnrConfig, peers: u32, watchdog: Millis) -> Millis {
    let api = (c.api_check_interval + c.api_server_timeout) * c.max_api_error_threshold;
    let peer = (nr_of_batches(peers) * (c.peer_dial_timeout + c.peer_request_timeout)).max(30 * SECOND);
    api + peer + watchdog + 30 * SECOND
}

/// `GetRebootDuration`: `safeTimeToAssumeNodeRebootedSeconds` if set and not below the minimum.
pub fn reboot_duration(safe: Option<Millis>, minimum: Millis) -> Millis {
    safe.map_or(minimum, |s| s.max(minimum))
}

/// `getRuntimeStrategy`: `Automatic` is the out-of-service taint from 1.28 (GA), else resource
/// deletion.
pub fn runtime_strategy(s: SnrStrategy, k8s_minor: u32) -> SnrStrategy {
    match s {
        SnrStrategy::Automatic if k8s_minor >= 28 => SnrStrategy::OutOfServiceTaint,
        SnrStrategy::Automatic => SnrStrategy::ResourceDeletion,
        other => other,
    }
}

/// `getMinHealthy`: `minHealthy` scaled on `total` nodes, a percentage rounded up.
pub fn min_healthy(min: NodeCount, total: u32) -> u32 {
    match min {
        NodeCount::Int(n) => n,
        NodeCount::Percent(p) => (u64::from(p) * u64::from(total)).div_ceil(100) as u32,
    }
}

/// NHC's verdict on a node whose timer fired: remediate unless fewer nodes than `minHealthy`
/// are healthy.
pub(super) fn judge(
    r: &Remediation,
    (status, since, timeout): (CondStatus, Millis, Millis),
) -> Result<(Repair, Cause), Cause> {
    let Remediator::SelfNodeRemediation {
        min_healthy: min,
        strategy,
        safe_time_to_assume_node_rebooted: safe,
        ..
    } = r.spec
    else {
        unreachable!("judge is NHC's")
    };
    let total = r.machines;
    let healthy = total.saturating_sub(r.unhealthy_count());
    let need = min_healthy(min, total);
    let breaker = Cause::new("cause.part.nhc_breaker")
        .text("healthy", healthy)
        .text("total", total)
        .text("min", super::mhc::count_label(min))
        .text("need", need);
    if healthy < need {
        return Err(Cause::new("cause.remediation.nhc_blocked").sub("breaker", breaker));
    }
    let minimum = minimum_reboot_duration(&SnrConfig::default(), r.cluster.workers, DEFAULT_WATCHDOG);
    let reboot = reboot_duration(safe, minimum);
    let runtime = runtime_strategy(strategy, r.cluster.k8s_minor);
    let cause = Cause::new("cause.remediation.snr_started")
        .text("status", status)
        .time("since", since)
        .time("timeout", timeout)
        .sub("breaker", breaker)
        .time("reboot", reboot)
        .time("minimum", minimum)
        .text("workers", r.cluster.workers)
        .text("strategy", format!("{strategy:?}"))
        .text("runtime", format!("{runtime:?}"));
    Ok((
        Repair::Fence {
            reboot,
            strategy: runtime,
        },
        cause,
    ))
}

impl Remediators {
    /// `Fencing-Started`: the NoSchedule taint, `timeAssumedRebooted`, and the agent's reboot of
    /// a node whose machine still runs (a hung kubelet, a partition).
    pub(super) fn fence(
        &mut self,
        w: &mut World,
        env: &Env,
        (index, n): (usize, NodeId),
        reboot: Millis,
        strategy: SnrStrategy,
    ) {
        let now = w.now;
        let assumed = now + reboot;
        let taint = Taint::new(TAINT_SNR, Effect::NoSchedule, now);
        if w.api.swap_taints(now, n, std::slice::from_ref(&taint), &[]) {
            let cause = Cause::new("cause.remediation.snr_taint")
                .text("taint", TAINT_SNR)
                .time("assumed", assumed);
            let e = Event::new(now, EventKind::TaintAdded, cause)
                .node(n)
                .taint(taint.label());
            w.log.push(e.after(w.log.index.repair(n)));
        }
        if let Some(r) = self.remediator_mut(index) {
            r.fencing.insert(n, (strategy, reboot));
        }
        if !(env.powered_off)(n) {
            Self::at(w, index, n, now + AGENT_NOTICE, Step::SelfReboot);
        }
        Self::at(w, index, n, assumed + SECOND, Step::AssumedRebooted);
    }

    /// Remediator `index` no longer fences node `n`.
    fn unfence(&mut self, index: usize, n: NodeId) {
        if let Some(r) = self.remediator_mut(index) {
            r.fencing.remove(&n);
        }
    }

    /// `Reboot-Completed`: unless the node is Ready again, the strategy frees its pods.
    pub(super) fn assumed_rebooted(&mut self, w: &mut World, index: usize, n: NodeId) {
        let now = w.now;
        let fencing = self.remediator_mut(index).and_then(|r| r.fencing.get(&n).copied());
        let Some((strategy, reboot)) = fencing else {
            return;
        };
        let node = &w.api.nodes[n];
        let ready = node.status.observed(now).ready_status() == Some(CondStatus::True);
        if !node.exists || ready {
            self.unfence(index, n);
            return;
        }
        // `timeAssumedRebooted` was set when the fencing taint went on.
        let fenced = latest([
            w.log.index.taint(n, &format!("{TAINT_SNR}:NoSchedule")),
            w.log.index.repair(n),
        ]);
        match strategy {
            SnrStrategy::ResourceDeletion | SnrStrategy::Automatic => {
                self.unfence(index, n);
                for p in w.api.nodes[n].pods.clone() {
                    if w.api.remove_pod(now, p) {
                        let cause = Cause::new("cause.remediation.snr_deleted").time("reboot", reboot);
                        let mut e = Event::new(now, EventKind::PodRemoved, cause).pod(p).after(fenced);
                        e.node = Some(n);
                        w.log.push(e);
                    }
                }
            }
            SnrStrategy::OutOfServiceTaint => {
                let taint = Taint::new(TAINT_OUT_OF_SERVICE, Effect::NoExecute, now);
                if w.api.swap_taints(now, n, std::slice::from_ref(&taint), &[]) {
                    let gc = Cause::new(if self.settings.out_of_service_volume_detach {
                        "cause.part.oos_gc"
                    } else {
                        "cause.part.oos_no_gc"
                    });
                    let cause = Cause::new("cause.remediation.snr_oos")
                        .text("taint", TAINT_OUT_OF_SERVICE)
                        .time("reboot", reboot)
                        .sub("gc", gc);
                    let e = Event::new(now, EventKind::TaintAdded, cause)
                        .node(n)
                        .taint(taint.label());
                    w.log.push(e.after(fenced));
                }
                Self::at(w, index, n, now + OUT_OF_SERVICE_POLL, Step::OutOfServicePoll);
            }
        }
    }

    /// `isResourceDeletionCompleted`: no pod on the node terminating and no volume attached
    /// there; then the out-of-service taint goes. Else again in 5 s.
    pub(super) fn out_of_service_poll(&mut self, w: &mut World, index: usize, n: NodeId) {
        let now = w.now;
        let api = &w.api;
        let terminating = api.nodes[n]
            .pods
            .iter()
            .any(|&p| api.pods[p].exists() && api.pods[p].deletion_requested_at.is_some());
        let attached = api.volumes.list.iter().any(|v| v.attached_to.contains(&n));
        if api.nodes[n].exists && (terminating || attached) {
            return Self::at(w, index, n, now + OUT_OF_SERVICE_POLL, Step::OutOfServicePoll);
        }
        self.unfence(index, n);
        let label = format!("{TAINT_OUT_OF_SERVICE}:{}", Effect::NoExecute);
        if w.api
            .swap_taints(now, n, &[], &[(TAINT_OUT_OF_SERVICE, Effect::NoExecute)])
        {
            let cause = Cause::new("cause.remediation.snr_oos_removed").text("taint", TAINT_OUT_OF_SERVICE);
            let after = w.log.index.taint(n, &label);
            let e = Event::new(now, EventKind::TaintRemoved, cause).node(n).taint(label);
            w.log.push(e.after(after));
        }
    }
}

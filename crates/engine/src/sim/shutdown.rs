//! The driver's side of a `NodeShutdown`: the kubelet's shutdown manager kills the node's pods
//! group by group, then the node powers off (see [`crate::kubelet::shutdown`]).

use super::{Owner, Simulation, Wake, CONTAINER_STOP};
use crate::api::{NodeId, PodId};
use crate::cause::Cause;
use crate::kubelet::shutdown::{
    self, feature_enabled, group_of, kill_grace_seconds, migrate_config, ShutdownGroup, SYSTEM_CRITICAL_PRIORITY,
};
use crate::scenario::ActionKind;
use crate::time::SECOND;
use crate::timeline::{latest, Event, EventKind};

impl Simulation {
    fn shutdown_groups(&self) -> Vec<ShutdownGroup> {
        let k = &self.cfg.kubelet;
        migrate_config(k.shutdown_grace_period, k.shutdown_grace_period_critical_pods)
    }

    fn pod_priority(&self, p: PodId) -> i64 {
        let w = self.w.api.pods[p].workload;
        if self.cfg.workloads[w].critical {
            SYSTEM_CRITICAL_PRIORITY
        } else {
            shutdown::DEFAULT_PRIORITY
        }
    }

    /// systemd's `PrepareForShutdown(true)` reaches node `n` (the kubelet's
    /// `processShutdownEvent`). Without the feature (`GracefulNodeShutdown` off or
    /// `shutdownGracePeriod` 0) nothing holds the power-off: the node goes down like a crash.
    /// A spot notice that starts it (GCP) wraps the fault's cause (`notice`).
    pub(super) fn begin_shutdown(&mut self, n: NodeId, notice: Option<Cause>) {
        let now = self.w.now;
        let k = &self.cfg.kubelet;
        let (total, critical) = (k.shutdown_grace_period, k.shutdown_grace_period_critical_pods);
        let enabled = feature_enabled(k.graceful_shutdown, total);
        if !enabled || !self.kubelets[n].running() {
            let why = if total == 0 {
                Cause::new("cause.part.shutdown_grace_zero")
            } else {
                Cause::new("cause.part.shutdown_gate_off")
            };
            let cause = Cause::new("cause.fault.shutdown_crash").sub("why", why);
            self.kubelets[n].fault = Some(ActionKind::NodeShutdown);
            self.w.timers.cancel_owner(Owner::Kubelet(n));
            for p in self.w.api.nodes[n].pods.clone() {
                self.w.api.stop_pod(now, p);
            }
            self.w.log.push(Event::new(now, EventKind::FaultStarted, cause).node(n));
            return;
        }
        let cause = Cause::new("cause.fault.shutdown")
            .time("total", total)
            .time("regular", total - critical)
            .time("critical", critical);
        let cause = match notice {
            Some(n) => n.sub("shutdown", cause),
            None => cause,
        };
        self.w.log.push(Event::new(now, EventKind::FaultStarted, cause).node(n));
        // `go syncNodeStatus()`: the status setter reports Ready=False at once.
        self.kubelets[n].shutting_down = true;
        let (api, log, s) = (&mut self.w.api, &mut self.w.log, &self.kubelet_settings);
        self.kubelets[n].sync_node_status(now, n, api, log, s);
        self.push_for(Owner::Kubelet(n), now, Wake::ShutdownGroup { node: n, group: 0 });
    }

    /// `killPods` for one priority group: every pod of the group is killed in parallel; the
    /// next group starts when all have stopped (their grace periods are within the group's).
    pub(super) fn shutdown_group(&mut self, n: NodeId, group: usize) {
        let now = self.w.now;
        if !self.kubelets[n].shutting_down {
            return;
        }
        let groups = self.shutdown_groups();
        let Some(&g) = groups.get(group) else {
            return self.power_off(n);
        };
        let mut longest = 0;
        for p in self.w.api.nodes[n].pods.clone() {
            let pod = &self.w.api.pods[p];
            if pod.failed || !pod.exists() || group_of(&groups, self.pod_priority(p)) != group {
                continue;
            }
            let grace = kill_grace_seconds(g, pod.grace_seconds);
            // A container exits on SIGTERM within CONTAINER_STOP, or is killed when its grace ends.
            let stop = if pod.running {
                CONTAINER_STOP.min(grace * SECOND)
            } else {
                0
            };
            longest = longest.max(stop);
            self.push_for(
                Owner::Kubelet(n),
                now + stop,
                Wake::ShutdownPodKilled { pod: p, group, grace },
            );
        }
        let next = now + longest.min(g.seconds * SECOND);
        self.push_for(
            Owner::Kubelet(n),
            next,
            Wake::ShutdownGroup {
                node: n,
                group: group + 1,
            },
        );
    }

    /// A pod's containers stopped: the status manager writes phase Failed, reason `Terminated`,
    /// and the shutdown message (with the `DisruptionTarget` condition from 1.26).
    pub(super) fn shutdown_pod_killed(&mut self, p: PodId, group: usize, grace: i64) {
        let now = self.w.now;
        let Some(n) = self.w.api.pods[p].node else { return };
        self.w.api.stop_pod(now, p);
        let reason = shutdown::shutdown_reason(self.cfg.profile.version.minor);
        if !self.w.api.fail_pod(now, p, reason) {
            return;
        }
        if self.cfg.simulation.volumes_in_use_cleared_on_shutdown {
            self.unmount(p);
        }
        let condition = if self.cfg.profile.pod_disruption_conditions {
            Cause::new("cause.part.shutdown_condition")
        } else {
            Cause::none()
        };
        let cause = Cause::new("cause.shutdown.pod_failed")
            .sub(
                "group",
                Cause::new(if group == 0 {
                    "cause.part.shutdown_regular"
                } else {
                    "cause.part.shutdown_critical"
                }),
            )
            .time("grace", grace * SECOND)
            .text("reason", reason)
            .text("message", shutdown::NODE_SHUTDOWN_MESSAGE)
            .sub("condition", condition);
        // Killed by the shutdown under way.
        let shutdown = self.w.log.index.silenced(n);
        self.w.log.push(
            Event::new(now, EventKind::PodFailed, cause)
                .node(n)
                .pod(p)
                .after(shutdown),
        );
    }

    /// The kubelet refuses a pod bound to a node that is shutting down (`Admit`): it fails with
    /// reason `NodeShutdown`.
    pub(super) fn shutdown_refuse_pod(&mut self, p: PodId) {
        let now = self.w.now;
        let Some(n) = self.w.api.pods[p].node else { return };
        if self.w.api.fail_pod(now, p, shutdown::NODE_SHUTDOWN_NOT_ADMITTED_REASON) {
            let cause = Cause::new("cause.shutdown.rejected")
                .text("reason", shutdown::NODE_SHUTDOWN_NOT_ADMITTED_REASON)
                .text("message", shutdown::NODE_SHUTDOWN_NOT_ADMITTED_MESSAGE);
            let after = latest([self.w.log.index.pod(p).scheduled, self.w.log.index.silenced(n)]);
            self.w
                .log
                .push(Event::new(now, EventKind::PodFailed, cause).node(n).pod(p).after(after));
        }
    }

    /// The last group is done: the inhibitor lock is released and systemd powers the node off.
    /// Its heartbeats stop as after a crash; `volumesInUse` keeps whatever was not cleared.
    fn power_off(&mut self, n: NodeId) {
        let now = self.w.now;
        self.kubelets[n].shutting_down = false;
        self.kubelets[n].fault = Some(ActionKind::NodeShutdown);
        self.w.timers.cancel_owner(Owner::Kubelet(n));
        for p in self.w.api.nodes[n].pods.clone() {
            self.w.api.stop_pod(now, p);
        }
        let volumes = if self.cfg.simulation.volumes_in_use_cleared_on_shutdown {
            "cause.part.volumes_cleared"
        } else {
            "cause.part.volumes_left"
        };
        let cause = Cause::new("cause.shutdown.power_off").sub("volumes", Cause::new(volumes));
        let shutdown = self.w.log.index.silenced(n);
        self.w.log.push(
            Event::new(now, EventKind::NodePoweredOff, cause)
                .node(n)
                .after(shutdown),
        );
    }
}

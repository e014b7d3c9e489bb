//! Faults and operator actions: what happens when a scenario's events fire.

use super::{Owner, Simulation, Wake, NODE_EVICTION_PERIOD, REGISTRATION_FIRST_STEP};
use crate::api::{Effect, NodeId, NodeStatus, Taint, Versioned, Watch};
use crate::cause::Cause;
use crate::control_plane::podgc::TAINT_OUT_OF_SERVICE;
use crate::kubelet::heartbeats::HeartbeatLoop;
use crate::kubelet::lease::BACKOFF_MAX;
use crate::scenario::{ActionKind, ActionSpec};
use crate::time::Millis;
use crate::timeline::{Event, EventId, EventKind};

impl Simulation {
    /// A joining kubelet's registration attempt (`registerWithAPIServer`): sleep, then Create;
    /// on failure double the sleep up to 7 s.
    pub(super) fn register(&mut self, n: NodeId, step: Millis) {
        let now = self.w.now;
        if !self.kubelets[n].running() || self.w.api.nodes[n].exists {
            return;
        }
        if !self.kubelets[n].reachable() || self.w.api.api_latency >= self.kubelet_settings.request_timeout {
            let next = (step * 2).min(BACKOFF_MAX);
            self.push_for(Owner::Kubelet(n), now + next, Wake::Register { node: n, step: next });
            return;
        }
        let node = &mut self.w.api.nodes[n];
        node.exists = true;
        node.created_at = now;
        // The status setters run before Create, so the Node carries a Ready condition at once and
        // the node lifecycle controller does not need --node-startup-grace-period for it.
        node.status = Versioned::new(NodeStatus::default());
        let status = NodeStatus::healthy(now, &NodeStatus::default());
        self.w.api.node_changed(n);
        self.w.api.patch_node_status(now, n, status);
        self.kubelets[n].last_report = Some(now);
        // A kubelet restarted on a node whose object was deleted registers it again.
        // A replacement machine's Node follows the repair that created the machine.
        let back = self.w.log.index.node(n).and_then(|m| m.back);
        let (cause, made) = self
            .replacement_cause(n)
            .unwrap_or_else(|| (Cause::new("cause.node_created"), None));
        let e = Event::new(now, EventKind::NodeCreated, cause);
        self.w.log.push(e.node(n).after(back.or(made)));
        let u = self.kubelet_settings.update;
        self.schedule_loop(n, HeartbeatLoop::Status, now + u, now);
        if self.kubelet_settings.node_lease {
            self.schedule_loop(n, HeartbeatLoop::Lease, now, now);
        }
        self.sync_daemonsets();
        if !self.scheduler.is_idle() {
            self.scheduler.retry_pending(&mut self.w);
        }
    }

    pub(super) fn apply_action(&mut self, i: usize) {
        let a = self.cfg.actions[i].clone();
        match a.action {
            ActionKind::NodeCrash
            | ActionKind::KubeletStop
            | ActionKind::NetworkPartition
            | ActionKind::NodeRecover
            | ActionKind::NodeShutdown
            | ActionKind::InstanceTerminated
            | ActionKind::InstanceStopped
            | ActionKind::SpotInterruption => {
                let n = a.node.expect("validated: faults name a node");
                if self.instance_gone(n) {
                    let fault = self.kubelets[n].fault.unwrap_or(a.action);
                    self.instance_recovers(n, fault);
                    return;
                }
                self.catch_up(n);
                self.wake_up(n);
                self.apply_fault(&a, n)
            }
            ActionKind::NodeJoin => {
                let n = a.node.expect("validated");
                let step = REGISTRATION_FIRST_STEP;
                self.push_for(Owner::Kubelet(n), self.w.now + step, Wake::Register { node: n, step });
            }
            ActionKind::ControllerManagerRestart => self.restart_controller_manager(a.duration),
            ActionKind::OutOfServiceTaint | ActionKind::DeleteNode | ActionKind::ForceDeletePod | ActionKind::Drain => {
                self.operator_action(i, &a)
            }
            ActionKind::PatchTolerations => {
                self.patch_tolerations(a.workload.expect("validated"), a.toleration_seconds)
            }
            ActionKind::ApiServerLatency => {
                // Parked loops ran with the old latency up to now; if heartbeats fail from now on,
                // every loop goes back into the queue.
                for n in 0..self.kubelets.len() {
                    self.catch_up(n);
                }
                self.w.api.api_latency = self.base_api_latency + a.latency;
                self.allow_dormancy();
                if self.w.api.api_latency >= self.kubelet_settings.request_timeout {
                    for n in 0..self.kubelets.len() {
                        self.wake_up(n);
                    }
                }
                let timeout = self.kubelet_settings.request_timeout;
                let fails = if self.w.api.api_latency >= timeout {
                    Cause::new("cause.part.heartbeat_timeout").time("timeout", timeout)
                } else {
                    Cause::none()
                };
                let cause = Cause::new("cause.api_latency")
                    .time("extra", a.latency)
                    .time("total", self.w.api.api_latency)
                    .sub("fails", fails);
                self.w
                    .log
                    .push(Event::new(self.w.now, EventKind::ApiServerLatencyChanged, cause));
            }
        }
    }

    /// An operator's action on a node (a drain, the out-of-service taint, the Node deleted, a
    /// pod force-deleted): it faults the node it acts on ([`ActionKind::faulted`]), the node
    /// named or the force-deleted pod's, which the log notes for the milestones.
    fn operator_action(&mut self, i: usize, a: &ActionSpec) {
        let logged = self.w.log.events.len();
        match a.action {
            ActionKind::OutOfServiceTaint => self.out_of_service(a.node.expect("validated"), a.effect),
            ActionKind::DeleteNode => self.delete_node(a.node.expect("validated")),
            ActionKind::ForceDeletePod => self.force_delete(i, a.pod.as_deref().unwrap_or_default()),
            _ => self.drain(a.node.expect("validated")),
        }
        let node = match a.action.faulted() {
            crate::scenario::Faulted::Named => a.node,
            _ => self.w.log.events[logged..]
                .iter()
                .find(|e| e.kind == EventKind::PodRemoved)
                .and_then(|e| e.node),
        };
        if let Some(n) = node.filter(|_| self.w.log.wants(self.w.now, EventKind::FaultStarted)) {
            self.w.log.faults.push((n, self.w.now));
        }
    }

    pub(super) fn apply_fault(&mut self, a: &ActionSpec, n: NodeId) {
        let now = self.w.now;
        let name = self.w.api.nodes[n].name.clone();
        let old = self.kubelets[n].fault;
        if a.action == ActionKind::NodeRecover {
            if let Some(f) = old {
                if !self.instance_recovers(n, f) {
                    return;
                }
                let why = Cause::new("cause.fault.recovers")
                    .text("node", &name)
                    .text("fault", format!("{f:?}"));
                self.recover(n, f, (why, None));
            } else if self.kubelets[n].shutting_down {
                // A shutdown under way is not cancelled (`PrepareForShutdown(false)` is not modelled).
                self.warnings.push(
                    Cause::new("warn.recover_while_shutting_down")
                        .text("node", &name)
                        .time("at", now),
                );
            }
            return;
        }
        if let Some(f) = old {
            let why = Cause::new("cause.fault.replaced")
                .text("new", format!("{:?}", a.action))
                .text("old", format!("{f:?}"))
                .text("node", &name);
            self.recover(n, f, (why, None));
        }
        match a.action {
            ActionKind::NodeShutdown => return self.begin_shutdown(n, None),
            ActionKind::InstanceTerminated | ActionKind::InstanceStopped | ActionKind::SpotInterruption => {
                return self.instance_fault(a, n)
            }
            _ => {}
        }
        // On a cloud a crash leaves the instance running as far as the provider can tell (a hung
        // VM): `InstanceExists` and `InstanceShutdown` both say no, so the Node is kept.
        let provider = self.cfg.cloud.as_ref().map(|c| c.provider.name());
        let key = match (a.action, provider) {
            (ActionKind::NodeCrash, Some(_)) => "cause.fault.crash_cloud",
            (ActionKind::NodeCrash, None) => "cause.fault.crash",
            (ActionKind::KubeletStop, _) => "cause.fault.kubelet_stop",
            _ => "cause.fault.partition",
        };
        let mut cause = Cause::new(key).text("action", format!("{:?}", a.action));
        if let (ActionKind::NodeCrash, Some(p)) = (a.action, provider) {
            cause = cause.text("provider", p);
        }
        self.kubelets[n].fault = Some(a.action);
        match a.action {
            ActionKind::NodeCrash => {
                self.w.timers.cancel_owner(Owner::Kubelet(n));
                for p in self.w.api.nodes[n].pods.clone() {
                    self.w.api.stop_pod(now, p);
                }
            }
            ActionKind::KubeletStop => {
                self.w.timers.cancel_owner(Owner::Kubelet(n));
            }
            _ => {}
        }
        self.w.log.push(Event::new(now, EventKind::FaultStarted, cause).node(n));
    }

    /// The fault of node `n` ends for `why`, after the event `after` (a remediator's repair
    /// that rebooted it) or, without one, after the fault itself.
    pub(super) fn recover(&mut self, n: NodeId, fault: ActionKind, (why, after): (Cause, Option<EventId>)) {
        let now = self.w.now;
        self.kubelets[n].fault = None;
        let restarted = fault.powers_off() || fault == ActionKind::KubeletStop;
        let key = if restarted {
            "cause.fault.ended_restart"
        } else {
            "cause.fault.ended_reconnect"
        };
        let after = after.or(self.w.log.index.silenced(n));
        let e = Event::new(now, EventKind::FaultEnded, Cause::new(key).sub("why", why));
        self.w.log.push(e.node(n).after(after));
        // The node's kube-proxy is back in touch with the apiserver: it resyncs.
        if self.eps.any() {
            self.proxy_changed();
        }
        if restarted {
            self.kubelets[n].restart();
            self.w.timers.cancel_owner(Owner::Kubelet(n));
            if self.w.api.nodes[n].exists {
                self.start_kubelet_loops(n, now, false);
            } else {
                let step = REGISTRATION_FIRST_STEP;
                self.push_for(Owner::Kubelet(n), now + step, Wake::Register { node: n, step });
            }
        }
        // The kubelet resyncs its pods from the apiserver (`syncLoop`/`HandlePodCleanups`): pods being
        // deleted are terminated, pods not running are started, and the status manager reports the
        // Ready condition of containers that kept running.
        for p in self.w.api.nodes[n].pods.clone() {
            let pod = &self.w.api.pods[p];
            if pod.deletion_requested_at.is_some() {
                self.kubelet_terminate_pod(p);
            } else if !pod.running {
                self.kubelet_start_pod(p);
            } else if pod.ready == Some(false) {
                // Containers kept running: the status manager reports Ready again.
                self.push_for(
                    Owner::Kubelet(n),
                    now + self.w.api.watch_latency,
                    Wake::PodStarted { pod: p },
                );
            }
        }
    }

    /// kube-controller-manager stops; a new process (or leader) starts after `downtime`. Every
    /// controller inside it starts from scratch: pending taint evictions are lost, and the node
    /// lifecycle controller re-registers every node (removing and re-adding NoExecute taints).
    pub(super) fn restart_controller_manager(&mut self, downtime: Millis) {
        let now = self.w.now;
        self.w.timers.cancel_owner(Owner::ControllerManager);
        self.w.api.clients.restart();
        self.kcm_up = false;
        let pending = self.taint_eviction.timers.iter().filter(|t| t.is_some()).count();
        self.w.log.push(Event::new(
            now,
            EventKind::ControllerManagerStopped,
            Cause::new("cause.kcm.stopped")
                .text("pending", pending)
                .time("downtime", downtime),
        ));
        self.push_kcm(now + downtime, Wake::ControllerManagerStart);
    }

    pub(super) fn controller_manager_started(&mut self) {
        let now = self.w.now;
        self.kcm_up = true;
        self.nlc.restart();
        self.taint_eviction.restart();
        self.podgc.restart();
        let stopped = self.w.log.index.controller_manager_stopped;
        let started = Event::new(
            now,
            EventKind::ControllerManagerStarted,
            Cause::new("cause.kcm.started"),
        );
        self.w.log.push(started.after(stopped));
        // Informers deliver every object again: taint eviction sees each node, workload controllers resync.
        if self.cfg.controller_manager.enable_taint_manager {
            for n in 0..self.w.api.nodes.len() {
                self.taint_eviction.handle_node_update(&mut self.w, n);
            }
        }
        for w in 0..self.workloads.specs.len() {
            self.workloads.sync(&mut self.w, w);
        }
        if self.w.api.volumes.any() {
            self.adc.restart(&self.w.api);
            self.push_kcm(now, Wake::AdcTick);
        }
        self.disruption_resync_all();
        self.eps.restart(&mut self.w);
        // wait.Until runs its function at once.
        self.push_kcm(now, Wake::MonitorPass);
        self.push_kcm(now + NODE_EVICTION_PERIOD, Wake::TaintingTick);
        self.push_kcm(now, Wake::PodGcTick);
    }

    pub(super) fn out_of_service(&mut self, n: NodeId, effect: Effect) {
        let now = self.w.now;
        let taint = Taint::new(TAINT_OUT_OF_SERVICE, effect, now);
        if self.w.api.swap_taints(now, n, std::slice::from_ref(&taint), &[]) {
            let what = if effect == Effect::NoExecute {
                "cause.part.oos_no_execute"
            } else {
                "cause.part.oos_no_schedule"
            };
            let gc = if self.cfg.out_of_service_volume_detach {
                "cause.part.oos_gc"
            } else {
                "cause.part.oos_no_gc"
            };
            self.w.log.push(
                Event::new(
                    now,
                    EventKind::TaintAdded,
                    Cause::new("cause.out_of_service")
                        .sub("what", Cause::new(what))
                        .sub("gc", Cause::new(gc)),
                )
                .node(n)
                .taint(taint.label()),
            );
        }
    }

    /// An operator deletes the Node object.
    pub(super) fn delete_node(&mut self, n: NodeId) {
        let pods = self.w.api.nodes[n].pods.len();
        let cause = Cause::new("cause.node_deleted")
            .text("pods", pods)
            .sub("gc", self.orphan_gc());
        self.delete_node_with(n, cause, None);
    }

    /// When PodGC force-deletes a deleted Node's pods: after its quarantine (1.20+) or at its
    /// next run.
    pub(super) fn orphan_gc(&self) -> Cause {
        crate::control_plane::podgc::orphan_cause(self.cfg.profile.podgc_quarantine)
    }

    /// The Node object is deleted (by an operator, or by the cloud node lifecycle controller
    /// with its own cause and the event that made it possible): its kubelet's parked loops run
    /// first, its pods become orphans for PodGC, and the attach-detach controller keeps its
    /// volumes' `MountedByNode` (`nodeDelete`).
    pub(super) fn delete_node_with(&mut self, n: NodeId, cause: Cause, after: Option<crate::timeline::EventId>) {
        let now = self.w.now;
        if !self.w.api.nodes[n].exists {
            return;
        }
        self.catch_up(n);
        self.wake_up(n);
        self.w.api.nodes[n].exists = false;
        self.w.api.node_changed(n);
        self.w.api.count(now, |w| w.node_deletes += 1);
        self.w.api.posts.watches.push((
            now + self.w.api.api_latency + self.w.api.watch_latency,
            Watch::NodeTaints(n),
        ));
        self.w
            .log
            .push(Event::new(now, EventKind::NodeDeleted, cause).node(n).after(after));
    }

    pub(super) fn force_delete(&mut self, action: usize, name: &str) {
        let now = self.w.now;
        let found = (0..self.w.api.pods.len())
            .rev()
            .find(|&p| self.w.api.pods[p].exists() && self.w.api.pods[p].name == name);
        match found {
            Some(p) if self.w.api.remove_pod(now, p) => {
                let mut e = Event::new(now, EventKind::PodRemoved, Cause::new("cause.force_deleted")).pod(p);
                e.node = self.w.api.pods[p].node;
                self.w.log.push(e);
            }
            _ => self.warnings.push(
                Cause::new("warn.force_delete_missing")
                    .text("action", action)
                    .text("name", format!("{name:?}"))
                    .time("at", now),
            ),
        }
    }

    /// An operator patches `tolerationSeconds` of the `not-ready` and `unreachable` NoExecute
    /// tolerations of every live pod of a workload. Pod update validation
    /// (`validateOnlyAddedTolerations`) lets only this field of an existing toleration change.
    /// Taint eviction sees the update through its pod watch (`handlePodUpdate`).
    pub(super) fn patch_tolerations(&mut self, w: usize, seconds: i64) {
        let now = self.w.now;
        let keys = [crate::api::TAINT_NOT_READY, crate::api::TAINT_UNREACHABLE];
        for p in 0..self.w.api.pods.len() {
            let pod = &mut self.w.api.pods[p];
            if pod.workload != w || !pod.exists() || pod.deletion_requested_at.is_some() {
                continue;
            }
            let mut changed = false;
            for t in std::rc::Rc::make_mut(&mut pod.tolerations).iter_mut() {
                let no_execute = t.effect.is_none_or(|e| e == Effect::NoExecute);
                if keys.contains(&t.key.as_str()) && no_execute && t.toleration_seconds.is_some() {
                    t.toleration_seconds = Some(seconds);
                    changed = true;
                }
            }
            if !changed {
                continue;
            }
            // One operator PATCH per pod; operator writes are not part of the write counts.
            let at = now + self.w.api.api_latency + self.w.api.watch_latency;
            self.w.api.posts.watches.push((at, Watch::PodTolerations(p)));
            let timer = self
                .taint_eviction
                .timers
                .get(p)
                .and_then(Option::as_ref)
                .map(|t| t.fire_at);
            let rule = match timer {
                Some(fire_at) => Cause::new("cause.part.patch_kept").time("at", fire_at),
                None => Cause::new("cause.part.patch_fresh"),
            };
            let mut e = Event::new(
                now,
                EventKind::PodTolerationsPatched,
                Cause::new("cause.patch_tolerations")
                    .text("seconds", seconds)
                    .sub("rule", rule),
            )
            .pod(p);
            e.node = self.w.api.pods[p].node;
            self.w.log.push(e);
        }
    }
}

//! The driver's side of the cloud: the cloud node lifecycle controller's passes
//! ([`crate::control_plane::cloud_node_lifecycle`]), the Azure provider's node watch, and the
//! instance faults (an instance terminated, stopped, or reclaimed after a spot notice), with
//! what an EKS managed node group does about them ([`super::node_group`]).

use super::{Owner, Simulation, Wake};
use crate::api::NodeId;
use crate::cause::Cause;
use crate::control_plane::cloud_node_lifecycle::CloudNodeLifecycle;
use crate::control_plane::node_group::BY_TERMINATION;
use crate::rng::{Rng, Stream};
use crate::scenario::{ActionKind, ActionSpec, CapacityType, Provider};
use crate::timeline::{Event, EventId, EventKind};

impl Simulation {
    /// The cloud node lifecycle controller, when the scenario names a cloud: its loop's first
    /// tick and Azure's cache refresh drawn from the seed.
    pub(super) fn new_cloud_controller(&self) -> Option<CloudNodeLifecycle> {
        let cfg = self.cfg.cloud.clone()?;
        let mut rng = Rng::stream(self.cfg.seed, Stream::CloudControllerManager);
        let first = self.start + rng.below(cfg.node_monitor_period.max(1) as u64) as i64;
        let cache_phase = rng.below(cfg.vm_cache_ttl.max(1) as u64) as i64;
        Some(CloudNodeLifecycle::new(cfg, self.cfg.nodes.len(), first, cache_phase))
    }

    /// The cloud-controller-manager's informers deliver a change of node `n`: the Azure provider's
    /// `updateNodeTaint`, and a node whose Ready is not True joins the cloud controller's set
    /// (waking its loop if it slept).
    pub(super) fn cloud_node_changed(&mut self, n: NodeId) {
        let Some(ccm) = self.ccm.as_mut() else { return };
        let gc = self.cfg.out_of_service_volume_detach;
        ccm.update_node_taint(&mut self.w, n, gc);
        if let Some(at) = ccm.node_changed(&self.w, n) {
            self.push(at, Wake::CloudPass);
        }
    }

    /// `MonitorNodes` begins.
    pub(super) fn cloud_pass(&mut self) {
        let Some(ccm) = self.ccm.as_mut() else { return };
        if ccm.start_pass(self.w.now) {
            self.cloud_step();
        }
    }

    /// The pass looks at its next nodes until one needs the cloud, or it is over.
    fn cloud_step(&mut self) {
        let Some(ccm) = self.ccm.as_mut() else { return };
        match ccm.step(&mut self.w) {
            Some(at) => self.push(at, Wake::CloudAnswer),
            None => {
                let next = ccm.next_pass(self.w.now);
                self.push(next, Wake::CloudPass);
            }
        }
    }

    /// The cloud answered about the node under way: it may be deleted.
    pub(super) fn cloud_answer(&mut self) {
        let Some(ccm) = self.ccm.as_mut() else { return };
        if let Some((n, cause, after)) = ccm.answer(&mut self.w) {
            let cause = cause.sub("gc", self.orphan_gc());
            self.delete_node_with(n, cause, after);
        }
        self.cloud_step();
    }

    /// An instance fault at its time: an instance terminated or stopped powers off now; a spot
    /// interruption gives its notice first (on GCP the kubelet's graceful node shutdown starts
    /// with it, when the kubelet has a grace period).
    pub(super) fn instance_fault(&mut self, a: &ActionSpec, n: NodeId) {
        let now = self.w.now;
        self.instance_event_sent(a, n);
        if a.action != ActionKind::SpotInterruption {
            return self.power_off_instance(n, a.action, Cause::none(), None);
        }
        self.push(now + a.notice, Wake::SpotReclaim { node: n });
        if self.node_group(n) == Some(CapacityType::Spot) {
            self.group_spot_notice(a, n);
        }
        let provider = self.cfg.cloud.as_ref().map(|c| c.provider);
        if provider == Some(Provider::Gcp) && self.cfg.kubelet.graceful_shutdown && self.kubelets[n].running() {
            let notice = Cause::new("cause.fault.spot_shutdown")
                .text("action", format!("{:?}", a.action))
                .text("provider", Provider::Gcp.name())
                .time("notice", a.notice);
            self.begin_shutdown(n, Some(notice));
        }
    }

    /// The spot notice is over: the cloud reclaims the instance (terminates it on AWS and
    /// Azure, stops it on GCP), cutting a graceful shutdown short if one still runs.
    pub(super) fn spot_reclaim(&mut self, n: NodeId) {
        let now = self.w.now;
        if self.instance_gone(n) {
            return;
        }
        self.catch_up(n);
        self.wake_up(n);
        let noticed = self
            .cfg
            .actions
            .iter()
            .filter(|a| a.action == ActionKind::SpotInterruption && a.node == Some(n) && a.at + a.notice == now)
            .map(|a| a.at)
            .next()
            .unwrap_or(now);
        let why = Cause::new("cause.part.spot_reclaimed").time("noticed", noticed);
        // The notice, where it was recorded as the node's fault (Karpenter's interruption queue,
        // an EKS Spot managed node group): the reclaim follows from it.
        let warned = self
            .w
            .log
            .events
            .iter()
            .rposition(|e| e.kind == EventKind::FaultStarted && e.node == Some(n) && e.at == noticed && e.at < now);
        self.power_off_instance(n, ActionKind::SpotInterruption, why, warned);
    }

    /// The machine of node `n` goes down with the instance: the kubelet and its containers stop
    /// as in a crash, and the cloud reports the instance stopped or gone after its own delay;
    /// `after`, the notice it follows, if one was recorded.
    fn power_off_instance(&mut self, n: NodeId, kind: ActionKind, why: Cause, after: Option<EventId>) {
        let now = self.w.now;
        let cutting = self.kubelets[n].shutting_down;
        self.kubelets[n].shutting_down = false;
        // Whatever else was wrong with it (a stopped kubelet, a partition), the machine is down.
        self.kubelets[n].fault = Some(kind);
        self.w.timers.cancel_owner(Owner::Kubelet(n));
        for p in self.w.api.nodes[n].pods.clone() {
            self.w.api.stop_pod(now, p);
        }
        let action = format!("{kind:?}");
        let cut = if cutting {
            Cause::new("cause.part.shutdown_cut")
        } else {
            Cause::none()
        };
        let Some(cloud) = self.cfg.cloud.as_ref() else {
            let cause = Cause::new("cause.fault.instance_without_cloud")
                .text("action", action)
                .sub("why", why)
                .sub("cut", cut);
            self.w.log.push(Event::new(now, EventKind::FaultStarted, cause).node(n));
            return;
        };
        let provider = cloud.provider;
        // A reclaimed Spot VM on GCP is stopped (it stays in its managed instance group); on AWS
        // and Azure (AKS spot pools evict with Delete) it is terminated.
        let terminated = match kind {
            ActionKind::InstanceTerminated => true,
            ActionKind::SpotInterruption => provider != Provider::Gcp,
            _ => false,
        };
        let (key, delay) = if terminated {
            ("cause.fault.instance_terminated", cloud.instance_termination_duration)
        } else {
            ("cause.fault.instance_stopped", cloud.instance_stop_duration)
        };
        let cause = Cause::new(key)
            .text("action", action)
            .text("provider", provider.name())
            .time("delay", delay)
            .sub("why", why)
            .sub("cut", cut);
        let id = self
            .w
            .log
            .push(Event::new(now, EventKind::FaultStarted, cause).node(n).after(after));
        if terminated {
            // An instance of an EKS managed node group: its Auto Scaling group replaces it.
            self.group_launch(n, BY_TERMINATION, id);
        }
        let Some(ccm) = self.ccm.as_mut() else { return };
        let instance = &mut ccm.instances[n];
        instance.fault = id;
        if terminated {
            instance.gone_from = Some(now + delay);
        } else {
            instance.stopped_from = Some(now + delay);
            instance.started_from = None;
        }
    }

    /// Whether node `n`'s instance is gone (terminated): nothing happens to it any more.
    pub(super) fn instance_gone(&self, n: NodeId) -> bool {
        self.ccm.as_ref().is_some_and(|c| c.instances[n].gone_from.is_some())
    }

    /// `NodeRecover` of an instance fault: a stopped instance starts again (its kubelet restarts
    /// as after a crash); a terminated one is gone for good. Returns whether it recovers.
    pub(super) fn instance_recovers(&mut self, n: NodeId, fault: ActionKind) -> bool {
        let now = self.w.now;
        if self.instance_gone(n) {
            self.warnings.push(
                Cause::new("warn.instance_gone")
                    .text("node", &self.w.api.nodes[n].name)
                    .text("fault", format!("{fault:?}"))
                    .time("at", now),
            );
            return false;
        }
        if let Some(ccm) = self.ccm.as_mut() {
            ccm.instances[n].started_from = Some(now);
        }
        true
    }
}

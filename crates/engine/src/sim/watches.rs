//! What each controller does when its informers deliver a change.

use super::{Simulation, Wake};
use crate::api::{PodId, Watch};
use crate::cause::Cause;
use crate::scenario::ActionKind;
use crate::timeline::{Event, EventKind};

impl Simulation {
    pub(super) fn taint_manager_runs(&self) -> bool {
        self.kcm_up && self.cfg.controller_manager.enable_taint_manager
    }

    /// The pods' Service (if any) syncs its slice when the informer shows a pod change.
    pub(super) fn pod_changed(&mut self, p: PodId) {
        if !self.kcm_up || !self.eps.any() {
            return;
        }
        self.eps.pod_changed(&mut self.w, p);
    }

    /// Nodes whose kube-proxy runs and reaches the apiserver, and nodes whose kube-proxy runs
    /// but is cut off from it (a partition).
    pub(super) fn connected_proxies(&self) -> (usize, usize) {
        let (mut connected, mut cut_off) = (0, 0);
        for (n, node) in self.w.api.nodes.iter().enumerate() {
            if !node.exists {
                continue;
            }
            match self.kubelets[n].fault {
                Some(ActionKind::NetworkPartition) => cut_off += 1,
                _ if self.kubelets[n].proxy_connected() => connected += 1,
                _ => {}
            }
        }
        (connected, cut_off)
    }

    /// The connected proxies saw a slice change (or one reconnected): they plan a sync.
    pub(super) fn proxy_changed(&mut self) {
        if let Some(at) = self.proxy.request(self.w.now) {
            self.push(at, Wake::ProxySync);
        }
    }

    pub(super) fn proxy_sync(&mut self) {
        if self.connected_proxies().0 == 0 {
            // Nobody can read the slices: every proxy keeps its rules until one reconnects.
            self.proxy.scheduled = None;
            self.proxy.starved = true;
            return;
        }
        if std::mem::take(&mut self.proxy.starved) {
            // The node whose kubelet (and kube-proxy) came back last.
            let index = &self.w.log.index;
            let back = (0..self.w.api.nodes.len()).map(|n| index.node(n).and_then(|m| m.back));
            self.proxy.resumed_by = crate::timeline::latest(back);
        }
        let end = self.proxy.start(self.w.now, &self.w.api);
        self.push(end, Wake::ProxySyncDone);
    }

    pub(super) fn deliver(&mut self, w: Watch) {
        if let Watch::PodCreated(p)
        | Watch::PodBound(p)
        | Watch::PodStatus(p)
        | Watch::PodDeleting(p)
        | Watch::PodRemoved(p) = w
        {
            self.pod_changed(p);
            if self.w.api.volumes.any() && self.kcm_up {
                self.volume_pod_changed(p);
            }
        }
        self.disruption_pod_changed(w);
        if let Watch::NodeConditions(n) | Watch::NodeTaints(n) = w {
            if self.kcm_up {
                self.volume_node_changed(n);
            }
            self.cloud_node_changed(n);
            self.remediation_node_changed(n);
        }
        let kcm = self.kcm_up;
        let te = self.taint_manager_runs();
        match w {
            Watch::NodeConditions(n) => {
                if kcm {
                    self.nlc.do_no_schedule_tainting_pass(&mut self.w, n);
                }
            }
            Watch::NodeTaints(n) => {
                if te {
                    self.taint_eviction.handle_node_update(&mut self.w, n);
                }
                if kcm {
                    self.sync_daemonsets();
                }
                if !self.scheduler.is_idle() {
                    self.scheduler.retry_pending(&mut self.w);
                }
            }
            Watch::PodCreated(p) => self.scheduler.schedule(&mut self.w, p),
            // `handlePodUpdate` sees the new tolerations; a timer already set stays where it is.
            Watch::PodTolerations(p) if te => {
                self.taint_eviction.handle_pod_update(&mut self.w, p);
            }
            Watch::PodTolerations(_) => {}
            Watch::PodBound(p) => {
                if te {
                    self.taint_eviction.handle_pod_update(&mut self.w, p);
                }
                if kcm {
                    self.nlc.process_pod(&mut self.w, p);
                }
                self.kubelet_start_pod(p);
            }
            Watch::PodDeleting(p) => {
                self.remove_if_terminal(p);
                if kcm {
                    let w = self.w.api.pods[p].workload;
                    self.workloads.sync(&mut self.w, w);
                }
                self.kubelet_terminate_pod(p);
            }
            Watch::PodStatus(p) => {
                if kcm && self.w.api.pods[p].failed {
                    self.workloads.pod_failed(&mut self.w, p);
                }
            }
            Watch::Slice(_) => self.proxy_changed(),
            Watch::PodRemoved(p) => {
                if te {
                    self.taint_eviction.handle_pod_update(&mut self.w, p);
                }
                if kcm {
                    let w = self.w.api.pods[p].workload;
                    self.workloads.sync(&mut self.w, w);
                }
                if !self.scheduler.is_idle() {
                    self.scheduler.retry_pending(&mut self.w);
                }
            }
        }
    }

    /// The apiserver gives a terminal pod's DELETE a grace period of 0 (`CheckGracefulDelete`):
    /// a Failed pod's object goes at once, without its kubelet.
    fn remove_if_terminal(&mut self, p: PodId) {
        let now = self.w.now;
        if self.w.api.pods[p].failed && self.w.api.remove_pod(now, p) {
            let cause = Cause::new("cause.pod_removed.terminal");
            let mut e = Event::new(now, EventKind::PodRemoved, cause)
                .pod(p)
                .after(self.w.log.index.pod(p).failed);
            e.node = self.w.api.pods[p].node;
            self.w.log.push(e);
        }
    }

    pub(super) fn sync_daemonsets(&mut self) {
        for w in 0..self.workloads.specs.len() {
            if self.workloads.specs[w].kind == crate::scenario::WorkloadKind::DaemonSet {
                self.workloads.sync(&mut self.w, w);
            }
        }
    }
}

//! The driver's side of the kubelets' heartbeat loops: when they are queued, when they run lazily,
//! and how the node lifecycle controller learns which nodes are steady (see
//! [`crate::kubelet::heartbeats`]).

use super::{Owner, Simulation, Wake};
use crate::api::{NodeId, WriteHistory};
use crate::kubelet::heartbeats::{is_plain, HeartbeatLoop, LoopState};
use crate::kubelet::Kubelet;
use crate::time::{Millis, SECOND};

impl Simulation {
    pub(super) fn tick(n: NodeId, which: HeartbeatLoop) -> Wake {
        match which {
            HeartbeatLoop::Status => Wake::StatusTick { node: n },
            HeartbeatLoop::Lease => Wake::LeaseTick { node: n },
        }
    }

    /// Plans a heartbeat loop's next iteration: lazy while the node is plain, queued otherwise.
    pub(super) fn schedule_loop(&mut self, n: NodeId, which: HeartbeatLoop, next: Millis, pushed_at: Millis) {
        let kl = &self.kubelets[n];
        if is_plain(kl, n, &self.w.api, &self.kubelet_settings, &self.w.log) {
            *self.kubelets[n].loop_state(which) = LoopState::Lazy { next, pushed_at };
        } else {
            *self.kubelets[n].loop_state(which) = LoopState::Queued;
            self.push_as_of(Owner::Kubelet(n), next, pushed_at, Self::tick(n, which));
        }
        self.report_steady(n);
    }

    /// Runs node `n`'s lazy iterations due before the wake-up being handled; a dormant node is
    /// woken in the node lifecycle controller with what they wrote.
    pub(super) fn catch_up(&mut self, n: NodeId) {
        let (now, pushed_at) = (self.w.now, self.w.pushed_at);
        let s = &self.kubelet_settings;
        if self.nlc.is_dormant(n) {
            let mut history = WriteHistory::default();
            let (api, log) = (&mut self.w.api, &mut self.w.log);
            self.kubelets[n].catch_up(now, pushed_at, n, api, log, s, Some(&mut history));
            self.nlc.wake(n, &history);
        } else {
            self.kubelets[n].catch_up(now, pushed_at, n, &mut self.w.api, &mut self.w.log, s, None);
        }
    }

    /// [`Self::catch_up`] for every node, up to `until` (every iteration due then, with
    /// `Millis::MAX`), without waking dormant nodes: at the end of the run.
    pub(super) fn catch_up_all(&mut self, until: Millis, pushed_at: Millis) {
        let s = &self.kubelet_settings;
        for (n, k) in self.kubelets.iter_mut().enumerate() {
            k.catch_up(until, pushed_at, n, &mut self.w.api, &mut self.w.log, s, None);
        }
    }

    /// [`Self::catch_up`] for the nodes the next monitor pass looks at (all but dormant ones).
    pub(super) fn catch_up_awake(&mut self) {
        let (now, pushed_at) = (self.w.now, self.w.pushed_at);
        let s = &self.kubelet_settings;
        if !self.nlc.dormancy.any() {
            return self.catch_up_all(now, pushed_at);
        }
        for &n in &self.nlc.dormancy.awake {
            self.kubelets[n].catch_up(now, pushed_at, n, &mut self.w.api, &mut self.w.log, s, None);
        }
    }

    /// Whether the configuration keeps every probe refresh of a node with steady heartbeats
    /// within the grace period, so that such a node may go dormant (see the node lifecycle
    /// controller's dormancy): the gap between two renewals (renew interval plus 4% jitter and
    /// the API round trip), plus a pass, plus a second of margin, stays below the grace period.
    /// With no informer or API latency at all, ties within one millisecond would matter, so
    /// nodes stay awake.
    pub(super) fn dormancy_allowed(&self) -> bool {
        let s = &self.kubelet_settings;
        let c = &self.cfg.controller_manager;
        let gap = Kubelet::longest_wait(s.lease_renew) + self.w.api.api_latency;
        let pass = c.node_monitor_period + self.cfg.simulation.monitor_pass_duration;
        s.node_lease
            && self.cfg.profile.controller_reads_leases
            && self.w.api.api_latency + self.w.api.watch_latency > 0
            && gap + pass + SECOND < c.node_monitor_grace_period
    }

    /// Tells the node lifecycle controller whether node `n`'s heartbeats are steady.
    pub(super) fn report_steady(&mut self, n: NodeId) {
        let steady = self.kubelets[n].steady();
        self.nlc.set_steady(n, steady);
    }

    /// Node `n` may stop being plain: its lazy loops go back into the event queue, as the
    /// wake-ups they would have been.
    pub(super) fn wake_up(&mut self, n: NodeId) {
        for which in [HeartbeatLoop::Status, HeartbeatLoop::Lease] {
            if let LoopState::Lazy { next, pushed_at } = *self.kubelets[n].loop_state(which) {
                *self.kubelets[n].loop_state(which) = LoopState::Queued;
                self.push_as_of(Owner::Kubelet(n), next, pushed_at, Self::tick(n, which));
            }
        }
        self.report_steady(n);
    }
}

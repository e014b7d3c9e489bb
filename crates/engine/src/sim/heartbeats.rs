//! The driver's side of the kubelets' heartbeat loops: it parks a plain node's loops in the
//! scheduler (see [`crate::kubelet::heartbeats`] and [`crate::sched::dormant`]), has their
//! iterations run before anybody looks, and tells the node lifecycle controller which nodes are
//! steady.

use super::Simulation;
use crate::api::{NodeId, WriteHistory};
use crate::kubelet::heartbeats::{is_plain, steady, HeartbeatLoop};
use crate::time::Millis;

impl Simulation {
    /// Plans a heartbeat loop's next iteration at `next`, pushed at `pushed_at`: parked while
    /// the node is plain, queued otherwise.
    pub(super) fn schedule_loop(&mut self, n: NodeId, which: HeartbeatLoop, next: Millis, pushed_at: Millis) {
        let w = &mut self.w;
        let l = which.of(n);
        if is_plain(&self.kubelets[n], n, &w.api, &self.kubelet_settings, &w.log) {
            w.timers.park(l, next, pushed_at);
        } else {
            w.timers.requeue(l.owner(), next, pushed_at, w.now, l.wake());
        }
        self.report_steady(n);
    }

    /// Runs node `n`'s parked iterations due before the wake-up being handled; a dormant node is
    /// woken in the node lifecycle controller with what they wrote.
    pub(super) fn catch_up(&mut self, n: NodeId) {
        let until = (self.w.now, self.w.pushed_at);
        let s = &self.kubelet_settings;
        if self.nlc.is_dormant(n) {
            let mut history = WriteHistory::default();
            self.kubelets[n].catch_up(until, n, &mut self.w, s, Some(&mut history));
            self.nlc.wake(n, &history);
        } else {
            self.kubelets[n].catch_up(until, n, &mut self.w, s, None);
        }
    }

    /// [`Self::catch_up`] for every node, up to `until` (every iteration due then, with
    /// `Millis::MAX`), without waking dormant nodes: at the end of the run.
    pub(super) fn catch_up_all(&mut self, until: Millis, pushed_at: Millis) {
        let s = &self.kubelet_settings;
        for (n, k) in self.kubelets.iter_mut().enumerate() {
            k.catch_up((until, pushed_at), n, &mut self.w, s, None);
        }
    }

    /// [`Self::catch_up`] for the nodes the next monitor pass looks at (all but dormant ones).
    pub(super) fn catch_up_awake(&mut self) {
        let until = (self.w.now, self.w.pushed_at);
        let s = &self.kubelet_settings;
        if !self.nlc.dormancy.any() {
            return self.catch_up_all(until.0, until.1);
        }
        for &n in &self.nlc.dormancy.awake {
            self.kubelets[n].catch_up(until, n, &mut self.w, s, None);
        }
    }

    /// Tells the node lifecycle controller whether node `n`'s heartbeats are steady.
    pub(super) fn report_steady(&mut self, n: NodeId) {
        self.nlc.set_steady(n, steady(&self.w.timers, n));
    }

    /// Node `n` may stop being plain: its parked loops go back into the heap, as the wake-ups
    /// they would have been.
    pub(super) fn wake_up(&mut self, n: NodeId) {
        for which in HeartbeatLoop::BOTH {
            self.w.timers.unpark(which.of(n), self.w.now);
        }
        self.report_steady(n);
    }
}

//! When the kubelet's two heartbeat loops run, and how a healthy node costs next to nothing.
//!
//! A loop iteration of a healthy kubelet is *plain*: its Lease renewal succeeds and its status
//! loop either does nothing or patches an unchanged status, so nothing but the Lease's
//! `renewTime`, the status's heartbeat times and the write counts change, and nobody is told. The
//! engine does not queue plain iterations. A loop whose node is plain is *lazy*: it remembers only
//! when it runs next, and its iterations run, in order and with the same code and random draws as
//! queued ones, when somebody looks at the node (a monitor pass), before anything that could make
//! the node not plain (a fault, a node deletion, an apiserver latency change, the controller
//! writing the node's status), and at the end of the run. So a run gives the same timeline
//! whether loops are lazy or queued; `--heartbeats` queues every iteration to record it.
//!
//! Order within one millisecond is kept too: the event queue orders wake-ups of the same time by
//! when they were pushed, and a lazy iteration counts as pushed when the one before it ran.

use super::lease::sync_lease;
use super::{Kubelet, KubeletSettings};
use crate::api::{Api, CondStatus, NodeId, WriteHistory};
use crate::time::Millis;
use crate::timeline::Log;

/// One of the kubelet's two heartbeat loops.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum HeartbeatLoop {
    /// The node status loop (`syncNodeStatus`).
    Status,
    /// The Lease loop (the lease controller's `sync`).
    Lease,
}

/// Where one loop stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum LoopState {
    /// Not running (the process stopped, or the loop does not exist).
    #[default]
    Stopped,
    /// Its next iteration is a wake-up in the event queue.
    Queued,
    /// Its next iteration runs at `next`; it would have been queued at `pushed_at`.
    Lazy {
        /// When the next iteration runs, ms.
        next: Millis,
        /// When the iteration before it ran (or the loop started), ms.
        pushed_at: Millis,
    },
}

/// Whether every iteration of node `n`'s loops would be plain now.
pub fn is_plain(k: &Kubelet, n: NodeId, api: &Api, s: &KubeletSettings, log: &Log) -> bool {
    let status = api.nodes[n].status.latest();
    !log.heartbeats
        && k.heartbeat_succeeds(n, api, s)
        && k.lease_backoff.is_none()
        && k.last_report.is_some()
        && !k.shutting_down
        && status.ready_status() == Some(CondStatus::True)
        && status.memory_pressure.is_some()
}

impl Kubelet {
    /// Whether both loops are lazy: the node's heartbeats are steady.
    pub fn steady(&self) -> bool {
        matches!(self.status_loop, LoopState::Lazy { .. }) && matches!(self.lease_loop, LoopState::Lazy { .. })
    }

    /// The state of one loop.
    pub fn loop_state(&mut self, which: HeartbeatLoop) -> &mut LoopState {
        match which {
            HeartbeatLoop::Status => &mut self.status_loop,
            HeartbeatLoop::Lease => &mut self.lease_loop,
        }
    }

    /// Runs one iteration of a loop at `now`; returns the wait until the next.
    pub fn run_loop(
        &mut self,
        which: HeartbeatLoop,
        now: Millis,
        n: NodeId,
        api: &mut Api,
        log: &mut Log,
        s: &KubeletSettings,
    ) -> Millis {
        match which {
            HeartbeatLoop::Status => self.sync_node_status(now, n, api, log, s),
            HeartbeatLoop::Lease => sync_lease(self, now, n, api, log, s),
        }
    }

    /// Runs the lazy loops' remaining iterations up to the end of the run, `end`, counting their
    /// writes the way [`Self::catch_up`] would but without writing the objects, which nobody
    /// reads any more. Every iteration is plain, so a Lease iteration is one renewal and a status
    /// iteration patches only when the report is due.
    pub fn finish(&mut self, end: Millis, api: &mut Api, s: &KubeletSettings) {
        let latency = api.api_latency;
        if let LoopState::Lazy { mut next, .. } = self.lease_loop {
            while next <= end {
                api.count(next, |w| w.lease_updates += 1);
                next += Kubelet::jittered(&mut self.lease_rng, s.lease_renew, s.lease_jitter) + latency;
            }
            self.lease_loop = LoopState::Stopped;
        }
        if let LoopState::Lazy { mut next, .. } = self.status_loop {
            while next <= end {
                let wait =
                    Kubelet::jittered(&mut self.status_rng, s.update, s.status_jitter) + latency.min(s.request_timeout);
                let due = !s.node_lease
                    || self
                        .last_report
                        .is_none_or(|t| next - t >= s.report + self.report_offset);
                if due {
                    // As `sync_node_status` does after an unchanged status: the one-time offset goes.
                    api.count(next, |w| w.node_status_patches += 1);
                    self.last_report = Some(next);
                    self.report_offset = 0;
                }
                next += wait;
            }
            self.status_loop = LoopState::Stopped;
        }
    }

    /// Runs the lazy loops' iterations that come before a wake-up at `until` pushed at
    /// `pushed_at`: every one due earlier, and those due at `until` that were pushed no later.
    /// With `pushed_at` of `Millis::MAX` it runs every iteration due at `until` or before. With
    /// `history`, it also keeps what each iteration left in the status and Lease objects.
    #[allow(clippy::too_many_arguments)]
    pub fn catch_up(
        &mut self,
        until: Millis,
        pushed_at: Millis,
        n: NodeId,
        api: &mut Api,
        log: &mut Log,
        s: &KubeletSettings,
        mut history: Option<&mut WriteHistory>,
    ) {
        for which in [HeartbeatLoop::Status, HeartbeatLoop::Lease] {
            while let LoopState::Lazy {
                next,
                pushed_at: before,
            } = *self.loop_state(which)
            {
                if next > until || (next == until && before > pushed_at) {
                    break;
                }
                debug_assert!(
                    is_plain(self, n, api, s, log),
                    "a lazy loop ran on a node that is not plain"
                );
                let wait = self.run_loop(which, next, n, api, log, s);
                if let Some(h) = history.as_deref_mut() {
                    let node = &api.nodes[n];
                    match which {
                        HeartbeatLoop::Status => h.status.push((next, node.status)),
                        HeartbeatLoop::Lease => h.lease.push((next, node.lease)),
                    }
                }
                *self.loop_state(which) = LoopState::Lazy {
                    next: next + wait,
                    pushed_at: next,
                };
            }
        }
    }
}

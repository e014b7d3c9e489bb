//! When the kubelet's two heartbeat loops run, and how a healthy node costs next to nothing.
//!
//! A loop iteration of a healthy kubelet is *plain*: its Lease renewal succeeds and its status
//! loop either does nothing or patches an unchanged status, so nothing but the Lease's
//! `renewTime`, the status's heartbeat times and the write counts change, and nobody is told. The
//! engine does not queue plain iterations: a loop whose node is plain is parked in the scheduler
//! ([`crate::sched::Loop`]), and its iterations run, in order and with the same code and random
//! draws as queued ones, when somebody looks at the node (a monitor pass), before anything that
//! could make the node not plain (a fault, a node deletion, an apiserver latency change, the
//! controller writing the node's status), and at the end of the run. So a run gives the same
//! timeline whether loops are parked or queued; `--heartbeats` queues every iteration to record
//! it. Order within one millisecond is kept too: a parked iteration counts as pushed when the one
//! before it ran.

use super::lease::sync_lease;
use super::{Kubelet, KubeletSettings};
use crate::api::{Api, CondStatus, NodeId, WriteHistory};
use crate::sched::{Loop, Timers};
use crate::time::Millis;
use crate::timeline::Log;
use crate::world::World;

/// One of the kubelet's two heartbeat loops.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum HeartbeatLoop {
    /// The node status loop (`syncNodeStatus`).
    Status,
    /// The Lease loop (the lease controller's `sync`).
    Lease,
}

impl HeartbeatLoop {
    /// Both loops, in the order they catch up.
    pub const BOTH: [HeartbeatLoop; 2] = [HeartbeatLoop::Status, HeartbeatLoop::Lease];

    /// Node `n`'s loop of this kind, as the scheduler knows it.
    pub fn of(self, n: NodeId) -> Loop {
        match self {
            HeartbeatLoop::Status => Loop::Status(n),
            HeartbeatLoop::Lease => Loop::Lease(n),
        }
    }
}

/// Whether node `n`'s heartbeats are steady: both its loops are parked.
pub fn steady(timers: &Timers, n: NodeId) -> bool {
    timers.parked(Loop::Status(n)).is_some() && timers.parked(Loop::Lease(n)).is_some()
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

    /// Runs the parked loops' remaining iterations up to the end of the run, `end`, counting their
    /// writes the way [`Self::catch_up`] would but without writing the objects, which nobody
    /// reads any more. Every iteration is plain, so a Lease iteration is one renewal and a status
    /// iteration patches only when the report is due.
    pub fn finish(&mut self, n: NodeId, end: Millis, w: &mut World, s: &KubeletSettings) {
        let (api, timers) = (&mut w.api, &mut w.timers);
        let latency = api.api_latency;
        if let Some(p) = timers.take_parked(Loop::Lease(n)) {
            let mut next = p.next;
            while next <= end {
                api.count(next, |w| w.lease_updates += 1);
                next += Kubelet::jittered(&mut self.lease_rng, s.lease_renew, s.lease_jitter) + latency;
            }
        }
        if let Some(p) = timers.take_parked(Loop::Status(n)) {
            let mut next = p.next;
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
        }
    }

    /// Runs the parked loops' iterations that come before a wake-up at `until` pushed at
    /// `pushed_at`: every one due earlier, and those due at `until` that were pushed no later.
    /// With `pushed_at` of `Millis::MAX` it runs every iteration due at `until` or before. With
    /// `history`, it also keeps what each iteration left in the status and Lease objects.
    pub fn catch_up(
        &mut self,
        (until, pushed_at): (Millis, Millis),
        n: NodeId,
        w: &mut World,
        s: &KubeletSettings,
        mut history: Option<&mut WriteHistory>,
    ) {
        for which in HeartbeatLoop::BOTH {
            let l = which.of(n);
            while let Some(next) = w.timers.take_due(l, until, pushed_at) {
                debug_assert!(
                    is_plain(self, n, &w.api, s, &w.log),
                    "a parked loop ran on a node that is not plain"
                );
                let wait = self.run_loop(which, next, n, &mut w.api, &mut w.log, s);
                if let Some(h) = history.as_deref_mut() {
                    let node = &w.api.nodes[n];
                    match which {
                        HeartbeatLoop::Status => h.status.push((next, node.status)),
                        HeartbeatLoop::Lease => h.lease.push((next, node.lease)),
                    }
                }
                w.timers.park(l, next + wait, next);
            }
        }
    }
}

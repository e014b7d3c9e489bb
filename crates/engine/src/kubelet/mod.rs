//! The kubelet's heartbeats: the node status loop.
//!
//! Follows `syncNodeStatus`/`updateNodeStatus`/`tryUpdateNodeStatus` in
//! `pkg/kubelet/kubelet_node_status.go`: the loop runs every `nodeStatusUpdateFrequency` (with 4%
//! sliding jitter from 1.23), and patches only when the status changed or
//! `nodeStatusReportFrequency` has passed since the last report. While the apiserver is out of
//! reach each tick makes up to `nodeStatusUpdateRetry` (5) attempts and gives up until the next.
//! The Lease loop lives in [`crate::lease`].

pub mod heartbeats;
pub mod lease;
pub mod shutdown;
pub mod volume_manager;

use crate::api::{Api, CondStatus, NodeId, NodeStatus};
use crate::cause::Cause;
use crate::rng::{Rng, Stream};
use crate::scenario::ActionKind;
use crate::time::Millis;
use crate::timeline::{Event, EventKind, Log};

/// The kubelet settings that shape its heartbeats.
#[derive(Debug, Clone, PartialEq)]
pub struct KubeletSettings {
    /// `nodeStatusUpdateFrequency`, ms.
    pub update: Millis,
    /// `nodeStatusReportFrequency`, ms.
    pub report: Millis,
    /// Lease renew interval (a quarter of `nodeLeaseDurationSeconds`), ms.
    pub lease_renew: Millis,
    /// Jitter on the status loop (1.23+).
    pub status_jitter: bool,
    /// Jitter on the lease loop (1.22+).
    pub lease_jitter: bool,
    /// One-time random report offset after a change (1.33+).
    pub report_offset: bool,
    /// Whether a Lease is renewed at all (`NodeLease`); without it every status tick patches.
    pub node_lease: bool,
    /// The heartbeat client's request timeout: `nodeStatusUpdateFrequency`, or
    /// `nodeLeaseDurationSeconds` if smaller, ms.
    pub request_timeout: Millis,
}

impl KubeletSettings {
    /// The longest gap between two Lease renewals of a healthy kubelet: the renew interval with
    /// its jitter, plus the API round trip `api_latency`, ms; `None` without Leases.
    pub fn longest_renewal_gap(&self, api_latency: Millis) -> Option<Millis> {
        self.node_lease
            .then(|| Kubelet::longest_wait(self.lease_renew) + api_latency)
    }
}

/// One node's kubelet.
#[derive(Debug, Clone)]
pub struct Kubelet {
    /// The fault the node is in, if any.
    pub fault: Option<ActionKind>,
    /// When the last status report succeeded (`lastStatusReportTime`); `None` after a restart.
    pub last_report: Option<Millis>,
    pub(crate) report_offset: Millis,
    /// The current sleep of `backoffEnsureLease`, when the lease loop is retrying.
    pub lease_backoff: Option<Millis>,
    pub(crate) status_rng: Rng,
    pub(crate) lease_rng: Rng,
    /// Whether the shutdown manager is shutting the node down (between `PrepareForShutdown` and
    /// the power-off): the status reports Ready=False and new pods are refused.
    pub shutting_down: bool,
}

impl Kubelet {
    /// A healthy kubelet whose last report happened at `last_report`.
    pub fn new(seed: u64, node: NodeId, last_report: Millis) -> Kubelet {
        Kubelet {
            fault: None,
            last_report: Some(last_report),
            report_offset: 0,
            lease_backoff: None,
            status_rng: Rng::stream(seed, Stream::KubeletStatus(node)),
            lease_rng: Rng::stream(seed, Stream::KubeletLease(node)),
            shutting_down: false,
        }
    }

    /// Whether the kubelet process runs.
    pub fn running(&self) -> bool {
        !self
            .fault
            .is_some_and(|f| f.powers_off() || f == ActionKind::KubeletStop)
    }

    /// Whether the node's kube-proxy runs and reaches the apiserver (a stopped kubelet leaves it
    /// running; a crash, a shutdown or a partition does not).
    pub fn proxy_connected(&self) -> bool {
        !self
            .fault
            .is_some_and(|f| f.powers_off() || f == ActionKind::NetworkPartition)
    }

    /// Whether its requests reach the apiserver.
    pub fn reachable(&self) -> bool {
        self.fault.is_none()
    }

    /// Whether a heartbeat request succeeds now: the apiserver is reachable, the Node object
    /// exists, and the API answers within the heartbeat client's timeout.
    pub fn heartbeat_succeeds(&self, n: NodeId, api: &Api, s: &KubeletSettings) -> bool {
        self.reachable() && api.nodes[n].exists && api.api_latency < s.request_timeout
    }

    /// Draws a uniform phase in `[0, period)` for a loop's first run.
    pub fn phase(&mut self, period: Millis) -> Millis {
        self.status_rng.below(period.max(1) as u64) as Millis
    }

    /// The longest wait after a loop iteration of `period`, jitter included, ms.
    pub fn longest_wait(period: Millis) -> Millis {
        period * 104 / 100
    }

    /// The wait after a loop iteration: `period·(1 + U[0, 0.04))` with jitter, else `period`
    /// (`wait.JitterUntil(…, 0.04, sliding)`).
    pub fn jittered(rng: &mut Rng, period: Millis, jitter: bool) -> Millis {
        if jitter {
            period + (period as f64 * 0.04 * rng.unit()) as Millis
        } else {
            period
        }
    }

    /// One run of the status loop at `now`; returns the wait until the next run.
    pub fn sync_node_status(
        &mut self,
        now: Millis,
        n: NodeId,
        api: &mut Api,
        log: &mut Log,
        s: &KubeletSettings,
    ) -> Millis {
        let next =
            Self::jittered(&mut self.status_rng, s.update, s.status_jitter) + api.api_latency.min(s.request_timeout);
        if !self.heartbeat_succeeds(n, api, s) {
            // All nodeStatusUpdateRetry (5) attempts fail; nothing reaches the apiserver.
            return next;
        }
        let current = api.nodes[n].status.latest();
        // While shutting down, the shutdown manager's status setter reports Ready=False.
        let want = if self.shutting_down {
            CondStatus::False
        } else {
            CondStatus::True
        };
        let changed = current.ready_status() != Some(want) || current.memory_pressure.is_none();
        let since = self.last_report.map(|t| now - t);
        // Without Leases (before 1.14, or NodeLease off) the status is the heartbeat: every tick patches.
        let due = !s.node_lease || since.is_none_or(|d| d >= s.report + self.report_offset);
        if !(changed || due) {
            return next;
        }
        let status = NodeStatus::reported(now, &current, want);
        api.patch_node_status(now, n, status);
        self.last_report = Some(now);
        self.report_offset = if changed && s.report_offset {
            // Uniform in [-R/2, +R/2].
            (self.status_rng.unit() * s.report as f64) as Millis - s.report / 2
        } else {
            0
        };
        if changed
            && self.shutting_down
            && current.ready_status() != Some(want)
            && log.wants(now, EventKind::NodeNotReady)
        {
            let cause = Cause::new("cause.kubelet.shutting_down").text("message", shutdown::NODE_SHUTTING_DOWN_MESSAGE);
            let shutdown = log.index.silenced(n);
            log.push(Event::new(now, EventKind::NodeNotReady, cause).node(n).after(shutdown));
        } else if changed && !self.shutting_down && log.wants(now, EventKind::NodeReady) {
            let before = current.ready_status().map_or(Cause::new("cause.part.no_ready"), |c| {
                Cause::new("cause.part.ready_was").text("status", c)
            });
            let cause = Cause::new("cause.kubelet.ready").sub("before", before);
            let back = log.index.node(n).and_then(|m| m.back);
            log.push(Event::new(now, EventKind::NodeReady, cause).node(n).after(back));
        }
        if log.wants(now, EventKind::NodeStatusPatched) {
            let why = if changed {
                Cause::new("cause.part.status_changed")
            } else {
                match since {
                    Some(d) => Cause::new("cause.part.report_due")
                        .time("since", d)
                        .time("report", s.report + self.report_offset),
                    None => Cause::new("cause.part.first_report"),
                }
            };
            log.push(
                Event::new(
                    now,
                    EventKind::NodeStatusPatched,
                    Cause::new("cause.kubelet.patched")
                        .time("every", s.update)
                        .sub("why", why),
                )
                .node(n),
            );
        }
        next
    }

    /// A fresh process after a stop: no report yet, no cached lease.
    pub fn restart(&mut self) {
        self.last_report = None;
        self.report_offset = 0;
        self.shutting_down = false;
        self.lease_backoff = None;
    }
}

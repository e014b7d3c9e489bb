//! Dormant nodes: how a healthy node costs a monitor pass nothing, with the same outcome.
//!
//! A quiet node (counted, Ready=True, untainted, nothing to retry) whose kubelet's heartbeats are
//! steady (both loops parked: every renewal succeeds, nothing changes but heartbeat times) can
//! never be marked Unknown while the grace period exceeds the longest gap between two probe
//! refreshes. Passes then skip it: it counts as Ready in its zone, and its health record is left
//! as it was. When anything could make it matter again (a fault, a taint, a deletion, a latency
//! change) the driver wakes it: its kubelet's skipped iterations run, leaving snapshots of the
//! Lease and status it wrote, and [`NodeLifecycleController::wake`] replays every skipped pass on
//! the record with exactly the rule a quiet pass applies (`tryUpdateNodeHealth`): a new status
//! heartbeat rebuilds the record without its saved lease, a newer Lease moves the probe.

use super::{NodeHealth, NodeLifecycleController};
use crate::api::{Api, CondStatus, NodeId, NodeStatus, Versioned, WriteHistory};
use crate::time::{Millis, SECOND};
use std::collections::BTreeSet;

/// A node's status and Lease objects as they were when it went dormant.
type Objects = Box<(Versioned<NodeStatus>, Versioned<Option<Millis>>)>;

/// The controller's bookkeeping of dormant nodes.
#[derive(Debug, Clone, Default)]
pub struct Dormancy {
    /// Whether nodes may go dormant: set by the driver when the configuration bounds the gap
    /// between probe refreshes below the grace period.
    pub allowed: bool,
    /// Nodes whose kubelet heartbeats are steady, as the driver says.
    steady: Vec<bool>,
    /// Per dormant node: the index in `passes` of its first skipped pass, and the status and
    /// Lease objects as they were when it went dormant.
    since: Vec<Option<(usize, Objects)>>,
    /// Nodes that are not dormant, in index order: the ones a pass looks at.
    pub awake: BTreeSet<NodeId>,
    /// Dormant nodes per zone id (all of them count as Ready).
    pub per_zone: Vec<usize>,
    /// Each dormant node's zone id.
    zone_of: Vec<usize>,
    /// Times of every pass since the controller started.
    passes: Vec<Millis>,
    /// Passes at which every node's probe was reset (leaving master disruption mode).
    resets: Vec<Millis>,
}

impl Dormancy {
    /// Room for `n` nodes; new ones are awake.
    pub fn grow(&mut self, n: usize) {
        let old = self.since.len();
        if old < n {
            self.steady.resize(n, false);
            self.since.resize(n, None);
            self.awake.extend(old..n);
        }
    }

    /// Whether node `n` is dormant.
    pub fn is_dormant(&self, n: NodeId) -> bool {
        self.since.get(n).is_some_and(Option::is_some)
    }

    /// Whether any node is dormant.
    pub fn any(&self) -> bool {
        self.awake.len() < self.since.len()
    }

    /// Every dormant node with its zone id.
    pub fn dormant_zones(&self) -> Vec<(NodeId, usize)> {
        (0..self.since.len())
            .filter(|&n| self.since[n].is_some())
            .map(|n| (n, self.zone_of[n]))
            .collect()
    }

    /// The nodes whose heartbeats are steady.
    pub fn steady_nodes(&self) -> Vec<NodeId> {
        (0..self.steady.len()).filter(|&n| self.steady[n]).collect()
    }

    /// Records a pass.
    pub fn pass(&mut self, now: Millis) {
        self.passes.push(now);
    }

    /// Records that every probe was reset at `now`.
    pub fn reset(&mut self, now: Millis) {
        self.resets.push(now);
    }
}

impl NodeLifecycleController {
    /// Decides whether nodes may go dormant: when the configuration keeps every probe refresh of
    /// a node with steady heartbeats within the grace period. `renewal_gap` is the longest gap
    /// between two Lease renewals a healthy kubelet leaves, API round trip included (`None`
    /// without Leases). The gap, plus a pass, plus a second of margin, must stay below
    /// `--node-monitor-grace-period`, and the controller must read Leases. With no informer or
    /// API latency at all, ties within one millisecond would matter, so nodes stay awake.
    pub fn allow_dormancy(&mut self, renewal_gap: Option<Millis>, api: &Api) {
        let s = &self.settings;
        let pass = s.monitor_period + s.pass_duration;
        self.dormancy.allowed = renewal_gap.is_some_and(|gap| {
            s.reads_leases && api.api_latency + api.watch_latency > 0 && gap + pass + SECOND < s.grace
        });
    }

    /// The driver says whether node `n`'s kubelet heartbeats are steady. A node must be woken
    /// (with [`Self::wake`]) before its heartbeats stop being steady.
    pub fn set_steady(&mut self, n: NodeId, steady: bool) {
        self.dormancy.grow(n + 1);
        debug_assert!(
            steady || !self.dormancy.is_dormant(n),
            "a dormant node's heartbeats changed"
        );
        self.dormancy.steady[n] = steady;
    }

    /// Whether node `n` is dormant.
    pub fn is_dormant(&self, n: NodeId) -> bool {
        self.dormancy.is_dormant(n)
    }

    /// After a quiet pass over node `n`: it goes dormant if it may.
    pub(super) fn maybe_sleep(&mut self, n: NodeId, api: &Api) {
        let d = &mut self.dormancy;
        if !d.allowed || !d.steady.get(n).copied().unwrap_or(false) || !self.quiet[n] {
            return;
        }
        let node = &api.nodes[n];
        let view = Box::new((node.status, node.lease));
        d.since[n] = Some((d.passes.len(), view));
        d.awake.remove(&n);
        let zone = self.quiet_zone[n];
        if d.zone_of.len() <= n {
            d.zone_of.resize(n + 1, 0);
        }
        d.zone_of[n] = zone;
        if d.per_zone.len() <= zone {
            d.per_zone.resize(zone + 1, 0);
        }
        d.per_zone[zone] += 1;
    }

    /// Wakes node `n`: replays the passes it slept through on its record, from what its kubelet
    /// wrote meanwhile (`history`, which must reach up to now).
    pub fn wake(&mut self, n: NodeId, history: &WriteHistory) {
        let Some((first, view)) = self.dormancy.since.get_mut(n).and_then(Option::take) else {
            return;
        };
        self.dormancy.awake.insert(n);
        self.dormancy.per_zone[self.quiet_zone[n]] -= 1;
        let (mut status, mut lease) = (view.0, view.1);
        let (mut si, mut li, mut ri) = (0, 0, 0);
        let reads_leases = self.settings.reads_leases;
        let Some(h) = self.health[n].as_mut() else { return };
        for &p in &self.dormancy.passes[first..] {
            // What the informer showed at this pass: the objects as of the last write before it.
            while let Some((_, v)) = history.status.get(si).filter(|(t, _)| *t < p) {
                status = *v;
                si += 1;
            }
            while let Some((_, v)) = history.lease.get(li).filter(|(t, _)| *t < p) {
                lease = *v;
                li += 1;
            }
            quiet_step(h, p, status.observed_ref(p), *lease.observed_ref(p), reads_leases);
            while let Some(&r) = self.dormancy.resets.get(ri) {
                if r > p {
                    break;
                }
                if r == p {
                    h.probe = p;
                    h.ready_transition = p;
                }
                ri += 1;
            }
        }
    }
}

/// What one pass does to the record of a quiet node (`tryUpdateNodeHealth` when the node stays
/// Ready): a new status heartbeat rebuilds the record from now without the saved lease, and a
/// Lease newer than the saved one (compared with the lease saved before any rebuild) moves the
/// probe.
fn quiet_step(h: &mut NodeHealth, p: Millis, status: &NodeStatus, lease: Option<Millis>, reads_leases: bool) {
    let saved_lease = h.lease;
    if let (Some(cur), Some(saved)) = (status.ready, h.status.ready) {
        if cur.heartbeat != saved.heartbeat {
            debug_assert_eq!(cur.status, CondStatus::True);
            let ready_transition = if cur.transition != saved.transition {
                p
            } else {
                h.ready_transition
            };
            *h = NodeHealth {
                status: *status,
                probe: p,
                ready_transition,
                lease: None,
            };
        }
    }
    if reads_leases {
        if let Some(renew) = lease {
            if saved_lease.is_none_or(|s| s < renew) {
                h.lease = Some(renew);
                h.probe = p;
            }
        }
    }
}

//! Zones: disruption states and the per-zone tainting queues (`ComputeZoneState`,
//! `handleDisruption`, `ReducedQPSFunc`, `HealthyQPSFunc`).

use super::NodeLifecycleController;
use crate::api::{same_text, Api, NodeId};
use crate::cause::Cause;
use crate::control_plane::rate_limited_queue::RateLimitedTimedQueue;
use crate::time::Millis;
use crate::timeline::{latest, Event, EventId, EventKind, Log, ZoneState};

/// One zone's state and taint queue.
#[derive(Debug, Clone)]
pub struct Zone {
    /// Shown name.
    pub display: String,
    /// Disruption state.
    pub state: ZoneState,
    /// The NoExecute tainting queue.
    pub queue: RateLimitedTimedQueue,
    /// Its last recorded `ZoneStateChanged`: a taint its queue applies may follow it (tainting
    /// resumes when the zone leaves a state that stops it).
    pub changed: Option<EventId>,
}

/// The zones the controller knows: each by a dense id, in key order, with every node's zone id
/// remembered, so that counting a node costs no search. A zone without counted nodes is
/// forgotten (`None`) and starts from `Initial` when it comes back, as upstream's `zoneStates`.
#[derive(Debug, Clone, Default)]
pub struct Zones {
    live: Vec<Option<Zone>>,
    keys: Vec<String>,
    displays: Vec<String>,
    /// Ids in key order, searched by key: a sorted list rather than a map by key, so that the
    /// worker carries no B-tree of its own for it.
    order: Vec<usize>,
    /// Each node's zone id as last looked up (`usize::MAX` before).
    node_zone: Vec<usize>,
}

impl Zones {
    /// Node `n`'s zone id (its `zone_key` may have changed since the last look).
    pub fn id_of(&mut self, api: &Api, n: NodeId) -> usize {
        let node = &api.nodes[n];
        if self.node_zone.len() <= n {
            self.node_zone.resize(api.nodes.len().max(n + 1), usize::MAX);
        }
        let cached = self.node_zone[n];
        if cached < self.keys.len() && same_text(&self.keys[cached], &node.zone_key) {
            return cached;
        }
        let id = match self.find(&node.zone_key) {
            Ok(at) => self.order[at],
            Err(at) => {
                let id = self.keys.len();
                self.keys.push(node.zone_key.clone());
                self.displays.push(node.zone.clone());
                self.live.push(None);
                self.order.insert(at, id);
                id
            }
        };
        self.node_zone[n] = id;
        id
    }

    /// Node `n`'s zone id as the current monitor pass found it (looked up if it never was).
    pub fn of(&mut self, api: &Api, n: NodeId) -> usize {
        match self.node_zone.get(n) {
            Some(&id) if id < self.keys.len() => id,
            _ => self.id_of(api, n),
        }
    }

    /// Where the zone with this key is in `order`, or where it would go.
    fn find(&self, key: &str) -> Result<usize, usize> {
        self.order.binary_search_by(|&id| self.keys[id].as_str().cmp(key))
    }

    /// How many zone ids there are.
    pub fn count(&self) -> usize {
        self.keys.len()
    }

    /// The live zone with this id.
    pub fn get_mut(&mut self, id: usize) -> Option<&mut Zone> {
        self.live.get_mut(id).and_then(Option::as_mut)
    }

    /// The live zone with this key, as tests and callers that hold a key look it up.
    pub fn by_key(&self, key: &str) -> Option<&Zone> {
        let at = self.find(key).ok()?;
        self.live[self.order[at]].as_ref()
    }

    /// Creates zone `id` if it is not live, with a full bucket at `qps`.
    pub fn ensure(&mut self, id: usize, qps: f64) {
        if self.live[id].is_none() {
            self.live[id] = Some(Zone {
                display: self.displays[id].clone(),
                state: ZoneState::Initial,
                queue: RateLimitedTimedQueue::new(qps),
                changed: None,
            });
        }
    }

    /// Live zone ids in key order.
    pub fn live_ids(&self) -> Vec<usize> {
        self.order
            .iter()
            .copied()
            .filter(|&id| self.live[id].is_some())
            .collect()
    }

    /// Forgets zone `id`.
    pub fn forget(&mut self, id: usize) {
        self.live[id] = None;
    }

    /// Whether every live zone's queue is empty.
    pub fn queues_empty(&self) -> bool {
        self.live.iter().flatten().all(|z| z.queue.is_empty())
    }

    /// Whether every live zone is in `state`.
    pub fn all_in(&self, state: ZoneState) -> bool {
        self.live.iter().flatten().all(|z| z.state == state)
    }
}

impl std::ops::Index<&str> for Zones {
    type Output = Zone;

    fn index(&self, key: &str) -> &Zone {
        self.by_key(key).expect("a live zone with this key")
    }
}

/// The zone state (`ComputeZoneState`) from counts: `ready` of `total` counted nodes are
/// Ready=True; returns (not ready, state).
pub fn zone_state(ready: usize, total: usize, unhealthy_threshold: f64) -> (usize, ZoneState) {
    let not_ready = total - ready;
    let state = if ready == 0 && not_ready > 0 {
        ZoneState::FullDisruption
    } else if not_ready > 2 && (not_ready as f32) / (total as f32) >= unhealthy_threshold as f32 {
        ZoneState::PartialDisruption
    } else {
        ZoneState::Normal
    };
    (not_ready, state)
}

impl NodeLifecycleController {
    /// `handleDisruption`: zone states, limiter rates and master disruption mode. `counts` holds,
    /// per zone id, the Ready=True and the total counted nodes of this pass.
    pub fn handle_disruption(
        &mut self,
        now: Millis,
        counts: &[(usize, usize)],
        nodes: &[NodeId],
        api: &mut Api,
        log: &mut Log,
    ) {
        let mut new_states: Vec<Option<(ZoneState, usize)>> = vec![None; self.zones.count()];
        let mut all_are_full = true;
        for (id, new_state) in new_states.iter_mut().enumerate() {
            let (ready, total) = counts.get(id).copied().unwrap_or((0, 0));
            if total == 0 {
                // Zones without counted nodes are forgotten.
                self.zones.forget(id);
                continue;
            }
            let (not_ready, state) = zone_state(ready, total, self.settings.unhealthy_zone_threshold);
            if state != ZoneState::FullDisruption {
                all_are_full = false;
            }
            *new_state = Some((state, not_ready));
            self.zones.ensure(id, self.settings.eviction_qps);
        }
        let all_were_full = self.zones.all_in(ZoneState::FullDisruption);
        if all_are_full && all_were_full {
            return;
        }
        let size = |id: usize| counts.get(id).map_or(0, |c| c.1);
        if all_are_full {
            self.enter_master_disruption(now, nodes, &new_states, &size, api, log);
            return;
        }
        if all_were_full {
            self.dormancy.reset(now);
            for &n in nodes {
                if let Some(h) = self.health[n].as_mut() {
                    h.probe = now;
                    h.ready_transition = now;
                }
            }
        }
        for id in self.zones.live_ids() {
            let (state, not_ready) = new_states[id].unwrap_or((ZoneState::Normal, 0));
            let current = self.zones.get_mut(id).expect("live").state;
            if current == state && !all_were_full {
                continue;
            }
            let qps = self.limiter_rate(state, size(id));
            let z = self.zones.get_mut(id).expect("live");
            z.queue.swap_limiter(qps, now);
            z.state = state;
            if current != state {
                let why = self.state_change_cause(state, qps, not_ready, size(id), all_were_full);
                // The zone's node whose Ready change tipped it.
                let zone_nodes = nodes.iter().filter(|&&n| self.zones.of(api, n) == id);
                let after = latest(zone_nodes.map(|&n| log.index.ready_or_registered(n)));
                zone_event(now, log, self.zones.get_mut(id).expect("live"), current, (why, after));
            }
        }
    }

    /// Every zone is fully disrupted: the controller suspects itself (master disruption), stops
    /// tainting everywhere and removes the NoExecute taints it added.
    fn enter_master_disruption(
        &mut self,
        now: Millis,
        nodes: &[NodeId],
        new_states: &[Option<(ZoneState, usize)>],
        size: &dyn Fn(usize) -> usize,
        api: &mut Api,
        log: &mut Log,
    ) {
        // The node whose Ready change left no zone with a Ready node.
        let last_change = latest(nodes.iter().map(|&n| log.index.ready_or_registered(n)));
        for &n in nodes {
            if self.settings.legacy_pod_eviction_timeout.is_some() {
                self.cancel_pod_eviction(n, api);
            } else {
                let cause = Cause::new("cause.nlc.master_disruption");
                self.mark_node_as_reachable(now, n, api, log, (&cause, last_change));
            }
        }
        for id in self.zones.live_ids() {
            let not_ready = new_states[id].map_or(0, |s| s.1);
            let z = self.zones.get_mut(id).expect("live");
            z.queue.swap_limiter(0.0, now);
            let from = z.state;
            z.state = ZoneState::FullDisruption;
            if from != ZoneState::FullDisruption {
                let why = Cause::new("cause.zone.all_full")
                    .text("not_ready", not_ready)
                    .text("size", size(id));
                zone_event(now, log, z, from, (why, last_change));
            }
        }
    }

    fn state_change_cause(&self, state: ZoneState, qps: f64, not_ready: usize, size: usize, reset: bool) -> Cause {
        let s = &self.settings;
        let key = match state {
            ZoneState::Normal => "cause.zone.normal",
            ZoneState::PartialDisruption if qps > 0.0 => "cause.zone.partial_slow",
            ZoneState::PartialDisruption => "cause.zone.partial_stop",
            ZoneState::FullDisruption => "cause.zone.full",
            ZoneState::Initial => "cause.part.empty",
        };
        let reset = if reset {
            Cause::new("cause.part.master_reset")
        } else {
            Cause::none()
        };
        Cause::new(key)
            .text("not_ready", not_ready)
            .text("size", size)
            .text("rate", s.eviction_qps)
            .text("threshold", s.unhealthy_zone_threshold)
            .text("large", s.large_cluster_threshold)
            .text("secondary", s.secondary_qps)
            .sub("reset", reset)
    }

    fn limiter_rate(&self, state: ZoneState, zone_size: usize) -> f64 {
        match state {
            ZoneState::PartialDisruption => {
                // ReducedQPSFunc: compares the zone's size, strictly.
                if zone_size > self.settings.large_cluster_threshold as usize {
                    self.settings.secondary_qps
                } else {
                    0.0
                }
            }
            // HealthyQPSFunc serves Normal and FullDisruption alike.
            _ => self.settings.eviction_qps,
        }
    }
}

fn zone_event(now: Millis, log: &mut Log, z: &mut Zone, from: ZoneState, (why, after): (Cause, Option<EventId>)) {
    if log.wants(now, EventKind::ZoneStateChanged) {
        let cause = Cause::new("cause.zone.changed")
            .text("from", from)
            .text("to", z.state)
            .sub("why", why);
        let mut e = Event::new(now, EventKind::ZoneStateChanged, cause);
        e.zone = Some(z.display.clone());
        e.state = Some(z.state);
        z.changed = log.push(e.after(after)).or(z.changed);
    }
}

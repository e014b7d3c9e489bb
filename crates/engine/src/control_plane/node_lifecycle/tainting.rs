//! NoExecute and NoSchedule taints by condition (`processTaintBaseEviction`,
//! `markNodeForTainting`, `markNodeAsReachable`, `doNoExecuteTaintingPass`,
//! `doNoScheduleTaintingPass`).

use super::NodeLifecycleController;
use crate::api::client::Controller;
use crate::api::{
    Api, CondStatus, DeferredWrite, Effect, NodeId, Taint, TAINT_DISK_PRESSURE, TAINT_MEMORY_PRESSURE,
    TAINT_NETWORK_UNAVAILABLE, TAINT_NOT_READY, TAINT_PID_PRESSURE, TAINT_UNREACHABLE, TAINT_UNSCHEDULABLE,
};
use crate::cause::Cause;
use crate::control_plane::rate_limited_queue::TryResult;
use crate::time::Millis;
use crate::timeline::{Event, EventId, EventKind, Log};
use crate::world::World;

impl NodeLifecycleController {
    /// `processTaintBaseEviction`: acts on the Ready status observed at the start of the pass.
    pub fn process_taint_based_eviction(
        &mut self,
        now: Millis,
        n: NodeId,
        observed: CondStatus,
        api: &mut Api,
        log: &mut Log,
    ) {
        match observed {
            CondStatus::False | CondStatus::Unknown => {
                let (want, other) = if observed == CondStatus::False {
                    (TAINT_NOT_READY, TAINT_UNREACHABLE)
                } else {
                    (TAINT_UNREACHABLE, TAINT_NOT_READY)
                };
                if api.nodes[n].has_taint(other, Effect::NoExecute) {
                    // Swap straight away, without the rate limiter.
                    let cause = Cause::new("cause.nlc.swap")
                        .text("ready", observed)
                        .text("other", other)
                        .text("want", want);
                    swap_no_execute(now, n, (want, other), api, log, (&cause, None));
                } else {
                    self.mark_node_for_tainting(now, n, observed, api);
                }
            }
            CondStatus::True => {
                let cause = Cause::new("cause.nlc.reachable_again");
                let after = log.index.ready(n);
                self.mark_node_as_reachable(now, n, api, log, (&cause, after));
            }
        }
    }

    /// `markNodeForTainting`: (re-)enqueues the node in its zone's queue.
    pub fn mark_node_for_tainting(&mut self, now: Millis, n: NodeId, status: CondStatus, api: &Api) -> bool {
        let node = &api.nodes[n];
        let key = if status == CondStatus::False {
            TAINT_NOT_READY
        } else {
            TAINT_UNREACHABLE
        };
        let id = self.zones.of(api, n);
        let zone = self
            .zones
            .get_mut(id)
            .expect("zone created when the node was registered");
        if !node.has_taint(key, Effect::NoExecute) {
            zone.queue.remove(&n);
        }
        let added = zone.queue.add(n, now);
        if added {
            // A pass that waited for its predecessor's requests queues its nodes late.
            self.queued_late[n] = self.late_pass.filter(|l| l.sent > l.previous);
            self.first_queued[n].get_or_insert(now);
        }
        added
    }

    /// `markNodeAsReachable`: removes both NoExecute taints and drops the node from its queue.
    /// `after` is the event that made the node count as reachable.
    pub fn mark_node_as_reachable(
        &mut self,
        now: Millis,
        n: NodeId,
        api: &mut Api,
        log: &mut Log,
        (cause, after): (&Cause, Option<EventId>),
    ) -> bool {
        if let Some(q) = self.first_queued.get_mut(n) {
            *q = None;
        }
        for key in [TAINT_UNREACHABLE, TAINT_NOT_READY] {
            if api.nodes[n].has_taint(key, Effect::NoExecute) {
                let event = Event::new(now, EventKind::TaintRemoved, cause.clone())
                    .node(n)
                    .taint(format!("{key}:NoExecute"))
                    .after(after);
                patch_taints(
                    now,
                    n,
                    Vec::new(),
                    vec![(key, Effect::NoExecute)],
                    vec![event],
                    api,
                    log,
                );
            }
        }
        let id = self.zones.of(api, n);
        self.zones.get_mut(id).is_some_and(|z| z.queue.remove(&n))
    }

    /// One tick of the NoExecute tainting loop (`doNoExecuteTaintingPass`, every 100 ms).
    pub fn do_no_execute_tainting_pass(&mut self, w: &mut World) {
        let now = w.now;
        let World { api, log, .. } = w;
        let eviction_qps = self.settings.eviction_qps;
        let period = self.settings.monitor_period;
        let queued_late = &self.queued_late;
        let first_queued = &self.first_queued;
        let limits = api.clients.limits();
        for id in self.zones.live_ids() {
            let zone = self.zones.get_mut(id).expect("live");
            if zone.queue.is_empty() {
                continue;
            }
            let qps = zone.queue.limiter.qps;
            let zone_name = zone.display.clone();
            let state = zone.state;
            let zone_changed = zone.changed;
            zone.queue.try_process(now, |item| {
                let n = item.value;
                if !api.nodes[n].exists {
                    return TryResult::Done;
                }
                let Some(ready) = api.nodes[n].status.observed(now).ready else {
                    return TryResult::RetryAfter(50);
                };
                let (want, other) = match ready.status {
                    CondStatus::False => (TAINT_NOT_READY, TAINT_UNREACHABLE),
                    CondStatus::Unknown => (TAINT_UNREACHABLE, TAINT_NOT_READY),
                    CondStatus::True => return TryResult::Done,
                };
                let waited = now - item.added_at;
                let rate = if qps == eviction_qps {
                    Cause::new("cause.part.rate_flag").text("qps", qps)
                } else {
                    Cause::new("cause.part.rate_state")
                        .text("qps", qps)
                        .text("state", state)
                };
                let cause = if waited <= 100 {
                    Cause::new("cause.nlc.tainted_tick")
                } else {
                    let first = first_queued.get(n).copied().flatten().unwrap_or(item.added_at);
                    Cause::new("cause.nlc.tainted_held")
                        .time("waited", waited)
                        .time("first", first)
                        .time("queued", now - first)
                }
                .text("ready", ready.status)
                .time("added", item.added_at)
                .time("period", period)
                .text("zone", format!("{zone_name:?}"))
                .sub("rate", rate);
                let cause = match queued_late.get(n).copied().flatten() {
                    Some(late) => Cause::new("cause.nlc.queued_late")
                        .sub("taint", cause)
                        .time("late", late.sent - late.previous)
                        .time("previous", late.previous)
                        .time("sent", late.sent)
                        .text("qps", limits.0)
                        .text("burst", limits.1),
                    None => cause,
                };
                swap_no_execute(now, n, (want, other), api, log, (&cause, zone_changed));
                TryResult::Done
            });
        }
    }

    /// `doNoScheduleTaintingPass` for one node: NoSchedule taints follow its conditions.
    pub fn do_no_schedule_tainting_pass(&mut self, w: &mut World, n: NodeId) {
        let now = w.now;
        let World { api, log, .. } = w;
        let node = &api.nodes[n];
        if !node.exists {
            return;
        }
        let status = node.status.latest();
        let mut want: Vec<(&str, &str)> = Vec::new();
        if let Some(r) = status.ready {
            match r.status {
                CondStatus::False => want.push((TAINT_NOT_READY, "Ready=False")),
                CondStatus::Unknown => want.push((TAINT_UNREACHABLE, "Ready=Unknown")),
                CondStatus::True => {}
            }
        }
        for (c, key, name) in [
            (status.memory_pressure, TAINT_MEMORY_PRESSURE, "MemoryPressure=True"),
            (status.disk_pressure, TAINT_DISK_PRESSURE, "DiskPressure=True"),
            (status.pid_pressure, TAINT_PID_PRESSURE, "PIDPressure=True"),
            (
                status.network_unavailable,
                TAINT_NETWORK_UNAVAILABLE,
                "NetworkUnavailable=True",
            ),
        ] {
            if c.is_some_and(|c| c.status == CondStatus::True) {
                want.push((key, name));
            }
        }
        if node.unschedulable {
            want.push((TAINT_UNSCHEDULABLE, "spec.unschedulable"));
        }
        let managed = [
            TAINT_NOT_READY,
            TAINT_UNREACHABLE,
            TAINT_MEMORY_PRESSURE,
            TAINT_DISK_PRESSURE,
            TAINT_PID_PRESSURE,
            TAINT_NETWORK_UNAVAILABLE,
            TAINT_UNSCHEDULABLE,
        ];
        let remove: Vec<(&str, Effect)> = node
            .taints
            .iter()
            .filter(|t| {
                t.effect == Effect::NoSchedule
                    && managed.contains(&t.key.as_str())
                    && !want.iter().any(|(k, _)| *k == t.key)
            })
            .map(|t| {
                (
                    managed.iter().copied().find(|k| *k == t.key).expect("filtered"),
                    Effect::NoSchedule,
                )
            })
            .collect();
        let add: Vec<(Taint, &str)> = want
            .iter()
            .filter(|(k, _)| !node.has_taint(k, Effect::NoSchedule))
            .map(|&(k, why)| (Taint::new(k, Effect::NoSchedule, now), why))
            .collect();
        if add.is_empty() && remove.is_empty() {
            return;
        }
        let mut events: Vec<Event> = remove
            .iter()
            .map(|(key, _)| {
                Event::new(
                    now,
                    EventKind::TaintRemoved,
                    Cause::new("cause.nlc.no_schedule_removed"),
                )
                .node(n)
                .taint(format!("{key}:NoSchedule"))
            })
            .collect();
        for (t, why) in &add {
            let cause = Cause::new("cause.nlc.no_schedule_added").text("why", why);
            // A cordon's taint follows the cordon; the others follow the node's conditions.
            let after = match t.key.as_str() {
                TAINT_UNSCHEDULABLE => log.index.node(n).and_then(|m| m.cordoned),
                _ => log.index.ready(n),
            };
            let e = Event::new(now, EventKind::TaintAdded, cause).node(n).taint(t.label());
            events.push(e.after(after));
        }
        let add_taints: Vec<Taint> = add.into_iter().map(|(t, _)| t).collect();
        patch_taints(now, n, add_taints, remove, events, api, log);
    }
}

/// Swaps node `n`'s NoExecute taint `other` for `want`, for `cause`; the events follow the
/// node's Ready change, or `zone_changed` (the zone's state change that let its queue taint
/// again) if that came at a later instant (one at the same instant is the Ready change's own
/// consequence).
fn swap_no_execute(
    now: Millis,
    n: NodeId,
    (want, other): (&str, &str),
    api: &mut Api,
    log: &mut Log,
    (cause, zone_changed): (&Cause, Option<EventId>),
) {
    let ready = log.index.ready_or_registered(n);
    let at = |id: Option<EventId>| id.and_then(|i| log.events.get(i)).map(|e| e.at);
    let after = match zone_changed {
        Some(_) if at(zone_changed) > at(ready) => zone_changed,
        _ => ready,
    };
    let events = vec![
        Event::new(now, EventKind::TaintRemoved, cause.clone())
            .node(n)
            .taint(format!("{other}:NoExecute"))
            .after(after),
        Event::new(now, EventKind::TaintAdded, cause.clone())
            .node(n)
            .taint(format!("{want}:NoExecute"))
            .after(after),
    ];
    let add = vec![Taint::new(want, Effect::NoExecute, now)];
    patch_taints(now, n, add, vec![(other, Effect::NoExecute)], events, api, log);
}

/// One taint PATCH by the node lifecycle controller (`SwapNodeControllerTaint`: a GET of the
/// node, then the PATCH), through its client; each event is recorded if its taint changed.
fn patch_taints(
    now: Millis,
    n: NodeId,
    add: Vec<Taint>,
    remove: Vec<(&str, Effect)>,
    events: Vec<Event>,
    api: &mut Api,
    log: &mut Log,
) {
    // The node lifecycle controller taints by the node's Ready condition: each change follows
    // the Ready change it recorded last, or the Node's registration (Ready at once) if that came
    // later, unless it says otherwise.
    let ready = log.index.ready_or_registered(n);
    let events = events
        .into_iter()
        .map(|e| if e.after.is_some() { e } else { e.after(ready) })
        .collect();
    let write = DeferredWrite::Taints {
        node: n,
        add,
        remove: remove.into_iter().map(|(k, e)| (k.to_string(), e)).collect(),
        events,
    };
    api.issue(Controller::NodeLifecycle, now, (2, 0), write, log);
}

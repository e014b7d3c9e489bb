//! The legacy eviction path, before taint-based eviction (`processNoTaintBaseEviction`,
//! `evictPods`, `cancelPodEviction`, `doEvictionPass`, `DeletePods`): pods are deleted
//! `--pod-eviction-timeout` after the last heartbeat seen.

use super::{EvictionStatus, NodeLifecycleController};
use crate::api::client::Controller;
use crate::api::{Api, CondStatus, Condition, DeferredWrite, NodeId};
use crate::cause::Cause;
use crate::control_plane::rate_limited_queue::TryResult;
use crate::time::Millis;
use crate::timeline::{Event, EventKind, Log};
use crate::world::World;

impl NodeLifecycleController {
    /// `processNoTaintBaseEviction`: the legacy path. Pods go once `--pod-eviction-timeout` has
    /// passed since the last heartbeat seen (Unknown) or since Ready turned False.
    pub fn process_no_taint_based_eviction(
        &mut self,
        now: Millis,
        n: NodeId,
        observed: Condition,
        api: &mut Api,
        log: &mut Log,
    ) {
        let Some(timeout) = self.settings.legacy_pod_eviction_timeout else {
            return;
        };
        let Some(h) = self.health.get(n).and_then(Option::as_ref) else {
            return;
        };
        let since = match observed.status {
            CondStatus::False => h.ready_transition,
            CondStatus::Unknown => h.probe,
            CondStatus::True => {
                self.cancel_pod_eviction(n, api);
                return;
            }
        };
        if now > since + timeout {
            let what = if observed.status == CondStatus::Unknown {
                "cause.part.from_heartbeat"
            } else {
                "cause.part.from_false"
            };
            let cause = Cause::new("cause.legacy.due")
                .time("timeout", timeout)
                .sub("what", Cause::new(what))
                .time("since", since);
            self.evict_pods(now, n, api, log, &cause);
        }
    }

    /// `evictPods`: queue the node in its zone's evictor, or delete at once if it was evicted before.
    fn evict_pods(&mut self, now: Millis, n: NodeId, api: &mut Api, log: &mut Log, cause: &Cause) {
        if self.eviction[n] == EvictionStatus::Evicted {
            let cause = Cause::new("cause.legacy.again").sub("why", cause.clone());
            delete_pods(now, n, api, log, &cause);
            return;
        }
        self.eviction[n] = EvictionStatus::ToBeEvicted;
        let zone = self.zones.of(api, n);
        if let Some(z) = self.zones.get_mut(zone) {
            z.queue.add(n, now);
        }
    }

    /// `cancelPodEviction`.
    pub(super) fn cancel_pod_eviction(&mut self, n: NodeId, api: &Api) {
        self.grow(api.nodes.len());
        self.eviction[n] = EvictionStatus::Unmarked;
        let zone = self.zones.of(api, n);
        if let Some(z) = self.zones.get_mut(zone) {
            z.queue.remove(&n);
        }
    }

    /// One tick of the legacy evictor (`doEvictionPass`, every 100 ms): the zone queues release
    /// nodes at their rate, and each released node's pods are deleted.
    pub fn do_eviction_pass(&mut self, w: &mut World) {
        let now = w.now;
        let World { api, log, .. } = w;
        let Some(timeout) = self.settings.legacy_pod_eviction_timeout else {
            return;
        };
        let eviction_qps = self.settings.eviction_qps;
        let health = &self.health;
        let mut evicted = Vec::new();
        for id in self.zones.live_ids() {
            let zone = self.zones.get_mut(id).expect("live");
            if zone.queue.is_empty() {
                continue;
            }
            let zone_name = zone.display.clone();
            let qps = zone.queue.limiter.qps;
            zone.queue.try_process(now, |item| {
                let n = item.value;
                let waited = now - item.added_at;
                let rate = if qps == eviction_qps {
                    Cause::new("cause.part.rate_flag").text("qps", qps)
                } else {
                    Cause::new("cause.part.rate").text("qps", qps)
                };
                // The timeout counted from the last heartbeat the controller saw (Unknown) or from
                // Ready turning False.
                let since = health
                    .get(n)
                    .and_then(Option::as_ref)
                    .map(|h| match h.status.ready_status() {
                        Some(CondStatus::False) => Cause::new("cause.part.since_false").time("at", h.ready_transition),
                        _ => Cause::new("cause.part.since_heartbeat").time("at", h.probe),
                    });
                let cause = Cause::new("cause.legacy.evicted")
                    .time("timeout", timeout)
                    .sub("since", since.unwrap_or_else(|| Cause::new("cause.part.since_last")))
                    .text("zone", format!("{zone_name:?}"))
                    .sub("rate", rate)
                    .time("waited", waited);
                delete_pods(now, n, api, log, &cause);
                evicted.push(n);
                TryResult::Done
            });
        }
        for n in evicted {
            self.eviction[n] = EvictionStatus::Evicted;
        }
    }
}

/// `DeletePods` of `controller_utils.go`: marks each pod `NodeLost` and deletes it gracefully,
/// skipping pods already being deleted and DaemonSet pods. Returns whether any pod remains.
pub fn delete_pods(now: Millis, n: NodeId, api: &mut Api, log: &mut Log, cause: &Cause) -> bool {
    let mut remaining = false;
    for p in api.nodes[n].pods.clone() {
        if api.pods[p].status_reason.is_none() {
            api.pods[p].status_reason = Some("NodeLost");
            api.count(now, |w| w.pod_status_updates += 1);
        }
        if api.pods[p].deletion_requested_at.is_some() {
            remaining = true;
            continue;
        }
        if api.pods[p].daemon {
            continue;
        }
        // The NodeLost status update, the DELETE and its event, through the node-controller client.
        remaining = true;
        let grace = api.pods[p].grace_seconds;
        let cause = Cause::new("cause.delete")
            .sub("why", cause.clone())
            .text("grace", grace);
        // The timeout runs from the node's Ready change that the controller recorded.
        let after = log.index.ready(n);
        let event = Event::new(now, EventKind::PodDeletionRequested, cause)
            .node(n)
            .pod(p)
            .after(after);
        api.issue(
            Controller::NodeLifecycle,
            now,
            (2, 1),
            DeferredWrite::PodDelete { pod: p, event },
            log,
        );
    }
    remaining
}

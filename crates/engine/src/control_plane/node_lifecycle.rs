//! The node lifecycle controller of kube-controller-manager.
//!
//! ```text
//!  informer view ──► monitor_node_health (every --node-monitor-period, sliding)
//!                      ├─ try_update_node_health: probe = own time of first seeing a heartbeat;
//!                      │    now > probe + grace ⇒ write Ready=Unknown, pods NotReady
//!                      ├─ process_taint_based_eviction (uses Ready as observed at pass start,
//!                      │    so the NoExecute taint is enqueued one pass after Unknown)
//!                      └─ handle_disruption: zone states, limiter swaps, master disruption
//!  zone queues ──────► do_no_execute_tainting_pass (every 100 ms): token bucket, burst 1
//!  node updates ─────► do_no_schedule_tainting_pass: NoSchedule taints by condition
//! ```
//!
//! Follows `pkg/controller/nodelifecycle/node_lifecycle_controller.go`. The controller keeps its
//! own clock readings and never compares kubelet timestamps with it; it only notices that a
//! heartbeat time changed.

use crate::api::{
    Api, CondStatus, Condition, Effect, NodeId, NodeStatus, PodId, Reason, Taint, LABEL_EXCLUDE_DISRUPTION,
    TAINT_DISK_PRESSURE, TAINT_MEMORY_PRESSURE, TAINT_NETWORK_UNAVAILABLE, TAINT_NOT_READY, TAINT_PID_PRESSURE,
    TAINT_UNREACHABLE, TAINT_UNSCHEDULABLE,
};
use crate::cause::Cause;
use crate::control_plane::rate_limited_queue::{RateLimitedTimedQueue, TryResult};
use crate::time::Millis;
use crate::timeline::{Event, EventKind, Log, ZoneState};
use std::collections::BTreeMap;

/// The controller's flags.
#[derive(Debug, Clone, PartialEq)]
pub struct NlcSettings {
    /// `--node-monitor-grace-period`, ms.
    pub grace: Millis,
    /// `--node-startup-grace-period`, ms.
    pub startup_grace: Millis,
    /// `--node-eviction-rate`, nodes/s.
    pub eviction_qps: f64,
    /// `--secondary-node-eviction-rate`, nodes/s.
    pub secondary_qps: f64,
    /// `--large-cluster-size-threshold`.
    pub large_cluster_threshold: u32,
    /// `--unhealthy-zone-threshold`.
    pub unhealthy_zone_threshold: f64,
    /// `Some(--pod-eviction-timeout)` when the legacy path deletes pods instead of tainting
    /// (`useTaintBasedEvictions` false), in ms.
    pub legacy_pod_eviction_timeout: Option<Millis>,
    /// Whether zone counting leaves out nodes by label (1.19+) or by a name ending in "master".
    pub exclusion_by_label: bool,
    /// Whether Lease renewals refresh the probe (1.13+).
    pub reads_leases: bool,
}

impl NlcSettings {
    /// The settings of the newest versions: taint-based, label exclusion, leases read.
    pub fn taint_based(
        grace: Millis,
        startup_grace: Millis,
        eviction_qps: f64,
        secondary_qps: f64,
        large_cluster_threshold: u32,
        unhealthy_zone_threshold: f64,
    ) -> Self {
        NlcSettings {
            grace,
            startup_grace,
            eviction_qps,
            secondary_qps,
            large_cluster_threshold,
            unhealthy_zone_threshold,
            legacy_pod_eviction_timeout: None,
            exclusion_by_label: true,
            reads_leases: true,
        }
    }
}

/// Where a node stands on the legacy eviction path (`nodeEvictionMap`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum EvictionStatus {
    /// Nothing planned.
    #[default]
    Unmarked,
    /// Queued in its zone's pod evictor.
    ToBeEvicted,
    /// Its pods were deleted once; later passes delete new pods at once.
    Evicted,
}

/// What the controller remembers of one node (`nodeHealthData`).
#[derive(Debug, Clone, PartialEq)]
pub struct NodeHealth {
    /// Controller time at which it last saw a heartbeat, ms.
    pub probe: Millis,
    /// Controller time at which it saw the Ready condition change, ms.
    pub ready_transition: Millis,
    /// The status as last saved.
    pub status: NodeStatus,
    /// The Lease `renewTime` as last saved; `None` also after a status heartbeat rebuilt the record.
    pub lease: Option<Millis>,
}

/// One zone's state and taint queue.
#[derive(Debug, Clone)]
pub struct Zone {
    /// Shown name.
    pub display: String,
    /// Disruption state.
    pub state: ZoneState,
    /// The NoExecute tainting queue.
    pub queue: RateLimitedTimedQueue<NodeId>,
}

/// Failures to inject into API calls, as upstream tests do with fake clients.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct InjectedFailures {
    /// Pod status updates that fail before one succeeds.
    pub pod_status_updates: u32,
    /// Pod listings that fail before one succeeds.
    pub pod_lists: u32,
}

/// The node lifecycle controller.
#[derive(Debug, Clone)]
pub struct NodeLifecycleController {
    /// Flags.
    pub settings: NlcSettings,
    /// Per node, by index.
    pub health: Vec<Option<NodeHealth>>,
    known: Vec<bool>,
    /// Zones by key.
    pub zones: BTreeMap<String, Zone>,
    nodes_to_retry: Vec<bool>,
    /// Legacy path: per node, whether its pods are queued for deletion or deleted.
    pub eviction: Vec<EvictionStatus>,
    /// Injected failures (tests only).
    pub failures: InjectedFailures,
}

fn grace_flag(startup: bool) -> &'static str {
    if startup {
        "node-startup-grace-period"
    } else {
        "node-monitor-grace-period"
    }
}

/// Whether a node is left out of zone disruption counting (`isNodeExcludedFromDisruptionChecks`).
pub fn is_excluded_from_disruption(api: &Api, n: NodeId) -> bool {
    api.nodes[n].labels.contains_key(LABEL_EXCLUDE_DISRUPTION)
}

/// Whether a name matches `master(-...)?$` the cheap way older controllers checked it
/// (`system.IsMasterNode`, used before the exclusion label).
pub fn is_master_node_name(name: &str) -> bool {
    if name.ends_with("master") {
        return true;
    }
    name.len() >= 10 && name[..name.len() - 3].ends_with("master-")
}

/// The zone state for a zone's Ready statuses (`ComputeZoneState`); returns (not ready, state).
pub fn compute_zone_state(ready: &[Option<CondStatus>], unhealthy_threshold: f64) -> (usize, ZoneState) {
    let ready_nodes = ready.iter().filter(|c| **c == Some(CondStatus::True)).count();
    let not_ready = ready.len() - ready_nodes;
    let state = if ready_nodes == 0 && not_ready > 0 {
        ZoneState::FullDisruption
    } else if not_ready > 2 && (not_ready as f32) / (ready.len() as f32) >= unhealthy_threshold as f32 {
        ZoneState::PartialDisruption
    } else {
        ZoneState::Normal
    };
    (not_ready, state)
}

impl NodeLifecycleController {
    /// A controller that has seen nothing yet.
    pub fn new(settings: NlcSettings) -> Self {
        NodeLifecycleController {
            settings,
            health: Vec::new(),
            known: Vec::new(),
            zones: BTreeMap::new(),
            nodes_to_retry: Vec::new(),
            eviction: Vec::new(),
            failures: InjectedFailures::default(),
        }
    }

    /// Forgets everything held in memory, as a restarted kube-controller-manager does.
    pub fn restart(&mut self) {
        let settings = self.settings.clone();
        *self = NodeLifecycleController::new(settings);
    }

    fn grow(&mut self, n: usize) {
        if self.health.len() < n {
            self.health.resize(n, None);
            self.known.resize(n, false);
            self.nodes_to_retry.resize(n, false);
            self.eviction.resize(n, EvictionStatus::Unmarked);
        }
    }

    fn ensure_zone(&mut self, api: &Api, n: NodeId) {
        let node = &api.nodes[n];
        self.zones.entry(node.zone_key.clone()).or_insert_with(|| Zone {
            display: node.zone.clone(),
            state: ZoneState::Initial,
            queue: RateLimitedTimedQueue::new(self.settings.eviction_qps),
        });
    }

    /// One monitor pass (`monitorNodeHealth`).
    pub fn monitor_node_health(&mut self, now: Millis, api: &mut Api, log: &mut Log) {
        self.grow(api.nodes.len());
        let nodes: Vec<NodeId> = (0..api.nodes.len()).filter(|&n| api.nodes[n].exists).collect();
        // classifyNodes: new nodes are registered and their NoExecute taints removed.
        for &n in &nodes {
            if !self.known[n] {
                self.known[n] = true;
                self.ensure_zone(api, n);
                if log.wants(now, EventKind::NodeRegistered) {
                    let zone = &api.nodes[n].zone;
                    log.push(
                        Event::new(
                            now,
                            EventKind::NodeRegistered,
                            Cause::new("cause.nlc.registered").text("zone", format!("{zone:?}")),
                        )
                        .node(n),
                    );
                }
                let cause = Cause::new("cause.nlc.reachable_startup");
                self.mark_node_as_reachable(now, n, api, log, &cause);
            } else if !self.zones.contains_key(&api.nodes[n].zone_key) {
                self.ensure_zone(api, n);
            }
        }
        for n in 0..self.known.len() {
            if self.known[n] && !api.nodes[n].exists {
                self.known[n] = false;
                self.health[n] = None;
            }
        }

        let mut zone_ready: BTreeMap<String, Vec<Option<CondStatus>>> = BTreeMap::new();
        for &n in &nodes {
            let (observed, current) = self.try_update_node_health(now, n, api, log);
            if !self.is_excluded(api, n) {
                let key = &api.nodes[n].zone_key;
                let status = current.map(|c| c.status);
                match zone_ready.get_mut(key) {
                    Some(list) => list.push(status),
                    None => {
                        zone_ready.insert(key.clone(), vec![status]);
                    }
                }
            }
            if let Some(current) = current {
                if self.failures.pod_lists > 0 {
                    self.failures.pod_lists -= 1;
                    if current.status != CondStatus::True && observed.status == CondStatus::True {
                        self.nodes_to_retry[n] = true;
                    }
                    continue;
                }
                if self.settings.legacy_pod_eviction_timeout.is_some() {
                    self.process_no_taint_based_eviction(now, n, observed, api, log);
                } else {
                    self.process_taint_based_eviction(now, n, observed.status, api, log);
                }
                let needs_retry = self.nodes_to_retry[n];
                let transition = current.status != CondStatus::True && observed.status == CondStatus::True;
                if transition && current.status == CondStatus::False && log.wants(now, EventKind::NodeNotReady) {
                    log.push(Event::new(now, EventKind::NodeNotReady, Cause::new("cause.nlc.not_ready")).node(n));
                }
                if transition || (needs_retry && observed.status != CondStatus::True) {
                    let why = if transition {
                        Cause::none()
                    } else {
                        Cause::new("cause.part.retry")
                    };
                    if !self.mark_pods_not_ready(now, n, current.status, api, log, &why) {
                        self.nodes_to_retry[n] = true;
                        continue;
                    }
                }
            }
            self.nodes_to_retry[n] = false;
        }
        self.handle_disruption(now, &zone_ready, &nodes, api, log);
    }

    /// Health bookkeeping for one node (`tryUpdateNodeHealth`), retried once with a fresh read
    /// when the Unknown write would conflict with a status the informer has not shown yet.
    /// Returns the Ready condition observed at the start and the current one.
    pub fn try_update_node_health(
        &mut self,
        now: Millis,
        n: NodeId,
        api: &mut Api,
        log: &mut Log,
    ) -> (Condition, Option<Condition>) {
        let node = &api.nodes[n];
        let view = node.status.observed(now);
        match self.evaluate(now, n, view, api) {
            Evaluation::Unchanged(observed, current) => (observed, current),
            Evaluation::WriteUnknown {
                observed,
                status,
                lease,
                startup,
            } => {
                if api.nodes[n].status.is_stale(now) {
                    // The UpdateStatus would fail with a conflict; upstream retries with a fresh GET,
                    // which shows the newer heartbeat.
                    let fresh = api.nodes[n].status.latest();
                    match self.evaluate(now, n, fresh, api) {
                        Evaluation::Unchanged(_, current) => return (observed, current),
                        Evaluation::WriteUnknown {
                            status: s,
                            lease: l,
                            startup: st,
                            ..
                        } => return self.write_unknown(now, n, observed, s, l, st, api, log),
                    }
                }
                self.write_unknown(now, n, observed, status, lease, startup, api, log)
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn write_unknown(
        &mut self,
        now: Millis,
        n: NodeId,
        observed: Condition,
        status: NodeStatus,
        lease: Option<Millis>,
        startup: bool,
        api: &mut Api,
        log: &mut Log,
    ) -> (Condition, Option<Condition>) {
        let probe = self.health[n].as_ref().map_or(now, |h| h.probe);
        api.update_node_status_by_controller(now, n, status);
        self.health[n] = Some(NodeHealth {
            status,
            probe,
            ready_transition: now,
            lease,
        });
        if log.wants(now, EventKind::NodeUnknown) {
            let grace = if startup {
                self.settings.startup_grace
            } else {
                self.settings.grace
            };
            let node = &api.nodes[n];
            let lease = node
                .lease
                .latest()
                .map(|renew| Cause::new("cause.part.seen_lease").time("ago", now - renew));
            let posted = Some(observed.heartbeat)
                .filter(|_| status.ready.is_some())
                .map(|hb| Cause::new("cause.part.seen_status").time("ago", now - hb));
            let seen = match (lease, posted) {
                (Some(a), Some(b)) => Cause::new("cause.part.pair").sub("a", a).sub("b", b),
                (Some(a), None) | (None, Some(a)) => a,
                (None, None) => Cause::none(),
            };
            let cause = Cause::new("cause.nlc.unknown")
                .sub("seen", seen)
                .time("silence", now - probe)
                .time("probe", probe)
                .text("flag", grace_flag(startup))
                .time("grace", grace);
            log.push(Event::new(now, EventKind::NodeUnknown, cause).node(n));
        }
        (observed, status.ready)
    }

    fn evaluate(&mut self, now: Millis, n: NodeId, status: NodeStatus, api: &Api) -> Evaluation {
        let node = &api.nodes[n];
        let created = node.created_at;
        let mut health = self.health[n].take();
        let current = status.ready;
        let (observed, grace) = match current {
            None => {
                // Never posted: a fake Unknown condition stamped with the creation time, and the
                // start-up grace period.
                let fake = Condition {
                    status: CondStatus::Unknown,
                    heartbeat: created,
                    transition: created,
                    reason: Reason::NodeStatusNeverUpdated,
                };
                match &mut health {
                    Some(h) => h.status = status,
                    None => {
                        health = Some(NodeHealth {
                            status,
                            probe: created,
                            ready_transition: created,
                            lease: None,
                        })
                    }
                }
                (fake, self.settings.startup_grace)
            }
            Some(c) => (c, self.settings.grace),
        };
        let saved_cond = health.as_ref().and_then(|h| h.status.ready);
        let saved_lease = health.as_ref().and_then(|h| h.lease);
        let fresh = |lease: Option<Millis>| NodeHealth {
            status,
            probe: now,
            ready_transition: now,
            lease,
        };
        let _ = fresh;
        health = match (health, saved_cond, current) {
            // No record yet: "assuming now as a timestamp".
            (None, _, _) => Some(NodeHealth {
                status,
                probe: now,
                ready_transition: now,
                lease: None,
            }),
            // Newly observed Ready condition, or a removed one: start over from now.
            (Some(_), None, Some(_)) | (Some(_), Some(_), None) => Some(NodeHealth {
                status,
                probe: now,
                ready_transition: now,
                lease: None,
            }),
            (Some(h), Some(saved), Some(cur)) if saved.heartbeat != cur.heartbeat => {
                let ready_transition = if saved.transition != cur.transition {
                    now
                } else {
                    h.ready_transition
                };
                // Upstream rebuilds the record here without the saved lease, so the next pass sees
                // the lease as new and refreshes the probe once more.
                Some(NodeHealth {
                    status,
                    probe: now,
                    ready_transition,
                    lease: None,
                })
            }
            (h, _, _) => h,
        };
        let mut h = health.expect("set above");
        // Always refresh the probe when the Lease was renewed (or is seen for the first time).
        let observed_lease = if self.settings.reads_leases {
            node.lease.observed(now)
        } else {
            None
        };
        if let Some(renew) = observed_lease {
            if saved_lease.is_none_or(|s| s < renew) {
                h.lease = Some(renew);
                h.probe = now;
            }
        }
        if now > h.probe + grace {
            let mark = |c: Option<Condition>| -> Option<Condition> {
                match c {
                    None => Some(Condition {
                        status: CondStatus::Unknown,
                        heartbeat: created,
                        transition: now,
                        reason: Reason::NodeStatusNeverUpdated,
                    }),
                    Some(c) if c.status != CondStatus::Unknown => Some(Condition {
                        status: CondStatus::Unknown,
                        transition: now,
                        reason: Reason::NodeStatusUnknown,
                        ..c
                    }),
                    Some(c) => Some(c),
                }
            };
            let new_status = NodeStatus {
                ready: mark(status.ready),
                memory_pressure: mark(status.memory_pressure),
                disk_pressure: mark(status.disk_pressure),
                pid_pressure: mark(status.pid_pressure),
                network_unavailable: status.network_unavailable,
            };
            if new_status.ready != Some(observed) {
                self.health[n] = Some(h);
                return Evaluation::WriteUnknown {
                    observed,
                    status: new_status,
                    lease: observed_lease,
                    startup: current.is_none(),
                };
            }
        }
        self.health[n] = Some(h);
        Evaluation::Unchanged(observed, current)
    }

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
                    swap_no_execute(now, n, want, other, api, log, &cause);
                } else {
                    self.mark_node_for_tainting(now, n, observed, api);
                }
            }
            CondStatus::True => {
                let cause = Cause::new("cause.nlc.reachable_again");
                self.mark_node_as_reachable(now, n, api, log, &cause);
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
        let zone = self
            .zones
            .get_mut(&node.zone_key)
            .expect("zone created when the node was registered");
        if !node.has_taint(key, Effect::NoExecute) {
            zone.queue.remove(&n);
        }
        zone.queue.add(n, now)
    }

    /// `markNodeAsReachable`: removes both NoExecute taints and drops the node from its queue.
    pub fn mark_node_as_reachable(
        &mut self,
        now: Millis,
        n: NodeId,
        api: &mut Api,
        log: &mut Log,
        cause: &Cause,
    ) -> bool {
        for key in [TAINT_UNREACHABLE, TAINT_NOT_READY] {
            if api.nodes[n].has_taint(key, Effect::NoExecute) {
                api.swap_taints(now, n, &[], &[(key, Effect::NoExecute)]);
                log.push(
                    Event::new(now, EventKind::TaintRemoved, cause.clone())
                        .node(n)
                        .taint(format!("{key}:NoExecute")),
                );
            }
        }
        let node = &api.nodes[n];
        self.zones.get_mut(&node.zone_key).is_some_and(|z| z.queue.remove(&n))
    }

    /// `MarkPodsNotReady` for every pod on the node; false if an update failed.
    fn mark_pods_not_ready(
        &mut self,
        now: Millis,
        n: NodeId,
        node_ready: CondStatus,
        api: &mut Api,
        log: &mut Log,
        why: &Cause,
    ) -> bool {
        let pods: Vec<PodId> = api.nodes[n].pods.clone();
        for p in pods {
            if !self.mark_pod_not_ready(now, p, n, node_ready, api, log, why) {
                return false;
            }
        }
        true
    }

    #[allow(clippy::too_many_arguments)]
    fn mark_pod_not_ready(
        &mut self,
        now: Millis,
        p: PodId,
        n: NodeId,
        node_ready: CondStatus,
        api: &mut Api,
        log: &mut Log,
        why: &Cause,
    ) -> bool {
        if api.pods[p].ready != Some(true) {
            return true;
        }
        if self.failures.pod_status_updates > 0 {
            self.failures.pod_status_updates -= 1;
            return false;
        }
        api.set_pod_ready(now, p, false);
        if log.wants(now, EventKind::PodNotReady) {
            let cause = Cause::new("cause.nlc.pod_not_ready")
                .text("node", &api.nodes[n].name)
                .text("ready", node_ready)
                .sub("why", why.clone());
            log.push(Event::new(now, EventKind::PodNotReady, cause).node(n).pod(p));
        }
        true
    }

    /// The pod worker (`processPod`): a pod newly bound to a node that is not Ready is marked NotReady.
    pub fn process_pod(&mut self, now: Millis, p: PodId, api: &mut Api, log: &mut Log) {
        let Some(n) = api.pods[p].node else { return };
        let Some(h) = self.health.get(n).and_then(|h| h.as_ref()) else {
            return;
        };
        if let Some(ready) = h.status.ready {
            if ready.status != CondStatus::True && self.settings.legacy_pod_eviction_timeout.is_some() {
                // processNoTaintBaseEviction for the pod's node: the same timeout check.
                self.process_no_taint_based_eviction(now, n, ready, api, log);
            }
            if ready.status != CondStatus::True {
                self.mark_pod_not_ready(
                    now,
                    p,
                    n,
                    ready.status,
                    api,
                    log,
                    &Cause::new("cause.part.bound_not_ready"),
                );
            }
        }
    }

    /// One tick of the NoExecute tainting loop (`doNoExecuteTaintingPass`, every 100 ms).
    pub fn do_no_execute_tainting_pass(&mut self, now: Millis, api: &mut Api, log: &mut Log) {
        let eviction_qps = self.settings.eviction_qps;
        for zone in self.zones.values_mut() {
            if zone.queue.is_empty() {
                continue;
            }
            let qps = zone.queue.limiter.qps;
            let zone_name = zone.display.clone();
            let state = zone.state;
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
                    Cause::new("cause.nlc.tainted_held").time("waited", waited)
                }
                .text("ready", ready.status)
                .time("added", item.added_at)
                .text("zone", format!("{zone_name:?}"))
                .sub("rate", rate);
                swap_no_execute(now, n, want, other, api, log, &cause);
                TryResult::Done
            });
        }
    }

    /// `doNoScheduleTaintingPass` for one node: NoSchedule taints follow its conditions.
    pub fn do_no_schedule_tainting_pass(&mut self, now: Millis, n: NodeId, api: &mut Api, log: &mut Log) {
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
        let add_taints: Vec<Taint> = add.iter().map(|(t, _)| t.clone()).collect();
        api.swap_taints(now, n, &add_taints, &remove);
        for (key, _) in &remove {
            log.push(
                Event::new(
                    now,
                    EventKind::TaintRemoved,
                    Cause::new("cause.nlc.no_schedule_removed"),
                )
                .node(n)
                .taint(format!("{key}:NoSchedule")),
            );
        }
        for (t, why) in &add {
            let cause = Cause::new("cause.nlc.no_schedule_added").text("why", why);
            log.push(Event::new(now, EventKind::TaintAdded, cause).node(n).taint(t.label()));
        }
    }

    /// `handleDisruption`: zone states, limiter rates and master disruption mode.
    pub fn handle_disruption(
        &mut self,
        now: Millis,
        zone_ready: &BTreeMap<String, Vec<Option<CondStatus>>>,
        nodes: &[NodeId],
        api: &mut Api,
        log: &mut Log,
    ) {
        let mut new_states: BTreeMap<String, (ZoneState, usize)> = BTreeMap::new();
        let mut all_are_full = true;
        for (zone, ready) in zone_ready {
            let (not_ready, state) = compute_zone_state(ready, self.settings.unhealthy_zone_threshold);
            if state != ZoneState::FullDisruption {
                all_are_full = false;
            }
            new_states.insert(zone.clone(), (state, not_ready));
            if !self.zones.contains_key(zone) {
                if let Some(&n) = nodes.iter().find(|&&n| api.nodes[n].zone_key == *zone) {
                    self.ensure_zone(api, n);
                }
            }
        }
        // Zones without counted nodes are forgotten.
        self.zones.retain(|k, _| zone_ready.contains_key(k));
        let all_were_full = self.zones.values().all(|z| z.state == ZoneState::FullDisruption);
        if all_are_full && all_were_full {
            return;
        }
        if all_are_full {
            for &n in nodes {
                if self.settings.legacy_pod_eviction_timeout.is_some() {
                    self.cancel_pod_eviction(n, api);
                } else {
                    let cause = Cause::new("cause.nlc.master_disruption");
                    self.mark_node_as_reachable(now, n, api, log, &cause);
                }
            }
            let keys: Vec<String> = self.zones.keys().cloned().collect();
            for k in keys {
                let size = zone_ready.get(&k).map_or(0, Vec::len);
                let not_ready = new_states.get(&k).map_or(0, |s| s.1);
                let z = self.zones.get_mut(&k).expect("key from map");
                z.queue.swap_limiter(0.0, now);
                let from = z.state;
                z.state = ZoneState::FullDisruption;
                if from != ZoneState::FullDisruption {
                    let why = Cause::new("cause.zone.all_full")
                        .text("not_ready", not_ready)
                        .text("size", size);
                    zone_event(now, log, z, from, why);
                }
            }
            return;
        }
        if all_were_full {
            for &n in nodes {
                if let Some(h) = self.health[n].as_mut() {
                    h.probe = now;
                    h.ready_transition = now;
                }
            }
        }
        let keys: Vec<String> = self.zones.keys().cloned().collect();
        for k in keys {
            let (state, not_ready) = new_states.get(&k).copied().unwrap_or((ZoneState::Normal, 0));
            let size = zone_ready.get(&k).map_or(0, Vec::len);
            let current = self.zones[&k].state;
            if current == state && !all_were_full {
                continue;
            }
            let qps = self.limiter_rate(state, size);
            let z = self.zones.get_mut(&k).expect("key from map");
            z.queue.swap_limiter(qps, now);
            z.state = state;
            if current != state {
                let s = &self.settings;
                let key = match state {
                    ZoneState::Normal => "cause.zone.normal",
                    ZoneState::PartialDisruption if qps > 0.0 => "cause.zone.partial_slow",
                    ZoneState::PartialDisruption => "cause.zone.partial_stop",
                    ZoneState::FullDisruption => "cause.zone.full",
                    ZoneState::Initial => "cause.part.empty",
                };
                let reset = if all_were_full {
                    Cause::new("cause.part.master_reset")
                } else {
                    Cause::none()
                };
                let why = Cause::new(key)
                    .text("not_ready", not_ready)
                    .text("size", size)
                    .text("rate", s.eviction_qps)
                    .text("threshold", s.unhealthy_zone_threshold)
                    .text("large", s.large_cluster_threshold)
                    .text("secondary", s.secondary_qps)
                    .sub("reset", reset);
                let z = &self.zones[&k];
                zone_event(now, log, z, current, why);
            }
        }
    }

    fn is_excluded(&self, api: &Api, n: NodeId) -> bool {
        if self.settings.exclusion_by_label {
            is_excluded_from_disruption(api, n)
        } else {
            is_master_node_name(&api.nodes[n].name)
        }
    }

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
        let node = &api.nodes[n];
        if let Some(z) = self.zones.get_mut(&node.zone_key) {
            z.queue.add(n, now);
        }
    }

    /// `cancelPodEviction`.
    fn cancel_pod_eviction(&mut self, n: NodeId, api: &Api) {
        self.grow(api.nodes.len());
        self.eviction[n] = EvictionStatus::Unmarked;
        let node = &api.nodes[n];
        if let Some(z) = self.zones.get_mut(&node.zone_key) {
            z.queue.remove(&n);
        }
    }

    /// One tick of the legacy evictor (`doEvictionPass`, every 100 ms): the zone queues release
    /// nodes at their rate, and each released node's pods are deleted.
    pub fn do_eviction_pass(&mut self, now: Millis, api: &mut Api, log: &mut Log) {
        let Some(timeout) = self.settings.legacy_pod_eviction_timeout else {
            return;
        };
        let eviction_qps = self.settings.eviction_qps;
        let health = &self.health;
        let mut evicted = Vec::new();
        for zone in self.zones.values_mut() {
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

enum Evaluation {
    Unchanged(Condition, Option<Condition>),
    WriteUnknown {
        observed: Condition,
        status: NodeStatus,
        lease: Option<Millis>,
        startup: bool,
    },
}

fn zone_event(now: Millis, log: &mut Log, z: &Zone, from: ZoneState, why: Cause) {
    if log.wants(now, EventKind::ZoneStateChanged) {
        let cause = Cause::new("cause.zone.changed")
            .text("from", from)
            .text("to", z.state)
            .sub("why", why);
        let mut e = Event::new(now, EventKind::ZoneStateChanged, cause);
        e.zone = Some(z.display.clone());
        e.state = Some(z.state);
        log.push(e);
    }
}

fn swap_no_execute(now: Millis, n: NodeId, want: &str, other: &str, api: &mut Api, log: &mut Log, cause: &Cause) {
    let had_other = api.nodes[n].has_taint(other, Effect::NoExecute);
    let had_want = api.nodes[n].has_taint(want, Effect::NoExecute);
    api.swap_taints(
        now,
        n,
        &[Taint::new(want, Effect::NoExecute, now)],
        &[(other, Effect::NoExecute)],
    );
    if had_other {
        log.push(
            Event::new(now, EventKind::TaintRemoved, cause.clone())
                .node(n)
                .taint(format!("{other}:NoExecute")),
        );
    }
    if !had_want {
        log.push(
            Event::new(now, EventKind::TaintAdded, cause.clone())
                .node(n)
                .taint(format!("{want}:NoExecute")),
        );
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
        if api.request_pod_deletion(now, p) {
            remaining = true;
            let grace = api.pods[p].grace_seconds;
            let cause = Cause::new("cause.delete")
                .sub("why", cause.clone())
                .text("grace", grace);
            log.push(Event::new(now, EventKind::PodDeletionRequested, cause).node(n).pod(p));
        }
    }
    remaining
}

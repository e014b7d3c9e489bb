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

use crate::api::client::Controller;
use crate::api::{
    Api, CondStatus, Condition, DeferredWrite, NodeId, NodeStatus, PodId, Reason, LABEL_EXCLUDE_DISRUPTION,
};
use crate::cause::Cause;
use crate::time::Millis;
use crate::timeline::{Event, EventKind, Log};
use crate::world::World;

mod dormancy;
mod legacy;
mod tainting;
mod zones;

pub use dormancy::Dormancy;
pub use zones::{zone_state, Zones};

/// The controller's flags.
#[derive(Debug, Clone, PartialEq)]
pub struct NlcSettings {
    /// `--node-monitor-grace-period`, ms.
    pub grace: Millis,
    /// `--node-startup-grace-period`, ms.
    pub startup_grace: Millis,
    /// `--node-monitor-period`, ms.
    pub monitor_period: Millis,
    /// How long a pass itself takes before it waits for its requests (`simulation.monitorPassDuration`), ms.
    pub pass_duration: Millis,
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
    /// Whether a live Lease read guards every Unknown mark (`NodeControllerLeaseCircuitBreaker`).
    pub lease_circuit_breaker: bool,
    /// Whether `MarkPodsNotReady` records an event per pod (a request each).
    pub pod_not_ready_events: bool,
}

impl NlcSettings {
    /// The settings of the newest versions: taint-based, label exclusion, leases read (the
    /// upstream cases' Config A).
    #[cfg(test)]
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
            monitor_period: 5 * crate::time::SECOND,
            pass_duration: 0,
            eviction_qps,
            secondary_qps,
            large_cluster_threshold,
            unhealthy_zone_threshold,
            legacy_pod_eviction_timeout: None,
            exclusion_by_label: true,
            reads_leases: true,
            lease_circuit_breaker: false,
            pod_not_ready_events: true,
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

/// A monitor pass that began later than `--node-monitor-period` after the one before it ended
/// its work, because that one waited for its requests to pass the controller's client rate
/// limiter (`monitorNodeHealth` runs under `wait.Until`, which starts the next pass a period
/// after the last one returns). Times in ms.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LatePass {
    /// When the pass before began.
    pub previous: Millis,
    /// When that pass's last request went out.
    pub sent: Millis,
    /// From one pass to the next without waits (the pass itself and `--node-monitor-period`).
    pub step: Millis,
}

impl LatePass {
    /// The first pass after `t` had the passes kept their pace after the previous one (a node
    /// whose grace period ends at `t` is marked by it).
    pub fn first_after(&self, t: Millis) -> Millis {
        let due = self.previous + self.step;
        if t < due || self.step <= 0 {
            return due;
        }
        due + ((t - due) / self.step + 1) * self.step
    }
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
    /// Zones, by dense id and in key order.
    pub zones: Zones,
    /// Per zone id, Ready=True and counted nodes in the current pass (kept to reuse its memory).
    zone_counts: Vec<(usize, usize)>,
    /// The existing nodes of the last pass (kept to reuse its memory).
    existing: Vec<NodeId>,
    nodes_to_retry: Vec<bool>,
    /// Nodes whose last pass found them counted, Ready=True before and after, untainted and with
    /// nothing to retry: for them a pass only watches for a new heartbeat (see `quiet_pass`).
    quiet: Vec<bool>,
    /// Each quiet node's zone id.
    quiet_zone: Vec<usize>,
    /// Dormant nodes, which passes skip.
    pub dormancy: Dormancy,
    /// Nodes whose status this pass wrote, in order.
    wrote: Vec<NodeId>,
    /// Live Lease GETs the circuit breaker made since the driver last charged them to the client.
    pub live_lease_gets: u32,
    /// Until when every node is skipped because the Lease informer is behind a live read
    /// (the Lease circuit breaker's consistency store), ms.
    lease_cache_wait: Millis,
    /// Legacy path: per node, whether its pods are queued for deletion or deleted.
    pub eviction: Vec<EvictionStatus>,
    /// Injected failures (tests only).
    pub failures: InjectedFailures,
    /// Whether this pass came late, set by the driver when it schedules the pass.
    pub late_pass: Option<LatePass>,
    /// Per node queued for tainting: whether the pass that queued it came late, for the taint's
    /// cause.
    queued_late: Vec<Option<LatePass>>,
    /// Per node queued for tainting: when it was first queued since it last counted as
    /// reachable (`markNodeForTainting` re-queues it at every pass), ms.
    first_queued: Vec<Option<Millis>>,
}

fn grace_flag(startup: bool) -> &'static str {
    if startup {
        crate::scenario::flags::NODE_STARTUP_GRACE_PERIOD.name
    } else {
        crate::scenario::flags::NODE_MONITOR_GRACE_PERIOD.name
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

/// The status the monitor pass writes when a node's grace period has passed: every condition
/// but `NetworkUnavailable` becomes Unknown at `now` (`NodeStatusUnknown`), and one never posted
/// is added (`NodeStatusNeverUpdated`, its heartbeat the node's creation at `created`).
fn marked_unknown(status: &NodeStatus, created: Millis, now: Millis) -> NodeStatus {
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
    NodeStatus {
        ready: mark(status.ready),
        memory_pressure: mark(status.memory_pressure),
        disk_pressure: mark(status.disk_pressure),
        pid_pressure: mark(status.pid_pressure),
        network_unavailable: status.network_unavailable,
    }
}

impl NodeLifecycleController {
    /// A controller that has seen nothing yet.
    pub fn new(settings: NlcSettings) -> Self {
        NodeLifecycleController {
            settings,
            health: Vec::new(),
            known: Vec::new(),
            zones: Zones::default(),
            zone_counts: Vec::new(),
            existing: Vec::new(),
            nodes_to_retry: Vec::new(),
            quiet: Vec::new(),
            quiet_zone: Vec::new(),
            dormancy: Dormancy::default(),
            lease_cache_wait: Millis::MIN,
            live_lease_gets: 0,
            eviction: Vec::new(),
            failures: InjectedFailures::default(),
            late_pass: None,
            queued_late: Vec::new(),
            first_queued: Vec::new(),
            wrote: Vec::new(),
        }
    }

    /// Forgets everything held in memory, as a restarted kube-controller-manager does.
    pub fn restart(&mut self) {
        let settings = self.settings.clone();
        let (allowed, steady) = (self.dormancy.allowed, self.dormancy.steady_nodes());
        *self = NodeLifecycleController::new(settings);
        self.dormancy.allowed = allowed;
        for n in steady {
            self.set_steady(n, true);
        }
    }

    fn grow(&mut self, n: usize) {
        if self.health.len() < n {
            self.health.resize(n, None);
            self.known.resize(n, false);
            self.nodes_to_retry.resize(n, false);
            self.quiet.resize(n, false);
            self.quiet_zone.resize(n, 0);
            self.queued_late.resize(n, None);
            self.first_queued.resize(n, None);
            self.eviction.resize(n, EvictionStatus::Unmarked);
        }
        self.dormancy.grow(n);
    }

    fn ensure_zone(&mut self, api: &Api, n: NodeId) {
        let id = self.zones.id_of(api, n);
        self.zones.ensure(id, self.settings.eviction_qps);
    }

    /// One monitor pass and its requests; returns when the next pass starts and the nodes whose
    /// status it wrote (their kubelets' heartbeats may stop being plain). The pass waits for its
    /// own requests, held back by its client's rate limit, and `wait.Until` slides: the next
    /// pass starts `--node-monitor-period` after this one returns. A pass that starts late says
    /// so in what it marks ([`LatePass`]).
    pub fn monitor(&mut self, w: &mut World) -> (Millis, Vec<NodeId>) {
        let now = w.now;
        self.monitor_node_health(w);
        let wrote = std::mem::take(&mut self.wrote);
        let gets = std::mem::take(&mut self.live_lease_gets);
        w.api.clients.send(Controller::NodeLifecycle, now, gets);
        let finished = w.api.clients.last_sent(Controller::NodeLifecycle).max(now);
        let step = self.settings.pass_duration + self.settings.monitor_period;
        self.late_pass = (finished > now).then_some(LatePass {
            previous: now,
            sent: finished,
            step,
        });
        (finished + step, wrote)
    }

    /// One monitor pass (`monitorNodeHealth`).
    pub fn monitor_node_health(&mut self, w: &mut World) {
        let now = w.now;
        let World { api, log, .. } = w;
        self.grow(api.nodes.len());
        self.dormancy.pass(now);
        let nodes = self.classify_nodes(now, api, log);
        let mut counts = std::mem::take(&mut self.zone_counts);
        counts.clear();
        counts.resize(self.zones.count(), (0, 0));
        for (id, &dormant) in self.dormancy.per_zone.iter().enumerate() {
            counts[id].0 += dormant;
            counts[id].1 += dormant;
        }
        let quiet_allowed = self.failures == InjectedFailures::default();
        // The first node the Lease circuit breaker makes this pass skip, if any.
        let mut skipped_from: Option<NodeId> = (now < self.lease_cache_wait).then_some(0);
        for &n in &nodes {
            if now < self.lease_cache_wait {
                skipped_from.get_or_insert(n);
                continue;
            }
            if quiet_allowed && self.quiet[n] && self.quiet_pass(now, n, api) {
                counts[self.quiet_zone[n]].0 += 1;
                counts[self.quiet_zone[n]].1 += 1;
            } else {
                self.quiet[n] = false;
                self.pass_node(now, n, api, log, &mut counts);
            }
            if quiet_allowed {
                self.maybe_sleep(n, api);
            }
        }
        if let Some(from) = skipped_from {
            // Dormant nodes after the trip are skipped too: they leave their zones' counts.
            for (n, zone) in self.dormancy.dormant_zones() {
                if n >= from {
                    counts[zone].0 -= 1;
                    counts[zone].1 -= 1;
                }
            }
        }
        self.handle_disruption(now, &counts, &nodes, api, log);
        self.zone_counts = counts;
        self.existing = nodes;
    }

    /// One node's part of a pass, in full: health, zone count, taints or legacy eviction, and
    /// its pods' readiness.
    fn pass_node(&mut self, now: Millis, n: NodeId, api: &mut Api, log: &mut Log, counts: &mut Vec<(usize, usize)>) {
        let Some((observed, current)) = self.try_update_node_health(now, n, api, log) else {
            // Skipped: not judged, not counted in its zone, nothing to taint or mark.
            return;
        };
        let counted = !self.is_excluded(api, n);
        if counted {
            let id = self.zones.of(api, n);
            if counts.len() <= id {
                counts.resize(self.zones.count(), (0, 0));
            }
            counts[id].1 += 1;
            if current.is_some_and(|c| c.status == CondStatus::True) {
                counts[id].0 += 1;
            }
            self.quiet_zone[n] = id;
        }
        let Some(current) = current else {
            self.nodes_to_retry[n] = false;
            return;
        };
        if self.failures.pod_lists > 0 {
            self.failures.pod_lists -= 1;
            if current.status != CondStatus::True && observed.status == CondStatus::True {
                self.nodes_to_retry[n] = true;
            }
            return;
        }
        if self.settings.legacy_pod_eviction_timeout.is_some() {
            self.process_no_taint_based_eviction(now, n, observed, api, log);
        } else {
            self.process_taint_based_eviction(now, n, observed.status, api, log);
        }
        let needs_retry = self.nodes_to_retry[n];
        let transition = current.status != CondStatus::True && observed.status == CondStatus::True;
        if transition {
            // RecordNodeStatusChange: one NodeNotReady event, a request of the same client.
            api.clients.send(Controller::NodeLifecycle, now, 1);
        }
        if transition && current.status == CondStatus::False && log.wants(now, EventKind::NodeNotReady) {
            // The kubelet's own report (a shutdown), or what silenced it.
            let after = log.index.ready(n).or(log.index.silenced(n));
            let cause = Cause::new("cause.nlc.not_ready");
            log.push(Event::new(now, EventKind::NodeNotReady, cause).node(n).after(after));
        }
        if transition || (needs_retry && observed.status != CondStatus::True) {
            let why = if transition {
                Cause::none()
            } else {
                Cause::new("cause.part.retry")
            };
            if !self.mark_pods_not_ready(now, n, current.status, api, log, &why) {
                self.nodes_to_retry[n] = true;
                return;
            }
        }
        self.nodes_to_retry[n] = false;
        self.quiet[n] = counted
            && observed.status == CondStatus::True
            && current.status == CondStatus::True
            && api.nodes[n].taints.is_empty();
    }

    /// A pass over a quiet node, which is all [`Self::try_update_node_health`] and
    /// [`Self::process_taint_based_eviction`] would do for it: a renewed Lease moves the probe.
    /// Returns false, having changed nothing else, when the node needs the full treatment: a new
    /// status heartbeat, a taint, or a probe older than the grace period.
    fn quiet_pass(&mut self, now: Millis, n: NodeId, api: &Api) -> bool {
        let node = &api.nodes[n];
        let Some(h) = self.health[n].as_mut() else {
            return false;
        };
        let (Some(current), Some(saved)) = (node.status.observed_ref(now).ready, h.status.ready) else {
            return false;
        };
        if current.heartbeat != saved.heartbeat || current.status != CondStatus::True || !node.taints.is_empty() {
            return false;
        }
        if self.settings.reads_leases {
            if let Some(renew) = *node.lease.observed_ref(now) {
                if h.lease.is_none_or(|s| s < renew) {
                    h.lease = Some(renew);
                    h.probe = now;
                }
            }
        }
        now <= h.probe + self.settings.grace
    }

    /// `classifyNodes`: new nodes are registered (their NoExecute taints removed), deleted ones
    /// forgotten. Returns the nodes that exist.
    fn classify_nodes(&mut self, now: Millis, api: &mut Api, log: &mut Log) -> Vec<NodeId> {
        let mut nodes = std::mem::take(&mut self.existing);
        nodes.clear();
        let awake: Vec<NodeId> = if self.dormancy.any() {
            self.dormancy.awake.iter().copied().collect()
        } else {
            (0..api.nodes.len()).collect()
        };
        for n in awake {
            if !api.nodes[n].exists {
                if self.known[n] {
                    self.known[n] = false;
                    self.health[n] = None;
                }
                continue;
            }
            nodes.push(n);
            if self.known[n] {
                if !self.quiet[n] {
                    self.ensure_zone(api, n);
                }
                continue;
            }
            self.known[n] = true;
            self.ensure_zone(api, n);
            let mut registered = None;
            if log.wants(now, EventKind::NodeRegistered) {
                let zone = &api.nodes[n].zone;
                // Registered once the Node exists and the controller runs, whichever came last.
                let created = log.index.node(n).and_then(|m| m.back);
                let after = crate::timeline::latest([created, log.index.controller_manager_started]);
                registered = log.push(
                    Event::new(
                        now,
                        EventKind::NodeRegistered,
                        Cause::new("cause.nlc.registered").text("zone", format!("{zone:?}")),
                    )
                    .node(n)
                    .after(after),
                );
            }
            let cause = Cause::new("cause.nlc.reachable_startup");
            self.mark_node_as_reachable(now, n, api, log, (&cause, registered));
        }
        nodes
    }

    /// Health bookkeeping for one node (`tryUpdateNodeHealth`), retried once with a fresh read
    /// when the Unknown write would conflict with a status the informer has not shown yet.
    /// Returns the Ready condition observed at the start and the current one, or `None` when the
    /// node is skipped this pass (the Lease circuit breaker tripped or waits for the informer).
    pub fn try_update_node_health(
        &mut self,
        now: Millis,
        n: NodeId,
        api: &mut Api,
        log: &mut Log,
    ) -> Option<(Condition, Option<Condition>)> {
        if now < self.lease_cache_wait {
            return None;
        }
        let node = &api.nodes[n];
        let view = node.status.observed(now);
        Some(match self.evaluate(now, n, view, api) {
            Evaluation::Unchanged(observed, current) => (observed, current),
            Evaluation::LeaseMoved { visible_at } => {
                self.lease_cache_wait = visible_at;
                return None;
            }
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
                    return Some(match self.evaluate(now, n, fresh, api) {
                        Evaluation::Unchanged(_, current) => (observed, current),
                        Evaluation::LeaseMoved { visible_at } => {
                            self.lease_cache_wait = visible_at;
                            return None;
                        }
                        Evaluation::WriteUnknown {
                            status: s,
                            lease: l,
                            startup: st,
                            ..
                        } => self.write_unknown(now, n, observed, s, l, st, api, log),
                    });
                }
                self.write_unknown(now, n, observed, status, lease, startup, api, log)
            }
        })
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
        api.clients.send(Controller::NodeLifecycle, now, 1);
        api.update_node_status_by_controller(now, n, status);
        self.wrote.push(n);
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
            let cause = match self.late_pass.map(|late| (late, late.first_after(probe + grace))) {
                // Without the wait, a pass before this one would have marked the node.
                Some((late, would)) if would < now => {
                    let (qps, burst) = api.clients.limits();
                    Cause::new("cause.nlc.unknown_late")
                        .sub("unknown", cause)
                        .time("late", now - would)
                        .time("previous", late.previous)
                        .time("sent", late.sent)
                        .text("qps", qps)
                        .text("burst", burst)
                }
                _ => cause,
            };
            // What stopped the heartbeats: the node's fault while it lasts, else a slow apiserver.
            let after = log.index.silenced(n).or(log.index.api_latency);
            log.push(Event::new(now, EventKind::NodeUnknown, cause).node(n).after(after));
        }
        (observed, status.ready)
    }

    /// The common case of [`Self::evaluate`], without copying the record: the status carries
    /// no new heartbeat, so only a renewed Lease moves the probe. `None` when anything else
    /// applies (a new status heartbeat, no record, or the grace period has passed).
    fn evaluate_quiet(&mut self, now: Millis, n: NodeId, status: &NodeStatus, api: &Api) -> Option<Evaluation> {
        let current = status.ready?;
        let h = self.health[n].as_mut()?;
        if h.status.ready?.heartbeat != current.heartbeat {
            return None;
        }
        if self.settings.reads_leases {
            if let Some(renew) = api.nodes[n].lease.observed(now) {
                if h.lease.is_none_or(|s| s < renew) {
                    h.lease = Some(renew);
                    h.probe = now;
                }
            }
        }
        (now <= h.probe + self.settings.grace).then_some(Evaluation::Unchanged(current, Some(current)))
    }

    fn evaluate(&mut self, now: Millis, n: NodeId, status: NodeStatus, api: &Api) -> Evaluation {
        if let Some(quiet) = self.evaluate_quiet(now, n, &status, api) {
            return quiet;
        }
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
            // NodeControllerLeaseCircuitBreaker (#138698): before anything is marked, a live GET
            // of the Lease; if it moved since the copy the record holds, the informer is behind,
            // and no node is judged until it has caught up.
            let live = node.lease.latest();
            if self.settings.lease_circuit_breaker && self.settings.reads_leases {
                self.live_lease_gets += 1;
            }
            if self.settings.lease_circuit_breaker && self.settings.reads_leases && live.is_some() && live != h.lease {
                self.health[n] = Some(h);
                return Evaluation::LeaseMoved {
                    visible_at: node.lease.visible_at(),
                };
            }
            let new_status = marked_unknown(&status, created, now);
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
        // One status update per pod, and from 1.19 one event (`MarkPodsNotReady`), each a
        // request of the node-controller client.
        let cause = Cause::new("cause.nlc.pod_not_ready")
            .text("node", &api.nodes[n].name)
            .text("ready", node_ready)
            .sub("why", why.clone());
        let after = log.index.ready(n);
        let event = Event::new(now, EventKind::PodNotReady, cause)
            .node(n)
            .pod(p)
            .after(after);
        let events = u32::from(self.settings.pod_not_ready_events);
        api.issue(
            Controller::NodeLifecycle,
            now,
            (1, events),
            DeferredWrite::PodNotReady { pod: p, event },
            log,
        );
        true
    }

    /// The pod worker (`processPod`): a pod newly bound to a node that is not Ready is marked NotReady.
    pub fn process_pod(&mut self, w: &mut World, p: PodId) {
        let now = w.now;
        let World { api, log, .. } = w;
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

    /// Whether node `n` is left out of zone counting: by label from 1.19, by a name ending in
    /// "master" before.
    fn is_excluded(&self, api: &Api, n: NodeId) -> bool {
        if self.settings.exclusion_by_label {
            is_excluded_from_disruption(api, n)
        } else {
            is_master_node_name(&api.nodes[n].name)
        }
    }
}

enum Evaluation {
    Unchanged(Condition, Option<Condition>),
    /// The live Lease differs from the record's: the node is skipped until the informer shows
    /// the Lease written at `visible_at`.
    LeaseMoved {
        visible_at: Millis,
    },
    WriteUnknown {
        observed: Condition,
        status: NodeStatus,
        lease: Option<Millis>,
        startup: bool,
    },
}

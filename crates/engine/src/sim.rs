//! The discrete-event driver: one queue of wake-ups, processed in time order.
//!
//! The run starts with a warm-up before time 0 so that every loop (kubelet status and lease loops,
//! the monitor pass, the 100 ms tainting or eviction tick, PodGC) settles into a phase drawn from
//! the seed. Nothing before time 0 is recorded; at time 0 the timeline opens with the cluster's
//! initial state. Ties are broken by insertion order, so a run is a pure function of its
//! [`Config`].

use crate::api::client::{Clients, Controller};
use crate::api::{Api, CondStatus, Effect, Node, NodeId, NodeStatus, PodId, Taint, Versioned, Watch, WriteHistory};
use crate::cause::Cause;
use crate::control_plane::endpointslice::EndpointSliceController;
use crate::control_plane::node_lifecycle::{NlcSettings, NodeLifecycleController};
use crate::control_plane::podgc::{PodGc, GC_CHECK_PERIOD, TAINT_OUT_OF_SERVICE};
use crate::control_plane::scheduler::Scheduler;
use crate::control_plane::taint_eviction::{TaintEvictionController, Wake as EvictWake};
use crate::control_plane::workloads::Workloads;
use crate::kubelet::heartbeats::{is_plain, HeartbeatLoop, LoopState};
use crate::kubelet::lease::BACKOFF_MAX;
use crate::kubelet::{Kubelet, KubeletSettings};
use crate::network::kube_proxy::KubeProxy;
use crate::rng::{Rng, Stream};
use crate::scenario::{ActionKind, ActionSpec, Config};
use crate::time::{Millis, HOUR, SECOND};
use crate::timeline::{Event, EventKind, Log};
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// How often the NoExecute tainting loop (or, on the legacy path, the pod evictor) drains the zone
/// queues (`NodeEvictionPeriod`), ms.
pub const NODE_EVICTION_PERIOD: Millis = 100;
/// How long a container takes to exit after SIGTERM when its kubelet terminates it, ms.
pub const CONTAINER_STOP: Millis = SECOND;
/// The kubelet's first registration attempt waits this long (`registerWithAPIServer`), ms.
pub const REGISTRATION_FIRST_STEP: Millis = 100;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Wake {
    StatusTick {
        node: NodeId,
        epoch: u32,
    },
    LeaseTick {
        node: NodeId,
        epoch: u32,
    },
    Register {
        node: NodeId,
        epoch: u32,
        step: Millis,
    },
    MonitorPass {
        kcm: u32,
    },
    TaintingTick {
        kcm: u32,
    },
    PodGcTick {
        kcm: u32,
    },
    ControllerManagerStart {
        kcm: u32,
    },
    Action(usize),
    Watch(Watch),
    /// A write that waited for its controller's rate limiter (an index into `deferred`).
    Apply {
        slot: usize,
        kcm: u32,
    },
    /// The EndpointSlice controller writes a Service's slice after waiting for its client.
    SliceWrite {
        service: usize,
        kcm: u32,
    },
    /// The connected kube-proxies start a sync.
    ProxySync,
    /// The connected kube-proxies finish their sync.
    ProxySyncDone,
    Evict {
        pod: PodId,
        generation: u64,
        kcm: u32,
    },
    PodStarted {
        pod: PodId,
        epoch: u32,
    },
    PodTerminated {
        pod: PodId,
    },
}

/// A run in progress: the cluster, its controllers and the wake-up queue.
pub struct Simulation {
    /// The scenario.
    pub cfg: Config,
    /// The apiserver.
    pub api: Api,
    /// The event recorder.
    pub log: Log,
    /// One kubelet per node.
    pub kubelets: Vec<Kubelet>,
    /// The node lifecycle controller.
    pub nlc: NodeLifecycleController,
    /// The taint eviction controller.
    pub taint_eviction: TaintEvictionController,
    /// The pod garbage collector.
    pub podgc: PodGc,
    /// The workload controllers.
    pub workloads: Workloads,
    /// The scheduler.
    pub scheduler: Scheduler,
    /// The EndpointSlice controller.
    pub eps: EndpointSliceController,
    /// The kube-proxies.
    pub proxy: KubeProxy,
    /// Sentences about actions that found nothing to act on.
    pub warnings: Vec<Cause>,
    kubelet_settings: KubeletSettings,
    /// Wake-ups by time, then by when they were pushed (`seq` breaks ties within a millisecond).
    queue: BinaryHeap<Reverse<(Millis, Millis, u64, Wake)>>,
    seq: u64,
    /// When the wake-up being handled was pushed, ms.
    pushed_at: Millis,
    /// Writes waiting for their controller's rate limiter, by slot.
    deferred: Vec<Option<crate::api::DeferredWrite>>,
    /// When the 100 ms tainting tick next runs while it sleeps (every zone queue empty: a tick
    /// then does nothing, so none is queued until a node is queued).
    tainting_asleep: Option<Millis>,
    /// The current simulated time, ms.
    pub now: Millis,
    start: Millis,
    /// Bumped at every kube-controller-manager restart, so the old process's wake-ups are ignored.
    kcm_epoch: u32,
    kcm_up: bool,
    base_api_latency: Millis,
    kcm_rng: Rng,
}

impl Simulation {
    /// Builds the cluster in its steady state at the start of the warm-up.
    pub fn new(cfg: Config, record_heartbeats: bool) -> Simulation {
        let p = &cfg.profile;
        let k = &cfg.kubelet;
        let kcm = &cfg.controller_manager;
        let kubelet_settings = KubeletSettings {
            update: k.node_status_update_frequency,
            report: k.node_status_report_frequency,
            lease_renew: k.lease_renew_interval,
            status_jitter: p.status_jitter,
            lease_jitter: p.lease_jitter,
            report_offset: p.report_offset_after_change,
            node_lease: k.node_lease,
            request_timeout: k
                .node_status_update_frequency
                .min(k.node_lease_duration_seconds * SECOND),
        };
        // Long enough for every loop to have run twice and the monitor pass to have seen it.
        let longest = kubelet_settings.update.max(kubelet_settings.lease_renew) * 104 / 100;
        let warmup = (2 * longest + 2 * kcm.node_monitor_period + 2 * SECOND).min(2 * HOUR);
        let start = -warmup;
        let mut api = Api {
            watch_latency: cfg.simulation.watch_latency,
            api_latency: cfg.simulation.api_latency,
            clients: Clients::new(
                kcm.kube_api_qps,
                kcm.kube_api_burst,
                p.separate_taint_eviction_controller,
            ),
            ..Api::default()
        };
        let mut kubelets = Vec::with_capacity(cfg.nodes.len());
        for (i, spec) in cfg.nodes.iter().enumerate() {
            let region = spec
                .labels
                .get("topology.kubernetes.io/region")
                .cloned()
                .unwrap_or_default();
            let zone_key = if region.is_empty() && spec.zone.is_empty() {
                String::new()
            } else {
                format!("{region}:\x00:{}", spec.zone)
            };
            let status = NodeStatus::healthy(start, &NodeStatus::default());
            api.add_node(Node {
                name: spec.name.clone(),
                zone_key,
                zone: spec.zone.clone(),
                labels: spec.labels.clone(),
                max_pods: spec.max_pods,
                created_at: start - HOUR,
                exists: spec.join_at.is_none(),
                status: Versioned::new(status),
                lease: Versioned::new(if k.node_lease { Some(start) } else { None }),
                taints: Vec::new(),
                unschedulable: false,
                pods: Vec::new(),
            });
            // The last periodic report happened some time in the last report interval.
            let mut kl = Kubelet::new(cfg.seed, i, start);
            let back = kl.phase(kubelet_settings.report);
            kl.last_report = Some(start - back);
            kubelets.push(kl);
        }
        let nlc = NodeLifecycleController::new(NlcSettings {
            grace: kcm.node_monitor_grace_period,
            startup_grace: kcm.node_startup_grace_period,
            eviction_qps: kcm.node_eviction_rate,
            secondary_qps: kcm.secondary_node_eviction_rate,
            large_cluster_threshold: kcm.large_cluster_size_threshold,
            unhealthy_zone_threshold: kcm.unhealthy_zone_threshold,
            legacy_pod_eviction_timeout: (!kcm.taint_based_evictions).then_some(kcm.pod_eviction_timeout),
            exclusion_by_label: p.exclusion_by_label,
            reads_leases: p.controller_reads_leases,
            lease_circuit_breaker: kcm.lease_circuit_breaker,
            pod_not_ready_events: p.pod_not_ready_events,
        });
        let taint_eviction = TaintEvictionController::new(p.taint_evictor_name(), p.pod_disruption_conditions);
        let podgc = PodGc::new(cfg.out_of_service_volume_detach, p.podgc_quarantine);
        let workloads = Workloads::new(cfg.workloads.clone(), cfg.api_server.clone(), cfg.seed, cfg.nodes.len());
        let base_api_latency = cfg.simulation.api_latency;
        let eps = EndpointSliceController::new(&cfg.workloads, p);
        api.watch_pod_status = eps.any();
        let proxy = KubeProxy::new(
            &cfg.kube_proxy,
            cfg.simulation.proxy_sync_duration,
            p,
            cfg.workloads.len(),
        );
        let mut sim = Simulation {
            eps,
            proxy,
            log: Log {
                events: Vec::new(),
                heartbeats: record_heartbeats,
            },
            api,
            kubelets,
            nlc,
            taint_eviction,
            podgc,
            workloads,
            scheduler: Scheduler::default(),
            warnings: Vec::new(),
            kubelet_settings,
            queue: BinaryHeap::new(),
            seq: 0,
            pushed_at: start,
            tainting_asleep: None,
            deferred: Vec::new(),
            now: start,
            start,
            kcm_epoch: 0,
            kcm_up: true,
            base_api_latency,
            kcm_rng: Rng::stream(cfg.seed, Stream::ControllerManager),
            cfg,
        };
        sim.nlc.dormancy.allowed = sim.dormancy_allowed();
        sim.bootstrap();
        sim
    }

    fn push(&mut self, at: Millis, wake: Wake) {
        self.seq += 1;
        self.queue.push(Reverse((at, self.now, self.seq, wake)));
    }

    /// Queues a wake-up as if it had been pushed at `pushed_at` (a lazy loop's next iteration).
    fn push_as_of(&mut self, at: Millis, pushed_at: Millis, wake: Wake) {
        if pushed_at == self.now {
            return self.push(at, wake);
        }
        self.queue.push(Reverse((at, pushed_at, 0, wake)));
    }

    fn tick(n: NodeId, which: HeartbeatLoop, epoch: u32) -> Wake {
        match which {
            HeartbeatLoop::Status => Wake::StatusTick { node: n, epoch },
            HeartbeatLoop::Lease => Wake::LeaseTick { node: n, epoch },
        }
    }

    /// Plans a heartbeat loop's next iteration: lazy while the node is plain, queued otherwise.
    fn schedule_loop(&mut self, n: NodeId, which: HeartbeatLoop, next: Millis, pushed_at: Millis) {
        let kl = &self.kubelets[n];
        if is_plain(kl, n, &self.api, &self.kubelet_settings, &self.log) {
            *self.kubelets[n].loop_state(which) = LoopState::Lazy { next, pushed_at };
        } else {
            let epoch = kl.epoch;
            *self.kubelets[n].loop_state(which) = LoopState::Queued;
            self.push_as_of(next, pushed_at, Self::tick(n, which, epoch));
        }
        self.report_steady(n);
    }

    /// Runs node `n`'s lazy iterations due before the wake-up being handled; a dormant node is
    /// woken in the node lifecycle controller with what they wrote.
    fn catch_up(&mut self, n: NodeId) {
        let (now, pushed_at) = (self.now, self.pushed_at);
        let s = &self.kubelet_settings;
        if self.nlc.is_dormant(n) {
            let mut history = WriteHistory::default();
            let (api, log) = (&mut self.api, &mut self.log);
            self.kubelets[n].catch_up(now, pushed_at, n, api, log, s, Some(&mut history));
            self.nlc.wake(n, &history);
        } else {
            self.kubelets[n].catch_up(now, pushed_at, n, &mut self.api, &mut self.log, s, None);
        }
    }

    /// [`Self::catch_up`] for every node, up to `until` (every iteration due then, with
    /// `Millis::MAX`), without waking dormant nodes: at the end of the run.
    fn catch_up_all(&mut self, until: Millis, pushed_at: Millis) {
        let s = &self.kubelet_settings;
        for (n, k) in self.kubelets.iter_mut().enumerate() {
            k.catch_up(until, pushed_at, n, &mut self.api, &mut self.log, s, None);
        }
    }

    /// [`Self::catch_up`] for the nodes the next monitor pass looks at (all but dormant ones).
    fn catch_up_awake(&mut self) {
        let (now, pushed_at) = (self.now, self.pushed_at);
        let s = &self.kubelet_settings;
        if !self.nlc.dormancy.any() {
            return self.catch_up_all(now, pushed_at);
        }
        for &n in &self.nlc.dormancy.awake {
            self.kubelets[n].catch_up(now, pushed_at, n, &mut self.api, &mut self.log, s, None);
        }
    }

    /// Whether the configuration keeps every probe refresh of a node with steady heartbeats
    /// within the grace period, so that such a node may go dormant (see the node lifecycle
    /// controller's dormancy): the gap between two renewals (renew interval plus 4% jitter and
    /// the API round trip), plus a pass, plus a second of margin, stays below the grace period.
    /// With no informer or API latency at all, ties within one millisecond would matter, so
    /// nodes stay awake.
    fn dormancy_allowed(&self) -> bool {
        let s = &self.kubelet_settings;
        let c = &self.cfg.controller_manager;
        let gap = s.lease_renew * 104 / 100 + self.api.api_latency;
        let pass = c.node_monitor_period + self.cfg.simulation.monitor_pass_duration;
        s.node_lease
            && self.cfg.profile.controller_reads_leases
            && self.api.api_latency + self.api.watch_latency > 0
            && gap + pass + SECOND < c.node_monitor_grace_period
    }

    /// Tells the node lifecycle controller whether node `n`'s heartbeats are steady.
    fn report_steady(&mut self, n: NodeId) {
        let steady = self.kubelets[n].steady();
        self.nlc.set_steady(n, steady);
    }

    /// Node `n` may stop being plain: its lazy loops go back into the event queue, as the
    /// wake-ups they would have been.
    fn wake_up(&mut self, n: NodeId) {
        for which in [HeartbeatLoop::Status, HeartbeatLoop::Lease] {
            if let LoopState::Lazy { next, pushed_at } = *self.kubelets[n].loop_state(which) {
                let epoch = self.kubelets[n].epoch;
                *self.kubelets[n].loop_state(which) = LoopState::Queued;
                self.push_as_of(next, pushed_at, Self::tick(n, which, epoch));
            }
        }
        self.report_steady(n);
    }

    fn bootstrap(&mut self) {
        let start = self.start;
        // Pods already run everywhere: create, place and start them without recording anything.
        for w in 0..self.workloads.specs.len() {
            let created = self.workloads.sync(start, w, &mut self.api, &mut self.log);
            self.scheduler
                .place_initial(start, &created, &mut self.api, &mut self.log);
            for p in created {
                if self.api.pods[p].node.is_some() {
                    self.api.pods[p].running = true;
                    self.api.pods[p].ready = Some(true);
                }
            }
        }
        self.api.outbox.clear();
        // The cluster ran before: its controllers' buckets are full again at the start, and every
        // Service's slice and every proxy's rules show the pods as they run.
        self.api.clients.restart();
        self.eps.initialize(&mut self.api);
        self.proxy.initialize(&self.api);
        for n in 0..self.kubelets.len() {
            self.api.node_changed(n);
        }
        for n in 0..self.kubelets.len() {
            if self.cfg.nodes[n].join_at.is_some() {
                continue;
            }
            self.start_kubelet_loops(n, start, true);
        }
        self.start_controller_manager(start);
        for (i, a) in self.cfg.actions.clone().iter().enumerate() {
            self.push(a.at, Wake::Action(i));
        }
    }

    /// Starts a kubelet's two loops; at the start of the run they begin at a random phase.
    fn start_kubelet_loops(&mut self, n: NodeId, at: Millis, random_phase: bool) {
        let s = &self.kubelet_settings;
        let (u, l, lease) = (s.update, s.lease_renew, s.node_lease);
        let kl = &mut self.kubelets[n];
        let (status_phase, lease_phase) = if random_phase {
            (kl.phase(u), kl.phase(l))
        } else {
            (0, 0)
        };
        let now = self.now;
        self.schedule_loop(n, HeartbeatLoop::Status, at + status_phase, now);
        if lease {
            self.schedule_loop(n, HeartbeatLoop::Lease, at + lease_phase, now);
        }
    }

    /// Starts kube-controller-manager's periodic loops at phases drawn from the seed.
    fn start_controller_manager(&mut self, at: Millis) {
        let kcm = self.kcm_epoch;
        let p = self.cfg.controller_manager.node_monitor_period;
        let monitor_phase = self.kcm_rng.below(p as u64) as Millis;
        let tick_phase = self.kcm_rng.below(NODE_EVICTION_PERIOD as u64) as Millis;
        let gc_phase = self.kcm_rng.below(GC_CHECK_PERIOD as u64) as Millis;
        self.push(at + monitor_phase, Wake::MonitorPass { kcm });
        self.push(at + tick_phase, Wake::TaintingTick { kcm });
        self.push(at + gc_phase, Wake::PodGcTick { kcm });
    }

    /// Runs to the end of the scenario.
    pub fn run(&mut self) {
        let end = self.cfg.duration;
        let mut opened = false;
        while let Some(Reverse((at, pushed_at, _, wake))) = self.queue.pop() {
            if at > end {
                break;
            }
            self.pushed_at = pushed_at;
            if !opened && at >= 0 {
                opened = true;
                self.now = 0;
                self.record_initial_state();
            }
            self.now = at;
            self.dispatch(wake);
            self.drain_outbox();
            self.wake_tainting();
        }
        if !opened {
            self.now = 0;
            self.record_initial_state();
        }
        self.now = end;
        // Every iteration due by the end ran in a queued run; the lazy ones are counted.
        for k in &mut self.kubelets {
            k.finish(end, &mut self.api, &self.kubelet_settings);
        }
    }

    /// Queues the sleeping tainting tick again once a zone queue holds a node, at the time it
    /// would have run had it kept ticking: the first tick of its 100 ms grid after the wake-up
    /// being handled (a tick at this very millisecond counts if it would have come after it).
    fn wake_tainting(&mut self) {
        let Some(mut at) = self.tainting_asleep else { return };
        if !self.kcm_up || self.nlc.zones.queues_empty() {
            return;
        }
        if at < self.now {
            at += (self.now - at + NODE_EVICTION_PERIOD - 1) / NODE_EVICTION_PERIOD * NODE_EVICTION_PERIOD;
        }
        if at == self.now && at - NODE_EVICTION_PERIOD <= self.pushed_at {
            at += NODE_EVICTION_PERIOD;
        }
        self.tainting_asleep = None;
        let kcm = self.kcm_epoch;
        self.push_as_of(at, at - NODE_EVICTION_PERIOD, Wake::TaintingTick { kcm });
    }

    fn drain_outbox(&mut self) {
        // Writes waiting for a rate limiter go into the queue at the time they are sent.
        if !self.api.pending.is_empty() {
            let kcm = self.kcm_epoch;
            for p in std::mem::take(&mut self.api.pending) {
                self.deferred.push(Some(p.write));
                let slot = self.deferred.len() - 1;
                self.push(p.at, Wake::Apply { slot, kcm });
            }
        }
        // A node whose taints changed is no longer quiet: a dormant one wakes.
        if !self.api.taints_changed.is_empty() {
            for n in std::mem::take(&mut self.api.taints_changed) {
                if self.nlc.is_dormant(n) {
                    self.catch_up(n);
                }
            }
        }
        if self.api.outbox.is_empty() {
            return;
        }
        let out = std::mem::take(&mut self.api.outbox);
        for (at, w) in out {
            self.push(at.max(self.now), Wake::Watch(w));
        }
    }

    fn record_initial_state(&mut self) {
        let api = &self.api;
        for (n, node) in api.nodes.iter().enumerate().filter(|(_, node)| node.exists) {
            let zone = if node.zone.is_empty() {
                Cause::new("cause.part.no_zone")
            } else {
                Cause::new("cause.part.zone").text("zone", &node.zone)
            };
            self.log.push(
                Event::new(
                    0,
                    EventKind::NodeRegistered,
                    Cause::new("cause.initial.registered").sub("zone", zone),
                )
                .node(n),
            );
            if node.status.latest().ready_status() == Some(CondStatus::True) {
                let beat = if self.kubelet_settings.node_lease {
                    "cause.part.beat_lease"
                } else {
                    "cause.part.beat_no_lease"
                };
                let cause = Cause::new("cause.initial.ready").sub("beat", Cause::new(beat));
                self.log.push(Event::new(0, EventKind::NodeReady, cause).node(n));
            }
        }
        for (p, pod) in api.pods.iter().enumerate() {
            if !pod.exists() {
                continue;
            }
            let owner = self.workloads.owner_name(pod.workload);
            self.log.push(
                Event::new(
                    0,
                    EventKind::PodCreated,
                    Cause::new("cause.initial.pod").text("owner", owner),
                )
                .pod(p),
            );
            if let Some(n) = pod.node {
                self.log.push(
                    Event::new(
                        0,
                        EventKind::PodScheduled,
                        Cause::new("cause.initial.running").text("node", &api.nodes[n].name),
                    )
                    .node(n)
                    .pod(p),
                );
                if pod.ready == Some(true) {
                    self.log.push(
                        Event::new(0, EventKind::PodReady, Cause::new("cause.initial.pod_ready"))
                            .node(n)
                            .pod(p),
                    );
                }
            }
        }
    }

    fn dispatch(&mut self, wake: Wake) {
        let now = self.now;
        let kcm_live = |k: u32, s: &Simulation| s.kcm_up && k == s.kcm_epoch;
        match wake {
            Wake::StatusTick { node, epoch } => {
                if self.kubelets[node].epoch != epoch || !self.kubelets[node].running() {
                    return;
                }
                let wait = self.kubelets[node].run_loop(
                    HeartbeatLoop::Status,
                    now,
                    node,
                    &mut self.api,
                    &mut self.log,
                    &self.kubelet_settings,
                );
                self.schedule_loop(node, HeartbeatLoop::Status, now + wait, now);
            }
            Wake::LeaseTick { node, epoch } => {
                if self.kubelets[node].epoch != epoch || !self.kubelets[node].running() {
                    return;
                }
                let wait = self.kubelets[node].run_loop(
                    HeartbeatLoop::Lease,
                    now,
                    node,
                    &mut self.api,
                    &mut self.log,
                    &self.kubelet_settings,
                );
                self.schedule_loop(node, HeartbeatLoop::Lease, now + wait, now);
            }
            Wake::Register { node, epoch, step } => self.register(node, epoch, step),
            Wake::MonitorPass { kcm } if kcm_live(kcm, self) => {
                self.catch_up_awake();
                self.nlc.monitor_node_health(now, &mut self.api, &mut self.log);
                let gets = std::mem::take(&mut self.nlc.live_lease_gets);
                self.api.clients.send(Controller::NodeLifecycle, now, gets);
                for n in std::mem::take(&mut self.api.status_written_by_controller) {
                    self.wake_up(n);
                }
                // The pass waits for its own requests (wait.Until slides: the next pass starts
                // --node-monitor-period after this one ends).
                let finished = self.api.clients.last_sent(Controller::NodeLifecycle).max(now);
                let next = finished
                    + self.cfg.simulation.monitor_pass_duration
                    + self.cfg.controller_manager.node_monitor_period;
                self.push(next, Wake::MonitorPass { kcm });
            }
            Wake::TaintingTick { kcm } if kcm_live(kcm, self) => {
                if self.cfg.controller_manager.taint_based_evictions {
                    self.nlc.do_no_execute_tainting_pass(now, &mut self.api, &mut self.log);
                } else {
                    self.nlc.do_eviction_pass(now, &mut self.api, &mut self.log);
                }
                if self.nlc.zones.queues_empty() {
                    self.tainting_asleep = Some(now + NODE_EVICTION_PERIOD);
                } else {
                    self.push(now + NODE_EVICTION_PERIOD, Wake::TaintingTick { kcm });
                }
            }
            Wake::PodGcTick { kcm } if kcm_live(kcm, self) => {
                self.podgc.run(now, &mut self.api, &mut self.log);
                self.push(now + GC_CHECK_PERIOD, Wake::PodGcTick { kcm });
            }
            Wake::ControllerManagerStart { kcm } if kcm == self.kcm_epoch => self.controller_manager_started(),
            Wake::MonitorPass { .. }
            | Wake::TaintingTick { .. }
            | Wake::PodGcTick { .. }
            | Wake::ControllerManagerStart { .. } => {}
            Wake::Action(i) => self.apply_action(i),
            Wake::Watch(w) => self.deliver(w),
            Wake::SliceWrite { service, kcm } => {
                if kcm_live(kcm, self) {
                    self.eps.write(now, service, &mut self.api, &mut self.log);
                }
            }
            Wake::ProxySync => self.proxy_sync(),
            Wake::ProxySyncDone => {
                let connected = self.connected_proxies();
                self.proxy.finish(now, &self.api, &mut self.log, connected);
            }
            Wake::Apply { slot, kcm } => {
                // A write of a kube-controller-manager that has stopped since was never sent.
                if let Some(write) = self.deferred[slot].take().filter(|_| kcm_live(kcm, self)) {
                    self.api.apply(now, write, &mut self.log);
                }
            }
            Wake::Evict { pod, generation, kcm } => {
                if kcm_live(kcm, self) {
                    self.taint_eviction
                        .fire(now, pod, generation, &mut self.api, &mut self.log);
                }
            }
            Wake::PodStarted { pod, epoch } => self.pod_started(pod, epoch),
            Wake::PodTerminated { pod } => {
                if self.api.remove_pod(now, pod) {
                    let n = self.api.pods[pod].node;
                    let mut e = Event::new(now, EventKind::PodRemoved, Cause::new("cause.pod_removed.confirmed"));
                    e.node = n;
                    self.log.push(e.pod(pod));
                }
            }
        }
    }

    fn taint_manager_runs(&self) -> bool {
        self.kcm_up && self.cfg.controller_manager.enable_taint_manager
    }

    /// The pods' Service (if any) syncs its slice when the informer shows a pod change.
    fn pod_changed(&mut self, p: PodId) {
        if !self.kcm_up || !self.eps.any() {
            return;
        }
        let kcm = self.kcm_epoch;
        if let Some((at, service)) = self.eps.pod_changed(self.now, p, &mut self.api, &mut self.log) {
            self.push(at, Wake::SliceWrite { service, kcm });
        }
    }

    /// Nodes whose kube-proxy runs and reaches the apiserver, and nodes whose kube-proxy runs
    /// but is cut off from it (a partition).
    fn connected_proxies(&self) -> (usize, usize) {
        let (mut connected, mut cut_off) = (0, 0);
        for (n, node) in self.api.nodes.iter().enumerate() {
            if !node.exists {
                continue;
            }
            match self.kubelets[n].fault {
                Some(ActionKind::NetworkPartition) => cut_off += 1,
                _ if self.kubelets[n].proxy_connected() => connected += 1,
                _ => {}
            }
        }
        (connected, cut_off)
    }

    /// The connected proxies saw a slice change (or one reconnected): they plan a sync.
    fn proxy_changed(&mut self) {
        if let Some(at) = self.proxy.request(self.now) {
            self.push(at, Wake::ProxySync);
        }
    }

    fn proxy_sync(&mut self) {
        if self.connected_proxies().0 == 0 {
            // Nobody can read the slices: every proxy keeps its rules until one reconnects.
            self.proxy.scheduled = None;
            return;
        }
        let end = self.proxy.start(self.now, &self.api);
        self.push(end, Wake::ProxySyncDone);
    }

    fn deliver(&mut self, w: Watch) {
        let now = self.now;
        if let Watch::PodCreated(p)
        | Watch::PodBound(p)
        | Watch::PodStatus(p)
        | Watch::PodDeleting(p)
        | Watch::PodRemoved(p) = w
        {
            self.pod_changed(p);
        }
        let mut wakes: Vec<EvictWake> = Vec::new();
        let kcm = self.kcm_up;
        let te = self.taint_manager_runs();
        match w {
            Watch::NodeConditions(n) => {
                if kcm {
                    self.nlc
                        .do_no_schedule_tainting_pass(now, n, &mut self.api, &mut self.log);
                }
            }
            Watch::NodeTaints(n) => {
                if te {
                    self.taint_eviction
                        .handle_node_update(now, n, &self.api, &mut self.log, &mut wakes);
                }
                if kcm {
                    self.sync_daemonsets();
                }
                if !self.scheduler.is_idle() {
                    self.scheduler.retry_pending(now, &mut self.api, &mut self.log);
                }
            }
            Watch::PodCreated(p) => self.scheduler.schedule(now, p, &mut self.api, &mut self.log),
            // `handlePodUpdate` sees the new tolerations; a timer already set stays where it is.
            Watch::PodTolerations(p) if te => {
                self.taint_eviction
                    .handle_pod_update(now, p, &self.api, &mut self.log, &mut wakes);
            }
            Watch::PodTolerations(_) => {}
            Watch::PodBound(p) => {
                if te {
                    self.taint_eviction
                        .handle_pod_update(now, p, &self.api, &mut self.log, &mut wakes);
                }
                if kcm {
                    self.nlc.process_pod(now, p, &mut self.api, &mut self.log);
                }
                self.kubelet_start_pod(p);
            }
            Watch::PodDeleting(p) => {
                if kcm {
                    let w = self.api.pods[p].workload;
                    self.workloads.sync(now, w, &mut self.api, &mut self.log);
                }
                self.kubelet_terminate_pod(p);
            }
            Watch::PodStatus(_) => {}
            Watch::Slice(_) => self.proxy_changed(),
            Watch::PodRemoved(p) => {
                if te {
                    self.taint_eviction
                        .handle_pod_update(now, p, &self.api, &mut self.log, &mut wakes);
                }
                if kcm {
                    let w = self.api.pods[p].workload;
                    self.workloads.sync(now, w, &mut self.api, &mut self.log);
                }
                if !self.scheduler.is_idle() {
                    self.scheduler.retry_pending(now, &mut self.api, &mut self.log);
                }
            }
        }
        self.push_evictions(wakes);
    }

    fn push_evictions(&mut self, wakes: Vec<EvictWake>) {
        let kcm = self.kcm_epoch;
        for wk in wakes {
            self.push(
                wk.at.max(self.now),
                Wake::Evict {
                    pod: wk.pod,
                    generation: wk.generation,
                    kcm,
                },
            );
        }
    }

    fn sync_daemonsets(&mut self) {
        for w in 0..self.workloads.specs.len() {
            if self.workloads.specs[w].kind == crate::scenario::WorkloadKind::DaemonSet {
                self.workloads.sync(self.now, w, &mut self.api, &mut self.log);
            }
        }
    }

    /// The kubelet notices a pod bound to its node and starts it, if it can (its pod worker's
    /// `SyncPod`; Ready follows once the readiness probe passes, after `podStartup`).
    fn kubelet_start_pod(&mut self, p: PodId) {
        let Some(n) = self.api.pods[p].node else { return };
        let kl = &self.kubelets[n];
        if !kl.reachable() || !self.api.nodes[n].exists || !self.api.pods[p].is_active() || self.api.pods[p].running {
            return;
        }
        let at = self.now + self.cfg.simulation.pod_startup;
        self.push(
            at,
            Wake::PodStarted {
                pod: p,
                epoch: kl.epoch,
            },
        );
    }

    /// The kubelet notices a deletion and stops the pod's containers, if it can (`SyncTerminatingPod`,
    /// within the grace period), then removes the object with its final DELETE.
    fn kubelet_terminate_pod(&mut self, p: PodId) {
        let Some(n) = self.api.pods[p].node else { return };
        if !self.kubelets[n].reachable() || !self.api.nodes[n].exists || !self.api.pods[p].exists() {
            return;
        }
        let stop = if self.api.pods[p].running {
            CONTAINER_STOP.min(self.api.pods[p].grace_seconds * SECOND)
        } else {
            0
        };
        self.push(self.now + stop + self.api.api_latency, Wake::PodTerminated { pod: p });
    }

    fn pod_started(&mut self, p: PodId, epoch: u32) {
        let now = self.now;
        let Some(n) = self.api.pods[p].node else { return };
        let kl = &self.kubelets[n];
        if kl.epoch != epoch || !kl.reachable() || !self.api.pods[p].is_active() {
            return;
        }
        let was_running = self.api.pods[p].running;
        self.api.pods[p].running = true;
        if self.api.set_pod_ready(now, p, true) && self.log.wants(now, EventKind::PodReady) {
            let pod = &self.api.pods[p];
            let replaces = pod.replaces.map_or_else(Cause::none, |r| {
                Cause::new("cause.part.replaces").text("pod", &self.api.pods[r].name)
            });
            let cause = if was_running {
                Cause::new("cause.pod_ready.back")
            } else {
                Cause::new("cause.pod_ready.started")
                    .time("startup", self.cfg.simulation.pod_startup)
                    .sub("replaces", replaces)
            };
            self.log
                .push(Event::new(now, EventKind::PodReady, cause).node(n).pod(p));
        }
    }

    /// A joining kubelet's registration attempt (`registerWithAPIServer`): sleep, then Create;
    /// on failure double the sleep up to 7 s.
    fn register(&mut self, n: NodeId, epoch: u32, step: Millis) {
        let now = self.now;
        if self.kubelets[n].epoch != epoch || !self.kubelets[n].running() || self.api.nodes[n].exists {
            return;
        }
        if !self.kubelets[n].reachable() || self.api.api_latency >= self.kubelet_settings.request_timeout {
            let next = (step * 2).min(BACKOFF_MAX);
            self.push(
                now + next,
                Wake::Register {
                    node: n,
                    epoch,
                    step: next,
                },
            );
            return;
        }
        let node = &mut self.api.nodes[n];
        node.exists = true;
        node.created_at = now;
        // The status setters run before Create, so the Node carries a Ready condition at once and
        // the node lifecycle controller does not need --node-startup-grace-period for it.
        node.status = Versioned::new(NodeStatus::default());
        let status = NodeStatus::healthy(now, &NodeStatus::default());
        self.api.node_changed(n);
        self.api.patch_node_status(now, n, status);
        self.kubelets[n].last_report = Some(now);
        self.log
            .push(Event::new(now, EventKind::NodeCreated, Cause::new("cause.node_created")).node(n));
        let u = self.kubelet_settings.update;
        self.schedule_loop(n, HeartbeatLoop::Status, now + u, now);
        if self.kubelet_settings.node_lease {
            self.schedule_loop(n, HeartbeatLoop::Lease, now, now);
        }
        self.sync_daemonsets();
        if !self.scheduler.is_idle() {
            self.scheduler.retry_pending(now, &mut self.api, &mut self.log);
        }
    }

    fn apply_action(&mut self, i: usize) {
        let a = self.cfg.actions[i].clone();
        match a.action {
            ActionKind::NodeCrash
            | ActionKind::KubeletStop
            | ActionKind::NetworkPartition
            | ActionKind::NodeRecover
            | ActionKind::NodeShutdown => {
                let n = a.node.expect("validated: faults name a node");
                self.catch_up(n);
                self.wake_up(n);
                self.apply_fault(&a, n)
            }
            ActionKind::NodeJoin => {
                let n = a.node.expect("validated");
                let epoch = self.kubelets[n].epoch;
                self.push(
                    self.now + REGISTRATION_FIRST_STEP,
                    Wake::Register {
                        node: n,
                        epoch,
                        step: REGISTRATION_FIRST_STEP,
                    },
                );
            }
            ActionKind::ControllerManagerRestart => self.restart_controller_manager(a.duration),
            ActionKind::OutOfServiceTaint => self.out_of_service(a.node.expect("validated"), a.effect),
            ActionKind::DeleteNode => self.delete_node(a.node.expect("validated")),
            ActionKind::ForceDeletePod => self.force_delete(i, a.pod.as_deref().unwrap_or_default()),
            ActionKind::Drain => self.drain(a.node.expect("validated")),
            ActionKind::PatchTolerations => {
                self.patch_tolerations(a.workload.expect("validated"), a.toleration_seconds)
            }
            ActionKind::ApiServerLatency => {
                // Lazy loops ran with the old latency up to now; if heartbeats fail from now on,
                // every loop goes back into the queue.
                for n in 0..self.kubelets.len() {
                    self.catch_up(n);
                }
                self.api.api_latency = self.base_api_latency + a.latency;
                self.nlc.dormancy.allowed = self.dormancy_allowed();
                if self.api.api_latency >= self.kubelet_settings.request_timeout {
                    for n in 0..self.kubelets.len() {
                        self.wake_up(n);
                    }
                }
                let timeout = self.kubelet_settings.request_timeout;
                let fails = if self.api.api_latency >= timeout {
                    Cause::new("cause.part.heartbeat_timeout").time("timeout", timeout)
                } else {
                    Cause::none()
                };
                let cause = Cause::new("cause.api_latency")
                    .time("extra", a.latency)
                    .time("total", self.api.api_latency)
                    .sub("fails", fails);
                self.log
                    .push(Event::new(self.now, EventKind::ApiServerLatencyChanged, cause));
            }
        }
    }

    fn apply_fault(&mut self, a: &ActionSpec, n: NodeId) {
        let now = self.now;
        let name = self.api.nodes[n].name.clone();
        let old = self.kubelets[n].fault;
        if a.action == ActionKind::NodeRecover {
            if let Some(f) = old {
                let why = Cause::new("cause.fault.recovers")
                    .text("node", &name)
                    .text("fault", format!("{f:?}"));
                self.recover(n, f, why);
            }
            return;
        }
        if let Some(f) = old {
            let why = Cause::new("cause.fault.replaced")
                .text("new", format!("{:?}", a.action))
                .text("old", format!("{f:?}"))
                .text("node", &name);
            self.recover(n, f, why);
        }
        let key = match a.action {
            ActionKind::NodeCrash => "cause.fault.crash",
            ActionKind::KubeletStop => "cause.fault.kubelet_stop",
            _ => "cause.fault.partition",
        };
        let cause = Cause::new(key).text("action", format!("{:?}", a.action));
        self.kubelets[n].fault = Some(a.action);
        match a.action {
            ActionKind::NodeCrash => {
                self.kubelets[n].stop();
                for p in self.api.nodes[n].pods.clone() {
                    self.api.stop_pod(now, p);
                }
            }
            ActionKind::KubeletStop => self.kubelets[n].stop(),
            _ => {}
        }
        self.log.push(Event::new(now, EventKind::FaultStarted, cause).node(n));
    }

    fn recover(&mut self, n: NodeId, fault: ActionKind, why: Cause) {
        let now = self.now;
        self.kubelets[n].fault = None;
        let restarted = matches!(fault, ActionKind::NodeCrash | ActionKind::KubeletStop);
        let key = if restarted {
            "cause.fault.ended_restart"
        } else {
            "cause.fault.ended_reconnect"
        };
        self.log
            .push(Event::new(now, EventKind::FaultEnded, Cause::new(key).sub("why", why)).node(n));
        // The node's kube-proxy is back in touch with the apiserver: it resyncs.
        if self.eps.any() {
            self.proxy_changed();
        }
        if restarted {
            self.kubelets[n].restart();
            if self.api.nodes[n].exists {
                self.start_kubelet_loops(n, now, false);
            } else {
                let epoch = self.kubelets[n].epoch;
                self.push(
                    now + REGISTRATION_FIRST_STEP,
                    Wake::Register {
                        node: n,
                        epoch,
                        step: REGISTRATION_FIRST_STEP,
                    },
                );
            }
        }
        // The kubelet resyncs its pods from the apiserver (`syncLoop`/`HandlePodCleanups`): pods being
        // deleted are terminated, pods not running are started, and the status manager reports the
        // Ready condition of containers that kept running.
        for p in self.api.nodes[n].pods.clone() {
            let pod = &self.api.pods[p];
            if pod.deletion_requested_at.is_some() {
                self.kubelet_terminate_pod(p);
            } else if !pod.running {
                self.kubelet_start_pod(p);
            } else if pod.ready == Some(false) {
                // Containers kept running: the status manager reports Ready again.
                let epoch = self.kubelets[n].epoch;
                self.push(now + self.api.watch_latency, Wake::PodStarted { pod: p, epoch });
            }
        }
    }

    /// kube-controller-manager stops; a new process (or leader) starts after `downtime`. Every
    /// controller inside it starts from scratch: pending taint evictions are lost, and the node
    /// lifecycle controller re-registers every node (removing and re-adding NoExecute taints).
    fn restart_controller_manager(&mut self, downtime: Millis) {
        let now = self.now;
        self.kcm_epoch += 1;
        self.tainting_asleep = None;
        self.api.clients.restart();
        self.kcm_up = false;
        let pending = self.taint_eviction.timers.iter().filter(|t| t.is_some()).count();
        self.log.push(Event::new(
            now,
            EventKind::ControllerManagerStopped,
            Cause::new("cause.kcm.stopped")
                .text("pending", pending)
                .time("downtime", downtime),
        ));
        let kcm = self.kcm_epoch;
        self.push(now + downtime, Wake::ControllerManagerStart { kcm });
    }

    fn controller_manager_started(&mut self) {
        let now = self.now;
        self.kcm_up = true;
        self.nlc.restart();
        self.taint_eviction.restart();
        self.podgc.restart();
        self.log.push(Event::new(
            now,
            EventKind::ControllerManagerStarted,
            Cause::new("cause.kcm.started"),
        ));
        // Informers deliver every object again: taint eviction sees each node, workload controllers resync.
        let mut wakes = Vec::new();
        if self.cfg.controller_manager.enable_taint_manager {
            for n in 0..self.api.nodes.len() {
                self.taint_eviction
                    .handle_node_update(now, n, &self.api, &mut self.log, &mut wakes);
            }
        }
        self.push_evictions(wakes);
        for w in 0..self.workloads.specs.len() {
            self.workloads.sync(now, w, &mut self.api, &mut self.log);
        }
        let kcm = self.kcm_epoch;
        for (at, service) in self.eps.restart(now, &mut self.api, &mut self.log) {
            self.push(at, Wake::SliceWrite { service, kcm });
        }
        // wait.Until runs its function at once.
        let kcm = self.kcm_epoch;
        self.push(now, Wake::MonitorPass { kcm });
        self.push(now + NODE_EVICTION_PERIOD, Wake::TaintingTick { kcm });
        self.push(now, Wake::PodGcTick { kcm });
    }

    fn out_of_service(&mut self, n: NodeId, effect: Effect) {
        let now = self.now;
        let taint = Taint::new(TAINT_OUT_OF_SERVICE, effect, now);
        if self.api.swap_taints(now, n, std::slice::from_ref(&taint), &[]) {
            let what = if effect == Effect::NoExecute {
                "cause.part.oos_no_execute"
            } else {
                "cause.part.oos_no_schedule"
            };
            let gc = if self.cfg.out_of_service_volume_detach {
                "cause.part.oos_gc"
            } else {
                "cause.part.oos_no_gc"
            };
            self.log.push(
                Event::new(
                    now,
                    EventKind::TaintAdded,
                    Cause::new("cause.out_of_service")
                        .sub("what", Cause::new(what))
                        .sub("gc", Cause::new(gc)),
                )
                .node(n)
                .taint(taint.label()),
            );
        }
    }

    fn delete_node(&mut self, n: NodeId) {
        let now = self.now;
        if !self.api.nodes[n].exists {
            return;
        }
        self.catch_up(n);
        self.wake_up(n);
        self.api.nodes[n].exists = false;
        self.api.node_changed(n);
        self.api.count(now, |w| w.node_deletes += 1);
        self.api.outbox.push((
            now + self.api.api_latency + self.api.watch_latency,
            Watch::NodeTaints(n),
        ));
        let pods = self.api.nodes[n].pods.len();
        let gc = if self.cfg.profile.podgc_quarantine {
            "cause.part.gc_quarantine"
        } else {
            "cause.part.gc_next"
        };
        let cause = Cause::new("cause.node_deleted")
            .text("pods", pods)
            .sub("gc", Cause::new(gc));
        self.log.push(Event::new(now, EventKind::NodeDeleted, cause).node(n));
    }

    fn force_delete(&mut self, action: usize, name: &str) {
        let now = self.now;
        let found = (0..self.api.pods.len())
            .rev()
            .find(|&p| self.api.pods[p].exists() && self.api.pods[p].name == name);
        match found {
            Some(p) if self.api.remove_pod(now, p) => {
                let mut e = Event::new(now, EventKind::PodRemoved, Cause::new("cause.force_deleted")).pod(p);
                e.node = self.api.pods[p].node;
                self.log.push(e);
            }
            _ => self.warnings.push(
                Cause::new("warn.force_delete_missing")
                    .text("action", action)
                    .text("name", format!("{name:?}"))
                    .time("at", now),
            ),
        }
    }

    /// An operator patches `tolerationSeconds` of the `not-ready` and `unreachable` NoExecute
    /// tolerations of every live pod of a workload. Pod update validation
    /// (`validateOnlyAddedTolerations`) lets only this field of an existing toleration change.
    /// Taint eviction sees the update through its pod watch (`handlePodUpdate`).
    fn patch_tolerations(&mut self, w: usize, seconds: i64) {
        let now = self.now;
        let keys = [crate::api::TAINT_NOT_READY, crate::api::TAINT_UNREACHABLE];
        for p in 0..self.api.pods.len() {
            let pod = &mut self.api.pods[p];
            if pod.workload != w || !pod.exists() || pod.deletion_requested_at.is_some() {
                continue;
            }
            let mut changed = false;
            for t in std::rc::Rc::make_mut(&mut pod.tolerations).iter_mut() {
                let no_execute = t.effect.is_none_or(|e| e == Effect::NoExecute);
                if keys.contains(&t.key.as_str()) && no_execute && t.toleration_seconds.is_some() {
                    t.toleration_seconds = Some(seconds);
                    changed = true;
                }
            }
            if !changed {
                continue;
            }
            // One operator PATCH per pod; operator writes are not part of the write counts.
            let at = now + self.api.api_latency + self.api.watch_latency;
            self.api.outbox.push((at, Watch::PodTolerations(p)));
            let timer = self
                .taint_eviction
                .timers
                .get(p)
                .and_then(Option::as_ref)
                .map(|t| t.fire_at);
            let rule = match timer {
                Some(fire_at) => Cause::new("cause.part.patch_kept").time("at", fire_at),
                None => Cause::new("cause.part.patch_fresh"),
            };
            let mut e = Event::new(
                now,
                EventKind::PodTolerationsPatched,
                Cause::new("cause.patch_tolerations")
                    .text("seconds", seconds)
                    .sub("rule", rule),
            )
            .pod(p);
            e.node = self.api.pods[p].node;
            self.log.push(e);
        }
    }

    fn drain(&mut self, n: NodeId) {
        let now = self.now;
        if !self.api.nodes[n].unschedulable {
            self.api.nodes[n].unschedulable = true;
            self.api.node_changed(n);
            self.log
                .push(Event::new(now, EventKind::NodeCordoned, Cause::new("cause.drain.cordon")).node(n));
            self.nlc
                .do_no_schedule_tainting_pass(now, n, &mut self.api, &mut self.log);
        }
        for p in self.api.nodes[n].pods.clone() {
            if self.api.pods[p].daemon {
                continue;
            }
            if self.api.request_pod_deletion(now, p) {
                let grace = self.api.pods[p].grace_seconds;
                let alive = self.kubelets[n].reachable();
                let then = if alive {
                    "cause.part.drain_alive"
                } else {
                    "cause.part.drain_dead"
                };
                let cause = Cause::new("cause.drain.evict")
                    .text("grace", grace)
                    .sub("then", Cause::new(then));
                self.log
                    .push(Event::new(now, EventKind::PodDeletionRequested, cause).node(n).pod(p));
            }
        }
    }
}

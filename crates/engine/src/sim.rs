//! The discrete-event driver: one queue of wake-ups, processed in time order.
//!
//! The run starts with a warm-up before time 0 so that every loop (kubelet status and lease loops,
//! the monitor pass, the tainting tick) settles into a phase drawn from the seed. Nothing before
//! time 0 is recorded; at time 0 the timeline opens with the cluster's initial state. Ties are
//! broken by insertion order, so a run is a pure function of its [`Config`].

use crate::api::{Api, CondStatus, Node, NodeId, NodeStatus, PodId, Versioned, Watch};
use crate::kubelet::{Kubelet, KubeletSettings};
use crate::lease::sync_lease;
use crate::node_lifecycle::{NlcSettings, NodeLifecycleController};
use crate::rng::{Rng, Stream};
use crate::scenario::{ActionKind, Config};
use crate::scheduler::Scheduler;
use crate::taint_eviction::{TaintEvictionController, Wake as EvictWake};
use crate::time::{format_go_duration, Millis, HOUR, SECOND};
use crate::timeline::{Event, EventKind, Log};
use crate::workloads::Workloads;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// How often the NoExecute tainting loop drains the zone queues (`NodeEvictionPeriod`), ms.
pub const NODE_EVICTION_PERIOD: Millis = 100;
/// How long a container takes to exit after SIGTERM when its kubelet terminates it, ms.
pub const CONTAINER_STOP: Millis = SECOND;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Wake {
    StatusTick { node: NodeId, epoch: u32 },
    LeaseTick { node: NodeId, epoch: u32 },
    MonitorPass,
    TaintingTick,
    Action(usize),
    Watch(WatchKey),
    Evict { pod: PodId, generation: u64 },
    PodStarted { pod: PodId, epoch: u32 },
    PodTerminated { pod: PodId },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum WatchKey {
    NodeConditions(NodeId),
    NodeTaints(NodeId),
    PodCreated(PodId),
    PodBound(PodId),
    PodDeleting(PodId),
    PodRemoved(PodId),
}

impl From<Watch> for WatchKey {
    fn from(w: Watch) -> Self {
        match w {
            Watch::NodeConditions(n) => WatchKey::NodeConditions(n),
            Watch::NodeTaints(n) => WatchKey::NodeTaints(n),
            Watch::PodCreated(p) => WatchKey::PodCreated(p),
            Watch::PodBound(p) => WatchKey::PodBound(p),
            Watch::PodDeleting(p) => WatchKey::PodDeleting(p),
            Watch::PodRemoved(p) => WatchKey::PodRemoved(p),
        }
    }
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
    /// The workload controllers.
    pub workloads: Workloads,
    /// The scheduler.
    pub scheduler: Scheduler,
    kubelet_settings: KubeletSettings,
    queue: BinaryHeap<Reverse<(Millis, u64, Wake)>>,
    seq: u64,
    /// The current simulated time, ms.
    pub now: Millis,
    start: Millis,
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
            lease_renew: k.lease_renew_interval().max(1),
            status_jitter: p.status_jitter,
            lease_jitter: p.lease_jitter,
            report_offset: p.report_offset_after_change,
        };
        // Long enough for every loop to have run twice and the monitor pass to have seen it.
        let longest = kubelet_settings.update.max(kubelet_settings.lease_renew) * 104 / 100;
        let warmup = (2 * longest + 2 * kcm.node_monitor_period + 2 * SECOND).min(2 * HOUR);
        let start = -warmup;
        let mut api = Api {
            watch_latency: cfg.simulation.watch_latency,
            api_latency: cfg.simulation.api_latency,
            ..Api::default()
        };
        let mut kubelets = Vec::with_capacity(cfg.nodes.len());
        let mut zone_rng = Rng::stream(cfg.seed, Stream::ControllerManager);
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
                exists: true,
                status: Versioned::new(status),
                lease: Versioned::new(Some(start)),
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
        });
        let taint_eviction = TaintEvictionController::new(p.taint_evictor_name(), p.pod_disruption_conditions);
        let workloads = Workloads::new(cfg.workloads.clone(), cfg.api_server.clone(), cfg.seed);
        let mut sim = Simulation {
            log: Log {
                events: Vec::new(),
                heartbeats: record_heartbeats,
            },
            api,
            kubelets,
            nlc,
            taint_eviction,
            workloads,
            scheduler: Scheduler::default(),
            kubelet_settings,
            queue: BinaryHeap::new(),
            seq: 0,
            now: start,
            start,
            cfg,
        };
        sim.bootstrap(&mut zone_rng);
        sim
    }

    fn push(&mut self, at: Millis, wake: Wake) {
        self.seq += 1;
        self.queue.push(Reverse((at, self.seq, wake)));
    }

    fn bootstrap(&mut self, rng: &mut Rng) {
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
        for n in 0..self.kubelets.len() {
            let s = &self.kubelet_settings;
            let (u, l) = (s.update, s.lease_renew);
            let kl = &mut self.kubelets[n];
            let status_phase = kl.phase(u);
            let lease_phase = kl.phase(l);
            self.push(start + status_phase, Wake::StatusTick { node: n, epoch: 0 });
            self.push(start + lease_phase, Wake::LeaseTick { node: n, epoch: 0 });
        }
        let p = self.cfg.controller_manager.node_monitor_period;
        let monitor_phase = rng.below(p as u64) as Millis;
        let tick_phase = rng.below(NODE_EVICTION_PERIOD as u64) as Millis;
        self.push(start + monitor_phase, Wake::MonitorPass);
        self.push(start + tick_phase, Wake::TaintingTick);
        for (i, a) in self.cfg.actions.clone().iter().enumerate() {
            self.push(a.at, Wake::Action(i));
        }
    }

    /// Runs to the end of the scenario.
    pub fn run(&mut self) {
        let end = self.cfg.duration;
        let mut opened = false;
        while let Some(Reverse((at, _, wake))) = self.queue.pop() {
            if at > end {
                break;
            }
            if !opened && at >= 0 {
                opened = true;
                self.now = 0;
                self.record_initial_state();
            }
            self.now = at;
            self.dispatch(wake);
            self.drain_outbox();
        }
        if !opened {
            self.now = 0;
            self.record_initial_state();
        }
        self.now = end;
    }

    fn drain_outbox(&mut self) {
        if self.api.outbox.is_empty() {
            return;
        }
        let out = std::mem::take(&mut self.api.outbox);
        for (at, w) in out {
            self.push(at.max(self.now), Wake::Watch(w.into()));
        }
    }

    fn record_initial_state(&mut self) {
        let api = &self.api;
        for (n, node) in api.nodes.iter().enumerate() {
            let zone = if node.zone.is_empty() {
                "no zone".to_string()
            } else {
                format!("zone {}", node.zone)
            };
            self.log.push(
                Event::new(
                    0,
                    EventKind::NodeRegistered,
                    format!("initial state: node in {zone}, known to the node lifecycle controller"),
                )
                .node(n),
            );
            let ready = node.status.latest().ready_status();
            if ready == Some(CondStatus::True) {
                self.log.push(
                    Event::new(
                        0,
                        EventKind::NodeReady,
                        "initial state: the kubelet is posting Ready=True and renewing its Lease",
                    )
                    .node(n),
                );
            }
        }
        for (p, pod) in api.pods.iter().enumerate() {
            if !pod.exists() {
                continue;
            }
            let owner = self.workloads.owner_name(pod.workload);
            self.log
                .push(Event::new(0, EventKind::PodCreated, format!("initial state: pod of {owner}")).pod(p));
            if let Some(n) = pod.node {
                self.log.push(
                    Event::new(
                        0,
                        EventKind::PodScheduled,
                        format!("initial state: running on {}", api.nodes[n].name),
                    )
                    .node(n)
                    .pod(p),
                );
                if pod.ready == Some(true) {
                    self.log.push(
                        Event::new(
                            0,
                            EventKind::PodReady,
                            "initial state: Ready and serving as a Service endpoint",
                        )
                        .node(n)
                        .pod(p),
                    );
                }
            }
        }
    }

    fn dispatch(&mut self, wake: Wake) {
        let now = self.now;
        match wake {
            Wake::StatusTick { node, epoch } => {
                if self.kubelets[node].epoch != epoch || !self.kubelets[node].running() {
                    return;
                }
                let wait = self.kubelets[node].sync_node_status(
                    now,
                    node,
                    &mut self.api,
                    &mut self.log,
                    &self.kubelet_settings,
                );
                self.push(now + wait, Wake::StatusTick { node, epoch });
            }
            Wake::LeaseTick { node, epoch } => {
                if self.kubelets[node].epoch != epoch || !self.kubelets[node].running() {
                    return;
                }
                let wait = sync_lease(
                    &mut self.kubelets[node],
                    now,
                    node,
                    &mut self.api,
                    &mut self.log,
                    &self.kubelet_settings,
                );
                self.push(now + wait, Wake::LeaseTick { node, epoch });
            }
            Wake::MonitorPass => {
                self.nlc.monitor_node_health(now, &mut self.api, &mut self.log);
                let kcm = &self.cfg.controller_manager;
                let next = now + self.cfg.simulation.monitor_pass_duration + kcm.node_monitor_period;
                self.push(next, Wake::MonitorPass);
            }
            Wake::TaintingTick => {
                self.nlc.do_no_execute_tainting_pass(now, &mut self.api, &mut self.log);
                self.push(now + NODE_EVICTION_PERIOD, Wake::TaintingTick);
            }
            Wake::Action(i) => self.apply_action(i),
            Wake::Watch(w) => self.deliver(w),
            Wake::Evict { pod, generation } => {
                self.taint_eviction
                    .fire(now, pod, generation, &mut self.api, &mut self.log);
            }
            Wake::PodStarted { pod, epoch } => self.pod_started(pod, epoch),
            Wake::PodTerminated { pod } => {
                if self.api.remove_pod(now, pod) {
                    let n = self.api.pods[pod].node;
                    let mut e = Event::new(
                        now,
                        EventKind::PodRemoved,
                        "its kubelet finished terminating it and confirmed the deletion; the object is gone",
                    );
                    e.node = n;
                    self.log.push(e.pod(pod));
                }
            }
        }
    }

    fn deliver(&mut self, w: WatchKey) {
        let now = self.now;
        let mut wakes: Vec<EvictWake> = Vec::new();
        match w {
            WatchKey::NodeConditions(n) => {
                self.nlc
                    .do_no_schedule_tainting_pass(now, n, &mut self.api, &mut self.log);
            }
            WatchKey::NodeTaints(n) => {
                self.taint_eviction
                    .handle_node_update(now, n, &self.api, &mut self.log, &mut wakes);
                if !self.scheduler.pending.is_empty() {
                    self.scheduler.retry_pending(now, &mut self.api, &mut self.log);
                }
            }
            WatchKey::PodCreated(p) => self.scheduler.schedule(now, p, &mut self.api, &mut self.log),
            WatchKey::PodBound(p) => {
                self.taint_eviction
                    .handle_pod_update(now, p, &self.api, &mut self.log, &mut wakes);
                self.nlc.process_pod(now, p, &mut self.api, &mut self.log);
                self.kubelet_start_pod(p);
            }
            WatchKey::PodDeleting(p) => {
                let w = self.api.pods[p].workload;
                self.workloads.sync(now, w, &mut self.api, &mut self.log);
                self.kubelet_terminate_pod(p);
            }
            WatchKey::PodRemoved(p) => {
                let w = self.api.pods[p].workload;
                self.taint_eviction
                    .handle_pod_update(now, p, &self.api, &mut self.log, &mut wakes);
                self.workloads.sync(now, w, &mut self.api, &mut self.log);
                if !self.scheduler.pending.is_empty() {
                    self.scheduler.retry_pending(now, &mut self.api, &mut self.log);
                }
            }
        }
        for wk in wakes {
            self.push(
                wk.at.max(now),
                Wake::Evict {
                    pod: wk.pod,
                    generation: wk.generation,
                },
            );
        }
    }

    /// The kubelet notices a pod bound to its node and starts it, if it can.
    fn kubelet_start_pod(&mut self, p: PodId) {
        let Some(n) = self.api.pods[p].node else {
            return;
        };
        let kl = &self.kubelets[n];
        if !kl.reachable() || !self.api.pods[p].is_active() || self.api.pods[p].running {
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

    /// The kubelet notices a deletion and stops the pod's containers, if it can.
    fn kubelet_terminate_pod(&mut self, p: PodId) {
        let Some(n) = self.api.pods[p].node else {
            return;
        };
        if !self.kubelets[n].reachable() || !self.api.pods[p].exists() {
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
        let Some(n) = self.api.pods[p].node else {
            return;
        };
        let kl = &self.kubelets[n];
        if kl.epoch != epoch || !kl.reachable() || !self.api.pods[p].is_active() {
            return;
        }
        let was_running = self.api.pods[p].running;
        self.api.pods[p].running = true;
        if self.api.set_pod_ready(now, p, true) && self.log.wants(now, EventKind::PodReady) {
            let pod = &self.api.pods[p];
            let replaces = pod
                .replaces
                .map(|r| format!("; replaces {}", self.api.pods[r].name))
                .unwrap_or_default();
            let cause = if was_running {
                "its kubelet is back in touch and reports the still-running containers Ready again; the Service sends it traffic".to_string()
            } else {
                format!("containers started and the readiness probe passed {} after the kubelet saw the pod (podStartup){replaces}; the Service sends it traffic", format_go_duration(self.cfg.simulation.pod_startup))
            };
            self.log
                .push(Event::new(now, EventKind::PodReady, cause).node(n).pod(p));
        }
    }

    fn apply_action(&mut self, i: usize) {
        let a = self.cfg.actions[i].clone();
        let n = a.node;
        let now = self.now;
        let name = self.api.nodes[n].name.clone();
        let old = self.kubelets[n].fault;
        if a.action == ActionKind::NodeRecover {
            if let Some(f) = old {
                self.recover(n, f, format!("{name} recovers from {f:?}"));
            }
            return;
        }
        if let Some(f) = old {
            self.recover(n, f, format!("{:?} replaces {f:?} on {name}", a.action));
        }
        let cause = match a.action {
            ActionKind::NodeCrash => "power loss: the kubelet and every container stop; no Lease renewal or status patch reaches the apiserver any more",
            ActionKind::KubeletStop => "the kubelet process stops: containers keep running, but no Lease renewal or status patch is sent",
            ActionKind::NetworkPartition => "the node loses its route to the apiserver: everything keeps running, but every heartbeat request fails",
            ActionKind::NodeRecover => unreachable!("handled above"),
        };
        self.kubelets[n].fault = Some(a.action);
        match a.action {
            ActionKind::NodeCrash => {
                self.kubelets[n].stop();
                for p in self.api.nodes[n].pods.clone() {
                    self.api.pods[p].running = false;
                }
            }
            ActionKind::KubeletStop => self.kubelets[n].stop(),
            _ => {}
        }
        self.log
            .push(Event::new(now, EventKind::FaultStarted, format!("{:?}: {cause}", a.action)).node(n));
    }

    fn recover(&mut self, n: NodeId, fault: ActionKind, cause: String) {
        let now = self.now;
        self.kubelets[n].fault = None;
        let restarted = matches!(fault, ActionKind::NodeCrash | ActionKind::KubeletStop);
        let detail = if restarted {
            "the kubelet starts again: it patches its status and renews its Lease at once"
        } else {
            "requests reach the apiserver again: the lease loop's next backoff retry and the next status tick succeed"
        };
        self.log
            .push(Event::new(now, EventKind::FaultEnded, format!("{cause}: {detail}")).node(n));
        if restarted {
            self.kubelets[n].restart();
            let epoch = self.kubelets[n].epoch;
            self.push(now, Wake::StatusTick { node: n, epoch });
            self.push(now, Wake::LeaseTick { node: n, epoch });
        }
        // The kubelet resyncs its pods.
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
}

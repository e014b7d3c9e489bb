//! The discrete-event driver: one queue of wake-ups, processed in time order.
//!
//! The run starts with a warm-up before time 0 so that every loop (kubelet status and lease loops,
//! the monitor pass, the 100 ms tainting or eviction tick, PodGC) settles into a phase drawn from
//! the seed. Nothing before time 0 is recorded; at time 0 the timeline opens with the cluster's
//! initial state. Ties are broken by insertion order, so a run is a pure function of its
//! [`Config`].

mod actions;
mod cloud;
mod drain;
mod heartbeats;
mod initial;
mod machines;
mod node_group;
mod pods;
mod shutdown;
mod volumes;
mod watches;

use crate::api::client::Clients;
use crate::api::volumes::{Claim, Volumes};
use crate::api::{Api, Node, NodeId, NodeStatus, Versioned};
use crate::cause::Cause;
use crate::control_plane::attach_detach::{AdcSettings, AttachDetachController, RECONCILER_LOOP_PERIOD};
use crate::control_plane::cloud_node_lifecycle::CloudNodeLifecycle;
use crate::control_plane::disruption::DisruptionController;
use crate::control_plane::endpointslice::EndpointSliceController;
use crate::control_plane::node_lifecycle::{NlcSettings, NodeLifecycleController};
use crate::control_plane::podgc::{PodGc, GC_CHECK_PERIOD};
use crate::control_plane::remediation::{self, Env, MachineTimes, Remediators};
use crate::control_plane::scheduler::Scheduler;
use crate::control_plane::taint_eviction::TaintEvictionController;
use crate::control_plane::workloads::Workloads;
use crate::kubelet::heartbeats::HeartbeatLoop;
use crate::kubelet::{Kubelet, KubeletSettings};
use crate::network::kube_proxy::KubeProxy;
use crate::rng::{Rng, Stream};
use crate::scenario::Config;
use crate::sched::{Loop, Owner, RemediationWake, Timers, Wake};
use crate::time::{Millis, HOUR, SECOND};
use crate::timeline::{Event, EventKind, Log};
use crate::world::World;

/// How often the NoExecute tainting loop (or, on the legacy path, the pod evictor) drains the zone
/// queues (`NodeEvictionPeriod`), ms.
pub const NODE_EVICTION_PERIOD: Millis = 100;
/// How long a container takes to exit after SIGTERM when its kubelet terminates it, ms.
pub const CONTAINER_STOP: Millis = SECOND;
/// The kubelet's first registration attempt waits this long (`registerWithAPIServer`), ms.
pub const REGISTRATION_FIRST_STEP: Millis = 100;

/// A run in progress: the cluster, its controllers and the wake-up queue.
pub struct Simulation {
    /// The scenario.
    pub cfg: Config,
    /// The time, the apiserver's objects, the event log and the timers.
    pub w: World,
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
    /// The attach-detach controller.
    pub adc: AttachDetachController,
    /// The disruption controller.
    pub disruption: DisruptionController,
    /// The cloud-controller-manager's node lifecycle controller, when the scenario names a cloud.
    pub ccm: Option<CloudNodeLifecycle>,
    /// The remediators and their repairs under way.
    pub remediation: Remediators,
    /// The machines created for spare nodes ([`machines`]).
    created: machines::Created,
    /// Sentences about actions that found nothing to act on.
    pub warnings: Vec<Cause>,
    kubelet_settings: KubeletSettings,
    start: Millis,
    kcm_up: bool,
    base_api_latency: Millis,
    kcm_rng: Rng,
}

/// What each workload claims, for the volume catalogue.
fn claims(workloads: &[crate::scenario::WorkloadSpec]) -> Vec<Option<Claim>> {
    workloads
        .iter()
        .map(|w| {
            w.volume.map(|v| Claim {
                workload: w.name.clone(),
                many: v.many,
                per_pod: v.per_pod.then_some(w.replicas),
            })
        })
        .collect()
}

impl Simulation {
    /// Builds the cluster in its steady state at the start of the warm-up.
    pub fn new(mut cfg: Config, record_heartbeats: bool) -> Simulation {
        let remediation = remediators(&mut cfg);
        let p = &cfg.profile;
        let kcm = &cfg.controller_manager;
        let kubelet_settings = kubelet_settings(&cfg);
        // Long enough for every loop to have run twice and the monitor pass to have seen it.
        let longest = Kubelet::longest_wait(kubelet_settings.update.max(kubelet_settings.lease_renew));
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
        let kubelets = add_nodes(&cfg, &mut api, start, &kubelet_settings);
        let nlc = node_lifecycle_controller(&cfg);
        let taint_eviction = TaintEvictionController::new(p.taint_evictor_name(), p.pod_disruption_conditions);
        let podgc = PodGc::new(cfg.out_of_service_volume_detach, p.podgc_quarantine);
        let workloads = Workloads::new(cfg.workloads.clone(), cfg.api_server.clone(), cfg.seed, cfg.nodes.len());
        let base_api_latency = cfg.simulation.api_latency;
        let eps = EndpointSliceController::new(&cfg.workloads, p);
        api.pdbs = cfg
            .workloads
            .iter()
            .map(|w| {
                w.pdb.map(|spec| crate::api::eviction::Pdb {
                    name: w.name.clone(),
                    spec,
                    status: Default::default(),
                })
            })
            .collect();
        // Services and PodDisruptionBudgets both follow pod readiness.
        api.watch_pod_status = eps.any() || api.pdbs.iter().any(Option::is_some);
        let disruption = DisruptionController::new(cfg.workloads.len());
        let proxy = KubeProxy::new(
            &cfg.kube_proxy,
            cfg.simulation.proxy_sync_duration,
            p,
            cfg.workloads.len(),
        );
        let adc = attach_detach_controller(&cfg);
        api.volumes = Volumes::new(&claims(&cfg.workloads));
        let mut sim = Simulation {
            disruption,
            eps,
            proxy,
            adc,
            w: World {
                now: start,
                pushed_at: start,
                api,
                log: Log {
                    heartbeats: record_heartbeats,
                    ..Log::default()
                },
                timers: Timers::default(),
                held: Vec::new(),
                machines: Vec::new(),
            },
            kubelets,
            nlc,
            taint_eviction,
            podgc,
            workloads,
            scheduler: Scheduler::default(),
            ccm: None,
            remediation,
            created: Default::default(),
            warnings: Vec::new(),
            kubelet_settings,
            start,
            kcm_up: true,
            base_api_latency,
            kcm_rng: Rng::stream(cfg.seed, Stream::ControllerManager),
            cfg,
        };
        sim.ccm = sim.new_cloud_controller();
        sim.remediation.start(&mut sim.w, start);
        sim.allow_dormancy();
        sim.bootstrap();
        sim
    }

    /// Queues a wake-up that nothing cancels (a scenario action, a watch, a driver's operation).
    fn push(&mut self, at: Millis, wake: Wake) {
        self.w.timers.push(at, self.w.now, wake);
    }

    /// Queues a wake-up of `owner`'s, which dies if the owner stops first.
    fn push_for(&mut self, owner: Owner, at: Millis, wake: Wake) {
        self.w.timers.push_for(owner, at, self.w.now, wake);
    }

    /// Queues a wake-up of kube-controller-manager's.
    fn push_kcm(&mut self, at: Millis, wake: Wake) {
        self.push_for(Owner::ControllerManager, at, wake);
    }

    /// Tells the node lifecycle controller whether nodes may go dormant, from the kubelets'
    /// longest gap between Lease renewals at the current API latency.
    fn allow_dormancy(&mut self) {
        let gap = self.kubelet_settings.longest_renewal_gap(self.w.api.api_latency);
        self.nlc.allow_dormancy(gap, &self.w.api);
    }

    fn bootstrap(&mut self) {
        let start = self.start;
        // Pods already run everywhere: create, place and start them without recording anything.
        for w in 0..self.workloads.specs.len() {
            let created = self.workloads.sync(&mut self.w, w);
            // CoreDNS's replicas start where the scenario put them (`dns.nodes`).
            #[cfg(feature = "clients")]
            if let Some(dns) = self.cfg.dns.as_ref().filter(|d| d.workload == w) {
                for (&p, &n) in created.iter().zip(&dns.nodes) {
                    self.w.api.bind_pod(start, p, n);
                }
            }
            self.scheduler.place_initial(&mut self.w, &created);
            for p in created {
                if self.w.api.pods[p].node.is_some() {
                    self.w.api.pods[p].running = true;
                    self.w.api.pods[p].ready = Some(true);
                }
            }
        }
        self.w.api.posts = Default::default();
        // The cluster ran before: its controllers' buckets are full again at the start, and every
        // Service's slice and every proxy's rules show the pods as they run.
        self.w.api.clients.restart();
        self.eps.initialize(&mut self.w.api);
        self.proxy.initialize(&self.w.api);
        for w in 0..self.w.api.pdbs.len() {
            let spec = &self.cfg.workloads[w];
            self.disruption.sync(start, w, spec, &mut self.w.api, false);
        }
        // Every running pod's volume is attached to its node and mounted there.
        for p in 0..self.w.api.pods.len() {
            let pod = &self.w.api.pods[p];
            if let (Some(n), Some(v)) = (pod.node, self.w.api.volumes.of(pod.workload, pod.ordinal)) {
                self.w.api.volumes.list[v].attached_to.insert(n);
                self.w.api.volumes.list[v].in_use_by.insert(n);
            }
        }
        for n in 0..self.kubelets.len() {
            self.w.api.node_changed(n);
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
        let now = self.w.now;
        self.schedule_loop(n, HeartbeatLoop::Status, at + status_phase, now);
        if lease {
            self.schedule_loop(n, HeartbeatLoop::Lease, at + lease_phase, now);
        }
    }

    /// Starts kube-controller-manager's periodic loops at phases drawn from the seed.
    fn start_controller_manager(&mut self, at: Millis) {
        let p = self.cfg.controller_manager.node_monitor_period;
        let monitor_phase = self.kcm_rng.below(p as u64) as Millis;
        let tick_phase = self.kcm_rng.below(NODE_EVICTION_PERIOD as u64) as Millis;
        let gc_phase = self.kcm_rng.below(GC_CHECK_PERIOD as u64) as Millis;
        self.push_kcm(at + monitor_phase, Wake::MonitorPass);
        self.push_kcm(at + tick_phase, Wake::TaintingTick);
        self.push_kcm(at + gc_phase, Wake::PodGcTick);
        // The attach-detach reconciler's grid; it sleeps until a volume needs it.
        let adc_phase = self.kcm_rng.below(RECONCILER_LOOP_PERIOD as u64) as Millis;
        self.w.timers.sleep(Loop::Reconciler, at + adc_phase);
    }

    /// Runs to the end of the scenario.
    pub fn run(&mut self) {
        let end = self.cfg.duration;
        let mut opened = false;
        while let Some((at, pushed_at, wake)) = self.w.timers.pop() {
            if at > end {
                break;
            }
            self.w.pushed_at = pushed_at;
            if !opened && at >= 0 {
                opened = true;
                self.w.now = 0;
                self.record_initial_state();
            }
            self.w.now = at;
            self.dispatch(wake);
            self.run_machines();
            // A node whose taints changed is no longer quiet: a dormant one wakes.
            for n in self.w.end_step() {
                if self.nlc.is_dormant(n) {
                    self.catch_up(n);
                }
            }
            self.wake_tainting();
            self.wake_adc();
        }
        if !opened {
            self.w.now = 0;
            self.record_initial_state();
        }
        self.w.now = end;
        // Every iteration due by the end ran in a queued run; the parked ones are counted.
        for (n, k) in self.kubelets.iter_mut().enumerate() {
            k.finish(n, end, &mut self.w, &self.kubelet_settings);
        }
    }

    /// Queues the sleeping tainting tick again once a zone queue holds a node, on its 100 ms
    /// grid.
    fn wake_tainting(&mut self) {
        if !self.kcm_up || !self.w.timers.asleep(Loop::Tainting) || self.nlc.zones.queues_empty() {
            return;
        }
        let w = &mut self.w;
        w.timers
            .resume(Loop::Tainting, NODE_EVICTION_PERIOD, w.now, w.pushed_at);
    }

    fn dispatch(&mut self, wake: Wake) {
        let now = self.w.now;
        let kcm_up = self.kcm_up;
        match wake {
            Wake::StatusTick { node } => self.heartbeat(node, HeartbeatLoop::Status),
            Wake::LeaseTick { node } => self.heartbeat(node, HeartbeatLoop::Lease),
            Wake::Register { node, step } => self.register(node, step),
            Wake::MonitorPass if kcm_up => self.monitor_pass(),
            Wake::TaintingTick if kcm_up => {
                if self.cfg.controller_manager.taint_based_evictions {
                    self.nlc.do_no_execute_tainting_pass(&mut self.w);
                } else {
                    self.nlc.do_eviction_pass(&mut self.w);
                }
                if self.nlc.zones.queues_empty() {
                    self.w.timers.sleep(Loop::Tainting, now + NODE_EVICTION_PERIOD);
                } else {
                    self.push_kcm(now + NODE_EVICTION_PERIOD, Wake::TaintingTick);
                }
            }
            Wake::PodGcTick if kcm_up => {
                self.podgc.run(&mut self.w);
                self.push_kcm(now + GC_CHECK_PERIOD, Wake::PodGcTick);
            }
            Wake::ControllerManagerStart => self.controller_manager_started(),
            Wake::MonitorPass | Wake::TaintingTick | Wake::PodGcTick => {}
            Wake::Action(i) => self.apply_action(i),
            Wake::Watch(w) => self.deliver(w),
            Wake::SliceWrite { service } => {
                if kcm_up {
                    self.eps.write(&mut self.w, service);
                }
            }
            Wake::ProxySync => self.proxy_sync(),
            Wake::AdcTick => {
                if kcm_up {
                    self.adc_tick();
                }
            }
            Wake::AttachDone { volume, node } => self.adc.attach_done(&mut self.w, volume, node),
            Wake::DetachDone { volume, node } => self.adc.detach_done(&mut self.w, volume, node),
            Wake::VolumeVerify { pod, waited, gap } => self.verify_volume(pod, (waited, gap)),
            Wake::VolumeMountDone { pod, checked, waited } => self.volume_mounted(pod, (checked, waited)),
            Wake::ProxySyncDone => {
                let connected = self.connected_proxies();
                self.proxy.finish(&mut self.w, connected);
            }
            Wake::Apply { slot } => self.w.apply_held(slot, kcm_up),
            Wake::Evict { pod } => {
                if kcm_up {
                    self.taint_eviction.fire(&mut self.w, pod);
                }
            }
            Wake::PodStarted { pod } => self.pod_started(pod),
            Wake::DrainEvict { pod, attempt } => self.drain_evict(pod, attempt),
            Wake::DisruptionSync { workload } => {
                if kcm_up {
                    self.disruption_sync(workload);
                }
            }
            Wake::ShutdownGroup { node, group } => self.shutdown_group(node, group),
            Wake::CloudPass => self.cloud_pass(),
            Wake::CloudAnswer => self.cloud_answer(),
            Wake::SpotReclaim { node } => self.spot_reclaim(node),
            Wake::NodeGroupDrain { node } => self.group_drain(node),
            Wake::Remediation(wake) => self.remediation_step(wake),
            Wake::ShutdownPodKilled { pod, group, grace } => self.shutdown_pod_killed(pod, group, grace),
            Wake::PodTerminated { pod } => {
                self.unmount(pod);
                if self.w.api.remove_pod(now, pod) {
                    let n = self.w.api.pods[pod].node;
                    // Confirmed once deleted and its kubelet up, whichever came last.
                    let back = n.and_then(|n| self.w.log.index.node(n)).and_then(|m| m.back);
                    let after = crate::timeline::latest([self.w.log.index.pod(pod).deleting, back]);
                    let mut e =
                        Event::new(now, EventKind::PodRemoved, Cause::new("cause.pod_removed.confirmed")).after(after);
                    e.node = n;
                    self.w.log.push(e.pod(pod));
                }
            }
        }
    }

    /// One iteration of a kubelet's heartbeat loop, and the next one planned.
    fn heartbeat(&mut self, node: NodeId, which: HeartbeatLoop) {
        if !self.kubelets[node].running() {
            return;
        }
        let now = self.w.now;
        let wait = self.kubelets[node].run_loop(
            which,
            now,
            node,
            &mut self.w.api,
            &mut self.w.log,
            &self.kubelet_settings,
        );
        self.schedule_loop(node, which, now + wait, now);
    }

    /// A remediator's step, with what it reads of the node lifecycle controller and the machines.
    fn remediation_step(&mut self, wake: RemediationWake) {
        let kubelets = &self.kubelets;
        let powered_off = |n: NodeId| kubelets[n].fault.is_some_and(crate::scenario::ActionKind::powers_off);
        let mut env = Env {
            nlc: &mut self.nlc,
            instances: self.ccm.as_ref().map_or(&[], |c| &c.instances[..]),
            powered_off: &powered_off,
        };
        self.remediation.step(&mut self.w, &mut env, wake);
    }

    /// The remediators' informers deliver a change of node `n`.
    fn remediation_node_changed(&mut self, n: NodeId) {
        if self.remediation.any() {
            self.remediation.node_changed(&mut self.w, n);
        }
    }

    /// An instance fault on node `n`: the cloud tells Karpenter's interruption queue, if read.
    fn instance_event_sent(&mut self, a: &crate::scenario::ActionSpec, n: NodeId) {
        self.remediation.instance_event(&mut self.w, a.action, a.notice, n);
    }

    /// The node lifecycle controller's monitor pass over nodes whose parked heartbeats have caught
    /// up; nodes whose status it wrote wake up; and its next pass, when the controller says.
    fn monitor_pass(&mut self) {
        self.catch_up_awake();
        let (next, wrote) = self.nlc.monitor(&mut self.w);
        for n in wrote {
            self.wake_up(n);
        }
        self.push_kcm(next, Wake::MonitorPass);
    }
}

/// The remediators of the scenario, with the spare nodes their replacements need added to it
/// (a remediator's, or an EKS managed node group's Auto Scaling group's).
fn remediators(cfg: &mut Config) -> Remediators {
    let groups = cfg.cloud.as_ref().is_some_and(|c| {
        cfg.nodes
            .iter()
            .any(|n| crate::control_plane::node_group::capacity_type(c, &n.labels).is_some())
    });
    let replaces = groups || cfg.remediation.iter().any(remediation::replaces_nodes);
    let spares = machines::add_spares(cfg, replaces);
    let (boot, deletion, termination) = machines::durations(cfg);
    let times = MachineTimes {
        boot,
        deletion,
        termination,
    };
    Remediators::new(cfg, spares, times)
}

/// The kubelets' settings, from the scenario and the version's rules.
fn kubelet_settings(cfg: &Config) -> KubeletSettings {
    let p = &cfg.profile;
    let k = &cfg.kubelet;
    KubeletSettings {
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
    }
}

/// Adds every node of the scenario to the apiserver as it is at `start` (a joining node
/// absent), and gives each its kubelet.
fn add_nodes(cfg: &Config, api: &mut Api, start: Millis, kubelet_settings: &KubeletSettings) -> Vec<Kubelet> {
    let k = &cfg.kubelet;
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
    kubelets
}

/// The node lifecycle controller with the version's rules and the scenario's flags.
fn node_lifecycle_controller(cfg: &Config) -> NodeLifecycleController {
    let p = &cfg.profile;
    let kcm = &cfg.controller_manager;
    NodeLifecycleController::new(NlcSettings {
        grace: kcm.node_monitor_grace_period,
        startup_grace: kcm.node_startup_grace_period,
        monitor_period: kcm.node_monitor_period,
        pass_duration: cfg.simulation.monitor_pass_duration,
        eviction_qps: kcm.node_eviction_rate,
        secondary_qps: kcm.secondary_node_eviction_rate,
        large_cluster_threshold: kcm.large_cluster_size_threshold,
        unhealthy_zone_threshold: kcm.unhealthy_zone_threshold,
        legacy_pod_eviction_timeout: (!kcm.taint_based_evictions).then_some(kcm.pod_eviction_timeout),
        exclusion_by_label: p.exclusion_by_label,
        reads_leases: p.controller_reads_leases,
        lease_circuit_breaker: kcm.lease_circuit_breaker,
        pod_not_ready_events: p.pod_not_ready_events,
    })
}

/// The attach-detach controller with the version's rules and the scenario's timings.
fn attach_detach_controller(cfg: &Config) -> AttachDetachController {
    let p = &cfg.profile;
    AttachDetachController::new(AdcSettings {
        force_needs_unhealthy_node: p.force_detach_needs_unhealthy_node,
        disable_force_detach: cfg.controller_manager.disable_force_detach_on_timeout,
        out_of_service: cfg.out_of_service_volume_detach,
        waiting_wording: p.multi_attach_says_waiting,
        attach_duration: cfg.simulation.attach_duration,
        detach_duration: cfg.simulation.detach_duration,
    })
}

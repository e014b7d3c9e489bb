//! The cloud node lifecycle controller of the cloud-controller-manager.
//!
//! Follows `k8s.io/cloud-provider` `controllers/nodelifecycle/node_lifecycle_controller.go`:
//! `Run` is `wait.UntilWithContext(ctx, c.MonitorNodes, c.nodeMonitorPeriod)`, a sliding loop on
//! the cloud-controller-manager's own `--node-monitor-period` (default 5s). `MonitorNodes` walks
//! the nodes serially. A node whose Ready is True only loses
//! `node.cloudprovider.kubernetes.io/shutdown` if it carries it; for any other node it asks the
//! provider `InstanceExists` (`ensureNodeExistsByProviderID`), deletes the Node when the
//! instance is gone (event `DeletingNode`), and else asks `InstanceShutdown`
//! (`shutdownInCloudProvider`) and adds the shutdown taint (NoSchedule) when the instance is shut
//! down. Every provider implements `InstancesV2`, so the v2 branch runs.
//!
//! The providers' answers (`InstanceExists`, `InstanceShutdown` of cloud-provider-aws,
//! cloud-provider-gcp and cloud-provider-azure): AWS reports an instance gone once EC2 says
//! `terminated` (not while `shutting-down`) and shut down only when `stopped`; GCP reports gone
//! only on a 404 (a stopped VM still exists) and never shut down (`NotImplemented`); Azure reports
//! gone when the VM is not found and shut down when stopped, deallocating or deallocated, both read
//! from a VM cache refreshed every `vmCacheTtl`.
//!
//! A pass looks only at the nodes whose Ready its informer showed not True (and those still
//! carrying the shutdown taint): upstream lists every node, but a Ready node without the taint
//! costs it nothing, so the model keeps that set up to date from the node watch and never scans
//! the cluster. While the set is empty the loop sleeps and resumes on its grid.

use crate::api::{CondStatus, Effect, NodeId, Taint};
use crate::cause::Cause;
use crate::control_plane::podgc::TAINT_OUT_OF_SERVICE;
use crate::scenario::{CloudConfig, Provider};
use crate::time::Millis;
use crate::timeline::{latest, Event, EventId, EventKind};
use crate::world::World;
use std::collections::BTreeSet;

/// `node.cloudprovider.kubernetes.io/shutdown` (`cloudproviderapi.TaintNodeShutdown`).
pub const TAINT_SHUTDOWN: &str = "node.cloudprovider.kubernetes.io/shutdown";

/// What the cloud has done to one node's instance, as times from which the provider reports it.
#[derive(Debug, Clone, Copy, Default)]
pub struct Instance {
    /// From when the provider reports the instance shut down (stopped).
    pub stopped_from: Option<Millis>,
    /// From when it runs again after a stop.
    pub started_from: Option<Millis>,
    /// From when the provider reports it gone (terminated, deleted).
    pub gone_from: Option<Millis>,
    /// The fault that stopped or terminated it, or the repair whose remediator terminated it.
    pub fault: Option<EventId>,
    /// The repair (its `RemediationStarted`) whose remediator terminated it, and when, if one
    /// did.
    pub terminated_by: Option<(EventId, Millis)>,
}

impl Instance {
    fn exists(&self, at: Millis) -> bool {
        self.gone_from.is_none_or(|g| at < g)
    }

    fn shut_down(&self, at: Millis) -> bool {
        self.stopped_from.is_some_and(|s| s <= at) && self.started_from.is_none_or(|s| at < s)
    }
}

/// What a pass decided about one node after asking the cloud, applied when the answer is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// The instance is gone: delete the Node.
    Delete,
    /// The instance is shut down: add the shutdown taint.
    Taint,
    /// Nothing to do.
    Keep,
}

/// The controller's memory.
#[derive(Debug, Clone)]
pub struct CloudNodeLifecycle {
    /// The provider and the cloud's timings.
    pub cfg: CloudConfig,
    /// Each node's instance.
    pub instances: Vec<Instance>,
    /// Nodes whose Ready its informer showed not True, or that still carry the shutdown taint:
    /// the only ones a pass has anything to do with.
    watched: BTreeSet<NodeId>,
    /// The nodes the pass under way has yet to look at, in order.
    queue: Vec<NodeId>,
    /// The node whose cloud calls are under way, and what they will say.
    pending: Option<(NodeId, Verdict, Cause)>,
    /// When the loop sleeps (nothing to look at), its next tick.
    asleep: Option<Millis>,
    /// Azure's VM cache refreshes at this phase of its TTL.
    cache_phase: Millis,
}

impl CloudNodeLifecycle {
    /// A controller for `nodes` nodes; its loop's first tick is at `first`, and Azure's cache
    /// refreshes at `cache_phase` within its TTL.
    pub fn new(cfg: CloudConfig, nodes: usize, first: Millis, cache_phase: Millis) -> CloudNodeLifecycle {
        CloudNodeLifecycle {
            cfg,
            instances: vec![Instance::default(); nodes],
            watched: BTreeSet::new(),
            queue: Vec::new(),
            pending: None,
            asleep: Some(first),
            cache_phase,
        }
    }

    /// When the provider's answer at `now` was read from the cloud: Azure answers from its VM
    /// cache, last refreshed at the latest tick of its TTL grid.
    fn seen_at(&self, now: Millis) -> Millis {
        let ttl = self.cfg.vm_cache_ttl;
        if ttl <= 0 {
            return now;
        }
        now - (now - self.cache_phase).rem_euclid(ttl)
    }

    /// The node watch delivered a change of node `n`: it joins the set when its Ready is not
    /// True. Returns the time the sleeping loop's next tick should be queued at, if it slept.
    pub fn node_changed(&mut self, w: &World, n: NodeId) -> Option<Millis> {
        let node = &w.api.nodes[n];
        if !node.exists {
            return None;
        }
        let ready = node.status.observed(w.now).ready_status() == Some(CondStatus::True);
        if ready && !node.has_taint(TAINT_SHUTDOWN, Effect::NoSchedule) {
            return None;
        }
        self.watched.insert(n);
        let at = self.asleep.take()?;
        let period = self.cfg.node_monitor_period;
        // The first tick of its grid from now on.
        Some(if at < w.now {
            at + (w.now - at + period - 1) / period * period
        } else {
            at
        })
    }

    /// `MonitorNodes` begins: it will look at the watched nodes in order. Returns false (and
    /// the loop sleeps) when there are none.
    pub fn start_pass(&mut self, now: Millis) -> bool {
        if self.watched.is_empty() {
            self.asleep = Some(now + self.cfg.node_monitor_period);
            return false;
        }
        self.queue = self.watched.iter().rev().copied().collect();
        true
    }

    /// Looks at the pass's next nodes at `now`. Returns when the cloud's answer about a node comes
    /// in ([`Self::answer`] applies it then), or `None` when the pass is over (the next one is
    /// due a period later).
    pub fn step(&mut self, w: &mut World) -> Option<Millis> {
        let now = w.now;
        while let Some(n) = self.queue.pop() {
            let node = &w.api.nodes[n];
            if !node.exists {
                self.watched.remove(&n);
                continue;
            }
            // A missing Ready condition counts as Unknown.
            let status = node.status.observed(now).ready_status().unwrap_or(CondStatus::Unknown);
            if status == CondStatus::True {
                self.watched.remove(&n);
                self.untaint(w, n);
                continue;
            }
            let by = self.instances[n].terminated_by.and_then(|(id, _)| w.log.events.get(id));
            let by = by.and_then(|e| e.remediator.clone());
            let (verdict, calls, cause) = self.ask(n, status, now, by.as_deref());
            self.pending = Some((n, verdict, cause));
            return Some(now + calls * self.cfg.api_call_duration);
        }
        None
    }

    /// What the provider says about node `n`'s instance, how many calls it took (one when the
    /// instance is gone, else `InstanceShutdown` too), and why.
    fn ask(&self, n: NodeId, status: CondStatus, now: Millis, by: Option<&str>) -> (Verdict, Millis, Cause) {
        let seen = self.seen_at(now);
        let instance = self.instances[n];
        let provider = self.cfg.provider;
        let since = instance.gone_from.unwrap_or(seen);
        let gone = match (instance.terminated_by, by) {
            (Some((_, at)), Some(by)) => Cause::new("cause.part.cloud_gone_by")
                .text("remediator", by)
                .time("since", at)
                .time("gone", since),
            _ => Cause::new(gone_key(provider)).time("since", since),
        };
        let cached = if self.cfg.vm_cache_ttl > 0 {
            Cause::new("cause.part.cloud_cache")
                .time("seen", seen)
                .time("ttl", self.cfg.vm_cache_ttl)
        } else {
            Cause::none()
        };
        if !instance.exists(seen) {
            let cause = Cause::new("cause.cloud.node_deleted")
                .text("provider", provider.name())
                .text("status", status)
                .sub("gone", gone)
                .sub("cached", cached);
            return (Verdict::Delete, 1, cause);
        }
        if provider.reports_shutdown() && instance.shut_down(seen) {
            let cause = Cause::new("cause.cloud.shutdown_taint")
                .text("provider", provider.name())
                .text("status", status)
                .text("taint", TAINT_SHUTDOWN)
                .sub(
                    "stopped",
                    Cause::new(stopped_key(provider)).time("since", instance.stopped_from.unwrap_or(seen)),
                )
                .sub("cached", cached);
            return (Verdict::Taint, 2, cause);
        }
        (Verdict::Keep, 2, Cause::none())
    }

    /// The cloud's answer about the node under way came in: deletes are the driver's to make
    /// (it stops the node's kubelet loops first); a taint is added here. Returns the node to
    /// delete, with the cause and the event that made it possible.
    pub fn answer(&mut self, w: &mut World) -> Option<(NodeId, Cause, Option<EventId>)> {
        let (n, verdict, cause) = self.pending.take()?;
        let after = latest([w.log.index.ready(n), self.instances[n].fault]);
        match verdict {
            Verdict::Delete => {
                self.watched.remove(&n);
                Some((n, cause, after))
            }
            Verdict::Taint => {
                let now = w.now;
                let taint = Taint::new(TAINT_SHUTDOWN, Effect::NoSchedule, now);
                if w.api.swap_taints(now, n, std::slice::from_ref(&taint), &[]) {
                    let e = Event::new(now, EventKind::TaintAdded, cause)
                        .node(n)
                        .taint(taint.label());
                    w.log.push(e.after(after));
                }
                None
            }
            Verdict::Keep => None,
        }
    }

    /// The pass is over at `now`: the next one starts a period later (`wait.Until` slides).
    pub fn next_pass(&self, now: Millis) -> Millis {
        now + self.cfg.node_monitor_period
    }

    /// cloud-provider-azure's `updateNodeTaint`, which its informer runs on every Node add and
    /// update (1.26+: added in v1.29.0, backported to release-1.26 and 1.27): a node that is
    /// not Ready and carries the shutdown taint gets `node.kubernetes.io/out-of-service:NoExecute`
    /// (no value); a Ready node loses it. `gc` says whether PodGC then force-deletes its
    /// terminating pods (`NodeOutOfServiceVolumeDetach`).
    pub fn update_node_taint(&mut self, w: &mut World, n: NodeId, gc: bool) {
        if !self.cfg.automatic_out_of_service || !w.api.nodes[n].exists {
            return;
        }
        let now = w.now;
        let node = &w.api.nodes[n];
        let ready = node.status.observed(now).ready_status() == Some(CondStatus::True);
        let has = node.has_taint(TAINT_OUT_OF_SERVICE, Effect::NoExecute);
        let taint = Taint::new(TAINT_OUT_OF_SERVICE, Effect::NoExecute, now);
        if ready && has {
            if w.api
                .swap_taints(now, n, &[], &[(TAINT_OUT_OF_SERVICE, Effect::NoExecute)])
            {
                let cause = Cause::new("cause.cloud.azure_oos_removed").text("taint", TAINT_OUT_OF_SERVICE);
                let e = Event::new(now, EventKind::TaintRemoved, cause)
                    .node(n)
                    .taint(taint.label());
                w.log.push(e.after(w.log.index.ready(n)));
            }
        } else if !ready && !has && node.has_taint(TAINT_SHUTDOWN, Effect::NoSchedule) {
            let shutdown = w
                .log
                .index
                .taint(n, &format!("{TAINT_SHUTDOWN}:{}", Effect::NoSchedule));
            if w.api.swap_taints(now, n, std::slice::from_ref(&taint), &[]) {
                let gc = Cause::new(if gc {
                    "cause.part.oos_gc"
                } else {
                    "cause.part.oos_no_gc"
                });
                let cause = Cause::new("cause.cloud.azure_oos")
                    .text("taint", TAINT_OUT_OF_SERVICE)
                    .text("shutdown", TAINT_SHUTDOWN)
                    .sub("gc", gc);
                let e = Event::new(now, EventKind::TaintAdded, cause)
                    .node(n)
                    .taint(taint.label());
                w.log.push(e.after(shutdown));
            }
        }
    }

    /// A Ready node sheds the shutdown taint (`RemoveTaintOffNode`; nothing is sent when the
    /// cached node lacks it).
    fn untaint(&mut self, w: &mut World, n: NodeId) {
        let now = w.now;
        if !w.api.nodes[n].has_taint(TAINT_SHUTDOWN, Effect::NoSchedule) {
            return;
        }
        let label = format!("{TAINT_SHUTDOWN}:{}", Effect::NoSchedule);
        if w.api.swap_taints(now, n, &[], &[(TAINT_SHUTDOWN, Effect::NoSchedule)]) {
            let cause = Cause::new("cause.cloud.shutdown_untaint")
                .text("provider", self.cfg.provider.name())
                .text("taint", TAINT_SHUTDOWN);
            let e = Event::new(now, EventKind::TaintRemoved, cause).node(n).taint(label);
            w.log.push(e.after(w.log.index.ready(n)));
        }
    }
}

/// Why the provider says the instance is gone.
fn gone_key(p: Provider) -> &'static str {
    match p {
        Provider::Aws => "cause.part.cloud_gone_aws",
        Provider::Gcp => "cause.part.cloud_gone_gcp",
        Provider::Azure => "cause.part.cloud_gone_azure",
    }
}

/// Why the provider says the instance is shut down (GCP never does).
fn stopped_key(p: Provider) -> &'static str {
    match p {
        Provider::Azure => "cause.part.cloud_stopped_azure",
        Provider::Aws | Provider::Gcp => "cause.part.cloud_stopped_aws",
    }
}

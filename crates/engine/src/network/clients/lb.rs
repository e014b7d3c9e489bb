//! The load balancers in front of Services of type `LoadBalancer` (the clients spec's §3): read
//! off the finished run like the clients. A target whose machine stopped answering fails its
//! health checks from then on; after the row's unhealthy threshold the load balancer calls it
//! unhealthy (`LoadBalancerTargetUnhealthy`), and a controller may take it out
//! (`LoadBalancerTargetDeregistered`). An external client's flows go through it: to a dead target
//! until it is out of rotation, and, for instance targets with `Cluster`, through a live node's
//! kube-proxy to a dead pod until the proxies drop it (§3.7).

use super::history::Machines;
use crate::api::{Api, PodId};
use crate::cause::Cause;
use crate::rng::{Rng, Stream};
use crate::scenario::load_balancers::{
    Deregistration, LbProfile, LoadBalancerSpec, Policy, Probe, Target, CONTROLLER_RECONCILE, STABLE_NODE_SET_MINOR,
};
use crate::scenario::Config;
use crate::time::Millis;
use crate::timeline::{Event, EventId, EventKind};
use std::collections::BTreeSet;

/// A target whose probes began to fail: a node (instance targets) or a pod (ip targets).
#[derive(Debug, Clone, PartialEq)]
pub struct Fate {
    /// The node it is, or runs on.
    pub node: usize,
    /// The pods of the Service it carried (ip: the one pod it is).
    pub pods: Vec<PodId>,
    /// When its machine stopped answering, ms.
    pub down: Millis,
    /// The fault.
    pub fault: EventId,
    /// When its machine came back, ms, and the event, if it did.
    pub back: Option<(Millis, EventId)>,
    /// When the load balancer called it unhealthy, ms.
    pub unhealthy: Option<Millis>,
    /// When a controller took it out, ms, and the event it reconciled on.
    pub deregistered: Option<(Millis, EventId)>,
    /// Where its first probe after the death fell in an interval, ms: its probes come every
    /// interval from `down + phase`.
    pub phase: Millis,
    /// When it was back in the rotation, ms: its machine back, registered again if a controller
    /// took it out, and the healthy threshold's probes passed.
    pub rejoined: Option<Millis>,
}

impl Fate {
    /// When it left the rotation: unhealthy or deregistered, whichever came first.
    pub fn out_at(&self) -> Option<Millis> {
        match (self.unhealthy, self.deregistered.map(|d| d.0)) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// Whether it is out of the rotation at `t`: left it, and not back yet.
    pub fn out_by(&self, t: Millis) -> bool {
        self.out_at().is_some_and(|o| o <= t) && self.rejoined.is_none_or(|r| t < r)
    }

    /// Whether a controller has taken it out by `t`, and not registered it again.
    pub fn deregistered_by(&self, t: Millis) -> bool {
        self.deregistered.is_some_and(|d| d.0 <= t) && self.rejoined.is_none_or(|r| t < r)
    }
}

/// One Service's load balancer over the run.
#[derive(Debug, Clone)]
pub struct Balancer {
    /// The Service's workload.
    pub service: usize,
    /// Its kind and policy.
    pub spec: LoadBalancerSpec,
    /// Its targets that went down, in the order their machines stopped.
    pub fates: Vec<Fate>,
    /// Its health checks' stream after the fates' phases: the phases of targets that join.
    pub rng: Rng,
}

impl Balancer {
    /// Its row of the table.
    pub fn profile(&self) -> &'static LbProfile {
        self.spec.profile()
    }

    /// The fate a flow to `pod` met on its first hop: the pod's own for ip targets and `Local`,
    /// a dead node's (a pod id past the API's, [`node_unit`]) for `Cluster` instance targets.
    pub fn fate_of(&self, api: &Api, pod: PodId) -> Option<&Fate> {
        match pod.checked_sub(api.pods.len()) {
            Some(n) => self.fates.iter().find(|f| f.node == n),
            None if self.per_target() => self.fates.iter().find(|f| f.pods.contains(&pod)),
            None => None,
        }
    }

    /// Whether a flow's first hop is its backend: ip targets, or `Local` (a node forwards only to
    /// its own pods).
    pub fn per_target(&self) -> bool {
        self.profile().target == Target::Ip || self.spec.policy == Policy::Local
    }
}

/// The unit that stands for "through dead node `n`" among a `Cluster` load balancer's flows.
pub fn node_unit(api: &Api, n: usize) -> PodId {
    api.pods.len() + n
}

/// Every load balancer of the run, with its targets' fates.
pub fn balancers(cfg: &Config, log: &[Event], api: &Api, machines: &Machines) -> Vec<Balancer> {
    let mut out = Vec::new();
    for (w, spec) in cfg
        .workloads
        .iter()
        .enumerate()
        .filter_map(|(w, s)| Some((w, s.load_balancer?)))
    {
        let p = spec.profile();
        let mut rng = Rng::stream(cfg.seed, Stream::LoadBalancer(w));
        let mut fates = Vec::new();
        // The Service's pods by node, and what its controller reads as ready over the run: each
        // one pass, whatever the number of dead targets.
        let mut on_node: Vec<Vec<PodId>> = vec![Vec::new(); api.nodes.len()];
        for (q, pod) in api.pods.iter().enumerate().filter(|(_, pod)| pod.workload == w) {
            if let Some(n) = pod.node {
                on_node[n].push(q);
            }
        }
        let readiness = match (p.deregistration, p.target) {
            (Deregistration::Controller, Target::Ip) => Some(endpoint_readiness(log, api, w)),
            (Deregistration::Controller, Target::Instance) => Some(node_readiness(cfg, log)),
            (Deregistration::ServiceController, _) => None,
        };
        for &(n, down, fault) in &machines.silenced {
            if log[fault].cause.key == "cause.fault.kubelet_stop" {
                // kube-proxy and the data plane still answer the probes.
                continue;
            }
            let pods: Vec<PodId> = on_node[n]
                .iter()
                .copied()
                .filter(|&q| api.pods[q].stopped_at == Some(down) && !api.pods[q].failed)
                .collect();
            let back = machines
                .back
                .iter()
                .find(|b| b.0 == n && b.1 >= down)
                .map(|b| (b.1, b.2));
            let groups: Vec<Vec<PodId>> = match (p.target, spec.policy) {
                (Target::Ip, _) => pods.iter().map(|&q| vec![q]).collect(),
                (Target::Instance, Policy::Local) if pods.is_empty() => Vec::new(),
                (Target::Instance, _) => vec![pods],
            };
            for pods in groups {
                let phase = (rng.unit() * p.interval as f64) as Millis;
                let unhealthy = Some(p.unhealthy_at(down, phase)).filter(|&u| back.is_none_or(|b| b.0 > u));
                let mut fate = Fate {
                    node: n,
                    pods,
                    down,
                    fault,
                    back,
                    unhealthy,
                    deregistered: None,
                    phase,
                    rejoined: None,
                };
                fate.deregistered = deregistered(cfg, log, readiness.as_ref(), w, &fate);
                fate.rejoined = rejoined(log, spec, w, &fate);
                fates.push(fate);
            }
        }
        out.push(Balancer {
            service: w,
            spec,
            fates,
            rng,
        });
    }
    out
}

/// When a controller takes `fate`'s target out, and on which event. The AWS Load Balancer
/// Controller's resolver fails open (`EndpointsFailOpen`): while no other endpoint is ready (ip)
/// or no other node is Ready (instance) it keeps the target, until another one is, or the target
/// leaves the EndpointSlice (ip) or the cluster (instance); one ready again stays.
fn deregistered(
    cfg: &Config,
    log: &[Event],
    readiness: Option<&Readiness>,
    w: usize,
    fate: &Fate,
) -> Option<(Millis, EventId)> {
    let p = cfg.workloads[w].load_balancer?.profile();
    let pod = fate.pods.first().copied();
    let mine = |e: &Event, target: Target| match target {
        Target::Ip => e.pod == pod && e.service == Some(w),
        Target::Instance => e.node == Some(fate.node) && e.pod.is_none(),
    };
    let from = log.partition_point(|e| e.at < fate.down);
    let after = |kinds: &[EventKind], target: Target| {
        log.iter()
            .enumerate()
            .skip(from)
            .find(|(_, e)| kinds.contains(&e.kind) && mine(e, target))
    };
    let stable = cfg.profile.version.minor >= STABLE_NODE_SET_MINOR;
    let (back, gone) = match p.target {
        Target::Ip => (EventKind::EndpointReady, EventKind::EndpointRemoved),
        Target::Instance => (EventKind::NodeReady, EventKind::NodeDeleted),
    };
    let (first, e) = match (p.deregistration, p.target) {
        (Deregistration::Controller, Target::Ip) => after(&[EventKind::EndpointNotReady, gone], Target::Ip)?,
        (Deregistration::Controller, Target::Instance) => after(&[EventKind::NodeUnknown], Target::Instance)?,
        (Deregistration::ServiceController, _) if stable => {
            return after(&[EventKind::NodeDeleted], Target::Instance).map(|(id, e)| (e.at, id));
        }
        (Deregistration::ServiceController, _) => {
            let kinds = [EventKind::NodeNotReady, EventKind::NodeUnknown];
            return after(&kinds, Target::Instance).map(|(id, e)| (e.at, id));
        }
    };
    // The target itself left the ready ones with `e`: the count is the others'.
    let others = readiness.map_or(0, |r| r.at(e.at));
    if e.kind == gone || others > 0 {
        return Some((e.at + CONTROLLER_RECONCILE, first));
    }
    // Fail-open: the next reconcile that finds another target ready, or this one gone.
    for (id, e) in log.iter().enumerate().skip(first + 1) {
        if mine(e, p.target) && e.kind == back {
            return None;
        }
        let other_ready = e.kind == back
            && match p.target {
                Target::Ip => e.service == Some(w) && e.pod.is_some() && e.pod != pod,
                Target::Instance => e.pod.is_none() && e.node.is_some_and(|n| n != fate.node),
            };
        if other_ready || (mine(e, p.target) && e.kind == gone) {
            return Some((e.at + CONTROLLER_RECONCILE, id));
        }
    }
    None
}

/// When `fate`'s target is back in the rotation: its machine back and, for a pod (ip targets,
/// `Local`), the pod Ready again; registered again by the controller that took it out (at the
/// node's `NodeReady` or the pod's `EndpointReady`, after the controller's reconcile); then the
/// healthy threshold's probes pass, every interval from the first one after.
fn rejoined(log: &[Event], spec: LoadBalancerSpec, w: usize, fate: &Fate) -> Option<Millis> {
    let p = spec.profile();
    let (back, _) = fate.back?;
    fate.out_at()?;
    let from = log.partition_point(|e| e.at < back);
    let ready = |kind: EventKind| {
        log[from..].iter().find(|e| {
            e.kind == kind
                && match (kind, fate.pods.first()) {
                    (EventKind::EndpointReady, Some(&q)) => e.pod == Some(q) && e.service == Some(w),
                    _ => e.node == Some(fate.node) && e.pod.is_none(),
                }
        })
    };
    let up = match p.target == Target::Ip || spec.policy == Policy::Local {
        true => ready(EventKind::EndpointReady)?.at,
        false => back,
    };
    let Some((out, _)) = fate.deregistered else {
        return Some(p.healthy_at(up, fate.down + fate.phase));
    };
    let kind = match p.target {
        Target::Ip => EventKind::EndpointReady,
        Target::Instance => EventKind::NodeReady,
    };
    let registered = ready(kind)?.at.max(out);
    let reconcile = match p.deregistration {
        Deregistration::Controller => CONTROLLER_RECONCILE,
        Deregistration::ServiceController => 0,
    };
    let at = registered.max(up) + reconcile;
    Some(p.healthy_at(at, at + fate.phase))
}

/// How many targets a controller reads as ready over the run: the count after each change, in
/// time order.
struct Readiness {
    initial: usize,
    changes: Vec<(Millis, usize)>,
}

impl Readiness {
    /// The count just after `t`.
    fn at(&self, t: Millis) -> usize {
        match self.changes.partition_point(|c| c.0 <= t) {
            0 => self.initial,
            i => self.changes[i - 1].1,
        }
    }

    /// The count over `log` of a set that starts as `ready` and that each event's `change` (a
    /// key, and whether it is now ready) updates. Callers build `ready` with `order::set`, which
    /// inserts: a `collect` would sort first, in a copy of the sort of its own.
    fn of<K: Ord>(mut ready: BTreeSet<K>, log: &[Event], change: impl Fn(&Event) -> Option<(K, bool)>) -> Readiness {
        let initial = ready.len();
        let mut changes = Vec::new();
        for e in log {
            let Some((k, on)) = change(e) else { continue };
            let changed = if on { ready.insert(k) } else { ready.remove(&k) };
            if changed {
                changes.push((e.at, ready.len()));
            }
        }
        Readiness { initial, changes }
    }
}

/// Service `w`'s endpoints its EndpointSlice lists as ready, as the AWS Load Balancer
/// Controller's resolver reads them (`pkg/backend/endpoint_resolver.go`): the pods there from
/// the start until an `EndpointNotReady` or `EndpointRemoved`, and those an `EndpointReady`
/// added since.
fn endpoint_readiness(log: &[Event], api: &Api, w: usize) -> Readiness {
    let start =
        crate::order::set((0..api.pods.len()).filter(|&q| api.pods[q].workload == w && api.pods[q].created_at <= 0));
    Readiness::of(start, log, |e| {
        let q = e.pod.filter(|_| e.service == Some(w))?;
        match e.kind {
            EventKind::EndpointReady => Some((q, true)),
            EventKind::EndpointNotReady | EventKind::EndpointRemoved => Some((q, false)),
            _ => None,
        }
    })
}

/// Service `w`'s pods other than `fate`'s that run at `t`: created, not removed, and not
/// stopped (the targets a load balancer's probes still find).
fn other_endpoints(api: &Api, w: usize, fate: &Fate, t: Millis) -> usize {
    api.pods
        .iter()
        .enumerate()
        .filter(|(q, p)| {
            p.workload == w
                && !fate.pods.contains(q)
                && p.created_at <= t
                && p.removed_at.is_none_or(|r| r > t)
                && p.stopped_at.is_none_or(|s| s > t)
                && p.node.is_some()
        })
        .count()
}

/// Nodes whose Ready condition is True, which the AWS Load Balancer Controller registers as
/// instance targets (`pkg/backend/endpoint_resolver.go`, `ResolveNodePortEndpoints`): present
/// from the start or registered, and not turned NotReady or Unknown since their last Ready.
fn node_readiness(cfg: &Config, log: &[Event]) -> Readiness {
    let start = crate::order::set((0..cfg.nodes.len()).filter(|&n| cfg.nodes[n].join_at.is_none()));
    Readiness::of(start, log, |e| match (e.kind, e.node) {
        (EventKind::NodeReady, Some(n)) => Some((n, true)),
        (EventKind::NodeNotReady | EventKind::NodeUnknown | EventKind::NodeDeleted, Some(n)) => Some((n, false)),
        _ => None,
    })
}

/// The load balancers' events: each target's `Unhealthy` and `Deregistered` within the run.
pub fn events(cfg: &Config, log: &[Event], api: &Api, balancers: &[Balancer], out: &mut Vec<(Event, Option<usize>)>) {
    for b in balancers {
        let p = b.profile();
        for f in &b.fates {
            let target = target_name(cfg, api, b, f);
            let mark = |e: Event| match (p.target, f.pods.first()) {
                (Target::Ip, Some(&q)) => e.pod(q),
                _ => e.node(f.node),
            };
            if let Some(at) = f.unhealthy.filter(|&t| t <= cfg.duration) {
                let open = b.profile().fails_open && last_healthy(cfg, api, b, f, at);
                let cause = unhealthy_cause(p, &target, f.down, open);
                let mut e = mark(Event::new(at, EventKind::LoadBalancerTargetUnhealthy, cause)).after(Some(f.fault));
                e.service = Some(b.service);
                out.push((e, None));
            }
            if let Some((at, by)) = f.deregistered.filter(|d| d.0 <= cfg.duration) {
                let cause = deregistered_cause(cfg, p, &target, kept_open(cfg, api, f, &log[by]));
                let mut e = mark(Event::new(at, EventKind::LoadBalancerTargetDeregistered, cause)).after(Some(by));
                e.service = Some(b.service);
                out.push((e, None));
            }
        }
    }
}

/// The target's name: its node, or its pod for ip targets.
pub fn target_name(cfg: &Config, api: &Api, b: &Balancer, f: &Fate) -> String {
    match (b.profile().target, f.pods.first()) {
        (Target::Ip, Some(&q)) => api.pods[q].name.clone(),
        _ => cfg.nodes[f.node].name.clone(),
    }
}

/// Whether `f`'s target was the last healthy one at `t`, so that the load balancer fails open:
/// no other pod of the Service runs (ip targets, `Local`), or every node is out.
fn last_healthy(cfg: &Config, api: &Api, b: &Balancer, f: &Fate, t: Millis) -> bool {
    match b.per_target() {
        true => other_endpoints(api, b.service, f, t) == 0,
        false => {
            let nodes = cfg.nodes.iter().filter(|n| n.join_at.is_none()).count();
            b.fates.iter().filter(|g| g.out_by(t)).count() >= nodes
        }
    }
}

fn unhealthy_cause(p: &LbProfile, target: &str, down: Millis, open: bool) -> Cause {
    let key = match p.probe {
        _ if open => "cause.lb.unhealthy_fail_open",
        Probe::TrafficPort => "cause.lb.unhealthy_traffic_port",
        Probe::ProxyHealthz => "cause.lb.unhealthy_healthz",
        Probe::HealthCheckNodePort => "cause.lb.unhealthy_health_check_node_port",
    };
    Cause::new(key)
        .text("lb", p.kind.name())
        .text("target", target)
        .text("count", p.unhealthy)
        .time("interval", p.interval)
        .time("timeout", p.timeout)
        .time("down", down)
}

/// The other target whose readiness ended the controller's fail-open for `f`, by name: the pod
/// or node the event `by` it reconciled on is about, when that is not `f`'s own.
fn kept_open(cfg: &Config, api: &Api, f: &Fate, by: &Event) -> Option<String> {
    match (by.pod, by.node) {
        (Some(q), _) if !f.pods.contains(&q) => Some(api.pods[q].name.clone()),
        (None, Some(n)) if n != f.node => Some(cfg.nodes[n].name.clone()),
        _ => None,
    }
}

fn deregistered_cause(cfg: &Config, p: &LbProfile, target: &str, other: Option<String>) -> Cause {
    if let Some(other) = other {
        let key = match p.target {
            Target::Ip => "cause.lb.deregistered_pod_fail_open",
            Target::Instance => "cause.lb.deregistered_node_fail_open",
        };
        return Cause::new(key)
            .text("lb", p.kind.name())
            .text("target", target)
            .text("other", other)
            .time("reconcile", CONTROLLER_RECONCILE)
            .time("delay", p.deregistration_delay);
    }
    let key = match (p.deregistration, p.target) {
        (Deregistration::Controller, Target::Ip) => "cause.lb.deregistered_pod",
        (Deregistration::Controller, Target::Instance) => "cause.lb.deregistered_node",
        (Deregistration::ServiceController, _) if cfg.profile.version.minor >= STABLE_NODE_SET_MINOR => {
            "cause.lb.deregistered_node_deleted"
        }
        (Deregistration::ServiceController, _) => "cause.lb.deregistered_not_ready",
    };
    let mut c = Cause::new(key)
        .text("lb", p.kind.name())
        .text("target", target)
        .time("reconcile", CONTROLLER_RECONCILE);
    if p.deregistration_delay > 0 {
        c = c.time("delay", p.deregistration_delay);
    }
    c
}

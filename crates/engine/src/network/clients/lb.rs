//! The load balancers in front of Services of type `LoadBalancer` (the clients spec's §3): read
//! off the finished run like the clients. A target whose machine stopped answering fails its
//! health checks from then on; after the row's unhealthy threshold the load balancer calls it
//! unhealthy (`LoadBalancerTargetUnhealthy`), and a controller may take it out
//! (`LoadBalancerTargetDeregistered`). An external client's flows go through it: to a dead target
//! until it is out of rotation, and, for instance targets with `Cluster`, through a live node's
//! kube-proxy to a dead pod until the proxies drop it (§3.7).

use super::history::{Death, Machines, Segment};
use super::rules::{Mech, Slots};
use super::walk::{self, Failure, Start};
use crate::api::{Api, PodId};
use crate::cause::Cause;
use crate::rng::{Rng, Stream};
use crate::scenario::clients::ClientParams;
use crate::scenario::libraries::Style;
use crate::scenario::load_balancers::{
    Deregistration, LbKind, LbProfile, LoadBalancerSpec, Policy, Probe, Target, ALB_CONNECT_TIMEOUT,
    CONTROLLER_RECONCILE, STABLE_NODE_SET_MINOR,
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
}

impl Fate {
    /// When it left the rotation: unhealthy or deregistered, whichever came first.
    pub fn out_at(&self) -> Option<Millis> {
        match (self.unhealthy, self.deregistered.map(|d| d.0)) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
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
        for &(n, down, fault) in &machines.silenced {
            if log[fault].cause.key == "cause.fault.kubelet_stop" {
                // kube-proxy and the data plane still answer the probes.
                continue;
            }
            let pods: Vec<PodId> = (0..api.pods.len())
                .filter(|&q| {
                    let pod = &api.pods[q];
                    pod.workload == w && pod.node == Some(n) && pod.stopped_at == Some(down) && !pod.failed
                })
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
                };
                fate.deregistered = deregistered(cfg, log, api, w, &fate);
                fates.push(fate);
            }
        }
        out.push(Balancer {
            service: w,
            spec,
            fates,
        });
    }
    out
}

/// When a controller takes `fate`'s target out, and on which event.
fn deregistered(cfg: &Config, log: &[Event], api: &Api, w: usize, fate: &Fate) -> Option<(Millis, EventId)> {
    let p = cfg.workloads[w].load_balancer?.profile();
    let after = |kinds: &[EventKind], pod: Option<PodId>| {
        log.iter().enumerate().find(|(_, e)| {
            e.at >= fate.down
                && kinds.contains(&e.kind)
                && match pod {
                    Some(q) => e.pod == Some(q) && e.service == Some(w),
                    None => e.node == Some(fate.node) && e.pod.is_none(),
                }
        })
    };
    match (p.deregistration, p.target) {
        (Deregistration::Controller, Target::Ip) => {
            let (id, e) = after(
                &[EventKind::EndpointNotReady, EventKind::EndpointRemoved],
                fate.pods.first().copied(),
            )?;
            // Fail-open: with no other ready endpoint the controller keeps the unknown one.
            (other_endpoints(api, w, fate, e.at) > 0).then_some((e.at + CONTROLLER_RECONCILE, id))
        }
        (Deregistration::Controller, Target::Instance) => {
            let (id, e) = after(&[EventKind::NodeUnknown], None)?;
            (ready_nodes(cfg, log, e.at) > 0).then_some((e.at + CONTROLLER_RECONCILE, id))
        }
        (Deregistration::ServiceController, _) if cfg.profile.version.minor >= STABLE_NODE_SET_MINOR => {
            after(&[EventKind::NodeDeleted], None).map(|(id, e)| (e.at, id))
        }
        (Deregistration::ServiceController, _) => {
            after(&[EventKind::NodeNotReady, EventKind::NodeUnknown], None).map(|(id, e)| (e.at, id))
        }
    }
}

/// Service `w`'s pods other than `fate`'s that run at `t`: created, not removed, and not
/// stopped (the endpoints the controller still counts as ready).
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

/// Nodes whose Ready condition is True just after `t`: present from the start or registered,
/// and not turned NotReady or Unknown since their last Ready.
fn ready_nodes(cfg: &Config, log: &[Event], t: Millis) -> usize {
    let mut ready: BTreeSet<usize> = (0..cfg.nodes.len())
        .filter(|&n| cfg.nodes[n].join_at.is_none())
        .collect();
    for e in log.iter().take_while(|e| e.at <= t) {
        match (e.kind, e.node) {
            (EventKind::NodeReady, Some(n)) => {
                ready.insert(n);
            }
            (EventKind::NodeNotReady | EventKind::NodeUnknown | EventKind::NodeDeleted, Some(n)) => {
                ready.remove(&n);
            }
            _ => {}
        }
    }
    ready.len()
}

/// The load balancers' events: each target's `Unhealthy` and `Deregistered` within the run.
pub fn events(cfg: &Config, api: &Api, balancers: &[Balancer], out: &mut Vec<(Event, Option<usize>)>) {
    for b in balancers {
        let p = b.profile();
        for f in &b.fates {
            let target = target_name(cfg, api, b, f);
            let mark = |e: Event| match (p.target, f.pods.first()) {
                (Target::Ip, Some(&q)) => e.pod(q),
                _ => e.node(f.node),
            };
            if let Some(at) = f.unhealthy.filter(|&t| t <= cfg.duration) {
                let cause = unhealthy_cause(p, &target, f.down);
                let mut e = mark(Event::new(at, EventKind::LoadBalancerTargetUnhealthy, cause)).after(Some(f.fault));
                e.service = Some(b.service);
                out.push((e, None));
            }
            if let Some((at, by)) = f.deregistered.filter(|d| d.0 <= cfg.duration) {
                let cause = deregistered_cause(cfg, p, &target);
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

fn unhealthy_cause(p: &LbProfile, target: &str, down: Millis) -> Cause {
    let key = match p.probe {
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

fn deregistered_cause(cfg: &Config, p: &LbProfile, target: &str) -> Cause {
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

/// What an external client's flows meet, as rules over time: each segment's units are the
/// ways a flow can go, the dead ones as deaths (see the module's doc).
pub fn external_segments(cfg: &Config, api: &Api, b: &Balancer, segs: &[Segment]) -> Vec<Segment> {
    let mut cuts: Vec<Millis> = segs.iter().map(|s| s.at).collect();
    cuts.extend(b.fates.iter().filter_map(Fate::out_at));
    crate::order::sort(&mut cuts);
    cuts.dedup();
    let out_by = |t: Millis, f: &Fate| f.out_at().is_some_and(|o| o <= t);
    let death = |f: &Fate, pod: PodId| Death {
        pod,
        at: f.down,
        fault: f.fault,
        stopped: None,
        back: f.back,
    };
    // Every dead pod the proxies ever had, for ip targets and `Local`.
    let mut deaths: Vec<Death> = Vec::new();
    for d in segs.iter().flat_map(|s| &s.mortal) {
        if !deaths.iter().any(|o| o.pod == d.pod) {
            deaths.push(*d);
        }
    }
    let nodes = cfg.nodes.iter().filter(|n| n.join_at.is_none()).count();
    let mut out: Vec<Segment> = Vec::with_capacity(cuts.len());
    for t in cuts.into_iter().filter(|&t| t >= 0) {
        let i = segs.partition_point(|s| s.at <= t).saturating_sub(1);
        let seg = &segs[i];
        let by = if seg.at == t { seg.by } else { None };
        let next = if b.per_target() {
            // Its units are the pods; a dead one stays until the load balancer drops it.
            let mut s = Segment {
                by,
                at: t,
                ..seg.clone()
            };
            for d in &deaths {
                let fate = b.fate_of(api, d.pod);
                let inside = s.mortal.iter().any(|m| m.pod == d.pod);
                let kept = fate.is_some_and(|f| !out_by(t, f));
                match (inside, fate) {
                    (true, Some(f)) if out_by(t, f) => {
                        s.size = s.size.saturating_sub(1);
                        s.mortal.retain(|m| m.pod != d.pod);
                    }
                    (false, Some(_)) if kept && d.down_at(t) => {
                        s.size += 1;
                        s.mortal.push(*d);
                    }
                    _ => {}
                }
            }
            s
        } else {
            // Its units are (node, pod) pairs: every pair through a dead node is dead.
            let gone = b.fates.iter().filter(|f| out_by(t, f)).count();
            let live = nodes.saturating_sub(b.fates.len());
            let mut mortal = Vec::new();
            for f in b.fates.iter().filter(|f| !out_by(t, f)) {
                mortal.extend(std::iter::repeat_n(death(f, node_unit(api, f.node)), seg.size));
            }
            for d in &seg.mortal {
                mortal.extend(std::iter::repeat_n(*d, live));
            }
            Segment {
                at: t,
                size: nodes.saturating_sub(gone) * seg.size,
                mortal,
                by,
            }
        };
        out.push(next);
    }
    out
}

/// An external client's failures through load balancer `b`: its library's own rules over the
/// flows' rules ([`external_segments`]), and what the load balancer adds on a dead first hop:
/// an NLB resets the flows still going there once the target is unhealthy; an ALB answers each
/// request it cannot connect for with a 504 after its 10 s connect timeout.
#[allow(clippy::too_many_arguments)]
pub fn external(
    api: &Api,
    b: &Balancer,
    p: &ClientParams,
    segs: &[Segment],
    slots: &Slots,
    end: Millis,
    rng: &mut Rng,
) -> Vec<Failure> {
    let prof = b.profile();
    let alb = prof.kind == LbKind::AwsAlb;
    let params = match alb {
        // The ALB, not the client, dials the targets: the client's connection to it never dies.
        true => ClientParams {
            connect_timeout: ALB_CONNECT_TIMEOUT,
            ..ClientParams::bare(Style::PerRequest)
        },
        false => *p,
    };
    let mut failures = match params.style {
        Style::PerRequest => walk::per_request(&params, segs, slots, end, rng),
        // A proxy never calls from outside (`client_rules` refuses it): as a pool.
        Style::Pool | Style::Multiplexed | Style::Proxy => walk::connected(&params, segs, slots, end, rng),
    };
    for f in &mut failures {
        if alb && f.mech == Mech::ConnectTimeout {
            // Through a live node to a dead pod too: the ALB's own dial times out.
            f.mech = Mech::Alb504;
        }
        let Some(fate) = f.pod.and_then(|q| b.fate_of(api, q)) else {
            continue;
        };
        f.start = Start::Blackholed;
        let reset = fate
            .unhealthy
            .filter(|&u| prof.reset_on_unhealthy && fate.deregistered.is_none_or(|d| u <= d.0));
        if let Some(u) = reset.filter(|&u| f.last > u) {
            f.first = f.first.min(u);
            f.last = u;
            f.latency = f.latency.min(u - f.sent);
            f.mech = Mech::LbReset;
            f.ended_by = None;
        }
    }
    failures
}

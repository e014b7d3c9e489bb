//! An external client's flows through a load balancer ([`super::lb`]): which ways a flow can go
//! at each time, and what the load balancer adds to the client's own failures. A target leaves
//! the rotation when it is unhealthy or deregistered and comes back when its probes pass again;
//! a pod that comes into the rules waits for the load balancer to call it healthy; when every
//! target is unhealthy an AWS NLB fails open and sends to all of them, the dead ones included.

use super::history::{self, Death, Machines, Segment};
use super::lb::{node_unit, Balancer, Fate};
use super::rules::{self, Mech, Slots};
use super::walk::{self, Failure, Start};
use crate::api::{Api, PodId};
use crate::rng::Rng;
use crate::scenario::clients::ClientParams;
use crate::scenario::libraries::Style;
use crate::scenario::load_balancers::{LbKind, Target, ALB_CONNECT_TIMEOUT, ALB_IDLE_TIMEOUT, CONTROLLER_RECONCILE};
use crate::scenario::Config;
use crate::time::Millis;
use crate::timeline::Event;
use std::collections::BTreeSet;

/// An external client's ways over the run, and the stretches `[from, to)` in which the load
/// balancer failed open (every target unhealthy), ms; `to` is `Millis::MAX` when it never ended.
#[derive(Debug, Clone, Default)]
pub struct Flows {
    /// The ways a flow can go, as rules over time.
    pub segments: Vec<Segment>,
    /// The fail-open stretches.
    pub open: Vec<(Millis, Millis)>,
}

/// The rules the load balancer's pods follow (ip targets, `Local`): kube-proxy's, with each pod
/// that comes in after the start held back until the load balancer calls it healthy: registered
/// (the controller's reconcile, ip targets), then its healthy threshold's probes, the first one
/// a phase drawn from the seed after; a pod whose target came back after its machine's death
/// rejoins when that target does. For node targets, kube-proxy's rules.
pub fn joined(
    log: &[Event],
    api: &Api,
    machines: &Machines,
    programmed: &BTreeSet<PodId>,
    b: &Balancer,
) -> Vec<Segment> {
    let mut changes = history::rule_changes(log, programmed, b.service);
    if b.per_target() {
        let p = b.profile();
        let reconcile = if p.target == Target::Ip {
            CONTROLLER_RECONCILE
        } else {
            0
        };
        let mut rng = b.rng.clone();
        for i in 0..changes.list.len() {
            let c = changes.list[i];
            if !c.into || c.at <= 0 {
                continue;
            }
            let phase = (rng.unit() * p.interval as f64) as Millis;
            let registered = c.at + reconcile;
            let back = b
                .fates
                .iter()
                .find(|f| f.pods.contains(&c.pod) && f.down <= c.at)
                .and_then(|f| f.rejoined);
            let healthy = back
                .unwrap_or_else(|| p.healthy_at(registered, registered + phase))
                .max(c.at);
            let next_out = changes.list[i + 1..]
                .iter()
                .find(|o| o.pod == c.pod && !o.into)
                .map_or(Millis::MAX, |o| o.at);
            changes.list[i].at = healthy.min(next_out);
        }
        crate::order::sort_by_key(&mut changes.list, |c| c.at);
    }
    history::build(&changes, api, machines)
}

/// What an external client's flows meet, as rules over time: each segment's units are the ways a
/// flow can go, the dead ones as deaths. `raw`: kube-proxy's rules; `rules`: [`joined`]'s.
pub fn external_segments(cfg: &Config, api: &Api, b: &Balancer, raw: &[Segment], rules: &[Segment]) -> Flows {
    let mut cuts: Vec<Millis> = raw.iter().chain(rules).map(|s| s.at).collect();
    for f in &b.fates {
        cuts.extend(f.out_at());
        cuts.extend(f.rejoined);
        cuts.extend(f.deregistered.map(|d| d.0));
        cuts.extend(f.back.map(|x| x.0));
    }
    crate::order::sort(&mut cuts);
    cuts.dedup();
    // Every dead pod the proxies ever had, for ip targets and `Local`.
    let mut deaths: Vec<Death> = Vec::new();
    for d in raw.iter().flat_map(|s| &s.mortal) {
        if !deaths.iter().any(|o| o.pod == d.pod) {
            deaths.push(*d);
        }
    }
    let nodes = cfg.nodes.iter().filter(|n| n.join_at.is_none()).count();
    let mut out = Flows::default();
    let mut open_since = None;
    for t in cuts.into_iter().filter(|&t| t >= 0) {
        let (seg, first) = (&rules[history::in_force(rules, t)], &raw[history::in_force(raw, t)]);
        let by = [seg, first].iter().find(|s| s.at == t).and_then(|s| s.by);
        let mut next = match b.per_target() {
            true => pods_in_rotation(api, b, seg, &deaths, t),
            false => through_nodes(api, b, seg, nodes, t),
        };
        let open = match next.size {
            0 if b.profile().fails_open => fail_open(api, b, first, &deaths, t),
            _ => None,
        };
        match (open, open_since) {
            (Some(s), None) => {
                next = s;
                open_since = Some(t);
            }
            (Some(s), Some(_)) => next = s,
            (None, Some(a)) => {
                out.open.push((a, t));
                open_since = None;
            }
            (None, None) => {}
        }
        out.segments.push(Segment { at: t, by, ..next });
    }
    out.open.extend(open_since.map(|a| (a, Millis::MAX)));
    out
}

/// Ip targets and `Local`: the pods are the units; a dead one stays until the load balancer
/// drops it.
fn pods_in_rotation(api: &Api, b: &Balancer, seg: &Segment, deaths: &[Death], t: Millis) -> Segment {
    let mut s = seg.clone();
    for d in deaths {
        let fate = b.fate_of(api, d.pod);
        let inside = s.mortal.iter().any(|m| m.pod == d.pod);
        match (inside, fate) {
            (true, Some(f)) if f.out_by(t) => {
                s.size = s.size.saturating_sub(1);
                s.mortal.retain(|m| m.pod != d.pod);
            }
            (false, Some(f)) if !f.out_by(t) && d.down_at(t) => {
                s.size += 1;
                s.mortal.push(*d);
            }
            _ => {}
        }
    }
    s
}

/// Instance targets with `Cluster`: the units are (node, pod) pairs; every pair through a dead
/// node in the rotation is dead, and a live node (or one back) reaches the rules' dead pods.
fn through_nodes(api: &Api, b: &Balancer, seg: &Segment, nodes: usize, t: Millis) -> Segment {
    let gone = b.fates.iter().filter(|f| f.out_by(t)).count();
    let back = b.fates.iter().filter(|f| f.rejoined.is_some_and(|r| r <= t)).count();
    let live = nodes.saturating_sub(b.fates.len()) + back;
    let mut mortal = Vec::new();
    for f in b
        .fates
        .iter()
        .filter(|f| !f.out_by(t) && f.rejoined.is_none_or(|r| t < r))
    {
        mortal.extend(std::iter::repeat_n(node_death(f, node_unit(api, f.node)), seg.size));
    }
    for d in &seg.mortal {
        mortal.extend(std::iter::repeat_n(*d, live));
    }
    Segment {
        size: nodes.saturating_sub(gone) * seg.size,
        mortal,
        ..seg.clone()
    }
}

/// A dead target's death, as a unit of the flows.
fn node_death(f: &Fate, pod: PodId) -> Death {
    Death {
        pod,
        at: f.down,
        fault: f.fault,
        stopped: None,
        back: f.back,
    }
}

/// The flows when no healthy target is left in the rotation at `t`: the load balancer fails
/// open and sends to all its registered targets, the unhealthy dead ones and those not yet
/// healthy included (AWS NLB: "If all targets fail health checks at the same time in all
/// enabled Availability Zones, the load balancer fails open"; ALB: "If a target group contains
/// only unhealthy registered targets, the load balancer routes requests to all those targets").
/// `None`: no target to send to.
fn fail_open(api: &Api, b: &Balancer, raw: &Segment, deaths: &[Death], t: Millis) -> Option<Segment> {
    let kept: Vec<&Fate> = b
        .fates
        .iter()
        .filter(|f| f.out_by(t) && !f.deregistered_by(t))
        .collect();
    if !b.per_target() {
        if kept.is_empty() {
            return None;
        }
        let units = raw.size.max(1);
        let mortal = kept
            .iter()
            .flat_map(|f| std::iter::repeat_n(node_death(f, node_unit(api, f.node)), units))
            .collect();
        return Some(Segment {
            size: kept.len() * units,
            mortal,
            ..raw.clone()
        });
    }
    let mut s = raw.clone();
    s.mortal
        .retain(|m| b.fate_of(api, m.pod).is_none_or(|f| !f.deregistered_by(t)));
    s.size -= raw.mortal.len() - s.mortal.len();
    for q in kept.iter().flat_map(|f| &f.pods) {
        if let Some(d) = deaths
            .iter()
            .find(|d| d.pod == *q && !s.mortal.iter().any(|m| m.pod == *q))
        {
            s.size += 1;
            s.mortal.push(*d);
        }
    }
    (s.size > 0).then_some(s)
}

/// When an NLB resets the flows still going to `fate`'s target: when it calls it unhealthy,
/// or, if that made it fail open, when the fail-open ends; never once the target is
/// deregistered (its flows drain) or back.
fn reset_at(b: &Balancer, fate: &Fate, open: &[(Millis, Millis)]) -> Option<Millis> {
    let u = fate.unhealthy.filter(|_| b.profile().reset_on_unhealthy)?;
    let u = open.iter().find(|w| w.0 <= u && u < w.1).map_or(u, |w| w.1);
    let before = |x: Option<Millis>| x.is_none_or(|x| u < x);
    let deregistered = fate.deregistered.map(|d| d.0);
    (u < Millis::MAX && deregistered.is_none_or(|d| u <= d) && before(fate.back.map(|x| x.0))).then_some(u)
}

/// An external client's failures through load balancer `b`: its library's own rules over the
/// flows ([`external_segments`]), and what the load balancer adds on a dead first hop: an NLB
/// resets the flows still going there once the target is unhealthy (or its fail-open ends); an
/// ALB answers each request it cannot connect for with a 504 after its 10 s connect timeout,
/// and the request it had in flight to the target when the machine died after its 60 s idle
/// timeout.
#[allow(clippy::too_many_arguments)]
pub fn external(
    api: &Api,
    b: &Balancer,
    p: &ClientParams,
    flows: &Flows,
    slots: &Slots,
    end: Millis,
    rng: &mut Rng,
) -> Vec<Failure> {
    let segs = &flows.segments;
    let alb = b.profile().kind == LbKind::AwsAlb;
    let params = match alb {
        // The ALB, not the client, dials the targets: the client's connection to it never dies,
        // and only the client's own request timeout cuts the ALB's waits short.
        true => ClientParams {
            connect_timeout: ALB_CONNECT_TIMEOUT,
            request_timeout: p.request_timeout,
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
        // The NLB answers the next packet a flow sends after that with a reset (AWS's NLB
        // target health docs: it "sends a TCP RST for packets received on the client
        // connections associated with the target"): its next SYN or data retransmission.
        let rto = match f.mech {
            Mech::ConnectTimeout | Mech::SynRetries => rules::SYN_RTO,
            _ => rules::DATA_RTO,
        };
        let Some(u) = reset_at(b, fate, &flows.open) else {
            continue;
        };
        let (first, last) = (
            rules::first_retransmission(f.sent, rto, u),
            rules::first_retransmission(f.last_sent, rto, u),
        );
        if f.last > last {
            f.first = f.first.min(first);
            f.last = last;
            f.latency = f.latency.min(first - f.sent);
            f.mech = Mech::LbReset;
            f.ended_by = None;
        }
    }
    if alb {
        in_flight(api, b, p.request_timeout, &mut failures);
    }
    failures
}

/// The ALB keeps its connections to a target open and reuses them: the first request it sends
/// to a dead target goes into one, in flight when the machine died, and gets no answer; the
/// ALB's idle timeout (60 s) ends it with a 504, unless the machine comes back first and its
/// kernel resets the connection, or the client's own `request_timeout` (ms, 0: none) ends it
/// first.
fn in_flight(api: &Api, b: &Balancer, request_timeout: Millis, failures: &mut [Failure]) {
    if request_timeout > 0 && request_timeout < ALB_IDLE_TIMEOUT {
        return;
    }
    for fate in &b.fates {
        let first = failures
            .iter_mut()
            .filter(|f| f.sent >= fate.down)
            .filter(|f| {
                f.pod
                    .and_then(|q| b.fate_of(api, q))
                    .is_some_and(|g| std::ptr::eq(g, fate))
            })
            .min_by_key(|f| f.sent);
        let Some(f) = first else { continue };
        let idle = f.sent + ALB_IDLE_TIMEOUT;
        let reset = fate
            .back
            .map(|(t, _)| rules::first_retransmission(f.sent, rules::DATA_RTO, t));
        if reset.is_some_and(|r| r < idle) || idle <= f.last {
            continue;
        }
        f.last = idle;
        f.latency = f.latency.max(ALB_IDLE_TIMEOUT);
        f.mech = Mech::AlbIdle504;
        f.ended_by = None;
    }
}

//! A client behind a proxy that dials pod IPs (an Istio sidecar, ingress-nginx; the spec's §2.5,
//! §2.6): its endpoints follow the EndpointSlice's ready ones after the proxy's own delay, not
//! kube-proxy's rules, and a try that meets a dead pod is tried again on another endpoint. A
//! request fails only when every try met a dead pod; otherwise it succeeds late.

use super::history::{self, Death, Segment};
use super::rules::{self, Mech, Slots};
use super::walk::{self, Failure, Start};
use crate::api::PodId;
use crate::rng::Rng;
use crate::scenario::clients::ClientParams;
use crate::scenario::libraries::Proxy;
use crate::time::Millis;

/// What a proxy's client met: its failed requests, and the longest a request that succeeded
/// after a retry waited, ms.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Proxied {
    /// The requests whose every try met a dead pod, or that hung.
    pub failures: Vec<Failure>,
    /// The slowest request that succeeded, ms.
    pub slow: Millis,
}

/// The endpoint a try at `at` picks: `Some` a pod whose machine is down, `None` one that answers.
/// With `avoid` (Envoy's `previous_hosts`) the endpoints of `tried` are left out while another
/// remains; the balancer's pick is otherwise uniform.
fn pick<'a>(seg: &'a Segment, tried: &[PodId], avoid: bool, at: Millis, rng: &mut Rng) -> Option<&'a Death> {
    let left_out = |d: &Death| avoid && tried.contains(&d.pod);
    let excluded = seg.mortal.iter().filter(|d| left_out(d)).count();
    let (excluded, avoid) = if excluded >= seg.size {
        (0, false)
    } else {
        (excluded, avoid)
    };
    let mut r = rng.below((seg.size - excluded) as u64) as usize;
    for d in &seg.mortal {
        if avoid && tried.contains(&d.pod) {
            continue;
        }
        if r == 0 {
            return Some(d).filter(|d| d.down_at(at));
        }
        r -= 1;
    }
    None
}

/// One try of a request at `at` to dead pod `d`: when it ends, by what, and after which event.
/// The first request to `d` after its death takes the proxy's kept-alive connection to it, if
/// one is still open, and waits there; a later one dials the pod's IP.
fn attempt(p: &ClientParams, d: &Death, at: Millis, kept: bool) -> (Millis, Mech) {
    if kept {
        let (mut until, mut mech) = rules::stuck_until(p, at, d.at.min(at));
        if let Some((b, _)) = d.back {
            let reset = rules::first_retransmission(at, rules::DATA_RTO, b);
            if reset < until {
                (until, mech) = (reset, Mech::Reset);
            }
        }
        return (until, mech);
    }
    let (done, mech, _) = walk::dial_end(d, at, rules::dial_budget(p));
    (done, mech)
}

/// Whether the proxy still holds an idle kept-alive connection to `d`'s pod at `at`: it used
/// each of `size` endpoints every `size × gap` ms before the death, and closes a connection idle
/// for `idleConnTimeout` or killed by TCP keepalive.
fn kept_alive(p: &ClientParams, d: &Death, at: Millis, size: usize, gap: f64) -> bool {
    let idle = p.idle_conn_timeout;
    let open = idle == 0 || ((size as f64 * gap) < idle as f64 && at - d.at < idle);
    open && rules::keepalive_dead_after(p).is_none_or(|after| at < d.at + after)
}

/// One request sent at `t`: `Ok` its latency when a try reached a live pod, `Err` its failure.
fn request(
    (p, x): (&ClientParams, &Proxy),
    segs: &[Segment],
    t: Millis,
    used: &mut Vec<PodId>,
    gap: f64,
    rng: &mut Rng,
) -> Result<Millis, Failure> {
    let mut now = t;
    let mut tried: Vec<PodId> = Vec::new();
    let mut first: Option<(Death, bool, (usize, usize))> = None;
    let mut ended = (t, Mech::NoEndpoints, None);
    for _ in 0..x.tries {
        let seg = &segs[history::in_force(segs, now)];
        if seg.size == 0 {
            break;
        }
        let Some(d) = pick(seg, &tried, x.other_host, now, rng) else {
            return Ok(now - t);
        };
        let kept = !used.contains(&d.pod) && kept_alive(p, d, now, seg.size, gap);
        if kept {
            used.push(d.pod);
        }
        first.get_or_insert((*d, kept, (seg.dead_at(now).count(), seg.size)));
        tried.push(d.pod);
        let (done, mech) = attempt(p, d, now, kept);
        // A dial ends after the change that took the pod out, a reset after its machine's
        // return; a hang after its own start.
        ended = match (mech, d.back) {
            (Mech::Reset, Some((_, id))) => (done, mech, Some(id)),
            _ if kept => (done, mech, None),
            _ => (done, mech, d.stopped),
        };
        now = done;
        // Envoy retries no hang (`connect-failure` is a dial's); nginx's `timeout` is any.
        if kept && !(x.retries_timeout && mech == Mech::RequestTimeout) {
            break;
        }
    }
    let Some((d, pinned, share)) = first else {
        return Ok(now - t);
    };
    let (last, mech, ended_by) = ended;
    Err(Failure {
        sent: t,
        first: last,
        last,
        last_sent: t,
        count: 1,
        latency: last - t,
        mech,
        start: if pinned { Start::Pinned } else { Start::Race },
        pod: Some(d.pod),
        cause: Some(d.fault),
        ended_by,
        share,
    })
}

/// A proxy's client over the run: request by request while a dead pod is among the proxy's
/// endpoints, refused at once (503) while it has none, skipped otherwise.
pub fn proxied(p: &ClientParams, x: &Proxy, segs: &[Segment], slots: &Slots, end: Millis, rng: &mut Rng) -> Proxied {
    let mut out = Proxied::default();
    let mut used: Vec<PodId> = Vec::new();
    let mut k = 0;
    loop {
        let t = slots.at(k);
        if t >= end {
            break;
        }
        let i = history::in_force(segs, t);
        let (seg, next) = (&segs[i], segs.get(i + 1));
        let b = next.map_or(end, |s| s.at.min(end));
        if seg.size == 0 {
            out.failures.extend(walk::refused(
                slots,
                (t, b),
                walk::emptied_by(segs, i),
                next.and_then(|s| s.by),
            ));
            k = slots.index_from(b).max(k + 1);
            continue;
        }
        if seg.dead_at(t).next().is_none() {
            // No dead pod among the endpoints: on to the next death or change.
            let cut = seg.cuts((t, b))[0];
            k = slots.index_from(cut).max(k + 1);
            continue;
        }
        match request((p, x), segs, t, &mut used, slots.gap, rng) {
            Ok(latency) => out.slow = out.slow.max(latency),
            Err(f) => out.failures.push(f),
        }
        k += 1;
    }
    out
}

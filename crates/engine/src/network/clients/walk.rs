//! One client's run: where its connections went and which of its requests failed, as a few
//! failures (one per connection, per doomed dial or per stretch of constant rules), never one
//! step per request.

use super::history::{self, Death, Segment};
use super::rules::{self, Mech, Slots};
use crate::api::PodId;
use crate::rng::Rng;
use crate::scenario::clients::ClientParams;
use crate::scenario::libraries::Style;
use crate::time::Millis;
use crate::timeline::EventId;

/// How an episode of errors began.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Start {
    /// A request went into a keep-alive connection conntrack pinned to a pod that died.
    Pinned,
    /// New connections raced the proxies' update: some went to a dead pod still in the rules.
    Race,
    /// The rules had no pod: kube-proxy's reject rule refused every dial.
    NoEndpoints,
    /// An external client's flows went through a load balancer to a target whose machine died.
    Blackholed,
}

/// Requests that failed alike: sent from `sent`, their errors returned from `first` to `last`.
#[derive(Debug, Clone, PartialEq)]
pub struct Failure {
    /// The first failing request's send time, ms.
    pub sent: Millis,
    /// The first error returned, ms.
    pub first: Millis,
    /// The last error returned, ms.
    pub last: Millis,
    /// The last failing request's send time, ms.
    pub last_sent: Millis,
    /// How many requests failed.
    pub count: u64,
    /// The longest a failing request waited, ms.
    pub latency: Millis,
    /// What ended the last one.
    pub mech: Mech,
    /// How it began.
    pub start: Start,
    /// The dead pod, where there is one.
    pub pod: Option<PodId>,
    /// The event that caused it (the fault, or the sync that emptied the rules).
    pub cause: Option<EventId>,
    /// The event that ended it, where one did (the sync that took the dead pod out of the rules
    /// or put a pod back in).
    pub ended_by: Option<EventId>,
    /// Dead pods and pods in the rules when it began.
    pub share: (usize, usize),
}

impl Failure {
    fn pinned(
        d: &Death,
        sent: Millis,
        (first, last): (Millis, Millis),
        count: u64,
        latency: Millis,
        mech: Mech,
    ) -> Failure {
        Failure {
            sent,
            first,
            last,
            last_sent: sent,
            count,
            latency,
            mech,
            start: Start::Pinned,
            pod: Some(d.pod),
            cause: Some(d.fault),
            ended_by: None,
            share: (1, 1),
        }
    }
}

/// A geometric draw: failures before the first success of chance `p`.
pub(super) fn geometric(rng: &mut Rng, p: f64) -> u64 {
    if p >= 1.0 {
        return 0;
    }
    let u = 1.0 - rng.unit();
    (u.ln() / (1.0 - p).ln()).floor().min(u64::MAX as f64 / 2.0) as u64
}

/// `x` rounded up with chance its fraction, down otherwise.
pub(super) fn stochastic_round(rng: &mut Rng, x: f64) -> u64 {
    let floor = x.floor();
    floor as u64 + u64::from(rng.unit() < x - floor)
}

/// Refused at once from `a` to `b`: the rules of `seg` have no pod.
#[inline(never)]
pub(super) fn refused(
    slots: &Slots,
    (a, b): (Millis, Millis),
    cause: Option<EventId>,
    ended_by: Option<EventId>,
) -> Option<Failure> {
    let (from, to) = slots.between(a, b);
    (to > from).then(|| Failure {
        sent: slots.at(from),
        first: slots.at(from),
        last: slots.at(to - 1),
        last_sent: slots.at(to - 1),
        count: to - from,
        latency: 0,
        mech: Mech::NoEndpoints,
        start: Start::NoEndpoints,
        pod: None,
        cause,
        ended_by,
        share: (0, 0),
    })
}

/// The fault behind a segment with no pod: the death of the pod whose removal emptied it.
pub(super) fn emptied_by(segs: &[Segment], i: usize) -> Option<EventId> {
    let by = segs[i].by;
    let prev = i.checked_sub(1).map(|j| &segs[j])?;
    prev.mortal
        .iter()
        .find(|d| d.stopped == by && by.is_some())
        .map(|d| d.fault)
        .or(by)
}

/// A client that keeps connections (a pool or one multiplexed connection): each connection is
/// pinned to the pod its first SYN reached, and hangs if that pod's machine dies.
pub fn connected(p: &ClientParams, segs: &[Segment], slots: &Slots, end: Millis, rng: &mut Rng) -> Vec<Failure> {
    let (budget, dial_mech) = rules::dial_budget(p);
    let mut out = Vec::new();
    let mut k = 0;
    loop {
        let t = slots.at(k);
        if t >= end {
            break;
        }
        let i = history::in_force(segs, t);
        let seg = &segs[i];
        if seg.size == 0 {
            let next = segs.get(i + 1);
            let b = next.map_or(end, |s| s.at.min(end));
            out.extend(refused(slots, (t, b), emptied_by(segs, i), next.and_then(|s| s.by)));
            k = slots.index_from(b).max(k + 1);
            continue;
        }
        let pick = rng.below(seg.size as u64) as usize;
        match seg.mortal.get(pick) {
            Some(d) if d.down_at(t) => {
                // The SYN goes to a dead pod; its retransmissions keep the conntrack entry.
                let (done, mech, ended_by) = dial_end(d, t, (budget, dial_mech));
                let (count, next) = match p.style {
                    Style::Multiplexed => {
                        let (a, b) = slots.between(t, done);
                        (b - a, b)
                    }
                    _ => (1, k + 1),
                };
                out.push(Failure {
                    sent: t,
                    first: done,
                    last: done,
                    last_sent: slots.at(next - 1),
                    count,
                    latency: done - t,
                    mech,
                    start: Start::Race,
                    pod: Some(d.pod),
                    cause: Some(d.fault),
                    ended_by,
                    share: (seg.dead_at(t).count(), seg.size),
                });
                k = next;
            }
            Some(d) if d.at > t && d.at < end => match trapped(p, d, slots, k, end) {
                Some((f, next)) => {
                    out.extend(f);
                    k = next;
                }
                None => break,
            },
            _ => break,
        }
    }
    out
}

/// When a dial sent at `t` to `d`'s dead pod ends, by what, and after which event: its budget, or
/// the reset its machine answers a SYN with once it is back.
#[inline(never)]
pub(super) fn dial_end(d: &Death, t: Millis, (budget, mech): (Millis, Mech)) -> (Millis, Mech, Option<EventId>) {
    match d.back {
        Some((b, id)) if b < t + budget => {
            let reset = rules::first_retransmission(t, rules::SYN_RTO, b).min(t + budget);
            (reset, Mech::Reset, Some(id))
        }
        _ => (t + budget, mech, d.stopped),
    }
}

/// A connection opened at slot `k` to `d`'s pod, which dies later: the requests written into it
/// after the death, and the slot from which the client dials again. `None`: the run ends first.
fn trapped(p: &ClientParams, d: &Death, slots: &Slots, k: u64, end: Millis) -> Option<(Option<Failure>, u64)> {
    let sk = slots.index_from(d.at).max(k + 1);
    let s = slots.at(sk);
    if s >= end {
        return None;
    }
    let last_rx = slots.at(sk - 1);
    // An idle pool connection closed by the pool, or killed by TCP keepalive, fails no request.
    let idle_closed = p.style == Style::Pool && p.idle_conn_timeout > 0 && s - last_rx >= p.idle_conn_timeout;
    let keepalive_killed =
        p.style != Style::Multiplexed && rules::keepalive_dead_after(p).is_some_and(|after| s >= last_rx + after);
    if idle_closed || keepalive_killed {
        return Some((None, sk));
    }
    let (mut until, mut mech) = rules::stuck_until(p, s, last_rx);
    let mut reset_by = None;
    if let Some((b, id)) = d.back {
        let reset = rules::first_retransmission(s, rules::DATA_RTO, b);
        if reset < until {
            (until, mech, reset_by) = (reset, Mech::Reset, Some(id));
        }
    }
    if p.style != Style::Multiplexed {
        let mut f = Failure::pinned(d, s, (until, until), 1, until - s, mech);
        f.ended_by = reset_by;
        return Some((Some(f), sk + 1));
    }
    // Every RPC rides the one connection until it dies; a deadline fails each on its own.
    let (a, b) = slots.between(s, until);
    let last_sent = slots.at(b - 1);
    let rt = p.request_timeout;
    let ends = |at: Millis| if rt > 0 { (at + rt).min(until) } else { until };
    let last = ends(last_sent);
    let mech = if rt > 0 && last < until {
        Mech::RequestTimeout
    } else {
        mech
    };
    let mut f = Failure::pinned(d, s, (ends(s), last), b - a, ends(s) - s, mech);
    f.last_sent = last_sent;
    f.ended_by = reset_by;
    Some((Some(f), slots.index_from(until).max(b)))
}

/// A client that dials for every request: per stretch of constant rules, the share of dials that
/// reach a dead pod fail, drawn as the first and last doomed request and a count between.
pub fn per_request(p: &ClientParams, segs: &[Segment], slots: &Slots, end: Millis, rng: &mut Rng) -> Vec<Failure> {
    let (budget, mech) = rules::dial_budget(p);
    let mut out = Vec::new();
    for (i, seg) in segs.iter().enumerate() {
        let next = segs.get(i + 1);
        let (a, b) = (seg.at.max(0), next.map_or(end, |s| s.at).min(end));
        if a >= b {
            continue;
        }
        if seg.size == 0 {
            out.extend(refused(slots, (a, b), emptied_by(segs, i), next.and_then(|s| s.by)));
            continue;
        }
        // Deaths inside the stretch split it: the share of dead pods changes there.
        let mut x = a;
        for y in seg.cuts((a, b)) {
            let dead: Vec<&Death> = seg.dead_at(x).collect();
            let ended_by = if y == b { next.and_then(|s| s.by) } else { None };
            if let Some(f) = doomed(slots, (x, y), (&dead, seg.size), (budget, mech), ended_by, rng) {
                out.push(f);
            }
            x = y;
        }
    }
    out
}

/// The doomed dials among the requests in `[x, y)`, with `dead` of `size` pods in the rules.
fn doomed(
    slots: &Slots,
    (x, y): (Millis, Millis),
    (dead, size): (&[&Death], usize),
    (budget, mech): (Millis, Mech),
    ended_by: Option<EventId>,
    rng: &mut Rng,
) -> Option<Failure> {
    let first_dead = dead.first()?;
    let (from, to) = slots.between(x, y);
    let m = to - from;
    let chance = dead.len() as f64 / size as f64;
    let i1 = geometric(rng, chance);
    if m == 0 || i1 >= m {
        return None;
    }
    let back = geometric(rng, chance).min(m - 1 - i1);
    let i2 = m - 1 - back;
    let count = if i2 > i1 {
        2 + stochastic_round(rng, (i2 - i1 - 1) as f64 * chance)
    } else {
        1
    };
    let (sent, last_sent) = (slots.at(from + i1), slots.at(from + i2));
    // A machine back mid-stretch resets later dials sooner than earlier ones end.
    let early = dial_end(first_dead, sent, (budget, mech));
    let late = dial_end(first_dead, last_sent, (budget, mech));
    let (last, mech, reset_by) = if late.0 >= early.0 { late } else { early };
    Some(Failure {
        sent,
        first: early.0.min(late.0),
        last,
        last_sent,
        count,
        latency: (early.0 - sent).max(late.0 - last_sent),
        mech,
        start: Start::Race,
        pod: Some(first_dead.pod),
        cause: Some(first_dead.fault),
        ended_by: if mech == Mech::Reset { reset_by } else { ended_by },
        share: (dead.len(), size),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Stream;

    #[test]
    fn geometric_draws_average_their_mean() {
        let mut rng = Rng::stream(3, Stream::Client(0));
        let n = 20_000;
        let mean = (0..n).map(|_| geometric(&mut rng, 0.25)).sum::<u64>() as f64 / n as f64;
        assert!((mean - 3.0).abs() < 0.15, "mean {mean}");
        assert_eq!(geometric(&mut rng, 1.0), 0);
    }

    #[test]
    fn with_no_pod_in_the_rules_every_request_is_refused_at_once() {
        let slots = Slots::new(10.0, 0.0);
        let f = refused(&slots, (1_000, 3_000), Some(4), Some(9)).expect("requests in the window");
        assert_eq!((f.count, f.first, f.last, f.latency), (20, 1_000, 2_900, 0));
        assert_eq!((f.mech, f.cause, f.ended_by), (Mech::NoEndpoints, Some(4), Some(9)));
    }
}

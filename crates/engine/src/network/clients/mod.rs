//! The clients of the Services: what their requests met after a node died (the spec's §1, §2).
//!
//! A client only observes. It writes nothing to the API and changes no other event, so it is read
//! off the finished run: kube-proxy's rules over time (`TrafficStopped`, `TrafficStarted`), the
//! pods whose machine died silently, and the scenario's clients. A keep-alive connection keeps
//! the pod its first SYN reached (conntrack), whatever the proxies do later; a request written
//! into it after the pod's machine died hangs until a timeout, `TCP_USER_TIMEOUT`, gRPC's
//! keepalive or `tcp_retries2` ends it ([`rules`]). A new dial while the rules still hold a dead
//! pod reaches it with the dead pods' share; one with no pod in the rules is refused at once.
//! Without clients nothing here runs.

mod dns;
mod events;

pub use dns::lookup_rule;
pub mod history;
pub mod lb;
mod lb_flows;
mod proxy;
pub mod rules;
mod walk;

use crate::api::Api;
use crate::network::kube_proxy::KubeProxy;
use crate::network::ClientSummary;
use crate::rng::{Rng, Stream};
use crate::scenario::clients::ClientSpec;
use crate::scenario::libraries::{self, Style};
use crate::scenario::Config;
use crate::time::Millis;
use crate::timeline::{Event, EventKind};

/// What the clients saw: their events (each with, for an `Ended`, the index of its `Started`
/// among them) and their summaries.
#[derive(Debug, Clone, Default)]
pub struct Observed {
    /// The events to add to the log.
    pub events: Vec<(Event, Option<usize>)>,
    /// One per client.
    pub summaries: Vec<ClientSummary>,
}

/// The run's events with the clients' merged in, and the clients' summaries (none without
/// clients).
pub fn observed(cfg: &Config, log: Vec<Event>, api: &Api, proxy: &KubeProxy) -> (Vec<Event>, Vec<ClientSummary>) {
    match observe(cfg, &log, api, proxy) {
        Some(o) => (merge(log, o.events), o.summaries),
        None => (log, Vec::new()),
    }
}

/// Reads the clients' and the load balancers' experience off a finished run; `None` without
/// either.
#[inline(never)]
pub fn observe(cfg: &Config, log: &[Event], api: &Api, kube_proxy: &KubeProxy) -> Option<Observed> {
    let balanced = cfg.workloads.iter().any(|w| w.load_balancer.is_some());
    if cfg.clients.is_empty() && !balanced {
        return None;
    }
    let machines = history::machines(log);
    let balancers = lb::balancers(cfg, log, api, &machines);
    let mut out = Observed::default();
    lb::events(cfg, log, api, &balancers, &mut out.events);
    let stopped = node_faults(log, api.nodes.len());
    let mut seen = Seen {
        run: Run {
            cfg,
            log,
            api,
            kube_proxy,
            machines,
        },
        segments: cfg.workloads.iter().map(|_| None).collect(),
        slices: cfg.workloads.iter().map(|_| None).collect(),
        flows: cfg.workloads.iter().map(|_| None).collect(),
    };
    for (i, c) in cfg.clients.iter().enumerate() {
        let end = c
            .from
            .and_then(|n| stopped[n])
            .map_or(cfg.duration, |t| t.min(cfg.duration));
        let mut rng = Rng::stream(cfg.seed, Stream::Client(i));
        let slots = rules::Slots::new(c.rate, rng.unit());
        let balancer = balancers
            .iter()
            .find(|b| b.service == c.service)
            .filter(|_| c.from.is_none());
        let (failures, slow) = seen.failures(c, balancer, &slots, end, &mut rng);
        let (from, to) = slots.between(0, end);
        let mut summary = ClientSummary {
            name: c.name.clone(),
            requests: to - from,
            failed: 0,
            first_error_ms: None,
            last_error_ms: None,
            worst_latency_ms: 0,
        };
        for f in &failures {
            summary.failed += f.count;
            if f.first <= cfg.duration {
                summary.first_error_ms = Some(summary.first_error_ms.map_or(f.first, |t| t.min(f.first)));
            }
            summary.worst_latency_ms = summary.worst_latency_ms.max(f.latency);
        }
        summary.worst_latency_ms = summary.worst_latency_ms.max(slow);
        summary.failed = summary.failed.min(summary.requests);
        summary.last_error_ms = events::episodes(cfg, i, api, log, &failures, &mut out.events);
        out.summaries.push(summary);
    }
    Some(out)
}

/// The finished run a client is read off.
struct Run<'a> {
    cfg: &'a Config,
    log: &'a [Event],
    api: &'a Api,
    kube_proxy: &'a KubeProxy,
    machines: history::Machines,
}

/// The run, and per Service what the clients read off it so far: kube-proxy's rules over the
/// run, the EndpointSlice's ready endpoints and the load balancer's flows, each built once a
/// client needs it.
struct Seen<'a> {
    run: Run<'a>,
    segments: Vec<Option<Vec<history::Segment>>>,
    slices: Vec<Option<history::Changes>>,
    flows: Vec<Option<lb_flows::Flows>>,
}

impl Seen<'_> {
    /// Client `c`'s failed requests, and the longest wait of those that succeeded late (a
    /// proxy's retries), ms: through the load balancer when it calls from outside, else by its
    /// resolver or its library.
    fn failures(
        &mut self,
        c: &ClientSpec,
        balancer: Option<&lb::Balancer>,
        slots: &rules::Slots,
        end: Millis,
        rng: &mut Rng,
    ) -> (Vec<walk::Failure>, Millis) {
        let Run {
            cfg,
            log,
            api,
            kube_proxy,
            ..
        } = self.run;
        let machines = &self.run.machines;
        let w = c.service;
        let proxy = libraries::by_name(&c.library).and_then(|l| l.proxy);
        if (c.params.style != Style::Proxy || balancer.is_some()) && self.segments[w].is_none() {
            self.segments[w] = Some(history::segments(log, api, machines, kube_proxy.programmed(w), w));
        }
        let rules = self.segments[w].as_deref().unwrap_or(&[]);
        match (c.dns, c.params.style, proxy, balancer) {
            (None, _, _, Some(b)) => {
                let flows = self.flows[w].get_or_insert_with(|| {
                    let joined = lb_flows::joined(log, api, machines, kube_proxy.programmed(w), b);
                    lb_flows::external_segments(cfg, api, b, rules, &joined)
                });
                (lb_flows::external(api, b, &c.params, flows, slots, end, rng), 0)
            }
            (Some(dns), ..) => {
                let setup = dns::Setup::of_minor(cfg.profile.version.minor);
                (dns::lookups(&dns, rules, slots, end, setup, rng), 0)
            }
            (None, Style::Proxy, Some(x), None) => {
                let changes = self.slices[w].get_or_insert_with(|| history::slice_changes(log, api, w));
                let spread = |rng: &mut Rng| {
                    x.spread
                        .iter()
                        .map(|&s| rng.below(s as u64 + 1) as Millis)
                        .sum::<Millis>()
                };
                let changes = changes.delayed(|| x.delay + spread(rng));
                let segs = history::build(&changes, api, machines);
                let o = proxy::proxied(&c.params, &x, &segs, slots, end, rng);
                (o.failures, o.slow)
            }
            (None, Style::PerRequest, ..) => (walk::per_request(&c.params, rules, slots, end, rng), 0),
            (None, ..) => (walk::connected(&c.params, rules, slots, end, rng), 0),
        }
    }
}

/// When each of the `nodes` nodes first stopped, ms, by node: a crash or a power-off on it, not
/// a kubelet stop or a partition. One pass over the log, whatever the number of clients.
fn node_faults(log: &[Event], nodes: usize) -> Vec<Option<Millis>> {
    let mut stopped: Vec<Option<Millis>> = vec![None; nodes];
    for e in log {
        if !matches!(e.kind, EventKind::FaultStarted | EventKind::NodePoweredOff)
            || matches!(e.cause.key, "cause.fault.kubelet_stop" | "cause.fault.partition")
        {
            continue;
        }
        if let Some(slot @ None) = e.node.map(|n| &mut stopped[n]) {
            *slot = Some(e.at);
        }
    }
    stopped
}

/// The indices of `times` in time order, equal times in theirs: one sort for the episodes and
/// the merge.
fn in_time_order(times: Vec<Millis>) -> Vec<usize> {
    let mut order: Vec<usize> = (0..times.len()).collect();
    crate::order::sort_by_key(&mut order, |&i| times[i]);
    order
}

/// The run's events with the clients' added, each at its time after those already there, and
/// every `after` renumbered: an added event's names the run's events by their old ids, or its
/// `Started` among the added.
#[inline(never)]
pub fn merge(log: Vec<Event>, added: Vec<(Event, Option<usize>)>) -> Vec<Event> {
    let order = in_time_order(added.iter().map(|a| a.0.at).collect());
    let mut slots: Vec<Option<(Event, Option<usize>)>> = added.into_iter().map(Some).collect();
    let mut out = Vec::with_capacity(log.len() + slots.len());
    let mut old_ids = Vec::with_capacity(log.len());
    // Per added event (by its index in `added`): where it went, and its `Started`.
    let mut placed: Vec<(usize, Option<usize>)> = vec![(0, None); slots.len()];
    let mut next = order.into_iter().peekable();
    let mut log = log.into_iter().peekable();
    loop {
        let take_added = match (log.peek(), next.peek()) {
            (Some(e), Some(&i)) => slots[i].as_ref().is_some_and(|a| a.0.at < e.at),
            (None, Some(_)) => true,
            (_, None) => false,
        };
        if take_added {
            let i = next.next().expect("peeked");
            let (e, started) = slots[i].take().expect("placed once");
            placed[i] = (out.len(), started);
            out.push(e);
        } else if let Some(e) = log.next() {
            old_ids.push(out.len());
            out.push(e);
        } else {
            break;
        }
    }
    let mut is_added = vec![false; out.len()];
    for &(at, _) in &placed {
        is_added[at] = true;
    }
    for (e, added) in out.iter_mut().zip(&is_added) {
        if !added {
            e.after = e.after.map(|a| old_ids[a]);
        }
    }
    for &(at, started) in &placed {
        out[at].after = match started {
            Some(s) => Some(placed[s].0),
            None => out[at].after.map(|a| old_ids[a]),
        };
    }
    out
}

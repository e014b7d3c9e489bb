//! A client's failures as episodes: `ClientErrorsStarted` when the first failing request is sent,
//! `ClientErrorsEnded` when the last error of the episode returns, each with a cause that names
//! the mechanism and the run's numbers.

use super::dns::{DNS_ATTEMPTS, DNS_TIMEOUT};
use super::rules::Mech;
use super::walk::{Failure, Start};
use crate::api::Api;
use crate::cause::{Arg, Cause};
use crate::scenario::clients::ClientSpec;
use crate::scenario::libraries::{self, Knob, Style, GRPC_KEEPALIVE_TIMEOUT, RETRIES2_BUDGET, SYN_BUDGET};
use crate::scenario::load_balancers::{ALB_CONNECT_TIMEOUT, ALB_IDLE_TIMEOUT};
use crate::scenario::Config;
use crate::time::Millis;
use crate::timeline::{Event, EventKind};

/// Adds client `i`'s episodes to `out`; returns its last error within the run.
pub fn episodes(
    cfg: &Config,
    i: usize,
    api: &Api,
    log: &[Event],
    failures: &[Failure],
    out: &mut Vec<(Event, Option<usize>)>,
) -> Option<Millis> {
    let c = &cfg.clients[i];
    let order = super::in_time_order(failures.iter().map(|f| f.sent).collect());
    let sorted: Vec<&Failure> = order.into_iter().map(|k| &failures[k]).collect();
    let mut last_error = None;
    let mut k = 0;
    while k < sorted.len() {
        let from = k;
        let first = sorted[k];
        let mut last = first;
        k += 1;
        while k < sorted.len() && sorted[k].sent <= last.last {
            if sorted[k].last > last.last {
                last = sorted[k];
            }
            k += 1;
        }
        let started = out.len();
        let cause = started_cause(c, api, cfg, first);
        let mut e = event(c, api, first, first.sent, EventKind::ClientErrorsStarted, cause);
        e.after = first.cause;
        out.push((e, None));
        if last.last > cfg.duration {
            // The episode outlasts the run: its end is not seen, only the errors before it.
            let seen = sorted[from..k].iter().flat_map(|f| [f.first, f.last]);
            last_error = last_error.max(seen.filter(|&t| t <= cfg.duration).max());
            continue;
        }
        last_error = Some(last.last);
        // A window without endpoints ends when a sync puts a pod back in the rules: the next
        // request succeeds. A race ends with its last doomed dial, after the sync that took the
        // dead pod out of the rules; a reset, after the machine came back.
        let by = last.ended_by.and_then(|id| Some((id, log.get(id)?.at)));
        let (at, by) = match (last.start, by) {
            (Start::NoEndpoints, Some((id, t))) if t >= last.last => (t, Some((id, t))),
            (Start::Race | Start::Pinned | Start::Blackholed, Some((id, t))) if t <= last.last => {
                (last.last, Some((id, t)))
            }
            _ => (last.last, None),
        };
        let cause = ended_cause(cfg, c, api, last, by.map(|b| b.1));
        let mut e = event(c, api, last, at, EventKind::ClientErrorsEnded, cause);
        let by = by.map(|b| b.0);
        match by {
            Some(id) => {
                e.after = Some(id);
                out.push((e, None));
            }
            None => out.push((e, Some(started))),
        }
    }
    last_error
}

fn event(c: &ClientSpec, api: &Api, f: &Failure, at: Millis, kind: EventKind, cause: Cause) -> Event {
    let mut e = Event::new(at, kind, cause);
    e.pod = f.pod.filter(|&p| p < api.pods.len());
    e.service = Some(c.service);
    e.client = Some(c.name.clone());
    e
}

/// The failure's backend: its pod, or the dead node a load balancer sent it to.
fn pod_name(cfg: &Config, api: &Api, f: &Failure) -> String {
    match f.pod {
        Some(p) if p < api.pods.len() => api.pods[p].name.clone(),
        Some(p) => cfg
            .nodes
            .get(p - api.pods.len())
            .map(|n| n.name.clone())
            .unwrap_or_default(),
        None => String::new(),
    }
}

/// The load balancer of `c`'s Service, by its JSON name.
fn lb_name(cfg: &Config, c: &ClientSpec) -> &'static str {
    cfg.workloads[c.service].load_balancer.map_or("", |l| l.kind.name())
}

/// A cause's text argument. The causes here list their arguments as values, which takes less
/// code than one builder call each.
fn text(name: &'static str, value: &str) -> (&'static str, Arg) {
    (name, Arg::Text(value.to_string()))
}

/// A cause's time or span argument, ms.
fn time(name: &'static str, ms: Millis) -> (&'static str, Arg) {
    (name, Arg::Time(ms))
}

fn started_cause(c: &ClientSpec, api: &Api, cfg: &Config, f: &Failure) -> Cause {
    let (client, pod) = (text("client", &c.name), text("pod", &pod_name(cfg, api, f)));
    let share = format!("{}/{}", f.share.0, f.share.1);
    let (key, args) = match (f.start, c.dns.is_some()) {
        (Start::NoEndpoints, true) => ("cause.client.dns_started_no_endpoints", vec![client]),
        (_, true) => ("cause.client.dns_started", vec![client, pod, text("share", &share)]),
        // A proxy called from outside goes through the load balancer, whose causes are the TCP
        // clients'.
        (start, false) if c.params.style == Style::Proxy && c.from.is_some() => {
            started_proxy(c, cfg, (start, f.sent), client, pod, &share)
        }
        (start, false) => started_tcp(c, cfg, (start, f.sent), client, pod, &share),
    };
    Cause { key, args }
}

type Args = Vec<(&'static str, Arg)>;

fn started_tcp(
    c: &ClientSpec,
    cfg: &Config,
    (start, sent): (Start, Millis),
    client: (&'static str, Arg),
    pod: (&'static str, Arg),
    share: &str,
) -> (&'static str, Args) {
    match start {
        Start::Pinned => ("cause.client.started_pinned", vec![client, pod, time("since", sent)]),
        Start::Race => ("cause.client.started_race", vec![client, pod, text("share", share)]),
        Start::NoEndpoints => {
            let target = cfg.workloads[c.service].service_name();
            ("cause.client.started_no_endpoints", vec![text("target", target)])
        }
        Start::Blackholed => (
            "cause.lb.started_blackholed",
            vec![client, text("lb", lb_name(cfg, c)), pod, text("share", share)],
        ),
    }
}

/// How a proxy's episode began: its kept-alive connection to a dead pod, its endpoints holding a
/// dead pod, or none.
fn started_proxy(
    c: &ClientSpec,
    cfg: &Config,
    (start, sent): (Start, Millis),
    client: (&'static str, Arg),
    pod: (&'static str, Arg),
    share: &str,
) -> (&'static str, Args) {
    let library = text("library", &c.library);
    match start {
        Start::Pinned => (
            "cause.client.proxy_started_pinned",
            vec![client, library, pod, time("since", sent)],
        ),
        Start::Race => (
            "cause.client.proxy_started_race",
            vec![client, library, pod, text("share", share)],
        ),
        Start::NoEndpoints => {
            let target = cfg.workloads[c.service].service_name();
            (
                "cause.client.proxy_started_no_endpoints",
                vec![text("target", target), library],
            )
        }
        // Through a load balancer, which a proxy never calls from (`client_rules`).
        Start::Blackholed => started_tcp(c, cfg, (start, sent), client, pod, share),
    }
}

/// The cause of a proxy's episode's end, where it differs from a client's own: every try met a
/// dead pod, or the proxy answered 503 with no endpoint. `None`: as a client's own.
fn ended_proxy(cfg: &Config, c: &ClientSpec, api: &Api, f: &Failure) -> Option<Cause> {
    let x = libraries::by_name(&c.library)?.proxy?;
    let p = &c.params;
    let (pod, library, at) = (
        text("pod", &pod_name(cfg, api, f)),
        text("library", &c.library),
        time("at", f.last_sent),
    );
    let tries = |n: u32| text("tries", &n.to_string());
    let (key, args) = match f.mech {
        Mech::Retries2 => (
            "cause.client.proxy_retries2",
            vec![at, pod, library, time("budget", RETRIES2_BUDGET)],
        ),
        Mech::RequestTimeout => {
            let setting = text("setting", libraries::message_name(&c.library, Knob::RequestTimeout));
            let n = if x.retries_timeout { x.tries } else { 1 };
            let args = vec![library, time("timeout", p.request_timeout), setting, pod, at, tries(n)];
            ("cause.client.proxy_read_timeout", args)
        }
        Mech::ConnectTimeout | Mech::SynRetries => {
            let (timeout, setting) = match f.mech {
                Mech::ConnectTimeout => (
                    p.connect_timeout,
                    libraries::message_name(&c.library, Knob::ConnectTimeout),
                ),
                _ => (SYN_BUDGET, "tcp_syn_retries = 6"),
            };
            let args = vec![
                at,
                pod,
                library,
                time("timeout", timeout),
                text("setting", setting),
                tries(x.tries),
            ];
            ("cause.client.proxy_connect_timeout", args)
        }
        Mech::NoEndpoints => (
            "cause.client.proxy_no_endpoints",
            vec![library, text("count", &f.count.to_string())],
        ),
        _ => return None,
    };
    Some(Cause { key, args })
}

/// The cause of an episode's end; `by_at`: when the event that ended it happened.
fn ended_cause(cfg: &Config, c: &ClientSpec, api: &Api, f: &Failure, by_at: Option<Millis>) -> Cause {
    if c.params.style == Style::Proxy && c.from.is_some() {
        if let Some(cause) = ended_proxy(cfg, c, api, f) {
            return cause;
        }
    }
    let p = &c.params;
    let pod = || text("pod", &pod_name(cfg, api, f));
    let library = || text("library", &c.library);
    let setting = |k| text("setting", libraries::message_name(&c.library, k));
    let at = time("at", f.last_sent);
    let args = match f.mech {
        Mech::Retries2 => vec![at, pod(), time("budget", RETRIES2_BUDGET)],
        Mech::UserTimeout => vec![
            time("timeout", p.tcp_user_timeout),
            setting(Knob::TcpUserTimeout),
            pod(),
            at,
        ],
        Mech::RequestTimeout => vec![
            library(),
            time("timeout", p.request_timeout),
            setting(Knob::RequestTimeout),
            at,
            pod(),
        ],
        Mech::GrpcKeepalive => {
            let timeout = if p.tcp_user_timeout > 0 {
                p.tcp_user_timeout
            } else {
                GRPC_KEEPALIVE_TIMEOUT
            };
            vec![time("time", p.keepalive_time), time("timeout", timeout), pod()]
        }
        Mech::ConnectTimeout => vec![
            at,
            pod(),
            library(),
            time("timeout", p.connect_timeout),
            setting(Knob::ConnectTimeout),
        ],
        Mech::SynRetries => vec![at, pod(), time("budget", SYN_BUDGET)],
        Mech::NoEndpoints => vec![text("count", &f.count.to_string())],
        Mech::Reset => vec![pod(), time("back", by_at.unwrap_or(f.last)), time("at", f.last)],
        Mech::DnsTimeout(r) => vec![
            at,
            pod(),
            time("timeout", DNS_TIMEOUT),
            text("attempts", &DNS_ATTEMPTS.to_string()),
            time("resend", DNS_TIMEOUT / DNS_ATTEMPTS),
            time("latency", f.last - f.last_sent),
            text("resolver", r.name()),
        ],
        Mech::LbReset => {
            let lb = cfg.workloads[c.service].load_balancer.map(|l| l.profile());
            vec![
                text("lb", lb_name(cfg, c)),
                pod(),
                time("at", f.last),
                text("count", &lb.map_or(0, |l| l.unhealthy).to_string()),
                time("interval", lb.map_or(0, |l| l.interval)),
            ]
        }
        Mech::Alb504 => vec![pod(), time("timeout", ALB_CONNECT_TIMEOUT), at],
        Mech::AlbIdle504 => vec![
            pod(),
            time("at", f.sent),
            time("timeout", ALB_IDLE_TIMEOUT),
            time("end", f.sent + ALB_IDLE_TIMEOUT),
        ],
        Mech::DnsRefused(r) => vec![
            text("count", &f.count.to_string()),
            time("timeout", DNS_TIMEOUT),
            text("resolver", r.name()),
        ],
    };
    Cause {
        key: f.mech.key(),
        args,
    }
}

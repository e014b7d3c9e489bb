//! What to change in a client to cut its errors after the fault, and by how much: for each
//! client whose requests failed or hung after the fault, the one setting of its library (or the
//! cluster's DNS) that ends what kept its last errors going, in the library's own words, and the
//! client's errors' end before and after, measured by running the same configuration and seed
//! again with that change.
//!
//! The mechanism is read off the run, never assumed: the causes of the client's last episode of
//! errors (`ClientErrorsStarted`, `ClientErrorsEnded`) say whether its requests waited on a
//! connection to a dead peer (a keep-alive connection conntrack pinned, gRPC's one connection, a
//! flow through a load balancer, a proxy's kept-alive upstream), waited while an ALB held them,
//! dialled a dead peer, or looked names up at a dead CoreDNS pod. Each has its change:
//! - a request hung on a connection: the library's request timeout (go-http's
//!   `http.Client.Timeout`, java-httpclient's `HttpRequest.Builder.timeout`, OkHttp's
//!   `readTimeout`, Istio's VirtualService `timeout` for Envoy, ingress-nginx's
//!   `proxy-read-timeout`), [`REQUEST_TIMEOUT`]; grpc-go's keepalive `Time`, [`KEEPALIVE_TIME`],
//!   which also sets `TCP_USER_TIMEOUT` to its `Timeout`; a bare socket's `TCP_USER_TIMEOUT`,
//!   [`USER_TIMEOUT`]. Envoy's outlier detection is no setting of the engine's, so Envoy is
//!   advised its route timeout (Istio's VirtualService `timeout`), which the run can measure.
//! - a request an ALB held for a dead target: the client's request timeout, whatever its
//!   library (its connection to the ALB lives).
//! - a dial to a dead peer: the library's connect timeout, [`CONNECT_TIMEOUT`] (the engine's
//!   dials end by the connect or request timeout or the SYN budget, not `TCP_USER_TIMEOUT`).
//! - lookups at a dead CoreDNS pod: NodeLocal DNSCache (the resolvers' `timeout` and `attempts`
//!   are the kubelet's resolv.conf defaults, which the scenario does not set).
//!
//! A load balancer's health checks are fixed by its kind in the engine, so a client behind one
//! is advised its own timeout, which the run measures; no change is named without its number.
//! A change is offered only when it cuts: the errors end at least [`MIN_CUT`] sooner after it
//! than before (or end within the run where they outlasted it).

use crate::cause::{Arg, Cause};
use crate::milestones::{client_errors_ended, fault_at};
use crate::outcome::{Outcome, RunOptions};
use crate::scenario::clients::ClientSpec;
use crate::scenario::libraries::{self, Knob, Library, Style};
use crate::scenario::{with_override, Config, DnsSection, GoDuration, Scenario};
use crate::time::{Millis, SECOND};
use crate::timeline::EventKind;
use serde::{Deserialize, Serialize};

/// The most clients advised at once: each costs one more run of the scenario (lookups share
/// theirs), so a scenario with more clients with errors gets advice on the eight whose errors
/// lasted longest.
pub const MAX_ADVISED: usize = 8;
/// The least a change must end the errors sooner by to be offered: 1 s, so that no advice
/// moves an end by a request's gap.
pub const MIN_CUT: Millis = SECOND;
/// The request timeout advised: 10 s, the `go-client-timeout` preset's `http.Client.Timeout`,
/// and OkHttp's own `readTimeout`.
pub const REQUEST_TIMEOUT: Millis = 10 * SECOND;
/// grpc-go's keepalive `Time` advised: 10 s, the least it takes ("If set below 10s, a minimum
/// value of 10s will be used", `keepalive.ClientParameters`).
pub const KEEPALIVE_TIME: Millis = 10 * SECOND;
/// `TCP_USER_TIMEOUT` advised for a bare socket: 10 s.
pub const USER_TIMEOUT: Millis = 10 * SECOND;
/// The connect timeout advised: 5 s, Envoy's own `connect_timeout` and ingress-nginx's
/// `proxy-connect-timeout`.
pub const CONNECT_TIMEOUT: Millis = 5 * SECOND;

/// One client's advice: the change, in its library's words, and when its errors ended after the
/// fault, before and after it. In JSON its message is `{"key", "text"}`; between the page's
/// workers (bincode) it keeps its arguments, and it reads back only from that form
/// ([`crate::wire::message`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ClientFix {
    /// The client's name.
    pub client: String,
    /// The change as a message (`advice.client.set`: the library's name for the setting and the
    /// value as a Go duration).
    #[serde(with = "crate::wire::message")]
    pub advice: Cause,
    /// When the client's errors ended, from the fault, ms (`milestones::client_errors_ended`);
    /// `None`: they outlasted the run.
    #[serde(rename = "beforeMs")]
    pub before: Option<Millis>,
    /// The same with the change; 0: no error after the fault.
    #[serde(rename = "afterMs")]
    pub after: Option<Millis>,
    /// The change as data, for a page or a script to apply.
    pub change: Change,
}

/// A change of the scenario.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Change {
    /// The scenario's client `client` (its index in `clients`) sets the override `knob` (its
    /// JSON name) to `ms` (a count for `keepaliveProbes`).
    #[serde(rename_all = "camelCase")]
    Override {
        /// The client's index.
        client: usize,
        /// The override.
        knob: Knob,
        /// Its value, ms.
        ms: Millis,
    },
    /// NodeLocal DNSCache on every node: `dns.nodeLocalDnsCache: true`.
    NodeLocalDnsCache,
}

impl Change {
    /// The scenario's field it sets, as the scenario's messages name fields:
    /// `clients[0].requestTimeout`, `dns.nodeLocalDnsCache`.
    pub fn field(&self) -> String {
        match self {
            Change::Override { client, knob, .. } => format!("clients[{client}].{}", knob.json()),
            Change::NodeLocalDnsCache => "dns.nodeLocalDnsCache".to_string(),
        }
    }

    /// Applies it to a resolved configuration as resolving the scenario with it would
    /// ([`with_override`]); `false` (and `cfg` unchanged) where it does not apply.
    pub fn apply(&self, cfg: &mut Config) -> bool {
        match self {
            Change::Override { client, knob, ms } => {
                let Some(c) = cfg.clients.get_mut(*client) else {
                    return false;
                };
                match with_override(c, *knob, *ms) {
                    Some(p) => c.params = p,
                    None => return false,
                }
            }
            Change::NodeLocalDnsCache => {
                let Some(dns) = cfg.dns.as_mut() else {
                    return false;
                };
                dns.node_local = true;
                for d in cfg.clients.iter_mut().filter_map(|c| c.dns.as_mut()) {
                    d.node_local = true;
                }
            }
        }
        true
    }

    /// Writes it into a scenario as a user would; `false` where the scenario has no such client.
    pub fn apply_to_scenario(&self, s: &mut Scenario) -> bool {
        match self {
            Change::Override { client, knob, ms } => {
                let Some(c) = s.clients.get_mut(*client) else {
                    return false;
                };
                let d = Some(GoDuration(*ms));
                match knob {
                    Knob::ConnectTimeout => c.connect_timeout = d,
                    Knob::RequestTimeout => c.request_timeout = d,
                    Knob::KeepaliveTime => c.keepalive_time = d,
                    Knob::KeepaliveInterval => c.keepalive_interval = d,
                    Knob::KeepaliveProbes => c.keepalive_probes = u32::try_from(*ms).ok(),
                    Knob::TcpUserTimeout => c.tcp_user_timeout = d,
                    Knob::IdleConnTimeout => c.idle_conn_timeout = d,
                }
            }
            Change::NodeLocalDnsCache => {
                s.dns.get_or_insert_with(DnsSection::default).node_local_dns_cache = Some(true);
            }
        }
        true
    }
}

impl ClientFix {
    /// The advice as one line (`advice.client.line`): the client, the change, and its errors'
    /// end after the fault before and after it, to the tenth of a second, or never.
    pub fn line(&self) -> Cause {
        let end = |t: Option<Millis>| match t {
            Some(ms) => Arg::Time((ms + 50) / 100 * 100),
            None => Arg::Cause(Box::new(Cause::new("advice.client.never"))),
        };
        Cause::new("advice.client.line")
            .text("client", &self.client)
            .sub("advice", self.advice.clone())
            .with("before", end(self.before))
            .with("after", end(self.after))
    }
}

/// What kept a client's last errors going, as their causes say.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Pole {
    /// Requests waited on a connection whose peer died.
    Hung,
    /// A load balancer between held the request for a target that died (an ALB until its idle
    /// timeout): the client's connection to it lives, so only its request timeout ends the wait.
    Held,
    /// New connections went to a dead peer and waited out the dial.
    Dial,
    /// Lookups went to a dead CoreDNS pod.
    Lookups,
}

/// The pole of client `c`'s last episode of errors from `fault` on, by what ended it (or, for
/// one that outlasted the run, by how it began), and the pole its start names where it ended (an
/// episode merges the failures that overlap, so the two can differ); `None` where its end names
/// nothing in the client that could cut it (no endpoint at all, an ALB's own connect timeout).
fn poles(o: &Outcome, c: &ClientSpec, fault: Millis) -> Option<(Pole, Option<Pole>)> {
    let (mut started, mut ended) = (None, None);
    let mine = |e: &&crate::outcome::TimelineEvent| e.at_ms >= fault && e.client.as_deref() == Some(c.name.as_str());
    for e in o.events.iter().filter(mine) {
        match e.kind {
            EventKind::ClientErrorsStarted => (started, ended) = (Some(e.cause.key), None),
            EventKind::ClientErrorsEnded => ended = Some(e.cause.key),
            _ => {}
        }
    }
    let connected = c.params.style != Style::PerRequest;
    let start = started.and_then(|key| by_start(key, connected));
    match ended {
        Some(key) => Some((by_end(key, started, connected)?, start)),
        None => Some((start?, None)),
    }
}

/// The pole an episode's end names (`Mech::key`'s and the proxies' keys).
fn by_end(ended: &str, started: Option<&str>, connected: bool) -> Option<Pole> {
    Some(match ended {
        // A client that dials for every request has no connection to wait on: its deadline
        // ended a dial.
        "cause.client.request_timeout" if !connected => Pole::Dial,
        "cause.client.retries2"
        | "cause.client.user_timeout"
        | "cause.client.request_timeout"
        | "cause.client.grpc_keepalive"
        | "cause.client.proxy_retries2"
        | "cause.client.proxy_read_timeout" => Pole::Hung,
        "cause.lb.alb_504_idle" => Pole::Held,
        "cause.client.connect_timeout" | "cause.client.syn_retries" | "cause.client.proxy_connect_timeout" => {
            Pole::Dial
        }
        // An NLB reset a flow to a dead target: a kept connection's request, or a bare dial.
        "cause.lb.reset" if connected => Pole::Hung,
        "cause.lb.reset" => Pole::Dial,
        // The dead machine came back: a reset ends whatever waited, which its start names.
        "cause.client.reset" => return started.and_then(|s| by_start(s, connected)),
        "cause.client.dns_glibc" | "cause.client.dns_musl" | "cause.client.dns_go" => Pole::Lookups,
        _ => return None,
    })
}

/// The pole an episode's start names.
fn by_start(started: &str, connected: bool) -> Option<Pole> {
    Some(match started {
        "cause.client.started_pinned" | "cause.client.proxy_started_pinned" => Pole::Hung,
        "cause.client.started_race" | "cause.client.proxy_started_race" => Pole::Dial,
        "cause.lb.started_blackholed" if connected => Pole::Hung,
        "cause.lb.started_blackholed" => Pole::Dial,
        "cause.client.dns_started" => Pole::Lookups,
        _ => return None,
    })
}

/// The setting that ends `pole` in library `l` (with `also`, the other pole its episode shows),
/// and the value advised: a hung request's (the request timeout; grpc-go's keepalive; a bare
/// socket's `TCP_USER_TIMEOUT`), a held one's (the request timeout) or a dial's (the connect
/// timeout). Where the episode shows both,
/// a request timeout ends both (it bounds a dial too, `rules::dial_budget`).
fn knob_for(pole: Pole, also: Option<Pole>, l: &Library) -> Option<(Knob, Millis)> {
    let hung = match l.style {
        _ if l.user_timeout_needs_keepalive => (Knob::KeepaliveTime, KEEPALIVE_TIME),
        Style::PerRequest => (Knob::TcpUserTimeout, USER_TIMEOUT),
        _ => (Knob::RequestTimeout, REQUEST_TIMEOUT),
    };
    match (pole, also) {
        (Pole::Dial, Some(Pole::Hung)) if hung.0 == Knob::RequestTimeout => Some(hung),
        (Pole::Hung, _) => Some(hung),
        (Pole::Held, _) => Some((Knob::RequestTimeout, REQUEST_TIMEOUT)),
        (Pole::Dial, _) => Some((Knob::ConnectTimeout, CONNECT_TIMEOUT)),
        (Pole::Lookups, _) => None,
    }
}

/// The change advised to client `i`, and its message; `None` when its causes name nothing a
/// client can change, or it already sets that setting as short as advised.
fn proposal(cfg: &Config, o: &Outcome, i: usize, fault: Millis) -> Option<(Change, Cause)> {
    let c = &cfg.clients[i];
    let (pole, also) = poles(o, c, fault)?;
    if pole == Pole::Lookups {
        cfg.dns.as_ref().filter(|d| !d.node_local)?;
        return Some((Change::NodeLocalDnsCache, Cause::new("advice.client.node_local_dns")));
    }
    let l = libraries::by_name(&c.library)?;
    let (knob, value) = knob_for(pole, also, l)?;
    let now = c.params.setting(knob);
    if now > 0 && now <= value {
        return None;
    }
    let after = with_override(c, knob, value)?;
    let setting = libraries::message_name(&c.library, knob);
    let advice = if knob == Knob::KeepaliveTime && l.user_timeout_needs_keepalive {
        Cause::new("advice.client.grpc_keepalive")
            .text("setting", setting)
            .time("value", value)
            .text(
                "timeoutSetting",
                libraries::message_name(&c.library, Knob::TcpUserTimeout),
            )
            .time("timeout", after.tcp_user_timeout)
    } else {
        Cause::new("advice.client.set")
            .text("setting", setting)
            .time("value", value)
    };
    Some((
        Change::Override {
            client: i,
            knob,
            ms: value,
        },
        advice,
    ))
}

/// The clients advised: those with errors after the fault, the [`MAX_ADVISED`] whose errors
/// ended last (or never), in the scenario's order.
fn advised(before: &[Option<Millis>]) -> Vec<usize> {
    let mut with_errors: Vec<usize> = (0..before.len()).filter(|&i| before[i] != Some(0)).collect();
    // Never first, then the latest end; equal ends in the scenario's order.
    crate::order::sort_by_key(&mut with_errors, |&i| {
        std::cmp::Reverse(before[i].unwrap_or(Millis::MAX))
    });
    with_errors.truncate(MAX_ADVISED);
    crate::order::sort(&mut with_errors);
    with_errors
}

/// Whether ending at `after` cuts errors that ended at `before` (`None`: never) by at least
/// [`MIN_CUT`].
fn cuts(before: Option<Millis>, after: Option<Millis>) -> bool {
    match (before, after) {
        (_, None) => false,
        (None, Some(_)) => true,
        (Some(b), Some(a)) => a <= b - MIN_CUT,
    }
}

/// Per client, when its errors ended with `change`: one run of `cfg` with it, or the run
/// another client's same change already took (`runs`); `None` when the change does not apply.
fn ends_with(
    cfg: &Config,
    change: &Change,
    runs: &mut Vec<(Change, Vec<Option<Millis>>)>,
) -> Option<Vec<Option<Millis>>> {
    if let Some((_, ends)) = runs.iter().find(|r| r.0 == *change) {
        return Some(ends.clone());
    }
    let mut changed = cfg.clone();
    if !change.apply(&mut changed) {
        return None;
    }
    let o = crate::run::run(&changed, &RunOptions { heartbeats: false });
    let ends = client_errors_ended(&o, fault_at(&o));
    runs.push((change.clone(), ends.clone()));
    Some(ends)
}

/// For each client of `cfg` whose requests failed or hung after the fault in `outcome` (its run),
/// the change that cuts its errors, with their end before and after it: one more run of `cfg`
/// (same seed) per client advised, at most [`MAX_ADVISED`] of them (the clients that look names
/// up share one). A change that does not end the errors at least [`MIN_CUT`] sooner is not
/// offered. In the scenario's order.
pub fn client_fixes(cfg: &Config, outcome: &Outcome) -> Vec<ClientFix> {
    let fault = fault_at(outcome);
    let mut before = client_errors_ended(outcome, fault);
    // One per client of the run; a run of another configuration is read no further than `cfg`'s.
    before.truncate(cfg.clients.len());
    let mut runs = Vec::new();
    let mut out = Vec::new();
    for i in advised(&before) {
        let Some((change, advice)) = proposal(cfg, outcome, i, fault) else {
            continue;
        };
        let Some(after) = ends_with(cfg, &change, &mut runs).and_then(|ends| ends.get(i).copied()) else {
            continue;
        };
        if cuts(before[i], after) {
            out.push(ClientFix {
                client: cfg.clients[i].name.clone(),
                advice,
                before: before[i],
                after,
                change,
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_clients_whose_errors_last_longest_are_advised_in_order() {
        let before = [Some(0), Some(5), None, Some(9), Some(0)];
        assert_eq!(advised(&before), vec![1, 2, 3]);
        let many: Vec<Option<Millis>> = (0..12).map(|i| Some(i + 1)).collect();
        assert_eq!(advised(&many), (4..12).collect::<Vec<_>>());
    }

    #[test]
    fn only_a_sooner_end_cuts() {
        assert!(cuts(None, Some(10)) && cuts(Some(20_000), Some(10_000)) && cuts(Some(20_000), Some(0)));
        assert!(cuts(Some(11_000), Some(10_000)) && !cuts(Some(10_100), Some(10_000)));
        assert!(!cuts(Some(20), Some(20)) && !cuts(Some(20), None) && !cuts(None, None));
    }

    #[test]
    fn an_episode_names_its_pole_by_its_end_then_its_start() {
        assert_eq!(by_end("cause.client.retries2", None, true), Some(Pole::Hung));
        assert_eq!(by_end("cause.client.syn_retries", None, false), Some(Pole::Dial));
        let pinned = Some("cause.client.started_pinned");
        assert_eq!(by_end("cause.client.reset", pinned, true), Some(Pole::Hung));
        assert_eq!(by_end("cause.lb.reset", None, false), Some(Pole::Dial));
        assert_eq!(by_end("cause.lb.alb_504_idle", None, false), Some(Pole::Held));
        assert_eq!(by_end("cause.lb.alb_504", None, false), None);
        assert_eq!(by_end("cause.client.request_timeout", None, false), Some(Pole::Dial));
        assert_eq!(by_end("cause.client.no_endpoints", pinned, true), None);
        assert_eq!(by_end("cause.client.dns_refused", None, false), None);
        assert_eq!(by_start("cause.client.dns_started", false), Some(Pole::Lookups));
        assert_eq!(by_start("cause.client.started_no_endpoints", true), None);
    }

    #[test]
    fn a_change_names_its_field() {
        let c = Change::Override {
            client: 2,
            knob: Knob::KeepaliveTime,
            ms: KEEPALIVE_TIME,
        };
        assert_eq!(c.field(), "clients[2].keepaliveTime");
        assert_eq!(Change::NodeLocalDnsCache.field(), "dns.nodeLocalDnsCache");
    }
}

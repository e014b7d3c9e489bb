//! The rules of the `clients` section ([`super::clients`]): each client's target, library, node,
//! rate and overrides checked, and its library's defaults ([`super::libraries`]) merged in.

use super::clients::{ClientParams, ClientSpec};
use super::config::{ActionSpec, NodeSpec, WorkloadSpec};
use super::format::{bad, between, member, quoted, unique_name, ClientSection, Faulted, GoDuration, ScenarioError};
use super::libraries::{self, Knob, Library, Style};
use crate::cause::Cause;
use crate::time::{Millis, HOUR};

/// The longest override, ms.
const MAX_OVERRIDE: Millis = HOUR;
/// The most keepalive probes (Linux `TCP_KEEPCNT` is at most 127).
const MAX_PROBES: u32 = 127;
/// The Go releases `goVersion` may name, as 1.N.
const GO_MINORS: (u32, u32) = (13, 30);
/// The Go release whose `KeepAliveConfig` made the interval 15 s.
const GO_KEEPALIVE_CONFIG: u32 = 23;

/// The resolved clients, in order.
pub(super) fn resolve_clients(
    clients: &[ClientSection],
    nodes: &[NodeSpec],
    workloads: &[WorkloadSpec],
    actions: &[ActionSpec],
) -> Result<Vec<ClientSpec>, ScenarioError> {
    let mut out: Vec<ClientSpec> = Vec::with_capacity(clients.len());
    for (i, c) in clients.iter().enumerate() {
        let field = unique_name("clients", i, &c.name, out.iter().position(|o| o.name == c.name))?;
        let service = target(c, workloads, &field)?;
        let library = libraries::by_name(&c.library).ok_or_else(|| {
            bad(
                member(&field, "library"),
                quoted("scenario.client.library", &c.library).text("names", libraries::names()),
            )
        })?;
        let from = from(c, nodes, actions, &field)?;
        let rate = c.requests_per_second.unwrap_or(10.0);
        if !(rate.is_finite() && (0.001..=100_000.0).contains(&rate)) {
            return Err(bad(
                member(&field, "requestsPerSecond"),
                Cause::new("scenario.client.rate").text("value", rate),
            ));
        }
        let params = params(c, library, &field)?;
        out.push(ClientSpec {
            name: c.name.clone(),
            service,
            library: library.name.to_string(),
            from,
            rate,
            params,
        });
    }
    Ok(out)
}

/// The workload whose Service `c` calls.
fn target(c: &ClientSection, workloads: &[WorkloadSpec], field: &str) -> Result<usize, ScenarioError> {
    let at = member(field, "target");
    let w = workloads
        .iter()
        .position(|w| w.name == c.target)
        .ok_or_else(|| bad(&at, quoted("scenario.client.target_unknown", &c.target)))?;
    if !workloads[w].service {
        return Err(bad(at, quoted("scenario.client.target_no_service", &c.target)));
    }
    Ok(w)
}

/// The node `c` runs on: as written (a node present from the start), or the first node no action
/// faults.
fn from(c: &ClientSection, nodes: &[NodeSpec], actions: &[ActionSpec], field: &str) -> Result<usize, ScenarioError> {
    let at = member(field, "from");
    if let Some(name) = &c.from {
        let n = nodes
            .iter()
            .position(|n| &n.name == name)
            .ok_or_else(|| bad(&at, quoted("scenario.client.from_unknown", name)))?;
        if nodes[n].join_at.is_some() {
            return Err(bad(at, quoted("scenario.client.from_joins", name)));
        }
        return Ok(n);
    }
    let faulted = |n: usize| {
        actions
            .iter()
            .any(|a| a.node == Some(n) && a.action.faulted() != Faulted::Nothing)
    };
    (0..nodes.len())
        .find(|&n| nodes[n].join_at.is_none() && !faulted(n))
        .ok_or_else(|| bad(at, Cause::new("scenario.client.no_live_node")))
}

/// The library's settings with `c`'s overrides, ms.
fn params(c: &ClientSection, l: &Library, field: &str) -> Result<ClientParams, ScenarioError> {
    let minor = go_minor(c, l, field)?;
    let durations = [
        (Knob::ConnectTimeout, c.connect_timeout),
        (Knob::RequestTimeout, c.request_timeout),
        (Knob::KeepaliveTime, c.keepalive_time),
        (Knob::KeepaliveInterval, c.keepalive_interval),
        (Knob::TcpUserTimeout, c.tcp_user_timeout),
        (Knob::IdleConnTimeout, c.idle_conn_timeout),
    ];
    let mut ms = [0; 6];
    for (slot, (k, written)) in ms.iter_mut().zip(durations) {
        *slot = setting(l, k, written.map(|g: GoDuration| g.0), field)?;
    }
    let [connect_timeout, request_timeout, keepalive_time, mut keepalive_interval, mut tcp_user_timeout, idle_conn_timeout] =
        ms;
    let probes = setting(l, Knob::KeepaliveProbes, c.keepalive_probes.map(i64::from), field)?;
    if let (Some(old), None, true) = (l.older_go_interval, c.keepalive_interval, minor < GO_KEEPALIVE_CONFIG) {
        keepalive_interval = old;
    }
    if l.user_timeout_needs_keepalive && keepalive_time == 0 {
        tcp_user_timeout = 0;
    }
    Ok(ClientParams {
        style: l.style,
        connect_timeout,
        request_timeout,
        keepalive_time,
        keepalive_interval,
        keepalive_probes: probes,
        tcp_user_timeout,
        idle_conn_timeout: if l.style == Style::Pool { idle_conn_timeout } else { 0 },
    })
}

/// `goVersion`'s minor (go-http only), or the newest rules when not written.
fn go_minor(c: &ClientSection, l: &Library, field: &str) -> Result<u32, ScenarioError> {
    let Some(v) = &c.go_version else {
        return Ok(GO_KEEPALIVE_CONFIG);
    };
    let at = member(field, "goVersion");
    if l.older_go_interval.is_none() {
        return Err(bad(
            at,
            Cause::new("scenario.client.go_version_library").text("library", l.name),
        ));
    }
    v.strip_prefix("1.")
        .and_then(|m| m.parse::<u32>().ok())
        .filter(|m| (GO_MINORS.0..=GO_MINORS.1).contains(m))
        .ok_or_else(|| bad(at, quoted("scenario.client.go_version", v)))
}

/// One setting: the override as written (checked), or else the library's default; refused where
/// the library has no such setting.
fn setting(l: &Library, k: Knob, written: Option<i64>, field: &str) -> Result<i64, ScenarioError> {
    let at = member(field, k.json());
    let Some(default) = l.default(k) else {
        return match written {
            Some(_) => Err(bad(
                at,
                Cause::new("scenario.client.override_not_for")
                    .text("field", k.json())
                    .text("library", l.name),
            )),
            None => Ok(0),
        };
    };
    match (written, k) {
        (None, _) => Ok(default),
        (Some(n), Knob::KeepaliveProbes) if !(1..=i64::from(MAX_PROBES)).contains(&n) => {
            Err(bad(at, between(1, i64::from(MAX_PROBES), n)))
        }
        (Some(ms), Knob::KeepaliveProbes) => Ok(ms),
        (Some(ms), _) if !(0..=MAX_OVERRIDE).contains(&ms) => Err(bad(at, super::flags::up_to(MAX_OVERRIDE, ms))),
        (Some(ms), _) => Ok(ms),
    }
}

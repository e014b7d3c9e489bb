//! The rules of the `clients` section ([`super::clients`]): each client's target, library, node,
//! rate and overrides checked, and its library's defaults ([`super::libraries`]) merged in.

use super::clients::{ClientParams, ClientSpec, DnsClient, DnsSpec, Lookup, Resolver};
use super::config::{ActionSpec, NodeSpec, WorkloadSpec};
use super::format::{
    bad, between, member, quoted, unique_name, ClientSection, DnsSection, Faulted, GoDuration, ScenarioError,
    WorkloadKind,
};
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

/// The target that looks names up through the cluster DNS.
pub const KUBE_DNS: &str = "kube-dns";
/// The `from` of a client outside the cluster, behind its Service's load balancer.
pub const EXTERNAL: &str = "external";
/// The CoreDNS Deployment's name (kubeadm's), whose Service is `kube-dns`.
pub const COREDNS: &str = "coredns";
/// CoreDNS's replicas when the scenario names none (kubeadm's `coreDNSReplicas`).
const COREDNS_REPLICAS: u32 = 2;
/// The most CoreDNS replicas.
const MAX_COREDNS_REPLICAS: u32 = 100;

/// The cluster DNS, when the scenario has a `dns` section or a client of `kube-dns`: the
/// `coredns` Deployment (critical, behind the `kube-dns` Service) appended to `workloads`.
pub(super) fn resolve_dns(
    dns: Option<&DnsSection>,
    clients: &[ClientSection],
    nodes: &[NodeSpec],
    workloads: &mut Vec<WorkloadSpec>,
) -> Result<Option<DnsSpec>, ScenarioError> {
    let default = DnsSection::default();
    let section = match dns {
        Some(d) => d,
        None if clients.iter().any(|c| c.target == KUBE_DNS) => &default,
        None => return Ok(None),
    };
    let replicas = section.core_dns_replicas.unwrap_or(COREDNS_REPLICAS);
    if !(1..=MAX_COREDNS_REPLICAS).contains(&replicas) {
        return Err(bad(
            "dns.coreDnsReplicas",
            between(1, i64::from(MAX_COREDNS_REPLICAS), replicas),
        ));
    }
    let mut placed = Vec::with_capacity(section.nodes.len());
    for (j, name) in section.nodes.iter().enumerate() {
        let at = format!("dns.nodes[{j}]");
        let n = nodes
            .iter()
            .position(|n| &n.name == name)
            .ok_or_else(|| bad(&at, quoted("scenario.dns.node_unknown", name)))?;
        if nodes[n].join_at.is_some() {
            return Err(bad(at, quoted("scenario.dns.node_joins", name)));
        }
        placed.push(n);
    }
    if placed.len() > replicas as usize {
        return Err(bad(
            "dns.nodes",
            Cause::new("scenario.dns.nodes_count")
                .text("count", placed.len())
                .text("replicas", replicas),
        ));
    }
    if section.nodes.is_empty() {
        let present = (0..nodes.len()).filter(|&n| nodes[n].join_at.is_none());
        placed = present.take(replicas as usize).collect();
    }
    if workloads.iter().any(|w| w.name == COREDNS) {
        return Err(bad("dns", quoted("scenario.dns.name_taken", COREDNS)));
    }
    workloads.push(WorkloadSpec {
        kind: WorkloadKind::Deployment,
        name: COREDNS.to_string(),
        replicas,
        termination_grace_period_seconds: 30,
        tolerations: Vec::new(),
        service: true,
        service_name: Some(KUBE_DNS.to_string()),
        load_balancer: None,
        volume: None,
        pdb: None,
        critical: true,
    });
    Ok(Some(DnsSpec {
        workload: workloads.len() - 1,
        nodes: placed,
        node_local: section.node_local_dns_cache.unwrap_or(false),
    }))
}

/// A `kube-dns` client's resolver and name, and its settings (none: a lookup takes the
/// resolver's own timeouts); refuses a library and the connection overrides.
fn dns_client(c: &ClientSection, dns: &DnsSpec, field: &str) -> Result<(DnsClient, ClientParams), ScenarioError> {
    if !c.library.is_empty() {
        return Err(bad(
            member(field, "library"),
            Cause::new("scenario.client.library_for_dns"),
        ));
    }
    let overrides = [
        ("goVersion", c.go_version.is_some()),
        ("connectTimeout", c.connect_timeout.is_some()),
        ("requestTimeout", c.request_timeout.is_some()),
        ("keepaliveTime", c.keepalive_time.is_some()),
        ("keepaliveInterval", c.keepalive_interval.is_some()),
        ("keepaliveProbes", c.keepalive_probes.is_some()),
        ("tcpUserTimeout", c.tcp_user_timeout.is_some()),
        ("idleConnTimeout", c.idle_conn_timeout.is_some()),
    ];
    if let Some((name, _)) = overrides.iter().find(|o| o.1) {
        return Err(bad(
            member(field, name),
            Cause::new("scenario.client.dns_override").text("field", name),
        ));
    }
    let resolver = match c.resolver.as_deref() {
        None => Resolver::Glibc,
        Some(r) => Resolver::ALL
            .iter()
            .find(|a| a.0 == r)
            .map(|a| a.1)
            .ok_or_else(|| bad(member(field, "resolver"), quoted("scenario.client.resolver", r)))?,
    };
    let lookup = match c.lookup.as_deref() {
        None | Some("short") => Lookup::Short,
        Some("external") => Lookup::External,
        Some(l) => return Err(bad(member(field, "lookup"), quoted("scenario.client.lookup", l))),
    };
    let params = ClientParams::bare(Style::PerRequest);
    let client = DnsClient {
        resolver,
        lookup,
        node_local: dns.node_local,
    };
    Ok((client, params))
}

/// The resolved clients, in order.
pub(super) fn resolve_clients(
    clients: &[ClientSection],
    nodes: &[NodeSpec],
    workloads: &[WorkloadSpec],
    actions: &[ActionSpec],
    dns: Option<&DnsSpec>,
) -> Result<Vec<ClientSpec>, ScenarioError> {
    let mut out: Vec<ClientSpec> = Vec::with_capacity(clients.len());
    for (i, c) in clients.iter().enumerate() {
        let field = unique_name("clients", i, &c.name, out.iter().position(|o| o.name == c.name))?;
        if let (KUBE_DNS, Some(dns)) = (c.target.as_str(), dns) {
            let (client, params) = dns_client(c, dns, &field)?;
            out.push(ClientSpec {
                name: c.name.clone(),
                service: dns.workload,
                library: client.resolver.name().to_string(),
                from: from(c, nodes, workloads, actions, &field)?,
                rate: rate(c, &field)?,
                params,
                dns: Some(client),
            });
            continue;
        }
        for (name, set) in [("resolver", c.resolver.is_some()), ("lookup", c.lookup.is_some())] {
            if set {
                return Err(bad(
                    member(&field, name),
                    Cause::new("scenario.client.dns_only").text("field", name),
                ));
            }
        }
        let service = target(c, workloads, &field)?;
        if c.library.is_empty() {
            return Err(bad(
                member(&field, "library"),
                Cause::new("scenario.client.library_missing").text("names", libraries::names()),
            ));
        }
        let library = libraries::by_name(&c.library).ok_or_else(|| {
            bad(
                member(&field, "library"),
                quoted("scenario.client.library", &c.library).text("names", libraries::names()),
            )
        })?;
        let from = from(c, nodes, workloads, actions, &field)?;
        let rate = rate(c, &field)?;
        let params = params(c, library, &field)?;
        out.push(ClientSpec {
            name: c.name.clone(),
            service,
            library: library.name.to_string(),
            from,
            rate,
            params,
            dns: None,
        });
    }
    Ok(out)
}

/// `c`'s requests (or lookups) a second; default 10.
fn rate(c: &ClientSection, field: &str) -> Result<f64, ScenarioError> {
    let rate = c.requests_per_second.unwrap_or(10.0);
    if !(rate.is_finite() && (0.001..=100_000.0).contains(&rate)) {
        return Err(bad(
            member(field, "requestsPerSecond"),
            Cause::new("scenario.client.rate").text("value", rate),
        ));
    }
    Ok(rate)
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

/// The most nodes an external client's flows are followed through a load balancer for.
pub const EXTERNAL_MAX_NODES: usize = 1_000;
/// The most (node, pod) pairs for instance targets with `externalTrafficPolicy: Cluster`, where
/// a flow's first hop is a node and its second a pod of the rules.
pub const EXTERNAL_MAX_PAIRS: u64 = 100_000;

/// Whether an external client's flows stay within what the walk through the load balancer
/// follows in bounded time and memory ([`EXTERNAL_MAX_NODES`], [`EXTERNAL_MAX_PAIRS`]); `Ok(None)`
/// (no node of its own) when they do.
fn external_within_limits(c: &ClientSection, nodes: usize, workloads: &[WorkloadSpec]) -> Result<Option<usize>, Cause> {
    let Some(w) = workloads.iter().find(|w| w.name == c.target) else {
        return Ok(None);
    };
    let pods = match w.kind {
        WorkloadKind::DaemonSet => nodes as u64,
        _ => u64::from(w.replicas),
    };
    let pairs = w.load_balancer.is_some_and(|lb| {
        lb.profile().target == super::load_balancers::Target::Instance
            && lb.policy == super::load_balancers::Policy::Cluster
    });
    if nodes <= EXTERNAL_MAX_NODES && (!pairs || nodes as u64 * pods <= EXTERNAL_MAX_PAIRS) {
        return Ok(None);
    }
    Err(Cause::new("scenario.client.external_limit")
        .text("nodes", nodes)
        .text("pods", pods)
        .text("target", &c.target)
        .text("maxNodes", EXTERNAL_MAX_NODES)
        .text("maxPairs", EXTERNAL_MAX_PAIRS))
}

/// The node `c` runs on: as written (a node present from the start), or the first node no action
/// faults; `None` for `external` (its target's Service must have a load balancer).
fn from(
    c: &ClientSection,
    nodes: &[NodeSpec],
    workloads: &[WorkloadSpec],
    actions: &[ActionSpec],
    field: &str,
) -> Result<Option<usize>, ScenarioError> {
    let at = member(field, "from");
    if c.from.as_deref() == Some(EXTERNAL) {
        let balanced = workloads
            .iter()
            .any(|w| w.name == c.target && w.load_balancer.is_some());
        // A proxy runs in the cluster and dials pod IPs: what calls it from outside is a
        // client of its own.
        if libraries::by_name(&c.library).is_some_and(|l| l.style == Style::Proxy) {
            return Err(bad(at, quoted("scenario.client.external_proxy", &c.library)));
        }
        if !balanced {
            return Err(bad(at, quoted("scenario.client.external_needs_lb", &c.target)));
        }
        return external_within_limits(c, nodes.len(), workloads).map_err(|cause| bad(at, cause));
    }
    if let Some(name) = &c.from {
        let n = nodes
            .iter()
            .position(|n| &n.name == name)
            .ok_or_else(|| bad(&at, quoted("scenario.client.from_unknown", name)))?;
        if nodes[n].join_at.is_some() {
            return Err(bad(at, quoted("scenario.client.from_joins", name)));
        }
        return Ok(Some(n));
    }
    let faulted = |n: usize| {
        actions
            .iter()
            .any(|a| a.node == Some(n) && a.action.faulted() != Faulted::Nothing)
    };
    (0..nodes.len())
        .find(|&n| nodes[n].join_at.is_none() && !faulted(n))
        .map(Some)
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
        idle_conn_timeout: if matches!(l.style, Style::Pool | Style::Proxy) {
            idle_conn_timeout
        } else {
            0
        },
    })
}

/// `c`'s settings with the override `k` set to `v` (ms; a count for `keepaliveProbes`), by the
/// rules [`params`] applies to what a scenario writes: grpc-go's `TCP_USER_TIMEOUT` only with
/// `keepaliveTime` (set to its `Timeout` when `keepaliveTime` turns on: the library's default,
/// since a `tcpUserTimeout` written without `keepaliveTime` was not kept), the idle timeout only
/// for a pool. `None`: its library has no such setting (or `c` looks names up).
pub fn with_override(c: &ClientSpec, k: Knob, v: i64) -> Option<ClientParams> {
    let l = libraries::by_name(&c.library).filter(|_| c.dns.is_none())?;
    l.default(k)?;
    let mut p = c.params;
    let had_keepalive = p.keepalive_time > 0;
    *p.setting_mut(k) = v;
    if l.user_timeout_needs_keepalive {
        if p.keepalive_time == 0 {
            p.tcp_user_timeout = 0;
        } else if !had_keepalive && k == Knob::KeepaliveTime {
            p.tcp_user_timeout = l.default(Knob::TcpUserTimeout).unwrap_or(0);
        }
    }
    if !matches!(l.style, Style::Pool | Style::Proxy) {
        p.idle_conn_timeout = 0;
    }
    Some(p)
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
                Cause::new(if l.style == Style::Proxy {
                    "scenario.client.override_not_for_proxy"
                } else {
                    "scenario.client.override_not_for"
                })
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

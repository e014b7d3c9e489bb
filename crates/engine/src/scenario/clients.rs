//! The `clients` section as the engine runs on it: each client's Service, node, rate and its
//! library's settings merged with the overrides, ms. The pinned JSON is `format`'s
//! (`ClientSection`); `client_rules` resolves and checks it; `network::clients` runs it.

use super::libraries::{Knob, Style};
use crate::time::Millis;
use serde::{Deserialize, Serialize};

/// A resolved client.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ClientSpec {
    /// Its name.
    pub name: String,
    /// The Service it calls (by workload index).
    pub service: usize,
    /// Its library's name (a row of `libraries::LIBRARIES`).
    pub library: String,
    /// The node it runs on; `None`: outside the cluster, through its Service's load balancer.
    pub from: Option<usize>,
    /// Requests a second.
    pub rate: f64,
    /// Its settings, ms; 0 is none.
    pub params: ClientParams,
    /// A client of `kube-dns`: its resolver and the name it looks up (`service` is CoreDNS's).
    pub dns: Option<DnsClient>,
}

/// A client that looks names up through the `kube-dns` Service.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct DnsClient {
    /// Its stub resolver.
    pub resolver: Resolver,
    /// The name's shape.
    pub lookup: Lookup,
    /// NodeLocal DNSCache answers it on its node.
    pub node_local: bool,
}

/// A stub resolver (the spec's part B §1.2–1.4), with the options the kubelet's resolv.conf
/// leaves it: `ndots:5` only, so each its own `timeout` and `attempts` defaults.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Resolver {
    /// glibc: A and AAAA on one connected UDP socket, each try on the same 5-tuple.
    Glibc,
    /// musl: one unconnected UDP socket per name, resent every `timeout/attempts`.
    Musl,
    /// Go's pure resolver: a new UDP socket per query and attempt.
    Go,
}

/// The name a lookup asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Lookup {
    /// A Service of the same namespace (`web`): the first search candidate answers.
    Short,
    /// A name outside the cluster (`api.example.com`): every search candidate, then the name.
    External,
}

impl Resolver {
    /// The resolvers by their JSON names.
    pub const ALL: [(&'static str, Resolver); 3] = [
        ("glibc", Resolver::Glibc),
        ("musl", Resolver::Musl),
        ("go", Resolver::Go),
    ];

    /// Its JSON name.
    pub fn name(self) -> &'static str {
        Self::ALL.iter().find(|r| r.1 == self).map_or("glibc", |r| r.0)
    }
}

/// The cluster DNS as the engine runs it: the `coredns` Deployment behind `kube-dns`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DnsSpec {
    /// The CoreDNS workload (its index among the workloads; its Service is `kube-dns`).
    pub workload: usize,
    /// The node of each replica placed by the scenario, in order; the others the scheduler places.
    pub nodes: Vec<usize>,
    /// NodeLocal DNSCache on every node.
    pub node_local: bool,
}

/// A client's settings after its library's defaults and its overrides, ms (0: none).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct ClientParams {
    /// How it keeps connections.
    pub style: Style,
    /// How long a dial may take.
    pub connect_timeout: Millis,
    /// How long a request may take.
    pub request_timeout: Millis,
    /// TCP keepalive's idle time (grpc-go: its ping's `Time`).
    pub keepalive_time: Millis,
    /// TCP keepalive's interval.
    pub keepalive_interval: Millis,
    /// TCP keepalive's probes.
    pub keepalive_probes: i64,
    /// `TCP_USER_TIMEOUT` in force (grpc-go: 0 unless `keepaliveTime` is set).
    pub tcp_user_timeout: Millis,
    /// An idle pooled connection is closed after this.
    pub idle_conn_timeout: Millis,
}

impl ClientParams {
    /// A client of `style` that sets nothing: no timeout and no keepalive of its own, the
    /// kernel's budgets alone.
    pub const fn bare(style: Style) -> ClientParams {
        ClientParams {
            style,
            connect_timeout: 0,
            request_timeout: 0,
            keepalive_time: 0,
            keepalive_interval: 0,
            keepalive_probes: 0,
            tcp_user_timeout: 0,
            idle_conn_timeout: 0,
        }
    }

    /// The setting the override `k` writes, ms (a count for `keepaliveProbes`).
    pub fn setting(&self, k: Knob) -> i64 {
        let mut p = *self;
        *p.setting_mut(k)
    }

    /// The setting the override `k` writes, to change.
    pub fn setting_mut(&mut self, k: Knob) -> &mut i64 {
        match k {
            Knob::ConnectTimeout => &mut self.connect_timeout,
            Knob::RequestTimeout => &mut self.request_timeout,
            Knob::KeepaliveTime => &mut self.keepalive_time,
            Knob::KeepaliveInterval => &mut self.keepalive_interval,
            Knob::KeepaliveProbes => &mut self.keepalive_probes,
            Knob::TcpUserTimeout => &mut self.tcp_user_timeout,
            Knob::IdleConnTimeout => &mut self.idle_conn_timeout,
        }
    }
}

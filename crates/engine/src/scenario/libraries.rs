//! The client libraries as data: one row per library, each default in ms with the library's own
//! name for the setting and the upstream source it is read from (the spec's §2, summary §2.7).
//! A client's `library` names a row; its overrides (`connectTimeout`, …) replace the row's
//! defaults. No other code knows a library's default, and docs/scenario-format.md's table is
//! checked against this one.

use crate::time::{Millis, MINUTE, SECOND};
use serde::{Deserialize, Serialize};

/// How a library keeps its connections.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Style {
    /// A new connection for every request: a bare socket.
    PerRequest,
    /// A pool of keep-alive connections, one in use per request (HTTP/1.1).
    Pool,
    /// One connection that carries every request at once (HTTP/2, gRPC).
    Multiplexed,
}

/// A client override, by its JSON name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Knob {
    /// `connectTimeout`.
    ConnectTimeout,
    /// `requestTimeout`.
    RequestTimeout,
    /// `keepaliveTime`.
    KeepaliveTime,
    /// `keepaliveInterval`.
    KeepaliveInterval,
    /// `keepaliveProbes` (a count, not a duration).
    KeepaliveProbes,
    /// `tcpUserTimeout`.
    TcpUserTimeout,
    /// `idleConnTimeout`.
    IdleConnTimeout,
}

impl Knob {
    /// Every override, in the order the tables list them.
    pub const ALL: [Knob; 7] = [
        Knob::ConnectTimeout,
        Knob::RequestTimeout,
        Knob::KeepaliveTime,
        Knob::KeepaliveInterval,
        Knob::KeepaliveProbes,
        Knob::TcpUserTimeout,
        Knob::IdleConnTimeout,
    ];

    /// The name a scenario writes.
    pub fn json(self) -> &'static str {
        match self {
            Knob::ConnectTimeout => "connectTimeout",
            Knob::RequestTimeout => "requestTimeout",
            Knob::KeepaliveTime => "keepaliveTime",
            Knob::KeepaliveInterval => "keepaliveInterval",
            Knob::KeepaliveProbes => "keepaliveProbes",
            Knob::TcpUserTimeout => "tcpUserTimeout",
            Knob::IdleConnTimeout => "idleConnTimeout",
        }
    }
}

/// One setting as a library reads it: its default (ms, or a count for `keepaliveProbes`; 0 is
/// none) and the library's own name for it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Param {
    /// The default; 0: none.
    pub default: i64,
    /// What the library calls it.
    pub name: &'static str,
}

const fn p(default: i64, name: &'static str) -> Option<Param> {
    Some(Param { default, name })
}

/// One client library.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Library {
    /// The name a scenario writes.
    pub name: &'static str,
    /// How it keeps connections.
    pub style: Style,
    /// Per [`Knob::ALL`], the setting as it reads it; `None`: it has no such setting, and the
    /// override is refused.
    pub params: [Option<Param>; 7],
    /// Whether `tcpUserTimeout` applies only once `keepaliveTime` is set (grpc-go's
    /// `http2_client.go`: `if kp.Time != infinity { SetTCPUserTimeout(conn, kp.Timeout) }`).
    pub user_timeout_needs_keepalive: bool,
    /// Go before 1.23: `Dialer.KeepAlive` sets both the idle time and the interval
    /// (`setKeepAlivePeriod`), so the interval's default is this, ms.
    pub older_go_interval: Option<Millis>,
    /// Where the defaults are read from, by upstream's public names.
    pub source: &'static str,
}

impl Library {
    /// The library's setting for `k`.
    pub fn param(&self, k: Knob) -> Option<Param> {
        self.params[Knob::ALL.iter().position(|&x| x == k).expect("every knob is listed")]
    }
}

/// Linux's SYN budget without a connect timeout: `tcp_syn_retries` = 6 retransmissions at
/// 1, 2, 4, …, 64 s give up after 127 s (tcp(7)).
pub const SYN_BUDGET: Millis = 127 * SECOND;
/// Linux's budget for unacknowledged data: `tcp_retries2` = 15 with an initial RTO of 200 ms
/// doubling to `TCP_RTO_MAX` (120 s) gives up after 924.6 s (tcp(7), `tcp_retransmit_timer`).
pub const RETRIES2_BUDGET: Millis = 924_600;
/// The kernel's keepalive when a socket turns it on without its own values:
/// `tcp_keepalive_time` 7200 s, `tcp_keepalive_intvl` 75 s, `tcp_keepalive_probes` 9 (tcp(7)).
pub const KERNEL_KEEPALIVE: (Millis, Millis, i64) = (2 * 3600 * SECOND, 75 * SECOND, 9);
/// grpc-go's keepalive `Timeout` when `Time` is set and `Timeout` is not
/// (`keepalive.ClientParameters`: 20 s).
pub const GRPC_KEEPALIVE_TIMEOUT: Millis = 20 * SECOND;

/// The libraries, one row each.
pub const LIBRARIES: [Library; 5] = [
    Library {
        name: "linux",
        style: Style::PerRequest,
        params: [
            p(0, "the application's connect deadline"),
            p(0, "the application's deadline"),
            p(0, "TCP_KEEPIDLE"),
            p(0, "TCP_KEEPINTVL"),
            p(0, "TCP_KEEPCNT"),
            p(0, "TCP_USER_TIMEOUT"),
            None,
        ],
        user_timeout_needs_keepalive: false,
        older_go_interval: None,
        source: "Linux tcp(7): tcp_syn_retries, tcp_retries2, tcp_keepalive_*",
    },
    Library {
        name: "go-http",
        style: Style::Pool,
        params: [
            p(30 * SECOND, "net.Dialer.Timeout"),
            p(0, "http.Client.Timeout"),
            p(30 * SECOND, "net.KeepAliveConfig.Idle"),
            p(15 * SECOND, "net.KeepAliveConfig.Interval"),
            p(9, "net.KeepAliveConfig.Count"),
            p(0, "TCP_USER_TIMEOUT"),
            p(90 * SECOND, "http.Transport.IdleConnTimeout"),
        ],
        user_timeout_needs_keepalive: false,
        older_go_interval: Some(30 * SECOND),
        source: "Go net/http DefaultTransport; Go net.Dialer KeepAliveConfig (1.23+)",
    },
    Library {
        name: "grpc-go",
        style: Style::Multiplexed,
        params: [
            p(20 * SECOND, "grpc.ConnectParams.MinConnectTimeout"),
            p(0, "the RPC's context deadline"),
            p(0, "keepalive.ClientParameters.Time"),
            p(0, "TCP_KEEPINTVL"),
            p(0, "TCP_KEEPCNT"),
            p(GRPC_KEEPALIVE_TIMEOUT, "keepalive.ClientParameters.Timeout"),
            None,
        ],
        user_timeout_needs_keepalive: true,
        older_go_interval: None,
        source: "grpc-go keepalive.ClientParameters, internal/transport http2_client.go, backoff.Config",
    },
    Library {
        name: "java-httpclient",
        style: Style::Pool,
        params: [
            p(0, "HttpClient.Builder.connectTimeout"),
            p(0, "HttpRequest.Builder.timeout"),
            p(0, "TCP_KEEPIDLE"),
            p(0, "TCP_KEEPINTVL"),
            p(0, "TCP_KEEPCNT"),
            p(0, "TCP_USER_TIMEOUT"),
            p(30 * SECOND, "jdk.httpclient.keepalive.timeout"),
        ],
        user_timeout_needs_keepalive: false,
        older_go_interval: None,
        source: "JDK java.net.http HttpClient (module-info: jdk.httpclient.keepalive.timeout)",
    },
    Library {
        name: "okhttp",
        style: Style::Pool,
        params: [
            p(10 * SECOND, "OkHttpClient.Builder.connectTimeout"),
            p(10 * SECOND, "OkHttpClient.Builder.readTimeout"),
            p(0, "TCP_KEEPIDLE"),
            p(0, "TCP_KEEPINTVL"),
            p(0, "TCP_KEEPCNT"),
            p(0, "TCP_USER_TIMEOUT"),
            p(5 * MINUTE, "ConnectionPool keepAliveDuration"),
        ],
        user_timeout_needs_keepalive: false,
        older_go_interval: None,
        source: "OkHttp OkHttpClient.Builder, ConnectionPool",
    },
];

/// The library a scenario's name names.
pub fn by_name(name: &str) -> Option<&'static Library> {
    LIBRARIES.iter().find(|l| l.name == name)
}

/// The libraries' names, for a message: `linux, go-http, …`.
pub fn names() -> String {
    LIBRARIES.iter().map(|l| l.name).collect::<Vec<_>>().join(", ")
}

/// The row docs/scenario-format.md shows for `l`: each setting's default (a Go duration, a count,
/// `none` or `—` where the library has no such setting) and its own name.
pub fn doc_row(l: &Library) -> String {
    let mut out = format!("| `{}` |", l.name);
    for k in Knob::ALL {
        let cell = match l.param(k) {
            None => "—".to_string(),
            Some(Param { default: 0, name }) => format!("none ({name})"),
            Some(Param { default, name }) if k == Knob::KeepaliveProbes => format!("{default} ({name})"),
            Some(Param { default, name }) => format!("{} ({name})", crate::time::format_go_duration(default)),
        };
        out.push_str(&format!(" {cell} |"));
    }
    out.push_str(&format!(" {} |", l.source));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_library_is_found_by_its_name() {
        for l in &LIBRARIES {
            assert_eq!(by_name(l.name), Some(l));
        }
        assert_eq!(by_name("envoy"), None);
        assert_eq!(names(), "linux, go-http, grpc-go, java-httpclient, okhttp");
    }

    /// docs/scenario-format.md's library table is this one.
    #[test]
    fn the_documented_table_is_this_one() {
        let doc = include_str!("../../../../docs/scenario-format.md");
        for l in &LIBRARIES {
            let row = doc_row(l);
            assert!(doc.contains(&row), "docs/scenario-format.md lacks the row\n{row}");
        }
    }
}

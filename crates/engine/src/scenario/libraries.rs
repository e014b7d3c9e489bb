//! The client libraries as data: one row per library, each default in ms (the spec's §2, summary
//! §2.7). The library's own names for its settings are apart: the four a message prints here,
//! the others and the upstream sources the defaults are read from with the documentation's test.
//! A client's `library` names a row; its overrides (`connectTimeout`, …) replace the row's
//! defaults. No other code knows a library's default, and docs/scenario-format.md's table is
//! checked against this one.

use crate::time::{Millis, HOUR, MINUTE, SECOND};
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
    /// A proxy beside the client (an Istio sidecar, ingress-nginx): a pool of keep-alive
    /// connections to pod IPs it learns from the EndpointSlices, not through kube-proxy, and
    /// retries on another endpoint ([`Proxy`]).
    Proxy,
}

/// What a proxy adds to its pool: where its endpoints come from and how it retries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Proxy {
    /// Tries per request in all, the first included.
    pub tries: u32,
    /// Whether a retry avoids the endpoints already tried (Envoy's `previous_hosts`); if not,
    /// it takes the balancer's next pick, which may be the same pod.
    pub other_host: bool,
    /// Whether a request that timed out on a kept-alive connection is tried again (nginx's
    /// `proxy_next_upstream timeout` for an idempotent request); Envoy does not retry a hang.
    pub retries_timeout: bool,
    /// From an EndpointSlice change to the proxy's endpoints: a fixed part, ms.
    pub delay: Millis,
    /// Then up to each of these, drawn uniformly per change, ms.
    pub spread: [Millis; 2],
}

/// Istio's default route retry policy (`pilot/pkg/networking/core/route/retry` `DefaultPolicy`):
/// `NumRetries` 2 on `connect-failure,refused-stream,unavailable,cancelled,retriable-status-codes`
/// with the `previous_hosts` predicate; istiod pushes an EndpointSlice change after
/// `PILOT_DEBOUNCE_AFTER` (100 ms) of quiet (`pilot/pkg/features`).
pub const ENVOY_PROXY: Proxy = Proxy {
    tries: 3,
    other_host: true,
    retries_timeout: false,
    delay: 100,
    spread: [0, 0],
};

/// ingress-nginx (`internal/ingress/controller/config/config.go` `NewDefault`):
/// `proxy-next-upstream` "error timeout", `proxy-next-upstream-tries` 3; the controller syncs
/// at most `--sync-rate-limit` 0.3 times a second (a token bucket of burst 1: up to 3.334 s),
/// and each worker reads the posted endpoints every `BACKENDS_SYNC_INTERVAL` (1 s,
/// `rootfs/etc/nginx/lua/balancer.lua`).
pub const NGINX_PROXY: Proxy = Proxy {
    tries: 3,
    other_host: false,
    retries_timeout: true,
    delay: 0,
    spread: [3_334, SECOND],
};

/// A client override, by its JSON name (also its serde name).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
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

/// One client library: the numbers the engine runs on. The library's own names for its settings
/// are in [`MESSAGE_NAMES`] (the four a message prints) and in the documentation's table, which
/// the tests hold, so that no wasm file carries text only the documentation shows.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Library {
    /// The name a scenario writes.
    pub name: &'static str,
    /// How it keeps connections.
    pub style: Style,
    /// Per [`Knob::ALL`], the default (ms, or a count for `keepaliveProbes`; 0 is none); `None`:
    /// it has no such setting, and the override is refused.
    pub defaults: [Option<i64>; 7],
    /// Whether `tcpUserTimeout` applies only once `keepaliveTime` is set (grpc-go's
    /// `http2_client.go`: `if kp.Time != infinity { SetTCPUserTimeout(conn, kp.Timeout) }`).
    pub user_timeout_needs_keepalive: bool,
    /// Go before 1.23: `Dialer.KeepAlive` sets both the idle time and the interval
    /// (`setKeepAlivePeriod`), so the interval's default is this, ms.
    pub older_go_interval: Option<Millis>,
    /// A proxy's endpoints and retries ([`Style::Proxy`]).
    pub proxy: Option<Proxy>,
}

impl Library {
    /// The library's default for `k`; `None`: it has no such setting.
    pub fn default(&self, k: Knob) -> Option<i64> {
        self.defaults[k as usize]
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
pub const LIBRARIES: [Library; 7] = [
    Library {
        name: "linux",
        style: Style::PerRequest,
        defaults: [Some(0), Some(0), Some(0), Some(0), Some(0), Some(0), None],
        user_timeout_needs_keepalive: false,
        older_go_interval: None,
        proxy: None,
    },
    Library {
        name: "go-http",
        style: Style::Pool,
        defaults: [
            Some(30 * SECOND),
            Some(0),
            Some(30 * SECOND),
            Some(15 * SECOND),
            Some(9),
            Some(0),
            Some(90 * SECOND),
        ],
        user_timeout_needs_keepalive: false,
        older_go_interval: Some(30 * SECOND),
        proxy: None,
    },
    Library {
        name: "grpc-go",
        style: Style::Multiplexed,
        defaults: [
            Some(20 * SECOND),
            Some(0),
            Some(0),
            Some(0),
            Some(0),
            Some(GRPC_KEEPALIVE_TIMEOUT),
            None,
        ],
        user_timeout_needs_keepalive: true,
        older_go_interval: None,
        proxy: None,
    },
    Library {
        name: "java-httpclient",
        style: Style::Pool,
        defaults: [Some(0), Some(0), Some(0), Some(0), Some(0), Some(0), Some(30 * SECOND)],
        user_timeout_needs_keepalive: false,
        older_go_interval: None,
        proxy: None,
    },
    Library {
        name: "okhttp",
        style: Style::Pool,
        defaults: [
            Some(10 * SECOND),
            Some(10 * SECOND),
            Some(0),
            Some(0),
            Some(0),
            Some(0),
            Some(5 * MINUTE),
        ],
        user_timeout_needs_keepalive: false,
        older_go_interval: None,
        proxy: None,
    },
    Library {
        name: "envoy",
        style: Style::Proxy,
        // Istio gives every cluster the mesh's `connectTimeout`, 10 s (Envoy's own default is
        // 5 s); VirtualService `timeout` is off by default; the upstream pool's idle timeout
        // is 1 h (DestinationRule `connectionPool.http.idleTimeout`); no TCP keepalive unless
        // `connectionPool.tcp.tcpKeepalive` sets it.
        defaults: [Some(10 * SECOND), Some(0), Some(0), Some(0), Some(0), None, Some(HOUR)],
        user_timeout_needs_keepalive: false,
        older_go_interval: None,
        proxy: Some(ENVOY_PROXY),
    },
    Library {
        name: "ingress-nginx",
        style: Style::Proxy,
        // `proxy-connect-timeout` 5 s, `proxy-read-timeout` 60 s, `upstream-keepalive-timeout`
        // 60 s; no TCP keepalive or user timeout of its own.
        defaults: [Some(5 * SECOND), Some(MINUTE), None, None, None, None, Some(MINUTE)],
        user_timeout_needs_keepalive: false,
        older_go_interval: None,
        proxy: Some(NGINX_PROXY),
    },
];

/// The knobs whose library name a message prints, in [`MESSAGE_NAMES`]' order: the timeouts
/// the clients' causes name, and the keepalive time the advice on grpc-go names
/// (`advice::clients`).
pub const NAMED: [Knob; 4] = [
    Knob::ConnectTimeout,
    Knob::RequestTimeout,
    Knob::TcpUserTimeout,
    Knob::KeepaliveTime,
];

/// Per row of [`LIBRARIES`], the library's own names for the settings of [`NAMED`].
pub const MESSAGE_NAMES: [[&str; 4]; 7] = [
    [
        "the application's connect deadline",
        "the application's deadline",
        "TCP_USER_TIMEOUT",
        "TCP_KEEPIDLE",
    ],
    [
        "net.Dialer.Timeout",
        "http.Client.Timeout",
        "TCP_USER_TIMEOUT",
        "net.KeepAliveConfig.Idle",
    ],
    [
        "grpc.ConnectParams.MinConnectTimeout",
        "the RPC's context deadline",
        "keepalive.ClientParameters.Timeout",
        "keepalive.ClientParameters.Time",
    ],
    [
        "HttpClient.Builder.connectTimeout",
        "HttpRequest.Builder.timeout",
        "TCP_USER_TIMEOUT",
        "TCP_KEEPIDLE",
    ],
    [
        "OkHttpClient.Builder.connectTimeout",
        "OkHttpClient.Builder.readTimeout",
        "TCP_USER_TIMEOUT",
        "TCP_KEEPIDLE",
    ],
    [
        "DestinationRule connectionPool.tcp.connectTimeout",
        "VirtualService timeout",
        "TCP_USER_TIMEOUT",
        "DestinationRule connectionPool.tcp.tcpKeepalive.time",
    ],
    ["proxy-connect-timeout", "proxy-read-timeout", "TCP_USER_TIMEOUT", ""],
];

/// Library `library`'s own name for `k`, one of [`NAMED`]; empty for another knob or library.
pub fn message_name(library: &str, k: Knob) -> &'static str {
    let row = LIBRARIES.iter().position(|l| l.name == library);
    let col = NAMED.iter().position(|&n| n == k);
    match (row, col) {
        (Some(r), Some(c)) => MESSAGE_NAMES[r][c],
        _ => "",
    }
}

/// The library a scenario's name names.
pub fn by_name(name: &str) -> Option<&'static Library> {
    LIBRARIES.iter().find(|l| l.name == name)
}

/// The libraries' names, for a message: `linux, go-http, …`.
pub fn names() -> String {
    let mut out = String::new();
    for l in &LIBRARIES {
        if !out.is_empty() {
            out.push_str(", ");
        }
        out.push_str(l.name);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Per row of [`LIBRARIES`], the library's own names for `keepaliveInterval`,
    /// `keepaliveProbes` and `idleConnTimeout` (empty where it has none),
    /// and where its defaults are read from, by upstream's public names: what only the
    /// documentation shows.
    const DOC: [([&str; 3], &str); 7] = [
        (
            ["TCP_KEEPINTVL", "TCP_KEEPCNT", ""],
            "Linux tcp(7): tcp_syn_retries, tcp_retries2, tcp_keepalive_*",
        ),
        (
            [
                "net.KeepAliveConfig.Interval",
                "net.KeepAliveConfig.Count",
                "http.Transport.IdleConnTimeout",
            ],
            "Go net/http DefaultTransport; Go net.Dialer KeepAliveConfig (1.23+)",
        ),
        (
            ["TCP_KEEPINTVL", "TCP_KEEPCNT", ""],
            "grpc-go keepalive.ClientParameters, internal/transport http2_client.go, backoff.Config",
        ),
        (
            ["TCP_KEEPINTVL", "TCP_KEEPCNT", "jdk.httpclient.keepalive.timeout"],
            "JDK java.net.http HttpClient (module-info: jdk.httpclient.keepalive.timeout)",
        ),
        (
            ["TCP_KEEPINTVL", "TCP_KEEPCNT", "ConnectionPool keepAliveDuration"],
            "OkHttp OkHttpClient.Builder, ConnectionPool",
        ),
        (
            [
                "DestinationRule connectionPool.tcp.tcpKeepalive.interval",
                "DestinationRule connectionPool.tcp.tcpKeepalive.probes",
                "DestinationRule connectionPool.http.idleTimeout",
            ],
            "Istio mesh connectTimeout (10s; Envoy's own connect_timeout is 5s), route retry DefaultPolicy (2 retries, previous_hosts), PILOT_DEBOUNCE_AFTER 100ms",
        ),
        (
            ["", "", "upstream-keepalive-timeout"],
            "ingress-nginx config.go NewDefault (proxy-next-upstream error timeout, proxy-next-upstream-tries 3), --sync-rate-limit 0.3, balancer.lua BACKENDS_SYNC_INTERVAL 1s",
        ),
    ];

    /// The row docs/scenario-format.md shows for row `i`: each setting's default (a Go duration,
    /// a count, `none` or `—` where the library has no such setting) and its own name.
    fn doc_row(i: usize) -> String {
        let l = &LIBRARIES[i];
        let (names, source) = DOC[i];
        let mut out = format!("| `{}` |", l.name);
        let mut others = names.iter();
        for k in Knob::ALL {
            let name = match NAMED.iter().position(|&n| n == k) {
                Some(c) => MESSAGE_NAMES[i][c],
                None => others.next().expect("three other names"),
            };
            let cell = match l.default(k) {
                None => "—".to_string(),
                Some(0) => format!("none ({name})"),
                Some(default) if k == Knob::KeepaliveProbes => format!("{default} ({name})"),
                Some(default) => format!("{} ({name})", crate::time::format_go_duration(default)),
            };
            out.push_str(&format!(" {cell} |"));
        }
        out.push_str(&format!(" {source} |"));
        out
    }

    /// A knob's serde name is the one a scenario writes.
    #[test]
    fn a_knob_serializes_as_its_json_name() {
        for k in Knob::ALL {
            let json = serde_json::to_string(&k).expect("serializes");
            assert_eq!(json, format!("{:?}", k.json()));
            assert_eq!(serde_json::from_str::<Knob>(&json).ok(), Some(k));
        }
    }

    #[test]
    fn every_library_is_found_by_its_name() {
        for l in &LIBRARIES {
            assert_eq!(by_name(l.name), Some(l));
        }
        assert_eq!(by_name("nginx"), None);
        assert_eq!(
            names(),
            "linux, go-http, grpc-go, java-httpclient, okhttp, envoy, ingress-nginx"
        );
    }

    /// docs/scenario-format.md's library table is this one.
    #[test]
    fn the_documented_table_is_this_one() {
        let doc = include_str!("../../../../docs/scenario-format.md");
        for i in 0..LIBRARIES.len() {
            let row = doc_row(i);
            assert!(doc.contains(&row), "docs/scenario-format.md lacks the row\n{row}");
        }
    }
}

//! A scenario's clients (issue 37): each error names its field, and a client takes its
//! library's defaults and its own overrides. The page's build has no clients (the engine's
//! `clients` feature): `tests/web.rs` checks that it refuses them.

use crate::scenario_errors::err;
use kubelife_engine::Scenario;

/// A scenario with `w` behind a Service on nodes n1 and n2, and `clients`.
fn with_clients(clients: &str) -> String {
    format!(
        r#"{{"nodes": [{{"name": "n1"}}, {{"name": "n2"}}], "workloads": [{{"kind": "Deployment", "name": "w", "service": true}}, {{"kind": "Deployment", "name": "plain"}}],
        "events": [{{"at": "5s", "action": "NodeCrash", "node": "n1"}}], "clients": [{clients}]}}"#
    )
}

#[test]
fn a_clients_errors_name_its_field() {
    let cases = [
        (
            r#"{"name": "C", "target": "w", "library": "linux"}"#,
            "clients[0].name",
            "not a valid name",
        ),
        (
            r#"{"name": "c", "target": "ghost", "library": "linux"}"#,
            "clients[0].target",
            "no workload",
        ),
        (
            r#"{"name": "c", "target": "plain", "library": "linux"}"#,
            "clients[0].target",
            "no Service",
        ),
        (
            r#"{"name": "c", "target": "w", "library": "istio"}"#,
            "clients[0].library",
            "use one of linux, go-http, grpc-go, java-httpclient, okhttp, envoy, ingress-nginx",
        ),
        (
            r#"{"name": "c", "target": "w", "library": "ingress-nginx", "keepaliveTime": "30s"}"#,
            "clients[0].keepaliveTime",
            "ingress-nginx has no keepaliveTime: it sets no such option on its upstream connections",
        ),
        (
            r#"{"name": "c", "target": "w", "library": "envoy", "tcpUserTimeout": "20s"}"#,
            "clients[0].tcpUserTimeout",
            "envoy has no tcpUserTimeout",
        ),
        (
            r#"{"name": "c", "target": "w", "library": "linux", "from": "n9"}"#,
            "clients[0].from",
            "no node",
        ),
        (
            r#"{"name": "c", "target": "w", "library": "linux", "requestsPerSecond": 1e9}"#,
            "clients[0].requestsPerSecond",
            "at most 100000",
        ),
        (
            r#"{"name": "c", "target": "w", "library": "okhttp", "goVersion": "1.23"}"#,
            "clients[0].goVersion",
            "only go-http",
        ),
        (
            r#"{"name": "c", "target": "w", "library": "go-http", "goVersion": "1.12"}"#,
            "clients[0].goVersion",
            "no Go release",
        ),
        (
            r#"{"name": "c", "target": "w", "library": "go-http", "connectTimeout": "2h"}"#,
            "clients[0].connectTimeout",
            "between 0s and 1h0m0s",
        ),
        (
            r#"{"name": "c", "target": "w", "library": "go-http", "keepaliveProbes": 0}"#,
            "clients[0].keepaliveProbes",
            "between 1 and 127",
        ),
        (
            r#"{"name": "c", "target": "w", "library": "linux", "idleConnTimeout": "1s"}"#,
            "clients[0].idleConnTimeout",
            "linux has no idleConnTimeout",
        ),
        (
            r#"{"name": "c", "target": "w", "library": "linux"}, {"name": "c", "target": "w", "library": "okhttp"}"#,
            "clients[1].name",
            "already the name of clients[0]",
        ),
        (
            r#"{"name": "c", "target": "w", "library": "linux", "timeout": "1s"}"#,
            "clients[0]",
            "timeout",
        ),
    ];
    for (client, field, says) in cases {
        let e = err(&with_clients(client));
        assert!(e.field.starts_with(field), "{client}: field {}", e.field);
        assert!(e.to_string().contains(says), "{client}: {e}");
    }
    let e = err(
        &with_clients(r#"{"name": "c", "target": "w", "library": "linux"}"#).replace(
            r#""node": "n1""#,
            r#""node": "n2"}, {"at": "6s", "action": "NodeCrash", "node": "n1""#,
        ),
    );
    assert_eq!(
        (e.field.as_str(), e.reason.key),
        ("clients[0].from", "scenario.client.no_live_node")
    );
}

#[test]
fn a_client_takes_its_librarys_defaults_and_its_overrides() {
    let cfg = |client: &str| {
        Scenario::from_json(&with_clients(client))
            .unwrap()
            .resolve()
            .unwrap()
            .clients[0]
            .clone()
    };
    let go = cfg(r#"{"name": "c", "target": "w", "library": "go-http"}"#);
    // The first node no action faults; 10 requests a second.
    assert_eq!((go.from, go.rate, go.service), (Some(1), 10.0, 0));
    let p = go.params;
    assert_eq!(
        (
            p.connect_timeout,
            p.request_timeout,
            p.keepalive_time,
            p.keepalive_interval,
            p.keepalive_probes,
            p.idle_conn_timeout
        ),
        (30_000, 0, 30_000, 15_000, 9, 90_000)
    );
    let old =
        cfg(r#"{"name": "c", "target": "w", "library": "go-http", "goVersion": "1.22", "requestTimeout": "10s"}"#)
            .params;
    assert_eq!((old.keepalive_interval, old.request_timeout), (30_000, 10_000));
    // grpc-go's keepalive Timeout is TCP_USER_TIMEOUT only once keepaliveTime is set.
    let grpc = cfg(r#"{"name": "c", "target": "w", "library": "grpc-go"}"#).params;
    assert_eq!((grpc.tcp_user_timeout, grpc.connect_timeout), (0, 20_000));
    // An Istio sidecar gets the mesh's 10s connect timeout and no route timeout; ingress-nginx
    // its ConfigMap's proxy-connect-timeout, proxy-read-timeout and upstream-keepalive-timeout,
    // each overridable under the pinned names.
    let envoy = cfg(r#"{"name": "c", "target": "w", "library": "envoy"}"#).params;
    assert_eq!(
        (envoy.connect_timeout, envoy.request_timeout, envoy.idle_conn_timeout),
        (10_000, 0, 3_600_000)
    );
    let nginx = cfg(r#"{"name": "c", "target": "w", "library": "ingress-nginx", "connectTimeout": "2s"}"#).params;
    assert_eq!(
        (nginx.connect_timeout, nginx.request_timeout, nginx.idle_conn_timeout),
        (2_000, 60_000, 60_000)
    );
    let grpc = cfg(r#"{"name": "c", "target": "w", "library": "grpc-go", "keepaliveTime": "30s"}"#).params;
    assert_eq!((grpc.keepalive_time, grpc.tcp_user_timeout), (30_000, 20_000));
    let none = cfg(r#"{"name": "c", "target": "w", "library": "okhttp", "requestTimeout": "0s", "from": "n1"}"#);
    assert_eq!(
        (none.params.request_timeout, none.params.connect_timeout, none.from),
        (0, 10_000, Some(0))
    );
}

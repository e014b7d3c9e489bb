//! The presets with clients (issue 37), in the CLI only until the page runs clients (the engine's
//! `clients` feature): the default cluster on the newest version with `web` behind a Service,
//! node-1 crashing at 30 s, and one client on node-2. A client's connections are drawn from the
//! seed, so each preset names the seed that shows what it is about; `kubelife run --runs 200`
//! gives how often the others do.

use super::{default_cluster, Preset};
use crate::scenario::{ClientSection, DnsSection, GoDuration, Scenario, ServiceField, ServiceSection};
use crate::time::SECOND;

/// The default cluster with `web` behind a Service, run for `minutes` with `seed`, and `client`
/// calling it from node-2.
fn calling(newest: &str, minutes: i64, seed: u64, client: ClientSection) -> Scenario {
    let mut s = default_cluster(newest);
    s.workloads[0].service = Some(ServiceField::Enabled(true));
    s.duration_seconds = Some(minutes * 60);
    s.seed = Some(seed);
    s.clients = vec![ClientSection {
        from: Some("node-2".into()),
        ..client
    }];
    s
}

fn web(name: &str, library: &str) -> ClientSection {
    ClientSection {
        name: name.into(),
        target: "web".into(),
        library: library.into(),
        ..ClientSection::default()
    }
}

/// Two CoreDNS replicas, on node-1 (which crashes) and node-2, and a `kube-dns` client on node-3
/// with `resolver`.
fn dns(newest: &str, resolver: &str, node_local: bool) -> Scenario {
    let mut s = calling(newest, 10, 1, ClientSection::default());
    s.dns = Some(DnsSection {
        core_dns_replicas: Some(2),
        nodes: vec!["node-1".into(), "node-2".into()],
        node_local_dns_cache: node_local.then_some(true),
    });
    s.clients = vec![ClientSection {
        name: "lookups".into(),
        target: "kube-dns".into(),
        resolver: Some(resolver.into()),
        from: Some("node-3".into()),
        ..ClientSection::default()
    }];
    s
}

/// On AWS, `web` behind an NLB of the AWS Load Balancer Controller with `lb`'s targets, and a
/// Go client calling it from outside the cluster.
fn nlb(newest: &str, lb: &str, seed: u64) -> Scenario {
    let mut s = calling(newest, 10, seed, web("shop", "go-http"));
    s.cloud = Some(serde_json::from_str(r#"{"provider": "aws"}"#).expect("a cloud section"));
    s.workloads[0].service = Some(ServiceField::Object(ServiceSection {
        kind: Some("LoadBalancer".into()),
        load_balancer: Some(lb.into()),
        external_traffic_policy: None,
    }));
    s.clients[0].from = Some("external".into());
    s
}

/// The presets with clients, on the newest version.
pub fn presets(newest: &str) -> Vec<Preset> {
    let timeout = ClientSection {
        request_timeout: Some(GoDuration(10 * SECOND)),
        ..web("checkout", "go-http")
    };
    let keepalive = ClientSection {
        keepalive_time: Some(GoDuration(30 * SECOND)),
        ..web("orders", "grpc-go")
    };
    vec![
        Preset {
            name: "go-client-default",
            description: "a Go service calls web with http.DefaultClient: in this seed a pooled keep-alive connection is pinned to node-1's pod by conntrack, and a request written into it hangs until Linux's tcp_retries2 gives up, about 15m25s after the crash, while Kubernetes replaced the pod in about 6m",
            scenario: calling(newest, 20, 3, web("checkout", "go-http")),
        },
        Preset {
            name: "go-client-timeout",
            description: "the same Go service with http.Client.Timeout 10s: the request on the pinned connection fails after 10s and the connection is closed, so its errors end 10s after the crash",
            scenario: calling(newest, 20, 3, timeout),
        },
        Preset {
            name: "grpc-default",
            description: "a grpc-go client with default keepalive (off): in this seed its one connection goes to node-1's pod, and every RPC sent on it hangs until tcp_retries2 ends the connection, about 15m25s after the crash, then fails",
            scenario: calling(newest, 20, 3, web("orders", "grpc-go")),
        },
        Preset {
            name: "grpc-keepalive",
            description: "the same grpc-go client with keepalive Time 30s, which also sets TCP_USER_TIMEOUT to its 20s Timeout: the connection dies 20s after the crash and the client reconnects to a live pod",
            scenario: calling(newest, 20, 3, keepalive),
        },
        Preset {
            name: "coredns-dead-node-glibc",
            description: "one of two CoreDNS pods is on node-1: about half of glibc's lookups of a short name fail after 10s or more (each 5s try resent on the same 5-tuple) until kube-proxy drops the pod and deletes its UDP conntrack entries",
            scenario: dns(newest, "glibc", false),
        },
        Preset {
            name: "coredns-dead-node-musl",
            description: "the same with musl's resolver (Alpine): it resends every 2.5s on the same socket and gives up after 5s, so about half of the lookups fail until kube-proxy drops the pod",
            scenario: dns(newest, "musl", false),
        },
        Preset {
            name: "coredns-node-local-cache",
            description: "the same glibc lookups through NodeLocal DNSCache: it asks CoreDNS over TCP and retries the other pod, so no lookup fails while one CoreDNS pod answers",
            scenario: dns(newest, "glibc", true),
        },
        Preset {
            name: "aws-nlb-instance",
            description: "web behind an AWS NLB of the AWS Load Balancer Controller with instance targets, called by a Go client from outside the cluster: in this seed its pooled keep-alive connection goes through node-1, and the request written into it at the crash hangs: the NLB's health checks (3 × 10s, each timing out after 10s) call node-1 unhealthy 32.9s after the crash, and the NLB resets the flow at its next retransmission, 51.0s after the crash; the controller deregisters node-1 1s after its NodeUnknown, at 1m15.7s",
            scenario: nlb(newest, "aws-nlb-instance", 4),
        },
        Preset {
            name: "aws-nlb-ip",
            description: "the same NLB with ip targets: the Go client's connection goes to node-1's pod, and its request hangs: the NLB calls the pod unhealthy 32.9s after the crash and resets the flow at its next retransmission, 51.0s after the crash; the controller deregisters the pod 1s after its EndpointNotReady, at 1m15.7s",
            scenario: nlb(newest, "aws-nlb-ip", 4),
        },
    ]
}

#[cfg(test)]
mod tests {
    use crate::outcome::RunOptions;
    use crate::summary::ClientSummary;
    use crate::time::SECOND;

    const CRASH: i64 = 30 * SECOND;

    fn client(name: &str) -> ClientSummary {
        let p = super::super::preset(name).expect("a preset");
        let o = crate::run::run(&p.scenario.resolve().expect("valid"), &RunOptions::default());
        o.summary.clients[0].clone()
    }

    /// Each preset's run shows what its description says.
    #[test]
    fn each_client_preset_shows_its_description() {
        let go = client("go-client-default");
        assert_eq!((go.failed, go.worst_latency_ms), (1, 924_600), "{go:?}");
        assert!(
            go.last_error_ms
                .is_some_and(|t| (t - CRASH).abs_diff(924_600) < SECOND as u64),
            "{go:?}"
        );
        let timeout = client("go-client-timeout");
        assert!(
            timeout
                .last_error_ms
                .is_some_and(|t| (t - CRASH).abs_diff(10 * SECOND) < SECOND as u64),
            "{timeout:?}"
        );
        let grpc = client("grpc-default");
        assert!(
            grpc.failed > 9_000 && grpc.first_error_ms == grpc.last_error_ms,
            "{grpc:?}"
        );
        let keepalive = client("grpc-keepalive");
        assert!(
            keepalive
                .last_error_ms
                .is_some_and(|t| (t - CRASH).abs_diff(20 * SECOND) < SECOND as u64),
            "{keepalive:?}"
        );
        for (name, worst) in [
            ("coredns-dead-node-glibc", 10 * SECOND),
            ("coredns-dead-node-musl", 5 * SECOND),
        ] {
            let dns = client(name);
            // About half of the lookups sent between the crash and kube-proxy's update.
            let window = (dns.last_error_ms.unwrap() - dns.first_error_ms.unwrap()) / 100;
            let share = dns.failed as f64 / window as f64;
            assert!((0.35..0.65).contains(&share), "{name}: {share} of {dns:?}");
            assert!(dns.worst_latency_ms >= worst, "{name}: {dns:?}");
        }
        assert_eq!(client("coredns-node-local-cache").failed, 0);
    }

    /// The NLB presets: the target turns unhealthy 32.9s after the crash, the pinned request is
    /// reset at its next retransmission, 51.0s after the crash, and the controller deregisters
    /// the target at 1m15.7s.
    #[test]
    fn each_nlb_preset_shows_its_description() {
        use crate::timeline::EventKind;
        for name in ["aws-nlb-instance", "aws-nlb-ip"] {
            let p = super::super::preset(name).expect("a preset");
            let o = crate::run::run(&p.scenario.resolve().expect("valid"), &RunOptions::default());
            let c = &o.summary.clients[0];
            let reset = c.last_error_ms.map(|t| t - CRASH);
            assert!(
                c.failed == 1 && reset.is_some_and(|t| (t - 51_000).abs() < 50),
                "{name}: {c:?}"
            );
            let at = |kind| o.events.iter().find(|e| e.kind == kind).map(|e| e.at_ms);
            let unhealthy = at(EventKind::LoadBalancerTargetUnhealthy).map(|t| t - CRASH);
            assert!(
                unhealthy.is_some_and(|t| (t - 32_900).abs() < 50),
                "{name}: {unhealthy:?}"
            );
            let out = at(EventKind::LoadBalancerTargetDeregistered).expect("deregistered");
            assert!((out - 75_700).abs() < 50, "{name}: deregistered at {out}");
            let ended = o.events.iter().find(|e| e.kind == EventKind::ClientErrorsEnded);
            assert_eq!(ended.map(|e| e.cause.key), Some("cause.lb.reset"), "{name}");
        }
    }
}

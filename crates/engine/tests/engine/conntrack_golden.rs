//! kube-proxy's conntrack cleanup (issue 37; the clients spec's C1, C2 and DNS4–DNS6): the
//! tables of `pkg/proxy/conntrack/cleanup_test.go` (`TestCleanStaleEntries`,
//! `TestServiceWithoutEndpoints`, `TestDeletedUDPServices`, `TestDeletedUDPServicesIPReuse`)
//! checked against the rule the DNS clients follow, `upstream::conntrack::deletes`, per form.

use kubelife_engine::upstream::conntrack::{deletes, Cleanup, Endpoint, Flow, Frontend, Proto, Service};

/// The upstream tables' endpoints: serving, not serving, deleted (IPs 10.240.0.4, 10.240.1.5,
/// 10.240.2.6 at port 9090), and the serving one at its old port 8080.
const SERVING: Endpoint = Endpoint { ip: 4, port: 9090 };
const NOT_SERVING: Endpoint = Endpoint { ip: 5, port: 9090 };
const DELETED: Endpoint = Endpoint { ip: 6, port: 9090 };
const OLD_PORT: Endpoint = Endpoint { ip: 4, port: 8080 };

const IPS: [Frontend; 3] = [Frontend::ClusterIp, Frontend::LoadBalancerIp, Frontend::ExternalIp];
const PROTOS: [Proto; 3] = [Proto::Tcp, Proto::Udp, Proto::Sctp];

fn flow(proto: Proto, to: Frontend, service_port: bool, target: Option<Endpoint>) -> Flow {
    Flow {
        proto,
        to,
        service_port,
        target,
    }
}

/// One table: its spec number, the form, the Service, and each entry with whether it goes.
fn check(spec: &str, form: Cleanup, svc: &Service<'_>, entries: &[(Flow, bool)]) {
    let wrong: Vec<String> = entries
        .iter()
        .filter(|(f, gone)| deletes(form, f, svc) != *gone)
        .map(|(f, gone)| format!("{f:?}: expected {}", if *gone { "deleted" } else { "kept" }))
        .collect();
    assert!(wrong.is_empty(), "{spec} ({form:?}):\n{}", wrong.join("\n"));
}

/// `TestCleanStaleEntries`: 3 entries at the serving endpoint's old port, 63 entries (3
/// endpoints × 3 protocols × (3 IPs × 2 ports + the node port)), 6 not DNATed.
fn clean_stale_entries() -> Vec<(Flow, bool)> {
    let mut out: Vec<(Flow, bool)> = IPS
        .iter()
        .map(|&to| (flow(Proto::Udp, to, true, Some(OLD_PORT)), true))
        .collect();
    for target in [SERVING, NOT_SERVING, DELETED] {
        for proto in PROTOS {
            let stale = proto == Proto::Udp && target != SERVING;
            for to in IPS {
                for service_port in [true, false] {
                    out.push((flow(proto, to, service_port, Some(target)), stale && service_port));
                }
            }
            out.push((flow(proto, Frontend::NodePort, true, Some(target)), stale));
        }
    }
    for to in IPS {
        for service_port in [true, false] {
            out.push((flow(Proto::Udp, to, service_port, None), service_port));
        }
    }
    assert_eq!(out.len(), 3 + 63 + 6);
    out
}

/// C1 / DNS4 (1.32+): only UDP entries to a frontend whose reply source is not a serving
/// endpoint (or is at an old port) go; TCP, SCTP and other ports stay; entries not DNATed to
/// the Service's port go. The same in the reconciler and its fixed form.
#[test]
fn c1_dns4_the_reconciler_deletes_udp_entries_not_from_a_serving_endpoint() {
    let svc = Service {
        serving: Some(&[SERVING]),
        before: &[SERVING, NOT_SERVING],
    };
    let table = clean_stale_entries();
    // 3 at the old port, 6 + 2 from the 63, 3 not DNATed.
    assert_eq!(table.iter().filter(|e| e.1).count(), 14);
    check("C1", Cleanup::Reconciler, &svc, &table);
    check("DNS4", Cleanup::Fixed, &svc, &table);
}

/// C1 on ≤ 1.31 (`deleteStaleEndpointConntrackEntries`, no upstream table): an endpoint that
/// was ready and left has its UDP entries to the Service's IPs deleted on any port, and those
/// at the node port; entries not DNATed and TCP/SCTP stay.
#[test]
fn c1_before_1_32_the_endpoint_that_left_loses_its_udp_entries() {
    let svc = Service {
        serving: Some(&[SERVING]),
        before: &[SERVING, DELETED],
    };
    let mut table = Vec::new();
    for target in [Some(SERVING), Some(DELETED), None] {
        for proto in PROTOS {
            let gone = proto == Proto::Udp && target == Some(DELETED);
            for to in IPS {
                table.push((flow(proto, to, true, target), gone));
                table.push((flow(proto, to, false, target), gone));
            }
            table.push((flow(proto, Frontend::NodePort, true, target), gone));
        }
    }
    check("C1 (event form)", Cleanup::Event, &svc, &table);
}

/// `TestServiceWithoutEndpoints`, post-fix form: all UDP entries to the frontends' IPs at the
/// Service's port, whatever endpoint they went to; another port, TCP and the node port stay.
fn without_endpoints() -> Vec<(Flow, bool)> {
    let mut out = Vec::new();
    for to in IPS {
        for target in [SERVING, DELETED] {
            out.push((flow(Proto::Udp, to, true, Some(target)), true));
        }
    }
    out.push((flow(Proto::Udp, Frontend::ExternalIp, false, Some(DELETED)), false));
    out.push((flow(Proto::Tcp, Frontend::ExternalIp, true, Some(DELETED)), false));
    out.push((flow(Proto::Udp, Frontend::NodePort, true, Some(DELETED)), false));
    out
}

/// C2 (1.32–1.36): a Service with no endpoint is skipped; both entries stay (2 of 2).
#[test]
fn c2_the_1_32_reconciler_keeps_the_entries_of_a_service_without_endpoints() {
    let svc = Service {
        serving: Some(&[]),
        before: &[],
    };
    let two = [SERVING, DELETED].map(|t| (flow(Proto::Udp, Frontend::ExternalIp, true, Some(t)), false));
    check("C2", Cleanup::Reconciler, &svc, &two);
    let table: Vec<_> = without_endpoints().into_iter().map(|(f, _)| (f, false)).collect();
    check("C2 (whole table)", Cleanup::Reconciler, &svc, &table);
}

/// DNS5 (PR #139629): the same Service processed with an empty set.
#[test]
fn dns5_the_fixed_reconciler_deletes_the_entries_of_a_service_without_endpoints() {
    let svc = Service {
        serving: Some(&[]),
        before: &[],
    };
    check("DNS5", Cleanup::Fixed, &svc, &without_endpoints());
}

/// DNS6 (PR #141371): a deleted UDP Service loses every entry to its IPs at its port (not at
/// its node port); with its ClusterIP reused by a Service with a serving endpoint, entries to
/// that endpoint stay and the others go, at the node port too. 1.32–1.36 keep them all.
#[test]
fn dns6_a_deleted_udp_service_loses_its_entries_unless_its_ip_is_reused() {
    let deleted = Service {
        serving: None,
        before: &[],
    };
    check("DNS6 deleted", Cleanup::Fixed, &deleted, &without_endpoints());
    let kept: Vec<_> = without_endpoints().into_iter().map(|(f, _)| (f, false)).collect();
    check("DNS6 deleted, 1.32", Cleanup::Reconciler, &deleted, &kept);
    let reused = Service {
        serving: Some(&[SERVING]),
        before: &[],
    };
    let mut table: Vec<(Flow, bool)> = Vec::new();
    for to in IPS {
        table.push((flow(Proto::Udp, to, true, Some(SERVING)), false));
        table.push((flow(Proto::Udp, to, true, Some(DELETED)), true));
    }
    table.push((flow(Proto::Udp, Frontend::ExternalIp, false, Some(DELETED)), false));
    table.push((flow(Proto::Tcp, Frontend::ExternalIp, true, Some(DELETED)), false));
    table.push((flow(Proto::Udp, Frontend::NodePort, true, Some(SERVING)), false));
    table.push((flow(Proto::Udp, Frontend::NodePort, true, Some(DELETED)), true));
    check("DNS6 IP reuse", Cleanup::Fixed, &reused, &table);
}

/// The releases: ≤ 1.31 event-based, 1.32–1.36 the reconciler, 1.37 (taken for the fix) on.
#[test]
fn the_cleanup_form_follows_the_release() {
    let forms = [18, 31, 32, 36, 37].map(Cleanup::of_minor);
    assert_eq!(
        forms,
        [
            Cleanup::Event,
            Cleanup::Event,
            Cleanup::Reconciler,
            Cleanup::Reconciler,
            Cleanup::Fixed
        ]
    );
}

//! Load balancers in front of Services (issue 37): the golden cases C5–C8 and C10 of the clients
//! spec (`k8s-semantics-clients.md` §7) and its worked timelines T14–T19 (§6) as windows over
//! `SEEDS` seeds. Times are relative to the crash of node-1 at t = 30s, in ms.

use crate::clients::{run_seed, SEEDS};
use crate::common::of_kind;
use kubelife_engine::scenario::load_balancers::{
    in_node_set, node_targets, pod_targets, proxy_healthz, ready_change_syncs, LbEndpoint, LbKind, LbNode, Policy,
    PROFILES,
};
use kubelife_engine::scenario::Scenario;
use kubelife_engine::time::SECOND;
use kubelife_engine::{EventKind, Outcome};

const CRASH: i64 = 30_000;

/// Three one-node zones, `web` with three replicas behind a Service `service` (JSON), node-1
/// crashed at 30s, and the clients `clients` (a JSON list, maybe empty).
fn scenario(version: &str, service: &str, clients: &str) -> String {
    format!(
        r#"{{"version":"{version}","durationSeconds":400,
        "nodes":[{{"name":"node-1","zone":"a"}},{{"name":"node-2","zone":"b"}},{{"name":"node-3","zone":"c"}}],
        "workloads":[{{"kind":"Deployment","name":"web","replicas":3,"service":{service}}}],
        "events":[{{"at":"30s","action":"NodeCrash","node":"node-1"}}],
        "clients":{clients}}}"#
    )
}

/// A Service of type LoadBalancer with `lb` and `policy`.
fn service(lb: &str, policy: &str) -> String {
    format!(r#"{{"type":"LoadBalancer","loadBalancer":"{lb}","externalTrafficPolicy":"{policy}"}}"#)
}

/// One external client of `web` with `library`.
fn external(library: &str) -> String {
    format!(r#"[{{"name":"x","target":"web","from":"external","library":"{library}"}}]"#)
}

/// The first event of `kind` after the crash, relative to it.
fn first(o: &Outcome, kind: EventKind) -> Option<i64> {
    of_kind(o, kind).first().map(|e| e.at_ms - CRASH)
}

/// Over `SEEDS` seeds: the spread of the first `LoadBalancerTargetUnhealthy`, checked inside
/// `[lo, hi)`, and `each` of every run.
fn window(spec: &str, json: &str, (lo, hi): (i64, i64), each: impl Fn(&Outcome) -> Result<(), String>) {
    let (mut min, mut max) = (i64::MAX, i64::MIN);
    for seed in 1..=SEEDS {
        let o = run_seed(json, seed);
        let t = first(&o, EventKind::LoadBalancerTargetUnhealthy);
        let ok = t.is_some_and(|t| (lo..hi).contains(&t));
        let why = if ok {
            each(&o).err()
        } else {
            Some(format!("unhealthy at {t:?}"))
        };
        if let Some(why) = why {
            panic!(
                "{spec}, seed {seed}: {why}\n{}",
                kubelife_engine::render::render_timeline(&o)
            );
        }
        let t = t.expect("checked");
        (min, max) = (min.min(t), max.max(t));
    }
    eprintln!("{spec}: unhealthy {min}..={max} ms after the crash over {SEEDS} seeds, expected [{lo}, {hi})");
}

fn no_check(_: &Outcome) -> Result<(), String> {
    Ok(())
}

/// C5: kube-proxy's `/healthz` (`TestHealthzServer`): 200 when synced, 503 once an update waits
/// longer than 2 × syncPeriod, 503 for a deleted node or `ToBeDeletedByClusterAutoscaler`.
#[test]
fn c5_kube_proxy_healthz() {
    let sync = 30 * SECOND;
    assert_eq!(proxy_healthz(None, sync, false, false), 200);
    assert_eq!(proxy_healthz(Some(60 * SECOND), sync, false, false), 200);
    assert_eq!(proxy_healthz(Some(61 * SECOND), sync, false, false), 503);
    assert_eq!(proxy_healthz(None, sync, true, false), 503);
    assert_eq!(proxy_healthz(None, sync, false, true), 503);
}

/// C6: the service controller's node set. From 1.27 (`StableLoadBalancerNodeSet`) a node that
/// is not Ready stays, and its Ready change triggers no sync; before, it leaves.
#[test]
fn c6_stable_node_set_predicates() {
    let unknown = LbNode::default();
    assert!(in_node_set(27, unknown) && in_node_set(32, unknown));
    assert!(!in_node_set(26, unknown));
    assert!(in_node_set(26, LbNode { ready: true, ..unknown }));
    for minor in [26, 27, 32] {
        let tainted = LbNode {
            ready: true,
            to_be_deleted: true,
            ..unknown
        };
        assert!(!in_node_set(minor, tainted));
        assert!(!in_node_set(
            minor,
            LbNode {
                ready: true,
                excluded: true,
                ..unknown
            }
        ));
    }
    assert!(ready_change_syncs(26) && !ready_change_syncs(27));
}

/// C7: `Test_defaultEndpointResolver_ResolvePodEndpoints`: ready pods only when any is ready;
/// every unknown pod under fail-open when none is; none without fail-open.
#[test]
fn c7_pod_targets_fail_open() {
    let ready = LbEndpoint {
        ready: true,
        containers_ready: true,
        node_unknown: false,
    };
    let unknown = LbEndpoint {
        ready: false,
        containers_ready: true,
        node_unknown: true,
    };
    let gone = LbEndpoint {
        containers_ready: false,
        ..unknown
    };
    assert_eq!(pod_targets(&[ready, unknown, ready], true), vec![0, 2]);
    assert_eq!(pod_targets(&[unknown, gone, unknown], true), vec![0, 2]);
    assert_eq!(pod_targets(&[unknown, unknown], false), Vec::<usize>::new());
}

/// C8: `Test_defaultEndpointResolver_ResolveNodePortEndpoints`: ready nodes only; unknown nodes
/// only under fail-open when no node is ready.
#[test]
fn c8_node_targets_fail_open() {
    assert_eq!(node_targets(&[Some(true), None, Some(false)], true), vec![0]);
    assert_eq!(node_targets(&[None, Some(false), None], true), vec![0, 2]);
    assert_eq!(node_targets(&[None, None], false), Vec::<usize>::new());
}

/// C10: ingress-gce L4's health checks: shared (Cluster) 8s × 3, local 3s × 2.
#[test]
fn c10_gcp_l4_health_checks() {
    let row = |policy| {
        PROFILES
            .iter()
            .find(|p| p.kind == LbKind::GcpL4 && p.policy == Some(policy))
            .map(|p| (p.interval, p.timeout, p.healthy, p.unhealthy))
    };
    assert_eq!(row(Policy::Cluster), Some((8 * SECOND, SECOND, 1, 3)));
    assert_eq!(row(Policy::Local), Some((3 * SECOND, SECOND, 1, 2)));
}

/// T14: an NLB of the AWS Load Balancer Controller, instance targets, Cluster: the dead node is
/// unhealthy in [30s, 40s), and the flows still going through it are reset then; the controller
/// deregisters it 1s after its NodeUnknown.
#[test]
fn t14_lbc_nlb_instance_cluster() {
    let json = scenario("1.32", &service("aws-nlb-instance", "Cluster"), &external("linux"));
    window("T14", &json, (30_000, 40_000), |o| {
        let unknown = first(o, EventKind::NodeUnknown).ok_or("no NodeUnknown")?;
        let dereg = first(o, EventKind::LoadBalancerTargetDeregistered);
        if dereg != Some(unknown + SECOND) {
            return Err(format!("deregistered at {dereg:?}, NodeUnknown at {unknown}"));
        }
        // The reset answers the flow's next retransmission after the unhealthy time: sent after
        // the crash, its timeout doubles, so it comes within as long again (and a second).
        let unhealthy = first(o, EventKind::LoadBalancerTargetUnhealthy).expect("checked");
        for e in of_kind(o, EventKind::ClientErrorsEnded) {
            let reset = e.at_ms - CRASH;
            if e.cause.key == "cause.lb.reset" && !(unhealthy..=2 * unhealthy + SECOND).contains(&reset) {
                return Err(format!("reset at {reset}, unhealthy at {unhealthy}"));
            }
        }
        Ok(())
    });
}

/// T14, Local: the node with a ready local pod fails healthCheckNodePort in [16s, 26s).
#[test]
fn t14_lbc_nlb_instance_local() {
    let json = scenario("1.32", &service("aws-nlb-instance", "Local"), "[]");
    window("T14 Local", &json, (16_000, 26_000), no_check);
}

/// T15: ip targets: the dead pod is unhealthy in [30s, 40s) and deregistered after its
/// endpoint's NotReady; an external client's flows to it are reset after the unhealthy time.
#[test]
fn t15_lbc_nlb_ip() {
    let json = scenario("1.32", &service("aws-nlb-ip", "Cluster"), &external("go-http"));
    window("T15", &json, (30_000, 40_000), |o| {
        let e = of_kind(o, EventKind::LoadBalancerTargetUnhealthy)[0];
        if e.pod.is_none() || e.node.is_some() {
            return Err(format!("target {:?} {:?}", e.pod, e.node));
        }
        let not_ready = of_kind(o, EventKind::EndpointNotReady)
            .into_iter()
            .find(|n| n.pod == e.pod)
            .map(|n| n.at_ms - CRASH);
        match (first(o, EventKind::LoadBalancerTargetDeregistered), not_ready) {
            (Some(d), Some(n)) if d == n + SECOND => Ok(()),
            other => Err(format!("deregistered, NotReady: {other:?}")),
        }
    });
}

/// T16: the ALB: unhealthy in [20s, 35s); until then each request it sends to the dead node
/// gets a 504 after its 10s connect timeout, and so does each it sends through a live node to
/// the dead pod until TrafficStopped; the first request it sends to the dead node rides its
/// kept-alive connection there and gets a 504 after the 60s idle timeout.
#[test]
fn t16_lbc_alb() {
    let json = scenario("1.32", &service("aws-alb", "Cluster"), &external("linux"));
    window("T16", &json, (20_000, 35_000), |o| {
        let unhealthy = first(o, EventKind::LoadBalancerTargetUnhealthy).expect("checked");
        let ts = first(o, EventKind::TrafficStopped).ok_or("no TrafficStopped")?;
        let ends = of_kind(o, EventKind::ClientErrorsEnded);
        let (idle, connect): (Vec<&kubelife_engine::TimelineEvent>, Vec<_>) =
            ends.iter().partition(|e| e.cause.key == "cause.lb.alb_504_idle");
        if let Some(e) = connect.iter().find(|e| e.cause.key != "cause.lb.alb_504") {
            return Err(format!("ended by {}", e.cause.key));
        }
        if let Some(e) = connect.iter().find(|e| e.at_ms - CRASH > unhealthy.max(ts) + 10_000) {
            return Err(format!("a 10s 504 at {}", e.at_ms));
        }
        let worst = o.summary.clients[0].worst_latency_ms;
        // The idle 504 ends the episode unless a later 10s one does (a late TrafficStopped).
        match idle.as_slice() {
            [e] if (60_000..unhealthy + 60_000).contains(&(e.at_ms - CRASH)) && worst == 60_000 => Ok(()),
            [] if worst == 60_000 && ts + 10_000 > 60_000 => Ok(()),
            _ => Err(format!("idle 504s {idle:?}, worst wait {worst}")),
        }
    });
}

/// T16 with OkHttp: its own 10s `readTimeout` ends a request the ALB would hold for 60s.
#[test]
fn t16_a_clients_timeout_cuts_the_albs_waits() {
    let json = scenario("1.32", &service("aws-alb", "Cluster"), &external("okhttp"));
    window("T16 okhttp", &json, (20_000, 35_000), |o| {
        let worst = o.summary.clients[0].worst_latency_ms;
        let idle = of_kind(o, EventKind::ClientErrorsEnded)
            .iter()
            .any(|e| e.cause.key == "cause.lb.alb_504_idle");
        match (worst, idle) {
            (..=10_000, false) => Ok(()),
            _ => Err(format!("worst wait {worst}, idle 504 {idle}")),
        }
    });
}

/// T17: the in-tree NLB: unhealthy in [70s, 100s); on 1.32 the Ready change deregisters
/// nothing (StableLoadBalancerNodeSet).
#[test]
fn t17_in_tree_nlb() {
    let json = scenario("1.32", &service("aws-nlb-in-tree", "Cluster"), "[]");
    window("T17", &json, (70_000, 100_000), |o| {
        match of_kind(o, EventKind::LoadBalancerTargetDeregistered).len() {
            0 => Ok(()),
            n => Err(format!("{n} deregistrations")),
        }
    });
}

/// T17 before 1.27: the Ready change triggers the node sync that drops the node.
#[test]
fn t17_in_tree_nlb_before_the_stable_node_set() {
    let json = scenario("1.26", &service("aws-nlb-in-tree", "Cluster"), "[]");
    window("T17 1.26", &json, (70_000, 100_000), |o| {
        let ready = of_kind(o, EventKind::NodeUnknown).first().map(|e| e.at_ms - CRASH);
        match first(o, EventKind::LoadBalancerTargetDeregistered) {
            Some(d) if Some(d) == ready => Ok(()),
            other => Err(format!("deregistered at {other:?}, Unknown at {ready:?}")),
        }
    });
}

/// §3.4: the in-tree Classic ELB: 10s × 6 with a 5s timeout, unhealthy in [55s, 65s).
#[test]
fn t17_in_tree_clb() {
    let json = scenario("1.32", &service("aws-clb-in-tree", "Cluster"), "[]");
    window("CLB", &json, (55_000, 65_000), no_check);
}

/// T18: GCP L4: Cluster [17s, 25s), Local [4s, 7s).
#[test]
fn t18_gcp_l4() {
    window(
        "T18 Cluster",
        &scenario("1.32", &service("gcp-l4", "Cluster"), "[]"),
        (17_000, 25_000),
        no_check,
    );
    window(
        "T18 Local",
        &scenario("1.32", &service("gcp-l4", "Local"), "[]"),
        (4_000, 7_000),
        no_check,
    );
}

/// T19: Azure: 5s × 2, unhealthy in [10s, 15s).
#[test]
fn t19_azure() {
    window(
        "T19",
        &scenario("1.32", &service("azure", "Cluster"), "[]"),
        (10_000, 15_000),
        no_check,
    );
}

/// Without a load balancer nothing of it appears.
#[test]
fn a_cluster_ip_service_has_no_load_balancer_events() {
    let json = scenario("1.32", r#"{"type":"ClusterIP"}"#, "[]");
    let o = run_seed(&json, 1);
    assert!(first(&o, EventKind::LoadBalancerTargetUnhealthy).is_none());
    let plain = run_seed(&scenario("1.32", "true", "[]"), 1);
    assert_eq!(o.events, plain.events);
}

/// The Service object's errors name their field.
#[test]
fn the_service_object_is_checked() {
    let refused = [
        (r#"{"type":"NodePort"}"#, "", "workloads[0].service.type"),
        (
            r#"{"type":"LoadBalancer","loadBalancer":"f5"}"#,
            "",
            "workloads[0].service.loadBalancer",
        ),
        (
            r#"{"type":"LoadBalancer","loadBalancer":"azure","externalTrafficPolicy":"Node"}"#,
            "",
            "workloads[0].service.externalTrafficPolicy",
        ),
        (r#"{"loadBalancer":"azure"}"#, "", "workloads[0].service.loadBalancer"),
        (
            r#"{"externalTrafficPolicy":"Local"}"#,
            "",
            "workloads[0].service.externalTrafficPolicy",
        ),
        (r#"{"type":"LoadBalancer"}"#, "", "workloads[0].service.loadBalancer"),
        (
            r#"{"type":"LoadBalancer","loadBalancer":"gcp-l4"}"#,
            r#""cloud":{"provider":"aws"},"#,
            "workloads[0].service.loadBalancer",
        ),
        ("true", "", "clients[0].from"),
    ];
    // A proxy runs in the cluster: from outside, the client is whatever calls it.
    let proxy = scenario(
        "1.32",
        r#"{"type":"LoadBalancer","loadBalancer":"azure"}"#,
        &external("envoy"),
    );
    let err = Scenario::from_json(&proxy)
        .and_then(|s| s.resolve())
        .expect_err("envoy from outside");
    assert_eq!(
        (err.field.as_str(), err.reason.key),
        ("clients[0].from", "scenario.client.external_proxy")
    );
    for (service, cloud, field) in refused {
        let json = scenario("1.32", service, &external("linux")).replacen('{', &format!("{{{cloud}"), 1);
        let err = Scenario::from_json(&json).and_then(|s| s.resolve()).expect_err(service);
        assert_eq!(err.field, field, "{service}");
    }
    // The provider's default: cloud-provider-aws makes a Classic ELB.
    let json = scenario("1.32", r#"{"type":"LoadBalancer"}"#, "[]").replacen('{', r#"{"cloud":{"provider":"aws"},"#, 1);
    let cfg = Scenario::from_json(&json).unwrap().resolve().unwrap();
    assert_eq!(
        cfg.workloads[0].load_balancer.map(|l| l.kind),
        Some(LbKind::AwsClbInTree)
    );
    // `true` is written back as `true`.
    let s = Scenario::from_json(&scenario("1.32", "true", "[]")).unwrap();
    assert!(s.to_json().contains(r#""service": true"#) || s.to_json().contains(r#""service":true"#));
}

/// The web Deployment of [`scenario`] with one replica.
fn alone(json: &str) -> String {
    json.replace(r#""replicas":3"#, r#""replicas":1"#).replace("400", "700")
}

/// AWS NLB fail-open (ip targets): when the only target is unhealthy the NLB keeps sending to
/// it, resets nothing, and refuses no flow; the controller's resolver keeps the NotReady
/// endpoint registered (EndpointsFailOpen, C7) until the replacement's endpoint is ready.
#[test]
fn an_nlb_fails_open_when_its_only_target_dies() {
    let json = alone(&scenario("1.32", &service("aws-nlb-ip", "Cluster"), &external("linux")));
    window("fail-open", &json, (30_000, 40_000), |o| {
        let u = of_kind(o, EventKind::LoadBalancerTargetUnhealthy)[0];
        if u.cause.key != "cause.lb.unhealthy_fail_open" {
            return Err(format!("unhealthy: {}", u.cause.key));
        }
        let replaced = of_kind(o, EventKind::EndpointReady)
            .into_iter()
            .find(|e| e.pod != u.pod && e.at_ms > CRASH)
            .ok_or("no replacement")?;
        let dereg = of_kind(o, EventKind::LoadBalancerTargetDeregistered);
        match dereg.as_slice() {
            [d] if d.at_ms == replaced.at_ms + SECOND && d.cause.key == "cause.lb.deregistered_pod_fail_open" => {}
            other => {
                return Err(format!(
                    "deregistered {other:?}, replacement ready at {}",
                    replaced.at_ms
                ))
            }
        }
        let ends = of_kind(o, EventKind::ClientErrorsEnded);
        match ends
            .iter()
            .find(|e| matches!(e.cause.key, "cause.lb.reset" | "cause.client.no_endpoints"))
        {
            Some(e) => Err(format!("{} at {}", e.cause.key, e.at_ms)),
            // Every SYN the NLB sent to the dead pod until the deregistration got no answer.
            None if ends.iter().all(|e| e.cause.key == "cause.client.syn_retries") => Ok(()),
            None => Err(format!(
                "ended by {:?}",
                ends.iter().map(|e| e.cause.key).collect::<Vec<_>>()
            )),
        }
    });
}

/// Azure documents no fail-open ("When a health probe fails, the load balancer will stop
/// sending new connections to the respective unhealthy instance"): with `Local` and its only
/// pod dead, the probe marks the target unhealthy and the load balancer stops sending to it.
#[test]
fn azure_does_not_fail_open() {
    let json = alone(&scenario("1.32", &service("azure", "Local"), &external("linux")));
    window("azure, only target", &json, (10_000, 15_000), |o| {
        let u = of_kind(o, EventKind::LoadBalancerTargetUnhealthy)[0];
        match u.cause.key {
            "cause.lb.unhealthy_health_check_node_port" => Ok(()),
            other => Err(format!("unhealthy: {other}")),
        }
    });
}

/// An external client is followed through the load balancer within documented bounds: 1,000
/// nodes, and 100,000 (node, pod) pairs for `Cluster` instance targets, whose flows go node
/// then pod; ip targets have no pairs.
#[test]
fn an_external_client_stays_within_its_limits() {
    let json = |nodes: usize, replicas: u32, lb: &str| {
        let list: Vec<String> = (0..nodes).map(|i| format!(r#"{{"name":"n{i}"}}"#)).collect();
        format!(
            r#"{{"cloud":{{"provider":"aws"}},"nodes":[{}],"workloads":[{{"kind":"Deployment","name":"web","replicas":{replicas},"service":{}}}],"clients":{}}}"#,
            list.join(","),
            service(lb, "Cluster"),
            external("linux")
        )
    };
    let resolve = |s: String| Scenario::from_json(&s).and_then(|s| s.resolve());
    for (nodes, replicas, lb, ok) in [
        (400, 250, "aws-nlb-instance", true),
        (400, 251, "aws-nlb-instance", false),
        (400, 251, "aws-nlb-ip", true),
        (1_000, 3, "aws-nlb-ip", true),
        (1_001, 3, "aws-nlb-ip", false),
    ] {
        match resolve(json(nodes, replicas, lb)) {
            Ok(_) if ok => {}
            Err(e) if !ok && e.field == "clients[0].from" && e.reason.key == "scenario.client.external_limit" => {}
            other => panic!("{nodes} nodes, {replicas} pods, {lb}: {:?}", other.map(|_| ())),
        }
    }
}

/// A target back after its machine's recovery rejoins: node-1 recovers at 2m0s, its target
/// (deregistered by the controller at its NodeUnknown or NotReady) is registered again and
/// healthy after 3 × 10s probes; node-2's crash at 4m0s then sends `share` of the flows to dead
/// ends, as with all three targets in the rotation (4/6 and 1/2 if node-1 had stayed out).
#[test]
fn a_recovered_target_rejoins_the_rotation() {
    for (lb, share) in [("aws-nlb-instance", "5/9"), ("aws-nlb-ip", "1/3")] {
        let json = scenario("1.32", &service(lb, "Cluster"), &external("linux")).replace(
            r#""events":["#,
            r#""events":[{"at":"120s","action":"NodeRecover","node":"node-1"},{"at":"240s","action":"NodeCrash","node":"node-2"},"#,
        );
        window(lb, &json, (30_000, 40_000), |o| {
            if of_kind(o, EventKind::LoadBalancerTargetDeregistered).len() != 2 {
                return Err("not two deregistrations".into());
            }
            let started = of_kind(o, EventKind::ClientErrorsStarted)
                .into_iter()
                .find(|e| e.at_ms >= 240_000)
                .ok_or("no errors after node-2's crash")?;
            match started.cause.args.iter().find(|a| a.0 == "share") {
                Some((_, kubelife_engine::cause::Arg::Text(s))) if s == share => Ok(()),
                other => Err(format!("share {other:?}")),
            }
        });
    }
}

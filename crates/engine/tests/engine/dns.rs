//! What a pod's name lookups meet when a node with a CoreDNS replica dies (issue 37, the clients
//! spec's part B): the worked timelines of §4 (W1–W3, W5, W7), the failure shares of DNS17 and
//! the `dns` section's checks, as windows over many seeds. Times are relative to the crash of
//! node-1 at t = 30s, in ms; `TS` is the moment kube-proxy's rules dropped the dead CoreDNS pod.

use crate::clients::{client, run_seed};
use crate::common::of_kind;
use crate::scenario_errors::err;
use kubelife_engine::{EventKind, Outcome, Scenario};

const CRASH: i64 = 30_000;
/// Seeds per window.
const SEEDS: u64 = 200;

/// Three one-node zones, `web` behind a Service, CoreDNS's replicas on `dns_nodes`, node-1
/// crashed at 30s, and one client `c` of kube-dns on node-3 with the members `client`.
fn scenario(version: &str, dns: &str, client: &str) -> String {
    format!(
        r#"{{"version":"{version}","durationSeconds":900,
        "nodes":[{{"name":"node-1","zone":"a"}},{{"name":"node-2","zone":"b"}},{{"name":"node-3","zone":"c"}}],
        "workloads":[{{"kind":"Deployment","name":"web","replicas":3,"service":true}}],
        "dns":{{{dns}}},
        "events":[{{"at":"30s","action":"NodeCrash","node":"node-1"}}],
        "clients":[{{"name":"c","target":"kube-dns","from":"node-3"{client}}}]}}"#
    )
}

/// One of two CoreDNS replicas on the crashed node.
const ONE_OF_TWO: &str = r#""coreDnsReplicas":2,"nodes":["node-1","node-2"]"#;
/// Both replicas on the crashed node (kubeadm init's placement).
const BOTH: &str = r#""coreDnsReplicas":2,"nodes":["node-1","node-1"]"#;

/// When `service`'s rules first changed after the crash (`TrafficStopped` or `TrafficStarted`
/// of `kind`), relative to it.
fn traffic(o: &Outcome, kind: EventKind, service: &str) -> i64 {
    of_kind(o, kind)
        .iter()
        .find(|e| e.service.as_deref() == Some(service))
        .map(|e| e.at_ms - CRASH)
        .expect("the proxies change CoreDNS's rules")
}

/// What a window over the seeds saw: the least and most of each measure, ms from the crash
/// (`share`: in thousandths).
#[derive(Debug)]
struct Span {
    ts: (i64, i64),
    first: (i64, i64),
    last: (i64, i64),
    after_ts: (i64, i64),
    share: (i64, i64),
}

fn widen(r: &mut (i64, i64), v: i64) {
    *r = (r.0.min(v), r.1.max(v));
}

/// One-of-two runs over the seeds of a client with `members`, whose every episode ends with
/// `key`: TS, first and last error, the last error after TS, and the failed share of the
/// lookups sent from the crash to TS.
fn one_of_two(version: &str, members: &str, key: &str) -> Span {
    let json = scenario(version, ONE_OF_TWO, members);
    let none = (i64::MAX, i64::MIN);
    let mut s = Span {
        ts: none,
        first: none,
        last: none,
        after_ts: none,
        share: none,
    };
    for seed in 1..=SEEDS {
        let o = run_seed(&json, seed);
        let ts = traffic(&o, EventKind::TrafficStopped, "kube-dns");
        let c = client(&o);
        let first = c.first_error_ms.expect("a lookup failed") - CRASH;
        let last = c.last_error_ms.expect("a lookup failed") - CRASH;
        widen(&mut s.ts, ts);
        widen(&mut s.first, first);
        widen(&mut s.last, last);
        widen(&mut s.after_ts, last - ts);
        // 10 lookups a second from the crash to TS.
        widen(&mut s.share, c.failed as i64 * 100_000 / ts);
        let ended = of_kind(&o, EventKind::ClientErrorsEnded);
        let keys: Vec<&str> = ended.iter().map(|e| e.cause.key).collect();
        assert_eq!(keys, [key], "seed {seed}: one episode");
    }
    s
}

fn inside(what: &str, got: (i64, i64), lo: i64, hi: i64) {
    assert!(lo <= got.0 && got.1 <= hi, "{what}: {got:?} outside [{lo}, {hi}]");
}

/// W1 (1.32+): glibc, one of two CoreDNS pods on the dead node. Half of the short lookups sent
/// before TS − 5 s fail, the first 10 s (both tries on one 5-tuple) or 15–20 s (the bare name's
/// first try hit the dead pod too) after it began; the last error comes at most TS + 5 s ≤ 66.2 s.
#[test]
fn w1_glibc_one_of_two_coredns_dead_fails_half_the_lookups_until_ts_plus_5s() {
    let s = one_of_two("1.32", "", "cause.client.dns_glibc");
    inside("TS", s.ts, 39_700, 61_200);
    inside("first error", s.first, 10_000, 22_000);
    inside("last error after TS", s.after_ts, 4_000, 5_000);
    inside("last error", s.last, 44_000, 66_200);
    // 1/2 × (TS − 5 s) / TS.
    inside("failed share ‰", s.share, 420, 470);
}

/// W1 on 1.31: the node grace is 40 s, so TS is 10 s earlier, (29.7, 46.2] (≤ 51.2), and the
/// last error at most 56.2 s.
#[test]
fn w1_on_1_31_the_window_ends_10s_sooner() {
    let s = one_of_two("1.31", "", "cause.client.dns_glibc");
    inside("TS", s.ts, 29_700, 51_200);
    inside("last error after TS", s.after_ts, 4_000, 5_000);
    inside("last error", s.last, 34_000, 56_200);
    inside("failed share ‰", s.share, 400, 460);
}

/// W2: musl resends on one socket every 2.5 s and gives up at 5 s: half of the short lookups
/// fail after 5 s; the last error comes at most TS + 2.5 s.
#[test]
fn w2_musl_fails_half_the_lookups_after_5s_until_ts_plus_2_5s() {
    let s = one_of_two("1.32", r#","resolver":"musl""#, "cause.client.dns_musl");
    inside("first error", s.first, 5_000, 8_000);
    inside("last error after TS", s.after_ts, 1_500, 2_500);
    inside("last error", s.last, 42_000, 63_700);
    inside("failed share ‰", s.share, 440, 490);
}

/// W3: Go dials a new socket per attempt, so a lookup fails only when both attempts of its A
/// query reach the dead pod: a quarter, "no such host" 10 s after it began; last ≤ TS + 5 s.
#[test]
fn w3_go_fails_a_quarter_of_the_lookups_until_ts_plus_5s() {
    let s = one_of_two("1.32", r#","resolver":"go""#, "cause.client.dns_go");
    inside("first error", s.first, 10_000, 16_000);
    inside("last error after TS", s.after_ts, 2_500, 5_000);
    inside("failed share ‰", s.share, 190, 240);
}

/// DNS17 for an external name (h = 0: three search candidates, then the name): musl ends the
/// lookup at the first dead candidate, 1 − (1/2)^4 = 15/16; glibc's last query is always the
/// name itself, 1/2 (less near TS); Go's is 1/4 as for a short name.
#[test]
fn dns17_external_names_fail_15_16_with_musl_half_with_glibc_a_quarter_with_go() {
    let external = r#","lookup":"external""#;
    let musl = one_of_two(
        "1.32",
        &format!(r#"{external},"resolver":"musl""#),
        "cause.client.dns_musl",
    );
    inside("musl failed share ‰", musl.share, 860, 920);
    let glibc = one_of_two("1.32", external, "cause.client.dns_glibc");
    // 1/2 × (TS − 15 s) / TS, and 1/16 in the 10 s after: the path through a timed-out
    // search candidate asks for the name itself 10 s later, through the new rules.
    inside("glibc failed share ‰", glibc.share, 300, 400);
    inside("glibc last error after TS", glibc.after_ts, 0, 5_000);
    let go = one_of_two("1.32", &format!(r#"{external},"resolver":"go""#), "cause.client.dns_go");
    inside("go failed share ‰", go.share, 190, 240);
}

/// W5: with NodeLocal DNSCache the cache asks CoreDNS over TCP and retries another
/// connection: no lookup fails while one CoreDNS pod answers, where the same runs without it
/// fail.
#[test]
fn w5_node_local_dns_cache_fails_no_lookup_with_one_coredns_pod_left() {
    let cached = scenario("1.32", &format!(r#"{ONE_OF_TWO},"nodeLocalDnsCache":true"#), "");
    let bare = scenario("1.32", ONE_OF_TWO, "");
    for seed in 1..=SEEDS {
        assert_eq!(client(&run_seed(&cached, seed)).failed, 0, "seed {seed}");
        assert!(client(&run_seed(&bare, seed)).failed > 0, "seed {seed}");
    }
}

/// W7: both CoreDNS pods on the dead node. Every lookup times out until TS, then kube-proxy's
/// reject rule refuses them (glibc at once; musl's unconnected socket waits 5 s) until the
/// replacement CoreDNS pod is in the rules: T_D (344.6–360.1 s on 1.32, up to 5 s more with the
/// lease quirk) + start (5 s) + a sync; measured 350.4–366.6 s, 10 s less on 1.31.
#[test]
fn w7_both_coredns_pods_dead_every_lookup_fails_until_the_replacement_is_in_the_rules() {
    for (version, members, key, wait, td) in [
        ("1.32", "", "cause.client.dns_refused", 0, (349_600, 367_000)),
        (
            "1.31",
            r#","resolver":"musl""#,
            "cause.client.dns_refused_musl",
            5_000,
            (339_600, 357_000),
        ),
    ] {
        let json = scenario(version, BOTH, members);
        for seed in 1..=SEEDS {
            let o = run_seed(&json, seed);
            let back = traffic(&o, EventKind::TrafficStarted, "kube-dns");
            assert!(
                (td.0..=td.1).contains(&back),
                "{version} seed {seed}: replacement at {back}"
            );
            let c = client(&o);
            // 10 lookups a second from the crash until the replacement.
            assert!(
                (back / 100 - c.failed as i64).abs() <= 1,
                "{version} seed {seed}: {c:?}"
            );
            let last = c.last_error_ms.unwrap() - CRASH;
            assert!(
                (back + wait - 100..=back + wait).contains(&last),
                "{version} seed {seed}: {last}"
            );
            let ended = of_kind(&o, EventKind::ClientErrorsEnded);
            assert_eq!(ended.last().map(|e| e.cause.key), Some(key), "{version} seed {seed}");
        }
    }
}

/// §6's property: with every CoreDNS pod on live nodes, no lookup fails whatever the resolver,
/// where the same runs with one of them on the dead node do (W1–W3).
#[test]
fn with_coredns_on_live_nodes_no_lookup_fails() {
    let live = r#""coreDnsReplicas":2,"nodes":["node-2","node-3"]"#;
    for resolver in ["glibc", "musl", "go"] {
        let members = format!(r#","resolver":"{resolver}""#);
        let (spared, hit) = (scenario("1.32", live, &members), scenario("1.32", ONE_OF_TWO, &members));
        for seed in 1..=SEEDS {
            let o = run_seed(&spared, seed);
            assert_eq!(
                (client(&o).failed, client(&o).requests),
                (0, 9_000),
                "{resolver} seed {seed}"
            );
            assert!(client(&run_seed(&hit, seed)).failed > 0, "{resolver} seed {seed}");
        }
    }
}

#[test]
fn the_dns_sections_errors_name_their_field() {
    let with = |rest: &str| {
        format!(
            r#"{{"nodes": [{{"name": "n1"}}, {{"name": "n2"}}], "workloads": [{{"kind": "Deployment", "name": "w", "service": true}}], {rest}}}"#
        )
    };
    let cases = [
        (
            r#""dns": {"coreDnsReplicas": 0}"#,
            "dns.coreDnsReplicas",
            "between 1 and 100",
        ),
        (r#""dns": {"nodes": ["n1", "n9"]}"#, "dns.nodes[1]", "no node"),
        (
            r#""dns": {"coreDnsReplicas": 1, "nodes": ["n1", "n2"]}"#,
            "dns.nodes",
            "at most one node per replica",
        ),
        (
            r#""clients": [{"name": "c", "target": "kube-dns", "library": "go-http"}]"#,
            "clients[0].library",
            "not a library",
        ),
        (
            r#""clients": [{"name": "c", "target": "kube-dns", "resolver": "bionic"}]"#,
            "clients[0].resolver",
            "glibc, musl or go",
        ),
        (
            r#""clients": [{"name": "c", "target": "kube-dns", "lookup": "srv"}]"#,
            "clients[0].lookup",
            "short or external",
        ),
        (
            r#""clients": [{"name": "c", "target": "kube-dns", "connectTimeout": "1s"}]"#,
            "clients[0].connectTimeout",
            "timeout:5",
        ),
        (
            r#""clients": [{"name": "c", "target": "w", "library": "linux", "resolver": "musl"}]"#,
            "clients[0].resolver",
            "only a kube-dns client",
        ),
        (
            r#""clients": [{"name": "c", "target": "w"}]"#,
            "clients[0].library",
            "needs its library",
        ),
    ];
    for (rest, field, says) in cases {
        let e = err(&with(rest));
        assert_eq!(e.field, field, "{rest}: {e}");
        assert!(e.to_string().contains(says), "{rest}: {e}");
    }
}

/// A client of kube-dns with no `dns` section gets kubeadm's two replicas on the first nodes;
/// a scenario with neither has no CoreDNS.
#[test]
fn kube_dns_defaults_to_two_coredns_replicas_on_the_first_nodes() {
    let resolve = |json: &str| Scenario::from_json(json).unwrap().resolve().unwrap();
    let cfg = resolve(&scenario("1.32", "", r#","resolver":"musl""#).replace(r#""dns":{},"#, ""));
    let dns = cfg.dns.as_ref().expect("CoreDNS is added");
    assert_eq!((dns.nodes.as_slice(), dns.node_local), (&[0, 1][..], false));
    let coredns = &cfg.workloads[dns.workload];
    assert_eq!(
        (
            coredns.name.as_str(),
            coredns.service_name(),
            coredns.replicas,
            coredns.service
        ),
        ("coredns", "kube-dns", 2, true)
    );
    // Its events and its Service's summary name the Service as upstream does.
    let o = kubelife_engine::run(&cfg, &Default::default());
    assert!(o.summary.services.iter().any(|s| s.service == "kube-dns"));
    assert!(o.events.iter().all(|e| e.service.as_deref() != Some("coredns")));
    assert_eq!(cfg.clients[0].service, dns.workload);
    let plain = r#"{"nodes":[{"name":"n1"}],"workloads":[{"kind":"Deployment","name":"w"}]}"#;
    let cfg = resolve(plain);
    assert_eq!((cfg.dns.is_none(), cfg.workloads.len()), (true, 1));
}

//! What the clients see (issue 37): the golden cases and worked timelines of the clients spec
//! (`k8s-semantics-clients.md` §6 T*, §7 C*), as windows over many seeds, and the property that
//! clients only observe. Times are relative to the crash of node-1 at t = 30s, in ms.

use crate::common::of_kind;
use kubelife_engine::scenario::libraries::{self, RETRIES2_BUDGET, SYN_BUDGET};
use kubelife_engine::scenario::ClientSection;
use kubelife_engine::summary::ClientSummary;
use kubelife_engine::{run, run_json, EventKind, Outcome, RunOptions, Scenario, TimelineEvent};
use proptest::prelude::*;

pub(crate) const CRASH: i64 = 30_000;
/// Seeds per window.
pub(crate) const SEEDS: u64 = 200;

/// Three one-node zones, `web` with `replicas` behind a Service, node-1 crashed at 30s, and one
/// client `c` on node-2 with the fields `client` (JSON members).
pub(crate) fn scenario(replicas: u32, client: &str, extra: &str) -> String {
    format!(
        r#"{{"version":"1.32","durationSeconds":1000,{extra}
        "nodes":[{{"name":"node-1","zone":"a"}},{{"name":"node-2","zone":"b"}},{{"name":"node-3","zone":"c"}}],
        "workloads":[{{"kind":"Deployment","name":"web","replicas":{replicas},"service":true}}],
        "events":[{{"at":"30s","action":"NodeCrash","node":"node-1"}}],
        "clients":[{{"name":"c","target":"web","from":"node-2",{client}}}]}}"#
    )
}

/// One run of `json` with `seed`.
pub(crate) fn run_seed(json: &str, seed: u64) -> Outcome {
    let mut s = Scenario::from_json(json).expect("valid JSON");
    s.seed = Some(seed);
    run(&s.resolve().expect("valid scenario"), &RunOptions::default())
}

/// The client's summary.
pub(crate) fn client(o: &Outcome) -> &ClientSummary {
    &o.summary.clients[0]
}

/// The first TrafficStopped after the crash, relative to it.
pub(crate) fn traffic_stopped(o: &Outcome) -> i64 {
    of_kind(o, EventKind::TrafficStopped)
        .first()
        .map(|e| e.at_ms - CRASH)
        .expect("the proxies drop the dead pod")
}

/// Whether the episode's first event names a pod of the crashed node (the connection was pinned
/// to it).
fn pinned(o: &Outcome) -> bool {
    of_kind(o, EventKind::ClientErrorsStarted)
        .first()
        .is_some_and(|e| e.cause.key == "cause.client.started_pinned")
}

pub(crate) fn ended(o: &Outcome) -> Vec<&TimelineEvent> {
    of_kind(o, EventKind::ClientErrorsEnded)
}

/// One case over `SEEDS` seeds: its spec number, the scenario, and what must hold of each run.
pub(crate) fn check(spec: &str, json: &str, expect: impl Fn(&Outcome) -> Result<(), String>) {
    for seed in 1..=SEEDS {
        let o = run_seed(json, seed);
        if let Err(why) = expect(&o) {
            panic!(
                "{spec}, seed {seed}: {why}\n{}",
                kubelife_engine::render::render_timeline(&o)
            );
        }
    }
}

pub(crate) fn within(what: &str, t: Option<i64>, lo: i64, hi: i64) -> Result<(), String> {
    match t {
        Some(t) if (lo..=hi).contains(&t) => Ok(()),
        other => Err(format!("{what} at {other:?} ms, expected within [{lo}, {hi}]")),
    }
}

/// Every `ClientErrorsEnded` has the cause `key`.
pub(crate) fn ended_by(o: &Outcome, key: &str) -> Result<(), String> {
    match ended(o).iter().find(|e| e.cause.key != key) {
        Some(e) => Err(format!("ended by {} at {}, expected {key}", e.cause.key, e.at_ms)),
        None => Ok(()),
    }
}

/// T2: a bare socket with no connect timeout. Dials that raced the proxies' update wait the
/// kernel's SYN budget: the last error comes at most 127 s after the dead pod left the rules.
#[test]
fn t2_linux_dials_that_raced_the_update_fail_after_the_syn_budget() {
    let json = scenario(3, r#""library":"linux""#, "");
    let mut worst = 0;
    check("T2", &json, |o| {
        let ts = traffic_stopped(o);
        let c = client(o);
        if c.failed == 0 {
            return Err("no dial reached the dead pod".into());
        }
        within(
            "first error",
            c.first_error_ms.map(|t| t - CRASH),
            SYN_BUDGET,
            SYN_BUDGET + 5_000,
        )?;
        // The last doomed dial comes within a few requests of TrafficStopped (each reaches the
        // dead pod with chance 1/3).
        within(
            "last error",
            c.last_error_ms.map(|t| t - CRASH),
            ts - 5_000 + SYN_BUDGET,
            ts + SYN_BUDGET,
        )?;
        // About a third of the requests between the crash and TrafficStopped.
        let expected = 10.0 * ts as f64 / 1000.0 / 3.0;
        let ratio = c.failed as f64 / expected;
        if !(0.6..=1.4).contains(&ratio) {
            return Err(format!("{} failed, expected about {expected:.0}", c.failed));
        }
        ended_by(o, "cause.client.syn_retries")
    });
    for seed in 1..=SEEDS {
        let o = run_seed(&json, seed);
        worst = worst.max(client(&o).last_error_ms.unwrap_or(0) - CRASH);
    }
    eprintln!("T2: the last error at most {worst} ms after the crash over {SEEDS} seeds");
    assert!(worst <= 61_300 + SYN_BUDGET, "T2: {worst}");
}

/// T3: the same with `connectTimeout: 30s`: the last error at most 30 s after TrafficStopped.
#[test]
fn t3_a_connect_timeout_cuts_the_race_to_thirty_seconds() {
    let json = scenario(3, r#""library":"linux","connectTimeout":"30s""#, "");
    check("T3", &json, |o| {
        let ts = traffic_stopped(o);
        let c = client(o);
        within(
            "last error",
            c.last_error_ms.map(|t| t - CRASH),
            ts - 5_000 + 30_000,
            ts + 30_000,
        )?;
        if c.worst_latency_ms != 30_000 {
            return Err(format!("worst wait {}", c.worst_latency_ms));
        }
        ended_by(o, "cause.client.connect_timeout")
    });
}

/// T5: Go's DefaultTransport. A pooled connection pinned to the dead pod hangs the first request
/// after the crash until `tcp_retries2` gives up, 924.6 s later; the others reach live pods.
#[test]
fn t5_go_http_pinned_to_the_dead_pod_hangs_until_tcp_retries2() {
    let json = scenario(3, r#""library":"go-http""#, "");
    let mut count = 0;
    check("T5", &json, |o| {
        let c = client(o);
        if !pinned(o) {
            return match (c.failed, o.events.iter().any(|e| e.kind.is_client())) {
                (0, false) => Ok(()),
                _ => Err(format!("not pinned, yet {} failed", c.failed)),
            };
        }
        let started = of_kind(o, EventKind::ClientErrorsStarted)[0];
        within("ClientErrorsStarted", Some(started.at_ms - CRASH), 0, 100)?;
        if started.pod.as_deref().is_none_or(|p| !p.starts_with("web-")) {
            return Err(format!("started on {:?}", started.pod));
        }
        within(
            "last error",
            c.last_error_ms.map(|t| t - CRASH),
            RETRIES2_BUDGET,
            RETRIES2_BUDGET + 100,
        )?;
        within("worst wait", Some(c.worst_latency_ms), RETRIES2_BUDGET, RETRIES2_BUDGET)?;
        match ended(o).last() {
            Some(e) if e.cause.key == "cause.client.retries2" && e.pod == started.pod => Ok(()),
            other => Err(format!("ended by {:?}", other.map(|e| (&e.cause.key, &e.pod)))),
        }
    });
    for seed in 1..=SEEDS {
        count += usize::from(pinned(&run_seed(&json, seed)));
    }
    eprintln!("T5: pinned to the dead pod in {count} of {SEEDS} runs");
    assert!(
        (SEEDS / 5..=SEEDS / 2).contains(&(count as u64)),
        "T5: pinned in {count} of {SEEDS}, expected about a third"
    );
}

/// T5′: `requestTimeout: 10s` (Go's `http.Client.Timeout`) ends the pinned request 10 s after it
/// was sent; dials that raced the update end 10 s after theirs, by TrafficStopped + 10 s.
#[test]
fn t5_prime_a_request_timeout_ends_the_pinned_request_after_ten_seconds() {
    let json = scenario(3, r#""library":"go-http","requestTimeout":"10s""#, "");
    check("T5'", &json, |o| {
        if !pinned(o) {
            return Ok(());
        }
        let c = client(o);
        within("first error", c.first_error_ms.map(|t| t - CRASH), 10_000, 10_100)?;
        within(
            "last error",
            c.last_error_ms.map(|t| t - CRASH),
            10_000,
            traffic_stopped(o) + 10_000,
        )?;
        if c.worst_latency_ms != 10_000 {
            return Err(format!("worst wait {}", c.worst_latency_ms));
        }
        ended_by(o, "cause.client.request_timeout")
    });
}

/// T8: grpc-go without keepalive: every RPC rides the one connection pinned to the dead pod and
/// fails for the 924.6 s `tcp_retries2` takes (grpc-go#3206: "about 15 minutes").
#[test]
fn t8_grpc_without_keepalive_fails_every_rpc_for_fifteen_minutes() {
    let json = scenario(3, r#""library":"grpc-go""#, "");
    check("T8", &json, |o| {
        if !pinned(o) {
            return Ok(());
        }
        let c = client(o);
        within(
            "last error",
            c.last_error_ms.map(|t| t - CRASH),
            RETRIES2_BUDGET,
            RETRIES2_BUDGET + 100,
        )?;
        within("failed", Some(c.failed as i64), 9_236, 9_256)?;
        within("worst wait", Some(c.worst_latency_ms), RETRIES2_BUDGET, RETRIES2_BUDGET)?;
        ended_by(o, "cause.client.retries2")
    });
}

/// T9: grpc-go with `keepaliveTime: 30s`, which also sets `TCP_USER_TIMEOUT` 20 s: the first RPC
/// after the crash stays unacknowledged, and the connection dies 20 s after it.
#[test]
fn t9_grpc_keepalive_sets_tcp_user_timeout_and_the_connection_dies_in_twenty_seconds() {
    let json = scenario(3, r#""library":"grpc-go","keepaliveTime":"30s""#, "");
    check("T9", &json, |o| {
        if !pinned(o) {
            return Ok(());
        }
        let c = client(o);
        within("first error", c.first_error_ms.map(|t| t - CRASH), 20_000, 20_100)?;
        within(
            "last error",
            c.last_error_ms.map(|t| t - CRASH),
            20_000,
            traffic_stopped(o) + 20_000,
        )?;
        match ended(o).first() {
            Some(e) if ["cause.client.user_timeout", "cause.client.connect_timeout"].contains(&e.cause.key) => Ok(()),
            other => Err(format!("ended by {:?}", other.map(|e| &e.cause.key))),
        }
    });
}

/// C4: the only pod on the crashed node. Until TrafficStopped every dial reaches the dead pod;
/// from then until the replacement's TrafficStarted the Service has no endpoint, and kube-proxy's
/// reject rule refuses every request at once.
fn c4(extra: &str) -> Vec<ClientSummary> {
    let json = scenario(1, r#""library":"linux""#, extra);
    let mut out = Vec::new();
    check("C4", &json, |o| {
        let on_node_1 = of_kind(o, EventKind::TrafficStopped)
            .first()
            .is_some_and(|e| e.node.as_deref() == Some("node-1"));
        if !on_node_1 {
            return Err("web's pod is not on node-1".into());
        }
        let back = of_kind(o, EventKind::TrafficStarted)
            .first()
            .map(|e| (e.id, e.at_ms))
            .ok_or("no replacement")?;
        let c = client(o);
        // Every request from the crash to the replacement fails.
        let window = (back.1 - CRASH) as f64 / 100.0;
        if (c.failed as f64 - window).abs() > 2.0 {
            return Err(format!("{} failed, {window:.0} requests were sent", c.failed));
        }
        // The episode ends with the replacement's TrafficStarted; the last refusal just before.
        let last = ended(o).last().copied().ok_or("no end")?;
        if last.cause.key != "cause.client.no_endpoints" || last.after != Some(back.0) || last.at_ms != back.1 {
            return Err(format!(
                "ended by {} at {} after {:?}",
                last.cause.key, last.at_ms, last.after
            ));
        }
        within("the last refusal", c.last_error_ms, back.1 - 100, back.1 - 1)
    });
    for seed in 1..=5 {
        out.push(client(&run_seed(&json, seed)).clone());
    }
    out
}

#[test]
fn c4_with_no_endpoint_every_request_is_refused_at_once() {
    c4("");
}

/// C3: ipvs drops a dead pod's weight to 0 where iptables drops its rule; the clients see the same.
#[test]
fn c3_ipvs_gives_the_clients_the_numbers_iptables_gives() {
    assert_eq!(c4(r#""kubeProxy":{"mode":"ipvs"},"#), c4(""));
}

/// `s` with a client of `library` calling `target` 50 times a second, from a node no action
/// names if there is one.
fn with_client(s: &Scenario, library: &str, target: &str) -> Scenario {
    let mut s = s.clone();
    let named = |n: &str| s.events.iter().any(|e| e.node.as_deref() == Some(n));
    let from = s
        .nodes
        .iter()
        .find(|n| !named(&n.name))
        .or(s.nodes.first())
        .map(|n| n.name.clone());
    s.clients.push(ClientSection {
        name: format!("c-{library}"),
        target: target.to_string(),
        library: library.to_string(),
        from,
        requests_per_second: Some(50.0),
        ..Default::default()
    });
    s
}

/// The causes that may end an episode: each names a mechanism of the spec's §2.
const MECHANISMS: [&str; 12] = [
    "cause.client.retries2",
    "cause.client.user_timeout",
    "cause.client.request_timeout",
    "cause.client.grpc_keepalive",
    "cause.client.connect_timeout",
    "cause.client.syn_retries",
    "cause.client.no_endpoints",
    "cause.client.reset",
    "cause.client.proxy_retries2",
    "cause.client.proxy_read_timeout",
    "cause.client.proxy_connect_timeout",
    "cause.client.proxy_no_endpoints",
];

proptest! {
    // About a quarter of the generated scenarios kill a node of the Service: 120 cases give some
    // thirty with client errors.
    #![proptest_config(crate::seeded::config(120))]

    /// Clients only observe: the run with clients, less their events, is the run without them,
    /// and so is its summary less `clients`.
    #[test]
    fn clients_are_observers(s in crate::scenarios::scenario(), pick in 0usize..libraries::LIBRARIES.len()) {
        // The first workload, if any, is behind a Service, so that most cases have clients.
        let mut s = s;
        if let Some(w) = s.workloads.first_mut() {
            w.service = Some(kubelife_engine::scenario::ServiceField::Enabled(true));
        }
        let Ok(plain) = s.resolve() else { return Ok(()) };
        let Some(target) = plain.workloads.iter().find(|w| w.service).map(|w| w.name.clone()) else { return Ok(()) };
        let mut with = s.clone();
        for l in [pick, (pick + 2) % libraries::LIBRARIES.len()] {
            with = with_client(&with, libraries::LIBRARIES[l].name, &target);
        }
        let Ok(cfg) = with.resolve() else { return Ok(()) };
        let a = run(&plain, &RunOptions::default());
        let b = run(&cfg, &RunOptions::default());
        let kept: Vec<&TimelineEvent> = b.events.iter().filter(|e| !e.kind.is_client()).collect();
        let old_id: std::collections::BTreeMap<usize, usize> = kept.iter().enumerate().map(|(i, e)| (e.id, i)).collect();
        prop_assert_eq!(kept.len(), a.events.len());
        for (x, y) in a.events.iter().zip(&kept) {
            prop_assert_eq!((x.at_ms, x.kind, &x.pod, &x.node, &x.cause), (y.at_ms, y.kind, &y.pod, &y.node, &y.cause));
            prop_assert_eq!(x.after, y.after.map(|i| old_id[&i]));
        }
        let mut summary = b.summary.clone();
        prop_assert_eq!(summary.clients.len(), 2);
        for c in &summary.clients {
            prop_assert!(c.failed <= c.requests);
            prop_assert!(c.first_error_ms <= c.last_error_ms.or(c.first_error_ms), "{:?}\n{}", c, kubelife_engine::render::render_timeline(&b));
        }
        // Each client's episodes alternate, Started first, each Ended naming a mechanism of §2.
        for c in &cfg.clients {
            let mut open: Option<i64> = None;
            for e in b.events.iter().filter(|e| e.client.as_deref() == Some(c.name.as_str())) {
                match (e.kind, open) {
                    (EventKind::ClientErrorsStarted, None) => open = Some(e.at_ms),
                    (EventKind::ClientErrorsEnded, Some(at)) => {
                        prop_assert!(at <= e.at_ms);
                        prop_assert!(MECHANISMS.contains(&e.cause.key), "{}", e.cause.key);
                        open = None;
                    }
                    _ => prop_assert!(false, "{:?} at {} out of turn", e.kind, e.at_ms),
                }
            }
        }
        summary.clients.clear();
        prop_assert_eq!(&summary, &a.summary);
        let back = kubelife_engine::wire::decode(&kubelife_engine::wire::encode(&b)).expect("decodes");
        prop_assert_eq!(back, b);
    }
}

/// A run without clients has no client events and no `clients` in its JSON.
#[test]
fn without_clients_nothing_changes() {
    let mut s = Scenario::from_json(&scenario(3, r#""library":"linux""#, "")).expect("valid JSON");
    s.clients.clear();
    assert!(!s.to_json().contains("clients"));
    let o = run_json(&s.to_json(), &RunOptions::default()).expect("valid");
    assert!(o.summary.clients.is_empty());
    assert!(!serde_json::to_string(&o.summary).expect("JSON").contains("clients"));
}

/// Over `seeds`, how many runs had a request pinned to the dead pod.
fn pinned_runs(json: &str, seeds: u64) -> u64 {
    (1..=seeds).map(|seed| u64::from(pinned(&run_seed(json, seed)))).sum()
}

/// A pool closes a connection idle for `idleConnTimeout`, and TCP keepalive kills an idle one to a
/// dead pod: either way the next request dials anew and nothing hangs. With one request every
/// 100 s, Go's 90 s idle timeout always closes the connection first; with it off, keepalive
/// (30 s + 15 s × 9 = 165 s) does not, and requests hang; with one request every 200 s it does.
#[test]
fn an_idle_connection_closed_by_the_pool_or_keepalive_traps_nothing() {
    let sparse = |rate: &str, idle: &str| {
        scenario(
            3,
            &format!(r#""library":"go-http","requestsPerSecond":{rate}{idle}"#),
            "",
        )
    };
    assert_eq!(pinned_runs(&sparse("0.01", ""), 60), 0, "the pool closed it after 90 s");
    let hung = pinned_runs(&sparse("0.01", r#","idleConnTimeout":"0s""#), 60);
    assert!(
        hung >= 5,
        "without an idle timeout a third of the runs hang, got {hung} of 60"
    );
    assert_eq!(
        pinned_runs(&sparse("0.005", r#","idleConnTimeout":"0s""#), 60),
        0,
        "keepalive killed it after 165 s"
    );
}

/// A client on the crashed node stops with it: its requests are counted until the crash.
#[test]
fn a_client_stops_with_its_own_node() {
    let json = scenario(3, r#""library":"go-http""#, "").replace(r#""from":"node-2""#, r#""from":"node-1""#);
    for seed in 1..=5 {
        let o = run_seed(&json, seed);
        assert_eq!(client(&o).requests, 300, "10 a second for 30 s");
        assert!(!o.events.iter().any(|e| e.kind.is_client()), "seed {seed}");
    }
}

/// The crashed node comes back at 90 s: its new kernel answers the pinned connection's next
/// retransmission with a reset. Data written just after the crash is retransmitted 0.2, 0.6,
/// 1.4, …, 51 and 102.2 s later: the first after the return ends it, 102.2 s after the write.
#[test]
fn a_machine_that_comes_back_resets_the_pinned_connection() {
    let json = scenario(3, r#""library":"go-http""#, "").replace(
        r#""node":"node-1"}]"#,
        r#""node":"node-1"},{"at":"90s","action":"NodeRecover","node":"node-1"}]"#,
    );
    let mut pinned_runs = 0;
    check("reset", &json, |o| {
        if !pinned(o) {
            return Ok(());
        }
        let c = client(o);
        within("worst wait", Some(c.worst_latency_ms), 102_200, 102_200)?;
        within("last error", c.last_error_ms.map(|t| t - CRASH), 102_200, 102_300)?;
        let back = of_kind(o, EventKind::FaultEnded)[0];
        match ended(o).last() {
            Some(e) if e.cause.key == "cause.client.reset" && e.after == Some(back.id) => Ok(()),
            other => Err(format!("ended by {:?}", other.map(|e| (&e.cause.key, e.after)))),
        }
    });
    for seed in 1..=SEEDS {
        pinned_runs += u64::from(pinned(&run_seed(&json, seed)));
    }
    assert!(pinned_runs >= 20, "pinned in {pinned_runs} of {SEEDS}");
}

/// An episode that outlasts the run has no `ClientErrorsEnded`; its errors within the run (the
/// dials that raced the update) still count as the last error.
#[test]
fn an_episode_past_the_end_of_the_run_has_no_end() {
    let json =
        scenario(3, r#""library":"go-http""#, "").replace(r#""durationSeconds":1000"#, r#""durationSeconds":900"#);
    check("T5 cut at 900 s", &json, |o| {
        let c = client(o);
        if !pinned(o) {
            return Ok(());
        }
        if !ended(o).is_empty() {
            return Err("an end past the run".into());
        }
        match (c.failed, c.last_error_ms) {
            (1, None) => Ok(()),
            (n, Some(t)) if n > 1 && t <= 900_000 => Ok(()),
            other => Err(format!("failed and last error {other:?}")),
        }
    });
}

/// `kubelife run --runs N` gives each client's `clientErrorsEnded`: when its errors after the
/// first fault had ended, from the fault; 0 in the runs without an error.
#[test]
fn runs_spread_each_clients_last_error_from_the_fault() {
    let json = scenario(3, r#""library":"go-http","requestTimeout":"10s""#, "");
    let cfg = Scenario::from_json(&json).and_then(|s| s.resolve()).expect("valid");
    let runs = 40;
    let d = kubelife_engine::distribution(&cfg, runs);
    let ends: Vec<i64> = (0..u64::from(runs))
        .map(|i| {
            let mut c = cfg.clone();
            c.seed = cfg.seed + i;
            let o = run(&c, &RunOptions { heartbeats: false });
            // Every episode ends well within the run: the last one's end.
            ended(&o).last().map_or(0, |e| e.at_ms - CRASH)
        })
        .collect();
    assert!(
        ends.contains(&0) && ends.iter().any(|&t| t > 0),
        "some runs pin, some do not: {ends:?}"
    );
    assert_eq!(d.client_errors_ended.len(), 1);
    let s = &d.client_errors_ended[0];
    assert_eq!(s.milestone, "c");
    assert_eq!((s.count, s.never), (runs, 0));
    assert_eq!((s.min, s.max), (ends.iter().min().copied(), ends.iter().max().copied()));
    let json = serde_json::to_string(&d).expect("JSON");
    assert!(json.contains(r#""clientErrorsEnded":[{"milestone":"c""#), "{json}");
}

/// The milestone `clientErrorsEnded` (`kubelife run --runs`, a `kubelife tune` target) is read
/// off the episodes: the last `ClientErrorsEnded` after the fault; never while an episode outlasts
/// the run; 0 without an error.
#[test]
fn the_clients_errors_ended_milestone_reads_the_episodes() {
    use kubelife_engine::stats::{run_milestones, MILESTONES};
    let at = MILESTONES
        .iter()
        .position(|m| *m == "clientErrorsEnded")
        .expect("a milestone");
    assert!(kubelife_engine::stats::measurable("clientErrorsEnded"));
    let milestone = |json: &str, seed: u64| {
        let o = run_seed(json, seed);
        let cfg = {
            let mut s = Scenario::from_json(json).unwrap();
            s.seed = Some(seed);
            s.resolve().unwrap()
        };
        let v = run_milestones(&o, &cfg).expect("a fault")[at];
        (o, v)
    };
    // A bare socket with a 5s connect timeout: its last error 5s after its last doomed dial.
    let bare = scenario(3, r#""library":"linux","connectTimeout":"5s""#, "");
    for seed in 1..=20 {
        let (o, v) = milestone(&bare, seed);
        let last = client(&o).last_error_ms.map(|t| t - CRASH);
        assert_eq!(v, last, "seed {seed}");
        within("clientErrorsEnded", v, traffic_stopped(&o), traffic_stopped(&o) + 5_000).unwrap();
    }
    // Go's pool pinned to the dead pod hangs 15m24.6s, past a 5-minute run: never.
    let go = scenario(3, r#""library":"go-http""#, "").replace("1000", "300");
    let (mut never, mut ended) = (0, 0);
    for seed in 1..=40 {
        let (o, v) = milestone(&go, seed);
        match (pinned(&o), v) {
            (true, None) => never += 1,
            (false, Some(t)) if t <= traffic_stopped(&o) + 30_000 => ended += 1,
            (p, v) => panic!("seed {seed}: pinned {p}, clientErrorsEnded {v:?}"),
        }
    }
    assert!(never > 0 && ended > 0, "{never} never, {ended} ended");
    // Both CoreDNS pods on live nodes: no lookup fails, 0.
    let dns = r#"{"version":"1.32","durationSeconds":300,
        "nodes":[{"name":"node-1"},{"name":"node-2"},{"name":"node-3"}],
        "workloads":[{"kind":"Deployment","name":"web","replicas":3,"service":true}],
        "events":[{"at":"30s","action":"NodeCrash","node":"node-1"}],
        "dns":{"coreDnsReplicas":2,"nodes":["node-2","node-3"]},
        "clients":[{"name":"c","target":"kube-dns","from":"node-3"}]}"#;
    assert_eq!(milestone(dns, 1).1, Some(0));
}

//! Worked timelines of the clients spec (§6) the other files leave: T1 (new connections reach
//! the dead pod with its share until TrafficStopped), T7 (a write after the crash fails
//! 924.6 s later), T10 (UDP flows re-balanced in the sync that drops the dead pod) and T11
//! (IPVS gives the same numbers), as windows over `SEEDS` seeds. Times from the crash, ms.

use crate::clients::{check, client, ended, run_seed, traffic_stopped, within, CRASH, SEEDS};
use crate::common::of_kind;
use kubelife_engine::scenario::libraries::RETRIES2_BUDGET;
use kubelife_engine::{EventKind, Outcome};
use std::cell::Cell;

/// `n` one-node zones, `web` with `n` replicas (one a node) behind a Service, node-1 crashed
/// at 30 s, one client `c` on node-2 with the members `client`; `extra` opens the scenario.
fn spread(n: usize, client: &str, extra: &str) -> String {
    let nodes: Vec<String> = (1..=n)
        .map(|i| format!(r#"{{"name":"node-{i}","zone":"z{i}"}}"#))
        .collect();
    format!(
        r#"{{"version":"1.32","durationSeconds":1000,{extra}
        "nodes":[{}],
        "workloads":[{{"kind":"Deployment","name":"web","replicas":{n},"service":true}}],
        "events":[{{"at":"30s","action":"NodeCrash","node":"node-1"}}],
        "clients":[{{"name":"c","target":"web","from":"node-2",{client}}}]}}"#,
        nodes.join(",")
    )
}

/// A bare socket with a 5 s connect timeout: each dial to the dead pod fails 5 s after it.
const DIAL_5S: &str = r#""library":"linux","connectTimeout":"5s""#;

/// T1: with one dead pod of `n`, about 1/n of the dials sent from the crash to TrafficStopped
/// fail, and none after it. Over the seeds the failed share, in thousandths.
fn t1(n: usize, extra: &str) -> (i64, i64) {
    let json = spread(n, DIAL_5S, extra);
    let (failed, sent) = (Cell::new(0u64), Cell::new(0u64));
    check("T1", &json, |o| {
        let ts = traffic_stopped(o);
        let c = client(o);
        within("last error", c.last_error_ms.map(|t| t - CRASH), 5_000, ts + 5_000)?;
        within("first error", c.first_error_ms.map(|t| t - CRASH), 5_000, ts + 5_000)?;
        failed.set(failed.get() + c.failed);
        // 10 dials a second.
        sent.set(sent.get() + (ts / 100) as u64);
        Ok(())
    });
    let share = (failed.get() * 1000 / sent.get()) as i64;
    eprintln!("T1, one of {n} dead{extra}: {share}‰ of the dials before TS failed");
    (share, 1000 / n as i64)
}

#[test]
fn t1_one_dead_pod_of_n_takes_a_share_of_1_over_n_of_the_new_connections_until_ts() {
    for n in [2, 3, 4] {
        let (share, expected) = t1(n, "");
        within(
            &format!("T1 n={n} share ‰"),
            Some(share),
            expected * 95 / 100,
            expected * 105 / 100,
        )
        .unwrap_or_else(|e| panic!("{e}"));
    }
}

/// T11: ipvs mode sets the dead pod's weight to 0 in the sync where iptables drops its rule:
/// every seed's client sees the same numbers.
#[test]
fn t11_ipvs_gives_the_numbers_iptables_gives() {
    for (spec, json) in [
        ("T1", spread(3, DIAL_5S, "")),
        ("T7", spread(3, r#""library":"go-http","requestsPerSecond":0.2"#, "")),
        ("T10", one_of_two_dns("1.32")),
    ] {
        let ipvs = json.replace(
            r#""durationSeconds":"#,
            r#""kubeProxy":{"mode":"ipvs"},"durationSeconds":"#,
        );
        assert_ne!(ipvs, json);
        for seed in 1..=SEEDS {
            let (a, b) = (run_seed(&json, seed), run_seed(&ipvs, seed));
            assert_eq!(client(&a), client(&b), "T11 ({spec}), seed {seed}");
        }
    }
}

/// T7: Go's pool pinned to the dead pod; the first request after the crash is written into it
/// up to 5 s after (one every 5 s) and fails exactly `tcp_retries2`'s 924.6 s after the write.
#[test]
fn t7_a_write_after_the_crash_fails_924_6s_after_it() {
    let json = spread(3, r#""library":"go-http","requestsPerSecond":0.2"#, "");
    let (lo, hi, pinned) = (Cell::new(i64::MAX), Cell::new(i64::MIN), Cell::new(0));
    check("T7", &json, |o| {
        let Some(started) = of_kind(o, EventKind::ClientErrorsStarted)
            .into_iter()
            .find(|e| e.cause.key == "cause.client.started_pinned")
        else {
            return Ok(());
        };
        let write = started.at_ms - CRASH;
        within("write", Some(write), 0, 5_000)?;
        let end = ended(o)
            .into_iter()
            .find(|e| e.cause.key == "cause.client.retries2" && e.pod == started.pod)
            .ok_or("no tcp_retries2 end")?;
        within(
            "error",
            Some(end.at_ms - CRASH),
            write + RETRIES2_BUDGET,
            write + RETRIES2_BUDGET,
        )?;
        lo.set(lo.get().min(write));
        hi.set(hi.get().max(write));
        pinned.set(pinned.get() + 1);
        Ok(())
    });
    eprintln!(
        "T7: {} of {SEEDS} pinned, writes {}–{} ms after the crash",
        pinned.get(),
        lo.get(),
        hi.get()
    );
    assert!(pinned.get() >= SEEDS / 5, "T7: pinned in {} runs", pinned.get());
    assert!(hi.get() - lo.get() >= 2_500, "T7: the writes spread over the 5 s");
}

/// One of two CoreDNS replicas on the crashed node, a glibc client of kube-dns on node-3.
fn one_of_two_dns(version: &str) -> String {
    format!(
        r#"{{"version":"{version}","durationSeconds":900,
        "nodes":[{{"name":"node-1","zone":"a"}},{{"name":"node-2","zone":"b"}},{{"name":"node-3","zone":"c"}}],
        "workloads":[{{"kind":"Deployment","name":"web","replicas":3,"service":true}}],
        "dns":{{"coreDnsReplicas":2,"nodes":["node-1","node-2"]}},
        "events":[{{"at":"30s","action":"NodeCrash","node":"node-1"}}],
        "clients":[{{"name":"c","target":"kube-dns","from":"node-3"}}]}}"#
    )
}

/// CoreDNS's TrafficStopped, relative to the crash, and its event id.
fn coredns_stopped(o: &Outcome) -> Option<(i64, usize)> {
    of_kind(o, EventKind::TrafficStopped)
        .into_iter()
        .find(|e| e.service.as_deref() == Some("kube-dns"))
        .map(|e| (e.at_ms - CRASH, e.id))
}

/// T10: UDP lookups to a dead CoreDNS pod are re-balanced by the sync that drops it, in every
/// cleanup form (≤ 1.31 event-based, 1.32–1.36 reconciler, 1.37 fixed): the episode ends with
/// that sync, and the last error comes within the 5 s of a glibc retry after it.
#[test]
fn t10_udp_flows_are_re_balanced_in_the_sync_that_drops_the_dead_pod() {
    for version in ["1.31", "1.32", "1.36", "1.37"] {
        let after_ts = (Cell::new(i64::MAX), Cell::new(i64::MIN));
        check(&format!("T10 {version}"), &one_of_two_dns(version), |o| {
            let (ts, id) = coredns_stopped(o).ok_or("CoreDNS's rules never changed")?;
            let last = client(o).last_error_ms.ok_or("no failed lookup")? - CRASH;
            within("last error after TS", Some(last - ts), 4_000, 5_000)?;
            match ended(o).last() {
                Some(e) if e.after == Some(id) => {}
                other => return Err(format!("ended after {:?}, not TS #{id}", other.map(|e| e.after))),
            }
            after_ts.0.set(after_ts.0.get().min(last - ts));
            after_ts.1.set(after_ts.1.get().max(last - ts));
            Ok(())
        });
        eprintln!(
            "T10 {version}: last error TS + {}–{} ms",
            after_ts.0.get(),
            after_ts.1.get()
        );
    }
}

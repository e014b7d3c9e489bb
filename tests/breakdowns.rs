//! "Where does the time go?" off the default path, as readers met it: each bar is the chain of
//! events that led to its milestone, labelled by what happened, never the usual chain's template.
//! The cases are the page's own settings (the link in each test's comment).
#![cfg(not(target_arch = "wasm32"))]

use kubelife::explain::{bars, milestones, Bar, Goal, Restored};
use kubelife::i18n::{lookup, Lang};
use kubelife::settings::{Settings, ZoneOutage};
use kubelife_engine::cause::Arg;
use kubelife_engine::time::{MINUTE, SECOND};
use kubelife_engine::{Millis, Outcome, RunOptions};

/// The run of `s` and its bars.
fn run(s: &Settings) -> (Outcome, Vec<Bar>) {
    let (cfg, _) = s.resolve();
    let o = kubelife_engine::run(&cfg, &RunOptions::default());
    let b = bars(&o, &cfg);
    (o, b)
}

/// The bar that reaches `goal`.
fn bar<'a>(bars: &'a [Bar], goal: &Goal) -> &'a Bar {
    bars.iter()
        .find(|b| &b.goal == goal)
        .unwrap_or_else(|| panic!("no bar for {goal:?}: {bars:?}"))
}

/// Each segment's cause key (as written, inside any client wait) and English label.
fn keys(b: &Bar) -> Vec<(&'static str, String)> {
    b.segments
        .iter()
        .map(|s| (s.cause.written().key, s.label(&|k| lookup(Lang::En, k))))
        .collect()
}

fn db_settings(minor: u32) -> Settings {
    Settings {
        minor,
        ..Settings::default()
    }
}

/// `?v=1&out-of-service=60`: the out-of-service taint at 1m0s, 30s after the crash. The web
/// pod goes at once and its replacement is Ready before the node is even Unknown; db-0 comes
/// back once PodGC removes its old object and the volume moves.
#[test]
fn the_out_of_service_taint_opens_the_chain_it_made() {
    let mut s = Settings::default();
    s.ops.out_of_service_at_seconds = Some(60);
    let (o, bars) = run(&s);
    let m = milestones(&o);
    let main = bar(&bars, &Goal::ServiceRestored);
    assert_eq!(main.segments[0].cause.key, "cause.out_of_service", "{:?}", keys(main));
    assert_eq!(main.segments[0].ms, 30 * SECOND);
    let (_, upto) = main.passes.clone().expect("the replacement on the way");
    let replacement: Millis = main.segments[..upto].iter().map(|s| s.ms).sum();
    assert_eq!(Some(replacement), m.replacement);
    assert!(
        replacement < m.unknown.unwrap(),
        "Ready at {replacement} before Unknown"
    );
    assert_eq!(m.service_restored, Restored::At(main.total()));
    let db = bar(&bars, &Goal::Database("db-0".into()));
    assert!(db.reached(), "db-0 is Ready again in this run: {db:?}");
    let ready = o
        .events
        .iter()
        .rev()
        .find(|e| e.pod.as_deref() == Some("db-0") && e.kind == kubelife_engine::EventKind::PodReady);
    assert_eq!(Some(db.total()), ready.map(|e| e.at_ms - m.fault.unwrap()));
}

/// The same taint at fault + 90s on 1.31: db-0 is deleted because it does not tolerate the
/// taint, not because its tolerationSeconds ran out.
#[test]
fn a_deletion_by_the_out_of_service_taint_is_not_called_a_toleration() {
    let mut s = db_settings(31);
    s.ops.out_of_service_at_seconds = Some(120);
    let (_, bars) = run(&s);
    let db = bar(&bars, &Goal::Database("db-0".into()));
    let deletion = db
        .segments
        .iter()
        .find(|s| s.cause.written().key == "cause.delete")
        .expect("db-0 was deleted");
    let why = match deletion.cause.written().arg("why") {
        Some(Arg::Cause(why)) => why.key,
        other => panic!("{other:?}"),
    };
    assert_eq!(why, "cause.te.untolerated", "{:?}", keys(db));
    assert!(
        keys(db)
            .iter()
            .all(|(_, label)| !label.contains("tolerationSeconds 300")),
        "{:?}",
        keys(db)
    );
}

/// The SRE's story on 1.31: db-0 force-deleted at 6m30s. The volume stays attached to the dead
/// node for maxWaitForUnmountDuration, then moves; the kubelet on the new node notices the
/// attach only at its next check, up to two minutes later.
#[test]
fn a_force_delete_names_the_six_minute_wait_and_the_kubelets_backoff() {
    let mut s = db_settings(31);
    s.ops.force_delete_db_at_seconds = Some(390);
    let (_, bars) = run(&s);
    let db = bar(&bars, &Goal::Database("db-0".into()));
    let k = keys(db);
    let forced = db
        .segments
        .iter()
        .find(|s| s.cause.key == "cause.adc.force_detached")
        .expect("a force detach");
    assert!(forced.ms > 6 * MINUTE && forced.ms < 6 * MINUTE + SECOND, "{k:?}");
    assert!(
        k.iter().any(|(_, l)| l.contains("maxWaitForUnmountDuration 6m0s")),
        "{k:?}"
    );
    let mount = db
        .segments
        .iter()
        .find(|s| s.cause.key == "cause.kubelet.mounted_late")
        .expect("a late mount");
    assert!(mount.ms > MINUTE, "the kubelet's backoff: {k:?}");
    assert!(
        k.iter().any(|(_, l)| l.contains("VerifyControllerAttachedVolume")),
        "{k:?}"
    );
    assert_eq!(db.segments[0].cause.key, "cause.force_deleted", "{k:?}");
}

/// 5,000 nodes in 10 zones, zone-b down at 2m0s: the Service is whole again only once the last
/// web pod lost with zone-b is replaced; that wait is its eviction's, not kube-proxy's.
#[test]
fn the_service_bar_follows_the_last_pod_back() {
    let s = Settings {
        nodes: 5_000,
        zones: 10,
        zone_outage: Some(ZoneOutage {
            zone: 1,
            at_seconds: 120,
            end_seconds: None,
        }),
        ..Settings::default()
    };
    let (o, bars) = run(&s);
    let service = bars
        .iter()
        .find(|b| b.goal == Goal::ServiceRestored)
        .expect("a Service bar");
    let longest = service.segments.iter().max_by_key(|s| s.ms).expect("segments");
    assert_ne!(
        longest.cause.written().key,
        "cause.proxy.started",
        "{:?}",
        keys(service)
    );
    let last = service.segments.last().unwrap();
    assert_eq!(last.kind, kubelife_engine::EventKind::TrafficStarted);
    assert!(
        last.ms < 5 * SECOND,
        "kube-proxy's own part is short: {:?}",
        keys(service)
    );
    // The pod it follows ran in zone-b (node-2, node-12, …, round-robin over ten zones): its
    // chain opens with that node's fault at 2m0s, 1m30s after node-1's.
    let first = &o.events[service.segments[0].event];
    assert_eq!(first.kind, kubelife_engine::EventKind::FaultStarted);
    let number: u32 = first
        .node
        .as_deref()
        .and_then(|n| n.strip_prefix("node-"))
        .and_then(|n| n.parse().ok())
        .unwrap();
    assert_eq!(number % 10, 2, "{first:?}");
    assert_eq!(service.segments[0].ms, 90 * SECOND);
    // Every part of the wait is named: the late monitor passes and the client's rate limit.
    let labels: String = keys(service).into_iter().map(|(_, l)| l).collect();
    assert!(
        labels.contains("came") && labels.contains("--kube-api-qps 20"),
        "{labels}"
    );
}

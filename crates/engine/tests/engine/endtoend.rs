//! The end-to-end cases G70–G74 of spec §8.10, checked over several seeds.

use crate::common::{of_kind, rel, run_ok, run_seed};
use kubelife_engine::{EventKind, Scenario};

fn scenario(json: &str) -> Scenario {
    Scenario::from_json(json).expect("valid")
}

#[test]
fn g70_three_zones_of_thirty_nodes() {
    let nodes: Vec<String> = (0..90)
        .map(|i| format!(r#"{{"name":"n{i}","zone":"z{}"}}"#, i % 3))
        .collect();
    let s = scenario(&format!(
        r#"{{"version":"1.32","durationSeconds":420,"nodes":[{}],
        "workloads":[{{"kind":"Deployment","name":"web","replicas":90}},{{"kind":"StatefulSet","name":"db","replicas":90}}],
        "events":[{{"at":"30s","action":"NodeCrash","node":"n0"}}]}}"#,
        nodes.join(",")
    ));
    for seed in 1..=10 {
        let o = run_seed(&s, seed);
        let r = rel(&o);
        let unknown = r.unknown.unwrap();
        assert!((39_600..=60_200).contains(&unknown), "Unknown at {unknown}");
        // Pods NotReady in the same pass, NoExecute one pass (5s) later, DELETE 300s after that.
        assert_eq!(
            o.summary.nodes[0].pods_not_ready_at_ms.map(|t| t - 30_000),
            Some(unknown)
        );
        assert!((5_000..=5_200).contains(&(r.taint.unwrap() - unknown)));
        assert!((300_000..=300_100).contains(&(r.deletion.unwrap() - r.taint.unwrap())));
        assert!((1..=100).contains(&(r.replacement_created.unwrap() - r.deletion.unwrap())));
        // The StatefulSet pod on n0 stays Terminating: never removed, never recreated.
        let stuck: Vec<&str> = of_kind(&o, EventKind::PodDeletionRequested)
            .into_iter()
            .filter_map(|e| e.pod.as_deref())
            .filter(|p| p.starts_with("db-"))
            .collect();
        assert_eq!(stuck.len(), 1);
        assert!(!of_kind(&o, EventKind::PodRemoved)
            .into_iter()
            .any(|e| e.pod.as_deref() == Some(stuck[0])));
        assert_eq!(
            o.summary.nodes[0].replacements_ready_at_ms, None,
            "one replacement (the StatefulSet's) never comes"
        );
    }
}

#[test]
fn g71_controller_manager_restart_restarts_the_countdown() {
    let s = scenario(
        r#"{"version":"1.32","durationSeconds":700,"nodes":[{"name":"a"},{"name":"b"},{"name":"c"}],
        "workloads":[{"kind":"Deployment","name":"web","replicas":3}],
        "events":[{"at":"0s","action":"NodeCrash","node":"a"},
                  {"at":"200s","action":"ControllerManagerRestart","duration":"15s"}]}"#,
    );
    for seed in 1..=10 {
        let o = run_seed(&s, seed);
        let deletion = o.summary.nodes[0].first_deletion_at_ms.unwrap();
        // New leader at 215s: the first pass removes and re-enqueues the taint, the next 100ms tick
        // re-adds it, and a fresh 300s countdown starts.
        assert!(
            (515_000..=515_300).contains(&deletion),
            "deletion at {deletion}, not ~350s"
        );
        let removed = of_kind(&o, EventKind::TaintRemoved)
            .into_iter()
            .any(|e| e.at_ms == 215_000 && e.taint.as_deref() == Some("node.kubernetes.io/unreachable:NoExecute"));
        assert!(
            removed,
            "the restarted controller removes the NoExecute taint at start-up"
        );
    }
}

#[test]
fn g72_kubelet_back_at_100s_cancels_everything() {
    let s = scenario(
        r#"{"version":"1.32","durationSeconds":600,"nodes":[{"name":"a"},{"name":"b"},{"name":"c"}],
        "workloads":[{"kind":"Deployment","name":"web","replicas":3}],
        "events":[{"at":"0s","action":"KubeletStop","node":"a"},{"at":"100s","action":"NodeRecover","node":"a"}]}"#,
    );
    for seed in 1..=10 {
        let o = run_seed(&s, seed);
        assert!(o.summary.nodes[0].taint_at_ms.is_some());
        assert_eq!(of_kind(&o, EventKind::PodDeletionRequested).len(), 0);
        let cancelled = of_kind(&o, EventKind::PodEvictionCancelled).len();
        assert!(cancelled >= 1);
        let ready_again = of_kind(&o, EventKind::NodeReady)
            .into_iter()
            .find(|e| e.at_ms > 0)
            .unwrap()
            .at_ms;
        assert!(
            (100_000..=110_500).contains(&ready_again),
            "status patched within one tick of recovery, got {ready_again}"
        );
    }
}

#[test]
fn g73_six_of_ten_in_one_zone_stop_tainting() {
    let nodes: Vec<String> = (0..10).map(|i| format!(r#"{{"name":"n{i}","zone":"z"}}"#)).collect();
    let events: Vec<String> = (0..6)
        .map(|i| format!(r#"{{"at":"0s","action":"NodeCrash","node":"n{i}"}}"#))
        .collect();
    let s = scenario(&format!(
        r#"{{"version":"1.32","durationSeconds":400,"nodes":[{}],"events":[{}]}}"#,
        nodes.join(","),
        events.join(",")
    ));
    for seed in 1..=20 {
        let o = run_seed(&s, seed);
        let partial = of_kind(&o, EventKind::ZoneStateChanged)
            .into_iter()
            .find(|e| format!("{:?}", e.state) == "Some(PartialDisruption)")
            .map(|e| e.at_ms)
            .expect("zone becomes PartialDisruption");
        let tainted: Vec<i64> = of_kind(&o, EventKind::TaintAdded)
            .into_iter()
            .filter(|e| e.taint.as_deref().is_some_and(|t| t.ends_with(":NoExecute")))
            .map(|e| e.at_ms)
            .collect();
        assert!(tainted.len() < 6, "seed {seed}: {} nodes tainted", tainted.len());
        assert!(
            tainted.iter().all(|&t| t < partial + 100),
            "no taint after the zone turned PartialDisruption (rate 0 for ≤ 50 nodes)"
        );
        for w in tainted.windows(2) {
            assert!(
                w[1] - w[0] >= 9_900,
                "taints in a Normal zone are ≥10s apart (0.1 nodes/s)"
            );
        }
    }
}

#[test]
fn g74_single_node_never_tainted_or_evicted() {
    let o = run_ok(
        r#"{"version":"1.32","durationSeconds":900,"nodes":[{"name":"solo"}],
        "workloads":[{"kind":"Deployment","name":"web","replicas":2}],
        "events":[{"at":"0s","action":"NodeCrash","node":"solo"}]}"#,
    );
    assert!(o.summary.nodes[0].unknown_at_ms.is_some());
    assert_eq!(o.summary.nodes[0].taint_at_ms, None);
    assert_eq!(of_kind(&o, EventKind::PodDeletionRequested).len(), 0);
}

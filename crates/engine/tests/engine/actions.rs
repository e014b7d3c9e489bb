//! Operator actions and faults of engine part 2, each checked against its upstream rule.

use crate::common::{of_kind as events, run_ok};
use kubelife_engine::{EventKind, Outcome};

const CLUSTER: &str = r#""nodes":[{"name":"a","zone":"z1"},{"name":"b","zone":"z2"},{"name":"c","zone":"z3"}],
    "workloads":[{"kind":"StatefulSet","name":"db","replicas":1},{"kind":"Deployment","name":"web","replicas":2},{"kind":"DaemonSet","name":"agent"}]"#;

/// Where db-0 runs at the start (the scheduler spreads; the first node takes the first pod).
const DB_NODE: &str = "a";

#[test]
fn out_of_service_taint_brings_the_statefulset_pod_back() {
    let o = run_ok(&format!(
        r#"{{"version":"1.32","durationSeconds":300,{CLUSTER},
        "events":[{{"at":"10s","action":"NodeCrash","node":"{DB_NODE}"}},{{"at":"120s","action":"OutOfServiceTaint","node":"{DB_NODE}"}}]}}"#
    ));
    let deleted = events(&o, EventKind::PodDeletionRequested)
        .into_iter()
        .find(|e| e.pod.as_deref() == Some("db-0"))
        .expect("evicted at once by the NoExecute taint");
    assert_eq!(deleted.at_ms / 1000, 120, "deleted right after the taint at 120s");
    let removed = events(&o, EventKind::PodRemoved)
        .into_iter()
        .find(|e| e.pod.as_deref() == Some("db-0"))
        .expect("PodGC force-deletes it");
    assert!(
        removed.at_ms > deleted.at_ms && removed.at_ms <= deleted.at_ms + 20_100,
        "within PodGC's 20s period: {}",
        removed.at_ms
    );
    assert!(removed.cause.english().contains("gcTerminating"));
    let back = events(&o, EventKind::PodReady)
        .into_iter()
        .find(|e| e.pod.as_deref() == Some("db-0") && e.at_ms > removed.at_ms)
        .expect("db-0 runs again");
    assert_ne!(back.node.as_deref(), Some(DB_NODE), "elsewhere");
}

#[test]
fn out_of_service_before_1_26_leaves_the_pod_stuck() {
    let o = run_ok(&format!(
        r#"{{"version":"1.25","durationSeconds":300,{CLUSTER},
        "events":[{{"at":"10s","action":"NodeCrash","node":"{DB_NODE}"}},{{"at":"120s","action":"OutOfServiceTaint","node":"{DB_NODE}"}}]}}"#
    ));
    assert!(
        o.warnings
            .iter()
            .any(|w| w.english().contains("NodeOutOfServiceVolumeDetach is off")),
        "{:?}",
        o.warnings
    );
    assert!(!events(&o, EventKind::PodRemoved)
        .iter()
        .any(|e| e.pod.as_deref() == Some("db-0")));
}

#[test]
fn deleting_the_node_frees_its_pods_after_the_quarantine() {
    let o = run_ok(&format!(
        r#"{{"version":"1.32","durationSeconds":400,{CLUSTER},
        "events":[{{"at":"10s","action":"NodeCrash","node":"{DB_NODE}"}},{{"at":"100s","action":"DeleteNode","node":"{DB_NODE}"}}]}}"#
    ));
    assert_eq!(events(&o, EventKind::NodeDeleted).len(), 1);
    let removed = events(&o, EventKind::PodRemoved)
        .into_iter()
        .find(|e| e.pod.as_deref() == Some("db-0"))
        .expect("orphan collected");
    let delay = removed.at_ms - 100_000;
    assert!(
        (40_000..=80_100).contains(&delay),
        "40s quarantine plus up to one 20s period, then rounding to a run: {delay}"
    );
    assert!(events(&o, EventKind::PodReady)
        .iter()
        .any(|e| e.pod.as_deref() == Some("db-0") && e.at_ms > removed.at_ms));
}

#[test]
fn force_deleting_a_statefulset_pod_recreates_it_elsewhere() {
    let o = run_ok(&format!(
        r#"{{"version":"1.32","durationSeconds":400,{CLUSTER},
        "events":[{{"at":"10s","action":"NodeCrash","node":"{DB_NODE}"}},{{"at":"200s","action":"ForceDeletePod","pod":"db-0"}},
                  {{"at":"210s","action":"ForceDeletePod","pod":"db-7"}}]}}"#
    ));
    let removed = events(&o, EventKind::PodRemoved)
        .into_iter()
        .find(|e| e.pod.as_deref() == Some("db-0"))
        .unwrap();
    assert_eq!(removed.at_ms, 200_000);
    let created = events(&o, EventKind::PodCreated)
        .into_iter()
        .find(|e| e.pod.as_deref() == Some("db-0") && e.at_ms > 0)
        .unwrap();
    assert!(created.at_ms - 200_000 <= 100);
    assert!(
        o.warnings.iter().any(|w| w.english().contains("db-7")),
        "a pod that does not exist is reported, not a crash"
    );
}

#[test]
fn drain_cordons_and_evicts_all_but_daemon_pods() {
    let o = run_ok(&format!(
        r#"{{"version":"1.32","durationSeconds":120,{CLUSTER},"events":[{{"at":"10s","action":"Drain","node":"a"}}]}}"#
    ));
    assert_eq!(events(&o, EventKind::NodeCordoned).len(), 1);
    assert!(events(&o, EventKind::TaintAdded)
        .iter()
        .any(|e| e.taint.as_deref() == Some("node.kubernetes.io/unschedulable:NoSchedule")));
    let evicted: Vec<&str> = events(&o, EventKind::PodDeletionRequested)
        .iter()
        .filter_map(|e| e.pod.as_deref())
        .collect();
    assert!(
        !evicted.is_empty() && evicted.iter().all(|p| !p.starts_with("agent")),
        "{evicted:?}"
    );
    // A live kubelet stops them and the objects go; nothing new lands on the cordoned node.
    assert_eq!(events(&o, EventKind::PodRemoved).len(), evicted.len());
    assert!(events(&o, EventKind::PodScheduled)
        .iter()
        .filter(|e| e.at_ms > 10_000)
        .all(|e| e.node.as_deref() != Some("a")));
}

/// Each operator action faults the node it acts on (`ActionKind::faulted`) unless a fault of
/// that node came first: the summary lists the node with its fault, and the milestones start at
/// the action's first event. Each case: the scenario's events, the faulted nodes with their
/// fault (ms), and the cause key of the first node's fault event.
#[test]
fn an_operator_action_faults_its_node() {
    let at = |t: &str, action: &str, node: &str| format!(r#"{{"at":"{t}","action":"{action}","node":"{node}"}}"#);
    let force = r#"{"at":"40s","action":"ForceDeletePod","pod":"db-0"}"#.to_string();
    type Case = (Vec<String>, &'static [(&'static str, i64)], &'static str);
    let cases: [Case; 6] = [
        (vec![at("10s", "Drain", "a")], &[("a", 10_000)], "cause.drain.cordon"),
        (
            vec![at("20s", "OutOfServiceTaint", "b")],
            &[("b", 20_000)],
            "cause.out_of_service",
        ),
        (
            vec![at("30s", "DeleteNode", "c")],
            &[("c", 30_000)],
            "cause.node_deleted",
        ),
        (vec![force], &[(DB_NODE, 40_000)], "cause.force_deleted"),
        // A crash first: the drain that follows is no new fault of the node.
        (
            vec![at("10s", "NodeCrash", "a"), at("50s", "Drain", "a")],
            &[("a", 10_000)],
            "cause.fault.crash",
        ),
        // Two nodes, each faulted by its own: the first in the cluster's order heads the list.
        (
            vec![at("5s", "Drain", "b"), at("10s", "NodeCrash", "a")],
            &[("a", 10_000), ("b", 5_000)],
            "cause.fault.crash",
        ),
    ];
    for (actions, want, key) in cases {
        let o = run_ok(&format!(
            r#"{{"version":"1.32","durationSeconds":120,{CLUSTER},"events":[{}]}}"#,
            actions.join(",")
        ));
        let got: Vec<(&str, Option<i64>)> = o
            .summary
            .nodes
            .iter()
            .map(|n| (n.node.as_str(), n.fault_at_ms))
            .collect();
        let want: Vec<(&str, Option<i64>)> = want.iter().map(|&(n, t)| (n, Some(t))).collect();
        assert_eq!(got, want, "{actions:?}");
        let m = kubelife_engine::milestones::milestones(&o);
        let first = m.events.fault.map(|i| o.events[i].cause.key);
        assert_eq!(first, Some(key), "{actions:?}");
    }
}

#[test]
fn node_join_registers_and_gets_its_daemon_pod() {
    let o = run_ok(
        r#"{"version":"1.32","durationSeconds":120,"nodes":[{"name":"a"},{"name":"late"}],
        "workloads":[{"kind":"DaemonSet","name":"agent"}],
        "events":[{"at":"30s","action":"NodeJoin","node":"late"}]}"#,
    );
    let created = events(&o, EventKind::NodeCreated);
    assert_eq!(created.len(), 1);
    assert_eq!(created[0].at_ms, 30_100, "first registration attempt after 100ms");
    let registered = events(&o, EventKind::NodeRegistered)
        .into_iter()
        .find(|e| e.node.as_deref() == Some("late") && e.at_ms > 0)
        .expect("the node lifecycle controller registers it");
    assert!(registered.at_ms - 30_100 <= 5_100, "at its next monitor pass");
    let daemon = events(&o, EventKind::PodReady)
        .into_iter()
        .find(|e| e.node.as_deref() == Some("late"))
        .expect("a daemon pod runs there");
    assert!(daemon.pod.as_deref().unwrap().starts_with("agent-"));
    assert!(o.summary.nodes.is_empty(), "no fault");
    assert!(
        events(&o, EventKind::NodeUnknown).is_empty(),
        "a registering kubelet posts Ready at once"
    );
}

#[test]
fn api_latency_spike_makes_a_healthy_node_unknown_with_tight_settings() {
    let tight = |latency: i64| {
        run_ok(&format!(
            r#"{{"version":"1.32","durationSeconds":200,"kubelet":{{"nodeLeaseDurationSeconds":12}},
            "controllerManager":{{"nodeMonitorPeriod":"1s","nodeMonitorGracePeriod":"5s"}},
            "nodes":[{{"name":"a"}},{{"name":"b"}},{{"name":"c"}}],
            "events":[{{"at":"30s","action":"ApiServerLatency","latencyMs":{latency}}},{{"at":"90s","action":"ApiServerLatency","latencyMs":0}}]}}"#
        ))
    };
    let spiked = tight(2_000);
    assert_eq!(events(&spiked, EventKind::ApiServerLatencyChanged).len(), 2);
    assert!(
        !events(&spiked, EventKind::NodeUnknown).is_empty(),
        "3s renewals plus 2s latency exceed a 5s grace"
    );
    assert!(
        events(&tight(0), EventKind::NodeUnknown).is_empty(),
        "no false Unknown without the spike"
    );
}

#[test]
fn crashed_node_restarts_its_pods_on_recovery() {
    let o = run_ok(
        r#"{"version":"1.32","durationSeconds":200,"nodes":[{"name":"a"},{"name":"b"}],
        "workloads":[{"kind":"Deployment","name":"web","replicas":2}],
        "events":[{"at":"10s","action":"NodeCrash","node":"a"},{"at":"100s","action":"NodeRecover","node":"a"}]}"#,
    );
    let ready = events(&o, EventKind::PodReady)
        .into_iter()
        .find(|e| e.node.as_deref() == Some("a") && e.at_ms > 0)
        .expect("restarted");
    assert_eq!(ready.at_ms, 105_000, "pod startup (5s) after the kubelet is back");
}

#[test]
fn legacy_path_is_active_exactly_where_upstream_had_it() {
    let run = |version: &str, extra: &str| {
        run_ok(&format!(
            r#"{{"version":"{version}","durationSeconds":420,{extra}"nodes":[{{"name":"a"}},{{"name":"b"}}],
            "workloads":[{{"kind":"Deployment","name":"web","replicas":2}},{{"kind":"DaemonSet","name":"agent"}}],
            "events":[{{"at":"0s","action":"NodeCrash","node":"a"}}]}}"#
        ))
    };
    let legacy =
        |o: &Outcome| o.summary.nodes[0].taint_at_ms.is_none() && o.summary.nodes[0].first_deletion_at_ms.is_some();
    assert!(legacy(&run("1.12", "")), "1.12 default");
    assert!(!legacy(&run("1.13", "")), "1.13 taints by default");
    assert!(
        legacy(&run("1.17", r#""featureGates":{"TaintBasedEvictions":false},"#)),
        "1.13–1.17 with the gate off"
    );
    assert!(
        legacy(&run("1.26", r#""controllerManager":{"enableTaintManager":false},"#)),
        "up to 1.26 without the taint manager"
    );
    let o = run("1.12", "");
    let deleted: Vec<&str> = events(&o, EventKind::PodDeletionRequested)
        .iter()
        .filter_map(|e| e.pod.as_deref())
        .collect();
    assert!(
        !deleted.is_empty() && deleted.iter().all(|p| !p.starts_with("agent")),
        "DaemonSet pods are skipped: {deleted:?}"
    );
}

/// Upstream #102993 and G60 at scenario level: lengthening tolerationSeconds after the taint
/// leaves the planned deletion where it was; the same patch before the taint counts. Node b runs
/// a web pod.
#[test]
fn patching_tolerations_helps_only_before_the_taint() {
    let run = |patch_at: &str| {
        run_ok(&format!(
            r#"{{"version":"1.32","durationSeconds":900,{CLUSTER},
            "events":[{{"at":"10s","action":"NodeCrash","node":"b"}},
                      {{"at":"{patch_at}","action":"PatchTolerations","workload":"web","tolerationSeconds":3600}}]}}"#
        ))
    };
    let web_deleted = |o: &Outcome| {
        events(o, EventKind::PodDeletionRequested)
            .into_iter()
            .filter(|e| e.pod.as_deref().is_some_and(|p| p.starts_with("web-")))
            .map(|e| e.at_ms)
            .min()
    };
    let late = run("200s");
    let patched = events(&late, EventKind::PodTolerationsPatched);
    assert!(!patched.is_empty());
    assert!(patched[0].cause.english().contains("#102993"), "{}", patched[0].cause);
    let baseline = run_ok(&format!(
        r#"{{"version":"1.32","durationSeconds":900,{CLUSTER},"events":[{{"at":"10s","action":"NodeCrash","node":"b"}}]}}"#
    ));
    let before = web_deleted(&baseline).expect("web pods on the dead node are evicted");
    assert_eq!(
        web_deleted(&late),
        Some(before),
        "a patch after the taint changes nothing"
    );
    let early = run("20s");
    assert_eq!(
        web_deleted(&early),
        None,
        "a patch before the taint holds the pods for an hour"
    );
}

#[test]
fn patching_tolerations_needs_a_workload_and_seconds() {
    let bad = |event: &str| {
        kubelife_engine::run_json(
            &format!(r#"{{"version":"1.32",{CLUSTER},"events":[{event}]}}"#),
            &Default::default(),
        )
        .unwrap_err()
        .to_string()
    };
    assert!(bad(r#"{"at":"1s","action":"PatchTolerations","tolerationSeconds":5}"#).contains("needs the workload"));
    assert!(
        bad(r#"{"at":"1s","action":"PatchTolerations","workload":"nope","tolerationSeconds":5}"#)
            .contains("no workload")
    );
    assert!(bad(r#"{"at":"1s","action":"PatchTolerations","workload":"web"}"#).contains("needs tolerationSeconds"));
    assert!(bad(r#"{"at":"1s","action":"NodeCrash","node":"a","workload":"web"}"#).contains("only PatchTolerations"));
}

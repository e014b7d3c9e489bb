//! Invalid scenarios are errors that name the field and the reason; defaults follow the version.

use kubelife_engine::{Scenario, ScenarioError};

pub(crate) fn err(json: &str) -> ScenarioError {
    match Scenario::from_json(json).and_then(|s| s.resolve()) {
        Ok(_) => panic!("{json} should be rejected"),
        Err(e) => e,
    }
}

const NODE: &str = r#""nodes": [{"name": "n1"}]"#;

#[test]
fn unknown_fields_are_named() {
    let e = err(&format!(
        r#"{{{NODE}, "kubelet": {{"nodeStatusUpdateFreqency": "10s"}}}}"#
    ));
    assert!(e.to_string().contains("nodeStatusUpdateFreqency"), "{e}");
    assert!(e.field.starts_with("kubelet"), "{}", e.field);
    let e = err(&format!(r#"{{{NODE}, "banana": 1}}"#));
    assert!(e.to_string().contains("banana"), "{e}");
}

#[test]
fn values_upstream_refuses_are_errors() {
    let cases = [
        (
            r#""controllerManager": {"nodeMonitorPeriod": "0s"}"#,
            "controllerManager.nodeMonitorPeriod",
            "greater than 0s",
        ),
        (
            r#""controllerManager": {"nodeMonitorGracePeriod": "-5s"}"#,
            "controllerManager.nodeMonitorGracePeriod",
            "greater than 0s",
        ),
        (
            r#""kubelet": {"nodeStatusUpdateFrequency": "ten"}"#,
            "kubelet.nodeStatusUpdateFrequency",
            "invalid duration",
        ),
        (
            r#""kubelet": {"nodeLeaseDurationSeconds": 0}"#,
            "kubelet.nodeLeaseDurationSeconds",
            "between 1",
        ),
        (
            r#""controllerManager": {"nodeEvictionRate": -1}"#,
            "controllerManager.nodeEvictionRate",
            "at least 0",
        ),
        (
            r#""controllerManager": {"unhealthyZoneThreshold": 1.5}"#,
            "controllerManager.unhealthyZoneThreshold",
            "between 0 and 1",
        ),
        (
            r#""apiServer": {"defaultUnreachableTolerationSeconds": -1}"#,
            "apiServer.defaultUnreachableTolerationSeconds",
            "between 0",
        ),
        (r#""version": "1.11""#, "version", "supported versions"),
        (r#""durationSeconds": 0"#, "durationSeconds", "between 1"),
    ];
    for (part, field, reason) in cases {
        let e = err(&format!(r#"{{{NODE}, {part}}}"#));
        assert_eq!(e.field, field, "{part}");
        assert!(e.reason.english().contains(reason), "{part}: {e}");
    }
}

#[test]
fn structure_errors_are_named() {
    assert_eq!(err(r#"{"nodes": []}"#).field, "nodes");
    assert_eq!(
        err(r#"{"nodes": [{"name": "a"}, {"name": "a"}]}"#).field,
        "nodes[1].name"
    );
    assert_eq!(err(r#"{"nodes": [{"name": "Bad_Name"}]}"#).field, "nodes[0].name");
    let e = err(&format!(
        r#"{{{NODE}, "workloads": [{{"kind": "DaemonSet", "name": "ds", "replicas": 3}}]}}"#
    ));
    assert_eq!(e.field, "workloads[0].replicas");
    let e = err(&format!(
        r#"{{{NODE}, "workloads": [{{"kind": "Deployment", "name": "w", "tolerations": [{{"key": "k", "tolerationSeconds": 5, "effect": "NoSchedule"}}]}}]}}"#
    ));
    assert_eq!(e.field, "workloads[0].tolerations[0].tolerationSeconds");
    let e = err(&format!(
        r#"{{{NODE}, "events": [{{"at": "10s", "action": "NodeCrash", "node": "ghost"}}]}}"#
    ));
    assert_eq!(e.field, "events[0].node");
    let e = err(&format!(
        r#"{{{NODE}, "events": [{{"at": "10s", "action": "Explode", "node": "n1"}}]}}"#
    ));
    assert!(e.field.starts_with("events[0]"), "{e}");
    let e = err(&format!(
        r#"{{{NODE}, "durationSeconds": 60, "events": [{{"at": "2m0s", "action": "NodeCrash", "node": "n1"}}]}}"#
    ));
    assert_eq!(e.field, "events[0].at");
}

#[test]
fn absurd_sizes_are_refused_not_attempted() {
    let nodes: Vec<String> = (0..5000).map(|i| format!(r#"{{"name": "n{i}"}}"#)).collect();
    let json = format!(
        r#"{{"durationSeconds": 21600, "kubelet": {{"nodeStatusUpdateFrequency": "100ms"}}, "nodes": [{}]}}"#,
        nodes.join(",")
    );
    let e = err(&json);
    assert!(e.reason.english().contains("too large"), "{e}");
    let e = err(&format!(
        r#"{{{NODE}, "workloads": [{{"kind": "Deployment", "name": "w", "replicas": 4000000}}]}}"#
    ));
    assert_eq!(e.field, "workloads");
}

#[test]
fn defaults_follow_the_version() {
    let cfg = |v: &str| {
        Scenario::from_json(&format!(r#"{{"version": "{v}", {NODE}}}"#))
            .unwrap()
            .resolve()
            .unwrap()
    };
    assert_eq!(cfg("1.31").controller_manager.node_monitor_grace_period, 40_000);
    assert_eq!(cfg("1.32").controller_manager.node_monitor_grace_period, 50_000);
    let newest = Scenario::from_json(&format!("{{{NODE}}}")).unwrap().resolve().unwrap();
    assert!(newest.profile.version.minor >= 32);
    assert_eq!(newest.kubelet.node_status_report_frequency, 300_000);
}

#[test]
fn update_frequency_alone_sets_the_report_frequency() {
    // KubeletConfiguration defaulting (spec §1.2).
    let s = Scenario::from_json(&format!(
        r#"{{{NODE}, "kubelet": {{"nodeStatusUpdateFrequency": "4s"}}}}"#
    ))
    .unwrap()
    .resolve()
    .unwrap();
    assert_eq!(s.kubelet.node_status_report_frequency, 4_000);
    let s = Scenario::from_json(&format!(
        r#"{{{NODE}, "kubelet": {{"nodeStatusUpdateFrequency": "4s", "nodeStatusReportFrequency": "1m0s"}}}}"#
    ))
    .unwrap()
    .resolve()
    .unwrap();
    assert_eq!(s.kubelet.node_status_report_frequency, 60_000);
}

#[test]
fn scenario_round_trips_through_json() {
    let text = r#"{"version": "1.32", "seed": 7, "durationSeconds": 600,
        "kubelet": {"nodeStatusUpdateFrequency": "10s", "nodeStatusReportFrequency": "5m0s", "nodeLeaseDurationSeconds": 40},
        "controllerManager": {"nodeMonitorPeriod": "5s", "nodeMonitorGracePeriod": "50s"},
        "nodes": [{"name": "node-1", "zone": "zone-a"}],
        "workloads": [{"kind": "Deployment", "name": "web", "replicas": 3, "tolerations": [{"key": "node.kubernetes.io/unreachable", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 60}]}],
        "events": [{"at": "1m0s", "action": "NodeCrash", "node": "node-1"}]}"#;
    let s = Scenario::from_json(text).unwrap();
    let again = Scenario::from_json(&s.to_json()).unwrap();
    assert_eq!(s, again);
    assert!(s.to_json().contains("\"5m0s\""));
}

fn warnings(json: &str) -> Vec<String> {
    Scenario::from_json(json)
        .and_then(|s| s.resolve())
        .unwrap_or_else(|e| panic!("{json}: {e}"))
        .warnings
        .iter()
        .map(|w| w.english())
        .collect()
}

#[test]
fn legacy_flags_follow_the_version() {
    let e = err(&format!(
        r#"{{"version": "1.27", {NODE}, "controllerManager": {{"podEvictionTimeout": "30s"}}}}"#
    ));
    assert_eq!(e.field, "controllerManager.podEvictionTimeout");
    assert!(
        e.reason
            .english()
            .contains("--pod-eviction-timeout was removed in Kubernetes 1.27"),
        "{e}"
    );
    let e = err(&format!(
        r#"{{"version": "1.30", {NODE}, "controllerManager": {{"enableTaintManager": false}}}}"#
    ));
    assert_eq!(e.field, "controllerManager.enableTaintManager");
    let w = warnings(&format!(
        r#"{{"version": "1.20", {NODE}, "controllerManager": {{"podEvictionTimeout": "30s"}}}}"#
    ));
    assert!(
        w.iter()
            .any(|w| w.contains("--pod-eviction-timeout has no effect on 1.20")),
        "{w:?}"
    );
    assert!(
        warnings(&format!(
            r#"{{"version": "1.12", {NODE}, "controllerManager": {{"podEvictionTimeout": "30s"}}}}"#
        ))
        .is_empty(),
        "used, so no warning"
    );
    let w = warnings(&format!(
        r#"{{"version": "1.25", {NODE}, "controllerManager": {{"enableTaintManager": true}}}}"#
    ));
    assert!(w.iter().any(|w| w.contains("deprecated")), "{w:?}");
}

#[test]
fn feature_gates_follow_upstream_rules() {
    let e = err(&format!(
        r#"{{"version": "1.18", {NODE}, "featureGates": {{"TaintBasedEvictions": false}}}}"#
    ));
    assert_eq!(e.field, "featureGates.TaintBasedEvictions");
    assert!(
        e.reason
            .english()
            .contains("cannot set feature gate TaintBasedEvictions to false, feature is locked to true"),
        "{e}"
    );
    let e = err(&format!(
        r#"{{"version": "1.21", {NODE}, "featureGates": {{"TaintBasedEvictions": false}}}}"#
    ));
    assert!(e.reason.english().contains("unrecognized feature gate"), "{e}");
    let e = err(&format!(
        r#"{{"version": "1.20", {NODE}, "featureGates": {{"NodeOutOfServiceVolumeDetach": true}}}}"#
    ));
    assert!(e.reason.english().contains("arrived in 1.24"), "{e}");
    let e = err(&format!(
        r#"{{"version": "1.20", {NODE}, "featureGates": {{"MadeUp": true}}}}"#
    ));
    assert_eq!(e.field, "featureGates.MadeUp");
    assert!(warnings(&format!(
        r#"{{"version": "1.16", {NODE}, "featureGates": {{"TaintBasedEvictions": false}}}}"#
    ))
    .iter()
    .any(|w| w.contains("TaintBasedEvictions=false")));
    let w = warnings(&format!(
        r#"{{"version": "1.19", {NODE}, "featureGates": {{"NodeLease": true}}}}"#
    ));
    assert!(w.iter().any(|w| w.contains("GA and always on")), "{w:?}");
}

#[test]
fn older_kubelet_fields_are_checked() {
    let e = err(&format!(
        r#"{{"version": "1.12", {NODE}, "kubelet": {{"nodeStatusReportFrequency": "1m0s"}}}}"#
    ));
    assert!(e.reason.english().contains("before 1.13"), "{e}");
    let w = warnings(&format!(
        r#"{{"version": "1.13", {NODE}, "kubelet": {{"nodeStatusReportFrequency": "1m0s"}}}}"#
    ));
    assert!(w.iter().any(|w| w.contains("NodeLease is off")), "{w:?}");
    let cfg = Scenario::from_json(&format!(r#"{{"version": "1.14", {NODE}}}"#))
        .unwrap()
        .resolve()
        .unwrap();
    assert_eq!(
        (
            cfg.kubelet.node_status_report_frequency,
            cfg.kubelet.lease_renew_interval
        ),
        (60_000, 10_000)
    );
    let cfg = Scenario::from_json(&format!(r#"{{"version": "1.12", {NODE}}}"#))
        .unwrap()
        .resolve()
        .unwrap();
    assert!(!cfg.kubelet.node_lease && !cfg.controller_manager.taint_based_evictions);
}

#[test]
fn actions_check_their_parameters() {
    let base = |events: &str| {
        format!(r#"{{{NODE}, "workloads": [{{"kind": "StatefulSet", "name": "db"}}], "events": [{events}]}}"#)
    };
    assert_eq!(
        err(&base(r#"{"at": "1s", "action": "NodeCrash"}"#)).field,
        "events[0].node"
    );
    assert_eq!(
        err(&base(
            r#"{"at": "1s", "action": "ControllerManagerRestart", "node": "n1"}"#
        ))
        .field,
        "events[0].node"
    );
    assert_eq!(
        err(&base(r#"{"at": "1s", "action": "ForceDeletePod"}"#)).field,
        "events[0].pod"
    );
    assert_eq!(
        err(&base(r#"{"at": "1s", "action": "ForceDeletePod", "pod": "web-0"}"#)).field,
        "events[0].pod"
    );
    assert_eq!(
        err(&base(r#"{"at": "1s", "action": "ApiServerLatency"}"#)).field,
        "events[0].latencyMs"
    );
    assert_eq!(
        err(&base(r#"{"at": "1s", "action": "ApiServerLatency", "latencyMs": -4}"#)).field,
        "events[0].latencyMs"
    );
    assert_eq!(
        err(&base(
            r#"{"at": "1s", "action": "NodeCrash", "node": "n1", "latencyMs": 4}"#
        ))
        .field,
        "events[0].latencyMs"
    );
    assert_eq!(
        err(&base(
            r#"{"at": "1s", "action": "OutOfServiceTaint", "node": "n1", "effect": "Sometimes"}"#
        ))
        .field,
        "events[0].effect"
    );
    let e = err(&base(
        r#"{"at": "5s", "action": "NodeCrash", "node": "n1"}, {"at": "9s", "action": "NodeJoin", "node": "n1"}"#,
    ));
    assert!(e.reason.english().contains("joins at 9s"), "{e}");
    // A valid join: the node is absent at the start, so the DaemonSet sizes to the others.
    let ok = Scenario::from_json(r#"{"nodes": [{"name": "a"}, {"name": "b"}], "workloads": [{"kind": "DaemonSet", "name": "ds"}],
        "events": [{"at": "9s", "action": "NodeJoin", "node": "b"}, {"at": "20s", "action": "NodeCrash", "node": "b"}]}"#).unwrap().resolve().unwrap();
    assert_eq!(ok.nodes[1].join_at, Some(9_000));
    assert_eq!(ok.workloads[0].replicas, 1);
}

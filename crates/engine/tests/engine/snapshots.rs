//! Readable timelines of small scenarios, checked as snapshots. `UPDATE_EXPECT=1 cargo test`
//! rewrites them after an intended change.

use crate::common::run_ok;
use expect_test::{expect, Expect};
use kubelife_engine::format_go_duration;

/// Runs `scenario` and compares its compact timeline (time, kind, subject) with `expect`.
fn check(scenario: &str, expect: Expect) {
    let o = run_ok(scenario);
    let mut out = String::new();
    for e in o.events.iter().filter(|e| !e.cause.is_initial()) {
        let mut line = format!("{:<10} {}", format_go_duration(e.at_ms), e.kind);
        for part in [&e.node, &e.pod, &e.taint].into_iter().flatten() {
            line.push(' ');
            line.push_str(part);
        }
        if let (Some(z), Some(s)) = (&e.zone, &e.state) {
            line.push_str(&format!(" zone={z} {s}"));
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    expect.assert_eq(&out);
}

const THREE_ZONES: &str =
    r#""nodes": [{"name": "node-1", "zone": "a"}, {"name": "node-2", "zone": "b"}, {"name": "node-3", "zone": "c"}]"#;

#[test]
fn crash_on_1_32_defaults() {
    check(
        &format!(
            r#"{{"version": "1.32", "durationSeconds": 420, {THREE_ZONES},
            "workloads": [{{"kind": "Deployment", "name": "web", "replicas": 2}}, {{"kind": "StatefulSet", "name": "db", "replicas": 1}}, {{"kind": "DaemonSet", "name": "agent"}}],
            "events": [{{"at": "10s", "action": "NodeCrash", "node": "node-1"}}]}}"#
        ),
        expect![[r#"
            10s        FaultStarted node-1
            1m4.534s   NodeUnknown node-1
            1m4.534s   PodNotReady node-1 web-lm9dhxfg9h-862l5
            1m4.534s   PodNotReady node-1 agent-6484g
            1m4.534s   ZoneStateChanged zone=a FullDisruption
            1m4.549s   TaintAdded node-1 node.kubernetes.io/unreachable:NoSchedule
            1m9.578s   TaintAdded node-1 node.kubernetes.io/unreachable:NoExecute
            1m9.593s   PodEvictionScheduled node-1 web-lm9dhxfg9h-862l5
            6m9.593s   PodDeletionRequested node-1 web-lm9dhxfg9h-862l5
            6m9.608s   PodCreated web-lm9dhxfg9h-zl6d2
            6m9.623s   PodScheduled node-3 web-lm9dhxfg9h-zl6d2
            6m14.638s  PodReady node-3 web-lm9dhxfg9h-zl6d2
        "#]],
    );
}

#[test]
fn kubelet_back_before_grace_changes_nothing() {
    check(
        &format!(
            r#"{{"version": "1.32", "durationSeconds": 120, {THREE_ZONES},
            "workloads": [{{"kind": "Deployment", "name": "web", "replicas": 3}}],
            "events": [{{"at": "10s", "action": "KubeletStop", "node": "node-2"}}, {{"at": "40s", "action": "NodeRecover", "node": "node-2"}}]}}"#
        ),
        expect![[r#"
            10s        FaultStarted node-2
            40s        FaultEnded node-2
        "#]],
    );
}

#[test]
fn g72_partition_healed_before_eviction_cancels_it() {
    check(
        &format!(
            r#"{{"version": "1.32", "durationSeconds": 200, {THREE_ZONES},
            "workloads": [{{"kind": "Deployment", "name": "web", "replicas": 3}}],
            "events": [{{"at": "0s", "action": "NetworkPartition", "node": "node-3"}}, {{"at": "100s", "action": "NodeRecover", "node": "node-3"}}]}}"#
        ),
        expect![[r#"
            0s         FaultStarted node-3
            49.531s    NodeUnknown node-3
            49.531s    PodNotReady node-3 web-lm9dhxfg9h-c64zr
            49.531s    ZoneStateChanged zone=c FullDisruption
            49.546s    TaintAdded node-3 node.kubernetes.io/unreachable:NoSchedule
            54.578s    TaintAdded node-3 node.kubernetes.io/unreachable:NoExecute
            54.593s    PodEvictionScheduled node-3 web-lm9dhxfg9h-c64zr
            1m40s      FaultEnded node-3
            1m40.01s   PodReady node-3 web-lm9dhxfg9h-c64zr
            1m45.545s  NodeReady node-3
            1m45.56s   TaintRemoved node-3 node.kubernetes.io/unreachable:NoSchedule
            1m49.543s  TaintRemoved node-3 node.kubernetes.io/unreachable:NoExecute
            1m49.543s  ZoneStateChanged zone=c Normal
            1m49.558s  PodEvictionCancelled node-3 web-lm9dhxfg9h-c64zr
        "#]],
    );
}

#[test]
fn g74_single_node_cluster_never_evicts() {
    check(
        r#"{"version": "1.32", "durationSeconds": 600, "nodes": [{"name": "solo"}],
            "workloads": [{"kind": "Deployment", "name": "web", "replicas": 1}],
            "events": [{"at": "5s", "action": "NodeCrash", "node": "solo"}]}"#,
        expect![[r#"
            5s         FaultStarted solo
            49.531s    NodeUnknown solo
            49.531s    PodNotReady solo web-lm9dhxfg9h-4tjk8
            49.531s    ZoneStateChanged zone= FullDisruption
            49.546s    TaintAdded solo node.kubernetes.io/unreachable:NoSchedule
        "#]],
    );
}

#[test]
fn zero_toleration_fails_over_after_grace_only() {
    check(
        &format!(
            r#"{{"version": "1.32", "durationSeconds": 120, {THREE_ZONES},
            "workloads": [{{"kind": "Deployment", "name": "api", "replicas": 1,
              "tolerations": [{{"key": "node.kubernetes.io/unreachable", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 0}}]}}],
            "events": [{{"at": "0s", "action": "NodeCrash", "node": "node-1"}}]}}"#
        ),
        expect![[r#"
            0s         FaultStarted node-1
            49.531s    NodeUnknown node-1
            49.531s    PodNotReady node-1 api-lm9dhxfg9h-4tjk8
            49.531s    ZoneStateChanged zone=a FullDisruption
            49.546s    TaintAdded node-1 node.kubernetes.io/unreachable:NoSchedule
            54.578s    TaintAdded node-1 node.kubernetes.io/unreachable:NoExecute
            54.593s    PodDeletionRequested node-1 api-lm9dhxfg9h-4tjk8
            54.608s    PodCreated api-lm9dhxfg9h-d6txb
            54.623s    PodScheduled node-2 api-lm9dhxfg9h-d6txb
            59.638s    PodReady node-2 api-lm9dhxfg9h-d6txb
        "#]],
    );
}

#[test]
fn g73_six_of_ten_nodes_in_one_zone() {
    let nodes: Vec<String> = (1..=10)
        .map(|i| format!(r#"{{"name": "n{i:02}", "zone": "z"}}"#))
        .collect();
    let events: Vec<String> = (1..=6)
        .map(|i| format!(r#"{{"at": "0s", "action": "NodeCrash", "node": "n{i:02}"}}"#))
        .collect();
    check(
        &format!(
            r#"{{"version": "1.32", "seed": 3, "durationSeconds": 120, "nodes": [{}], "events": [{}]}}"#,
            nodes.join(","),
            events.join(",")
        ),
        expect![[r#"
            0s         FaultStarted n01
            0s         FaultStarted n02
            0s         FaultStarted n03
            0s         FaultStarted n04
            0s         FaultStarted n05
            0s         FaultStarted n06
            45.336s    NodeUnknown n02
            45.336s    NodeUnknown n03
            45.336s    NodeUnknown n04
            45.351s    TaintAdded n02 node.kubernetes.io/unreachable:NoSchedule
            45.351s    TaintAdded n03 node.kubernetes.io/unreachable:NoSchedule
            45.351s    TaintAdded n04 node.kubernetes.io/unreachable:NoSchedule
            50.337s    NodeUnknown n01
            50.337s    NodeUnknown n05
            50.337s    NodeUnknown n06
            50.337s    ZoneStateChanged zone=z PartialDisruption
            50.352s    TaintAdded n01 node.kubernetes.io/unreachable:NoSchedule
            50.352s    TaintAdded n05 node.kubernetes.io/unreachable:NoSchedule
            50.352s    TaintAdded n06 node.kubernetes.io/unreachable:NoSchedule
        "#]],
    );
}

//! The remediators' limits (issue 27): a MachineHealthCheck's `nodeStartupTimeout` on a slow
//! replacement, one replacement in flight per node, Karpenter's NodeClaim garbage collection and
//! its interruption handling, and GKE's re-created node schedulable again.

use crate::common::{of_kind, run_ok};
use kubelife_engine::time::{MINUTE, SECOND};
use kubelife_engine::{EventKind, Outcome};

/// Three nodes, a Deployment of three and a StatefulSet of one with a volume, seed 3; `cloud`
/// is the whole `cloud` section (or empty) and `events` the actions.
fn cluster(cloud: &str, remediation: &str, duration: u32, events: &str) -> String {
    let cloud = if cloud.is_empty() {
        String::new()
    } else {
        format!(r#""cloud": {cloud},"#)
    };
    format!(
        r#"{{"version": "1.32", "seed": 3, "durationSeconds": {duration}, {cloud}
          "remediation": [{remediation}],
          "nodes": [{{"name": "a"}}, {{"name": "b"}}, {{"name": "c"}}],
          "workloads": [{{"kind": "Deployment", "name": "web", "replicas": 3}},
                        {{"kind": "StatefulSet", "name": "db", "replicas": 1, "volume": {{}}}}],
          "events": [{events}]}}"#
    )
}

fn at_60s(action: &str, node: &str) -> String {
    format!(r#"{{"at": "60s", "action": "{action}", "node": "{node}"}}"#)
}

fn on(o: &Outcome, kind: EventKind, node: &str) -> Vec<i64> {
    o.events
        .iter()
        .filter(|e| e.kind == kind && e.node.as_deref() == Some(node))
        .map(|e| e.at_ms)
        .collect()
}

#[test]
fn a_replacement_without_a_node_past_node_startup_timeout_is_remediated_one_at_a_time() {
    let o = run_ok(&cluster(
        "",
        r#"{"kind": "MachineHealthCheck", "replacementJoinDuration": "15m"}"#,
        3600,
        &at_60s("NodeCrash", "a"),
    ));
    assert!(o.warnings.is_empty(), "{:?}", o.warnings);
    let deleted = o.summary.nodes[0].deleted_at_ms.expect("a's Machine is deleted");
    let started = on(&o, EventKind::RemediationStarted, "a-r1");
    // The replacement is created when a's Machine is gone (its Node deleted then); nodeChecks
    // looks again 10m0s + 1s later and finds no Node.
    assert_eq!(
        started.first().copied(),
        Some(deleted + 10 * MINUTE + SECOND),
        "{started:?}"
    );
    let said = of_kind(&o, EventKind::RemediationStarted)
        .into_iter()
        .find(|e| e.node.as_deref() == Some("a-r1"))
        .map(|e| e.cause.english())
        .unwrap();
    assert!(
        said.contains("nodeStartupTimeout 10m0s")
            && said.contains("replacement Machine for a")
            && said.contains("v1.11"),
        "{said}"
    );
    // Each next replacement is created only once the timed-out one's VM is gone (two round
    // trips and V = 1m0s), and times out in turn: never two in flight, never a Node.
    for pair in started.windows(2) {
        assert!(pair[1] - pair[0] >= 11 * MINUTE + SECOND, "{started:?}");
    }
    assert!(started.len() >= 2, "{started:?}");
    assert!(
        on(&o, EventKind::NodeCreated, "a-r1").is_empty(),
        "15m0s never fits in 10m0s"
    );
}

#[test]
fn a_replacement_joining_within_node_startup_timeout_is_left_alone() {
    for (mhc, joined_after) in [
        (
            r#"{"kind": "MachineHealthCheck", "replacementJoinDuration": "9m"}"#,
            9 * MINUTE,
        ),
        (
            r#"{"kind": "MachineHealthCheck", "replacementJoinDuration": "15m", "nodeStartupTimeout": "0s"}"#,
            15 * MINUTE,
        ),
    ] {
        let o = run_ok(&cluster("", mhc, 3600, &at_60s("NodeCrash", "a")));
        let deleted = o.summary.nodes[0].deleted_at_ms.unwrap();
        assert!(on(&o, EventKind::RemediationStarted, "a-r1").is_empty(), "{mhc}");
        assert_eq!(
            on(&o, EventKind::NodeCreated, "a-r1"),
            vec![deleted + joined_after],
            "{mhc}"
        );
    }
}

#[test]
fn two_remediators_on_one_node_bring_one_replacement() {
    // EKS replaces the instance at 5m0s exact; the MachineHealthCheck judges the same node one
    // second later and deletes its Machine, with no second spare to create.
    let o = run_ok(&cluster(
        r#"{"provider": "aws"}"#,
        r#"{"kind": "EKSNodeAutoRepair", "readyTimeout": "5m"}, {"kind": "MachineHealthCheck"}"#,
        1800,
        &at_60s("NodeCrash", "a"),
    ));
    let by: Vec<_> = of_kind(&o, EventKind::RemediationStarted)
        .iter()
        .map(|e| e.remediator.clone().unwrap())
        .collect();
    assert_eq!(by, ["EKSNodeAutoRepair", "MachineHealthCheck"]);
    let created: Vec<_> = of_kind(&o, EventKind::NodeCreated)
        .iter()
        .map(|e| e.node.clone().unwrap())
        .collect();
    assert_eq!(created, ["a-r1"], "one replacement for a");
}

#[test]
fn karpenter_garbage_collects_a_terminated_instances_node_before_azures_cache_sees_it() {
    // Azure's cloud controller sees the VM gone through its 10m0s cache; Karpenter's garbage
    // collection lists the instances every 2 minutes.
    let o = run_ok(&cluster(
        r#"{"provider": "azure", "vmCacheTtl": "30m"}"#,
        r#"{"kind": "KarpenterNodeRepair"}"#,
        1800,
        &at_60s("InstanceTerminated", "a"),
    ));
    let node = &o.summary.nodes[0];
    let unknown = node.unknown_at_ms.expect("a is Unknown");
    let deleted = node.deleted_at_ms.expect("a's Node is deleted");
    assert!(
        deleted > unknown && deleted - unknown <= 2 * MINUTE,
        "{unknown} → {deleted}"
    );
    let said = of_kind(&o, EventKind::NodeDeleted)[0].cause.english();
    assert!(
        said.contains("NodeClaim garbage collection (v0.32+, every 2m0s)") && said.contains("gone (since t=1m30s)"),
        "{said}"
    );
    assert!(
        of_kind(&o, EventKind::RemediationStarted).is_empty(),
        "no repair: a deletion"
    );
}

#[test]
fn karpenters_interruption_queue_drains_a_terminated_instance_and_lets_go_of_the_node() {
    // A state-change message: the instance is already going, so the pods stay Terminating; the
    // Node goes once it is not Ready and the instance is gone (the termination's shortcut), or
    // the cloud controller deletes it first.
    let o = run_ok(&cluster(
        r#"{"provider": "aws"}"#,
        r#"{"kind": "KarpenterNodeRepair", "interruptionQueue": true, "interruptionMessageLatency": "2s"}"#,
        1200,
        &at_60s("InstanceTerminated", "a"),
    ));
    let e = &of_kind(&o, EventKind::RemediationStarted)[0];
    assert_eq!(e.at_ms, 62 * SECOND);
    let said = e.cause.english();
    assert!(
        said.contains("InstanceTerminatedKind message EC2 sent at t=1m0s came in 2s later"),
        "{said}"
    );
    assert!(o.summary.nodes[0]
        .deleted_at_ms
        .is_some_and(|t| t <= 2 * MINUTE + 10 * SECOND));
    assert_eq!(on(&o, EventKind::NodeCreated, "a-r1").len(), 1, "one replacement");
}

#[test]
fn gke_auto_repair_leaves_the_recreated_node_schedulable() {
    let o = run_ok(&cluster(
        r#"{"provider": "gcp"}"#,
        r#"{"kind": "GKEAutoRepair", "drainTimeout": "10m"}"#,
        2400,
        &at_60s("NodeCrash", "a"),
    ));
    let cordoned = on(&o, EventKind::NodeCordoned, "a");
    let uncordoned = on(&o, EventKind::NodeUncordoned, "a");
    assert_eq!(
        (cordoned.len(), uncordoned.len()),
        (1, 1),
        "{cordoned:?} {uncordoned:?}"
    );
    let back = on(&o, EventKind::FaultEnded, "a")[0];
    assert_eq!(uncordoned[0], back, "when the re-created VM's kubelet starts");
    let e = of_kind(&o, EventKind::NodeUncordoned)[0];
    assert!(e.cause.english().contains("GKE node auto-repair re-created the VM"));
    let untainted = o.events.iter().any(|e| {
        e.kind == EventKind::TaintRemoved
            && e.node.as_deref() == Some("a")
            && e.taint.as_deref() == Some("node.kubernetes.io/unschedulable:NoSchedule")
    });
    assert!(
        untainted,
        "the node lifecycle controller's unschedulable taint goes too"
    );
}

#[test]
fn a_node_drained_for_an_interruption_does_not_count_against_karpenters_repair_breaker() {
    // a hangs; its 1m0s Ready Unknown policy runs out while b is drained for its spot warning.
    // At most one node of three (20 %, rounded up) may match a policy: b matches none.
    let events = format!(
        r#"{}, {{"at": "160s", "action": "SpotInterruption", "node": "b"}}"#,
        at_60s("NodeCrash", "a")
    );
    let o = run_ok(&cluster(
        r#"{"provider": "aws"}"#,
        r#"{"kind": "KarpenterNodeRepair", "nodeRepair": true, "interruptionQueue": true,
            "unhealthyConditions": [{"type": "Ready", "status": "Unknown", "timeout": "1m"}]}"#,
        600,
        &events,
    ));
    let interrupted = on(&o, EventKind::RemediationStarted, "b")[0];
    let repaired = on(&o, EventKind::RemediationStarted, "a");
    assert!(of_kind(&o, EventKind::RemediationBlocked).is_empty());
    let b_deleted = on(&o, EventKind::NodeDeleted, "b")[0];
    assert!(
        repaired.len() == 1 && interrupted < repaired[0] && repaired[0] < b_deleted,
        "b from {interrupted} to {b_deleted}, a at {repaired:?}"
    );
}

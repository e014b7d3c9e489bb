//! The remediators (issue 27, spec §2–§3): Cluster API MachineHealthCheck and the managed
//! services' auto-repair, run end to end.

use crate::common::{of_kind, run_ok};
use kubelife_engine::{EventKind, Outcome};

/// Three nodes, a Deployment of three and a StatefulSet of one with a volume; `events` on a.
fn cluster(cloud: &str, remediation: &str, duration: u32, events: &str) -> String {
    let cloud = if cloud.is_empty() {
        String::new()
    } else {
        format!(r#""cloud": {{"provider": "{cloud}"}},"#)
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

fn crash(action: &str, node: &str) -> String {
    format!(r#"{{"at": "60s", "action": "{action}", "node": "{node}"}}"#)
}

fn first(o: &Outcome, kind: EventKind, node: &str) -> Option<i64> {
    o.events
        .iter()
        .find(|e| e.kind == kind && e.node.as_deref() == Some(node))
        .map(|e| e.at_ms)
}

#[test]
fn a_machine_health_check_replaces_a_crashed_node_one_second_after_its_timeout() {
    let o = run_ok(&cluster(
        "",
        r#"{"kind": "MachineHealthCheck"}"#,
        1200,
        &crash("NodeCrash", "a"),
    ));
    assert!(o.warnings.is_empty(), "{:?}", o.warnings);
    let node = &o.summary.nodes[0];
    let unknown = node.unknown_at_ms.unwrap();
    let started = node.remediation_at_ms.expect("remediationAtMs");
    let status_seen = started - unknown;
    assert!(
        (301_000..=301_200).contains(&status_seen),
        "LTT + 300s + 1s: {status_seen}"
    );
    let e = &of_kind(&o, EventKind::RemediationStarted)[0];
    assert_eq!(e.remediator.as_deref(), Some("MachineHealthCheck"));
    let said = e.cause.english();
    assert!(said.contains("v1.11") && said.contains("maxUnhealthy 100%"), "{said}");
    let deleted = node.deleted_at_ms.expect("the Node is deleted");
    // Drain (one 20 s retry), no volume wait (unreachable, v1.8+), V = 60 s.
    assert!(
        (deleted - started - 60_000) <= 20_100 && deleted - started >= 60_000,
        "{started} → {deleted}"
    );
    let said = of_kind(&o, EventKind::NodeDeleted)[0].cause.english();
    assert!(said.contains("Cluster API"), "{said}");
    let joined = first(&o, EventKind::NodeCreated, "a-r1").expect("the replacement joins");
    assert_eq!(joined - deleted, 90_000, "boot B = 90s: the kubelet registers");
    let said = of_kind(&o, EventKind::NodeCreated)[0].cause.english();
    assert!(said.contains("replacement for a"), "{said}");
}

#[test]
fn max_unhealthy_holds_back_the_repair_of_two_nodes_of_three() {
    let events = format!("{}, {}", crash("NodeCrash", "a"), crash("NodeCrash", "b"));
    let o = run_ok(&cluster(
        "",
        r#"{"kind": "MachineHealthCheck", "maxUnhealthy": 1}"#,
        900,
        &events,
    ));
    assert!(of_kind(&o, EventKind::RemediationStarted).is_empty());
    let blocked = of_kind(&o, EventKind::RemediationBlocked);
    assert_eq!(blocked.len(), 2, "each node once");
    let said = blocked[0].cause.english();
    assert!(said.contains("2 of 3") && said.contains("at most 1"), "{said}");
    assert!(of_kind(&o, EventKind::NodeDeleted).is_empty());
    // The milestones name the held-back repair instead of a remediation that never came.
    let m = kubelife_engine::milestones::milestones(&o);
    assert_eq!((m.remediation, m.node_deleted), (None, None));
    let held = m.events.blocked.map(|i| &o.events[i]);
    assert_eq!(
        held.map(|e| (e.kind, e.node.as_deref())),
        Some((EventKind::RemediationBlocked, Some("a")))
    );
}

#[test]
fn a_percentage_rounds_down_and_a_recovered_node_lets_the_other_through() {
    // 40% of 3 is 1: with a and b unhealthy, nothing starts until b recovers.
    let events = format!(
        r#"{}, {}, {{"at": "500s", "action": "NodeRecover", "node": "b"}}"#,
        crash("NodeCrash", "a"),
        crash("NodeCrash", "b")
    );
    let o = run_ok(&cluster(
        "",
        r#"{"kind": "MachineHealthCheck", "maxUnhealthy": "40%"}"#,
        900,
        &events,
    ));
    let blocked = first(&o, EventKind::RemediationBlocked, "a").expect("a is held back");
    let started = first(&o, EventKind::RemediationStarted, "a").expect("then it starts");
    let ready_b = o
        .events
        .iter()
        .find(|e| e.kind == EventKind::NodeReady && e.node.as_deref() == Some("b") && e.at_ms >= 500_000)
        .map(|e| e.at_ms)
        .unwrap();
    assert!(blocked < ready_b && started >= ready_b, "{blocked} {ready_b} {started}");
    assert!(first(&o, EventKind::RemediationStarted, "b").is_none());
}

#[test]
fn before_cluster_api_1_8_an_unreachable_node_with_a_volume_is_never_deleted() {
    let mhc = r#"{"kind": "MachineHealthCheck", "clusterApiVersion": "1.7"}"#;
    let o = run_ok(&cluster("", mhc, 1800, &crash("NodeCrash", "a")));
    assert!(o.summary.nodes[0].remediation_at_ms.is_some());
    assert!(
        o.summary.nodes[0].deleted_at_ms.is_none(),
        "the volume never detaches (#10661)"
    );
    // Without the StatefulSet on a, the drain waits 5 minutes for the deleted pods.
    let o = run_ok(&cluster("", mhc, 1800, &crash("NodeCrash", "a")).replace(
        r#"{"kind": "StatefulSet", "name": "db", "replicas": 1, "volume": {}}"#,
        r#"{"kind": "Deployment", "name": "w2", "replicas": 1}"#,
    ));
    let node = &o.summary.nodes[0];
    let (started, deleted) = (node.remediation_at_ms.unwrap(), node.deleted_at_ms.unwrap());
    assert!(
        deleted - started >= 300_000 + 60_000 && deleted - started <= 340_000 + 60_000,
        "{started} → {deleted}"
    );
}

#[test]
fn a_machine_health_check_replaces_the_machine_of_a_node_the_cloud_deleted_at_once() {
    let o = run_ok(&cluster(
        "aws",
        r#"{"kind": "MachineHealthCheck"}"#,
        600,
        &crash("InstanceTerminated", "a"),
    ));
    let node = &o.summary.nodes[0];
    let deleted = node.deleted_at_ms.unwrap();
    let started = node.remediation_at_ms.expect("NodeDeleted is unhealthy at once");
    assert!(started - deleted <= 200, "{deleted} → {started}");
    let said = of_kind(&o, EventKind::RemediationStarted)[0].cause.english();
    assert!(said.contains("NodeDeleted"), "{said}");
    assert!(first(&o, EventKind::NodeCreated, "a-r1").is_some());
}

#[test]
fn gke_auto_repair_drains_for_its_timeout_then_recreates_the_vm_under_the_same_name() {
    let o = run_ok(&cluster(
        "gcp",
        r#"{"kind": "GKEAutoRepair", "drainTimeout": "10m"}"#,
        2400,
        &crash("NodeCrash", "a"),
    ));
    let node = &o.summary.nodes[0];
    let started = node.remediation_at_ms.unwrap();
    assert_eq!(started - node.unknown_at_ms.unwrap(), 600_000, "about 10 minutes");
    let back = o
        .events
        .iter()
        .find(|e| e.kind == EventKind::FaultEnded && e.node.as_deref() == Some("a"))
        .expect("the VM comes back");
    assert!(back.cause.english().contains("GKE"), "{}", back.cause.english());
    // The pods on the hung node never finish: the drain waits its whole timeout.
    assert!(back.at_ms - started >= 600_000 + 90_000 && back.at_ms - started <= 620_100 + 90_000);
    assert!(node.deleted_at_ms.is_none(), "the Node keeps its name and object");
    let ready_again = o
        .events
        .iter()
        .any(|e| e.kind == EventKind::NodeReady && e.node.as_deref() == Some("a") && e.at_ms >= back.at_ms);
    assert!(ready_again, "Ready once the kubelet is back");
}

#[test]
fn eks_node_auto_repair_replaces_the_instance_after_thirty_minutes() {
    let o = run_ok(&cluster(
        "aws",
        r#"{"kind": "EKSNodeAutoRepair"}"#,
        2400,
        &crash("KubeletStop", "a"),
    ));
    let node = &o.summary.nodes[0];
    let started = node.remediation_at_ms.unwrap();
    assert_eq!(started - node.unknown_at_ms.unwrap(), 1_800_000);
    let deleted = node.deleted_at_ms.expect("the cloud controller deletes the Node");
    assert!(deleted - started > 30_000 && deleted - started <= 36_000, "E + a pass");
    let said = of_kind(&o, EventKind::NodeDeleted)[0].cause.english();
    assert!(said.contains("cloud-controller-manager"), "{said}");
    let joined = first(&o, EventKind::NodeCreated, "a-r1").unwrap();
    assert_eq!(joined - started, 30_000 + 90_000, "E, then B");
}

#[test]
fn eks_stops_repairing_a_group_of_more_than_five_with_more_than_a_fifth_unhealthy() {
    let nodes: Vec<String> = (1..=6).map(|i| format!(r#"{{"name": "n{i}"}}"#)).collect();
    let json = format!(
        r#"{{"version": "1.32", "durationSeconds": 2400, "cloud": {{"provider": "aws"}},
          "remediation": [{{"kind": "EKSNodeAutoRepair"}}], "nodes": [{}],
          "events": [{}, {}]}}"#,
        nodes.join(","),
        crash("NodeCrash", "n1"),
        crash("NodeCrash", "n2")
    );
    let o = run_ok(&json);
    assert!(of_kind(&o, EventKind::RemediationStarted).is_empty());
    assert_eq!(of_kind(&o, EventKind::RemediationBlocked).len(), 2);
}

#[test]
fn aks_auto_repair_reboots_the_vm_and_the_kubelet_comes_back() {
    let o = run_ok(&cluster(
        "azure",
        r#"{"kind": "AKSAutoRepair"}"#,
        1800,
        &crash("KubeletStop", "a"),
    ));
    let node = &o.summary.nodes[0];
    let started = node.remediation_at_ms.unwrap();
    assert_eq!(started - node.unknown_at_ms.unwrap(), 600_000);
    let back = first(&o, EventKind::FaultEnded, "a").unwrap();
    assert_eq!(back - started, 90_000, "boot B");
    assert!(node.deleted_at_ms.is_none());
    assert!(
        first(&o, EventKind::NodeCreated, "a-r1").is_none(),
        "no spare for a reboot"
    );
}

#[test]
fn aks_does_not_repair_a_node_with_the_shutdown_taint() {
    let o = run_ok(&cluster(
        "azure",
        r#"{"kind": "AKSAutoRepair"}"#,
        1800,
        &crash("InstanceStopped", "a"),
    ));
    assert!(of_kind(&o, EventKind::RemediationStarted).is_empty());
    let blocked = of_kind(&o, EventKind::RemediationBlocked);
    assert_eq!(blocked.len(), 1);
    assert!(blocked[0].cause.english().contains("shutdown"));
}

/// R8: medik8s/self-node-remediation `selfnoderemediation_controller_test.go` "Remediation
/// flow", Automatic with the out-of-service taint GA (1.28+): the remediation starts, the
/// NoSchedule taint, the out-of-service taint added and removed once the pods and the volume
/// are gone. (Upstream asserts the events' presence, not their order.)
#[test]
fn r8_self_node_remediation_flow_with_the_out_of_service_taint() {
    let o = run_ok(&cluster(
        "",
        r#"{"kind": "SelfNodeRemediation"}"#,
        900,
        &crash("NodeCrash", "a"),
    ));
    assert!(o.warnings.is_empty(), "{:?}", o.warnings);
    let node = &o.summary.nodes[0];
    let started = node.remediation_at_ms.unwrap();
    assert_eq!(started - node.unknown_at_ms.unwrap(), 301_000);
    let added = |key: &str| {
        o.events
            .iter()
            .find(|e| e.kind == EventKind::TaintAdded && e.taint.as_deref().is_some_and(|t| t.starts_with(key)))
            .map(|e| e.at_ms)
    };
    assert_eq!(added("remediation.medik8s.io/self-node-remediation"), Some(started));
    let oos = added("node.kubernetes.io/out-of-service").expect("out-of-service taint");
    assert_eq!(
        oos - started,
        181_000,
        "rebootDuration 180s (no worker labels), +1s requeue"
    );
    let removed = o
        .events
        .iter()
        .find(|e| {
            e.kind == EventKind::TaintRemoved
                && e.taint
                    .as_deref()
                    .is_some_and(|t| t.starts_with("node.kubernetes.io/out-of-service"))
        })
        .map(|e| e.at_ms)
        .expect("removed once nothing is left");
    assert!(removed > oos && removed <= oos + 60_000, "{oos} → {removed}");
    assert!(of_kind(&o, EventKind::VolumeForceDetached)
        .iter()
        .all(|e| e.at_ms < oos + 25_000));
}

#[test]
fn resource_deletion_frees_the_pods_but_the_volume_waits_six_minutes() {
    let o = run_ok(&cluster(
        "",
        r#"{"kind": "SelfNodeRemediation", "strategy": "ResourceDeletion"}"#,
        1200,
        &crash("NodeCrash", "a"),
    ));
    let started = o.summary.nodes[0].remediation_at_ms.unwrap();
    let deleted: Vec<i64> = of_kind(&o, EventKind::PodRemoved)
        .iter()
        .filter(|e| e.node.as_deref() == Some("a"))
        .map(|e| e.at_ms)
        .collect();
    assert_eq!(deleted, vec![started + 181_000; 2]);
    let forced = of_kind(&o, EventKind::VolumeForceDetached)[0].at_ms;
    assert!(forced - deleted[0] >= 360_000, "the 6-minute wait stays");
}

#[test]
fn the_agent_reboots_a_node_whose_kubelet_hung_and_the_taint_goes_when_it_is_ready() {
    let o = run_ok(&cluster(
        "",
        r#"{"kind": "SelfNodeRemediation"}"#,
        900,
        &crash("KubeletStop", "a"),
    ));
    let started = o.summary.nodes[0].remediation_at_ms.unwrap();
    let back = first(&o, EventKind::FaultEnded, "a").expect("rebooted");
    assert_eq!(back - started, 15_000 + 90_000, "agent notice, then boot B");
    let untainted = o
        .events
        .iter()
        .find(|e| {
            e.kind == EventKind::TaintRemoved
                && e.taint
                    .as_deref()
                    .is_some_and(|t| t.starts_with("remediation.medik8s.io"))
        })
        .map(|e| e.at_ms)
        .expect("the NoSchedule taint goes");
    assert!(
        untainted >= back && untainted < started + 181_000,
        "before timeAssumedRebooted"
    );
    assert!(o.events.iter().all(
        |e| !(e.kind == EventKind::TaintAdded && e.taint.as_deref().is_some_and(|t| t.contains("out-of-service")))
    ));
}

#[test]
fn min_healthy_holds_back_self_node_remediation() {
    let events = format!("{}, {}", crash("NodeCrash", "a"), crash("NodeCrash", "b"));
    let o = run_ok(&cluster("", r#"{"kind": "SelfNodeRemediation"}"#, 900, &events));
    assert!(of_kind(&o, EventKind::RemediationStarted).is_empty());
    let blocked = of_kind(&o, EventKind::RemediationBlocked);
    assert_eq!(blocked.len(), 2);
    assert!(
        blocked[0].cause.english().contains("at least 2"),
        "{}",
        blocked[0].cause.english()
    );
}

#[test]
fn karpenter_node_repair_is_off_by_default() {
    let o = run_ok(&cluster(
        "aws",
        r#"{"kind": "KarpenterNodeRepair"}"#,
        2400,
        &crash("KubeletStop", "a"),
    ));
    // Issue 36: listed without `nodeRepair: true` it did nothing and said nothing; it now warns.
    let warned: Vec<&str> = o.warnings.iter().map(|w| w.key).collect();
    assert_eq!(warned, ["warn.karpenter_node_repair_off"], "{:?}", o.warnings);
    assert!(
        of_kind(&o, EventKind::RemediationStarted).is_empty(),
        "karpenter#2967: never"
    );
    assert!(o.summary.nodes[0].deleted_at_ms.is_none());
}

#[test]
fn karpenter_repairs_at_the_toleration_and_deletes_the_node_once_the_instance_is_gone() {
    let o = run_ok(&cluster(
        "azure",
        r#"{"kind": "KarpenterNodeRepair", "nodeRepair": true}"#,
        1800,
        &crash("NodeCrash", "a"),
    ));
    let node = &o.summary.nodes[0];
    let started = node.remediation_at_ms.unwrap();
    assert_eq!(
        started - node.unknown_at_ms.unwrap(),
        600_000,
        "Azure's 10 minutes, exact"
    );
    let deleted = node.deleted_at_ms.unwrap();
    // The pods were deleted by taint eviction long ago (stuck): the drain is over at once;
    // E = 30 s on the 5 s poll.
    assert_eq!(deleted - started, 30_000);
    assert!(first(&o, EventKind::NodeCreated, "a-r1").is_some_and(|t| t == started + 90_000));
}

/// R9 end to end ("should ignore unhealthy nodes if more then 20% of the nodes are unhealthy in
/// a nodepool"): two of three nodes unhealthy.
#[test]
fn r9_karpenter_holds_back_two_unhealthy_nodes_of_three() {
    let events = format!("{}, {}", crash("NodeCrash", "a"), crash("NodeCrash", "b"));
    let o = run_ok(&cluster(
        "aws",
        r#"{"kind": "KarpenterNodeRepair", "nodeRepair": true}"#,
        2700,
        &events,
    ));
    assert!(of_kind(&o, EventKind::RemediationStarted).is_empty());
    assert_eq!(of_kind(&o, EventKind::RemediationBlocked).len(), 2, "once per node");
}

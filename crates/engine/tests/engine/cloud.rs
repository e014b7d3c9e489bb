//! Clouds and instance faults (issue 27): the `cloud` and `remediation` sections, the three
//! instance faults, and the cloud node lifecycle controller
//! (`k8s.io/cloud-provider` `controllers/nodelifecycle`).

use kubelife_engine::scenario::{NodeCount, Provider, Remediator, SnrStrategy};
use kubelife_engine::{time::MINUTE, time::SECOND, Scenario};

fn resolve(json: &str) -> kubelife_engine::Config {
    Scenario::from_json(json)
        .and_then(|s| s.resolve())
        .unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn the_sections_read_back_as_written_and_take_their_documented_defaults() {
    let json = r#"{"nodes": [{"name": "n1"}],
        "cloud": {"provider": "azure", "nodeMonitorPeriod": "7s"},
        "remediation": [{"kind": "SelfNodeRemediation", "strategy": "ResourceDeletion"},
                        {"kind": "AKSAutoRepair"}],
        "events": [{"at": "10s", "action": "SpotInterruption", "node": "n1"},
                   {"at": "20s", "action": "SpotInterruption", "node": "n1", "notice": "5s"}]}"#;
    let s = Scenario::from_json(json).unwrap();
    assert_eq!(Scenario::from_json(&s.to_json()).unwrap(), s);
    let cfg = s.resolve().unwrap();
    let cloud = cfg.cloud.as_ref().expect("a cloud");
    assert_eq!(cloud.provider, Provider::Azure);
    assert_eq!(cloud.node_monitor_period, 7 * SECOND);
    assert_eq!(cloud.instance_termination_duration, 30 * SECOND);
    assert_eq!(cloud.vm_cache_ttl, 10 * MINUTE);
    assert!(cloud.automatic_out_of_service);
    assert_eq!(cfg.actions[0].notice, 30 * SECOND, "Azure's Scheduled Events notice");
    assert_eq!(cfg.actions[1].notice, 5 * SECOND);
    match &cfg.remediation[0] {
        Remediator::SelfNodeRemediation {
            conditions,
            min_healthy,
            strategy,
            safe_time_to_assume_node_rebooted,
        } => {
            assert_eq!(conditions.len(), 2);
            assert!(conditions.iter().all(|c| c.kind == "Ready" && c.timeout == 5 * MINUTE));
            assert_eq!(*min_healthy, NodeCount::Percent(51));
            assert_eq!(*strategy, SnrStrategy::ResourceDeletion);
            assert_eq!(*safe_time_to_assume_node_rebooted, None);
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(
        cfg.remediation[1],
        Remediator::AksAutoRepair {
            detection_delay: 10 * MINUTE
        }
    );
    let said: Vec<String> = cfg.warnings.iter().map(|w| w.english()).collect();
    assert!(said.iter().all(|w| !w.contains("does not act on it yet")), "{said:?}");
}

#[test]
fn spot_notices_default_to_each_providers() {
    for (provider, notice) in [("aws", 2 * MINUTE), ("gcp", 30 * SECOND), ("azure", 30 * SECOND)] {
        let cfg = resolve(&format!(
            r#"{{"nodes": [{{"name": "n1"}}], "cloud": {{"provider": "{provider}"}},
                "events": [{{"at": "10s", "action": "SpotInterruption", "node": "n1"}}]}}"#
        ));
        assert_eq!(cfg.actions[0].notice, notice, "{provider}");
    }
}

#[test]
fn without_cloud_or_remediation_the_configuration_is_todays() {
    let cfg = resolve(r#"{"nodes": [{"name": "n1"}]}"#);
    assert_eq!(cfg.cloud, None);
    assert!(cfg.remediation.is_empty());
    assert!(cfg.warnings.is_empty());
}

#[test]
fn a_managed_services_repair_needs_its_cloud() {
    let e = Scenario::from_json(
        r#"{"nodes": [{"name": "n1"}], "cloud": {"provider": "aws"}, "remediation": [{"kind": "GKEAutoRepair"}]}"#,
    )
    .unwrap()
    .resolve()
    .unwrap_err();
    assert_eq!(e.field, "remediation[0].kind");
    assert!(e.reason.english().contains("gcp"), "{e}");
}

use crate::common::{of_kind, run_ok};
use kubelife_engine::{EventKind, Outcome};

/// Three nodes, a Deployment of three and a StatefulSet with a volume, `events` on node-1.
fn cluster(cloud: &str, extra: &str, events: &str) -> String {
    let cloud = if cloud.is_empty() {
        String::new()
    } else {
        format!(r#""cloud": {{"provider": "{cloud}"}},"#)
    };
    format!(
        r#"{{"version": "1.32", "seed": 3, "durationSeconds": 900, {cloud} {extra}
          "nodes": [{{"name": "node-1"}}, {{"name": "node-2"}}, {{"name": "node-3"}}],
          "workloads": [{{"kind": "Deployment", "name": "web", "replicas": 3}},
                        {{"kind": "StatefulSet", "name": "db", "replicas": 1, "volume": {{}}}}],
          "events": [{events}]}}"#
    )
}

fn fault(action: &str) -> String {
    format!(r#"{{"at": "60s", "action": "{action}", "node": "node-1"}}"#)
}

fn taints(o: &Outcome, key: &str) -> Vec<i64> {
    o.events
        .iter()
        .filter(|e| e.kind == EventKind::TaintAdded && e.taint.as_deref().is_some_and(|t| t.starts_with(key)))
        .map(|e| e.at_ms)
        .collect()
}

#[test]
fn an_aws_instance_terminated_loses_its_node_and_its_pods_go_after_podgcs_quarantine() {
    let o = run_ok(&cluster("aws", "", &fault("InstanceTerminated")));
    let deleted = of_kind(&o, EventKind::NodeDeleted);
    assert_eq!(deleted.len(), 1);
    let said = deleted[0].cause.english();
    assert!(
        said.contains("cloud-controller-manager") && said.contains("aws"),
        "{said}"
    );
    let node = &o.summary.nodes[0];
    let del = node.deleted_at_ms.expect("deletedAtMs");
    assert!(del > node.unknown_at_ms.unwrap(), "only once Ready is not True");
    assert!(del - 60_000 <= 61_000, "§9.1: within 61s of the termination, got {del}");
    let removed: Vec<i64> = of_kind(&o, EventKind::PodRemoved)
        .iter()
        .filter(|e| e.node.as_deref() == Some("node-1"))
        .map(|e| e.at_ms)
        .collect();
    assert_eq!(removed.len(), 2);
    assert!(
        removed.iter().all(|&t| t > del + 40_000 && t <= del + 61_000),
        "{removed:?} after {del}"
    );
    let forced = of_kind(&o, EventKind::VolumeForceDetached);
    assert_eq!(
        forced.len(),
        1,
        "the attach-detach controller keeps the volume: 6-minute force detach"
    );
    assert!(forced[0].at_ms >= removed[0] + 360_000);
    assert!(o.to_json().contains("\"deletedAtMs\""));
    // The orphans PodGC removed count as deleted from the node, and the Deployment's is replaced
    // within about two minutes of the termination (§9.1), not after the 5-minute toleration.
    assert_eq!(node.pods_deleted, 2);
    let first = node.first_replacement_ready_at_ms.expect("a replacement Ready");
    assert!(first > removed[0] && first - 60_000 <= 130_000, "{first}");
}

#[test]
fn a_crash_on_a_cloud_is_a_hung_vm_the_cloud_controller_leaves_alone() {
    let o = run_ok(&cluster("aws", "", &fault("NodeCrash")));
    assert!(of_kind(&o, EventKind::NodeDeleted).is_empty());
    assert!(taints(&o, "node.cloudprovider.kubernetes.io/shutdown").is_empty());
    assert_eq!(o.summary.nodes[0].deleted_at_ms, None);
    assert!(!o.to_json().contains("deletedAtMs"));
    // Its fault says what the model does: the VM hangs, its instance runs on, the Node stays.
    let said = of_kind(&o, EventKind::FaultStarted)[0].cause.english();
    assert!(
        said.contains("aws") && said.contains("VM hangs") && !said.contains("power loss"),
        "{said}"
    );
    let bare = run_ok(&cluster("", "", &fault("NodeCrash")));
    let said = of_kind(&bare, EventKind::FaultStarted)[0].cause.english();
    assert!(said.contains("power loss"), "{said}");
}

#[test]
fn a_stopped_instance_is_tainted_where_the_provider_says_shut_down_and_never_deleted() {
    for (provider, tainted, out_of_service) in [("aws", true, false), ("gcp", false, false), ("azure", true, true)] {
        let o = run_ok(&cluster(provider, "", &fault("InstanceStopped")));
        assert!(of_kind(&o, EventKind::NodeDeleted).is_empty(), "{provider}");
        let shutdown = taints(&o, "node.cloudprovider.kubernetes.io/shutdown");
        assert_eq!(!shutdown.is_empty(), tainted, "{provider}");
        let oos = taints(&o, "node.kubernetes.io/out-of-service");
        assert_eq!(!oos.is_empty(), out_of_service, "{provider}");
        if out_of_service {
            // The out-of-service taint lets PodGC force-delete and the volume detach at once.
            let forced = of_kind(&o, EventKind::VolumeForceDetached);
            assert!(forced[0].at_ms < oos[0] + 30_000, "{provider}: no 6-minute wait");
        }
    }
}

#[test]
fn an_aws_stopped_instance_started_again_sheds_its_shutdown_taint_once_ready() {
    let events = format!(
        r#"{}, {{"at": "5m", "action": "NodeRecover", "node": "node-1"}}"#,
        fault("InstanceStopped")
    );
    let o = run_ok(&cluster("aws", "", &events));
    let removed: Vec<_> = of_kind(&o, EventKind::TaintRemoved)
        .into_iter()
        .filter(|e| e.taint.as_deref() == Some("node.cloudprovider.kubernetes.io/shutdown:NoSchedule"))
        .collect();
    assert_eq!(removed.len(), 1);
    let ready = of_kind(&o, EventKind::NodeReady);
    assert!(removed[0].at_ms > ready.last().unwrap().at_ms);
}

#[test]
fn an_instance_fault_without_a_cloud_is_a_crash_nobody_deletes_the_node_of() {
    let o = run_ok(&cluster("", "", &fault("InstanceTerminated")));
    assert!(of_kind(&o, EventKind::NodeDeleted).is_empty());
    assert!(o.warnings.iter().any(|w| w.key == "warn.instance_fault_without_cloud"));
    let started = of_kind(&o, EventKind::FaultStarted);
    assert_eq!(started[0].at_ms, 60_000);
}

#[test]
fn a_spot_instance_runs_through_its_notice_before_the_cloud_reclaims_it() {
    let o = run_ok(&cluster("aws", "", &fault("SpotInterruption")));
    let started = of_kind(&o, EventKind::FaultStarted);
    assert_eq!(started[0].at_ms, 60_000 + 120_000, "AWS: a two-minute notice");
    assert!(started[0].cause.english().contains("terminated"));
    assert_eq!(of_kind(&o, EventKind::NodeDeleted).len(), 1);
}

#[test]
fn a_gke_spot_vm_shuts_down_gracefully_within_its_notice_and_keeps_its_node() {
    let grace = r#""kubelet": {"shutdownGracePeriod": "30s", "shutdownGracePeriodCriticalPods": "15s"},"#;
    let o = run_ok(&cluster("gcp", grace, &fault("SpotInterruption")));
    let started = of_kind(&o, EventKind::FaultStarted);
    assert_eq!(started[0].at_ms, 60_000, "the shutdown starts with the notice");
    let failed = of_kind(&o, EventKind::PodFailed);
    assert!(!failed.is_empty() && failed.iter().all(|e| e.at_ms <= 90_000));
    assert!(
        of_kind(&o, EventKind::NodeDeleted).is_empty(),
        "a stopped GCE VM still exists"
    );
}

#[test]
fn a_terminated_instance_does_not_come_back() {
    let events = format!(
        r#"{}, {{"at": "5m", "action": "NodeRecover", "node": "node-1"}}"#,
        fault("InstanceTerminated")
    );
    let o = run_ok(&cluster("aws", "", &events));
    assert!(of_kind(&o, EventKind::FaultEnded).is_empty());
    assert!(o.warnings.iter().any(|w| w.key == "warn.instance_gone"));
}

/// §9.1: when EC2 takes longer than the grace period to report the instance terminated (E >
/// T_U), the Node goes at the first pass after that instead: everything after shifts by E − T_U.
#[test]
fn a_slow_termination_holds_the_node_until_the_provider_reports_it_gone() {
    let json = cluster("aws", "", &fault("InstanceTerminated")).replace(
        r#""cloud": {"provider": "aws"}"#,
        r#""cloud": {"provider": "aws", "instanceTerminationDuration": "3m"}"#,
    );
    let o = run_ok(&json);
    let del = o.summary.nodes[0].deleted_at_ms.unwrap();
    assert!(del > 60_000 + 180_000 && del <= 60_000 + 180_000 + 5_300, "{del}");
    let said = of_kind(&o, EventKind::NodeDeleted)[0].cause.english();
    assert!(said.contains("terminated since t=4m0s"), "{said}");
}

/// Karpenter listed without `nodeRepair: true` repairs nothing (its NodeRepair feature gate is
/// off): a warning names the field, unless the entry is there only for its interruption queue.
#[test]
fn karpenter_listed_without_node_repair_is_warned_about_by_its_field() {
    let warned = |remediation: &str| -> Vec<String> {
        let cfg = resolve(&format!(
            r#"{{"nodes": [{{"name": "n1"}}], "cloud": {{"provider": "aws"}}, "remediation": [{{"kind": "MachineHealthCheck"}}, {remediation}]}}"#
        ));
        cfg.warnings
            .iter()
            .filter(|w| w.key == "warn.karpenter_node_repair_off")
            .map(|w| w.english())
            .collect()
    };
    let off = [
        r#"{"kind": "KarpenterNodeRepair"}"#,
        r#"{"kind": "KarpenterNodeRepair", "nodeRepair": false}"#,
        r#"{"kind": "KarpenterNodeRepair", "interruptionQueue": true, "unhealthyConditions": [{"type": "Ready", "status": "False", "timeout": "5m"}]}"#,
    ];
    for r in off {
        let said = warned(r);
        assert_eq!(said.len(), 1, "{r}: {said:?}");
        assert!(
            said[0].contains("remediation[1].nodeRepair is not true"),
            "{r}: {said:?}"
        );
    }
    for r in [
        r#"{"kind": "KarpenterNodeRepair", "nodeRepair": true}"#,
        r#"{"kind": "KarpenterNodeRepair", "interruptionQueue": true}"#,
    ] {
        assert_eq!(warned(r), Vec::<String>::new(), "{r}");
    }
}

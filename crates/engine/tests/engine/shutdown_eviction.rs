//! The upstream test cases of the service-and-storage spec §8.5–8.7 (S29–S49): the kubelet's
//! shutdown manager (`nodeshutdown_manager_linux_test.go`), the eviction subresource
//! (`eviction_test.go`), the disruption controller (`disruption_test.go`) and `kubectl drain`
//! (`drain_test.go`), against the engine's rules; whole runs where the rule lives in the driver.

use crate::common::{of_kind, run_ok};
use kubelife_engine::api::eviction::{decide, refusal_cause, Eviction, Granted, PdbStatus, PodView};
use kubelife_engine::control_plane::disruption::{compute_status, expected_and_desired};
use kubelife_engine::kubelet::shutdown::{
    feature_enabled, group_of, groups_within, inhibit_delay_error, kill_grace_seconds, migrate_config,
    priority_of_class, ShutdownGroup, SYSTEM_CRITICAL_PRIORITY,
};
use kubelife_engine::scenario::{IntOrPercent, PdbSpec};
use kubelife_engine::time::SECOND;
use kubelife_engine::EventKind;

fn group(priority: i64, seconds: i64) -> ShutdownGroup {
    ShutdownGroup { priority, seconds }
}

/// The grace periods a regular and a critical pod with `pod_grace` seconds get.
fn graces(total: i64, critical: i64, pod_grace: i64) -> (i64, i64) {
    let groups = migrate_config(total * SECOND, critical * SECOND);
    let of = |priority| kill_grace_seconds(groups[group_of(&groups, priority)], pod_grace);
    (of(0), of(SYSTEM_CRITICAL_PRIORITY))
}

#[test]
fn s29_both_periods_make_two_groups() {
    assert_eq!(
        migrate_config(300 * SECOND, 120 * SECOND),
        vec![group(0, 180), group(SYSTEM_CRITICAL_PRIORITY, 120)]
    );
}

#[test]
fn s30_only_the_total_gives_the_regular_group_all_of_it() {
    assert_eq!(
        migrate_config(100 * SECOND, 0),
        vec![group(0, 100), group(SYSTEM_CRITICAL_PRIORITY, 0)]
    );
    assert_eq!(
        migrate_config(0, 0),
        vec![],
        "a zero total leaves the manager without groups"
    );
}

#[test]
fn s32_no_override_gives_regular_pods_20s_and_critical_pods_10s() {
    assert_eq!(graces(30, 10, 30), (20, 10));
    assert_eq!(
        group_of(
            &migrate_config(30 * SECOND, 10 * SECOND),
            priority_of_class(Some("system-node-critical"))
        ),
        1
    );
    assert_eq!(
        group_of(
            &migrate_config(30 * SECOND, 10 * SECOND),
            priority_of_class(Some("high"))
        ),
        0
    );
}

#[test]
fn s33_short_pod_grace_is_kept_and_long_grace_is_cut() {
    assert_eq!(graces(30, 10, 2), (2, 2));
    assert_eq!(graces(30, 10, 1000), (20, 10));
}

#[test]
fn s34_all_time_to_one_group() {
    assert_eq!(graces(30, 0, 30), (30, 0));
    assert_eq!(graces(5, 5, 30), (0, 5));
}

#[test]
fn s35_a_smaller_inhibit_delay_cuts_the_groups_and_is_reported() {
    let groups = groups_within(30 * SECOND, 10 * SECOND, 5 * SECOND);
    assert_eq!(groups, vec![group(0, 5), group(SYSTEM_CRITICAL_PRIORITY, 0)]);
    assert_eq!(
        inhibit_delay_error(30 * SECOND, 5 * SECOND).as_deref(),
        Some("node shutdown manager was unable to update logind InhibitDelayMaxSec to 30s (ShutdownGracePeriod), current value of InhibitDelayMaxSec (5s) is less than requested ShutdownGracePeriod")
    );
    assert_eq!(inhibit_delay_error(30 * SECOND, 30 * SECOND), None);
}

#[test]
fn s36_the_feature_needs_the_gate_and_a_grace_period() {
    assert!(!feature_enabled(true, 0));
    assert!(!feature_enabled(false, 100 * SECOND));
    assert!(feature_enabled(true, 100 * SECOND));
}

/// One node shutting down with 30s/10s: a regular pod that tolerates every taint keeps coming
/// back to it (a single node), and the shutdown manager's `Admit` refuses each one.
#[test]
fn s36_a_node_shutting_down_refuses_new_pods() {
    let o = run_ok(
        r#"{"version":"1.32","durationSeconds":60,
        "kubelet":{"shutdownGracePeriod":"30s","shutdownGracePeriodCriticalPods":"10s"},
        "nodes":[{"name":"solo"}],
        "workloads":[{"kind":"Deployment","name":"web","replicas":1,"tolerations":[{"operator":"Exists"}]},
                     {"kind":"DaemonSet","name":"agent","priorityClassName":"system-node-critical"}],
        "events":[{"at":"10s","action":"NodeShutdown","node":"solo"}]}"#,
    );
    let off = of_kind(&o, EventKind::NodePoweredOff)[0].at_ms;
    let refused: Vec<_> = of_kind(&o, EventKind::PodFailed)
        .into_iter()
        .filter(|e| e.cause.key == "cause.shutdown.rejected")
        .collect();
    assert!(!refused.is_empty(), "a replacement bound to the node is refused");
    assert!(refused.iter().all(|e| e.at_ms > 10_000 && e.at_ms <= off));
    assert!(refused[0].cause.english().contains("reason NodeShutdown"));
    assert!(refused[0]
        .cause
        .english()
        .contains("Pod was rejected as the node is shutting down."));
}

fn view(ready: bool) -> PodView {
    PodView {
        terminal: false,
        pending: false,
        terminating: false,
        ready,
    }
}

fn budget(always_allow: bool) -> PdbSpec {
    PdbSpec {
        min_available: Some(IntOrPercent::Int(2)),
        max_unavailable: None,
        always_allow_unhealthy: always_allow,
    }
}

fn status(allowed: i32, current: i32, desired: i32) -> PdbStatus {
    PdbStatus {
        disruptions_allowed: allowed,
        current_healthy: current,
        desired_healthy: desired,
        ..PdbStatus::default()
    }
}

#[test]
fn s37_no_disruptions_allowed_refuses_a_running_pod() {
    let answer = decide(view(false), Some((&budget(false), &status(0, 0, 0))));
    assert_eq!(answer, Eviction::TooManyRequests { desired: 0, current: 0 });
    assert_eq!(
        refusal_cause("foo", 0, 0),
        "The disruption budget foo needs 0 healthy pods and has 0 currently"
    );
}

#[test]
fn s38_pending_succeeded_and_failed_pods_ignore_the_budget() {
    let pending = PodView {
        pending: true,
        ..view(false)
    };
    let failed = PodView {
        terminal: true,
        ..view(false)
    };
    for pod in [pending, failed] {
        assert_eq!(
            decide(pod, Some((&budget(false), &status(0, 0, 0)))),
            Eviction::Granted(Granted::IgnoresBudget)
        );
    }
}

#[test]
fn s39_allowed_disruptions_or_no_matching_budget_delete() {
    assert_eq!(
        decide(view(true), Some((&budget(false), &status(1, 3, 2)))),
        Eviction::Granted(Granted::Decremented(1))
    );
    assert_eq!(decide(view(true), None), Eviction::Granted(Granted::NoBudget));
}

#[test]
fn s40_a_terminating_pod_ignores_the_budget() {
    let terminating = PodView {
        terminating: true,
        ..view(true)
    };
    assert_eq!(
        decide(terminating, Some((&budget(false), &status(0, 2, 2)))),
        Eviction::Granted(Granted::IgnoresBudget)
    );
}

#[test]
fn s41_a_healthy_pod_is_refused_while_the_budget_is_exactly_met() {
    assert_eq!(
        decide(view(true), Some((&budget(false), &status(0, 2, 2)))),
        Eviction::TooManyRequests { desired: 2, current: 2 }
    );
    assert_eq!(
        refusal_cause("foo", 2, 2),
        "The disruption budget foo needs 2 healthy pods and has 2 currently"
    );
}

#[test]
fn s42_an_unhealthy_pod_goes_while_the_budget_is_intact_or_with_always_allow() {
    assert_eq!(
        decide(view(false), Some((&budget(false), &status(0, 2, 2)))),
        Eviction::Granted(Granted::UnhealthyBudgetIntact)
    );
    // A broken budget keeps an unhealthy pod under IfHealthyBudget, not under AlwaysAllow.
    assert_eq!(
        decide(view(false), Some((&budget(false), &status(0, 1, 2)))),
        Eviction::TooManyRequests { desired: 2, current: 1 }
    );
    assert_eq!(
        decide(view(false), Some((&budget(true), &status(0, 1, 2)))),
        Eviction::Granted(Granted::UnhealthyAlwaysAllow)
    );
}

/// (disruptionsAllowed, currentHealthy, desiredHealthy, expectedPods).
fn quad(spec: &PdbSpec, scale: Option<i32>, matching: i32, healthy: i32) -> (i32, i32, i32, i32) {
    let s = compute_status(spec, scale, matching, healthy, &PdbStatus::default());
    (s.disruptions_allowed, s.current_healthy, s.desired_healthy, s.expected)
}

fn min_available(v: IntOrPercent) -> PdbSpec {
    PdbSpec {
        min_available: Some(v),
        max_unavailable: None,
        always_allow_unhealthy: false,
    }
}

fn max_unavailable(v: IntOrPercent) -> PdbSpec {
    PdbSpec {
        min_available: None,
        max_unavailable: Some(v),
        always_allow_unhealthy: false,
    }
}

#[test]
fn s43_min_available_three() {
    let spec = min_available(IntOrPercent::Int(3));
    for i in 0..4 {
        assert_eq!(quad(&spec, None, i, i), (0, i, 3, i));
    }
    assert_eq!(quad(&spec, None, 4, 4), (1, 4, 3, 4));
    assert_eq!(quad(&spec, None, 4, 3), (0, 3, 3, 4));
}

#[test]
fn s44_max_unavailable_two_follows_the_scale() {
    let spec = max_unavailable(IntOrPercent::Int(2));
    assert_eq!(quad(&spec, Some(7), 1, 1), (0, 1, 5, 7));
    assert_eq!(quad(&spec, Some(5), 1, 1), (0, 1, 3, 5));
}

#[test]
fn s45_a_pod_without_a_scaled_owner_allows_no_disruption() {
    assert_eq!(quad(&max_unavailable(IntOrPercent::Int(1)), None, 1, 1).0, 0);
    assert_eq!(quad(&min_available(IntOrPercent::Percent(28)), None, 1, 1).0, 0);
    assert_eq!(
        expected_and_desired(&max_unavailable(IntOrPercent::Int(1)), None, 1),
        None
    );
}

#[test]
fn s46_thirty_four_percent_of_three_rounds_up_to_two() {
    let spec = min_available(IntOrPercent::Percent(34));
    assert_eq!(quad(&spec, Some(3), 3, 3), (1, 3, 2, 3));
    assert_eq!(quad(&spec, Some(3), 3, 2), (0, 2, 2, 3));
}

/// Drain on 1.32 with `replicas` web pods on node-1 (the only node at first) and a budget; a
/// second node joins at 1s so that replacements have somewhere to go.
fn drain_scenario(pdb: &str, extra: &str) -> String {
    format!(
        r#"{{"version":"1.32","durationSeconds":90,
        "nodes":[{{"name":"node-1"}},{{"name":"node-2"}}],
        "workloads":[{{"kind":"StatefulSet","name":"db","replicas":1{pdb}}}],
        "events":[{{"at":"1s","action":"NodeJoin","node":"node-2"}},{{"at":"10s","action":"Drain","node":"node-1"}}{extra}]}}"#
    )
}

#[test]
fn s47_a_recreated_pod_of_the_same_name_counts_as_deleted() {
    // db-0 is evicted, removed and created again under its name on node-2: drain is done with
    // it and never evicts the new pod.
    let o = run_ok(&drain_scenario("", ""));
    let evictions: Vec<_> = of_kind(&o, EventKind::PodDeletionRequested)
        .into_iter()
        .filter(|e| e.cause.key == "cause.drain.evict")
        .collect();
    assert_eq!(evictions.len(), 1, "{evictions:?}");
    assert!(of_kind(&o, EventKind::PodReady)
        .iter()
        .any(|e| e.pod.as_deref() == Some("db-0") && e.node.as_deref() == Some("node-2")));
}

#[test]
fn s48_drain_evicts_rather_than_deletes() {
    // A budget with no disruption allowed keeps the pod: a plain DELETE would not.
    let o = run_ok(&drain_scenario(r#","pdb":{"minAvailable":1}"#, ""));
    assert!(of_kind(&o, EventKind::PodDeletionRequested).is_empty());
    let refused = of_kind(&o, EventKind::EvictionRefused);
    assert!(refused.len() >= 15, "refused every 5s for 80s: {}", refused.len());
    assert!(refused[0].cause.english().contains(
        "\"Cannot evict pod as it would violate the pod's disruption budget.\" (The disruption budget db needs 1 healthy pods and has 1 currently)"
    ));
}

#[test]
fn s49_the_pod_is_read_again_between_retries() {
    // The pod is force-deleted at 30s: the next retry finds it gone and stops.
    let extra = r#",{"at":"30s","action":"ForceDeletePod","pod":"db-0"}"#;
    let o = run_ok(&drain_scenario(r#","pdb":{"minAvailable":1}"#, extra));
    let refused = of_kind(&o, EventKind::EvictionRefused);
    assert!(!refused.is_empty());
    assert!(refused.iter().all(|e| e.at_ms < 30_000), "{refused:?}");
}

#[test]
fn s31_a_killed_pod_ends_failed_with_the_shutdown_reason_and_message() {
    let o = run_ok(
        r#"{"version":"1.32","durationSeconds":60,
        "kubelet":{"shutdownGracePeriod":"30s","shutdownGracePeriodCriticalPods":"10s"},
        "nodes":[{"name":"node-1"},{"name":"node-2"}],
        "workloads":[{"kind":"Deployment","name":"web","replicas":2}],
        "events":[{"at":"10s","action":"NodeShutdown","node":"node-1"}]}"#,
    );
    let failed = of_kind(&o, EventKind::PodFailed);
    assert!(!failed.is_empty());
    for e in failed {
        assert_eq!(e.node.as_deref(), Some("node-1"));
        let text = e.cause.english();
        assert!(
            text.contains(
                "phase Failed, reason Terminated, message \"Pod was terminated in response to imminent node shutdown.\", with condition DisruptionTarget reason TerminationByKubelet"
            ),
            "{text}"
        );
    }
}

#[test]
fn a_failed_pod_is_removed_as_soon_as_taint_eviction_deletes_it() {
    // After a graceful shutdown the node carries not-ready:NoExecute; 300s later taint eviction
    // deletes the Failed pod, and the apiserver removes it at once (grace period 0).
    let o = run_ok(
        r#"{"version":"1.32","durationSeconds":400,
        "kubelet":{"shutdownGracePeriod":"30s","shutdownGracePeriodCriticalPods":"10s"},
        "nodes":[{"name":"node-1"},{"name":"node-2"}],
        "workloads":[{"kind":"Deployment","name":"web","replicas":2}],
        "events":[{"at":"10s","action":"NodeShutdown","node":"node-1"}]}"#,
    );
    let failed = of_kind(&o, EventKind::PodFailed)[0].pod.clone();
    let deleted = of_kind(&o, EventKind::PodDeletionRequested)
        .into_iter()
        .find(|e| e.pod == failed)
        .expect("taint eviction deletes the Failed pod")
        .at_ms;
    assert!(deleted > 300_000, "{deleted}");
    let removed = of_kind(&o, EventKind::PodRemoved)
        .into_iter()
        .find(|e| e.pod == failed)
        .expect("the Failed pod's object goes");
    assert_eq!(removed.cause.key, "cause.pod_removed.terminal");
    assert!(
        removed.at_ms - deleted <= 100,
        "removed {} ms after the DELETE",
        removed.at_ms - deleted
    );
}

/// node-1 crashes at 10s; its pod is marked NotReady; drain at 120s meets a budget that wants
/// all three pods.
fn unhealthy_drain(policy: &str) -> String {
    format!(
        r#"{{"version":"1.32","durationSeconds":200,
        "nodes":[{{"name":"node-1"}},{{"name":"node-2"}},{{"name":"node-3"}}],
        "workloads":[{{"kind":"Deployment","name":"web","replicas":3,"pdb":{{"minAvailable":3{policy}}}}}],
        "events":[{{"at":"10s","action":"NodeCrash","node":"node-1"}},{{"at":"120s","action":"Drain","node":"node-1"}}]}}"#
    )
}

#[test]
fn s42_an_unhealthy_pod_on_a_broken_budget_waits_unless_always_allow() {
    let o = run_ok(&unhealthy_drain(""));
    assert!(of_kind(&o, EventKind::PodNotReady).iter().all(|e| e.at_ms < 120_000));
    let drained = |o: &kubelife_engine::Outcome| {
        of_kind(o, EventKind::PodDeletionRequested)
            .into_iter()
            .filter(|e| e.cause.key == "cause.drain.evict")
            .count()
    };
    assert_eq!(drained(&o), 0);
    let refused = of_kind(&o, EventKind::EvictionRefused);
    assert!(refused[0]
        .cause
        .english()
        .contains("needs 3 healthy pods and has 2 currently"));
    let o = run_ok(&unhealthy_drain(r#","unhealthyPodEvictionPolicy":"AlwaysAllow""#));
    assert_eq!(drained(&o), 1);
    assert!(of_kind(&o, EventKind::EvictionRefused).is_empty());
}

#[test]
fn recovering_a_node_that_is_shutting_down_is_reported_and_changes_nothing() {
    let json = |recover_at: &str| {
        format!(
            r#"{{"version":"1.32","durationSeconds":90,
            "kubelet":{{"shutdownGracePeriod":"30s","shutdownGracePeriodCriticalPods":"10s"}},
            "nodes":[{{"name":"node-1"}},{{"name":"node-2"}}],
            "workloads":[{{"kind":"Deployment","name":"web","replicas":2}},{{"kind":"DaemonSet","name":"agent","priorityClassName":"system-node-critical"}}],
            "events":[{{"at":"10s","action":"NodeShutdown","node":"node-1"}},{{"at":"{recover_at}","action":"NodeRecover","node":"node-1"}}]}}"#
        )
    };
    let during = run_ok(&json("10500ms"));
    assert!(during
        .warnings
        .iter()
        .any(|w| w.key == "warn.recover_while_shutting_down"));
    assert_eq!(of_kind(&during, EventKind::NodePoweredOff).len(), 1);
    assert!(of_kind(&during, EventKind::FaultEnded).is_empty());
    // After the power-off the node restarts like a crashed one.
    let after = run_ok(&json("60s"));
    assert!(after.warnings.is_empty());
    assert_eq!(of_kind(&after, EventKind::FaultEnded).len(), 1);
    assert!(of_kind(&after, EventKind::NodeReady).iter().any(|e| e.at_ms >= 60_000));
}

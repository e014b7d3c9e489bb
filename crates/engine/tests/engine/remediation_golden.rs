//! The upstream test cases of the remediators (spec §10, R4–R6), re-expressed against
//! `control_plane::remediation`. Each test names its R number and the upstream test it mirrors.
//!
//! R5 covers only `maxUnhealthy` (an int or a percentage): upstream's `TestIsAllowedRemediation`
//! has no `unhealthyRange` case (that is `TestMachineHealthCheck_Reconcile`'s), and the model has
//! no `unhealthyRange`. Cases about Machine conditions, the remediate-machine annotation and
//! InfrastructureReady have no counterpart in the model (it has node conditions only).

use kubelife_engine::control_plane::drain::deleted_longer_than as should_skip_pod;
use kubelife_engine::control_plane::remediation::managed::eks_repairs_stopped;
use kubelife_engine::control_plane::remediation::mhc::{
    is_allowed_remediation, max_unhealthy, node_checks, should_wait_for_node_volumes, skip_wait_for_delete, Health,
    Target,
};
use kubelife_engine::scenario::NodeCount;
use kubelife_engine::time::{MINUTE, SECOND};

fn with_node(conditions: &[(i64, i64)]) -> Target {
    Target {
        has_node: true,
        node_missing: false,
        since_created: 0,
        conditions: conditions.to_vec(),
    }
}

/// R4: cluster-api `machinehealthcheck_targets_test.go` `TestHealthCheckTargets`
/// (`timeoutForMachineToHaveNode` 10 min, Ready Unknown checked for 300 s).
#[test]
fn r4_health_check_targets() {
    let startup = 10 * MINUTE;
    let booting = |created: i64| Target {
        has_node: false,
        since_created: created,
        ..Target::default()
    };
    // "node has not yet started for shorter than the timeout": created 400 s ago.
    assert_eq!(
        node_checks(&booting(400 * SECOND), startup),
        Health::NextCheck(201 * SECOND)
    );
    // "… and infra is ready" 50 s ago.
    assert_eq!(
        node_checks(&booting(50 * SECOND), startup),
        Health::NextCheck(551 * SECOND)
    );
    // "node has not started for longer than the timeout": 1200 s.
    assert_eq!(
        node_checks(&booting(1200 * SECOND), startup),
        Health::Remediate("NodeStartupTimeout")
    );
    // "node has gone away".
    let gone = Target {
        node_missing: true,
        ..Target::default()
    };
    assert_eq!(node_checks(&gone, startup), Health::Remediate("NodeDeleted"));
    // "node has been unhealthy for shorter than the timeout": Unknown 200 s of 300 s ⇒ 101 s.
    let t = with_node(&[(200 * SECOND, 300 * SECOND)]);
    assert_eq!(node_checks(&t, startup), Health::NextCheck(101 * SECOND));
    // "node has been unhealthy for longer than the timeout": 400 s.
    let t = with_node(&[(400 * SECOND, 300 * SECOND)]);
    assert_eq!(node_checks(&t, startup), Health::Remediate("UnhealthyNode"));
    // Several conditions: the earliest next check.
    let t = with_node(&[(100 * SECOND, 300 * SECOND), (200 * SECOND, 300 * SECOND)]);
    assert_eq!(node_checks(&t, startup), Health::NextCheck(101 * SECOND));
    // "with a nodeStartupTimeout of 0": no startup check, no requeue.
    assert_eq!(node_checks(&booting(1200 * SECOND), 0), Health::Healthy);
    // Healthy node, nothing matching.
    assert_eq!(node_checks(&with_node(&[]), startup), Health::Healthy);
}

/// R5: cluster-api `machinehealthcheck_controller_test.go` `TestIsAllowedRemediation` (and
/// `TestGetMaxUnhealthy`): 5 expected, 2 healthy (3 unhealthy); percentages round down.
#[test]
fn r5_is_allowed_remediation() {
    assert!(!is_allowed_remediation(NodeCount::Percent(50), 5, 2), "50% of 5 is 2");
    assert!(is_allowed_remediation(NodeCount::Percent(60), 5, 2));
    assert!(is_allowed_remediation(NodeCount::Percent(70), 5, 2));
    // Ints: 3 expected, 1 healthy (2 unhealthy).
    assert!(!is_allowed_remediation(NodeCount::Int(1), 3, 1));
    assert!(is_allowed_remediation(NodeCount::Int(2), 3, 1));
    assert!(is_allowed_remediation(NodeCount::Int(3), 3, 1));
    // Unset: the default 100%.
    assert!(is_allowed_remediation(NodeCount::Percent(100), 5, 0));
    // TestGetMaxUnhealthy; the book's examples: 40% of 25 is 10, of 6 is 2.
    assert_eq!(max_unhealthy(NodeCount::Percent(40), 25), 10);
    assert_eq!(max_unhealthy(NodeCount::Percent(40), 6), 2);
    assert_eq!(max_unhealthy(NodeCount::Int(3), 6), 3);
}

/// R6: cluster-api `machine_controller_test.go` `TestDrainNode` ("Node does exist but is
/// unreachable, no Pods have to be drained because they all have old deletionTimestamps") and
/// `TestShouldWaitForNodeVolumes` ("Node is unreachable and has volumes attached" ⇒ no wait),
/// with the v1.7 behaviour read at tag v1.7.0 (skip after 300 s, volumes always waited for).
#[test]
fn r6_drain_and_volume_wait_of_an_unreachable_node() {
    let skip = skip_wait_for_delete(8);
    assert_eq!(skip, SECOND);
    assert!(should_skip_pod(2 * SECOND, skip), "deleted 2s ago: ignored");
    assert!(!should_skip_pod(1_999, skip), "int(seconds) 1 is not > 1");
    assert_eq!(skip_wait_for_delete(7), 300 * SECOND);
    assert!(!should_skip_pod(299 * SECOND, skip_wait_for_delete(7)));
    assert!(should_skip_pod(301 * SECOND, skip_wait_for_delete(7)));
    assert!(
        !should_wait_for_node_volumes(8, true, true, true),
        "unreachable: no wait (v1.8+)"
    );
    assert!(
        should_wait_for_node_volumes(8, true, false, true),
        "reachable with volumes: wait"
    );
    assert!(
        should_wait_for_node_volumes(7, true, true, true),
        "v1.7: waits even when unreachable"
    );
    assert!(
        !should_wait_for_node_volumes(7, false, true, true),
        "Node gone: no wait"
    );
    assert!(!should_wait_for_node_volumes(8, true, false, false));
}

/// EKS managed node groups stop repairing above five nodes and 20 % unhealthy
/// (docs.aws.amazon.com `node-repair`; no upstream test, the documented rule).
#[test]
fn eks_node_group_breaker() {
    assert!(!eks_repairs_stopped(5, 5, 20), "five nodes or fewer: never stops");
    assert!(!eks_repairs_stopped(10, 2, 20), "20% is not more than 20%");
    assert!(eks_repairs_stopped(10, 3, 20));
}

/// R7: medik8s/self-node-remediation `internal/reboot/calculator_test.go`: "with default
/// SNRConfig, 2 peers, and 10s watchdog timeout" ⇒ 130 s; "with modified SNRConfig, 20 peers,
/// and 25s watchdog timeout" (25 s / 7 s / 4 errors, dial 11 s, request 13 s) ⇒ 351 s. And the
/// research note's batches: ≤ 6 worker-labelled nodes ⇒ 180 s with a 60 s watchdog, 7–9 ⇒
/// 186 s, 10–12 ⇒ 198 s, none labelled ⇒ 180 s.
#[test]
fn r7_minimum_reboot_duration() {
    use kubelife_engine::control_plane::remediation::snr::{
        minimum_reboot_duration, nr_of_batches, reboot_duration, SnrConfig,
    };
    let d = SnrConfig::default();
    assert_eq!(minimum_reboot_duration(&d, 2, 10 * SECOND), 130 * SECOND);
    let custom = SnrConfig {
        api_check_interval: 25 * SECOND,
        api_server_timeout: 7 * SECOND,
        max_api_error_threshold: 4,
        peer_dial_timeout: 11 * SECOND,
        peer_request_timeout: 13 * SECOND,
    };
    assert_eq!(nr_of_batches(20), 7);
    assert_eq!(minimum_reboot_duration(&custom, 20, 25 * SECOND), 351 * SECOND);
    let w = 60 * SECOND;
    assert_eq!(minimum_reboot_duration(&d, 0, w), 180 * SECOND);
    assert_eq!(minimum_reboot_duration(&d, 6, w), 180 * SECOND);
    assert_eq!(minimum_reboot_duration(&d, 7, w), 186 * SECOND);
    assert_eq!(minimum_reboot_duration(&d, 12, w), 198 * SECOND);
    // A safe time below the minimum is ignored; above it, it wins.
    assert_eq!(reboot_duration(Some(60 * SECOND), 180 * SECOND), 180 * SECOND);
    assert_eq!(reboot_duration(Some(300 * SECOND), 180 * SECOND), 300 * SECOND);
}

/// medik8s NHC `getMinHealthy` (percentage rounded up) and SNR `getRuntimeStrategy`.
#[test]
fn nhc_min_healthy_rounds_up_and_automatic_is_out_of_service_from_1_28() {
    use kubelife_engine::control_plane::remediation::snr::{min_healthy, runtime_strategy};
    use kubelife_engine::scenario::SnrStrategy as S;
    assert_eq!(min_healthy(NodeCount::Percent(51), 3), 2);
    assert_eq!(min_healthy(NodeCount::Percent(51), 6), 4);
    assert_eq!(min_healthy(NodeCount::Int(2), 6), 2);
    assert_eq!(runtime_strategy(S::Automatic, 28), S::OutOfServiceTaint);
    assert_eq!(runtime_strategy(S::Automatic, 27), S::ResourceDeletion);
    assert_eq!(runtime_strategy(S::ResourceDeletion, 32), S::ResourceDeletion);
}

/// R9: kubernetes-sigs/karpenter `pkg/controllers/node/health/suite_test.go` "should consider
/// round up when there is a low number of nodes for a nodepool" (20 % of 3 rounds up to 1) and
/// "should ignore unhealthy nodes if more then 20% of the nodes are unhealthy".
#[test]
fn r9_karpenter_breaker_rounds_up() {
    use kubelife_engine::control_plane::remediation::karpenter::nodes_healthy;
    assert!(nodes_healthy(3, 1));
    assert!(!nodes_healthy(3, 2));
    assert!(nodes_healthy(10, 2));
    assert!(!nodes_healthy(10, 3));
}

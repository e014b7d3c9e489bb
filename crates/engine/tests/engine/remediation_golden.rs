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
use kubelife_engine::{EventKind, Outcome};

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

/// One remediator's way from the fault to the database Ready again, as "where does the time
/// go?" reads it off the `after` links: the first segments' lengths (ms) and events, and a word
/// each of their labels names (the duration that accounts for it).
pub(crate) struct ChainCase {
    /// The case, by the section of the remediators' timelines it follows.
    pub(crate) name: &'static str,
    /// The preset, and the remediator (cloud, JSON) that replaces its own, if any.
    pub(crate) scenario: (&'static str, Option<(&'static str, &'static str)>),
    /// The first segments: length, the event that ends it, a word its label names.
    pub(crate) segments: &'static [(i64, EventKind, &'static str)],
}

pub(crate) fn check_chain(case: &ChainCase) {
    let s = preset_with(case.scenario.0, case.scenario.1);
    let cfg = s.resolve().expect("valid");
    let o = kubelife_engine::run(&cfg, &kubelife_engine::RunOptions::default());
    let fault = kubelife_engine::milestones::milestones(&o).fault.expect("a fault");
    let db = kubelife_engine::milestones::database(&o, &cfg.workloads, fault).expect("a database");
    let got = chain_segments(&o, fault, db.ready.expect("the database is Ready again"));
    let shown: Vec<String> = got.iter().map(|(ms, k, l)| format!("{ms} {k:?}: {l}")).collect();
    for (i, &(ms, kind, word)) in case.segments.iter().enumerate() {
        let (got_ms, got_kind, label) = &got[i];
        assert!(
            (*got_ms, *got_kind) == (ms, kind) && label.contains(word),
            "{}: segment {i} should be {ms} ms to {kind:?} naming {word:?}:\n{}",
            case.name,
            shown.join("\n")
        );
    }
}

const AUTO_REPAIR_EKS: (&str, &str) = ("aws", r#"{"kind": "EKSNodeAutoRepair"}"#);
const AUTO_REPAIR_AKS: (&str, &str) = ("azure", r#"{"kind": "AKSAutoRepair"}"#);

/// §9.5, §9.6, §9.7, §9.4 and §9.8: each remediator's chain passes through an event whose cause
/// names every wait: Cluster API's Unknown at 44.5s, its 5m0s timeout + 1s, a 20s drain retry,
/// 1m0s of VM deletion; Self Node Remediation's 5m0s, then rebootDuration 3m0s + 1s; Karpenter's
/// 30m0s toleration, then the 30s termination; EKS's 30m0s readyTimeout, then the instance the
/// cloud controller finds gone; AKS's 10m0s detectionDelay, then the 1m30s boot.
#[test]
fn s9_remediator_chains_name_every_wait() {
    use EventKind::*;
    let cases = [
        ChainCase {
            name: "§9.5 Cluster API MachineHealthCheck",
            scenario: ("capi-mhc-5m", None),
            segments: &[
                (44_536, NodeUnknown, "50s"),
                (301_000, RemediationStarted, "5m0s"),
                (10, NodeCordoned, "MachineHealthCheck"),
                (20_000, NodeDrained, "drainRetryInterval 20s"),
                (60_000, NodeDeleted, "VM deletion 1m0s"),
                (45_662, PodRemoved, "40s quarantine"),
            ],
        },
        ChainCase {
            name: "§9.6 Self Node Remediation",
            scenario: ("medik8s-snr", None),
            segments: &[
                (44_536, NodeUnknown, "50s"),
                (301_000, RemediationStarted, "5m0s"),
                (0, TaintAdded, "Self Node Remediation"),
                (181_000, TaintAdded, "rebootDuration 3m0s"),
            ],
        },
        ChainCase {
            name: "§9.7 Karpenter node repair",
            scenario: ("karpenter-repair-on", None),
            segments: &[
                (44_536, NodeUnknown, "50s"),
                (1_800_000, RemediationStarted, "toleration 30m0s"),
                (0, NodeDrained, "stuck terminating"),
                (30_000, NodeDeleted, "termination 30s"),
            ],
        },
        ChainCase {
            name: "§9.4 EKS node auto repair",
            scenario: ("karpenter-repair-on", Some(AUTO_REPAIR_EKS)),
            segments: &[
                (44_536, NodeUnknown, "50s"),
                (1_800_000, RemediationStarted, "readyTimeout 30m0s"),
                (32_810, NodeDeleted, "EKSNodeAutoRepair terminated its instance"),
            ],
        },
        ChainCase {
            name: "§9.8 AKS auto-repair",
            scenario: ("karpenter-repair-on", Some(AUTO_REPAIR_AKS)),
            segments: &[
                (44_536, NodeUnknown, "50s"),
                (600_000, RemediationStarted, "detectionDelay 10m0s"),
                (90_000, FaultEnded, "boot 1m30s"),
            ],
        },
    ];
    for case in &cases {
        check_chain(case);
    }
}

/// A cause as a run records it: every event of `kind` in the scenario (the preset with the
/// remediator given) says `has` and never `not`, in full and as its segment's label, in the
/// language of `zh` (English when false).
pub(crate) struct CauseCase {
    pub(crate) name: &'static str,
    pub(crate) scenario: (&'static str, Option<(&'static str, &'static str)>),
    pub(crate) kind: EventKind,
    pub(crate) zh: bool,
    pub(crate) has: &'static [&'static str],
    pub(crate) not: &'static [&'static str],
}

pub(crate) fn check_cause(case: &CauseCase) {
    let s = preset_with(case.scenario.0, case.scenario.1);
    let o = kubelife_engine::run(&s.resolve().expect("valid"), &kubelife_engine::RunOptions::default());
    let zh = kubelife_engine::cause::parse_catalogue(include_str!("../../../../i18n/zh.json")).expect("parses");
    let zh: &'static std::collections::BTreeMap<String, String> = Box::leak(Box::new(zh));
    let lookup = |k: &str| -> Option<&'static str> {
        if case.zh {
            zh.get(k).map(String::as_str)
        } else {
            kubelife_engine::cause::english(k)
        }
    };
    let events: Vec<_> = o.events.iter().filter(|e| e.kind == case.kind).collect();
    assert!(!events.is_empty(), "{}: no {:?}", case.name, case.kind);
    for e in events {
        let said = format!("{} / {}", e.cause.render(&|k| lookup(k)), e.cause.render_brief(&lookup));
        for h in case.has {
            assert!(
                said.contains(h),
                "{}: {:?} should say {h:?}: {said}",
                case.name,
                case.kind
            );
        }
        for n in case.not {
            assert!(
                !said.contains(n),
                "{}: {:?} should not say {n:?}: {said}",
                case.name,
                case.kind
            );
        }
    }
}

/// R6 and §9.5–§9.7: causes say what is true when they happen. Cluster API's drain of an
/// unreachable node evicts with grace 1s (`drainNode`'s `GracePeriodSeconds = 1`, v1.8+) and its
/// pod stays Terminating on the dead node; Karpenter's drain of a live Spot node says no such
/// thing; the 5s before it is the interruption message's latency; PodGC's deletion counts the
/// wait for its 20s run besides its 40s quarantine; the Node deletions read as Chinese.
#[test]
fn r6_s9_causes_name_what_is_true() {
    use EventKind::*;
    let cases = [
        CauseCase {
            name: "R6 Cluster API drains an unreachable node with grace 1s",
            scenario: ("capi-mhc-5m", None),
            kind: PodDeletionRequested,
            zh: false,
            has: &["grace 1s", "stays Terminating"],
            not: &["grace 30s"],
        },
        CauseCase {
            name: "§9.5 PodGC's quarantine and the wait for its run",
            scenario: ("capi-mhc-5m", None),
            kind: PodRemoved,
            zh: false,
            has: &["5.662s after the Node's deletion", "40s quarantine"],
            not: &[],
        },
        CauseCase {
            name: "§9.5 the Chinese Node deletion of Cluster API",
            scenario: ("capi-mhc-5m", None),
            kind: NodeDeleted,
            zh: true,
            has: &["PodGC 会在 40s 隔离期之后、于其下一次 20s 运行时将其强制删除"],
            not: &["强制删除在"],
        },
        CauseCase {
            name: "§9.7 the Chinese Node deletion of Karpenter",
            scenario: ("karpenter-repair-on", None),
            kind: NodeDeleted,
            zh: true,
            has: &["PodGC 会在 40s 隔离期之后、于其下一次 20s 运行时将其强制删除"],
            not: &["强制删除在"],
        },
        CauseCase {
            name: "§9.7 Karpenter drains a live Spot node",
            scenario: ("karpenter-spot-interruption", None),
            kind: PodDeletionRequested,
            zh: false,
            has: &["Karpenter's drain evicts the pod", "grace 30s"],
            not: &["stays Terminating"],
        },
        CauseCase {
            name: "§9.7 the interruption message's latency",
            scenario: ("karpenter-spot-interruption", None),
            kind: RemediationStarted,
            zh: false,
            has: &["5s after EC2 sent it (interruptionMessageLatency)"],
            not: &[],
        },
    ];
    for case in &cases {
        check_cause(case);
    }
}

/// The preset `name`'s scenario, with `remediation` (JSON, the list's one entry) on `cloud`
/// (`""`: none) instead of its own when given.
pub(crate) fn preset_with(name: &str, remediation: Option<(&str, &str)>) -> kubelife_engine::Scenario {
    let s = kubelife_engine::presets::preset(name).expect("a preset").scenario;
    let Some((cloud, spec)) = remediation else { return s };
    let mut v = serde_json::to_value(&s).expect("serializes");
    v["remediation"] = serde_json::from_str(&format!("[{spec}]")).expect("JSON");
    if cloud.is_empty() {
        v.as_object_mut().expect("an object").remove("cloud");
    } else {
        v["cloud"] = serde_json::json!({ "provider": cloud });
    }
    serde_json::from_value(v).expect("a scenario")
}

/// "Where does the time go?" to event `goal`, read off the chain of `after` links as the
/// figures read it: each link's length from the event before (from the fault for the first), its
/// event's kind, and its label in English.
pub(crate) fn chain_segments(o: &Outcome, fault: i64, goal: usize) -> Vec<(i64, kubelife_engine::EventKind, String)> {
    let mut last = fault;
    let mut out = Vec::new();
    for (k, i) in kubelife_engine::chain::chain(&o.events, goal).into_iter().enumerate() {
        let e = &o.events[i];
        if e.at_ms < fault || (k == 0 && e.at_ms == fault) {
            continue;
        }
        let label = e.cause.render_brief(&|k| kubelife_engine::cause::english(k));
        out.push((e.at_ms - last, e.kind, label));
        last = e.at_ms;
    }
    out
}

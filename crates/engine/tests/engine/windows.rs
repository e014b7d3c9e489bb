//! The worked windows of spec §7.2 and §7.3, and of the service-and-storage spec §7.1 and
//! §7.2, checked over many seeds.
//!
//! One deviation from the spec's tables is deliberate and comes from upstream code: when a status
//! heartbeat is seen, `tryUpdateNodeHealth` rebuilds the node's health record without the saved
//! lease, so the next pass sees the lease as new and refreshes the probe once more. When the last
//! heartbeat before a crash was a status patch, detection therefore moves by up to one monitor
//! period. With the default 5-minute status reports this is rare (a few percent of seeds); with
//! kubespray's fast profile's 4s reports (S1) it is the common case.

use crate::common::{rel, run_seed, Rel};
use kubelife_engine::Scenario;

const SEEDS: u64 = 200;

fn sample(json: &str) -> Vec<Rel> {
    let s = Scenario::from_json(json).expect("valid");
    (1..=SEEDS).map(|seed| rel(&run_seed(&s, seed))).collect()
}

/// Checks that every value lies in `(lo, hi_code]`, that at least `share` of them lie in the
/// spec's `(lo, hi_spec]`, and that the values spread over the window (phases are random).
fn check(label: &str, values: &[i64], lo: i64, hi_spec: i64, hi_code: i64, share: f64) {
    let (min, max) = (*values.iter().min().unwrap(), *values.iter().max().unwrap());
    eprintln!("{label}: min {min} ms, max {max} ms over {} seeds", values.len());
    assert!(min > lo, "{label}: {min} ms is not after {lo} ms");
    assert!(max <= hi_code, "{label}: {max} ms is after {hi_code} ms");
    let inside = values.iter().filter(|&&v| v <= hi_spec).count() as f64 / values.len() as f64;
    assert!(
        inside >= share,
        "{label}: only {inside:.2} of seeds within the spec's window ending at {hi_spec} ms"
    );
    let width = hi_spec - lo;
    assert!(
        max - min > width / 2,
        "{label}: values span only {} ms of a {width} ms window",
        max - min
    );
}

fn default_scenario(version: &str) -> String {
    format!(
        r#"{{"version":"{version}","durationSeconds":480,"nodes":[{{"name":"a"}},{{"name":"b"}},{{"name":"c"}}],
        "workloads":[{{"kind":"Deployment","name":"web","replicas":3}}],
        "events":[{{"at":"60s","action":"NodeCrash","node":"a"}}]}}"#
    )
}

/// §7.2 for a grace period of `g` ms: Unknown in (g − 10.4 s, g + 5 s], taint one pass later
/// (+5 s + ≤0.1 s tick), deletion 300 s after the taint is seen, replacement at once.
fn check_defaults(version: &str, g: i64) {
    let r = sample(&default_scenario(version));
    // Latencies the spec ignores: watch 10 ms, API 5 ms, pass duration 1 ms per pass.
    let slack = 100;
    let unknown: Vec<i64> = r.iter().map(|x| x.unknown.unwrap()).collect();
    check(
        &format!("{version} Unknown"),
        &unknown,
        g - 10_400,
        g + 5_000 + slack,
        g + 10_000 + slack,
        0.9,
    );
    let taint: Vec<i64> = r.iter().map(|x| x.taint.unwrap()).collect();
    check(
        &format!("{version} taint"),
        &taint,
        g - 5_400,
        g + 10_100 + slack,
        g + 15_100 + slack,
        0.9,
    );
    for x in &r {
        let t = x.taint.unwrap() - x.unknown.unwrap();
        assert!((5_000..=5_200).contains(&t), "taint one pass after Unknown, got {t} ms");
        let d = x.deletion.unwrap() - x.taint.unwrap();
        assert!(
            (300_000..=300_100).contains(&d),
            "deletion 300s after the taint is seen, got {d} ms"
        );
        let c = x.replacement_created.unwrap() - x.deletion.unwrap();
        assert!(
            (1..=500).contains(&c),
            "replacement created right after the deletion, got {c} ms"
        );
    }
    let deletion: Vec<i64> = r.iter().map(|x| x.deletion.unwrap()).collect();
    check(
        &format!("{version} deletion"),
        &deletion,
        g + 294_600,
        g + 310_100 + slack,
        g + 315_100 + slack,
        0.9,
    );
}

#[test]
fn defaults_1_32_match_section_7_2() {
    check_defaults("1.32", 50_000);
}

#[test]
fn defaults_1_31_are_ten_seconds_earlier() {
    check_defaults("1.31", 40_000);
}

/// §7.3 S1: status every 4s from a KubeletConfiguration file (so R = U = 4s), monitor period 2s,
/// grace 20s. Spec: Unknown (15.8, 22.0], taint (17.8, 24.1], delete (317.8, 324.1]. The lease
/// quirk described above moves most seeds by one 2s pass, so the code's upper bounds are 2s later.
#[test]
fn seed_profile_s1() {
    let r = sample(
        r#"{"version":"1.31","durationSeconds":480,"kubelet":{"nodeStatusUpdateFrequency":"4s"},
        "controllerManager":{"nodeMonitorPeriod":"2s","nodeMonitorGracePeriod":"20s"},
        "nodes":[{"name":"a"},{"name":"b"},{"name":"c"}],
        "workloads":[{"kind":"Deployment","name":"web","replicas":3}],
        "events":[{"at":"60s","action":"NodeCrash","node":"a"}]}"#,
    );
    let unknown: Vec<i64> = r.iter().map(|x| x.unknown.unwrap()).collect();
    check("S1 Unknown", &unknown, 15_800, 24_100, 24_100, 1.0);
    let taint: Vec<i64> = r.iter().map(|x| x.taint.unwrap()).collect();
    check("S1 taint", &taint, 17_800, 26_200, 26_200, 1.0);
    let deletion: Vec<i64> = r.iter().map(|x| x.deletion.unwrap()).collect();
    check("S1 deletion", &deletion, 317_800, 326_300, 326_300, 1.0);
    // Without the quirk the spec's upper bound would hold; with it, a clear share of seeds lands
    // after 22.0s, which is how the quirk shows.
    let late = unknown.iter().filter(|&&u| u > 22_100).count();
    assert!(
        late > 0,
        "the lease-record quirk should push some seeds past the spec's 22.0s"
    );
}

/// G75: S1 on 1.27 or later with `--default-unreachable-toleration-seconds=30`: deletion about
/// 30s after the taint.
#[test]
fn g75_s1_with_thirty_second_tolerations() {
    let r = sample(
        r#"{"version":"1.32","durationSeconds":200,"kubelet":{"nodeStatusUpdateFrequency":"4s"},
        "controllerManager":{"nodeMonitorPeriod":"2s","nodeMonitorGracePeriod":"20s"},
        "apiServer":{"defaultUnreachableTolerationSeconds":30},
        "nodes":[{"name":"a"},{"name":"b"},{"name":"c"}],
        "workloads":[{"kind":"Deployment","name":"web","replicas":3}],
        "events":[{"at":"60s","action":"NodeCrash","node":"a"}]}"#,
    );
    let deletion: Vec<i64> = r.iter().map(|x| x.deletion.unwrap()).collect();
    check("G75 deletion", &deletion, 47_800, 56_300, 56_300, 1.0);
}

/// §7.2 for 1.17 defaults (G = 40s, lease every 10s with no jitter before 1.22): Unknown
/// (29.6, 45], taint (34.6, 50.1], delete (334.6, 350.1].
#[test]
fn defaults_1_17() {
    let r = sample(&default_scenario("1.17"));
    let slack = 100;
    check(
        "1.17 Unknown",
        &r.iter().map(|x| x.unknown.unwrap()).collect::<Vec<_>>(),
        29_600,
        45_000 + slack,
        50_000 + slack,
        0.9,
    );
    check(
        "1.17 deletion",
        &r.iter().map(|x| x.deletion.unwrap()).collect::<Vec<_>>(),
        334_600,
        350_100 + slack,
        355_100 + slack,
        0.9,
    );
}

/// §7.2 for 1.14 (leases every 10s exactly, status reports every minute): Unknown (30, 45]. The
/// one-minute reports make the lease-record quirk likelier, so fewer seeds stay in the spec's window.
#[test]
fn defaults_1_14() {
    let r = sample(&default_scenario("1.14"));
    check(
        "1.14 Unknown",
        &r.iter().map(|x| x.unknown.unwrap()).collect::<Vec<_>>(),
        30_000,
        45_000 + 100,
        50_000 + 100,
        0.75,
    );
}

/// §7.2 for 1.12: no Lease, status every 10s without jitter, legacy eviction 5m after the last
/// heartbeat seen: Unknown (30, 45], pods deleted (290, 305] (+ ≤0.1s evictor tick) — about 45s
/// earlier than the taint path, and with no NoExecute taint.
#[test]
fn defaults_1_12_legacy() {
    let r = sample(&default_scenario("1.12"));
    check(
        "1.12 Unknown",
        &r.iter().map(|x| x.unknown.unwrap()).collect::<Vec<_>>(),
        30_000,
        45_100,
        45_100,
        1.0,
    );
    check(
        "1.12 deletion",
        &r.iter().map(|x| x.deletion.unwrap()).collect::<Vec<_>>(),
        290_000,
        305_200,
        305_200,
        1.0,
    );
    assert!(
        r.iter().all(|x| x.taint.is_none()),
        "the legacy path adds no NoExecute taint"
    );
}

/// §7.3 S2: the 4s update frequency set as a CLI flag leaves the report frequency at 5m, so the
/// Lease is the heartbeat: Unknown (9.6, 22], taint (11.6, 24.1], delete (311.6, 324.1].
#[test]
fn seed_profile_s2() {
    let r = sample(
        r#"{"version":"1.31","durationSeconds":480,"kubelet":{"nodeStatusUpdateFrequency":"4s","nodeStatusReportFrequency":"5m0s"},
        "controllerManager":{"nodeMonitorPeriod":"2s","nodeMonitorGracePeriod":"20s"},
        "nodes":[{"name":"a"},{"name":"b"},{"name":"c"}],
        "workloads":[{"kind":"Deployment","name":"web","replicas":3}],
        "events":[{"at":"60s","action":"NodeCrash","node":"a"}]}"#,
    );
    check(
        "S2 Unknown",
        &r.iter().map(|x| x.unknown.unwrap()).collect::<Vec<_>>(),
        9_600,
        22_100,
        24_100,
        0.9,
    );
    check(
        "S2 taint",
        &r.iter().map(|x| x.taint.unwrap()).collect::<Vec<_>>(),
        11_600,
        24_200,
        26_200,
        0.9,
    );
    check(
        "S2 deletion",
        &r.iter().map(|x| x.deletion.unwrap()).collect::<Vec<_>>(),
        311_600,
        324_200,
        326_200,
        0.9,
    );
}

/// §7.3 S3: the kubespray profile with the legacy semantics it was written for (1.12: status
/// every 4s, no Lease, --pod-eviction-timeout 30s counted from the last heartbeat seen): Unknown
/// (16, 22], pods deleted (26, 32.1] — not the 50s kubespray's sequential reading suggests.
#[test]
fn seed_profile_s3() {
    let r = sample(
        r#"{"version":"1.12","durationSeconds":200,"kubelet":{"nodeStatusUpdateFrequency":"4s"},
        "controllerManager":{"nodeMonitorPeriod":"2s","nodeMonitorGracePeriod":"20s","podEvictionTimeout":"30s"},
        "nodes":[{"name":"a"},{"name":"b"},{"name":"c"}],
        "workloads":[{"kind":"Deployment","name":"web","replicas":3}],
        "events":[{"at":"60s","action":"NodeCrash","node":"a"}]}"#,
    );
    check(
        "S3 Unknown",
        &r.iter().map(|x| x.unknown.unwrap()).collect::<Vec<_>>(),
        16_000,
        22_100,
        22_100,
        1.0,
    );
    check(
        "S3 deletion",
        &r.iter().map(|x| x.deletion.unwrap()).collect::<Vec<_>>(),
        26_000,
        32_200,
        32_200,
        1.0,
    );
}

/// Seeds for the service-and-storage windows: each run carries Services and volumes.
const STORAGE_SEEDS: u64 = 50;

/// Event times of one kind on the crashed node `a`, relative to the crash at 60s, over
/// `STORAGE_SEEDS` seeds: the first such event of each run.
fn first_after_crash(json: &str, kind: kubelife_engine::EventKind) -> Vec<i64> {
    let s = Scenario::from_json(json).expect("valid");
    (1..=STORAGE_SEEDS)
        .map(|seed| {
            let o = run_seed(&s, seed);
            let e = o
                .events
                .iter()
                .find(|e| e.kind == kind && e.at_ms > 60_000 && e.node.as_deref() == Some("a"));
            e.unwrap_or_else(|| panic!("seed {seed}: no {kind:?}")).at_ms - 60_000
        })
        .collect()
}

/// A crash of `a` at 60s on the newest version's defaults, three nodes, one workload.
fn crash_scenario(workload: &str, extra: &str) -> String {
    format!(
        r#"{{"durationSeconds":900,"nodes":[{{"name":"a"}},{{"name":"b"}},{{"name":"c"}}],
        "workloads":[{workload}],
        "events":[{{"at":"60s","action":"NodeCrash","node":"a"}}{extra}]}}"#
    )
}

/// Service-and-storage spec §7.1 on the newest defaults: a Deployment pod behind a Service on a
/// crashed node stops receiving traffic in (39.6 + ~0.05, 55.0 + ~0.05 + 1 + d] s after the
/// crash (d = the 100 ms proxy sync), up to 61.2 s + d when the lease-record quirk moves
/// detection by one monitor pass.
#[test]
fn service_storage_7_1_traffic_stops_within_the_window_after_a_crash() {
    let stopped = first_after_crash(
        &crash_scenario(r#"{"kind":"Deployment","name":"web","replicas":3,"service":true}"#, ""),
        kubelife_engine::EventKind::TrafficStopped,
    );
    check("7.1 TrafficStopped", &stopped, 39_600, 56_200 + 100, 61_200 + 100, 0.9);
}

const STS_RWO: &str =
    r#"{"kind":"StatefulSet","name":"db","replicas":3,"volume":{"accessMode":"ReadWriteOnce","perPod":true}}"#;

/// Service-and-storage spec §7.2, out-of-service path: with the taint at T_o = 150s (after
/// Unknown), PodGC force-deletes the pod at its next 20 s run and the attach-detach controller
/// force-detaches the volume (cause out-of-service) within (T_o, T_o + 20.1 s].
#[test]
fn service_storage_7_2_out_of_service_force_detaches_within_podgcs_period() {
    let t_o = 150_000 - 60_000;
    let forced = first_after_crash(
        &crash_scenario(STS_RWO, r#",{"at":"150s","action":"OutOfServiceTaint","node":"a"}"#),
        kubelife_engine::EventKind::VolumeForceDetached,
    );
    check(
        "7.2 out-of-service VolumeForceDetached",
        &forced,
        t_o,
        t_o + 20_100,
        t_o + 20_100,
        1.0,
    );
}

/// Service-and-storage spec §7.2, force-delete path: after `ForceDeletePod` at T_f = 150s the
/// dead node's volume is force-detached on the 6-minute `maxWaitForUnmountDuration` timer
/// (cause timeout), at T_f + 360 s plus at most the reconciler's ticks (0.3 s).
#[test]
fn service_storage_7_2_force_delete_detaches_after_six_minutes() {
    let t_f = 150_000 - 60_000;
    let forced = first_after_crash(
        &crash_scenario(STS_RWO, r#",{"at":"150s","action":"ForceDeletePod","pod":"db-0"}"#),
        kubelife_engine::EventKind::VolumeForceDetached,
    );
    let (min, max) = (*forced.iter().min().unwrap(), *forced.iter().max().unwrap());
    eprintln!(
        "7.2 force delete: min {min} ms, max {max} ms over {} seeds",
        forced.len()
    );
    assert!(
        min >= t_f + 360_000 && max <= t_f + 360_300,
        "7.2 force delete: VolumeForceDetached in [{min}, {max}] ms, expected within [{}, {}]",
        t_f + 360_000,
        t_f + 360_300
    );
}

/// The runs of `json` over the seeds, each with its fault's time.
fn outcomes(json: &str) -> Vec<kubelife_engine::Outcome> {
    let s = Scenario::from_json(json).expect("valid");
    (1..=SEEDS).map(|seed| run_seed(&s, seed)).collect()
}

/// The first event of `kind` on `pod` (any pod when empty) at or after `from`, ms.
fn first_at(o: &kubelife_engine::Outcome, kind: kubelife_engine::EventKind, pod: &str, from: i64) -> Option<i64> {
    o.events
        .iter()
        .find(|e| e.kind == kind && e.at_ms >= from && (pod.is_empty() || e.pod.as_deref() == Some(pod)))
        .map(|e| e.at_ms)
}

/// Remediation spec §9.1: an AWS instance terminated at t = 0 (E = 30 s ≤ T_U, no graceful node
/// shutdown). Spec: Node DELETE ≈ 40–61 s (the first cloud pass after Ready=Unknown), orphan pods
/// force-deleted by PodGC ≈ 80–121 s (≤ 141 s), the Deployment's replacement created then, the
/// volume force-detached 360 s after that, the StatefulSet pod Running ≈ 7.5–10.5 min. The code's
/// bounds add the lease-record quirk (one 5 s pass), the informer and API latencies, the cloud
/// call (100 ms) and PodGC's run.
#[test]
fn remediation_9_1_aws_instance_terminated() {
    use kubelife_engine::EventKind as K;
    let runs = outcomes(
        r#"{"version":"1.32","durationSeconds":900,"cloud":{"provider":"aws"},
        "nodes":[{"name":"a"},{"name":"b"},{"name":"c"}],
        "workloads":[{"kind":"Deployment","name":"web","replicas":3},
                     {"kind":"StatefulSet","name":"db","replicas":3,"volume":{}}],
        "events":[{"at":"60s","action":"InstanceTerminated","node":"a"}]}"#,
    );
    let t0 = 60_000;
    let (mut deleted, mut pgc, mut ready) = (Vec::new(), Vec::new(), Vec::new());
    for o in &runs {
        let node = &o.summary.nodes[0];
        let del = node.deleted_at_ms.expect("the Node is deleted") - t0;
        let unknown = node.unknown_at_ms.unwrap() - t0;
        assert!(
            del > unknown && del <= unknown + 5_200,
            "the first pass after Unknown: {unknown} → {del}"
        );
        let removed = first_at(o, K::PodRemoved, "", t0).unwrap() - t0;
        assert!(
            removed > del + 40_000 && removed <= del + 60_100,
            "PodGC: {del} → {removed}"
        );
        let created = first_at(o, K::PodCreated, "", t0).unwrap() - t0;
        assert!((0..=100).contains(&(created - removed)), "replacement at the removal");
        let forced = first_at(o, K::VolumeForceDetached, "", t0).unwrap() - t0;
        assert!(
            (360_000..=360_300).contains(&(forced - removed)),
            "6-minute force detach"
        );
        // The StatefulSet pod that was on node a is Ready again elsewhere.
        let moved = o
            .events
            .iter()
            .filter(|e| e.kind == K::PodRemoved && e.node.as_deref() == Some("a"))
            .filter_map(|e| e.pod.clone())
            .find(|p| p.starts_with("db-"))
            .expect("a db pod ran on a");
        ready.push(first_at(o, K::PodReady, &moved, t0 + removed).unwrap() - t0);
        deleted.push(del);
        pgc.push(removed);
    }
    check("9.1 NodeDeleted", &deleted, 39_600, 61_000, 70_400, 0.9);
    check("9.1 PodGC", &pgc, 79_600, 121_000, 141_000, 0.9);
    let (min, max) = (*ready.iter().min().unwrap(), *ready.iter().max().unwrap());
    eprintln!("9.1 StatefulSet Ready: min {min} ms, max {max} ms");
    assert!(
        min > 450_000 && max <= 650_000,
        "StatefulSet Running ≈ 7.5–10.5 min: [{min}, {max}]"
    );
}

/// Remediation spec §9.2: a GKE Spot VM preempted at t = 0 with a 30 s notice and graceful node
/// shutdown on (30 s, 15 s of it for critical pods). Ready=False at once; regular pods Failed
/// within 15 s, critical ones within 30 s; the Deployment's replacement created at the Failed
/// pod, the StatefulSet's Failed pod removed and created again at once; the volume force-detached
/// 6 min after the pod failed (`volumesInUse` not cleared); the Node is kept (a stopped VM
/// still exists on GCE).
#[test]
fn remediation_9_2_gke_spot_preempted() {
    use kubelife_engine::EventKind as K;
    let runs = outcomes(
        r#"{"version":"1.32","durationSeconds":600,"cloud":{"provider":"gcp"},
        "kubelet":{"shutdownGracePeriod":"30s","shutdownGracePeriodCriticalPods":"15s"},
        "nodes":[{"name":"a"},{"name":"b"},{"name":"c"}],
        "workloads":[{"kind":"Deployment","name":"web","replicas":3},
                     {"kind":"Deployment","name":"dns","replicas":3,"priorityClassName":"system-cluster-critical"},
                     {"kind":"StatefulSet","name":"db","replicas":3,"volume":{}}],
        "events":[{"at":"60s","action":"SpotInterruption","node":"a"}]}"#,
    );
    let t0 = 60_000;
    for o in &runs {
        assert_eq!(first_at(o, K::NodeNotReady, "", t0), Some(t0), "Ready=False at once");
        assert!(o.summary.nodes[0].deleted_at_ms.is_none(), "the Node is kept");
        for e in o.events.iter().filter(|e| e.kind == K::PodFailed) {
            let pod = e.pod.as_deref().unwrap();
            let limit = if pod.starts_with("dns") { 30_000 } else { 15_000 };
            assert!(e.at_ms - t0 <= limit, "{pod} failed at {} ms", e.at_ms - t0);
            let created = o
                .events
                .iter()
                .find(|c| {
                    c.kind == K::PodCreated
                        && c.at_ms >= e.at_ms
                        && c.pod.as_deref().is_some_and(|p| p.starts_with(&pod[..3]))
                })
                .map(|c| c.at_ms)
                .expect("a replacement");
            assert!(created - e.at_ms <= 100, "{pod}: replaced at once");
        }
        let failed = o
            .events
            .iter()
            .find(|e| e.kind == K::PodFailed && e.pod.as_deref().is_some_and(|p| p.starts_with("db-")))
            .map(|e| e.at_ms)
            .expect("the db pod on a failed");
        let forced = first_at(o, K::VolumeForceDetached, "", t0).unwrap();
        assert!(
            (360_000..=360_300).contains(&(forced - failed)),
            "6-minute force detach after Failed"
        );
    }
}

/// Remediation spec §9.5: Cluster API MachineHealthCheck (the book's Ready Unknown 300 s), CAPI
/// ≥ 1.8, a node crashed at t = 0. Spec: unhealthy at T_U + 300 s + 1 s ≈ 341–356 s; the drain of
/// the unreachable node done within one 20 s retry; no volume wait; the VM gone after V (60 s);
/// the Node deleted by CAPI; the replacement Machine's node Ready after B (90 s); PodGC 40–60 s
/// after the deletion; the StatefulSet pod Running ≈ 12.5–16 min + V. The code's bounds add the
/// reconcile round trips and the watch latency.
#[test]
fn remediation_9_5_cluster_api_machine_health_check() {
    use kubelife_engine::EventKind as K;
    let runs = outcomes(
        r#"{"version":"1.32","durationSeconds":1500,
        "remediation":[{"kind":"MachineHealthCheck","clusterApiVersion":"1.8"}],
        "nodes":[{"name":"a"},{"name":"b"},{"name":"c"}],
        "workloads":[{"kind":"Deployment","name":"web","replicas":3},
                     {"kind":"StatefulSet","name":"db","replicas":3,"volume":{}}],
        "events":[{"at":"60s","action":"NodeCrash","node":"a"}]}"#,
    );
    let t0 = 60_000;
    let (mut marked, mut deleted, mut ready) = (Vec::new(), Vec::new(), Vec::new());
    for o in &runs {
        let node = &o.summary.nodes[0];
        let start = node.remediation_at_ms.expect("remediated") - t0;
        let unknown = node.unknown_at_ms.unwrap() - t0;
        assert!(
            (301_000..=301_200).contains(&(start - unknown)),
            "T_U + 300 s + 1 s: {unknown} → {start}"
        );
        let del = node.deleted_at_ms.expect("CAPI deletes the Node") - t0;
        assert!(
            del - start >= 60_000 && del - start <= 80_100,
            "drain ≤ 20 s, then V: {start} → {del}"
        );
        let joined = o
            .events
            .iter()
            .find(|e| e.kind == K::NodeCreated && e.node.as_deref() == Some("a-r1"))
            .map(|e| e.at_ms - t0)
            .expect("the replacement joins");
        assert_eq!(joined - del, 90_000, "B after the old Machine is gone");
        let removed = first_at(o, K::PodRemoved, "", t0 + del).unwrap() - t0;
        assert!(
            removed > del + 40_000 && removed <= del + 60_100,
            "PodGC: {del} → {removed}"
        );
        let moved = o
            .events
            .iter()
            .filter(|e| e.kind == K::PodRemoved && e.node.as_deref() == Some("a"))
            .filter_map(|e| e.pod.clone())
            .find(|p| p.starts_with("db-"))
            .expect("a db pod ran on a");
        ready.push(first_at(o, K::PodReady, &moved, t0 + removed).unwrap() - t0);
        marked.push(start);
        deleted.push(del);
    }
    check("9.5 MHC marks unhealthy", &marked, 340_600, 356_000, 362_000, 0.9);
    let (min, max) = (*ready.iter().min().unwrap(), *ready.iter().max().unwrap());
    eprintln!("9.5 StatefulSet Ready: min {min} ms, max {max} ms");
    assert!(
        min >= 750_000 && max <= 960_000 + 60_000 + 10_000,
        "StatefulSet Running ≈ 12.5–16 min + V: [{min}, {max}]"
    );
}

/// Seeds for the managed services' long timelines.
const MANAGED_SEEDS: u64 = 50;

/// The runs of a three-node cluster (a Deployment of three, a StatefulSet of three with volumes)
/// on `cloud` with `remediation`, `fault` on node a at t = 60 s.
fn managed_runs(cloud: &str, remediation: &str, fault: &str, seconds: u32) -> Vec<kubelife_engine::Outcome> {
    let json = format!(
        r#"{{"version":"1.32","durationSeconds":{seconds},"cloud":{{"provider":"{cloud}"}},
        "remediation":[{remediation}],
        "nodes":[{{"name":"a"}},{{"name":"b"}},{{"name":"c"}}],
        "workloads":[{{"kind":"Deployment","name":"web","replicas":3}},
                     {{"kind":"StatefulSet","name":"db","replicas":3,"volume":{{}}}}],
        "events":[{{"at":"60s","action":"{fault}","node":"a"}}]}}"#
    );
    let s = Scenario::from_json(&json).expect("valid");
    (1..=MANAGED_SEEDS).map(|seed| run_seed(&s, seed)).collect()
}

/// When the db pod that ran on node a is Ready again, from t = 60 s.
fn db_ready_again(o: &kubelife_engine::Outcome, after: i64) -> Option<i64> {
    use kubelife_engine::EventKind as K;
    let moved = o
        .events
        .iter()
        .filter(|e| e.node.as_deref() == Some("a") && e.kind == K::PodRemoved)
        .filter_map(|e| e.pod.clone())
        .find(|p| p.starts_with("db-"))?;
    first_at(o, K::PodReady, &moved, after).map(|t| t - 60_000)
}

/// Remediation spec §9.3: GKE auto-repair of a hung node (VM running). Repair starts at
/// T_U + ~10 min; the drain waits (pods on a dead kubelet never finish) up to its one-hour
/// timeout; the VM is re-created under the same name (B); the returning kubelet finishes the
/// Terminating pods and the StatefulSet pod is recreated then. Spec: lower bound ≈ 10 min + B,
/// no upper bound better than ≈ 70 min.
#[test]
fn remediation_9_3_gke_auto_repair_of_a_hung_node() {
    let runs = managed_runs("gcp", r#"{"kind":"GKEAutoRepair"}"#, "NodeCrash", 5400);
    let mut starts = Vec::new();
    for o in &runs {
        let node = &o.summary.nodes[0];
        let start = node.remediation_at_ms.expect("repaired") - 60_000;
        assert_eq!(start - (node.unknown_at_ms.unwrap() - 60_000), 600_000);
        assert!(node.deleted_at_ms.is_none(), "the name and the Node are kept");
        let ready = db_ready_again(o, 60_000 + start).expect("the db pod runs again");
        assert!(
            ready >= start + 90_000 && ready <= start + 3_600_000 + 20_000 + 90_000 + 180_000,
            "between the repair + B and the repair + the 1-hour drain + B (+ the volume): {ready}"
        );
        starts.push(start);
    }
    check("9.3 GKE repair", &starts, 639_600, 655_000, 661_000, 0.9);
}

/// Remediation spec §9.4: EKS node auto repair of a hung kubelet (instance running): Replace at
/// T_U + 30 min, then §9.1 from the termination on; StatefulSet Running ≈ 38–41 min.
#[test]
fn remediation_9_4_eks_node_auto_repair_of_a_hung_kubelet() {
    let runs = managed_runs("aws", r#"{"kind":"EKSNodeAutoRepair"}"#, "KubeletStop", 3000);
    let mut ready_at = Vec::new();
    for o in &runs {
        let node = &o.summary.nodes[0];
        let start = node.remediation_at_ms.expect("repaired") - 60_000;
        assert_eq!(start - (node.unknown_at_ms.unwrap() - 60_000), 1_800_000);
        let deleted = node.deleted_at_ms.expect("the CCM deletes the Node") - 60_000;
        assert!(deleted - start > 30_000 && deleted - start <= 36_000, "E + one pass");
        ready_at.push(db_ready_again(o, 60_000 + deleted).expect("the db pod runs again"));
    }
    let (min, max) = (*ready_at.iter().min().unwrap(), *ready_at.iter().max().unwrap());
    eprintln!("9.4 StatefulSet Ready: min {min} ms, max {max} ms");
    assert!(
        min >= 38 * 60_000 && max <= 41 * 60_000 + 30_000,
        "≈ 38–41 min: [{min}, {max}]"
    );
}

/// Remediation spec §9.8: AKS auto-repair of a hung kubelet (VM running): reboot at
/// T_U + detectionDelay (default 10 min, documented range 5–15); the kubelet is back after B and
/// finishes the pods taint eviction deleted at ≈ 345–360 s, so the StatefulSet pod is recreated
/// then and its volume detaches normally (no 6-minute wait).
#[test]
fn remediation_9_8_aks_auto_repair_reboots_a_hung_node() {
    let runs = managed_runs("azure", r#"{"kind":"AKSAutoRepair"}"#, "KubeletStop", 1800);
    for o in &runs {
        let node = &o.summary.nodes[0];
        let start = node.remediation_at_ms.expect("repaired") - 60_000;
        assert_eq!(start - (node.unknown_at_ms.unwrap() - 60_000), 600_000);
        let ready = db_ready_again(o, 60_000 + start).expect("the db pod runs again");
        assert!(
            ready >= start + 90_000 && ready <= start + 90_000 + 3 * 60_000,
            "after the reboot, without the 6-minute detach: {start} → {ready}"
        );
        assert!(o
            .events
            .iter()
            .all(|e| e.kind != kubelife_engine::EventKind::VolumeForceDetached));
    }
}

/// Remediation spec §9.6: medik8s NHC + Self Node Remediation with the defaults (1.28+, so the
/// out-of-service taint; a 60 s watchdog; no worker-labelled nodes ⇒ rebootDuration 180 s). NHC
/// creates the SNR at T_U + 301 s ≈ 341–356 s; timeAssumedRebooted 180 s later ≈ 521–536 s; the
/// out-of-service taint 1 s after that; PodGC force-deletes the pods within 20 s; no 6-minute
/// wait; the StatefulSet pod Running ≈ 9–10 min.
#[test]
fn remediation_9_6_self_node_remediation() {
    use kubelife_engine::EventKind as K;
    let runs = outcomes(
        r#"{"version":"1.32","durationSeconds":900,
        "remediation":[{"kind":"SelfNodeRemediation"}],
        "nodes":[{"name":"a"},{"name":"b"},{"name":"c"}],
        "workloads":[{"kind":"Deployment","name":"web","replicas":3},
                     {"kind":"StatefulSet","name":"db","replicas":3,"volume":{}}],
        "events":[{"at":"60s","action":"NodeCrash","node":"a"}]}"#,
    );
    let t0 = 60_000;
    let (mut oos_at, mut ready) = (Vec::new(), Vec::new());
    for o in &runs {
        let node = &o.summary.nodes[0];
        let start = node.remediation_at_ms.expect("remediated") - t0;
        let oos = o
            .events
            .iter()
            .find(|e| e.kind == K::TaintAdded && e.taint.as_deref().is_some_and(|t| t.contains("out-of-service")))
            .map(|e| e.at_ms - t0)
            .expect("the out-of-service taint");
        assert_eq!(oos - start, 181_000);
        let removed = first_at(o, K::PodRemoved, "", t0 + oos).unwrap() - t0;
        assert!(removed - oos <= 20_100, "PodGC's gcTerminating: {oos} → {removed}");
        let moved = o
            .events
            .iter()
            .filter(|e| e.kind == K::PodRemoved && e.node.as_deref() == Some("a"))
            .filter_map(|e| e.pod.clone())
            .find(|p| p.starts_with("db-"))
            .expect("a db pod ran on a");
        ready.push(first_at(o, K::PodReady, &moved, t0 + removed).unwrap() - t0);
        oos_at.push(oos - 1_000);
    }
    check("9.6 timeAssumedRebooted", &oos_at, 520_600, 536_000, 542_000, 0.9);
    let (min, max) = (*ready.iter().min().unwrap(), *ready.iter().max().unwrap());
    eprintln!("9.6 StatefulSet Ready: min {min} ms, max {max} ms");
    assert!(min >= 540_000 && max <= 600_000 + 60_000, "≈ 9–10 min: [{min}, {max}]");
}

/// Remediation spec §9.7, NodeRepair on, kubelet hung on AWS: repair at T_U + 30 min (exact);
/// pods already deleted by taint eviction are stuck terminating, so the drain is over at once;
/// the volume wait skipped; the instance terminated (E); the Node deleted; PodGC; the 6-minute
/// detach ⇒ StatefulSet Running ≈ 38–40 min (the code adds the kubelet's attach-check backoff).
#[test]
fn remediation_9_7_karpenter_node_repair_of_a_hung_kubelet() {
    let runs = managed_runs(
        "aws",
        r#"{"kind":"KarpenterNodeRepair","nodeRepair":true}"#,
        "KubeletStop",
        3000,
    );
    let mut ready_at = Vec::new();
    for o in &runs {
        let node = &o.summary.nodes[0];
        let start = node.remediation_at_ms.expect("repaired") - 60_000;
        assert_eq!(start - (node.unknown_at_ms.unwrap() - 60_000), 1_800_000);
        let deleted = node.deleted_at_ms.expect("the Node is deleted") - 60_000;
        assert!(
            deleted - start >= 30_000 && deleted - start <= 35_000,
            "E on the 5 s poll"
        );
        ready_at.push(db_ready_again(o, 60_000 + deleted).expect("the db pod runs again"));
    }
    let (min, max) = (*ready_at.iter().min().unwrap(), *ready_at.iter().max().unwrap());
    eprintln!("9.7 StatefulSet Ready: min {min} ms, max {max} ms");
    assert!(
        min >= 38 * 60_000 && max <= 41 * 60_000 + 30_000,
        "≈ 38–40 min (+ the attach-check backoff): [{min}, {max}]"
    );
}

/// Remediation spec §9.7, Spot interruption with the interruption queue on AWS (warning at
/// t = 0, reclaim at 120 s): the NodeClaim is deleted at the message (5 s, the latency's
/// default), the drain evicts through the eviction API, the EBS volume detaches from the live
/// node (no six-minute wait), the replacement launches in parallel and Karpenter terminates the
/// instance itself. Drain and detach finish well inside the notice, so the StatefulSet pod runs
/// again ≈ detach + attach + mount, and the Node is gone before EC2 would reclaim it.
#[test]
fn remediation_9_7_karpenter_spot_interruption_with_the_queue() {
    use kubelife_engine::EventKind as K;
    let runs = managed_runs(
        "aws",
        r#"{"kind":"KarpenterNodeRepair","interruptionQueue":true}"#,
        "SpotInterruption",
        600,
    );
    let mut ready_at = Vec::new();
    for o in &runs {
        let node = &o.summary.nodes[0];
        assert_eq!(
            node.remediation_at_ms,
            Some(65_000),
            "the message 5 s after the warning"
        );
        assert!(
            node.unknown_at_ms.is_none(),
            "never Unknown: gone before its heartbeats stop"
        );
        let deleted = node.deleted_at_ms.expect("the Node is deleted") - 60_000;
        assert!(deleted < 120_000, "before the reclaim: {deleted}");
        let detached = first_at(o, K::VolumeDetached, "", 60_000).expect("detached") - 60_000;
        let ready = db_ready_again(o, 60_000).expect("the db pod runs again");
        assert!(ready > detached && ready - detached <= 30_000, "{detached} → {ready}");
        ready_at.push(ready);
    }
    let (min, max) = (*ready_at.iter().min().unwrap(), *ready_at.iter().max().unwrap());
    eprintln!("9.7 interruption: StatefulSet Ready: min {min} ms, max {max} ms");
    assert!(max < 120_000, "within the notice: [{min}, {max}]");
}

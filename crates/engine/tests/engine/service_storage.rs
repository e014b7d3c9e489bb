//! The derived end-to-end cases of the service-and-storage spec (§8.8, S50–S55) and its
//! Multi-Attach texts (§8.3, S24), run through whole scenarios. Times are relative to the
//! crash at t = 30s, in ms.

use crate::common::{of_kind, run_ok};
use kubelife_engine::{EventKind, Outcome};

/// A crash of node-1 at 30s on three one-node zones, with one workload and optional extra events.
fn scenario(version: &str, workload: &str, extra: &str) -> String {
    format!(
        r#"{{"version":"{version}","durationSeconds":1500,
        "nodes":[{{"name":"node-1","zone":"a"}},{{"name":"node-2","zone":"b"}},{{"name":"node-3","zone":"c"}}],
        "workloads":[{workload}],
        "events":[{{"at":"30s","action":"NodeCrash","node":"node-1"}}{extra}]}}"#
    )
}

const CRASH: i64 = 30_000;
const STS: &str = r#"{"kind":"StatefulSet","name":"db","replicas":1,"service":true,"volume":{}}"#;
const DEPLOY_SHARED: &str = r#"{"kind":"Deployment","name":"db","replicas":1,"volume":{"perPod":false}}"#;

/// Times of the events of one kind, relative to the crash.
fn times(o: &Outcome, kind: EventKind) -> Vec<i64> {
    of_kind(o, kind).iter().map(|e| e.at_ms - CRASH).collect()
}

/// One case: its spec number, the scenario, and what must hold of the run.
fn check(spec: &str, json: &str, expect: impl Fn(&Outcome) -> Result<(), String>) {
    let o = run_ok(json);
    if let Err(why) = expect(&o) {
        panic!("{spec}: {why}\n{}", kubelife_engine::render::render_timeline(&o));
    }
}

fn within(what: &str, t: Option<&i64>, lo: i64, hi: i64) -> Result<(), String> {
    match t {
        Some(&t) if (lo..=hi).contains(&t) => Ok(()),
        other => Err(format!("{what} at {other:?} ms, expected within [{lo}, {hi}]")),
    }
}

#[test]
fn s50_traffic_stops_when_the_pod_turns_not_ready_and_its_endpoint_stays() {
    let w = r#"{"kind":"Deployment","name":"web","replicas":3,"service":true}"#;
    check("S50", &scenario("1.35", w, ""), |o| {
        within(
            "TrafficStopped",
            times(o, EventKind::TrafficStopped).first(),
            39_601,
            61_200 + 1_000,
        )?;
        let removed = times(o, EventKind::EndpointRemoved);
        let deleted = o.summary.nodes[0].first_deletion_at_ms.unwrap() - CRASH;
        // The endpoint leaves the slice only once the old pod object is gone, never before.
        match removed.first() {
            Some(&r) if r < deleted => Err(format!("endpoint removed at {r} before the deletion at {deleted}")),
            _ => Ok(()),
        }
    });
}

#[test]
fn s52_a_statefulset_pod_stays_terminating_and_its_volume_never_moves() {
    check("S52", &scenario("1.35", STS, ""), |o| {
        for kind in [
            EventKind::VolumeDetachRequested,
            EventKind::MultiAttachError,
            EventKind::VolumeDetached,
        ] {
            if !times(o, kind).is_empty() {
                return Err(format!("unexpected {kind:?}"));
            }
        }
        match o.summary.workloads[0].ready_at_end {
            0 => Ok(()),
            n => Err(format!("{n} pods Ready at the end: the StatefulSet never replaces it")),
        }
    });
}

#[test]
fn s53_the_out_of_service_taint_force_detaches_within_podgcs_period() {
    let extra = r#",{"at":"2m30s","action":"OutOfServiceTaint","node":"node-1"}"#;
    check("S53", &scenario("1.35", STS, extra), |o| {
        let forced = of_kind(o, EventKind::VolumeForceDetached);
        let f = forced.first().ok_or("no VolumeForceDetached")?;
        within("VolumeForceDetached", Some(&(f.at_ms - CRASH)), 120_001, 140_200)?;
        if !f.cause.english().contains("out-of-service") {
            return Err(format!("cause should name the taint: {}", f.cause.english()));
        }
        let detached = times(o, EventKind::VolumeDetached);
        let attached = times(o, EventKind::VolumeAttached);
        match (detached.first(), attached.last()) {
            (Some(d), Some(a)) if a >= d => Ok(()),
            other => Err(format!("detached/attached {other:?}")),
        }
    });
}

#[test]
fn s54_after_a_force_delete_the_volume_waits_six_minutes() {
    let extra = r#",{"at":"2m30s","action":"ForceDeletePod","pod":"db-0"}"#;
    check("S54", &scenario("1.35", STS, extra), |o| {
        within(
            "VolumeForceDetached",
            times(o, EventKind::VolumeForceDetached).first(),
            480_000,
            480_300,
        )?;
        let texts: Vec<String> = of_kind(o, EventKind::MultiAttachError)
            .iter()
            .map(|e| e.cause.english())
            .collect();
        match texts.first() {
            Some(t) if t.contains("exclusively attached to one node and can't be attached to another") => Ok(()),
            other => Err(format!("Multi-Attach text {other:?}")),
        }
    });
}

#[test]
fn s55_a_shared_volume_names_the_old_pod_and_is_never_attached() {
    check("S55", &scenario("1.35", DEPLOY_SHARED, ""), |o| {
        let errors = of_kind(o, EventKind::MultiAttachError);
        let e = errors.first().ok_or("no MultiAttachError")?;
        let old = of_kind(o, EventKind::PodDeletionRequested)[0].pod.clone().unwrap();
        let want = format!("Multi-Attach error for volume \"db-data\" Volume is already used by pod(s) {old}");
        if !e.cause.english().contains(&want) {
            return Err(format!("text: {}", e.cause.english()));
        }
        match times(o, EventKind::VolumeAttached).iter().find(|&&t| t > 0) {
            None => Ok(()),
            Some(t) => Err(format!("attached at {t}")),
        }
    });
}

#[test]
fn s24_from_1_37_the_event_says_waiting_for_detach() {
    let extra = r#",{"at":"2m30s","action":"ForceDeletePod","pod":"db-0"}"#;
    check("S24", &scenario("1.37", STS, extra), |o| {
        let errors = of_kind(o, EventKind::MultiAttachError);
        let e = errors.first().ok_or("no MultiAttachError")?;
        let want = "Waiting for detach for volume \"data-db-0\" Volume is already exclusively attached to one node, waiting on detach before it can be attached to another node";
        match e.cause.english().contains(want) {
            true => Ok(()),
            false => Err(format!("text: {}", e.cause.english())),
        }
    });
}

#[test]
fn s18_a_read_write_many_volume_attaches_at_once_on_the_new_node() {
    let w = r#"{"kind":"Deployment","name":"db","replicas":1,"volume":{"perPod":false,"accessMode":"ReadWriteMany"}}"#;
    check("S18", &scenario("1.35", w, ""), |o| {
        if !times(o, EventKind::MultiAttachError).is_empty() {
            return Err("a ReadWriteMany volume never waits".into());
        }
        let deleted = o.summary.nodes[0].first_deletion_at_ms.unwrap() - CRASH;
        match times(o, EventKind::VolumeAttached).iter().find(|&&t| t > deleted) {
            Some(_) => Ok(()),
            None => Err("never attached on the new node".into()),
        }
    });
}

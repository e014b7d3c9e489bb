//! Every explanation true: over every preset and over generated scenarios with each remediator
//! and each cloud, (a) every event after the fault names the earlier event that caused it,
//! except the faults and the scenario's own actions, which start chains of their own; (b) every
//! segment of "where does the time go?" longer than a minute names in its label a duration that
//! accounts for at least half of it; (c) no cause names a state its object is no longer in.

use crate::scenarios::scenario;
use kubelife_engine::chain::chain;
use kubelife_engine::milestones::{database, milestones};
use kubelife_engine::time::{parse_go_duration, MINUTE};
use kubelife_engine::{run, EventKind, Outcome, RunOptions, Scenario};
use proptest::prelude::*;

/// The causes of the scenario's own actions (an operator's taint, deletion, drain, restart,
/// join, force delete, patch, latency change): each starts a chain of its own.
const OWN_ACTIONS: &[&str] = &[
    "cause.drain.cordon",
    "cause.kcm.stopped",
    "cause.kcm.started",
    "cause.out_of_service",
    "cause.node_deleted",
    "cause.node_created",
    "cause.force_deleted",
    "cause.patch_tolerations",
    "cause.api_latency",
];

/// The remediators the generated cases add, each on the cloud it runs on, as the scenario's
/// JSON writes them.
const REMEDIATORS: &[(&str, &str)] = &[
    ("", r#"{"kind": "MachineHealthCheck"}"#),
    ("", r#"{"kind": "SelfNodeRemediation"}"#),
    ("aws", r#"{"kind": "KarpenterNodeRepair", "nodeRepair": true}"#),
    ("aws", r#"{"kind": "KarpenterNodeRepair", "interruptionQueue": true}"#),
    ("gcp", r#"{"kind": "GKEAutoRepair"}"#),
    ("aws", r#"{"kind": "EKSNodeAutoRepair"}"#),
    ("azure", r#"{"kind": "AKSAutoRepair"}"#),
    ("aws", r#"{"kind": "MachineHealthCheck"}"#),
    (
        "",
        r#"{"kind": "MachineHealthCheck", "maxUnhealthy": "40%", "clusterApiVersion": "1.7",
            "nodeStartupTimeout": "2m", "replacementJoinDuration": "5m"}"#,
    ),
    ("", r#"{"kind": "SelfNodeRemediation", "strategy": "ResourceDeletion"}"#),
];

/// What is wrong with the explanations of `o`, one finding a line (empty: nothing).
fn findings(o: &Outcome, s: &Scenario) -> Vec<String> {
    let mut out = unlinked(o);
    out.extend(unnamed_waits(o, s));
    out.extend(stale_states(o));
    out
}

/// Whether event `e` is the scenario's own doing: a fault, an operator's action, or the end of a
/// fault the scenario schedules (`NodeRecover`, or a fault replaced by the next one).
fn own(e: &kubelife_engine::TimelineEvent) -> bool {
    let why = match e.cause.arg("why") {
        Some(kubelife_engine::cause::Arg::Cause(c)) => c.key,
        _ => "",
    };
    e.kind == EventKind::FaultStarted
        || e.cause.is_initial()
        || OWN_ACTIONS.contains(&e.cause.written().key)
        || (e.kind == EventKind::FaultEnded && ["cause.fault.recovers", "cause.fault.replaced"].contains(&why))
}

/// The nodes whose fault lasts at each event, by name: those a `FaultStarted` (or a graceful
/// shutdown's power-off) silenced until their `FaultEnded` or a new `NodeCreated`. A Spot
/// interruption's warning is not one: the machine runs through its notice.
fn down_at(o: &Outcome) -> Vec<std::collections::BTreeSet<String>> {
    let mut down = std::collections::BTreeSet::new();
    let mut out = Vec::with_capacity(o.events.len());
    for e in &o.events {
        match (e.kind, e.node.as_deref()) {
            (EventKind::FaultStarted | EventKind::NodePoweredOff, Some(n))
                if e.cause.key != "cause.fault.spot_warning" =>
            {
                down.insert(n.to_string());
            }
            (EventKind::FaultEnded | EventKind::NodeCreated, Some(n)) => {
                down.remove(n);
            }
            _ => {}
        }
        out.push(down.clone());
    }
    out
}

/// (a): events after the first fault without an earlier event that caused them. A node whose
/// heartbeats the scenario's own settings outrun, with no fault on it, flaps Ready on its own:
/// its Ready changes start chains of their own, and so does what follows from a Ready that went
/// wrong before the recording began.
fn unlinked(o: &Outcome) -> Vec<String> {
    let Some(first) = o.events.iter().position(|e| e.kind == EventKind::FaultStarted) else {
        return Vec::new();
    };
    let down = down_at(o);
    let ready_change = |e: &kubelife_engine::TimelineEvent| {
        matches!(
            e.kind,
            EventKind::NodeUnknown | EventKind::NodeNotReady | EventKind::NodeReady
        )
    };
    // A node whose Ready went wrong before the recording began and has not changed since: what
    // follows from it has no recorded event to name.
    let before_recording = |i: usize| {
        let node = o.events[i].node.as_deref();
        let about = |e: &&kubelife_engine::TimelineEvent| e.node.as_deref() == node && !e.cause.is_initial();
        node.is_some() && !o.events[..i].iter().filter(about).any(ready_change)
    };
    let flapping = |i: usize| {
        let e = &o.events[i];
        (ready_change(e) && e.node.as_deref().is_some_and(|n| !down[i].contains(n))) || before_recording(i)
    };
    (first..o.events.len())
        .filter(|&i| !own(&o.events[i]) && !flapping(i) && o.events[i].after.is_none_or(|a| a >= i))
        .map(|i| {
            let e = &o.events[i];
            format!(
                "event {i} {:?} at {} names no earlier cause: {}",
                e.kind,
                e.at_ms,
                e.cause.english()
            )
        })
        .collect()
}

/// The durations a label names, ms: Go durations (leaving out instants, `t=…`), and fields in
/// seconds named with their value (`tolerationSeconds 300`).
fn durations(label: &str) -> Vec<i64> {
    let words: Vec<&str> = label
        .split(|c: char| c.is_whitespace() || "(),;:".contains(c))
        .filter(|w| !w.is_empty())
        .collect();
    let go = words
        .iter()
        .filter(|w| !w.starts_with("t="))
        .filter_map(|w| parse_go_duration(w.trim_end_matches('.')).ok());
    let seconds = words.windows(2).filter_map(|p| match p {
        [name, value] if name.ends_with("Seconds") => value.parse::<i64>().ok().map(|s| s * 1000),
        _ => None,
    });
    go.chain(seconds).collect()
}

/// (b): segments over a minute whose label names no duration of at least half their length.
fn unnamed_waits(o: &Outcome, s: &Scenario) -> Vec<String> {
    let m = milestones(o);
    let Some(fault) = m.fault else { return Vec::new() };
    let cfg = s.resolve().expect("valid");
    let db = database(o, &cfg.workloads, fault).and_then(|d| d.ready);
    let goals = [m.events.replacement, m.events.service_restored, db];
    let mut out = Vec::new();
    for id in goals.into_iter().flatten() {
        let mut last = fault;
        for (k, i) in chain(&o.events, id).into_iter().enumerate() {
            let e = &o.events[i];
            if e.at_ms < fault || (k == 0 && e.at_ms == fault) {
                continue;
            }
            let ms = e.at_ms - last;
            last = e.at_ms;
            // The wait for the scenario's own action is the scenario's schedule, not a mechanism's;
            // a chain's first event that names no cause is (a)'s to find.
            let starts = own(e) || (k == 0 && e.after.is_none());
            let label = e.cause.render_brief(&|k| kubelife_engine::cause::english(k));
            if ms > MINUTE && !starts && !durations(&label).iter().any(|&d| 2 * d >= ms) {
                let before = e.after.map(|a| (&o.events[a].kind, o.events[a].cause.english()));
                out.push(format!(
                    "event {i} {:?}: {ms} ms labelled {label:?}, after {before:?}; its cause: {}",
                    e.kind,
                    e.cause.english()
                ));
            }
        }
    }
    out
}

/// (c): causes that name a state their object has left: "X is Terminating" once X is gone,
/// "stays Terminating" for a pod on a node whose machine runs.
fn stale_states(o: &Outcome) -> Vec<String> {
    let mut out = Vec::new();
    let mut removed = std::collections::BTreeSet::new();
    let down = down_at(o);
    for (i, e) in o.events.iter().enumerate() {
        // The cause in full and as a segment's label says it.
        let brief = e.cause.render_brief(&|k| kubelife_engine::cause::english(k));
        let said = format!("{} / {brief}", e.cause.english());
        match (e.kind, e.pod.as_deref()) {
            (EventKind::PodRemoved, Some(p)) => {
                removed.insert(p.to_string());
            }
            (EventKind::PodCreated, Some(p)) => {
                removed.remove(p);
            }
            _ => {}
        }
        for p in &removed {
            let terminating = [format!("{p} is Terminating"), format!("{p} has a deletionTimestamp")];
            if e.kind != EventKind::PodRemoved && terminating.iter().any(|t| said.contains(t.as_str())) {
                out.push(format!("event {i} {:?}: {p} is gone: {said}", e.kind));
            }
        }
        let live = e.node.as_deref().is_some_and(|n| !down[i].contains(n));
        if e.kind == EventKind::PodDeletionRequested && live && said.contains("stays Terminating") {
            out.push(format!("event {i}: a pod on a running node: {said}"));
        }
    }
    out
}

fn check(name: &str, s: &Scenario) -> Result<(), TestCaseError> {
    let Ok(cfg) = s.resolve() else { return Ok(()) };
    let o = run(&cfg, &RunOptions::default());
    let found = findings(&o, s);
    prop_assert!(found.is_empty(), "{name}:\n  {}", found.join("\n  "));
    Ok(())
}

#[test]
fn every_preset_explains_every_event_and_every_wait() {
    let failed: Vec<String> = kubelife_engine::presets::presets()
        .into_iter()
        .filter_map(|p| check(p.name, &p.scenario).err().map(|e| e.to_string()))
        .collect();
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}

/// `s` with remediator `r` of [`REMEDIATORS`] on its cloud, run long enough for its timeout.
fn with_remediator(s: &Scenario, r: usize) -> Scenario {
    let (cloud, spec) = REMEDIATORS[r];
    let mut v = serde_json::to_value(s).expect("serializes");
    v["remediation"] = serde_json::from_str(&format!("[{spec}]")).expect("JSON");
    if cloud.is_empty() {
        v.as_object_mut().expect("an object").remove("cloud");
    } else {
        v["cloud"] = serde_json::json!({ "provider": cloud });
    }
    v["durationSeconds"] = serde_json::json!(2400);
    serde_json::from_value(v).expect("a scenario")
}

proptest! {
    #![proptest_config(crate::seeded::config(48))]

    /// Generated scenarios on every cloud, with every remediator.
    #[test]
    fn every_remediator_explains_every_event_and_every_wait(s in scenario(), r in 0..REMEDIATORS.len()) {
        check("generated", &s)?;
        check(REMEDIATORS[r].1, &with_remediator(&s, r))?;
    }
}

//! Helpers shared by the integration tests.

use kubelife_engine::{run, run_json, Outcome, RunOptions, Scenario};

/// Runs a JSON scenario, panicking with the error if it is invalid.
pub fn run_ok(json: &str) -> Outcome {
    run_json(json, &RunOptions::default()).unwrap_or_else(|e| panic!("scenario should be valid: {e}"))
}

/// Runs a scenario with a given seed.
pub fn run_seed(s: &Scenario, seed: u64) -> Outcome {
    let mut s = s.clone();
    s.seed = Some(seed);
    run(&s.resolve().expect("valid scenario"), &RunOptions::default())
}

/// Milestones of the first faulted node, relative to its fault, in ms.
#[derive(Debug, Clone, Copy)]
pub struct Rel {
    pub unknown: Option<i64>,
    pub taint: Option<i64>,
    pub deletion: Option<i64>,
    pub replacement_created: Option<i64>,
}

pub fn rel(o: &Outcome) -> Rel {
    let n = &o.summary.nodes[0];
    let f = n.fault_at_ms.expect("a fault");
    let first_deleted = o
        .events
        .iter()
        .find(|e| e.kind == kubelife_engine::EventKind::PodDeletionRequested)
        .and_then(|e| e.pod.clone());
    let replacement_created = first_deleted.and_then(|old| {
        o.events
            .iter()
            .find(|e| {
                e.kind == kubelife_engine::EventKind::PodCreated
                    && e.cause
                        .english()
                        .contains(&format!("because {old} has a deletionTimestamp"))
            })
            .map(|e| e.at_ms - f)
    });
    Rel {
        unknown: n.unknown_at_ms.map(|t| t - f),
        taint: n.taint_at_ms.map(|t| t - f),
        deletion: n.first_deletion_at_ms.map(|t| t - f),
        replacement_created,
    }
}

/// The events of one kind, in order.
pub fn of_kind(o: &Outcome, kind: kubelife_engine::EventKind) -> Vec<&kubelife_engine::TimelineEvent> {
    o.events.iter().filter(|e| e.kind == kind).collect()
}

//! The disruption controller (`pkg/controller/disruption/disruption.go`): keeps each
//! PodDisruptionBudget's status in step with its pods, so that the eviction subresource can
//! decide from `disruptionsAllowed` alone.
//!
//! `getExpectedPodCount`: `maxUnavailable` (a number or a percentage, rounded up) counts from
//! the controller's scale; an integer `minAvailable` is the desired count and the matching pods
//! are the expected ones; a percentage `minAvailable` is rounded up from the scale. A pod whose
//! owner has no scale (a bare pod, a DaemonSet) makes the sync fail, and `failSafe` sets
//! `disruptionsAllowed` to 0. `countHealthyPods` counts Ready pods without a deletion timestamp
//! that are not in `disruptedPods` (entries expire after `DeletionTimeout`, 2 minutes).
//! `updatePdbStatus` writes only when something changed, through the controller's own client.

use crate::api::client::Controller;
use crate::api::eviction::PdbStatus;
use crate::api::Api;
use crate::scenario::{IntOrPercent, PdbSpec, WorkloadKind, WorkloadSpec};
use crate::time::{Millis, MINUTE};

/// `DeletionTimeout`: how long an evicted pod stays in `disruptedPods` waiting for its
/// deletion to show, ms.
pub const DELETION_TIMEOUT: Millis = 2 * MINUTE;

/// `intstr.GetScaledValueFromIntOrPercent(v, total, true)`.
fn scaled(v: IntOrPercent, total: i32) -> i32 {
    match v {
        IntOrPercent::Int(n) => n as i32,
        IntOrPercent::Percent(p) => ((i64::from(p) * i64::from(total) + 99) / 100) as i32,
    }
}

/// `getExpectedPodCount`: (expectedCount, desiredHealthy), or `None` when it needs the
/// controller's scale and there is none.
pub fn expected_and_desired(spec: &PdbSpec, scale: Option<i32>, matching: i32) -> Option<(i32, i32)> {
    if let Some(max) = spec.max_unavailable {
        let expected = scale?;
        return Some((expected, (expected - scaled(max, expected)).max(0)));
    }
    match spec.min_available {
        Some(IntOrPercent::Int(n)) => Some((matching, n as i32)),
        Some(p @ IntOrPercent::Percent(_)) => {
            let expected = scale?;
            Some((expected, scaled(p, expected)))
        }
        None => Some((matching, 0)),
    }
}

/// The status a sync computes from the matching pods (`matching`, of which `healthy` count),
/// keeping `disruptedPods`; a failed sync keeps the old counts with no disruption allowed.
pub fn compute_status(spec: &PdbSpec, scale: Option<i32>, matching: i32, healthy: i32, old: &PdbStatus) -> PdbStatus {
    let Some((expected, desired)) = expected_and_desired(spec, scale, matching) else {
        return PdbStatus {
            disruptions_allowed: 0,
            ..old.clone()
        };
    };
    let allowed = if expected > 0 && healthy > desired {
        healthy - desired
    } else {
        0
    };
    PdbStatus {
        expected,
        desired_healthy: desired,
        current_healthy: healthy,
        disruptions_allowed: allowed,
        disrupted_pods: old.disrupted_pods.clone(),
    }
}

/// The scale `getExpectedScale` finds for a workload's pods: a ReplicaSet's or StatefulSet's
/// replicas; none for a DaemonSet or a bare pod.
pub fn scale_of(spec: &WorkloadSpec) -> Option<i32> {
    match spec.kind {
        WorkloadKind::Deployment | WorkloadKind::StatefulSet => Some(spec.replicas as i32),
        WorkloadKind::DaemonSet | WorkloadKind::Pod => None,
    }
}

/// The controller's queue: which budgets wait for a sync.
#[derive(Debug, Clone, Default)]
pub struct DisruptionController {
    queued: Vec<bool>,
}

impl DisruptionController {
    /// A controller for `workloads` workloads, nothing queued.
    pub fn new(workloads: usize) -> Self {
        DisruptionController {
            queued: vec![false; workloads],
        }
    }

    /// A pod of workload `w` changed (`addPod`/`updatePod`/`deletePod` enqueue its budget);
    /// returns whether the budget was not queued yet.
    pub fn enqueue(&mut self, w: usize) -> bool {
        !std::mem::replace(&mut self.queued[w], true)
    }

    /// A new process forgets its queue.
    pub fn restart(&mut self) {
        self.queued.iter_mut().for_each(|q| *q = false);
    }

    /// `trySync` for workload `w`'s budget at `now`: recomputes and writes the status if it
    /// changed (one request of the `disruption-controller` client, when `count` is set).
    pub fn sync(&mut self, now: Millis, w: usize, spec: &WorkloadSpec, api: &mut Api, count: bool) {
        if let Some(q) = self.queued.get_mut(w) {
            *q = false;
        }
        let Some(pdb) = api.pdbs.get(w).and_then(Option::as_ref) else {
            return;
        };
        let pods = api.pods_by_workload.get(w).map_or(&[][..], Vec::as_slice);
        // `buildDisruptedPodMap`: entries of pods gone, being deleted, or too old are dropped.
        let mut old = pdb.status.clone();
        old.disrupted_pods.retain(|&(p, at)| {
            let pod = &api.pods[p];
            pod.exists() && pod.deletion_requested_at.is_none() && now < at + DELETION_TIMEOUT
        });
        let (mut matching, mut healthy) = (0, 0);
        for &p in pods {
            let pod = &api.pods[p];
            if !pod.exists() {
                continue;
            }
            matching += 1;
            let ready = pod.ready == Some(true) && !pod.failed && pod.deletion_requested_at.is_none();
            if ready && old.disrupted_pods.binary_search_by_key(&p, |&(q, _)| q).is_err() {
                healthy += 1;
            }
        }
        let status = compute_status(&pdb.spec, scale_of(spec), matching, healthy, &old);
        if status == pdb.status {
            return;
        }
        if count {
            api.clients.send(Controller::Disruption, now, 1);
        }
        api.pdbs[w].as_mut().expect("checked").status = status;
    }
}

//! PodDisruptionBudgets as the apiserver stores them, and the eviction subresource
//! (`POST …/pods/<pod>/eviction`, `pkg/registry/core/pod/storage/eviction.go`).
//!
//! The order of checks follows `EvictionREST.Create`: a pod that `canIgnorePDB` (Failed,
//! Succeeded, Pending, or already terminating) is deleted without a budget check; a pod that is
//! not Ready goes at once with `unhealthyPodEvictionPolicy: AlwaysAllow`, or with
//! `IfHealthyBudget` (the default) while the budget is intact; otherwise `checkAndDecrement`
//! refuses with 429 TooManyRequests when `disruptionsAllowed` is 0 (without Retry-After), or
//! decrements it, records the pod in `disruptedPods`, and deletes the pod.

use crate::time::Millis;

use super::{Api, PodId};

/// The message of the 429 (`errors.NewTooManyRequests(…, 0)`).
pub const EVICTION_REFUSED_MESSAGE: &str = "Cannot evict pod as it would violate the pod's disruption budget.";

/// An integer or a percentage, as PDB fields take.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum IntOrPercent {
    /// A number of pods.
    Int(u32),
    /// A percentage of the controller's scale.
    Percent(u32),
}

/// A PodDisruptionBudget's `spec`, as a workload's scenario sets it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct PdbSpec {
    /// `minAvailable`.
    pub min_available: Option<IntOrPercent>,
    /// `maxUnavailable`.
    pub max_unavailable: Option<IntOrPercent>,
    /// `unhealthyPodEvictionPolicy: AlwaysAllow` (else `IfHealthyBudget`).
    pub always_allow_unhealthy: bool,
}

/// A PodDisruptionBudget's `status`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PdbStatus {
    /// `expectedPods`.
    pub expected: i32,
    /// `desiredHealthy`.
    pub desired_healthy: i32,
    /// `currentHealthy`.
    pub current_healthy: i32,
    /// `disruptionsAllowed`.
    pub disruptions_allowed: i32,
    /// `disruptedPods`: pods evicted whose deletion the controller has not seen yet, with the
    /// eviction time, sorted by pod: a budget holds a few, and a list keeps the worker from
    /// carrying a B-tree of its own for them.
    pub disrupted_pods: Vec<(PodId, Millis)>,
}

/// A PodDisruptionBudget of one workload (named after it).
#[derive(Debug, Clone, PartialEq)]
pub struct Pdb {
    /// `metadata.name`.
    pub name: String,
    /// `spec`.
    pub spec: PdbSpec,
    /// `status`, as the disruption controller and evictions last wrote it.
    pub status: PdbStatus,
}

/// What the eviction subresource sees of a pod.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PodView {
    /// Phase Failed or Succeeded.
    pub terminal: bool,
    /// Phase Pending (the kubelet never reported it running).
    pub pending: bool,
    /// A `deletionTimestamp` is set.
    pub terminating: bool,
    /// Condition Ready is True.
    pub ready: bool,
}

/// Why an eviction deleted the pod.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Granted {
    /// `canIgnorePDB`: the pod is terminal, Pending or already terminating.
    IgnoresBudget,
    /// No PodDisruptionBudget selects the pod.
    NoBudget,
    /// The pod is not Ready and the policy is `AlwaysAllow`.
    UnhealthyAlwaysAllow,
    /// The pod is not Ready and the budget is intact (`IfHealthyBudget`).
    UnhealthyBudgetIntact,
    /// `checkAndDecrement`: `disruptionsAllowed` was this, and is one less now.
    Decremented(i32),
}

/// The eviction subresource's answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Eviction {
    /// 201: the pod is deleted (gracefully).
    Granted(Granted),
    /// 429 TooManyRequests: "The disruption budget <name> needs <desired> healthy pods and has
    /// <current> currently".
    TooManyRequests {
        /// `desiredHealthy`.
        desired: i32,
        /// `currentHealthy`.
        current: i32,
    },
}

/// The cause a 429 carries (`DisruptionBudget`).
pub fn refusal_cause(pdb: &str, desired: i32, current: i32) -> String {
    format!("The disruption budget {pdb} needs {desired} healthy pods and has {current} currently")
}

/// `EvictionREST.Create`'s decision, without side effects.
pub fn decide(pod: PodView, pdb: Option<(&PdbSpec, &PdbStatus)>) -> Eviction {
    if pod.terminal || pod.pending || pod.terminating {
        return Eviction::Granted(Granted::IgnoresBudget);
    }
    let Some((spec, status)) = pdb else {
        return Eviction::Granted(Granted::NoBudget);
    };
    if !pod.ready {
        if spec.always_allow_unhealthy {
            return Eviction::Granted(Granted::UnhealthyAlwaysAllow);
        }
        if status.current_healthy >= status.desired_healthy && status.desired_healthy > 0 {
            return Eviction::Granted(Granted::UnhealthyBudgetIntact);
        }
    }
    if status.disruptions_allowed <= 0 {
        return Eviction::TooManyRequests {
            desired: status.desired_healthy,
            current: status.current_healthy,
        };
    }
    Eviction::Granted(Granted::Decremented(status.disruptions_allowed))
}

impl Api {
    /// What the eviction subresource sees of pod `p`.
    pub fn pod_view(&self, p: PodId) -> PodView {
        let pod = &self.pods[p];
        PodView {
            terminal: pod.failed,
            pending: !pod.failed && pod.ready.is_none(),
            terminating: pod.deletion_requested_at.is_some(),
            ready: pod.ready == Some(true),
        }
    }

    /// The PodDisruptionBudget selecting pod `p`, if any.
    pub fn pdb_of(&self, p: PodId) -> Option<&Pdb> {
        self.pdbs.get(self.pods[p].workload).and_then(Option::as_ref)
    }

    /// `POST …/pods/<p>/eviction` at `now`: decides, then on success decrements the budget
    /// (`checkAndDecrement`) and deletes the pod gracefully. Returns the answer; the caller
    /// records the events.
    pub fn evict(&mut self, now: Millis, p: PodId) -> Eviction {
        let answer = decide(self.pod_view(p), self.pdb_of(p).map(|b| (&b.spec, &b.status)));
        if let Eviction::Granted(g) = answer {
            if let Granted::Decremented(_) = g {
                let w = self.pods[p].workload;
                let status = &mut self.pdbs[w].as_mut().expect("decided with a budget").status;
                status.disruptions_allowed -= 1;
                match status.disrupted_pods.binary_search_by_key(&p, |&(q, _)| q) {
                    Ok(i) => status.disrupted_pods[i].1 = now,
                    Err(i) => status.disrupted_pods.insert(i, (p, now)),
                }
            }
            self.request_pod_deletion(now, p);
        }
        answer
    }
}

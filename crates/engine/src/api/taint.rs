//! Taints, tolerations and how they match (`k8s.io/api/core/v1` helpers and
//! `pkg/util/tolerations`).

use crate::time::Millis;
use std::fmt;

/// A taint effect.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
pub enum Effect {
    /// `NoSchedule`.
    NoSchedule,
    /// `PreferNoSchedule`.
    PreferNoSchedule,
    /// `NoExecute`.
    NoExecute,
}

impl fmt::Display for Effect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Effect::NoSchedule => "NoSchedule",
            Effect::PreferNoSchedule => "PreferNoSchedule",
            Effect::NoExecute => "NoExecute",
        })
    }
}

/// `node.kubernetes.io/not-ready`.
pub const TAINT_NOT_READY: &str = "node.kubernetes.io/not-ready";
/// `node.kubernetes.io/unreachable`.
pub const TAINT_UNREACHABLE: &str = "node.kubernetes.io/unreachable";
/// `node.kubernetes.io/unschedulable`.
pub const TAINT_UNSCHEDULABLE: &str = "node.kubernetes.io/unschedulable";
/// `node.kubernetes.io/memory-pressure`.
pub const TAINT_MEMORY_PRESSURE: &str = "node.kubernetes.io/memory-pressure";
/// `node.kubernetes.io/disk-pressure`.
pub const TAINT_DISK_PRESSURE: &str = "node.kubernetes.io/disk-pressure";
/// `node.kubernetes.io/pid-pressure`.
pub const TAINT_PID_PRESSURE: &str = "node.kubernetes.io/pid-pressure";
/// `node.kubernetes.io/network-unavailable`.
pub const TAINT_NETWORK_UNAVAILABLE: &str = "node.kubernetes.io/network-unavailable";
/// The label that keeps a node out of zone disruption counting.
pub const LABEL_EXCLUDE_DISRUPTION: &str = "node.kubernetes.io/exclude-disruption";

/// A taint on a node.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Taint {
    /// Key.
    pub key: String,
    /// Value (the node lifecycle controller's taints have none).
    pub value: String,
    /// Effect.
    pub effect: Effect,
    /// `timeAdded`, ms; shown only, never read by taint eviction.
    pub time_added: Millis,
}

impl Taint {
    /// A value-less taint added at `now`.
    pub fn new(key: &str, effect: Effect, now: Millis) -> Taint {
        Taint {
            key: key.to_string(),
            value: String::new(),
            effect,
            time_added: now,
        }
    }

    /// `key:Effect`, as the timeline shows taints.
    pub fn label(&self) -> String {
        format!("{}:{}", self.key, self.effect)
    }
}

/// Whether `t` tolerates `taint` (the `ToleratesTaint` helper of `k8s.io/api/core/v1`).
pub fn tolerates(t: &Toleration, taint: &Taint) -> bool {
    if t.effect.is_some_and(|e| e != taint.effect) {
        return false;
    }
    if !t.key.is_empty() && t.key != taint.key {
        return false;
    }
    if t.exists {
        true
    } else {
        t.value == taint.value
    }
}

/// Index of the first toleration that tolerates each taint, or `None` if some taint is not
/// tolerated (`GetMatchingTolerations` in `pkg/util/tolerations`/`taint_eviction.go`).
pub fn matching_tolerations(taints: &[Taint], tolerations: &[Toleration]) -> Option<Vec<usize>> {
    taints
        .iter()
        .map(|taint| tolerations.iter().position(|t| tolerates(t, taint)))
        .collect()
}

/// How long the used tolerations allow a pod to stay (`getMinTolerationTime`): `Some(0)` when any
/// used toleration has no positive seconds or none was used, the minimum positive seconds
/// otherwise, and `None` (forever) when every used toleration has no seconds at all.
pub fn min_toleration_seconds(used: &[&Toleration]) -> Option<i64> {
    if used.is_empty() {
        return Some(0);
    }
    let mut min: Option<i64> = None;
    for t in used {
        if let Some(s) = t.toleration_seconds {
            if s <= 0 {
                return Some(0);
            }
            min = Some(min.map_or(s, |m| m.min(s)));
        }
    }
    min
}

/// A toleration in resolved form.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Toleration {
    /// Taint key; empty matches all keys (with `Exists`).
    pub key: String,
    /// `true` for `Exists`, `false` for `Equal`.
    pub exists: bool,
    /// Value for `Equal`.
    pub value: String,
    /// Effect, or `None` for all effects.
    pub effect: Option<Effect>,
    /// Seconds a NoExecute taint is tolerated; `None` means forever.
    pub toleration_seconds: Option<i64>,
    /// Who added it, for explanations.
    pub source: TolerationSource,
}

/// Who put a toleration on a pod.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum TolerationSource {
    /// The workload's pod template.
    Spec,
    /// kube-apiserver's DefaultTolerationSeconds admission plugin.
    DefaultTolerationSeconds,
    /// The DaemonSet controller.
    DaemonSet,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tol(key: &str, effect: Option<Effect>, secs: Option<i64>) -> Toleration {
        Toleration {
            key: key.into(),
            exists: true,
            value: String::new(),
            effect,
            toleration_seconds: secs,
            source: TolerationSource::Spec,
        }
    }

    #[test]
    fn min_toleration_time_matches_upstream_table() {
        // G68: TestGetMinTolerationTime.
        assert_eq!(min_toleration_seconds(&[]), Some(0));
        let forever = tol("a", Some(Effect::NoExecute), None);
        let one = tol("a", Some(Effect::NoExecute), Some(1));
        let two = tol("a", Some(Effect::NoExecute), Some(2));
        assert_eq!(min_toleration_seconds(&[&forever]), None);
        assert_eq!(min_toleration_seconds(&[&one, &two]), Some(1));
        assert_eq!(min_toleration_seconds(&[&one, &forever]), Some(1));
        assert_eq!(min_toleration_seconds(&[&forever, &one]), Some(1));
        let zero = tol("a", Some(Effect::NoExecute), Some(0));
        assert_eq!(min_toleration_seconds(&[&two, &zero]), Some(0));
    }
}

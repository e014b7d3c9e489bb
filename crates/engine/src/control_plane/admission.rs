//! Admission-time tolerations.
//!
//! The `DefaultTolerationSeconds` plugin of kube-apiserver
//! (`plugin/pkg/admission/defaulttolerationseconds/admission.go`) and the tolerations the
//! DaemonSet controller adds to its pods (`util.AddOrUpdateDaemonPodTolerations`).

use crate::api::{
    Effect, TAINT_DISK_PRESSURE, TAINT_MEMORY_PRESSURE, TAINT_NOT_READY, TAINT_PID_PRESSURE, TAINT_UNREACHABLE,
    TAINT_UNSCHEDULABLE,
};
use crate::api::{Toleration, TolerationSource};
use crate::scenario::ApiServerConfig;

/// Whether some toleration covers `key` for NoExecute in the plugin's sense: the key matches or is
/// empty, and the effect is NoExecute or empty. Operator, value and seconds are not examined.
fn covers(tolerations: &[Toleration], key: &str) -> bool {
    tolerations
        .iter()
        .any(|t| (t.key == key || t.key.is_empty()) && (t.effect.is_none() || t.effect == Some(Effect::NoExecute)))
}

/// Appends the default `not-ready` and `unreachable` NoExecute tolerations unless already covered.
pub fn default_toleration_seconds(tolerations: &mut Vec<Toleration>, cfg: &ApiServerConfig) {
    for (key, seconds) in [
        (TAINT_NOT_READY, cfg.default_not_ready_toleration_seconds),
        (TAINT_UNREACHABLE, cfg.default_unreachable_toleration_seconds),
    ] {
        if !covers(tolerations, key) {
            tolerations.push(Toleration {
                key: key.to_string(),
                exists: true,
                value: String::new(),
                effect: Some(Effect::NoExecute),
                toleration_seconds: Some(seconds),
                source: TolerationSource::DefaultTolerationSeconds,
            });
        }
    }
}

/// Adds the DaemonSet controller's tolerations: NoExecute for not-ready and unreachable without
/// seconds (so DaemonSet pods are never evicted), NoSchedule for pressure and unschedulable.
pub fn daemonset_tolerations(tolerations: &mut Vec<Toleration>) {
    let wanted = [
        (TAINT_NOT_READY, Effect::NoExecute),
        (TAINT_UNREACHABLE, Effect::NoExecute),
        (TAINT_DISK_PRESSURE, Effect::NoSchedule),
        (TAINT_MEMORY_PRESSURE, Effect::NoSchedule),
        (TAINT_PID_PRESSURE, Effect::NoSchedule),
        (TAINT_UNSCHEDULABLE, Effect::NoSchedule),
    ];
    for (key, effect) in wanted {
        let present = tolerations
            .iter()
            .any(|t| t.key == key && t.effect == Some(effect) && t.exists);
        if !present {
            tolerations.push(Toleration {
                key: key.to_string(),
                exists: true,
                value: String::new(),
                effect: Some(effect),
                toleration_seconds: None,
                source: TolerationSource::DaemonSet,
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cfg() -> ApiServerConfig {
        ApiServerConfig {
            default_not_ready_toleration_seconds: 300,
            default_unreachable_toleration_seconds: 120,
        }
    }

    #[test]
    fn adds_both_defaults_to_a_plain_pod() {
        let mut t = Vec::new();
        default_toleration_seconds(&mut t, &cfg());
        assert_eq!(t.len(), 2);
        assert_eq!(
            (t[0].key.as_str(), t[0].toleration_seconds),
            (TAINT_NOT_READY, Some(300))
        );
        assert_eq!(
            (t[1].key.as_str(), t[1].toleration_seconds),
            (TAINT_UNREACHABLE, Some(120))
        );
    }

    #[test]
    fn coverage_ignores_operator_and_seconds() {
        let user = Toleration {
            key: TAINT_UNREACHABLE.into(),
            exists: true,
            value: String::new(),
            effect: Some(Effect::NoExecute),
            toleration_seconds: Some(60),
            source: TolerationSource::Spec,
        };
        let mut t = vec![user];
        default_toleration_seconds(&mut t, &cfg());
        assert_eq!(t.len(), 2, "only not-ready is added");
        assert_eq!(t[1].key, TAINT_NOT_READY);
        // A blanket Exists toleration covers both.
        let mut blanket = vec![Toleration {
            key: String::new(),
            exists: true,
            value: String::new(),
            effect: None,
            toleration_seconds: None,
            source: TolerationSource::Spec,
        }];
        default_toleration_seconds(&mut blanket, &cfg());
        assert_eq!(blanket.len(), 1);
        // A NoSchedule toleration of the key does not cover NoExecute.
        let mut ns = vec![Toleration {
            key: TAINT_UNREACHABLE.into(),
            exists: true,
            value: String::new(),
            effect: Some(Effect::NoSchedule),
            toleration_seconds: None,
            source: TolerationSource::Spec,
        }];
        default_toleration_seconds(&mut ns, &cfg());
        assert_eq!(ns.len(), 3);
    }

    #[test]
    fn daemonset_pods_get_permanent_tolerations_and_no_defaults() {
        let mut t = Vec::new();
        daemonset_tolerations(&mut t);
        default_toleration_seconds(&mut t, &cfg());
        assert!(t.iter().all(|t| t.toleration_seconds.is_none()));
        assert_eq!(t.len(), 6);
    }
}

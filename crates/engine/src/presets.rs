//! Named scenarios: version defaults, kubespray's three reaction profiles (its
//! `docs/kubernetes-reliability.md`), rke's examples and a fast-failover
//! profile. Each runs the same cluster (three zones, a Deployment, a StatefulSet and a DaemonSet)
//! with one node crashing at 30 s, so that presets compare like for like.

use crate::scenario::{
    ActionKind, ActionSection, ApiServerSection, ControllerManagerSection, GoDuration, KubeletSection, NodeSection,
    Scenario, WorkloadKind, WorkloadSection,
};
use crate::time::SECOND;
use crate::version::NEWEST_MINOR;
use std::collections::BTreeMap;

/// A named scenario with a one-line description of what it shows.
#[derive(Debug, Clone, PartialEq)]
pub struct Preset {
    /// Name, as `kubelife preset NAME` takes it.
    pub name: &'static str,
    /// What it shows.
    pub description: &'static str,
    /// The scenario.
    pub scenario: Scenario,
}

fn secs(s: i64) -> Option<GoDuration> {
    Some(GoDuration(s * SECOND))
}

/// The cluster every preset runs: three nodes in three zones, web (3), db (1), agent (DaemonSet),
/// and node-1 crashing at 30 s.
pub fn default_cluster(version: &str) -> Scenario {
    let nodes = ["zone-a", "zone-b", "zone-c"]
        .iter()
        .enumerate()
        .map(|(i, z)| NodeSection {
            name: format!("node-{}", i + 1),
            zone: Some(z.to_string()),
            labels: BTreeMap::new(),
            max_pods: None,
        })
        .collect();
    let workload = |kind, name: &str, replicas| WorkloadSection {
        replicas,
        ..WorkloadSection::new(kind, name)
    };
    Scenario {
        version: Some(version.to_string()),
        seed: Some(1),
        duration_seconds: Some(900),
        nodes,
        workloads: vec![
            workload(WorkloadKind::Deployment, "web", Some(3)),
            workload(WorkloadKind::StatefulSet, "db", Some(1)),
            workload(WorkloadKind::DaemonSet, "agent", None),
        ],
        events: vec![ActionSection {
            node: Some("node-1".into()),
            ..ActionSection::new(30 * SECOND, ActionKind::NodeCrash)
        }],
        ..Scenario::default()
    }
}

fn kcm(period: i64, grace: i64) -> ControllerManagerSection {
    ControllerManagerSection {
        node_monitor_period: secs(period),
        node_monitor_grace_period: secs(grace),
        ..Default::default()
    }
}

fn tolerations(not_ready: i64, unreachable: i64) -> ApiServerSection {
    ApiServerSection {
        default_not_ready_toleration_seconds: Some(not_ready),
        default_unreachable_toleration_seconds: Some(unreachable),
    }
}

/// Every preset, in the order `kubelife presets` lists them.
pub fn presets() -> Vec<Preset> {
    let newest = format!("1.{NEWEST_MINOR}");
    let with = |version: &str, f: &dyn Fn(&mut Scenario)| {
        let mut s = default_cluster(version);
        f(&mut s);
        s
    };
    let legacy_timeout = |update: i64, period: i64, grace: i64, timeout: i64| {
        move |s: &mut Scenario| {
            s.kubelet = KubeletSection {
                node_status_update_frequency: secs(update),
                ..Default::default()
            };
            s.controller_manager = ControllerManagerSection {
                pod_eviction_timeout: secs(timeout),
                ..kcm(period, grace)
            };
        }
    };
    vec![
        Preset { name: "upstream-1.12", description: "1.12 defaults: no Lease, legacy eviction 5m after the last heartbeat seen, no NoExecute taint", scenario: default_cluster("1.12") },
        Preset { name: "upstream-1.17", description: "1.17 defaults: Leases every 10s, 40s grace, taint-based eviction after 300s tolerations", scenario: default_cluster("1.17") },
        Preset { name: "upstream-1.31", description: "1.31 defaults: the classic 5m40s from crash to replacement", scenario: default_cluster("1.31") },
        Preset { name: "upstream-newest", description: "newest defaults: 50s grace since 1.32, so about 5m50s to replacement", scenario: default_cluster(&newest) },
        Preset {
            name: "kubespray-fast",
            description: "kubespray's fast update and fast reaction (4s updates, 2s period, 20s grace, 30s pod-eviction-timeout) on 1.12: pods go about 30s after the last heartbeat, not 50s",
            scenario: with("1.12", &legacy_timeout(4, 2, 20, 30)),
        },
        Preset {
            name: "kubespray-fast-1.26",
            description: "kubespray's fast reaction on 1.26: --pod-eviction-timeout is accepted but ignored, so pods still wait 300s after the taint",
            scenario: with("1.26", &legacy_timeout(4, 2, 20, 30)),
        },
        Preset {
            name: "kubespray-medium",
            description: "kubespray's medium update and average reaction (20s updates, 2m grace, 1m pod-eviction-timeout) on 1.12: eviction one pass after Unknown, about 2m",
            scenario: with("1.12", &legacy_timeout(20, 5, 120, 60)),
        },
        Preset {
            name: "kubespray-low",
            description: "kubespray's low update and slow reaction (1m updates, 5m grace, 1m pod-eviction-timeout) on 1.12: eviction about 5m after the crash",
            scenario: with("1.12", &legacy_timeout(60, 5, 300, 60)),
        },
        Preset {
            name: "rke-1.12-legacy",
            description: "rke example for clusters before 1.13: only kube-controller flags matter (5s, 40s, 1m0s, 5m0s)",
            scenario: with("1.12", &|s| s.controller_manager = ControllerManagerSection { node_startup_grace_period: secs(60), pod_eviction_timeout: secs(300), ..kcm(5, 40) }),
        },
        Preset {
            name: "rke-1.17-taint-based-off",
            description: "rke example for 1.13–1.17 with TaintBasedEvictions=false: back to the legacy 5m0s pod-eviction-timeout",
            scenario: with("1.17", &|s| {
                s.controller_manager = ControllerManagerSection { node_startup_grace_period: secs(60), pod_eviction_timeout: secs(300), ..kcm(5, 40) };
                s.feature_gates.insert("TaintBasedEvictions".into(), false);
            }),
        },
        Preset {
            name: "rke-1.17-tolerations",
            description: "rke example for 1.13–1.17 keeping taint-based eviction: apiserver default tolerations 60s (not-ready) and 30s (unreachable)",
            scenario: with("1.17", &|s| {
                s.api_server = tolerations(60, 30);
                s.controller_manager = kcm(5, 40);
            }),
        },
        Preset {
            name: "rke-1.18-tolerations",
            description: "rke example for 1.18 and later (TaintBasedEvictions locked on): 30s grace, 60s/30s default tolerations",
            scenario: with("1.18", &|s| {
                s.api_server = tolerations(60, 30);
                s.controller_manager = kcm(5, 30);
            }),
        },
        Preset {
            name: "metalk8s-fast-failover",
            description: "a MetalK8s-style fast failover on the newest version: 5s monitor period, 30s grace, 60s/60s default tolerations",
            scenario: with(&newest, &|s| {
                s.api_server = tolerations(60, 60);
                s.controller_manager = kcm(5, 30);
            }),
        },
    ]
}

/// The preset with this name.
pub fn preset(name: &str) -> Option<Preset> {
    presets().into_iter().find(|p| p.name == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_preset_is_valid_and_round_trips() {
        for p in presets() {
            let cfg = p.scenario.resolve().unwrap_or_else(|e| panic!("{}: {e}", p.name));
            assert!(!p.description.is_empty());
            assert_eq!(
                Scenario::from_json(&p.scenario.to_json()).unwrap(),
                p.scenario,
                "{}",
                p.name
            );
            if p.name == "kubespray-fast-1.26" {
                assert!(cfg
                    .warnings
                    .iter()
                    .any(|w| w.english().contains("--pod-eviction-timeout has no effect")));
            }
        }
        assert!(preset("upstream-newest").is_some() && preset("nope").is_none());
    }
}

//! Random scenarios for property tests: every version, every action, workloads behind Services,
//! with volumes, budgets and tolerations. Shared by the engine's tests and the figures' (each
//! includes this file).

use kubelife_engine::scenario::{
    ActionKind, ActionSection, CloudSection, ControllerManagerSection, GoDuration, IntOrString, KubeProxySection,
    KubeletSection, NodeSection, PdbSection, Provider, TolerationSection, VolumeSection, WorkloadKind, WorkloadSection,
};
use kubelife_engine::Scenario;
use proptest::prelude::*;
use std::collections::BTreeMap;

/// A random NoExecute toleration.
pub fn toleration() -> impl Strategy<Value = TolerationSection> {
    (
        prop_oneof![
            Just("node.kubernetes.io/unreachable"),
            Just("node.kubernetes.io/not-ready"),
            Just("")
        ],
        proptest::option::of(0i64..400),
    )
        .prop_map(|(key, secs)| TolerationSection {
            key: key.to_string(),
            operator: Some("Exists".into()),
            value: String::new(),
            effect: "NoExecute".into(),
            toleration_seconds: secs,
        })
}

/// A random workload named `w{i}`.
pub fn workload(i: usize) -> BoxedStrategy<WorkloadSection> {
    (
        prop_oneof![
            Just(WorkloadKind::Deployment),
            Just(WorkloadKind::StatefulSet),
            Just(WorkloadKind::DaemonSet),
            Just(WorkloadKind::Pod)
        ],
        0u32..6,
        proptest::collection::vec(toleration(), 0..2),
        0i64..60,
        proptest::option::of(0i64..4),
        any::<bool>(),
        (any::<bool>(), proptest::option::of((any::<bool>(), any::<bool>()))),
    )
        .prop_map(
            move |(kind, replicas, tolerations, grace, pdb, critical, (service, volume))| WorkloadSection {
                kind,
                name: format!("w{i}"),
                replicas: matches!(kind, WorkloadKind::Deployment | WorkloadKind::StatefulSet).then_some(replicas),
                termination_grace_period_seconds: Some(grace),
                tolerations,
                pdb: pdb.map(|n| PdbSection {
                    min_available: Some(IntOrString::Int(n)),
                    ..Default::default()
                }),
                priority_class_name: critical.then(|| "system-cluster-critical".to_string()),
                service: service.then_some(kubelife_engine::scenario::ServiceField::Enabled(true)),
                // A DaemonSet has no volume here; only a StatefulSet claims one per pod.
                volume: volume
                    .filter(|_| kind != WorkloadKind::DaemonSet)
                    .map(|(many, per_pod)| VolumeSection {
                        access_mode: Some(if many { "ReadWriteMany" } else { "ReadWriteOnce" }.to_string()),
                        per_pod: Some(per_pod && kind == WorkloadKind::StatefulSet),
                    }),
            },
        )
        .boxed()
}

/// A random action within `duration` seconds on one of `nodes` nodes.
pub fn action(duration: i64, nodes: usize) -> impl Strategy<Value = ActionSection> {
    let kinds = [
        ActionKind::NodeCrash,
        ActionKind::KubeletStop,
        ActionKind::NetworkPartition,
        ActionKind::NodeRecover,
        ActionKind::ControllerManagerRestart,
        ActionKind::OutOfServiceTaint,
        ActionKind::DeleteNode,
        ActionKind::ForceDeletePod,
        ActionKind::Drain,
        ActionKind::ApiServerLatency,
        ActionKind::PatchTolerations,
        ActionKind::NodeShutdown,
        ActionKind::InstanceTerminated,
        ActionKind::InstanceStopped,
        ActionKind::SpotInterruption,
    ];
    (
        0..duration * 1000,
        0..kinds.len(),
        0..nodes,
        0u32..3,
        0i64..3000,
        any::<bool>(),
        0i64..30,
    )
        .prop_map(move |(at, k, n, ordinal, latency, no_execute, down)| {
            let action = kinds[k];
            ActionSection {
                at: GoDuration(at),
                action,
                node: action.needs_node().then(|| format!("n{n}")),
                pod: (action == ActionKind::ForceDeletePod).then(|| format!("w{}-{ordinal}", ordinal % 3)),
                latency_ms: (action == ActionKind::ApiServerLatency).then_some(latency),
                effect: (action == ActionKind::OutOfServiceTaint)
                    .then(|| if no_execute { "NoExecute" } else { "NoSchedule" }.to_string()),
                duration: (action == ActionKind::ControllerManagerRestart).then_some(GoDuration(down * 1000)),
                workload: (action == ActionKind::PatchTolerations).then(|| "w0".to_string()),
                toleration_seconds: (action == ActionKind::PatchTolerations).then_some(latency),
                notice: (action == ActionKind::SpotInterruption).then_some(GoDuration(down * 1000)),
            }
        })
}

prop_compose! {
    /// A random scenario.
    pub fn scenario()(
        minor in 12u32..=37,
        seed in any::<u64>(),
        duration in 60i64..900,
        zones in proptest::collection::vec(prop_oneof![Just(""), Just("a"), Just("b")], 1..8),
        update in 1i64..30,
        report in proptest::option::of(1i64..400),
        lease in 4i64..60,
        period in 1i64..10,
        grace in 2i64..120,
        rate in prop_oneof![Just(0.0), Just(0.1), Just(1.0)],
        timeout in proptest::option::of(0i64..400),
        taint_manager in proptest::option::of(any::<bool>()),
        tbe in proptest::option::of(any::<bool>()),
        join in proptest::option::of(0i64..900_000),
        w0 in workload(0), w1 in workload(1), w2 in workload(2),
        n_workloads in 0usize..=3,
        seeds in proptest::collection::vec(any::<u64>(), 0..6),
        shutdown in proptest::option::of((0i64..40, 0i64..40)),
        extras in (proptest::option::of((any::<bool>(), 0i64..3000)), any::<bool>()),
    )(
        events in seeds.iter().map(|_| action(duration, zones.len())).collect::<Vec<_>>(),
        minor in Just(minor), seed in Just(seed), duration in Just(duration), zones in Just(zones.clone()), update in Just(update),
        report in Just(report), lease in Just(lease), period in Just(period), grace in Just(grace), rate in Just(rate),
        timeout in Just(timeout), taint_manager in Just(taint_manager), tbe in Just(tbe), join in Just(join),
        shutdown in Just(shutdown), extras in Just(extras),
        workloads in Just(vec![w0, w1, w2].into_iter().take(n_workloads).collect::<Vec<_>>()),
    ) -> Scenario {
        let mut nodes: Vec<NodeSection> = zones.iter().enumerate().map(|(i, z)| NodeSection { name: format!("n{i}"), zone: Some(z.to_string()), labels: BTreeMap::new(), max_pods: Some(4) }).collect();
        // ForceDeletePod and PatchTolerations may only name generated workloads.
        let mut events: Vec<ActionSection> = events
            .into_iter()
            .filter(|e| e.pod.as_ref().is_none_or(|p| workloads.iter().any(|w| p.starts_with(&w.name))))
            .filter(|e| e.workload.as_ref().is_none_or(|n| workloads.iter().any(|w| &w.name == n)))
            .collect();
        if let Some(at) = join {
            nodes.push(NodeSection { name: "late".into(), zone: Some("a".into()), labels: BTreeMap::new(), max_pods: Some(4) });
            events.push(ActionSection { node: Some("late".into()), ..ActionSection::new(at.min(duration * 1000), ActionKind::NodeJoin) });
        }
        let mut feature_gates = BTreeMap::new();
        if let (Some(v), 13..=17) = (tbe, minor) {
            feature_gates.insert("TaintBasedEvictions".to_string(), v);
        }
        let legacy_flags = minor <= 26;
        let (proxy, no_force_detach) = extras;
        Scenario {
            version: Some(format!("1.{minor}")),
            seed: Some(seed),
            duration_seconds: Some(duration),
            kubelet: KubeletSection {
                node_status_update_frequency: Some(GoDuration(update * 1000)),
                node_status_report_frequency: report.filter(|_| minor >= 13).map(|r| GoDuration(r * 1000)),
                node_lease_duration_seconds: Some(lease),
                shutdown_grace_period: shutdown.filter(|_| minor >= 20).map(|(a, b)| GoDuration(a.max(b) * 1000)),
                shutdown_grace_period_critical_pods: shutdown.filter(|_| minor >= 20).map(|(a, b)| GoDuration(a.min(b) * 1000)),
            },
            controller_manager: ControllerManagerSection {
                node_monitor_period: Some(GoDuration(period * 1000)),
                node_monitor_grace_period: Some(GoDuration(grace * 1000)),
                node_eviction_rate: Some(rate),
                pod_eviction_timeout: timeout.filter(|_| legacy_flags).map(|t| GoDuration(t * 1000)),
                enable_taint_manager: taint_manager.filter(|_| legacy_flags),
                disable_force_detach_on_timeout: (no_force_detach && minor >= 30).then_some(true),
                ..Default::default()
            },
            kube_proxy: proxy.map_or_else(KubeProxySection::default, |(ipvs, min)| KubeProxySection {
                mode: Some(if ipvs { "ipvs" } else { "iptables" }.to_string()),
                min_sync_period: Some(GoDuration(min)),
                sync_period: None,
            }),
            feature_gates,
            nodes,
            workloads,
            events,
            // A quarter of the scenarios on no cloud, the rest on each provider.
            cloud: [None, Some(Provider::Aws), Some(Provider::Gcp), Some(Provider::Azure)][(seed % 4) as usize].map(|provider| CloudSection {
                provider,
                node_monitor_period: Some(GoDuration(period * 1000)),
                instance_termination_duration: None,
                instance_stop_duration: None,
                instance_deletion_duration: None,
                node_boot_duration: None,
                api_call_duration: None,
                vm_cache_ttl: (provider == Provider::Azure).then_some(GoDuration(grace * 1000)),
                // On AWS: no managed node group, an On-Demand one or a Spot one.
                managed_node_group: (provider == Provider::Aws)
                    .then(|| ["none", "ON_DEMAND", "SPOT"][(seed / 4 % 3) as usize].to_string()),
            }),
            ..Default::default()
        }
    }
}

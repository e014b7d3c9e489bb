//! Every tunable of the playground: its upstream flag, its configuration field, what it does,
//! its unit and range, and which versions have it.
//!
//! A knob's value lives in [`crate::settings::Settings::overrides`] only when the user changed it;
//! otherwise the version's default (as the engine resolves it) is shown.

use crate::i18n::{tr, tr_built, trf, Lang};
use kubelife_engine::scenario::{Config, GoDuration, Scenario};
use kubelife_engine::time::SECOND;

/// Which component a knob belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Group {
    /// KubeletConfiguration.
    Kubelet,
    /// kube-controller-manager.
    ControllerManager,
    /// kube-apiserver.
    ApiServer,
    /// kube-proxy.
    KubeProxy,
    /// The workloads.
    Workloads,
    /// Cluster shape.
    Cluster,
}

impl Group {
    /// Heading shown above the group; component names stay as upstream spells them.
    pub fn title(self, lang: Lang) -> &'static str {
        match self {
            Group::Kubelet => "kubelet",
            Group::ControllerManager => "kube-controller-manager",
            Group::ApiServer => "kube-apiserver",
            Group::KubeProxy => "kube-proxy",
            Group::Workloads => tr(lang, "ui.group.workloads"),
            Group::Cluster => tr(lang, "ui.group.cluster"),
        }
    }

    /// The group's name in page anchors (`group-kubelet`), one word.
    pub fn slug(self) -> &'static str {
        match self {
            Group::Kubelet => "kubelet",
            Group::ControllerManager => "controllermanager",
            Group::ApiServer => "apiserver",
            Group::KubeProxy => "kubeproxy",
            Group::Workloads => "workloads",
            Group::Cluster => "cluster",
        }
    }

    /// Every group, in display order.
    pub const ALL: [Group; 6] = [
        Group::Kubelet,
        Group::ControllerManager,
        Group::ApiServer,
        Group::KubeProxy,
        Group::Workloads,
        Group::Cluster,
    ];
}

/// How a knob's number reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unit {
    /// Seconds, shown as a Go duration.
    Seconds,
    /// A plain count.
    Count,
    /// Nodes per second.
    Rate,
    /// A fraction between 0 and 1.
    Fraction,
}

/// One tunable.
#[derive(Debug, Clone, Copy)]
pub struct Knob {
    /// Flag name without dashes; the slider's accessible name contains it.
    pub flag: &'static str,
    /// Where it lives in configuration (`KubeletConfiguration.nodeStatusUpdateFrequency`).
    pub field: &'static str,
    /// Its group.
    pub group: Group,
    /// Its unit.
    pub unit: Unit,
    /// Smallest value.
    pub min: f64,
    /// Largest value.
    pub max: f64,
    /// Step.
    pub step: f64,
    /// Oldest and newest minor version that have it.
    pub versions: (u32, u32),
    /// The resolved value in this knob's unit.
    pub read: fn(&Config) -> f64,
    /// Writes a value into the scenario.
    pub write: fn(&mut Scenario, f64),
}

fn dur(v: f64) -> Option<GoDuration> {
    Some(GoDuration((v * SECOND as f64).round() as i64))
}

fn secs(ms: i64) -> f64 {
    ms as f64 / SECOND as f64
}

impl Knob {
    /// One line on what it does, in `lang` (catalogue key `knob.<flag>.help`).
    pub fn help(&self, lang: Lang) -> &'static str {
        tr_built(lang, &format!("knob.{}.help", self.flag))
    }

    /// Why an unavailable version lacks it, in `lang` (catalogue key `knob.<flag>.missing`).
    pub fn missing(&self, lang: Lang) -> &'static str {
        tr_built(lang, &format!("knob.{}.missing", self.flag))
    }

    /// Whether the version has this knob.
    pub fn available(&self, minor: u32) -> bool {
        (self.versions.0..=self.versions.1).contains(&minor)
    }

    /// Why version 1.`minor` has no such control, in `lang`; `None` when it has.
    pub fn unavailable(&self, lang: Lang, minor: u32) -> Option<String> {
        (!self.available(minor)).then(|| not_in(lang, minor, self.missing(lang)))
    }
}

/// "Not in 1.N: why", for a control version 1.`minor` lacks.
pub fn not_in(lang: Lang, minor: u32, why: &str) -> String {
    trf(lang, "ui.not_in", &[("minor", &minor), ("why", &why)])
}

/// The knobs, in display order.
pub const KNOBS: &[Knob] = &[
    Knob {
        flag: "node-status-update-frequency",
        field: "KubeletConfiguration.nodeStatusUpdateFrequency",
        group: Group::Kubelet,
        unit: Unit::Seconds,
        min: 1.0,
        max: 120.0,
        step: 1.0,
        versions: (12, 99),
        read: |c| secs(c.kubelet.node_status_update_frequency),
        write: |s, v| s.kubelet.node_status_update_frequency = dur(v),
    },
    Knob {
        flag: "node-status-report-frequency",
        field: "KubeletConfiguration.nodeStatusReportFrequency",
        group: Group::Kubelet,
        unit: Unit::Seconds,
        min: 1.0,
        max: 900.0,
        step: 1.0,
        versions: (13, 99),
        read: |c| secs(c.kubelet.node_status_report_frequency),
        write: |s, v| s.kubelet.node_status_report_frequency = dur(v),
    },
    Knob {
        flag: "node-lease-duration-seconds",
        field: "KubeletConfiguration.nodeLeaseDurationSeconds",
        group: Group::Kubelet,
        unit: Unit::Count,
        min: 4.0,
        max: 300.0,
        step: 1.0,
        versions: (12, 99),
        read: |c| c.kubelet.node_lease_duration_seconds as f64,
        write: |s, v| s.kubelet.node_lease_duration_seconds = Some(v.round() as i64),
    },
    Knob {
        flag: "shutdown-grace-period",
        field: "KubeletConfiguration.shutdownGracePeriod",
        group: Group::Kubelet,
        unit: Unit::Seconds,
        min: 0.0,
        max: 600.0,
        step: 5.0,
        versions: (21, 99),
        read: |c| secs(c.kubelet.shutdown_grace_period),
        write: |s, v| s.kubelet.shutdown_grace_period = dur(v),
    },
    Knob {
        flag: "shutdown-grace-period-critical-pods",
        field: "KubeletConfiguration.shutdownGracePeriodCriticalPods",
        group: Group::Kubelet,
        unit: Unit::Seconds,
        min: 0.0,
        max: 600.0,
        step: 5.0,
        versions: (21, 99),
        read: |c| secs(c.kubelet.shutdown_grace_period_critical_pods),
        write: |s, v| s.kubelet.shutdown_grace_period_critical_pods = dur(v),
    },
    Knob {
        flag: "node-monitor-period",
        field: "--node-monitor-period",
        group: Group::ControllerManager,
        unit: Unit::Seconds,
        min: 1.0,
        max: 60.0,
        step: 1.0,
        versions: (12, 99),
        read: |c| secs(c.controller_manager.node_monitor_period),
        write: |s, v| s.controller_manager.node_monitor_period = dur(v),
    },
    Knob {
        flag: "node-monitor-grace-period",
        field: "--node-monitor-grace-period",
        group: Group::ControllerManager,
        unit: Unit::Seconds,
        min: 2.0,
        max: 600.0,
        step: 1.0,
        versions: (12, 99),
        read: |c| secs(c.controller_manager.node_monitor_grace_period),
        write: |s, v| s.controller_manager.node_monitor_grace_period = dur(v),
    },
    Knob {
        flag: "node-startup-grace-period",
        field: "--node-startup-grace-period",
        group: Group::ControllerManager,
        unit: Unit::Seconds,
        min: 10.0,
        max: 600.0,
        step: 1.0,
        versions: (12, 99),
        read: |c| secs(c.controller_manager.node_startup_grace_period),
        write: |s, v| s.controller_manager.node_startup_grace_period = dur(v),
    },
    Knob {
        flag: "node-eviction-rate",
        field: "--node-eviction-rate",
        group: Group::ControllerManager,
        unit: Unit::Rate,
        min: 0.0,
        max: 1.0,
        step: 0.01,
        versions: (12, 99),
        read: |c| c.controller_manager.node_eviction_rate,
        write: |s, v| s.controller_manager.node_eviction_rate = Some(v),
    },
    Knob {
        flag: "secondary-node-eviction-rate",
        field: "--secondary-node-eviction-rate",
        group: Group::ControllerManager,
        unit: Unit::Rate,
        min: 0.0,
        max: 1.0,
        step: 0.01,
        versions: (12, 99),
        read: |c| c.controller_manager.secondary_node_eviction_rate,
        write: |s, v| s.controller_manager.secondary_node_eviction_rate = Some(v),
    },
    Knob {
        flag: "large-cluster-size-threshold",
        field: "--large-cluster-size-threshold",
        group: Group::ControllerManager,
        unit: Unit::Count,
        min: 0.0,
        max: 200.0,
        step: 1.0,
        versions: (12, 99),
        read: |c| f64::from(c.controller_manager.large_cluster_size_threshold),
        write: |s, v| s.controller_manager.large_cluster_size_threshold = Some(v.round() as u32),
    },
    Knob {
        flag: "unhealthy-zone-threshold",
        field: "--unhealthy-zone-threshold",
        group: Group::ControllerManager,
        unit: Unit::Fraction,
        min: 0.05,
        max: 1.0,
        step: 0.05,
        versions: (12, 99),
        read: |c| c.controller_manager.unhealthy_zone_threshold,
        write: |s, v| s.controller_manager.unhealthy_zone_threshold = Some(v),
    },
    Knob {
        flag: "pod-eviction-timeout",
        field: "--pod-eviction-timeout",
        group: Group::ControllerManager,
        unit: Unit::Seconds,
        min: 0.0,
        max: 900.0,
        step: 1.0,
        versions: (12, 26),
        read: |c| secs(c.controller_manager.pod_eviction_timeout),
        write: |s, v| s.controller_manager.pod_eviction_timeout = dur(v),
    },
    Knob {
        flag: "default-not-ready-toleration-seconds",
        field: "--default-not-ready-toleration-seconds",
        group: Group::ApiServer,
        unit: Unit::Seconds,
        min: 0.0,
        max: 900.0,
        step: 1.0,
        versions: (12, 99),
        read: |c| c.api_server.default_not_ready_toleration_seconds as f64,
        write: |s, v| s.api_server.default_not_ready_toleration_seconds = Some(v.round() as i64),
    },
    Knob {
        flag: "default-unreachable-toleration-seconds",
        field: "--default-unreachable-toleration-seconds",
        group: Group::ApiServer,
        unit: Unit::Seconds,
        min: 0.0,
        max: 900.0,
        step: 1.0,
        versions: (12, 99),
        read: |c| c.api_server.default_unreachable_toleration_seconds as f64,
        write: |s, v| s.api_server.default_unreachable_toleration_seconds = Some(v.round() as i64),
    },
    Knob {
        flag: "kube-api-qps",
        field: "--kube-api-qps",
        group: Group::ControllerManager,
        unit: Unit::Count,
        min: 1.0,
        max: 500.0,
        step: 1.0,
        versions: (12, 99),
        read: |c| c.controller_manager.kube_api_qps,
        write: |s, v| s.controller_manager.kube_api_qps = Some(v.round()),
    },
    Knob {
        flag: "kube-api-burst",
        field: "--kube-api-burst",
        group: Group::ControllerManager,
        unit: Unit::Count,
        min: 1.0,
        max: 1000.0,
        step: 1.0,
        versions: (12, 99),
        read: |c| f64::from(c.controller_manager.kube_api_burst),
        write: |s, v| s.controller_manager.kube_api_burst = Some(v.round() as u32),
    },
    Knob {
        flag: "iptables-min-sync-period",
        field: "KubeProxyConfiguration.iptables.minSyncPeriod",
        group: Group::KubeProxy,
        unit: Unit::Seconds,
        min: 0.0,
        max: 60.0,
        step: 1.0,
        versions: (12, 99),
        read: |c| secs(c.kube_proxy.min_sync_period),
        write: |s, v| s.kube_proxy.min_sync_period = dur(v),
    },
    Knob {
        flag: "iptables-sync-period",
        field: "KubeProxyConfiguration.iptables.syncPeriod",
        group: Group::KubeProxy,
        unit: Unit::Seconds,
        min: 1.0,
        max: 600.0,
        step: 1.0,
        versions: (12, 99),
        read: |c| secs(c.kube_proxy.sync_period),
        write: |s, v| s.kube_proxy.sync_period = dur(v),
    },
    Knob {
        flag: "pod-startup",
        field: "simulation.podStartup",
        group: Group::Workloads,
        unit: Unit::Seconds,
        min: 0.0,
        max: 120.0,
        step: 1.0,
        versions: (12, 99),
        read: |c| secs(c.simulation.pod_startup),
        write: |s, v| s.simulation.pod_startup = dur(v),
    },
    Knob {
        flag: "watch-latency",
        field: "simulation.watchLatency",
        group: Group::Cluster,
        unit: Unit::Seconds,
        min: 0.0,
        max: 2.0,
        step: 0.005,
        versions: (12, 99),
        read: |c| secs(c.simulation.watch_latency),
        write: |s, v| s.simulation.watch_latency = dur(v),
    },
    Knob {
        flag: "api-latency",
        field: "simulation.apiLatency",
        group: Group::Cluster,
        unit: Unit::Seconds,
        min: 0.0,
        max: 5.0,
        step: 0.005,
        versions: (12, 99),
        read: |c| secs(c.simulation.api_latency),
        write: |s, v| s.simulation.api_latency = dur(v),
    },
    Knob {
        flag: "duration-seconds",
        field: "durationSeconds",
        group: Group::Cluster,
        unit: Unit::Seconds,
        min: 60.0,
        max: 3600.0,
        step: 60.0,
        versions: (12, 99),
        read: |c| secs(c.duration),
        write: |s, v| s.duration_seconds = Some(v.round() as i64),
    },
];

/// The knob with this flag name.
pub fn knob(flag: &str) -> Option<&'static Knob> {
    KNOBS.iter().find(|k| k.flag == flag)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_knob_round_trips_through_a_scenario() {
        for k in KNOBS {
            let mut s = kubelife_engine::presets::default_cluster(&format!("1.{}", k.versions.0.max(20)));
            let v = if k.min > 0.0 { k.min + k.step } else { k.step };
            if k.flag == "shutdown-grace-period-critical-pods" {
                // The critical pods' share may not exceed the whole.
                (knob("shutdown-grace-period").unwrap().write)(&mut s, 600.0);
            }
            (k.write)(&mut s, v);
            let cfg = s.resolve().unwrap_or_else(|e| panic!("{}: {e}", k.flag));
            assert!(((k.read)(&cfg) - v).abs() < 1e-9, "{}", k.flag);
        }
        assert!(knob("node-monitor-grace-period").is_some());
    }
}

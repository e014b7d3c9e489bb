//! The playground's state as the user sets it, and the scenario it stands for.

use crate::knobs::{knob, KNOBS};
use kubelife_engine::scenario::{
    ActionKind, ActionSection, IntOrString, NodeSection, PdbSection, Scenario, VolumeSection, WorkloadKind,
    WorkloadSection,
};
use kubelife_engine::time::SECOND;
use kubelife_engine::version::NEWEST_MINOR;
use kubelife_engine::{Config, ScenarioError};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The fault the user injects.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Fault {
    /// Index of the node (0-based).
    pub node: u32,
    /// What happens to it.
    pub kind: ActionKind,
    /// When, in seconds from the start.
    pub at_seconds: u32,
    /// When it ends (NodeRecover), if ever, in seconds.
    pub recover_at_seconds: Option<u32>,
    /// How many nodes fail together, from `node` on (a zone outage is several).
    #[serde(default = "one")]
    pub count: u32,
}

fn one() -> u32 {
    1
}

/// An apiserver latency spike.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct LatencySpike {
    /// When it starts, s.
    pub from_seconds: u32,
    /// When it ends, s.
    pub until_seconds: u32,
    /// Latency added to every API call, ms.
    pub ms: u32,
}

/// An operator's patch of the `web` pods' `tolerationSeconds`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct TolerationPatch {
    /// When, s.
    pub at_seconds: u32,
    /// The new tolerationSeconds, s.
    pub seconds: u32,
}

/// Operator actions and control-plane events beside the fault; each is off unless set.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Operations {
    /// An apiserver latency spike.
    pub latency: Option<LatencySpike>,
    /// When an operator adds `node.kubernetes.io/out-of-service` to the failed nodes, s.
    pub out_of_service_at_seconds: Option<u32>,
    /// When kube-controller-manager restarts (a new leader takes over at once), s.
    pub kcm_restart_at_seconds: Option<u32>,
    /// A patch of the `web` pods' tolerationSeconds.
    pub toleration_patch: Option<TolerationPatch>,
    /// When an operator force-deletes `db-0` (`kubectl delete pod db-0 --grace-period=0
    /// --force`), s.
    #[serde(default)]
    pub force_delete_db_at_seconds: Option<u32>,
}

/// A workload's volume, as the page offers it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum VolumeChoice {
    /// No volume.
    #[default]
    None,
    /// One ReadWriteOnce claim per pod (a StatefulSet's `volumeClaimTemplates`).
    RwoPerPod,
    /// One ReadWriteOnce claim every pod shares.
    RwoShared,
    /// One ReadWriteMany claim every pod shares.
    Rwx,
}

impl VolumeChoice {
    /// Every choice, in the order the page lists them, with its name in links and its label's
    /// catalogue key.
    pub const ALL: [(VolumeChoice, &'static str, &'static str); 4] = [
        (VolumeChoice::None, "none", "ui.extras.volume.none"),
        (VolumeChoice::RwoPerPod, "rwo-per-pod", "ui.extras.volume.rwo-per-pod"),
        (VolumeChoice::RwoShared, "rwo-shared", "ui.extras.volume.rwo-shared"),
        (VolumeChoice::Rwx, "rwx", "ui.extras.volume.rwx"),
    ];

    /// Its name in links.
    pub fn name(self) -> &'static str {
        VolumeChoice::ALL.iter().find(|c| c.0 == self).map_or("none", |c| c.1)
    }

    /// The choice a link names.
    pub fn parse(name: &str) -> Option<VolumeChoice> {
        VolumeChoice::ALL.iter().find(|c| c.1 == name).map(|c| c.0)
    }

    /// The scenario's `volume`.
    fn section(self) -> Option<VolumeSection> {
        let (mode, per_pod) = match self {
            VolumeChoice::None => return None,
            VolumeChoice::RwoPerPod => ("ReadWriteOnce", true),
            VolumeChoice::RwoShared => ("ReadWriteOnce", false),
            VolumeChoice::Rwx => ("ReadWriteMany", false),
        };
        Some(VolumeSection {
            access_mode: Some(mode.into()),
            per_pod: Some(per_pod),
        })
    }
}

/// A workload's PodDisruptionBudget, as the page offers it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum PdbChoice {
    /// No budget.
    #[default]
    None,
    /// `minAvailable: N`.
    MinAvailable(u32),
    /// `maxUnavailable: N`.
    MaxUnavailable(u32),
}

impl PdbChoice {
    /// The scenario's `pdb`.
    fn section(self) -> Option<PdbSection> {
        match self {
            PdbChoice::None => None,
            PdbChoice::MinAvailable(n) => Some(PdbSection {
                min_available: Some(IntOrString::Int(i64::from(n))),
                ..PdbSection::default()
            }),
            PdbChoice::MaxUnavailable(n) => Some(PdbSection {
                max_unavailable: Some(IntOrString::Int(i64::from(n))),
                ..PdbSection::default()
            }),
        }
    }

    /// As a link writes it: `min:N`, `max:N`.
    pub fn text(self) -> Option<String> {
        match self {
            PdbChoice::None => None,
            PdbChoice::MinAvailable(n) => Some(format!("min:{n}")),
            PdbChoice::MaxUnavailable(n) => Some(format!("max:{n}")),
        }
    }

    /// Reads `min:N`, `max:N` or `none`.
    pub fn parse(t: &str) -> Option<PdbChoice> {
        if t == "none" {
            return Some(PdbChoice::None);
        }
        let (kind, n) = t.split_once(':')?;
        let n = n.parse::<u32>().ok().filter(|&n| n <= 30)?;
        match kind {
            "min" => Some(PdbChoice::MinAvailable(n)),
            "max" => Some(PdbChoice::MaxUnavailable(n)),
            _ => None,
        }
    }
}

/// What sits around a workload: a Service in front, a volume, a disruption budget.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct WorkloadExtras {
    /// Behind a Service.
    pub service: bool,
    /// Its volume.
    pub volume: VolumeChoice,
    /// Its PodDisruptionBudget.
    pub pdb: PdbChoice,
}

impl WorkloadExtras {
    /// Fills a workload section's `service`, `volume` and `pdb`.
    fn apply(self, w: &mut WorkloadSection) {
        w.service = self.service.then_some(true);
        w.volume = self.volume.section();
        w.pdb = self.pdb.section();
    }
}

/// The default `web`: a Deployment behind a Service.
pub const WEB_EXTRAS: WorkloadExtras = WorkloadExtras {
    service: true,
    volume: VolumeChoice::None,
    pdb: PdbChoice::None,
};

/// The default `db`: a StatefulSet with a ReadWriteOnce volume per pod.
pub const DB_EXTRAS: WorkloadExtras = WorkloadExtras {
    service: false,
    volume: VolumeChoice::RwoPerPod,
    pdb: PdbChoice::None,
};

fn web_extras() -> WorkloadExtras {
    WEB_EXTRAS
}

fn db_extras() -> WorkloadExtras {
    DB_EXTRAS
}

/// The longest any operation time may be, s (the longest run the page offers).
pub const MAX_OP_SECONDS: u32 = 3600;

/// Everything the user can set. Knob values live in `overrides` only once changed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Settings {
    /// Kubernetes minor version.
    pub minor: u32,
    /// Seed of the run.
    pub seed: u64,
    /// Changed knobs, by flag name, in the knob's unit.
    pub overrides: BTreeMap<String, f64>,
    /// Nodes in the cluster, spread over the zones (the page offers 1 to 50).
    pub nodes: u32,
    /// Zones (1 to 3).
    pub zones: u32,
    /// Replicas of the `web` Deployment.
    pub web_replicas: u32,
    /// Replicas of the `db` StatefulSet.
    pub db_replicas: u32,
    /// The `web` Deployment's Service, volume and budget.
    #[serde(default = "web_extras")]
    pub web: WorkloadExtras,
    /// The `db` StatefulSet's Service, volume and budget.
    #[serde(default = "db_extras")]
    pub db: WorkloadExtras,
    /// `--enable-taint-manager` (up to 1.26).
    pub enable_taint_manager: bool,
    /// `TaintBasedEvictions` (1.13 to 1.17 can turn it off).
    pub taint_based_evictions: bool,
    /// `--disable-force-detach-on-timeout` (1.30+).
    #[serde(default)]
    pub disable_force_detach: bool,
    /// The injected fault.
    pub fault: Fault,
    /// Operator actions and control-plane events.
    #[serde(default)]
    pub ops: Operations,
}

impl Default for Settings {
    /// The first visit: three nodes in three zones, a Deployment, a StatefulSet and a DaemonSet,
    /// and node-1 crashing early.
    fn default() -> Self {
        Settings {
            minor: NEWEST_MINOR,
            seed: 1,
            overrides: BTreeMap::new(),
            nodes: 3,
            zones: 3,
            web_replicas: 3,
            db_replicas: 1,
            web: WEB_EXTRAS,
            db: DB_EXTRAS,
            enable_taint_manager: true,
            taint_based_evictions: true,
            disable_force_detach: false,
            fault: Fault {
                node: 0,
                kind: ActionKind::NodeCrash,
                at_seconds: 30,
                recover_at_seconds: None,
                count: 1,
            },
            ops: Operations::default(),
        }
    }
}

/// The most nodes settings may ask for (the engine's own limit).
pub const MAX_NODES: u32 = 5_000;

/// The most nodes the page draws (its node-count control and its links).
pub const PAGE_MAX_NODES: u32 = 50;
/// The most replicas of the page's `web` Deployment.
pub const PAGE_MAX_WEB: u32 = 30;
/// The most replicas of the page's `db` StatefulSet.
pub const PAGE_MAX_DB: u32 = 10;

/// The zone names nodes are spread over.
pub const ZONES: [&str; 3] = ["zone-a", "zone-b", "zone-c"];

impl Settings {
    /// The scenario these settings describe.
    pub fn scenario(&self) -> Scenario {
        let nodes = (0..self.nodes.clamp(1, MAX_NODES))
            .map(|i| NodeSection {
                name: format!("node-{}", i + 1),
                zone: Some(ZONES[(i % self.zones.clamp(1, 3)) as usize].to_string()),
                labels: BTreeMap::new(),
                max_pods: None,
            })
            .collect::<Vec<_>>();
        let last = self.nodes.clamp(1, MAX_NODES) - 1;
        let node = |i: u32| format!("node-{}", i.min(last) + 1);
        // Operations past the end of the run are left out rather than refused.
        let end = self.overrides.get("duration-seconds").map_or(900.0, |&d| d);
        let action = |at: u32, kind| ActionSection::new(i64::from(at.min(MAX_OP_SECONDS)) * SECOND, kind);
        let failed = self.failed_nodes();
        let workload = |kind, name: &str, replicas, extras: Option<WorkloadExtras>| {
            let mut w = WorkloadSection {
                replicas,
                ..WorkloadSection::new(kind, name)
            };
            if let Some(x) = extras {
                x.apply(&mut w);
            }
            w
        };
        let mut events = Vec::new();
        for &i in &failed {
            events.push(ActionSection {
                node: Some(node(i)),
                ..action(self.fault.at_seconds, self.fault.kind)
            });
            if let Some(r) = self.fault.recover_at_seconds.filter(|&r| r >= self.fault.at_seconds) {
                events.push(ActionSection {
                    node: Some(node(i)),
                    ..action(r, ActionKind::NodeRecover)
                });
            }
            if let Some(at) = self.ops.out_of_service_at_seconds {
                events.push(ActionSection {
                    node: Some(node(i)),
                    ..action(at, ActionKind::OutOfServiceTaint)
                });
            }
        }
        if let Some(l) = self.ops.latency {
            events.push(ActionSection {
                latency_ms: Some(i64::from(l.ms.min(60_000))),
                ..action(l.from_seconds, ActionKind::ApiServerLatency)
            });
            if l.until_seconds > l.from_seconds {
                events.push(ActionSection {
                    latency_ms: Some(0),
                    ..action(l.until_seconds, ActionKind::ApiServerLatency)
                });
            }
        }
        if let Some(at) = self.ops.kcm_restart_at_seconds {
            events.push(action(at, ActionKind::ControllerManagerRestart));
        }
        if let Some(at) = self.ops.force_delete_db_at_seconds.filter(|_| self.db_replicas > 0) {
            events.push(ActionSection {
                pod: Some("db-0".into()),
                ..action(at, ActionKind::ForceDeletePod)
            });
        }
        if let Some(p) = self.ops.toleration_patch.filter(|_| self.web_replicas > 0) {
            events.push(ActionSection {
                workload: Some("web".into()),
                toleration_seconds: Some(i64::from(p.seconds)),
                ..action(p.at_seconds, ActionKind::PatchTolerations)
            });
        }
        events.retain(|e| e.at.0 as f64 <= end * SECOND as f64);
        events.sort_by_key(|e| e.at.0);
        let mut s = Scenario {
            version: Some(format!("1.{}", self.minor)),
            seed: Some(self.seed),
            nodes,
            workloads: vec![
                workload(WorkloadKind::Deployment, "web", Some(self.web_replicas), Some(self.web)),
                workload(WorkloadKind::StatefulSet, "db", Some(self.db_replicas), Some(self.db)),
                workload(WorkloadKind::DaemonSet, "agent", None, None),
            ],
            events,
            ..Scenario::default()
        };
        for (flag, &v) in &self.overrides {
            if let Some(k) = knob(flag).filter(|k| k.available(self.minor)) {
                (k.write)(&mut s, v);
            }
        }
        if self.minor <= 26 && !self.enable_taint_manager {
            s.controller_manager.enable_taint_manager = Some(false);
        }
        if self.minor >= 30 && self.disable_force_detach {
            s.controller_manager.disable_force_detach_on_timeout = Some(true);
        }
        if (13..=17).contains(&self.minor) && !self.taint_based_evictions {
            s.feature_gates.insert("TaintBasedEvictions".into(), false);
        }
        s
    }

    /// The 0-based indices of the nodes the fault takes down: `count` nodes from `fault.node` on,
    /// within the cluster.
    pub fn failed_nodes(&self) -> Vec<u32> {
        let last = self.nodes.clamp(1, MAX_NODES) - 1;
        (self.fault.node.min(last)..=last)
            .take(self.fault.count.clamp(1, 50) as usize)
            .collect()
    }

    /// Resolves the scenario; on failure, the settings with the offending override dropped are
    /// tried, so a bad value never leaves the page without a timeline and the other changes
    /// still apply.
    pub fn resolve(&self) -> (Config, Option<ScenarioError>) {
        match self.scenario().resolve() {
            Ok(cfg) => (cfg, None),
            Err(e) => {
                // Drop the one override the scenario refuses, if one alone does it, so that the
                // rest still applies; else every override; else the first visit.
                let without = |flag: &String| {
                    let mut s = self.clone();
                    s.overrides.remove(flag);
                    s.scenario().resolve().ok()
                };
                let cfg = self
                    .overrides
                    .keys()
                    .find_map(without)
                    .or_else(|| {
                        Settings {
                            overrides: BTreeMap::new(),
                            ..self.clone()
                        }
                        .scenario()
                        .resolve()
                        .ok()
                    })
                    .unwrap_or_else(|| {
                        Settings::default()
                            .scenario()
                            .resolve()
                            .expect("the default scenario is valid")
                    });
                (cfg, Some(e))
            }
        }
    }

    /// The value a knob shows: the override, or what the version resolves.
    pub fn value(&self, flag: &str, cfg: &Config) -> f64 {
        self.overrides
            .get(flag)
            .copied()
            .unwrap_or_else(|| knob(flag).map_or(0.0, |k| (k.read)(cfg)))
    }

    /// The settings a preset stands for: its version, its flags as overrides, its legacy
    /// toggles. The playground keeps its own cluster shape and fault.
    pub fn from_preset(&self, preset: &Scenario) -> Settings {
        let minor = preset
            .version
            .as_deref()
            .and_then(|v| kubelife_engine::Version::parse(v).ok())
            .map_or(self.minor, |v| v.minor);
        let mut out = Settings {
            minor,
            overrides: BTreeMap::new(),
            enable_taint_manager: true,
            taint_based_evictions: true,
            ..self.clone()
        };
        let (Ok(with), Ok(bare)) = (
            preset.resolve(),
            kubelife_engine::presets::default_cluster(&format!("1.{minor}")).resolve(),
        ) else {
            return out;
        };
        for k in KNOBS.iter().filter(|k| k.available(minor)) {
            let (v, d) = ((k.read)(&with), (k.read)(&bare));
            if (v - d).abs() > 1e-9 {
                out.overrides.insert(k.flag.to_string(), v);
            }
        }
        out.enable_taint_manager = with.controller_manager.enable_taint_manager;
        out.taint_based_evictions = preset.feature_gates.get("TaintBasedEvictions").copied().unwrap_or(true);
        out
    }

    /// The kubelet refuses shutdownGracePeriodCriticalPods over shutdownGracePeriod
    /// (`ValidateKubeletConfiguration`): raising the critical pods' share raises the whole with
    /// it, and lowering the whole lowers the share.
    fn keep_shutdown_pair(&mut self, flag: &str, v: f64) {
        const WHOLE: &str = "shutdown-grace-period";
        const CRITICAL: &str = "shutdown-grace-period-critical-pods";
        let whole = self.overrides.get(WHOLE).copied().unwrap_or(0.0);
        let critical = self.overrides.get(CRITICAL).copied().unwrap_or(0.0);
        if flag == CRITICAL && v > whole {
            self.overrides.insert(WHOLE.into(), v);
        } else if flag == WHOLE && critical > v {
            self.overrides.insert(CRITICAL.into(), v);
        }
    }

    /// Sets a knob, clamped to its range.
    pub fn set(&mut self, flag: &str, v: f64) {
        if let Some(k) = KNOBS.iter().find(|k| k.flag == flag) {
            if v.is_finite() {
                let v = v.clamp(k.min, k.max);
                self.overrides.insert(flag.to_string(), v);
                self.keep_shutdown_pair(flag, v);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_settings_give_the_first_visit_scenario() {
        let (cfg, err) = Settings::default().resolve();
        assert!(err.is_none());
        assert_eq!(cfg.nodes.len(), 3);
        assert_eq!(cfg.workloads.len(), 3);
        assert_eq!(cfg.actions[0].at, 30_000);
    }

    #[test]
    fn out_of_range_values_are_clamped_and_bad_ones_fall_back() {
        let mut s = Settings::default();
        s.set("node-monitor-period", 1e9);
        assert_eq!(s.overrides["node-monitor-period"], 60.0);
        s.set("node-monitor-period", f64::NAN);
        assert_eq!(s.overrides["node-monitor-period"], 60.0);
        // A knob the version lacks is ignored rather than rejected.
        s.set("pod-eviction-timeout", 30.0);
        assert!(s.resolve().1.is_none());
    }

    #[test]
    fn presets_become_settings() {
        let p = kubelife_engine::presets::preset("rke-1.18-tolerations").unwrap();
        let s = Settings::default().from_preset(&p.scenario);
        assert_eq!(s.minor, 18);
        assert_eq!(s.overrides.get("default-unreachable-toleration-seconds"), Some(&30.0));
        assert_eq!(s.overrides.get("node-monitor-grace-period"), Some(&30.0));
        let legacy = Settings::default().from_preset(
            &kubelife_engine::presets::preset("rke-1.17-taint-based-off")
                .unwrap()
                .scenario,
        );
        assert!(!legacy.taint_based_evictions);
        assert!(!legacy.resolve().0.controller_manager.taint_based_evictions);
    }
}

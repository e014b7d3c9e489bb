//! The playground's state as the user sets it, and the scenario it stands for.

mod cloud;
mod edits;
mod faults;
mod preset_table;
mod presets;
mod workloads;

pub use cloud::*;
pub use edits::*;
pub use faults::*;
pub use preset_table::*;
pub use workloads::*;

use crate::knobs::{knob, Group, KNOBS};
use kubelife_engine::flags::{self, Flag, Value};
use kubelife_engine::scenario::cloud::Provider;
use kubelife_engine::scenario::{
    ActionKind, ActionSection, CloudSection, NodeSection, Scenario, WorkloadKind, WorkloadSection,
};
use kubelife_engine::time::SECOND;
use kubelife_engine::version::NEWEST_MINOR;
use kubelife_engine::{Config, ScenarioError, Version};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A switch the page offers as a checkbox: its catalogue flag, where the page puts it, where
/// these settings keep it, and the catalogue keys of what it does and of why a version lacks it.
pub struct Toggle {
    /// The catalogue's declaration.
    pub def: &'static Flag,
    /// Its group.
    pub group: Group,
    /// What it does (catalogue key).
    pub help: &'static str,
    /// Why a version lacks it (catalogue key).
    pub why: &'static str,
    /// Whether it is on in the settings.
    pub get: fn(&Settings) -> bool,
    /// Turns it on or off in the settings.
    pub set: fn(&mut Settings, bool),
}

/// The switches, in display order.
pub const TOGGLES: [Toggle; 3] = [
    Toggle {
        def: &flags::ENABLE_TAINT_MANAGER,
        group: Group::ControllerManager,
        help: "ui.toggle.taint_manager",
        why: "ui.toggle.taint_manager_why",
        get: |s| s.enable_taint_manager,
        set: |s, v| s.enable_taint_manager = v,
    },
    Toggle {
        def: &flags::TAINT_BASED_EVICTIONS,
        group: Group::ControllerManager,
        help: "ui.toggle.tbe",
        why: "ui.toggle.tbe_why",
        get: |s| s.taint_based_evictions,
        set: |s, v| s.taint_based_evictions = v,
    },
    Toggle {
        def: &flags::DISABLE_FORCE_DETACH_ON_TIMEOUT,
        group: Group::ControllerManager,
        help: "ui.toggle.force_detach",
        why: "ui.toggle.force_detach_why",
        get: |s| s.disable_force_detach,
        set: |s, v| s.disable_force_detach = v,
    },
];

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
    /// Nodes in the cluster, spread over the zones round-robin (the page offers 1 to 5,000).
    pub nodes: u32,
    /// Zones, the first ones of [`ZONES`] (1 to 10).
    pub zones: u32,
    /// Replicas of the `web` Deployment.
    pub web_replicas: u32,
    /// Replicas of the `db` StatefulSet.
    pub db_replicas: u32,
    /// The `web` Deployment's Service, volume and budget.
    #[serde(default = "workloads::web_extras")]
    pub web: WorkloadExtras,
    /// The `db` StatefulSet's Service, volume and budget.
    #[serde(default = "workloads::db_extras")]
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
    /// A whole zone losing power, beside the fault.
    #[serde(default)]
    pub zone_outage: Option<ZoneOutage>,
    /// Operator actions and control-plane events.
    #[serde(default)]
    pub ops: Operations,
    /// The cluster's own zone names, in order (an imported cluster's); the page uses them when
    /// there is one for every zone, else `zone-a`, `zone-b`, … ([`ZONES`]).
    #[serde(default)]
    pub zone_names: Vec<String>,
    /// Where the cluster runs: a cloud's controller manager, or none (bare metal, kubeadm).
    #[serde(default)]
    pub cloud: Option<Provider>,
    /// The cloud's durations set (the settings table's `cloud` spans, by their names), ms; the
    /// others are the table's defaults.
    #[serde(default)]
    pub cloud_durations: BTreeMap<String, kubelife_engine::Millis>,
    /// The cloud's choices set (the settings table's `cloud` choices, by their names: AWS's
    /// `managedNodeGroup`), each as its index; the others are the table's defaults.
    #[serde(default)]
    pub cloud_choices: BTreeMap<String, i64>,
    /// What repairs nodes besides kube-controller-manager.
    #[serde(default)]
    pub remediation: Remediation,
    /// The remediator's further settings set ([`Remediator::further`], by their link names): a
    /// span in ms, a version's minor number; the others are the table's defaults.
    #[serde(default)]
    pub remediator_settings: BTreeMap<String, i64>,
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
                notice_seconds: None,
            },
            zone_outage: None,
            ops: Operations::default(),
            zone_names: Vec::new(),
            cloud: None,
            cloud_durations: BTreeMap::new(),
            cloud_choices: BTreeMap::new(),
            remediation: Remediation::default(),
            remediator_settings: BTreeMap::new(),
        }
    }
}

/// The most nodes settings may ask for (half the engine's `MAX_NODES`).
pub const MAX_NODES: u32 = 5_000;

/// The most nodes the page draws (its node-count control and its links).
pub const PAGE_MAX_NODES: u32 = MAX_NODES;
/// The most replicas of the page's `web` Deployment.
pub const PAGE_MAX_WEB: u32 = 150_000;
/// The most replicas of the page's `db` StatefulSet. With `web` and one `agent` pod per node at
/// their most, the pods stay within the engine's `MAX_PODS` (200,000).
pub const PAGE_MAX_DB: u32 = 45_000;

/// The zone names nodes are spread over, in order.
pub const ZONES: [&str; 10] = [
    "zone-a", "zone-b", "zone-c", "zone-d", "zone-e", "zone-f", "zone-g", "zone-h", "zone-i", "zone-j",
];

/// An action at `at` seconds (held within the longest run the page offers).
fn action(at: u32, kind: ActionKind) -> ActionSection {
    ActionSection::new(i64::from(at.min(MAX_OP_SECONDS)) * SECOND, kind)
}

/// The name of the node at a 0-based index.
fn node_name(i: u32) -> String {
    format!("node-{}", i + 1)
}

thread_local! {
    /// How many times this thread resolved settings ([`Settings::resolve`]).
    static RESOLVES: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// How many times this thread resolved settings so far: a test counts the resolves a change of
/// the page's controls costs.
pub fn resolves() -> u64 {
    RESOLVES.with(|n| n.get())
}

impl Settings {
    /// The scenario these settings describe.
    pub fn scenario(&self) -> Scenario {
        let zones = self.zone_count();
        let nodes = (0..self.node_count())
            .map(|i| NodeSection {
                name: node_name(i),
                zone: Some(self.zone_name(i % zones).to_string()),
                labels: BTreeMap::new(),
                max_pods: None,
            })
            .collect::<Vec<_>>();
        // Operations past the end of the run are left out rather than refused.
        let end = self.overrides.get(flags::DURATION_SECONDS.name).map_or(900.0, |&d| d);
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
        let mut events = self.fault_events();
        events.extend(self.ops_events());
        events.retain(|e| e.at.0 as f64 <= end * SECOND as f64);
        kubelife_engine::order::sort_by_key(&mut events, |e| e.at.0);
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
            cloud: self.cloud.map(CloudSection::new),
            remediation: self.remediation.section().into_iter().collect(),
            ..Scenario::default()
        };
        self.write_cloud_durations(&mut s);
        self.write_cloud_choices(&mut s);
        self.write_further(&mut s);
        for (flag, &v) in &self.overrides {
            if let Some(k) = knob(flag).filter(|k| k.available(self.minor)) {
                (k.write)(&mut s, v);
            }
        }
        // A switch is written where the version offers it and it is not at the version's default.
        let version = Version { minor: self.minor };
        for t in &TOGGLES {
            let on = Value::Bool((t.get)(self));
            if t.def.offered(&version.profile()) && on != t.def.default_in(version) {
                t.def.put(&mut s, on);
            }
        }
        s
    }

    /// The nodes the cluster has (1 to [`MAX_NODES`]).
    fn node_count(&self) -> u32 {
        self.nodes.clamp(1, MAX_NODES)
    }

    /// The zones the cluster has (1 to the length of [`ZONES`]).
    pub fn zone_count(&self) -> u32 {
        self.zones.clamp(1, ZONES.len() as u32)
    }

    /// The name of zone `i` (0-based): the cluster's own when it names every zone, else
    /// `zone-a`, `zone-b`, ….
    pub fn zone_name(&self, i: u32) -> &str {
        let own = self.zone_names.len() >= self.zone_count() as usize;
        match self.zone_names.get(i as usize) {
            Some(name) if own => name,
            _ => ZONES.get(i as usize).copied().unwrap_or(""),
        }
    }

    /// The names of the cluster's zones, in order.
    pub fn zone_list(&self) -> Vec<&str> {
        (0..self.zone_count()).map(|i| self.zone_name(i)).collect()
    }

    /// Sets the zone count; a zone outage in a zone that is gone moves to the last zone.
    pub fn set_zones(&mut self, zones: u32) {
        self.zones = zones.clamp(1, ZONES.len() as u32);
        if let Some(z) = self.zone_outage.as_mut() {
            z.zone = z.zone.min(self.zones - 1);
        }
    }

    /// Resolves the scenario; on failure, the settings with the offending override dropped are
    /// tried, so a bad value never leaves the page without a timeline and the other changes
    /// still apply.
    pub fn resolve(&self) -> (Config, Option<ScenarioError>) {
        RESOLVES.with(|n| n.set(n.get() + 1));
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

    /// The kubelet refuses shutdownGracePeriodCriticalPods over shutdownGracePeriod
    /// (`ValidateKubeletConfiguration`): raising the critical pods' share raises the whole with
    /// it, and lowering the whole lowers the share.
    fn keep_shutdown_pair(&mut self, flag: &str, v: f64) {
        const WHOLE: &str = flags::SHUTDOWN_GRACE_PERIOD.name;
        const CRITICAL: &str = flags::SHUTDOWN_GRACE_PERIOD_CRITICAL_PODS.name;
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
    fn old_saved_settings_load_without_a_zone_outage() {
        let mut saved = serde_json::to_value(Settings::default()).expect("serializes");
        saved.as_object_mut().expect("an object").remove("zone_outage");
        let s: Settings = serde_json::from_value(saved).expect("loads");
        assert_eq!(s, Settings::default());
    }

    #[test]
    fn old_saved_settings_load_without_a_cloud_or_a_remediator() {
        let mut saved = serde_json::to_value(Settings::default()).expect("serializes");
        let o = saved.as_object_mut().expect("an object");
        o.remove("cloud");
        o.remove("remediation");
        let s: Settings = serde_json::from_value(saved).expect("loads");
        assert_eq!(s, Settings::default());
        let sc = s.scenario();
        assert!(sc.cloud.is_none() && sc.remediation.is_empty());
    }

    #[test]
    fn the_page_holds_the_largest_cluster_the_engine_runs() {
        let s = Settings {
            nodes: PAGE_MAX_NODES,
            zones: ZONES.len() as u32,
            web_replicas: PAGE_MAX_WEB,
            db_replicas: PAGE_MAX_DB,
            ..Settings::default()
        };
        let (cfg, err) = s.resolve();
        assert_eq!(err, None);
        assert_eq!(cfg.nodes.len(), 5000);
        assert_eq!(cfg.nodes[9].zone, "zone-j");
        assert_eq!(cfg.nodes[4999].name, "node-5000");
    }
}

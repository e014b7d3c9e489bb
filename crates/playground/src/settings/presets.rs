//! The settings a preset (or an imported cluster) stands for.

use super::{Fault, Operations, Remediation, Settings, WorkloadExtras, ZoneOutage, TOGGLES};
use crate::knobs::{Knob, KNOBS};
use kubelife_engine::scenario::{ActionKind, ActionSection, Scenario, WorkloadKind};
use kubelife_engine::time::SECOND;
use kubelife_engine::Config;
use std::collections::BTreeMap;

impl Settings {
    /// The settings a preset stands for: its version, its flags as overrides, its legacy
    /// toggles. A preset that runs the presets' default cluster keeps the playground's own
    /// cluster shape, workloads and faults; one with a cluster of its own (a size, a zone outage)
    /// brings it, when the page can show it exactly.
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
        let default_cluster = kubelife_engine::presets::default_cluster(&format!("1.{minor}"));
        let (Ok(with), Ok(bare)) = (preset.resolve(), default_cluster.resolve()) else {
            return out;
        };
        for k in KNOBS.iter().filter(|k| k.available(minor)) {
            let (v, d) = ((k.read)(&with), (k.read)(&bare));
            if (v - d).abs() > 1e-9 {
                out.overrides.insert(k.flag.to_string(), v);
            }
        }
        // Each switch as the preset resolves it, where the version offers it.
        let first_visit = Settings::default();
        for t in &TOGGLES {
            let on = match t.def.read(&with).switch() {
                Some(on) if t.def.offered(&with.profile) => on,
                _ => (t.get)(&first_visit),
            };
            (t.set)(&mut out, on);
        }
        out.keep_defaults_of(&with);
        // Where it runs and what repairs its nodes come with the preset (or the imported cluster).
        out.cloud = preset.cloud.as_ref().map(|c| c.provider);
        out.cloud_durations = super::cloud::cloud_durations_of(preset);
        out.cloud_choices = super::cloud::cloud_choices_of(preset);
        out.remediation = Remediation::of(&preset.remediation);
        out.remediator_settings = super::cloud::further_of(out.remediation.kind, preset);
        let own_cluster = (&preset.nodes, &preset.workloads, &preset.events)
            != (
                &default_cluster.nodes,
                &default_cluster.workloads,
                &default_cluster.events,
            );
        match own_cluster.then(|| out.with_cluster_of(preset)).flatten() {
            Some(shaped) => shaped,
            None => out,
        }
    }

    /// These settings after a preset whose settings on the first visit are `preset` (as
    /// [`PRESETS`] writes them): the version, the knobs, the switches, the cloud and the
    /// remediator come from it; the cluster, workloads and faults too when it brings a cluster of
    /// its own (`cluster`) and these settings can show it (their zone names give the same nodes),
    /// else they stay these settings' own. The same as [`Settings::from_preset`] with the
    /// preset's scenario, without building it (a test checks every preset).
    pub fn with_preset(&self, preset: &Settings, cluster: bool) -> Settings {
        let out = Settings {
            minor: preset.minor,
            overrides: preset.overrides.clone(),
            enable_taint_manager: preset.enable_taint_manager,
            taint_based_evictions: preset.taint_based_evictions,
            disable_force_detach: preset.disable_force_detach,
            cloud: preset.cloud,
            cloud_durations: preset.cloud_durations.clone(),
            cloud_choices: preset.cloud_choices.clone(),
            remediation: preset.remediation,
            remediator_settings: preset.remediator_settings.clone(),
            ..self.clone()
        };
        if !cluster {
            return out;
        }
        let shaped = Settings {
            nodes: preset.nodes,
            zones: preset.zones,
            web_replicas: preset.web_replicas,
            db_replicas: preset.db_replicas,
            web: preset.web,
            db: preset.db,
            fault: preset.fault.clone(),
            zone_outage: preset.zone_outage,
            ops: preset.ops,
            ..out.clone()
        };
        let (shown, wanted) = (shaped.scenario(), preset.scenario());
        let same = shown.nodes == wanted.nodes
            && shown.workloads == wanted.workloads
            && same_in_any_order(&shown.events, &wanted.events);
        if same {
            shaped
        } else {
            out
        }
    }

    /// Writes out each knob that the scenario of these settings resolves differently from
    /// `with` though `with` has the version's default there. A knob left out of the settings is
    /// left out of their scenario, and the scenario format reads an absent value as a
    /// KubeletConfiguration file does: without `nodeStatusReportFrequency`, a
    /// `nodeStatusUpdateFrequency` sets the report frequency to itself
    /// (`SetDefaults_KubeletConfiguration`). A kubelet flag does not (it is applied after
    /// defaulting), so a scenario read from `--node-status-update-frequency=4s` keeps the report
    /// frequency at its default 5m0s, and these settings must say 5m0s to keep it too.
    fn keep_defaults_of(&mut self, with: &Config) {
        for _ in KNOBS {
            // What the knobs resolve to does not depend on the cluster: read them on the first
            // visit's, which is small and always valid.
            let probe = Settings {
                minor: self.minor,
                overrides: self.overrides.clone(),
                enable_taint_manager: self.enable_taint_manager,
                taint_based_evictions: self.taint_based_evictions,
                disable_force_detach: self.disable_force_detach,
                ..Settings::default()
            };
            let Ok(shown) = probe.scenario().resolve() else {
                return;
            };
            let differ: Vec<&Knob> = KNOBS
                .iter()
                .filter(|k| k.available(self.minor) && !self.overrides.contains_key(k.flag))
                .filter(|k| ((k.read)(&shown) - (k.read)(with)).abs() > 1e-9)
                .collect();
            if differ.is_empty() {
                return;
            }
            for k in differ {
                self.overrides.insert(k.flag.to_string(), (k.read)(with));
            }
        }
    }

    /// These settings with a preset's cluster: its node count and zones, its `web` and `db`, its
    /// fault and zone outage, and no operator action. `None` unless the scenario they give has
    /// exactly the preset's nodes, workloads and events.
    fn with_cluster_of(&self, preset: &Scenario) -> Option<Settings> {
        let nodes = u32::try_from(preset.nodes.len()).ok()?;
        let zone_names = kubelife_engine::order::set(preset.nodes.iter().map(|n| n.zone.as_deref()));
        let workload = |kind, name: &str| preset.workloads.iter().find(|w| w.kind == kind && w.name == name);
        let (web, db) = (
            workload(WorkloadKind::Deployment, "web")?,
            workload(WorkloadKind::StatefulSet, "db")?,
        );
        let mut out = Settings {
            nodes,
            zones: u32::try_from(zone_names.len()).ok()?,
            web_replicas: web.replicas.unwrap_or(1),
            db_replicas: db.replicas.unwrap_or(1),
            web: WorkloadExtras::of(web)?,
            db: WorkloadExtras::of(db)?,
            zone_outage: None,
            ops: Operations::default(),
            ..self.clone()
        };
        out.faults_of(&preset.events)?;
        let shown = out.scenario();
        let same = shown.nodes == preset.nodes
            && shown.workloads == preset.workloads
            && same_in_any_order(&shown.events, &preset.events);
        same.then_some(out)
    }

    /// Reads a preset's node faults as the fault and the zone outage: the nodes that fail
    /// together, at one time and in one way, are either every node of one zone (crashing, more
    /// than one node) or a run of consecutive nodes. One node is always the fault, even when it
    /// is its zone's only node: read as a zone outage it would crash every node of that zone
    /// once the page has more nodes. A zone outage alone comes with a fault on its first node at
    /// the same time, which the scenario does not repeat.
    fn faults_of(&mut self, events: &[ActionSection]) -> Option<()> {
        let index = |e: &ActionSection| {
            e.node
                .as_deref()?
                .strip_prefix("node-")?
                .parse::<u32>()
                .ok()?
                .checked_sub(1)
        };
        let recover_of = |i: u32| {
            events
                .iter()
                .find(|e| e.action == ActionKind::NodeRecover && index(e) == Some(i))
                .map(|e| (e.at.0 / SECOND) as u32)
        };
        // Groups of (start, kind, nodes), in the order they first appear.
        let mut groups: Vec<(i64, ActionKind, Vec<u32>)> = Vec::new();
        for e in events.iter().filter(|e| e.action != ActionKind::NodeRecover) {
            let i = index(e)?;
            match groups.iter_mut().find(|g| g.0 == e.at.0 && g.1 == e.action) {
                Some(g) => g.2.push(i),
                None => groups.push((e.at.0, e.action, vec![i])),
            }
        }
        let mut fault = None;
        for (at, kind, mut nodes) in groups {
            kubelife_engine::order::sort(&mut nodes);
            let at_seconds = u32::try_from(at / SECOND).ok()?;
            let end = recover_of(nodes[0]);
            let zones = self.zone_count();
            let zone = (0..zones).find(|&z| (z..self.node_count()).step_by(zones as usize).eq(nodes.iter().copied()));
            match zone.filter(|_| kind == ActionKind::NodeCrash && zones > 1 && nodes.len() > 1) {
                Some(zone) if self.zone_outage.is_none() => {
                    self.zone_outage = Some(ZoneOutage {
                        zone,
                        at_seconds,
                        end_seconds: end,
                    })
                }
                _ if fault.is_none() && nodes.windows(2).all(|w| w[1] == w[0] + 1) => {
                    fault = Some(Fault {
                        node: nodes[0],
                        kind,
                        at_seconds,
                        recover_at_seconds: end,
                        count: nodes.len() as u32,
                        notice_seconds: None,
                    })
                }
                _ => return None,
            }
        }
        self.fault = match (fault, self.zone_outage) {
            (Some(f), _) => f,
            (None, Some(z)) => Fault {
                node: z.zone,
                kind: ActionKind::NodeCrash,
                at_seconds: z.at_seconds,
                recover_at_seconds: z.end_seconds,
                count: 1,
                notice_seconds: None,
            },
            (None, None) => return None,
        };
        self.fault.notice_seconds = events
            .iter()
            .find(|e| e.action == ActionKind::SpotInterruption)
            .and_then(|e| e.notice)
            .and_then(|d| u32::try_from(d.0 / SECOND).ok());
        Some(())
    }
}

/// Whether `a` and `b` hold the same events, each as often, in any order.
fn same_in_any_order(a: &[ActionSection], b: &[ActionSection]) -> bool {
    let mut used = vec![false; b.len()];
    a.len() == b.len()
        && a.iter().all(|x| {
            let found = (0..b.len()).find(|&i| !used[i] && b[i] == *x);
            found.map(|i| used[i] = true).is_some()
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings::Remediator;
    use kubelife_engine::scenario::cloud::Provider;

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

    #[test]
    fn scale_presets_bring_their_cluster_and_faults() {
        for name in [
            "scale-1000-zone-b-outage",
            "scale-5000-lose-10-percent",
            "scale-200-partial-disruption",
            "all-zones-down",
        ] {
            let preset = kubelife_engine::presets::preset(name).expect("a preset").scenario;
            let s = Settings::default().from_preset(&preset);
            let shown = s.scenario();
            assert_eq!(shown.nodes, preset.nodes, "{name}: the nodes and their zones");
            let failing = |sc: &Scenario| {
                let mut v: Vec<(i64, String)> = sc
                    .events
                    .iter()
                    .filter(|e| e.action == ActionKind::NodeCrash)
                    .map(|e| (e.at.0, e.node.clone().unwrap_or_default()))
                    .collect();
                v.sort();
                v
            };
            assert_eq!(failing(&shown), failing(&preset), "{name}: the failing nodes");
            assert_eq!(shown.resolve(), preset.resolve(), "{name}: the whole run");
        }
        let zone_b = kubelife_engine::presets::preset("scale-1000-zone-b-outage").expect("a preset");
        let s = Settings::default().from_preset(&zone_b.scenario);
        assert_eq!((s.nodes, s.zones, s.web_replicas), (1000, 3, 2000));
        let outage = s.zone_outage.expect("a zone outage");
        assert_eq!(
            (outage.zone_name(), outage.at_seconds, outage.end_seconds),
            ("zone-b", 60, None)
        );
        let tenth = kubelife_engine::presets::preset("scale-5000-lose-10-percent").expect("a preset");
        let s = Settings::default().from_preset(&tenth.scenario);
        assert_eq!((s.fault.node, s.fault.count, s.zone_outage), (0, 500, None));
        // A preset on the default cluster keeps the page's own.
        let mine = Settings {
            nodes: 7,
            ..Settings::default()
        };
        let upstream = kubelife_engine::presets::preset("upstream-1.31").expect("a preset");
        assert_eq!(mine.from_preset(&upstream.scenario).nodes, 7);
    }

    #[test]
    fn a_preset_brings_its_cloud_its_remediator_and_its_instance_fault() {
        let from = |name: &str| {
            let p = kubelife_engine::presets::preset(name).expect("a preset");
            Settings::default().from_preset(&p.scenario)
        };
        let eks = from("eks-instance-terminated");
        assert_eq!(eks.cloud, Some(Provider::Aws));
        assert_eq!(
            (eks.fault.kind, eks.fault.at_seconds),
            (ActionKind::InstanceTerminated, 30)
        );
        assert_eq!(eks.remediation.kind, Remediator::None);
        let mhc = from("capi-mhc-5m");
        assert_eq!((mhc.cloud, mhc.remediation.kind), (None, Remediator::Mhc));
        assert_eq!(mhc.remediation.timeout_or_default(), Some(300));
        assert!(from("karpenter-repair-off").remediation.node_repair_off);
        assert!(!from("karpenter-repair-on").remediation.node_repair_off);
        let spot = from("karpenter-spot-interruption").remediation;
        assert!(spot.node_repair_off && spot.interruption_queue);
        // And back: the settings write the preset's cloud and remediator.
        let back = from("medik8s-snr").scenario();
        assert_eq!(back.remediation[0].kind(), "SelfNodeRemediation");
        // A preset without them takes them away.
        let plain = eks.from_preset(&kubelife_engine::presets::preset("upstream-newest").unwrap().scenario);
        assert_eq!((plain.cloud, plain.remediation.kind), (None, Remediator::None));
    }
}

//! The settings a control changes, named as data, and their setters: the page's controls send
//! which field and which value, and these settings store it.

use super::{
    LatencySpike, PdbChoice, Remediator, Settings, TolerationPatch, VolumeChoice, ZoneOutage, PROVIDERS, TOGGLES,
};
use kubelife_engine::scenario::ActionKind;
use serde::{Deserialize, Serialize};

/// One of the page's two workloads with a Service, a volume and a budget of their own.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Workload {
    /// The `web` Deployment.
    Web,
    /// The `db` StatefulSet.
    Db,
}

impl Workload {
    /// Its name, as in `data-testid="web-volume"`.
    pub fn name(self) -> &'static str {
        match self {
            Workload::Web => "web",
            Workload::Db => "db",
        }
    }
}

/// A whole-number setting of the page's controls. A time is in seconds; for an action that
/// may be off, 0 turns it off.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Field {
    /// Nodes in the cluster.
    Nodes,
    /// Zones ([`Settings::set_zones`]).
    Zones,
    /// The run's seed.
    Seed,
    /// A workload's replicas.
    Replicas(Workload),
    /// A workload's volume, an index into [`VolumeChoice::ALL`].
    Volume(Workload),
    /// A workload's budget's kind: 0 none, 1 `minAvailable`, 2 `maxUnavailable`.
    PdbKind(Workload),
    /// A workload's budget's count.
    PdbCount(Workload),
    /// Where it runs: 0 for no cloud, else an index into [`PROVIDERS`] plus one
    /// ([`Settings::set_cloud`]).
    Cloud,
    /// What repairs nodes, an index into [`Remediator::ALL`] ([`Settings::set_remediator`]).
    Remediator,
    /// The remediator's unhealthy timeout, s.
    RemediationTimeout,
    /// MachineHealthCheck's `maxUnhealthy` or EKS's breaker, percent.
    MaxUnhealthy,
    /// Self Node Remediation's `minHealthy`, percent.
    MinHealthy,
    /// Self Node Remediation's strategy, an index into [`super::SNR_STRATEGIES`].
    Strategy,
    /// The failing node, 0-based.
    FaultNode,
    /// When the fault starts, s.
    FaultAt,
    /// When the failed nodes recover, s (0: never).
    FaultRecover,
    /// How many nodes fail together (0: no single-node fault).
    FaultCount,
    /// The spot interruption's notice, s.
    FaultNotice,
    /// The zone that loses power: 0 for none, else its index plus one.
    OutageZone,
    /// When the zone outage starts, s.
    OutageAt,
    /// When the zone comes back, s (0: never).
    OutageEnd,
    /// When an operator adds the out-of-service taint, s.
    OutOfService,
    /// When an operator force-deletes `db-0`, s.
    ForceDeleteDb,
    /// When kube-controller-manager restarts, s.
    KcmRestart,
    /// The apiserver latency spike's added latency, ms.
    LatencyMs,
    /// When the latency spike starts, s.
    LatencyFrom,
    /// When the latency spike ends, s.
    LatencyUntil,
    /// A cloud duration, by the settings table's name, ms.
    CloudDuration(&'static str),
    /// A cloud choice, by the settings table's name: its index.
    CloudChoice(&'static str),
    /// A further setting of the remediator ([`Remediator::further`]), by its link name: a span
    /// in ms, a version's minor number.
    RemediatorSetting(&'static str),
    /// The patched `tolerationSeconds` of the `web` pods, s.
    PatchSeconds,
    /// When the tolerations are patched, s.
    PatchAt,
}

/// An on/off setting of the page's controls.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Switch {
    /// A switch of [`TOGGLES`], by its catalogue name.
    Toggle(&'static str),
    /// A workload behind a Service.
    Service(Workload),
    /// Karpenter's `nodeRepair`.
    NodeRepair,
    /// Karpenter reading its `interruptionQueue`.
    InterruptionQueue,
}

impl PdbChoice {
    /// The budget a kind (0 none, 1 `minAvailable`, 2 `maxUnavailable`) and a count stand for.
    pub fn of(kind: u32, n: u32) -> PdbChoice {
        match kind {
            1 => PdbChoice::MinAvailable(n),
            2 => PdbChoice::MaxUnavailable(n),
            _ => PdbChoice::None,
        }
    }

    /// Its kind: 0 none, 1 `minAvailable`, 2 `maxUnavailable`.
    pub fn kind(self) -> u32 {
        match self {
            PdbChoice::None => 0,
            PdbChoice::MinAvailable(_) => 1,
            PdbChoice::MaxUnavailable(_) => 2,
        }
    }

    /// Its count, or 1 where there is no budget yet.
    pub fn count(self) -> u32 {
        match self {
            PdbChoice::MinAvailable(n) | PdbChoice::MaxUnavailable(n) => n,
            PdbChoice::None => 1,
        }
    }
}

impl Settings {
    /// A workload's Service, volume and budget.
    fn extras_mut(&mut self, w: Workload) -> &mut super::WorkloadExtras {
        match w {
            Workload::Web => &mut self.web,
            Workload::Db => &mut self.db,
        }
    }

    /// Stores a whole number a control gives.
    pub fn set_number(&mut self, field: Field, v: u32) {
        let on = (v > 0).then_some(v);
        match field {
            Field::Nodes => self.nodes = v,
            Field::Zones => self.set_zones(v),
            Field::Seed => self.seed = u64::from(v),
            Field::Replicas(Workload::Web) => self.web_replicas = v,
            Field::Replicas(Workload::Db) => self.db_replicas = v,
            Field::Volume(w) => {
                self.extras_mut(w).volume = VolumeChoice::ALL.get(v as usize).map_or(VolumeChoice::None, |c| c.0)
            }
            Field::PdbKind(w) => {
                let x = self.extras_mut(w);
                x.pdb = PdbChoice::of(v, x.pdb.count());
            }
            Field::PdbCount(w) => {
                let x = self.extras_mut(w);
                x.pdb = PdbChoice::of(x.pdb.kind(), v);
            }
            Field::Cloud => {
                self.set_cloud(v.checked_sub(1).and_then(|i| PROVIDERS.get(i as usize)).map(|x| x.0));
            }
            Field::Remediator => {
                if let Some(r) = Remediator::ALL.get(v as usize) {
                    self.set_remediator(r.0);
                }
            }
            Field::RemediationTimeout => self.remediation.timeout_seconds = Some(v),
            Field::MaxUnhealthy => self.remediation.max_unhealthy_percent = Some(v),
            Field::MinHealthy => self.remediation.min_healthy_percent = Some(v),
            Field::Strategy => self.remediation.strategy = Some(v),
            Field::CloudDuration(name) => {
                self.cloud_durations.insert(name.to_string(), i64::from(v));
            }
            Field::CloudChoice(name) => {
                self.cloud_choices.insert(name.to_string(), i64::from(v));
            }
            Field::RemediatorSetting(link) => {
                self.remediator_settings.insert(link.to_string(), i64::from(v));
            }
            Field::FaultNode => self.fault.node = v,
            Field::FaultAt => self.fault.at_seconds = v,
            Field::FaultRecover => self.fault.recover_at_seconds = on,
            Field::FaultCount => self.fault.count = v,
            Field::FaultNotice => self.fault.notice_seconds = Some(v),
            Field::OutageZone | Field::OutageAt | Field::OutageEnd => self.set_outage(field, v),
            Field::OutOfService => self.ops.out_of_service_at_seconds = on,
            Field::ForceDeleteDb => self.ops.force_delete_db_at_seconds = on,
            Field::KcmRestart => self.ops.kcm_restart_at_seconds = on,
            Field::LatencyMs | Field::LatencyFrom | Field::LatencyUntil | Field::PatchSeconds | Field::PatchAt => {
                self.set_operation(field, v)
            }
        }
    }

    /// The zone outage's zone (0 for none, a new one starting at 2m0s), start and end. A zone
    /// outage chosen where the page had only its default single-node fault replaces that fault:
    /// the zone's nodes are what fails. A fault chosen besides (another node, kind or time)
    /// stays.
    fn set_outage(&mut self, field: Field, v: u32) {
        if field == Field::OutageZone {
            if v > 0 && self.zone_outage.is_none() && self.fault == Settings::default().fault {
                self.fault.count = 0;
            }
            self.zone_outage = v.checked_sub(1).map(|zone| ZoneOutage {
                zone,
                ..self.zone_outage.unwrap_or(ZoneOutage {
                    zone,
                    at_seconds: 120,
                    end_seconds: None,
                })
            });
            return;
        }
        let Some(z) = self.zone_outage.as_mut() else {
            return;
        };
        if field == Field::OutageAt {
            z.at_seconds = v;
            z.end_seconds = z.end_seconds.map(|e| e.max(v));
        } else {
            z.end_seconds = (v > 0).then(|| v.max(z.at_seconds));
        }
    }

    /// The latency spike (a new one from 2m0s to 5m0s) and the tolerations' patch (a new one at
    /// 3m20s); a latency or a toleration of 0 turns it off.
    fn set_operation(&mut self, field: Field, v: u32) {
        let o = &mut self.ops;
        match field {
            Field::LatencyMs => {
                o.latency = (v > 0).then(|| LatencySpike {
                    ms: v,
                    ..o.latency.unwrap_or(LatencySpike {
                        from_seconds: 120,
                        until_seconds: 300,
                        ms: v,
                    })
                })
            }
            Field::LatencyFrom => o.latency.iter_mut().for_each(|l| l.from_seconds = v),
            Field::LatencyUntil => o.latency.iter_mut().for_each(|l| l.until_seconds = v),
            Field::PatchSeconds => {
                o.toleration_patch = (v > 0).then(|| TolerationPatch {
                    seconds: v,
                    at_seconds: o.toleration_patch.map_or(200, |p| p.at_seconds),
                })
            }
            Field::PatchAt => o.toleration_patch.iter_mut().for_each(|p| p.at_seconds = v),
            _ => {}
        }
    }

    /// Turns a switch a control gives on or off.
    pub fn set_switch(&mut self, switch: Switch, on: bool) {
        match switch {
            Switch::Toggle(name) => {
                if let Some(t) = TOGGLES.iter().find(|t| t.def.name == name) {
                    (t.set)(self, on);
                }
            }
            Switch::Service(w) => self.extras_mut(w).service = on,
            Switch::NodeRepair => self.remediation.node_repair_off = !on,
            Switch::InterruptionQueue => self.remediation.interruption_queue = on,
        }
    }

    /// Another kind of fault; one node fails again if none did.
    pub fn set_fault_kind(&mut self, kind: ActionKind) {
        self.fault.kind = kind;
        self.fault.count = self.fault.count.max(1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each field lands where it names, and an action set to 0 is off.
    #[test]
    fn fields_and_switches_set_what_they_name() {
        let mut s = Settings::default();
        s.set_number(Field::Replicas(Workload::Db), 4);
        s.set_number(Field::PdbKind(Workload::Web), 2);
        s.set_number(Field::PdbCount(Workload::Web), 3);
        s.set_number(Field::Volume(Workload::Db), 3);
        assert_eq!(s.db_replicas, 4);
        assert_eq!(s.web.pdb, PdbChoice::MaxUnavailable(3));
        assert_eq!(s.db.volume, VolumeChoice::Rwx);
        s.set_number(Field::OutageZone, 2);
        s.set_number(Field::OutageEnd, 60);
        assert_eq!(
            s.zone_outage,
            Some(ZoneOutage {
                zone: 1,
                at_seconds: 120,
                end_seconds: Some(120)
            })
        );
        s.set_number(Field::LatencyMs, 500);
        s.set_number(Field::LatencyUntil, 400);
        assert_eq!(
            s.ops.latency.map(|l| (l.from_seconds, l.until_seconds, l.ms)),
            Some((120, 400, 500))
        );
        s.set_number(Field::LatencyMs, 0);
        assert_eq!(s.ops.latency, None);
        s.set_number(Field::Remediator, 3);
        assert_eq!(s.remediation.kind, Remediator::Karpenter);
        s.set_switch(Switch::NodeRepair, false);
        assert!(s.remediation.node_repair_off);
        s.set_switch(Switch::Toggle("enable-taint-manager"), false);
        assert!(!s.enable_taint_manager);
        s.set_number(Field::FaultCount, 0);
        s.set_fault_kind(ActionKind::Drain);
        assert_eq!((s.fault.kind, s.fault.count), (ActionKind::Drain, 1));
    }

    /// A zone outage chosen on the page replaces the default node-1 crash, unless a fault was
    /// chosen too; moving the outage to another zone leaves the fault as it is.
    #[test]
    fn a_zone_outage_chosen_replaces_only_the_default_fault() {
        let zones = |s: &Settings| Settings {
            zones: 3,
            nodes: 6,
            ..s.clone()
        };
        let mut s = zones(&Settings::default());
        s.set_number(Field::OutageZone, 2);
        assert!(!s.has_fault(), "the default crash goes: {:?}", s.fault);
        assert_eq!(s.down_nodes(), s.outage_nodes());
        assert_eq!(s.down_nodes(), vec![1, 4]);
        s.set_fault_kind(ActionKind::KubeletStop);
        s.set_number(Field::OutageZone, 3);
        assert_eq!(
            (s.fault.kind, s.fault.count),
            (ActionKind::KubeletStop, 1),
            "chosen after: it stays"
        );
        for chosen in [Field::FaultNode, Field::FaultAt] {
            let mut s = zones(&Settings::default());
            s.set_number(chosen, 2);
            s.set_number(Field::OutageZone, 1);
            assert!(s.has_fault(), "{chosen:?} chosen first: the fault stays");
        }
        let mut s = zones(&Settings::default());
        s.set_number(Field::OutageZone, 0);
        assert!(s.has_fault(), "no zone chosen: the default fault stays");
    }
}

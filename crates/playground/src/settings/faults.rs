//! The fault the user injects, a zone outage beside it, and the operator's actions: the
//! settings' events.

use super::{action, node_name, Settings, MAX_NODES, ZONES};
use kubelife_engine::scenario::cloud::Provider;
use kubelife_engine::scenario::{ActionKind, ActionSection, GoDuration};
use kubelife_engine::time::SECOND;
use serde::{Deserialize, Serialize};

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
    /// How many nodes fail together, from `node` on (a zone outage is several); 0 for no
    /// single-node fault (a zone outage alone, or a cluster left alone).
    #[serde(default = "one")]
    pub count: u32,
    /// A SpotInterruption's `notice`, s; `None` for the provider's (AWS 2m0s, GCP and Azure
    /// 30s).
    #[serde(default)]
    pub notice_seconds: Option<u32>,
}

/// The longest spot interruption notice the page offers, s.
pub const MAX_NOTICE_SECONDS: u32 = 600;

fn one() -> u32 {
    1
}

/// Every node of one zone losing power at once (NodeCrash), and coming back, if ever.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ZoneOutage {
    /// Index of the zone in [`ZONES`] (0 is zone-a).
    pub zone: u32,
    /// When its nodes crash, s.
    pub at_seconds: u32,
    /// When they all recover (NodeRecover), if ever, s.
    pub end_seconds: Option<u32>,
}

impl ZoneOutage {
    /// Its zone's name.
    pub fn zone_name(self) -> &'static str {
        ZONES.get(self.zone as usize).copied().unwrap_or("")
    }
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

impl Settings {
    /// The fault's and the zone outage's events, each node's followed by the out-of-service taint
    /// when an operator adds it. A node the fault already crashes (or recovers) at the outage's
    /// time gets no second, identical event.
    pub(super) fn fault_events(&self) -> Vec<ActionSection> {
        let on = |i: u32, at: u32, kind| ActionSection {
            node: Some(node_name(i)),
            ..action(at, kind)
        };
        let failed = self.failed_nodes();
        let recover = self.fault.recover_at_seconds.filter(|&r| r >= self.fault.at_seconds);
        let oos = self.ops.out_of_service_at_seconds;
        let mut events = Vec::new();
        let notice = self
            .fault
            .notice_seconds
            .filter(|_| self.fault.kind == ActionKind::SpotInterruption)
            .map(|n| GoDuration(i64::from(n.min(MAX_NOTICE_SECONDS)) * SECOND));
        for &i in &failed {
            events.push(ActionSection {
                notice,
                ..on(i, self.fault.at_seconds, self.fault.kind)
            });
            if let Some(r) = recover {
                events.push(on(i, r, ActionKind::NodeRecover));
            }
            if let Some(at) = oos {
                events.push(on(i, at, ActionKind::OutOfServiceTaint));
            }
        }
        let Some(z) = self.zone_outage else {
            return events;
        };
        let end = z.end_seconds.filter(|&e| e >= z.at_seconds);
        let same_crash = self.fault.kind == ActionKind::NodeCrash && self.fault.at_seconds == z.at_seconds;
        for i in self.outage_nodes() {
            let also_failed = failed.binary_search(&i).is_ok();
            if !(also_failed && same_crash) {
                events.push(on(i, z.at_seconds, ActionKind::NodeCrash));
            }
            if let Some(e) = end.filter(|&e| !(also_failed && recover == Some(e))) {
                events.push(on(i, e, ActionKind::NodeRecover));
            }
            if let Some(at) = oos.filter(|_| !also_failed) {
                events.push(on(i, at, ActionKind::OutOfServiceTaint));
            }
        }
        events
    }

    /// The operator's actions and the control plane's events.
    pub(super) fn ops_events(&self) -> Vec<ActionSection> {
        let mut events = Vec::new();
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
        events
    }

    /// The spot interruption's notice the page shows, s: the set one or the provider's (AWS's
    /// without a cloud, as the engine takes it).
    pub fn spot_notice_seconds(&self) -> u32 {
        self.fault
            .notice_seconds
            .unwrap_or_else(|| (self.cloud.unwrap_or(Provider::Aws).spot_notice() / SECOND) as u32)
    }

    /// The 0-based indices of the nodes the fault takes down: `count` nodes from `fault.node` on,
    /// within the cluster (none when `count` is 0).
    pub fn failed_nodes(&self) -> Vec<u32> {
        let last = self.node_count() - 1;
        (self.fault.node.min(last)..=last)
            .take(self.fault.count.min(MAX_NODES) as usize)
            .collect()
    }

    /// Whether a single-node fault is set (`fault.count` above 0).
    pub fn has_fault(&self) -> bool {
        self.fault.count > 0
    }

    /// The 0-based indices of the nodes the zone outage takes down: every node of its zone
    /// (none when the cluster has no such zone).
    pub fn outage_nodes(&self) -> Vec<u32> {
        let zones = self.zone_count();
        match self.zone_outage {
            Some(z) if z.zone < zones => (z.zone..self.node_count()).step_by(zones as usize).collect(),
            _ => Vec::new(),
        }
    }

    /// Every node the fault or the zone outage takes down, in order.
    pub fn down_nodes(&self) -> Vec<u32> {
        let mut all = self.failed_nodes();
        all.extend(self.outage_nodes());
        kubelife_engine::order::sort(&mut all);
        all.dedup();
        all
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kubelife_engine::scenario::Scenario;

    /// The nodes an action of `kind` names at `seconds`.
    fn named(s: &Scenario, kind: ActionKind, seconds: i64) -> Vec<String> {
        s.events
            .iter()
            .filter(|e| e.action == kind && e.at.0 == seconds * SECOND)
            .filter_map(|e| e.node.clone())
            .collect()
    }

    #[test]
    fn a_zone_outage_crashes_and_recovers_every_node_of_its_zone() {
        let mut s = Settings {
            nodes: 10,
            zones: 3,
            zone_outage: Some(ZoneOutage {
                zone: 1,
                at_seconds: 120,
                end_seconds: Some(600),
            }),
            ..Settings::default()
        };
        assert_eq!(s.outage_nodes(), [1, 4, 7]);
        assert_eq!(s.down_nodes(), [0, 1, 4, 7]);
        let zone_b = ["node-2", "node-5", "node-8"];
        assert_eq!(named(&s.scenario(), ActionKind::NodeCrash, 120), zone_b);
        assert_eq!(named(&s.scenario(), ActionKind::NodeRecover, 600), zone_b);
        assert!(s.resolve().1.is_none());
        // The fault crashing node-2 at the same time is not repeated; the out-of-service taint
        // reaches every node that is down.
        s.fault.node = 1;
        s.fault.at_seconds = 120;
        s.ops.out_of_service_at_seconds = Some(300);
        assert_eq!(named(&s.scenario(), ActionKind::NodeCrash, 120), zone_b);
        assert_eq!(named(&s.scenario(), ActionKind::OutOfServiceTaint, 300).len(), 3);
        // Fewer zones move the outage to the last one; a zone the cluster lacks takes no node.
        s.set_zones(1);
        assert_eq!(s.zone_outage.map(|z| z.zone), Some(0));
        s.zones = 3;
        s.zone_outage = Some(ZoneOutage {
            zone: 7,
            at_seconds: 10,
            end_seconds: None,
        });
        assert!(s.outage_nodes().is_empty());
    }
}

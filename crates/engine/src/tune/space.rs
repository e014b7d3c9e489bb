//! The settings a search varies, the values people use for them, and the relations upstream
//! requires between them.
//!
//! The chain from a dead node to its pods' replacements moves with the kubelet's heartbeat
//! (`nodeStatusUpdateFrequency`), how often and how patiently the node lifecycle controller looks
//! (`--node-monitor-period`, `--node-monitor-grace-period`) and how long pods tolerate the taint
//! (`--default-not-ready-toleration-seconds` and `--default-unreachable-toleration-seconds`,
//! moved together, with the workloads' own `tolerationSeconds` when the scenario writes them), or
//! without taint-based eviction `--pod-eviction-timeout`. A setting the version lacks is not
//! varied (the flag catalogue's availability).

use crate::api::{Effect, Toleration, TAINT_NOT_READY, TAINT_UNREACHABLE};
use crate::scenario::flags::{
    self, Flag, Unit, Value, DEFAULT_NOT_READY_TOLERATION_SECONDS, DEFAULT_UNREACHABLE_TOLERATION_SECONDS,
    NODE_MONITOR_GRACE_PERIOD, NODE_MONITOR_PERIOD, NODE_STATUS_REPORT_FREQUENCY, NODE_STATUS_UPDATE_FREQUENCY,
    POD_EVICTION_TIMEOUT,
};
use crate::scenario::{Config, Scenario};
use crate::time::{parse_go_duration, Millis, SECOND};
use std::collections::BTreeMap;

/// The ratio of grace period to update frequency the search keeps to, the page's (see
/// [`crate::advice::GRACE_PER_UPDATE`]).
pub use crate::advice::GRACE_PER_UPDATE;

/// The name of the pod spec's own field, for the workloads' `tolerationSeconds`.
pub const TOLERATION_SECONDS: &str = "tolerationSeconds";

/// `nodeStatusUpdateFrequency` values people use, ms (kubespray's 4s and 20s, the default 10s).
const UPDATE: [Millis; 5] = [2 * SECOND, 4 * SECOND, 5 * SECOND, 10 * SECOND, 20 * SECOND];
/// `--node-monitor-period` values, ms (kubespray's 2s, the default 5s).
const PERIOD: [Millis; 3] = [SECOND, 2 * SECOND, 5 * SECOND];
/// `--node-monitor-grace-period` values, ms (kubespray's 20s, the defaults 40s and 50s).
const GRACE: [Millis; 6] = [
    16 * SECOND,
    20 * SECOND,
    30 * SECOND,
    40 * SECOND,
    50 * SECOND,
    60 * SECOND,
];
/// Toleration seconds (kubespray's 30 and 60, the default 300).
const TOLERATION: [i64; 6] = [0, 10, 30, 60, 120, 300];
/// `--pod-eviction-timeout` values, ms (kubespray's 30s and 1m, the default 5m).
const EVICTION_TIMEOUT: [Millis; 5] = [10 * SECOND, 30 * SECOND, 60 * SECOND, 120 * SECOND, 300 * SECOND];

/// An update frequency value meaning "as the scenario has it, with its report frequency": with
/// Leases an unchanged status is patched only every `nodeStatusReportFrequency` (5m0s by
/// default), which writing `nodeStatusUpdateFrequency` alone would bring down to it.
pub const KEEP: Millis = 0;

/// One setting a search varies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Knob {
    /// `nodeStatusUpdateFrequency`, ms.
    UpdateFrequency,
    /// `--node-monitor-period`, ms.
    MonitorPeriod,
    /// `--node-monitor-grace-period`, ms.
    GracePeriod,
    /// The default not-ready and unreachable tolerations (and the workloads' own), seconds.
    Tolerations,
    /// `--pod-eviction-timeout` (the legacy eviction path), ms.
    EvictionTimeout,
}

impl Knob {
    /// The catalogue's flag it writes.
    pub fn flag(self) -> &'static Flag {
        match self {
            Knob::UpdateFrequency => &NODE_STATUS_UPDATE_FREQUENCY,
            Knob::MonitorPeriod => &NODE_MONITOR_PERIOD,
            Knob::GracePeriod => &NODE_MONITOR_GRACE_PERIOD,
            Knob::Tolerations => &DEFAULT_NOT_READY_TOLERATION_SECONDS,
            Knob::EvictionTimeout => &POD_EVICTION_TIMEOUT,
        }
    }

    fn grid(self) -> Vec<i64> {
        match self {
            Knob::UpdateFrequency => UPDATE.to_vec(),
            Knob::MonitorPeriod => PERIOD.to_vec(),
            Knob::GracePeriod => GRACE.to_vec(),
            Knob::Tolerations => TOLERATION.to_vec(),
            Knob::EvictionTimeout => EVICTION_TIMEOUT.to_vec(),
        }
    }

    /// Its value in `cfg` (ms, or seconds for tolerations).
    pub(crate) fn read(self, cfg: &Config) -> i64 {
        match self.flag().read(cfg) {
            Value::Duration(ms) => ms,
            Value::Int(i) => i,
            _ => 0,
        }
    }
}

/// A setting's name as the flag catalogue spells it upstream: a kubelet setting by its
/// KubeletConfiguration field (`nodeStatusUpdateFrequency`), any other by its flag
/// (`--node-monitor-grace-period`).
pub fn setting_name(f: &Flag) -> String {
    match f.file {
        Some(file) if f.component == flags::Component::Kubelet => file.field.to_string(),
        _ => format!("--{}", f.name),
    }
}

/// The settings a search varies on one configuration, with the values each may take there.
#[derive(Debug, Clone, PartialEq)]
pub struct Space {
    /// The settings varied and their values (ms for spans, seconds for tolerations).
    pub axes: Vec<(Knob, Vec<i64>)>,
    /// Whether the workloads write their own not-ready/unreachable `tolerationSeconds`, moved
    /// with the defaults.
    pub workload_tolerations: bool,
    /// Whether `nodeStatusReportFrequency` follows the update frequency (a file that sets the
    /// update frequency but not the report frequency, `SetDefaults_KubeletConfiguration`), so
    /// that a candidate's report frequency is its update frequency.
    pub report_follows: bool,
    /// The Lease renew interval, ms, when kubelets renew Leases.
    pub lease_renew: Option<Millis>,
}

/// One toleration a knob moves: NoExecute on the not-ready or unreachable taint with seconds.
fn moved(t: &Toleration) -> bool {
    t.toleration_seconds.is_some()
        && t.effect.is_none_or(|e| e == Effect::NoExecute)
        && (t.key == TAINT_NOT_READY || t.key == TAINT_UNREACHABLE || (t.key.is_empty() && t.exists))
}

impl Space {
    /// The space of `cfg`'s version and scenario.
    pub fn of(cfg: &Config) -> Space {
        let p = &cfg.profile;
        let tbe = cfg.controller_manager.taint_based_evictions;
        let mut knobs = vec![Knob::UpdateFrequency, Knob::MonitorPeriod, Knob::GracePeriod];
        knobs.push(if tbe { Knob::Tolerations } else { Knob::EvictionTimeout });
        let mut axes: Vec<(Knob, Vec<i64>)> = knobs
            .into_iter()
            .filter(|k| k.flag().offered(p))
            .map(|k| {
                let f = k.flag();
                let values = k
                    .grid()
                    .into_iter()
                    .filter(|&v| {
                        let value = if f.unit == Unit::Duration {
                            Value::Duration(v)
                        } else {
                            Value::Int(v)
                        };
                        let n = value.number().unwrap_or(0.0);
                        f.rule.check(value).is_ok() && (f.range.0..=f.range.1).contains(&n)
                    })
                    .collect();
                (k, values)
            })
            .collect();
        let d = Config::defaults(p.version).kubelet;
        let k = &cfg.kubelet;
        let report_follows = k.node_status_report_frequency == k.node_status_update_frequency
            || (k.node_status_report_frequency == d.node_status_report_frequency
                && k.node_status_update_frequency == d.node_status_update_frequency);
        // With Leases, keeping the scenario's update and report frequencies is a choice of its
        // own: it is the only one whose status patches stay at the report frequency.
        let keep = k.node_lease
            && NODE_STATUS_REPORT_FREQUENCY.offered(p)
            && k.node_status_report_frequency != k.node_status_update_frequency;
        if keep {
            if let Some((_, values)) = axes.iter_mut().find(|(k, _)| *k == Knob::UpdateFrequency) {
                values.push(KEEP);
            }
        }
        Space {
            axes,
            workload_tolerations: tbe && cfg.workloads.iter().any(|w| w.tolerations.iter().any(moved)),
            report_follows,
            lease_renew: k.node_lease.then_some(k.lease_renew_interval),
        }
    }

    /// Every combination of the axes' values that meets the relations, in a fixed order.
    pub fn candidates(&self, cfg: &Config) -> Vec<Vec<i64>> {
        let mut all: Vec<Vec<i64>> = vec![Vec::new()];
        for (_, values) in &self.axes {
            all = all
                .into_iter()
                .flat_map(|head| {
                    values.iter().map(move |&v| {
                        let mut c = head.clone();
                        c.push(v);
                        c
                    })
                })
                .collect();
        }
        all.into_iter().filter(|c| self.admits(cfg, c)).collect()
    }

    /// The value of `knob` in a candidate, or in `cfg` when it is not varied.
    fn value(&self, cfg: &Config, values: &[i64], knob: Knob) -> i64 {
        match self.axes.iter().position(|(k, _)| *k == knob) {
            Some(i) if !(knob == Knob::UpdateFrequency && values[i] == KEEP) => values[i],
            _ => knob.read(cfg),
        }
    }

    /// Whether a candidate meets the relations: `--node-monitor-grace-period` at least
    /// [`GRACE_PER_UPDATE`] times `nodeStatusUpdateFrequency` (the flag's help), the monitor
    /// period no longer than the grace period (a pass must come within it), and with Leases a
    /// grace period over the renew interval (`nodeLeaseDurationSeconds` / 4 since 1.16), which
    /// would otherwise mark healthy nodes Unknown between two renewals.
    pub fn admits(&self, cfg: &Config, values: &[i64]) -> bool {
        let update = self.value(cfg, values, Knob::UpdateFrequency);
        let period = self.value(cfg, values, Knob::MonitorPeriod);
        let grace = self.value(cfg, values, Knob::GracePeriod);
        grace >= GRACE_PER_UPDATE * update && period <= grace && self.lease_renew.is_none_or(|r| grace > r)
    }

    /// Writes a candidate's values into a configuration, as resolving the scenario
    /// [`super::apply`] writes would: the report frequency follows the update frequency when it
    /// did in `cfg`. `workloads`: also the workloads' own tolerations.
    pub fn write(&self, cfg: &mut Config, values: &[Option<i64>], workloads: bool) {
        for ((knob, _), v) in self.axes.iter().zip(values) {
            let Some(v) = *v else { continue };
            match knob {
                Knob::UpdateFrequency if v == KEEP => {}
                Knob::UpdateFrequency => {
                    cfg.kubelet.node_status_update_frequency = v;
                    if self.report_follows {
                        cfg.kubelet.node_status_report_frequency = v;
                    }
                }
                Knob::MonitorPeriod => cfg.controller_manager.node_monitor_period = v,
                Knob::GracePeriod => cfg.controller_manager.node_monitor_grace_period = v,
                Knob::EvictionTimeout => cfg.controller_manager.pod_eviction_timeout = v,
                Knob::Tolerations => {
                    cfg.api_server.default_not_ready_toleration_seconds = v;
                    cfg.api_server.default_unreachable_toleration_seconds = v;
                    if workloads && self.workload_tolerations {
                        let all = cfg.workloads.iter_mut().flat_map(|w| w.tolerations.iter_mut());
                        all.filter(|t| moved(t)).for_each(|t| t.toleration_seconds = Some(v));
                    }
                }
            }
        }
    }

    /// The settings a written candidate stands for, by upstream name, each as its flag takes it;
    /// with the report frequency it resolves to, so that applying them gives the same
    /// configuration whatever the scenario wrote.
    pub fn settings(&self, cfg: &Config, workloads: bool) -> BTreeMap<String, String> {
        let mut out = BTreeMap::new();
        let mut put = |f: &Flag| {
            out.insert(setting_name(f), f.read(cfg).to_string());
        };
        for (knob, _) in &self.axes {
            match knob {
                Knob::UpdateFrequency => {
                    put(knob.flag());
                    if NODE_STATUS_REPORT_FREQUENCY.offered(&cfg.profile) {
                        put(&NODE_STATUS_REPORT_FREQUENCY);
                    }
                }
                Knob::Tolerations => {
                    put(&DEFAULT_NOT_READY_TOLERATION_SECONDS);
                    put(&DEFAULT_UNREACHABLE_TOLERATION_SECONDS);
                }
                k => put(k.flag()),
            }
        }
        if workloads && self.workload_tolerations {
            let seconds = cfg.api_server.default_not_ready_toleration_seconds;
            out.insert(TOLERATION_SECONDS.to_string(), seconds.to_string());
        }
        out
    }
}

/// Writes settings named as [`Space::settings`] names them into a scenario through the flag
/// catalogue; `tolerationSeconds` goes to every workload toleration of the not-ready or
/// unreachable taint that has seconds. A name no flag has, or a value its flag cannot read, is
/// left out.
pub fn write_settings(s: &mut Scenario, settings: &BTreeMap<String, String>) {
    for (name, text) in settings {
        if name == TOLERATION_SECONDS {
            let Ok(seconds) = text.parse::<i64>() else { continue };
            for t in s.workloads.iter_mut().flat_map(|w| w.tolerations.iter_mut()) {
                let key = t.key == TAINT_NOT_READY || t.key == TAINT_UNREACHABLE || t.key.is_empty();
                if key && t.toleration_seconds.is_some() {
                    t.toleration_seconds = Some(seconds);
                }
            }
            continue;
        }
        let Some(f) = flags::ALL.iter().find(|f| setting_name(f) == *name) else {
            continue;
        };
        let value = match f.unit {
            Unit::Duration => parse_go_duration(text).ok().map(Value::Duration),
            Unit::Seconds | Unit::Count => text.parse::<i64>().ok().map(Value::Int),
            _ => None,
        };
        if let Some(v) = value {
            f.put(s, v);
        }
    }
}

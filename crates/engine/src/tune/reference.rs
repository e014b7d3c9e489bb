//! The reference profiles placed on the same axes as the candidates: the version's defaults and
//! kubespray's three (`docs/operations/kubernetes-reliability.md`: fast update and fast
//! reaction, medium update and average reaction, low update and slow reaction), whose
//! tolerations replace `--pod-eviction-timeout` on versions that evict by taint.

use super::point::Point;
use super::space::{Knob, Space};
use crate::scenario::Config;
use crate::time::SECOND;
use serde::{Deserialize, Serialize};

/// A named profile, measured as the candidates are.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Reference {
    /// `defaults`, `kubespray-fast`, `kubespray-medium` or `kubespray-low`.
    pub name: String,
    /// Its settings and what they gave.
    #[serde(flatten)]
    pub point: Point,
}

/// kubespray's profiles: `nodeStatusUpdateFrequency`, `--node-monitor-period`,
/// `--node-monitor-grace-period` (ms), the default tolerations (s) and `--pod-eviction-timeout`
/// (ms).
const KUBESPRAY: [(&str, [i64; 5]); 3] = [
    ("kubespray-fast", [4 * SECOND, 2 * SECOND, 20 * SECOND, 30, 30 * SECOND]),
    (
        "kubespray-medium",
        [20 * SECOND, 5 * SECOND, 120 * SECOND, 60, 60 * SECOND],
    ),
    (
        "kubespray-low",
        [60 * SECOND, 5 * SECOND, 300 * SECOND, 60, 60 * SECOND],
    ),
];

/// Where a knob's value sits in [`KUBESPRAY`]'s rows.
fn column(k: Knob) -> usize {
    match k {
        Knob::UpdateFrequency => 0,
        Knob::MonitorPeriod => 1,
        Knob::GracePeriod => 2,
        Knob::Tolerations => 3,
        Knob::EvictionTimeout => 4,
    }
}

/// The references' names and configurations: `cfg` with the space's settings at each profile's
/// values (the workloads' own tolerations are left as the scenario writes them).
pub fn configs(cfg: &Config, space: &Space) -> Vec<(String, Config)> {
    let defaults = Config::defaults(cfg.profile.version);
    let mut out = Vec::new();
    let mut d = cfg.clone();
    let values: Vec<Option<i64>> = space.axes.iter().map(|(k, _)| Some(k.read(&defaults))).collect();
    space.write(&mut d, &values, false);
    // The defaults leave nodeStatusUpdateFrequency unset, so the report frequency keeps its own.
    d.kubelet.node_status_report_frequency = defaults.kubelet.node_status_report_frequency;
    out.push(("defaults".to_string(), d));
    for (name, row) in KUBESPRAY {
        let mut c = cfg.clone();
        let values: Vec<Option<i64>> = space.axes.iter().map(|(k, _)| Some(row[column(*k)])).collect();
        space.write(&mut c, &values, false);
        out.push((name.to_string(), c));
    }
    out
}

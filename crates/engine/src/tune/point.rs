//! What a search reports of one set of settings: its milestones over seeds, its targets'
//! percentiles, its heartbeat cost, whether a blip leaves it alone and the warnings the page
//! shows for it.

use super::goal::Goal;
use super::target::percentile;
use crate::cause::Cause;
use crate::stats::Spread;
use crate::time::Millis;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A milestone's percentiles over every run (nearest rank, a run without it counted as later
/// than all the others), ms from the fault; `None` when the rank falls among those runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Percentiles {
    /// The median.
    pub p50: Option<Millis>,
    /// The 95th percentile.
    pub p95: Option<Millis>,
    /// The latest run.
    pub max: Option<Millis>,
}

impl Percentiles {
    /// The percentiles of a spread.
    pub fn of(s: &Spread) -> Percentiles {
        Percentiles {
            p50: percentile(s, 50),
            p95: percentile(s, 95),
            max: percentile(s, 100),
        }
    }
}

/// One set of settings, measured.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Point {
    /// Each setting by its upstream name (`--node-monitor-grace-period`,
    /// `nodeStatusUpdateFrequency`) and its value as the flag takes it (`20s`, `300`).
    pub settings: BTreeMap<String, String>,
    /// Each milestone the scenario reaches, by the name `kubelife run --runs` reports.
    pub milestones: BTreeMap<String, Percentiles>,
    /// Each goal target's percentile, ms, in the goal's order.
    pub targets: Vec<Option<Millis>>,
    /// Lease updates and node status patches per minute at the goal's cluster size.
    pub writes_per_minute: f64,
    /// Whether no seed's blip tainted the node NoExecute or deleted a pod (`true` when the goal
    /// asks no blip check).
    pub blip_safe: bool,
    /// Whether it meets every target, the writes limit and (when asked) blip safety.
    pub meets: bool,
    /// The seeds it was measured on (the goal's, or fewer for a candidate a first pass left
    /// behind).
    pub seeds: u32,
    /// The warnings the page shows for these settings (`advice::tuning_warnings`).
    pub warnings: Vec<Warning>,
}

/// A warning the page shows for a point's settings. In JSON it is `{"key", "text"}`: the
/// catalogue's key and the English text; between the page's workers (bincode) it keeps its
/// arguments in the engine's wire form, so the page can show it in its own language
/// ([`crate::wire::message`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Warning(#[serde(with = "crate::wire::message")] pub Cause);

impl Warning {
    /// The warnings the page shows for `cfg`'s settings.
    pub fn of(cfg: &crate::scenario::Config) -> Vec<Warning> {
        crate::advice::tuning_warnings(cfg).into_iter().map(Warning).collect()
    }

    /// Its catalogue key (`ui.warn.grace_1_32`).
    pub fn key(&self) -> &'static str {
        self.0.key
    }
}

impl Point {
    /// Whether the point meets `goal`, from its measured values.
    pub fn meets_goal(&self, goal: &Goal) -> bool {
        let targets = goal
            .targets
            .iter()
            .zip(&self.targets)
            .all(|(t, v)| v.is_some_and(|v| v <= t.within));
        let writes = goal.max_writes_per_minute.is_none_or(|w| self.writes_per_minute <= w);
        targets && writes && (goal.blip.is_none() || self.blip_safe)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_warning_is_key_and_text_in_json_and_whole_between_workers() {
        let w = Warning(
            Cause::new("ui.warn.flapping")
                .time("grace", 20_000)
                .time("heartbeat", 10_000),
        );
        let json = serde_json::to_value(&w).unwrap();
        assert_eq!(json["key"], "ui.warn.flapping");
        assert!(
            json["text"]
                .as_str()
                .unwrap()
                .starts_with("--node-monitor-grace-period 20s is under"),
            "{json}"
        );
        let back: Warning = bincode::deserialize(&bincode::serialize(&w).unwrap()).unwrap();
        assert_eq!(back, w);
        assert!(serde_json::from_value::<Warning>(json).is_err());
    }
}

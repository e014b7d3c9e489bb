//! The Tune panel's logic: a point the engine's search found (`kubelife_engine::tune`), whose
//! settings are named by their upstream flags and fields (`--node-monitor-grace-period` → `20s`,
//! `nodeStatusUpdateFrequency` → `4s`), applied to the page's settings through the sliders'
//! view of the flag catalogue (`knobs`), so that the controls move and the link carries it.

use crate::knobs::{Knob, Unit, KNOBS};
use crate::settings::Settings;
use kubelife_engine::time::parse_go_duration;
use kubelife_engine::tune::{Goal, Point, Target, Tuned};
use kubelife_engine::{Cause, Millis};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

pub use kubelife_engine::tune::goal::{DEFAULT_BLIP, DEFAULT_SEEDS};

/// What the Tune panel asks the engine's worker to search for, as the worker's messages carry
/// it: the targets in the link's form, the writes ceiling at a cluster size, the blip.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Ask {
    /// The targets, `firstReplacementReady:1m0s:p95`.
    pub targets: Vec<String>,
    /// The most heartbeat writes per minute.
    pub max_writes_per_minute: Option<f64>,
    /// The cluster size the writes are counted at (else the scenario's).
    pub nodes: Option<u32>,
    /// The blip to ride out, ms (else the default 20s).
    pub blip: Option<Millis>,
    /// Seeds per candidate.
    pub seeds: u32,
}

impl Ask {
    /// The panel's question: these targets and constraints, over [`DEFAULT_SEEDS`] seeds.
    pub fn new(
        targets: &[Target],
        max_writes_per_minute: Option<f64>,
        nodes: Option<u32>,
        blip: Option<Millis>,
    ) -> Ask {
        Ask {
            targets: targets.iter().map(Target::link_text).collect(),
            max_writes_per_minute,
            nodes,
            blip,
            seeds: DEFAULT_SEEDS,
        }
    }

    /// The engine's goal.
    pub fn goal(&self) -> Result<Goal, Cause> {
        let targets = self
            .targets
            .iter()
            .map(|t| Target::parse_link(t))
            .collect::<Result<_, _>>()?;
        Ok(Goal {
            targets,
            max_writes_per_minute: self.max_writes_per_minute,
            nodes: self.nodes,
            blip: Some(self.blip.unwrap_or(DEFAULT_BLIP)),
            seeds: self.seeds,
        })
    }
}

/// What a search found, as the worker hands it to the page (the engine's [`Tuned`] with each
/// reference as its name and point, which the workers' codec carries).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Found {
    /// The Pareto front.
    pub front: Vec<Point>,
    /// The best point: the cheapest that meets every target.
    pub best: Option<Point>,
    /// The version's defaults and kubespray's profiles, by name.
    pub references: Vec<(String, Point)>,
    /// Every candidate measured.
    pub candidates: Vec<Point>,
}

impl From<Tuned> for Found {
    fn from(t: Tuned) -> Found {
        Found {
            front: t.front,
            best: t.best,
            references: t.references.into_iter().map(|r| (r.name, r.point)).collect(),
            candidates: t.candidates,
        }
    }
}

/// The slider a setting of a point names: by its flag (`--node-monitor-grace-period`), its
/// configuration file's field (`nodeStatusUpdateFrequency`) or the catalogue's own name.
pub fn knob_for(key: &str) -> Option<&'static Knob> {
    let bare = key.strip_prefix("--").unwrap_or(key);
    KNOBS
        .iter()
        .find(|k| k.flag == bare || k.def.file.is_some_and(|f| f.field == key))
}

/// A setting's value as the slider's number: a Go duration (or plain seconds) for spans, a
/// number otherwise.
pub fn knob_value(k: &Knob, text: &str) -> Option<f64> {
    match k.unit {
        Unit::Seconds => parse_go_duration(text)
            .ok()
            .map(|ms| ms as f64 / 1000.0)
            .or_else(|| crate::decimal::decimal(text)),
        Unit::Count | Unit::Rate | Unit::Fraction => crate::decimal::decimal(text),
    }
}

/// `base` with a point's settings applied, and the settings the page has no control for (by
/// name), which it leaves as they were.
pub fn apply(base: &Settings, settings: &BTreeMap<String, String>) -> (Settings, Vec<String>) {
    let mut s = base.clone();
    let mut left = Vec::new();
    for (key, text) in settings {
        match knob_for(key).and_then(|k| Some((k, knob_value(k, text)?))) {
            Some((k, v)) => s.set(k.flag, v),
            None => left.push(key.clone()),
        }
    }
    (s, left)
}

/// How a point's setting reads: a flag as its command line writes it (`--node-monitor-grace-period=20s`),
/// a file's field as the file does (`nodeStatusUpdateFrequency: 4s`).
pub fn setting_text(key: &str, value: &str) -> String {
    if key.starts_with("--") {
        format!("{key}={value}")
    } else {
        format!("{key}: {value}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_panels_question_is_the_engines_goal() {
        let t = Target::parse_link("firstReplacementReady:60s:p95").unwrap();
        let ask = Ask::new(&[t], Some(300.0), Some(100), None);
        let goal = ask.goal().unwrap();
        assert_eq!(goal.targets, [t]);
        assert_eq!((goal.max_writes_per_minute, goal.nodes), (Some(300.0), Some(100)));
        assert_eq!((goal.blip, goal.seeds), (Some(DEFAULT_BLIP), DEFAULT_SEEDS));
        let short = Ask {
            blip: Some(5_000),
            ..ask.clone()
        };
        assert_eq!(short.goal().unwrap().blip, Some(5_000));
        let bad = Ask {
            targets: vec!["nope:1s".into()],
            ..ask
        };
        assert_eq!(bad.goal().unwrap_err().key, "tune.target.milestone");
    }

    #[test]
    fn a_points_flags_and_fields_move_the_sliders_and_the_link_carries_them() {
        let point: BTreeMap<String, String> = [
            ("--node-monitor-grace-period", "20s"),
            ("--node-monitor-period", "2s"),
            ("nodeStatusUpdateFrequency", "4s"),
            ("--default-unreachable-toleration-seconds", "30"),
            ("someoneElsesField", "1m0s"),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
        let (s, left) = apply(&Settings::default(), &point);
        assert_eq!(left, ["someoneElsesField"]);
        let o = |f: &str| s.overrides.get(f).copied();
        assert_eq!(o("node-monitor-grace-period"), Some(20.0));
        assert_eq!(o("node-monitor-period"), Some(2.0));
        assert_eq!(o("node-status-update-frequency"), Some(4.0));
        assert_eq!(o("default-unreachable-toleration-seconds"), Some(30.0));
        let (cfg, _) = s.resolve();
        assert_eq!(cfg.controller_manager.node_monitor_grace_period, 20_000);
        let link = crate::link::encode(&s, Default::default());
        for part in [
            "node-monitor-grace-period=20s",
            "node-status-update-frequency=4s",
            "default-unreachable-toleration-seconds=30",
        ] {
            assert!(link.contains(part), "{part} in {link}");
        }
        assert_eq!(crate::link::decode(&link).settings, s);
        assert_eq!(
            setting_text("--node-monitor-grace-period", "20s"),
            "--node-monitor-grace-period=20s"
        );
        assert_eq!(
            setting_text("nodeStatusUpdateFrequency", "4s"),
            "nodeStatusUpdateFrequency: 4s"
        );
    }
}

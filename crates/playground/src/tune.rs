//! The Tune panel's logic: a point the engine's search found (`kubelife_engine::tune`), whose
//! settings are named by their upstream flags and fields (`--node-monitor-grace-period` → `20s`,
//! `nodeStatusUpdateFrequency` → `4s`), applied to the page's settings through the sliders'
//! view of the flag catalogue (`knobs`), so that the controls move and the link carries it.

use crate::i18n::truncate;
use crate::knobs::{Knob, Unit, KNOBS};
use crate::settings::Settings;
use kubelife_engine::time::{format_go_duration, parse_go_duration};
use kubelife_engine::tune::{Goal, Point, Target, Tuned};
use kubelife_engine::{Cause, Millis};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

pub use kubelife_engine::tune::goal::{DEFAULT_BLIP, DEFAULT_SEEDS};

/// The most targets a link (and the Tune panel) carries.
pub const MAX_TARGETS: usize = 4;

/// The longest network blip a link asks the search to ride out, ms (10 minutes).
pub const MAX_BLIP: Millis = 600_000;

/// What the reader asks of the runs, as the link carries it: the SLO targets the page judges
/// runs by (`target=`), and the Tune panel's constraints: the blip to ride out (`blip=`) and the
/// heartbeat writes ceiling (`max-writes-per-min=`) at a cluster size (`writes-at-nodes=`).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Question {
    /// The targets, at most [`MAX_TARGETS`].
    pub targets: Vec<Target>,
    /// The blip to ride out, ms (`None`: the default 20s).
    pub blip: Option<Millis>,
    /// The most heartbeat writes per minute (`None`: no ceiling).
    pub max_writes: Option<f64>,
    /// The cluster size the writes are counted at (`None`: the scenario's).
    pub writes_nodes: Option<u32>,
}

/// A field of the Tune panel, which text typed into it sets.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Field {
    /// The milestone of the target in this row.
    Milestone(usize),
    /// The duration of the target in this row.
    Within(usize),
    /// The percentile of the target in this row.
    Percentile(usize),
    Blip,
    Writes,
    Nodes,
}

impl Question {
    /// The worker's question: these targets and constraints, over [`DEFAULT_SEEDS`] seeds.
    pub fn ask(&self) -> Ask {
        Ask::new(&self.targets, self.max_writes, self.writes_nodes, self.blip)
    }

    /// Sets `field` from the text typed into it, or says why the text cannot be used (and
    /// changes nothing).
    pub fn set(&mut self, field: Field, text: &str) -> Result<(), Cause> {
        match field {
            // A row's milestone and percentile are read as the link reads a target, by the
            // engine's `Target::parse_link`, with the row's other parts as they are.
            Field::Milestone(i) => {
                let t = *self.row(i)?;
                let typed = truncate(text.trim());
                *self.row(i)? =
                    Target::parse_link(&format!("{typed}:{}:p{}", format_go_duration(t.within), t.percentile))?;
            }
            Field::Within(i) => {
                let w = read_within(text)?;
                self.row(i)?.within = w;
            }
            Field::Percentile(i) => {
                let t = *self.row(i)?;
                let typed = truncate(text.trim());
                *self.row(i)? =
                    Target::parse_link(&format!("{}:{}:p{typed}", t.milestone, format_go_duration(t.within)))?;
            }
            Field::Blip => {
                let b = read_blip(text)?;
                self.blip = (b != DEFAULT_BLIP).then_some(b);
            }
            Field::Writes => self.max_writes = read_max_writes(text)?,
            Field::Nodes => self.writes_nodes = read_writes_nodes(text)?,
        }
        Ok(())
    }

    /// The target in row `i`.
    fn row(&mut self, i: usize) -> Result<&mut Target, Cause> {
        self.targets.get_mut(i).ok_or_else(|| Cause::new("link.why.target"))
    }
}

/// A typed blip: a Go duration from 1s to 10m0s.
pub fn read_blip(text: &str) -> Result<Millis, Cause> {
    parse_go_duration(text.trim())
        .ok()
        .filter(|b| (1_000..=MAX_BLIP).contains(b))
        .ok_or_else(|| Cause::new("link.why.blip"))
}

/// A typed target duration: a Go duration, 0s or more.
pub fn read_within(text: &str) -> Result<Millis, Cause> {
    let ms = parse_go_duration(text.trim()).map_err(|e| e.reason())?;
    if ms < 0 {
        return Err(Cause::new("tune.target.negative").text("text", truncate(text.trim())));
    }
    Ok(ms)
}

/// A typed writes ceiling: writes per minute, 0 or more; blank for none.
pub fn read_max_writes(text: &str) -> Result<Option<f64>, Cause> {
    let t = text.trim();
    if t.is_empty() {
        return Ok(None);
    }
    crate::decimal::decimal(t)
        .filter(|w| w.is_finite() && *w >= 0.0)
        .map(Some)
        .ok_or_else(|| Cause::new("tune.goal.writes").text("value", truncate(t)))
}

/// A typed cluster size for the writes: a whole number of nodes, 1 or more; blank for the
/// scenario's.
pub fn read_writes_nodes(text: &str) -> Result<Option<u32>, Cause> {
    let t = text.trim();
    if t.is_empty() {
        return Ok(None);
    }
    t.parse::<u32>()
        .ok()
        .filter(|n| *n >= 1)
        .map(Some)
        .ok_or_else(|| Cause::new("tune.why.nodes").text("value", truncate(t)))
}

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

/// `s` without the knob settings that change nothing: each one whose removal leaves every knob
/// as it resolves (the version's default, where no other setting leans on it, as a kubelet
/// file's `nodeStatusReportFrequency` leans on `nodeStatusUpdateFrequency`). A point applied
/// this way puts into the link only what differs from the defaults.
pub fn without_defaults(s: &Settings) -> Settings {
    // The knobs do not depend on the cluster: resolve them on the first visit's, which is small.
    let resolved = |overrides: &BTreeMap<String, f64>| -> Option<Vec<f64>> {
        let probe = Settings {
            minor: s.minor,
            overrides: overrides.clone(),
            enable_taint_manager: s.enable_taint_manager,
            taint_based_evictions: s.taint_based_evictions,
            disable_force_detach: s.disable_force_detach,
            ..Settings::default()
        };
        let cfg = probe.scenario().resolve().ok()?;
        Some(KNOBS.iter().map(|k| (k.read)(&cfg)).collect())
    };
    let Some(want) = resolved(&s.overrides) else {
        return s.clone();
    };
    let mut out = s.clone();
    for flag in s.overrides.keys() {
        let mut fewer = out.overrides.clone();
        fewer.remove(flag);
        if resolved(&fewer).as_ref() == Some(&want) {
            out.overrides = fewer;
        }
    }
    out
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
    fn typed_constraints_are_read_or_refused_with_the_reason() {
        check_reads(&[
            ("blip", "20s", Ok("20000")),
            ("blip", " 1m ", Ok("60000")),
            ("blip", "500ms", Err("link.why.blip")),
            ("blip", "11m", Err("link.why.blip")),
            ("blip", "soon", Err("link.why.blip")),
            ("within", "1m0s", Ok("60000")),
            ("within", "0s", Ok("0")),
            ("within", "-1s", Err("tune.target.negative")),
            ("within", "60", Err("duration.no_unit")),
            ("writes", "", Ok("None")),
            ("writes", "300", Ok("Some(300.0)")),
            ("writes", "0", Ok("Some(0.0)")),
            ("writes", "-5", Err("tune.goal.writes")),
            ("writes", "lots", Err("tune.goal.writes")),
            ("nodes", "  ", Ok("None")),
            ("nodes", "5000", Ok("Some(5000)")),
            ("nodes", "0", Err("tune.why.nodes")),
            ("nodes", "2.5", Err("tune.why.nodes")),
            ("nodes", "99999999999", Err("tune.why.nodes")),
        ]);
        // A pasted page comes back as its first 40 characters.
        let why = read_max_writes(&"9x".repeat(100_000)).unwrap_err().english();
        assert!(why.ends_with("not 9x9x9x9x9x9x9x9x9x9x9x9x9x9x9x9x9x9x9x9x…"), "{why}");
    }

    #[test]
    fn a_field_typed_into_sets_the_question_or_changes_nothing() {
        let start = Question {
            targets: vec![Target::parse_link("taint:40s").unwrap()],
            ..Question::default()
        };
        let rows: &[(Field, &str, Result<&str, &str>)] = &[
            (
                Field::Milestone(0),
                "firstReplacementReady",
                Ok("firstReplacementReady:40s:p95"),
            ),
            (Field::Milestone(0), "soon", Err("tune.target.milestone")),
            (Field::Within(0), "1m", Ok("taint:1m0s:p95")),
            (Field::Within(0), "1", Err("duration.no_unit")),
            (Field::Within(1), "1m", Err("link.why.target")),
            (Field::Percentile(0), "50", Ok("taint:40s:p50")),
            (Field::Percentile(0), "0", Err("tune.target.percentile")),
            (Field::Blip, "30s", Ok("blip=30s")),
            (Field::Blip, "20s", Ok("blip=default")),
            (Field::Blip, "0s", Err("link.why.blip")),
            (Field::Writes, "600", Ok("writes=Some(600.0)")),
            (Field::Nodes, "many", Err("tune.why.nodes")),
        ];
        for (field, text, want) in rows {
            let mut q = start.clone();
            let got = q.set(*field, text).map(|()| match field {
                Field::Blip => format!(
                    "blip={}",
                    q.blip
                        .map_or("default".into(), kubelife_engine::time::format_go_duration)
                ),
                Field::Writes => format!("writes={:?}", q.max_writes),
                _ => q.targets[0].link_text(),
            });
            if got.is_err() {
                assert_eq!(q, start, "{field:?} {text:?} changed nothing");
            }
            assert_eq!(got.as_deref().map_err(|c| c.key), *want, "{field:?} {text:?}");
        }
    }

    /// Each row: the reader, the text typed, what it reads (as Debug text) or the cause's key.
    fn check_reads(rows: &[(&str, &str, Result<&str, &str>)]) {
        for (reader, text, want) in rows {
            let got = match *reader {
                "blip" => read_blip(text).map(|v| v.to_string()),
                "within" => read_within(text).map(|v| v.to_string()),
                "writes" => read_max_writes(text).map(|v| format!("{v:?}")),
                "nodes" => read_writes_nodes(text).map(|v| format!("{v:?}")),
                other => panic!("no reader {other}"),
            };
            let got = got.as_ref().map(String::as_str).map_err(|c| c.key);
            assert_eq!(got, *want, "{reader} {text:?}");
        }
    }

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

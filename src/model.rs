//! What the page shows, derived from the settings by one engine run: the [`Model`] of side A and
//! the [`Side`] B of a comparison. [`simulate`] is the one place that runs the engine for the page;
//! the reducer in `app` and the components share these types, so neither imports the other.

use crate::i18n::Lang;
use crate::link::{encode_all, Display, Playback};
use crate::replay::{lanes, Lane};
use crate::settings::Settings;
use kubelife_engine::scenario::{ActionKind, Scenario};
use kubelife_engine::{run, Config, Distribution, Millis, Outcome, RunOptions};
use std::rc::Rc;

/// Most lanes the timeline draws.
pub const MAX_LANES: usize = 60;
/// How often playback advances, in wall-clock ms.
pub const FRAME: f64 = 50.0;
/// How many seeds the distribution view runs.
pub const SPREAD_RUNS: u32 = 200;

/// Everything the page shows, derived from the settings by one engine run.
#[derive(Clone, PartialEq)]
pub struct Model {
    /// What the user set.
    pub settings: Settings,
    /// The resolved configuration.
    pub cfg: Rc<Config>,
    /// The version's defaults, for comparison.
    pub defaults: Rc<Config>,
    /// The run.
    pub outcome: Rc<Outcome>,
    /// The timeline's lanes.
    pub lanes: Rc<Vec<Lane>>,
    /// Why the settings were refused, when they were (the engine's reason).
    pub error: Option<String>,
    /// The playhead, ms.
    pub t: Millis,
    /// Whether playback runs.
    pub playing: bool,
    /// Playback speed as a power of ten (0 = 1x, 3 = 1000x).
    pub speed_exp: f64,
    /// Cluster size for the cost readout.
    pub cost_nodes: u32,
    /// What the opening link could not apply, and why.
    pub notices: Vec<kubelife_engine::Cause>,
    /// The page's language.
    pub lang: Lang,
    /// The open tour step (0-based), when the tour is showing.
    pub tour: Option<usize>,
    /// The compare side B, when comparing.
    pub b: Option<Rc<Side>>,
    /// Layout (full page or embed, panels shown).
    pub display: Display,
    /// Milestones over 200 seeds for A (and B), once asked for.
    pub spreads: Option<Rc<(Distribution, Option<Distribution>)>>,
}

/// One side of a comparison, derived from its settings by one engine run.
#[derive(Clone, PartialEq)]
pub struct Side {
    /// What the user set for this side.
    pub settings: Settings,
    /// The resolved configuration.
    pub cfg: Rc<Config>,
    /// The version's defaults, for the sliders' default marks.
    pub defaults: Rc<Config>,
    /// The run.
    pub outcome: Rc<Outcome>,
    /// The timeline's lanes.
    pub lanes: Rc<Vec<Lane>>,
}

/// A change to one side's settings, as a value; the reducer applies it and re-runs the engine.
#[derive(Debug, Clone)]
pub enum Edit {
    /// Set a knob (by flag) to a value; [`Settings::set`] clamps it to the knob's range.
    Knob(&'static str, f64),
    /// Back to the version's default for a knob.
    Reset(&'static str),
    /// Another Kubernetes version, by minor number.
    Version(u32),
    /// Start from the named preset, keeping the cluster and the fault.
    Preset(String),
    /// A whole number the function stores: a count, the failed node, a fault or operator time.
    Number(fn(&mut Settings, u32), u32),
    /// A switch of the legacy eviction path, stored by the function.
    Switch(fn(&mut Settings, bool), bool),
    /// The kind of fault.
    FaultKind(ActionKind),
    /// What the import panel read from a cluster's files (`crate::import`).
    Import(Rc<Scenario>),
}

impl Edit {
    /// Applies the change to `s`.
    pub fn apply(self, s: &mut Settings) {
        match self {
            Edit::Knob(flag, v) => s.set(flag, v),
            Edit::Reset(flag) => {
                s.overrides.remove(flag);
            }
            Edit::Version(minor) => s.minor = minor,
            Edit::Preset(name) => {
                if let Some(p) = kubelife_engine::presets::preset(&name) {
                    *s = s.from_preset(&p.scenario);
                }
            }
            Edit::Number(set, v) => set(s, v),
            Edit::Switch(set, on) => set(s, on),
            Edit::FaultKind(kind) => s.fault.kind = kind,
            Edit::Import(scenario) => *s = crate::import::settings_from_import(s, &scenario).0,
        }
    }
}

/// Runs the engine for one compare side.
pub fn simulate_side(settings: Settings) -> Side {
    let m = simulate(settings);
    Side {
        settings: m.settings,
        cfg: m.cfg,
        defaults: m.defaults,
        outcome: m.outcome,
        lanes: m.lanes,
    }
}

/// Runs the engine for `settings`.
pub fn simulate(settings: Settings) -> Model {
    let (cfg, error) = settings.resolve();
    let (defaults, _) = Settings {
        overrides: Default::default(),
        ..settings.clone()
    }
    .resolve();
    let outcome = run(
        &cfg,
        &RunOptions {
            heartbeats: cfg.nodes.len() <= 50,
        },
    );
    let lanes = lanes(&outcome, cfg.duration, MAX_LANES);
    Model {
        settings,
        lanes: Rc::new(lanes),
        outcome: Rc::new(outcome),
        defaults: Rc::new(defaults),
        error: error.map(|e| e.to_string()),
        t: 0,
        playing: false,
        speed_exp: 1.0,
        cost_nodes: 1000,
        notices: Vec::new(),
        lang: Lang::default(),
        tour: None,
        b: None,
        display: Display::default(),
        spreads: None,
        cfg: Rc::new(cfg),
    }
}

impl Model {
    /// This fresh run, viewed as `old` was: playback speed, cost size, layout, language and tour.
    pub fn keeping_view(mut self, old: &mut Model) -> Model {
        self.speed_exp = old.speed_exp;
        self.cost_nodes = old.cost_nodes;
        self.display = std::mem::take(&mut old.display);
        self.lang = old.lang;
        self.tour = old.tour;
        self
    }

    /// The link (query string) of the current state, with the playhead at `t`.
    pub fn link(&self, t: Millis) -> String {
        let playback = Playback {
            t,
            speed_exp: (self.speed_exp != 1.0).then_some(self.speed_exp),
        };
        encode_all(
            &self.settings,
            self.b.as_ref().map(|b| &b.settings),
            playback,
            &self.display,
        )
    }

    /// The link of the current state as an embed (timeline, cluster or compare, and two sliders).
    pub fn embed_link(&self) -> String {
        let views = if self.b.is_some() {
            ["timeline", "breakdown", "compare"]
        } else {
            ["timeline", "cluster", "breakdown"]
        };
        let display = Display {
            embed: true,
            views: views.iter().map(|v| v.to_string()).collect(),
            autoplay: false,
            controls: vec![
                "node-monitor-grace-period".into(),
                "default-unreachable-toleration-seconds".into(),
            ],
            lang: self.display.lang,
            ..Display::default()
        };
        encode_all(
            &self.settings,
            self.b.as_ref().map(|b| &b.settings),
            Playback::default(),
            &display,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edits_change_what_they_name() {
        let mut s = Settings::default();
        Edit::Knob("node-monitor-grace-period", 20.0).apply(&mut s);
        assert_eq!(s.overrides.get("node-monitor-grace-period"), Some(&20.0));
        Edit::Knob("node-monitor-grace-period", 1e9).apply(&mut s);
        assert!(
            s.overrides["node-monitor-grace-period"] < 1e9,
            "clamped to the knob's range"
        );
        Edit::Reset("node-monitor-grace-period").apply(&mut s);
        assert!(s.overrides.is_empty());
        Edit::Version(12).apply(&mut s);
        assert_eq!(s.minor, 12);
        Edit::Number(|s, v| s.web_replicas = v, 7).apply(&mut s);
        assert_eq!(s.web_replicas, 7);
        Edit::Switch(|s, on| s.enable_taint_manager = on, false).apply(&mut s);
        assert!(!s.enable_taint_manager);
        Edit::FaultKind(ActionKind::KubeletStop).apply(&mut s);
        assert_eq!(s.fault.kind, ActionKind::KubeletStop);
        let before = s.clone();
        Edit::Preset("no-such-preset".into()).apply(&mut s);
        assert!(s == before, "an unknown preset changes nothing");
        Edit::Preset("upstream-1.12".into()).apply(&mut s);
        assert_eq!(s.minor, 12);
    }
}

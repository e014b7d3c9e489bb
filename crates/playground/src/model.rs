//! What the page shows, derived from the settings by one engine run: the [`Model`] of side A and
//! the [`Side`] B of a comparison. The page's shell runs the engine in its Web Worker, sending it the
//! `Prepared` configuration; [`run_config`] is that run, and [`simulate`] runs it on the calling
//! thread for tests and tools. The
//! reducer in `app` and the components share these types, so neither imports the other.

use crate::i18n::Lang;
use crate::link::{encode_all, Display, Playback};
use crate::replay::{lanes, Lane};
use crate::settings::Settings;
use kubelife_engine::flags;
use kubelife_engine::scenario::ActionKind;
use kubelife_engine::{Config, Distribution, Millis, Outcome, RunOptions};
use kubelife_figures::aggregate::{Aggregate, EvictionRates};
use kubelife_figures::spread::{spread, Spread};
use std::rc::Rc;

/// Most lanes the timeline draws.
pub const MAX_LANES: usize = 60;
/// Above this many nodes the cluster is a grid of cells and the timeline is aggregated.
pub const GRID_ABOVE: usize = 60;
/// How often playback advances, in wall-clock ms.
pub const FRAME: f64 = 50.0;

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
    /// Per zone and per workload, the run's counts over time (the grid, the aggregated timeline,
    /// zone states and the spread of a many-node outage read them).
    pub aggregate: Rc<Aggregate>,
    /// The outage across nodes: first and last taint and eviction, each workload's way back.
    pub spread: Rc<Spread>,
    /// "Where does the time go?": the chains of events to the run's milestones.
    pub bars: Rc<Vec<crate::explain::Bar>>,
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
    /// Side A's settings asked for and not yet run (the worker is on it).
    pub next: Option<Rc<Prepared>>,
    /// Side B's settings asked for and not yet run.
    pub b_next: Option<Rc<Prepared>>,
    /// Whether the spreads over seeds are asked for and not yet back.
    pub spreads_asked: bool,
    /// Whether a first run has come back (before it, the page shows only its controls).
    pub loaded: bool,
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
    /// Start from the named preset: its settings; a scale preset also brings its own cluster,
    /// fault and zone outage (`Settings::from_preset`).
    Preset(String),
    /// A whole number the function stores: a count, the failed node, a fault or operator time.
    Number(fn(&mut Settings, u32), u32),
    /// A switch of the legacy eviction path, stored by the function.
    Switch(fn(&mut Settings, bool), bool),
    /// The kind of fault.
    FaultKind(ActionKind),
    /// The settings with what the import panel read from a cluster's files applied
    /// (`crate::import::settings_from_import`, done in the files worker).
    Import(Rc<Settings>),
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
            Edit::Import(settings) => *s = (*settings).clone(),
        }
    }
}

/// Settings resolved for the engine, before (or without) a run: what the controls, the exports
/// and the cost readout show the moment a control moves, and what the worker runs. Two are equal
/// when their settings are: the rest is derived from them.
#[derive(Clone, Debug)]
pub struct Prepared {
    /// What the user set.
    pub settings: Settings,
    /// The resolved configuration.
    pub cfg: Rc<Config>,
    /// The version's defaults, for comparison.
    pub defaults: Rc<Config>,
    /// Why the settings were refused, when they were (the engine's reason).
    pub error: Option<String>,
}

impl PartialEq for Prepared {
    fn eq(&self, other: &Prepared) -> bool {
        self.settings == other.settings
    }
}

/// Resolves `settings` (cheap: no run).
pub fn prepare(settings: Settings) -> Prepared {
    prepare_after(settings, None)
}

/// Resolves `settings` once, taking the version's defaults from `known` (settings already
/// prepared, with their defaults) when the two differ in their overrides only: a slider step
/// resolves its settings and nothing else.
pub fn prepare_after(settings: Settings, known: Option<(&Settings, &Rc<Config>)>) -> Prepared {
    let (cfg, error) = settings.resolve();
    let cfg = Rc::new(cfg);
    let bare = |s: &Settings| Settings {
        overrides: Default::default(),
        ..s.clone()
    };
    let defaults = match known {
        Some((k, defaults)) if bare(k) == bare(&settings) => defaults.clone(),
        // Without overrides the defaults are these settings (not resolved twice).
        _ if settings.overrides.is_empty() && error.is_none() => cfg.clone(),
        _ => Rc::new(bare(&settings).resolve().0),
    };
    Prepared {
        settings,
        cfg,
        defaults,
        error: error.map(|e| e.to_string()),
    }
}

/// Per zone and per workload, `outcome`'s counts over time.
pub fn aggregate(p: &Prepared, outcome: &Outcome) -> Aggregate {
    Aggregate::build(outcome, p.cfg.duration, &EvictionRates::of(&p.cfg))
}

impl Side {
    /// Side B as its run shows it.
    pub fn from_run(p: Prepared, outcome: Outcome) -> Side {
        let lanes = lanes(&outcome, p.cfg.duration, MAX_LANES);
        Side {
            settings: p.settings,
            cfg: p.cfg,
            defaults: p.defaults,
            outcome: Rc::new(outcome),
            lanes: Rc::new(lanes),
        }
    }
}

/// Most nodes whose heartbeats are recorded as events (more would only be noise on the page).
pub const HEARTBEAT_EVENTS_UP_TO: usize = 50;

/// Runs `cfg` as the page shows it, with heartbeats recorded as events for small clusters: what
/// the engine's worker does with each run it is sent.
pub fn run_config(cfg: &Config) -> Outcome {
    let options = RunOptions {
        heartbeats: cfg.nodes.len() <= HEARTBEAT_EVENTS_UP_TO,
    };
    kubelife_engine::run(cfg, &options)
}

/// Runs the engine for `settings` here and now, as the worker would (tests and tools; the page
/// itself never runs the engine on its own thread).
pub fn simulate(settings: Settings) -> Model {
    let p = prepare(settings);
    let outcome = run_config(&p.cfg);
    Model::from_run(p, outcome)
}

impl Model {
    /// The page showing `p`'s run.
    pub fn from_run(p: Prepared, outcome: Outcome) -> Model {
        let aggregate = aggregate(&p, &outcome);
        Model::from_parts(p, outcome, aggregate)
    }

    /// The page showing `p`'s run, whose counts over time are `aggregate` (see [`aggregate`]).
    pub fn from_parts(p: Prepared, outcome: Outcome, aggregate: Aggregate) -> Model {
        let lanes = lanes(&outcome, p.cfg.duration, MAX_LANES);
        let spread = spread(&outcome, &aggregate);
        let bars = crate::explain::bars(&outcome, &p.cfg);
        Model {
            spread: Rc::new(spread),
            bars: Rc::new(bars),
            settings: p.settings,
            lanes: Rc::new(lanes),
            aggregate: Rc::new(aggregate),
            outcome: Rc::new(outcome),
            defaults: p.defaults,
            error: p.error,
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
            cfg: p.cfg,
            next: None,
            b_next: None,
            spreads_asked: false,
            loaded: true,
        }
    }

    /// The page before its first run: `p` waits for the worker, nothing is shown yet.
    pub fn waiting(p: Prepared) -> Model {
        let mut m = Model::from_run(p.clone(), Outcome::default());
        m.next = Some(Rc::new(p));
        m.loaded = false;
        m
    }

    /// The settings the controls show: the newest asked for, even before its run is back.
    pub fn asked(&self) -> &Settings {
        self.next.as_ref().map_or(&self.settings, |p| &p.settings)
    }

    /// The configuration (and the version's defaults) of [`Model::asked`].
    pub fn asked_cfg(&self) -> (&Rc<Config>, &Rc<Config>) {
        self.next
            .as_ref()
            .map_or((&self.cfg, &self.defaults), |p| (&p.cfg, &p.defaults))
    }

    /// Side B's settings, newest first.
    pub fn asked_b(&self) -> Option<&Settings> {
        self.b_next
            .as_ref()
            .map(|p| &p.settings)
            .or(self.b.as_ref().map(|b| &b.settings))
    }

    /// Asks for a run of `s` as side A (nothing to run when the page already shows it).
    pub fn ask(&mut self, s: Settings) {
        if s == self.settings && self.loaded {
            self.next = None;
        } else if self.next.as_ref().is_none_or(|p| p.settings != s) {
            let known = match &self.next {
                Some(p) => (&p.settings, &p.defaults),
                None => (&self.settings, &self.defaults),
            };
            self.next = Some(Rc::new(prepare_after(s, Some(known))));
        }
        self.spreads = None;
    }

    /// Asks for a run of `s` as side B.
    pub fn ask_b(&mut self, s: Settings) {
        if self.b.as_ref().is_some_and(|b| b.settings == s) {
            self.b_next = None;
        } else if self.b_next.as_ref().is_none_or(|p| p.settings != s) {
            let known = match (&self.b_next, &self.b) {
                (Some(p), _) => Some((&p.settings, &p.defaults)),
                (None, Some(b)) => Some((&b.settings, &b.defaults)),
                (None, None) => None,
            };
            self.b_next = Some(Rc::new(prepare_after(s, known)));
        }
        self.spreads = None;
    }

    /// What the worker should be doing for this page: the runs asked for and not yet shown.
    pub fn wants(&self) -> Wants {
        let shown = |settings: &Settings, cfg: &Rc<Config>, defaults: &Rc<Config>| {
            Rc::new(Prepared {
                settings: settings.clone(),
                cfg: cfg.clone(),
                defaults: defaults.clone(),
                error: None,
            })
        };
        Wants {
            a: self.next.clone(),
            b: self.b_next.clone(),
            spreads: (self.spreads_asked && self.next.is_none() && self.b_next.is_none()).then(|| {
                let a = shown(&self.settings, &self.cfg, &self.defaults);
                (a, self.b.as_ref().map(|b| shown(&b.settings, &b.cfg, &b.defaults)))
            }),
        }
    }

    /// Whether a run the page asked for is still under way.
    pub fn running(&self) -> bool {
        self.next.is_some() || self.b_next.is_some() || self.spreads_asked
    }

    /// Takes in a run of side A, laid out as `fresh` (see [`Model::from_run`]); a run of settings
    /// no longer asked for is dropped.
    pub fn arrived(mut self, fresh: Model) -> Model {
        if self.next.take_if(|p| p.settings == fresh.settings).is_none() {
            return self;
        }
        let first = !self.loaded;
        let mut fresh = fresh.keeping_view(&mut self);
        // The opening link's playhead and autoplay apply to the first run.
        fresh.t = self.t.min(fresh.cfg.duration);
        fresh.playing = self.playing && (first || self.t < fresh.cfg.duration);
        fresh.notices = std::mem::take(&mut self.notices);
        fresh.b = self.b.take();
        fresh.b_next = self.b_next.take();
        fresh.spreads_asked = self.spreads_asked;
        fresh
    }

    /// Takes in a run of side B; a run of settings no longer asked for is dropped.
    pub fn arrived_b(mut self, side: Side) -> Model {
        if self.b_next.take_if(|p| p.settings == side.settings).is_some() {
            self.b = Some(Rc::new(side));
        }
        self
    }

    /// Takes in the spreads of the sides shown, unless they changed meanwhile.
    pub fn arrived_spreads(
        mut self,
        a: &Settings,
        b: Option<&Settings>,
        d: (Distribution, Option<Distribution>),
    ) -> Model {
        if self.spreads_asked && *a == self.settings && b == self.b.as_ref().map(|b| &b.settings) {
            self.spreads = Some(Rc::new(d));
            self.spreads_asked = false;
        }
        self
    }
}

/// The runs a page wants from the worker (see [`Model::wants`]).
#[derive(Clone, PartialEq, Debug, Default)]
pub struct Wants {
    /// Side A's settings, resolved.
    pub a: Option<Rc<Prepared>>,
    /// Side B's settings, resolved.
    pub b: Option<Rc<Prepared>>,
    /// Spreads over seeds of A and B as shown.
    pub spreads: Option<(Rc<Prepared>, Option<Rc<Prepared>>)>,
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
        encode_all(self.asked(), self.asked_b(), playback, &self.display)
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
                flags::NODE_MONITOR_GRACE_PERIOD.name.into(),
                flags::DEFAULT_UNREACHABLE_TOLERATION_SECONDS.name.into(),
            ],
            lang: self.display.lang,
            ..Display::default()
        };
        encode_all(self.asked(), self.asked_b(), Playback::default(), &display)
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

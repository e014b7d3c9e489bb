//! What the page shows, in three parts: the [`Run`] of each side (everything derived from one
//! engine run, laid out once when it arrives and never changed), the [`View`] (the playhead,
//! playback, language, layout) and what is [`Pending`] with the worker (settings resolved and not
//! yet run, spreads asked for). The [`Model`] holds them. The page's shell runs the engine in its
//! Web Worker, sending it the `Prepared` configuration; [`run_config`] is that run, and
//! [`simulate`] runs it on the calling thread for tests and tools. The reducer in `app` and the
//! components share these types, so neither imports the other.

use crate::explain::{bars, milestones, outage, tuning_warnings, two_views, Bar, Milestones, Outage, Restored};
use crate::i18n::Lang;
use crate::knobs::knob;
use crate::link::{encode_all, Display, Playback, PLAYBACK, VIEWS};
use crate::replay::{lanes, Lane};
use crate::settings::{Field, Settings, Switch};
use kubelife_engine::export::{out_of_service, Export};
use kubelife_engine::scenario::ActionKind;
use kubelife_engine::{Cause, Config, Distribution, Millis, Outcome, RunOptions, ScenarioError};
use kubelife_figures::aggregate::{Aggregate, EvictionRates};
use kubelife_figures::spread::{spread, Spread};
use std::rc::Rc;

/// Most lanes the timeline draws.
pub const MAX_LANES: usize = 60;
/// Above this many nodes the cluster is a grid of cells and the timeline is aggregated.
pub const GRID_ABOVE: usize = 60;
/// How often playback advances, in wall-clock ms.
pub const FRAME: f64 = 50.0;

/// One side's run as the page shows it: the settings it was run for and everything the page
/// derives from the engine's outcome, computed once when the run arrives (never at a render or a
/// playback tick) and never changed afterwards. The page holds it as an `Rc<Run>`, so that a
/// tick or any other message copies a pointer, and components take it whole or in pieces.
///
/// Two runs are equal when they are the same run (they share one outcome): comparing a
/// component's props then costs a pointer comparison rather than a walk over the events.
pub struct Run {
    /// What the user set.
    pub settings: Settings,
    /// The resolved configuration.
    pub cfg: Rc<Config>,
    /// The version's defaults, for comparison.
    pub defaults: Rc<Config>,
    /// Why the settings were refused, when they were (the engine's reason, shown in the
    /// reader's language).
    pub error: Option<ScenarioError>,
    /// The engine's outcome.
    pub outcome: Rc<Outcome>,
    /// The timeline's lanes, at most [`MAX_LANES`].
    pub lanes: Rc<Vec<Lane>>,
    /// Per zone and per workload, the run's counts over time (the grid, the aggregated timeline,
    /// zone states and the spread of a many-node outage read them).
    pub aggregate: Aggregate,
    /// The outage across nodes: first and last taint and eviction, each workload's way back.
    pub spread: Rc<Spread>,
    /// "Where does the time go?": the chains of events to the run's milestones.
    pub bars: Vec<Bar>,
    /// The faulted node's milestones, ms after its fault (the result cards, the compare deltas,
    /// the tour's stops).
    pub milestones: Milestones,
    /// What to warn about: the engine's warnings, then tuning advice about the configuration.
    pub warnings: Vec<Cause>,
    /// Services the API and the proxies saw differently (`explain::two_views`).
    pub two_views: Vec<Cause>,
    /// The events the log lists (no heartbeats, nothing of the initial state), as positions in
    /// the outcome's events, in order.
    pub listed: Vec<usize>,
    /// The times of [`Run::listed`]'s events, ms, in order.
    pub listed_at: Vec<Millis>,
    /// Whether a workload has a volume (the results then show when it was free).
    pub volumes: bool,
    /// With a StatefulSet on a volume, when the database was Ready again after the fault
    /// (`kubelife_engine::milestones::database_ready`): `Uninterrupted` when its pod was not on
    /// the failed node, `Never` when it did not come back within the run.
    pub database: Option<Restored>,
    /// A many-node outage's headline (first and last of each milestone), when more than one
    /// node failed.
    pub outage: Option<Outage>,
    /// The operator's fix for a node that stays down, as the run shows the need for it (the
    /// out-of-service taint's commands; empty when the run needs none).
    pub out_of_service: Export,
}

impl PartialEq for Run {
    fn eq(&self, other: &Run) -> bool {
        Rc::ptr_eq(&self.outcome, &other.outcome)
    }
}

impl Eq for Run {}

impl Run {
    /// `p`'s run, laid out: lanes, counts over time, the spread, the bars, milestones, warnings
    /// and the event log's rows.
    pub fn from_run(p: Prepared, outcome: Outcome) -> Run {
        let aggregate = aggregate(&p, &outcome);
        Run::from_parts(p, outcome, aggregate)
    }

    /// `p`'s run, whose counts over time are `aggregate` (see [`aggregate`]), laid out.
    pub fn from_parts(p: Prepared, outcome: Outcome, aggregate: Aggregate) -> Run {
        let laid = Laid {
            lanes: run_lanes(&p, &outcome),
            milestones: milestones(&outcome),
            spread: spread(&outcome, &aggregate),
        };
        Run::from_laid(p, outcome, aggregate, laid)
    }

    /// `p`'s run, whose counts over time are `aggregate` and whose lanes, milestones and spread
    /// are `laid`, laid out: the page's worker bridge makes each part in a task of its own, so that
    /// none blocks the page for long on a large run.
    pub fn from_laid(p: Prepared, outcome: Outcome, aggregate: Aggregate, laid: Laid) -> Run {
        let Laid {
            lanes,
            milestones,
            spread,
        } = laid;
        let bars = bars(&outcome, &p.cfg);
        let mut warnings = outcome.warnings.clone();
        warnings.extend(tuning_warnings(&p.cfg));
        let (listed, listed_at) = outcome
            .events
            .iter()
            .enumerate()
            .filter(|(_, e)| !e.kind.is_heartbeat() && !e.cause.is_initial())
            .map(|(i, e)| (i, e.at_ms))
            .unzip();
        Run {
            outage: outage(&outcome, &spread),
            out_of_service: out_of_service(&p.cfg, &outcome),
            milestones,
            two_views: two_views(&outcome),
            volumes: p.cfg.workloads.iter().any(|w| w.volume.is_some()),
            database: database(&p.cfg, &outcome),
            warnings,
            listed,
            listed_at,
            spread: Rc::new(spread),
            bars,
            lanes: Rc::new(lanes),
            aggregate,
            outcome: Rc::new(outcome),
            settings: p.settings,
            cfg: p.cfg,
            defaults: p.defaults,
            error: p.error,
        }
    }

    /// Runs the engine for `settings` here and now, as the worker would, and lays the run out
    /// (tests and tools; the page itself never runs the engine on its own thread).
    pub fn simulate(settings: Settings) -> Run {
        let p = prepare(settings);
        let outcome = run_config(&p.cfg);
        Run::from_run(p, outcome)
    }

    /// The run as the exercises' checks read it.
    pub fn checked(&self) -> crate::exercises::Run<'_> {
        crate::exercises::Run {
            settings: &self.settings,
            cfg: &self.cfg,
            outcome: &self.outcome,
        }
    }

    /// The settings it was run for, resolved, as they were asked for: what the worker runs for
    /// the spreads over seeds of what is shown.
    fn prepared(&self) -> Rc<Prepared> {
        Rc::new(Prepared {
            settings: self.settings.clone(),
            cfg: self.cfg.clone(),
            defaults: self.defaults.clone(),
            error: None,
        })
    }
}

/// How the page looks at its runs: everything a reader changes without a new run.
#[derive(Clone, PartialEq)]
pub struct View {
    /// The playhead, ms.
    pub t: Millis,
    /// Whether playback runs.
    pub playing: bool,
    /// Playback speed as a power of ten (0 = 1x, 3 = 1000x).
    pub speed_exp: f64,
    /// Cluster size for the cost readout, nodes.
    pub cost_nodes: u32,
    /// The page's language.
    pub lang: Lang,
    /// The open tour step (0-based), when the tour is showing.
    pub tour: Option<usize>,
    /// Layout (full page or embed, panels shown).
    pub display: Display,
    /// What the opening link could not apply, and why.
    pub notices: Vec<Cause>,
    /// The preset side A's settings are, while they are unchanged since it was chosen (by the
    /// picker or a link's `preset=`): the preset picker shows it.
    pub preset: Option<&'static str>,
}

impl Default for View {
    fn default() -> View {
        View {
            t: 0,
            playing: false,
            speed_exp: 1.0,
            cost_nodes: 1000,
            lang: Lang::default(),
            tour: None,
            display: Display::default(),
            notices: Vec::new(),
            preset: None,
        }
    }
}

impl View {
    /// Moves the playhead by `wall` ms of wall-clock time at the playback speed, stopping at
    /// `duration` (ms); nothing moves while paused. Returns whether anything changed.
    pub fn tick(&mut self, wall: f64, duration: Millis) -> bool {
        if !self.playing {
            return false;
        }
        self.t += (wall * crate::decimal::pow10(self.speed_exp)) as Millis;
        if self.t >= duration {
            self.t = duration;
            self.playing = false;
        }
        true
    }

    /// This view kept for a new run of side A `duration` ms long: speed, cost size, layout,
    /// language and tour stay; the playhead stays within the run, and playback goes on only if
    /// the playhead is still inside it, or this is the page's first run (the opening link's
    /// playhead and autoplay apply to it).
    pub fn keeping(&mut self, duration: Millis, first: bool) {
        self.playing = self.playing && (first || self.t < duration);
        self.t = self.t.min(duration);
    }
}

/// What the page has asked the worker for and not yet received.
#[derive(Clone, PartialEq, Default)]
pub struct Pending {
    /// Side A's settings asked for and not yet run (the worker is on it).
    pub a: Option<Rc<Prepared>>,
    /// Side B's settings asked for and not yet run.
    pub b: Option<Rc<Prepared>>,
    /// Whether the spreads over seeds are asked for and not yet back.
    pub spreads: bool,
}

impl Pending {
    /// Whether a run the page asked for is still under way.
    pub fn running(&self) -> bool {
        self.a.is_some() || self.b.is_some() || self.spreads
    }

    /// Asks for a run of `s` in `slot` (side A's or B's), unless `shown` (the run that side shows,
    /// once in) already is one: settings resolved once, reusing the version's defaults of the
    /// settings asked before, or else of `known`'s.
    fn ask(slot: &mut Option<Rc<Prepared>>, shown: Option<&Run>, known: Option<&Run>, s: Settings) {
        if shown.is_some_and(|r| r.settings == s) {
            *slot = None;
        } else if slot.as_ref().is_none_or(|p| p.settings != s) {
            let known = match (&*slot, known) {
                (Some(p), _) => Some((&p.settings, &p.defaults)),
                (None, Some(r)) => Some((&r.settings, &r.defaults)),
                (None, None) => None,
            };
            *slot = Some(Rc::new(prepare_after(s, known)));
        }
    }
}

/// The page: side A's run, side B's when comparing, how they are viewed, and what the worker is
/// asked for. It reads as side A's run (`m.outcome`, `m.cfg`), through `Deref`.
#[derive(Clone, PartialEq)]
pub struct Model {
    /// Side A's run, the one shown.
    pub run: Rc<Run>,
    /// The compare side B's run, when comparing.
    pub b: Option<Rc<Run>>,
    /// The playhead, playback, language, layout and the rest a reader changes without a run.
    pub view: View,
    /// What the worker is asked for.
    pub pending: Pending,
    /// Milestones over 200 seeds for A (and B), once asked for.
    pub spreads: Option<Rc<(Distribution, Option<Distribution>)>>,
    /// Whether a first run has come back (before it, the page shows only its controls).
    pub loaded: bool,
}

impl std::ops::Deref for Model {
    type Target = Run;

    fn deref(&self) -> &Run {
        &self.run
    }
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
    /// fault and zone outage (`crate::link::preset`).
    Preset(String),
    /// A whole number for a field ([`Settings::set_number`]): a count, the failed node, a fault
    /// or operator time, a remediator's setting.
    Number(Field, u32),
    /// A switch turned on or off ([`Settings::set_switch`]).
    Switch(Switch, bool),
    /// The kind of fault ([`Settings::set_fault_kind`]).
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
                if let Some(p) = crate::link::preset(s, &name) {
                    *s = p;
                }
            }
            Edit::Number(field, v) => s.set_number(field, v),
            Edit::Switch(switch, on) => s.set_switch(switch, on),
            Edit::FaultKind(kind) => s.set_fault_kind(kind),
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
    /// Why the settings were refused, when they were (the engine's reason, shown in the
    /// reader's language).
    pub error: Option<ScenarioError>,
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
        error,
    }
}

/// The parts of a run's layout made one at a time (see [`Run::from_laid`]).
pub struct Laid {
    /// The timeline's lanes ([`run_lanes`]).
    pub lanes: Vec<Lane>,
    /// The milestones ([`milestones`]).
    pub milestones: Milestones,
    /// The outage across nodes ([`spread`], from the counts over time).
    pub spread: Spread,
}

/// The timeline's lanes of `p`'s run: at most [`MAX_LANES`].
pub fn run_lanes(p: &Prepared, outcome: &Outcome) -> Vec<Lane> {
    lanes(outcome, p.cfg.duration, MAX_LANES)
}

/// Per zone and per workload, `outcome`'s counts over time.
pub fn aggregate(p: &Prepared, outcome: &Outcome) -> Aggregate {
    Aggregate::build(outcome, p.cfg.duration, &EvictionRates::of(&p.cfg))
}

/// Most nodes whose heartbeats are recorded as events (more would only be noise on the page).
pub const HEARTBEAT_EVENTS_UP_TO: usize = 50;

/// When the database (a StatefulSet pod on a volume from the failed node) was Ready again after
/// the fault, if the scenario has a StatefulSet on a volume (`kubelife_engine::stats::offered`).
fn database(cfg: &Config, o: &Outcome) -> Option<Restored> {
    if !kubelife_engine::stats::offered(cfg, "databaseReady") {
        return None;
    }
    let fault = o.summary.nodes.first().and_then(|n| n.fault_at_ms)?;
    let Some(db) = kubelife_engine::milestones::database(o, &cfg.workloads, fault) else {
        return Some(Restored::Uninterrupted);
    };
    Some(
        db.ready
            .map_or(Restored::Never, |i| Restored::At(o.events[i].at_ms - fault)),
    )
}

/// Runs `cfg` as the page shows it, with heartbeats recorded as events for small clusters: what
/// the engine's worker does with each run it is sent.
pub fn run_config(cfg: &Config) -> Outcome {
    let options = RunOptions {
        heartbeats: cfg.nodes.len() <= HEARTBEAT_EVENTS_UP_TO,
    };
    kubelife_engine::run(cfg, &options)
}

/// The page showing the run of `settings`, made here and now as the worker would make it (tests
/// and tools; the page itself never runs the engine on its own thread). It reads as that run
/// (`m.outcome`, `m.cfg`, `m.settings`); [`Run::simulate`] gives the run alone.
pub fn simulate(settings: Settings) -> Model {
    Model::new(Run::simulate(settings))
}

impl Model {
    /// The page showing `run`, with the default view and nothing asked of the worker.
    pub fn new(run: Run) -> Model {
        Model {
            run: Rc::new(run),
            b: None,
            view: View::default(),
            pending: Pending::default(),
            spreads: None,
            loaded: true,
        }
    }

    /// The page showing `p`'s run (see [`Run::from_run`]).
    pub fn from_run(p: Prepared, outcome: Outcome) -> Model {
        Model::new(Run::from_run(p, outcome))
    }

    /// The page before its first run: `p` waits for the worker, nothing is shown yet.
    pub fn waiting(p: Prepared) -> Model {
        let mut m = Model::from_run(p.clone(), Outcome::default());
        m.pending.a = Some(Rc::new(p));
        m.loaded = false;
        m
    }

    /// The settings the controls show: the newest asked for, even before its run is back.
    pub fn asked(&self) -> &Settings {
        self.pending.a.as_ref().map_or(&self.run.settings, |p| &p.settings)
    }

    /// The configuration (and the version's defaults) of [`Model::asked`].
    pub fn asked_cfg(&self) -> (&Rc<Config>, &Rc<Config>) {
        self.pending
            .a
            .as_ref()
            .map_or((&self.run.cfg, &self.run.defaults), |p| (&p.cfg, &p.defaults))
    }

    /// Side B's settings, newest first.
    pub fn asked_b(&self) -> Option<&Settings> {
        self.pending
            .b
            .as_ref()
            .map(|p| &p.settings)
            .or(self.b.as_ref().map(|b| &b.settings))
    }

    /// Asks for a run of `s` as side A (nothing to run when the page already shows it).
    pub fn ask(&mut self, s: Settings) {
        self.view.preset = self.view.preset.and_then(|name| crate::link::named_preset(&s, name));
        let shown = self.loaded.then_some(&*self.run);
        Pending::ask(&mut self.pending.a, shown, Some(&self.run), s);
        self.spreads = None;
    }

    /// Applies `edit` to side A's settings and asks for them; `false` when nothing changes. A
    /// preset chosen is named from then on, while the settings stay what it gives.
    pub fn edit(&mut self, edit: Edit) -> bool {
        let chosen = match &edit {
            Edit::Preset(name) => crate::settings::preset_link(name).map(|p| p.name),
            _ => None,
        };
        let mut s = self.asked().clone();
        edit.apply(&mut s);
        if s == *self.asked() {
            let named = chosen.is_some() && chosen != self.view.preset;
            self.view.preset = chosen.or(self.view.preset);
            return named;
        }
        self.view.preset = chosen.or(self.view.preset);
        self.ask(s);
        true
    }

    /// Asks for a run of `s` as side B.
    pub fn ask_b(&mut self, s: Settings) {
        Pending::ask(&mut self.pending.b, self.b.as_deref(), self.b.as_deref(), s);
        self.spreads = None;
    }

    /// Stops comparing: side B and what was asked for it go, and so do the spreads.
    pub fn close_b(&mut self) {
        self.b = None;
        self.pending.b = None;
        self.spreads = None;
    }

    /// What the worker should be doing for this page: the runs asked for and not yet shown.
    pub fn wants(&self) -> Wants {
        let p = &self.pending;
        Wants {
            a: p.a.clone(),
            b: p.b.clone(),
            spreads: (p.spreads && p.a.is_none() && p.b.is_none())
                .then(|| (self.run.prepared(), self.b.as_ref().map(|b| b.prepared()))),
        }
    }

    /// Whether a run the page asked for is still under way.
    pub fn running(&self) -> bool {
        self.pending.running()
    }

    /// Takes in a run of side A (see [`Run::from_run`]); a run of settings no longer asked for is
    /// dropped. The view stays as it was (see [`View::keeping`]).
    pub fn arrived(mut self, fresh: Rc<Run>) -> Model {
        if self.pending.a.take_if(|p| p.settings == fresh.settings).is_none() {
            return self;
        }
        self.view.keeping(fresh.cfg.duration, !self.loaded);
        self.run = fresh;
        self.loaded = true;
        self.spreads = None;
        self
    }

    /// Takes in a run of side B; a run of settings no longer asked for is dropped.
    pub fn arrived_b(mut self, fresh: Rc<Run>) -> Model {
        if self.pending.b.take_if(|p| p.settings == fresh.settings).is_some() {
            self.b = Some(fresh);
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
        if self.pending.spreads && *a == self.run.settings && b == self.b.as_ref().map(|b| &b.settings) {
            self.spreads = Some(Rc::new(d));
            self.pending.spreads = false;
        }
        self
    }

    /// The link (query string) of the current state, with the playhead at `t` (ms).
    pub fn link(&self, t: Millis) -> String {
        let playback = Playback {
            t,
            speed_exp: (self.view.speed_exp != 1.0).then_some(self.view.speed_exp),
        };
        encode_all(self.asked(), self.asked_b(), playback, &self.view.display)
    }

    /// The link that opens this state in the full playground (an embed's "open in kubelife"):
    /// the same settings, side B, playhead, speed, language, exercise and targets, without what
    /// only an embed reads (`embed=`, `view=`, `controls=`).
    pub fn open_link(&self) -> String {
        let display = Display {
            embed: false,
            views: Vec::new(),
            controls: Vec::new(),
            ..self.view.display.clone()
        };
        let playback = Playback {
            t: self.view.t,
            speed_exp: (self.view.speed_exp != 1.0).then_some(self.view.speed_exp),
        };
        encode_all(self.asked(), self.asked_b(), playback, &display)
    }

    /// The link of what is on screen as an embed: the same settings (and side B), playhead,
    /// speed and language; the panels the page shows (the milestone cards, the cluster, the
    /// timeline, "where does the time go?", and the comparison while comparing), or the ones its
    /// own link names; and the controls: the page's link's, or else the time controls and a
    /// slider for each setting the reader changed.
    pub fn embed_link(&self) -> String {
        let d = &self.view.display;
        let views = if d.views.is_empty() {
            let compare = self.asked_b().is_some();
            VIEWS
                .iter()
                .filter(|&&v| v != "compare" || compare)
                .map(|v| v.to_string())
                .collect()
        } else {
            d.views.clone()
        };
        let controls = if d.controls.is_empty() {
            let changed = self.asked().overrides.keys().filter(|f| knob(f).is_some()).cloned();
            std::iter::once(PLAYBACK.to_string()).chain(changed).collect()
        } else {
            d.controls.clone()
        };
        let display = Display {
            embed: true,
            views,
            autoplay: false,
            controls,
            lang: Some(self.view.lang),
            ..Display::default()
        };
        let playback = Playback {
            t: self.view.t,
            speed_exp: (self.view.speed_exp != 1.0).then_some(self.view.speed_exp),
        };
        encode_all(self.asked(), self.asked_b(), playback, &display)
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

#[cfg(test)]
mod tests;

#[cfg(test)]
mod out_of_service_tests {
    use super::*;

    #[test]
    fn the_first_visit_s_database_gets_the_out_of_service_taint() {
        // node-1 crashes for good with db-0 on it: the Apply panel shows the taint.
        let run = Run::simulate(Settings::default());
        let e = &run.out_of_service;
        assert_eq!(
            e.yaml,
            "kubectl taint nodes node-1 node.kubernetes.io/out-of-service=nodeshutdown:NoExecute\n"
        );
        let keys: Vec<&str> = e.notes.iter().map(|n| n.key).collect();
        assert_eq!(keys, ["oos.why.stuck", "oos.when", "oos.remove"]);
        // A node that comes back needs none.
        let mut s = Settings::default();
        s.fault.recover_at_seconds = Some(120);
        assert_eq!(Run::simulate(s).out_of_service.yaml, "");
    }
}

//! The page: the reducer that turns each message into a new [`Model`], and the layout that puts
//! the sections in place. Sections are components with narrow props (`crate::components`), the
//! effects are named hooks (`crate::hooks`), and the engine runs in its Web
//! Worker, reached through `crate::bridge`.

use crate::bridge::{use_engine, Arrived, Landed};
use crate::components::aggregate::AggregateTimeline;
use crate::components::breakdown::Breakdown;
use crate::components::cluster::Cluster;
use crate::components::compare::{CompareAction, CompareSection};
use crate::components::cost::Cost;
use crate::components::download::{Download, Figure};
use crate::components::events::EventLog;
use crate::components::export::ExportPanel;
use crate::components::faults::FaultPanel;
use crate::components::grid::ClusterGrid;
use crate::components::header::{language_picker, preset_picker, version_picker, Header};
use crate::components::import::ImportPanel;
use crate::components::layout::{EmbedLayout, InstructorLayout};
use crate::components::notices::notices;
use crate::components::results::{Results, TransportAction};
use crate::components::seeds::Seeds;
use crate::components::share::{embed_code, share};
use crate::components::slider::{knob_slider, KnobSide};
use crate::components::slo::Slo;
use crate::components::spread::SpreadPanel;
use crate::components::timeline::Timeline;
use crate::components::tour::{Tour, STEPS};
use crate::components::tune::TunePanel;
use crate::components::warnings::Warnings;
use crate::components::workshop::{ExercisePanel, Instructor, WorkshopNav};
use crate::components::Same;
use crate::hooks::{
    use_address_bar, use_document_lang, use_embed_height, use_first_view_removed, use_keyboard_shortcuts,
    use_later_texts, use_playback_clock,
};
use crate::i18n::{tr, Lang, Part};
use crate::model::{prepare, Edit, Model, Run, FRAME, GRID_ABOVE};
use crate::replay::{at, next_event_after};
use crate::settings::Settings;
use kubelife_engine::version::NEWEST_MINOR;
use kubelife_engine::Millis;
use std::rc::Rc;
use yew::prelude::*;

/// What can happen to the page.
pub enum Msg {
    /// Change the settings (the engine re-runs).
    Settings(Edit),
    /// Play, pause, seek, step or change the speed.
    Transport(TransportAction),
    /// Advance by wall-clock ms.
    Tick(f64),
    /// Cluster size of the cost readout.
    CostNodes(u32),
    /// Dismiss the link notices.
    DismissNotices,
    /// Compare mode: side B and the distribution view.
    Compare(CompareAction),
    /// Switch the language; everything else stays.
    Lang(Lang),
    /// A job of the engine's worker is done.
    Arrived(Box<Arrived>),
    /// Open an exercise in its starting state (1-based), or close the exercise panel.
    Exercise(Option<u32>),
    /// Show a tour step, or close the tour.
    Tour(Option<usize>),
    /// Set the SLO targets and the Tune panel's constraints (the link carries them).
    Question(crate::tune::Question),
}

/// The page's state as Yew's reducer holds it: the core's [`Model`], wrapped so that this crate
/// can give it Yew's `Reducible`.
#[derive(Clone)]
pub struct Page(pub Model);

impl std::ops::Deref for Page {
    type Target = Model;

    fn deref(&self) -> &Model {
        &self.0
    }
}

impl Reducible for Page {
    type Action = Msg;

    fn reduce(self: Rc<Self>, msg: Msg) -> Rc<Self> {
        match reduce(&self.0, msg) {
            Some(m) => Rc::new(Page(m)),
            None => self,
        }
    }
}

/// What `msg` makes of the page `old`: the model after it, or `None` when nothing changes. The
/// page's runs are shared, never copied: a playback tick copies the view and a few pointers.
pub fn reduce(old: &Model, msg: Msg) -> Option<Model> {
    let mut m = old.clone();
    match msg {
        Msg::Settings(edit) => {
            if !m.edit(edit) {
                return None;
            }
        }
        Msg::Arrived(arrived) => m = m.take_in(*arrived),
        Msg::Transport(a) => m.play(a),
        Msg::Tick(wall) => {
            if !m.view.tick(wall, m.run.cfg.duration) {
                return None;
            }
        }
        Msg::CostNodes(n) => m.view.cost_nodes = n,
        Msg::DismissNotices => m.view.notices.clear(),
        Msg::Compare(a) => m = m.compare(a),
        Msg::Lang(l) => {
            m.view.lang = l;
            m.view.display.lang = Some(l);
        }
        Msg::Exercise(n) => m = m.open_exercise(n),
        Msg::Question(q) => m.view.display.question = q,
        Msg::Tour(step) => {
            m.view.tour = step;
            if let Some(t) = step.and_then(|s| STEPS.get(s)).and_then(|s| s.seek) {
                m.view.t = t(&m.run.milestones).clamp(0, m.run.cfg.duration);
                m.view.playing = false;
            }
        }
    }
    Some(m)
}

/// What the reducer does to the core's [`Model`] beyond the core's own methods.
trait Reduced {
    fn play(&mut self, a: TransportAction);
    fn compare(self, a: CompareAction) -> Model;
    fn take_in(self, arrived: Arrived) -> Model;
    fn open_exercise(self, n: Option<u32>) -> Model;
}

impl Reduced for Model {
    /// The time controls: playback moves only the playhead.
    fn play(&mut self, a: TransportAction) {
        let (run, view) = (&self.run, &mut self.view);
        let duration = run.cfg.duration;
        match a {
            TransportAction::Toggle => {
                if !view.playing && view.t >= duration {
                    view.t = 0;
                }
                view.playing = !view.playing;
            }
            TransportAction::Seek(t) => view.t = t.clamp(0, duration),
            TransportAction::Next => view.t = next_event_after(&run.outcome, view.t).unwrap_or(duration),
            TransportAction::Restart => {
                view.t = 0;
                view.playing = false;
            }
            TransportAction::Speed(e) => view.speed_exp = e.clamp(0.0, 3.0),
        }
    }

    /// Compare mode: every change of B re-runs B and forgets the seeds' spreads.
    fn compare(mut self, a: CompareAction) -> Model {
        match a {
            CompareAction::EditB(edit) => {
                let mut b = self.asked_b().unwrap_or(self.asked()).clone();
                edit.apply(&mut b);
                self.ask_b(b);
            }
            CompareAction::Compare(true) => self.ask_b(self.asked().clone()),
            // The button shows only while B is open.
            CompareAction::CopyAToB => {
                if let Some(b) = self.asked_b() {
                    let b = crate::compare::copy_a_to_b(self.asked(), b);
                    self.ask_b(b);
                }
            }
            CompareAction::Compare(false) => self.close_b(),
            CompareAction::Swap => {
                let Some(b) = self.asked_b().cloned() else { return self };
                let a = self.asked().clone();
                self.ask(b);
                self.ask_b(a);
            }
            CompareAction::Classic => {
                let base = Settings {
                    overrides: Default::default(),
                    enable_taint_manager: true,
                    taint_based_evictions: true,
                    ..self.asked().clone()
                };
                self.ask(Settings {
                    minor: 12,
                    ..base.clone()
                });
                self.ask_b(Settings {
                    minor: NEWEST_MINOR,
                    ..base
                });
            }
            CompareAction::RunSpreads => {
                self.spreads = None;
                self.pending.spreads = true;
            }
        }
        self
    }

    /// Takes in what the worker sent back; whatever is no longer asked for is dropped.
    fn take_in(self, arrived: Arrived) -> Model {
        let Arrived { asked, landed } = arrived;
        match landed {
            Landed::A(run) => {
                retire(self.run.clone());
                self.arrived(run)
            }
            Landed::B(run) => {
                retire(self.b.clone());
                self.arrived_b(run)
            }
            Landed::Spreads(d) => self.arrived_spreads(&asked.a.settings, asked.b.as_ref().map(|b| &b.settings), *d),
        }
    }

    /// Opens exercise `n` in its starting state, or closes the exercise panel.
    fn open_exercise(mut self, n: Option<u32>) -> Model {
        let Some(ex) = n.and_then(crate::exercises::exercise) else {
            self.view.display.exercise = None;
            self.view.display.instructor = false;
            return self;
        };
        let (a, b) = (ex.start)();
        self.view.display.exercise = n;
        self.view.display.instructor = false;
        // Opened in its start, the exercise is the participant's to solve again.
        self.view.display.solution = false;
        self.ask(a);
        match b {
            Some(b) => self.ask_b(b),
            None => self.close_b(),
        }
        self
    }
}

/// Frees a run the page showed in a task of its own, once the page has shown the one that took
/// its place: a 5,000-node run's 90,000 events take about as long to free as the page takes to
/// render. Natively (the tests, with no event loop) it is freed at once.
fn retire<T: 'static>(old: T) {
    #[cfg(target_arch = "wasm32")]
    gloo_timers::callback::Timeout::new(0, move || drop(old)).forget();
    #[cfg(not(target_arch = "wasm32"))]
    drop(old);
}

/// The page as its link describes it; what the link could not apply is listed as notices.
fn opening_model() -> Model {
    let decoded = crate::link::decode(&crate::browser::query());
    // An exercise link without settings of its own opens in the exercise's starting state.
    let start = decoded
        .display
        .exercise
        .filter(|_| !decoded.has_settings)
        .and_then(crate::exercises::exercise)
        .map(|ex| (ex.start)());
    let (settings, b) = match start {
        Some((a, b)) => (a, b.or(decoded.b)),
        None => (decoded.settings, decoded.b),
    };
    // The default settings' run is made ahead (`first_run`); any other waits for the worker.
    let mut m = match crate::first_run::outcome_for(&settings) {
        Some(outcome) => {
            let mut m = Model::from_run(prepare(settings), outcome);
            m.view.t = decoded.playback.t.min(m.run.cfg.duration);
            m
        }
        // The playhead is clamped to the run's length when the run arrives.
        None => {
            let mut m = Model::waiting(prepare(settings));
            m.view.t = decoded.playback.t;
            m
        }
    };
    if let Some(b) = b {
        m.ask_b(b);
    }
    let view = &mut m.view;
    if let Some(e) = decoded.playback.speed_exp {
        view.speed_exp = e;
    }
    view.notices = decoded.notices;
    view.preset = decoded.preset;
    view.lang = opening_lang(&decoded.display);
    view.playing = decoded.display.autoplay;
    view.display = decoded.display;
    m
}

/// The language the page opens in: the link's, else the reader's browser's.
fn opening_lang(display: &crate::link::Display) -> Lang {
    display.lang.unwrap_or_else(crate::browser::preferred_lang)
}

/// Shows the page once the language it opens in is at hand (the Chinese
/// catalogue is fetched first, so a Chinese page never flashes English).
pub fn start() {
    crate::browser::install_decimal_parser();
    let lang = opening_lang(&crate::link::decode(&crate::browser::query()).display);
    crate::browser::with_catalogue(lang, Part::Page, move || {
        crate::hooks::set_document_lang(lang);
        yew::Renderer::<App>::new().render();
    });
}

/// The page's callbacks, each dispatching one kind of message.
struct Handlers {
    edit: Callback<Edit>,
    transport: Callback<TransportAction>,
    compare: Callback<CompareAction>,
    seek: Callback<Millis>,
    lang: Callback<Lang>,
    exercise: Callback<Option<u32>>,
    tour: Callback<Option<usize>>,
    cost_nodes: Callback<u32>,
    dismiss: Callback<()>,
    question: Callback<crate::tune::Question>,
}

/// A callback that dispatches `f` of its value.
fn to<T: 'static>(d: &UseReducerDispatcher<Page>, f: impl Fn(T) -> Msg + 'static) -> Callback<T> {
    let d = d.clone();
    Callback::from(move |v| d.dispatch(f(v)))
}

impl Handlers {
    fn new(d: &UseReducerDispatcher<Page>) -> Handlers {
        Handlers {
            edit: to(d, Msg::Settings),
            transport: to(d, Msg::Transport),
            compare: to(d, Msg::Compare),
            seek: to(d, |t| Msg::Transport(TransportAction::Seek(t))),
            lang: {
                // The catalogue first, then the switch: the page never shows half a language.
                let d = d.clone();
                Callback::from(move |l| {
                    let d = d.clone();
                    crate::browser::with_catalogue(l, Part::Page, move || d.dispatch(Msg::Lang(l)));
                })
            },
            exercise: to(d, Msg::Exercise),
            tour: to(d, Msg::Tour),
            cost_nodes: to(d, Msg::CostNodes),
            dismiss: to(d, |()| Msg::DismissNotices),
            question: to(d, Msg::Question),
        }
    }
}

/// The page.
#[function_component(App)]
pub fn app() -> Html {
    let model = use_reducer(|| Page(opening_model()));
    let on = Handlers::new(&model.dispatcher());
    let view = &model.view;
    // The address bar follows the state, but not every playback frame.
    use_address_bar(model.link(if view.playing { 0 } else { view.t }));
    // The full page's root element, whose height it posts to its parent in a frame (an embed's
    // layout posts its own).
    let root = use_node_ref();
    use_embed_height(root.clone());
    use_playback_clock(FRAME, view.playing, to(&model.dispatcher(), Msg::Tick));
    let transport = |a: TransportAction| on.transport.reform(move |()| a);
    use_keyboard_shortcuts(transport(TransportAction::Toggle), transport(TransportAction::Next));
    use_document_lang(view.lang);
    use_first_view_removed();
    let later = use_later_texts(view.lang);
    use_engine(
        model.wants(),
        view.lang,
        to(&model.dispatcher(), |a| Msg::Arrived(Box::new(a))),
    );
    let m: &Model = &model;
    let page = if view.display.instructor && !view.display.embed {
        instructor_page(view.lang, &on)
    } else if view.display.embed {
        embed_page(m, &on, later)
    } else {
        full_page(m, &on, root, later)
    };
    html! { <ContextProvider<Lang> context={view.lang}>{page}</ContextProvider<Lang>> }
}

/// The instructor's list of exercises.
fn instructor_page(lang: Lang, on: &Handlers) -> Html {
    let header = html! {
        <Header tagline={tr(lang, "ui.instructor.tagline")}>{ language_picker(lang, &on.lang) }</Header>
    };
    html! {
        <InstructorLayout {header}>
            <Instructor onopen={on.exercise.clone()} />
        </InstructorLayout>
    }
}

/// An embed: what its link asks for and nothing else: the panels its `view=` names, the
/// milestone cards and the time controls when it names `milestones` or `controls=playback` (or
/// names no view), and the sliders its `controls=` names.
fn embed_page(m: &Model, on: &Handlers, later: bool) -> Html {
    let view = &m.view;
    let (cfg, defaults) = m.asked_cfg();
    let side = KnobSide {
        settings: m.asked(),
        cfg,
        defaults,
        b: false,
    };
    let knobs: Vec<_> = view
        .display
        .controls
        .iter()
        .filter_map(|c| crate::knobs::knob(c))
        .collect();
    let controls = (!knobs.is_empty()).then(|| {
        knobs
            .iter()
            .map(|k| knob_slider(view.lang, k, &side, &on.edit))
            .collect::<Html>()
    });
    let open_link = format!("./?{}", m.open_link());
    let head = html! { <>
        { notices(view.lang, later, m.run.error.as_ref(), &view.notices, &on.dismiss) }
        { running(m) }
        if m.loaded && view.display.shows_results() { { results(m, on) } }
    </> };
    html! {
        <EmbedLayout {head} {controls} {open_link}>
            if m.loaded { { panels(m, on) } }
            if m.loaded && view.display.shows("compare") && m.b.is_some() { { compare(m, on) } }
        </EmbedLayout>
    }
}

/// The whole playground.
fn full_page(m: &Model, on: &Handlers, root: NodeRef, later: bool) -> Html {
    let (run, view) = (&m.run, &m.view);
    let lang = view.lang;
    let page = crate::browser::page_address();
    let header = html! {
        <Header tagline={tr(lang, "ui.tagline")}>
            { version_picker(lang, m.asked().minor, &on.edit) }
            { preset_picker(lang, view.preset, &on.edit) }
            { language_picker(lang, &on.lang) }
            { share(lang, format!("{page}?{}", m.link(view.t)), embed_code(&page, &m.embed_link())) }
            <WorkshopNav exercise={view.display.exercise} onexercise={on.exercise.clone()} ontour={on.tour.clone()} />
        </Header>
    };
    let banners = html! { <>
        { notices(lang, later, run.error.as_ref(), &view.notices, &on.dismiss) }
        <Tour step={view.tour} ontour={on.tour.clone()} />
    </> };
    let (cfg, defaults) = m.asked_cfg();
    let side = html! { <>
        if m.loaded { <crate::components::strip::Strip run={m.run.clone()} /> }
        <crate::components::controls::ControlPanel settings={m.asked().clone()} cfg={Same(cfg.clone())} defaults={Same(defaults.clone())} onedit={on.edit.clone()} />
        <FaultPanel settings={m.asked().clone()} nodes={cfg.nodes.len() as u32} onedit={on.edit.clone()} />
        <crate::components::cloud::CloudPanel settings={m.asked().clone()} onedit={on.edit.clone()} />
    </> };
    let exercise = view
        .display
        .exercise
        .filter(|&n| crate::exercises::exercise(n).is_some());
    let stage = if !m.loaded {
        html! { <>{ running(m) }<h2>{tr(lang, "ui.h.export")}</h2><ExportPanel settings={m.asked().clone()} run={m.run.clone()} /></> }
    } else {
        html! { <>
            { running(m) }
            if let Some(n) = exercise {
                <ExercisePanel {n} a={run.clone()} b={m.b.clone()} solution={view.display.solution} onopen={on.exercise.clone()} />
            }
            { results(m, on) }
            <Slo targets={view.display.question.targets.clone()} run={run.clone()} spreads={m.spreads.clone().filter(|_| m.b.is_none())} />
            { panels(m, on) }
            if m.b.is_none() {
                <h2>{tr(lang, "ui.seeds_title")}</h2>
                <Seeds spreads={m.spreads.clone()} running={m.pending.spreads} onrun={on.compare.reform(|()| CompareAction::RunSpreads)}
                    targets={view.display.question.targets.clone()} />
            }
            <h2>{tr(lang, "ui.h.tune")}</h2>
            <TunePanel question={view.display.question.clone()} cfg={Same(cfg.clone())} settings={m.asked().clone()}
                b_settings={m.asked_b().cloned()} onquestion={on.question.clone()} onedit={on.edit.clone()}
                onedit_b={on.compare.reform(CompareAction::EditB)} />
            <h2>{tr(lang, "ui.h.compare")}</h2>
            { compare(m, on) }
            <Warnings run={run.clone()} />
            <h2>{tr(lang, "ui.h.cost")}</h2>
            <Cost cfg={Same(cfg.clone())} defaults={Same(defaults.clone())} nodes={view.cost_nodes} onnodes={on.cost_nodes.clone()} />
            <h2>{tr(lang, "ui.h.export")}</h2>
            <ExportPanel settings={m.asked().clone()} run={m.run.clone()} />
            <h2>{tr(lang, "ui.h.import")}</h2>
            <ImportPanel settings={m.asked().clone()} onedit={on.edit.clone()} />
            <h2>{tr(lang, "ui.h.events")}</h2>
            <div data-tour="events"><EventLog run={run.clone()} now={view.t} onseek={on.seek.clone()} /></div>
        </> }
    };
    // The short layout: the header and banners above two columns, controls beside the results
    // (the results first on narrow screens).
    html! {
        <div class="app" ref={root}>
            {header}
            {banners}
            <main class="app-main">
                <aside class="app-side" aria-label={tr(lang, "ui.controls")}>{side}</aside>
                <section class="app-stage" aria-label={tr(lang, "ui.results")}>{stage}</section>
            </main>
        </div>
    }
}

/// A small "simulating…" line while the worker runs what the page asked for; the last result
/// stays on screen meanwhile.
fn running(m: &Model) -> Html {
    html! { <crate::components::running::Running on={m.running()} /> }
}

/// The milestones and the time controls.
fn results(m: &Model, on: &Handlers) -> Html {
    let view = &m.view;
    html! {
        <Results run={m.run.clone()} playing={view.playing} t={view.t} speed_exp={view.speed_exp} onaction={on.transport.clone()}
            cards={view.display.shows_cards()} controls={view.display.shows_playback()} />
    }
}

/// The cluster, the timeline and "where does the time go?", as far as the layout shows them.
fn panels(m: &Model, on: &Handlers) -> Html {
    let (run, view) = (&m.run, &m.view);
    let (d, now, duration) = (&view.display, view.t, run.cfg.duration);
    let grace = run.cfg.controller_manager.node_monitor_grace_period;
    // Downloads belong to the full page; an embed stays a picture.
    let timeline_figure = Figure::Timeline {
        lanes: run.lanes.clone(),
        duration,
        now,
    };
    let big = run.cfg.nodes.len() > GRID_ABOVE;
    html! { <>
        if d.shows("cluster") {
            { nodes_unknown(view.lang, run, now) }
            if big { <ClusterGrid run={run.clone()} {now} /> }
            else { <Cluster view={at(&run.outcome, now)} {now} {grace} zone_states={zone_states(run, now)} /> }
        }
        if d.shows("timeline") && big {
            <AggregateTimeline run={run.clone()} {now} onseek={on.seek.clone()} />
        }
        if d.shows("timeline") && !big {
            <Timeline lanes={run.lanes.clone()} {duration} {now} onseek={on.seek.clone()} slo={slo_lines(run, &d.question.targets)} />
            if !d.embed { <Download figure={timeline_figure} /> }
        }
        if d.shows("breakdown") {
            <div data-tour="breakdown"><h2>{tr(view.lang, "ui.breakdown.title")}</h2>
                if run.spread.nodes_tainted > 1 || run.outcome.summary.nodes.len() > 1 {
                    <SpreadPanel spread={run.spread.clone()} onseek={on.seek.clone()} />
                }
                <Breakdown run={run.clone()} /></div>
            if !d.embed { <Download figure={Figure::Breakdown(run.clone())} /> }
        }
    </> }
}

/// How many nodes are Ready=Unknown at the playhead `now` (ms).
/// The SLO targets' lines on the timeline: each target's text and where it falls.
fn slo_lines(run: &Run, targets: &[kubelife_engine::tune::Target]) -> Rc<Vec<(String, Millis)>> {
    let lines = targets.iter().filter_map(|t| {
        let at = crate::slo::line_at(&run.outcome, t)?;
        Some((crate::components::seeds::slo_text(t), at))
    });
    Rc::new(lines.collect())
}

fn nodes_unknown(lang: Lang, run: &Run, now: Millis) -> Html {
    html! {
        <p class="app-unknown">{tr(lang, "ui.cluster.unknown")}
            <strong data-testid="nodes-unknown">{run.aggregate.nodes_unknown_at(now)}</strong></p>
    }
}

/// Each zone's state at the playhead `now` (ms), by zone name.
fn zone_states(run: &Run, now: Millis) -> Vec<(String, String)> {
    run.aggregate
        .counts_at(now)
        .into_iter()
        .map(|z| (z.zone.to_string(), z.state.to_string()))
        .collect()
}

/// The compare section.
fn compare(m: &Model, on: &Handlers) -> Html {
    html! {
        <CompareSection a={m.run.clone()} b={m.b.clone()} spreads={m.spreads.clone()} running={m.pending.spreads} now={m.view.t} nodes={m.view.cost_nodes}
            onaction={on.compare.clone()} onseek={on.seek.clone()} />
    }
}

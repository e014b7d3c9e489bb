//! The playground: controls on one side, the cluster, timeline and explanations on the other.
//! Every change of a control re-runs the engine; the playhead only decides what is shown.

use crate::components::breakdown::Breakdown;
use crate::components::cluster::Cluster;
use crate::components::cost::Cost;
use crate::components::events::EventLog;
use crate::components::slider::Slider;
use crate::components::timeline::Timeline;
use crate::explain::{breakdown, milestone_text, milestones, tuning_warnings};
use crate::i18n::{cause, tr, trf, Lang};
use crate::knobs::{Group, KNOBS};
use crate::link::Display;
use crate::replay::{at, lanes, next_event_after, Lane};
use crate::settings::Settings;
use kubelife_engine::presets::presets;
use kubelife_engine::scenario::ActionKind;
use kubelife_engine::time::format_go_duration_tenths;
use kubelife_engine::version::{NEWEST_MINOR, OLDEST_MINOR};
use kubelife_engine::{distribution, run, Config, Distribution, Millis, Outcome, RunOptions};
use std::rc::Rc;
use wasm_bindgen::JsCast;
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

/// Most lanes the timeline draws.
pub const MAX_LANES: usize = 60;
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

/// How many seeds the distribution view runs.
pub const SPREAD_RUNS: u32 = 200;

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
    fn keeping_view(mut self, old: &mut Model) -> Model {
        self.speed_exp = old.speed_exp;
        self.cost_nodes = old.cost_nodes;
        self.display = std::mem::take(&mut old.display);
        self.lang = old.lang;
        self.tour = old.tour;
        self
    }
}

/// What can happen to the page.
pub enum Msg {
    /// Change the settings (the engine re-runs).
    Settings(Box<dyn FnOnce(&mut Settings)>),
    /// Play or pause.
    Toggle,
    /// Advance by wall-clock ms.
    Tick(f64),
    /// Move the playhead.
    Seek(Millis),
    /// Jump to the next event.
    Next,
    /// Back to the start.
    Restart,
    /// Playback speed exponent.
    Speed(f64),
    /// Cluster size of the cost readout.
    CostNodes(u32),
    /// Dismiss the link notices.
    DismissNotices,
    /// Change side B's settings.
    SettingsB(Box<dyn FnOnce(&mut Settings)>),
    /// Turn compare mode on (B starts as a copy of A) or off.
    Compare(bool),
    /// Make B a copy of A.
    CopyAToB,
    /// Exchange A and B.
    Swap,
    /// The classic comparison: A on 1.12's legacy path, B on the newest version, same cluster and fault.
    Classic,
    /// Run the distribution view's seeds.
    RunSpreads,
    /// Switch the language; everything else stays.
    Lang(Lang),
    /// Open an exercise in its starting state (1-based), or close the exercise panel.
    Exercise(Option<u32>),
    /// Show a tour step, or close the tour.
    Tour(Option<usize>),
}

impl Reducible for Model {
    type Action = Msg;

    fn reduce(self: Rc<Self>, msg: Msg) -> Rc<Self> {
        let mut m = (*self).clone();
        match msg {
            Msg::Settings(f) => {
                let mut s = m.settings.clone();
                f(&mut s);
                if s == m.settings {
                    return self;
                }
                let mut fresh = simulate(s).keeping_view(&mut m);
                fresh.t = m.t.min(fresh.cfg.duration);
                fresh.playing = m.playing;
                fresh.notices = std::mem::take(&mut m.notices);
                fresh.b = m.b.take();
                m = fresh;
            }
            Msg::Toggle => {
                if !m.playing && m.t >= m.cfg.duration {
                    m.t = 0;
                }
                m.playing = !m.playing;
            }
            Msg::Tick(wall) => {
                if !m.playing {
                    return self;
                }
                m.t += (wall * 10f64.powf(m.speed_exp)) as Millis;
                if m.t >= m.cfg.duration {
                    m.t = m.cfg.duration;
                    m.playing = false;
                }
            }
            Msg::Seek(t) => m.t = t.clamp(0, m.cfg.duration),
            Msg::Next => m.t = next_event_after(&m.outcome, m.t).unwrap_or(m.cfg.duration),
            Msg::Restart => {
                m.t = 0;
                m.playing = false;
            }
            Msg::Speed(e) => m.speed_exp = e.clamp(0.0, 3.0),
            Msg::CostNodes(n) => m.cost_nodes = n,
            Msg::DismissNotices => m.notices.clear(),
            Msg::SettingsB(f) => {
                let mut b = m.b.as_ref().map_or_else(|| m.settings.clone(), |b| b.settings.clone());
                f(&mut b);
                m.b = Some(Rc::new(simulate_side(b)));
                m.spreads = None;
            }
            Msg::Compare(on) => {
                m.b = on.then(|| Rc::new(simulate_side(m.settings.clone())));
                m.spreads = None;
            }
            Msg::CopyAToB => {
                m.b = Some(Rc::new(simulate_side(m.settings.clone())));
                m.spreads = None;
            }
            Msg::Swap => {
                if let Some(b) = m.b.take() {
                    let a = m.settings.clone();
                    let mut fresh = simulate(b.settings.clone()).keeping_view(&mut m);
                    fresh.t = m.t.min(fresh.cfg.duration);
                    fresh.b = Some(Rc::new(simulate_side(a)));
                    m = fresh;
                }
            }
            Msg::Classic => {
                let base = Settings {
                    overrides: Default::default(),
                    enable_taint_manager: true,
                    taint_based_evictions: true,
                    ..m.settings.clone()
                };
                let mut fresh = simulate(Settings {
                    minor: 12,
                    ..base.clone()
                })
                .keeping_view(&mut m);
                fresh.b = Some(Rc::new(simulate_side(Settings {
                    minor: NEWEST_MINOR,
                    ..base
                })));
                m = fresh;
            }
            Msg::RunSpreads => {
                let a = distribution(&m.cfg, SPREAD_RUNS);
                let b = m.b.as_ref().map(|b| distribution(&b.cfg, SPREAD_RUNS));
                m.spreads = Some(Rc::new((a, b)));
            }
            Msg::Lang(l) => {
                m.lang = l;
                m.display.lang = Some(l);
            }
            Msg::Exercise(n) => match n.and_then(crate::exercises::exercise) {
                Some(ex) => {
                    let (a, b) = (ex.start)();
                    let mut fresh = simulate(a).keeping_view(&mut m);
                    fresh.display.exercise = n;
                    fresh.display.instructor = false;
                    fresh.b = b.map(|b| Rc::new(simulate_side(b)));
                    m = fresh;
                }
                None => {
                    m.display.exercise = None;
                    m.display.instructor = false;
                }
            },
            Msg::Tour(step) => {
                m.tour = step;
                if let Some(t) = step
                    .and_then(|s| crate::components::tour::STEPS.get(s))
                    .and_then(|s| s.seek)
                {
                    m.t = t(&m.outcome).clamp(0, m.cfg.duration);
                    m.playing = false;
                }
            }
        }
        Rc::new(m)
    }
}

fn select_value(e: &Event) -> String {
    e.target_unchecked_into::<HtmlSelectElement>().value()
}

fn input_value(e: &InputEvent) -> String {
    e.target_unchecked_into::<HtmlInputElement>().value()
}

fn seek_cb(model: &UseReducerHandle<Model>) -> Callback<Millis> {
    let model = model.clone();
    Callback::from(move |t: Millis| model.dispatch(Msg::Seek(t)))
}

fn set(model: &UseReducerHandle<Model>, f: impl FnOnce(&mut Settings) + 'static) {
    model.dispatch(Msg::Settings(Box::new(f)));
}

/// Whether the user asked for reduced motion.
fn reduced_motion() -> bool {
    web_sys::window()
        .and_then(|w| w.match_media("(prefers-reduced-motion: reduce)").ok().flatten())
        .is_some_and(|m| m.matches())
}

/// The link of the current state, with the playhead at `t`.
fn current_link(m: &Model, t: Millis) -> String {
    let playback = crate::link::Playback {
        t,
        speed_exp: (m.speed_exp != 1.0).then_some(m.speed_exp),
    };
    crate::link::encode_all(&m.settings, m.b.as_ref().map(|b| &b.settings), playback, &m.display)
}

/// An `<iframe>` snippet that embeds the current state, resizing itself to its content.
pub fn embed_code(page: &str, query: &str) -> String {
    let escape = |s: &str| s.replace('&', "&amp;").replace('"', "&quot;").replace('<', "&lt;");
    let src = escape(&format!("{page}?{query}"));
    format!(
        "<iframe src=\"{src}\" title=\"kubelife playground\" style=\"width:100%;border:0\" height=\"600\" loading=\"lazy\"></iframe>\n<script>addEventListener(\"message\",e=>{{if(e.data&&e.data.type===\"kubelife:height\")for(const f of document.querySelectorAll(\"iframe\"))if(f.contentWindow===e.source)f.height=e.data.height}})</script>"
    )
}

/// The page.
#[function_component(App)]
pub fn app() -> Html {
    let model = use_reducer(|| {
        // The page opens in the state its link describes; what the link could not apply is listed.
        let query = web_sys::window()
            .and_then(|w| w.location().search().ok())
            .unwrap_or_default();
        let decoded = crate::link::decode(&query);
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
        let mut m = simulate(settings);
        m.t = decoded.playback.t.min(m.cfg.duration);
        if let Some(e) = decoded.playback.speed_exp {
            m.speed_exp = e;
        }
        m.notices = decoded.notices;
        m.b = b.map(|b| Rc::new(simulate_side(b)));
        m.lang = decoded.display.lang.unwrap_or_else(browser_lang);
        m.playing = decoded.display.autoplay;
        m.display = decoded.display;
        m
    });
    // Keep the address bar in step with the state (not on every playback frame), so a reload or a
    // copied address loses nothing.
    {
        let link = current_link(&model, if model.playing { 0 } else { model.t });
        use_effect_with(link, move |link| {
            if let Some(w) = web_sys::window() {
                if let Ok(h) = w.history() {
                    let path = w.location().pathname().unwrap_or_default();
                    let _ = h.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&format!("{path}?{link}")));
                }
            }
        });
    }
    // Inside an iframe, tell the parent page how tall the content is, whenever that changes.
    {
        let last = use_mut_ref(|| 0i32);
        use_effect(move || {
            let Some(w) = web_sys::window() else { return };
            let framed = w.parent().ok().flatten().is_some_and(|p| p != w);
            let height = w
                .document()
                .and_then(|d| d.document_element())
                .map_or(0, |e| e.scroll_height());
            if framed && height != *last.borrow() {
                *last.borrow_mut() = height;
                let msg = js_sys::Object::new();
                let _ = js_sys::Reflect::set(&msg, &"type".into(), &"kubelife:height".into());
                let _ = js_sys::Reflect::set(&msg, &"height".into(), &height.into());
                if let Ok(Some(parent)) = w.parent() {
                    let _ = parent.post_message(&msg, "*");
                }
            }
        });
    }
    // Playback clock.
    {
        let model = model.clone();
        use_effect_with((), move |_| {
            let interval = gloo_timers::callback::Interval::new(FRAME as u32, move || model.dispatch(Msg::Tick(FRAME)));
            move || drop(interval)
        });
    }
    // Keyboard: Space plays or pauses, Right arrow jumps to the next event (not while typing).
    {
        let model = model.clone();
        use_effect_with((), move |_| {
            let handler = wasm_bindgen::closure::Closure::<dyn Fn(KeyboardEvent)>::new(move |e: KeyboardEvent| {
                let typing = e
                    .target()
                    .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
                    .is_some_and(|el| matches!(el.tag_name().as_str(), "INPUT" | "SELECT" | "TEXTAREA" | "BUTTON"));
                if typing {
                    return;
                }
                match e.key().as_str() {
                    " " => {
                        e.prevent_default();
                        model.dispatch(Msg::Toggle);
                    }
                    "ArrowRight" => model.dispatch(Msg::Next),
                    _ => {}
                }
            });
            let doc = web_sys::window().and_then(|w| w.document());
            if let Some(d) = &doc {
                let _ = d.add_event_listener_with_callback("keydown", handler.as_ref().unchecked_ref());
            }
            move || {
                if let Some(d) = doc {
                    let _ = d.remove_event_listener_with_callback("keydown", handler.as_ref().unchecked_ref());
                }
            }
        });
    }
    // The document's language follows the page's.
    {
        let code = model.lang.code();
        use_effect_with(code, move |code| {
            if let Some(el) = web_sys::window()
                .and_then(|w| w.document())
                .and_then(|d| d.document_element())
            {
                let _ = el.set_attribute("lang", if *code == "zh" { "zh-CN" } else { code });
            }
        });
    }
    let m = &*model;
    let lang = m.lang;
    let minor = m.settings.minor;
    let ms = milestones(&m.outcome);
    let view = at(&m.outcome, m.t);
    let mut warnings: Vec<kubelife_engine::Cause> = m.outcome.warnings.clone();
    warnings.extend(tuning_warnings(&m.cfg));
    let lang_picker = {
        let model = model.clone();
        let onchange = Callback::from(move |e: Event| {
            if let Some(l) = Lang::parse(&select_value(&e)) {
                model.dispatch(Msg::Lang(l));
            }
        });
        html! {
            <label class="picker">{"🌐 "}
                <select aria-label={tr(lang, "ui.language")} data-testid="language" {onchange}>
                { for Lang::ALL.iter().map(|l| html!{ <option value={l.code()} selected={*l == lang}>{l.name()}</option> }) }
                </select>
            </label>
        }
    };

    let version_picker = {
        let model = model.clone();
        let onchange = Callback::from(move |e: Event| {
            if let Ok(v) = select_value(&e).parse::<u32>() {
                set(&model, move |s| s.minor = v);
            }
        });
        html! {
            <label class="picker">{"Kubernetes "}
                <select aria-label={tr(lang, "ui.version_label")} {onchange}>
                { for (OLDEST_MINOR..=NEWEST_MINOR).rev().map(|v| html!{ <option value={v.to_string()} selected={v == minor}>{format!("1.{v}")}</option> }) }
                </select>
            </label>
        }
    };
    let preset_picker = {
        let model = model.clone();
        let onchange = Callback::from(move |e: Event| {
            let name = select_value(&e);
            if let Some(p) = kubelife_engine::presets::preset(&name) {
                set(&model, move |s| *s = s.from_preset(&p.scenario));
            }
        });
        html! {
            <label class="picker">{tr(lang, "ui.preset")}
                <select aria-label={tr(lang, "ui.preset_label")} {onchange}>
                    <option value="" selected=true>{tr(lang, "ui.preset.choose")}</option>
                    { for presets().iter().map(|p| html!{ <option value={p.name} title={preset_description(lang, p)}>{p.name}</option> }) }
                </select>
            </label>
        }
    };

    let knob_group = |g: Group| -> Html {
        html! {
            { for KNOBS.iter().filter(|k| k.group == g).map(|k| {
                let flag = k.flag;
                let disabled = (!k.available(minor)).then(|| AttrValue::from(not_in(lang, minor, k.missing(lang))));
                let onchange = { let model = model.clone(); Callback::from(move |v: f64| set(&model, move |s| s.set(flag, v))) };
                let onreset = { let model = model.clone(); Callback::from(move |_| set(&model, move |s| { s.overrides.remove(flag); })) };
                html! {
                    <Slider flag={flag} field={k.field} help={k.help(lang)} unit={k.unit} value={m.settings.value(flag, &m.cfg)}
                        default={(k.read)(&m.defaults)} min={k.min} max={k.max} step={k.step} {disabled} {onchange} {onreset} />
                }
            }) }
        }
    };
    let count = |key: &'static str, value: u32, min: u32, max: u32, f: fn(&mut Settings, u32)| -> Html {
        let label = tr(lang, key);
        let oninput = {
            let model = model.clone();
            Callback::from(move |e: InputEvent| {
                if let Ok(v) = input_value(&e).parse::<u32>() {
                    set(&model, move |s| f(s, v.clamp(min, max)));
                }
            })
        };
        let onnumber = {
            let model = model.clone();
            Callback::from(move |e: Event| {
                if let Ok(v) = e
                    .target_unchecked_into::<HtmlInputElement>()
                    .value()
                    .trim()
                    .parse::<u32>()
                {
                    set(&model, move |s| f(s, v.clamp(min, max)));
                }
            })
        };
        html! {
            <div class="count">
                <label>{label}{" "}<strong>{value}</strong></label>
                <div class="knob-row">
                    <input type="range" min={min.to_string()} max={max.to_string()} step="1" value={value.to_string()} aria-label={label} {oninput} />
                    <input type="number" class="number" min={min.to_string()} max={max.to_string()} value={value.to_string()} aria-label={format!("{label} {}", tr(lang, "ui.slider.value"))} onchange={onnumber} />
                </div>
            </div>
        }
    };
    let toggle = |label: &'static str,
                  help: &'static str,
                  on: bool,
                  enabled: bool,
                  why: &'static str,
                  f: fn(&mut Settings, bool)|
     -> Html {
        let (help, why) = (tr(lang, help), tr(lang, why));
        let model = model.clone();
        let onchange = Callback::from(move |e: Event| {
            let v = e.target_unchecked_into::<HtmlInputElement>().checked();
            set(&model, move |s| f(s, v));
        });
        html! {
            <div class={classes!("toggle", (!enabled).then_some("disabled"))}>
                <label><input type="checkbox" checked={on} disabled={!enabled} aria-label={label} {onchange} />{" "}<code>{label}</code></label>
                <p class="help">{help}</p>
                if !enabled { <p class="why-disabled">{not_in(lang, minor, why)}</p> }
            </div>
        }
    };

    let fault_panel = {
        let nodes = m.cfg.nodes.len() as u32;
        let on_node = {
            let model = model.clone();
            Callback::from(move |e: Event| {
                if let Ok(v) = select_value(&e).parse::<u32>() {
                    set(&model, move |s| s.fault.node = v)
                }
            })
        };
        let on_kind = {
            let model = model.clone();
            Callback::from(move |e: Event| {
                let kind = match select_value(&e).as_str() {
                    "KubeletStop" => ActionKind::KubeletStop,
                    "NetworkPartition" => ActionKind::NetworkPartition,
                    _ => ActionKind::NodeCrash,
                };
                set(&model, move |s| s.fault.kind = kind);
            })
        };
        // A range input whose value (s) goes through `f`; 0 means "off" where `f` says so.
        let range = |key: &'static str,
                     testid: &'static str,
                     value: u32,
                     max: u32,
                     step: u32,
                     shown: String,
                     f: fn(&mut Settings, u32)|
         -> Html {
            let model = model.clone();
            let oninput = Callback::from(move |e: InputEvent| {
                if let Ok(v) = input_value(&e).parse::<u32>() {
                    set(&model, move |s| f(s, v.min(max)))
                }
            });
            html! {
                <label class="count" data-testid={testid}>{tr(lang, key)}{" "}<strong>{shown}</strong>
                    <input type="range" min="0" max={max.to_string()} step={step.to_string()} value={value.to_string()} aria-label={tr(lang, key)} {oninput} /></label>
            }
        };
        let secs = |v: Option<u32>| {
            v.map_or_else(
                || tr(lang, "ui.off").to_string(),
                |s| format_go_duration_tenths(i64::from(s) * 1000),
            )
        };
        let f = &m.settings.fault;
        let o = &m.settings.ops;
        let spike = o.latency;
        let patch = o.toleration_patch;
        html! {
            <fieldset class="faults" data-tour="faults">
                <legend>{tr(lang, "ui.faults")}</legend>
                <label>{tr(lang, "ui.fault.node")}<select aria-label={tr(lang, "ui.fault.node_label")} onchange={on_node}>
                    { for (0..nodes).map(|i| html!{ <option value={i.to_string()} selected={i == f.node}>{format!("node-{}", i + 1)}</option> }) }
                </select></label>
                <label>{tr(lang, "ui.fault.kind")}<select aria-label={tr(lang, "ui.fault.kind_label")} onchange={on_kind}>
                    { for [("NodeCrash", "ui.fault.crash"), ("KubeletStop", "ui.fault.kubelet_stop"), ("NetworkPartition", "ui.fault.partition")].iter().map(|(v, l)| html!{
                        <option value={*v} selected={format!("{:?}", f.kind) == *v}>{tr(lang, l)}</option> }) }
                </select></label>
                { range("ui.fault.at", "fault-at", f.at_seconds, 600, 5, format_go_duration_tenths(i64::from(f.at_seconds) * 1000), |s, v| s.fault.at_seconds = v) }
                { range("ui.fault.recover", "fault-recover", f.recover_at_seconds.unwrap_or(0), 900, 5,
                    f.recover_at_seconds.map_or_else(|| tr(lang, "ui.never").to_string(), |r| format_go_duration_tenths(i64::from(r) * 1000)),
                    |s, v| s.fault.recover_at_seconds = (v > 0).then_some(v)) }
                { range("ui.fault.count", "fault-count", f.count, nodes.max(1), 1, f.count.to_string(), |s, v| s.fault.count = v.max(1)) }
                <h4>{tr(lang, "ui.ops")}</h4>
                { range("ui.ops.out_of_service", "ops-out-of-service", o.out_of_service_at_seconds.unwrap_or(0), 900, 5, secs(o.out_of_service_at_seconds),
                    |s, v| s.ops.out_of_service_at_seconds = (v > 0).then_some(v)) }
                { range("ui.ops.kcm_restart", "ops-kcm-restart", o.kcm_restart_at_seconds.unwrap_or(0), 900, 5, secs(o.kcm_restart_at_seconds),
                    |s, v| s.ops.kcm_restart_at_seconds = (v > 0).then_some(v)) }
                { range("ui.ops.latency_ms", "ops-latency-ms", spike.map_or(0, |l| l.ms), 5000, 100,
                    spike.map_or_else(|| tr(lang, "ui.off").to_string(), |l| format!("{}ms", l.ms)),
                    |s, v| s.ops.latency = (v > 0).then(|| crate::settings::LatencySpike { ms: v, ..s.ops.latency.unwrap_or(crate::settings::LatencySpike { from_seconds: 120, until_seconds: 300, ms: v }) })) }
                if let Some(l) = spike {
                    { range("ui.ops.latency_from", "ops-latency-from", l.from_seconds, 900, 5, secs(Some(l.from_seconds)),
                        |s, v| if let Some(l) = s.ops.latency.as_mut() { l.from_seconds = v }) }
                    { range("ui.ops.latency_until", "ops-latency-until", l.until_seconds, 900, 5, secs(Some(l.until_seconds)),
                        |s, v| if let Some(l) = s.ops.latency.as_mut() { l.until_seconds = v }) }
                }
                { range("ui.ops.patch_seconds", "ops-patch-seconds", patch.map_or(0, |p| p.seconds), 3600, 60,
                    patch.map_or_else(|| tr(lang, "ui.off").to_string(), |p| format_go_duration_tenths(i64::from(p.seconds) * 1000)),
                    |s, v| s.ops.toleration_patch = (v > 0).then(|| crate::settings::TolerationPatch { seconds: v, at_seconds: s.ops.toleration_patch.map_or(200, |p| p.at_seconds) })) }
                if let Some(p) = patch {
                    { range("ui.ops.patch_at", "ops-patch-at", p.at_seconds, 900, 5, secs(Some(p.at_seconds)),
                        |s, v| if let Some(p) = s.ops.toleration_patch.as_mut() { p.at_seconds = v }) }
                }
            </fieldset>
        }
    };

    let transport = {
        let toggle_cb = {
            let model = model.clone();
            Callback::from(move |_| model.dispatch(Msg::Toggle))
        };
        let restart = {
            let model = model.clone();
            Callback::from(move |_| model.dispatch(Msg::Restart))
        };
        let next = {
            let model = model.clone();
            Callback::from(move |_| model.dispatch(Msg::Next))
        };
        let speed = {
            let model = model.clone();
            Callback::from(move |e: InputEvent| {
                if let Ok(v) = input_value(&e).parse::<f64>() {
                    model.dispatch(Msg::Speed(v))
                }
            })
        };
        let scrub = {
            let model = model.clone();
            Callback::from(move |e: InputEvent| {
                if let Ok(v) = input_value(&e).parse::<i64>() {
                    model.dispatch(Msg::Seek(v))
                }
            })
        };
        let label = tr(lang, if m.playing { "ui.pause" } else { "ui.play" });
        html! {
            <div class="transport" data-tour="transport">
                <button onclick={toggle_cb} aria-label={label} class="play">{ if m.playing { "❚❚ " } else { "▶ " } }{label}</button>
                <button onclick={restart} aria-label={tr(lang, "ui.restart")}>{"↺ "}{tr(lang, "ui.restart")}</button>
                <button onclick={next} aria-label={tr(lang, "ui.next_event")}>{"→ "}{tr(lang, "ui.next_event")}</button>
                <label class="speed">{trf(lang, "ui.speed", &[("x", &format!("{:.0}", 10f64.powf(m.speed_exp)))])}
                    <input type="range" min="0" max="3" step="0.01" value={m.speed_exp.to_string()} aria-label={tr(lang, "ui.speed_label")} oninput={speed} /></label>
                <label class="scrub">{"t = "}<strong data-testid="playhead">{format_go_duration_tenths(m.t)}</strong>
                    <input type="range" min="0" max={m.cfg.duration.to_string()} step="100" value={m.t.to_string()} aria-label={tr(lang, "ui.playhead")} oninput={scrub} /></label>
            </div>
        }
    };

    let share = {
        let page = web_sys::window()
            .map(|w| {
                let l = w.location();
                format!("{}{}", l.origin().unwrap_or_default(), l.pathname().unwrap_or_default())
            })
            .unwrap_or_default();
        let url = format!("{page}?{}", current_link(m, m.t));
        let views: Vec<String> = if m.b.is_some() {
            vec!["timeline".into(), "breakdown".into(), "compare".into()]
        } else {
            vec!["timeline".into(), "cluster".into(), "breakdown".into()]
        };
        let embed_display = Display {
            embed: true,
            views,
            autoplay: false,
            controls: vec![
                "node-monitor-grace-period".into(),
                "default-unreachable-toleration-seconds".into(),
            ],
            lang: m.display.lang,
            ..Display::default()
        };
        let embed_query = crate::link::encode_all(
            &m.settings,
            m.b.as_ref().map(|b| &b.settings),
            crate::link::Playback::default(),
            &embed_display,
        );
        let snippet = embed_code(&page, &embed_query);
        let clip = |text: String| {
            Callback::from(move |_| {
                if let Some(w) = web_sys::window() {
                    let _ = w.navigator().clipboard().write_text(&text);
                }
            })
        };
        html! {
            <span class="share">
                <input readonly=true value={url.clone()} aria-label={tr(lang, "ui.share_label")} data-testid="share-link" size="28" />
                <button onclick={clip(url)}>{tr(lang, "ui.copy_link")}</button>
                <button onclick={clip(snippet.clone())} data-snippet={snippet.clone()}>{tr(lang, "ui.copy_embed")}</button>
            </span>
        }
    };
    let dismiss = {
        let model = model.clone();
        Callback::from(move |_| model.dispatch(Msg::DismissNotices))
    };
    let compare_section = {
        let on_compare = {
            let model = model.clone();
            let on = m.b.is_none();
            Callback::from(move |_| model.dispatch(Msg::Compare(on)))
        };
        let classic = {
            let model = model.clone();
            Callback::from(move |_| model.dispatch(Msg::Classic))
        };
        let body = m.b.as_ref().map(|b| {
            let bm = b.settings.minor;
            let copy_ab = {
                let model = model.clone();
                Callback::from(move |_| model.dispatch(Msg::CopyAToB))
            };
            let swap = {
                let model = model.clone();
                Callback::from(move |_| model.dispatch(Msg::Swap))
            };
            let spreads = {
                let model = model.clone();
                Callback::from(move |_| model.dispatch(Msg::RunSpreads))
            };
            let b_version = {
                let model = model.clone();
                Callback::from(move |e: Event| {
                    if let Ok(v) = select_value(&e).parse::<u32>() {
                        model.dispatch(Msg::SettingsB(Box::new(move |s| s.minor = v)));
                    }
                })
            };
            let b_preset = {
                let model = model.clone();
                Callback::from(move |e: Event| {
                    if let Some(p) = kubelife_engine::presets::preset(&select_value(&e)) {
                        model.dispatch(Msg::SettingsB(Box::new(move |s| *s = s.from_preset(&p.scenario))));
                    }
                })
            };
            let b_knobs = ["node-status-update-frequency", "node-monitor-period", "node-monitor-grace-period", "default-unreachable-toleration-seconds"];
            html! {
                <div class="compare-body">
                    <div class="compare-controls">
                        <label class="picker">{"B: Kubernetes "}
                            <select aria-label={tr(lang, "ui.b_version_label")} onchange={b_version}>
                            { for (OLDEST_MINOR..=NEWEST_MINOR).rev().map(|v| html!{ <option value={v.to_string()} selected={v == bm}>{format!("1.{v}")}</option> }) }
                            </select>
                        </label>
                        <label class="picker">{tr(lang, "ui.b_preset")}
                            <select aria-label={tr(lang, "ui.b_preset_label")} onchange={b_preset}>
                                <option value="" selected=true>{tr(lang, "ui.choose")}</option>
                                { for presets().iter().map(|p| html!{ <option value={p.name}>{p.name}</option> }) }
                            </select>
                        </label>
                        <button onclick={copy_ab}>{tr(lang, "ui.copy_a_to_b")}</button>
                        <button onclick={swap}>{tr(lang, "ui.swap")}</button>
                        <div class="b-knobs">
                        { for b_knobs.iter().filter_map(|f| crate::knobs::knob(f)).map(|k| {
                            let flag = k.flag;
                            let disabled = (!k.available(bm)).then(|| AttrValue::from(not_in(lang, bm, k.missing(lang))));
                            let onchange = { let model = model.clone(); Callback::from(move |v: f64| model.dispatch(Msg::SettingsB(Box::new(move |s| s.set(flag, v))))) };
                            let onreset = { let model = model.clone(); Callback::from(move |_| model.dispatch(Msg::SettingsB(Box::new(move |s| { s.overrides.remove(flag); })))) };
                            html! {
                                <Slider flag={format!("b-{flag}")} field={format!("B {}", k.field)} help={k.help(lang)} unit={k.unit} value={b.settings.value(flag, &b.cfg)}
                                    default={(k.read)(&b.defaults)} min={k.min} max={k.max} step={k.step} {disabled} {onchange} {onreset} />
                            }
                        }) }
                        </div>
                    </div>
                    <crate::components::compare::Deltas a={m.outcome.clone()} a_cfg={m.cfg.clone()} b={b.outcome.clone()} b_cfg={b.cfg.clone()} nodes={m.cost_nodes} />
                    <h3>{format!("A (Kubernetes 1.{minor})")}</h3>
                    <Timeline lanes={m.lanes.clone()} duration={m.cfg.duration.max(b.cfg.duration)} now={m.t} onseek={seek_cb(&model)} />
                    <h3>{format!("B (Kubernetes 1.{bm})")}</h3>
                    <Timeline lanes={b.lanes.clone()} duration={m.cfg.duration.max(b.cfg.duration)} now={m.t} onseek={seek_cb(&model)} />
                    <h3>{tr(lang, "ui.seeds_title")}</h3>
                    if let Some(sp) = &m.spreads {
                        <crate::components::compare::Histogram title={tr(lang, "ui.hist.unknown")} a={sp.0.milestones[0].clone()} b={sp.1.as_ref().map(|d| d.milestones[0].clone())} />
                        <crate::components::compare::Histogram title={tr(lang, "ui.hist.replacement")} a={sp.0.milestones[5].clone()} b={sp.1.as_ref().map(|d| d.milestones[5].clone())} />
                    } else {
                        <button onclick={spreads}>{tr(lang, "ui.run_seeds")}</button>
                    }
                </div>
            }
        });
        html! {
            <section class="compare" aria-label={tr(lang, "ui.compare")} data-tour="compare">
                <div class="compare-head">
                    <button onclick={on_compare} aria-pressed={m.b.is_some().to_string()}>{ tr(lang, if m.b.is_some() { "ui.compare.stop" } else { "ui.compare.start" }) }</button>
                    <button onclick={classic}>{tr(lang, "ui.compare.classic")}</button>
                </div>
                { body.unwrap_or_default() }
            </section>
        }
    };
    let seek = {
        let model = model.clone();
        Callback::from(move |t: Millis| model.dispatch(Msg::Seek(t)))
    };
    let on_cost = {
        let model = model.clone();
        Callback::from(move |n: u32| model.dispatch(Msg::CostNodes(n)))
    };
    let taint_manager_ok = minor <= 26;
    let tbe_ok = (13..=17).contains(&minor);
    let milestones_html = html! {
        <div class="milestones" aria-label={tr(lang, "ui.milestones")} data-tour="milestones">
            <div class="milestone" data-tour="milestone-unknown"><span>{tr(lang, "ui.milestone.unknown")}</span><strong data-testid="milestone-unknown">{milestone_text(lang, ms.unknown)}</strong></div>
            <div class="milestone" data-tour="milestone-taint"><span>{tr(lang, "ui.milestone.taint")}</span><strong data-testid="milestone-taint">{milestone_text(lang, ms.taint)}</strong></div>
            <div class="milestone" data-tour="milestone-eviction"><span>{tr(lang, "ui.milestone.eviction")}</span><strong data-testid="milestone-eviction">{milestone_text(lang, ms.eviction)}</strong></div>
            <div class="milestone" data-tour="milestone-replacement"><span>{tr(lang, "ui.milestone.replacement")}</span><strong data-testid="milestone-replacement">{milestone_text(lang, ms.replacement)}</strong></div>
        </div>
    };
    let notices_html = html! {
        <>
            if let Some(e) = &m.error { <div class="error-banner" role="alert">{trf(lang, "ui.refused", &[("error", e)])}</div> }
            if !m.notices.is_empty() {
                <div class="error-banner" role="status" data-testid="link-notices">
                    <strong>{tr(lang, "ui.notices")}</strong>
                    <ul>{ for m.notices.iter().map(|n| html!{ <li>{cause(lang, n)}</li> }) }</ul>
                    <button onclick={dismiss}>{tr(lang, "ui.dismiss")}</button>
                </div>
            }
        </>
    };
    let d = &m.display;
    let cluster_html =
        html! { <Cluster view={view} now={m.t} grace={m.cfg.controller_manager.node_monitor_grace_period} /> };
    let timeline_html =
        html! { <Timeline lanes={m.lanes.clone()} duration={m.cfg.duration} now={m.t} onseek={seek.clone()} /> };
    let breakdown_html = html! { <div data-tour="breakdown"><h2>{tr(lang, "ui.breakdown.title")}</h2><Breakdown segments={breakdown(&m.outcome, &m.cfg)} /></div> };
    let exercise_html = d
        .exercise
        .filter(|&n| crate::exercises::exercise(n).is_some())
        .map(|n| {
            let open = {
                let model = model.clone();
                Callback::from(move |n: Option<u32>| model.dispatch(Msg::Exercise(n)))
            };
            html! {
                <crate::components::workshop::ExercisePanel {n} settings={m.settings.clone()} cfg={m.cfg.clone()}
                    outcome={m.outcome.clone()} b={m.b.clone()} onopen={open} />
            }
        });
    let tour_html = {
        let model = model.clone();
        let ontour = Callback::from(move |s: Option<usize>| model.dispatch(Msg::Tour(s)));
        html! { <crate::components::tour::Tour step={m.tour} {ontour} /> }
    };
    if d.instructor && !d.embed {
        let open = {
            let model = model.clone();
            Callback::from(move |n: Option<u32>| model.dispatch(Msg::Exercise(n)))
        };
        return html! {
            <ContextProvider<Lang> context={lang}>
            <div class={classes!("app", "instructor")}>
                <header class="top">
                    <h1>{"kubelife"}</h1>
                    <p class="tagline">{tr(lang, "ui.instructor.tagline")}</p>
                    {lang_picker}
                </header>
                <crate::components::workshop::Instructor onopen={open} />
            </div>
            </ContextProvider<Lang>>
        };
    }
    if d.embed {
        // Embed: no header or side panels; the panels and sliders the link asks for.
        let controls: Vec<&crate::knobs::Knob> = d.controls.iter().filter_map(|c| crate::knobs::knob(c)).collect();
        return html! {
            <ContextProvider<Lang> context={lang}>
            <div class={classes!("app", "embed", reduced_motion().then_some("reduced-motion"))}>
                {notices_html}
                {milestones_html}
                {transport}
                if !controls.is_empty() {
                    <div class="embed-controls">
                    { for controls.into_iter().map(|k| {
                        let flag = k.flag;
                        let disabled = (!k.available(minor)).then(|| AttrValue::from(not_in(lang, minor, k.missing(lang))));
                        let onchange = { let model = model.clone(); Callback::from(move |v: f64| set(&model, move |s| s.set(flag, v))) };
                        let onreset = { let model = model.clone(); Callback::from(move |_| set(&model, move |s| { s.overrides.remove(flag); })) };
                        html! { <Slider flag={flag} field={k.field} help={k.help(lang)} unit={k.unit} value={m.settings.value(flag, &m.cfg)}
                            default={(k.read)(&m.defaults)} min={k.min} max={k.max} step={k.step} {disabled} {onchange} {onreset} /> }
                    }) }
                    </div>
                }
                if d.shows("cluster") { {cluster_html} }
                if d.shows("timeline") { {timeline_html} }
                if d.shows("breakdown") { {breakdown_html} }
                if d.shows("compare") && m.b.is_some() { {compare_section} }
                <p class="embed-credit"><a href={format!("./?{}", current_link(m, m.t).replace("embed=1", "embed=0"))} target="_blank" rel="noopener">{tr(lang, "ui.open_in")}</a></p>
            </div>
            </ContextProvider<Lang>>
        };
    }
    let workshop_nav = {
        let open_tour = {
            let model = model.clone();
            let resume = crate::components::tour::saved_step().unwrap_or(0);
            Callback::from(move |_| model.dispatch(Msg::Tour(Some(resume))))
        };
        let resume = crate::components::tour::saved_step().filter(|&s| s > 0);
        let open_list = {
            let model = model.clone();
            Callback::from(move |e: Event| {
                let n = select_value(&e).parse::<u32>().ok();
                model.dispatch(Msg::Exercise(n));
            })
        };
        html! {
            <nav class="workshop-nav">
                <button onclick={open_tour} data-testid="tour-start">
                    { match resume {
                        Some(s) => trf(lang, "ui.tour.resume", &[("step", &(s + 1)), ("steps", &crate::components::tour::STEPS.len())]),
                        None => tr(lang, "ui.tour.start").to_string(),
                    } }
                </button>
                <label class="picker">{tr(lang, "ui.exercises")}
                    <select aria-label={tr(lang, "ui.exercises")} data-testid="exercise-picker" onchange={open_list}>
                        <option value="" selected={d.exercise.is_none()}>{tr(lang, "ui.exercise.none")}</option>
                        { for crate::exercises::EXERCISES.iter().enumerate().map(|(i, ex)| {
                            let n = i as u32 + 1;
                            html!{ <option value={n.to_string()} selected={d.exercise == Some(n)}>{format!("{n}. {}", crate::components::workshop::title(lang, ex))}</option> }
                        }) }
                    </select>
                </label>
                <a href={format!("?instructor=1&lang={}", lang.code())}>{tr(lang, "ui.instructor.link")}</a>
            </nav>
        }
    };
    html! {
        <ContextProvider<Lang> context={lang}>
        <div class={classes!("app", reduced_motion().then_some("reduced-motion"))}>
            <header class="top">
                <h1>{"kubelife"}</h1>
                <p class="tagline">{tr(lang, "ui.tagline")}</p>
                {version_picker}{preset_picker}{lang_picker}{share}
                {workshop_nav}
            </header>
            {notices_html}
            {tour_html}
            <main>
                <aside class="controls" aria-label={tr(lang, "ui.controls")}>
                    { for Group::ALL.iter().map(|&g| html! {
                        <details open={g != Group::Cluster} class="group" data-tour={format!("group-{:?}", g).to_lowercase()}>
                            <summary>{g.title(lang)}</summary>
                            { knob_group(g) }
                            if g == Group::ControllerManager {
                                { toggle("--enable-taint-manager", "ui.toggle.taint_manager", m.settings.enable_taint_manager, taint_manager_ok, "ui.toggle.taint_manager_why", |s, v| s.enable_taint_manager = v) }
                                { toggle("--feature-gates=TaintBasedEvictions", "ui.toggle.tbe", m.settings.taint_based_evictions, tbe_ok, "ui.toggle.tbe_why", |s, v| s.taint_based_evictions = v) }
                            }
                            if g == Group::Workloads {
                                { count("ui.count.web", m.settings.web_replicas, 0, 30, |s, v| s.web_replicas = v) }
                                { count("ui.count.db", m.settings.db_replicas, 0, 10, |s, v| s.db_replicas = v) }
                            }
                            if g == Group::Cluster {
                                { count("ui.count.nodes", m.settings.nodes, 1, 50, |s, v| s.nodes = v) }
                                { count("ui.count.zones", m.settings.zones, 1, 3, |s, v| s.zones = v) }
                                { count("ui.count.seed", m.settings.seed as u32, 1, 1000, |s, v| s.seed = u64::from(v)) }
                            }
                        </details>
                    }) }
                    {fault_panel}
                </aside>
                <section class="stage">
                    if let Some(x) = exercise_html { {x} }
                    {milestones_html}
                    {transport}
                    if d.shows("cluster") { {cluster_html} }
                    if d.shows("timeline") { {timeline_html} }
                    if d.shows("breakdown") { {breakdown_html} }
                    <h2>{tr(lang, "ui.h.compare")}</h2>
                    {compare_section}
                    if !warnings.is_empty() {
                        <h2>{tr(lang, "ui.h.warnings")}</h2>
                        <ul class="warnings" role="status">{ for warnings.iter().map(|w| html!{ <li>{cause(lang, w)}</li> }) }</ul>
                    }
                    <h2>{tr(lang, "ui.h.cost")}</h2>
                    <Cost cfg={m.cfg.clone()} defaults={m.defaults.clone()} nodes={m.cost_nodes} onnodes={on_cost} />
                    <h2>{tr(lang, "ui.h.export")}</h2>
                    <crate::components::export::ExportPanel cfg={m.cfg.clone()} />
                    <h2>{tr(lang, "ui.h.events")}</h2>
                    <div data-tour="events"><EventLog outcome={m.outcome.clone()} now={m.t} onseek={seek} /></div>
                </section>
            </main>
        </div>
        </ContextProvider<Lang>>
    }
}

/// "Not in 1.N: why", for a control the version lacks.
fn not_in(lang: Lang, minor: u32, why: &str) -> String {
    trf(lang, "ui.not_in", &[("minor", &minor), ("why", &why)])
}

/// A preset's one-line description in `lang` (`preset.<name>`), else the engine's English.
fn preset_description(lang: Lang, p: &kubelife_engine::presets::Preset) -> String {
    crate::i18n::lookup(lang, &format!("preset.{}", p.name)).map_or_else(|| p.description.to_string(), str::to_string)
}

/// The browser's preferred language among those the page offers.
fn browser_lang() -> Lang {
    let Some(nav) = web_sys::window().map(|w| w.navigator()) else {
        return Lang::default();
    };
    let tags: Vec<String> = nav.languages().iter().filter_map(|v| v.as_string()).collect();
    if tags.is_empty() {
        return nav.language().and_then(|l| Lang::parse(&l)).unwrap_or_default();
    }
    Lang::from_preferences(tags.iter().map(String::as_str))
}

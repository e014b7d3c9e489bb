//! The playground: controls on one side, the cluster, timeline and explanations on the other.
//! Every change of a control re-runs the engine; the playhead only decides what is shown.

use crate::components::breakdown::Breakdown;
use crate::components::cluster::Cluster;
use crate::components::cost::Cost;
use crate::components::events::EventLog;
use crate::components::slider::Slider;
use crate::components::timeline::Timeline;
use crate::explain::{breakdown, milestone_text, milestones, tuning_warnings};
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
    /// Why the settings were refused, when they were.
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
    pub notices: Vec<String>,
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
        error: error.map(|e| {
            format!("These settings are refused ({e}); showing the version defaults instead. Your values are kept.")
        }),
        t: 0,
        playing: false,
        speed_exp: 1.0,
        cost_nodes: 1000,
        notices: Vec::new(),
        b: None,
        display: Display::default(),
        spreads: None,
        cfg: Rc::new(cfg),
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
                let mut fresh = simulate(s);
                fresh.t = m.t.min(fresh.cfg.duration);
                fresh.playing = m.playing;
                fresh.speed_exp = m.speed_exp;
                fresh.cost_nodes = m.cost_nodes;
                fresh.notices = std::mem::take(&mut m.notices);
                fresh.b = m.b.take();
                fresh.display = std::mem::take(&mut m.display);
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
                    let mut fresh = simulate(b.settings.clone());
                    fresh.t = m.t.min(fresh.cfg.duration);
                    fresh.speed_exp = m.speed_exp;
                    fresh.cost_nodes = m.cost_nodes;
                    fresh.display = std::mem::take(&mut m.display);
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
                });
                fresh.speed_exp = m.speed_exp;
                fresh.cost_nodes = m.cost_nodes;
                fresh.display = std::mem::take(&mut m.display);
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
        let mut m = simulate(decoded.settings);
        m.t = decoded.playback.t.min(m.cfg.duration);
        if let Some(e) = decoded.playback.speed_exp {
            m.speed_exp = e;
        }
        m.notices = decoded.notices;
        m.b = decoded.b.map(|b| Rc::new(simulate_side(b)));
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
    let m = &*model;
    let minor = m.settings.minor;
    let ms = milestones(&m.outcome);
    let view = at(&m.outcome, m.t);
    let mut warnings: Vec<String> = m.outcome.warnings.clone();
    warnings.extend(tuning_warnings(&m.cfg));

    let version_picker = {
        let model = model.clone();
        let onchange = Callback::from(move |e: Event| {
            if let Ok(v) = select_value(&e).parse::<u32>() {
                set(&model, move |s| s.minor = v);
            }
        });
        html! {
            <label class="picker">{"Kubernetes "}
                <select aria-label="Kubernetes version" {onchange}>
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
            <label class="picker">{"preset "}
                <select aria-label="preset" {onchange}>
                    <option value="" selected=true>{"choose a preset…"}</option>
                    { for presets().iter().map(|p| html!{ <option value={p.name} title={p.description}>{p.name}</option> }) }
                </select>
            </label>
        }
    };

    let knob_group = |g: Group| -> Html {
        html! {
            { for KNOBS.iter().filter(|k| k.group == g).map(|k| {
                let flag = k.flag;
                let disabled = (!k.available(minor)).then(|| AttrValue::from(format!("Not in 1.{minor}: {}", k.missing)));
                let onchange = { let model = model.clone(); Callback::from(move |v: f64| set(&model, move |s| s.set(flag, v))) };
                let onreset = { let model = model.clone(); Callback::from(move |_| set(&model, move |s| { s.overrides.remove(flag); })) };
                html! {
                    <Slider flag={flag} field={k.field} help={k.help} unit={k.unit} value={m.settings.value(flag, &m.cfg)}
                        default={(k.read)(&m.defaults)} min={k.min} max={k.max} step={k.step} {disabled} {onchange} {onreset} />
                }
            }) }
        }
    };
    let count = |label: &'static str, value: u32, min: u32, max: u32, f: fn(&mut Settings, u32)| -> Html {
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
                    <input type="number" class="number" min={min.to_string()} max={max.to_string()} value={value.to_string()} aria-label={format!("{label} value")} onchange={onnumber} />
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
        let model = model.clone();
        let onchange = Callback::from(move |e: Event| {
            let v = e.target_unchecked_into::<HtmlInputElement>().checked();
            set(&model, move |s| f(s, v));
        });
        html! {
            <div class={classes!("toggle", (!enabled).then_some("disabled"))}>
                <label><input type="checkbox" checked={on} disabled={!enabled} aria-label={label} {onchange} />{" "}<code>{label}</code></label>
                <p class="help">{help}</p>
                if !enabled { <p class="why-disabled">{format!("Not in 1.{minor}: {why}")}</p> }
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
        let on_at = {
            let model = model.clone();
            Callback::from(move |e: InputEvent| {
                if let Ok(v) = input_value(&e).parse::<u32>() {
                    set(&model, move |s| s.fault.at_seconds = v.min(600))
                }
            })
        };
        let on_recover = {
            let model = model.clone();
            Callback::from(move |e: InputEvent| {
                if let Ok(v) = input_value(&e).parse::<u32>() {
                    set(&model, move |s| s.fault.recover_at_seconds = (v > 0).then_some(v))
                }
            })
        };
        let f = &m.settings.fault;
        html! {
            <fieldset class="faults">
                <legend>{"faults"}</legend>
                <label>{"node "}<select aria-label="fault node" onchange={on_node}>
                    { for (0..nodes).map(|i| html!{ <option value={i.to_string()} selected={i == f.node}>{format!("node-{}", i + 1)}</option> }) }
                </select></label>
                <label>{" fault "}<select aria-label="fault kind" onchange={on_kind}>
                    { for [("NodeCrash", "crash (power loss)"), ("KubeletStop", "kubelet stop"), ("NetworkPartition", "network partition")].iter().map(|(v, l)| html!{
                        <option value={*v} selected={format!("{:?}", f.kind) == *v}>{*l}</option> }) }
                </select></label>
                <label class="count">{"at "}<strong>{format_go_duration_tenths(i64::from(f.at_seconds) * 1000)}</strong>
                    <input type="range" min="0" max="600" step="5" value={f.at_seconds.to_string()} aria-label="fault time (seconds)" oninput={on_at} /></label>
                <label class="count">{"recover at "}<strong>{ f.recover_at_seconds.map_or("never".to_string(), |r| format_go_duration_tenths(i64::from(r) * 1000)) }</strong>
                    <input type="range" min="0" max="900" step="5" value={f.recover_at_seconds.unwrap_or(0).to_string()} aria-label="recover time (seconds, 0 for never)" oninput={on_recover} /></label>
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
        let label = if m.playing { "Pause" } else { "Play" };
        html! {
            <div class="transport">
                <button onclick={toggle_cb} aria-label={label} class="play">{ if m.playing { "❚❚ Pause" } else { "▶ Play" } }</button>
                <button onclick={restart} aria-label="Restart">{"↺ Restart"}</button>
                <button onclick={next} aria-label="Next event">{"→ Next event"}</button>
                <label class="speed">{format!("speed {:.0}x ", 10f64.powf(m.speed_exp))}
                    <input type="range" min="0" max="3" step="0.01" value={m.speed_exp.to_string()} aria-label="playback speed (logarithmic)" oninput={speed} /></label>
                <label class="scrub">{"t = "}<strong data-testid="playhead">{format_go_duration_tenths(m.t)}</strong>
                    <input type="range" min="0" max={m.cfg.duration.to_string()} step="100" value={m.t.to_string()} aria-label="playhead" oninput={scrub} /></label>
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
                <input readonly=true value={url.clone()} aria-label="share link" data-testid="share-link" size="28" />
                <button onclick={clip(url)}>{"Copy link"}</button>
                <button onclick={clip(snippet.clone())} data-snippet={snippet.clone()}>{"Copy embed code"}</button>
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
                            <select aria-label="B Kubernetes version" onchange={b_version}>
                            { for (OLDEST_MINOR..=NEWEST_MINOR).rev().map(|v| html!{ <option value={v.to_string()} selected={v == bm}>{format!("1.{v}")}</option> }) }
                            </select>
                        </label>
                        <label class="picker">{"B preset "}
                            <select aria-label="B preset" onchange={b_preset}>
                                <option value="" selected=true>{"choose…"}</option>
                                { for presets().iter().map(|p| html!{ <option value={p.name}>{p.name}</option> }) }
                            </select>
                        </label>
                        <button onclick={copy_ab}>{"copy A to B"}</button>
                        <button onclick={swap}>{"swap"}</button>
                        <div class="b-knobs">
                        { for b_knobs.iter().filter_map(|f| crate::knobs::knob(f)).map(|k| {
                            let flag = k.flag;
                            let disabled = (!k.available(bm)).then(|| AttrValue::from(format!("Not in 1.{bm}: {}", k.missing)));
                            let onchange = { let model = model.clone(); Callback::from(move |v: f64| model.dispatch(Msg::SettingsB(Box::new(move |s| s.set(flag, v))))) };
                            let onreset = { let model = model.clone(); Callback::from(move |_| model.dispatch(Msg::SettingsB(Box::new(move |s| { s.overrides.remove(flag); })))) };
                            html! {
                                <Slider flag={format!("b-{flag}")} field={format!("B {}", k.field)} help={k.help} unit={k.unit} value={b.settings.value(flag, &b.cfg)}
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
                    <h3>{"Over 200 seeds"}</h3>
                    if let Some(sp) = &m.spreads {
                        <crate::components::compare::Histogram title="time to Unknown" a={sp.0.milestones[0].clone()} b={sp.1.as_ref().map(|d| d.milestones[0].clone())} />
                        <crate::components::compare::Histogram title="time to the first replacement Ready" a={sp.0.milestones[5].clone()} b={sp.1.as_ref().map(|d| d.milestones[5].clone())} />
                    } else {
                        <button onclick={spreads}>{"run 200 seeds"}</button>
                    }
                </div>
            }
        });
        html! {
            <section class="compare" aria-label="compare">
                <div class="compare-head">
                    <button onclick={on_compare} aria-pressed={m.b.is_some().to_string()}>{ if m.b.is_some() { "stop comparing" } else { "compare with B" } }</button>
                    <button onclick={classic}>{"1.12 legacy vs newest"}</button>
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
        <div class="milestones" aria-label="milestones from the fault">
            <div class="milestone"><span>{"node Unknown"}</span><strong data-testid="milestone-unknown">{milestone_text(ms.unknown)}</strong></div>
            <div class="milestone"><span>{"NoExecute taint"}</span><strong data-testid="milestone-taint">{milestone_text(ms.taint)}</strong></div>
            <div class="milestone"><span>{"first eviction"}</span><strong data-testid="milestone-eviction">{milestone_text(ms.eviction)}</strong></div>
            <div class="milestone"><span>{"replacement Ready"}</span><strong data-testid="milestone-replacement">{milestone_text(ms.replacement)}</strong></div>
        </div>
    };
    let notices_html = html! {
        <>
            if let Some(e) = &m.error { <div class="error-banner" role="alert">{e.clone()}</div> }
            if !m.notices.is_empty() {
                <div class="error-banner" role="status" data-testid="link-notices">
                    <strong>{"This link had parts that could not be applied; the rest is shown."}</strong>
                    <ul>{ for m.notices.iter().map(|n| html!{ <li>{n.clone()}</li> }) }</ul>
                    <button onclick={dismiss}>{"Dismiss"}</button>
                </div>
            }
        </>
    };
    let d = &m.display;
    let cluster_html =
        html! { <Cluster view={view} now={m.t} grace={m.cfg.controller_manager.node_monitor_grace_period} /> };
    let timeline_html =
        html! { <Timeline lanes={m.lanes.clone()} duration={m.cfg.duration} now={m.t} onseek={seek.clone()} /> };
    let breakdown_html =
        html! { <><h2>{"Where does the time go?"}</h2><Breakdown segments={breakdown(&m.outcome, &m.cfg)} /></> };
    if d.embed {
        // Embed: no header or side panels; the panels and sliders the link asks for.
        let controls: Vec<&crate::knobs::Knob> = d.controls.iter().filter_map(|c| crate::knobs::knob(c)).collect();
        return html! {
            <div class={classes!("app", "embed", reduced_motion().then_some("reduced-motion"))}>
                {notices_html}
                {milestones_html}
                {transport}
                if !controls.is_empty() {
                    <div class="embed-controls">
                    { for controls.into_iter().map(|k| {
                        let flag = k.flag;
                        let disabled = (!k.available(minor)).then(|| AttrValue::from(format!("Not in 1.{minor}: {}", k.missing)));
                        let onchange = { let model = model.clone(); Callback::from(move |v: f64| set(&model, move |s| s.set(flag, v))) };
                        let onreset = { let model = model.clone(); Callback::from(move |_| set(&model, move |s| { s.overrides.remove(flag); })) };
                        html! { <Slider flag={flag} field={k.field} help={k.help} unit={k.unit} value={m.settings.value(flag, &m.cfg)}
                            default={(k.read)(&m.defaults)} min={k.min} max={k.max} step={k.step} {disabled} {onchange} {onreset} /> }
                    }) }
                    </div>
                }
                if d.shows("cluster") { {cluster_html} }
                if d.shows("timeline") { {timeline_html} }
                if d.shows("breakdown") { {breakdown_html} }
                if d.shows("compare") && m.b.is_some() { {compare_section} }
                <p class="embed-credit"><a href={format!("./?{}", current_link(m, m.t).replace("embed=1", "embed=0"))} target="_blank" rel="noopener">{"open in kubelife"}</a></p>
            </div>
        };
    }
    html! {
        <div class={classes!("app", reduced_motion().then_some("reduced-motion"))}>
            <header class="top">
                <h1>{"kubelife"}</h1>
                <p class="tagline">{"My node died: when will my pods move, and why?"}</p>
                {version_picker}{preset_picker}{share}
            </header>
            {notices_html}
            <main>
                <aside class="controls" aria-label="controls">
                    { for Group::ALL.iter().map(|&g| html! {
                        <details open={g != Group::Cluster} class="group">
                            <summary>{g.title()}</summary>
                            { knob_group(g) }
                            if g == Group::ControllerManager {
                                { toggle("--enable-taint-manager", "Off: the node lifecycle controller deletes pods itself after --pod-eviction-timeout.", m.settings.enable_taint_manager, taint_manager_ok, "removed in 1.27", |s, v| s.enable_taint_manager = v) }
                                { toggle("--feature-gates=TaintBasedEvictions", "Off (1.13–1.17 only): back to the legacy --pod-eviction-timeout path.", m.settings.taint_based_evictions, tbe_ok, "the gate is alpha before 1.13 and locked on from 1.18", |s, v| s.taint_based_evictions = v) }
                            }
                            if g == Group::Workloads {
                                { count("web replicas (Deployment)", m.settings.web_replicas, 0, 30, |s, v| s.web_replicas = v) }
                                { count("db replicas (StatefulSet)", m.settings.db_replicas, 0, 10, |s, v| s.db_replicas = v) }
                            }
                            if g == Group::Cluster {
                                { count("nodes", m.settings.nodes, 1, 50, |s, v| s.nodes = v) }
                                { count("zones", m.settings.zones, 1, 3, |s, v| s.zones = v) }
                                { count("seed", m.settings.seed as u32, 1, 1000, |s, v| s.seed = u64::from(v)) }
                            }
                        </details>
                    }) }
                    {fault_panel}
                </aside>
                <section class="stage">
                    {milestones_html}
                    {transport}
                    if d.shows("cluster") { {cluster_html} }
                    if d.shows("timeline") { {timeline_html} }
                    if d.shows("breakdown") { {breakdown_html} }
                    <h2>{"Compare"}</h2>
                    {compare_section}
                    if !warnings.is_empty() {
                        <h2>{"Warnings"}</h2>
                        <ul class="warnings" role="status">{ for warnings.iter().map(|w| html!{ <li>{w.clone()}</li> }) }</ul>
                    }
                    <h2>{"Control-plane cost"}</h2>
                    <Cost cfg={m.cfg.clone()} defaults={m.defaults.clone()} nodes={m.cost_nodes} onnodes={on_cost} />
                    <h2>{"Apply this to a cluster"}</h2>
                    <crate::components::export::ExportPanel cfg={m.cfg.clone()} />
                    <h2>{"Events"}</h2>
                    <EventLog outcome={m.outcome.clone()} now={m.t} onseek={seek} />
                </section>
            </main>
        </div>
    }
}

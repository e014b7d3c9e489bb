//! Component tests in a real headless Chromium (`wasm-bindgen-test`):
//! `CHROMEDRIVER=/usr/bin/chromedriver cargo test --target wasm32-unknown-unknown -p kubelife --test web`.
#![cfg(target_arch = "wasm32")]

use kubelife::components::breakdown::Breakdown;
use kubelife::components::slider::Slider;
use kubelife::explain::milestone_text;
use kubelife::i18n::{Lang, Part};
use kubelife::knobs::Unit;
use kubelife::model::{prepare, Run};
use kubelife::settings::Settings;
use std::time::Duration;
use wasm_bindgen_test::*;
use yew::prelude::*;

wasm_bindgen_test_configure!(run_in_browser);

fn mount<C: BaseComponent>(props: C::Properties) -> web_sys::Element {
    // The page fetches these texts once it is live; here they are at hand from the start.
    kubelife::i18n::install(Lang::En, Part::Later, include_str!("../i18n/later-en.json")).unwrap();
    let doc = web_sys::window().unwrap().document().unwrap();
    let root = doc.create_element("div").unwrap();
    doc.body().unwrap().append_child(&root).unwrap();
    yew::Renderer::<C>::with_root_and_props(root.clone(), props).render();
    root
}

async fn settle() {
    yew::platform::time::sleep(Duration::from_millis(10)).await;
}

/// The default settings' run, laid out as the page lays out a run (no heartbeats recorded).
fn default_run() -> Run {
    let p = prepare(Settings::default());
    let o = kubelife_engine::run(&p.cfg, &kubelife_engine::RunOptions::default());
    Run::from_run(p, o)
}

#[wasm_bindgen_test]
async fn slider_names_its_flag_and_marks_changes() {
    let props = |value: f64| {
        yew::props!(kubelife::components::slider::SliderProps {
            flag: "node-monitor-grace-period",
            field: "--node-monitor-grace-period",
            help: "help",
            unit: Unit::Seconds,
            value,
            default: 50.0,
            min: 2.0,
            max: 600.0,
            step: 1.0,
            onchange: Callback::noop(),
            onreset: Callback::noop(),
        })
    };
    let unchanged = mount::<Slider>(props(50.0));
    settle().await;
    let range = unchanged.query_selector("input[type=range]").unwrap().unwrap();
    assert!(range
        .get_attribute("aria-label")
        .unwrap()
        .contains("node-monitor-grace-period"));
    assert_eq!(
        unchanged
            .query_selector(".slider-value")
            .unwrap()
            .unwrap()
            .text_content()
            .unwrap(),
        "50s"
    );
    assert!(unchanged.query_selector(".slider-changed-mark").unwrap().is_none());
    assert!(unchanged
        .query_selector("button.slider-reset")
        .unwrap()
        .unwrap()
        .has_attribute("disabled"));

    let changed = mount::<Slider>(props(20.0));
    settle().await;
    assert!(changed.query_selector(".slider-changed-mark").unwrap().is_some());
    assert!(!changed
        .query_selector("button.slider-reset")
        .unwrap()
        .unwrap()
        .has_attribute("disabled"));
    assert!(changed.text_content().unwrap().contains("default 50s"));
}

#[wasm_bindgen_test]
fn durations_read_like_go() {
    assert_eq!(milestone_text(Lang::En, Some(52_345)), "52.3s");
    assert_eq!(milestone_text(Lang::En, Some(352_300)), "5m52.3s");
    assert_eq!(milestone_text(Lang::En, Some(0)), "0s");
    assert_eq!(milestone_text(Lang::En, None), "never");
    // The page fetches the Chinese catalogue when a reader picks Chinese; until then, English.
    if !kubelife::i18n::has(Lang::Zh, Part::Page) {
        assert_eq!(milestone_text(Lang::Zh, None), "never");
    }
    let packed = js_sys::Uint8Array::from(&include_bytes!("../i18n/zh.txt")[..]);
    let text = kubelife::browser::decode(kubelife::i18n::catalogue_encoding(Lang::Zh), &packed).unwrap();
    kubelife::i18n::install(Lang::Zh, Part::Page, &text).unwrap();
    assert!(
        kubelife::browser::decode("utf-8", &js_sys::Uint8Array::from(&[0xff_u8][..])).is_err(),
        "bytes that are not text are refused, not replaced"
    );
    assert!(kubelife::i18n::has(Lang::Zh, Part::Page));
    assert_eq!(milestone_text(Lang::Zh, None), "始终未发生");
    assert!(kubelife::i18n::install(Lang::Zh, Part::Page, "not json").is_err());
    // An exercise's texts come in their own part, fetched when an exercise opens (another test
    // of this run may have installed it already).
    if !kubelife::i18n::has(Lang::En, Part::Exercises) {
        assert_eq!(kubelife::i18n::lookup(Lang::En, "ex.why-5m50s.goal"), None);
    }
    kubelife::i18n::install(Lang::En, Part::Exercises, include_str!("../i18n/exercises-en.json")).unwrap();
    assert!(kubelife::i18n::lookup(Lang::En, "ex.why-5m50s.goal").is_some());
}

#[wasm_bindgen_test]
fn the_run_made_ahead_is_the_workers_run_in_the_browser() {
    // The default page draws `first_run::WIRE` without asking the worker: it must be what the
    // engine's wasm makes.
    assert!(kubelife::first_run::WIRE == kubelife::first_run::current().as_slice());
}

#[wasm_bindgen_test]
fn the_engine_gives_the_native_timeline_in_the_browser() {
    let (cfg, _) = Settings::default().resolve();
    let o = kubelife_engine::run(&cfg, &kubelife_engine::RunOptions { heartbeats: true });
    assert_eq!(
        kubelife::explain::timeline_fingerprint(&o),
        kubelife::explain::DEFAULT_FINGERPRINT
    );
}

#[wasm_bindgen_test]
async fn breakdown_panel_labels_each_segment_with_its_cause_and_flag() {
    let run = std::rc::Rc::new(default_run());
    let segments = run.bars[0].segments.len();
    let root = mount::<Breakdown>(yew::props!(kubelife::components::breakdown::BreakdownProps { run }));
    settle().await;
    let text = root.text_content().unwrap();
    for flag in [
        "--node-monitor-grace-period 50s",
        "--node-monitor-period 5s",
        "tolerationSeconds 300",
        "--default-unreachable-toleration-seconds",
        "podStartup 5s",
        "minSyncPeriod 1s",
        "replacement Ready here",
        "db-0",
    ] {
        assert!(text.contains(flag), "{flag} missing from {text}");
    }
    // The first bar walks the chain from the fault to the Service whole again, one segment per
    // link; db-0's bar is not reached in the default run, so it draws none.
    assert_eq!(
        root.query_selector_all(".breakdown-bar .breakdown-seg")
            .unwrap()
            .length() as usize,
        segments
    );
}

#[wasm_bindgen_test]
async fn timeline_markers_are_buttons_with_one_tab_stop() {
    let (cfg, _) = Settings::default().resolve();
    let o = kubelife_engine::run(&cfg, &kubelife_engine::RunOptions { heartbeats: true });
    let lanes = kubelife::replay::lanes(&o, cfg.duration, 60);
    let marks: usize = lanes.iter().map(|l| l.marks.len()).sum();
    let root =
        mount::<kubelife::components::timeline::Timeline>(yew::props!(kubelife::components::timeline::TimelineProps {
            lanes: std::rc::Rc::new(lanes),
            duration: cfg.duration,
            now: 0,
            onseek: Callback::noop(),
        }));
    settle().await;
    let buttons = root.query_selector_all(".timeline-marks button").unwrap();
    assert_eq!(buttons.length() as usize, marks);
    assert_eq!(
        root.query_selector_all(".timeline-marks [tabindex='0']")
            .unwrap()
            .length(),
        1
    );
    let first = root.query_selector(".timeline-marks button").unwrap().unwrap();
    assert!(first.get_attribute("aria-label").unwrap().contains(" at "));
}

#[wasm_bindgen_test]
async fn results_read_the_playhead_against_the_fault() {
    let root =
        mount::<kubelife::components::results::Results>(yew::props!(kubelife::components::results::ResultsProps {
            run: std::rc::Rc::new(default_run()),
            playing: false,
            t: 379_600,
            speed_exp: 1.0,
            onaction: Callback::noop(),
        }));
    settle().await;
    let text = |sel: &str| root.query_selector(sel).unwrap().unwrap().text_content().unwrap();
    assert_eq!(text("[data-testid=playhead]"), "6m19.6s");
    assert_eq!(text("[data-testid=playhead-fault]"), "fault + 5m49.6s");
    assert_eq!(text("[data-testid=milestone-eviction]"), "5m49.6s");
    // Four for the node and its pods, two for the Service in front of web, and two for db: its
    // volume and the database Ready again.
    assert_eq!(root.query_selector_all(".results-since").unwrap().length(), 8);
    assert_eq!(text("[data-testid=milestone-traffic-stopped]"), "44.7s");
}

/// Issue 36, item 12: a second bad value in the Tune panel keeps the first field's text, its
/// invalid mark and its message.
#[wasm_bindgen_test]
async fn the_tune_panels_second_bad_value_keeps_the_first() {
    use kubelife::components::tune::{TunePanel, TuneProps};
    use wasm_bindgen::JsCast;
    let settings = Settings::default();
    let props = yew::props!(TuneProps {
        question: kubelife::tune::Question::default(),
        cfg: kubelife::components::Same(std::rc::Rc::new(settings.resolve().0)),
        settings,
        b_settings: None,
        onquestion: Callback::noop(),
        onedit: Callback::noop(),
        onedit_b: Callback::noop(),
    });
    let root = mount::<TunePanel>(props);
    settle().await;
    let field = |id: &str| -> web_sys::HtmlInputElement {
        let selector = format!("[data-testid={id}]");
        root.query_selector(&selector).unwrap().unwrap().dyn_into().unwrap()
    };
    for (id, typed) in [("tune-blip", "soon"), ("tune-max-writes", "lots")] {
        field(id).set_value(typed);
        field(id)
            .dispatch_event(&web_sys::Event::new("change").unwrap())
            .unwrap();
        settle().await;
    }
    for (id, typed) in [("tune-blip", "soon"), ("tune-max-writes", "lots")] {
        assert_eq!(field(id).value(), typed, "{id}");
        assert_eq!(field(id).get_attribute("aria-invalid").as_deref(), Some("true"), "{id}");
    }
    let messages = root.query_selector_all("[data-testid=tune-refused]").unwrap();
    assert_eq!(messages.length(), 2);
    let first = messages.item(0).unwrap().text_content().unwrap();
    assert!(first.contains("“soon” was not used"), "{first}");
}

/// Types `text` into the field `selector` names (its input event, not its change), then clicks
/// the host's "again" button so that the field renders again before the text is committed.
async fn type_then_render(root: &web_sys::Element, selector: &str, text: &str) -> web_sys::HtmlInputElement {
    use wasm_bindgen::JsCast;
    let field: web_sys::HtmlInputElement = root.query_selector(selector).unwrap().unwrap().dyn_into().unwrap();
    field.set_value(text);
    field
        .dispatch_event(&web_sys::InputEvent::new("input").unwrap())
        .unwrap();
    settle().await;
    let again: web_sys::HtmlElement = root
        .query_selector("button.again")
        .unwrap()
        .unwrap()
        .dyn_into()
        .unwrap();
    again.click();
    settle().await;
    field
}

/// What a reader types in the Tune panel's text fields survives a render of the panel before it
/// is committed: the a11y check typed a blip just as the page's first run landed, and the render
/// put "20s" back, so Enter committed nothing and no refusal showed.
#[wasm_bindgen_test]
async fn a_duration_being_typed_in_the_tune_panel_survives_a_render() {
    use kubelife::components::tune::TunePanel;
    use std::rc::Rc;
    /// The panel, and a button that gives it a new scenario (as a run landing does).
    #[function_component(Host)]
    fn host() -> Html {
        let cfg = use_state(|| Rc::new(Settings::default().resolve().0));
        let again = {
            let cfg = cfg.clone();
            Callback::from(move |_| cfg.set(Rc::new((**cfg).clone())))
        };
        let settings = Settings::default();
        html! { <>
            <TunePanel question={kubelife::tune::Question::default()} cfg={kubelife::components::Same((*cfg).clone())}
                {settings} b_settings={None::<Settings>} onquestion={Callback::noop()} onedit={Callback::noop()} onedit_b={Callback::noop()} />
            <button class="again" onclick={again}>{"again"}</button>
        </> }
    }
    let root = mount::<Host>(());
    settle().await;
    let field = type_then_render(&root, "[data-testid=tune-blip]", "soon").await;
    assert_eq!(field.value(), "soon", "the typed text is kept through the render");
    field.dispatch_event(&web_sys::Event::new("change").unwrap()).unwrap();
    settle().await;
    let refused = root.query_selector("[data-testid=tune-refused]").unwrap();
    assert!(
        refused.is_some(),
        "the committed text is the typed one, and it is refused"
    );
}

/// What a reader types in a slider's number field survives a render of the page before it is
/// committed (another run landing meanwhile): Enter then commits what was typed, not the old
/// value the render would have put back (issue 36, exercise 13 solved by hand lost its edits).
#[wasm_bindgen_test]
async fn a_number_being_typed_survives_a_render_and_is_committed() {
    use std::cell::Cell;
    use std::rc::Rc;
    thread_local! {
        static COMMITTED: Rc<Cell<f64>> = Rc::new(Cell::new(0.0));
    }
    /// A slider whose help text changes with a button, so that the slider renders again.
    #[function_component(Host)]
    fn host() -> Html {
        let renders = use_state(|| 0u32);
        let again = {
            let renders = renders.clone();
            Callback::from(move |_| renders.set(*renders + 1))
        };
        let committed = COMMITTED.with(|c| c.clone());
        html! { <>
            <Slider flag="node-monitor-grace-period" field="--node-monitor-grace-period" help={format!("help {}", *renders)}
                unit={Unit::Seconds} value={50.0} default={50.0} min={2.0} max={600.0} step={1.0}
                onchange={Callback::from(move |v| committed.set(v))} onreset={Callback::noop()} />
            <button class="again" onclick={again}>{"again"}</button>
        </> }
    }
    let root = mount::<Host>(());
    settle().await;
    let field = type_then_render(&root, "input[type=number]", "42").await;
    assert!(
        root.text_content().unwrap().contains("help 1"),
        "the slider rendered again"
    );
    assert_eq!(field.value(), "42", "the typed text is kept");
    field.dispatch_event(&web_sys::Event::new("change").unwrap()).unwrap();
    settle().await;
    assert_eq!(COMMITTED.with(|c| c.get()), 42.0);
}

/// The page reads numbers with the browser's `parseFloat` (`browser::decimal`); it gives the
/// same bits as Rust's parser, which the page's native tests and the CLI use, on the cases where
/// a sloppy parser rounds wrongly.
#[wasm_bindgen_test]
fn the_browsers_number_parser_agrees_with_rusts() {
    for text in [
        "0.1",
        "0.30000000000000004",
        "9007199254740993",
        "2.2250738585072011e-308",
        "4.9e-324",
        "1.7976931348623157e308",
        "123456789012345678901234567890e-20",
        "0.000001",
        "-7.5e+2",
    ] {
        let rust: f64 = text.parse().unwrap();
        let page = kubelife::browser::decimal(text).unwrap();
        assert_eq!(page.to_bits(), rust.to_bits(), "{text}");
    }
}

/// The page's powers of ten and logarithms are the browser's `Math.pow` and `Math.log10`
/// (`kubelife_playground::decimal`): at the playback speeds and cluster sizes the page offers they
/// give what Rust's do, and the link's speed goes round.
#[wasm_bindgen_test]
fn the_browsers_powers_and_logarithms_give_the_pages_speeds_and_sizes() {
    use kubelife_playground::decimal::{log10, pow10};
    kubelife::browser::install_decimal_parser();
    for (exponent, power) in [(0.0, 1.0), (1.0, 10.0), (2.0, 100.0), (3.0, 1000.0)] {
        assert_eq!(pow10(exponent), power);
        assert_eq!(log10(power), exponent);
    }
    assert_eq!(pow10(3.699).round(), 5000.0);
    let link = kubelife::link::decode("speed=100");
    assert_eq!(link.playback.speed_exp, Some(2.0));
}

#[wasm_bindgen_test]
async fn the_outage_spread_counts_a_machine_health_checks_drain_and_names_it() {
    use kubelife::components::spread::{SpreadPanel, SpreadPanelProps};
    let run = Run::simulate(kubelife::link::decode("remediation=mhc&fault-nodes=2").settings);
    assert!(run.spread.pods_deleted > 0, "{:?}", run.spread);
    let props = yew::props!(SpreadPanelProps {
        spread: run.spread.clone(),
        onseek: Callback::noop(),
    });
    let root = mount::<SpreadPanel>(props);
    settle().await;
    let text = root.text_content().unwrap();
    let first = root
        .query_selector("[data-testid=spread-first-evicted]")
        .unwrap()
        .unwrap();
    assert_ne!(first.text_content().unwrap(), "never", "{text}");
    let by = root.query_selector("[data-testid=spread-deleted-by]").unwrap().unwrap();
    assert!(
        by.text_content().unwrap().contains("by MachineHealthCheck's drain"),
        "{text}"
    );
    assert!(
        text.contains(&format!("{} pods deleted", run.spread.pods_deleted)),
        "{text}"
    );
}

/// Compare side B's panel has every control of side A's, labelled with the real flag names; the
/// side shows in the ids and the accessible names only (issue 36, item 11).
#[wasm_bindgen_test]
async fn side_b_has_every_control_of_side_a_under_the_real_flag_names() {
    use kubelife::components::controls::{control_groups, ControlPanel, ControlPanelProps};
    use kubelife::components::slider::KnobSide;
    /// Side B's groups for the default run, as compare mode draws them.
    #[function_component(SideB)]
    fn side_b() -> Html {
        let run = default_run();
        let side = KnobSide {
            settings: &run.settings,
            cfg: &run.cfg,
            defaults: &run.defaults,
            b: true,
        };
        control_groups(Lang::En, &side, &Callback::noop())
    }
    let run = default_run();
    let a = mount::<ControlPanel>(yew::props!(ControlPanelProps {
        settings: run.settings.clone(),
        cfg: kubelife::components::Same(run.cfg.clone()),
        defaults: kubelife::components::Same(run.defaults.clone()),
        onedit: Callback::noop(),
    }));
    let b = mount::<SideB>(());
    settle().await;
    let names = |root: &web_sys::Element, selector: &str| -> Vec<String> {
        let list = root.query_selector_all(selector).unwrap();
        (0..list.length())
            .filter_map(|i| list.item(i))
            .filter_map(|n| wasm_bindgen::JsCast::dyn_into::<web_sys::Element>(n).ok())
            .filter_map(|e| match e.tag_name().as_str() {
                "LABEL" => e.text_content(),
                _ => e.get_attribute("aria-label"),
            })
            .collect()
    };
    for selector in ["input[type=range]", "input[type=checkbox]", "label.slider-flag"] {
        let (on_a, on_b) = (names(&a, selector), names(&b, selector));
        assert_eq!(on_a.len(), on_b.len(), "{selector}: as many on B as on A");
        for (x, y) in on_a.iter().zip(&on_b) {
            let want = if selector.starts_with("label") {
                x.clone()
            } else {
                format!("B {x}")
            };
            assert_eq!(y, &want, "{selector}");
        }
    }
    let b_text = b.text_content().unwrap();
    assert!(b_text.contains("--default-not-ready-toleration-seconds"));
    assert!(!b_text.contains("--b-"), "no flag that does not exist");
    assert!(b
        .query_selector("#knob-b-default-not-ready-toleration-seconds")
        .unwrap()
        .is_some());
    assert!(
        b.query_selector("[data-tour]").unwrap().is_none(),
        "the tour points at A's groups"
    );
}

/// Exercise `n`'s documented solution (side A), laid out as the page lays out a run.
fn solution_run(n: u32) -> std::rc::Rc<Run> {
    let (a, _) = (kubelife::exercises::exercise(n).unwrap().solution)();
    let p = prepare(a);
    let o = kubelife_engine::run(&p.cfg, &kubelife_engine::RunOptions::default());
    std::rc::Rc::new(Run::from_run(p, o))
}

/// Opened from its solution link, an exercise's checks are green but nothing counts as solved;
/// reached by the participant, it does (issue 36, item 16).
#[wasm_bindgen_test]
async fn a_solution_link_does_not_count_as_solving_the_exercise() {
    use kubelife::components::workshop::{solved, ExercisePanel, ExerciseProps};
    kubelife::i18n::install(Lang::En, Part::Exercises, include_str!("../i18n/exercises-en.json")).unwrap();
    let storage = web_sys::window().unwrap().local_storage().unwrap().unwrap();
    storage.remove_item("kubelife.solved").unwrap();
    let props = |solution: bool| {
        yew::props!(ExerciseProps {
            n: 1,
            a: solution_run(1),
            b: None,
            solution,
            onopen: Callback::noop(),
        })
    };
    let shown = mount::<ExercisePanel>(props(true));
    settle().await;
    assert!(shown
        .query_selector("[data-testid=exercise-solution-shown]")
        .unwrap()
        .is_some());
    assert!(shown.query_selector("[data-testid=exercise-solved]").unwrap().is_none());
    assert!(!solved().contains("why-5m50s"), "the solution link counts nothing");
    let reached = mount::<ExercisePanel>(props(false));
    settle().await;
    assert!(reached
        .query_selector("[data-testid=exercise-solved]")
        .unwrap()
        .is_some());
    assert!(solved().contains("why-5m50s"));
    storage.remove_item("kubelife.solved").unwrap();
}

/// The instructor view shows each exercise's explanation and documented solution inline.
#[wasm_bindgen_test]
async fn the_instructor_view_explains_each_exercise_inline() {
    use kubelife::components::workshop::{Instructor, InstructorProps};
    kubelife::i18n::install(Lang::En, Part::Exercises, include_str!("../i18n/exercises-en.json")).unwrap();
    let root = mount::<Instructor>(yew::props!(InstructorProps {
        onopen: Callback::noop()
    }));
    settle().await;
    for (i, ex) in kubelife::exercises::EXERCISES.iter().enumerate() {
        let shown = root
            .query_selector(&format!("[data-testid=instructor-explanation-{}]", i + 1))
            .unwrap()
            .expect("an explanation per exercise")
            .text_content()
            .unwrap();
        let explain = kubelife::i18n::lookup(Lang::En, &format!("ex.{}.explain", ex.id)).unwrap();
        let solution = kubelife::i18n::lookup(Lang::En, &format!("ex.{}.solution", ex.id)).unwrap();
        assert!(shown.contains(explain) && shown.contains(solution), "{}", ex.id);
    }
}

/// The page's build runs no clients (the engine's `clients` feature is off in its wasm): a
/// scenario with a client is refused, naming the field, rather than run without it.
#[wasm_bindgen_test]
fn the_page_refuses_a_scenario_with_clients_rather_than_drop_them() {
    let mut s = kubelife_engine::presets::default_cluster("1.32");
    assert!(s.resolve().is_ok());
    s.clients.push(kubelife_engine::scenario::ClientSection {
        name: "c".into(),
        target: s.workloads[0].name.clone(),
        library: "go-http".into(),
        ..Default::default()
    });
    let refused = s.resolve().expect_err("no clients in the page");
    assert_eq!(refused.field, "clients");
    assert_eq!(refused.reason.key, "scenario.client.unavailable");
    // Nor a Service object, whose load balancer is observed with the clients.
    let mut s = kubelife_engine::presets::default_cluster("1.32");
    s.workloads[0].service = Some(kubelife_engine::scenario::ServiceField::Object(Default::default()));
    let refused = s.resolve().expect_err("no Service object in the page");
    assert_eq!(refused.field, "workloads[0].service");
    assert_eq!(refused.reason.key, "scenario.client.unavailable");
    // Nor does its Tune panel offer the clients' milestone as a target.
    assert!(!kubelife_engine::stats::measurable("clientErrorsEnded"));
    assert!(kubelife_engine::stats::measurable("unknown"));
}

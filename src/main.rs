//! Entry point of the playground in the browser.

use kubelife::bridge::{Asked, Slot};
use kubelife::jobs::{EngineAnswer, EngineJob, FilesAnswer, FilesJob};
use kubelife::model::{prepare, Run};
use kubelife::settings::Settings;
use kubelife::worker_line::ask;
use std::rc::Rc;
use wasm_bindgen::prelude::*;

/// Turns any panic into a visible banner with a reload button, instead of a dead page.
fn install_panic_banner() {
    std::panic::set_hook(Box::new(|info| {
        let message = info.to_string();
        web_sys::console::error_1(&format!("kubelife panicked: {message}").into());
        let Some(doc) = web_sys::window().and_then(|w| w.document()) else {
            return;
        };
        let Some(body) = doc.body() else { return };
        let Ok(banner) = doc.create_element("div") else { return };
        banner.set_class_name("panic-banner");
        let _ = banner.set_attribute("role", "alert");
        banner.set_text_content(Some(&format!(
            "kubelife hit a bug and stopped: {message}. Your settings are not lost if you reload. "
        )));
        if let Ok(button) = doc.create_element("button") {
            button.set_text_content(Some("Reload"));
            let _ = button.set_attribute("onclick", "location.reload()");
            let _ = banner.append_child(&button);
        }
        let _ = body.prepend_with_node_1(&banner);
    }));
}

/// The page's clock, ms.
fn now() -> f64 {
    web_sys::window().and_then(|w| w.performance()).map_or(0.0, |p| p.now())
}

/// Re-simulates the default scenario with `nodes` nodes `repeats` times as the page does (settings
/// to the worker, the run back, decoded and laid out once as the page's `Run`) and resolves to the
/// mean time of one, ms (used by the budget script).
#[wasm_bindgen]
pub async fn kubelife_bench(nodes: u32, repeats: u32) -> f64 {
    // Three pods per node, as in the engine's benchmark (the default scenario keeps its own).
    let web = if nodes <= 3 { 3 } else { nodes * 3 };
    let settings = Settings {
        nodes,
        web_replicas: web,
        ..Default::default()
    };
    kubelife_bench_link_settings(settings, repeats).await
}

/// As [`kubelife_bench`], for the settings of a page link's query string (`nodes=5000&...`).
#[wasm_bindgen]
pub async fn kubelife_bench_link(query: String, repeats: u32) -> f64 {
    kubelife_bench_link_settings(kubelife::link::decode(&query).settings, repeats).await
}

async fn kubelife_bench_link_settings(settings: Settings, repeats: u32) -> f64 {
    let start = now();
    for _ in 0..repeats.max(1) {
        // As a control's change: resolved once, asked of the worker as the page asks it
        // (`Asked::job`), run there, read and laid out.
        let asked = Asked {
            slot: Slot::A,
            a: Rc::new(prepare(settings.clone())),
            b: None,
        };
        let Some(EngineAnswer::Run(bytes)) = ask(asked.job()).await else {
            return f64::NAN;
        };
        let Ok(outcome) = kubelife_engine::wire::decode(&bytes.0) else {
            return f64::NAN;
        };
        let Some(p) = Rc::into_inner(asked.a) else {
            return f64::NAN;
        };
        let run = Run::from_run(p, outcome);
        std::hint::black_box(&run);
    }
    (now() - start) / f64::from(repeats.max(1))
}

/// The scenario JSON (the CLI's input format) of a page link's query string, so the budget
/// script can time the native engine on exactly what the page runs.
#[wasm_bindgen]
pub async fn kubelife_scenario_json(query: String) -> String {
    let settings = kubelife::link::decode(&query).settings;
    match ask(FilesJob::ScenarioJson(Box::new(settings))).await {
        Some(FilesAnswer::Text(text)) => text,
        _ => String::new(),
    }
}

/// Runs the engine's calibration workload (`calibration::heartbeat_floor`: a bare event loop of
/// `nodes` nodes' heartbeats over 15 minutes) `repeats` times in the engine's worker and resolves to
/// the mean time of one run in ms, measured there: the budget script divides re-simulation times
/// by it, so that its budgets are ratios that hold on any machine.
#[wasm_bindgen]
pub async fn kubelife_calibrate(nodes: u32, repeats: u32) -> f64 {
    match ask(EngineJob::Calibrate { nodes, repeats }).await {
        Some(EngineAnswer::Calibrated(ms)) => ms,
        _ => f64::NAN,
    }
}

fn main() {
    install_panic_banner();
    kubelife::app::start();
}

//! Entry point of the playground in the browser.

use kubelife::app::App;
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

/// Re-simulates the default scenario with `nodes` nodes `repeats` times and returns the mean
/// time of one run in ms, measured inside the page (used by the budget script).
#[wasm_bindgen]
pub fn kubelife_bench(nodes: u32, repeats: u32) -> f64 {
    // Three pods per node, as in the engine's benchmark (the default scenario keeps its own).
    let web = if nodes <= 3 { 3 } else { nodes * 3 };
    let settings = kubelife::settings::Settings {
        nodes,
        web_replicas: web,
        ..Default::default()
    };
    let perf = web_sys::window().and_then(|w| w.performance());
    let now = || perf.as_ref().map_or(0.0, |p| p.now());
    let start = now();
    for _ in 0..repeats.max(1) {
        let m = kubelife::app::simulate(settings.clone());
        std::hint::black_box(&m);
    }
    (now() - start) / f64::from(repeats.max(1))
}

/// Runs the engine's calibration workload (`calibration::heartbeat_floor`: a bare event loop of
/// `nodes` nodes' heartbeats over 15 minutes) `repeats` times and returns the mean time of one run
/// in ms, measured inside the page: the budget script divides re-simulation times by it, so that
/// its budgets are ratios that hold on any machine.
#[wasm_bindgen]
pub fn kubelife_calibrate(nodes: u32, repeats: u32) -> f64 {
    let perf = web_sys::window().and_then(|w| w.performance());
    let now = || perf.as_ref().map_or(0.0, |p| p.now());
    let start = now();
    for seed in 0..repeats.max(1) {
        let sum = kubelife_engine::calibration::heartbeat_floor(nodes as usize, 15 * 60_000, u64::from(seed));
        std::hint::black_box(sum);
    }
    (now() - start) / f64::from(repeats.max(1))
}

fn main() {
    install_panic_banner();
    yew::Renderer::<App>::new().render();
}

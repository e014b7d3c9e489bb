//! No control can break the page: every slider at either end, alone and all together, on old and
//! new versions, gives a run (or a clear message with a fallback), never a panic.
#![cfg(not(target_arch = "wasm32"))]

use kubelife::knobs::KNOBS;
use kubelife::model::simulate;
use kubelife::settings::Settings;

#[test]
fn every_slider_at_either_end_runs() {
    for minor in [12, 13, 17, 26, 35] {
        for k in KNOBS.iter().filter(|k| k.available(minor)) {
            for v in [k.min, k.max] {
                let mut s = Settings {
                    minor,
                    ..Settings::default()
                };
                s.set(k.flag, v);
                let m = simulate(s);
                // A slider's own range never holds a value the engine refuses.
                assert_eq!(m.error, None, "1.{minor} {}={v}", k.flag);
                assert!(
                    m.outcome.summary.nodes.first().is_some_and(|n| n.fault_at_ms.is_some()),
                    "1.{minor} {}={v}: the fault still happens",
                    k.flag
                );
            }
        }
    }
}

#[test]
fn all_sliders_at_once_at_either_end_run() {
    for minor in [12, 20, 35] {
        for at_max in [false, true] {
            let mut s = Settings {
                minor,
                nodes: 50,
                zones: 3,
                web_replicas: 30,
                db_replicas: 10,
                ..Settings::default()
            };
            for k in KNOBS.iter().filter(|k| k.available(minor)) {
                s.set(k.flag, if at_max { k.max } else { k.min });
            }
            let m = simulate(s);
            assert!(
                m.cfg.nodes.len() == 50 || m.error.is_some(),
                "1.{minor} at_max={at_max}"
            );
        }
    }
}

//! The engine's purity and layering, checked on its sources: no web crates, no wall clock, no
//! global randomness, no hash-ordered maps (their iteration order would differ between runs), and
//! no import cycle between its modules.

use crate::layering;
use std::path::Path;

/// Every source file of the engine, with its module path (`control_plane::podgc`).
fn sources() -> Vec<(String, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    // The shared reader leaves out crate roots; the engine's own root is checked too.
    let root = std::fs::read_to_string(dir.join("lib.rs")).expect("readable");
    let mut out = layering::sources(&dir);
    out.push(("lib".to_string(), root));
    out.sort();
    assert!(out.len() > 10, "found the engine's modules");
    out
}

/// The engine's modules, its crate root aside.
fn modules() -> Vec<(String, String)> {
    layering::sources(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"))
}

#[test]
fn engine_modules_import_no_cycle() {
    let graph = layering::graph(&modules());
    if let Some(cycle) = layering::find_cycle(&graph) {
        panic!("import cycle between engine modules: {}", cycle.join(" → "));
    }
}

/// Top-level folders form no cycle either: `api` may not name `scenario` while `scenario`
/// names `api`, whichever of their files do it.
#[test]
fn engine_folders_import_no_cycle() {
    let graph = layering::graph(&modules());
    if let Some(cycle) = layering::find_cycle(&layering::folders(&graph)) {
        panic!("import cycle between engine folders: {}", cycle.join(" → "));
    }
}

#[test]
fn the_checks_read_super_paths_and_folders() {
    let files = [
        ("import::collect".to_string(), "use super::versions::X;".to_string()),
        (
            "import::versions".to_string(),
            "use crate::import::collect::Y;".to_string(),
        ),
        ("api::eviction".to_string(), "use crate::scenario::PdbSpec;".to_string()),
        (
            "scenario::config".to_string(),
            "use crate::api::Toleration;".to_string(),
        ),
        ("api".to_string(), String::new()),
        ("scenario".to_string(), String::new()),
    ];
    let graph = layering::graph(&files);
    assert!(
        layering::find_cycle(&graph).is_some(),
        "a cycle through super:: is found"
    );
    let folders = layering::folders(&graph);
    assert!(folders["api"].contains("scenario") && folders["scenario"].contains("api"));
}

#[test]
fn engine_depends_on_no_web_crate() {
    let manifest = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.toml")).unwrap();
    for web in ["yew", "web-sys", "js-sys", "wasm-bindgen", "gloo"] {
        assert!(
            !manifest.lines().any(|l| l.trim_start().starts_with(web)),
            "engine Cargo.toml names {web}"
        );
    }
}

#[test]
fn engine_reads_no_clock_and_no_global_randomness() {
    for (path, text) in sources() {
        for banned in [
            "SystemTime",
            "Instant::now",
            "thread_rng",
            "rand::",
            "getrandom",
            "HashMap",
            "HashSet",
            "std::env",
        ] {
            assert!(!text.contains(banned), "{path} uses {banned}");
        }
    }
}

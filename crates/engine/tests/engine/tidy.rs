//! The engine's purity, checked on its sources: no web crates, no wall clock, no global
//! randomness, no hash-ordered maps (their iteration order would differ between runs).

use std::path::Path;

fn sources() -> Vec<(String, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut out = Vec::new();
    for entry in std::fs::read_dir(&dir).expect("src exists") {
        let path = entry.expect("entry").path();
        if path.extension().is_some_and(|e| e == "rs") {
            out.push((
                path.display().to_string(),
                std::fs::read_to_string(&path).expect("readable"),
            ));
        }
    }
    assert!(out.len() > 10, "found the engine's modules");
    out
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

//! The engine's purity and layering, checked on its sources: no web crates, no wall clock, no
//! global randomness, no hash-ordered maps (their iteration order would differ between runs), and
//! no import cycle between its modules.

use crate::layering;
use std::path::Path;

/// The crate root's source, `src/lib.rs`.
fn root_source() -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("src/lib.rs")).expect("readable")
}

/// Every source file of the engine, with its module path (`control_plane::podgc`).
fn sources() -> Vec<(String, String)> {
    // The shared reader leaves out crate roots; the engine's own root is checked too.
    let mut out = layering::sources(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"));
    out.push(("lib".to_string(), root_source()));
    out.sort();
    assert!(out.len() > 10, "found the engine's modules");
    out
}

/// The crate root read as the module `crate`: its own paths (`pub use scenario::flags`) are
/// relative to it, so they are read as `crate::` paths.
fn root_as_module(text: &str) -> String {
    text.lines()
        .map(|line| {
            let code = line.trim_start();
            for prefix in ["pub use ", "pub(crate) use ", "use "] {
                if let Some(path) = code.strip_prefix(prefix) {
                    if !path.starts_with("crate::") {
                        return format!("{prefix}crate::{path}");
                    }
                }
            }
            line.to_string()
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The engine's modules and its crate root (as `crate`): a module that names one of the root's
/// re-exports (`crate::Outcome`) depends on the root, which depends on every module it
/// re-exports from, so a module that ties back to the root is found in a cycle.
fn modules() -> Vec<(String, String)> {
    let mut out = layering::sources(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"));
    out.push((layering::ROOT.to_string(), root_as_module(&root_source())));
    out
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

/// The old root held `run` and `Outcome`: `summary` named `crate::TimelineEvent` while the
/// root's `run` called `summary`, a cycle the checks now see.
#[test]
fn the_checks_read_the_crate_root() {
    let root = root_as_module("pub mod summary;\npub use summary::Summary;\n");
    let old = [
        (layering::ROOT.to_string(), root.clone()),
        ("summary".to_string(), "use crate::TimelineEvent;".to_string()),
    ];
    assert!(
        layering::find_cycle(&layering::graph(&old)).is_some(),
        "a module naming the root's re-export ties back to it"
    );
    let new = [
        (layering::ROOT.to_string(), root),
        ("summary".to_string(), "use crate::outcome::TimelineEvent;".to_string()),
        ("outcome".to_string(), String::new()),
    ];
    assert_eq!(layering::find_cycle(&layering::graph(&new)), None);
}

/// `lib.rs` is the crate's face: module declarations and re-exports, its doc and doctest, and
/// nothing else (no function, no type), in at most 120 lines, with its test modules last.
#[test]
fn the_crate_root_only_declares_modules_and_reexports() {
    const MAX: usize = 120;
    let text = root_source();
    let lines = text.lines().count();
    assert!(lines <= MAX, "lib.rs has {lines} lines, over {MAX}");
    let code: String = text
        .lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n");
    let mut found = Vec::new();
    for statement in code.split(';').map(str::trim).filter(|s| !s.is_empty()) {
        // Attributes (`#[cfg(test)]`, `#[path = "…"]`) belong to the declaration they precede.
        let mut rest = statement;
        while let Some(attr) = rest.strip_prefix("#[") {
            rest = attr.split_once(']').map_or("", |(_, after)| after).trim_start();
        }
        let declared = ["mod ", "pub mod ", "pub(crate) mod "]
            .iter()
            .find_map(|p| rest.strip_prefix(p))
            .is_some_and(|name| name.chars().all(|c| c.is_alphanumeric() || c == '_'));
        let reexported = ["pub use ", "pub(crate) use "].iter().any(|p| rest.starts_with(p));
        let named = rest == "extern crate self as kubelife_engine";
        if !(declared || reexported || named) {
            found.push(statement.to_string());
        }
    }
    assert!(
        found.is_empty(),
        "lib.rs holds more than modules and re-exports: {found:#?}"
    );
    // The cycle checks stop reading at the first `#[cfg(test)]`: the re-exports come before it.
    let tests = code.split("#[cfg(test)]").skip(1).collect::<String>();
    assert!(
        !tests.contains("pub use ") && !tests.contains("pub mod "),
        "lib.rs declares or re-exports after its test modules, where the cycle checks do not read"
    );
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

/// The driver holds no controller's rules: of `sim/`, only the driver's `mod.rs`, which builds
/// the controllers, names the remediators' module; their steps, drains, breakers and
/// stuck-terminating checks live in `control_plane/`.
#[test]
fn only_the_driver_names_the_remediators() {
    let found: Vec<String> = modules()
        .into_iter()
        .filter(|(m, _)| m.starts_with("sim::"))
        .filter(|(_, text)| text.contains("control_plane::remediation") || text.contains("remediation::"))
        .map(|(m, _)| m)
        .collect();
    assert!(found.is_empty(), "driver modules name the remediators: {found:?}");
    let driver = modules().into_iter().find(|(m, _)| m == "sim").expect("the driver").1;
    assert!(
        driver.contains("control_plane::remediation"),
        "the driver builds the remediators"
    );
}

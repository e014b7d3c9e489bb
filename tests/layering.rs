//! The page's sources keep their layering: no import cycle between modules (the reducer in `app`
//! imports components; no component imports `app`), and no function anywhere in `crates/` or
//! `src/` grows past 120 lines. The checker is the engine's (`crates/engine/tests/support`).

#[path = "../crates/engine/tests/support/layering.rs"]
mod layering;

use layering::{dependencies, find_cycle, function_lengths, graph, long_functions};
use std::collections::BTreeSet;
use std::path::Path;

/// The page's modules (the shell's).
fn sources() -> Vec<(String, String)> {
    let out = layering::sources(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"));
    assert!(out.len() > 10, "found the page's modules");
    out
}

/// The modules of the playground's core (`crates/playground`).
fn core_sources() -> Vec<(String, String)> {
    let out = layering::sources(&Path::new(env!("CARGO_MANIFEST_DIR")).join("crates/playground/src"));
    assert!(out.len() > 8, "found the core's modules");
    out
}

/// The core has no web dependency: neither its manifest nor its code names one, so it builds
/// and runs natively whole, and the shell alone talks to the browser.
#[test]
fn the_core_has_no_web_dependency() {
    let web = [
        "yew",
        "web-sys",
        "web_sys",
        "js-sys",
        "js_sys",
        "wasm-bindgen",
        "wasm_bindgen",
        "gloo",
    ];
    let manifest = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("crates/playground/Cargo.toml"))
        .expect("the core's manifest");
    let deps = manifest.split("[dependencies]").nth(1).expect("dependencies");
    let deps = deps.split("\n[").next().unwrap_or("");
    let mut found: Vec<String> = web
        .iter()
        .filter(|w| deps.lines().any(|l| l.trim_start().starts_with(*w)))
        .map(|w| format!("Cargo.toml: {w}"))
        .collect();
    for (module, text) in core_sources() {
        found.extend(
            web.iter()
                .filter(|w| text.contains(&format!("{w}::")))
                .map(|w| format!("{module}: {w}")),
        );
    }
    assert!(found.is_empty(), "the core names web dependencies: {found:#?}");
}

/// The engine's worker links the core and the engine, never a module of the page's shell.
#[test]
fn the_worker_links_no_page_module() {
    let graph = graph(&sources());
    let shell: BTreeSet<&str> = graph.keys().map(String::as_str).collect();
    let reached: Vec<&String> = graph["worker"].iter().filter(|d| shell.contains(d.as_str())).collect();
    assert!(reached.is_empty(), "worker imports page modules: {reached:?}");
}

#[test]
fn page_modules_import_no_cycle() {
    if let Some(cycle) = find_cycle(&graph(&core_sources())) {
        panic!("import cycle between the core's modules: {}", cycle.join(" → "));
    }
    let graph = graph(&sources());
    if let Some(cycle) = find_cycle(&graph) {
        panic!("import cycle between the page's modules: {}", cycle.join(" → "));
    }
    // The layering the cycle check protects: the reducer uses components, never the reverse.
    assert!(graph["app"].iter().any(|d| d.starts_with("components")));
    for (m, deps) in &graph {
        assert!(
            !deps.contains("app"),
            "{m} imports app: share the type through `model` instead"
        );
    }
}

#[test]
fn the_cycle_check_reads_use_trees_and_finds_cycles() {
    let set = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<BTreeSet<String>>();
    let modules = set(&["a", "b", "b::c", "d", "e"]);
    let deps = dependencies(
        "b::c",
        "use crate::{a::X, b::{c::Y}};\nuse super::Z;\n/// [`crate::e`]\nfn f() { crate::d::g() }\n#[cfg(test)]\nuse crate::b;",
        &modules,
    );
    assert_eq!(deps, set(&["a", "b", "b::c", "d"]));
    // The old page: the workshop took `Side` from `app`, and `app` drew the workshop.
    let old = [
        (
            "app".to_string(),
            "use crate::components::workshop::ExercisePanel;".to_string(),
        ),
        ("components".to_string(), "pub mod workshop;".to_string()),
        ("components::workshop".to_string(), "use crate::app::Side;".to_string()),
    ];
    let cycle = find_cycle(&graph(&old)).expect("the old import cycle is found");
    assert_eq!(cycle.len(), 3, "{cycle:?}");
    // Through a shared model module there is none.
    let new = [
        (
            "app".to_string(),
            "use crate::components::workshop::ExercisePanel;\nuse crate::model::Side;".to_string(),
        ),
        (
            "components::workshop".to_string(),
            "use crate::model::Side;".to_string(),
        ),
        ("model".to_string(), String::new()),
    ];
    assert_eq!(find_cycle(&graph(&new)), None);
}

#[test]
fn no_function_runs_over_120_lines() {
    const MAX: usize = 120;
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let long = long_functions(&[root.join("src"), root.join("crates"), root.join("tests")], MAX);
    let long: Vec<String> = long
        .iter()
        .map(|(file, f, line, n)| format!("{file}: {f} (line {line}, {n} lines)"))
        .collect();
    assert!(long.is_empty(), "functions over {MAX} lines: split them: {long:?}");
}

#[test]
fn function_lengths_count_from_signature_to_closing_brace() {
    let text = "fn a() {\n    1\n}\n\npub fn b(\n    x: u32,\n) -> u32 {\n    x\n}\n    fn c();\n";
    assert_eq!(
        function_lengths(text),
        vec![("a".to_string(), 1, 3), ("b".to_string(), 5, 5)]
    );
}

/// The engine's heavy parts each live in one worker's wasm: only the workers' jobs (the core's
/// `jobs::engine` and `jobs::files`, which the shell's `worker` registers) and `first_run` (which
/// checks the run made ahead against the worker's) call the simulation, the import or the export;
/// anything else would pull that code into the page's wasm.
#[test]
fn only_the_workers_run_import_or_export() {
    let heavy = [
        "kubelife_engine::run(",
        "run_settings(",
        "run_config(",
        "import::import(",
        "export::export(",
        "{import, ",
        "{export, ",
    ];
    // `model::simulate` runs on the spot for tests and tools; the page never calls it. The jobs
    // live in the core so that native tests run them, each in a module of its own that only its
    // worker calls (`worker::Runs`, `worker::Files`): the page links `jobs`' messages alone,
    // which call none of these.
    let allowed = ["worker", "first_run", "model", "jobs::engine", "jobs::files"];
    let mut found = Vec::new();
    for (module, text) in sources().into_iter().chain(core_sources()) {
        if allowed.contains(&module.as_str()) {
            continue;
        }
        // Tests run natively and may call anything.
        let code = text.split("#[cfg(test)]").next().unwrap_or("");
        found.extend(
            heavy
                .iter()
                .filter(|h| code.contains(*h))
                .map(|h| format!("{module}: {h}")),
        );
    }
    assert!(
        found.is_empty(),
        "the page's own code calls into a worker's part: {found:#?}"
    );
}

/// The workers' jobs are named only by the workers: the page's modules send `jobs`' messages and
/// read its answers, and never name `jobs::engine` or `jobs::files`, so the page's wasm links
/// neither the simulation nor the import and export through them. (`first_run` checks the run
/// made ahead against the engine's worker's, natively and in a browser test.)
#[test]
fn only_the_workers_name_the_workers_jobs() {
    let allowed = ["worker", "first_run"];
    let mut found = Vec::new();
    for (module, text) in sources() {
        let code = text.split("#[cfg(test)]").next().unwrap_or("");
        let code: Vec<&str> = code.lines().filter(|l| !l.trim_start().starts_with("//")).collect();
        let code = code.join("\n");
        for jobs in ["jobs::engine", "jobs::files", "jobs::{engine", "jobs::{files"] {
            if !allowed.contains(&module.as_str()) && code.contains(jobs) {
                found.push(format!("{module}: {jobs}"));
            }
        }
    }
    assert!(found.is_empty(), "page modules name a worker's jobs: {found:#?}");
}

/// A change a component sends is data (which setting, which value); the setters live in the
/// core (`crates/playground/src/settings/edits.rs`). Neither `Edit` nor a component carries a
/// function that writes the settings.
#[test]
fn components_send_edits_as_data() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let model = std::fs::read_to_string(root.join("crates/playground/src/model.rs")).expect("the model");
    let edit = model.split("pub enum Edit {").nth(1).expect("the Edit enum");
    let edit = &edit[..edit.find("\n}").expect("the enum's end")];
    assert!(!edit.contains("fn("), "Edit carries a function: {edit}");
    let mut found = Vec::new();
    for (module, text) in sources().into_iter().filter(|(m, _)| m.starts_with("components")) {
        for (i, line) in text.lines().enumerate() {
            let compact: String = line.chars().filter(|c| !c.is_whitespace()).collect();
            let closure = [
                "Edit::Number(|",
                "Edit::Switch(|",
                "Edit::Number(move|",
                "Edit::Switch(move|",
            ];
            if closure.iter().any(|c| compact.contains(c)) || compact.contains("fn(&mutSettings") {
                found.push(format!("{module}:{}: {}", i + 1, line.trim()));
            }
        }
    }
    assert!(
        found.is_empty(),
        "components write settings through functions: {found:#?}"
    );
}

/// The core stays in files a reader can hold: none in `crates/playground/src` runs over 700
/// lines (split a file by concept, as `settings/` and `link/` are).
#[test]
fn no_core_file_runs_over_700_lines() {
    const MAX: usize = 700;
    let long: Vec<String> = core_sources()
        .into_iter()
        .map(|(module, text)| (module, text.lines().count()))
        .filter(|(_, n)| *n > MAX)
        .map(|(module, n)| format!("{module}: {n} lines"))
        .collect();
    assert!(long.is_empty(), "core files over {MAX} lines: {long:?}");
}

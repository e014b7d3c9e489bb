//! The engine's purity and layering, checked on its sources: no web crates, no wall clock, no
//! global randomness, no hash-ordered maps (their iteration order would differ between runs), and
//! no import cycle between its modules.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("src exists") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            walk(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// Every source file of the engine, with its module path (`control_plane::podgc`).
fn sources() -> Vec<(String, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut paths = Vec::new();
    walk(&dir, &mut paths);
    paths.sort();
    let out: Vec<(String, String)> = paths
        .iter()
        .map(|path| {
            let rel = path.strip_prefix(&dir).expect("below src").with_extension("");
            let module = rel
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .filter(|c| c != "mod")
                .collect::<Vec<_>>()
                .join("::");
            (module, std::fs::read_to_string(path).expect("readable"))
        })
        .collect();
    assert!(out.len() > 10, "found the engine's modules");
    out
}

/// The modules a source names through `crate::a::b…` paths, as the longest known module prefix.
fn dependencies(text: &str, modules: &BTreeSet<String>) -> BTreeSet<String> {
    let mut deps = BTreeSet::new();
    let code = text.split("#[cfg(test)]").next().unwrap_or(text);
    for (i, _) in code.match_indices("crate::") {
        let rest = &code[i + "crate::".len()..];
        let path: String = rest
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == ':')
            .collect();
        let parts: Vec<&str> = path.split("::").filter(|p| !p.is_empty()).collect();
        for len in (1..=parts.len()).rev() {
            let candidate = parts[..len].join("::");
            if modules.contains(&candidate) {
                deps.insert(candidate);
                break;
            }
        }
    }
    deps
}

#[test]
fn engine_modules_import_no_cycle() {
    let files = sources();
    let modules: BTreeSet<String> = files.iter().map(|(m, _)| m.clone()).collect();
    // A module depends on what it names, and a parent on its children (it declares them).
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (m, text) in &files {
        let mut deps = dependencies(text, &modules);
        deps.retain(|d| d != m && !m.starts_with(&format!("{d}::")));
        graph.entry(m.clone()).or_default().extend(deps);
    }
    if let Some(cycle) = find_cycle(&graph) {
        panic!("import cycle between engine modules: {}", cycle.join(" → "));
    }
}

/// A cycle in `graph`, found by depth-first search for a back edge.
fn find_cycle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        m: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        state: &mut BTreeMap<String, u8>,
        stack: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        match state.get(m) {
            Some(2) => return None,
            Some(1) => {
                let start = stack.iter().position(|s| s == m).unwrap_or(0);
                let mut cycle = stack[start..].to_vec();
                cycle.push(m.to_string());
                return Some(cycle);
            }
            _ => {}
        }
        state.insert(m.to_string(), 1);
        stack.push(m.to_string());
        for d in graph.get(m).into_iter().flatten() {
            if let Some(c) = visit(d, graph, state, stack) {
                return Some(c);
            }
        }
        stack.pop();
        state.insert(m.to_string(), 2);
        None
    }
    let mut state = BTreeMap::new();
    graph.keys().find_map(|m| visit(m, graph, &mut state, &mut Vec::new()))
}

#[test]
fn the_cycle_check_reads_paths_and_finds_cycles() {
    let set = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<BTreeSet<String>>();
    let modules = set(&["a", "b", "b::c"]);
    let deps = dependencies("use crate::b::c::{X};\nfn f() { crate::a::g() }", &modules);
    assert_eq!(deps, set(&["a", "b::c"]));
    let mut graph = BTreeMap::new();
    graph.insert("a".to_string(), set(&["b::c"]));
    graph.insert("b::c".to_string(), set(&["d"]));
    assert_eq!(find_cycle(&graph), None);
    graph.insert("d".to_string(), set(&["a"]));
    assert_eq!(find_cycle(&graph).map(|c| c.len()), Some(4));
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

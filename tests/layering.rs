//! The page's sources keep their layering: no import cycle between modules (the reducer in `app`
//! imports components; no component imports `app`), and no function grows past 150 lines.

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

/// Every module of the library with its source (`components::timeline`), crate roots aside.
fn sources() -> Vec<(String, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut paths = Vec::new();
    walk(&dir, &mut paths);
    paths.sort();
    let out: Vec<(String, String)> = paths
        .iter()
        .filter(|p| !p.ends_with("lib.rs") && !p.ends_with("main.rs"))
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
    assert!(out.len() > 10, "found the page's modules");
    out
}

/// The paths a `use` tree names, expanded: `a::{b, c::{d}}` gives `a::b` and `a::c::d`.
fn expand(tree: &str) -> Vec<String> {
    let tree = tree.trim();
    let Some(open) = tree.find('{') else {
        return vec![tree.trim_end_matches("::").to_string()];
    };
    let prefix = tree[..open].trim_end_matches("::");
    let inner = &tree[open + 1..tree.rfind('}').unwrap_or(tree.len())];
    // Split the group at commas outside nested braces.
    let (mut parts, mut depth, mut start) = (Vec::new(), 0, 0);
    for (i, c) in inner.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&inner[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&inner[start..]);
    parts
        .into_iter()
        .filter(|p| !p.trim().is_empty())
        .flat_map(expand)
        .map(|p| if prefix.is_empty() { p } else { format!("{prefix}::{p}") })
        .collect()
}

/// The modules `module`'s code names through `crate::…` or `super::…` paths, each as the
/// longest known module prefix. Comment lines (a doc link is no import) and tests (after
/// `#[cfg(test)]`) do not count.
fn dependencies(module: &str, text: &str, modules: &BTreeSet<String>) -> BTreeSet<String> {
    let text = text.split("#[cfg(test)]").next().unwrap_or(text);
    let code: String = text
        .lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n");
    let parent: Vec<&str> = module.split("::").collect();
    let parent = parent[..parent.len() - 1].join("::");
    let mut deps = BTreeSet::new();
    for (anchor, base) in [("crate::", String::new()), ("super::", parent)] {
        for (i, _) in code.match_indices(anchor) {
            let before = code[..i].chars().next_back();
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
                continue;
            }
            let rest = &code[i + anchor.len()..];
            let (mut depth, mut end) = (0, rest.len());
            for (j, c) in rest.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' if depth > 0 => depth -= 1,
                    c if depth == 0 && !(c.is_alphanumeric() || c == '_' || c == ':') => {
                        end = j;
                        break;
                    }
                    _ => {}
                }
                if depth == 0 && c == '}' {
                    end = j + 1;
                    break;
                }
            }
            for path in expand(&rest[..end]) {
                let full = if base.is_empty() {
                    path
                } else {
                    format!("{base}::{path}")
                };
                let parts: Vec<&str> = full.split("::").filter(|p| !p.is_empty()).collect();
                if let Some(m) = (1..=parts.len())
                    .rev()
                    .map(|n| parts[..n].join("::"))
                    .find(|m| modules.contains(m))
                {
                    deps.insert(m);
                }
            }
        }
    }
    deps
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

/// Module → the modules it names, a module's own children and parents aside (a parent declares
/// its children, and a child may use what its parent holds).
fn graph(files: &[(String, String)]) -> BTreeMap<String, BTreeSet<String>> {
    let modules: BTreeSet<String> = files.iter().map(|(m, _)| m.clone()).collect();
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (m, text) in files {
        let mut deps = dependencies(m, text, &modules);
        deps.retain(|d| d != m && !m.starts_with(&format!("{d}::")) && !d.starts_with(&format!("{m}::")));
        graph.entry(m.clone()).or_default().extend(deps);
    }
    graph
}

#[test]
fn page_modules_import_no_cycle() {
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

/// The longest functions of a source: (name, first line, lines), found by rustfmt's layout (a
/// function's closing brace sits at its `fn` line's indentation).
fn function_lengths(text: &str) -> Vec<(String, usize, usize)> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let trimmed = line.trim_start();
        let indent = &line[..line.len() - trimmed.len()];
        let signature = ["fn ", "pub fn ", "pub(crate) fn ", "async fn ", "pub async fn "]
            .iter()
            .find_map(|p| trimmed.strip_prefix(p));
        let Some(rest) = signature else { continue };
        if line.trim_end().ends_with(';') {
            continue;
        }
        let name: String = rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
        let close = format!("{indent}}}");
        if let Some(end) = lines[i..].iter().position(|l| l.trim_end() == close) {
            out.push((name, i + 1, end + 1));
        }
    }
    out
}

#[test]
fn no_function_runs_over_150_lines() {
    const MAX: usize = 150;
    let long: Vec<String> = sources()
        .iter()
        .flat_map(|(m, text)| {
            function_lengths(text)
                .into_iter()
                .filter(|(_, _, n)| *n > MAX)
                .map(move |(f, line, n)| format!("{m}::{f} (line {line}, {n} lines)"))
        })
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

/// The engine's heavy parts each live in one worker's wasm: only `worker` (and `first_run`, which
/// checks the run made ahead against the worker's) calls the simulation, the import or the export;
/// anything else would pull that code into the page's wasm.
#[test]
fn only_the_workers_run_import_or_export() {
    let heavy = [
        "kubelife_engine::run(",
        "run_settings(",
        "import::import(",
        "export::export(",
        "{import, ",
        "{export, ",
    ];
    // `model::simulate` runs on the spot for tests and tools; the page never calls it.
    let allowed = ["worker", "first_run", "model"];
    let mut found = Vec::new();
    for (module, text) in sources() {
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

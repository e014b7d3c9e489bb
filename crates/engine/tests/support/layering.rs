//! How a tree of Rust sources is layered, read off the sources themselves: the modules and what
//! each names (`crate::…`, `super::…`, use trees included; comments and tests aside), import
//! cycles between modules or between top-level folders, and how long each function runs.
//! Shared by the engine's tidy test and the page's layering test (each includes this file), so
//! both trees are held to one checker.
#![allow(dead_code)]

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The name a crate root goes by among the modules when a check reads it too.
pub const ROOT: &str = "crate";

/// Every module under `dir` with its source (`control_plane::podgc`), crate roots aside.
pub fn sources(dir: &Path) -> Vec<(String, String)> {
    let mut paths = Vec::new();
    walk(dir, &mut paths);
    paths.sort();
    paths
        .iter()
        .filter(|p| !p.ends_with("lib.rs") && !p.ends_with("main.rs"))
        .map(|path| {
            let rel = path.strip_prefix(dir).expect("below the root").with_extension("");
            let module = rel
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .filter(|c| c != "mod")
                .collect::<Vec<_>>()
                .join("::");
            (module, std::fs::read_to_string(path).expect("readable"))
        })
        .collect()
}

/// The graph of top-level folders: `a::b` naming `c::d` makes `a` depend on `c`.
pub fn folders(graph: &BTreeMap<String, BTreeSet<String>>) -> BTreeMap<String, BTreeSet<String>> {
    let top = |m: &str| m.split("::").next().unwrap_or(m).to_string();
    let mut out: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (m, deps) in graph {
        let entry = out.entry(top(m)).or_default();
        entry.extend(deps.iter().map(|d| top(d)).filter(|d| *d != top(m)));
    }
    out
}

/// Every function over `max` lines in the Rust files under `roots`: (file, name, line, lines).
pub fn long_functions(roots: &[PathBuf], max: usize) -> Vec<(String, String, usize, usize)> {
    let mut out = Vec::new();
    for root in roots {
        let mut paths = Vec::new();
        walk(root, &mut paths);
        for path in paths {
            let text = std::fs::read_to_string(&path).expect("readable");
            for (name, line, len) in function_lengths(&text) {
                if len > max {
                    out.push((path.display().to_string(), name, line, len));
                }
            }
        }
    }
    out
}

pub fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("the folder exists") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            walk(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The paths a `use` tree names, expanded: `a::{b, c::{d}}` gives `a::b` and `a::c::d`.
pub fn expand(tree: &str) -> Vec<String> {
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
/// `#[cfg(test)]`) do not count. Where the crate root is among the modules (as `crate`), a path
/// that names no module names one of the root's own items (`crate::Outcome`, a re-export).
pub fn dependencies(module: &str, text: &str, modules: &BTreeSet<String>) -> BTreeSet<String> {
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
                let named = (1..=parts.len())
                    .rev()
                    .map(|n| parts[..n].join("::"))
                    .find(|m| modules.contains(m));
                if let Some(m) = named.or_else(|| modules.get(ROOT).cloned()) {
                    deps.insert(m);
                }
            }
        }
    }
    deps
}

/// A cycle in `graph`, found by depth-first search for a back edge.
pub fn find_cycle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
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
pub fn graph(files: &[(String, String)]) -> BTreeMap<String, BTreeSet<String>> {
    let modules: BTreeSet<String> = files.iter().map(|(m, _)| m.clone()).collect();
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (m, text) in files {
        let mut deps = dependencies(m, text, &modules);
        deps.retain(|d| d != m && !m.starts_with(&format!("{d}::")) && !d.starts_with(&format!("{m}::")));
        graph.entry(m.clone()).or_default().extend(deps);
    }
    graph
}

/// The longest functions of a source: (name, first line, lines), found by rustfmt's layout (a
/// function's closing brace sits at its `fn` line's indentation).
pub fn function_lengths(text: &str) -> Vec<(String, usize, usize)> {
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

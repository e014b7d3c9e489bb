//! Scoped class names: one component's CSS never reaches another's. Every class the page uses
//! starts with the name of the module that draws it (`workshop-mark` is the workshop's), and
//! `www/style.css` styles each class in its owner's section; a few documented global classes
//! are the exception. See ARCHITECTURE.md, "Styles".

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Classes any module may use, styled in the base section.
const GLOBAL: [&str; 2] = ["visually-hidden", "panic-banner"];

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn read(rel: &str) -> String {
    std::fs::read_to_string(root().join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

/// Whether `class` belongs to `owner`: the owner's name itself, or the name and a dash.
fn owned(class: &str, owner: &str) -> bool {
    class == owner || class.strip_prefix(owner).is_some_and(|rest| rest.starts_with('-'))
}

/// The sources that draw the page, each with the prefix its classes carry: a component's is its
/// module's name, `app`'s is `app`; the crate's other files may use global classes only.
fn sources() -> Vec<(String, Option<String>, String)> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(root().join("src/components")).expect("components") {
        let path = entry.expect("entry").path();
        let stem = path.file_stem().expect("name").to_string_lossy().into_owned();
        let owner = (stem != "mod").then(|| stem.clone());
        out.push((
            format!("src/components/{stem}.rs"),
            owner,
            std::fs::read_to_string(&path).expect("readable"),
        ));
    }
    for entry in std::fs::read_dir(root().join("src")).expect("src") {
        let path = entry.expect("entry").path();
        if path.extension().is_some_and(|e| e == "rs") {
            let stem = path.file_stem().expect("name").to_string_lossy().into_owned();
            // `app` and the first view's wrapper (`first-view`) own classes of their own.
            let owner = match stem.as_str() {
                "app" => Some("app".to_string()),
                "first_view" => Some("first-view".to_string()),
                _ => None,
            };
            out.push((
                format!("src/{stem}.rs"),
                owner,
                std::fs::read_to_string(&path).expect("readable"),
            ));
        }
    }
    out.sort();
    out
}

/// The string literals in a piece of Rust code (escapes kept as written).
fn literals(code: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut chars = code.chars();
    while let Some(c) = chars.next() {
        if c != '"' {
            continue;
        }
        let mut lit = String::new();
        while let Some(c) = chars.next() {
            match c {
                '\\' => {
                    lit.push(c);
                    lit.extend(chars.next());
                }
                '"' => break,
                c => lit.push(c),
            }
        }
        out.push(lit);
    }
    out
}

/// The class names a source gives elements: the literals of every `class=` attribute (or
/// `set_class_name`, `class_list().add_1`). A literal that is a format string gives its text
/// before the first hole, ending in `-` (a prefix such as `cluster-node-`).
fn classes_in(code: &str) -> Vec<String> {
    let mut out = Vec::new();
    for anchor in ["class=", "set_class_name(", ".add_1("] {
        for (i, _) in code.match_indices(anchor) {
            let rest = &code[i + anchor.len()..];
            let value = if let Some(quoted) = rest.strip_prefix('"') {
                let end = quoted.find('"').map_or(rest.len(), |e| e + 2);
                &rest[..end]
            } else if rest.starts_with('{') {
                let mut depth = 0;
                let end = rest
                    .char_indices()
                    .find(|&(_, c)| {
                        depth += match c {
                            '{' => 1,
                            '}' => -1,
                            _ => 0,
                        };
                        depth == 0
                    })
                    .map_or(rest.len(), |(j, _)| j + 1);
                &rest[..end]
            } else if anchor != "class=" {
                let end = rest.find(')').unwrap_or(rest.len());
                &rest[..end]
            } else {
                continue;
            };
            let lits = literals(value);
            assert!(
                !lits.is_empty(),
                "a class attribute without a literal, so its owner cannot be checked: {}",
                &value[..value.len().min(80)]
            );
            for lit in lits {
                let fixed = lit.split('{').next().unwrap_or("");
                if lit.starts_with('{') {
                    panic!("a class that starts with a hole cannot be checked: {lit:?}");
                }
                let mut words: Vec<String> = fixed.split_whitespace().map(str::to_string).collect();
                // The text before a hole is a prefix: mark it when it ends a class name.
                if fixed.len() < lit.len() && !fixed.ends_with(char::is_whitespace) {
                    if let Some(last) = words.last_mut() {
                        last.push('*');
                    }
                }
                out.extend(words);
            }
        }
    }
    out
}

/// The stylesheet's sections (`/* == name … == */`), each with its class selectors and
/// keyframe names (as `@name`).
fn css_sections(css: &str) -> BTreeMap<String, BTreeSet<String>> {
    let mut out: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (k, chunk) in css.split("/* ==").enumerate() {
        let (section, body) = if k == 0 {
            ("(before any section)".to_string(), chunk)
        } else {
            let end = chunk.find("*/").expect("section headers close");
            let name = chunk.trim_start().split([' ', ':']).next().unwrap_or("").to_string();
            (name, &chunk[end + 2..])
        };
        let names = out.entry(section).or_default();
        names.extend(selector_names(&strip_comments(body)));
    }
    out.retain(|_, names| !names.is_empty());
    out
}

fn strip_comments(css: &str) -> String {
    let mut out = String::new();
    let mut rest = css;
    while let Some(start) = rest.find("/*") {
        out.push_str(&rest[..start]);
        rest = rest[start..].find("*/").map_or("", |end| &rest[start + end + 2..]);
    }
    out.push_str(rest);
    out
}

/// The class names in the selectors of some rules, and their keyframe names as `@name`.
/// Declarations (which hold numbers like `.5rem`) and keyframe steps are skipped.
fn selector_names(css: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut rest = css;
    while let Some(open) = rest.find('{') {
        let head = rest[..open].trim().trim_start_matches('}').trim();
        let block = &rest[open + 1..];
        if let Some(name) = head.strip_prefix("@keyframes") {
            out.insert(format!("@{}", name.trim()));
            // Skip to the keyframes' closing brace.
            let (mut depth, mut end) = (1, block.len());
            for (i, c) in block.char_indices() {
                depth += match c {
                    '{' => 1,
                    '}' => -1,
                    _ => 0,
                };
                if depth == 0 {
                    end = i + 1;
                    break;
                }
            }
            rest = &block[end..];
            continue;
        }
        if head.starts_with('@') {
            // A block of rules (`@media`): read on inside it.
            rest = block;
            continue;
        }
        for (i, _) in head.match_indices('.') {
            let name: String = head[i + 1..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
                .collect();
            if name.starts_with(|c: char| c.is_ascii_alphabetic()) {
                out.insert(name);
            }
        }
        rest = block.find('}').map_or("", |end| &block[end + 1..]);
    }
    out
}

#[test]
fn every_class_a_source_uses_starts_with_its_owners_name() {
    let mut wrong = Vec::new();
    for (file, owner, code) in sources() {
        for class in classes_in(&code) {
            let name = class.trim_end_matches('*');
            let ok = GLOBAL.contains(&name) || owner.as_deref().is_some_and(|o| owned(name, o));
            if !ok {
                let want = owner
                    .as_deref()
                    .map_or("a global class".to_string(), |o| format!("`{o}-…`"));
                wrong.push(format!("{file}: class {class:?} (want {want})"));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "classes outside their owner's prefix:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn every_style_rule_sits_in_its_owners_section() {
    let css = read("www/style.css");
    let sections = css_sections(&css);
    let owners: BTreeSet<String> = sources().into_iter().filter_map(|(_, o, _)| o).collect();
    let mut wrong = Vec::new();
    for (section, names) in &sections {
        for name in names {
            let class = name.trim_start_matches('@');
            let ok = if section == "base" {
                GLOBAL.contains(&class)
            } else {
                owners.contains(section) && owned(class, section)
            };
            if !ok {
                wrong.push(format!("section {section:?} styles {name:?}"));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "style rules outside their owner's section (sections are `/* == <owner> == */`, where \
         the owner is `base`, `app` or a component module):\n{}",
        wrong.join("\n")
    );
    assert!(
        sections.contains_key("base") && sections.len() > 10,
        "sections found: {:?}",
        sections.keys()
    );
}

#[test]
fn every_styled_class_is_used_by_its_owner() {
    let css = read("www/style.css");
    let used: BTreeMap<String, Vec<String>> =
        sources()
            .into_iter()
            .fold(BTreeMap::new(), |mut acc, (_, owner, code)| {
                acc.entry(owner.unwrap_or_default())
                    .or_default()
                    .extend(classes_in(&code));
                acc
            });
    let everywhere: Vec<String> = used.values().flatten().cloned().collect();
    let mut stale = Vec::new();
    for (section, names) in css_sections(&css) {
        let mine = if section == "base" {
            &everywhere
        } else {
            used.get(&section).unwrap_or(&everywhere)
        };
        for name in names.iter().filter(|n| !n.starts_with('@')) {
            let hit = mine.iter().any(|c| match c.strip_suffix('*') {
                Some(prefix) => name.starts_with(prefix),
                None => c == name,
            });
            if !hit {
                stale.push(format!("{section}: .{name}"));
            }
        }
    }
    assert!(stale.is_empty(), "styles for classes nothing draws: {stale:?}");
}

#[test]
fn the_checks_catch_a_shared_class() {
    // The old page: the histogram's `.mark` also dressed the exercise checklist's marks.
    let old_css = "/* == base == */\nbody { margin: 0; }\n.mark { position: absolute; top: 0; bottom: 0; }\n\
                   @media (max-width: 820px) { .stage { order: -1; } }\n";
    let sections = css_sections(old_css);
    assert_eq!(
        sections["base"],
        ["mark", "stage"].iter().map(|s| s.to_string()).collect()
    );
    let old_rust = r#"html! { <span class="mark" aria-hidden="true">{"✓"}</span> <li class={classes!(if ok { "ok" } else { "todo" })}></li> }"#;
    let classes = classes_in(old_rust);
    assert_eq!(classes, ["mark", "ok", "todo"]);
    assert!(!owned("mark", "workshop") && owned("workshop-mark", "workshop") && !owned("workshopmark", "workshop"));
    // Format strings give the prefix they build on.
    assert_eq!(
        classes_in(r#"<a class={format!("cluster-node cluster-node-{}", s)}>"#),
        ["cluster-node", "cluster-node-*"]
    );
    // Selectors are read, declarations are not.
    let css = "/* == compare == */\n.compare-hist-b .compare-hist-bin { flex: 1.5; margin: .5rem; }\n\
               @keyframes compare-in { from { opacity: 0; } to { opacity: 1; } }\n.compare-axis { }\n";
    let sections = css_sections(css);
    assert_eq!(
        sections["compare"],
        ["@compare-in", "compare-axis", "compare-hist-b", "compare-hist-bin"]
            .iter()
            .map(|s| s.to_string())
            .collect()
    );
}

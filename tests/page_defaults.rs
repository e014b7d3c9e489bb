//! The page reads the remediators from the engine's settings table (`kubelife_engine::settings`):
//! neither the playground core (`crates/playground/src`) nor the shell (`src/`) writes a
//! remediator's default, the range a control offers or the providers it runs on. The forms
//! searched for are derived from the table, so a default that changes there is still found here:
//! the engine's own forms (`default_forms.rs`, shared with its test that each default is written
//! once) and the page's (a control's bounds, a provider list).

#[path = "../crates/engine/tests/support/default_forms.rs"]
mod default_forms;

use kubelife_engine::flags::Value;
use kubelife_engine::scenario::cloud::Provider;
use kubelife_engine::settings::{self, Applies, RemediatorKind, Unit};
use kubelife_engine::time::{format_go_duration, MINUTE, SECOND};
use std::path::Path;

/// Every `.rs` file under `dir`, with its path.
fn files(dir: &Path, out: &mut Vec<(String, String)>) {
    for entry in std::fs::read_dir(dir).expect("a source folder") {
        let path = entry.expect("an entry").path();
        if path.is_dir() {
            files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let text = std::fs::read_to_string(&path).expect("readable");
            out.push((path.display().to_string(), text));
        }
    }
}

/// A source file's code: its comments blanked and its tests left out (a test may name the
/// values it expects). A file of tests alone (`link/tests.rs`, `link/preset_tests.rs`: a name
/// ending in `tests.rs`) has no code.
fn code_of(path: &str, text: &str) -> String {
    if path.ends_with("tests.rs") {
        return String::new();
    }
    default_forms::blank_comments(text.split("\n#[cfg(test)]\n").next().unwrap_or(text))
}

/// The ways Rust code writes a span of `ms` as a remediator's default or a control's bound.
fn span_forms(ms: i64) -> Vec<String> {
    let s = ms / SECOND;
    let mut forms = vec![
        format!("{s} * SECOND"),
        format!("\"{}\"", format_go_duration(ms)),
        format!("Some(({s},"),
        format!("=> {s},"),
        format!("unwrap_or({s})"),
    ];
    if ms > 0 && ms % MINUTE == 0 {
        forms.push(format!("{} * MINUTE", ms / MINUTE));
    }
    forms
}

/// The ways Rust code writes a percentage `p` as a default.
fn percent_forms(p: i64) -> Vec<String> {
    vec![
        format!("=> {p},"),
        format!("unwrap_or({p})"),
        format!("\"{p}%\""),
        format!("Int({p})"),
        format!("Percent({p})"),
    ]
}

/// Every form of a remediator's default, range or provider list, with what it stands for.
fn forms() -> Vec<(String, String)> {
    let mut out = Vec::new();
    for s in settings::ALL.iter() {
        let Applies::Remediator(kind) = s.applies else {
            continue;
        };
        let what = |part: &str| format!("{} {part}", s.path);
        let providers = [None, Some(Provider::Aws), Some(Provider::Azure)];
        for v in providers.iter().filter_map(|&p| s.default_on(p)) {
            let found = match (s.unit, v) {
                (Unit::Duration, Value::Duration(ms)) => span_forms(ms),
                (Unit::Percent, Value::Int(p)) => percent_forms(p),
                _ => Vec::new(),
            };
            out.extend(found.into_iter().map(|f| (f, what("default"))));
        }
        let (lo, hi) = (s.range.0 as i64, s.range.1 as i64);
        match s.unit {
            Unit::Duration if lo > 0 => out.push((format!("{lo}, {hi})"), what("range"))),
            Unit::Duration => out.push((format!("0, {hi}))"), what("range"))),
            Unit::Percent => {
                out.push((format!("min({hi})"), what("range")));
                out.push((format!("<= {hi}"), what("range")));
                out.push((format!("max=\"{hi}\""), what("range")));
            }
            _ => {}
        }
        let list: Vec<String> = kind.providers().iter().map(|p| format!("Provider::{p:?}")).collect();
        if !list.is_empty() {
            out.push((format!("&[{}]", list.join(", ")), format!("{} providers", kind.name())));
        }
    }
    for (path, found) in default_forms::defaults_written_once() {
        out.extend(found.into_iter().map(|f| (f, format!("{path} default"))));
    }
    out.sort();
    out.dedup();
    out
}

/// Other quantities the page writes with a default's value: the file, the form, and what it is
/// there. A new file writing one of the values is a copy of a default until it is listed here
/// with what else it means.
const OTHER_QUANTITIES: &[(&str, &str, &str)] = &[(
    "crates/playground/src/tune.rs",
    "600_000",
    "the longest network blip a link asks the search to ride out",
)];

#[test]
fn the_page_writes_no_remediator_default_range_or_provider_list() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut sources = Vec::new();
    files(&root.join("crates/playground/src"), &mut sources);
    files(&root.join("src"), &mut sources);
    assert!(sources.len() > 40, "found the core's and the shell's sources");
    let forms = forms();
    let mut found = Vec::new();
    for (path, text) in &sources {
        let code = code_of(path, text);
        for (form, what) in &forms {
            let other = OTHER_QUANTITIES
                .iter()
                .any(|(file, f, _)| path.ends_with(file) && f == form);
            if other {
                continue;
            }
            for line in default_forms::lines_with(&code, form) {
                found.push(format!("{path}:{line}: {form} ({what})"));
            }
        }
    }
    assert!(
        found.is_empty(),
        "the page restates the settings table; read it from kubelife_engine::settings:\n  {}",
        found.join("\n  ")
    );
}

/// The forms find what the page wrote before it read the table.
#[test]
fn the_forms_find_the_old_copies() {
    let old = [
        "            Remediator::Mhc | Remediator::Snr => Some((300, 0, 3600)),",
        "            Remediator::Aks => Some((600, 300, 900)),",
        "            Remediator::Eks => 20,",
        "        (self.kind == Remediator::Snr).then(|| self.min_healthy_percent.unwrap_or(51))",
        "            Remediator::Karpenter => &[Provider::Aws, Provider::Azure],",
        "            number(e)?.min(100),",
    ];
    let forms = forms();
    for line in old {
        assert!(
            forms
                .iter()
                .any(|(f, _)| !default_forms::lines_with(line, f).is_empty()),
            "no form finds {line:?}"
        );
    }
    assert!(RemediatorKind::ALL.iter().any(|k| !k.providers().is_empty()));
}

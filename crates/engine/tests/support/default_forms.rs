//! The forms in which Rust code writes the settings table's defaults (`kubelife_engine::settings`)
//! and where a tree of sources writes them: shared by the engine's test that its code writes the
//! boot default, the remediators' default timeouts and their breakers once (in the table), and
//! the page's test that its core and shell write none of them. Each includes this file.
#![allow(dead_code)]

use kubelife_engine::flags::Value;
use kubelife_engine::format_go_duration;
use kubelife_engine::scenario::cloud::Provider;
use kubelife_engine::settings::{self, RemediatorKind};
use kubelife_engine::time::{MINUTE, SECOND};
use std::path::Path;

/// A source file's code: comments blanked, its `#[cfg(test)] mod tests` left out.
pub fn code_of(text: &str) -> String {
    blank_comments(text.split("\n#[cfg(test)]\nmod tests").next().unwrap_or(text))
}

/// `text` with every line comment blanked (a `//` inside a string is kept).
pub fn blank_comments(text: &str) -> String {
    text.lines()
        .map(|l| match l.find("//") {
            Some(i) if l[..i].matches('"').count() % 2 == 0 => &l[..i],
            _ => l,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// A whole number with `_` between thousands, as rustfmt and clippy write it (`1_800_000`).
pub fn grouped(n: i64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push('_');
        }
        out.push(c);
    }
    out
}

/// The ways Rust code writes a span of `ms` as a constant: `N * MINUTE`, `N * SECOND`, the
/// milliseconds (plain and grouped) and the Go durations (`"5m0s"`, `"5m"`, `"300s"`).
pub fn span_forms(ms: i64) -> Vec<String> {
    let s = ms / SECOND;
    let mut forms = vec![
        format!("{s} * SECOND"),
        ms.to_string(),
        grouped(ms),
        format!("\"{}\"", format_go_duration(ms)),
        format!("\"{s}s\""),
    ];
    if ms % MINUTE == 0 {
        let m = ms / MINUTE;
        forms.push(format!("{m} * MINUTE"));
        forms.push(format!("\"{m}m\""));
    }
    forms.sort();
    forms.dedup();
    forms
}

/// The ways Rust code writes a default percentage `p`.
pub fn percent_forms(p: i64) -> Vec<String> {
    vec![
        format!("Percent({p})"),
        format!("Int({p})"),
        format!("unwrap_or({p})"),
        format!("\"{p}%\""),
    ]
}

/// Where `form` stands in `code` as a whole (not `10 * MINUTE_MS` for `10 * MINUTE`, nor
/// `1300_000` for `300_000`): the lines, 1-based.
pub fn lines_with(code: &str, form: &str) -> Vec<usize> {
    let word = |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_');
    code.lines()
        .enumerate()
        .filter(|(_, line)| {
            line.match_indices(form).any(|(i, _)| {
                let before = line[..i].chars().next_back();
                let after = line[i + form.len()..].chars().next();
                let joined_before = word(before) && word(form.chars().next());
                let joined_after = word(after) && word(form.chars().next_back());
                !joined_before && !joined_after
            })
        })
        .map(|(i, _)| i + 1)
        .collect()
}

/// The defaults that must be written once: the boot (`cloud.nodeBootDuration`), each
/// remediator's unhealthy timeout (on every provider it runs on) and each breaker.
pub fn defaults_written_once() -> Vec<(&'static str, Vec<String>)> {
    let mut out = Vec::new();
    let boot = settings::NODE_BOOT_DURATION.default_ms(None);
    out.push((settings::NODE_BOOT_DURATION.path, span_forms(boot)));
    for kind in RemediatorKind::ALL {
        let timeout = kind.timeout();
        let on: Vec<Option<Provider>> = match kind.providers() {
            [] => vec![None],
            list => list.iter().copied().map(Some).collect(),
        };
        for p in on {
            out.push((timeout.path, span_forms(timeout.default_ms(p))));
        }
        if let Some(breaker) = kind.breaker() {
            let p = breaker
                .default_on(None)
                .and_then(Value::int)
                .expect("a breaker's default");
            out.push((breaker.path, percent_forms(p)));
        }
    }
    out
}

/// Every line of the Rust files under `dir` (tests and comments aside) that writes one of
/// `forms`, as `path:line: code  (writes form)` with the path below `dir`, but those `skip`
/// accepts (by the path below `dir`, `/`-separated, and the form).
pub fn written_in(dir: &Path, forms: &[String], skip: impl Fn(&str, &str) -> bool) -> Vec<String> {
    let mut files = Vec::new();
    walk(dir, &mut files);
    files.sort();
    let mut out = Vec::new();
    for path in files {
        let rel = path
            .strip_prefix(dir)
            .expect("below the folder")
            .to_string_lossy()
            .replace('\\', "/");
        let code = code_of(&std::fs::read_to_string(&path).expect("readable"));
        let lines: Vec<&str> = code.lines().collect();
        for form in forms {
            for n in lines_with(&code, form).into_iter().filter(|_| !skip(&rel, form)) {
                out.push(format!("{rel}:{n}: {}  (writes {form})", lines[n - 1].trim()));
            }
        }
    }
    out
}

fn walk(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("the folder exists") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            walk(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The checker finds a form as a whole: each including test calls it from a `#[test]`.
pub fn check_the_checker() {
    assert_eq!(
        lines_with("a = 10 * MINUTE_MS;\nb = 10 * MINUTE;", "10 * MINUTE"),
        vec![2]
    );
    assert_eq!(lines_with("x(1300_000)\ny(300_000)", "300_000"), vec![2]);
    assert!(span_forms(90 * SECOND).contains(&"90 * SECOND".to_string()));
    assert!(span_forms(30 * MINUTE).contains(&"1_800_000".to_string()));
    assert!(span_forms(5 * MINUTE).contains(&"\"5m0s\"".to_string()));
}

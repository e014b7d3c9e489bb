//! The cloud and remediator settings table (`kubelife_engine::settings`) is the one place their
//! defaults, ranges and rules are written: docs/scenario-format.md's `cloud` and `remediation`
//! tables say what it declares, and the engine's code writes the boot default, no remediator's
//! default timeout and no breaker's default anywhere else.

use crate::layering;
use kubelife_engine::flags::{self, Value};
use kubelife_engine::format_go_duration;
use kubelife_engine::scenario::cloud::Provider;
use kubelife_engine::settings::{self, Applies, DefaultValue, RemediatorKind, Rule, Setting, Unit};
use kubelife_engine::time::{MINUTE, SECOND};
use std::path::Path;

fn root() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
}

/// A span as the document writes it: `` `1m30s` ``.
fn go(ms: i64) -> String {
    format!("`{}`", format_go_duration(ms))
}

/// A value of the setting as the document writes it.
fn value(s: &Setting, v: Value) -> String {
    match (s.unit, v) {
        (Unit::Duration, Value::Duration(ms)) => go(ms),
        (Unit::Count, v) => v.to_string(),
        // A percentage the scenario writes as a number (EKS's `maxUnhealthyPercentage`).
        (Unit::Percent, v) if s.rule != Rule::NodeCount => v.to_string(),
        (Unit::Minor, Value::Int(m)) => format!("`\"1.{m}\"`"),
        (_, v) => format!("`{}`", s.text(v)),
    }
}

/// Where a setting applies: `any`, or the providers.
fn providers(list: &[Provider]) -> String {
    match list.len() {
        0 | 3 => "any".to_string(),
        _ => list.iter().map(|p| p.name()).collect::<Vec<_>>().join(", "),
    }
}

/// The default cell.
fn default(s: &Setting) -> String {
    match s.default {
        DefaultValue::Is(v) => value(s, v),
        DefaultValue::ByProvider(list) => list
            .iter()
            .map(|(p, v)| format!("{} on {}", value(s, *v), p.name()))
            .collect::<Vec<_>>()
            .join(", "),
        DefaultValue::Follows(other) if matches!(other.applies, Applies::Cloud { .. }) => {
            format!("`{}`", other.path)
        }
        DefaultValue::Follows(other) => default(other),
        DefaultValue::Computed => "computed".to_string(),
    }
}

/// The cell of what validation accepts.
fn accepted(s: &Setting) -> String {
    match (s.rule, s.unit) {
        (Rule::Flag(flags::Rule::Positive), _) => "over `0s`, up to `24h0m0s`".to_string(),
        (Rule::Flag(flags::Rule::UpTo(max)), _) => format!("`0s` to {}", go(max)),
        (Rule::Flag(flags::Rule::Whole(lo, hi)), _) => format!("{lo} to {hi}"),
        (Rule::Window { min, max, .. }, _) => format!("{} to {}", go(min), go(max)),
        (Rule::NodeCount, _) => "a count of nodes, or `0%` to `100%`".to_string(),
        (Rule::OneOf, Unit::Choice(names)) => names.iter().map(|n| format!("`{n}`")).collect::<Vec<_>>().join(", "),
        (Rule::ClusterApiMinor, _) => "`\"1.0\"` to `\"1.99\"`".to_string(),
        (Rule::Any, Unit::Switch) => "`true` or `false`".to_string(),
        (rule, unit) => panic!("{}: the document has no words for {rule:?} of {unit:?}", s.path),
    }
}

/// The field as its section writes it: the path after `cloud.` or `remediation[Kind].`.
fn field(s: &Setting) -> String {
    let tail = s
        .path
        .split_once("].")
        .map_or_else(|| s.path.strip_prefix("cloud.").unwrap_or(s.path), |(_, t)| t);
    format!("`{tail}`")
}

/// The row the document gives a setting (the `cloud` table's last cell, the meaning, aside).
fn row(s: &Setting) -> Vec<String> {
    let link = format!("`{}=`", s.link);
    match s.applies {
        Applies::Cloud { providers: p, .. } => vec![field(s), default(s), accepted(s), providers(p), link],
        Applies::Remediator(kind) => vec![
            format!("`{}`", kind.name()),
            providers(kind.providers()),
            field(s),
            default(s),
            accepted(s),
            link,
        ],
    }
}

/// The rows of the table between `<!-- the settings table: NAME -->` and `<!-- end -->`, each as
/// its first `cells` cells, without the header and separator rows.
fn rows(doc: &str, name: &str, cells: usize) -> Vec<Vec<String>> {
    let open = format!("<!-- the settings table: {name} -->");
    let start = doc
        .find(&open)
        .unwrap_or_else(|| panic!("docs/scenario-format.md has no `{open}` … `<!-- end -->` block"));
    let block = &doc[start + open.len()..];
    let block = &block[..block.find("<!-- end -->").expect("the block ends with <!-- end -->")];
    block
        .lines()
        .map(str::trim)
        .filter(|l| l.starts_with('|'))
        .skip(2)
        .map(|l| {
            l.trim_matches('|')
                .split(" | ")
                .take(cells)
                .map(|c| c.trim().to_string())
                .collect()
        })
        .collect()
}

/// Checks one of the document's tables against the settings it should list, in order.
fn check(name: &str, cells: usize, listed: impl Iterator<Item = &'static Setting>) {
    let doc = std::fs::read_to_string(root().join("docs/scenario-format.md")).expect("docs/scenario-format.md");
    let found = rows(&doc, name, cells);
    let want: Vec<Vec<String>> = listed.map(row).collect();
    let shown = |r: &Vec<String>| format!("| {} |", r.join(" | "));
    let wrong: Vec<String> = want
        .iter()
        .enumerate()
        .filter(|(i, w)| found.get(*i) != Some(w))
        .map(|(i, w)| match found.get(i) {
            Some(f) => format!(
                "row {}: the document has\n    {}\n  the table says\n    {}",
                i + 1,
                shown(f),
                shown(w)
            ),
            None => format!("row {} is missing:\n    {}", i + 1, shown(w)),
        })
        .collect();
    assert!(
        wrong.is_empty() && found.len() == want.len(),
        "docs/scenario-format.md's {name} table differs from kubelife_engine::settings ({} rows, {} expected):\n  {}",
        found.len(),
        want.len(),
        wrong.join("\n  ")
    );
}

#[test]
fn the_documents_cloud_table_is_the_settings_table() {
    let cloud = settings::ALL
        .iter()
        .filter(|s| matches!(s.applies, Applies::Cloud { .. }));
    check("cloud", 5, cloud);
}

#[test]
fn the_documents_remediation_table_is_the_settings_table() {
    let remediators = RemediatorKind::ALL.into_iter().flat_map(RemediatorKind::settings);
    check("remediation", 6, remediators);
}

/// A source file's code: comments blanked, its `#[cfg(test)] mod tests` left out.
fn code_of(text: &str) -> String {
    let text = text.split("\n#[cfg(test)]\nmod tests").next().unwrap_or(text);
    text.lines()
        .map(|l| match l.find("//") {
            Some(i) if l[..i].matches('"').count() % 2 == 0 => &l[..i],
            _ => l,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// A whole number with `_` between thousands, as rustfmt and clippy write it (`1_800_000`).
fn grouped(n: i64) -> String {
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
fn lines_with(code: &str, form: &str) -> Vec<usize> {
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

/// Other quantities the engine writes with a default's value: the file, the form, and what it
/// is there. A new file writing one of the values is a second copy of a default until it is
/// listed here with what else it means.
const OTHER_QUANTITIES: &[(&str, &str, &str)] = &[
    (
        "scenario/config.rs",
        "5 * MINUTE",
        "the kubelet's nodeStatusReportFrequency (1.17+) and --pod-eviction-timeout: flags' defaults",
    ),
    (
        "calibration.rs",
        "5 * MINUTE",
        "the report period the calibration measures against",
    ),
    (
        "control_plane/remediation/karpenter.rs",
        "5 * MINUTE",
        "Karpenter's requeue of a blocked repair",
    ),
    (
        "control_plane/remediation/mhc.rs",
        "300 * SECOND",
        "Cluster API's SkipWaitForDeleteTimeoutSeconds before 1.8",
    ),
    (
        "tune/reference.rs",
        "300 * SECOND",
        "a published profile's --pod-eviction-timeout",
    ),
    (
        "tune/space.rs",
        "300 * SECOND",
        "a --pod-eviction-timeout the search tries",
    ),
];

/// The driver's own copy of the boot for a run without a cloud (`sim/remediation.rs`'s
/// `DEFAULT_NODE_BOOT`), which reads `settings::NODE_BOOT_DURATION.default_ms(None)` once the
/// driver's machines take over the boot (issue 34); listed so that it is the only copy and cannot
/// move unnoticed.
const DRIVER_COPIES: &[(&str, &str)] = &[("sim/remediation.rs", "90 * SECOND")];

/// Every line of the engine's code (tests and comments aside) that writes one of `forms`, but
/// the settings table's and the lines listed as other quantities or the driver's copy.
fn written_elsewhere(forms: &[String]) -> Vec<String> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    layering::walk(&src, &mut files);
    files.sort();
    let mut out = Vec::new();
    for path in files {
        let rel = path
            .strip_prefix(&src)
            .expect("below src")
            .to_string_lossy()
            .replace('\\', "/");
        if rel == "scenario/settings.rs" {
            continue;
        }
        let code = code_of(&std::fs::read_to_string(&path).expect("readable"));
        let lines: Vec<&str> = code.lines().collect();
        for form in forms {
            for n in lines_with(&code, form) {
                let line = lines[n - 1].trim();
                let listed = OTHER_QUANTITIES
                    .iter()
                    .map(|(f, w, _)| (*f, *w))
                    .chain(DRIVER_COPIES.iter().copied())
                    .any(|(f, w)| f == rel && w == form);
                if !listed {
                    out.push(format!("src/{rel}:{n}: {line}  (writes {form})"));
                }
            }
        }
    }
    out
}

/// The defaults that must be written once: the boot (`cloud.nodeBootDuration`), each
/// remediator's unhealthy timeout (on every provider it runs on) and each breaker.
fn defaults_written_once() -> Vec<(&'static str, Vec<String>)> {
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

#[test]
fn the_boot_the_remediators_timeouts_and_breakers_are_written_once() {
    let mut wrong = Vec::new();
    for (path, forms) in defaults_written_once() {
        for at in written_elsewhere(&forms) {
            wrong.push(format!("{path}'s default: {at}"));
        }
    }
    assert!(
        wrong.is_empty(),
        "a default of the settings table written again; read it from kubelife_engine::settings \
         (or list the line as another quantity):\n  {}",
        wrong.join("\n  ")
    );
}

#[test]
fn the_checker_finds_a_form_as_a_whole() {
    assert_eq!(
        lines_with("a = 10 * MINUTE_MS;\nb = 10 * MINUTE;", "10 * MINUTE"),
        vec![2]
    );
    assert_eq!(lines_with("x(1300_000)\ny(300_000)", "300_000"), vec![2]);
    assert!(span_forms(90 * SECOND).contains(&"90 * SECOND".to_string()));
    assert!(span_forms(30 * MINUTE).contains(&"1_800_000".to_string()));
    assert!(span_forms(5 * MINUTE).contains(&"\"5m0s\"".to_string()));
}

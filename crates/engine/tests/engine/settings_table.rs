//! The cloud and remediator settings table (`kubelife_engine::settings`) is the one place their
//! defaults, ranges and rules are written: docs/scenario-format.md's `cloud` and `remediation`
//! tables say what it declares, and the engine's code writes the boot default, no remediator's
//! default timeout and no breaker's default anywhere else.

use crate::default_forms;
use kubelife_engine::flags::{self, Value};
use kubelife_engine::format_go_duration;
use kubelife_engine::scenario::cloud::Provider;
use kubelife_engine::settings::{self, Applies, DefaultValue, RemediatorKind, Rule, Setting, Unit};
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
        .copied()
        .filter(|s| matches!(s.applies, Applies::Cloud { .. }));
    check("cloud", 5, cloud);
}

#[test]
fn the_documents_remediation_table_is_the_settings_table() {
    let remediators = RemediatorKind::ALL.into_iter().flat_map(RemediatorKind::settings);
    check("remediation", 6, remediators);
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
        "control_plane/remediation/karpenter/mod.rs",
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
    (
        "scenario/libraries.rs",
        "90 * SECOND",
        "Go's http.Transport.IdleConnTimeout",
    ),
    (
        "scenario/libraries.rs",
        "5 * MINUTE",
        "OkHttp's ConnectionPool keep-alive",
    ),
    (
        "scenario/load_balancers.rs",
        "300 * SECOND",
        "an AWS target group's deregistration delay",
    ),
];

/// Every line of the engine's code (tests and comments aside) that writes one of `forms`, but
/// the settings table's and the lines listed as other quantities.
fn written_elsewhere(forms: &[String]) -> Vec<String> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let listed = |rel: &str, form: &str| {
        rel == "scenario/settings.rs"
            || OTHER_QUANTITIES
                .iter()
                .map(|(f, w, _)| (*f, *w))
                .any(|(f, w)| f == rel && w == form)
    };
    default_forms::written_in(&src, forms, listed)
        .into_iter()
        .map(|at| format!("src/{at}"))
        .collect()
}

#[test]
fn the_boot_the_remediators_timeouts_and_breakers_are_written_once() {
    let mut wrong = Vec::new();
    for (path, forms) in default_forms::defaults_written_once() {
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
    default_forms::check_the_checker();
}

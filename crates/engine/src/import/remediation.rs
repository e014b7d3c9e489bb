//! Automatic remediators from their own objects: a Cluster API `MachineHealthCheck`
//! (`cluster.x-k8s.io` v1beta1 and older, and v1beta2, served from Cluster API 1.11), a medik8s
//! `NodeHealthCheck` (`remediation.medik8s.io/v1alpha1`) whose remediation template is Self Node
//! Remediation's, and the `SelfNodeRemediationTemplate` and `SelfNodeRemediationConfig`
//! (`self-node-remediation.medik8s.io/v1alpha1`) that give its strategy and its assumed-reboot
//! time. Each health check gives one `remediation` entry (a later one of the same kind replaces
//! an earlier one); every field the model does not use is reported by name.
//!
//! Field names: Cluster API `api/core/v1beta2/machinehealthcheck_types.go` (`checks.
//! unhealthyNodeConditions[].timeoutSeconds`, `checks.nodeStartupTimeoutSeconds`,
//! `remediation.triggerIf.unhealthyLessThanOrEqualTo`) and `api/v1beta1` (`unhealthyConditions[]
//! .timeout`, `nodeStartupTimeout`, `maxUnhealthy`); medik8s node-healthcheck-operator
//! `api/v1alpha1/nodehealthcheck_types.go` and self-node-remediation `api/v1alpha1`.

use super::collect::Collector;
use super::report::EntryKind;
use super::shown::{item, Shown, SENTENCE_CHARS};
use crate::cause::Cause;
use crate::scenario::settings;
use crate::scenario::{
    ConditionSection, GoDuration, IntOrString, MachineHealthCheckSection, RemediationSection,
    SelfNodeRemediationSection,
};
use crate::time::{parse_go_duration, SECOND};
use serde_json::{Map, Value as Json};

/// The most conditions of one list read (Cluster API's `MaxItems=100`).
const MAX_CONDITIONS: usize = 100;

/// The most seconds read (about 68 years, `int32`'s largest, as the APIs' `*int32` fields).
const MAX_SECONDS: i64 = i32::MAX as i64;

/// Self Node Remediation's template kind, as `remediationTemplate.kind` names it.
const SNR_TEMPLATE: &str = "SelfNodeRemediationTemplate";

/// How a list of conditions gives its timeout: a Go duration (`timeout`, `duration`) or seconds
/// (`timeoutSeconds`).
#[derive(Clone, Copy)]
enum Timeout {
    Duration(&'static str),
    Seconds(&'static str),
}

/// An object as the report names it: `MachineHealthCheck workers`, the name escaped and cut for
/// a message's text, and as it is (`raw`) for a setting's name, which the report escapes itself.
fn described(doc: &Json, kind: &str) -> (String, String) {
    match doc.pointer("/metadata/name").and_then(Json::as_str) {
        Some(name) => (format!("{kind} {}", item(name)), format!("{kind} {name} ")),
        None => (kind.to_string(), format!("{kind} ")),
    }
}

/// A Go duration (`metav1.Duration`).
fn duration(c: &mut Collector, file: &str, setting: &str, v: &Json) -> Option<GoDuration> {
    let text = c.string(file, setting, Some(v))?;
    match parse_go_duration(text) {
        Ok(ms) => Some(GoDuration(ms)),
        Err(e) => {
            c.malformed(file, setting, text, e.reason());
            None
        }
    }
}

/// Whole seconds (`*int32`), as a duration.
fn seconds(c: &mut Collector, file: &str, setting: &str, v: &Json) -> Option<GoDuration> {
    match v {
        Json::Null => None,
        Json::Number(n) => match n.as_i64().filter(|s| (0..=MAX_SECONDS).contains(s)) {
            Some(s) => Some(GoDuration(s * SECOND)),
            None => {
                c.malformed(file, setting, &n.to_string(), Cause::new("import.value.not_seconds"));
                None
            }
        },
        other => {
            c.wrong_type(file, setting, other, "import.type.number");
            None
        }
    }
}

/// A count or a percentage (`intstr.IntOrString`).
fn int_or_string(c: &mut Collector, file: &str, setting: &str, v: &Json) -> Option<IntOrString> {
    match v {
        Json::Null => None,
        Json::String(s) => Some(IntOrString::String(s.clone())),
        Json::Number(n) => match n.as_i64() {
            Some(i) => Some(IntOrString::Int(i)),
            None => {
                c.malformed(file, setting, &n.to_string(), Cause::new("import.value.not_whole"));
                None
            }
        },
        other => {
            c.wrong_type(file, setting, other, "import.type.text");
            None
        }
    }
}

/// A list of `{type, status, <timeout>}` at `setting` (`<object> <path>`): a condition missing
/// one of them, or with a value that cannot be read, is left out and reported; other keys are
/// listed in `ignored`, by their path.
fn conditions(
    c: &mut Collector,
    file: &str,
    (setting, path): (&str, &str),
    v: &Json,
    timeout: Timeout,
    ignored: &mut Vec<String>,
) -> Option<Vec<ConditionSection>> {
    let items = c.list(file, setting, Some(v))?;
    let mut out = Vec::new();
    for (i, entry) in items.iter().take(MAX_CONDITIONS).enumerate() {
        let at = format!("{setting}[{i}]");
        let Some(map) = c.map(file, &at, Some(entry)) else {
            continue;
        };
        if let Some(condition) = condition(c, file, &at, map, timeout) {
            out.push(condition);
        }
        let known = |k: &str| match timeout {
            Timeout::Duration(t) | Timeout::Seconds(t) => k == "type" || k == "status" || k == t,
        };
        for k in map.keys().filter(|k| !known(k)) {
            let name = format!("{path}[].{k}");
            if !ignored.contains(&name) {
                ignored.push(name);
            }
        }
    }
    if items.len() > MAX_CONDITIONS {
        let cause = Cause::new("import.remediation.conditions_truncated")
            .text("file", file)
            .shown("setting", setting)
            .text("count", items.len())
            .text("read", MAX_CONDITIONS);
        c.push(EntryKind::Ignored, cause);
    }
    Some(out)
}

fn condition(
    c: &mut Collector,
    file: &str,
    at: &str,
    map: &Map<String, Json>,
    timeout: Timeout,
) -> Option<ConditionSection> {
    let text = |c: &mut Collector, key: &str| {
        let setting = format!("{at}.{key}");
        let value = c.string(file, &setting, map.get(key)).map(str::to_string);
        if value.is_none() && map.get(key).is_none_or(Json::is_null) {
            c.malformed(file, &setting, "", Cause::new("import.value.missing"));
        }
        value
    };
    let kind = text(c, "type");
    let status = text(c, "status");
    let (key, read) = match timeout {
        Timeout::Duration(k) => (
            k,
            duration as fn(&mut Collector, &str, &str, &Json) -> Option<GoDuration>,
        ),
        Timeout::Seconds(k) => (
            k,
            seconds as fn(&mut Collector, &str, &str, &Json) -> Option<GoDuration>,
        ),
    };
    let setting = format!("{at}.{key}");
    let timeout = match map.get(key) {
        Some(v) if !v.is_null() => read(c, file, &setting, v),
        _ => {
            c.malformed(file, &setting, "", Cause::new("import.value.missing"));
            None
        }
    };
    Some(ConditionSection {
        kind: kind?,
        status: status?,
        timeout: timeout?,
    })
}

/// The keys of a map under `prefix` that nothing reads.
fn rest(map: &Map<String, Json>, prefix: &str, read: &[&str], ignored: &mut Vec<String>) {
    ignored.extend(
        map.keys()
            .filter(|k| !read.contains(&k.as_str()))
            .map(|k| format!("{prefix}.{k}")),
    );
}

/// A Cluster API `MachineHealthCheck`: v1beta2's `spec.checks` and `spec.remediation.triggerIf`,
/// or the v1beta1 (and v1alpha3/v1alpha4) fields.
pub fn machine_health_check(c: &mut Collector, file: &str, doc: &Json, api_version: &str) {
    c.recognise();
    let (what, raw) = described(doc, "MachineHealthCheck");
    let at = |path: &str| format!("{raw}{path}");
    let v1beta2 = api_version == "cluster.x-k8s.io/v1beta2";
    let mut m = MachineHealthCheckSection::default();
    let mut ignored = Vec::new();
    let spec = c.map(file, &at("spec"), doc.get("spec"));
    for (key, value) in spec.into_iter().flatten() {
        match (v1beta2, key.as_str()) {
            (false, "unhealthyConditions") => {
                let timeout = Timeout::Duration("timeout");
                m.unhealthy_conditions = conditions(
                    c,
                    file,
                    (&at("spec.unhealthyConditions"), "spec.unhealthyConditions"),
                    value,
                    timeout,
                    &mut ignored,
                );
            }
            (false, "nodeStartupTimeout") => {
                m.node_startup_timeout = duration(c, file, &at("spec.nodeStartupTimeout"), value)
            }
            (false, "maxUnhealthy") => m.max_unhealthy = int_or_string(c, file, &at("spec.maxUnhealthy"), value),
            (true, "checks") => {
                let Some(checks) = c.map(file, &at("spec.checks"), Some(value)) else {
                    continue;
                };
                for (k, v) in checks {
                    match k.as_str() {
                        "unhealthyNodeConditions" => {
                            let path = "spec.checks.unhealthyNodeConditions";
                            let setting = (at(path), path);
                            let timeout = Timeout::Seconds("timeoutSeconds");
                            m.unhealthy_conditions =
                                conditions(c, file, (&setting.0, setting.1), v, timeout, &mut ignored);
                        }
                        "nodeStartupTimeoutSeconds" => {
                            m.node_startup_timeout = seconds(c, file, &at("spec.checks.nodeStartupTimeoutSeconds"), v)
                        }
                        _ => ignored.push(format!("spec.checks.{k}")),
                    }
                }
            }
            (true, "remediation") => {
                let Some(remediation) = c.map(file, &at("spec.remediation"), Some(value)) else {
                    continue;
                };
                rest(remediation, "spec.remediation", &["triggerIf"], &mut ignored);
                let trigger = c.map(file, &at("spec.remediation.triggerIf"), remediation.get("triggerIf"));
                if let Some(trigger) = trigger {
                    rest(
                        trigger,
                        "spec.remediation.triggerIf",
                        &["unhealthyLessThanOrEqualTo"],
                        &mut ignored,
                    );
                    if let Some(v) = trigger.get("unhealthyLessThanOrEqualTo") {
                        let setting = &at("spec.remediation.triggerIf.unhealthyLessThanOrEqualTo");
                        m.max_unhealthy = int_or_string(c, file, setting, v);
                    }
                }
            }
            _ => ignored.push(format!("spec.{key}")),
        }
    }
    if m.unhealthy_conditions.is_none() {
        // No node condition is checked (Cluster API has no default for the list).
        m.unhealthy_conditions = Some(Vec::new());
        let cause = Cause::new("import.mhc.no_conditions")
            .text("file", file)
            .text("what", &what);
        c.push(EntryKind::Note, cause);
    }
    c.ignore_names("import.ignored.fields", file, &what, &ignored);
    add(c, RemediationSection::MachineHealthCheck(m), file, &what, api_version);
    if !v1beta2 {
        let cause = Cause::new("import.mhc.version")
            .text("file", file)
            .text("what", &what)
            .shown("api", api_version);
        c.push(EntryKind::Note, cause);
    }
}

/// The kind of a `remediationTemplate` (an object reference).
fn template_kind(c: &mut Collector, file: &str, setting: &str, v: &Json) -> Option<String> {
    let map = c.map(file, setting, Some(v))?;
    c.string(file, &format!("{setting}.kind"), map.get("kind"))
        .map(str::to_string)
}

/// A medik8s `NodeHealthCheck`: with Self Node Remediation's template it gives a
/// `SelfNodeRemediation` entry; with another remediator's, nothing (reported).
pub fn node_health_check(c: &mut Collector, file: &str, doc: &Json, api_version: &str) {
    c.recognise();
    let (what, raw) = described(doc, "NodeHealthCheck");
    let at = |path: &str| format!("{raw}{path}");
    let mut snr = SelfNodeRemediationSection::default();
    let mut ignored = Vec::new();
    let mut template = None;
    let mut max_unhealthy = None;
    let mut escalating = Vec::new();
    let spec = c.map(file, &at("spec"), doc.get("spec"));
    for (key, value) in spec.into_iter().flatten() {
        match key.as_str() {
            "unhealthyConditions" => {
                let timeout = Timeout::Duration("duration");
                snr.unhealthy_conditions = conditions(
                    c,
                    file,
                    (&at("spec.unhealthyConditions"), "spec.unhealthyConditions"),
                    value,
                    timeout,
                    &mut ignored,
                );
            }
            "minHealthy" => snr.min_healthy = int_or_string(c, file, &at("spec.minHealthy"), value),
            "maxUnhealthy" => max_unhealthy = int_or_string(c, file, &at("spec.maxUnhealthy"), value),
            "remediationTemplate" => template = template_kind(c, file, &at("spec.remediationTemplate"), value),
            "escalatingRemediations" => {
                let items = c
                    .list(file, &at("spec.escalatingRemediations"), Some(value))
                    .unwrap_or_default();
                for (i, step) in items.iter().take(MAX_CONDITIONS).enumerate() {
                    let setting = at(&format!("spec.escalatingRemediations[{i}].remediationTemplate"));
                    if let Some(kind) = template_kind(
                        c,
                        file,
                        &setting,
                        step.get("remediationTemplate").unwrap_or(&Json::Null),
                    ) {
                        escalating.push(kind);
                    }
                }
            }
            _ => ignored.push(format!("spec.{key}")),
        }
    }
    // The first step of an escalation stands for the template when there is none.
    if template.is_none() && !escalating.is_empty() {
        template = Some(escalating.remove(0));
    }
    if !escalating.is_empty() {
        let kinds: Vec<String> = escalating.iter().map(|k| item(k)).collect();
        let cause = Cause::new("import.nhc.escalating")
            .text("file", file)
            .text("what", &what)
            .text("kinds", kinds.join(", "));
        c.push(EntryKind::Ignored, cause);
    }
    c.ignore_names("import.ignored.fields", file, &what, &ignored);
    match template.as_deref() {
        Some(SNR_TEMPLATE) => {
            if let Some(max) = max_unhealthy {
                max_unhealthy_as_min_healthy(c, file, &what, max, &mut snr);
            }
            add(
                c,
                RemediationSection::SelfNodeRemediation(snr),
                file,
                &what,
                api_version,
            );
        }
        Some(other) => {
            let cause = Cause::new("import.nhc.other_template")
                .text("file", file)
                .text("what", &what)
                .shown("kind", other);
            c.push(EntryKind::Ignored, cause);
        }
        None => {
            let cause = Cause::new("import.nhc.no_template")
                .text("file", file)
                .text("what", &what);
            c.push(EntryKind::Ignored, cause);
        }
    }
}

/// NodeHealthCheck's `maxUnhealthy` (the alternative to `minHealthy`): a percentage `p` is
/// `minHealthy` `100 − p` percent; a count depends on how many nodes the check selects, and is
/// reported.
fn max_unhealthy_as_min_healthy(
    c: &mut Collector,
    file: &str,
    what: &str,
    max: IntOrString,
    snr: &mut SelfNodeRemediationSection,
) {
    let shown = match &max {
        IntOrString::Int(i) => i.to_string(),
        IntOrString::String(s) => s.clone(),
    };
    let percent = match &max {
        IntOrString::String(s) => settings::percent(s),
        IntOrString::Int(_) => None,
    };
    let cause = if snr.min_healthy.is_some() {
        (EntryKind::Ignored, Cause::new("import.nhc.both"))
    } else if let Some(p) = percent {
        let min = format!("{}%", 100 - p);
        snr.min_healthy = Some(IntOrString::String(min.clone()));
        (EntryKind::Note, Cause::new("import.nhc.max_unhealthy").text("min", min))
    } else {
        (EntryKind::Ignored, Cause::new("import.nhc.max_unhealthy_count"))
    };
    let (kind, cause) = cause;
    let cause = cause.text("file", file).text("what", what).shown("value", &shown);
    c.push(kind, cause);
}

/// A `SelfNodeRemediationTemplate`: `spec.template.spec.remediationStrategy`.
pub fn self_node_remediation_template(c: &mut Collector, file: &str, doc: &Json) {
    c.recognise();
    let (what, raw) = described(doc, SNR_TEMPLATE);
    let at = |path: &str| format!("{raw}{path}");
    let setting = "spec.template.spec";
    let inner = c.map(file, &at(setting), doc.pointer("/spec/template/spec"));
    let mut ignored = Vec::new();
    if let Some(inner) = inner {
        rest(inner, setting, &["remediationStrategy"], &mut ignored);
        let strategy = c.string(
            file,
            &at("spec.template.spec.remediationStrategy"),
            inner.get("remediationStrategy"),
        );
        if let Some(strategy) = strategy {
            let cause = Cause::new("import.snr.strategy")
                .text("file", file)
                .text("what", &what)
                .shown("value", strategy);
            c.push(EntryKind::Recognised, cause);
            c.remediation.strategy = Some((strategy.to_string(), file.to_string(), what.clone()));
        }
    }
    c.ignore_names("import.ignored.fields", file, &what, &ignored);
}

/// A `SelfNodeRemediationConfig`: `spec.safeTimeToAssumeNodeRebootedSeconds`; its other fields
/// (the watchdog, the API and peer timeouts) are reported by name.
pub fn self_node_remediation_config(c: &mut Collector, file: &str, doc: &Json) {
    c.recognise();
    let (what, raw) = described(doc, "SelfNodeRemediationConfig");
    let at = |path: &str| format!("{raw}{path}");
    let spec = c.map(file, &at("spec"), doc.get("spec"));
    let mut ignored = Vec::new();
    if let Some(spec) = spec {
        rest(spec, "spec", &["safeTimeToAssumeNodeRebootedSeconds"], &mut ignored);
        let setting = &at("spec.safeTimeToAssumeNodeRebootedSeconds");
        // 0 is the field's "unset" (the computed minimum).
        let safe = spec
            .get("safeTimeToAssumeNodeRebootedSeconds")
            .and_then(|v| seconds(c, file, setting, v))
            .filter(|d| d.0 > 0);
        if let Some(safe) = safe {
            let cause = Cause::new("import.snr.safe_time")
                .text("file", file)
                .text("what", &what)
                .text("value", crate::time::format_go_duration(safe.0));
            c.push(EntryKind::Recognised, cause);
            c.remediation.safe_time = Some((safe, file.to_string(), what.clone()));
        }
    }
    c.ignore_names("import.ignored.fields", file, &what, &ignored);
}

/// Adds an entry, with a report line naming the object, its API version and the entry as the
/// scenario writes it.
fn add(c: &mut Collector, entry: RemediationSection, file: &str, what: &str, api_version: &str) {
    let json = serde_json::to_string(&entry).unwrap_or_default();
    let cause = Cause::new("import.remediation")
        .text("file", file)
        .text("what", what)
        .shown("api", api_version)
        .shown_up_to("entry", &json, SENTENCE_CHARS);
    c.push(EntryKind::Recognised, cause);
    c.add_remediation(entry, file);
}

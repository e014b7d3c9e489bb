//! Dropping what a refused path names in one remediator of the scenario, in place. The fields are
//! found through the settings table (`scenario::settings`), which names each remediator's fields
//! once, rather than by writing the entry as JSON and reading it back, so that the files worker
//! carries no reader of the remediation sections (about 17 KB of wasm).

use crate::scenario::settings::{Applies, Setting, ALL};
use crate::scenario::{RemediationSection, Scenario};
use crate::time::{format_go_duration, parse_go_duration};

/// Drops what `tail` (the path after `remediation[i]`) names in `entry`: one condition of its
/// list (`.unhealthyConditions[j]...`) or one field. False when the entry itself should go
/// instead: `.kind` (twice, or on the wrong cloud), a field it does not have or has not set, or
/// an entry whose JSON would not read back (a duration past the Go parser's bound).
pub(super) fn drop_in(entry: &mut RemediationSection, tail: &str) -> bool {
    let field = tail.strip_prefix('.').unwrap_or("");
    let (name, rest) = field.split_once('[').map_or((field, None), |(n, r)| (n, Some(r)));
    let name = name.split('.').next().unwrap_or("");
    let Some(setting) = settings_of(entry).find(|s| s.field() == name) else {
        return false;
    };
    // The table finds a remediator's fields in a scenario's entry of its kind: this one alone.
    let mut one = one_of(entry);
    let changed = match rest {
        Some(rest) => {
            let j = rest.split_once(']').and_then(|(j, _)| j.parse::<usize>().ok());
            match (setting.conditions_mut(&mut one), j) {
                (Some(list), Some(j)) if j < list.len() => {
                    list.remove(j);
                    true
                }
                _ => false,
            }
        }
        None => setting.clear(&mut one),
    };
    match one.remediation.first().filter(|_| changed && reads_back(&one)) {
        Some(changed) => {
            *entry = changed.clone();
            true
        }
        None => false,
    }
}

/// The settings of `entry`'s remediator, in the table's order.
fn settings_of(entry: &RemediationSection) -> impl Iterator<Item = &'static Setting> {
    let kind = entry.remediator_kind();
    ALL.iter()
        .copied()
        .filter(move |s| matches!(s.applies, Applies::Remediator(k) if k == kind))
}

/// A scenario of `entry` alone, as the settings table reads one.
fn one_of(entry: &RemediationSection) -> Scenario {
    Scenario {
        remediation: vec![entry.clone()],
        ..Scenario::default()
    }
}

/// Whether the entry of `one` would read back from its JSON: every duration it writes, written as
/// Go writes it, parses again. A duration from whole seconds can be past the parser's bound; the
/// entry went whole then, when the field was dropped in its JSON, and still does.
fn reads_back(one: &Scenario) -> bool {
    let Some(entry) = one.remediation.first() else {
        return false;
    };
    let mut spans = settings_of(entry).flat_map(|s| match (s.get(one), s.conditions(one)) {
        (_, Some(list)) => list.iter().map(|c| c.timeout.0).collect(),
        (Some(crate::scenario::flags::Value::Duration(ms)), None) => vec![ms],
        _ => Vec::new(),
    });
    spans.all(|ms| parse_go_duration(&format_go_duration(ms)).is_ok())
}
#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::{
        AksSection, ConditionSection, EksSection, GkeSection, GoDuration, IntOrString, KarpenterSection,
        MachineHealthCheckSection, SelfNodeRemediationSection,
    };
    use serde_json::Value as Json;

    /// What the import did before: the entry written as JSON, the path's field or condition
    /// removed there, and the JSON read back; `None` where the entry went.
    fn through_json(entry: &RemediationSection, tail: &str) -> Option<RemediationSection> {
        let mut json = serde_json::to_value(entry).unwrap_or(Json::Null);
        let field = tail.strip_prefix('.').unwrap_or("");
        let (name, rest) = field.split_once('[').map_or((field, None), |(n, r)| (n, Some(r)));
        let name = name.split('.').next().unwrap_or("");
        let changed = match json.as_object_mut() {
            Some(_) if name.is_empty() || name == "kind" => false,
            Some(map) => match rest {
                Some(rest) => {
                    let j = rest.split_once(']').and_then(|(j, _)| j.parse::<usize>().ok());
                    match (map.get_mut(name).and_then(Json::as_array_mut), j) {
                        (Some(list), Some(j)) if j < list.len() => {
                            list.remove(j);
                            true
                        }
                        _ => false,
                    }
                }
                None => map.remove(name).is_some(),
            },
            None => false,
        };
        changed.then(|| serde_json::from_value(json).ok()).flatten()
    }

    fn conditions(n: usize) -> Option<Vec<ConditionSection>> {
        let one = |i: usize| ConditionSection {
            kind: format!("Ready{i}"),
            status: "Unknown".into(),
            timeout: GoDuration(300_000 + i as i64),
        };
        Some((0..n).map(one).collect())
    }

    /// Every remediator with every field set (`d` the durations), and with none.
    fn entries(d: i64) -> Vec<RemediationSection> {
        use RemediationSection as R;
        let g = Some(GoDuration(d));
        vec![
            R::MachineHealthCheck(MachineHealthCheckSection {
                unhealthy_conditions: conditions(3),
                node_startup_timeout: g,
                max_unhealthy: Some(IntOrString::String("40%".into())),
                cluster_api_version: Some("v1beta1".into()),
                replacement_join_duration: g,
            }),
            R::MachineHealthCheck(MachineHealthCheckSection {
                max_unhealthy: Some(IntOrString::Int(3)),
                ..Default::default()
            }),
            R::SelfNodeRemediation(SelfNodeRemediationSection {
                unhealthy_conditions: conditions(2),
                min_healthy: Some(IntOrString::Int(2)),
                strategy: Some("Automatic".into()),
                safe_time_to_assume_node_rebooted: g,
            }),
            R::KarpenterNodeRepair(KarpenterSection {
                node_repair: Some(true),
                unhealthy_conditions: conditions(1),
                interruption_queue: Some(false),
                interruption_message_latency: g,
            }),
            R::GkeAutoRepair(GkeSection {
                not_ready_timeout: g,
                drain_timeout: g,
            }),
            R::EksNodeAutoRepair(EksSection {
                ready_timeout: g,
                max_unhealthy_percentage: Some(20),
            }),
            R::AksAutoRepair(AksSection { detection_delay: g }),
            R::SelfNodeRemediation(SelfNodeRemediationSection::default()),
            R::GkeAutoRepair(GkeSection::default()),
        ]
    }

    /// Dropping in place gives what the JSON gave, for every field of every remediator, every
    /// condition and path that names nothing, and durations the parser reads back and does not.
    #[test]
    fn drops_as_the_json_did() {
        // Every field any remediator writes, as its JSON names it, and paths that name none.
        let mut names: Vec<String> = ["kind", "unknown", ""].map(String::from).to_vec();
        for entry in entries(40_000) {
            if let Json::Object(map) = serde_json::to_value(&entry).expect("writes") {
                names.extend(map.keys().filter(|k| !names.contains(k)).cloned().collect::<Vec<_>>());
            }
        }
        assert!(names.len() > 15, "{names:?}");
        let mut tails = vec![String::new(), ".".into(), "[0]".into()];
        for name in names {
            tails.push(format!(".{name}"));
            tails.push(format!(".{name}.x"));
            for j in ["0", "1", "2", "3", "x", ""] {
                tails.push(format!(".{name}[{j}]"));
                tails.push(format!(".{name}[{j}].timeout"));
            }
        }
        let huge = i64::from(i32::MAX) * 1_000;
        for d in [0, 40_000, -1_500, 1_000_000_000_000, 1_000_000_000_001, huge] {
            for entry in entries(d) {
                for tail in &tails {
                    let mut ours = entry.clone();
                    let kept = drop_in(&mut ours, tail).then_some(ours);
                    assert_eq!(kept, through_json(&entry, tail), "{entry:?} {tail}");
                }
            }
        }
    }
}

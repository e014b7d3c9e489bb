//! Dropping what a refused path names in one remediator of the scenario, in place. The fields are
//! named as the scenario JSON writes them (`unhealthyConditions`, `nodeStartupTimeout`), but the
//! sections are changed directly rather than written as JSON and read back, so that the files
//! worker carries no reader of the remediation sections (about 17 KB of wasm).

use crate::scenario::{ConditionSection, GoDuration, RemediationSection};
use crate::time::{format_go_duration, parse_go_duration};

/// Drops what `tail` (the path after `remediation[i]`) names in `entry`: one condition of its
/// list (`.unhealthyConditions[j]...`) or one field. False when the entry itself should go
/// instead: `.kind` (twice, or on the wrong cloud), a field it does not have or has not set, or
/// an entry whose JSON would not read back (a duration past the Go parser's bound).
pub(super) fn drop_in(entry: &mut RemediationSection, tail: &str) -> bool {
    let field = tail.strip_prefix('.').unwrap_or("");
    let (name, rest) = field.split_once('[').map_or((field, None), |(n, r)| (n, Some(r)));
    let name = name.split('.').next().unwrap_or("");
    let changed = match rest {
        Some(rest) => {
            let j = rest.split_once(']').and_then(|(j, _)| j.parse::<usize>().ok());
            match (conditions(entry, name), j) {
                (Some(list), Some(j)) if j < list.len() => {
                    list.remove(j);
                    true
                }
                _ => false,
            }
        }
        None => clear(entry, name),
    };
    changed && reads_back(entry)
}

/// The list of conditions `name` names in `entry`, when it is set.
fn conditions<'a>(entry: &'a mut RemediationSection, name: &str) -> Option<&'a mut Vec<ConditionSection>> {
    use RemediationSection as R;
    if name != "unhealthyConditions" {
        return None;
    }
    match entry {
        R::MachineHealthCheck(m) => m.unhealthy_conditions.as_mut(),
        R::SelfNodeRemediation(n) => n.unhealthy_conditions.as_mut(),
        R::KarpenterNodeRepair(k) => k.unhealthy_conditions.as_mut(),
        R::GkeAutoRepair(_) | R::EksNodeAutoRepair(_) | R::AksAutoRepair(_) => None,
    }
}

/// Unsets the field of `entry` the JSON names `name`; false when it has no such field set.
fn clear(entry: &mut RemediationSection, name: &str) -> bool {
    use RemediationSection as R;
    fn take<T>(field: &mut Option<T>) -> bool {
        field.take().is_some()
    }
    match (entry, name) {
        (R::MachineHealthCheck(m), "unhealthyConditions") => take(&mut m.unhealthy_conditions),
        (R::MachineHealthCheck(m), "nodeStartupTimeout") => take(&mut m.node_startup_timeout),
        (R::MachineHealthCheck(m), "maxUnhealthy") => take(&mut m.max_unhealthy),
        (R::MachineHealthCheck(m), "clusterApiVersion") => take(&mut m.cluster_api_version),
        (R::MachineHealthCheck(m), "replacementJoinDuration") => take(&mut m.replacement_join_duration),
        (R::SelfNodeRemediation(n), "unhealthyConditions") => take(&mut n.unhealthy_conditions),
        (R::SelfNodeRemediation(n), "minHealthy") => take(&mut n.min_healthy),
        (R::SelfNodeRemediation(n), "strategy") => take(&mut n.strategy),
        (R::SelfNodeRemediation(n), "safeTimeToAssumeNodeRebooted") => take(&mut n.safe_time_to_assume_node_rebooted),
        (R::KarpenterNodeRepair(k), "nodeRepair") => take(&mut k.node_repair),
        (R::KarpenterNodeRepair(k), "unhealthyConditions") => take(&mut k.unhealthy_conditions),
        (R::KarpenterNodeRepair(k), "interruptionQueue") => take(&mut k.interruption_queue),
        (R::KarpenterNodeRepair(k), "interruptionMessageLatency") => take(&mut k.interruption_message_latency),
        (R::GkeAutoRepair(g), "notReadyTimeout") => take(&mut g.not_ready_timeout),
        (R::GkeAutoRepair(g), "drainTimeout") => take(&mut g.drain_timeout),
        (R::EksNodeAutoRepair(e), "readyTimeout") => take(&mut e.ready_timeout),
        (R::EksNodeAutoRepair(e), "maxUnhealthyPercentage") => take(&mut e.max_unhealthy_percentage),
        (R::AksAutoRepair(a), "detectionDelay") => take(&mut a.detection_delay),
        _ => false,
    }
}

/// Whether `entry`'s JSON reads back: every duration, written as Go writes it, parses again. A
/// duration from whole seconds can be past the parser's bound; the entry went whole then, when
/// the field was dropped in its JSON, and still does.
fn reads_back(entry: &RemediationSection) -> bool {
    use RemediationSection as R;
    let (list, durations): (Option<&Vec<ConditionSection>>, Vec<&Option<GoDuration>>) = match entry {
        R::MachineHealthCheck(m) => (
            m.unhealthy_conditions.as_ref(),
            vec![&m.node_startup_timeout, &m.replacement_join_duration],
        ),
        R::SelfNodeRemediation(n) => (
            n.unhealthy_conditions.as_ref(),
            vec![&n.safe_time_to_assume_node_rebooted],
        ),
        R::KarpenterNodeRepair(k) => (k.unhealthy_conditions.as_ref(), vec![&k.interruption_message_latency]),
        R::GkeAutoRepair(g) => (None, vec![&g.not_ready_timeout, &g.drain_timeout]),
        R::EksNodeAutoRepair(e) => (None, vec![&e.ready_timeout]),
        R::AksAutoRepair(a) => (None, vec![&a.detection_delay]),
    };
    let timeouts = list.into_iter().flatten().map(|c| &c.timeout);
    let mut all = durations.into_iter().flatten().chain(timeouts);
    all.all(|d| parse_go_duration(&format_go_duration(d.0)).is_ok())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::{
        AksSection, EksSection, GkeSection, IntOrString, KarpenterSection, MachineHealthCheckSection,
        SelfNodeRemediationSection,
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
        let names = [
            "kind",
            "unhealthyConditions",
            "nodeStartupTimeout",
            "maxUnhealthy",
            "clusterApiVersion",
            "replacementJoinDuration",
            "minHealthy",
            "strategy",
            "safeTimeToAssumeNodeRebooted",
            "nodeRepair",
            "interruptionQueue",
            "interruptionMessageLatency",
            "notReadyTimeout",
            "drainTimeout",
            "readyTimeout",
            "maxUnhealthyPercentage",
            "detectionDelay",
            "unknown",
            "",
        ];
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

//! How a link writes a side's values and reads them back: knobs' numbers, faults, zones' names
//! and zone outages.

use crate::knobs::Unit;
use crate::settings::{Fault, Settings, ZoneOutage, MAX_OP_SECONDS, PAGE_MAX_NODES, ZONES};
use kubelife_engine::scenario::ActionKind;
use kubelife_engine::time::{format_go_duration, parse_go_duration};
use kubelife_engine::Cause;

fn fault_kind(name: &str) -> Option<ActionKind> {
    match name {
        "NodeCrash" => Some(ActionKind::NodeCrash),
        "KubeletStop" => Some(ActionKind::KubeletStop),
        "NetworkPartition" => Some(ActionKind::NetworkPartition),
        "NodeShutdown" => Some(ActionKind::NodeShutdown),
        "Drain" => Some(ActionKind::Drain),
        "InstanceTerminated" => Some(ActionKind::InstanceTerminated),
        "InstanceStopped" => Some(ActionKind::InstanceStopped),
        "SpotInterruption" => Some(ActionKind::SpotInterruption),
        _ => None,
    }
}

/// A knob's value as a link (and a reader) writes it: a Go duration for seconds.
pub fn knob_text(unit: Unit, v: f64) -> String {
    match unit {
        Unit::Seconds => format_go_duration((v * 1000.0).round() as i64),
        Unit::Count => format!("{}", v.round() as i64),
        Unit::Rate | Unit::Fraction => format!("{v}"),
    }
}

pub(super) fn parse_fault(v: &str) -> Result<Fault, Cause> {
    let mut it = v.split(':');
    let (Some(node), Some(kind), Some(at), None) = (it.next(), it.next(), it.next(), it.next()) else {
        return Err(Cause::new("link.why.fault_shape"));
    };
    let node = node
        .strip_prefix("node-")
        .and_then(|n| n.parse::<u32>().ok())
        .filter(|n| (1..=PAGE_MAX_NODES).contains(n))
        .ok_or_else(|| Cause::new("link.why.fault_node").text("max", PAGE_MAX_NODES))?;
    let kind = fault_kind(kind).ok_or_else(|| Cause::new("link.why.fault_kind"))?;
    let at = at
        .parse::<u32>()
        .ok()
        .filter(|a| *a <= 3600)
        .ok_or_else(|| Cause::new("link.why.fault_time"))?;
    Ok(Fault {
        node: node - 1,
        kind,
        at_seconds: at,
        recover_at_seconds: None,
        count: 1,
        notice_seconds: None,
    })
}

/// A zone outage as a link writes it: `zone-b:2m0s`, or `zone-b:2m0s:10m0s` with its end.
pub(super) fn zone_outage_text(z: ZoneOutage, s: &Settings) -> String {
    let at = |s: u32| format_go_duration(i64::from(s) * 1000);
    let zone = s.zone_name(z.zone);
    match z.end_seconds {
        Some(end) => format!("{zone}:{}:{}", at(z.at_seconds), at(end)),
        None => format!("{zone}:{}", at(z.at_seconds)),
    }
}

/// Whether `name` can be a zone's name: a label value (`topology.kubernetes.io/zone`) of 1 to
/// 63 characters, letters, digits, `-`, `_` and `.`, starting and ending with a letter or digit.
fn zone_name_ok(name: &str) -> bool {
    let b = name.as_bytes();
    (1..=63).contains(&b.len())
        && b.iter()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'_' | b'.'))
        && b[0].is_ascii_alphanumeric()
        && b[b.len() - 1].is_ascii_alphanumeric()
}

/// Reads `zone-names=NAME,NAME,…`: up to ten distinct zone names.
pub fn parse_zone_names(v: &str) -> Result<Vec<String>, Cause> {
    let names: Vec<String> = v.split(',').map(str::to_string).collect();
    let distinct = kubelife_engine::order::set(names.iter()).len() == names.len();
    if names.len() > ZONES.len() || !distinct || !names.iter().all(|n| zone_name_ok(n)) {
        return Err(Cause::new("link.why.zone_names").text("max", ZONES.len()));
    }
    Ok(names)
}

/// Reads `ZONE:START` or `ZONE:START:END`, times as Go durations of whole seconds; `ZONE` is
/// one of the zones `s` names (all of its names, whatever the zone count).
pub(super) fn parse_zone_outage(v: &str, s: &Settings) -> Result<ZoneOutage, Cause> {
    let parts: Vec<&str> = v.split(':').collect();
    let (zone, at, end) = match parts[..] {
        [zone, at] => (zone, at, None),
        [zone, at, end] => (zone, at, Some(end)),
        _ => return Err(Cause::new("link.why.outage_shape")),
    };
    let known: Vec<&str> = if s.zone_names.is_empty() {
        ZONES.to_vec()
    } else {
        s.zone_names.iter().map(String::as_str).collect()
    };
    let zone = known
        .iter()
        .position(|z| *z == zone)
        .ok_or_else(|| Cause::new("link.why.outage_zone").text("zones", known.join(", ")))?;
    let seconds = |t: &str| {
        parse_go_duration(t)
            .ok()
            .filter(|ms| (0..=i64::from(MAX_OP_SECONDS) * 1000).contains(ms) && ms % 1000 == 0)
            .map(|ms| (ms / 1000) as u32)
            .ok_or_else(|| Cause::new("link.why.outage_time"))
    };
    let at = seconds(at)?;
    let end = end.map(seconds).transpose()?;
    if end.is_some_and(|e| e < at) {
        return Err(Cause::new("link.why.outage_time"));
    }
    Ok(ZoneOutage {
        zone: zone as u32,
        at_seconds: at,
        end_seconds: end,
    })
}

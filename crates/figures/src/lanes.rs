//! The timeline's lanes: a row per node and per pod, its states over time and the events worth
//! marking, rebuilt from the engine's events. Nothing here simulates.

use kubelife_engine::{EventKind, Millis, Outcome};
use std::collections::BTreeMap;

/// A state a lane is in over an interval.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LaneState {
    /// Node Ready / pod Running and Ready.
    Ok,
    /// Node Unknown or NotReady / pod NotReady.
    Bad,
    /// Pod Terminating.
    Terminating,
    /// Pod Pending (created, not yet Ready).
    Pending,
}

/// A mark on a lane: an event worth pointing at.
#[derive(Debug, Clone, PartialEq)]
pub struct Mark {
    /// When, ms.
    pub at: Millis,
    /// The event kind, as text.
    pub kind: String,
    /// Why.
    pub cause: kubelife_engine::Cause,
}

/// One row of the timeline.
#[derive(Debug, Clone, PartialEq)]
pub struct Lane {
    /// Node or pod name.
    pub name: String,
    /// Whether it is a node (else a pod).
    pub node: bool,
    /// (start, end, state) intervals, ms.
    pub segments: Vec<(Millis, Millis, LaneState)>,
    /// Marked events, in time order.
    pub marks: Vec<Mark>,
}

type LaneKey<'a> = (bool, &'a str);

/// Closes a lane's current interval at `at` and opens one in state `to` (none: the object is gone).
fn switch<'a>(
    states: &mut BTreeMap<LaneKey<'a>, (Millis, LaneState)>,
    lane: &mut Lane,
    key: LaneKey<'a>,
    at: Millis,
    to: Option<LaneState>,
) {
    if let Some((since, state)) = states.remove(&key) {
        if at > since {
            lane.segments.push((since, at, state));
        }
    }
    if let Some(to) = to {
        states.insert(key, (at, to));
    }
}

/// The timeline's lanes: every node, then every pod, at most `max` lanes in all.
pub fn lanes(o: &Outcome, end: Millis, max: usize) -> Vec<Lane> {
    // Pick the lanes first (nodes in order of appearance, then pods), so that a large cluster
    // costs only the lanes shown.
    let mut node_order: Vec<&str> = Vec::new();
    let mut pod_order: Vec<&str> = Vec::new();
    let mut seen: std::collections::BTreeSet<LaneKey> = std::collections::BTreeSet::new();
    for e in &o.events {
        if let Some(p) = e.pod.as_deref() {
            if seen.insert((false, p)) {
                pod_order.push(p);
            }
        } else if let Some(n) = e.node.as_deref() {
            if seen.insert((true, n)) {
                node_order.push(n);
            }
        }
    }
    let chosen: Vec<LaneKey> = node_order
        .iter()
        .map(|n| (true, *n))
        .chain(pod_order.iter().map(|p| (false, *p)))
        .take(max)
        .collect();
    let mut out: BTreeMap<LaneKey, Lane> = chosen
        .iter()
        .map(|&(node, name)| {
            (
                (node, name),
                Lane {
                    name: name.to_string(),
                    node,
                    segments: Vec::new(),
                    marks: Vec::new(),
                },
            )
        })
        .collect();
    let mut states: BTreeMap<LaneKey, (Millis, LaneState)> = BTreeMap::new();
    let mut last_heartbeat: BTreeMap<&str, Millis> = BTreeMap::new();
    for e in &o.events {
        if e.kind.is_heartbeat() {
            if let Some(n) = e.node.as_deref() {
                last_heartbeat.insert(n, e.at_ms);
            }
            continue;
        }
        let key = match (e.pod.as_deref(), e.node.as_deref()) {
            (Some(p), _) => (false, p),
            (None, Some(n)) => (true, n),
            _ => continue,
        };
        let Some(lane) = out.get_mut(&key) else { continue };
        let to = if key.0 {
            match e.kind {
                EventKind::NodeRegistered | EventKind::NodeReady | EventKind::NodeCreated => Some(Some(LaneState::Ok)),
                EventKind::NodeUnknown | EventKind::NodeNotReady => Some(Some(LaneState::Bad)),
                EventKind::NodeDeleted => Some(None),
                _ => None,
            }
        } else {
            match e.kind {
                EventKind::PodCreated => Some(Some(LaneState::Pending)),
                EventKind::PodReady => Some(Some(LaneState::Ok)),
                EventKind::PodNotReady => Some(Some(LaneState::Bad)),
                EventKind::PodDeletionRequested => Some(Some(LaneState::Terminating)),
                EventKind::PodRemoved => Some(None),
                _ => None,
            }
        };
        if let Some(to) = to {
            // Registering an already-Ready node changes nothing.
            if !(key.0 && states.get(&key).is_some_and(|(_, s)| Some(*s) == to)) {
                switch(&mut states, lane, key, e.at_ms, to);
            }
        }
        let marked = matches!(
            e.kind,
            EventKind::FaultStarted
                | EventKind::FaultEnded
                | EventKind::NodeUnknown
                | EventKind::TaintAdded
                | EventKind::TaintRemoved
                | EventKind::PodDeletionRequested
                | EventKind::PodRemoved
                | EventKind::PodEvictionCancelled
        ) || (e.at_ms > 0
            && matches!(
                e.kind,
                EventKind::PodCreated | EventKind::PodReady | EventKind::NodeReady | EventKind::PodNotReady
            ));
        if e.kind == EventKind::NodeUnknown {
            // Heartbeats missed: mark where they stopped (heartbeats are recorded for small clusters).
            if let Some(&hb) = last_heartbeat.get(key.1) {
                let silence = kubelife_engine::time::format_go_duration_tenths(e.at_ms - hb);
                let cause = kubelife_engine::Cause::new("ui.mark.last_heartbeat").text("silence", silence);
                // Keep the lane's marks in time order: the last heartbeat may precede the fault.
                let at = lane.marks.partition_point(|m| m.at <= hb);
                lane.marks.insert(
                    at,
                    Mark {
                        at: hb,
                        kind: "LastHeartbeat".into(),
                        cause,
                    },
                );
            }
        }
        if marked {
            lane.marks.push(Mark {
                at: e.at_ms,
                kind: e.kind.to_string(),
                cause: e.cause.clone(),
            });
        }
    }
    for (key, (since, state)) in states {
        if let Some(l) = out.get_mut(&key) {
            if end > since {
                l.segments.push((since, end, state));
            }
        }
    }
    chosen.iter().filter_map(|k| out.remove(k)).collect()
}

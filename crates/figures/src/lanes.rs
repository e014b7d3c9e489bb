//! The timeline's lanes: a row per node, per Service, per volume that something happened to, and
//! per pod; its states over time and the events worth marking, rebuilt from the engine's events
//! and summary. Nothing here simulates.

use crate::names::Names;
use kubelife_engine::milestones::service_states;
use kubelife_engine::summary::ServiceSummary;
use kubelife_engine::{EventKind, Millis, Outcome};

/// A state a lane is in over an interval.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum LaneState {
    /// Node Ready / pod Running and Ready.
    Ok,
    /// Node Unknown or NotReady / pod NotReady.
    Bad,
    /// Pod Terminating.
    Terminating,
    /// Pod Pending (created, not yet Ready); a volume free (detached, attached nowhere).
    Pending,
    /// A Service whose proxies send to fewer pods than desired, none of them dead.
    Partial,
    /// A volume attached to another node than before.
    Moved,
}

impl LaneState {
    /// Every state, in the legend's order.
    pub const ALL: [LaneState; 6] = [
        LaneState::Ok,
        LaneState::Bad,
        LaneState::Terminating,
        LaneState::Pending,
        LaneState::Partial,
        LaneState::Moved,
    ];
}

/// What a lane shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
pub enum LaneKind {
    /// A node: Ready, Unknown or NotReady.
    Node,
    /// A Service, as its clients see it: fully serving, fewer serving, or sending to a dead pod.
    Service,
    /// A volume: attached, waiting for its detach, free, attached elsewhere.
    Volume,
    /// A pod.
    Pod,
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
    /// Node, Service, volume or pod name.
    pub name: String,
    /// What it shows.
    pub kind: LaneKind,
    /// (start, end, state) intervals, ms.
    pub segments: Vec<(Millis, Millis, LaneState)>,
    /// Marked events, in time order.
    pub marks: Vec<Mark>,
}

type LaneKey<'a> = (bool, &'a str);

/// Closes a lane's current interval at `at` and opens one in state `to` (none: the object is gone).
fn switch(state: &mut Option<(Millis, LaneState)>, lane: &mut Lane, at: Millis, to: Option<LaneState>) {
    if let Some((since, s)) = state.take() {
        if at > since {
            lane.segments.push((since, at, s));
        }
    }
    *state = to.map(|to| (at, to));
}

/// The timeline's lanes: every node, then every Service, every volume something happened to,
/// then every pod, at most `max` lanes in all.
pub fn lanes(o: &Outcome, end: Millis, max: usize) -> Vec<Lane> {
    let mut extra: Vec<Lane> = service_lanes(o, end);
    extra.extend(volume_lanes(o, end));
    let mut out = node_and_pod_lanes(o, end, max.saturating_sub(extra.len().min(max / 2)));
    let nodes = out.iter().take_while(|l| l.kind == LaneKind::Node).count();
    let room = max.saturating_sub(out.len());
    out.splice(nodes..nodes, extra.into_iter().take(room));
    out
}

/// A Service's states over the run as lane states ([`kubelife_engine::milestones::service_states`]).
pub fn service_segments(s: &ServiceSummary, end: Millis) -> Vec<(Millis, Millis, LaneState)> {
    use kubelife_engine::milestones::ServiceState;
    service_states(s, end)
        .into_iter()
        .map(|(a, b, s)| {
            let state = match s {
                ServiceState::Ok => LaneState::Ok,
                ServiceState::Partial => LaneState::Partial,
                ServiceState::Bad => LaneState::Bad,
            };
            (a, b, state)
        })
        .collect()
}

/// One lane per Service, in the states of [`service_segments`], marked where an endpoint went
/// not ready and where the proxies stopped sending to a pod.
fn service_lanes(o: &Outcome, end: Millis) -> Vec<Lane> {
    o.summary
        .services
        .iter()
        .map(|s| {
            let marks = o
                .events
                .iter()
                .filter(|e| e.service.as_deref() == Some(s.service.as_str()))
                .filter(|e| matches!(e.kind, EventKind::TrafficStopped | EventKind::EndpointNotReady))
                .map(|e| Mark {
                    at: e.at_ms,
                    kind: e.kind.to_string(),
                    cause: e.cause.clone(),
                })
                .collect();
            Lane {
                name: format!("svc/{}", s.service),
                kind: LaneKind::Service,
                segments: service_segments(s, end),
                marks,
            }
        })
        .collect()
}

/// One lane per volume something happened to: attached from the start (or from its first
/// attach), striped while a detach is asked for or a pod waits on it, hollow while free, barred
/// once attached elsewhere (attached again to the node it was detached from, it is plain again).
fn volume_lanes(o: &Outcome, end: Millis) -> Vec<Lane> {
    let mut out: Vec<Lane> = Vec::new();
    let mut states: Vec<(Millis, LaneState)> = Vec::new();
    // Per lane: the node of its last detach.
    let mut from: Vec<Option<&str>> = Vec::new();
    for e in &o.events {
        let Some(v) = e.volume.as_deref() else { continue };
        let i = match out.iter().position(|l| l.name == format!("pvc/{v}")) {
            Some(i) => i,
            None => {
                out.push(Lane {
                    name: format!("pvc/{v}"),
                    kind: LaneKind::Volume,
                    segments: Vec::new(),
                    marks: Vec::new(),
                });
                let first = if e.kind == EventKind::VolumeAttached {
                    e.at_ms
                } else {
                    0
                };
                states.push((first, LaneState::Ok));
                from.push(None);
                out.len() - 1
            }
        };
        let (since, state) = states[i];
        let to = match e.kind {
            EventKind::VolumeDetachRequested | EventKind::MultiAttachError if state == LaneState::Ok => {
                Some(LaneState::Terminating)
            }
            EventKind::VolumeDetached => {
                from[i] = e.node.as_deref();
                Some(LaneState::Pending)
            }
            EventKind::VolumeAttached if e.at_ms > since && state != LaneState::Ok && e.node.as_deref() == from[i] => {
                Some(LaneState::Ok)
            }
            EventKind::VolumeAttached if e.at_ms > since && state != LaneState::Ok => Some(LaneState::Moved),
            _ => None,
        };
        if let Some(to) = to.filter(|&to| to != state) {
            if e.at_ms > since {
                out[i].segments.push((since, e.at_ms, state));
            }
            states[i] = (e.at_ms, to);
        }
        let first_error =
            e.kind == EventKind::MultiAttachError && !out[i].marks.iter().any(|m| m.kind == "MultiAttachError");
        if first_error
            || matches!(
                e.kind,
                EventKind::VolumeForceDetached | EventKind::VolumeDetached | EventKind::VolumeAttached
            )
        {
            out[i].marks.push(Mark {
                at: e.at_ms,
                kind: e.kind.to_string(),
                cause: e.cause.clone(),
            });
        }
    }
    for (lane, (since, state)) in out.iter_mut().zip(states) {
        if end > since {
            lane.segments.push((since, end, state));
        }
    }
    out
}

/// The node and pod lanes, at most `max`.
fn node_and_pod_lanes(o: &Outcome, end: Millis, max: usize) -> Vec<Lane> {
    // Pick the lanes first (nodes in order of appearance, then pods), so that a large cluster
    // costs only the lanes shown.
    let mut node_order: Vec<&str> = Vec::new();
    let mut pod_order: Vec<&str> = Vec::new();
    // Names seen: pods, then nodes.
    let mut seen = [Names::default(), Names::default()];
    for e in &o.events {
        // Nodes come before pods: once `max` nodes are named, no pod can be chosen.
        if node_order.len() >= max {
            break;
        }
        if let Some(p) = e.pod.as_deref() {
            if seen[0].index(p).1 {
                pod_order.push(p);
            }
        } else if let Some(n) = e.node.as_deref() {
            if seen[1].index(n).1 {
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
    chosen_lanes(o, end, &chosen)
}

/// Lanes for the named nodes, then the named pods, in the order given: what a zone's or a
/// workload's row of the aggregate figure opens (see [`crate::aggregate::Aggregate::zone_nodes`]
/// and [`crate::aggregate::Aggregate::workload_pods`]). A name nothing happened to gets no lane.
pub fn lanes_of<'a>(o: &'a Outcome, end: Millis, nodes: &[&'a str], pods: &[&'a str]) -> Vec<Lane> {
    let chosen: Vec<LaneKey> = nodes
        .iter()
        .map(|n| (true, *n))
        .chain(pods.iter().map(|p| (false, *p)))
        .collect();
    let mut lanes = chosen_lanes(o, end, &chosen);
    lanes.retain(|l| !l.segments.is_empty() || !l.marks.is_empty());
    lanes
}

/// The node and pod lanes of `chosen`, in its order, from one pass over the events.
fn chosen_lanes<'a>(o: &'a Outcome, end: Millis, chosen: &[LaneKey<'a>]) -> Vec<Lane> {
    // Each chosen lane's index in `out` by its name, among pods (0) or nodes (1): a name chosen
    // twice gets one lane, where it was first chosen.
    let mut ids = [Names::default(), Names::default()];
    let mut lane_ids: [Vec<usize>; 2] = [Vec::new(), Vec::new()];
    let mut out: Vec<Lane> = Vec::new();
    for &(node, name) in chosen {
        if ids[usize::from(node)].index(name).1 {
            lane_ids[usize::from(node)].push(out.len());
            out.push(Lane {
                name: name.to_string(),
                kind: if node { LaneKind::Node } else { LaneKind::Pod },
                segments: Vec::new(),
                marks: Vec::new(),
            });
        }
    }
    // Each lane's open interval and last heartbeat (looked up by its name, pod or node).
    let mut states: Vec<Option<(Millis, LaneState)>> = vec![None; out.len()];
    let mut last_heartbeat: Vec<Option<Millis>> = vec![None; out.len()];
    let lane_of = |(node, name): LaneKey| Some(lane_ids[usize::from(node)][ids[usize::from(node)].get(name)?]);
    for e in &o.events {
        if e.kind.is_heartbeat() {
            if let Some(n) = e.node.as_deref() {
                for key in [(true, n), (false, n)] {
                    if let Some(i) = lane_of(key) {
                        last_heartbeat[i] = Some(e.at_ms);
                    }
                }
            }
            continue;
        }
        let key = match (e.pod.as_deref(), e.node.as_deref()) {
            (Some(p), _) => (false, p),
            (None, Some(n)) => (true, n),
            _ => continue,
        };
        let Some(i) = lane_of(key) else { continue };
        let lane = &mut out[i];
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
            if !(key.0 && states[i].is_some_and(|(_, s)| Some(s) == to)) {
                switch(&mut states[i], lane, e.at_ms, to);
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
                | EventKind::NodeDeleted
                | EventKind::RemediationStarted
                | EventKind::RemediationBlocked
        ) || (e.at_ms > 0
            && matches!(
                e.kind,
                EventKind::PodCreated
                    | EventKind::PodReady
                    | EventKind::NodeReady
                    | EventKind::PodNotReady
                    | EventKind::NodeRegistered
            ));
        if e.kind == EventKind::NodeUnknown {
            // Heartbeats missed: mark where they stopped (heartbeats are recorded for small clusters).
            if let Some(hb) = last_heartbeat[i] {
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
    for (l, state) in out.iter_mut().zip(states) {
        if let Some((since, state)) = state.filter(|(since, _)| end > *since) {
            l.segments.push((since, end, state));
        }
    }
    out
}

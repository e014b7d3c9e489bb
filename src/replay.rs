//! The cluster as the timeline shows it at one instant, rebuilt from the events.
//!
//! Nothing here simulates: it only replays the engine's events up to the playhead.

use kubelife_engine::{EventKind, Millis, Outcome};
use std::collections::BTreeMap;

/// What a node card shows.
#[derive(Debug, Clone, PartialEq)]
pub struct NodeView {
    /// Name.
    pub name: String,
    /// Zone.
    pub zone: String,
    /// `Ready`, `Unknown` or `NotReady`; `Absent` before it joins or after deletion.
    pub ready: &'static str,
    /// Taints, as `key:Effect` without the `node.kubernetes.io/` prefix.
    pub taints: Vec<String>,
    /// Whether a fault is active.
    pub fault: Option<String>,
    /// When the last heartbeat (lease or status) was recorded, ms.
    pub last_heartbeat: Option<Millis>,
}

/// What a pod chip shows.
#[derive(Debug, Clone, PartialEq)]
pub struct PodView {
    /// Name.
    pub name: String,
    /// Node it is bound to.
    pub node: Option<String>,
    /// `Running`, `NotReady`, `Terminating`, `Pending`.
    pub phase: &'static str,
}

/// The cluster at one instant.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ClusterView {
    /// Nodes in order of first appearance.
    pub nodes: Vec<NodeView>,
    /// Pods whose objects exist.
    pub pods: Vec<PodView>,
}

/// Replays `o`'s events up to and including `t`.
pub fn at(o: &Outcome, t: Millis) -> ClusterView {
    let mut nodes: Vec<NodeView> = Vec::new();
    let mut index: BTreeMap<String, usize> = BTreeMap::new();
    let mut pods: Vec<PodView> = Vec::new();
    let mut pod_index: BTreeMap<String, usize> = BTreeMap::new();
    for e in o.events.iter().take_while(|e| e.at_ms <= t) {
        let ni = e.node.as_ref().map(|n| {
            *index.entry(n.clone()).or_insert_with(|| {
                nodes.push(NodeView {
                    name: n.clone(),
                    zone: String::new(),
                    ready: "Absent",
                    taints: Vec::new(),
                    fault: None,
                    last_heartbeat: None,
                });
                nodes.len() - 1
            })
        });
        match (e.kind, ni) {
            (EventKind::NodeRegistered, Some(i)) => {
                // The initial-state cause names the zone as its `zone` part.
                if let Some(kubelife_engine::cause::Arg::Cause(z)) = e.cause.arg("zone") {
                    if let Some(kubelife_engine::cause::Arg::Text(name)) = z.arg("zone") {
                        nodes[i].zone = name.clone();
                    }
                }
                if nodes[i].ready == "Absent" {
                    nodes[i].ready = "Ready";
                }
            }
            (EventKind::NodeCreated | EventKind::NodeReady, Some(i)) => nodes[i].ready = "Ready",
            (EventKind::NodeUnknown, Some(i)) => nodes[i].ready = "Unknown",
            (EventKind::NodeNotReady, Some(i)) => nodes[i].ready = "NotReady",
            (EventKind::NodeDeleted, Some(i)) => nodes[i].ready = "Absent",
            (EventKind::FaultStarted, Some(i)) => {
                nodes[i].fault = match e.cause.arg("action") {
                    Some(kubelife_engine::cause::Arg::Text(a)) => Some(a.clone()),
                    _ => Some(e.kind.to_string()),
                }
            }
            (EventKind::FaultEnded, Some(i)) => nodes[i].fault = None,
            (EventKind::LeaseRenewed | EventKind::NodeStatusPatched, Some(i)) => {
                nodes[i].last_heartbeat = Some(e.at_ms)
            }
            (EventKind::TaintAdded, Some(i)) => {
                if let Some(tn) = &e.taint {
                    nodes[i]
                        .taints
                        .push(tn.trim_start_matches("node.kubernetes.io/").to_string());
                }
            }
            (EventKind::TaintRemoved, Some(i)) => {
                if let Some(tn) = &e.taint {
                    let short = tn.trim_start_matches("node.kubernetes.io/");
                    nodes[i].taints.retain(|x| x != short);
                }
            }
            _ => {}
        }
        if let Some(p) = &e.pod {
            match e.kind {
                EventKind::PodCreated => {
                    pods.push(PodView {
                        name: p.clone(),
                        node: None,
                        phase: "Pending",
                    });
                    pod_index.insert(p.clone(), pods.len() - 1);
                }
                EventKind::PodRemoved => {
                    if let Some(i) = pod_index.remove(p) {
                        pods[i].phase = "Removed";
                    }
                }
                kind => {
                    if let Some(&i) = pod_index.get(p) {
                        let pod = &mut pods[i];
                        match kind {
                            EventKind::PodScheduled => pod.node = e.node.clone(),
                            EventKind::PodReady if pod.phase != "Terminating" => pod.phase = "Running",
                            EventKind::PodNotReady if pod.phase != "Terminating" => pod.phase = "NotReady",
                            EventKind::PodDeletionRequested => pod.phase = "Terminating",
                            _ => {}
                        }
                    }
                }
            }
        }
    }
    pods.retain(|p| p.phase != "Removed");
    ClusterView { nodes, pods }
}

/// The time of the first event strictly after `t`, heartbeats aside, for "jump to the next event".
pub fn next_event_after(o: &Outcome, t: Millis) -> Option<Millis> {
    o.events
        .iter()
        .filter(|e| !e.kind.is_heartbeat())
        .map(|e| e.at_ms)
        .find(|&at| at > t)
}

pub use kubelife_figures::lanes::{lanes, Lane, LaneKind, LaneState, Mark};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings::Settings;

    #[test]
    fn the_crashed_node_goes_unknown_and_its_web_pod_terminates() {
        let (cfg, _) = Settings::default().resolve();
        let o = kubelife_engine::run(&cfg, &kubelife_engine::RunOptions { heartbeats: true });
        let start = at(&o, 0);
        assert_eq!(start.nodes.len(), 3);
        assert!(start.nodes.iter().all(|n| n.ready == "Ready"));
        let late = at(&o, cfg.duration);
        assert_eq!(late.nodes[0].ready, "Unknown");
        assert!(late.nodes[0].taints.iter().any(|t| t == "unreachable:NoExecute"));
        assert!(late
            .pods
            .iter()
            .any(|p| p.phase == "Terminating" && p.node.as_deref() == Some("node-1")));
        assert!(next_event_after(&o, 0).is_some_and(|t| t >= 30_000));
    }

    #[test]
    fn lanes_show_the_node_going_bad_and_the_pod_terminating() {
        let (cfg, _) = Settings::default().resolve();
        let o = kubelife_engine::run(&cfg, &kubelife_engine::RunOptions::default());
        let l = lanes(&o, cfg.duration, 100);
        assert_eq!(l[0].name, "node-1");
        assert!(l[0].kind == LaneKind::Node && l[0].segments.iter().any(|s| s.2 == LaneState::Bad));
        assert!(l[0].marks.iter().any(|m| m.kind == "NodeUnknown"));
        let with_heartbeats = kubelife_engine::run(&cfg, &kubelife_engine::RunOptions { heartbeats: true });
        let beating = lanes(&with_heartbeats, cfg.duration, 100);
        assert!(
            beating.iter().all(|l| l.marks.windows(2).all(|w| w[0].at <= w[1].at)),
            "every lane's marks are in time order, the last heartbeat included"
        );
        let last = beating[0]
            .marks
            .iter()
            .find(|m| m.kind == "LastHeartbeat")
            .map(|m| m.at);
        assert!(
            last.is_some_and(|t| t <= 30_000),
            "the last heartbeat comes before the crash at 30s: {last:?}"
        );
        assert!(l
            .iter()
            .any(|lane| lane.kind == LaneKind::Pod && lane.segments.iter().any(|s| s.2 == LaneState::Terminating)));
        assert!(lanes(&o, cfg.duration, 2).len() == 2);
    }
}

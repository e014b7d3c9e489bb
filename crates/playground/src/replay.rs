//! The cluster as the timeline shows it at one instant, rebuilt from the events, and the
//! timeline's lanes: both come from kubelife-figures, which `kubelife render` draws with too.
//!
//! Nothing here simulates: it only replays the engine's events up to the playhead.

use kubelife_engine::{Millis, Outcome};

/// The time of the first event strictly after `t`, heartbeats aside, for "jump to the next event".
pub fn next_event_after(o: &Outcome, t: Millis) -> Option<Millis> {
    o.events
        .iter()
        .filter(|e| !e.kind.is_heartbeat())
        .map(|e| e.at_ms)
        .find(|&at| at > t)
}

pub use kubelife_figures::cluster::{at, ClusterView, NodeView, PodView};
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

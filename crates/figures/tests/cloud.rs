//! A terminated instance on AWS: the failed node's lane ends at the Node's deletion, which is
//! marked, and "where does the time go?" to the first replacement passes through it.

use kubelife_engine::{run, EventKind, RunOptions, Scenario};
use kubelife_figures::explain::bars;
use kubelife_figures::lanes::{lanes, LaneKind};

fn aws_instance_terminated() -> Scenario {
    Scenario::from_json(
        r#"{"version": "1.31", "seed": 1,
            "cloud": {"provider": "aws"},
            "nodes": [{"name": "node-1", "zone": "zone-a"}, {"name": "node-2", "zone": "zone-b"},
                      {"name": "node-3", "zone": "zone-c"}],
            "workloads": [{"kind": "Deployment", "name": "web", "replicas": 3}],
            "events": [{"at": "30s", "action": "InstanceTerminated", "node": "node-1"}]}"#,
    )
    .expect("a valid scenario")
}

#[test]
fn a_deleted_node_s_lane_ends_at_its_marked_deletion() {
    let cfg = aws_instance_terminated().resolve().expect("valid");
    let o = run(&cfg, &RunOptions::default());
    let deleted = o
        .events
        .iter()
        .find(|e| e.kind == EventKind::NodeDeleted && e.node.as_deref() == Some("node-1"))
        .expect("the cloud controller deletes node-1")
        .at_ms;
    assert!(
        deleted < 30_000 + 60_000,
        "deleted within a minute of the fault: {deleted}"
    );
    let all = lanes(&o, cfg.duration, 40);
    let lane = all
        .iter()
        .find(|l| l.kind == LaneKind::Node && l.name == "node-1")
        .expect("node-1's lane");
    assert!(lane.marks.iter().any(|m| m.kind == "NodeDeleted" && m.at == deleted));
    let last = lane.segments.iter().map(|s| s.1).max().expect("segments");
    assert_eq!(last, deleted, "the lane ends at the deletion");
    // The replacement's way passes through the deletion (PodGC frees the orphans).
    let b = &bars(&o, &cfg)[0];
    assert!(
        b.segments
            .iter()
            .any(|s| o.events[s.event].kind == EventKind::NodeDeleted),
        "{:?}",
        b.segments.iter().map(|s| o.events[s.event].kind).collect::<Vec<_>>()
    );
}

/// Seven machines under a MachineHealthCheck with `maxUnhealthy: 40%` (two of seven), three of
/// them hung at once: Cluster API holds every repair back, so the database on the first never
/// comes back, and "where does the time go?" says why, with the breaker's numbers.
#[test]
fn a_blocked_remediation_is_named_where_the_way_stops() {
    let nodes: Vec<String> = (1..=7)
        .map(|i| format!(r#"{{"name": "node-{i}", "zone": "zone-a"}}"#))
        .collect();
    let crash = |n: u32| format!(r#"{{"at": "30s", "action": "NodeCrash", "node": "node-{n}"}}"#);
    let cfg = Scenario::from_json(&format!(
        r#"{{"version": "1.32", "seed": 1, "durationSeconds": 1200,
            "remediation": [{{"kind": "MachineHealthCheck", "maxUnhealthy": "40%"}}],
            "nodes": [{}],
            "workloads": [{{"kind": "StatefulSet", "name": "db", "replicas": 7, "volume": {{}}}}],
            "events": [{}, {}, {}]}}"#,
        nodes.join(", "),
        crash(1),
        crash(2),
        crash(3)
    ))
    .expect("a valid scenario")
    .resolve()
    .expect("valid");
    let o = run(&cfg, &RunOptions::default());
    let english = |k: &str| kubelife_engine::cause::english(k);
    let all = bars(&o, &cfg);
    let drawn = kubelife_figures::explain::figure_bars(&all, &o.events, &english);
    let db = drawn.last().expect("the database's bar");
    assert!(
        db.pieces.is_empty()
            && db.total.contains("was held back")
            && db.total.contains("3 of 7 machines are not healthy")
            && db.total.contains("at most 2 allowed"),
        "{}",
        db.total
    );
}

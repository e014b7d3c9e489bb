//! The fix for a node that stays down: the `node.kubernetes.io/out-of-service` taint.
//!
//! A pod on a node that never comes back stays Terminating: its kubelet cannot confirm the
//! deletion, so a StatefulSet makes no replacement, and a ReadWriteOnce volume stays attached
//! there. Kubernetes' "Non-graceful node shutdown handling" is the operator's answer: once the
//! node is really off, `kubectl taint nodes NODE node.kubernetes.io/out-of-service=nodeshutdown:NoExecute`
//! lets PodGC force-delete its terminating pods and the attach-detach controller detach their
//! volumes at once (`NodeOutOfServiceVolumeDetach`, alpha in 1.24, on by default from 1.26, GA in
//! 1.28); the operator removes the taint once the node is back. Before 1.24 the answer is to
//! delete the Node object, after which PodGC deletes its pods as orphans.
//!
//! What is advised is read off the run: the scenario's own out-of-service action, or a
//! StatefulSet with a ReadWriteOnce volume that ends the run short of Ready pods while a node it
//! ran on stays down.

use super::Export;
use crate::cause::Cause;
use crate::outcome::Outcome;
use crate::scenario::{ActionKind, Config, WorkloadKind};
use crate::version::{Gate, GateStage};

/// The taint's key and the value the Kubernetes documentation uses.
const TAINT: &str = "node.kubernetes.io/out-of-service=nodeshutdown";
/// Most nodes named one by one; beyond them a note says how many more.
const MOST_NODES: usize = 5;

/// Nodes whose last fault never ends in the run (a crash, a stopped kubelet, a partition or a
/// shutdown with no recovery after it), in the order they failed.
fn down_for_good(cfg: &Config) -> Vec<usize> {
    let mut down: Vec<usize> = Vec::new();
    for a in &cfg.actions {
        let Some(n) = a.node else { continue };
        let fault = a.action.powers_off() || matches!(a.action, ActionKind::KubeletStop | ActionKind::NetworkPartition);
        if fault && !down.contains(&n) {
            down.push(n);
        } else if matches!(a.action, ActionKind::NodeRecover | ActionKind::DeleteNode) {
            down.retain(|&d| d != n);
        }
    }
    down
}

/// Why the taint is worth knowing here, and on which nodes (by index), if it is.
fn reason(cfg: &Config, outcome: &Outcome) -> Option<(Cause, Vec<usize>, String)> {
    if let Some(a) = cfg.actions.iter().find(|a| a.action == ActionKind::OutOfServiceTaint) {
        let n = a.node?;
        let cause = Cause::new("oos.why.action")
            .text("node", &cfg.nodes[n].name)
            .time("at", a.at);
        return Some((cause, vec![n], a.effect.to_string()));
    }
    let stuck: Vec<_> = cfg
        .workloads
        .iter()
        .filter(|w| w.kind == WorkloadKind::StatefulSet && w.volume.is_some_and(|v| !v.many))
        .filter_map(|w| {
            let s = outcome.summary.workloads.iter().find(|s| s.workload == w.name)?;
            (s.ready_at_end < s.desired).then_some((w, s))
        })
        .collect();
    let (w, s) = stuck.first()?;
    // The nodes a pod of a short StatefulSet (`<name>-<ordinal>`) ran on, among those that stay
    // down, in the order they failed.
    let ours = |pod: &str| {
        stuck
            .iter()
            .any(|(w, _)| pod.strip_prefix(w.name.as_str()).is_some_and(|r| r.starts_with('-')))
    };
    let mut ran_on: Vec<&str> = outcome
        .events
        .iter()
        .filter(|e| e.pod.as_deref().is_some_and(ours))
        .filter_map(|e| e.node.as_deref())
        .collect();
    crate::order::sort(&mut ran_on);
    ran_on.dedup();
    let nodes: Vec<usize> = down_for_good(cfg)
        .into_iter()
        .filter(|&n| ran_on.binary_search(&cfg.nodes[n].name.as_str()).is_ok())
        .collect();
    let first = *nodes.first()?;
    let cause = Cause::new("oos.why.stuck")
        .text("workload", &w.name)
        .text("ready", s.ready_at_end)
        .text("desired", s.desired)
        .text("node", &cfg.nodes[first].name);
    Some((cause, nodes, "NoExecute".to_string()))
}

/// The commands that put the out-of-service taint on the nodes that stay down, with notes on
/// when to run them and how to take the taint off; an empty document with a note when the run
/// shows no need for it.
pub fn out_of_service(cfg: &Config, outcome: &Outcome) -> Export {
    let v = cfg.profile.version;
    let Some((why, nodes, effect)) = reason(cfg, outcome) else {
        return Export {
            yaml: String::new(),
            notes: vec![Cause::new("oos.none")],
        };
    };
    let names: Vec<&str> = nodes
        .iter()
        .take(MOST_NODES)
        .map(|&n| cfg.nodes[n].name.as_str())
        .collect();
    let mut notes = vec![why];
    let stage = Gate::NodeOutOfServiceVolumeDetach.stage(v);
    if stage == GateStage::NotYet {
        // No taint to set before 1.24: deleting the Node lets PodGC remove its pods as orphans.
        notes.push(Cause::new("oos.delete_node").text("version", v));
        let yaml = names.iter().map(|n| format!("kubectl delete node {n}\n")).collect();
        return with_more(Export { yaml, notes }, nodes.len());
    }
    notes.push(Cause::new("oos.when").text("node", names[0]));
    if !cfg.out_of_service_volume_detach {
        notes.push(Cause::new("oos.gate").text("version", v));
    }
    let remove: Vec<String> = names
        .iter()
        .map(|n| format!("kubectl taint nodes {n} {TAINT}:{effect}-"))
        .collect();
    notes.push(Cause::new("oos.remove").text("command", remove.join("; ")));
    let yaml = names
        .iter()
        .map(|n| format!("kubectl taint nodes {n} {TAINT}:{effect}\n"))
        .collect();
    with_more(Export { yaml, notes }, nodes.len())
}

/// Adds a note on the nodes beyond the ones named.
fn with_more(mut e: Export, nodes: usize) -> Export {
    if nodes > MOST_NODES {
        e.notes.push(Cause::new("oos.more").text("more", nodes - MOST_NODES));
    }
    e
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::outcome::RunOptions;
    use crate::run::run;
    use crate::scenario::Scenario;

    fn advice(json: &str) -> Export {
        let cfg = Scenario::from_json(json).unwrap().resolve().unwrap();
        let outcome = run(&cfg, &RunOptions::default());
        out_of_service(&cfg, &outcome)
    }

    const DB: &str = r#""workloads": [{"kind": "StatefulSet", "name": "db", "replicas": 1, "volume": {"accessMode": "ReadWriteOnce"}}]"#;

    #[test]
    fn a_database_that_never_comes_back_gets_the_taint_and_how_to_remove_it() {
        let e = advice(&format!(
            r#"{{"version": "1.31", "durationSeconds": 1200, "nodes": [{{"name": "node-1"}}], {DB},
            "events": [{{"at": "1m", "action": "NodeCrash", "node": "node-1"}}]}}"#
        ));
        assert_eq!(
            e.yaml,
            "kubectl taint nodes node-1 node.kubernetes.io/out-of-service=nodeshutdown:NoExecute\n"
        );
        let keys: Vec<&str> = e.notes.iter().map(|n| n.key).collect();
        assert_eq!(keys, ["oos.why.stuck", "oos.when", "oos.remove"]);
        assert!(e.with_comments().contains(":NoExecute-"), "{}", e.with_comments());
    }

    #[test]
    fn the_taint_goes_where_the_database_s_pod_is_stuck() {
        let json = format!(
            r#"{{"version": "1.31", "durationSeconds": 1200, "nodes": [{{"name": "a"}}, {{"name": "b"}}, {{"name": "c"}}], {DB},
            "events": [{{"at": "1m", "action": "NodeCrash", "node": "a"}}, {{"at": "1m", "action": "NodeCrash", "node": "b"}},
                       {{"at": "1m", "action": "NodeCrash", "node": "c"}}]}}"#
        );
        let cfg = Scenario::from_json(&json).unwrap().resolve().unwrap();
        let outcome = run(&cfg, &RunOptions::default());
        let e = out_of_service(&cfg, &outcome);
        let db_node = outcome
            .events
            .iter()
            .find(|e| e.pod.as_deref() == Some("db-0") && e.node.is_some())
            .and_then(|e| e.node.clone())
            .expect("db-0 ran somewhere");
        assert_eq!(
            e.yaml,
            format!("kubectl taint nodes {db_node} node.kubernetes.io/out-of-service=nodeshutdown:NoExecute\n"),
            "only the node that holds the database's pod"
        );
    }

    #[test]
    fn a_node_that_recovers_needs_no_taint() {
        let e = advice(&format!(
            r#"{{"version": "1.31", "durationSeconds": 1200, "nodes": [{{"name": "node-1"}}], {DB},
            "events": [{{"at": "1m", "action": "NodeCrash", "node": "node-1"}}, {{"at": "3m", "action": "NodeRecover", "node": "node-1"}}]}}"#
        ));
        assert_eq!(e.yaml, "");
        assert_eq!(e.notes[0].key, "oos.none");
    }

    #[test]
    fn before_1_24_the_node_is_deleted_instead() {
        let e = advice(&format!(
            r#"{{"version": "1.23", "durationSeconds": 1200, "nodes": [{{"name": "node-1"}}], {DB},
            "events": [{{"at": "1m", "action": "NodeCrash", "node": "node-1"}}]}}"#
        ));
        assert_eq!(e.yaml, "kubectl delete node node-1\n");
        assert_eq!(e.notes[1].key, "oos.delete_node");
    }

    #[test]
    fn the_scenario_s_own_taint_is_explained_with_its_effect() {
        let e = advice(
            r#"{"version": "1.25", "durationSeconds": 600, "nodes": [{"name": "node-1"}],
            "events": [{"at": "1m", "action": "NodeCrash", "node": "node-1"},
                        {"at": "2m", "action": "OutOfServiceTaint", "node": "node-1", "effect": "NoSchedule"}],
            "featureGates": {"NodeOutOfServiceVolumeDetach": true}}"#,
        );
        assert!(e.yaml.ends_with(":NoSchedule\n"), "{}", e.yaml);
        assert_eq!(e.notes[0].key, "oos.why.action");
    }
}
